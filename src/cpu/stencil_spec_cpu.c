/* stencil_spec_cpu.c - the CPU backend of every stencil description: two
 * padded buffers, OpenMP over (z-chunk, y-block) tiles, SIMD over x.
 *
 * Layout: a halo of r on every side of the axes the description has (2D:
 * none in z), rows padded to a 64-byte multiple with x = 0 on a 64-byte
 * boundary.  Then every point of the shape is one offset off[q] from the
 * output point in the input buffer, the same for every point of the grid:
 * a row of output is, for each q in the description's order, one multiply
 * (q = 0) or one fma of a shifted input row into a chunk of accumulators.
 * That is the description's chain point by point (gk/stencil.h), so the
 * result is the plain loop's (and the GPU's) to the bit.
 *
 * Boundaries: zero keeps the halo 0 (written once, at open); periodic
 * copies the wrapped rows and planes into the halo before each step; fixed
 * computes only the points at least r from every face, the others being
 * the same in both buffers (loaded into both) and never written.
 *
 * Tiles walk z so that the 2r+1 input planes of a y block stay in L2 (each
 * input byte comes from memory about once per step); the y block is sized
 * for that, the z chunks give each thread several tiles. */
#include "core/internal.h"
#include "core/checked.h"
#include "cpu/stencil_spec_cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef _OPENMP
#define OMP_PARALLEL_FOR _Pragma("omp parallel for schedule(static)")
#else
#define OMP_PARALLEL_FOR
#endif

#define NT_BYTES ((uint64_t)64 << 20)     /* buffers past it are written with streaming stores */
#define TILE_BYTES ((int64_t)1 << 20)   /* input planes of a y block: half a core's L2 */

/* nt: the row goes to memory, not to be read again soon (a grid larger
 * than the caches): streaming stores where the kernel has them, which save
 * the read for ownership of each output line. */
typedef void (*row_fn)(void *out, const void *in, const int64_t *off, const void *w, int np, int64_t n, int nt);

/* One chunk of m <= CH outputs: accumulators t[], the points in order.
 * Instantiated per element type and instruction set (the target attribute
 * makes __builtin_fma one instruction; without FMA hardware it is libm's
 * exact fma()).  The full chunks pass m = CH, a constant after inlining, so
 * the loops are whole vectors. */
#define DEF_ROWS(NAME, T, FMA, CH, ATTR)                                                          \
    ATTR __attribute__((always_inline)) static inline void NAME##_chunk(                          \
        T *restrict o, const T *restrict s, const int64_t *off, const T *w, int np, int64_t m)    \
    {                                                                                             \
        T t[CH];                                                                                  \
        const T *s0 = s + off[0];                                                                 \
        const T w0 = w[0];                                                                        \
        for (int64_t k = 0; k < m; k++)                                                           \
            t[k] = w0 * s0[k];                                                                    \
        for (int q = 1; q < np; q++) {                                                            \
            const T *sq = s + off[q];                                                             \
            const T wq = w[q];                                                                    \
            for (int64_t k = 0; k < m; k++)                                                       \
                t[k] = FMA(wq, sq[k], t[k]);                                                      \
        }                                                                                         \
        for (int64_t k = 0; k < m; k++)                                                           \
            o[k] = t[k];                                                                          \
    }                                                                                             \
    ATTR static void NAME(void *out, const void *in, const int64_t *off, const void *wv, int np, int64_t n, \
                          int nt)                                                                 \
    {                                                                                             \
        T *o = out;                                                                               \
        const T *s = in, *w = wv;                                                                 \
        int64_t i = 0;                                                                            \
        (void)nt;                                                                                 \
        for (; i + (CH) <= n; i += (CH))                                                          \
            NAME##_chunk(o + i, s + i, off, w, np, (CH));                                         \
        if (i < n)                                                                                \
            NAME##_chunk(o + i, s + i, off, w, np, n - i);                                        \
    }

#define NOATTR
DEF_ROWS(rows_f64_generic, double, __builtin_fma, 32, NOATTR)
DEF_ROWS(rows_f32_generic, float, __builtin_fmaf, 64, NOATTR)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GK_SPEC_X86 1
#include <immintrin.h>
/* With SIMD: NV vector accumulators held in registers over the whole chain
 * (GCC keeps a local array in memory, one load and store per fma, which
 * halved the speed), NV independent chains to cover the fma latency; the
 * last chunk of a row vector by vector, with masked loads and stores
 * (AVX-512) or scalar fmas (AVX2).  The vector fma is the same rounding as
 * fma(), lane by lane. */
#define DEF_ROWS_SIMD(NAME, T, VT, W, NV, ATTR, SET1, LOADU, MUL, FMA, STOREU, STREAM, TAIL)        \
    ATTR static void NAME(void *out, const void *in, const int64_t *off, const void *wv, int np, int64_t n, \
                          int nt)                                                                 \
    {                                                                                             \
        T *o = out;                                                                               \
        const T *s = in, *w = wv;                                                                 \
        int64_t i = 0;                                                                            \
        nt = nt && ((uintptr_t)o & 63) == 0;                                                      \
        for (; i + (NV) * (W) <= n; i += (NV) * (W)) {                                            \
            VT acc[NV];                                                                           \
            const VT w0 = SET1(w[0]);                                                             \
            const T *s0 = s + i + off[0];                                                         \
            _Pragma("GCC unroll 16") for (int v = 0; v < (NV); v++)                               \
                acc[v] = MUL(w0, LOADU(s0 + v * (W)));                                            \
            for (int q = 1; q < np; q++) {                                                        \
                const VT wq = SET1(w[q]);                                                         \
                const T *sq = s + i + off[q];                                                     \
                _Pragma("GCC unroll 16") for (int v = 0; v < (NV); v++)                           \
                    acc[v] = FMA(wq, LOADU(sq + v * (W)), acc[v]);                                \
            }                                                                                     \
            if (nt)                                                                               \
                _Pragma("GCC unroll 16") for (int v = 0; v < (NV); v++)                           \
                    STREAM(o + i + v * (W), acc[v]);                                              \
            else                                                                                  \
                _Pragma("GCC unroll 16") for (int v = 0; v < (NV); v++)                           \
                    STOREU(o + i + v * (W), acc[v]);                                              \
        }                                                                                         \
        TAIL                                                                                      \
    }
#define TAIL_SCALAR(T, FMA1)                                                                      \
        for (; i < n; i++) {                                                                      \
            T t = w[0] * s[i + off[0]];                                                           \
            for (int q = 1; q < np; q++)                                                          \
                t = FMA1(w[q], s[i + off[q]], t);                                                 \
            o[i] = t;                                                                             \
        }
#define TAIL_MASKED(VT, W, MT, SET1, MLOAD, MUL, FMA, MSTORE)                                     \
        for (; i < n; i += (W)) {                                                                 \
            MT m = (MT)(n - i >= (W) ? ~0u : (1u << (n - i)) - 1);                                \
            VT acc = MUL(SET1(w[0]), MLOAD(m, s + i + off[0]));                                   \
            for (int q = 1; q < np; q++)                                                          \
                acc = FMA(SET1(w[q]), MLOAD(m, s + i + off[q]), acc);                             \
            MSTORE(o + i, m, acc);                                                                \
        }
#define A2 __attribute__((target("avx2,fma")))
#define A5 __attribute__((target("avx512f")))
DEF_ROWS_SIMD(rows_f64_avx2, double, __m256d, 4, 8, A2, _mm256_set1_pd, _mm256_loadu_pd, _mm256_mul_pd,
              _mm256_fmadd_pd, _mm256_storeu_pd, _mm256_stream_pd, TAIL_SCALAR(double, __builtin_fma))
DEF_ROWS_SIMD(rows_f32_avx2, float, __m256, 8, 8, A2, _mm256_set1_ps, _mm256_loadu_ps, _mm256_mul_ps,
              _mm256_fmadd_ps, _mm256_storeu_ps, _mm256_stream_ps, TAIL_SCALAR(float, __builtin_fmaf))
DEF_ROWS_SIMD(rows_f64_avx512, double, __m512d, 8, 8, A5, _mm512_set1_pd, _mm512_loadu_pd, _mm512_mul_pd,
              _mm512_fmadd_pd, _mm512_storeu_pd, _mm512_stream_pd,
              TAIL_MASKED(__m512d, 8, __mmask8, _mm512_set1_pd, _mm512_maskz_loadu_pd, _mm512_mul_pd,
                          _mm512_fmadd_pd, _mm512_mask_storeu_pd))
DEF_ROWS_SIMD(rows_f32_avx512, float, __m512, 16, 8, A5, _mm512_set1_ps, _mm512_loadu_ps, _mm512_mul_ps,
              _mm512_fmadd_ps, _mm512_storeu_ps, _mm512_stream_ps,
              TAIL_MASKED(__m512, 16, __mmask16, _mm512_set1_ps, _mm512_maskz_loadu_ps, _mm512_mul_ps,
                          _mm512_fmadd_ps, _mm512_mask_storeu_ps))
#endif

static row_fn pick_rows(gk_cpu_isa isa, gk_dtype t)
{
    int f32 = t == GK_DTYPE_FLOAT32;
#ifdef GK_SPEC_X86
    if (isa == GK_CPU_ISA_AVX512)
        return f32 ? rows_f32_avx512 : rows_f64_avx512;
    if (isa == GK_CPU_ISA_AVX2)
        return f32 ? rows_f32_avx2 : rows_f64_avx2;
#endif
    (void)isa;
    return f32 ? rows_f32_generic : rows_f64_generic;
}

/* ------------------------------------------------------------ layout */

typedef struct layout {
    int64_t nx, ny, nz;
    int r, rz;                 /* halo in x and y; in z (0 in 2D) */
    size_t esz;
    int64_t xo, px, py, pz;    /* x of the interior's x = 0 in a row; padded extents */
} layout;

static int layout_of(const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz, layout *L)
{
    L->nx = nx; L->ny = ny; L->nz = nz;
    L->r = s->radius;
    L->rz = s->dims == 3 ? s->radius : 0;
    L->esz = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8;
    int64_t v = 64 / (int64_t)L->esz;   /* elements per cache line */
    L->xo = (L->r + v - 1) / v * v;
    if (nx > INT64_MAX / 2 || ny > INT64_MAX / 2 || nz > INT64_MAX / 2) return -1;
    L->px = (L->xo + nx + L->r + v - 1) / v * v;
    L->py = ny + 2 * L->r;
    L->pz = nz + 2 * L->rz;
    return 0;
}

/* Elements of one buffer (with one spare cache line); 0 when it does not fit. */
static uint64_t layout_elems(const layout *L)
{
    uint64_t n;
    if (gk__mul_u64((uint64_t)L->px, (uint64_t)L->py, &n) || gk__mul_u64(n, (uint64_t)L->pz, &n) ||
        gk__add_u64(n, 64, &n))
        return 0;
    return n;
}

uint64_t gk__stencil_cpu_spec_bytes(const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz)
{
    layout L;
    uint64_t n, b;
    if (layout_of(s, nx, ny, nz, &L) || !(n = layout_elems(&L)) || gk__mul_u64(n, 2 * L.esz, &b))
        return UINT64_MAX;
    return b;
}

static inline int64_t at(const layout *L, int64_t x, int64_t y, int64_t z)
{
    return ((z + L->rz) * L->py + (y + L->r)) * L->px + L->xo + x;
}

struct gk_stencil_cpu_spec {
    gk__stencil_spec s;
    layout L;
    char *a, *b;               /* a holds the current grid */
    row_fn rows;
    int64_t off[GK_STENCIL_MAX_POINTS];
    union { double d[GK_STENCIL_MAX_POINTS]; float f[GK_STENCIL_MAX_POINTS]; } w;
    int64_t lo[3], hi[3];      /* the points computed: [lo, hi) per axis (fixed: r in from each face) */
    int64_t yb, zc;            /* tile: rows per y block, planes per z chunk */
    int nt;                    /* streaming stores (buffers past NT_BYTES) */
    char config[128];
};

const char *gk__stencil_cpu_spec_config(const gk_stencil_cpu_spec *g) { return g->config; }

static const char *isa_name(gk_cpu_isa isa)
{
    return isa == GK_CPU_ISA_AVX512 ? "AVX-512" : isa == GK_CPU_ISA_AVX2 ? "AVX2+FMA" : "generic";
}

gk_status gk__stencil_cpu_spec_open(gk_stencil_cpu_spec **out, const gk__stencil_spec *s, int64_t nx, int64_t ny,
                                    int64_t nz, gk_cpu_isa isa)
{
    *out = NULL;
    gk_status st;
    if ((st = gk_stencil_check_size(nx, ny, nz, 0)) || (st = gk__stencil_spec_check_grid(s, nx, ny, nz)))
        return st;
    if (isa == GK_CPU_ISA_AUTO) isa = gk__cpu_isa_best();
    if ((unsigned)isa > GK_CPU_ISA_AVX512 || !gk_cpu_isa_supported(isa))
        return gk__fail(GK_ENODEV, "CPU stencil: this CPU cannot run the row kernels of instruction set %d (%s)",
                        (int)isa, gk_cpu_isa_name(isa));
    layout L;
    uint64_t elems;
    if (layout_of(s, nx, ny, nz, &L) || !(elems = layout_elems(&L)) || elems > SIZE_MAX / 2 / L.esz)
        return gk__fail(GK_ENOMEM, "CPU stencil %s: the padded buffers of %lldx%lldx%lld do not fit in memory",
                        s->key, (long long)nx, (long long)ny, (long long)nz);
    gk_stencil_cpu_spec *g = calloc(1, sizeof *g);
    if (!g)
        return gk__fail(GK_ENOMEM, "out of host memory for the CPU stencil");
    g->s = *s;
    g->L = L;
    g->rows = pick_rows(isa, s->dtype);
    for (int q = 0; q < s->npoints; q++) {
        g->off[q] = ((int64_t)s->dz[q] * L.py + s->dy[q]) * L.px + s->dx[q];
        if (s->dtype == GK_DTYPE_FLOAT32) g->w.f[q] = (float)s->w[q];
        else g->w.d[q] = s->w[q];
    }
    int64_t ext[3] = { nx, ny, nz };
    for (int a = 0; a < 3; a++) {
        int rr = s->boundary == GK_BOUNDARY_FIXED && a < s->dims ? s->radius : 0;
        g->lo[a] = rr;
        g->hi[a] = ext[a] - rr > rr ? ext[a] - rr : rr;
    }
    /* y block: the 2rz+1 input planes of its rows within TILE_BYTES; z
     * chunks: about four tiles per thread */
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    int64_t nyr = g->hi[1] - g->lo[1], nzr = g->hi[2] - g->lo[2];
    int64_t rowbytes = (int64_t)(2 * L.rz + 1) * L.px * (int64_t)L.esz;
    int64_t ybmax = TILE_BYTES / rowbytes - 2 * L.r;
    if (ybmax < 4) ybmax = 4;
    int64_t nyb = nyr > 0 ? (nyr + ybmax - 1) / ybmax : 1;
    g->yb = nyr > 0 ? (nyr + nyb - 1) / nyb : 1;
    int64_t nzc = (4 * threads + nyb - 1) / nyb;
    if (nzc > nzr) nzc = nzr;
    if (nzc < 1) nzc = 1;
    g->zc = nzr > 0 ? (nzr + nzc - 1) / nzc : 1;
    snprintf(g->config, sizeof g->config, "%s rows, %lld-row x %lld-plane tiles", isa_name(isa), (long long)g->yb,
             (long long)g->zc);
    size_t bytes = (size_t)elems * L.esz;
    g->nt = bytes > NT_BYTES;
    if (posix_memalign((void **)&g->a, 64, bytes) || posix_memalign((void **)&g->b, 64, bytes)) {
        gk__stencil_cpu_spec_close(g);
        return gk__fail(GK_ENOMEM, "out of host memory for the CPU stencil buffers (2 x %zu bytes)", bytes);
    }
    /* Zero both in parallel: the zero halo, and the first touch of every
     * page done here (set-up), not in the first step. */
    int64_t plane = L.px * L.py * (int64_t)L.esz;
    char *a = g->a, *b = g->b;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t z = 0; z < L.pz; z++) {
        memset(a + z * plane, 0, (size_t)plane);
        memset(b + z * plane, 0, (size_t)plane);
    }
    size_t tail = bytes - (size_t)(plane * L.pz);
    memset(a + plane * L.pz, 0, tail);
    memset(b + plane * L.pz, 0, tail);
    *out = g;
    return GK_OK;
}

void gk__stencil_cpu_spec_streaming(gk_stencil_cpu_spec *g, int on)
{
    g->nt = on != 0;
}

void gk__stencil_cpu_spec_close(gk_stencil_cpu_spec *g)
{
    if (!g) return;
    free(g->a);
    free(g->b);
    free(g);
}

static void copy_in(const layout *L, char *buf, const char *grid)
{
    size_t e = L->esz;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int64_t z = 0; z < L->nz; z++)
        for (int64_t y = 0; y < L->ny; y++)
            memcpy(buf + at(L, 0, y, z) * (int64_t)e, grid + ((z * L->ny + y) * L->nx) * (int64_t)e, (size_t)L->nx * e);
}

void gk__stencil_cpu_spec_load(gk_stencil_cpu_spec *g, const void *grid)
{
    copy_in(&g->L, g->a, grid);
    if (g->s.boundary == GK_BOUNDARY_FIXED)      /* the band is never written: both buffers hold it */
        copy_in(&g->L, g->b, grid);
}

void gk__stencil_cpu_spec_store(const gk_stencil_cpu_spec *g, void *grid)
{
    const layout *L = &g->L;
    size_t e = L->esz;
    char *out = grid;
    const char *a = g->a;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int64_t z = 0; z < L->nz; z++)
        for (int64_t y = 0; y < L->ny; y++)
            memcpy(out + ((z * L->ny + y) * L->nx) * (int64_t)e, a + at(L, 0, y, z) * (int64_t)e, (size_t)L->nx * e);
}

/* Periodic: the halo of buf from the wrapped interior (x in each row, then
 * whole padded rows in y, then whole padded planes in z, so the edges and
 * corners wrap along every axis). */
static void fill_periodic(const layout *L, char *buf)
{
    const int64_t e = (int64_t)L->esz, r = L->r, rz = L->rz;
    const int64_t row = L->px * e, plane = L->py * row;
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (int64_t z = 0; z < L->nz; z++) {
            for (int64_t y = 0; y < L->ny; y++) {
                char *p = buf + at(L, 0, y, z) * e;
                memcpy(p - r * e, p + (L->nx - r) * e, (size_t)(r * e));
                memcpy(p + L->nx * e, p, (size_t)(r * e));
            }
            char *p0 = buf + at(L, -L->xo, 0, z) * e;   /* the padded row y = 0 */
            memcpy(p0 - r * row, p0 + (L->ny - r) * row, (size_t)(r * row));
            memcpy(p0 + L->ny * row, p0, (size_t)(r * row));
        }
        if (rz) {
            /* planes -rz..-1 from nz-rz..nz-1 and nz..nz+rz-1 from 0..rz-1,
             * split over the threads by rows */
            int64_t rows = rz * L->py;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (int64_t k = 0; k < 2 * rows; k++) {
                int64_t j = k % rows;
                char *base = buf + (int64_t)rz * plane;           /* plane z = 0 */
                if (k < rows)
                    memcpy(base - rows * row + j * row, base + (L->nz - rz) * plane + j * row, (size_t)row);
                else
                    memcpy(base + L->nz * plane + j * row, base + j * row, (size_t)row);
            }
        }
    }
}

/* One step from g->a into g->b. */
static void sweep(gk_stencil_cpu_spec *g)
{
    const layout *L = &g->L;
    const int64_t e = (int64_t)L->esz;
    const int64_t nyr = g->hi[1] - g->lo[1], nzr = g->hi[2] - g->lo[2], nxr = g->hi[0] - g->lo[0];
    if (nxr <= 0 || nyr <= 0 || nzr <= 0) return;
    const int64_t nyb = (nyr + g->yb - 1) / g->yb, nzc = (nzr + g->zc - 1) / g->zc;
    const char *in = g->a;
    char *out = g->b;
    const void *w = g->s.dtype == GK_DTYPE_FLOAT32 ? (const void *)g->w.f : (const void *)g->w.d;
    const int np = g->s.npoints;
    const int64_t *off = g->off;
    row_fn rows = g->rows;
    const int nt = g->nt;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int64_t zc = 0; zc < nzc; zc++)
        for (int64_t yb = 0; yb < nyb; yb++) {
            int64_t z0 = g->lo[2] + zc * g->zc, z1 = z0 + g->zc < g->hi[2] ? z0 + g->zc : g->hi[2];
            int64_t y0 = g->lo[1] + yb * g->yb, y1 = y0 + g->yb < g->hi[1] ? y0 + g->yb : g->hi[1];
            for (int64_t z = z0; z < z1; z++)
                for (int64_t y = y0; y < y1; y++) {
                    int64_t i = at(L, g->lo[0], y, z) * e;
                    rows(out + i, in + i, off, w, np, nxr, nt);
                }
        }
}

gk_status gk__stencil_cpu_spec_steps(gk_stencil_cpu_spec *g, int64_t steps)
{
    if (steps < 0)
        return gk__fail(GK_EINVAL, "stencil: steps %lld < 0", (long long)steps);
    for (int64_t s = 0; s < steps; s++) {
        if (g->s.boundary == GK_BOUNDARY_PERIODIC)
            fill_periodic(&g->L, g->a);
        sweep(g);
#ifdef GK_SPEC_X86
        if (g->nt) _mm_sfence();    /* the streaming stores before the next step reads them */
#endif
        char *t = g->a; g->a = g->b; g->b = t;
    }
    return GK_OK;
}

gk_status gk__stencil_cpu_spec(const gk__stencil_spec *s, void *grid, int64_t nx, int64_t ny, int64_t nz,
                               int64_t steps)
{
    gk_status st = gk_stencil_check_size(nx, ny, nz, steps);
    if (st) return st;
    gk_stencil_cpu_spec *g;
    if ((st = gk__stencil_cpu_spec_open(&g, s, nx, ny, nz, GK_CPU_ISA_AUTO)))
        return st;
    gk__stencil_cpu_spec_load(g, grid);
    if (!(st = gk__stencil_cpu_spec_steps(g, steps)))
        gk__stencil_cpu_spec_store(g, grid);
    gk__stencil_cpu_spec_close(g);
    return st;
}

/* ------------------------------------------------- the plain reference */

/* Index along one axis under the boundary: -1 reads 0 (zero boundary). */
static inline int64_t wrap(int64_t i, int64_t n, gk_boundary b)
{
    if (i >= 0 && i < n) return i;
    if (b != GK_BOUNDARY_PERIODIC) return -1;
    return i < 0 ? i + n : i - n;      /* |offset| <= r <= n / 2 */
}

#define DEF_PLAIN(NAME, T, FMA)                                                                     \
    static void NAME(const gk__stencil_spec *s, const T *in, T *out, int64_t nx, int64_t ny, int64_t nz) \
    {                                                                                               \
        const int r = s->radius, fixed = s->boundary == GK_BOUNDARY_FIXED;                          \
        OMP_PARALLEL_FOR                                                                            \
        for (int64_t z = 0; z < nz; z++)                                                            \
            for (int64_t y = 0; y < ny; y++)                                                        \
                for (int64_t x = 0; x < nx; x++) {                                                  \
                    int64_t p = (z * ny + y) * nx + x;                                              \
                    if (fixed && (x < r || x >= nx - r || y < r || y >= ny - r ||                   \
                                  (s->dims == 3 && (z < r || z >= nz - r)))) {                      \
                        out[p] = in[p];                                                             \
                        continue;                                                                   \
                    }                                                                               \
                    T t = 0;                                                                        \
                    for (int q = 0; q < s->npoints; q++) {                                          \
                        int64_t xx = wrap(x + s->dx[q], nx, s->boundary);                           \
                        int64_t yy = wrap(y + s->dy[q], ny, s->boundary);                           \
                        int64_t zz = wrap(z + s->dz[q], nz, s->boundary);                           \
                        T v = xx < 0 || yy < 0 || zz < 0 ? (T)0 : in[(zz * ny + yy) * nx + xx];     \
                        T wq = (T)s->w[q];                                                          \
                        t = q ? FMA(wq, v, t) : wq * v;                                             \
                    }                                                                               \
                    out[p] = t;                                                                     \
                }                                                                                   \
    }
DEF_PLAIN(plain_f64, double, fma)
DEF_PLAIN(plain_f32, float, fmaf)

gk_status gk__stencil_cpu_spec_plain(const gk__stencil_spec *s, void *grid, int64_t nx, int64_t ny, int64_t nz,
                                     int64_t steps)
{
    gk_status st;
    if ((st = gk_stencil_check_size(nx, ny, nz, steps)) || (st = gk__stencil_spec_check_grid(s, nx, ny, nz)))
        return st;
    if (steps == 0) return GK_OK;
    size_t e = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8, n = (size_t)(nx * ny * nz);
    char *tmp = NULL;
    if ((st = gk__xmalloc((void **)&tmp, n * e, "the reference stencil buffer")))
        return st;
    char *in = grid, *out = tmp;
    for (int64_t k = 0; k < steps; k++) {
        if (e == 4) plain_f32(s, (const float *)in, (float *)out, nx, ny, nz);
        else plain_f64(s, (const double *)in, (double *)out, nx, ny, nz);
        char *t = in; in = out; out = t;
    }
    if (in != (char *)grid)
        memcpy(grid, in, n * e);
    free(tmp);
    return GK_OK;
}

/* ------------------------------------------------- slabs */

/* Dense planes in and out of the current buffer (src/api/stencil_dist.c's
 * slabs).  put writes both buffers under the fixed boundary, as load does:
 * a band plane is never written by a sweep. */
void gk__stencil_cpu_spec_planes(gk_stencil_cpu_spec *g, int64_t k, int64_t n, void *buf, int put)
{
    const layout *L = &g->L;
    const int64_t e = (int64_t)L->esz, rows = g->s.dims == 3 ? L->ny : 1;
    const int both = put && g->s.boundary == GK_BOUNDARY_FIXED;
    char *b = buf;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int64_t j = 0; j < n; j++)
        for (int64_t y = 0; y < rows; y++) {
            int64_t i = (g->s.dims == 3 ? at(L, 0, y, k + j) : at(L, 0, k + j, 0)) * e;
            char *d = b + (j * rows + y) * L->nx * e;
            if (!put) {
                memcpy(d, g->a + i, (size_t)(L->nx * e));
                continue;
            }
            memcpy(g->a + i, d, (size_t)(L->nx * e));
            if (both)
                memcpy(g->b + i, d, (size_t)(L->nx * e));
        }
}
