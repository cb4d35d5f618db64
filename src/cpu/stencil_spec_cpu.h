/* stencil_spec_cpu.h - the CPU backend of every stencil description
 * (core/stencil_spec.h): OpenMP over tiles, SIMD over x, and its plain
 * reference loop.  Both evaluate each point by the description's one fma
 * chain, so they (and the generated GPU engine) compute the same bits. */
#ifndef GK_STENCIL_SPEC_CPU_H
#define GK_STENCIL_SPEC_CPU_H

#include "core/stencil_spec.h"

/* steps sweeps over grid (nx*ny*nz elements of s->dtype, x fastest, dense),
 * in place, on the best instruction set of this CPU. */
gk_status gk__stencil_cpu_spec(const gk__stencil_spec *s, void *grid, int64_t nx, int64_t ny, int64_t nz,
                               int64_t steps);
/* The same by a plain loop (unpadded, the boundary tested per point; one
 * thread per z plane): the reference the backend is checked against. */
gk_status gk__stencil_cpu_spec_plain(const gk__stencil_spec *s, void *grid, int64_t nx, int64_t ny, int64_t nz,
                                     int64_t steps);

/* The backend in pieces (what the front door and the benchmark time apart):
 * open allocates and first-touches the two padded buffers (set-up); load
 * and store copy the interior in and out; steps runs the sweeps. */
typedef struct gk_stencil_cpu_spec gk_stencil_cpu_spec;
gk_status gk__stencil_cpu_spec_open(gk_stencil_cpu_spec **g, const gk__stencil_spec *s, int64_t nx, int64_t ny,
                                    int64_t nz, gk_cpu_isa isa);
void gk__stencil_cpu_spec_load(gk_stencil_cpu_spec *g, const void *grid);
void gk__stencil_cpu_spec_store(const gk_stencil_cpu_spec *g, void *grid);
gk_status gk__stencil_cpu_spec_steps(gk_stencil_cpu_spec *g, int64_t steps);
void gk__stencil_cpu_spec_close(gk_stencil_cpu_spec *g);
/* Bytes of the two padded buffers open allocates (UINT64_MAX: too many). */
uint64_t gk__stencil_cpu_spec_bytes(const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz);
/* Streaming stores for the rows written (on: what open chooses for buffers
 * past 64 MB, beyond the caches; the tests turn them on for small grids to
 * cover that path). */
void gk__stencil_cpu_spec_streaming(gk_stencil_cpu_spec *g, int on);
/* "AVX-512 rows, 32-row x 64-plane tiles" */
const char *gk__stencil_cpu_spec_config(const gk_stencil_cpu_spec *g);

/* Planes k .. k+n-1 along the slowest axis (3D: z planes of nx*ny; 2D:
 * rows of nx) of the current grid from (put = 1) or into dense buf (x
 * fastest): a slab's planes and its halo (src/api/stencil_dist.c). */
void gk__stencil_cpu_spec_planes(gk_stencil_cpu_spec *g, int64_t k, int64_t n, void *buf, int put);

#endif /* GK_STENCIL_SPEC_CPU_H */
