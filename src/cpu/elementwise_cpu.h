/* elementwise_cpu.h - the CPU elementwise backend (OpenMP/SIMD) and its
 * plain reference loop. */
#ifndef GK_ELEMENTWISE_CPU_H
#define GK_ELEMENTWISE_CPU_H

#include "core/elementwise.h"

/* niter iterations over a (dimx x dimy floats, row-major) in place: OpenMP
 * threads over rows; each row in chunks of 4 x 64 columns split by column
 * class into 4 contiguous runs, each run iterated niter times by an
 * `omp simd` loop (no switch in the loop, 64 independent chains) that stops
 * when a step moved none of the run's elements (all NaN or at a fixed point
 * of the step: later steps would return the same bits).  f is
 * glibc's double log/cos/sin/tan rounded once to float, then +1, sqrtf, +
 * in float: the same operations as gk__elementwise_cpu_reference, so the
 * two give the same bits. */
gk_status gk__elementwise_cpu(float *a, int64_t dimx, int64_t dimy, int64_t niter);

/* The same by a plain loop: one element at a time, a switch on x % 4 per
 * step, no threads. */
gk_status gk__elementwise_cpu_reference(float *a, int64_t dimx, int64_t dimy, int64_t niter);

/* The CPU backend's per-iteration check (gk/elementwise.h): out (niter
 * iterations from in) against one step of its own niter - 1 result, and
 * its one-iteration result against one step of in; tmp: a scratch matrix. */
gk_status gk__elementwise_cpu_check(const float *in, const float *out, int64_t dimx, int64_t dimy, int niter,
                                    float *tmp, gk__elementwise_diff *d);

#endif /* GK_ELEMENTWISE_CPU_H */
