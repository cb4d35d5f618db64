/* test_apsp_types_gpu.c - the GPU's typed APSP kernels (issue 24): int32,
 * int64, float32 and float64 distances, with and without predecessors,
 * bit for bit against the naive tiled reference at tile 64
 * (test_apsp_types_gpu.h), on non-negative and negative weights, negative
 * cycles (the vertex reported), unreachable pairs and sizes around the
 * 64-wide tiles; every predecessor chain followed back and summed; host and
 * device memory; the per-type ceilings.  SKIP without a usable GPU. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_apsp_types_gpu.h"

#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"
#endif

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef GK_HAVE_CUDA
static gk_device_info dev;

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rs >> 33);
}

static const gk_dtype types[] = { GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 };
static const char *tname[] = { "?", "int32", "int64", "float32", "float64" };

static int integral_type(gk_dtype t) { return t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64; }

/* Weights as doubles (INFINITY: no edge, 0 on the diagonal). kinds:
 * 0 non-negative, 1 negative weights without a negative cycle (potentials),
 * 2 two halves without an edge between them (negative weights), 3 kind 1
 * plus a negative cycle through vertices 70, 90 and 100. */
enum { K_POS, K_NEG, K_SPLIT, K_CYCLE, K_KINDS };
static const char *kname[] = { "non-negative", "negative weights", "disconnected", "negative cycle" };

static double *make_weights(int64_t V, int kind, int integral)
{
    double *w = malloc((size_t)(V * V) * sizeof *w), *pot = malloc((size_t)V * sizeof *pot);
    for (int64_t i = 0; i < V; i++)
        pot[i] = kind == K_POS ? 0 : integral ? (double)(rnd() % 60) : (double)(rnd() % 6000) / 97.0;
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++) {
            double v = INFINITY;
            if (i == j) v = 0;
            else if (kind == K_SPLIT && (i < V / 2) != (j < V / 2)) v = INFINITY;
            else if (rnd() % 100 < 30) {
                double base = kind == K_POS ? (integral ? (double)(rnd() % 1001) : (double)(rnd() % 100000) / 7.0)
                                            : (integral ? (double)(1 + rnd() % 100) : 1 + (double)(rnd() % 10000) / 7.0);
                v = base + pot[i] - pot[j];
            }
            w[i * V + j] = v;
        }
    if (kind == K_CYCLE && V > 100) {
        w[70 * V + 90] = -10; w[90 * V + 100] = 2; w[100 * V + 70] = 2;
    }
    free(pot);
    return w;
}

static void *to_type(const double *w, int64_t V, gk_dtype t)
{
    void *m = malloc((size_t)(V * V) * gk_dtype_size(t));
    for (int64_t i = 0; i < V * V; i++) {
        double v = w[i];
        switch (t) {
        case GK_DTYPE_INT32: ((int32_t *)m)[i] = isinf(v) ? RINF32 : (int32_t)v; break;
        case GK_DTYPE_INT64: ((int64_t *)m)[i] = isinf(v) ? RINF64 : (int64_t)v; break;
        case GK_DTYPE_FLOAT32: ((float *)m)[i] = (float)v; break;
        default: ((double *)m)[i] = v; break;
        }
    }
    return m;
}

static double at(const void *m, gk_dtype t, int64_t i)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)m)[i];
    case GK_DTYPE_INT64: return (double)((const int64_t *)m)[i];
    case GK_DTYPE_FLOAT32: return ((const float *)m)[i];
    default: return ((const double *)m)[i];
    }
}

static int unreachable(const void *m, gk_dtype t, int64_t i)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)m)[i] == RINF32;
    case GK_DTYPE_INT64: return ((const int64_t *)m)[i] == RINF64;
    default: return isinf(at(m, t, i));
    }
}

static void reference(gk_dtype t, void *d, int64_t V, int32_t *pred, int64_t *cycle)
{
    switch (t) {
    case GK_DTYPE_INT32: ref_fw_i32(d, V, pred, cycle); break;
    case GK_DTYPE_INT64: ref_fw_i64(d, V, pred, cycle); break;
    case GK_DTYPE_FLOAT32: ref_fw_f32(d, V, pred, cycle); break;
    default: ref_fw_f64(d, V, pred, cycle); break;
    }
}

/* Every predecessor chain: pred[i][i] = -1, -1 exactly where unreachable,
 * and the walk from j back to i sums the initial weights to dist[i][j]
 * (ints exactly, in int64; floats within 2 (V-1)^2 u max|w|). */
static int64_t bad_chains(const void *init, const void *dist, const int32_t *pred, int64_t V, gk_dtype t)
{
    double maxw = 0;
    for (int64_t i = 0; i < V * V; i++)
        if (!unreachable(init, t, i) && fabs(at(init, t, i)) > maxw) maxw = fabs(at(init, t, i));
    const double u = t == GK_DTYPE_FLOAT32 ? ldexp(1, -24) : ldexp(1, -53);
    const double tol = 2.0 * (double)(V - 1) * (double)(V - 1) * u * maxw;
    int64_t bad = 0;
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++) {
            const int32_t p = pred[i * V + j];
            if (i == j || unreachable(dist, t, i * V + j)) { bad += p != -1; continue; }
            int64_t v = j, steps = 0, isum = 0;
            double fsum = 0;
            while (v != i && steps <= V) {
                const int32_t q = pred[i * V + v];
                if (q < 0 || q >= V || unreachable(init, t, (int64_t)q * V + v)) { steps = V + 1; break; }
                if (t == GK_DTYPE_INT32) isum += ((const int32_t *)init)[q * V + v];
                else if (t == GK_DTYPE_INT64) isum += ((const int64_t *)init)[q * V + v];
                else fsum += at(init, t, (int64_t)q * V + v);
                v = q;
                steps++;
            }
            if (steps > V) { bad++; continue; }
            if (t == GK_DTYPE_INT32) bad += isum != ((const int32_t *)dist)[i * V + j];
            else if (t == GK_DTYPE_INT64) bad += isum != ((const int64_t *)dist)[i * V + j];
            else bad += fabs(fsum - at(dist, t, i * V + j)) > tol;
        }
    return bad;
}

static void check(gk_dtype t, int with_pred, int64_t V, int kind)
{
    const size_t es = gk_dtype_size(t), bytes = (size_t)(V * V) * es, pbytes = (size_t)(V * V) * sizeof(int32_t);
    double *w = make_weights(V, kind, integral_type(t));
    void *init = to_type(w, V, t), *want = malloc(bytes), *got = malloc(bytes);
    int32_t *wpred = malloc(pbytes), *gpred = malloc(pbytes);
    int64_t wcycle = -1, gcycle = -2;
    memcpy(want, init, bytes);
    reference(t, want, V, with_pred ? wpred : NULL, &wcycle);
    memset(gpred, 0x55, pbytes);
    gk_apsp_gpu *c = NULL;
    gk_status st;
    char what[160];
    snprintf(what, sizeof what, "%s%s V=%lld %s", tname[t], with_pred ? " +pred" : "", (long long)V, kname[kind]);
    if (!(st = gk__apsp_gpu_open_typed(&c, &dev, NULL, (int32_t)V, t, with_pred, NULL))
        && !(st = gk__apsp_gpu_upload_typed(c, init, NULL)) && !(st = gk__apsp_gpu_run_typed(c, NULL))
        && !(st = gk__apsp_gpu_cycle(c, &gcycle)))
        st = gk__apsp_gpu_download_typed(c, got, with_pred ? gpred : NULL, NULL);
    if (wcycle >= 0) {
        ok(st == GK_OK && gcycle == wcycle, "%s: cycle vertex %lld (want %lld) %s", what, (long long)gcycle,
           (long long)wcycle, st ? gk_last_error() : "");
    } else {
        ok(st == GK_OK && gcycle == -1 && memcmp(got, want, bytes) == 0, "%s: distances bit for bit, no cycle %s", what,
           st ? gk_last_error() : "");
        if (with_pred) {
            ok(memcmp(gpred, wpred, pbytes) == 0, "%s: predecessors == reference", what);
            int64_t bad = bad_chains(init, got, gpred, V, t);
            ok(bad == 0, "%s: every predecessor chain sums to its distance (%lld bad)", what, (long long)bad);
        }
    }
    /* device memory, in place, leading dimension V + 3 (not the tile's) */
    if (!st && V > 1) {
        const int64_t ld = V + 3;
        void *dd = NULL, *dp = NULL;
        memset(got, 0, bytes);
        memset(gpred, 0x55, pbytes);
        gcycle = -2;
        if (!(st = gk__gpu_alloc(&dd, (size_t)(V * ld) * es)) && !(st = gk__gpu_alloc(&dp, (size_t)(V * ld) * 4))) {
            char *h = calloc((size_t)(V * ld), es);
            for (int64_t i = 0; i < V; i++) memcpy(h + (size_t)(i * ld) * es, (char *)init + (size_t)(i * V) * es, (size_t)V * es);
            if (!(st = gk__gpu_copy(dd, h, (size_t)(V * ld) * es, 1))
                && !(st = gk__apsp_gpu_exec_device_typed(c, dd, ld, with_pred ? dp : NULL, ld))
                && !(st = gk__apsp_gpu_cycle(c, &gcycle)) && !(st = gk__gpu_copy(h, dd, (size_t)(V * ld) * es, 0))) {
                for (int64_t i = 0; i < V; i++) memcpy((char *)got + (size_t)(i * V) * es, h + (size_t)(i * ld) * es, (size_t)V * es);
                int32_t *hp = calloc((size_t)(V * ld), 4);
                if (with_pred && !(st = gk__gpu_copy(hp, dp, (size_t)(V * ld) * 4, 0)))
                    for (int64_t i = 0; i < V; i++) memcpy(gpred + i * V, hp + i * ld, (size_t)V * 4);
                free(hp);
            }
            free(h);
        }
        if (wcycle >= 0)
            ok(st == GK_OK && gcycle == wcycle, "%s, device memory: cycle vertex %lld", what, (long long)gcycle);
        else
            ok(st == GK_OK && gcycle == -1 && memcmp(got, want, bytes) == 0
               && (!with_pred || memcmp(gpred, wpred, pbytes) == 0), "%s, device memory (ld %lld): same bits%s %s",
               what, (long long)ld, with_pred ? " and predecessors" : "", st ? gk_last_error() : "");
        gk__gpu_free(dd);
        gk__gpu_free(dp);
    }
    gk__apsp_gpu_close(c);
    c = NULL;
    /* float distances: another thread shape of the space (8 x 4 instead
     * of float32's 8 x 8 and float64's 4 x 4; an NVRTC compile), the same bits */
    if (!with_pred && !integral_type(t) && wcycle < 0) {
        memset(got, 0, bytes);
        gk_config alt;
        gk__config_clear(&alt);
        gk__config_parse("APSPX_F32_TN=4,APSPX_F64_TM=8", &alt);
        if (!(st = gk__apsp_gpu_open_typed(&c, &dev, NULL, (int32_t)V, t, 0, &alt))
            && !(st = gk__apsp_gpu_upload_typed(c, init, NULL)) && !(st = gk__apsp_gpu_run_typed(c, NULL)))
            st = gk__apsp_gpu_download_typed(c, got, NULL, NULL);
        ok(st == GK_OK && memcmp(got, want, bytes) == 0, "%s, alternative shape: same bits %s", what,
           st ? gk_last_error() : "");
        gk__apsp_gpu_close(c);
    }
    free(w); free(init); free(want); free(got); free(wpred); free(gpred);
}

/* int32 with predecessors, non-negative weights: the packed product
 * (apsp.cu, xops_i32pk; cap 2^24 - 1) and its way back to the general one.
 * mode 0: dense random weights 0..maxw; mode 1: a chain 0 -> 1 -> ... with
 * weights near maxw plus a few random edges forward only (long distances,
 * and every pair (i > j) unreachable); big: one weight above the cap.
 * Same bits as the reference, and the packed product kept exactly when the
 * rules say so: weights below the cap and either V * maxw below it or no
 * entry of the true result at or above it (unreachable ones included). */
#define PK_CAP 16777215
static void check_packed(int64_t V, int32_t maxw, int mode, int big)
{
    const size_t bytes = (size_t)(V * V) * 4;
    int32_t *init = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    int32_t *wpred = malloc(bytes), *gpred = malloc(bytes);
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++) {
            int32_t v = RINF32;
            if (i == j) v = 0;
            else if (mode == 0 && rnd() % 100 < 30) v = (int32_t)(rnd() % ((uint32_t)maxw + 1));
            else if (mode == 1 && j == i + 1) v = maxw - (int32_t)(rnd() % 10);
            else if (mode == 1 && j > i && rnd() % 100 < 2) v = maxw - (int32_t)(rnd() % 1000);
            init[i * V + j] = v;
        }
    if (big && V > 3) init[1 * V + 2] = PK_CAP + 5;
    int32_t hi = 0;
    for (int64_t i = 0; i < V * V; i++)
        if (init[i] != RINF32 && init[i] > hi) hi = init[i];
    memcpy(want, init, bytes);
    int64_t wcycle = -1, gcycle = -2;
    ref_fw_i32(want, V, wpred, &wcycle);
    int far = 0;
    for (int64_t i = 0; i < V * V; i++) far |= want[i] >= PK_CAP;
    const int expect = hi < PK_CAP && (V * (int64_t)hi < PK_CAP || !far);
    gk_apsp_gpu *c = NULL;
    gk_status st;
    int packed = -1;
    memset(gpred, 0x55, bytes);
    if (!(st = gk__apsp_gpu_open_typed(&c, &dev, NULL, (int32_t)V, GK_DTYPE_INT32, 1, NULL))
        && !(st = gk__apsp_gpu_upload_typed(c, init, NULL)) && !(st = gk__apsp_gpu_run_typed(c, NULL))
        && !(st = gk__apsp_gpu_cycle(c, &gcycle)) && !(st = gk__apsp_gpu_download_typed(c, got, gpred, NULL)))
        packed = gk__apsp_gpu_packed(c);
    gk__apsp_gpu_close(c);
    ok(st == GK_OK && gcycle == -1 && memcmp(got, want, bytes) == 0 && memcmp(gpred, wpred, bytes) == 0,
       "int32 +pred V=%lld max weight %d %s%s: packed path, distances and predecessors bit for bit %s", (long long)V,
       (int)hi, mode ? "chain, unreachable pairs" : "dense", big ? ", one weight above the cap" : "",
       st ? gk_last_error() : "");
    ok(packed == expect, "  ... the packed product %s to the end (%d)", expect ? "ran" : "was left", packed);
    ok(bad_chains(init, got, gpred, V, GK_DTYPE_INT32) == 0, "  ... every predecessor chain sums to its distance");
    free(init); free(want); free(got); free(wpred); free(gpred);
}
#endif

int main(void)
{
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        skip_all("no CUDA device");
#ifdef GK_HAVE_CUDA
    no_plan();
    int prev;
    if (t_gpu_info(0, &dev) || gk__gpu_enter(0, &prev)) {
        printf("Bail out! GPU: %s\n", gk_last_error());
        return 1;
    }
    const int64_t sizes[] = { 1, 2, 63, 64, 65, 130, 200 };
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (int p = 0; p < 2; p++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                for (int kind = 0; kind < K_KINDS; kind++) {
                    if (kind == K_CYCLE && sizes[s] <= 100) continue;
                    check(types[ti], p, sizes[s], kind);
                }
    check_packed(200, 1000, 0, 0);       /* V * maxw below the cap: no count */
    check_packed(200, 1000, 1, 0);       /* unreachable pairs, known so */
    check_packed(130, 4000000, 0, 0);    /* counted: nothing at the cap */
    check_packed(130, 4000000, 1, 0);    /* counted: far and unreachable -> general */
    check_packed(65, 1000, 0, 1);        /* a weight above the cap: general */
    /* the ceilings: positive rates, chains of each type's update */
    gk_apsp_gpu *c = NULL;
    if (!gk__apsp_gpu_open_typed(&c, &dev, NULL, 64, GK_DTYPE_FLOAT32, 0, NULL)) {
        for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
            double r = 0;
            gk_status st = gk__apsp_gpu_ceiling_typed(c, types[ti], &r);
            ok(st == GK_OK && r > 1e9, "%s ceiling %.2f T updates/s", tname[types[ti]], r / 1e12);
        }
        gk__apsp_gpu_close(c);
    } else
        ok(0, "open a float32 context: %s", gk_last_error());
    {   /* a shape the space's rules refuse: 16 x 16 outputs with predecessors */
        gk_config bad;
        gk__config_clear(&bad);
        gk__config_parse("APSPX_P_TM=16,APSPX_P_TN=16", &bad);
        ok(gk__apsp_gpu_open_typed(&c, &dev, NULL, 10, GK_DTYPE_INT32, 1, &bad) == GK_EINVAL && c == NULL
           && strstr(gk_last_error(), "APSPX_P_TM"), "a typed shape the rules refuse: %s", gk_last_error());
    }
    ok(gk__apsp_gpu_open_typed(&c, &dev, NULL, 10, (gk_dtype)9, 0, NULL) == GK_EINVAL && c == NULL,
       "an unknown element type is refused: %s", gk_last_error());
    return done_testing();
#endif
}
