/* apsp_host.c - all-pairs shortest paths with libgk on host memory.
 *
 * A context (GK_DEVICE and the other variables of the gk commands apply),
 * one plan made once and executed on several random graphs, a one-call job
 * whose weights need the 32-bit path, the reports, errors through
 * gk_last_error() (one of them on purpose), and every result verified
 * against a plain Floyd-Warshall loop written here.
 *
 *   make apsp_host && ./apsp_host [V]      (examples/Makefile: pkg-config gk)
 *
 * Exit status: 0 when every result equals the loop's, 1 otherwise. */
#include <gk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The failing call's message: one line naming what was wrong. */
static int fail(const char *what)
{
    fprintf(stderr, "apsp_host: %s: %s\n", what, gk_last_error());
    return 1;
}

/* The reference: the textbook k-i-j loop.  Entries stay in [0, GK_APSP_INF]
 * and INF + INF = 2^31 - 2 fits in int32, so no overflow check is needed. */
static void floyd_warshall(int32_t *d, int64_t V)
{
    for (int64_t k = 0; k < V; k++)
        for (int64_t i = 0; i < V; i++) {
            int32_t dik = d[i * V + k];
            for (int64_t j = 0; j < V; j++)
                if (dik + d[k * V + j] < d[i * V + j])
                    d[i * V + j] = dik + d[k * V + j];
        }
}

static void print_report(const char *job, const gk_report *r)
{
    printf("  %-10s %s; config %s (%s); %s; compute %.3f ms\n", job, r->device, *r->config ? r->config : "-",
           gk_config_source_name(r->config_source), r->precision_detail, r->compute * 1e3);
}

int main(int argc, char **argv)
{
    int64_t V = argc > 1 ? strtoll(argv[1], NULL, 10) : 257;   /* not a multiple of any tile */
    const int graphs = 4;
    if (V < 2 || V > 4096) {
        fprintf(stderr, "apsp_host: V = %s: want 2 to 4096\n", argv[1]);
        return 1;
    }
    printf("apsp_host: gk %s (headers %s), V = %lld\n", gk_version(), GK_VERSION_STRING, (long long)V);

    gk_context_options copt;
    gk_context *ctx = NULL;
    gk_context_options_init(&copt);
    if (gk_context_options_from_env(&copt) != GK_OK || gk_context_create(&ctx, &copt) != GK_OK)
        return fail("context");
    printf("  backend    %s%s%s\n", gk_backend_name(gk_context_backend(ctx)),
           *gk_context_backend_note(ctx) ? ": " : "", gk_context_backend_note(ctx));

    size_t bytes = (size_t)V * (size_t)V * sizeof(int32_t);
    int32_t *dist = malloc(bytes), *ref = malloc(bytes);
    if (!dist || !ref) {
        fprintf(stderr, "apsp_host: out of memory\n");
        return 1;
    }

    /* one plan, several graphs: the configuration, kernel image and
     * buffers are made once */
    gk_apsp_problem prob;
    gk_apsp_plan *plan = NULL;
    gk_apsp_problem_init(&prob, V);                /* dense int32, host memory */
    if (gk_apsp_plan_create(ctx, &prob, NULL, &plan) != GK_OK)
        return fail("gk_apsp_plan_create");
    int verified = 0;
    for (int g = 0; g < graphs; g++) {
        double density = 0.02 + 0.05 * g;           /* sparse (many INF) to dense */
        if (gk_apsp_random_matrix(dist, V, density, 1000 + (uint64_t)g, 100) != GK_OK)
            return fail("gk_apsp_random_matrix");
        memcpy(ref, dist, bytes);
        gk_report rep;
        gk_report_init(&rep);
        if (gk_apsp_plan_execute(ctx, plan, dist, &rep) != GK_OK)
            return fail("gk_apsp_plan_execute");
        floyd_warshall(ref, V);
        if (gk_apsp_compare(dist, ref, V, "gk vs the plain loop") != GK_OK)
            return fail("graph");
        char job[32];
        snprintf(job, sizeof job, "plan #%d", g + 1);
        print_report(job, &rep);
        verified++;
    }

    /* a bad argument: the call fails with GK_EINVAL and says which */
    gk_status st = gk_apsp_plan_execute(ctx, plan, NULL, NULL);
    if (st != GK_EINVAL) {
        fprintf(stderr, "apsp_host: a NULL matrix was not refused (status %d)\n", (int)st);
        return 1;
    }
    printf("  expected error: %s: %s\n", gk_strerror(st), gk_last_error());
    gk_apsp_plan_destroy(plan);

    /* one call: weights above the 16-bit cap take the int32 path (the
     * report says so); checked inside gk as well (options.check) */
    gk_apsp_options opt;
    gk_report rep;
    gk_apsp_options_init(&opt);
    opt.check = 1;
    gk_report_init(&rep);
    if (gk_apsp_random_matrix(dist, V, 0.1, 7, 1000000) != GK_OK)
        return fail("gk_apsp_random_matrix");
    memcpy(ref, dist, bytes);
    if (gk_apsp_run(ctx, &prob, dist, &opt, &rep) != GK_OK)
        return fail("gk_apsp_run");
    floyd_warshall(ref, V);
    if (gk_apsp_compare(dist, ref, V, "gk vs the plain loop") != GK_OK)
        return fail("one-call graph");
    print_report("gk_apsp_run", &rep);
    printf("  %-10s %s against %s\n", "", rep.checked ? "also checked inside gk" : "not checked inside gk",
           rep.check_against);
    verified++;

    free(dist);
    free(ref);
    gk_context_destroy(ctx);
    printf("apsp_host: %d of %d results verified against the plain loop\n", verified, graphs + 1);
    return 0;
}
