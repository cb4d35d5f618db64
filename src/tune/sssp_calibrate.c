/* sssp_calibrate.c - the shortest-path cost model's rates measured on this
 * machine (what `gktune --calibrate=sssp` saves; sssp_model.c reads them),
 * and the in-memory graphs of the calibration and of `gk bench apsp
 * --algorithms`.  The measuring calls the backends directly (one CPU
 * thread; the GPU handle), not the front door, so the rates are the
 * backends' own and the tune layer stays below api. */
#include "tune/sssp_calibrate.h"
#include "cpu/sssp_cpu.h"
#include "gpu/sssp_gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int32_t uni(uint64_t *s, int32_t lo, int32_t hi) { return lo + (int32_t)(next(s) % (uint64_t)(hi - lo + 1)); }

/* An edge list being built. */
typedef struct elist { int64_t n, cap; int32_t *src, *dst, *w; } elist;

static int add(elist *l, int32_t u, int32_t v, int32_t w)
{
    if (l->n == l->cap) {
        int64_t c = l->cap ? 2 * l->cap : 1024;
        int32_t *a = realloc(l->src, (size_t)c * 4), *b = a ? realloc(l->dst, (size_t)c * 4) : NULL;
        if (a) l->src = a;
        if (b) l->dst = b;
        int32_t *d = b ? realloc(l->w, (size_t)c * 4) : NULL;
        if (!d) return -1;
        l->w = d;
        l->cap = c;
    }
    l->src[l->n] = u; l->dst[l->n] = v; l->w[l->n] = w;
    l->n++;
    return 0;
}

/* The bench's graphs (int32 weights; see the header comment). */
static const char *const gnames[] = { "random", "road", "powerlaw", "dense", "negative" };

gk_status gk__sssp_test_graph(int k, int32_t V, uint64_t seed, gk_graph **out)
{
    elist l = { 0, 0, NULL, NULL, NULL };
    uint64_t s = seed;
    int bad = 0;
    if (k == G_RANDOM || k == G_NEGATIVE) {
        int32_t *p = NULL;
        if (k == G_NEGATIVE) {
            /* w(u,v) + p[u] - p[v]: negative edges, every cycle's length unchanged (positive) */
            if (!(p = malloc((size_t)V * 4))) return gk__fail(GK_ENOMEM, "bench: out of memory");
            for (int32_t v = 0; v < V; v++) p[v] = uni(&s, 0, 60);
        }
        for (int64_t e = 0; e < 4 * (int64_t)V && !bad; e++) {
            int32_t u = uni(&s, 0, V - 1), v = uni(&s, 0, V - 1), w = uni(&s, 1, 100);
            bad = add(&l, u, v, p ? w + p[u] - p[v] : w);
        }
        free(p);
    } else if (k == G_ROAD) {
        int32_t side = (int32_t)sqrt((double)V);
        V = side * side;
        for (int32_t r = 0; r < side && !bad; r++)
            for (int32_t c = 0; c < side && !bad; c++) {
                int32_t v = r * side + c;
                if (c + 1 < side) { int32_t w = uni(&s, 1, 100); bad |= add(&l, v, v + 1, w) || add(&l, v + 1, v, w); }
                if (r + 1 < side) { int32_t w = uni(&s, 1, 100); bad |= add(&l, v, v + side, w) || add(&l, v + side, v, w); }
            }
        for (int32_t i = 0; i < V / 50 && !bad; i++) {          /* 2% shortcuts, both ways */
            int32_t u = uni(&s, 0, V - 1), v = uni(&s, 0, V - 1), w = uni(&s, 100, 800);
            bad = add(&l, u, v, w) || add(&l, v, u, w);
        }
    } else if (k == G_POWERLAW) {
        int bits = 0;
        while ((1 << bits) < V) bits++;
        V = 1 << bits;
        for (int64_t e = 0; e < 8 * (int64_t)V && !bad; e++) {
            int32_t u = 0, v = 0;
            for (int b = 0; b < bits; b++) {
                double x = (double)(next(&s) >> 11) / 9007199254740992.0;
                int qu = x >= 0.76, qv = (x >= 0.57 && x < 0.76) || x >= 0.95;   /* (a,b,c,d) = (.57,.19,.19,.05) */
                u = 2 * u + qu;
                v = 2 * v + qv;
            }
            bad = add(&l, u, v, uni(&s, 1, 100));
        }
    } else {
        for (int32_t u = 0; u < V && !bad; u++)
            for (int32_t v = 0; v < V && !bad; v++)
                if (u != v && (next(&s) & 1)) bad = add(&l, u, v, uni(&s, 1, 100));
    }
    gk_status st = bad ? gk__fail(GK_ENOMEM, "bench: out of memory for the %s graph", gnames[k])
                       : gk__graph_build(V, l.n, l.src, l.dst, l.w, NULL, 0, GK_DTYPE_INT32, out);
    free(l.src); free(l.dst); free(l.w);
    return st;
}

const char *gk__sssp_test_graph_name(int kind) { return kind >= 0 && kind < G_KINDS ? gnames[kind] : "?"; }

void gk__sssp_shuffle(int64_t *a, int64_t n, uint64_t seed)
{
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(next(&seed) % (uint64_t)(i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* The job both timers run: S sources spread over g (every 7919th vertex)
 * and room for their int32 rows; job_free releases them. */
static gk_status job_make(const gk_graph *g, int S, gk__sssp_job *j)
{
    memset(j, 0, sizeof *j);
    int32_t *src = malloc((size_t)S * 4);
    void *dist = malloc((size_t)S * (size_t)g->V * 4);
    if (!src || !dist) {
        free(src);
        free(dist);
        return gk__fail(GK_ENOMEM, "calibration: out of memory");
    }
    for (int i = 0; i < S; i++) src[i] = (int32_t)(((int64_t)i * 7919) % g->V);
    j->g = g; j->sources = src; j->S = S; j->limit = INFINITY; j->dist = dist;
    return GK_OK;
}

static void job_free(gk__sssp_job *j)
{
    free((void *)j->sources);
    free(j->dist);
}

/* Seconds of one CPU job of S sources on one thread (the best of 2). */
static gk_status cpu_time(const gk_graph *g, int S, int bf, double *sec, int64_t *relax)
{
    gk__sssp_job base;
    gk_status st = job_make(g, S, &base);
    base.threads = 1;
    *sec = INFINITY;
    for (int rep = 0; rep < 2 && !st; rep++) {
        gk__sssp_job j = base;
        double t0 = gk__wtime();
        st = bf ? gk__sssp_cpu_bellman_ford(&j) : gk__sssp_cpu_dijkstra(&j);
        *sec = fmin(*sec, gk__wtime() - t0);
        if (relax) *relax = j.relaxations;
    }
    job_free(&base);
    return st;
}

/* One GPU job of S sources: device milliseconds (the best of 2). */
static gk_status gpu_time(gk__sssp_gpu *h, const gk_graph *g, int S, double *ms)
{
    gk__sssp_job base;
    gk_status st = job_make(g, S, &base);
    *ms = INFINITY;
    for (int rep = 0; rep < 2 && !st; rep++) {
        gk__sssp_job j = base;
        double t;
        if (!(st = gk__sssp_gpu_rows(h, &j, &t))) *ms = fmin(*ms, t);
    }
    job_free(&base);
    return st;
}

gk_status gk__sssp_calibrate(int device, void *stream, double (*rounds)(int64_t V, int64_t E, double cv),
                             gk__sssp_calib *out)
{
    memset(out, 0, sizeof *out);
    gk_graph *road = NULL, *rnd = NULL;
    gk_status st = gk__sssp_test_graph(G_ROAD, 90000, 11, &road);
    if (!st) st = gk__sssp_test_graph(G_DENSE, 1200, 12, &rnd);
    /* Dijkstra: t / S = E c_edge + V c_vertex on two graphs of different
       E / V, solved for both (the road grid: E ~ 4V; a dense graph: E ~ V^2 / 2);
       Bellman-Ford the same, each divided by the model's rounds */
    for (int bf = 0; bf < 2 && !st; bf++) {
        const int S = bf ? 2 : 6;
        double t1 = 0, t2 = 0;
        if (!(st = cpu_time(road, S, bf, &t1, NULL))) st = cpu_time(rnd, S, bf, &t2, NULL);
        if (st) break;
        const double R1 = bf ? rounds(road->V, road->E, road->degree_cv) : 1;
        const double R2 = bf ? rounds(rnd->V, rnd->E, rnd->degree_cv) : 1;
        const double a1 = (double)road->E, b1 = road->V, a2 = (double)rnd->E, b2 = rnd->V;
        const double y1 = t1 / S / R1 * 1e9, y2 = t2 / S / R2 * 1e9, det = a1 * b2 - a2 * b1;
        double ce = det != 0 ? (y1 * b2 - y2 * b1) / det : 0, cv = det != 0 ? (a1 * y2 - a2 * y1) / det : 0;
        if (!(ce > 0.05 && cv > 0.05)) {  /* noise: the dense graph's time per edge, the rest per vertex */
            ce = y2 / a2;
            cv = fmax(0.05, (y1 - a1 * ce) / b1);
        }
        if (bf) { out->bf_edge_ns = ce; out->bf_vertex_ns = cv; }
        else { out->cpu_edge_ns = ce; out->cpu_vertex_ns = cv; }
    }
    /* GPU: one search alone (its ns per edge), then enough searches to fill
       the GPU several times over: searches at once = S t1 / t(S) */
    if (!st && device >= 0) {
        gk_graph *small = NULL;
        gk__sssp_gpu *h = NULL;
        double m1 = 0, mS = 0;
        const int SG = 8192;
        st = gk__sssp_test_graph(G_ROAD, 10000, 13, &small);
        if (!st) st = gk__sssp_gpu_open(small, device, stream, NULL, &h);
        if (!st) st = gpu_time(h, small, 1, &m1);
        if (!st) st = gpu_time(h, small, SG, &mS);
        if (!st) {
            out->gpu_edge_ns = m1 * 1e6 / (double)small->E;
            out->gpu_searches = fmax(1, SG * m1 / mS);
        }
        if (h) gk__sssp_gpu_close(h);
        gk__graph_free(small);
    }
    gk__graph_free(road);
    gk__graph_free(rnd);
    return st;
}
