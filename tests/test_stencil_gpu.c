/* test_stencil_gpu.c - the GPU kernels (both designs, several block shapes,
 * the naive baseline) against the triple loop of the tests and the CPU
 * backend, on odd sizes; the halo stays zero; configuration and memory
 * rules.  Skips without a CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "api/commands.h"
#include "tap.h"
#include "test_api.h"
#include "test_stencil_common.h"
#include "cpu/stencil_cpu.h"

#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gpu.h"
#endif

#include <math.h>
#include <stdio.h>


int main(void)
{
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        skip_all("no CUDA device");
#ifndef GK_HAVE_CUDA
    skip_all("no CUDA device");
#else
    no_plan();
    gk_device_info dev;
    gk_context *ctx;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_GPU;
    int prev;
    if (gk_context_create(&ctx, &o) || t_gpu_info(0, &dev) || gk__gpu_enter(0, &prev)) {
        printf("Bail out! GPU context: %s\n", gk_last_error());
        return 1;
    }
    /* The default (embedded) build, both designs with shapes that do not
     * divide the sizes, several points per thread, tiny z chunks. */
    const char *cfgs[] = { "", "DESIGN=0", "DESIGN=1,BX=16,BY=4,RY=1,ZC=5,UNROLL=1",
                           "DESIGN=0,BX=64,BY=2,RY=3,ZC=3,UNROLL=4", "DESIGN=1,BX=32,BY=2,RY=4,ZC=7,MAXRREG=64",
                           "DESIGN=1,BX=16,BY=4,RY=3,ZC=5,PREFETCH=2", "DESIGN=1,BX=32,BY=2,RY=4,ZC=1,PREFETCH=2",
                           /* the register-prefetch, one-column kernels (the defaults before RX and ASYNC) */
                           "DESIGN=1,RX=1,ASYNC=0,MINB=0", "DESIGN=1,BX=16,BY=4,RY=3,ZC=5,PREFETCH=2,RX=1,ASYNC=0,MINB=0",
                           "DESIGN=0,RX=1,MINB=0" };
    int nvrtc = gk_build_info_get()->has_nvrtc;
    for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
        gk_config cfg;
        gk__config_clear(&cfg);
        ok(gk__config_parse(cfgs[ci], &cfg) == GK_OK, "config '%s' parses", cfgs[ci]);
        if (ci > 0 && !nvrtc) { skip("no NVRTC", cfgs[ci]); continue; }
        for (int cs = 0; cs < 2; cs++) {
            const double *c = cs ? t_random_coeffs : gk_stencil_default_coeffs;
            for (size_t si = 0; si < sizeof t_sizes / sizeof t_sizes[0]; si++) {
                int nx = t_sizes[si][0], ny = t_sizes[si][1], nz = t_sizes[si][2];
                size_t n = (size_t)nx * ny * nz;
                gk_stencil_gpu *g;
                gk_status st = gk__stencil_gpu_open(&g, &dev, NULL, nx, ny, nz, c, &cfg);
                if (!ok(st == GK_OK, "open %dx%dx%d config '%s'", nx, ny, nz, cfgs[ci])) {
                    diag("%s", gk_last_error());
                    continue;
                }
                double *in = malloc(n * 8), *out = malloc(n * 8), *ref = malloc(n * 8), *cpu = malloc(n * 8);
                for (size_t ti = 0; ti < sizeof t_steps / sizeof t_steps[0]; ti++) {
                    int steps = t_steps[ti];
                    uint64_t s = 77 + si * 5 + ti;
                    for (size_t i = 0; i < n; i++) in[i] = t_rand(&s);
                    memcpy(ref, in, n * 8);
                    t_reference(ref, nx, ny, nz, c, steps);
                    memcpy(cpu, in, n * 8);
                    gk__stencil_cpu(cpu, nx, ny, nz, c, steps, GK_CPU_ISA_AUTO);
                    for (size_t i = 0; i < n; i++) out[i] = NAN;  /* poison */
                    float ms;
                    st = gk__stencil_gpu_upload(g, in, &ms);
                    if (!st) st = gk__stencil_gpu_run(g, steps, &ms);
                    if (!st) st = gk__stencil_gpu_download(g, out, &ms);
                    int exact, exact_cpu;
                    double d = t_maxdiff(out, ref, n, &exact), dc = t_maxdiff(out, cpu, n, &exact_cpu);
                    double tol = gk_stencil_tolerance(steps, 1.0 + gk__grid_max_abs(ref, (int64_t)n));
                    ok(st == GK_OK && d <= tol && dc <= tol, "gpu '%s' %dx%dx%d nt=%d %s: max diff %.3g vs loop, "
                       "%.3g vs cpu (tol %.3g)%s", cfgs[ci], nx, ny, nz, steps, cs ? "random" : "default", d, dc,
                       tol, exact && exact_cpu ? ", bit-exact" : "");
                    if (st) diag("%s", gk_last_error());
                    double halo = -1;
                    st = gk__stencil_gpu_halo_max(g, &halo);
                    ok(st == GK_OK && halo == 0, "halo stays zero (max |halo| %g)", halo);
                }
                gk__stencil_gpu_close(g);
                free(in); free(out); free(ref); free(cpu);
            }
        }
    }

    /* DESIGN 2 (temporal blocking) for T = 1..4 against the triple loop,
     * bit-identical, on step counts around T (0, 1, T-1, T, T+1, 2T+1:
     * whole passes, remainders), the default shape (embedded for the
     * default T), an awkward shape and the smallest tile that leaves one
     * output column (sizes below the tile and its halo), both coefficient
     * sets; the halo stays zero. */
    for (int T = 1; T <= 4; T++) {
        /* (RING=0 named where the overlapped tiles are meant: RING=1 is
         * the default since 1.2's issue 27; tc[3], the default shape with
         * overlapped tiles, the default of before) */
        char tc[4][128];
        snprintf(tc[0], sizeof tc[0], "DESIGN=2,TSTEPS=%d", T);
        snprintf(tc[1], sizeof tc[1], "DESIGN=2,TSTEPS=%d,BX=16,BY=4,RY=3,ZC=5,UNROLL=2,PREFETCH=2,RX=1,ASYNC=0,"
                 "MINB=0,RING=0", T);
        /* the smallest tiles: one output column (and row, at T = 4) */
        static const int small[5][2] = { { 0, 0 }, { 8, 4 }, { 3, 11 }, { 5, 7 }, { 7, 7 } };
        snprintf(tc[2], sizeof tc[2], "DESIGN=2,TSTEPS=%d,BX=%d,BY=%d,RY=1,ZC=3,RING=0", T, small[T][0],
                 small[T][1]);
        snprintf(tc[3], sizeof tc[3], "DESIGN=2,TSTEPS=%d,RING=0", T);
        int stv[6] = { 0, 1, T - 1, T, T + 1, 2 * T + 1 }, nst = 0, uniq[6];
        for (int i = 0; i < 6; i++) {
            int dup = 0;
            for (int j = 0; j < nst; j++) dup |= uniq[j] == stv[i];
            if (!dup) uniq[nst++] = stv[i];
        }
        for (int ci = 0; ci < 4; ci++) {
            gk_config cfg, full;
            gk__config_clear(&cfg);
            ok(gk__config_parse(tc[ci], &cfg) == GK_OK, "config '%s' parses", tc[ci]);
            gk__space_complete(&gk__space_stencil, &cfg, &full);
            char rw[160];
            if (gk__space_stencil.reject(&full, &dev, rw, sizeof rw)) {
                ok(0, "config '%s' accepted: %s", tc[ci], rw);
                continue;
            }
            if (!nvrtc && !gk__space_is_default(&gk__space_stencil, &full)) { skip("no NVRTC", tc[ci]); continue; }
            for (int cs = 0; cs < 2; cs++) {
                const double *c = cs ? t_random_coeffs : gk_stencil_default_coeffs;
                for (size_t si = 0; si < sizeof t_sizes / sizeof t_sizes[0]; si++) {
                    int nx = t_sizes[si][0], ny = t_sizes[si][1], nz = t_sizes[si][2];
                    size_t n = (size_t)nx * ny * nz;
                    gk_stencil_gpu *g;
                        gk_status st = gk__stencil_gpu_open(&g, &dev, NULL, nx, ny, nz, c, &cfg);
                    if (!ok(st == GK_OK, "open %dx%dx%d config '%s'", nx, ny, nz, tc[ci])) {
                        diag("%s", gk_last_error());
                        continue;
                    }
                    double *in = malloc(n * 8), *out = malloc(n * 8), *ref = malloc(n * 8);
                    for (int ti = 0; ti < nst; ti++) {
                        int steps = uniq[ti];
                        uint64_t s = 991 + si * 7 + ti + 100 * T;
                        for (size_t i = 0; i < n; i++) in[i] = t_rand(&s);
                        memcpy(ref, in, n * 8);
                        t_reference(ref, nx, ny, nz, c, steps);
                        for (size_t i = 0; i < n; i++) out[i] = NAN;  /* poison */
                        st = gk__stencil_gpu_upload(g, in, NULL);
                        if (!st) st = gk__stencil_gpu_run(g, steps, NULL);
                        if (!st) st = gk__stencil_gpu_download(g, out, NULL);
                        int exact;
                        double d = t_maxdiff(out, ref, n, &exact);
                        double halo = -1;
                        if (!st) st = gk__stencil_gpu_halo_max(g, &halo);
                        ok(st == GK_OK && exact && halo == 0, "temporal '%s' %dx%dx%d nt=%d %s: %s (max diff %.3g), "
                           "halo %g", tc[ci], nx, ny, nz, steps, cs ? "random" : "default",
                           exact ? "bit-identical" : "NOT bit-identical", d, halo);
                        if (st) diag("%s", gk_last_error());
                    }
                    gk__stencil_gpu_close(g);
                    free(in); free(out); free(ref);
                }
            }
        }
    }
    {
        gk_config cfg, full;
        char w[160];
        gk__config_clear(&cfg);
        gk__config_parse("DESIGN=2,TSTEPS=4,BX=6,BY=16,RY=2,RING=0", &cfg);
        gk__space_complete(&gk__space_stencil, &cfg, &full);
        ok(gk__space_stencil.reject(&full, NULL, w, sizeof w) == 1 && strstr(w, "no output"),
           "a DESIGN 2 tile with no output column refused: %s", w);
        gk__config_clear(&cfg);
        gk__config_parse("DESIGN=1,TSTEPS=3", &cfg);
        gk__space_complete(&gk__space_stencil, &cfg, &full);
        ok(gk__space_stencil.reject(&full, NULL, w, sizeof w) == 1 && strstr(w, "TSTEPS"),
           "TSTEPS with a one-step design refused: %s", w);
        gk_stencil_gpu *g;
        ok(gk__stencil_gpu_open(&g, &dev, NULL, 8, 8, 8, gk_stencil_default_coeffs, NULL) == GK_OK,
           "default open for the ceiling");
        /* (each value measured before ok() prints it: the order of a
         * call's arguments is unspecified) */
        double fps = 0;
        gk_status cst = gk__stencil_gpu_fma_ceiling(g, &fps);
        ok(cst == GK_OK && fps > 1e11, "FMA ceiling measured: %.3g FMA/s", fps);
        gk__stencil_gpu_close(g);
        /* the typed ceilings of the generated engine's bench (NVRTC) */
        if (nvrtc) {
            double f32 = 0, f64 = 0;
            cst = gk__gpu_fma_ceiling(1, NULL, &f32);
            ok(cst == GK_OK && f32 > 1e10 && isfinite(f32), "float32 FMA ceiling measured: %.3g FMA/s", f32);
            cst = gk__gpu_fma_ceiling(0, NULL, &f64);
            ok(cst == GK_OK && f64 > 1e10 && isfinite(f64), "float64 FMA ceiling measured: %.3g FMA/s", f64);
        } else {
            skip("no NVRTC", "the float32 and float64 FMA ceilings");
        }
    }

    /* The naive baseline and the public entry point. */
    {
        int nx = 37, ny = 11, nz = 6, steps = 3;
        size_t n = (size_t)nx * ny * nz;
        double *in = malloc(n * 8), *out = malloc(n * 8), *ref = malloc(n * 8);
        uint64_t s = 5;
        for (size_t i = 0; i < n; i++) in[i] = t_rand(&s);
        memcpy(ref, in, n * 8);
        t_reference(ref, nx, ny, nz, gk_stencil_default_coeffs, steps);
        gk_stencil_gpu *g;
        gk_status st = gk__stencil_gpu_open(&g, &dev, NULL, nx, ny, nz, gk_stencil_default_coeffs, NULL);
        if (!st) st = gk__stencil_gpu_upload(g, in, NULL);
        if (!st) st = gk__stencil_gpu_run_naive(g, steps, NULL);
        if (!st) st = gk__stencil_gpu_download(g, out, NULL);
        int exact;
        double d = t_maxdiff(out, ref, n, &exact);
        ok(st == GK_OK && d <= gk_stencil_tolerance(steps, 2), "naive kernel: max diff %.3g", d);
        if (!st) gk__stencil_gpu_close(g);
        memcpy(out, in, n * 8);
        gk_report rep = t_report();
        st = t_stencil_run(ctx, out, nx, ny, nz, gk_stencil_default_coeffs, steps, NULL, &rep);
        d = t_maxdiff(out, ref, n, &exact);
        ok(st == GK_OK && d <= gk_stencil_tolerance(steps, 2) && rep.backend == GK_BACKEND_GPU,
           "gk_stencil_run on a GPU context: max diff %.3g", d);
        free(in); free(out); free(ref);
    }

    /* Configuration and memory rules. */
    {
        gk_config cfg;
        gk_stencil_gpu *g;
        gk__config_clear(&cfg);
        gk__config_parse("BX=64,BY=32", &cfg);
        ok(gk__stencil_gpu_open(&g, &dev, NULL, 8, 8, 8, gk_stencil_default_coeffs, &cfg) == GK_EINVAL,
           "2048 threads refused: %s", gk_last_error());
        gk__config_clear(&cfg);
        gk__config_parse("TILE=4", &cfg);
        ok(gk__stencil_gpu_open(&g, &dev, NULL, 8, 8, 8, gk_stencil_default_coeffs, &cfg) == GK_EINVAL,
           "unknown parameter refused: %s", gk_last_error());
        ok(gk__stencil_gpu_open(&g, &dev, NULL, 8192, 8192, 4096, gk_stencil_default_coeffs, NULL) == GK_ENOMEM
           && strstr(gk_last_error(), "needs"), "grid beyond device memory refused: %s", gk_last_error());
        char w[160];
        gk__config_clear(&cfg);
        gk__config_parse("DESIGN=0,BX=128,BY=8,RY=8", &cfg);
        gk_config full;
        gk__space_complete(&gk__space_stencil, &cfg, &full);
        ok(gk__space_stencil.reject(&full, NULL, w, sizeof w) == 1, "reject without a device: %s", w);
    }
    gk_context_destroy(ctx);
    return done_testing();
#endif
}
