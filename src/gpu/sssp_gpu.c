/* sssp_gpu.c - host side of the GPU shortest-path backend (sssp_gpu.h;
 * kernels and the design note in sssp.cu): the graph on the device, a
 * workspace of `slots` searches (one block each, as many as the GPU keeps
 * resident and the memory holds), waves of sources, rows copied down. */
#include "gpu/sssp_gpu.h"
#include "gpu/sssp_gpu_knobs.h"
#include "gpu/gpu.h"
#include "gpu/sssp_kernel.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const gk_kernel_image gk__image_sssp;

#define DEFAULT_THREADS 256
#define DEFAULT_DELTA_X 4.0       /* bucket width: this many mean |w| */

struct gk__sssp_gpu {
    int device;
    cudaStream_t stream;
    gk_dtype t;
    size_t es;
    long long V, E;
    double mean_w;
    int negative;
    cudaLibrary_t lib;
    cudaKernel_t k;
    int threads;
    double delta_x;
    long long slots;
    long long *indptr;
    int *indices;
    void *w, *h, *dist;
    int *pred, *nearest, *queues, *mark, *fmark, *sources, *status;
    unsigned long long *relax;
    cudaEvent_t ev0, ev1;
};

static gk_status dev_alloc(void *p, size_t bytes, const char *what)
{
    void **pp = p;
    cudaError_t e = cudaMalloc(pp, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        *pp = NULL;
        cudaGetLastError();
        return gk__fail(GK_ENOMEM, "GPU shortest paths: cannot allocate %zu bytes of device memory for %s (%s)",
                        bytes, what, cudaGetErrorString(e));
    }
    return GK_OK;
}

void gk__sssp_gpu_close(gk__sssp_gpu *h)
{
    if (!h)
        return;
    int prev;
    if (gk__gpu_enter(h->device, &prev) == GK_OK) {
        cudaFree(h->indptr); cudaFree(h->indices); cudaFree(h->w); cudaFree(h->h);
        cudaFree(h->dist); cudaFree(h->pred); cudaFree(h->nearest); cudaFree(h->queues);
        cudaFree(h->mark); cudaFree(h->fmark); cudaFree(h->sources); cudaFree(h->status);
        cudaFree(h->relax);
        if (h->ev0) cudaEventDestroy(h->ev0);
        if (h->ev1) cudaEventDestroy(h->ev1);
        if (h->lib) cudaLibraryUnload(h->lib);
        gk__gpu_leave(prev);
    }
    free(h);
}

void gk__sssp_gpu_set_knobs(gk__sssp_gpu *h, int threads, double delta_x)
{
    if (threads >= 32 && threads <= 1024 && threads % 32 == 0)
        h->threads = threads;
    if (delta_x > 0)
        h->delta_x = delta_x;
}

long long gk__sssp_gpu_slots(const gk__sssp_gpu *h) { return h->slots; }

/* The workspace for `slots` concurrent searches, per vertex: the distance,
 * pred, 4 queue entries, mark and fmark. */
static size_t slot_bytes(const gk__sssp_gpu *h)
{
    return (size_t)h->V * (h->es + 4 * 7);
}

static gk_status open_impl(gk__sssp_gpu *h, const gk_graph *g, const gk_config *cfg)
{
    gk_status st;
    const char *name = h->t == GK_DTYPE_INT32 ? "gk_sssp_i32" : h->t == GK_DTYPE_INT64 ? "gk_sssp_i64"
                     : h->t == GK_DTYPE_FLOAT32 ? "gk_sssp_f32" : "gk_sssp_f64";
    GK_CUDA_TRY(cudaLibraryLoadData(&h->lib, gk__image_sssp.fatbin, NULL, NULL, 0, NULL, NULL, 0));
    GK_CUDA_TRY(cudaLibraryGetKernel(&h->k, h->lib, name));
    GK_CUDA_TRY(cudaEventCreate(&h->ev0));
    GK_CUDA_TRY(cudaEventCreate(&h->ev1));
    h->threads = DEFAULT_THREADS;
    h->delta_x = DEFAULT_DELTA_X;
    if (cfg) {   /* "THREADS=..., DELTA_X=..." (DELTA_X in quarters of the mean weight: DELTA_Q) */
        gk__sssp_gpu_set_knobs(h, gk__config_get(cfg, "THREADS", h->threads),
                               gk__config_get(cfg, "DELTA_Q", (int)(h->delta_x * 4)) / 4.0);
    }
    size_t ib = (size_t)(h->V + 1) * sizeof(long long), eb = (size_t)h->E * sizeof(int), wb = (size_t)h->E * h->es;
    if ((st = dev_alloc(&h->indptr, ib, "the graph's offsets")) || (st = dev_alloc(&h->indices, eb, "the graph's edges"))
        || (st = dev_alloc(&h->w, wb, "the graph's weights")) || (st = dev_alloc(&h->h, (size_t)h->V * h->es, "the potential"))
        || (st = dev_alloc(&h->nearest, (size_t)h->V * 4, "the nearest sources"))
        || (st = dev_alloc(&h->relax, sizeof(unsigned long long), "a counter")))
        return st;
    GK_CUDA_TRY(cudaMemcpy(h->indptr, g->indptr, ib, cudaMemcpyHostToDevice));
    if (eb) {
        GK_CUDA_TRY(cudaMemcpy(h->indices, g->indices, eb, cudaMemcpyHostToDevice));
        GK_CUDA_TRY(cudaMemcpy(h->w, g->w, wb, cudaMemcpyHostToDevice));
    }
    /* slots: what stays resident at once, and what the memory holds */
    int sms = 1, per_sm = 0;
    GK_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, h->device));
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)h->k, h->threads, 0) != cudaSuccess
        || per_sm < 1) {
        cudaGetLastError();
        per_sm = 2048 / h->threads;
    }
    long long want = (long long)sms * per_sm;
    size_t fr = 0, tot = 0;
    GK_CUDA_TRY(cudaMemGetInfo(&fr, &tot));
    size_t sb = slot_bytes(h);
    long long fit = (long long)((double)fr * 0.75 / (double)sb);
    if (fit < 1)
        return gk__fail(GK_ENOMEM, "GPU shortest paths: one search needs %zu bytes of device memory for V = %lld, "
                        "%zu are free", sb, h->V, fr);
    h->slots = want < fit ? want : fit;
    size_t n = (size_t)h->slots * (size_t)h->V;
    if ((st = dev_alloc(&h->dist, n * h->es, "the distances")) || (st = dev_alloc(&h->pred, n * 4, "the predecessors"))
        || (st = dev_alloc(&h->queues, n * 16, "the queues")) || (st = dev_alloc(&h->mark, n * 4, "the marks"))
        || (st = dev_alloc(&h->fmark, n * 4, "the marks")) || (st = dev_alloc(&h->status, (size_t)h->slots * 4, "the flags"))
        || (st = dev_alloc(&h->sources, (size_t)h->slots * 4, "the sources")))
        return st;
    return GK_OK;
}

gk_status gk__sssp_gpu_open(const gk_graph *g, int device, void *stream, const gk_config *cfg, gk__sssp_gpu **out)
{
    *out = NULL;
    gk__sssp_gpu *h = calloc(1, sizeof *h);
    if (!h)
        return gk__fail(GK_ENOMEM, "GPU shortest paths: out of host memory");
    h->device = device;
    h->stream = (cudaStream_t)stream;
    h->t = g->dtype;
    h->es = gk_dtype_size(g->dtype);
    h->V = g->V;
    h->E = g->E;
    h->negative = g->negative;
    /* the mean |w| sets the bucket width */
    double sum = 0;
    for (int64_t e = 0; e < g->E; e++) {
        switch (g->dtype) {
        case GK_DTYPE_INT32: sum += fabs((double)((const int32_t *)g->w)[e]); break;
        case GK_DTYPE_INT64: sum += fabs((double)((const int64_t *)g->w)[e]); break;
        case GK_DTYPE_FLOAT32: sum += fabs((double)((const float *)g->w)[e]); break;
        default: sum += fabs(((const double *)g->w)[e]); break;
        }
    }
    h->mean_w = g->E ? sum / (double)g->E : 1.0;
    int prev;
    gk_status st = gk__gpu_enter(device, &prev);
    if (st) {
        free(h);
        return st;
    }
    st = open_impl(h, g, cfg);
    gk__gpu_leave(prev);
    if (st) {
        gk__sssp_gpu_close(h);
        return st;
    }
    *out = h;
    return GK_OK;
}

/* A vertex on the negative cycle upstream of x, by the search's last
 * predecessors (p, V entries): V steps back land on the cycle (x itself if
 * the walk breaks off). */
static long long cycle_vertex(const int *p, long long V, long long x)
{
    long long y = x;
    for (long long i = 0; i < V && y >= 0 && p[y] >= 0; i++)
        y = p[y];
    if (y < 0)
        return x;
    long long z = y;
    for (long long i = 0; i < V; i++) {   /* check it returns to itself */
        if (p[z] < 0) return x;
        z = p[z];
        if (z == y) return y;
    }
    return x;
}

static gk_status rows_impl(gk__sssp_gpu *h, gk__sssp_job *j, double *ms)
{
    gk__sssp_params p;
    memset(&p, 0, sizeof p);
    const long long V = h->V;
    const int bf = h->negative && !j->h;
    const int minonly = j->min_only != 0;
    const int want_pred = j->pred != NULL;
    p.indptr = h->indptr;
    p.indices = h->indices;
    p.w = h->w;
    p.h = j->h ? h->h : NULL;
    p.dist = h->dist;
    p.pred = h->pred;
    p.nearest = minonly && j->nearest ? h->nearest : NULL;
    p.queues = h->queues;
    p.mark = h->mark;
    p.fmark = h->fmark;
    p.sources = h->sources;
    p.status = h->status;
    p.relax = h->relax;
    p.V = V;
    p.mode = bf ? GK_SSSP_MODE_BF : GK_SSSP_MODE_NEARFAR;
    p.has_limit = !isinf(j->limit);
    p.prune = p.has_limit && !bf && !j->h;
    p.tree = want_pred || p.nearest != NULL;
    if (p.has_limit) {
        double f = floor(j->limit);
        p.lim_i = f >= 9.2e18 ? INT64_MAX : (long long)f;
        p.lim_f = j->limit;
    } else {
        p.lim_i = INT64_MAX;
        p.lim_f = INFINITY;
    }
    double delta = h->mean_w * h->delta_x;
    if (!(delta > 0)) delta = 1;
    p.delta_i = delta < 1 ? 1 : delta > 1e15 ? (long long)1e15 : (long long)ceil(delta);
    p.delta_f = delta;
    p.round_cap = V + 1;
    if (j->h)
        GK_CUDA_TRY(cudaMemcpyAsync(h->h, j->h, (size_t)V * h->es, cudaMemcpyHostToDevice, h->stream));
    GK_CUDA_TRY(cudaMemsetAsync(h->relax, 0, sizeof(unsigned long long), h->stream));
    GK_CUDA_TRY(cudaEventRecord(h->ev0, h->stream));

    long long per = minonly ? (long long)j->S : h->slots;   /* sources per wave */
    long long waves = minonly ? 1 : (j->S + per - 1) / per;
    int *srcdev = h->sources;
    if (minonly && j->S > h->slots) {                       /* the sources don't fit the slot list */
        gk_status st = dev_alloc(&srcdev, (size_t)j->S * 4, "the sources");
        if (st) return st;
    }
    gk_status st = GK_OK;
    for (long long wv = 0; wv < waves && !st; wv++) {
        long long first = wv * per, n = minonly ? 1 : (j->S - first < per ? j->S - first : per);
        long long ns = minonly ? j->S : n;
        GK_CUDA_GOTO(cudaMemcpyAsync(srcdev, j->sources + first, (size_t)ns * 4, cudaMemcpyHostToDevice, h->stream),
                     st, out);
        GK_CUDA_GOTO(cudaMemsetAsync(h->status, 0, (size_t)n * 4, h->stream), st, out);
        p.sources = srcdev;
        p.nsrc = minonly ? (int)j->S : 1;
        void *args[] = { &p };
        if ((st = gk__gpu_launch(h->k, gk__dim3((unsigned)n, 1, 1), gk__dim3((unsigned)h->threads, 1, 1), 0,
                                 h->stream, args)))
            goto out;
        if (bf) {   /* a negative cycle: the first flagged search names a vertex */
            int *flags = malloc((size_t)n * 4);
            if (!flags) { st = gk__fail(GK_ENOMEM, "GPU shortest paths: out of host memory"); goto out; }
            GK_CUDA_GOTO(cudaMemcpyAsync(flags, h->status, (size_t)n * 4, cudaMemcpyDeviceToHost, h->stream), st, outf);
            GK_CUDA_GOTO(cudaStreamSynchronize(h->stream), st, outf);
            for (long long i = 0; i < n; i++) {
                if (!flags[i]) continue;
                int *lp = malloc((size_t)V * 4);
                if (!lp) { st = gk__fail(GK_ENOMEM, "GPU shortest paths: out of host memory"); break; }
                cudaError_t e = cudaMemcpy(lp, h->fmark + i * V, (size_t)V * 4, cudaMemcpyDeviceToHost);
                if (e != cudaSuccess) { free(lp); st = gk__cuda_fail(e, "cudaMemcpy(predecessors)"); break; }
                j->cycle_vertex = cycle_vertex(lp, V, flags[i] - 1);
                free(lp);
                st = gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)j->cycle_vertex);
                break;
            }
        outf:
            free(flags);
            if (st) goto out;
        }
        size_t rows = (size_t)n;
        GK_CUDA_GOTO(cudaMemcpyAsync((char *)j->dist + (size_t)first * V * h->es, h->dist, rows * V * h->es,
                                     cudaMemcpyDeviceToHost, h->stream), st, out);
        if (want_pred)
            GK_CUDA_GOTO(cudaMemcpyAsync(j->pred + (size_t)first * V, h->pred, rows * V * 4, cudaMemcpyDeviceToHost,
                                         h->stream), st, out);
    }
    if (minonly && j->nearest)
        GK_CUDA_GOTO(cudaMemcpyAsync(j->nearest, h->nearest, (size_t)V * 4, cudaMemcpyDeviceToHost, h->stream), st, out);
    {
        unsigned long long r = 0;
        GK_CUDA_GOTO(cudaEventRecord(h->ev1, h->stream), st, out);
        GK_CUDA_GOTO(cudaMemcpyAsync(&r, h->relax, sizeof r, cudaMemcpyDeviceToHost, h->stream), st, out);
        GK_CUDA_GOTO(cudaStreamSynchronize(h->stream), st, out);
        j->relaxations = (int64_t)r;
        float f = 0;
        GK_CUDA_GOTO(cudaEventElapsedTime(&f, h->ev0, h->ev1), st, out);
        if (ms) *ms = f;
    }
out:
    if (st)
        cudaStreamSynchronize(h->stream);
    if (srcdev != h->sources)
        cudaFree(srcdev);
    return st;
}

gk_status gk__sssp_gpu_rows(gk__sssp_gpu *h, gk__sssp_job *j, double *ms)
{
    if (ms) *ms = 0;
    j->relaxations = 0;
    j->cycle_vertex = -1;
    if (j->g->dtype != h->t || j->g->V != h->V)
        return gk__fail(GK_EINVAL, "GPU shortest paths: the job's graph is not the one uploaded");
    if (j->S < 1)
        return GK_OK;
    if (j->min_only && j->S > INT32_MAX)
        return gk__fail(GK_EINVAL, "GPU shortest paths: %lld sources for min_only", (long long)j->S);
    int prev;
    gk_status st = gk__gpu_enter(h->device, &prev);
    if (st)
        return st;
    st = rows_impl(h, j, ms);
    gk__gpu_leave(prev);
    return st;
}
