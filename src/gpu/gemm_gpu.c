/* gemm_gpu.c - host side of the GPU matrix multiply (see gemm_gpu.h). */
#include "gpu/gemm_gpu.h"

#include <stdint.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_gemm_gpu {
    gk_device_info dev;
    cudaStream_t stream;
    gk_gpu_module mod;
    gk_config cfg;
    cudaKernel_t k_naive, k_tile, k_ilp, k_tuned, k_unaligned, k_ceil;
    int bm, bn, vec;
    int64_t threads;
    size_t smem;
    int m, n, k;
    float *a, *b, *c;
    gk_gpu_timer timer;
};

uint64_t gk__gemm_gpu_bytes(int m, int n, int k)
{
    return ((uint64_t)m * (uint64_t)k + (uint64_t)k * (uint64_t)n + (uint64_t)m * (uint64_t)n) * 4;
}

gk_status gk__gemm_gpu_open(gk_gemm_gpu **out, const gk_device_info *dev, cudaStream_t stream, int m, int n, int k,
                            const gk_config *cfg, int buffers)
{
    gk_status st;
    *out = NULL;
    if ((st = gk_gemm_check_size(m, n, k)))
        return st;
    gk_gemm_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return gk__fail(GK_ENOMEM, "out of host memory for the GPU gemm context");
    g->dev = *dev;
    g->stream = stream;
    g->m = m; g->n = n; g->k = k;
    if ((st = gk__space_check(&gk__space_gemm, cfg, &g->dev, &g->cfg)))
        goto fail;
    g->bm = gk__param(&g->cfg, "BM");
    g->bn = gk__param(&g->cfg, "BN");
    g->vec = gk__param(&g->cfg, "VEC");
    g->threads = gk__gemm_threads(&g->cfg);
    g->smem = gk__gemm_smem_bytes(&g->cfg);
    if ((m + g->bm - 1) / g->bm > 65535) {
        st = gk__fail(GK_EINVAL, "gemm M=%d: %d row blocks of %d > 65535", m, (m + g->bm - 1) / g->bm, g->bm);
        goto fail;
    }
    size_t need = buffers ? (size_t)gk__gemm_gpu_bytes(m, n, k) : 0, fr = 0, tot = 0;
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (need > fr) {
        char b1[32], b2[32];
        st = gk__fail(GK_ENOMEM, "gemm %dx%dx%d needs %s of GPU memory (A, B and C), %s has %s free", m, n, k,
                      gk__human_bytes((double)need, b1, sizeof b1), g->dev.name,
                      gk__human_bytes((double)fr, b2, sizeof b2));
        goto fail;
    }
    if ((st = gk__gpu_module_load(&gk__image_gemm, &gk__space_gemm, &g->cfg, &g->mod)))
        goto fail;
    if ((st = gk__gpu_kernel(&g->mod, "gk_gemm_naive", &g->k_naive)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_gemm_tile", &g->k_tile)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_gemm_ilp", &g->k_ilp)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_gemm_tuned", &g->k_tuned)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_gemm_tuned_unaligned", &g->k_unaligned)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_gemm_fma_ceiling", &g->k_ceil)))
        goto fail;
    if (buffers) {
        GK_CUDA_GOTO(cudaMalloc((void **)&g->a, (size_t)m * k * 4), st, fail);
        GK_CUDA_GOTO(cudaMalloc((void **)&g->b, (size_t)k * n * 4), st, fail);
        GK_CUDA_GOTO(cudaMalloc((void **)&g->c, (size_t)m * n * 4), st, fail);
    }
    if ((st = gk__gpu_timer_init(&g->timer)))
        goto fail;
    *out = g;
    return GK_OK;
fail:
    gk__gemm_gpu_close(g);
    return st;
}

void gk__gemm_gpu_close(gk_gemm_gpu *g)
{
    if (!g) return;
    gk__gpu_timer_free(&g->timer);
    cudaFree(g->a);
    cudaFree(g->b);
    cudaFree(g->c);
    gk__gpu_module_unload(&g->mod);
    free(g);
}

const gk_config *gk__gemm_gpu_config(const gk_gemm_gpu *g) { return &g->cfg; }

gk_status gk__gemm_gpu_upload(gk_gemm_gpu *g, const float *a, const float *b, float *ms)
{
    gk_status st;
    float t;
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    GK_CUDA_TRY(cudaMemcpyAsync(g->a, a, (size_t)g->m * g->k * 4, cudaMemcpyHostToDevice, g->stream));
    GK_CUDA_TRY(cudaMemcpyAsync(g->b, b, (size_t)g->k * g->n * 4, cudaMemcpyHostToDevice, g->stream));
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, &t))) return st;
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__gemm_gpu_download(gk_gemm_gpu *g, float *c, float *ms)
{
    gk_status st;
    float t;
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    GK_CUDA_TRY(cudaMemcpyAsync(c, g->c, (size_t)g->m * g->n * 4, cudaMemcpyDeviceToHost, g->stream));
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, &t))) return st;
    if (ms) *ms = t;
    return GK_OK;
}

/* ------------------------------------------------------------ cuBLAS */

typedef int (*cublas_create_fn)(void **);
typedef int (*cublas_destroy_fn)(void *);
typedef int (*cublas_mathmode_fn)(void *, int);
typedef int (*cublas_version_fn)(void *, int *);
typedef int (*cublas_sgemm_fn)(void *, int, int, int, int, int, const float *, const float *, int,
                               const float *, int, const float *, float *, int);
/* Opened once per process (pthread_once: contexts on several threads may
 * ask at once) and kept until exit: the library and one handle, used by the
 * benchmark's comparison row only.  A handle must not be used by two
 * threads at once (cuBLAS's rule): cb_lock serialises its calls. */
static struct { void *so, *h; cublas_sgemm_fn sgemm; int version; char why[200]; } cb;
static pthread_once_t cb_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;

static void cublas_open(void)
{
    static const char *tries[] = { "libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so",
                                   "/usr/local/cuda/lib64/libcublas.so" };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0] && !cb.so; i++)
        cb.so = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
    if (!cb.so) {
        snprintf(cb.why, sizeof cb.why, "cuBLAS not found (libcublas.so.13/.12/.11)");
        return;
    }
    cublas_create_fn create;
    cublas_mathmode_fn mathmode;
    cublas_version_fn version;
    *(void **)&create = dlsym(cb.so, "cublasCreate_v2");
    *(void **)&mathmode = dlsym(cb.so, "cublasSetMathMode");
    *(void **)&version = dlsym(cb.so, "cublasGetVersion_v2");
    *(void **)&cb.sgemm = dlsym(cb.so, "cublasSgemm_v2");
    if (!create || !mathmode || !cb.sgemm) {
        snprintf(cb.why, sizeof cb.why, "libcublas lacks cublasCreate_v2, cublasSetMathMode or cublasSgemm_v2");
        cb.so = NULL;
        return;
    }
    int e = create(&cb.h);
    if (e) {
        snprintf(cb.why, sizeof cb.why, "cublasCreate failed (status %d)", e);
        cb.so = NULL;
        return;
    }
    /* CUBLAS_DEFAULT_MATH (0): fp32 compute for SGEMM (TF32 only with
     * CUBLAS_TF32_TENSOR_OP_MATH or NVIDIA_TF32_OVERRIDE=1, which we do not set) */
    mathmode(cb.h, 0);
    if (version) version(cb.h, &cb.version);
}

int gk__cublas_available(char *what, size_t n)
{
    pthread_once(&cb_once, cublas_open);
    if (!cb.so) {
        snprintf(what, n, "%s", cb.why);
        return 0;
    }
    snprintf(what, n, "cuBLAS %d.%d.%d", cb.version / 10000, cb.version / 100 % 100, cb.version % 100);
    return 1;
}

/* ------------------------------------------------------------ launches */

/* One launch of kernel `which` on a, b, c (device, dense); timed (and
 * waited for) when ms != NULL. */
static gk_status launch(gk_gemm_gpu *g, int which, float *a, float *b, float *c, float *ms)
{
    gk_status st;
    int m = g->m, n = g->n, k = g->k;
    if (which == GK_GEMM_CUBLAS) {
        char why[200];
        if (!gk__cublas_available(why, sizeof why))
            return gk__fail(GK_ENODEV, "%s", why);
        float one = 1.0f, zero = 0.0f;
        GK_CUDA_TRY(cudaDeviceSynchronize());
        double t0 = gk__wtime();
        /* row-major C = A B is column-major C^T = B^T A^T */
        pthread_mutex_lock(&cb_lock);
        int e = cb.sgemm(cb.h, 0, 0, n, m, k, &one, b, n, a, k, &zero, c, n);
        pthread_mutex_unlock(&cb_lock);
        if (e)
            return gk__fail(GK_ECUDA, "cublasSgemm failed (status %d)", e);
        GK_CUDA_TRY(cudaDeviceSynchronize());
        if (ms) *ms = (float)((gk__wtime() - t0) * 1e3);
        return GK_OK;
    }
    cudaKernel_t kern;
    dim3 grid, block;
    size_t smem = 0;
    switch (which) {
    case GK_GEMM_NAIVE:
        if ((m + 15) / 16 > 65535)
            return gk__fail(GK_EINVAL, "naive gemm: M=%d is too large for one launch", m);
        kern = g->k_naive;
        grid = gk__dim3((unsigned)((n + 15) / 16), (unsigned)((m + 15) / 16), 1);
        block = gk__dim3(16, 16, 1);
        break;
    case GK_GEMM_TILE:
        if ((m + 31) / 32 > 65535)
            return gk__fail(GK_EINVAL, "tile gemm: M=%d is too large for one launch", m);
        kern = g->k_tile;
        grid = gk__dim3((unsigned)((n + 31) / 32), (unsigned)((m + 31) / 32), 1);
        block = gk__dim3(32, 32, 1);
        break;
    case GK_GEMM_ILP:
        if ((m + 63) / 64 > 65535)
            return gk__fail(GK_EINVAL, "ilp gemm: M=%d is too large for one launch", m);
        kern = g->k_ilp;
        grid = gk__dim3((unsigned)((n + 63) / 64), (unsigned)((m + 63) / 64), 1);
        block = gk__dim3(16, 16, 1);
        break;
    default: {
        /* the vector loads need rows of A and B that start on VEC-float
         * boundaries: K and N multiples of VEC, and the bases aligned
         * (cudaMalloc's are; a caller's device pointer may not be) */
        uintptr_t vb = (uintptr_t)g->vec * sizeof(float) - 1;
        int aligned = k % g->vec == 0 && n % g->vec == 0 && !((uintptr_t)a & vb) && !((uintptr_t)b & vb);
        kern = aligned ? g->k_tuned : g->k_unaligned;
        grid = gk__dim3((unsigned)((n + g->bn - 1) / g->bn), (unsigned)((m + g->bm - 1) / g->bm), 1);
        block = gk__dim3((unsigned)g->threads, 1, 1);
        smem = g->smem;
    }
    }
    void *args[] = { &a, &b, &c, &m, &n, &k };
    float t;
    if (!ms)
        return gk__gpu_launch(kern, grid, block, smem, g->stream, args);
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    if ((st = gk__gpu_launch(kern, grid, block, smem, g->stream, args))) return st;
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, &t))) return st;
    *ms = t;
    return GK_OK;
}

gk_status gk__gemm_gpu_run(gk_gemm_gpu *g, int which, float *ms)
{
    float t;
    gk_status st = launch(g, which, g->a, g->b, g->c, &t);
    if (!st && ms) *ms = t;
    return st;
}

void gk__gemm_gpu_set_stream(gk_gemm_gpu *g, cudaStream_t stream) { g->stream = stream; }

gk_status gk__gemm_gpu_exec_device(gk_gemm_gpu *g, const float *a, int64_t lda, const float *b, int64_t ldb, float *c,
                                   int64_t ldc)
{
    /* dense operands are read and written where they are; otherwise
       through the context's own matrices (2D copies, device to device) */
    if (lda == g->k && ldb == g->n && ldc == g->n)
        return launch(g, GK_GEMM_TUNED, (float *)a, (float *)b, c, NULL);
    GK_CUDA_TRY(cudaMemcpy2DAsync(g->a, (size_t)g->k * 4, a, (size_t)lda * 4, (size_t)g->k * 4, (size_t)g->m,
                                  cudaMemcpyDeviceToDevice, g->stream));
    GK_CUDA_TRY(cudaMemcpy2DAsync(g->b, (size_t)g->n * 4, b, (size_t)ldb * 4, (size_t)g->n * 4, (size_t)g->k,
                                  cudaMemcpyDeviceToDevice, g->stream));
    gk_status st = launch(g, GK_GEMM_TUNED, g->a, g->b, g->c, NULL);
    if (st)
        return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(c, (size_t)ldc * 4, g->c, (size_t)g->n * 4, (size_t)g->n * 4, (size_t)g->m,
                                  cudaMemcpyDeviceToDevice, g->stream));
    return GK_OK;
}

gk_status gk__gemm_gpu_fma_ceiling(gk_gemm_gpu *g, double *fma_per_s)
{
    gk_status st = GK_OK;
    unsigned blocks = (unsigned)g->dev.sm_count * 16;
    int iters = 16384;
    float a = 0.9999999f, b = 1e-7f, *out = NULL;
    void *args[] = { &out, &iters, &a, &b };
    GK_CUDA_TRY(cudaMalloc((void **)&out, (size_t)blocks * 256 * sizeof(float)));
    float t[6];
    for (int r = 0; r < 6 && !st; r++) {     /* the first is a warm-up */
        if ((st = gk__gpu_timer_start(&g->timer, g->stream))
            || (st = gk__gpu_launch(g->k_ceil, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, g->stream, args))
            || (st = gk__gpu_timer_stop(&g->timer, g->stream, &t[r])))
            break;
    }
    cudaFree(out);
    if (st) return st;
    double ms[5];
    for (int r = 0; r < 5; r++) ms[r] = t[r + 1];
    *fma_per_s = (double)blocks * 256.0 * iters * 8.0 / (gk__median(ms, 5, NULL) * 1e-3);   /* 8 = CEIL_CHAINS */
    return GK_OK;
}
