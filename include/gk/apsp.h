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
gk_status gk_apsp_read(const char *path, int32_t **dist, int32_t *V, int64_t *E, int32_t *max_w);

/* Write the V x V matrix to path atomically (temp file + rename): on failure
 * no file is left behind. */
gk_status gk_apsp_write(const char *path, const int32_t *dist, int32_t V);

/* Write a reproducible random graph: E edges, src and dst uniform (no
 * self-loops when V > 1), weights uniform in [0, max_w].  Same seed, same
 * file, for any thread count. */
gk_status gk_apsp_generate(const char *path, int32_t V, int64_t E, uint64_t seed, int32_t max_w);

/* Fill a V x V matrix in memory with a random graph: each off-diagonal pair
 * is an edge with probability density, weight uniform in [0, max_w]; 0 on the
 * diagonal.  For benchmarks (no file round trip). */
gk_status gk_apsp_random_matrix(int32_t *dist, int32_t V, double density, uint64_t seed, int32_t max_w);

/* In place, on the CPU: OpenMP threads and SIMD, blocked Floyd-Warshall on a
 * tile-major padded copy (V*V*4 bytes more).  Every entry must be in
 * [0, GK_APSP_INF]. */
gk_status gk_apsp_cpu(int32_t *dist, int32_t V);

/* In place, the plain `omp parallel for` + `omp simd` k-i-j loop: the
 * baseline of `gk bench apsp --device=cpu` and the check of CPU runs. */
gk_status gk_apsp_cpu_simple(int32_t *dist, int32_t V);

/* Phase times of a run, in seconds (0 where a phase does not apply). */
typedef struct gk_apsp_times {
    double read, h2d, compute, d2h, write;
} gk_apsp_times;

/* In place, on the GPU (GK_ENODEV without one): uploads, runs the blocked
 * kernels with configuration cfg (NULL: built-in defaults), downloads.  t (may
 * be NULL) receives h2d, compute and d2h (CUDA events). */
gk_status gk_apsp_gpu_solve(int32_t *dist, int32_t V, const gk_config *cfg, gk_apsp_times *t);

/* Compare two V x V matrices: GK_OK if equal, else GK_EMISMATCH naming the
 * number of differing entries and the first one. */
gk_status gk_apsp_compare(const int32_t *got, const int32_t *want, int32_t V, const char *what);

/* One size of `gk bench apsp` on the GPU: the tuned kernel, the classic
 * baseline (64x64 tiles, 32x32 threads, 3 phases) and the min-plus ceiling. */
typedef struct gk_apsp_bench_row {
    int32_t n;
    double seconds, tmps;            /* compute phase of the kernel; T min-plus/s */
    double base_seconds, base_tmps;  /* the classic baseline */
    double ceiling_tmps;             /* chains of independent min-plus, same run */
    int identical;                   /* 1: kernel output == baseline output */
    char device[256];
    char config[256];
} gk_apsp_bench_row;

/* Run the GPU benchmark at n vertices on a random matrix (density 0.3).
 * Fails with GK_EMISMATCH when the two kernels disagree. */
gk_status gk_apsp_bench_gpu(int32_t n, const gk_config *cfg, gk_apsp_bench_row *row);

#ifdef __cplusplus
}
#endif
#endif /* GK_APSP_H */
