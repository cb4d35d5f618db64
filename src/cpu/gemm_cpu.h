/* gemm_cpu.h - the fp32 matrix multiply on the CPU: the OpenMP/SIMD backend
 * (packed panels, register-blocked micro-kernels for AVX-512 and AVX2+FMA,
 * a generic C one elsewhere), the plain reference loop the tests and
 * --check compare against, and OpenBLAS opened at run time (the bench's
 * comparison; gk does not link it). */
#ifndef GK_GEMM_CPU_H
#define GK_GEMM_CPU_H

#include "core/gemm_core.h"

/* c = a b (a: m x k, b: k x n, c: m x n, row-major) with the backend's
 * micro-kernels of instruction set isa (the context's; GK_CPU_ISA_AUTO: the
 * best this CPU has; GK_ENODEV when the CPU lacks it); fp32 multiply-adds.
 * GK_ENOMEM when the packing buffers cannot be had. */
gk_status gk__gemm_cpu(const float *a, const float *b, float *c, int m, int n, int k, gk_cpu_isa isa);

/* The plain reference: ref = a b accumulated in double, and (abs_ab not
 * NULL) abs_ab = |a| |b|, both m x n doubles.  Rows in parallel. */
void gk__gemm_cpu_reference(const float *a, const float *b, double *ref, double *abs_ab, int m, int n, int k);

/* c (m x n, computed by anything) against the plain reference on rows:
 * all of them when m <= nsample, else nsample rows drawn from seed plus the
 * first and the last (the edges of any tiling).  GK_EMISMATCH as
 * gk__gemm_compare; *d filled. */
gk_status gk__gemm_check_rows(const float *a, const float *b, const float *c, int m, int n, int k, int nsample,
                              uint64_t seed, gk__gemm_diff *d);

/* The micro-kernels of instruction set isa (AUTO: the best there is): their
 * name, and "AVX-512, packed panels, 12x32 micro-tiles, k chunks of 256". */
const char *gk__gemm_cpu_isa_name(gk_cpu_isa isa);
void gk__gemm_cpu_describe(gk_cpu_isa isa, char *buf, size_t n);
/* OpenBLAS's cblas_sgemm, opened at run time (libopenblas.so.0,
 * libopenblas.so).  Returns 1 and its version ("OpenBLAS 0.3.21") when
 * available, else 0 and the reason. */
int gk__openblas_available(char *what, size_t n);
/* c = a b with OpenBLAS on `threads` threads (call only when available). */
void gk__openblas_sgemm(const float *a, const float *b, float *c, int m, int n, int k, int threads);

#endif /* GK_GEMM_CPU_H */
