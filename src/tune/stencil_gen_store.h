/* stencil_gen_store.h - the generated stencil engine's compiled kernels in a
 * cache directory (src/tune/stencil_gen_store.c; every build: a plan
 * carries its store whatever its backend). */
#ifndef GK_STENCIL_GEN_STORE_H
#define GK_STENCIL_GEN_STORE_H

#include "gpu/stencil_gen.h"

/* *store = the cubins of cache_dir/stencil-gen-cubins/ (NULL or "": none,
 * the process's cache only; a name too long to hold: none either).  Made
 * once per call or plan from its context's cache directory and passed to
 * gk__stencil_gen_open: no process-wide setting.  Nothing is read here; a
 * directory the cache rules refuse (another owner's, writable by
 * others...) is not used by load and save, one that does not exist yet is
 * made by the first save. */
void gk__stencil_gen_disk_store(const char *cache_dir, gk__sg_cubin_store *store);

#endif /* GK_STENCIL_GEN_STORE_H */
