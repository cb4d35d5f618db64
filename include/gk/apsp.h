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

/* Graph and distance-matrix formats.
 *
 *   nthu   the course's binary format above (graphs) and its V x V int32
 *          output (distance matrices)
 *   gr     DIMACS shortest paths: "c ..." comments, one "p sp N M" line,
 *          then M lines "a U V W", vertices 1-based in [1, N]
 *   mtx    Matrix Market coordinate: "%%MatrixMarket matrix coordinate
 *          integer|real|pattern general|symmetric", "%" comments, "N N NNZ",
 *          then NNZ lines "I J [W]", 1-based; row I -> column J is an edge;
 *          real values must be integral; pattern means weight 1; symmetric
 *          stores each off-diagonal edge once for both directions
 *   edges  text edge list: "SRC DST W" per line, 0-based, "#" starts a
 *          comment; V is the largest vertex id + 1, or more if asked
 *   npy    NumPy .npy (version 1.0, '<i4', C order): distance matrices only
 *
 * Weights are integers in [0, GK_APSP_MAX_WEIGHT] in every format.  Every
 * broken rule of a text format fails with GK_EFORMAT and one line naming the
 * file and the line ("g.gr:12: arc 5 -> 0: vertex 0 is outside [1, 4]"). */
typedef enum gk_format {
    GK_FORMAT_AUTO = 0,
    GK_FORMAT_NTHU,
    GK_FORMAT_GR,
    GK_FORMAT_MTX,
    GK_FORMAT_EDGES,
    GK_FORMAT_NPY
} gk_format;

/* Parse "auto", "nthu", "gr", "mtx", "edges" or "npy"; GK_EINVAL naming the
 * choices otherwise. */
GK_API gk_status gk_format_parse(const char *text, gk_format *out);
GK_API const char *gk_format_name(gk_format f);

/* The format of an input graph: a Matrix Market banner, else the extension
 * (.gr; .mtx, .mm; .edges, .el, .txt, .tsv; .nthu, .bin), else a file of the
 * NTHU size 8 + 12E, else the first bytes of text ("c" or "p": gr, "%": mtx,
 * "#" or a digit: edges), else nthu.  "-" (standard input) and other
 * streams (FIFOs, devices) cannot be looked at ahead: by the extension, else
 * nthu. */
GK_API gk_status gk_format_detect(const char *path, gk_format *out);

/* The format an output named path gets for AUTO: by its extension (as
 * gk_format_detect, plus .npy), else fallback. */
GK_API gk_format gk_format_for_output(const char *path, gk_format fallback);

/* gk_apsp_read for every graph format: format AUTO is gk_format_detect's
 * choice.  undirected: each edge goes both ways.  vertices > 0: at least
 * that many vertices (edge lists only: the other formats give their own
 * count; GK_EINVAL for them); a vertex id at or above it is an error. */
GK_API gk_status gk_apsp_read_format(const char *path, gk_format format, int undirected, int32_t vertices,
                                     int32_t **dist, int32_t *V, int64_t *E, int32_t *max_w);

/* Write a V x V distance matrix as NTHU (gk_apsp_write) or NPY; AUTO: NPY
 * for a name ending in .npy, else NTHU.  Atomic like gk_apsp_write. */
GK_API gk_status gk_apsp_write_format(const char *path, gk_format format, const int32_t *dist, int32_t V);
GK_API gk_status gk_apsp_write_npy(const char *path, const int32_t *dist, int32_t V);

/* Convert a graph between nthu, gr, mtx and edges (AUTO: detected for the
 * input, by the name for the output, default nthu).  The edges are kept as
 * they are (duplicates, self-loops, order), except that a Matrix Market
 * output merges duplicates into the smallest weight (its readers, such as
 * scipy.io.mmread, add duplicates up) and that undirected writes each edge
 * both ways.  *V, *E (edges written) and *max_id (largest vertex id of an
 * edge, -1 without edges) may be NULL: an edge list does not record
 * isolated vertices above max_id. */
GK_API gk_status gk_graph_convert(const char *in, gk_format in_format, const char *out, gk_format out_format,
                                  int undirected, int32_t vertices, int32_t *V, int64_t *E, int32_t *max_id);

/* gk_apsp_generate in any graph format (the same graph for a given seed in
 * every format; a Matrix Market output merges duplicates as above).  AUTO:
 * by the name, default nthu.  *max_id (may be NULL; the edges are made
 * again to find it): the largest vertex id of an edge, -1 without edges, as
 * gk_graph_convert's (an edge list does not record vertices above it). */
GK_API gk_status gk_apsp_generate_format(const char *path, gk_format format, int32_t V, int64_t E,
                                         uint64_t seed, int32_t max_w, int32_t *max_id);

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
    int precision;         /* 0 (auto): the exact 16-bit path unless an initial entry
                              reaches its cap (32767); 16: the 16-bit path, settled in 32
                              bits where needed; 32: the int32 path.  The result is
                              byte-identical in every case; gk_report.precision says
                              which lanes produced it.  Unused past one GPU (int32). */
} gk_apsp_options;

/* One call per job: solve APSP in place on the context's backend with the
 * chosen configuration, optionally check, and fill *report (may be NULL).
 * Every entry of dist must be in [0, GK_APSP_INF] (what gk_apsp_read makes). */
GK_API gk_status gk_apsp_solve(gk_context *ctx, int32_t *dist, int32_t V,
                               const gk_apsp_options *options, gk_report *report);

/* Optional, ahead of gk_apsp_solve with the same V and options (for
 * instance on another thread while the input is read): the GPU kernel image
 * the solve will load is made ready now (a tuned configuration compiled by
 * NVRTC), so the solve does not wait for it.  Nothing to do on the CPU. */
GK_API gk_status gk_apsp_prepare(gk_context *ctx, int32_t V, const gk_apsp_options *options);

/* gk_apsp_solve_write's account of the output. */
typedef struct gk_apsp_write_report {
    int overlapped;        /* 1: the result came back from the GPU in chunks while the
                              previous chunk was written (then d2h_wait, not the copies,
                              is gk_report.d2h); 0: written after the solve */
    double write;          /* seconds in opening, writing and closing the output */
    double d2h_wait;       /* overlapped: seconds outside the writes, waiting for a copy
                              from the GPU or widening 16-bit rows */
    double wall;           /* seconds from opening the output to its rename */
    /* the solve's own costs outside the phases of gk_report (for --time) */
    double scan;           /* checking every entry, finding the largest */
    double open;           /* GPU: getting the module, device matrix, pinned buffers */
    int prepared;          /* 1: gk_apsp_prepare had them ready (open is then ~0) */
    double close;          /* GPU: freeing them (and freeing the host matrix that
                              gk_apsp_solve_graph_write built, where it built one) */
    /* gk_apsp_solve_graph_write only */
    int device_built;      /* 1: the initial matrix was made on the GPU from the edge list
                              (no V x V matrix on the host; gk_report.h2d is the edges'
                              upload and that build) */
    double host_matrix;    /* seconds building the initial matrix on the host from the
                              edge list (0 when built on the GPU or read as a matrix) */
} gk_apsp_write_report;

/* gk_apsp_solve, then the result written to path as gk_apsp_write_format
 * does (format AUTO: by the name; atomic: a temp file renamed at the end,
 * nothing at path on any failure).  On the GPU (without the check) the
 * device->host copy runs in chunks overlapped with the write.  dist holds
 * the result afterwards in every case.  report and wr may be NULL. */
GK_API gk_status gk_apsp_solve_write(gk_context *ctx, int32_t *dist, int32_t V, const gk_apsp_options *options,
                                     const char *path, gk_format format, gk_report *report,
                                     gk_apsp_write_report *wr);

/* ---- a graph solved without a V x V matrix on the host ----
 *
 * gk_apsp_graph_read reads and checks an input as gk_apsp_read_format does
 * (the same rules, the same one-line errors, in the same order) but keeps
 * an NTHU input as its edge list (12 bytes an edge, against 4 V^2 for the
 * matrix) when that takes no more memory than the matrix (or less than
 * 64 MiB); the other formats, and NTHU inputs with more edges than matrix
 * entries, are kept as the initial matrix.  gk_apsp_solve_graph_write then
 * solves it and writes the result as gk_apsp_solve_write does: on the GPU
 * (without the check, and for precision auto when no edge other than a
 * self-loop reaches the 16-bit cap 32767) the initial matrix is made on the
 * device from the edges, and the result is written straight from the
 * pinned download buffers as it comes back: no V x V matrix on the host at
 * any point.  Elsewhere (the CPU, the check, a weight at the cap with
 * precision auto, a 16-bit result at its cap) the initial matrix is built
 * on the host from the edges (wr->host_matrix) and solved as
 * gk_apsp_solve_write does.  The output is byte-identical to
 * gk_apsp_read_format + gk_apsp_solve_write in every case, and so is the
 * lanes' choice (gk_report.precision). */
typedef struct gk_apsp_graph gk_apsp_graph;

/* Read path (format AUTO: gk_format_detect's choice; undirected and
 * vertices as gk_apsp_read_format) into *graph (free it with
 * gk_apsp_graph_free).  Errors as gk_apsp_read_format's, *graph NULL. */
GK_API gk_status gk_apsp_graph_read(const char *path, gk_format format, int undirected, int32_t vertices,
                                    gk_apsp_graph **graph);
/* The vertex count, edge count and largest weight (self-loops included); any
 * pointer may be NULL. */
GK_API void gk_apsp_graph_info(const gk_apsp_graph *graph, int32_t *V, int64_t *E, int32_t *max_w);
GK_API void gk_apsp_graph_free(gk_apsp_graph *graph);

/* Solve graph and write the result to path (format and atomicity as
 * gk_apsp_solve_write; nothing at path on any failure).  A graph is solved
 * once: a graph kept as a matrix is solved in its place, and a second solve
 * of it fails with GK_EINVAL.  report and wr may be NULL. */
GK_API gk_status gk_apsp_solve_graph_write(gk_context *ctx, gk_apsp_graph *graph, const gk_apsp_options *options,
                                           const char *path, gk_format format, gk_report *report,
                                           gk_apsp_write_report *wr);

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
    /* the exact 16-bit path on the same matrix (GPU: its kernel, timed alone;
       CPU: its blocked code); tmps16 counts V^3 updates per second */
    double seconds16, tmps16, ceiling16_tmps;
    int identical16;                 /* 1: the 16-bit result == the kernel's */
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
