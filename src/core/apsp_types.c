/* apsp_types.c - the element types of APSP distance matrices (see
 * apsp_types.h). */
#include "core/apsp_types.h"

#include <math.h>

int64_t gk__apsp_inf_i64(gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return GK_APSP_INF;
    case GK_DTYPE_INT64: return GK_APSP_INF64;
    default: return 0;
    }
}

int gk__apsp_dtype_ok(gk_dtype t)
{
    return t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64 || t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64;
}

const char *gk__apsp_dtype_suffix(gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return "i32";
    case GK_DTYPE_INT64: return "i64";
    case GK_DTYPE_FLOAT32: return "f32";
    case GK_DTYPE_FLOAT64: return "f64";
    default: return NULL;
    }
}

/* One loop per type, written once: NOEDGE(x) says whether x means "no
 * edge". */
#define PRED_INIT(ET, NOEDGE)                                                         \
    do {                                                                              \
        const ET *d = dist;                                                           \
        _Pragma("omp parallel for schedule(static)")                                  \
        for (int64_t i = 0; i < V; i++)                                               \
            for (int64_t j = 0; j < V; j++) {                                         \
                ET x = d[i * ld + j];                                                 \
                pred[i * pld + j] = i != j && !(NOEDGE) ? (int32_t)i : GK_APSP_NO_PRED; \
            }                                                                         \
    } while (0)

void gk__apsp_pred_init(const void *dist, int64_t V, int64_t ld, gk_dtype t, int32_t *pred, int64_t pld)
{
    switch (t) {
    case GK_DTYPE_INT32: PRED_INIT(int32_t, x == GK_APSP_INF); break;
    case GK_DTYPE_INT64: PRED_INIT(int64_t, x == GK_APSP_INF64); break;
    case GK_DTYPE_FLOAT32: PRED_INIT(float, isinf(x) && x > 0); break;
    case GK_DTYPE_FLOAT64: PRED_INIT(double, isinf(x) && x > 0); break;
    }
}

#define ANY_NEGATIVE(ET)                                                              \
    do {                                                                              \
        const ET *d = dist;                                                           \
        _Pragma("omp parallel for schedule(static) reduction(| : neg)")               \
        for (int64_t i = 0; i < V; i++)                                               \
            for (int64_t j = 0; j < V; j++)                                           \
                neg |= d[i * ld + j] < 0;                                             \
    } while (0)

int gk__apsp_has_negative(const void *dist, int64_t V, int64_t ld, gk_dtype t)
{
    int neg = 0;
    switch (t) {
    case GK_DTYPE_INT32: ANY_NEGATIVE(int32_t); break;
    case GK_DTYPE_INT64: ANY_NEGATIVE(int64_t); break;
    case GK_DTYPE_FLOAT32: ANY_NEGATIVE(float); break;
    case GK_DTYPE_FLOAT64: ANY_NEGATIVE(double); break;
    }
    return neg;
}
