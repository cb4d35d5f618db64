/* elementwise_bench.c - `gk bench elementwise` (for the commands only,
 * src/api/commands.h): the baseline, the float4 design, the tuned kernel
 * and the device's throughput ceiling measured in the same run. */
#include "api/context.h"
#include "api/commands.h"
#include "core/elementwise.h"
#include "cpu/elementwise_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/elementwise_gpu.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif



typedef struct bench_data {
    int64_t dimx, dimy;
    int niter, reps;
    size_t n;
    float *in, *out, *tmp;
} bench_data;

static void set_check(gk__elementwise_bench_row *r, gk_status st, const gk__elementwise_diff *d)
{
    r->ok = st == GK_OK;
    if (st == GK_OK)
        snprintf(r->check, sizeof r->check, "ok (%.2g ulp, %lld NaN)", d->max_ulp, (long long)d->nan);
    else if (st == GK_EMISMATCH)
        snprintf(r->check, sizeof r->check, "FAIL %lld outside", (long long)d->outside);
    else
        gk__note(r->check, sizeof r->check, "FAIL: %s", gk_last_error());
    gk__clear_error();
}

static gk_status bench_cpu(bench_data *B, gk__elementwise_bench_report *R)
{
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    for (int row = 0; row < 2; row++) {
        gk__elementwise_bench_row *r = &R->row[R->nrows++];
        double t[64];
        int reps = row == 0 ? 1 : B->reps;      /* the plain loop: one run */
        snprintf(r->kernel, sizeof r->kernel, "%s", row == 0 ? "reference" : "cpu");
        if (row == 0)
            snprintf(r->config, sizeof r->config, "plain loop, a switch on column %% 4, one thread (1 run)");
        else
            snprintf(r->config, sizeof r->config, "OpenMP over rows (%d thread%s), runs of 64 per class, omp simd",
                     threads, threads > 1 ? "s" : "");
        gk_status st = GK_OK;
        for (int rep = 0; rep < reps && !st; rep++) {
            memcpy(B->out, B->in, B->n * sizeof(float));
            double t0 = gk__wtime();
            st = row == 0 ? gk__elementwise_cpu_reference(B->out, B->dimx, B->dimy, B->niter)
                          : gk__elementwise_cpu(B->out, B->dimx, B->dimy, B->niter);
            t[rep] = gk__wtime() - t0;
        }
        if (st) return st;
        r->ms = gk__median(t, reps, NULL) * 1e3;
        r->gelem_iters = (double)B->n * B->niter / (r->ms * 1e-3) * 1e-9;
        r->speedup = R->row[0].ms / r->ms;
        gk__elementwise_diff d;
        memset(&d, 0, sizeof d);
        set_check(r, gk__elementwise_cpu_check(B->in, B->out, B->dimx, B->dimy, B->niter, B->tmp, &d), &d);
    }
    return GK_OK;
}

#ifdef GK_HAVE_CUDA
static gk_status bench_gpu(gk_context *ctx, bench_data *B, const gk_config *cfg, gk__elementwise_bench_report *R)
{
    int saved;
    gk_elementwise_gpu *g = NULL;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if ((st = gk__elementwise_gpu_open(&g, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), B->dimx, B->dimy, cfg)))
        goto out;
    static const char *names[3] = { "baseline", "float4", "tuned" };
    for (int design = GK_EW_BASELINE; design <= GK_EW_TUNED && !st; design++) {
        gk__elementwise_bench_row *r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "%s", names[design]);
        if (design == GK_EW_BASELINE)
            snprintf(r->config, sizeof r->config, "one element/thread, 32x8 threads, switch on column %% 4");
        else if (design == GK_EW_FLOAT4)
            snprintf(r->config, sizeof r->config, "one float4/thread, 256 threads");
        else
            gk__config_format(gk__elementwise_gpu_config(g), r->config, sizeof r->config);
        double ms[64];
        float t;
        /* every run from the same input, after a warm-up */
        st = gk__elementwise_gpu_upload(g, B->in, NULL);
        if (!st) st = gk__elementwise_gpu_run(g, design, B->niter, &t);
        if (st == GK_EINVAL) {
            gk__note(r->check, sizeof r->check, "not run: %s", gk_last_error());
            gk__clear_error();
            st = GK_OK;
            continue;
        }
        for (int rep = 0; rep < B->reps && !st; rep++) {
            st = gk__elementwise_gpu_upload(g, B->in, NULL);
            if (!st) st = gk__elementwise_gpu_run(g, design, B->niter, &t);
            ms[rep] = t;
        }
        if (!st) st = gk__elementwise_gpu_upload(g, B->in, NULL);
        if (!st) st = gk__elementwise_gpu_run(g, design, B->niter, NULL);
        if (!st) st = gk__elementwise_gpu_download(g, B->out, NULL);
        if (st) break;
        r->ms = gk__median(ms, B->reps, NULL);
        r->gelem_iters = (double)B->n * B->niter / (r->ms * 1e-3) * 1e-9;
        r->speedup = R->row[0].ms > 0 ? R->row[0].ms / r->ms : 0;
        gk__elementwise_diff d;
        memset(&d, 0, sizeof d);
        gk_status cs = gk__elementwise_gpu_check(g, design, B->in, B->out, B->niter, &d);
        if (cs && cs != GK_EMISMATCH) { st = cs; break; }
        set_check(r, cs, &d);
    }
    /* the tuned configuration without SKIP: all the work, against the ceiling */
    if (!st && gk__config_get(gk__elementwise_gpu_config(g), "SKIP", 0) >= 1) {
        gk_config c0 = *gk__elementwise_gpu_config(g);
        gk_elementwise_gpu *g0 = NULL;
        gk__elementwise_bench_row *r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "tuned SKIP=0");
        if ((st = gk__config_set(&c0, "SKIP", 0)))
            goto out;
        gk__config_format(&c0, r->config, sizeof r->config);
        if (gk__elementwise_gpu_open(&g0, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), B->dimx, B->dimy, &c0)) {
            gk__note(r->check, sizeof r->check, "not run: %s", gk_last_error());
            gk__clear_error();
        } else {
            double ms[64];
            float t;
            st = gk__elementwise_gpu_upload(g0, B->in, NULL);
            if (!st) st = gk__elementwise_gpu_run(g0, GK_EW_TUNED, B->niter, &t);
            for (int rep = 0; rep < B->reps && !st; rep++) {
                st = gk__elementwise_gpu_upload(g0, B->in, NULL);
                if (!st) st = gk__elementwise_gpu_run(g0, GK_EW_TUNED, B->niter, &t);
                ms[rep] = t;
            }
            if (!st) st = gk__elementwise_gpu_upload(g0, B->in, NULL);
            if (!st) st = gk__elementwise_gpu_run(g0, GK_EW_TUNED, B->niter, NULL);
            if (!st) st = gk__elementwise_gpu_download(g0, B->out, NULL);
            if (!st) {
                r->ms = gk__median(ms, B->reps, NULL);
                r->gelem_iters = (double)B->n * B->niter / (r->ms * 1e-3) * 1e-9;
                r->speedup = R->row[0].ms > 0 ? R->row[0].ms / r->ms : 0;
                gk__elementwise_diff d;
                memset(&d, 0, sizeof d);
                gk_status cs = gk__elementwise_gpu_check(g0, GK_EW_TUNED, B->in, B->out, B->niter, &d);
                if (cs && cs != GK_EMISMATCH) st = cs;
                else set_check(r, cs, &d);
            }
            gk__elementwise_gpu_close(g0);
            if (st) goto out;
        }
    }
    if (!st && B->niter > 0) {
        gk__elementwise_bench_row *r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "ceiling");
        snprintf(r->config, sizeof r->config, "the 4 steps, no loads in the loop: 2 float4 chains x 256 threads x "
                 "8 blocks/SM");
        double rate = 0, ms = 0;
        if (!(st = gk__elementwise_gpu_upload(g, B->in, NULL))
            && !(st = gk__elementwise_gpu_ceiling(g, B->niter, &rate, &ms))) {
            R->ceiling_gelem_iters = rate * 1e-9;
            r->gelem_iters = rate * 1e-9;
            r->ms = ms;
            r->speedup = R->row[0].ms > 0 ? R->row[0].ms / r->ms : 0;
            r->ok = 1;
            snprintf(r->check, sizeof r->check, "(ceiling)");
        }
    }
out:
    gk__elementwise_gpu_close(g);
    gk__ctx_gpu_leave(saved);
    return st;
}
#endif

gk_status gk__elementwise_bench(gk_context *ctx, int64_t dimx, int64_t dimy, int niter, int reps, const char *config,
                               gk__elementwise_bench_report *R)
{
    gk_report rep;
    gk_config cfg;
    gk_status st;
    bench_data B;
    memset(R, 0, sizeof *R);
    memset(&B, 0, sizeof B);
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk__elementwise_bench: no context");
    if ((st = gk_elementwise_check_size(dimx, dimy, niter)))
        return st;
    if (niter < 1 || reps < 1 || reps > 64)
        return gk__fail(GK_EINVAL, "bench elementwise: %d iterations, %d repetitions (want >= 1 iterations, "
                        "1..64 repetitions)", niter, reps);
    gk__ctx_report_init(ctx, &rep);
    if ((st = gk__ctx_config(ctx, "elementwise", dimx > dimy ? dimx : dimy, config, &cfg, &rep)))
        return st;
    R->backend = ctx->backend;
    R->config_source = rep.config_source;
    snprintf(R->device, sizeof R->device, "%s", rep.device);
    B.dimx = dimx; B.dimy = dimy; B.niter = niter; B.reps = reps;
    B.n = (size_t)dimx * (size_t)dimy;
    char what[96];
    snprintf(what, sizeof what, "bench elementwise matrix %lldx%lld", (long long)dimx, (long long)dimy);
    if ((st = gk__host_memory_check((uint64_t)B.n * 12, what))
        || (st = gk__xmalloc((void **)&B.in, B.n * sizeof(float), what))
        || (st = gk__xmalloc((void **)&B.out, B.n * sizeof(float), what))
        || (st = gk__xmalloc((void **)&B.tmp, B.n * sizeof(float), what)))
        goto out;
    gk_elementwise_random(B.in, dimx, dimy, 12345);
    int threads = gk__ctx_threads_enter(ctx);
    if (ctx->backend != GK_BACKEND_GPU)
        st = bench_cpu(&B, R);
    else
#ifdef GK_HAVE_CUDA
        st = bench_gpu(ctx, &B, &cfg, R);
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    gk__ctx_threads_leave(threads);
out:
    free(B.in);
    free(B.out);
    free(B.tmp);
    return st;
}
