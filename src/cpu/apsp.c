/* apsp.c - Floyd-Warshall on the CPU: the blocked backend and the plain
 * k-i-j loop it is measured against.
 *
 * The blocked version copies the matrix into tile-major order (B x B tiles,
 * each contiguous, padded with INF to a multiple of B), then for each pivot
 * tile k: phase 1 closes the pivot tile, phase 2 updates the tiles of pivot
 * row and column (a min-plus product with the closed pivot), phase 3 the rest
 * (a min-plus product of a column tile and a row tile).  Phases 2 and 3 use
 * one register-blocked micro-kernel: R rows of the output tile stay in
 * registers while k runs over the tile, so each loaded row of the right
 * operand feeds R rows of updates.  Every value ever stored is the length of
 * some path (or INF) and never above the value it replaces, so updating in
 * place (a tile read while it is written) gives the same closure.
 *
 * The kernels are compiled for AVX-512, AVX2 and the baseline ISA (GCC/clang
 * target_clones; the loader picks one), the baseline loop too, so the
 * comparison is fair on any x86-64. */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>

#define B 64          /* tile edge: three 16 KiB tiles stay in L1/L2 */
#define R 4           /* output rows held in registers by the micro-kernel */

#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones) && !defined(__clang__) && defined(__linux__)
#define GK_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef GK_CLONES
#define GK_CLONES
#endif

static inline int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }

/* Phase 1: the k-i-j loop inside one tile (k must be outermost). */
GK_CLONES static void fw_tile(int32_t *c)
{
    for (int k = 0; k < B; k++)
        for (int i = 0; i < B; i++) {
            int32_t a = c[i * B + k];
            int32_t *ci = c + i * B;
            const int32_t *ck = c + k * B;
#pragma omp simd
            for (int j = 0; j < B; j++)
                ci[j] = imin(ci[j], a + ck[j]);
        }
}

/* c = min(c, a (min,+) b) for B x B tiles; a or b may be c itself. */
GK_CLONES static void minplus_tile(int32_t *c, const int32_t *a, const int32_t *b)
{
    for (int i0 = 0; i0 < B; i0 += R) {
        int32_t acc[R][B];
        memcpy(acc, c + i0 * B, sizeof acc);
        for (int k = 0; k < B; k++) {
            const int32_t *bk = b + k * B;
            for (int r = 0; r < R; r++) {
                int32_t x = a[(i0 + r) * B + k];
#pragma omp simd
                for (int j = 0; j < B; j++)
                    acc[r][j] = imin(acc[r][j], x + bk[j]);
            }
        }
        memcpy(c + i0 * B, acc, sizeof acc);
    }
}

gk_status gk_apsp_cpu(int32_t *dist, int32_t V)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu: V = %d", V);
    int64_t n = V, nt = (n + B - 1) / B, np = nt * B;
    int32_t *t;
    gk_status st = gk__xmalloc((void **)&t, (size_t)(np * np) * sizeof *t, "the CPU APSP tiles");
    if (st) return st;
#define TILE(bi, bj) (t + ((bi) * nt + (bj)) * (int64_t)(B * B))

#pragma omp parallel
    {
        /* to tile-major order, INF in the padding */
#pragma omp for schedule(static)
        for (int64_t i = 0; i < np; i++)
            for (int64_t bj = 0; bj < nt; bj++) {
                int32_t *dst = TILE(i / B, bj) + (i % B) * B;
                for (int64_t j = 0; j < B; j++) {
                    int64_t jj = bj * B + j;
                    dst[j] = i < n && jj < n ? dist[i * n + jj] : GK_APSP_INF;
                }
            }
        for (int64_t k = 0; k < nt; k++) {
#pragma omp single
            fw_tile(TILE(k, k));
#pragma omp for schedule(dynamic, 1)
            for (int64_t x = 0; x < 2 * nt; x++) {
                int64_t j = x >> 1;
                if (j == k) continue;
                if (x & 1) minplus_tile(TILE(j, k), TILE(j, k), TILE(k, k));
                else       minplus_tile(TILE(k, j), TILE(k, k), TILE(k, j));
            }
#pragma omp for schedule(static) collapse(2)
            for (int64_t bi = 0; bi < nt; bi++)
                for (int64_t bj = 0; bj < nt; bj++)
                    if (bi != k && bj != k)
                        minplus_tile(TILE(bi, bj), TILE(bi, k), TILE(k, bj));
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; i++)
            for (int64_t bj = 0; bj < nt; bj++) {
                const int32_t *src = TILE(i / B, bj) + (i % B) * B;
                int64_t m = n - bj * B < B ? n - bj * B : B;
                memcpy(dist + i * n + bj * B, src, (size_t)m * sizeof *src);
            }
    }
#undef TILE
    free(t);
    return GK_OK;
}

/* One row of the plain loop: d_i = min(d_i, d_ik + d_k). */
GK_CLONES static void row_update(int32_t *di, const int32_t *dk, int32_t dik, int64_t n)
{
#pragma omp simd
    for (int64_t j = 0; j < n; j++)
        di[j] = imin(di[j], dik + dk[j]);
}

gk_status gk_apsp_cpu_simple(int32_t *dist, int32_t V)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu_simple: V = %d", V);
    int64_t n = V;
#pragma omp parallel
    for (int64_t k = 0; k < n; k++) {
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; i++)
            if (i != k)   /* row k cannot change (d[k][k] >= 0); skipping it avoids a race */
                row_update(dist + i * n, dist + k * n, dist[i * n + k], n);
    }
    return GK_OK;
}
