/* stencil_cpu.h - the CPU stencil backend (OpenMP/SIMD) and its reference. */
#ifndef GK_STENCIL_CPU_H
#define GK_STENCIL_CPU_H

#include "core/internal.h"

/* Bytes of the two padded buffers gk__stencil_cpu allocates (the temporal
 * sweeps add per-thread rings of a few hundred KB). */
uint64_t gk__stencil_cpu_bytes(int nx, int ny, int nz);

/* Steps per pass: gk__stencil_cpu's choice and the largest accepted.  3:
 * on the 2-core AVX-512 machine T = 2 is fastest when it is idle (2.7
 * against 2.5 GStencil/s at 256^3), T = 3-4 when other processes share its
 * memory bandwidth (1.6-1.7 against 1.2); 3 is never far from the best
 * (`git log -p -- bench/stencil_results.md`, "CPU, issue 13"). */
#define GK_STENCIL_CPU_T 3
#define GK_STENCIL_CPU_TMAX 8

/* steps sweeps over grid (interior, x fastest), in place: OpenMP threads,
 * SIMD, cache-blocked in space and (GK_STENCIL_CPU_T steps per pass) in
 * time; the same FMA chain as every backend. */
gk_status gk__stencil_cpu(double *grid, int nx, int ny, int nz, const double c[27], int steps, gk_cpu_isa isa);
/* The same with T steps per pass (1: one sweep per step), 1..TMAX. */
gk_status gk__stencil_cpu_t(double *grid, int nx, int ny, int nz, const double c[27], int steps, int T,
                            gk_cpu_isa isa);

/* The backend in pieces (what the benchmark times): open allocates the two
 * padded buffers (zero halo); load/store copy the interior in/out; steps
 * runs steps sweeps, T per pass (the remainder in one smaller pass). */
typedef struct gk_stencil_cpu gk_stencil_cpu;
gk_status gk__stencil_cpu_open(gk_stencil_cpu **g, int nx, int ny, int nz, const double c[27], gk_cpu_isa isa);
void gk__stencil_cpu_load(gk_stencil_cpu *g, const double *grid);
void gk__stencil_cpu_store(const gk_stencil_cpu *g, double *grid);
gk_status gk__stencil_cpu_steps(gk_stencil_cpu *g, int steps, int T);
void gk__stencil_cpu_close(gk_stencil_cpu *g);
/* The padded plane z (-1..nz) of the current grid: px * py doubles, x
 * pitch px (a multiple of 8; the interior row y starts at (y + 1) * px +
 * GK_STENCIL_CPU_XOFF, 64-byte aligned), halo zero; consecutive planes are
 * contiguous.  For slabs of a distributed grid. */
double *gk__stencil_cpu_plane(gk_stencil_cpu *g, int z, int64_t *px, int64_t *py);
#define GK_STENCIL_CPU_XOFF 8

/* The row kernels' instruction set is the caller's (the context's cpu_isa;
 * GK_CPU_ISA_AUTO: the best this CPU has), given to gk__stencil_cpu,
 * gk__stencil_cpu_t and gk__stencil_cpu_open (GK_ENODEV when the CPU lacks
 * it): generic (scalar fma()), AVX2+FMA (8 chains of 4), AVX-512F (16 chains
 * of 8, masked tails).  Its name for reports: */
const char *gk__stencil_cpu_isa_name(gk_cpu_isa isa);
/* The same by a plain loop (one thread per z plane, no blocking): the
 * reference the CPU backend is checked against. */
gk_status gk__stencil_cpu_reference(double *grid, int nx, int ny, int nz, const double c[27], int steps);

#endif /* GK_STENCIL_CPU_H */
