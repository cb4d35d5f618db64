/* test_sssp_api.c - gk_sssp_run and gk_sssp_run_rows (gk/sssp.h) against
 * the repeated-relaxation reference of sssp_ref.h, on the CPU backend and,
 * when a GPU is usable, on the GPU backend: every algorithm and element
 * type, limit, min_only with nearest sources, predecessors, chunks of
 * rows; auto's choices and reasons; the refusals (a source outside [0, V),
 * Dijkstra with a negative weight, a negative cycle, limit with negative
 * weights, FW too large; on a GPU, device pointers for the host
 * buffers). */
#include "config.h"

#include "gk.h"
#include "tap.h"
#include "sssp_ref.h"

#include <stdio.h>
#ifdef GK_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static const gk_dtype types[] = { GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 };
static const gk_sssp_algorithm algs[] = { GK_SSSP_AUTO, GK_SSSP_FW, GK_SSSP_DIJKSTRA, GK_SSSP_JOHNSON,
                                          GK_SSSP_BELLMAN_FORD };

static gk_graph *make(const ref_graph *rg, gk_dtype t, int undirected)
{
    int64_t *ip;
    int32_t *ix;
    void *w;
    gk_graph *g = NULL;
    ref_csr(rg, t, &ip, &ix, &w);
    if (gk_graph_from_csr(rg->V, ip, ix, w, t, undirected, &g)) diag("graph: %s", gk_last_error());
    free(ip); free(ix); free(w);
    return g;
}

/* The rows gathered by the sink, in order. */
typedef struct sink_state { char *dist; int32_t *pred; int64_t next, V; size_t es; int calls; } sink_state;

static gk_status sink(void *user, int64_t first, int64_t rows, const void *dist, const int32_t *pred)
{
    sink_state *s = user;
    if (first != s->next) return GK_EINTERNAL;
    memcpy(s->dist + (size_t)(first * s->V) * s->es, dist, (size_t)(rows * s->V) * s->es);
    if (pred) memcpy(s->pred + first * s->V, pred, (size_t)(rows * s->V) * 4);
    s->next += rows;
    s->calls++;
    return GK_OK;
}

/* Compare rows x V against the reference from src (min_only: one row). */
static int rows_ok(const char *what, const ref_graph *rg, gk_dtype t, int undirected, const int64_t *src, int64_t S,
                   int min_only, double limit, const char *dist, const int32_t *pred, const int32_t *near,
                   double tol)
{
    const int64_t V = rg->V, rows = min_only ? 1 : S;
    const size_t es = gk_dtype_size(t);
    double *m = ref_matrix(rg, t, undirected), *d = malloc((size_t)V * sizeof *d);
    int good = 1;
    for (int64_t r = 0; r < rows && good; r++) {
        ref_sssp(m, V, t, min_only ? src : &src[r], min_only ? S : 1, d);
        for (int64_t v = 0; v < V; v++) {
            double ref = d[v] > limit ? INFINITY : d[v];
            double got = ref_get(dist + (size_t)(r * V) * es, t, v);
            if (isinf(ref) ? !isinf(got) : !(fabs(got - ref) <= tol)) {
                diag("%s: row %lld vertex %lld: got %.17g, want %.17g", what, (long long)r, (long long)v, got, ref);
                good = 0;
                break;
            }
            d[v] = got;
        }
        if (good && pred && !ref_tree_ok(m, V, t, d, pred + r * V, min_only ? src : &src[r], min_only ? S : 1,
                                         tol * 4)) {
            diag("%s: row %lld: predecessors are not a shortest-path tree", what, (long long)r);
            good = 0;
        }
        if (good && near)
            for (int64_t v = 0; v < V; v++)
                if (isinf(d[v]) != (near[v] < 0)) { diag("%s: nearest[%lld] = %d", what, (long long)v, near[v]); good = 0; break; }
    }
    free(m);
    free(d);
    return good;
}

static void backend_cases(gk_context *ctx, const char *bname)
{
    int seed = 7;
    for (size_t ti = 0; ti < 4; ti++)
        for (size_t ai = 0; ai < 5; ai++)
            for (int neg = 0; neg <= 1; neg++) {
                gk_sssp_algorithm a = algs[ai];
                if (neg && a == GK_SSSP_DIJKSTRA) continue;
                gk_dtype t = types[ti];
                int64_t V = 70 + 13 * (int64_t)ti, E = 4 * V;
                ref_graph rg = ref_random(V, E, t, 0, 60, neg, (uint64_t)seed++);
                gk_graph *g = make(&rg, t, 0);
                int64_t src[] = { 3, 0, V - 1, 3, V / 2 };
                const int64_t S = 5;
                const size_t es = gk_dtype_size(t);
                const int floating = t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64;
                const double u = t == GK_DTYPE_FLOAT32 ? 0x1p-24 : 0x1p-53;
                /* Johnson and FW sum in another order than the reference */
                const double tol = floating && (a == GK_SSSP_FW || (a == GK_SSSP_JOHNSON && neg) || a == GK_SSSP_AUTO)
                                       ? 8.0 * (double)V * V * u * 200 : 0;
                char *dist = malloc((size_t)(S * V) * es);
                int32_t *pred = malloc((size_t)(S * V) * 4), *near = malloc((size_t)V * 4);
                for (int mode = 0; mode < 3; mode++) {
                    gk_sssp_options o;
                    gk_sssp_options_init(&o);
                    o.algorithm = a;
                    o.predecessors = 1;
                    o.min_only = mode == 2;
                    o.limit = mode == 1 && !neg ? 90 : INFINITY;
                    gk_sssp_report rep;
                    gk_sssp_report_init(&rep);
                    char what[200];
                    snprintf(what, sizeof what, "%s %s %s%s%s", bname, gk_sssp_algorithm_name(a), gk_dtype_name(t),
                             neg ? " negative" : "", mode == 1 ? (neg ? "" : " limit 90") : mode == 2 ? " min_only" : "");
                    gk_status st = gk_sssp_run(ctx, g, src, S, &o, dist, pred, near, &rep);
                    if (st) diag("%s: %s", what, gk_last_error());
                    ok(st == GK_OK && rows_ok(what, &rg, t, 0, src, S, o.min_only, o.limit, dist, pred,
                                              o.min_only ? near : NULL, tol),
                       "%s: gk_sssp_run rows, predecessors", what);
                    ok(st || (rep.algorithm != GK_SSSP_AUTO && (a == GK_SSSP_AUTO || rep.algorithm == a) &&
                              (a != GK_SSSP_AUTO || strstr(rep.why, "auto:")) && rep.sources == S),
                       "%s: the report says what ran (%s) and why", what, gk_sssp_algorithm_name(rep.algorithm));
                }
                /* rows in chunks of 2 through a sink */
                gk_sssp_options o;
                gk_sssp_options_init(&o);
                o.algorithm = a;
                o.predecessors = 1;
                o.chunk_rows = 2;
                memset(dist, 0, (size_t)(S * V) * es);
                sink_state ss = { dist, pred, 0, V, es, 0 };
                gk_status st = gk_sssp_run_rows(ctx, g, src, S, &o, sink, &ss, NULL);
                if (st) diag("rows: %s", gk_last_error());
                char what[160];
                snprintf(what, sizeof what, "%s %s %s%s run_rows", bname, gk_sssp_algorithm_name(a), gk_dtype_name(t),
                         neg ? " negative" : "");
                ok(st == GK_OK && ss.calls == 3 && ss.next == S &&
                   rows_ok(what, &rg, t, 0, src, S, 0, INFINITY, dist, pred, NULL, tol),
                   "%s: 3 chunks in order, rows right", what);
                free(dist); free(pred); free(near);
                gk_graph_destroy(g);
                ref_free(&rg);
            }
}

static void refusals(gk_context *ctx)
{
    int32_t s[] = { 0, 1, 2, 3, 4 }, d[] = { 1, 2, 3, 1, 0 };
    double w[] = { 1, 2, -4, 1, 5 };     /* 1 -> 2 -> 3 -> 1: 2 - 4 + 1 = -1 */
    ref_graph rg = { 6, 5, s, d, w };
    gk_graph *g = make(&rg, GK_DTYPE_INT32, 0);
    int32_t dist[64], pred[64], near[8];
    int64_t src[] = { 0 }, bad[] = { 6 };
    gk_sssp_options o;
    gk_sssp_options_init(&o);
    gk_sssp_report rep;
    gk_sssp_report_init(&rep);
    ok(gk_sssp_run(ctx, g, bad, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL &&
       strstr(gk_last_error(), "source 6 (position 0) is outside [0, 6)"), "source outside: %s", gk_last_error());
    o.algorithm = GK_SSSP_DIJKSTRA;
    ok(gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL &&
       strstr(gk_last_error(), "2 -> 3") && strstr(gk_last_error(), "johnson"),
       "dijkstra with a negative weight: %s", gk_last_error());
    for (int a = GK_SSSP_AUTO; a <= GK_SSSP_BELLMAN_FORD; a++) {
        if (a == GK_SSSP_DIJKSTRA) continue;
        o.algorithm = (gk_sssp_algorithm)a;
        gk_sssp_report_init(&rep);
        gk_status st = gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, &rep);
        ok(st == GK_ENEGCYCLE && rep.run.cycle_vertex >= 1 && rep.run.cycle_vertex <= 3 &&
           strstr(gk_last_error(), "negative cycle"),
           "%s: negative cycle, vertex %lld on it: %s", gk_sssp_algorithm_name((gk_sssp_algorithm)a),
           (long long)rep.run.cycle_vertex, gk_last_error());
    }
    o.algorithm = GK_SSSP_AUTO;
    o.limit = 3;
    ok(gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "limit"),
       "limit with negative weights refused: %s", gk_last_error());
    o.limit = -1;
    ok(gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL, "limit < 0 refused");
    o.limit = NAN;
    ok(gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL, "limit NaN refused");
    o.limit = INFINITY;
    o.config = "garbage";
    ok(gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "garbage"),
       "a bad config refused whatever the algorithm: %s", gk_last_error());
    o.config = "NOSUCH=1";
    ok(gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "NOSUCH"),
       "an unknown config parameter refused: %s", gk_last_error());
    o.config = NULL;
    o.predecessors = 1;
    ok(gk_sssp_run(ctx, g, src, 1, &o, dist, NULL, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "pred"),
       "predecessors without pred refused");
    (void)pred; (void)near;
    gk_graph_destroy(g);

    /* FW on a graph whose V x V matrix cannot fit: refused with the bytes; auto picks another */
    int64_t ip[] = { 0, 1, 1 };
    int32_t ix[] = { 1 };
    int64_t huge = 400000;     /* 400 000 vertices, one edge: a 640 GB int32 matrix */
    int64_t *hip = calloc((size_t)huge + 1, sizeof *hip);
    if (hip) {
        hip[1] = 1;
        for (int64_t v = 2; v <= huge; v++) hip[v] = 1;
        gk_graph *big = NULL;
        if (gk_graph_from_csr(huge, hip, ix, NULL, GK_DTYPE_INT32, 0, &big) == GK_OK) {
            gk_sssp_options_init(&o);
            o.algorithm = GK_SSSP_FW;
            int32_t *row = malloc((size_t)huge * 4);
            gk_status st = row ? gk_sssp_run(ctx, big, src, 1, &o, row, NULL, NULL, NULL) : GK_ENOMEM;
            ok(st == GK_ENOMEM && strstr(gk_last_error(), "fw needs"), "fw too big refused: %s", gk_last_error());
            free(row);
            gk_graph_destroy(big);
        } else {
            ok(1, "# SKIP no memory for a 2e9-vertex graph");
        }
        free(hip);
    } else {
        ok(1, "# SKIP no memory for a 2e9-vertex graph's offsets");
    }
    (void)ip;
}

/* The GPU's rows equal the CPU's bit for bit (both compute the least fixed
   point of the same sums): float graphs, Dijkstra rows, and Johnson's
   min_only with one and with several sources (the virtual-source formulas
   on both).  The nearest sources are not compared: on a tie either source
   is right. */
static void cross_bits(gk_context *gctx)
{
    gk_context_options co;
    gk_context_options_init(&co);
    co.backend = GK_BACKEND_CPU;
    gk_context *cctx = NULL;
    if (gk_context_create(&cctx, &co)) { ok(0, "CPU context: %s", gk_last_error()); return; }
    for (int ti = 2; ti < 4; ti++)
        for (int neg = 0; neg <= 1; neg++) {
            gk_dtype t = types[ti];
            const int64_t V = 300, E = 1500;
            ref_graph rg = ref_random(V, E, t, 0, 40, neg, 900 + (uint64_t)(ti * 2 + neg));
            gk_graph *g = make(&rg, t, 0);
            const size_t es = gk_dtype_size(t);
            int64_t src[] = { 5, 77, 299 };
            for (int mo = 0; mo <= 1; mo++)
                for (int64_t S = 1; S <= 3; S += 2) {
                    gk_sssp_options o;
                    gk_sssp_options_init(&o);
                    o.algorithm = neg ? GK_SSSP_JOHNSON : GK_SSSP_DIJKSTRA;
                    o.min_only = mo;
                    const int64_t rows = mo ? 1 : S;
                    char *a = malloc((size_t)(rows * V) * es), *b = malloc((size_t)(rows * V) * es);
                    int32_t na[300], nb[300];
                    gk_sssp_report rep;
                    gk_sssp_report_init(&rep);
                    gk_status s1 = gk_sssp_run(cctx, g, src, S, &o, a, NULL, mo ? na : NULL, NULL);
                    gk_status s2 = gk_sssp_run(gctx, g, src, S, &o, b, NULL, mo ? nb : NULL, &rep);
                    ok(s1 == GK_OK && s2 == GK_OK && rep.run.backend == GK_BACKEND_GPU
                       && !memcmp(a, b, (size_t)(rows * V) * es),
                       "%s %s%s, %lld source(s): the GPU's rows are the CPU's bit for bit (%s)", gk_dtype_name(t),
                       gk_sssp_algorithm_name(o.algorithm), mo ? " min_only" : "", (long long)S,
                       s1 || s2 ? gk_last_error() : rep.run.device);
                    free(a);
                    free(b);
                }
            gk_graph_destroy(g);
            ref_free(&rg);
        }
    gk_context_destroy(cctx);
}

#ifdef GK_HAVE_CUDA
/* gk_sssp_run writes host memory: a device pointer for dist, pred or
   nearest is refused by its name, before anything is written. */
static void device_pointers(gk_context *ctx)
{
    int32_t s[] = { 0, 1 }, d[] = { 1, 2 };
    double w[] = { 1, 2 };
    ref_graph rg = { 3, 2, s, d, w };
    gk_graph *g = make(&rg, GK_DTYPE_INT32, 0);
    int32_t dist[6], pred[6], near[3];
    void *dev = NULL;
    if (cudaMalloc(&dev, 64) != cudaSuccess) {
        ok(1, "# SKIP cudaMalloc failed: %s", cudaGetErrorString(cudaGetLastError()));
        gk_graph_destroy(g);
        return;
    }
    int64_t src[] = { 0, 1 };
    gk_sssp_options o;
    gk_sssp_options_init(&o);
    ok(gk_sssp_run(ctx, g, src, 2, &o, dev, NULL, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "dist"),
       "a device pointer for dist is refused: %s", gk_last_error());
    o.predecessors = 1;
    ok(gk_sssp_run(ctx, g, src, 2, &o, dist, dev, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "pred"),
       "a device pointer for pred is refused: %s", gk_last_error());
    o.predecessors = 0;
    o.min_only = 1;
    ok(gk_sssp_run(ctx, g, src, 2, &o, dist, NULL, dev, NULL) == GK_EINVAL && strstr(gk_last_error(), "nearest"),
       "a device pointer for nearest is refused: %s", gk_last_error());
    ok(gk_sssp_run(ctx, g, src, 2, &o, dist, NULL, near, NULL) == GK_OK && dist[0] == 0 && dist[1] == 0
       && dist[2] == 2 && near[2] == 1, "the same call with host memory runs: %d %d %d, nearest of 2 = %d",
       dist[0], dist[1], dist[2], near[2]);
    (void)pred;
    cudaFree(dev);
    gk_graph_destroy(g);
}
#endif

/* auto's choices on graphs whose answer is clear (on a GPU context, the
   small dense job goes to the CPU's Floyd-Warshall: the GPU's set-up alone
   costs more). */
static void auto_choices(gk_context *ctx, int gpu)
{
    /* dense, all sources: Floyd-Warshall */
    ref_graph dense = ref_random(120, 120 * 100, GK_DTYPE_INT32, 1, 50, 0, 99);
    gk_graph *g = make(&dense, GK_DTYPE_INT32, 0);
    int64_t *all = malloc(120 * sizeof *all);
    for (int i = 0; i < 120; i++) all[i] = i;
    int32_t *dist = malloc(120 * 120 * 4);
    gk_sssp_options o;
    gk_sssp_options_init(&o);
    gk_sssp_report rep;
    gk_sssp_report_init(&rep);
    ok(gk_sssp_run(ctx, g, all, 120, &o, dist, NULL, NULL, &rep) == GK_OK && rep.algorithm == GK_SSSP_FW
       && rep.run.backend == GK_BACKEND_CPU,
       "auto%s: dense graph, every source: fw on the CPU (%s on %s; %s)", gpu ? " on a GPU context" : "",
       gk_sssp_algorithm_name(rep.algorithm), rep.run.device, rep.why);
    ok(rows_ok("auto dense", &dense, GK_DTYPE_INT32, 0, all, 120, 0, INFINITY, (char *)dist, NULL, NULL, 0),
       "auto dense: rows right");
    gk_graph_destroy(g);
    ref_free(&dense);
    /* a sparse graph, one source: Dijkstra */
    ref_graph sparse = ref_random(2000, 8000, GK_DTYPE_INT32, 1, 50, 0, 98);
    g = make(&sparse, GK_DTYPE_INT32, 0);
    gk_sssp_report_init(&rep);
    ok(gk_sssp_run(ctx, g, all, 1, &o, dist, NULL, NULL, &rep) == GK_OK && rep.algorithm == GK_SSSP_DIJKSTRA,
       "auto: sparse graph, one source: dijkstra (%s; %s)", gk_sssp_algorithm_name(rep.algorithm), rep.why);
    gk_graph_destroy(g);
    ref_free(&sparse);
    /* negative weights, many sources: Johnson; one source: Bellman-Ford */
    ref_graph neg = ref_random(100, 400, GK_DTYPE_INT32, 0, 50, 1, 5);
    g = make(&neg, GK_DTYPE_INT32, 0);
    gk_sssp_report_init(&rep);
    ok(gk_sssp_run(ctx, g, all, 50, &o, dist, NULL, NULL, &rep) == GK_OK &&
       (rep.algorithm == GK_SSSP_JOHNSON || rep.algorithm == GK_SSSP_FW),
       "auto: negative weights, 50 sources: johnson or fw (%s)", gk_sssp_algorithm_name(rep.algorithm));
    gk_sssp_report_init(&rep);
    ok(gk_sssp_run(ctx, g, all, 1, &o, dist, NULL, NULL, &rep) == GK_OK && rep.algorithm == GK_SSSP_BELLMAN_FORD,
       "auto: negative weights, one source: bellman-ford (%s)", gk_sssp_algorithm_name(rep.algorithm));
    gk_graph_destroy(g);
    ref_free(&neg);
    free(all);
    free(dist);
}

int main(void)
{
    no_plan();
    gk_sssp_algorithm a;
    ok(gk_sssp_algorithm_parse("BF", &a) == GK_OK && a == GK_SSSP_BELLMAN_FORD, "parse BF");
    ok(gk_sssp_algorithm_parse("johnson", &a) == GK_OK && a == GK_SSSP_JOHNSON, "parse johnson");
    ok(gk_sssp_algorithm_parse("dijkstar", &a) == GK_EINVAL && strstr(gk_last_error(), "bellman-ford"),
       "parse refuses a typo, naming the choices");
    gk_context_options co;
    gk_context_options_init(&co);
    co.backend = GK_BACKEND_CPU;
    gk_context *ctx = NULL;
    if (gk_context_create(&ctx, &co)) { diag("%s", gk_last_error()); return 1; }
    backend_cases(ctx, "cpu");
    refusals(ctx);
    auto_choices(ctx, 0);
    gk_context_destroy(ctx);
    int n = 0;
    if (gk_gpu_count(&n) == GK_OK && n > 0) {
        co.backend = GK_BACKEND_GPU;
        if (gk_context_create(&ctx, &co) == GK_OK) {
            backend_cases(ctx, "gpu");
            refusals(ctx);
#ifdef GK_HAVE_CUDA
            device_pointers(ctx);
#endif
            auto_choices(ctx, 1);
            cross_bits(ctx);
            gk_context_destroy(ctx);
        } else {
            diag("GPU context: %s", gk_last_error());
        }
    } else {
        diag("no usable GPU: the GPU backend's cases are not run here");
    }
    return done_testing();
}
