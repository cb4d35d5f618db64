/* stencil_multi.c - the stencil past one GPU: z-slab parts and the rounds
 * over them (see stencil_multi.h). */
#include "gpu/stencil_multi.h"
#include "gpu/stencil_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POOL 64          /* rounds of exchange events between two harvests */

struct gk_stencil_part {
    int ordinal;
    int nx, ny, z0, z1, e0, e1;
    gk_stencil_gpu *g;
    cudaStream_t cs;
    cudaEvent_t done;            /* the last enqueued compute */
    cudaEvent_t a[POOL], b[POOL], c[POOL];   /* round begins / waits done / copies done */
    int nev;
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
    p->nx = nx; p->ny = ny; p->z0 = z0; p->z1 = z1;
    p->e0 = z0 - H > 0 ? z0 - H : 0;
    p->e1 = z1 + H < nz ? z1 + H : nz;
    if ((st = on(p)))
        goto fail;
    GK_CUDA_GOTO(cudaStreamCreateWithFlags(&p->cs, cudaStreamNonBlocking), st, fail);
    if ((st = gk__stencil_gpu_open(&p->g, dev, p->cs, nx, ny, p->e1 - p->e0, coeffs, cfg))) {
        st = gk__fail(st, "GPU %d, planes %d..%d of the grid (with %d halo planes): %s", ordinal, z0, z1 - 1,
                      (p->e1 - p->e0) - (z1 - z0), gk_last_error());
        goto fail;
    }
    GK_CUDA_GOTO(cudaEventCreateWithFlags(&p->done, cudaEventDisableTiming), st, fail);
    for (; p->nev < POOL; p->nev++) {
        GK_CUDA_GOTO(cudaEventCreate(&p->a[p->nev]), st, fail);
        GK_CUDA_GOTO(cudaEventCreate(&p->b[p->nev]), st, fail);
        GK_CUDA_GOTO(cudaEventCreate(&p->c[p->nev]), st, fail);
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
    for (int i = 0; i < POOL; i++) {
        if (p->a[i]) cudaEventDestroy(p->a[i]);
        if (p->b[i]) cudaEventDestroy(p->b[i]);
        if (p->c[i]) cudaEventDestroy(p->c[i]);
    }
    if (p->done) cudaEventDestroy(p->done);
    gk__stencil_gpu_close(p->g);
    if (p->cs) cudaStreamDestroy(p->cs);
    free(p);
}

const gk_config *gk__stencil_part_config(const gk_stencil_part *p) { return gk__stencil_gpu_config(p->g); }

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

/* Rounds 0 .. n-1 of the pool are done: add their times. */
static gk_status harvest(gk_stencil_part **parts, int nlocal, int n, double *busy, double *stall)
{
    for (int i = 0; i < nlocal; i++) {
        gk_stencil_part *p = parts[i];
        gk_status st = on(p);
        if (st) return st;
        GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
        for (int k = 0; k < n; k++) {
            busy[i] += ev_ms(p->b[k], p->c[k]) * 1e-3;
            stall[i] += ev_ms(p->a[k], p->c[k]) * 1e-3;
        }
    }
    return GK_OK;
}

/* One round's halo planes on the parts of this process, by peer copies:
 * each part pulls the t planes next to its slab from its neighbours'
 * current buffers once their last compute is done. */
static gk_status peer_round(gk_stencil_part **parts, int nlocal, int t, int k)
{
    for (int i = 0; i < nlocal; i++) {
        gk_stencil_part *p = parts[i], *lo = i > 0 ? parts[i - 1] : NULL, *hi = i + 1 < nlocal ? parts[i + 1] : NULL;
        gk_status st = on(p);
        if (st) return st;
        GK_CUDA_TRY(cudaEventRecord(p->a[k], p->cs));
        if (lo) GK_CUDA_TRY(cudaStreamWaitEvent(p->cs, lo->done, 0));
        if (hi) GK_CUDA_TRY(cudaStreamWaitEvent(p->cs, hi->done, 0));
        GK_CUDA_TRY(cudaEventRecord(p->b[k], p->cs));
        size_t pb;
        if (lo && p->z0 > 0) {
            int n = t < p->z0 - p->e0 ? t : p->z0 - p->e0;
            double *dst = plane(p, p->z0 - n, &pb), *src = plane(lo, p->z0 - n, NULL);
            GK_CUDA_TRY(cudaMemcpyPeerAsync(dst, p->ordinal, src, lo->ordinal, (size_t)n * pb, p->cs));
        }
        if (hi && p->z1 < p->e1) {
            int n = t < p->e1 - p->z1 ? t : p->e1 - p->z1;
            double *dst = plane(p, p->z1, &pb), *src = plane(hi, p->z1, NULL);
            GK_CUDA_TRY(cudaMemcpyPeerAsync(dst, p->ordinal, src, hi->ordinal, (size_t)n * pb, p->cs));
        }
        GK_CUDA_TRY(cudaEventRecord(p->c[k], p->cs));
    }
    return GK_OK;
}

/* One part per rank: NCCL sends and receives in one group, on the stream. */
static gk_status nccl_round(gk_stencil_part *p, const gk_stencil_xchg *x, int t, int k)
{
    size_t pb;
    gk__nccl_xfer f[4];
    int n = 0;
    memset(f, 0, sizeof f);
    plane(p, p->z0, &pb);
    if (x->below >= 0 && p->z0 > p->e0) {
        int m = t < p->z0 - p->e0 ? t : p->z0 - p->e0;
        f[n].send = plane(p, p->z0, NULL); f[n].bytes = (size_t)m * pb; f[n++].peer = x->below;
        f[n].recv = plane(p, p->z0 - m, NULL); f[n].bytes = (size_t)m * pb; f[n++].peer = x->below;
    }
    if (x->above >= 0 && p->e1 > p->z1) {
        int m = t < p->e1 - p->z1 ? t : p->e1 - p->z1;
        f[n].send = plane(p, p->z1 - m, NULL); f[n].bytes = (size_t)m * pb; f[n++].peer = x->above;
        f[n].recv = plane(p, p->z1, NULL); f[n].bytes = (size_t)m * pb; f[n++].peer = x->above;
    }
    GK_CUDA_TRY(cudaEventRecord(p->a[k], p->cs));
    GK_CUDA_TRY(cudaEventRecord(p->b[k], p->cs));
    gk_status st = gk__nccl_sendrecv(x->nccl, f, n, p->cs);
    if (st) return st;
    GK_CUDA_TRY(cudaEventRecord(p->c[k], p->cs));
    return GK_OK;
}

/* One part per rank, through pinned host buffers and the communicator:
 * the GPU waits (busy = stall = the wall time of the exchange). */
static gk_status host_round(gk_stencil_part *p, const gk_stencil_xchg *x, int t, double *pin)
{
    size_t pb;
    plane(p, p->z0, &pb);
    int mlo = x->below >= 0 ? (t < p->z0 - p->e0 ? t : p->z0 - p->e0) : 0;
    int mhi = x->above >= 0 ? (t < p->e1 - p->z1 ? t : p->e1 - p->z1) : 0;
    size_t per = pb / sizeof(double) * (size_t)x->H;
    double *slo = pin, *shi = pin + per, *rlo = pin + 2 * per, *rhi = pin + 3 * per;
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    if (mlo) GK_CUDA_TRY(cudaMemcpyAsync(slo, plane(p, p->z0, NULL), (size_t)mlo * pb, cudaMemcpyDeviceToHost, p->cs));
    if (mhi) GK_CUDA_TRY(cudaMemcpyAsync(shi, plane(p, p->z1 - mhi, NULL), (size_t)mhi * pb, cudaMemcpyDeviceToHost, p->cs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    gk_status st;
    /* downwards, then upwards: the sizes of each pair match (a slab's halo
     * on one side is its neighbour's on the other) */
    if ((st = gk__comm_sendrecv(x->comm, slo, (size_t)mlo * pb, mlo ? x->below : -1, rhi, (size_t)mhi * pb,
                                mhi ? x->above : -1))
        || (st = gk__comm_sendrecv(x->comm, shi, (size_t)mhi * pb, mhi ? x->above : -1, rlo, (size_t)mlo * pb,
                                   mlo ? x->below : -1)))
        return st;
    if (mlo) GK_CUDA_TRY(cudaMemcpyAsync(plane(p, p->z0 - mlo, NULL), rlo, (size_t)mlo * pb, cudaMemcpyHostToDevice, p->cs));
    if (mhi) GK_CUDA_TRY(cudaMemcpyAsync(plane(p, p->z1, NULL), rhi, (size_t)mhi * pb, cudaMemcpyHostToDevice, p->cs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    return GK_OK;
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
    if (x->mode == GK__SX_PEER)                 /* direct copies between the GPUs (NVLink) */
        for (int i = 0; i < nlocal; i++)
            for (int d = -1; d <= 1; d += 2) {
                int j = i + d, can = 0;
                if (j < 0 || j >= nlocal || parts[j]->ordinal == parts[i]->ordinal ||
                    cudaDeviceCanAccessPeer(&can, parts[i]->ordinal, parts[j]->ordinal) != cudaSuccess || !can)
                    continue;
                if ((st = on(parts[i]))) goto out;
                cudaError_t e = cudaDeviceEnablePeerAccess(parts[j]->ordinal, 0);
                if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) {
                    st = gk__cuda_fail(e, "cudaDeviceEnablePeerAccess");
                    goto out;
                }
                cudaGetLastError();
            }
    if (x->mode == GK__SX_HOST) {
        size_t pb;
        plane(parts[0], parts[0]->z0, &pb);
        if ((st = on(parts[0])) || (st = gk__stencil_pinned((void **)&pin, 4 * (size_t)x->H * pb)))
            goto out;
    }
    for (int i = 0; i < nlocal && !st; i++)
        if (!(st = on(parts[i])))
            GK_CUDA_GOTO(cudaEventRecord(parts[i]->done, parts[i]->cs), st, out);
    int k = 0;
    for (int s = 0; s < steps && !st; s += x->H) {
        int t = steps - s < x->H ? steps - s : x->H;
        if (x->mode == GK__SX_PEER)
            st = peer_round(parts, nlocal, t, k);
        else if (x->mode == GK__SX_NCCL)
            st = nccl_round(parts[0], x, t, k);
        else {
            double t0 = wall();
            st = host_round(parts[0], x, t, pin);
            busy[0] += wall() - t0;
            stall[0] += wall() - t0;
        }
        for (int i = 0; i < nlocal && !st; i++) {
            gk_stencil_part *p = parts[i];
            if (!(st = on(p)) && !(st = gk__stencil_gpu_enqueue(p->g, t)))
                GK_CUDA_GOTO(cudaEventRecord(p->done, p->cs), st, out);
        }
        if (st) break;
        if (x->mode != GK__SX_HOST && (++k == POOL || s + x->H >= steps)) {
            st = harvest(parts, nlocal, k, busy, stall);
            k = 0;
        }
    }
    for (int i = 0; i < nlocal && !st; i++)
        if (!(st = on(parts[i]))) {
            GK_CUDA_GOTO(cudaStreamSynchronize(parts[i]->cs), st, out);
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
