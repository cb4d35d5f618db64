/* gk/stencil.h - the 27-point fp64 3D stencil with a zero halo.
 *
 * A grid is NX*NY*NZ doubles, x fastest (index x + NX*(y + NY*z)); the halo
 * (one layer around the box) is 0 at every step.  One step:
 *     out(x,y,z) = sum over dz,dy,dx in {-1,0,1} of c[(dz+1)*9+(dy+1)*3+(dx+1)] * in(x+dx,y+dy,z+dz)
 * evaluated, on every backend, in one fixed order: t = c[0]*v[0], then
 * t = fma(c[i], v[i], t) for i = 1..26.  The CPU and GPU therefore compute the
 * same bits; the comparison tolerance (gk_stencil_tolerance) only leaves room
 * for a platform that breaks that contract.
 */
#ifndef GK_STENCIL_H
#define GK_STENCIL_H

#include <gk/common.h>
#include <gk/config.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GK_STENCIL_NCOEFFS 27
#define GK_STENCIL_FLOPS_PER_POINT 53   /* 27 multiplies + 26 adds */

/* The CPC/PKU benchmark's coefficients, index (dz+1)*9 + (dy+1)*3 + (dx+1). */
extern const double gk_stencil_default_coeffs[GK_STENCIL_NCOEFFS];

/* Read a coefficient file: exactly 27 finite numbers in text, separated by
 * white space or commas, same index order.  Fails (GK_EFORMAT) naming the
 * file on anything else. */
gk_status gk_stencil_coeffs_read(const char *path, double c[GK_STENCIL_NCOEFFS]);

/* Validate a problem: every size >= 1, steps >= 0, the point count fits. */
gk_status gk_stencil_check_size(int64_t nx, int64_t ny, int64_t nz, int64_t steps);

/* Bytes of host memory the CPU solver allocates for a grid (two padded
 * buffers) and of device memory the GPU solver needs. */
uint64_t gk_stencil_cpu_bytes(int nx, int ny, int nz);
uint64_t gk_stencil_gpu_bytes(int nx, int ny, int nz);


/* Raw grid files: exactly nx*ny*nz*8 bytes of little-endian float64. */
gk_status gk_grid_read(const char *path, int nx, int ny, int nz, double *grid);
/* Atomic: the file appears only when complete. */
gk_status gk_grid_write(const char *path, int nx, int ny, int nz, const double *grid);

/* A reproducible random grid, uniform in [-1, 1): element i is a function of
 * (seed, i) only, so any thread count gives the same grid. */
void gk_grid_random(double *grid, int nx, int ny, int nz, uint64_t seed);

/* steps sweeps of the stencil over grid (interior, x fastest), in place, on
 * the CPU (OpenMP threads, SIMD, cache-blocked). */
gk_status gk_stencil_cpu(double *grid, int nx, int ny, int nz,
                         const double c[GK_STENCIL_NCOEFFS], int steps);

/* The same by a plain loop (one thread per z plane, no blocking): the
 * reference `gk stencil --check` compares the CPU backend against. */
gk_status gk_stencil_cpu_reference(double *grid, int nx, int ny, int nz,
                                   const double c[GK_STENCIL_NCOEFFS], int steps);

/* Times of a GPU solve in milliseconds (CUDA events). */
typedef struct gk_stencil_gpu_times {
    float upload_ms, run_ms, download_ms;
} gk_stencil_gpu_times;

/* steps sweeps on the GPU with kernel configuration cfg (NULL = built-in
 * defaults; names of the "stencil" space).  GK_ENODEV without a usable GPU,
 * GK_ENOMEM (with the amount) when the grid does not fit in device memory. */
gk_status gk_stencil_gpu_solve(double *grid, int nx, int ny, int nz,
                               const double c[GK_STENCIL_NCOEFFS], int steps,
                               const gk_config *cfg, gk_stencil_gpu_times *times);

/* Comparison of a result with its reference. */
typedef struct gk_stencil_diff {
    double max_abs;      /* max |a - ref| */
    double max_rel;      /* max |a - ref| / |ref| over |ref| > 0 (0 if none) */
    double scale;        /* max |ref|, floored at 1e-300 */
    double tolerance;    /* the allowed max_abs */
    int64_t nonfinite;   /* elements where a or ref is NaN/Inf */
} gk_stencil_diff;

/* The allowed max |a - ref| after `steps` sweeps of grids whose largest
 * magnitude is `scale` (max of the initial and final reference grids): 8 *
 * steps * 2^-52 * scale, i.e. 8 units in the last place per step.  See
 * README ("Stencil accuracy") for why that is generous for two evaluations
 * of the same FMA chain and tight against any real bug (a missing or wrong
 * term moves a result by about 1e-2 of the scale). */
double gk_stencil_tolerance(int steps, double scale);

/* Compare a with ref (n elements); *d filled; GK_EMISMATCH (message with
 * the first offending index) when max_abs > tolerance or non-finite values
 * appear.  init_scale: max |initial grid|. */
gk_status gk_stencil_compare(const double *a, const double *ref, int64_t n, int steps,
                             double init_scale, gk_stencil_diff *d);

/* max |grid[i]| (0 for n == 0). */
double gk_grid_max_abs(const double *grid, int64_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_STENCIL_H */
