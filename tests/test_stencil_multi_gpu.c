/* test_stencil_multi_gpu.c - the GPU slab engine (src/gpu/stencil_multi.c)
 * in one process: 2, 3 and 5 slabs, all on GPU 0 (the engine neither knows
 * nor cares that they share a device: every copy is a peer copy), and on
 * GPUs 0 and 1 where there are two.  Every design (the default DESIGN 2
 * with T = 2, DESIGN 0, 1, and 2 with T = 3, 4: halo depths 1..4), uneven
 * slabs, slabs thinner than the design's T (the halo shrinks to 1), step
 * counts that are not multiples of the halo, random coefficients, slabs
 * whose extended range is shorter than the 3H planes of a boundary slab
 * (16x9x5 in 2 or 3): the slabs put together must equal the CPU backend's
 * grid bit for bit, with the exchange overlapped.  Skips
 * without a CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_stencil_common.h"
#include "cpu/stencil_cpu.h"

#ifdef GK_HAVE_CUDA
#include "gpu/stencil_multi.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        skip_all("no CUDA device");
#ifndef GK_HAVE_CUDA
    skip_all("no CUDA device");
#else
    no_plan();
    int ngpu = 0, prev;
    gk_device_info dev[2];
    if (gk_gpu_count(&ngpu) || t_gpu_info(0, &dev[0]) || gk__gpu_enter(0, &prev)) {
        printf("Bail out! GPU: %s\n", gk_last_error());
        return 1;
    }
    if (ngpu > 1 && t_gpu_info(1, &dev[1]))
        ngpu = 1;
    int nvrtc = gk_build_info_get()->has_nvrtc;
    /* "" is the embedded build; the others need NVRTC.  RING=0 (the
     * overlapped tiles) named at T=2 and 3; T=4 and "" run RING=1, the
     * default */
    const char *cfgs[] = { "", "DESIGN=0,BX=32,BY=4,RY=2,ZC=3", "DESIGN=1,BX=16,BY=4,RY=3,ZC=5",
                           "DESIGN=2,TSTEPS=3,BX=32,BY=8,RY=2,ZC=7,RING=0", "DESIGN=2,TSTEPS=4,BX=32,BY=8,RY=4,ZC=16",
                           "DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,ZC=9,RING=0" };
    const int sizes[][3] = { { 37, 21, 19 }, { 16, 9, 5 }, { 70, 33, 12 } };
    const int parts[] = { 2, 3, 5 };
    const int steps[] = { 0, 1, 3, 5, 8 };     /* 0, below, at and past the halo, remainders */
    for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
        gk_config cfg;
        gk__config_clear(&cfg);
        if (!ok(gk__config_parse(cfgs[ci], &cfg) == GK_OK, "config '%s' parses", cfgs[ci]))
            continue;
        if (ci > 0 && !nvrtc) { skip("no NVRTC", cfgs[ci]); continue; }
        int want_h = gk__stencil_cfg_steps_per_pass(&cfg);
        /* NVRTC compiles each slab's module: the other designs on one size,
         * 3 slabs (both ends and a middle one) */
        for (size_t si = ci ? 2 : 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            int nx = sizes[si][0], ny = sizes[si][1], nz = sizes[si][2];
            size_t n = (size_t)nx * ny * nz, plane = (size_t)nx * ny;
            double *in = malloc(n * 8), *out = malloc(n * 8), *ref = malloc(n * 8);
            uint64_t s = 1234 + si;
            for (size_t i = 0; i < n; i++) in[i] = t_rand(&s);
            for (size_t pi = ci ? 1 : 0; pi < (ci ? 2 : sizeof parts / sizeof parts[0]); pi++)
                for (int two = 0; two < (ngpu > 1 ? 2 : 1); two++) {
                    int P = parts[pi];
                    const double *c = (pi + si) & 1 ? t_random_coeffs : gk_stencil_default_coeffs;
                    int first[8], thin = nz, H;
                    for (int g = 0; g <= P; g++) first[g] = g * nz / P;
                    for (int g = 0; g < P; g++)
                        if (first[g + 1] - first[g] < thin) thin = first[g + 1] - first[g];
                    H = want_h < thin ? want_h : thin;
                    gk_stencil_part *p[8];
                    gk_status st = GK_OK;
                    int np = 0;
                    for (int g = 0; g < P && !st; g++) {
                        int d = two ? g & 1 : 0;
                        if (!(st = gk__stencil_part_open(&p[np], d, &dev[d], nx, ny, nz, first[g], first[g + 1], H,
                                                         c, &cfg)))
                            np++;
                    }
                    for (size_t ti = 0; ti < sizeof steps / sizeof steps[0] && !st; ti++) {
                        for (int i = 0; i < np && !st; i++)
                            st = gk__stencil_part_put(p[i], first[i], first[i + 1] - first[i], in + first[i] * plane);
                        gk_stencil_xchg x;
                        memset(&x, 0, sizeof x);
                        x.mode = GK__SX_PEER;
                        x.H = H;
                        x.below = x.above = -1;
                        if (!st) st = gk__stencil_multi_run(p, np, &x, steps[ti]);
                        for (size_t i = 0; i < n; i++) out[i] = NAN;
                        for (int i = 0; i < np && !st; i++)
                            st = gk__stencil_part_get(p[i], first[i], first[i + 1] - first[i], out + first[i] * plane);
                        memcpy(ref, in, n * 8);
                        gk_status rs = gk__stencil_cpu(ref, nx, ny, nz, c, steps[ti], GK_CPU_ISA_AUTO);
                        ok(st == GK_OK && rs == GK_OK && !memcmp(out, ref, n * 8),
                           "'%s' %dx%dx%d, %d slabs on %s, halo %d, %d steps: bit-identical to the CPU "
                           "(busy %.2g s, stall %.2g s)", cfgs[ci], nx, ny, nz, P, two ? "GPUs 0,1" : "GPU 0", H,
                           steps[ti], x.busy, x.stall);
                        if (st) diag("%s", gk_last_error());
                    }
                    if (st && np < P)
                        ok(0, "'%s' %dx%dx%d: open %d slabs: %s", cfgs[ci], nx, ny, nz, P, gk_last_error());
                    for (int i = 0; i < np; i++)
                        gk__stencil_part_close(p[i]);
                    gk__gpu_enter(0, &prev);
                }
            free(in);
            free(out);
            free(ref);
        }
    }
    /* a slab past the grid, an empty slab and a zero halo are refused */
    gk_stencil_part *bad = NULL;
    ok(gk__stencil_part_open(&bad, 0, &dev[0], 8, 8, 8, 4, 9, 1, gk_stencil_default_coeffs, NULL) == GK_EINVAL,
       "slab 4..8 of 8 planes refused: %s", gk_last_error());
    ok(gk__stencil_part_open(&bad, 0, &dev[0], 8, 8, 8, 3, 3, 1, gk_stencil_default_coeffs, NULL) == GK_EINVAL,
       "empty slab refused: %s", gk_last_error());
    ok(gk__stencil_part_open(&bad, 0, &dev[0], 8, 8, 8, 0, 4, 0, gk_stencil_default_coeffs, NULL) == GK_EINVAL,
       "halo 0 refused: %s", gk_last_error());
    return done_testing();
#endif
}
