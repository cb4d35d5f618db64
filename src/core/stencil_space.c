/* stencil_space.c - the GPU stencil's tunable parameters and the rules that
 * exclude impossible combinations before any compile (read by gk --config,
 * the loader and gktune; compiled in every build). */
#include "core/stencil_space.h"

#include <stdio.h>

/* Candidate values: they hold every configuration within 5 % of the best in
 * the H200 sweeps (bench/stencil_results.md and a first 110-variant gktune
 * run), and few enough (648 combinations) that `gktune --exhaustive` checks the
 * budgeted search in minutes.  --config takes any value the constraints
 * allow, listed or not. */
static const gk_param_def stencil_params[] = {
    { "DESIGN", 1, 2, { 0, 1 }, "0 = shared-memory tile (27 smem reads), 1 = 2.5D z-streaming" },
    { "BX", 32, 3, { 32, 64, 128 }, "threads along x (tile width)" },
    { "BY", 2, 3, { 1, 2, 4 }, "threads along y" },
    { "RY", 4, 3, { 1, 2, 4 }, "outputs per thread along y" },
    { "ZC", 64, 3, { 32, 64, 128 }, "z planes per block" },
    { "UNROLL", 1, 2, { 1, 2 }, "unroll of the z loop" },
    { "MAXRREG", 0, 2, { 0, 64 }, "--maxrregcount (0 = none)" },
};

size_t gk__stencil_smem_bytes(int design, int bx, int by, int ry)
{
    return (size_t)(design == 0 ? 4 : 2) * (size_t)(bx + 2) * (size_t)(by * ry + 2) * sizeof(double);
}

static int stencil_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    int design = gk_config_get(cfg, "DESIGN", 1), bx = gk_config_get(cfg, "BX", 32),
        by = gk_config_get(cfg, "BY", 2), ry = gk_config_get(cfg, "RY", 4),
        zc = gk_config_get(cfg, "ZC", 64), un = gk_config_get(cfg, "UNROLL", 1),
        mr = gk_config_get(cfg, "MAXRREG", 0);
    long long threads = (long long)bx * by;   /* any int values: no overflow */
    if (design != 0 && design != 1)
        return snprintf(why, n, "DESIGN %d unknown (0 or 1)", design), 1;
    if (bx < 1 || by < 1 || ry < 1 || zc < 1 || un < 1 || mr < 0)
        return snprintf(why, n, "BX, BY, RY, ZC, UNROLL must be >= 1, MAXRREG >= 0"), 1;
    if (threads > 1024)
        return snprintf(why, n, "threads %lld > 1024", threads), 1;
    if (threads < 32)
        return snprintf(why, n, "threads %lld < 32 (a partial warp)", threads), 1;
    /* Each thread prefetches ceil((BY*RY+2)/BY) interior values and
     * ceil(2*(BY*RY+2)/threads) halo values of the next plane in registers. */
    long long nload = ((long long)by * ry + 2 + by - 1) / by + (2 * ((long long)by * ry + 2) + threads - 1) / threads;
    if (nload > 16)
        return snprintf(why, n, "%lld prefetched values per thread > 16", nload), 1;
    if (ry > 8)
        return snprintf(why, n, "RY %d > 8 (register pressure)", ry), 1;
    size_t sm = gk__stencil_smem_bytes(design, bx, by, ry);
    size_t limit = dev ? dev->smem_per_block_optin : 227 * 1024;
    if (sm > limit)
        return snprintf(why, n, "shared memory %zu > %zu bytes", sm, limit), 1;
    if (mr > 255)
        return snprintf(why, n, "MAXRREG %d > 255", mr), 1;
    if (mr > 0 && mr < 24)
        return snprintf(why, n, "MAXRREG %d < 24", mr), 1;
    int regs = dev && dev->regs_per_sm ? dev->regs_per_sm : 65536;
    if (mr > 0 && (long)mr * threads > regs)
        return snprintf(why, n, "MAXRREG %d x %lld threads > %d registers per SM", mr, threads, regs), 1;
    return 0;
}

const gk_space gk__space_stencil = { "stencil", 7, stencil_params, stencil_reject };

