/* test_apsp_types_gpu.h - the in-test reference of test_apsp_types_gpu.c:
 * the blocked Floyd-Warshall of the contract's section 1 written out
 * naively at tile 64 (phase 1 k-sequential with each step reading row and
 * column kk as they were before it; phase 2 from copies X0 / Y0; phase 3),
 * predecessors taken on strictly smaller candidates in ascending kk, the
 * integer types' phase-1 clamp at -INF and cleanup after negative weights
 * (entries > INF / 2: INF, their predecessor -1).
 * One definition per element type from one macro (REF_TYPE). */
#ifndef GK_TEST_APSP_TYPES_GPU_H
#define GK_TEST_APSP_TYPES_GPU_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RT 64
#define RINF32 INT32_C(1073741823)
#define RINF64 INT64_C(4611686018427387903)

static inline int32_t r_add_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int64_t r_add_i64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline float r_add_f32(float a, float b) { volatile float s = a + b; return s; }
static inline double r_add_f64(double a, double b) { volatile double s = a + b; return s; }
static inline int32_t r_clamp_i32(int32_t v) { return v > -RINF32 ? v : -RINF32; }
static inline int64_t r_clamp_i64(int64_t v) { return v > -RINF64 ? v : -RINF64; }
static inline float r_clamp_f32(float v) { return v; }
static inline double r_clamp_f64(double v) { return v; }

/* ref_fw_S(d, V, pred, &cycle): d V x V (ld V) in place; pred NULL or V x V
 * (initialised here); cycle: the smallest vertex with a negative diagonal
 * entry after phase 1 of the first round with one, -1: none. */
#define REF_TYPE(S, E, INF, ISINT) \
static void ref_fw_##S(E *dist, int64_t V, int32_t *pred, int64_t *cycle) \
{ \
    const int64_t nt = (V + RT - 1) / RT, np = nt * RT; \
    E *d = malloc((size_t)(np * np) * sizeof *d), *x0 = malloc(RT * RT * sizeof *x0); \
    int32_t *p = malloc((size_t)(np * np) * sizeof *p), *p0 = malloc(RT * RT * sizeof *p0); \
    E rowk[RT], colk[RT]; \
    int32_t prow[RT]; \
    int neg = 0; \
    *cycle = -1; \
    for (int64_t i = 0; i < np; i++) \
        for (int64_t j = 0; j < np; j++) { \
            E v = i < V && j < V ? dist[i * V + j] : INF; \
            d[i * np + j] = v; \
            neg |= v < 0; \
            p[i * np + j] = i < V && j < V && i != j && v != INF ? (int32_t)i : -1; \
        } \
    for (int64_t k = 0; k < nt; k++) { \
        const int64_t K = k * RT; \
        for (int64_t kk = K; kk < K + RT; kk++) { \
            for (int64_t t = 0; t < RT; t++) { \
                rowk[t] = d[kk * np + K + t]; prow[t] = p[kk * np + K + t]; colk[t] = d[(K + t) * np + kk]; \
            } \
            for (int64_t i = 0; i < RT; i++) \
                for (int64_t j = 0; j < RT; j++) { \
                    E v = r_clamp_##S(r_add_##S(colk[i], rowk[j])); \
                    if (v < d[(K + i) * np + K + j]) { d[(K + i) * np + K + j] = v; p[(K + i) * np + K + j] = prow[j]; } \
                } \
        } \
        for (int64_t i = K; i < K + RT && i < V; i++) \
            if (*cycle < 0 && d[i * np + i] < 0) *cycle = i; \
        for (int64_t x = 0; x < nt; x++) { \
            if (x == k) continue; \
            const int64_t X = x * RT; \
            /* row tile (k, x): P* (min,+) X0, pred0 of X0's row kk */ \
            for (int64_t i = 0; i < RT; i++) \
                for (int64_t j = 0; j < RT; j++) { x0[i * RT + j] = d[(K + i) * np + X + j]; p0[i * RT + j] = p[(K + i) * np + X + j]; } \
            for (int64_t i = 0; i < RT; i++) \
                for (int64_t j = 0; j < RT; j++) \
                    for (int64_t kk = 0; kk < RT; kk++) { \
                        E v = r_add_##S(d[(K + i) * np + K + kk], x0[kk * RT + j]); \
                        if (v < d[(K + i) * np + X + j]) { d[(K + i) * np + X + j] = v; p[(K + i) * np + X + j] = p0[kk * RT + j]; } \
                    } \
            /* column tile (x, k): Y0 (min,+) P*, pred of P*'s row kk */ \
            for (int64_t i = 0; i < RT; i++) \
                for (int64_t j = 0; j < RT; j++) x0[i * RT + j] = d[(X + i) * np + K + j]; \
            for (int64_t i = 0; i < RT; i++) \
                for (int64_t j = 0; j < RT; j++) \
                    for (int64_t kk = 0; kk < RT; kk++) { \
                        E v = r_add_##S(x0[i * RT + kk], d[(K + kk) * np + K + j]); \
                        if (v < d[(X + i) * np + K + j]) { d[(X + i) * np + K + j] = v; p[(X + i) * np + K + j] = p[(K + kk) * np + K + j]; } \
                    } \
        } \
        for (int64_t bi = 0; bi < nt; bi++) \
            for (int64_t bj = 0; bj < nt; bj++) { \
                if (bi == k || bj == k) continue; \
                for (int64_t i = bi * RT; i < bi * RT + RT; i++) \
                    for (int64_t j = bj * RT; j < bj * RT + RT; j++) \
                        for (int64_t kk = K; kk < K + RT; kk++) { \
                            E v = r_add_##S(d[i * np + kk], d[kk * np + j]); \
                            if (v < d[i * np + j]) { d[i * np + j] = v; p[i * np + j] = p[kk * np + j]; } \
                        } \
            } \
    } \
    for (int64_t i = 0; i < V; i++) \
        for (int64_t j = 0; j < V; j++) { \
            E v = d[i * np + j]; \
            int32_t pv = p[i * np + j]; \
            if (ISINT && neg && v > INF / 2) { v = INF; pv = -1; } \
            dist[i * V + j] = v; \
            if (pred) pred[i * V + j] = pv; \
        } \
    free(d); free(x0); free(p); free(p0); \
}
REF_TYPE(i32, int32_t, RINF32, 1)
REF_TYPE(i64, int64_t, RINF64, 1)
REF_TYPE(f32, float, (float)INFINITY, 0)
REF_TYPE(f64, double, (double)INFINITY, 0)

#endif /* GK_TEST_APSP_TYPES_GPU_H */
