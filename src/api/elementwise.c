/* elementwise.c - the elementwise front door: gk_elementwise_run and
 * gk_elementwise_bench pick the backend (the context's) and the
 * configuration, check memory before allocating, run the CPU code (src/cpu)
 * or the GPU code (src/gpu), check per iteration on request, and fill the
 * report. */
#include "api/context.h"
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

static const int cpu_ulps[4] = GK_ELEMENTWISE_CPU_ULPS;
#ifdef GK_HAVE_CUDA
static const int gpu_ulps[4] = GK_ELEMENTWISE_GPU_ULPS;
#endif

static int max_ulps(const int u[4])
{
    int m = 0;
    for (int i = 0; i < 4; i++) if (u[i] > m) m = u[i];
    return m;
}

/* The CPU backend's per-iteration check: out (niter iterations from in)
 * against one step of its own niter - 1 result, and its one-iteration
 * result against one step of in. */
static gk_status cpu_check(const float *in, const float *out, int64_t dimx, int64_t dimy, int niter, float *tmp,
                           gk_elementwise_diff *d)
{
    size_t n = (size_t)(dimx * dimy);
    gk_status st;
    if (niter == 0) {
        d->n += (int64_t)n;
        if (memcmp(in, out, n * sizeof *in)) {
            d->outside++;
            return gk__fail(GK_EMISMATCH, "elementwise: 0 iterations changed the matrix");
        }
        return GK_OK;
    }
    memcpy(tmp, in, n * sizeof *tmp);
    if ((st = gk__elementwise_cpu(tmp, dimx, dimy, 1)) || (st = gk_elementwise_step_check(in, tmp, dimx, dimy, cpu_ulps, d)))
        return st;
    if (niter == 1)
        return gk_elementwise_step_check(in, out, dimx, dimy, cpu_ulps, d);
    memcpy(tmp, in, n * sizeof *tmp);
    if ((st = gk__elementwise_cpu(tmp, dimx, dimy, niter - 1)))
        return st;
    return gk_elementwise_step_check(tmp, out, dimx, dimy, cpu_ulps, d);
}

static void report_diff(gk_report *rep, const gk_elementwise_diff *d, const int ulps[4], gk_status st)
{
    rep->check_max_abs = d->max_ulp;
    rep->check_max_rel = 0;
    rep->check_tolerance = max_ulps(ulps);
    rep->checked = st == GK_OK;
}

#ifdef GK_HAVE_CUDA
static gk_status run_gpu(gk_context *ctx, float *a, int64_t dimx, int64_t dimy, int niter, const gk_config *cfg,
                         const float *in, gk_report *rep)
{
    gk_elementwise_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    int saved;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if (!(st = gk__elementwise_gpu_open(&g, &ctx->dev[0], (cudaStream_t)ctx->stream, dimx, dimy, cfg))
        && !(st = gk__elementwise_gpu_upload(g, a, &up)) && !(st = gk__elementwise_gpu_run(g, GK_EW_TUNED, niter, &run)))
        st = gk__elementwise_gpu_download(g, a, &down);
    gk__report_gpu_ms(rep, up, run, down);
    if (!st && in) {
        gk_elementwise_diff d;
        memset(&d, 0, sizeof d);
        double t0 = gk_wtime();
        st = gk__elementwise_gpu_check(g, GK_EW_TUNED, in, a, niter, &d);
        rep->check = gk_wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "one-step enclosures (GPU libm ulps)");
        report_diff(rep, &d, gpu_ulps, st);
    }
    gk__elementwise_gpu_close(g);
    gk__ctx_gpu_leave(saved);
    return st;
}
#endif

gk_status gk_elementwise_run(gk_context *ctx, float *a, int64_t dimx, int64_t dimy, int64_t niter64,
                             const gk_elementwise_options *options, gk_report *report)
{
    gk_elementwise_options none = { 0, NULL };
    gk_report local;
    gk_report *rep = report ? report : &local;
    gk_config cfg;
    gk_status st;
    float *in = NULL;
    if (!options) options = &none;
    if (!ctx || !a)
        return gk__fail(GK_EINVAL, "gk_elementwise_run: no %s", !ctx ? "context" : "matrix");
    gk__ctx_report_init(ctx, rep);
    if ((st = gk_elementwise_check_size(dimx, dimy, niter64)))
        return st;
    int niter = (int)niter64;
    uint64_t n = (uint64_t)dimx * (uint64_t)dimy, bytes = n * sizeof(float);
    if ((st = gk__ctx_config(ctx, "elementwise", dimx > dimy ? dimx : dimy, options->config, &cfg, rep)))
        return st;
    int cpu = ctx->backend != GK_BACKEND_GPU;
    /* the caller's matrix, and with the check: the input's copy and a scratch matrix */
    char what[96];
    snprintf(what, sizeof what, "elementwise matrix %lldx%lld%s", (long long)dimx, (long long)dimy,
             options->check ? " with the check" : "");
    if ((st = gk_host_memory_check(bytes * (options->check ? 3 : 1), what)))
        return st;
    if (options->check) {
        if ((st = gk__xmalloc((void **)&in, (size_t)bytes * 2, "the check's copies of the matrix")))
            return st;
        memcpy(in, a, (size_t)bytes);
    }
    int threads = gk__ctx_threads_enter(ctx);
    if (!cpu) {
#ifdef GK_HAVE_CUDA
        st = run_gpu(ctx, a, dimx, dimy, niter, &cfg, in, rep);
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    } else {
        /* the CPU kernel, for --verbose (as the other commands say theirs) */
        snprintf(rep->config, sizeof rep->config, "OpenMP rows, omp simd runs of 64 columns per class");
        double t0 = gk_wtime();
        st = gk__elementwise_cpu(a, dimx, dimy, niter);
        rep->compute = gk_wtime() - t0;
        if (!st && in) {
            gk_elementwise_diff d;
            memset(&d, 0, sizeof d);
            t0 = gk_wtime();
            st = cpu_check(in, a, dimx, dimy, niter, in + n, &d);
            rep->check = gk_wtime() - t0;
            snprintf(rep->check_against, sizeof rep->check_against, "one-step enclosures (CPU libm ulps)");
            report_diff(rep, &d, cpu_ulps, st);
        }
    }
    gk__ctx_threads_leave(threads);
    free(in);
    return st;
}

/* ------------------------------------------------------------------ bench */

typedef struct bench_data {
    int64_t dimx, dimy;
    int niter, reps;
    size_t n;
    float *in, *out, *tmp;
} bench_data;

static void set_check(gk_elementwise_bench_row *r, gk_status st, const gk_elementwise_diff *d)
{
    r->ok = st == GK_OK;
    if (st == GK_OK)
        snprintf(r->check, sizeof r->check, "ok (%.2g ulp, %lld NaN)", d->max_ulp, (long long)d->nan);
    else if (st == GK_EMISMATCH)
        snprintf(r->check, sizeof r->check, "FAIL %lld outside", (long long)d->outside);
    else
        snprintf(r->check, sizeof r->check, "FAIL: %.50s", gk_last_error());
    gk__clear_error();
}

static gk_status bench_cpu(bench_data *B, gk_elementwise_bench_report *R)
{
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    for (int row = 0; row < 2; row++) {
        gk_elementwise_bench_row *r = &R->row[R->nrows++];
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
            double t0 = gk_wtime();
            st = row == 0 ? gk__elementwise_cpu_reference(B->out, B->dimx, B->dimy, B->niter)
                          : gk__elementwise_cpu(B->out, B->dimx, B->dimy, B->niter);
            t[rep] = gk_wtime() - t0;
        }
        if (st) return st;
        r->ms = gk__median(t, reps, NULL) * 1e3;
        r->gelem_iters = (double)B->n * B->niter / (r->ms * 1e-3) * 1e-9;
        r->speedup = R->row[0].ms / r->ms;
        gk_elementwise_diff d;
        memset(&d, 0, sizeof d);
        set_check(r, cpu_check(B->in, B->out, B->dimx, B->dimy, B->niter, B->tmp, &d), &d);
    }
    return GK_OK;
}

#ifdef GK_HAVE_CUDA
static gk_status bench_gpu(gk_context *ctx, bench_data *B, const gk_config *cfg, gk_elementwise_bench_report *R)
{
    int saved;
    gk_elementwise_gpu *g = NULL;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if ((st = gk__elementwise_gpu_open(&g, &ctx->dev[0], (cudaStream_t)ctx->stream, B->dimx, B->dimy, cfg)))
        goto out;
    static const char *names[3] = { "baseline", "float4", "tuned" };
    for (int design = GK_EW_BASELINE; design <= GK_EW_TUNED && !st; design++) {
        gk_elementwise_bench_row *r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "%s", names[design]);
        if (design == GK_EW_BASELINE)
            snprintf(r->config, sizeof r->config, "one element/thread, 32x8 threads, switch on column %% 4");
        else if (design == GK_EW_FLOAT4)
            snprintf(r->config, sizeof r->config, "one float4/thread, 256 threads");
        else
            gk_config_format(gk__elementwise_gpu_config(g), r->config, sizeof r->config);
        double ms[64];
        float t;
        /* every run from the same input, after a warm-up */
        st = gk__elementwise_gpu_upload(g, B->in, NULL);
        if (!st) st = gk__elementwise_gpu_run(g, design, B->niter, &t);
        if (st == GK_EINVAL) {
            snprintf(r->check, sizeof r->check, "not run: %.50s", gk_last_error());
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
        gk_elementwise_diff d;
        memset(&d, 0, sizeof d);
        gk_status cs = gk__elementwise_gpu_check(g, design, B->in, B->out, B->niter, &d);
        if (cs && cs != GK_EMISMATCH) { st = cs; break; }
        set_check(r, cs, &d);
    }
    /* the tuned configuration without SKIP: all the work, against the ceiling */
    if (!st && gk_config_get(gk__elementwise_gpu_config(g), "SKIP", 0) >= 1) {
        gk_config c0 = *gk__elementwise_gpu_config(g);
        gk_elementwise_gpu *g0 = NULL;
        gk_elementwise_bench_row *r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "tuned SKIP=0");
        if ((st = gk_config_set(&c0, "SKIP", 0)))
            goto out;
        gk_config_format(&c0, r->config, sizeof r->config);
        if (gk__elementwise_gpu_open(&g0, &ctx->dev[0], (cudaStream_t)ctx->stream, B->dimx, B->dimy, &c0)) {
            snprintf(r->check, sizeof r->check, "not run: %.50s", gk_last_error());
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
                gk_elementwise_diff d;
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
        gk_elementwise_bench_row *r = &R->row[R->nrows++];
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

gk_status gk_elementwise_bench(gk_context *ctx, int64_t dimx, int64_t dimy, int niter, int reps, const char *config,
                               gk_elementwise_bench_report *R)
{
    gk_report rep;
    gk_config cfg;
    gk_status st;
    bench_data B;
    memset(R, 0, sizeof *R);
    memset(&B, 0, sizeof B);
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk_elementwise_bench: no context");
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
    if ((st = gk_host_memory_check((uint64_t)B.n * 12, what))
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
