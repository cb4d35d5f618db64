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

#ifdef _OPENMP
#include <omp.h>
#endif

/* Threads for a blocked Floyd-Warshall over nt x nt tiles: no more than
 * there are tiles (each round's widest phase), so a small graph is not
 * spread over a large machine only to pay 3 nt barriers of all its threads
 * (on a loaded 64-core machine that made V < 200 take seconds). */
static inline int team(int64_t nt)
{
#ifdef _OPENMP
    int64_t t = omp_get_max_threads();
    return (int)(nt * nt < t ? nt * nt : t);
#else
    (void)nt;
    return 1;
#endif
}
#define R 4           /* output rows held in registers by the micro-kernel */

/* Not under ThreadSanitizer (--enable-sanitizers=thread): the ifunc
 * resolvers target_clones makes run while the dynamic linker relocates,
 * before TSan's runtime is up, and TSan instruments them (a crash at
 * start-up).  Those loops then take the baseline instruction set; the
 * micro-kernels keep their run-time choice. */
#if defined(__x86_64__) && defined(__has_attribute) && !defined(__SANITIZE_THREAD__)
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
#define DEFINE_MINPLUS(NAME, VT, W, RR, NQ, ATTR, VMIN) DEFINE_MINPLUS_T(NAME, int32_t, B, VT, W, RR, NQ, ATTR, VMIN)
#define DEFINE_MINPLUS_T(NAME, ET, B, VT, W, RR, NQ, ATTR, VMIN) \
ATTR static void NAME(ET *c, const ET *a, const ET *b) \
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

/* The instruction set of the micro-kernels: the caller's (the context's
 * cpu_isa, passed down by the front doors: no process-wide choice, so that
 * threads with contexts of different sets run at once), AUTO meaning the
 * best this CPU has.  ISA_* are the sets this file has kernels for;
 * gk_cpu_isa_supported's AVX512 is AVX-512 F and BW, what they need. */
enum { ISA_GENERIC, ISA_AVX2, ISA_AVX512 };

static int pick_isa(gk_cpu_isa isa)
{
    if (isa == GK_CPU_ISA_AUTO) isa = gk__cpu_isa_best();
    return isa == GK_CPU_ISA_AVX512 ? ISA_AVX512 : isa == GK_CPU_ISA_AVX2 ? ISA_AVX2 : ISA_GENERIC;
}

/* GK_ENODEV naming `fn` unless this CPU runs isa's kernels. */
static gk_status isa_check(gk_cpu_isa isa, const char *fn)
{
    if ((unsigned)isa > GK_CPU_ISA_AVX512 || !gk_cpu_isa_supported(isa))
        return gk__fail(GK_ENODEV, "%s: this CPU cannot run the APSP micro-kernels for instruction set %d (%s)", fn,
                        (int)isa, gk_cpu_isa_name(isa));
    return GK_OK;
}

const char *gk__apsp_cpu_kernel_name(gk_cpu_isa isa)
{
    switch (pick_isa(isa)) {
    case ISA_AVX512: return "AVX-512 micro-kernels, 64x64 tiles";
    case ISA_AVX2: return "AVX2 micro-kernels, 64x64 tiles";
    default: return "generic micro-kernels, 64x64 tiles";
    }
}

static minplus_fn pick_minplus(gk_cpu_isa isa)
{
#ifdef GK_X86_DISPATCH
    switch (pick_isa(isa)) {
    case ISA_AVX512: return minplus_avx512;
    case ISA_AVX2: return minplus_avx2;
    }
#else
    (void)isa;
#endif
    return minplus_generic;
}

gk_status gk__apsp_cpu(int32_t *dist, int32_t V, gk_cpu_isa isa)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu: V = %d", V);
    gk_status st = isa_check(isa, "gk_apsp_cpu");
    if (st) return st;
    int64_t n = V, nt = (n + B - 1) / B, np = nt * B;
    int32_t *t;
    minplus_fn minplus_tile = pick_minplus(isa);
    st = gk__xmalloc((void **)&t, (size_t)(np * np) * sizeof *t, "the CPU APSP tiles");
    if (st) return st;
#define TILE(bi, bj) (t + ((bi) * nt + (bj)) * (int64_t)(B * B))

#pragma omp parallel num_threads(team(nt))
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

/* ------------------------------------------------------------------
 * The exact 16-bit path (the argument is in apsp_cpu.h's comment on
 * gk__apsp_cpu16): the same blocked scheme on uint16_t, every initial entry
 * clamped to the cap C = GK_APSP16_CAP = 32767, so a + b <= 2C = 65534 never
 * wraps a 16-bit lane, and the micro-kernel does 32 updates per AVX-512BW
 * instruction pair (16 with AVX2, 8 with the baseline ISA). */
#define CAP GK_APSP16_CAP


/* Phase 1 in 16 bits: the k-i-j loop inside one tile (target_clones takes
 * no "avx512bw": its AVX-512F clone runs this on 256-bit lanes). */
GK_CLONES static void fw_tile16(uint16_t *c)
{
    for (int k = 0; k < B; k++)
        for (int i = 0; i < B; i++) {
            uint16_t a = c[i * B + k];
            uint16_t *ci = c + i * B;
            const uint16_t *ck = c + k * B;
#pragma omp simd
            for (int j = 0; j < B; j++) {
                uint16_t v = (uint16_t)(a + ck[j]);   /* <= 2C: no wrap */
                ci[j] = v < ci[j] ? v : ci[j];
            }
        }
}

typedef uint16_t u8x16 __attribute__((vector_size(16)));
static inline u8x16 vmin16_generic(u8x16 x, u8x16 y) { u8x16 lt = (u8x16)(x < y); return (x & lt) | (y & ~lt); }
DEFINE_MINPLUS_T(minplus16_generic, uint16_t, B, u8x16, 8, 4, 2, , vmin16_generic)     /* 8 of 16 xmm */
#ifdef GK_X86_DISPATCH
typedef uint16_t u16x16 __attribute__((vector_size(32)));
typedef uint16_t u32x16 __attribute__((vector_size(64)));
#define VMIN16_AVX2(x, y) ((u16x16)_mm256_min_epu16((__m256i)(x), (__m256i)(y)))
#define VMIN16_AVX512(x, y) ((u32x16)_mm512_min_epu16((__m512i)(x), (__m512i)(y)))
DEFINE_MINPLUS_T(minplus16_avx2, uint16_t, B, u16x16, 16, 2, 4, __attribute__((target("avx2"))), VMIN16_AVX2)  /* 8 of 16 ymm */
DEFINE_MINPLUS_T(minplus16_avx512, uint16_t, B, u32x16, 32, 8, 2, __attribute__((target("avx512f,avx512bw"))),
                 VMIN16_AVX512)                                                                   /* 16 of 32 zmm */
#endif

typedef void (*minplus16_fn)(uint16_t *, const uint16_t *, const uint16_t *);

static minplus16_fn pick_minplus16(gk_cpu_isa isa)
{
#ifdef GK_X86_DISPATCH
    switch (pick_isa(isa)) {
    case ISA_AVX512: return minplus16_avx512;
    case ISA_AVX2: return minplus16_avx2;
    }
#else
    (void)isa;
#endif
    return minplus16_generic;
}

gk_status gk__apsp_cpu16(const int32_t *dist, uint16_t *out, int32_t V, gk_cpu_isa isa)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "gk_apsp_cpu16: V = %d", V);
    gk_status st = isa_check(isa, "gk_apsp_cpu16");
    if (st) return st;
    int64_t n = V, nt = (n + B - 1) / B, np = nt * B;
    uint16_t *t;
    minplus16_fn minplus_tile = pick_minplus16(isa);
    st = gk__xmalloc((void **)&t, (size_t)(np * np) * sizeof *t, "the CPU APSP 16-bit tiles");
    if (st) return st;
#define TILE(bi, bj) (t + ((bi) * nt + (bj)) * (int64_t)(B * B))

#pragma omp parallel num_threads(team(nt))
    {
        /* to tile-major order, every entry clamped to the cap, the padding
         * at the cap (it adds no path shorter than the cap) */
#pragma omp for schedule(static)
        for (int64_t i = 0; i < np; i++)
            for (int64_t bj = 0; bj < nt; bj++) {
                uint16_t *dst = TILE(i / B, bj) + (i % B) * B;
                for (int64_t j = 0; j < B; j++) {
                    int64_t jj = bj * B + j;
                    int32_t v = i < n && jj < n ? dist[i * n + jj] : CAP;
                    dst[j] = (uint16_t)(v < CAP ? v : CAP);
                }
            }
        for (int64_t k = 0; k < nt; k++) {
#pragma omp single
            fw_tile16(TILE(k, k));
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
                const uint16_t *src = TILE(i / B, bj) + (i % B) * B;
                int64_t m = n - bj * B < B ? n - bj * B : B;
                memcpy(out + i * n + bj * B, src, (size_t)m * sizeof *src);
            }
    }
#undef TILE
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

/* The tile operations, for the row-block engine of src/cpu/apsp_rows.c. */
gk_status gk__apsp_cpu_tile_ops(gk_cpu_isa isa, void (**close)(int32_t *),
                                void (**minplus)(int32_t *, const int32_t *, const int32_t *))
{
    _Static_assert(B == GK_APSP_CPU_TILE, "apsp_cpu.h's tile edge is this file's");
    gk_status st = isa_check(isa, "the CPU row block");
    if (st) return st;
    *close = fw_tile;
    *minplus = pick_minplus(isa);
    return GK_OK;
}
