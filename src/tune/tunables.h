/* tunables.h - each tunable kernel's registry entry (CUDA builds): its
 * space, source, size classes and worker-side measure/validate. */
#ifndef GK_TUNABLES_H
#define GK_TUNABLES_H

#include "gpu/gpu.h"
#include "tune/tune.h"


gk_status gk__vadd_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med, double *min);
gk_status gk__vadd_validate(const gk_config *cfg, uint64_t seed);
gk_status gk__vadd_verify(int64_t size, const gk_config *cfg, uint64_t seed);
#define GK_TUNABLE_VADD { "vadd", &gk__space_vadd, &gk__image_vadd, "vadd", 1, { 1 << 24 }, "floats", 1, \
                          gk__vadd_measure, gk__vadd_validate, gk__vadd_verify }

gk_status gk__apsp_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med, double *min);
gk_status gk__apsp_tune_validate(const gk_config *cfg, uint64_t seed);
gk_status gk__apsp_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed);
#define GK_TUNABLE_apsp { "apsp", &gk__space_apsp, &gk__image_apsp, "apsp", 2, { 4096, 16384 }, "vertices", 0, \
                          gk__apsp_tune_measure, gk__apsp_tune_validate, gk__apsp_tune_verify }

gk_status gk__stencil_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med, double *min);
gk_status gk__stencil_tune_validate(const gk_config *cfg, uint64_t seed);
gk_status gk__stencil_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed);
#define GK_TUNABLE_stencil { "stencil", &gk__space_stencil, &gk__image_stencil, "stencil", 2, { 256, 512 }, \
                             "points per axis", 0, gk__stencil_tune_measure, gk__stencil_tune_validate, \
                             gk__stencil_tune_verify }

gk_status gk__elementwise_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med,
                                       double *min);
gk_status gk__elementwise_tune_validate(const gk_config *cfg, uint64_t seed);
gk_status gk__elementwise_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed);
#define GK_TUNABLE_elementwise { "elementwise", &gk__space_elementwise, &gk__image_elementwise, "elementwise", 1, \
                                 { 8192 }, "columns = rows", 0, gk__elementwise_tune_measure, \
                                 gk__elementwise_tune_validate, gk__elementwise_tune_verify }

gk_status gk__gemm_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med, double *min);
gk_status gk__gemm_tune_validate(const gk_config *cfg, uint64_t seed);
gk_status gk__gemm_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed);
#define GK_TUNABLE_gemm { "gemm", &gk__space_gemm, &gk__image_gemm, "gemm", 2, { 4096, 8192 }, \
                          "M = N = K", 0, gk__gemm_tune_measure, gk__gemm_tune_validate, \
                          gk__gemm_tune_verify }

#endif /* GK_TUNABLES_H */
