/* cachedir.c - where the tuning cache lives. */
#include "core/internal.h"

#include <stdio.h>
#include <stdlib.h>

gk_status gk_cache_dir(char *buf, size_t n)
{
    const char *d = getenv("GK_CACHE_DIR");
    if (d && *d) {
        snprintf(buf, n, "%s", d);
        return GK_OK;
    }
    d = getenv("XDG_CACHE_HOME");
    if (d && *d) {
        snprintf(buf, n, "%s/gk", d);
        return GK_OK;
    }
    d = getenv("HOME");
    if (!d || !*d)
        return gk__fail(GK_ECACHE, "no cache directory: set GK_CACHE_DIR or HOME");
    snprintf(buf, n, "%s/.cache/gk", d);
    return GK_OK;
}
