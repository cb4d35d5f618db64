/* kernel_config.h - kernel configurations: named integer parameters.
 *
 * A configuration is a list of NAME=VALUE pairs ("TILE=64,UNROLL=4").  Names
 * are the kernel source's macros; the pseudo-parameter MAXRREG is passed to
 * the compiler as --maxrregcount (0 = no limit).  A parameter that is absent
 * takes the kernel's built-in default. */
#ifndef GK_KERNEL_CONFIG_H
#define GK_KERNEL_CONFIG_H

#include "gk.h"


#define GK_CONFIG_MAX 24
#define GK_PARAM_NAME_MAX 24

typedef struct gk_config {
    int n;
    struct { char name[GK_PARAM_NAME_MAX]; int value; } p[GK_CONFIG_MAX];
} gk_config;

void gk__config_clear(gk_config *c);
/* Value of NAME, or def when absent. */
int gk__config_get(const gk_config *c, const char *name, int def);
/* Set NAME (added if absent).  GK_EINVAL when full or the name is bad. */
gk_status gk__config_set(gk_config *c, const char *name, int value);
/* Parse "K=V,K=V" (empty string: empty config); merges into *c. */
gk_status gk__config_parse(const char *text, gk_config *c);
/* "K=V,K=V" in the stored order; "" for empty.  Returns the length. */
size_t gk__config_format(const gk_config *c, char *buf, size_t n);

#endif /* GK_KERNEL_CONFIG_H */
