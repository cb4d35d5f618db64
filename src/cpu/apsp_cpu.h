/* apsp_cpu.h - the CPU APSP backend (OpenMP/SIMD). */
#ifndef GK_APSP_CPU_H
#define GK_APSP_CPU_H

#include "core/internal.h"

/* In place: blocked Floyd-Warshall on a tile-major padded copy (V*V*4 bytes
 * more), OpenMP across tiles, an AVX-512/AVX2/generic min-plus micro-kernel
 * picked at run time.  Every entry must be in [0, GK_APSP_INF]. */
gk_status gk__apsp_cpu(int32_t *dist, int32_t V);

/* In place, the plain `omp parallel for` + `omp simd` k-i-j loop: the
 * baseline of `gk bench apsp --device=cpu` and the check of CPU runs. */
gk_status gk__apsp_cpu_simple(int32_t *dist, int32_t V);

#endif /* GK_APSP_CPU_H */
