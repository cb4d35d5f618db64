/* apsp_multi.c - APSP past one GPU: row-block parts and the rounds over
 * them (see apsp_multi.h; the kernels are in apsp.cu). */
#include "gpu/apsp_multi.h"
#include "core/apsp_types.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EDGE_CHUNK ((int64_t)1 << 22)

struct gk_apsp_part {
    int ordinal;
    gk_device_info dev;
    int32_t V;
    int T, nt, t0, t1, nl, threads;
    long long np;
    size_t smem_mp, smem_piv, panel_bytes;
    gk_config cfg;
    gk_gpu_module mod;
    cudaKernel_t pivot, minplus, rows, init, scatter, random;
    /* typed parts (type != 0): element size es (int32 parts: 4), T = 64,
     * the typed kernels, and the device words flags (apsp.cu's typed
     * section: [0] a weight is negative, [1] the smallest vertex of a
     * negative cycle); xthreads, xsmem and xsmem_piv: those of xmp and
     * xpivot, rsmem: gk_apspx_rows_* */
    gk_dtype type;
    size_t es;
    cudaKernel_t xclean;
    int *flags;
    unsigned xthreads;
    size_t xsmem, xsmem_piv, rsmem;
    char *d;                    /* nl * T rows, pitch np */
    char *slot[2];              /* received panels, T x np */
    int *edges;                 /* EDGE_CHUNK triples */
    cudaStream_t cs, xs;        /* compute, exchange */
    cudaEvent_t ready, fr[2];   /* next panel closed; done with slot s */
    cudaEvent_t *xb, *xe, *sw, *sg;   /* per round: exchange begin/end, stall begin/end */
    int nev;
};

int gk__apsp_part_tile(const gk_config *cfg)
{
    gk_config full;
    if (gk__space_complete(&gk__space_apsp, cfg, &full))
        return 0;
    return gk__param(&full, "APSP_TILE");
}

static gk_status on(const gk_apsp_part *p)
{
    GK_CUDA_TRY(cudaSetDevice(p->ordinal));
    return GK_OK;
}

/* The block's first tile row at its global index: the single-GPU kernels
 * (pivot, phase 2 along the row) then run on it unchanged. */
static void *virt(const gk_apsp_part *p)
{
    return (void *)((uintptr_t)p->d - (uintptr_t)((size_t)p->t0 * (size_t)p->T * (size_t)p->np * p->es));
}

static char *rowptr(const gk_apsp_part *p, int k)
{
    return p->d + (size_t)(k - p->t0) * (size_t)p->T * (size_t)p->np * p->es;
}


static gk_status x_kernel(gk_apsp_part *p, const char *what, cudaKernel_t *k)
{
    char name[64];
    snprintf(name, sizeof name, "gk_apspx_%s_%s", what, gk__apsp_dtype_suffix(p->type));
    return gk__gpu_kernel(&p->mod, name, k);
}

gk_status gk__apsp_part_open(gk_apsp_part **out, int ordinal, const gk_device_info *dev, int32_t V,
                             int t0, int t1, const gk_config *cfg)
{
    return gk__apsp_part_open_typed(out, ordinal, dev, V, t0, t1, cfg, 0);
}

gk_status gk__apsp_part_open_typed(gk_apsp_part **out, int ordinal, const gk_device_info *dev, int32_t V,
                                   int t0, int t1, const gk_config *cfg, gk_dtype type)
{
    gk_status st;
    *out = NULL;
    if (type && !gk__apsp_dtype_suffix(type))
        return gk__fail(GK_EINVAL, "a GPU row block: element type %d is not int32, int64, float32 or float64",
                        (int)type);
    gk_apsp_part *p = calloc(1, sizeof *p);
    if (!p)
        return gk__fail(GK_ENOMEM, "cannot allocate a GPU row block");
    p->ordinal = ordinal;
    p->dev = *dev;
    p->V = V;
    p->type = type;
    p->es = type ? gk_dtype_size(type) : sizeof(int);
    if ((st = on(p)) || (st = gk__space_complete(&gk__space_apsp, cfg, &p->cfg)))
        goto fail;
    char why[256];
    if (gk__space_apsp.reject(&p->cfg, &p->dev, why, sizeof why)) {
        char text[256];
        gk__config_format(&p->cfg, text, sizeof text);
        st = gk__fail(GK_EINVAL, "apsp configuration %s cannot run on %s: %s", text, p->dev.name, why);
        goto fail;
    }
    /* typed: the tile of the ordered paths, whatever the configuration's */
    p->T = type ? GK_APSP_ORDER_TILE : gk__param(&p->cfg, "APSP_TILE");
    p->threads = (int)gk__apsp_threads(&p->cfg);
    p->nt = (int)((V + p->T - 1) / p->T);
    p->np = (long long)p->nt * p->T;
    p->t0 = t0;
    p->t1 = t1;
    p->nl = t1 - t0;
    p->smem_mp = gk__apsp_stage_smem(&p->cfg);
    p->smem_piv = gk__apsp_pivot_smem(&p->cfg);
    p->panel_bytes = (size_t)p->T * (size_t)p->np * p->es;
    if (type) {
        /* xmp's and xpivot's launch shape (as apsp_gpu.c's xmp_shape), and
         * gk_apspx_rows_*: A^T and B at row pitch 64 + 16 / es */
        int tm, tn;
        gk__apsp_typed_shape(&p->cfg, type, 0, &tm, &tn);
        p->xthreads = (unsigned)((p->T / tn) * (p->T / tm));
        p->xsmem = 2 * (size_t)p->T * (p->T + 16 / p->es) * p->es;
        p->xsmem_piv = (size_t)p->T * p->T * p->es;
        p->rsmem = p->xsmem;
        if (p->xsmem > p->dev.smem_per_block_optin) {
            st = gk__fail(GK_EINVAL, "APSP %s past one GPU on %s: the kernels need %zu bytes of shared memory (%zu "
                          "per block)", gk_dtype_name(type), p->dev.name, p->xsmem,
                          (size_t)p->dev.smem_per_block_optin);
            goto fail;
        }
    }
    size_t block = (size_t)p->nl * p->panel_bytes;
    size_t need = block + 2 * p->panel_bytes + (size_t)EDGE_CHUNK * 12, fr = 0, tot = 0;
    GK_CUDA_GOTO(cudaMemGetInfo(&fr, &tot), st, fail);
    if (need > fr) {
        char a[32], b[32];
        st = gk__fail(GK_ENOMEM, "V = %d: GPU %d's %d rows need %s of GPU memory (with two panels); %s is free on %s",
                      V, ordinal, p->nl * p->T, gk__human_bytes((double)need, a, sizeof a),
                      gk__human_bytes((double)fr, b, sizeof b), p->dev.name);
        goto fail;
    }
    if ((st = gk__gpu_module_load(&gk__image_apsp, &gk__space_apsp, &p->cfg, &p->mod)))
        goto fail;
    if (type) {
        if ((st = x_kernel(p, "pivot", &p->pivot)) || (st = x_kernel(p, "mp", &p->minplus))
            || (st = x_kernel(p, "rows", &p->rows)) || (st = x_kernel(p, "fill", &p->init)))
            goto fail;
        if ((type == GK_DTYPE_INT32 || type == GK_DTYPE_INT64) && (st = x_kernel(p, "clean", &p->xclean)))
            goto fail;
        GK_CUDA_GOTO(cudaMalloc((void **)&p->flags, 2 * sizeof(int)), st, fail);
    } else if ((st = gk__gpu_kernel(&p->mod, "gk_apsp_pivot", &p->pivot))
        || (st = gk__gpu_kernel(&p->mod, "gk_apsp_minplus", &p->minplus))
        || (st = gk__gpu_kernel(&p->mod, "gk_apsp_rows", &p->rows))
        || (st = gk__gpu_kernel(&p->mod, "gk_apsp_init_rows", &p->init))
        || (st = gk__gpu_kernel(&p->mod, "gk_apsp_scatter", &p->scatter))
        || (st = gk__gpu_kernel(&p->mod, "gk_apsp_random_rows", &p->random)))
        goto fail;
    if (block)
        GK_CUDA_GOTO(cudaMalloc((void **)&p->d, block), st, fail);
    GK_CUDA_GOTO(cudaMalloc((void **)&p->slot[0], p->panel_bytes), st, fail);
    GK_CUDA_GOTO(cudaMalloc((void **)&p->slot[1], p->panel_bytes), st, fail);
    GK_CUDA_GOTO(cudaStreamCreateWithFlags(&p->cs, cudaStreamNonBlocking), st, fail);
    GK_CUDA_GOTO(cudaStreamCreateWithFlags(&p->xs, cudaStreamNonBlocking), st, fail);
    GK_CUDA_GOTO(cudaEventCreateWithFlags(&p->ready, cudaEventDisableTiming), st, fail);
    GK_CUDA_GOTO(cudaEventCreateWithFlags(&p->fr[0], cudaEventDisableTiming), st, fail);
    GK_CUDA_GOTO(cudaEventCreateWithFlags(&p->fr[1], cudaEventDisableTiming), st, fail);
    cudaEvent_t **arr[] = { &p->xb, &p->xe, &p->sw, &p->sg };
    for (int a = 0; a < 4; a++) {
        if (!(*arr[a] = calloc((size_t)p->nt, sizeof(cudaEvent_t)))) {
            st = gk__fail(GK_ENOMEM, "cannot allocate the exchange events");
            goto fail;
        }
    }
    for (int k = 0; k < p->nt; k++, p->nev++)
        for (int a = 0; a < 4; a++)
            GK_CUDA_GOTO(cudaEventCreate(&(*arr[a])[k]), st, fail);
    *out = p;
    return GK_OK;
fail:
    gk__apsp_part_close(p);
    return st;
}

void gk__apsp_part_close(gk_apsp_part *p)
{
    if (!p) return;
    cudaSetDevice(p->ordinal);
    if (p->cs) cudaStreamSynchronize(p->cs);
    if (p->xs) cudaStreamSynchronize(p->xs);
    cudaEvent_t *arr[] = { p->xb, p->xe, p->sw, p->sg };
    for (int a = 0; a < 4; a++) {
        for (int k = 0; arr[a] && k < p->nev; k++)
            if (arr[a][k]) cudaEventDestroy(arr[a][k]);
        free(arr[a]);
    }
    if (p->ready) cudaEventDestroy(p->ready);
    if (p->fr[0]) cudaEventDestroy(p->fr[0]);
    if (p->fr[1]) cudaEventDestroy(p->fr[1]);
    if (p->cs) cudaStreamDestroy(p->cs);
    if (p->xs) cudaStreamDestroy(p->xs);
    if (p->d) cudaFree(p->d);
    if (p->slot[0]) cudaFree(p->slot[0]);
    if (p->slot[1]) cudaFree(p->slot[1]);
    if (p->edges) cudaFree(p->edges);
    if (p->flags) cudaFree(p->flags);
    gk__gpu_module_unload(&p->mod);
    free(p);
}

static unsigned fill_blocks(const gk_apsp_part *p, int64_t rows)
{
    int64_t b = (int64_t)p->dev.sm_count * 16;
    return (unsigned)(rows < b ? rows : b);
}

gk_status gk__apsp_part_init(gk_apsp_part *p)
{
    gk_status st;
    long long rows = (long long)p->nl * p->T, row0 = (long long)p->t0 * p->T;
    int V = p->V;
    if ((st = on(p)))
        return st;
    if (p->type) {
        long long n = rows * p->np;
        void *args[] = { &p->d, &n };
        GK_CUDA_TRY(cudaMemsetAsync(p->flags, 0, sizeof(int), p->cs));
        GK_CUDA_TRY(cudaMemsetAsync(p->flags + 1, 0x7f, sizeof(int), p->cs));   /* 0x7f7f7f7f: no vertex */
        if (!rows)
            return GK_OK;
        return gk__gpu_launch(p->init, gk__dim3(fill_blocks(p, rows), 1, 1), gk__dim3(256, 1, 1), 0, p->cs, args);
    }
    void *args[] = { &p->d, &p->np, &rows, &row0, &V };
    if (!rows)
        return st;
    return gk__gpu_launch(p->init, gk__dim3(fill_blocks(p, rows), 1, 1), gk__dim3(256, 1, 1), 0, p->cs, args);
}

gk_status gk__apsp_part_upload_rows(gk_apsp_part *p, int64_t r, int64_t n, const void *host)
{
    gk_status st;
    if (!p->type)
        return gk__fail(GK_EINTERNAL, "gk__apsp_part_upload_rows: an int32 part takes edges");
    if ((st = on(p)) || !n)
        return st;
    char *dst = p->d + (size_t)(r - (int64_t)p->t0 * p->T) * (size_t)p->np * p->es;
    GK_CUDA_TRY(cudaMemcpy2DAsync(dst, (size_t)p->np * p->es, host, (size_t)p->V * p->es, (size_t)p->V * p->es,
                                  (size_t)n, cudaMemcpyHostToDevice, p->cs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    return GK_OK;
}

gk_status gk__apsp_part_set_negative(gk_apsp_part *p)
{
    gk_status st;
    const int one = 1;
    if ((st = on(p)))
        return st;
    GK_CUDA_TRY(cudaMemcpyAsync(p->flags, &one, sizeof one, cudaMemcpyHostToDevice, p->cs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    return GK_OK;
}

gk_status gk__apsp_part_cycle(gk_apsp_part *p, int64_t *vertex)
{
    gk_status st;
    int v = 0x7f7f7f7f;
    *vertex = -1;
    if (!p->type)
        return GK_OK;
    if ((st = on(p)))
        return st;
    GK_CUDA_TRY(cudaMemcpyAsync(&v, p->flags + 1, sizeof v, cudaMemcpyDeviceToHost, p->cs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    if (v >= 0 && v < p->V)
        *vertex = v;
    return GK_OK;
}

gk_status gk__apsp_part_random(gk_apsp_part *p, uint64_t seed, uint64_t cut, int32_t max_w)
{
    gk_status st;
    long long rows = (long long)p->nl * p->T, row0 = (long long)p->t0 * p->T;
    int V = p->V, mw = max_w;
    unsigned long long s = seed, c = cut;
    void *args[] = { &p->d, &p->np, &rows, &row0, &V, &s, &c, &mw };
    if ((st = on(p)) || !rows)
        return st;
    return gk__gpu_launch(p->random, gk__dim3(fill_blocks(p, rows), 1, 1), gk__dim3(256, 1, 1), 0, p->cs, args);
}

gk_status gk__apsp_part_edges(gk_apsp_part *p, const int32_t *e, int64_t m)
{
    gk_status st;
    if ((st = on(p)) || !m)
        return st;
    if (!p->edges)
        GK_CUDA_TRY(cudaMalloc((void **)&p->edges, (size_t)EDGE_CHUNK * 12));
    long long row0 = (long long)p->t0 * p->T;
    for (int64_t e0 = 0; e0 < m; e0 += EDGE_CHUNK) {
        long long n = m - e0 < EDGE_CHUNK ? m - e0 : EDGE_CHUNK;
        /* the previous chunk's scatter must be done with the buffer */
        GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
        GK_CUDA_TRY(cudaMemcpyAsync(p->edges, e + 3 * e0, (size_t)n * 12, cudaMemcpyHostToDevice, p->cs));
        void *args[] = { &p->d, &p->np, &p->edges, &n, &row0 };
        unsigned blocks = (unsigned)((n + 255) / 256 < p->dev.sm_count * 8 ? (n + 255) / 256 : p->dev.sm_count * 8);
        if ((st = gk__gpu_launch(p->scatter, gk__dim3(blocks, 1, 1), gk__dim3(256, 1, 1), 0, p->cs, args)))
            return st;
    }
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    return GK_OK;
}

gk_status gk__apsp_part_download(gk_apsp_part *p, int64_t r, int64_t n, void *host)
{
    gk_status st;
    if ((st = on(p)) || !n)
        return st;
    const char *src = p->d + (size_t)(r - (int64_t)p->t0 * p->T) * (size_t)p->np * p->es;
    GK_CUDA_TRY(cudaMemcpy2DAsync(host, (size_t)p->V * p->es, src, (size_t)p->np * p->es,
                                  (size_t)p->V * p->es, (size_t)n, cudaMemcpyDeviceToHost, p->cs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    return GK_OK;
}

gk_status gk__apsp_part_sync(gk_apsp_part *p)
{
    gk_status st;
    if ((st = on(p)))
        return st;
    GK_CUDA_TRY(cudaStreamSynchronize(p->cs));
    GK_CUDA_TRY(cudaStreamSynchronize(p->xs));
    GK_CUDA_TRY(cudaGetLastError());
    return GK_OK;
}

gk_status gk__apsp_pinned(void **p, size_t bytes)
{
    *p = NULL;
    GK_CUDA_TRY(cudaMallocHost(p, bytes));
    return GK_OK;
}

void gk__apsp_pinned_free(void *p)
{
    if (p) cudaFreeHost(p);
}

/* ------------------------------------------------------------------ rounds */

/* Close pivot tile k and its row (the owner; p current). */
static gk_status close_panel(gk_apsp_part *p, int k)
{
    gk_status st;
    void *d = virt(p);
    long long pitch = p->np;
    int kk = k, phase = 2, kend = p->T;   /* every k of the tile (padding adds nothing) */
    if (p->type) {
        /* the single-GPU typed kernels on the block at its global rows:
         * xpivot (phase 1, the cycle check into flags[1]), then xmp's phase
         * 2 with the grid's row y = 0 only: the row tiles (k, x) */
        int *pred = NULL, V = p->V;
        long long ppitch = 0;
        void *args[] = { &d, &pitch, &kk, &phase, &kend, &pred, &ppitch, &V, &p->flags };
        if ((st = gk__gpu_launch(p->pivot, gk__dim3(1, 1, 1), gk__dim3(1024, 1, 1), p->xsmem_piv, p->cs, args)))
            return st;
        if (p->nt == 1)
            return GK_OK;
        return gk__gpu_launch(p->minplus, gk__dim3((unsigned)p->nt, 1, 1), gk__dim3(p->xthreads, 1, 1), p->xsmem,
                              p->cs, args);
    }
    int *at = NULL;                       /* no column panel's transpose: row tiles only */
    void *args[] = { &d, &pitch, &kk, &phase, &kend, &at };
    if ((st = gk__gpu_launch(p->pivot, gk__dim3(1, 1, 1), gk__dim3(1024, 1, 1), p->smem_piv, p->cs, args)))
        return st;
    if (p->nt == 1)
        return GK_OK;
    return gk__gpu_launch(p->minplus, gk__dim3((unsigned)p->nt, 1, 1), gk__dim3((unsigned)p->threads, 1, 1),
                          p->smem_mp, p->cs, args);
}

/* Round k's update (phase 2 along the pivot column, then phase 3) of local
 * tile rows r0 .. r0 + n - 1 but skip1 and skip2 (-1: none). */
static gk_status update_rows(gk_apsp_part *p, int k, const void *panel, int r0, int n, int skip1, int skip2)
{
    gk_status st;
    if (n <= 0)
        return GK_OK;
    long long pitch = p->np;
    int kk = k, phase = 2;
    void *args[] = { &p->d, &pitch, &panel, &kk, &r0, &skip1, &skip2, &phase };
    /* typed: gk_apspx_rows_* (apsp.cu's last section), 256 threads */
    dim3 blk = gk__dim3(p->type ? 256u : (unsigned)p->threads, 1, 1);
    size_t smem = p->type ? p->rsmem : p->smem_mp;
    if ((st = gk__gpu_launch(p->rows, gk__dim3(1, (unsigned)n, 1), blk, smem, p->cs, args)))
        return st;
    if (p->nt == 1)
        return GK_OK;
    phase = 3;
    return gk__gpu_launch(p->rows, gk__dim3((unsigned)p->nt, (unsigned)n, 1), blk, smem, p->cs, args);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The part of global index g on this process, or NULL. */
static gk_apsp_part *local(gk_apsp_part **parts, const gk_apsp_xchg *x, int g)
{
    if (x->self < 0) return parts[g];
    return g == x->self ? parts[0] : NULL;
}

static gk_status run_host(gk_apsp_part **parts, int nlocal, gk_apsp_xchg *x, int nt, int *owner)
{
    gk_status st = GK_OK;
    size_t bytes = parts[0]->panel_bytes;
    char *pin = NULL;
    GK_CUDA_TRY(cudaMallocHost((void **)&pin, bytes));
    for (int k = 0; k < nt && !st; k++) {
        int o = owner[k];
        gk_apsp_part *P = local(parts, x, o);
        double t0 = wall();
        if (P) {
            if ((st = on(P)) || (st = close_panel(P, k)))
                break;
            GK_CUDA_GOTO(cudaStreamSynchronize(P->cs), st, out);
            GK_CUDA_GOTO(cudaMemcpyAsync(pin, rowptr(P, k), bytes, cudaMemcpyDeviceToHost, P->cs), st, out);
            GK_CUDA_GOTO(cudaStreamSynchronize(P->cs), st, out);
        }
        if (x->comm && (st = gk__comm_bcast(x->comm, pin, bytes, o)))
            break;
        for (int i = 0; i < nlocal && !st; i++) {
            gk_apsp_part *p = parts[i];
            if (p == P) continue;
            if (!(st = on(p)))
                GK_CUDA_GOTO(cudaMemcpyAsync(p->slot[0], pin, bytes, cudaMemcpyHostToDevice, p->cs), st, out);
        }
        for (int i = 0; i < nlocal && !st; i++) {   /* everyone waits for the panel */
            gk_apsp_part *p = parts[i];
            if (p == P) continue;
            if (!(st = on(p)))
                GK_CUDA_GOTO(cudaStreamSynchronize(p->cs), st, out);
        }
        double t1 = wall();
        x->busy += t1 - t0;
        x->stall += t1 - t0;
        for (int i = 0; i < nlocal && !st; i++) {
            gk_apsp_part *p = parts[i];
            int lk = p == P ? k - p->t0 : -1;
            if (!(st = on(p)))
                st = update_rows(p, k, p == P ? rowptr(p, k) : p->slot[0], 0, p->nl, lk, -1);
        }
        for (int i = 0; i < nlocal && !st; i++)   /* the barrier of every round */
            if (!(st = on(parts[i])))
                GK_CUDA_GOTO(cudaStreamSynchronize(parts[i]->cs), st, out);
    }
out:
    cudaFreeHost(pin);
    return st;
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

gk_status gk__apsp_multi_run(gk_apsp_part **parts, int nlocal, gk_apsp_xchg *x)
{
    gk_status st = GK_OK;
    int nt = parts[0]->nt;
    int *owner = malloc((size_t)nt * sizeof *owner);
    if (!owner)
        return gk__fail(GK_ENOMEM, "cannot allocate the owner map");
    for (int g = 0; g < x->nglobal; g++)
        for (int k = x->first[g]; k < x->first[g + 1]; k++)
            owner[k] = g;
    x->busy = x->stall = 0;
    for (int i = 0; i < nlocal && !st; i++)
        st = gk__apsp_part_sync(parts[i]);
    if (st) goto out;
    if (x->mode == GK__XCHG_HOST) {
        st = run_host(parts, nlocal, x, nt, owner);
        goto done;
    }
    int xchg = x->nglobal > 1;
    if (xchg && x->mode == GK__XCHG_PEER)      /* direct copies between the GPUs (NVLink) */
        for (int i = 0; i < nlocal; i++)
            for (int j = 0; j < nlocal; j++) {
                int can = 0;
                if (i == j || cudaDeviceCanAccessPeer(&can, parts[i]->ordinal, parts[j]->ordinal) != cudaSuccess || !can)
                    continue;
                if ((st = on(parts[i]))) goto out;
                cudaError_t e = cudaDeviceEnablePeerAccess(parts[j]->ordinal, 0);
                if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) {
                    st = gk__cuda_fail(e, "cudaDeviceEnablePeerAccess");
                    goto out;
                }
                cudaGetLastError();
            }
    {
        gk_apsp_part *P = local(parts, x, owner[0]);
        if (P && (!(st = on(P))) && !(st = close_panel(P, 0)))
            GK_CUDA_GOTO(cudaEventRecord(P->ready, P->cs), st, out);
        if (st) goto out;
    }
    for (int k = 0; k < nt && !st; k++) {
        int o = owner[k], s = k & 1;
        gk_apsp_part *P = local(parts, x, o);
        /* ---- panel k to every other part */
        if (xchg && x->mode == GK__XCHG_PEER) {
            if ((st = on(P))) break;
            GK_CUDA_GOTO(cudaStreamWaitEvent(P->xs, P->ready, 0), st, out);
            for (int i = 0; i < nlocal; i++)
                if (parts[i] != P)
                    GK_CUDA_GOTO(cudaStreamWaitEvent(P->xs, parts[i]->fr[s], 0), st, out);
            GK_CUDA_GOTO(cudaEventRecord(P->xb[k], P->xs), st, out);
            for (int i = 0; i < nlocal; i++)
                if (parts[i] != P)
                    GK_CUDA_GOTO(cudaMemcpyPeerAsync(parts[i]->slot[s], parts[i]->ordinal, rowptr(P, k), P->ordinal,
                                                     P->panel_bytes, P->xs), st, out);
            GK_CUDA_GOTO(cudaEventRecord(P->xe[k], P->xs), st, out);
        } else if (xchg) {                                   /* NCCL, one part here */
            gk_apsp_part *p = parts[0];
            if ((st = on(p))) break;
            GK_CUDA_GOTO(cudaStreamWaitEvent(p->xs, p == P ? p->ready : p->fr[s], 0), st, out);
            GK_CUDA_GOTO(cudaEventRecord(p->xb[k], p->xs), st, out);
            char *buf = p == P ? rowptr(p, k) : p->slot[s];
            if ((st = gk__nccl_bcast(x->nccl, buf, buf, p->panel_bytes, o, p->xs)))
                break;
            GK_CUDA_GOTO(cudaEventRecord(p->xe[k], p->xs), st, out);
        }
        /* ---- round k on every part here */
        for (int i = 0; i < nlocal && !st; i++) {
            gk_apsp_part *p = parts[i];
            if ((st = on(p))) break;
            if (xchg && p != P) {
                cudaEvent_t arrived = x->mode == GK__XCHG_PEER ? P->xe[k] : p->xe[k];
                GK_CUDA_GOTO(cudaEventRecord(p->sw[k], p->cs), st, out);
                GK_CUDA_GOTO(cudaStreamWaitEvent(p->cs, arrived, 0), st, out);
                GK_CUDA_GOTO(cudaEventRecord(p->sg[k], p->cs), st, out);
            }
            if (xchg && k > 0 && owner[k - 1] == (x->self < 0 ? i : x->self))
                /* row k - 1 changes now: its panel must have left */
                GK_CUDA_GOTO(cudaStreamWaitEvent(p->cs, p->xe[k - 1], 0), st, out);
            const char *panel = p == P ? rowptr(p, k) : p->slot[s];
            int lk = p == P ? k - p->t0 : -1;
            int la = k + 1 < nt && owner[k + 1] == (x->self < 0 ? i : x->self), l1 = -1;
            if (la) {
                l1 = k + 1 - p->t0;
                if ((st = update_rows(p, k, panel, l1, 1, lk, -1)) || (st = close_panel(p, k + 1)))
                    break;
                GK_CUDA_GOTO(cudaEventRecord(p->ready, p->cs), st, out);
            }
            if ((st = update_rows(p, k, panel, 0, p->nl, lk, l1)))
                break;
            GK_CUDA_GOTO(cudaEventRecord(p->fr[s], p->cs), st, out);
        }
    }
    for (int i = 0; i < nlocal && !st; i++)
        st = gk__apsp_part_sync(parts[i]);
    if (st) goto out;
    if (xchg) {
        double stall = 0;
        for (int i = 0; i < nlocal; i++) {
            gk_apsp_part *p = parts[i];
            double s = 0;
            for (int k = 0; k < nt; k++) {
                int mine = owner[k] == (x->self < 0 ? i : x->self);
                if (!mine)
                    s += ev_ms(p->sw[k], p->sg[k]) * 1e-3;
                if (mine || x->mode == GK__XCHG_NCCL)
                    x->busy += ev_ms(p->xb[k], p->xe[k]) * 1e-3;
            }
            if (s > stall) stall = s;
        }
        x->stall = stall;
    }
done:
    for (int i = 0; i < nlocal && !st; i++)     /* typed integers with negative weights: INF restored */
        if (parts[i]->xclean && !(st = on(parts[i]))) {
            gk_apsp_part *p = parts[i];
            long long n = (long long)p->nl * p->T * p->np;
            int *pred = NULL;
            void *args[] = { &p->d, &pred, &n, &p->flags };
            if (n)
                st = gk__gpu_launch(p->xclean, gk__dim3(fill_blocks(p, n / p->np), 1, 1), gk__dim3(256, 1, 1), 0,
                                    p->cs, args);
        }
    for (int i = 0; i < nlocal && !st; i++)
        st = gk__apsp_part_sync(parts[i]);
out:
    free(owner);
    return st;
}
