/* commands.h - what the gk and gktune commands use beyond the public API
 * (gk.h): the benchmark drivers, the APSP pipeline that writes the result
 * while it comes back from the GPU, the strict parsers of option values,
 * output checks, the tuner's worker and the reports of `gk info`.
 *
 * Not installed and not exported: the commands link libgk's objects
 * statically (libgk_impl.la), so nothing here is part of libgk's ABI and
 * any of it may change with any commit (HACKING.md, "Public and private",
 * says why this and not a second, unversioned library).  Programs other
 * than gk and gktune use gk.h alone. */
#ifndef GK_API_COMMANDS_H
#define GK_API_COMMANDS_H

#include "gk.h"
#include "core/internal.h"       /* gk__wtime, gk__host_memory_check, gk__gpu_selftest, kernel configurations */
#include "core/parse.h"          /* gk__parse_* */
#include "core/io.h"             /* gk__output_check */
#include "core/comm.h"           /* gk__comm_agree: the commands' checks that may fail on one rank */
#include "core/apsp_formats.h"   /* gk__apsp_graph, gk__format_for_output */
#include "core/stencil_core.h"   /* gk__stencil_compare */
#include "core/stencil_spec.h"   /* gk__stencil_spec */
#include "core/gemm_core.h"      /* gk__gemm_compare */
#include "core/elementwise.h"    /* gk__elementwise_step_check */

/* ---- APSP: the result written while it comes back (src/api/apsp_write.c) */

/* gk__apsp_run_write's account of the output. */
typedef struct gk__apsp_write_report {
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
    int prepared;          /* 1: the plan had them ready (open is then ~0) */
    double close;          /* GPU: freeing them (and freeing the host matrix that
                              gk__apsp_graph_run_write built, where it built one) */
    /* gk__apsp_graph_run_write only */
    int device_built;      /* 1: the initial matrix was made on the GPU from the edge list
                              (no V x V matrix on the host; gk_report.h2d is the edges'
                              upload and that build) */
    double host_matrix;    /* seconds building the initial matrix on the host from the
                              edge list (0 when built on the GPU or read as a matrix) */
} gk__apsp_write_report;

/* gk_apsp_plan_execute on host memory, then the result written to path as
 * gk_apsp_write_format does (format AUTO: by the name; atomic: a temp file
 * renamed at the end, nothing at path on any failure).  On the GPU
 * (without the check) the device->host copy runs in chunks overlapped with
 * the write.  dist (leading dimension V) holds the result afterwards in
 * every case.  report and wr may be NULL. */
gk_status gk__apsp_run_write(gk_context *ctx, gk_apsp_plan *plan, int32_t *dist, const char *path, gk_format format,
                             gk_report *report, gk__apsp_write_report *wr);

/* The graph (gk__apsp_graph_read) solved with plan (made for its V, host
 * memory) and written to path as gk__apsp_run_write does.  On the GPU
 * (without the check, and for precision auto when no edge other than a
 * self-loop reaches the 16-bit cap 32767) the initial matrix is made on the
 * device from the edges and the result written straight from the pinned
 * download buffers: no V x V matrix on the host at any point.  Elsewhere
 * the initial matrix is built on the host (wr->host_matrix).  The output is
 * byte-identical to gk_apsp_read_format + gk_apsp_run + gk_apsp_write_format
 * in every case, and so is the lanes' choice.  A graph is solved once. */
gk_status gk__apsp_graph_run_write(gk_context *ctx, gk_apsp_plan *plan, gk__apsp_graph *graph, const char *path,
                                   gk_format format, gk_report *report, gk__apsp_write_report *wr);

/* ---- the benchmarks (src/api/KERNEL_bench.c) ---- */

/* One size of `gk bench apsp`, on the context's backend.  GPU: the tuned
 * kernel, the classic course kernel (64x64 tiles, 32x32 threads, three
 * phases) and the min-plus ceiling measured in the same run.  CPU: the
 * blocked OpenMP/SIMD code against the plain omp parallel for/simd k-i-j
 * loop (ceiling_tmps 0: not measured).  Compute phase only. */
typedef struct gk__apsp_bench_row {
    int64_t n;
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
} gk__apsp_bench_row;

/* Random matrix (density 0.3, weights <= 1000).  config: as in
 * gk_apsp_options.  Fails with GK_EMISMATCH when the two disagree. */
gk_status gk__apsp_bench(gk_context *ctx, int64_t n, const char *config, gk__apsp_bench_row *row);

/* The element types' rows of `gk bench apsp` on one GPU (issue 24): the
 * random matrix of gk__apsp_bench as int32 distances (the tuned kernels),
 * int32 with predecessors, float32, float64, int64 distances and float32
 * with predecessors; each timed once after an untimed run, its type's
 * min-plus ceiling (chains of the same add + min) measured in the same run.
 * int32 with and without predecessors must give the same distances
 * (GK_EMISMATCH otherwise, the rows filled). */
#define GK__APSP_TYPE_ROWS 6
typedef struct gk__apsp_type_row {
    char name[24];                   /* "float64", "int32+pred" */
    gk_dtype dtype;
    int pred;
    double seconds, tmps;            /* the rounds; T updates/s (n^3 / seconds) */
    double ceiling_tmps;             /* the type's ceiling, T updates/s */
    double vs_int32;                 /* seconds / int32 distances' seconds */
} gk__apsp_type_row;
typedef struct gk__apsp_types_bench {
    int64_t n;
    int nrows;
    gk__apsp_type_row row[GK__APSP_TYPE_ROWS];
    int identical;                   /* int32 distances with and without predecessors */
    char device[256];
    char config[256];                /* complete configuration (APSPX_*: the typed kernels' shapes) */
} gk__apsp_types_bench;
/* GPU contexts only (GK_ENODEV otherwise).  config: as in gk_apsp_options. */
gk_status gk__apsp_bench_types(gk_context *ctx, int64_t n, const char *config, gk__apsp_types_bench *out);

/* One size of `gk bench apsp --gpus=N` (or under mpirun, one GPU per rank):
 * the random matrix of gk__apsp_bench made on each GPU, the rounds timed.
 * one_*: gk's single-GPU code on the first GPU (0: not run: several ranks,
 * or it does not fit one GPU); seed_*: the seed design on the same GPUs;
 * the rest: gk's design.  Efficiency = one_seconds / (gpus * seconds). */
typedef struct gk__apsp_multi_row {
    int64_t n;
    int gpus, ranks;
    double one_seconds, one_tmps;
    double seed_seconds, seed_tmps, seed_busy, seed_stall, seed_efficiency;
    double seconds, tmps, busy, stall, efficiency;
    int identical;                   /* 1: gk's design == one GPU; 0: differ; -1: not compared */
    char device[256];
    char config[256];
    char exchange[64];
} gk__apsp_multi_row;

gk_status gk__apsp_bench_multi(gk_context *ctx, int64_t n, const char *config, gk__apsp_multi_row *row);

/* Plans against one-call jobs (`gk bench plan`, GPU only): `calls`
 * executions of one plan on device memory, enqueued back to back with one
 * wait at the end (what a GPU application does), of one plan on host memory
 * (each copies up and down and waits), and of gk_<kernel>_run on host
 * memory (a plan made and destroyed per call: the path before plans),
 * against the kernels' own time in the same run (CUDA events, median).
 * Times are microseconds per call. */
typedef struct gk__plan_bench_row {
    char kernel[16];             /* "apsp", "stencil" */
    char problem[64];            /* "V = 512", "128^3, 1 step" */
    int calls, run_calls;        /* executions timed; gk_<kernel>_run calls timed */
    double kernel_us;            /* the kernels alone (CUDA events around the rounds or steps) */
    double exec_gpu_us;          /* one device-memory execution on the GPU's clock: the kernels and
                                    the copies into and out of gk's padded layout, if any */
    double device_us;            /* a plan on device memory: wall time per call */
    double host_us;              /* a plan on host memory (copies both ways and a wait included) */
    double run_us;               /* gk_<kernel>_run on host memory */
    double grid_us;              /* stencil: a device plan executed on its own grid
                                    (gk_stencil_plan_grid: no layout copies), per call; -1: n/a */
    double api_overhead_us;      /* device_us - exec_gpu_us: what the calls add to the GPU's work */
    double overhead_us;          /* device_us - kernel_us */
    double run_overhead_us;      /* run_us - kernel_us */
    int identical;               /* 1: the device plan's, host plan's and run's results are equal
                                    (and the own grid's, for the stencil) */
    int grid_same;               /* stencil: the own grid's result equals the device plan's */
    char device[256];
    char config[256];
} gk__plan_bench_row;

gk_status gk__plan_bench(gk_context *ctx, const char *kernel, int64_t size, int calls, gk__plan_bench_row *row);

/* `gk bench stencil`: each design on the context's backend against the
 * memory floor and the arithmetic ceiling measured in the same run.  GPU
 * rows: the naive kernel (one point per thread, 27 global loads), the
 * shared-memory tile (DESIGN=0), the 2.5D z-streaming kernel (DESIGN=1) and
 * the temporally blocked kernel (DESIGN=2) with T = 1..4 steps per pass,
 * each with the chosen configuration's block shape (only the design, and
 * the T, that config names, if it names them).  CPU rows: the plain
 * reference loop, the backend with one step per sweep for each instruction
 * set the CPU has, and its temporal sweeps (T = 2..4).  Each is checked
 * against the CPU after 5 steps (vsteps in stencil_bench.c: T = 4 makes one
 * full pass and a remainder).  The floor: the copy bandwidth (bytes read
 * + written) over 16 bytes per point, one step per pass over memory (a
 * temporal design can pass it); the ceiling (GPU): fp64 FMAs per second of
 * independent FMA chains over the 27 FMAs of a point. */
#define GK_STENCIL_BENCH_ROWS 12
typedef struct gk__stencil_bench_row {
    char kernel[16];             /* "naive", "tile", "stream", "temporal", "reference", "cpu", "cpu T=3" */
    int tsteps;                  /* steps per pass (1 for the one-step designs) */
    double ms_per_step;          /* median of reps runs */
    double gstencils;            /* GStencil/s (point updates per second) */
    char check[256];              /* "ok (bit-exact)", "ok (1.2e-16)", "FAIL 3.1e-2", "not run: ..." */
    int ok;
    char config[256];
    int steps;                   /* steps of each timed run (the plain reference loop: at most 2) */
    double work;                 /* GPU, 27-point kernels: FP64 work per stored point and step in
                                    points' 27 operations (gk__stencil_work; 0: not counted) */
} gk__stencil_bench_row;

typedef struct gk__stencil_bench_report {
    gk_backend backend;
    char device[256];
    int sm_count;                /* GPU */
    double copy_bytes_per_s;     /* measured in the same run */
    double floor_gstencils;      /* copy_bytes_per_s / 16 / 1e9 */
    double fma_per_s;            /* GPU: FMA chains of the element type, same run (0: not measured) */
    double ceiling_gstencils;    /* fma_per_s / the operations of a point (27; a description: its
                                    points) / 1e9 */
    gk_config_source config_source;
    int nrows;
    gk__stencil_bench_row row[GK_STENCIL_BENCH_ROWS];
} gk__stencil_bench_report;

gk_status gk__stencil_bench(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int steps, int reps,
                                  const char *config, gk__stencil_bench_report *report);

/* `gk bench stencil --stencil=DESC --device=cpu`: a description on the CPU
 * (the plain loop, one run of at most 2 steps; the backend, median of reps
 * runs of `steps` steps, checked bit for bit against the plain loop after 3)
 * against the copy floor measured in the same run: every thread copying
 * its slice of the grid, bytes read + written per second over 2 elements
 * per point.  report->floor_gstencils is set for the element type. */
gk_status gk__stencil_bench_desc_cpu(gk_context *ctx, const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz,
                                     int steps, int reps, gk__stencil_bench_report *report);

/* One size of `gk bench stencil --gpus=N` (or under mpirun, one GPU per
 * rank): gk_grid_random(12345) made on each GPU, `steps` steps timed after
 * a warm-up.  one_*: the single-GPU code on the first GPU with the same
 * configuration (0: not run: several ranks, or it does not fit one GPU or
 * the host); efficiency = one_seconds / (gpus * seconds). */
typedef struct gk__stencil_multi_row {
    int64_t nx, ny, nz;
    int steps, gpus, ranks, halo;
    double one_seconds, one_gstencils;
    double seconds, gstencils, busy, stall, speedup, efficiency;
    int identical;                   /* 1: the slabs == one GPU, bit for bit; 0: differ; -1: not compared */
    char device[256];
    char config[256];
    char exchange[64];
} gk__stencil_multi_row;

gk_status gk__stencil_bench_multi(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int steps,
                                        const char *config, gk__stencil_multi_row *row);

/* `gk bench gemm`: the designs on the context's backend, the vendor library
 * and the FP32 ceiling measured in the same run.  GPU rows: "naive" (one
 * output per thread), "tile" (the course's 32x32 shared-memory tiles),
 * "ilp" (64x64 tiles, 4x4 outputs per thread), "tuned" (the chosen
 * configuration) and "cublas" (cublasSgemm, opened at run time:
 * libcublas.so.13, .12, .11 or libcublas.so; default math mode, i.e. strict
 * fp32; "not run: ..." when absent).  CPU rows: "reference" (the plain
 * loop, only where M*N*K <= 2^30), "cpu" (the backend, for each instruction
 * set the CPU has) and "openblas" (cblas_sgemm of libopenblas, opened at
 * run time; "not run" when absent).  Every row's C is checked against the
 * plain reference loop (double accumulation) under the bound above, on 66
 * rows (the first, the last and 64 drawn at random; all rows when M <= 66). */
#define GK_GEMM_BENCH_ROWS 10
typedef struct gk__gemm_bench_row {
    char kernel[16];
    double ms;                   /* median of reps runs */
    double gflops;               /* 2 M N K / s */
    double pct_vendor;           /* percent of the vendor library's GFLOP/s (0: none) */
    char check[256];              /* "ok (0.31 of the bound)", "FAIL ...", "not run: ..." */
    int ok;
    char config[256];
} gk__gemm_bench_row;

typedef struct gk__gemm_bench_report {
    gk_backend backend;
    char device[256];
    double peak_gflops;          /* GPU: fp32 FMA chains measured in the same run, 2 flops each */
    char vendor[64];             /* "cuBLAS 13.0.0", "OpenBLAS 0.3.21", or "" */
    gk_config_source config_source;
    int nrows;
    gk__gemm_bench_row row[GK_GEMM_BENCH_ROWS];
} gk__gemm_bench_report;

gk_status gk__gemm_bench(gk_context *ctx, int64_t m, int64_t n, int64_t k, int reps, const char *config,
                               gk__gemm_bench_report *report);

/* `gk bench elementwise`: GPU rows: the baseline (one element per thread, a
 * switch on column % 4), the float4 design (one float4 per thread, the
 * class fixed per lane), the tuned kernel (the chosen configuration), the
 * same configuration with SKIP=0 when it has SKIP=1 (all the work: what
 * compares with the ceiling), and the device's throughput for these four
 * steps (a ceiling measured in the same run: the four steps on every float4
 * at full occupancy, no memory traffic in the loop).  CPU rows: the plain
 * reference loop and the backend.  Each row's niter result is checked (its
 * first iteration from the input, its last from its own niter - 1 result). */
#define GK_ELEMENTWISE_BENCH_ROWS 6
typedef struct gk__elementwise_bench_row {
    char kernel[16];             /* "baseline", "float4", "tuned", "tuned SKIP=0", "ceiling", "reference",
                                    "cpu" */
    double ms;                   /* median of reps runs of niter iterations */
    double gelem_iters;          /* element-iterations per second / 1e9 */
    double speedup;              /* against the first row (the baseline or the reference loop) */
    char check[256];              /* "ok", "FAIL ...", "not run: ..." */
    int ok;
    char config[256];
} gk__elementwise_bench_row;

typedef struct gk__elementwise_bench_report {
    gk_backend backend;
    char device[256];
    gk_config_source config_source;
    double ceiling_gelem_iters;  /* GPU: the ceiling row's rate (0: not measured) */
    int nrows;
    gk__elementwise_bench_row row[GK_ELEMENTWISE_BENCH_ROWS];
} gk__elementwise_bench_report;

gk_status gk__elementwise_bench(gk_context *ctx, int64_t dimx, int64_t dimy, int niter, int reps,
                                      const char *config, gk__elementwise_bench_report *report);

/* ---- the tuner and `gk info` (src/api/tune.c) ---- */

/* The measuring process, on the context's first GPU (a context without one
 * answers every request with the reason): reads requests on in_fd, answers
 * on out_fd (`gktune --worker`). */
int gk__tune_worker_main(gk_context *ctx, int in_fd, int out_fd);

/* Check a tuning run's options (kernels, size classes, budget) without
 * tuning: GK_EINVAL naming the option. */
gk_status gk__tune_options_check(const gk_tune_options *o);

/* What the calling thread's last gk_tune_run dropped from the cache
 * directory and why (a damaged cache or journal, moved aside to FILE.bad):
 * one line for the command to print as a warning; "" when nothing. */
const char *gk__tune_run_note(void);

/* For a command that must end now (a second interrupt): kill the tuner's
 * measuring process and remove the temp files being written.  Async-signal-
 * safe. */
void gk__tune_abort(void);

/* One line of text per cache entry of the context's GPU, and whether the
 * cache is usable ("none yet", "3 entries", "stale: driver changed", ...).
 * lines may be NULL. */
gk_status gk__tune_cache_text(gk_context *ctx, char *state, size_t n, char *lines, size_t ln);

/* ---- the generated stencil engine (issue 25: src/api/stencil_gen_api.c,
 * the bench in src/api/stencil_bench.c) ---- */
#include "gpu/stencil_gen.h"

/* A --stencil list ("3d-star-r1,2d-box-r2:f32:periodic"): GK_EINVAL naming
 * the first bad description. */
gk_status gk__stencil_gen_check_list(const char *list);

typedef struct gk__stencil_gen_tune_row {
    char device[256];
    char shape[96];              /* the tuned entry's key: "3d-star-r1-f64-zero" */
    int64_t size;
    char config[160];
    double best_ms, default_ms;  /* per step */
    int measured, failed, excluded, skipped;
    double seconds;
    char file[4200];
} gk__stencil_gen_tune_row;

/* `gktune --stencil=LIST`: each description (both element types unless
 * it names one) tuned on the context's GPU at size (0: 256^3 in 3D, 8192^2
 * in 2D), the budget shared among them; the winners kept in the context's
 * cache directory. */
gk_status gk__stencil_gen_tune_list(gk_context *ctx, const char *list, int64_t size, double budget_s, uint64_t seed,
                                    gk__stencil_gen_tune_row *rows, int max, int *nrows);

/* The configuration spec s runs with at size (points per axis): config
 * (the caller's text, over the description's defaults), else the tuned
 * entry of the context's cache (GK_CONFIG_CACHE), else the defaults. */
gk_status gk__stencil_gen_choose(gk_context *ctx, const gk__stencil_spec *s, int64_t size, const char *config,
                                 gk_config *cfg, gk_config_source *src);

/* The directory of the store a stencil plan of a description passes to the
 * generated engine (its context's cache directory when the plan was made;
 * "" for none or a classic plan): every backend, for the tests. */
const char *gk__stencil_plan_store_dir(const gk_stencil_plan *plan);

/* `gk bench stencil --stencil=DESC`: rows "gen T=1".."gen T=4" (or the T the
 * configuration names) of spec s on a random nx x ny x nz grid (2D: nz =
 * 1): median of reps runs of `steps` steps; each configuration checked bit
 * for bit against the CPU reference on an odd-sized grid (check text).
 * floor_gstencils: the copy bandwidth measured in the same run over the
 * 2 x element bytes a one-step pass moves per point. */
gk_status gk__stencil_gen_bench(gk_context *ctx, const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz,
                                int steps, int reps, const char *config, gk__stencil_bench_report *report);

#endif /* GK_API_COMMANDS_H */
