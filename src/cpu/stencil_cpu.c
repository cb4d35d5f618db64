/* stencil_cpu.c - the CPU backend of the 27-point stencil: padded buffers
 * with a zero halo, OpenMP over (z-chunk, y-block) tiles, SIMD over x.
 *
 * Why this shape: each tile walks z with a window of three planes of
 * YBLOCK+2 rows, which stays in L2, so every input byte comes from memory
 * about once per step.  Every point is the same FMA chain in index order
 * (t = c0*v0; t = fma(ci, vi, t)), the order the GPU kernels use, so both
 * backends produce the same bits.  On x86-64 that chain is only fast with
 * hardware FMA, so the row kernel is built twice (AVX2+FMA and baseline) and
 * picked at run time; the baseline calls libm's fma() (exact, slower). */
#include "core/internal.h"
#include "core/checked.h"
#include "cpu/stencil_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#define YBLOCK 16
#define ZCHUNK 32


/* out[x] for x in [0, n): r[k] points at the interior x = 0 of input row
 * (dz, dy) with k = (dz+1)*3 + (dy+1); r[k][-1] and r[k][n] are halo. */
#define ROW_TAIL(x0)                                                          \
    for (int x = (x0); x < n; x++) {                                          \
        double t = c[0] * r[0][x - 1];                                        \
        for (int k = 1; k < 27; k++)                                          \
            t = fma(c[k], r[k / 3][x + k % 3 - 1], t);                        \
        out[x] = t;                                                           \
    }

typedef void (*row_fn)(double *restrict out, const double *const r[9], const double *restrict c, int n);

static void row_generic(double *restrict out, const double *const r[9], const double *restrict c, int n)
{
    ROW_TAIL(0)
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* One point's chain is 27 dependent FMAs (4+ cycles each): four AVX2
 * vectors (16 points) are carried at once so that independent chains hide
 * that latency.  Same order, same bits as the scalar chain. */
__attribute__((target("avx2,fma")))
static void row_fma(double *restrict out, const double *const r[9], const double *restrict c, int n)
{
    int x0 = 0;
    for (; x0 + 16 <= n; x0 += 16) {
        __m256d t0, t1, t2, t3;
        {
            const double *q = r[0] + x0 - 1;
            __m256d ck = _mm256_set1_pd(c[0]);
            t0 = _mm256_mul_pd(ck, _mm256_loadu_pd(q));
            t1 = _mm256_mul_pd(ck, _mm256_loadu_pd(q + 4));
            t2 = _mm256_mul_pd(ck, _mm256_loadu_pd(q + 8));
            t3 = _mm256_mul_pd(ck, _mm256_loadu_pd(q + 12));
        }
        for (int k = 1; k < 27; k++) {
            const double *q = r[k / 3] + x0 + k % 3 - 1;
            __m256d ck = _mm256_set1_pd(c[k]);
            t0 = _mm256_fmadd_pd(ck, _mm256_loadu_pd(q), t0);
            t1 = _mm256_fmadd_pd(ck, _mm256_loadu_pd(q + 4), t1);
            t2 = _mm256_fmadd_pd(ck, _mm256_loadu_pd(q + 8), t2);
            t3 = _mm256_fmadd_pd(ck, _mm256_loadu_pd(q + 12), t3);
        }
        _mm256_storeu_pd(out + x0, t0);
        _mm256_storeu_pd(out + x0 + 4, t1);
        _mm256_storeu_pd(out + x0 + 8, t2);
        _mm256_storeu_pd(out + x0 + 12, t3);
    }
    ROW_TAIL(x0)
}

static row_fn pick_row(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return row_fma;
    return row_generic;
}
#else
static row_fn pick_row(void) { return row_generic; }
#endif

/* Padded layout: x pitch nx+2, y pitch ny+2, nz+2 planes; the interior
 * point (x,y,z) is at ((z+1)*py + y+1)*px + x+1. */
typedef struct pad { int64_t px, py, pz; } pad;

static pad pad_of(int nx, int ny, int nz)
{
    pad p = { (int64_t)nx + 2, (int64_t)ny + 2, (int64_t)nz + 2 };
    return p;
}

/* Both padded buffers; UINT64_MAX (refused by any memory check) when the
 * count does not fit in 64 bits. */
uint64_t gk__stencil_cpu_bytes(int nx, int ny, int nz)
{
    pad p = pad_of(nx, ny, nz);
    uint64_t b;
    if (p.px < 0 || p.py < 0 || p.pz < 0 || gk__mul_u64((uint64_t)p.px, (uint64_t)p.py, &b) ||
        gk__mul_u64(b, (uint64_t)p.pz, &b) || gk__mul_u64(b, 2 * sizeof(double), &b))
        return UINT64_MAX;
    return b;
}

static void sweep(double *restrict out, const double *restrict in, pad p, int nx, int ny, int nz,
                  const double *c, row_fn row)
{
    int nzc = (nz + ZCHUNK - 1) / ZCHUNK, nyb = (ny + YBLOCK - 1) / YBLOCK;
    int64_t px = p.px, plane = p.px * p.py;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int zc = 0; zc < nzc; zc++)
        for (int yb = 0; yb < nyb; yb++) {
            int z1 = zc * ZCHUNK + ZCHUNK < nz ? zc * ZCHUNK + ZCHUNK : nz;
            int y1 = yb * YBLOCK + YBLOCK < ny ? yb * YBLOCK + YBLOCK : ny;
            for (int z = zc * ZCHUNK; z < z1; z++)
                for (int y = yb * YBLOCK; y < y1; y++) {
                    const double *r[9];
                    for (int dz = -1; dz <= 1; dz++)
                        for (int dy = -1; dy <= 1; dy++)
                            r[(dz + 1) * 3 + dy + 1] = in + (z + 1 + dz) * plane + (y + 1 + dy) * px + 1;
                    row(out + (z + 1) * plane + (y + 1) * px + 1, r, c, nx);
                }
        }
}

gk_status gk__stencil_cpu(double *grid, int nx, int ny, int nz, const double c[27], int steps)
{
    gk_status st = gk_stencil_check_size(nx, ny, nz, steps);
    if (st) return st;
    if (steps == 0) return GK_OK;
    pad p = pad_of(nx, ny, nz);
    int64_t total = p.px * p.py * p.pz, plane = p.px * p.py;
    double *a = NULL, *b = NULL;
    if ((st = gk__xmalloc((void **)&a, (size_t)total * sizeof *a, "the CPU stencil buffers")))
        return st;
    if ((st = gk__xmalloc((void **)&b, (size_t)total * sizeof *b, "the CPU stencil buffers"))) {
        free(a);
        return st;
    }
    /* Zero both buffers in parallel (first touch spreads pages over NUMA
     * nodes the way the sweeps use them), then copy the interior in. */
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t z = 0; z < p.pz; z++) {
        memset(a + z * plane, 0, (size_t)plane * sizeof *a);
        memset(b + z * plane, 0, (size_t)plane * sizeof *b);
    }
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            memcpy(a + (z + 1) * plane + (y + 1) * p.px + 1, grid + ((int64_t)z * ny + y) * nx,
                   (size_t)nx * sizeof *a);
    row_fn row = pick_row();
    for (int s = 0; s < steps; s++) {
        sweep(b, a, p, nx, ny, nz, c, row);
        double *t = a; a = b; b = t;
    }
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            memcpy(grid + ((int64_t)z * ny + y) * nx, a + (z + 1) * plane + (y + 1) * p.px + 1,
                   (size_t)nx * sizeof *a);
    free(a);
    free(b);
    return GK_OK;
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
