/* space_vadd.c - the vector add's tunable parameters (the one description:
 * vadd.cu has no defaults, the fatbin is built from these) and its rules
 * (compiled in every build). */
#include "core/space.h"

#include <stdint.h>
#include <stdio.h>

static const gk_param_def vadd_params[] = {
    { "VADD_PER_THREAD", 1, 1, 16, 3, { 1, 2, 4 }, "elements per thread" },
    { "THREADS", 256, 32, 1024, 3, { 128, 256, 512 }, "threads per block" },
};

static int vadd_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    if (gk__space_check_ranges(&gk__space_vadd, cfg, why, n))
        return 1;
    int64_t threads = gk__param(cfg, "THREADS");
    if (threads % 32)
        return snprintf(why, n, "threads %lld is not a multiple of 32", (long long)threads), 1;
    if (dev && threads > dev->max_threads_per_block)
        return snprintf(why, n, "threads %lld > %d", (long long)threads, dev->max_threads_per_block), 1;
    return 0;
}

const gk_space gk__space_vadd = { "vadd", (int)(sizeof vadd_params / sizeof vadd_params[0]), vadd_params, vadd_reject };
