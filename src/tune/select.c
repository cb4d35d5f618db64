/* select.c - which configuration gk runs a kernel with: the user's tuning
 * cache, else the table shipped for this device, else built-in defaults.  A
 * cache whose key or kernel-source hash does not match is reported (detail)
 * and ignored, never used. */
#include "tune/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gk_config_source_name(gk_config_source s)
{
    switch (s) {
    case GK_CONFIG_DEFAULT: return "built-in default";
    case GK_CONFIG_SHIPPED: return "shipped table";
    case GK_CONFIG_CACHE:   return "tuning cache";
    case GK_CONFIG_USER:    return "--config";
    }
    return "unknown";
}

static int current_device(gk_device_info *d)
{
    return gk_gpu_info(gk_gpu_ordinal(), d) == GK_OK;
}

#ifndef GK_PKGDATADIR
#error GK_PKGDATADIR (the installed $(pkgdatadir)) must come from Makefile.am
#endif

const char *gk_data_dir(void)
{
    const char *dir = getenv("GK_DATA_DIR");
    return dir && *dir ? dir : GK_PKGDATADIR;
}

/* Shipped tables: $GK_DATA_DIR/tuned/<model>.txt, else the installed
 * pkgdatadir's: a cache file of that device model, copied. */
static void shipped_path(const char *key, char *path, size_t n)
{
    char model[300];
    gk__tune_model(key, model, sizeof model);
    snprintf(path, n, "%s/tuned/%s.txt", gk_data_dir(), model);
}

/* A shipped table matches on the device model (name, cc, SMs), not on driver
 * or gk versions: the kernel-source hash per entry guards against a changed
 * kernel. */
static int same_model(const char *a, const char *b)
{
    const char *ea = strstr(a, " driver="), *eb = strstr(b, " driver=");
    return ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a));
}

/* A stored configuration is used only if the kernel knows every name and
 * the constraints accept it on this device. */
static int usable(const gk_tunable *t, const gk_config *cfg, const gk_device_info *d)
{
    gk_config full;
    char why[256];
    return gk__space_complete(t->space, cfg, &full) == GK_OK
           && !(t->space->reject && t->space->reject(&full, d, why, sizeof why));
}

gk_status gk_tune_select(const char *kernel, int64_t size, gk_config *cfg,
                         gk_config_source *src, char *detail, size_t n)
{
    gk_device_info d;
    char key[512], path[4200], dir[4096], why[1024] = "";
    gk_cache c;
    gk_config_clear(cfg);
    *src = GK_CONFIG_DEFAULT;
    if (detail) snprintf(detail, n, "no GPU");
    const gk_tunable *t = gk__tunable_find(kernel);
    if (!t || !current_device(&d)) {
        gk__clear_error();
        return GK_OK;
    }
    uint64_t source = gk__tunable_source_hash(t);
    gk__tune_key(&d, key, sizeof key);

    if (gk_cache_dir(dir, sizeof dir) == GK_OK) {
        gk__cache_path(dir, key, path, sizeof path);
        gk_status st = gk__cache_load(path, &c);
        if (st == GK_OK && strcmp(c.key, key)) {
            char diff[256];
            gk__tune_key_diff(key, c.key, diff, sizeof diff);
            snprintf(why, sizeof why, "tuning cache stale (%s): run gktune", diff);
        } else if (st == GK_OK) {
            const gk_cache_entry *e = gk__cache_nearest(&c, kernel, size, source);
            if (e && usable(t, &e->cfg, &d)) {
                *cfg = e->cfg;
                *src = GK_CONFIG_CACHE;
                if (detail) snprintf(detail, n, "%s, size class %lld", path, (long long)e->size);
                return GK_OK;
            }
            snprintf(why, sizeof why, "tuning cache has no current entry for %s (kernel changed or not tuned): run gktune", kernel);
        } else if (st == GK_ECACHE) {
            snprintf(why, sizeof why, "tuning cache ignored: %s", gk_last_error());
        } else {
            snprintf(why, sizeof why, "no tuning cache for this device");
        }
    }
    shipped_path(key, path, sizeof path);
    if (gk__cache_load(path, &c) == GK_OK && same_model(c.key, key)) {
        const gk_cache_entry *e = gk__cache_nearest(&c, kernel, size, source);
        if (e && usable(t, &e->cfg, &d)) {
            *cfg = e->cfg;
            *src = GK_CONFIG_SHIPPED;
            if (detail) snprintf(detail, n, "%s; %s, size class %lld", why, path, (long long)e->size);
            return GK_OK;
        }
    }
    gk__clear_error();
    if (detail) snprintf(detail, n, "%s", why);
    return GK_OK;
}

gk_status gk_tune_cache_describe(char *state, size_t n, char *lines, size_t ln)
{
    gk_device_info d;
    char key[512], path[4200], dir[4096];
    gk_cache c;
    if (lines && ln) lines[0] = '\0';
    gk_status st = gk_cache_dir(dir, sizeof dir);
    if (st) { snprintf(state, n, "%s", gk_last_error()); return GK_OK; }
    if (!current_device(&d)) { snprintf(state, n, "no GPU: nothing to tune (%s)", dir); gk__clear_error(); return GK_OK; }
    gk__tune_key(&d, key, sizeof key);
    gk__cache_path(dir, key, path, sizeof path);
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
            gk_config_format(&c.e[i].cfg, cfg, sizeof cfg);
            snprintf(lines + l, ln - l, "%s %lld: %.4g ms (default %.4g ms) %s%s\n", c.e[i].kernel,
                     (long long)c.e[i].size, c.e[i].ms, c.e[i].default_ms, cfg,
                     ok ? "" : " [stale: kernel source changed]");
        }
    }
    snprintf(state, n, "%d entr%s (%d current): %s", c.n, c.n == 1 ? "y" : "ies", current, path);
    return GK_OK;
}
