/* apsp_multi.h - APSP past one GPU: 1D row blocks (host side; the kernels
 * are in apsp.cu).  A part is one GPU's block of whole tile rows of the
 * padded matrix; it never holds the other rows.  gk__apsp_multi_run runs
 * the blocked Floyd-Warshall rounds over every part: in round k the owner of
 * tile row k closes the pivot tile and its row (the panel, APSP_TILE x Np
 * int32) and sends the panel to the others, which update their rows with it.
 * In the default design the owner of tile row k + 1 updates that row first,
 * closes the next panel and sends it while the rest of the round runs
 * (lookahead), so the link works while the SMs do; the seed design
 * (GK__XCHG_HOST) stages every panel through pinned host memory with the
 * GPUs waiting (a barrier every round): the benchmark's baseline. */
#ifndef GK_APSP_MULTI_H
#define GK_APSP_MULTI_H

#include "gpu/gpu.h"
#include "gpu/comm_nccl.h"

typedef struct gk_apsp_part gk_apsp_part;

/* The tile edge of a configuration (NULL: defaults). */
int gk__apsp_part_tile(const gk_config *cfg);

/* On GPU `ordinal` (made current by the calls; the caller restores its own
 * device): tile rows t0 .. t1 - 1 of the V x V problem, cfg NULL for the
 * defaults.  Nothing is initialised.  GK_ENOMEM naming the sizes when the
 * device lacks the memory. */
gk_status gk__apsp_part_open(gk_apsp_part **p, int ordinal, const gk_device_info *dev, int32_t V,
                             int t0, int t1, const gk_config *cfg);
/* The same for distances of element type t (int32, int64, float32,
 * float64; the rules of HACKING.md, "APSP element types"): tile
 * GK_APSP_ORDER_TILE (tile rows of 64), the typed kernels of apsp.cu
 * (gk_apspx_pivot_* and gk_apspx_mp_* on the owner's row, gk_apspx_rows_*
 * on the others), so every entry is the single-process CPU's bits.  No
 * predecessors. */
gk_status gk__apsp_part_open_typed(gk_apsp_part **p, int ordinal, const gk_device_info *dev, int32_t V,
                                   int t0, int t1, const gk_config *cfg, gk_dtype t);
void gk__apsp_part_close(gk_apsp_part *p);
/* INF, 0 on the diagonal; then edges (src, dst, w) whose src is in the block.
 * A typed part: INF everywhere (its rows then come whole from
 * gk__apsp_part_upload_rows) and no negative weight, no cycle seen. */
gk_status gk__apsp_part_init(gk_apsp_part *p);
/* A typed part: global rows r .. r + n - 1 (V entries of its type each,
 * the diagonal included) from host memory. */
gk_status gk__apsp_part_upload_rows(gk_apsp_part *p, int64_t r, int64_t n, const void *host);
/* A typed part: some weight of the graph (on any part) is negative: the
 * integer types' entries above INF/2 become INF after the last round. */
gk_status gk__apsp_part_set_negative(gk_apsp_part *p);
/* A typed part, after gk__apsp_multi_run: the smallest vertex whose
 * diagonal entry was negative after the phase 1 of its round on this part
 * (the first round with one: the rounds go up in vertex order), else -1. */
gk_status gk__apsp_part_cycle(gk_apsp_part *p, int64_t *vertex);
gk_status gk__apsp_part_edges(gk_apsp_part *p, const int32_t *e, int64_t m);
/* The rows of gk_apsp_random_matrix(V, density, seed, max_w), cut = density * 2^32. */
gk_status gk__apsp_part_random(gk_apsp_part *p, uint64_t seed, uint64_t cut, int32_t max_w);
/* Global rows r .. r + n - 1 of the block (V columns of the part's type)
 * into host memory. */
gk_status gk__apsp_part_download(gk_apsp_part *p, int64_t r, int64_t n, void *host);
gk_status gk__apsp_part_sync(gk_apsp_part *p);
/* Pinned host memory (fast copies to and from the GPUs). */
gk_status gk__apsp_pinned(void **p, size_t bytes);
void gk__apsp_pinned_free(void *p);

enum { GK__XCHG_PEER, GK__XCHG_NCCL, GK__XCHG_HOST };

typedef struct gk_apsp_xchg {
    int mode;                 /* GK__XCHG_* */
    int nglobal;              /* parts in all, over every rank */
    const int *first;         /* first[g]: first tile row of part g; first[nglobal] = nt */
    int self;                 /* one part per rank: its global index; -1: every part is local */
    gk_nccl *nccl;            /* GK__XCHG_NCCL */
    const gk_comm *comm;      /* GK__XCHG_HOST between ranks (NULL: one process) */
    /* out, seconds: the links busy with panels (sum over rounds), and the
     * longest time one part's compute waited for a panel */
    double busy, stall;
} gk_apsp_xchg;

/* All rounds on the parts of this process (nlocal: all nglobal when
 * self == -1, else 1); returns when every part is done.  Typed parts also
 * get the integer types' INF clean-up after the last round (when
 * gk__apsp_part_set_negative said so); the rounds go on past a negative
 * cycle (gk__apsp_part_cycle tells). */
gk_status gk__apsp_multi_run(gk_apsp_part **parts, int nlocal, gk_apsp_xchg *x);

#endif /* GK_APSP_MULTI_H */
