/* bench_sssp_gpu.c - times the GPU shortest-path backend on a road-like
 * graph made in memory (a side x side grid, both directions, int32 weights
 * uniform in [1, 1000], 2 % of V shortcuts both ways with weights in
 * [1000, 8000]) or an R-MAT power-law graph, and compares with the CPU
 * Dijkstra on all cores (same sources, same call).  Built by make check,
 * not run as a test:
 *
 *   tests/bench_sssp_gpu [road|rmat] [V] [S] [threads] [delta_x] [cpu]
 *     road 1000000 1000: the H200 row (1000 sources);
 *     S = 0: every vertex as a source, rows in chunks, not kept (all-pairs);
 *     cpu = 1 (default): also the CPU Dijkstra on the same sources, its
 *     time, and the rows compared byte for byte.
 *
 * Prints the median of 3 timed runs after a warm-up (device time from
 * events, and wall time with the copies down), and relaxations/s. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "core/graph.h"
#include "cpu/sssp_cpu.h"
#include "gpu/sssp_gpu.h"
#include "gpu/sssp_gpu_knobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t st_ = 0x2545f4914f6cdd1dULL;
static uint64_t rnd(void) { st_ ^= st_ << 13; st_ ^= st_ >> 7; st_ ^= st_ << 17; return st_; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct { int32_t u, v, w; } edge;
static int cmp(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->u != y->u) return x->u < y->u ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return (x->w > y->w) - (x->w < y->w);
}

static gk_graph *csr(int32_t V, edge *e, int64_t n)
{
    qsort(e, (size_t)n, sizeof *e, cmp);
    gk_graph *g = calloc(1, sizeof *g);
    g->V = V;
    g->dtype = GK_DTYPE_INT32;
    g->indptr = calloc((size_t)V + 1, 8);
    g->indices = malloc((size_t)n * 4);
    int32_t *w = malloc((size_t)n * 4);
    g->w = w;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        if (e[i].u == e[i].v || (i && e[i].u == e[i - 1].u && e[i].v == e[i - 1].v)) continue;
        g->indices[m] = e[i].v;
        w[m] = e[i].w;
        if (e[i].w > g->max_abs_w) g->max_abs_w = e[i].w;
        g->indptr[e[i].u + 1]++;
        m++;
    }
    for (int32_t v = 0; v < V; v++) g->indptr[v + 1] += g->indptr[v];
    g->E = m;
    return g;
}

static gk_graph *road(int64_t Vask)
{
    int32_t side = (int32_t)floor(sqrt((double)Vask)), V = side * side;
    int64_t sc = V / 50, n = 0;
    edge *e = malloc((size_t)(4 * (int64_t)V + 2 * sc) * sizeof *e);
    for (int32_t r = 0; r < side; r++)
        for (int32_t c = 0; c < side; c++) {
            int32_t v = r * side + c;
            if (c + 1 < side) {
                e[n++] = (edge){ v, v + 1, 1 + (int32_t)(rnd() % 1000) };
                e[n++] = (edge){ v + 1, v, 1 + (int32_t)(rnd() % 1000) };
            }
            if (r + 1 < side) {
                e[n++] = (edge){ v, v + side, 1 + (int32_t)(rnd() % 1000) };
                e[n++] = (edge){ v + side, v, 1 + (int32_t)(rnd() % 1000) };
            }
        }
    for (int64_t i = 0; i < sc; i++) {
        int32_t a = (int32_t)(rnd() % V), b = (int32_t)(rnd() % V), w = 1000 + (int32_t)(rnd() % 7001);
        e[n++] = (edge){ a, b, w };
        e[n++] = (edge){ b, a, w };
    }
    gk_graph *g = csr(V, e, n);
    free(e);
    return g;
}

/* R-MAT (0.57, 0.19, 0.19, 0.05), E = 8 V, V a power of two, weights [1, 1000] */
static gk_graph *rmat(int64_t Vask)
{
    int lg = 0;
    while ((INT64_C(1) << lg) < Vask) lg++;
    int32_t V = (int32_t)(INT64_C(1) << lg);
    int64_t E = 8 * (int64_t)V;
    edge *e = malloc((size_t)E * sizeof *e);
    for (int64_t i = 0; i < E; i++) {
        int32_t u = 0, v = 0;
        for (int b = 0; b < lg; b++) {
            double r = (double)(rnd() >> 11) / 9007199254740992.0;
            int q = r < 0.57 ? 0 : r < 0.76 ? 1 : r < 0.95 ? 2 : 3;
            u = 2 * u + (q >> 1);
            v = 2 * v + (q & 1);
        }
        e[i] = (edge){ u, v, 1 + (int32_t)(rnd() % 1000) };
    }
    gk_graph *g = csr(V, e, E);
    free(e);
    return g;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "road";
    int64_t Vask = argc > 2 ? atoll(argv[2]) : 1000000;
    int64_t S = argc > 3 ? atoll(argv[3]) : 1000;
    int threads = argc > 4 ? atoi(argv[4]) : 0;
    double dx = argc > 5 ? atof(argv[5]) : 0;
    int cpu = argc > 6 ? atoi(argv[6]) : 1;
    char why[512];
    if (!gk_gpu_usable(why, sizeof why)) {
        printf("no GPU: %s\n", why);
        return 77;
    }
    double t0 = now();
    gk_graph *g = strcmp(kind, "rmat") ? road(Vask) : rmat(Vask);
    gk__graph_finish(g);
    printf("graph %s: V = %d, E = %lld, made in %.2f s\n", kind, g->V, (long long)g->E, now() - t0);
    gk__sssp_gpu *h;
    t0 = now();
    if (gk__sssp_gpu_open(g, 0, NULL, NULL, &h)) {
        printf("open: %s\n", gk_last_error());
        return 1;
    }
    gk__sssp_gpu_set_knobs(h, threads, dx);
    printf("open (upload, workspace): %.3f s\n", now() - t0);
    int all = S == 0;
    if (all) S = g->V;
    int64_t chunk = all ? 8192 : S;
    if (chunk > S) chunk = S;
    int32_t *src = malloc((size_t)S * 4);
    for (int64_t i = 0; i < S; i++) src[i] = all ? (int32_t)i : (int32_t)(rnd() % (uint64_t)g->V);
    int32_t *dist = malloc((size_t)chunk * g->V * 4);
    if (!dist) { printf("no memory for %lld rows\n", (long long)chunk); return 1; }
    gk__sssp_job j;
    memset(&j, 0, sizeof j);
    j.g = g; j.limit = INFINITY; j.dist = dist;
    double dev[3], wall[3];
    int64_t relax = 0;
    int reps = all ? 1 : 3;
    for (int r = -1; r < reps; r++) {    /* r = -1: the warm-up */
        double w0 = now(), ms_sum = 0;
        relax = 0;
        for (int64_t f = 0; f < S; f += chunk) {
            j.sources = src + f;
            j.S = S - f < chunk ? S - f : chunk;
            double ms;
            if (gk__sssp_gpu_rows(h, &j, &ms)) { printf("rows: %s\n", gk_last_error()); return 1; }
            ms_sum += ms;
            relax += j.relaxations;
            if (all && r < 0) break;     /* all-pairs: one chunk warms up */
        }
        if (r >= 0) { dev[r] = ms_sum / 1e3; wall[r] = now() - w0; }
    }
    printf("%lld searches at once\n", gk__sssp_gpu_slots(h));
    qsort(dev, reps, sizeof *dev, cmpd);
    qsort(wall, reps, sizeof *wall, cmpd);
    double md = dev[reps / 2], mw = wall[reps / 2];
    printf("GPU %s V=%d E=%lld S=%lld threads=%d delta_x=%g: device %.3f s, wall (with copies down) %.3f s, "
           "%.3g relaxations (%.2f per edge per source), %.3g relaxations/s\n",
           kind, g->V, (long long)g->E, (long long)S, threads, dx, md, mw, (double)relax,
           (double)relax / ((double)g->E * S), relax / md);
    if (cpu && !all) {
        int32_t *cd = malloc((size_t)S * g->V * 4);
        gk__sssp_job c = j;
        c.sources = src; c.S = S; c.dist = cd; c.threads = 0;
        double c0 = now();
        gk_status st = gk__sssp_cpu_dijkstra(&c);
        double ct = now() - c0;
        j.sources = src; j.S = S;
        gk__sssp_gpu_rows(h, &j, NULL);
        int same = st == GK_OK && memcmp(cd, dist, (size_t)S * g->V * 4) == 0;
        printf("CPU Dijkstra (all cores) S=%lld: %.3f s (%s); GPU rows %s the CPU's; speed-up %.1fx (wall %.1fx)\n",
               (long long)S, ct, st ? gk_last_error() : "ok", same ? "==" : "DIFFER from", ct / md, ct / mw);
        free(cd);
        if (!same) return 1;
    }
    gk__sssp_gpu_close(h);
    free(src); free(dist);
    gk__graph_free(g);
    return 0;
}
