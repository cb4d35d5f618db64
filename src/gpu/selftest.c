/* selftest.c - gk__gpu_selftest: vector add through the whole GPU path. */
#include "gpu/gpu.h"
#include "core/rng.h"

#include <stdlib.h>
#include <string.h>

/* n floats: a, b random; c = a + b on the GPU with cfg (NULL: the embedded
 * fatbin); ms[r] per timed rep after a warm-up; with check != NULL the result
 * lands there and is compared with the CPU (GK_EMISMATCH if it differs). */
gk_status gk__vadd_run(const gk_device_info *dev, size_t n, const gk_config *cfg, uint64_t seed, int reps, double *ms, float *check)
{
    gk_status st;
    gk_gpu_module m = { 0 };
    gk_gpu_timer t = { 0 };
    gk_config full;
    float *h = NULL, *d = NULL;
    if ((st = gk__space_check(&gk__space_vadd, cfg, dev, &full))
        || (st = gk__xmalloc((void **)&h, 2 * n * sizeof *h, "vadd input")))
        return st;
    for (size_t i = 0; i < 2 * n; i++)
        h[i] = (float)gk__rand_unit(seed, i);
    if ((st = gk__gpu_module_load(&gk__image_vadd, &gk__space_vadd, &full, &m)))
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
    unsigned threads = (unsigned)gk__param(&full, "THREADS");
    unsigned per = (unsigned)gk__param(&full, "VADD_PER_THREAD");
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

gk_status gk__gpu_selftest(int ordinal, size_t n, float *ms)
{
    double t = 0;
    float *check;
    int prev;
    gk_device_info dev;
    gk_status st = gk__gpu_info(ordinal, &dev);
    if (st) return st;
    if ((st = gk__xmalloc((void **)&check, n * sizeof *check, "the vadd self-test")))
        return st;
    if (!(st = gk__gpu_enter(ordinal, &prev))) {
        st = gk__vadd_run(&dev, n, NULL, 42, 1, &t, check);
        gk__gpu_leave(prev);
    }
    free(check);
    *ms = (float)t;
    return st;
}
