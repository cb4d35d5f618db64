/* sssp.c - the front door of shortest paths from chosen sources
 * (gk/sssp.h): the arguments' rules, auto's choice (sssp_model.c), and the
 * rows computed by the CPU backend (sources over the threads), the GPU
 * backend (sources over the context's GPUs, one host thread each) or
 * Floyd-Warshall (the typed APSP front door on the whole matrix, the
 * sources' rows kept). */
#include "api/context.h"
#include "api/sssp_model.h"
#include "core/checked.h"
#include "cpu/sssp_cpu.h"
#include "gpu/sssp_gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef GK_HAVE_OPENMP
#include <omp.h>
#endif

void gk_sssp_options_init(gk_sssp_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->algorithm = GK_SSSP_AUTO;
    o->limit = INFINITY;
}

void gk_sssp_report_init(gk_sssp_report *r)
{
    if (!r) return;
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
    gk_report_init(&r->run);
    r->algorithm = GK_SSSP_AUTO;
    for (int i = 0; i < 5; i++) r->predicted[i] = -1;
    r->relaxations = -1;
    r->setup = -1;
}

static const struct { const char *name, *alias; } alg_names[] = {
    { "auto", "auto" }, { "fw", "FW" }, { "dijkstra", "D" }, { "johnson", "J" }, { "bellman-ford", "BF" }
};

gk_status gk_sssp_algorithm_parse(const char *text, gk_sssp_algorithm *out)
{
    for (int i = 0; text && i < 5; i++)
        if (!strcasecmp(text, alg_names[i].name) || !strcasecmp(text, alg_names[i].alias)) {
            if (out) *out = (gk_sssp_algorithm)i;
            return GK_OK;
        }
    if (text && !strcasecmp(text, "floyd-warshall")) {
        if (out) *out = GK_SSSP_FW;
        return GK_OK;
    }
    return gk__fail(GK_EINVAL, "algorithm '%s': want auto, fw, dijkstra, johnson or bellman-ford",
                    text ? text : "(null)");
}

const char *gk_sssp_algorithm_name(gk_sssp_algorithm a)
{
    return a >= GK_SSSP_AUTO && a <= GK_SSSP_BELLMAN_FORD ? alg_names[a].name : "unknown";
}

/* ---- what a run decided ---- */

typedef struct run_plan {
    gk_sssp_algorithm alg;
    int gpu;                 /* the GPU backend */
    int32_t *src;            /* the sources as int32 */
    gk__sssp_gpu *dev[GK_MAX_GPUS];   /* the graph on each GPU, uploaded once a run */
} run_plan;

static void plan_close(run_plan *p)
{
    for (int i = 0; i < GK_MAX_GPUS; i++) {
        gk__sssp_gpu_close(p->dev[i]);
        p->dev[i] = NULL;
    }
    free(p->src);
    p->src = NULL;
}

/* The bytes Floyd-Warshall needs (the V x V matrix, and predecessors) and
 * whether they fit: the host's memory (a quarter left free), and on the
 * GPU backend the first GPU's. */
static int fw_fits(const gk_context *ctx, const gk_graph *g, int preds, int gpu, uint64_t *need)
{
    uint64_t vv, b, p = 0;
    int over = gk__mul_u64((uint64_t)g->V, (uint64_t)g->V, &vv) || gk__mul_u64(vv, gk_dtype_size(g->dtype), &b)
               || (preds && gk__mul_u64(vv, 4, &p)) || b + p < b;
    *need = over ? UINT64_MAX : b + p;
    if (over || *need > gk__max_object_bytes()) return 0;
    uint64_t host = gk__phys_mem_bytes();
    if (host && (double)*need > 0.75 * (double)host) return 0;
    if (gpu && ctx->ngpus > 0 && (double)*need > 0.85 * (double)ctx->dev[0].total_mem) return 0;
    return 1;
}

/* The CPU threads a job of ctx runs on. */
static int cpu_threads(const gk_context *ctx)
{
    if (ctx->threads > 0) return ctx->threads;
#ifdef GK_HAVE_OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* The arguments' rules, auto's choice, the report's first fields. */
static gk_status prepare(gk_context *ctx, const gk_graph *g, const int64_t *sources, int64_t S,
                         const gk_sssp_options *o, int rows_api, gk_sssp_report *rep, run_plan *p, const char *fn)
{
    memset(p, 0, sizeof *p);
    if (!ctx) return gk__fail(GK_EINVAL, "%s: ctx is NULL", fn);
    if (!g) return gk__fail(GK_EINVAL, "%s: the graph is NULL", fn);
    if (S < 1) return gk__fail(GK_EINVAL, "%s: S = %lld: at least one source", fn, (long long)S);
    if (!sources) return gk__fail(GK_EINVAL, "%s: sources is NULL", fn);
    if (o->algorithm < GK_SSSP_AUTO || o->algorithm > GK_SSSP_BELLMAN_FORD)
        return gk__fail(GK_EINVAL, "%s: algorithm %d is not a gk_sssp_algorithm", fn, (int)o->algorithm);
    if (isnan(o->limit) || o->limit < 0)
        return gk__fail(GK_EINVAL, "%s: limit = %g: want a distance >= 0 (+inf: none)", fn, o->limit);
    if (o->limit < INFINITY && g->negative)
        return gk__fail(GK_EINVAL, "%s: limit needs non-negative weights (the graph has negative ones)", fn);
    if (rows_api && o->min_only)
        return gk__fail(GK_EINVAL, "%s: min_only makes one row: use gk_sssp_run", fn);
    if (o->config && *o->config) {    /* fw's kernels read it: checked whichever algorithm runs */
        gk_config full;
        gk_status cst = gk__config_validate("apsp", o->config, &full);
        if (cst) return cst;
    }
    for (int64_t i = 0; i < S; i++)
        if (sources[i] < 0 || sources[i] >= g->V)
            return gk__fail(GK_EINVAL, "%s: source %lld (position %lld) is outside [0, %ld)", fn,
                            (long long)sources[i], (long long)i, (long)g->V);
    p->gpu = ctx->backend == GK_BACKEND_GPU;
    uint64_t need;
    int fits = fw_fits(ctx, g, o->predecessors, p->gpu, &need);
    gk__sssp_rates rates;
    gk__sssp_rates_load(ctx->cache_dir, p->gpu ? ctx->dev[0].name : "cpu", &rates);
    gk__sssp_case c = { g->V, g->E, o->min_only ? 1 : S, g->degree_cv, g->negative, g->dtype, p->gpu,
                        p->gpu ? (o->min_only ? 1 : ctx->ngpus) : cpu_threads(ctx), fits, g->max_abs_w };
    char why[512];
    gk_sssp_algorithm best = gk__sssp_model(&c, &rates, rep->predicted, why, sizeof why);
    if (p->gpu && o->algorithm == GK_SSSP_AUTO) {
        /* a GPU runs one search per block: a few sources go faster on the
           CPU's threads, and a small Floyd-Warshall pays the GPU's set-up
           (the model of both, the cheaper backend) */
        gk__sssp_rates cr;
        gk__sssp_rates_load(ctx->cache_dir, "cpu", &cr);
        gk__sssp_case cc = c;
        cc.gpu = 0;
        cc.workers = cpu_threads(ctx);
        double cpred[5];
        char cwhy[512];
        gk_sssp_algorithm cbest = gk__sssp_model(&cc, &cr, cpred, cwhy, sizeof cwhy);
        const double gpu_best = rep->predicted[best];
        if (cpred[cbest] >= 0 && cpred[cbest] < gpu_best) {
            p->gpu = 0;
            best = cbest;
            memcpy(rep->predicted, cpred, sizeof cpred);
            snprintf(why, sizeof why, "%.400s; on the CPU: the GPU's best was %.3g s", cwhy, gpu_best);
            rep->run.backend = GK_BACKEND_CPU;
            snprintf(rep->run.device, sizeof rep->run.device, "CPU (%d threads)", cc.workers);
        }
    }
    p->alg = o->algorithm == GK_SSSP_AUTO ? best : o->algorithm;
    if (o->algorithm == GK_SSSP_AUTO)
        snprintf(rep->why, sizeof rep->why, "%s", why);
    else
        snprintf(rep->why, sizeof rep->why, "%s asked for", gk_sssp_algorithm_name(p->alg));
    if (p->alg == GK_SSSP_DIJKSTRA && g->negative)
        return gk__graph_refuse_negative(g);
    if (p->alg == GK_SSSP_FW && !fits) {
        char b[32];
        if (need == UINT64_MAX) snprintf(b, sizeof b, "more than 2^64 bytes");
        else gk__human_bytes((double)need, b, sizeof b);
        return gk__fail(GK_ENOMEM, "%s: fw needs the whole V x V %s matrix%s (%s for V = %ld), more than this "
                        "machine's memory allows; use --algorithm=auto or dijkstra", fn, gk_dtype_name(g->dtype),
                        o->predecessors ? " and its predecessors" : "", b, (long)g->V);
    }
    rep->algorithm = p->alg;
    rep->sources = S;
    if (!(p->src = malloc((size_t)S * sizeof *p->src)))
        return gk__fail(GK_ENOMEM, "%s: cannot allocate %lld sources", fn, (long long)S);
    for (int64_t i = 0; i < S; i++) p->src[i] = (int32_t)sources[i];
    return GK_OK;
}

/* ---- Floyd-Warshall: the whole matrix, the sources' rows ---- */

typedef struct fw_state {
    void *m;                 /* V x V */
    int32_t *pm;             /* V x V predecessors, or NULL */
} fw_state;

static gk_status fw_solve(gk_context *ctx, const gk_graph *g, const gk_sssp_options *o, int gpu, fw_state *f,
                          gk_sssp_report *rep)
{
    const int64_t V = g->V;
    const size_t es = gk_dtype_size(g->dtype);
    memset(f, 0, sizeof *f);
    double t0 = gk__wtime();
    f->m = malloc((size_t)(V * V) * es);
    if (o->predecessors) f->pm = malloc((size_t)(V * V) * sizeof *f->pm);
    if (!f->m || (o->predecessors && !f->pm)) {
        free(f->m); free(f->pm);
        return gk__fail(GK_ENOMEM, "fw: cannot allocate the V x V matrix (V = %lld)", (long long)V);
    }
    char inf[8];
    gk__graph_inf(g->dtype, inf);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < V; i++) {
        char *row = (char *)f->m + (size_t)(i * V) * es;
        for (int64_t j = 0; j < V; j++) memcpy(row + (size_t)j * es, i == j ? (const char[8]){ 0 } : inf, es);
        for (int64_t k = g->indptr[i]; k < g->indptr[i + 1]; k++)
            memcpy(row + (size_t)g->indices[k] * es, (const char *)g->w + (size_t)k * es, es);
    }
    rep->setup = gk__wtime() - t0;
    gk_apsp_problem prob;
    gk_apsp_problem_init(&prob, V);
    prob.dtype = g->dtype;
    gk_apsp_options ao;
    gk_apsp_options_init(&ao);
    ao.config = o->config;
    /* auto moved the job to the CPU: the GPU context's CPU twin runs it */
    gk_context *cpu = NULL;
    if (!gpu && ctx->backend == GK_BACKEND_GPU && !(cpu = gk__ctx_cpu_view(ctx))) {
        free(f->m); free(f->pm);
        memset(f, 0, sizeof *f);
        return GK_ENOMEM;
    }
    gk_status st = gk_apsp_run_paths(cpu ? cpu : ctx, &prob, f->m, f->pm, &ao, &rep->run);
    free(cpu);
    if (st) {
        free(f->m); free(f->pm);
        memset(f, 0, sizeof *f);
    }
    return st;
}

/* Rows i0 .. i0+n-1 of the sources out of the solved matrix (min_only:
 * the minimum over all sources, the first source on ties). */
static void fw_rows(const gk_graph *g, const fw_state *f, const int32_t *src, int64_t n, int min_only, double limit,
                    void *dist, int32_t *pred, int32_t *nearest)
{
    const int64_t V = g->V;
    const size_t es = gk_dtype_size(g->dtype);
    char inf[8];
    gk__graph_inf(g->dtype, inf);
    if (!min_only) {
        for (int64_t i = 0; i < n; i++) {
            memcpy((char *)dist + (size_t)(i * V) * es, (char *)f->m + (size_t)((int64_t)src[i] * V) * es,
                   (size_t)V * es);
            if (pred) memcpy(pred + i * V, f->pm + (int64_t)src[i] * V, (size_t)V * sizeof *pred);
        }
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t v = 0; v < V; v++) {
            int64_t best = -1;
            double bv = INFINITY;
            for (int64_t i = 0; i < n; i++) {
                const char *e = (const char *)f->m + (size_t)((int64_t)src[i] * V + v) * es;
                double x = gk__sssp_dist_get(e, g->dtype, 0);
                if (x < bv) { bv = x; best = i; }
            }
            char *out = (char *)dist + (size_t)v * es;
            if (best < 0) {
                memcpy(out, inf, es);
                if (pred) pred[v] = -1;
                if (nearest) nearest[v] = -1;
            } else {
                memcpy(out, (const char *)f->m + (size_t)((int64_t)src[best] * V + v) * es, es);
                if (pred) pred[v] = f->pm[(int64_t)src[best] * V + v];
                if (nearest) nearest[v] = src[best];
            }
        }
        n = 1;
    }
    if (limit < INFINITY)
        for (int64_t k = 0; k < n * V; k++) {
            const char *e = (const char *)dist + (size_t)k * es;
            double x = gk__sssp_dist_get(e, g->dtype, 0);
            if (x > limit && x < INFINITY) {
                memcpy((char *)dist + (size_t)k * es, inf, es);
                if (pred) pred[k] = -1;
                if (nearest && min_only) nearest[k] = -1;
            }
        }
}

/* ---- the CPU and GPU backends ---- */

static gk_status cpu_rows(gk_context *ctx, const gk_graph *g, gk_sssp_algorithm alg, const void *h, gk__sssp_job *j)
{
    j->threads = ctx->threads > 0 ? ctx->threads : 0;
    switch (alg) {
    case GK_SSSP_DIJKSTRA: return gk__sssp_cpu_dijkstra(j);
    case GK_SSSP_BELLMAN_FORD: return gk__sssp_cpu_bellman_ford(j);
    default:                 /* Johnson: the potential was made once per run */
        j->h = g->negative ? h : NULL;
        return gk__sssp_cpu_dijkstra(j);
    }
}

/* The GPU backend: the rows split into one contiguous block per GPU, one
 * host thread per GPU; GPU 0 runs on the context's stream. */
static gk_status gpu_rows(gk_context *ctx, const gk_graph *g, run_plan *p, const void *h,
                          const gk__sssp_job *j0, double *ms)
{
    const int ngpu = j0->min_only ? 1 : (int)(ctx->ngpus < j0->S ? ctx->ngpus : j0->S);
    const size_t es = gk_dtype_size(g->dtype);
    const int64_t V = g->V;
    gk_status st = GK_OK;
    char msg[512] = "";
    int saved;
    if ((st = gk__ctx_gpu_enter(ctx, &saved)))
        return st;
    void *stream0 = gk__ctx_stream(ctx);
    double slowest = 0;
#pragma omp parallel for num_threads(ngpu) schedule(static, 1) reduction(max : slowest)
    for (int i = 0; i < ngpu; i++) {
        int64_t a = j0->S * i / ngpu, b = j0->S * (i + 1) / ngpu;
        gk__sssp_job j = *j0;
        j.sources = j0->sources + a;
        j.S = b - a;
        if (!j0->min_only) {
            j.dist = (char *)j0->dist + (size_t)(a * V) * es;
            if (j0->pred) j.pred = j0->pred + a * V;
        } else {
            j.S = j0->S;
            j.sources = j0->sources;
        }
        j.h = p->alg == GK_SSSP_JOHNSON && g->negative ? h : NULL;
        double t = 0;
        gk_status s = p->dev[i] ? GK_OK : gk__sssp_gpu_open(g, ctx->gpus[i], i == 0 ? stream0 : NULL, NULL, &p->dev[i]);
        if (!s) s = gk__sssp_gpu_rows(p->dev[i], &j, &t);
        if (t > slowest) slowest = t;
#pragma omp critical(gk_sssp_gpu_fail)
        {
            if (s && !st) {
                st = s;
                snprintf(msg, sizeof msg, "%s", gk_last_error());
            }
            if (s == GK_ENEGCYCLE) ((gk__sssp_job *)j0)->cycle_vertex = j.cycle_vertex;
            ((gk__sssp_job *)j0)->relaxations += j.relaxations;
        }
    }
    gk__ctx_gpu_leave(saved);
    if (ms) *ms = slowest;
    if (st) return gk__fail(st, "%s", msg);
    return GK_OK;
}

/* Rows of n sources of the run into dist/pred/nearest, on the plan's
 * backend and algorithm (FW: from f). */
static gk_status rows(gk_context *ctx, const gk_graph *g, run_plan *p, const void *h, const fw_state *f,
                      const int32_t *src, int64_t n, const gk_sssp_options *o, void *dist, int32_t *pred,
                      int32_t *nearest, gk_sssp_report *rep)
{
    if (p->alg == GK_SSSP_FW) {
        fw_rows(g, f, src, n, o->min_only, o->limit, dist, pred, nearest);
        return GK_OK;
    }
    gk__sssp_job j = { .g = g, .sources = src, .S = n, .min_only = o->min_only, .limit = o->limit, .dist = dist,
                       .pred = o->predecessors ? pred : NULL, .nearest = nearest, .cycle_vertex = -1 };
    gk_status st;
    if (p->gpu) {
        double ms = 0;
        st = gpu_rows(ctx, g, p, h, &j, &ms);
    } else {
        st = cpu_rows(ctx, g, p->alg, h, &j);
    }
    if (rep->relaxations < 0) rep->relaxations = 0;
    rep->relaxations += j.relaxations;
    if (st == GK_ENEGCYCLE) rep->run.cycle_vertex = j.cycle_vertex;
    return st;
}

/* Johnson's potential, once per run (NULL for other algorithms and for
 * graphs without a negative weight). */
static gk_status potential(const gk_graph *g, const run_plan *p, void **h, gk_sssp_report *rep)
{
    *h = NULL;
    if (p->alg != GK_SSSP_JOHNSON || !g->negative) return GK_OK;
    double t0 = gk__wtime();
    int64_t cycle = -1;
    gk_status st = gk__sssp_cpu_potential(g, h, &cycle);
    rep->setup = gk__wtime() - t0;
    if (st == GK_ENEGCYCLE) rep->run.cycle_vertex = cycle;
    return st;
}

/* The report's struct, in and out, as gk_report's. */
static gk_status report_begin(gk_context *ctx, gk_sssp_report *report, gk_sssp_report *rep, const char *fn)
{
    gk_sssp_report_init(rep);
    if (ctx) gk__ctx_report_init(ctx, &rep->run);
    rep->run.cycle_vertex = -1;
    if (report && report->struct_size < offsetof(gk_sssp_report, setup) + sizeof report->setup)
        return gk__fail(GK_EINVAL, "%s: report->struct_size = %zu: initialise it with gk_sssp_report_init", fn,
                        report->struct_size);
    return GK_OK;
}

static void report_end(gk_sssp_report *report, gk_sssp_report *rep)
{
    if (!report) return;
    size_t keep = report->struct_size;
    memcpy(report, rep, sizeof *rep < keep ? sizeof *rep : keep);
    report->struct_size = keep;
}

static gk_status options_in(const gk_sssp_options *options, gk_sssp_options *o, const char *fn)
{
    gk_sssp_options_init(o);
    if (!options) return GK_OK;
    if (options->struct_size < sizeof *o)
        return gk__fail(GK_EINVAL, "%s: options->struct_size = %zu: initialise it with gk_sssp_options_init", fn,
                        options->struct_size);
    *o = *options;
    return GK_OK;
}

gk_status gk_sssp_run(gk_context *ctx, const gk_graph *g, const int64_t *sources, int64_t S,
                      const gk_sssp_options *options, void *dist, int32_t *pred, int32_t *nearest,
                      gk_sssp_report *report)
{
    const char *fn = "gk_sssp_run";
    gk__clear_error();
    gk_sssp_report rep;
    gk_sssp_options o;
    run_plan p = { 0 };
    fw_state f = { 0 };
    void *h = NULL;
    gk_status st;
    if ((st = report_begin(ctx, report, &rep, fn)) || (st = options_in(options, &o, fn)))
        return st;
    if (!dist) st = gk__fail(GK_EINVAL, "%s: dist is NULL", fn);
    else if (o.predecessors && !pred) st = gk__fail(GK_EINVAL, "%s: predecessors asked for, pred is NULL", fn);
    /* the rows are host memory (gk/sssp.h): a device pointer is refused by name */
    if (!st && ctx) st = gk__ctx_check_pointer(ctx, GK_MEMORY_HOST, dist, "dist");
    if (!st && ctx && pred) st = gk__ctx_check_pointer(ctx, GK_MEMORY_HOST, pred, "pred");
    if (!st && ctx && nearest && o.min_only) st = gk__ctx_check_pointer(ctx, GK_MEMORY_HOST, nearest, "nearest");
    if (!st) st = prepare(ctx, g, sources, S, &o, 0, &rep, &p, fn);
    int saved = st ? 0 : gk__ctx_threads_enter(ctx);
    double t0 = gk__wtime();
    if (!st) st = potential(g, &p, &h, &rep);
    if (!st && p.alg == GK_SSSP_FW) st = fw_solve(ctx, g, &o, p.gpu, &f, &rep);
    if (!st) st = rows(ctx, g, &p, h, &f, p.src, S, &o, dist, pred, o.min_only ? nearest : NULL, &rep);
    if (!st) {
        rep.run.compute = gk__wtime() - t0;
        rep.run.dtype = g->dtype;
    }
    if (p.src) gk__ctx_threads_leave(saved);
    free(f.m);
    free(f.pm);
    free(h);
    plan_close(&p);
    report_end(report, &rep);
    return st;
}

gk_status gk_sssp_run_rows(gk_context *ctx, const gk_graph *g, const int64_t *sources, int64_t S,
                           const gk_sssp_options *options, gk_sssp_sink sink, void *user, gk_sssp_report *report)
{
    const char *fn = "gk_sssp_run_rows";
    gk__clear_error();
    gk_sssp_report rep;
    gk_sssp_options o;
    run_plan p = { 0 };
    fw_state f = { 0 };
    void *h = NULL, *dist = NULL;
    int32_t *pred = NULL;
    gk_status st;
    if ((st = report_begin(ctx, report, &rep, fn)) || (st = options_in(options, &o, fn)))
        return st;
    if (!sink) st = gk__fail(GK_EINVAL, "%s: sink is NULL", fn);
    if (!st) st = prepare(ctx, g, sources, S, &o, 1, &rep, &p, fn);
    int saved = st ? 0 : gk__ctx_threads_enter(ctx);
    const int64_t V = g ? g->V : 1;
    const size_t row_bytes = (size_t)V * gk_dtype_size(g ? g->dtype : GK_DTYPE_INT32) +
                             (o.predecessors ? (size_t)V * 4 : 0);
    int64_t chunk = o.chunk_rows > 0 ? o.chunk_rows : (int64_t)((256u << 20) / row_bytes);
    if (chunk < 1) chunk = 1;
    if (chunk > S) chunk = S;
    /* a GPU runs about a thousand searches at once (sssp.cu): chunks of
       8192 rows a GPU keep it full with little tail per chunk, within 4 GiB
       of rows */
    if (!st && p.gpu && !o.chunk_rows && chunk < S) {
        int64_t want = 8192 * (int64_t)ctx->ngpus, room = (int64_t)((UINT64_C(4) << 30) / row_bytes);
        if (want > room) want = room;
        if (chunk < want) chunk = want < S ? want : S;
    }
    if (!st && (!(dist = malloc((size_t)chunk * row_bytes))))
        st = gk__fail(GK_ENOMEM, "%s: cannot allocate %lld rows of %zu bytes", fn, (long long)chunk, row_bytes);
    if (!st && o.predecessors) pred = (int32_t *)((char *)dist + (size_t)chunk * (size_t)V * gk_dtype_size(g->dtype));
    double t0 = gk__wtime(), in_sink = 0;
    if (!st) st = potential(g, &p, &h, &rep);
    if (!st && p.alg == GK_SSSP_FW) st = fw_solve(ctx, g, &o, p.gpu, &f, &rep);
    for (int64_t first = 0; !st && first < S; first += chunk) {
        int64_t n = S - first < chunk ? S - first : chunk;
        st = rows(ctx, g, &p, h, &f, p.src + first, n, &o, dist, pred, NULL, &rep);
        double ts = gk__wtime();
        if (!st) {
            st = sink(user, first, n, dist, pred);
            if (st && !*gk_last_error()) gk__fail(st, "%s: the sink failed at row %lld", fn, (long long)first);
        }
        in_sink += gk__wtime() - ts;
    }
    if (!st) {
        rep.run.compute = gk__wtime() - t0 - in_sink;
        rep.run.dtype = g->dtype;
    }
    if (p.src) gk__ctx_threads_leave(saved);
    free(f.m);
    free(f.pm);
    free(h);
    free(dist);
    plan_close(&p);
    report_end(report, &rep);
    return st;
}
