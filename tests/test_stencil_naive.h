/* test_stencil_naive.h - the stencil descriptions' naive loop for the
 * tests, written from gk/stencil.h's definition alone (no gk code): the
 * independent reference of test_stencil_desc_cpu and test_stencil_desc_api. */
#ifndef GK_TEST_STENCIL_NAIVE_H
#define GK_TEST_STENCIL_NAIVE_H

#include "gk.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The naive loop: every (dz,dy,dx) of the cube in order, the shape's test
 * and the boundary written out here. */
static inline int64_t mod(int64_t i, int64_t n) { return ((i % n) + n) % n; }

#define NAIVE(NAME, T, FMA)                                                                          \
    static inline void NAME(T *g, int64_t nx, int64_t ny, int64_t nz, int dims, gk_stencil_shape shape, int r,  \
                     gk_boundary b, const double *w, int steps)                                      \
    {                                                                                                \
        int64_t n = nx * ny * nz, w1 = 2 * r + 1, rz = dims == 3 ? r : 0;                            \
        T *o = malloc((size_t)n * sizeof(T));                                                        \
        for (int s = 0; s < steps; s++) {                                                            \
            for (int64_t z = 0; z < nz; z++)                                                         \
                for (int64_t y = 0; y < ny; y++)                                                     \
                    for (int64_t x = 0; x < nx; x++) {                                               \
                        int64_t p = (z * ny + y) * nx + x;                                           \
                        int edge = x < r || x > nx - 1 - r || y < r || y > ny - 1 - r ||             \
                                   (dims == 3 && (z < r || z > nz - 1 - r));                         \
                        if (b == GK_BOUNDARY_FIXED && edge) { o[p] = g[p]; continue; }              \
                        T t = 0;                                                                     \
                        int first = 1;                                                               \
                        for (int64_t dz = -rz; dz <= rz; dz++)                                       \
                            for (int64_t dy = -r; dy <= r; dy++)                                     \
                                for (int64_t dx = -r; dx <= r; dx++) {                               \
                                    double wd = w[((dz + rz) * w1 + dy + r) * w1 + dx + r];          \
                                    int axes = (dx != 0) + (dy != 0) + (dz != 0);                    \
                                    if (shape == GK_STENCIL_STAR && axes > 1) continue;              \
                                    if (shape == GK_STENCIL_MASK && wd == 0) continue;               \
                                    int64_t xx = x + dx, yy = y + dy, zz = z + dz;                   \
                                    T v;                                                             \
                                    if (b == GK_BOUNDARY_PERIODIC)                                   \
                                        v = g[(mod(zz, nz) * ny + mod(yy, ny)) * nx + mod(xx, nx)];  \
                                    else if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) \
                                        v = 0;                                                       \
                                    else                                                             \
                                        v = g[(zz * ny + yy) * nx + xx];                             \
                                    T wt = (T)wd;                                                    \
                                    t = first ? wt * v : FMA(wt, v, t);                              \
                                    first = 0;                                                       \
                                }                                                            \
                        o[p] = t;                                                                    \
                    }                                                                                \
            memcpy(g, o, (size_t)n * sizeof(T));                                                     \
        }                                                                                            \
        free(o);                                                                                     \
    }
NAIVE(naive_f64, double, fma)
NAIVE(naive_f32, float, fmaf)

#endif /* GK_TEST_STENCIL_NAIVE_H */
