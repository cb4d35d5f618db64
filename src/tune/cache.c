/* cache.c - the tuning cache file: versioned text, one line per (kernel,
 * size class), written atomically under a lock.
 *
 *   # gk tuning cache - written by gktune(1); safe to delete.
 *   gk-tune-cache 1
 *   key device="NVIDIA H200" cc=9.0 sms=132 driver=13000 runtime=13000 gk=0.1.0
 *   entry kernel=apsp size=16384 source=1f2e3d4c5b6a7988 ms=412.5 default_ms=530.1 when=2026-11-22T01:02:03Z config=BM=128,...
 *
 * Read and written by the rules of cachefs.c (no link followed, no FIFO
 * waited on, only regular files of the user's, at most GK_CACHE_MAX_BYTES
 * read). */
#include "tune/tune.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void gk__cache_path(const char *dir, const char *key, char *path, size_t n)
{
    char model[300];
    gk__tune_model(key, model, sizeof model);
    snprintf(path, n, "%s/tune-%s.txt", dir, model);
}

static int parse_entry(char *line, gk_cache_entry *e)
{
    memset(e, 0, sizeof *e);
    int have = 0;
    for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
        char *eq = strchr(tok, '=');
        if (!eq) return 0;
        *eq = '\0';
        const char *k = tok, *v = eq + 1;
        char *end;
        if (!strcmp(k, "kernel")) { snprintf(e->kernel, sizeof e->kernel, "%s", v); have |= 1; }
        else if (!strcmp(k, "size")) { e->size = strtoll(v, &end, 10); if (*end || e->size < 1) return 0; have |= 2; }
        else if (!strcmp(k, "source")) { e->source = strtoull(v, &end, 16); if (*end) return 0; have |= 4; }
        else if (!strcmp(k, "ms")) { e->ms = strtod(v, &end); if (*end || !(e->ms > 0) || !isfinite(e->ms)) return 0; have |= 8; }
        else if (!strcmp(k, "default_ms")) { e->default_ms = strtod(v, &end); if (*end || !isfinite(e->default_ms)) return 0; }
        else if (!strcmp(k, "when")) snprintf(e->when, sizeof e->when, "%s", v);
        else if (!strcmp(k, "config")) { if (gk__config_parse(v, &e->cfg)) return 0; have |= 16; }
        else return 0;
    }
    return have == 31;
}

/* The text of a cache (NUL-terminated, len bytes) into *c; GK_CFILE_OK or
 * GK_CFILE_DAMAGED with the message. */
static int parse_cache(const char *path, char *text, size_t len, gk_cache *c)
{
    int lineno = 0, version = 0;
    if (memchr(text, '\0', len)) {
        gk__fail(GK_ECACHE, "%s: a NUL byte: not a gk tuning cache", path);
        return GK_CFILE_DAMAGED;
    }
    for (char *line = text, *next; line < text + len; line = next) {
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : text + len;
        if (nl) *nl = '\0';
        lineno++;
        if (strlen(line) > 2046) {
            gk__fail(GK_ECACHE, "%s:%d: line too long", path, lineno);
            return GK_CFILE_DAMAGED;
        }
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (!version) {
            if (sscanf(line, "gk-tune-cache %d", &version) != 1) {
                gk__fail(GK_ECACHE, "%s:%d: not a gk tuning cache", path, lineno);
                return GK_CFILE_DAMAGED;
            }
            if (version != GK_CACHE_VERSION) {
                gk__fail(GK_ECACHE, "%s: cache format version %d, this gk reads %d", path, version, GK_CACHE_VERSION);
                return GK_CFILE_DAMAGED;
            }
        } else if (!strncmp(line, "key ", 4)) {
            snprintf(c->key, sizeof c->key, "%.511s", line + 4);
        } else if (!strncmp(line, "entry ", 6)) {
            if (c->n == GK_CACHE_MAX_ENTRIES) {
                gk__fail(GK_ECACHE, "%s: more than %d entries", path, GK_CACHE_MAX_ENTRIES);
                return GK_CFILE_DAMAGED;
            }
            if (!parse_entry(line + 6, &c->e[c->n])) {
                gk__fail(GK_ECACHE, "%s:%d: corrupt entry", path, lineno);
                return GK_CFILE_DAMAGED;
            }
            c->n++;
        } else {
            gk__fail(GK_ECACHE, "%s:%d: unknown line", path, lineno);
            return GK_CFILE_DAMAGED;
        }
    }
    if (!version || !c->key[0]) {
        gk__fail(GK_ECACHE, "%s: %s", path, !version ? "empty or truncated" : "no key line");
        return GK_CFILE_DAMAGED;
    }
    return GK_CFILE_OK;
}

int gk__cache_read(const char *path, int own, gk_cache *c)
{
    char *text;
    size_t len;
    memset(c, 0, sizeof *c);
    int r = gk__cache_read_all(path, own, GK_CACHE_MAX_BYTES, &text, &len);
    if (r != GK_CFILE_OK)
        return r;
    r = parse_cache(path, text, len, c);
    free(text);
    if (r != GK_CFILE_OK)
        memset(c, 0, sizeof *c);
    return r;
}

gk_status gk__cache_load(const char *path, gk_cache *c)
{
    int r = gk__cache_read(path, 1, c);
    return r == GK_CFILE_OK ? GK_OK : r == GK_CFILE_ABSENT ? GK_EIO : GK_ECACHE;
}

gk_status gk__cache_save(const char *path, const gk_cache *c)
{
    /* at most GK_CACHE_MAX_ENTRIES lines of at most 2 KiB, and the header */
    enum { LINE = 2048 };
    size_t cap = (size_t)(GK_CACHE_MAX_ENTRIES + 2) * LINE, len;
    char *text = malloc(cap), cfg[1024];
    if (!text)
        return gk__fail(GK_ENOMEM, "%s: no memory to write the cache", path);
    int w = snprintf(text, LINE, "# gk tuning cache - written by gktune(1); safe to delete.\n"
                     "gk-tune-cache %d\nkey %s\n", GK_CACHE_VERSION, c->key);
    len = w > 0 && w < LINE ? (size_t)w : 0;
    for (int i = 0; i < c->n && i < GK_CACHE_MAX_ENTRIES; i++) {
        const gk_cache_entry *e = &c->e[i];
        gk__config_format(&e->cfg, cfg, sizeof cfg);
        w = snprintf(text + len, LINE, "entry kernel=%s size=%lld source=%016llx ms=%.6g default_ms=%.6g when=%s config=%s\n",
                     e->kernel, (long long)e->size, (unsigned long long)e->source, e->ms, e->default_ms,
                     e->when[0] ? e->when : "unknown", cfg);
        if (w < 0 || w >= LINE) {          /* a line the reader would refuse */
            free(text);
            return gk__fail(GK_EINTERNAL, "%s: entry %d does not fit a line", path, i + 1);
        }
        len += (size_t)w;
    }
    gk_status st = gk__cache_write_atomic(path, text, len);
    free(text);
    return st;
}

void gk__cache_put(gk_cache *c, const gk_cache_entry *e)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->e[i].kernel, e->kernel) && c->e[i].size == e->size) {
            c->e[i] = *e;
            return;
        }
    if (c->n < GK_CACHE_MAX_ENTRIES)
        c->e[c->n++] = *e;
}

const gk_cache_entry *gk__cache_nearest(const gk_cache *c, const char *kernel, int64_t size, uint64_t source)
{
    const gk_cache_entry *best = NULL;
    double bd = 0;
    for (int i = 0; i < c->n; i++) {
        if (strcmp(c->e[i].kernel, kernel) || c->e[i].source != source)
            continue;
        double d = fabs(log((double)c->e[i].size) - log((double)(size > 0 ? size : 1)));
        if (!best || d < bd) { best = &c->e[i]; bd = d; }
    }
    return best;
}

gk_status gk__cache_lock(const char *dir, int *fd)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/tune.lock", dir);
    gk_status st = gk__cache_open_write(path, O_RDWR, fd);
    if (st) return st;
    if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        ssize_t r = pread(*fd, pid, sizeof pid - 1, 0);
        pid[r > 0 ? r : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        close(*fd);
        *fd = -1;
        return gk__fail(GK_ECACHE, "the tuning cache %s is locked by another gktune%s%s%s", dir,
                        pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
    }
    char buf[32];
    int len = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    if (ftruncate(*fd, 0) == 0 && pwrite(*fd, buf, (size_t)len, 0) < 0) { /* informative only */ }
    return GK_OK;
}

void gk__cache_unlock(int fd)
{
    if (fd >= 0) {
        if (ftruncate(fd, 0) != 0) { /* informative only */ }
        flock(fd, LOCK_UN);
        close(fd);
    }
}
