/* stencil_gpu.c - host side of the GPU stencil: padded
 * device buffers, uploads/downloads and the sweep loop. */
#include "gpu/stencil_gpu.h"

#include <cuda.h>            /* CUtensorMap and its enums; the encoder comes from cudart */
#include <cudaTypedefs.h>    /* its type */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layout: plane z of the grid is px x py doubles, row y of it starts at
 * column -XOFF (XOFF = 4: the interior row starts 32-byte aligned because
 * the pitch is a multiple of 4 doubles), and one zero row each side in y;
 * the zero planes -1 and nz hold the z halo.  Kernels never write outside the
 * grid, so the halo stays 0 from the memset.
 *
 * The kernels' plane loaders do not test their indices: a tile may read up
 * to 4 points (TSTEPS) outside the grid on every axis, and a partial tile at
 * the far edge up to a tile width (TI = BX*RX) and height (H = BY*RY) past it.
 * Those values only feed points outside the grid, which are never stored
 * (DESIGN 2 stores 0 for its intermediate stages' points outside the grid),
 * so any value will do: the allocation only has to contain every address.
 * Hence ZOFF = 5 planes before plane 0 (the lowest read, plane -4 row -4
 * column -4, stays inside them) and a tail past plane nz (see elems()). */
#define XOFF 4
#define ZOFF 5

struct gk_stencil_gpu {
    gk_device_info dev;
    cudaStream_t stream;
    gk_gpu_module mod;
    gk_config cfg;                 /* complete */
    cudaKernel_t k_naive, k_tile, k_stream, k_temporal[5], k_ceil;
    int design, bx, by, ry, rx, zc, tsteps, ring;
    int nx, ny, nz;
    int px, py;
    uint64_t elems;                /* doubles per buffer */
    double *buf[2];
    int cur;                       /* buffer holding the current grid */
    struct { double c[27]; } coeffs;
    gk_gpu_timer timer;
    /* RING=1 on sm_90 and later: the temporal kernels copy their input
     * planes with the TMA (stencil.cu); per buffer and T steps per pass, the
     * map its planes are read through (a box of the tile and its T-point
     * halo, x widened to an even offset).  Zero (unused) otherwise. */
    CUtensorMap tin[2][5];
};

static void dims(int nx, int ny, int *px, int *py)
{
    *px = (XOFF + nx + 1 + 3) / 4 * 4;
    *py = ny + 2;
}

/* Doubles per buffer: ZOFF planes, the nz planes and 4 more, then the rows
 * and columns a partial tile (ti x h) at the far edge may reach; 0 when that
 * does not fit in 62 bits (no device has that much memory anyway). */
static uint64_t elems(int nx, int ny, int nz, int ti, int h)
{
    int px, py;
    dims(nx, ny, &px, &py);
    uint64_t plane = (uint64_t)px * (uint64_t)py, planes = (uint64_t)ZOFF + (uint64_t)nz + 4;
    if (plane > (UINT64_C(1) << 62) / planes)
        return 0;
    return planes * plane + ((uint64_t)ny + (uint64_t)h + 5) * (uint64_t)px + XOFF + (uint64_t)nx
           + (uint64_t)ti + 5;
}

/* Pointer at interior point (0,0,0). */
static double *origin(const gk_stencil_gpu *g, int b)
{
    return g->buf[b] + ((size_t)ZOFF * (size_t)g->py + 1) * (size_t)g->px + XOFF;
}

/* The TMA's maps of RING=1 (see struct gk_stencil_gpu).  The boxes follow
 * stencil.cu's ring_geo: rows of XW = TI + 2*OFF columns (OFF = T rounded
 * up to even: the box starts at x0 - OFF, 16 bytes aligned), YH = H + 2T
 * rows, and the kernel uses the TMA exactly when the same test holds there
 * (and it was compiled for sm_90 or later: else the map goes unused).  A
 * map covers the grid's nx x ny x nz interior (32-byte aligned, pitches
 * multiples of 32 bytes): a box reaching past it reads zeros. */
typedef PFN_cuTensorMapEncodeTiled_v12000 tma_encode_fn;

static int tma_off(int t) { return t + (t & 1); }

static int tma_fits(int ti, int h, int t)
{
    return ti + 2 * tma_off(t) <= 256 && h + 2 * t <= 256 && ti % 2 == 0;
}

static gk_status tma_map(tma_encode_fn enc, CUtensorMap *m, const gk_stencil_gpu *g, int b, int t, int bw, int bh)
{
    cuuint64_t dim[3] = { (cuuint64_t)g->nx, (cuuint64_t)g->ny, (cuuint64_t)g->nz };
    cuuint64_t stride[2] = { (cuuint64_t)g->px * sizeof(double), (cuuint64_t)g->px * (cuuint64_t)g->py * sizeof(double) };
    cuuint32_t box[3] = { (cuuint32_t)bw, (cuuint32_t)bh, 1 }, one[3] = { 1, 1, 1 };
    CUresult r = enc(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3, origin(g, b), dim, stride, box, one,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return gk__fail(GK_ECUDA, "stencil grid %dx%dx%d: cuTensorMapEncodeTiled failed (CUresult %d) for "
                        "buffer %d, T=%d: a %dx%d box of the %dx%d tile", g->nx, g->ny, g->nz, (int)r, b, t, bw, bh,
                        g->bx * g->rx, g->by * g->ry);
    return GK_OK;
}

static gk_status tma_maps(gk_stencil_gpu *g)
{
    int ti = g->bx * g->rx, h = g->by * g->ry;
    if (!g->ring || g->dev.cc_major < 9 || !tma_fits(ti, h, 1))
        return GK_OK;                         /* no T fits if T=1 does not */
    void *p = NULL;
    enum cudaDriverEntryPointQueryResult q;
#if CUDART_VERSION >= 12050
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
#else
    cudaError_t e = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p, cudaEnableDefault, &q);
#endif
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p)
        return gk__fail(GK_ECUDA, "the CUDA driver has no cuTensorMapEncodeTiled (the stencil's RING=1 kernels "
                        "on sm_%d%d need it): driver %d", g->dev.cc_major, g->dev.cc_minor, g->dev.driver_version);
    tma_encode_fn enc;
    memcpy(&enc, &p, sizeof enc);
    gk_status st = GK_OK;
    for (int b = 0; b < 2 && !st; b++)
        for (int t = 1; t <= g->tsteps && !st; t++)
            if (tma_fits(ti, h, t))
                st = tma_map(enc, &g->tin[b][t], g, b, t, ti + 2 * tma_off(t), h + 2 * t);
    return st;
}

gk_status gk__stencil_gpu_open(gk_stencil_gpu **out, const gk_device_info *dev, cudaStream_t stream,
                               int nx, int ny, int nz, const double coeffs[27], const gk_config *cfg)
{
    gk_status st;
    *out = NULL;
    if (nx < 1 || ny < 1 || nz < 1)
        return gk__fail(GK_EINVAL, "stencil grid %dx%dx%d: sizes must be >= 1", nx, ny, nz);
    /* aligned: the CUtensorMaps in it are 128-byte aligned types */
    gk_stencil_gpu *g = aligned_alloc(_Alignof(gk_stencil_gpu), sizeof *g);
    if (!g)
        return gk__fail(GK_ENOMEM, "out of host memory for the GPU stencil context");
    memset(g, 0, sizeof *g);
    g->dev = *dev;
    g->stream = stream;
    if ((st = gk__space_complete(&gk__space_stencil, cfg, &g->cfg)))
        goto fail;
    char why[160];
    if (gk__space_stencil.reject(&g->cfg, &g->dev, why, sizeof why)) {
        char txt[256];
        gk__config_format(&g->cfg, txt, sizeof txt);
        st = gk__fail(GK_EINVAL, "stencil configuration %s cannot run here: %s", txt, why);
        goto fail;
    }
    g->design = gk__param(&g->cfg, "DESIGN");
    g->bx = gk__param(&g->cfg, "BX");
    g->by = gk__param(&g->cfg, "BY");
    g->ry = gk__param(&g->cfg, "RY");
    g->rx = gk__param(&g->cfg, "RX");
    g->zc = gk__param(&g->cfg, "ZC");
    g->tsteps = gk__param(&g->cfg, "TSTEPS");
    g->ring = g->design == 2 && gk__param(&g->cfg, "RING");
    g->nx = nx; g->ny = ny; g->nz = nz;
    dims(nx, ny, &g->px, &g->py);
    g->elems = elems(nx, ny, nz, g->bx * g->rx, g->by * g->ry);
    if (!g->elems || g->elems > SIZE_MAX / 4 / sizeof(double)) {
        st = gk__fail(GK_ENOMEM, "stencil grid %dx%dx%d: too large for one GPU", nx, ny, nz);
        goto fail;
    }
    /* DESIGN 2 stores (BY*RY - 2T + 2) rows per block (RING: BY*RY); its
     * remainder pass uses fewer steps, hence more rows: the configured T is
     * the worst */
    int th = g->by * g->ry - (g->design == 2 && !g->ring ? 2 * (g->tsteps - 1) : 0);
    long gy = (ny + th - 1) / th, gz = (nz + g->zc - 1) / g->zc;
    if (gy > 65535 || gz > 65535) {
        st = gk__fail(GK_EINVAL, "stencil grid %dx%dx%d: too many blocks along y or z for this "
                      "configuration (%ld, %ld > 65535)", nx, ny, nz, gy, gz);
        goto fail;
    }
    size_t need = (size_t)(2 * g->elems * sizeof(double)), fr = 0, tot = 0;
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (need > fr) {
        char b1[32], b2[32];
        st = gk__fail(GK_ENOMEM, "stencil grid %dx%dx%d needs %s of GPU memory (two padded buffers), "
                      "%s has %s free", nx, ny, nz, gk__human_bytes((double)need, b1, sizeof b1),
                      g->dev.name, gk__human_bytes((double)fr, b2, sizeof b2));
        goto fail;
    }
    if ((st = gk__gpu_module_load(&gk__image_stencil, &gk__space_stencil, &g->cfg, &g->mod)))
        goto fail;
    if ((st = gk__gpu_kernel(&g->mod, "gk_stencil_naive", &g->k_naive)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_stencil_tile", &g->k_tile)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_stencil_stream", &g->k_stream)) ||
        (st = gk__gpu_kernel(&g->mod, "gk_stencil_fma_ceiling", &g->k_ceil)))
        goto fail;
    for (int t = 1; t <= 4; t++) {
        char name[32];
        snprintf(name, sizeof name, "gk_stencil_temporal%d", t);
        if ((st = gk__gpu_kernel(&g->mod, name, &g->k_temporal[t])))
            goto fail;
    }
    size_t one = need / 2;
    GK_CUDA_GOTO(cudaMalloc((void **)&g->buf[0], one), st, fail);
    GK_CUDA_GOTO(cudaMalloc((void **)&g->buf[1], one), st, fail);
    GK_CUDA_GOTO(cudaMemsetAsync(g->buf[0], 0, one, g->stream), st, fail);
    GK_CUDA_GOTO(cudaMemsetAsync(g->buf[1], 0, one, g->stream), st, fail);
    memcpy(g->coeffs.c, coeffs, sizeof g->coeffs.c);
    if ((st = tma_maps(g)) || (st = gk__gpu_timer_init(&g->timer)))
        goto fail;
    *out = g;
    return GK_OK;
fail:
    gk__stencil_gpu_close(g);
    return st;
}

void gk__stencil_gpu_close(gk_stencil_gpu *g)
{
    if (!g) return;
    gk__gpu_timer_free(&g->timer);
    cudaFree(g->buf[0]);
    cudaFree(g->buf[1]);
    gk__gpu_module_unload(&g->mod);
    free(g);
}

const gk_config *gk__stencil_gpu_config(const gk_stencil_gpu *g) { return &g->cfg; }

static struct cudaMemcpy3DParms copy_parms(gk_stencil_gpu *g, double *host, int to_device)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    struct cudaPitchedPtr h = { host, (size_t)g->nx * sizeof(double), (size_t)g->nx, (size_t)g->ny };
    struct cudaPitchedPtr d = { g->buf[g->cur], (size_t)g->px * sizeof(double), (size_t)g->px, (size_t)g->py };
    struct cudaPos dpos = { XOFF * sizeof(double), 1, ZOFF };
    if (to_device) {
        p.srcPtr = h; p.dstPtr = d; p.dstPos = dpos;
        p.kind = cudaMemcpyHostToDevice;
    } else {
        p.srcPtr = d; p.srcPos = dpos; p.dstPtr = h;
        p.kind = cudaMemcpyDeviceToHost;
    }
    p.extent.width = (size_t)g->nx * sizeof(double);
    p.extent.height = (size_t)g->ny;
    p.extent.depth = (size_t)g->nz;
    return p;
}

/* One timed copy of the interior between host and the current buffer. */
static gk_status timed_copy(gk_stencil_gpu *g, double *grid, int to_device, float *ms)
{
    gk_status st;
    struct cudaMemcpy3DParms p = copy_parms(g, grid, to_device);
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    GK_CUDA_TRY(cudaMemcpy3DAsync(&p, g->stream));
    float t;
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, &t))) return st;
    if (ms) *ms = t;
    return GK_OK;
}

void gk__stencil_gpu_set_stream(gk_stencil_gpu *g, cudaStream_t stream) { g->stream = stream; }

gk_status gk__stencil_gpu_copy_device(gk_stencil_gpu *g, double *grid, int64_t pitch_y, int64_t pitch_z,
                                      int to_device)
{
    if (to_device)
        g->cur = 0;
    struct cudaMemcpy3DParms p = copy_parms(g, grid, to_device);
    p.kind = cudaMemcpyDeviceToDevice;
    struct cudaPitchedPtr user = { grid, (size_t)pitch_y * sizeof(double), (size_t)g->nx, (size_t)g->ny };
    if (pitch_z % pitch_y == 0) {
        /* planes pitch_z / pitch_y rows apart: one 3D copy */
        user.ysize = (size_t)(pitch_z / pitch_y);
        if (to_device) p.srcPtr = user; else p.dstPtr = user;
        GK_CUDA_TRY(cudaMemcpy3DAsync(&p, g->stream));
        return GK_OK;
    }
    /* otherwise a 2D copy per plane */
    size_t dplane = (size_t)g->px * (size_t)g->py;
    for (int z = 0; z < g->nz; z++) {
        double *u = grid + (size_t)z * (size_t)pitch_z;
        double *d = g->buf[g->cur] + (size_t)(z + ZOFF) * dplane + (size_t)g->px + XOFF;
        if (to_device)
            GK_CUDA_TRY(cudaMemcpy2DAsync(d, (size_t)g->px * sizeof(double), u, (size_t)pitch_y * sizeof(double),
                                          (size_t)g->nx * sizeof(double), (size_t)g->ny, cudaMemcpyDeviceToDevice,
                                          g->stream));
        else
            GK_CUDA_TRY(cudaMemcpy2DAsync(u, (size_t)pitch_y * sizeof(double), d, (size_t)g->px * sizeof(double),
                                          (size_t)g->nx * sizeof(double), (size_t)g->ny, cudaMemcpyDeviceToDevice,
                                          g->stream));
    }
    return GK_OK;
}

gk_status gk__stencil_gpu_upload(gk_stencil_gpu *g, const double *grid, float *ms)
{
    g->cur = 0;
    return timed_copy(g, (double *)grid, 1, ms);
}

gk_status gk__stencil_gpu_download(gk_stencil_gpu *g, double *grid, float *ms)
{
    return timed_copy(g, grid, 0, ms);
}

/* One launch of `nsteps` steps (nsteps > 1: DESIGN 2 only); swaps buffers. */
static gk_status launch(gk_stencil_gpu *g, int naive, int nsteps)
{
    cudaKernel_t k;
    dim3 grid, block;
    size_t smem = 0;
    if (naive) {
        k = g->k_naive;
        grid = gk__dim3((unsigned)(g->nx + 31) / 32, (unsigned)(g->ny + 7) / 8, (unsigned)g->nz);
        block = gk__dim3(32, 8, 1);
    } else {
        int ow = g->bx * g->rx, oh = g->by * g->ry;
        if (g->design == 2) {
            k = g->k_temporal[nsteps];
            if (!g->ring) {          /* overlapped tiles; RING: exact */
                ow -= 2 * (nsteps - 1);
                oh -= 2 * (nsteps - 1);
            }
        } else {
            k = g->design == 0 ? g->k_tile : g->k_stream;
        }
        grid = gk__dim3((unsigned)((g->nx + ow - 1) / ow), (unsigned)((g->ny + oh - 1) / oh),
                        (unsigned)((g->nz + g->zc - 1) / g->zc));
        block = gk__dim3((unsigned)g->bx, (unsigned)g->by, 1);
        smem = gk__stencil_smem_cfg(&g->cfg, g->design == 2 ? nsteps : 1);
    }
    int nx = g->nx, ny = g->ny, nz = g->nz, px = g->px, py = g->py;
    const double *in = origin(g, g->cur);
    double *out = origin(g, g->cur ^ 1);
    /* the temporal kernels take the TMA's map too (zeros when unused) */
    void *args[] = { &in, &out, &nx, &ny, &nz, &px, &py, &g->coeffs, &g->tin[g->cur][nsteps] };
    gk_status st = gk__gpu_launch(k, grid, block, smem, g->stream, args);
    if (!st)
        g->cur ^= 1;
    return st;
}

static gk_status run(gk_stencil_gpu *g, int naive, int steps, float *ms)
{
    gk_status st;
    if (steps < 0)
        return gk__fail(GK_EINVAL, "stencil: steps %d < 0", steps);
    if (naive && (g->ny / 8 + 1 > 65535 || g->nz > 65535))
        return gk__fail(GK_EINVAL, "naive stencil: grid too large for one launch");
    int per = !naive && g->design == 2 ? g->tsteps : 1;
    if ((st = gk__gpu_timer_start(&g->timer, g->stream))) return st;
    /* DESIGN 2: passes of TSTEPS steps, then one pass of the remainder */
    for (int s = 0; s < steps; s += per)
        if ((st = launch(g, naive, steps - s < per ? steps - s : per)))
            return st;
    float t;
    if ((st = gk__gpu_timer_stop(&g->timer, g->stream, &t))) return st;
    GK_CUDA_TRY(cudaGetLastError());
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__stencil_gpu_run(gk_stencil_gpu *g, int steps, float *ms) { return run(g, 0, steps, ms); }
gk_status gk__stencil_gpu_run_naive(gk_stencil_gpu *g, int steps, float *ms) { return run(g, 1, steps, ms); }

gk_status gk__stencil_gpu_fma_ceiling(gk_stencil_gpu *g, double *fma_per_s)
{
    gk_status st = GK_OK;
    unsigned blocks = (unsigned)g->dev.sm_count * 16;
    int iters = 8192;
    double a = 0.9999999, b = 1e-7, *out = NULL;
    void *args[] = { &out, &iters, &a, &b };
    GK_CUDA_TRY(cudaMalloc((void **)&out, (size_t)blocks * 256 * sizeof(double)));
    float t[6];
    for (int r = 0; r < 6 && !st; r++) {     /* the first is a warm-up */
        if ((st = gk__gpu_timer_start(&g->timer, g->stream))
            || (st = gk__gpu_launch(g->k_ceil, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, g->stream, args))
            || (st = gk__gpu_timer_stop(&g->timer, g->stream, &t[r])))
            break;
    }
    cudaFree(out);
    if (st) return st;
    double ms[5];
    for (int r = 0; r < 5; r++) ms[r] = t[r + 1];
    double med = gk__median(ms, 5, NULL);
    *fma_per_s = (double)blocks * 256.0 * iters * 8.0 / (med * 1e-3);   /* 8 = CEIL_CHAINS */
    return GK_OK;
}

gk_status gk__stencil_gpu_halo_max(gk_stencil_gpu *g, double *max_abs)
{
    size_t n = (size_t)g->elems;
    double *h = malloc(n * sizeof *h);
    if (!h)
        return gk__fail(GK_ENOMEM, "out of host memory for the halo check");
    cudaError_t e = cudaMemcpyAsync(h, g->buf[g->cur], n * sizeof *h, cudaMemcpyDeviceToHost, g->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(g->stream);
    if (e != cudaSuccess) {
        free(h);
        return gk__cuda_fail(e, "cudaMemcpy(halo check)");
    }
    double m = 0;
    for (int z = -1; z <= g->nz; z++)
        for (int y = -1; y <= g->ny; y++)
            for (int x = -1; x <= g->nx; x++) {
                int inside = x >= 0 && x < g->nx && y >= 0 && y < g->ny && z >= 0 && z < g->nz;
                if (inside) continue;
                double v = fabs(h[((size_t)(z + ZOFF) * g->py + (size_t)(y + 1)) * g->px + (size_t)(x + XOFF)]);
                if (!(v <= m)) m = v;   /* NaN counts */
            }
    free(h);
    *max_abs = m;
    return GK_OK;
}

/* ------------------------------------------------ slabs (stencil_multi.c) */

gk_status gk__stencil_gpu_enqueue(gk_stencil_gpu *g, int steps)
{
    if (steps < 0)
        return gk__fail(GK_EINVAL, "stencil: steps %d < 0", steps);
    int per = g->design == 2 ? g->tsteps : 1;
    for (int s = 0; s < steps; s += per) {
        gk_status st = launch(g, 0, steps - s < per ? steps - s : per);
        if (st) return st;
    }
    return GK_OK;
}

int gk__stencil_gpu_steps_per_pass(const gk_stencil_gpu *g)
{
    return g->design == 2 ? g->tsteps : 1;
}

double *gk__stencil_gpu_grid(const gk_stencil_gpu *g, int64_t *pitch_y, int64_t *pitch_z)
{
    *pitch_y = g->px;
    *pitch_z = (int64_t)g->px * g->py;
    return origin(g, g->cur);
}

double *gk__stencil_gpu_plane(gk_stencil_gpu *g, int z, size_t *plane_bytes)
{
    if (plane_bytes)
        *plane_bytes = (size_t)g->px * (size_t)g->py * sizeof(double);
    return g->buf[g->cur] + (size_t)(z + ZOFF) * (size_t)g->px * (size_t)g->py;
}

gk_status gk__stencil_gpu_copy_planes(gk_stencil_gpu *g, int z, int n, double *host, int to_device)
{
    if (z < 0 || n < 0 || z + n > g->nz)
        return gk__fail(GK_EINVAL, "stencil: planes %d..%d outside 0..%d", z, z + n - 1, g->nz - 1);
    if (!n)
        return GK_OK;
    struct cudaMemcpy3DParms p = copy_parms(g, host, to_device);
    p.extent.depth = (size_t)n;
    if (to_device)
        p.dstPos.z = (size_t)z + ZOFF;
    else
        p.srcPos.z = (size_t)z + ZOFF;
    GK_CUDA_TRY(cudaMemcpy3DAsync(&p, g->stream));
    GK_CUDA_TRY(cudaStreamSynchronize(g->stream));
    return GK_OK;
}
