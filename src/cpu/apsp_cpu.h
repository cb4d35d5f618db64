/* apsp_cpu.h - the CPU APSP backend (OpenMP/SIMD). */
#ifndef GK_APSP_CPU_H
#define GK_APSP_CPU_H

#include "core/internal.h"
#include "core/comm.h"
#include "core/apsp_types.h"

/* In place: blocked Floyd-Warshall on a tile-major padded copy (V*V*4 bytes
 * more), OpenMP across tiles, the AVX-512/AVX2/generic min-plus micro-kernel
 * of instruction set isa (the context's; GK_CPU_ISA_AUTO: the best this CPU
 * has; GK_ENODEV when the CPU lacks it).  Every entry must be in
 * [0, GK_APSP_INF]. */
gk_status gk__apsp_cpu(int32_t *dist, int32_t V, gk_cpu_isa isa);

/* In place, the plain `omp parallel for` + `omp simd` k-i-j loop: the
 * baseline of `gk bench apsp --device=cpu` and the check of CPU runs
 * (gk__apsp_cpu_plain of int32, no predecessors). */
gk_status gk__apsp_cpu_simple(int32_t *dist, int32_t V);

/* ---- every element type (apsp_typed.c), the rules of HACKING.md, "APSP element types"
 * (gk_apsp(3)): int32, int64, float32, float64; negative weights; a
 * negative cycle stops the run with GK_ENEGCYCLE ("negative cycle through
 * vertex N", *cycle = N; else *cycle = -1; cycle may be NULL) and leaves
 * dist and pred as they were; predecessors (pred NULL: none, else V x V
 * started by gk__apsp_pred_init) ----
 *
 * Blocked Floyd-Warshall in place on dist (V x V, leading dimension V) of
 * type t, tile GK_APSP_ORDER_TILE.  Phase 1 closes the pivot tile
 * k-sequentially; phase 2 makes each tile X of the pivot row min(X0, P*
 * (min,+) X0) and each tile Y of the pivot column min(Y0, Y0 (min,+) P*)
 * from copies of X0 / Y0; phase 3 C = min(C, Ycol (min,+) Xrow).  Each
 * output is the minimum of a fixed set of candidates, so the bits are those
 * of every backend with this tile.  A predecessor changes only when a
 * candidate is strictly smaller (candidates in ascending k: on ties the
 * incumbent stays, then the smallest k), to the predecessor of the
 * candidate's second half.  With negative weights (scanned here): after
 * each phase 1 a negative diagonal entry of the pivot tile stops the run
 * (the smallest such vertex of the first such round); signed integers clamp
 * phase 1 at -INF and, at the end, every entry above INF/2 becomes INF
 * (predecessor -1).  int32 without predecessors or negative weights runs
 * gk__apsp_cpu.  GK_ENODEV as gk__apsp_cpu, GK_EINVAL for V < 1 or another
 * type. */
gk_status gk__apsp_cpu_run(void *dist, int32_t V, gk_dtype t, int32_t *pred, gk_cpu_isa isa, int64_t *cycle);

/* The plain k-i-j loop (omp parallel for over i, simd over j) of every type
 * with the same rules (a negative diagonal entry after step k stops it, the
 * smallest such vertex; dist and pred are then left part-way): the baseline
 * and the check of CPU runs, not bit-identical to the blocked code for
 * floats (another order; within the tolerance of gk(1)), nor for
 * predecessors (another shortest path may be kept). */
gk_status gk__apsp_cpu_plain(void *dist, int32_t V, gk_dtype t, int32_t *pred, int64_t *cycle);

/* ---- row blocks (apsp_rows.c): one rank's rows of a distributed run ----
 * A part owns whole tile rows t0 .. t1 - 1 (tiles of GK_APSP_CPU_TILE) of the
 * padded matrix, tile-major, entries of its element type; the pivot-row
 * panel of round k is one tile row (nt tiles, contiguous).  The tiles, the
 * tile operations and the phase order are those of gk__apsp_cpu_run, so
 * the distances are its bits (floats included). */
#define GK_APSP_CPU_TILE 64

typedef struct gk_apsp_cpu_part gk_apsp_cpu_part;
/* The rows' initial matrix of element type t (the four of
 * gk__apsp_dtype_ok): "no edge" of the type, 0 on the diagonal; the tile
 * operations of instruction set isa (as gk__apsp_cpu). */
gk_status gk__apsp_cpu_part_open_typed(gk_apsp_cpu_part **p, int32_t V, int64_t t0, int64_t t1, gk_cpu_isa isa,
                                       gk_dtype t);
/* The same for int32 (earlier releases). */
gk_status gk__apsp_cpu_part_open(gk_apsp_cpu_part **p, int32_t V, int64_t t0, int64_t t1, gk_cpu_isa isa);
void gk__apsp_cpu_part_close(gk_apsp_cpu_part *p);
gk_dtype gk__apsp_cpu_part_type(const gk_apsp_cpu_part *p);
/* An edge of a local row (src in the part's rows): keeps the smaller
 * weight.  _typed: *w is one entry of the part's type; the other takes an
 * int32 weight and converts it to the part's type. */
void gk__apsp_cpu_part_edge_typed(gk_apsp_cpu_part *p, int32_t s, int32_t t, const void *w);
void gk__apsp_cpu_part_edge(gk_apsp_cpu_part *p, int32_t s, int32_t t, int32_t w);
/* Local row r (global index) set to row: V entries of the part's type, the
 * diagonal included (a dense input's row as the single-process code takes
 * it: nothing is dropped or kept smaller). */
void gk__apsp_cpu_part_set_row(gk_apsp_cpu_part *p, int64_t r, const void *row);
/* Owner of round k: close the pivot tile and its row; returns the panel
 * (panel_bytes long), which stays valid until the next call. */
const void *gk__apsp_cpu_part_pivot(gk_apsp_cpu_part *p, int64_t k);
size_t gk__apsp_cpu_part_panel_bytes(const gk_apsp_cpu_part *p);
/* A panel buffer for receiving (owned by the part). */
void *gk__apsp_cpu_part_panel_buffer(gk_apsp_cpu_part *p);
/* Round k on the local rows (not the pivot row) with the closed panel. */
void gk__apsp_cpu_part_update(gk_apsp_cpu_part *p, int64_t k, const void *panel);
/* Copy local row r (global index): V entries of the part's type. */
void gk__apsp_cpu_part_get_row(const gk_apsp_cpu_part *p, int64_t r, void *row);
/* After GK_ENEGCYCLE from gk__apsp_cpu_part_rounds: the vertex (on every
 * rank); else -1. */
int64_t gk__apsp_cpu_part_cycle(const gk_apsp_cpu_part *p);
/* A CPU rank's rounds (one part per rank, rank g owning tile rows first[g]
 * .. first[g + 1] - 1 of nt): for each pivot tile row k, its owner
 * broadcasts the panel over comm and every rank updates its rows.  *wait:
 * the seconds spent in the broadcasts (the CPU computes nothing meanwhile).
 * Negative weights (on any rank: one reduction first) follow the rules of
 * gk__apsp_cpu_run: the owner of the round where a pivot tile first has a
 * negative diagonal entry broadcasts the vertex and every rank returns
 * GK_ENEGCYCLE ("negative cycle through vertex N"); at the end, integers
 * above INF/2 become INF. */
gk_status gk__apsp_cpu_part_rounds(gk_apsp_cpu_part *p, const gk_comm *comm, const int *first, int nt,
                                   double *wait);

/* ---- the exact 16-bit path ----
 *
 * Why it is exact.  Let C = GK_APSP16_CAP = 32767 and h(x) = min(x, C).
 * Every update of blocked Floyd-Warshall, in any order and with any tiles,
 * has the form c' = min(c, a + b).  Run the same updates on h of the initial
 * entries, in 16-bit lanes: every stored value stays in [0, C] (c' <= c),
 * so a + b <= 2C = 65534 never wraps an unsigned 16-bit lane.  And the run
 * computes h of what unbounded arithmetic computes, update by update: if the
 * exact values are A, B, Cc and the lanes hold h(A), h(B), h(Cc), then
 *   - A + B < C: neither was clamped, h(A) + h(B) = A + B, and
 *     min(h(Cc), A + B) = h(min(Cc, A + B));
 *   - A + B >= C: h(A) + h(B) >= C too (a clamped term alone is C), so
 *     min(h(Cc), h(A) + h(B)) = h(Cc) = h(min(Cc, A + B)).
 * Unbounded arithmetic gives the true distance D (infinity: unreachable),
 * so the 16-bit result is min(D, C), and the int32 path's is min(D, INF)
 * by the same argument.  Entries below C are therefore exact; an entry equal
 * to C means "D >= C or unreachable" and must be resolved:
 *   - none at C: the result is the int32 one;
 *   - V * (largest finite initial entry) < C: a finite D is the length of a
 *     simple path or cycle of at most V entries, below C, so every entry at
 *     C is unreachable (INF);
 *   - otherwise they are all unreachable iff (a) every finite initial entry
 *     (u, v) ends below C and (b) for every finite initial (u, v) and every
 *     i, m[i][u] < C implies m[i][v] < C.  If: a walk i -> v1 -> ... -> v
 *     puts v1 below C by (a), each next vertex by (b).  Only if: a vertex
 *     below C, or at the end of an initial entry, is reachable, and the
 *     reachable ones are all below C by assumption.
 *   Checking (b) is cheap: m is the closure, so m[i][v] <= m[i][u] +
 *   in[u][v], and only pairs with in[u][v] >= C - m[i][u] can break it,
 *   so only entries m[i][u] within the largest weight of C need a look at
 *   row u (none when the distances stay well below the cap).
 * When none of these holds (or that look would cost more than about 4 V^2
 * steps), the caller reruns in 32 bits: the output is byte-identical to the
 * int32 path's in every case. */
#define GK_APSP16_CAP 32767

/* dist (V x V, entries in [0, GK_APSP_INF], not modified) -> out (V x V
 * row-major): min(true distance, GK_APSP16_CAP), blocked on 16-bit tiles. */
gk_status gk__apsp_cpu16(const int32_t *dist, uint16_t *out, int32_t V, gk_cpu_isa isa);

/* How a 16-bit result was settled. */
enum { GK_APSP16_NOT_EXACT = 0, GK_APSP16_NO_CAP, GK_APSP16_BOUND, GK_APSP16_UNREACHABLE };
/* in: the initial matrix; m16: the 16-bit result.  When the result is
 * settled (*how != GK_APSP16_NOT_EXACT) it is written to out (may be in) as
 * the int32 path would give it, entries at the cap as GK_APSP_INF; else out
 * is untouched.  O(V^2) work (plus the band's rows, bounded). */
gk_status gk__apsp16_resolve(const int32_t *in, const uint16_t *m16, int32_t V, int32_t *out, int *how);
/* One line for the report: what *how means. */
const char *gk__apsp16_how_text(int how);

/* What the CPU backend runs with instruction set isa (for --verbose and the
 * report): the micro-kernels and the tile edge. */
const char *gk__apsp_cpu_kernel_name(gk_cpu_isa isa);

#endif /* GK_APSP_CPU_H */
