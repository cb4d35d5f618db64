/* apsp_bench.c - `gk bench apsp` (for the commands only, src/api/commands.h):
 * the tuned kernel, the classic course kernel and the min-plus ceiling
 * measured in the same run on the GPU; the blocked CPU code against the
 * plain k-i-j loop on the CPU; the exact 16-bit path on the same matrix. */
#include "api/apsp_plan.h"
#include "api/commands.h"
#include "core/apsp_types.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static gk_status bench_cpu(gk_context *ctx, int32_t n, gk__apsp_bench_row *row)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(int32_t);
    int32_t *a = NULL, *b = NULL;
    gk_status st;
    char what[96];
    snprintf(what, sizeof what, "bench apsp n = %d (3 n x n int32 matrices)", n);
    if ((st = gk__host_memory_check(3 * (uint64_t)bytes, what))
        || (st = gk__xmalloc((void **)&a, bytes, "the benchmark matrix"))
        || (st = gk__xmalloc((void **)&b, bytes, "the baseline's matrix"))
        || (st = gk_apsp_random_matrix(a, n, 0.3, 20261122, 1000)))
        goto out;
    memcpy(b, a, bytes);
    int threads = gk__ctx_threads_enter(ctx);
    double t0 = gk__wtime();
    st = gk__apsp_cpu(a, n, ctx->cpu_isa);
    double t1 = gk__wtime();
    /* the 16-bit path on the initial matrix (b still holds it) */
    uint16_t *m16 = NULL;
    int32_t *c16 = NULL;
    int how = GK_APSP16_NOT_EXACT;
    double t16 = 0;
    if (!st && !(st = gk__xmalloc((void **)&m16, (size_t)n * (size_t)n * sizeof *m16, "the 16-bit result"))
        && !(st = gk__xmalloc((void **)&c16, bytes, "the 16-bit result, widened"))) {
        double s0 = gk__wtime();
        st = gk__apsp_cpu16(b, m16, n, ctx->cpu_isa);
        t16 = gk__wtime() - s0;
        if (!st) st = gk__apsp16_resolve(b, m16, n, c16, &how);
    }
    free(m16);
    double t1b = gk__wtime();
    if (!st) st = gk__apsp_cpu_simple(b, n);
    double t2 = gk__wtime();
    gk__ctx_threads_leave(threads);
    if (st) { free(c16); goto out; }
    row->seconds16 = t16;
    row->tmps16 = (double)n * n * n / t16 / 1e12;
    row->identical16 = how != GK_APSP16_NOT_EXACT && memcmp(c16, a, bytes) == 0;
    free(c16);
    t1 = t1b;
    double ops = (double)n * n * n;
    row->seconds = t1 - t0;
    row->tmps = ops / row->seconds / 1e12;
    row->base_seconds = t2 - t1;
    row->base_tmps = ops / row->base_seconds / 1e12;
    st = gk_apsp_compare(a, b, n, "bench: blocked vs plain CPU loop");
    row->identical = st == GK_OK;
out:
    free(a);
    free(b);
    return st;
}

#ifdef GK_HAVE_CUDA
static gk_status bench_gpu(gk_context *ctx, int32_t n, const gk_config *cfg, gk__apsp_bench_row *row)
{
    gk_status st;
    gk_apsp_gpu *c = NULL;
    int32_t *init = NULL, *a = NULL, *b = NULL;
    size_t bytes = (size_t)n * (size_t)n * sizeof *init;
    float ms = 0, base_ms = 0;
    int saved = -1, entered = 0;
    char what[96];
    snprintf(what, sizeof what, "bench apsp n = %d (3 n x n int32 matrices)", n);
    if ((st = gk__host_memory_check(3 * (uint64_t)bytes, what))
        || (st = gk__xmalloc((void **)&init, bytes, "the benchmark matrix"))
        || (st = gk__xmalloc((void **)&a, bytes, "the kernel's result"))
        || (st = gk__xmalloc((void **)&b, bytes, "the baseline's result"))
        || (st = gk_apsp_random_matrix(init, n, 0.3, 20261122, 1000))
        || (st = gk__ctx_gpu_enter(ctx, &saved)))
        goto out;
    entered = 1;
    if ((st = gk__apsp_gpu_open(&c, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), n, cfg)))
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
    if ((st = gk__apsp_gpu_ceiling(c, &row->ceiling_tmps)) || (st = gk__apsp_gpu_ceiling16(c, &row->ceiling16_tmps)))
        goto out;
    double ops = (double)n * n * n;
    row->seconds = ms * 1e-3;
    row->tmps = ops / row->seconds / 1e12;
    row->base_seconds = base_ms * 1e-3;
    row->base_tmps = ops / row->base_seconds / 1e12;
    row->ceiling_tmps /= 1e12;
    st = gk_apsp_compare(a, b, n, "bench: kernel vs baseline");
    row->identical = st == GK_OK;
    if (st && st != GK_EMISMATCH)
        goto out;
    gk_status cmp = st;
    gk__apsp_gpu_close(c);
    c = NULL;
    /* the 16-bit path on the same matrix, settled as gk_apsp_solve does */
    {
        float ms16 = 0;
        int how = GK_APSP16_NOT_EXACT;
        uint16_t *m16 = NULL;
        if (!(st = gk__apsp_gpu_open_bits(&c, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), n, cfg, 16))
            && !(n <= 8192 && ((st = gk__apsp_gpu_upload(c, init, NULL)) || (st = gk__apsp_gpu_run(c, NULL))))
            && !(st = gk__apsp_gpu_upload(c, init, NULL)) && !(st = gk__apsp_gpu_run(c, &ms16))
            && !(st = gk__xmalloc((void **)&m16, (size_t)n * (size_t)n * sizeof *m16, "the 16-bit result"))
            && !(st = gk__apsp_gpu_download16(c, m16, NULL)))
            st = gk__apsp16_resolve(init, m16, n, b, &how);   /* b: the baseline's result, compared above */
        free(m16);
        if (st) goto out;
        row->seconds16 = ms16 * 1e-3;
        row->tmps16 = (double)n * n * n / row->seconds16 / 1e12;
        row->ceiling16_tmps /= 1e12;
        row->identical16 = how != GK_APSP16_NOT_EXACT && memcmp(a, b, bytes) == 0;
    }
    st = cmp;
out:
    gk__apsp_gpu_close(c);
    if (entered) gk__ctx_gpu_leave(saved);
    free(init);
    free(a);
    free(b);
    return st;
}
#endif

gk_status gk__apsp_bench(gk_context *ctx, int64_t n64, const char *config, gk__apsp_bench_row *row)
{
    if (n64 < 1 || n64 > 1 << 20)
        return gk__fail(GK_EINVAL, "bench apsp: n = %lld (want 1 to 2^20)", (long long)n64);
    const int32_t n = (int32_t)n64;
    gk_report rep;
    gk_config cfg;
    gk_status st;
    memset(row, 0, sizeof *row);
    row->n = n;
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk__apsp_bench: no context");
    if (n < 1)
        return gk__fail(GK_EINVAL, "bench apsp: n = %d (want at least 1)", n);
    gk__ctx_report_init(ctx, &rep);
    if ((st = gk__ctx_config(ctx, "apsp", n, config, &cfg, &rep)))
        return st;
    row->backend = ctx->backend;
    row->config_source = rep.config_source;
    snprintf(row->device, sizeof row->device, "%s", rep.device);
    snprintf(row->config, sizeof row->config, "%s", rep.config);
    if (ctx->backend != GK_BACKEND_GPU)
        return bench_cpu(ctx, n, row);
#ifdef GK_HAVE_CUDA
    return bench_gpu(ctx, n, &cfg, row);
#else
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}

/* ---- the element types' rows (issue 24; formerly tests/bench_apsp_types.c) ---- */
#ifdef GK_HAVE_CUDA
/* The int32 matrix m (INF: no edge) as type t: INF64 / +inf for no edge. */
static gk_status as_type(const int32_t *m, int64_t n, gk_dtype t, void **out)
{
    gk_status st = gk__xmalloc(out, (size_t)(n * n) * gk_dtype_size(t), "the benchmark matrix of another type");
    if (st) return st;
    for (int64_t i = 0; i < n * n; i++) {
        const int inf = m[i] == GK_APSP_INF;
        switch (t) {
        case GK_DTYPE_INT32: ((int32_t *)*out)[i] = m[i]; break;
        case GK_DTYPE_INT64: ((int64_t *)*out)[i] = inf ? GK_APSP_INF64 : m[i]; break;
        case GK_DTYPE_FLOAT32: ((float *)*out)[i] = inf ? INFINITY : (float)m[i]; break;
        default: ((double *)*out)[i] = inf ? (double)INFINITY : (double)m[i]; break;
        }
    }
    return GK_OK;
}

/* One row: an untimed run, a timed one, the ceiling; out (may be NULL): the distances. */
static gk_status type_row(gk_context *ctx, int32_t n, const int32_t *m, const gk_config *cfg, gk__apsp_type_row *r,
                          void *out)
{
    gk_apsp_gpu *c = NULL;
    void *x = NULL;
    float ms = 0;
    double ceil = 0;
    gk_status st = as_type(m, n, r->dtype, &x);
    if (!st && !(st = gk__apsp_gpu_open_typed(&c, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), n, r->dtype,
                                              r->pred, cfg))
        && !(st = gk__apsp_gpu_upload_typed(c, x, NULL)) && !(st = gk__apsp_gpu_run_typed(c, NULL))
        && !(st = gk__apsp_gpu_upload_typed(c, x, NULL)) && !(st = gk__apsp_gpu_run_typed(c, &ms))
        && !(st = gk__apsp_gpu_ceiling_typed(c, r->dtype, &ceil)) && out)
        st = gk__apsp_gpu_download_typed(c, out, NULL, NULL);
    gk__apsp_gpu_close(c);
    free(x);
    if (st) return st;
    r->seconds = ms * 1e-3;
    r->tmps = (double)n * n * n / r->seconds / 1e12;
    r->ceiling_tmps = ceil / 1e12;
    return GK_OK;
}
#endif

gk_status gk__apsp_bench_types(gk_context *ctx, int64_t n64, const char *config, gk__apsp_types_bench *out)
{
    memset(out, 0, sizeof *out);
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk__apsp_bench_types: no context");
    if (n64 < 1 || n64 > 1 << 20)
        return gk__fail(GK_EINVAL, "bench apsp: n = %lld (want 1 to 2^20)", (long long)n64);
    if (ctx->backend != GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "bench apsp: the element types' rows need a GPU context");
#ifndef GK_HAVE_CUDA
    (void)config;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#else
    const int32_t n = (int32_t)n64;
    static const struct { const char *name; gk_dtype t; int pred; } kinds[GK__APSP_TYPE_ROWS] = {
        { "int32", GK_DTYPE_INT32, 0 }, { "int32+pred", GK_DTYPE_INT32, 1 }, { "float32", GK_DTYPE_FLOAT32, 0 },
        { "float64", GK_DTYPE_FLOAT64, 0 }, { "int64", GK_DTYPE_INT64, 0 }, { "float32+pred", GK_DTYPE_FLOAT32, 1 },
    };
    gk_report rep;
    gk_config cfg;
    gk_status st;
    int32_t *m = NULL, *r32 = NULL, *rp = NULL;
    const size_t bytes = (size_t)n * (size_t)n * sizeof(int32_t);
    int saved = -1, entered = 0;
    char what[96];
    out->n = n;
    gk__ctx_report_init(ctx, &rep);
    /* int32 rows: apsp's entry alone; the other types: with the typed
       shapes tuned apart (as their plans take them) */
    gk_report trep;
    gk_config tcfg;
    gk__ctx_report_init(ctx, &trep);
    if ((st = gk__ctx_config(ctx, "apsp", n, config, &cfg, &rep))
        || (st = gk__ctx_config_typed(ctx, "apsp", n, config, &tcfg, &trep)))
        return st;
    snprintf(out->device, sizeof out->device, "%s", rep.device);
    snprintf(out->config, sizeof out->config, "%s", rep.config);
    snprintf(what, sizeof what, "bench apsp n = %d (3 n x n int32 matrices, one of the widest type)", n);
    if ((st = gk__host_memory_check(5 * (uint64_t)bytes, what))
        || (st = gk__xmalloc((void **)&m, bytes, "the benchmark matrix"))
        || (st = gk__xmalloc((void **)&r32, bytes, "the int32 distances"))
        || (st = gk__xmalloc((void **)&rp, bytes, "the int32 distances with predecessors"))
        || (st = gk_apsp_random_matrix(m, n, 0.3, 20261122, 1000)) || (st = gk__ctx_gpu_enter(ctx, &saved)))
        goto out;
    entered = 1;
    for (int i = 0; i < GK__APSP_TYPE_ROWS; i++) {
        gk__apsp_type_row *r = &out->row[i];
        snprintf(r->name, sizeof r->name, "%s", kinds[i].name);
        r->dtype = kinds[i].t;
        r->pred = kinds[i].pred;
        if ((st = type_row(ctx, n, m, r->dtype == GK_DTYPE_INT32 ? &cfg : &tcfg, r,
                           i == 0 ? (void *)r32 : i == 1 ? (void *)rp : NULL)))
            goto out;
        r->vs_int32 = r->seconds / out->row[0].seconds;
        out->nrows = i + 1;
    }
    out->identical = memcmp(r32, rp, bytes) == 0;
    if (!out->identical)
        st = gk__fail(GK_EMISMATCH, "bench apsp n = %d: int32 distances with and without predecessors differ", n);
out:
    if (entered) gk__ctx_gpu_leave(saved);
    free(m);
    free(r32);
    free(rp);
    return st;
#endif
}
