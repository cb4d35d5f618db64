/* stencil_spec.h - a validated stencil description as every engine uses
 * it: the shape's points in evaluation order (ascending dz, dy, dx) with
 * their weights, already rounded to the element type.  The CPU backend
 * (src/cpu/stencil_cpu.h) and the generated GPU engine
 * (src/gpu/stencil_gen.h) both walk dx/dy/dz/w in this order with one fma
 * chain, so their results are bit-identical (gk/stencil.h). */
#ifndef GK_STENCIL_SPEC_H
#define GK_STENCIL_SPEC_H

#include "core/internal.h"
#include <gk/stencil.h>

#define GK_STENCIL_MAX_POINTS 729   /* (2*4+1)^3 */

typedef struct gk__stencil_spec {
    int dims, radius;
    gk_boundary boundary;
    gk_dtype dtype;                        /* FLOAT32 or FLOAT64 */
    int npoints;                           /* in evaluation order (gk/stencil.h) */
    int8_t dx[GK_STENCIL_MAX_POINTS], dy[GK_STENCIL_MAX_POINTS], dz[GK_STENCIL_MAX_POINTS];
    double w[GK_STENCIL_MAX_POINTS];       /* already rounded to float for FLOAT32 */
    char key[96];                          /* canonical text, e.g. "3d-star-r2-f64-periodic-<16 hex of a hash of w>" */
} gk__stencil_spec;

/* Validate d (dims, shape, radius, boundary, finite weights, a star's
 * off-axis weights 0, a mask with at least one point, weights that stay
 * finite as float for FLOAT32) and the type, and fill *s.  GK_EINVAL with a
 * one-line message naming what is wrong. */
gk_status gk__stencil_spec_make(const gk_stencil_desc *d, gk_dtype t, gk__stencil_spec *s);

/* 1 when s is the classic kernel's description: 3D box r = 1, float64, zero
 * boundary (any weights); its 27 weights (index (dz+1)*9+(dy+1)*3+(dx+1))
 * are s->w in order. */
int gk__stencil_spec_is_classic(const gk__stencil_spec *s);

/* The key without the weight hash ("3d-star-r2-f64-periodic"): what the
 * tuner keys its entries on (a shape tunes the same whatever its
 * coefficients).  buf of at least sizeof s->key. */
void gk__stencil_spec_shape_key(const gk__stencil_spec *s, char *buf, size_t size);

/* The periodic boundary's rule on the grid: every extent of the
 * description's dims >= 2r+1.  GK_EINVAL naming the extent otherwise. */
gk_status gk__stencil_spec_check_grid(const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz);

#endif /* GK_STENCIL_SPEC_H */
