/* tunables.h - the tunable kernels' registry entries (CUDA builds): each
 * src/tune/tunable_<name>.c defines gk__tunable_<name> (its space, source,
 * size classes and worker-side measure/validate/verify); registry.c lists
 * them.  The declarations come from src/kernels.def, plus vadd's and the
 * apspx_* shapes'. */
#ifndef GK_TUNABLES_H
#define GK_TUNABLES_H

#include "gpu/gpu.h"
#include "tune/tune.h"

extern const gk_tunable gk__tunable_vadd;
#define GK_KERNEL(name, gen) extern const gk_tunable gk__tunable_##name;
#include "kernels.def"
#undef GK_KERNEL
/* The typed APSP kernels' shapes (tunable_apspx.c): no line of their own
 * in src/kernels.def (no command, no image: they run in apsp's). */
extern const gk_tunable gk__tunable_apspx_f32, gk__tunable_apspx_f64, gk__tunable_apspx_p;

#endif /* GK_TUNABLES_H */
