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

#endif /* GK_GEMM_CORE_H */
