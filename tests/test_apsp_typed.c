/* test_apsp_typed.c - the APSP API of 1.2 (issue 24) through libgk's public
 * calls, each result against an independent reference written here (a naive
 * k-i-j loop in int64 / long double, a walk along the predecessors summing
 * the initial weights, hand-made files):
 *   - int32, int64, float32, float64 distances with negative weights (random
 *     graphs without negative cycles: b(u,v) >= 0.5 shifted by vertex
 *     potentials), with and without predecessors and --check;
 *   - negative cycles: GK_ENEGCYCLE, report.cycle_vertex on a negative closed
 *     walk of the reference, the message;
 *   - the int overflow bound, NaN, -inf, -0.0;
 *   - 1.1-sized gk_apsp_options and gk_report accepted, a 1.1-sized
 *     gk_apsp_dist_report filled in its old layout;
 *   - gk_apsp_path on hand-made matrices;
 *   - gk_apsp_read_matrix's type rule and line errors, .npy in four types,
 *     gk_apsp_write_matrix. */
#define _GNU_SOURCE 1     /* memmem */
#include "config.h"

#include "gk.h"
#include "tap.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef GK_SYMVER
#include <dlfcn.h>
#endif

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double unit(void) { return (double)(next() >> 11) * 0x1p-53; }

static const gk_dtype types[4] = { GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 };

static int isint(gk_dtype t) { return t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64; }

static long double get(const void *d, int64_t k, gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)d)[k];
    case GK_DTYPE_INT64: return (long double)((const int64_t *)d)[k];
    case GK_DTYPE_FLOAT32: return ((const float *)d)[k];
    default: return ((const double *)d)[k];
    }
}

static int none(const void *d, int64_t k, gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)d)[k] == GK_APSP_INF;
    case GK_DTYPE_INT64: return ((const int64_t *)d)[k] == GK_APSP_INF64;
    default: return isinf((double)get(d, k, t));
    }
}

static void put(void *d, int64_t k, gk_dtype t, long double v, int edge)
{
    switch (t) {
    case GK_DTYPE_INT32: ((int32_t *)d)[k] = edge ? (int32_t)v : GK_APSP_INF; break;
    case GK_DTYPE_INT64: ((int64_t *)d)[k] = edge ? (int64_t)v : GK_APSP_INF64; break;
    case GK_DTYPE_FLOAT32: ((float *)d)[k] = edge ? (float)v : INFINITY; break;
    default: ((double *)d)[k] = edge ? (double)v : INFINITY; break;
    }
}

/* A graph with negative edges and no negative cycle: w(u,v) = b + p[u] -
 * p[v], b >= 0.5 (integers: b >= 1), about density of the pairs. */
static void *random_graph(int64_t V, gk_dtype t, double density, double *max_abs)
{
    void *d = malloc((size_t)(V * V) * gk_dtype_size(t));
    double *p = malloc((size_t)V * sizeof *p);
    for (int64_t v = 0; v < V; v++)
        p[v] = isint(t) ? (double)(next() % 40) : unit() * 20;
    *max_abs = 0;
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++) {
            int edge = i == j || unit() < density;
            double b = isint(t) ? (double)(1 + next() % 30) : 0.5 + unit() * 30;
            double w = i == j ? 0 : b + p[i] - p[j];
            put(d, i * V + j, t, w, edge);
            if (edge && fabs((double)get(d, i * V + j, t)) > *max_abs) *max_abs = fabs((double)get(d, i * V + j, t));
        }
    free(p);
    return d;
}

/* The naive k-i-j loop in long double with an explicit "none" flag. */
static long double *reference(const void *w, int64_t V, gk_dtype t, char **reach)
{
    long double *r = malloc((size_t)(V * V) * sizeof *r);
    char *h = malloc((size_t)(V * V));
    for (int64_t k = 0; k < V * V; k++) {
        h[k] = !none(w, k, t);
        r[k] = h[k] ? get(w, k, t) : 0;
    }
    for (int64_t k = 0; k < V; k++)
        for (int64_t i = 0; i < V; i++)
            if (h[i * V + k])
                for (int64_t j = 0; j < V; j++)
                    if (h[k * V + j] && (!h[i * V + j] || r[i * V + k] + r[k * V + j] < r[i * V + j])) {
                        r[i * V + j] = r[i * V + k] + r[k * V + j];
                        h[i * V + j] = 1;
                    }
    *reach = h;
    return r;
}

static double tolerance(int64_t V, gk_dtype t, double max_abs)
{
    double u = t == GK_DTYPE_FLOAT32 ? 0x1p-24 : t == GK_DTYPE_FLOAT64 ? 0x1p-53 : 0;
    return 2.0 * (double)(V - 1) * (double)(V - 1) * u * max_abs;
}

/* dist against the reference; pred walked back against the weights. */
static int check_result(const void *d, const int32_t *pred, const void *w, int64_t V, gk_dtype t, double max_abs,
                        char *why, size_t n)
{
    char *reach;
    long double *r = reference(w, V, t, &reach);
    double tol = tolerance(V, t, max_abs);
    int ok = 1;
    for (int64_t i = 0; i < V && ok; i++)
        for (int64_t j = 0; j < V && ok; j++) {
            int64_t k = i * V + j;
            if (!reach[k] != !!none(d, k, t)) {
                snprintf(why, n, "(%lld, %lld): reachable %d, gk says %s", (long long)i, (long long)j, reach[k],
                         none(d, k, t) ? "none" : "a distance");
                ok = 0;
            } else if (reach[k] && fabsl(get(d, k, t) - r[k]) > tol) {
                snprintf(why, n, "(%lld, %lld): %.17Lg, reference %.17Lg", (long long)i, (long long)j, get(d, k, t),
                         r[k]);
                ok = 0;
            }
            if (!ok || !pred) continue;
            if (i == j || !reach[k]) {
                if (pred[k] != GK_APSP_NO_PRED) {
                    snprintf(why, n, "pred (%lld, %lld) = %d, not -1", (long long)i, (long long)j, pred[k]);
                    ok = 0;
                }
                continue;
            }
            long double sum = 0;
            int64_t v = j, steps = 0;
            while (v != i && steps++ <= V) {
                int32_t p = pred[i * V + v];
                if (p < 0 || p >= V || none(w, p * V + v, t)) { steps = V + 2; break; }
                sum += get(w, p * V + v, t);
                v = p;
            }
            if (v != i || fabsl(sum - get(d, k, t)) > tol) {
                snprintf(why, n, "pred walk (%lld, %lld): ends at %lld, sum %.17Lg, dist %.17Lg", (long long)i,
                         (long long)j, (long long)v, sum, get(d, k, t));
                ok = 0;
            }
        }
    free(r);
    free(reach);
    return ok;
}

static void typed_runs(gk_context *ctx)
{
    const int64_t sizes[] = { 1, 2, 37, 100, 130 };
    for (int ti = 0; ti < 4; ti++)
        for (int si = 0; si < 5; si++)
            for (int mode = 0; mode < 3; mode++) {   /* 0 dist, 1 pred, 2 pred + check */
                gk_dtype t = types[ti];
                int64_t V = sizes[si];
                double max_abs;
                void *w = random_graph(V, t, si == 4 ? 0.05 : 0.3, &max_abs);
                size_t bytes = (size_t)(V * V) * gk_dtype_size(t);
                void *d = malloc(bytes);
                int32_t *pred = mode ? malloc((size_t)(V * V) * sizeof *pred) : NULL;
                memcpy(d, w, bytes);
                gk_apsp_problem p;
                gk_apsp_options o;
                gk_report rep;
                gk_apsp_problem_init(&p, V);
                p.dtype = t;
                gk_apsp_options_init(&o);
                o.check = mode == 2;
                gk_report_init(&rep);
                gk_status st = gk_apsp_run_paths(ctx, &p, d, pred, &o, &rep);
                char why[256] = "";
                int good = st == GK_OK && rep.dtype == t && rep.cycle_vertex == -1 && (mode != 2 || rep.checked)
                           && check_result(d, pred, w, V, t, max_abs, why, sizeof why);
                ok(good, "%s V = %lld%s%s: against the naive loop%s %s%s", gk_dtype_name(t), (long long)V,
                   mode ? ", predecessors walked back" : "", mode == 2 ? ", --check" : "",
                   isint(t) ? " (exact)" : " (within the tolerance)", st ? gk_last_error() : "", why);
                free(w); free(d); free(pred);
            }
}

/* A negative cycle 3 -> 5 -> 7 -> 3 (1 + 1 - 3) among non-negative edges. */
static void negative_cycles(gk_context *ctx)
{
    const int64_t V = 80;
    for (int ti = 0; ti < 4; ti++) {
        gk_dtype t = types[ti];
        void *w = malloc((size_t)(V * V) * gk_dtype_size(t));
        for (int64_t i = 0; i < V; i++)
            for (int64_t j = 0; j < V; j++)
                put(w, i * V + j, t, i == j ? 0 : (double)(next() % 50), i == j || next() % 4 == 0);
        put(w, 3 * V + 5, t, 1, 1);
        put(w, 5 * V + 7, t, 1, 1);
        put(w, 7 * V + 3, t, -3, 1);
        void *d = malloc((size_t)(V * V) * gk_dtype_size(t));
        memcpy(d, w, (size_t)(V * V) * gk_dtype_size(t));
        char *reach;
        long double *r = reference(w, V, t, &reach);   /* no early stop: d[v][v] < 0 on a negative walk */
        gk_apsp_problem p;
        gk_report rep;
        gk_apsp_problem_init(&p, V);
        p.dtype = t;
        gk_report_init(&rep);
        gk_status st = gk_apsp_run(ctx, &p, d, NULL, &rep);
        int64_t v = rep.cycle_vertex;
        char want[64];
        snprintf(want, sizeof want, "negative cycle through vertex %lld", (long long)v);
        ok(st == GK_ENEGCYCLE && v >= 0 && v < V && reach[v * V + v] && r[v * V + v] < 0
           && strstr(gk_last_error(), want) && rep.dtype == t,
           "%s: a negative cycle: GK_ENEGCYCLE, vertex %lld on a negative closed walk of the reference: %s",
           gk_dtype_name(t), (long long)v, gk_last_error());
        free(r); free(reach); free(w); free(d);
    }
}

static void entry_rules(gk_context *ctx)
{
    gk_apsp_problem p;
    gk_status st;
    /* int32 with a negative weight: (V - 1) * max|w| must stay below 2^29 - 1 */
    {
        const int64_t V = 100;
        int32_t *d = malloc(V * V * sizeof *d);
        for (int64_t k = 0; k < V * V; k++) d[k] = k % (V + 1) == 0 ? 0 : GK_APSP_INF;
        d[1] = -(1 << 23);                     /* 99 * 2^23 > 2^29 */
        gk_apsp_problem_init(&p, V);
        st = gk_apsp_run(ctx, &p, d, NULL, NULL);
        ok(st == GK_EINVAL && strstr(gk_last_error(), "int64"), "int32, (V-1) * max|w| >= 2^29 with a negative "
           "weight: refused, naming int64: %s", gk_last_error());
        d[1] = -(1 << 20);                     /* 99 * 2^20 < 2^29 */
        st = gk_apsp_run(ctx, &p, d, NULL, NULL);
        ok(st == GK_OK && d[1] == -(1 << 20) && d[2] == GK_APSP_INF, "int32 within the bound: runs (%s)",
           st ? gk_last_error() : "ok");
        free(d);
    }
    /* floats: NaN and -inf refused by entry; -0.0 becomes +0.0 */
    for (int f = 0; f < 2; f++) {
        double d[9] = { 0, 1, INFINITY, INFINITY, 0, 2, INFINITY, INFINITY, 0 };
        float s[9];
        gk_dtype t = f ? GK_DTYPE_FLOAT64 : GK_DTYPE_FLOAT32;
        gk_apsp_problem_init(&p, 3);
        p.dtype = t;
        d[5] = NAN;
        for (int k = 0; k < 9; k++) s[k] = (float)d[k];
        st = gk_apsp_run(ctx, &p, f ? (void *)d : (void *)s, NULL, NULL);
        ok(st == GK_EINVAL && strstr(gk_last_error(), "(1, 2) is NaN"), "%s: a NaN entry named: %s",
           gk_dtype_name(t), gk_last_error());
        d[5] = -INFINITY;
        for (int k = 0; k < 9; k++) s[k] = (float)d[k];
        st = gk_apsp_run(ctx, &p, f ? (void *)d : (void *)s, NULL, NULL);
        ok(st == GK_EINVAL && strstr(gk_last_error(), "(1, 2) is -inf"), "%s: a -inf entry named: %s",
           gk_dtype_name(t), gk_last_error());
        d[5] = -0.0;
        d[1] = 3;
        for (int k = 0; k < 9; k++) s[k] = (float)d[k];
        st = gk_apsp_run(ctx, &p, f ? (void *)d : (void *)s, NULL, NULL);
        double got = f ? d[5] : s[5];
        ok(st == GK_OK && got == 0 && !signbit(got), "%s: -0.0 comes back +0.0", gk_dtype_name(t));
    }
    /* predecessors asked of a plan made without them */
    {
        int32_t d[4] = { 0, 1, 1, 0 }, pr[4];
        gk_apsp_plan *plan = NULL;
        gk_apsp_problem_init(&p, 2);
        st = gk_apsp_plan_create(ctx, &p, NULL, &plan);
        ok(st == GK_OK && gk_apsp_plan_execute_paths(ctx, plan, d, pr, NULL) == GK_EINVAL
           && strstr(gk_last_error(), "predecessors"), "pred given to a plan made without predecessors: %s",
           gk_last_error());
        gk_apsp_plan_destroy(plan);
        gk_apsp_options o;
        gk_apsp_options_init(&o);
        o.predecessors = 1;
        st = gk_apsp_plan_create(ctx, &p, &o, &plan);
        for (int r = 0; r < 2; r++) {
            int32_t e[4] = { 0, 5, GK_APSP_INF, 0 };
            ok(st == GK_OK && gk_apsp_plan_execute_paths(ctx, plan, e, pr, NULL) == GK_OK && e[1] == 5
               && pr[0] == -1 && pr[1] == 0 && pr[2] == -1 && pr[3] == -1,
               "a plan with predecessors, execution %d: pred [[-1, 0], [-1, -1]]", r + 1);
        }
        gk_apsp_plan_destroy(plan);
    }
}

/* The struct sizes of 1.1: options without predecessors/negative, a report
 * without dtype/cycle_vertex, a dist report in its old layout. */
static void old_structs(gk_context *ctx)
{
    const size_t opt11 = offsetof(gk_apsp_options, predecessors);
    const size_t rep11 = (offsetof(gk_report, dtype) + _Alignof(gk_report) - 1) & ~(_Alignof(gk_report) - 1);
    gk_apsp_options o;
    gk_apsp_problem p;
    double d[4] = { 0, 1.5, INFINITY, 0 };
    gk_apsp_options_init(&o);
    o.predecessors = 7;                     /* past a 1.1 struct: never read */
    o.struct_size = opt11;
    gk_apsp_problem_init(&p, 2);
    p.dtype = GK_DTYPE_FLOAT64;
    ok(gk_apsp_run(ctx, &p, d, &o, NULL) == GK_OK && d[1] == 1.5, "gk_apsp_options of 1.1's size (%zu) accepted; "
       "the fields past it not read", opt11);
    o.struct_size = sizeof o;
    ok(gk_apsp_run(ctx, &p, d, &o, NULL) == GK_EINVAL && strstr(gk_last_error(), "predecessors 7"),
       "the same field read in a 1.2 struct: %s", gk_last_error());
    unsigned char buf[sizeof(gk_report) + 16];
    memset(buf, 0xab, sizeof buf);
    gk_report r;
    gk_report_init(&r);
    r.struct_size = rep11;
    memcpy(buf, &r, rep11);
    int untouched = 1;
    gk_status st = gk_apsp_run(ctx, &p, d, NULL, (gk_report *)buf);
    for (size_t k = rep11; k < sizeof buf; k++) untouched &= buf[k] == 0xab;
    ok(st == GK_OK && untouched && ((gk_report *)buf)->backend == GK_BACKEND_CPU,
       "a gk_report of 1.1's size (%zu) filled, nothing written past it", rep11);

    /* the dist report: the old run size inside, the fields after it moved back */
    char in[] = "/tmp/gk-typed-XXXXXX";
    int fd = mkstemp(in);
    int32_t g[] = { 3, 2, 0, 1, 4, 1, 2, 5 };
    ok(fd >= 0 && write(fd, g, sizeof g) == (ssize_t)sizeof g, "a small NTHU graph");
    close(fd);
    char out[64];
    snprintf(out, sizeof out, "%s.out", in);
    const size_t growth = sizeof(gk_report) - rep11, old = sizeof(gk_apsp_dist_report) - growth;
    unsigned char rb[sizeof(gk_apsp_dist_report) + 16];
    memset(rb, 0xab, sizeof rb);
    memcpy(rb, &old, sizeof old);
    st = gk_apsp_run_file(ctx, in, out, NULL, (gk_apsp_dist_report *)rb);
    int64_t V = 0, E = 0;
    size_t runsize = 0;
    memcpy(&V, rb + offsetof(gk_apsp_dist_report, V) - growth, sizeof V);
    memcpy(&E, rb + offsetof(gk_apsp_dist_report, E) - growth, sizeof E);
    memcpy(&runsize, rb + offsetof(gk_apsp_dist_report, run), sizeof runsize);
    untouched = 1;
    for (size_t k = old; k < sizeof rb; k++) untouched &= rb[k] == 0xab;
    ok(st == GK_OK && V == 3 && E == 2 && runsize == rep11 && untouched,
       "a gk_apsp_dist_report of 1.1's size: V = %lld, E = %lld at their old offsets, run.struct_size %zu, nothing "
       "past it (%s)", (long long)V, (long long)E, runsize, st ? gk_last_error() : "ok");
    gk_apsp_options_init(&o);
    o.struct_size = opt11;
    ok(gk_apsp_run_file(ctx, in, out, &o, NULL) == GK_OK, "gk_apsp_run_file takes 1.1-sized options");
    o.struct_size = sizeof o;
    o.predecessors = 1;
    ok(gk_apsp_run_file(ctx, in, out, &o, NULL) == GK_EINVAL && strstr(gk_last_error(), "predecessors"),
       "gk_apsp_run_file refuses predecessors by name: %s", gk_last_error());
    unlink(in);
    unlink(out);
}

/* A program built against 1.1 calls gk_apsp_options_init@GK_1.0 of the
 * shared library: it must write 1.1's struct and nothing past it (the
 * default @@GK_1.2 writes 1.2's). */
static void old_init_symbol(void)
{
#ifdef GK_SYMVER
    void *h = dlopen("./.libs/libgk.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        skip("no ./.libs/libgk.so (not run from the build directory)", "gk_apsp_options_init@GK_1.0");
        skip("no ./.libs/libgk.so", "gk_apsp_options_init@@GK_1.2");
        return;
    }
    void (*old)(gk_apsp_options *) = (void (*)(gk_apsp_options *))dlvsym(h, "gk_apsp_options_init", "GK_1.0");
    void (*cur)(gk_apsp_options *) = (void (*)(gk_apsp_options *))dlvsym(h, "gk_apsp_options_init", "GK_1.2");
    const size_t opt11 = offsetof(gk_apsp_options, predecessors);
    unsigned char buf[sizeof(gk_apsp_options) + 16];
    memset(buf, 0xab, sizeof buf);
    if (old) old((gk_apsp_options *)buf);
    int untouched = 1;
    for (size_t k = opt11; k < sizeof buf; k++) untouched &= buf[k] == 0xab;
    gk_apsp_options o;
    memcpy(&o, buf, opt11);
    ok(old && untouched && o.struct_size == opt11 && o.exchange == GK_EXCHANGE_AUTO && o.check == 0,
       "gk_apsp_options_init@GK_1.0 (what 1.1-built programs call) writes 1.1's %zu bytes and nothing past them", opt11);
    memset(buf, 0xab, sizeof buf);
    if (cur) cur((gk_apsp_options *)buf);
    memcpy(&o, buf, sizeof o);
    ok(cur && o.struct_size == sizeof o && o.predecessors == 0 && o.negative == 0,
       "gk_apsp_options_init@@GK_1.2 (the default) writes 1.2's %zu bytes", sizeof o);
    /* the dist report embeds a gk_report, which grew: the old init writes
       the old layout (run.struct_size the old report's) and nothing past */
    void (*old_dr)(gk_apsp_dist_report *) =
        (void (*)(gk_apsp_dist_report *))dlvsym(h, "gk_apsp_dist_report_init", "GK_1.0");
    const size_t rep11 = (offsetof(gk_report, dtype) + _Alignof(gk_report) - 1) & ~(_Alignof(gk_report) - 1);
    const size_t dr11 = sizeof(gk_apsp_dist_report) - (sizeof(gk_report) - rep11);
    unsigned char db[sizeof(gk_apsp_dist_report) + 16];
    memset(db, 0xab, sizeof db);
    if (old_dr) old_dr((gk_apsp_dist_report *)db);
    size_t got = 0, run = 0;
    memcpy(&got, db, sizeof got);
    memcpy(&run, db + offsetof(gk_apsp_dist_report, run), sizeof run);
    untouched = 1;
    for (size_t k = dr11; k < sizeof db; k++) untouched &= db[k] == 0xab;
    ok(old_dr && got == dr11 && run == rep11 && untouched,
       "gk_apsp_dist_report_init@GK_1.0 writes 1.1's %zu bytes (run.struct_size %zu) and nothing past them", dr11,
       rep11);
    /* gk_report itself, and the stencil structs that grew in 1.2 */
    void (*old_rep)(gk_report *) = (void (*)(gk_report *))dlvsym(h, "gk_report_init", "GK_1.0");
    unsigned char rb[sizeof(gk_report) + 16];
    memset(rb, 0xab, sizeof rb);
    if (old_rep) old_rep((gk_report *)rb);
    gk_report r11;
    memcpy(&r11, rb, rep11);
    untouched = 1;
    for (size_t k = rep11; k < sizeof rb; k++) untouched &= rb[k] == 0xab;
    ok(old_rep && untouched && r11.struct_size == rep11 && r11.compute == -1 && r11.checked == 0,
       "gk_report_init@GK_1.0 writes 1.1's %zu bytes and nothing past them", rep11);
    void (*old_sp)(gk_stencil_problem *, int64_t, int64_t, int64_t) =
        (void (*)(gk_stencil_problem *, int64_t, int64_t, int64_t))dlvsym(h, "gk_stencil_problem_init", "GK_1.0");
    const size_t sp11 = offsetof(gk_stencil_problem, desc);
    unsigned char sb[sizeof(gk_stencil_problem) + 16];
    memset(sb, 0xab, sizeof sb);
    if (old_sp) old_sp((gk_stencil_problem *)sb, 3, 4, 5);
    gk_stencil_problem sp;
    memcpy(&sp, sb, sp11);
    untouched = 1;
    for (size_t k = sp11; k < sizeof sb; k++) untouched &= sb[k] == 0xab;
    ok(old_sp && untouched && sp.struct_size == sp11 && sp.nx == 3 && sp.nz == 5 && sp.dtype == GK_DTYPE_FLOAT64,
       "gk_stencil_problem_init@GK_1.0 writes 1.1's %zu bytes and nothing past them", sp11);
    void (*old_sd)(gk_stencil_dist_report *) =
        (void (*)(gk_stencil_dist_report *))dlvsym(h, "gk_stencil_dist_report_init", "GK_1.0");
    const size_t sd11 = sizeof(gk_stencil_dist_report) - (sizeof(gk_report) - rep11);
    unsigned char sdb[sizeof(gk_stencil_dist_report) + 16];
    memset(sdb, 0xab, sizeof sdb);
    if (old_sd) old_sd((gk_stencil_dist_report *)sdb);
    memcpy(&got, sdb, sizeof got);
    memcpy(&run, sdb + offsetof(gk_stencil_dist_report, run), sizeof run);
    untouched = 1;
    for (size_t k = sd11; k < sizeof sdb; k++) untouched &= sdb[k] == 0xab;
    ok(old_sd && got == sd11 && run == rep11 && untouched,
       "gk_stencil_dist_report_init@GK_1.0 writes 1.1's %zu bytes (run.struct_size %zu) and nothing past them", sd11,
       rep11);
    dlclose(h);
#else
    skip("libgk linked without its version script", "gk_apsp_options_init@GK_1.0");
#endif
}

static void paths(void)
{
    /* 0 -> 1 -> 3 -> 2, 4 isolated; pred row 0: [-1, 0, 3, 1, -1] */
    int32_t pr[5 * 6];
    for (int k = 0; k < 30; k++) pr[k] = -1;
    pr[0 * 6 + 1] = 0; pr[0 * 6 + 3] = 1; pr[0 * 6 + 2] = 3;
    int64_t path[5], len = -1;
    ok(gk_apsp_path(pr, 6, 5, 0, 2, path, &len) == GK_OK && len == 4 && path[0] == 0 && path[1] == 1
       && path[2] == 3 && path[3] == 2, "gk_apsp_path 0 -> 2 with ld 6: 0 1 3 2");
    ok(gk_apsp_path(pr, 6, 5, 0, 4, path, &len) == GK_OK && len == 0, "unreachable: len 0");
    ok(gk_apsp_path(pr, 6, 5, 3, 3, path, &len) == GK_OK && len == 1 && path[0] == 3, "from = to: one vertex");
    ok(gk_apsp_path(pr, 6, 5, 0, 5, path, &len) == GK_EINVAL && strstr(gk_last_error(), "to = 5"),
       "a vertex outside [0, V): %s", gk_last_error());
    pr[0 * 6 + 1] = 2;                              /* 2 <- 3 <- 1 <- 2: a cycle */
    ok(gk_apsp_path(pr, 6, 5, 0, 2, path, &len) == GK_EINVAL && strstr(gk_last_error(), "cycle"),
       "a cycle in the matrix: %s", gk_last_error());
    pr[0 * 6 + 1] = 9;
    ok(gk_apsp_path(pr, 6, 5, 0, 2, path, &len) == GK_EINVAL && strstr(gk_last_error(), "= 9"),
       "a predecessor out of range: %s", gk_last_error());
}

static const char *file(const char *name, const char *text)
{
    static char path[8][128];
    static int n;
    char *p = path[n++ % 8];
    snprintf(p, 128, "/tmp/gk-typed-%d-%s", (int)getpid(), name);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

static void files(void)
{
    gk_dtype t;
    void *d = NULL;
    int64_t V = 0, E = 0;
    /* reals -> float64; duplicates keep the smallest; self-loops ignored; -0.0 -> +0.0 */
    const char *gr = file("a.gr", "c x\np sp 3 5\na 1 2 0.5\na 1 2 0.25\na 2 3 -0.0\na 3 3 -7\na 3 1 -1.5e1\n");
    t = 0;
    gk_status st = gk_apsp_read_matrix(gr, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    double *x = d;
    ok(st == GK_OK && t == GK_DTYPE_FLOAT64 && V == 3 && E == 5 && x[1] == 0.25 && x[5] == 0 && !signbit(x[5])
       && x[8] == 0 && x[6] == -15 && isinf(x[2]) && x[0] == 0,
       "gr with reals: float64, min of duplicates, self-loop ignored, -0.0 -> +0.0 (%s)", st ? gk_last_error() : "ok");
    gk_free(d);
    t = GK_DTYPE_FLOAT32;
    st = gk_apsp_read_matrix(gr, GK_FORMAT_AUTO, 1, 0, &t, &d, &V, &E);
    float *y = d;
    ok(st == GK_OK && t == GK_DTYPE_FLOAT32 && y[1] == 0.25f && y[3] == 0.25f && y[2] == -15 && y[6] == -15,
       "--weights=float32, undirected: both ways");
    gk_free(d);
    t = GK_DTYPE_INT32;
    st = gk_apsp_read_matrix(gr, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_EFORMAT && strstr(gk_last_error(), "a.gr:3: arc 1 -> 2: weight '0.5' is not an integer"),
       "int32 asked, a real weight: named by line: %s", gk_last_error());
    /* the auto rule for integers */
    const char *e1 = file("b.edges", "0 1 5\n1 2 -3\n");
    t = 0;
    st = gk_apsp_read_matrix(e1, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_OK && t == GK_DTYPE_INT32 && V == 3 && ((int32_t *)d)[1] == 5 && ((int32_t *)d)[5] == -3
       && ((int32_t *)d)[2] == GK_APSP_INF, "small integers, one negative: int32");
    gk_free(d);
    const char *e2 = file("c.edges", "0 1 600000000\n1 2 1\n");
    t = 0;
    st = gk_apsp_read_matrix(e2, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_OK && t == GK_DTYPE_INT64 && ((int64_t *)d)[1] == 600000000 && ((int64_t *)d)[2] == GK_APSP_INF64,
       "(V-1) * max|w| = 1.2e9 >= 2^30 - 1: int64");
    gk_free(d);
    const char *e3 = file("d.edges", "0 1 -300000000\n1 2 1\n");
    t = 0;
    st = gk_apsp_read_matrix(e3, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_OK && t == GK_DTYPE_INT64, "negative, (V-1) * max|w| = 6e8 >= 2^29 - 1: int64");
    gk_free(d);
    t = GK_DTYPE_INT32;
    st = gk_apsp_read_matrix(e3, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_EINVAL && strstr(gk_last_error(), "use int64") && !d, "the same as int32: refused, naming int64: %s",
       gk_last_error());
    const char *e4 = file("e.edges", "0 1 9007199254740992\n");
    t = GK_DTYPE_INT64;
    st = gk_apsp_read_matrix(e4, GK_FORMAT_AUTO, 0, 300, &t, &d, &V, &E);
    ok(st == GK_EINVAL && strstr(gk_last_error(), "2^61") && !d, "int64 that would overflow (299 * 2^53): refused "
       "before allocating: %s", gk_last_error());
    t = 0;
    st = gk_apsp_read_matrix(e4, GK_FORMAT_AUTO, 0, 300, &t, &d, &V, &E);
    ok(st == GK_EINVAL && !d, "auto: the same refused");
    const char *e5 = file("f.edges", "0 1 2\n1 2 NaN\n");
    t = 0;
    st = gk_apsp_read_matrix(e5, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_EFORMAT && strstr(gk_last_error(), "f.edges:2:") && strstr(gk_last_error(), "NaN"),
       "NaN: file:line: %s", gk_last_error());
    const char *e6 = file("g.edges", "0 1 2\n1 2 1,5\n");
    st = gk_apsp_read_matrix(e6, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_EFORMAT && strstr(gk_last_error(), "g.edges:2:") && strstr(gk_last_error(), "'1,5'"),
       "junk: file:line: %s", gk_last_error());
    const char *m1 = file("h.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n");
    st = gk_apsp_read_matrix(m1, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_EFORMAT && strstr(gk_last_error(), "h.mtx:3:"), "an integer mtx with 1.5: %s", gk_last_error());
    const char *m2 = file("i.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1\n");
    t = 0;
    st = gk_apsp_read_matrix(m2, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
    ok(st == GK_OK && t == GK_DTYPE_INT32 && ((int32_t *)d)[1] == 1 && ((int32_t *)d)[3] == 1, "pattern: weight 1");
    gk_free(d);
    /* the 1.0 reader keeps its int32 rules */
    int32_t *d32 = NULL;
    ok(gk_apsp_read_format(e1, GK_FORMAT_AUTO, 0, 0, &d32, &V, &E, NULL) == GK_EFORMAT && !d32,
       "gk_apsp_read_format still refuses a negative weight");
    /* .npy in four types, raw in the type */
    for (int ti = 0; ti < 4; ti++) {
        gk_dtype tt = types[ti];
        double ma;
        void *w = random_graph(9, tt, 0.5, &ma);
        put(w, 1, tt, 7, ti % 2);      /* entry 1: "no edge" for int32, an edge for int64 */
        char np[128], raw[128];
        snprintf(np, sizeof np, "/tmp/gk-typed-%d-%d.npy", (int)getpid(), ti);
        snprintf(raw, sizeof raw, "/tmp/gk-typed-%d-%d.bin", (int)getpid(), ti);
        st = gk_apsp_write_matrix(np, GK_FORMAT_AUTO, tt, w, 9);
        gk_status st2 = gk_apsp_write_matrix(raw, GK_FORMAT_AUTO, tt, w, 9);
        t = 0;
        d = NULL;
        gk_status st3 = gk_apsp_read_matrix(np, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
        FILE *f = fopen(raw, "rb");
        unsigned char b[81 * 8 + 1];
        size_t n = f ? fread(b, 1, sizeof b, f) : 0;
        if (f) fclose(f);
        f = fopen(np, "rb");
        unsigned char h[128];
        size_t hn = f ? fread(h, 1, sizeof h, f) : 0;
        if (f) fclose(f);
        char descr[32];
        snprintf(descr, sizeof descr, "'descr': '<%c%d'", isint(tt) ? 'i' : 'f', (int)gk_dtype_size(tt));
        ok(!st && !st2 && !st3 && t == tt && V == 9 && !memcmp(d, w, 81 * gk_dtype_size(tt))
           && n == 81 * gk_dtype_size(tt) && !memcmp(b, w, n) && hn == 128 && memmem(h, hn, descr, strlen(descr)),
           "%s: .npy written with %s and read back the same; raw is V*V*%zu bytes", gk_dtype_name(tt), descr,
           gk_dtype_size(tt));
        gk_free(d);
        /* as another type: int -> float exact, float -> int refused when not integral */
        t = isint(tt) ? GK_DTYPE_FLOAT64 : GK_DTYPE_INT64;
        d = NULL;
        st = gk_apsp_read_matrix(np, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
        /* entry 1 is an edge or "no edge" depending on the generator's
           state (the GPU tests before draw from it too): check both ways */
        ok(isint(tt) ? st == GK_OK && t == GK_DTYPE_FLOAT64
                           && (none(w, 1, tt) ? isinf(((double *)d)[1]) && ((double *)d)[1] > 0
                                              : ((double *)d)[1] == (double)get(w, 1, tt))
                     : st == GK_EFORMAT && !d,
           "%s .npy read as %s: %s", gk_dtype_name(tt), gk_dtype_name(t), st ? gk_last_error() : "converted");
        gk_free(d);
        free(w);
        unlink(np);
        unlink(raw);
    }
    /* a NaN in a .npy input: named by entry */
    {
        double w[4] = { 0, NAN, 1, 0 };
        char np[128];
        snprintf(np, sizeof np, "/tmp/gk-typed-%d-nan.npy", (int)getpid());
        gk_apsp_write_matrix(np, GK_FORMAT_NPY, GK_DTYPE_FLOAT64, w, 2);
        t = 0;
        d = NULL;
        st = gk_apsp_read_matrix(np, GK_FORMAT_AUTO, 0, 0, &t, &d, &V, &E);
        ok(st == GK_EFORMAT && strstr(gk_last_error(), "entry (0, 1) is NaN") && !d, ".npy with NaN: %s",
           gk_last_error());
        unlink(np);
    }
    ok(gk_apsp_write_matrix("/nonexistent/dir/x.npy", GK_FORMAT_AUTO, GK_DTYPE_FLOAT32, &V, 1) == GK_EIO
       && access("/nonexistent/dir/x.npy", F_OK) != 0, "an unwritable output: GK_EIO");
    const char *all[] = { gr, e1, e2, e3, e4, e5, e6, m1, m2 };
    for (int k = 0; k < 9; k++) unlink(all[k]);
}

/* With a usable GPU: the typed GPU paths against the blocked CPU code,
 * bit for bit (the same tile 64 for floats and predecessors), --check on
 * the GPU, and the same negative-cycle vertex. */
static void gpu_runs(gk_context *cpu)
{
    gk_context *gpu = NULL;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_GPU;
    if (gk_context_create(&gpu, &o)) {
        skip("no usable GPU", "typed APSP on the GPU == the blocked CPU code, bit for bit");
        return;
    }
    const int64_t sizes[] = { 37, 130 };
    for (int ti = 0; ti < 4; ti++)
        for (int si = 0; si < 2; si++)
            for (int mode = 0; mode < 3; mode++) {   /* 0 dist, 1 pred, 2 pred + check */
                gk_dtype t = types[ti];
                int64_t V = sizes[si];
                double max_abs;
                void *w = random_graph(V, t, 0.3, &max_abs);
                size_t bytes = (size_t)(V * V) * gk_dtype_size(t);
                void *dg = malloc(bytes), *dc = malloc(bytes);
                int32_t *pg = mode ? malloc((size_t)(V * V) * 4) : NULL, *pc = mode ? malloc((size_t)(V * V) * 4) : NULL;
                memcpy(dg, w, bytes);
                memcpy(dc, w, bytes);
                gk_apsp_problem p;
                gk_apsp_options op;
                gk_report rep;
                gk_apsp_problem_init(&p, V);
                p.dtype = t;
                gk_apsp_options_init(&op);
                op.check = mode == 2;
                gk_report_init(&rep);
                gk_status sg = gk_apsp_run_paths(gpu, &p, dg, pg, &op, &rep);
                op.check = 0;
                gk_status sc = gk_apsp_run_paths(cpu, &p, dc, pc, &op, NULL);
                char why[256] = "";
                ok(!sg && !sc && rep.backend == GK_BACKEND_GPU && (mode != 2 || rep.checked) && !memcmp(dg, dc, bytes)
                   && (!mode || !memcmp(pg, pc, (size_t)(V * V) * 4)) && check_result(dg, pg, w, V, t, max_abs, why, sizeof why),
                   "GPU %s V = %lld%s%s: == the blocked CPU code bit for bit%s %s%s", gk_dtype_name(t), (long long)V,
                   mode ? ", predecessors" : "", mode == 2 ? ", --check" : "", mode ? " (the same predecessors)" : "",
                   sg ? gk_last_error() : "", why);
                free(w); free(dg); free(dc); free(pg); free(pc);
            }
    /* the negative cycle's vertex: the same as the CPU's */
    for (int ti = 0; ti < 4; ti++) {
        gk_dtype t = types[ti];
        const int64_t V = 150;
        void *w = malloc((size_t)(V * V) * gk_dtype_size(t)), *d = malloc((size_t)(V * V) * gk_dtype_size(t));
        for (int64_t i = 0; i < V; i++)
            for (int64_t j = 0; j < V; j++)
                put(w, i * V + j, t, i == j ? 0 : (double)(next() % 50), i == j || next() % 4 == 0);
        put(w, 70 * V + 140, t, 1, 1);
        put(w, 140 * V + 100, t, 1, 1);
        put(w, 100 * V + 70, t, -3, 1);
        gk_apsp_problem p;
        gk_report rg, rc;
        gk_apsp_problem_init(&p, V);
        p.dtype = t;
        gk_report_init(&rg);
        gk_report_init(&rc);
        memcpy(d, w, (size_t)(V * V) * gk_dtype_size(t));
        gk_status sg = gk_apsp_run(gpu, &p, d, NULL, &rg);
        memcpy(d, w, (size_t)(V * V) * gk_dtype_size(t));
        gk_status sc = gk_apsp_run(cpu, &p, d, NULL, &rc);
        ok(sg == GK_ENEGCYCLE && sc == GK_ENEGCYCLE && rg.cycle_vertex == rc.cycle_vertex && rg.cycle_vertex >= 0,
           "GPU %s: a negative cycle, vertex %lld (CPU: %lld)", gk_dtype_name(t), (long long)rg.cycle_vertex,
           (long long)rc.cycle_vertex);
        free(w); free(d);
    }
    gk_context_destroy(gpu);
}

int main(void)
{
    gk_context *ctx = NULL;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    no_plan();
    if (gk_context_create(&ctx, &o))
        skip_all("no CPU context");
    typed_runs(ctx);
    negative_cycles(ctx);
    gpu_runs(ctx);
    entry_rules(ctx);
    old_structs(ctx);
    old_init_symbol();
    paths();
    files();
    gk_context_destroy(ctx);
    return done_testing();
}
