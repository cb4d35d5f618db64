/* tune.c - the tuner's front door: the public gk_tune_* calls unpack the
 * context (its first GPU, the cache and data directories) for src/tune. */
#include "api/context.h"
#include "api/commands.h"
#include "tune/worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GK_BINDIR
#error GK_BINDIR (the installed $(bindir)) must come from Makefile.am
#endif

gk_status gk_tune_select(gk_context *ctx, const char *kernel, int64_t size, char *text, size_t tn,
                         gk_config_source *src, char *detail, size_t n)
{
    gk_config cfg;
    if (!ctx || !kernel || !text || !src)
        return gk__fail(GK_EINVAL, "gk_tune_select: %s is NULL", !ctx ? "ctx" : !kernel ? "kernel" : !text ? "config"
                                                                                                     : "src");
    if (tn) *text = 0;
    gk_status st = gk__ctx_tune_select(ctx, kernel, size, &cfg, src, detail, n);
    if (!st)
        gk__config_format(&cfg, text, tn);
    return st;
}

gk_status gk__ctx_tune_select(gk_context *ctx, const char *kernel, int64_t size, gk_config *cfg,
                              gk_config_source *src, char *detail, size_t n)
{
    gk__config_clear(cfg);
    *src = GK_CONFIG_NONE;
    if (ctx->backend != GK_BACKEND_GPU) {
        if (detail) snprintf(detail, n, "the CPU backend has no GPU kernel configuration");
        return GK_OK;
    }
    if (!gk__space_find(kernel))
        return gk__fail(GK_EINVAL, "no kernel '%s'", kernel);
    if (ctx->no_tuned) {
        *src = GK_CONFIG_DEFAULT;
        if (detail) snprintf(detail, n, "tuned configurations turned off");
        return GK_OK;
    }
    return gk__tune_select(&ctx->dev[0], ctx->cache_dir, ctx->data_dir, kernel, size, cfg, src, detail, n);
}

gk_status gk__tune_cache_text(gk_context *ctx, char *state, size_t n, char *lines, size_t ln)
{
    return gk__tune_cache_describe(ctx->backend == GK_BACKEND_GPU ? &ctx->dev[0] : NULL, ctx->cache_dir,
                                   state, n, lines, ln);
}

void gk_tune_options_init(gk_tune_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

void gk_tune_report_init(gk_tune_report *r)
{
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
}

gk_status gk_tune_run(gk_context *ctx, const gk_tune_options *given, gk_tune_report *out)
{
    static char *const default_worker[] = { GK_BINDIR "/gktune", "--worker", NULL };
    gk_tune_options o;
    gk_tune_report *rep = NULL;
    gk_status st;
    if (!ctx || !given)
        return gk__fail(GK_EINVAL, "gk_tune_run: %s is NULL", !ctx ? "ctx" : "options");
    gk_tune_options_init(&o);
    if ((st = GK__STRUCT_IN(o, given, "gk_tune_options")))
        return st;
    if (out) {
        gk_tune_report probe;
        gk_tune_report_init(&probe);
        if ((st = GK__STRUCT_OUT(out, probe, "gk_tune_report")))   /* its struct_size, before the work */
            return st;
    }
    if (!o.worker_argv)
        o.worker_argv = default_worker;
    if (!(rep = malloc(sizeof *rep)))
        return gk__fail(GK_ENOMEM, "gk_tune_run: no memory for the report");
    gk_tune_report_init(rep);
    /* The GPU is the worker's (a separate process, started by o.worker_argv,
     * which chooses its device the same way the caller did). */
    st = gk__tune_run(ctx->cache_dir, ctx->data_dir, &o, rep);
    rep->struct_size = sizeof *rep;
    if (out)
        GK__STRUCT_OUT(out, *rep, "gk_tune_report");
    free(rep);
    return st;
}

int gk__tune_worker_main(gk_context *ctx, int in_fd, int out_fd)
{
    return gk__tune_worker(ctx->backend == GK_BACKEND_GPU ? ctx->gpus[0] : -1, ctx->note, in_fd, out_fd);
}

gk_status gk__tune_options_check(const gk_tune_options *o)
{
    return gk__tune_check_options(o);
}

const char *gk__tune_run_note(void)
{
    return gk__tune_note();
}

void gk__tune_abort(void)
{
    gk__worker_kill();
    gk__cache_remove_temps();
    gk_remove_partial_outputs();       /* (the --csv file's temp) */
}
