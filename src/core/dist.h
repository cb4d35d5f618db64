/* dist.h - what the two distributed front doors (src/api/apsp_dist.c: APSP
 * rows; src/api/stencil_dist.c: stencil z planes) share below the kernels:
 * the split of a problem into parts, and the write of one process's items
 * (rows, planes) into one output.  The collectives, the agreement and the
 * ranks' check of their inputs are comm.h; the collective file is
 * comm_out.c; the CPU ranks' rounds are src/cpu (apsp_rows.c,
 * stencil_slab.c); the GPUs' are src/gpu (apsp_multi.c, stencil_multi.c). */
#ifndef GK_CORE_DIST_H
#define GK_CORE_DIST_H

#include "core/comm.h"

/* n units (APSP tile rows, stencil planes) over P parts: part g owns units
 * first[g] .. first[g + 1] - 1, first[g] = g * n / P (sizes differ by at
 * most one; a part may be empty).  first has P + 1 entries, malloc'ed. */
gk_status gk__dist_split(int **first, int64_t n, int P);

/* The part that holds unit u. */
int gk__dist_part_of(const int *first, int P, int64_t u);

/* Items lo .. hi - 1 (this process's), item_bytes each, to OUTPUT, chunk
 * items at a time through buf and never across a part (fetch serves one
 * part's items): unit u of the split is items u * unit .. (u + 1) * unit - 1,
 * clipped to `items`.  One process (comm NULL or of size 1): gk's atomic
 * output (an unnamed temp file linked in place, or a device in place),
 * items in order.  Several ranks: every rank writes its items at their
 * offsets into one file (gk__comm_out), renamed when every rank succeeded. */
typedef gk_status (*gk__dist_fetch)(void *src, int64_t item, int64_t n, void *buf);
gk_status gk__dist_write(const gk_comm *comm, const char *out, const int *first, int P, int unit, int64_t items,
                         int64_t lo, int64_t hi, size_t item_bytes, gk__dist_fetch fetch, void *src, void *buf,
                         int64_t chunk);

#endif /* GK_CORE_DIST_H */
