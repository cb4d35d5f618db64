/* apsp.c - the APSP front door: gk_apsp_solve and gk_apsp_bench pick the
 * backend (the context's) and the configuration, run the CPU code
 * (src/cpu) or the GPU code (src/gpu), check against an independent CPU
 * computation on request, and fill the report. */
#include "api/context.h"
#include "core/apsp_formats.h"
#include "cpu/apsp_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gk_apsp_solve_write's output, written while the result comes back from
 * the GPU (done: the GPU path wrote it, or failed trying; else the caller
 * writes the whole matrix after the solve). */
typedef struct apsp_sink {
    const char *path;
    gk_format format;
    int32_t V;
    const int32_t *dist;
    gk_outfile o;
    double calls;              /* seconds in opening, writing, closing the output */
    double wall;               /* seconds from opening to the end of closing */
    int done;
    int no_stream;             /* the check compares after the solve: write after it */
    double scan, open, close;  /* the solve's own costs (gk_apsp_write_report) */
    int prepared;
} apsp_sink;

void gk__apsp_ready_drop(gk_context *ctx)
{
#ifdef GK_HAVE_CUDA
    if (ctx->apsp_ready) {
        int saved;
        if (gk__ctx_gpu_enter(ctx, &saved) == GK_OK) {
            gk__apsp_gpu_close(ctx->apsp_ready);
            gk__ctx_gpu_leave(saved);
        }
    }
#endif
    ctx->apsp_ready = NULL;
}

#ifdef GK_HAVE_CUDA
static int same_config(const gk_config *a, const gk_config *b)
{
    char x[512], y[512];
    gk_config_format(a, x, sizeof x);
    gk_config_format(b, y, sizeof y);
    return !strcmp(x, y);
}

/* The GPU APSP for V, cfg and bits: gk_apsp_prepare's when it matches (its
 * module loaded, device matrix and pinned buffers allocated during the
 * read), else a new one (the prepared one closed first: its memory back). */
static gk_status gpu_open1(gk_context *ctx, gk_apsp_gpu **g, int32_t V, const gk_config *cfg, int bits,
                           int *prepared)
{
    gk_apsp_gpu *r = ctx->apsp_ready;
    ctx->apsp_ready = NULL;
    if (r) {
        gk_config full;
        int32_t rv;
        int rbits;
        gk__apsp_gpu_shape(r, &rv, &rbits);
        if (rv == V && rbits == bits && !gk__space_complete(&gk__space_apsp, cfg, &full)
            && same_config(&full, gk__apsp_gpu_config(r))) {
            *g = r;
            *prepared = 1;
            return GK_OK;
        }
        gk__apsp_gpu_close(r);
    }
    return gk__apsp_gpu_open_bits(g, &ctx->dev[0], (cudaStream_t)ctx->stream, V, cfg, bits);
}

static gk_status gpu_open(gk_context *ctx, gk_apsp_gpu **g, int32_t V, const gk_config *cfg, int bits, apsp_sink *sk)
{
    double t0 = gk_wtime();
    int prepared = 0;
    gk_status st = gpu_open1(ctx, g, V, cfg, bits, &prepared);
    if (sk) {
        sk->open += gk_wtime() - t0;
        sk->prepared = prepared;
    }
    return st;
}

static void gpu_close(gk_apsp_gpu *g, apsp_sink *sk)
{
    double t0 = gk_wtime();
    gk__apsp_gpu_close(g);
    if (sk) sk->close += gk_wtime() - t0;
}

static gk_status sink_rows(void *arg, int64_t r0, int64_t m)
{
    apsp_sink *sk = arg;
    double t0 = gk_wtime();
    gk_status st = gk__out_write(&sk->o, sk->dist + r0 * sk->V, (size_t)m * (size_t)sk->V * sizeof(int32_t));
    sk->calls += gk_wtime() - t0;
    return st;
}

/* The result back to dist; with a sink, written to its output chunk by
 * chunk while the next chunk comes back (*down: the milliseconds spent
 * outside the write calls: waiting for copies, widening). */
static gk_status gpu_download(gk_apsp_gpu *g, int32_t *dist, apsp_sink *sk, float *down)
{
    if (!sk || sk->no_stream)
        return gk__apsp_gpu_download(g, dist, down);
    double t0 = gk_wtime();
    sk->done = 1;
    sk->dist = dist;
    sk->calls = 0;
    gk_status st = gk__apsp_out_open(&sk->o, sk->path, sk->format, sk->V);
    sk->calls += gk_wtime() - t0;
    if (!st) {
        st = gk__apsp_gpu_download_each(g, dist, NULL, sink_rows, sk);
        double t1 = gk_wtime();
        st = gk__out_close(&sk->o, st);   /* commits, or removes the temp file */
        sk->calls += gk_wtime() - t1;
    }
    sk->wall = gk_wtime() - t0;
    *down = (float)((sk->wall - sk->calls) * 1e3);
    return st;
}

/* Upload, run, download on the context's GPU; times in seconds. */
static gk_status solve_gpu(gk_context *ctx, int32_t *dist, int32_t V, const gk_config *cfg, gk_report *rep,
                           apsp_sink *sk)
{
    gk_apsp_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    int saved;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if (!(st = gpu_open(ctx, &g, V, cfg, 32, sk))
        && !(st = gk__apsp_gpu_upload(g, dist, &up)) && !(st = gk__apsp_gpu_run(g, &run)))
        st = gpu_download(g, dist, sk, &down);
    gpu_close(g, sk);
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    return st;
}

/* Entries of the GPU's 16-bit result at the cap: the raw result down to
 * the host and settled there (dist holds the initial matrix and gets the
 * result when it is exact; *how says). */
static gk_status settle_at_cap(gk_apsp_gpu *g, int32_t *dist, int32_t V, int *how, float *down, double *settle)
{
    uint16_t *m16 = NULL;
    gk_status st = gk__xmalloc((void **)&m16, (size_t)V * (size_t)V * sizeof *m16, "the 16-bit result on the host");
    if (!st && !(st = gk__apsp_gpu_download16(g, m16, down))) {
        double t0 = gk_wtime();
        st = gk__apsp16_resolve(dist, m16, V, dist, how);
        *settle = gk_wtime() - t0;
    }
    free(m16);
    return st;
}

/* The 16-bit path on the GPU: upload (narrowed on the host on its way
 * through the pinned buffers), run, count the entries at the cap on the
 * device; none: download (widened on the host on its way), else download
 * the raw 16-bit matrix and settle it on the host (dist still holds the
 * initial matrix).  *how: GK_APSP16_NOT_EXACT leaves dist untouched. */
static gk_status solve_gpu16(gk_context *ctx, int32_t *dist, int32_t V, const gk_config *cfg, gk_report *rep,
                             int *how, apsp_sink *sk)
{
    gk_apsp_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    double settle = 0;
    int64_t at_cap = 0;
    int saved;
    *how = GK_APSP16_NOT_EXACT;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if (!(st = gpu_open(ctx, &g, V, cfg, 16, sk))
        && !(st = gk__apsp_gpu_upload(g, dist, &up)) && !(st = gk__apsp_gpu_run(g, &run))
        && !(st = gk__apsp_gpu_count_cap(g, &at_cap))) {
        if (at_cap == 0) {
            if (!(st = gpu_download(g, dist, sk, &down)))
                *how = GK_APSP16_NO_CAP;
        } else {
            st = settle_at_cap(g, dist, V, how, &down, &settle);
        }
    }
    gpu_close(g, sk);
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    rep->compute += settle;
    return st;
}
#endif

static gk_status solve_cpu16(int32_t *dist, int32_t V, gk_report *rep, int *how)
{
    uint16_t *m16 = NULL;
    *how = GK_APSP16_NOT_EXACT;
    gk_status st = gk__xmalloc((void **)&m16, (size_t)V * (size_t)V * sizeof *m16, "the 16-bit result");
    if (st) return st;
    double t0 = gk_wtime();
    if (!(st = gk__apsp_cpu16(dist, m16, V)))
        st = gk__apsp16_resolve(dist, m16, V, dist, how);
    rep->compute = gk_wtime() - t0;
    free(m16);
    return st;
}

/* The int32 path on the context's backend. */
static gk_status solve32(gk_context *ctx, int32_t *dist, int32_t V, const gk_config *cfg, gk_report *rep,
                         apsp_sink *sk)
{
    if (ctx->backend == GK_BACKEND_GPU) {
#ifdef GK_HAVE_CUDA
        return solve_gpu(ctx, dist, V, cfg, rep, sk);
#else
        (void)cfg; (void)rep; (void)sk;
        return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    }
    double t0 = gk_wtime();
    gk_status st = gk__apsp_cpu(dist, V);
    rep->compute = gk_wtime() - t0;
    return st;
}

/* The 16-bit path where it applies (see src/cpu/apsp_cpu.h for why it is
 * exact), the int32 path where it does not or where the 16-bit result could
 * not be settled; the times of both runs add up in the report. */
/* After a 16-bit run (status st, outcome how): its result stands (exact,
 * or the run failed), or the int32 path runs from the initial matrix (dist
 * still holds it) and its times add to the 16-bit run's. */
static gk_status settle16(gk_context *ctx, int32_t *dist, int32_t V, const gk_config *cfg, gk_report *rep,
                          apsp_sink *sk, gk_status st, int how)
{
    snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s", gk__apsp16_how_text(how));
    if (st || how != GK_APSP16_NOT_EXACT) {
        rep->precision = 16;
        return st;
    }
    gk_report first = *rep;
    st = solve32(ctx, dist, V, cfg, rep, sk);
    rep->compute += first.compute;
    if (first.h2d > 0) rep->h2d += first.h2d;
    if (first.d2h > 0) rep->d2h += first.d2h;
    return st;
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

static gk_status host_memory_check(const gk_context *ctx, const char *name, int32_t V,
                                   const gk_apsp_options *options)
{
    int cpu = ctx->backend != GK_BACKEND_GPU, check = options->check != 0;
    uint64_t need = gk__apsp_host_peak_bytes(V, cpu, check, options->precision), have = gk__phys_mem_bytes();
    if (have == 0 || need <= have)
        return GK_OK;                     /* unknown: let the allocations decide */
    char b1[32], b2[32];
    return gk__fail(GK_ENOMEM, "%s: V = %d needs %s of host memory for the distance matrix and the %s "
                    "solve's copies%s, this machine has %s", name, V, gk__human_bytes((double)need, b1, sizeof b1),
                    cpu ? "CPU" : "GPU", check ? " and the check's" : "", gk__human_bytes((double)have, b2, sizeof b2));
}

static gk_status solve_any(gk_context *ctx, int32_t *dist, int32_t V, int precision, int32_t max_entry,
                           const gk_config *cfg, gk_report *rep, apsp_sink *sk)
{
    int use16 = precision == 16 || (precision == 0 && max_entry < GK_APSP16_CAP);
    rep->precision = 32;
    if (!use16) {
        snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s",
                 precision == 32 ? "32-bit, as asked" : "32-bit: an initial entry reaches the 16-bit cap 32767");
        return solve32(ctx, dist, V, cfg, rep, sk);
    }
    int how = GK_APSP16_NOT_EXACT;
    gk_status st;
    if (ctx->backend == GK_BACKEND_GPU) {
#ifdef GK_HAVE_CUDA
        st = solve_gpu16(ctx, dist, V, cfg, rep, &how, sk);
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    } else {
        st = solve_cpu16(dist, V, rep, &how);
    }
    return settle16(ctx, dist, V, cfg, rep, sk, st, how);
}

gk_status gk_apsp_prepare(gk_context *ctx, int32_t V, const gk_apsp_options *options)
{
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk_apsp_prepare: no context");
    if (V < 1)
        return gk__fail(GK_EINVAL, "APSP: V = %d (want at least 1)", V);
    if (ctx->backend != GK_BACKEND_GPU)
        return GK_OK;
#ifdef GK_HAVE_CUDA
    gk_report rep;
    gk_config cfg;
    int saved;
    gk__ctx_report_init(ctx, &rep);
    gk_status st = gk__ctx_config(ctx, "apsp", V, options ? options->config : NULL, &cfg, &rep);
    if (st || (st = gk__ctx_gpu_enter(ctx, &saved)))
        return st;
    /* the kernel image (NVRTC for a configuration not in the fatbin), then
     * what the solve would make first: the module loaded, the device matrix
     * (16 bits unless 32 are asked for) and the pinned staging buffers */
    gk_apsp_gpu *g = NULL;
    gk__apsp_ready_drop(ctx);
    if (!(st = gk__apsp_gpu_prepare(&ctx->dev[0], &cfg))
        && !(st = gk__apsp_gpu_open_bits(&g, &ctx->dev[0], (cudaStream_t)ctx->stream, V, &cfg,
                                         options && options->precision == 32 ? 32 : 16))
        && !(st = gk__apsp_gpu_stage(g))) {
        ctx->apsp_ready = g;
        g = NULL;
    }
    gk__apsp_gpu_close(g);
    gk__ctx_gpu_leave(saved);
    return st;
#else
    (void)options;
    return GK_OK;
#endif
}

static gk_status solve_impl(gk_context *ctx, int32_t *dist, int32_t V, const gk_apsp_options *options,
                            gk_report *report, apsp_sink *sk)
{
    gk_apsp_options none = { 0, NULL, 0 };
    gk_report local;
    gk_report *rep = report ? report : &local;
    gk_config cfg;
    gk_status st;
    int32_t *ref = NULL;
    if (!options) options = &none;
    if (!ctx || !dist)
        return gk__fail(GK_EINVAL, "gk_apsp_solve: no %s", ctx ? "matrix" : "context");
    gk__ctx_report_init(ctx, rep);
    if (V < 1)
        return gk__fail(GK_EINVAL, "APSP: V = %d (want at least 1)", V);
    /* every entry in [0, INF]: what the kernels' no-overflow argument needs
     * (O(V^2), against the O(V^3) solve) */
    int64_t nn = (int64_t)V * V, bad = -1;
    int32_t max_entry = 0;   /* the largest finite entry: the automatic choice of lanes */
    double scan0 = gk_wtime();
#pragma omp parallel for reduction(max : bad, max_entry) schedule(static)
    for (int64_t i = 0; i < nn; i++) {
        if ((dist[i] < 0 || dist[i] > GK_APSP_INF) && i > bad) bad = i;
        if (dist[i] < GK_APSP_INF && dist[i] > max_entry) max_entry = dist[i];
    }
    if (sk)
        sk->scan = gk_wtime() - scan0;
    if (bad >= 0)
        return gk__fail(GK_EINVAL, "APSP: entry (%lld, %lld) = %d is outside [0, %d]", (long long)(bad / V),
                        (long long)(bad % V), dist[bad], GK_APSP_INF);
    if (options->precision != 0 && options->precision != 16 && options->precision != 32)
        return gk__fail(GK_EINVAL, "APSP: precision %d (want 0 for automatic, 16 or 32)", options->precision);
    if ((st = gk__ctx_config(ctx, "apsp", V, options->config, &cfg, rep)))
        return st;
    if (ctx->backend != GK_BACKEND_GPU)
        snprintf(rep->config, sizeof rep->config, "%s", gk__apsp_cpu_kernel_name());
    size_t bytes = (size_t)V * (size_t)V * sizeof *dist;   /* V < 2^31: fits in 64 bits */
    if ((st = host_memory_check(ctx, "APSP", V, options)))
        return st;
    if (options->check) {
        if ((st = gk__xmalloc((void **)&ref, bytes, "the check's copy of the matrix")))
            return st;
        memcpy(ref, dist, bytes);
    }
    int threads = gk__ctx_threads_enter(ctx);
    st = solve_any(ctx, dist, V, options->precision, max_entry, &cfg, rep, sk);
    if (!st && ref) {
        /* independent computations: the blocked CPU code checks the GPU,
         * the plain k-i-j loop checks the blocked CPU code */
        int gpu = ctx->backend == GK_BACKEND_GPU;
        double t0 = gk_wtime();
        st = gpu ? gk__apsp_cpu(ref, V) : gk__apsp_cpu_simple(ref, V);
        rep->check = gk_wtime() - t0;
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

gk_status gk_apsp_solve(gk_context *ctx, int32_t *dist, int32_t V, const gk_apsp_options *options,
                        gk_report *report)
{
    return solve_impl(ctx, dist, V, options, report, NULL);
}

/* What the sink measured, into the caller's write report (overlapped: the
 * result was written while it came back). */
static void sink_report(const apsp_sink *sk, gk_apsp_write_report *wr)
{
    wr->open = sk->open;
    wr->prepared = sk->prepared;
    wr->close = sk->close;
    if (sk->done) {
        wr->overlapped = 1;
        wr->write = sk->calls;
        wr->d2h_wait = sk->wall - sk->calls;
        wr->wall = sk->wall;
    }
}

gk_status gk_apsp_solve_write(gk_context *ctx, int32_t *dist, int32_t V, const gk_apsp_options *options,
                              const char *path, gk_format format, gk_report *report, gk_apsp_write_report *wr)
{
    gk_apsp_write_report local;
    if (!wr) wr = &local;
    memset(wr, 0, sizeof *wr);
    if (!path)
        return gk__fail(GK_EINVAL, "gk_apsp_solve_write: no output path");
    if (format != GK_FORMAT_AUTO && format != GK_FORMAT_NTHU && format != GK_FORMAT_NPY)   /* before the work */
        return gk__fail(GK_EINVAL, "%s: a distance matrix is written as nthu or npy, not %s", path,
                        gk_format_name(format));
    apsp_sink sk;
    memset(&sk, 0, sizeof sk);
    sk.path = path;
    sk.format = format;
    sk.V = V;
    sk.no_stream = options && options->check;   /* the output only once the check passed */
    gk_status st = solve_impl(ctx, dist, V, options, report, &sk);
    wr->scan = sk.scan;
    sink_report(&sk, wr);
    if (sk.done)
        return st;
    if (st)
        return st;
    double t0 = gk_wtime();
    st = gk_apsp_write_format(path, format, dist, V);
    wr->write = wr->wall = gk_wtime() - t0;
    return st;
}

/* ------------------------------------------- from the edge list (graph) */

#ifdef GK_HAVE_CUDA
static gk_status sink_direct(void *arg, const int32_t *rows, int64_t r0, int64_t m)
{
    apsp_sink *sk = arg;
    (void)r0;
    double t0 = gk_wtime();
    gk_status st = gk__out_write(&sk->o, rows, (size_t)m * (size_t)sk->V * sizeof(int32_t));
    sk->calls += gk_wtime() - t0;
    return st;
}

/* The result written to the sink's output straight from the pinned
 * download buffers, chunk by chunk while the next one comes down (*down:
 * the milliseconds outside the write calls: waiting for a copy). */
static gk_status gpu_write_direct(gk_apsp_gpu *g, apsp_sink *sk, float *down)
{
    double t0 = gk_wtime();
    sk->done = 1;
    sk->calls = 0;
    gk_status st = gk__apsp_out_open(&sk->o, sk->path, sk->format, sk->V);
    sk->calls += gk_wtime() - t0;
    if (!st) {
        st = gk__apsp_gpu_download_rows(g, NULL, sink_direct, sk);
        double t1 = gk_wtime();
        st = gk__out_close(&sk->o, st);   /* commits, or removes the temp file */
        sk->calls += gk_wtime() - t1;
    }
    sk->wall = gk_wtime() - t0;
    *down = (float)((sk->wall - sk->calls) * 1e3);
    return st;
}

/* The initial matrix made on the GPU from the edges, the lanes' choice and
 * the settling as solve_any makes them; written by the sink unless the
 * result ends in *host (a 16-bit result at its cap, settled on the host
 * from the initial matrix built there: the caller writes it). */
static gk_status solve_gpu_graph(gk_context *ctx, gk_apsp_graph *gr, int precision, const gk_config *cfg,
                                 gk_report *rep, apsp_sink *sk, double *host_matrix, int32_t **host)
{
    const int32_t V = gr->V;
    const int use16 = precision != 32;   /* auto comes here only with every edge below the cap */
    gk_apsp_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    double settle = 0;
    int32_t *d = NULL;
    int64_t at_cap = 0;
    int how = GK_APSP16_NOT_EXACT, saved;
    *host = NULL;
    rep->precision = 32;
    snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s", "32-bit, as asked");
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if (!(st = gpu_open(ctx, &g, V, cfg, use16 ? 16 : 32, sk))
        && !(st = gk__apsp_gpu_build(g, gr->edges, gr->E, gr->undirected, &up)) && !(st = gk__apsp_gpu_run(g, &run))
        && !(use16 && (st = gk__apsp_gpu_count_cap(g, &at_cap)))) {
        if (at_cap == 0) {
            if (!(st = gpu_write_direct(g, sk, &down)))
                how = GK_APSP16_NO_CAP;
        } else {
            double t0 = gk_wtime();
            st = gk__apsp_graph_matrix(gr, &d);
            *host_matrix = gk_wtime() - t0;
            if (!st)
                st = settle_at_cap(g, d, V, &how, &down, &settle);
        }
    }
    gpu_close(g, sk);
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    rep->compute += settle;
    if (!use16) {
        *host = d;
        return st;
    }
    *host = d;
    return settle16(ctx, d, V, cfg, rep, sk, st, how);
}
#endif

gk_status gk_apsp_solve_graph_write(gk_context *ctx, gk_apsp_graph *gr, const gk_apsp_options *options,
                                    const char *path, gk_format format, gk_report *report, gk_apsp_write_report *wr)
{
    gk_apsp_options none = { 0, NULL, 0 };
    gk_apsp_write_report lwr;
    gk_report lrep;
    gk_report *rep = report ? report : &lrep;
    gk_status st;
    if (!wr) wr = &lwr;
    memset(wr, 0, sizeof *wr);
    if (!options) options = &none;
    if (!ctx || !gr)
        return gk__fail(GK_EINVAL, "gk_apsp_solve_graph_write: no %s", ctx ? "graph" : "context");
    gk__ctx_report_init(ctx, rep);
    if (!path)
        return gk__fail(GK_EINVAL, "gk_apsp_solve_graph_write: no output path");
    if (format != GK_FORMAT_AUTO && format != GK_FORMAT_NTHU && format != GK_FORMAT_NPY)   /* before the work */
        return gk__fail(GK_EINVAL, "%s: a distance matrix is written as nthu or npy, not %s", path,
                        gk_format_name(format));
    const int p = options->precision;
    int device = ctx->backend == GK_BACKEND_GPU && gr->edges && !options->check
                 && (p == 16 || p == 32 || (p == 0 && gr->max_arc < GK_APSP16_CAP));
#ifndef GK_HAVE_CUDA
    device = 0;
#endif
    if (!device) {
        /* the initial matrix on the host (once it is known to fit with the
         * rest of the solve), then gk_apsp_solve_write */
        int32_t *d = NULL;
        double t0 = gk_wtime();
        if ((st = host_memory_check(ctx, gr->name, gr->V, options)) || (st = gk__apsp_graph_matrix(gr, &d)))
            return st;
        double built = gk_wtime() - t0;
        st = gk_apsp_solve_write(ctx, d, gr->V, options, path, format, report, wr);
        wr->host_matrix = gr->edges ? built : 0;
        t0 = gk_wtime();
        free(d);
        wr->close += gk_wtime() - t0;
        return st;
    }
#ifdef GK_HAVE_CUDA
    gk_config cfg;
    if ((st = gk__ctx_config(ctx, "apsp", gr->V, options->config, &cfg, rep)))
        return st;
    apsp_sink sk;
    memset(&sk, 0, sizeof sk);
    sk.path = path;
    sk.format = format;
    sk.V = gr->V;
    int32_t *d = NULL;
    int threads = gk__ctx_threads_enter(ctx);
    st = solve_gpu_graph(ctx, gr, p, &cfg, rep, &sk, &wr->host_matrix, &d);
    gk__ctx_threads_leave(threads);
    wr->device_built = 1;
    sink_report(&sk, wr);
    if (!sk.done && !st) {
        double t0 = gk_wtime();
        st = gk_apsp_write_format(path, format, d, gr->V);
        wr->write = wr->wall = gk_wtime() - t0;
    }
    double t0 = gk_wtime();
    free(d);
    wr->close += gk_wtime() - t0;
    return st;
#else
    return gk__fail(GK_EINTERNAL, "gk_apsp_solve_graph_write: no CUDA");
#endif
}

/* ------------------------------------------------------------------ bench */

static gk_status bench_cpu(gk_context *ctx, int32_t n, gk_apsp_bench_row *row)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(int32_t);
    int32_t *a = NULL, *b = NULL;
    gk_status st;
    char what[96];
    snprintf(what, sizeof what, "bench apsp n = %d (3 n x n int32 matrices)", n);
    if ((st = gk_host_memory_check(3 * (uint64_t)bytes, what))
        || (st = gk__xmalloc((void **)&a, bytes, "the benchmark matrix"))
        || (st = gk__xmalloc((void **)&b, bytes, "the baseline's matrix"))
        || (st = gk_apsp_random_matrix(a, n, 0.3, 20261122, 1000)))
        goto out;
    memcpy(b, a, bytes);
    int threads = gk__ctx_threads_enter(ctx);
    double t0 = gk_wtime();
    st = gk__apsp_cpu(a, n);
    double t1 = gk_wtime();
    /* the 16-bit path on the initial matrix (b still holds it) */
    uint16_t *m16 = NULL;
    int32_t *c16 = NULL;
    int how = GK_APSP16_NOT_EXACT;
    double t16 = 0;
    if (!st && !(st = gk__xmalloc((void **)&m16, (size_t)n * (size_t)n * sizeof *m16, "the 16-bit result"))
        && !(st = gk__xmalloc((void **)&c16, bytes, "the 16-bit result, widened"))) {
        double s0 = gk_wtime();
        st = gk__apsp_cpu16(b, m16, n);
        t16 = gk_wtime() - s0;
        if (!st) st = gk__apsp16_resolve(b, m16, n, c16, &how);
    }
    free(m16);
    double t1b = gk_wtime();
    if (!st) st = gk__apsp_cpu_simple(b, n);
    double t2 = gk_wtime();
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
static gk_status bench_gpu(gk_context *ctx, int32_t n, const gk_config *cfg, gk_apsp_bench_row *row)
{
    gk_status st;
    gk_apsp_gpu *c = NULL;
    int32_t *init = NULL, *a = NULL, *b = NULL;
    size_t bytes = (size_t)n * (size_t)n * sizeof *init;
    float ms = 0, base_ms = 0;
    int saved = -1, entered = 0;
    char what[96];
    snprintf(what, sizeof what, "bench apsp n = %d (3 n x n int32 matrices)", n);
    if ((st = gk_host_memory_check(3 * (uint64_t)bytes, what))
        || (st = gk__xmalloc((void **)&init, bytes, "the benchmark matrix"))
        || (st = gk__xmalloc((void **)&a, bytes, "the kernel's result"))
        || (st = gk__xmalloc((void **)&b, bytes, "the baseline's result"))
        || (st = gk_apsp_random_matrix(init, n, 0.3, 20261122, 1000))
        || (st = gk__ctx_gpu_enter(ctx, &saved)))
        goto out;
    entered = 1;
    if ((st = gk__apsp_gpu_open(&c, &ctx->dev[0], (cudaStream_t)ctx->stream, n, cfg)))
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
        if (!(st = gk__apsp_gpu_open_bits(&c, &ctx->dev[0], (cudaStream_t)ctx->stream, n, cfg, 16))
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

gk_status gk_apsp_bench(gk_context *ctx, int32_t n, const char *config, gk_apsp_bench_row *row)
{
    gk_report rep;
    gk_config cfg;
    gk_status st;
    memset(row, 0, sizeof *row);
    row->n = n;
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk_apsp_bench: no context");
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
