/* sssp_ref.h - the tests' independent shortest-path reference: repeated
 * relaxation of a dense min-weight matrix until nothing changes (at most V
 * rounds), each candidate d[u] + w rounded to the element type, the
 * minimum kept: the fixed point every backend must reach bit for bit with
 * non-negative weights.  Plus random graphs as edge lists turned into CSR
 * arrays, and the check that a predecessor row is a shortest-path tree. */
#ifndef GK_TESTS_SSSP_REF_H
#define GK_TESTS_SSSP_REF_H

#include <gk.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A value rounded to t (integers are exact in a double here). */
static inline double ref_round(gk_dtype t, double x)
{
    return t == GK_DTYPE_FLOAT32 ? (double)(float)x : x;
}

static inline double ref_inf(gk_dtype t)
{
    return t == GK_DTYPE_INT32 ? GK_APSP_INF : t == GK_DTYPE_INT64 ? (double)GK_APSP_INF64 : INFINITY;
}

/* An edge list. */
typedef struct ref_graph {
    int64_t V, E;
    int32_t *s, *t;
    double *w;
} ref_graph;

static inline uint64_t ref_rng(uint64_t *x)
{
    *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17;
    return *x;
}

/* E random edges; weights integral in [lo, hi] for integer types, reals
 * with 3 decimals for floats; with neg, w += p[s] - p[t] for a random
 * potential p: negative edges and no negative cycle. */
static inline ref_graph ref_random(int64_t V, int64_t E, gk_dtype t, int lo, int hi, int neg, uint64_t seed)
{
    ref_graph g = { V, E, malloc((size_t)(E + 1) * 4), malloc((size_t)(E + 1) * 4), malloc((size_t)(E + 1) * 8) };
    double *p = calloc((size_t)V, sizeof *p);
    uint64_t x = seed * 2654435761u + 88172645463325252ull;
    for (int64_t v = 0; v < V && neg; v++) p[v] = (double)(ref_rng(&x) % 50);
    for (int64_t e = 0; e < E; e++) {
        g.s[e] = (int32_t)(ref_rng(&x) % (uint64_t)V);
        g.t[e] = (int32_t)(ref_rng(&x) % (uint64_t)V);
        double w = lo + (double)(ref_rng(&x) % (uint64_t)(hi - lo + 1));
        if (t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64)
            w += (double)(ref_rng(&x) % 1000) / 1000.0;
        if (neg) w += p[g.s[e]] - p[g.t[e]];
        g.w[e] = ref_round(t, w);
    }
    free(p);
    return g;
}

static inline void ref_free(ref_graph *g)
{
    free(g->s); free(g->t); free(g->w);
}

/* The edge list as CSR arrays (file order kept inside a row; duplicates
 * and self-loops left for the library to merge), weights of type t. */
static inline void ref_csr(const ref_graph *g, gk_dtype t, int64_t **indptr, int32_t **indices, void **weights)
{
    int64_t *ip = calloc((size_t)g->V + 1, sizeof *ip);
    int32_t *ix = malloc((size_t)(g->E + 1) * 4);
    size_t es = gk_dtype_size(t);
    char *w = malloc((size_t)(g->E + 1) * es);
    int64_t *fill = calloc((size_t)g->V + 1, sizeof *fill);
    for (int64_t e = 0; e < g->E; e++) ip[g->s[e] + 1]++;
    for (int64_t v = 0; v < g->V; v++) ip[v + 1] += ip[v];
    for (int64_t e = 0; e < g->E; e++) {
        int64_t k = ip[g->s[e]] + fill[g->s[e]]++;
        ix[k] = g->t[e];
        switch (t) {
        case GK_DTYPE_INT32: ((int32_t *)w)[k] = (int32_t)g->w[e]; break;
        case GK_DTYPE_INT64: ((int64_t *)w)[k] = (int64_t)g->w[e]; break;
        case GK_DTYPE_FLOAT32: ((float *)w)[k] = (float)g->w[e]; break;
        default: ((double *)w)[k] = g->w[e]; break;
        }
    }
    free(fill);
    *indptr = ip;
    *indices = ix;
    *weights = w;
}

/* Dense min-weight matrix (self-loops dropped, undirected: both ways). */
static inline double *ref_matrix(const ref_graph *g, gk_dtype t, int undirected)
{
    int64_t V = g->V;
    double *m = malloc((size_t)(V * V) * sizeof *m);
    for (int64_t k = 0; k < V * V; k++) m[k] = INFINITY;
    for (int64_t e = 0; e < g->E; e++) {
        if (g->s[e] == g->t[e]) continue;
        double w = ref_round(t, g->w[e]);
        if (w < m[g->s[e] * V + g->t[e]]) m[g->s[e] * V + g->t[e]] = w;
        if (undirected && w < m[g->t[e] * V + g->s[e]]) m[g->t[e] * V + g->s[e]] = w;
    }
    return m;
}

/* Distances from the sources (all at 0: min_only's one row) by repeated
 * relaxation; integers: a sum >= the type's INF is no path.  Returns 1
 * when a negative cycle is reachable (still changing after V rounds). */
static inline int ref_sssp(const double *m, int64_t V, gk_dtype t, const int64_t *src, int64_t ns, double *d)
{
    const int integer = t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64;
    for (int64_t v = 0; v < V; v++) d[v] = INFINITY;
    for (int64_t i = 0; i < ns; i++) d[src[i]] = 0;
    for (int64_t round = 0; round <= V; round++) {
        int changed = 0;
        for (int64_t u = 0; u < V; u++) {
            if (isinf(d[u])) continue;
            for (int64_t v = 0; v < V; v++) {
                double w = m[u * V + v];
                if (isinf(w)) continue;
                double nd = ref_round(t, d[u] + w);
                if (integer && nd >= ref_inf(t)) continue;
                if (nd < d[v]) { d[v] = nd; changed = 1; }
            }
        }
        if (!changed) return 0;
    }
    return 1;
}

/* Element v of a row of type t as a double (INF of the integer types and
 * +inf both read as INFINITY). */
static inline double ref_get(const void *row, gk_dtype t, int64_t v)
{
    double x;
    switch (t) {
    case GK_DTYPE_INT32: x = ((const int32_t *)row)[v]; break;
    case GK_DTYPE_INT64: x = (double)((const int64_t *)row)[v]; break;
    case GK_DTYPE_FLOAT32: x = ((const float *)row)[v]; break;
    default: x = ((const double *)row)[v]; break;
    }
    return x == ref_inf(t) ? INFINITY : x;
}

/* pred is a shortest-path tree of d (from the sources src: pred -1 there
 * and where d is inf; else an edge pred[v] -> v with d[u] + w == d[v],
 * rounded to t, within tol, and following pred reaches a source). */
static inline int ref_tree_ok(const double *m, int64_t V, gk_dtype t, const double *d, const int32_t *pred,
                              const int64_t *src, int64_t ns, double tol)
{
    for (int64_t v = 0; v < V; v++) {
        int is_src = 0;
        for (int64_t i = 0; i < ns; i++) is_src |= src[i] == v;
        if (is_src && d[v] == 0) { if (pred[v] != -1) return 0; continue; }
        if (isinf(d[v])) { if (pred[v] != -1) return 0; continue; }
        int32_t u = pred[v];
        if (u < 0 || u >= V || isinf(m[u * V + v]) || isinf(d[u])) return 0;
        if (fabs(ref_round(t, d[u] + m[u * V + v]) - d[v]) > tol) return 0;
        int64_t x = v, steps = 0;
        while (pred[x] >= 0 && steps <= V) { x = pred[x]; steps++; }
        if (steps > V) return 0;
    }
    return 1;
}

#endif /* GK_TESTS_SSSP_REF_H */
