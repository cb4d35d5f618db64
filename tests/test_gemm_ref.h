/* test_gemm_ref.h - the tests' own reference for C = A B: a triple loop in
 * long double (independent of the library's loops), |A||B|, and the check
 * of a result under the bound of gk/gemm.h. */
#ifndef TEST_GEMM_REF_H
#define TEST_GEMM_REF_H

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* ref and absab: m*n each. */
static void t_gemm_ref(const float *a, const float *b, int m, int n, int k, double *ref, double *absab)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            long double s = 0, t = 0;
            for (int p = 0; p < k; p++) {
                long double x = (long double)a[(size_t)i * k + p] * b[(size_t)p * n + j];
                s += x;
                t += fabsl(x);
            }
            ref[(size_t)i * n + j] = (double)s;
            absab[(size_t)i * n + j] = (double)t;
        }
}

/* Largest |c - ref| / (2 K eps |A||B| + K FLT_MIN); > 1 fails.  NaN: 1e300. */
static double t_gemm_ratio(const float *c, const double *ref, const double *absab, int m, int n, int k)
{
    double worst = 0;
    for (size_t i = 0; i < (size_t)m * n; i++) {
        if (!isfinite(c[i])) return 1e300;
        double r = fabs((double)c[i] - ref[i]) / (2.0 * k * FLT_EPSILON * absab[i] + (double)k * FLT_MIN);
        if (r > worst) worst = r;
    }
    return worst;
}

/* Awkward shapes: 1x1x1, primes, K = 1, non-multiples of every tile (CPU
 * 12x32 and 6x16 micro-tiles, k chunks of 256, MC = 144 rows; GPU tiles
 * 16..256, k chunks 8..32, vectors of 2 and 4), M or N of 1. */
static const int t_shapes[][3] = {
    { 1, 1, 1 }, { 7, 13, 17 }, { 31, 37, 41 }, { 97, 89, 83 }, { 50, 70, 1 }, { 1, 300, 5 }, { 300, 1, 7 },
    { 13, 33, 257 }, { 145, 65, 300 }, { 129, 131, 9 }, { 257, 127, 515 }, { 64, 64, 64 }, { 128, 256, 24 },
};

#endif
