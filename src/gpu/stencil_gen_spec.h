/* stencil_gen_spec.h - what the generated engine, its tuner, bench and
 * tests add to the stencil description (src/core/stencil_spec.h): a
 * builder from parts, the description text with an element type, and the
 * naive reference loop the tuner and the bench check against (the CPU
 * backend's gk__stencil_cpu_spec_plain replaces it once merged).
 *
 * Header-only and plain C: gpu, tune, api, cli and tests include it. */
#ifndef GK_STENCIL_GEN_SPEC_H
#define GK_STENCIL_GEN_SPEC_H

#include "core/internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stencil_spec.h"

/* The shape key (F's gk__stencil_spec_shape_key). */
static inline void gk__sg_shape_key(const gk__stencil_spec *s, char *buf, size_t n)
{
    gk__stencil_spec_shape_key(s, buf, n);
}

/* A spec from its parts, through gk__stencil_spec_make (its rules and
 * messages): weights NULL: the description's default weights. */
static inline gk_status gk__sg_spec_build(int dims, gk_stencil_shape shape, int r, gk_boundary b, gk_dtype t,
                                          const double *weights, gk__stencil_spec *s)
{
    gk_stencil_desc d;
    gk_stencil_desc_init(&d);
    d.dims = dims;
    d.shape = shape;
    d.radius = r;
    d.boundary = b;
    d.weights = weights;
    return gk__stencil_spec_make(&d, t, s);
}

/* "3d-star-r2[:zero|:periodic|:fixed][:f32|:f64]": gk_stencil_desc_parse's
 * text plus the element type (f64 when absent), in any order after the
 * shape.  GK_EINVAL naming text. */
static inline gk_status gk__sg_desc_parse(const char *text, int *dims, gk_stencil_shape *shape, int *r,
                                          gk_boundary *b, gk_dtype *t)
{
    char rest[128] = "";
    *dims = *r = 0;
    *shape = GK_STENCIL_BOX;
    *b = GK_BOUNDARY_ZERO;
    *t = GK_DTYPE_FLOAT64;
    if (strlen(text) >= 64)
        return gk__fail(GK_EINVAL, "stencil description '%.64s...': too long", text);
    /* the description without its type suffixes */
    const char *p = text;
    size_t n = strcspn(p, ":");
    memcpy(rest, p, n);
    rest[n] = '\0';
    int typed = 0;
    for (p += n; *p == ':';) {
        n = strcspn(p + 1, ":");
        int f32 = n == 3 && !strncmp(p + 1, "f32", 3), f64 = n == 3 && !strncmp(p + 1, "f64", 3);
        if (n == 0)
            return gk__fail(GK_EINVAL, "stencil description '%s': an empty field (want DIMSd-SHAPE-rR[:BOUNDARY][:f32|f64])",
                            text);
        if ((f32 || f64) && typed++)
            return gk__fail(GK_EINVAL, "stencil description '%s': two element types (give one of :f32, :f64)", text);
        if (f32) *t = GK_DTYPE_FLOAT32;
        else if (f64) *t = GK_DTYPE_FLOAT64;
        else strncat(rest, p, n + 1);     /* < 64 + 64 bytes */
        p += n + 1;
    }
    gk_stencil_desc d;
    gk_stencil_desc_init(&d);
    if (gk_stencil_desc_parse(rest, &d)) {
        char why[256];
        snprintf(why, sizeof why, "%s", gk_last_error());
        return gk__fail(GK_EINVAL, "%s (an element type may follow: :f32 or :f64)", why);
    }
    *dims = d.dims;
    *shape = d.shape;
    *r = d.radius;
    *b = d.boundary;
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
