/* gk/tune.h - the tuning cache and the choice of kernel configurations. */
#ifndef GK_TUNE_H
#define GK_TUNE_H

#include <gk/common.h>
#include <gk/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tuning cache directory: $GK_CACHE_DIR, else $XDG_CACHE_HOME/gk, else
 * ~/.cache/gk. */
gk_status gk_cache_dir(char *buf, size_t n);

/* Where a configuration came from. */
typedef enum gk_config_source {
    GK_CONFIG_DEFAULT = 0,   /* built-in defaults of the kernel source */
    GK_CONFIG_SHIPPED,       /* a table shipped in data/ for this device */
    GK_CONFIG_CACHE,         /* the user's tuning cache (gktune) */
    GK_CONFIG_USER           /* --config on the command line */
} gk_config_source;

const char *gk_config_source_name(gk_config_source s);

/* The configuration gk uses for `kernel` ("apsp", "stencil") at problem size
 * `size` (APSP: vertices; stencil: points along the largest axis) on the
 * current GPU: user cache, else shipped table, else built-in defaults (empty
 * cfg).  Never fails for lack of a cache; *src says which was used and, if
 * detail != NULL, detail says why (e.g. "cache stale: driver changed"). */
gk_status gk_tune_select(const char *kernel, int64_t size, gk_config *cfg,
                         gk_config_source *src, char *detail, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_TUNE_H */
