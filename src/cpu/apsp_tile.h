/* apsp_tile.h - the pieces of the CPU blocked Floyd-Warshall shared by its
 * drivers (apsp.c: int32 and 16 bits; apsp_typed.c: every element type,
 * negative weights, predecessors; apsp_rows.c: a rank's row blocks): the
 * tile operations of one element type and instruction set, written once as
 * templates in apsp_kernels.c, and the rounds over a tile-major matrix.
 * Internal to src/cpu. */
#ifndef GK_APSP_TILE_H
#define GK_APSP_TILE_H

#include "cpu/apsp_cpu.h"

/* The loops the compiler vectorises (phase 1, the plain loop) are built
 * for AVX-512, AVX2 and the baseline and picked at run time (GCC on x86-64
 * Linux); the micro-kernels are picked by hand (the caller's instruction
 * set).
 *
 * Not under ThreadSanitizer (--enable-sanitizers=thread): the ifunc
 * resolvers target_clones makes run while the dynamic linker relocates,
 * before TSan's runtime is up, and TSan instruments them (a crash at
 * start-up).  Those loops then take the baseline instruction set; the
 * micro-kernels keep their run-time choice. */
#if defined(__x86_64__) && defined(__has_attribute) && !defined(__SANITIZE_THREAD__)
#if __has_attribute(target_clones) && !defined(__clang__) && defined(__linux__)
#define GK_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef GK_CLONES
#define GK_CLONES
#endif

/* The float paths promise IEEE additions in the element type, +inf as "no
 * edge" and the bits of every backend with the same tile: a build that lets
 * the compiler reassociate or assume finite values cannot keep that. */
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "src/cpu/apsp*: build without -ffast-math / -ffinite-math-only (APSP on floats needs IEEE semantics)"
#endif

#define GK__APSP_B GK_APSP_CPU_TILE   /* tile edge, 64: three 16 KiB int32 tiles stay in L1/L2 */

/* The element types of the tile code: the four of gk_dtype, and the
 * unsigned 16-bit lanes of the exact 16-bit path. */
#define GK__APSP_U16 0

/* The operations on B x B tiles (row-major inside the tile) of one element
 * type for one instruction set.  Predecessor tiles hold ps-byte integers
 * (the width of the element: int32 for 4-byte types, int64 for 8-byte
 * ones, so one compare mask selects both). */
typedef struct gk__apsp_tiles {
    int type;            /* a gk_dtype, or GK__APSP_U16 */
    size_t es, ps;       /* bytes of a distance, of a predecessor */
    int is_float;
    /* Phase 1: close the pivot tile c in place, k-sequential; pc (NULL:
     * none) its predecessors.  clamp: store max(value, -INF) (signed
     * integers with negative weights).  Returns the smallest local index kk
     * with c[kk][kk] < 0 afterwards, or -1. */
    int (*close)(void *c, void *pc, int clamp);
    /* c = min(c, a (min,+) b), candidates in ascending k, the incumbent
     * kept on ties; a or b may be c itself (then the result is still a
     * closure for integers, not the fixed candidate set). */
    void (*minplus)(void *c, const void *a, const void *b);
    /* The same with predecessors: where a[i][k] + b[k][j] < c[i][j]
     * strictly, c[i][j] takes it and pc[i][j] = pb[k][j]. */
    void (*minplus_pred)(void *c, void *pc, const void *a, const void *b, const void *pb);
} gk__apsp_tiles;

/* The tile operations of type (a gk_dtype or GK__APSP_U16) for instruction
 * set isa (AUTO: the best this CPU has).  GK_ENODEV naming `who` when this
 * CPU cannot run isa, GK_EINVAL for another type. */
gk_status gk__apsp_cpu_tiles(gk_cpu_isa isa, int type, gk__apsp_tiles *o, const char *who);

/* Flags of the rounds. */
enum {
    GK__FW_ORDERED = 1,  /* phase 2 reads copies of the tiles it updates (the
                          * fixed candidate sets of apsp_cpu.h: floats,
                          * predecessors) */
    GK__FW_CLAMP = 2,    /* phase 1 clamps at -INF (signed ints, negative weights) */
    GK__FW_CHECK = 4     /* after each phase 1 look for a negative diagonal entry */
};

/* The rounds of blocked Floyd-Warshall over nt x nt tiles, tile-major
 * (tile (bi, bj) at t + (bi * nt + bj) * B * B * es), predecessor tiles p
 * the same way (NULL: none; requires GK__FW_ORDERED).  With GK__FW_CHECK,
 * stops after the phase 1 where a pivot tile first has a negative diagonal
 * entry and returns its smallest such index (of the padded matrix); else
 * -1. */
int64_t gk__apsp_cpu_rounds(const gk__apsp_tiles *o, void *t, void *p, int64_t nt, int flags);

/* A row segment's conversion on the way into or out of the tiles (m
 * entries). */
typedef void (*gk__apsp_conv)(void *dst, const void *src, int64_t m);
/* Copy of m entries of `bytes` each (the conversion of equal types). */
void gk__apsp_copy4(void *dst, const void *src, int64_t m);
void gk__apsp_copy8(void *dst, const void *src, int64_t m);

/* src (n x n, row-major, entries of sbytes) to the tile-major t (nt x nt
 * tiles of es-byte entries) through conv, *pad (es bytes) in the padding. */
void gk__apsp_tiles_in(void *t, size_t es, int64_t nt, const void *src, size_t sbytes, int64_t n, gk__apsp_conv conv,
                       const void *pad);
/* The reverse: tile-major t to dst (n x n, entries of dbytes) through conv. */
void gk__apsp_tiles_out(void *dst, size_t dbytes, int64_t n, const void *t, size_t es, int64_t nt, gk__apsp_conv conv);

/* nt x nt tiles of es-byte entries (size checked in 64 bits; GK_ENOMEM
 * naming what). */
gk_status gk__apsp_tiles_alloc(void **t, int64_t nt, size_t es, const char *what);

/* Threads for a blocked run over nt x nt tiles (apsp.c). */
int gk__apsp_team(int64_t nt);

#endif /* GK_APSP_TILE_H */
