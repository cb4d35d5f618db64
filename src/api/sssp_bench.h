/* sssp_bench.h - `gk bench apsp --algorithms` (sssp_bench.c): every
 * shortest-path algorithm and auto on a grid of in-memory graphs, and the
 * calibration of the cost model's rates (gktune --calibrate=sssp). */
#ifndef GK_API_SSSP_BENCH_H
#define GK_API_SSSP_BENCH_H

#include "gk.h"

/* One row of the table: a graph and a number of sources. */
typedef struct gk__sssp_bench_row {
    char graph[16];          /* "random", "road", "powerlaw", "dense", "negative" */
    int64_t V, E, S;
    double seconds[5];       /* per gk_sssp_algorithm (median wall clock of gk_sssp_run);
                                [AUTO]: auto's; -1: not applicable */
    gk_sssp_algorithm choice;      /* what auto ran */
    gk_backend backend;            /* where auto ran it (a GPU context's auto may pick the CPU) */
    gk_sssp_algorithm fastest;     /* the fastest explicit algorithm */
    double ratio;            /* auto / fastest */
    int same;                /* every algorithm's distances agree (exactly: int32) */
    char why[512];           /* auto's report.why */
} gk__sssp_bench_row;

typedef void (*gk__sssp_bench_cb)(void *user, const gk__sssp_bench_row *row);

/* The table on ctx: quick (seconds, for the tests) or the full grid (about a
 * minute on 2 CPU cores).  cb receives each row as it is done. */
gk_status gk__sssp_bench(gk_context *ctx, int quick, gk__sssp_bench_cb cb, void *user);

/* gktune --calibrate=sssp: measure the model's rates of ctx's backend (the
 * CPU's always; the GPU's on a GPU context) and save them in the cache dir
 * (the files gk_sssp_run reads); *text: one line per file written, with the
 * rates. */
gk_status gk__sssp_calibrate_save(gk_context *ctx, char *text, size_t n);

#endif /* GK_API_SSSP_BENCH_H */
