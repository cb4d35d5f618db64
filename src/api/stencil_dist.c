/* stencil_dist.c - the front door of the stencil past one GPU or one
 * process: gk_stencil_run_file (file to file, z slabs over the context's
 * GPUs and over the ranks of its gk_comm, no process holding the whole
 * grid) and gk__stencil_bench_multi.  The GPU slab engine is
 * src/gpu/stencil_multi.c; a CPU rank's slab and its rounds are
 * src/cpu/stencil_slab.c; the split and the write every rank makes into one
 * output are src/core/dist.c (shared with APSP); the collectives, sendrecv
 * and the ranks' check of their input are src/core/comm.c over the caller's
 * communicator, NCCL is src/gpu/comm_nccl.c.  Why slabs along z, and why
 * the halo is H planes deep, is in src/gpu/stencil_multi.h.  A stencil
 * description (gk/stencil.h) shares the layout, the input and the output
 * (its element type, 2D grids cut into rows) and runs its own engine on
 * each slab: "descriptions" below. */
#include "api/context.h"
#include "api/commands.h"
#include "api/dist.h"
#include "core/comm.h"
#include "core/dist.h"
#include "core/io.h"
#include "core/rng.h"
#include "core/space.h"
#include "core/space_stencil_gen.h"
#include "cpu/stencil_slab.h"
#include "cpu/stencil_spec_cpu.h"
#include "tune/stencil_gen_store.h"
#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gen.h"
#include "tune/stencil_gen_tune.h"
#include "gpu/stencil_gpu.h"
#include "gpu/stencil_multi.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK_BYTES ((size_t)256 << 20)   /* host staging of planes */

/* ------------------------------------------------------------------ layout */

/* P slabs: slab g is planes first[g] .. first[g + 1] - 1 (g * nz / P: sizes
 * differ by at most one plane; a slab may be empty).  H: the halo depth.
 * A plane is nx * ny elements of esz bytes along the slowest axis: a 2D
 * description's grid is laid out as nx x 1 x NY (its rows are the planes;
 * d2 says so to the messages).  f32: float32 elements. */
typedef struct slabs {
    int nx, ny, nz, P, H, thin, thick;
    int *first;
    int esz, f32, d2;
} slabs;


/* The report's phases, the slowest rank's (every rank calls it). */
static gk_status slowest_times(const gk_comm *comm, gk_stencil_dist_report *rep)
{
    double v[5] = { rep->read, rep->compute, rep->exchange_busy, rep->exchange_stall, rep->write };
    gk_status st = gk__comm_max_f64(comm, v, 5);
    if (st)
        return st;
    rep->read = v[0]; rep->compute = v[1]; rep->exchange_busy = v[2];
    rep->exchange_stall = v[3]; rep->write = v[4];
    rep->run.compute = rep->compute;
    return GK_OK;
}

static gk_status slabs_make(slabs *l, int nx, int ny, int nz, int P, int want_h)
{
    l->nx = nx; l->ny = ny; l->nz = nz; l->P = P;
    if (!l->esz) l->esz = 8;
    gk_status st = gk__dist_split(&l->first, nz, P);
    if (st)
        return st;
    l->thin = INT_MAX;
    l->thick = 0;
    for (int g = 0; g < P; g++) {
        int d = l->first[g + 1] - l->first[g];
        if (d > 0 && d < l->thin) l->thin = d;
        if (d > l->thick) l->thick = d;
    }
    l->H = want_h < l->thin ? want_h : l->thin;
    if (l->H < 1) l->H = 1;
    return GK_OK;
}

static int slab_size(const slabs *l, int g) { return l->first[g + 1] - l->first[g]; }

/* The nearest non-empty slab below / above g (-1: none). */
static int below(const slabs *l, int g)
{
    for (int j = g - 1; j >= 0; j--)
        if (slab_size(l, j)) return j;
    return -1;
}

static int above(const slabs *l, int g)
{
    for (int j = g + 1; j < l->P; j++)
        if (slab_size(l, j)) return j;
    return -1;
}

static size_t plane_bytes(const slabs *l) { return (size_t)l->nx * (size_t)l->ny * (size_t)l->esz; }

/* "a 40x7 float32 grid", "a 8x8x8 float64 grid": as the user gave it */
static const char *grid_text(const slabs *l, char *buf, size_t n)
{
    if (l->d2)
        snprintf(buf, n, "a %dx%d %s grid", l->nx, l->nz, l->f32 ? "float32" : "float64");
    else
        snprintf(buf, n, "a %dx%dx%d %s grid", l->nx, l->ny, l->nz, l->f32 ? "float32" : "float64");
    return buf;
}

/* Planes per staging chunk (at least one). */
static int chunk_planes(const slabs *l)
{
    size_t n = CHUNK_BYTES / plane_bytes(l);
    return n < 1 ? 1 : n > (size_t)l->nz ? l->nz : (int)n;
}

/* ------------------------------------------------------------------ input */

/* Where the initial planes come from: INPUT (read at their offsets) or the
 * random grid of gk_grid_random(seed). */
typedef struct source {
    int have;                /* an input file is open */
    gk_infile in;
    int64_t pos;             /* the stream's byte offset */
    uint64_t seed;
} source;

static gk_status source_open(source *s, const slabs *l, const char *input, uint64_t seed, const gk_comm *comm)
{
    memset(s, 0, sizeof *s);
    s->seed = seed;
    if (!input)
        return GK_OK;
    gk_status st = gk__in_open(&s->in, input);
    if (st) return st;
    s->have = 1;
    uint64_t want = (uint64_t)plane_bytes(l) * (uint64_t)l->nz;
    char gt[96];
    if (s->in.size >= 0 && (uint64_t)s->in.size != want)
        return gk__fail(GK_EFORMAT, "%s: %lld bytes, but %s is %llu bytes", s->in.name,
                        (long long)s->in.size, grid_text(l, gt, sizeof gt), (unsigned long long)want);
    if (s->in.size < 0 && gk__comm_size(comm) > 1)
        return gk__fail(GK_EINVAL, "%s: not a regular file: %d ranks cannot each read their planes of it",
                        s->in.name, gk__comm_size(comm));
    return GK_OK;
}

/* Global planes z .. z+n-1 into buf (x fastest; elements of l->esz bytes). */
static gk_status source_planes(source *s, const slabs *l, int z, int n, void *vbuf)
{
    uint64_t per = (uint64_t)l->nx * (uint64_t)l->ny, cnt = per * (uint64_t)n, base = per * (uint64_t)z;
    double *buf = vbuf;
    float *fbuf = vbuf;
    if (!s->have) {       /* gk__grid_random_type's values, by their global index */
        uint64_t seed = s->seed;
        int f32 = l->f32;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
        for (int64_t i = 0; i < (int64_t)cnt; i++) {
            double v = 2.0 * gk__rand_unit(seed, base + (uint64_t)i) - 1.0;
            if (f32) fbuf[i] = (float)v;
            else buf[i] = v;
        }
        return GK_OK;
    }
    const char *path = s->in.name;
    int64_t off = (int64_t)(base * (uint64_t)l->esz);
    if (off != s->pos) {
        if (fseeko(s->in.f, (off_t)off, SEEK_SET))
            return gk__fail(GK_EIO, "%s: cannot seek to plane %d: %s", path, z, strerror(errno));
        s->pos = off;
    }
    gk_status st = gk__read_exact(s->in.f, path, buf, (size_t)cnt * (size_t)l->esz, "the grid");
    if (st) return st;
    s->pos += (int64_t)(cnt * (uint64_t)l->esz);
    for (uint64_t i = 0; i < cnt; i++) {
        double v = l->f32 ? (double)fbuf[i] : buf[i];
        if (!isfinite(v)) {
            uint64_t g = base + i;
            uint64_t x = g % (uint64_t)l->nx, y = g / (uint64_t)l->nx % (uint64_t)l->ny,
                     zz = g / (uint64_t)l->nx / (uint64_t)l->ny;
            if (l->d2)
                return gk__fail(GK_EFORMAT, "%s: the value at x=%llu y=%llu (number %llu) is %s", path,
                                (unsigned long long)x, (unsigned long long)zz, (unsigned long long)g,
                                isnan(v) ? "NaN" : "infinite");
            return gk__fail(GK_EFORMAT, "%s: the value at x=%llu y=%llu z=%llu (number %llu) is %s", path,
                            (unsigned long long)x, (unsigned long long)y, (unsigned long long)zz,
                            (unsigned long long)g, isnan(v) ? "NaN" : "infinite");
        }
    }
    return GK_OK;
}

/* Under mpirun: the ranks agree on the problem (the size, the steps, the
 * seed, the coefficients; a description: its key, which hashes its
 * weights) and on the input they read.  Each rank reads only its own
 * planes, so no rank sees every byte: every rank also reads the
 * first plane of every slab and the last plane (P + 1 planes, whatever the
 * grid's size), and their checksum must be the same everywhere.  A file
 * that differs only inside a slab is not caught (gk(1) says so). */
static gk_status source_agree(source *s, const slabs *l, const gk_comm *comm, const char *input, int64_t steps,
                              const void *coeffs, size_t coeff_bytes)
{
    static const char *const names[] = { "nx", "ny", "nz", "steps", "seed", "checksum of the coefficients",
                                         "checksum of the sampled planes" };
    if (gk__comm_size(comm) <= 1)
        return GK_OK;
    gk_status st = GK_OK;
    uint64_t sum = 0;
    void *plane = NULL;
    if (s->have && !(st = gk__xmalloc((void **)&plane, plane_bytes(l), "a sampled plane"))) {
        for (int g = 0; g <= l->P && !st; g++) {
            int z = g < l->P ? l->first[g] : l->nz - 1;
            if (g < l->P && !slab_size(l, g))
                continue;
            if (!(st = source_planes(s, l, z, 1, plane)))
                sum = gk__checksum(sum, plane, plane_bytes(l));
        }
        free(plane);
    }
    int64_t v[7] = { l->nx, l->ny, l->nz, steps, s->have ? 0 : (int64_t)s->seed,
                     (int64_t)gk__checksum(0, coeffs, coeff_bytes), (int64_t)sum };
    if ((st = gk__comm_agree(comm, st)))
        return st;
    return gk__comm_same(comm, input ? input : "the stencil", v, names, 7);
}

/* After the last plane: a stream (one process) must end there. */
static gk_status source_close(source *s, const slabs *l, int read_last)
{
    gk_status st = GK_OK;
    if (s->have && read_last && s->in.size < 0) {
        char after[160], gt[96];
        snprintf(after, sizeof after, "the %llu bytes of %s",
                 (unsigned long long)plane_bytes(l) * (unsigned long long)l->nz, grid_text(l, gt, sizeof gt));
        st = gk__in_expect_end(&s->in, after);
    }
    if (s->have)
        gk__in_close(&s->in);
    s->have = 0;
    return st;
}

/* The start both runs share: the source opened (st: the caller's checks
 * so far; the open only if they passed), every rank agreeing on it and on
 * key (the description's or the coefficients), the report's slab layout;
 * on failure the source is closed again. */
static gk_status source_start(source *s, const slabs *l, gk_status st, const char *input, uint64_t seed,
                              const gk_comm *comm, int64_t steps, const void *key, size_t key_bytes,
                              gk_stencil_dist_report *rep)
{
    if (!st)
        st = source_open(s, l, input, seed, comm);
    if ((st = gk__comm_agree(comm, st)) || (st = source_agree(s, l, comm, input, steps, key, key_bytes))) {
        source_close(s, l, 0);
        return st;
    }
    rep->parts = l->P;
    rep->halo = l->H;
    rep->thinnest = l->thin == INT_MAX ? 0 : l->thin;
    rep->thickest = l->thick;
    return GK_OK;
}

/* ------------------------------------------------------------------ output */

/* This process's planes lo .. hi - 1 to OUTPUT (gk__dist_write), at most
 * `chunk` planes at a time through buf, never across a slab boundary
 * (fetch serves one slab).  One process: every plane, in order. */
static gk_status write_planes(const gk_comm *comm, const char *out, const slabs *l, int lo, int hi,
                              gk__dist_fetch fetch, void *src, void *buf, int chunk)
{
    if (gk__comm_size(comm) == 1)
        lo = 0, hi = l->nz;
    return gk__dist_write(comm, out, l->first, l->P, 1, l->nz, lo, hi, plane_bytes(l), fetch, src, buf, chunk);
}

/* ------------------------------------------------------------------ CPU ranks */

static gk_status fetch_cpu(void *src, int64_t z, int64_t n, void *buf)
{
    gk__stencil_cpu_slab_rows(src, (int)z, (int)n, buf, 0);
    return GK_OK;
}

static gk_status run_cpu(gk_context *ctx, const slabs *l, source *src, const char *out, const double *coeffs,
                         int steps, gk_stencil_dist_report *rep)
{
    const gk_comm *comm = ctx->comm;
    int me = gk__comm_rank(comm);
    gk_stencil_cpu_slab c;
    memset(&c, 0, sizeof c);
    c.nx = l->nx; c.ny = l->ny;
    c.z0 = l->first[me]; c.z1 = l->first[me + 1];
    c.e0 = c.z0 - l->H > 0 ? c.z0 - l->H : 0;
    c.e1 = c.z1 + l->H < l->nz ? c.z1 + l->H : l->nz;
    double *buf = NULL;
    int chunk = chunk_planes(l), mine = c.z1 > c.z0;
    int threads = gk__ctx_threads_enter(ctx);
    double t0 = gk__wtime();
    char what[96];
    snprintf(what, sizeof what, "rank %d's %d planes of the stencil grid", me, c.z1 - c.z0);
    gk_status st = GK_OK;
    if (mine && !(st = gk__host_memory_check(gk__stencil_cpu_bytes(l->nx, l->ny, c.e1 - c.e0)
                                            + (uint64_t)chunk * plane_bytes(l), what))
        && !(st = gk__stencil_cpu_open(&c.g, l->nx, l->ny, c.e1 - c.e0, coeffs, ctx->cpu_isa)))
        st = gk__xmalloc((void **)&buf, (size_t)chunk * plane_bytes(l), "the plane buffer");
    for (int z = c.z0; z < c.z1 && !st; z += chunk) {
        int n = c.z1 - z < chunk ? c.z1 - z : chunk;
        if (!(st = source_planes(src, l, z, n, buf)))
            gk__stencil_cpu_slab_rows(&c, z, n, buf, 1);
    }
    gk_status cst = source_close(src, l, c.z1 == l->nz);
    if (!st) st = cst;
    if ((st = gk__comm_agree(comm, st)))
        goto out;
    rep->read = gk__wtime() - t0;
    t0 = gk__wtime();
    double wait = 0;
    st = gk__comm_agree(comm, mine ? gk__stencil_cpu_slab_rounds(&c, comm, below(l, me), above(l, me), l->H, steps, &wait)
                                   : GK_OK);
    rep->exchange_busy += wait;
    rep->exchange_stall += wait;
    rep->compute = gk__wtime() - t0;
    if (st || !out)
        goto out;
    t0 = gk__wtime();
    st = write_planes(comm, out, l, c.z0, c.z1, fetch_cpu, &c, buf, chunk);
    rep->write = gk__wtime() - t0;
out:
    gk__ctx_threads_leave(threads);
    free(buf);
    gk__stencil_cpu_close(c.g);
    return st;
}

/* ------------------------------------------------------------------ GPUs */
#ifdef GK_HAVE_CUDA

/* The non-empty slabs of this process, in z order: parts[i] is slab
 * g[i] on GPU gpu[i]. */
typedef struct gpu_set {
    int n;
    gk_stencil_part *parts[GK_MAX_GPUS];
    int g[GK_MAX_GPUS];
    gk_nccl *nccl;
    const slabs *l;
} gpu_set;

static gk_status fetch_gpu(void *src, int64_t z, int64_t n, void *buf)
{
    gpu_set *s = src;
    for (int i = 0; i < s->n; i++)
        if (z >= s->l->first[s->g[i]] && z < s->l->first[s->g[i] + 1])
            return gk__stencil_part_get(s->parts[i], (int)z, (int)n, buf);
    return gk__fail(GK_EINVAL, "stencil: plane %lld is not on this process", (long long)z);
}

static void gpus_close(gpu_set *s)
{
    for (int i = 0; i < s->n; i++)
        gk__stencil_part_close(s->parts[i]);
    s->n = 0;
    if (s->nccl) gk__nccl_close(s->nccl);
    s->nccl = NULL;
}

/* Slabs g0 .. g0+G-1 are this process's (G: the context's GPUs in one
 * process, 1 under MPI); the empty ones get no part. */
static gk_status gpus_open(gk_context *ctx, const slabs *l, int g0, int G, const double *coeffs,
                           const gk_config *cfg, gpu_set *s)
{
    gk_status st = GK_OK;
    s->l = l;
    for (int i = 0; i < G && !st; i++) {
        int g = g0 + i;
        if (!slab_size(l, g))
            continue;
        if (!(st = gk__stencil_part_open(&s->parts[s->n], ctx->gpus[i], &ctx->dev[i], l->nx, l->ny, l->nz,
                                         l->first[g], l->first[g + 1], l->H, coeffs, cfg)))
            s->g[s->n++] = g;
    }
    return st;
}

/* Every slab of this process from src (or the random grid). */
static gk_status gpus_fill(gpu_set *s, source *src, double *pin, int chunk)
{
    gk_status st = GK_OK;
    for (int i = 0; i < s->n && !st; i++) {
        int z0 = s->l->first[s->g[i]], z1 = s->l->first[s->g[i] + 1];
        for (int z = z0; z < z1 && !st; z += chunk) {
            int n = z1 - z < chunk ? z1 - z : chunk;
            if (!(st = source_planes(src, s->l, z, n, pin)))
                st = gk__stencil_part_put(s->parts[i], z, n, pin);
        }
    }
    return st;
}

/* How the halos move; opens NCCL between ranks when it is used. */
static gk_status gpus_exchange(gk_context *ctx, gk_exchange want, gpu_set *s, int *mode, char *name,
                               size_t n)
{
    const gk_comm *comm = ctx->comm;
    gk_status st;
    if (!comm) {
        *mode = GK__SX_PEER;
        snprintf(name, n, "%s", s->n > 1 ? "peer copies" : "none (one slab)");
        return GK_OK;
    }
    if (want == GK_EXCHANGE_HOST) {
        *mode = GK__SX_HOST;
        snprintf(name, n, "pinned host memory and MPI");
        return GK_OK;
    }
    if ((st = gk__nccl_open_if_everywhere(&s->nccl, comm, want == GK_EXCHANGE_DEVICE)))
        return st;
    if (!s->nccl) {
        *mode = GK__SX_HOST;
        snprintf(name, n, "pinned host memory and MPI (no NCCL)");
        return GK_OK;
    }
    *mode = GK__SX_NCCL;
    snprintf(name, n, "NCCL send/receive");
    return GK_OK;
}

static void xchg_init(gk_stencil_xchg *x, gk_context *ctx, const slabs *l, gpu_set *s, int mode)
{
    memset(x, 0, sizeof *x);
    x->mode = mode;
    x->H = l->H;
    x->nccl = s->nccl;
    x->comm = ctx->comm;
    x->below = x->above = -1;
    if (ctx->comm) {
        int me = gk__comm_rank(ctx->comm);
        x->below = below(l, me);
        x->above = above(l, me);
    }
}

/* NCCL connects two ranks on their first transfer (a tenth of a second and
 * more): one halo exchange before the compute is timed. */
static gk_status gpus_connect(gk_context *ctx, const slabs *l, gpu_set *s, int mode)
{
    gk_stencil_xchg x;
    xchg_init(&x, ctx, l, s, mode);
    return mode == GK__SX_NCCL && s->n ? gk__stencil_multi_connect(s->parts, s->n, &x) : GK_OK;
}

static gk_status gpus_run(gk_context *ctx, const slabs *l, gpu_set *s, int mode, int steps, double *busy,
                          double *stall)
{
    gk_stencil_xchg x;
    xchg_init(&x, ctx, l, s, mode);
    gk_status st = s->n ? gk__stencil_multi_run(s->parts, s->n, &x, steps) : GK_OK;
    *busy = x.busy;
    *stall = x.stall;
    return st;
}

static gk_status run_gpu(gk_context *ctx, const slabs *l, source *src, const char *out, const double *coeffs,
                         int steps, const gk_config *cfg, gk_exchange want, gk_stencil_dist_report *rep)
{
    const gk_comm *comm = ctx->comm;
    int rank = gk__comm_rank(comm), G = comm ? 1 : ctx->ngpus;
    gpu_set s;
    double *pin = NULL;
    int saved = -1, entered = 0, mode = 0, chunk = chunk_planes(l);
    memset(&s, 0, sizeof s);
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if ((st = gk__comm_agree(comm, st)))
        return st;
    entered = 1;
    double t0 = gk__wtime();
    char what[64];
    snprintf(what, sizeof what, "the plane buffer (%d planes)", chunk);
    if (!(st = gk__host_memory_check((uint64_t)chunk * plane_bytes(l), what))
        && !(st = gk__stencil_pinned((void **)&pin, (size_t)chunk * plane_bytes(l)))
        && !(st = gpus_open(ctx, l, rank * G, G, coeffs, cfg, &s)))
        st = gpus_fill(&s, src, pin, chunk);
    gk_status cst = source_close(src, l, rank * G + G == l->P);
    if (!st) st = cst;
    if ((st = gk__comm_agree(comm, st)))
        goto out;
    rep->read = gk__wtime() - t0;
    if ((st = gpus_exchange(ctx, want, &s, &mode, rep->exchange, sizeof rep->exchange))
        || (st = gk__comm_agree(comm, gpus_connect(ctx, l, &s, mode))))
        goto out;
    t0 = gk__wtime();
    st = gk__comm_agree(comm, gpus_run(ctx, l, &s, mode, steps, &rep->exchange_busy, &rep->exchange_stall));
    rep->compute = gk__wtime() - t0;
    if (st || !out)
        goto out;
    t0 = gk__wtime();
    int lo = l->first[rank * G], hi = l->first[rank * G + G];
    st = write_planes(comm, out, l, lo, hi, fetch_gpu, &s, pin, chunk);
    rep->write = gk__wtime() - t0;
out:
    gpus_close(&s);
    gk__stencil_pinned_free(pin);
    if (entered) gk__ctx_gpu_leave(saved);
    return st;
}
#endif /* GK_HAVE_CUDA */

static void dist_report_init(gk_context *ctx, gk_stencil_dist_report *rep);

/* ------------------------------------------------------------------ descriptions */

/* A slab of a stencil description (gk/stencil.h): the description's own
 * engine, unchanged -- the CPU backend (cpu/stencil_spec_cpu.h) or one
 * GPU's generated engine (gpu/stencil_gen.h) -- on the extended range
 * [e0, e1) of planes: the slab and H = r x T planes of each neighbour.
 * Periodic: both sides always, the first and last non-empty slabs being
 * neighbours (e0 < 0 or e1 > nz: the wrapped planes); zero and fixed: only
 * towards a neighbour, so at the grid's faces the engine's own boundary is
 * the grid's.  A round of t <= T steps: the r x t planes next to each cut
 * face go to the neighbour's halo, then the engine runs t steps over its
 * whole extended range.  Its planes near the range's ends come out wrong
 * (the engine's boundary -- zero, wrapped within the range, or kept --
 * stands in for planes it does not hold), but a wrong value moves r planes
 * per step, so after t steps the r x t halo planes have absorbed it and
 * the slab holds what one process computes: the same chain on the same
 * values, bit for bit.  (Halo planes beyond r x t are stale from the last
 * round: they are further out, so the same argument covers them.) */
typedef struct dpart {
    int g, z0, z1, e0, e1;     /* slab g: planes [z0, z1); held: [e0, e1) */
    int lo, hi;                /* the neighbouring slabs (-1: none) */
    gk_stencil_cpu_spec *cpu;
#ifdef GK_HAVE_CUDA
    gk_stencil_gen *gpu;
#endif
    char *xb;                  /* 4 x H planes: sent down, sent up, received from below, from above */
} dpart;

typedef struct dset {
    const slabs *l;
    const gk__stencil_spec *s;
    int n, T;                  /* parts of this process; steps per round */
    dpart p[GK_MAX_GPUS];
} dset;

/* The neighbour below / above slab g (periodic: around the ends; never g
 * itself: a single non-empty slab wraps inside its own engine). */
static int nb_below(const slabs *l, int g, int periodic)
{
    int j = below(l, g);
    if (j < 0 && periodic) j = below(l, l->P);
    return j == g ? -1 : j;
}

static int nb_above(const slabs *l, int g, int periodic)
{
    int j = above(l, g);
    if (j < 0 && periodic) j = above(l, -1);
    return j == g ? -1 : j;
}

static gk_status dpart_io(dpart *p, int k, int n, void *buf, int put)
{
    if (p->cpu) {
        gk__stencil_cpu_spec_planes(p->cpu, k, n, buf, put);
        return GK_OK;
    }
#ifdef GK_HAVE_CUDA
    return gk__stencil_gen_planes(p->gpu, k, n, buf, put);
#else
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}

/* t steps; GPUs: launched (wait 0; the next plane copy on the same stream
 * waits for them) or waited for. */
static gk_status dpart_steps(dpart *p, int t, int wait)
{
    if (p->cpu)
        return gk__stencil_cpu_spec_steps(p->cpu, t);
#ifdef GK_HAVE_CUDA
    return gk__stencil_gen_steps_on(p->gpu, t, wait);
#else
    (void)wait;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}

static void dparts_close(dset *d)
{
    for (int i = 0; i < d->n; i++) {
        gk__stencil_cpu_spec_close(d->p[i].cpu);
#ifdef GK_HAVE_CUDA
        gk__stencil_gen_close(d->p[i].gpu);
#endif
        free(d->p[i].xb);
    }
    d->n = 0;
}

/* Slabs g0 .. g0+G-1 are this process's (GPU i of the context for slab
 * g0+i; the CPU: G = 1); the empty ones get no part. */
static gk_status dparts_open(gk_context *ctx, dset *d, int g0, int G, char *config, size_t config_size,
                             const gk__sg_cubin_store *store)
{
    const slabs *l = d->l;
    const gk__stencil_spec *s = d->s;
    int periodic = s->boundary == GK_BOUNDARY_PERIODIC;
    gk_status st = GK_OK;
    for (int i = 0; i < G && !st; i++) {
        int g = g0 + i;
        if (!slab_size(l, g))
            continue;
        dpart *p = &d->p[d->n++];
        memset(p, 0, sizeof *p);
        p->g = g;
        p->z0 = l->first[g];
        p->z1 = l->first[g + 1];
        p->lo = nb_below(l, g, periodic);
        p->hi = nb_above(l, g, periodic);
        p->e0 = p->z0 - (p->lo >= 0 ? l->H : 0);
        p->e1 = p->z1 + (p->hi >= 0 ? l->H : 0);
        int64_t ne = p->e1 - p->e0, ey = s->dims == 3 ? l->ny : ne, ez = s->dims == 3 ? ne : 1;
        uint64_t xbytes = 4 * (uint64_t)l->H * plane_bytes(l);
        char what[96];
        snprintf(what, sizeof what, "slab %d of the stencil grid (%d planes and the halo)", g, p->z1 - p->z0);
        if (ctx->backend != GK_BACKEND_GPU) {
            uint64_t eb = gk__stencil_cpu_spec_bytes(s, l->nx, ey, ez);
            if (!(st = gk__host_memory_check(eb == UINT64_MAX ? eb : eb + xbytes, what))
                && !(st = gk__stencil_cpu_spec_open(&p->cpu, s, l->nx, ey, ez, ctx->cpu_isa)))
                snprintf(config, config_size, "%s", gk__stencil_cpu_spec_config(p->cpu));
        } else {
#ifdef GK_HAVE_CUDA
            if (!(st = gk__stencil_gen_open_on(&p->gpu, &ctx->dev[i], s, l->nx, ey, ez, NULL, store)))
                snprintf(config, config_size, "%s", gk__stencil_gen_config(p->gpu));
#else
            (void)store;
            st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
        }
        if (!st)
            st = gk__xmalloc((void **)&p->xb, (size_t)xbytes, "the halo buffers");
    }
    return st;
}

/* Every slab of this process from src (or the random grid), through buf. */
static gk_status dparts_fill(dset *d, source *src, void *buf, int chunk)
{
    gk_status st = GK_OK;
    for (int i = 0; i < d->n && !st; i++) {
        dpart *p = &d->p[i];
        for (int z = p->z0; z < p->z1 && !st; z += chunk) {
            int n = p->z1 - z < chunk ? p->z1 - z : chunk;
            if (!(st = source_planes(src, d->l, z, n, buf)))
                st = dpart_io(p, z - p->e0, n, buf, 1);
        }
    }
    return st;
}

static dpart *dpart_of(dset *d, int g)
{
    for (int i = 0; i < d->n; i++)
        if (d->p[i].g == g) return &d->p[i];
    return NULL;
}

/* steps steps in rounds of t <= T: r x t planes each way (between the
 * parts of this process by host copies; between ranks, one part each, by
 * the communicator's sendrecv), then t steps on every part (GPUs at the
 * same time).  *wait: seconds moving halo planes. */
static gk_status dparts_run(dset *d, const gk_comm *comm, int steps, double *wait)
{
    const slabs *l = d->l;
    const size_t pb = plane_bytes(l), H = (size_t)l->H;
    gk_status st = GK_OK;
    for (int s = 0; s < steps && !st; s += d->T) {
        int t = steps - s < d->T ? steps - s : d->T, m = d->s->radius * t;
        size_t mb = (size_t)m * pb;
        double t0 = gk__wtime();
        for (int i = 0; i < d->n && !st; i++) {
            dpart *p = &d->p[i];
            if (p->lo >= 0) st = dpart_io(p, p->z0 - p->e0, m, p->xb, 0);
            if (p->hi >= 0 && !st) st = dpart_io(p, p->z1 - m - p->e0, m, p->xb + H * pb, 0);
        }
        if (!st && comm && d->n) {      /* one part per rank: slab g is rank g */
            dpart *p = &d->p[0];
            size_t dn = p->lo >= 0 ? mb : 0, up = p->hi >= 0 ? mb : 0;
            if (!(st = gk__comm_sendrecv(comm, p->xb, dn, dn ? p->lo : -1, p->xb + 3 * H * pb, up, up ? p->hi : -1)))
                st = gk__comm_sendrecv(comm, p->xb + H * pb, up, up ? p->hi : -1, p->xb + 2 * H * pb, dn,
                                       dn ? p->lo : -1);
        }
        for (int i = 0; i < d->n && !st; i++) {
            dpart *p = &d->p[i], *q;
            if (p->lo >= 0) {
                const char *from = comm ? p->xb + 2 * H * pb : (q = dpart_of(d, p->lo)) ? q->xb + H * pb : NULL;
                st = from ? dpart_io(p, p->z0 - m - p->e0, m, (void *)from, 1)
                          : gk__fail(GK_EINVAL, "stencil: slab %d is not on this process", p->lo);
            }
            if (p->hi >= 0 && !st) {
                const char *from = comm ? p->xb + 3 * H * pb : (q = dpart_of(d, p->hi)) ? q->xb : NULL;
                st = from ? dpart_io(p, p->z1 - p->e0, m, (void *)from, 1)
                          : gk__fail(GK_EINVAL, "stencil: slab %d is not on this process", p->hi);
            }
        }
        *wait += gk__wtime() - t0;
        for (int i = 0; i < d->n && !st; i++)
            st = dpart_steps(&d->p[i], t, 0);
    }
    for (int i = 0; i < d->n && !st; i++)
        st = dpart_steps(&d->p[i], 0, 1);
    return st;
}

static gk_status fetch_desc(void *src, int64_t z, int64_t n, void *buf)
{
    dset *d = src;
    for (int i = 0; i < d->n; i++)
        if (z >= d->p[i].z0 && z < d->p[i].z1)
            return dpart_io(&d->p[i], (int)z - d->p[i].e0, (int)n, buf, 0);
    return gk__fail(GK_EINVAL, "stencil: plane %lld is not on this process", (long long)z);
}

/* The steps per round: the GPU engine's steps per pass (its default
 * configuration: the one each GPU opens), the CPU's GK_STENCIL_CPU_T. */
static int desc_steps_per_round(const gk_context *ctx, const gk__stencil_spec *s)
{
    if (ctx->backend != GK_BACKEND_GPU)
        return GK_STENCIL_CPU_T;
    gk_config def, full;
    gk__config_clear(&def);
    gk__stencil_gen_default_design(s->dims, s->radius, gk__stencil_gen_points(s), s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8,
                                   -1, &def);
    if (gk__space_complete(&gk__space_stencil_gen, &def, &full)) {
        gk__clear_error();
        return 1;
    }
    int t = gk__param(&full, "TSTEPS");
    return t >= 1 ? t : 1;
}

gk_status gk__stencil_run_file_desc(gk_context *ctx, const gk__stencil_spec *spec, const char *input, uint64_t seed,
                                    const char *output, int64_t nx, int64_t ny, int64_t nz, int64_t steps,
                                    gk_exchange exchange, gk_stencil_dist_report *rep)
{
    const gk_comm *comm = ctx->comm;
    int d2 = spec->dims == 2;
    char text[sizeof spec->key];
    gk__stencil_spec_shape_key(spec, text, sizeof text);       /* "3d-star-r2-f64-periodic" */
    dist_report_init(ctx, rep);
    slabs l = { 0 };
    l.esz = spec->dtype == GK_DTYPE_FLOAT32 ? 4 : 8;
    l.f32 = spec->dtype == GK_DTYPE_FLOAT32;
    l.d2 = d2;
    source src;
    memset(&src, 0, sizeof src);
    dset d;
    memset(&d, 0, sizeof d);
    d.l = &l;
    d.s = spec;
    void *buf = NULL;
    int threads = -1, saved = -1, entered = 0;
    int64_t planes = d2 ? ny : nz;
    int P = gk__comm_size(comm) * (ctx->backend == GK_BACKEND_GPU && !comm ? ctx->ngpus : 1);
    gk_status st = gk__dist_check(ctx, NULL, NULL);
    if (!st && comm && !comm->sendrecv)
        st = gk__fail(GK_EINVAL, "the communicator has no sendrecv (needed between the ranks of a stencil)");
    if (!st && d2 && nz != 1)
        st = gk__fail(GK_EINVAL, "stencil %s: a 2D grid has nz = 1, not %lld", text, (long long)nz);
    if (!st)
        st = gk_stencil_check_size(nx, ny, nz, steps);
    if (!st)
        st = gk__stencil_spec_check_grid(spec, nx, ny, nz);
    if (!st && exchange == GK_EXCHANGE_DEVICE)
        st = gk__fail(GK_EINVAL, "stencil %s: the halo of a description moves through host memory, not NCCL "
                      "(exchange=device is the 27-point box's)", text);
    if (!st)
        st = gk__dist_check(ctx, input, output);
    if (!st)
        st = slabs_make(&l, (int)nx, d2 ? 1 : (int)ny, (int)planes, P, 1);
    if (!st) {
        /* H = r x T planes, at most the thinnest non-empty slab: fewer steps
         * per round where slabs are thin, an error where one is thinner
         * than the radius (its neighbour would need planes beyond it) */
        int r = spec->radius, T = desc_steps_per_round(ctx, spec);
        if (l.thin < T * r) T = l.thin / r;
        if (T < 1)
            st = gk__fail(GK_EINVAL, "stencil %s: %d %s over %d slabs leaves a slab of %d %s%s, thinner than the "
                          "halo of radius %d: use at most %lld slabs (GPUs or ranks)", text, (int)planes,
                          d2 ? "rows" : "planes", P, l.thin, d2 ? "row" : "plane", l.thin == 1 ? "" : "s", r,
                          (long long)(planes / r > 0 ? planes / r : 1));
        d.T = T;
        l.H = T * r;
    }
    if ((st = source_start(&src, &l, st, input, seed, comm, steps, spec->key, strlen(spec->key), rep))) {
        free(l.first);
        return st;
    }
    int me = gk__comm_rank(comm), G = ctx->backend == GK_BACKEND_GPU && !comm ? ctx->ngpus : 1;
    int chunk = chunk_planes(&l);
    gk__sg_cubin_store store;        /* each rank loads the compiled kernels from its context's cache directory */
    gk__stencil_gen_disk_store(ctx->cache_dir, &store);
    if (ctx->backend == GK_BACKEND_GPU) {
        if (!(st = gk__ctx_gpu_enter(ctx, &saved)))
            entered = 1;
    } else {
        threads = gk__ctx_threads_enter(ctx);
    }
    double t0 = gk__wtime();
    char what[64];
    snprintf(what, sizeof what, "the plane buffer (%d planes)", chunk);
    if (!st && !(st = gk__host_memory_check((uint64_t)chunk * plane_bytes(&l), what))
        && !(st = gk__xmalloc(&buf, (size_t)chunk * plane_bytes(&l), "the plane buffer"))
        && !(st = dparts_open(ctx, &d, me * G, G, rep->run.config, sizeof rep->run.config, &store)))
        st = dparts_fill(&d, &src, buf, chunk);
    gk_status cst = source_close(&src, &l, me * G + G == l.P);
    if (!st) st = cst;
    if ((st = gk__comm_agree(comm, st)))
        goto out;
    rep->read = gk__wtime() - t0;
    snprintf(rep->exchange, sizeof rep->exchange, "%s",
             comm ? "host memory and MPI send/receive" : d.n > 1 ? "host copies" : "none (one slab)");
    t0 = gk__wtime();
    double wait = 0;
    st = gk__comm_agree(comm, dparts_run(&d, comm, (int)steps, &wait));
    rep->exchange_busy = rep->exchange_stall = wait;
    rep->compute = gk__wtime() - t0;
    if (st || !output)
        goto out;
    t0 = gk__wtime();
    {
        int lo = l.first[me * G], hi = l.first[me * G + G];
        st = write_planes(comm, output, &l, lo, hi, fetch_desc, &d, buf, chunk);
    }
    rep->write = gk__wtime() - t0;
out:
    dparts_close(&d);
    free(buf);
    if (threads >= 0) gk__ctx_threads_leave(threads);
    if (entered) gk__ctx_gpu_leave(saved);
    rep->run.compute = rep->compute;
    if (!st && comm)
        st = slowest_times(comm, rep);
    free(l.first);
    return st;
}

/* ------------------------------------------------------------------ front door */

static void dist_report_init(gk_context *ctx, gk_stencil_dist_report *rep)
{
    memset(rep, 0, sizeof *rep);
    gk__dist_report_init(ctx, &rep->run, &rep->ranks, &rep->gpus);
    rep->write = -1;
    snprintf(rep->exchange, sizeof rep->exchange, "%s", rep->ranks > 1 ? "MPI send/receive" : "none (one process)");
}

/* The checks every entry point shares; the number of slabs and the halo
 * depth the configuration wants. */
static gk_status dist_setup(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int64_t steps, const char *config,
                            gk_config *cfg, gk_report *rep, int *P, int *want_h)
{
    const gk_comm *comm = ctx->comm;
    gk_status st;
    if ((st = gk__dist_check(ctx, NULL, NULL)))
        return st;
    if (comm && !comm->sendrecv)
        return gk__fail(GK_EINVAL, "the communicator has no sendrecv (needed between the ranks of a stencil)");
    if ((st = gk_stencil_check_size(nx, ny, nz, steps)))
        return st;
    int64_t m = nx > ny ? nx : ny;
    if ((st = gk__ctx_config(ctx, "stencil", m > nz ? m : nz, config, cfg, rep)))
        return st;
    *P = gk__comm_size(comm) * (ctx->backend == GK_BACKEND_GPU && !comm ? ctx->ngpus : 1);
#ifdef GK_HAVE_CUDA
    *want_h = ctx->backend == GK_BACKEND_GPU ? gk__stencil_cfg_steps_per_pass(cfg) : GK_STENCIL_CPU_T;
#else
    *want_h = GK_STENCIL_CPU_T;
#endif
    return GK_OK;
}

gk_status gk__stencil_run_file_cfg(gk_context *ctx, const char *input, uint64_t seed, const char *output,
                              int64_t nx, int64_t ny, int64_t nz, const double coeffs[GK_STENCIL_NCOEFFS],
                              int64_t steps, const char *config, gk_exchange exchange,
                              gk_stencil_dist_report *report)
{
    gk_stencil_dist_report local;
    gk_stencil_dist_report *rep = report ? report : &local;
    if (!ctx || !coeffs)
        return gk__fail(GK_EINVAL, "gk_stencil_run_file: no %s", !ctx ? "context" : "coefficients");
    const gk_comm *comm = ctx->comm;
    gk_config cfg;
    slabs l = { 0 };
    source src;
    memset(&src, 0, sizeof src);
    int P = 1, want_h = 1;
    dist_report_init(ctx, rep);
    gk_status st = dist_setup(ctx, nx, ny, nz, steps, config, &cfg, &rep->run, &P, &want_h);
    if (!st)
        st = gk__dist_check(ctx, input, output);
    if (!st)
        st = slabs_make(&l, (int)nx, (int)ny, (int)nz, P, want_h);
    if ((st = source_start(&src, &l, st, input, seed, comm, steps, coeffs, GK_STENCIL_NCOEFFS * sizeof *coeffs,
                           rep))) {
        free(l.first);
        return st;
    }
    if (ctx->backend != GK_BACKEND_GPU)
        st = run_cpu(ctx, &l, &src, output, coeffs, (int)steps, rep);
    else {
#ifdef GK_HAVE_CUDA
        st = run_gpu(ctx, &l, &src, output, coeffs, (int)steps, &cfg, exchange, rep);
#else
        source_close(&src, &l, 0);
        st = gk__comm_agree(comm, gk__fail(GK_ENODEV, "gk was built without CUDA support"));
#endif
    }
    (void)exchange;
    rep->run.compute = rep->compute;
    if (!st && comm)
        st = slowest_times(comm, rep);
    free(l.first);
    return st;
}

/* ------------------------------------------------------------------ bench */

gk_status gk__stencil_bench_multi(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int steps,
                                 const char *config, gk__stencil_multi_row *row)
{
    memset(row, 0, sizeof *row);
    row->nx = nx; row->ny = ny; row->nz = nz;
    row->steps = steps;
    row->identical = -1;
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk__stencil_bench_multi: no context");
    if (ctx->backend != GK_BACKEND_GPU)
        return gk__fail(GK_EINVAL, "bench stencil past one GPU needs the GPU backend");
    if (steps < 1)
        return gk__fail(GK_EINVAL, "bench stencil: %d steps (want >= 1)", steps);
#ifndef GK_HAVE_CUDA
    (void)config;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#else
    const gk_comm *comm = ctx->comm;
    int rank = gk__comm_rank(comm), size = gk__comm_size(comm), G = comm ? 1 : ctx->ngpus;
    gk_report rep;
    gk_config cfg;
    int P = 1, want_h = 1;
    gk__ctx_report_init(ctx, &rep);
    gk_status st = gk__comm_agree(comm, dist_setup(ctx, nx, ny, nz, steps, config, &cfg, &rep, &P, &want_h));
    if (st) return st;
    row->gpus = P;
    row->ranks = size;
    snprintf(row->device, sizeof row->device, "%s", rep.device);
    snprintf(row->config, sizeof row->config, "%s", rep.config);
    const uint64_t seed = 12345;
    slabs l = { 0 };
    gpu_set s;
    memset(&s, 0, sizeof s);
    source src;
    memset(&src, 0, sizeof src);
    src.seed = seed;
    double *one = NULL, *pin = NULL;
    int saved = -1, entered = 0;
    uint64_t npts = (uint64_t)nx * (uint64_t)ny * (uint64_t)nz, bytes = npts * sizeof(double);
    if ((st = gk__comm_agree(comm, gk__ctx_gpu_enter(ctx, &saved))))
        return st;
    entered = 1;
    /* one GPU, the single-GPU code (one process only; skipped when it does
     * not fit the GPU or the host) */
    if (size == 1 && gk__host_memory_check(2 * bytes, "") == GK_OK) {
        gk_stencil_gpu *g = NULL;
        float ms = 0;
        if ((st = gk__stencil_gpu_open(&g, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), (int)nx, (int)ny, (int)nz,
                                       gk_stencil_default_coeffs, &cfg)) == GK_ENOMEM) {
            st = GK_OK;
            gk__clear_error();
        } else if (!st) {
            if (!(st = gk__xmalloc((void **)&one, (size_t)bytes, "the one-GPU grid"))) {
                gk_grid_random(one, (int)nx, (int)ny, (int)nz, seed);
                int warm = gk__stencil_gpu_steps_per_pass(g);
                if (!(st = gk__stencil_gpu_upload(g, one, NULL)) && !(st = gk__stencil_gpu_run(g, warm, NULL))
                    && !(st = gk__stencil_gpu_upload(g, one, NULL)) && !(st = gk__stencil_gpu_run(g, steps, &ms)))
                    st = gk__stencil_gpu_download(g, one, NULL);
                row->one_seconds = ms * 1e-3;
            }
        }
        gk__stencil_gpu_close(g);
        if (st) goto out;
    } else {
        gk__clear_error();
    }
    int chunk;
    if ((st = gk__comm_agree(comm, slabs_make(&l, (int)nx, (int)ny, (int)nz, P, want_h))))
        goto out;
    chunk = chunk_planes(&l);
    row->halo = l.H;
    st = gk__stencil_pinned((void **)&pin, (size_t)chunk * plane_bytes(&l));
    if (!st)
        st = gpus_open(ctx, &l, rank * G, G, gk_stencil_default_coeffs, &cfg, &s);
    if ((st = gk__comm_agree(comm, st)))
        goto out;
    int mode;
    if ((st = gpus_exchange(ctx, GK_EXCHANGE_AUTO, &s, &mode, row->exchange, sizeof row->exchange)))
        goto out;
    for (int r = 0; r < 2 && !st; r++) {     /* a warm-up of one round, then the timed run */
        if ((st = gk__comm_agree(comm, gpus_fill(&s, &src, pin, chunk))))
            break;
        double busy = 0, stall = 0, t0 = gk__wtime();
        st = gk__comm_agree(comm, gpus_run(ctx, &l, &s, mode, r ? steps : l.H, &busy, &stall));
        double v[3] = { gk__wtime() - t0, busy, stall };
        if (!st && !(st = gk__comm_max_f64(comm, v, 3)) && r == 1) {
            row->seconds = v[0];
            row->busy = v[1];
            row->stall = v[2];
        }
    }
    if (st) goto out;
    double work = (double)npts * steps;
    row->gstencils = work / row->seconds * 1e-9;
    if (row->one_seconds > 0) {
        row->one_gstencils = work / row->one_seconds * 1e-9;
        row->speedup = row->one_seconds / row->seconds;
        row->efficiency = row->speedup / row->gpus;
        /* the check: every slab against the one GPU's grid, bit for bit */
        int same = 1;
        for (int i = 0; i < s.n && !st; i++) {
            int z0 = l.first[s.g[i]], z1 = l.first[s.g[i] + 1];
            for (int z = z0; z < z1 && !st; z += chunk) {
                int n = z1 - z < chunk ? z1 - z : chunk;
                if (!(st = gk__stencil_part_get(s.parts[i], z, n, pin)))
                    same &= !memcmp(pin, one + (size_t)z * nx * ny, (size_t)n * plane_bytes(&l));
            }
        }
        row->identical = same;
    }
out:
    gpus_close(&s);
    gk__stencil_pinned_free(pin);
    if (entered) gk__ctx_gpu_leave(saved);
    free(l.first);
    free(one);
    return st;
#endif
}
