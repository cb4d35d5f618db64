/* test_stencil_spec.c - stencil descriptions: validation, the points and
 * weights of each shape in evaluation order, the text form and the weights
 * file (core/stencil_spec.h, gk/stencil.h). */
#include "gk.h"
#include "core/stencil_spec.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static const char *tfile(const char *name, const char *text)
{
    static char path[4][512];
    static int k;
    char *p = path[k++ & 3];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

/* The points of a shape, counted here from the definition. */
static int expect_points(int dims, gk_stencil_shape shape, int r)
{
    int w1 = 2 * r + 1;
    return shape == GK_STENCIL_STAR ? 2 * dims * r + 1 : dims == 3 ? w1 * w1 * w1 : w1 * w1;
}

static int order_ok(const gk__stencil_spec *s)
{
    for (int i = 1; i < s->npoints; i++) {
        int a = (s->dz[i - 1] * 16 + s->dy[i - 1]) * 16 + s->dx[i - 1];
        int b = (s->dz[i] * 16 + s->dy[i]) * 16 + s->dx[i];
        if (a >= b) return 0;
    }
    return 1;
}

int main(void)
{
    no_plan();
    snprintf(tmpdir, sizeof tmpdir, "%s/gk-spec-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) { printf("Bail out! mkdtemp\n"); return 1; }

    gk_stencil_desc d;
    gk__stencil_spec s;
    gk_stencil_desc_init(&d);
    ok(d.struct_size == sizeof d && d.dims == 3 && d.shape == GK_STENCIL_BOX && d.radius == 1 &&
       d.boundary == GK_BOUNDARY_ZERO && !d.weights, "gk_stencil_desc_init: 3D box r1 zero, NULL weights");
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_OK && s.npoints == 27 &&
       !memcmp(s.w, gk_stencil_default_coeffs, sizeof(double) * 27) && gk__stencil_spec_is_classic(&s),
       "the default 3D box r1 is the classic kernel with the benchmark's coefficients");
    ok(!strncmp(s.key, "3d-box-r1-f64-zero-", 19) && strlen(s.key) == 19 + 16, "its key: %s", s.key);

    /* every dims/shape/radius: point count, order, default weights 1/points */
    int all_ok = 1;
    for (int dims = 2; dims <= 3; dims++)
        for (int sh = GK_STENCIL_BOX; sh <= GK_STENCIL_STAR; sh++)
            for (int r = 1; r <= 4; r++) {
                gk_stencil_desc_init(&d);
                d.dims = dims;
                d.shape = (gk_stencil_shape)sh;
                d.radius = r;
                if (gk__stencil_spec_make(&d, GK_DTYPE_FLOAT32, &s)) { all_ok = 0; continue; }
                int n = expect_points(dims, d.shape, r);
                if (s.npoints != n || !order_ok(&s)) all_ok = 0;
                if (dims == 3 && sh == GK_STENCIL_BOX && r == 1) continue;
                for (int i = 0; i < s.npoints; i++) {
                    if (s.w[i] != (double)(float)(1.0 / n)) all_ok = 0;
                    if (dims == 2 && s.dz[i] != 0) all_ok = 0;
                    if (sh == GK_STENCIL_STAR && (s.dx[i] != 0) + (s.dy[i] != 0) + (s.dz[i] != 0) > 1) all_ok = 0;
                    if (abs(s.dx[i]) > r || abs(s.dy[i]) > r || abs(s.dz[i]) > r) all_ok = 0;
                }
            }
    ok(all_ok, "every dims x shape x radius: the shape's points in ascending (dz,dy,dx), weights 1/points as float");

    /* weights: index order, float32 rounding, mask, star off-axis refused */
    double w[125];
    for (int i = 0; i < 125; i++) w[i] = 0.1 * (i + 1);
    gk_stencil_desc_init(&d);
    d.dims = 2;
    d.radius = 2;
    d.weights = w;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_OK && s.npoints == 25 && s.w[0] == w[0] &&
       s.dx[0] == -2 && s.dy[0] == -2 && s.w[7] == w[7] && s.dx[7] == 0 && s.dy[7] == -1, "2D box r2: weights in index order");
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT32, &s) == GK_OK && s.w[0] == (double)0.1f && s.w[0] != 0.1,
       "float32: each weight rounded to float once");
    d.shape = GK_STENCIL_STAR;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL && strstr(gk_last_error(), "off the star"),
       "a star with an off-axis weight is refused: %s", gk_last_error());
    for (int i = 0; i < 25; i++) w[i] = (i % 5 == 2 || i / 5 == 2) ? i + 1 : 0;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_OK && s.npoints == 9 && s.dy[0] == -2 && s.w[0] == 3 &&
       s.w[4] == 13, "2D star r2 with its weights on the axes: 9 points (zeros kept)");
    w[12] = 0;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_OK && s.npoints == 9, "a star keeps a zero centre");
    d.shape = GK_STENCIL_MASK;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_OK && s.npoints == 8, "a mask keeps only nonzero points");
    char k1[96];
    strcpy(k1, s.key);
    w[0] = 1;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_OK && s.npoints == 9 && strcmp(k1, s.key) &&
       !strncmp(s.key, "2d-mask-r2-f64-zero-", 20), "another mask, another key (%s, %s)", k1, s.key);
    memset(w, 0, sizeof w);
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "an all-zero mask is refused: %s", gk_last_error());
    d.weights = NULL;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "a mask without weights is refused");
    d.shape = GK_STENCIL_BOX;
    d.weights = w;
    w[3] = NAN;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL && strstr(gk_last_error(), "weight 3"),
       "a NaN weight is refused by its index: %s", gk_last_error());
    w[3] = INFINITY;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "an infinite weight is refused");
    w[3] = 1e300;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_OK &&
       gk__stencil_spec_make(&d, GK_DTYPE_FLOAT32, &s) == GK_EINVAL, "1e300: fine as float64, refused as float32");
    w[3] = 0;
    d.radius = 0;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "radius 0 refused");
    d.radius = 5;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "radius 5 refused");
    d.radius = 1;
    d.dims = 4;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "dims 4 refused");
    d.dims = 3;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_INT32, &s) == GK_EINVAL, "int32 refused");
    d.boundary = (gk_boundary)7;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "boundary 7 refused");
    d.shape = (gk_stencil_shape)0;
    d.boundary = GK_BOUNDARY_ZERO;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "shape 0 refused");
    d.struct_size = 0;
    ok(gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s) == GK_EINVAL, "struct_size 0 refused");

    /* grids: periodic needs extents >= 2r+1, 2D needs nz = 1 */
    gk_stencil_desc_init(&d);
    d.radius = 2;
    d.boundary = GK_BOUNDARY_PERIODIC;
    gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s);
    ok(gk__stencil_spec_check_grid(&s, 5, 5, 5) == GK_OK, "periodic r2 on 5^3 accepted");
    ok(gk__stencil_spec_check_grid(&s, 5, 4, 5) == GK_EINVAL && strstr(gk_last_error(), "ny = 4"),
       "periodic r2 with ny 4 refused: %s", gk_last_error());
    d.dims = 2;
    gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s);
    ok(gk__stencil_spec_check_grid(&s, 5, 5, 1) == GK_OK && gk__stencil_spec_check_grid(&s, 5, 5, 2) == GK_EINVAL,
       "2D: nz must be 1");
    d.boundary = GK_BOUNDARY_FIXED;
    gk__stencil_spec_make(&d, GK_DTYPE_FLOAT64, &s);
    ok(gk__stencil_spec_check_grid(&s, 1, 2, 1) == GK_OK, "fixed: any size");

    /* text form */
    struct { const char *text; int dims, shape, r, b; } good[] = {
        { "3d-box-r1", 3, GK_STENCIL_BOX, 1, GK_BOUNDARY_ZERO },
        { "2d-star-r4", 2, GK_STENCIL_STAR, 4, GK_BOUNDARY_ZERO },
        { "3d-star-r2:periodic", 3, GK_STENCIL_STAR, 2, GK_BOUNDARY_PERIODIC },
        { "2d-mask-r3:fixed", 2, GK_STENCIL_MASK, 3, GK_BOUNDARY_FIXED },
        { "3d-box-r1:zero", 3, GK_STENCIL_BOX, 1, GK_BOUNDARY_ZERO },
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        gk_stencil_desc_init(&d);
        char buf[64];
        int okp = gk_stencil_desc_parse(good[i].text, &d) == GK_OK && d.dims == good[i].dims &&
                  (int)d.shape == good[i].shape && d.radius == good[i].r && (int)d.boundary == good[i].b;
        int okf = okp && gk_stencil_desc_format(&d, buf, sizeof buf) == GK_OK;
        ok(okf && (!strcmp(buf, good[i].text) || (strstr(good[i].text, ":zero") && !strncmp(buf, good[i].text, strlen(buf)))),
           "parse and format '%s' -> '%s'", good[i].text, okf ? buf : "(failed)");
    }
    const char *bad[] = { "3d-box-r0", "3d-box-r5", "4d-box-r1", "3d-cube-r1", "3d-box-r1:wrap", "3d-box-r1x",
                          "3d-box", "", "box", "3d-box-r1:", "3d-box-r-1" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        gk_stencil_desc_init(&d);
        ok(gk_stencil_desc_parse(bad[i], &d) == GK_EINVAL && strstr(gk_last_error(), bad[i]),
           "'%s' refused, named: %s", bad[i], gk_last_error());
    }
    char small[8];
    gk_stencil_desc_init(&d);
    d.boundary = GK_BOUNDARY_PERIODIC;
    ok(gk_stencil_desc_format(&d, small, sizeof small) == GK_EINVAL, "format into a too small buffer refused");

    /* weights files */
    double wf[27];
    ok(gk_stencil_weights_read(tfile("w9", "1 2 3\n4,5,6\n7 8 9\n"), 2, 1, wf) == GK_OK && wf[0] == 1 && wf[8] == 9,
       "a 2D r1 weights file of 9 numbers");
    ok(gk_stencil_weights_read(tfile("w8", "1 2 3 4 5 6 7 8\n"), 2, 1, wf) == GK_EFORMAT &&
       strstr(gk_last_error(), "w8") && strstr(gk_last_error(), "has 8 numbers") && strstr(gk_last_error(), "exactly 9"),
       "8 numbers for 2D r1 refused: %s", gk_last_error());
    ok(gk_stencil_weights_read(tfile("w9", "1 2 3\n4,5,6\n7 8 9\n"), 3, 1, wf) == GK_EFORMAT &&
       strstr(gk_last_error(), "exactly 27"), "9 numbers for 3D r1 refused: %s", gk_last_error());
    ok(gk_stencil_weights_read(tfile("wn", "1 2 3 4 nan 6 7 8 9\n"), 2, 1, wf) == GK_EFORMAT &&
       strstr(gk_last_error(), "wn") && strstr(gk_last_error(), "number 5"), "a NaN weight refused: %s", gk_last_error());
    ok(gk_stencil_weights_read(tfile("wi", "1 2 3 4 inf 6 7 8 9\n"), 2, 1, wf) == GK_EFORMAT, "an inf weight refused");
    ok(gk_stencil_weights_read(tfile("w9", "1 2 3\n4,5,6\n7 8 9\n"), 2, 5, wf) == GK_EINVAL, "radius 5 refused");

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) diag("could not remove %s", tmpdir);
    return done_testing();
}
