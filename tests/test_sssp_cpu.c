/* test_sssp_cpu.c - the CSR (gk_graph_from_csr) and the CPU Dijkstra,
 * Bellman-Ford and Johnson against the repeated-relaxation reference of
 * sssp_ref.h: every element type, random graphs with and without negative
 * weights, disconnected graphs, V = 1, repeated sources, limit, min_only
 * and predecessors; negative cycles and the refusals. */
#include "gk.h"
#include "tap.h"
#include "sssp_ref.h"
#include "cpu/sssp_cpu.h"

#include <stdio.h>

static const gk_dtype types[] = { GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 };
static const char *const alg_names[] = { "dijkstra", "bellman-ford", "johnson" };

static gk_status run_alg(int alg, gk__sssp_job *j)
{
    return alg == 0 ? gk__sssp_cpu_dijkstra(j) : alg == 1 ? gk__sssp_cpu_bellman_ford(j) : gk__sssp_cpu_johnson(j);
}

static gk_graph *make(const ref_graph *rg, gk_dtype t, int undirected)
{
    int64_t *ip;
    int32_t *ix;
    void *w;
    gk_graph *g = NULL;
    ref_csr(rg, t, &ip, &ix, &w);
    gk_status st = gk_graph_from_csr(rg->V, ip, ix, w, t, undirected, &g);
    if (st) diag("gk_graph_from_csr: %s", gk_last_error());
    free(ip); free(ix); free(w);
    return g;
}

/* One case: every row of (alg, sources, options) against the reference. */
static void check_case(const char *what, const ref_graph *rg, gk_dtype t, int undirected, int alg,
                       const int64_t *src, int64_t S, int min_only, double limit)
{
    gk_graph *g = make(rg, t, undirected);
    if (!ok(g != NULL, "%s: graph built", what)) return;
    const int64_t V = rg->V, rows = min_only ? 1 : S;
    const size_t es = gk_dtype_size(t);
    char *dist = malloc((size_t)(rows * V) * es);
    int32_t *pred = malloc((size_t)(rows * V) * 4), *near = malloc((size_t)V * 4);
    int32_t *s32 = malloc((size_t)(S + 1) * 4);
    for (int64_t i = 0; i < S; i++) s32[i] = (int32_t)src[i];
    gk__sssp_job j = { .g = g, .sources = s32, .S = S, .min_only = min_only, .limit = limit, .dist = dist,
                       .pred = pred, .nearest = min_only ? near : NULL };
    gk_status st = run_alg(alg, &j);
    double *m = ref_matrix(rg, t, undirected), *d = malloc((size_t)V * sizeof *d);
    const int floating = t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64;
    double maxw = 0;
    for (int64_t e = 0; e < rg->E; e++) maxw = fmax(maxw, fabs(rg->w[e]));
    const double u = t == GK_DTYPE_FLOAT32 ? 0x1p-24 : 0x1p-53;
    /* Johnson's reweighted sums (floats): the bound of gk/sssp.h, scaled
       for the potential's terms */
    const double tol = (alg == 2 && floating && g->negative) ? 8.0 * (double)(V + 2) * (V + 2) * u * (maxw + 100) : 0;
    int good = st == GK_OK, trees = 1;
    if (!good) diag("%s: %s", what, gk_last_error());
    for (int64_t r = 0; r < rows && good; r++) {
        ref_sssp(m, V, t, min_only ? src : &src[r], min_only ? S : 1, d);
        for (int64_t v = 0; v < V; v++) {
            double ref = d[v];
            if (limit < INFINITY && ref > limit) ref = INFINITY;
            double got = ref_get(dist + (size_t)(r * V) * es, t, v);
            int same = isinf(ref) ? isinf(got) : fabs(got - ref) <= tol;
            if (!same) {
                diag("%s: row %lld vertex %lld: got %.17g, want %.17g", what, (long long)r, (long long)v, got, ref);
                good = 0;
                break;
            }
            d[v] = got;
        }
        if (good && !ref_tree_ok(m, V, t, d, pred + r * V, min_only ? src : &src[r], min_only ? S : 1,
                                 tol + (floating ? 1e-9 * (maxw + 1) * V : 0) * (alg == 2)))
            trees = 0;
        if (good && min_only)
            for (int64_t v = 0; v < V; v++) {
                int32_t n = near[v];
                if (isinf(d[v]) ? n != -1 : (n < 0 || n >= V)) { trees = 0; break; }
                if (n >= 0) {       /* the tree's root is the named source */
                    int64_t x = v;
                    while (pred[x] >= 0) x = pred[x];
                    if (x != n) { trees = 0; break; }
                }
            }
    }
    ok(good, "%s: distances", what);
    ok(good && trees, "%s: predecessors form shortest-path trees%s", what, min_only ? ", nearest sources" : "");
    free(dist); free(pred); free(near); free(s32); free(m); free(d);
    gk_graph_destroy(g);
}

static void random_cases(void)
{
    const int64_t sizes[] = { 1, 2, 9, 60, 150 };
    int seed = 1;
    for (size_t ti = 0; ti < 4; ti++)
        for (size_t si = 0; si < 5; si++)
            for (int neg = 0; neg <= 1; neg++)
                for (int alg = 0; alg < 3; alg++) {
                    if (neg && alg == 0) continue;
                    gk_dtype t = types[ti];
                    int64_t V = sizes[si], E = V * 3 + (si % 2 ? V : 0);
                    ref_graph rg = ref_random(V, E, t, 0, 100, neg, (uint64_t)seed++);
                    int64_t src[5] = { 0, V - 1, V / 2, 0, V / 3 };
                    char what[160];
                    for (int mode = 0; mode < 3; mode++) {
                        int min_only = mode == 2;
                        double limit = mode == 1 && !neg ? 150 : INFINITY;
                        snprintf(what, sizeof what, "%s %s V=%lld %s%s", alg_names[alg], gk_dtype_name(t),
                                 (long long)V, neg ? "negative " : "",
                                 mode == 1 ? (neg ? "repeated sources" : "limit 150") : mode == 2 ? "min_only" : "5 sources");
                        check_case(what, &rg, t, mode == 0 && V > 2 && !neg, alg, src, 5, min_only, limit);
                    }
                    ref_free(&rg);
                }
}

/* A negative cycle 3 -> 4 -> 5 -> 3 reachable from 0 through 1, 2. */
static void negative_cycles(void)
{
    for (size_t ti = 0; ti < 4; ti++) {
        gk_dtype t = types[ti];
        int32_t s[] = { 0, 1, 2, 3, 4, 5, 6 }, d[] = { 1, 2, 3, 4, 5, 3, 7 };
        double w[] = { 1, 2, 3, 4, -9, 2, 1 };
        ref_graph rg = { 8, 7, s, d, w };
        for (int alg = 1; alg <= 2; alg++) {
            gk_graph *g = make(&rg, t, 0);
            int64_t V = 8;
            char *dist = malloc((size_t)V * 8);
            int32_t *pred = malloc((size_t)V * 4), src[] = { 0 };
            gk__sssp_job j = { .g = g, .sources = src, .S = 1, .limit = INFINITY, .dist = dist, .pred = pred };
            gk_status st = run_alg(alg, &j);
            ok(st == GK_ENEGCYCLE && j.cycle_vertex >= 3 && j.cycle_vertex <= 5,
               "%s %s: negative cycle found, vertex %lld on it (%s)", alg_names[alg], gk_dtype_name(t),
               (long long)j.cycle_vertex, gk_last_error());
            /* from vertex 6 the cycle is unreachable: Bellman-Ford succeeds, Johnson (whole graph) refuses */
            src[0] = 6;
            st = run_alg(alg, &j);
            ok(alg == 1 ? st == GK_OK && ref_get(dist, t, 7) == 1 && isinf(ref_get(dist, t, 0))
                        : st == GK_ENEGCYCLE,
               "%s %s: a cycle not reachable from the source: %s", alg_names[alg], gk_dtype_name(t),
               alg == 1 ? "solved" : "still refused (the potential spans the graph)");
            free(dist); free(pred);
            gk_graph_destroy(g);
        }
        /* Dijkstra refuses negative weights, naming the edge and Johnson */
        gk_graph *g = make(&rg, t, 0);
        char dist[64];
        int32_t src[] = { 0 };
        gk__sssp_job j = { .g = g, .sources = src, .S = 1, .limit = INFINITY, .dist = dist };
        gk_status st = gk__sssp_cpu_dijkstra(&j);
        ok(st == GK_EINVAL && strstr(gk_last_error(), "4 -> 5") && strstr(gk_last_error(), "johnson"),
           "dijkstra %s: negative weight refused: %s", gk_dtype_name(t), gk_last_error());
        gk_graph_destroy(g);
    }
}

/* The CSR: duplicates keep the smallest weight, self-loops go, undirected
 * adds reverses, rows sorted; bad arrays refused naming the position. */
static void csr_rules(void)
{
    int64_t ip[] = { 0, 4, 5, 5 };
    int32_t ix[] = { 2, 1, 2, 0, 0 };
    int32_t w[] = { 7, 3, 5, 9, 4 };
    gk_graph *g = NULL;
    ok(gk_graph_from_csr(3, ip, ix, w, GK_DTYPE_INT32, 0, &g) == GK_OK, "csr: built");
    int64_t V, E;
    gk_dtype t;
    int neg;
    gk_graph_info(g, &V, &E, &t, &neg);
    ok(V == 3 && E == 3 && t == GK_DTYPE_INT32 && !neg, "csr: V=3, E=3 after merging (got %lld, %lld)",
       (long long)V, (long long)E);
    gk_graph_destroy(g);
    g = NULL;
    ok(gk_graph_from_csr(3, ip, ix, w, GK_DTYPE_INT32, 1, &g) == GK_OK, "csr undirected: built");
    gk_graph_info(g, &V, &E, NULL, NULL);
    ok(E == 4, "csr undirected: 0-1, 0-2 both ways: E=4 (got %lld)", (long long)E);
    gk_graph_destroy(g);
    int32_t bad_ix[] = { 2, 1, 3, 0, 0 };
    g = NULL;
    ok(gk_graph_from_csr(3, ip, bad_ix, w, GK_DTYPE_INT32, 0, &g) == GK_EINVAL && !g &&
       strstr(gk_last_error(), "indices[2] = 3"), "csr: index outside refused: %s", gk_last_error());
    int64_t bad_ip[] = { 0, 4, 3, 5 };
    ok(gk_graph_from_csr(3, bad_ip, ix, w, GK_DTYPE_INT32, 0, &g) == GK_EINVAL &&
       strstr(gk_last_error(), "indptr[2]"), "csr: decreasing indptr refused: %s", gk_last_error());
    double wn[] = { 1, NAN, 1, 1, 1 };
    ok(gk_graph_from_csr(3, ip, ix, wn, GK_DTYPE_FLOAT64, 0, &g) == GK_EINVAL &&
       strstr(gk_last_error(), "weights[1]"), "csr: NaN weight refused: %s", gk_last_error());
    ok(gk_graph_from_csr(0, ip, ix, w, GK_DTYPE_INT32, 0, &g) == GK_EINVAL, "csr: V = 0 refused");
    /* NULL weights: every edge 1 */
    ok(gk_graph_from_csr(3, ip, ix, NULL, 0, 0, &g) == GK_OK, "csr: unweighted built");
    gk_graph_info(g, NULL, NULL, &t, NULL);
    ok(t == GK_DTYPE_INT32, "csr: unweighted is int32");
    gk_graph_destroy(g);
}

int main(void)
{
    no_plan();
    csr_rules();
    negative_cycles();
    random_cases();
    return done_testing();
}
