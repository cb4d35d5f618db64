/* tunable_apspx.c - the typed APSP kernels' shapes as tunable kernels
 * (worker side): apspx_f32, apspx_f64 and apspx_p, one per shape of the
 * apsp module's typed kernels (src/core/space_apsp.c says why they are
 * apart from apsp, and what each shape runs).
 *
 * A candidate (two parameters) runs as the apsp module's configuration:
 * apsp's defaults with the candidate written over them
 * (gk__tunable_module_config), so the int32 kernels in that module are the
 * built-in ones and only the typed kernel of this shape differs.
 *   measure:  the random graph of the size class as the shape's types, on
 *             the typed path (upload, every round), compute time by CUDA
 *             events; a warm-up, then reps timed runs; the median of the
 *             per-rep sums over the shape's runs (apspx_p: float32 and
 *             float64 with predecessors).
 *   validate: n = 317 (no multiple of a tile), every run of the shape
 *             (gk__apspx_kinds: also negative weights, on the graph
 *             reweighted by vertex potentials), distances and predecessors
 *             bit for bit against the CPU's blocked code (gk__apsp_cpu_run,
 *             same tile 64: same bits).
 *   verify:   the winner at its size class against the built-in shape (the
 *             defaults, themselves validated against the CPU by the test
 *             suite), bit for bit: the shape never changes the bits. */
#include "tune/apsp_tune.h"
#include "gpu/apsp_gpu.h"

#include <stdlib.h>
#include <string.h>

/* The typed copies of the tuning input (n, seed), one per type, kept
 * between requests like the input itself (process-wide: the worker is one
 * thread); apspx_p measures two types in each request. */
static struct { void *m; int32_t n; uint64_t seed; } typed[4];

static gk_status typed_input(int32_t n, uint64_t seed, gk_dtype t, const void **out)
{
    const int32_t *in;
    const int slot = t == GK_DTYPE_INT32 ? 0 : t == GK_DTYPE_INT64 ? 1 : t == GK_DTYPE_FLOAT32 ? 2 : 3;
    gk_status st = gk__apsp_tune_input(n, seed, &in);
    if (st) return st;
    if (!typed[slot].m || typed[slot].n != n || typed[slot].seed != seed) {
        free(typed[slot].m);
        typed[slot].m = NULL;
        if ((st = gk__xmalloc(&typed[slot].m, (size_t)n * (size_t)n * gk_dtype_size(t), "the typed tuning input")))
            return st;
        gk__apsp_tune_to_type(in, (int64_t)n * n, t, typed[slot].m);
        typed[slot].n = n;
        typed[slot].seed = seed;
    }
    *out = typed[slot].m;
    return GK_OK;
}

/* The apsp module's configuration of candidate cfg of kind k. */
static gk_status module_cfg(const gk_apspx_kind *k, const gk_config *cfg, gk_config *mc)
{
    const gk_tunable *t = gk__tunable_find(k->space->kernel);
    if (!t)
        return gk__fail(GK_EINTERNAL, "no tunable %s", k->space->kernel);
    return gk__tunable_module_config(t, cfg, mc);
}

static gk_status measure(const gk_apspx_kind *k, int64_t size, const gk_config *cfg, uint64_t seed, int reps,
                         double *med, double *min)
{
    double sum[64] = { 0 };
    gk_config mc;
    if (reps < 1 || reps > 64) reps = 3;
    if (size < 1 || size > INT32_MAX)
        return gk__fail(GK_EINVAL, "%s: size %lld out of range", k->space->kernel, (long long)size);
    gk_status st = module_cfg(k, cfg, &mc);
    for (int r = 0; r < k->nmeasure && !st; r++) {
        const gk_apspx_run *x = &k->measure[r];
        const void *in = NULL;
        gk_apsp_gpu *ctx = NULL;
        st = typed_input((int32_t)size, seed, x->t, &in);
        gk__tune_offer_again();
        if (!st) st = gk__apsp_gpu_open_typed(&ctx, gk__tune_device(), NULL, (int32_t)size, x->t, x->pred, &mc);
        for (int i = -1; i < reps && !st; i++) {      /* i = -1: warm-up */
            float up, run;
            int64_t cycle;
            st = gk__apsp_gpu_upload_typed(ctx, in, &up);   /* the same input every time */
            if (!st) st = gk__apsp_gpu_run_typed(ctx, &run);
            if (!st) st = gk__apsp_gpu_cycle(ctx, &cycle);  /* (waits: a fault shows here) */
            if (!st && i >= 0) sum[i] += run;
        }
        gk__apsp_gpu_close(ctx);
    }
    if (!st) *med = gk__median(sum, reps, min);
    return st;
}

static gk_status validate(const gk_apspx_kind *k, const gk_config *cfg, uint64_t seed)
{
    const int32_t n = VALIDATE_N;
    int32_t *in = NULL;
    gk_config mc;
    gk_status st = module_cfg(k, cfg, &mc);
    if (!st) st = gk__xmalloc((void **)&in, (size_t)n * (size_t)n * sizeof(int32_t), "validation");
    if (!st) st = gk_apsp_random_matrix(in, n, 0.05, seed ^ 0x7a11da7e, MAX_W);
    for (int r = 0; r < k->nvalidate && !st; r++)
        st = gk__apsp_tune_validate_typed(in, n, k->validate[r].t, k->validate[r].pred, k->validate[r].negative, &mc);
    free(in);
    return st;
}

/* The typed GPU solve of in (n x n of type t) with the apsp configuration
 * cfg (NULL: the built-in one) into dist (and pred when asked for). */
static gk_status solve(const void *in, int32_t n, gk_dtype t, int with_pred, const gk_config *cfg, void *dist,
                       int32_t *pred)
{
    gk_apsp_gpu *ctx = NULL;
    float ms;
    int64_t cycle;
    gk_status st = gk__apsp_gpu_open_typed(&ctx, gk__tune_device(), NULL, n, t, with_pred, cfg);
    if (!st) st = gk__apsp_gpu_upload_typed(ctx, in, &ms);
    if (!st) st = gk__apsp_gpu_run_typed(ctx, &ms);
    if (!st) st = gk__apsp_gpu_cycle(ctx, &cycle);
    if (!st) st = gk__apsp_gpu_download_typed(ctx, dist, with_pred ? pred : NULL, &ms);
    gk__apsp_gpu_close(ctx);
    return st;
}

static gk_status verify(const gk_apspx_kind *k, int64_t size, const gk_config *cfg, uint64_t seed)
{
    gk_config mc;
    if (size < 1 || size > INT32_MAX)
        return gk__fail(GK_EINVAL, "%s: size %lld out of range", k->space->kernel, (long long)size);
    const int32_t n = (int32_t)size;
    gk_status st = module_cfg(k, cfg, &mc);
    for (int r = 0; r < k->nmeasure && !st; r++) {
        const gk_apspx_run *x = &k->measure[r];
        const size_t nn = (size_t)n * (size_t)n, es = gk_dtype_size(x->t);
        const void *in = NULL;
        char *buf = NULL;
        st = typed_input(n, seed, x->t, &in);
        if (!st) st = gk__xmalloc((void **)&buf, 2 * nn * (es + sizeof(int32_t)), "verification");
        if (st) break;
        char *got = buf, *ref = buf + nn * es;
        int32_t *pgot = (int32_t *)(buf + 2 * nn * es), *pref = pgot + nn;
        if (!(st = solve(in, n, x->t, x->pred, &mc, got, pgot)) && !(st = solve(in, n, x->t, x->pred, NULL, ref, pref))) {
            size_t i = 0;
            while (i < nn && !memcmp(got + i * es, ref + i * es, es) && (!x->pred || pgot[i] == pref[i]))
                i++;
            if (i < nn)
                st = gk__fail(GK_EMISMATCH, "tuned GPU kernel vs built-in kernel, %s%s, n = %d: %s differ at [%zu][%zu]",
                              gk_dtype_name(x->t), x->pred ? " with predecessors" : "", n,
                              x->pred && pgot[i] != pref[i] ? "predecessors" : "distances", i / (size_t)n,
                              i % (size_t)n);
        }
        free(buf);
    }
    return st;
}

/* The registry's entries (src/tune/registry.c, declared in tunables.h):
 * kernel, space, image (apsp's: its source hash keys their entries too),
 * image name, size classes (apsp's) and their unit, not hidden. */
#define ENTRY(NAME, K)                                                                                          \
    static gk_status NAME##_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med,   \
                                    double *min)                                                               \
    { return measure(&gk__apspx_kinds[K], size, cfg, seed, reps, med, min); }                                  \
    static gk_status NAME##_validate(const gk_config *cfg, uint64_t seed)                                       \
    { return validate(&gk__apspx_kinds[K], cfg, seed); }                                                       \
    static gk_status NAME##_verify(int64_t size, const gk_config *cfg, uint64_t seed)                           \
    { return verify(&gk__apspx_kinds[K], size, cfg, seed); }                                                   \
    const gk_tunable gk__tunable_##NAME = {                                                                    \
        #NAME, &gk__space_##NAME, &gk__image_apsp, "apsp", 2, { 4096, 16384 }, "vertices", 0,                   \
        NAME##_measure, NAME##_validate, NAME##_verify                                                          \
    };
ENTRY(apspx_f32, 0)
ENTRY(apspx_f64, 1)
ENTRY(apspx_p, 2)
