/* sssp_none.c - the GPU shortest-path backend of a CPU-only build
 * (--without-cuda, or no toolkit found): open fails with GK_ENODEV. */
#include "gpu/sssp_gpu.h"
#include "gpu/sssp_gpu_knobs.h"

gk_status gk__sssp_gpu_open(const gk_graph *g, int device, void *stream, const gk_config *cfg, gk__sssp_gpu **out)
{
    (void)g; (void)device; (void)stream; (void)cfg;
    *out = NULL;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
}

gk_status gk__sssp_gpu_rows(gk__sssp_gpu *h, gk__sssp_job *j, double *ms)
{
    (void)h; (void)j;
    if (ms) *ms = 0;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
}

void gk__sssp_gpu_close(gk__sssp_gpu *h) { (void)h; }

void gk__sssp_gpu_set_knobs(gk__sssp_gpu *h, int threads, double delta_x) { (void)h; (void)threads; (void)delta_x; }

long long gk__sssp_gpu_slots(const gk__sssp_gpu *h) { (void)h; return 0; }

void gk__sssp_gpu_set_chunk(gk__sssp_gpu *h, long long slots, long long rows) { (void)h; (void)slots; (void)rows; }
