/* gemm.c - the matrix multiply's front door: the problem and options,
 * plans (made once: configuration, kernel image, device matrices), their
 * execution on host memory (optionally checked against the CPU) and on
 * device memory (enqueued on the context's stream), and gk_gemm_run =
 * create + execute + destroy.  The benchmark is gemm_bench.c. */
#include "api/context.h"
#include "core/gemm_core.h"
#include "cpu/gemm_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/gemm_gpu.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_gemm_plan {
    gk__plan_head head;          /* first: the context, memory, check, configuration, base report */
    int m, n, k;
    int64_t lda, ldb, ldc;
#ifdef GK_HAVE_CUDA
    gk_gemm_gpu *gpu;
#endif
};

static int64_t max3(int64_t a, int64_t b, int64_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

void gk_gemm_problem_init(gk_gemm_problem *p, int64_t m, int64_t n, int64_t k)
{
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->m = m;
    p->n = n;
    p->k = k;
    p->dtype = GK_DTYPE_FLOAT32;
    p->memory = GK_MEMORY_HOST;
}

void gk_gemm_options_init(gk_gemm_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

/* One leading dimension: 0 is dense (cols), else at least cols and the
 * matrix's extent within 64 bits. */
static gk_status ld_in(const char *name, int64_t *ld, int64_t rows, int64_t cols)
{
    if (*ld == 0)
        *ld = cols;
    if (*ld < cols || *ld > INT64_MAX / 4 / rows)
        return gk__fail(GK_EINVAL, "gemm: problem.%s = %lld for rows of %lld elements (want %s >= %lld)", name,
                        (long long)*ld, (long long)cols, name, (long long)cols);
    return GK_OK;
}

static gk_status problem_in(const gk_gemm_problem *given, gk_gemm_problem *p)
{
    gk_status st;
    gk_gemm_problem_init(p, 0, 0, 0);
    if (!given)
        return gk__fail(GK_EINVAL, "gemm: problem is NULL");
    if ((st = GK__STRUCT_IN(*p, given, "gk_gemm_problem")) || (st = gk_gemm_check_size(p->m, p->n, p->k))
        || (st = ld_in("lda", &p->lda, p->m, p->k)) || (st = ld_in("ldb", &p->ldb, p->k, p->n))
        || (st = ld_in("ldc", &p->ldc, p->m, p->n)))
        return st;
    if (p->dtype != GK_DTYPE_FLOAT32)
        return gk__fail(GK_EINVAL, "gemm: problem.dtype %s: this release multiplies float32 matrices only",
                        gk_dtype_name(p->dtype) ? gk_dtype_name(p->dtype) : "(not a gk_dtype)");
    if (p->memory != GK_MEMORY_HOST && p->memory != GK_MEMORY_DEVICE)
        return gk__fail(GK_EINVAL, "gemm: problem.memory %d is not a gk_memory", (int)p->memory);
    if (p->memory == GK_MEMORY_HOST && (p->lda != p->k || p->ldb != p->n || p->ldc != p->n))
        return gk__fail(GK_EINVAL, "gemm: leading dimensions %lld, %lld, %lld: host matrices are dense in this release",
                        (long long)p->lda, (long long)p->ldb, (long long)p->ldc);
    return GK_OK;
}

/* The GPU's check: the CPU backend's product and |A| |B| (by the CPU
 * backend too: positive terms, relative error <= K u), as doubles. */
static gk_status cpu_backend_reference(const float *a, const float *b, double *ref, double *abs_ab, int m, int n,
                                       int k, gk_cpu_isa isa)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *t = NULL;
    gk_status st = gk__xmalloc((void **)&t, (na + nb + nc) * sizeof *t, "the check's |A| and |B|");
    if (st) return st;
    float *ta = t, *tb = t + na, *tc = tb + nb;
    if (!(st = gk__gemm_cpu(a, b, tc, m, n, k, isa))) {
        for (size_t i = 0; i < nc; i++) ref[i] = tc[i];
        for (size_t i = 0; i < na; i++) ta[i] = fabsf(a[i]);
        for (size_t i = 0; i < nb; i++) tb[i] = fabsf(b[i]);
        if (!(st = gk__gemm_cpu(ta, tb, tc, m, n, k, isa)))
            for (size_t i = 0; i < nc; i++) abs_ab[i] = tc[i];
    }
    free(t);
    return st;
}

gk_status gk_gemm_plan_create(gk_context *ctx, const gk_gemm_problem *problem, const gk_gemm_options *options,
                              gk_gemm_plan **out)
{
    gk_gemm_problem prob;
    gk_gemm_options opt;
    gk_gemm_plan *p = NULL;
    gk_status st;
    if ((st = gk__plan_args(ctx, out, "gk_gemm_plan_create")) || (st = problem_in(problem, &prob)))
        return st;
    gk_gemm_options_init(&opt);
    if (options && (st = GK__STRUCT_IN(opt, options, "gk_gemm_options")))
        return st;
    if ((st = gk__plan_new(ctx, sizeof *p, "gemm", prob.memory, opt.check, opt.config,
                           max3(prob.m, prob.n, prob.k), (void **)&p)))
        return st;
    p->m = (int)prob.m; p->n = (int)prob.n; p->k = (int)prob.k;
    p->lda = prob.lda; p->ldb = prob.ldb; p->ldc = prob.ldc;
    int cpu = ctx->backend != GK_BACKEND_GPU;
    uint64_t nc = (uint64_t)p->m * (uint64_t)p->n;
    /* the check: the reference and |A||B| as doubles; on the GPU also the
     * CPU backend's |A|, |B| and product */
    uint64_t need = p->head.check ? nc * 16 + (cpu ? 0 : ((uint64_t)p->m * p->k + (uint64_t)p->k * p->n + nc) * 4) : 0;
    char what[128];
    snprintf(what, sizeof what, "gemm %dx%dx%d with the check", p->m, p->n, p->k);
    if (need && (st = gk__host_memory_check(need, what)))
        goto fail;
    if (cpu) {
        /* the CPU kernel that runs, for --verbose (as apsp and stencil say it) */
        gk__gemm_cpu_describe(ctx->cpu_isa, p->head.base.config, sizeof p->head.base.config);
    } else {
#ifdef GK_HAVE_CUDA
        int saved;
        if ((st = gk__ctx_gpu_enter(ctx, &saved)))
            goto fail;
        /* dense device operands are worked on where they are: no buffers */
        int dense = prob.memory == GK_MEMORY_DEVICE && p->lda == p->k && p->ldb == p->n && p->ldc == p->n;
        st = gk__gemm_gpu_open(&p->gpu, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), p->m, p->n, p->k,
                               &p->head.cfg, !dense);
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
    gk_gemm_plan_destroy(p);
    return st;
}

#ifdef GK_HAVE_CUDA
static void gpu_close(void *g) { gk__gemm_gpu_close(g); }
#endif

void gk_gemm_plan_destroy(gk_gemm_plan *p)
{
    if (!p)
        return;
#ifdef GK_HAVE_CUDA
    if (p->gpu)
        gk__ctx_gpu_call(p->head.ctx, gpu_close, p->gpu);
#endif
    gk__plan_free(p);
}

static gk_status exec_host(gk_gemm_plan *p, const float *a, const float *b, float *c, gk_report *rep)
{
    gk_context *ctx = p->head.ctx;
    gk_status st = GK_OK;
    const int m = p->m, n = p->n, k = p->k, cpu = ctx->backend != GK_BACKEND_GPU;
    uint64_t nc = (uint64_t)m * (uint64_t)n;
    double *ref = NULL;
    if (p->head.check && (st = gk__xmalloc((void **)&ref, (size_t)nc * 16, "the check's reference")))
        return st;
    int threads = gk__ctx_threads_enter(ctx);
    if (!cpu) {
#ifdef GK_HAVE_CUDA
        float up = 0, run = 0, down = 0;
        int saved;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            gk__gemm_gpu_set_stream(p->gpu, (cudaStream_t)gk__ctx_stream(ctx));
            if (!(st = gk__gemm_gpu_upload(p->gpu, a, b, &up)) && !(st = gk__gemm_gpu_run(p->gpu, GK_GEMM_TUNED, &run)))
                st = gk__gemm_gpu_download(p->gpu, c, &down);
            gk__ctx_gpu_leave(saved);
        }
        gk__report_gpu_ms(rep, up, run, down);
#endif
    } else {
        double t0 = gk__wtime();
        st = gk__gemm_cpu(a, b, c, m, n, k, ctx->cpu_isa);
        rep->compute = gk__wtime() - t0;
    }
    if (!st && ref) {
        /* the CPU backend checks the GPU; the plain reference loop (another
         * code path, double accumulation) checks the CPU backend */
        gk__gemm_diff d;
        double t0 = gk__wtime();
        if (cpu)
            gk__gemm_cpu_reference(a, b, ref, ref + nc, m, n, k);
        else
            st = cpu_backend_reference(a, b, ref, ref + nc, m, n, k, ctx->cpu_isa);
        rep->check = gk__wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "%s",
                 cpu ? "the CPU reference loop" : "the CPU backend");
        if (!st) {
            st = gk__gemm_compare(c, ref, ref + nc, m, n, k, &d);
            rep->check_max_abs = d.max_abs;
            rep->check_max_rel = d.max_ratio;         /* of the bound */
            rep->check_tolerance = 1;
            rep->checked = st == GK_OK;
        }
    }
    gk__ctx_threads_leave(threads);
    free(ref);
    return st;
}

gk_status gk_gemm_plan_execute(gk_context *ctx, gk_gemm_plan *p, const void *a, const void *b, void *c,
                               gk_report *report)
{
    gk_report rep;
    gk_status st;
    if ((st = gk__plan_exec_begin(p ? &p->head : NULL, ctx, "gk_gemm_plan_execute", report, &rep)))
        return st;
    if ((st = gk__ctx_check_pointer(ctx, p->head.memory, a, "gk_gemm_plan_execute: a"))
        || (st = gk__ctx_check_pointer(ctx, p->head.memory, b, "gk_gemm_plan_execute: b"))
        || (st = gk__ctx_check_pointer(ctx, p->head.memory, c, "gk_gemm_plan_execute: c")))
        return st;
    /* c is written while a and b are read: refuse byte ranges that meet
       (one address space for host and device pointers: CUDA's unified
       addressing) */
    uintptr_t ca = (uintptr_t)c, ce = ca + (uintptr_t)(((uint64_t)(p->m - 1) * (uint64_t)p->ldc + (uint64_t)p->n) * 4);
    const void *in[2] = { a, b };
    const uint64_t rows[2] = { (uint64_t)p->m, (uint64_t)p->k }, ld[2] = { (uint64_t)p->lda, (uint64_t)p->ldb },
                   cols[2] = { (uint64_t)p->k, (uint64_t)p->n };
    for (int i = 0; i < 2; i++) {
        uintptr_t s0 = (uintptr_t)in[i], s1 = s0 + (uintptr_t)(((rows[i] - 1) * ld[i] + cols[i]) * 4);
        if (s0 < ce && ca < s1)
            return gk__fail(GK_EINVAL, "gk_gemm_plan_execute: c overlaps %s (c is written while %s is read)",
                            i ? "b" : "a", i ? "b" : "a");
    }
    if (p->head.memory == GK_MEMORY_HOST) {
        st = exec_host(p, a, b, c, &rep);
    } else {
#ifdef GK_HAVE_CUDA
        int saved;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            gk__gemm_gpu_set_stream(p->gpu, (cudaStream_t)gk__ctx_stream(ctx));
            st = gk__gemm_gpu_exec_device(p->gpu, a, p->lda, b, p->ldb, c, p->ldc);
            gk__ctx_gpu_leave(saved);
        }
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    }
    gk__plan_exec_end(report, &rep);
    return st;
}

gk_status gk_gemm_run(gk_context *ctx, const gk_gemm_problem *problem, const void *a, const void *b, void *c,
                      const gk_gemm_options *options, gk_report *report)
{
    gk_gemm_plan *p = NULL;
    gk_status st;
    if ((st = gk__run_report_begin(ctx, report, "gk_gemm_run")))
        return st;
    if ((st = gk_gemm_plan_create(ctx, problem, options, &p)))
        return st;
    st = gk_gemm_plan_execute(ctx, p, a, b, c, report);
    gk_gemm_plan_destroy(p);
    return st;
}
