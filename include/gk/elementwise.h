/* gk/elementwise.h - an elementwise, compute-bound kernel on a float matrix.
 *
 * A matrix is DIMX x DIMY floats, row-major (element (x, y) at y*DIMX + x,
 * x = the column).  One iteration updates every element v of column x by
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
 *   counted in gk_elementwise_diff; the largest
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
#include <gk/config.h>
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

typedef struct gk_elementwise_options {
    int check;             /* 1: the per-iteration check above (GK_EMISMATCH when it fails) */
    const char *config;    /* GPU kernel parameters ("VEC=2,BX=128"): they replace the tuned
                              choice; validated on every backend */
} gk_elementwise_options;

/* One call per job: niter iterations over a (dimx*dimy floats) in place on
 * the context's backend, optionally checked; *report (may be NULL) as for
 * the other kernels (check_max_abs: the largest distance to the correctly
 * rounded step, in ulps; check_tolerance: the largest u).  GK_ENOMEM with
 * the amounts before allocating when the host or device lacks the memory. */
GK_API gk_status gk_elementwise_run(gk_context *ctx, float *a, int64_t dimx, int64_t dimy, int64_t niter,
                                    const gk_elementwise_options *options, gk_report *report);

/* The check's counts. */
typedef struct gk_elementwise_diff {
    int64_t n;             /* elements checked */
    int64_t outside;       /* outside their enclosure (or NaN where NaN is not allowed, or a
                              number where NaN is required) */
    int64_t first;         /* the first such element (of the first failing call) when outside > 0 */
    int64_t nan;           /* NaN results of the last call (the result it checked) */
    int64_t nan_allowed;   /* elements whose enclosure allows NaN and a number */
    double max_ulp;        /* largest |result - the correctly rounded step| in ulps (numbers only) */
} gk_elementwise_diff;

/* The per-iteration check: out[i] against E_u(in[i]) for every element,
 * u = ulps[x % 4].  Accumulates into *d (zero it first); GK_EMISMATCH with
 * the first offending element (row, column, values, enclosure) when any is
 * outside. */
GK_API gk_status gk_elementwise_step_check(const float *in, const float *out, int64_t dimx, int64_t dimy,
                                           const int ulps[4], gk_elementwise_diff *d);

/* `gk bench elementwise`: GPU rows: the baseline (one element per thread, a
 * switch on column % 4), the float4 design (one float4 per thread, the
 * class fixed per lane), the tuned kernel (the chosen configuration), the
 * same configuration with SKIP=0 when it has SKIP=1 (all the work: what
 * compares with the ceiling), and the device's throughput for these four
 * steps (a ceiling measured in the same run: the four steps on every float4
 * at full occupancy, no memory traffic in the loop).  CPU rows: the plain
 * reference loop and the backend.  Each row's niter result is checked (its
 * first iteration from the input, its last from its own niter - 1 result). */
#define GK_ELEMENTWISE_BENCH_ROWS 6
typedef struct gk_elementwise_bench_row {
    char kernel[16];             /* "baseline", "float4", "tuned", "tuned SKIP=0", "ceiling", "reference",
                                    "cpu" */
    double ms;                   /* median of reps runs of niter iterations */
    double gelem_iters;          /* element-iterations per second / 1e9 */
    double speedup;              /* against the first row (the baseline or the reference loop) */
    char check[64];              /* "ok", "FAIL ...", "not run: ..." */
    int ok;
    char config[256];
} gk_elementwise_bench_row;

typedef struct gk_elementwise_bench_report {
    gk_backend backend;
    char device[256];
    gk_config_source config_source;
    double ceiling_gelem_iters;  /* GPU: the ceiling row's rate (0: not measured) */
    int nrows;
    gk_elementwise_bench_row row[GK_ELEMENTWISE_BENCH_ROWS];
} gk_elementwise_bench_report;

GK_API gk_status gk_elementwise_bench(gk_context *ctx, int64_t dimx, int64_t dimy, int niter, int reps,
                                      const char *config, gk_elementwise_bench_report *report);

#ifdef __cplusplus
}
#endif
#endif /* GK_ELEMENTWISE_H */
