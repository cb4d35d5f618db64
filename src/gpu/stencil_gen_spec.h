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

#include <stdint.h>
#include <stdio.h>
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
    snprintf(buf, n, "%s", s->key);
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

#endif /* GK_STENCIL_GEN_SPEC_H */
