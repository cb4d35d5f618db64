/* gk/sssp.h - (1.2) shortest paths from chosen sources of a sparse graph:
 * Dijkstra, Bellman-Ford, Johnson and Floyd-Warshall, chosen automatically.
 *
 * A graph (gk_graph) is held by gk as a compact CSR: V vertices (ids
 * 0 .. V-1, V < 2^31), E edges after merging (each (src, dst) pair once
 * with its smallest weight; self-loops dropped, as Floyd-Warshall's
 * diagonal is 0), weights of one element type (int32, int64, float32,
 * float64; +-inf and NaN refused).  It is made once (from a file or from
 * the caller's CSR arrays) and used by any number of runs, on any backend.
 *
 * A run computes, for S sources s_0 .. s_{S-1} (any vertices, repeats
 * allowed), the S x V matrix D[i][v] = the length of a shortest path from
 * s_i to v, rows in the order given, in the graph's element type, with the
 * conventions of gk/apsp.h: GK_APSP_INF (int32), GK_APSP_INF64 (int64) or
 * +inf (floats) for "unreachable", D[i][s_i] = 0.  Predecessors: an int32
 * S x V matrix, P[i][v] = the vertex before v on a shortest path from s_i,
 * GK_APSP_NO_PRED (-1) at v = s_i and where v is unreachable.  Where
 * several shortest paths exist, algorithms may keep different ones (the
 * distances are the same); every predecessor row is a shortest-path tree.
 *
 * Exactness: integers are exact (the type's rules of gk/apsp.h: int32
 * needs (V-1) * max|w| < GK_APSP_INF, halved with negative weights;
 * GK_EINVAL otherwise, naming int64).  Floats: Dijkstra and Bellman-Ford
 * (CPU and GPU) compute each distance as d[u] + w(u,v) in the element type,
 * the minimum over the candidates, so with non-negative weights they give
 * the same bits on every backend; Johnson (reweighted sums) and
 * Floyd-Warshall (another association) agree with them within the bound of
 * gk/apsp.h.
 *
 * Options as scipy.sparse.csgraph.dijkstra defines them: min_only (one row:
 * the distance from the nearest source, and which source that is), limit
 * (a distance above it is reported as unreachable; the search stops
 * there). */
#ifndef GK_SSSP_H
#define GK_SSSP_H

#include <gk/common.h>
#include <gk/context.h>
#include <gk/apsp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- graphs ------------------------------------------------------------ */

typedef struct gk_graph gk_graph;

/* Read a graph file (any format of gk/apsp.h but npy; AUTO: detected) into
 * a CSR of type dtype (0: auto, gk_apsp_read_matrix's rule: int32 when every
 * weight is integral and the bound holds, else int64, float64 for real
 * weights).  undirected: each edge both ways.  vertices as
 * gk_apsp_read_format.  Every bad line: GK_EFORMAT naming the file and the
 * line.  Free with gk_graph_destroy. */
GK_API gk_status gk_graph_read(const char *path, gk_format format, int undirected, int64_t vertices,
                               gk_dtype dtype, gk_graph **out);

/* A graph from the caller's CSR arrays (copied; the caller keeps them):
 * row v's edges are indices[indptr[v] .. indptr[v+1]-1] with the weights
 * at the same positions (weights of type dtype; NULL: every weight 1, of
 * type dtype, default int32 when dtype is 0).  indptr[0] = 0, non-decreasing,
 * indptr[V] = E; every index in [0, V).  Duplicates keep the smallest
 * weight, self-loops are dropped, undirected adds each edge's reverse.
 * GK_EINVAL naming the array and the first bad position. */
GK_API gk_status gk_graph_from_csr(int64_t V, const int64_t *indptr, const int32_t *indices,
                                   const void *weights, gk_dtype dtype, int undirected, gk_graph **out);

GK_API void gk_graph_destroy(gk_graph *g);

/* What a graph holds (any pointer may be NULL): vertices, edges after
 * merging, the element type, and whether a weight is negative. */
GK_API void gk_graph_info(const gk_graph *g, int64_t *V, int64_t *E, gk_dtype *dtype, int *negative);

/* Generated graphs (gk gen apsp --kind=...), reproducible from the seed for
 * any thread count, written to path in any graph format (AUTO: by the name,
 * default nthu), int32 weights uniform in [1, max_w]:
 *   RANDOM    E edges, src and dst uniform (gk_apsp_generate's graph);
 *   GRID      a side x side 2D grid (V = side^2, side = floor(sqrt(V))),
 *             each vertex linked both ways to its right and lower neighbour;
 *   ROAD      GRID plus shortcuts: `shortcut_percent` % of V extra edges
 *             (default 2), both ways, between random vertices, weight
 *             uniform in [max_w, 8 max_w] scaled down to stay within int32's
 *             bound (a motorway is longer than a street but skips many);
 *   POWERLAW  R-MAT (a, b, c, d) = (0.57, 0.19, 0.19, 0.05): E edges, V
 *             rounded up to a power of two. */
typedef enum gk_graph_kind {
    GK_GRAPH_RANDOM = 0,
    GK_GRAPH_GRID,
    GK_GRAPH_ROAD,
    GK_GRAPH_POWERLAW
} gk_graph_kind;

GK_API gk_status gk_graph_kind_parse(const char *text, gk_graph_kind *out);
GK_API const char *gk_graph_kind_name(gk_graph_kind k);

typedef struct gk_graph_gen {
    size_t struct_size;      /* sizeof(gk_graph_gen) (gk_graph_gen_init) */
    gk_graph_kind kind;
    int64_t V;               /* vertices asked for (GRID/ROAD: floor(sqrt(V))^2 made) */
    int64_t E;               /* RANDOM, POWERLAW: edges; GRID, ROAD: ignored */
    uint64_t seed;
    int32_t max_w;           /* weights in [1, max_w] (RANDOM: [0, max_w], as gk_apsp_generate) */
    double shortcut_percent; /* ROAD: extra edges, % of V (default 2) */
} gk_graph_gen;

GK_API void gk_graph_gen_init(gk_graph_gen *g);

/* Write the generated graph; *V_made and *E_made (may be NULL): what was
 * written (edges of both directions counted). */
GK_API gk_status gk_graph_generate(const char *path, gk_format format, const gk_graph_gen *gen,
                                   int64_t *V_made, int64_t *E_made);

/* ---- runs --------------------------------------------------------------- */

typedef enum gk_sssp_algorithm {
    GK_SSSP_AUTO = 0,        /* the cost model's choice (gk_sssp_report.why says why) */
    GK_SSSP_FW,              /* blocked Floyd-Warshall on the whole V x V matrix, S rows kept */
    GK_SSSP_DIJKSTRA,        /* non-negative weights only (GK_EINVAL pointing at johnson) */
    GK_SSSP_JOHNSON,         /* one Bellman-Ford, reweighting, then Dijkstra */
    GK_SSSP_BELLMAN_FORD     /* from each source; negative weights; the cycle check */
} gk_sssp_algorithm;

/* "auto", "fw", "dijkstra", "johnson", "bellman-ford" (also scipy's
 * letters "D", "J", "BF", "FW"); GK_EINVAL naming the choices otherwise. */
GK_API gk_status gk_sssp_algorithm_parse(const char *text, gk_sssp_algorithm *out);
GK_API const char *gk_sssp_algorithm_name(gk_sssp_algorithm a);

typedef struct gk_sssp_options {
    size_t struct_size;      /* sizeof(gk_sssp_options) (gk_sssp_options_init) */
    gk_sssp_algorithm algorithm;
    int min_only;            /* 1: one row of V: the distance from the nearest source */
    double limit;            /* > limit: unreachable (INF), not searched; +inf (default): none.
                                Must be >= 0 (NaN refused). */
    int predecessors;        /* 1: fill pred (the run's pred argument must not be NULL) */
    const char *config;      /* GPU kernel parameters "NAME=VALUE,..." of Floyd-Warshall (as
                                gk_apsp_options); checked whichever algorithm runs (GK_EINVAL) */
    int64_t chunk_rows;      /* gk_sssp_run_rows: rows per call of the sink (0: gk's choice,
                                about 256 MiB of distances) */
} gk_sssp_options;

GK_API void gk_sssp_options_init(gk_sssp_options *o);

/* What a run did.  Initialise with gk_sssp_report_init. */
typedef struct gk_sssp_report {
    size_t struct_size;
    gk_report run;           /* backend, device, configuration, dtype; run.compute: the solve */
    gk_sssp_algorithm algorithm;   /* what ran (never AUTO) */
    char why[512];           /* auto: the model's reasoning with its predicted seconds;
                                explicit: "asked for" */
    double predicted[5];     /* the model's seconds per gk_sssp_algorithm (index AUTO unused);
                                -1: not possible (negative weights for Dijkstra, the V x V
                                matrix too big for FW) */
    int64_t sources;         /* S */
    int64_t relaxations;     /* edge relaxations done (-1: not counted, FW) */
    double setup;            /* graph upload / reweighting / matrix build, seconds */
} gk_sssp_report;

GK_API void gk_sssp_report_init(gk_sssp_report *r);

/* The S x V distances (dist, host memory, graph's type; min_only: V) and,
 * when options->predecessors, pred (S x V int32; min_only: V) and, with
 * min_only, nearest (V int32: the source vertex each distance comes from,
 * -1 when unreachable; may be NULL).  A source outside [0, V): GK_EINVAL
 * naming its position.  A negative cycle (BELLMAN_FORD: one a source
 * reaches; JOHNSON and FW: any in the graph; AUTO: as the algorithm it
 * chose): GK_ENEGCYCLE, report->run.cycle_vertex names a vertex on it.
 * A finite limit with a negative weight: GK_EINVAL.  FW refused
 * (GK_ENOMEM with the bytes it needs) when the V x V matrix does not fit;
 * AUTO then never picks it.  Sources are spread over the context's CPU
 * threads or GPUs (ranks: gk_sssp_run_file). */
GK_API gk_status gk_sssp_run(gk_context *ctx, const gk_graph *g, const int64_t *sources, int64_t S,
                             const gk_sssp_options *options, void *dist, int32_t *pred, int32_t *nearest,
                             gk_sssp_report *report);

/* Rows in chunks for results larger than memory (S = V on a big graph):
 * sink(user, first, rows, dist, pred) receives rows first .. first+rows-1
 * (dist rows x V of the graph's type, pred NULL unless predecessors), in
 * order; a non-OK status from the sink stops the run and is returned.
 * min_only is refused here (one row: use gk_sssp_run). */
typedef gk_status (*gk_sssp_sink)(void *user, int64_t first, int64_t rows, const void *dist,
                                  const int32_t *pred);

GK_API gk_status gk_sssp_run_rows(gk_context *ctx, const gk_graph *g, const int64_t *sources, int64_t S,
                                  const gk_sssp_options *options, gk_sssp_sink sink, void *user,
                                  gk_sssp_report *report);

/* The file front door (what `gk apsp --sources` runs, also under mpirun):
 * read input, compute the rows of the sources (NULL, S = 0: every vertex),
 * write output (S x V of the graph's type: raw little-endian, or .npy by
 * the name; pred_output, may be NULL: S x V int32 the same way) atomically
 * ("-", a pipe or a FIFO too: one process writes in order).
 * Collective over the context's gk_comm: each rank computes a contiguous
 * block of the sources and writes its rows at their offsets; every rank
 * fails with the same status and no output is left. */
GK_API gk_status gk_sssp_run_file(gk_context *ctx, const char *input, gk_format format, int undirected,
                                  gk_dtype dtype, const int64_t *sources, int64_t S,
                                  const gk_sssp_options *options, const char *output,
                                  const char *pred_output, gk_sssp_report *report);

#ifdef __cplusplus
}
#endif
#endif /* GK_SSSP_H */
