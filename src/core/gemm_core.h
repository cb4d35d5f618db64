/* gemm_core.h - the fp32 matrix multiply's internals shared by the layers:
 * size arithmetic and the tuned kernel's launch geometry (from its space,
 * src/core/space_gemm.c). */
#ifndef GK_GEMM_CORE_H
#define GK_GEMM_CORE_H

#include "core/space.h"

/* Bytes of a rows x cols float32 matrix; GK_EINVAL naming what when a size
 * is not positive or the bytes do not fit one object. */
gk_status gk__matrix_bytes(const char *what, int64_t rows, int64_t cols, uint64_t *bytes);

/* Threads per block of the tuned kernel: (BM/TM) x (BN/TN). */
int64_t gk__gemm_threads(const gk_config *complete);
/* Its dynamic shared memory: STAGES x (BK x (BM+4) + BK x BN) floats. */
size_t gk__gemm_smem_bytes(const gk_config *complete);

/* The check of a result (include/gk/gemm.h gives the bound). */
typedef struct gk__gemm_diff {
    double max_abs;        /* max |c - ref| */
    double max_ratio;      /* max |c - ref| / tolerance (<= 1: within the bound) */
    int64_t worst;         /* index of the element with max_ratio */
    int64_t nonfinite;     /* elements where c or ref is NaN/Inf */
} gk__gemm_diff;

/* Compare c with ref (m*n elements) under the bound for K = k, abs_ab[i]
 * = (|A| |B|)_i.  GK_EMISMATCH (with the first worst element's row and
 * column) beyond it or on a non-finite value. */
gk_status gk__gemm_compare(const float *c, const double *ref, const double *abs_ab, int64_t m,
                                 int64_t n, int64_t k, gk__gemm_diff *d);

#endif /* GK_GEMM_CORE_H */
