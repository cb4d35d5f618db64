/* test_apsp16_cpu.c - the exact 16-bit path on the CPU, on every instruction
 * set this CPU has (generic, AVX2, AVX-512BW, each a context's cpu_isa): the 16-bit
 * result is min(true distance, C) entry by entry, the settling step refuses
 * exactly when some reachable distance is >= C, gk_apsp_solve's output is
 * byte-identical for --precision 16, 32 and auto on graphs built to sit at
 * the cap and on random graphs, and the automatic choice goes both ways.
 * The int32 micro-kernels are checked on every instruction set too.  The
 * reference is the naive 64-bit loop of test_apsp_ref.h. */
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_apsp16_cases.h"
#include "cpu/apsp_cpu.h"
#include "api/context.h"

#include <stdio.h>
#include <string.h>

static const char *isa_name[] = { "auto", "generic", "AVX2", "AVX-512" };

/* One initial matrix through the 16-bit code, the settling step and the
 * front door at each precision. */
static void check_matrix(gk_context *ctx, const int32_t *init, int32_t V, const char *what)
{
    const char *isa = isa_name[gk_context_cpu_isa(ctx)];
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *want = t16_want(init, V), *out = malloc(bytes), *d = malloc(bytes);
    uint16_t *m16 = malloc((size_t)V * V * sizeof *m16);
    int needs32 = t16_needs32(want, V), how = -1;

    gk_status st = gk__apsp_cpu16(init, m16, V, gk_context_cpu_isa(ctx));
    int64_t bad = st ? -1 : t16_bad_capped(m16, want, V);
    ok(st == GK_OK && bad == 0, "%s [%s]: 16-bit result == min(distance, C) (%lld entries differ)", what, isa,
       (long long)bad);
    memset(out, 0x55, bytes);
    st = gk__apsp16_resolve(init, m16, V, out, &how);
    ok(st == GK_OK && (how == GK_APSP16_NOT_EXACT) == needs32, "%s [%s]: settled: %s (a reachable distance >= C: %s)",
       what, isa, gk__apsp16_how_text(how), needs32 ? "yes" : "no");
    if (how != GK_APSP16_NOT_EXACT)
        ok(memcmp(out, want, bytes) == 0, "%s [%s]: settled result == reference", what, isa);
    else {
        int untouched = 1;
        for (size_t i = 0; i < bytes; i++) untouched &= ((unsigned char *)out)[i] == 0x55;
        ok(untouched, "%s [%s]: not settled: the output is left alone", what, isa);
    }

    int32_t max_entry = 0;
    for (int64_t i = 0; i < (int64_t)V * V; i++)
        if (init[i] < T16_INF && init[i] > max_entry) max_entry = init[i];
    int precisions[] = { 16, 32, 0 };
    for (int p = 0; p < 3; p++) {
        gk_apsp_options o = t_apsp_opts(0, NULL, precisions[p]);
        gk_report rep = t_report();
        memcpy(d, init, bytes);
        st = t_apsp_solve(ctx, d, V, &o, &rep);
        int want_prec = precisions[p] == 32 ? 32 : precisions[p] == 16 ? (needs32 ? 32 : 16)
                        : max_entry >= T16_CAP ? 32 : needs32 ? 32 : 16;
        ok(st == GK_OK && memcmp(d, want, bytes) == 0 && rep.precision == want_prec && *rep.precision_detail,
           "%s [%s]: gk_apsp_solve precision=%d: == reference, ran in %d bits (want %d): %s", what, isa,
           precisions[p], rep.precision, want_prec, rep.precision_detail);
    }
    free(want); free(out); free(d); free(m16);
}

int main(void)
{
    no_plan();
    gk_context *ctx;
    gk_context_options co;
    gk_context_options_init(&co);
    co.backend = GK_BACKEND_CPU;
    if (!ok(gk_context_create(&ctx, &co) == GK_OK, "a CPU context %s", gk_last_error()))
        return done_testing();

    for (gk_cpu_isa isa = GK_CPU_ISA_GENERIC; isa <= GK_CPU_ISA_AVX512; isa++) {
        if (!gk_cpu_isa_supported(isa)) {
            skip("this CPU lacks it", isa_name[isa]);
            continue;
        }
        gk_context *ictx;          /* the instruction set is the context's */
        co.cpu_isa = isa;
        if (!ok(gk_context_create(&ictx, &co) == GK_OK && gk_context_cpu_isa(ictx) == isa,
                "a CPU context on %s", isa_name[isa]))
            continue;
        for (int c = 0; c < T16_NCASES; c++) {
            int32_t V;
            int32_t *init = t16_case(c, &V);
            check_matrix(ictx, init, V, t16_name[c]);
            free(init);
        }
        /* random graphs of awkward sizes (tiles of 64) with the usual weights,
         * and the int32 blocked code on this instruction set */
        int32_t sizes[] = { 1, 2, 63, 65, 130, 200 };
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int kind = 0; kind < G_KINDS; kind++) {
                ref_graph g = ref_random_graph(sizes[s], kind);
                int32_t *init = ref_matrix(&g), *want = t16_want(init, sizes[s]), *d = ref_matrix(&g);
                char what[96];
                snprintf(what, sizeof what, "random V=%d %s", sizes[s], ref_kind_name[kind]);
                check_matrix(ictx, init, sizes[s], what);
                ok(gk__apsp_cpu(d, sizes[s], isa) == GK_OK && !memcmp(d, want, (size_t)sizes[s] * sizes[s] * 4),
                   "%s [%s]: int32 blocked code == reference", what, isa_name[isa]);
                free(g.e); free(init); free(want); free(d);
            }
        gk_context_destroy(ictx);
    }
    int32_t zero = 0;
    ok(gk__apsp_cpu(&zero, 1, (gk_cpu_isa)17) == GK_ENODEV, "an unknown instruction set is refused: %s",
       gk_last_error());
    co.cpu_isa = (gk_cpu_isa)17;
    gk_context *bad = NULL;
    ok(gk_context_create(&bad, &co) == GK_EINVAL && !bad, "and by gk_context_create: %s", gk_last_error());

    /* a wide band: every weight may reach the cap (one heavy edge of 40000
     * in each half), the two halves unreachable from each other, every
     * reachable distance below the cap: settling would need a look at too
     * many rows, so it reruns in 32 bits -- slower, never wrong */
    {
        int32_t V = 1100;
        size_t bytes = (size_t)V * V * sizeof(int32_t);
        int32_t *init = malloc(bytes), *a = malloc(bytes), *b = malloc(bytes);
        uint16_t *m16 = malloc((size_t)V * V * sizeof *m16);
        for (int64_t i = 0; i < (int64_t)V * V; i++) init[i] = T16_INF;
        for (int32_t i = 0; i < V; i++) {
            int32_t h = i < V / 2 ? 0 : V / 2, m = i < V / 2 ? V / 2 : V - V / 2;
            init[(int64_t)i * V + i] = 0;
            init[(int64_t)i * V + h + (i - h + 1) % m] = 1 + i % 7;        /* a ring per half */
            init[(int64_t)i * V + h + (i - h + 5) % m] = 3;
        }
        init[1] = 40000;   /* 0 -> 1 heavy, bypassed by the ring (weight 1) */
        init[(int64_t)(V / 2) * V + V / 2 + 2] = 40000;
        int how = -1;
        memset(a, 0x55, bytes);
        int stok = gk__apsp_cpu16(init, m16, V, GK_CPU_ISA_AUTO) == GK_OK && gk__apsp16_resolve(init, m16, V, a, &how) == GK_OK;
        ok(stok && how == GK_APSP16_NOT_EXACT && ((unsigned char *)a)[bytes - 1] == 0x55,
           "a band too wide to look at: not settled, output untouched (%s)", gk__apsp16_how_text(how));
        gk_apsp_options o16 = t_apsp_opts(0, NULL, 16), o32 = t_apsp_opts(0, NULL, 32);
        gk_report r16 = t_report(), r32 = t_report();
        memcpy(a, init, bytes);
        memcpy(b, init, bytes);
        ok(t_apsp_solve(ctx, a, V, &o16, &r16) == GK_OK && t_apsp_solve(ctx, b, V, &o32, &r32) == GK_OK
           && memcmp(a, b, bytes) == 0 && r16.precision == 32,
           "a band too wide: --precision=16 reruns in 32 bits, output == the 32-bit one (%s)", r16.precision_detail);
        free(init); free(a); free(b); free(m16);
    }

    /* the front door's rules */
    {
        gk_apsp_problem pr;
        gk_apsp_plan *plan = NULL;
        gk_apsp_problem_init(&pr, 100);
        ok(gk_apsp_plan_create(ctx, &pr, NULL, &plan) == GK_OK && plan, "a plan on the CPU");
        gk_apsp_plan_destroy(plan);
        plan = (gk_apsp_plan *)&pr;   /* not touched by a failure but set to NULL */
        gk_apsp_problem_init(&pr, 0);
        ok(gk_apsp_plan_create(ctx, &pr, NULL, &plan) == GK_EINVAL && !plan, "a plan refuses V = 0: %s",
           gk_last_error());
        gk_apsp_problem_init(&pr, 10);
        ok(gk_apsp_plan_create(NULL, &pr, NULL, &plan) == GK_EINVAL && !plan, "a plan refuses no context");
    }
    int32_t one = 0;
    gk_apsp_options o = t_apsp_opts(0, NULL, 24);
    ok(t_apsp_solve(ctx, &one, 1, &o, NULL) == GK_EINVAL && strstr(gk_last_error(), "precision 24"),
       "precision 24 is refused: %s", gk_last_error());
    gk_context_destroy(ctx);
    /* the memory the front door asks for: the 16-bit CPU path's tiles and
     * result take the bytes of the int32 path's padded copy (a 16-bit run
     * on the CPU must not be refused where a 32-bit one runs) */
    {
        uint64_t V = 46000, np = 46016, e = V * V, p = np * np;
        for (int prec = 0; prec <= 32; prec += 16) {
            ok(gk__apsp_host_peak_bytes(46000, 1, 0, prec) == 4 * e + 4 * p,
               "CPU, precision %d: the matrix and one padded copy", prec);
            ok(gk__apsp_host_peak_bytes(46000, 1, 1, prec) == 8 * e + 4 * p,
               "CPU with the check, precision %d: and the check's copy", prec);
        }
        ok(gk__apsp_host_peak_bytes(46000, 0, 0, 32) == 4 * e, "GPU, 32 bits: the matrix alone");
        ok(gk__apsp_host_peak_bytes(46000, 0, 0, 0) == 6 * e, "GPU, automatic: and a 16-bit result");
        ok(gk__apsp_host_peak_bytes(46000, 0, 1, 16) == 8 * e + 4 * p,
           "GPU with the check: the matrix, the check's copy and the blocked CPU code's");
        ok(gk__apsp_host_peak_bytes(1, 1, 0, 0) == 4 + 4 * 64 * 64, "V = 1: one padded tile");
    }
    return done_testing();
}
