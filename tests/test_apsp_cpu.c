/* test_apsp_cpu.c - the CPU backend and the file format against the naive
 * 64-bit reference of test_apsp_ref.h: random graphs of awkward sizes and
 * kinds, the reader's rules, the generator. */
#include "gk.h"
#include "api/commands.h"
#include "tap.h"
#include "test_api.h"
#include "test_apsp_ref.h"
#include "cpu/apsp_cpu.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char tmp[256];

static void check_graph(int32_t V, int kind)
{
    ref_graph g = ref_random_graph(V, kind);
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *want = ref_matrix(&g), *init = ref_matrix(&g), *got, *simple = malloc(bytes);
    ref_fw(want, V);

    /* through a file: the reader must build the same initial matrix */
    int32_t rv = 0, maxw = -1;
    int64_t re = -1;
    ok(ref_write_graph(tmp, &g) == 0, "write %s graph V=%d", ref_kind_name[kind], V);
    gk_status st = gk__apsp_read(tmp, &got, &rv, &re, &maxw);
    ok(st == GK_OK && rv == V && re == g.E, "read back V=%d E=%lld %s", V, (long long)g.E, st ? gk_last_error() : "");
    if (st) return;
    ok(memcmp(got, init, bytes) == 0, "initial matrix (duplicates keep the minimum, self-loops ignored) V=%d %s",
       V, ref_kind_name[kind]);
    memcpy(simple, got, bytes);

    ok(gk__apsp_cpu(got, V, GK_CPU_ISA_AUTO) == GK_OK && memcmp(got, want, bytes) == 0,
       "blocked CPU == naive reference, V=%d %s", V, ref_kind_name[kind]);
    ok(gk__apsp_cpu_simple(simple, V) == GK_OK && memcmp(simple, want, bytes) == 0,
       "plain CPU loop == naive reference, V=%d %s", V, ref_kind_name[kind]);
    free(g.e); free(want); free(init); free(got); free(simple);
}

static void write_raw(const char *path, const int32_t *w, size_t n, size_t extra_bytes)
{
    FILE *f = fopen(path, "wb");
    fwrite(w, sizeof *w, n, f);
    for (size_t i = 0; i < extra_bytes; i++) fputc(0, f);
    fclose(f);
}

static void bad_input(const char *name, const int32_t *w, size_t n, size_t extra, gk_status want, const char *needle)
{
    int32_t *d = (int32_t *)1, V;
    write_raw(tmp, w, n, extra);
    gk_status st = gk__apsp_read(tmp, &d, &V, NULL, NULL);
    const char *m = gk_last_error();
    ok(st == want && d == NULL && strstr(m, tmp) && strstr(m, needle) && !strchr(m, '\n'),
       "rejects %s: %s", name, m);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "test_apsp_cpu.tmp.%ld", (long)getpid());
    no_plan();
    int32_t sizes[] = { 1, 2, 3, 31, 63, 64, 65, 127, 128, 129, 200 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int kind = 0; kind < G_KINDS; kind++)
            check_graph(sizes[s], kind);
    check_graph(1000, G_SPARSE);
    check_graph(777, G_HEAVY);

    /* the reader's rules, each one line naming the file and the item */
    int32_t ok1[] = { 3, 1, 0, 1, 5 };
    bad_input("a short file", ok1, 1, 0, GK_EFORMAT, "not 8 + 12E");
    bad_input("a missing edge", ok1, 2, 0, GK_EFORMAT, "not 8 + 12E");
    bad_input("trailing bytes", ok1, 5, 4, GK_EFORMAT, "not 8 + 12E");
    int32_t v0[] = { 0, 0 };
    bad_input("V = 0", v0, 2, 0, GK_EFORMAT, "V = 0");
    int32_t vneg[] = { -5, 0 };
    bad_input("V < 0", vneg, 2, 0, GK_EFORMAT, "V = -5");
    int32_t eneg[] = { 3, -1 };
    bad_input("E < 0", eneg, 2, 0, GK_EFORMAT, "E = -1");
    int32_t src[] = { 3, 2, 0, 1, 5, 3, 1, 5 };
    bad_input("src = V", src, 8, 0, GK_EFORMAT, "src 3 is outside [0, 3)");
    int32_t dst[] = { 3, 1, 0, -1, 5 };
    bad_input("dst < 0", dst, 5, 0, GK_EFORMAT, "dst -1 is outside");
    int32_t wneg[] = { 3, 1, 0, 1, -7 };
    bad_input("a negative weight", wneg, 5, 0, GK_EFORMAT, "weight -7");
    int32_t wbig[] = { 3, 1, 0, 1, GK_APSP_INF };
    bad_input("weight > 1073741822", wbig, 5, 0, GK_EFORMAT, "weight 1073741823");
    int32_t huge[] = { 2000000000, 0 };
    bad_input("a matrix too large for memory", huge, 2, 0, GK_ENOMEM, "needs");
    int32_t *d;
    int32_t V;
    ok(gk__apsp_read("/nonexistent/graph", &d, &V, NULL, NULL) == GK_EIO && strstr(gk_last_error(), "/nonexistent/graph"),
       "a missing file names itself");
    int32_t edge_max[] = { 2, 1, 0, 1, GK_APSP_MAX_WEIGHT };
    write_raw(tmp, edge_max, 5, 0);
    ok(gk__apsp_read(tmp, &d, &V, NULL, NULL) == GK_OK && d[1] == GK_APSP_MAX_WEIGHT && d[2] == GK_APSP_INF,
       "weight 1073741822 is allowed");
    free(d);

    /* the generator: reproducible, valid, no self-loops */
    char t2[300];
    snprintf(t2, sizeof t2, "%s.b", tmp);
    ok(gk__apsp_generate_nthu(tmp, 500, 20000, 7, 99) == GK_OK && gk__apsp_generate_nthu(t2, 500, 20000, 7, 99) == GK_OK,
       "generate twice with one seed");
    FILE *a = fopen(tmp, "rb"), *b = fopen(t2, "rb");
    static int32_t ba[60003], bb[60003];   /* one more than the file: fread must stop short */
    size_t na = fread(ba, 4, 60003, a), nb = fread(bb, 4, 60003, b);
    fclose(a); fclose(b);
    ok(na == 60002 && nb == 60002 && !memcmp(ba, bb, sizeof ba), "same seed, same file of 8 + 12E bytes");
    int valid = ba[0] == 500 && ba[1] == 20000;
    for (int e = 0; e < 20000; e++) {
        int32_t s = ba[2 + 3 * e], t = ba[3 + 3 * e], w = ba[4 + 3 * e];
        valid &= s >= 0 && s < 500 && t >= 0 && t < 500 && s != t && w >= 0 && w <= 99;
    }
    ok(valid, "generated edges are in range, weights in [0, 99], no self-loops");
    ok(gk__apsp_generate_nthu(t2, 500, 20000, 8, 99) == GK_OK, "generate with another seed");
    b = fopen(t2, "rb");
    nb = fread(bb, 4, 60003, b);
    fclose(b);
    ok(memcmp(ba, bb, sizeof ba) != 0, "another seed, another graph");
    unlink(t2);
    ok(gk__apsp_generate_nthu(t2, 0, 5, 1, 9) == GK_EINVAL && access(t2, F_OK) != 0, "V = 0 is refused, no file made");

    /* the writer */
    int32_t m[4] = { 0, 5, GK_APSP_INF, 0 };
    ok(gk__apsp_write(tmp, m, 2) == GK_OK, "write a 2x2 matrix");
    a = fopen(tmp, "rb");
    int32_t r[5];
    na = fread(r, 4, 5, a);
    fclose(a);
    ok(na == 4 && !memcmp(r, m, sizeof m), "the output file is the raw matrix");
    ok(gk__apsp_write("/nonexistent/dir/out", m, 2) == GK_EIO, "an unwritable output fails");
    unlink(tmp);

    /* the front door's argument rules */
    gk_context *ctx;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    ok(gk_context_create(NULL, &o) == GK_EINVAL, "gk_context_create without a place for the context");
    if (gk_context_create(&ctx, &o) == GK_OK) {
        /* (negative weights are legal since 1.2: below -INF is not) */
        int32_t neg[4] = { 0, -GK_APSP_INF - 1, 3, 0 }, big[4] = { 0, 1, GK_APSP_INF + 1, 0 };
        ok(t_apsp_solve(ctx, neg, 2, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "(0, 1) = -1073741824"),
           "an entry below -INF is refused: %s", gk_last_error());
        ok(t_apsp_solve(ctx, big, 2, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "(1, 0)"),
           "an entry above INF is refused: %s", gk_last_error());
        ok(t_apsp_solve(ctx, NULL, 5, NULL, NULL) == GK_EINVAL, "no matrix: refused, no crash");
        ok(t_apsp_solve(NULL, m, 2, NULL, NULL) == GK_EINVAL, "no context: refused, no crash");
        gk_context_destroy(ctx);
    }
    return done_testing();
}
