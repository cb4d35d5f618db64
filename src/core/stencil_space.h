/* stencil_space.h - the tuning space of the GPU stencil kernels.  Compiled in
 * every build so that --config can be validated without CUDA. */
#ifndef GK_STENCIL_SPACE_H
#define GK_STENCIL_SPACE_H

#include "core/space.h"

extern const gk_space gk__space_stencil;

/* Dynamic shared memory of a block: 4 (DESIGN 0) or 2 (DESIGN 1) planes of
 * (BX+2) x (BY*RY+2) doubles. */
size_t gk__stencil_smem_bytes(int design, int bx, int by, int ry);

#endif /* GK_STENCIL_SPACE_H */
