/* test_stencil_desc_cpu.c - the CPU backend of every stencil description
 * (cpu/stencil_spec_cpu.h) and its plain reference, both against a naive
 * loop written here from gk/stencil.h's definition: 2D/3D x star/box/mask x
 * radius 1, 2, 4 x float32/float64 x zero/periodic/fixed, random weights,
 * small odd grids, several steps, 1 to 3 threads.  Bit for bit. */
#include "gk.h"
#include "core/stencil_spec.h"
#include "cpu/stencil_cpu.h"
#include "cpu/stencil_spec_cpu.h"
#include "tap.h"
#include "test_stencil_naive.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static uint64_t rng = 88172645463325252ull;
static double urand(void)   /* [-1, 1) */
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}


static const char *bname[] = { "zero", "periodic", "fixed" };
static const char *sname[] = { "", "box", "star", "mask" };

/* One description on one grid: the backend and the plain loop against the
 * naive loop, bit for bit.  Returns 1 when all agree. */
static int streaming;   /* 1: the backend with streaming stores, whatever the size */

static gk_status backend(const gk__stencil_spec *s, void *grid, int64_t nx, int64_t ny, int64_t nz, int steps)
{
    if (!streaming)
        return gk__stencil_cpu_spec(s, grid, nx, ny, nz, steps);
    gk_stencil_cpu_spec *g;
    gk_status st = gk__stencil_cpu_spec_open(&g, s, nx, ny, nz, GK_CPU_ISA_AUTO);
    if (st) return st;
    gk__stencil_cpu_spec_streaming(g, 1);
    gk__stencil_cpu_spec_load(g, grid);
    if (!(st = gk__stencil_cpu_spec_steps(g, steps)))
        gk__stencil_cpu_spec_store(g, grid);
    gk__stencil_cpu_spec_close(g);
    return st;
}

static int one(int dims, gk_stencil_shape shape, int r, gk_dtype t, gk_boundary b, int64_t nx, int64_t ny,
               int64_t nz, int steps, int quiet)
{
    int w1 = 2 * r + 1, nw = dims == 3 ? w1 * w1 * w1 : w1 * w1;
    double w[729];
    for (int i = 0; i < nw; i++) {
        int dx = i % w1 - r, dy = i / w1 % w1 - r, dz = dims == 3 ? i / (w1 * w1) - r : 0;
        int axes = (dx != 0) + (dy != 0) + (dz != 0);
        w[i] = urand() / nw * 2;
        if (shape == GK_STENCIL_STAR && axes > 1) w[i] = 0;
        if (shape == GK_STENCIL_MASK && (i % 3 == 1)) w[i] = 0;
    }
    gk_stencil_desc d;
    gk_stencil_desc_init(&d);
    d.dims = dims; d.shape = shape; d.radius = r; d.boundary = b; d.weights = w;
    gk__stencil_spec s;
    if (gk__stencil_spec_make(&d, t, &s)) {
        diag("spec: %s", gk_last_error());
        return 0;
    }
    size_t e = t == GK_DTYPE_FLOAT32 ? 4 : 8, n = (size_t)(nx * ny * nz);
    char *g0 = malloc(n * e), *fast = malloc(n * e), *plain = malloc(n * e), *ref = malloc(n * e);
    for (size_t i = 0; i < n; i++) {
        if (e == 4) ((float *)g0)[i] = (float)urand();
        else ((double *)g0)[i] = urand();
    }
    memcpy(fast, g0, n * e);
    memcpy(plain, g0, n * e);
    memcpy(ref, g0, n * e);
    if (e == 4) naive_f32((float *)ref, nx, ny, nz, dims, shape, r, b, w, steps);
    else naive_f64((double *)ref, nx, ny, nz, dims, shape, r, b, w, steps);
    int ok1 = backend(&s, fast, nx, ny, nz, steps) == GK_OK;
    int ok2 = gk__stencil_cpu_spec_plain(&s, plain, nx, ny, nz, steps) == GK_OK;
    int same1 = ok1 && !memcmp(fast, ref, n * e), same2 = ok2 && !memcmp(plain, ref, n * e);
    /* a result that did not move would pass trivially: steps > 0 must change it
       (fixed on a grid that is all band excepted) */
    int moved = steps == 0 || memcmp(ref, g0, n * e) != 0;
    if (!quiet || !(same1 && same2 && moved))
        diag("%dd-%s-r%d %s %s %lldx%lldx%lld, %d steps: backend %s, plain %s%s", dims, sname[shape], r,
             e == 4 ? "f32" : "f64", bname[b], (long long)nx, (long long)ny, (long long)nz, steps,
             !ok1 ? gk_last_error() : same1 ? "same" : "DIFFERS", !ok2 ? "failed" : same2 ? "same" : "DIFFERS",
             moved ? "" : " (grid unchanged!)");
    free(g0); free(fast); free(plain); free(ref);
    return same1 && same2 && moved;
}

int main(void)
{
    no_plan();
    static const int radii[] = { 1, 2, 4 };
    int threads_list[] = { 1, 2, 3 };
    /* every family member class; a different thread count per boundary */
    for (int dims = 2; dims <= 3; dims++)
        for (int sh = GK_STENCIL_BOX; sh <= GK_STENCIL_MASK; sh++)
            for (int ri = 0; ri < 3; ri++)
                for (int ti = 0; ti < 2; ti++) {
                    gk_dtype t = ti ? GK_DTYPE_FLOAT32 : GK_DTYPE_FLOAT64;
                    int r = radii[ri], all = 1;
                    for (int b = 0; b < 3; b++) {
#ifdef _OPENMP
                        omp_set_num_threads(threads_list[(b + ri) % 3]);
#endif
                        int64_t nx = 2 * r + 9 + 2 * b, ny = 2 * r + 3, nz = dims == 3 ? 2 * r + 5 : 1;
                        if (dims == 2) ny = 2 * r + 15;
                        all &= one(dims, (gk_stencil_shape)sh, r, t, (gk_boundary)b, nx, ny, nz, 3, 1);
                    }
                    ok(all, "%dd-%s-r%d %s, zero/periodic/fixed, 3 steps: backend = plain = naive, bit for bit",
                       dims, sname[sh], r, ti ? "f32" : "f64");
                }
#ifdef _OPENMP
    omp_set_num_threads(2);
#endif
    /* the streaming stores of grids past the caches, on small grids */
    {
        streaming = 1;
        int all = 1;
        for (int b = 0; b < 3; b++) {
            all &= one(3, GK_STENCIL_STAR, 1, GK_DTYPE_FLOAT64, (gk_boundary)b, 67, 9, 7, 3, 1);
            all &= one(3, GK_STENCIL_BOX, 2, GK_DTYPE_FLOAT32, (gk_boundary)b, 133, 8, 9, 3, 1);
            all &= one(2, GK_STENCIL_STAR, 4, GK_DTYPE_FLOAT32, (gk_boundary)b, 150, 21, 1, 3, 1);
        }
        streaming = 0;
        ok(all, "with streaming stores (every buffer size): the same bits on every boundary");
    }
    /* a long row (several SIMD chunks and a tail), many steps */
    ok(one(3, GK_STENCIL_STAR, 1, GK_DTYPE_FLOAT32, GK_BOUNDARY_PERIODIC, 131, 7, 5, 7, 0), "3D star r1 f32 periodic, 131-wide rows, 7 steps");
    ok(one(2, GK_STENCIL_BOX, 3, GK_DTYPE_FLOAT64, GK_BOUNDARY_FIXED, 77, 41, 1, 5, 0), "2D box r3 f64 fixed, 77x41, 5 steps");
    ok(one(3, GK_STENCIL_STAR, 4, GK_DTYPE_FLOAT64, GK_BOUNDARY_PERIODIC, 9, 9, 9, 4, 0), "periodic at the smallest extent 2r+1 = 9");
    ok(one(2, GK_STENCIL_STAR, 2, GK_DTYPE_FLOAT32, GK_BOUNDARY_ZERO, 1, 1, 1, 3, 0), "zero boundary on a 1x1 grid");

    /* fixed on grids with no interior: unchanged */
    {
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        d.radius = 2;
        d.boundary = GK_BOUNDARY_FIXED;
        gk__stencil_spec s;
        gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s);
        double g[4 * 6 * 7], g0[4 * 6 * 7];
        for (int i = 0; i < 4 * 6 * 7; i++) g[i] = g0[i] = urand();
        ok(gk__stencil_cpu_spec(&s, g, 4, 6, 7, 3) == GK_OK && !memcmp(g, g0, sizeof g),
           "fixed r2 on 4x6x7 (no point 2 in from every face): unchanged");
    }
    /* the classic 27-point description through this backend = the classic CPU backend */
    {
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        gk__stencil_spec s;
        gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s);
        int64_t nx = 19, ny = 11, nz = 13, n = nx * ny * nz;
        double *a = malloc(n * 8), *c = malloc(n * 8);
        for (int64_t i = 0; i < n; i++) a[i] = c[i] = urand();
        ok(gk__stencil_cpu_spec(&s, a, nx, ny, nz, 4) == GK_OK &&
           gk__stencil_cpu_reference(c, nx, ny, nz, gk_stencil_default_coeffs, 4) == GK_OK && !memcmp(a, c, n * 8),
           "3D box r1 f64 zero with the default weights = the classic kernel's reference, bit for bit");
        free(a); free(c);
    }
    /* refused: periodic below 2r+1, 2D with nz > 1 */
    {
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        d.dims = 2; d.shape = GK_STENCIL_STAR; d.radius = 3; d.boundary = GK_BOUNDARY_PERIODIC;
        gk__stencil_spec s;
        gk__stencil_spec_make(&d, GK_DTYPE_FLOAT32, &s);
        float g[64] = { 0 };
        ok(gk__stencil_cpu_spec(&s, g, 6, 7, 1, 1) == GK_EINVAL && strstr(gk_last_error(), "nx = 6"),
           "periodic r3 on nx = 6 refused: %s", gk_last_error());
        ok(gk__stencil_cpu_spec_plain(&s, g, 7, 6, 1, 1) == GK_EINVAL, "the plain loop refuses it too");
        ok(gk__stencil_cpu_spec(&s, g, 7, 7, 1, 1) == GK_OK, "7x7 accepted");
        ok(gk__stencil_cpu_spec(&s, g, 7, 4, 2, 1) == GK_EINVAL, "2D with nz = 2 refused: %s", gk_last_error());
    }
    return done_testing();
}
