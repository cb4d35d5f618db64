/* grid.c - stencil grids and coefficients: file formats, the default
 * coefficients, the reproducible random generator, comparisons and the host
 * memory check. */
#include "core/internal.h"
#include "core/checked.h"
#include "core/io.h"
#include "core/parse.h"
#include "core/stencil_core.h"
#include "core/rng.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* DESIGN.md's ALPHA_XYZ (letters in x, y, z order) placed at
 * (dz+1)*9 + (dy+1)*3 + (dx+1). */
const double gk_stencil_default_coeffs[GK_STENCIL_NCOEFFS] = {
    /* dz = -1 */
    0.01537, -0.03548, -0.01357,   /* dy=-1: NNN ZNN PNN */
    0.01212, 0.02333, 0.01313,     /* dy= 0: NZN ZZN PZN */
    -0.01734, -0.04214, 0.01975,   /* dy=+1: NPN ZPN PPN */
    /* dz = 0 */
    -0.03154, -0.01334, -0.01234,  /* NNZ ZNZ PNZ */
    0.01531, 0.9415, 0.02345,      /* NZZ ZZZ PZZ */
    0.01111, -0.03512, 0.02222,    /* NPZ ZPZ PPZ */
    /* dz = +1 */
    0.02568, 0.01795, 0.02734,     /* NNP ZNP PNP */
    -0.01242, 0.02111, -0.03751,   /* NZP ZZP PZP */
    -0.01242, 0.01279, -0.02018,   /* NPP ZPP PPP */
};

#define COEFF_MAX_BYTES (1 << 20)

/* Exactly `want` finite numbers of a text file into c; `kind` names the
 * file's kind in messages ("a coefficient file"), `need` what it holds
 * ("27 numbers"). */
static gk_status read_numbers(const char *path, int want, double *c, const char *kind, const char *need)
{
    gk_infile in;
    gk_status st = gk__in_open(&in, path);
    if (st) return st;
    path = in.name;
    if (in.size > COEFF_MAX_BYTES) {
        gk__in_close(&in);
        return gk__fail(GK_EFORMAT, "%s: %lld bytes is too large for %s "
                        "(%s)", path, (long long)in.size, kind, need);
    }
    char *text = NULL;
    if ((st = gk__xmalloc((void **)&text, (size_t)COEFF_MAX_BYTES + 2, "the coefficient file"))) {
        gk__in_close(&in);
        return st;
    }
    /* Read to the end (a pipe or standard input has no size up front). */
    size_t size = fread(text, 1, (size_t)COEFF_MAX_BYTES + 1, in.f);
    int rerr = ferror(in.f), e = errno;
    gk__in_close(&in);
    if (rerr) {
        free(text);
        return gk__fail(GK_EIO, "%s: cannot read the coefficients: %s", path, strerror(e));
    }
    if (size > COEFF_MAX_BYTES) {
        free(text);
        return gk__fail(GK_EFORMAT, "%s: more than %d bytes is too large for %s "
                        "(%s)", path, COEFF_MAX_BYTES, kind, need);
    }
    text[size] = '\0';
    if (strlen(text) != (size_t)size) {
        free(text);
        return gk__fail(GK_EFORMAT, "%s: not a text file (contains a NUL byte)", path);
    }
    int n = 0;
    char *p = text;
    for (;;) {
        while (*p && (isspace((unsigned char)*p) || *p == ','))
            p++;
        if (!*p) break;
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        char *tok_end = end;
        if (end == p || (*end && !isspace((unsigned char)*end) && *end != ',')) {
            tok_end = p;
            while (*tok_end && !isspace((unsigned char)*tok_end) && *tok_end != ',')
                tok_end++;
            char tok[41], esc[164];
            snprintf(tok, sizeof tok, "%.*s", (int)(tok_end - p > 40 ? 40 : tok_end - p), p);
            gk__escape(tok, esc, sizeof esc);      /* one line, whatever the bytes */
            st = gk__fail(GK_EFORMAT, "%s: '%s' is not a number", path, esc);
            goto out;
        }
        if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1)) {
            st = gk__fail(GK_EFORMAT, "%s: number %d ('%.*s') is not a finite number",
                          path, n + 1, (int)(end - p > 40 ? 40 : end - p), p);
            goto out;
        }
        if (n < want)
            c[n] = v;
        n++;
        p = end;
    }
    if (n != want)
        st = gk__fail(GK_EFORMAT, "%s: has %d numbers, %s needs exactly %d", path, n, kind, want);
out:
    free(text);
    return st;
}

gk_status gk_stencil_coeffs_read(const char *path, double c[GK_STENCIL_NCOEFFS])
{
    return read_numbers(path, GK_STENCIL_NCOEFFS, c, "a coefficient file", "27 numbers");
}

gk_status gk_stencil_weights_read(const char *path, int dims, int radius, double *weights)
{
    if (!path || !weights)
        return gk__fail(GK_EINVAL, "gk_stencil_weights_read: %s is NULL", !path ? "path" : "weights");
    if ((dims != 2 && dims != 3) || radius < 1 || radius > GK_STENCIL_MAX_RADIUS)
        return gk__fail(GK_EINVAL, "%s: weights of %d dimensions and radius %d (want 2 or 3, 1 .. %d)", path, dims,
                        radius, GK_STENCIL_MAX_RADIUS);
    const int w1 = 2 * radius + 1, want = w1 * w1 * (dims == 3 ? w1 : 1);
    char kind[64], need[32];
    snprintf(kind, sizeof kind, "a %dd radius-%d weights file", dims, radius);
    snprintf(need, sizeof need, "%d numbers", want);
    return read_numbers(path, want, weights, kind, need);
}

/* The grid's points and bytes, or a failure naming what (a file or the
 * generator) when a size is not positive or the grid does not fit. */
static gk_status grid_size(const char *what, int64_t nx, int64_t ny, int64_t nz, uint64_t *points, uint64_t *bytes)
{
    if (nx < 1 || ny < 1 || nz < 1 || nx > INT32_MAX || ny > INT32_MAX || nz > INT32_MAX)
        return gk__fail(GK_EINVAL, "%s: grid %lldx%lldx%lld: every size must be in [1, 2^31 - 1]", what ? what : "grid",
                        (long long)nx, (long long)ny, (long long)nz);
    if (gk__grid_bytes(nx, ny, nz, points, bytes) != GK_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", gk_last_error());
        return gk__fail(GK_EINVAL, "%s: %s", what, msg);
    }
    return GK_OK;
}

gk_status gk_grid_read(const char *path, int64_t nx64, int64_t ny64, int64_t nz64, double *grid)
{
    uint64_t n = 0, want = 0;
    if (!path || !grid)
        return gk__fail(GK_EINVAL, "gk_grid_read: %s is NULL", !path ? "path" : "grid");
    gk_status st = grid_size(path, nx64, ny64, nz64, &n, &want);
    if (st) return st;
    const int nx = (int)nx64, ny = (int)ny64, nz = (int)nz64;
    char desc[96];
    snprintf(desc, sizeof desc, "a %dx%dx%d float64 grid", nx, ny, nz);
    st = gk__in_read_sized(path, grid, want, desc, "the grid", &path);
    if (st) return st;
    /* A NaN or Inf in the input would only come back as a silent mess. */
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(grid[i]))
            return gk__fail(GK_EFORMAT, "%s: the value at x=%llu y=%llu z=%llu (number %llu) is %s", path,
                            (unsigned long long)(i % (uint64_t)nx),
                            (unsigned long long)(i / (uint64_t)nx % (uint64_t)ny),
                            (unsigned long long)(i / (uint64_t)nx / (uint64_t)ny), (unsigned long long)i,
                            isnan(grid[i]) ? "NaN" : "infinite");
    return GK_OK;
}

gk_status gk_grid_read_type(const char *path, int64_t nx64, int64_t ny64, int64_t nz64, gk_dtype t, void *grid)
{
    if (t == GK_DTYPE_FLOAT64)
        return gk_grid_read(path, nx64, ny64, nz64, grid);
    uint64_t n = 0, want = 0;
    if (!path || !grid)
        return gk__fail(GK_EINVAL, "gk_grid_read_type: %s is NULL", !path ? "path" : "grid");
    if (t != GK_DTYPE_FLOAT32)
        return gk__fail(GK_EINVAL, "%s: a grid of %s (want float32 or float64)", path,
                        gk_dtype_name(t) ? gk_dtype_name(t) : "an unknown type");
    gk_status st = grid_size(path, nx64, ny64, nz64, &n, &want);
    if (st) return st;
    want /= 2;                                  /* 4 bytes a point */
    const int nx = (int)nx64, ny = (int)ny64, nz = (int)nz64;
    char desc[96];
    snprintf(desc, sizeof desc, "a %dx%dx%d float32 grid", nx, ny, nz);
    st = gk__in_read_sized(path, grid, want, desc, "the grid", &path);
    if (st) return st;
    const float *g = grid;
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(g[i]))
            return gk__fail(GK_EFORMAT, "%s: the value at x=%llu y=%llu z=%llu (number %llu) is %s", path,
                            (unsigned long long)(i % (uint64_t)nx),
                            (unsigned long long)(i / (uint64_t)nx % (uint64_t)ny),
                            (unsigned long long)(i / (uint64_t)nx / (uint64_t)ny), (unsigned long long)i,
                            isnan(g[i]) ? "NaN" : "infinite");
    return GK_OK;
}

gk_status gk_grid_write_type(const char *path, int64_t nx, int64_t ny, int64_t nz, gk_dtype t, const void *grid)
{
    if (t == GK_DTYPE_FLOAT64)
        return gk_grid_write(path, nx, ny, nz, grid);
    uint64_t bytes = 0;
    if (!path || !grid)
        return gk__fail(GK_EINVAL, "gk_grid_write_type: %s is NULL", !path ? "path" : "grid");
    if (t != GK_DTYPE_FLOAT32)
        return gk__fail(GK_EINVAL, "%s: a grid of %s (want float32 or float64)", path,
                        gk_dtype_name(t) ? gk_dtype_name(t) : "an unknown type");
    gk_status st = grid_size(path, nx, ny, nz, NULL, &bytes);
    if (st) return st;
    return gk__write_file_atomic(path, grid, (size_t)(bytes / 2));
}

gk_status gk_grid_write(const char *path, int64_t nx, int64_t ny, int64_t nz, const double *grid)
{
    uint64_t bytes = 0;
    if (!path || !grid)
        return gk__fail(GK_EINVAL, "gk_grid_write: %s is NULL", !path ? "path" : "grid");
    gk_status st = grid_size(path, nx, ny, nz, NULL, &bytes);
    if (st) return st;
    return gk__write_file_atomic(path, grid, (size_t)bytes);
}

void gk_grid_random(double *grid, int64_t nx, int64_t ny, int64_t nz, uint64_t seed)
{
    uint64_t points = 0;
    /* A size that does not fit has no buffer either: fill nothing. */
    if (!grid || nx < 1 || ny < 1 || nz < 1 || nx > INT32_MAX || ny > INT32_MAX || nz > INT32_MAX
        || gk__grid_bytes((int)nx, (int)ny, (int)nz, &points, NULL) != GK_OK)
        return;
    int64_t n = (int64_t)points;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t i = 0; i < n; i++)
        grid[i] = 2.0 * gk__rand_unit(seed, (uint64_t)i) - 1.0;
}

void gk__grid_random_type(void *grid, int64_t nx, int64_t ny, int64_t nz, gk_dtype t, uint64_t seed)
{
    if (t != GK_DTYPE_FLOAT32) {
        gk_grid_random(grid, nx, ny, nz, seed);
        return;
    }
    uint64_t points = 0;
    if (!grid || nx < 1 || ny < 1 || nz < 1 || nx > INT32_MAX || ny > INT32_MAX || nz > INT32_MAX
        || gk__grid_bytes((int)nx, (int)ny, (int)nz, &points, NULL) != GK_OK)
        return;
    float *g = grid;
    int64_t n = (int64_t)points;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t i = 0; i < n; i++)
        g[i] = (float)(2.0 * gk__rand_unit(seed, (uint64_t)i) - 1.0);
}

double gk__grid_max_abs(const double *grid, int64_t n)
{
    double m = 0;
#ifdef _OPENMP
#pragma omp parallel for reduction(max : m) schedule(static)
#endif
    for (int64_t i = 0; i < n; i++) {
        double a = fabs(grid[i]);
        if (a > m || a != a) m = a != a ? INFINITY : a;
    }
    return m;
}

double gk_stencil_tolerance(int64_t steps, double scale)
{
    return 8.0 * (steps > 0 ? steps : 0) * 0x1p-52 * scale;
}

gk_status gk__stencil_compare(const double *a, const double *ref, int64_t n, int64_t steps,
                             double init_scale, gk__stencil_diff *d)
{
    double max_abs = 0, max_rel = 0, scale = init_scale;
    int64_t bad = 0, worst = -1;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(ref[i])) {
            if (!bad) worst = i;
            bad++;
            continue;
        }
        double e = fabs(a[i] - ref[i]), r = fabs(ref[i]);
        if (r > scale) scale = r;
        if (e > max_abs) {
            max_abs = e;
            if (!bad) worst = i;
        }
        if (r > 0 && e / r > max_rel) max_rel = e / r;
    }
    if (scale < 1e-300) scale = 1e-300;
    d->max_abs = max_abs;
    d->max_rel = max_rel;
    d->scale = scale;
    d->tolerance = gk_stencil_tolerance(steps, scale);
    d->nonfinite = bad;
    if (bad)
        return gk__fail(GK_EMISMATCH, "%lld non-finite values (first at index %lld)",
                        (long long)bad, (long long)worst);
    if (max_abs > d->tolerance)
        return gk__fail(GK_EMISMATCH, "max abs difference %.3g at index %lld (%.17g vs %.17g) "
                        "exceeds the tolerance %.3g", max_abs, (long long)worst, a[worst],
                        ref[worst], d->tolerance);
    return GK_OK;
}

gk_status gk__stencil_compare_exact(const void *a, const void *ref, int64_t n, gk_dtype t, gk__stencil_diff *d)
{
    const int f32 = t == GK_DTYPE_FLOAT32;
    const size_t e = f32 ? 4 : 8;
    int64_t bad = 0, first = -1;
    double max_abs = 0, max_rel = 0, scale = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = f32 ? ((const float *)a)[i] : ((const double *)a)[i];
        double y = f32 ? ((const float *)ref)[i] : ((const double *)ref)[i];
        if (fabs(y) > scale) scale = fabs(y);
        if (!memcmp((const char *)a + i * (int64_t)e, (const char *)ref + i * (int64_t)e, e))
            continue;
        if (!bad) first = i;
        bad++;
        double diff = fabs(x - y);
        if (!(diff <= max_abs)) max_abs = diff;      /* NaN stays */
        if (y != 0 && diff / fabs(y) > max_rel) max_rel = diff / fabs(y);
    }
    memset(d, 0, sizeof *d);
    d->max_abs = max_abs;
    d->max_rel = max_rel;
    d->scale = scale > 1e-300 ? scale : 1e-300;
    d->nonfinite = 0;
    if (!bad) return GK_OK;
    double x = f32 ? ((const float *)a)[first] : ((const double *)a)[first];
    double y = f32 ? ((const float *)ref)[first] : ((const double *)ref)[first];
    return gk__fail(GK_EMISMATCH, "stencil check: %lld of %lld values differ from the reference (bit for bit), "
                    "the first at index %lld: %.17g against %.17g; max abs diff %.3g",
                    (long long)bad, (long long)n, (long long)first, x, y, max_abs);
}
