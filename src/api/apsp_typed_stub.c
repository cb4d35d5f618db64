/* apsp_typed_stub.c - TEMPORARY: stand-ins for the typed backends of
 * CONTRACT-24 (A: core/apsp_types, cpu; B: gpu) until their branches are
 * merged.  The CPU ones are a plain k-i-j loop with the contract's
 * semantics (so the front door can be tested); the GPU ones fail.  This
 * file and its Makefile line are one commit: drop it when A and B merge. */
#include "api/apsp_typed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int64_t gk__apsp_inf_i64(gk_dtype t)
{
    return t == GK_DTYPE_INT32 ? GK_APSP_INF : t == GK_DTYPE_INT64 ? GK_APSP_INF64 : 0;
}

int gk__apsp_dtype_ok(gk_dtype t)
{
    return t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64 || t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64;
}

static double at(const void *d, int64_t k, gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)d)[k];
    case GK_DTYPE_INT64: return (double)((const int64_t *)d)[k];
    case GK_DTYPE_FLOAT32: return ((const float *)d)[k];
    default: return ((const double *)d)[k];
    }
}

static int is_inf(const void *d, int64_t k, gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)d)[k] >= GK_APSP_INF;
    case GK_DTYPE_INT64: return ((const int64_t *)d)[k] >= GK_APSP_INF64;
    default: return isinf(at(d, k, t));
    }
}

void gk__apsp_pred_init(const void *dist, int64_t V, int64_t ld, gk_dtype t, int32_t *pred, int64_t pld)
{
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++)
            pred[i * pld + j] = i != j && !is_inf(dist, i * ld + j, t) ? (int32_t)i : GK_APSP_NO_PRED;
}

int gk__apsp_has_negative(const void *dist, int64_t V, int64_t ld, gk_dtype t)
{
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++)
            if (at(dist, i * ld + j, t) < 0)
                return 1;
    return 0;
}

/* One type's k-i-j loop: INF operands skipped (integers), the contract's
 * clamp at the end, the smallest vertex with a negative diagonal after
 * round k. */
#define PLAIN(T, INFV)                                                                                   \
    static gk_status plain_##T(T *d, int64_t V, int32_t *pred, int64_t *cycle)                        \
    {                                                                                                  \
        const T inf = (INFV);                                                                          \
        const int neg = gk__apsp_has_negative(d, V, V, (gk_dtype)tcode_##T);                                     \
        const T lim = neg ? inf / 2 : inf;                                                             \
        for (int64_t k = 0; k < V; k++) {                                                              \
            for (int64_t i = 0; i < V; i++) {                                                          \
                T a = d[i * V + k];                                                                    \
                if (a >= lim && inf != 0) continue;                                                    \
                for (int64_t j = 0; j < V; j++) {                                                      \
                    T b = d[k * V + j];                                                                \
                    if (b >= lim && inf != 0) continue;                                                \
                    T s = a + b;                                                               \
                    if (s < d[i * V + j]) {                                                            \
                        d[i * V + j] = s;                                                              \
                        if (pred) pred[i * V + j] = pred[k * V + j];                                   \
                    }                                                                                  \
                }                                                                                      \
            }                                                                                          \
            for (int64_t i = 0; i < V; i++)                                                            \
                if (d[i * V + i] < 0) {                                                                \
                    if (cycle) *cycle = i;                                                             \
                    return gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)i); \
                }                                                                                      \
        }                                                                                              \
        if (inf != 0 && neg)                                                                           \
            for (int64_t q = 0; q < V * V; q++)                                                        \
                if (d[q] > inf / 2) d[q] = inf;                                                        \
        return GK_OK;                                                                                  \
    }
enum { tcode_int32_t = GK_DTYPE_INT32, tcode_int64_t = GK_DTYPE_INT64, tcode_float = GK_DTYPE_FLOAT32,
       tcode_double = GK_DTYPE_FLOAT64 };
PLAIN(int32_t, GK_APSP_INF)
PLAIN(int64_t, GK_APSP_INF64)
PLAIN(float, 0)
PLAIN(double, 0)

gk_status gk__apsp_cpu_plain(void *dist, int32_t V, gk_dtype t, int32_t *pred, int64_t *cycle)
{
    if (cycle) *cycle = -1;
    switch (t) {
    case GK_DTYPE_INT32: return plain_int32_t(dist, V, pred, cycle);
    case GK_DTYPE_INT64: return plain_int64_t(dist, V, pred, cycle);
    case GK_DTYPE_FLOAT32: return plain_float(dist, V, pred, cycle);
    case GK_DTYPE_FLOAT64: return plain_double(dist, V, pred, cycle);
    }
    return gk__fail(GK_EINVAL, "gk__apsp_cpu_plain: type %d", (int)t);
}

gk_status gk__apsp_cpu_run(void *dist, int32_t V, gk_dtype t, int32_t *pred, gk_cpu_isa isa, int64_t *cycle)
{
    if (t == GK_DTYPE_INT32 && !pred && !gk__apsp_has_negative(dist, V, V, t)) {
        if (cycle) *cycle = -1;
        return gk__apsp_cpu(dist, V, isa);
    }
    return gk__apsp_cpu_plain(dist, V, t, pred, cycle);
}

#ifdef GK_HAVE_CUDA
#define NOT_MERGED gk__fail(GK_EINTERNAL, "%s: the typed GPU backend is not merged yet", __func__)
gk_status gk__apsp_gpu_open_typed(gk_apsp_gpu **ctx, const gk_device_info *dev, cudaStream_t stream, int32_t V,
                                  gk_dtype t, int with_pred, const gk_config *cfg)
{
    (void)ctx; (void)dev; (void)stream; (void)V; (void)t; (void)with_pred; (void)cfg;
    return NOT_MERGED;
}
gk_status gk__apsp_gpu_upload_typed(gk_apsp_gpu *ctx, const void *dist, float *ms)
{
    (void)ctx; (void)dist; (void)ms;
    return NOT_MERGED;
}
gk_status gk__apsp_gpu_run_typed(gk_apsp_gpu *ctx, float *ms)
{
    (void)ctx; (void)ms;
    return NOT_MERGED;
}
gk_status gk__apsp_gpu_cycle(gk_apsp_gpu *ctx, int64_t *cycle)
{
    (void)ctx; (void)cycle;
    return NOT_MERGED;
}
gk_status gk__apsp_gpu_download_typed(gk_apsp_gpu *ctx, void *dist, int32_t *pred, float *ms)
{
    (void)ctx; (void)dist; (void)pred; (void)ms;
    return NOT_MERGED;
}
gk_status gk__apsp_gpu_exec_device_typed(gk_apsp_gpu *ctx, void *dist, int64_t ld, int32_t *pred, int64_t pld)
{
    (void)ctx; (void)dist; (void)ld; (void)pred; (void)pld;
    return NOT_MERGED;
}
gk_status gk__apsp_gpu_ceiling_typed(gk_apsp_gpu *ctx, gk_dtype t, double *per_s)
{
    (void)ctx; (void)t; (void)per_s;
    return NOT_MERGED;
}
#endif
