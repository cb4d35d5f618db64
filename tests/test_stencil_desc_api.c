/* test_stencil_desc_api.c - stencil descriptions through the public API on
 * the CPU backend: gk_stencil_run and plans with problem.desc, float32 and
 * float64 grids, --check (bit for bit), the struct_size rule of the grown
 * gk_stencil_problem, the typed grid files, and what is refused.  Results
 * against the naive loop of test_stencil_naive.h. */
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_stencil_naive.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

static char tmpdir[256];
static const char *tpath(const char *name)
{
    static char p[4][512];
    static int k;
    char *s = p[k++ & 3];
    snprintf(s, 512, "%s/%s", tmpdir, name);
    return s;
}

int main(void)
{
    no_plan();
    snprintf(tmpdir, sizeof tmpdir, "%s/gk-desc-api.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) { printf("Bail out! mkdtemp\n"); return 1; }
    gk_context_options co;
    gk_context_options_init(&co);
    co.backend = GK_BACKEND_CPU;
    gk_context *ctx = NULL;
    if (gk_context_create(&ctx, &co)) { printf("Bail out! %s\n", gk_last_error()); return 1; }

    /* a few descriptions of each kind through gk_stencil_run with the check */
    const char *descs[] = { "3d-star-r1", "3d-star-r2:periodic", "2d-box-r1:fixed", "2d-star-r4:periodic",
                            "3d-box-r2:fixed", "3d-box-r1:periodic", "2d-box-r3" };
    for (size_t k = 0; k < sizeof descs / sizeof *descs; k++)
        for (int f32 = 0; f32 <= 1; f32++) {
            gk_stencil_desc d;
            gk_stencil_desc_init(&d);
            if (gk_stencil_desc_parse(descs[k], &d)) { ok(0, "parse %s", descs[k]); continue; }
            int r = d.radius, w1 = 2 * r + 1, nw = d.dims == 3 ? w1 * w1 * w1 : w1 * w1;
            double w[729];
            for (int i = 0; i < nw; i++) {
                int dx = i % w1 - r, dy = i / w1 % w1 - r, dz = d.dims == 3 ? i / (w1 * w1) - r : 0;
                w[i] = d.shape == GK_STENCIL_STAR && (dx != 0) + (dy != 0) + (dz != 0) > 1 ? 0 : urand() / nw;
            }
            d.weights = w;
            int64_t nx = 2 * r + 7, ny = 2 * r + 4, nz = d.dims == 3 ? 2 * r + 3 : 1, n = nx * ny * nz;
            size_t e = f32 ? 4 : 8;
            char *g = malloc(n * e), *ref = malloc(n * e);
            for (int64_t i = 0; i < n; i++) {
                if (f32) ((float *)g)[i] = (float)urand();
                else ((double *)g)[i] = urand();
            }
            memcpy(ref, g, n * e);
            if (f32) naive_f32((float *)ref, nx, ny, nz, d.dims, d.shape, r, d.boundary, w, 4);
            else naive_f64((double *)ref, nx, ny, nz, d.dims, d.shape, r, d.boundary, w, 4);
            gk_stencil_problem p;
            gk_stencil_problem_init(&p, nx, ny, nz);
            p.desc = &d;
            p.dtype = f32 ? GK_DTYPE_FLOAT32 : GK_DTYPE_FLOAT64;
            gk_stencil_options o = t_stencil_opts(1, NULL);
            gk_report rep = t_report();
            gk_status st = gk_stencil_run(ctx, &p, g, 4, &o, &rep);
            ok(st == GK_OK && rep.checked && rep.check_max_abs == 0 && rep.dtype == p.dtype && !memcmp(g, ref, n * e) &&
               strstr(rep.config, "-r") && rep.compute >= 0,
               "gk_stencil_run %s %s, 4 steps, checked: the naive loop's bits (%s; config %s)", descs[k],
               f32 ? "f32" : "f64", st ? gk_last_error() : "ok", rep.config);
            free(g); free(ref);
        }

    /* a plan executed twice = 2 + 3 steps = one run of 5 */
    {
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        gk_stencil_desc_parse("3d-star-r2:periodic", &d);
        int64_t nx = 13, ny = 9, nz = 11, n = nx * ny * nz;
        float *a = malloc(n * 4), *b = malloc(n * 4);
        for (int64_t i = 0; i < n; i++) a[i] = b[i] = (float)urand();
        gk_stencil_problem p;
        gk_stencil_problem_init(&p, nx, ny, nz);
        p.desc = &d;
        p.dtype = GK_DTYPE_FLOAT32;
        gk_stencil_plan *plan = NULL;
        gk_status st = gk_stencil_plan_create(ctx, &p, NULL, &plan);
        d.radius = 4;                   /* the plan copied the description */
        if (!st) st = gk_stencil_plan_execute(ctx, plan, a, 2, NULL);
        if (!st) st = gk_stencil_plan_execute(ctx, plan, a, 3, NULL);
        gk_stencil_plan_destroy(plan);
        /* default weights: 1/points at each point of the star */
        double w[125] = { 0 };
        for (int i = 0; i < 125; i++) {
            int dx = i % 5 - 2, dy = i / 5 % 5 - 2, dz = i / 25 - 2;
            if ((dx != 0) + (dy != 0) + (dz != 0) <= 1) w[i] = 1.0 / 13;
        }
        naive_f32(b, nx, ny, nz, 3, GK_STENCIL_STAR, 2, GK_BOUNDARY_PERIODIC, w, 5);
        ok(st == GK_OK && !memcmp(a, b, n * 4), "a plan of 3d-star-r2:periodic f32 (default weights 1/13) executed "
           "for 2 then 3 steps = 5 steps of the naive loop (%s)", st ? gk_last_error() : "ok");
        free(a); free(b);
    }

    /* the classic path through a description: the same bits as problem.coeffs */
    {
        int64_t nx = 10, ny = 9, nz = 8, n = nx * ny * nz;
        double *a = malloc(n * 8), *b = malloc(n * 8), c[27];
        for (int i = 0; i < 27; i++) c[i] = urand() / 27;
        for (int64_t i = 0; i < n; i++) a[i] = b[i] = urand();
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        d.weights = c;
        gk_stencil_problem p1, p2;
        gk_stencil_problem_init(&p1, nx, ny, nz);
        gk_stencil_problem_init(&p2, nx, ny, nz);
        p1.desc = &d;
        p2.coeffs = c;
        gk_report r1 = t_report(), r2 = t_report();
        ok(gk_stencil_run(ctx, &p1, a, 3, NULL, &r1) == GK_OK && gk_stencil_run(ctx, &p2, b, 3, NULL, &r2) == GK_OK &&
           !memcmp(a, b, n * 8) && !strcmp(r1.config, r2.config),
           "3d-box-r1 f64 zero as a description = problem.coeffs, same engine (%s)", r1.config);
        /* a 1.1 program: its gk_stencil_problem ends before desc */
        struct { gk_stencil_problem p; char after[64]; } old;
        memset(&old, 0x5a, sizeof old);
        gk_stencil_problem_init(&old.p, nx, ny, nz);
        old.p.coeffs = c;
        old.p.struct_size = offsetof(gk_stencil_problem, desc);
        memcpy((char *)&old.p + offsetof(gk_stencil_problem, desc), "\xff\xff\xff\xff\xff\xff\xff\xff", 8);
        for (int64_t i = 0; i < n; i++) a[i] = urand();
        memcpy(b, a, n * 8);
        ok(gk_stencil_run(ctx, &old.p, a, 2, NULL, NULL) == GK_OK && gk_stencil_run(ctx, &p2, b, 2, NULL, NULL) == GK_OK &&
           !memcmp(a, b, n * 8), "a 1.1-sized gk_stencil_problem (garbage where desc would be) still runs");
        old.p.struct_size = offsetof(gk_stencil_problem, desc) - 8;
        ok(gk_stencil_run(ctx, &old.p, a, 2, NULL, NULL) == GK_EINVAL, "a struct_size below 1.0's refused: %s",
           gk_last_error());
        free(a); free(b);
    }

    /* refused, by name */
    {
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        double g[64] = { 0 }, c[27] = { 0 };
        gk_stencil_problem p;
        gk_stencil_problem_init(&p, 4, 4, 4);
        p.desc = &d;
        p.coeffs = c;
        ok(gk_stencil_run(ctx, &p, g, 1, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "both"),
           "desc and coeffs both set refused: %s", gk_last_error());
        p.coeffs = NULL;
        gk_stencil_desc_parse("3d-star-r3:periodic", &d);
        ok(gk_stencil_run(ctx, &p, g, 1, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "nx = 4"),
           "periodic r3 on 4^3 refused: %s", gk_last_error());
        gk_stencil_desc_parse("2d-star-r1", &d);
        ok(gk_stencil_run(ctx, &p, g, 1, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "nz = 1"),
           "2D description on nz = 4 refused: %s", gk_last_error());
        d.radius = 7;
        ok(gk_stencil_run(ctx, &p, g, 1, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "radius 7"),
           "radius 7 refused: %s", gk_last_error());
        gk_stencil_desc_parse("3d-star-r1", &d);
        p.dtype = GK_DTYPE_INT32;
        ok(gk_stencil_run(ctx, &p, g, 1, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "int32"),
           "int32 grid refused: %s", gk_last_error());
        p.dtype = GK_DTYPE_FLOAT64;
        gk_stencil_options o = t_stencil_opts(0, "DESIGN=1");
        ok(gk_stencil_run(ctx, &p, g, 1, &o, NULL) == GK_EINVAL && strstr(gk_last_error(), "3d-star-r1"),
           "DESIGN=1 (the warp design, 2D only) with a 3D description refused by its rules: %s", gk_last_error());
    }

    /* typed grid files */
    {
        float f[3 * 4 * 5], f2[3 * 4 * 5];
        for (int i = 0; i < 60; i++) f[i] = (float)urand();
        ok(gk_grid_write_type(tpath("g32"), 3, 4, 5, GK_DTYPE_FLOAT32, f) == GK_OK &&
           gk_grid_read_type(tpath("g32"), 3, 4, 5, GK_DTYPE_FLOAT32, f2) == GK_OK && !memcmp(f, f2, sizeof f),
           "a float32 grid written and read back");
        double dd[60];
        ok(gk_grid_read_type(tpath("g32"), 3, 4, 5, GK_DTYPE_FLOAT64, dd) == GK_EFORMAT &&
           strstr(gk_last_error(), "g32"), "a float32 file read as float64 refused by size: %s", gk_last_error());
        ok(gk_grid_read_type(tpath("g32"), 3, 4, 10, GK_DTYPE_FLOAT32, dd) == GK_EFORMAT,
           "a float32 file of the wrong point count refused: %s", gk_last_error());
        f[7] = NAN;
        gk_grid_write_type(tpath("nan32"), 3, 4, 5, GK_DTYPE_FLOAT32, f);
        ok(gk_grid_read_type(tpath("nan32"), 3, 4, 5, GK_DTYPE_FLOAT32, f2) == GK_EFORMAT &&
           strstr(gk_last_error(), "NaN") && strstr(gk_last_error(), "x=1 y=2 z=0"),
           "a NaN in a float32 grid refused with its place: %s", gk_last_error());
        ok(gk_grid_read_type(tpath("g32"), 3, 4, 5, GK_DTYPE_INT32, f2) == GK_EINVAL, "an int32 grid refused: %s",
           gk_last_error());
        double g64[60];
        for (int i = 0; i < 60; i++) g64[i] = urand();
        ok(gk_grid_write_type(tpath("g64"), 3, 4, 5, GK_DTYPE_FLOAT64, g64) == GK_OK &&
           gk_grid_read(tpath("g64"), 3, 4, 5, dd) == GK_OK && !memcmp(dd, g64, sizeof dd),
           "float64 through gk_grid_write_type = gk_grid_read's format");
    }

    gk_context_destroy(ctx);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) diag("could not remove %s", tmpdir);
    return done_testing();
}
