/* test_apsp_types_cpu.c - APSP on the CPU for every element type (int32,
 * int64, float32, float64), negative weights and cycles, predecessors:
 * gk__apsp_cpu_run (the blocked code, on every instruction set this CPU
 * has), gk__apsp_cpu_plain, the row blocks of a distributed run and the
 * helpers of core/apsp_types.h, against references written here:
 *   - a naive Floyd-Warshall in 64-bit integers / long double (the exact
 *     distances: integers equal, floats within 2 (V-1)^2 u max|w|);
 *   - a naive tiled Floyd-Warshall in the element type with the phase order
 *     of the contract at T = 64 (bit for bit: floats, predecessors, the
 *     vertex of a negative cycle);
 *   - predecessor chains walked back from j to i, summing the weights of
 *     the initial matrix to the distance; pred[i][i] = -1, -1 where
 *     unreachable;
 *   - the vertex of a negative cycle lies on a negative closed walk (a naive
 *     closure in int64 / long double: d[v][v] < 0).
 * Random graphs: non-negative, zero weights, negative weights without
 * negative cycles (a potential added to non-negative weights), unreachable
 * halves, sparse graphs, large weights, real weights, planted negative
 * cycles, acyclic graphs whose paths reach (V-1) max|w| just below INF/2
 * (the bound of the integer types with negative weights); V = 1, 2, 63,
 * 64, 65, 130 and a few larger ones. */
#include "gk.h"
#include "tap.h"
#include "cpu/apsp_cpu.h"
#include "core/apsp_types.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rs >> 33);
}

static const gk_dtype types[] = { GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 };
static const char *tname(gk_dtype t) { return gk_dtype_name(t); }
static int is_float(gk_dtype t) { return t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64; }
static size_t esize(gk_dtype t) { return gk_dtype_size(t); }

enum { K_POS, K_ZERO, K_NEG, K_ZERONEG, K_SPLIT, K_SPARSE, K_BIGNEG, K_HEAVY, K_REAL, K_CYCLE, K_DAG, K_N };
static const char *kname[] = { "non-negative", "0/1 weights", "negative weights", "0/1 with potentials",
                               "negative, two unreachable halves", "negative, sparse", "large negative weights",
                               "heavy (paths past INF)", "real weights", "a negative cycle",
                               "acyclic, weights up to the bound" };
static int kind_fits(int kind, gk_dtype t)
{
    if (kind == K_REAL) return is_float(t);
    return 1;
}
static int kind_negative(int kind) { return kind != K_POS && kind != K_ZERO && kind != K_HEAVY; }

/* A graph as a V x V matrix of doubles, already rounded to the type t
 * (integers: integral values): INFINITY = no edge, 0 on the diagonal. */
static double *make_graph(int V, int kind, gk_dtype t)
{
    int64_t n = V;
    double *w = malloc((size_t)(n * n) * sizeof *w), *h = malloc((size_t)n * sizeof *h);
    for (int64_t i = 0; i < n * n; i++) w[i] = INFINITY;
    for (int64_t i = 0; i < n; i++) w[i * n + i] = 0;
    double hmax = kind == K_BIGNEG ? (t == GK_DTYPE_INT32 ? 1e6 : t == GK_DTYPE_INT64 ? 1e15 : 1e6) : 500;
    for (int64_t i = 0; i < n; i++) {
        h[i] = kind_negative(kind) ? (double)(rnd() % (uint32_t)hmax) : 0;
        if (kind == K_BIGNEG && t == GK_DTYPE_INT64) h[i] = (double)(((uint64_t)rnd() << 20 | rnd()) % (uint64_t)hmax);
        if (kind == K_REAL) h[i] = (rnd() % 50000) / 37.0;
    }
    int64_t edges = kind == K_SPARSE ? 2 * n : (n * n * 3) / 10 + 1;
    for (int64_t e = 0; e < edges; e++) {
        int64_t s = rnd() % (uint32_t)V, d = rnd() % (uint32_t)V;
        if (kind == K_SPLIT && V > 1 && (s < V / 2) != (d < V / 2)) continue;
        if (s == d) continue;
        double base = kind == K_ZERO || kind == K_ZERONEG ? rnd() % 2
                    : kind == K_HEAVY ? GK_APSP_MAX_WEIGHT - (double)(rnd() % 400000000)
                    : kind == K_REAL ? 0.5 + (rnd() % 100000) / 997.0
                    : kind == K_POS ? rnd() % 1000 : 1 + rnd() % 1000;
        double x = base + h[s] - h[d];
        if (t == GK_DTYPE_FLOAT32) x = (float)x;
        w[s * n + d] = x;
    }
    if (kind == K_DAG) {                        /* edges forward only, a chain of -W: (V-1) W < INF/2 */
        double W = t == GK_DTYPE_INT32 ? (double)((GK_APSP_INF / 2 - 1) / (V > 1 ? V - 1 : 1))
                 : t == GK_DTYPE_INT64 ? 1e12 : 1000;
        for (int64_t i = 0; i < n * n; i++) w[i] = i / n == i % n ? 0 : INFINITY;
        for (int64_t e = 0; e < edges; e++) {
            int64_t s = rnd() % (uint32_t)V, d = rnd() % (uint32_t)V;
            if (s == d) continue;
            if (s > d) { int64_t x = s; s = d; d = x; }
            w[s * n + d] = (double)(((uint64_t)rnd() << 20 | rnd()) % (uint64_t)(2 * W + 1)) - W;
        }
        for (int64_t i = 0; i + 1 < n; i++) w[i * n + i + 1] = -W;
    }
    if (kind == K_CYCLE && V >= 2) {           /* a cycle of negative length through L vertices */
        int L = V < 5 ? V : 5;
        int64_t c[5];
        for (int i = 0; i < L; i++) {
            int fresh;
            do {
                c[i] = rnd() % (uint32_t)V;
                fresh = 1;
                for (int j = 0; j < i; j++) fresh &= c[j] != c[i];
            } while (!fresh);
        }
        for (int i = 0; i < L; i++) w[c[i] * n + c[(i + 1) % L]] = is_float(t) ? -3.25 : -3;
    }
    free(h);
    return w;
}

static double max_abs(const double *w, int V)
{
    double m = 0;
    for (int64_t i = 0; i < (int64_t)V * V; i++)
        if (isfinite(w[i]) && fabs(w[i]) > m) m = fabs(w[i]);
    return m;
}

/* The matrix in type t. */
static void *to_type(const double *w, int V, gk_dtype t)
{
    int64_t nn = (int64_t)V * V;
    void *m = malloc((size_t)nn * esize(t));
    for (int64_t i = 0; i < nn; i++) {
        double x = w[i];
        switch (t) {
        case GK_DTYPE_INT32: ((int32_t *)m)[i] = isinf(x) ? GK_APSP_INF : (int32_t)x; break;
        case GK_DTYPE_INT64: ((int64_t *)m)[i] = isinf(x) ? GK_APSP_INF64 : (int64_t)x; break;
        case GK_DTYPE_FLOAT32: ((float *)m)[i] = (float)x; break;
        case GK_DTYPE_FLOAT64: ((double *)m)[i] = x; break;
        }
    }
    return m;
}

static long double get(const void *m, gk_dtype t, int64_t i)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)m)[i];
    case GK_DTYPE_INT64: return ((const int64_t *)m)[i];
    case GK_DTYPE_FLOAT32: return ((const float *)m)[i];
    default: return ((const double *)m)[i];
    }
}
static int is_inf_entry(const void *m, gk_dtype t, int64_t i)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)m)[i] == GK_APSP_INF;
    case GK_DTYPE_INT64: return ((const int64_t *)m)[i] == GK_APSP_INF64;
    default: return isinf(get(m, t, i)) && get(m, t, i) > 0;
    }
}

/* ---- the exact reference: naive Floyd-Warshall, int64 for integer
 * weights (no path kept apart, never added), long double for the others.
 * No negative cycle here.  Integer results of int32 at or past INF read INF
 * (the non-negative rule); unreachable: +inf. */
static long double *ref_exact(const double *w, int V, gk_dtype t)
{
    int64_t n = V;
    long double *x = malloc((size_t)(n * n) * sizeof *x);
    if (is_float(t)) {
        for (int64_t i = 0; i < n * n; i++) x[i] = w[i];
        for (int64_t k = 0; k < n; k++)
            for (int64_t i = 0; i < n; i++) {
                long double a = x[i * n + k];
                if (isinf(a)) continue;
                for (int64_t j = 0; j < n; j++)
                    if (a + x[k * n + j] < x[i * n + j]) x[i * n + j] = a + x[k * n + j];
            }
        return x;
    }
    const int64_t NOPATH = INT64_MAX;
    int64_t *y = malloc((size_t)(n * n) * sizeof *y);
    for (int64_t i = 0; i < n * n; i++) y[i] = isinf(w[i]) ? NOPATH : (int64_t)w[i];
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++) {
            int64_t a = y[i * n + k];
            if (a == NOPATH) continue;
            for (int64_t j = 0; j < n; j++)
                if (y[k * n + j] != NOPATH && a + y[k * n + j] < y[i * n + j]) y[i * n + j] = a + y[k * n + j];
        }
    for (int64_t i = 0; i < n * n; i++)
        x[i] = y[i] == NOPATH || (t == GK_DTYPE_INT32 && y[i] >= GK_APSP_INF) ? INFINITY : (long double)y[i];
    free(y);
    return x;
}

/* On a graph with negative cycles: d[v][v] < 0 of the naive closure (kept
 * above a floor so nothing overflows) says v lies on a negative closed walk. */
static long double *ref_closure_neg(const double *w, int V)
{
    int64_t n = V;
    long double *x = malloc((size_t)(n * n) * sizeof *x);
    for (int64_t i = 0; i < n * n; i++) x[i] = w[i];
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++) {
            long double a = x[i * n + k];
            if (isinf(a)) continue;
            for (int64_t j = 0; j < n; j++) {
                long double v = a + x[k * n + j];
                if (v < x[i * n + j]) x[i * n + j] = v < -1e30L ? -1e30L : v;
            }
        }
    return x;
}

/* ---- the tiled reference: the contract's phase order at T = 64, one
 * scalar loop per phase, in the element type ---- */
#define T 64
#define DEFINE_TILED(SUF, ET, INFV, SIGNED_INT)                                              \
static int64_t tiled_##SUF(ET *d, int32_t *p, int V, int neg)                                \
{                                                                                            \
    int64_t n = V, nt = (n + T - 1) / T, np = nt * T;                                        \
    ET *c = malloc((size_t)(np * np) * sizeof *c), x0[T * T];                                \
    int32_t *q = malloc((size_t)(np * np) * sizeof *q), q0[T * T];                           \
    const int clamp = (SIGNED_INT) && neg;                                                   \
    const ET lo = (ET)(-(INFV));                                                             \
    for (int64_t i = 0; i < np; i++)                                                         \
        for (int64_t j = 0; j < np; j++) {                                                   \
            c[i * np + j] = i < n && j < n ? d[i * n + j] : (INFV);                          \
            q[i * np + j] = i < n && j < n && p ? p[i * n + j] : -1;                         \
        }                                                                                    \
    for (int64_t k = 0; k < nt; k++) {                                                       \
        int64_t K = k * T;                                                                   \
        for (int64_t kk = K; kk < K + T; kk++)              /* phase 1 */                    \
            for (int64_t i = K; i < K + T; i++) {                                            \
                ET a = c[i * np + kk];                                                       \
                for (int64_t j = K; j < K + T; j++) {                                        \
                    ET v = (ET)(a + c[kk * np + j]);                                         \
                    if (v < c[i * np + j]) {                                                 \
                        c[i * np + j] = clamp && v < lo ? lo : v;                            \
                        q[i * np + j] = q[kk * np + j];                                      \
                    }                                                                        \
                }                                                                            \
            }                                                                                \
        if (neg)                                                                             \
            for (int64_t v = K; v < K + T; v++)                                              \
                if (c[v * np + v] < 0) { free(c); free(q); return v; }                       \
        for (int64_t b = 0; b < nt; b++) {                  /* phase 2 */                    \
            if (b == k) continue;                                                            \
            int64_t J = b * T;                                                               \
            for (int64_t r = 0; r < T; r++)                 /* row tile (k, b) */            \
                for (int64_t s = 0; s < T; s++) {                                            \
                    x0[r * T + s] = c[(K + r) * np + J + s];                                 \
                    q0[r * T + s] = q[(K + r) * np + J + s];                                 \
                }                                                                            \
            for (int64_t i = K; i < K + T; i++)                                              \
                for (int64_t j = J; j < J + T; j++)                                          \
                    for (int64_t kk = K; kk < K + T; kk++) {                                 \
                        ET v = (ET)(c[i * np + kk] + x0[(kk - K) * T + j - J]);              \
                        if (v < c[i * np + j]) {                                             \
                            c[i * np + j] = v;                                               \
                            q[i * np + j] = q0[(kk - K) * T + j - J];                        \
                        }                                                                    \
                    }                                                                        \
            for (int64_t r = 0; r < T; r++)                 /* column tile (b, k) */         \
                for (int64_t s = 0; s < T; s++) x0[r * T + s] = c[(J + r) * np + K + s];     \
            for (int64_t i = J; i < J + T; i++)                                              \
                for (int64_t j = K; j < K + T; j++)                                          \
                    for (int64_t kk = K; kk < K + T; kk++) {                                 \
                        ET v = (ET)(x0[(i - J) * T + kk - K] + c[kk * np + j]);              \
                        if (v < c[i * np + j]) {                                             \
                            c[i * np + j] = v;                                               \
                            q[i * np + j] = q[kk * np + j];                                  \
                        }                                                                    \
                    }                                                                        \
        }                                                                                    \
        for (int64_t bi = 0; bi < nt; bi++)                 /* phase 3 */                    \
            for (int64_t bj = 0; bj < nt; bj++) {                                            \
                if (bi == k || bj == k) continue;                                            \
                for (int64_t i = bi * T; i < bi * T + T; i++)                                \
                    for (int64_t j = bj * T; j < bj * T + T; j++)                            \
                        for (int64_t kk = K; kk < K + T; kk++) {                             \
                            ET v = (ET)(c[i * np + kk] + c[kk * np + j]);                    \
                            if (v < c[i * np + j]) {                                         \
                                c[i * np + j] = v;                                           \
                                q[i * np + j] = q[kk * np + j];                              \
                            }                                                                \
                        }                                                                    \
            }                                                                                \
    }                                                                                        \
    for (int64_t i = 0; i < n; i++)                                                          \
        for (int64_t j = 0; j < n; j++) {                                                    \
            ET v = c[i * np + j];                                                            \
            int32_t u = q[i * np + j];                                                       \
            if ((SIGNED_INT) && neg && v > (ET)((INFV) / 2)) { v = (INFV); u = -1; }         \
            d[i * n + j] = v;                                                                \
            if (p) p[i * n + j] = u;                                                         \
        }                                                                                    \
    free(c);                                                                                 \
    free(q);                                                                                 \
    return -1;                                                                               \
}
DEFINE_TILED(i32, int32_t, GK_APSP_INF, 1)
DEFINE_TILED(i64, int64_t, GK_APSP_INF64, 1)
DEFINE_TILED(f32, float, INFINITY, 0)
DEFINE_TILED(f64, double, (double)INFINITY, 0)

static int64_t tiled(void *d, int32_t *p, int V, gk_dtype t, int neg)
{
    switch (t) {
    case GK_DTYPE_INT32: return tiled_i32(d, p, V, neg);
    case GK_DTYPE_INT64: return tiled_i64(d, p, V, neg);
    case GK_DTYPE_FLOAT32: return tiled_f32(d, p, V, neg);
    default: return tiled_f64(d, p, V, neg);
    }
}

/* The float tolerance of the contract against an exact computation. */
static long double tolerance(gk_dtype t, int V, double maxw)
{
    long double u = t == GK_DTYPE_FLOAT32 ? ldexpl(1, -24) : ldexpl(1, -53);
    return 2.0L * (V - 1) * (long double)(V - 1) * u * maxw;
}

/* Distances against the exact reference: integers equal, floats within the
 * tolerance, "no path" exactly where the reference has none.  Returns the
 * number of entries that differ. */
static int64_t bad_distances(const void *d, const long double *ref, int V, gk_dtype t, double maxw)
{
    int64_t bad = 0;
    long double tol = tolerance(t, V, maxw);
    for (int64_t i = 0; i < (int64_t)V * V; i++) {
        if (isinf(ref[i])) { bad += !is_inf_entry(d, t, i); continue; }
        if (is_inf_entry(d, t, i)) { bad++; continue; }
        long double x = get(d, t, i);
        bad += is_float(t) ? fabsl(x - ref[i]) > tol : x != ref[i];
    }
    return bad;
}

/* Every predecessor chain: pred[i][i] = -1, -1 where unreachable, else the
 * chain from j back to i (at most V - 1 steps, over edges of the initial
 * matrix) sums to dist[i][j] (exactly for integers, within the tolerance
 * for floats).  Returns the number of pairs that fail. */
static int64_t bad_chains(const void *d, const int32_t *pred, const double *w, int V, gk_dtype t, double maxw)
{
    int64_t n = V, bad = 0;
    long double tol = tolerance(t, V, maxw);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int32_t pij = pred[i * n + j];
            if (i == j || is_inf_entry(d, t, i * n + j)) { bad += pij != -1; continue; }
            long double sum = 0;
            int64_t x = j, steps = 0;
            int broken = 0;
            while (x != i && !broken) {
                int32_t u = pred[i * n + x];
                if (u < 0 || u >= V || ++steps >= V || isinf(w[u * n + x])) broken = 1;
                else { sum += w[u * n + x]; x = u; }
            }
            long double dij = get(d, t, i * n + j);
            bad += broken || (is_float(t) ? fabsl(sum - dij) > tol : sum != dij);
        }
    return bad;
}

static const char *isa_label[] = { "auto", "generic", "AVX2", "AVX-512" };

/* One graph, one type: the blocked code on every instruction set with and
 * without predecessors, the plain loop, against the references. */
static void check(int V, int kind, gk_dtype t)
{
    double *w = make_graph(V, kind, t);
    double maxw = max_abs(w, V);
    int64_t nn = (int64_t)V * V;
    size_t bytes = (size_t)nn * esize(t), pbytes = (size_t)nn * sizeof(int32_t);
    void *init = to_type(w, V, t), *d = malloc(bytes), *want = malloc(bytes);
    int32_t *p = malloc(pbytes), *pwant = malloc(pbytes), *p0 = malloc(pbytes);
    int neg = gk__apsp_has_negative(init, V, V, t);
    int cyc = kind == K_CYCLE && V >= 2;
    gk__apsp_pred_init(init, V, V, t, p0, V);
    int any_neg = 0;
    for (int64_t i = 0; i < nn; i++) any_neg |= w[i] < 0;
    ok(neg == any_neg && (!cyc || neg), "%s V=%d %s: has_negative = %d", tname(t), V, kname[kind], neg);

    /* the tiled reference, with predecessors (its distances are the same
     * without: predecessors never change a distance) */
    memcpy(want, init, bytes);
    memcpy(pwant, p0, pbytes);
    int64_t want_cycle = tiled(want, pwant, V, t, neg);
    long double *exact = NULL, *closure = NULL;
    if (cyc) {
        closure = ref_closure_neg(w, V);
        ok(want_cycle >= 0 && want_cycle < V && closure[want_cycle * V + want_cycle] < 0,
           "%s V=%d %s: the tiled reference stops at vertex %lld, on a negative closed walk", tname(t), V, kname[kind],
           (long long)want_cycle);
    } else {
        exact = ref_exact(w, V, t);
        int64_t bd = bad_distances(want, exact, V, t, maxw), bc = bad_chains(want, pwant, w, V, t, maxw);
        ok(want_cycle == -1 && bd == 0 && bc == 0,
           "%s V=%d %s: the tiled reference == the exact one (%lld entries differ, %lld chains broken)", tname(t), V,
           kname[kind], (long long)bd, (long long)bc);
    }

    for (int isa = 0; isa <= GK_CPU_ISA_AVX512; isa++) {
        if (!gk_cpu_isa_supported((gk_cpu_isa)isa)) continue;
        for (int with_pred = 0; with_pred < 2; with_pred++) {
            memcpy(d, init, bytes);
            memcpy(p, p0, pbytes);
            int64_t cycle = -7;
            gk_status st = gk__apsp_cpu_run(d, V, t, with_pred ? p : NULL, (gk_cpu_isa)isa, &cycle);
            if (cyc) {
                char msg[64];
                snprintf(msg, sizeof msg, "negative cycle through vertex %lld", (long long)want_cycle);
                ok(st == GK_ENEGCYCLE && cycle == want_cycle && !strcmp(gk_last_error(), msg)
                       && !memcmp(d, init, bytes) && !memcmp(p, p0, pbytes),
                   "%s V=%d %s [%s%s]: GK_ENEGCYCLE at vertex %lld (tiled reference: %lld), \"%s\", input untouched",
                   tname(t), V, kname[kind], isa_label[isa], with_pred ? ", pred" : "", (long long)cycle,
                   (long long)want_cycle, gk_last_error());
                continue;
            }
            int same = st == GK_OK && cycle == -1 && !memcmp(d, want, bytes)
                       && (!with_pred || !memcmp(p, pwant, pbytes));
            ok(same, "%s V=%d %s [%s%s]: blocked == the tiled reference bit for bit%s", tname(t), V, kname[kind],
               isa_label[isa], with_pred ? ", pred" : "", with_pred ? " (distances and predecessors)" : "");
            if (!same && st == GK_OK) {
                for (int64_t i = 0; i < nn; i++)
                    if (memcmp((char *)d + i * esize(t), (char *)want + i * esize(t), esize(t))
                        || (with_pred && p[i] != pwant[i])) {
                        diag("first difference at (%lld, %lld): %.17Lg pred %d, want %.17Lg pred %d", (long long)(i / V),
                             (long long)(i % V), get(d, t, i), p[i], get(want, t, i), pwant[i]);
                        break;
                    }
            }
        }
    }

    /* the plain loop: exact for integers, within the tolerance for floats,
     * valid chains; on a negative cycle a vertex of a negative closed walk */
    memcpy(d, init, bytes);
    memcpy(p, p0, pbytes);
    int64_t cycle = -7;
    gk_status st = gk__apsp_cpu_plain(d, V, t, p, &cycle);
    if (cyc)
        ok(st == GK_ENEGCYCLE && cycle >= 0 && cycle < V && closure[cycle * V + cycle] < 0,
           "%s V=%d %s: plain loop: GK_ENEGCYCLE at vertex %lld, on a negative closed walk", tname(t), V, kname[kind],
           (long long)cycle);
    else {
        int64_t bd = bad_distances(d, exact, V, t, maxw), bc = bad_chains(d, p, w, V, t, maxw);
        ok(st == GK_OK && cycle == -1 && bd == 0 && bc == 0,
           "%s V=%d %s: plain loop == exact (%lld entries differ, %lld chains broken)", tname(t), V, kname[kind],
           (long long)bd, (long long)bc);
        memcpy(d, init, bytes);
        ok(gk__apsp_cpu_plain(d, V, t, NULL, NULL) == GK_OK && bad_distances(d, exact, V, t, maxw) == 0,
           "%s V=%d %s: plain loop without predecessors == exact", tname(t), V, kname[kind]);
    }
    free(w); free(init); free(d); free(want); free(p); free(pwant); free(p0); free(exact); free(closure);
}

/* The helpers of core/apsp_types.h on a matrix with a leading dimension
 * larger than V (the entries past V must not count). */
static void check_helpers(void)
{
    ok(gk__apsp_inf_i64(GK_DTYPE_INT32) == GK_APSP_INF && gk__apsp_inf_i64(GK_DTYPE_INT64) == GK_APSP_INF64
           && gk__apsp_inf_i64(GK_DTYPE_FLOAT32) == 0 && gk__apsp_inf_i64(GK_DTYPE_FLOAT64) == 0
           && GK_APSP_INF64 == (INT64_C(1) << 62) - 1 && GK_APSP_NO_PRED == -1 && GK_APSP_ORDER_TILE == 64,
       "INF per type, GK_APSP_INF64 = 2^62 - 1, GK_APSP_NO_PRED = -1, GK_APSP_ORDER_TILE = 64");
    ok(gk__apsp_dtype_ok(GK_DTYPE_INT32) && gk__apsp_dtype_ok(GK_DTYPE_INT64) && gk__apsp_dtype_ok(GK_DTYPE_FLOAT32)
           && gk__apsp_dtype_ok(GK_DTYPE_FLOAT64) && !gk__apsp_dtype_ok((gk_dtype)0) && !gk__apsp_dtype_ok((gk_dtype)5),
       "gk__apsp_dtype_ok: the four types, nothing else");
    /* 3 x 3 in a leading dimension of 4: column 3 is outside */
    double dm[12] = { 0, 2, INFINITY, -5, INFINITY, 0, -0.0, -5, 1, INFINITY, 0, -5 };
    float fm[12];
    int32_t im[12];
    int64_t lm[12];
    for (int i = 0; i < 12; i++) {
        fm[i] = (float)dm[i];
        im[i] = isinf(dm[i]) ? GK_APSP_INF : (int32_t)dm[i];
        lm[i] = isinf(dm[i]) ? GK_APSP_INF64 : (int64_t)dm[i];
    }
    const void *mats[] = { im, lm, fm, dm };
    for (int k = 0; k < 4; k++) {
        int32_t pred[15];
        for (int i = 0; i < 15; i++) pred[i] = 99;
        gk__apsp_pred_init(mats[k], 3, 4, types[k], pred, 5);
        int32_t want[15] = { -1, 0, -1, 99, 99, -1, -1, 1, 99, 99, 2, -1, -1, 99, 99 };
        ok(!memcmp(pred, want, sizeof want), "%s: pred_init (ld 4, pld 5): i where an edge, -1 on the diagonal and "
           "without one, the rest untouched", tname(types[k]));
        ok(!gk__apsp_has_negative(mats[k], 3, 4, types[k]), "%s: has_negative sees only the V x V part (-0.0 is not "
           "negative)", tname(types[k]));
    }
    dm[9] = -1;
    lm[9] = -1;
    ok(gk__apsp_has_negative(dm, 3, 4, GK_DTYPE_FLOAT64) && gk__apsp_has_negative(lm, 3, 4, GK_DTYPE_INT64),
       "has_negative finds a negative entry");
}

/* The row blocks of a distributed run, simulated in this process: nr parts
 * (rank g owning tile rows first[g] .. first[g + 1] - 1), the owner's panel
 * handed to the others, against gk__apsp_cpu_run bit for bit; and one part
 * through gk__apsp_cpu_part_rounds (a NULL comm: this process alone) with
 * negative weights and a negative cycle. */
static void check_rows(int V, int kind, gk_dtype t, int nr)
{
    double *w = make_graph(V, kind, t);
    int64_t n = V, nt = (n + 63) / 64;
    size_t es = esize(t), bytes = (size_t)(n * n) * es;
    void *init = to_type(w, V, t), *want = malloc(bytes), *got = malloc(bytes);
    memcpy(want, init, bytes);
    int64_t cycle = -1;
    gk_status wst = gk__apsp_cpu_run(want, V, t, NULL, GK_CPU_ISA_AUTO, &cycle);
    int first[5];
    for (int g = 0; g <= nr; g++) first[g] = (int)(nt * g / nr);
    gk_apsp_cpu_part *parts[4] = { 0 };
    gk_status st = GK_OK;
    for (int g = 0; g < nr && !st; g++) {
        st = gk__apsp_cpu_part_open_typed(&parts[g], V, first[g], first[g + 1], GK_CPU_ISA_AUTO, t);
        for (int64_t i = first[g] * 64; !st && i < first[g + 1] * 64 && i < n; i++)
            for (int64_t j = 0; j < n; j++)
                if (i != j && !is_inf_entry(init, t, i * n + j))
                    gk__apsp_cpu_part_edge_typed(parts[g], (int32_t)i, (int32_t)j, (char *)init + (i * n + j) * es);
    }
    if (nr == 1 && !st) {
        st = gk__apsp_cpu_part_rounds(parts[0], NULL, first, (int)nt, &(double){ 0 });
        ok(st == wst && gk__apsp_cpu_part_cycle(parts[0]) == cycle,
           "%s V=%d %s: one part's rounds: status %d, cycle %lld (gk__apsp_cpu_run: %d, %lld)", tname(t), V,
           kname[kind], st, (long long)gk__apsp_cpu_part_cycle(parts[0]), wst, (long long)cycle);
    } else if (!st) {
        for (int64_t k = 0, g = 0; k < nt; k++) {
            while (first[g + 1] <= k) g++;
            const void *panel = gk__apsp_cpu_part_pivot(parts[g], k);
            for (int h = 0; h < nr; h++) {
                void *buf = gk__apsp_cpu_part_panel_buffer(parts[h]);
                if (h != g) memcpy(buf, panel, gk__apsp_cpu_part_panel_bytes(parts[h]));
                gk__apsp_cpu_part_update(parts[h], k, h == g ? panel : buf);
            }
        }
    }
    if (!st) {
        for (int g = 0; g < nr; g++)
            for (int64_t i = first[g] * 64; i < first[g + 1] * 64 && i < n; i++)
                gk__apsp_cpu_part_get_row(parts[g], i, (char *)got + i * n * (int64_t)es);
        ok(wst == GK_OK && !memcmp(got, want, bytes), "%s V=%d %s, %d part(s): row blocks == gk__apsp_cpu_run bit for bit",
           tname(t), V, kname[kind], nr);
    }
    for (int g = 0; g < nr; g++) gk__apsp_cpu_part_close(parts[g]);
    free(w); free(init); free(want); free(got);
}

int main(void)
{
    no_plan();
    check_helpers();

    int sizes[] = { 1, 2, 63, 64, 65, 130 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t ti = 0; ti < 4; ti++)
            for (int kind = 0; kind < K_N; kind++)
                if (kind_fits(kind, types[ti]))
                    check(sizes[s], kind, types[ti]);
    /* larger, fewer */
    check(200, K_NEG, GK_DTYPE_FLOAT64);
    check(200, K_REAL, GK_DTYPE_FLOAT32);
    check(200, K_ZERONEG, GK_DTYPE_INT32);
    check(257, K_BIGNEG, GK_DTYPE_INT64);
    check(257, K_CYCLE, GK_DTYPE_FLOAT64);
    check(257, K_DAG, GK_DTYPE_INT32);          /* (V-1) max|w| just below INF/2 */

    /* the int32 fast path (no negative weights, no predecessors) is
     * gk__apsp_cpu: the same bits */
    {
        double *w = make_graph(150, K_POS, GK_DTYPE_INT32);
        int32_t *a = to_type(w, 150, GK_DTYPE_INT32), *b = to_type(w, 150, GK_DTYPE_INT32);
        ok(gk__apsp_cpu_run(a, 150, GK_DTYPE_INT32, NULL, GK_CPU_ISA_AUTO, NULL) == GK_OK
               && gk__apsp_cpu(b, 150, GK_CPU_ISA_AUTO) == GK_OK && !memcmp(a, b, 150 * 150 * 4),
           "int32, non-negative, no predecessors: gk__apsp_cpu_run == gk__apsp_cpu");
        free(w); free(a); free(b);
    }

    /* the row blocks of a distributed run */
    for (size_t ti = 0; ti < 4; ti++) {
        check_rows(200, K_NEG, types[ti], 3);
        check_rows(130, K_POS, types[ti], 2);
        check_rows(130, K_NEG, types[ti], 1);
        check_rows(130, K_CYCLE, types[ti], 1);
        check_rows(65, K_SPLIT, types[ti], 1);
    }

    /* bad arguments */
    int32_t one = 0;
    ok(gk__apsp_cpu_run(&one, 0, GK_DTYPE_INT32, NULL, GK_CPU_ISA_AUTO, NULL) == GK_EINVAL, "V = 0 refused: %s",
       gk_last_error());
    ok(gk__apsp_cpu_run(&one, 1, (gk_dtype)9, NULL, GK_CPU_ISA_AUTO, NULL) == GK_EINVAL
           && strstr(gk_last_error(), "type 9"), "an unknown type refused: %s", gk_last_error());
    ok(gk__apsp_cpu_run(&one, 1, GK_DTYPE_INT32, NULL, (gk_cpu_isa)17, NULL) == GK_ENODEV,
       "an unknown instruction set refused: %s", gk_last_error());
    ok(gk__apsp_cpu_plain(&one, 0, GK_DTYPE_INT32, NULL, NULL) == GK_EINVAL
           && gk__apsp_cpu_plain(&one, 1, (gk_dtype)0, NULL, NULL) == GK_EINVAL, "the plain loop refuses them too");
    return done_testing();
}
