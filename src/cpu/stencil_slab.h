/* stencil_slab.h - a CPU rank's z slab of a distributed stencil run: the CPU
 * backend's grid (stencil_cpu.h) on the rank's planes plus H planes of each
 * neighbour, and its rounds (halo planes by sendrecv over the caller's
 * gk_comm, then H steps).  The front door (src/api/stencil_dist.c) reads,
 * checks and writes; why slabs along z: src/gpu/stencil_multi.h. */
#ifndef GK_CPU_STENCIL_SLAB_H
#define GK_CPU_STENCIL_SLAB_H

#include "core/comm.h"
#include "cpu/stencil_cpu.h"

/* Planes z0 .. z1 - 1 are the rank's; e0 .. e1 - 1 (its planes and the
 * halo) are held by g, plane z at g's plane z - e0. */
typedef struct gk_stencil_cpu_slab {
    gk_stencil_cpu *g;
    int nx, ny, z0, z1, e0, e1;
} gk_stencil_cpu_slab;

/* Global planes z .. z + n - 1 (x fastest, no padding) into the slab
 * (put = 1) or out of it (put = 0). */
void gk__stencil_cpu_slab_rows(gk_stencil_cpu_slab *c, int z, int n, double *buf, int put);
/* steps steps in rounds of at most H: the halo planes from the nearest
 * non-empty slabs below and above (ranks lo, hi; -1: none) by sendrecv
 * straight from and into the grid (padded planes are contiguous), then the
 * round's steps over the extended range.  *wait: seconds in sendrecv. */
gk_status gk__stencil_cpu_slab_rounds(gk_stencil_cpu_slab *c, const gk_comm *comm, int lo, int hi, int H,
                                      int steps, double *wait);

#endif /* GK_CPU_STENCIL_SLAB_H */
