/* stencil_cpu.h - internals of the CPU stencil backend. */
#ifndef GK_STENCIL_CPU_H
#define GK_STENCIL_CPU_H

#include "core/internal.h"

/* Bytes of the two padded buffers gk_stencil_cpu allocates. */
uint64_t gk__stencil_cpu_bytes(int nx, int ny, int nz);

#endif /* GK_STENCIL_CPU_H */
