/* plan.c - what every kernel's plan shares: its making (the rules of
 * device memory, the configuration, the report it starts from), the checks
 * at each execution, and the report of a one-call job. */
#include "api/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gk_status gk__plan_args(gk_context *ctx, void *out, const char *fn)
{
    if (!out)
        return gk__fail(GK_EINVAL, "%s: plan is NULL (nowhere to put it)", fn);
    *(void **)out = NULL;
    if (!ctx)
        return gk__fail(GK_EINVAL, "%s: ctx is NULL", fn);
    return GK_OK;
}

static gk_status plan_new(gk_context *ctx, size_t bytes, const char *kernel, gk_memory memory, int check,
                          const char *config, int64_t size_class, int typed, void **out);

gk_status gk__plan_new(gk_context *ctx, size_t bytes, const char *kernel, gk_memory memory, int check,
                       const char *config, int64_t size_class, void **out)
{
    return plan_new(ctx, bytes, kernel, memory, check, config, size_class, 0, out);
}

gk_status gk__plan_new_typed(gk_context *ctx, size_t bytes, const char *kernel, gk_memory memory, int check,
                             const char *config, int64_t size_class, void **out)
{
    return plan_new(ctx, bytes, kernel, memory, check, config, size_class, 1, out);
}

static gk_status plan_new(gk_context *ctx, size_t bytes, const char *kernel, gk_memory memory, int check,
                          const char *config, int64_t size_class, int typed, void **out)
{
    gk_status st;
    *out = NULL;
    if (memory == GK_MEMORY_DEVICE) {
        if (ctx->backend != GK_BACKEND_GPU)
            return gk__fail(GK_EINVAL, "%s: the problem is in device memory, but the context runs on the CPU (%s)",
                            kernel, *ctx->note ? ctx->note : "asked for");
        if (check)
            return gk__fail(GK_EINVAL, "%s: options.check needs host memory (the CPU recomputes the job)", kernel);
    }
    gk__plan_head *h = calloc(1, bytes);
    if (!h)
        return gk__fail(GK_ENOMEM, "cannot allocate a %s plan", kernel);
    h->ctx = ctx;
    h->memory = memory;
    h->kernel = kernel;
    h->check = check != 0;
    if (config && !(h->config = strdup(config))) {
        free(h);
        return gk__fail(GK_ENOMEM, "cannot copy options.config");
    }
    gk__ctx_report_init(ctx, &h->base);
    h->base.memory = memory;
    if ((st = (typed ? gk__ctx_config_typed : gk__ctx_config)(ctx, kernel, size_class, h->config, &h->cfg,
                                                               &h->base))) {
        gk__plan_free(h);
        return st;
    }
    *out = h;
    return GK_OK;
}

void gk__plan_free(void *plan)
{
    gk__plan_head *h = plan;
    if (!h)
        return;
    free(h->config);
    free(h);
}

gk_status gk__plan_check(const gk__plan_head *plan, const gk_context *ctx, const char *fn)
{
    if (!ctx)
        return gk__fail(GK_EINVAL, "%s: ctx is NULL", fn);
    if (!plan)
        return gk__fail(GK_EINVAL, "%s: plan is NULL", fn);
    if (plan->ctx != ctx)
        return gk__fail(GK_EINVAL, "%s: the %s plan was made with another context (%p, not ctx %p)", fn,
                        plan->kernel, (void *)plan->ctx, (const void *)ctx);
    return GK_OK;
}

gk_status gk__plan_exec_begin(const gk__plan_head *plan, gk_context *ctx, const char *fn, gk_report *report,
                              gk_report *rep)
{
    gk_status st = gk__plan_check(plan, ctx, fn);
    if (!st && report)
        st = GK__STRUCT_OUT_SINCE(report, plan->base, dtype, "gk_report");
    if (!st)
        *rep = plan->base;
    return st;
}

void gk__plan_exec_end(gk_report *report, const gk_report *rep)
{
    if (report)
        GK__STRUCT_OUT_SINCE(report, *rep, dtype, "gk_report");
}

gk_status gk__run_report_begin(gk_context *ctx, gk_report *report, const char *fn)
{
    if (!ctx)                 /* named as the caller's call, not the plan_create inside it */
        return gk__fail(GK_EINVAL, "%s: ctx is NULL", fn);
    if (!report)
        return GK_OK;
    gk_report probe;
    gk_report_init(&probe);
    gk__ctx_report_init(ctx, &probe);
    return GK__STRUCT_OUT_SINCE(report, probe, dtype, "gk_report");
}

void gk__ctx_gpu_call(gk_context *ctx, void (*f)(void *), void *arg)
{
    int saved;
    if (gk__ctx_gpu_enter(ctx, &saved) == GK_OK) {
        f(arg);
        gk__ctx_gpu_leave(saved);
    }
}
