/* space_stencil.c - the GPU stencil's tunable parameters (the one
 * description: the .cu has no defaults, the fatbin is built from these) and
 * the rules that exclude impossible combinations before any compile (read by
 * gk --config, the loader and gktune; compiled in every build). */
#include "core/space.h"

#include <stdint.h>
#include <stdio.h>

/* Candidate values: they hold every configuration within 5 % of the best in
 * the H200 sweeps (bench/stencil_results.md and a first 110-variant gktune
 * run), and few enough (648 combinations) that `gktune --exhaustive` checks the
 * budgeted search in minutes.  --config takes any value the ranges and the
 * constraints allow, listed or not. */
static const gk_param_def stencil_params[] = {
    { "DESIGN", 1, 0, 1, 2, { 0, 1 }, "0 = shared-memory tile (27 smem reads), 1 = 2.5D z-streaming" },
    { "BX", 32, 1, 1024, 3, { 32, 64, 128 }, "threads along x (tile width)" },
    { "BY", 2, 1, 1024, 3, { 1, 2, 4 }, "threads along y" },
    { "RY", 4, 1, 8, 3, { 1, 2, 4 }, "outputs per thread along y (register pressure)" },
    { "ZC", 64, 1, 65535, 3, { 32, 64, 128 }, "z planes per block" },
    { "UNROLL", 1, 1, 16, 2, { 1, 2 }, "unroll of the z loop" },
    { "MAXRREG", 0, 0, 255, 2, { 0, 64 }, "--maxrregcount (0 = none)" },
};

size_t gk__stencil_smem_bytes(int design, int bx, int by, int ry)
{
    return (size_t)(design == 0 ? 4 : 2) * (size_t)((int64_t)bx + 2) * (size_t)((int64_t)by * ry + 2) * sizeof(double);
}

static int stencil_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    if (gk__space_check_ranges(&gk__space_stencil, cfg, why, n))
        return 1;
    int design = gk__param(cfg, "DESIGN"), bx = gk__param(cfg, "BX"), by = gk__param(cfg, "BY"),
        ry = gk__param(cfg, "RY"), mr = gk__param(cfg, "MAXRREG");
    int64_t threads = (int64_t)bx * by;
    if (threads > 1024)
        return snprintf(why, n, "threads %lld > 1024", (long long)threads), 1;
    if (threads < 32)
        return snprintf(why, n, "threads %lld < 32 (a partial warp)", (long long)threads), 1;
    /* Each thread prefetches ceil((BY*RY+2)/BY) interior values and
     * ceil(2*(BY*RY+2)/threads) halo values of the next plane in registers. */
    int64_t th = (int64_t)by * ry + 2;
    int64_t nload = (th + by - 1) / by + (2 * th + threads - 1) / threads;
    if (nload > 16)
        return snprintf(why, n, "%lld prefetched values per thread > 16", (long long)nload), 1;
    size_t sm = gk__stencil_smem_bytes(design, bx, by, ry);
    size_t limit = dev ? dev->smem_per_block_optin : 227 * 1024;
    if (sm > limit)
        return snprintf(why, n, "shared memory %zu > %zu bytes", sm, limit), 1;
    if (mr > 0 && mr < 24)
        return snprintf(why, n, "MAXRREG %d < 24", mr), 1;
    int64_t regs = dev && dev->regs_per_sm ? dev->regs_per_sm : 65536;
    if (mr > 0 && (int64_t)mr * threads > regs)
        return snprintf(why, n, "MAXRREG %d x %lld threads > %lld registers per SM", mr,
                        (long long)threads, (long long)regs), 1;
    return 0;
}

const gk_space gk__space_stencil = { "stencil", (int)(sizeof stencil_params / sizeof stencil_params[0]),
                                     stencil_params, stencil_reject };
