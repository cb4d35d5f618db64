/* apsp.c - the APSP front door: the problem and options, plans (made once:
 * configuration, kernel image, device matrix, staging buffers), their
 * execution on host memory (the exact 16-bit path or int32, the check
 * against an independent CPU computation) and on device memory (enqueued on
 * the context's stream), and gk_apsp_run = create + execute + destroy. */
#include "api/apsp_plan.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gk_apsp_problem_init(gk_apsp_problem *p, int64_t n)
{
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->n = n;
    p->dtype = GK_DTYPE_INT32;
    p->memory = GK_MEMORY_HOST;
}

#ifdef GK_SYMVER
/* gk_apsp_options_init grew in 1.2: programs built from now on get
 * gk_apsp_options_init@@GK_1.2 (this one, the default), programs built
 * against 1.0 and 1.1 keep gk_apsp_options_init@GK_1.0 (below: their struct
 * ends before predecessors, and writing 1.2's would overrun it). */
GK_API void gk__apsp_options_init_1_2(gk_apsp_options *o);
__asm__(".symver gk__apsp_options_init_1_2, gk_apsp_options_init@@GK_1.2");
#define gk_apsp_options_init gk__apsp_options_init_1_2
#endif
void gk_apsp_options_init(gk_apsp_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->exchange = GK_EXCHANGE_AUTO;
}

#ifdef GK_SYMVER
#undef gk_apsp_options_init
GK_API void gk__apsp_options_init_1_0(gk_apsp_options *o);
void gk__apsp_options_init_1_0(gk_apsp_options *o)
{
    const size_t size = offsetof(gk_apsp_options, predecessors);
    memset(o, 0, size);
    o->struct_size = size;
    o->exchange = GK_EXCHANGE_AUTO;
}
__asm__(".symver gk__apsp_options_init_1_0, gk_apsp_options_init@GK_1.0");
#endif

/* The caller's problem, checked: V in [1, 2^31 - 1], ld >= V (0: V), one of
 * the four distance types, host (dense) or device memory. */
static gk_status problem_in(const gk_apsp_problem *given, gk_apsp_problem *p)
{
    gk_status st;
    gk_apsp_problem_init(p, 0);
    if (!given)
        return gk__fail(GK_EINVAL, "APSP: problem is NULL");
    if ((st = GK__STRUCT_IN(*p, given, "gk_apsp_problem")))
        return st;
    if (p->n < 1 || p->n > INT32_MAX)
        return gk__fail(GK_EINVAL, "APSP: problem.n = %lld (want 1 to 2^31 - 1 vertices)", (long long)p->n);
    if (p->ld == 0)
        p->ld = p->n;
    if (p->ld < p->n || p->ld > INT64_MAX / p->n)
        return gk__fail(GK_EINVAL, "APSP: problem.ld = %lld for n = %lld (want ld >= n, and ld * n within "
                        "64 bits)", (long long)p->ld, (long long)p->n);
    if (!gk_dtype_name(p->dtype))
        return gk__fail(GK_EINVAL, "APSP: problem.dtype %d is not a gk_dtype (want int32, int64, float32 or "
                        "float64)", (int)p->dtype);
    if (p->memory != GK_MEMORY_HOST && p->memory != GK_MEMORY_DEVICE)
        return gk__fail(GK_EINVAL, "APSP: problem.memory %d is not a gk_memory", (int)p->memory);
    if (p->memory == GK_MEMORY_HOST && p->ld != p->n)
        return gk__fail(GK_EINVAL, "APSP: problem.ld = %lld for n = %lld: a host matrix is dense in this release "
                        "(ld = n)", (long long)p->ld, (long long)p->n);
    return GK_OK;
}

static gk_status options_in(const gk_apsp_options *given, gk_apsp_options *o)
{
    gk_status st;
    gk_apsp_options_init(o);
    /* predecessors and negative came in 1.2: a 1.1 program's smaller struct
       leaves them 0 */
    if (given && (st = GK__STRUCT_IN_SINCE(*o, given, predecessors, "gk_apsp_options")))
        return st;
    if (o->predecessors != 0 && o->predecessors != 1)
        return gk__fail(GK_EINVAL, "APSP: options.predecessors %d (want 0 or 1)", o->predecessors);
    if (o->negative != 0 && o->negative != 1)
        return gk__fail(GK_EINVAL, "APSP: options.negative %d (want 0 or 1)", o->negative);
    if (o->precision != 0 && o->precision != 16 && o->precision != 32)
        return gk__fail(GK_EINVAL, "APSP: precision %d (want 0 for automatic, 16 or 32)", o->precision);
    if ((unsigned)o->exchange > GK_EXCHANGE_HOST)
        return gk__fail(GK_EINVAL, "APSP: options.exchange %d is not a gk_exchange", (int)o->exchange);
    return GK_OK;
}

/* Host memory at the solve's peak, the caller's matrix included, against
 * the machine's (refused before the OOM killer would): the blocked CPU
 * code's padded copy (int32, or 16-bit tiles and the 16-bit result: the
 * same bytes), the GPU's 16-bit result when entries reach the cap, the
 * check's copy and, checking a GPU run, the blocked CPU code's copy. */
uint64_t gk__apsp_host_peak_bytes(int32_t V, int cpu, int check, int precision)
{
    uint64_t n = V > 0 ? (uint64_t)V : 0, np = (n + 63) / 64 * 64, entry = n * n, padded = np * np;
    uint64_t solve = 4 * entry + (check ? 4 * entry : 0) + (cpu ? 4 * padded : precision != 32 ? 2 * entry : 0);
    uint64_t checking = check ? 8 * entry + (cpu ? 0 : 4 * padded) : 0;
    return solve > checking ? solve : checking;
}

uint64_t gk__apsp_typed_peak_bytes(int32_t V, gk_dtype t, int pred, int cpu, int check)
{
    /* the matrix and pred; the check's copy of the matrix; a CPU solve's
       padded copy of the matrix (and of pred), the GPU check's second pred */
    uint64_t n = V > 0 ? (uint64_t)V : 0, np = (n + 63) / 64 * 64, es = gk_dtype_size(t);
    uint64_t mine = n * n * (es + (pred ? 4 : 0));
    uint64_t copy = check ? n * n * (es + (pred && !cpu ? 4 : 0)) : 0;
    uint64_t solve = cpu || check ? np * np * (es + (pred ? 4 : 0)) : 0;
    return mine + copy + solve;
}

gk_status gk__apsp_host_memory_check(const gk_apsp_plan *p, const char *name)
{
    int cpu = p->head.ctx->backend != GK_BACKEND_GPU;
    uint64_t need = p->dtype != GK_DTYPE_INT32 || p->pred
                        ? gk__apsp_typed_peak_bytes(p->V, p->dtype, p->pred, cpu, p->head.check)
                        : gk__apsp_host_peak_bytes(p->V, cpu, p->head.check, p->precision),
             have = gk__phys_mem_bytes();
    if (have == 0 || need <= have)
        return GK_OK;                     /* unknown: let the allocations decide */
    char b1[32], b2[32];
    return gk__fail(GK_ENOMEM, "%s: V = %d needs %s of host memory for the distance matrix (%s)%s and the %s "
                    "solve's copies%s, this machine has %s", name, p->V, gk__human_bytes((double)need, b1, sizeof b1),
                    gk_dtype_name(p->dtype), p->pred ? ", the predecessors" : "",
                    cpu ? "CPU" : "GPU", p->head.check ? " and the check's" : "",
                    gk__human_bytes((double)have, b2, sizeof b2));
}

/* ------------------------------------------------------------------ GPU */

#ifdef GK_HAVE_CUDA
gk_status gk__apsp_plan_gpu(gk_apsp_plan *p, int bits, gk_apsp_gpu **out)
{
    gk_context *ctx = p->head.ctx;
    void **slot = &p->g[bits == 16 ? 0 : 1];
    gk_status st;
    if (!*slot) {
        gk_apsp_gpu *g = NULL;
        if ((st = gk__apsp_gpu_open_bits(&g, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), p->V, &p->head.cfg, bits)))
            return st;
        gk__apsp_gpu_set_knobs(g, (size_t)ctx->apsp_stage_bytes, !ctx->apsp_no_lookahead, !ctx->apsp_no_mp3);
        if (p->head.memory == GK_MEMORY_HOST && (st = gk__apsp_gpu_stage(g))) {
            gk__apsp_gpu_close(g);
            return st;
        }
        *slot = g;
    }
    *out = *slot;
    gk__apsp_gpu_set_stream(*out, (cudaStream_t)gk__ctx_stream(ctx));
    return GK_OK;
}

static gk_status sink_rows(void *arg, int64_t r0, int64_t m)
{
    gk__apsp_sink *sk = arg;
    double t0 = gk__wtime();
    gk_status st = gk__out_write(&sk->o, sk->dist + r0 * sk->V, (size_t)m * (size_t)sk->V * sizeof(int32_t));
    sk->calls += gk__wtime() - t0;
    return st;
}

/* The result back to dist; with a sink, written to its output chunk by
 * chunk while the next chunk comes back (*down: the milliseconds spent
 * outside the write calls: waiting for copies, widening). */
static gk_status gpu_download(gk_apsp_gpu *g, int32_t *dist, gk__apsp_sink *sk, float *down)
{
    if (!sk || sk->no_stream)
        return gk__apsp_gpu_download(g, dist, down);
    double t0 = gk__wtime();
    sk->done = 1;
    sk->dist = dist;
    sk->calls = 0;
    gk_status st = gk__apsp_out_open(&sk->o, sk->path, sk->format, sk->V);
    sk->calls += gk__wtime() - t0;
    if (!st) {
        st = gk__apsp_gpu_download_each(g, dist, NULL, sink_rows, sk);
        double t1 = gk__wtime();
        st = gk__out_close(&sk->o, st);   /* commits, or removes the temp file */
        sk->calls += gk__wtime() - t1;
    }
    sk->wall = gk__wtime() - t0;
    *down = (float)((sk->wall - sk->calls) * 1e3);
    return st;
}

/* Upload, run, download on the context's GPU. */
static gk_status solve_gpu(gk_apsp_plan *p, int32_t *dist, gk_report *rep, gk__apsp_sink *sk)
{
    gk_apsp_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    int saved;
    gk_status st = gk__ctx_gpu_enter(p->head.ctx, &saved);
    if (st) return st;
    if (!(st = gk__apsp_plan_gpu(p, 32, &g)) && !(st = gk__apsp_gpu_upload(g, dist, &up))
        && !(st = gk__apsp_gpu_run(g, &run)))
        st = gpu_download(g, dist, sk, &down);
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    return st;
}

gk_status gk__apsp_settle_at_cap(gk_apsp_gpu *g, int32_t *dist, int32_t V, int *how, float *down, double *settle)
{
    uint16_t *m16 = NULL;
    gk_status st = gk__xmalloc((void **)&m16, (size_t)V * (size_t)V * sizeof *m16, "the 16-bit result on the host");
    if (!st && !(st = gk__apsp_gpu_download16(g, m16, down))) {
        double t0 = gk__wtime();
        st = gk__apsp16_resolve(dist, m16, V, dist, how);
        *settle = gk__wtime() - t0;
    }
    free(m16);
    return st;
}

/* The 16-bit path on the GPU: upload (narrowed on the host on its way
 * through the pinned buffers), run, count the entries at the cap on the
 * device; none: download (widened on the host on its way), else download
 * the raw 16-bit matrix and settle it on the host (dist still holds the
 * initial matrix).  *how: GK_APSP16_NOT_EXACT leaves dist untouched. */
static gk_status solve_gpu16(gk_apsp_plan *p, int32_t *dist, gk_report *rep, int *how, gk__apsp_sink *sk)
{
    gk_apsp_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    double settle = 0;
    int64_t at_cap = 0;
    int saved;
    *how = GK_APSP16_NOT_EXACT;
    gk_status st = gk__ctx_gpu_enter(p->head.ctx, &saved);
    if (st) return st;
    if (!(st = gk__apsp_plan_gpu(p, 16, &g)) && !(st = gk__apsp_gpu_upload(g, dist, &up))
        && !(st = gk__apsp_gpu_run(g, &run)) && !(st = gk__apsp_gpu_count_cap(g, &at_cap))) {
        if (at_cap == 0) {
            if (!(st = gpu_download(g, dist, sk, &down)))
                *how = GK_APSP16_NO_CAP;
        } else {
            st = gk__apsp_settle_at_cap(g, dist, p->V, how, &down, &settle);
        }
    }
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    rep->compute += settle;
    return st;
}
#endif

static gk_status solve_cpu16(gk_apsp_plan *p, int32_t *dist, gk_report *rep, int *how)
{
    uint16_t *m16 = NULL;
    *how = GK_APSP16_NOT_EXACT;
    gk_status st = gk__xmalloc((void **)&m16, (size_t)p->V * (size_t)p->V * sizeof *m16, "the 16-bit result");
    if (st) return st;
    double t0 = gk__wtime();
    if (!(st = gk__apsp_cpu16(dist, m16, p->V, p->head.ctx->cpu_isa)))
        st = gk__apsp16_resolve(dist, m16, p->V, dist, how);
    rep->compute = gk__wtime() - t0;
    free(m16);
    return st;
}

/* The int32 path on the context's backend. */
static gk_status solve32(gk_apsp_plan *p, int32_t *dist, gk_report *rep, gk__apsp_sink *sk)
{
    if (p->head.ctx->backend == GK_BACKEND_GPU) {
#ifdef GK_HAVE_CUDA
        return solve_gpu(p, dist, rep, sk);
#else
        (void)sk;
        return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    }
    double t0 = gk__wtime();
    gk_status st = gk__apsp_cpu(dist, p->V, p->head.ctx->cpu_isa);
    rep->compute = gk__wtime() - t0;
    return st;
}

gk_status gk__apsp_settle16(gk_apsp_plan *p, int32_t *dist, gk_report *rep, gk__apsp_sink *sk, gk_status st,
                            int how)
{
    snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s", gk__apsp16_how_text(how));
    if (st || how != GK_APSP16_NOT_EXACT) {
        rep->precision = 16;
        return st;
    }
    gk_report first = *rep;
    st = solve32(p, dist, rep, sk);
    rep->compute += first.compute;
    if (first.h2d > 0) rep->h2d += first.h2d;
    if (first.d2h > 0) rep->d2h += first.d2h;
    return st;
}

/* The 16-bit path where it applies (see src/cpu/apsp_cpu.h for why it is
 * exact), the int32 path where it does not or where the 16-bit result could
 * not be settled; the times of both runs add up in the report. */
static gk_status solve_any(gk_apsp_plan *p, int32_t *dist, int32_t max_entry, gk_report *rep, gk__apsp_sink *sk)
{
    int use16 = p->precision == 16 || (p->precision == 0 && max_entry < GK_APSP16_CAP);
    rep->precision = 32;
    if (!use16) {
        snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s",
                 p->precision == 32 ? "32-bit, as asked" : "32-bit: an initial entry reaches the 16-bit cap 32767");
        return solve32(p, dist, rep, sk);
    }
    int how = GK_APSP16_NOT_EXACT;
    gk_status st;
    if (p->head.ctx->backend == GK_BACKEND_GPU) {
#ifdef GK_HAVE_CUDA
        st = solve_gpu16(p, dist, rep, &how, sk);
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    } else {
        st = solve_cpu16(p, dist, rep, &how);
    }
    return gk__apsp_settle16(p, dist, rep, sk, st, how);
}

gk_status gk__apsp_exec_host(gk_apsp_plan *p, int32_t *dist, gk_report *rep, gk__apsp_sink *sk)
{
    gk_context *ctx = p->head.ctx;
    gk_status st;
    int32_t *ref = NULL;
    const int32_t V = p->V;
    if (p->dtype != GK_DTYPE_INT32)
        return gk__apsp_exec_typed(p, dist, NULL, rep);
    /* every entry in [0, INF]: what the kernels' no-overflow argument needs
     * (O(V^2), against the O(V^3) solve); negative ones take the typed path */
    int64_t nn = (int64_t)V * V, bad = nn;   /* the first entry outside, in row-major order */
    int32_t max_entry = 0;   /* the largest finite entry: the automatic choice of lanes */
    int neg = 0;
    double scan0 = gk__wtime();
#pragma omp parallel for reduction(min : bad) reduction(max : max_entry, neg) schedule(static)
    for (int64_t i = 0; i < nn; i++) {
        if ((dist[i] > GK_APSP_INF || dist[i] < -GK_APSP_INF) && i < bad) bad = i;
        if (dist[i] < 0) neg = 1;
        if (dist[i] < GK_APSP_INF && dist[i] > max_entry) max_entry = dist[i];
    }
    if (sk)
        sk->scan = gk__wtime() - scan0;
    if (neg && bad == nn)
        return gk__apsp_exec_typed(p, dist, NULL, rep);   /* the caller writes the result */
    if (bad < nn)
        return gk__fail(GK_EINVAL, "APSP: entry (%lld, %lld) = %d is outside [-%d, %d]", (long long)(bad / V),
                        (long long)(bad % V), dist[bad], GK_APSP_INF, GK_APSP_INF);
    if (p->head.check) {
        if ((st = gk__xmalloc((void **)&ref, (size_t)nn * sizeof *dist, "the check's copy of the matrix")))
            return st;
        memcpy(ref, dist, (size_t)nn * sizeof *dist);
    }
    int threads = gk__ctx_threads_enter(ctx);
    st = solve_any(p, dist, max_entry, rep, sk);
    if (!st && ref) {
        /* independent computations: the blocked CPU code checks the GPU,
         * the plain k-i-j loop checks the blocked CPU code */
        int gpu = ctx->backend == GK_BACKEND_GPU;
        double t0 = gk__wtime();
        st = gpu ? gk__apsp_cpu(ref, V, ctx->cpu_isa) : gk__apsp_cpu_simple(ref, V);
        rep->check = gk__wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "%s",
                 gpu ? "the blocked CPU code" : "the plain CPU k-i-j loop");
        if (!st)
            st = gk_apsp_compare(dist, ref, V, gpu ? "check: GPU vs CPU" : "check: blocked vs plain CPU loop");
        rep->checked = st == GK_OK;
    }
    gk__ctx_threads_leave(threads);
    free(ref);
    return st;
}

/* Device memory: the copy into the plan's matrix (or in place), the rounds
 * and the copy back, enqueued on the context's stream. */
static gk_status exec_device(gk_apsp_plan *p, int32_t *dist, gk_report *rep)
{
#ifdef GK_HAVE_CUDA
    gk_apsp_gpu *g = NULL;
    int saved;
    gk_status st = gk__ctx_gpu_enter(p->head.ctx, &saved);
    if (st) return st;
    if (!(st = gk__apsp_plan_gpu(p, 32, &g)))
        st = gk__apsp_gpu_exec_device(g, dist, p->ld);
    gk__ctx_gpu_leave(saved);
    rep->precision = 32;
    snprintf(rep->precision_detail, sizeof rep->precision_detail, "32-bit (device memory)");
    return st;
#else
    (void)p; (void)dist; (void)rep;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}

/* ---------------------------------------------------------------- plans */

gk_status gk_apsp_plan_create(gk_context *ctx, const gk_apsp_problem *problem, const gk_apsp_options *options,
                              gk_apsp_plan **out)
{
    gk_apsp_problem prob;
    gk_apsp_options opt;
    gk_apsp_plan *p = NULL;
    gk_status st;
    if ((st = gk__plan_args(ctx, out, "gk_apsp_plan_create")) || (st = problem_in(problem, &prob))
        || (st = options_in(options, &opt)))
        return st;
    if (prob.dtype != GK_DTYPE_INT32 && opt.precision != 0 && opt.precision != 32)
        return gk__fail(GK_EINVAL, "APSP: options.precision %d applies to int32 distances only, not %s",
                        opt.precision, gk_dtype_name(prob.dtype));
    if (prob.memory == GK_MEMORY_DEVICE && opt.precision == 16)
        return gk__fail(GK_EINVAL, "APSP: options.precision 16 needs host memory in this release (the 16-bit "
                        "result is settled on the host); use 0 or 32 on device memory");
    /* int64 and float distances: the typed shapes tuned apart (gktune's
       apspx_*); int32 plans keep apsp's entry alone (gk__ctx_config) */
    if ((st = (prob.dtype == GK_DTYPE_INT32 ? gk__plan_new : gk__plan_new_typed)(
             ctx, sizeof *p, "apsp", prob.memory, opt.check, opt.config, prob.n, (void **)&p)))
        return st;
    p->V = (int32_t)prob.n;
    p->ld = prob.ld;
    p->precision = prob.memory == GK_MEMORY_DEVICE ? 32 : opt.precision;
    p->dtype = prob.dtype;
    p->pred = opt.predecessors;
    p->negative = opt.negative;
    p->head.base.dtype = prob.dtype;
    if (ctx->backend != GK_BACKEND_GPU) {
        snprintf(p->head.base.config, sizeof p->head.base.config, "%s", gk__apsp_cpu_kernel_name(ctx->cpu_isa));
        if ((st = gk__apsp_host_memory_check(p, "APSP")))
            goto fail;
        *out = p;
        return GK_OK;
    }
    if (prob.memory == GK_MEMORY_HOST && (st = gk__apsp_host_memory_check(p, "APSP")))
        goto fail;
#ifdef GK_HAVE_CUDA
    {
        /* what an execution needs first: 16-bit lanes unless 32 are asked
           for (or the data is on the device) */
        int saved;
        gk_apsp_gpu *g;
        if ((st = gk__ctx_gpu_enter(ctx, &saved)))
            goto fail;
        if (p->dtype != GK_DTYPE_INT32 || p->pred) {
            /* the typed kernels (the ordered tile of the contract for floats
               and predecessors) */
            st = gk__apsp_gpu_open_typed(&g, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), p->V, p->dtype,
                                         p->pred, &p->head.cfg);
            if (!st)
                p->gt = g;
        } else {
            st = gk__apsp_plan_gpu(p, p->precision == 32 ? 32 : 16, &g);
        }
        gk__ctx_gpu_leave(saved);
        if (st)
            goto fail;
    }
#endif
    *out = p;
    return GK_OK;
fail:
    gk_apsp_plan_destroy(p);
    return st;
}

#ifdef GK_HAVE_CUDA
static void gpu_close(void *arg)
{
    gk_apsp_plan *p = arg;
    gk__apsp_gpu_close(p->g[0]);
    gk__apsp_gpu_close(p->g[1]);
    gk__apsp_gpu_close(p->gt);
}
#endif

void gk_apsp_plan_destroy(gk_apsp_plan *p)
{
    if (!p)
        return;
#ifdef GK_HAVE_CUDA
    if (p->g[0] || p->g[1] || p->gt)            /* cudaFree waits for the work queued on the matrices */
        gk__ctx_gpu_call(p->head.ctx, gpu_close, p);
#endif
    gk__plan_free(p);
}

static gk_status execute(gk_context *ctx, gk_apsp_plan *p, void *dist, int32_t *pred, gk_report *report,
                         const char *fn)
{
    gk_report rep;
    gk_status st;
    char what[64];
    snprintf(what, sizeof what, "%s: dist", fn);
    if ((st = gk__plan_exec_begin(p ? &p->head : NULL, ctx, fn, report, &rep))
        || (st = gk__ctx_check_pointer(ctx, p->head.memory, dist, what)))
        return st;
    if (pred) {
        snprintf(what, sizeof what, "%s: pred", fn);
        if (!p->pred)
            return gk__fail(GK_EINVAL, "%s: pred given, but the plan was made without options.predecessors", fn);
        if ((st = gk__ctx_check_pointer(ctx, p->head.memory, pred, what)))
            return st;
    }
    rep.dtype = p->dtype;
    rep.cycle_vertex = -1;
    if (p->head.memory == GK_MEMORY_DEVICE)
        st = p->dtype != GK_DTYPE_INT32 || pred || p->negative ? gk__apsp_exec_device_typed(p, dist, pred, &rep)
                                                               : exec_device(p, dist, &rep);
    else
        st = pred ? gk__apsp_exec_typed(p, dist, pred, &rep) : gk__apsp_exec_host(p, dist, &rep, NULL);
    gk__plan_exec_end(report, &rep);
    return st;
}

gk_status gk_apsp_plan_execute(gk_context *ctx, gk_apsp_plan *p, void *dist, gk_report *report)
{
    return execute(ctx, p, dist, NULL, report, "gk_apsp_plan_execute");
}

gk_status gk_apsp_plan_execute_paths(gk_context *ctx, gk_apsp_plan *p, void *dist, int32_t *pred, gk_report *report)
{
    return execute(ctx, p, dist, pred, report, "gk_apsp_plan_execute_paths");
}

/* gk_apsp_run and gk_apsp_run_paths; fn: which one the caller called. */
static gk_status run_paths(gk_context *ctx, const gk_apsp_problem *problem, void *dist, int32_t *pred,
                           const gk_apsp_options *options, gk_report *report, const char *fn)
{
    gk_apsp_plan *p = NULL;
    gk_apsp_options o;
    gk_status st;
    if ((st = gk__run_report_begin(ctx, report, fn)))
        return st;
    gk_apsp_options_init(&o);
    if (options && (st = GK__STRUCT_IN_SINCE(o, options, predecessors, "gk_apsp_options")))
        return st;
    if (pred)
        o.predecessors = 1;   /* a pred matrix given is the request */
    if ((st = gk_apsp_plan_create(ctx, problem, &o, &p)))
        return st;
    st = execute(ctx, p, dist, pred, report, fn);
    gk_apsp_plan_destroy(p);
    return st;
}

gk_status gk_apsp_run_paths(gk_context *ctx, const gk_apsp_problem *problem, void *dist, int32_t *pred,
                            const gk_apsp_options *options, gk_report *report)
{
    return run_paths(ctx, problem, dist, pred, options, report, "gk_apsp_run_paths");
}

gk_status gk_apsp_run(gk_context *ctx, const gk_apsp_problem *problem, void *dist, const gk_apsp_options *options,
                      gk_report *report)
{
    return run_paths(ctx, problem, dist, NULL, options, report, "gk_apsp_run");
}
