/* sssp_bench.c - `gk bench apsp --algorithms`: every shortest-path
 * algorithm (fw, dijkstra, johnson, bellman-ford) and auto, timed with
 * gk_sssp_run on a grid of graphs made in memory (random sparse, road-like:
 * a 2D grid with 2% shortcuts, power-law R-MAT, dense, and random sparse
 * with negative weights but no negative cycle) for S = 1, 100 and V
 * sources.  The table says whether auto's choice is within reach of the
 * fastest: auto / fastest, the target being <= 1.25.
 *
 * Each explicit algorithm: the median of 3 runs (one when the first takes
 * over a second: the table should finish in about a minute on 2 cores);
 * auto: the median of 3, always (the model's own time included).  Every
 * algorithm's distances are compared with the first's (int32 weights:
 * exactly), so a fast wrong answer shows. */
#include "api/sssp_bench.h"
#include "api/context.h"
#include "api/sssp_model.h"
#include "core/graph.h"
#include "tune/sssp_calibrate.h"
#include "tune/tune.h"

#include <math.h>
#include <stdio.h>
#ifdef GK_HAVE_OPENMP
#include <omp.h>
#endif
#include <stdlib.h>
#include <string.h>

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median wall clock of gk_sssp_run (reps runs; 1 when the first is
 * over a second and !always3), the distances into dist. */
static gk_status time_run(gk_context *ctx, const gk_graph *g, const int64_t *src, int64_t S, gk_sssp_algorithm a,
                          int always3, void *dist, double *sec, gk_sssp_report *rep)
{
    gk_sssp_options o;
    gk_sssp_options_init(&o);
    o.algorithm = a;
    double t[3];
    int n = 0;
    for (; n < 3; n++) {
        gk_sssp_report_init(rep);
        double t0 = gk__wtime();
        gk_status st = gk_sssp_run(ctx, g, src, S, &o, dist, NULL, NULL, rep);
        t[n] = gk__wtime() - t0;
        if (st) return st;
        if (!always3 && n == 0 && t[0] > 1.0) { n = 1; break; }
    }
    qsort(t, (size_t)n, sizeof *t, cmp_d);
    *sec = t[n / 2];
    return GK_OK;
}

gk_status gk__sssp_bench(gk_context *ctx, int quick, gk__sssp_bench_cb cb, void *user)
{
    /* sizes: the full table about a minute on 2 cores, --quick seconds */
    const int32_t sizes[] = { quick ? 300 : 4000, quick ? 324 : 4096, quick ? 256 : 4096, quick ? 150 : 1000,
                              quick ? 300 : 4000 };
    gk_status st = GK_OK;
    for (int k = 0; k < 5 && !st; k++) {
        gk_graph *g = NULL;
        if ((st = gk__sssp_test_graph(k, sizes[k], 1 + (uint64_t)k, &g))) break;
        const int64_t V = g->V;
        const int64_t Ss[3] = { 1, 100 < V ? 100 : V, V };
        int64_t *src = malloc((size_t)V * sizeof *src);
        void *dist = malloc((size_t)(V * V) * 4), *first = malloc((size_t)(V * V) * 4);
        if (!src || !dist || !first) st = gk__fail(GK_ENOMEM, "bench: out of memory for V = %lld", (long long)V);
        for (int64_t i = 0; i < V && !st; i++) src[i] = i;
        if (!st) gk__sssp_shuffle(src, V, 77);                   /* sources in a random order */
        for (int si = 0; si < 3 && !st; si++) {
            gk__sssp_bench_row r;
            memset(&r, 0, sizeof r);
            snprintf(r.graph, sizeof r.graph, "%s", gk__sssp_test_graph_name(k));
            r.V = V; r.E = g->E; r.S = Ss[si];
            r.same = 1;
            const size_t bytes = (size_t)(r.S * V) * 4;
            double best = INFINITY;
            int have = 0;
            for (int a = GK_SSSP_FW; a <= GK_SSSP_BELLMAN_FORD && !st; a++) {
                r.seconds[a] = -1;
                if (a == GK_SSSP_DIJKSTRA && g->negative) continue;
                gk_sssp_report rep;
                if ((st = time_run(ctx, g, src, r.S, (gk_sssp_algorithm)a, 0, dist, &r.seconds[a], &rep))) break;
                if (!have) memcpy(first, dist, bytes), have = 1;
                else if (memcmp(first, dist, bytes)) r.same = 0;
                if (r.seconds[a] < best) best = r.seconds[a], r.fastest = (gk_sssp_algorithm)a;
            }
            gk_sssp_report rep;
            if (!st && !(st = time_run(ctx, g, src, r.S, GK_SSSP_AUTO, 1, dist, &r.seconds[GK_SSSP_AUTO], &rep))) {
                if (memcmp(first, dist, bytes)) r.same = 0;
                r.choice = rep.algorithm;
                r.backend = rep.run.backend;
                snprintf(r.why, sizeof r.why, "%s", rep.why);
                r.ratio = r.seconds[GK_SSSP_AUTO] / best;
                cb(user, &r);
            }
        }
        free(src); free(dist); free(first);
        gk__graph_free(g);
    }
    return st;
}

/* ---- gktune --calibrate=sssp ---- */

static int gk__sssp_threads(void)
{
#ifdef GK_HAVE_OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* Floyd-Warshall's rates through gk_sssp_run (the 16-bit path on a
   non-negative graph, int32 on the negative one; the best of 2), per CPU
   thread on the CPU, per GPU on a GPU context. */
static gk_status fw_rates(gk_context *ctx, gk__sssp_rates *r, int gpu)
{
    const int32_t V = gpu ? 8192 : 1024;
    gk_status st = GK_OK;
    for (int neg = 0; neg < 2 && !st; neg++) {
        gk_graph *g = NULL;
        if ((st = gk__sssp_test_graph(neg ? G_NEGATIVE : G_RANDOM, V, 21, &g))) break;
        int32_t *d = malloc((size_t)V * 4);
        int64_t s0 = 0;
        gk_sssp_options o;
        gk_sssp_options_init(&o);
        o.algorithm = GK_SSSP_FW;
        double best = INFINITY;
        for (int rep = 0; rep < 2 && !st && d; rep++) {
            gk_sssp_report rp;
            gk_sssp_report_init(&rp);
            double t0 = gk__wtime();
            if (!(st = gk_sssp_run(ctx, g, &s0, 1, &o, d, NULL, NULL, &rp)))
                best = fmin(best, gk__wtime() - t0);
        }
        if (!d) st = gk__fail(GK_ENOMEM, "calibrate: out of memory");
        free(d);
        gk__graph_free(g);
        if (st) break;
        double rate = (double)V * V * V / best;
        if (!gpu) rate /= ctx->threads > 0 ? ctx->threads : gk__sssp_threads();
        if (gpu) { if (neg) r->fw_gpu_rate[GK_DTYPE_INT32] = rate; else r->fw16_gpu_rate = rate; }
        else { if (neg) r->fw_cpu_rate[GK_DTYPE_INT32] = rate; else r->fw16_cpu_rate = rate; }
    }
    return st;
}

gk_status gk__sssp_calibrate_save(gk_context *ctx, char *text, size_t n)
{
    if (!ctx) return gk__fail(GK_EINVAL, "calibrate: ctx is NULL");
    if (!ctx->cache_dir[0]) return gk__fail(GK_EINVAL, "calibrate: no cache directory to save the rates in");
    const int gpu = ctx->backend == GK_BACKEND_GPU && ctx->ngpus > 0;
    char real[4096];
    gk_status st = gk__cache_dir_check(ctx->cache_dir, 1, real, sizeof real);   /* made, and safe */
    if (st) return st;
    gk__sssp_calib m;
    st = gk__sssp_calibrate(gpu ? ctx->gpus[0] : -1, gpu ? gk__ctx_stream(ctx) : NULL, gk__sssp_rounds, &m);
    if (st) return st;
    size_t k = 0;
    text[0] = 0;
    /* the CPU's file always; the GPU's with its own rates, the CPU ones
       copied (the GPU context's model reads only its file) */
    for (int pass = 0; pass < 1 + gpu; pass++) {
        const char *key = pass ? ctx->dev[0].name : "cpu";
        gk__sssp_rates r;
        gk__sssp_rates_load(ctx->cache_dir, key, &r);        /* keeps what is not measured here */
        r.cpu_edge_ns = m.cpu_edge_ns;
        r.cpu_vertex_ns = m.cpu_vertex_ns;
        r.bf_edge_ns = m.bf_edge_ns;
        r.bf_vertex_ns = m.bf_vertex_ns;
        if (pass == gpu) {     /* Floyd-Warshall through the front door, on the backend of this key */
            if ((st = fw_rates(ctx, &r, gpu))) return st;
        }
        if (pass) { r.gpu_edge_ns = m.gpu_edge_ns; r.gpu_searches = m.gpu_searches; }
        if ((st = gk__sssp_rates_save(ctx->cache_dir, key, &r))) return st;
        gk__sssp_rates_load(ctx->cache_dir, key, &r);        /* the file's name, as the model will see it */
        k += (size_t)snprintf(text + k, k < n ? n - k : 0, "%s: cpu_edge_ns %.3g, cpu_vertex_ns %.3g, bf_edge_ns %.3g, "
                              "bf_vertex_ns %.3g, gpu_edge_ns %.3g, gpu_searches %.4g, fw int32 %.3g/s, "
                              "fw 16-bit %.3g/s%s\n", r.from, r.cpu_edge_ns, r.cpu_vertex_ns, r.bf_edge_ns,
                              r.bf_vertex_ns, r.gpu_edge_ns, r.gpu_searches,
                              pass ? r.fw_gpu_rate[GK_DTYPE_INT32] : r.fw_cpu_rate[GK_DTYPE_INT32],
                              pass ? r.fw16_gpu_rate : r.fw16_cpu_rate, pass ? " (one GPU)" : " (one thread)");
        if (k >= n) k = n - 1;
    }
    return GK_OK;
}
