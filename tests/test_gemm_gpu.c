/* test_gemm_gpu.c - the GPU matrix multiply: the tuned kernel in several
 * configurations (the embedded defaults and NVRTC variants: small and large
 * tiles, k chunks of 8..32, vectors of 1, 2 and 4, one or two stages,
 * 4..16 outputs per thread), its unaligned variant (N or K odd) and the
 * course's baselines against the tests' own long double loop on awkward
 * shapes under the bound of gk/gemm.h; gk_gemm_run with the check on a GPU
 * context; configuration rules at open.  Skips without a CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_gemm_ref.h"

#ifdef GK_HAVE_CUDA
#include "gpu/gemm_gpu.h"
#endif

#include <stdio.h>
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
    const char *cfgs[] = { "", "TM=8,MINB=2", "BM=64,BN=64,TM=4,TN=4,VEC=2,STAGES=1,UNROLL=1",
                           "BK=16,VEC=1,UNROLL=4", "BM=256,BN=128,TM=16,TN=8,BK=8,MINB=1",
                           "BM=64,BN=256,TM=8,TN=16,BK=16,VEC=4,MINB=1,UNROLL=8",
                           "BM=128,BN=64,TM=8,TN=4,BK=16,VEC=2,MAXRREG=128" };
    int nvrtc = gk_build_info_get()->has_nvrtc;
    for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
        gk_config cfg;
        gk__config_clear(&cfg);
        ok(gk__config_parse(cfgs[ci], &cfg) == GK_OK, "config '%s' parses", cfgs[ci]);
        if (ci > 0 && !nvrtc) { skip("no NVRTC", cfgs[ci]); continue; }
        for (size_t s = 0; s < sizeof t_shapes / sizeof t_shapes[0]; s++) {
            int m = t_shapes[s][0], n = t_shapes[s][1], k = t_shapes[s][2];
            float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
            double *ref = malloc((size_t)m * n * 8), *ab = malloc((size_t)m * n * 8);
            gk_matrix_random(a, m, k, 300 + s);
            gk_matrix_random(b, k, n, 400 + s);
            t_gemm_ref(a, b, m, n, k, ref, ab);
            gk_gemm_gpu *g;
            gk_status st = gk__gemm_gpu_open(&g, &dev, NULL, m, n, k, &cfg, 1);
            if (ok(st == GK_OK, "open %dx%dx%d '%s'", m, n, k, cfgs[ci])) {
                /* the baselines once (with the default configuration), the tuned kernel always */
                for (int which = ci == 0 ? GK_GEMM_NAIVE : GK_GEMM_TUNED; which <= GK_GEMM_TUNED; which++) {
                    for (size_t i = 0; i < (size_t)m * n; i++) c[i] = NAN;
                    st = gk__gemm_gpu_upload(g, a, b, NULL);
                    if (!st) st = gk__gemm_gpu_download(g, c, NULL);    /* C on the device holds garbage */
                    for (size_t i = 0; i < (size_t)m * n; i++) c[i] = NAN;
                    if (!st) st = gk__gemm_gpu_run(g, which, NULL);
                    if (!st) st = gk__gemm_gpu_download(g, c, NULL);
                    double r = t_gemm_ratio(c, ref, ab, m, n, k);
                    static const char *names[] = { "naive", "tile", "ilp", "tuned" };
                    ok(st == GK_OK && r <= 1, "%s '%s' %dx%dx%d within the bound (%.3g of it)%s", names[which],
                       cfgs[ci], m, n, k, r, which == GK_GEMM_TUNED && (n % 4 || k % 4) ? " (unaligned path)" : "");
                    if (st) diag("%s", gk_last_error());
                }
                gk__gemm_gpu_close(g);
            } else {
                diag("%s", gk_last_error());
            }
            free(a); free(b); free(c); free(ref); free(ab);
        }
    }

    /* the front door with the check (against the CPU backend) */
    {
        int m = 333, n = 190, k = 275;
        float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
        gk_matrix_random(a, m, k, 9);
        gk_matrix_random(b, k, n, 10);
        gk_gemm_options go = t_gemm_opts(1, NULL);
        gk_report rep = t_report();
        gk_status st = t_gemm_run(ctx, a, b, c, m, n, k, &go, &rep);
        ok(st == GK_OK && rep.checked && rep.backend == GK_BACKEND_GPU, "gk_gemm_run on the GPU, checked against "
           "%s (%.3g of the bound)", rep.check_against, rep.check_max_rel);
        if (st) diag("%s", gk_last_error());
        free(a); free(b); free(c);
    }
    /* the configuration is checked against the device at open */
    {
        gk_config cfg;
        gk__config_clear(&cfg);
        gk__config_parse("TM=6", &cfg);
        gk_gemm_gpu *g = NULL;
        ok(gk__gemm_gpu_open(&g, &dev, NULL, 8, 8, 8, &cfg, 1) == GK_EINVAL && !g, "TM=6 refused at open: %s",
           gk_last_error());
    }
    gk__gpu_leave(prev);
    gk_context_destroy(ctx);
    return done_testing();
#endif
}
