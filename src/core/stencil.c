/* stencil.c - the stencil's problem checks (every build). */
#include "core/internal.h"
#include "core/checked.h"

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
