/* graph.h - inside libgk: the compact CSR behind gk_graph (gk/sssp.h).
 * Made by graph.c from a file's edge list (gk_edges) or the caller's CSR
 * arrays; read by the CPU and GPU shortest-path backends and by the cost
 * model (its degree statistics). */
#ifndef GK_CORE_GRAPH_H
#define GK_CORE_GRAPH_H

#include "core/internal.h"
#include "core/apsp_formats.h"

struct gk_graph {
    int32_t V;
    int64_t E;               /* edges after merging: indptr[V] */
    gk_dtype dtype;          /* of w */
    int64_t *indptr;         /* V + 1 offsets */
    int32_t *indices;        /* E destinations, ascending within each row, no repeats,
                                no self-loops */
    void *w;                 /* E weights of dtype, at the same positions */
    /* what the cost model and the checks read (gk__graph_finish) */
    int negative;            /* some weight < 0 */
    double max_abs_w;        /* the largest |w| (0 without edges) */
    int32_t max_degree;      /* the largest out-degree */
    double degree_cv;        /* out-degrees' standard deviation / mean (0 without edges) */
};

/* An empty graph of V vertices and room for E edges (indptr zeroed):
 * GK_EINVAL for V outside [1, 2^31 - 1) or E < 0, GK_ENOMEM naming the
 * bytes; sizes checked in 64 bits before allocating. */
gk_status gk__graph_alloc(int32_t V, int64_t E, gk_dtype t, gk_graph **out);

/* The CSR of an edge list as read (list mode; typed lists take g->wd):
 * sorted by (src, dst), each pair once with its smallest weight,
 * self-loops dropped, undirected: each edge both ways; converted to type t
 * (0: gk_apsp_read_matrix's automatic rule).  Then gk__graph_finish. */
gk_status gk__graph_from_edges(const gk_edges *e, int undirected, gk_dtype t, gk_graph **out);

/* The CSR of n edges src[e] -> dst[e] (ids in [0, V), checked by the
 * caller) with weights wd (doubles), else wi (int32), else 1; merged,
 * sorted, converted to t (not 0) as gk__graph_from_edges.  The caller
 * checked that every weight fits t. */
gk_status gk__graph_build(int32_t V, int64_t n, const int32_t *src, const int32_t *dst, const int32_t *wi,
                          const double *wd, int undirected, gk_dtype t, gk_graph **out);

/* gk_graph_read with the readers' GK__READ_* flags (graph_api.c). */
gk_status gk__graph_read_flags(const char *path, gk_format format, int flags, int64_t vertices, gk_dtype dtype,
                               gk_graph **out);

/* Weight k of g as a double. */
double gk__graph_weight(const gk_graph *g, int64_t k);

/* Dijkstra's refusal of a graph with a negative weight: GK_EINVAL naming
 * the first negative edge and the algorithms that take it; GK_OK without. */
gk_status gk__graph_refuse_negative(const gk_graph *g);

/* Fill negative, max_abs_w, max_degree and degree_cv. */
void gk__graph_finish(gk_graph *g);

/* The "no path" value of t (GK_APSP_INF, GK_APSP_INF64, +inf) into *out
 * (one element of t). */
void gk__graph_inf(gk_dtype t, void *out);

void gk__graph_free(gk_graph *g);

#endif /* GK_CORE_GRAPH_H */
