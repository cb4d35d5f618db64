/* stencil_cpu.h - the CPU stencil backend (OpenMP/SIMD) and its reference. */
#ifndef GK_STENCIL_CPU_H
#define GK_STENCIL_CPU_H

#include "core/internal.h"

/* Bytes of the two padded buffers gk__stencil_cpu allocates. */
uint64_t gk__stencil_cpu_bytes(int nx, int ny, int nz);

/* steps sweeps over grid (interior, x fastest), in place: OpenMP threads,
 * SIMD, cache-blocked; the same FMA chain as every backend. */
gk_status gk__stencil_cpu(double *grid, int nx, int ny, int nz, const double c[27], int steps);

/* The same by a plain loop (one thread per z plane, no blocking): the
 * reference the CPU backend is checked against. */
gk_status gk__stencil_cpu_reference(double *grid, int nx, int ny, int nz, const double c[27], int steps);

#endif /* GK_STENCIL_CPU_H */
