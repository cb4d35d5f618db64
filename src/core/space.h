/* space.h - a kernel's tunable parameters: names, defaults, candidate values
 * and the constraints that exclude invalid combinations before any compile.
 * Each kernel's host file defines one; the GPU loader uses the defaults, the
 * tuner the values, `gktune --list` prints it. */
#ifndef GK_SPACE_H
#define GK_SPACE_H

#include "core/internal.h"

#define GK_SPACE_MAX_VALUES 16

typedef struct gk_param_def {
    const char *name;      /* the kernel source's macro; MAXRREG = --maxrregcount, 0 none */
    int def;               /* the value the embedded fatbin is built with */
    int nvalues;
    int values[GK_SPACE_MAX_VALUES];
    const char *help;
} gk_param_def;

typedef struct gk_space {
    const char *kernel;                 /* "apsp", "stencil", "vadd" */
    int nparams;
    const gk_param_def *params;
    /* Returns 0 when the complete configuration cfg can run on dev, else 1 and
     * a reason in why (e.g. "threads 2048 > 1024").  dev may be NULL: then
     * only the device-independent rules apply. */
    int (*reject)(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n);
} gk_space;

/* out = the space's parameters in order, with in's values over the defaults.
 * Fails (GK_EINVAL) on a name the space does not have. */
gk_status gk__space_complete(const gk_space *s, const gk_config *in, gk_config *out);
/* 1 if every parameter of the complete cfg equals its default. */
int gk__space_is_default(const gk_space *s, const gk_config *cfg);

#endif /* GK_SPACE_H */
