/* stencil.c - the stencil front door: gk_stencil_run and gk_stencil_bench
 * pick the backend (the context's) and the configuration, check memory
 * before allocating, run the CPU code (src/cpu) or the GPU code (src/gpu),
 * check against the CPU on request, and fill the report. */
#include "api/context.h"
#include "cpu/stencil_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gpu.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t max3(int64_t a, int64_t b, int64_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

#ifdef GK_HAVE_CUDA
static gk_status run_gpu(gk_context *ctx, double *grid, int nx, int ny, int nz, const double *c, int steps,
                         const gk_config *cfg, gk_report *rep)
{
    gk_stencil_gpu *g = NULL;
    float up = 0, run = 0, down = 0;
    int saved;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    if (!(st = gk__stencil_gpu_open(&g, &ctx->dev[0], (cudaStream_t)ctx->stream, nx, ny, nz, c, cfg))
        && !(st = gk__stencil_gpu_upload(g, grid, &up)) && !(st = gk__stencil_gpu_run(g, steps, &run)))
        st = gk__stencil_gpu_download(g, grid, &down);
    gk__stencil_gpu_close(g);
    gk__ctx_gpu_leave(saved);
    gk__report_gpu_ms(rep, up, run, down);
    return st;
}
#endif

gk_status gk_stencil_run(gk_context *ctx, double *grid, int64_t nx64, int64_t ny64, int64_t nz64,
                         const double coeffs[GK_STENCIL_NCOEFFS], int64_t steps64,
                         const gk_stencil_options *options, gk_report *report)
{
    gk_stencil_options none = { 0, NULL };
    gk_report local;
    gk_report *rep = report ? report : &local;
    gk_config cfg;
    gk_status st;
    double *ref = NULL;
    if (!options) options = &none;
    if (!ctx || !grid || !coeffs)
        return gk__fail(GK_EINVAL, "gk_stencil_run: no %s", !ctx ? "context" : !grid ? "grid" : "coefficients");
    gk__ctx_report_init(ctx, rep);
    if ((st = gk_stencil_check_size(nx64, ny64, nz64, steps64)))
        return st;
    int nx = (int)nx64, ny = (int)ny64, nz = (int)nz64, steps = (int)steps64;
    uint64_t npts = (uint64_t)nx * (uint64_t)ny * (uint64_t)nz, gbytes = npts * sizeof(double);
    if ((st = gk__ctx_config(ctx, "stencil", max3(nx, ny, nz), options->config, &cfg, rep)))
        return st;
    /* Host memory beyond the caller's grid: the CPU solver's padded buffers
     * (a CPU run, or the check's rerun) and the check's copy. */
    int cpu = ctx->backend != GK_BACKEND_GPU;
    uint64_t need = gbytes + (cpu || options->check ? gk__stencil_cpu_bytes(nx, ny, nz) : 0)
                    + (options->check ? gbytes : 0);
    char what[96];
    snprintf(what, sizeof what, "stencil grid %dx%dx%d%s", nx, ny, nz, options->check ? " with the check" : "");
    if ((st = gk_host_memory_check(need, what)))
        return st;
    double init_scale = 0;
    if (options->check) {
        if ((st = gk__xmalloc((void **)&ref, (size_t)gbytes, "the check's copy of the grid")))
            return st;
        memcpy(ref, grid, (size_t)gbytes);
        init_scale = gk_grid_max_abs(grid, (int64_t)npts);
    }
    int threads = gk__ctx_threads_enter(ctx);
    if (!cpu) {
#ifdef GK_HAVE_CUDA
        st = run_gpu(ctx, grid, nx, ny, nz, coeffs, steps, &cfg, rep);
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    } else {
        double t0 = gk_wtime();
        st = gk__stencil_cpu(grid, nx, ny, nz, coeffs, steps);
        rep->compute = gk_wtime() - t0;
    }
    if (!st && ref) {
        /* the CPU backend checks the GPU; the plain reference loop (another
         * code path) checks the CPU backend */
        gk_stencil_diff d;
        double t0 = gk_wtime();
        st = cpu ? gk__stencil_cpu_reference(ref, nx, ny, nz, coeffs, steps)
                 : gk__stencil_cpu(ref, nx, ny, nz, coeffs, steps);
        rep->check = gk_wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "%s",
                 cpu ? "the CPU reference loop" : "the CPU backend");
        if (!st) {
            st = gk_stencil_compare(grid, ref, (int64_t)npts, steps, init_scale, &d);
            rep->check_max_abs = d.max_abs;
            rep->check_max_rel = d.max_rel;
            rep->check_tolerance = d.tolerance;
            rep->checked = st == GK_OK;
        }
    }
    gk__ctx_threads_leave(threads);
    free(ref);
    return st;
}

/* ------------------------------------------------------------------ bench */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void check_text(gk_status st, const gk_stencil_diff *d, gk_stencil_bench_row *r)
{
    r->ok = st == GK_OK;
    if (st)
        snprintf(r->check, sizeof r->check, "FAIL %.3g", d->max_abs);
    else if (d->max_abs == 0)
        snprintf(r->check, sizeof r->check, "ok (bit-exact)");
    else
        snprintf(r->check, sizeof r->check, "ok (%.2g)", d->max_abs);
}

/* Host copy bandwidth (bytes read + written per second) over `bytes`. */
static double host_copy_bandwidth(double *a, double *b, size_t bytes)
{
    double t[5];
    memcpy(b, a, bytes);          /* warm-up: touch both */
    for (int r = 0; r < 5; r++) {
        double t0 = gk_wtime();
        memcpy(r & 1 ? a : b, r & 1 ? b : a, bytes);
        t[r] = gk_wtime() - t0;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return 2.0 * (double)bytes / t[2];
}

typedef struct bench_data {
    int nx, ny, nz, steps, reps, vsteps;
    int64_t n;
    double *grid, *cpu, *tmp, scale;
} bench_data;

static gk_status bench_cpu(bench_data *B, gk_stencil_bench_report *R)
{
    gk_status st = GK_OK;
    R->copy_bytes_per_s = host_copy_bandwidth(B->grid, B->tmp, (size_t)B->n * 8);
    for (int k = 0; k < 2 && !st; k++) {    /* 0: the plain reference loop, 1: the CPU backend */
        gk_stencil_bench_row *r = &R->row[R->nrows++];
        double t[64];
        snprintf(r->kernel, sizeof r->kernel, "%s", k ? "cpu" : "reference");
        snprintf(r->config, sizeof r->config, "%s", k ? "OpenMP threads, SIMD, cache-blocked"
                                                       : "plain loop, one thread per z plane");
        for (int rep = 0; rep < B->reps && !st; rep++) {
            memcpy(B->tmp, B->grid, (size_t)B->n * 8);
            double t0 = gk_wtime();
            st = k ? gk__stencil_cpu(B->tmp, B->nx, B->ny, B->nz, gk_stencil_default_coeffs, B->steps)
                   : gk__stencil_cpu_reference(B->tmp, B->nx, B->ny, B->nz, gk_stencil_default_coeffs, B->steps);
            t[rep] = gk_wtime() - t0;
        }
        if (st) break;
        qsort(t, (size_t)B->reps, sizeof t[0], cmp_double);
        r->ms_per_step = t[B->reps / 2] * 1e3 / B->steps;
        r->gstencils = (double)B->n / (r->ms_per_step * 1e-3) * 1e-9;
        if (!k) {                 /* the reference is what the backend is checked against */
            r->ok = 1;
            snprintf(r->check, sizeof r->check, "(reference)");
            continue;
        }
        gk_stencil_diff d;
        memcpy(B->tmp, B->grid, (size_t)B->n * 8);
        if ((st = gk__stencil_cpu(B->tmp, B->nx, B->ny, B->nz, gk_stencil_default_coeffs, B->vsteps)))
            break;
        check_text(gk_stencil_compare(B->tmp, B->cpu, B->n, B->vsteps, B->scale, &d), &d, r);
        gk__clear_error();
    }
    return st;
}

#ifdef GK_HAVE_CUDA
static gk_status bench_gpu(gk_context *ctx, bench_data *B, const gk_config *base, gk_stencil_bench_report *R)
{
    int saved;
    gk_status st = gk__ctx_gpu_enter(ctx, &saved);
    if (st) return st;
    cudaStream_t s = (cudaStream_t)ctx->stream;
    R->sm_count = ctx->dev[0].sm_count;
    if ((st = gk__gpu_copy_bandwidth((size_t)B->n * 8, 9, &R->copy_bytes_per_s)))
        goto out;
    /* rows: the naive kernel, then each design (or only the one asked for) */
    int only = R->config_source == GK_CONFIG_USER ? gk_config_get(base, "DESIGN", -1) : -1;
    for (int row = -1; row <= 1 && !st; row++) {
        if (row >= 0 && only >= 0 && row != only)
            continue;
        gk_stencil_bench_row *r = &R->row[R->nrows++];
        gk_config cfg = *base;
        gk_stencil_gpu *g = NULL;
        snprintf(r->kernel, sizeof r->kernel, "%s", row < 0 ? "naive" : row == 0 ? "tile" : "stream");
        if (row >= 0 && (st = gk_config_set(&cfg, "DESIGN", row)))
            break;
        if (gk__stencil_gpu_open(&g, &ctx->dev[0], s, B->nx, B->ny, B->nz, gk_stencil_default_coeffs, &cfg)) {
            snprintf(r->check, sizeof r->check, "not run: %.50s", gk_last_error());
            gk__clear_error();
            continue;
        }
        if (row < 0)
            snprintf(r->config, sizeof r->config, "one point/thread, 27 global loads, 32x8 threads");
        else
            gk_config_format(gk__stencil_gpu_config(g), r->config, sizeof r->config);
        /* median of reps timed runs of `steps` sweeps, the grid uploaded
         * before each (every run starts from the same data), after a warm-up */
        double ms[64];
        float t;
        st = gk__stencil_gpu_upload(g, B->grid, NULL);
        if (!st) st = row < 0 ? gk__stencil_gpu_run_naive(g, 2, &t) : gk__stencil_gpu_run(g, 2, &t);
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
        qsort(ms, (size_t)B->reps, sizeof ms[0], cmp_double);
        r->ms_per_step = ms[B->reps / 2] / B->steps;
        r->gstencils = (double)B->n / (r->ms_per_step * 1e-3) * 1e-9;
        gk_stencil_diff d;
        check_text(gk_stencil_compare(B->tmp, B->cpu, B->n, B->vsteps, B->scale, &d), &d, r);
        gk__clear_error();
    }
out:
    gk__ctx_gpu_leave(saved);
    return st;
}
#endif

gk_status gk_stencil_bench(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int steps, int reps,
                           const char *config, gk_stencil_bench_report *R)
{
    gk_report rep;
    gk_config cfg;
    gk_status st;
    bench_data B;
    memset(R, 0, sizeof *R);
    memset(&B, 0, sizeof B);
    if (!ctx)
        return gk__fail(GK_EINVAL, "gk_stencil_bench: no context");
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
    B.steps = steps; B.reps = reps; B.vsteps = 3;
    B.n = nx * ny * nz;
    char what[96];
    snprintf(what, sizeof what, "bench stencil grid %dx%dx%d", B.nx, B.ny, B.nz);
    if ((st = gk_host_memory_check((uint64_t)B.n * 24 + gk__stencil_cpu_bytes(B.nx, B.ny, B.nz), what))
        || (st = gk__xmalloc((void **)&B.grid, (size_t)B.n * 8, what))
        || (st = gk__xmalloc((void **)&B.cpu, (size_t)B.n * 8, what))
        || (st = gk__xmalloc((void **)&B.tmp, (size_t)B.n * 8, what)))
        goto out;
    gk_grid_random(B.grid, B.nx, B.ny, B.nz, 12345);
    B.scale = gk_grid_max_abs(B.grid, B.n);
    memcpy(B.cpu, B.grid, (size_t)B.n * 8);
    int threads = gk__ctx_threads_enter(ctx);
    /* the trusted result the rows are checked against: the CPU backend on
     * the GPU, the plain reference loop's counterpart on the CPU */
    st = ctx->backend == GK_BACKEND_GPU
         ? gk__stencil_cpu(B.cpu, B.nx, B.ny, B.nz, gk_stencil_default_coeffs, B.vsteps)
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
out:
    free(B.grid);
    free(B.cpu);
    free(B.tmp);
    return st;
}
