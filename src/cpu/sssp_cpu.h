/* sssp_cpu.h - the CPU shortest-path backend: Dijkstra, Bellman-Ford and
 * Johnson from chosen sources on a gk_graph (core/graph.h), sources spread
 * over the OpenMP threads.  The rules of gk/sssp.h (conventions, limit,
 * min_only, predecessors, exactness). */
#ifndef GK_SSSP_CPU_H
#define GK_SSSP_CPU_H

#include "core/graph.h"

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

/* Dijkstra: non-negative weights (GK_EINVAL naming Johnson otherwise, with
 * h: the reweighted ones are).  A radix heap for the integer types, a
 * binary heap of (distance, vertex) for floats. */
gk_status gk__sssp_cpu_dijkstra(gk__sssp_job *j);

/* Bellman-Ford from each source (a FIFO queue of changed vertices; a
 * vertex queued V times means a negative cycle: GK_ENEGCYCLE, cycle_vertex
 * a vertex on the cycle, found by walking predecessors). */
gk_status gk__sssp_cpu_bellman_ford(gk__sssp_job *j);

/* Johnson's potential: Bellman-Ford from a virtual vertex joined to every
 * vertex by 0-weight edges; *h (V of g->dtype, malloc'ed, free with free())
 * or GK_ENEGCYCLE with *cycle.  Graphs without a negative weight: h = 0. */
gk_status gk__sssp_cpu_potential(const gk_graph *g, void **h, int64_t *cycle);

/* Johnson: gk__sssp_cpu_potential, then gk__sssp_cpu_dijkstra with h. */
gk_status gk__sssp_cpu_johnson(gk__sssp_job *j);

#endif /* GK_SSSP_CPU_H */
