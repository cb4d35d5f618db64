/* apsp_matrix_io.c - typed distance matrices (1.2): gk_apsp_read_matrix
 * (a graph in any format, or a dense .npy matrix, into a V x V matrix of
 * int32, int64, float32 or float64 by the contract's type rule) and
 * gk_apsp_write_matrix (raw little-endian or .npy in the matrix's type). */
#include "core/internal.h"
#include "core/apsp_formats.h"
#include "core/checked.h"
#include "core/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


/* The bytes of a V x V matrix of t, checked in 64 bits against one object
 * and this machine's memory, then allocated. */
static gk_status alloc_typed(const char *name, int64_t V, gk_dtype t, void **out)
{
    uint64_t bytes;
    *out = NULL;
    if (V < 1 || V > INT32_MAX || gk__mul_u64((uint64_t)V, (uint64_t)V, &bytes)
        || gk__mul_u64(bytes, gk_dtype_size(t), &bytes) || bytes > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "%s: V = %lld: no V x V %s matrix of that size", name, (long long)V,
                        gk_dtype_name(t));
    double phys = (double)gk__phys_mem_bytes();
    char need[32], have[32];
    gk__human_bytes((double)bytes, need, sizeof need);
    if (phys > 0 && (double)bytes > phys)
        return gk__fail(GK_ENOMEM, "%s: V = %lld needs %s for the distance matrix (V x V %s), more than this "
                        "machine's %s of memory", name, (long long)V, need, gk_dtype_name(t),
                        gk__human_bytes(phys, have, sizeof have));
    if (!(*out = malloc((size_t)bytes)))
        return gk__fail(GK_ENOMEM, "%s: V = %lld needs %s for the distance matrix (V x V %s): cannot allocate it",
                        name, (long long)V, need, gk_dtype_name(t));
    return GK_OK;
}

/* Element k of a typed matrix as a double, and a double stored into it. */
static double get(const void *d, int64_t k, gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)d)[k];
    case GK_DTYPE_INT64: return (double)((const int64_t *)d)[k];
    case GK_DTYPE_FLOAT32: return ((const float *)d)[k];
    default: return ((const double *)d)[k];
    }
}

static void put(void *d, int64_t k, gk_dtype t, double v)
{
    switch (t) {
    case GK_DTYPE_INT32: ((int32_t *)d)[k] = (int32_t)v; break;
    case GK_DTYPE_INT64:   /* (double)GK_APSP_INF64 rounds to 2^62: "none" stored exactly */
        ((int64_t *)d)[k] = v >= (double)GK_APSP_INF64 ? GK_APSP_INF64 : (int64_t)v;
        break;
    case GK_DTYPE_FLOAT32: ((float *)d)[k] = (float)v; break;
    default: ((double *)d)[k] = v; break;
    }
}

/* "No edge" of t as a double (+inf for the floats). */
static double none(gk_dtype t)
{
    return t == GK_DTYPE_INT32 ? GK_APSP_INF : t == GK_DTYPE_INT64 ? (double)GK_APSP_INF64 : INFINITY;
}

/* The auto rule (and the int64 bound) for integral weights: int32 when
 * (V-1) * max|w| < INF (INF/2 with a negative weight) and every weight fits
 * int32's, else int64 when (V-1) * max|w| < INF64/2, else refused. */
gk_status gk__apsp_int_type(const char *name, int64_t V, double max_abs, int neg, gk_dtype want, gk_dtype *t)
{
    const double n1 = V > 1 ? (double)(V - 1) : 0;
    /* max_abs is an integer <= 2^53: these products are exact enough to
       decide strictly below a bound of 2^29 or 2^61 */
    int fits32 = max_abs <= GK_APSP_MAX_WEIGHT && n1 * max_abs < (neg ? GK_APSP_INF / 2 : GK_APSP_INF);
    int fits64 = n1 * max_abs < (double)(GK_APSP_INF64 / 2);
    if (want == GK_DTYPE_INT32) {
        if (neg && !fits32)
            return gk__fail(GK_EINVAL, "%s: --weights=int32 with negative weights needs (V - 1) * max|w| < 2^29: "
                            "V = %lld, max|w| = %.17g (use int64)", name, (long long)V, max_abs);
        *t = want;
        return GK_OK;
    }
    if (want == 0 && fits32) {
        *t = GK_DTYPE_INT32;
        return GK_OK;
    }
    if (!fits64)
        return gk__fail(GK_EINVAL, "%s: int64 distances need (V - 1) * max|w| < 2^61: V = %lld, max|w| = %.17g",
                        name, (long long)V, max_abs);
    *t = GK_DTYPE_INT64;
    return GK_OK;
}

/* ---- a graph in a text format ---- */

static gk_status read_text(const char *path, gk_format format, int flags, int64_t vertices, gk_dtype *dtype,
                           void **dist, int64_t *Vout, int64_t *Eout)
{
    const int undirected = (flags & GK__READ_UNDIRECTED) != 0;
    gk_edges g;
    gk_status st;
    void *d = NULL;
    gk_dtype t = *dtype;
    if ((st = gk__edges_read_typed(path, format, flags, (int32_t)vertices, *dtype, &g)))
        return st;
    const char *name = strcmp(path, "-") ? path : "standard input";
    const int64_t V = g.V;
    if (t == 0)
        t = g.all_integral ? 0 : GK_DTYPE_FLOAT64;
    if ((t == 0 || t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64) && (st = gk__apsp_int_type(name, V, g.max_abs, g.neg, t, &t)))
        goto out;
    if ((st = alloc_typed(name, V, t, &d)))
        goto out;
    const double inf = none(t);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++)
            put(d, i * V + j, t, i == j ? 0 : inf);
    /* the smallest weight of each pair after rounding to t; self-loops
       ignored (the diagonal is 0) */
    for (int64_t e = 0; e < g.E; e++) {
        int64_t s = g.s[e], u = g.t[e];
        if (s == u) continue;
        for (int way = 0; way < 1 + (undirected != 0); way++) {
            int64_t k = way ? u * V + s : s * V + u;
            double before = get(d, k, t);
            put(d, k, t, g.wd[e]);
            if (get(d, k, t) > before) put(d, k, t, before);
        }
    }
    *dist = d;
    d = NULL;
    *dtype = t;
    *Vout = V;
    if (Eout) *Eout = g.E;
out:
    free(d);
    gk__edges_free(&g);
    return st;
}

/* ---- a dense .npy matrix ---- */

/* The header of a version 1.0/2.0 .npy file: its type and V (square, C order). */
static gk_status npy_read_header(gk_infile *in, gk_dtype *t, int64_t *V, uint64_t *data_off)
{
    unsigned char m[12];
    const char *name = in->name;
    gk_status st;
    if ((st = gk__read_exact(in->f, name, m, 10, "the .npy magic")))
        return st;
    if (memcmp(m, "\x93NUMPY", 6) || (m[6] != 1 && m[6] != 2))
        return gk__fail(GK_EFORMAT, "%s: not a .npy file of version 1 or 2 (no \\x93NUMPY magic)", name);
    uint64_t hl = (uint64_t)m[8] | (uint64_t)m[9] << 8, off = 10;
    if (m[6] == 2) {
        if ((st = gk__read_exact(in->f, name, m + 10, 2, "the .npy header length")))
            return st;
        hl |= (uint64_t)m[10] << 16 | (uint64_t)m[11] << 24;
        off = 12;
    }
    if (hl > 65536)
        return gk__fail(GK_EFORMAT, "%s: a .npy header of %llu bytes (at most 65536)", name, (unsigned long long)hl);
    char *h = malloc(hl + 1);
    if (!h)
        return gk__fail(GK_ENOMEM, "%s: cannot allocate the .npy header", name);
    if ((st = gk__read_exact(in->f, name, h, hl, "the .npy header"))) {
        free(h);
        return st;
    }
    h[hl] = '\0';
    *t = 0;
    static const gk_dtype types[] = { GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 };
    const char *dp = strstr(h, "'descr':");
    for (int k = 0; dp && k < 4; k++) {
        char want[16];
        snprintf(want, sizeof want, "'%s'", gk__npy_descr(types[k]));
        const char *v = dp + 8;
        while (*v == ' ') v++;
        if (!strncmp(v, want, strlen(want))) *t = types[k];
    }
    const char *fo = strstr(h, "'fortran_order':"), *sp = strstr(h, "'shape':");
    long long a = -1, b = -1;
    int ok = *t && fo && sp && sscanf(sp + 8, " (%lld, %lld)", &a, &b) == 2;
    if (ok && fo) {
        const char *v = fo + 16;
        while (*v == ' ') v++;
        ok = !strncmp(v, "False", 5);
    }
    free(h);
    if (!*t)
        return gk__fail(GK_EFORMAT, "%s: a .npy matrix of another type: want '<i4', '<i8', '<f4' or '<f8'", name);
    if (!ok)
        return gk__fail(GK_EFORMAT, "%s: want a square 2-D .npy matrix in C order (shape (V, V), fortran_order "
                        "False)", name);
    if (a != b || a < 1 || a > INT32_MAX)
        return gk__fail(GK_EFORMAT, "%s: a .npy matrix of shape (%lld, %lld): want a square V x V, V in [1, 2^31 - 1]",
                        name, a, b);
    *V = a;
    *data_off = off + hl;
    return GK_OK;
}

/* Entry k of the file's matrix (type ft) checked: no NaN, no -inf, an
 * integer type's entries in [-INF, INF]; *v its value, -0.0 as +0.0. */
static gk_status npy_entry(const char *name, const void *d, int64_t k, int64_t V, gk_dtype ft, double *v)
{
    double x = get(d, k, ft);
    const char *bad = NULL;
    if (isnan(x)) bad = "is NaN";
    else if (isinf(x) && x < 0) bad = "is -inf (+inf is the only infinity: no edge)";
    else if (ft == GK_DTYPE_INT32 && (x > GK_APSP_INF || x < -GK_APSP_INF)) bad = "is outside [-2^30 + 1, 2^30 - 1]";
    else if (ft == GK_DTYPE_INT64) {
        int64_t y = ((const int64_t *)d)[k];
        if (y > GK_APSP_INF64 || y < -GK_APSP_INF64) bad = "is outside [-2^62 + 1, 2^62 - 1]";
    }
    if (bad)
        return gk__fail(GK_EFORMAT, "%s: entry (%lld, %lld) %s", name, (long long)(k / V), (long long)(k % V), bad);
    *v = x == 0 ? 0 : x;
    return GK_OK;
}

static gk_status read_npy(const char *path, gk_dtype *dtype, void **dist, int64_t *Vout, int64_t *Eout)
{
    gk_infile in;
    gk_status st = gk__in_open(&in, path);
    if (st) return st;
    const char *name = in.name;
    gk_dtype ft = 0, t = *dtype;
    int64_t V = 0;
    uint64_t off = 0, bytes = 0;
    void *fd = NULL, *d = NULL;
    if ((st = npy_read_header(&in, &ft, &V, &off)))
        goto out;
    if (gk__mul_u64((uint64_t)V, (uint64_t)V, &bytes) || gk__mul_u64(bytes, gk_dtype_size(ft), &bytes)) {
        st = gk__fail(GK_EFORMAT, "%s: V = %lld: too large", name, (long long)V);
        goto out;
    }
    if (in.size >= 0 && (uint64_t)in.size != off + bytes) {
        st = gk__fail(GK_EFORMAT, "%s: file size %lld is not the header's %llu + V * V * %zu = %llu bytes", name,
                      (long long)in.size, (unsigned long long)off, gk_dtype_size(ft),
                      (unsigned long long)(off + bytes));
        goto out;
    }
    if ((st = alloc_typed(name, V, ft, &fd)) || (st = gk__read_exact(in.f, name, fd, (size_t)bytes, "the matrix"))
        || (st = gk__in_expect_end(&in, "the V x V matrix")))
        goto out;
    const int64_t nn = V * V;
    /* the file's facts: every finite entry integral (<= 2^53), negatives, max|entry| */
    double max_abs = 0;
    int neg = 0, integral = 1;
    int64_t E = 0;
    for (int64_t k = 0; k < nn; k++) {
        double v = 0;
        if ((st = npy_entry(name, fd, k, V, ft, &v)))
            goto out;
        if (v >= none(ft)) continue;
        if (k / V != k % V) E++;
        if (v < 0) neg = 1;
        if (fabs(v) > max_abs) max_abs = fabs(v);
        if (v != floor(v) || fabs(v) > 9007199254740992.0) integral = 0;
    }
    if (t == 0)
        t = ft;                                 /* auto: the file's own type */
    if ((t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64) && !integral) {
        st = gk__fail(GK_EFORMAT, "%s: a %s matrix with non-integral entries cannot be read as %s", name,
                      gk_dtype_name(ft), gk_dtype_name(t));
        goto out;
    }
    if ((t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64) && (st = gk__apsp_int_type(name, V, max_abs, neg, t, &t)))
        goto out;
    if (t == GK_DTYPE_INT32 && max_abs > GK_APSP_INF) {
        st = gk__fail(GK_EFORMAT, "%s: entries up to %.17g do not fit int32 distances", name, max_abs);
        goto out;
    }
    if (t == ft) {
        d = fd;
        fd = NULL;
        /* -0.0 -> +0.0 in place */
        if (t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64)
            for (int64_t k = 0; k < nn; k++)
                if (get(d, k, t) == 0) put(d, k, t, 0);
    } else {
        if ((st = alloc_typed(name, V, t, &d)))
            goto out;
        for (int64_t k = 0; k < nn; k++) {
            double v = get(fd, k, ft);
            if (t == GK_DTYPE_FLOAT32 && isfinite(v) && isinf((float)v)) {
                st = gk__fail(GK_EFORMAT, "%s: entry (%lld, %lld) = %.17g is outside float32's range", name,
                              (long long)(k / V), (long long)(k % V), v);
                goto out;
            }
            put(d, k, t, v >= none(ft) ? none(t) : v == 0 ? 0 : v);
        }
    }
    *dist = d;
    d = NULL;
    *dtype = t;
    *Vout = V;
    if (Eout) *Eout = E;
out:
    free(fd);
    free(d);
    gk__in_close(&in);
    return st;
}

/* ---- NTHU: int32 and non-negative, widened on request ---- */

static gk_status read_nthu(const char *path, int undirected, int64_t vertices, gk_dtype *dtype, void **dist,
                           int64_t *Vout, int64_t *Eout)
{
    int32_t *d32 = NULL, V = 0;
    gk_status st = gk__apsp_read_format32(path, GK_FORMAT_NTHU, undirected, (int32_t)vertices, &d32, &V, Eout, NULL);
    if (st) return st;
    gk_dtype t = *dtype ? *dtype : GK_DTYPE_INT32;   /* the format's type */
    if (t == GK_DTYPE_INT32) {
        *dist = d32;
    } else {
        void *d = NULL;
        if ((st = alloc_typed(strcmp(path, "-") ? path : "standard input", V, t, &d))) {
            free(d32);
            return st;
        }
        const int64_t nn = (int64_t)V * V;
        for (int64_t k = 0; k < nn; k++)
            put(d, k, t, d32[k] >= GK_APSP_INF ? none(t) : d32[k]);
        free(d32);
        *dist = d;
    }
    *dtype = t;
    *Vout = V;
    return GK_OK;
}

/* A .npy file by its name or its magic (format detection takes .npy for a
 * distance matrix, not an input). */
static int is_npy(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && !strcasecmp(path + n - 4, ".npy"))
        return 1;
    if (!strcmp(path, "-"))
        return 0;
    char m[6] = { 0 };
    FILE *f = fopen(path, "rb");
    int yes = f && fread(m, 1, 6, f) == 6 && !memcmp(m, "\x93NUMPY", 6);
    if (f) fclose(f);
    return yes;
}

gk_status gk_apsp_read_matrix(const char *path, gk_format format, int undirected, int64_t vertices, gk_dtype *dtype,
                              void **dist, int64_t *V, int64_t *E)
{
    return gk__apsp_read_matrix_flags(path, format, undirected ? GK__READ_UNDIRECTED : 0, vertices, dtype, dist, V, E);
}

gk_status gk__apsp_read_matrix_flags(const char *path, gk_format format, int flags, int64_t vertices,
                                     gk_dtype *dtype, void **dist, int64_t *V, int64_t *E)
{
    gk_status st;
    const int undirected = (flags & GK__READ_UNDIRECTED) != 0;
    if (!path || !dtype || !dist || !V)
        return gk__fail(GK_EINVAL, "gk_apsp_read_matrix: %s is NULL", !path ? "path" : !dtype ? "dtype" : !dist ? "dist" : "V");
    *dist = NULL;
    *V = 0;
    if (*dtype != 0 && !gk_dtype_name(*dtype))
        return gk__fail(GK_EINVAL, "gk_apsp_read_matrix: *dtype = %d is not a gk_dtype (0: auto)", (int)*dtype);
    if (vertices < 0 || vertices > INT32_MAX)
        return gk__fail(GK_EINVAL, "%s: %lld vertices (want 0 to 2^31 - 1)", path, (long long)vertices);
    if (format == GK_FORMAT_AUTO && is_npy(path))
        format = GK_FORMAT_NPY;
    if (format == GK_FORMAT_AUTO && (st = gk_format_detect(path, &format)))
        return st;
    if ((flags & GK__READ_ONE_BASED) && format != GK_FORMAT_EDGES)
        return gk__fail(GK_EINVAL, "%s: --one-based applies to edge lists; a %s file has its own numbering", path,
                        gk_format_name(format));
    if (format == GK_FORMAT_NPY) {
        if (vertices || undirected)
            return gk__fail(GK_EINVAL, "%s: a .npy matrix gives its own vertex count and direction (no --vertices, "
                            "no --undirected)", path);
        return read_npy(path, dtype, dist, V, E);
    }
    if (format == GK_FORMAT_NTHU)
        return read_nthu(path, undirected, vertices, dtype, dist, V, E);
    return read_text(path, format, flags, vertices, dtype, dist, V, E);
}

/* ---- writing ---- */

gk_status gk_apsp_write_matrix(const char *path, gk_format format, gk_dtype dtype, const void *dist, int64_t V)
{
    gk_status st;
    uint64_t bytes;
    if (!path || !dist)
        return gk__fail(GK_EINVAL, "gk_apsp_write_matrix: %s is NULL", !path ? "path" : "dist");
    if (!gk__npy_descr(dtype))
        return gk__fail(GK_EINVAL, "%s: dtype %d is not a gk_dtype", path, (int)dtype);
    if (V < 1 || V > INT32_MAX || gk__mul_u64((uint64_t)V, (uint64_t)V, &bytes)
        || gk__mul_u64(bytes, gk_dtype_size(dtype), &bytes) || bytes > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "%s: V = %lld (want 1 to 2^31 - 1, the matrix within one object)", path,
                        (long long)V);
    if (format == GK_FORMAT_AUTO)
        format = gk__format_for_output(path, GK_FORMAT_NTHU) == GK_FORMAT_NPY ? GK_FORMAT_NPY : GK_FORMAT_NTHU;
    if (format != GK_FORMAT_NTHU && format != GK_FORMAT_NPY)
        return gk__fail(GK_EINVAL, "%s: a distance matrix is written raw (nthu) or as npy, not %s", path,
                        gk_format_name(format));
    gk_outfile o;
    if ((st = gk__out_open(&o, path)))
        return st;
    if (format == GK_FORMAT_NPY) {
        char h[160];
        st = gk__out_write(&o, h, (size_t)gk__npy_matrix_header(h, sizeof h, dtype, V));
    }
    if (!st)
        st = gk__out_write(&o, dist, (size_t)bytes);
    return gk__out_close(&o, st);
}
