/* registry.c - the kernels gktune knows.  CPU-only builds have none. */
#include "tune/tune.h"
#include "core/rng.h"

#include <string.h>

#ifdef GK_HAVE_CUDA
#include "tune/tunables.h"

/* vadd (the plumbing's self-test, hidden), then every kernel of the
 * registry: each src/tune/tunable_<name>.c defines gk__tunable_<name>;
 * last the typed APSP kernels' shapes (tunable_apspx.c): small spaces
 * measured whole after the others (run.c: they take no share of the
 * budget, so the kernels before them search as they did without them). */
static const gk_tunable *const tunables[] = {
    &gk__tunable_vadd,
#define GK_KERNEL(name, gen) &gk__tunable_##name,
#include "kernels.def"
#undef GK_KERNEL
    &gk__tunable_apspx_f32, &gk__tunable_apspx_f64, &gk__tunable_apspx_p,
};
int gk__tunable_count(void) { return (int)(sizeof tunables / sizeof tunables[0]); }
const gk_tunable *gk__tunable_get(int i) { return i >= 0 && i < gk__tunable_count() ? tunables[i] : NULL; }
#else
int gk__tunable_count(void) { return 0; }
const gk_tunable *gk__tunable_get(int i) { (void)i; return NULL; }
#endif

const gk_tunable *gk__tunable_find(const char *kernel)
{
    for (int i = 0; i < gk__tunable_count(); i++)
        if (!strcmp(gk__tunable_get(i)->kernel, kernel))
            return gk__tunable_get(i);
    return NULL;
}

#ifdef GK_HAVE_CUDA
uint64_t gk__tunable_source_hash(const gk_tunable *t)
{
    return gk__fnv1a64(t->image->source, t->image->source_size);
}
#else
uint64_t gk__tunable_source_hash(const gk_tunable *t) { (void)t; return 0; }
#endif

gk_status gk__tunable_module_config(const gk_tunable *t, const gk_config *cfg, gk_config *module)
{
    const gk_space *s = t ? gk__space_find(t->image_name) : NULL;
    if (!s || s == t->space) {
        *module = *cfg;
        return GK_OK;
    }
    return gk__space_complete(s, cfg, module);
}
