/* select.c - which configuration gk runs a kernel with. */
#include "core/internal.h"

#include <stdio.h>

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

gk_status gk_tune_select(const char *kernel, int64_t size, gk_config *cfg,
                         gk_config_source *src, char *detail, size_t n)
{
    (void)kernel; (void)size;
    gk_config_clear(cfg);
    *src = GK_CONFIG_DEFAULT;
    if (detail) snprintf(detail, n, "no tuning cache yet");
    return GK_OK;
}
