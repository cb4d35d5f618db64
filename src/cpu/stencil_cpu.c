/* stencil_cpu.c - the CPU backend of the 27-point stencil: padded buffers
 * with a zero halo, OpenMP over (z-chunk, y-block) tiles, SIMD over x.
 *
 * Why this shape: each tile walks z with a window of three planes of
 * YBLOCK+2 rows, which stays in L2, so every input byte comes from memory
 * about once per step; the temporal sweeps (T steps per pass) keep T-1
 * intermediate steps in per-thread rings in L2, so memory sees a step's
 * bytes once per T steps.  Every point is the same FMA chain in index order
 * (t = c0*v0; t = fma(ci, vi, t)), the order the GPU kernels use, so both
 * backends produce the same bits.  On x86-64 that chain is only fast with
 * hardware FMA, so the row kernel is built three times (AVX-512, AVX2+FMA
 * and baseline) and picked at run time; the baseline calls libm's fma()
 * (exact, slower).
 *
 * What bounds it (2-core AMD EPYC, AVX-512, 4 GHz: two 512-bit FMAs a cycle,
 * 4 cycles of latency, so 8 chains fill both pipes; 63 G double FMAs/s a
 * core = 2.3 GStencil/s at 27 FMAs a point): the AVX-512 block runs 16
 * chains and reaches 2.0 GStencil/s a core on rows in L2.  Unaligned
 * 64-byte loads (each crosses a cache line) held it to 1.5, GCC's folding
 * of the loads into the FMAs and hoisting of the row addresses to 0.9 (see
 * OPQ).  In the sweeps what is left is memory: streaming stores for the
 * rows that go to memory (no read for ownership) and a software prefetch of
 * the next input plane into L2 took the one-step sweep from 0.6 to 1.4 and
 * a temporal pass from 0.9 to 1.6-1.7 GStencil/s a core. */
#include "core/internal.h"
#include "core/checked.h"
#include "cpu/stencil_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define YBLOCK 16          /* one-step sweep: rows per tile (a multiple of RB) */
#define ZCHUNK 32          /* one-step sweep: planes per tile */
#define RB 4               /* output rows per register block */
#ifndef TYB
#define TYB 32             /* temporal sweep: output rows per y block */
#endif

/* The kernels compute `nrows` consecutive output rows (y .. y+nrows-1) of
 * one plane: pl[d] points at interior x = 0 of input row y in plane z+d-1,
 * out at output row y; rows are px apart.  Every point is the chain
 * t = c0*v0, t = fma(ci, vi, t), i = 1..26 in index order (dz, dy, dx).
 * Register blocks of RB rows: an input vector, loaded once, feeds the (up
 * to three) output rows that use it; walking the input rows in order
 * (dz, then y) gives each output its terms in index order, and the chains of
 * RB rows x V vectors are independent, enough to fill both FMA pipes.
 * nt: the rows go to memory, not to be read soon (streaming stores where the
 * kernel has them); pf, pfbytes: memory the next call reads (NULL: none),
 * prefetched into L2 a few lines per block. */
typedef void (*rows_fn)(double *out, const double *const pl[3], int64_t px, const double *c, int nx, int nrows,
                        int nt, const char *pf, int64_t pfbytes);

static void one_point_row(double *out, const double *const pl[3], int64_t px, const double *c, int x0, int nx)
{
    for (int x = x0; x < nx; x++) {
        double t = c[0] * pl[0][-px + x - 1];
        for (int k = 1; k < 27; k++)
            t = fma(c[k], pl[k / 9][(k / 3 % 3 - 1) * px + x + k % 3 - 1], t);
        out[x] = t;
    }
}

static void rows_generic(double *out, const double *const pl[3], int64_t px, const double *c, int nx, int nrows,
                         int nt, const char *pf, int64_t pfbytes)
{
    (void)nt, (void)pf, (void)pfbytes;
    for (int r = 0; r < nrows; r++) {
        const double *q[3] = { pl[0] + r * px, pl[1] + r * px, pl[2] + r * px };
        one_point_row(out + r * px, q, px, c, 0, nx);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GK_X86_SIMD 1
/* OPQ/OPQX (AVX-512/AVX2 registers) and OPR hide a value from GCC, so that
 * it neither folds the load of a vector that feeds up to three rows into
 * each of their FMAs (three loads) nor hoists the 18 row addresses of a
 * block out of the x loop (spilled to the stack): with them the blocks are
 * loads, shuffles and FMAs only, twice as fast. */
#define OPQ(x) __asm__("" : "+v"(x))
#define OPQX(x) __asm__("" : "+x"(x))
#define OPR(x) __asm__("" : "+r"(x))
/* One register block: R rows, V vectors of W doubles from x0 (the names
 * out, pl, px, c, x0 and m are the block function's parameters).  Fully
 * unrolled: straight-line code, the accumulators in registers. */
#define BLOCK_BODY(VT, R, V, W, LOAD, MUL, FMA, STORE, SET1)                              \
    do {                                                                                  \
        VT acc[R][V];                                                                     \
        _Pragma("GCC unroll 3") for (int dz = 0; dz < 3; dz++) {                          \
        const double *row = pl[dz] + x0 - px;                                             \
        _Pragma("GCC unroll 8") for (int j = 0; j < (R) + 2; j++, row += px) {            \
            OPR(row);                                                                     \
            _Pragma("GCC unroll 3") for (int dx = 0; dx < 3; dx++) {                      \
                VT v[V];                                                                  \
                _Pragma("GCC unroll 8") for (int q = 0; q < (V); q++) {                   \
                    v[q] = LOAD(row + dx - 1 + q * (W), q);                               \
                    OPQX(v[q]);                                                           \
                }                                                                         \
                _Pragma("GCC unroll 8") for (int r = 0; r < (R); r++) {                   \
                    int dy = j - r;                                                       \
                    if (dy < 0 || dy > 2) continue;                                       \
                    int k = dz * 9 + dy * 3 + dx;                                         \
                    VT ck = SET1(c[k]);                                                   \
                    _Pragma("GCC unroll 8") for (int q = 0; q < (V); q++)                 \
                        acc[r][q] = k ? FMA(ck, v[q], acc[r][q]) : MUL(ck, v[q]);         \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
        }                                                                                 \
        _Pragma("GCC unroll 8") for (int r = 0; r < (R); r++)                             \
        _Pragma("GCC unroll 8") for (int q = 0; q < (V); q++)                             \
            STORE(out + r * px + x0 + q * (W), acc[r][q], q);                             \
    } while (0)

/* AVX2: 4 rows x 2 vectors = 8 chains of 4 doubles (16 ymm registers). */
#define L2_(p, q) _mm256_loadu_pd(p)
#define S2_(p, v, q) (nt ? _mm256_stream_pd(p, v) : _mm256_store_pd(p, v))
#define AVX2_BLOCK(R)                                                                     \
    __attribute__((target("avx2,fma"), always_inline)) static inline void                 \
    avx2_block##R(double *out, const double *const pl[3], int64_t px, const double *c, int x0, int nt) \
    {                                                                                     \
        BLOCK_BODY(__m256d, R, 2, 4, L2_, _mm256_mul_pd, _mm256_fmadd_pd, S2_, _mm256_set1_pd); \
    }
AVX2_BLOCK(1)
AVX2_BLOCK(2)
AVX2_BLOCK(3)
AVX2_BLOCK(4)

__attribute__((target("avx2,fma")))
static void rows_avx2(double *out, const double *const pl[3], int64_t px, const double *c, int nx, int nrows, int nt,
                      const char *pf, int64_t pfbytes)
{
    int64_t nb = (int64_t)((nrows + RB - 1) / RB) * (nx / 8 > 0 ? nx / 8 : 1);
    int64_t pfper = pf ? (pfbytes / 64 + nb - 1) / nb : 0;
    const char *pfend = pf + (pf ? pfbytes : 0);
    for (int y = 0; y < nrows; y += RB) {
        int R = nrows - y < RB ? nrows - y : RB;
        const double *q[3] = { pl[0] + y * px, pl[1] + y * px, pl[2] + y * px };
        double *o = out + y * px;
        int x0 = 0;
        for (; x0 + 8 <= nx; x0 += 8) {
            for (int64_t k = 0; k < pfper && pf < pfend; k++, pf += 64)
                _mm_prefetch(pf, _MM_HINT_T1);
            switch (R) {
            case 4: avx2_block4(o, q, px, c, x0, nt); break;
            case 3: avx2_block3(o, q, px, c, x0, nt); break;
            case 2: avx2_block2(o, q, px, c, x0, nt); break;
            default: avx2_block1(o, q, px, c, x0, nt); break;
            }
        }
        for (int r = 0; r < R; r++) {
            const double *qr[3] = { q[0] + r * px, q[1] + r * px, q[2] + r * px };
            one_point_row(o + r * px, qr, px, c, x0, nx);
        }
    }
    if (nt)
        _mm_sfence();
}

/* AVX-512: 4 rows x 4 vectors = 16 chains of 8 doubles.  The rows are
 * 64-byte aligned (XOFF, px a multiple of 8), so each input row of a block
 * is V+2 aligned loads; the x-1 and x+1 vectors are built from them with
 * valignq instead of unaligned loads (which cross a cache line each and
 * halved the kernel's speed).  The nine coefficients of a plane are held in
 * registers while that plane's rows go by.  The x tail: the same block
 * with V = 1 and a masked store (the lanes past nx are never written: the
 * pad stays 0). */
#define AVX512_BLOCK(R, V)                                                                \
    __attribute__((target("avx512f"), always_inline)) static inline void                  \
    avx512_block##R##_##V(double *out, const double *const pl[3], int64_t px, const double *c, int x0, \
                          __mmask8 mlast, int nt)                                         \
    {                                                                                     \
        __m512d acc[R][V];                                                                \
        _Pragma("GCC unroll 3") for (int dz = 0; dz < 3; dz++) {                          \
            __m512d k[9];                                                                 \
            _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++)                           \
                k[i] = _mm512_set1_pd(c[dz * 9 + i]);                                     \
            const double *row = pl[dz] + x0 - px;                                         \
            _Pragma("GCC unroll 8") for (int j = 0; j < (R) + 2; j++, row += px) {        \
                OPR(row);                                                                 \
                __m512d a[(V) + 2], v[3][V];                                              \
                _Pragma("GCC unroll 8") for (int q = 0; q < (V) + 2; q++) {               \
                    a[q] = _mm512_load_pd(row + 8 * (q - 1));                             \
                    OPQ(a[q]);                                                            \
                }                                                                         \
                _Pragma("GCC unroll 8") for (int q = 0; q < (V); q++) {                   \
                    __m512i lo = _mm512_castpd_si512(a[q]), mid = _mm512_castpd_si512(a[q + 1]), \
                            hi = _mm512_castpd_si512(a[q + 2]);                           \
                    v[0][q] = _mm512_castsi512_pd(_mm512_alignr_epi64(mid, lo, 7));       \
                    v[1][q] = a[q + 1];                                                   \
                    v[2][q] = _mm512_castsi512_pd(_mm512_alignr_epi64(hi, mid, 1));       \
                }                                                                         \
                _Pragma("GCC unroll 3") for (int dx = 0; dx < 3; dx++)                    \
                _Pragma("GCC unroll 8") for (int r = 0; r < (R); r++) {                   \
                    int dy = j - r;                                                       \
                    if (dy < 0 || dy > 2) continue;                                       \
                    _Pragma("GCC unroll 8") for (int q = 0; q < (V); q++)                 \
                        acc[r][q] = dz == 0 && dy == 0 && dx == 0                         \
                                        ? _mm512_mul_pd(k[dy * 3 + dx], v[dx][q])         \
                                        : _mm512_fmadd_pd(k[dy * 3 + dx], v[dx][q], acc[r][q]); \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
        _Pragma("GCC unroll 8") for (int r = 0; r < (R); r++)                             \
        _Pragma("GCC unroll 8") for (int q = 0; q < (V); q++) {                           \
            if (q == (V) - 1 && mlast != 0xff)                                            \
                _mm512_mask_store_pd(out + r * px + x0 + q * 8, mlast, acc[r][q]);        \
            else if (nt)                                                                  \
                _mm512_stream_pd(out + r * px + x0 + q * 8, acc[r][q]);                   \
            else                                                                          \
                _mm512_store_pd(out + r * px + x0 + q * 8, acc[r][q]);                    \
        }                                                                                 \
    }
AVX512_BLOCK(1, 4)
AVX512_BLOCK(2, 4)
AVX512_BLOCK(3, 4)
AVX512_BLOCK(4, 4)
AVX512_BLOCK(1, 1)
AVX512_BLOCK(2, 1)
AVX512_BLOCK(3, 1)
AVX512_BLOCK(4, 1)

__attribute__((target("avx512f")))
static void rows_avx512(double *out, const double *const pl[3], int64_t px, const double *c, int nx, int nrows,
                        int nt, const char *pf, int64_t pfbytes)
{
    /* pf: the rows the next call will read from memory (the next input
     * plane), pulled into L2 a few lines per block, well ahead of use */
    int64_t nb = (int64_t)((nrows + RB - 1) / RB) * (nx / 32 > 0 ? nx / 32 : 1);
    int64_t pfper = pf ? (pfbytes / 64 + nb - 1) / nb : 0;
    const char *pfend = pf + (pf ? pfbytes : 0);
    for (int y = 0; y < nrows; y += RB) {
        int R = nrows - y < RB ? nrows - y : RB;
        const double *q[3] = { pl[0] + y * px, pl[1] + y * px, pl[2] + y * px };
        double *o = out + y * px;
        int x0 = 0;
        for (; x0 + 32 <= nx; x0 += 32) {
            for (int64_t k = 0; k < pfper && pf < pfend; k++, pf += 64)
                _mm_prefetch(pf, _MM_HINT_T1);
            switch (R) {
            case 4: avx512_block4_4(o, q, px, c, x0, 0xff, nt); break;
            case 3: avx512_block3_4(o, q, px, c, x0, 0xff, nt); break;
            case 2: avx512_block2_4(o, q, px, c, x0, 0xff, nt); break;
            default: avx512_block1_4(o, q, px, c, x0, 0xff, nt); break;
            }
        }
        for (; x0 < nx; x0 += 8) {
            int left = nx - x0;
            __mmask8 m = left >= 8 ? 0xff : (__mmask8)((1u << left) - 1);
            switch (R) {
            case 4: avx512_block4_1(o, q, px, c, x0, m, nt); break;
            case 3: avx512_block3_1(o, q, px, c, x0, m, nt); break;
            case 2: avx512_block2_1(o, q, px, c, x0, m, nt); break;
            default: avx512_block1_1(o, q, px, c, x0, m, nt); break;
            }
        }
    }
    if (nt)
        _mm_sfence();   /* the streaming stores visible before the sweep's barrier */
}
#endif
/* ------------------------------------------------------ the ISA in use */

/* The caller's instruction set (the context's cpu_isa, passed down by the
 * front doors: no process-wide choice, so that threads with contexts of
 * different sets run at once); AUTO: the best this CPU has. */
const char *gk__stencil_cpu_isa_name(gk_cpu_isa isa)
{
    if (isa == GK_CPU_ISA_AUTO) isa = gk__cpu_isa_best();
    return isa == GK_CPU_ISA_AVX512 ? "AVX-512" : isa == GK_CPU_ISA_AVX2 ? "AVX2+FMA" : "generic";
}

static rows_fn pick_rows(gk_cpu_isa isa)
{
    if (isa == GK_CPU_ISA_AUTO) isa = gk__cpu_isa_best();
#ifdef GK_X86_SIMD
    if (isa == GK_CPU_ISA_AVX512)
        return rows_avx512;
    if (isa == GK_CPU_ISA_AVX2)
        return rows_avx2;
#endif
    return rows_generic;
}

/* ------------------------------------------------------------- sweeps */

/* Padded layout: x pitch px = nx rounded up to 8, plus 8; y pitch ny+2,
 * nz+2 planes; the interior point (x,y,z) is at ((z+1)*py + y+1)*px +
 * XOFF + x, so every row's x = 0 is 64-byte aligned and the 8 doubles
 * before it (x = -8..-1) and those from nx to the next row's x = 0 are the
 * zero halo.  The AVX-512 kernel reads whole aligned vectors: one vector
 * before x = 0 and one past the last, so the buffers end with SLACK spare
 * doubles. */
#define XOFF GK_STENCIL_CPU_XOFF
#define SLACK 8
typedef struct pad { int64_t px, py, pz; } pad;

static pad pad_of(int nx, int ny, int nz)
{
    pad p = { ((int64_t)nx + 7) / 8 * 8 + XOFF, (int64_t)ny + 2, (int64_t)nz + 2 };
    return p;
}

/* Both padded buffers; UINT64_MAX (refused by any memory check) when the
 * count does not fit in 64 bits. */
uint64_t gk__stencil_cpu_bytes(int nx, int ny, int nz)
{
    pad p = pad_of(nx, ny, nz);
    uint64_t b;
    if (p.px < 0 || p.py < 0 || p.pz < 0 || gk__mul_u64((uint64_t)p.px, (uint64_t)p.py, &b) ||
        gk__mul_u64(b, (uint64_t)p.pz, &b) || gk__add_u64(b, SLACK, &b) ||
        gk__mul_u64(b, 2 * sizeof(double), &b))
        return UINT64_MAX;
    return b;
}

/* One step: (z-chunk, y-block) tiles over the threads; each walks z with a
 * window of three planes of YBLOCK+2 rows, which stays in L2. */
static void sweep(double *restrict out, const double *restrict in, pad p, int nx, int ny, int nz,
                  const double *c, rows_fn rows)
{
    int nzc = (nz + ZCHUNK - 1) / ZCHUNK, nyb = (ny + YBLOCK - 1) / YBLOCK;
    int64_t px = p.px, plane = p.px * p.py;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int zc = 0; zc < nzc; zc++)
        for (int yb = 0; yb < nyb; yb++) {
            int z1 = zc * ZCHUNK + ZCHUNK < nz ? zc * ZCHUNK + ZCHUNK : nz;
            int y0 = yb * YBLOCK, y1 = y0 + YBLOCK < ny ? y0 + YBLOCK : ny;
            for (int z = zc * ZCHUNK; z < z1; z++) {
                const double *pl[3];
                for (int d = 0; d < 3; d++)
                    pl[d] = in + (z + d) * plane + (y0 + 1) * px + XOFF;
                /* the plane after next, rows y0-1 .. y1 */
                const char *pf = z + 3 < p.pz ? (const char *)(in + (z + 3) * plane + y0 * px) : NULL;
                rows(out + (z + 1) * plane + (y0 + 1) * px + XOFF, pl, px, c, nx, y1 - y0, 1, pf,
                     (int64_t)(y1 - y0 + 2) * px * (int64_t)sizeof(double));
            }
        }
}

/* T steps in one pass (temporal blocking in cache).  The y blocks of TYB
 * output rows go to the threads; each walks z once with a pipeline of T
 * stages: at iteration i stage s computes its plane i-s+1 from the three
 * newest planes of stage s-1 (stage 0: `in`; stage T writes `out`).  Stages
 * 1..T-1 keep three planes each in a private ring, over the rows the next
 * stage needs (up to TYB + 2(T-s) rows: the y halo is recomputed by both
 * neighbouring blocks).  Rows and planes outside the grid read as 0 (the
 * zero halo of every intermediate step).  ring: per thread, 3*(T-1) planes
 * of ring_plane doubles ((TYB + 2T) rows of px), one zero plane and SLACK
 * doubles (the AVX-512 rows read one vector past a row's end: a thread
 * reads only its own share, all of which it zeroes). */
static void sweep_t(double *restrict out, const double *restrict in, pad p, int nx, int ny, int nz,
                    const double *c, rows_fn rows, int T, double *ring, int64_t ring_plane)
{
    int nyb = (ny + TYB - 1) / TYB;
    int64_t px = p.px, plane = p.px * p.py, per = (int64_t)(3 * (T - 1) + 1) * ring_plane + SLACK;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int yb = 0; yb < nyb; yb++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *mine = ring + (int64_t)tid * per;
        const double *zero = mine + 3 * (T - 1) * ring_plane;
        int ya = yb * TYB, yb1 = ya + TYB < ny ? ya + TYB : ny;
        /* ring row r holds global row ya - T + r; rows outside the grid and
         * the x halo columns are never written and stay 0 */
        memset(mine, 0, (size_t)per * sizeof *mine);
        for (int i = 0; i < nz + T - 1; i++)
            for (int s = 1; s <= T; s++) {
                int z = i - s + 1;                    /* the plane stage s computes */
                if (z < 0 || z >= nz)
                    continue;
                int lo = ya - (T - s), hi = yb1 + (T - s);
                if (lo < 0) lo = 0;
                if (hi > ny) hi = ny;
                int64_t roff = (int64_t)(lo - ya + T) * px + XOFF;
                const double *pl[3];
                for (int d = 0; d < 3; d++) {
                    int zz = z + d - 1;
                    if (s == 1)
                        pl[d] = in + (int64_t)(zz + 1) * plane + (int64_t)(lo + 1) * px + XOFF;
                    else if (zz < 0 || zz >= nz)
                        pl[d] = zero + roff;
                    else
                        pl[d] = mine + ((int64_t)(s - 2) * 3 + zz % 3) * ring_plane + roff;
                }
                double *o = s == T ? out + (int64_t)(z + 1) * plane + (int64_t)(lo + 1) * px + XOFF
                                   : mine + ((int64_t)(s - 1) * 3 + z % 3) * ring_plane + roff;
                /* stage 1: the input plane the next iteration adds */
                const char *pf = s == 1 && z + 3 < p.pz
                                     ? (const char *)(in + (int64_t)(z + 3) * plane + (int64_t)lo * px) : NULL;
                rows(o, pl, px, c, nx, hi - lo, s == T, pf, (int64_t)(hi - lo + 2) * px * (int64_t)sizeof(double));
            }
    }
}

/* Buffers on 2 MB boundaries, with transparent huge pages asked for where
 * the system has them: a sweep reads 18 rows from three planes half a
 * megabyte apart at once, too many 4 KB pages for the TLBs.  From 512 KB
 * (the temporal rings: a few hundred KB a thread, rounded up to 2 MB). */
static gk_status big_alloc(void **p, size_t n, const char *what)
{
    *p = NULL;
    size_t align = (size_t)2 << 20;
    if (n >= align / 4 && !posix_memalign(p, align, (n + align - 1) / align * align)) {
#ifdef MADV_HUGEPAGE
        madvise(*p, (n + align - 1) / align * align, MADV_HUGEPAGE);
#endif
        return GK_OK;
    }
    /* smaller ones on 64-byte boundaries (the AVX-512 rows are aligned) */
    if (posix_memalign(p, 64, n ? n : 64)) {
        *p = NULL;
        return gk__fail(GK_ENOMEM, "out of host memory for %s (%zu bytes)", what, n);
    }
    return GK_OK;
}

static gk_status ring_reserve(gk_stencil_cpu *g, int T);

struct gk_stencil_cpu {
    int nx, ny, nz;
    pad p;
    double *a, *b;        /* a holds the current grid */
    double coeffs[27];
    rows_fn rows;         /* the row kernel of the instruction set asked for */
    double *ring;         /* the temporal sweeps' per-thread rings */
    size_t ring_bytes;
};

gk_status gk__stencil_cpu_open(gk_stencil_cpu **out, int nx, int ny, int nz, const double c[27], gk_cpu_isa isa)
{
    *out = NULL;
    gk_status st = gk_stencil_check_size(nx, ny, nz, 0);
    if (st) return st;
    if ((unsigned)isa > GK_CPU_ISA_AVX512 || !gk_cpu_isa_supported(isa))
        return gk__fail(GK_ENODEV, "CPU stencil: this CPU cannot run the row kernels of instruction set %d (%s)",
                        (int)isa, gk_cpu_isa_name(isa));
    gk_stencil_cpu *g = calloc(1, sizeof *g);
    if (!g)
        return gk__fail(GK_ENOMEM, "out of host memory for the CPU stencil");
    g->nx = nx; g->ny = ny; g->nz = nz;
    g->p = pad_of(nx, ny, nz);
    g->rows = pick_rows(isa);
    memcpy(g->coeffs, c, sizeof g->coeffs);
    int64_t total = g->p.px * g->p.py * g->p.pz + SLACK, plane = g->p.px * g->p.py;
    if ((st = big_alloc((void **)&g->a, (size_t)total * sizeof *g->a, "the CPU stencil buffers")) ||
        (st = big_alloc((void **)&g->b, (size_t)total * sizeof *g->b, "the CPU stencil buffers"))) {
        gk__stencil_cpu_close(g);
        return st;
    }
    /* Zero both buffers in parallel (first touch spreads pages over NUMA
     * nodes the way the sweeps use them). */
    double *a = g->a, *b = g->b;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t z = 0; z < g->p.pz; z++) {
        memset(a + z * plane, 0, (size_t)plane * sizeof *a);
        memset(b + z * plane, 0, (size_t)plane * sizeof *b);
    }
    memset(a + total - SLACK, 0, SLACK * sizeof *a);
    memset(b + total - SLACK, 0, SLACK * sizeof *b);
    if ((st = ring_reserve(g, GK_STENCIL_CPU_T))) {
        gk__stencil_cpu_close(g);
        return st;
    }
    *out = g;
    return GK_OK;
}

void gk__stencil_cpu_close(gk_stencil_cpu *g)
{
    if (!g) return;
    free(g->a);
    free(g->b);
    free(g->ring);
    free(g);
}

void gk__stencil_cpu_load(gk_stencil_cpu *g, const double *grid)
{
    int64_t plane = g->p.px * g->p.py, px = g->p.px;
    int nx = g->nx, ny = g->ny, nz = g->nz;
    double *a = g->a;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            memcpy(a + (z + 1) * plane + (y + 1) * px + XOFF, grid + ((int64_t)z * ny + y) * nx,
                   (size_t)nx * sizeof *a);
}

void gk__stencil_cpu_store(const gk_stencil_cpu *g, double *grid)
{
    int64_t plane = g->p.px * g->p.py, px = g->p.px;
    int nx = g->nx, ny = g->ny, nz = g->nz;
    const double *a = g->a;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            memcpy(grid + ((int64_t)z * ny + y) * nx, a + (z + 1) * plane + (y + 1) * px + XOFF,
                   (size_t)nx * sizeof *a);
}

/* The temporal sweeps' per-thread rings for passes of up to T steps,
 * allocated and first-touched by the threads that use them (set-up: open
 * reserves them for GK_STENCIL_CPU_T, so that the first pass of a run
 * neither allocates nor faults in pages inside the timed compute). */
static gk_status ring_reserve(gk_stencil_cpu *g, int T)
{
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    /* the ring for the largest pass (T' <= T use a prefix of each thread's
     * share: the layout below is computed per pass from ring_plane) */
    int64_t rp = (int64_t)(TYB + 2 * T) * g->p.px;
    uint64_t need = 0;
    if (T > 1 && (gk__mul_u64((uint64_t)rp, (uint64_t)(3 * (T - 1) + 1), &need) ||
                  gk__add_u64(need, SLACK, &need) || gk__mul_u64(need, (uint64_t)threads, &need) ||
                  gk__mul_u64(need, sizeof(double), &need) || need > SIZE_MAX))
        return gk__fail(GK_ENOMEM, "CPU stencil: the temporal buffers do not fit in memory");
    if (need > g->ring_bytes) {
        free(g->ring);
        g->ring = NULL;
        g->ring_bytes = 0;
        gk_status st = big_alloc((void **)&g->ring, (size_t)need, "the CPU stencil's temporal buffers");
        if (st) return st;
        g->ring_bytes = (size_t)need;
        char *ring = (char *)g->ring;
        size_t share = (size_t)need / (size_t)threads;
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1)
#endif
        for (int t = 0; t < threads; t++)
            memset(ring + (size_t)t * share, 0, t == threads - 1 ? (size_t)need - (size_t)t * share : share);
    }
    return GK_OK;
}

gk_status gk__stencil_cpu_steps(gk_stencil_cpu *g, int steps, int T)
{
    if (steps < 0)
        return gk__fail(GK_EINVAL, "stencil: steps %d < 0", steps);
    if (T < 1 || T > GK_STENCIL_CPU_TMAX)
        return gk__fail(GK_EINVAL, "CPU stencil: %d steps per pass (want 1..%d)", T, GK_STENCIL_CPU_TMAX);
    rows_fn rows = g->rows;
    gk_status st = ring_reserve(g, T);
    if (st) return st;
    for (int s = 0; s < steps;) {
        int t = steps - s < T ? steps - s : T;
        if (t == 1)
            sweep(g->b, g->a, g->p, g->nx, g->ny, g->nz, g->coeffs, rows);
        else
            sweep_t(g->b, g->a, g->p, g->nx, g->ny, g->nz, g->coeffs, rows, t, g->ring,
                    (int64_t)(TYB + 2 * t) * g->p.px);
        double *x = g->a; g->a = g->b; g->b = x;
        s += t;
    }
    return GK_OK;
}

gk_status gk__stencil_cpu_t(double *grid, int nx, int ny, int nz, const double c[27], int steps, int T,
                            gk_cpu_isa isa)
{
    gk_status st = gk_stencil_check_size(nx, ny, nz, steps);
    if (st) return st;
    if (steps == 0) return GK_OK;
    gk_stencil_cpu *g;
    if ((st = gk__stencil_cpu_open(&g, nx, ny, nz, c, isa)))
        return st;
    gk__stencil_cpu_load(g, grid);
    if (!(st = gk__stencil_cpu_steps(g, steps, T)))
        gk__stencil_cpu_store(g, grid);
    gk__stencil_cpu_close(g);
    return st;
}

gk_status gk__stencil_cpu(double *grid, int nx, int ny, int nz, const double c[27], int steps, gk_cpu_isa isa)
{
    return gk__stencil_cpu_t(grid, nx, ny, nz, c, steps, GK_STENCIL_CPU_T, isa);
}

/* The plain loop: unpadded buffers, bounds tests for the halo.  Kept apart
 * from the blocked solver so that --check compares two different codes. */
gk_status gk__stencil_cpu_reference(double *grid, int nx, int ny, int nz, const double c[27], int steps)
{
    gk_status st = gk_stencil_check_size(nx, ny, nz, steps);
    if (st) return st;
    if (steps == 0) return GK_OK;
    int64_t n = (int64_t)nx * ny * nz;
    double *tmp = NULL;
    if ((st = gk__xmalloc((void **)&tmp, (size_t)n * sizeof *tmp, "the reference stencil buffer")))
        return st;
    double *in = grid, *out = tmp;
    for (int s = 0; s < steps; s++) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) {
                    double t = 0;
                    for (int k = 0; k < 27; k++) {
                        int dz = k / 9 - 1, dy = k / 3 % 3 - 1, dx = k % 3 - 1;
                        int xx = x + dx, yy = y + dy, zz = z + dz;
                        double v = xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz < 0 || zz >= nz
                                       ? 0.0 : in[((int64_t)zz * ny + yy) * nx + xx];
                        t = k ? fma(c[k], v, t) : c[k] * v;
                    }
                    out[((int64_t)z * ny + y) * nx + x] = t;
                }
        double *t = in; in = out; out = t;
    }
    if (in != grid)
        memcpy(grid, in, (size_t)n * sizeof *grid);
    free(tmp);
    return GK_OK;
}

/* The padded plane z (-1..nz) of the current grid: the stencil's slabs over
 * MPI ranks (src/api/stencil_dist.c) copy whole planes in and out. */
double *gk__stencil_cpu_plane(gk_stencil_cpu *g, int z, int64_t *px, int64_t *py)
{
    if (px) *px = g->p.px;
    if (py) *py = g->p.py;
    return g->a + (int64_t)(z + 1) * g->p.px * g->p.py;
}
