/* stencil_gen_spec.h - the stencil description the generated engine reads
 * (CONTRACT-25 section 3: gk__stencil_spec).  Helper F's src/core/
 * stencil_spec.h is the owner of the struct; until it is merged this branch
 * keeps a private copy of the contract's definition (and a small builder for
 * the tests and the tuner).  When F's header exists it is used instead and
 * this copy drops out (then this file shrinks to the include).
 *
 * Header-only and plain C: core, gpu, tune and tests include it. */
#ifndef GK_STENCIL_GEN_SPEC_H
#define GK_STENCIL_GEN_SPEC_H

#include "core/internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include("core/stencil_spec.h")
#define GK_SG_HAVE_SPEC 1
#endif
#endif

#ifdef GK_SG_HAVE_SPEC
#include "core/stencil_spec.h"
#else
/* ---- the private copy of the contract (section 2 and 3) ---- */
#ifndef GK_STENCIL_SHAPE_DEFINED
#define GK_STENCIL_SHAPE_DEFINED
typedef enum gk_stencil_shape { GK_STENCIL_BOX = 1, GK_STENCIL_STAR = 2, GK_STENCIL_MASK = 3 } gk_stencil_shape;
typedef enum gk_boundary { GK_BOUNDARY_ZERO = 0, GK_BOUNDARY_PERIODIC = 1, GK_BOUNDARY_FIXED = 2 } gk_boundary;
#endif
#define GK_STENCIL_MAX_POINTS 729
typedef struct gk__stencil_spec {
    int dims, radius;
    gk_boundary boundary;
    gk_dtype dtype;                        /* FLOAT32 or FLOAT64 */
    int npoints;                           /* in evaluation order (ascending dz, dy, dx) */
    int8_t dx[GK_STENCIL_MAX_POINTS], dy[GK_STENCIL_MAX_POINTS], dz[GK_STENCIL_MAX_POINTS];
    double w[GK_STENCIL_MAX_POINTS];       /* already rounded to float for FLOAT32 */
    char key[96];                          /* "3d-star-r2-f64-periodic-<16 hex of a hash of w>" */
} gk__stencil_spec;
#endif

/* The spec key without its weight hash ("3d-star-r2-f64-periodic"): what
 * tuned entries are keyed by (shapes tune the same whatever the weights). */
static inline void gk__sg_shape_key(const gk__stencil_spec *s, char *buf, size_t n)
{
    if (snprintf(buf, n, "%s", s->key) >= (int)n)
        buf[0] = '\0';
    char *dash = strrchr(buf, '-');
    if (dash && strlen(dash) == 17)      /* "-" + 16 hex digits */
        *dash = '\0';
}

/* A spec from its parts (the builder the tests and the tuner use until F's
 * gk__stencil_spec_make is merged; the same rules): shape box (every point
 * of the (2r+1)^dims cube), star (the axes) or mask (the nonzero weights);
 * weights NULL: 1/points at each point of the shape.  GK_EINVAL on a bad
 * part. */
static inline gk_status gk__sg_spec_build(int dims, gk_stencil_shape shape, int r, gk_boundary b, gk_dtype t,
                                          const double *weights, gk__stencil_spec *s)
{
    if (dims != 2 && dims != 3)
        return gk__fail(GK_EINVAL, "stencil: dims %d (want 2 or 3)", dims);
    if (r < 1 || r > 4)
        return gk__fail(GK_EINVAL, "stencil: radius %d outside 1..4", r);
    if (t != GK_DTYPE_FLOAT32 && t != GK_DTYPE_FLOAT64)
        return gk__fail(GK_EINVAL, "stencil: element type must be float32 or float64");
    if (b != GK_BOUNDARY_ZERO && b != GK_BOUNDARY_PERIODIC && b != GK_BOUNDARY_FIXED)
        return gk__fail(GK_EINVAL, "stencil: unknown boundary %d", (int)b);
    if (shape != GK_STENCIL_BOX && shape != GK_STENCIL_STAR && shape != GK_STENCIL_MASK)
        return gk__fail(GK_EINVAL, "stencil: unknown shape %d", (int)shape);
    memset(s, 0, sizeof *s);
    s->dims = dims;
    s->radius = r;
    s->boundary = b;
    s->dtype = t;
    int w = 2 * r + 1, zr = dims == 3 ? r : 0, npts = 0;
    /* the shape's points first (for the NULL default) */
    for (int pass = 0; pass < 2; pass++) {
        int n = 0;
        for (int dz = -zr; dz <= zr; dz++)
            for (int dy = -r; dy <= r; dy++)
                for (int dx = -r; dx <= r; dx++) {
                    int idx = dims == 3 ? ((dz + r) * w + (dy + r)) * w + (dx + r) : (dy + r) * w + (dx + r);
                    int axes = (dx != 0) + (dy != 0) + (dz != 0);
                    double v = weights ? weights[idx] : 1.0;
                    int in = shape == GK_STENCIL_BOX || (shape == GK_STENCIL_STAR && axes <= 1)
                             || (shape == GK_STENCIL_MASK && v != 0);
                    if (shape == GK_STENCIL_STAR && axes > 1 && weights && v != 0)
                        return gk__fail(GK_EINVAL, "stencil: a star's weight off the axes (%d,%d,%d) is not 0",
                                        dx, dy, dz);
                    if (weights && !(v - v == 0))
                        return gk__fail(GK_EINVAL, "stencil: weight %d is not finite", idx);
                    if (!in)
                        continue;
                    if (pass == 1) {
                        double x = weights ? v : 1.0 / npts;
                        if (t == GK_DTYPE_FLOAT32)
                            x = (double)(float)x;
                        s->dx[n] = (int8_t)dx;
                        s->dy[n] = (int8_t)dy;
                        s->dz[n] = (int8_t)dz;
                        s->w[n] = x;
                    }
                    n++;
                }
        npts = n;
    }
    if (npts == 0)
        return gk__fail(GK_EINVAL, "stencil: a mask with no nonzero weight");
    s->npoints = npts;
    static const char *const shapes[] = { "", "box", "star", "mask" };
    static const char *const bnds[] = { "zero", "periodic", "fixed" };
    uint64_t h = 1469598103934665603ULL;             /* FNV-1a of the weights' bytes */
    const unsigned char *p = (const unsigned char *)s->w;
    for (size_t i = 0; i < (size_t)npts * sizeof(double); i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    snprintf(s->key, sizeof s->key, "%dd-%s-r%d-%s-%s-%016llx", dims, shapes[shape], r,
             t == GK_DTYPE_FLOAT32 ? "f32" : "f64", bnds[b], (unsigned long long)h);
    return GK_OK;
}

/* "3d-star-r2[:zero|:periodic|:fixed][:f32|:f64]" (the contract's text and
 * its boundary suffix, plus the element type: f64 when absent).  Private
 * until F's gk_stencil_desc_parse is merged (then only the type suffix is
 * parsed here).  GK_EINVAL naming text. */
static inline gk_status gk__sg_desc_parse(const char *text, int *dims, gk_stencil_shape *shape, int *r,
                                          gk_boundary *b, gk_dtype *t)
{
    char sh[8], rest[64];
    int n = 0;
    rest[0] = '\0';
    *dims = *r = 0;
    *shape = GK_STENCIL_BOX;
    *b = GK_BOUNDARY_ZERO;
    *t = GK_DTYPE_FLOAT64;
    if (strlen(text) > 60 || sscanf(text, "%1dd-%7[a-z]-r%1d%n", dims, sh, r, &n) != 3
        || (*dims != 2 && *dims != 3) || *r < 1 || *r > 4)
        return gk__fail(GK_EINVAL, "stencil description '%s': want e.g. 3d-star-r2[:periodic|:fixed][:f32]", text);
    if (!strcmp(sh, "star")) *shape = GK_STENCIL_STAR;
    else if (!strcmp(sh, "box")) *shape = GK_STENCIL_BOX;
    else return gk__fail(GK_EINVAL, "stencil description '%s': shape '%s' is not star or box", text, sh);
    *b = GK_BOUNDARY_ZERO;
    *t = GK_DTYPE_FLOAT64;
    snprintf(rest, sizeof rest, "%s", text + n);
    for (char *p = rest; *p;) {
        if (*p != ':')
            return gk__fail(GK_EINVAL, "stencil description '%s': unexpected '%s'", text, p);
        char *q = strchr(p + 1, ':');
        size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);
        if (len == 4 && !strncmp(p + 1, "zero", 4)) *b = GK_BOUNDARY_ZERO;
        else if (len == 8 && !strncmp(p + 1, "periodic", 8)) *b = GK_BOUNDARY_PERIODIC;
        else if (len == 5 && !strncmp(p + 1, "fixed", 5)) *b = GK_BOUNDARY_FIXED;
        else if (len == 3 && !strncmp(p + 1, "f32", 3)) *t = GK_DTYPE_FLOAT32;
        else if (len == 3 && !strncmp(p + 1, "f64", 3)) *t = GK_DTYPE_FLOAT64;
        else return gk__fail(GK_EINVAL, "stencil description '%s': unknown suffix '%.*s'", text, (int)len, p + 1);
        p += len + 1;
    }
    return GK_OK;
}

/* The naive reference: `steps` steps of spec s on a dense grid (x fastest,
 * the spec's element type), the contract's chain over s's point list, in
 * place (one scratch copy).  Private until F's gk__stencil_cpu_spec_plain
 * is merged.  GK_ENOMEM when the scratch grid cannot be had. */
static inline gk_status gk__sg_reference(const gk__stencil_spec *s, void *grid, int64_t nx, int64_t ny, int64_t nz,
                                         int64_t steps)
{
    int f32 = s->dtype == GK_DTYPE_FLOAT32, r = s->radius, d3 = s->dims == 3;
    size_t es = f32 ? 4 : 8, n = (size_t)nx * (size_t)ny * (size_t)nz;
    char *tmp = malloc(n * es);
    if (!tmp)
        return gk__fail(GK_ENOMEM, "out of host memory for the stencil reference");
    for (int64_t st = 0; st < steps; st++) {
        const char *in = grid;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
        for (int64_t z = 0; z < nz; z++)
            for (int64_t y = 0; y < ny; y++)
                for (int64_t x = 0; x < nx; x++) {
                    int64_t at = (z * ny + y) * nx + x;
                    int band = x < r || x >= nx - r || y < r || y >= ny - r || (d3 && (z < r || z >= nz - r));
                    if (s->boundary == GK_BOUNDARY_FIXED && band) {
                        memcpy(tmp + (size_t)at * es, in + (size_t)at * es, es);
                        continue;
                    }
                    double td = 0;
                    float tf = 0;
                    for (int i = 0; i < s->npoints; i++) {
                        int64_t X = x + s->dx[i], Y = y + s->dy[i], Z = z + (d3 ? s->dz[i] : 0);
                        double vd = 0;
                        float vf = 0;
                        if (s->boundary == GK_BOUNDARY_PERIODIC) {
                            X = (X % nx + nx) % nx; Y = (Y % ny + ny) % ny; Z = (Z % nz + nz) % nz;
                        }
                        if (X >= 0 && X < nx && Y >= 0 && Y < ny && Z >= 0 && Z < nz) {
                            size_t j = (size_t)((Z * ny + Y) * nx + X);
                            if (f32) vf = ((const float *)in)[j]; else vd = ((const double *)in)[j];
                        }
                        if (f32) tf = i ? fmaf((float)s->w[i], vf, tf) : (float)s->w[i] * vf;
                        else td = i ? fma(s->w[i], vd, td) : s->w[i] * vd;
                    }
                    if (f32) ((float *)tmp)[at] = tf; else ((double *)tmp)[at] = td;
                }
        memcpy(grid, tmp, n * es);
    }
    free(tmp);
    return GK_OK;
}

#endif /* GK_STENCIL_GEN_SPEC_H */
