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

/* ---- row blocks (apsp_rows.c): one rank's rows of a distributed run ----
 * A part owns whole tile rows t0 .. t1 - 1 (tiles of GK_APSP_CPU_TILE) of the
 * padded matrix, tile-major; the pivot-row panel of round k is one tile row
 * (nt tiles, contiguous). */
#define GK_APSP_CPU_TILE 64
void gk__apsp_cpu_tile_ops(void (**close)(int32_t *), void (**minplus)(int32_t *, const int32_t *, const int32_t *));

typedef struct gk_apsp_cpu_part gk_apsp_cpu_part;
/* The rows' initial matrix: INF, 0 on the diagonal. */
gk_status gk__apsp_cpu_part_open(gk_apsp_cpu_part **p, int32_t V, int64_t t0, int64_t t1);
void gk__apsp_cpu_part_close(gk_apsp_cpu_part *p);
/* An edge of a local row (src in the part's rows): keeps the smaller weight. */
void gk__apsp_cpu_part_edge(gk_apsp_cpu_part *p, int32_t s, int32_t t, int32_t w);
/* Replace local row r (global index) by row[0 .. V-1]. */
void gk__apsp_cpu_part_set_row(gk_apsp_cpu_part *p, int64_t r, const int32_t *row);
/* Owner of round k: close the pivot tile and its row; returns the panel
 * (panel_bytes long), which stays valid until the next call. */
const int32_t *gk__apsp_cpu_part_pivot(gk_apsp_cpu_part *p, int64_t k);
size_t gk__apsp_cpu_part_panel_bytes(const gk_apsp_cpu_part *p);
/* A panel buffer for receiving (owned by the part). */
int32_t *gk__apsp_cpu_part_panel_buffer(gk_apsp_cpu_part *p);
/* Round k on the local rows (not the pivot row) with the closed panel. */
void gk__apsp_cpu_part_update(gk_apsp_cpu_part *p, int64_t k, const int32_t *panel);
/* Copy local row r (global index), V entries. */
void gk__apsp_cpu_part_get_row(const gk_apsp_cpu_part *p, int64_t r, int32_t *row);

#endif /* GK_APSP_CPU_H */
