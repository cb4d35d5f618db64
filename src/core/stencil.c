/* stencil.c - stencil entry points compiled in every build: problem checks,
 * memory needs and the GPU solver, which calls the CUDA internals only when
 * gk was built with CUDA. */
#include "core/internal.h"
#include "core/checked.h"
#include "cpu/stencil_cpu.h"
#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gpu.h"
#endif

#include <stdlib.h>

/* Sizes stay below 2^30 so that padded extents and per-axis indices fit in
 * an int everywhere; the point count is bounded by memory, checked apart. */
#define GK_STENCIL_MAX_AXIS (1 << 30)

gk_status gk_stencil_check_size(int64_t nx, int64_t ny, int64_t nz, int64_t steps)
{
    if (nx < 1 || ny < 1 || nz < 1)
        return gk__fail(GK_EINVAL, "stencil grid %lldx%lldx%lld: every size must be >= 1",
                        (long long)nx, (long long)ny, (long long)nz);
    if (nx > GK_STENCIL_MAX_AXIS || ny > GK_STENCIL_MAX_AXIS || nz > GK_STENCIL_MAX_AXIS)
        return gk__fail(GK_EINVAL, "stencil grid %lldx%lldx%lld: a size is above %d",
                        (long long)nx, (long long)ny, (long long)nz, GK_STENCIL_MAX_AXIS);
    if (steps < 0 || steps > 0x7fffffff)
        return gk__fail(GK_EINVAL, "stencil: %lld steps (want 0 .. 2147483647)", (long long)steps);
    /* The grid, and the two padded buffers of either backend (x padded by
     * at most 8, y and z by 2), must have byte counts that fit: refused
     * here, before any caller computes or allocates them. */
    uint64_t pts = 0, bytes = 0;
    gk_status st = gk__grid_bytes(nx, ny, nz, &pts, &bytes);
    if (st) return st;
    if (gk__grid_bytes(nx + 8, ny + 2, nz + 2, &pts, &bytes) != GK_OK || gk__mul_u64(bytes, 2, &bytes) ||
        bytes > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "stencil grid %lldx%lldx%lld: its padded buffers do not fit in "
                        "memory (more than %llu bytes)", (long long)nx, (long long)ny, (long long)nz,
                        (unsigned long long)gk__max_object_bytes());
    return GK_OK;
}

uint64_t gk_stencil_cpu_bytes(int nx, int ny, int nz) { return gk__stencil_cpu_bytes(nx, ny, nz); }

uint64_t gk_stencil_gpu_bytes(int nx, int ny, int nz)
{
#ifdef GK_HAVE_CUDA
    return gk__stencil_gpu_bytes(nx, ny, nz);
#else
    return 2 * (uint64_t)(nx + 8) * (uint64_t)(ny + 2) * (uint64_t)(nz + 2) * sizeof(double);
#endif
}

gk_status gk_stencil_gpu_solve(double *grid, int nx, int ny, int nz, const double c[27], int steps,
                         const gk_config *cfg, gk_stencil_gpu_times *times)
{
    gk_status st = gk_stencil_check_size(nx, ny, nz, steps);
    if (st) return st;
#ifdef GK_HAVE_CUDA
    gk_stencil_gpu *g;
    gk_stencil_gpu_times t = { 0, 0, 0 };
    if ((st = gk__stencil_gpu_open(&g, nx, ny, nz, c, cfg)))
        return st;
    if (!(st = gk__stencil_gpu_upload(g, grid, &t.upload_ms)) &&
        !(st = gk__stencil_gpu_run(g, steps, &t.run_ms)))
        st = gk__stencil_gpu_download(g, grid, &t.download_ms);
    gk__stencil_gpu_close(g);
    if (times) *times = t;
    return st;
#else
    (void)grid; (void)c; (void)cfg; (void)times;
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}
