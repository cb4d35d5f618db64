/* dist_api.c - gk_apsp_run_file and gk_stencil_run_file: the caller's
 * problem, options and report (struct_size) checked and unpacked for the
 * distributed front doors (apsp_dist.c, stencil_dist.c). */
#include "api/dist.h"

#include <stddef.h>
#include <string.h>

/* The dist reports embed a gk_report, which grew in 1.2 (dtype,
 * cycle_vertex): the fields after it moved.  A program built against 1.0 or
 * 1.1 passes the old struct_size; it gets the old layout back (the run's
 * 1.0 fields, then the dist fields where its header put them). */
#define REPORT_GROWTH (sizeof(gk_report) - GK__REPORT_1_0_SIZE)

static gk_status dist_report_out(void *given, void *local, size_t local_size, size_t run_off, const char *what)
{
    size_t n;
    memcpy(&n, given, sizeof n);
    if (n != local_size - REPORT_GROWTH)
        return gk__struct_out(given, local, local_size, local_size, what);
    size_t old_run = GK__REPORT_1_0_SIZE, run_struct = run_off + offsetof(gk_report, struct_size);
    char *g = given;
    const char *l = local;
    memcpy(g + sizeof n, l + sizeof n, run_off - sizeof n);
    memcpy(g + run_struct, &old_run, sizeof old_run);
    memcpy(g + run_off + sizeof old_run, l + run_off + sizeof old_run, offsetof(gk_report, dtype) - sizeof old_run);
    memcpy(g + run_off + old_run, l + run_off + sizeof(gk_report), local_size - run_off - sizeof(gk_report));
    return GK_OK;
}
#define DIST_REPORT_OUT(given, local, what) \
    dist_report_out((given), &(local), sizeof(local), offsetof(__typeof__(local), run), (what))

#ifdef GK_SYMVER
/* The @GK_1.0 init of a dist report: *full (made by the 1.2 init) written
 * into the caller's smaller struct r in its old layout, nothing past it. */
static void dist_report_init_1_0(void *r, void *full, size_t full_size, size_t run_off, const char *what)
{
    size_t old = full_size - REPORT_GROWTH;
    memset(r, 0, old);
    memcpy(r, &old, sizeof old);
    dist_report_out(r, full, full_size, run_off, what);
}
#define DIST_REPORT_INIT_1_0(r, full, what) \
    dist_report_init_1_0((r), &(full), sizeof(full), offsetof(__typeof__(full), run), (what))
#endif

#ifdef GK_SYMVER
/* gk_apsp_dist_report grew in 1.2 with the gk_report inside it: programs
 * built from now on get gk_apsp_dist_report_init@@GK_1.2 (this one),
 * programs built against 1.0 and 1.1 keep @GK_1.0 (below: it writes their
 * smaller struct in its old layout, not past it). */
GK_API void gk__apsp_dist_report_init_1_2(gk_apsp_dist_report *r);
__asm__(".symver gk__apsp_dist_report_init_1_2, gk_apsp_dist_report_init@@GK_1.2");
#define gk_apsp_dist_report_init gk__apsp_dist_report_init_1_2
#endif
void gk_apsp_dist_report_init(gk_apsp_dist_report *r)
{
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
    gk_report_init(&r->run);
}
#ifdef GK_SYMVER
#undef gk_apsp_dist_report_init
GK_API void gk__apsp_dist_report_init_1_0(gk_apsp_dist_report *r);
void gk__apsp_dist_report_init_1_0(gk_apsp_dist_report *r)
{
    gk_apsp_dist_report full;
    gk__apsp_dist_report_init_1_2(&full);
    DIST_REPORT_INIT_1_0(r, full, "gk_apsp_dist_report");
}
__asm__(".symver gk__apsp_dist_report_init_1_0, gk_apsp_dist_report_init@GK_1.0");
#define gk_apsp_dist_report_init gk__apsp_dist_report_init_1_2
#endif

#ifdef GK_SYMVER
/* The same for gk_stencil_dist_report (its gk_report grew in 1.2). */
GK_API void gk__stencil_dist_report_init_1_2(gk_stencil_dist_report *r);
__asm__(".symver gk__stencil_dist_report_init_1_2, gk_stencil_dist_report_init@@GK_1.2");
#define gk_stencil_dist_report_init gk__stencil_dist_report_init_1_2
#endif
void gk_stencil_dist_report_init(gk_stencil_dist_report *r)
{
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
    gk_report_init(&r->run);
}
#ifdef GK_SYMVER
#undef gk_stencil_dist_report_init
GK_API void gk__stencil_dist_report_init_1_0(gk_stencil_dist_report *r);
void gk__stencil_dist_report_init_1_0(gk_stencil_dist_report *r)
{
    gk_stencil_dist_report full;
    gk__stencil_dist_report_init_1_2(&full);
    DIST_REPORT_INIT_1_0(r, full, "gk_stencil_dist_report");
}
__asm__(".symver gk__stencil_dist_report_init_1_0, gk_stencil_dist_report_init@GK_1.0");
#define gk_stencil_dist_report_init gk__stencil_dist_report_init_1_2
#endif

gk_status gk_apsp_run_file(gk_context *ctx, const char *input, const char *output, const gk_apsp_options *options,
                           gk_apsp_dist_report *report)
{
    gk_apsp_options o;
    gk_apsp_dist_report rep;
    gk_status st;
    gk_apsp_options_init(&o);
    gk_apsp_dist_report_init(&rep);
    if (report && (st = DIST_REPORT_OUT(report, rep, "gk_apsp_dist_report")))
        return st;
    if (!ctx || !input || !output)
        return gk__fail(GK_EINVAL, "gk_apsp_run_file: %s is NULL", !ctx ? "ctx" : !input ? "input" : "output");
    /* (options grew in 1.2: a 1.1 program's struct is accepted) */
    if (options && (st = GK__STRUCT_IN_SINCE(o, options, predecessors, "gk_apsp_options")))
        return st;
    if (o.check || o.precision || o.predecessors)
        return gk__fail(GK_EINVAL, "gk_apsp_run_file: options.%s is not available past one GPU",
                        o.check ? "check" : o.precision ? "precision" : "predecessors (one GPU or the CPU keeps them)");
    if ((unsigned)o.exchange > GK_EXCHANGE_HOST)
        return gk__fail(GK_EINVAL, "gk_apsp_run_file: options.exchange %d is not a gk_exchange", (int)o.exchange);
    st = gk__apsp_run_file_cfg(ctx, input, output, o.config, o.exchange, &rep);
    rep.struct_size = sizeof rep;
    rep.run.struct_size = sizeof rep.run;
    if (report)
        DIST_REPORT_OUT(report, rep, "gk_apsp_dist_report");
    return st;
}

gk_status gk_stencil_run_file(gk_context *ctx, const gk_stencil_problem *problem, const char *input, uint64_t seed,
                              const char *output, int64_t steps, const gk_stencil_options *options,
                              gk_stencil_dist_report *report)
{
    gk_stencil_problem p;
    gk_stencil_options o;
    gk_stencil_dist_report rep;
    gk_status st;
    gk_stencil_problem_init(&p, 0, 0, 0);
    gk_stencil_options_init(&o);
    gk_stencil_dist_report_init(&rep);
    if (report && (st = DIST_REPORT_OUT(report, rep, "gk_stencil_dist_report")))
        return st;
    if (!ctx || !problem)
        return gk__fail(GK_EINVAL, "gk_stencil_run_file: %s is NULL", !ctx ? "ctx" : "problem");
    if ((st = GK__STRUCT_IN_SINCE(p, problem, desc, "gk_stencil_problem")) ||
        (options && (st = GK__STRUCT_IN(o, options, "gk_stencil_options"))))
        return st;
    int dense = p.memory == GK_MEMORY_HOST && (!p.pitch_y || p.pitch_y == p.nx)
                && (!p.pitch_z || p.pitch_z == p.nx * p.ny);
    if (p.desc) {   /* a description (1.2): its own engine on each slab, its element type */
        gk__stencil_spec spec;
        if (!dense)
            return gk__fail(GK_EINVAL, "gk_stencil_run_file: the problem must be a dense grid in host memory");
        if (p.dtype != GK_DTYPE_FLOAT32 && p.dtype != GK_DTYPE_FLOAT64)
            return gk__fail(GK_EINVAL, "gk_stencil_run_file: problem.dtype %d: a stencil grid is float32 or float64",
                            (int)p.dtype);
        if (p.coeffs)
            return gk__fail(GK_EINVAL, "gk_stencil_run_file: problem.coeffs with problem.desc: the weights are "
                            "the description's");
        if (o.check || o.config)
            return gk__fail(GK_EINVAL, "gk_stencil_run_file: options.%s is not available for a description past "
                            "one GPU or process", o.check ? "check" : "config");
        if ((unsigned)o.exchange > GK_EXCHANGE_HOST)
            return gk__fail(GK_EINVAL, "gk_stencil_run_file: options.exchange %d is not a gk_exchange", (int)o.exchange);
        if ((st = gk__stencil_spec_make(p.desc, p.dtype, &spec)))
            return st;
        st = gk__stencil_run_file_desc(ctx, &spec, input, seed, output, p.nx, p.ny, p.nz, steps, o.exchange, &rep);
        rep.struct_size = sizeof rep;
        rep.run.struct_size = sizeof rep.run;
        if (report)
            DIST_REPORT_OUT(report, rep, "gk_stencil_dist_report");
        return st;
    }
    if (!dense || p.dtype != GK_DTYPE_FLOAT64)
        return gk__fail(GK_EINVAL, "gk_stencil_run_file: the problem must be a dense float64 grid in host memory");
    if (o.check)
        return gk__fail(GK_EINVAL, "gk_stencil_run_file: options.check is not available past one GPU");
    if ((unsigned)o.exchange > GK_EXCHANGE_HOST)
        return gk__fail(GK_EINVAL, "gk_stencil_run_file: options.exchange %d is not a gk_exchange", (int)o.exchange);
    st = gk__stencil_run_file_cfg(ctx, input, seed, output, p.nx, p.ny, p.nz,
                                  p.coeffs ? p.coeffs : gk_stencil_default_coeffs, steps, o.config, o.exchange, &rep);
    rep.struct_size = sizeof rep;
    rep.run.struct_size = sizeof rep.run;
    if (report)
        DIST_REPORT_OUT(report, rep, "gk_stencil_dist_report");
    return st;
}
