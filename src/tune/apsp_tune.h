/* apsp_tune.h - what the apsp tunable (tunable_apsp.c: the int32 kernel)
 * and the apspx_* tunables (tunable_apspx.c: the typed kernels' shapes)
 * share on the worker side: the random input, its typed copies and the
 * typed kernels' check against the CPU. */
#ifndef GK_APSP_TUNE_H
#define GK_APSP_TUNE_H

#include "tune/tunables.h"

#define VALIDATE_N 317          /* not a multiple of any tile size */
#define MAX_W 1000

/* A random n x n int32 graph (density 0.25, weights up to MAX_W, INF: no
 * edge) for seed, kept between requests (the worker measures many
 * configurations of one size in a row); *out stays valid until the next
 * call. */
gk_status gk__apsp_tune_input(int32_t n, uint64_t seed, const int32_t **out);
/* The int32 matrix in (nn entries, INF: no edge) as type t: the same
 * integers, INF64 / +inf for no edge, weights w / 8 + w / 1024 for the
 * floats (fractions: the additions round, so the order shows). */
void gk__apsp_tune_to_type(const int32_t *in, int64_t nn, gk_dtype t, void *out);
/* The typed kernels of the apsp configuration cfg (its APSPX_* shapes) on
 * in (n x n), as type t with or without predecessors, negative 1: every
 * edge (i, j) reweighted by vertex potentials, w + p(i) - p(j) (negative
 * weights, no negative cycle), against gk__apsp_cpu_run: the same bits,
 * distances and predecessors (GK_EMISMATCH naming the first difference). */
gk_status gk__apsp_tune_validate_typed(const int32_t *in, int32_t n, gk_dtype t, int pred, int negative,
                                       const gk_config *cfg);

#endif /* GK_APSP_TUNE_H */
