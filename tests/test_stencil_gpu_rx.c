/* test_stencil_gpu_rx.c - the GPU stencil's two-columns-per-thread (RX=2,
 * 16-byte shared loads) and cp.async (ASYNC=1, a ring of PREFETCH+1 shared
 * input planes) variants of every design: bit-identical to the triple loop
 * and the CPU backend on tiny and odd grids (1x1x1, 2x3x5, sizes below the
 * tile), DESIGN 2 with T = 1..4 on step counts 0, 1, T-1, T, T+1, 2T+1,
 * default and random coefficients; the halo stays zero.  RING=1 (DESIGN 2
 * with exact tiles, the stages' halos computed as a ring of extra points)
 * the same way, T = 1..4, odd tile widths among them, and tiles one thread
 * and two outputs high (BY=1, RY=2).  The rules of the
 * new parameters are checked without a device; the rest skips without one.
 * NVRTC compiles each configuration once per process (src/gpu/module.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_stencil_common.h"
#include "cpu/stencil_cpu.h"
#include "core/space.h"

#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gpu.h"
#endif

#include <stdio.h>

static int rejected(const char *text, const char *want)
{
    gk_config cfg, full;
    char w[200] = "";
    gk__config_clear(&cfg);
    if (gk__config_parse(text, &cfg))
        return 0;
    if (gk__space_complete(&gk__space_stencil, &cfg, &full)) {   /* refused earlier (ranges) */
        diag("'%s': %s", text, gk_last_error());
        return want && strstr(gk_last_error(), want) != NULL;
    }
    int r = gk__space_stencil.reject(&full, NULL, w, sizeof w);
    if (!want)
        return !r;
    diag("'%s': %s", text, w);
    return r && strstr(w, want) != NULL;
}

static void rules(void)
{
    ok(rejected("DESIGN=2,TSTEPS=4,RY=8,RX=2,RING=0", "TSTEPS*RY*RX"), "TSTEPS*RY*RX > 32 refused");
    ok(rejected("DESIGN=2,TSTEPS=4,RY=4,RX=2,RING=0", NULL), "TSTEPS*RY*RX = 32 accepted");
    ok(rejected("DESIGN=2,TSTEPS=4,RY=4,RX=2", NULL), "TSTEPS*RY*RX = 32 accepted with RING=1 (the default)");
    gk_config cfg;
    gk__config_clear(&cfg);
    ok(gk__config_parse("RX=3", &cfg) == GK_OK && rejected("RX=3", "RX"), "RX=3 outside 1..2 refused");
    ok(rejected("ASYNC=2", "ASYNC"), "ASYNC=2 outside 0..1 refused");
    ok(rejected("BX=32,BY=32,MINB=4", "threads per SM"), "MINB x threads beyond an SM refused");
    ok(rejected("BX=32,BY=8,MINB=4", NULL), "MINB=4 of 256 threads accepted");
    /* register prefetch limit: RX doubles the interior loads; ASYNC holds none in registers */
    ok(rejected("DESIGN=1,BX=32,BY=1,RY=8,RX=2,PREFETCH=2,ASYNC=0", "prefetched"),
       "RX=2 prefetch beyond 16 registers refused");
    ok(rejected("DESIGN=1,BX=32,BY=1,RY=8,RX=2,PREFETCH=1,ASYNC=1", NULL), "the same with ASYNC accepted");
    /* shared memory: the RX=1, ASYNC=0 layout is the old one; RX widens the
     * tile, ASYNC makes the input ring PREFETCH+1 planes */
    static const char *sm[] = { "DESIGN=0,RX=1", "DESIGN=1,RX=1,ASYNC=0", "DESIGN=2,TSTEPS=3,RX=1,ASYNC=0,RING=0",
                                "DESIGN=2,TSTEPS=1,BX=16,BY=4,RY=3,RX=1,ASYNC=0,RING=0", "DESIGN=2,TSTEPS=3,RING=0",
                                "DESIGN=0", "DESIGN=1,RX=2,ASYNC=1,PREFETCH=2",
                                "DESIGN=2,TSTEPS=2,RX=2,RY=2,ASYNC=1,RING=0",
                                "DESIGN=2,TSTEPS=4,BX=16,RY=2,ASYNC=1,PREFETCH=2,RING=0" };
    /* RING: the rules, and its planes (tile + T each side, room for either x
     * offset: odd for cp.async, even for the TMA) */
    ok(rejected("DESIGN=1,RING=1,ASYNC=0", NULL),
       "RING=1 with DESIGN=1 accepted and ignored (the bench's one-step rows of a RING=1 entry)");
    ok(rejected("DESIGN=2,RING=1,ASYNC=0", "ASYNC=1"), "RING=1 without ASYNC refused");
    ok(rejected("DESIGN=2,TSTEPS=4,RING=1,BX=8,BY=4,RY=1", "ring points"), "RING=1: > 8 ring points per thread refused");
    ok(rejected("DESIGN=2,TSTEPS=4,RING=1,BX=7,BY=5,RY=1,RX=1", NULL), "RING=1: 7 ring points per thread accepted");
    ok(rejected("DESIGN=2,TSTEPS=3,RING=1,BX=2,BY=16,RY=1,RX=2", NULL)
       && rejected("DESIGN=2,TSTEPS=3,RING=0,BX=2,BY=16,RY=1,RX=2", "leaves no output"),
       "RING=1: a tile of 4 columns at T=3 accepted (no overlap to leave room for)");
    ok(rejected("BY=1,RING=1,RY=2", NULL) && rejected("BY=1,RING=0,RY=2", "leaves no output"),
       "RING=1: a tile 2 rows high (BY=1, RY=2) at T=2 accepted, the overlapped one refused");
    {
        static const struct { const char *cfg; int T; size_t want; } rs[] = {
            /* planes of (TI + 2 OFF) x (H + 2T), OFF the larger of the
             * cp.async layout's (T|1) and the TMA's (T rounded up to even),
             * rounded up to 16 doubles, one mbarrier (8 bytes) per input
             * plane: 70 x 36 = 2520 -> 2528 */
            { "DESIGN=2,TSTEPS=2,RING=1", 2, (4 * 2528 + 2) * 8 },
            /* 68 x 34 = 2312 -> 2320 */
            { "DESIGN=2,TSTEPS=2,RING=1", 1, (2 * 2320 + 2) * 8 },
            /* T=3: the TMA's even x offset (4) sets the width: 72 x 38 =
             * 2736, 2 + 4 planes */
            { "DESIGN=2,TSTEPS=3,RING=1", 3, (6 * 2736 + 2) * 8 },
            /* 17 x 13 = 221 -> 224, 3 input planes */
            { "DESIGN=2,TSTEPS=4,RING=1,BX=7,BY=5,RY=1,RX=1,PREFETCH=2", 4, (9 * 224 + 3) * 8 },
            /* SPLIT: a third plane for stage 1 and two mbarriers more at
             * T >= 2; nothing at T=1 */
            { "DESIGN=2,TSTEPS=2,RING=1,SPLIT=1", 2, (5 * 2528 + 4) * 8 },
            { "DESIGN=2,TSTEPS=2,RING=1,SPLIT=1", 1, (2 * 2320 + 2) * 8 },
            { "DESIGN=2,TSTEPS=3,RING=1,SPLIT=1", 3, (7 * 2736 + 4) * 8 },
        };
        for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
            gk_config full;
            gk__config_clear(&cfg);
            gk__config_parse(rs[i].cfg, &cfg);
            gk__space_complete(&gk__space_stencil, &cfg, &full);
            size_t got = gk__stencil_smem_cfg(&full, rs[i].T);
            ok(got == rs[i].want, "shared memory of '%s' at T=%d: %zu bytes (want %zu)", rs[i].cfg, rs[i].T, got,
               rs[i].want);
        }
    }
    for (size_t i = 0; i < sizeof sm / sizeof sm[0]; i++) {
        gk_config full;
        gk__config_clear(&cfg);
        gk__config_parse(sm[i], &cfg);
        gk__space_complete(&gk__space_stencil, &cfg, &full);
        int d = gk__param(&full, "DESIGN"), bx = gk__param(&full, "BX"), by = gk__param(&full, "BY"),
            ry = gk__param(&full, "RY"), rx = gk__param(&full, "RX"), ts = gk__param(&full, "TSTEPS"),
            as = gk__param(&full, "ASYNC"), pf = gk__param(&full, "PREFETCH");
        size_t planes = d == 0 ? 4 : (as ? pf + 1 : 2) + (d == 2 ? 2 * (ts - 1) : 0);
        size_t want = planes * (size_t)(bx * rx + 2) * (size_t)(by * ry + 2) * 8;
        size_t got = gk__stencil_smem_cfg(&full, d == 2 ? ts : 1);
        ok(got == want && (rx > 1 || as || got == gk__stencil_smem_bytes(d, bx, by, ry, d == 2 ? ts : 1)),
           "shared memory of '%s': %zu bytes (want %zu)", sm[i], got, want);
    }
}

#ifdef GK_HAVE_CUDA
/* One configuration on every test size, both coefficient sets, the given
 * step counts: GPU against the triple loop (and the CPU backend), bit for
 * bit, halo zero. */
static void check_config(const gk_device_info *dev, const char *text, const int *steps, int nst)
{
    gk_config cfg, full;
    gk__config_clear(&cfg);
    if (!ok(gk__config_parse(text, &cfg) == GK_OK, "config '%s' parses", text))
        return;
    gk__space_complete(&gk__space_stencil, &cfg, &full);
    char why[200];
    if (!ok(!gk__space_stencil.reject(&full, dev, why, sizeof why), "config '%s' accepted", text)) {
        diag("%s", why);
        return;
    }
    for (int cs = 0; cs < 2; cs++) {
        const double *c = cs ? t_random_coeffs : gk_stencil_default_coeffs;
        for (size_t si = 0; si < sizeof t_sizes / sizeof t_sizes[0]; si++) {
            int nx = t_sizes[si][0], ny = t_sizes[si][1], nz = t_sizes[si][2];
            size_t n = (size_t)nx * ny * nz;
            gk_stencil_gpu *g;
            gk_status st = gk__stencil_gpu_open(&g, dev, NULL, nx, ny, nz, c, &cfg);
            if (!ok(st == GK_OK, "open %dx%dx%d config '%s'", nx, ny, nz, text)) {
                diag("%s", gk_last_error());
                continue;
            }
            double *in = malloc(n * 8), *out = malloc(n * 8), *ref = malloc(n * 8), *cpu = malloc(n * 8);
            for (int ti = 0; ti < nst; ti++) {
                uint64_t s = 4242 + si * 11 + ti + 1000 * cs;
                for (size_t i = 0; i < n; i++) in[i] = t_rand(&s);
                memcpy(ref, in, n * 8);
                t_reference(ref, nx, ny, nz, c, steps[ti]);
                memcpy(cpu, in, n * 8);
                gk__stencil_cpu(cpu, nx, ny, nz, c, steps[ti], GK_CPU_ISA_AUTO);
                for (size_t i = 0; i < n; i++) out[i] = NAN;  /* poison */
                st = gk__stencil_gpu_upload(g, in, NULL);
                if (!st) st = gk__stencil_gpu_run(g, steps[ti], NULL);
                if (!st) st = gk__stencil_gpu_download(g, out, NULL);
                int exact, exact_cpu;
                double d = t_maxdiff(out, ref, n, &exact), dc = t_maxdiff(out, cpu, n, &exact_cpu);
                double halo = -1;
                if (!st) st = gk__stencil_gpu_halo_max(g, &halo);
                ok(st == GK_OK && exact && exact_cpu && halo == 0, "'%s' %dx%dx%d nt=%d %s: %s (max diff %.3g vs "
                   "loop, %.3g vs cpu), halo %g", text, nx, ny, nz, steps[ti], cs ? "random" : "default",
                   exact && exact_cpu ? "bit-identical" : "NOT bit-identical", d, dc, halo);
                if (st) diag("%s", gk_last_error());
            }
            gk__stencil_gpu_close(g);
            free(in); free(out); free(ref); free(cpu);
        }
    }
}
#endif

int main(void)
{
    no_plan();
    rules();
    char why[512];
    if (!gk_gpu_usable(why, sizeof why)) {
        skip("no CUDA device", "the RX/ASYNC kernels");
        return done_testing();
    }
#ifndef GK_HAVE_CUDA
    skip("no CUDA device", "the RX/ASYNC kernels");
    return done_testing();
#else
    if (!gk_build_info_get()->has_nvrtc) {
        skip("no NVRTC", "the RX/ASYNC kernels");
        return done_testing();
    }
    gk_device_info dev;
    int prev;
    if (t_gpu_info(0, &dev) || gk__gpu_enter(0, &prev)) {
        printf("Bail out! GPU: %s\n", gk_last_error());
        return 1;
    }
    /* the one-step designs */
    static const int one[] = { 0, 1, 2, 7 };
    const char *cfgs[] = { "DESIGN=1,RX=2,ASYNC=0", "DESIGN=1,RX=1,ASYNC=1", "DESIGN=1,RX=2,ASYNC=1,MINB=0",
                           "DESIGN=1,BX=16,BY=4,RY=3,ZC=5,RX=2,ASYNC=1,PREFETCH=2,MINB=3",
                           "DESIGN=1,BX=32,BY=2,RY=1,ZC=1,UNROLL=2,RX=1,ASYNC=1,PREFETCH=2",
                           "DESIGN=0,BX=16,BY=4,RY=2,ZC=3,RX=2" };
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++)
        check_config(&dev, cfgs[i], one, 4);
    /* DESIGN 2, T = 1..4: whole passes and remainders; the smallest tiles
     * (one output column with RX = 1 at BX = 2T-1: here two or more); an
     * odd BX (warps across rows, the 512^3 tile: 66 wide, 64 stored) */
    static const int small[5][2] = { { 0, 0 }, { 8, 4 }, { 3, 11 }, { 5, 7 }, { 7, 7 } };
    for (int T = 1; T <= 4; T++) {
        int stv[6] = { 0, 1, T - 1, T, T + 1, 2 * T + 1 }, nst = 0, uniq[6];
        for (int i = 0; i < 6; i++) {
            int dup = 0;
            for (int j = 0; j < nst; j++) dup |= uniq[j] == stv[i];
            if (!dup) uniq[nst++] = stv[i];
        }
        char tc[5][160];
        /* (the overlapped tiles: RING=0 named, RING=1 the default) */
        snprintf(tc[0], sizeof tc[0], "DESIGN=2,TSTEPS=%d,RY=2,RX=2,ASYNC=1,MINB=2,RING=0", T);
        snprintf(tc[1], sizeof tc[1], "DESIGN=2,TSTEPS=%d,BX=16,BY=4,RY=3,ZC=5,UNROLL=2,RX=1,ASYNC=1,PREFETCH=2,RING=0",
                 T);
        snprintf(tc[2], sizeof tc[2], "DESIGN=2,TSTEPS=%d,BX=16,BY=8,RY=1,ZC=3,RX=2,ASYNC=0,MINB=0,RING=0", T);
        snprintf(tc[3], sizeof tc[3], "DESIGN=2,TSTEPS=%d,BX=%d,BY=%d,RY=1,ZC=3,RX=2,ASYNC=1,RING=0", T, small[T][0],
                 small[T][1]);
        snprintf(tc[4], sizeof tc[4], "DESIGN=2,TSTEPS=%d,BX=33,BY=8,RY=%d,ZC=4,RX=2,ASYNC=1,MINB=2,RING=0", T,
                 T > 2 ? 2 : 4);
        for (int ci = 0; ci < 5; ci++)
            check_config(&dev, tc[ci], uniq, nst);
        /* RING=1: the 512^3 tile (64 x 32, and 64 x 16), RX=1 with an odd
         * width and a short ZC, a tile of 7 x 5 (7 ring points per thread
         * at T=4), PREFETCH=2 */
        char rc[4][160];
        snprintf(rc[0], sizeof rc[0], "DESIGN=2,TSTEPS=%d,RING=1,BX=32,BY=8,RY=%d,ZC=4,UNROLL=2,RX=2,ASYNC=1,MINB=2",
                 T, T > 2 ? 2 : 4);
        snprintf(rc[1], sizeof rc[1], "DESIGN=2,TSTEPS=%d,RING=1,RY=2,RX=2,ASYNC=1,MINB=2,PREFETCH=2", T);
        snprintf(rc[2], sizeof rc[2], "DESIGN=2,TSTEPS=%d,RING=1,BX=16,BY=4,RY=3,ZC=5,UNROLL=2,RX=1,ASYNC=1", T);
        snprintf(rc[3], sizeof rc[3], "DESIGN=2,TSTEPS=%d,RING=1,BX=7,BY=5,RY=1,ZC=3,RX=1,ASYNC=1,PREFETCH=2", T);
        for (int ci = 0; ci < 4; ci++)
            check_config(&dev, rc[ci], uniq, nst);
        /* SPLIT=1 (no block barrier in the plane loop; the TMA's tiles on
         * sm_90, T >= 2): the 64 x 32 and 128 x 32 tiles of the defaults
         * and the shipped table with short chunks (128 x 16 at T=3, 128 x 8
         * at T=4: the shared memory), PREFETCH=2, RX=1, and
         * a tile the TMA does not take (7 wide: SPLIT ignored) */
        char sc[5][160];
        snprintf(sc[0], sizeof sc[0], "DESIGN=2,TSTEPS=%d,RING=1,SPLIT=1,BX=32,BY=8,RY=%d,ZC=4,UNROLL=2,MINB=2", T,
                 T > 2 ? 2 : 4);
        snprintf(sc[1], sizeof sc[1], "DESIGN=2,TSTEPS=%d,RING=1,SPLIT=1,BX=64,BY=8,RY=%d,ZC=5,MINB=0", T,
                 T > 3 ? 1 : T > 2 ? 2 : 4);
        snprintf(sc[2], sizeof sc[2], "DESIGN=2,TSTEPS=%d,RING=1,SPLIT=1,RY=2,MINB=2,PREFETCH=2", T);
        snprintf(sc[3], sizeof sc[3], "DESIGN=2,TSTEPS=%d,RING=1,SPLIT=1,BX=16,BY=4,RY=3,ZC=5,UNROLL=2,RX=1", T);
        snprintf(sc[4], sizeof sc[4], "DESIGN=2,TSTEPS=%d,RING=1,SPLIT=1,BX=7,BY=5,RY=1,ZC=3,RX=1,PREFETCH=2", T);
        for (int ci = 0; ci < 5; ci++)
            check_config(&dev, sc[ci], uniq, nst);
    }
    /* RING=1 tiles one thread and two outputs high (BY=1, RY=2; issue 29:
     * the fuzz harness's corpus/config/repro-ring-by1-ry2, which the
     * overlapped tiles' rule would refuse): 64 x 2 at T=1 and T=2 (the
     * defaults otherwise), 32 x 2 at T=3 (RX=1: 8 ring points per thread) */
    static const int r12[] = { 0, 1, 2, 3, 4, 7 };
    check_config(&dev, "BY=1,RING=1,RY=2", r12, 6);
    check_config(&dev, "DESIGN=2,TSTEPS=1,RING=1,BY=1,RY=2,ZC=5", r12, 6);
    check_config(&dev, "DESIGN=2,TSTEPS=3,RING=1,BX=32,BY=1,RY=2,RX=1,ASYNC=1,ZC=3", r12, 6);
    /* RING=1 on sm_90 and later: the TMA copies the input planes of the
     * tiles whose box it takes (stencil.cu's ring_geo), cp.async those of
     * the others.  cp.async with RX=2 (TI=256: rows wider than 256); both
     * in one run (TI=252: T=3 by cp.async, the remainder passes of T=1 and
     * 2 by the TMA); the y limit (H=252: T=3 by cp.async, T=1 and 2 by the
     * TMA) */
    check_config(&dev, "DESIGN=2,TSTEPS=3,RING=1,BX=128,BY=4,RY=2,RX=2", r12, 6);
    check_config(&dev, "DESIGN=2,TSTEPS=3,RING=1,BX=126,BY=4,RY=2,RX=2", r12, 6);
    check_config(&dev, "DESIGN=2,TSTEPS=3,RING=1,BX=4,BY=63,RY=4,RX=2", r12, 6);
    /* SPLIT=1 where a run mixes both paths (T=3 by cp.async: SPLIT
     * ignored; the remainder passes by the TMA, split) */
    check_config(&dev, "DESIGN=2,TSTEPS=3,RING=1,SPLIT=1,BX=126,BY=4,RY=2,RX=2", r12, 6);
    return done_testing();
#endif
}
