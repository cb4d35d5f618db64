/* apsp_path.c - gk_apsp_path: a shortest path's vertices read back from a
 * predecessor matrix (gk/apsp.h). */
#include "core/internal.h"

gk_status gk_apsp_path(const int32_t *pred, int64_t ld, int64_t V, int64_t from, int64_t to, int64_t *path,
                       int64_t *len)
{
    if (len)
        *len = 0;
    if (!pred || !path || !len)
        return gk__fail(GK_EINVAL, "gk_apsp_path: %s is NULL", !pred ? "pred" : !path ? "path" : "len");
    if (V < 1 || ld < V || ld > INT64_MAX / V)
        return gk__fail(GK_EINVAL, "gk_apsp_path: V = %lld, ld = %lld (want V >= 1, ld >= V)", (long long)V,
                        (long long)ld);
    if (from < 0 || from >= V)
        return gk__fail(GK_EINVAL, "gk_apsp_path: from = %lld is outside [0, %lld)", (long long)from, (long long)V);
    if (to < 0 || to >= V)
        return gk__fail(GK_EINVAL, "gk_apsp_path: to = %lld is outside [0, %lld)", (long long)to, (long long)V);
    const int32_t *row = pred + from * ld;
    if (from == to) {
        path[0] = from;
        *len = 1;
        return GK_OK;
    }
    if (row[to] == GK_APSP_NO_PRED)
        return GK_OK;                     /* unreachable */
    /* walk back from `to`, filling path from its end; a path has at most V
       vertices, so a longer walk is a cycle in the matrix */
    int64_t n = 0, v = to;
    path[V - 1 - n++] = v;
    while (v != from) {
        int32_t p = row[v];
        if (p < 0 || p >= V)
            return gk__fail(GK_EINVAL, "gk_apsp_path: broken predecessor matrix: pred[%lld][%lld] = %d is not a "
                            "vertex in [0, %lld)", (long long)from, (long long)v, p, (long long)V);
        if (n == V)
            return gk__fail(GK_EINVAL, "gk_apsp_path: broken predecessor matrix: the predecessors of %lld from %lld "
                            "go round a cycle", (long long)to, (long long)from);
        v = p;
        path[V - 1 - n++] = v;
    }
    for (int64_t k = 0; k < n; k++)
        path[k] = path[V - n + k];
    *len = n;
    return GK_OK;
}
