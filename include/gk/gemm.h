/* gk/gemm.h - fp32 matrix multiply C = A B.
 *
 * A is M x K, B is K x N, C is M x N, all row-major float32 with leading
 * dimensions lda >= K, ldb >= N, ldc >= N (element (i, j) of A at
 * a[i * lda + j]; dense: the column count).  Every backend multiplies and adds
 * in fp32 (the GPU with FFMA: no TF32, no tensor cores); the order of the
 * additions differs between backends, so results agree within a bound, not
 * to the bit.
 *
 * Accuracy (what --check enforces, element by element):
 *     |C_ij - R_ij| <= GK_GEMM_TOL_C * K * eps * (|A| |B|)_ij + K * FLT_MIN
 * with eps = 2^-23 (FLT_EPSILON) and (|A| |B|)_ij = sum_k |A_ik| |B_kj|.
 * Why GK_GEMM_TOL_C = 2: a sum of K products in fp32, in any order, with or
 * without FMA, is within K * u * (|A| |B|)_ij of the exact value (u = eps/2,
 * the classic bound gamma_K, to first order).  R is either the plain
 * reference loop (double accumulation: exact to u), so the bound holds with
 * room 4x, or another fp32 backend (the GPU is checked against the CPU
 * backend), whose own error adds another K u: 2 K u = K eps, room 2x.  The
 * K * FLT_MIN term covers underflow to subnormals.  A wrong index, a missed
 * or doubled k term moves an element by about |A_ik B_kj| -- far more than
 * K eps |A||B| for the random data of the tests (|values| <= 1).
 */
#ifndef GK_GEMM_H
#define GK_GEMM_H

#include <gk/common.h>
#include <gk/context.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GK_GEMM_TOL_C 2.0

/* Validate a problem: 1 <= M, N, K <= INT32_MAX and every matrix's bytes
 * fit in 64 bits and in one object.  GK_EINVAL naming the size otherwise. */
GK_API gk_status gk_gemm_check_size(int64_t m, int64_t n, int64_t k);

/* Raw matrix files: exactly rows*cols*4 bytes of little-endian float32,
 * row-major.  The reader refuses (GK_EFORMAT, naming the file and the
 * element's row and column) a NaN or an infinity.  The writer is atomic. */
GK_API gk_status gk_matrix_read(const char *path, int64_t rows, int64_t cols, float *m);
GK_API gk_status gk_matrix_write(const char *path, int64_t rows, int64_t cols, const float *m);

/* A reproducible random matrix, uniform in [-1, 1): element i depends on
 * (seed, i) only. */
GK_API void gk_matrix_random(float *m, int64_t rows, int64_t cols, uint64_t seed);

/* The allowed |C_ij - R_ij| for an element whose sum_k |A_ik||B_kj| is
 * abs_ab (see above). */
GK_API double gk_gemm_tolerance(int64_t k, double abs_ab);

/* ---- the problem, the options, one call per job ---------------------- */

typedef struct gk_gemm_problem {
    size_t struct_size;    /* sizeof(gk_gemm_problem) (gk_gemm_problem_init) */
    int64_t m, n, k;       /* C is m x n, the sum runs over k; each in [1, 2^31 - 1] */
    int64_t lda, ldb, ldc; /* leading dimensions; 0: dense (k, n, n) */
    gk_dtype dtype;        /* GK_DTYPE_FLOAT32 (the only type of this release) */
    gk_memory memory;      /* GK_MEMORY_HOST (default) or GK_MEMORY_DEVICE: all three matrices */
} gk_gemm_problem;

/* m x n x k, dense, float32, host memory. */
GK_API void gk_gemm_problem_init(gk_gemm_problem *p, int64_t m, int64_t n, int64_t k);

typedef struct gk_gemm_options {
    size_t struct_size;    /* sizeof(gk_gemm_options) (gk_gemm_options_init) */
    int check;             /* 1: recompute on the CPU (the CPU backend checks the GPU,
                              the plain reference loop checks the CPU backend) and
                              compare under the bound above; GK_EMISMATCH beyond it.
                              Host memory only. */
    const char *config;    /* GPU kernel parameters ("BM=128,TN=8"); they replace the
                              tuned choice; validated on every backend */
} gk_gemm_options;

GK_API void gk_gemm_options_init(gk_gemm_options *o);

/* One call per job: c = a b on the context's backend, optionally checked;
 * *report (may be NULL) as for the other kernels.  The same as
 * gk_gemm_plan_create, gk_gemm_plan_execute, gk_gemm_plan_destroy.
 * Refuses (GK_ENOMEM) a problem that does not fit the host memory (with
 * the check's copies) or the device memory, before allocating. */
GK_API gk_status gk_gemm_run(gk_context *ctx, const gk_gemm_problem *problem, const void *a, const void *b,
                             void *c, const gk_gemm_options *options, gk_report *report);

/* ---- plans ----------------------------------------------------------- */

typedef struct gk_gemm_plan gk_gemm_plan;

/* Made once: the configuration, the loaded kernel image and, where the
 * kernel needs them (host memory, or device matrices whose shape or
 * leading dimensions it cannot read in place), device buffers. */
GK_API gk_status gk_gemm_plan_create(gk_context *ctx, const gk_gemm_problem *problem,
                                     const gk_gemm_options *options, gk_gemm_plan **plan);

/* c = a b (host or device memory, as the plan's problem says).  ctx must
 * be the plan's context.  Device memory: enqueued on the context's stream;
 * nothing is allocated and nothing waits.  c must not overlap a or b
 * (GK_EINVAL naming the operand when their byte ranges meet). */
GK_API gk_status gk_gemm_plan_execute(gk_context *ctx, gk_gemm_plan *plan, const void *a, const void *b, void *c,
                                      gk_report *report);

GK_API void gk_gemm_plan_destroy(gk_gemm_plan *plan);

#ifdef __cplusplus
}
#endif
#endif /* GK_GEMM_H */
