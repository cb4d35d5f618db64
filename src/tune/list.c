/* list.c - the search spaces as text, for `gktune --list`. */
#include "tune/tune.h"

#include <stdio.h>
#include <string.h>

gk_status gk_tune_list_spaces(const char *kernels, char *buf, size_t n)
{
    size_t len = 0;
#define OUT(...) do { int w_ = snprintf(buf + len, len < n ? n - len : 0, __VA_ARGS__); \
        if (w_ > 0) len += (size_t)w_; } while (0)
    if (n) buf[0] = '\0';
    if (gk__tunable_count() == 0)
        OUT("no tunable kernels: gk was built without CUDA\n");
    for (int i = 0; i < gk__tunable_count(); i++) {
        const gk_tunable *t = gk__tunable_get(i);
        if (kernels && *kernels && !gk__tune_named(kernels, t->kernel))
            continue;
        const gk_space *s = t->space;
        long total = gk__space_count(s), valid = 0;
        char why[256];
        for (long k = 0; k < total; k++) {
            gk_config c;
            gk__space_at(s, k, &c);
            valid += !s->reject || !s->reject(&c, NULL, why, sizeof why);
        }
        OUT("%s%s: %ld combinations, %ld pass the device-independent constraints\n",
            t->kernel, t->hidden ? " (test kernel; tuned only when named)" : "", total, valid);
        OUT("  size classes (%s):", t->size_unit);
        for (int k = 0; k < t->nclasses; k++)
            OUT(" %lld", (long long)t->classes[k]);
        OUT("\n");
        for (int j = 0; j < s->nparams; j++) {
            const gk_param_def *p = &s->params[j];
            char range[32];
            snprintf(range, sizeof range, "[%d, %d]", p->min, p->max);
            OUT("  %-16s default %-5d range %-11s values", p->name, p->def, range);
            for (int k = 0; k < p->nvalues; k++)
                OUT("%s%d", k ? "," : " ", p->values[k]);
            OUT("  (%s)\n", p->help ? p->help : "");
        }
    }
#undef OUT
    if (len >= n)
        return gk__fail(GK_EINVAL, "space listing truncated");
    return GK_OK;
}
