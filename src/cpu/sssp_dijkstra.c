/* sssp_dijkstra.c - Dijkstra from each source (or from all of them at once
 * for min_only), sources spread over the OpenMP threads, each thread with
 * its heap allocated once per call; the distance row being computed is the
 * output row itself.  Integer distances use a radix heap (Dijkstra's keys
 * never fall below the last popped one), floats a binary heap.  The rules
 * of gk/sssp.h: a candidate d[u] + w in the element type (integers in 64
 * bits, a sum >= the type's INF is no path), kept when strictly smaller;
 * limit: a candidate above it is not kept (so not expanded).  Johnson's
 * potential h (sssp_cpu.h): the search runs on the reweighted edges and
 * the row is turned back at the end, then limit applies to the real
 * distances. */
#include "cpu/sssp_cpu.h"
#include "cpu/sssp_heap.h"

#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* One type's search.  T: the element type, S: the sum type, FLOAT: 1 for
 * float32/float64 (binary heap, max(0, .) on reweighted edges), INFV: the
 * type's "no path". */
#define GK_DIJKSTRA(NAME, T, SUM, FLOAT, INFV)                                                                  \
    static gk_status NAME(gk__sssp_job *j)                                                                    \
    {                                                                                                         \
        const gk_graph *g = j->g;                                                                             \
        const int32_t V = g->V;                                                                               \
        const int64_t *ip = g->indptr;                                                                        \
        const int32_t *ix = g->indices;                                                                       \
        const T *w = (const T *)g->w;                                                                         \
        const T *h = (const T *)j->h;                                                                         \
        const T inf = INFV;                                                                                   \
        const double limit = j->limit;                                                                        \
        const int search_limit = !h && limit < INFINITY;                                                      \
        const int64_t rows = j->min_only ? 1 : j->S;                                                          \
        int32_t *nearest = j->min_only ? j->nearest : NULL;                                                   \
        int32_t *own_nearest = NULL;                                                                          \
        if (j->min_only && !nearest) {                                                                        \
            if (!(own_nearest = malloc((size_t)V * sizeof *own_nearest)))                                    \
                return gk__fail(GK_ENOMEM, "dijkstra: cannot allocate %ld vertices' sources", (long)V);      \
            nearest = own_nearest;                                                                            \
        }                                                                                                     \
        int64_t relaxed = 0;                                                                                  \
        int bad = 0;                                                                                          \
        _Pragma("omp parallel reduction(+ : relaxed) reduction(| : bad)")                                     \
        {                                                                                                     \
            gk__radix_heap rh;                                                                                \
            gk__bin_heap bh;                                                                                  \
            memset(&rh, 0, sizeof rh);                                                                        \
            memset(&bh, 0, sizeof bh);                                                                        \
            _Pragma("omp for schedule(dynamic, 1)")                                                           \
            for (int64_t r = 0; r < rows; r++) {                                                              \
                T *d = (T *)j->dist + r * (int64_t)V;                                                         \
                int32_t *p = j->pred ? j->pred + r * (int64_t)V : NULL;                                       \
                for (int32_t v = 0; v < V; v++) d[v] = inf;                                                   \
                if (p) for (int32_t v = 0; v < V; v++) p[v] = -1;                                             \
                if (nearest) for (int32_t v = 0; v < V; v++) nearest[v] = -1;                                 \
                gk__rh_reset(&rh);                                                                            \
                bh.n = 0;                                                                                     \
                int64_t first = j->min_only ? 0 : r, last = j->min_only ? j->S : r + 1;                       \
                for (int64_t i = first; i < last; i++) {                                                      \
                    int32_t s = j->sources[i];                                                                \
                    if (nearest ? nearest[s] >= 0 : d[s] == 0) continue;   /* a repeated source */            \
                    /* min_only with h: a virtual source joined to each source by a                        \
                       0-weight edge, reweighted to -h[s] >= 0 (h[virtual] = 0) */                          \
                    const T d0 = (T)(h && nearest ? (T)0 - h[s] : (T)0);                                     \
                    d[s] = d0;                                                                                \
                    if (nearest) nearest[s] = s;                                                              \
                    if (FLOAT) gk__bh_push(&bh, (double)d0, s); else gk__rh_push(&rh, (uint64_t)(SUM)d0, s);  \
                }                                                                                             \
                for (;;) {                                                                                    \
                    int32_t u;                                                                                \
                    if (FLOAT) {                                                                              \
                        if (!bh.n) break;                                                                     \
                        gk__bh_item it = gk__bh_pop(&bh);                                                     \
                        if (it.key != (double)d[it.v]) continue;                                              \
                        u = it.v;                                                                             \
                    } else {                                                                                  \
                        if (!rh.size) break;                                                                  \
                        gk__rh_item it = gk__rh_pop(&rh);                                                     \
                        if (it.key != (uint64_t)(SUM)d[it.v]) continue;                                         \
                        u = it.v;                                                                             \
                    }                                                                                         \
                    const T du = d[u];                                                                        \
                    const int64_t k1 = ip[u + 1];                                                             \
                    relaxed += k1 - ip[u];                                                                    \
                    for (int64_t k = ip[u]; k < k1; k++) {                                                    \
                        const int32_t v = ix[k];                                                              \
                        T wk = w[k];                                                                          \
                        if (h) {                                                                              \
                            wk = (T)((T)(wk + h[u]) - h[v]);                                                  \
                            if (FLOAT && !(wk > 0)) wk = 0;                                                   \
                        }                                                                                     \
                        SUM nd = (SUM)du + (SUM)wk;                                                                 \
                        if (!FLOAT && nd >= (SUM)inf) continue;                                                 \
                        T ndt = (T)nd;                                                                        \
                        if (!(ndt < d[v])) continue;                                                          \
                        if (search_limit && (double)ndt > limit) continue;                                    \
                        d[v] = ndt;                                                                           \
                        if (p) p[v] = u;                                                                      \
                        if (nearest) nearest[v] = nearest[u];                                                 \
                        if (FLOAT) gk__bh_push(&bh, (double)ndt, v); else gk__rh_push(&rh, (uint64_t)nd, v);  \
                    }                                                                                         \
                }                                                                                             \
                bad |= rh.bad | bh.bad;                                                                       \
                if (h) {                                                                                      \
                    for (int32_t v = 0; v < V; v++) {                                                         \
                        if (d[v] == inf) continue;                                                            \
                        if (nearest)                /* the virtual source's distance, see above */    \
                            d[v] = (T)(d[v] + h[v]);                                                          \
                        else                                                                                  \
                            d[v] = (T)((T)(d[v] - h[j->sources[r]]) + h[v]);                                  \
                    }                                                                                         \
                }                                                                                             \
                if (!search_limit && limit < INFINITY)                                                        \
                    for (int32_t v = 0; v < V; v++)                                                           \
                        if (d[v] != inf && (double)d[v] > limit) {                                            \
                            d[v] = inf;                                                                       \
                            if (p) p[v] = -1;                                                                 \
                            if (nearest) nearest[v] = -1;                                                     \
                        }                                                                                     \
            }                                                                                                 \
            gk__rh_free(&rh);                                                                                 \
            free(bh.a);                                                                                       \
        }                                                                                                     \
        free(own_nearest);                                                                                    \
        j->relaxations = relaxed;                                                                             \
        if (bad) return gk__fail(GK_ENOMEM, "dijkstra: cannot grow a heap");                                  \
        return GK_OK;                                                                                         \
    }

GK_DIJKSTRA(dijkstra_i32, int32_t, int64_t, 0, GK_APSP_INF)
GK_DIJKSTRA(dijkstra_i64, int64_t, int64_t, 0, GK_APSP_INF64)
GK_DIJKSTRA(dijkstra_f32, float, float, 1, INFINITY)
GK_DIJKSTRA(dijkstra_f64, double, double, 1, INFINITY)

gk_status gk__sssp_cpu_dijkstra(gk__sssp_job *j)
{
    j->relaxations = 0;
    j->cycle_vertex = -1;
    if (j->g->negative && !j->h)
        return gk__graph_refuse_negative(j->g);
    int saved = 0;
#ifdef _OPENMP
    if (j->threads > 0) {
        saved = omp_get_max_threads();
        omp_set_num_threads(j->threads);
    }
#endif
    gk_status st;
    switch (j->g->dtype) {
    case GK_DTYPE_INT32: st = dijkstra_i32(j); break;
    case GK_DTYPE_INT64: st = dijkstra_i64(j); break;
    case GK_DTYPE_FLOAT32: st = dijkstra_f32(j); break;
    case GK_DTYPE_FLOAT64: st = dijkstra_f64(j); break;
    default: st = gk__fail(GK_EINVAL, "dijkstra: element type %d", (int)j->g->dtype); break;
    }
#ifdef _OPENMP
    if (saved) omp_set_num_threads(saved);
#else
    (void)saved;
#endif
    return st;
}
