/* gemm_bench.c - `gk bench gemm` (for the commands only,
 * src/api/commands.h): the designs on the context's backend, the vendor
 * library and the FP32 ceiling measured in the same run. */
#include "api/context.h"
#include "api/commands.h"
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


typedef struct bench_data {
    int m, n, k, reps;
    float *a, *b, *c;
} bench_data;

static void check_row(bench_data *B, gk__gemm_bench_row *r)
{
    gk__gemm_diff d;
    gk_status st = gk__gemm_check_rows(B->a, B->b, B->c, B->m, B->n, B->k, 64, 777, &d);
    r->ok = st == GK_OK;
    if (st == GK_OK)
        snprintf(r->check, sizeof r->check, "ok (%.2g of the bound)", d.max_ratio);
    else if (st == GK_EMISMATCH)
        snprintf(r->check, sizeof r->check, "FAIL %.3g x the bound", d.max_ratio);
    else
        gk__note(r->check, sizeof r->check, "not checked: %s", gk_last_error());
    gk__clear_error();
}

static void set_rate(bench_data *B, double *ms, int n, gk__gemm_bench_row *r)
{
    r->ms = gk__median(ms, n, NULL);
    r->gflops = 2.0 * B->m * (double)B->n * B->k / (r->ms * 1e-3) * 1e-9;
}

static gk_status bench_cpu(bench_data *B, gk__gemm_bench_report *R)
{
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    double ms[64];
    gk__gemm_bench_row *r;
    /* the plain reference loop, one run, small problems only */
    if ((double)B->m * B->n * B->k <= 1073741824.0) {
        double *ref = NULL;
        gk_status st = gk__xmalloc((void **)&ref, (size_t)B->m * B->n * sizeof *ref, "the bench's reference");
        if (st) return st;
        r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "reference");
        snprintf(r->config, sizeof r->config, "plain loop, double accumulation, rows in parallel (1 run)");
        double t0 = gk__wtime();
        gk__gemm_cpu_reference(B->a, B->b, ref, NULL, B->m, B->n, B->k);
        ms[0] = (gk__wtime() - t0) * 1e3;
        free(ref);
        set_rate(B, ms, 1, r);
        r->ok = 1;
        snprintf(r->check, sizeof r->check, "(reference)");
    }
    /* a row per instruction set this CPU has (generic only when it is the
     * best), each given to the kernel: nothing process-wide is switched */
    gk_cpu_isa best = gk__cpu_isa_best();
    for (gk_cpu_isa isa = GK_CPU_ISA_AVX512; isa >= GK_CPU_ISA_GENERIC; isa--) {
        if (!gk_cpu_isa_supported(isa) || (isa == GK_CPU_ISA_GENERIC && best != isa))
            continue;
        r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "cpu");
        char d[160];
        gk__gemm_cpu_describe(isa, d, sizeof d);
        snprintf(r->config, sizeof r->config, "%s, %d thread%s", d, threads, threads > 1 ? "s" : "");
        gk_status st = gk__gemm_cpu(B->a, B->b, B->c, B->m, B->n, B->k, isa);     /* warm-up */
        for (int i = 0; i < B->reps && !st; i++) {
            double t0 = gk__wtime();
            st = gk__gemm_cpu(B->a, B->b, B->c, B->m, B->n, B->k, isa);
            ms[i] = (gk__wtime() - t0) * 1e3;
        }
        if (st) return st;
        set_rate(B, ms, B->reps, r);
        check_row(B, r);
    }
    r = &R->row[R->nrows++];
    snprintf(r->kernel, sizeof r->kernel, "openblas");
    char what[160];
    if (!gk__openblas_available(what, sizeof what)) {
        gk__note(r->check, sizeof r->check, "not run: %s", what);
        return GK_OK;
    }
    gk__note(R->vendor, sizeof R->vendor, "%s", what);
    gk__note(r->config, sizeof r->config, "%s cblas_sgemm, %d thread%s", what, threads, threads > 1 ? "s" : "");
    gk__openblas_sgemm(B->a, B->b, B->c, B->m, B->n, B->k, threads);
    for (int i = 0; i < B->reps; i++) {
        double t0 = gk__wtime();
        gk__openblas_sgemm(B->a, B->b, B->c, B->m, B->n, B->k, threads);
        ms[i] = (gk__wtime() - t0) * 1e3;
    }
    set_rate(B, ms, B->reps, r);
    check_row(B, r);
    return GK_OK;
}

#ifdef GK_HAVE_CUDA
static gk_status bench_gpu(gk_context *ctx, bench_data *B, const gk_config *cfg, gk__gemm_bench_report *R)
{
    int saved;
    gk_gemm_gpu *g = NULL;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if ((st = gk__gemm_gpu_open(&g, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), B->m, B->n, B->k, cfg, 1))
        || (st = gk__gemm_gpu_upload(g, B->a, B->b, NULL)))
        goto out;
    double fma;
    if ((st = gk__gemm_gpu_fma_ceiling(g, &fma)))
        goto out;
    R->peak_gflops = 2 * fma * 1e-9;
    static const char *names[] = { "naive", "tile", "ilp", "tuned", "cublas" };
    for (int which = GK_GEMM_NAIVE; which <= GK_GEMM_CUBLAS && !st; which++) {
        gk__gemm_bench_row *r = &R->row[R->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "%s", names[which]);
        switch (which) {
        case GK_GEMM_NAIVE: snprintf(r->config, sizeof r->config, "one output per thread, 16x16 threads"); break;
        case GK_GEMM_TILE: snprintf(r->config, sizeof r->config, "32x32 shared-memory tiles, one output per thread"); break;
        case GK_GEMM_ILP: snprintf(r->config, sizeof r->config, "64x64 tiles, k chunks of 16, 4x4 outputs per thread"); break;
        case GK_GEMM_TUNED: gk__config_format(gk__gemm_gpu_config(g), r->config, sizeof r->config); break;
        default: {
            char what[200];
            if (!gk__cublas_available(what, sizeof what)) {
                gk__note(r->check, sizeof r->check, "not run: %s", what);
                continue;
            }
            gk__note(R->vendor, sizeof R->vendor, "%s", what);
            gk__note(r->config, sizeof r->config, "%s cublasSgemm, default math mode (fp32, no TF32)", what);
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

gk_status gk__gemm_bench(gk_context *ctx, int64_t m, int64_t n, int64_t k, int reps, const char *config,
                        gk__gemm_bench_report *R)
{
    gk_report rep;
    gk_config cfg;
    gk_status st;
    bench_data B;
    memset(R, 0, sizeof *R);
    memset(&B, 0, sizeof B);
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk__gemm_bench: no context");
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
    if ((st = gk__host_memory_check(bytes + (uint64_t)m * n * 8, what))
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
