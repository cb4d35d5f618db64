/* test_apsp_write.c - gk__apsp_run_write: the file it writes is byte for
 * byte gk_apsp_solve + gk_apsp_write_format's (raw and .npy, every
 * precision), dist holds the result, a failed write leaves no file and the
 * context usable.  On the GPU (when one is usable) the result comes back in
 * small chunks (GK_APSP_STAGE_BYTES) while the previous one is written.
 * gk__apsp_graph_read + gk__apsp_graph_run_write (the matrix made on the
 * GPU from the edge list): the same file and the same lanes' choice as
 * gk_apsp_read_format + gk_apsp_solve + gk_apsp_write_format on graphs with
 * duplicates, self-loops, isolated vertices, V = 1, weights at the 16-bit
 * cap both ways, undirected; every bad input the same one-line error. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "api/commands.h"
#include "tap.h"
#include "test_api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* gk__apsp_run_write and gk__apsp_graph_run_write through a plan made for
 * the job and destroyed after it (what gk apsp does). */
static gk_status run_write(gk_context *ctx, int32_t *d, int32_t V, const gk_apsp_options *o, const char *out,
                           gk_format fmt, gk_report *rep, gk__apsp_write_report *wr)
{
    gk_apsp_problem p;
    gk_apsp_plan *plan = NULL;
    gk_apsp_problem_init(&p, V);
    gk_status st = gk_apsp_plan_create(ctx, &p, o, &plan);
    if (!st)
        st = gk__apsp_run_write(ctx, plan, d, out, fmt, rep, wr);
    gk_apsp_plan_destroy(plan);
    return st;
}

static gk_status graph_run_write(gk_context *ctx, gk__apsp_graph *g, const gk_apsp_options *o, const char *out,
                                 gk_format fmt, gk_report *rep, gk__apsp_write_report *wr)
{
    gk_apsp_problem p;
    gk_apsp_plan *plan = NULL;
    int32_t V = 0;
    gk__apsp_graph_info(g, &V, NULL, NULL);
    gk_apsp_problem_init(&p, V);
    gk_status st = gk_apsp_plan_create(ctx, &p, o, &plan);
    if (!st)
        st = gk__apsp_graph_run_write(ctx, plan, g, out, fmt, rep, wr);
    gk_apsp_plan_destroy(plan);
    return st;
}

static char dir[4096];

static int same_file(const char *a, const char *b)
{
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    int same = x && y;
    while (same) {
        int c = fgetc(x), d = fgetc(y);
        if (c != d) same = 0;
        if (c == EOF || d == EOF) break;
    }
    if (x) fclose(x);
    if (y) fclose(y);
    return same;
}

static int exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

static int no_temp_left(void)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.tmp\\.'", dir);
    return system(cmd) != 0;
}

/* One context: every precision, raw and .npy, against the reference files. */
static void run(gk_context *ctx, const char *name, const int32_t *init, int32_t V, int want_overlap)
{
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *ref = malloc(bytes), *d = malloc(bytes);
    char rawref[4200], npyref[4200], out[4200];
    memcpy(ref, init, bytes);
    gk_apsp_options o = t_apsp_opts(0, NULL, 32);
    snprintf(rawref, sizeof rawref, "%s/ref.raw", dir);
    snprintf(npyref, sizeof npyref, "%s/ref.npy", dir);
    if (t_apsp_solve(ctx, ref, V, &o, NULL) || gk_apsp_write_format(rawref, GK_FORMAT_AUTO, ref, V)
        || gk_apsp_write_format(npyref, GK_FORMAT_AUTO, ref, V)) {
        printf("Bail out! reference: %s\n", gk_last_error());
        exit(1);
    }
    /* the 16-bit path streams unless an entry is at its cap (an unreachable
     * pair, settled on the host first) */
    int64_t unreachable = 0;
    for (int64_t i = 0; i < (int64_t)V * V; i++)
        unreachable += ref[i] == GK_APSP_INF;
    int precs[] = { 32, 16, 0 };
    for (int p = 0; p < 3; p++)
        for (int npy = 0; npy < 2; npy++) {
            gk_apsp_options po = t_apsp_opts(0, NULL, precs[p]);
            gk__apsp_write_report wr;
            memcpy(d, init, bytes);
            snprintf(out, sizeof out, "%s/out%s", dir, npy ? ".npy" : "");
            gk_status st = run_write(ctx, d, V, &po, out, GK_FORMAT_AUTO, NULL, &wr);
            ok(st == GK_OK && same_file(out, npy ? npyref : rawref) && memcmp(d, ref, bytes) == 0,
               "%s, precision %d, %s: the file == solve + write's, dist == the result %s", name, precs[p],
               npy ? "npy" : "raw", st ? gk_last_error() : "");
            int want = want_overlap && (precs[p] == 32 || unreachable == 0);
            ok(wr.overlapped == want && wr.write >= 0 && wr.wall >= wr.write,
               "%s, precision %d, %s: overlapped = %d (want %d; %lld unreachable pairs)", name, precs[p],
               npy ? "npy" : "raw", wr.overlapped, want, (long long)unreachable);
            unlink(out);
        }
    /* with the check: written after it passed, not streamed */
    {
        gk_apsp_options po = t_apsp_opts(1, NULL, 0);
        gk__apsp_write_report wr;
        memcpy(d, init, bytes);
        snprintf(out, sizeof out, "%s/checked", dir);
        gk_status st = run_write(ctx, d, V, &po, out, GK_FORMAT_NTHU, NULL, &wr);
        ok(st == GK_OK && same_file(out, rawref) && wr.overlapped == 0, "%s, --check: the same file, not streamed %s",
           name, st ? gk_last_error() : "");
        unlink(out);
    }
    /* failures: no file, no temp file, and the context still works */
    {
        gk_apsp_options po = t_apsp_opts(0, NULL, 0);
        memcpy(d, init, bytes);
        snprintf(out, sizeof out, "%s/no/such/dir", dir);
        gk_status st = run_write(ctx, d, V, &po, out, GK_FORMAT_NTHU, NULL, NULL);
        ok(st == GK_EIO && !exists(out) && no_temp_left(), "%s: a missing directory: %s", name, gk_last_error());
        if (access("/dev/full", W_OK) == 0) {
            memcpy(d, init, bytes);
            st = run_write(ctx, d, V, &po, "/dev/full", GK_FORMAT_NTHU, NULL, NULL);
            ok(st == GK_EIO && strstr(gk_last_error(), "No space left"), "%s: /dev/full: %s", name, gk_last_error());
        } else {
            skip("no writable /dev/full", "/dev/full");
        }
        memcpy(d, init, bytes);
        snprintf(out, sizeof out, "%s/after", dir);
        st = run_write(ctx, d, V, &po, out, GK_FORMAT_NTHU, NULL, NULL);
        ok(st == GK_OK && same_file(out, rawref), "%s: after the failures, the next solve writes the same file %s",
           name, st ? gk_last_error() : "");
        unlink(out);
        ok(run_write(ctx, d, V, &po, NULL, GK_FORMAT_NTHU, NULL, NULL) == GK_EINVAL,
           "%s: no path is refused", name);
        ok(run_write(ctx, d, V, &po, out, GK_FORMAT_MTX, NULL, NULL) == GK_EINVAL && !exists(out),
           "%s: a graph format is refused: %s", name, gk_last_error());
    }
    unlink(rawref);
    unlink(npyref);
    free(ref);
    free(d);
}


/* ---- gk__apsp_graph_read + gk__apsp_graph_run_write ---- */

static void put_graph(const char *path, int32_t V, int32_t E, const int32_t *tri, size_t n32)
{
    FILE *f = fopen(path, "wb");
    int32_t hdr[2] = { V, E };
    if (!f || fwrite(hdr, sizeof hdr[0], 2, f) != 2 || (n32 && fwrite(tri, sizeof tri[0], n32, f) != n32) || fclose(f)) {
        printf("Bail out! cannot write %s\n", path);
        exit(1);
    }
}

/* The reference: the matrix reader, gk_apsp_solve on the CPU, the writer;
 * its report (the lanes' choice). */
static int reference(gk_context *cpu, const char *in, int und, int prec, const char *out, gk_report *rep)
{
    int32_t *d = NULL;
    int64_t E, V;
    int32_t mw;
    gk_apsp_options o = t_apsp_opts(0, NULL, prec);
    gk_status st = gk_apsp_read_format(in, GK_FORMAT_AUTO, und, 0, &d, &V, &E, &mw);
    if (!st) st = t_apsp_solve(cpu, d, V, &o, rep);
    if (!st) st = gk_apsp_write_format(out, GK_FORMAT_AUTO, d, V);
    free(d);
    return st == GK_OK;
}

/* Every precision, raw and npy, directed and undirected, on ctx: the file
 * and the lanes' choice are the reference's. */
static void graph_case(gk_context *cpu, gk_context *ctx, const char *dev, const char *name, const char *in,
                       int want_device)
{
    int precs[] = { 32, 16, 0 };
    for (int und = 0; und < 2; und++)
        for (int p = 0; p < 3; p++)
            for (int npy = 0; npy < 2; npy++) {
                char ref[4200], out[4200];
                gk_report rr = t_report(), rep = t_report();
                snprintf(ref, sizeof ref, "%s/gref%s", dir, npy ? ".npy" : "");
                snprintf(out, sizeof out, "%s/gout%s", dir, npy ? ".npy" : "");
                if (!reference(cpu, in, und, precs[p], ref, &rr)) {
                    ok(0, "%s: reference: %s", name, gk_last_error());
                    continue;
                }
                gk__apsp_graph *g = NULL;
                gk__apsp_write_report wr;
                gk_apsp_options o = t_apsp_opts(0, NULL, precs[p]);
                gk_status st = gk__apsp_graph_read(in, GK_FORMAT_AUTO, und, 0, &g);
                if (!st)
                    st = graph_run_write(ctx, g, &o, out, GK_FORMAT_AUTO, &rep, &wr);
                ok(st == GK_OK && same_file(out, ref) && rep.precision == rr.precision
                   && !strcmp(rep.precision_detail, rr.precision_detail),
                   "%s on %s%s, precision %d, %s: the reference's file and lanes (%d: %s) %s", name, dev,
                   und ? ", undirected" : "", precs[p], npy ? "npy" : "raw", rep.precision, rep.precision_detail,
                   st ? gk_last_error() : "");
                if (st == GK_OK && rep.precision != rr.precision)
                    diag("  reference: %d: %s", rr.precision, rr.precision_detail);
                int wd = want_device && !(precs[p] == 0 && want_device == 2);
                ok(st == GK_OK && wr.device_built == wd && (wd || wr.host_matrix >= 0),
                   "%s on %s, precision %d: matrix made on the device: %d (want %d)", name, dev, precs[p],
                   wr.device_built, wd);
                /* an edge-list graph can be solved again */
                if (!st && p == 0 && npy == 0) {
                    unlink(out);
                    st = graph_run_write(ctx, g, &o, out, GK_FORMAT_AUTO, NULL, NULL);
                    ok(st == GK_OK && same_file(out, ref), "%s on %s: a second solve of the graph, the same file %s",
                       name, dev, st ? gk_last_error() : "");
                }
                gk__apsp_graph_free(g);
                unlink(out);
                unlink(ref);
            }
}

/* want_device: 1 on the GPU for every precision, 2: not for auto (an edge
 * reaches the cap: the host decides, as before) */
static void graph_cases(gk_context *cpu, gk_context *ctx, const char *dev, int gpu)
{
    char in[4200];
    snprintf(in, sizeof in, "%s/g.in", dir);
    /* random graphs of several sizes (gk gen apsp's) */
    int32_t sizes[] = { 1, 2, 127, 128, 129, 333 };
    for (int i = 0; i < 6; i++) {
        char name[64];
        snprintf(name, sizeof name, "random V = %d", sizes[i]);
        if (gk__apsp_generate_nthu(in, sizes[i], (int64_t)sizes[i] * 6, 14 + (uint64_t)i, 1000)) {
            ok(0, "generate: %s", gk_last_error());
            continue;
        }
        graph_case(cpu, ctx, dev, name, in, gpu);
    }
    /* duplicates (the smallest wins in any order), self-loops (ignored,
     * even a heavy one), isolated vertices 4 and 5 */
    {
        int32_t t[] = { 0, 1, 7, 0, 1, 3, 0, 1, 9, 1, 1, 60000, 2, 0, 0, 3, 2, 5, 2, 3, 40000, 2, 3, 2 };
        put_graph(in, 6, 8, t, 24);
        /* (2, 3, 40000): an edge reaches the cap, so auto is decided on the host */
        graph_case(cpu, ctx, dev, "duplicates, self-loops, isolated vertices", in, gpu ? 2 : 0);
    }
    /* V = 1: no edge, and only self-loops */
    put_graph(in, 1, 0, NULL, 0);
    graph_case(cpu, ctx, dev, "V = 1, E = 0", in, gpu);
    {
        int32_t t[] = { 0, 0, 5, 0, 0, 1073741822 };
        put_graph(in, 1, 2, t, 6);
        graph_case(cpu, ctx, dev, "V = 1, two self-loops", in, gpu);
    }
    /* a heavy edge whose pair also has a light one: every entry below the
     * cap, auto runs 16 bits (and knows it only after the duplicates) */
    {
        int32_t t[] = { 0, 1, 50000, 0, 1, 4, 1, 2, 3 };
        put_graph(in, 3, 3, t, 9);
        graph_case(cpu, ctx, dev, "a heavy duplicate of a light edge", in, gpu ? 2 : 0);
    }
    /* a weight above the cap: auto picks 32 bits */
    {
        int32_t t[] = { 0, 1, 40000, 1, 2, 1 };
        put_graph(in, 3, 2, t, 6);
        graph_case(cpu, ctx, dev, "a weight above the cap", in, gpu ? 2 : 0);
    }
    /* a weight exactly at the cap, and the largest weight */
    {
        int32_t t[] = { 0, 1, 32767, 1, 2, 1073741822 };
        put_graph(in, 3, 2, t, 6);
        graph_case(cpu, ctx, dev, "weights 32767 and 1073741822", in, gpu ? 2 : 0);
    }
    /* distances reaching the cap (chain): the 16-bit run settled or rerun */
    {
        int32_t t[] = { 0, 1, 16383, 1, 2, 16383, 2, 3, 1, 3, 4, 1 };
        put_graph(in, 6, 4, t, 12);
        graph_case(cpu, ctx, dev, "a chain at the 16-bit cap", in, gpu);
        int32_t u[] = { 0, 1, 16383, 1, 2, 16383, 4, 5, 2 };
        put_graph(in, 6, 3, u, 9);
        graph_case(cpu, ctx, dev, "below the cap, unreachable pairs", in, gpu);
    }
    unlink(in);
}

/* Bad inputs: gk__apsp_graph_read fails with gk_apsp_read_format's status
 * and message, and gives no graph. */
static void graph_bad(void)
{
    char in[4200];
    snprintf(in, sizeof in, "%s/bad.in", dir);
    struct { const char *name; int32_t v[12]; int n; } c[] = {
        { "an empty file", { 0 }, 0 },
        { "a header only half there", { 3 }, 1 },
        { "a missing edge", { 3, 2, 0, 1, 5 }, 5 },
        { "trailing bytes", { 3, 1, 0, 1, 5, 0 }, 6 },
        { "V = 0", { 0, 0 }, 2 },
        { "V < 0", { -3, 0 }, 2 },
        { "E < 0", { 4, -2 }, 2 },
        { "E overflowing the size", { 4, 2147483647, 0, 1, 1 }, 5 },
        { "src outside [0, V)", { 4, 2, 0, 1, 1, 4, 1, 1 }, 8 },
        { "dst outside [0, V)", { 4, 1, 0, -1, 1 }, 5 },
        { "a negative weight", { 4, 1, 0, 1, -5 }, 5 },
        { "weight above the largest", { 4, 1, 0, 1, 1073741823 }, 5 },
        { "the second bad edge not reported first", { 4, 3, 0, 1, 1, 0, 9, 1, 0, 1, -1 }, 11 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        FILE *f = fopen(in, "wb");
        if (!f || (c[i].n && fwrite(c[i].v, sizeof c[i].v[0], (size_t)c[i].n, f) != (size_t)c[i].n) || fclose(f)) {
            printf("Bail out! cannot write %s\n", in);
            exit(1);
        }
        int32_t *d = NULL, V;
        int64_t E;
        int32_t mw;
        char want[1024];
        gk_status ws = gk__apsp_read_format32(in, GK_FORMAT_NTHU, 0, 0, &d, &V, &E, &mw);
        snprintf(want, sizeof want, "%s", gk_last_error());
        free(d);
        gk__apsp_graph *g = (gk__apsp_graph *)1;
        gk_status st = gk__apsp_graph_read(in, GK_FORMAT_NTHU, 0, 0, &g);
        ok(ws != GK_OK && st == ws && !strcmp(gk_last_error(), want) && !g && !strchr(want, '\n'),
           "graph read, %s: the matrix reader's error (%s)", c[i].name, gk_last_error());
        if (strcmp(gk_last_error(), want))
            diag("  want: %s", want);
    }
    unlink(in);
    /* a graph read as a matrix (text format) is solved once */
    {
        char txt[4200], out[4200];
        snprintf(txt, sizeof txt, "%s/g.edges", dir);
        snprintf(out, sizeof out, "%s/gtxt.out", dir);
        FILE *f = fopen(txt, "w");
        fputs("0 1 5\n1 2 7\n", f);
        fclose(f);
        gk_context_options o;
        gk_context *cpu;
        gk_context_options_init(&o);
        o.backend = GK_BACKEND_CPU;
        gk__apsp_graph *g = NULL;
        int32_t V = 0, mw = 0;
        int64_t E = 0;
        gk_status st = gk_context_create(&cpu, &o);
        if (!st) st = gk__apsp_graph_read(txt, GK_FORMAT_AUTO, 0, 0, &g);
        gk__apsp_graph_info(g, &V, &E, &mw);
        if (!st) st = graph_run_write(cpu, g, NULL, out, GK_FORMAT_AUTO, NULL, NULL);
        ok(st == GK_OK && V == 3 && E == 2 && mw == 7, "a text edge list through the graph API %s",
           st ? gk_last_error() : "");
        unlink(out);
        st = graph_run_write(cpu, g, NULL, out, GK_FORMAT_AUTO, NULL, NULL);
        ok(st == GK_EINVAL && !exists(out), "a graph kept as a matrix: a second solve is refused: %s", gk_last_error());
        {   /* a plan made for another V is refused, nothing written */
            gk__apsp_graph *g2 = NULL;
            gk_apsp_problem pr;
            gk_apsp_plan *plan = NULL;
            gk_apsp_problem_init(&pr, 4);
            unlink(out);
            gk_status s2 = gk__apsp_graph_read(txt, GK_FORMAT_AUTO, 0, 0, &g2);
            if (!s2) s2 = gk_apsp_plan_create(cpu, &pr, NULL, &plan);
            if (!s2) s2 = gk__apsp_graph_run_write(cpu, plan, g2, out, GK_FORMAT_AUTO, NULL, NULL);
            ok(s2 == GK_EINVAL && !exists(out) && strstr(gk_last_error(), "4 vertices"),
               "a plan for 4 vertices, a graph of 3: refused: %s", gk_last_error());
            gk_apsp_plan_destroy(plan);
            gk__apsp_graph_free(g2);
        }
        ok(gk__apsp_graph_run_write(cpu, NULL, NULL, out, GK_FORMAT_AUTO, NULL, NULL) == GK_EINVAL
           && gk__apsp_graph_read(txt, GK_FORMAT_AUTO, 0, 0, NULL) == GK_EINVAL, "no graph, nowhere to put one: refused");
        gk__apsp_graph_free(g);
        gk_context_destroy(cpu);
        unlink(txt);
    }
}

int main(void)
{
    no_plan();
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gk-apsp-write.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        printf("Bail out! mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    const int32_t V = 333;   /* 333 rows: many chunks of 12345 bytes, the last one short */
    int32_t *init = malloc((size_t)V * V * sizeof *init);
    gk_apsp_random_matrix(init, V, 0.05, 14, 1000);
    gk_context_options o;
    gk_context *ctx;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    if (gk_context_create(&ctx, &o)) {
        printf("Bail out! CPU context: %s\n", gk_last_error());
        return 1;
    }
    run(ctx, "CPU", init, V, 0);
    /* the CPU's file, for the GPU's prepared solve below */
    char cpuref[4200];
    snprintf(cpuref, sizeof cpuref, "%s/cpu.raw", dir);
    int32_t *c = malloc((size_t)V * V * sizeof *c);
    memcpy(c, init, (size_t)V * V * sizeof *c);
    if (t_apsp_solve(ctx, c, V, NULL, NULL) || gk__apsp_write(cpuref, c, V)) {
        printf("Bail out! CPU reference: %s\n", gk_last_error());
        return 1;
    }
    graph_bad();
    graph_cases(ctx, ctx, "CPU", 0);
    gk_context_destroy(ctx);
    char why[512];
    if (gk_gpu_usable(why, sizeof why)) {
        o.apsp_stage_bytes = 12345;               /* as GK_APSP_STAGE_BYTES=12345 */
        o.backend = GK_BACKEND_GPU;
        if (gk_context_create(&ctx, &o)) {
            printf("Bail out! GPU context: %s\n", gk_last_error());
            return 1;
        }
        run(ctx, "GPU", init, V, 1);
        {
            gk_context_options co;
            gk_context *cpu;
            gk_context_options_init(&co);
            co.backend = GK_BACKEND_CPU;
            if (gk_context_create(&cpu, &co)) {
                printf("Bail out! CPU context: %s\n", gk_last_error());
                return 1;
            }
            graph_cases(cpu, ctx, "GPU", 1);
            gk_context_destroy(cpu);
        }
        /* a plan made ahead (gk apsp makes it on its context thread while the
         * input is read) serves two executions; each writes the CPU's file */
        for (int p = 0; p < 2; p++) {
            gk_apsp_options po = t_apsp_opts(0, NULL, p ? 32 : 0);
            gk_apsp_problem prob;
            gk_apsp_plan *plan = NULL;
            char out[4200];
            snprintf(out, sizeof out, "%s/prepared", dir);
            gk_apsp_problem_init(&prob, V);
            gk_status st = gk_apsp_plan_create(ctx, &prob, &po, &plan);
            for (int rep = 0; rep < 2 && !st; rep++) {
                memcpy(c, init, (size_t)V * V * sizeof *c);
                st = gk__apsp_run_write(ctx, plan, c, out, GK_FORMAT_NTHU, NULL, NULL);
                ok(st == GK_OK && same_file(out, cpuref),
                   "GPU, precision %d: execution %d of one plan writes the CPU's file %s", po.precision, rep + 1,
                   st ? gk_last_error() : "");
                unlink(out);
            }
            gk_apsp_plan_destroy(plan);
        }
        gk_context_destroy(ctx);
    } else {
        skip(why, "GPU: no usable GPU");
        skip(why, "GPU: the graph API (the matrix made on the device) against the CPU reference");
    }
    unlink(cpuref);
    free(c);
    free(init);
    rmdir(dir);
    return done_testing();
}
