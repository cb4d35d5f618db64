/* apsp_gpu.c - host side of the APSP GPU backend (its search space is
 * src/core/space_apsp.c): the padded device matrix, the three-phase launch
 * loop, the classic baseline and the min-plus ceiling (kernels in apsp.cu). */
#include "gpu/apsp_gpu.h"
#include "core/apsp_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_apsp_gpu {
    int32_t V;
    long long np;                 /* padded size and row pitch */
    int nt, tile, threads;
    size_t smem_mp, smem_piv, smem_mp3;
    gk_device_info dev;
    cudaStream_t stream;
    gk_config cfg;
    gk_gpu_module mod;
    cudaKernel_t pivot, minplus, mp3, fill, b1, b2, b3, ceil;
    int *d;
    /* the column panels' transposes (two panels of tile x np ints), written
       by phase 2 and read by gk_apsp_mp3 (phases 3 to 5); use_mp3 0: phases
       3 to 5 with gk_apsp_minplus instead (GK_APSP_MP3=0, for comparing) */
    int *at;
    int use_mp3;
    /* the 16-bit path (bits == 16): the padded uint16 matrix (pitch np16,
     * tile GK_APSP16_TILE) and a counter */
    int bits, nt16;
    long long np16;
    unsigned short *d16;
    unsigned long long *dcount;
    cudaKernel_t pivot16, minplus16, count16, ceil16;
    /* the initial matrix built from an edge list, the 16-bit rows widened */
    cudaKernel_t binit, bscatter, widen16;
    /* pinned staging buffers for the transfers */
    void *pin[2];
    /* device staging (2 x pin_bytes): edges on their way to the scatter,
       16-bit rows widened on their way down */
    char *dstage;
    size_t dhalf;                 /* its halves' offset: pin_bytes rounded up to 256 (aligned for int) */
    cudaEvent_t pin_ev[2];
    size_t pin_bytes;
    gk_gpu_timer timer;
    /* the lookahead (run_rounds): a high-priority side stream for phase 3's
       row and column k + 1 and phases 1 and 2 of round k + 1, and the events
       that order it with the main stream */
    int lookahead;
    size_t stage_bytes;           /* the staging chunk (gk__apsp_gpu_set_knobs); 0: STAGE_BYTES */
    cudaStream_t side;
    cudaEvent_t ev_side, ev_main;
    /* the typed kernels (issue 24; apsp.cu's "typed" section): element type
     * and predecessors of the context, xactive 1 when the rounds run them
     * (int32 without predecessors: only for negative weights, else the fast
     * path above), 64-wide tiles (xnt of them) on the matrix dx (pitch xnp;
     * int32: the fast path's d when its padding holds the 64-wide tiles),
     * predecessors dpred (pitch xnp), device words dflags (apsp.cu) */
    gk_dtype type;
    int with_pred, xactive, xnt;
    size_t esize;
    long long xnp;
    void *dx;
    int *dpred, *dflags;
    int own_dx;
    unsigned xthreads;
    size_t xsmem, xsmem_piv;
    cudaKernel_t xpivot, xmp, xfill, xpinit, xscan, xclean;
    /* int32 with predecessors: the packed product (apsp.cu, xops_i32pk)
     * for non-negative weights below its cap, and what the upload learnt:
     * xpacked 1 when this run uses it, xsaved a copy of the initial
     * matrix (pitch xnp) when entries at the cap may be finite (V times
     * the largest weight reaches the cap) and would need the general
     * product again; xno_pack: gk__apsp_gpu_set_packed(c, 0) */
    cudaKernel_t xmp_pk, xatcap, xrange;
    unsigned xthreads_pk;
    int xpacked, xno_pack;
    int *xsaved;
    unsigned long long *dcap;     /* the count at the cap; the range (2 ints) before */
};

static void stage_free(gk_apsp_gpu *c);

/* The context's knobs (gk_context_options: apsp_stage_bytes,
 * apsp_no_lookahead, apsp_no_mp3): the plain loop on one stream,
 * gk_apsp_minplus for phase 3; every variant gives the same result. */
void gk__apsp_gpu_set_knobs(gk_apsp_gpu *c, size_t stage_bytes, int lookahead, int mp3)
{
    c->stage_bytes = stage_bytes;
    c->lookahead = lookahead != 0;
    c->use_mp3 = mp3 != 0;
}

void gk__apsp_gpu_set_packed(gk_apsp_gpu *c, int on)
{
    c->xno_pack = !on;
}

int gk__apsp_gpu_packed(const gk_apsp_gpu *c)
{
    return c->xpacked;
}

void gk__apsp_gpu_set_stream(gk_apsp_gpu *c, cudaStream_t stream)
{
    c->stream = stream;
}

gk_status gk__apsp_gpu_open(gk_apsp_gpu **out, const gk_device_info *dev, cudaStream_t stream,
                            int32_t V, const gk_config *cfg)
{
    return gk__apsp_gpu_open_bits(out, dev, stream, V, cfg, 32);
}

static gk_status open_impl(gk_apsp_gpu **out, const gk_device_info *dev, cudaStream_t stream, int32_t V,
                           const gk_config *cfg, int bits, int alloc);

gk_status gk__apsp_gpu_open_bits(gk_apsp_gpu **out, const gk_device_info *dev, cudaStream_t stream,
                                 int32_t V, const gk_config *cfg, int bits)
{
    return open_impl(out, dev, stream, V, cfg, bits, 1);
}

/* alloc 0: no int32 (or 16-bit) matrix: a typed context of another type */
static gk_status open_impl(gk_apsp_gpu **out, const gk_device_info *dev, cudaStream_t stream, int32_t V,
                           const gk_config *cfg, int bits, int alloc)
{
    gk_status st;
    *out = NULL;
    if (V < 1)
        return gk__fail(GK_EINVAL, "APSP on the GPU: V = %d", V);
    gk_apsp_gpu *c = calloc(1, sizeof *c);
    if (!c)
        return gk__fail(GK_ENOMEM, "cannot allocate the GPU APSP context");
    c->dev = *dev;
    c->stream = stream;
    if ((st = gk__space_complete(&gk__space_apsp, cfg, &c->cfg)))
        goto fail;
    char why[256];
    if (gk__space_apsp.reject(&c->cfg, &c->dev, why, sizeof why)) {
        char text[256];
        gk__config_format(&c->cfg, text, sizeof text);
        st = gk__fail(GK_EINVAL, "apsp configuration %s cannot run on %s: %s", text, c->dev.name, why);
        goto fail;
    }
    c->V = V;
    c->tile = gk__param(&c->cfg, "APSP_TILE");
    c->threads = (int)gk__apsp_threads(&c->cfg);
    c->nt = (int)((V + c->tile - 1) / c->tile);
    c->np = (long long)c->nt * c->tile;
    c->smem_mp = gk__apsp_stage_smem(&c->cfg);
    {   /* MP_STAGES of apsp.cu: 3 stages of A^T and B chunks, 2 past 108 KiB */
        size_t bk = (size_t)gk__param(&c->cfg, "APSP_BK"), stage = 2 * bk * (size_t)c->tile * sizeof(int);
        c->smem_mp3 = (3 * stage <= 110592 ? 3 : 2) * stage;
        if (c->smem_mp3 > c->dev.smem_per_block_optin) {
            char text[256];
            gk__config_format(&c->cfg, text, sizeof text);
            st = gk__fail(GK_EINVAL, "apsp configuration %s cannot run on %s: phase 3 needs %zu bytes of shared memory "
                          "(%zu per block)", text, c->dev.name, c->smem_mp3, (size_t)c->dev.smem_per_block_optin);
            goto fail;
        }
    }
    c->smem_piv = gk__apsp_pivot_smem(&c->cfg);
    c->bits = bits == 16 ? 16 : 32;
    c->nt16 = (int)((V + GK_APSP16_TILE - 1) / GK_APSP16_TILE);
    c->np16 = (long long)c->nt16 * GK_APSP16_TILE;
    size_t bytes = (size_t)c->np * (size_t)c->np * sizeof(int), fr = 0, tot = 0;
    const size_t at_bytes = 2 * (size_t)c->tile * (size_t)c->np * sizeof(int);
    if (c->bits == 16)
        bytes = (size_t)c->np16 * (size_t)c->np16 * sizeof(unsigned short);
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (alloc && bytes + (c->bits == 16 ? 0 : at_bytes) > fr) {
        char need[32], have[32];
        st = gk__fail(GK_ENOMEM, "V = %d needs %s of GPU memory (padded to %lld x %lld int32); %s is free on %s",
                      V, gk__human_bytes((double)bytes, need, sizeof need), c->np, c->np,
                      gk__human_bytes((double)fr, have, sizeof have), c->dev.name);
        goto fail;
    }
    if ((st = gk__gpu_module_load(&gk__image_apsp, &gk__space_apsp, &c->cfg, &c->mod)))
        goto fail;
    if ((st = gk__gpu_kernel(&c->mod, "gk_apsp_pivot", &c->pivot))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_minplus", &c->minplus))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_mp3", &c->mp3))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_fill", &c->fill))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_base_p1", &c->b1))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_base_p2", &c->b2))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_base_p3", &c->b3))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_ceiling", &c->ceil))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_pivot", &c->pivot16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_minplus", &c->minplus16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_count", &c->count16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_ceiling", &c->ceil16))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_build_init", &c->binit))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp_build_scatter", &c->bscatter))
        || (st = gk__gpu_kernel(&c->mod, "gk_apsp16_widen", &c->widen16)))
        goto fail;
    if (!alloc) {
        /* the typed context allocates its own */
    } else if (c->bits == 16) {
        GK_CUDA_GOTO(cudaMalloc((void **)&c->d16, bytes), st, fail);
        GK_CUDA_GOTO(cudaMalloc((void **)&c->dcount, sizeof *c->dcount), st, fail);
    } else {
        GK_CUDA_GOTO(cudaMalloc((void **)&c->d, bytes), st, fail);
        GK_CUDA_GOTO(cudaMalloc((void **)&c->at, at_bytes), st, fail);
    }
    if ((st = gk__gpu_timer_init(&c->timer)))
        goto fail;
    c->lookahead = 1;
    c->use_mp3 = 1;
    {
        int least = 0, greatest = 0;
        GK_CUDA_GOTO(cudaDeviceGetStreamPriorityRange(&least, &greatest), st, fail);
        GK_CUDA_GOTO(cudaStreamCreateWithPriority(&c->side, cudaStreamNonBlocking, greatest), st, fail);
        GK_CUDA_GOTO(cudaEventCreateWithFlags(&c->ev_side, cudaEventDisableTiming), st, fail);
        GK_CUDA_GOTO(cudaEventCreateWithFlags(&c->ev_main, cudaEventDisableTiming), st, fail);
    }
    *out = c;
    return GK_OK;
fail:
    gk__apsp_gpu_close(c);
    return st;
}

void gk__apsp_gpu_close(gk_apsp_gpu *c)
{
    if (!c) return;
    gk__gpu_timer_free(&c->timer);
    if (c->side) cudaStreamDestroy(c->side);
    if (c->ev_side) cudaEventDestroy(c->ev_side);
    if (c->ev_main) cudaEventDestroy(c->ev_main);
    if (c->d) cudaFree(c->d);
    if (c->at) cudaFree(c->at);
    if (c->d16) cudaFree(c->d16);
    if (c->own_dx && c->dx) cudaFree(c->dx);
    if (c->dpred) cudaFree(c->dpred);
    if (c->dflags) cudaFree(c->dflags);
    if (c->xsaved) cudaFree(c->xsaved);
    if (c->dcap) cudaFree(c->dcap);
    stage_free(c);
    if (c->dcount) cudaFree(c->dcount);
    gk__gpu_module_unload(&c->mod);
    free(c);
}

/* ---- transfers through pinned staging buffers ----
 * Rows move in chunks of about STAGE_BYTES through two pinned host buffers:
 * the host threads convert or copy chunk i + 1 while the copy engine moves
 * chunk i, so a transfer runs at pinned-memory speed instead of the driver's
 * pageable path, and the 16-bit path moves half the bytes (narrowed on the
 * way up, widened on the way down: the cap becomes INF). */
#define STAGE_BYTES ((size_t)32 << 20)

static gk_status stage_init(gk_apsp_gpu *c)
{
    if (c->pin[0])
        return GK_OK;
    size_t row = (size_t)c->V * sizeof(int32_t), want = STAGE_BYTES;
    /* a testing knob: small chunks, so that a small matrix takes several */
    if (c->stage_bytes)
        want = c->stage_bytes;
    c->pin_bytes = row > want ? row : want;
    if (c->pin_bytes < 12)
        c->pin_bytes = 12;     /* at least one edge of gk__apsp_gpu_build */
    for (int b = 0; b < 2; b++) {
        GK_CUDA_TRY(cudaHostAlloc(&c->pin[b], c->pin_bytes, cudaHostAllocDefault));
        GK_CUDA_TRY(cudaEventCreateWithFlags(&c->pin_ev[b], cudaEventDisableTiming));
    }
    return GK_OK;
}

static void stage_free(gk_apsp_gpu *c)
{
    if (c->dstage) cudaFree(c->dstage);
    c->dstage = NULL;
    for (int b = 0; b < 2; b++) {
        if (c->pin[b]) cudaFreeHost(c->pin[b]);
        if (c->pin_ev[b]) cudaEventDestroy(c->pin_ev[b]);
        c->pin[b] = NULL;
        c->pin_ev[b] = NULL;
    }
}

/* Host rows r0 .. r0 + m - 1 of dist into a staging buffer: as they are, or
 * clamped to the cap as uint16. */
static void stage_pack(const gk_apsp_gpu *c, void *pin, const int32_t *dist, int64_t r0, int64_t m)
{
    const int64_t V = c->V;
    if (c->bits == 16) {
        uint16_t *o = pin;
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < m; r++) {
            const int32_t *in = dist + (r0 + r) * V;
            uint16_t *out = o + r * V;
            for (int64_t j = 0; j < V; j++)
                out[j] = (uint16_t)(in[j] < GK_APSP16_CAP ? in[j] : GK_APSP16_CAP);
        }
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < m; r++)
            memcpy((int32_t *)pin + r * V, dist + (r0 + r) * V, (size_t)V * sizeof(int32_t));
    }
}

static void stage_unpack(const gk_apsp_gpu *c, const void *pin, int32_t *dist, int64_t r0, int64_t m)
{
    const int64_t V = c->V;
    if (c->bits == 16) {
        const uint16_t *in = pin;
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < m; r++) {
            const uint16_t *x = in + r * V;
            int32_t *out = dist + (r0 + r) * V;
            for (int64_t j = 0; j < V; j++)
                out[j] = x[j] == GK_APSP16_CAP ? GK_APSP_INF : (int32_t)x[j];
        }
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < m; r++)
            memcpy(dist + (r0 + r) * V, (const int32_t *)pin + r * V, (size_t)V * sizeof(int32_t));
    }
}

/* The device rows: base pointer, pitch in bytes, element size. */
static void dev_rows(const gk_apsp_gpu *c, char **base, size_t *pitch, size_t *elt)
{
    *elt = c->bits == 16 ? sizeof(uint16_t) : sizeof(int32_t);
    *base = c->bits == 16 ? (char *)c->d16 : (char *)c->d;
    *pitch = (size_t)(c->bits == 16 ? c->np16 : c->np) * *elt;
}

gk_status gk__apsp_gpu_upload(gk_apsp_gpu *c, const int32_t *dist, float *ms)
{
    gk_status st;
    char *base;
    size_t pitch, elt;
    dev_rows(c, &base, &pitch, &elt);
    if ((st = stage_init(c)))
        return st;
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    long long np = c->bits == 16 ? c->np16 : c->np;
    if (np != c->V) {   /* the padding: INF (the cap in 16 bits), so padded vertices add no path */
        long long n = c->bits == 16 ? np * np / 2 : np * np;   /* np16 is even: pairs of uint16 */
        int v = c->bits == 16 ? (int)(GK_APSP16_CAP | (GK_APSP16_CAP << 16)) : GK_APSP_INF;
        void *dptr = base;
        void *args[] = { &dptr, &n, &v };
        if ((st = gk__gpu_launch(c->fill, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                 c->stream, args)))
            return st;
    }
    const size_t row = (size_t)c->V * elt;
    const int64_t per = (int64_t)(c->pin_bytes / row), V = c->V;
    for (int64_t r0 = 0, i = 0; r0 < V; r0 += per, i++) {
        const int b = (int)(i & 1);
        const int64_t m = V - r0 < per ? V - r0 : per;
        if (i >= 2)   /* the copy that last used this buffer is done */
            GK_CUDA_TRY(cudaEventSynchronize(c->pin_ev[b]));
        stage_pack(c, c->pin[b], dist, r0, m);
        GK_CUDA_TRY(cudaMemcpy2DAsync(base + (size_t)r0 * pitch, pitch, c->pin[b], row, row, (size_t)m,
                                      cudaMemcpyHostToDevice, c->stream));
        GK_CUDA_TRY(cudaEventRecord(c->pin_ev[b], c->stream));
    }
    return gk__gpu_timer_stop(&c->timer, c->stream, ms);
}

/* Only for a 16-bit result whose entries at the cap are known to be
 * unreachable: they come back as INF. */
gk_status gk__apsp_gpu_stage(gk_apsp_gpu *c)
{
    gk_status st = stage_init(c);
    if (!st && !c->dstage) {
        /* pin_bytes may be any size (GK_APSP_STAGE_BYTES): the second half
           starts aligned */
        c->dhalf = (c->pin_bytes + 255) & ~(size_t)255;
        GK_CUDA_TRY(cudaMalloc((void **)&c->dstage, 2 * c->dhalf));
    }
    return st;
}

gk_status gk__apsp_gpu_build(gk_apsp_gpu *c, const int32_t *edges, int64_t E, int undirected, float *ms)
{
    gk_status st;
    char *base;
    size_t pitch, elt;
    dev_rows(c, &base, &pitch, &elt);
    if ((st = gk__apsp_gpu_stage(c)))
        return st;
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    long long np = (long long)(pitch / elt);
    int bits = c->bits, V = c->V, und = undirected != 0;
    void *dptr = base;
    {
        void *args[] = { &dptr, &bits, &np, &V };
        unsigned blocks = (unsigned)(np < (long long)c->dev.sm_count * 16 ? np : (long long)c->dev.sm_count * 16);
        if ((st = gk__gpu_launch(c->binit, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, c->stream, args)))
            return st;
    }
    /* the edges in chunks: host -> pinned buffer b (host threads) -> device
       staging half b (copy engine) -> scatter, the next chunk packed while
       this one moves */
    const int64_t per = (int64_t)(c->pin_bytes / 12);
    for (int64_t e0 = 0, i = 0; e0 < E; e0 += per, i++) {
        const int b = (int)(i & 1);
        const int64_t m = E - e0 < per ? E - e0 : per;
        if (i >= 2)   /* the copy that last used this buffer is done */
            GK_CUDA_TRY(cudaEventSynchronize(c->pin_ev[b]));
        const int32_t *src = edges + 3 * e0;
        int32_t *pin = c->pin[b];
#pragma omp parallel for schedule(static)
        for (int64_t k = 0; k < 3 * m; k += 1 << 16) {
            int64_t n = 3 * m - k < (1 << 16) ? 3 * m - k : (1 << 16);
            memcpy(pin + k, src + k, (size_t)n * sizeof *pin);
        }
        char *dst = c->dstage + (size_t)b * c->dhalf;
        GK_CUDA_TRY(cudaMemcpyAsync(dst, pin, (size_t)m * 12, cudaMemcpyHostToDevice, c->stream));
        GK_CUDA_TRY(cudaEventRecord(c->pin_ev[b], c->stream));
        long long mm = m;
        void *eptr = dst;
        void *args[] = { &dptr, &bits, &np, &eptr, &mm, &und };
        if ((st = gk__gpu_launch(c->bscatter, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                 c->stream, args)))
            return st;
    }
    return gk__gpu_timer_stop(&c->timer, c->stream, ms);
}

/* The result's rows in chunks through the two pinned buffers: the copy of
 * chunk i + 1 is queued (queue: on the stream, into pinned buffer b) before
 * chunk i is handed over (take: pinned buffer b holds rows r0 .. r0+m-1),
 * so the copy engine (and the widening kernel) work while the host does.
 * row: the bytes of one row in a pinned buffer.  Timed with c's timer. */
typedef gk_status (*rows_fn)(gk_apsp_gpu *c, int b, int64_t r0, int64_t m, void *arg);

static gk_status through_pinned(gk_apsp_gpu *c, size_t row, rows_fn queue, rows_fn take, void *arg, float *ms)
{
    gk_status st;
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    const int64_t per = (int64_t)(c->pin_bytes / row), V = c->V;
    const int64_t chunks = (V + per - 1) / per;
    for (int64_t i = 0; i <= chunks; i++) {
        if (i < chunks) {
            const int b = (int)(i & 1);
            const int64_t r0 = i * per, m = V - r0 < per ? V - r0 : per;
            if ((st = queue(c, b, r0, m, arg))) {
                cudaStreamSynchronize(c->stream);
                return st;
            }
            GK_CUDA_TRY(cudaEventRecord(c->pin_ev[b], c->stream));
        }
        if (i >= 1) {
            const int64_t j = i - 1, r0 = j * per, m = V - r0 < per ? V - r0 : per;
            const int b = (int)(j & 1);
            GK_CUDA_TRY(cudaEventSynchronize(c->pin_ev[b]));
            if ((st = take(c, b, r0, m, arg))) {
                cudaStreamSynchronize(c->stream);   /* no copy left into the buffers */
                return st;
            }
        }
    }
    return gk__gpu_timer_stop(&c->timer, c->stream, ms);
}

/* The device rows as they are (int32 or 16-bit, pitched) into pinned buffer b. */
static gk_status queue_raw(gk_apsp_gpu *c, int b, int64_t r0, int64_t m, void *arg)
{
    (void)arg;
    char *base;
    size_t pitch, elt;
    dev_rows(c, &base, &pitch, &elt);
    const size_t row = (size_t)c->V * elt;
    GK_CUDA_TRY(cudaMemcpy2DAsync(c->pin[b], row, base + (size_t)r0 * pitch, pitch, row, (size_t)m,
                                  cudaMemcpyDeviceToHost, c->stream));
    return GK_OK;
}

/* int32 rows into pinned buffer b: 16-bit ones widened on the device
 * first (into staging half b), int32 ones copied as they are. */
static gk_status queue_int32(gk_apsp_gpu *c, int b, int64_t r0, int64_t m, void *arg)
{
    if (c->bits != 16)
        return queue_raw(c, b, r0, m, arg);
    void *out = c->dstage + (size_t)b * c->dhalf;
    long long pitch16 = c->np16, rr0 = r0, mm = m;
    int Vi = c->V;
    void *args[] = { &out, &c->d16, &pitch16, &rr0, &mm, &Vi };
    unsigned blocks = (unsigned)(m < (int64_t)c->dev.sm_count * 8 ? m : (int64_t)c->dev.sm_count * 8);
    gk_status st = gk__gpu_launch(c->widen16, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, c->stream, args);
    if (st)
        return st;
    GK_CUDA_TRY(cudaMemcpyAsync(c->pin[b], out, (size_t)m * (size_t)c->V * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                c->stream));
    return GK_OK;
}

typedef struct {
    gk_status (*each)(void *arg, const int32_t *rows, int64_t r0, int64_t m);
    void *arg;
} rows_job;

static gk_status take_rows(gk_apsp_gpu *c, int b, int64_t r0, int64_t m, void *arg)
{
    rows_job *J = arg;
    return J->each(J->arg, (const int32_t *)c->pin[b], r0, m);
}

gk_status gk__apsp_gpu_download_rows(gk_apsp_gpu *c, float *ms,
                                     gk_status (*each)(void *arg, const int32_t *rows, int64_t r0, int64_t m),
                                     void *arg)
{
    gk_status st;
    if ((st = gk__apsp_gpu_stage(c)))
        return st;
    rows_job J = { each, arg };
    return through_pinned(c, (size_t)c->V * sizeof(int32_t), queue_int32, take_rows, &J, ms);
}

gk_status gk__apsp_gpu_download(gk_apsp_gpu *c, int32_t *dist, float *ms)
{
    return gk__apsp_gpu_download_each(c, dist, ms, NULL, NULL);
}

typedef struct {
    int32_t *dist;
    gk_status (*each)(void *arg, int64_t r0, int64_t m);
    void *arg;
} unpack_job;

/* Rows r0 .. r0+m-1 unpacked into the host matrix, final: the caller
 * writes them while the next chunk's copy runs. */
static gk_status take_unpacked(gk_apsp_gpu *c, int b, int64_t r0, int64_t m, void *arg)
{
    unpack_job *J = arg;
    stage_unpack(c, c->pin[b], J->dist, r0, m);
    return J->each ? J->each(J->arg, r0, m) : GK_OK;
}

gk_status gk__apsp_gpu_download_each(gk_apsp_gpu *c, int32_t *dist, float *ms,
                                     gk_status (*each)(void *arg, int64_t r0, int64_t m), void *arg)
{
    gk_status st;
    char *base;
    size_t pitch, elt;
    dev_rows(c, &base, &pitch, &elt);
    if ((st = stage_init(c)))
        return st;
    unpack_job J = { dist, each, arg };
    return through_pinned(c, (size_t)c->V * elt, queue_raw, take_unpacked, &J, ms);
}

/* The rounds of the blocked Floyd-Warshall on one matrix (the timer already
 * started on the main stream; args = { matrix, &pitch, k, phase }).
 * Without the lookahead: phases 1, 2, 3 of each round on the main stream.
 * With it, phase 3 of round k is split: its tiles of row and column k + 1
 * (phase 4) run on the high-priority side stream, followed there by phases
 * 1 and 2 of round k + 1, while the main stream updates every other tile
 * (phase 5); so the main stream goes from one round's phase 3 to the next
 * without waiting for the serial pivot.  Order: phase 5 of round k waits
 * for phase 2 of round k (event ev_side); phase 4 of round k + 1 for phase 5
 * of round k (ev_main), the last writer of row and column k + 2.  The last
 * round's phase 3 (main stream) waits for the side stream's last phase 2,
 * so the side stream's work is inside the main stream's timer.  Each tile
 * gets the same updates, from the same tiles, in the same order. */
static gk_status run_rounds(gk_apsp_gpu *c, cudaKernel_t pivot, cudaKernel_t minplus, cudaKernel_t mp3, int nt,
                            int tile, size_t smem_piv, size_t smem, size_t smem3, unsigned threads, int *k, int *phase,
                            int *kend, void **args)
{
    /* the last round's pivot tile holds V - (nt - 1) * tile vertices, the
       rest is padding: phases 2 and 3 skip its k values there */
    const int last_kend = c->V - (nt - 1) * tile;
    *kend = tile;
    gk_status st;
    const dim3 one = gk__dim3(1, 1, 1), piv = gk__dim3(1024, 1, 1), blk = gk__dim3(threads, 1, 1);
    const dim3 edge = gk__dim3((unsigned)nt, 2, 1), all = gk__dim3((unsigned)nt, (unsigned)nt, 1);
    if (!c->lookahead || nt < 3) {
        /* nt < 3: nothing for phase 5 to overlap with */
        for (*k = 0; *k < nt; (*k)++) {
            if (*k == nt - 1)
                *kend = last_kend;
            if ((st = gk__gpu_launch(pivot, one, piv, smem_piv, c->stream, args)))
                return st;
            if (nt == 1)
                break;
            *phase = 2;
            if ((st = gk__gpu_launch(minplus, edge, blk, smem, c->stream, args)))
                return st;
            *phase = 3;
            if ((st = gk__gpu_launch(mp3, all, blk, smem3, c->stream, args)))
                return st;
        }
        return GK_OK;
    }
    const dim3 rest = gk__dim3((unsigned)nt - 2, (unsigned)nt - 2, 1);
    /* round 0's phases 1 and 2: nothing to overlap */
    *k = 0;
    *phase = 2;
    if ((st = gk__gpu_launch(pivot, one, piv, smem_piv, c->stream, args))
        || (st = gk__gpu_launch(minplus, edge, blk, smem, c->stream, args)))
        return st;
    GK_CUDA_TRY(cudaEventRecord(c->ev_side, c->stream));
    for (int r = 0; r < nt; r++) {
        *k = r;
        /* phase 2 of round r done (round 0: on the main stream itself) */
        GK_CUDA_TRY(cudaStreamWaitEvent(c->stream, c->ev_side, 0));
        if (r == nt - 1) {
            *kend = last_kend;
            *phase = 3;
            if ((st = gk__gpu_launch(mp3, all, blk, smem3, c->stream, args)))
                return st;
            break;
        }
        /* the side stream: round r's phase 3 on row and column r + 1, once
         * round r - 1's phase 3 is done (round 0: once phase 2 is) */
        GK_CUDA_TRY(cudaStreamWaitEvent(c->side, r ? c->ev_main : c->ev_side, 0));
        *phase = 4;
        if ((st = gk__gpu_launch(mp3, edge, blk, smem3, c->side, args)))
            return st;
        *k = r + 1;
        *phase = 2;
        if (r + 1 == nt - 1)
            *kend = last_kend;
        if ((st = gk__gpu_launch(pivot, one, piv, smem_piv, c->side, args))
            || (st = gk__gpu_launch(minplus, edge, blk, smem, c->side, args)))
            return st;
        GK_CUDA_TRY(cudaEventRecord(c->ev_side, c->side));
        /* the main stream: the rest of round r's phase 3 */
        *k = r;
        *kend = tile;
        *phase = 5;
        if ((st = gk__gpu_launch(mp3, rest, blk, smem3, c->stream, args)))
            return st;
        GK_CUDA_TRY(cudaEventRecord(c->ev_main, c->stream));
    }
    return GK_OK;
}

/* The rounds on the 16-bit matrix (the timer already started). */
static gk_status run16(gk_apsp_gpu *c, float *ms)
{
    gk_status st;
    long long pitch = c->np16;
    int k, phase, kend;
    void *args[] = { &c->d16, &pitch, &k, &phase, &kend };   /* the kernels' arguments: the 16-bit ones have no at */
    size_t smem_piv = (size_t)GK_APSP16_TILE * GK_APSP16_TILE * sizeof(unsigned short);
    const size_t smem = gk__apsp16_smem(&c->cfg);
    if ((st = run_rounds(c, c->pivot16, c->minplus16, c->minplus16, c->nt16, GK_APSP16_TILE, smem_piv, smem, smem,
                         (unsigned)gk__apsp16_threads(&c->cfg), &k, &phase, &kend, args)))
        return st;
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    GK_CUDA_TRY(cudaGetLastError());
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__apsp_gpu_count_cap(gk_apsp_gpu *c, int64_t *count)
{
    gk_status st;
    unsigned long long n = 0;
    long long pitch = c->np16;
    int32_t V = c->V;
    void *args[] = { &c->d16, &pitch, &V, &c->dcount };
    if (c->bits != 16)
        return gk__fail(GK_EINTERNAL, "gk__apsp_gpu_count_cap on a 32-bit context");
    GK_CUDA_TRY(cudaMemsetAsync(c->dcount, 0, sizeof *c->dcount, c->stream));
    if ((st = gk__gpu_launch(c->count16, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                             c->stream, args)))
        return st;
    GK_CUDA_TRY(cudaMemcpyAsync(&n, c->dcount, sizeof n, cudaMemcpyDeviceToHost, c->stream));
    GK_CUDA_TRY(cudaStreamSynchronize(c->stream));
    *count = (int64_t)n;
    return GK_OK;
}

gk_status gk__apsp_gpu_download16(gk_apsp_gpu *c, uint16_t *m16, float *ms)
{
    gk_status st;
    if (c->bits != 16)
        return gk__fail(GK_EINTERNAL, "gk__apsp_gpu_download16 on a 32-bit context");
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(m16, (size_t)c->V * sizeof *m16, c->d16, (size_t)c->np16 * sizeof *m16,
                                  (size_t)c->V * sizeof *m16, (size_t)c->V, cudaMemcpyDeviceToHost, c->stream));
    return gk__gpu_timer_stop(&c->timer, c->stream, ms);
}

static gk_status enqueue_rounds(gk_apsp_gpu *c, int *d, long long pitch);

gk_status gk__apsp_gpu_run(gk_apsp_gpu *c, float *ms)
{
    gk_status st;
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    if (c->bits == 16)
        return run16(c, ms);
    /* phase 2 writes the column panel's transpose (c->at), mp3 reads it */
    if ((st = enqueue_rounds(c, c->d, c->np)))
        return st;
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    GK_CUDA_TRY(cudaGetLastError());
    if (ms) *ms = t;
    return GK_OK;
}

/* The int32 rounds on matrix d (pitch elements between rows), enqueued. */
static gk_status enqueue_rounds(gk_apsp_gpu *c, int *d, long long pitch)
{
    int k, phase, kend;
    int *at = c->at;
    void *args[] = { &d, &pitch, &k, &phase, &kend, &at };
    return run_rounds(c, c->pivot, c->minplus, c->use_mp3 ? c->mp3 : c->minplus, c->nt, c->tile, c->smem_piv,
                      c->smem_mp, c->use_mp3 ? c->smem_mp3 : c->smem_mp, (unsigned)c->threads, &k, &phase, &kend,
                      args);
}

gk_status gk__apsp_gpu_exec_device(gk_apsp_gpu *c, int32_t *dist, int64_t ld)
{
    gk_status st;
    if (c->bits != 32)
        return gk__fail(GK_EINTERNAL, "gk__apsp_gpu_exec_device on a 16-bit context");
    /* In place when the matrix is what the kernels read: no padding (V a
     * multiple of the tile), rows at the padded pitch, 16-byte aligned (the
     * kernels' cp.async and vector loads). */
    if (c->np == c->V && ld == c->np && ((uintptr_t)dist & 15) == 0)
        return enqueue_rounds(c, dist, (long long)ld);
    const size_t row = (size_t)c->V * sizeof(int32_t), pitch = (size_t)c->np * sizeof(int32_t);
    if (c->np != c->V) {   /* the padding: INF, so padded vertices add no path */
        long long n = c->np * c->np;
        int v = GK_APSP_INF;
        void *dptr = c->d;
        void *args[] = { &dptr, &n, &v };
        if ((st = gk__gpu_launch(c->fill, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                 c->stream, args)))
            return st;
    }
    GK_CUDA_TRY(cudaMemcpy2DAsync(c->d, pitch, dist, (size_t)ld * sizeof(int32_t), row, (size_t)c->V,
                                  cudaMemcpyDeviceToDevice, c->stream));
    if ((st = enqueue_rounds(c, c->d, c->np)))
        return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(dist, (size_t)ld * sizeof(int32_t), c->d, pitch, row, (size_t)c->V,
                                  cudaMemcpyDeviceToDevice, c->stream));
    return GK_OK;
}

gk_status gk__apsp_gpu_run_baseline(gk_apsp_gpu *c, float *ms)
{
    gk_status st;
    if (c->np % 64)
        return gk__fail(GK_EINVAL, "the baseline needs a padded size divisible by 64 (have %lld)", c->np);
    long long pitch = c->np;
    int k;
    void *args[] = { &c->d, &pitch, &k };
    unsigned nb = (unsigned)(c->np / 64);
    dim3 blk = gk__dim3(32, 32, 1);
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    for (k = 0; k < (int)nb; k++) {
        if ((st = gk__gpu_launch(c->b1, gk__dim3(1, 1, 1), blk, 0, c->stream, args))
            || (st = gk__gpu_launch(c->b2, gk__dim3(nb, 2, 1), blk, 0, c->stream, args))
            || (st = gk__gpu_launch(c->b3, gk__dim3(nb, nb, 1), blk, 0, c->stream, args)))
            return st;
    }
    return gk__gpu_timer_stop(&c->timer, c->stream, ms);
}

/* A ceiling kernel's rate: blocks x 256 threads, each 16 chains
 * (CEIL_CHAINS) of `iters` steps of `per_step` min-plus updates; the best of
 * five timed runs after a warm-up. */
static gk_status ceiling_rate(gk_apsp_gpu *c, cudaKernel_t k, double per_step, double *per_s)
{
    gk_status st = GK_OK;
    unsigned blocks = (unsigned)c->dev.sm_count * 32;
    int iters = 4096, seed = 1;
    int32_t *out = NULL;        /* int (int32) or unsigned (16x2) per thread */
    void *args[] = { &out, &iters, &seed };
    GK_CUDA_TRY(cudaMalloc((void **)&out, (size_t)blocks * 256 * sizeof *out));
    float best = 0;
    for (int r = 0; r < 6; r++) {   /* the first is a warm-up */
        float t;
        if ((st = gk__gpu_timer_start(&c->timer, c->stream))
            || (st = gk__gpu_launch(k, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, c->stream, args))
            || (st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
            break;
        if (r && (best == 0 || t < best)) best = t;
    }
    cudaFree(out);
    if (st) return st;
    *per_s = (double)blocks * 256.0 * iters * 16.0 * per_step / (best * 1e-3);   /* 16 = CEIL_CHAINS */
    return GK_OK;
}

gk_status gk__apsp_gpu_ceiling(gk_apsp_gpu *c, double *per_s)
{
    return ceiling_rate(c, c->ceil, 1.0, per_s);
}

/* two updates per __viaddmin_u16x2 */
gk_status gk__apsp_gpu_ceiling16(gk_apsp_gpu *c, double *per_s)
{
    return ceiling_rate(c, c->ceil16, 2.0, per_s);
}

/* ---- the typed kernels (issue 24) ----
 * Element types int32, int64, float32, float64, with or without
 * predecessors; one kernel template of apsp.cu (its "typed" section) at the
 * ordered tile 64, so that float results and predecessors are the CPU's bit
 * for bit.  int32 without predecessors keeps the fast path (any tile) unless
 * the upload finds a negative weight. */
#define X_TILE 64   /* X_T of apsp.cu, GK_APSP_ORDER_TILE */


/* xmp of apsp.cu: TM x TN outputs per thread from the configuration
 * (gk__apsp_typed_shape: the APSPX_* parameters); A^T and B at row pitch
 * 64 + 16 / esize, B's predecessors. */
static void xmp_shape(const gk_config *cfg, gk_dtype t, int pred, unsigned *threads, size_t *smem, size_t *smem_piv)
{
    const size_t es = gk_dtype_size(t);
    int tm, tn;
    gk__apsp_typed_shape(cfg, t, pred, &tm, &tn);
    *threads = (unsigned)((X_TILE / tn) * (X_TILE / tm));
    *smem = 2 * (size_t)X_TILE * (X_TILE + 16 / es) * es + (pred ? (size_t)X_TILE * X_TILE * sizeof(int) : 0);
    *smem_piv = (size_t)X_TILE * X_TILE * es + (pred ? (size_t)X_TILE * X_TILE * sizeof(int) : 0);
}

static gk_status x_kernel(gk_apsp_gpu *c, const char *what, gk_dtype t, const char *suf, cudaKernel_t *k)
{
    char name[64];
    snprintf(name, sizeof name, "gk_apspx_%s_%s%s", what, gk__apsp_dtype_suffix(t), suf);
    return gk__gpu_kernel(&c->mod, name, k);
}

gk_status gk__apsp_gpu_open_typed(gk_apsp_gpu **out, const gk_device_info *dev, cudaStream_t stream, int32_t V,
                                  gk_dtype t, int with_pred, const gk_config *cfg)
{
    gk_status st;
    *out = NULL;
    if (!gk__apsp_dtype_suffix(t))
        return gk__fail(GK_EINVAL, "APSP on the GPU: element type %d is not int32, int64, float32 or float64", (int)t);
    const int is32 = t == GK_DTYPE_INT32;
    if ((st = open_impl(out, dev, stream, V, cfg, 32, is32)))
        return st;
    gk_apsp_gpu *c = *out;
    c->type = t;
    c->with_pred = with_pred != 0;
    c->esize = gk_dtype_size(t);
    c->xnt = (int)((V + X_TILE - 1) / X_TILE);
    xmp_shape(&c->cfg, t, c->with_pred, &c->xthreads, &c->xsmem, &c->xsmem_piv);
    const char *suf = c->with_pred ? "_p" : "";
    if ((st = x_kernel(c, "pivot", t, suf, &c->xpivot)) || (st = x_kernel(c, "mp", t, suf, &c->xmp))
        || (st = x_kernel(c, "fill", t, "", &c->xfill)) || (st = x_kernel(c, "pinit", t, "", &c->xpinit))
        || (st = x_kernel(c, "scan", t, "", &c->xscan)))
        goto fail;
    if ((t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64) && (st = x_kernel(c, "clean", t, "", &c->xclean)))
        goto fail;
    if (is32 && c->with_pred) {
        size_t smem_unused, piv_unused;
        xmp_shape(&c->cfg, t, 0, &c->xthreads_pk, &smem_unused, &piv_unused);
        if ((st = gk__gpu_kernel(&c->mod, "gk_apspx_mp_i32_pk", &c->xmp_pk))
            || (st = gk__gpu_kernel(&c->mod, "gk_apspx_atcap_i32", &c->xatcap))
            || (st = gk__gpu_kernel(&c->mod, "gk_apspx_range_i32", &c->xrange)))
            goto fail;
        GK_CUDA_GOTO(cudaMalloc((void **)&c->dcap, sizeof *c->dcap), st, fail);
    }
    if (c->xsmem > c->dev.smem_per_block_optin) {
        st = gk__fail(GK_EINVAL, "APSP %s on %s: the kernel needs %zu bytes of shared memory (%zu per block)",
                      gk_dtype_name(t), c->dev.name, c->xsmem, (size_t)c->dev.smem_per_block_optin);
        goto fail;
    }
    /* int32: the 64-wide tiles on the fast path's matrix when its padding
     * holds them (the default tile 128 does), else a matrix of their own */
    const long long np64 = (long long)c->xnt * X_TILE;
    size_t need = 0, fr = 0, tot = 0;
    if (!(is32 && c->np >= np64))
        need += (size_t)np64 * (size_t)np64 * c->esize;
    c->xnp = is32 && c->np >= np64 ? c->np : np64;
    if (c->with_pred)
        need += (size_t)c->xnp * (size_t)c->xnp * sizeof(int32_t);
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (need > fr) {
        char n1[32], n2[32];
        st = gk__fail(GK_ENOMEM, "APSP %s%s, V = %d, needs %s more GPU memory; %s is free on %s", gk_dtype_name(t),
                      c->with_pred ? " with predecessors" : "", V, gk__human_bytes((double)need, n1, sizeof n1),
                      gk__human_bytes((double)fr, n2, sizeof n2), c->dev.name);
        goto fail;
    }
    if (is32 && c->xnp == c->np) {
        c->dx = c->d;
    } else {
        GK_CUDA_GOTO(cudaMalloc(&c->dx, (size_t)c->xnp * (size_t)c->xnp * c->esize), st, fail);
        c->own_dx = 1;
    }
    if (c->with_pred)
        GK_CUDA_GOTO(cudaMalloc((void **)&c->dpred, (size_t)c->xnp * (size_t)c->xnp * sizeof(int32_t)), st, fail);
    GK_CUDA_GOTO(cudaMalloc((void **)&c->dflags, 2 * sizeof(int)), st, fail);
    return GK_OK;
fail:
    gk__apsp_gpu_close(c);
    *out = NULL;
    return st;
}

static unsigned grid_for(const gk_apsp_gpu *c, long long rows)
{
    long long most = (long long)c->dev.sm_count * 8;
    return (unsigned)(rows < 1 ? 1 : rows < most ? rows : most);
}

/* After the matrix is in dx: the flags reset (no negative seen, no cycle:
 * 0x7f7f7f7f >= V), the device scan for negative weights, the
 * predecessors initialised.  Enqueued. */
static gk_status x_prepare(gk_apsp_gpu *c)
{
    gk_status st;
    GK_CUDA_TRY(cudaMemsetAsync(c->dflags, 0, sizeof(int), c->stream));
    GK_CUDA_TRY(cudaMemsetAsync(c->dflags + 1, 0x7f, sizeof(int), c->stream));
    long long pitch = c->xnp, np = (long long)c->xnt * X_TILE;
    int V = c->V;
    {
        void *args[] = { &c->dx, &pitch, &V, &c->dflags };
        if ((st = gk__gpu_launch(c->xscan, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                 c->stream, args)))
            return st;
    }
    if (c->with_pred) {
        void *args[] = { &c->dx, &pitch, &c->dpred, &pitch, &V, &np };
        if ((st = gk__gpu_launch(c->xpinit, gk__dim3(grid_for(c, np), 1, 1), gk__dim3(256, 1, 1), 0, c->stream,
                                 args)))
            return st;
    }
    return GK_OK;
}

/* The padding of dx at INF (the whole matrix: the copy overwrites the rest). */
static gk_status x_fill(gk_apsp_gpu *c)
{
    if (c->xnp == c->V)
        return GK_OK;
    long long n = c->xnp * c->xnp;
    void *args[] = { &c->dx, &n };
    return gk__gpu_launch(c->xfill, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0, c->stream,
                          args);
}

/* The packed product's cap (XP_CAP of apsp.cu). */
#define X_PACK_CAP 16777215

/* int32 with predecessors, the matrix in dx: the packed product when every
 * weight is non-negative and below its cap (the device finds the smallest
 * entry and the largest finite one: milliseconds, where a scan of the host
 * matrix took a few tenths of a second at V = 25000).  When V times the
 * largest weight is below the cap no finite distance reaches it (a
 * shortest path is simple), so entries left at the cap are unreachable;
 * otherwise a copy of the initial matrix is kept for the general product
 * in case the count after the rounds finds any (none: the copy was not
 * needed).  No room for the copy: the general product at once. */
static gk_status x_pack_plan(gk_apsp_gpu *c)
{
    c->xpacked = 0;
    if (c->xsaved) {
        cudaFree(c->xsaved);
        c->xsaved = NULL;
    }
    if (!c->xmp_pk || c->xno_pack)
        return GK_OK;
    int range[2] = { 0, 0 };
    long long pitch = c->xnp;
    int V = c->V;
    GK_CUDA_TRY(cudaMemsetAsync(c->dcap, 0, sizeof *c->dcap, c->stream));   /* range[0] = range[1] = 0 */
    void *args[] = { &c->dx, &pitch, &V, &c->dcap };
    gk_status st = gk__gpu_launch(c->xrange, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                  c->stream, args);
    if (st)
        return st;
    GK_CUDA_TRY(cudaMemcpyAsync(range, c->dcap, sizeof range, cudaMemcpyDeviceToHost, c->stream));
    GK_CUDA_TRY(cudaStreamSynchronize(c->stream));
    if (range[0] < 0 || range[1] >= X_PACK_CAP)
        return GK_OK;
    if ((int64_t)c->V * range[1] >= X_PACK_CAP) {
        size_t fr = 0, tot = 0, bytes = (size_t)c->xnp * (size_t)c->xnp * sizeof(int);
        GK_CUDA_TRY(cudaMemGetInfo(&fr, &tot));
        if (bytes + ((size_t)64 << 20) > fr || cudaMalloc((void **)&c->xsaved, bytes) != cudaSuccess) {
            (void)cudaGetLastError();
            c->xsaved = NULL;
            return GK_OK;
        }
        GK_CUDA_TRY(cudaMemcpyAsync(c->xsaved, c->dx, bytes, cudaMemcpyDeviceToDevice, c->stream));
    }
    c->xpacked = 1;
    return GK_OK;
}

gk_status gk__apsp_gpu_upload_typed(gk_apsp_gpu *c, const void *dist, float *ms)
{
    gk_status st;
    const int64_t V = c->V;
    /* int32 without predecessors: the fast path unless a weight is negative */
    c->xactive = !(c->type == GK_DTYPE_INT32 && !c->with_pred && !gk__apsp_has_negative(dist, V, V, c->type));
    if (!c->xactive)
        return gk__apsp_gpu_upload(c, dist, ms);
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)) || (st = x_fill(c)))
        return st;
    const size_t row = (size_t)V * c->esize;
    GK_CUDA_TRY(cudaMemcpy2DAsync(c->dx, (size_t)c->xnp * c->esize, dist, row, row, (size_t)V, cudaMemcpyHostToDevice,
                                  c->stream));
    if ((st = x_pack_plan(c)) || (st = x_prepare(c)))
        return st;
    return gk__gpu_timer_stop(&c->timer, c->stream, ms);
}

/* After the packed rounds: entries at the cap counted when they could be
 * finite (the copy was kept); any: xpacked 0, the caller reruns. */
static gk_status x_pack_settle(gk_apsp_gpu *c)
{
    if (!c->xsaved)
        return GK_OK;
    unsigned long long at = 0;
    long long pitch = c->xnp;
    int V = c->V;
    GK_CUDA_TRY(cudaMemsetAsync(c->dcap, 0, sizeof *c->dcap, c->stream));
    void *args[] = { &c->dx, &pitch, &V, &c->dcap };
    gk_status st = gk__gpu_launch(c->xatcap, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                  c->stream, args);
    if (st)
        return st;
    GK_CUDA_TRY(cudaMemcpyAsync(&at, c->dcap, sizeof at, cudaMemcpyDeviceToHost, c->stream));
    GK_CUDA_TRY(cudaStreamSynchronize(c->stream));
    if (at)
        c->xpacked = 0;
    return GK_OK;
}

/* The typed rounds on dx, then the integer types' cleanup (the kernel
 * checks the negative flag itself).  Enqueued. */
static gk_status x_rounds(gk_apsp_gpu *c)
{
    gk_status st;
    int k, phase, kend, V = c->V;
    long long pitch = c->xnp;
    void *args[] = { &c->dx, &pitch, &k, &phase, &kend, &c->dpred, &pitch, &V, &c->dflags };
    if (c->xpacked) {
        if ((st = run_rounds(c, c->xpivot, c->xmp_pk, c->xmp_pk, c->xnt, X_TILE, c->xsmem_piv, c->xsmem, c->xsmem,
                             c->xthreads_pk, &k, &phase, &kend, args))
            || (st = x_pack_settle(c)))
            return st;
        if (c->xpacked)
            return GK_OK;
        /* entries at the cap that may be finite: the general product on
           the initial matrix */
        GK_CUDA_TRY(cudaMemcpyAsync(c->dx, c->xsaved, (size_t)c->xnp * (size_t)c->xnp * sizeof(int),
                                    cudaMemcpyDeviceToDevice, c->stream));
        if ((st = x_prepare(c)))
            return st;
    }
    if ((st = run_rounds(c, c->xpivot, c->xmp, c->xmp, c->xnt, X_TILE, c->xsmem_piv, c->xsmem, c->xsmem,
                         c->xthreads, &k, &phase, &kend, args)))
        return st;
    if (c->xclean) {
        long long n = c->xnp * c->xnp;
        void *cargs[] = { &c->dx, &c->dpred, &n, &c->dflags };
        if ((st = gk__gpu_launch(c->xclean, gk__dim3((unsigned)c->dev.sm_count * 8, 1, 1), gk__dim3(256, 1, 1), 0,
                                 c->stream, cargs)))
            return st;
    }
    return GK_OK;
}

gk_status gk__apsp_gpu_run_typed(gk_apsp_gpu *c, float *ms)
{
    gk_status st;
    if (!c->xactive)
        return gk__apsp_gpu_run(c, ms);
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)) || (st = x_rounds(c)))
        return st;
    float t;
    if ((st = gk__gpu_timer_stop(&c->timer, c->stream, &t)))
        return st;
    GK_CUDA_TRY(cudaGetLastError());
    if (ms) *ms = t;
    return GK_OK;
}

gk_status gk__apsp_gpu_cycle(gk_apsp_gpu *c, int64_t *cycle)
{
    int v = 0x7f7f7f7f;
    *cycle = -1;
    if (!c->xactive)   /* the fast path: non-negative int32, no cycle */
        return GK_OK;
    GK_CUDA_TRY(cudaMemcpyAsync(&v, c->dflags + 1, sizeof v, cudaMemcpyDeviceToHost, c->stream));
    GK_CUDA_TRY(cudaStreamSynchronize(c->stream));
    if (v >= 0 && v < c->V)
        *cycle = v;
    return GK_OK;
}

gk_status gk__apsp_gpu_download_typed(gk_apsp_gpu *c, void *dist, int32_t *pred, float *ms)
{
    gk_status st;
    if (pred && !c->with_pred)
        return gk__fail(GK_EINTERNAL, "gk__apsp_gpu_download_typed: predecessors from a context without them");
    if (!c->xactive)
        return gk__apsp_gpu_download(c, dist, ms);
    if ((st = gk__gpu_timer_start(&c->timer, c->stream)))
        return st;
    const size_t row = (size_t)c->V * c->esize;
    GK_CUDA_TRY(cudaMemcpy2DAsync(dist, row, c->dx, (size_t)c->xnp * c->esize, row, (size_t)c->V,
                                  cudaMemcpyDeviceToHost, c->stream));
    if (pred)
        GK_CUDA_TRY(cudaMemcpy2DAsync(pred, (size_t)c->V * sizeof(int32_t), c->dpred, (size_t)c->xnp * sizeof(int32_t),
                                      (size_t)c->V * sizeof(int32_t), (size_t)c->V, cudaMemcpyDeviceToHost, c->stream));
    return gk__gpu_timer_stop(&c->timer, c->stream, ms);
}

/* Device memory: always the typed kernels (the sign of the weights is known
 * only on the device; int32 callers with non-negative weights and no
 * predecessors use gk__apsp_gpu_exec_device, the fast path).  dist is
 * copied into dx and back, pred (may be NULL) written from dx's. */
gk_status gk__apsp_gpu_exec_device_typed(gk_apsp_gpu *c, void *dist, int64_t ld, int32_t *pred, int64_t pld)
{
    gk_status st;
    if (pred && !c->with_pred)
        return gk__fail(GK_EINTERNAL, "gk__apsp_gpu_exec_device_typed: predecessors on a context without them");
    c->xactive = 1;
    const size_t row = (size_t)c->V * c->esize;
    if ((st = x_fill(c)))
        return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(c->dx, (size_t)c->xnp * c->esize, dist, (size_t)ld * c->esize, row, (size_t)c->V,
                                  cudaMemcpyDeviceToDevice, c->stream));
    if ((st = x_prepare(c)) || (st = x_rounds(c)))
        return st;
    GK_CUDA_TRY(cudaMemcpy2DAsync(dist, (size_t)ld * c->esize, c->dx, (size_t)c->xnp * c->esize, row, (size_t)c->V,
                                  cudaMemcpyDeviceToDevice, c->stream));
    if (pred)
        GK_CUDA_TRY(cudaMemcpy2DAsync(pred, (size_t)pld * sizeof(int32_t), c->dpred, (size_t)c->xnp * sizeof(int32_t),
                                      (size_t)c->V * sizeof(int32_t), (size_t)c->V, cudaMemcpyDeviceToDevice,
                                      c->stream));
    return GK_OK;
}

/* Chains of type t's update (apsp.cu xceil); int32: VIADDMNMX. */
gk_status gk__apsp_gpu_ceiling_typed(gk_apsp_gpu *c, gk_dtype t, double *per_s)
{
    if (!gk__apsp_dtype_suffix(t))
        return gk__fail(GK_EINVAL, "APSP ceiling: element type %d", (int)t);
    if (t == GK_DTYPE_INT32)
        return gk__apsp_gpu_ceiling(c, per_s);
    cudaKernel_t k;
    gk_status st = x_kernel(c, "ceil", t, "", &k);
    return st ? st : ceiling_rate(c, k, 1.0, per_s);
}
