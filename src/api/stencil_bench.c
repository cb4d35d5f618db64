/* stencil_bench.c - `gk bench stencil` (for the commands only,
 * src/api/commands.h): each design on the context's backend against the
 * memory floor and the arithmetic ceiling measured in the same run. */
#include "api/context.h"
#include "api/commands.h"
#include "cpu/stencil_cpu.h"
#include "cpu/stencil_spec_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gpu.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int64_t max3(int64_t a, int64_t b, int64_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }


static void check_text(gk_status st, const gk__stencil_diff *d, gk__stencil_bench_row *r)
{
    r->ok = st == GK_OK;
    if (st)
        snprintf(r->check, sizeof r->check, "FAIL %.3g", d->max_abs);
    else if (d->max_abs == 0)
        snprintf(r->check, sizeof r->check, "ok (bit-exact)");
    else
        snprintf(r->check, sizeof r->check, "ok (%.2g)", d->max_abs);
}

/* The last-level cache's size in bytes as the system reports it
 * (sysconf, else the highest level under /sys/devices/system/cpu/cpu0/cache);
 * 0 when unknown. */
static uint64_t llc_bytes(void)
{
    long v = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    v = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
    if (v <= 0)
        v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (v > 0)
        return (uint64_t)v;
    uint64_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 10; i++) {
        char path[96];
        int level = 0;
        unsigned long long kb = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        int got = fscanf(f, "%d", &level);
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (got != 1 || !(f = fopen(path, "r"))) continue;
        got = fscanf(f, "%lluK", &kb);
        fclose(f);
        if (got == 1 && level > best_level)
            best_level = level, best = (uint64_t)kb * 1024;
    }
    return best;
}

/* The copy floor is a memory floor only when the copy's two buffers (the
 * grid read and written) do not fit in the last-level cache: a grid that
 * fits gets none (copy_bytes_per_s = floor_gstencils = 0, printed "n/a
 * (grid fits in cache)"), rather than the in-cache copy of a few KB whose
 * rate says nothing of memory.  An unknown cache size: always measured. */
static int grid_fits_cache(uint64_t bytes_both)
{
    uint64_t llc = llc_bytes();
    return llc && bytes_both <= llc;
}

/* Host copy bandwidth (bytes read + written per second) over `bytes`. */
static double host_copy_bandwidth(double *a, double *b, size_t bytes)
{
    double t[5];
    memcpy(b, a, bytes);          /* warm-up: touch both */
    for (int r = 0; r < 5; r++) {
        double t0 = gk__wtime();
        memcpy(r & 1 ? a : b, r & 1 ? b : a, bytes);
        t[r] = gk__wtime() - t0;
    }
    return 2.0 * (double)bytes / gk__median(t, 5, NULL);
}

typedef struct bench_data {
    int nx, ny, nz, steps, reps, vsteps;
    int64_t n;
    double *grid, *cpu, *tmp, scale;
} bench_data;

/* Median ms per step of reps timed runs of `steps` steps on the CPU
 * backend's buffers (allocated and loaded once: the steps alone are timed,
 * as on the GPU), T steps per pass; then vsteps steps from the same grid,
 * compared with the reference. */
static gk_status bench_cpu_row(bench_data *B, gk_cpu_isa isa, int T, gk__stencil_bench_row *r)
{
    gk_stencil_cpu *g = NULL;
    double t[64];
    gk_status st = gk__stencil_cpu_open(&g, B->nx, B->ny, B->nz, gk_stencil_default_coeffs, isa);
    if (st) return st;
    gk__stencil_cpu_load(g, B->grid);
    st = gk__stencil_cpu_steps(g, T, T);         /* warm-up: first touch of the rings */
    for (int rep = 0; rep < B->reps && !st; rep++) {
        gk__stencil_cpu_load(g, B->grid);
        double t0 = gk__wtime();
        st = gk__stencil_cpu_steps(g, B->steps, T);
        t[rep] = gk__wtime() - t0;
    }
    if (!st) {
        gk__stencil_cpu_load(g, B->grid);
        st = gk__stencil_cpu_steps(g, B->vsteps, T);
        gk__stencil_cpu_store(g, B->tmp);
    }
    gk__stencil_cpu_close(g);
    if (st) return st;
    r->ms_per_step = gk__median(t, B->reps, NULL) * 1e3 / B->steps;
    r->gstencils = (double)B->n / (r->ms_per_step * 1e-3) * 1e-9;
    gk__stencil_diff d;
    check_text(gk__stencil_compare(B->tmp, B->cpu, B->n, B->vsteps, B->scale, &d), &d, r);
    gk__clear_error();
    return GK_OK;
}

static gk_status bench_cpu(bench_data *B, gk__stencil_bench_report *R)
{
    gk_status st = GK_OK;
    R->copy_bytes_per_s = grid_fits_cache(2 * (uint64_t)B->n * 8) ? 0
                          : host_copy_bandwidth(B->grid, B->tmp, (size_t)B->n * 8);
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    /* the plain reference loop: one run of at most 2 steps (it is the slow
     * baseline, not a design to tune) */
    {
        gk__stencil_bench_row *r = &R->row[R->nrows++];
        int steps = B->steps < 2 ? B->steps : 2;
        snprintf(r->kernel, sizeof r->kernel, "reference");
        snprintf(r->config, sizeof r->config, "plain loop, one thread per z plane (1 run of %d step%s)",
                 steps, steps > 1 ? "s" : "");
        memcpy(B->tmp, B->grid, (size_t)B->n * 8);
        double t0 = gk__wtime();
        if ((st = gk__stencil_cpu_reference(B->tmp, B->nx, B->ny, B->nz, gk_stencil_default_coeffs, steps)))
            return st;
        r->ms_per_step = (gk__wtime() - t0) * 1e3 / steps;
        r->gstencils = (double)B->n / (r->ms_per_step * 1e-3) * 1e-9;
        r->ok = 1;
        r->tsteps = 1;
        r->steps = steps;
        snprintf(r->check, sizeof r->check, "(reference)");
    }
    /* one step per sweep with each instruction set this CPU has (the
     * scalar code only where it is all there is), then the temporal sweeps
     * (T steps per pass) with the best one; each row's set is given to
     * the backend (nothing process-wide is switched) */
    gk_cpu_isa best = gk__cpu_isa_best();
    int plan[8][2], np = 0;                      /* { isa, T } */
    for (int isa = GK_CPU_ISA_GENERIC; isa <= GK_CPU_ISA_AVX512; isa++)
        if (gk_cpu_isa_supported((gk_cpu_isa)isa) && (isa > GK_CPU_ISA_GENERIC || (int)best == isa))
            plan[np][0] = isa, plan[np++][1] = 1;
    for (int T = 2; T <= 4; T++)
        plan[np][0] = best, plan[np++][1] = T;
    for (int i = 0; i < np && !st && R->nrows < GK_STENCIL_BENCH_ROWS; i++) {
        gk_cpu_isa isa = (gk_cpu_isa)plan[i][0];
        int T = plan[i][1];
        gk__stencil_bench_row *r = &R->row[R->nrows++];
        r->tsteps = T;
        if (T == 1)
            snprintf(r->kernel, sizeof r->kernel, "cpu");
        else
            snprintf(r->kernel, sizeof r->kernel, "cpu T=%d", T);
        snprintf(r->config, sizeof r->config, "%s, %d thread%s, %s", gk__stencil_cpu_isa_name(isa), threads,
                 threads > 1 ? "s" : "", T == 1 ? "one step per sweep, 16-row x 32-plane tiles"
                                                : "T steps per pass over 32-row blocks");
        st = bench_cpu_row(B, isa, T, r);
    }
    return st;
}

#ifdef GK_HAVE_CUDA
static gk_status bench_gpu(gk_context *ctx, bench_data *B, const gk_config *base, gk__stencil_bench_report *R)
{
    int saved;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    cudaStream_t s = (cudaStream_t)gk__ctx_stream(ctx);
    R->sm_count = ctx->dev[0].sm_count;
    if ((st = gk__gpu_copy_bandwidth((size_t)B->n * 8, 9, &R->copy_bytes_per_s)))
        goto out;
    /* rows: the naive kernel, then each design (or only the one asked
     * for), DESIGN 2 with T = 1..4 (or only the T asked for) */
    int user = R->config_source == GK_CONFIG_USER;
    int only = user ? gk__config_get(base, "DESIGN", -1) : -1, only_t = user ? gk__config_get(base, "TSTEPS", -1) : -1;
    int ts_def = gk__space_stencil.params[1].def;
    for (int row = -1; row <= 5 && !st; row++) {
        int design = row < 2 ? row : 2, T = row < 2 ? ts_def : row - 1;
        if (row >= 0 && only >= 0 && design != only)
            continue;
        if (design == 2 && only_t > 0 && T != only_t)
            continue;
        gk__stencil_bench_row *r = &R->row[R->nrows++];
        gk_config cfg = *base;
        gk_stencil_gpu *g = NULL;
        r->tsteps = design == 2 ? T : 1;
        snprintf(r->kernel, sizeof r->kernel, "%s", row < 0 ? "naive" : row == 0 ? "tile" : row == 1 ? "stream"
                                                                                        : "temporal");
        if (row >= 0 && ((st = gk__config_set(&cfg, "DESIGN", design)) || (st = gk__config_set(&cfg, "TSTEPS", T))))
            break;
        if (gk__stencil_gpu_open(&g, &ctx->dev[0], s, B->nx, B->ny, B->nz, gk_stencil_default_coeffs, &cfg)) {
            gk__note(r->check, sizeof r->check, "not run: %s", gk_last_error());
            gk__clear_error();
            continue;
        }
        gk_config cfg_used = *gk__stencil_gpu_config(g);
        if (row < 0)
            snprintf(r->config, sizeof r->config, "one point/thread, 27 global loads, 32x8 threads");
        else
            gk__config_format(&cfg_used, r->config, sizeof r->config);
        if (R->fma_per_s == 0 && (st = gk__stencil_gpu_fma_ceiling(g, &R->fma_per_s))) {
            gk__stencil_gpu_close(g);
            break;
        }
        /* median of reps timed runs of `steps` sweeps, the grid uploaded
         * before each (every run starts from the same data), after a warm-up */
        double ms[64];
        float t;
        st = gk__stencil_gpu_upload(g, B->grid, NULL);
        if (!st) st = row < 0 ? gk__stencil_gpu_run_naive(g, 2, &t) : gk__stencil_gpu_run(g, 2 * r->tsteps, &t);
        for (int rep = 0; rep < B->reps && !st; rep++) {
            st = gk__stencil_gpu_upload(g, B->grid, NULL);
            if (!st) st = row < 0 ? gk__stencil_gpu_run_naive(g, B->steps, &t) : gk__stencil_gpu_run(g, B->steps, &t);
            ms[rep] = t;
        }
        /* validation: vsteps sweeps against the CPU backend */
        if (!st) st = gk__stencil_gpu_upload(g, B->grid, NULL);
        if (!st) st = row < 0 ? gk__stencil_gpu_run_naive(g, B->vsteps, NULL) : gk__stencil_gpu_run(g, B->vsteps, NULL);
        if (!st) st = gk__stencil_gpu_download(g, B->tmp, NULL);
        gk__stencil_gpu_close(g);
        if (st) break;
        r->ms_per_step = gk__median(ms, B->reps, NULL) / B->steps;
        r->gstencils = (double)B->n / (r->ms_per_step * 1e-3) * 1e-9;
        /* what the row's tiles compute per stored point (the FMA ceiling
         * over it bounds the row) */
        r->work = gk__stencil_work(&cfg_used, row < 0, B->nx, B->ny, B->nz, B->steps);
        gk__stencil_diff d;
        check_text(gk__stencil_compare(B->tmp, B->cpu, B->n, B->vsteps, B->scale, &d), &d, r);
        gk__clear_error();
    }
    R->ceiling_gstencils = R->fma_per_s / 27 * 1e-9;
out:
    gk__ctx_gpu_leave(saved);
    return st;
}
#endif

gk_status gk__stencil_bench(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int steps, int reps,
                           const char *config, gk__stencil_bench_report *R)
{
    gk_report rep;
    gk_config cfg;
    gk_status st;
    bench_data B;
    memset(R, 0, sizeof *R);
    memset(&B, 0, sizeof B);
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk__stencil_bench: no context");
    if ((st = gk_stencil_check_size(nx, ny, nz, steps)))
        return st;
    if (steps < 1 || reps < 1 || reps > 64)
        return gk__fail(GK_EINVAL, "bench stencil: %d steps, %d repetitions (want >= 1 steps, 1..64 repetitions)",
                        steps, reps);
    gk__ctx_report_init(ctx, &rep);
    if ((st = gk__ctx_config(ctx, "stencil", max3(nx, ny, nz), config, &cfg, &rep)))
        return st;
    R->backend = ctx->backend;
    R->config_source = rep.config_source;
    snprintf(R->device, sizeof R->device, "%s", rep.device);
    B.nx = (int)nx; B.ny = (int)ny; B.nz = (int)nz;
    B.steps = steps; B.reps = reps; B.vsteps = 5;   /* T = 4: one full pass + a remainder */
    B.n = nx * ny * nz;
    char what[96];
    snprintf(what, sizeof what, "bench stencil grid %dx%dx%d", B.nx, B.ny, B.nz);
    if ((st = gk__host_memory_check((uint64_t)B.n * 24 + gk__stencil_cpu_bytes(B.nx, B.ny, B.nz), what))
        || (st = gk__xmalloc((void **)&B.grid, (size_t)B.n * 8, what))
        || (st = gk__xmalloc((void **)&B.cpu, (size_t)B.n * 8, what))
        || (st = gk__xmalloc((void **)&B.tmp, (size_t)B.n * 8, what)))
        goto out;
    gk_grid_random(B.grid, B.nx, B.ny, B.nz, 12345);
    B.scale = gk__grid_max_abs(B.grid, B.n);
    memcpy(B.cpu, B.grid, (size_t)B.n * 8);
    int threads = gk__ctx_threads_enter(ctx);
    /* the trusted result the rows are checked against: the CPU backend on
     * the GPU, the plain reference loop's counterpart on the CPU */
    st = ctx->backend == GK_BACKEND_GPU
         ? gk__stencil_cpu(B.cpu, B.nx, B.ny, B.nz, gk_stencil_default_coeffs, B.vsteps, ctx->cpu_isa)
         : gk__stencil_cpu_reference(B.cpu, B.nx, B.ny, B.nz, gk_stencil_default_coeffs, B.vsteps);
    if (!st) {
        if (ctx->backend != GK_BACKEND_GPU)
            st = bench_cpu(&B, R);
        else
#ifdef GK_HAVE_CUDA
            st = bench_gpu(ctx, &B, &cfg, R);
#else
            st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    }
    gk__ctx_threads_leave(threads);
    R->floor_gstencils = R->copy_bytes_per_s / 16 * 1e-9;
    for (int i = 0; i < R->nrows; i++)     /* every design but the reference ran all steps */
        if (!R->row[i].steps)
            R->row[i].steps = steps;
out:
    free(B.grid);
    free(B.cpu);
    free(B.tmp);
    return st;
}

/* ---- the generated engine's rows (gk bench stencil --stencil=DESC) ---- */
#ifdef GK_HAVE_CUDA
#include "tune/stencil_gen_tune.h"
#include "tune/stencil_gen_store.h"

/* One row: cfg with TSTEPS = T timed on the grid, then checked; the kernels
 * from and into the context's store. */
static void gen_bench_row(gk_context *ctx, const gk__stencil_spec *s, const void *grid, int64_t nx, int64_t ny,
                          int64_t nz, int steps, int reps, const gk_config *cfg, const gk__sg_cubin_store *store,
                          gk__stencil_bench_row *r)
{
    gk_stencil_gen *g = NULL;
    double ms[64];
    float t;
    int64_t cx, cy, cz;
    snprintf(r->kernel, sizeof r->kernel, "gen T=%d", r->tsteps);
    gk_status st = gk__stencil_gen_open(&g, &ctx->dev[0], gk__ctx_stream(ctx), s, nx, ny, nz, cfg, store);
    if (!st) {
        snprintf(r->config, sizeof r->config, "%s", gk__stencil_gen_config(g));
        st = gk__stencil_gen_upload(g, grid, NULL);
    }
    if (!st) st = gk__stencil_gen_run(g, 2 * r->tsteps, &t);          /* warm-up */
    for (int rep = 0; rep < reps && !st; rep++) {
        st = gk__stencil_gen_upload(g, grid, NULL);
        if (!st) st = gk__stencil_gen_run(g, steps, &t);
        ms[rep] = t;
    }
    gk__stencil_gen_close(g);
    if (st) {
        gk__note(r->check, sizeof r->check, "not run: %s", gk_last_error());
        gk__clear_error();
        return;
    }
    r->steps = steps;
    r->ms_per_step = gk__median(ms, reps, NULL) / steps;
    r->gstencils = (double)nx * (double)ny * (double)nz / (r->ms_per_step * 1e-3) * 1e-9;
    /* the same configuration, bit for bit against the CPU reference (5
     * steps: a pass and a remainder for T = 2..4; T + 1 above) */
    gk__sg_check_grid(s, nx, ny, nz, &cx, &cy, &cz);
    st = gk__sg_validate(&ctx->dev[0], s, cfg, cx, cy, cz, gk__sg_check_steps(cfg), 12345, store, r->check,
                         sizeof r->check);
    r->ok = st == GK_OK;
    if (st) {
        gk__note(r->check, sizeof r->check, "FAIL: %s", gk_last_error());
        gk__clear_error();
    }
}
#endif

gk_status gk__stencil_gen_bench(gk_context *ctx, const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz,
                                int steps, int reps, const char *config, gk__stencil_bench_report *R)
{
    memset(R, 0, sizeof *R);
    if (!ctx || !s)
        return gk__fail(GK_EINVAL, "gk__stencil_gen_bench: no context or description");
    if (steps < 1 || reps < 1 || reps > 64)
        return gk__fail(GK_EINVAL, "bench stencil: %d steps, %d repetitions (want >= 1 steps, 1..64 repetitions)",
                        steps, reps);
    if (ctx->backend != GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "bench stencil --stencil: the generated engine needs a GPU (%s)",
                        ctx->note[0] ? ctx->note : "CPU backend");
#ifndef GK_HAVE_CUDA
    (void)nx; (void)ny; (void)nz; (void)config;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#else
    gk_config cfg;
    gk_config_source src;
    int64_t size = nx > ny ? nx : ny;
    gk_status st = gk__stencil_gen_choose(ctx, s, size > nz ? size : nz, config, &cfg, &src);
    if (st) return st;
    R->backend = ctx->backend;
    R->config_source = src;
    snprintf(R->device, sizeof R->device, "%s", ctx->dev[0].name);
    R->sm_count = ctx->dev[0].sm_count;
    size_t es = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8;
    if (nx < 1 || ny < 1 || nz < 1 || (double)nx * (double)ny * (double)nz > 1e11)
        return gk__fail(GK_EINVAL, "bench stencil grid %lldx%lldx%lld: sizes must be >= 1 (and fit)", (long long)nx,
                        (long long)ny, (long long)nz);
    size_t pts = (size_t)nx * (size_t)ny * (size_t)nz;
    char what[96];
    snprintf(what, sizeof what, "bench stencil grid %lldx%lldx%lld", (long long)nx, (long long)ny, (long long)nz);
    void *grid = NULL;
    double *row = NULL;
    if ((st = gk__host_memory_check((uint64_t)pts * es + (uint64_t)nx * 8, what))
        || (st = gk__xmalloc(&grid, pts * es, what)) || (st = gk__xmalloc((void **)&row, (size_t)nx * 8, what)))
        goto out;
    /* gk_grid_random's values, a row at a time, in the element type */
    for (int64_t p = 0; p < ny * nz; p++) {
        gk_grid_random(row, nx, 1, 1, 12345 + (uint64_t)p);
        for (int64_t x = 0; x < nx; x++) {
            if (es == 4) ((float *)grid)[p * nx + x] = (float)row[x];
            else ((double *)grid)[p * nx + x] = row[x];
        }
    }
    int saved;
    if ((st = gk__ctx_gpu_enter(ctx, &saved)))
        goto out;
    if ((st = gk__gpu_copy_bandwidth(pts * es, 9, &R->copy_bytes_per_s)) == GK_OK) {
        R->floor_gstencils = R->copy_bytes_per_s / (2.0 * (double)es) * 1e-9;
        /* the FMA ceiling, one operation per point of the mask (a multiply,
         * then FMAs); its kernel needs NVRTC, which kernels from the disk
         * store do not: without it the rows run, with no ceiling (0) */
        if (gk__gpu_fma_ceiling(es == 4, gk__ctx_stream(ctx), &R->fma_per_s) == GK_OK)
            R->ceiling_gstencils = R->fma_per_s / s->npoints * 1e-9;
        else {
            R->fma_per_s = 0;
            gk__clear_error();
        }
        gk__sg_cubin_store store;             /* the context's cache directory's kernels */
        gk__stencil_gen_disk_store(ctx->cache_dir, &store);
        int only = src == GK_CONFIG_USER ? gk__config_get(&cfg, "TSTEPS", -1) : -1;
        if (only > 0 && !strstr(config, "TSTEPS")) only = -1;
        /* T = 1..4 steps per pass (the warp design, 2D: 1..GK__SG_TMAX;
         * a T the configuration's tile or registers cannot take says why
         * in its row) */
        int tlast = gk__config_get(&cfg, "DESIGN", -1) == 1 ? GK__SG_TMAX : 4;
        for (int T = 1; T <= tlast && R->nrows < GK_STENCIL_BENCH_ROWS; T++) {
            if (only > 0 && T != only) continue;
            gk__stencil_bench_row *r = &R->row[R->nrows++];
            gk_config c = cfg;
            gk__config_set(&c, "TSTEPS", T);
            r->tsteps = T;
            gen_bench_row(ctx, s, grid, nx, ny, nz, steps, reps, &c, &store, r);
        }
    }
    gk__ctx_gpu_leave(saved);
out:
    free(grid);
    free(row);
    return st;
#endif
}

/* ---- descriptions on the CPU ------------------------------------------ */

/* The copy floor of a description's sweep: a plain streaming copy of the
 * grid by every thread (each its slice, as the sweeps split the grid),
 * bytes read + written per second, median of 5 after a warm-up. */
static double host_copy_bandwidth_par(char *a, char *b, size_t bytes)
{
    double t[5];
    for (int r = -1; r < 5; r++) {
        char *dst = r & 1 ? a : b, *src = r & 1 ? b : a;
        double t0 = gk__wtime();
#ifdef _OPENMP
#pragma omp parallel
#endif
        {
            int id = 0, n = 1;
#ifdef _OPENMP
            id = omp_get_thread_num();
            n = omp_get_num_threads();
#endif
            size_t lo = bytes / (size_t)n * (size_t)id / 64 * 64, hi = id == n - 1 ? bytes : bytes / (size_t)n * (size_t)(id + 1) / 64 * 64;
            memcpy(dst + lo, src + lo, hi - lo);
        }
        if (r >= 0) t[r] = gk__wtime() - t0;
    }
    return 2.0 * (double)bytes / gk__median(t, 5, NULL);
}

gk_status gk__stencil_bench_desc_cpu(gk_context *ctx, const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz,
                                     int steps, int reps, gk__stencil_bench_report *R)
{
    gk_status st;
    memset(R, 0, sizeof *R);
    if (!ctx || !s)
        return gk__fail(GK_EINVAL, "gk__stencil_bench_desc_cpu: NULL argument");
    if ((st = gk_stencil_check_size(nx, ny, nz, steps)) || (st = gk__stencil_spec_check_grid(s, nx, ny, nz)))
        return st;
    if (steps < 1 || reps < 1 || reps > 64)
        return gk__fail(GK_EINVAL, "bench stencil: %d steps, %d repetitions (want >= 1 steps, 1..64 repetitions)",
                        steps, reps);
    if (ctx->backend == GK_BACKEND_GPU)
        return gk__fail(GK_EINVAL, "bench stencil %s: this is the CPU's benchmark (--device=cpu)", s->key);
    gk_report rep;
    gk__ctx_report_init(ctx, &rep);
    R->backend = ctx->backend;
    R->config_source = GK_CONFIG_DEFAULT;
    snprintf(R->device, sizeof R->device, "%s", rep.device);
    const size_t e = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8;
    const int64_t n = nx * ny * nz;
    const size_t bytes = (size_t)n * e;
    const int vsteps = 3;
    char what[128];
    snprintf(what, sizeof what, "bench stencil %s grid %lldx%lldx%lld", s->key, (long long)nx, (long long)ny,
             (long long)nz);
    uint64_t bufs = gk__stencil_cpu_spec_bytes(s, nx, ny, nz);
    char *grid = NULL, *ref = NULL, *tmp = NULL;
    gk_stencil_cpu_spec *g = NULL;
    if ((st = gk__host_memory_check(bufs == UINT64_MAX ? UINT64_MAX : 3 * (uint64_t)bytes + bufs, what))
        || (st = gk__xmalloc((void **)&grid, bytes, what)) || (st = gk__xmalloc((void **)&ref, bytes, what))
        || (st = gk__xmalloc((void **)&tmp, bytes, what)))
        goto out;
    int threads = gk__ctx_threads_enter(ctx);
    int nthreads = 1;
#ifdef _OPENMP
    nthreads = omp_get_max_threads();
#endif
    gk__grid_random_type(grid, nx, ny, nz, s->dtype, 12345);
    memcpy(tmp, grid, bytes);
    /* scratch both ways */
    R->copy_bytes_per_s = grid_fits_cache(2 * (uint64_t)bytes) ? 0 : host_copy_bandwidth_par(tmp, ref, bytes);
    memcpy(ref, grid, bytes);
    R->floor_gstencils = R->copy_bytes_per_s / (2.0 * (double)e) * 1e-9;
    /* the plain loop: one run of at most 2 steps */
    {
        gk__stencil_bench_row *r = &R->row[R->nrows++];
        int rs = steps < 2 ? steps : 2;
        snprintf(r->kernel, sizeof r->kernel, "reference");
        snprintf(r->config, sizeof r->config, "plain loop, one thread per z plane (1 run of %d step%s)", rs,
                 rs > 1 ? "s" : "");
        memcpy(tmp, grid, bytes);
        double t0 = gk__wtime();
        if ((st = gk__stencil_cpu_spec_plain(s, tmp, nx, ny, nz, rs)))
            goto leave;
        r->ms_per_step = (gk__wtime() - t0) * 1e3 / rs;
        r->gstencils = (double)n / (r->ms_per_step * 1e-3) * 1e-9;
        r->ok = 1;
        r->tsteps = 1;
        r->steps = rs;
        snprintf(r->check, sizeof r->check, "(reference)");
    }
    /* the backend: buffers opened and loaded once, the steps alone timed */
    {
        gk__stencil_bench_row *r = &R->row[R->nrows++];
        double t[64];
        if ((st = gk__stencil_cpu_spec_open(&g, s, nx, ny, nz, ctx->cpu_isa)))
            goto leave;
        snprintf(r->kernel, sizeof r->kernel, "cpu");
        snprintf(r->config, sizeof r->config, "%s, %d thread%s, one step per sweep", gk__stencil_cpu_spec_config(g),
                 nthreads, nthreads > 1 ? "s" : "");
        r->tsteps = 1;
        r->steps = steps;
        gk__stencil_cpu_spec_load(g, grid);
        st = gk__stencil_cpu_spec_steps(g, 1);                 /* warm-up */
        for (int k = 0; k < reps && !st; k++) {
            gk__stencil_cpu_spec_load(g, grid);
            double t0 = gk__wtime();
            st = gk__stencil_cpu_spec_steps(g, steps);
            t[k] = gk__wtime() - t0;
        }
        if (st) goto leave;
        r->ms_per_step = gk__median(t, reps, NULL) * 1e3 / steps;
        r->gstencils = (double)n / (r->ms_per_step * 1e-3) * 1e-9;
        /* checked: vsteps steps against the plain loop, bit for bit */
        gk__stencil_cpu_spec_load(g, grid);
        if ((st = gk__stencil_cpu_spec_steps(g, vsteps)) || (st = gk__stencil_cpu_spec_plain(s, ref, nx, ny, nz, vsteps)))
            goto leave;
        gk__stencil_cpu_spec_store(g, tmp);
        gk__stencil_diff d;
        r->ok = gk__stencil_compare_exact(tmp, ref, n, s->dtype, &d) == GK_OK;
        if (r->ok)
            snprintf(r->check, sizeof r->check, "ok (bit-exact)");
        else
            snprintf(r->check, sizeof r->check, "FAIL %.3g", d.max_abs);
        gk__clear_error();
    }
leave:
    gk__ctx_threads_leave(threads);
out:
    gk__stencil_cpu_spec_close(g);
    free(grid);
    free(ref);
    free(tmp);
    return st;
}
