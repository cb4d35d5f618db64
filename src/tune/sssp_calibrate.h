/* sssp_calibrate.h - the shortest-path cost model's rates measured on this
 * machine (sssp_calibrate.c), and the graphs it and the bench measure on. */
#ifndef GK_TUNE_SSSP_CALIBRATE_H
#define GK_TUNE_SSSP_CALIBRATE_H

#include "core/graph.h"

/* The bench's and the calibration's graphs, made in memory (int32 weights,
 * reproducible from seed):
 *   G_RANDOM    4V edges, ends uniform, weights [1, 100];
 *   G_ROAD      a floor(sqrt V)^2 grid, each neighbour pair both ways,
 *               weights [1, 100], plus 2% of V shortcuts both ways, [100, 800];
 *   G_POWERLAW  R-MAT (.57, .19, .19, .05), V rounded up to a power of 2, 8V edges;
 *   G_DENSE     each ordered pair with probability 1/2;
 *   G_NEGATIVE  G_RANDOM's edges with w + p[u] - p[v], p in [0, 60]: negative
 *               weights, no negative cycle. */
enum { G_RANDOM, G_ROAD, G_POWERLAW, G_DENSE, G_NEGATIVE, G_KINDS };
gk_status gk__sssp_test_graph(int kind, int32_t V, uint64_t seed, gk_graph **out);
const char *gk__sssp_test_graph_name(int kind);
/* a[0..n) in a random order (seed) */
void gk__sssp_shuffle(int64_t *a, int64_t n, uint64_t seed);

/* The rates, in sssp_model.h's units (gk__sssp_rates). */
typedef struct gk__sssp_calib {
    double cpu_edge_ns, cpu_vertex_ns, bf_edge_ns, bf_vertex_ns;   /* one CPU thread */
    double gpu_edge_ns, gpu_searches;                /* 0 when not measured */
} gk__sssp_calib;

/* Measure on the CPU (one thread; Dijkstra and Bellman-Ford on a road grid
 * and a dense graph, each solved for its per-edge and per-vertex costs,
 * Bellman-Ford's per round, rounds(V, E, degree_cv) being the model's) and, when
 * device >= 0, on that GPU (stream: its cudaStream_t or NULL): one search's
 * ns per edge and how many searches run at once.  A few seconds. */
gk_status gk__sssp_calibrate(int device, void *stream, double (*rounds)(int64_t V, int64_t E, double cv),
                             gk__sssp_calib *out);

#endif /* GK_TUNE_SSSP_CALIBRATE_H */
