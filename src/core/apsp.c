/* apsp.c - the public GPU entry points of APSP, compiled in every build: they
 * call the CUDA backend (src/gpu/apsp_gpu.c) when there is one and fail with
 * GK_ENODEV in a CPU-only build. */
#include "core/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"

gk_status gk_apsp_gpu_solve(int32_t *dist, int32_t V, const gk_config *cfg, gk_apsp_times *t)
{
    gk_apsp_gpu *c;
    float up = 0, run = 0, down = 0;
    gk_status st = gk__apsp_gpu_open(&c, V, cfg);
    if (st) return st;
    if (!(st = gk__apsp_gpu_upload(c, dist, &up)) && !(st = gk__apsp_gpu_run(c, &run)))
        st = gk__apsp_gpu_download(c, dist, &down);
    gk__apsp_gpu_close(c);
    if (!st && t) {
        t->h2d = up * 1e-3;
        t->compute = run * 1e-3;
        t->d2h = down * 1e-3;
    }
    return st;
}

gk_status gk_apsp_bench_gpu(int32_t n, const gk_config *cfg, gk_apsp_bench_row *row)
{
    gk_status st;
    gk_apsp_gpu *c = NULL;
    int32_t *init = NULL, *a = NULL, *b = NULL;
    size_t bytes = (size_t)n * (size_t)n * sizeof *init;
    float ms = 0, base_ms = 0;
    memset(row, 0, sizeof *row);
    row->n = n;
    if ((st = gk__xmalloc((void **)&init, bytes, "the benchmark matrix"))
        || (st = gk__xmalloc((void **)&a, bytes, "the kernel's result"))
        || (st = gk__xmalloc((void **)&b, bytes, "the baseline's result"))
        || (st = gk_apsp_random_matrix(init, n, 0.3, 20261122, 1000))
        || (st = gk__apsp_gpu_open(&c, n, cfg)))
        goto out;
    /* small sizes: one untimed run first (clocks, first launches) */
    if (n <= 8192 && ((st = gk__apsp_gpu_upload(c, init, NULL)) || (st = gk__apsp_gpu_run(c, NULL))))
        goto out;
    if ((st = gk__apsp_gpu_upload(c, init, NULL)) || (st = gk__apsp_gpu_run(c, &ms))
        || (st = gk__apsp_gpu_download(c, a, NULL)))
        goto out;
    if (n <= 8192 && ((st = gk__apsp_gpu_upload(c, init, NULL)) || (st = gk__apsp_gpu_run_baseline(c, NULL))))
        goto out;
    if ((st = gk__apsp_gpu_upload(c, init, NULL)) || (st = gk__apsp_gpu_run_baseline(c, &base_ms))
        || (st = gk__apsp_gpu_download(c, b, NULL)))
        goto out;
    if ((st = gk__apsp_gpu_ceiling(c, &row->ceiling_tmps)))
        goto out;
    double ops = (double)n * n * n;
    row->seconds = ms * 1e-3;
    row->tmps = ops / row->seconds / 1e12;
    row->base_seconds = base_ms * 1e-3;
    row->base_tmps = ops / row->base_seconds / 1e12;
    row->ceiling_tmps /= 1e12;
    snprintf(row->device, sizeof row->device, "%s", gk__apsp_gpu_device(c)->name);
    gk_config_format(gk__apsp_gpu_config(c), row->config, sizeof row->config);
    st = gk_apsp_compare(a, b, n, "kernel vs baseline");
    row->identical = st == GK_OK;
out:
    gk__apsp_gpu_close(c);
    free(init);
    free(a);
    free(b);
    return st;
}

#else /* !GK_HAVE_CUDA */

gk_status gk_apsp_gpu_solve(int32_t *dist, int32_t V, const gk_config *cfg, gk_apsp_times *t)
{
    (void)dist; (void)V; (void)cfg; (void)t;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
}

gk_status gk_apsp_bench_gpu(int32_t n, const gk_config *cfg, gk_apsp_bench_row *row)
{
    (void)n; (void)cfg; (void)row;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
}
#endif
