/* gk/stencil.h - the 27-point fp64 3D stencil with a zero halo.
 *
 * A grid is NX*NY*NZ doubles, x fastest: point (x, y, z) at
 * x + pitch_y * y + pitch_z * z (dense: pitch_y = NX, pitch_z = NX * NY).
 * The halo (one layer around the box) is 0 at every step.  One step:
 *     out(x,y,z) = sum over dz,dy,dx in {-1,0,1} of c[(dz+1)*9+(dy+1)*3+(dx+1)] * in(x+dx,y+dy,z+dz)
 * evaluated, on every backend, in one fixed order: t = c[0]*v[0], then
 * t = fma(c[i], v[i], t) for i = 1..26.  The CPU and GPU therefore compute the
 * same bits; the comparison tolerance (gk_stencil_tolerance) only leaves room
 * for a platform that breaks that contract.
 */
#ifndef GK_STENCIL_H
#define GK_STENCIL_H

#include <gk/common.h>
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

/* ---- stencil descriptions (added in 1.2) ------------------------------
 * A description names one member of the stencil family: dims 2 (nx x ny,
 * nz = 1) or 3, a shape (box: all (2r+1)^dims points; star: the
 * 2*dims*r + 1 points on the axes; mask: the points whose weight is
 * nonzero), a radius r in 1..4, a boundary and (2r+1)^dims weights,
 * weights[((dz+r)*(2r+1) + (dy+r))*(2r+1) + (dx+r)] multiplying
 * grid[z+dz][y+dy][x+dx] (2D: weights[(dy+r)*(2r+1) + (dx+r)]).  One step
 * is out(p) = t over the shape's points q in ascending (dz, dy, dx) order,
 * t = w[q0]*v[q0], then t = fma(w[q], v[q], t), in the element type
 * (float32 weights rounded to float once): every backend computes the same
 * bits.  Boundaries: zero (points outside read 0), periodic (indices wrap;
 * every extent >= 2r+1), fixed (points within r of a face keep their value;
 * the others read only points inside the grid). */
typedef enum gk_stencil_shape { GK_STENCIL_BOX = 1, GK_STENCIL_STAR = 2, GK_STENCIL_MASK = 3 } gk_stencil_shape;
typedef enum gk_boundary { GK_BOUNDARY_ZERO = 0, GK_BOUNDARY_PERIODIC = 1, GK_BOUNDARY_FIXED = 2 } gk_boundary;

#define GK_STENCIL_MAX_RADIUS 4

typedef struct gk_stencil_desc {
    size_t struct_size;      /* sizeof(gk_stencil_desc) (gk_stencil_desc_init) */
    int dims;                /* 2 or 3 */
    gk_stencil_shape shape;
    int radius;              /* 1..4 */
    gk_boundary boundary;
    const double *weights;   /* (2r+1)^dims (see above); NULL: 1/(points) at each point of the shape
                                (3D box r=1: the CPC benchmark's gk_stencil_default_coeffs) */
} gk_stencil_desc;

/* 3D, box, r = 1, zero boundary, NULL weights. */
GK_API void gk_stencil_desc_init(gk_stencil_desc *d);

/* Text form: "3d-box-r1", "2d-star-r4", "3d-mask-r2", optionally followed by
 * ":zero", ":periodic" or ":fixed".  Fills dims, shape, radius, boundary
 * (weights untouched); GK_EINVAL naming the text on anything else. */
GK_API gk_status gk_stencil_desc_parse(const char *text, gk_stencil_desc *d);

/* The text form of d ("3d-star-r2:periodic"; ":zero" left out) into buf
 * (at most size bytes with the NUL); GK_EINVAL when d is invalid or buf too
 * small. */
GK_API gk_status gk_stencil_desc_format(const gk_stencil_desc *d, char *buf, size_t size);

/* Read a weights file: exactly (2r+1)^dims finite numbers in text,
 * separated by white space or commas, in the order above.  GK_EFORMAT
 * naming the file and the count found on anything else. */
GK_API gk_status gk_stencil_weights_read(const char *path, int dims, int radius, double *weights);

/* ---- the problem, the options, one call per job ---------------------- */

typedef struct gk_stencil_problem {
    size_t struct_size;    /* sizeof(gk_stencil_problem) (gk_stencil_problem_init) */
    int64_t nx, ny, nz;    /* the interior, each >= 1 */
    int64_t pitch_y;       /* elements between rows (y to y + 1); 0: nx */
    int64_t pitch_z;       /* elements between planes (z to z + 1); 0: pitch_y * ny */
    const double *coeffs;  /* 27 coefficients (host memory; copied by a plan); NULL: the
                              benchmark's gk_stencil_default_coeffs */
    gk_dtype dtype;        /* GK_DTYPE_FLOAT64, or (1.2) GK_DTYPE_FLOAT32: the grid's elements */
    gk_memory memory;      /* GK_MEMORY_HOST (default) or GK_MEMORY_DEVICE */
    /* Added in 1.2 (read only when struct_size covers it). */
    const gk_stencil_desc *desc;   /* the stencil (copied by a plan); NULL: the 27-point box with
                                      coeffs.  With a desc, coeffs must be NULL (the weights are
                                      desc->weights) and a 2D description takes nz = 1. */
} gk_stencil_problem;

/* nx x ny x nz, dense, the default coefficients, float64, host memory, no desc. */
GK_API void gk_stencil_problem_init(gk_stencil_problem *p, int64_t nx, int64_t ny, int64_t nz);

typedef struct gk_stencil_options {
    size_t struct_size;    /* sizeof(gk_stencil_options) (gk_stencil_options_init) */
    int check;             /* 1: recompute on the CPU (the CPU backend checks the GPU, the
                              plain reference loop checks the CPU backend) and compare
                              within gk_stencil_tolerance; GK_EMISMATCH beyond it.  Host
                              memory only. */
    const char *config;    /* GPU kernel parameters, as gk_apsp_options.config: they
                              replace the tuned choice (the rest take the built-in
                              defaults); validated on every backend, ignored on the
                              CPU (gk_report.config_ignored).  The classic 27-point
                              box: its kernel's parameters; any other description:
                              the generated engine's (TX, TY, NT, ZC, TSTEPS, DESIGN,
                              PX, RX, RY, PF, SK, PL, AC, ST, MB, OX, XH) over
                              the defaults of the DESIGN named (else the
                              description's), checked against that description's
                              rules: GK_EINVAL naming the parameter and the
                              description.  (1.2;
                              gk_stencil_run_file takes none for a description.) */
    gk_exchange exchange;  /* gk_stencil_run_file only: how halo planes move */
} gk_stencil_options;

GK_API void gk_stencil_options_init(gk_stencil_options *o);

/* Validate sizes: every extent >= 1, steps >= 0, the point count and its
 * bytes fit in 64 bits. */
GK_API gk_status gk_stencil_check_size(int64_t nx, int64_t ny, int64_t nz, int64_t steps);

/* One call per job: `steps` sweeps over grid in place on the context's
 * backend, optionally checked; *report (may be NULL) says where it ran,
 * with which configuration, and the phase times.  The same as
 * gk_stencil_plan_create, gk_stencil_plan_execute, gk_stencil_plan_destroy.
 * Refuses (GK_ENOMEM, with the amounts) a grid that does not fit the host
 * memory (with the check's copies) or the device memory, before
 * allocating. */
GK_API gk_status gk_stencil_run(gk_context *ctx, const gk_stencil_problem *problem, void *grid, int64_t steps,
                                const gk_stencil_options *options, gk_report *report);

/* ---- plans ----------------------------------------------------------- */

typedef struct gk_stencil_plan gk_stencil_plan;

/* Made once: the configuration, the loaded kernel image, the two padded
 * device grids (the GPU) or the padded host buffers (the CPU). */
GK_API gk_status gk_stencil_plan_create(gk_context *ctx, const gk_stencil_problem *problem,
                                        const gk_stencil_options *options, gk_stencil_plan **plan);

/* `steps` sweeps over grid in place (host or device memory, as the plan's
 * problem says).  ctx must be the plan's context.  Device memory: the copy
 * into the plan's padded grid, the sweeps and the copy back are enqueued on
 * the context's stream; nothing is allocated and nothing waits. */
GK_API gk_status gk_stencil_plan_execute(gk_context *ctx, gk_stencil_plan *plan, void *grid, int64_t steps,
                                         gk_report *report);

GK_API void gk_stencil_plan_destroy(gk_stencil_plan *plan);

/* The plan's own device grid (a plan of a GK_MEMORY_DEVICE problem): its
 * point (0,0,0) in *grid and the elements between rows (*pitch_y) and
 * between planes (*pitch_z) of gk's padded layout.  Executing the plan on
 * this pointer runs the steps where the grid is, with no copy into or out
 * of gk's layout (the copies cost about as much as one step of a small
 * grid); the result is then at the pointer gk_stencil_plan_grid gives
 * after the execution, which may change with every execution (two buffers
 * take turns).  Write and read only the nx x ny x nz points (with these
 * pitches, in the context's stream order): the rest of the buffer is the
 * zero halo and the guard planes the kernels rely on.  Added in 1.1. */
GK_API gk_status gk_stencil_plan_grid(const gk_stencil_plan *plan, void **grid, int64_t *pitch_y, int64_t *pitch_z);

/* ---- grids in files and in memory ------------------------------------ */

/* Raw grid files: exactly nx*ny*nz*8 bytes of little-endian float64, dense. */
GK_API gk_status gk_grid_read(const char *path, int64_t nx, int64_t ny, int64_t nz, double *grid);
/* Atomic: the file appears only when complete. */
GK_API gk_status gk_grid_write(const char *path, int64_t nx, int64_t ny, int64_t nz, const double *grid);

/* The same for either element type (1.2): GK_DTYPE_FLOAT64 as above,
 * GK_DTYPE_FLOAT32 nx*ny*nz*4 bytes of little-endian float32 (finite). */
GK_API gk_status gk_grid_read_type(const char *path, int64_t nx, int64_t ny, int64_t nz, gk_dtype t, void *grid);
GK_API gk_status gk_grid_write_type(const char *path, int64_t nx, int64_t ny, int64_t nz, gk_dtype t, const void *grid);

/* A reproducible random dense grid, uniform in [-1, 1): element i is a
 * function of (seed, i) only, so any thread count gives the same grid. */
GK_API void gk_grid_random(double *grid, int64_t nx, int64_t ny, int64_t nz, uint64_t seed);

/* The allowed max |a - ref| after `steps` sweeps of grids whose largest
 * magnitude is `scale` (max of the initial and final reference grids): 8 *
 * steps * 2^-52 * scale, i.e. 8 units in the last place per step.  See
 * gk_stencil(3) for why that is generous for two evaluations of the same FMA
 * chain and tight against any real bug (a missing or wrong term moves a
 * result by about 1e-2 of the scale). */
GK_API double gk_stencil_tolerance(int64_t steps, double scale);

/* ---- past one GPU or one process: z slabs ----
 * The NZ planes are split into slabs, part g of P owning planes
 * g*NZ/P .. (g+1)*NZ/P - 1 (a part may own none); P = the context's GPUs
 * times its ranks (one GPU per rank), or the ranks on the CPU backend.
 * Each part also holds H planes of each neighbour, H = the design's steps
 * per pass (the CPU: its temporal T; at most the thinnest slab), and every
 * H steps the H planes next to each slab boundary move to the neighbour:
 * peer copies between the GPUs of one process, NCCL (or pinned host
 * buffers and the communicator's sendrecv) between GPU ranks, sendrecv
 * between CPU ranks.  The result is bit-identical to gk_stencil_run's. */

/* What a distributed run did.  Seconds are the slowest rank's.
 * Initialise with gk_stencil_dist_report_init. */
typedef struct gk_stencil_dist_report {
    size_t struct_size;
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

GK_API void gk_stencil_dist_report_init(gk_stencil_dist_report *r);

/* Run `steps` sweeps over the problem's grid (dense, host) that no process
 * holds whole: each rank reads its own planes of INPUT (NULL: the random
 * grid of gk_grid_random(seed) made where it is computed), runs on the
 * context's GPUs (or CPU) and its ranks, and writes its planes at their
 * offsets in OUTPUT (NULL: none; a temp file renamed by rank 0 when every
 * rank succeeded, or a device written in place).  Collective over the
 * context's gk_comm: every rank fails with the same status and message, and
 * then no output file is left.  options: config and exchange (check must be
 * 0); rep may be NULL.  Byte-identical to gk_grid_read + gk_stencil_run +
 * gk_grid_write. */
GK_API gk_status gk_stencil_run_file(gk_context *ctx, const gk_stencil_problem *problem, const char *input,
                                     uint64_t seed, const char *output, int64_t steps,
                                     const gk_stencil_options *options, gk_stencil_dist_report *rep);

#ifdef __cplusplus
}
#endif
#endif /* GK_STENCIL_H */
