/* stencil_gpu.h - the GPU stencil: its tuning space and a context that keeps
 * a grid on the device between calls (what gk and gktune drive).  Built only
 * with CUDA. */
#ifndef GK_STENCIL_GPU_H
#define GK_STENCIL_GPU_H

#include "gpu/gpu.h"

/* The kernel's tunable parameters and constraints: src/core/space_stencil.c
 * (DESIGN 0 tile, 1 2.5D z-streaming, 2 temporal blocking with TSTEPS steps
 * per pass; BX, BY, RY, ZC, UNROLL, MAXRREG, PREFETCH). */

typedef struct gk_stencil_gpu gk_stencil_gpu;

/* On device dev (already current: gk__gpu_enter) and stream: load the
 * module with cfg (NULL = defaults), allocate both padded buffers (zero
 * halo).  GK_ENOMEM naming the amount when the device lacks the memory. */
gk_status gk__stencil_gpu_open(gk_stencil_gpu **ctx, const gk_device_info *dev, cudaStream_t stream,
                               int nx, int ny, int nz, const double coeffs[27], const gk_config *cfg);
/* The stream later work is enqueued on (a plan follows its context's). */
void gk__stencil_gpu_set_stream(gk_stencil_gpu *ctx, cudaStream_t stream);
/* The interior between the current buffer and a grid in device memory
 * (pitch_y elements between rows, pitch_z between planes), enqueued on the
 * stream, not waited for; to_device resets the step count like upload. */
gk_status gk__stencil_gpu_copy_device(gk_stencil_gpu *ctx, double *grid, int64_t pitch_y, int64_t pitch_z,
                                      int to_device);
/* The interior, x fastest; resets the step count. */
gk_status gk__stencil_gpu_upload(gk_stencil_gpu *ctx, const double *grid, float *ms);
/* steps sweeps with the configured design, timed with CUDA events (DESIGN 2:
 * steps/TSTEPS passes of TSTEPS steps, then one of the remainder). */
gk_status gk__stencil_gpu_run(gk_stencil_gpu *ctx, int steps, float *ms);
/* The same with the naive baseline kernel (one point per thread, 27 loads). */
gk_status gk__stencil_gpu_run_naive(gk_stencil_gpu *ctx, int steps, float *ms);
/* fp64 FMAs per second of chains of independent FMAs (the arithmetic
 * ceiling; median of 5 timed launches after a warm-up). */
gk_status gk__stencil_gpu_fma_ceiling(gk_stencil_gpu *ctx, double *fma_per_s);
gk_status gk__stencil_gpu_download(gk_stencil_gpu *ctx, double *grid, float *ms);
/* Largest |value| in the halo of the current buffer (must stay 0). */
gk_status gk__stencil_gpu_halo_max(gk_stencil_gpu *ctx, double *max_abs);
/* The complete configuration in use. */
const gk_config *gk__stencil_gpu_config(const gk_stencil_gpu *ctx);
void gk__stencil_gpu_close(gk_stencil_gpu *ctx);

/* Slabs of a grid spread over several GPUs (src/gpu/stencil_multi.c): the
 * context holds a z range of the grid as its own nz planes, and the halo
 * planes its neighbours own are copied into its planes between passes.
 * enqueue: `steps` sweeps with the configured design on the context's
 * stream, not timed, not waited for (swaps buffers as the sweeps are
 * enqueued).  steps_per_pass: TSTEPS for DESIGN 2, else 1.  plane: the
 * padded plane z (-1..nz) of the current buffer on the device (planes are
 * contiguous, *plane_bytes apart; the x and y halo inside them are zero).
 * copy_planes: the interior of planes z..z+n-1 between the current buffer
 * and host (x fastest, nx*ny per plane), synchronous. */
gk_status gk__stencil_gpu_enqueue(gk_stencil_gpu *ctx, int steps);
int gk__stencil_gpu_steps_per_pass(const gk_stencil_gpu *ctx);
double *gk__stencil_gpu_plane(gk_stencil_gpu *ctx, int z, size_t *plane_bytes);
/* The current grid in gk's padded layout: its point (0,0,0) and the
 * elements between rows and between planes (the buffer a step reads next;
 * every step moves it to the other buffer). */
double *gk__stencil_gpu_grid(const gk_stencil_gpu *ctx, int64_t *pitch_y, int64_t *pitch_z);
gk_status gk__stencil_gpu_copy_planes(gk_stencil_gpu *ctx, int z, int n, double *host, int to_device);

#endif /* GK_STENCIL_GPU_H */
