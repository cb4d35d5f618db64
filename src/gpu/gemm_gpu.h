/* gemm_gpu.h - the GPU matrix multiply: a context that keeps A, B and C on
 * the device (what gk, gk bench and gktune drive), the course's baseline
 * kernels, the FP32 ceiling and cuBLAS opened at run time.  CUDA builds
 * only. */
#ifndef GK_GEMM_GPU_H
#define GK_GEMM_GPU_H

#include "gpu/gpu.h"
#include "core/gemm_core.h"

typedef struct gk_gemm_gpu gk_gemm_gpu;

/* The kernels a context can run. */
enum { GK_GEMM_NAIVE = 0, GK_GEMM_TILE, GK_GEMM_ILP, GK_GEMM_TUNED, GK_GEMM_CUBLAS };

/* On device dev (current) and stream: the module with cfg (NULL =
 * defaults; checked against the space and the device) and, with buffers,
 * A, B and C allocated (what upload/run/download and a non-dense
 * exec_device work on; a plan on dense device operands needs none).
 * GK_ENOMEM naming the amount when the device lacks memory. */
gk_status gk__gemm_gpu_open(gk_gemm_gpu **g, const gk_device_info *dev, cudaStream_t stream, int m, int n, int k,
                            const gk_config *cfg, int buffers);
gk_status gk__gemm_gpu_upload(gk_gemm_gpu *g, const float *a, const float *b, float *ms);
/* One C = A B with kernel `which` (GK_GEMM_*), timed with CUDA events
 * (GK_GEMM_CUBLAS: wall clock around device synchronizations: cuBLAS runs
 * on its own runtime's default stream). */
gk_status gk__gemm_gpu_run(gk_gemm_gpu *g, int which, float *ms);
gk_status gk__gemm_gpu_download(gk_gemm_gpu *g, float *c, float *ms);
/* The stream later work is enqueued on (a plan follows its context's). */
void gk__gemm_gpu_set_stream(gk_gemm_gpu *g, cudaStream_t stream);
/* c = a b with the tuned kernel on the caller's device matrices (leading
 * dimensions lda, ldb, ldc): in place when they are dense, else through
 * the context's own; enqueued, not waited for. */
gk_status gk__gemm_gpu_exec_device(gk_gemm_gpu *g, const float *a, int64_t lda, const float *b, int64_t ldb, float *c,
                                   int64_t ldc);
const gk_config *gk__gemm_gpu_config(const gk_gemm_gpu *g);
void gk__gemm_gpu_close(gk_gemm_gpu *g);
/* Device bytes of the three matrices. */
uint64_t gk__gemm_gpu_bytes(int m, int n, int k);

/* fp32 FMAs per second of independent FMA chains (median of 5 launches). */
gk_status gk__gemm_gpu_fma_ceiling(gk_gemm_gpu *g, double *fma_per_s);

/* cuBLAS, opened at run time (libcublas.so.13, .12, .11, libcublas.so):
 * 1 and "cuBLAS 13.0.0" when it can be used, else 0 and the reason. */
int gk__cublas_available(char *what, size_t n);

#endif /* GK_GEMM_GPU_H */
