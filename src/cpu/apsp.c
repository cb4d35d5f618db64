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
 * With GCC on x86-64 the kernels are compiled for AVX-512, AVX2 and the
 * baseline ISA and picked at run time (the micro-kernel by hand, the rest and
 * the plain loop by target_clones), so the comparison is fair on any x86-64. */
#include "cpu/apsp_cpu.h"

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
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GK_X86_DISPATCH 1
#include <immintrin.h>
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

/* The micro-kernel, c = min(c, a (min,+) b) for B x B tiles (a or b may be
 * c itself), written once with GCC vector types of W int32 lanes and
 * instantiated per instruction set: RR rows x NQ vectors of the output stay
 * in registers while k runs over the tile, one column block of NQ * W at a
 * time.  A vector type wider than the target's registers would be split
 * through memory, so each ISA gets its own width and blocking. */
#define DEFINE_MINPLUS(NAME, VT, W, RR, NQ, ATTR, VMIN) \
ATTR static void NAME(int32_t *c, const int32_t *a, const int32_t *b) \
{ \
    for (int j0 = 0; j0 < B; j0 += (NQ) * (W)) \
        for (int i0 = 0; i0 < B; i0 += (RR)) { \
            VT acc[RR][NQ]; \
            _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++) \
            _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) \
                memcpy(&acc[r][q], c + (i0 + r) * B + j0 + (W) * q, sizeof(VT)); \
            for (int k = 0; k < B; k++) { \
                VT bk[NQ]; \
                _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) \
                    memcpy(&bk[q], b + k * B + j0 + (W) * q, sizeof(VT)); \
                _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++) { \
                    VT x = (VT){ 0 } + a[(i0 + r) * B + k]; \
                    _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) { \
                        acc[r][q] = VMIN(acc[r][q], x + bk[q]); \
                    } \
                } \
            } \
            _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++) \
            _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) \
                memcpy(c + (i0 + r) * B + j0 + (W) * q, &acc[r][q], sizeof(VT)); \
        } \
}

typedef int32_t v4 __attribute__((vector_size(16)));
/* portable (SSE2 has no pminsd): a compare and a blend */
static inline v4 vmin_generic(v4 x, v4 y) { v4 lt = x < y; return (x & lt) | (y & ~lt); }
DEFINE_MINPLUS(minplus_generic, v4, 4, 4, 2, , vmin_generic)            /* 8 of 16 xmm */
#ifdef GK_X86_DISPATCH
typedef int32_t v8 __attribute__((vector_size(32)));
typedef int32_t v16 __attribute__((vector_size(64)));
#define VMIN_AVX2(x, y) ((v8)_mm256_min_epi32((__m256i)(x), (__m256i)(y)))
#define VMIN_AVX512(x, y) ((v16)_mm512_min_epi32((__m512i)(x), (__m512i)(y)))
DEFINE_MINPLUS(minplus_avx2, v8, 8, 4, 2, __attribute__((target("avx2"))), VMIN_AVX2)              /* 8 of 16 ymm */
DEFINE_MINPLUS(minplus_avx512, v16, 16, R, B / 16, __attribute__((target("avx512f"))), VMIN_AVX512) /* 16 of 32 zmm */
#endif

typedef void (*minplus_fn)(int32_t *, const int32_t *, const int32_t *);

static minplus_fn pick_minplus(void)
{
#ifdef GK_X86_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return minplus_avx512;
    if (__builtin_cpu_supports("avx2")) return minplus_avx2;
#endif
    return minplus_generic;
}

gk_status gk__apsp_cpu(int32_t *dist, int32_t V)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu: V = %d", V);
    int64_t n = V, nt = (n + B - 1) / B, np = nt * B;
    int32_t *t;
    minplus_fn minplus_tile = pick_minplus();
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

gk_status gk__apsp_cpu_simple(int32_t *dist, int32_t V)
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

/* The tile operations, for the row-block engine of src/cpu/apsp_rows.c. */
void gk__apsp_cpu_tile_ops(void (**close)(int32_t *), void (**minplus)(int32_t *, const int32_t *, const int32_t *))
{
    _Static_assert(B == GK_APSP_CPU_TILE, "apsp_cpu.h's tile edge is this file's");
    *close = fw_tile;
    *minplus = pick_minplus();
}
