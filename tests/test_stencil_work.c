/* test_stencil_work.c - gk__stencil_work (src/core/space_stencil.c), the
 * FP64 work per stored point of the 27-point GPU kernels that gk bench
 * stencil divides the FMA ceiling by, against an independent count: a walk
 * of the kernels' loops (src/gpu/stencil.cu) block by block, z iteration by
 * z iteration, stage by stage and, for RING=1's ring points, thread by
 * thread and warp by warp; and against values worked out by hand. */
#include "core/space.h"

#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int param(const gk_config *c, const char *name) { return gk__config_get(c, name, -1); }

/* The warps of a block of tpb threads that compute ring points of width m
 * (thread tid takes points tid, tid + tpb, ...; a warp with any runs it) */
static long long ring_warp_points(int tpb, long long count)
{
    long long pts = 0;
    for (int w = 0; w * 32 < tpb; w++) {
        int any = 0;
        for (int tid = w * 32; tid < w * 32 + 32 && tid < tpb; tid++)
            for (long long i = tid; i < count && !any; i += tpb)
                any = 1;
        if (!any)
            continue;
        /* a warp runs its points as often as its busiest thread has one */
        long long most = 0;
        for (int tid = w * 32; tid < w * 32 + 32 && tid < tpb; tid++) {
            long long n = 0;
            for (long long i = tid; i < count; i += tpb)
                n++;
            if (n > most) most = n;
        }
        pts += most * 32;
    }
    return pts;
}

/* One pass of t steps, walked: every block, every iteration k of its z
 * loop, every stage active at k, each computing its points once. */
static double walk_pass(const gk_config *c, int t, long long nx, long long ny, long long nz)
{
    int design = param(c, "DESIGN"), ring = design == 2 && param(c, "RING");
    int bx = param(c, "BX"), by = param(c, "BY"), tpb = bx * by;
    long long ti = (long long)bx * param(c, "RX"), h = (long long)by * param(c, "RY"), zc = param(c, "ZC");
    long long ow = ti, oh = h;
    int ns = design == 2 ? t : 1;
    if (design == 2 && !ring) {
        ow -= 2 * (ns - 1);
        oh -= 2 * (ns - 1);
    }
    double work = 0;
    for (long long y0 = 0; y0 < ny; y0 += oh)
        for (long long x0 = 0; x0 < nx; x0 += ow)
            for (long long z0 = 0; z0 < nz; z0 += zc) {
                long long z1 = z0 + zc < nz ? z0 + zc : nz;
                /* the tile's points, by warp: 32 lanes of RX*RY points
                 * (a partial warp issues whole) */
                double tile = 0;
                for (int w = 0; w * 32 < tpb; w++)
                    tile += 32.0 * param(c, "RX") * param(c, "RY");
                if (design == 0) {            /* the tile: its planes once */
                    work += tile * (double)(z1 - z0);
                    continue;
                }
                /* DESIGN 1: k = z0-1 .. z1; DESIGN 2: k = z0-ns .. z1+2ns-2,
                 * stage s reading plane rp = k - 2(s-1) when
                 * z0-(ns-s)-1 <= rp <= z1+(ns-s) */
                long long kb = design == 1 ? z0 - 1 : z0 - ns, ke = design == 1 ? z1 : z1 + 2 * ns - 2;
                for (long long k = kb; k <= ke; k++)
                    for (int s = 1; s <= ns; s++) {
                        long long rp = k - 2 * (s - 1), m = ns - s;
                        if (design == 2 && (rp < z0 - m - 1 || rp > z1 + m))
                            continue;
                        work += tile;
                        if (ring && m > 0)
                            work += (double)ring_warp_points(tpb, (ti + 2 * m) * (h + 2 * m) - ti * h);
                    }
            }
    return work;
}

static double walk(const gk_config *c, long long nx, long long ny, long long nz, long long steps)
{
    int t = param(c, "DESIGN") == 2 ? param(c, "TSTEPS") : 1;
    double w = 0;
    long long s = 0;
    for (; s + t <= steps; s += t)
        w += walk_pass(c, t, nx, ny, nz);
    if (s < steps)
        w += walk_pass(c, (int)(steps - s), nx, ny, nz);
    return w / ((double)steps * (double)nx * (double)ny * (double)nz);
}

static int complete(const char *text, gk_config *full)
{
    gk_config c;
    gk__config_clear(&c);
    return gk__config_parse(text, &c) == GK_OK && gk__space_complete(&gk__space_stencil, &c, full) == GK_OK;
}

int main(void)
{
    no_plan();
    gk_config c;
    gk__config_clear(&c);

    /* by hand */
    ok(complete("DESIGN=1,BX=32,BY=8,RY=4,RX=2,ZC=128", &c)
       && gk__stencil_work(&c, 0, 512, 512, 512, 100) == 520.0 / 512,
       "stream, 64x32 tiles, ZC=128, 512^3: each chunk of 128 planes streams 130: %.9g",
       gk__stencil_work(&c, 0, 512, 512, 512, 100));
    /* RING=1, T=2: stage 1 the 64x32 tile and a ring of 1 (196 points: 7
     * warps), 128 + 4 planes per chunk; stage 2 the tile, 128 + 2 */
    double ring2 = (2272.0 * 528 + 2048.0 * 520) / (2.0 * 2048 * 512);
    ok(complete("DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ZC=128,ASYNC=1,RING=1", &c)
       && fabs(gk__stencil_work(&c, 0, 512, 512, 512, 100) - ring2) < 1e-12,
       "RING=1 T=2 at 512^3: %.9g (by hand %.9g)", gk__stencil_work(&c, 0, 512, 512, 512, 100), ring2);
    /* overlapped tiles, T=2: 62x30 stored of 64x32 (9 x 18 tiles at 512) */
    double over2 = 9.0 * 18 * 2048 * (528.0 + 520.0) / (2.0 * 512 * 512 * 512);
    ok(complete("DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ZC=128,RING=0", &c)
       && fabs(gk__stencil_work(&c, 0, 512, 512, 512, 100) - over2) < 1e-12,
       "overlapped T=2 at 512^3: %.9g (by hand %.9g)", gk__stencil_work(&c, 0, 512, 512, 512, 100), over2);
    ok(complete("DESIGN=0,BX=32,BY=8,RY=4,RX=2,ZC=64", &c) && gk__stencil_work(&c, 0, 512, 512, 512, 7) == 1.0,
       "the tile on whole tiles: 1");
    ok(gk__stencil_work(&c, 1, 100, 100, 100, 3) == 1.0, "naive: 1");
    ok(gk__stencil_work(&c, 0, 0, 100, 100, 3) == 0 && gk__stencil_work(&c, 0, 100, 100, 100, 0) == 0,
       "an empty grid or no step: 0");

    /* against the walk: designs, tiles, chunks, T = 1..4, remainders, odd
     * grids */
    static const char *cfgs[] = {
        "DESIGN=0,BX=32,BY=8,RY=4,RX=2,ZC=64",
        "DESIGN=1,BX=64,BY=2,RY=4,RX=2,ZC=128",
        "DESIGN=1,BX=32,BY=4,RY=1,RX=1,ZC=32",
        "DESIGN=2,TSTEPS=1,BX=32,BY=8,RY=4,RX=2,ZC=64,ASYNC=1,RING=1",
        "DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ZC=128,ASYNC=1,RING=1",
        "DESIGN=2,TSTEPS=3,BX=32,BY=16,RY=2,RX=2,ZC=256,ASYNC=1,RING=1,MINB=1",
        "DESIGN=2,TSTEPS=4,BX=32,BY=8,RY=4,RX=2,ZC=256,ASYNC=1,RING=1,MINB=1",
        "DESIGN=2,TSTEPS=3,BX=33,BY=4,RY=3,RX=1,ZC=32,ASYNC=1,RING=1",
        "DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ZC=64,RING=0",
        "DESIGN=2,TSTEPS=4,BX=32,BY=8,RY=4,RX=1,ZC=32,RING=0",
        /* blocks of threads no multiple of 32: partial warps, ring rounds
         * with remainders */
        "DESIGN=2,TSTEPS=3,BX=33,BY=4,RY=2,RX=1,ZC=32,ASYNC=1,RING=1",
        "DESIGN=2,TSTEPS=2,BX=20,BY=2,RY=2,RX=1,ZC=32,ASYNC=1,RING=1",
        "DESIGN=1,BX=20,BY=3,RY=2,RX=1,ZC=16",
    };
    static const long long grids[][4] = { { 512, 512, 512, 100 }, { 97, 61, 45, 7 }, { 1, 1, 1, 5 },
                                          { 130, 33, 300, 9 }, { 64, 32, 256, 4 } };
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        if (!ok(complete(cfgs[i], &c), "%s completes", cfgs[i]))
            continue;
        for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
            double want = walk(&c, grids[g][0], grids[g][1], grids[g][2], grids[g][3]);
            double got = gk__stencil_work(&c, 0, grids[g][0], grids[g][1], grids[g][2], grids[g][3]);
            ok(fabs(got - want) <= 1e-12 * want && got >= 1.0, "%s, %lldx%lldx%lld, %lld steps: %.9g (walk %.9g)",
               cfgs[i], grids[g][0], grids[g][1], grids[g][2], grids[g][3], got, want);
        }
    }
    return done_testing();
}
