/* elementwise.c - the elementwise front door: the problem and options,
 * plans (made once: configuration, kernel image, device matrix), their
 * execution on host memory (optionally checked per iteration) and on
 * device memory (enqueued on the context's stream), and gk_elementwise_run
 * = create + execute + destroy.  The benchmark is elementwise_bench.c. */
#include "api/context.h"
#include "core/elementwise.h"
#include "cpu/elementwise_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/elementwise_gpu.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_elementwise_plan {
    gk__plan_head head;          /* first: the context, memory, check, configuration, base report */
    int64_t dimx, dimy, ld;
#ifdef GK_HAVE_CUDA
    gk_elementwise_gpu *gpu;
#endif
};

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

static void report_diff(gk_report *rep, const gk__elementwise_diff *d, const int ulps[4], gk_status st)
{
    rep->check_max_abs = d->max_ulp;
    rep->check_max_rel = 0;
    rep->check_tolerance = max_ulps(ulps);
    rep->checked = st == GK_OK;
}

void gk_elementwise_problem_init(gk_elementwise_problem *p, int64_t dimx, int64_t dimy)
{
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->dimx = dimx;
    p->dimy = dimy;
    p->dtype = GK_DTYPE_FLOAT32;
    p->memory = GK_MEMORY_HOST;
}

void gk_elementwise_options_init(gk_elementwise_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

static gk_status problem_in(const gk_elementwise_problem *given, gk_elementwise_problem *p)
{
    gk_status st;
    gk_elementwise_problem_init(p, 0, 0);
    if (!given)
        return gk__fail(GK_EINVAL, "elementwise: problem is NULL");
    if ((st = GK__STRUCT_IN(*p, given, "gk_elementwise_problem")) || (st = gk_elementwise_check_size(p->dimx, p->dimy, 0)))
        return st;
    if (p->ld == 0)
        p->ld = p->dimx;
    if (p->ld < p->dimx || p->ld > INT64_MAX / 4 / p->dimy)
        return gk__fail(GK_EINVAL, "elementwise: problem.ld = %lld for dimx = %lld (want ld >= dimx)",
                        (long long)p->ld, (long long)p->dimx);
    if (p->dtype != GK_DTYPE_FLOAT32)
        return gk__fail(GK_EINVAL, "elementwise: problem.dtype %s: this release works on float32 only",
                        gk_dtype_name(p->dtype) ? gk_dtype_name(p->dtype) : "(not a gk_dtype)");
    if (p->memory != GK_MEMORY_HOST && p->memory != GK_MEMORY_DEVICE)
        return gk__fail(GK_EINVAL, "elementwise: problem.memory %d is not a gk_memory", (int)p->memory);
    if (p->memory == GK_MEMORY_HOST && p->ld != p->dimx)
        return gk__fail(GK_EINVAL, "elementwise: problem.ld = %lld: a host matrix is dense in this release",
                        (long long)p->ld);
    return GK_OK;
}

gk_status gk_elementwise_plan_create(gk_context *ctx, const gk_elementwise_problem *problem,
                                     const gk_elementwise_options *options, gk_elementwise_plan **out)
{
    gk_elementwise_problem prob;
    gk_elementwise_options opt;
    gk_elementwise_plan *p = NULL;
    gk_status st;
    if ((st = gk__plan_args(ctx, out, "gk_elementwise_plan_create")) || (st = problem_in(problem, &prob)))
        return st;
    gk_elementwise_options_init(&opt);
    if (options && (st = GK__STRUCT_IN(opt, options, "gk_elementwise_options")))
        return st;
    if ((st = gk__plan_new(ctx, sizeof *p, "elementwise", prob.memory, opt.check, opt.config,
                           prob.dimx > prob.dimy ? prob.dimx : prob.dimy, (void **)&p)))
        return st;
    p->dimx = prob.dimx; p->dimy = prob.dimy; p->ld = prob.ld;
    /* the caller's matrix, and with the check: the input's copy and a scratch matrix */
    uint64_t bytes = (uint64_t)p->dimx * (uint64_t)p->dimy * sizeof(float);
    char what[96];
    snprintf(what, sizeof what, "elementwise matrix %lldx%lld%s", (long long)p->dimx, (long long)p->dimy,
             p->head.check ? " with the check" : "");
    if (prob.memory == GK_MEMORY_HOST && (st = gk__host_memory_check(bytes * (p->head.check ? 3 : 1), what)))
        goto fail;
    if (ctx->backend != GK_BACKEND_GPU) {
        /* the CPU kernel, for --verbose (as the other commands say theirs) */
        snprintf(p->head.base.config, sizeof p->head.base.config, "OpenMP rows, omp simd runs of 64 columns per class");
    } else {
#ifdef GK_HAVE_CUDA
        int saved;
        if ((st = gk__ctx_gpu_enter(ctx, &saved)))
            goto fail;
        st = gk__elementwise_gpu_open(&p->gpu, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), p->dimx, p->dimy,
                                      &p->head.cfg);
        gk__ctx_gpu_leave(saved);
        if (st)
            goto fail;
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
        goto fail;
#endif
    }
    *out = p;
    return GK_OK;
fail:
    gk_elementwise_plan_destroy(p);
    return st;
}

#ifdef GK_HAVE_CUDA
static void gpu_close(void *g) { gk__elementwise_gpu_close(g); }
#endif

void gk_elementwise_plan_destroy(gk_elementwise_plan *p)
{
    if (!p)
        return;
#ifdef GK_HAVE_CUDA
    if (p->gpu)
        gk__ctx_gpu_call(p->head.ctx, gpu_close, p->gpu);
#endif
    gk__plan_free(p);
}

static gk_status exec_host(gk_elementwise_plan *p, float *a, int niter, gk_report *rep)
{
    gk_context *ctx = p->head.ctx;
    gk_status st = GK_OK;
    const int64_t dimx = p->dimx, dimy = p->dimy;
    uint64_t n = (uint64_t)dimx * (uint64_t)dimy, bytes = n * sizeof(float);
    float *in = NULL;
    if (p->head.check) {
        if ((st = gk__xmalloc((void **)&in, (size_t)bytes * 2, "the check's copies of the matrix")))
            return st;
        memcpy(in, a, (size_t)bytes);
    }
    int threads = gk__ctx_threads_enter(ctx);
#ifdef GK_HAVE_CUDA
    if (p->gpu) {
        float up = 0, run = 0, down = 0;
        int saved;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            gk__elementwise_gpu_set_stream(p->gpu, (cudaStream_t)gk__ctx_stream(ctx));
            if (!(st = gk__elementwise_gpu_upload(p->gpu, a, &up))
                && !(st = gk__elementwise_gpu_run(p->gpu, GK_EW_TUNED, niter, &run)))
                st = gk__elementwise_gpu_download(p->gpu, a, &down);
            gk__report_gpu_ms(rep, up, run, down);
            if (!st && in) {
                gk__elementwise_diff d;
                memset(&d, 0, sizeof d);
                double t0 = gk__wtime();
                st = gk__elementwise_gpu_check(p->gpu, GK_EW_TUNED, in, a, niter, &d);
                rep->check = gk__wtime() - t0;
                snprintf(rep->check_against, sizeof rep->check_against, "one-step enclosures (GPU libm ulps)");
                report_diff(rep, &d, gpu_ulps, st);
            }
            gk__ctx_gpu_leave(saved);
        }
        gk__ctx_threads_leave(threads);
        free(in);
        return st;
    }
#endif
    double t0 = gk__wtime();
    st = gk__elementwise_cpu(a, dimx, dimy, niter);
    rep->compute = gk__wtime() - t0;
    if (!st && in) {
        gk__elementwise_diff d;
        memset(&d, 0, sizeof d);
        t0 = gk__wtime();
        st = gk__elementwise_cpu_check(in, a, dimx, dimy, niter, in + n, &d);
        rep->check = gk__wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "one-step enclosures (CPU libm ulps)");
        report_diff(rep, &d, cpu_ulps, st);
    }
    gk__ctx_threads_leave(threads);
    free(in);
    return st;
}

gk_status gk_elementwise_plan_execute(gk_context *ctx, gk_elementwise_plan *p, void *a, int64_t niter,
                                      gk_report *report)
{
    gk_report rep;
    gk_status st;
    if ((st = gk__plan_exec_begin(p ? &p->head : NULL, ctx, "gk_elementwise_plan_execute", report, &rep)))
        return st;
    if ((st = gk_elementwise_check_size(p->dimx, p->dimy, niter)))
        return st;
    if ((st = gk__ctx_check_pointer(ctx, p->head.memory, a, "gk_elementwise_plan_execute: a")))
        return st;
    if (p->head.memory == GK_MEMORY_HOST) {
        st = exec_host(p, a, (int)niter, &rep);
    } else {
#ifdef GK_HAVE_CUDA
        int saved;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            gk__elementwise_gpu_set_stream(p->gpu, (cudaStream_t)gk__ctx_stream(ctx));
            st = gk__elementwise_gpu_exec_device(p->gpu, a, p->ld, (int)niter);
            gk__ctx_gpu_leave(saved);
        }
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    }
    gk__plan_exec_end(report, &rep);
    return st;
}

gk_status gk_elementwise_run(gk_context *ctx, const gk_elementwise_problem *problem, void *a, int64_t niter,
                             const gk_elementwise_options *options, gk_report *report)
{
    gk_elementwise_plan *p = NULL;
    gk_status st;
    if ((st = gk__run_report_begin(ctx, report, "gk_elementwise_run")))
        return st;
    if ((st = gk_elementwise_check_size(problem ? problem->dimx : 1, problem ? problem->dimy : 1, niter)))
        return st;
    if ((st = gk_elementwise_plan_create(ctx, problem, options, &p)))
        return st;
    st = gk_elementwise_plan_execute(ctx, p, a, niter, report);
    gk_elementwise_plan_destroy(p);
    return st;
}
