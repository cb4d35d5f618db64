/* apsp_gpu.c - host side of the APSP GPU backend (its search space is
 * src/core/space_apsp.c): the padded device matrix, the three-phase launch
 * loop, the classic baseline and the min-plus ceiling (kernels in apsp.cu). */
#include "gpu/apsp_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_apsp_gpu {
    int32_t V;
    long long np;                 /* padded size and row pitch */
    int nt, tile, threads;
    size_t smem_mp, smem_piv;
    gk_device_info dev;
    cudaStream_t stream;
    gk_config cfg;
    gk_gpu_module mod;
    cudaKernel_t pivot, minplus, fill, b1, b2, b3, ceil;
    int *d;
    /* the 16-bit path (bits == 16): the padded uint16 matrix (pitch np16,
     * tile GK_APSP16_TILE), an unpadded int32 V x V staging matrix for the
     * transfers, a counter */
    int bits, nt16;
    long long np16;
    unsigned short *d16;
    int *d32;
    unsigned long long *dcount;
    cudaKernel_t pivot16, minplus16, narrow16, widen16, count16, ceil16;
    gk_gpu_timer timer;
};

gk_status gk__apsp_gpu_open(gk_apsp_gpu **out, const gk_device_info *dev, cudaStream_t stream,
                            int32_t V, const gk_config *cfg)
{
    return gk__apsp_gpu_open_bits(out, dev, stream, V, cfg, 32);
}

gk_status gk__apsp_gpu_open_bits(gk_apsp_gpu **out, const gk_device_info *dev, cudaStream_t stream,
                                 int32_t V, const gk_config *cfg, int bits)
{
    gk_status st;
    *out = NULL;
    if (V < 1)
        return gk__fail(GK_EINVAL, "APSP on the GPU: V = %d", V);
    gk_apsp_gpu *c = calloc(1, sizeof *c);
    if (!c)
        return gk__fail(GK_ENOMEM, "cannot allocate the GPU APSP context");
    c->dev = *dev;
    c->stream = stream;
    if ((st = gk__space_complete(&gk__space_apsp, cfg, &c->cfg)))
        goto fail;
    char why[256];
    if (gk__space_apsp.reject(&c->cfg, &c->dev, why, sizeof why)) {
        char text[256];
        gk_config_format(&c->cfg, text, sizeof text);
        st = gk__fail(GK_EINVAL, "apsp configuration %s cannot run on %s: %s", text, c->dev.name, why);
        goto fail;
    }
    c->V = V;
    c->tile = gk__param(&c->cfg, "APSP_TILE");
    c->threads = (int)gk__apsp_threads(&c->cfg);
    c->nt = (int)((V + c->tile - 1) / c->tile);
    c->np = (long long)c->nt * c->tile;
    c->smem_mp = gk__apsp_stage_smem(&c->cfg);
    c->smem_piv = gk__apsp_pivot_smem(&c->cfg);
    c->bits = bits == 16 ? 16 : 32;
    c->nt16 = (int)((V + GK_APSP16_TILE - 1) / GK_APSP16_TILE);
    c->np16 = (long long)c->nt16 * GK_APSP16_TILE;
    size_t bytes = (size_t)c->np * (size_t)c->np * sizeof(int), fr = 0, tot = 0;
    if (c->bits == 16)   /* the uint16 matrix and the int32 staging matrix */
        bytes = (size_t)c->np16 * (size_t)c->np16 * sizeof(unsigned short) + (size_t)V * (size_t)V * sizeof(int);
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (bytes > fr) {
        char need[32], have[32];
        st = gk__fail(GK_ENOMEM, "V = %d needs %s of GPU memory (padded to %lld x %lld int32); %s is free on %s",
                      V, gk__human_bytes((double)bytes, need, sizeof need), c->np, c->np,
                      gk__human_bytes((double)fr, have, sizeof have), c->dev.name);
        goto fail;
    }
    if ((st = gk__gpu_module_load(&gk__image_apsp, &gk__space_apsp, &c->cfg, &c->mod)))
        goto fail;
    if ((st = gk__gpu_kernel(&c->mod, "gk_apsp_pivot", &c->pivot))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_minplus", &c->minplus))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_fill", &c->fill))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_base_p1", &c->b1))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_base_p2", &c->b2))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_base_p3", &c->b3))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_ceiling", &c->ceil))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_pivot", &c->pivot16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_minplus", &c->minplus16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_narrow", &c->narrow16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_widen", &c->widen16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_count", &c->count16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_ceiling", &c->ceil16)))
        goto fail;
    if (c->bits == 16) {
        GK_CUDA_GOTO(cudaMalloc((void **)&c->d16, (size_t)c->np16 * (size_t)c->np16 * sizeof(unsigned short)), st, fail);
        GK_CUDA_GOTO(cudaMalloc((void **)&c->d32, (size_t)V * (size_t)V * sizeof(int)), st, fail);
        GK_CUDA_GOTO(cudaMalloc((void **)&c->dcount, sizeof *c->dcount), st, fail);
    } else {
        GK_CUDA_GOTO(cudaMalloc((void **)&c->d, bytes), st, fail);
    }
    if ((st = gk__gpu_timer_init(&c->timer)))
        goto fail;
    *out = c;
    return GK_OK;
fail:
    gk__apsp_gpu_close(c);
    return st;
}

void gk__apsp_gpu_close(gk_apsp_gpu *c)
{
    if (!c) return;
    gk__gpu_timer_free(&c->timer);
    if (c->d) cudaFree(c->d);
    if (c->d16) cudaFree(c->d16);
    if (c->d32) cudaFree(c->d32);
    if (c->dcount) cudaFree(c->dcount);
    gk__gpu_module_unload(&c->mod);
    free(c);
}

gk_status gk__apsp_gpu_upload(gk_apsp_gpu *c, const int32_t *dist, float *ms)
{
    gk_status st;
    long long n = c->np * c->np;
    int v = GK_APSP_INF;
    void *args[] = { &c->d, &n, &v };
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    if (c->bits == 16) {   /* int32 over, narrowed and padded (at the cap) on the device */
        long long pitch = c->np16;
        int32_t V = c->V;
        void *a16[] = { &c->d16, &pitch, &c->d32, &V };
        GK_CUDA_TRY(cudaMemcpyAsync(c->d32, dist, (size_t)c->V * (size_t)c->V * sizeof(int), cudaMemcpyHostToDevice,
                                    c->stream));
        if ((st = gk__gpu_launch(c->narrow16, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                 c->stream, a16)))
            return st;
    } else {
    if (c->np != c->V)   /* the padding: INF, so padded vertices add no path */
        if ((st = gk__gpu_launch(c->fill, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0, c->stream, args)))
            return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(c->d, (size_t)c->np * sizeof(int), dist, (size_t)c->V * sizeof(int),
                             (size_t)c->V * sizeof(int), (size_t)c->V, cudaMemcpyHostToDevice, c->stream));
    }
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__apsp_gpu_download(gk_apsp_gpu *c, int32_t *dist, float *ms)
{
    gk_status st;
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    if (c->bits == 16) {   /* widened on the device, the cap as INF */
        long long pitch = c->np16;
        int32_t V = c->V;
        void *a16[] = { &c->d32, &c->d16, &pitch, &V };
        if ((st = gk__gpu_launch(c->widen16, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                 c->stream, a16)))
            return st;
        GK_CUDA_TRY(cudaMemcpyAsync(dist, c->d32, (size_t)c->V * (size_t)c->V * sizeof(int), cudaMemcpyDeviceToHost,
                                    c->stream));
    } else
    GK_CUDA_TRY(cudaMemcpy2DAsync(dist, (size_t)c->V * sizeof(int), c->d, (size_t)c->np * sizeof(int),
                             (size_t)c->V * sizeof(int), (size_t)c->V, cudaMemcpyDeviceToHost, c->stream));
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    if (ms) *ms = t;
    return GK_OK;
}

/* The three phases on the 16-bit matrix (the timer already started). */
static gk_status run16(gk_apsp_gpu *c, float *ms)
{
    gk_status st;
    long long pitch = c->np16;
    int k, phase;
    void *args[] = { &c->d16, &pitch, &k, &phase };
    unsigned nt = (unsigned)c->nt16;
    size_t smem_piv = (size_t)GK_APSP16_TILE * GK_APSP16_TILE * sizeof(unsigned short);
    for (k = 0; k < c->nt16; k++) {
        if ((st = gk__gpu_launch(c->pivot16, gk__dim3(1, 1, 1), gk__dim3(1024, 1, 1), smem_piv, c->stream, args)))
            return st;
        if (c->nt16 == 1)
            break;
        phase = 2;
        if ((st = gk__gpu_launch(c->minplus16, gk__dim3(nt, 2, 1), gk__dim3(GK_APSP16_THREADS, 1, 1), GK_APSP16_SMEM,
                                 c->stream, args)))
            return st;
        phase = 3;
        if ((st = gk__gpu_launch(c->minplus16, gk__dim3(nt, nt, 1), gk__dim3(GK_APSP16_THREADS, 1, 1), GK_APSP16_SMEM,
                                 c->stream, args)))
            return st;
    }
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    GK_CUDA_TRY(cudaGetLastError());
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__apsp_gpu_count_cap(gk_apsp_gpu *c, int64_t *count)
{
    gk_status st;
    unsigned long long n = 0;
    long long pitch = c->np16;
    int32_t V = c->V;
    void *args[] = { &c->d16, &pitch, &V, &c->dcount };
    if (c->bits != 16)
        return gk__fail(GK_EINTERNAL, "gk__apsp_gpu_count_cap on a 32-bit context");
    GK_CUDA_TRY(cudaMemsetAsync(c->dcount, 0, sizeof *c->dcount, c->stream));
    if ((st = gk__gpu_launch(c->count16, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                             c->stream, args)))
        return st;
    GK_CUDA_TRY(cudaMemcpyAsync(&n, c->dcount, sizeof n, cudaMemcpyDeviceToHost, c->stream));
    GK_CUDA_TRY(cudaStreamSynchronize(c->stream));
    *count = (int64_t)n;
    return GK_OK;
}

gk_status gk__apsp_gpu_download16(gk_apsp_gpu *c, uint16_t *m16, float *ms)
{
    gk_status st;
    if (c->bits != 16)
        return gk__fail(GK_EINTERNAL, "gk__apsp_gpu_download16 on a 32-bit context");
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(m16, (size_t)c->V * sizeof *m16, c->d16, (size_t)c->np16 * sizeof *m16,
                                  (size_t)c->V * sizeof *m16, (size_t)c->V, cudaMemcpyDeviceToHost, c->stream));
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__apsp_gpu_run(gk_apsp_gpu *c, float *ms)
{
    gk_status st;
    long long pitch = c->np;
    int k, phase;
    void *args[] = { &c->d, &pitch, &k, &phase };
    unsigned nt = (unsigned)c->nt;
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    if (c->bits == 16)
        return run16(c, ms);
    for (k = 0; k < c->nt; k++) {
        if ((st = gk__gpu_launch(c->pivot, gk__dim3(1, 1, 1), gk__dim3(1024, 1, 1), c->smem_piv, c->stream, args)))
            return st;
        if (c->nt == 1)
            break;
        phase = 2;
        if ((st = gk__gpu_launch(c->minplus, gk__dim3(nt, 2, 1), gk__dim3((unsigned)c->threads, 1, 1), c->smem_mp, c->stream, args)))
            return st;
        phase = 3;
        if ((st = gk__gpu_launch(c->minplus, gk__dim3(nt, nt, 1), gk__dim3((unsigned)c->threads, 1, 1), c->smem_mp, c->stream, args)))
            return st;
    }
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    GK_CUDA_TRY(cudaGetLastError());
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__apsp_gpu_run_baseline(gk_apsp_gpu *c, float *ms)
{
    gk_status st;
    if (c->np % 64)
        return gk__fail(GK_EINVAL, "the baseline needs a padded size divisible by 64 (have %lld)", c->np);
    long long pitch = c->np;
    int k;
    void *args[] = { &c->d, &pitch, &k };
    unsigned nb = (unsigned)(c->np / 64);
    dim3 blk = gk__dim3(32, 32, 1);
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    for (k = 0; k < (int)nb; k++) {
        if ((st = gk__gpu_launch(c->b1, gk__dim3(1, 1, 1), blk, 0, c->stream, args))
            || (st = gk__gpu_launch(c->b2, gk__dim3(nb, 2, 1), blk, 0, c->stream, args))
            || (st = gk__gpu_launch(c->b3, gk__dim3(nb, nb, 1), blk, 0, c->stream, args)))
            return st;
    }
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__apsp_gpu_ceiling(gk_apsp_gpu *c, double *per_s)
{
    gk_status st = GK_OK;
    unsigned blocks = (unsigned)c->dev.sm_count * 32;
    int iters = 4096, seed = 1;
    int *out = NULL;
    void *args[] = { &out, &iters, &seed };
    GK_CUDA_TRY(cudaMalloc((void **)&out, (size_t)blocks * 256 * sizeof(int)));
    float best = 0;
    for (int r = 0; r < 6; r++) {   /* the first is a warm-up */
        float t;
        if ((st = gk__gpu_timer_start(&c->timer, c->stream))
            || (st = gk__gpu_launch(c->ceil, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, c->stream, args))
            || (st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
            break;
        if (r && (best == 0 || t < best)) best = t;
    }
    cudaFree(out);
    if (st) return st;
    *per_s = (double)blocks * 256.0 * iters * 16.0 / (best * 1e-3);   /* 16 = CEIL_CHAINS */
    return GK_OK;
}

gk_status gk__apsp_gpu_ceiling16(gk_apsp_gpu *c, double *per_s)
{
    gk_status st = GK_OK;
    unsigned blocks = (unsigned)c->dev.sm_count * 32;
    int iters = 4096, seed = 1;
    unsigned *out = NULL;
    void *args[] = { &out, &iters, &seed };
    GK_CUDA_TRY(cudaMalloc((void **)&out, (size_t)blocks * 256 * sizeof(unsigned)));
    float best = 0;
    for (int r = 0; r < 6; r++) {   /* the first is a warm-up */
        float t;
        if ((st = gk__gpu_timer_start(&c->timer, c->stream))
            || (st = gk__gpu_launch(c->ceil16, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, c->stream, args))
            || (st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
            break;
        if (r && (best == 0 || t < best)) best = t;
    }
    cudaFree(out);
    if (st) return st;
    *per_s = (double)blocks * 256.0 * iters * 16.0 * 2.0 / (best * 1e-3);   /* 16 chains, 2 updates each */
    return GK_OK;
}

const gk_device_info *gk__apsp_gpu_device(const gk_apsp_gpu *c) { return &c->dev; }
const gk_config *gk__apsp_gpu_config(const gk_apsp_gpu *c) { return &c->cfg; }
