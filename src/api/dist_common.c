/* dist_common.c - what the two distributed front doors (apsp_dist.c,
 * stencil_dist.c) do alike with the context: the checks of a run past one
 * process, and the device line of the report. */
#include "api/dist.h"
#include "core/comm.h"

#include <stdio.h>
#include <string.h>

gk_status gk__dist_check(const gk_context *ctx, const char *input, const char *output)
{
    const gk_comm *comm = ctx->comm;
    if (comm && ctx->backend == GK_BACKEND_GPU && ctx->ngpus > 1)
        return gk__fail(GK_EINVAL, "under mpirun each rank drives one GPU (%d ranks were given %d GPUs each)",
                        comm->size, ctx->ngpus);
    if (comm && ((input && !strcmp(input, "-")) || (output && !strcmp(output, "-"))))
        return gk__fail(GK_EINVAL, "standard %s cannot be shared by %d ranks; name a file",
                        input && !strcmp(input, "-") ? "input" : "output", comm->size);
    return GK_OK;
}

void gk__dist_report_init(gk_context *ctx, gk_report *run, int *ranks, int *gpus)
{
    gk__ctx_report_init(ctx, run);
    *ranks = gk__comm_size(ctx->comm);
    *gpus = ctx->backend == GK_BACKEND_GPU ? ctx->ngpus * *ranks : 0;
    if (ctx->backend == GK_BACKEND_GPU && ctx->ngpus > 1) {
        size_t l = strlen(run->device);
        for (int i = 1; i < ctx->ngpus && l + 16 < sizeof run->device; i++, l = strlen(run->device))
            snprintf(run->device + l, sizeof run->device - l, ", GPU %d", ctx->gpus[i]);
    }
    if (*ranks > 1) {
        size_t l = strlen(run->device);
        snprintf(run->device + l, sizeof run->device - l, "; %d ranks", *ranks);
    }
}
