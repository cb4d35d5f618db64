/* sssp_bellman_ford.c - Bellman-Ford in rounds of a queue: round 0 relaxes
 * the edges of the sources, round i those of the vertices whose distance
 * fell in round i - 1 (each queued once per round).  Without a negative
 * cycle every shortest path has at most V - 1 edges, so the queue is empty
 * by round V; a vertex still queued then proves a negative cycle, and
 * walking V predecessors from it lands on one (the predecessor graph of
 * Bellman-Ford holds only negative cycles).  Also Johnson's potential (the
 * same rounds from a virtual vertex joined to all by 0-weight edges) and
 * Johnson itself.  Sources over the OpenMP threads. */
#include "cpu/sssp_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* A vertex on the negative cycle behind x: V steps along pred. */
static int64_t on_cycle(const int32_t *pred, int32_t V, int32_t x)
{
    for (int32_t i = 0; i < V && x >= 0; i++)
        x = pred[x] >= 0 ? pred[x] : x;
    return x;
}

/* The rounds on one row: d and p (V each) hold the start (the sources at
 * 0, or every vertex for the potential), cur[0 .. n) the vertices of round
 * 0; inq and next are V-entry workspaces (inq zeroed).  Returns -1, or a
 * vertex on a negative cycle.  nearest (may be NULL) follows pred. */
#define GK_BF_ROUNDS(NAME, T, SUM, FLOAT, INFV)                                                                 \
    static int64_t NAME(const gk_graph *g, T *d, int32_t *p, int32_t *nearest, int32_t *cur, int64_t n,       \
                        int32_t *next, unsigned char *inq, int64_t *relaxed)                                  \
    {                                                                                                         \
        const int32_t V = g->V;                                                                               \
        const int64_t *ip = g->indptr;                                                                        \
        const int32_t *ix = g->indices;                                                                       \
        const T *w = (const T *)g->w;                                                                         \
        const T inf = INFV;                                                                                   \
        for (int64_t round = 0; n > 0; round++) {                                                             \
            if (round >= V)                                                                                   \
                return on_cycle(p, V, cur[0]);                                                                \
            int64_t m = 0;                                                                                    \
            for (int64_t i = 0; i < n; i++) {                                                                 \
                const int32_t u = cur[i];                                                                     \
                const T du = d[u];                                                                            \
                *relaxed += ip[u + 1] - ip[u];                                                                \
                for (int64_t k = ip[u]; k < ip[u + 1]; k++) {                                                 \
                    const int32_t v = ix[k];                                                                  \
                    SUM nd = (SUM)du + (SUM)w[k];                                                                   \
                    if (!FLOAT && nd >= (SUM)inf) continue;                                                     \
                    if (!((T)nd < d[v])) continue;                                                            \
                    d[v] = (T)nd;                                                                             \
                    p[v] = u;                                                                                 \
                    if (nearest) nearest[v] = nearest[u];                                                     \
                    if (!inq[v]) { inq[v] = 1; next[m++] = v; }                                               \
                }                                                                                             \
            }                                                                                                 \
            for (int64_t i = 0; i < m; i++) inq[next[i]] = 0;                                                 \
            memcpy(cur, next, (size_t)m * sizeof *cur);                                                       \
            n = m;                                                                                            \
        }                                                                                                     \
        return -1;                                                                                            \
    }

GK_BF_ROUNDS(rounds_i32, int32_t, int64_t, 0, GK_APSP_INF)
GK_BF_ROUNDS(rounds_i64, int64_t, int64_t, 0, GK_APSP_INF64)
GK_BF_ROUNDS(rounds_f32, float, float, 1, INFINITY)
GK_BF_ROUNDS(rounds_f64, double, double, 1, INFINITY)

static int64_t rounds(const gk_graph *g, void *d, int32_t *p, int32_t *nearest, int32_t *cur, int64_t n,
                      int32_t *next, unsigned char *inq, int64_t *relaxed)
{
    switch (g->dtype) {
    case GK_DTYPE_INT32: return rounds_i32(g, d, p, nearest, cur, n, next, inq, relaxed);
    case GK_DTYPE_INT64: return rounds_i64(g, d, p, nearest, cur, n, next, inq, relaxed);
    case GK_DTYPE_FLOAT32: return rounds_f32(g, d, p, nearest, cur, n, next, inq, relaxed);
    default: return rounds_f64(g, d, p, nearest, cur, n, next, inq, relaxed);
    }
}

/* Element v of a row of t set to "none" or to 0. */
static void set_inf(void *d, gk_dtype t, int64_t v) { gk__graph_inf(t, (char *)d + (size_t)v * gk_dtype_size(t)); }

static void set_zero(void *d, gk_dtype t, int64_t v) { memset((char *)d + (size_t)v * gk_dtype_size(t), 0, gk_dtype_size(t)); }

gk_status gk__sssp_cpu_bellman_ford(gk__sssp_job *j)
{
    const gk_graph *g = j->g;
    const int32_t V = g->V;
    const gk_dtype t = g->dtype;
    const size_t es = gk_dtype_size(t);
    const int64_t rows = j->min_only ? 1 : j->S;
    int32_t *nearest = j->min_only ? j->nearest : NULL;
    int64_t relaxed = 0, cycle = -1;
    int bad = 0;
    j->relaxations = 0;
    j->cycle_vertex = -1;
    int saved = 0;
#ifdef _OPENMP
    if (j->threads > 0) {
        saved = omp_get_max_threads();
        omp_set_num_threads(j->threads);
    }
#endif
#pragma omp parallel reduction(+ : relaxed) reduction(| : bad)
    {
        int32_t *cur = malloc((size_t)V * sizeof *cur), *next = malloc((size_t)V * sizeof *next);
        unsigned char *inq = calloc((size_t)V, 1);
        int32_t *own_pred = j->pred ? NULL : malloc((size_t)V * sizeof *own_pred);
        int32_t *own_near = j->min_only && !nearest ? malloc((size_t)V * sizeof *own_near) : NULL;
        int ok = cur && next && inq && (j->pred || own_pred) && (!j->min_only || nearest || own_near);
        bad |= !ok;
#pragma omp for schedule(dynamic, 1)
        for (int64_t r = 0; r < rows; r++) {
            int64_t c;
#pragma omp atomic read
            c = cycle;
            if (!ok || c >= 0) continue;
            char *d = (char *)j->dist + (size_t)r * (size_t)V * es;
            int32_t *p = j->pred ? j->pred + r * (int64_t)V : own_pred;
            int32_t *nr = nearest ? nearest : own_near;
            for (int32_t v = 0; v < V; v++) {
                set_inf(d, t, v);
                p[v] = -1;
                if (j->min_only) nr[v] = -1;
            }
            int64_t n = 0;
            int64_t first = j->min_only ? 0 : r, last = j->min_only ? j->S : r + 1;
            for (int64_t i = first; i < last; i++) {
                int32_t s = j->sources[i];
                if (!inq[s]) { inq[s] = 1; cur[n++] = s; }
                set_zero(d, t, s);
                if (j->min_only && nr[s] < 0) nr[s] = s;
            }
            for (int64_t i = 0; i < n; i++) inq[cur[i]] = 0;
            int64_t relax_row = 0;
            c = rounds(g, d, p, j->min_only ? nr : NULL, cur, n, next, inq, &relax_row);
            relaxed += relax_row;
            if (c >= 0) {
#pragma omp critical(gk_sssp_bf_cycle)
                if (cycle < 0) cycle = c;
                continue;
            }
            if (j->limit < INFINITY)
                for (int32_t v = 0; v < V; v++) {
                    double x = gk__sssp_dist_get(d, t, v);
                    if (x > j->limit && !isinf(x)) {
                        set_inf(d, t, v);
                        p[v] = -1;
                        if (j->min_only) nr[v] = -1;
                    }
                }
        }
        free(cur);
        free(next);
        free(inq);
        free(own_pred);
        free(own_near);
    }
#ifdef _OPENMP
    if (saved) omp_set_num_threads(saved);
#else
    (void)saved;
#endif
    j->relaxations = relaxed;
    if (bad) return gk__fail(GK_ENOMEM, "bellman-ford: cannot allocate the queues of %ld vertices", (long)V);
    if (cycle >= 0) {
        j->cycle_vertex = cycle;
        return gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)cycle);
    }
    return GK_OK;
}

gk_status gk__sssp_cpu_potential(const gk_graph *g, void **hout, int64_t *cycle)
{
    const int32_t V = g->V;
    const size_t es = gk_dtype_size(g->dtype);
    *hout = NULL;
    if (cycle) *cycle = -1;
    void *h = calloc((size_t)V, es);     /* 0 in every type */
    if (!h) return gk__fail(GK_ENOMEM, "johnson: cannot allocate the potential of %ld vertices", (long)V);
    if (!g->negative) {
        *hout = h;
        return GK_OK;
    }
    int32_t *cur = malloc((size_t)V * sizeof *cur), *next = malloc((size_t)V * sizeof *next);
    int32_t *p = malloc((size_t)V * sizeof *p);
    unsigned char *inq = calloc((size_t)V, 1);
    if (!cur || !next || !p || !inq) {
        free(cur); free(next); free(p); free(inq); free(h);
        return gk__fail(GK_ENOMEM, "johnson: cannot allocate the queues of %ld vertices", (long)V);
    }
    /* the virtual vertex's round: every vertex at 0, all of them queued */
    for (int32_t v = 0; v < V; v++) {
        cur[v] = v;
        p[v] = -1;
    }
    int64_t relaxed = 0;
    int64_t c = rounds(g, h, p, NULL, cur, V, next, inq, &relaxed);
    free(cur); free(next); free(p); free(inq);
    if (c >= 0) {
        free(h);
        if (cycle) *cycle = c;
        return gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)c);
    }
    *hout = h;
    return GK_OK;
}

gk_status gk__sssp_cpu_johnson(gk__sssp_job *j)
{
    void *h = NULL;
    int64_t cycle = -1;
    j->relaxations = 0;
    j->cycle_vertex = -1;
    gk_status st = gk__sssp_cpu_potential(j->g, &h, &cycle);
    if (st) {
        j->cycle_vertex = cycle;
        return st;
    }
    const void *saved = j->h;
    j->h = j->g->negative ? h : NULL;
    st = gk__sssp_cpu_dijkstra(j);
    j->h = saved;
    free(h);
    return st;
}
