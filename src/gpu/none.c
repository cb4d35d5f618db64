/* none.c - the GPU entry points of a CPU-only build (--without-cuda, or no
 * toolkit found): each says so and fails with GK_ENODEV. */
#include "core/internal.h"
#include "gpu/apsp_gpu.h"

#include <stdio.h>
#include <string.h>

#define NO_CUDA "gk was built without CUDA support"

gk_status gk_gpu_count(int *count)
{
    *count = 0;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

void gk_device_info_init(gk_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
}

gk_status gk__gpu_info(int ordinal, gk_device_info *info)
{
    (void)ordinal; (void)info;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk_gpu_info(int ordinal, gk_device_info *info)
{
    (void)ordinal; (void)info;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

int gk_gpu_usable(char *why, size_t n)
{
    if (why) snprintf(why, n, NO_CUDA);
    return 0;
}

gk_status gk__gpu_selftest(int ordinal, size_t n, float *ms)
{
    (void)ordinal; (void)n; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

int gk__gpu_healthy(void) { return 0; }

void gk__gpu_cubin_offer(const char *image, const gk_config *full, const void *cubin, size_t size)
{
    (void)image; (void)full; (void)cubin; (void)size;
}

gk_status gk__gpu_stream_device(void *stream, int *device)
{
    (void)stream;
    *device = -1;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__gpu_pointer_kind(const void *p, int *device_memory, int *device)
{
    (void)p;
    *device_memory = 0;
    *device = -1;
    return GK_OK;
}

gk_status gk__gpu_alloc(void **p, size_t bytes)
{
    (void)bytes;
    *p = NULL;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

void gk__gpu_free(void *p) { (void)p; }

gk_status gk__gpu_copy(void *dst, const void *src, size_t bytes, int to_device)
{
    (void)dst; (void)src; (void)bytes; (void)to_device;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__gpu_stream_wait(void *stream)
{
    (void)stream;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__gpu_span_begin(gk__gpu_span *t, void *stream)
{
    (void)stream;
    t->start = t->stop = NULL;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__gpu_span_end(gk__gpu_span *t, void *stream, double *ms)
{
    (void)t; (void)stream;
    *ms = 0;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

/* The typed APSP entry points (src/gpu/apsp_gpu.h). */
gk_status gk__apsp_gpu_open_typed(gk_apsp_gpu **ctx, const gk_device_info *dev, cudaStream_t stream, int32_t V,
                                  gk_dtype t, int with_pred, const gk_config *cfg)
{
    (void)dev; (void)stream; (void)V; (void)t; (void)with_pred; (void)cfg;
    *ctx = NULL;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__apsp_gpu_upload_typed(gk_apsp_gpu *ctx, const void *dist, float *ms)
{
    (void)ctx; (void)dist; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__apsp_gpu_run_typed(gk_apsp_gpu *ctx, float *ms)
{
    (void)ctx; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__apsp_gpu_cycle(gk_apsp_gpu *ctx, int64_t *cycle)
{
    (void)ctx;
    *cycle = -1;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__apsp_gpu_download_typed(gk_apsp_gpu *ctx, void *dist, int32_t *pred, float *ms)
{
    (void)ctx; (void)dist; (void)pred; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__apsp_gpu_exec_device_typed(gk_apsp_gpu *ctx, void *dist, int64_t ld, int32_t *pred, int64_t pld)
{
    (void)ctx; (void)dist; (void)ld; (void)pred; (void)pld;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__apsp_gpu_ceiling_typed(gk_apsp_gpu *ctx, gk_dtype t, double *per_s)
{
    (void)ctx; (void)t;
    *per_s = 0;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

void gk__apsp_gpu_close(gk_apsp_gpu *ctx) { (void)ctx; }

/* ---- the generated stencil engine (src/gpu/stencil_gen.h) ---- */
#include "gpu/stencil_gen.h"

gk_status gk__stencil_gen_open(gk_stencil_gen **g, const gk_device_info *dev, void *stream,
                               const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz,
                               const gk_config *cfg, const gk__sg_cubin_store *store)
{
    (void)dev; (void)stream; (void)s; (void)nx; (void)ny; (void)nz; (void)cfg; (void)store;
    *g = NULL;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__stencil_gen_upload(gk_stencil_gen *g, const void *grid, float *ms)
{
    (void)g; (void)grid; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__stencil_gen_run(gk_stencil_gen *g, int64_t steps, float *ms)
{
    (void)g; (void)steps; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__stencil_gen_download(gk_stencil_gen *g, void *grid, float *ms)
{
    (void)g; (void)grid; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__stencil_gen_exec_device(gk_stencil_gen *g, void *grid, int64_t pitch_y, int64_t pitch_z,
                                      int64_t steps)
{
    (void)g; (void)grid; (void)pitch_y; (void)pitch_z; (void)steps;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

const char *gk__stencil_gen_config(const gk_stencil_gen *g) { (void)g; return ""; }

void gk__stencil_gen_close(gk_stencil_gen *g) { (void)g; }

/* ---- shortest paths from chosen sources (gpu/sssp_gpu.h) ---- */
#include "gpu/sssp_gpu.h"

gk_status gk__sssp_gpu_open(const gk_graph *g, int device, void *stream, const gk_config *cfg, gk__sssp_gpu **out)
{
    (void)g; (void)device; (void)stream; (void)cfg;
    *out = NULL;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

gk_status gk__sssp_gpu_rows(gk__sssp_gpu *h, gk__sssp_job *j, double *ms)
{
    (void)h; (void)j; (void)ms;
    return gk__fail(GK_ENODEV, NO_CUDA);
}

void gk__sssp_gpu_close(gk__sssp_gpu *h)
{
    (void)h;
}
