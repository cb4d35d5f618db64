/* test_apsp_gpu.c - the GPU backend against the naive 64-bit reference and
 * byte for byte against the CPU backend; the tuner's interface (upload / run
 * / download, repeatable runs, NVRTC variants, rejected configurations); the
 * classic baseline kernel.  SKIP without a usable GPU. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_apsp_ref.h"
#include "test_apsp16_cases.h"

#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"
#include "cpu/apsp_cpu.h"
#endif

#include <string.h>

#ifdef GK_HAVE_CUDA
static gk_context *gpu_ctx;      /* the public path: a GPU context */
static gk_device_info dev;       /* the internal path: device 0, made current */

static void check_graph(int32_t V, int kind)
{
    ref_graph g = ref_random_graph(V, kind);
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *want = ref_matrix(&g), *gpu = ref_matrix(&g), *cpu = ref_matrix(&g);
    ref_fw(want, V);
    gk_report rep = t_report();
    gk_status st = t_apsp_solve(gpu_ctx, gpu, V, NULL, &rep);
    ok(st == GK_OK && rep.backend == GK_BACKEND_GPU && rep.compute >= 0 && rep.h2d >= 0 && *rep.config,
       "the report says GPU, a configuration and the phases");
    ok(st == GK_OK && memcmp(gpu, want, bytes) == 0, "GPU == naive reference, V=%d %s %s", V, ref_kind_name[kind],
       st ? gk_last_error() : "");
    ok(gk__apsp_cpu(cpu, V, GK_CPU_ISA_AUTO) == GK_OK && memcmp(gpu, cpu, bytes) == 0, "GPU output byte-identical to CPU, V=%d %s",
       V, ref_kind_name[kind]);
    free(g.e); free(want); free(gpu); free(cpu);
}

/* The 16-bit kernel on an initial matrix: its raw result is min(distance,
 * C) entry by entry, the count of entries at the cap is right, and
 * gk_apsp_solve gives the reference at every precision, in the lanes the
 * rules say. */
static void check16(const int32_t *init, int32_t V, const char *what)
{
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *want = t16_want(init, V), *d = malloc(bytes);
    uint16_t *m16 = malloc((size_t)V * V * sizeof *m16);
    int needs32 = t16_needs32(want, V);
    int64_t at_cap = -1, want_cap = 0, bad = -1;
    for (int64_t i = 0; i < (int64_t)V * V; i++) want_cap += want[i] >= T16_CAP;
    gk_apsp_gpu *c = NULL;
    gk_status st;
    if (!(st = gk__apsp_gpu_open_bits(&c, &dev, NULL, V, NULL, 16)) && !(st = gk__apsp_gpu_upload(c, init, NULL))
        && !(st = gk__apsp_gpu_run(c, NULL)) && !(st = gk__apsp_gpu_count_cap(c, &at_cap))
        && !(st = gk__apsp_gpu_download16(c, m16, NULL)))
        bad = t16_bad_capped(m16, want, V);
    ok(st == GK_OK && bad == 0 && at_cap == want_cap, "%s: GPU 16-bit result == min(distance, C) (%lld differ), "
       "%lld at the cap (want %lld) %s", what, (long long)bad, (long long)at_cap, (long long)want_cap,
       st ? gk_last_error() : "");
    /* rerun on the same context: nothing left over from the last run */
    if (!st && !(st = gk__apsp_gpu_upload(c, init, NULL)) && !(st = gk__apsp_gpu_run(c, NULL))
        && !(st = gk__apsp_gpu_download16(c, m16, NULL)))
        bad = t16_bad_capped(m16, want, V);
    ok(st == GK_OK && bad == 0, "%s: GPU 16-bit rerun on the same context", what);
    gk__apsp_gpu_close(c);
    int32_t max_entry = 0;
    for (int64_t i = 0; i < (int64_t)V * V; i++)
        if (init[i] < T16_INF && init[i] > max_entry) max_entry = init[i];
    int precisions[] = { 16, 32, 0 };
    for (int p = 0; p < 3; p++) {
        gk_apsp_options o = t_apsp_opts(0, NULL, precisions[p]);
        gk_report rep = t_report();
        memcpy(d, init, bytes);
        st = t_apsp_solve(gpu_ctx, d, V, &o, &rep);
        int want_prec = precisions[p] == 32 ? 32 : precisions[p] == 16 ? (needs32 ? 32 : 16)
                        : max_entry >= T16_CAP ? 32 : needs32 ? 32 : 16;
        ok(st == GK_OK && memcmp(d, want, bytes) == 0 && rep.precision == want_prec && rep.backend == GK_BACKEND_GPU,
           "%s: GPU gk_apsp_solve precision=%d == reference, ran in %d bits (want %d): %s %s", what, precisions[p],
           rep.precision, want_prec, rep.precision_detail, st ? gk_last_error() : "");
    }
    free(want); free(d); free(m16);
}

/* The tuner's path: one context, upload + run repeated, a configuration. */
static void check_ctx(const char *cfgtext, int32_t V, int baseline)
{
    gk_config cfg;
    gk__config_clear(&cfg);
    if (cfgtext) gk__config_parse(cfgtext, &cfg);
    ref_graph g = ref_random_graph(V, G_DENSE);
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *init = ref_matrix(&g), *want = ref_matrix(&g), *got = malloc(bytes);
    ref_fw(want, V);
    gk_apsp_gpu *c;
    gk_status st = gk__apsp_gpu_open(&c, &dev, NULL, V, cfgtext ? &cfg : NULL);
    if (!ok(st == GK_OK, "open V=%d config %s %s", V, cfgtext ? cfgtext : "default", st ? gk_last_error() : "")) {
        free(g.e); free(init); free(want); free(got);
        return;
    }
    for (int rep = 0; rep < 2; rep++) {
        float up = -1, run = -1, down = -1;
        memset(got, 0, bytes);
        st = gk__apsp_gpu_upload(c, init, &up);
        if (!st) st = gk__apsp_gpu_run(c, &run);
        if (!st) st = gk__apsp_gpu_download(c, got, &down);
        ok(st == GK_OK && up >= 0 && run >= 0 && down >= 0 && !memcmp(got, want, bytes),
           "config %s, V=%d, repeat %d: upload+run+download == reference (%.3f ms) %s",
           cfgtext ? cfgtext : "default", V, rep, (double)run, st ? gk_last_error() : "");
    }
    if (baseline) {
        float ms = -1;
        st = gk__apsp_gpu_upload(c, init, NULL);
        if (!st) st = gk__apsp_gpu_run_baseline(c, &ms);
        if (!st) st = gk__apsp_gpu_download(c, got, NULL);
        ok(st == GK_OK && !memcmp(got, want, bytes), "classic baseline kernel == reference, V=%d %s", V,
           st ? gk_last_error() : "");
        double ceil = 0;
        st = gk__apsp_gpu_ceiling(c, &ceil);
        ok(st == GK_OK && ceil > 1e9, "min-plus ceiling measured: %.2f T/s", ceil / 1e12);
    }
    gk__apsp_gpu_close(c);
    free(g.e); free(init); free(want); free(got);
}

/* The lookahead (gk__apsp_gpu_set_knobs) off (one stream) and on (the
 * default) on one context, int32 with cfgtext's tile (NULL: the default 128)
 * or 16 bits (tile 128): each == the naive reference (16 bits: min(distance,
 * cap), and its count at the cap), so the two agree.  Sizes around 1, 2, 3
 * tiles and past them: the lookahead's first and last rounds, phase 5's
 * skipped pair of tile indices at either end. */
static void check_lookahead(const char *cfgtext, int bits, int32_t V, int kind)
{
    gk_config cfg;
    gk__config_clear(&cfg);
    if (cfgtext) gk__config_parse(cfgtext, &cfg);
    ref_graph g = ref_random_graph(V, kind);
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *init = ref_matrix(&g), *want = ref_matrix(&g), *got = malloc(bytes);
    uint16_t *m16 = malloc((size_t)V * V * sizeof *m16);
    ref_fw(want, V);
    int64_t want_cap = 0;
    for (int64_t i = 0; i < (int64_t)V * V; i++) want_cap += want[i] >= T16_CAP;
    gk_apsp_gpu *c = NULL;
    gk_status st = gk__apsp_gpu_open_bits(&c, &dev, NULL, V, cfgtext ? &cfg : NULL, bits);
    for (int mode = 0; mode < 2; mode++) {
        int64_t bad = -1, at_cap = -1;
        if (c) gk__apsp_gpu_set_knobs(c, 0, mode, 1);   /* the built-in chunk, gk_apsp_mp3 */
        if (!st && !(st = gk__apsp_gpu_upload(c, init, NULL)) && !(st = gk__apsp_gpu_run(c, NULL))) {
            if (bits == 16) {
                if (!(st = gk__apsp_gpu_count_cap(c, &at_cap)) && !(st = gk__apsp_gpu_download16(c, m16, NULL)))
                    bad = t16_bad_capped(m16, want, V);
            } else if (!(st = gk__apsp_gpu_download(c, got, NULL))) {
                bad = 0;
                for (int64_t i = 0; i < (int64_t)V * V; i++) bad += got[i] != want[i];
                at_cap = want_cap;
            }
        }
        ok(st == GK_OK && bad == 0 && at_cap == want_cap,
           "lookahead mode %d, %d bits, %s, V=%d %s: == reference (%lld differ, %lld at the cap, want %lld) %s", mode,
           bits, cfgtext ? cfgtext : "default tile", V, ref_kind_name[kind], (long long)bad, (long long)at_cap,
           (long long)want_cap, st ? gk_last_error() : "");
    }
    gk__apsp_gpu_close(c);
    free(g.e); free(init); free(want); free(got); free(m16);
}
#endif

int main(void)
{
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        skip_all("no CUDA device");
#ifdef GK_HAVE_CUDA
    no_plan();
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_GPU;
    int prev;
    if (gk_context_create(&gpu_ctx, &o) || t_gpu_info(0, &dev) || gk__gpu_enter(0, &prev)) {
        printf("Bail out! GPU context: %s\n", gk_last_error());
        return 1;
    }
    int32_t sizes[] = { 1, 2, 3, 63, 64, 65, 127, 128, 129, 255, 257, 1000 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int kind = 0; kind < G_KINDS; kind++)
            check_graph(sizes[s], kind);
    check_graph(2100, G_SPARSE);

    /* the 16-bit path: graphs built to sit at the cap, random graphs of
     * sizes around its 128-wide tiles */
    for (int c = 0; c < T16_NCASES; c++) {
        int32_t V;
        int32_t *init = t16_case(c, &V);
        check16(init, V, t16_name[c]);
        free(init);
    }
    /* a plan with a configuration NVRTC compiles, made once, executed
     * twice on host memory: each result is the reference */
    {
        ref_graph g = ref_random_graph(300, G_SPARSE);
        int32_t *want = ref_matrix(&g);
        ref_fw(want, 300);
        gk_apsp_options po = t_apsp_opts(0, "APSP_TILE=64,APSP_TM=4,APSP_TN=4,APSP_BK=16,APSP_UNROLL=4", 32);
        gk_apsp_problem pr;
        gk_apsp_plan *plan = NULL;
        gk_apsp_problem_init(&pr, 300);
        gk_status pst = gk_apsp_plan_create(gpu_ctx, &pr, &po, &plan);
        for (int r = 0; r < 2; r++) {
            int32_t *e = ref_matrix(&g);
            gk_status st = pst ? pst : gk_apsp_plan_execute(gpu_ctx, plan, e, NULL);
            ok(st == GK_OK && memcmp(e, want, (size_t)300 * 300 * sizeof *e) == 0,
               "a plan with an NVRTC configuration, execution %d == reference %s", r + 1, st ? gk_last_error() : "");
            free(e);
        }
        gk_apsp_plan_destroy(plan);
        free(g.e); free(want);
    }
    int32_t sizes16[] = { 1, 127, 128, 129, 300, 1000 };
    for (size_t s = 0; s < sizeof sizes16 / sizeof sizes16[0]; s++)
        for (int kind = 0; kind < G_KINDS; kind++) {
            ref_graph g = ref_random_graph(sizes16[s], kind);
            int32_t *init = ref_matrix(&g);
            char what[96];
            snprintf(what, sizeof what, "random V=%d %s", sizes16[s], ref_kind_name[kind]);
            check16(init, sizes16[s], what);
            free(g.e); free(init);
        }

    /* the lookahead's edges: 1, 2, 3 tiles and more; random graphs and
     * graphs with unreachable pairs */
    int32_t la_sizes[] = { 1, 127, 128, 129, 255, 256, 257, 300, 1000 };
    int la_kinds[] = { G_SPARSE, G_DENSE, G_SPLIT, G_HEAVY };
    for (size_t s = 0; s < sizeof la_sizes / sizeof la_sizes[0]; s++)
        for (size_t kk = 0; kk < sizeof la_kinds / sizeof la_kinds[0]; kk++) {
            check_lookahead(NULL, 32, la_sizes[s], la_kinds[kk]);
            check_lookahead(NULL, 16, la_sizes[s], la_kinds[kk]);
        }
    /* 64-wide tiles: nt = 2, 3, 4, 5 and 16 */
    int32_t la64[] = { 65, 129, 192, 300, 1000 };
    for (size_t s = 0; s < sizeof la64 / sizeof la64[0]; s++) {
        check_lookahead("APSP_TILE=64,APSP_TM=4,APSP_TN=4,APSP_BK=16,APSP_UNROLL=4", 32, la64[s], G_SPARSE);
        check_lookahead("APSP_TILE=64,APSP_TM=4,APSP_TN=4,APSP_BK=16,APSP_UNROLL=4", 32, la64[s], G_SPLIT);
    }

    check_ctx(NULL, 300, 1);
    check_ctx(NULL, 1, 0);
    check_ctx("APSP_TILE=64,APSP_TM=4,APSP_TN=4,APSP_BK=16,APSP_UNROLL=4", 200, 1);
    check_ctx("APSP_TILE=96,APSP_TM=12,APSP_TN=4,APSP_BK=16,APSP_UNROLL=16,MAXRREG=168", 250, 0);
    check_ctx("APSP_BK=64,APSP_UNROLL=2,APSP_MINB=1", 400, 0);

    gk_config bad;
    gk__config_clear(&bad);
    gk__config_set(&bad, "APSP_TM", 5);
    gk_apsp_gpu *c;
    ok(gk__apsp_gpu_open(&c, &dev, NULL, 100, &bad) == GK_EINVAL && strstr(gk_last_error(), "multiples of 4"),
       "a thread tile that is not a multiple of 4 is rejected: %s", gk_last_error());
    gk__config_clear(&bad);
    gk__config_set(&bad, "APSP_NOPE", 1);
    ok(gk__apsp_gpu_open(&c, &dev, NULL, 100, &bad) == GK_EINVAL, "an unknown parameter is rejected: %s", gk_last_error());
    char w[256];
    gk__config_clear(&bad);
    gk__config_set(&bad, "APSP_TILE", 192);
    gk__config_set(&bad, "APSP_TM", 4);
    gk__config_set(&bad, "APSP_TN", 4);
    gk_config full;
    ok(gk__space_complete(&gk__space_apsp, &bad, &full) == GK_OK && gk__space_apsp.reject(&full, NULL, w, sizeof w) == 1
       && strstr(w, "2304"), "2304 threads are rejected: %s", w);
    gk__config_clear(&bad);
    ok(gk__space_complete(&gk__space_apsp, &bad, &full) == GK_OK && gk__space_apsp.reject(&full, NULL, w, sizeof w) == 0,
       "the defaults are valid");
    gk_context_destroy(gpu_ctx);
    return done_testing();
#endif
}
