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

#ifdef __cplusplus
}
#endif
#endif /* GK_TUNE_H */
