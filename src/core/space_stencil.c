/* space_stencil.c - the GPU stencil's tunable parameters (the one
 * description: the .cu has no defaults, the fatbin is built from these) and
 * the rules that exclude impossible combinations before any compile (read by
 * gk --config, the loader and gktune; compiled in every build). */
#include "core/space.h"

#include <stdint.h>
#include <stdio.h>

/* Candidate values: the one-step designs' values hold every configuration
 * within 5 % of the best in the H200 sweeps (`git log -p --
 * bench/stencil_results.md`); the
 * tile (DESIGN 0) never came close, so the tuner searches the stream and the
 * temporal design (TSTEPS only with DESIGN 2: the constraints drop the
 * combinations that would measure the same kernel twice; RING is the
 * exception: DESIGN 1 accepts and ignores it, see stencil_reject).  BY=16 and
 * ZC=256 are listed for RING=1 (issue 13, third round: its best 512^3 tiles
 * are 64 x 32 with 512 threads and long z chunks).  SPLIT is accepted where
 * it is ignored as RING is (the bench's rows of every design and T come from
 * one entry), at the cost of some repeated kernels in the tuner's sample.  --config takes any value
 * the ranges and the constraints allow, listed or not. */
static const gk_param_def stencil_params[] = {
    { "DESIGN", 2, 0, 2, 2, { 1, 2 }, "0 = shared-memory tile (27 smem reads), 1 = 2.5D z-streaming, "
      "2 = temporal blocking (TSTEPS steps per pass)" },
    { "TSTEPS", 2, 1, 4, 4, { 1, 2, 3, 4 }, "steps per pass over the grid (DESIGN 2 only)" },
    { "BX", 32, 1, 1024, 3, { 32, 64, 128 }, "threads along x (tile width)" },
    { "BY", 8, 1, 1024, 5, { 1, 2, 4, 8, 16 }, "threads along y" },
    { "RY", 4, 1, 8, 3, { 1, 2, 4 }, "outputs per thread along y (register pressure)" },
    { "ZC", 128, 1, 65535, 4, { 32, 64, 128, 256 }, "z planes per block" },
    { "UNROLL", 1, 1, 16, 2, { 1, 2 }, "unroll of the z loop" },
    { "MAXRREG", 0, 0, 255, 2, { 0, 64 }, "--maxrregcount (0 = none)" },
    { "PREFETCH", 1, 1, 2, 2, { 1, 2 }, "planes loaded ahead, into registers or the ASYNC ring (DESIGN 1 and 2)" },
    { "RX", 2, 1, 2, 2, { 1, 2 }, "outputs per thread along x (tile width BX*RX; 2 = 16-byte shared loads)" },
    { "ASYNC", 1, 0, 1, 2, { 0, 1 }, "0 = register prefetch, 1 = cp.async into a ring of PREFETCH+1 shared "
      "planes (DESIGN 1 and 2)" },
    { "MINB", 2, 0, 4, 2, { 0, 2 }, "blocks per SM the registers must allow (__launch_bounds__; 0 = "
      "the compiler's choice)" },
    /* RING=1 and ZC=128 are the built-in defaults since gktune chose
     * them on an H200 at 512^3 (T=2: 368.3 GStencil/s against 306.7 for
     * RING=0, ZC=64; at 256^3 RING=1 too, 0.0509 against 0.0917 ms a
     * step: bench/stencil-results.md, "Deep temporal blocking") */
    { "RING", 1, 0, 1, 2, { 0, 1 }, "DESIGN 2 tiling: 0 = overlapped tiles (a block stores (BX*RX-2T+2) x "
      "(BY*RY-2T+2)), 1 = exact tiles (stores BX*RX x BY*RY; the stages' halos computed as a ring; "
      "needs ASYNC=1; ignored by DESIGN 0 and 1)" },
    { "SPLIT", 0, 0, 1, 2, { 0, 1 }, "RING=1 with the TMA (sm_90), TSTEPS >= 2: 1 = no block barrier per plane "
      "(two mbarriers: every thread arrives after a plane's stage 1 and after its last stage, and waits for "
      "all at the next plane's top and before its stage 2; one more shared plane); ignored otherwise" },
};

size_t gk__stencil_smem_bytes(int design, int bx, int by, int ry, int tsteps)
{
    size_t planes = design == 0 ? 4 : design == 1 ? 2 : 2 * (size_t)(tsteps > 0 ? tsteps : 1);
    return planes * (size_t)((int64_t)bx + 2) * (size_t)((int64_t)by * ry + 2) * sizeof(double);
}

/* 1 when a RING=1 pass of tsteps steps takes SPLIT's extra plane (and its
 * two mbarriers): SPLIT=1 at 2 steps or more */
static int split_plane(const gk_config *complete, int64_t tsteps)
{
    return tsteps >= 2 && gk__param(complete, "SPLIT");
}

size_t gk__stencil_smem_cfg(const gk_config *complete, int tsteps)
{
    int design = gk__param(complete, "DESIGN"), bx = gk__param(complete, "BX"), by = gk__param(complete, "BY"),
        ry = gk__param(complete, "RY"), rx = gk__param(complete, "RX");
    /* DESIGN 1 and 2: the input ring (2 planes, or PREFETCH+1 with ASYNC),
     * then 2 planes per intermediate stage of DESIGN 2 */
    size_t in = gk__param(complete, "ASYNC") ? (size_t)gk__param(complete, "PREFETCH") + 1 : 2;
    if (design == 2 && gk__param(complete, "RING")) {
        /* RING (stencil.cu's ring_geo): the input ring and the stages'
         * planes, each (tile + tsteps + 1 each side) x (tile + tsteps each
         * side), rounded up to 16 doubles (128 bytes: the TMA's alignment;
         * the x offset within, odd or even, takes at most tsteps + 1), then
         * an 8-byte mbarrier per input plane; SPLIT (at 2 steps or more) a
         * third plane for stage 1 and two mbarriers more (counted whether
         * the kernel takes the TMA or not: the host does not know) */
        int64_t t = tsteps > 0 ? tsteps : 1, nin = gk__param(complete, "PREFETCH") + 1;
        int64_t split = split_plane(complete, t);
        size_t pl = (size_t)((int64_t)bx * rx + 2 * (t + 1)) * (size_t)((int64_t)by * ry + 2 * t);
        pl = (pl + 15) / 16 * 16;
        return (((size_t)nin + 2 * (size_t)(t - 1) + (size_t)split) * pl + (size_t)(nin + 2 * split)) * sizeof(double);
    }
    size_t planes = design == 0 ? 4 : in + (design == 2 ? 2 * (size_t)(tsteps > 0 ? tsteps - 1 : 0) : 0);
    return planes * (size_t)((int64_t)bx * rx + 2) * (size_t)((int64_t)by * ry + 2) * sizeof(double);
}

/* One pass of t steps (t = 1 for DESIGN 0 and 1): the point-iterations of
 * every block (each costs one point's 27 operations, spread over three
 * planes in the streaming kernels), summed over the stages.  The loops are
 * those of stencil.cu: DESIGN 0 visits the chunk's planes once; DESIGN 1
 * and every stage s of DESIGN 2 run the chunk's planes plus 2 + 2(t-s)
 * (the stream's fill and the halo planes of the later stages); DESIGN 2
 * computes its whole TI x H tile at every stage (overlapped tiles, which
 * store (TI-2(t-1)) x (H-2(t-1))), or with RING=1 the tile plus a ring of
 * t-s points (the ring's points spread over the threads, point i to thread
 * i mod the block: each round of one point a thread occupies every warp of
 * the block, the last round the warps its remainder reaches).  Work is
 * counted in warp lanes, as the FP64 pipe spends it: a block whose threads
 * are no multiple of 32 pays its last warp whole. */
static double pass_work(const gk_config *c, int t, int64_t nx, int64_t ny, int64_t nz)
{
    int design = gk__param(c, "DESIGN"), ring = design == 2 && gk__param(c, "RING");
    int64_t ti = (int64_t)gk__param(c, "BX") * gk__param(c, "RX"), h = (int64_t)gk__param(c, "BY") * gk__param(c, "RY");
    int64_t zc = gk__param(c, "ZC"), ow = ti, oh = h;
    int64_t tpb = (int64_t)gk__param(c, "BX") * gk__param(c, "BY"), lanes = (tpb + 31) / 32 * 32;
    if (design == 2 && !ring) {
        ow -= 2 * (t - 1);
        oh -= 2 * (t - 1);
    }
    if (ow < 1 || oh < 1 || zc < 1)
        return 0;
    double tiles = (double)((nx + ow - 1) / ow) * (double)((ny + oh - 1) / oh), work = 0;
    int64_t chunks = (nz + zc - 1) / zc;
    int stages = design == 2 ? t : 1;
    for (int s = 1; s <= stages; s++) {
        /* the tile: RX*RY points per thread, every lane of the block's warps */
        int64_t m = stages - s, pts = ti * h / tpb * lanes;
        if (ring && m > 0) {
            int64_t cnt = (ti + 2 * m) * (h + 2 * m) - ti * h;
            pts += cnt / tpb * lanes + (cnt % tpb + 31) / 32 * 32;
        }
        /* the planes of every chunk: nz in all, plus per chunk the fill */
        int64_t extra = design == 0 ? 0 : 2 + 2 * m;
        work += tiles * (double)pts * (double)(nz + chunks * extra);
    }
    return work;
}

double gk__stencil_work(const gk_config *complete, int naive, int64_t nx, int64_t ny, int64_t nz, int64_t steps)
{
    if (nx < 1 || ny < 1 || nz < 1 || steps < 1)
        return 0;
    if (naive)
        return 1;
    int t = gk__param(complete, "DESIGN") == 2 ? gk__param(complete, "TSTEPS") : 1;
    if (t < 1)
        return 0;
    double work = (double)(steps / t) * pass_work(complete, t, nx, ny, nz);
    if (steps % t)
        work += pass_work(complete, (int)(steps % t), nx, ny, nz);
    return work / ((double)steps * (double)nx * (double)ny * (double)nz);
}

static int stencil_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    if (gk__space_check_ranges(&gk__space_stencil, cfg, why, n))
        return 1;
    int design = gk__param(cfg, "DESIGN"), bx = gk__param(cfg, "BX"), by = gk__param(cfg, "BY"),
        ry = gk__param(cfg, "RY"), mr = gk__param(cfg, "MAXRREG"), ts = gk__param(cfg, "TSTEPS"),
        rx = gk__param(cfg, "RX");
    int ts_def = stencil_params[1].def, ring = gk__param(cfg, "RING");
    if (design != 2 && ts != ts_def)
        return snprintf(why, n, "TSTEPS=%d has no effect with DESIGN=%d (steps per pass of DESIGN 2): "
                        "leave it at %d", ts, design, ts_def), 1;
    /* RING=1 is accepted (and ignored) with DESIGN 0 and 1: the bench runs
     * every design from one configuration (a tuned DESIGN 2 entry) */
    if (design == 2 && ring && !gk__param(cfg, "ASYNC"))
        return snprintf(why, n, "RING=1 has no register prefetch (its planes arrive by cp.async, or by the TMA on "
                        "sm_90 where the tile allows): it needs ASYNC=1 (ASYNC=0 runs with RING=0, the overlapped "
                        "tiles; RING=1 is the default)"), 1;
    if (design == 2 && ring) {
        /* ring points per thread, summed over the stages 1..TSTEPS-1 (ring width TSTEPS-s) */
        int64_t ti = (int64_t)bx * rx, h = (int64_t)by * ry, thr = (int64_t)bx * by, pts = 0;
        for (int64_t m = 1; m < ts; m++)
            pts += ((ti + 2 * m) * (h + 2 * m) - ti * h + thr - 1) / thr;
        if (pts > 8)
            return snprintf(why, n, "RING=1: %lld ring points per thread > 8 (a larger tile or fewer TSTEPS)",
                            (long long)pts), 1;
        if ((int64_t)ts * ry * rx > 32)
            return snprintf(why, n, "TSTEPS*RY*RX = %lld > 32 partial sums per stage in registers",
                            (long long)ts * ry * rx), 1;
    } else if (design == 2) {
        /* each pass recomputes TSTEPS-1 points of halo on each side (BX
         * itself must exceed that, whatever RX: one rule for every RX) */
        int64_t ow = (int64_t)bx - 2 * (ts - 1), oh = (int64_t)by * ry - 2 * (ts - 1);
        if (ow < 1 || oh < 1)
            return snprintf(why, n, "DESIGN 2 tile %dx%lld leaves no output for TSTEPS=%d (needs BX and "
                            "BY*RY > %d)", bx, (long long)by * ry, ts, 2 * (ts - 1)), 1;
        if ((int64_t)ts * ry * rx > 32)
            return snprintf(why, n, "TSTEPS*RY*RX = %lld > 32 partial sums per stage in registers",
                            (long long)ts * ry * rx), 1;
    }
    int64_t threads = (int64_t)bx * by;
    if (threads > 1024)
        return snprintf(why, n, "threads %lld > 1024", (long long)threads), 1;
    if (threads < 32)
        return snprintf(why, n, "threads %lld < 32 (a partial warp)", (long long)threads), 1;
    /* MINB blocks of whole warps per SM (2048 threads on sm_80 and sm_90), at
     * least 32 registers per thread */
    int64_t minb = gk__param(cfg, "MINB") > 0 ? gk__param(cfg, "MINB") : 1, warps = (threads + 31) / 32,
            sm_threads = 2048;
    int64_t sm_regs = dev && dev->regs_per_sm ? dev->regs_per_sm : 65536;
    if (minb * warps * 32 > sm_threads)
        return snprintf(why, n, "MINB %lld x %lld threads > %lld threads per SM", (long long)minb,
                        (long long)warps * 32, (long long)sm_threads), 1;
    if (sm_regs / (minb * warps * 32) < 32)
        return snprintf(why, n, "MINB %lld x %lld threads leave < 32 registers per thread", (long long)minb,
                        (long long)warps * 32), 1;
    /* Each thread prefetches (PREFETCH planes of) RX*ceil((BY*RY+2)/BY) interior values and
     * ceil(2*(BY*RY+2)/threads) halo values of the next plane in registers (ASYNC: copies,
     * no registers). */
    /* (RING: TSTEPS halo rows and columns each side) */
    int64_t hw = design == 2 && ring ? ts : 1, th = (int64_t)by * ry + 2 * hw;
    int64_t nload = (rx * ((th + by - 1) / by) + (2 * hw * th + threads - 1) / threads) * gk__param(cfg, "PREFETCH");
    if (nload > 16 && !gk__param(cfg, "ASYNC"))
        return snprintf(why, n, "%lld prefetched values per thread > 16", (long long)nload), 1;
    if (nload > 32)
        return snprintf(why, n, "%lld asynchronous copies per thread and plane > 32", (long long)nload), 1;
    size_t sm = gk__stencil_smem_cfg(cfg, ts);
    size_t limit = dev ? dev->smem_per_block_optin : 227 * 1024;
    if (sm > limit)
        return snprintf(why, n, "shared memory %zu > %zu bytes%s", sm, limit,
                        design == 2 && ring && split_plane(cfg, ts) ? " (SPLIT=1 takes one plane more)" : ""), 1;
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
