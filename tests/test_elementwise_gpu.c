/* test_elementwise_gpu.c - the GPU elementwise designs (the baseline, the
 * float4 design, the tuned kernel with several configurations) on awkward
 * shapes: their one-iteration results against this test's own CPU step
 * within the GPU libm's enclosure, and their niter results through the
 * per-iteration check; the check fails on a result with one iteration too
 * few; gk_elementwise_run with --check on the GPU.  Skips without a CUDA
 * device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"

#ifdef GK_HAVE_CUDA
#include "gpu/elementwise_gpu.h"
#endif

#include <math.h>
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
    gk_device_info dev;
    int prev;
    if (t_gpu_info(0, &dev) || gk__gpu_enter(0, &prev)) {
        printf("Bail out! GPU: %s\n", gk_last_error());
        return 1;
    }
    const char *cfgs[] = { "", "VEC=1,BX=32,BY=1,SKIP=0", "VEC=4,BX=32,BY=4,UNROLL=2,GRID=4", "VEC=2,BX=1024,MAXRREG=64,SKIP=0",
                           "VEC=8,BX=64,BY=2,UNROLL=3,GRID=1", "VEC=1,BX=128,UNROLL=2,SKIP=1", "SKIP=2",
                           "VEC=4,BX=32,BY=4,UNROLL=2,GRID=4,SKIP=2", "VEC=1,BX=64,BY=2,UNROLL=3,SKIP=2",
                           "VEC=8,BX=32,BY=1,GRID=1,MAXRREG=64,SKIP=2" };
    static const int64_t shapes[][2] = { { 1, 1 }, { 3, 5 }, { 7, 13 }, { 4, 3 }, { 1031, 37 }, { 4096, 3 },
                                         { 9, 70001 }, { 2048, 9 } };
    static const int niters[] = { 0, 1, 7, 30 };
    int nvrtc = gk_build_info_get()->has_nvrtc;
    for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
        gk_config cfg;
        gk__config_clear(&cfg);
        ok(gk__config_parse(cfgs[ci], &cfg) == GK_OK, "config '%s' parses", cfgs[ci]);
        if (ci > 0 && !nvrtc) { skip("no NVRTC", cfgs[ci]); continue; }
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            int64_t dx = shapes[s][0], dy = shapes[s][1];
            size_t n = (size_t)(dx * dy);
            gk_elementwise_gpu *g;
            if (!ok(gk__elementwise_gpu_open(&g, &dev, NULL, dx, dy, &cfg) == GK_OK, "open %lldx%lld '%s'",
                    (long long)dx, (long long)dy, cfgs[ci])) {
                diag("%s", gk_last_error());
                continue;
            }
            float *in = malloc(n * 4), *out = malloc(n * 4);
            gk_elementwise_random(in, dx, dy, 40 + s);
            if (n > 4) { in[0] = 0.2f; in[1] = 3.14159274f; in[3] = 2.0f; }
            /* 4096 x 3: row 1's log columns at the edges of the tuned kernel's
             * log step (values in [1, FLT_MAX]; a thread holding any other
             * log value uses logf and sqrtf), row 2's all inside it */
            if (dx == 4096) {
                static const float edge[] = { 1.0f, 1.00000012f, 0.99999994f, 3.40282347e38f, 1.7e38f, 1e-40f, 0.0f,
                                              -1.0f, 0.36787945f, 0.36787942f, 2.0f, 1.5f };
                for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++)
                    in[dx + 4 * (int64_t)e] = edge[e];
                in[2 * dx] = 1.0f;
                in[2 * dx + 4] = 3.40282347e38f;
            }
            /* 1031 x 37: every other row with its cos, sin and tan columns at a
             * fixed point or NaN from the start, so SKIP=1's log-only loop runs */
            if (dx == 1031)
                for (int64_t y = 0; y < dy; y += 2)
                    for (int64_t x = 0; x < dx; x++) {
                        float *e = &in[y * dx + x];
                        if (x % 4 == 1) *e = 3.14159274f;          /* cosf = -1: fixed */
                        else if (x % 4 == 2) *e = -1.5707964f;     /* sinf = -1: fixed */
                        else if (x % 4 == 3) *e = 2.0f;            /* tanf(2) < -1: NaN */
                    }
            /* 2048 x 9: the cos and sin columns at fixed points from the start,
             * the tan columns random: SKIP=2 queues the tan lanes after one
             * step, more than the queue holds where VEC > 1 (the rest stay
             * with their threads) */
            if (dx == 2048)
                for (int64_t i = 0; i < (int64_t)n; i++) {
                    if (i % dx % 4 == 1) in[i] = 3.14159274f;
                    else if (i % dx % 4 == 2) in[i] = -1.5707964f;
                }
            for (int design = ci ? GK_EW_TUNED : GK_EW_BASELINE; design <= GK_EW_TUNED; design++)
                for (size_t k = 0; k < sizeof niters / sizeof niters[0]; k++) {
                    int it = niters[k];
                    gk__elementwise_diff d;
                    memset(&d, 0, sizeof d);
                    gk_status st = gk__elementwise_gpu_upload(g, in, NULL);
                    if (!st) st = gk__elementwise_gpu_run(g, design, it, NULL);
                    if (st == GK_EINVAL && design == GK_EW_BASELINE && dy > 65535 * 8 / 8) {
                        ok(strstr(gk_last_error(), "65535") != NULL, "baseline refuses %lld rows: %s", (long long)dy,
                           gk_last_error());
                        continue;
                    }
                    if (!st) st = gk__elementwise_gpu_download(g, out, NULL);
                    if (!st) st = gk__elementwise_gpu_check(g, design, in, out, it, &d);
                    ok(st == GK_OK, "design %d '%s' %lldx%lld, %d iterations: checked (%lld elements, %.2g ulp "
                       "from correctly rounded, %lld NaN) %s", design, cfgs[ci], (long long)dx, (long long)dy, it,
                       (long long)d.n, d.max_ulp, (long long)d.nan, st ? gk_last_error() : "");
                    if (it == 30 && !st && design == GK_EW_TUNED) {
                        /* the tuned kernel (its own log step, SKIP) gives the bits of
                         * the float4 design (logf, sqrtf, every lane every step) */
                        float *f4 = malloc(n * 4);
                        st = gk__elementwise_gpu_upload(g, in, NULL);
                        if (!st) st = gk__elementwise_gpu_run(g, GK_EW_FLOAT4, 30, NULL);
                        if (!st) st = gk__elementwise_gpu_download(g, f4, NULL);
                        int64_t differ = 0, where = -1;
                        for (size_t i = 0; !st && i < n; i++)
                            if (memcmp(&f4[i], &out[i], 4) && !(isnan(f4[i]) && isnan(out[i]))) {
                                differ++;
                                if (where < 0) where = (int64_t)i;
                            }
                        ok(!st && differ == 0, "'%s' %lldx%lld, 30 iterations: the tuned kernel's bits are the float4 "
                           "design's (%lld differ, first %lld: %.9g vs %.9g)", cfgs[ci], (long long)dx, (long long)dy,
                           (long long)differ, (long long)where, where >= 0 ? out[where] : 0.0, where >= 0 ? f4[where]
                           : 0.0);
                        free(f4);
                        st = GK_OK;
                    }
                    if (it == 30 && !st) {
                        /* the log columns are well conditioned (v grows, errors do not):
                         * after 30 iterations within 30 ulps of this test's own CPU
                         * loop (1-ulp logf errors give 4 at most in a simulation), while
                         * one iteration more or less moves them by about 2.  This closes
                         * the check's blind spot: a count off by the same amount for
                         * every N > 1. */
                        int64_t far = 0, where = -1;
                        for (size_t i = 0; i < n; i++) {
                            if ((int64_t)(i % (size_t)dx) % 4) continue;
                            float v = in[i];
                            for (int j = 0; j < 30; j++) {
                                float a = (float)log((double)v), b = a + 1.0f;
                                v = v + sqrtf(b);
                            }
                            if (isnan(v) && isnan(out[i])) continue;
                            float u = nextafterf(fabsf(v), INFINITY) - fabsf(v);
                            if (!(fabsf(out[i] - v) <= 30 * u)) { far++; if (where < 0) where = (int64_t)i; }
                        }
                        ok(far == 0, "design %d '%s' %lldx%lld: 30 iterations, log columns within 30 ulps of the "
                           "test's own loop (%lld beyond, first %lld)", design, cfgs[ci], (long long)dx,
                           (long long)dy, (long long)far, (long long)where);
                        /* the check is not vacuous: 29 iterations presented as 30 fail */
                        float *six = malloc(n * 4);
                        st = gk__elementwise_gpu_upload(g, in, NULL);
                        if (!st) st = gk__elementwise_gpu_run(g, design, 29, NULL);
                        if (!st) st = gk__elementwise_gpu_download(g, six, NULL);
                        memset(&d, 0, sizeof d);
                        if (!st) st = gk__elementwise_gpu_check(g, design, in, six, 30, &d);
                        ok(st == GK_EMISMATCH, "design %d '%s' %lldx%lld: 29 iterations as 30 fail the check",
                           design, cfgs[ci], (long long)dx, (long long)dy);
                        free(six);
                    }
                }
            free(in); free(out);
            gk__elementwise_gpu_close(g);
        }
    }
    /* The tuned kernel's log step on every float in [1, FLT_MAX]: the bits
     * of logf and of v + sqrtf(logf(v) + 1), the log within 1 ulp of the
     * exact logarithm (the CUDA Math API's bound for logf; the check allows
     * 1.5), the square root on [1, 2^64) the bits of sqrtf. */
    {
        gk_elementwise_gpu *g;
        unsigned long long c[4] = { 0, 0, 0, 0 };
        if (ok(gk__elementwise_gpu_open(&g, &dev, NULL, 4, 1, NULL) == GK_OK, "open for the self-test")) {
            gk_status st = gk__elementwise_gpu_selftest(g, 0x3f800000u, 0x3f800000u, c);
            ok(st == GK_OK, "self-test over the %u floats in [1, FLT_MAX] ran %s", 0x3f800000u,
               st ? gk_last_error() : "");
            ok(c[0] == 0, "its log has logf's bits (%llu differ)", c[0]);
            ok(c[1] == 0, "its step has v + sqrtf(logf(v) + 1)'s bits (%llu differ)", c[1]);
            ok(c[2] == 0, "its square root has sqrtf's bits on [1, 2^64) (%llu differ)", c[2]);
            ok(c[3] <= 1048576u, "its log is within 1 ulp of the exact log (%.4f ulp at most)", c[3] / 1048576.0);
            gk__elementwise_gpu_close(g);
        }
    }
    /* the front door, with the check */
    gk_context *ctx;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_GPU;
    if (ok(gk_context_create(&ctx, &o) == GK_OK, "GPU context")) {
        int64_t dx = 515, dy = 7;
        float *a = malloc((size_t)(dx * dy) * 4);
        gk_elementwise_random(a, dx, dy, 9);
        gk_elementwise_options eo = t_elementwise_opts(1, NULL);
        gk_report rep = t_report();
        ok(t_elementwise_run(ctx, a, dx, dy, 20, &eo, &rep) == GK_OK && rep.checked && rep.backend == GK_BACKEND_GPU,
           "gk_elementwise_run on the GPU with the check: %s (max %.2g ulp)", gk_last_error(), rep.check_max_abs);
        free(a);
        gk_context_destroy(ctx);
    }
    gk__gpu_leave(prev);
    return done_testing();
#endif
}
