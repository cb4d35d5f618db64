/* apsp_typed.h - the typed backends of issue 24 as the front door calls
 * them: the prototypes of CONTRACT-24 section 2/A (core/apsp_types.h,
 * cpu/apsp_cpu.h) and 2/B (gpu/apsp_gpu.h), repeated here so that the
 * front door compiles against the contract before those helpers' branches
 * are merged.  Identical redeclarations are legal C: once the real headers
 * are in, the compiler checks that both agree. */
#ifndef GK_API_APSP_TYPED_H
#define GK_API_APSP_TYPED_H

#include "core/internal.h"
#include "cpu/apsp_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"
#endif

#ifndef GK_APSP_ORDER_TILE
#define GK_APSP_ORDER_TILE 64
#endif

/* A: core */
int64_t gk__apsp_inf_i64(gk_dtype t);
int gk__apsp_dtype_ok(gk_dtype t);
void gk__apsp_pred_init(const void *dist, int64_t V, int64_t ld, gk_dtype t, int32_t *pred, int64_t pld);
int gk__apsp_has_negative(const void *dist, int64_t V, int64_t ld, gk_dtype t);
/* A: cpu */
gk_status gk__apsp_cpu_run(void *dist, int32_t V, gk_dtype t, int32_t *pred, gk_cpu_isa isa, int64_t *cycle);
gk_status gk__apsp_cpu_plain(void *dist, int32_t V, gk_dtype t, int32_t *pred, int64_t *cycle);

#ifdef GK_HAVE_CUDA
/* B */
gk_status gk__apsp_gpu_open_typed(gk_apsp_gpu **ctx, const gk_device_info *dev, cudaStream_t stream,
                                  int32_t V, gk_dtype t, int with_pred, const gk_config *cfg);
gk_status gk__apsp_gpu_upload_typed(gk_apsp_gpu *ctx, const void *dist, float *ms);
gk_status gk__apsp_gpu_run_typed(gk_apsp_gpu *ctx, float *ms);
gk_status gk__apsp_gpu_cycle(gk_apsp_gpu *ctx, int64_t *cycle);
gk_status gk__apsp_gpu_download_typed(gk_apsp_gpu *ctx, void *dist, int32_t *pred, float *ms);
gk_status gk__apsp_gpu_exec_device_typed(gk_apsp_gpu *ctx, void *dist, int64_t ld, int32_t *pred, int64_t pld);
gk_status gk__apsp_gpu_ceiling_typed(gk_apsp_gpu *ctx, gk_dtype t, double *per_s);
#endif

#endif /* GK_API_APSP_TYPED_H */
