/* apsp_dist.c - the front door of APSP past one GPU: gk_apsp_run_file
 * (file to file, rows spread over the context's GPUs and over the ranks of
 * its gk_comm, no process holding the whole matrix) and gk__apsp_bench_multi.
 * The row-block engines are src/gpu/apsp_multi.c (GPUs) and
 * src/cpu/apsp_rows.c (CPU ranks, their rounds included); the split and the
 * write every rank makes into one output are src/core/dist.c (shared with
 * the stencil); the collectives and the ranks' check of their input are
 * src/core/comm.c over the caller's communicator, NCCL is
 * src/gpu/comm_nccl.c. */
#include "api/context.h"
#include "api/commands.h"
#include "api/dist.h"
#include "api/apsp_dist.h"
#include "core/apsp_formats.h"
#include "core/apsp_types.h"
#include "core/comm.h"
#include "core/dist.h"
#include "core/io.h"
#include "cpu/apsp_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/apsp_multi.h"
#include "gpu/apsp_gpu.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define CHUNK_EDGES (1 << 16)

/* ------------------------------------------------------------------ layout */

/* nglobal blocks of whole tile rows: block g owns tile rows first[g] ..
 * first[g + 1] - 1 (g * nt / nglobal: sizes differ by at most one tile row;
 * a block may be empty).  This process owns blocks g0 .. g0 + nmine - 1. */
typedef struct layout {
    int32_t V;
    int T, nt, nglobal, g0, nmine;
    int *first;
} layout;

static gk_status layout_make(layout *l, int32_t V, int T, int nglobal, int g0, int nmine)
{
    l->V = V;
    l->T = T;
    l->nt = (int)(((int64_t)V + T - 1) / T);
    l->nglobal = nglobal;
    l->g0 = g0;
    l->nmine = nmine;
    return gk__dist_split(&l->first, l->nt, nglobal);
}

/* Rows of block g within [0, V). */
static int64_t rows_lo(const layout *l, int g) { int64_t r = (int64_t)l->first[g] * l->T; return r < l->V ? r : l->V; }
static int64_t rows_hi(const layout *l, int g) { int64_t r = (int64_t)l->first[g + 1] * l->T; return r < l->V ? r : l->V; }

/* The block of row r. */
static int block_of(const layout *l, int64_t r) { return gk__dist_part_of(l->first, l->nglobal, r / l->T); }

/* ------------------------------------------------------------------ input */

typedef struct edges { int32_t *e; int64_t n, cap; } edges;

static gk_status edges_push(edges *b, const int32_t *t)
{
    if (b->n == b->cap) {
        int64_t cap = b->cap ? 2 * b->cap : 4096;
        int32_t *e = realloc(b->e, (size_t)cap * 12);
        if (!e)
            return gk__fail(GK_ENOMEM, "cannot hold %lld edges of this rank's rows", (long long)cap);
        b->e = e;
        b->cap = cap;
    }
    memcpy(b->e + 3 * b->n++, t, 12);
    return GK_OK;
}

/* The header: the same rules and messages as gk__apsp_read. */
static gk_status read_header(gk_infile *in, int32_t *V, int32_t *E)
{
    gk_status st;
    const char *path = in->name;
    if (in->size >= 0 && in->size < 8)
        return gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E (too short for the V, E header)",
                        path, (long long)in->size);
    int32_t hdr[2];
    if ((st = gk__read_exact(in->f, path, hdr, sizeof hdr, "the V, E header")))
        return st;
    if (hdr[0] < 1)
        return gk__fail(GK_EFORMAT, "%s: V = %d: the vertex count must be at least 1", path, hdr[0]);
    if (hdr[1] < 0)
        return gk__fail(GK_EFORMAT, "%s: E = %d: the edge count must not be negative", path, hdr[1]);
    if (in->size >= 0 && in->size != 8 + 12 * (int64_t)hdr[1])
        return gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E = %lld for E = %d",
                        path, (long long)in->size, (long long)(8 + 12 * (int64_t)hdr[1]), hdr[1]);
    *V = hdr[0];
    *E = hdr[1];
    return GK_OK;
}

/* The ranks read the same graph: the checksum of every edge's bytes (every
 * rank reads them all). */
static gk_status same_edges(const gk_comm *comm, const char *path, uint64_t sum)
{
    static const char *const names[] = { "checksum of the edges" };
    int64_t v = (int64_t)sum;
    return gk__comm_same(comm, path, &v, names, 1);
}

/* Every edge validated (as gk__apsp_read does); those of this process's
 * blocks kept, bucket b[g - g0]. */
static gk_status read_edges(gk_infile *in, const layout *l, int32_t E, edges *b, int32_t *max_w, uint64_t *sum)
{
    uint64_t h = 0;
    gk_status st = GK_OK;
    const char *path = in->name;
    int32_t *buf = NULL, wmax = 0, V = l->V;
    if ((st = gk__xmalloc((void **)&buf, (size_t)CHUNK_EDGES * 12, "reading edges")))
        return st;
    int64_t lo = rows_lo(l, l->g0), hi = rows_hi(l, l->g0 + l->nmine - 1);
    for (int64_t e0 = 0; e0 < E && !st; e0 += CHUNK_EDGES) {
        int64_t m = E - e0 < CHUNK_EDGES ? E - e0 : CHUNK_EDGES;
        if ((st = gk__read_exact(in->f, path, buf, (size_t)m * 12, "the edges")))
            break;
        h = gk__checksum(h, buf, (size_t)m * 12);
        for (int64_t e = 0; e < m && !st; e++) {
            int32_t s = buf[3 * e], t = buf[3 * e + 1], w = buf[3 * e + 2];
            if ((st = gk__nthu_edge_check(path, e0 + e, s, t, w, V)))
                break;
            if (w > wmax) wmax = w;
            if (s == t || s < lo || s >= hi)
                continue;
            st = edges_push(&b[block_of(l, s) - l->g0], buf + 3 * e);
        }
    }
    if (!st) {
        char after[64];
        snprintf(after, sizeof after, "the E = %d edges", E);
        st = gk__in_expect_end(in, after);
    }
    free(buf);
    *max_w = wmax;
    *sum = h;
    return st;
}

/* ------------------------------------------------------------------ output */

/* What the output gets: raw little-endian rows of type t, or .npy (its
 * header first, the bytes gk_apsp_write_matrix writes). */
typedef struct outspec { gk_format format; gk_dtype t; } outspec;

/* This process's rows lo .. hi - 1 to OUTPUT, chunk rows at a time through
 * buf and never across a block (fetch serves one block's rows): raw,
 * gk__dist_write; .npy, the same behind its header (written by rank 0). */
static gk_status write_rows(const gk_comm *comm, const char *out, const outspec *os, const layout *l, int64_t lo,
                            int64_t hi, gk__dist_fetch fetch, void *src, void *buf, int64_t chunk)
{
    const size_t row = (size_t)l->V * gk_dtype_size(os->t);
    if (os->format != GK_FORMAT_NPY)
        return gk__dist_write(comm, out, l->first, l->nglobal, l->T, l->V, lo, hi, row, fetch, src, buf, chunk);
    char h[192];
    const int hl = gk__npy_matrix_header(h, sizeof h, os->t, l->V), one = gk__comm_size(comm) == 1;
    gk_outfile o;
    gk__comm_out so;
    gk_status st;
    if ((st = one ? gk__out_open(&o, out) : gk__comm_out_open(&so, comm, out)))
        return st;
    if (one) st = gk__out_write(&o, h, (size_t)hl);
    else if (gk__comm_rank(comm) == 0) st = gk__comm_out_pwrite(&so, h, (size_t)hl, 0);
    for (int64_t r = lo; r < hi && !st;) {
        int64_t end = (int64_t)l->first[block_of(l, r) + 1] * l->T, n = hi - r;
        if (end > l->V) end = l->V;
        if (n > end - r) n = end - r;
        if (n > chunk) n = chunk;
        if (!(st = fetch(src, r, n, buf)))
            st = one ? gk__out_write(&o, buf, (size_t)n * row)
                     : gk__comm_out_pwrite(&so, buf, (size_t)n * row, (uint64_t)hl + (uint64_t)r * row);
        r += n;
    }
    return one ? gk__out_close(&o, st) : gk__comm_out_close(&so, st);
}

typedef struct cpu_src { gk_apsp_cpu_part *p; int32_t V; size_t es; } cpu_src;

static gk_status fetch_cpu(void *src, int64_t r, int64_t n, void *out)
{
    cpu_src *c = src;
    char *buf = out;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        gk__apsp_cpu_part_get_row(c->p, r + i, buf + i * (int64_t)c->V * (int64_t)c->es);
    return GK_OK;
}

#ifdef GK_HAVE_CUDA
/* The ranks agree on a negative cycle's vertex (each passes its own, -1:
 * none): the smallest of them, -1 when none. */
static gk_status agree_cycle(const gk_comm *comm, int32_t V, int64_t *v)
{
    int64_t x = *v >= 0 ? (int64_t)V - *v : 0;   /* the smallest vertex has the largest V - v */
    gk_status st = gk__comm_max_i64(comm, &x, 1);
    *v = x > 0 ? (int64_t)V - x : -1;
    return st;
}
#endif

/* ------------------------------------------------------------------ CPU ranks */

/* Where the initial rows come from: an NTHU file (in, its edges streamed,
 * int32) or a matrix of type t every rank read whole (*dist: freed once
 * this rank's rows are taken, before the rounds). */
typedef struct source {
    gk_infile *in;
    void **dist;
    gk_dtype t;
} source;

static const char *row_of(const source *s, int32_t V, int64_t r)
{
    return (const char *)*s->dist + r * (int64_t)V * (int64_t)gk_dtype_size(s->t);
}

static void source_drop(const source *s)
{
    if (s->dist) {
        free(*s->dist);
        *s->dist = NULL;
    }
}

static gk_status solve_cpu(gk_context *ctx, const source *src0, const char *out, const outspec *os, int32_t V,
                           int32_t E, gk_apsp_dist_report *rep)
{
    const gk_comm *comm = ctx->comm;
    int size = gk__comm_size(comm), rank = gk__comm_rank(comm);
    const gk_dtype t = src0->in ? GK_DTYPE_INT32 : src0->t;
    const size_t es = gk_dtype_size(t);
    layout l = { 0 };
    edges b = { 0 };
    gk_apsp_cpu_part *p = NULL;
    void *buf = NULL;
    uint64_t sum = 0;
    gk_status st = layout_make(&l, V, GK_APSP_CPU_TILE, size, rank, 1);
    double t0 = gk__wtime();
    if (src0->in) {
        if (!st)
            st = read_edges(src0->in, &l, E, &b, &rep->max_w, &sum);
        gk__in_close(src0->in);
        if ((st = gk__comm_agree(comm, st)) || (st = same_edges(comm, src0->in->name, sum)))
            goto out;
        rep->read += gk__wtime() - t0;
    } else if ((st = gk__comm_agree(comm, st)))
        goto out;
    t0 = gk__wtime();
    int threads = gk__ctx_threads_enter(ctx);
    st = gk__apsp_cpu_part_open_typed(&p, V, l.first[rank], l.first[rank + 1], ctx->cpu_isa, t);
    for (int64_t e = 0; !st && e < b.n; e++)
        gk__apsp_cpu_part_edge(p, b.e[3 * e], b.e[3 * e + 1], b.e[3 * e + 2]);
    for (int64_t r = rows_lo(&l, rank); !st && !src0->in && r < rows_hi(&l, rank); r++)
        gk__apsp_cpu_part_set_row(p, r, row_of(src0, V, r));
    free(b.e);
    b.e = NULL;
    source_drop(src0);
    if ((st = gk__comm_agree(comm, st)))
        goto leave;
    rep->distribute = gk__wtime() - t0;
    t0 = gk__wtime();
    double wait = 0;
    /* a negative cycle: every rank returns it (the owner's vertex broadcast) */
    st = gk__comm_agree(comm, gk__apsp_cpu_part_rounds(p, comm, l.first, l.nt, &wait));
    if (st == GK_ENEGCYCLE)
        rep->run.cycle_vertex = gk__apsp_cpu_part_cycle(p);
    rep->exchange_busy += wait;
    rep->exchange_stall += wait;
    rep->compute = gk__wtime() - t0;
    if (st)
        goto leave;
    t0 = gk__wtime();
    int64_t chunk = ((int64_t)64 << 20) / ((int64_t)V * (int64_t)es);
    if (chunk < 1) chunk = 1;
    cpu_src src = { p, V, es };
    st = gk__xmalloc(&buf, (size_t)chunk * (size_t)V * es, "the output buffer");
    st = gk__comm_agree(comm, st);
    if (!st)
        st = write_rows(comm, out, os, &l, rows_lo(&l, rank), rows_hi(&l, rank), fetch_cpu, &src, buf, chunk);
    rep->write = gk__wtime() - t0;
leave:
    gk__ctx_threads_leave(threads);
out:
    free(buf);
    free(b.e);
    gk__apsp_cpu_part_close(p);
    free(l.first);
    return st;
}

/* ------------------------------------------------------------------ GPUs */
#ifdef GK_HAVE_CUDA

typedef struct gpu_set {
    int nparts;
    gk_apsp_part *parts[GK_MAX_GPUS];
    gk_nccl *nccl;
    const layout *l;
} gpu_set;

static gk_status fetch_gpu(void *src, int64_t r, int64_t n, void *buf)
{
    gpu_set *g = src;
    int b = block_of(g->l, r) - g->l->g0;
    return gk__apsp_part_download(g->parts[b], r, n, buf);
}

static void gpus_close(gpu_set *g)
{
    for (int i = 0; i < g->nparts; i++)
        gk__apsp_part_close(g->parts[i]);
    g->nparts = 0;
    if (g->nccl) gk__nccl_close(g->nccl);
    g->nccl = NULL;
}

/* One part per GPU of this process (in-process: all the context's GPUs;
 * under MPI: the rank's one). */
static gk_status gpus_open(gk_context *ctx, const layout *l, const gk_config *cfg, gk_dtype t, gpu_set *g)
{
    gk_status st = GK_OK;
    g->l = l;
    for (int i = 0; i < l->nmine && !st; i++) {
        int b = l->g0 + i;
        if (!(st = gk__apsp_part_open_typed(&g->parts[i], ctx->gpus[i], &ctx->dev[i], l->V, l->first[b],
                                            l->first[b + 1], cfg, t)))
            g->nparts++;
    }
    return st;
}

/* How panels move; opens NCCL between ranks when it is used. */
static gk_status gpus_exchange(gk_context *ctx, gk_exchange want, gpu_set *g, int *mode, char *name, size_t n)
{
    const gk_comm *comm = ctx->comm;
    gk_status st;
    if (want == GK_EXCHANGE_HOST) {
        *mode = GK__XCHG_HOST;
        snprintf(name, n, "%s", comm ? "pinned host memory and MPI (seed design)" : "pinned host memory (seed design)");
        return GK_OK;
    }
    if (!comm) {
        *mode = GK__XCHG_PEER;
        snprintf(name, n, "%s", ctx->ngpus > 1 ? "peer copies with lookahead" : "none (one GPU)");
        return GK_OK;
    }
    if ((st = gk__nccl_open_if_everywhere(&g->nccl, comm, want == GK_EXCHANGE_DEVICE)))
        return st;
    if (!g->nccl) {
        *mode = GK__XCHG_HOST;
        snprintf(name, n, "pinned host memory and MPI (no NCCL)");
        return GK_OK;
    }
    *mode = GK__XCHG_NCCL;
    snprintf(name, n, "NCCL broadcast with lookahead");
    return GK_OK;
}

static gk_status gpus_run(gk_context *ctx, const layout *l, gpu_set *g, int mode, double *busy, double *stall)
{
    gk_apsp_xchg x;
    memset(&x, 0, sizeof x);
    x.mode = mode;
    x.nglobal = l->nglobal;
    x.first = l->first;
    x.self = ctx->comm ? l->g0 : -1;
    x.nccl = g->nccl;
    x.comm = ctx->comm;
    gk_status st = gk__apsp_multi_run(g->parts, g->nparts, &x);
    *busy = x.busy;
    *stall = x.stall;
    return st;
}

static gk_status solve_gpu(gk_context *ctx, const source *src0, const char *out, const outspec *os, int32_t V,
                           int32_t E, const gk_config *cfg, gk_exchange want, gk_apsp_dist_report *rep)
{
    const gk_comm *comm = ctx->comm;
    int size = gk__comm_size(comm), rank = gk__comm_rank(comm), G = comm ? 1 : ctx->ngpus;
    /* typed (every input but a plain NTHU one): tile 64 and the typed kernels */
    const gk_dtype t = src0->in ? 0 : src0->t;
    const size_t es = t ? gk_dtype_size(t) : sizeof(int32_t);
    layout l = { 0 };
    edges b[GK_MAX_GPUS];
    gpu_set g;
    void *buf = NULL;
    int saved = -1, entered = 0, mode = 0;
    memset(b, 0, sizeof b);
    memset(&g, 0, sizeof g);
    uint64_t sum = 0;
    gk_status st = layout_make(&l, V, t ? GK_APSP_ORDER_TILE : gk__apsp_part_tile(cfg), size * G, rank * G, G);
    double t0 = gk__wtime();
    if (src0->in) {
        if (!st)
            st = read_edges(src0->in, &l, E, b, &rep->max_w, &sum);
        gk__in_close(src0->in);
        if ((st = gk__comm_agree(comm, st)) || (st = same_edges(comm, src0->in->name, sum)))
            goto out;
        rep->read += gk__wtime() - t0;
    } else if ((st = gk__comm_agree(comm, st)))
        goto out;
    if ((st = gk__comm_agree(comm, gk__ctx_gpu_enter(ctx, &saved))))
        goto out;
    entered = 1;
    t0 = gk__wtime();
    st = gpus_open(ctx, &l, cfg, t, &g);
    /* every rank read the whole matrix: the same answer everywhere */
    const int neg = !src0->in && gk__apsp_has_negative(*src0->dist, V, V, t);
    for (int i = 0; i < g.nparts && !st; i++) {
        if ((st = gk__apsp_part_init(g.parts[i])))
            break;
        if (src0->in)
            st = gk__apsp_part_edges(g.parts[i], b[i].e, b[i].n);
        else {
            int64_t lo = rows_lo(&l, l.g0 + i), hi = rows_hi(&l, l.g0 + i);
            if (!(st = gk__apsp_part_upload_rows(g.parts[i], lo, hi - lo, row_of(src0, V, lo))) && neg)
                st = gk__apsp_part_set_negative(g.parts[i]);
        }
    }
    for (int i = 0; i < g.nparts && !st; i++)
        st = gk__apsp_part_sync(g.parts[i]);
    for (int i = 0; i < GK_MAX_GPUS; i++) {
        free(b[i].e);
        b[i].e = NULL;
    }
    source_drop(src0);
    if ((st = gk__comm_agree(comm, st))
        || (st = gpus_exchange(ctx, want, &g, &mode, rep->exchange, sizeof rep->exchange)))
        goto out;
    rep->distribute = gk__wtime() - t0;
    t0 = gk__wtime();
    st = gk__comm_agree(comm, gpus_run(ctx, &l, &g, mode, &rep->exchange_busy, &rep->exchange_stall));
    if (!st && t) {
        /* the GPUs go on past a negative cycle: the smallest vertex any
           part saw is the first round's (rounds go up in vertex order) */
        int64_t cyc = -1;
        for (int i = 0; i < g.nparts && !st; i++) {
            int64_t v;
            if (!(st = gk__apsp_part_cycle(g.parts[i], &v)) && v >= 0 && (cyc < 0 || v < cyc))
                cyc = v;
        }
        if (!(st = gk__comm_agree(comm, st)) && !(st = agree_cycle(comm, V, &cyc)) && cyc >= 0) {
            rep->run.cycle_vertex = cyc;
            st = gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)cyc);
        }
    }
    rep->compute = gk__wtime() - t0;
    if (st)
        goto out;
    t0 = gk__wtime();
    int64_t chunk = ((int64_t)256 << 20) / ((int64_t)V * (int64_t)es);
    if (chunk < 1) chunk = 1;
    st = gk__comm_agree(comm, gk__apsp_pinned(&buf, (size_t)chunk * (size_t)V * es));
    if (!st)    /* this process's blocks, each chunk from its GPU */
        st = write_rows(comm, out, os, &l, rows_lo(&l, l.g0), rows_hi(&l, l.g0 + l.nmine - 1), fetch_gpu, &g, buf,
                        chunk);
    rep->write = gk__wtime() - t0;
out:
    gk__apsp_pinned_free(buf);
    gpus_close(&g);
    for (int i = 0; i < GK_MAX_GPUS; i++)
        free(b[i].e);
    if (entered) gk__ctx_gpu_leave(saved);
    free(l.first);
    return st;
}
#endif /* GK_HAVE_CUDA */

/* ------------------------------------------------------------------ front door */

static void dist_report_init(gk_context *ctx, gk_apsp_dist_report *rep)
{
    memset(rep, 0, sizeof *rep);
    gk__dist_report_init(ctx, &rep->run, &rep->ranks, &rep->gpus);
    snprintf(rep->exchange, sizeof rep->exchange, "%s", rep->ranks > 1 ? "MPI broadcast" : "none (one process)");
}

/* The input's format for AUTO: .npy by its name or magic (a dense matrix,
 * as gk_apsp_read_matrix takes it), else gk_format_detect's choice. */
static gk_status input_format(const char *path, gk_format *f)
{
    size_t n = strlen(path);
    if (n > 4 && !strcasecmp(path + n - 4, ".npy")) {
        *f = GK_FORMAT_NPY;
        return GK_OK;
    }
    if (strcmp(path, "-")) {
        char m[6] = { 0 };
        FILE *fp = fopen(path, "rb");
        int npy = fp && fread(m, 1, 6, fp) == 6 && !memcmp(m, "\x93NUMPY", 6);
        if (fp) fclose(fp);
        if (npy) {
            *f = GK_FORMAT_NPY;
            return GK_OK;
        }
    }
    return gk_format_detect(path, f);
}

/* Every input but a plain NTHU one: the whole matrix of its type on every
 * rank (the single-process reader: the same type rule, the same entries),
 * checked the same on every rank. */
static gk_status read_typed(gk_context *ctx, const char *input, gk_format f, const gk__apsp_dist_in *in,
                            const char *config, gk_config *cfg, void **dist, gk_dtype *t, gk_apsp_dist_report *rep)
{
    const gk_comm *comm = ctx->comm;
    int64_t V = 0, E = 0;
    *t = in->weights;
    gk_status st = gk__apsp_read_matrix_flags(input, f, in->flags, in->vertices, t, dist, &V, &E);
    if (!st)
        st = gk__ctx_config(ctx, "apsp", V, config, cfg, &rep->run);
    if ((st = gk__comm_agree(comm, st)))
        return st;
    if (comm) {
        static const char *const names[] = { "V", "E", "weight type", "checksum of the matrix" };
        int64_t v[4] = { V, E, (int64_t)*t,
                         (int64_t)gk__checksum(0, *dist, (size_t)V * (size_t)V * gk_dtype_size(*t)) };
        if ((st = gk__comm_same(comm, input, v, names, 4)))
            return st;
    }
    rep->V = V;
    rep->E = E;
    return GK_OK;
}

gk_status gk__apsp_run_file_typed(gk_context *ctx, const char *input, const char *output, const gk__apsp_dist_in *in,
                                  const char *config, gk_exchange exchange, gk_apsp_dist_report *report)
{
    gk_apsp_dist_report local;
    gk_apsp_dist_report *rep = report ? report : &local;
    const gk_comm *comm = ctx->comm;
    gk_config cfg;
    gk_status st = GK_OK;
    dist_report_init(ctx, rep);
    rep->run.cycle_vertex = -1;
    st = gk__dist_check(ctx, input, output);
    gk_format f = in->format;
    outspec os = { in->out_format, GK_DTYPE_INT32 };
    if (os.format == GK_FORMAT_AUTO)
        os.format = gk__format_for_output(output, GK_FORMAT_NTHU) == GK_FORMAT_NPY ? GK_FORMAT_NPY : GK_FORMAT_NTHU;
    if (!st && os.format != GK_FORMAT_NTHU && os.format != GK_FORMAT_NPY)
        st = gk__fail(GK_EINVAL, "%s: a distance matrix is written raw (nthu) or as npy, not %s", output,
                      gk_format_name(os.format));
    if (!st && f == GK_FORMAT_AUTO)
        st = input_format(input, &f);
    /* a plain NTHU graph with int32 distances: its edges streamed, each
       rank keeping its rows' (no V x V matrix anywhere but the blocks) */
    const int plain = f == GK_FORMAT_NTHU && !in->flags && !in->vertices
                      && (in->weights == 0 || in->weights == GK_DTYPE_INT32);
    gk_infile fin;
    void *dist = NULL;
    source src = { NULL, NULL, GK_DTYPE_INT32 };
    int32_t V = 0, E = 0;
    double t0 = gk__wtime();
    if (plain) {
        int opened = 0;
        if (!st && !(st = gk__in_open(&fin, input))) {
            opened = 1;
            st = read_header(&fin, &V, &E);
        }
        if (!st)
            st = gk__ctx_config(ctx, "apsp", V, config, &cfg, &rep->run);
        static const char *const hdr_names[] = { "V", "E" };
        int64_t hdr[2] = { V, E };
        if ((st = gk__comm_agree(comm, st)) || (st = gk__comm_same(comm, input, hdr, hdr_names, 2))) {
            if (opened) gk__in_close(&fin);
            return st;
        }
        rep->V = V;
        rep->E = E;
        src.in = &fin;
    } else {
        if ((st = gk__comm_agree(comm, st)))
            return st;
        if ((st = read_typed(ctx, input, f, in, config, &cfg, &dist, &src.t, rep))) {
            free(dist);
            return st;
        }
        V = (int32_t)rep->V;
        E = rep->E > INT32_MAX ? INT32_MAX : (int32_t)rep->E;   /* (the typed source does not read it) */
        src.dist = &dist;
        os.t = src.t;
    }
    rep->run.dtype = os.t;
    rep->read = gk__wtime() - t0;
    if (ctx->backend != GK_BACKEND_GPU)
        st = solve_cpu(ctx, &src, output, &os, V, E, rep);
    else {
#ifdef GK_HAVE_CUDA
        st = solve_gpu(ctx, &src, output, &os, V, E, &cfg, exchange, rep);
#else
        if (src.in) gk__in_close(src.in);
        st = gk__comm_agree(comm, gk__fail(GK_ENODEV, "gk was built without CUDA support"));
#endif
    }
    free(dist);
    (void)exchange;
    rep->run.compute = rep->compute;
    if (!st && comm) {   /* the slowest rank's times */
        double v[6] = { rep->read, rep->distribute, rep->compute, rep->exchange_busy, rep->exchange_stall, rep->write };
        if (!(st = gk__comm_max_f64(comm, v, 6))) {
            rep->read = v[0]; rep->distribute = v[1]; rep->compute = v[2];
            rep->exchange_busy = v[3]; rep->exchange_stall = v[4]; rep->write = v[5];
            rep->run.compute = rep->compute;
        }
        int64_t mw = rep->max_w;
        if (!st && !(st = gk__comm_max_i64(comm, &mw, 1)))
            rep->max_w = (int32_t)mw;
    }
    return st;
}

gk_status gk__apsp_run_file_cfg(gk_context *ctx, const char *input, const char *output, const char *config,
                                gk_exchange exchange, gk_apsp_dist_report *report)
{
    /* the public call: an NTHU graph as it is, int32, raw output */
    const gk__apsp_dist_in in = { GK_FORMAT_NTHU, 0, 0, 0, GK_FORMAT_NTHU };
    return gk__apsp_run_file_typed(ctx, input, output, &in, config, exchange, report);
}

/* ------------------------------------------------------------------ bench */

gk_status gk__apsp_bench_multi(gk_context *ctx, int64_t n, const char *config, gk__apsp_multi_row *row)
{
    memset(row, 0, sizeof *row);
    row->n = n;
    row->identical = -1;
    if (n < 1)
        return gk__fail(GK_EINVAL, "bench apsp: n = %lld (want at least 1)", (long long)n);
    if (ctx->backend != GK_BACKEND_GPU)
        return gk__fail(GK_EINVAL, "bench apsp past one GPU needs the GPU backend");
#ifndef GK_HAVE_CUDA
    (void)config;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#else
    const gk_comm *comm = ctx->comm;
    int size = gk__comm_size(comm), rank = gk__comm_rank(comm), G = comm ? 1 : ctx->ngpus;
    gk_report rep;
    gk_config cfg;
    gk_status st;
    gk__ctx_report_init(ctx, &rep);
    if (!(st = gk__dist_check(ctx, NULL, NULL)))
        st = gk__ctx_config(ctx, "apsp", n, config, &cfg, &rep);
    if ((st = gk__comm_agree(comm, st)))
        return st;
    row->gpus = size * G;
    row->ranks = size;
    snprintf(row->device, sizeof row->device, "%s", rep.device);
    snprintf(row->config, sizeof row->config, "%s", rep.config);
    const uint64_t seed = 20261122, cut = (uint64_t)(0.3 * 4294967296.0);
    const int32_t maxw = 1000;
    layout l = { 0 };
    gpu_set g;
    memset(&g, 0, sizeof g);
    int32_t *one = NULL, *got = NULL;
    int saved = -1, entered = 0;
    size_t bytes = (size_t)n * (size_t)n * sizeof(int32_t);
    if ((st = gk__comm_agree(comm, gk__ctx_gpu_enter(ctx, &saved))))
        return st;
    entered = 1;
    /* one GPU, gk's single-GPU code (one process only; skipped when it does not fit) */
    if (size == 1 && gk__host_memory_check(2 * (uint64_t)bytes, "") == GK_OK) {
        gk_apsp_gpu *c = NULL;
        float ms = 0;
        if ((st = gk__apsp_gpu_open(&c, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), n, &cfg)) == GK_ENOMEM) {
            st = GK_OK;                      /* does not fit one GPU */
            gk__clear_error();
        } else if (!st) {
            if (!(st = gk__xmalloc((void **)&one, bytes, "the one-GPU result"))
                && !(st = gk_apsp_random_matrix(one, n, 0.3, seed, maxw))
                && !(n <= 8192 && ((st = gk__apsp_gpu_upload(c, one, NULL)) || (st = gk__apsp_gpu_run(c, NULL))))
                && !(st = gk__apsp_gpu_upload(c, one, NULL)) && !(st = gk__apsp_gpu_run(c, &ms)))
                st = gk__apsp_gpu_download(c, one, NULL);
            row->one_seconds = ms * 1e-3;
        }
        gk__apsp_gpu_close(c);
        if (st) goto out;
    } else {
        gk__clear_error();
    }
    if ((st = gk__comm_agree(comm, layout_make(&l, n, gk__apsp_part_tile(&cfg), size * G, rank * G, G))))
        goto out;
    st = gpus_open(ctx, &l, &cfg, 0, &g);
    if ((st = gk__comm_agree(comm, st)))
        goto out;
    int mode;
    for (int design = 0; design < 2 && !st; design++) {     /* 0: the seed's, 1: gk's */
        char name[64];
        if ((st = gpus_exchange(ctx, design ? GK_EXCHANGE_AUTO : GK_EXCHANGE_HOST, &g, &mode, name, sizeof name)))
            break;
        for (int rep_i = n <= 8192 ? 0 : 1; rep_i < 2 && !st; rep_i++) {   /* small sizes: a warm-up first */
            for (int i = 0; i < g.nparts && !st; i++)
                st = gk__apsp_part_random(g.parts[i], seed, cut, maxw);
            if ((st = gk__comm_agree(comm, st)))
                break;
            double busy = 0, stall = 0, t0 = gk__wtime();
            st = gk__comm_agree(comm, gpus_run(ctx, &l, &g, mode, &busy, &stall));
            double v[3] = { gk__wtime() - t0, busy, stall };
            if (!st && !(st = gk__comm_max_f64(comm, v, 3)) && rep_i == 1) {
                if (design) {
                    row->seconds = v[0]; row->busy = v[1]; row->stall = v[2];
                    snprintf(row->exchange, sizeof row->exchange, "%s", name);
                } else {
                    row->seed_seconds = v[0]; row->seed_busy = v[1]; row->seed_stall = v[2];
                }
            }
        }
        if (design == 0 && g.nccl) {
            gk__nccl_close(g.nccl);
            g.nccl = NULL;
        }
    }
    if (st) goto out;
    double ops = (double)n * n * n;
    row->tmps = ops / row->seconds / 1e12;
    row->seed_tmps = ops / row->seed_seconds / 1e12;
    if (row->one_seconds > 0) {
        row->one_tmps = ops / row->one_seconds / 1e12;
        row->efficiency = row->one_seconds / (row->gpus * row->seconds);
        row->seed_efficiency = row->one_seconds / (row->gpus * row->seed_seconds);
        /* the check: gk's design against the one GPU, entry by entry */
        if (!(st = gk__xmalloc((void **)&got, bytes, "the multi-GPU result"))) {
            for (int i = 0; i < g.nparts && !st; i++) {
                int64_t lo = rows_lo(&l, i), hi = rows_hi(&l, i);
                st = gk__apsp_part_download(g.parts[i], lo, hi - lo, got + lo * (int64_t)n);
            }
            if (!st) {
                st = gk_apsp_compare(got, one, n, "bench: several GPUs vs one GPU");
                row->identical = st == GK_OK;
            }
        }
    }
out:
    gpus_close(&g);
    if (entered) gk__ctx_gpu_leave(saved);
    free(l.first);
    free(one);
    free(got);
    return st;
#endif
}
