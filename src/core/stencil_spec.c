/* stencil_spec.c - a stencil description validated and expanded into the
 * points every engine evaluates (core/stencil_spec.h), its text form and
 * its defaults. */
#include "core/stencil_spec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void gk_stencil_desc_init(gk_stencil_desc *d)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    d->dims = 3;
    d->shape = GK_STENCIL_BOX;
    d->radius = 1;
    d->boundary = GK_BOUNDARY_ZERO;
    d->weights = NULL;
}

static const char *shape_name(gk_stencil_shape s)
{
    return s == GK_STENCIL_BOX ? "box" : s == GK_STENCIL_STAR ? "star" : s == GK_STENCIL_MASK ? "mask" : NULL;
}

static const char *boundary_name(gk_boundary b)
{
    return b == GK_BOUNDARY_ZERO ? "zero" : b == GK_BOUNDARY_PERIODIC ? "periodic"
         : b == GK_BOUNDARY_FIXED ? "fixed" : NULL;
}

/* The fields of d that do not depend on the weights. */
static gk_status check_desc(const gk_stencil_desc *d, gk_stencil_desc *local)
{
    gk_stencil_desc_init(local);
    gk_status st = GK__STRUCT_IN(*local, d, "gk_stencil_desc");
    if (st) return st;
    if (local->dims != 2 && local->dims != 3)
        return gk__fail(GK_EINVAL, "stencil description: dims %d (want 2 or 3)", local->dims);
    if (!shape_name(local->shape))
        return gk__fail(GK_EINVAL, "stencil description: shape %d (want box, star or mask)", (int)local->shape);
    if (local->radius < 1 || local->radius > GK_STENCIL_MAX_RADIUS)
        return gk__fail(GK_EINVAL, "stencil description: radius %d (want 1 .. %d)", local->radius,
                        GK_STENCIL_MAX_RADIUS);
    if (!boundary_name(local->boundary))
        return gk__fail(GK_EINVAL, "stencil description: boundary %d (want zero, periodic or fixed)",
                        (int)local->boundary);
    return GK_OK;
}

/* FNV-1a over the points' offsets and weights (bytes of the doubles). */
static uint64_t hash_points(const gk__stencil_spec *s)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < s->npoints; i++) {
        unsigned char b[3 + sizeof(double)];
        b[0] = (unsigned char)s->dx[i];
        b[1] = (unsigned char)s->dy[i];
        b[2] = (unsigned char)s->dz[i];
        memcpy(b + 3, &s->w[i], sizeof(double));
        for (size_t k = 0; k < sizeof b; k++) {
            h ^= b[k];
            h *= 1099511628211ull;
        }
    }
    return h;
}

gk_status gk__stencil_spec_make(const gk_stencil_desc *d, gk_dtype t, gk__stencil_spec *s)
{
    gk_stencil_desc c;
    if (!d || !s) return gk__fail(GK_EINVAL, "stencil description: NULL argument");
    gk_status st = check_desc(d, &c);
    if (st) return st;
    if (t != GK_DTYPE_FLOAT32 && t != GK_DTYPE_FLOAT64)
        return gk__fail(GK_EINVAL, "stencil: element type %s (want float32 or float64)", gk_dtype_name(t));
    if (c.shape == GK_STENCIL_MASK && !c.weights)
        return gk__fail(GK_EINVAL, "stencil description: a mask needs weights (its points are the nonzero ones)");
    const int r = c.radius, w1 = 2 * r + 1, zr = c.dims == 3 ? r : 0;
    const int total = w1 * w1 * (c.dims == 3 ? w1 : 1);
    /* Check every weight first: a star's off-axis ones must be 0. */
    if (c.weights)
        for (int i = 0; i < total; i++) {
            const int dx = i % w1 - r, dy = i / w1 % w1 - r, dz = c.dims == 3 ? i / (w1 * w1) - r : 0;
            const double w = c.weights[i];
            if (!isfinite(w))
                return gk__fail(GK_EINVAL, "stencil weights: weight %d (dx %d, dy %d, dz %d) is not finite", i, dx,
                                dy, dz);
            if (t == GK_DTYPE_FLOAT32 && !isfinite((float)w))
                return gk__fail(GK_EINVAL, "stencil weights: weight %d (%g) overflows float32", i, w);
            const int on_axis = (dx != 0) + (dy != 0) + (dz != 0) <= 1;
            if (c.shape == GK_STENCIL_STAR && !on_axis && w != 0)
                return gk__fail(GK_EINVAL, "stencil weights: weight %d (dx %d, dy %d, dz %d) is %g, off the "
                                "star's axes (must be 0; use shape box or mask)", i, dx, dy, dz, w);
        }
    memset(s, 0, sizeof *s);
    s->dims = c.dims;
    s->radius = r;
    s->boundary = c.boundary;
    s->dtype = t;
    const int star_points = 2 * c.dims * r + 1, box_points = total;
    const int classic_default = !c.weights && c.dims == 3 && c.shape == GK_STENCIL_BOX && r == 1;
    int n = 0;
    for (int dz = -zr; dz <= zr; dz++)
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) {
                const int i = ((dz + zr) * w1 + (dy + r)) * w1 + (dx + r);
                const int on_axis = (dx != 0) + (dy != 0) + (dz != 0) <= 1;
                double w;
                if (c.shape == GK_STENCIL_STAR && !on_axis) continue;
                if (c.weights) w = c.weights[i];
                else if (classic_default) w = gk_stencil_default_coeffs[i];
                else w = 1.0 / (c.shape == GK_STENCIL_STAR ? star_points : box_points);
                if (c.shape == GK_STENCIL_MASK && w == 0) continue;
                if (t == GK_DTYPE_FLOAT32) w = (double)(float)w;
                s->dx[n] = (int8_t)dx;
                s->dy[n] = (int8_t)dy;
                s->dz[n] = (int8_t)dz;
                s->w[n] = w;
                n++;
            }
    if (n == 0)
        return gk__fail(GK_EINVAL, "stencil description: the mask has no nonzero weight");
    s->npoints = n;
    char shape_key[48];
    gk__stencil_spec_shape_key(s, shape_key, sizeof shape_key);
    /* a mask's shape is its points: the hash tells masks apart too */
    snprintf(s->key, sizeof s->key, "%s-%016llx", shape_key, (unsigned long long)hash_points(s));
    return GK_OK;
}

void gk__stencil_spec_shape_key(const gk__stencil_spec *s, char *buf, size_t size)
{
    /* a box keeps all its points; a star has exactly the axis points; any
       other point set (masks) is named "mask" */
    const int w1 = 2 * s->radius + 1;
    const int box = s->npoints == w1 * w1 * (s->dims == 3 ? w1 : 1);
    int star = s->npoints == 2 * s->dims * s->radius + 1;
    for (int i = 0; star && i < s->npoints; i++)
        star = (s->dx[i] != 0) + (s->dy[i] != 0) + (s->dz[i] != 0) <= 1;
    snprintf(buf, size, "%dd-%s-r%d-%s-%s", s->dims, box ? "box" : star ? "star" : "mask", s->radius,
             s->dtype == GK_DTYPE_FLOAT32 ? "f32" : "f64", boundary_name(s->boundary));
}

int gk__stencil_spec_is_classic(const gk__stencil_spec *s)
{
    return s->dims == 3 && s->radius == 1 && s->npoints == 27 && s->dtype == GK_DTYPE_FLOAT64 &&
           s->boundary == GK_BOUNDARY_ZERO;
}

gk_status gk__stencil_spec_check_grid(const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz)
{
    if (s->dims == 2 && nz != 1) {
        char name[48];
        gk__stencil_spec_shape_key(s, name, sizeof name);
        return gk__fail(GK_EINVAL, "stencil %s: a 2D grid has nz = 1 (got %lld)", name, (long long)nz);
    }
    if (s->boundary == GK_BOUNDARY_PERIODIC) {
        const int64_t need = 2 * s->radius + 1;
        const int64_t ext[3] = { nx, ny, nz };
        const char *name[3] = { "nx", "ny", "nz" };
        for (int a = 0; a < s->dims; a++)
            if (ext[a] < need)
                return gk__fail(GK_EINVAL, "stencil periodic boundary: %s = %lld is below 2r+1 = %lld (radius %d)",
                                name[a], (long long)ext[a], (long long)need, s->radius);
    }
    return GK_OK;
}

/* ---- text form ------------------------------------------------------- */

gk_status gk_stencil_desc_parse(const char *text, gk_stencil_desc *d)
{
    if (!text || !d) return gk__fail(GK_EINVAL, "stencil description: NULL argument");
    int dims = 0, radius = 0, used = 0;
    char shape[8] = "", bnd[16] = "zero";
    const char *colon = strchr(text, ':');
    size_t head = colon ? (size_t)(colon - text) : strlen(text);
    char buf[64];
    if (head >= sizeof buf) goto bad;
    memcpy(buf, text, head);
    buf[head] = 0;
    if (sscanf(buf, "%1dd-%7[a-z]-r%d%n", &dims, shape, &radius, &used) != 3 || buf[used] != 0) goto bad;
    if (colon) {
        if (strlen(colon + 1) >= sizeof bnd) goto bad;
        strcpy(bnd, colon + 1);
    }
    gk_stencil_shape sh;
    if (!strcmp(shape, "box")) sh = GK_STENCIL_BOX;
    else if (!strcmp(shape, "star")) sh = GK_STENCIL_STAR;
    else if (!strcmp(shape, "mask")) sh = GK_STENCIL_MASK;
    else goto bad;
    gk_boundary b;
    if (!strcmp(bnd, "zero")) b = GK_BOUNDARY_ZERO;
    else if (!strcmp(bnd, "periodic")) b = GK_BOUNDARY_PERIODIC;
    else if (!strcmp(bnd, "fixed")) b = GK_BOUNDARY_FIXED;
    else
        return gk__fail(GK_EINVAL, "stencil description '%s': boundary '%s' (want zero, periodic or fixed)", text,
                        bnd);
    if (dims != 2 && dims != 3)
        return gk__fail(GK_EINVAL, "stencil description '%s': %d dimensions (want 2d or 3d)", text, dims);
    if (radius < 1 || radius > GK_STENCIL_MAX_RADIUS)
        return gk__fail(GK_EINVAL, "stencil description '%s': radius %d (want r1 .. r%d)", text, radius,
                        GK_STENCIL_MAX_RADIUS);
    if (d->struct_size < sizeof *d)
        return gk__fail(GK_EINVAL, "gk_stencil_desc: struct_size %zu (initialise it with gk_stencil_desc_init)",
                        d->struct_size);
    d->dims = dims;
    d->shape = sh;
    d->radius = radius;
    d->boundary = b;
    return GK_OK;
bad:
    return gk__fail(GK_EINVAL, "stencil description '%s': want DIMSd-SHAPE-rRADIUS[:BOUNDARY], e.g. "
                    "3d-star-r2:periodic (shape box, star or mask)", text);
}

gk_status gk_stencil_desc_format(const gk_stencil_desc *d, char *buf, size_t size)
{
    gk_stencil_desc c;
    if (!d || !buf) return gk__fail(GK_EINVAL, "stencil description: NULL argument");
    gk_status st = check_desc(d, &c);
    if (st) return st;
    int n = snprintf(buf, size, "%dd-%s-r%d%s%s", c.dims, shape_name(c.shape), c.radius,
                     c.boundary == GK_BOUNDARY_ZERO ? "" : ":", c.boundary == GK_BOUNDARY_ZERO ? "" :
                     boundary_name(c.boundary));
    if (n < 0 || (size_t)n >= size)
        return gk__fail(GK_EINVAL, "stencil description: a buffer of %zu bytes is too small", size);
    return GK_OK;
}
