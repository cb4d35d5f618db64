/* elementwise_gpu.h - the GPU elementwise kernel: a context that keeps a
 * matrix on the device between calls (what gk and gktune drive).  Built
 * only with CUDA. */
#ifndef GK_ELEMENTWISE_GPU_H
#define GK_ELEMENTWISE_GPU_H

#include "gpu/gpu.h"
#include "core/elementwise.h"

/* The kernel's tunable parameters and constraints: src/core/space_elementwise.c. */

/* The designs: the report's baseline (one element per thread, 32 x 8
 * blocks, a switch on column % 4), its float4 design (one float4 per thread,
 * 256 threads), the tuned kernel (the configuration), the ceiling (the same
 * steps on register-resident values; see gk__elementwise_gpu_ceiling). */
enum { GK_EW_BASELINE = 0, GK_EW_FLOAT4, GK_EW_TUNED };

typedef struct gk_elementwise_gpu gk_elementwise_gpu;

/* On device dev (current) and stream: load the module with cfg (NULL =
 * defaults), allocate the matrix.  GK_ENOMEM naming the amount when the
 * device lacks the memory. */
gk_status gk__elementwise_gpu_open(gk_elementwise_gpu **g, const gk_device_info *dev, cudaStream_t stream,
                                   int64_t dimx, int64_t dimy, const gk_config *cfg);
gk_status gk__elementwise_gpu_upload(gk_elementwise_gpu *g, const float *a, float *ms);
gk_status gk__elementwise_gpu_download(gk_elementwise_gpu *g, float *a, float *ms);
/* The stream later work is enqueued on (a plan follows its context's). */
void gk__elementwise_gpu_set_stream(gk_elementwise_gpu *g, cudaStream_t stream);
/* niter iterations of the tuned kernel on the caller's device matrix
 * (leading dimension ld): in place when dense and 16-byte aligned, else
 * through the context's own; enqueued, not waited for. */
gk_status gk__elementwise_gpu_exec_device(gk_elementwise_gpu *g, float *a, int64_t ld, int niter);
/* niter iterations with a design, timed with CUDA events.  GK_EINVAL when
 * the matrix needs more blocks than one launch of the design has. */
gk_status gk__elementwise_gpu_run(gk_elementwise_gpu *g, int design, int niter, float *ms);
/* The ceiling: niter steps of the four functions on every float4 of the
 * matrix (in place, the lanes' classes by position), 2 float4 chains per
 * thread, 256 threads, 8 blocks per SM grid-strided (full occupancy, no
 * memory traffic in the loop); *rate = element-iterations per second, *ms
 * the time (medians of 5 launches after a warm-up). */
gk_status gk__elementwise_gpu_ceiling(gk_elementwise_gpu *g, int niter, double *rate, double *ms);
/* The per-iteration check of `design` (include/gk/elementwise.h): out holds
 * its result of niter iterations from in; the device reruns 1 and niter - 1
 * iterations from in and each is checked (GPU ulps).  Uses the device
 * matrix (left holding garbage) and a host buffer of the matrix's size. */
gk_status gk__elementwise_gpu_check(gk_elementwise_gpu *g, int design, const float *in, const float *out,
                                    int niter, gk__elementwise_diff *d);
/* The self-test of the tuned kernel's log step (gk_ew_selftest in
 * elementwise.cu) over the floats with bits first .. first + count - 1:
 * out[0] the values v in [1, FLT_MAX] whose log differs from logf's bits,
 * out[1] those whose step differs from v + sqrtf(logf(v) + 1)'s, out[2]
 * those below 2^64 whose square root differs from sqrtf's, out[3] the
 * largest distance of that log from the exact one in float ulps times 2^20
 * (rounded up). */
gk_status gk__elementwise_gpu_selftest(gk_elementwise_gpu *g, uint32_t first, uint32_t count,
                                       unsigned long long out[4]);
const gk_config *gk__elementwise_gpu_config(const gk_elementwise_gpu *g);
void gk__elementwise_gpu_close(gk_elementwise_gpu *g);

#endif /* GK_ELEMENTWISE_GPU_H */
