/* gk/stencil.h - the 27-point fp64 3D stencil with a zero halo.
 *
 * A grid is NX*NY*NZ doubles, x fastest (index x + NX*(y + NY*z)); the halo
 * (one layer around the box) is 0 at every step.  One step:
 *     out(x,y,z) = sum over dz,dy,dx in {-1,0,1} of c[(dz+1)*9+(dy+1)*3+(dx+1)] * in(x+dx,y+dy,z+dz)
 * evaluated, on every backend, in one fixed order: t = c[0]*v[0], then
 * t = fma(c[i], v[i], t) for i = 1..26.  The CPU and GPU therefore compute the
 * same bits; the comparison tolerance (gk_stencil_tolerance) only leaves room
 * for a platform that breaks that contract.
 */
#ifndef GK_STENCIL_H
#define GK_STENCIL_H

#include <gk/common.h>
#include <gk/config.h>
#include <gk/context.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GK_STENCIL_NCOEFFS 27
#define GK_STENCIL_FLOPS_PER_POINT 53   /* 27 multiplies + 26 adds */

/* The CPC/PKU benchmark's coefficients, index (dz+1)*9 + (dy+1)*3 + (dx+1). */
GK_API extern const double gk_stencil_default_coeffs[GK_STENCIL_NCOEFFS];

/* Read a coefficient file: exactly 27 finite numbers in text, separated by
 * white space or commas, same index order.  Fails (GK_EFORMAT) naming the
 * file on anything else. */
GK_API gk_status gk_stencil_coeffs_read(const char *path, double c[GK_STENCIL_NCOEFFS]);

/* Validate a problem: every size >= 1, steps >= 0, the point count fits. */
GK_API gk_status gk_stencil_check_size(int64_t nx, int64_t ny, int64_t nz, int64_t steps);

/* Raw grid files: exactly nx*ny*nz*8 bytes of little-endian float64. */
GK_API gk_status gk_grid_read(const char *path, int nx, int ny, int nz, double *grid);
/* Atomic: the file appears only when complete. */
GK_API gk_status gk_grid_write(const char *path, int nx, int ny, int nz, const double *grid);

/* A reproducible random grid, uniform in [-1, 1): element i is a function of
 * (seed, i) only, so any thread count gives the same grid. */
GK_API void gk_grid_random(double *grid, int nx, int ny, int nz, uint64_t seed);

/* What a run does besides computing. */
typedef struct gk_stencil_options {
    int check;             /* 1: recompute on the CPU (the CPU backend checks the GPU, the
                              plain reference loop checks the CPU backend) and compare
                              within gk_stencil_tolerance; GK_EMISMATCH beyond it */
    const char *config;    /* GPU kernel parameters, as gk_apsp_options.config: they
                              replace the tuned choice; validated on every backend */
} gk_stencil_options;

/* One call per job: `steps` sweeps over grid (nx*ny*nz doubles, x fastest) in
 * place on the context's backend, optionally checked; *report (may be NULL)
 * says where it ran, with which configuration, and the phase times.  Refuses
 * (GK_ENOMEM, with the amounts) a grid that does not fit the host memory
 * (with the check's copies) or the device memory, before allocating. */
GK_API gk_status gk_stencil_run(gk_context *ctx, double *grid, int64_t nx, int64_t ny, int64_t nz,
                                const double coeffs[GK_STENCIL_NCOEFFS], int64_t steps,
                                const gk_stencil_options *options, gk_report *report);

/* `gk bench stencil`: each design on the context's backend against the
 * memory floor and the arithmetic ceiling measured in the same run.  GPU
 * rows: the naive kernel (one point per thread, 27 global loads), the
 * shared-memory tile (DESIGN=0), the 2.5D z-streaming kernel (DESIGN=1) and
 * the temporally blocked kernel (DESIGN=2) with T = 1..4 steps per pass,
 * each with the chosen configuration's block shape (only the design, and
 * the T, that config names, if it names them).  CPU rows: the plain
 * reference loop, the backend with one step per sweep for each instruction
 * set the CPU has, and its temporal sweeps (T = 2..4).  Each is checked
 * against the CPU after 3 steps.  The floor: the copy bandwidth (bytes read
 * + written) over 16 bytes per point, one step per pass over memory (a
 * temporal design can pass it); the ceiling (GPU): fp64 FMAs per second of
 * independent FMA chains over the 27 FMAs of a point. */
#define GK_STENCIL_BENCH_ROWS 12
typedef struct gk_stencil_bench_row {
    char kernel[16];             /* "naive", "tile", "stream", "temporal", "reference", "cpu", "cpu T=3" */
    int tsteps;                  /* steps per pass (1 for the one-step designs) */
    double ms_per_step;          /* median of reps runs */
    double gstencils;            /* GStencil/s (point updates per second) */
    char check[64];              /* "ok (bit-exact)", "ok (1.2e-16)", "FAIL 3.1e-2", "not run: ..." */
    int ok;
    char config[256];
    int steps;                   /* steps of each timed run (the plain reference loop: at most 2) */
} gk_stencil_bench_row;

typedef struct gk_stencil_bench_report {
    gk_backend backend;
    char device[256];
    int sm_count;                /* GPU */
    double copy_bytes_per_s;     /* measured in the same run */
    double floor_gstencils;      /* copy_bytes_per_s / 16 / 1e9 */
    double fma_per_s;            /* GPU: fp64 FMA chains, same run (0: not measured) */
    double ceiling_gstencils;    /* fma_per_s / 27 / 1e9 */
    gk_config_source config_source;
    int nrows;
    gk_stencil_bench_row row[GK_STENCIL_BENCH_ROWS];
} gk_stencil_bench_report;

GK_API gk_status gk_stencil_bench(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int steps, int reps,
                                  const char *config, gk_stencil_bench_report *report);

/* ---- Past one GPU or one process: z slabs.
 * The NZ planes are split into slabs, part g of P owning planes
 * g*NZ/P .. (g+1)*NZ/P - 1 (a part may own none); P = the context's GPUs
 * times its ranks (one GPU per rank), or the ranks on the CPU backend.
 * Each part also holds H planes of each neighbour, H = the design's steps
 * per pass (the CPU: GK's temporal T; at most the thinnest slab), and every
 * H steps the H planes next to each slab boundary move to the neighbour:
 * peer copies between the GPUs of one process, NCCL (or pinned host
 * buffers and the communicator's sendrecv) between GPU ranks, sendrecv
 * between CPU ranks.  The result is bit-identical to gk_stencil_run's. */
typedef enum gk_stencil_exchange {
    GK_STENCIL_EXCHANGE_AUTO = 0,   /* peer copies in one process; NCCL between GPU ranks, else host */
    GK_STENCIL_EXCHANGE_DEVICE,     /* the same, but NCCL is required between GPU ranks */
    GK_STENCIL_EXCHANGE_HOST        /* between GPU ranks: pinned host buffers and the communicator */
} gk_stencil_exchange;

/* What a distributed run did.  Seconds are the slowest rank's. */
typedef struct gk_stencil_dist_report {
    gk_report run;               /* backend, device(s), configuration; run.compute = compute */
    int ranks;                   /* processes */
    int gpus;                    /* GPUs in all (0 on the CPU backend) */
    int parts, halo;             /* slabs in all; H, the planes exchanged per side every H steps */
    int thinnest, thickest;      /* planes of the smallest non-empty and of the largest slab */
    char exchange[64];           /* how the halo planes moved */
    double read;                 /* reading this rank's planes (or making them from the seed) */
    double compute;              /* the steps, exchanges included */
    double exchange_busy;        /* moving halo planes, overlapped with compute on GPUs (the
                                    part whose transfers took longest) */
    double exchange_stall;       /* compute waiting for its next halo (the part that waited longest) */
    double write;                /* every rank writing its planes at their offsets (-1: no output) */
} gk_stencil_dist_report;

/* Run `steps` sweeps over an nx x ny x nz grid that no process holds
 * whole: each rank reads its own planes of INPUT (NULL: the random grid of
 * gk_grid_random(seed) made where it is computed), runs on the context's
 * GPUs (or CPU) and its ranks, and writes its planes at their offsets in
 * OUTPUT (NULL: none; a temp file renamed by rank 0 when every rank
 * succeeded, or a device written in place).  Collective over the
 * context's gk_comm: every rank fails with the same status and message, and
 * then no output file is left.  config: as in gk_stencil_options; rep may
 * be NULL.  Byte-identical to gk_grid_read + gk_stencil_run + gk_grid_write. */
GK_API gk_status gk_stencil_run_file(gk_context *ctx, const char *input, uint64_t seed, const char *output,
                                     int64_t nx, int64_t ny, int64_t nz, const double coeffs[GK_STENCIL_NCOEFFS],
                                     int64_t steps, const char *config, gk_stencil_exchange exchange,
                                     gk_stencil_dist_report *rep);

/* One size of `gk bench stencil --gpus=N` (or under mpirun, one GPU per
 * rank): gk_grid_random(12345) made on each GPU, `steps` steps timed after
 * a warm-up.  one_*: the single-GPU code on the first GPU with the same
 * configuration (0: not run: several ranks, or it does not fit one GPU or
 * the host); efficiency = one_seconds / (gpus * seconds). */
typedef struct gk_stencil_multi_row {
    int64_t nx, ny, nz;
    int steps, gpus, ranks, halo;
    double one_seconds, one_gstencils;
    double seconds, gstencils, busy, stall, speedup, efficiency;
    int identical;                   /* 1: the slabs == one GPU, bit for bit; 0: differ; -1: not compared */
    char device[256];
    char config[256];
    char exchange[64];
} gk_stencil_multi_row;

GK_API gk_status gk_stencil_bench_multi(gk_context *ctx, int64_t nx, int64_t ny, int64_t nz, int steps,
                                        const char *config, gk_stencil_multi_row *row);

/* Comparison of a result with its reference. */
typedef struct gk_stencil_diff {
    double max_abs;      /* max |a - ref| */
    double max_rel;      /* max |a - ref| / |ref| over |ref| > 0 (0 if none) */
    double scale;        /* max |ref|, floored at 1e-300 */
    double tolerance;    /* the allowed max_abs */
    int64_t nonfinite;   /* elements where a or ref is NaN/Inf */
} gk_stencil_diff;

/* The allowed max |a - ref| after `steps` sweeps of grids whose largest
 * magnitude is `scale` (max of the initial and final reference grids): 8 *
 * steps * 2^-52 * scale, i.e. 8 units in the last place per step.  See
 * README ("Stencil accuracy") for why that is generous for two evaluations
 * of the same FMA chain and tight against any real bug (a missing or wrong
 * term moves a result by about 1e-2 of the scale). */
GK_API double gk_stencil_tolerance(int steps, double scale);

/* Compare a with ref (n elements); *d filled; GK_EMISMATCH (message with
 * the first offending index) when max_abs > tolerance or non-finite values
 * appear.  init_scale: max |initial grid|. */
GK_API gk_status gk_stencil_compare(const double *a, const double *ref, int64_t n, int steps,
                             double init_scale, gk_stencil_diff *d);

/* max |grid[i]| (0 for n == 0). */
GK_API double gk_grid_max_abs(const double *grid, int64_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_STENCIL_H */
