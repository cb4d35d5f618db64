/* sssp_gpu.c - placeholder until the GPU backend lands: fails with GK_ENODEV. */
#include "gpu/sssp_gpu.h"

gk_status gk__sssp_gpu_open(const gk_graph *g, int device, void *stream, const gk_config *cfg, gk__sssp_gpu **out)
{
    (void)g; (void)device; (void)stream; (void)cfg;
    *out = NULL;
    return gk__fail(GK_ENODEV, "the GPU shortest-path backend is not built yet");
}

gk_status gk__sssp_gpu_rows(gk__sssp_gpu *h, gk__sssp_job *j, double *ms)
{
    (void)h; (void)j; (void)ms;
    return gk__fail(GK_ENODEV, "the GPU shortest-path backend is not built yet");
}

void gk__sssp_gpu_close(gk__sssp_gpu *h)
{
    (void)h;
}
