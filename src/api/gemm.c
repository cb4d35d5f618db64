/* gemm.c - the matrix multiply's front door: gk_gemm_run and gk_gemm_bench
 * pick the backend (the context's) and the configuration, check memory
 * before allocating, run the CPU code (src/cpu) or the GPU code (src/gpu),
 * check against the CPU on request, and fill the report. */
#include "api/context.h"
#include "cpu/gemm_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/gemm_gpu.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int64_t max3(int64_t a, int64_t b, int64_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

#ifdef GK_HAVE_CUDA
static gk_status run_gpu(gk_context *ctx, const float *a, const float *b, float *c, int m, int n, int k,
                         const gk_config *cfg, gk_report *rep)
{
    gk_gemm_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    int saved;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if (!(st = gk__gemm_gpu_open(&g, &ctx->dev[0], (cudaStream_t)ctx->stream, m, n, k, cfg))
        && !(st = gk__gemm_gpu_upload(g, a, b, &up)) && !(st = gk__gemm_gpu_run(g, GK_GEMM_TUNED, &run)))
        st = gk__gemm_gpu_download(g, c, &down);
    gk__gemm_gpu_close(g);
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    return st;
}
#endif

/* The GPU's check: the CPU backend's product and |A| |B| (by the CPU
 * backend too: positive terms, relative error <= K u), as doubles. */
static gk_status cpu_backend_reference(const float *a, const float *b, double *ref, double *abs_ab, int m, int n,
                                       int k)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *t = NULL;
    gk_status st = gk__xmalloc((void **)&t, (na + nb + nc) * sizeof *t, "the check's |A| and |B|");
    if (st) return st;
    float *ta = t, *tb = t + na, *tc = tb + nb;
    if (!(st = gk__gemm_cpu(a, b, tc, m, n, k))) {
        for (size_t i = 0; i < nc; i++) ref[i] = tc[i];
        for (size_t i = 0; i < na; i++) ta[i] = fabsf(a[i]);
        for (size_t i = 0; i < nb; i++) tb[i] = fabsf(b[i]);
        if (!(st = gk__gemm_cpu(ta, tb, tc, m, n, k)))
            for (size_t i = 0; i < nc; i++) abs_ab[i] = tc[i];
    }
    free(t);
    return st;
}

gk_status gk_gemm_run(gk_context *ctx, const float *a, const float *b, float *c, int64_t m64, int64_t n64,
                      int64_t k64, const gk_gemm_options *options, gk_report *report)
{
    gk_gemm_options none = { 0, NULL };
    gk_report local;
    gk_report *rep = report ? report : &local;
    gk_config cfg;
    gk_status st;
    double *ref = NULL;
    if (!options) options = &none;
    if (!ctx || !a || !b || !c)
        return gk__fail(GK_EINVAL, "gk_gemm_run: no %s", !ctx ? "context" : !a ? "A" : !b ? "B" : "C");
    gk__ctx_report_init(ctx, rep);
    if ((st = gk_gemm_check_size(m64, n64, k64)))
        return st;
    int m = (int)m64, n = (int)n64, k = (int)k64;
    if ((st = gk__ctx_config(ctx, "gemm", max3(m, n, k), options->config, &cfg, rep)))
        return st;
    int cpu = ctx->backend != GK_BACKEND_GPU;
    uint64_t nc = (uint64_t)m * (uint64_t)n;
    /* the check: the reference and |A||B| as doubles; on the GPU also the
     * CPU backend's |A|, |B| and product */
    uint64_t need = options->check ? nc * 16 + (cpu ? 0 : ((uint64_t)m * k + (uint64_t)k * n + nc) * 4) : 0;
    char what[128];
    snprintf(what, sizeof what, "gemm %dx%dx%d with the check", m, n, k);
    if (need && (st = gk_host_memory_check(need, what)))
        return st;
    if (options->check && (st = gk__xmalloc((void **)&ref, (size_t)nc * 16, "the check's reference")))
        return st;
    int threads = gk__ctx_threads_enter(ctx);
    if (!cpu) {
#ifdef GK_HAVE_CUDA
        st = run_gpu(ctx, a, b, c, m, n, k, &cfg, rep);
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    } else {
        /* the CPU kernel that runs, for --verbose (as apsp and stencil say it) */
        char d[128];
        int isa = gk__gemm_cpu_isa(-2);
        gk__gemm_cpu_describe(isa, d, sizeof d);
        snprintf(rep->config, sizeof rep->config, "%s", d);
        double t0 = gk_wtime();
        st = gk__gemm_cpu(a, b, c, m, n, k);
        rep->compute = gk_wtime() - t0;
    }
    if (!st && ref) {
        /* the CPU backend checks the GPU; the plain reference loop (another
         * code path, double accumulation) checks the CPU backend */
        gk_gemm_diff d;
        double t0 = gk_wtime();
        if (cpu)
            gk__gemm_cpu_reference(a, b, ref, ref + nc, m, n, k);
        else
            st = cpu_backend_reference(a, b, ref, ref + nc, m, n, k);
        rep->check = gk_wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "%s",
                 cpu ? "the CPU reference loop" : "the CPU backend");
        if (!st) {
            st = gk_gemm_compare(c, ref, ref + nc, m, n, k, &d);
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

/* ------------------------------------------------------------------ bench */

typedef struct bench_data {
    int m, n, k, reps;
    float *a, *b, *c;
} bench_data;

static void check_row(bench_data *B, gk_gemm_bench_row *r)
{
    gk_gemm_diff d;
    gk_status st = gk__gemm_check_rows(B->a, B->b, B->c, B->m, B->n, B->k, 64, 777, &d);
    r->ok = st == GK_OK;
    if (st == GK_OK)
        snprintf(r->check, sizeof r->check, "ok (%.2g of the bound)", d.max_ratio);
    else if (st == GK_EMISMATCH)
        snprintf(r->check, sizeof r->check, "FAIL %.3g x the bound", d.max_ratio);
    else
        snprintf(r->check, sizeof r->check, "not checked: %.40s", gk_last_error());
    gk__clear_error();
}

static void set_rate(bench_data *B, double *ms, int n, gk_gemm_bench_row *r)
{
    r->ms = gk__median(ms, n, NULL);
    r->gflops = 2.0 * B->m * (double)B->n * B->k / (r->ms * 1e-3) * 1e-9;
}

static gk_status bench_cpu(bench_data *B, gk_gemm_bench_report *R)
{
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    double ms[64];
    gk_gemm_bench_row *r;
    /* the plain reference loop, one run, small problems only */
    if ((double)B->m * B->n * B->k <= 1073741824.0) {
        double *ref = NULL;
        gk_status st = gk__xmalloc((void **)&ref, (size_t)B->m * B->n * sizeof *ref, "the bench's reference");
        if (st) return st;
        r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "reference");
        snprintf(r->config, sizeof r->config, "plain loop, double accumulation, rows in parallel (1 run)");
        double t0 = gk_wtime();
        gk__gemm_cpu_reference(B->a, B->b, ref, NULL, B->m, B->n, B->k);
        ms[0] = (gk_wtime() - t0) * 1e3;
        free(ref);
        set_rate(B, ms, 1, r);
        r->ok = 1;
        snprintf(r->check, sizeof r->check, "(reference)");
    }
    int best = gk__gemm_cpu_isa(-1);
    for (int isa = GK_GEMM_ISA_AVX512; isa >= GK_GEMM_ISA_GENERIC; isa--) {
        if (!gk__gemm_cpu_isa_supported(isa) || (isa == GK_GEMM_ISA_GENERIC && best != isa))
            continue;
        gk__gemm_cpu_isa(isa);
        r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "cpu");
        char d[160];
        gk__gemm_cpu_describe(isa, d, sizeof d);
        snprintf(r->config, sizeof r->config, "%s, %d thread%s", d, threads, threads > 1 ? "s" : "");
        gk_status st = gk__gemm_cpu(B->a, B->b, B->c, B->m, B->n, B->k);     /* warm-up */
        for (int i = 0; i < B->reps && !st; i++) {
            double t0 = gk_wtime();
            st = gk__gemm_cpu(B->a, B->b, B->c, B->m, B->n, B->k);
            ms[i] = (gk_wtime() - t0) * 1e3;
        }
        if (st) { gk__gemm_cpu_isa(-1); return st; }
        set_rate(B, ms, B->reps, r);
        check_row(B, r);
    }
    gk__gemm_cpu_isa(-1);
    r = &R->row[R->nrows++];
    snprintf(r->kernel, sizeof r->kernel, "openblas");
    char what[160];
    if (!gk__openblas_available(what, sizeof what)) {
        snprintf(r->check, sizeof r->check, "not run: %.50s", what);
        return GK_OK;
    }
    snprintf(R->vendor, sizeof R->vendor, "%.60s", what);
    snprintf(r->config, sizeof r->config, "%.60s cblas_sgemm, %d thread%s", what, threads, threads > 1 ? "s" : "");
    gk__openblas_sgemm(B->a, B->b, B->c, B->m, B->n, B->k, threads);
    for (int i = 0; i < B->reps; i++) {
        double t0 = gk_wtime();
        gk__openblas_sgemm(B->a, B->b, B->c, B->m, B->n, B->k, threads);
        ms[i] = (gk_wtime() - t0) * 1e3;
    }
    set_rate(B, ms, B->reps, r);
    check_row(B, r);
    return GK_OK;
}

#ifdef GK_HAVE_CUDA
static gk_status bench_gpu(gk_context *ctx, bench_data *B, const gk_config *cfg, gk_gemm_bench_report *R)
{
    int saved;
    gk_gemm_gpu *g = NULL;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if ((st = gk__gemm_gpu_open(&g, &ctx->dev[0], (cudaStream_t)ctx->stream, B->m, B->n, B->k, cfg))
        || (st = gk__gemm_gpu_upload(g, B->a, B->b, NULL)))
        goto out;
    double fma;
    if ((st = gk__gemm_gpu_fma_ceiling(g, &fma)))
        goto out;
    R->peak_gflops = 2 * fma * 1e-9;
    static const char *names[] = { "naive", "tile", "ilp", "tuned", "cublas" };
    for (int which = GK_GEMM_NAIVE; which <= GK_GEMM_CUBLAS && !st; which++) {
        gk_gemm_bench_row *r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "%s", names[which]);
        switch (which) {
        case GK_GEMM_NAIVE: snprintf(r->config, sizeof r->config, "one output per thread, 16x16 threads"); break;
        case GK_GEMM_TILE: snprintf(r->config, sizeof r->config, "32x32 shared-memory tiles, one output per thread"); break;
        case GK_GEMM_ILP: snprintf(r->config, sizeof r->config, "64x64 tiles, k chunks of 16, 4x4 outputs per thread"); break;
        case GK_GEMM_TUNED: gk_config_format(gk__gemm_gpu_config(g), r->config, sizeof r->config); break;
        default: {
            char what[200];
            if (!gk__cublas_available(what, sizeof what)) {
                snprintf(r->check, sizeof r->check, "not run: %.50s", what);
                continue;
            }
            snprintf(R->vendor, sizeof R->vendor, "%.60s", what);
            snprintf(r->config, sizeof r->config, "%.60s cublasSgemm, default math mode (fp32, no TF32)", what);
        }
        }
        double ms[64];
        float t;
        if ((st = gk__gemm_gpu_run(g, which, &t)))    /* warm-up */
            break;
        for (int i = 0; i < B->reps && !st; i++) {
            st = gk__gemm_gpu_run(g, which, &t);
            ms[i] = t;
        }
        if (!st) st = gk__gemm_gpu_download(g, B->c, NULL);
        if (st) break;
        set_rate(B, ms, B->reps, r);
        check_row(B, r);
    }
out:
    gk__gemm_gpu_close(g);
    gk__ctx_gpu_leave(saved);
    return st;
}
#endif

gk_status gk_gemm_bench(gk_context *ctx, int64_t m, int64_t n, int64_t k, int reps, const char *config,
                        gk_gemm_bench_report *R)
{
    gk_report rep;
    gk_config cfg;
    gk_status st;
    bench_data B;
    memset(R, 0, sizeof *R);
    memset(&B, 0, sizeof B);
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk_gemm_bench: no context");
    if ((st = gk_gemm_check_size(m, n, k)))
        return st;
    if (reps < 1 || reps > 64)
        return gk__fail(GK_EINVAL, "bench gemm: %d repetitions (want 1..64)", reps);
    gk__ctx_report_init(ctx, &rep);
    if ((st = gk__ctx_config(ctx, "gemm", max3(m, n, k), config, &cfg, &rep)))
        return st;
    R->backend = ctx->backend;
    R->config_source = rep.config_source;
    snprintf(R->device, sizeof R->device, "%s", rep.device);
    B.m = (int)m; B.n = (int)n; B.k = (int)k; B.reps = reps;
    uint64_t bytes = ((uint64_t)m * k + (uint64_t)k * n + (uint64_t)m * n) * 4;
    char what[96];
    snprintf(what, sizeof what, "bench gemm %dx%dx%d", B.m, B.n, B.k);
    if ((st = gk_host_memory_check(bytes + (uint64_t)m * n * 8, what))
        || (st = gk__xmalloc((void **)&B.a, (size_t)bytes, what)))
        goto out;
    B.b = B.a + (size_t)m * k;
    B.c = B.b + (size_t)k * n;
    gk_matrix_random(B.a, m, k, 12345);
    gk_matrix_random(B.b, k, n, 54321);
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
    for (int i = 0; i < R->nrows; i++) {
        double v = 0;
        for (int j = 0; j < R->nrows; j++)
            if (!strcmp(R->row[j].kernel, "cublas") || !strcmp(R->row[j].kernel, "openblas"))
                v = R->row[j].gflops;
        R->row[i].pct_vendor = v > 0 ? 100 * R->row[i].gflops / v : 0;
    }
out:
    free(B.a);
    return st;
}
