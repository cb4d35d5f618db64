/* tunables.h - the tunable kernels' registry entries (CUDA builds): each
 * src/tune/tunable_<name>.c defines gk__tunable_<name> (its space, source,
 * size classes and worker-side measure/validate/verify); registry.c lists
 * them.  The declarations come from src/kernels.def, plus vadd's. */
#ifndef GK_TUNABLES_H
#define GK_TUNABLES_H

#include "gpu/gpu.h"
#include "tune/tune.h"

extern const gk_tunable gk__tunable_vadd;
#define GK_KERNEL(name, gen) extern const gk_tunable gk__tunable_##name;
#include "kernels.def"
#undef GK_KERNEL

#endif /* GK_TUNABLES_H */
