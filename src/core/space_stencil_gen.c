/* space_stencil_gen.c - the generated stencil engine's parameters (see
 * space_stencil_gen.h): ranges and candidate values, the defaults of a
 * description and the rules that exclude impossible configurations before
 * any compile. */
#include "core/space_stencil_gen.h"

#include <stdint.h>
#include <stdio.h>

/* Candidate values: the union of the 2D and 3D lists (the tuner takes the
 * ones that fit the description: src/tune/tunable_stencil_gen.c). */
static const gk_param_def gen_params[] = {
    { "TX", 32, 1, 4096, 6, { 16, 32, 64, 128, 256, 512 }, "output tile width (x) a block stores" },
    { "TY", 8, 1, 256, 4, { 1, 4, 8, 16 }, "output tile height (y; 1 in 2D)" },
    { "NT", 256, 32, 1024, 4, { 128, 256, 512, 1024 }, "threads per block (a multiple of 32)" },
    { "ZC", 64, 1, 65535, 5, { 32, 64, 128, 256, 512 }, "planes (2D: rows) a block streams" },
    { "TSTEPS", 1, 1, GK__SG_TMAX, 6, { 1, 2, 3, 4, 6, 8 }, "steps per pass over the grid (temporal blocking)" },
    /* appended (issue 25, second design): a configuration without DESIGN
     * (a tuned entry of before) is the ring design, as it was tuned */
    { "DESIGN", 0, 0, 2, 3, { 0, 1, 2 },
      "0: the plane ring (shared memory, a block barrier per plane); 1: warp streaming (2D only: "
      "register queues and shuffles, no shared memory, no barrier; NT/32 warps per block, ZC rows per warp); "
      "2: z-streaming with register accumulation (3D only; NT = (TX/RX)*(TY/RY); TSTEPS stages per pass, "
      "the block storing the inner (TX-2(TSTEPS-1)r) x (TY-2(TSTEPS-1)r) of its tile)" },
    { "PX", 4, 1, 8, 3, { 2, 4, 8 }, "DESIGN=1: points per lane along x (below the radius: x neighbours from lanes "
      "further away); a warp's strip is 32*PX" },
    /* appended (DESIGN=2): a thread's outputs per plane, RX columns x RY rows */
    { "RX", 1, 1, 8, 2, { 1, 2 }, "DESIGN=2: consecutive x columns of outputs per thread (TX/RX threads along x)" },
    { "RY", 4, 1, 16, 4, { 1, 2, 4, 8 }, "DESIGN=2: consecutive y rows of outputs per thread (TY/RY threads along y)" },
    /* appended (DESIGN=2): how the input planes arrive; 1 (the default of a
     * configuration without PF, as tuned before) is the register prefetch */
    { "PF", 1, 0, 4, 5, { 0, 1, 2, 3, 4 },
      "input planes (2D: rows) in flight ahead of the one computed. DESIGN=2: 1, the next plane through "
      "registers (two shared planes); 2-4, asynchronous copies (cp.async) into a ring of PF+1 shared planes. "
      "DESIGN=1: rows loaded PF rows ahead into each lane's registers (0: each row where it is first used)" },
    /* appended (DESIGN=1): 0, the default of a configuration without SK (as
     * tuned before), is the kernel of before */
    { "SK", 0, 0, 1, 2, { 0, 1 },
      "DESIGN=1: 1, each stage of a pass one row behind the one before (the stages of an iteration independent); "
      "0, each stage right behind (a chain)" },
    /* appended (DESIGN=1): 0, the default of a configuration without PL, is
     * the kernel of before */
    { "PL", 0, 0, 1, 2, { 0, 1 },
      "DESIGN=1: 1, the warps whose strip and rows lie r from every face (not periodic) run a copy of the stream "
      "without the boundary's per-point tests (more registers and code); 0, one stream for all" },
    /* appended (DESIGN=1): 0, the default of a configuration without AC, is
     * the kernel of before */
    { "AC", 0, 0, 2, 3, { 0, 1, 2 },
      "DESIGN=1: 1, register accumulation (each row's x halo shuffled once per stage and its terms added to the "
      "2r+1 output rows it touches); 2, the same with a stream loop of one row (the accumulators renamed after "
      "each row: about 2r+1 times less code); 0, each output row gathers its 2r+1 rows (a row's halo shuffled "
      "once per row of the window that has points off the centre column)" },
    /* appended (DESIGN=1, AC=0): 0, the default of a configuration without
     * ST, is the kernel of before */
    { "ST", 0, 0, 2, 3, { 0, 1, 2 },
      "DESIGN=1: where the PF rows in flight wait. 0, in the input's register queue (AC=0: a multiple of 2r+1 "
      "rows); 1 (AC=0), in registers of their own, moved into a queue of 2r+1 rows when used (fewer registers, "
      "half the unrolled code); 2 (AC=0 and 2), in shared memory, copied there by cp.async (no registers: "
      "rows further ahead)" },
    /* appended (DESIGN=1): 0, the default, leaves the registers to the compiler */
    { "MB", 0, 0, 8, 2, { 0, 4 },
      "DESIGN=1: blocks per SM the registers must allow (__launch_bounds__; 0, the compiler's choice)" },
    /* appended (fixed boundary, DESIGN=1 and 2): 0, the default of a
     * configuration without OX, keeps x as the kernels had it */
    { "OX", 0, 0, 1, 2, { 0, 1 },
      "DESIGN=1 and 2, fixed boundary: where the tiles start in x. 1, at the interior's first column r (an "
      "interior of n columns tiles as n); 0, at the grid's column 0 (stores aligned with the grid's rows; the "
      "band's columns stored as kept). y and z (2D: y) always start at r" },
    /* appended (DESIGN=1, stars): 0, the default of a configuration
     * without XH, is the kernel of before */
    { "XH", 0, 0, 1, 2, { 0, 1 },
      "DESIGN=1, AC=0, stars: 1, a block's NT/32 warps side by side as one strip of NT*PX columns, the x halo of "
      "each stage's centre row read from shared memory (a barrier per row; TSTEPS*r halo columns a side per block); "
      "0, each warp a strip of 32*PX columns, its halo from its own lanes" },
};

static int gen_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    (void)dev;
    if (gk__space_check_ranges(&gk__space_stencil_gen, cfg, why, n))
        return 1;
    if (gk__param(cfg, "NT") % 32)
        return snprintf(why, n, "NT=%d is not a multiple of 32", gk__param(cfg, "NT")), 1;
    return 0;
}

/* cp.async (ST=2's rows, DESIGN=2's planes at PF >= 2) is sm_80's: a
 * known device before it cannot compile them */
static int no_cp_async(const gk_device_info *dev)
{
    return dev && dev->cc_major > 0 && dev->cc_major < 8;
}

/* the shared memory a block may have on dev (an H200's where unknown) */
static size_t smem_limit(const gk_device_info *dev)
{
    return dev && dev->smem_per_block_optin ? dev->smem_per_block_optin : 227 * 1024;
}

const gk_space gk__space_stencil_gen = { "stencil_gen", (int)(sizeof gen_params / sizeof gen_params[0]),
                                         gen_params, gen_reject };

/* The warp design's defaults (DESIGN=1, 2D): 4 warps per block, 256 rows
 * per warp; per radius, element size and shape (star-like: at most the
 * radius's star of 4r+1 points; else box-like) the points per lane, steps
 * per pass, rows ahead, stages one row apart (SK) and plain warps (PL),
 * measured on an H200 (bench/stencil-suite-results.md, "Plain warps and
 * stages one row apart"; the AN5D suite's stars and boxes, fixed boundary,
 * 100 steps, GStencil/s; the defaults of before in brackets, 8192^2 where
 * not said; "sweep": bench/stencil-2d-sweep2.txt at 16384^2):
 *   float32 stars: r1 PX=4 T=8 PF=2 PL (1018 [875]); r2-r4 PX=3 PF=2 SK PL
 *     with T = 6, 4, 3 (sweep: r2 973, r3 624, r4 426; PX=2: 876, 592,
 *     418; [464, 342, 248])
 *   float32 boxes: r1 PX=4 T=8 PF=2 PL (821 [631]); r2 PX=3 T=3 PF=0 SK PL
 *     (sweep: 539; PX=4 T=4: 474 [293]); r3 PX=4 T=2 PF=0 SK (sweep: 213,
 *     T=3 198) and r4 PX=4 T=2 PF=0 SK (105 [105]), one stream (PL costs
 *     the long chains registers: box r3 122 with it, 171 without)
 *   float64 stars: r1 PX=2 T=8 PF=2 SK PL (748 [664]); r2 PX=2 T=4 PF=2 SK
 *     PL (sweep: 494; without PL 439 [316]); r3 PX=2 T=3 PF=2 (sweep: 304
 *     [7a0fb46's PX=4 T=2: 214]); r4 PX=3 T=2 PF=2 (sweep: 210; PX=2 200
 *     [123])
 *   float64 boxes: r1 PX=2 T=6 PF=2 (555, as before); r2 PX=3 T=3 PF=0 SK
 *     (sweep: 279; PX=2 PF=2: 231 [198]); r3 PX=4 T=2 PF=0, r4 PX=4 T=1
 *     PF=0 (as before)
 * and, for the boxes from radius 2, register accumulation with a loop of
 * one row (AC=2): their unrolled streams missed the instruction cache
 * (ncu, box r4 f32: a third of the cycles between two instructions a warp
 * waited for its next one; 1.35 -> 0.87 ms with AC=2); at the same
 * layouts (bench/stencil-2d-acc.txt, -acc2.txt, 16384^2, 100 steps; AC=0
 * in brackets) box r2 f32 617 [538], f64 357 [277], r3 f32 294 [214], f64
 * 181 [140], r4 f32 211 [141], f64 114 [81]; box r3 f64 then takes PX=6
 * SK PL (197; bench/stencil-2d-acc3.txt: PX 5-8 and T=3 lose elsewhere).
 * It loses on the stars and
 * at radius 1 (star r2 f32 597 [964], box r1 f32 1031 [1205]: their code
 * fits, and the accumulators cost registers), and AC=1 (unrolled) loses
 * almost everywhere.
 *   Then (H200, 16384^2, 100 steps; bench/stencil-suite-results.md, "Rows
 * in flight in shared memory"): the stars from radius 2 (radius 3 in
 * float64) keep their rows in flight in shared memory (ST=2: ncu on star
 * r4 f32 counted 1.39 of its 4.6 cycles between issues waiting on loads):
 * star r2 f32 1128 [966] at PF=4, r3 f32 794 [617] and r4 f32 576 [421]
 * at PF=4 and MB=4 (registers for 16 warps), r2 f64 564 [487] at PF=4,
 * r3 f64 404 [298] at PF=4 SK PL, r4 f64 341 [206] at PX=4 PF=4 SK PL
 * (bench/stencil-2d-ring.txt, -ring2.txt; the boxes lose with it, and
 * with ST=1: bench/stencil-2d-stage.txt); plain warps (PL=1) for the boxes
 * from radius 3 in float32 (r3 365 [294], r4 241 [211]) and from radius 2
 * in float64 (r2 365 [357], r4 130 [114]; bench/stencil-2d-rowloop.txt,
 * -stage.txt).
 *   Then the stars from radius 2 share a block strip's x halo (XH=1: the
 * halo columns the block's, not each warp's; H200, 16384^2, 100 steps,
 * bench/stencil-2d-xh2.txt; XH=0 in brackets): f32 r2 T=6 1187 [1134], r3
 * T=4 957 [793], r4 T=3 720 [576]; f64 r2 T=6 715 [544 at T=4], r3 PX=3
 * T=3 529 [388 at PX=2], r4 PX=2 T=3 399 [338 at PX=4 T=2].  The stars of
 * radius 1 lose with it (f32 1586 [1625], f64 932 [1002]: their strips'
 * halo is small, the barrier is not). */
static void warp_default(int radius, int npoints, size_t elem, gk_config *out)
{
    /* [box-like][float64][radius] */
    static const signed char T[2][2][5] = { { { 0, 8, 6, 4, 3 }, { 0, 8, 6, 3, 3 } },
                                            { { 0, 8, 3, 2, 2 }, { 0, 6, 3, 2, 1 } } };
    static const signed char PX[2][2][5] = { { { 0, 4, 3, 3, 3 }, { 0, 2, 2, 3, 2 } },
                                             { { 0, 4, 3, 4, 4 }, { 0, 2, 3, 6, 4 } } };
    static const signed char PF[2][2][5] = { { { 0, 2, 4, 4, 4 }, { 0, 2, 4, 4, 4 } },
                                             { { 0, 2, 0, 0, 0 }, { 0, 2, 0, 0, 0 } } };
    static const signed char SK[2][2][5] = { { { 0, 0, 1, 1, 1 }, { 0, 1, 1, 1, 1 } },
                                             { { 0, 0, 1, 1, 1 }, { 0, 0, 1, 1, 0 } } };
    static const signed char PL[2][2][5] = { { { 0, 1, 1, 1, 1 }, { 0, 1, 1, 1, 1 } },
                                             { { 0, 1, 1, 1, 1 }, { 0, 0, 1, 1, 1 } } };
    static const signed char AC[2][2][5] = { { { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0 } },
                                             { { 0, 0, 2, 2, 2 }, { 0, 0, 2, 2, 2 } } };
    static const signed char ST[2][2][5] = { { { 0, 0, 2, 2, 2 }, { 0, 0, 2, 2, 2 } },
                                             { { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0 } } };
    static const signed char OX[2][2][5] = { { { 0, 1, 0, 0, 0 }, { 0, 0, 0, 0, 0 } },
                                             { { 0, 1, 0, 1, 1 }, { 0, 0, 0, 1, 0 } } };
    static const signed char XH[2][2][5] = { { { 0, 0, 1, 1, 1 }, { 0, 0, 1, 1, 1 } },
                                             { { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0 } } };
    int r = radius < 1 ? 1 : radius > 4 ? 4 : radius, box = npoints > 4 * r + 1, d = elem != 4;
    gk__config_clear(out);
    gk__config_set(out, "TX", 512);
    gk__config_set(out, "TY", 1);
    /* the float64 box r3 with 2 warps a block: 177.3 GStencil/s against
     * 176.5 with 4 (medians of 3, alternated; the AN5D suite's row, H200,
     * bench/stencil-suite-results.md "Shared x halo"); NT=96 154.6 */
    gk__config_set(out, "NT", box && d && r == 3 ? 64 : 128);
    gk__config_set(out, "ZC", 256);
    gk__config_set(out, "TSTEPS", T[box][d][r]);
    gk__config_set(out, "DESIGN", 1);
    gk__config_set(out, "PX", PX[box][d][r]);
    gk__config_set(out, "PF", PF[box][d][r]);
    gk__config_set(out, "SK", SK[box][d][r]);
    gk__config_set(out, "PL", PL[box][d][r]);
    gk__config_set(out, "AC", AC[box][d][r]);
    gk__config_set(out, "ST", ST[box][d][r]);
    gk__config_set(out, "MB", !box && !d && r >= 3 ? 4 : 0);
    gk__config_set(out, "OX", OX[box][d][r]);
    gk__config_set(out, "XH", XH[box][d][r]);
}

/* The z-streaming design's defaults (DESIGN=2, 3D): warps of 32 threads
 * along x (RX=1: a warp reads 32 consecutive shared-memory words,
 * conflict-free, and stores 32 consecutive points), 8 warps, each thread
 * RY rows.  Measured on an H200 in one run (512^3, 100 steps, fixed
 * boundary, the AN5D suite's star and box shapes, layouts 32x16/RY=2,
 * 32x32/RY=4, 64x16/RX=2,RY=2 and 64x32/RX=2,RY=4 at T = 1..4:
 * bench/stencil-suite-results.md, "Temporal blocking"): radius 1 gains
 * from temporal blocking with the 32x32 tile (RY=4): float32 at T=3 (star
 * 301 -> 398 GStencil/s, box 255 -> 287 against that tile's one step, the
 * float32 default before), float64 at T=2 (star 181 -> 258, box 172 -> 203
 * against the one-step 32x16, RY=2 default before); from radius 2 one step
 * per pass wins on the boxes and the float64 stars (the halo (T-1)r eats
 * the tile).  From radius 2: RY=2 (TY=16) in float64 (star r3 114 against
 * 96 at RY=4) and at radius 2 in float32 (star 226 against 217, box 125
 * against 127), RY=4 (TY=32) from radius 3 in float32 (star r4 183
 * against 167, r3 205 against 203, box r3 64 against 62).
 *   Since the addresses are computed once per thread (sgz_xy): three input
 * planes in flight (PF=3, cp.async into a ring of four shared planes), and
 * three steps per pass at radius 1 in both types (bench/stencil-z-prefetch.sh,
 * H200, same shapes and sizes; bench/stencil-suite-results.md, "Planes in
 * flight"): one step per pass, PF=3 against PF=1, star r2 f32 305 against
 * 246 GStencil/s, star r3 f64 168 against 109, star r4 f64 138 against 100,
 * box r2 f32 146 against 137, box r3 within 2 % either way; radius 1 at
 * T=3 with PF=3: star f32 446 (T=3 PF=1: 371), star f64 313 (T=2 PF=1:
 * 283), box f32 312 (283), box f64 217 (T=2 PF=1: 233, the one shape that
 * loses, by 7 %).
 *   Since a window row's column pairs come in one 2-wide load (RX even)
 * and the fixed boundary's band is a mask (issue 27, third round;
 * bench/stencil-results.md, "Pair loads"): float32 at radius 1 takes
 * RX=2 x RY=4 of a 32x32 tile, NT=128, OX=0, the boxes (more than 6r+1
 * points) at T=2, the stars at T=3 (H200, 512^3, 96 steps, GStencil/s
 * against the layout of before: box zero 523 against 391, periodic 514
 * against 434, fixed 361 against 347; star zero 762 against 607, periodic
 * 762 against 701, fixed 560 against 496).  Float64 stays: the star's
 * RX=2 gains with the zero boundary (420 against 407) but loses with the
 * periodic (418 against 428) and the fixed one (336 against 356). */
static void z_default(int radius, int npoints, size_t elem, gk_config *out)
{
    int ry = radius == 1 || (elem == 4 && radius >= 3) ? 4 : 2;
    int box = npoints > 6 * radius + 1, pairs = radius == 1 && elem == 4;
    gk__config_clear(out);
    gk__config_set(out, "TX", 32);
    gk__config_set(out, "TY", 8 * ry);
    gk__config_set(out, "NT", pairs ? 128 : 256);
    gk__config_set(out, "ZC", 64);
    gk__config_set(out, "TSTEPS", radius > 1 ? 1 : pairs && box ? 2 : 3);
    gk__config_set(out, "DESIGN", 2);
    gk__config_set(out, "PX", 4);
    gk__config_set(out, "RX", pairs ? 2 : 1);
    gk__config_set(out, "RY", ry);
    gk__config_set(out, "PF", 3);
    gk__config_set(out, "SK", 0);
    gk__config_set(out, "PL", 0);
    gk__config_set(out, "AC", 0);
    gk__config_set(out, "ST", 0);
    gk__config_set(out, "MB", 0);
    /* fixed boundary: x tiles from the interior's first column but for the
     * float64 stars of radius 1 and 2 (the AN5D suite's n + 2r grids:
     * bench/stencil-suite-results.md, "Tiles of the interior") and the
     * float32 pair layouts (stores aligned with the grid's rows: star T=3
     * 559.7 against 518.9 GStencil/s, box T=2 360.6 against 334.8; H200,
     * 512^3, bench/stencil-results.md "Pair loads") */
    gk__config_set(out, "OX", pairs || (elem == 8 && !box && radius <= 2) ? 0 : 1);
    gk__config_set(out, "XH", 0);
}

int gk__stencil_gen_centre_row_only(const gk__stencil_spec *s)
{
    for (int i = 0; i < s->npoints; i++)
        if (s->dx[i] != 0 && (s->dy[i] != 0 || s->dz[i] != 0))
            return 0;
    return 1;
}

int gk__stencil_gen_points(const gk__stencil_spec *s)
{
    int box = 4 * s->radius + 2;
    return s->dims == 2 && !gk__stencil_gen_centre_row_only(s) && s->npoints < box ? box : s->npoints;
}

void gk__stencil_gen_default_design(int dims, int radius, int npoints, size_t elem, int design, gk_config *out)
{
    /* the description's default design: 2D the warp design (on an H200,
     * 1.2-2.8x the ring's default on every 2D star and box of radius 1-4,
     * float and double, bit-exact on every test case:
     * bench/stencil-suite-results.md, "The warp design"), 3D the z-streaming
     * design (on an H200 1.5-2.8x the ring's default on every 3D star and
     * box of radius 1-4, float and double: the same file, "3D designs") */
    if (design < 0)
        design = dims == 2 ? 1 : 2;
    if (design == 1 && dims == 2)
        warp_default(radius, npoints, elem, out);
    else if (design == 2 && dims == 3)
        z_default(radius, npoints, elem, out);
    else
        gk__stencil_gen_default(dims, radius, out);
}

/* default_fit's test: c, completed, refused on dev (0 when it cannot be
 * completed: the open says why) */
static int fit_rejects(const gk_config *c, int dims, int radius, size_t elem, const gk_device_info *dev)
{
    gk_config full;
    char why[256];
    if (gk__space_complete(&gk__space_stencil_gen, c, &full)) {
        gk__clear_error();
        return 0;
    }
    return gk__stencil_gen_reject(&full, dims, radius, elem, dev, why, sizeof why);
}

void gk__stencil_gen_default_fit(int dims, int radius, size_t elem, const gk_device_info *dev, gk_config *c)
{
    /* before sm_80 no cp.async: the warp design's rows ahead in registers
     * (ST=0), DESIGN=2's next plane through registers (PF=1) */
    if (no_cp_async(dev)) {
        if (gk__config_get(c, "DESIGN", -1) == 1 && gk__stencil_gen_st(c) == 2)
            gk__config_set(c, "ST", 0);
        if (gk__config_get(c, "DESIGN", -1) == 2 && gk__config_get(c, "PF", 1) > 1)
            gk__config_set(c, "PF", 1);
    }
    /* DESIGN=1: the shared rows of XH=1 past a smaller GPU's shared
     * memory, or ST=0's register queues past the rules: fewer rows
     * ahead, then one strip a warp, then fewer steps per pass.  The
     * rules read a complete configuration (the warp defaults name no RX,
     * RY: the rules would refuse them for that, not for the device) */
    while (gk__config_get(c, "DESIGN", -1) == 1 && fit_rejects(c, dims, radius, elem, dev)) {
        int t = gk__config_get(c, "TSTEPS", 1), pf = gk__config_get(c, "PF", 1);
        if (pf > 0 && gk__stencil_gen_st(c) != 2)
            gk__config_set(c, "PF", pf - 1);
        else if (gk__config_get(c, "XH", 0))
            gk__config_set(c, "XH", 0);
        else if (t > 1)
            gk__config_set(c, "TSTEPS", t - 1);
        else
            return;                   /* the open says why */
    }
    while (gk__config_get(c, "DESIGN", -1) == 2 && fit_rejects(c, dims, radius, elem, dev)) {
        int t = gk__config_get(c, "TSTEPS", 1), pf = gk__config_get(c, "PF", 1);
        if (t > 1)
            gk__config_set(c, "TSTEPS", t - 1);
        else if (pf > 1)
            gk__config_set(c, "PF", pf - 1);
        else
            return;                   /* not for its shared memory: the open says why */
    }
}

void gk__stencil_gen_default(int dims, int radius, gk_config *out)
{
    /* The winners of gktune --stencil and the T rows of gk bench stencil
     * --stencil on an H100 (bench/stencil-results.md, "generated engine"):
     * 3D radius 1 gains from 2 steps per pass (star3d1r f64 80 -> 138
     * GStencil/s at 512^3) and longer z chunks; larger radii lose with T > 1
     * (the halo r*T grows the planes) and prefer 64-wide tiles; 2D rows gain
     * up to T = 3 at radius 1, 2 at radius 2, and 512-wide rows of 128
     * threads won at 8192^2. */
    gk__config_clear(out);
    if (dims == 2) {
        gk__config_set(out, "TX", 512);
        gk__config_set(out, "TY", 1);
        gk__config_set(out, "NT", 128);
        gk__config_set(out, "ZC", 64);
        gk__config_set(out, "TSTEPS", radius == 1 ? 3 : radius == 2 ? 2 : 1);
    } else {
        gk__config_set(out, "TX", radius == 1 ? 32 : 64);
        gk__config_set(out, "TY", 8);
        gk__config_set(out, "NT", 256);
        gk__config_set(out, "ZC", radius == 1 ? 128 : 64);
        gk__config_set(out, "TSTEPS", radius == 1 ? 2 : 1);
    }
    gk__config_set(out, "DESIGN", 0);
    gk__config_set(out, "PX", 4);
    gk__config_set(out, "RX", 1);
    gk__config_set(out, "RY", 4);
    gk__config_set(out, "PF", 1);
    gk__config_set(out, "SK", 0);
    gk__config_set(out, "PL", 0);
    gk__config_set(out, "AC", 0);
    gk__config_set(out, "ST", 0);
    gk__config_set(out, "MB", 0);
    gk__config_set(out, "OX", 0);
    gk__config_set(out, "XH", 0);
}

size_t gk__stencil_gen_smem(const gk_config *c, int dims, int radius, size_t elem, int tsteps)
{
    int64_t t = tsteps, r = radius, ry = dims == 3 ? r : 0;
    if (gk__param(c, "DESIGN") == 2) {   /* the input's planes (2, or PF+1), two per stage 1..t-1 */
        int64_t pf = gk__config_get(c, "PF", 1), in = pf > 1 ? pf + 1 : 2;
        return (size_t)((in + 2 * (t - 1)) * (gk__param(c, "TX") + 2 * r) * (gk__param(c, "TY") + 2 * r)) * elem;
    }
    if (gk__param(c, "DESIGN") == 1)  /* XH=1: t stages' D rows of PX values for NT + 2r lanes (below, no ring) */
        return gk__stencil_gen_xh(c)
                   ? (size_t)(t * (2 * r + 1) * gk__param(c, "PX") * (gk__param(c, "NT") + 2 * r)) * elem
                   : 0;
    int64_t pw = gk__param(c, "TX") + 2 * t * r, ph = gk__param(c, "TY") + 2 * t * ry;
    return (size_t)(t * (2 * r + 2) * pw * ph) * elem;
}

/* DESIGN=2's rules (after the common ones) */
static int z_reject(const gk_config *c, int dims, int radius, size_t elem, const gk_device_info *dev, char *why,
                    size_t n)
{
    int tx = gk__param(c, "TX"), ty = gk__param(c, "TY"), nt = gk__param(c, "NT"), ts = gk__param(c, "TSTEPS");
    int rx = gk__param(c, "RX"), ry = gk__param(c, "RY");
    int64_t r = radius, dq = 2 * r + 1;
    if (dims != 3)
        return snprintf(why, n, "DESIGN=2 (z-streaming with register accumulation) is for 3D descriptions only"), 1;
    if (gk__config_get(c, "PF", 1) < 1)
        return snprintf(why, n, "DESIGN=2: PF=0 (no plane ahead) is the warp design's; PF is 1-4 here"), 1;
    if (gk__config_get(c, "PF", 1) > 1 && no_cp_async(dev))
        return snprintf(why, n, "DESIGN=2: PF=%d copies planes by cp.async, which needs compute capability 8.0 "
                        "(this device: %d.%d); PF=1 here", gk__config_get(c, "PF", 1), dev->cc_major,
                        dev->cc_minor), 1;
    if (tx - 2 * (ts - 1) * r < 1 || ty - 2 * (ts - 1) * r < 1)
        return snprintf(why, n, "DESIGN=2 tile %dx%d leaves no output for TSTEPS=%d (each pass recomputes %lld "
                        "point%s of halo a side: TX and TY must exceed %lld; name TSTEPS=1 for one step per pass)",
                        tx, ty, ts, (long long)((ts - 1) * r), (ts - 1) * r == 1 ? "" : "s",
                        (long long)(2 * (ts - 1) * r)), 1;
    if (tx % rx || ty % ry)
        return snprintf(why, n, "DESIGN=2: TX=%d must be a multiple of RX=%d and TY=%d of RY=%d", tx, rx, ty, ry), 1;
    if ((tx / rx) * (ty / ry) != nt)
        return snprintf(why, n, "DESIGN=2: NT=%d but a tile of TX=%d x TY=%d with RX=%d x RY=%d points per thread "
                        "needs NT=%d threads", nt, tx, ty, rx, ry, (tx / rx) * (ty / ry)), 1;
    size_t sm = gk__stencil_gen_smem(c, dims, radius, elem, ts);
    size_t limit = smem_limit(dev);
    if (sm > limit)
        return snprintf(why, n, "shared memory %zu > %zu bytes (%lld planes of %dx%d: %s input planes, "
                        "2 per stage after the first of TSTEPS=%d; a smaller tile, TSTEPS or PF)", sm, limit,
                        (long long)(sm / elem / (size_t)((tx + 2 * radius) * (ty + 2 * radius))), tx + 2 * radius,
                        ty + 2 * radius, gk__config_get(c, "PF", 1) > 1 ? "PF+1" : "2", ts), 1;
    /* registers: per stage (2r+1) planes of RX*RY accumulators, and (PF=1)
     * the next plane's share of the prefetch; beyond this the kernel spills
     * (NT threads of at most 64K/NT registers each, about 40 for addresses
     * and indices) */
    int64_t plane = (int64_t)(tx + 2 * r) * (ty + 2 * r), nl = gk__config_get(c, "PF", 1) > 1 ? 0 : (plane + nt - 1) / nt;
    int64_t regs = (ts * dq * rx * ry + nl) * (int64_t)(elem / 4), budget = 65536 / nt - 40;
    if (budget > 160)
        budget = 160;
    if (regs > budget)
        return snprintf(why, n, "DESIGN=2: %lld registers of accumulators and prefetch per thread > %lld "
                        "(TSTEPS*(2r+1)*RX*RY + plane/NT values)", (long long)regs, (long long)budget), 1;
    /* the code of one plane: a box's (2r+1)^3 terms per output at most
     * (the generator writes it 2r+1 times, once per queue phase, or once
     * with a rotating queue when that would pass GK__SGZ_UNROLL_TERMS) */
    int64_t terms = dq * dq * dq * rx * ry;
    if (terms > 4096)
        return snprintf(why, n, "DESIGN=2: RX*RY=%d outputs per thread of up to (2r+1)^3=%lld terms each > 4096 "
                        "terms per plane (unrolled code too large)", rx * ry, (long long)(dq * dq * dq)), 1;
    return 0;
}

int gk__stencil_gen_st(const gk_config *cfg)
{
    int ac = gk__config_get(cfg, "AC", 0), st = gk__config_get(cfg, "ST", 0);
    return ac == 0 ? st : ac == 2 && st == 2 ? 2 : 0;
}

int gk__stencil_gen_xh(const gk_config *cfg)
{
    return gk__config_get(cfg, "DESIGN", 0) == 1 && gk__config_get(cfg, "XH", 0) && !gk__config_get(cfg, "AC", 0);
}

int gk__stencil_gen_origin(const gk_config *cfg, int boundary, int radius)
{
    int d = gk__config_get(cfg, "DESIGN", 0);
    return boundary == GK_BOUNDARY_FIXED && (d == 1 || d == 2) ? radius : 0;
}

int gk__stencil_gen_origin_x(const gk_config *cfg, int boundary, int radius)
{
    return gk__config_get(cfg, "OX", 0) ? gk__stencil_gen_origin(cfg, boundary, radius) : 0;
}

int gk__stencil_gen_reject(const gk_config *c, int dims, int radius, size_t elem,
                           const gk_device_info *dev, char *why, size_t n)
{
    if (n)
        why[0] = '\0';               /* accepted: no reason (a refusal's of before would read as this one's) */
    if (gen_reject(c, dev, why, n))
        return 1;
    /* deeper passes: the warp design's (generated and tested there; the
     * other designs' shared memory and registers end before anyway) */
    if (gk__param(c, "DESIGN") != 1 && gk__param(c, "TSTEPS") > 4)
        return snprintf(why, n, "TSTEPS=%d: more than 4 steps per pass is the warp design's (DESIGN=1, 2D)",
                        gk__param(c, "TSTEPS")), 1;
    if (gk__param(c, "DESIGN") == 2)
        return z_reject(c, dims, radius, elem, dev, why, n);
    if (dims == 2 && gk__param(c, "TY") != 1)
        return snprintf(why, n, "TY=%d: a 2D tile is one row (TY=1)", gk__param(c, "TY")), 1;
    int ts = gk__param(c, "TSTEPS");
    if (gk__param(c, "DESIGN") == 1) {
        int px = gk__param(c, "PX");
        if (dims != 2)
            return snprintf(why, n, "DESIGN=1 (warp streaming) is for 2D descriptions only"), 1;
        /* a strip: a warp's 32*PX columns, XH=1 the block's NT*PX */
        int xh = gk__stencil_gen_xh(c), strip = (xh ? gk__param(c, "NT") : 32) * px;
        if (strip - 2 * ts * radius < 1)
            return snprintf(why, n, "%s strip of %s=%d points has no output left after %d halo points a side "
                            "(TSTEPS*r)", xh ? "XH=1: a block" : "a warp", xh ? "NT*PX" : "32*PX", strip,
                            ts * radius), 1;
        /* the register queues: the input's 2r+1 rows and PF in flight,
         * 2r+1 rows of each stage 1..TSTEPS-1, PX values each, 32-bit
         * registers; beyond this the kernel spills */
        int64_t pf = gk__config_get(c, "PF", 1);
        /* ST as the generator takes it: the rules below are those of the
         * kernel that is compiled */
        int ac = gk__config_get(c, "AC", 0), st_named = gk__config_get(c, "ST", 0), st = gk__stencil_gen_st(c);
        char unused[48] = "";
        if (st != st_named)
            snprintf(unused, sizeof unused, "; ST=%d is not used with AC=%d", st_named, ac);
        if (st == 2 && no_cp_async(dev))
            return snprintf(why, n, "ST=2 copies rows by cp.async, which needs compute capability 8.0 (this "
                            "device: %d.%d); ST=0 or 1 here", dev->cc_major, dev->cc_minor), 1;
        /* ST=2: each warp's ring of PF+1 rows, static shared memory */
        int64_t ring = gk__param(c, "NT") / 32 * (pf + 1) * px * 32 * (int64_t)elem;
        if (st == 2 && ring > 48 * 1024)
            return snprintf(why, n, "ST=2: rings of %lld bytes > 48 KiB of static shared memory "
                            "((NT/32)*(PF+1)*32*PX values)", (long long)ring), 1;
        /* MB: __launch_bounds__(NT, MB); past the threads an SM holds
         * (2048 from sm_80 on, fewer on some) ptxas drops the bound with a
         * warning ("minnctapersm will be ignored") that no one reads */
        int64_t mb = gk__config_get(c, "MB", 0);
        if (mb * gk__param(c, "NT") > 2048)
            return snprintf(why, n, "MB=%lld blocks of NT=%d threads: %lld threads > 2048 per SM (the compiler "
                            "would ignore MB; MB*NT <= 2048)", (long long)mb, gk__param(c, "NT"),
                            (long long)(mb * gk__param(c, "NT"))), 1;
        if (xh) {
            size_t sm = gk__stencil_gen_smem(c, dims, radius, elem, ts) + (size_t)(st == 2 ? ring : 0);
            size_t limit = smem_limit(dev);
            if (sm > limit)
                return snprintf(why, n, "XH=1: shared memory %zu > %zu bytes (TSTEPS*(2r+1) rows of PX*(NT+2r) "
                                "values%s; a smaller NT, TSTEPS or PX, or XH=0)", sm, limit,
                                st == 2 ? ", and the ST=2 rings" : ""), 1;
        }
        int64_t regs = ((int64_t)ts * (2 * radius + 1) + (st == 2 ? 0 : pf)) * px * (int64_t)(elem / 4);
        if (regs > 192)
            return snprintf(why, n, "register queues of %lld registers per lane > 192 ((TSTEPS*(2r+1)+PF)*PX values; "
                            "PF not counted with ST=2%s)",
                            (long long)regs, unused), 1;
        return 0;                     /* TX unused */
    }
    size_t sm = gk__stencil_gen_smem(c, dims, radius, elem, ts);
    size_t limit = smem_limit(dev);
    if (sm > limit)
        return snprintf(why, n, "shared memory %zu > %zu bytes (TSTEPS=%d rings of %d planes)", sm, limit, ts,
                        2 * radius + 2), 1;
    /* the points a thread computes per stage and plane: bounded, so that the
     * unrolled loops stay small */
    int64_t r = radius, ry = dims == 3 ? r : 0;
    int64_t area = (gk__param(c, "TX") + 2 * ts * r) * (gk__param(c, "TY") + 2 * ts * ry);
    if ((area + gk__param(c, "NT") - 1) / gk__param(c, "NT") > 64)
        return snprintf(why, n, "%lld plane points per thread > 64 (more threads or a smaller tile)",
                        (long long)((area + gk__param(c, "NT") - 1) / gk__param(c, "NT"))), 1;
    return 0;
}

gk_status gk__stencil_gen_config_over(const gk_config *user, const char *shape_key, const char *text, int dims,
                                      int radius, int npoints, size_t elem, gk_config *over)
{
    gk_status st;
    gk__stencil_gen_default_design(dims, radius, npoints, elem, gk__config_get(user, "DESIGN", -1), over);
    for (int i = 0; i < user->n; i++)
        if ((st = gk__config_set(over, user->p[i].name, user->p[i].value)))
            return st;
    /* DESIGN=2: NT follows from the tile and the points per thread; a
     * caller who names the tile but not NT means that NT */
    if (gk__config_get(over, "DESIGN", -1) == 2 && gk__config_get(user, "NT", -1) < 0) {
        int tx = gk__config_get(over, "TX", 0), ty = gk__config_get(over, "TY", 0);
        int rx = gk__config_get(over, "RX", 1), ry = gk__config_get(over, "RY", 1);
        if (tx > 0 && ty > 0 && rx > 0 && ry > 0 && tx % rx == 0 && ty % ry == 0) {
            int64_t nt = (int64_t)(tx / rx) * (ty / ry);
            if (nt < 32 || nt > 1024 || nt % 32)
                return gk__fail(GK_EINVAL, "stencil %s: configuration '%.100s': DESIGN=2's tile TX=%d x TY=%d with "
                                "RX=%d x RY=%d points per thread needs NT=%lld threads, not a multiple of 32 in "
                                "32..1024 (a larger tile, or more points per thread)", shape_key, text, tx, ty, rx,
                                ry, (long long)nt);
            gk__config_set(over, "NT", (int)nt);
        }
    }
    return GK_OK;
}

gk_status gk__stencil_gen_config_user(const char *text, const char *shape_key, int dims, int radius, int npoints,
                                      size_t elem, const gk_device_info *dev, gk_config *full)
{
    gk_config user, over;
    char why[256];
    gk_status st;
    gk__config_clear(&user);
    /* the names and the ranges first (before any arithmetic on a value) */
    if ((st = gk__config_parse(text ? text : "", &user))
        || (st = gk__space_complete(&gk__space_stencil_gen, &user, full))) {
        snprintf(why, sizeof why, "%s", gk_last_error());
        return gk__fail(st, "stencil %s: configuration '%.100s': %s", shape_key, text ? text : "", why);
    }
    if ((st = gk__stencil_gen_config_over(&user, shape_key, text ? text : "", dims, radius, npoints, elem, &over))
        || (st = gk__space_complete(&gk__space_stencil_gen, &over, full)))
        return st;
    if (gk__stencil_gen_reject(full, dims, radius, elem, dev, why, sizeof why)) {
        char all[160];
        gk__config_format(full, all, sizeof all);
        return gk__fail(GK_EINVAL, "stencil %s: configuration '%.100s' (complete: %s) cannot run%s%.100s: %s", shape_key,
                        text ? text : "", all, dev ? " on " : "", dev ? dev->name : "", why);
    }
    return GK_OK;
}
