/* tune.c - the tuner's front door: the public gk_tune_* calls unpack the
 * context (its first GPU, the cache and data directories) for src/tune. */
#include "api/context.h"
#include "tune/tune.h"

#include <stdio.h>

gk_status gk_tune_select(gk_context *ctx, const char *kernel, int64_t size, gk_config *cfg,
                         gk_config_source *src, char *detail, size_t n)
{
    gk_config_clear(cfg);
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

gk_status gk_tune_cache_describe(gk_context *ctx, char *state, size_t n, char *lines, size_t ln)
{
    return gk__tune_cache_describe(ctx->backend == GK_BACKEND_GPU ? &ctx->dev[0] : NULL, ctx->cache_dir,
                                   state, n, lines, ln);
}

gk_status gk_tune_run(gk_context *ctx, const gk_tune_options *o, gk_tune_report *rep)
{
    /* The GPU is the worker's (a separate process, started by o->worker_argv,
     * which chooses its device the same way the caller did). */
    return gk__tune_run(ctx->cache_dir, ctx->data_dir, o, rep);
}

int gk_tune_worker_main(gk_context *ctx, int in_fd, int out_fd)
{
    return gk__tune_worker(ctx->backend == GK_BACKEND_GPU ? ctx->gpus[0] : -1, ctx->note, in_fd, out_fd);
}

gk_status gk_tune_check_options(const gk_tune_options *o)
{
    return gk__tune_check_options(o);
}
