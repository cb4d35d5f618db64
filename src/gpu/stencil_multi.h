/* stencil_multi.h - the 27-point stencil past one GPU: z slabs (host side;
 * the kernels are the single-GPU ones of stencil.cu, unchanged).
 *
 * The grid's NZ planes are split into slabs [z0, z1), one per GPU (a slab
 * may be empty).  A part holds its slab and H planes of each neighbour
 * (the "extended" range [e0, e1) = [max(0, z0-H), min(NZ, z1+H))) as a grid
 * of its own: the single-GPU stencil context (stencil_gpu.c) on e1 - e0
 * planes, whose zero halo is the true boundary wherever the extended range
 * meets the grid's edge.  A round of t <= H steps: the part runs t sweeps
 * over its whole extended range with the configured design (DESIGN 2: t
 * steps in one pass).  The planes it computes past its slab are wrong by
 * the time t steps have run (their own outer neighbours were not there),
 * but wrong values travel one plane per step, so after t <= H steps the
 * slab itself holds exactly what one GPU computes: the same FMA chain on
 * the same values, bit for bit.  H = the design's steps per pass, at most
 * the thinnest non-empty slab.
 *
 * The exchange hides behind that sweep.  Next round's t' <= H halo planes
 * are the t' planes next to each slab edge after this round; each part
 * with a neighbour on a side also holds a "boundary slab" for it: the 3H
 * planes from its extended range's edge (all of it when shorter), a small
 * grid of its own.  Each round, on a high-priority stream, the boundary
 * slabs copy their planes out of the part's grid and run the same t steps
 * (the t' edge planes are >= H >= t planes from their cut ends, so exact,
 * by the same argument), and the t' planes go to the neighbour's receive
 * buffer (peer copy, NCCL, or pinned host memory and MPI) -- all while the
 * main sweep runs.  Behind the main sweep the part copies what it received
 * into its halo planes (a device copy of t' planes), and the next round
 * starts.  Round 0's halos are copied before anything runs.  Cost: the
 * boundary slabs' 2 x 3H planes of extra work per round. */
#ifndef GK_STENCIL_MULTI_H
#define GK_STENCIL_MULTI_H

#include "gpu/gpu.h"
#include "gpu/comm_nccl.h"

typedef struct gk_stencil_part gk_stencil_part;

/* On GPU `ordinal` (made current; the caller restores its own device): the
 * slab [z0, z1) of an nx x ny x nz grid with H extra planes each side
 * (clipped to the grid); z0 < z1; and for each side with planes beyond it
 * a boundary slab (3H planes, two buffers) and a receive buffer (H planes).
 * cfg NULL: defaults.  GK_ENOMEM naming the sizes when the device lacks
 * the memory. */
gk_status gk__stencil_part_open(gk_stencil_part **p, int ordinal, const gk_device_info *dev, int nx, int ny,
                                int nz, int z0, int z1, int H, const double coeffs[27], const gk_config *cfg);
void gk__stencil_part_close(gk_stencil_part *p);
/* The configuration's steps per pass (the halo depth it wants). */
int gk__stencil_cfg_steps_per_pass(const gk_config *cfg);
/* The interior of global planes z .. z+n-1 (inside the slab) from / to
 * host memory (x fastest, nx*ny doubles per plane); synchronous. */
gk_status gk__stencil_part_put(gk_stencil_part *p, int z, int n, const double *host);
gk_status gk__stencil_part_get(gk_stencil_part *p, int z, int n, double *host);

enum { GK__SX_PEER, GK__SX_NCCL, GK__SX_HOST };

typedef struct gk_stencil_xchg {
    int mode;                 /* GK__SX_*: PEER between the parts of this process; NCCL or
                                 HOST (pinned buffers and comm's sendrecv) between ranks,
                                 one part per rank */
    int H;                    /* halo depth: steps per round */
    int below, above;         /* NCCL / HOST: the neighbouring ranks (-1: none) */
    gk_nccl *nccl;
    const gk_comm *comm;
    /* out, seconds: the transfers of halo planes (busy: the part whose
     * transfers took longest; NCCL: including waiting for the neighbour),
     * and the main sweep waiting for its next halo once done (stall: the
     * part that waited longest; round 0's copy counts as both) */
    double busy, stall;
} gk_stencil_xchg;

/* `steps` sweeps over the parts of this process (ordered by z; NCCL and
 * HOST: exactly one), the exchange overlapped as above; returns when done. */
gk_status gk__stencil_multi_run(gk_stencil_part **parts, int nlocal, gk_stencil_xchg *x, int steps);

/* Round 0's halo exchange alone (PEER or NCCL), so that NCCL makes its
 * connections before a timed run; the run copies the halos again. */
gk_status gk__stencil_multi_connect(gk_stencil_part **parts, int nlocal, gk_stencil_xchg *x);

/* Pinned host memory (fast copies to and from the GPUs). */
gk_status gk__stencil_pinned(void **p, size_t bytes);
void gk__stencil_pinned_free(void *p);

#endif /* GK_STENCIL_MULTI_H */
