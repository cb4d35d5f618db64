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

/* ---- past one GPU: row blocks over several GPUs and ranks ----
 *
 * The matrix is split into blocks of whole rows, one per GPU (all the
 * context's GPUs, in one process) or per rank (the ranks of the context's
 * gk_comm, one GPU each, or the CPU backend on each); no process and no GPU
 * holds the whole matrix.  Every round the owner of the pivot rows closes
 * them and sends them (the panel) to the others. */
typedef enum gk_apsp_exchange {
    GK_APSP_EXCHANGE_AUTO = 0,   /* GPU to GPU: peer copies in one process, NCCL between
                                    ranks (host buffers when NCCL is missing) */
    GK_APSP_EXCHANGE_DEVICE,     /* the same, but NCCL is required between GPU ranks */
    GK_APSP_EXCHANGE_HOST        /* the seed design: every panel through pinned host memory,
                                    every GPU waiting for it (a baseline) */
} gk_apsp_exchange;

/* GK_EINVAL unless text is auto, device or host. */
GK_API gk_status gk_apsp_exchange_parse(const char *text, gk_apsp_exchange *out);

/* What a distributed solve did.  Seconds are the slowest rank's. */
typedef struct gk_apsp_dist_report {
    gk_report run;               /* backend, device(s), configuration; run.compute as below */
    int ranks;                   /* processes */
    int gpus;                    /* GPUs in all (0 on the CPU backend) */
    char exchange[64];           /* how the panels moved */
    int32_t V, max_w;            /* the input's vertex count and largest weight */
    int64_t E;
    double read;                 /* reading the input: header, edges of this rank's rows */
    double distribute;           /* each block's initial rows built where they are computed */
    double compute;              /* the rounds, exchanges included */
    double exchange_busy;        /* the links busy moving panels (sum over the rounds) */
    double exchange_stall;       /* compute waiting for a panel (the part that waited longest) */
    double write;                /* every rank writing its rows at their offsets */
} gk_apsp_dist_report;

/* Read INPUT (NTHU format; each rank keeps the edges of its rows, every
 * rank validates every edge), solve on the context's GPUs or CPU spread over
 * its ranks, write OUTPUT (every rank its own rows at their offsets: a temp
 * file renamed by rank 0 when all succeeded, or a device written in place).
 * Collective over the context's gk_comm: every rank fails with the same
 * status and message, and then no output file is left.  config: as in
 * gk_apsp_options; rep may be NULL.  The result is byte-identical to
 * gk_apsp_read + gk_apsp_solve + gk_apsp_write. */
GK_API gk_status gk_apsp_solve_file(gk_context *ctx, const char *input, const char *output, const char *config,
                                    gk_apsp_exchange exchange, gk_apsp_dist_report *rep);

/* One size of `gk bench apsp --gpus=N` (or under mpirun, one GPU per rank):
 * the random matrix of gk_apsp_bench made on each GPU, the rounds timed.
 * one_*: gk's single-GPU code on the first GPU (0: not run: several ranks,
 * or it does not fit one GPU); seed_*: the seed design on the same GPUs;
 * the rest: gk's design.  Efficiency = one_seconds / (gpus * seconds). */
typedef struct gk_apsp_multi_row {
    int32_t n;
    int gpus, ranks;
    double one_seconds, one_tmps;
    double seed_seconds, seed_tmps, seed_busy, seed_stall, seed_efficiency;
    double seconds, tmps, busy, stall, efficiency;
    int identical;                   /* 1: gk's design == one GPU; 0: differ; -1: not compared */
    char device[256];
    char config[256];
    char exchange[64];
} gk_apsp_multi_row;

GK_API gk_status gk_apsp_bench_multi(gk_context *ctx, int32_t n, const char *config, gk_apsp_multi_row *row);

#ifdef __cplusplus
}
#endif
#endif /* GK_APSP_H */
