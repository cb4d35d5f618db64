/* stencil.c - the stencil front door: the problem and options, plans (made
 * once: configuration, kernel image, the padded grids on the GPU or the
 * CPU), their execution on host memory (optionally checked against the
 * CPU) and on device memory (enqueued on the context's stream), and
 * gk_stencil_run = create + execute + destroy.  The benchmark is
 * stencil_bench.c.
 *
 * Which engine: the classic description (3D box of radius 1, float64, zero
 * boundary, any weights) runs today's kernels (src/cpu/stencil_cpu.c,
 * src/gpu/stencil_gpu.c), unchanged; every other description runs the
 * description engine (src/cpu/stencil_spec_cpu.c on the CPU, the generated
 * kernels of src/gpu/stencil_gen.h on the GPU), whose --check is bit for
 * bit.  options.config names the parameters of the engine that runs: the
 * 27-point kernel's (src/core/space_stencil.c) for the classic
 * description, the generated engine's (src/core/space_stencil_gen.c) for
 * the others, checked against that description's rules on every backend.
 * A description's plan keeps the store of its compiled kernels (its
 * context's cache directory) and passes it to the engine: no process-wide
 * setting. */
#include "api/context.h"
#include "core/stencil_core.h"
#include "core/stencil_spec.h"
#include "cpu/stencil_cpu.h"
#include "cpu/stencil_spec_cpu.h"
#include "core/space_stencil_gen.h"
#include "tune/stencil_gen_store.h"
#include "api/commands.h"     /* gk__stencil_gen_choose, gk__stencil_plan_store_dir */
#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gpu.h"
#include "gpu/stencil_gen.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_stencil_plan {
    gk__plan_head head;          /* first: the context, memory, check, configuration, base report */
    int nx, ny, nz;
    int64_t pitch_y, pitch_z;
    double coeffs[GK_STENCIL_NCOEFFS];
    gk__stencil_spec spec;       /* the description (the classic one: coeffs in its w) */
    int classic;                 /* 1: today's 27-point engines; 0: the description engine */
    size_t esz;                  /* bytes of an element */
    gk_stencil_cpu *cpu;         /* the CPU backend's padded buffers */
    gk_stencil_cpu_spec *cspec;  /* the same for a description */
    int user;                    /* a description with options.config: ucfg (complete) runs on the GPU */
    gk_config ucfg;
    gk__sg_cubin_store store;    /* a description: where its compiled kernels are kept (the context's
                                    cache directory when the plan was made) */
#ifdef GK_HAVE_CUDA
    gk_stencil_gpu *gpu;         /* the GPU's */
    gk_stencil_gen *gen;         /* the generated kernels of a description */
#endif
};

#ifdef GK_SYMVER
/* gk_stencil_problem grew in 1.2 (desc): programs built from now on get
 * gk_stencil_problem_init@@GK_1.2 (this one), programs built against 1.0
 * and 1.1 keep @GK_1.0 (below: their struct ends before desc). */
GK_API void gk__stencil_problem_init_1_2(gk_stencil_problem *p, int64_t nx, int64_t ny, int64_t nz);
__asm__(".symver gk__stencil_problem_init_1_2, gk_stencil_problem_init@@GK_1.2");
#define gk_stencil_problem_init gk__stencil_problem_init_1_2
#endif
void gk_stencil_problem_init(gk_stencil_problem *p, int64_t nx, int64_t ny, int64_t nz)
{
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->nx = nx;
    p->ny = ny;
    p->nz = nz;
    p->dtype = GK_DTYPE_FLOAT64;
    p->memory = GK_MEMORY_HOST;
}
#ifdef GK_SYMVER
#undef gk_stencil_problem_init
GK_API void gk__stencil_problem_init_1_0(gk_stencil_problem *p, int64_t nx, int64_t ny, int64_t nz);
void gk__stencil_problem_init_1_0(gk_stencil_problem *p, int64_t nx, int64_t ny, int64_t nz)
{
    const size_t size = offsetof(gk_stencil_problem, desc);
    memset(p, 0, size);
    p->struct_size = size;
    p->nx = nx;
    p->ny = ny;
    p->nz = nz;
    p->dtype = GK_DTYPE_FLOAT64;
    p->memory = GK_MEMORY_HOST;
}
__asm__(".symver gk__stencil_problem_init_1_0, gk_stencil_problem_init@GK_1.0");
#define gk_stencil_problem_init gk__stencil_problem_init_1_2
#endif

void gk_stencil_options_init(gk_stencil_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->exchange = GK_EXCHANGE_AUTO;
}

static int64_t max3(int64_t a, int64_t b, int64_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

/* The caller's problem, checked; pitches resolved; its description made
 * into *spec (the classic box with the coefficients when there is none). */
static gk_status problem_in(const gk_stencil_problem *given, gk_stencil_problem *p, gk__stencil_spec *spec)
{
    gk_status st;
    gk_stencil_problem_init(p, 0, 0, 0);
    if (!given)
        return gk__fail(GK_EINVAL, "stencil: problem is NULL");
    /* desc came in 1.2: a 1.1 program's smaller problem has none */
    if ((st = GK__STRUCT_IN_SINCE(*p, given, desc, "gk_stencil_problem")) ||
        (st = gk_stencil_check_size(p->nx, p->ny, p->nz, 0)))
        return st;
    if (p->pitch_y == 0) p->pitch_y = p->nx;
    if (p->pitch_y < p->nx || p->pitch_y > INT64_MAX / p->ny)
        return gk__fail(GK_EINVAL, "stencil: problem.pitch_y = %lld for nx = %lld (want pitch_y >= nx)",
                        (long long)p->pitch_y, (long long)p->nx);
    if (p->pitch_z == 0) p->pitch_z = p->pitch_y * p->ny;
    if (p->pitch_z < p->pitch_y * (p->ny - 1) + p->nx || p->pitch_z > INT64_MAX / 8 / p->nz)
        return gk__fail(GK_EINVAL, "stencil: problem.pitch_z = %lld for a plane of %lld rows of pitch %lld "
                        "(planes must not overlap)", (long long)p->pitch_z, (long long)p->ny, (long long)p->pitch_y);
    if (p->dtype != GK_DTYPE_FLOAT64 && p->dtype != GK_DTYPE_FLOAT32)
        return gk__fail(GK_EINVAL, "stencil: problem.dtype %s: want float64 or float32",
                        gk_dtype_name(p->dtype) ? gk_dtype_name(p->dtype) : "(not a gk_dtype)");
    if (p->memory != GK_MEMORY_HOST && p->memory != GK_MEMORY_DEVICE)
        return gk__fail(GK_EINVAL, "stencil: problem.memory %d is not a gk_memory", (int)p->memory);
    if (p->memory == GK_MEMORY_HOST && (p->pitch_y != p->nx || p->pitch_z != p->nx * p->ny))
        return gk__fail(GK_EINVAL, "stencil: pitches %lld, %lld: a host grid is dense in this release",
                        (long long)p->pitch_y, (long long)p->pitch_z);
    if (p->coeffs)
        for (int i = 0; i < GK_STENCIL_NCOEFFS; i++)
            if (!(p->coeffs[i] - p->coeffs[i] == 0))
                return gk__fail(GK_EINVAL, "stencil: problem.coeffs[%d] = %g is not finite", i, p->coeffs[i]);
    gk_stencil_desc box;
    const gk_stencil_desc *d = p->desc;
    if (d && p->coeffs)
        return gk__fail(GK_EINVAL, "stencil: problem.coeffs and problem.desc are both set (a description's "
                        "weights are desc->weights)");
    if (!d) {
        gk_stencil_desc_init(&box);                 /* 3D box r1, zero */
        box.weights = p->coeffs ? p->coeffs : gk_stencil_default_coeffs;
        d = &box;
    }
    if ((st = gk__stencil_spec_make(d, p->dtype, spec)) || (st = gk__stencil_spec_check_grid(spec, p->nx, p->ny, p->nz)))
        return st;
    p->desc = NULL;                                 /* the caller's: not kept */
    return GK_OK;
}

static gk_status options_in(const gk_stencil_options *given, gk_stencil_options *o)
{
    gk_status st;
    gk_stencil_options_init(o);
    if (given && (st = GK__STRUCT_IN(*o, given, "gk_stencil_options")))
        return st;
    if ((unsigned)o->exchange > GK_EXCHANGE_HOST)
        return gk__fail(GK_EINVAL, "stencil: options.exchange %d is not a gk_exchange", (int)o->exchange);
    return GK_OK;
}

/* A description's engine: the CPU backend's padded buffers (allocated and
 * touched here, not in the first step), or the generated GPU kernels. */
static gk_status plan_open_spec(gk_context *ctx, gk_stencil_plan *p, int cpu)
{
    gk_status st;
    if (cpu) {
        int threads = gk__ctx_threads_enter(ctx);     /* the first touch by the threads that compute */
        st = gk__stencil_cpu_spec_open(&p->cspec, &p->spec, p->nx, p->ny, p->nz, ctx->cpu_isa);
        gk__ctx_threads_leave(threads);
        if (st) return st;
        snprintf(p->head.base.config, sizeof p->head.base.config, "%s: %s", p->spec.key,
                 gk__stencil_cpu_spec_config(p->cspec));
        return GK_OK;
    }
#ifdef GK_HAVE_CUDA
    /* the caller's configuration (checked by gk_stencil_plan_create), else
       the tuned entry of the context's cache (gktune --stencil), else the
       description's defaults */
    gk_config cfg;
    gk_config_source src = GK_CONFIG_USER;
    const char *detail = "given by the caller; replaces the tuned choice";
    if (p->user) {
        cfg = p->ucfg;
    } else {
        int64_t size = p->nx > p->ny ? p->nx : p->ny;
        if (p->nz > size) size = p->nz;
        if ((st = gk__stencil_gen_choose(ctx, &p->spec, size, NULL, &cfg, &src)))
            return st;
        detail = src == GK_CONFIG_CACHE ? "the context's cache directory (gktune --stencil)"
                                        : "the description's built-in defaults";
    }
    p->head.base.config_source = src;
    snprintf(p->head.base.config_detail, sizeof p->head.base.config_detail, "%s", detail);
    int saved;
    if ((st = gk__ctx_gpu_enter(ctx, &saved)))
        return st;
    st = gk__stencil_gen_open(&p->gen, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), &p->spec, p->nx, p->ny,
                              p->nz, &cfg, &p->store);
    gk__ctx_gpu_leave(saved);
    if (st) return st;
    snprintf(p->head.base.config, sizeof p->head.base.config, "%s: %s", p->spec.key, gk__stencil_gen_config(p->gen));
    return GK_OK;
#else
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}

gk_status gk_stencil_plan_create(gk_context *ctx, const gk_stencil_problem *problem,
                                 const gk_stencil_options *options, gk_stencil_plan **out)
{
    gk_stencil_problem prob;
    gk_stencil_options opt;
    gk_status st;
    gk__stencil_spec spec;
    if ((st = gk__plan_args(ctx, out, "gk_stencil_plan_create")) || (st = problem_in(problem, &prob, &spec))
        || (st = options_in(options, &opt)))
        return st;
    int classic = gk__stencil_spec_is_classic(&spec);
    /* a description's configuration: the generated engine's parameters,
       checked against its rules on every backend (the GPU's limits on a
       GPU context), before anything is made */
    gk_config ucfg;
    gk__config_clear(&ucfg);
    if (!classic && opt.config) {
        char shape[sizeof spec.key];
        gk__stencil_spec_shape_key(&spec, shape, sizeof shape);
        if ((st = gk__stencil_gen_config_user(opt.config, shape, spec.dims, spec.radius, gk__stencil_gen_points(&spec),
                                              gk_dtype_size(spec.dtype),
                                              ctx->backend == GK_BACKEND_GPU ? &ctx->dev[0] : NULL, &ucfg))) {
            char why[512];
            snprintf(why, sizeof why, "%s", gk_last_error());
            return gk__fail(st, "options.config: %s", why);
        }
    }
    gk_stencil_plan *p = NULL;
    if ((st = gk__plan_new(ctx, sizeof *p, "stencil", prob.memory, opt.check, classic ? opt.config : NULL,
                           max3(prob.nx, prob.ny, prob.nz), (void **)&p)))
        return st;
    if (!classic) {
        p->user = opt.config != NULL;
        p->ucfg = ucfg;
        /* the CPU checked it and runs its own kernel, as the classic one does */
        p->head.base.config_ignored = p->user && ctx->backend != GK_BACKEND_GPU;
        gk__stencil_gen_disk_store(ctx->cache_dir, &p->store);
    }
    p->nx = (int)prob.nx; p->ny = (int)prob.ny; p->nz = (int)prob.nz;
    p->pitch_y = prob.pitch_y;
    p->pitch_z = prob.pitch_z;
    p->spec = spec;
    p->classic = classic;
    p->esz = gk_dtype_size(prob.dtype);
    p->head.base.dtype = prob.dtype;
    if (classic)
        memcpy(p->coeffs, spec.w, sizeof p->coeffs);    /* the box's 27 points in index order */
    /* Host memory beyond the caller's grid: the CPU backend's padded buffers
     * (a CPU run, or the check's rerun) and the check's copy. */
    int cpu = ctx->backend != GK_BACKEND_GPU;
    if (prob.memory == GK_MEMORY_HOST) {
        uint64_t gbytes = (uint64_t)prob.nx * (uint64_t)prob.ny * (uint64_t)prob.nz * p->esz;
        uint64_t bufs = classic ? gk__stencil_cpu_bytes(p->nx, p->ny, p->nz)
                                : gk__stencil_cpu_spec_bytes(&spec, prob.nx, prob.ny, prob.nz);
        uint64_t need = bufs == UINT64_MAX ? UINT64_MAX
                        : gbytes + (cpu || p->head.check ? bufs : 0) + (p->head.check ? gbytes : 0);
        char what[160];
        snprintf(what, sizeof what, "stencil %s grid %dx%dx%d%s", spec.key, p->nx, p->ny, p->nz,
                 p->head.check ? " with the check" : "");
        if ((st = gk__host_memory_check(need, what)))
            goto fail;
    }
    if (!classic) {
        if ((st = plan_open_spec(ctx, p, cpu)))
            goto fail;
    } else if (cpu) {
        snprintf(p->head.base.config, sizeof p->head.base.config, "%s rows, %d steps per pass",
                 gk__stencil_cpu_isa_name(ctx->cpu_isa), GK_STENCIL_CPU_T);
        /* the buffers and rings are allocated and first-touched here, by the
           threads that compute: set-up, not part of the compute phase */
        int threads = gk__ctx_threads_enter(ctx);
        st = gk__stencil_cpu_open(&p->cpu, p->nx, p->ny, p->nz, p->coeffs, ctx->cpu_isa);
        gk__ctx_threads_leave(threads);
        if (st)
            goto fail;
    } else {
#ifdef GK_HAVE_CUDA
        int saved;
        if ((st = gk__ctx_gpu_enter(ctx, &saved)))
            goto fail;
        st = gk__stencil_gpu_open(&p->gpu, &ctx->dev[0], (cudaStream_t)gk__ctx_stream(ctx), p->nx, p->ny, p->nz,
                                  p->coeffs, &p->head.cfg);
        gk__ctx_gpu_leave(saved);
        if (st)
            goto fail;
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
        goto fail;
#endif
    }
    *out = p;
    return GK_OK;
fail:
    gk_stencil_plan_destroy(p);
    return st;
}

#ifdef GK_HAVE_CUDA
static void gpu_close(void *g) { gk__stencil_gpu_close(g); }
static void gen_close(void *g) { gk__stencil_gen_close(g); }
#endif

void gk_stencil_plan_destroy(gk_stencil_plan *p)
{
    if (!p)
        return;
#ifdef GK_HAVE_CUDA
    if (p->gpu)
        gk__ctx_gpu_call(p->head.ctx, gpu_close, p->gpu);
    if (p->gen)
        gk__ctx_gpu_call(p->head.ctx, gen_close, p->gen);
#endif
    gk__stencil_cpu_spec_close(p->cspec);
    gk__stencil_cpu_close(p->cpu);
    gk__plan_free(p);
}

/* Host memory, a description: the grid through its engine, timed by phase,
 * checked bit for bit against the CPU (the plain loop checks the CPU
 * backend, the CPU backend the GPU). */
static gk_status exec_host_spec(gk_stencil_plan *p, void *grid, int64_t steps, gk_report *rep)
{
    gk_context *ctx = p->head.ctx;
    gk_status st = GK_OK;
    int64_t npts = (int64_t)p->nx * p->ny * p->nz;
    size_t bytes = (size_t)npts * p->esz;
    void *ref = NULL;
    if (p->head.check) {
        if ((st = gk__xmalloc(&ref, bytes, "the check's copy of the grid")))
            return st;
        memcpy(ref, grid, bytes);
    }
    int threads = gk__ctx_threads_enter(ctx);
    if (p->cspec) {
        double t0 = gk__wtime();
        gk__stencil_cpu_spec_load(p->cspec, grid);
        double t1 = gk__wtime();
        st = gk__stencil_cpu_spec_steps(p->cspec, steps);
        double t2 = gk__wtime();
        gk__stencil_cpu_spec_store(p->cspec, grid);
        rep->h2d = t1 - t0;
        rep->compute = t2 - t1;
        rep->d2h = gk__wtime() - t2;
    } else {
#ifdef GK_HAVE_CUDA
        float up = 0, run = 0, down = 0;
        int saved;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            if (!(st = gk__stencil_gen_upload(p->gen, grid, &up)) && !(st = gk__stencil_gen_run(p->gen, steps, &run)))
                st = gk__stencil_gen_download(p->gen, grid, &down);
            gk__ctx_gpu_leave(saved);
        }
        gk__report_gpu_ms(rep, up, run, down);
#endif
    }
    if (!st && ref) {
        double t0 = gk__wtime();
        st = p->cspec ? gk__stencil_cpu_spec_plain(&p->spec, ref, p->nx, p->ny, p->nz, steps)
                      : gk__stencil_cpu_spec(&p->spec, ref, p->nx, p->ny, p->nz, steps);
        rep->check = gk__wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "%s",
                 p->cspec ? "the CPU reference loop" : "the CPU backend");
        if (!st) {
            gk__stencil_diff d;
            st = gk__stencil_compare_exact(grid, ref, npts, p->spec.dtype, &d);
            rep->check_max_abs = d.max_abs;
            rep->check_max_rel = d.max_rel;
            rep->check_tolerance = 0;
            rep->checked = st == GK_OK;
        }
    }
    gk__ctx_threads_leave(threads);
    free(ref);
    return st;
}

/* Host memory: the grid through the backend, timed by phase. */
static gk_status exec_host(gk_stencil_plan *p, double *grid, int steps, gk_report *rep)
{
    gk_context *ctx = p->head.ctx;
    gk_status st = GK_OK;
    uint64_t npts = (uint64_t)p->nx * (uint64_t)p->ny * (uint64_t)p->nz;
    double *ref = NULL, init_scale = 0;
    if (p->head.check) {
        if ((st = gk__xmalloc((void **)&ref, (size_t)npts * sizeof(double), "the check's copy of the grid")))
            return st;
        memcpy(ref, grid, (size_t)npts * sizeof(double));
        init_scale = gk__grid_max_abs(grid, (int64_t)npts);
    }
    int threads = gk__ctx_threads_enter(ctx);
    if (p->cpu) {
        double t0 = gk__wtime();
        gk__stencil_cpu_load(p->cpu, grid);
        double t1 = gk__wtime();
        st = gk__stencil_cpu_steps(p->cpu, steps, GK_STENCIL_CPU_T);
        double t2 = gk__wtime();
        gk__stencil_cpu_store(p->cpu, grid);
        /* the CPU's own copies in and out of its padded buffers are its h2d and d2h */
        rep->h2d = t1 - t0;
        rep->compute = t2 - t1;
        rep->d2h = gk__wtime() - t2;
    } else {
#ifdef GK_HAVE_CUDA
        float up = 0, run = 0, down = 0;
        int saved;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            gk__stencil_gpu_set_stream(p->gpu, (cudaStream_t)gk__ctx_stream(ctx));
            if (!(st = gk__stencil_gpu_upload(p->gpu, grid, &up)) && !(st = gk__stencil_gpu_run(p->gpu, steps, &run)))
                st = gk__stencil_gpu_download(p->gpu, grid, &down);
            gk__ctx_gpu_leave(saved);
        }
        gk__report_gpu_ms(rep, up, run, down);
#endif
    }
    if (!st && ref) {
        /* the CPU backend checks the GPU; the plain reference loop (another
         * code path) checks the CPU backend */
        gk__stencil_diff d;
        double t0 = gk__wtime();
        st = p->cpu ? gk__stencil_cpu_reference(ref, p->nx, p->ny, p->nz, p->coeffs, steps)
                    : gk__stencil_cpu(ref, p->nx, p->ny, p->nz, p->coeffs, steps, p->head.ctx->cpu_isa);
        rep->check = gk__wtime() - t0;
        snprintf(rep->check_against, sizeof rep->check_against, "%s",
                 p->cpu ? "the CPU reference loop" : "the CPU backend");
        if (!st) {
            st = gk__stencil_compare(grid, ref, (int64_t)npts, steps, init_scale, &d);
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

gk_status gk_stencil_plan_execute(gk_context *ctx, gk_stencil_plan *p, void *grid, int64_t steps, gk_report *report)
{
    gk_report rep;
    gk_status st;
    if ((st = gk__plan_exec_begin(p ? &p->head : NULL, ctx, "gk_stencil_plan_execute", report, &rep))
        || (st = gk_stencil_check_size(p->nx, p->ny, p->nz, steps))
        || (st = gk__ctx_check_pointer(ctx, p->head.memory, grid, "gk_stencil_plan_execute: grid")))
        return st;
    if (p->head.memory == GK_MEMORY_HOST) {
        st = p->classic ? exec_host(p, grid, (int)steps, &rep) : exec_host_spec(p, grid, steps, &rep);
    } else if (!p->classic) {
#ifdef GK_HAVE_CUDA
        int saved;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            st = gk__stencil_gen_exec_device(p->gen, grid, p->pitch_y, p->pitch_z, steps);
            gk__ctx_gpu_leave(saved);
        }
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    } else {
#ifdef GK_HAVE_CUDA
        int saved;
        int64_t py, pz;
        if (!(st = gk__ctx_gpu_enter(ctx, &saved))) {
            gk__stencil_gpu_set_stream(p->gpu, (cudaStream_t)gk__ctx_stream(ctx));
            if (grid == gk__stencil_gpu_grid(p->gpu, &py, &pz))
                st = gk__stencil_gpu_enqueue(p->gpu, (int)steps);      /* the plan's own grid: no copy */
            else if (!(st = gk__stencil_gpu_copy_device(p->gpu, grid, p->pitch_y, p->pitch_z, 1))
                     && !(st = gk__stencil_gpu_enqueue(p->gpu, (int)steps)))
                st = gk__stencil_gpu_copy_device(p->gpu, grid, p->pitch_y, p->pitch_z, 0);
            gk__ctx_gpu_leave(saved);
        }
#else
        st = gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
    }
    gk__plan_exec_end(report, &rep);
    return st;
}

const char *gk__stencil_plan_store_dir(const gk_stencil_plan *p)
{
    return p ? p->store.where : "";
}

gk_status gk_stencil_plan_grid(const gk_stencil_plan *p, void **grid, int64_t *pitch_y, int64_t *pitch_z)
{
    if (!p || !grid || !pitch_y || !pitch_z)
        return gk__fail(GK_EINVAL, "gk_stencil_plan_grid: %s is NULL",
                        !p ? "plan" : !grid ? "grid" : !pitch_y ? "pitch_y" : "pitch_z");
    if (p->head.memory != GK_MEMORY_DEVICE)
        return gk__fail(GK_EINVAL, "gk_stencil_plan_grid: the plan is for host memory (its grid is the "
                        "caller's): want a plan of a GK_MEMORY_DEVICE problem");
    if (!p->classic)
        return gk__fail(GK_EINVAL, "gk_stencil_plan_grid: the plan runs stencil %s, whose generated kernels "
                        "work on the caller's device grid in place (no own grid)", p->spec.key);
#ifdef GK_HAVE_CUDA
    *grid = gk__stencil_gpu_grid(p->gpu, pitch_y, pitch_z);
    return GK_OK;
#else
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}

gk_status gk_stencil_run(gk_context *ctx, const gk_stencil_problem *problem, void *grid, int64_t steps,
                         const gk_stencil_options *options, gk_report *report)
{
    gk_stencil_plan *p = NULL;
    gk_status st;
    if ((st = gk__run_report_begin(ctx, report, "gk_stencil_run")))
        return st;
    if ((st = gk_stencil_check_size(problem ? problem->nx : 1, problem ? problem->ny : 1, problem ? problem->nz : 1,
                                    steps)))
        return st;
    if ((st = gk_stencil_plan_create(ctx, problem, options, &p)))
        return st;
    st = gk_stencil_plan_execute(ctx, p, grid, steps, report);
    gk_stencil_plan_destroy(p);
    return st;
}
