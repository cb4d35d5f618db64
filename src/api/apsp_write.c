/* apsp_write.c - what `gk apsp` does beyond gk_apsp_plan_execute (for the
 * commands only, src/api/commands.h): the result written while it comes
 * back from the GPU, and a graph solved from its edge list without a
 * V x V matrix on the host. */
#include "api/apsp_plan.h"
#include "api/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the sink measured, into the caller's write report (overlapped: the
 * result was written while it came back). */
static void sink_report(const gk__apsp_sink *sk, gk__apsp_write_report *wr)
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

static gk_status check_output(const char *path, gk_format format)
{
    if (!path)
        return gk__fail(GK_EINVAL, "no output path");
    if (format != GK_FORMAT_AUTO && format != GK_FORMAT_NTHU && format != GK_FORMAT_NPY)   /* before the work */
        return gk__fail(GK_EINVAL, "%s: a distance matrix is written as nthu or npy, not %s", path,
                        gk_format_name(format));
    return GK_OK;
}

/* The plan is ctx's and made for host memory of V vertices. */
static gk_status check_plan(gk_context *ctx, gk_apsp_plan *plan, int32_t V, const char *fn)
{
    gk_status st = gk__plan_check(plan ? &plan->head : NULL, ctx, fn);
    if (st)
        return st;
    if (plan->head.memory != GK_MEMORY_HOST || plan->V != V)
        return gk__fail(GK_EINVAL, "%s: the plan is for %d vertices in %s memory, not %d in host memory", fn,
                        plan->V, gk_memory_name(plan->head.memory), V);
    return GK_OK;
}

gk_status gk__apsp_run_write(gk_context *ctx, gk_apsp_plan *plan, int32_t *dist, const char *path, gk_format format,
                             gk_report *report, gk__apsp_write_report *wr)
{
    gk__apsp_write_report local;
    gk_report lrep;
    gk_report *rep = report ? report : &lrep;
    gk_status st;
    if (!wr) wr = &local;
    memset(wr, 0, sizeof *wr);
    if ((st = check_plan(ctx, plan, plan ? plan->V : 0, "gk__apsp_run_write")) || (st = check_output(path, format)))
        return st;
    gk__apsp_sink sk;
    memset(&sk, 0, sizeof sk);
    sk.path = path;
    sk.format = format;
    sk.V = plan->V;
    sk.no_stream = plan->head.check;   /* the output only once the check passed */
    *rep = plan->head.base;
    st = gk__apsp_exec_host(plan, dist, rep, &sk);
    wr->scan = sk.scan;
    sink_report(&sk, wr);
    if (sk.done || st)
        return st;
    double t0 = gk__wtime();
    st = gk__apsp_write_format32(path, format, dist, plan->V);
    wr->write = wr->wall = gk__wtime() - t0;
    return st;
}

/* ------------------------------------------- from the edge list (graph) */

#ifdef GK_HAVE_CUDA
static gk_status sink_direct(void *arg, const int32_t *rows, int64_t r0, int64_t m)
{
    gk__apsp_sink *sk = arg;
    (void)r0;
    double t0 = gk__wtime();
    gk_status st = gk__out_write(&sk->o, rows, (size_t)m * (size_t)sk->V * sizeof(int32_t));
    sk->calls += gk__wtime() - t0;
    return st;
}

/* The result written to the sink's output straight from the pinned
 * download buffers, chunk by chunk while the next one comes down (*down:
 * the milliseconds outside the write calls: waiting for a copy). */
static gk_status gpu_write_direct(gk_apsp_gpu *g, gk__apsp_sink *sk, float *down)
{
    double t0 = gk__wtime();
    sk->done = 1;
    sk->calls = 0;
    gk_status st = gk__apsp_out_open(&sk->o, sk->path, sk->format, sk->V);
    sk->calls += gk__wtime() - t0;
    if (!st) {
        st = gk__apsp_gpu_download_rows(g, NULL, sink_direct, sk);
        double t1 = gk__wtime();
        st = gk__out_close(&sk->o, st);   /* commits, or removes the temp file */
        sk->calls += gk__wtime() - t1;
    }
    sk->wall = gk__wtime() - t0;
    *down = (float)((sk->wall - sk->calls) * 1e3);
    return st;
}

/* The initial matrix made on the GPU from the edges, the lanes' choice and
 * the settling as a host execution makes them; written by the sink unless
 * the result ends in *host (a 16-bit result at its cap, settled on the
 * host from the initial matrix built there: the caller writes it). */
static gk_status solve_gpu_graph(gk_apsp_plan *p, gk__apsp_graph *gr, gk_report *rep, gk__apsp_sink *sk,
                                 double *host_matrix, int32_t **host)
{
    const int32_t V = gr->V;
    const int use16 = p->precision != 32;   /* auto comes here only with every edge below the cap */
    gk_apsp_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    double settle = 0;
    int32_t *d = NULL;
    int64_t at_cap = 0;
    int how = GK_APSP16_NOT_EXACT, saved;
    *host = NULL;
    rep->precision = 32;
    snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s", "32-bit, as asked");
    gk_status st = gk__ctx_gpu_enter(p->head.ctx, &saved);
    if (st) return st;
    if (!(st = gk__apsp_plan_gpu(p, use16 ? 16 : 32, &g))
        && !(st = gk__apsp_gpu_build(g, gr->edges, gr->E, gr->undirected, &up)) && !(st = gk__apsp_gpu_run(g, &run))
        && !(use16 && (st = gk__apsp_gpu_count_cap(g, &at_cap)))) {
        if (at_cap == 0) {
            if (!(st = gpu_write_direct(g, sk, &down)))
                how = GK_APSP16_NO_CAP;
        } else {
            double t0 = gk__wtime();
            st = gk__apsp_graph_matrix(gr, &d);
            *host_matrix = gk__wtime() - t0;
            if (!st)
                st = gk__apsp_settle_at_cap(g, d, V, &how, &down, &settle);
        }
    }
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    rep->compute += settle;
    *host = d;
    if (!use16)
        return st;
    return gk__apsp_settle16(p, d, rep, sk, st, how);
}
#endif

gk_status gk__apsp_graph_run_write(gk_context *ctx, gk_apsp_plan *p, gk__apsp_graph *gr, const char *path,
                                   gk_format format, gk_report *report, gk__apsp_write_report *wr)
{
    gk__apsp_write_report lwr;
    gk_report lrep;
    gk_report *rep = report ? report : &lrep;
    gk_status st;
    if (!wr) wr = &lwr;
    memset(wr, 0, sizeof *wr);
    if (!gr)
        return gk__fail(GK_EINVAL, "gk__apsp_graph_run_write: no graph");
    if ((st = check_plan(ctx, p, gr->V, "gk__apsp_graph_run_write")) || (st = check_output(path, format)))
        return st;
    *rep = p->head.base;
    const int prec = p->precision;
    int device = ctx->backend == GK_BACKEND_GPU && gr->edges && !p->head.check
                 && (prec == 16 || prec == 32 || (prec == 0 && gr->max_arc < GK_APSP16_CAP));
#ifndef GK_HAVE_CUDA
    device = 0;
#endif
    if (!device) {
        /* the initial matrix on the host (once it is known to fit with the
         * rest of the solve), then gk__apsp_run_write */
        int32_t *d = NULL;
        double t0 = gk__wtime();
        if ((st = gk__apsp_host_memory_check(p, gr->name)) || (st = gk__apsp_graph_matrix(gr, &d)))
            return st;
        double built = gk__wtime() - t0;
        st = gk__apsp_run_write(ctx, p, d, path, format, report, wr);
        wr->host_matrix = gr->edges ? built : 0;
        t0 = gk__wtime();
        free(d);
        wr->close += gk__wtime() - t0;
        return st;
    }
#ifdef GK_HAVE_CUDA
    gk__apsp_sink sk;
    memset(&sk, 0, sizeof sk);
    sk.path = path;
    sk.format = format;
    sk.V = gr->V;
    int32_t *d = NULL;
    int threads = gk__ctx_threads_enter(ctx);
    st = solve_gpu_graph(p, gr, rep, &sk, &wr->host_matrix, &d);
    gk__ctx_threads_leave(threads);
    wr->device_built = 1;
    sink_report(&sk, wr);
    if (!sk.done && !st) {
        double t0 = gk__wtime();
        st = gk__apsp_write_format32(path, format, d, gr->V);
        wr->write = wr->wall = gk__wtime() - t0;
    }
    double t0 = gk__wtime();
    free(d);
    wr->close += gk__wtime() - t0;
    return st;
#else
    return gk__fail(GK_EINTERNAL, "gk__apsp_graph_run_write: no CUDA");
#endif
}
