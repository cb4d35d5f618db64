/* gk/apsp.h - all-pairs shortest paths (blocked Floyd-Warshall).
 *
 * A V x V matrix is row-major with a leading dimension ld >= V:
 * dist[i * ld + j] is the distance from i to j.  Its element type (1.2) is
 * int32 (the default), int64, float32 or float64 (gk_apsp_problem.dtype).
 * "No edge" / unreachable: GK_APSP_INF (2^30 - 1) for int32, GK_APSP_INF64
 * (2^62 - 1) for int64, +infinity for the floats; the diagonal is 0.
 *
 * Non-negative integer weights: every stored value stays in [0, INF]: the
 * update min(d[i][k] + d[k][j], d[i][j]) never overflows and never exceeds
 * the old d[i][j], so a path of length >= INF is reported as unreachable,
 * the same on every backend, bit for bit.
 *
 * Negative weights (1.2) are allowed for every type.  Integer types are
 * exact while (V - 1) * max|w| < INF / 2 (checked: GK_EINVAL otherwise); a
 * negative cycle fails with GK_ENEGCYCLE and gk_report.cycle_vertex names a
 * vertex on one.  Floats: IEEE addition then min in the element type; the
 * CPU and the GPU give the same bits; against a computation in another
 * order |d - d_ref| <= 2 (V-1)^2 u max|w| (u = 2^-24 float32, 2^-53
 * float64).  Predecessors (1.2): an int32 V x V matrix, pred[i][j] = the
 * vertex before j on a shortest path from i, GK_APSP_NO_PRED (-1) on the
 * diagonal and for unreachable pairs; the same matrix on every backend.
 *
 * A job: describe the problem (gk_apsp_problem: V, ld, element type, where
 * the matrix lives), then either gk_apsp_run (one call) or a plan made once
 * and executed many times (no set-up, no allocation per execution).
 *
 * Files: the NTHU parallel-programming course's format (little-endian) and
 * four others, see gk_format. */
#ifndef GK_APSP_H
#define GK_APSP_H

#include <gk/common.h>
#include <gk/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Unreachable pairs hold 2^30 - 1 in the NTHU output format. */
#define GK_APSP_INF 1073741823
/* The largest edge weight an int32 input may hold. */
#define GK_APSP_MAX_WEIGHT 1073741822
/* (1.2) Unreachable pairs of an int64 matrix: 2^62 - 1. */
#define GK_APSP_INF64 INT64_C(4611686018427387903)
/* (1.2) A predecessor matrix's "none": the diagonal and unreachable pairs. */
#define GK_APSP_NO_PRED (-1)

/* ---- the problem, the options, one call per job ---------------------- */

typedef struct gk_apsp_problem {
    size_t struct_size;    /* sizeof(gk_apsp_problem) (gk_apsp_problem_init) */
    int64_t n;             /* vertices V >= 1 */
    int64_t ld;            /* elements between the starts of two rows; 0: n */
    gk_dtype dtype;        /* GK_DTYPE_INT32 (default), INT64, FLOAT32 or FLOAT64 (1.2) */
    gk_memory memory;      /* GK_MEMORY_HOST (default) or GK_MEMORY_DEVICE */
} gk_apsp_problem;

/* n vertices, ld = 0, int32, host memory. */
GK_API void gk_apsp_problem_init(gk_apsp_problem *p, int64_t n);

typedef struct gk_apsp_options {
    size_t struct_size;    /* sizeof(gk_apsp_options) (gk_apsp_options_init) */
    int check;             /* 1: recompute independently on the CPU (the blocked CPU code
                              checks the GPU, the plain k-i-j loop checks the CPU) and
                              compare every entry; GK_EMISMATCH when they differ.  Host
                              memory only. */
    const char *config;    /* GPU kernel parameters "NAME=VALUE,...": they REPLACE the
                              tuned choice (parameters not named take the built-in
                              defaults).  NULL: the tuned choice (cache, shipped table,
                              defaults).  Validated against the kernel's tunable
                              description on every backend; unused on the CPU
                              (gk_report.config_ignored says so).  Copied by a plan. */
    int precision;         /* 0 (auto): the exact 16-bit path unless an initial entry
                              reaches its cap (32767); 16: the 16-bit path, settled in 32
                              bits where needed; 32: the int32 path.  The result is
                              byte-identical in every case; gk_report.precision says
                              which lanes produced it.  Device memory: 0 means 32 and 16
                              is refused (the exactness test reads the result on the
                              host).  Unused past one GPU (int32). */
    gk_exchange exchange;  /* gk_apsp_run_file only: how panels move between GPUs/ranks */
    /* Added in 1.2 (read only when struct_size covers them). */
    int predecessors;      /* 1: a plan also keeps predecessors (gk_apsp_plan_execute_paths) */
    int negative;          /* device memory only: 1 = weights may be negative; the execution
                              then waits for the stream at its end to report a negative
                              cycle (0: nothing waits, no cycle report) */
} gk_apsp_options;

GK_API void gk_apsp_options_init(gk_apsp_options *o);

/* One call per job: solve APSP in place on the context's backend with the
 * chosen configuration, optionally check, and fill *report (may be NULL).
 * Every entry of the V x V matrix must be in [0, GK_APSP_INF] (what
 * gk_apsp_read_format makes; host memory: checked, GK_EINVAL naming the
 * first entry outside).  The same as gk_apsp_plan_create,
 * gk_apsp_plan_execute, gk_apsp_plan_destroy.  On device memory the work
 * runs on the context's stream and the call returns when it has finished
 * (freeing the plan's device memory waits for it): keep a plan for calls
 * that enqueue and return. */
GK_API gk_status gk_apsp_run(gk_context *ctx, const gk_apsp_problem *problem, void *dist,
                             const gk_apsp_options *options, gk_report *report);

/* (1.2) gk_apsp_run that also fills pred (int32, leading dimension
 * problem->ld, in the same memory as dist; NULL: distances only) with the
 * predecessors of section "Predecessors" above. */
GK_API gk_status gk_apsp_run_paths(gk_context *ctx, const gk_apsp_problem *problem, void *dist,
                                   int32_t *pred, const gk_apsp_options *options, gk_report *report);

/* ---- plans ----------------------------------------------------------- */

typedef struct gk_apsp_plan gk_apsp_plan;

/* Everything a job of this problem needs, made once: the configuration
 * (tuned choice, shipped table or options->config), the loaded kernel image
 * (an NVRTC compile for a tuned variant), the padded device matrix and,
 * for host memory, the pinned staging buffers.  Refuses (GK_ENOMEM with
 * the amounts) a problem that does not fit the device or host memory. */
GK_API gk_status gk_apsp_plan_create(gk_context *ctx, const gk_apsp_problem *problem,
                                     const gk_apsp_options *options, gk_apsp_plan **plan);

/* Solve the problem on dist (host or device memory, as the plan's problem
 * says) in place.  ctx must be the plan's context.  Host memory: returns
 * with the result in dist.  Device memory: enqueues the copy into the
 * plan's matrix (or runs in place when V is a multiple of the tile and ld
 * is aligned), the rounds and the copy back on the context's stream, and
 * returns; nothing is allocated and nothing waits.  dist must not be in use
 * by another execution of the same plan at the same time. */
GK_API gk_status gk_apsp_plan_execute(gk_context *ctx, gk_apsp_plan *plan, void *dist, gk_report *report);

/* (1.2) gk_apsp_plan_execute that also fills pred (the plan must have been
 * made with options->predecessors = 1; pred NULL: distances only). */
GK_API gk_status gk_apsp_plan_execute_paths(gk_context *ctx, gk_apsp_plan *plan, void *dist,
                                            int32_t *pred, gk_report *report);

/* Free the plan (NULL is fine).  Its device memory is released with
 * cudaFree, which waits for the work still queued on it. */
GK_API void gk_apsp_plan_destroy(gk_apsp_plan *plan);

/* (1.2) The vertices of a shortest path from -> to from a predecessor
 * matrix: path[0] = from .. path[*len-1] = to; *len = 0 when unreachable;
 * path holds at least V entries.  GK_EINVAL naming a vertex outside [0, V)
 * or a broken matrix (a cycle or a value out of range). */
GK_API gk_status gk_apsp_path(const int32_t *pred, int64_t ld, int64_t V, int64_t from, int64_t to,
                              int64_t *path, int64_t *len);

/* Compare two V x V matrices (host, leading dimension V): GK_OK if equal,
 * else GK_EMISMATCH naming the number of differing entries and the first
 * one; what names the comparison in the message. */
GK_API gk_status gk_apsp_compare(const int32_t *got, const int32_t *want, int64_t V, const char *what);

/* Fill a V x V matrix in host memory with a random graph: each off-diagonal
 * pair is an edge with probability density, weight uniform in [0, max_w];
 * 0 on the diagonal.  The same seed gives the same matrix. */
GK_API gk_status gk_apsp_random_matrix(int32_t *dist, int64_t V, double density, uint64_t seed, int32_t max_w);

/* ---- files ------------------------------------------------------------
 *
 *   nthu   the course's binary format: int32 V, int32 E, then E triples
 *          int32 (src, dst, w); file size exactly 8 + 12E.  Distance
 *          matrices: V x V int32.
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
 * Weights are integers in [0, GK_APSP_MAX_WEIGHT] in every format;
 * duplicate edges keep the smallest weight, self-loops are ignored.  Every
 * broken rule fails with GK_EFORMAT and one line naming the file and the
 * line or item ("g.gr:12: arc 5 -> 0: vertex 0 is outside [1, 4]").
 *
 * The text formats (gr, mtx, edges): lines end with LF or CR LF (a CR alone
 * inside a line is refused, naming it); a UTF-8 byte-order mark at the start
 * is skipped; numbers are decimal and may have a leading '+' ("+1"); an mtx
 * real is [+-]digits[.digits][(e|E)[+-]digits] with an integral value
 * (hexadecimal floats such as 0x1p4, inf and nan are refused); fields are
 * separated by blanks; an empty file is refused as such.  They are read a
 * line at a time into the distinct (src, dst) pairs or the matrix, never
 * held as text. */
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
 * "#" or a digit: edges; a UTF-8 byte-order mark skipped), else nthu for
 * binary bytes; text of none of these fails with GK_EFORMAT quoting its
 * first bytes.  "-" (standard input) is looked at the same way: its first
 * 256 bytes are read and kept, and the next read of "-" gets them back
 * first.  Other streams (FIFOs, devices) cannot be looked at ahead: by the
 * extension, else nthu. */
GK_API gk_status gk_format_detect(const char *path, gk_format *out);

/* Read a graph (format AUTO: gk_format_detect's choice) and build the
 * initial V x V matrix (leading dimension V): INF everywhere, 0 on the
 * diagonal, the smallest weight of each (src, dst) pair.  undirected: each
 * edge goes both ways.  vertices > 0: at least that many vertices (edge
 * lists only: the other formats give their own count; GK_EINVAL for them);
 * a vertex id at or above it is an error.  *dist is allocated by gk: free
 * it with gk_free.  V, E (edges read) and max_w (largest weight) may be
 * NULL but for dist and V.  A matrix too large for this machine's memory
 * fails with GK_ENOMEM before anything is allocated. */
GK_API gk_status gk_apsp_read_format(const char *path, gk_format format, int undirected, int64_t vertices,
                                     int32_t **dist, int64_t *V, int64_t *E, int32_t *max_w);

/* (1.2) Read a graph into a V x V matrix of type *dtype (in: the wanted
 * type, 0 = auto; out: the type made).  auto: every weight integral ->
 * int32 when (V-1) * max|w| < GK_APSP_INF (and, with a negative weight,
 * < GK_APSP_INF / 2), else int64; any non-integral weight -> float64.
 * Text formats carry real and negative weights; nthu stays int32 and
 * non-negative; a .npy matrix ('<i4', '<i8', '<f4', '<f8') is a dense
 * initial matrix (+inf or the type's INF: no edge).  Free with gk_free. */
GK_API gk_status gk_apsp_read_matrix(const char *path, gk_format format, int undirected, int64_t vertices,
                                     gk_dtype *dtype, void **dist, int64_t *V, int64_t *E);

/* (1.2) Write V x V of dtype (raw little-endian, or .npy with its dtype);
 * atomic. */
GK_API gk_status gk_apsp_write_matrix(const char *path, gk_format format, gk_dtype dtype,
                                      const void *dist, int64_t V);

/* Write a V x V distance matrix (leading dimension V) as NTHU or NPY; AUTO:
 * NPY for a name ending in .npy, else NTHU.  Atomic: a temp file renamed
 * at the end, nothing at path on any failure. */
GK_API gk_status gk_apsp_write_format(const char *path, gk_format format, const int32_t *dist, int64_t V);

/* Convert a graph between nthu, gr, mtx and edges (AUTO: detected for the
 * input, by the name for the output, default nthu).  The edges are kept as
 * they are (duplicates, self-loops, order), except that a Matrix Market
 * output merges duplicates into the smallest weight (its readers, such as
 * scipy.io.mmread, add duplicates up) and that undirected writes each edge
 * both ways.  *V, *E (edges written) and *max_id (largest vertex id of an
 * edge, -1 without edges) may be NULL: an edge list does not record
 * isolated vertices above max_id. */
GK_API gk_status gk_graph_convert(const char *in, gk_format in_format, const char *out, gk_format out_format,
                                  int undirected, int64_t vertices, int64_t *V, int64_t *E, int64_t *max_id);

/* Write a reproducible random graph in any graph format (AUTO: by the name,
 * default nthu): E edges, src and dst uniform (no self-loops when V > 1),
 * weights uniform in [0, max_w].  The same seed gives the same graph in
 * every format and for any thread count (a Matrix Market output merges
 * duplicates as above).  *max_id (may be NULL): the largest vertex id of an
 * edge, -1 without edges (an edge list does not record vertices above it). */
GK_API gk_status gk_apsp_generate(const char *path, gk_format format, int64_t V, int64_t E, uint64_t seed,
                                  int32_t max_w, int64_t *max_id);

/* ---- past one GPU: row blocks over several GPUs and ranks ----
 *
 * The matrix is split into blocks of whole rows, one per GPU (all the
 * context's GPUs, in one process) or per rank (the ranks of the context's
 * gk_comm, one GPU each, or the CPU backend on each); no process and no GPU
 * holds the whole matrix.  Every round the owner of the pivot rows closes
 * them and sends them (the panel) to the others. */

/* What a distributed solve did.  Seconds are the slowest rank's.
 * Initialise with gk_apsp_dist_report_init. */
typedef struct gk_apsp_dist_report {
    size_t struct_size;
    gk_report run;               /* backend, device(s), configuration; run.compute as below */
    int ranks;                   /* processes */
    int gpus;                    /* GPUs in all (0 on the CPU backend) */
    char exchange[64];           /* how the panels moved */
    int64_t V, E;                /* the input's vertex and edge counts */
    int32_t max_w;               /* its largest weight */
    double read;                 /* reading the input: header, edges of this rank's rows */
    double distribute;           /* each block's initial rows built where they are computed */
    double compute;              /* the rounds, exchanges included */
    double exchange_busy;        /* the links busy moving panels (sum over the rounds) */
    double exchange_stall;       /* compute waiting for a panel (the part that waited longest) */
    double write;                /* every rank writing its rows at their offsets */
} gk_apsp_dist_report;

GK_API void gk_apsp_dist_report_init(gk_apsp_dist_report *r);

/* Read INPUT (NTHU format; each rank keeps the edges of its rows, every
 * rank validates every edge), solve on the context's GPUs or CPU spread over
 * its ranks, write OUTPUT (every rank its own rows at their offsets: a temp
 * file renamed by rank 0 when all succeeded, or a device written in place).
 * Collective over the context's gk_comm: every rank fails with the same
 * status and message, and then no output file is left.  options: config
 * and exchange (check, precision and predecessors must be 0); rep may be NULL.  The
 * result is byte-identical to gk_apsp_read_format + gk_apsp_run +
 * gk_apsp_write_format. */
GK_API gk_status gk_apsp_run_file(gk_context *ctx, const char *input, const char *output,
                                  const gk_apsp_options *options, gk_apsp_dist_report *rep);

#ifdef __cplusplus
}
#endif
#endif /* GK_APSP_H */
