/* sssp_job.h - one batch of shortest-path rows, as the front door (src/api)
 * hands it to the CPU backend (cpu/sssp_cpu.h) and the GPU backend
 * (gpu/sssp_gpu.h): the rules of gk/sssp.h. */
#ifndef GK_CORE_SSSP_JOB_H
#define GK_CORE_SSSP_JOB_H

#include "core/graph.h"

#include <math.h>

/* One batch of rows.  The caller fills the inputs; dist (and pred) hold S
 * rows of V (min_only: one row), row stride V. */
typedef struct gk__sssp_job {
    const gk_graph *g;
    const int32_t *sources;   /* S vertices, each in [0, V) (the caller checked) */
    int64_t S;
    int min_only;             /* one row: multi-source search, nearest[] filled */
    double limit;             /* +inf: none; a distance > limit is INF and not expanded */
    void *dist;               /* S x V (min_only: V) of g->dtype */
    int32_t *pred;            /* NULL or S x V (min_only: V) */
    int32_t *nearest;         /* min_only: V (the source, -1 unreachable), or NULL */
    /* Johnson: the potential h (V entries of g->dtype, from
       gk__sssp_cpu_potential) or NULL.  With h the search runs on
       w'(u,v) = (w + h[u]) - h[v] in the element type (floats: max(0, .)),
       and each result is turned back as (d' - h[s]) + h[v] (INF stays INF). */
    const void *h;
    int threads;              /* OpenMP threads (0: the current default) */
    /* out */
    int64_t relaxations;      /* edges relaxed, all sources */
    int64_t cycle_vertex;     /* GK_ENEGCYCLE: a vertex on a negative cycle; else -1 */
} gk__sssp_job;

/* Distance v of a row of type t as a double, "no path" (the integer
 * types' INF, +inf) as +inf: the front door's and the backends' one
 * reading of a result row. */
static inline double gk__sssp_dist_get(const void *row, gk_dtype t, int64_t v)
{
    switch (t) {
    case GK_DTYPE_INT32: {
        int32_t x = ((const int32_t *)row)[v];
        return x == GK_APSP_INF ? INFINITY : (double)x;
    }
    case GK_DTYPE_INT64: {
        int64_t x = ((const int64_t *)row)[v];
        return x == GK_APSP_INF64 ? INFINITY : (double)x;
    }
    case GK_DTYPE_FLOAT32: return ((const float *)row)[v];
    default: return ((const double *)row)[v];
    }
}

#endif /* GK_CORE_SSSP_JOB_H */
