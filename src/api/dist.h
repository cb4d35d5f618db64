/* dist.h - the distributed front doors' inside calls (apsp_dist.c,
 * stencil_dist.c), behind the public gk_apsp_run_file and
 * gk_stencil_run_file (dist_api.c: the caller's structs checked and
 * unpacked).  The reports are whole (this libgk's size). */
#ifndef GK_API_DIST_H
#define GK_API_DIST_H

#include "api/context.h"
#include "core/stencil_spec.h"

gk_status gk__apsp_run_file_cfg(gk_context *ctx, const char *input, const char *output, const char *config,
                                gk_exchange exchange, gk_apsp_dist_report *report);
gk_status gk__stencil_run_file_cfg(gk_context *ctx, const char *input, uint64_t seed, const char *output,
                                   int64_t nx, int64_t ny, int64_t nz, const double coeffs[GK_STENCIL_NCOEFFS],
                                   int64_t steps, const char *config, gk_exchange exchange,
                                   gk_stencil_dist_report *report);
/* The same for a stencil description (2D: slabs of rows, nz = 1), its
 * element type: the description's engine on each slab (stencil_dist.c). */
gk_status gk__stencil_run_file_desc(gk_context *ctx, const gk__stencil_spec *spec, const char *input, uint64_t seed,
                                    const char *output, int64_t nx, int64_t ny, int64_t nz, int64_t steps,
                                    gk_exchange exchange, gk_stencil_dist_report *report);

/* dist_common.c: the checks of a run past one process (one GPU per rank;
 * standard input or output not shared by ranks; NULL: not used) and the
 * report's device line ("GPU 0, GPU 1; 2 ranks"), ranks and GPUs. */
gk_status gk__dist_check(const gk_context *ctx, const char *input, const char *output);
void gk__dist_report_init(gk_context *ctx, gk_report *run, int *ranks, int *gpus);

#endif /* GK_API_DIST_H */
