/* test_tune_cache.c - the tuning cache without a GPU: key and its diff,
 * save/load round trip, corrupt and wrong-version files refused, nearest size
 * class and kernel-source matching, the lock; the typed APSP shapes
 * (apspx_*): the configuration their candidates compile as, and (CUDA
 * builds: the registry) how gk__tune_select writes their entries over
 * apsp's. */
#include "tune/tune.h"
#ifdef GK_HAVE_CUDA
#include "tune/tunables.h"
#endif
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* A candidate of a tunable compiled in another kernel's image (apspx_*:
 * apsp's) compiles as that image's configuration: its defaults with the
 * candidate written over them; any other tunable's as itself. */
static void check_module_config(void)
{
    gk_tunable x = { .kernel = "apspx_f64", .space = &gk__space_apspx_f64, .image_name = "apsp" };
    gk_tunable sten = { .kernel = "stencil", .space = &gk__space_stencil, .image_name = "stencil" };
    gk_config c, m, def;
    gk__config_clear(&c);
    gk__config_parse("APSPX_F64_TM=8,APSPX_F64_TN=4", &c);
    gk_status st = gk__tunable_module_config(&x, &c, &m);
    ok(st == GK_OK && m.n == gk__space_apsp.nparams, "apspx_f64 8x4 compiles as a complete apsp configuration "
       "(%d parameters)", m.n);
    gk__space_complete(&gk__space_apsp, NULL, &def);
    int others = 1;
    for (int j = 0; j < gk__space_apsp.nparams; j++) {
        const char *name = gk__space_apsp.params[j].name;
        int want = !strcmp(name, "APSPX_F64_TM") ? 8 : gk__param(&def, name);
        others &= !strcmp(m.p[j].name, name) && m.p[j].value == want;
    }
    ok(others, "apsp's defaults in apsp's order, APSPX_F64_TM=8 written over them");
    gk_config s0;
    gk__space_complete(&gk__space_stencil, NULL, &s0);
    gk__config_set(&s0, "BX", 64);
    ok(gk__tunable_module_config(&sten, &s0, &m) == GK_OK && !memcmp(&m, &s0, sizeof m), "stencil compiles as itself");
}

#ifdef GK_HAVE_CUDA
static void write_table(const char *path, const char *key, uint64_t h, const char *entries)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "gk-tune-cache 1\nkey %s\n", key);
    for (const char *p = entries; *p;) {      /* lines "kernel size config", ';' between */
        const char *e = strchr(p, ';');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char line[512], kernel[32], cfg[256];
        long long size;
        int stale = 0;
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        if (sscanf(line, "%31s %lld %255s %d", kernel, &size, cfg, &stale) >= 3)
            fprintf(f, "entry kernel=%s size=%lld source=%016llx ms=1 default_ms=2 when=2026-11-28T00:00:00Z config=%s\n",
                    kernel, size, (unsigned long long)(h + (uint64_t)stale), cfg);
        p = e ? e + 1 : p + n;
    }
    fclose(f);
}

/* gk__tune_select("apsp"): the int32 entry with each apspx kernel's own
 * choice (user cache, else shipped table) written over it; stale entries
 * ignored; gk__tune_stored("apsp") (the int32 search's reference) without
 * them. */
static void check_typed_select(void)
{
    char dir[] = "/tmp/gk-test-apspx-XXXXXX", data[4200], key[512], model[300], path[4300], shipped[4400];
    if (!ok(mkdtemp(dir) != NULL, "mkdtemp")) return;
    gk_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "Test GPU");
    d.cc_major = 9; d.sm_count = 132; d.driver_version = 13000; d.runtime_version = 13000;
    d.max_threads_per_block = 1024; d.smem_per_block_optin = 227 * 1024; d.regs_per_sm = 65536;
    gk__tune_key(&d, key, sizeof key);
    gk__tune_model(key, model, sizeof model);
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(shipped, sizeof shipped, "%s/tuned", data);
    mkdir(data, 0700);
    mkdir(shipped, 0700);
    snprintf(shipped, sizeof shipped, "%s/tuned/%s.txt", data, model);
    gk__cache_path(dir, key, path, sizeof path);
    const uint64_t h = gk__tunable_source_hash(gk__tunable_find("apsp"));
    write_table(path, key, h, "apsp 4096 APSP_TILE=64,APSP_TM=4,APSP_TN=8,APSP_BK=32,APSP_UNROLL=16,APSP_MINB=1,MAXRREG=168;"
                "apspx_f64 4096 APSPX_F64_TM=8,APSPX_F64_TN=8;"
                "apspx_p 4096 APSPX_P_TM=4,APSPX_P_TN=4 1");                         /* stale */
    write_table(shipped, key, h, "apspx_p 16384 APSPX_P_TM=4,APSPX_P_TN=8;apspx_f32 4096 APSPX_F32_TM=4,APSPX_F32_TN=8");
    gk_config cfg, full;
    gk_config_source src;
    char detail[512];
    int tm, tn;
    gk_status st = gk__tune_select(&d, dir, data, "apsp", 4096, &cfg, &src, detail, sizeof detail);
    ok(st == GK_OK && src == GK_CONFIG_CACHE && gk__space_check(&gk__space_apsp, &cfg, &d, &full) == GK_OK,
       "apsp at 4096: from the cache, usable: %s", detail);
    ok(gk__param(&full, "APSP_TILE") == 64 && gk__param(&full, "MAXRREG") == 168, "the int32 kernel's entry");
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT64, 0, &tm, &tn);
    ok(tm == 8 && tn == 8, "float64: apspx_f64's cache entry 8x8 (%dx%d)", tm, tn);
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT32, 0, &tm, &tn);
    ok(tm == 4 && tn == 8, "float32: apspx_f32's shipped entry 4x8 (%dx%d)", tm, tn);
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT64, 1, &tm, &tn);
    ok(tm == 4 && tn == 8, "predecessors: the stale cache entry ignored, the shipped 4x8 (%dx%d)", tm, tn);
    ok(strstr(detail, "apspx_f64 from the cache") && strstr(detail, "apspx_f32 from the shipped table")
       && strstr(detail, "apspx_p from the shipped table"), "the detail says where each shape came from");
    /* an int32 plan's choice: the same int32 entry, the built-in shapes
       (the embedded module unless its own entry asks for a variant) */
    st = gk__tune_select_int32(&d, dir, data, "apsp", 4096, &cfg, &src, detail, sizeof detail);
    gk__space_check(&gk__space_apsp, &cfg, &d, &full);
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT64, 0, &tm, &tn);
    ok(st == GK_OK && src == GK_CONFIG_CACHE && gk__param(&full, "APSP_TILE") == 64 && tm == 4 && tn == 4
       && !strstr(detail, "typed shapes"), "int32 plans: apsp's entry alone, float64 shape the built-in 4x4 (%dx%d): %s",
       tm, tn, detail);
    gk_config stored[2];
    int ns = gk__tune_stored(&d, dir, data, "apsp", 4096, stored);
    ok(ns == 1 && gk__config_get(&stored[0], "APSPX_F64_TM", -1) == -1 && gk__param(&stored[0], "APSP_TILE") == 64,
       "gk__tune_stored(apsp): the int32 entry alone (%d)", ns);
    ok(gk__tune_select(&d, dir, data, "apspx_f64", 4096, &cfg, &src, detail, sizeof detail) == GK_OK
       && src == GK_CONFIG_CACHE && gk__param(&cfg, "APSPX_F64_TM") == 8 && cfg.n == 2, "apspx_f64 selects its own entry");
    /* no int32 entry: the defaults with the shapes, said to come from the table they came from */
    write_table(path, key, h, "apspx_f64 4096 APSPX_F64_TM=4,APSPX_F64_TN=8");
    st = gk__tune_select(&d, dir, NULL, "apsp", 20000, &cfg, &src, detail, sizeof detail);
    gk__space_check(&gk__space_apsp, &cfg, &d, &full);
    gk__apsp_typed_shape(&full, GK_DTYPE_FLOAT64, 0, &tm, &tn);
    ok(st == GK_OK && src == GK_CONFIG_CACHE && tm == 4 && tn == 8 && gk__param(&full, "APSP_TILE") == 128,
       "no apsp entry: the built-in int32 kernel, float64 4x8 from the cache: %s", detail);
    /* nothing current: the built-in configuration */
    write_table(path, key, h, "apspx_f64 4096 APSPX_F64_TM=4,APSPX_F64_TN=8 1");
    st = gk__tune_select(&d, dir, NULL, "apsp", 4096, &cfg, &src, detail, sizeof detail);
    ok(st == GK_OK && src == GK_CONFIG_DEFAULT && gk__space_check(&gk__space_apsp, &cfg, &d, &full) == GK_OK
       && gk__space_is_default(&gk__space_apsp, &full), "only stale shapes: the defaults (%s)", detail);
    /* an entry apspx_f64's own check refuses is not used */
    write_table(path, key, h, "apspx_f64 4096 APSPX_F64_TM=16,APSPX_F64_TN=8");
    st = gk__tune_select(&d, dir, NULL, "apsp", 4096, &cfg, &src, detail, sizeof detail);
    ok(st == GK_OK && src == GK_CONFIG_DEFAULT && gk__space_check(&gk__space_apsp, &cfg, &d, &full) == GK_OK
       && gk__space_is_default(&gk__space_apsp, &full), "a shape its own rules refuse is not used (%s)", detail);
    ok(!strcmp(gk_last_error(), ""), "no error left behind");
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ok(system(cmd) == 0, "cleanup");
}
#endif

int main(void)
{
    char dir[] = "/tmp/gk-test-cache-XXXXXX";
    no_plan();
    if (!mkdtemp(dir)) { ok(0, "mkdtemp"); return done_testing(); }

    gk_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "Test \"GPU\" X");
    d.cc_major = 9; d.cc_minor = 0; d.sm_count = 132; d.driver_version = 13000; d.runtime_version = 13000;
    char key[512], key2[512], diff[256];
    gk__tune_key(&d, key, sizeof key);
    ok(strstr(key, "device=\"Test 'GPU' X\"") && strstr(key, "cc=9.0") && strstr(key, "sms=132")
       && strstr(key, "driver=13000") && strstr(key, "runtime=13000") && strstr(key, "gk="), "key: %s", key);
    d.driver_version = 13010;
    gk__tune_key(&d, key2, sizeof key2);
    ok(strcmp(key, key2) != 0, "a driver change changes the key");
    gk__tune_key_diff(key2, key, diff, sizeof diff);
    ok(!strcmp(diff, "driver 13000 -> 13010"), "diff names the field: %s", diff);
    ok(gk__tune_key_hash(key) != gk__tune_key_hash(key2), "and its hash (the journal's name)");
    char model[300], p1[4300], p2[4300];
    gk__tune_model(key, model, sizeof model);
    ok(!strcmp(model, "test--gpu--x-sm90"), "model file name: %s", model);
    gk__cache_path("/c", key, p1, sizeof p1);
    gk__cache_path("/c", key2, p2, sizeof p2);
    ok(!strcmp(p1, p2), "a driver change keeps the cache file (to report it stale): %s", p1);

    /* round trip */
    gk_cache c, r;
    memset(&c, 0, sizeof c);
    snprintf(c.key, sizeof c.key, "%s", key);
    gk_cache_entry e = { 0 };
    snprintf(e.kernel, sizeof e.kernel, "apsp");
    e.size = 4096; e.source = 0x0123456789abcdefull; e.ms = 12.5; e.default_ms = 20.25;
    snprintf(e.when, sizeof e.when, "2026-11-22T00:00:00Z");
    gk__config_parse("TILE=128,UNROLL=4,MAXRREG=0", &e.cfg);
    gk__cache_put(&c, &e);
    e.size = 16384; e.ms = 700; gk__config_set(&e.cfg, "TILE", 64);
    gk__cache_put(&c, &e);
    e.ms = 650;
    gk__cache_put(&c, &e);
    is_int(c.n, 2, "put replaces an entry of the same kernel and size");
    char path[4300];
    gk__cache_path(dir, key, path, sizeof path);
    ok(gk__cache_save(path, &c) == GK_OK, "save %s", path);
    ok(gk__cache_load(path, &r) == GK_OK, "load it back");
    ok(!strcmp(r.key, c.key) && r.n == 2, "same key and entry count");
    ok(r.e[1].size == 16384 && r.e[1].ms == 650 && r.e[1].source == e.source
       && gk__config_get(&r.e[1].cfg, "TILE", 0) == 64 && gk__config_get(&r.e[1].cfg, "UNROLL", 0) == 4,
       "entry fields survive");

    const gk_cache_entry *n1 = gk__cache_nearest(&r, "apsp", 5000, e.source);
    const gk_cache_entry *n2 = gk__cache_nearest(&r, "apsp", 12000, e.source);
    const gk_cache_entry *n3 = gk__cache_nearest(&r, "apsp", 100000, e.source);
    ok(n1 && n1->size == 4096, "n=5000 takes the 4096 class");
    ok(n2 && n2->size == 16384, "n=12000 takes the 16384 class (log distance)");
    ok(n3 && n3->size == 16384, "n=100000 takes the largest");
    ok(!gk__cache_nearest(&r, "apsp", 4096, e.source + 1), "another kernel source matches nothing");
    ok(!gk__cache_nearest(&r, "stencil", 512, e.source), "another kernel matches nothing");

    /* corrupt, truncated, wrong version, foreign files */
    struct { const char *text, *what; } bad[] = {
        { "", "empty file" },
        { "gk-tune-cache 1\n", "no key line" },
        { "gk-tune-cache 2\nkey x\n", "another format version" },
        { "hello\n", "not a cache" },
        { "gk-tune-cache 1\nkey x\nentry kernel=apsp size=12 ms=1\n", "entry missing fields" },
        { "gk-tune-cache 1\nkey x\nentry kernel=apsp size=-5 source=1 ms=1 config=A=1\n", "negative size" },
        { "gk-tune-cache 1\nkey x\nentry kernel=apsp size=5 source=1 ms=1 config=A=1 junk\n", "junk token" },
        { "gk-tune-cache 1\nkey x\nentry kernel=apsp size=5 source=zz ms=1 config=A=1\n", "bad hash" },
        { "gk-tune-cache 1\nkey x\nbogus line\n", "unknown line" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(path, bad[i].text);
        gk_status st = gk__cache_load(path, &r);
        ok(st == GK_ECACHE && strstr(gk_last_error(), path), "%s is refused: %s", bad[i].what, gk_last_error());
    }
    unlink(path);
    ok(gk__cache_load(path, &r) == GK_EIO, "a missing file is GK_EIO, not corrupt");

    /* lock: a second holder (another process) is refused while the first holds it */
    int fd = -1;
    ok(gk__cache_lock(dir, &fd) == GK_OK && fd >= 0, "first lock taken");
    pid_t pid = fork();
    if (pid == 0) {
        int fd2 = -1;
        gk_status st = gk__cache_lock(dir, &fd2);
        _exit(st == GK_ECACHE && strstr(gk_last_error(), "locked by another gktune") ? 0 : 1);
    }
    int status = 1;
    waitpid(pid, &status, 0);
    ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a second gktune is refused while it is held");
    gk__cache_unlock(fd);
    pid = fork();
    if (pid == 0) {
        int fd2 = -1;
        _exit(gk__cache_lock(dir, &fd2) == GK_OK ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "and taken once released");

    /* Out-of-range cache lines (hand-edited or from another gk): loaded as
     * text, but the check gk_tune_select applies to the nearest entry
     * (gk__tune_usable: ranges first, then the constraints on the device)
     * refuses them with the reason; a sane entry of the same file passes. */
    {
        gk_device_info h200;
        memset(&h200, 0, sizeof h200);
        snprintf(h200.name, sizeof h200.name, "NVIDIA H200");
        h200.cc_major = 9; h200.sm_count = 132; h200.max_threads_per_block = 1024;
        h200.smem_per_block_optin = 227 * 1024; h200.regs_per_sm = 65536;
        write_text(path, "gk-tune-cache 1\nkey x\n"
                   "entry kernel=vadd size=16777216 source=1 ms=1 default_ms=1 when=2026-11-22T00:00:00Z "
                   "config=VADD_PER_THREAD=1,THREADS=2147483647\n"
                   "entry kernel=vadd size=1024 source=1 ms=1 default_ms=1 when=2026-11-22T00:00:00Z "
                   "config=VADD_PER_THREAD=2,THREADS=512\n"
                   "entry kernel=stencil size=256 source=2 ms=1 default_ms=1 when=2026-11-22T00:00:00Z "
                   "config=DESIGN=1,BX=64,BY=1073741825,RY=4,ZC=64,UNROLL=1,MAXRREG=0\n"
                   "entry kernel=stencil size=512 source=2 ms=1 default_ms=1 when=2026-11-22T00:00:00Z "
                   "config=DESIGN=1,BX=64,BY=1,RY=4,ZC=64,UNROLL=2,MAXRREG=64\n"
                   "entry kernel=apsp size=4096 source=3 ms=1 default_ms=1 when=2026-11-22T00:00:00Z "
                   "config=APSP_TILE=-2147483648,APSP_TM=8,APSP_TN=8,APSP_BK=8,APSP_UNROLL=8,APSP_MINB=2,MAXRREG=0\n");
        gk__clear_error();
        ok(gk__cache_load(path, &r) == GK_OK && r.n == 5, "a cache with out-of-range lines still loads %s", gk_last_error());
        char why[512];
        const gk_cache_entry *v = gk__cache_nearest(&r, "vadd", 1 << 24, 1);
        ok(v && gk__config_get(&v->cfg, "THREADS", 0) == 2147483647, "the nearest vadd entry is the THREADS=2147483647 one");
        ok(v && !gk__tune_usable(&gk__space_vadd, &v->cfg, &h200, why, sizeof why)
           && strstr(why, "THREADS=2147483647 is outside [32, 1024]"), "and it is not selected: %s", why);
        v = gk__cache_nearest(&r, "vadd", 1024, 1);
        ok(v && gk__tune_usable(&gk__space_vadd, &v->cfg, &h200, why, sizeof why), "a sane vadd entry is");
        const gk_cache_entry *s = gk__cache_nearest(&r, "stencil", 256, 2);
        ok(s && s->size == 256 && !gk__tune_usable(&gk__space_stencil, &s->cfg, &h200, why, sizeof why)
           && strstr(why, "BY=1073741825 is outside [1, 1024]"), "stencil BY=1073741825 is not selected: %s", why);
        ok(s && !gk__tune_usable(&gk__space_stencil, &s->cfg, NULL, why, sizeof why),
           "not even by the device-independent check");
        s = gk__cache_nearest(&r, "stencil", 512, 2);
        ok(s && gk__tune_usable(&gk__space_stencil, &s->cfg, &h200, why, sizeof why), "the shipped-style stencil entry is");
        const gk_cache_entry *a = gk__cache_nearest(&r, "apsp", 4096, 3);
        ok(a && !gk__tune_usable(&gk__space_apsp, &a->cfg, &h200, why, sizeof why)
           && strstr(why, "APSP_TILE=-2147483648 is outside [32, 256]"), "apsp APSP_TILE=INT_MIN is not selected: %s", why);
        ok(!strcmp(gk_last_error(), ""), "gk__tune_usable leaves no error behind");
        unlink(path);
    }

    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ok(system(cmd) == 0, "cleanup");
    check_module_config();
#ifdef GK_HAVE_CUDA
    check_typed_select();
#else
    skip("built without CUDA (no tuner registry)", "apsp's configuration with the apspx_* entries over it");
#endif
    return done_testing();
}
