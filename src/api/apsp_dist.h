/* apsp_dist.h - APSP past one GPU or process with the single-process
 * path's inputs and outputs (apsp_dist.c): every input format, every
 * weight type (HACKING.md, "APSP element types"), raw or .npy output.
 * gk_apsp_run_file is this with an NTHU input, automatic type (int32), raw
 * output. */
#ifndef GK_API_APSP_DIST_H
#define GK_API_APSP_DIST_H

#include "api/context.h"

typedef struct gk__apsp_dist_in {
    gk_format format;        /* the input's (AUTO: .npy by name or magic, else gk_format_detect) */
    int flags;               /* GK__READ_UNDIRECTED, GK__READ_ONE_BASED */
    int32_t vertices;        /* an edge list's vertex count at least (0: its largest id + 1) */
    gk_dtype weights;        /* the distance type (0: auto, gk_apsp_read_matrix's rule) */
    gk_format out_format;    /* NTHU (raw) or NPY; AUTO: NPY for a .npy name */
} gk__apsp_dist_in;

/* Collective over the context's gk_comm, as gk_apsp_run_file.  An NTHU
 * input taken as it is (no flags or vertices) with int32 distances streams
 * its edges (each rank keeps its rows'); every other input is read whole by
 * each rank (gk_apsp_read_matrix: the same type rule and matrix as one
 * process), which keeps its rows and frees the rest before the rounds.
 * GK_ENEGCYCLE ("negative cycle through vertex N", report->run.cycle_vertex
 * = N) on every rank, and no output, when the graph has one. */
gk_status gk__apsp_run_file_typed(gk_context *ctx, const char *input, const char *output, const gk__apsp_dist_in *in,
                                  const char *config, gk_exchange exchange, gk_apsp_dist_report *report);

#endif /* GK_API_APSP_DIST_H */
