/* apsp_types.h - what every APSP backend needs to know about the element
 * types of the distance matrix (int32, int64, float32, float64): "no edge"
 * per type, the predecessor matrix's start, the scan for negative weights,
 * and the tile edge of the ordered paths.  Core layer: used by the CPU and
 * GPU host code, the front door and the tests. */
#ifndef GK_APSP_TYPES_H
#define GK_APSP_TYPES_H

#include "core/internal.h"

/* Also in gk/apsp.h from release 1.2 (the same tokens: whichever comes
 * second is a harmless identical redefinition, and the guards keep a build
 * against an older gk/apsp.h working). */
#ifndef GK_APSP_INF64
#define GK_APSP_INF64 INT64_C(4611686018427387903)   /* 2^62 - 1: "no edge" of int64 */
#endif
#ifndef GK_APSP_NO_PRED
#define GK_APSP_NO_PRED (-1)                          /* a predecessor entry: none */
#endif

/* The tile edge of every "ordered" path (float distances, predecessors of
 * any type) on every backend: the phases of blocked Floyd-Warshall take the
 * minimum of a fixed set of candidates per output, so the same tile gives
 * the same bits on the CPU and the GPU. */
#define GK_APSP_ORDER_TILE 64

/* "No edge" as int64 for the integer types (GK_APSP_INF, GK_APSP_INF64);
 * 0 for the float types (theirs is +infinity) and anything else. */
int64_t gk__apsp_inf_i64(gk_dtype t);

/* 1 for the four element types of APSP, else 0. */
int gk__apsp_dtype_ok(gk_dtype t);

/* The suffix of apsp.cu's typed kernels (gk_apspx_<what>_<suffix>): i32,
 * i64, f32, f64; NULL for another type. */
const char *gk__apsp_dtype_suffix(gk_dtype t);

/* The predecessor matrix's start: pred[i][j] = i where i != j and dist[i][j]
 * is not "no edge" of type t, else GK_APSP_NO_PRED.  dist and pred are
 * V x V with leading dimensions ld and pld (elements). */
void gk__apsp_pred_init(const void *dist, int64_t V, int64_t ld, gk_dtype t, int32_t *pred, int64_t pld);

/* 1 if an entry of the V x V matrix (leading dimension ld) of type t is
 * below 0 (-0.0 is not), else 0. */
int gk__apsp_has_negative(const void *dist, int64_t V, int64_t ld, gk_dtype t);

#endif /* GK_APSP_TYPES_H */
