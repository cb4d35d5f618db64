/* space_elementwise.c - the GPU elementwise kernel's tunable parameters (the
 * one description: elementwise.cu has no defaults, the fatbin is built from
 * these) and the rules that exclude impossible combinations before any
 * compile (read by gk --config, the loader and gktune; every build). */
#include "core/space.h"

#include <stdint.h>
#include <stdio.h>

/* The tuned design: each thread owns VEC float4s (4 consecutive columns
 * each, so the column class is fixed per lane and no switch remains), BX x
 * BY threads per block, the iteration loop over registers unrolled UNROLL
 * times; GRID = 0 launches one thread per VEC float4s of the matrix, GRID =
 * g > 0 launches g blocks per SM that stride over the rows (the grid
 * shape).  blockDim.x is swept over 32 .. 1024 as in the report.  SKIP = 1
 * stops stepping a lane whose step returned its own value (every later step
 * would too: the step is a pure function of the value) or NaN: the results
 * are the same bits, the work drops once the cos and sin columns have
 * converged to their fixed points and the tan columns have become NaN.
 * SKIP = 2 also moves, once the block's cos and sin lanes have settled, its
 * tan lanes still live to a queue in shared memory (one per thread), so a
 * warp no longer steps tan for its slowest lane while the others wait (the
 * same bits again; BX * BY floats of shared memory).  Where the log values
 * are in [1, FLT_MAX] the tuned kernel's log step is logf's and sqrtf's
 * code without their special cases (the same bits; elementwise.cu). */
static const gk_param_def elementwise_params[] = {
    { "VEC", 2, 1, 8, 3, { 1, 2, 4 }, "float4s per thread (independent chains: ILP)" },
    { "BX", 256, 1, 1024, 6, { 32, 64, 128, 256, 512, 1024 }, "threads along a row (blockDim.x)" },
    { "BY", 1, 1, 1024, 3, { 1, 2, 4 }, "rows per block (blockDim.y)" },
    { "UNROLL", 1, 1, 8, 2, { 1, 2 }, "unroll of the iteration loop" },
    { "GRID", 0, 0, 64, 3, { 0, 4, 8 }, "0: one block per tile of the matrix; g: g blocks per SM, grid-stride "
      "over the rows" },
    { "MAXRREG", 0, 0, 255, 2, { 0, 64 }, "--maxrregcount (0 = none)" },
    { "SKIP", 1, 0, 2, 3, { 0, 1, 2 }, "1: stop stepping a lane at a fixed point of the step or at NaN (same "
      "bits); 2: also queue the block's slow tan lanes" },
};

static int elementwise_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    if (gk__space_check_ranges(&gk__space_elementwise, cfg, why, n))
        return 1;
    int64_t bx = gk__param(cfg, "BX"), by = gk__param(cfg, "BY"), mr = gk__param(cfg, "MAXRREG");
    int64_t threads = bx * by;
    int64_t maxt = dev && dev->max_threads_per_block ? dev->max_threads_per_block : 1024;
    if (threads > maxt)
        return snprintf(why, n, "threads %lld > %lld", (long long)threads, (long long)maxt), 1;
    if (threads % 32)
        return snprintf(why, n, "threads %lld is not a multiple of 32 (a partial warp)", (long long)threads), 1;
    if (mr > 0 && mr < 24)
        return snprintf(why, n, "MAXRREG %lld < 24", (long long)mr), 1;
    int64_t regs = dev && dev->regs_per_sm ? dev->regs_per_sm : 65536;
    if (mr > 0 && mr * threads > regs)
        return snprintf(why, n, "MAXRREG %lld x %lld threads > %lld registers per SM", (long long)mr,
                        (long long)threads, (long long)regs), 1;
    return 0;
}

const gk_space gk__space_elementwise = { "elementwise",
                                         (int)(sizeof elementwise_params / sizeof elementwise_params[0]),
                                         elementwise_params, elementwise_reject };
