/* stencil_gen_api.c - the generated stencil engine for the commands:
 * `gktune --stencil=DESC[,DESC...]` (tune each description on the
 * context's GPU) and the configuration a description runs with (the
 * caller's, else the tuned one, else the description's defaults).  The
 * kernels compiled on the way are kept in the context's cache directory:
 * each call passes its own store down (gk__stencil_gen_disk_store). */
#include "api/context.h"
#include "api/commands.h"
#ifdef GK_HAVE_CUDA
#include "tune/stencil_gen_tune.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "3d-star-r2:fixed" -> the descriptions to tune: the element type named,
 * else both. */
static gk_status specs_of(const char *text, gk__stencil_spec *out, int *n)
{
    int dims, r;
    gk_stencil_shape shape;
    gk_boundary b;
    gk_dtype t;
    gk_status st = gk__sg_desc_parse(text, &dims, &shape, &r, &b, &t);
    if (st) return st;
    int both = !strstr(text, ":f32") && !strstr(text, ":f64");
    *n = 0;
    if (both || t == GK_DTYPE_FLOAT32)
        if ((st = gk__sg_spec_build(dims, shape, r, b, GK_DTYPE_FLOAT32, NULL, &out[(*n)++]))) return st;
    if (both || t == GK_DTYPE_FLOAT64)
        if ((st = gk__sg_spec_build(dims, shape, r, b, GK_DTYPE_FLOAT64, NULL, &out[(*n)++]))) return st;
    return GK_OK;
}

gk_status gk__stencil_gen_check_list(const char *list)
{
    char buf[1024], *save = NULL;
    if (!list || !*list || strlen(list) >= sizeof buf)
        return gk__fail(GK_EINVAL, "--stencil: want a comma-separated list of descriptions, e.g. 3d-star-r1,2d-box-r2:f32");
    snprintf(buf, sizeof buf, "%s", list);
    for (char *d = strtok_r(buf, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
        gk__stencil_spec s[2];
        int n;
        gk_status st = specs_of(d, s, &n);
        if (st) return st;
    }
    return GK_OK;
}

gk_status gk__stencil_gen_tune_list(gk_context *ctx, const char *list, int64_t size, double budget_s, uint64_t seed,
                                    gk__stencil_gen_tune_row *rows, int max, int *nrows)
{
    *nrows = 0;
    gk_status st = gk__stencil_gen_check_list(list);
    if (st) return st;
    if (!ctx || ctx->backend != GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "--stencil needs a GPU (%s)", ctx && ctx->note[0] ? ctx->note : "CPU backend");
#ifndef GK_HAVE_CUDA
    (void)size; (void)budget_s; (void)seed; (void)rows; (void)max;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#else
    int saved;
    if ((st = gk__ctx_gpu_enter(ctx, &saved)))
        return st;
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    int ndesc = 0;
    for (char *d = strtok_r(buf, ",", &save); d; d = strtok_r(NULL, ",", &save))
        ndesc += strstr(d, ":f32") || strstr(d, ":f64") ? 1 : 2;
    for (char *d = (snprintf(buf, sizeof buf, "%s", list), strtok_r(buf, ",", &save)); d && !st;
         d = strtok_r(NULL, ",", &save)) {
        gk__stencil_spec s[2];
        int n;
        if ((st = specs_of(d, s, &n)))
            break;
        for (int i = 0; i < n && !st && *nrows < max; i++) {
            int64_t sz = size > 0 ? size : s[i].dims == 3 ? 256 : 8192;
            gk__sg_tune_result res;
            st = gk__stencil_gen_tune(&ctx->dev[0], ctx->cache_dir[0] ? ctx->cache_dir : NULL, &s[i], sz,
                                      budget_s / (ndesc > 0 ? ndesc : 1), seed, &res);
            if (st) break;
            gk__stencil_gen_tune_row *r = &rows[(*nrows)++];
            memset(r, 0, sizeof *r);
            snprintf(r->device, sizeof r->device, "%s", ctx->dev[0].name);
            snprintf(r->shape, sizeof r->shape, "%s", res.shape);
            r->size = res.size;
            snprintf(r->config, sizeof r->config, "%s", res.best);
            r->best_ms = res.best_ms;
            r->default_ms = res.default_ms;
            r->measured = res.measured;
            r->failed = res.failed;
            r->excluded = res.excluded;
            r->skipped = res.skipped;
            r->seconds = res.seconds;
            snprintf(r->file, sizeof r->file, "%s", res.file);
        }
    }
    gk__ctx_gpu_leave(saved);
    return st;
#endif
}

gk_status gk__stencil_gen_choose(gk_context *ctx, const gk__stencil_spec *s, int64_t size, const char *config,
                                 gk_config *cfg, gk_config_source *src)
{
    gk__config_clear(cfg);
    gk__stencil_gen_default_design(s->dims, s->radius, gk__stencil_gen_points(s), s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8,
                                   -1, cfg);
    *src = GK_CONFIG_DEFAULT;
    if (config && *config) {
        /* the caller's values over their design's defaults, as
         * gk__stencil_gen_config_user merges them (unchecked: each bench
         * row's steps per pass is checked when it opens) */
        gk_config user;
        char key[sizeof s->key];
        gk__config_clear(&user);
        gk__stencil_spec_shape_key(s, key, sizeof key);
        gk_status st = gk__config_parse(config, &user);
        if (!st)
            st = gk__stencil_gen_config_over(&user, key, config, s->dims, s->radius, gk__stencil_gen_points(s),
                                             s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8, cfg);
        if (st) return st;
        *src = GK_CONFIG_USER;
        return GK_OK;
    }
#ifdef GK_HAVE_CUDA
    if (ctx && ctx->backend == GK_BACKEND_GPU && !ctx->no_tuned && ctx->cache_dir[0]
        && gk__stencil_gen_tuned(&ctx->dev[0], ctx->cache_dir, s, size, cfg))
        *src = GK_CONFIG_CACHE;
    if (*src == GK_CONFIG_DEFAULT && ctx && ctx->backend == GK_BACKEND_GPU)   /* a smaller GPU than the H200 */
        gk__stencil_gen_default_fit(s->dims, s->radius, s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8, &ctx->dev[0], cfg);
#else
    (void)ctx; (void)size;
#endif
    return GK_OK;
}
