/* stencil.c - the stencil's problem checks (every build). */
#include "core/internal.h"

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
    return GK_OK;
}
