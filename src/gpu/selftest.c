/* selftest.c - gk_gpu_selftest: vector add through the whole GPU path. */
#include "gpu/gpu.h"

#include <stdlib.h>
#include <string.h>

static const gk_param_def vadd_params[] = {
    { "VADD_PER_THREAD", 1, 3, { 1, 2, 4 }, "elements per thread" },
    { "THREADS", 256, 3, { 128, 256, 512 }, "threads per block" },
};
const gk_space gk__space_vadd = { "vadd", 2, vadd_params, NULL };

gk_status gk_gpu_selftest(size_t n, float *ms)
{
    gk_status st;
    gk_device_info dev;
    gk_gpu_module m = { 0 };
    gk_gpu_timer t = { 0 };
    float *h = NULL, *d = NULL;
    if ((st = gk__gpu_open(&dev)))
        return st;
    if ((st = gk__xmalloc((void **)&h, 4 * n * sizeof *h, "the vadd self-test")))
        return st;
    for (size_t i = 0; i < n; i++) {
        h[i] = (float)(i % 1000) * 0.5f;
        h[n + i] = (float)(i % 777) * 0.25f;
    }
    if ((st = gk__gpu_module_load(&gk__image_vadd, &gk__space_vadd, NULL, &m)))
        goto out;
    cudaKernel_t k;
    if ((st = gk__gpu_kernel(&m, "gk_vadd", &k)))
        goto out;
    GK_CUDA_GOTO(cudaMalloc((void **)&d, 3 * n * sizeof *d), st, out);
    GK_CUDA_GOTO(cudaMemcpy(d, h, 2 * n * sizeof *d, cudaMemcpyHostToDevice), st, out);
    GK_CUDA_GOTO(cudaMemset(d + 2 * n, 0xff, n * sizeof *d), st, out); /* poison: NaN */
    const float *a = d, *b = d + n;
    float *c = d + 2 * n;
    unsigned long long nn = n;
    void *args[] = { &a, &b, &c, &nn };
    if ((st = gk__gpu_timer_init(&t)))
        goto out;
    if ((st = gk__gpu_timer_start(&t, 0)))
        goto out;
    if ((st = gk__gpu_launch(k, gk__dim3((unsigned)((n + 255) / 256), 1, 1), gk__dim3(256, 1, 1), 0, 0, args)))
        goto out;
    if ((st = gk__gpu_timer_stop(&t, 0, ms)))
        goto out;
    GK_CUDA_GOTO(cudaMemcpy(h + 2 * n, c, n * sizeof *d, cudaMemcpyDeviceToHost), st, out);
    for (size_t i = 0; i < n; i++)
        if (h[2 * n + i] != h[i] + h[n + i]) {
            st = gk__fail(GK_EMISMATCH, "vadd self-test: element %zu is %g, expected %g",
                          i, (double)h[2 * n + i], (double)(h[i] + h[n + i]));
            goto out;
        }
out:
    gk__gpu_timer_free(&t);
    cudaFree(d);
    gk__gpu_module_unload(&m);
    free(h);
    return st;
}
