/* space_gemm.c - the GPU matrix multiply's tunable parameters (the one
 * description: gemm.cu has no defaults, the fatbin is built from these) and
 * the rules that exclude impossible combinations before any compile (read
 * by gk --config, the loader and gktune; compiled in every build). */
#include "core/gemm_core.h"

#include <stdint.h>
#include <stdio.h>

/* The defaults: the register-blocked SGEMM that gktune chose on the H200
 * (bench/gemm-results.md: 95 % of cuBLAS at 4096^3 and 8192^3, against 87-88 %
 * for the classic 256-thread 8 x 8 layout it started from): a 128 x 128 block
 * tile, 128 threads with 16 x 8 outputs each, k chunks of 8, float4 loads,
 * double buffering, one block per SM by launch bound (no spills with CUDA 13
 * for sm_90).  --config takes any value the ranges and constraints allow,
 * listed or not. */
static const gk_param_def gemm_params[] = {
    { "BM", 128, 16, 512, 3, { 64, 128, 256 }, "block tile rows (of C)" },
    { "BN", 128, 16, 512, 3, { 64, 128, 256 }, "block tile columns (of C)" },
    { "BK", 8, 1, 64, 3, { 8, 16, 32 }, "k chunk held in shared memory" },
    { "TM", 16, 4, 32, 3, { 4, 8, 16 }, "outputs per thread along rows (a multiple of 4)" },
    { "TN", 8, 4, 32, 3, { 4, 8, 16 }, "outputs per thread along columns (a multiple of 4)" },
    { "VEC", 4, 1, 4, 3, { 1, 2, 4 }, "floats per global load (1, 2 or 4)" },
    { "STAGES", 2, 1, 2, 2, { 1, 2 }, "shared buffers: 1 = load/barrier/compute, 2 = double buffering" },
    { "UNROLL", 8, 1, 64, 3, { 1, 4, 8 }, "unroll of the loop over a k chunk (divides BK)" },
    { "MINB", 1, 1, 8, 2, { 1, 2 }, "minimum resident blocks per SM (__launch_bounds__)" },
    { "MAXRREG", 0, 0, 255, 3, { 0, 128, 255 }, "--maxrregcount (0 = none)" },
};

int64_t gk__gemm_threads(const gk_config *c)
{
    int tm = gk__param(c, "TM"), tn = gk__param(c, "TN");
    if (tm < 1 || tn < 1) return 0;
    return (int64_t)(gk__param(c, "BM") / tm) * (gk__param(c, "BN") / tn);
}

size_t gk__gemm_smem_bytes(const gk_config *c)
{
    int64_t bk = gk__param(c, "BK"), bm = gk__param(c, "BM"), bn = gk__param(c, "BN");
    return (size_t)(gk__param(c, "STAGES") * (bk * (bm + 4) + bk * bn) * 4);
}

static int gemm_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    if (gk__space_check_ranges(&gk__space_gemm, cfg, why, n))
        return 1;
    int bm = gk__param(cfg, "BM"), bn = gk__param(cfg, "BN"), bk = gk__param(cfg, "BK"),
        tm = gk__param(cfg, "TM"), tn = gk__param(cfg, "TN"), vec = gk__param(cfg, "VEC"),
        un = gk__param(cfg, "UNROLL"), minb = gk__param(cfg, "MINB"), mr = gk__param(cfg, "MAXRREG");
    if (tm % 4 || tn % 4)
        return snprintf(why, n, "TM=%d, TN=%d: outputs per thread come in groups of 4 (float4 reads)", tm, tn), 1;
    if (bm % tm || bn % tn)
        return snprintf(why, n, "TM=%d must divide BM=%d and TN=%d must divide BN=%d", tm, bm, tn, bn), 1;
    if (vec != 1 && vec != 2 && vec != 4)
        return snprintf(why, n, "VEC=%d: a load is 1, 2 or 4 floats", vec), 1;
    int64_t threads = gk__gemm_threads(cfg);
    if (threads > 1024)
        return snprintf(why, n, "threads %lld > 1024", (long long)threads), 1;
    if (threads < 32 || threads % 32)
        return snprintf(why, n, "threads %lld: not a whole number of warps (>= 32)", (long long)threads), 1;
    if (bk % vec || bn % vec)
        return snprintf(why, n, "VEC=%d must divide BK=%d and BN=%d", vec, bk, bn), 1;
    if (((int64_t)bm * bk) % (threads * vec) || ((int64_t)bk * bn) % (threads * vec))
        return snprintf(why, n, "the A (%dx%d) and B (%dx%d) chunks are not whole vectors of %d for each of "
                        "%lld threads", bm, bk, bk, bn, vec, (long long)threads), 1;
    if (bk % un)
        return snprintf(why, n, "UNROLL=%d does not divide BK=%d", un, bk), 1;
    if ((int64_t)tm * tn > 128)
        return snprintf(why, n, "TM*TN = %lld > 128 accumulators per thread", (long long)tm * tn), 1;
    /* loads in flight per thread (the next chunk held in registers) */
    int64_t loads = ((int64_t)bm * bk + (int64_t)bk * bn) / threads;
    if (loads > 64)
        return snprintf(why, n, "%lld floats of the next chunk per thread > 64", (long long)loads), 1;
    size_t sm = gk__gemm_smem_bytes(cfg);
    size_t limit = dev && dev->smem_per_block_optin ? dev->smem_per_block_optin : 227 * 1024;
    if (sm > limit)
        return snprintf(why, n, "shared memory %zu > %zu bytes", sm, limit), 1;
    if ((uint64_t)minb * sm > 228 * 1024)
        return snprintf(why, n, "MINB=%d blocks of %zu bytes of shared memory do not fit an SM", minb, sm), 1;
    int64_t need = (int64_t)tm * tn + loads + 24;          /* accumulators, prefetch, addresses */
    int64_t regs = dev && dev->regs_per_sm ? dev->regs_per_sm : 65536;
    if (need > 255)
        return snprintf(why, n, "about %lld registers per thread needed > 255", (long long)need), 1;
    if (need * threads * minb > regs)
        return snprintf(why, n, "MINB=%d blocks of %lld threads x ~%lld registers > %lld per SM", minb,
                        (long long)threads, (long long)need, (long long)regs), 1;
    if (mr > 0 && mr < need)
        return snprintf(why, n, "MAXRREG=%d < the ~%lld registers a thread needs (spills)", mr, (long long)need), 1;
    if (mr > 0 && (int64_t)mr * threads > regs)
        return snprintf(why, n, "MAXRREG %d x %lld threads > %lld registers per SM", mr, (long long)threads,
                        (long long)regs), 1;
    return 0;
}

const gk_space gk__space_gemm = { "gemm", (int)(sizeof gemm_params / sizeof gemm_params[0]), gemm_params,
                                  gemm_reject };
