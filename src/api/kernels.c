/* kernels.c - the kernels' tunable descriptions by name (every build, so
 * that a configuration is validated the same way on CPU-only builds). */
#include "api/context.h"

#include <string.h>

#define GK_KERNEL(name, gen) extern const gk_space gk__space_##name;
#include "kernels.def"
#undef GK_KERNEL

static const gk_space *const spaces[] = {
#define GK_KERNEL(name, gen) &gk__space_##name,
#include "kernels.def"
#undef GK_KERNEL
};

const gk_space *gk__kernel_space(const char *kernel)
{
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (!strcmp(spaces[i]->kernel, kernel))
            return spaces[i];
    return NULL;
}
