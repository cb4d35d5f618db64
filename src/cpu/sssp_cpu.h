/* sssp_cpu.h - the CPU shortest-path backend: Dijkstra, Bellman-Ford and
 * Johnson from chosen sources on a gk_graph (core/graph.h), sources spread
 * over the OpenMP threads.  The rules of gk/sssp.h (conventions, limit,
 * min_only, predecessors, exactness). */
#ifndef GK_SSSP_CPU_H
#define GK_SSSP_CPU_H

#include "core/sssp_job.h"


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
