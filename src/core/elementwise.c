/* elementwise.c - the elementwise kernel's problem checks, matrix files,
 * random input and the per-iteration check (every build). */
#include "core/elementwise.h"
#include "core/checked.h"
#include "core/io.h"
#include "core/rng.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

/* The bytes of a dimx x dimy float matrix, or a failure naming `what`. */
static gk_status matrix_bytes(const char *what, int64_t dimx, int64_t dimy, uint64_t *n, uint64_t *bytes)
{
    if (dimx < 1 || dimy < 1)
        return gk__fail(GK_EINVAL, "%s: matrix %lldx%lld: every size must be >= 1", what, (long long)dimx,
                        (long long)dimy);
    if (dimx > GK_EW_MAX_AXIS || dimy > GK_EW_MAX_AXIS)
        return gk__fail(GK_EINVAL, "%s: matrix %lldx%lld: a size is above %d", what, (long long)dimx,
                        (long long)dimy, GK_EW_MAX_AXIS);
    uint64_t e, b;
    if (gk__mul_u64((uint64_t)dimx, (uint64_t)dimy, &e) || gk__mul_u64(e, sizeof(float), &b)
        || b > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "%s: matrix %lldx%lld: its bytes do not fit in memory (more than %llu)",
                        what, (long long)dimx, (long long)dimy, (unsigned long long)gk__max_object_bytes());
    if (n) *n = e;
    if (bytes) *bytes = b;
    return GK_OK;
}

gk_status gk_elementwise_check_size(int64_t dimx, int64_t dimy, int64_t niter)
{
    gk_status st = matrix_bytes("elementwise", dimx, dimy, NULL, NULL);
    if (st) return st;
    if (niter < 0 || niter > 0x7fffffff)
        return gk__fail(GK_EINVAL, "elementwise: %lld iterations (want 0 .. 2147483647)", (long long)niter);
    return GK_OK;
}

gk_status gk_elementwise_read(const char *path, int64_t dimx, int64_t dimy, float *a)
{
    uint64_t n = 0, want = 0;
    gk_status st = matrix_bytes(path, dimx, dimy, &n, &want);
    if (st) return st;
    char desc[96];
    snprintf(desc, sizeof desc, "a %lldx%lld float32 matrix", (long long)dimx, (long long)dimy);
    st = gk__in_read_sized(path, a, want, desc, "the matrix", &path);
    if (st) return st;
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(a[i]))
            return gk__fail(GK_EFORMAT, "%s: element (%llu, %llu) is %s", path,
                            (unsigned long long)(i / (uint64_t)dimx), (unsigned long long)(i % (uint64_t)dimx),
                            isnan(a[i]) ? "NaN" : "infinite");
    return GK_OK;
}

gk_status gk_elementwise_write(const char *path, int64_t dimx, int64_t dimy, const float *a)
{
    uint64_t bytes = 0;
    gk_status st = matrix_bytes(path, dimx, dimy, NULL, &bytes);
    if (st) return st;
    return gk__write_file_atomic(path, a, (size_t)bytes);
}

void gk_elementwise_random(float *a, int64_t dimx, int64_t dimy, uint64_t seed)
{
    uint64_t n = 0;
    if (!a || matrix_bytes("random matrix", dimx, dimy, &n, NULL) != GK_OK) {
        gk__clear_error();
        return;
    }
    int64_t cnt = (int64_t)n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t i = 0; i < cnt; i++)
        a[i] = (float)(1.0 + gk__rand_unit(seed, (uint64_t)i));   /* [1, 2]: rounding may reach 2 */
}

/* ---- the enclosure ---- */

/* t moved outward by more than double's rounding error (the bounds are
 * computed in double from float operands: each operation errs by at most
 * 2^-53 relative). */
static double lo_d(double t) { return isinf(t) || isnan(t) ? t : t - fabs(t) * 0x1p-50 - 0x1p-1074; }
static double hi_d(double t) { return isinf(t) || isnan(t) ? t : t + fabs(t) * 0x1p-50 + 0x1p-1074; }

/* The largest float <= t, the smallest float >= t. */
static float rd_f(double t)
{
    float f = (float)t;
    if ((double)f > t) f = nextafterf(f, -INFINITY);
    return f;
}
static float ru_f(double t)
{
    float f = (float)t;
    if ((double)f < t) f = nextafterf(f, INFINITY);
    return f;
}

/* A float ulp at magnitude m, taken slightly above m (at a power of two the
 * larger of the two ulps). */
static double ulp_f(double m)
{
    m = fabs(m) * (1 + 0x1p-20);
    if (m < 0x1p-126) return 0x1p-149;
    int e;
    frexp(m, &e);                /* m = f * 2^e, f in [0.5, 1) */
    return ldexp(1.0, e - 24);
}

void gk__ew_enclose(float x, int cls, int ulps, gk__ew_box *b)
{
    b->lo = b->hi = NAN;
    b->nan_req = b->nan_ok = 1;
    if (isnan(x))
        return;
    double fx = gk__ew_f((double)x, cls);
    if (isnan(fx))               /* log of a negative number, cos/sin/tan of an infinity */
        return;
    double a_lo = fx, a_hi = fx;
    if (!isinf(fx)) {
        double u = ulp_f(fx) * (ulps + 0.5);    /* ulps from the correctly rounded f, itself within 1/2 */
        a_lo = fx - u;
        a_hi = fx + u;
    }
    /* the libm's float result a, then b = fl(a + 1) */
    float fa_lo = rd_f(lo_d(a_lo)), fa_hi = ru_f(hi_d(a_hi));
    float b_lo = rd_f(lo_d((double)fa_lo + 1.0)), b_hi = ru_f(hi_d((double)fa_hi + 1.0));
    if (b_hi < 0) {              /* sqrt of a negative number for every such f */
        b->nan_ok = 1;
        return;
    }
    b->nan_req = 0;
    b->nan_ok = b_lo < 0;
    float c_lo = b_lo < 0 ? 0.0f : rd_f(lo_d(sqrt((double)b_lo)));
    float c_hi = ru_f(hi_d(sqrt((double)b_hi)));
    b->lo = rd_f(lo_d((double)x + c_lo));
    b->hi = ru_f(hi_d((double)x + c_hi));
}

gk_status gk__elementwise_step_check(const float *in, const float *out, int64_t dimx, int64_t dimy,
                                    const int ulps[4], gk__elementwise_diff *d)
{
    uint64_t n = 0;
    gk_status st = matrix_bytes("elementwise check", dimx, dimy, &n, NULL);
    if (st) return st;
    if (!in || !out || !ulps || !d)
        return gk__fail(GK_EINVAL, "gk__elementwise_step_check: a NULL argument");
    int64_t outside = 0, nan = 0, nan_allowed = 0, cnt = (int64_t)n;
    double max_ulp = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : outside, nan, nan_allowed) reduction(max : max_ulp)
#endif
    for (int64_t i = 0; i < cnt; i++) {
        int cls = (int)(i % dimx) & 3;
        gk__ew_box b;
        gk__ew_enclose(in[i], cls, ulps[cls], &b);
        float y = out[i];
        int good;
        if (isnan(y)) {
            nan++;
            good = b.nan_ok;
        } else {
            good = !b.nan_req && y >= b.lo && y <= b.hi;
            float cr = gk__ew_step(in[i], cls);
            if (!isnan(cr)) {
                double e = fabs((double)y - (double)cr) / ulp_f(cr);
                if (!(e <= max_ulp)) max_ulp = e;
            }
        }
        nan_allowed += b.nan_ok && !b.nan_req;
        outside += !good;
    }
    d->n += cnt;
    d->outside += outside;
    d->nan = nan;                    /* this call's: the NaNs of the result it checked */
    d->nan_allowed += nan_allowed;
    if (max_ulp > d->max_ulp) d->max_ulp = max_ulp;
    if (!outside)
        return GK_OK;
    /* the first element outside, in this call */
    int64_t f = -1;
    for (int64_t i = 0; i < cnt && f < 0; i++) {
        int cls = (int)(i % dimx) & 3;
        gk__ew_box b;
        gk__ew_enclose(in[i], cls, ulps[cls], &b);
        int good = isnan(out[i]) ? b.nan_ok : !b.nan_req && out[i] >= b.lo && out[i] <= b.hi;
        if (!good) f = i;
    }
    if (d->outside == outside) d->first = f;     /* the first failing call's */
    static const char *fname[4] = { "log", "cos", "sin", "tan" };
    int cls = (int)(f % dimx) & 3;
    gk__ew_box b;
    gk__ew_enclose(in[f], cls, ulps[cls], &b);
    char want[96];
    if (b.nan_req)
        snprintf(want, sizeof want, "NaN");
    else
        snprintf(want, sizeof want, "[%.9g, %.9g]%s", b.lo, b.hi, b.nan_ok ? " or NaN" : "");
    return gk__fail(GK_EMISMATCH, "%lld of %lld elements outside their one-step enclosure (%s, %d ulp); "
                    "first at row %lld, column %lld: %.9g -> %.9g, want %s", (long long)outside, (long long)cnt,
                    fname[cls], ulps[cls], (long long)(f / dimx), (long long)(f % dimx), in[f], out[f], want);
}
