/* test_gemm_cpu.c - the CPU matrix multiply: the backend (every instruction
 * set this CPU has) and the library's reference loop against the tests' own
 * long double loop on awkward shapes and random data; the comparison and
 * its bound (a single wrong term is caught); gk_gemm_run with --check; the
 * size rules; the matrix reader's rules; the tuner's constraints on the
 * space (every configuration the space lets through satisfies what the
 * kernel needs, and each rule refuses what it must). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_gemm_ref.h"
#include "cpu/gemm_cpu.h"
#include "tune/tune.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void check_shapes(void)
{
    for (size_t s = 0; s < sizeof t_shapes / sizeof t_shapes[0]; s++) {
        int m = t_shapes[s][0], n = t_shapes[s][1], k = t_shapes[s][2];
        float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
        double *ref = malloc((size_t)m * n * 8), *ab = malloc((size_t)m * n * 8), *lref = malloc((size_t)m * n * 16);
        gk_matrix_random(a, m, k, 100 + s);
        gk_matrix_random(b, k, n, 200 + s);
        t_gemm_ref(a, b, m, n, k, ref, ab);
        gk__gemm_cpu_reference(a, b, lref, lref + (size_t)m * n, m, n, k);
        double worst = 0, worst_abs = 0;
        for (size_t i = 0; i < (size_t)m * n; i++) {
            double e = fabs(lref[i] - ref[i]) / (ab[i] > 0 ? ab[i] : 1);
            if (e > worst) worst = e;
            e = fabs(lref[(size_t)m * n + i] - ab[i]) / (ab[i] > 0 ? ab[i] : 1);
            if (e > worst_abs) worst_abs = e;
        }
        ok(worst < 1e-13 && worst_abs < 1e-13, "%dx%dx%d: the library's reference loop (double) agrees with the "
           "tests' (%.2g, |A||B| %.2g)", m, n, k, worst, worst_abs);
        for (gk_cpu_isa isa = GK_CPU_ISA_GENERIC; isa <= GK_CPU_ISA_AVX512; isa++) {
            if (!gk_cpu_isa_supported(isa)) {
                skip("instruction set not on this CPU", gk__gemm_cpu_isa_name(isa));
                continue;
            }
            for (size_t i = 0; i < (size_t)m * n; i++) c[i] = NAN;     /* every element must be written */
            gk_status st = gk__gemm_cpu(a, b, c, m, n, k, isa);
            double r = t_gemm_ratio(c, ref, ab, m, n, k);
            ok(st == GK_OK && r <= 1, "%dx%dx%d %s backend within the bound (%.3g of it)", m, n, k,
               gk__gemm_cpu_isa_name(isa), r);
        }
        free(a); free(b); free(c); free(ref); free(ab); free(lref);
    }
}

static void check_compare(void)
{
    int m = 37, n = 29, k = 53;
    float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
    double *ref = malloc((size_t)m * n * 8), *ab = malloc((size_t)m * n * 8);
    gk_matrix_random(a, m, k, 5);
    gk_matrix_random(b, k, n, 6);
    t_gemm_ref(a, b, m, n, k, ref, ab);
    gk__gemm_diff d;
    for (size_t i = 0; i < (size_t)m * n; i++) c[i] = (float)ref[i];
    ok(gk__gemm_compare(c, ref, ab, m, n, k, &d) == GK_OK && d.max_ratio < 0.05,
       "the rounded exact product passes (%.3g of the bound)", d.max_ratio);
    /* one term of one element dropped: (5, 7) without A[5][11] B[11][7] */
    size_t e = 5 * (size_t)n + 7;
    c[e] = (float)(ref[e] - (double)a[5 * k + 11] * b[11 * n + 7]);
    gk__clear_error();
    ok(gk__gemm_compare(c, ref, ab, m, n, k, &d) == GK_EMISMATCH && d.worst == (int64_t)e
       && strstr(gk_last_error(), "(5, 7)"), "a missing k term is caught at its element: %s", gk_last_error());
    c[e] = (float)ref[e];
    c[3] = NAN;
    ok(gk__gemm_compare(c, ref, ab, m, n, k, &d) == GK_EMISMATCH && d.nonfinite == 1, "a NaN in C is caught");
    ok(gk_gemm_tolerance(1000, 1.0) == 2.0 * 1000 * FLT_EPSILON + 1000 * (double)FLT_MIN,
       "the tolerance is 2 K eps |A||B| + K FLT_MIN");
    free(a); free(b); free(c); free(ref); free(ab);
}

static void check_run(void)
{
    gk_context *ctx;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    if (!ok(gk_context_create(&ctx, &o) == GK_OK, "CPU context")) return;
    int m = 61, n = 43, k = 301;
    float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
    gk_matrix_random(a, m, k, 1);
    gk_matrix_random(b, k, n, 2);
    gk_gemm_options go = t_gemm_opts(1, NULL);
    gk_report rep = t_report();
    ok(t_gemm_run(ctx, a, b, c, m, n, k, &go, &rep) == GK_OK && rep.checked && rep.backend == GK_BACKEND_CPU
       && rep.check_max_rel <= 1, "gk_gemm_run on the CPU with the check (%.3g of the bound)", rep.check_max_rel);
    go.config = "BM=64,TM=4,VEC=2";
    ok(t_gemm_run(ctx, a, b, c, m, n, k, &go, &rep) == GK_OK && rep.config_ignored,
       "a valid --config is accepted and reported ignored on the CPU");
    go.config = "BM=64,TM=6";
    ok(t_gemm_run(ctx, a, b, c, m, n, k, &go, &rep) == GK_EINVAL, "an impossible --config is refused on the CPU");
    go.config = NULL;
    ok(t_gemm_run(ctx, a, b, c, 0, n, k, &go, &rep) == GK_EINVAL, "M = 0 is refused");
    ok(t_gemm_run(ctx, a, b, c, m, -1, k, &go, &rep) == GK_EINVAL, "N < 0 is refused");
    ok(t_gemm_run(ctx, a, b, c, m, n, (int64_t)1 << 31, &go, &rep) == GK_EINVAL, "K > INT32_MAX is refused");
    ok(gk_gemm_check_size(2147483647, 2147483647, 1) == GK_EINVAL && strstr(gk_last_error(), "overflow"),
       "sizes whose bytes overflow are refused: %s", gk_last_error());
    ok(gk_gemm_check_size(1, 1, 1) == GK_OK, "1x1x1 is a problem");
    free(a); free(b); free(c);
    gk_context_destroy(ctx);
}

static void check_reader(void)
{
    char path[] = "/tmp/gk-gemm-XXXXXX";
    int fd = mkstemp(path);
    if (!ok(fd >= 0, "temp file")) return;
    float v[6] = { 1, 2, 3, 4, 5, 6 }, r[6];
    ok(write(fd, v, sizeof v) == sizeof v, "write 6 floats");
    close(fd);
    ok(gk_matrix_read(path, 2, 3, r) == GK_OK && !memcmp(r, v, sizeof v), "read a 2x3 matrix");
    ok(gk_matrix_read(path, 3, 3, r) == GK_EFORMAT && strstr(gk_last_error(), "24 bytes"), "wrong size: %s",
       gk_last_error());
    ok(gk_matrix_read(path, 0, 3, r) == GK_EINVAL, "zero rows");
    v[4] = NAN;
    ok(gk_matrix_write(path, 2, 3, v) == GK_OK, "write with a NaN");
    ok(gk_matrix_read(path, 2, 3, r) == GK_EFORMAT && strstr(gk_last_error(), "element (1, 1) is NaN"),
       "a NaN is refused with its row and column: %s", gk_last_error());
    v[4] = -INFINITY;
    gk_matrix_write(path, 2, 3, v);
    ok(gk_matrix_read(path, 2, 3, r) == GK_EFORMAT && strstr(gk_last_error(), "infinite"), "an infinity is refused");
    unlink(path);
}

/* The space: every configuration the constraints let through (no device)
 * meets the kernel's compile-time requirements (gemm.cu's #error lines) and
 * its launch limits, checked here independently; each rule bites. */
static void check_space(void)
{
    const gk_space *s = gk__space_find("gemm");
    if (!ok(s != NULL, "the gemm space exists")) return;
    long n = gk__space_count(s), valid = 0, bad = 0;
    char why[256];
    for (long i = 0; i < n; i++) {
        gk_config c;
        gk__space_at(s, i, &c);
        if (s->reject(&c, NULL, why, sizeof why)) continue;
        valid++;
        int bm = gk__param(&c, "BM"), bn = gk__param(&c, "BN"), bk = gk__param(&c, "BK"), tm = gk__param(&c, "TM"),
            tn = gk__param(&c, "TN"), vec = gk__param(&c, "VEC"), st = gk__param(&c, "STAGES"),
            un = gk__param(&c, "UNROLL");
        long th = (long)(bm / tm) * (bn / tn);
        long smem = (long)st * (bk * (bm + 4) + bk * bn) * 4;
        if (tm % 4 || tn % 4 || bm % tm || bn % tn || th > 1024 || th % 32 || (bm * bk) % (th * vec)
            || (bk * bn) % (th * vec) || bk % vec || bn % vec || bk % un || smem > 227 * 1024 || tm * tn > 128)
            bad++;
    }
    ok(valid > 100 && bad == 0, "%ld of %ld configurations pass the constraints; %ld of them break a kernel rule",
       valid, n, bad);
    gk_config def;
    gk__space_complete(s, NULL, &def);
    ok(!s->reject(&def, NULL, why, sizeof why), "the defaults pass (%s)", why);
    static const struct { const char *cfg, *why; } refused[] = {
        { "TM=6", "groups of 4" }, { "BM=512,BN=512,TM=4,TN=4", "1024" }, { "BM=48,TM=16,BN=16,TN=4", "warps" },
        { "VEC=3", "1, 2 or 4" }, { "BK=6,VEC=4", "divide BK" }, { "BK=8,UNROLL=16", "UNROLL" },
        { "TM=16,TN=16", "128 accumulators" }, { "BM=256,BN=256,BK=64,TM=16,TN=8,VEC=4", "shared memory\\|floats of the next chunk" },
        { "BM=64,BN=64,BK=64", "next chunk" }, { "MAXRREG=64", "MAXRREG" },
        { "BM=64,BN=64,TM=4,TN=4,MINB=8", "MINB" } };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        gk_config c;
        gk__config_clear(&c);
        gk__clear_error();
        gk_status st = gk_config_validate("gemm", refused[i].cfg, NULL, 0);
        const char *msg = gk_last_error();
        int hit = 0;
        char pats[128];
        snprintf(pats, sizeof pats, "%s", refused[i].why);
        for (char *save = NULL, *p = strtok_r(pats, "\\|", &save); p; p = strtok_r(NULL, "\\|", &save))
            hit |= strstr(msg, p) != NULL;
        ok(st == GK_EINVAL && hit, "%s is refused: %s", refused[i].cfg, msg);
    }
}

int main(void)
{
    no_plan();
    check_shapes();
    check_compare();
    check_run();
    check_reader();
    check_space();
    return done_testing();
}
