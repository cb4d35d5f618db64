/* apsp_typed.c - APSP on the CPU for every element type (int32, int64,
 * float32, float64), negative weights and cycles, predecessors: the blocked
 * driver over the rounds of apsp.c and the plain k-i-j loop, each written
 * once for all types (the rules are in apsp_cpu.h). */
#include "cpu/apsp_tile.h"

#include <stdlib.h>
#include <string.h>

#define B GK__APSP_B
_Static_assert(B == GK_APSP_ORDER_TILE, "the CPU tile is the tile of the ordered paths");

static gk_status neg_cycle(int64_t v, int64_t *cycle)
{
    if (cycle) *cycle = v;
    return gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)v);
}

/* ---- per type: the conversions of the predecessors into the tiles' lane
 * width, the INF clean-up of integers with negative weights, the rows of
 * the plain loop ---- */

/* int32 predecessors to lanes of 8 bytes and back */
static void pred_to64(void *dst, const void *src, int64_t m)
{
    int64_t *d = dst;
    const int32_t *s = src;
    for (int64_t j = 0; j < m; j++) d[j] = s[j];
}
static void pred_from64(void *dst, const void *src, int64_t m)
{
    int32_t *d = dst;
    const int64_t *s = src;
    for (int64_t j = 0; j < m; j++) d[j] = (int32_t)s[j];
}

/* After the last round of an integer type with negative weights: every
 * entry above INF/2 was derived from INF (unreachable) and becomes INF,
 * its predecessor none. */
#define CLEANUP(ET, INF)                                                              \
    do {                                                                              \
        ET *d = dist;                                                                 \
        const ET half = (INF) >> 1;                                                   \
        _Pragma("omp parallel for schedule(static)")                                  \
        for (int64_t i = 0; i < nn; i++)                                              \
            if (d[i] > half) {                                                        \
                d[i] = (INF);                                                         \
                if (pred) pred[i] = GK_APSP_NO_PRED;                                  \
            }                                                                         \
    } while (0)

static void cleanup(void *dist, int32_t *pred, int64_t nn, gk_dtype t)
{
    if (t == GK_DTYPE_INT32) CLEANUP(int32_t, (int32_t)GK_APSP_INF);
    else if (t == GK_DTYPE_INT64) CLEANUP(int64_t, (int64_t)GK_APSP_INF64);
}

gk_status gk__apsp_cpu_run(void *dist, int32_t V, gk_dtype t, int32_t *pred, gk_cpu_isa isa, int64_t *cycle)
{
    if (cycle) *cycle = -1;
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu_run: V = %d", V);
    if (!gk__apsp_dtype_ok(t))
        return gk__fail(GK_EINVAL, "gk_apsp_cpu_run: no APSP element type %d", (int)t);
    gk__apsp_tiles o;
    gk_status st = gk__apsp_cpu_tiles(isa, t, &o, "gk_apsp_cpu_run");
    if (st) return st;
    const int neg = gk__apsp_has_negative(dist, V, V, t);
    if (t == GK_DTYPE_INT32 && !pred && !neg)
        return gk__apsp_cpu(dist, V, isa);

    int64_t n = V, nt = (n + B - 1) / B;
    void *tiles = NULL, *ptiles = NULL;
    if ((st = gk__apsp_tiles_alloc(&tiles, nt, o.es, "the CPU APSP tiles")))
        return st;
    if (pred && (st = gk__apsp_tiles_alloc(&ptiles, nt, o.ps, "the CPU APSP predecessor tiles"))) {
        free(tiles);
        return st;
    }
    /* "no edge" of the type in the padding, no predecessor there */
    const int32_t inf32 = GK_APSP_INF, nopred32 = GK_APSP_NO_PRED;
    const int64_t inf64 = GK_APSP_INF64, nopred64 = GK_APSP_NO_PRED;
    const float finf = __builtin_inff();
    const double dinf = __builtin_inf();
    const void *pad = t == GK_DTYPE_INT32 ? (const void *)&inf32 : t == GK_DTYPE_INT64 ? (const void *)&inf64
                    : t == GK_DTYPE_FLOAT32 ? (const void *)&finf : (const void *)&dinf;
    gk__apsp_conv copy = o.es == 4 ? gk__apsp_copy4 : gk__apsp_copy8;
    gk__apsp_tiles_in(tiles, o.es, nt, dist, o.es, n, copy, pad);
    if (pred)
        gk__apsp_tiles_in(ptiles, o.ps, nt, pred, sizeof(int32_t), n, o.ps == 4 ? gk__apsp_copy4 : pred_to64,
                          o.ps == 4 ? (const void *)&nopred32 : (const void *)&nopred64);

    /* ordered: floats and predecessors need the contract's candidate sets;
     * with negative weights so does the vertex of a negative cycle (which
     * diagonal entries turn negative first depends on the order) */
    int flags = (o.is_float || pred || neg ? GK__FW_ORDERED : 0) | (neg ? GK__FW_CHECK : 0)
                | (neg && !o.is_float ? GK__FW_CLAMP : 0);
    int64_t v = gk__apsp_cpu_rounds(&o, tiles, ptiles, nt, flags);
    if (v >= 0)
        st = neg_cycle(v, cycle);
    else {
        gk__apsp_tiles_out(dist, o.es, n, tiles, o.es, nt, copy);
        if (pred)
            gk__apsp_tiles_out(pred, sizeof(int32_t), n, ptiles, o.ps, nt, o.ps == 4 ? gk__apsp_copy4 : pred_from64);
        if (neg)
            cleanup(dist, pred, n * n, t);
    }
    free(tiles);
    free(ptiles);
    return st;
}

/* ---- the plain loop: row i of step k, d_i = min(d_i, d_ik + d_k), with
 * predecessors where the candidate is strictly smaller ---- */
#define DEFINE_PLAIN_T(SUF, ET)                                                        \
GK_CLONES static void row_##SUF(ET *di, const ET *dk, ET dik, int64_t n)               \
{                                                                                      \
    _Pragma("omp simd")                                                                \
    for (int64_t j = 0; j < n; j++) {                                                  \
        ET v = (ET)(dik + dk[j]);                                                      \
        di[j] = v < di[j] ? v : di[j];                                                 \
    }                                                                                  \
}                                                                                      \
GK_CLONES static void rowp_##SUF(ET *di, int32_t *pi, const ET *dk, const int32_t *pk, ET dik, int64_t n) \
{                                                                                      \
    _Pragma("omp simd")                                                                \
    for (int64_t j = 0; j < n; j++) {                                                  \
        ET v = (ET)(dik + dk[j]);                                                      \
        if (v < di[j]) { di[j] = v; pi[j] = pk[j]; }                                   \
    }                                                                                  \
}                                                                                      \
static int64_t plain_##SUF(ET *d, int32_t *pred, int64_t n, int neg)                   \
{                                                                                      \
    int64_t cycle = -1;                                                                \
    _Pragma("omp parallel")                                                            \
    for (int64_t k = 0; k < n; k++) {                                                  \
        /* row k cannot change while d[k][k] >= 0 (a negative one stopped the          \
         * run a step earlier, or at step 0 for a negative initial diagonal):          \
         * skipping it avoids a race */                                                \
        _Pragma("omp for schedule(static)")                                            \
        for (int64_t i = 0; i < n; i++)                                                \
            if (i != k) {                                                              \
                if (pred) rowp_##SUF(d + i * n, pred + i * n, d + k * n, pred + k * n, d[i * n + k], n); \
                else      row_##SUF(d + i * n, d + k * n, d[i * n + k], n);            \
            }                                                                          \
        if (neg) {                                                                     \
            _Pragma("omp single")                                                      \
            for (int64_t i = 0; i < n; i++)                                            \
                if (d[i * n + i] < 0) { cycle = i; break; }                            \
            if (cycle >= 0) break;   /* read by all after the single's barrier */      \
        }                                                                              \
    }                                                                                  \
    return cycle;                                                                      \
}
DEFINE_PLAIN_T(i32, int32_t)
DEFINE_PLAIN_T(i64, int64_t)
DEFINE_PLAIN_T(f32, float)
DEFINE_PLAIN_T(f64, double)

gk_status gk__apsp_cpu_plain(void *dist, int32_t V, gk_dtype t, int32_t *pred, int64_t *cycle)
{
    if (cycle) *cycle = -1;
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu_plain: V = %d", V);
    if (!gk__apsp_dtype_ok(t))
        return gk__fail(GK_EINVAL, "gk_apsp_cpu_plain: no APSP element type %d", (int)t);
    int64_t n = V;
    const int neg = gk__apsp_has_negative(dist, V, V, t);
    int64_t v = -1;
    switch (t) {
    case GK_DTYPE_INT32: v = plain_i32(dist, pred, n, neg); break;
    case GK_DTYPE_INT64: v = plain_i64(dist, pred, n, neg); break;
    case GK_DTYPE_FLOAT32: v = plain_f32(dist, pred, n, neg); break;
    case GK_DTYPE_FLOAT64: v = plain_f64(dist, pred, n, neg); break;
    }
    if (v >= 0)
        return neg_cycle(v, cycle);
    if (neg)
        cleanup(dist, pred, n * n, t);
    return GK_OK;
}
