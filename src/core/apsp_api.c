/* apsp_api.c - the public graph and matrix file calls (gk/apsp.h): their
 * int64 sizes checked against what the formats hold (V < 2^31) and handed
 * to the readers and writers of apsp_formats.c. */
#include "core/apsp_formats.h"

static gk_status vertices_in(const char *what, int64_t v)
{
    if (v < 0 || v > INT32_MAX)
        return gk__fail(GK_EINVAL, "%s: %lld vertices (want 0 to 2^31 - 1)", what, (long long)v);
    return GK_OK;
}

gk_status gk_apsp_read_format(const char *path, gk_format format, int undirected, int64_t vertices,
                              int32_t **dist, int64_t *V, int64_t *E, int32_t *max_w)
{
    int32_t v = 0;
    gk_status st;
    if (!path || !dist || !V)
        return gk__fail(GK_EINVAL, "gk_apsp_read_format: %s is NULL", !path ? "path" : !dist ? "dist" : "V");
    *dist = NULL;
    if ((st = vertices_in(path, vertices)))
        return st;
    st = gk__apsp_read_format32(path, format, undirected, (int32_t)vertices, dist, &v, E, max_w);
    *V = st ? 0 : v;
    return st;
}

gk_status gk_apsp_write_format(const char *path, gk_format format, const int32_t *dist, int64_t V)
{
    gk_status st;
    if (!path || !dist)
        return gk__fail(GK_EINVAL, "gk_apsp_write_format: %s is NULL", !path ? "path" : "dist");
    if ((st = vertices_in(path, V)))
        return st;
    if (V < 1)
        return gk__fail(GK_EINVAL, "%s: V = 0 (want at least 1)", path);
    return gk__apsp_write_format32(path, format, dist, (int32_t)V);
}

gk_status gk_graph_convert(const char *in, gk_format in_format, const char *out, gk_format out_format,
                           int undirected, int64_t vertices, int64_t *V, int64_t *E, int64_t *max_id)
{
    int32_t v = 0, m = -1;
    gk_status st;
    if (!in || !out)
        return gk__fail(GK_EINVAL, "gk_graph_convert: %s is NULL", !in ? "in" : "out");
    if ((st = vertices_in(in, vertices)))
        return st;
    st = gk__graph_convert32(in, in_format, out, out_format, undirected, (int32_t)vertices, &v, E, &m);
    if (V) *V = v;
    if (max_id) *max_id = m;
    return st;
}

gk_status gk_apsp_generate(const char *path, gk_format format, int64_t V, int64_t E, uint64_t seed, int32_t max_w,
                           int64_t *max_id)
{
    int32_t m = -1;
    gk_status st;
    if (!path)
        return gk__fail(GK_EINVAL, "gk_apsp_generate: path is NULL");
    if (V < 1 || V > INT32_MAX)
        return gk__fail(GK_EINVAL, "--vertices: %lld (want 1 to 2^31 - 1)", (long long)V);
    st = gk__apsp_generate32(path, format, (int32_t)V, E, seed, max_w, &m);
    if (max_id) *max_id = m;
    return st;
}
