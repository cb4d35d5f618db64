/* sssp_file.h - the file front door of shortest paths from chosen sources
 * (sssp_file.c) with the readers' flags the CLI takes (one-based edge
 * lists, --vertices), the output's format (--output-format) and the
 * nearest sources' output of min_only.  One process writes each output in
 * order (standard output "-", a pipe or a FIFO work); under mpirun every
 * rank writes at its offsets (a regular file or a device). */
#ifndef GK_API_SSSP_FILE_H
#define GK_API_SSSP_FILE_H

#include "core/internal.h"

typedef struct gk__sssp_file_args {
    const char *input;
    gk_format format;
    int flags;               /* GK__READ_UNDIRECTED, GK__READ_ONE_BASED */
    int64_t vertices;        /* an edge list's vertex count (0: the largest id + 1) */
    gk_dtype dtype;          /* 0: auto */
    const int64_t *sources;  /* NULL with S = 0: every vertex */
    int64_t S;
    /* or, when not NULL, the sources made once V is known (the CLI's ranges:
       a range past V is refused before it is expanded): a malloc'ed list
       into *sources, freed by the run */
    gk_status (*make_sources)(void *user, int64_t V, int64_t **sources, int64_t *S);
    void *make_user;
    const char *output;      /* S x V (min_only: 1 x V), raw or .npy by output_format */
    gk_format output_format; /* GK_FORMAT_NTHU (raw), GK_FORMAT_NPY, or AUTO: .npy by the name */
    const char *pred_output; /* NULL, or the predecessors the same way (int32) */
    const char *nearest_output; /* min_only: NULL, or V int32 source vertices */
} gk__sssp_file_args;

gk_status gk__sssp_run_file(gk_context *ctx, const gk__sssp_file_args *a, const gk_sssp_options *options,
                            gk_sssp_report *report);

#endif /* GK_API_SSSP_FILE_H */
