/* enum.c - configurations of a space as mixed-radix indices. */
#include "tune/tune.h"

long gk__space_count(const gk_space *s)
{
    long n = 1;
    for (int j = 0; j < s->nparams; j++)
        n *= s->params[j].nvalues;
    return n;
}

void gk__space_at(const gk_space *s, long idx, gk_config *out)
{
    gk__config_clear(out);
    for (int j = 0; j < s->nparams; j++) {
        const gk_param_def *p = &s->params[j];
        gk__config_set(out, p->name, p->values[idx % p->nvalues]);
        idx /= p->nvalues;
    }
}

long gk__space_index(const gk_space *s, const gk_config *c)
{
    long idx = 0, mul = 1;
    for (int j = 0; j < s->nparams; j++) {
        const gk_param_def *p = &s->params[j];
        int v = gk__config_get(c, p->name, p->def), k;
        for (k = 0; k < p->nvalues && p->values[k] != v; k++)
            ;
        if (k == p->nvalues)
            return -1;
        idx += k * mul;
        mul *= p->nvalues;
    }
    return idx;
}
