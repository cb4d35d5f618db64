/* stencil_gen_tune.h - tuning the generated stencil engine
 * (src/tune/tunable_stencil_gen.c; CUDA builds). */
#ifndef GK_STENCIL_GEN_TUNE_H
#define GK_STENCIL_GEN_TUNE_H

#include "gpu/stencil_gen.h"

typedef struct gk__sg_tune_result {
    char shape[96];              /* "3d-star-r2-f64-fixed" */
    int64_t size;                /* points per axis */
    char best[160];              /* the winner's configuration */
    double best_ms, default_ms;  /* per step */
    int measured, failed, excluded, skipped;   /* skipped: past the budget */
    char last_failure[256];
    double seconds;
    char file[4200];             /* where it was kept ("" without a cache directory) */
} gk__sg_tune_result;

/* Tunes spec s at size^3 (2D: size^2) on dev (current) within about
 * budget_s seconds; keeps the winner in cache_dir (NULL: nowhere), and the
 * kernels it compiles in cache_dir's store (gk__stencil_gen_disk_store). */
gk_status gk__stencil_gen_tune(const gk_device_info *dev, const char *cache_dir, const gk__stencil_spec *s,
                               int64_t size, double budget_s, uint64_t seed, gk__sg_tune_result *res);
/* 1 and the tuned configuration for s nearest to size (log scale) when
 * cache_dir holds one for this device that can run here; else 0. */
int gk__stencil_gen_tuned(const gk_device_info *dev, const char *cache_dir, const gk__stencil_spec *s,
                          int64_t size, gk_config *cfg);
/* cfg (complete or partial) of s on an nx x ny x nz random grid: `steps`
 * steps on the GPU against the CPU reference, bit for bit; GK_EMISMATCH
 * naming how many points differ.  The kernels from and into store (may be
 * NULL).  why (may be NULL): "ok (bit-exact, ...)". */
gk_status gk__sg_validate(const gk_device_info *dev, const gk__stencil_spec *s, const gk_config *cfg,
                          int64_t nx, int64_t ny, int64_t nz, int steps, uint64_t seed,
                          const gk__sg_cubin_store *store, char *why, size_t n);
/* The steps a configuration is checked with (gk__sg_validate): 5, a pass
 * and a remainder for TSTEPS = 2..4; TSTEPS + 1 above (5 steps of T = 8
 * would be one pass of the 5-step kernel: the T-step one never run). */
int gk__sg_check_steps(const gk_config *cfg);
/* The odd-sized grid candidates are checked on, no larger than the grid. */
void gk__sg_check_grid(const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz, int64_t *cx, int64_t *cy,
                       int64_t *cz);


#endif /* GK_STENCIL_GEN_TUNE_H */
