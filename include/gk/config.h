/* gk/config.h - kernel configurations: named integer parameters.
 *
 * A configuration is a list of NAME=VALUE pairs ("TILE=64,UNROLL=4").  Names
 * are the kernel source's macros; the pseudo-parameter MAXRREG is passed to
 * the compiler as --maxrregcount (0 = no limit).  A parameter that is absent
 * takes the kernel's built-in default. */
#ifndef GK_CONFIG_H
#define GK_CONFIG_H

#include <gk/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GK_CONFIG_MAX 16
#define GK_PARAM_NAME_MAX 24

typedef struct gk_config {
    int n;
    struct { char name[GK_PARAM_NAME_MAX]; int value; } p[GK_CONFIG_MAX];
} gk_config;

GK_API void gk_config_clear(gk_config *c);
/* Value of NAME, or def when absent. */
GK_API int gk_config_get(const gk_config *c, const char *name, int def);
/* Set NAME (added if absent).  GK_EINVAL when full or the name is bad. */
GK_API gk_status gk_config_set(gk_config *c, const char *name, int value);
/* Parse "K=V,K=V" (empty string: empty config); merges into *c. */
GK_API gk_status gk_config_parse(const char *text, gk_config *c);
/* "K=V,K=V" in the stored order; "" for empty.  Returns the length. */
GK_API size_t gk_config_format(const gk_config *c, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_CONFIG_H */
