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

#define DEFAULT_THREADS 128
#define DEFAULT_DELTA_X 4.0       /* bucket width: this many mean |w| */

struct gk__sssp_gpu {
    int device;
    cudaStream_t stream, side;   /* the job's stream; the copies down of the previous chunk */
    gk_dtype t;
    size_t es;
    long long V, E;
    double mean_w;
    int negative;
    cudaLibrary_t lib;
    cudaKernel_t k;
    int threads;
    double delta_x;
    long long slots;             /* blocks per launch (searches at once); 0: no workspace yet */
    long long orows;             /* rows per chunk (each of the two output buffers) */
    long long cap_slots, cap_rows;   /* gk__sssp_gpu_set_chunk's limits (0: none) */
    int full;                    /* the workspace has all the slots and rows the GPU holds */
    long long *indptr;
    int *indices;
    void *w, *h;
    void *dist[2];               /* two chunks of rows: one searched while the other goes down */
    int *pred[2];
    int *nearest, *queues, *mark, *fmark, *sources[2], *status[2], *next;
    unsigned long long *relax;
    cudaEvent_t ev0, ev1, kdone[2], cdone[2];
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

static void free_workspace(gk__sssp_gpu *h)
{
    for (int b = 0; b < 2; b++) {
        cudaFree(h->dist[b]); cudaFree(h->pred[b]); cudaFree(h->sources[b]); cudaFree(h->status[b]);
        h->dist[b] = NULL; h->pred[b] = NULL; h->sources[b] = NULL; h->status[b] = NULL;
    }
    cudaFree(h->queues); cudaFree(h->mark); cudaFree(h->fmark);
    h->queues = h->mark = h->fmark = NULL;
    h->slots = h->orows = 0;
    h->full = 0;
}

void gk__sssp_gpu_close(gk__sssp_gpu *h)
{
    if (!h)
        return;
    int prev;
    if (gk__gpu_enter(h->device, &prev) == GK_OK) {
        free_workspace(h);
        cudaFree(h->indptr); cudaFree(h->indices); cudaFree(h->w); cudaFree(h->h);
        cudaFree(h->nearest); cudaFree(h->next); cudaFree(h->relax);
        cudaEvent_t *ev[] = { &h->ev0, &h->ev1, &h->kdone[0], &h->kdone[1], &h->cdone[0], &h->cdone[1] };
        for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
            if (*ev[i]) cudaEventDestroy(*ev[i]);
        if (h->side) cudaStreamDestroy(h->side);
        if (h->lib) cudaLibraryUnload(h->lib);
        gk__gpu_leave(prev);
    }
    free(h);
}

void gk__sssp_gpu_set_knobs(gk__sssp_gpu *h, int threads, double delta_x)
{
    if (threads >= 32 && threads <= 1024 && threads % 32 == 0 && threads != h->threads) {
        h->threads = threads;
        int prev;
        if (h->slots && gk__gpu_enter(h->device, &prev) == GK_OK) {   /* sized again by the next call */
            free_workspace(h);
            gk__gpu_leave(prev);
        }
    }
    if (delta_x > 0)
        h->delta_x = delta_x;
}

void gk__sssp_gpu_set_chunk(gk__sssp_gpu *h, long long slots, long long rows)
{
    h->cap_slots = slots;
    h->cap_rows = rows;
    int prev;
    if (h->slots && gk__gpu_enter(h->device, &prev) == GK_OK) {
        free_workspace(h);
        gk__gpu_leave(prev);
    }
}

long long gk__sssp_gpu_slots(const gk__sssp_gpu *h) { return h->slots; }

/* The workspace: `slots` searches at once (what stays resident, and what
 * the memory holds), each with its queues and marks (24 bytes a vertex),
 * and two output chunks of orows rows (distances and predecessors); orows
 * twice the slots where the memory allows, so blocks balance their work;
 * no more of either than the call's rows. */
static gk_status workspace(gk__sssp_gpu *h, long long rows)
{
    if (h->slots && (h->full || (h->slots >= rows && h->orows >= rows)))
        return GK_OK;
    free_workspace(h);                           /* too small for this call: sized again */
    gk_status st;
    int sms = 1, per_sm = 0;
    GK_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, h->device));
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)h->k, h->threads, 0) != cudaSuccess
        || per_sm < 1) {
        cudaGetLastError();
        per_sm = 1024 / h->threads;
    }
    long long want = (long long)sms * per_sm;
    size_t fr = 0, tot = 0;
    GK_CUDA_TRY(cudaMemGetInfo(&fr, &tot));
    double ws = (double)h->V * 24, row = (double)h->V * (double)(h->es + 4), avail = (double)fr * 0.75;
    int per_slot_rows = 4;                       /* 2 buffers x 2 rows per slot */
    long long fit = (long long)(avail / (ws + per_slot_rows * row));
    if (fit < want) {
        per_slot_rows = 2;
        fit = (long long)(avail / (ws + per_slot_rows * row));
    }
    if (fit < 1)
        return gk__fail(GK_ENOMEM, "GPU shortest paths: one search needs %.0f bytes of device memory for V = %lld, "
                        "%zu are free", ws + 2 * row, h->V, fr);
    h->slots = want < fit ? want : fit;
    if (h->cap_slots > 0 && h->slots > h->cap_slots)
        h->slots = h->cap_slots;
    h->orows = h->slots * (per_slot_rows / 2);
    if (h->cap_rows > 0 && h->orows > h->cap_rows)
        h->orows = h->cap_rows;
    /* a call of few rows gets the workspace it needs, not the GPU's worth */
    h->full = rows >= h->orows && rows >= h->slots;
    if (h->slots > rows) h->slots = rows;
    if (h->orows > rows) h->orows = rows;
    size_t n = (size_t)h->slots * (size_t)h->V, r = (size_t)h->orows * (size_t)h->V;
    for (int b = 0; b < 2; b++)
        if ((st = dev_alloc(&h->dist[b], r * h->es, "the distances")) || (st = dev_alloc(&h->pred[b], r * 4, "the predecessors"))
            || (st = dev_alloc(&h->status[b], (size_t)h->orows * 4, "the flags"))
            || (st = dev_alloc(&h->sources[b], (size_t)h->orows * 4, "the sources")))
            goto fail;
    if ((st = dev_alloc(&h->queues, n * 16, "the queues")) || (st = dev_alloc(&h->mark, n * 4, "the marks"))
        || (st = dev_alloc(&h->fmark, n * 4, "the marks")))
        goto fail;
    return GK_OK;
fail:
    free_workspace(h);
    return st;
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
    for (int b = 0; b < 2; b++) {
        GK_CUDA_TRY(cudaEventCreateWithFlags(&h->kdone[b], cudaEventDisableTiming));
        GK_CUDA_TRY(cudaEventCreateWithFlags(&h->cdone[b], cudaEventDisableTiming));
    }
    GK_CUDA_TRY(cudaStreamCreateWithFlags(&h->side, cudaStreamNonBlocking));
    h->threads = DEFAULT_THREADS;
    h->delta_x = DEFAULT_DELTA_X;
    if (cfg) {   /* "THREADS=..., DELTA_Q=..." (the bucket width in quarters of the mean weight) */
        gk__sssp_gpu_set_knobs(h, gk__config_get(cfg, "THREADS", h->threads),
                               gk__config_get(cfg, "DELTA_Q", (int)(h->delta_x * 4)) / 4.0);
    }
    size_t ib = (size_t)(h->V + 1) * sizeof(long long), eb = (size_t)h->E * sizeof(int), wb = (size_t)h->E * h->es;
    if ((st = dev_alloc(&h->indptr, ib, "the graph's offsets")) || (st = dev_alloc(&h->indices, eb, "the graph's edges"))
        || (st = dev_alloc(&h->w, wb, "the graph's weights")) || (st = dev_alloc(&h->h, (size_t)h->V * h->es, "the potential"))
        || (st = dev_alloc(&h->nearest, (size_t)h->V * 4, "the nearest sources"))
        || (st = dev_alloc(&h->next, sizeof(int), "a counter"))
        || (st = dev_alloc(&h->relax, sizeof(unsigned long long), "a counter")))
        return st;
    GK_CUDA_TRY(cudaMemcpy(h->indptr, g->indptr, ib, cudaMemcpyHostToDevice));
    if (eb) {
        GK_CUDA_TRY(cudaMemcpy(h->indices, g->indices, eb, cudaMemcpyHostToDevice));
        GK_CUDA_TRY(cudaMemcpy(h->w, g->w, wb, cudaMemcpyHostToDevice));
    }
    return workspace(h, 1);   /* one search must fit; calls size it to their rows */
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
    for (int64_t e = 0; e < g->E; e++)
        sum += fabs(gk__graph_weight(g, e));
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

/* Chunk c's rows (in buffer b) down to the job's arrays, on the side
 * stream once its kernel is done (a pageable copy: returns when done, while
 * the next chunk's kernel runs). */
static gk_status copy_down(gk__sssp_gpu *h, gk__sssp_job *j, int b, long long first, long long n)
{
    size_t V = (size_t)h->V;
    GK_CUDA_TRY(cudaStreamWaitEvent(h->side, h->kdone[b], 0));
    GK_CUDA_TRY(cudaMemcpyAsync((char *)j->dist + (size_t)first * V * h->es, h->dist[b], (size_t)n * V * h->es,
                                cudaMemcpyDeviceToHost, h->side));
    if (j->pred)
        GK_CUDA_TRY(cudaMemcpyAsync(j->pred + (size_t)first * V, h->pred[b], (size_t)n * V * 4, cudaMemcpyDeviceToHost,
                                    h->side));
    GK_CUDA_TRY(cudaEventRecord(h->cdone[b], h->side));
    return GK_OK;
}

/* Bellman-Ford's flags of a chunk (buffer b, n rows): GK_ENEGCYCLE naming
 * a vertex on the cycle, found from the row's last predecessors. */
static gk_status check_cycle(gk__sssp_gpu *h, gk__sssp_job *j, int b, long long n)
{
    gk_status st = GK_OK;
    int *flags = malloc((size_t)n * 4);
    if (!flags)
        return gk__fail(GK_ENOMEM, "GPU shortest paths: out of host memory");
    cudaError_t e = cudaStreamSynchronize(h->stream);
    if (e == cudaSuccess)
        e = cudaMemcpy(flags, h->status[b], (size_t)n * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(flags);
        return gk__cuda_fail(e, "GPU shortest paths: the cycle flags");
    }
    for (long long i = 0; i < n; i++) {
        if (!flags[i]) continue;
        int *lp = malloc((size_t)h->V * 4);
        if (!lp) { st = gk__fail(GK_ENOMEM, "GPU shortest paths: out of host memory"); break; }
        e = cudaMemcpy(lp, h->pred[b] + (size_t)i * h->V, (size_t)h->V * 4, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) { free(lp); st = gk__cuda_fail(e, "GPU shortest paths: the predecessors"); break; }
        j->cycle_vertex = cycle_vertex(lp, h->V, flags[i] - 1);
        free(lp);
        st = gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)j->cycle_vertex);
        break;
    }
    free(flags);
    return st;
}

static gk_status rows_impl(gk__sssp_gpu *h, gk__sssp_job *j, double *ms)
{
    gk_status st = workspace(h, j->min_only ? 1 : j->S);
    if (st)
        return st;
    gk__sssp_params p;
    memset(&p, 0, sizeof p);
    const long long V = h->V;
    const int bf = h->negative && !j->h;
    const int minonly = j->min_only != 0;
    p.indptr = h->indptr;
    p.indices = h->indices;
    p.w = h->w;
    p.h = j->h ? h->h : NULL;
    p.nearest = minonly && j->nearest ? h->nearest : NULL;
    p.queues = h->queues;
    p.mark = h->mark;
    p.fmark = h->fmark;
    p.next = h->next;
    p.relax = h->relax;
    p.V = V;
    p.mode = bf ? GK_SSSP_MODE_BF : GK_SSSP_MODE_NEARFAR;
    p.has_limit = !isinf(j->limit);
    p.prune = p.has_limit && !bf && !j->h;
    /* the tree pass: predecessors wanted, nearest wanted, or the cycle
       check's last predecessors kept (pred rows always exist) */
    p.tree = j->pred != NULL || p.nearest != NULL;
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

    int *srcdev = NULL;
    if (minonly) {   /* one row, one block, every source in it */
        if ((st = dev_alloc(&srcdev, (size_t)j->S * 4, "the sources")))
            return st;
        p.sources = srcdev;
            p.nsrc = (int)j->S;
        p.virt = 1;
        p.nitems = 1;
        p.dist = h->dist[0];
        p.pred = h->pred[0];
        p.status = h->status[0];
        void *args[] = { &p };
        GK_CUDA_GOTO(cudaMemcpyAsync(srcdev, j->sources, (size_t)j->S * 4, cudaMemcpyHostToDevice, h->stream), st, out);
        GK_CUDA_GOTO(cudaMemsetAsync(h->next, 0, sizeof(int), h->stream), st, out);
        GK_CUDA_GOTO(cudaMemsetAsync(h->status[0], 0, sizeof(int), h->stream), st, out);
        if ((st = gk__gpu_launch(h->k, gk__dim3(1, 1, 1), gk__dim3((unsigned)h->threads, 1, 1), 0, h->stream, args)))
            goto out;
        GK_CUDA_GOTO(cudaEventRecord(h->kdone[0], h->stream), st, out);
        if (bf && (st = check_cycle(h, j, 0, 1)))
            goto out;
        if ((st = copy_down(h, j, 0, 0, 1)))
            goto out;
        if (j->nearest)
            GK_CUDA_GOTO(cudaMemcpyAsync(j->nearest, h->nearest, (size_t)V * 4, cudaMemcpyDeviceToHost, h->side), st, out);
        GK_CUDA_GOTO(cudaEventRecord(h->cdone[0], h->side), st, out);
        GK_CUDA_GOTO(cudaStreamWaitEvent(h->stream, h->cdone[0], 0), st, out);
    } else {         /* chunks of orows rows, two buffers: one searched, one going down */
        long long chunks = (j->S + h->orows - 1) / h->orows;
        p.nsrc = 1;
        for (long long c = 0; c < chunks; c++) {
            int b = (int)(c & 1);
            long long first = c * h->orows, n = j->S - first < h->orows ? j->S - first : h->orows;
            GK_CUDA_GOTO(cudaStreamWaitEvent(h->stream, h->cdone[b], 0), st, out);   /* its last copy is done */
            GK_CUDA_GOTO(cudaMemcpyAsync(h->sources[b], j->sources + first, (size_t)n * 4, cudaMemcpyHostToDevice,
                                         h->stream), st, out);
            GK_CUDA_GOTO(cudaMemsetAsync(h->next, 0, sizeof(int), h->stream), st, out);
            GK_CUDA_GOTO(cudaMemsetAsync(h->status[b], 0, (size_t)n * 4, h->stream), st, out);
            p.sources = h->sources[b];
            p.nitems = (int)n;
            p.dist = h->dist[b];
            p.pred = h->pred[b];
            p.status = h->status[b];
            void *args[] = { &p };
            long long blocks = n < h->slots ? n : h->slots;
            if ((st = gk__gpu_launch(h->k, gk__dim3((unsigned)blocks, 1, 1), gk__dim3((unsigned)h->threads, 1, 1), 0,
                                     h->stream, args)))
                goto out;
            GK_CUDA_GOTO(cudaEventRecord(h->kdone[b], h->stream), st, out);
            if (bf && (st = check_cycle(h, j, b, n)))
                goto out;
            if (c > 0 && (st = copy_down(h, j, 1 - b, first - h->orows, h->orows)))
                goto out;
        }
        long long lb = (chunks - 1) & 1, lf = (chunks - 1) * h->orows;
        if ((st = copy_down(h, j, (int)lb, lf, j->S - lf)))
            goto out;
        GK_CUDA_GOTO(cudaStreamWaitEvent(h->stream, h->cdone[lb], 0), st, out);
    }
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
    if (st) {
        cudaStreamSynchronize(h->stream);
        cudaStreamSynchronize(h->side);
    }
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
