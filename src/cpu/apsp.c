/* apsp.c - Floyd-Warshall on the CPU: the blocked rounds every element
 * type shares, the int32 and exact 16-bit drivers, and the settling step of
 * the 16-bit path.
 *
 * The blocked version copies the matrix into tile-major order (B x B tiles,
 * each contiguous, padded to a multiple of B with "no edge"), then for each
 * pivot tile k: phase 1 closes the pivot tile, phase 2 updates the tiles of
 * pivot row and column (a min-plus product with the closed pivot), phase 3
 * the rest (a min-plus product of a column tile and a row tile), all with
 * the tile operations of apsp_kernels.c.  For int32 and 16 bits without
 * negative weights every value ever stored is the length of some path (or
 * INF) and never above the value it replaces, so updating in place (a tile
 * read while it is written) gives the same closure; the ordered paths
 * (floats, predecessors) read copies instead (GK__FW_ORDERED). */
#include "cpu/apsp_tile.h"
#include "cpu/apsp_cpu.h"
#include "core/checked.h"

#include <stdlib.h>
#include <string.h>

#define B GK__APSP_B
#define CAP GK_APSP16_CAP

#ifdef _OPENMP
#include <omp.h>
#endif

/* Threads for a blocked Floyd-Warshall over nt x nt tiles: no more than
 * there are tiles (each round's widest phase), so a small graph is not
 * spread over a large machine only to pay 3 nt barriers of all its threads
 * (on a loaded 64-core machine that made V < 200 take seconds). */
int gk__apsp_team(int64_t nt)
{
#ifdef _OPENMP
    int64_t t = omp_get_max_threads();
    return (int)(nt * nt < t ? nt * nt : t);
#else
    (void)nt;
    return 1;
#endif
}

void gk__apsp_copy4(void *dst, const void *src, int64_t m) { memcpy(dst, src, (size_t)m * 4); }
void gk__apsp_copy8(void *dst, const void *src, int64_t m) { memcpy(dst, src, (size_t)m * 8); }

void gk__apsp_tiles_in(void *tv, size_t es, int64_t nt, const void *src, size_t sbytes, int64_t n, gk__apsp_conv conv,
                       const void *pad)
{
    char *t = tv;
    const char *s = src;
    int64_t np = nt * B;
#pragma omp parallel for schedule(static) num_threads(gk__apsp_team(nt))
    for (int64_t i = 0; i < np; i++)
        for (int64_t bj = 0; bj < nt; bj++) {
            char *dst = t + (((i / B) * nt + bj) * B * B + (i % B) * B) * (int64_t)es;
            int64_t m = i >= n ? 0 : n - bj * B < B ? n - bj * B : B;
            if (m) conv(dst, s + (i * n + bj * B) * (int64_t)sbytes, m);
            for (int64_t j = m; j < B; j++)
                memcpy(dst + j * (int64_t)es, pad, es);
        }
}

void gk__apsp_tiles_out(void *dstv, size_t dbytes, int64_t n, const void *tv, size_t es, int64_t nt, gk__apsp_conv conv)
{
    char *d = dstv;
    const char *t = tv;
#pragma omp parallel for schedule(static) num_threads(gk__apsp_team(nt))
    for (int64_t i = 0; i < n; i++)
        for (int64_t bj = 0; bj < nt; bj++) {
            const char *src = t + (((i / B) * nt + bj) * B * B + (i % B) * B) * (int64_t)es;
            int64_t m = n - bj * B < B ? n - bj * B : B;
            conv(d + (i * n + bj * B) * (int64_t)dbytes, src, m);
        }
}

int64_t gk__apsp_cpu_rounds(const gk__apsp_tiles *o, void *tv, void *pv, int64_t nt, int flags)
{
    char *t = tv, *p = pv;
    const int64_t tb = (int64_t)B * B * (int64_t)o->es, pb = (int64_t)B * B * (int64_t)o->ps;
    const int ordered = flags & GK__FW_ORDERED, clamp = !!(flags & GK__FW_CLAMP), check = flags & GK__FW_CHECK;
    int64_t cycle = -1;
#define T_(bi, bj) (t + ((bi) * nt + (bj)) * tb)
#define P_(bi, bj) (p ? p + ((bi) * nt + (bj)) * pb : NULL)
#pragma omp parallel num_threads(gk__apsp_team(nt))
    {
        /* phase 2's copies of X0 / Y0 and of X0's predecessors */
        _Alignas(64) unsigned char s[B * B * 8], sp[B * B * 8];
        for (int64_t k = 0; k < nt; k++) {
#pragma omp single
            {
                int v = o->close(T_(k, k), P_(k, k), clamp);
                if (check && v >= 0) cycle = k * B + v;
            }
            if (cycle >= 0)     /* every thread reads it after the single's barrier */
                break;
            char *piv = T_(k, k);
#pragma omp for schedule(dynamic, 1)
            for (int64_t x = 0; x < 2 * nt; x++) {
                int64_t j = x >> 1;
                if (j == k) continue;
                if (x & 1) {    /* column tile: Y = min(Y0, Y0 (min,+) P*) */
                    char *y = T_(j, k);
                    const void *y0 = y;
                    if (ordered) { memcpy(s, y, (size_t)tb); y0 = s; }
                    if (p) o->minplus_pred(y, P_(j, k), y0, piv, P_(k, k));
                    else   o->minplus(y, y0, piv);
                } else {        /* row tile: X = min(X0, P* (min,+) X0) */
                    char *x0 = T_(k, j), *px = P_(k, j);
                    const void *b0 = x0, *pb0 = px;
                    if (ordered) {
                        memcpy(s, x0, (size_t)tb);
                        b0 = s;
                        if (px) { memcpy(sp, px, (size_t)pb); pb0 = sp; }
                    }
                    if (px) o->minplus_pred(x0, px, piv, b0, pb0);
                    else    o->minplus(x0, piv, b0);
                }
            }
#pragma omp for schedule(static) collapse(2)
            for (int64_t bi = 0; bi < nt; bi++)
                for (int64_t bj = 0; bj < nt; bj++)
                    if (bi != k && bj != k) {
                        if (p) o->minplus_pred(T_(bi, bj), P_(bi, bj), T_(bi, k), T_(k, bj), P_(k, bj));
                        else   o->minplus(T_(bi, bj), T_(bi, k), T_(k, bj));
                    }
        }
    }
#undef T_
#undef P_
    return cycle;
}

/* np x np tiles of es bytes, the size checked in 64 bits. */
gk_status gk__apsp_tiles_alloc(void **t, int64_t nt, size_t es, const char *what)
{
    uint64_t n;
    *t = NULL;
    if (gk__mul_u64((uint64_t)nt * B, (uint64_t)nt * B, &n) || gk__mul_u64(n, es, &n) || n > SIZE_MAX)
        return gk__fail(GK_ENOMEM, "%s: %lld x %lld tiles of %d x %d entries overflow the address space", what,
                        (long long)nt, (long long)nt, B, B);
    return gk__xmalloc(t, (size_t)n, what);
}

gk_status gk__apsp_cpu(int32_t *dist, int32_t V, gk_cpu_isa isa)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu: V = %d", V);
    gk__apsp_tiles o;
    gk_status st = gk__apsp_cpu_tiles(isa, GK_DTYPE_INT32, &o, "gk_apsp_cpu");
    if (st) return st;
    int64_t n = V, nt = (n + B - 1) / B;
    void *t;
    if ((st = gk__apsp_tiles_alloc(&t, nt, sizeof(int32_t), "the CPU APSP tiles")))
        return st;
    const int32_t inf = GK_APSP_INF;
    gk__apsp_tiles_in(t, sizeof(int32_t), nt, dist, sizeof(int32_t), n, gk__apsp_copy4, &inf);
    gk__apsp_cpu_rounds(&o, t, NULL, nt, 0);
    gk__apsp_tiles_out(dist, sizeof(int32_t), n, t, sizeof(int32_t), nt, gk__apsp_copy4);
    free(t);
    return GK_OK;
}

gk_status gk__apsp_cpu_simple(int32_t *dist, int32_t V)
{
    return gk__apsp_cpu_plain(dist, V, GK_DTYPE_INT32, NULL, NULL);
}

/* ------------------------------------------------------------------
 * The exact 16-bit path (the argument is in apsp_cpu.h's comment on
 * gk__apsp_cpu16): the same blocked rounds on uint16_t, every initial entry
 * clamped to the cap C = GK_APSP16_CAP = 32767, so a + b <= 2C = 65534 never
 * wraps a 16-bit lane, and the micro-kernel does 32 updates per AVX-512BW
 * instruction pair (16 with AVX2, 8 with the baseline ISA). */

/* int32 entries in [0, INF] to 16-bit lanes, clamped to the cap */
static void to_u16(void *dst, const void *src, int64_t m)
{
    uint16_t *d = dst;
    const int32_t *s = src;
    for (int64_t j = 0; j < m; j++)
        d[j] = (uint16_t)(s[j] < CAP ? s[j] : CAP);
}

static void copy2(void *dst, const void *src, int64_t m) { memcpy(dst, src, (size_t)m * 2); }

gk_status gk__apsp_cpu16(const int32_t *dist, uint16_t *out, int32_t V, gk_cpu_isa isa)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu16: V = %d", V);
    gk__apsp_tiles o;
    gk_status st = gk__apsp_cpu_tiles(isa, GK__APSP_U16, &o, "gk_apsp_cpu16");
    if (st) return st;
    int64_t n = V, nt = (n + B - 1) / B;
    void *t;
    if ((st = gk__apsp_tiles_alloc(&t, nt, sizeof(uint16_t), "the CPU APSP 16-bit tiles")))
        return st;
    /* the padding at the cap: it adds no path shorter than the cap */
    const uint16_t cap = CAP;
    gk__apsp_tiles_in(t, sizeof(uint16_t), nt, dist, sizeof(int32_t), n, to_u16, &cap);
    gk__apsp_cpu_rounds(&o, t, NULL, nt, 0);
    gk__apsp_tiles_out(out, sizeof(uint16_t), n, t, sizeof(uint16_t), nt, copy2);
    free(t);
    return GK_OK;
}

gk_status gk__apsp16_resolve(const int32_t *in, const uint16_t *m16, int32_t V, int32_t *out, int *how)
{
    int64_t n = V, nn = n * n, at_cap = 0;
    int32_t maxw = 0;
    int heavy_at_cap = 0;
    *how = GK_APSP16_NOT_EXACT;
#pragma omp parallel for schedule(static) reduction(+ : at_cap) reduction(max : maxw) reduction(| : heavy_at_cap)
    for (int64_t i = 0; i < nn; i++) {
        at_cap += m16[i] == CAP;
        if (in[i] < GK_APSP_INF) {
            if (in[i] > maxw) maxw = in[i];
            heavy_at_cap |= in[i] >= CAP && m16[i] == CAP;   /* (a) broken */
        }
    }
    if (at_cap == 0)
        *how = GK_APSP16_NO_CAP;
    else if ((double)n * maxw < CAP)
        /* a finite distance is the length of a path of at most V edges (a
         * simple path, or a cycle back to its start): below the cap */
        *how = GK_APSP16_BOUND;
    else if (heavy_at_cap)
        return GK_OK;
    else {
        /* (b) of apsp_cpu.h: m[i][u] < C and a finite in[u][v] imply
         * m[i][v] < C.  m is exact below C and the closure obeys
         * m[i][v] <= m[i][u] + in[u][v], so only a pair with
         * in[u][v] >= C - m[i][u] can break it: only entries m[i][u] in
         * the band [C - maxw, C) need their row u of in looked at.  The
         * band is empty when the distances stay well below the cap; when it
         * is too wide for the look to be cheap, rerun in 32 bits instead. */
        const int32_t lo = maxw >= CAP ? 0 : CAP - maxw;
        int64_t band = 0;
#pragma omp parallel for schedule(static) reduction(+ : band)
        for (int64_t i = 0; i < nn; i++)
            band += m16[i] >= lo && m16[i] < CAP;
        if ((double)band * (double)n > 4.0 * (double)nn + (double)(1 << 26))
            return GK_OK;
        int fail = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(| : fail)
        for (int64_t i = 0; i < n; i++) {
            const uint16_t *mi = m16 + i * n;
            for (int64_t u = 0; u < n && !fail; u++) {
                if (mi[u] < lo || mi[u] >= CAP)
                    continue;
                const int32_t need = CAP - mi[u];
                const int32_t *row = in + u * n;
                for (int64_t v = 0; v < n; v++)
                    if (row[v] >= need && row[v] < GK_APSP_INF && mi[v] == CAP) { fail = 1; break; }
            }
        }
        if (fail)
            return GK_OK;
        *how = GK_APSP16_UNREACHABLE;
    }
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < nn; i++)
        out[i] = m16[i] == CAP ? GK_APSP_INF : (int32_t)m16[i];
    return GK_OK;
}

const char *gk__apsp16_how_text(int how)
{
    switch (how) {
    case GK_APSP16_NO_CAP: return "16-bit, exact: no distance reached the cap 32767";
    case GK_APSP16_BOUND: return "16-bit, exact: V x max weight < 32767, so every entry at the cap is unreachable";
    case GK_APSP16_UNREACHABLE: return "16-bit, exact: every entry at the cap 32767 shown unreachable";
    default: return "16-bit run, then 32-bit: the entries at the cap 32767 could not be settled in 16 bits";
    }
}
