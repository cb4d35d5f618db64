/* gemm_io.c - the matrix multiply's sizes, raw float32 matrix files, the
 * reproducible random generator and the comparison under the stated bound
 * (include/gk/gemm.h). */
#include "core/gemm_core.h"
#include "core/checked.h"
#include "core/io.h"
#include "core/rng.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

gk_status gk__matrix_bytes(const char *what, int64_t rows, int64_t cols, uint64_t *bytes)
{
    uint64_t e, b;
    if (rows < 1 || cols < 1)
        return gk__fail(GK_EINVAL, "%s: a %lld x %lld matrix: every size must be >= 1", what, (long long)rows,
                        (long long)cols);
    if (gk__mul_u64((uint64_t)rows, (uint64_t)cols, &e) || gk__mul_u64(e, 4, &b) || b > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "%s: a %lld x %lld float32 matrix does not fit in memory (its bytes overflow)",
                        what, (long long)rows, (long long)cols);
    if (bytes) *bytes = b;
    return GK_OK;
}

gk_status gk_gemm_check_size(int64_t m, int64_t n, int64_t k)
{
    if (m < 1 || n < 1 || k < 1)
        return gk__fail(GK_EINVAL, "gemm %lld x %lld x %lld (M x N x K): every size must be >= 1", (long long)m,
                        (long long)n, (long long)k);
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
        return gk__fail(GK_EINVAL, "gemm %lld x %lld x %lld (M x N x K): a size is above %d", (long long)m,
                        (long long)n, (long long)k, INT32_MAX);
    gk_status st;
    if ((st = gk__matrix_bytes("gemm A (M x K)", m, k, NULL)) || (st = gk__matrix_bytes("gemm B (K x N)", k, n, NULL))
        || (st = gk__matrix_bytes("gemm C (M x N)", m, n, NULL)))
        return st;
    return GK_OK;
}

gk_status gk_matrix_read(const char *path, int64_t rows, int64_t cols, float *m)
{
    uint64_t want = 0;
    gk_status st = gk__matrix_bytes(path, rows, cols, &want);
    if (st) return st;
    char desc[96];
    snprintf(desc, sizeof desc, "a %lld x %lld float32 matrix", (long long)rows, (long long)cols);
    st = gk__in_read_sized(path, m, want, desc, "the matrix", &path);
    if (st) return st;
    uint64_t n = want / 4;
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(m[i]))
            return gk__fail(GK_EFORMAT, "%s: element (%llu, %llu) is %s", path, (unsigned long long)(i / (uint64_t)cols),
                            (unsigned long long)(i % (uint64_t)cols), isnan(m[i]) ? "NaN" : "infinite");
    return GK_OK;
}

gk_status gk_matrix_write(const char *path, int64_t rows, int64_t cols, const float *m)
{
    uint64_t bytes = 0;
    gk_status st = gk__matrix_bytes(path, rows, cols, &bytes);
    if (st) return st;
    return gk__write_file_atomic(path, m, (size_t)bytes);
}

void gk_matrix_random(float *m, int64_t rows, int64_t cols, uint64_t seed)
{
    uint64_t bytes = 0;
    if (gk__matrix_bytes("random matrix", rows, cols, &bytes)) {
        gk__clear_error();
        return;
    }
    int64_t n = (int64_t)(bytes / 4);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t i = 0; i < n; i++)
        m[i] = (float)(2.0 * gk__rand_unit(seed, (uint64_t)i) - 1.0);
}

double gk_gemm_tolerance(int64_t k, double abs_ab)
{
    return GK_GEMM_TOL_C * (double)k * FLT_EPSILON * abs_ab + (double)k * FLT_MIN;
}

gk_status gk__gemm_compare(const float *c, const double *ref, const double *abs_ab, int64_t m, int64_t n,
                          int64_t k, gk__gemm_diff *d)
{
    double max_abs = 0, max_ratio = 0;
    int64_t bad = 0, worst = -1, firstbad = -1, total = m * n;
    for (int64_t i = 0; i < total; i++) {
        if (!isfinite(c[i]) || !isfinite(ref[i])) {
            if (firstbad < 0) firstbad = i;
            bad++;
            continue;
        }
        double e = fabs((double)c[i] - ref[i]), r = e / gk_gemm_tolerance(k, abs_ab[i]);
        if (e > max_abs) max_abs = e;
        if (r > max_ratio) { max_ratio = r; worst = i; }
    }
    d->max_abs = max_abs;
    d->max_ratio = max_ratio;
    d->worst = worst;
    d->nonfinite = bad;
    if (bad)
        return gk__fail(GK_EMISMATCH, "gemm: %lld non-finite elements (first at row %lld, column %lld)",
                        (long long)bad, (long long)(firstbad / n), (long long)(firstbad % n));
    if (max_ratio > 1)
        return gk__fail(GK_EMISMATCH, "gemm: element (%lld, %lld) is %.9g, the reference %.9g: off by %.3g, "
                        "%.3g times the bound %d*K*eps*sum|A||B|", (long long)(worst / n), (long long)(worst % n),
                        (double)c[worst], ref[worst], fabs((double)c[worst] - ref[worst]), max_ratio,
                        (int)GK_GEMM_TOL_C);
    return GK_OK;
}
