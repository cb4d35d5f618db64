/* space.c - completing and checking configurations against a kernel's
 * parameter space. */
#include "core/space.h"

#include <stdio.h>
#include <string.h>

/* vadd (the GPU plumbing's self-test) and every kernel of the registry */
const gk_space *gk__space_find(const char *kernel)
{
    static const gk_space *const all[] = {
        &gk__space_vadd,
#define GK_KERNEL(name, gen) &gk__space_##name,
#include "kernels.def"
#undef GK_KERNEL
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (kernel && !strcmp(all[i]->kernel, kernel))
            return all[i];
    return NULL;
}

static const gk_param_def *find_param(const gk_space *s, const char *name)
{
    for (int j = 0; j < s->nparams; j++)
        if (!strcmp(name, s->params[j].name))
            return &s->params[j];
    return NULL;
}

gk_status gk__space_complete(const gk_space *s, const gk_config *in, gk_config *out)
{
    gk_config c;
    gk__config_clear(&c);
    if (in)
        for (int i = 0; i < in->n; i++) {
            const gk_param_def *p = find_param(s, in->p[i].name);
            if (!p) {
                char names[256] = "";
                for (int j = 0; j < s->nparams; j++) {
                    strncat(names, j ? ", " : "", sizeof names - strlen(names) - 1);
                    strncat(names, s->params[j].name, sizeof names - strlen(names) - 1);
                }
                return gk__fail(GK_EINVAL, "kernel %s has no parameter '%s' (it has: %s)",
                                s->kernel, in->p[i].name, names);
            }
            if (in->p[i].value < p->min || in->p[i].value > p->max)
                return gk__fail(GK_EINVAL, "kernel %s: %s=%d is outside [%d, %d]",
                                s->kernel, p->name, in->p[i].value, p->min, p->max);
        }
    for (int j = 0; j < s->nparams; j++) {
        gk_status st = gk__config_set(&c, s->params[j].name,
                                     gk__config_get(in, s->params[j].name, s->params[j].def));
        if (st) return st;
    }
    *out = c;
    return GK_OK;
}

int gk__space_is_default(const gk_space *s, const gk_config *cfg)
{
    for (int j = 0; j < s->nparams; j++)
        if (gk__config_get(cfg, s->params[j].name, s->params[j].def) != s->params[j].def)
            return 0;
    return 1;
}

int gk__space_check_ranges(const gk_space *s, const gk_config *cfg, char *why, size_t n)
{
    for (int j = 0; j < s->nparams; j++) {
        const gk_param_def *p = &s->params[j];
        int found = 0, v = 0;
        for (int i = 0; cfg && i < cfg->n && !found; i++)
            if (!strcmp(cfg->p[i].name, p->name))
                found = 1, v = cfg->p[i].value;
        if (!found)
            return snprintf(why, n, "%s is missing", p->name), 1;
        if (v < p->min || v > p->max)
            return snprintf(why, n, "%s=%d is outside [%d, %d]", p->name, v, p->min, p->max), 1;
    }
    return 0;
}

gk_status gk__space_check(const gk_space *s, const gk_config *in, const gk_device_info *dev, gk_config *full)
{
    gk_config c;
    gk_status st = gk__space_complete(s, in, &c);
    if (st) return st;
    char why[256];
    if (s->reject && s->reject(&c, dev, why, sizeof why)) {
        char text[256];
        gk__config_format(&c, text, sizeof text);
        return gk__fail(GK_EINVAL, "%s configuration %s cannot run%s%s: %s", s->kernel, text,
                        dev ? " on " : "", dev ? dev->name : "", why);
    }
    if (full) *full = c;
    return GK_OK;
}

int gk__param(const gk_config *complete, const char *name)
{
    return gk__config_get(complete, name, 0);
}
