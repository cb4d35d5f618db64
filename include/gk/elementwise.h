/* gk/elementwise.h - an elementwise, compute-bound kernel on a float matrix.
 *
 * A matrix is DIMX x DIMY floats, row-major with a leading dimension
 * ld >= DIMX (element (x, y) at y*ld + x, x = the column; dense: ld = DIMX).  One iteration updates every element v of column x by
 *     v = v + sqrtf(f(v) + 1.f),  f = logf, cosf, sinf, tanf for x % 4 = 0, 1, 2, 3
 * in float arithmetic, and a job runs NITER iterations.  Where f(v) + 1 < 0
 * (v < 1/e in a log column, tan v < -1 in a tan column, v <= 0 for log)
 * the element becomes NaN and stays NaN: NaN is a result, not an error.
 *
 * Accuracy, and what --check checks (the tolerance):
 *   The result after NITER iterations is not a well-conditioned function of
 *   the input: three of the four maps converge to the points where
 *   f(v) + 1 = 0 (v -> odd multiples of pi for cos, 3pi/2 + 2k pi for sin),
 *   where f(v) + 1 cancels, so two libms that differ by one ulp in cosf near
 *   -1 settle up to about 2^-12 apart (a thousand ulps of pi), and the tan map
 *   is chaotic (a step lands anywhere after a value near a pole).  No
 *   tolerance on the final values would be both honest and meaningful.  So
 *   the check is per iteration, and exact in its bounds:
 *
 *   enclosure E_u(x): for a float x of class f, the interval of floats that
 *   x + sqrt(fl(a + 1)) rounds to for every float a within u + 1/2 ulp of the
 *   exact f(x) (u ulps from the correctly rounded f(x), the libm's error),
 *   with IEEE round-to-nearest +, sqrt, + ; computed on the CPU in double
 *   with f in double and each bound rounded outward to float.  "NaN
 *   required" when fl(a + 1) < 0 for every such a, "NaN allowed" when the
 *   interval of a + 1 straddles 0.
 *
 *   A backend's run of NITER >= 1 iterations passes when (1) its result of
 *   one iteration from the input lies, element by element, in E_u(input),
 *   and (2) its result of NITER iterations lies in E_u(its own result of
 *   NITER - 1 iterations from the same input) (computed by a second run);
 *   NITER = 0 must return the input unchanged.  u is the backend's libm
 *   error per function: the GPU's from the CUDA Math API (logf 1, sinf 2,
 *   cosf 2, tanf 4 ulps, full range; sqrtf and + are IEEE-rounded in gk's
 *   builds: no fast math), the CPU backend's 1 ulp (it evaluates f in double
 *   with glibc and rounds once).  (1) catches a wrong function, column, tail
 *   or index, and a run of 0 or 2 steps for 1; (2) an iteration count that
 *   goes wrong for larger N only (a result that is 2 steps from the N - 1
 *   result fails on every log column element, whose value grows at every
 *   step; tests/test_elementwise_gpu.c presents 29 iterations as 30 and
 *   expects the failure).  What (2) cannot see is a kernel consistently off
 *   by the same count for every N > 1 while right for N = 1.  Both parts are
 *   counted in gk__elementwise_diff; the largest
 *   distance to the correctly rounded step (the reference loop's), in ulps,
 *   is reported but is not the criterion.
 *
 * The plain reference loop (tests, and the CPU bench's first row)
 * evaluates f in double and rounds it to float (a correctly rounded
 * logf/cosf/sinf/tanf except in the rare cases where the double is within
 * about 2^-29 ulp of a rounding boundary), then +1, sqrtf and + in float.
 * The CPU backend computes exactly the same operations (bit-identical): its
 * speed comes from threads and from runs of one column class (no switch,
 * 64 independent chains); the libm calls stay scalar (glibc's libmvec
 * vector functions are only declared under -ffast-math and allow 4 ulps).
 *
 * The CPU's check and the GPU's are the same rule with their own u: the
 * error bounds of the CUDA Math API are "generated from extensive but not
 * exhaustive tests" (its own words), so a GPU result outside them is
 * reported, not excused.
 */
#ifndef GK_ELEMENTWISE_H
#define GK_ELEMENTWISE_H

#include <gk/common.h>
#include <gk/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The libm errors (ulps from the correctly rounded result) the check allows,
 * per column class (log, cos, sin, tan): the CUDA Math API's table
 * ("Mathematical Functions" appendix of the CUDA C++ Programming Guide) for
 * the GPU; 1 ulp for the CPU backend (f in double, rounded once). */
#define GK_ELEMENTWISE_GPU_ULPS { 1, 2, 2, 4 }
#define GK_ELEMENTWISE_CPU_ULPS { 1, 1, 1, 1 }

/* Sizes: DIMX, DIMY >= 1 and <= 2^31 - 1 each, NITER in [0, 2^31 - 1], the
 * element count times 4 bytes within what one object may hold. */
GK_API gk_status gk_elementwise_check_size(int64_t dimx, int64_t dimy, int64_t niter);

/* Raw matrix files: exactly dimx*dimy*4 bytes of little-endian float32,
 * row-major.  The reader refuses a file of another size and a NaN or an
 * infinity (naming the file, the row and the column). */
GK_API gk_status gk_elementwise_read(const char *path, int64_t dimx, int64_t dimy, float *a);
/* Atomic: the file appears only when complete. */
GK_API gk_status gk_elementwise_write(const char *path, int64_t dimx, int64_t dimy, const float *a);

/* A reproducible random matrix, uniform in [1, 2): element i is a function
 * of (seed, i) only.  [1, 2) keeps every log and sin column and most cos
 * columns away from NaN (f(v) + 1 > 0.38 there at the start). */
GK_API void gk_elementwise_random(float *a, int64_t dimx, int64_t dimy, uint64_t seed);

/* ---- the problem, the options, one call per job ---------------------- */

typedef struct gk_elementwise_problem {
    size_t struct_size;    /* sizeof(gk_elementwise_problem) (gk_elementwise_problem_init) */
    int64_t dimx, dimy;    /* columns and rows, each in [1, 2^31 - 1] */
    int64_t ld;            /* elements between the starts of two rows; 0: dimx */
    gk_dtype dtype;        /* GK_DTYPE_FLOAT32 (the only type of this release) */
    gk_memory memory;      /* GK_MEMORY_HOST (default) or GK_MEMORY_DEVICE */
} gk_elementwise_problem;

/* dimx x dimy, dense, float32, host memory. */
GK_API void gk_elementwise_problem_init(gk_elementwise_problem *p, int64_t dimx, int64_t dimy);

typedef struct gk_elementwise_options {
    size_t struct_size;    /* sizeof(gk_elementwise_options) (gk_elementwise_options_init) */
    int check;             /* 1: the per-iteration check above (GK_EMISMATCH when it fails).
                              Host memory only. */
    const char *config;    /* GPU kernel parameters ("VEC=2,BX=128"): they replace the tuned
                              choice; validated on every backend */
} gk_elementwise_options;

GK_API void gk_elementwise_options_init(gk_elementwise_options *o);

/* One call per job: niter iterations over the matrix a in place on the
 * context's backend, optionally checked; *report (may be NULL) as for the
 * other kernels (check_max_abs: the largest distance to the correctly
 * rounded step, in ulps; check_tolerance: the largest u).  The same as
 * gk_elementwise_plan_create, _execute, _destroy.  GK_ENOMEM with the
 * amounts before allocating when the host or device lacks the memory. */
GK_API gk_status gk_elementwise_run(gk_context *ctx, const gk_elementwise_problem *problem, void *a,
                                    int64_t niter, const gk_elementwise_options *options, gk_report *report);

/* ---- plans ----------------------------------------------------------- */

typedef struct gk_elementwise_plan gk_elementwise_plan;

/* Made once: the configuration, the loaded kernel image and (host memory,
 * or a leading dimension the kernel cannot read in place) the device
 * matrix. */
GK_API gk_status gk_elementwise_plan_create(gk_context *ctx, const gk_elementwise_problem *problem,
                                            const gk_elementwise_options *options, gk_elementwise_plan **plan);

/* niter iterations over a in place (host or device memory, as the plan's
 * problem says).  ctx must be the plan's context.  Device memory: enqueued
 * on the context's stream; nothing is allocated and nothing waits. */
GK_API gk_status gk_elementwise_plan_execute(gk_context *ctx, gk_elementwise_plan *plan, void *a, int64_t niter,
                                             gk_report *report);

GK_API void gk_elementwise_plan_destroy(gk_elementwise_plan *plan);

#ifdef __cplusplus
}
#endif
#endif /* GK_ELEMENTWISE_H */
