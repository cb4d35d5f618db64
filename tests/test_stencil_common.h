/* test_stencil_common.h - an independent stencil reference for the tests: a
 * plain triple loop over an unpadded grid with the halo as explicit bounds
 * tests, one step at a time. */
#ifndef GK_TEST_STENCIL_COMMON_H
#define GK_TEST_STENCIL_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static __attribute__((unused)) double t_at(const double *g, int nx, int ny, int nz, int x, int y, int z)
{
    if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz)
        return 0.0;  /* the zero halo */
    return g[((size_t)z * ny + y) * nx + x];
}

/* steps sweeps: out = c0*v0 then fma(ci, vi, .) in index order
 * (dz+1)*9+(dy+1)*3+(dx+1), the order gk documents. */
static __attribute__((unused)) void t_reference(double *g, int nx, int ny, int nz, const double *c, int steps)
{
    size_t n = (size_t)nx * ny * nz;
    double *o = malloc(n * sizeof *o + 8);
    for (int s = 0; s < steps; s++) {
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) {
                    double t = 0;
                    int k = 0;
                    for (int dz = -1; dz <= 1; dz++)
                        for (int dy = -1; dy <= 1; dy++)
                            for (int dx = -1; dx <= 1; dx++, k++) {
                                double v = t_at(g, nx, ny, nz, x + dx, y + dy, z + dz);
                                t = k == 0 ? c[0] * v : fma(c[k], v, t);
                            }
                    o[((size_t)z * ny + y) * nx + x] = t;
                }
        memcpy(g, o, n * sizeof *g);
    }
    free(o);
}

/* A simple LCG, different from gk's generator, for test inputs. */
static __attribute__((unused)) double t_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static __attribute__((unused)) double t_maxdiff(const double *a, const double *b, size_t n, int *bitexact)
{
    double m = 0;
    *bitexact = 1;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(a[i] - b[i]);
        if (!(d <= m)) m = d;            /* NaN propagates */
        if (memcmp(&a[i], &b[i], sizeof a[i])) *bitexact = 0;
    }
    return m;
}

static __attribute__((unused)) const double t_random_coeffs[27] = {
    -0.028187, -0.055864, 0.02415, -0.06841, 0.005741, -0.02149, -0.07072, 0.00119, -0.074001,
    -0.010617, -0.068823, -0.065486, -0.012077, 0.5, -0.060192, -0.044282, 0.020389, 0.071633,
    0.012336, -0.016531, 0.076201, -0.072547, 0.057355, -0.033663, -0.056919, -0.061153, -0.030643 };

static __attribute__((unused)) const int t_sizes[][3] = { { 1, 1, 1 }, { 2, 3, 5 }, { 17, 9, 13 }, { 33, 18, 35 }, { 70, 5, 9 } };
static __attribute__((unused)) const int t_steps[] = { 0, 1, 2, 7 };

#endif
