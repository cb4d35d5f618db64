/* gk/apsp.h - all-pairs shortest paths (blocked Floyd-Warshall).
 *
 * Distances are int32.  A V x V matrix is row-major: dist[i * V + j] is the
 * distance from i to j.  GK_APSP_INF (2^30 - 1) means unreachable, and every
 * stored value stays in [0, GK_APSP_INF]: the update min(d[i][k] + d[k][j],
 * d[i][j]) never overflows (INF + INF = 2^31 - 2) and never exceeds the old
 * d[i][j], so a path of length >= INF is reported as unreachable, the same on
 * every backend, bit for bit.
 *
 * Files are the NTHU parallel-programming course's format (little-endian):
 * input int32 V, int32 E, then E triples int32 (src, dst, w); output the V x V
 * matrix as int32. */
#ifndef GK_APSP_H
#define GK_APSP_H

#include <gk/common.h>
#include <gk/config.h>
#include <gk/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Unreachable pairs hold 2^30 - 1 in the NTHU output format. */
#define GK_APSP_INF 1073741823
/* The largest edge weight an input may hold. */
#define GK_APSP_MAX_WEIGHT 1073741822

/* Read an input file and build the initial matrix: INF everywhere, 0 on the
 * diagonal, the smallest weight of each (src, dst) pair; self-loops are
 * ignored.  *dist is malloc'ed (free() it).  Every broken rule (file size not
 * 8 + 12E, V < 1, E < 0, src or dst outside [0, V), weight outside
 * [0, GK_APSP_MAX_WEIGHT], a matrix too large for this machine's memory) fails
 * with GK_EFORMAT or GK_ENOMEM and a message naming the file and the item.
 * E (may be NULL) receives the edge count, max_w (may be NULL) the largest
 * weight. */
GK_API gk_status gk_apsp_read(const char *path, int32_t **dist, int32_t *V, int64_t *E, int32_t *max_w);

/* Write the V x V matrix to path atomically (temp file + rename): on failure
 * no file is left behind. */
GK_API gk_status gk_apsp_write(const char *path, const int32_t *dist, int32_t V);

/* Write a reproducible random graph: E edges, src and dst uniform (no
 * self-loops when V > 1), weights uniform in [0, max_w].  Same seed, same
 * file, for any thread count. */
GK_API gk_status gk_apsp_generate(const char *path, int32_t V, int64_t E, uint64_t seed, int32_t max_w);

/* Fill a V x V matrix in memory with a random graph: each off-diagonal pair
 * is an edge with probability density, weight uniform in [0, max_w]; 0 on the
 * diagonal.  For benchmarks (no file round trip). */
GK_API gk_status gk_apsp_random_matrix(int32_t *dist, int32_t V, double density, uint64_t seed, int32_t max_w);

/* What a solve does besides computing. */
typedef struct gk_apsp_options {
    int check;             /* 1: recompute independently on the CPU (the blocked CPU code
                              checks the GPU, the plain k-i-j loop checks the CPU) and
                              compare every entry; GK_EMISMATCH when they differ */
    const char *config;    /* GPU kernel parameters "NAME=VALUE,...": they REPLACE the
                              tuned choice (parameters not named take the built-in
                              defaults).  NULL: the tuned choice (cache, shipped table,
                              defaults).  Validated against the kernel's tunable
                              description on every backend; unused on the CPU
                              (gk_report.config_ignored says so). */
} gk_apsp_options;

/* One call per job: solve APSP in place on the context's backend with the
 * chosen configuration, optionally check, and fill *report (may be NULL).
 * Every entry of dist must be in [0, GK_APSP_INF] (what gk_apsp_read makes). */
GK_API gk_status gk_apsp_solve(gk_context *ctx, int32_t *dist, int32_t V,
                               const gk_apsp_options *options, gk_report *report);

/* Compare two V x V matrices: GK_OK if equal, else GK_EMISMATCH naming the
 * number of differing entries and the first one. */
GK_API gk_status gk_apsp_compare(const int32_t *got, const int32_t *want, int32_t V, const char *what);

/* One size of `gk bench apsp`, on the context's backend.  GPU: the tuned
 * kernel, the classic course kernel (64x64 tiles, 32x32 threads, three
 * phases) and the min-plus ceiling measured in the same run.  CPU: the
 * blocked OpenMP/SIMD code against the plain omp parallel for/simd k-i-j
 * loop (ceiling_tmps 0: not measured).  Compute phase only. */
typedef struct gk_apsp_bench_row {
    int32_t n;
    double seconds, tmps;            /* the kernel; T min-plus/s (n^3 / seconds) */
    double base_seconds, base_tmps;  /* the baseline */
    double ceiling_tmps;             /* chains of independent min-plus, same run (GPU) */
    int identical;                   /* 1: kernel output == baseline output */
    gk_backend backend;
    char device[256];
    char config[256];                /* complete GPU configuration ("" on the CPU) */
    gk_config_source config_source;
} gk_apsp_bench_row;

/* Random matrix (density 0.3, weights <= 1000).  config: as in
 * gk_apsp_options.  Fails with GK_EMISMATCH when the two disagree. */
GK_API gk_status gk_apsp_bench(gk_context *ctx, int32_t n, const char *config, gk_apsp_bench_row *row);

#ifdef __cplusplus
}
#endif
#endif /* GK_APSP_H */
