/* device.c - the GPU a measuring worker process runs on: chosen once by the
 * worker's first request ("info ORDINAL"), then used by every measurement of
 * that process (the tunables' measure/validate/verify).
 *
 * Process-wide on purpose: only the worker process (gktune --worker, which
 * serves one request at a time on one thread: gk__tune_worker) sets and
 * reads it; no context's job runs there, so no context shares it. */
#include "tune/tune.h"
#ifdef GK_HAVE_CUDA
#include "gpu/gpu.h"
#endif

static gk_device_info worker_dev;

gk_status gk__tune_set_device(int ordinal)
{
    gk_status st = gk__gpu_info(ordinal, &worker_dev);
    if (st) return st;
#ifdef GK_HAVE_CUDA
    int prev;   /* the worker process keeps this device current for good */
    return gk__gpu_enter(ordinal, &prev);
#else
    return GK_OK;
#endif
}

const gk_device_info *gk__tune_device(void) { return &worker_dev; }
