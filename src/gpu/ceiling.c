/* ceiling.c - the FMA ceiling of the current device in float32 or float64:
 * chains of independent FMAs, the arithmetic bound a stencil's rate is set
 * against (gk bench stencil --stencil: the generated engine's rows; the
 * classic 27-point kernel measures its own float64 chains in stencil.cu).
 * The kernel is a few lines compiled by NVRTC on first use, so no fatbin
 * and no kernel source file's hash (a tuned table's key) depend on it. */
#include "gpu/gpu.h"
#include "core/internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 8 independent chains per thread, iters FMAs each: 8 chains of 4-8
 * cycles' latency keep every pipe busy with 8+ warps per SM (the shape of
 * stencil.cu's gk_stencil_fma_ceiling, which measured 16.6 TFMA/s = 99.6 %
 * of an H200's float64 peak).  The iterations are unrolled by 8 too: a
 * float32 FMA takes one issue slot, so a loop's counter and branch every
 * 8 FMAs would cost the ceiling ~20 % (30.3 TFMA/s of the H200's 33.4
 * before) */
static const char src_fmt[] =
    "typedef %s T;\n"
    "extern \"C\" __global__ void __launch_bounds__(256) gk_fma_ceiling(T *out, int iters, T a, T b)\n"
    "{\n"
    "    T x[8];\n"
    "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "#pragma unroll\n"
    "    for (int j = 0; j < 8; j++) x[j] = (T)1e-3 * (T)(i + j);\n"
    "#pragma unroll 8\n"
    "    for (int it = 0; it < iters; it++)\n"
    "#pragma unroll\n"
    "        for (int j = 0; j < 8; j++) x[j] = fma(x[j], a, b);\n"
    "    T t = 0;\n"
    "#pragma unroll\n"
    "    for (int j = 0; j < 8; j++) t += x[j];\n"
    "    out[i] = t;\n"
    "}\n";

/* One library per element type and device (ordinal), loaded once. */
#define MAXDEV 64
static struct { cudaLibrary_t lib; cudaKernel_t k; } loaded[2][MAXDEV];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static gk_status kernel_for(int f32, int dev, cudaKernel_t *k)
{
    gk_status st = GK_OK;
    void *cubin = NULL;
    pthread_mutex_lock(&lock);
    if (!loaded[f32][dev].k) {
        int major = 0, minor = 0;
        char src[sizeof src_fmt + 16], log[512];
        size_t size = 0;
        cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
        if (e == cudaSuccess)
            e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
        if (e != cudaSuccess) {
            st = gk__cuda_fail(e, "FMA ceiling: compute capability");
            goto out;
        }
        snprintf(src, sizeof src, src_fmt, f32 ? "float" : "double");
        gk_kernel_image img = { "fma_ceiling", NULL, 0, src, strlen(src) };
        gk_config none;
        gk__config_clear(&none);
        if ((st = gk__nvrtc_compile(&img, NULL, &none, major, minor, &cubin, &size, log, sizeof log))) {
            char *nl = strchr(log, '\n');
            if (nl) *nl = '\0';
            if (log[0])
                st = gk__fail(st, "FMA ceiling: NVRTC: %.400s", log);
            goto out;
        }
        e = cudaLibraryLoadData(&loaded[f32][dev].lib, cubin, NULL, NULL, 0, NULL, NULL, 0);
        if (e == cudaSuccess) {
            e = cudaLibraryGetKernel(&loaded[f32][dev].k, loaded[f32][dev].lib, "gk_fma_ceiling");
            if (e != cudaSuccess)
                cudaLibraryUnload(loaded[f32][dev].lib);
        }
        if (e != cudaSuccess) {
            loaded[f32][dev].lib = NULL;
            loaded[f32][dev].k = NULL;
            st = gk__cuda_fail(e, "FMA ceiling: load");
        }
    }
out:
    free(cubin);                      /* (NULL, or a copy the library no longer needs) */
    *k = loaded[f32][dev].k;
    pthread_mutex_unlock(&lock);
    return st;
}

gk_status gk__gpu_fma_ceiling(int f32, void *stream, double *fma_per_s)
{
    int dev = 0;
    GK_CUDA_TRY(cudaGetDevice(&dev));
    if (dev < 0 || dev >= MAXDEV)
        return gk__fail(GK_EINVAL, "FMA ceiling: device %d past %d", dev, MAXDEV);
    cudaKernel_t k;
    gk_status st = kernel_for(f32 != 0, dev, &k);
    if (st) return st;
    int sms = 0;
    GK_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaStream_t s = (cudaStream_t)stream;
    unsigned blocks = (unsigned)sms * 16;
    int iters = 8192;
    double a64 = 0.9999999, b64 = 1e-7;
    float a32 = 0.9999999f, b32 = 1e-7f;
    void *out = NULL;
    void *args[] = { &out, &iters, f32 ? (void *)&a32 : (void *)&a64, f32 ? (void *)&b32 : (void *)&b64 };
    GK_CUDA_TRY(cudaMalloc(&out, (size_t)blocks * 256 * 8));
    gk_gpu_timer timer;
    if ((st = gk__gpu_timer_init(&timer))) {
        cudaFree(out);
        return st;
    }
    float t[6];
    for (int r = 0; r < 6 && !st; r++)          /* the first is a warm-up */
        if (!(st = gk__gpu_timer_start(&timer, s)))
            if (!(st = gk__gpu_launch(k, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, s, args)))
                st = gk__gpu_timer_stop(&timer, s, &t[r]);
    gk__gpu_timer_free(&timer);
    cudaFree(out);
    if (st) return st;
    double ms[5];
    for (int r = 0; r < 5; r++)
        ms[r] = t[r + 1];
    double med = gk__median(ms, 5, NULL);
    if (!(med > 0))
        return gk__fail(GK_EINTERNAL, "FMA ceiling: a run of %g ms", med);
    *fma_per_s = (double)blocks * 256 * 8 * iters / (med * 1e-3);
    return GK_OK;
}
