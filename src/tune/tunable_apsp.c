/* tunable_apsp.c - APSP as a tunable kernel (worker side): timing on a
 * random dense graph, validation against the CPU on an odd size (the int32
 * kernel, and the typed kernels of the same configuration -- float32,
 * float64, int32 / float32 / float64 with predecessors, their APSPX_*
 * shapes -- bit for bit against gk__apsp_cpu_run: same tile 64, same bits), and
 * verification of a winner at its target size against the built-in kernel
 * (itself validated against the CPU by the test suite): a CPU solve at
 * n = 16384 would take longer than the whole tuning budget. */
#include "tune/apsp_tune.h"
#include "gpu/apsp_gpu.h"
#include "cpu/apsp_cpu.h"

#include "core/apsp_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* The random input stays between requests: the worker measures many
 * configurations of one size in a row.  Process-wide on purpose: the
 * worker process (gktune --worker, one request at a time on one thread)
 * alone calls the measure/validate/verify functions (see device.c). */
static struct { int32_t *m; int32_t n; uint64_t seed; } input;

gk_status gk__apsp_tune_input(int32_t n, uint64_t seed, const int32_t **out)
{
    if (!input.m || input.n != n || input.seed != seed) {
        free(input.m);
        input.m = NULL;
        gk_status st = gk__xmalloc((void **)&input.m, (size_t)n * (size_t)n * sizeof(int32_t), "the tuning input");
        if (st) return st;
        if ((st = gk_apsp_random_matrix(input.m, n, 0.25, seed, MAX_W))) return st;
        input.n = n;
        input.seed = seed;
    }
    *out = input.m;
    return GK_OK;
}

/* GPU solve of `in` with cfg into out (host, n*n). */
static gk_status solve(const int32_t *in, int32_t n, const gk_config *cfg, int32_t *out)
{
    gk_apsp_gpu *ctx = NULL;
    float ms;
    gk__tune_offer_again();
    gk_status st = gk__apsp_gpu_open(&ctx, gk__tune_device(), NULL, n, cfg);
    if (!st) st = gk__apsp_gpu_upload(ctx, in, &ms);
    if (!st) st = gk__apsp_gpu_run(ctx, &ms);
    if (!st) st = gk__apsp_gpu_download(ctx, out, &ms);
    gk__apsp_gpu_close(ctx);
    return st;
}

static gk_status gk__apsp_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps,
                                       double *med, double *min)
{
    const int32_t *in;
    gk_apsp_gpu *ctx = NULL;
    double ms[64];
    if (reps < 1 || reps > 64) reps = 3;
    gk_status st = gk__apsp_tune_input((int32_t)size, seed, &in);
    gk__tune_offer_again();
    if (!st) st = gk__apsp_gpu_open(&ctx, gk__tune_device(), NULL, (int32_t)size, cfg);
    for (int r = -1; r < reps && !st; r++) {       /* r = -1: warm-up */
        float up, run;
        st = gk__apsp_gpu_upload(ctx, in, &up);      /* same input every time */
        if (!st) st = gk__apsp_gpu_run(ctx, &run);
        if (!st && r >= 0) ms[r] = run;
    }
    gk__apsp_gpu_close(ctx);
    if (!st) *med = gk__median(ms, reps, min);
    return st;
}

void gk__apsp_tune_to_type(const int32_t *in, int64_t nn, gk_dtype t, void *out)
{
    for (int64_t i = 0; i < nn; i++) {
        const int inf = in[i] == GK_APSP_INF;
        const double w = in[i] / 8.0 + in[i] / 1024.0;
        switch (t) {
        case GK_DTYPE_INT32: ((int32_t *)out)[i] = in[i]; break;
        case GK_DTYPE_INT64: ((int64_t *)out)[i] = inf ? GK_APSP_INF64 : in[i]; break;
        case GK_DTYPE_FLOAT32: ((float *)out)[i] = inf ? (float)INFINITY : (float)w; break;
        default: ((double *)out)[i] = inf ? (double)INFINITY : w; break;
        }
    }
}

/* Vertex potentials in [0, 400] (weights are at least 1: some edges turn
 * negative, every cycle keeps its length). */
static int64_t potential(int64_t v)
{
    return (int64_t)(((uint64_t)v * 2654435761u) % 401u);
}

/* (i, j) += p(i) - p(j) on every edge of the n x n matrix m of type t */
static void reweight(void *m, int32_t n, gk_dtype t)
{
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            const int64_t k = i * n + j, d = potential(i) - potential(j);
            if (i == j) continue;
            switch (t) {
            case GK_DTYPE_INT32: if (((int32_t *)m)[k] != GK_APSP_INF) ((int32_t *)m)[k] += (int32_t)d; break;
            case GK_DTYPE_INT64: if (((int64_t *)m)[k] != GK_APSP_INF64) ((int64_t *)m)[k] += d; break;
            case GK_DTYPE_FLOAT32: ((float *)m)[k] += (float)d / 8; break;      /* (+inf stays) */
            default: ((double *)m)[k] += (double)d / 8; break;
            }
        }
}

gk_status gk__apsp_tune_validate_typed(const int32_t *in, int32_t n, gk_dtype t, int pred, int negative,
                                       const gk_config *cfg)
{
    const size_t nn = (size_t)n * (size_t)n, es = gk_dtype_size(t);
    char *buf = NULL;
    gk_status st = gk__xmalloc((void **)&buf, 2 * nn * es + 2 * nn * sizeof(int32_t), "typed validation");
    if (st) return st;
    void *ref = buf, *got = buf + nn * es;
    int32_t *pref = (int32_t *)(buf + 2 * nn * es), *pgot = pref + nn;
    int64_t cycle = -1, gcycle = -1;
    gk__apsp_tune_to_type(in, (int64_t)nn, t, ref);
    if (negative)
        reweight(ref, n, t);
    memcpy(got, ref, nn * es);
    if (pred)
        gk__apsp_pred_init(ref, n, n, t, pref, n);
    memset(pgot, 0x5a, nn * sizeof(int32_t));
    st = gk__apsp_cpu_run(ref, n, t, pred ? pref : NULL, GK_CPU_ISA_AUTO, &cycle);
    gk_apsp_gpu *ctx = NULL;
    float ms;
    gk__tune_offer_again();        /* (one load per type: the request's variant each time) */
    if (!st) st = gk__apsp_gpu_open_typed(&ctx, gk__tune_device(), NULL, n, t, pred, cfg);
    if (!st) st = gk__apsp_gpu_upload_typed(ctx, got, &ms);
    if (!st) st = gk__apsp_gpu_run_typed(ctx, &ms);
    if (!st) st = gk__apsp_gpu_cycle(ctx, &gcycle);
    if (!st) st = gk__apsp_gpu_download_typed(ctx, got, pred ? pgot : NULL, &ms);
    gk__apsp_gpu_close(ctx);
    if (!st) {
        size_t i = 0;
        while (i < nn && !memcmp((char *)got + i * es, (char *)ref + i * es, es) && (!pred || pgot[i] == pref[i]))
            i++;
        if (i < nn || gcycle != -1)
            st = gk__fail(GK_EMISMATCH, "tuned GPU kernel vs CPU, %s%s%s, n = %d: %s differ at [%zu][%zu]",
                          gk_dtype_name(t), pred ? " with predecessors" : "", negative ? ", negative weights" : "", n,
                          gcycle != -1 ? "a negative cycle reported:" : i < nn && pred && pgot[i] != pref[i]
                          ? "predecessors" : "distances", i / (size_t)n, i % (size_t)n);
    }
    free(buf);
    return st;
}

static gk_status gk__apsp_tune_validate(const gk_config *cfg, uint64_t seed)
{
    int32_t n = VALIDATE_N, *in = NULL, *ref = NULL, *got = NULL;
    size_t bytes = (size_t)n * (size_t)n * sizeof(int32_t);
    gk_status st;
    if ((st = gk__xmalloc((void **)&in, 3 * bytes, "validation")))
        return st;
    ref = in + (size_t)n * n;
    got = ref + (size_t)n * n;
    if (!(st = gk_apsp_random_matrix(in, n, 0.05, seed ^ 0x7a11da7e, MAX_W))) {
        memcpy(ref, in, bytes);
        st = gk__apsp_cpu(ref, n, GK_CPU_ISA_AUTO);
    }
    if (!st) st = solve(in, n, cfg, got);
    if (!st) st = gk_apsp_compare(got, ref, n, "tuned GPU kernel vs CPU");
    /* the typed kernels of the same configuration (its APSPX_* shapes) */
    static const struct { gk_dtype t; int pred; } typed[] = {
        { GK_DTYPE_FLOAT32, 0 }, { GK_DTYPE_FLOAT64, 0 }, { GK_DTYPE_INT32, 1 },
        { GK_DTYPE_FLOAT32, 1 }, { GK_DTYPE_FLOAT64, 1 }, { GK_DTYPE_INT64, 0 },
    };
    for (size_t i = 0; i < sizeof typed / sizeof typed[0] && !st; i++)
        st = gk__apsp_tune_validate_typed(in, n, typed[i].t, typed[i].pred, 0, cfg);
    free(in);
    return st;
}

static gk_status gk__apsp_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed)
{
    int32_t n = (int32_t)size, *got = NULL, *ref = NULL;
    size_t nn = (size_t)n * (size_t)n;
    const int32_t *in;
    gk_status st = gk__apsp_tune_input(n, seed, &in);
    if (!st) st = gk__xmalloc((void **)&got, 2 * nn * sizeof(int32_t), "verification");
    if (st) return st;
    ref = got + nn;
    if (!(st = solve(in, n, cfg, got)) && !(st = solve(in, n, NULL, ref)))
        st = gk_apsp_compare(got, ref, n, "tuned GPU kernel vs built-in kernel");
    free(got);
    return st;
}

/* The registry's entry (src/tune/registry.c, declared in tunables.h):
 * kernel, space, image, image name, size classes and their unit, hidden. */
const gk_tunable gk__tunable_apsp = {
    "apsp", &gk__space_apsp, &gk__image_apsp, "apsp", 2, { 4096, 16384 }, "vertices", 0,
    gk__apsp_tune_measure, gk__apsp_tune_validate, gk__apsp_tune_verify
};
