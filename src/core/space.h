/* space.h - a kernel's tunable parameters: the one description of each
 * kernel's parameters (names, legal ranges, defaults, candidate values) and
 * the constraints that exclude invalid combinations before any compile.
 *
 * The descriptions live in src/core/space_<kernel>.c and are compiled in
 * every build (the CLI validates --config without CUDA).  Everything else
 * derives from them: the embedded fatbin is built with -D flags printed by
 * the space-defaults tool, NVRTC variants get a -D for every parameter of a
 * complete configuration, host launch code reads the complete configuration
 * with gk__param, `gktune --list` prints them.  The kernel sources have no
 * defaults of their own (every macro is required; tests/test_spaces checks). */
#ifndef GK_SPACE_H
#define GK_SPACE_H

#include "core/internal.h"

#define GK_SPACE_MAX_VALUES 16

typedef struct gk_param_def {
    const char *name;      /* the kernel source's macro; MAXRREG = --maxrregcount, 0 none */
    int def;               /* the value the embedded fatbin is built with */
    int min, max;          /* legal range, checked before any arithmetic */
    int nvalues;           /* candidate values for the tuner, within [min, max] */
    int values[GK_SPACE_MAX_VALUES];
    const char *help;
} gk_param_def;

typedef struct gk_space {
    const char *kernel;                 /* "apsp", "stencil", "vadd" */
    int nparams;
    const gk_param_def *params;
    /* Returns 0 when the complete configuration cfg can run on dev, else 1 and
     * a reason in why (e.g. "threads 2048 > 1024").  dev may be NULL: then
     * only the device-independent rules apply.  Safe on any cfg: a missing
     * or out-of-range parameter is a reason, and the arithmetic is 64-bit. */
    int (*reject)(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n);
} gk_space;

/* The kernels' spaces (src/core/space_<kernel>.c). */
/* Every kernel's description (one per line of src/kernels.def) and vadd's. */
extern const gk_space gk__space_vadd;
#define GK_KERNEL(name, gen) extern const gk_space gk__space_##name;
#include "kernels.def"
#undef GK_KERNEL
/* The space of kernel name ("apsp", ...), NULL if there is none. */
const gk_space *gk__space_find(const char *kernel);

/* out = the space's parameters in order, with in's values over the defaults.
 * Fails (GK_EINVAL) on a name the space does not have or a value outside its
 * parameter's range ("kernel stencil: BY=1073741825 is outside [1, 1024]"). */
gk_status gk__space_complete(const gk_space *s, const gk_config *in, gk_config *out);
/* 1 if every parameter of the complete cfg equals its default. */
int gk__space_is_default(const gk_space *s, const gk_config *cfg);
/* 0 if cfg holds every parameter of s within its range; else 1 and the
 * reason in why.  The rejects start with it. */
int gk__space_check_ranges(const gk_space *s, const gk_config *cfg, char *why, size_t n);
/* The one check of a stored or given configuration: complete in (into full,
 * may be NULL) and apply the constraints for dev (NULL: device-independent
 * ones).  GK_EINVAL with the reason recorded when it cannot be used. */
gk_status gk__space_check(const gk_space *s, const gk_config *in, const gk_device_info *dev, gk_config *full);

/* The value of parameter name in a complete configuration (every parameter
 * is present after gk__space_complete; 0 if absent). */
int gk__param(const gk_config *complete, const char *name);

/* APSP's launch geometry from a complete configuration: threads per block
 * (TILE/TM x TILE/TN), dynamic shared memory of the min-plus kernel (two
 * stages of A^T and B chunks) and of the pivot kernel (one tile). */
int64_t gk__apsp_threads(const gk_config *complete);
size_t gk__apsp_stage_smem(const gk_config *complete);
/* The 16-bit kernel's threads per block and dynamic shared memory. */
int64_t gk__apsp16_threads(const gk_config *complete);
size_t gk__apsp16_smem(const gk_config *complete);
size_t gk__apsp_pivot_smem(const gk_config *complete);
/* The typed kernels' thread shape (TM x TN outputs per thread of a
 * GK_APSP_ORDER_TILE-wide tile) for element type t, pred 1 with
 * predecessors, from a complete configuration (APSPX_* parameters); int64
 * distances alone have a fixed shape (apsp.cu). */
#define GK_APSPX_I64_TM 8
#define GK_APSPX_I64_TN 4
void gk__apsp_typed_shape(const gk_config *complete, gk_dtype t, int pred, int *tm, int *tn);

/* The typed kernels' shapes as tunables of their own (space_apsp.c says
 * why): apspx_f32 (APSPX_F32_TM/TN), apspx_f64 (APSPX_F64_*), apspx_p
 * (APSPX_P_*), each a space of its two parameters of apsp's (same names,
 * same defaults), compiled and run in the apsp module. */
extern const gk_space gk__space_apspx_f32, gk__space_apspx_f64, gk__space_apspx_p;
#define GK_APSPX_NKINDS 3
/* one run of the typed kernels: element type, predecessors, negative
 * weights (the tuner's graph reweighted by vertex potentials: no negative
 * cycle, the same shortest paths) */
typedef struct gk_apspx_run { gk_dtype t; int pred, negative; } gk_apspx_run;
typedef struct gk_apspx_kind {
    const gk_space *space;
    int nmeasure;                 /* the runs the tuner times (their sum) */
    gk_apspx_run measure[2];
    int nvalidate;                /* the runs it checks bit for bit against the CPU */
    gk_apspx_run validate[4];
} gk_apspx_kind;
extern const gk_apspx_kind gk__apspx_kinds[GK_APSPX_NKINDS];
/* The space of apspx kernel name ("apspx_f64"), NULL if none. */
const gk_space *gk__apspx_space(const char *kernel);
/* apsp (an apsp configuration, complete or not) with the two parameters of
 * each shapes[k] (the configuration chosen for gk__apspx_kinds[k]; NULL:
 * none, apsp's value stays) written over it: 1 when the result passes
 * gk__space_check of apsp on dev (NULL: the device-independent rules),
 * else 0, apsp untouched and the reason in why. */
int gk__apspx_apply(gk_config *apsp, const gk_config *const shapes[GK_APSPX_NKINDS], const gk_device_info *dev,
                    char *why, size_t n);

/* Dynamic shared memory of a stencil block: 4 (DESIGN 0), 2 (DESIGN 1) or
 * 2*tsteps (DESIGN 2) planes of (BX+2) x (BY*RY+2) doubles. */
size_t gk__stencil_smem_bytes(int design, int bx, int by, int ry, int tsteps);
/* The same for any complete stencil configuration (RX widens the tile;
 * ASYNC: a ring of PREFETCH+1 input planes) and tsteps steps per pass. */
size_t gk__stencil_smem_cfg(const gk_config *complete, int tsteps);
/* The FP64 work of `steps` steps of the 27-point GPU kernels with a
 * complete configuration on an nx x ny x nz grid, per stored point and
 * step, in units of one point's 27 operations: 1 where nothing is computed
 * twice; above 1 by the tiles' points past the grid, the z chunks' extra
 * planes and DESIGN 2's recomputed halos (overlapped tiles, or RING=1's
 * ring points), counted in warp lanes (a partial warp pays 32), passes of
 * TSTEPS steps then one of the remainder.
 * naive != 0: the naive kernel (1).  0 for a size below 1. */
double gk__stencil_work(const gk_config *complete, int naive, int64_t nx, int64_t ny, int64_t nz, int64_t steps);

#endif /* GK_SPACE_H */
