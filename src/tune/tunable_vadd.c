/* tunable_vadd.c - the vector add as a (hidden) tunable kernel: the smallest
 * end-to-end exercise of gktune's machinery (NVRTC variants, the measuring
 * worker, validation, the cache) for tests. */
#include "tune/tunables.h"
#include "core/rng.h"

#include <stdlib.h>
#include <string.h>

/* n floats: a, b random; c = a + b on the GPU with cfg; *ms per rep. */
static gk_status run_vadd(size_t n, const gk_config *cfg, uint64_t seed, int reps, double *ms, float *check)
{
    gk_status st;
    gk_device_info dev;
    gk_gpu_module m = { 0 };
    gk_gpu_timer t = { 0 };
    float *h = NULL, *d = NULL;
    if ((st = gk__gpu_open(&dev)) || (st = gk__xmalloc((void **)&h, 2 * n * sizeof *h, "vadd input")))
        return st;
    for (size_t i = 0; i < 2 * n; i++)
        h[i] = (float)gk__rand_unit(seed, i);
    if ((st = gk__gpu_module_load(&gk__image_vadd, &gk__space_vadd, cfg, &m)))
        goto out;
    cudaKernel_t k;
    if ((st = gk__gpu_kernel(&m, "gk_vadd", &k)) || (st = gk__gpu_timer_init(&t)))
        goto out;
    GK_CUDA_GOTO(cudaMalloc((void **)&d, 3 * n * sizeof *d), st, out);
    GK_CUDA_GOTO(cudaMemcpy(d, h, 2 * n * sizeof *d, cudaMemcpyHostToDevice), st, out);
    const float *a = d, *b = d + n;
    float *c = d + 2 * n;
    unsigned long long nn = n;
    void *args[] = { &a, &b, &c, &nn };
    unsigned threads = (unsigned)gk_config_get(cfg, "THREADS", 256);
    unsigned per = (unsigned)gk_config_get(cfg, "VADD_PER_THREAD", 1);
    unsigned blocks = (unsigned)((n + (size_t)threads * per - 1) / ((size_t)threads * per));
    for (int r = -1; r < reps; r++) {   /* r = -1: warm-up */
        float f;
        if ((st = gk__gpu_timer_start(&t, 0))
            || (st = gk__gpu_launch(k, gk__dim3(blocks, 1, 1), gk__dim3(threads, 1, 1), 0, 0, args))
            || (st = gk__gpu_timer_stop(&t, 0, &f)))
            goto out;
        if (r >= 0) ms[r] = f;
    }
    if (check) {
        GK_CUDA_GOTO(cudaMemcpy(check, c, n * sizeof *c, cudaMemcpyDeviceToHost), st, out);
        for (size_t i = 0; i < n; i++)
            if (check[i] != h[i] + h[n + i]) {
                st = gk__fail(GK_EMISMATCH, "vadd: element %zu differs from the CPU", i);
                break;
            }
    }
out:
    gk__gpu_timer_free(&t);
    cudaFree(d);
    gk__gpu_module_unload(&m);
    free(h);
    return st;
}

gk_status gk__vadd_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med, double *min)
{
    double ms[64];
    if (reps < 1 || reps > 64) reps = 5;
    gk_status st = run_vadd((size_t)size, cfg, seed, reps, ms, NULL);
    if (st) return st;
    *med = gk__median(ms, reps, min);
    return GK_OK;
}

gk_status gk__vadd_validate(const gk_config *cfg, uint64_t seed)
{
    size_t n = 100003;
    float *check;
    double ms;
    gk_status st = gk__xmalloc((void **)&check, n * sizeof *check, "vadd check");
    if (st) return st;
    st = run_vadd(n, cfg, seed, 1, &ms, check);
    free(check);
    return st;
}

gk_status gk__vadd_verify(int64_t size, const gk_config *cfg, uint64_t seed)
{
    float *check;
    double ms;
    gk_status st = gk__xmalloc((void **)&check, (size_t)size * sizeof *check, "vadd check");
    if (st) return st;
    st = run_vadd((size_t)size, cfg, seed, 1, &ms, check);
    free(check);
    return st;
}
