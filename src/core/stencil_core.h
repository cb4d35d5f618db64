/* stencil_core.h - the stencil's comparison of a result with its reference
 * (include/gk/stencil.h states the tolerance and why), shared by the front
 * door's check, the benchmarks and the tests. */
#ifndef GK_STENCIL_CORE_H
#define GK_STENCIL_CORE_H

#include "core/internal.h"

/* Comparison of a result with its reference. */
typedef struct gk__stencil_diff {
    double max_abs;      /* max |a - ref| */
    double max_rel;      /* max |a - ref| / |ref| over |ref| > 0 (0 if none) */
    double scale;        /* max |ref|, floored at 1e-300 */
    double tolerance;    /* the allowed max_abs */
    int64_t nonfinite;   /* elements where a or ref is NaN/Inf */
} gk__stencil_diff;

/* Compare a with ref (n elements); *d filled; GK_EMISMATCH (message with
 * the first offending index) when max_abs > tolerance or non-finite values
 * appear.  init_scale: max |initial grid|. */
gk_status gk__stencil_compare(const double *a, const double *ref, int64_t n, int64_t steps,
                             double init_scale, gk__stencil_diff *d);

/* A description's result against its reference, bit for bit (every
 * backend computes the same fma chain): *d filled (tolerance 0);
 * GK_EMISMATCH naming how many elements differ and the first, with both
 * values.  t: GK_DTYPE_FLOAT32 or GK_DTYPE_FLOAT64. */
gk_status gk__stencil_compare_exact(const void *a, const void *ref, int64_t n, gk_dtype t, gk__stencil_diff *d);

/* gk_grid_random's grid in either element type (float32: each value
 * rounded to float). */
void gk__grid_random_type(void *grid, int64_t nx, int64_t ny, int64_t nz, gk_dtype t, uint64_t seed);

/* max |grid[i]| (0 for n == 0). */
double gk__grid_max_abs(const double *grid, int64_t n);

#endif /* GK_STENCIL_CORE_H */
