/* plan_bench.c - `gk bench plan` (for the commands only, src/api/commands.h):
 * what a call costs beyond its kernels when a GPU application calls gk many
 * times on small problems: a plan on device memory (enqueued, one wait at
 * the end), a plan on host memory, and gk_<kernel>_run (a plan made and
 * destroyed per call, the path before plans), against the kernels' own
 * time measured in the same run with CUDA events.  Every path's result is
 * compared with the first's. */
#include "api/context.h"
#include "api/commands.h"
#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"
#include "gpu/stencil_gpu.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_CALLS_MAX 50     /* gk_<kernel>_run is ~1000x slower per call: fewer calls say as much */
#define WARMUP 10

#ifdef GK_HAVE_CUDA
/* The kernels alone: the median of 9 timed runs (CUDA events) on gk's own
 * buffers, after a warm-up. */
static gk_status kernel_ms(gk_context *ctx, const char *kernel, int64_t n, const void *host, double *ms)
{
    int saved;
    double t[9];
    float f = 0;
    gk_config cfg;
    gk_report rep;
    gk_status st;
    gk__ctx_report_init(ctx, &rep);
    if ((st = gk__ctx_config(ctx, kernel, n, NULL, &cfg, &rep)) || (st = gk__ctx_gpu_enter(ctx, &saved)))
        return st;
    cudaStream_t s = (cudaStream_t)gk__ctx_stream(ctx);
    if (!strcmp(kernel, "apsp")) {
        gk_apsp_gpu *g = NULL;
        if (!(st = gk__apsp_gpu_open(&g, &ctx->dev[0], s, (int32_t)n, &cfg)))
            for (int r = -1; r < 9 && !st; r++)
                if (!(st = gk__apsp_gpu_upload(g, host, NULL)) && !(st = gk__apsp_gpu_run(g, &f)) && r >= 0)
                    t[r] = f;
        gk__apsp_gpu_close(g);
    } else {
        gk_stencil_gpu *g = NULL;
        if (!(st = gk__stencil_gpu_open(&g, &ctx->dev[0], s, (int)n, (int)n, (int)n, gk_stencil_default_coeffs, &cfg))
            && !(st = gk__stencil_gpu_upload(g, host, NULL)))
            for (int r = -1; r < 9 && !st; r++)
                if (!(st = gk__stencil_gpu_run(g, 1, &f)) && r >= 0)
                    t[r] = f;
        gk__stencil_gpu_close(g);
    }
    gk__ctx_gpu_leave(saved);
    if (!st)
        *ms = gk__median(t, 9, NULL);
    return st;
}

/* One kernel's plan, made for host or device memory (the bench measures GPU
 * calls: a CPU-only build has no use for these). */
typedef struct job {
    const char *kernel;
    int64_t n;
    size_t bytes;
    void *plan;
} job;

static gk_status job_plan(gk_context *ctx, job *j, gk_memory memory)
{
    if (!strcmp(j->kernel, "apsp")) {
        gk_apsp_problem p;
        gk_apsp_options o;
        gk_apsp_problem_init(&p, j->n);
        p.memory = memory;
        gk_apsp_options_init(&o);
        o.precision = 32;                 /* the lanes of the device path, on every path */
        return gk_apsp_plan_create(ctx, &p, &o, (gk_apsp_plan **)&j->plan);
    }
    gk_stencil_problem p;
    gk_stencil_problem_init(&p, j->n, j->n, j->n);
    p.memory = memory;
    return gk_stencil_plan_create(ctx, &p, NULL, (gk_stencil_plan **)&j->plan);
}

static gk_status job_exec(gk_context *ctx, job *j, void *data)
{
    return !strcmp(j->kernel, "apsp") ? gk_apsp_plan_execute(ctx, j->plan, data, NULL)
                                      : gk_stencil_plan_execute(ctx, j->plan, data, 1, NULL);
}

static gk_status job_run(gk_context *ctx, job *j, void *data)
{
    if (!strcmp(j->kernel, "apsp")) {
        gk_apsp_problem p;
        gk_apsp_options o;
        gk_apsp_problem_init(&p, j->n);
        gk_apsp_options_init(&o);
        o.precision = 32;
        return gk_apsp_run(ctx, &p, data, &o, NULL);
    }
    gk_stencil_problem p;
    gk_stencil_problem_init(&p, j->n, j->n, j->n);
    return gk_stencil_run(ctx, &p, data, 1, NULL, NULL);
}

static void job_free(job *j)
{
    if (!strcmp(j->kernel, "apsp"))
        gk_apsp_plan_destroy(j->plan);
    else
        gk_stencil_plan_destroy(j->plan);
    j->plan = NULL;
}
#endif /* GK_HAVE_CUDA */

gk_status gk__plan_bench(gk_context *ctx, const char *kernel, int64_t n, int calls, gk__plan_bench_row *row)
{
    memset(row, 0, sizeof *row);
    if (!ctx || !kernel || (strcmp(kernel, "apsp") && strcmp(kernel, "stencil")))
        return gk__fail(GK_EINVAL, "bench plan: kernel '%s' (want apsp or stencil)", kernel ? kernel : "(null)");
    if (ctx->backend != GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "bench plan measures GPU calls: %s", *ctx->note ? ctx->note : "a CPU context");
    int apsp = !strcmp(kernel, "apsp");
    if (n < 1 || n > (apsp ? 8192 : 512) || calls < 1 || calls > 100000)
        return gk__fail(GK_EINVAL, "bench plan %s: size %lld, %d calls (want 1 to %d, 1 to 100000 calls)", kernel,
                        (long long)n, calls, apsp ? 8192 : 512);
#ifndef GK_HAVE_CUDA
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#else
    job j = { kernel, n, 0, NULL };
    j.bytes = apsp ? (size_t)(n * n) * sizeof(int32_t) : (size_t)(n * n * n) * sizeof(double);
    snprintf(row->kernel, sizeof row->kernel, "%s", kernel);
    if (apsp)
        snprintf(row->problem, sizeof row->problem, "V = %lld", (long long)n);
    else
        snprintf(row->problem, sizeof row->problem, "%lld^3, 1 step", (long long)n);
    row->calls = calls;
    row->run_calls = calls < RUN_CALLS_MAX ? calls : RUN_CALLS_MAX;
    char *init = NULL, *h = NULL, *want = NULL;
    void *dev = NULL;
    gk_status st;
    if ((st = gk__xmalloc((void **)&init, j.bytes, "the benchmark's input"))
        || (st = gk__xmalloc((void **)&h, j.bytes, "the benchmark's host data"))
        || (st = gk__xmalloc((void **)&want, j.bytes, "the benchmark's result")))
        goto out;
    if (apsp)
        st = gk_apsp_random_matrix((int32_t *)init, n, 0.3, 20261125, 1000);
    else
        gk_grid_random((double *)init, n, n, n, 12345);
    if (st || (st = kernel_ms(ctx, kernel, n, init, &row->kernel_us)))
        goto out;
    row->kernel_us *= 1e3;

    /* a plan on device memory: the first execution's result, then calls
       back to back and one wait */
    int saved;
    if ((st = gk__ctx_gpu_enter(ctx, &saved)))
        goto out;
    st = gk__gpu_alloc(&dev, j.bytes);
    gk__ctx_gpu_leave(saved);
    if (st || (st = job_plan(ctx, &j, GK_MEMORY_DEVICE)) || (st = gk__gpu_copy(dev, init, j.bytes, 1))
        || (st = job_exec(ctx, &j, dev)) || (st = gk__gpu_stream_wait(gk_context_stream(ctx)))
        || (st = gk__gpu_copy(want, dev, j.bytes, 0)))
        goto out;
    for (int r = 0; r < WARMUP && !st; r++)
        st = job_exec(ctx, &j, dev);
    if (st || (st = gk__gpu_stream_wait(gk_context_stream(ctx))))
        goto out;
    {
        double t[5];
        for (int r = 0; r < 5 && !st; r++) {    /* one execution on the GPU's clock */
            gk__gpu_span sp;
            if (!(st = gk__gpu_span_begin(&sp, gk_context_stream(ctx))) && !(st = job_exec(ctx, &j, dev)))
                st = gk__gpu_span_end(&sp, gk_context_stream(ctx), &t[r]);
        }
        if (st) goto out;
        row->exec_gpu_us = gk__median(t, 5, NULL) * 1e3;
    }
    double t0 = gk__wtime();
    for (int r = 0; r < calls && !st; r++)
        st = job_exec(ctx, &j, dev);
    if (st || (st = gk__gpu_stream_wait(gk_context_stream(ctx))))
        goto out;
    row->device_us = (gk__wtime() - t0) / calls * 1e6;
    row->grid_us = -1;
    if (!apsp) {
        /* the same plan on its own grid: the input written there once, then
           the calls with no copy into or out of gk's layout; the first
           execution's result read where the plan says it is */
        void *g;
        int64_t py, pz, n2 = n * n;
        double *got = (double *)h;
        if ((st = gk_stencil_plan_grid(j.plan, &g, &py, &pz)))
            goto out;
        for (int64_t z = 0; z < n && !st; z++)
            for (int64_t y = 0; y < n && !st; y++)
                st = gk__gpu_copy((double *)g + z * pz + y * py, (double *)init + z * n2 + y * n, (size_t)n * 8, 1);
        if (st || (st = job_exec(ctx, &j, g)) || (st = gk__gpu_stream_wait(gk_context_stream(ctx)))
            || (st = gk_stencil_plan_grid(j.plan, &g, &py, &pz)))
            goto out;
        for (int64_t z = 0; z < n && !st; z++)
            for (int64_t y = 0; y < n && !st; y++)
                st = gk__gpu_copy(got + z * n2 + y * n, (double *)g + z * pz + y * py, (size_t)n * 8, 0);
        if (st)
            goto out;
        row->grid_same = !memcmp(got, want, j.bytes);
        for (int r = 0; r < WARMUP && !st; r++)
            if (!(st = gk_stencil_plan_grid(j.plan, &g, &py, &pz)))
                st = job_exec(ctx, &j, g);
        if (st || (st = gk__gpu_stream_wait(gk_context_stream(ctx))))
            goto out;
        t0 = gk__wtime();
        for (int r = 0; r < calls && !st; r++)
            if (!(st = gk_stencil_plan_grid(j.plan, &g, &py, &pz)))
                st = job_exec(ctx, &j, g);
        if (st || (st = gk__gpu_stream_wait(gk_context_stream(ctx))))
            goto out;
        row->grid_us = (gk__wtime() - t0) / calls * 1e6;
    }
    job_free(&j);

    /* a plan on host memory; then gk_<kernel>_run */
    int same = 1;
    if ((st = job_plan(ctx, &j, GK_MEMORY_HOST)))
        goto out;
    memcpy(h, init, j.bytes);
    if ((st = job_exec(ctx, &j, h)))
        goto out;
    same &= !memcmp(h, want, j.bytes);
    t0 = gk__wtime();
    for (int r = 0; r < calls && !st; r++) {
        memcpy(h, init, j.bytes);       /* (a copy of memory on the host: outside the GPU's work) */
        st = job_exec(ctx, &j, h);
    }
    if (st) goto out;
    row->host_us = (gk__wtime() - t0) / calls * 1e6;
    same &= !memcmp(h, want, j.bytes);
    job_free(&j);
    t0 = gk__wtime();
    for (int r = 0; r < row->run_calls && !st; r++) {
        memcpy(h, init, j.bytes);
        st = job_run(ctx, &j, h);
    }
    if (st) goto out;
    row->run_us = (gk__wtime() - t0) / row->run_calls * 1e6;
    same &= !memcmp(h, want, j.bytes);
    row->identical = same && (apsp || row->grid_same);
    row->api_overhead_us = row->device_us - row->exec_gpu_us;
    row->overhead_us = row->device_us - row->kernel_us;
    row->run_overhead_us = row->run_us - row->kernel_us;
    {
        gk_report rep;
        gk_config cfg;
        gk__ctx_report_init(ctx, &rep);
        gk__ctx_config(ctx, kernel, n, NULL, &cfg, &rep);
        snprintf(row->device, sizeof row->device, "%s", rep.device);
        snprintf(row->config, sizeof row->config, "%s", rep.config);
    }
out:
    job_free(&j);
    if (dev && gk__ctx_gpu_enter(ctx, &saved) == GK_OK) {
        gk__gpu_free(dev);
        gk__ctx_gpu_leave(saved);
    }
    free(init);
    free(h);
    free(want);
    return st;
#endif
}
