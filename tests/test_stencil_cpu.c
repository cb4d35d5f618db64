/* test_stencil_cpu.c - the CPU stencil against a plain triple loop written
 * here; coefficients, grid files, the generator and the comparison rules. */
#include "gk.h"
#include "api/commands.h"
#include "tap.h"
#include "test_api.h"
#include "test_stencil_common.h"
#include "cpu/stencil_cpu.h"

#include <stdio.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static char tmpdir[256];

static const char *tfile(const char *name, const char *text)
{
    static char path[4][512];
    static int k;
    char *p = path[k++ & 3];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    if (text) {
        FILE *f = fopen(p, "w");
        fputs(text, f);
        fclose(f);
    }
    return p;
}

int main(void)
{
    no_plan();
    snprintf(tmpdir, sizeof tmpdir, "%s/gk-stencil-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) { printf("Bail out! mkdtemp\n"); return 1; }

    /* Default coefficients, spot-checked against DESIGN.md's table. */
    const double *dc = gk_stencil_default_coeffs;
    ok(dc[13] == .9415 && dc[14] == .02345 && dc[12] == .01531 && dc[4] == .02333 && dc[22] == .02111,
       "default: ZZZ, PZZ, NZZ, ZZN, ZZP");
    ok(dc[0] == .01537 && dc[26] == -.02018 && dc[7] == -.04214 && dc[20] == .02734 && dc[10] == -.01334
       && dc[16] == -.03512 && dc[24] == -.01242 && dc[2] == -.01357, "default: NNN, PPP, ZPN, PNP, ZNZ, ZPZ, NPP, PNN");

    /* CPU solver against the triple loop. */
    for (int cs = 0; cs < 2; cs++) {
        const double *c = cs ? t_random_coeffs : gk_stencil_default_coeffs;
        for (size_t si = 0; si < sizeof t_sizes / sizeof t_sizes[0]; si++)
            for (size_t ti = 0; ti < sizeof t_steps / sizeof t_steps[0]; ti++) {
                int nx = t_sizes[si][0], ny = t_sizes[si][1], nz = t_sizes[si][2], steps = t_steps[ti];
                size_t n = (size_t)nx * ny * nz;
                double *a = malloc(n * 8), *b = malloc(n * 8), *r = malloc(n * 8);
                uint64_t s = 1000 + si * 10 + ti;
                for (size_t i = 0; i < n; i++) a[i] = t_rand(&s);
                memcpy(b, a, n * 8);
                memcpy(r, a, n * 8);
                t_reference(r, nx, ny, nz, c, steps);
                int exact, exact2;
                gk_status st = gk__stencil_cpu(a, nx, ny, nz, c, steps, GK_CPU_ISA_AUTO);
                double d = t_maxdiff(a, r, n, &exact);
                gk_status st2 = gk__stencil_cpu_reference(b, nx, ny, nz, c, steps);
                double d2 = t_maxdiff(b, r, n, &exact2);
                double tol = gk_stencil_tolerance(steps, 1.0 + gk__grid_max_abs(r, (int64_t)n));
                ok(st == GK_OK && d <= tol && exact, "cpu %dx%dx%d nt=%d %s coeffs: max diff %.3g, %s",
                   nx, ny, nz, steps, cs ? "random" : "default", d, exact ? "bit-exact" : "NOT bit-exact");
                ok(st2 == GK_OK && d2 <= tol && exact2, "cpu reference %dx%dx%d nt=%d %s: max diff %.3g",
                   nx, ny, nz, steps, cs ? "random" : "default", d2);
                free(a); free(b); free(r);
            }
    }

    /* Every row-kernel code path (each instruction set this CPU has,
     * forced) and the temporal sweeps (T = 1..4 steps per pass, step counts
     * 0, 1, T-1, T, T+1, 2T+1: whole passes and remainders), bit-identical
     * to the triple loop on awkward and tiny grids (x tails of every length
     * below the vector blocks, y blocks with 1..3 leftover rows, grids
     * smaller than the temporal halo), both coefficient sets. */
    {
        /* and the AVX-512 kernel's aligned rows: nx = 8 and 64 (the last
         * block's right neighbour is the next row's zero pad), 40 (a 32-wide
         * block and an 8-wide one); 40x37x35: several y blocks of both
         * sweeps with leftover rows and several z chunks of the one-step
         * sweep */
        static const int sz[][3] = { { 1, 1, 1 }, { 2, 3, 5 }, { 7, 6, 3 }, { 41, 5, 4 }, { 70, 35, 9 },
                                     { 33, 66, 7 }, { 8, 4, 3 }, { 64, 9, 5 }, { 40, 37, 35 } };
        double one1 = 1;
        ok(gk__stencil_cpu_t(&one1, 1, 1, 1, gk_stencil_default_coeffs, 1, 1, (gk_cpu_isa)7) == GK_ENODEV,
           "unknown ISA refused: %s", gk_last_error());
        for (gk_cpu_isa isa = GK_CPU_ISA_GENERIC; isa <= GK_CPU_ISA_AVX512; isa++) {
            if (!gk_cpu_isa_supported(isa)) {
                ok(gk__stencil_cpu_t(&one1, 1, 1, 1, gk_stencil_default_coeffs, 1, 1, isa) == GK_ENODEV,
                   "%s not on this CPU: refused", gk__stencil_cpu_isa_name(isa));
                skip("not on this CPU", gk__stencil_cpu_isa_name(isa));
                continue;
            }
            int bad = 0, runs = 0;
            char first[200] = "";
            for (int T = 1; T <= 4; T++) {
                int stv[6] = { 0, 1, T - 1, T, T + 1, 2 * T + 1 };
                for (int cs = 0; cs < 2; cs++)
                    for (size_t si = 0; si < sizeof sz / sizeof sz[0]; si++)
                        for (int ti = 0; ti < 6; ti++) {
                            if (ti == 2 && T == 1) continue;              /* T-1 = 0 again */
                            int nx = sz[si][0], ny = sz[si][1], nz = sz[si][2], steps = stv[ti];
                            const double *c = cs ? t_random_coeffs : gk_stencil_default_coeffs;
                            size_t n = (size_t)nx * ny * nz;
                            double *a = malloc(n * 8), *r = malloc(n * 8);
                            uint64_t sd = 7000 + si * 31 + ti * 7 + T;
                            for (size_t i = 0; i < n; i++) a[i] = t_rand(&sd);
                            memcpy(r, a, n * 8);
                            t_reference(r, nx, ny, nz, c, steps);
                            gk_status st = gk__stencil_cpu_t(a, nx, ny, nz, c, steps, T, isa);
                            int exact;
                            double d = t_maxdiff(a, r, n, &exact);
                            runs++;
                            if (st || !exact) {
                                if (!bad++)
                                    snprintf(first, sizeof first, "T=%d %dx%dx%d nt=%d %s: max diff %g%s", T, nx, ny,
                                             nz, steps, cs ? "random" : "default", d, st ? " (failed)" : "");
                            }
                            free(a); free(r);
                        }
            }
            ok(bad == 0, "%s: %d runs (T = 1..4, steps 0..2T+1, 9 grids, 2 coefficient sets) bit-identical "
               "to the triple loop%s%s", gk__stencil_cpu_isa_name(isa), runs, bad ? "; first failure: " : "", first);
        }
#ifdef _OPENMP
        /* other thread counts (each thread has its own share of the rings;
         * more threads than y blocks leaves some idle), automatic ISA */
        {
            int saved = omp_get_max_threads(), bad = 0, runs = 0;
            for (int th = 1; th <= 5; th += 2) {
                omp_set_num_threads(th);
                for (int T = 1; T <= 4; T++) {
                    int nx = 40, ny = 70, nz = 12, steps = 2 * T + 1;
                    size_t n = (size_t)nx * ny * nz;
                    double *a = malloc(n * 8), *r = malloc(n * 8);
                    uint64_t sd = 500 + th * 10 + T;
                    for (size_t i = 0; i < n; i++) a[i] = t_rand(&sd);
                    memcpy(r, a, n * 8);
                    t_reference(r, nx, ny, nz, t_random_coeffs, steps);
                    gk_status st = gk__stencil_cpu_t(a, nx, ny, nz, t_random_coeffs, steps, T, GK_CPU_ISA_AUTO);
                    int exact;
                    t_maxdiff(a, r, n, &exact);
                    runs++;
                    bad += st || !exact;
                    free(a); free(r);
                }
            }
            omp_set_num_threads(saved);
            ok(bad == 0, "1, 3 and 5 threads, T = 1..4, 40x70x12, 2T+1 steps: %d of %d runs bit-identical", runs - bad,
               runs);
        }
#else
        skip("no OpenMP", "other thread counts");
#endif
        double one = 1;
        ok(gk__stencil_cpu_t(&one, 1, 1, 1, gk_stencil_default_coeffs, 1, 0, GK_CPU_ISA_AUTO) == GK_EINVAL
           && gk__stencil_cpu_t(&one, 1, 1, 1, gk_stencil_default_coeffs, 1, GK_STENCIL_CPU_TMAX + 1, GK_CPU_ISA_AUTO) == GK_EINVAL,
           "steps per pass outside 1..%d refused: %s", GK_STENCIL_CPU_TMAX, gk_last_error());
        /* the pieces the benchmark uses: buffers kept between runs */
        int nx = 19, ny = 13, nz = 11;
        size_t n = (size_t)nx * ny * nz;
        double *a = malloc(n * 8), *r = malloc(n * 8), *o = malloc(n * 8);
        uint64_t sd = 99;
        for (size_t i = 0; i < n; i++) a[i] = t_rand(&sd);
        memcpy(r, a, n * 8);
        t_reference(r, nx, ny, nz, gk_stencil_default_coeffs, 7);
        gk_stencil_cpu *g;
        int exact = 0;
        if (ok(gk__stencil_cpu_open(&g, nx, ny, nz, gk_stencil_default_coeffs, GK_CPU_ISA_AUTO) == GK_OK, "CPU stencil open")) {
            gk__stencil_cpu_load(g, a);
            gk__stencil_cpu_steps(g, 5, 4);        /* dirty the buffers, then start over */
            gk__stencil_cpu_load(g, a);
            gk_status st = gk__stencil_cpu_steps(g, 3, 3);
            if (!st) st = gk__stencil_cpu_steps(g, 4, 2);
            gk__stencil_cpu_store(g, o);
            t_maxdiff(o, r, n, &exact);
            ok(st == GK_OK && exact, "reloaded buffers, 3 steps at T=3 then 4 at T=2: bit-identical");
            ok(gk__stencil_cpu_steps(g, -1, 1) == GK_EINVAL, "negative steps refused");
            gk__stencil_cpu_close(g);
        }
        free(a); free(r); free(o);
    }

    /* Zero halo, by hand: all-ones 3x3x3, one step; the corner (0,0,0) sees
     * only the neighbours with dx,dy,dz in {0,+1}. */
    {
        double g[27], want = 0;
        for (int i = 0; i < 27; i++) g[i] = 1.0;
        for (int k = 0; k < 27; k++)
            if (k / 9 >= 1 && k / 3 % 3 >= 1 && k % 3 >= 1) want += dc[k];
        gk__stencil_cpu(g, 3, 3, 3, dc, 1, GK_CPU_ISA_AUTO);
        double sum = 0;
        for (int k = 0; k < 27; k++) sum += dc[k];
        ok(fabs(g[0] - want) < 1e-15 && fabs(g[13] - sum) < 1e-15,
           "halo is zero: corner %.17g want %.17g, centre %.17g want %.17g", g[0], want, g[13], sum);
    }

    /* Random grid: reproducible, seed-dependent, in [-1,1), thread-count independent. */
    {
        int nx = 31, ny = 7, nz = 5;
        size_t n = (size_t)nx * ny * nz;
        double *a = malloc(n * 8), *b = malloc(n * 8);
        gk_grid_random(a, nx, ny, nz, 42);
        gk_grid_random(b, nx, ny, nz, 42);
        ok(!memcmp(a, b, n * 8), "random grid: same seed, same grid");
        gk_grid_random(b, nx, ny, nz, 43);
        size_t same = 0;
        for (size_t i = 0; i < n; i++) same += a[i] == b[i];
        ok(same == 0, "random grid: another seed changes every value (%zu equal)", same);
        double lo = 1, hi = -1, mean = 0;
        for (size_t i = 0; i < n; i++) { lo = a[i] < lo ? a[i] : lo; hi = a[i] > hi ? a[i] : hi; mean += a[i]; }
        mean /= (double)n;
        ok(lo >= -1 && hi < 1 && lo < -0.9 && hi > 0.9 && fabs(mean) < 0.1, "random grid in [-1,1): %g..%g mean %g",
           lo, hi, mean);
#ifdef _OPENMP
        int nt = omp_get_max_threads();
        omp_set_num_threads(1);
        gk_grid_random(b, nx, ny, nz, 42);
        omp_set_num_threads(nt > 1 ? nt : 2);
        ok(!memcmp(a, b, n * 8), "random grid: one thread gives the same grid as %d", nt);
#else
        skip("no OpenMP", "random grid thread independence");
#endif
        /* files */
        const char *p = tfile("g.bin", NULL);
        ok(gk_grid_write(p, nx, ny, nz, a) == GK_OK, "grid write");
        memset(b, 0, n * 8);
        ok(gk_grid_read(p, nx, ny, nz, b) == GK_OK && !memcmp(a, b, n * 8), "grid read round-trips");
        ok(gk_grid_read(p, nx, ny, nz + 1, b) == GK_EFORMAT && strstr(gk_last_error(), "bytes"),
           "grid of the wrong size refused: %s", gk_last_error());
        a[17] = NAN;
        gk_grid_write(p, nx, ny, nz, a);
        ok(gk_grid_read(p, nx, ny, nz, b) == GK_EFORMAT, "grid with a NaN refused: %s", gk_last_error());
        ok(gk_grid_read(tfile("absent.bin", NULL), 1, 1, 1, b) == GK_EIO, "missing grid file: %s", gk_last_error());
        unlink(p);
        free(a); free(b);
    }

    /* Coefficient files. */
    {
        double c[27];
        char path[600];
        const char *srcdir = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
        snprintf(path, sizeof path, "%s/tests/data/stencil_coeffs_random.txt", srcdir);
        ok(gk_stencil_coeffs_read(path, c) == GK_OK && !memcmp(c, t_random_coeffs, sizeof c),
           "coefficient file read (random set)");
        char text[2048] = "";
        for (int i = 0; i < 27; i++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%.17g%s", dc[i], i % 3 == 2 ? ",\n" : ", ");
        ok(gk_stencil_coeffs_read(tfile("c.txt", text), c) == GK_OK && !memcmp(c, dc, sizeof c),
           "coefficients with commas and newlines");
        struct { const char *text, *what; } bad[] = {
            { "1 2 3", "3 numbers" },
            { "", "empty file" },
            { "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "26 numbers" },
            { "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "28 numbers" },
            { "1 1 1 1 1 1 1 1 1 1 1 1 1 nan 1 1 1 1 1 1 1 1 1 1 1 1 1", "a NaN" },
            { "1 1 1 1 1 1 1 1 1 1 1 1 1 inf 1 1 1 1 1 1 1 1 1 1 1 1 1", "an Inf" },
            { "1 1 1 1 1 1 1 1 1 1 1 1 1 1e999 1 1 1 1 1 1 1 1 1 1 1 1 1", "an overflow" },
            { "1 1 1 1 1 1 1 1 1 1 1 1 1 abc 1 1 1 1 1 1 1 1 1 1 1 1 1", "a word" },
            { "1 1 1 1 1 1 1 1 1 1 1 1 1 2x 1 1 1 1 1 1 1 1 1 1 1 1 1", "a number with junk" },
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            const char *p = tfile("bad.txt", bad[i].text);
            gk_status st = gk_stencil_coeffs_read(p, c);
            ok(st == GK_EFORMAT && strstr(gk_last_error(), p), "coefficient file with %s refused: %s",
               bad[i].what, gk_last_error());
        }
    }

    /* Problem checks and memory. */
    ok(gk_stencil_check_size(0, 1, 1, 0) == GK_EINVAL, "size 0 refused");
    ok(gk_stencil_check_size(4, -2, 4, 0) == GK_EINVAL, "negative size refused");
    ok(gk_stencil_check_size(4, 4, 4, -1) == GK_EINVAL, "negative steps refused");
    ok(gk_stencil_check_size(1, 1, 1, 0) == GK_OK, "1x1x1, 0 steps accepted");
    double one = 1;
    ok(gk__stencil_cpu(&one, 1, 1, 1, dc, -3, GK_CPU_ISA_AUTO) == GK_EINVAL, "gk_stencil_cpu refuses negative steps");
    ok(gk__host_memory_check((uint64_t)1 << 62, "a huge grid") == GK_ENOMEM && strstr(gk_last_error(), "needs"),
       "host memory check: %s", gk_last_error());
    ok(gk__stencil_cpu_bytes(10, 10, 10) == 2 * (24 * 12 * 12 + 8) * 8,
       "CPU buffers: two padded grids (x pitch 10 rounded up to 8, plus 8; 8 spare doubles each)");

    /* Comparison rule. */
    {
        double a[4] = { 1, -2, 0.5, 0 }, r[4] = { 1, -2, 0.5, 0 };
        gk__stencil_diff d;
        ok(gk__stencil_compare(a, r, 4, 10, 1, &d) == GK_OK && d.max_abs == 0, "equal grids compare equal");
        ok(d.tolerance == 8.0 * 10 * 0x1p-52 * 2, "tolerance = 8 ulp x steps x scale (%g)", d.tolerance);
        a[2] += 1e-9;
        ok(gk__stencil_compare(a, r, 4, 10, 1, &d) == GK_EMISMATCH, "a 1e-9 error is caught: %s", gk_last_error());
        a[2] = NAN;
        ok(gk__stencil_compare(a, r, 4, 10, 1, &d) == GK_EMISMATCH && d.nonfinite == 1, "a NaN is caught");
    }
    unlink(tfile("c.txt", NULL));
    unlink(tfile("bad.txt", NULL));
    rmdir(tmpdir);
    return done_testing();
}
