/* graph_api.c - gk_graph (gk/sssp.h): a graph file or the caller's CSR
 * arrays into gk's compact CSR (core/graph.c). */
#include "core/graph.h"
#include "core/checked.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

gk_status gk__graph_read_flags(const char *path, gk_format format, int flags, int64_t vertices, gk_dtype dtype,
                               gk_graph **out)
{
    if (!out) return gk__fail(GK_EINVAL, "gk_graph_read: out is NULL");
    *out = NULL;
    if (!path) return gk__fail(GK_EINVAL, "gk_graph_read: path is NULL");
    if (dtype != 0 && !gk_dtype_size(dtype))
        return gk__fail(GK_EINVAL, "gk_graph_read: dtype = %d is not a gk_dtype (0: auto)", (int)dtype);
    if (vertices < 0 || vertices >= INT32_MAX)
        return gk__fail(GK_EINVAL, "gk_graph_read: vertices = %lld is outside [0, 2^31 - 1)", (long long)vertices);
    gk_status st;
    if (format == GK_FORMAT_AUTO && gk__format_for_output(path, GK_FORMAT_NTHU) == GK_FORMAT_NPY)
        format = GK_FORMAT_NPY;          /* by the name: refused below, saying what is read */
    if (format == GK_FORMAT_AUTO && (st = gk_format_detect(path, &format)))
        return st;
    if (format == GK_FORMAT_NPY)
        return gk__fail(GK_EINVAL, "%s: a .npy file is a dense matrix, not a graph file: shortest paths from "
                        "chosen sources read nthu, gr, mtx or edges (--format names one)", path);
    gk_edges e;
    const int rflags = flags & GK__READ_ONE_BASED;      /* undirected: the CSR adds the reverses */
    if (format == GK_FORMAT_NTHU)       /* int32, non-negative: the course's format */
        st = gk__edges_read_flags(path, format, rflags, (int32_t)vertices, &e);
    else
        st = gk__edges_read_typed(path, format, rflags, (int32_t)vertices, dtype, &e);
    if (st) return st;
    if (e.V < 1) {
        gk__edges_free(&e);
        return gk__fail(GK_EFORMAT, "%s: the graph has no vertices", path);
    }
    st = gk__graph_from_edges(&e, (flags & GK__READ_UNDIRECTED) != 0, dtype, out);
    gk__edges_free(&e);
    return st;
}

gk_status gk_graph_read(const char *path, gk_format format, int undirected, int64_t vertices, gk_dtype dtype,
                        gk_graph **out)
{
    gk__clear_error();
    return gk__graph_read_flags(path, format, undirected ? GK__READ_UNDIRECTED : 0, vertices, dtype, out);
}

/* Weight k of the caller's array as a double, refusing what gk cannot
 * hold (NaN, +-inf, int32 weights outside GK_APSP_MAX_WEIGHT's range). */
static gk_status csr_weight(const void *w, gk_dtype t, int64_t k, double *out)
{
    double x;
    switch (t) {
    case GK_DTYPE_INT32: x = ((const int32_t *)w)[k]; break;
    case GK_DTYPE_INT64: {
        int64_t v = ((const int64_t *)w)[k];
        if (v > (INT64_C(1) << 53) || v < -(INT64_C(1) << 53))
            return gk__fail(GK_EINVAL, "gk_graph_from_csr: weights[%lld] = %lld is outside +-2^53", (long long)k,
                            (long long)v);
        x = (double)v;
        break;
    }
    case GK_DTYPE_FLOAT32: x = ((const float *)w)[k]; break;
    default: x = ((const double *)w)[k]; break;
    }
    if (!isfinite(x))
        return gk__fail(GK_EINVAL, "gk_graph_from_csr: weights[%lld] = %g: weights must be finite", (long long)k, x);
    if (t == GK_DTYPE_INT32 && (x > GK_APSP_MAX_WEIGHT || x < -GK_APSP_MAX_WEIGHT))
        return gk__fail(GK_EINVAL, "gk_graph_from_csr: weights[%lld] = %.0f is outside [-%d, %d]", (long long)k, x,
                        GK_APSP_MAX_WEIGHT, GK_APSP_MAX_WEIGHT);
    *out = x;
    return GK_OK;
}

gk_status gk_graph_from_csr(int64_t V, const int64_t *indptr, const int32_t *indices, const void *weights,
                            gk_dtype dtype, int undirected, gk_graph **out)
{
    gk__clear_error();
    if (!out) return gk__fail(GK_EINVAL, "gk_graph_from_csr: out is NULL");
    *out = NULL;
    if (V < 1 || V >= INT32_MAX)
        return gk__fail(GK_EINVAL, "gk_graph_from_csr: V = %lld is outside [1, 2^31 - 1)", (long long)V);
    if (!indptr) return gk__fail(GK_EINVAL, "gk_graph_from_csr: indptr is NULL");
    if (dtype == 0) dtype = GK_DTYPE_INT32;
    if (!gk_dtype_size(dtype))
        return gk__fail(GK_EINVAL, "gk_graph_from_csr: dtype = %d is not a gk_dtype", (int)dtype);
    if (indptr[0] != 0)
        return gk__fail(GK_EINVAL, "gk_graph_from_csr: indptr[0] = %lld, not 0", (long long)indptr[0]);
    for (int64_t v = 0; v < V; v++)
        if (indptr[v + 1] < indptr[v])
            return gk__fail(GK_EINVAL, "gk_graph_from_csr: indptr[%lld] = %lld < indptr[%lld] = %lld: not "
                            "non-decreasing", (long long)(v + 1), (long long)indptr[v + 1], (long long)v,
                            (long long)indptr[v]);
    const int64_t E = indptr[V];
    if (E > 0 && !indices) return gk__fail(GK_EINVAL, "gk_graph_from_csr: indices is NULL");
    uint64_t bytes;
    if (gk__mul_u64((uint64_t)E, 3 * sizeof(int32_t) + sizeof(double), &bytes) || bytes > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "gk_graph_from_csr: E = %lld edges: too many for this machine", (long long)E);
    int32_t *src = malloc(E ? (size_t)E * sizeof *src : 1);
    double *wd = malloc(E ? (size_t)E * sizeof *wd : 1);
    if (!src || !wd) {
        free(src);
        free(wd);
        return gk__fail(GK_ENOMEM, "gk_graph_from_csr: cannot allocate %llu bytes for %lld edges",
                        (unsigned long long)bytes, (long long)E);
    }
    gk_status st = GK_OK;
    double max_abs = 0;
    int neg = 0;
    for (int64_t v = 0; v < V && !st; v++)
        for (int64_t k = indptr[v]; k < indptr[v + 1]; k++) {
            if (indices[k] < 0 || indices[k] >= V) {
                st = gk__fail(GK_EINVAL, "gk_graph_from_csr: indices[%lld] = %ld (row %lld) is outside [0, %lld)",
                              (long long)k, (long)indices[k], (long long)v, (long long)V);
                break;
            }
            src[k] = (int32_t)v;
            if (!weights) {
                wd[k] = 1;
            } else if ((st = csr_weight(weights, dtype, k, &wd[k]))) {
                break;
            }
            if (indices[k] != v) {
                if (fabs(wd[k]) > max_abs) max_abs = fabs(wd[k]);
                if (wd[k] < 0) neg = 1;
            }
        }
    if (!st && (dtype == GK_DTYPE_INT32 || dtype == GK_DTYPE_INT64))
        st = gk__apsp_int_type("gk_graph_from_csr", V, max_abs, neg, dtype, &dtype);
    if (!st)
        st = gk__graph_build((int32_t)V, E, src, indices, NULL, wd, undirected, dtype, out);
    free(src);
    free(wd);
    return st;
}

void gk_graph_destroy(gk_graph *g)
{
    gk__graph_free(g);
}

void gk_graph_info(const gk_graph *g, int64_t *V, int64_t *E, gk_dtype *dtype, int *negative)
{
    if (V) *V = g ? g->V : 0;
    if (E) *E = g ? g->E : 0;
    if (dtype) *dtype = g ? g->dtype : 0;
    if (negative) *negative = g ? g->negative : 0;
}
