/* select.c - which configuration gk runs a kernel with: the user's tuning
 * cache, else the table shipped for this device, else built-in defaults.  A
 * cache whose key or kernel-source hash does not match is reported (detail)
 * and ignored, never used. */
#include "tune/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shipped tables: DATA_DIR/tuned/<model>.txt (a cache file of that device
 * model, copied). */
static void shipped_path(const char *data_dir, const char *key, char *path, size_t n)
{
    char model[300];
    gk__tune_model(key, model, sizeof model);
    snprintf(path, n, "%s/tuned/%s.txt", data_dir, model);
}

/* A shipped table matches on the device model (name, cc, SMs), not on driver
 * or gk versions: the kernel-source hash per entry guards against a changed
 * kernel. */
static int same_model(const char *a, const char *b)
{
    const char *ea = strstr(a, " driver="), *eb = strstr(b, " driver=");
    return ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a));
}

/* A stored configuration is used only if the kernel knows every name, each
 * value lies in its parameter's range and the constraints accept it on this
 * device: gk__space_check, the same check as --config.  Otherwise 0 and the
 * reason in why. */
int gk__tune_usable(const gk_space *s, const gk_config *cfg, const gk_device_info *d, char *why, size_t n)
{
    if (gk__space_check(s, cfg, d, NULL) == GK_OK)
        return 1;
    snprintf(why, n, "%s", gk_last_error());
    gk__clear_error();
    return 0;
}

/* What looking a kernel up in one stored table (lookup) found. */
enum { LK_FOUND, LK_NO_FILE, LK_CORRUPT, LK_OTHER_KEY, LK_NO_ENTRY, LK_UNUSABLE };

/* The entry of t nearest size in the table at path, for device d (key: its
 * key): LK_FOUND, *cfg and its size class in *esize when it is current (the
 * kernel's source hash) and usable on d.  The file is read by the rules of
 * cachefs.c (own: the user's cache, which must be the user's file; a shipped
 * table need not be).  The table must carry the key
 * exactly, or with model set only the same device model (a shipped table).
 * LK_CORRUPT leaves the load's message in gk_last_error(); LK_OTHER_KEY
 * gives the table's key in other (when not NULL); LK_UNUSABLE the reason in
 * why. */
static int lookup(const gk_tunable *t, const gk_device_info *d, const char *key, const char *path, int model,
                  int64_t size, gk_config *cfg, int64_t *esize, char *other, size_t on, char *why, size_t wn)
{
    gk_cache c;
    int r = gk__cache_read(path, !model, &c);
    if (r != GK_CFILE_OK)
        return r == GK_CFILE_ABSENT ? LK_NO_FILE : LK_CORRUPT;
    if (model ? !same_model(c.key, key) : strcmp(c.key, key) != 0) {
        if (other) snprintf(other, on, "%s", c.key);
        return LK_OTHER_KEY;
    }
    const gk_cache_entry *e = gk__cache_nearest(&c, t->kernel, size, gk__tunable_source_hash(t));
    if (!e)
        return LK_NO_ENTRY;
    if (!gk__tune_usable(t->space, &e->cfg, d, why, wn))
        return LK_UNUSABLE;
    *cfg = e->cfg;
    if (esize) *esize = e->size;
    return LK_FOUND;
}

/* One kernel's configuration by the chain (user cache, shipped table,
 * defaults); gk__tune_select adds the typed shapes to apsp's. */
static gk_status select_one(const gk_device_info *dev, const char *cache_dir, const char *data_dir,
                            const char *kernel, int64_t size, gk_config *cfg,
                            gk_config_source *src, char *detail, size_t n)
{
    const gk_device_info d = *dev;
    char key[512], other[512], path[4200], why[1024] = "", bad[512];
    int64_t esize = 0;
    gk__config_clear(cfg);
    *src = GK_CONFIG_DEFAULT;
    if (detail) snprintf(detail, n, "no GPU");
    const gk_tunable *t = gk__tunable_find(kernel);
    if (!t) {
        gk__clear_error();
        return GK_OK;
    }
    gk__tune_key(&d, key, sizeof key);

    char real[4096];
    gk_status dst = cache_dir && *cache_dir ? gk__cache_dir_check(cache_dir, 0, real, sizeof real) : GK_OK;
    if (cache_dir && *cache_dir && dst == GK_EIO) {
        snprintf(why, sizeof why, "no tuning cache for this device");
    } else if (cache_dir && *cache_dir && dst) {
        snprintf(why, sizeof why, "tuning cache ignored: %s", gk_last_error());
    } else if (cache_dir && *cache_dir) {
        gk__cache_path(real, key, path, sizeof path);
        switch (lookup(t, &d, key, path, 0, size, cfg, &esize, other, sizeof other, bad, sizeof bad)) {
        case LK_FOUND:
            *src = GK_CONFIG_CACHE;
            if (detail) snprintf(detail, n, "%s, size class %lld", path, (long long)esize);
            return GK_OK;
        case LK_OTHER_KEY: {
            char diff[256];
            gk__tune_key_diff(key, other, diff, sizeof diff);
            snprintf(why, sizeof why, "tuning cache stale (%s): run gktune", diff);
            break;
        }
        case LK_UNUSABLE:
            snprintf(why, sizeof why, "tuning cache entry for %s ignored: %s", kernel, bad);
            break;
        case LK_NO_ENTRY:
            snprintf(why, sizeof why, "tuning cache has no current entry for %s (kernel changed or not tuned): run gktune", kernel);
            break;
        case LK_CORRUPT:
            snprintf(why, sizeof why, "tuning cache ignored: %s", gk_last_error());
            break;
        default:
            snprintf(why, sizeof why, "no tuning cache for this device");
        }
    } else {
        snprintf(why, sizeof why, "no tuning cache directory");
    }
    if (data_dir && *data_dir) {
        shipped_path(data_dir, key, path, sizeof path);
        int r = lookup(t, &d, key, path, 1, size, cfg, &esize, NULL, 0, bad, sizeof bad);
        if (r == LK_FOUND) {
            *src = GK_CONFIG_SHIPPED;
            if (detail) snprintf(detail, n, "%s; %s, size class %lld", why, path, (long long)esize);
            return GK_OK;
        }
        if (r == LK_UNUSABLE) {
            size_t l = strlen(why);
            snprintf(why + l, sizeof why - l, "%sshipped table entry for %s ignored: %s", l ? "; " : "", kernel, bad);
        }
    }
    gk__clear_error();
    if (detail) snprintf(detail, n, "%s", why);
    return GK_OK;
}

/* apsp's configuration is the int32 kernel's entry with the typed kernels'
 * shapes written over it: each apspx_* kernel's own choice, by the same
 * chain (its entries in the user's cache, else the shipped table's; none:
 * apsp's value stays, the built-in shape unless the apsp entry names one).
 * The int32 kernel's entries never hold a searched shape (one candidate
 * each in apsp's space), so gk__tune_stored("apsp"), the int32 search's
 * reference, leaves them out.  A merged configuration the apsp space
 * refuses (it cannot happen with entries that pass their own checks: the
 * typed rules are the same function) keeps apsp's alone, said in detail.
 * Cost: the module is one image, so a plan whose own entry is the
 * built-in configuration but whose shapes are not loads an NVRTC variant
 * (compiled once per process) instead of the embedded one: only plans of
 * the other element types take them (gk__ctx_config_typed); int32 plans,
 * predecessors and negative weights included, use gk__tune_select_int32
 * and the built-in shapes. */
gk_status gk__tune_select_int32(const gk_device_info *dev, const char *cache_dir, const char *data_dir,
                                const char *kernel, int64_t size, gk_config *cfg,
                                gk_config_source *src, char *detail, size_t n)
{
    return select_one(dev, cache_dir, data_dir, kernel, size, cfg, src, detail, n);
}

gk_status gk__tune_select(const gk_device_info *dev, const char *cache_dir, const char *data_dir,
                          const char *kernel, int64_t size, gk_config *cfg,
                          gk_config_source *src, char *detail, size_t n)
{
    gk_status st = select_one(dev, cache_dir, data_dir, kernel, size, cfg, src, detail, n);
    if (st || !kernel || strcmp(kernel, "apsp") || !gk__tunable_find("apsp"))
        return st;
    gk_config shape[GK_APSPX_NKINDS];
    const gk_config *shapes[GK_APSPX_NKINDS];
    gk_config_source from[GK_APSPX_NKINDS];
    int any = 0;
    for (int k = 0; k < GK_APSPX_NKINDS; k++) {
        const char *name = gk__apspx_kinds[k].space->kernel;
        shapes[k] = NULL;
        if (gk__tunable_find(name) && select_one(dev, cache_dir, data_dir, name, size, &shape[k], &from[k], NULL, 0) == GK_OK
            && (from[k] == GK_CONFIG_CACHE || from[k] == GK_CONFIG_SHIPPED)) {
            shapes[k] = &shape[k];
            any = 1;
        }
    }
    gk__clear_error();
    if (!any)
        return GK_OK;
    char why[512], text[512] = "";
    size_t l = 0;
    if (gk__apspx_apply(cfg, shapes, dev, why, sizeof why)) {
        gk_config_source best = GK_CONFIG_SHIPPED;
        for (int k = 0; k < GK_APSPX_NKINDS; k++)
            if (shapes[k]) {
                int w = snprintf(text + l, sizeof text - l, "%s%s from the %s", l ? ", " : "; typed shapes: ",
                                 gk__apspx_kinds[k].space->kernel, from[k] == GK_CONFIG_CACHE ? "cache" : "shipped table");
                if (w > 0 && (size_t)w < sizeof text - l) l += (size_t)w;
                if (from[k] == GK_CONFIG_CACHE) best = GK_CONFIG_CACHE;
            }
        if (*src == GK_CONFIG_DEFAULT)     /* no int32 entry: where the shapes came from */
            *src = best;
    } else {
        snprintf(text, sizeof text, "; typed shapes ignored: %.400s", why);
    }
    if (detail && n) {
        size_t dl = strlen(detail);
        snprintf(detail + dl, n - dl, "%s", text);
    }
    return GK_OK;
}

/* (cache_dir: the tuner's, checked by gk__cache_dir_check and resolved) */
int gk__tune_stored(const gk_device_info *dev, const char *cache_dir, const char *data_dir, const char *kernel,
                    int64_t size, gk_config out[2])
{
    const gk_tunable *t = gk__tunable_find(kernel);
    char key[512], path[4200], why[512];
    int n = 0;
    if (!t)
        return 0;
    gk__tune_key(dev, key, sizeof key);
    for (int shipped = 0; shipped < 2; shipped++) {
        const char *dir = shipped ? data_dir : cache_dir;
        gk_config cfg;
        if (!dir || !*dir)
            continue;
        if (shipped)
            shipped_path(dir, key, path, sizeof path);
        else
            gk__cache_path(dir, key, path, sizeof path);
        if (lookup(t, dev, key, path, shipped, size, &cfg, NULL, NULL, 0, why, sizeof why) == LK_FOUND
            && (n == 0 || memcmp(&out[0], &cfg, sizeof cfg)))
            out[n++] = cfg;
    }
    gk__clear_error();
    return n;
}

gk_status gk__tune_cache_describe(const gk_device_info *dev, const char *dir,
                                  char *state, size_t n, char *lines, size_t ln)
{
    char key[512], path[4200];
    gk_cache c;
    gk_status st;
    if (lines && ln) lines[0] = '\0';
    if (!dir || !*dir) { snprintf(state, n, "no tuning cache directory"); return GK_OK; }
    if (!dev) { snprintf(state, n, "no GPU: nothing to tune (%s)", dir); return GK_OK; }
    gk__tune_key(dev, key, sizeof key);
    char real[4096];
    st = gk__cache_dir_check(dir, 0, real, sizeof real);
    if (st == GK_EIO) { snprintf(state, n, "none yet (run gktune): %s", dir); gk__clear_error(); return GK_OK; }
    if (st) { snprintf(state, n, "ignored: %s", gk_last_error()); gk__clear_error(); return GK_OK; }
    gk__cache_path(real, key, path, sizeof path);
    st = gk__cache_load(path, &c);
    if (st == GK_EIO) { snprintf(state, n, "none yet for this device (run gktune): %s", path); gk__clear_error(); return GK_OK; }
    if (st) { snprintf(state, n, "ignored: %s", gk_last_error()); gk__clear_error(); return GK_OK; }
    if (strcmp(c.key, key)) {
        char diff[256];
        gk__tune_key_diff(key, c.key, diff, sizeof diff);
        snprintf(state, n, "stale (%s), ignored: %s", diff, path);
        return GK_OK;
    }
    int current = 0;
    for (int i = 0; i < c.n; i++) {
        const gk_tunable *t = gk__tunable_find(c.e[i].kernel);
        int ok = t && gk__tunable_source_hash(t) == c.e[i].source;
        current += ok;
        if (lines && ln) {
            char cfg[512];
            size_t l = strlen(lines);
            gk__config_format(&c.e[i].cfg, cfg, sizeof cfg);
            snprintf(lines + l, ln - l, "%s %lld: %.4g ms (default %.4g ms) %s%s\n", c.e[i].kernel,
                     (long long)c.e[i].size, c.e[i].ms, c.e[i].default_ms, cfg,
                     ok ? "" : " [stale: kernel source changed]");
        }
    }
    snprintf(state, n, "%d entr%s (%d current): %s", c.n, c.n == 1 ? "y" : "ies", current, path);
    return GK_OK;
}
