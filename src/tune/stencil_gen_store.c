/* stencil_gen_store.c - compiled kernels of the generated stencil engine in
 * the cache directory (the engine's store, src/gpu/stencil_gen.h):
 * CACHE_DIR/stencil-gen-cubins/NAME.cubin, read and written by the cache
 * directory's rules (cachefs.c: the user's regular files, no links, atomic
 * writes); a file that is not an ELF image is ignored (compiled again and
 * replaced).
 *
 * Which directory: the one in the store itself, the context's whose call
 * is compiling (a plan keeps its store; the tuner, the bench and the slabs
 * make theirs per call).  Two contexts with two cache directories, on one
 * thread or on two, each keep their kernels in their own. */
#include "tune/stencil_gen_store.h"
#include "tune/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int disk_path(const gk__sg_cubin_store *s, const char *name, char *sub, size_t sn, char *path, size_t n)
{
    return s->where[0] && snprintf(sub, sn, "%s/stencil-gen-cubins", s->where) < (int)sn
           && snprintf(path, n, "%s/stencil-gen-cubins/%s.cubin", s->where, name) < (int)n;
}

static int disk_load(const gk__sg_cubin_store *s, const char *name, void **data, size_t *size)
{
    char sub[4200], path[4300], real[4096], *buf = NULL;
    size_t len = 0;
    /* a directory the cache rules refuse is not read (one that does not
     * exist yet simply holds nothing) */
    if (!disk_path(s, name, sub, sizeof sub, path, sizeof path)
        || gk__cache_dir_check(s->where, 0, real, sizeof real) == GK_ECACHE) {
        gk__clear_error();
        return 0;
    }
    gk__clear_error();
    if (gk__cache_read_all(path, 1, GK_CUBIN_MAX_BYTES, &buf, &len) != GK_CFILE_OK) {
        gk__clear_error();
        free(buf);
        return 0;
    }
    if (len < 4 || memcmp(buf, "\177ELF", 4)) {
        free(buf);
        return 0;
    }
    *data = buf;
    *size = len;
    return 1;
}

static void disk_save(const gk__sg_cubin_store *s, const char *name, const void *data, size_t size)
{
    char sub[4200], path[4300], real[4096];
    /* a cache, not a requirement: any failure only costs a compile later */
    if (!s->where[0] || gk__cache_dir_check(s->where, 1, real, sizeof real)
        || !disk_path(s, name, sub, sizeof sub, path, sizeof path) || gk__cache_subdir(sub)
        || gk__cache_write_atomic(path, data, size))
        gk__clear_error();
}

void gk__stencil_gen_disk_store(const char *cache_dir, gk__sg_cubin_store *store)
{
    memset(store, 0, sizeof *store);
    if (!cache_dir || !*cache_dir || strlen(cache_dir) >= sizeof store->where)
        return;                                 /* none: the process's cache only */
    snprintf(store->where, sizeof store->where, "%s", cache_dir);
    store->load = disk_load;
    store->save = disk_save;
}
