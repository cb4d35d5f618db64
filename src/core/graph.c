/* graph.c - the compact CSR behind gk_graph (core/graph.h): built from a
 * file's edge list, each (src, dst) pair once with its smallest weight,
 * rows sorted by destination, and the statistics the cost model reads. */
#include "core/graph.h"
#include "core/checked.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gk__graph_free(gk_graph *g)
{
    if (!g) return;
    free(g->indptr);
    free(g->indices);
    free(g->w);
    free(g);
}

gk_status gk__graph_alloc(int32_t V, int64_t E, gk_dtype t, gk_graph **out)
{
    *out = NULL;
    if (V < 1 || V == INT32_MAX)
        return gk__fail(GK_EINVAL, "graph: V = %ld: a graph has 1 to 2^31 - 2 vertices", (long)V);
    if (E < 0)
        return gk__fail(GK_EINVAL, "graph: E = %lld edges", (long long)E);
    size_t es = gk_dtype_size(t);
    if (!es)
        return gk__fail(GK_EINVAL, "graph: element type %d is not a gk_dtype", (int)t);
    uint64_t bi, bw, bp, total;
    if (gk__mul_u64((uint64_t)E, 4, &bi) || gk__mul_u64((uint64_t)E, es, &bw)
        || gk__mul_u64((uint64_t)V + 1, 8, &bp) || bi + bw + bp < bi || (total = bi + bw + bp) > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "graph: V = %ld, E = %lld: too large for this machine", (long)V, (long long)E);
    gk_graph *g = calloc(1, sizeof *g);
    if (!g) return gk__fail(GK_ENOMEM, "graph: cannot allocate the graph");
    g->V = V;
    g->E = E;
    g->dtype = t;
    g->indptr = calloc((size_t)V + 1, sizeof *g->indptr);
    g->indices = malloc(bi ? (size_t)bi : 1);
    g->w = malloc(bw ? (size_t)bw : 1);
    if (!g->indptr || !g->indices || !g->w) {
        char need[32];
        gk__graph_free(g);
        return gk__fail(GK_ENOMEM, "graph: V = %ld, E = %lld needs %s for its CSR: cannot allocate it", (long)V,
                        (long long)E, gk__human_bytes((double)total, need, sizeof need));
    }
    *out = g;
    return GK_OK;
}

void gk__graph_inf(gk_dtype t, void *out)
{
    switch (t) {
    case GK_DTYPE_INT32: *(int32_t *)out = GK_APSP_INF; break;
    case GK_DTYPE_INT64: *(int64_t *)out = GK_APSP_INF64; break;
    case GK_DTYPE_FLOAT32: *(float *)out = INFINITY; break;
    default: *(double *)out = INFINITY; break;
    }
}

double gk__graph_weight(const gk_graph *g, int64_t k)
{
    switch (g->dtype) {
    case GK_DTYPE_INT32: return ((const int32_t *)g->w)[k];
    case GK_DTYPE_INT64: return (double)((const int64_t *)g->w)[k];
    case GK_DTYPE_FLOAT32: return ((const float *)g->w)[k];
    default: return ((const double *)g->w)[k];
    }
}

void gk__graph_finish(gk_graph *g)
{
    int negative = 0;
    double max_abs = 0;
    int32_t max_deg = 0;
    double sum2 = 0;
    for (int64_t k = 0; k < g->E; k++) {
        double w = gk__graph_weight(g, k);
        if (w < 0) negative = 1;
        if (fabs(w) > max_abs) max_abs = fabs(w);
    }
    for (int32_t v = 0; v < g->V; v++) {
        int64_t d = g->indptr[v + 1] - g->indptr[v];
        if (d > max_deg) max_deg = (int32_t)d;
        sum2 += (double)d * (double)d;
    }
    g->negative = negative;
    g->max_abs_w = max_abs;
    g->max_degree = max_deg;
    double mean = (double)g->E / g->V;
    double var = sum2 / g->V - mean * mean;
    g->degree_cv = g->E > 0 && var > 0 ? sqrt(var) / mean : 0;
}

/* One edge being sorted into its row. */
typedef struct arc { int32_t dst; double w; } arc;

static int arc_cmp(const void *a, const void *b)
{
    const arc *x = a, *y = b;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    return x->w < y->w ? -1 : x->w > y->w;
}

static void sort_row(arc *a, int64_t n)
{
    if (n > 24) {
        qsort(a, (size_t)n, sizeof *a, arc_cmp);
        return;
    }
    for (int64_t i = 1; i < n; i++) {
        arc x = a[i];
        int64_t j = i;
        while (j > 0 && arc_cmp(&a[j - 1], &x) > 0) { a[j] = a[j - 1]; j--; }
        a[j] = x;
    }
}

static void put_weight(gk_graph *g, int64_t k, double w)
{
    switch (g->dtype) {
    case GK_DTYPE_INT32: ((int32_t *)g->w)[k] = (int32_t)w; break;
    case GK_DTYPE_INT64: ((int64_t *)g->w)[k] = (int64_t)w; break;
    case GK_DTYPE_FLOAT32: ((float *)g->w)[k] = (float)w; break;
    default: ((double *)g->w)[k] = w; break;
    }
}

gk_status gk__graph_build(int32_t V, int64_t n, const int32_t *src, const int32_t *dst, const int32_t *wi,
                          const double *wd, int undirected, gk_dtype t, gk_graph **out)
{
    *out = NULL;
    uint64_t bytes;
    int64_t n2 = undirected ? 2 * n : n;
    if (n < 0 || n2 < n || gk__mul_u64((uint64_t)n2, sizeof(arc), &bytes) || bytes > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "graph: %lld edges: too many for this machine", (long long)n);
    int64_t *count = calloc((size_t)V + 1, sizeof *count);
    arc *a = malloc(n2 ? (size_t)bytes : 1);
    if (!count || !a) {
        free(count);
        free(a);
        return gk__fail(GK_ENOMEM, "graph: cannot allocate %llu bytes to sort %lld edges",
                        (unsigned long long)bytes, (long long)n2);
    }
    /* counting sort by source (self-loops dropped) */
    for (int64_t e = 0; e < n; e++) {
        if (src[e] == dst[e]) continue;
        count[src[e] + 1]++;
        if (undirected) count[dst[e] + 1]++;
    }
    for (int32_t v = 0; v < V; v++) count[v + 1] += count[v];
    int64_t *next = malloc(((size_t)V + 1) * sizeof *next);
    if (!next) {
        free(count);
        free(a);
        return gk__fail(GK_ENOMEM, "graph: cannot allocate the row offsets");
    }
    memcpy(next, count, ((size_t)V + 1) * sizeof *next);
    for (int64_t e = 0; e < n; e++) {
        int32_t s = src[e], d = dst[e];
        if (s == d) continue;
        double w = wd ? wd[e] : wi ? (double)wi[e] : 1.0;
        a[next[s]++] = (arc){ d, w };
        if (undirected) a[next[d]++] = (arc){ s, w };
    }
    free(next);
    /* each row sorted by (dst, w): the first of a run of one dst is its
       smallest weight; rounding to t is monotone, so it stays the smallest */
#pragma omp parallel for schedule(dynamic, 4096)
    for (int32_t v = 0; v < V; v++)
        sort_row(a + count[v], count[v + 1] - count[v]);
    int64_t m = 0;
    for (int32_t v = 0; v < V; v++)
        for (int64_t k = count[v]; k < count[v + 1]; k++)
            if (k == count[v] || a[k].dst != a[k - 1].dst) m++;
    gk_graph *g;
    gk_status st = gk__graph_alloc(V, m, t, &g);
    if (st) {
        free(count);
        free(a);
        return st;
    }
    m = 0;
    for (int32_t v = 0; v < V; v++) {
        g->indptr[v] = m;
        for (int64_t k = count[v]; k < count[v + 1]; k++)
            if (k == count[v] || a[k].dst != a[k - 1].dst) {
                g->indices[m] = a[k].dst;
                put_weight(g, m++, a[k].w);
            }
    }
    g->indptr[V] = m;
    free(count);
    free(a);
    gk__graph_finish(g);
    *out = g;
    return GK_OK;
}

gk_status gk__graph_from_edges(const gk_edges *e, int undirected, gk_dtype t, gk_graph **out)
{
    *out = NULL;
    if (e->mode != GK__EDGES_LIST)
        return gk__fail(GK_EINTERNAL, "graph: the edges were not read as a list");
    const char *name = e->path ? e->path : "graph";
    if (e->typed) {
        if (t == 0)
            t = e->all_integral ? 0 : GK_DTYPE_FLOAT64;
    } else if (t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64) {
        /* int32 weights into a float graph: exact for float64, rounded once for float32 */
    }
    if (t == 0 || t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64) {
        double max_abs = e->typed ? e->max_abs : (double)(e->max_w > 0 ? e->max_w : 0);
        int neg = e->typed ? e->neg : 0;
        gk_status st = gk__apsp_int_type(name, e->V, max_abs, neg, t, &t);
        if (st) return st;
    }
    return gk__graph_build(e->V, e->E, e->s, e->t, e->typed ? NULL : e->w, e->typed ? e->wd : NULL, undirected,
                           t, out);
}

gk_status gk__graph_refuse_negative(const gk_graph *g)
{
    for (int32_t u = 0; u < g->V; u++)
        for (int64_t k = g->indptr[u]; k < g->indptr[u + 1]; k++) {
            double w = gk__graph_weight(g, k);
            if (w < 0)
                return gk__fail(GK_EINVAL, "negative weight %.17g on edge %ld -> %ld: Dijkstra needs non-negative "
                                "weights; use --algorithm=johnson or bellman-ford", w, (long)u, (long)g->indices[k]);
        }
    return GK_OK;
}
