/* test_elementwise_cpu.c - the CPU elementwise backend and the plain
 * reference loop against this test's own step (f in double, rounded once,
 * then +1, sqrtf, + in float) on awkward shapes and random data; known
 * values; the one-step enclosure: sound (every f within u ulps lands inside)
 * and not vacuous (a wrong function, a missing or extra iteration, a
 * perturbed value or a NaN in the wrong place fail); the size rules; the
 * tunable space's constraints; gk_elementwise_run on the CPU with --check;
 * the GPU tuned kernel's log (log_pos_normal in src/gpu/elementwise.cu,
 * its constants read from that file) on every float in [1, 2^20): within
 * 1 ulp of the exact log. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "core/elementwise.h"
#include "core/rng.h"
#include "core/space.h"
#include "cpu/elementwise_cpu.h"
#include "tune/tune.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This test's own step: independent of core/elementwise.h's. */
static float t_step(float v, int64_t col)
{
    double f;
    switch (col % 4) {
    case 0: f = log(v); break;
    case 1: f = cos(v); break;
    case 2: f = sin(v); break;
    default: f = tan(v); break;
    }
    float a = (float)f, b = a + 1.0f;
    return v + sqrtf(b);
}

static void t_run(float *a, int64_t dimx, int64_t dimy, int niter)
{
    for (int64_t i = 0; i < dimx * dimy; i++)
        for (int it = 0; it < niter; it++)
            a[i] = t_step(a[i], i % dimx);
}

static int same_bits(const float *a, const float *b, size_t n, size_t *where)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(float)) && !(isnan(a[i]) && isnan(b[i]))) {
            *where = i;
            return 0;
        }
    return 1;
}

static const int64_t shapes[][2] = { { 1, 1 }, { 1, 7 }, { 7, 1 }, { 3, 5 }, { 4, 3 }, { 13, 11 },
                                     { 257, 3 }, { 1031, 37 }, { 256, 2 }, { 2, 97 } };

static void test_backends(void)
{
    static const int niters[] = { 0, 1, 2, 7, 31 };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int64_t dx = shapes[s][0], dy = shapes[s][1];
        size_t n = (size_t)(dx * dy);
        float *in = malloc(n * 4), *want = malloc(n * 4), *ref = malloc(n * 4), *cpu = malloc(n * 4);
        for (size_t k = 0; k < sizeof niters / sizeof niters[0]; k++) {
            int it = niters[k];
            gk_elementwise_random(in, dx, dy, 1000 + s);
            /* a few values of every kind: NaN-bound logs, cos/sin near their fixed points, tan near a pole */
            if (n > 8) { in[0] = 0.2f; in[1] = 3.14159f; in[2] = 4.712f; in[3] = 1.57f; }
            memcpy(want, in, n * 4);
            memcpy(ref, in, n * 4);
            memcpy(cpu, in, n * 4);
            t_run(want, dx, dy, it);
            size_t w = 0;
            ok(gk__elementwise_cpu_reference(ref, dx, dy, it) == GK_OK && same_bits(ref, want, n, &w),
               "reference loop %lldx%lld, %d iterations: the test's own steps, bit for bit (first diff %zu)",
               (long long)dx, (long long)dy, it, w);
            ok(gk__elementwise_cpu(cpu, dx, dy, it) == GK_OK && same_bits(cpu, want, n, &w),
               "CPU backend %lldx%lld, %d iterations: the test's own steps, bit for bit (first diff %zu)",
               (long long)dx, (long long)dy, it, w);
            if (it >= 1) {
                /* the check's two parts pass on the backend's own results */
                static const int u[4] = GK_ELEMENTWISE_CPU_ULPS;
                float *prev = malloc(n * 4);
                memcpy(prev, in, n * 4);
                t_run(prev, dx, dy, it - 1);
                gk__elementwise_diff d;
                memset(&d, 0, sizeof d);
                ok(gk__elementwise_step_check(prev, cpu, dx, dy, u, &d) == GK_OK && d.outside == 0
                   && d.max_ulp == 0, "%lldx%lld, %d iterations: the last step within its enclosure (%.2g ulp)",
                   (long long)dx, (long long)dy, it, d.max_ulp);
                free(prev);
            }
        }
        free(in); free(want); free(ref); free(cpu);
    }
}

static void test_known(void)
{
    float a[8] = { 1.0f, 0.0f, 0.0f, 0.0f, 0.2f, 3.14159274f, -1.5707964f, 2.0f };
    /* log col: log 1 = 0 -> 1 + 1 = 2; cos 0 = 1 -> sqrt 2; sin 0 = 0 -> 1; tan 0 = 0 -> 1;
     * log 0.2 < -1 -> NaN; cos(pi_f) = -1 in float -> stays; sin(-pi/2) = -1 -> stays; tan 2 < -1 -> NaN */
    ok(gk__elementwise_cpu(a, 4, 2, 1) == GK_OK, "known values run");
    ok(a[0] == 2.0f && a[1] == sqrtf(2.0f) && a[2] == 1.0f && a[3] == 1.0f, "log 1, cos 0, sin 0, tan 0: %g %g %g %g",
       a[0], a[1], a[2], a[3]);
    ok(isnan(a[4]) && a[5] == 3.14159274f && a[6] == -1.5707964f && isnan(a[7]),
       "log 0.2 and tan 2 give NaN, the fixed points of cos and sin stay: %g %g %g %g", a[4], a[5], a[6], a[7]);
}

/* Every float a within u ulps of the correctly rounded f(x) gives a step
 * inside E_u(x) (or NaN where allowed). */
static void test_enclosure_sound(void)
{
    static const int us[4] = { 1, 2, 2, 4 };
    int64_t bad = 0, tried = 0;
    for (int i = 0; i < 20000; i++) {
        /* values over several ranges: [0, 2), [-8, 8), near poles and fixed points, large */
        double r = gk__rand_unit(77, (uint64_t)i);
        float x = i % 5 == 0 ? (float)(2 * r) : i % 5 == 1 ? (float)(16 * r - 8)
                : i % 5 == 2 ? (float)(1.5707963 + (r - 0.5) * 1e-4) : i % 5 == 3 ? (float)(3.14159265 + (r - 0.5) * 1e-3)
                : (float)(1e5 * r);
        for (int cls = 0; cls < 4; cls++) {
            gk__ew_box b;
            gk__ew_enclose(x, cls, us[cls], &b);
            float cr = (float)gk__ew_f(x, cls);
            float a = cr;
            for (int k = 0; k < us[cls]; k++) a = nextafterf(a, -INFINITY);
            for (int k = 0; k <= 2 * us[cls] && !isnan(cr); k++, a = nextafterf(a, INFINITY)) {
                float y = x + sqrtf(a + 1.0f);
                int in = isnan(y) ? b.nan_ok : !b.nan_req && y >= b.lo && y <= b.hi;
                bad += !in;
                tried++;
                if (!in && bad < 4)
                    diag("x=%.9g class %d a=%.9g: y=%.9g outside [%.9g, %.9g] nan_req %d nan_ok %d", x, cls, a, y,
                         b.lo, b.hi, b.nan_req, b.nan_ok);
            }
        }
    }
    ok(bad == 0, "enclosure sound: %lld of %lld steps with f within u ulps fell outside", (long long)bad,
       (long long)tried);
}

static void test_enclosure_strict(void)
{
    static const int u[4] = GK_ELEMENTWISE_GPU_ULPS;
    int64_t dx = 1031, dy = 5;
    size_t n = (size_t)(dx * dy);
    float *in = malloc(n * 4), *out = malloc(n * 4), *bad = malloc(n * 4);
    gk_elementwise_random(in, dx, dy, 5);
    memcpy(out, in, n * 4);
    t_run(out, dx, dy, 1);
    gk__elementwise_diff d;
    memset(&d, 0, sizeof d);
    ok(gk__elementwise_step_check(in, out, dx, dy, u, &d) == GK_OK && d.n == (int64_t)n, "one correct step passes");
    /* a step with the wrong function: column classes shifted by one */
    for (size_t i = 0; i < n; i++) bad[i] = t_step(in[i], (int64_t)(i % (size_t)dx) + 1);
    memset(&d, 0, sizeof d);
    ok(gk__elementwise_step_check(in, bad, dx, dy, u, &d) == GK_EMISMATCH && d.outside > (int64_t)n / 2,
       "functions shifted by a column fail (%lld outside): %s", (long long)d.outside, gk_last_error());
    /* two steps instead of one */
    memcpy(bad, out, n * 4);
    t_run(bad, dx, dy, 1);
    memset(&d, 0, sizeof d);
    ok(gk__elementwise_step_check(in, bad, dx, dy, u, &d) == GK_EMISMATCH && d.outside > (int64_t)n / 4,
       "an extra iteration fails (%lld outside)", (long long)d.outside);
    /* one element moved by 16 ulps (past 4 + 1/2 ulps of tanf) */
    memcpy(bad, out, n * 4);
    size_t k = 2 * (size_t)dx + 7;                    /* row 2, column 7: a tan column */
    if (isnan(bad[k])) k = 2 * (size_t)dx + 4;         /* a log column, never NaN in [1, 2) */
    for (int j = 0; j < 16; j++) bad[k] = nextafterf(bad[k], INFINITY);
    memset(&d, 0, sizeof d);
    ok(gk__elementwise_step_check(in, bad, dx, dy, u, &d) == GK_EMISMATCH && d.outside == 1 && d.first == (int64_t)k
       && strstr(gk_last_error(), "row 2"), "one element 16 ulps off fails, named: %s", gk_last_error());
    /* NaN where a number is required, a number where NaN is required */
    memcpy(bad, out, n * 4);
    bad[4] = NAN;
    memset(&d, 0, sizeof d);
    ok(gk__elementwise_step_check(in, bad, dx, dy, u, &d) == GK_EMISMATCH && d.outside == 1, "NaN for a number fails");
    float x2[4] = { 0.2f, 1, 1, 2.0f }, y2[4];
    memcpy(y2, x2, sizeof y2);
    t_run(y2, 4, 1, 1);
    y2[0] = 0.2f;
    memset(&d, 0, sizeof d);
    ok(gk__elementwise_step_check(x2, y2, 4, 1, u, &d) == GK_EMISMATCH && d.outside == 1 && d.first == 0,
       "a number where log(0.2) + 1 < 0 requires NaN fails");
    free(in); free(out); free(bad);
}

static void test_sizes(void)
{
    ok(gk_elementwise_check_size(1, 1, 0) == GK_OK, "1x1, 0 iterations is a problem");
    ok(gk_elementwise_check_size(0, 5, 1) == GK_EINVAL && strstr(gk_last_error(), ">= 1"), "dimx 0: %s", gk_last_error());
    ok(gk_elementwise_check_size(5, -3, 1) == GK_EINVAL, "dimy -3: %s", gk_last_error());
    ok(gk_elementwise_check_size(5, 5, -1) == GK_EINVAL && strstr(gk_last_error(), "iterations"), "-1 iterations: %s",
       gk_last_error());
    ok(gk_elementwise_check_size(2147483647, 2147483647, 1) == GK_EINVAL && strstr(gk_last_error(), "do not fit"),
       "2^31-1 squared floats: %s", gk_last_error());
    ok(gk_elementwise_check_size(2147483648LL, 1, 1) == GK_EINVAL, "dimx 2^31: %s", gk_last_error());
}

static void test_space(void)
{
    const gk_space *s = gk__space_find("elementwise");
    ok(s == &gk__space_elementwise, "the registry finds the elementwise space");
    gk_config c, full;
    char why[200];
    struct { const char *cfg, *reason; } bad[] = {
        { "BX=1024,BY=2", "threads 2048 > 1024" }, { "BX=48", "not a multiple of 32" },
        { "BX=16,BY=1", "not a multiple of 32" }, { "MAXRREG=16", "MAXRREG 16 < 24" },
        { "MAXRREG=255,BX=1024", "registers per SM" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gk__config_clear(&c);
        ok(gk__config_parse(bad[i].cfg, &c) == GK_OK && gk__space_complete(s, &c, &full) == GK_OK
           && s->reject(&full, NULL, why, sizeof why) == 1 && strstr(why, bad[i].reason), "%s rejected: %s",
           bad[i].cfg, why);
    }
    gk__config_clear(&c);
    ok(gk__config_parse("VEC=9", &c) == GK_OK && gk__space_complete(s, &c, &full) == GK_EINVAL, "VEC=9 out of range: %s",
       gk_last_error());
    gk__config_clear(&c);
    ok(gk__space_complete(s, &c, &full) == GK_OK && s->reject(&full, NULL, why, sizeof why) == 0, "defaults pass");
    long total = gk__space_count(s), valid = 0;
    for (long k = 0; k < total; k++) {
        gk__space_at(s, k, &c);
        valid += !s->reject(&c, NULL, why, sizeof why);
    }
    /* (BX, BY) pairs with <= 1024 threads: 6 + 5 + 4, x VEC 3 x UNROLL 2 x GRID 3 x MAXRREG 2 x SKIP 2 */
    ok(total == 1944 && valid == 1620, "%ld of %ld listed combinations pass the constraints (want 1620 of 1944)", valid,
       total);
}

static void test_run_cpu(void)
{
    gk_context *ctx;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    if (!ok(gk_context_create(&ctx, &o) == GK_OK, "CPU context")) return;
    int64_t dx = 67, dy = 9;
    size_t n = (size_t)(dx * dy);
    float *a = malloc(n * 4), *want = malloc(n * 4);
    gk_elementwise_random(a, dx, dy, 3);
    memcpy(want, a, n * 4);
    t_run(want, dx, dy, 12);
    gk_elementwise_options eo = t_elementwise_opts(1, "VEC=4");
    gk_report rep = t_report();
    size_t w = 0;
    ok(t_elementwise_run(ctx, a, dx, dy, 12, &eo, &rep) == GK_OK && rep.checked && rep.config_ignored
       && same_bits(a, want, n, &w), "gk_elementwise_run on the CPU, checked: %s", gk_last_error());
    eo.config = "VEC=0";
    ok(t_elementwise_run(ctx, a, dx, dy, 1, &eo, &rep) == GK_EINVAL, "a bad --config is refused on the CPU too: %s",
       gk_last_error());
    ok(t_elementwise_run(ctx, a, 0, dy, 1, NULL, &rep) == GK_EINVAL, "dimx 0 refused: %s", gk_last_error());
    gk_context_destroy(ctx);
    free(a); free(want);
}

/* ---- the GPU tuned kernel's log, evaluated here ----
 * log_pos_normal in src/gpu/elementwise.cu with the same operations (fmaf,
 * float + and *, an int to float conversion, all IEEE round to nearest, so
 * the same bits as on the GPU, where tests/test_elementwise_gpu.c checks it
 * against logf on every float in [1, FLT_MAX]); its constants are read from
 * the .cu file, so a change there is tested here too. */
static uint32_t lg_k[11];       /* the hex constants of log_pos_normal, in order */

static float lg_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float lg_eval(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    int32_t b = (int32_t)u;
    int32_t e = (int32_t)((uint32_t)(b - (int32_t)lg_k[0]) & lg_k[1]);
    float f = lg_f((uint32_t)(b - e)) - 1.0f;
    float i = (float)e;
    float r = fmaf(lg_f(lg_k[2]), f, lg_f(lg_k[3]));
    for (int k = 4; k < 10; k++)
        r = fmaf(r, f, lg_f(lg_k[k]));
    r = fmaf(r, f, -0.5f);
    r = f * r;
    r = fmaf(r, f, f);
    return fmaf(i, lg_f(lg_k[10]), r);
}

/* The hex constants (0x and 8 digits) of log_pos_normal's body, comments
 * left out; 0 when the file or the function is not found. */
static int lg_read(void)
{
    const char *d = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/src/gpu/elementwise.cu", d && *d ? d : ".");
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[len] = '\0';
    char *p = strstr(text, "float log_pos_normal(float v)");
    char *end = p ? strstr(p, "\n}\n") : NULL;
    if (!end) return 0;
    int n = 0;
    for (; p < end && n <= 11; p++) {
        if (p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n') p++;
            continue;
        }
        if (p[0] == '0' && p[1] == 'x') {
            char *q;
            unsigned long x = strtoul(p, &q, 16);
            if (q - p == 10) {
                if (n < 11) lg_k[n] = (uint32_t)x;
                n++;
            }
            p = q - 1;
        }
    }
    return n == 11;
}

static void test_gpu_log(void)
{
    if (!ok(lg_read(), "src/gpu/elementwise.cu: log_pos_normal and its 11 constants found")) return;
    ok(lg_k[0] == 0x3f2aaaabu && lg_k[1] == 0xff800000u && lg_k[10] == 0x33b17218u,
       "its split at 2/3 and its ln2 * 2^-23");
    /* every float in [1, 2^20): 20 binades, all mantissas */
    double worst = 0;
    int64_t lo = 0x3f800000, hi = 0x49800000;
    int64_t at = -1;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(max : worst)
#endif
    for (int64_t u = lo; u < hi; u++) {
        float v = lg_f((uint32_t)u);
        double x = log((double)v), r = lg_eval(v), err;
        if (x == 0)
            err = r == 0 ? 0 : INFINITY;
        else {
            int ex;
            frexp(x, &ex);                          /* x in [2^(ex-1), 2^ex): a float ulp is 2^(ex-24) */
            err = fabs(r - x) / ldexp(1.0, ex - 24);
        }
        if (err > worst) worst = err;
    }
    for (int64_t u = lo; u < hi && worst > 1; u++) {    /* name one, for the message */
        float v = lg_f((uint32_t)u);
        double x = log((double)v);
        int ex;
        frexp(x, &ex);
        if (fabs(lg_eval(v) - x) > ldexp(1.0, ex - 24)) { at = u; break; }
    }
    char where[64] = "";
    if (at >= 0) snprintf(where, sizeof where, "; beyond 1 at %.9g", (double)lg_f((uint32_t)at));
    ok(worst <= 1.0, "the GPU tuned kernel's log on all %lld floats in [1, 2^20): within %.4f ulp of the exact log "
       "(bound 1; the check allows 1.5)%s", (long long)(hi - lo), worst, where);
}

int main(void)
{
    no_plan();
    test_known();
    test_backends();
    test_enclosure_sound();
    test_enclosure_strict();
    test_sizes();
    test_space();
    test_run_cpu();
    test_gpu_log();
    return done_testing();
}
