/* space.c - completing configurations against a kernel's parameter space. */
#include "core/space.h"

#include <string.h>

gk_status gk__space_complete(const gk_space *s, const gk_config *in, gk_config *out)
{
    gk_config c;
    gk_config_clear(&c);
    if (in)
        for (int i = 0; i < in->n; i++) {
            int known = 0;
            for (int j = 0; j < s->nparams; j++)
                known |= !strcmp(in->p[i].name, s->params[j].name);
            if (!known) {
                char names[256] = "";
                for (int j = 0; j < s->nparams; j++) {
                    strncat(names, j ? ", " : "", sizeof names - strlen(names) - 1);
                    strncat(names, s->params[j].name, sizeof names - strlen(names) - 1);
                }
                return gk__fail(GK_EINVAL, "kernel %s has no parameter '%s' (it has: %s)",
                                s->kernel, in->p[i].name, names);
            }
        }
    for (int j = 0; j < s->nparams; j++) {
        gk_status st = gk_config_set(&c, s->params[j].name,
                                     gk_config_get(in, s->params[j].name, s->params[j].def));
        if (st) return st;
    }
    *out = c;
    return GK_OK;
}

int gk__space_is_default(const gk_space *s, const gk_config *cfg)
{
    for (int j = 0; j < s->nparams; j++)
        if (gk_config_get(cfg, s->params[j].name, s->params[j].def) != s->params[j].def)
            return 0;
    return 1;
}
