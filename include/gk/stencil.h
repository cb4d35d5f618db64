/* gk/stencil.h - the 27-point fp64 3D stencil with a zero halo. */
#ifndef GK_STENCIL_H
#define GK_STENCIL_H

#include <gk/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif /* GK_STENCIL_H */
