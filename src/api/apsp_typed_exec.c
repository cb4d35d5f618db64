/* apsp_typed_exec.c - the APSP front door's typed paths (issue 24): int64,
 * float32 and float64 distances, negative weights, predecessors.  The
 * entries are scanned for the type's rules first, then the backend of the
 * context runs (A's gk__apsp_cpu_run, B's typed GPU kernels), then the
 * optional check: exact for integers, within the documented tolerance for
 * floats against the plain CPU loop (another order), bit for bit between
 * the GPU and the blocked CPU code (the same tile). */
#include "api/apsp_plan.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the scan found: negative entries, the largest finite |entry|. */
typedef struct {
    int neg;
    double max_abs;          /* floats, and integers converted */
    int64_t max_abs_i;       /* integers */
} scan_result;

static gk_status bad_entry(int64_t k, int32_t V, const char *what)
{
    return gk__fail(GK_EINVAL, "APSP: entry (%lld, %lld) %s", (long long)(k / V), (long long)(k % V), what);
}

/* The rules of section 1 of the contract: ints in [-INF, INF]; floats not
 * NaN, not -inf (-0.0 becomes +0.0 in place, as the readers make it). */
static gk_status scan(void *dist, int32_t V, gk_dtype t, scan_result *r)
{
    const int64_t nn = (int64_t)V * V;
    int64_t bad = nn;
    memset(r, 0, sizeof *r);
    if (t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64) {
        const int64_t inf = gk__apsp_inf_i64(t);
        int neg = 0;
        int64_t m = 0;
        if (t == GK_DTYPE_INT32) {
            const int32_t *d = dist;
#pragma omp parallel for reduction(min : bad) reduction(max : m, neg) schedule(static)
            for (int64_t i = 0; i < nn; i++) {
                int64_t v = d[i];
                if ((v > inf || v < -inf) && i < bad) bad = i;
                if (v < 0) neg = 1;
                if (v < inf && (v < 0 ? -v : v) > m) m = v < 0 ? -v : v;
            }
        } else {
            const int64_t *d = dist;
#pragma omp parallel for reduction(min : bad) reduction(max : m, neg) schedule(static)
            for (int64_t i = 0; i < nn; i++) {
                int64_t v = d[i];
                if ((v > inf || v < -inf) && i < bad) bad = i;
                if (v < 0) neg = 1;
                if (v < inf && (v < 0 ? -v : v) > m) m = v < 0 ? -v : v;
            }
        }
        if (bad < nn) {
            int64_t v = t == GK_DTYPE_INT32 ? ((int32_t *)dist)[bad] : ((int64_t *)dist)[bad];
            char msg[128];
            snprintf(msg, sizeof msg, "= %lld is outside [-%lld, %lld] (%s)", (long long)v, (long long)inf,
                     (long long)inf, gk_dtype_name(t));
            return bad_entry(bad, V, msg);
        }
        r->neg = neg;
        r->max_abs_i = m;
        r->max_abs = (double)m;
        return GK_OK;
    }
    int neg = 0;
    double m = 0;
    int64_t nan_at = nn, ninf_at = nn;
#define FSCAN(T)                                                                                    \
    {                                                                                               \
        T *d = dist;                                                                                \
        _Pragma("omp parallel for reduction(min : nan_at, ninf_at) reduction(max : m, neg) schedule(static)") \
        for (int64_t i = 0; i < nn; i++) {                                                          \
            T v = d[i];                                                                             \
            if (isnan(v)) { if (i < nan_at) nan_at = i; continue; }                                 \
            if (v == 0) { d[i] = 0; continue; }   /* -0.0 -> +0.0 */                                \
            if (isinf(v)) { if (v < 0 && i < ninf_at) ninf_at = i; continue; }                      \
            if (v < 0) neg = 1;                                                                     \
            if (fabs((double)v) > m) m = fabs((double)v);                                           \
        }                                                                                           \
    }
    if (t == GK_DTYPE_FLOAT32)
        FSCAN(float)
    else
        FSCAN(double)
#undef FSCAN
    if (nan_at < nn || ninf_at < nn)
        return bad_entry(nan_at < ninf_at ? nan_at : ninf_at, V,
                         nan_at < ninf_at ? "is NaN" : "is -inf (+inf is the only infinity: no edge)");
    r->neg = neg;
    r->max_abs = m;
    return GK_OK;
}

/* Integers with negative weights are exact while (V - 1) * max|w| < INF/2
 * (no INF guard in the inner loops then): refused before the solve. */
static gk_status int_bound(int32_t V, gk_dtype t, const scan_result *r)
{
    if (!r->neg || V < 2 || (t != GK_DTYPE_INT32 && t != GK_DTYPE_INT64))
        return GK_OK;
    const int64_t half = gk__apsp_inf_i64(t) / 2;
    if (r->max_abs_i <= (half - 1) / (V - 1))
        return GK_OK;
    return gk__fail(GK_EINVAL, "APSP: %s distances with negative weights need (V - 1) * max|w| < %lld; "
                    "V = %d and max|w| = %lld exceed it%s", gk_dtype_name(t), (long long)half, V,
                    (long long)r->max_abs_i, t == GK_DTYPE_INT32 ? " (use int64)" : "");
}

/* The documented float tolerance: 2 (V - 1)^2 u max|w|. */
static double float_tolerance(int32_t V, gk_dtype t, double max_abs)
{
    double u = t == GK_DTYPE_FLOAT32 ? ldexp(1.0, -24) : ldexp(1.0, -53);
    double n1 = V > 1 ? (double)(V - 1) : 0;
    return 2 * n1 * n1 * u * max_abs;
}

static double get(const void *d, int64_t k, gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)d)[k];
    case GK_DTYPE_INT64: return (double)((const int64_t *)d)[k];
    case GK_DTYPE_FLOAT32: return ((const float *)d)[k];
    default: return ((const double *)d)[k];
    }
}

static int unreachable(const void *d, int64_t k, gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)d)[k] == GK_APSP_INF;
    case GK_DTYPE_INT64: return ((const int64_t *)d)[k] == GK_APSP_INF64;
    default: return isinf(get(d, k, t));
    }
}

/* got against want: integers equal; floats equal in reachability and
 * within tol (tol 0: bit for bit). */
static gk_status compare(const void *got, const void *want, int32_t V, gk_dtype t, double tol, const char *what,
                         double *max_diff)
{
    const int64_t nn = (int64_t)V * V;
    const size_t es = gk_dtype_size(t);
    int64_t diff = 0, first = -1;
    double md = 0;
    for (int64_t k = 0; k < nn; k++) {
        if (!memcmp((const char *)got + k * es, (const char *)want + k * es, es))
            continue;
        int ok = 0;
        if ((t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64) && tol > 0 && !unreachable(got, k, t)
            && !unreachable(want, k, t)) {
            double e = fabs(get(got, k, t) - get(want, k, t));
            if (e > md) md = e;
            ok = e <= tol;
        }
        if (!ok) {
            if (first < 0) first = k;
            diff++;
        }
    }
    if (max_diff) *max_diff = md;
    if (!diff)
        return GK_OK;
    return gk__fail(GK_EMISMATCH, "%s: %lld of %lld %s entries differ%s; first (%lld, %lld): %.17g, not %.17g", what,
                    (long long)diff, (long long)nn, gk_dtype_name(t), tol > 0 ? " beyond the tolerance" : "",
                    (long long)(first / V), (long long)(first % V), get(got, first, t), get(want, first, t));
}

/* Every predecessor: following pred from j back to i sums the initial
 * weights w0 to dist[i][j] (within tol), pred[i][i] and unreachable pairs
 * hold GK_APSP_NO_PRED. */
static gk_status check_pred(const void *dist, const int32_t *pred, const void *w0, int32_t V, gk_dtype t, double tol)
{
    int64_t bad = -1;
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t i = 0; i < V; i++) {
        for (int64_t j = 0; j < V; j++) {
            if (bad >= 0) break;
            int64_t k = i * V + j;
            int ok;
            if (i == j || unreachable(dist, k, t)) {
                ok = pred[k] == GK_APSP_NO_PRED;
            } else {
                double sum = 0;
                int64_t v = j, steps = 0;
                while (v != i && steps <= V) {
                    int32_t p = pred[i * V + v];
                    if (p < 0 || p >= V) break;
                    sum += get(w0, (int64_t)p * V + v, t);
                    v = p;
                    steps++;
                }
                ok = v == i && fabs(sum - get(dist, k, t)) <= tol;
            }
            if (!ok) {
#pragma omp critical
                if (bad < 0 || k < bad) bad = k;
            }
        }
    }
    if (bad < 0)
        return GK_OK;
    return gk__fail(GK_EMISMATCH, "check: the predecessors of (%lld, %lld) do not lead back along a path of "
                    "length %.17g", (long long)(bad / V), (long long)(bad % V), get(dist, bad, t));
}

static gk_status cycle_fail(gk_report *rep, int64_t v)
{
    rep->cycle_vertex = v;
    return gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)v);
}

#ifdef GK_HAVE_CUDA
static gk_status typed_gpu(gk_apsp_plan *p, gk_apsp_gpu **out)
{
    gk_context *ctx = p->head.ctx;
    if (!p->gt) {
        gk_apsp_gpu *g = NULL;
        gk_status st = gk__apsp_gpu_open_typed(&g, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), p->V, p->dtype,
                                               p->pred, &p->head.cfg);
        if (st)
            return st;
        p->gt = g;
    }
    *out = p->gt;
    gk__apsp_gpu_set_stream(*out, (cudaStream_t)gk__ctx_stream(ctx));
    return GK_OK;
}

static gk_status solve_gpu_typed(gk_apsp_plan *p, void *dist, int32_t *pred, gk_report *rep, int64_t *cycle)
{
    gk_apsp_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    int saved;
    gk_status st = gk__ctx_gpu_enter(p->head.ctx, &saved);
    if (st) return st;
    if (!(st = typed_gpu(p, &g)) && !(st = gk__apsp_gpu_upload_typed(g, dist, &up))
        && !(st = gk__apsp_gpu_run_typed(g, &run)) && !(st = gk__apsp_gpu_cycle(g, cycle)) && *cycle < 0)
        st = gk__apsp_gpu_download_typed(g, dist, pred, &down);
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    return st;
}
#endif

gk_status gk__apsp_exec_typed(gk_apsp_plan *p, void *dist, int32_t *pred, gk_report *rep)
{
    gk_context *ctx = p->head.ctx;
    const int32_t V = p->V;
    const gk_dtype t = p->dtype;
    const size_t es = gk_dtype_size(t);
    const int64_t nn = (int64_t)V * V;
    const int gpu = ctx->backend == GK_BACKEND_GPU;
    const int isfloat = t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64;
    scan_result sr;
    gk_status st;
    void *ref = NULL;
    int32_t *refpred = NULL;
    int64_t cycle = -1;
    rep->dtype = t;
    rep->cycle_vertex = -1;
    if ((st = scan(dist, V, t, &sr)) || (st = int_bound(V, t, &sr)))
        return st;
    if ((st = gk__apsp_host_memory_check(p, "APSP")))
        return st;
    rep->precision = (int)(8 * es);
    snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s%s%s", gk_dtype_name(t),
             sr.neg ? ", negative weights" : "", pred ? ", predecessors" : "");
    if (p->head.check) {
        if ((st = gk__xmalloc(&ref, (size_t)nn * es, "the check's copy of the matrix")))
            return st;
        memcpy(ref, dist, (size_t)nn * es);
    }
    int threads = gk__ctx_threads_enter(ctx);
    double t0 = gk__wtime();
    if (pred && !gpu)
        gk__apsp_pred_init(dist, V, V, t, pred, V);
    if (gpu) {
#ifdef GK_HAVE_CUDA
        st = solve_gpu_typed(p, dist, pred, rep, &cycle);
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    } else {
        st = gk__apsp_cpu_run(dist, V, t, pred, ctx->cpu_isa, &cycle);
        rep->compute = gk__wtime() - t0;
    }
    if ((st == GK_ENEGCYCLE || (st == GK_OK && cycle >= 0)))
        st = cycle_fail(rep, cycle);
    if (!st && ref) {
        /* GPU: the blocked CPU code, the same tile: the same bits (and the
           same predecessors); CPU: the plain loop, another order */
        double tol = isfloat && !gpu ? float_tolerance(V, t, sr.max_abs) : 0, md = 0;
        double c0 = gk__wtime();
        if (pred && (st = check_pred(dist, pred, ref, V, t, isfloat ? float_tolerance(V, t, sr.max_abs) : 0)))
            goto done;
        if (gpu && pred && (st = gk__xmalloc((void **)&refpred, (size_t)nn * sizeof *refpred, "the check's predecessors")))
            goto done;
        if (refpred)
            gk__apsp_pred_init(ref, V, V, t, refpred, V);
        int64_t c2 = -1;
        st = gpu ? gk__apsp_cpu_run(ref, V, t, refpred, ctx->cpu_isa, &c2) : gk__apsp_cpu_plain(ref, V, t, NULL, &c2);
        if (st == GK_ENEGCYCLE)
            st = gk__fail(GK_EMISMATCH, "check: the %s finds a negative cycle through vertex %lld, the run none",
                          gpu ? "blocked CPU code" : "plain CPU loop", (long long)c2);
        if (!st)
            st = compare(dist, ref, V, t, tol, gpu ? "check: GPU vs CPU" : "check: blocked vs plain CPU loop", &md);
        if (!st && refpred && memcmp(pred, refpred, (size_t)nn * sizeof *pred))
            st = gk__fail(GK_EMISMATCH, "check: GPU vs CPU: the predecessor matrices differ");
        rep->check = gk__wtime() - c0;
        snprintf(rep->check_against, sizeof rep->check_against, "%s",
                 gpu ? "the blocked CPU code" : "the plain CPU k-i-j loop");
        rep->check_max_abs = md;
        rep->check_tolerance = tol;
        rep->checked = st == GK_OK;
    }
done:
    gk__ctx_threads_leave(threads);
    free(ref);
    free(refpred);
    return st;
}

gk_status gk__apsp_exec_device_typed(gk_apsp_plan *p, void *dist, int32_t *pred, gk_report *rep)
{
    rep->dtype = p->dtype;
    rep->cycle_vertex = -1;
    rep->precision = (int)(8 * gk_dtype_size(p->dtype));
    snprintf(rep->precision_detail, sizeof rep->precision_detail, "%s (device memory)", gk_dtype_name(p->dtype));
#ifdef GK_HAVE_CUDA
    gk_apsp_gpu *g = NULL;
    int64_t cycle = -1;
    int saved;
    gk_status st = gk__ctx_gpu_enter(p->head.ctx, &saved);
    if (st) return st;
    if (!(st = typed_gpu(p, &g)) && !(st = gk__apsp_gpu_exec_device_typed(g, dist, p->ld, pred, p->ld))
        && p->negative)
        st = gk__apsp_gpu_cycle(g, &cycle);   /* waits for the stream */
    gk__ctx_gpu_leave(saved);
    if (!st && cycle >= 0)
        st = cycle_fail(rep, cycle);
    return st;
#else
    (void)dist; (void)pred;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}
