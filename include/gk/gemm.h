/* gk/gemm.h - fp32 matrix multiply C = A B.
 *
 * A is M x K, B is K x N, C is M x N, all row-major float32 (element (i, j)
 * of an R x C matrix at index i*C + j).  Every backend multiplies and adds
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
#include <gk/config.h>
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

typedef struct gk_gemm_diff {
    double max_abs;        /* max |c - ref| */
    double max_ratio;      /* max |c - ref| / tolerance (<= 1: within the bound) */
    int64_t worst;         /* index of the element with max_ratio */
    int64_t nonfinite;     /* elements where c or ref is NaN/Inf */
} gk_gemm_diff;

/* Compare c with ref (m*n elements) under the bound for K = k, abs_ab[i]
 * = (|A| |B|)_i.  GK_EMISMATCH (with the first worst element's row and
 * column) beyond it or on a non-finite value. */
GK_API gk_status gk_gemm_compare(const float *c, const double *ref, const double *abs_ab, int64_t m,
                                 int64_t n, int64_t k, gk_gemm_diff *d);

typedef struct gk_gemm_options {
    int check;             /* 1: recompute on the CPU (the CPU backend checks the GPU,
                              the plain reference loop checks the CPU backend) and
                              compare under the bound above; GK_EMISMATCH beyond it */
    const char *config;    /* GPU kernel parameters ("BM=128,TN=8"); they replace the
                              tuned choice; validated on every backend */
} gk_gemm_options;

/* One call per job: c = a b (a: m x k, b: k x n, c: m x n, row-major) on the
 * context's backend, optionally checked; *report (may be NULL) as for the
 * other kernels.  Refuses (GK_ENOMEM) a problem that does not fit the host
 * memory (with the check's copies) or the device memory, before allocating. */
GK_API gk_status gk_gemm_run(gk_context *ctx, const float *a, const float *b, float *c, int64_t m, int64_t n,
                             int64_t k, const gk_gemm_options *options, gk_report *report);

/* `gk bench gemm`: the designs on the context's backend, the vendor library
 * and the FP32 ceiling measured in the same run.  GPU rows: "naive" (one
 * output per thread), "tile" (the course's 32x32 shared-memory tiles),
 * "ilp" (64x64 tiles, 4x4 outputs per thread), "tuned" (the chosen
 * configuration) and "cublas" (cublasSgemm, opened at run time:
 * libcublas.so.13, .12, .11 or libcublas.so; default math mode, i.e. strict
 * fp32; "not run: ..." when absent).  CPU rows: "reference" (the plain
 * loop, only where M*N*K <= 2^30), "cpu" (the backend, for each instruction
 * set the CPU has) and "openblas" (cblas_sgemm of libopenblas, opened at
 * run time; "not run" when absent).  Every row's C is checked against the
 * plain reference loop (double accumulation) under the bound above, on 66
 * rows (the first, the last and 64 drawn at random; all rows when M <= 66). */
#define GK_GEMM_BENCH_ROWS 10
typedef struct gk_gemm_bench_row {
    char kernel[16];
    double ms;                   /* median of reps runs */
    double gflops;               /* 2 M N K / s */
    double pct_vendor;           /* percent of the vendor library's GFLOP/s (0: none) */
    char check[64];              /* "ok (0.31 of the bound)", "FAIL ...", "not run: ..." */
    int ok;
    char config[256];
} gk_gemm_bench_row;

typedef struct gk_gemm_bench_report {
    gk_backend backend;
    char device[256];
    double peak_gflops;          /* GPU: fp32 FMA chains measured in the same run, 2 flops each */
    char vendor[64];             /* "cuBLAS 13.0.0", "OpenBLAS 0.3.21", or "" */
    gk_config_source config_source;
    int nrows;
    gk_gemm_bench_row row[GK_GEMM_BENCH_ROWS];
} gk_gemm_bench_report;

GK_API gk_status gk_gemm_bench(gk_context *ctx, int64_t m, int64_t n, int64_t k, int reps, const char *config,
                               gk_gemm_bench_report *report);

#ifdef __cplusplus
}
#endif
#endif /* GK_GEMM_H */
