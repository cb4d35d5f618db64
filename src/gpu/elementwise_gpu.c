/* elementwise_gpu.c - host side of the GPU elementwise kernel: the device
 * matrix, uploads/downloads, the launches of each design and the check. */
#include "gpu/elementwise_gpu.h"

#include <stdint.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_elementwise_gpu {
    gk_device_info dev;
    cudaStream_t stream;
    gk_gpu_module mod;
    gk_config cfg;                 /* complete */
    cudaKernel_t k[3], k_ceil, k_self;
    int vec, bx, by, grid;
    int dimx, dimy;
    size_t n;
    float *a;
    gk_gpu_timer timer;
};

gk_status gk__elementwise_gpu_open(gk_elementwise_gpu **out, const gk_device_info *dev, cudaStream_t stream,
                                   int64_t dimx, int64_t dimy, const gk_config *cfg)
{
    gk_status st;
    *out = NULL;
    if ((st = gk_elementwise_check_size(dimx, dimy, 0)))
        return st;
    gk_elementwise_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return gk__fail(GK_ENOMEM, "out of host memory for the GPU elementwise context");
    g->dev = *dev;
    g->stream = stream;
    if ((st = gk__space_complete(&gk__space_elementwise, cfg, &g->cfg)))
        goto fail;
    char why[160];
    if (gk__space_elementwise.reject(&g->cfg, &g->dev, why, sizeof why)) {
        char txt[256];
        gk__config_format(&g->cfg, txt, sizeof txt);
        st = gk__fail(GK_EINVAL, "elementwise configuration %s cannot run here: %s", txt, why);
        goto fail;
    }
    g->vec = gk__param(&g->cfg, "VEC");
    g->bx = gk__param(&g->cfg, "BX");
    g->by = gk__param(&g->cfg, "BY");
    g->grid = gk__param(&g->cfg, "GRID");
    g->dimx = (int)dimx;
    g->dimy = (int)dimy;
    g->n = (size_t)dimx * (size_t)dimy;
    size_t need = g->n * sizeof(float), fr = 0, tot = 0;
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (need > fr) {
        char b1[32], b2[32];
        st = gk__fail(GK_ENOMEM, "elementwise matrix %dx%d needs %s of GPU memory, %s has %s free", g->dimx,
                      g->dimy, gk__human_bytes((double)need, b1, sizeof b1), g->dev.name,
                      gk__human_bytes((double)fr, b2, sizeof b2));
        goto fail;
    }
    if ((st = gk__gpu_module_load(&gk__image_elementwise, &gk__space_elementwise, &g->cfg, &g->mod)))
        goto fail;
    if ((st = gk__gpu_kernel(&g->mod, "gk_ew_baseline", &g->k[GK_EW_BASELINE])) ||
        (st = gk__gpu_kernel(&g->mod, "gk_ew_float4", &g->k[GK_EW_FLOAT4])) ||
        (st = gk__gpu_kernel(&g->mod, "gk_ew_tuned", &g->k[GK_EW_TUNED])) ||
        (st = gk__gpu_kernel(&g->mod, "gk_ew_ceiling", &g->k_ceil)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_ew_selftest", &g->k_self)))
        goto fail;
    GK_CUDA_GOTO(cudaMalloc((void **)&g->a, need), st, fail);
    if ((st = gk__gpu_timer_init(&g->timer)))
        goto fail;
    *out = g;
    return GK_OK;
fail:
    gk__elementwise_gpu_close(g);
    return st;
}

void gk__elementwise_gpu_close(gk_elementwise_gpu *g)
{
    if (!g) return;
    gk__gpu_timer_free(&g->timer);
    cudaFree(g->a);
    gk__gpu_module_unload(&g->mod);
    free(g);
}

const gk_config *gk__elementwise_gpu_config(const gk_elementwise_gpu *g) { return &g->cfg; }

static gk_status timed_copy(gk_elementwise_gpu *g, float *host, int to_device, float *ms)
{
    gk_status st;
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    if (to_device)
        GK_CUDA_TRY(cudaMemcpyAsync(g->a, host, g->n * sizeof(float), cudaMemcpyHostToDevice, g->stream));
    else
        GK_CUDA_TRY(cudaMemcpyAsync(host, g->a, g->n * sizeof(float), cudaMemcpyDeviceToHost, g->stream));
    float t;
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, &t))) return st;
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__elementwise_gpu_upload(gk_elementwise_gpu *g, const float *a, float *ms)
{
    return timed_copy(g, (float *)a, 1, ms);
}

gk_status gk__elementwise_gpu_download(gk_elementwise_gpu *g, float *a, float *ms)
{
    return timed_copy(g, a, 0, ms);
}

static unsigned cap(int64_t v) { return v > 65535 ? 65535u : (unsigned)v; }

/* niter iterations of design on the matrix at a (dense, on the device);
 * timed (and waited for) when ms != NULL. */
static gk_status launch(gk_elementwise_gpu *g, int design, float *a, int niter, float *ms)
{
    gk_status st;
    if (niter < 0)
        return gk__fail(GK_EINVAL, "elementwise: %d iterations < 0", niter);
    int64_t nq = ((int64_t)g->dimx + 3) / 4;
    dim3 grid, block;
    if (design == GK_EW_BASELINE) {
        block = gk__dim3(32, 8, 1);
        int64_t gy = ((int64_t)g->dimy + 7) / 8;
        if (gy > 65535)
            return gk__fail(GK_EINVAL, "elementwise baseline: %d rows need %lld blocks along y (> 65535)",
                            g->dimy, (long long)gy);
        grid = gk__dim3((unsigned)(((int64_t)g->dimx + 31) / 32), (unsigned)gy, 1);
    } else if (design == GK_EW_FLOAT4) {
        block = gk__dim3(256, 1, 1);
        grid = gk__dim3((unsigned)((nq + 255) / 256), cap(g->dimy), 1);
    } else if (design == GK_EW_TUNED) {
        block = gk__dim3((unsigned)g->bx, (unsigned)g->by, 1);
        int64_t gx = (nq + (int64_t)g->bx * g->vec - 1) / ((int64_t)g->bx * g->vec);
        int64_t gy = ((int64_t)g->dimy + g->by - 1) / g->by;
        if (g->grid > 0) {
            int64_t want = ((int64_t)g->grid * g->dev.sm_count + gx - 1) / gx;
            if (want < gy) gy = want < 1 ? 1 : want;
        }
        grid = gk__dim3((unsigned)gx, cap(gy), 1);
    } else {
        return gk__fail(GK_EINTERNAL, "elementwise: no design %d", design);
    }
    int dimx = g->dimx, dimy = g->dimy;
    void *args[] = { &a, &dimx, &dimy, &niter };
    if (!ms)
        return gk__gpu_launch(g->k[design], grid, block, 0, g->stream, args);
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    if ((st = gk__gpu_launch(g->k[design], grid, block, 0, g->stream, args))) return st;
    float t;
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, &t))) return st;
    GK_CUDA_TRY(cudaGetLastError());
    *ms = t;
    return GK_OK;
}

gk_status gk__elementwise_gpu_run(gk_elementwise_gpu *g, int design, int niter, float *ms)
{
    float t;
    gk_status st = launch(g, design, g->a, niter, &t);
    if (!st && ms) *ms = t;
    return st;
}

void gk__elementwise_gpu_set_stream(gk_elementwise_gpu *g, cudaStream_t stream) { g->stream = stream; }

gk_status gk__elementwise_gpu_exec_device(gk_elementwise_gpu *g, float *a, int64_t ld, int niter)
{
    /* a dense matrix on a 16-byte boundary (the float4 loads) is worked on
       where it is; otherwise through the context's own (2D copies) */
    if (ld == g->dimx && !((uintptr_t)a & 15))
        return launch(g, GK_EW_TUNED, a, niter, NULL);
    const size_t row = (size_t)g->dimx * sizeof(float);
    GK_CUDA_TRY(cudaMemcpy2DAsync(g->a, row, a, (size_t)ld * sizeof(float), row, (size_t)g->dimy,
                                  cudaMemcpyDeviceToDevice, g->stream));
    gk_status st = launch(g, GK_EW_TUNED, g->a, niter, NULL);
    if (st)
        return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(a, (size_t)ld * sizeof(float), g->a, row, row, (size_t)g->dimy,
                                  cudaMemcpyDeviceToDevice, g->stream));
    return GK_OK;
}

gk_status gk__elementwise_gpu_ceiling(gk_elementwise_gpu *g, int niter, double *rate, double *ms_out)
{
    gk_status st = GK_OK;
    unsigned long long n4 = g->n / 4, per = 2ull * 256;      /* float4s per block and pass: 2 chains x 256 */
    unsigned long long blocks = 8ull * (unsigned)g->dev.sm_count;
    if (blocks * per > n4) blocks = (n4 + per - 1) / per;
    if (blocks < 1 || n4 < 1)
        return gk__fail(GK_EINVAL, "elementwise ceiling: the matrix has fewer than 4 elements");
    void *args[] = { &g->a, &n4, &niter };
    float t[6];
    for (int r = 0; r < 6 && !st; r++)      /* the first is a warm-up */
        if ((st = gk__gpu_timer_start(&g->timer, g->stream))
            || (st = gk__gpu_launch(g->k_ceil, gk__dim3((unsigned)blocks, 1, 1), gk__dim3(256, 1, 1), 0, g->stream,
                                    args))
            || (st = gk__gpu_timer_stop(&g->timer, g->stream, &t[r])))
            break;
    if (st) return st;
    double ms[5];
    for (int r = 0; r < 5; r++) ms[r] = t[r + 1];
    double med = gk__median(ms, 5, NULL);
    *rate = (double)n4 * 4.0 * niter / (med * 1e-3);
    if (ms_out) *ms_out = med;
    return GK_OK;
}

gk_status gk__elementwise_gpu_selftest(gk_elementwise_gpu *g, uint32_t first, uint32_t count,
                                       unsigned long long out[4])
{
    gk_status st = GK_OK;
    unsigned long long *d = NULL;
    GK_CUDA_TRY(cudaMalloc((void **)&d, 4 * sizeof *d));
    void *args[] = { &first, &count, &d };
    unsigned blocks = 8u * (unsigned)(g->dev.sm_count > 0 ? g->dev.sm_count : 1);
    cudaError_t e = cudaMemsetAsync(d, 0, 4 * sizeof *d, g->stream);
    if (e != cudaSuccess)
        st = gk__fail(GK_ECUDA, "elementwise self-test: %s", cudaGetErrorString(e));
    if (!st)
        st = gk__gpu_launch(g->k_self, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, g->stream, args);
    if (!st && (e = cudaMemcpyAsync(out, d, 4 * sizeof *d, cudaMemcpyDeviceToHost, g->stream)) == cudaSuccess)
        e = cudaStreamSynchronize(g->stream);
    if (!st && e != cudaSuccess)
        st = gk__fail(GK_ECUDA, "elementwise self-test: %s", cudaGetErrorString(e));
    cudaFree(d);
    return st;
}

gk_status gk__elementwise_gpu_check(gk_elementwise_gpu *g, int design, const float *in, const float *out,
                                    int niter, gk__elementwise_diff *d)
{
    static const int ulps[4] = GK_ELEMENTWISE_GPU_ULPS;
    gk_status st;
    if (niter == 0) {
        for (size_t i = 0; i < g->n; i++)
            if (memcmp(&in[i], &out[i], sizeof(float))) {
                d->outside++;
                return gk__fail(GK_EMISMATCH, "elementwise: 0 iterations changed element %zu (%.9g -> %.9g)", i,
                                in[i], out[i]);
            }
        d->n += (int64_t)g->n;
        return GK_OK;
    }
    float *tmp = NULL;
    if ((st = gk__xmalloc((void **)&tmp, g->n * sizeof(float), "the elementwise check")))
        return st;
    /* (1) one iteration from the input */
    if (!(st = gk__elementwise_gpu_upload(g, in, NULL)) && !(st = gk__elementwise_gpu_run(g, design, 1, NULL))
        && !(st = gk__elementwise_gpu_download(g, tmp, NULL)))
        st = gk__elementwise_step_check(in, tmp, g->dimx, g->dimy, ulps, d);
    /* (2) the last iteration, from this design's own niter - 1 result */
    if (!st && niter > 1 && !(st = gk__elementwise_gpu_upload(g, in, NULL))
        && !(st = gk__elementwise_gpu_run(g, design, niter - 1, NULL))
        && !(st = gk__elementwise_gpu_download(g, tmp, NULL)))
        st = gk__elementwise_step_check(tmp, out, g->dimx, g->dimy, ulps, d);
    if (!st && niter == 1)
        st = gk__elementwise_step_check(in, out, g->dimx, g->dimy, ulps, d);
    free(tmp);
    return st;
}
