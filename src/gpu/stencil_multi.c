/* stencil_multi.c - the stencil past one GPU: z-slab parts and the rounds
 * over them (see stencil_multi.h). */
#include "gpu/stencil_multi.h"
#include "gpu/stencil_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POOL 64          /* rounds of exchange events between two harvests */

/* A part computes its extended range on stream cs (the "main" sweep).  For
 * each neighbour it also has a boundary slab: a small grid of its own (bn
 * planes from global plane bz) that recomputes, on the high-priority
 * stream bs, the planes that neighbour needs next round, so that they can
 * be sent while the main sweep runs (stencil_multi.h). */
struct gk_stencil_part {
    int ordinal;
    int nx, ny, nz, z0, z1, e0, e1, H;
    gk_stencil_gpu *g;
    cudaStream_t cs, bs;
    cudaEvent_t copied;          /* bs: the boundary slabs have their inputs */
    cudaEvent_t sent;            /* bs: this round's halo planes have left (NCCL: and arrived) */
    cudaEvent_t installed;       /* cs: the next round's halo planes are in place */
    cudaEvent_t b[POOL], c[POOL];            /* bs: a round's transfers begin / end */
    cudaEvent_t md[POOL], mi[POOL];          /* cs: main sweep done / halo installed */
    int nev;
    gk_stencil_gpu *bg[2];       /* boundary slabs: [0] below (sent down), [1] above (sent up) */
    int bz[2], bn;
    double *stage[2];            /* halo planes received: [0] from below, [1] from above */
};

static gk_status on(const gk_stencil_part *p)
{
    GK_CUDA_TRY(cudaSetDevice(p->ordinal));
    return GK_OK;
}

int gk__stencil_cfg_steps_per_pass(const gk_config *cfg)
{
    gk_config full;
    if (gk__space_complete(&gk__space_stencil, cfg, &full))
        return 1;
    return gk__param(&full, "DESIGN") == 2 ? gk__param(&full, "TSTEPS") : 1;
}

gk_status gk__stencil_part_open(gk_stencil_part **out, int ordinal, const gk_device_info *dev, int nx, int ny,
                                int nz, int z0, int z1, int H, const double coeffs[27], const gk_config *cfg)
{
    gk_status st;
    *out = NULL;
    if (z0 < 0 || z1 <= z0 || z1 > nz || H < 1)
        return gk__fail(GK_EINVAL, "stencil slab %d..%d of %d planes (halo %d): empty or outside", z0, z1 - 1, nz, H);
    gk_stencil_part *p = calloc(1, sizeof *p);
    if (!p)
        return gk__fail(GK_ENOMEM, "cannot allocate a GPU slab");
    p->ordinal = ordinal;
    p->nx = nx; p->ny = ny; p->nz = nz; p->z0 = z0; p->z1 = z1; p->H = H;
    p->e0 = z0 - H > 0 ? z0 - H : 0;
    p->e1 = z1 + H < nz ? z1 + H : nz;
    if ((st = on(p)))
        goto fail;
    int least = 0, greatest = 0;
    GK_CUDA_GOTO(cudaDeviceGetStreamPriorityRange(&least, &greatest), st, fail);
    GK_CUDA_GOTO(cudaStreamCreateWithFlags(&p->cs, cudaStreamNonBlocking), st, fail);
    GK_CUDA_GOTO(cudaStreamCreateWithPriority(&p->bs, cudaStreamNonBlocking, greatest), st, fail);
    if ((st = gk__stencil_gpu_open(&p->g, dev, p->cs, nx, ny, p->e1 - p->e0, coeffs, cfg))) {
        st = gk__fail(st, "GPU %d, planes %d..%d of the grid (with %d halo planes): %s", ordinal, z0, z1 - 1,
                      (p->e1 - p->e0) - (z1 - z0), gk_last_error());
        goto fail;
    }
    /* The boundary slabs: 3H planes from the extended range's edge (fewer
     * when the extended range is shorter) hold, after t <= H steps, the
     * t' <= H planes next to the slab's edge exactly: they are at least
     * H >= t planes from the slab's cut ends (stencil_multi.h). */
    p->bn = 3 * H < p->e1 - p->e0 ? 3 * H : p->e1 - p->e0;
    p->bz[0] = p->e0;
    p->bz[1] = p->e1 - p->bn;
    for (int side = 0; side < 2; side++) {
        if (side == 0 ? z0 == 0 : z1 == nz)
            continue;                                /* no neighbour on that side */
        size_t pb;
        gk__stencil_gpu_plane(p->g, 0, &pb);
        if ((st = gk__stencil_gpu_open(&p->bg[side], dev, p->bs, nx, ny, p->bn, coeffs, gk__stencil_gpu_config(p->g)))) {
            st = gk__fail(st, "GPU %d, the boundary planes of slab %d..%d: %s", ordinal, z0, z1 - 1, gk_last_error());
            goto fail;
        }
        GK_CUDA_GOTO(cudaMalloc((void **)&p->stage[side], (size_t)H * pb), st, fail);
    }
    GK_CUDA_GOTO(cudaEventCreateWithFlags(&p->copied, cudaEventDisableTiming), st, fail);
    GK_CUDA_GOTO(cudaEventCreateWithFlags(&p->sent, cudaEventDisableTiming), st, fail);
    GK_CUDA_GOTO(cudaEventCreateWithFlags(&p->installed, cudaEventDisableTiming), st, fail);
    for (; p->nev < POOL; p->nev++) {
        GK_CUDA_GOTO(cudaEventCreate(&p->b[p->nev]), st, fail);
        GK_CUDA_GOTO(cudaEventCreate(&p->c[p->nev]), st, fail);
        GK_CUDA_GOTO(cudaEventCreate(&p->md[p->nev]), st, fail);
        GK_CUDA_GOTO(cudaEventCreate(&p->mi[p->nev]), st, fail);
    }
    *out = p;
    return GK_OK;
fail:
    gk__stencil_part_close(p);
    return st;
}

void gk__stencil_part_close(gk_stencil_part *p)
{
    if (!p) return;
    cudaSetDevice(p->ordinal);
    if (p->cs) cudaStreamSynchronize(p->cs);
    if (p->bs) cudaStreamSynchronize(p->bs);
    cudaEvent_t *pools[] = { p->b, p->c, p->md, p->mi };
    for (size_t k = 0; k < sizeof pools / sizeof pools[0]; k++)
        for (int i = 0; i < POOL; i++)
            if (pools[k][i]) cudaEventDestroy(pools[k][i]);
    cudaEvent_t one[] = { p->copied, p->sent, p->installed };
    for (size_t k = 0; k < sizeof one / sizeof one[0]; k++)
        if (one[k]) cudaEventDestroy(one[k]);
    for (int side = 0; side < 2; side++) {
        gk__stencil_gpu_close(p->bg[side]);
        if (p->stage[side]) cudaFree(p->stage[side]);
    }
    gk__stencil_gpu_close(p->g);
    if (p->cs) cudaStreamDestroy(p->cs);
    if (p->bs) cudaStreamDestroy(p->bs);
    free(p);
}

static gk_status copy(gk_stencil_part *p, int z, int n, double *host, int to_device)
{
    gk_status st;
    if (z < p->z0 || z + n > p->z1)
        return gk__fail(GK_EINVAL, "stencil: planes %d..%d are not in the slab %d..%d", z, z + n - 1, p->z0, p->z1 - 1);
    if ((st = on(p)))
        return st;
    return gk__stencil_gpu_copy_planes(p->g, z - p->e0, n, host, to_device);
}

gk_status gk__stencil_part_put(gk_stencil_part *p, int z, int n, const double *host)
{
    return copy(p, z, n, (double *)host, 1);
}

gk_status gk__stencil_part_get(gk_stencil_part *p, int z, int n, double *host)
{
    return copy(p, z, n, host, 0);
}

gk_status gk__stencil_pinned(void **p, size_t bytes)
{
    *p = NULL;
    GK_CUDA_TRY(cudaMallocHost(p, bytes));
    return GK_OK;
}

void gk__stencil_pinned_free(void *p)
{
    if (p) cudaFreeHost(p);
}

/* ------------------------------------------------------------------ rounds */

/* Global plane z of p's current buffer (padded plane, on p's device). */
static double *plane(gk_stencil_part *p, int z, size_t *bytes)
{
    return gk__stencil_gpu_plane(p->g, z - p->e0, bytes);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float ev_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return ms;
}

/* Rounds 0 .. n-1 of the pool are done: add their times (busy: the sends,
 * from when the receiver could take them; stall: the main stream from the
 * end of its sweep to its next halo being in place). */
static gk_status harvest(gk_stencil_part **parts, int nlocal, int n, double *busy, double *stall)
{
    for (int i = 0; i < nlocal; i++) {
        gk_stencil_part *p = parts[i];
        gk_status st = on(p);
        if (st) return st;
        GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
        GK_CUDA_TRY(cudaStreamSynchronize(p->bs));
        for (int k = 0; k < n; k++) {
            busy[i] += ev_ms(p->b[k], p->c[k]) * 1e-3;
            stall[i] += ev_ms(p->md[k], p->mi[k]) * 1e-3;
        }
    }
    return GK_OK;
}

/* ------------------------------------------------- overlapped rounds */

/* Part p's boundary slabs, on bs: once this round's halo is in place, copy
 * their input planes out of the main grid and run the round's t steps. */
static gk_status boundary_compute(gk_stencil_part *p, int t)
{
    size_t pb;
    plane(p, p->z0, &pb);
    GK_CUDA_TRY(cudaStreamWaitEvent(p->bs, p->installed, 0));
    for (int side = 0; side < 2; side++)
        if (p->bg[side])
            GK_CUDA_TRY(cudaMemcpyAsync(gk__stencil_gpu_plane(p->bg[side], 0, NULL), plane(p, p->bz[side], NULL),
                                        (size_t)p->bn * pb, cudaMemcpyDeviceToDevice, p->bs));
    GK_CUDA_TRY(cudaEventRecord(p->copied, p->bs));
    for (int side = 0; side < 2; side++)
        if (p->bg[side]) {
            gk_status st = gk__stencil_gpu_enqueue(p->bg[side], t);
            if (st) return st;
        }
    return GK_OK;
}

/* The tn planes part p sends next to its slab's edge (side 0: from z0, to
 * the part below; side 1: up to z1, to the part above): in its boundary
 * slab's result, or (main, for round 0) in its own grid. */
static double *outgoing(gk_stencil_part *p, int side, int tn, int main)
{
    int z = side == 0 ? p->z0 : p->z1 - tn;
    return main ? plane(p, z, NULL) : gk__stencil_gpu_plane(p->bg[side], z - p->bz[side], NULL);
}

/* Where the tn halo planes from below (side 0) and above (side 1) go. */
static double *incoming(gk_stencil_part *p, int side, int tn)
{
    return plane(p, side == 0 ? p->z0 - tn : p->z1, NULL);
}

/* In this process: each part copies its outgoing planes into its
 * neighbours' receive buffers once they have installed the last ones. */
static gk_status peer_send(gk_stencil_part **parts, int nlocal, int i, int tn, int main, int k)
{
    gk_stencil_part *p = parts[i], *nb[2] = { i > 0 ? parts[i - 1] : NULL, i + 1 < nlocal ? parts[i + 1] : NULL };
    size_t pb;
    plane(p, p->z0, &pb);
    for (int side = 0; side < 2; side++)
        if (nb[side])
            GK_CUDA_TRY(cudaStreamWaitEvent(p->bs, nb[side]->installed, 0));
    GK_CUDA_TRY(cudaEventRecord(p->b[k], p->bs));
    for (int side = 0; side < 2; side++)
        if (nb[side] && tn)
            GK_CUDA_TRY(cudaMemcpyPeerAsync(nb[side]->stage[1 - side], nb[side]->ordinal, outgoing(p, side, tn, main),
                                            p->ordinal, (size_t)tn * pb, p->bs));
    GK_CUDA_TRY(cudaEventRecord(p->c[k], p->bs));
    GK_CUDA_TRY(cudaEventRecord(p->sent, p->bs));
    return GK_OK;
}

/* One part per rank: its outgoing planes and the incoming ones (into the
 * receive buffers) in one NCCL group on bs. */
static gk_status nccl_send(gk_stencil_part *p, const gk_stencil_xchg *x, int tn, int main, int k)
{
    size_t pb;
    gk__nccl_xfer f[4];
    int n = 0;
    memset(f, 0, sizeof f);
    plane(p, p->z0, &pb);
    int peer[2] = { x->below, x->above };
    for (int side = 0; side < 2 && tn; side++)
        if (peer[side] >= 0) {
            f[n].send = outgoing(p, side, tn, main); f[n].bytes = (size_t)tn * pb; f[n++].peer = peer[side];
            f[n].recv = p->stage[side]; f[n].bytes = (size_t)tn * pb; f[n++].peer = peer[side];
        }
    GK_CUDA_TRY(cudaEventRecord(p->b[k], p->bs));
    gk_status st = n ? gk__nccl_sendrecv(x->nccl, f, n, p->bs) : GK_OK;
    if (st) return st;
    GK_CUDA_TRY(cudaEventRecord(p->c[k], p->bs));
    GK_CUDA_TRY(cudaEventRecord(p->sent, p->bs));
    return GK_OK;
}

/* One part per rank, through pinned host memory: the outgoing planes come
 * down on bs behind the boundary sweeps, the host exchanges them with the
 * neighbours while the main sweep runs, and the incoming ones go up on cs
 * behind it.  Host wall time of the exchange into *busy. */
static gk_status host_send(gk_stencil_part *p, const gk_stencil_xchg *x, int tn, int main, double *pin,
                           double *busy)
{
    size_t pb;
    plane(p, p->z0, &pb);
    size_t per = pb / sizeof(double) * (size_t)x->H;
    double *snd[2] = { pin, pin + per }, *rcv[2] = { pin + 2 * per, pin + 3 * per };
    int m[2] = { x->below >= 0 ? tn : 0, x->above >= 0 ? tn : 0 };
    if (!tn)
        return GK_OK;                 /* the last round: nothing to send */
    for (int side = 0; side < 2; side++)
        if (m[side])
            GK_CUDA_TRY(cudaMemcpyAsync(snd[side], outgoing(p, side, tn, main), (size_t)tn * pb,
                                        cudaMemcpyDeviceToHost, p->bs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->bs));
    double t0 = wall();
    gk_status st;
    /* downwards, then upwards: each pair's sizes match */
    if ((st = gk__comm_sendrecv(x->comm, snd[0], (size_t)m[0] * pb, m[0] ? x->below : -1, rcv[1], (size_t)m[1] * pb,
                                m[1] ? x->above : -1))
        || (st = gk__comm_sendrecv(x->comm, snd[1], (size_t)m[1] * pb, m[1] ? x->above : -1, rcv[0],
                                   (size_t)m[0] * pb, m[0] ? x->below : -1)))
        return st;
    *busy += wall() - t0;
    for (int side = 0; side < 2; side++)
        if (m[side])
            GK_CUDA_TRY(cudaMemcpyAsync(incoming(p, side, tn), rcv[side], (size_t)tn * pb, cudaMemcpyHostToDevice,
                                        p->cs));
    return GK_OK;
}

/* On cs, behind the main sweep: the halo planes from the receive buffers
 * into the grid, once the neighbours (PEER) or this part's own exchange
 * (NCCL) have delivered them. */
static gk_status install(gk_stencil_part *p, gk_stencil_part *from[2], int tn)
{
    size_t pb;
    plane(p, p->z0, &pb);
    for (int side = 0; side < 2; side++)
        if (from[side] && tn) {
            GK_CUDA_TRY(cudaStreamWaitEvent(p->cs, from[side]->sent, 0));
            GK_CUDA_TRY(cudaMemcpyAsync(incoming(p, side, tn), p->stage[side], (size_t)tn * pb,
                                        cudaMemcpyDeviceToDevice, p->cs));
        }
    return GK_OK;
}

/* Enable direct copies between neighbouring GPUs (NVLink) where possible. */
static gk_status enable_peers(gk_stencil_part **parts, int nlocal)
{
    gk_status st;
    for (int i = 0; i < nlocal; i++)
        for (int d = -1; d <= 1; d += 2) {
            int j = i + d, can = 0;
            if (j < 0 || j >= nlocal || parts[j]->ordinal == parts[i]->ordinal ||
                cudaDeviceCanAccessPeer(&can, parts[i]->ordinal, parts[j]->ordinal) != cudaSuccess || !can)
                continue;
            if ((st = on(parts[i])))
                return st;
            cudaError_t e = cudaDeviceEnablePeerAccess(parts[j]->ordinal, 0);
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
                return gk__cuda_fail(e, "cudaDeviceEnablePeerAccess");
            cudaGetLastError();
        }
    return GK_OK;
}

/* The tn halo planes of the next round, to and from every part of this
 * process: sent from the boundary slabs (or, main, from the grids) on bs,
 * installed behind the main sweep on cs. */
static gk_status exchange(gk_stencil_part **parts, int nlocal, gk_stencil_xchg *x, int tn, int main, int k,
                          double *pin, double *host_busy)
{
    gk_status st;
    for (int i = 0; i < nlocal; i++) {
        gk_stencil_part *p = parts[i];
        if ((st = on(p)))
            return st;
        if (x->mode == GK__SX_PEER)
            st = peer_send(parts, nlocal, i, tn, main, k);
        else if (x->mode == GK__SX_NCCL)
            st = nccl_send(p, x, tn, main, k);
        else if (!(st = host_send(p, x, tn, main, pin, host_busy))) {
            GK_CUDA_TRY(cudaEventRecord(p->b[k], p->bs));
            GK_CUDA_TRY(cudaEventRecord(p->c[k], p->bs));
        }
        if (st)
            return st;
    }
    for (int i = 0; i < nlocal; i++) {
        gk_stencil_part *p = parts[i];
        gk_stencil_part *from[2] = { NULL, NULL };
        if (x->mode == GK__SX_PEER) {
            from[0] = i > 0 ? parts[i - 1] : NULL;
            from[1] = i + 1 < nlocal ? parts[i + 1] : NULL;
        } else if (x->mode == GK__SX_NCCL) {
            from[0] = x->below >= 0 ? p : NULL;
            from[1] = x->above >= 0 ? p : NULL;
        }
        if ((st = on(p)) || (st = install(p, from, tn)))
            return st;
        GK_CUDA_TRY(cudaEventRecord(p->mi[k], p->cs));
        GK_CUDA_TRY(cudaEventRecord(p->installed, p->cs));
    }
    return GK_OK;
}

/* One round of t steps on every part of this process, whose next round
 * has tn steps (0: none): boundary slabs, main sweeps, and the exchange
 * behind the boundary slabs. */
static gk_status round_overlapped(gk_stencil_part **parts, int nlocal, gk_stencil_xchg *x, int t, int tn, int k,
                                  double *pin, double *host_busy)
{
    gk_status st;
    for (int i = 0; i < nlocal && tn; i++)
        if ((st = on(parts[i])) || (st = boundary_compute(parts[i], t)))
            return st;
    for (int i = 0; i < nlocal; i++) {
        gk_stencil_part *p = parts[i];
        if ((st = on(p)))
            return st;
        if (tn && (p->bg[0] || p->bg[1]))
            GK_CUDA_TRY(cudaStreamWaitEvent(p->cs, p->copied, 0));   /* before overwriting their inputs */
        if ((st = gk__stencil_gpu_enqueue(p->g, t)))
            return st;
        GK_CUDA_TRY(cudaEventRecord(p->md[k], p->cs));
    }
    return exchange(parts, nlocal, x, tn, 0, k, pin, host_busy);
}

/* Round 0's halos, straight from the grids, before anything runs. */
static gk_status first_halos(gk_stencil_part **parts, int nlocal, gk_stencil_xchg *x, int t, double *pin,
                             double *seconds)
{
    double t0 = wall(), unused = 0;
    gk_status st = exchange(parts, nlocal, x, t, 1, 0, pin, &unused);
    for (int i = 0; i < nlocal && !st; i++)
        if (!(st = on(parts[i]))) {
            GK_CUDA_TRY(cudaStreamSynchronize(parts[i]->bs));
            GK_CUDA_TRY(cudaStreamSynchronize(parts[i]->cs));
        }
    *seconds = wall() - t0;
    return st;
}

gk_status gk__stencil_multi_connect(gk_stencil_part **parts, int nlocal, gk_stencil_xchg *x)
{
    double unused;
    if (x->H < 1 || (x->mode != GK__SX_PEER && nlocal != 1) || x->mode == GK__SX_HOST)
        return gk__fail(GK_EINVAL, "stencil connect: halo %d, %d parts, exchange mode %d", x->H, nlocal, x->mode);
    return first_halos(parts, nlocal, x, x->H, NULL, &unused);
}

gk_status gk__stencil_multi_run(gk_stencil_part **parts, int nlocal, gk_stencil_xchg *x, int steps)
{
    gk_status st = GK_OK;
    double *busy = calloc((size_t)(nlocal > 0 ? nlocal : 1), sizeof *busy);
    double *stall = calloc((size_t)(nlocal > 0 ? nlocal : 1), sizeof *stall);
    double *pin = NULL;
    x->busy = x->stall = 0;
    if (!busy || !stall) {
        st = gk__fail(GK_ENOMEM, "cannot allocate the exchange timers");
        goto out;
    }
    if (x->H < 1 || (x->mode != GK__SX_PEER && nlocal != 1)) {
        st = gk__fail(GK_EINVAL, "stencil rounds: halo %d, %d parts in this process", x->H, nlocal);
        goto out;
    }
    for (int i = 0; i < nlocal; i++) {
        gk_stencil_part *p = parts[i];
        int peer = x->mode == GK__SX_PEER;
        int lo = peer ? i > 0 : x->below >= 0, hi = peer ? i + 1 < nlocal : x->above >= 0;
        if (p->H != x->H || lo != (p->bg[0] != NULL) || hi != (p->bg[1] != NULL)) {
            st = gk__fail(GK_EINVAL, "stencil rounds: slab %d..%d (halo %d) does not match its neighbours (halo %d)",
                          p->z0, p->z1 - 1, p->H, x->H);
            goto out;
        }
    }
    if (x->mode == GK__SX_PEER && (st = enable_peers(parts, nlocal)))
        goto out;
    if (x->mode == GK__SX_HOST) {
        size_t pb;
        plane(parts[0], parts[0]->z0, &pb);
        if ((st = on(parts[0])) || (st = gk__stencil_pinned((void **)&pin, 4 * (size_t)x->H * pb)))
            goto out;
    }
    if (steps > 0 && !st) {
        double dt = 0;              /* nothing runs meanwhile: busy and stalled */
        st = first_halos(parts, nlocal, x, steps < x->H ? steps : x->H, pin, &dt);
        for (int i = 0; i < nlocal; i++)
            busy[i] = stall[i] = dt;
    }
    int k = 0;
    for (int s = 0; s < steps && !st; s += x->H) {
        int t = steps - s < x->H ? steps - s : x->H;
        int left = steps - s - t, tn = left < x->H ? left : x->H;
        if ((st = round_overlapped(parts, nlocal, x, t, tn, k, pin, &busy[0])))
            break;
        if (++k == POOL || s + x->H >= steps) {
            st = harvest(parts, nlocal, k, busy, stall);
            k = 0;
        }
    }
    for (int i = 0; i < nlocal && !st; i++)
        if (!(st = on(parts[i]))) {
            GK_CUDA_GOTO(cudaStreamSynchronize(parts[i]->cs), st, out);
            GK_CUDA_GOTO(cudaStreamSynchronize(parts[i]->bs), st, out);
            GK_CUDA_GOTO(cudaGetLastError(), st, out);
        }
    for (int i = 0; i < nlocal; i++) {
        if (busy[i] > x->busy) x->busy = busy[i];
        if (stall[i] > x->stall) x->stall = stall[i];
    }
out:
    if (pin) gk__stencil_pinned_free(pin);
    free(busy);
    free(stall);
    return st;
}
