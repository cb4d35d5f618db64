/* test_spaces.c - every kernel's parameter space is the one description of
 * its tunables: defaults and listed values lie in the ranges, the defaults are
 * the ones the shipped table and the measured speeds were taken with and pass
 * the constraints, out-of-range and overflow-bait values are refused by
 * gk__space_complete (and by reject() on a configuration that skipped it)
 * without undefined behaviour (the suite also runs under
 * -fsanitize=undefined), the .cu sources hold no defaults and require exactly
 * the space's macros, the space-defaults tool prints the defaults, and the
 * shipped table's source hashes are those of the current kernel sources. */
#include "core/space.h"
#include "core/rng.h"
#include "tune/tune.h"
#ifdef GK_HAVE_CUDA
#include "tune/tunables.h"
#endif
#include "tap.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every kernel of the registry (src/kernels.def), and vadd. */
static const char *kernels[] = {
    "vadd",
#define GK_KERNEL(name, gen) #name,
#include "kernels.def"
#undef GK_KERNEL
};
enum { NKERNELS = sizeof kernels / sizeof kernels[0] };

/* What each kernel's space must give, written down here as the independent
 * reference: the built-in defaults (the shipped H200 table and the bench/
 * figures were measured with them: they must not move) and how many of the
 * listed combinations pass the constraints.  A kernel of src/kernels.def
 * missing here fails the test (see expect_of). */
static const struct { const char *kernel, *flags; long valid; } expect[] = {
    { "apsp", "-DAPSP_TILE=128 -DAPSP_TM=8 -DAPSP_TN=8 -DAPSP_BK=16 -DAPSP_UNROLL=16 -DAPSP_MINB=2"
              " -DAPSP16_TM=8 -DAPSP16_TW=4 -DAPSP16_BK=16 -DAPSPX_F32_TM=8 -DAPSPX_F32_TN=8 -DAPSPX_F64_TM=4"
              " -DAPSPX_F64_TN=4 -DAPSPX_P_TM=4 -DAPSPX_P_TN=4", 264 },
    { "stencil", "-DDESIGN=2 -DTSTEPS=2 -DBX=32 -DBY=8 -DRY=4 -DZC=128 -DUNROLL=1 -DPREFETCH=1 -DRX=2 -DASYNC=1"
                 " -DMINB=2 -DRING=1 -DSPLIT=0", 129856 },   /* SPLIT=1: 448 fewer (shared memory) */
    { "vadd", "-DVADD_PER_THREAD=1 -DTHREADS=256", 9 },
    { "elementwise", "-DVEC=2 -DBX=256 -DBY=1 -DUNROLL=1 -DGRID=0 -DSKIP=1", 1620 },   /* SKIP 0, 1, 2 */
    { "gemm", "-DBM=128 -DBN=128 -DBK=8 -DTM=16 -DTN=8 -DVEC=4 -DSTAGES=2 -DUNROLL=8 -DMINB=1", 11340 },
    /* the typed APSP kernels' shapes (no image of their own: no
     * space-defaults line): {4,8} x {4,8}, all of them for 4-byte distances
     * and for float64, 8 x 8 too many registers with predecessors */
    { "apspx_f32", NULL, 4 },
    { "apspx_f64", NULL, 4 },
    { "apspx_p", NULL, 3 },
};
enum { NEXPECT = sizeof expect / sizeof expect[0] };

/* The apspx_* spaces (src/core/space_apsp.c): tunables of the apsp image. */
static const char *apspx[] = { "apspx_f32", "apspx_f64", "apspx_p" };
enum { NAPSPX = sizeof apspx / sizeof apspx[0] };

/* The index of kernel's row in expect[]; -1, and a failed test that says
 * what to add, when there is none. */
static int expect_of(const char *kernel)
{
    for (int i = 0; i < NEXPECT; i++)
        if (!strcmp(expect[i].kernel, kernel))
            return i;
    ok(0, "kernel %s (src/kernels.def) has no row in tests/test_spaces.c's expect[]: add its space-defaults "
       "line and its count of valid listed combinations", kernel);
    return -1;
}

static const char *srcdir(void)
{
    const char *d = getenv("top_srcdir");
    return d && *d ? d : ".";
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *b = realloc(buf, 2 * cap + 1);
            if (!b) { free(buf); buf = NULL; break; }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

static int is_param(const gk_space *s, const char *name)
{
    for (int j = 0; j < s->nparams; j++)
        if (!strcmp(s->params[j].name, name))
            return 1;
    return 0;
}

/* The first word after a preprocessor directive at line start: "#ifndef X"
 * -> X when the directive is `dir`; "" otherwise. */
static int directive(const char *line, const char *dir, char *word, size_t n)
{
    while (*line == ' ' || *line == '\t') line++;
    if (*line++ != '#') return 0;
    while (*line == ' ' || *line == '\t') line++;
    size_t dl = strlen(dir);
    if (strncmp(line, dir, dl) || !(line[dl] == ' ' || line[dl] == '\t' || line[dl] == '\n' || line[dl] == '\0'))
        return 0;
    line += dl;
    while (*line == ' ' || *line == '\t') line++;
    size_t k = 0;
    while ((isalnum((unsigned char)line[k]) || line[k] == '_') && k + 1 < n) {
        word[k] = line[k];
        k++;
    }
    word[k] = '\0';
    return 1;
}

/* The .cu of s: every parameter but MAXRREG is a required macro (#ifndef
 * NAME followed by #error), no parameter is #define'd, and every required
 * macro is a parameter. */
static void check_source(const gk_space *s)
{
    char path[4096];
    const char *cu = gk__apspx_space(s->kernel) ? "apsp" : s->kernel;   /* the shapes are apsp.cu's */
    snprintf(path, sizeof path, "%s/src/gpu/%s.cu", srcdir(), cu);
    char *text = read_text(path, NULL);
    if (!ok(text != NULL, "%s: read %s", s->kernel, path))
        return;
    char required[32][GK_PARAM_NAME_MAX];
    int nreq = 0, defines = 0;
    char *save = NULL, *prev = NULL, word[GK_PARAM_NAME_MAX];
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char w2[GK_PARAM_NAME_MAX];
        if (prev && directive(prev, "ifndef", word, sizeof word) && directive(line, "error", w2, sizeof w2)
            && nreq < 32)
            snprintf(required[nreq++], GK_PARAM_NAME_MAX, "%s", word);
        if (directive(line, "define", word, sizeof word) && is_param(s, word)) {
            ok(0, "%s.cu #defines the parameter %s (its default belongs to the space only)", cu, word);
            defines++;
        }
        prev = line;
    }
    ok(defines == 0, "%s.cu #defines none of %s's parameters", cu, s->kernel);
    for (int j = 0; j < s->nparams; j++) {
        const char *name = s->params[j].name;
        if (!strcmp(name, "MAXRREG"))
            continue;
        int found = 0;
        for (int i = 0; i < nreq; i++)
            found |= !strcmp(required[i], name);
        ok(found, "%s.cu requires %s of %s (#ifndef %s / #error)", cu, name, s->kernel, name);
    }
    /* (a shape of apsp's typed kernels holds two of apsp.cu's macros: the
     * other way round is apsp's check) */
    for (int i = 0; i < nreq && !gk__apspx_space(s->kernel); i++)
        ok(is_param(s, required[i]) && strcmp(required[i], "MAXRREG"),
           "%s.cu's required macro %s is a parameter of the space", cu, required[i]);
    free(text);
}

static void set1(gk_config *c, const char *name, int v)
{
    gk__config_clear(c);
    gk__config_set(c, name, v);
}

static void check_space(const gk_space *s)
{
    char why[256], msg[256];
    gk_config full, c;
    ok(gk__space_find(s->kernel) == s || gk__apspx_space(s->kernel) == s, "%s: found by name", s->kernel);
    for (int j = 0; j < s->nparams; j++) {
        const gk_param_def *p = &s->params[j];
        ok(p->min <= p->max && p->def >= p->min && p->def <= p->max,
           "%s %s: default %d lies in [%d, %d]", s->kernel, p->name, p->def, p->min, p->max);
        int inside = p->nvalues >= 1 && p->nvalues <= GK_SPACE_MAX_VALUES;
        for (int k = 0; k < p->nvalues && inside; k++)
            inside = p->values[k] >= p->min && p->values[k] <= p->max;
        ok(inside, "%s %s: the %d listed values lie in [%d, %d]", s->kernel, p->name, p->nvalues, p->min, p->max);

        /* Overflow bait and the values just outside. */
        long long bait[] = { INT_MAX, INT_MIN, 1073741825, -1073741825, (long long)p->min - 1, (long long)p->max + 1 };
        for (size_t b = 0; b < sizeof bait / sizeof bait[0]; b++) {
            if (bait[b] < INT_MIN || bait[b] > INT_MAX || (bait[b] >= p->min && bait[b] <= p->max))
                continue;
            int v = (int)bait[b];
            set1(&c, p->name, v);
            snprintf(msg, sizeof msg, "kernel %s: %s=%d is outside [%d, %d]", s->kernel, p->name, v, p->min, p->max);
            gk_status st = gk__space_complete(s, &c, &full);
            ok(st == GK_EINVAL && !strcmp(gk_last_error(), msg), "%s=%d refused: %s", p->name, v, gk_last_error());
            /* reject() on a configuration that skipped completion: refused, no UB */
            gk__space_complete(s, NULL, &full);
            gk__config_set(&full, p->name, v);
            ok(s->reject(&full, NULL, why, sizeof why) == 1 && strstr(why, "outside"),
               "%s reject() of uncompleted %s=%d: %s", s->kernel, p->name, v, why);
            ok(gk__space_check(s, &c, NULL, NULL) == GK_EINVAL && !strcmp(gk_last_error(), msg),
               "gk__space_check refuses it the same way");
        }
        /* The range ends are accepted by completion (the constraints may still refuse). */
        set1(&c, p->name, p->min);
        ok(gk__space_complete(s, &c, &full) == GK_OK, "%s=%d (the minimum) completes", p->name, p->min);
        set1(&c, p->name, p->max);
        ok(gk__space_complete(s, &c, &full) == GK_OK, "%s=%d (the maximum) completes", p->name, p->max);
        /* Every value of the range through reject(): no UB anywhere (ranges are small). */
        for (long long v = p->min; v <= p->max; v += v < p->min + 300 ? 1 : 997) {
            set1(&c, p->name, (int)v);
            gk__space_complete(s, &c, &full);
            s->reject(&full, NULL, why, sizeof why);
        }
    }
    ok(gk__space_complete(s, NULL, &full) == GK_OK && full.n == s->nparams && gk__space_is_default(s, &full),
       "%s: completing nothing gives the %d defaults", s->kernel, s->nparams);
    int r = s->reject(&full, NULL, why, sizeof why);
    ok(r == 0, "%s: the defaults pass reject(NULL device)%s%s", s->kernel, r ? ": " : "", r ? why : "");
    for (int j = 0; j < s->nparams; j++)
        ok(gk__param(&full, s->params[j].name) == s->params[j].def, "%s: gk__param(%s) = %d",
           s->kernel, s->params[j].name, s->params[j].def);
    ok(s->reject(NULL, NULL, why, sizeof why) == 1 && strstr(why, "missing"),
       "%s: reject() of no configuration: %s", s->kernel, why);
    gk__config_clear(&c);
    ok(s->reject(&c, NULL, why, sizeof why) == 1 && strstr(why, "missing"),
       "%s: reject() of an empty configuration: %s", s->kernel, why);

    /* Every listed combination goes through reject() (UBSan watches). */
    long total = gk__space_count(s), valid = 0;
    for (long k = 0; k < total; k++) {
        gk__space_at(s, k, &c);
        valid += !s->reject(&c, NULL, why, sizeof why);
    }
    diag("%s: %ld of %ld listed combinations pass", s->kernel, valid, total);
    int e = expect_of(s->kernel);
    if (e >= 0)
        ok(valid == expect[e].valid, "%s: %ld of the listed combinations pass the constraints (want %ld)", s->kernel,
           valid, expect[e].valid);
}

static void check_defaults_tool(void)
{
    const char *b = getenv("top_builddir");
    for (size_t k = 0; k < NKERNELS; k++) {
        int i = expect_of(kernels[k]);
        if (i < 0)
            continue;
        char cmd[4200], line[512] = "";
        snprintf(cmd, sizeof cmd, "%s/space-defaults %s", b && *b ? b : ".", expect[i].kernel);
        FILE *p = popen(cmd, "r");
        if (p) {
            if (!fgets(line, sizeof line, p)) line[0] = '\0';
            pclose(p);
        }
        line[strcspn(line, "\n")] = '\0';
        ok(!strcmp(line, expect[i].flags), "space-defaults %s: '%s' (want '%s')",
           expect[i].kernel, line, expect[i].flags);
    }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "%s/space-defaults nope 2>/dev/null", b && *b ? b : ".");
    ok(system(cmd) != 0, "space-defaults refuses an unknown kernel");
}

/* The shipped table's entries name the current kernel sources (FNV-1a 64 of
 * the .cu text, which is what embed-image.sh embeds) and pass the checks. */
static void check_shipped_table(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/data/tuned/nvidia-h200-sm90.txt", srcdir());
    gk_cache c;
    gk__clear_error();
    if (!ok(gk__cache_load(path, &c) == GK_OK && c.n > 0, "load the shipped table %s %s", path, gk_last_error()))
        return;
    gk_device_info h200;   /* what the table is for */
    memset(&h200, 0, sizeof h200);
    snprintf(h200.name, sizeof h200.name, "NVIDIA H200");
    h200.cc_major = 9; h200.sm_count = 132; h200.max_threads_per_block = 1024;
    h200.smem_per_block_optin = 227 * 1024; h200.regs_per_sm = 65536;
    for (int i = 0; i < c.n; i++) {
        const gk_cache_entry *e = &c.e[i];
        char cu[4096];
        size_t len = 0;
        /* (the apspx_* shapes are tuned in apsp's image: its source keys them) */
        snprintf(cu, sizeof cu, "%s/src/gpu/%s.cu", srcdir(), gk__apspx_space(e->kernel) ? "apsp" : e->kernel);
        char *text = read_text(cu, &len);
        uint64_t h = text ? gk__fnv1a64(text, len) : 0;
        free(text);
        ok(text && h == e->source, "shipped %s %lld: source=%016llx is the hash of %s (%016llx)", e->kernel,
           (long long)e->size, (unsigned long long)e->source, cu, (unsigned long long)h);
        const gk_space *s = gk__space_find(e->kernel) ? gk__space_find(e->kernel) : gk__apspx_space(e->kernel);
        gk__clear_error();
        ok(s && gk__space_check(s, &e->cfg, &h200, NULL) == GK_OK, "shipped %s %lld: its configuration passes on an H200 %s",
           e->kernel, (long long)e->size, s ? gk_last_error() : "(no such kernel)");
    }
#ifdef GK_HAVE_CUDA
    for (size_t k = 0; k < NKERNELS; k++) {
        const gk_tunable *t = gk__tunable_find(kernels[k]);
        char cu[4096];
        size_t len = 0;
        snprintf(cu, sizeof cu, "%s/src/gpu/%s.cu", srcdir(), kernels[k]);
        char *text = read_text(cu, &len);
        ok(t && text && gk__tunable_source_hash(t) == gk__fnv1a64(text, len),
           "%s: the embedded source's hash is the .cu file's", kernels[k]);
        ok(t && t->space == gk__space_find(kernels[k]), "%s: the tuner uses the core space", kernels[k]);
        free(text);
    }
    for (int k = 0; k < NAPSPX; k++) {
        const gk_tunable *t = gk__tunable_find(apspx[k]), *a = gk__tunable_find("apsp");
        ok(t && a && t->image == a->image && !strcmp(t->image_name, "apsp") && t->space == gk__apspx_space(apspx[k])
           && gk__tunable_source_hash(t) == gk__tunable_source_hash(a) && !t->hidden,
           "%s: tuned in apsp's image (its source hash), with its own space, not hidden", apspx[k]);
        ok(t && a && t->nclasses == a->nclasses && !memcmp(t->classes, a->classes, sizeof t->classes),
           "%s: apsp's size classes (the nearest entries line up)", apspx[k]);
    }
    /* the shapes come last, after every kernel that searches within the budget */
    int last = gk__tunable_count() - 1;
    ok(last >= NAPSPX && !strcmp(gk__tunable_get(last)->kernel, "apspx_p")
       && !strcmp(gk__tunable_get(last - 2)->kernel, "apspx_f32"), "the apspx_* tunables are the registry's last");
#else
    skip("built without CUDA", "embedded sources' hashes");
#endif
}

/* The apspx_* shapes against apsp's space: the same parameters (names,
 * defaults, ranges: a merged configuration is always in range), the kinds'
 * table names each space once, and gk__apspx_apply writes a shape's two
 * parameters and nothing else, refusing (apsp untouched, a reason) what
 * apsp's rules refuse. */
static void check_apspx(void)
{
    for (int k = 0; k < GK_APSPX_NKINDS; k++) {
        const gk_apspx_kind *K = &gk__apspx_kinds[k];
        ok(K->space == gk__apspx_space(K->space->kernel) && K->space->nparams == 2, "kind %d is %s, two parameters", k,
           K->space->kernel);
        ok(K->nmeasure >= 1 && K->nmeasure <= 2 && K->nvalidate >= K->nmeasure && K->nvalidate <= 4,
           "%s: runs to measure (%d) and validate (%d)", K->space->kernel, K->nmeasure, K->nvalidate);
        int checked = 1, negative = 0;
        for (int r = 0; r < K->nmeasure; r++) {
            int found = 0;
            for (int v = 0; v < K->nvalidate; v++)
                found |= !memcmp(&K->measure[r], &K->validate[v], sizeof K->measure[r]);
            checked &= found;
        }
        for (int v = 0; v < K->nvalidate; v++)
            negative |= K->validate[v].negative;
        ok(checked && negative, "%s: every run it times is checked against the CPU, negative weights too",
           K->space->kernel);
        for (int j = 0; j < K->space->nparams; j++) {
            const gk_param_def *p = &K->space->params[j], *q = NULL;
            for (int i = 0; i < gk__space_apsp.nparams; i++)
                if (!strcmp(gk__space_apsp.params[i].name, p->name))
                    q = &gk__space_apsp.params[i];
            ok(q && q->def == p->def && q->min == p->min && q->max == p->max && q->nvalues == 1 && q->values[0] == q->def,
               "%s %s: apsp's parameter, same default and range; apsp lists its default only", K->space->kernel, p->name);
        }
    }
    gk_config apsp, f64, p, full;
    char why[512];
    int tm, tn;
    gk__config_clear(&apsp);      /* a shipped-style apsp entry: no APSPX_* at all */
    gk__config_parse("APSP_TILE=64,APSP_TM=4,APSP_TN=8,APSP_BK=32,APSP_UNROLL=16,APSP_MINB=1,MAXRREG=168", &apsp);
    gk__config_clear(&f64);
    gk__config_parse("APSPX_F64_TM=8,APSPX_F64_TN=8", &f64);
    gk__config_clear(&p);
    gk__config_parse("APSPX_P_TM=4,APSPX_P_TN=8", &p);
    const gk_config *none[GK_APSPX_NKINDS] = { NULL, NULL, NULL };
    const gk_config *some[GK_APSPX_NKINDS] = { NULL, &f64, &p };
    gk_config c = apsp;
    ok(gk__apspx_apply(&c, none, NULL, why, sizeof why) == 1 && !memcmp(&c, &apsp, sizeof c), "no shape: apsp's as it was");
    ok(gk__apspx_apply(&c, some, NULL, why, sizeof why) == 1, "two shapes written %s", why);
    ok(gk__space_complete(&gk__space_apsp, &c, &full) == GK_OK, "the merged configuration completes");
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT64, 0, &tm, &tn);
    ok(tm == 8 && tn == 8, "float64 takes apspx_f64's 8x8: %dx%d", tm, tn);
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT32, 1, &tm, &tn);
    ok(tm == 4 && tn == 8, "predecessors take apspx_p's 4x8: %dx%d", tm, tn);
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT32, 0, &tm, &tn);
    ok(tm == 8 && tn == 8, "float32 keeps the built-in 8x8: %dx%d", tm, tn);
    ok(gk__param(&full, "APSP_TILE") == 64 && gk__param(&full, "APSP_TN") == 8 && gk__param(&full, "MAXRREG") == 168
       && gk__param(&full, "APSP16_BK") == 16, "the int32 kernel's parameters are the apsp entry's");
    /* a shape apsp's rules refuse (an entry edited by hand, past its own
     * check): nothing written */
    gk__config_clear(&f64);
    gk__config_parse("APSPX_F64_TM=16,APSPX_F64_TN=8", &f64);
    c = apsp;
    ok(gk__apspx_apply(&c, some, NULL, why, sizeof why) == 0 && !memcmp(&c, &apsp, sizeof c) && strstr(why, "registers")
       && !strcmp(gk_last_error(), ""), "a shape apsp refuses: apsp untouched: %s", why);
    gk__config_clear(&f64);
    gk__config_parse("APSPX_F64_TM=16,APSPX_F64_TN=8", &f64);
    ok(gk__space_check(&gk__space_apspx_f64, &f64, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "registers"),
       "and apspx_f64's own check refuses it first: %s", gk_last_error());
    gk__clear_error();
    /* a device with 128 threads per block: 4x4 (256 threads) refused there */
    gk_device_info small;
    memset(&small, 0, sizeof small);
    snprintf(small.name, sizeof small.name, "Small GPU");
    small.max_threads_per_block = 128;
    small.smem_per_block_optin = 227 * 1024;
    gk__config_clear(&c);
    gk__config_parse("APSPX_F32_TM=4,APSPX_F32_TN=4", &c);
    ok(gk__space_check(&gk__space_apspx_f32, &c, NULL, NULL) == GK_OK, "apspx_f32 4x4 without a device");
    ok(gk__space_check(&gk__space_apspx_f32, &c, &small, NULL) == GK_EINVAL && strstr(gk_last_error(), "threads 256 > 128"),
       "apspx_f32 4x4 on a 128-thread device: %s", gk_last_error());
    gk__clear_error();
}

/* The typed APSP kernels' shapes (APSPX_*): the defaults measured on the
 * H200 (8 x 8 for 4-byte distances alone and int32 with predecessors, 4 x 4
 * for float64 and for every type with predecessors; int64 alone a fixed
 * 8 x 4), and the rules: 4-wide,
 * dividing the tile 64, whole warps up to 1024 threads, registers. */
static void check_typed_shapes(void)
{
    static const struct { gk_dtype t; int pred, tm, tn; } want[] = {
        { GK_DTYPE_INT32, 0, 8, 8 }, { GK_DTYPE_FLOAT32, 0, 8, 8 }, { GK_DTYPE_FLOAT64, 0, 4, 4 },
        { GK_DTYPE_INT64, 0, 8, 4 }, { GK_DTYPE_INT32, 1, 4, 4 }, { GK_DTYPE_INT64, 1, 4, 4 },
        { GK_DTYPE_FLOAT32, 1, 4, 4 }, { GK_DTYPE_FLOAT64, 1, 4, 4 },
    };
    gk_config c, full;
    char why[256];
    gk__space_complete(&gk__space_apsp, NULL, &full);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int tm = 0, tn = 0;
        gk__apsp_typed_shape(&full, want[i].t, want[i].pred, &tm, &tn);
        ok(tm == want[i].tm && tn == want[i].tn, "apsp typed default shape of %s%s: %dx%d (want %dx%d)",
           gk_dtype_name(want[i].t), want[i].pred ? "+pred" : "", tm, tn, want[i].tm, want[i].tn);
    }
    /* a configuration's shape reaches its type only */
    gk__config_clear(&c);
    gk__config_parse("APSPX_F64_TM=8,APSPX_P_TM=4,APSPX_P_TN=8", &c);
    int tm, tn;
    gk_status st = gk__space_check(&gk__space_apsp, &c, NULL, &full);
    ok(st == GK_OK, "APSPX_F64_TM=8,APSPX_P_TM=4,APSPX_P_TN=8 accepted %s", st ? gk_last_error() : "");
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT64, 0, &tm, &tn);
    ok(tm == 8 && tn == 4, "float64 takes APSPX_F64_*: %dx%d", tm, tn);
    gk__apsp_typed_shape(&full, GK_DTYPE_INT32, 1, &tm, &tn);
    ok(tm == 4 && tn == 8, "predecessors take APSPX_P_*: %dx%d", tm, tn);
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT32, 0, &tm, &tn);
    ok(tm == 8 && tn == 8, "float32 keeps its default 8x8: %dx%d", tm, tn);
    gk__apsp_typed_shape(&full, GK_DTYPE_INT64, 0, &tm, &tn);
    ok(tm == GK_APSPX_I64_TM && tn == GK_APSPX_I64_TN, "int64 distances: the fixed shape %dx%d", tm, tn);
    /* accepted shapes: 32 to 1024 threads of a 64-wide tile */
    static const char *good[] = {
        "APSPX_F32_TM=4,APSPX_F32_TN=4", "APSPX_F32_TM=16,APSPX_F32_TN=8", "APSPX_F32_TM=4,APSPX_F32_TN=16",
        "APSPX_F64_TM=8,APSPX_F64_TN=8", "APSPX_F64_TM=8,APSPX_F64_TN=4", "APSPX_P_TM=4,APSPX_P_TN=4",
        "APSPX_P_TM=4,APSPX_P_TN=8",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        gk__config_clear(&c);
        gk__config_parse(good[i], &c);
        st = gk__space_check(&gk__space_apsp, &c, NULL, NULL);
        ok(st == GK_OK, "apsp %s accepted %s", good[i], st ? gk_last_error() : "");
    }
    /* refused, each with its reason naming the parameters */
    static const struct { const char *cfg, *why; } bad[] = {
        { "APSPX_F32_TM=6", "APSPX_F32_TM/TN" },                  /* not a multiple of 4 */
        { "APSPX_F32_TN=12", "dividing the tile 64" },             /* does not divide 64 */
        { "APSPX_F64_TM=64,APSPX_F64_TN=64", "1 threads" },       /* one thread: not whole warps */
        { "APSPX_F32_TM=16,APSPX_F32_TN=16", "16 threads" },      /* half a warp */
        { "APSPX_P_TM=16,APSPX_P_TN=16", "APSPX_P_TM/TN" },
        { "APSPX_F64_TM=16,APSPX_F64_TN=8", "registers" },        /* 128 float64 accumulators */
        { "APSPX_P_TM=16,APSPX_P_TN=8", "registers" },            /* with predecessors */
        { "APSPX_P_TM=8,APSPX_P_TN=8", "registers" },             /* float64 + predecessors: ~376 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gk__config_clear(&c);
        gk__config_parse(bad[i].cfg, &c);
        st = gk__space_complete(&gk__space_apsp, &c, &full);
        ok(st == GK_OK && gk__space_apsp.reject(&full, NULL, why, sizeof why) == 1 && strstr(why, bad[i].why),
           "apsp %s refused: %s", bad[i].cfg, why);
    }
}

int main(void)
{
    no_plan();
    for (size_t k = 0; k < NKERNELS; k++) {
        const gk_space *s = gk__space_find(kernels[k]);
        if (!ok(s != NULL, "space %s exists", kernels[k]))
            continue;
        check_space(s);
        check_source(s);
    }
    for (int k = 0; k < NAPSPX; k++) {
        const gk_space *s = gk__apspx_space(apspx[k]);
        if (!ok(s != NULL && !strcmp(s->kernel, apspx[k]), "space %s exists", apspx[k]))
            continue;
        ok(gk__space_find(apspx[k]) == NULL, "%s is no kernel of its own (gk__space_find)", apspx[k]);
        check_space(s);
        check_source(s);
    }
    for (int i = 0; i < NEXPECT; i++) {
        int named = 0;
        for (size_t k = 0; k < NKERNELS; k++)
            named |= !strcmp(kernels[k], expect[i].kernel);
        named |= gk__apspx_space(expect[i].kernel) != NULL;
        ok(named, "expect[]'s kernel %s is vadd, a kernel of src/kernels.def or an apspx shape", expect[i].kernel);
    }
    ok(gk__apspx_space("apsp") == NULL && gk__apspx_space(NULL) == NULL, "apsp is no apspx shape");
    ok(gk__space_find("nope") == NULL && gk__space_find(NULL) == NULL, "no space for an unknown kernel");

    /* The examples, exactly. */
    gk_config c, full;
    char why[256];
    gk__config_clear(&c);
    gk__config_parse("BX=64,BY=1073741825,RY=4", &c);
    ok(gk__space_complete(&gk__space_stencil, &c, &full) == GK_EINVAL
       && !strcmp(gk_last_error(), "kernel stencil: BY=1073741825 is outside [1, 1024]"),
       "stencil BX=64,BY=1073741825,RY=4: %s", gk_last_error());
    gk__config_clear(&c);
    gk__config_parse("THREADS=2147483647", &c);
    ok(gk__space_complete(&gk__space_vadd, &c, &full) == GK_EINVAL
       && !strcmp(gk_last_error(), "kernel vadd: THREADS=2147483647 is outside [32, 1024]"),
       "vadd THREADS=2147483647: %s", gk_last_error());
    /* vadd's rules */
    gk__config_clear(&c);
    gk__config_parse("THREADS=100", &c);
    ok(gk__space_check(&gk__space_vadd, &c, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "multiple of 32"),
       "vadd THREADS=100: %s", gk_last_error());
    gk_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "Small GPU");
    d.max_threads_per_block = 512;
    d.smem_per_block_optin = 48 * 1024;
    d.regs_per_sm = 65536;
    gk__config_clear(&c);
    gk__config_parse("THREADS=1024", &c);
    ok(gk__space_check(&gk__space_vadd, &c, NULL, NULL) == GK_OK, "vadd THREADS=1024 without a device");
    ok(gk__space_check(&gk__space_vadd, &c, &d, NULL) == GK_EINVAL && strstr(gk_last_error(), "threads 1024 > 512")
       && strstr(gk_last_error(), "Small GPU"), "vadd THREADS=1024 on a 512-thread device: %s", gk_last_error());
    /* 64-bit arithmetic: a product that overflows int is reported exactly */
    gk__config_clear(&c);
    gk__config_parse("BX=1024,BY=1024", &c);
    ok(gk__space_complete(&gk__space_stencil, &c, &full) == GK_OK
       && gk__space_stencil.reject(&full, NULL, why, sizeof why) == 1 && strstr(why, "threads 1048576 > 1024"),
       "stencil 1024x1024 threads: %s", why);
    gk__config_clear(&c);
    gk__config_parse("APSP_TILE=256,APSP_TM=4,APSP_TN=4", &c);
    ok(gk__space_complete(&gk__space_apsp, &c, &full) == GK_OK
       && gk__space_apsp.reject(&full, NULL, why, sizeof why) == 1 && strstr(why, "threads 4096 > 1024"),
       "apsp 4096 threads: %s", why);
    gk__config_clear(&c);
    ok(gk__space_check(&gk__space_apsp, &c, &d, NULL) == GK_EINVAL && strstr(gk_last_error(), "shared memory"),
       "apsp defaults need more than 48 KiB of shared memory: %s", gk_last_error());

    check_typed_shapes();
    check_apspx();
    check_defaults_tool();
    check_shipped_table();
    return done_testing();
}
