/* space_stencil_gen.h - the generated stencil engine's tunable parameters
 * (src/core/space_stencil_gen.c; every build: --config is checked without
 * CUDA).  Unlike the fixed kernels' spaces, the rules depend on the
 * description (dimensions, radius, element size), so beside the gk_space
 * (ranges, the device-independent rules) there are description-aware
 * defaults and a description-aware check. */
#ifndef GK_SPACE_STENCIL_GEN_H
#define GK_SPACE_STENCIL_GEN_H

#include "core/space.h"
#include "core/stencil_spec.h"

/* TX, TY: the output tile a block stores per plane (2D: TY = 1); NT:
 * threads per block; ZC: planes (2D: rows) a block streams; TSTEPS: steps
 * per pass (temporal blocking; the host runs a remainder with fewer).
 * DESIGN: 0 the plane ring (every description), 1 warp streaming (2D only;
 * there NT/32 is the warps per block, ZC the rows a warp streams, PX the
 * points per lane, TX unused), 2 z-streaming with register accumulation
 * (3D only; each thread RX columns x RY rows of the TX x TY tile, so NT
 * must be (TX/RX)*(TY/RY); TSTEPS stages per pass, the block storing the
 * inner (TX - 2H) x (TY - 2H) of its tile, H = (TSTEPS-1)*r; shared memory
 * two planes of (TX+2r) x (TY+2r) per stage). */
extern const gk_space gk__space_stencil_gen;

/* The most steps per pass (TSTEPS) the engine generates kernels for: a
 * kernel per T = 1..TSTEPS (the host runs a remainder with fewer).  Deep
 * passes pay in 2D (the warp design, registers only); in 3D the rules'
 * shared memory and registers stop well before. */
#define GK__SG_TMAX 8

/* The plane ring design's (DESIGN=0) complete defaults for a description: 3D radius 1
 * TX=32 TY=8 NT=256 ZC=128 TSTEPS=2, larger radii TX=64 TY=8 NT=256 ZC=64
 * TSTEPS=1; 2D TX=512 TY=1 NT=128 ZC=64 and TSTEPS 3, 2, 1 for radius 1,
 * 2, more (measured: see the function). */
void gk__stencil_gen_default(int dims, int radius, gk_config *out);

/* The defaults of one design: DESIGN=1 (warp streaming, 2D only) NT=128
 * (4 warps per block) ZC=256 (rows per warp) and the points per lane,
 * steps per pass, rows ahead, SK, PL and AC measured for the radius,
 * element size and shape (NT=64 for the float64 box r3): npoints, the
 * description's point count (gk__stencil_gen_points: a 2D mask with x
 * offsets off the centre row counts as a box), at most the radius's star
 * (4r+1; 0 when unknown) takes the stars' (XH=1 from radius 2, deeper
 * passes, PX=3 from radius 2 in float32, AC=0), more the boxes' (the
 * function's table; AC=2 from radius 2);
 * DESIGN=0:
 * gk__stencil_gen_default.  design < 0: the description's default design
 * (2D: 1, 3D: 2), i.e. the engine's defaults when nothing is tuned.
 * DESIGN=2 (3D): TX=32, RX=1 (a warp is one row: conflict-free shared
 * loads, coalesced stores), NT=256, ZC=64, RY=4 (TY=32) at radius 1 and
 * in float32 from radius 3, else RY=2 (TY=16); TSTEPS 3 at radius 1, else
 * 1; PF=3 (three input planes in flight); but float32 at radius 1 RX=2,
 * RY=4, NT=128 (a 32x32 tile), OX=0, with TSTEPS 2 for the boxes (npoints
 * > 7); as measured on an H200 (the function says what).  In 2D,
 * design 2 falls back to the ring's defaults (the rules refuse it). */
void gk__stencil_gen_default_design(int dims, int radius, int npoints, size_t elem, int design, gk_config *out);

/* The npoints the defaults above take for description s: its points, or
 * in 2D, where a point off the centre column lies outside the centre row
 * (a mask with a box's diagonals, however few its points), at least 4r+2:
 * the box-like defaults (XH=1, the stars' shared centre-row halo, cannot
 * run it; the boxes' rows are shuffled whole). */
int gk__stencil_gen_points(const gk__stencil_spec *s);

/* 1 when s's only points off the centre column (dx != 0) lie in the
 * centre row (dy = 0, dz = 0): a star, or a mask like one, which XH=1
 * can run */
int gk__stencil_gen_centre_row_only(const gk__stencil_spec *s);

/* The defaults of gk__stencil_gen_default_design (complete) made to fit
 * dev: DESIGN=2's, measured on an H200 (227 KiB of shared memory per
 * block), need 72 KiB at radius 1 in float64 (8 planes of 34x34), more
 * than a block gets on sm_75 (64 KiB) or sm_6x (48 KiB): fewer steps per
 * pass, then fewer input planes in flight, until the rules on dev accept
 * them.  Used where no configuration is named or tuned; a named one is
 * refused instead (the caller chose it). */
void gk__stencil_gen_default_fit(int dims, int radius, size_t elem, const gk_device_info *dev, gk_config *complete);

/* Dynamic shared memory of the kernel for tsteps steps per pass: tsteps
 * rings of 2r+2 planes of (TX + 2*tsteps*r) x (TY + 2*tsteps*ry) elements
 * (ry = r in 3D, 0 in 2D); DESIGN=2: the input's planes (PF=1: two; PF >= 2:
 * a ring of PF+1) and two per stage 1..tsteps-1, of (TX+2r) x (TY+2r). */
size_t gk__stencil_gen_smem(const gk_config *complete, int dims, int radius, size_t elem, int tsteps);

/* DESIGN=1's ST as its kernel takes it: 1 with the gather (AC=0) only,
 * 2 with the gather and AC=2, else 0 (the register queue); the generator
 * and the rules both read it here. */
int gk__stencil_gen_st(const gk_config *cfg);

/* DESIGN=1's XH as its kernel takes it: the gather's (AC=0) only, 0 with
 * AC=1 and 2 (their rows are shuffled whole: a description's defaults of
 * XH=1 with AC named 1 or 2 run AC's kernel, as ST) */
int gk__stencil_gen_xh(const gk_config *cfg);

/* Where the tiles of DESIGN=1 and 2 start in y and z (2D: y): with the
 * fixed boundary the outer r cells of every face never change, so the
 * tiles cover the interior only, from r (a grid of n + 2r a side, AN5D's
 * convention, tiles as n does; both device buffers hold the band:
 * stencil_gen.c); else 0.  In x: the same with OX=1, else 0 (the stores
 * then keep their alignment with the grid's rows, which some descriptions
 * need more than one tile fewer). */
int gk__stencil_gen_origin(const gk_config *cfg, int boundary, int radius);
int gk__stencil_gen_origin_x(const gk_config *cfg, int boundary, int radius);

/* 0 when the complete cfg can run for the description on dev (NULL: the
 * device-independent rules and 227 KiB of shared memory) and why ""; else 1 and why. */
int gk__stencil_gen_reject(const gk_config *complete, int dims, int radius, size_t elem,
                           const gk_device_info *dev, char *why, size_t n);

/* The configuration a description runs with when the caller names one
 * (options.config, `gk stencil --config`): text "NAME=VALUE,..." of the
 * parameters above, over the defaults of the design it names (else the
 * description's default design, gk__stencil_gen_default_design with -1),
 * completed into *full, and checked by the description's rules
 * (gk__stencil_gen_reject) on dev (NULL: the device-independent rules and
 * 227 KiB of shared memory, what a CPU context checks).  The named
 * parameters replace the tuned choice; the rest take the defaults.
 * GK_EINVAL naming the description (its shape key, e.g.
 * "3d-star-r2-f64-periodic") and the parameter on a syntax error, an
 * unknown parameter, a value outside its range or a configuration the
 * rules refuse.  shape_key: the description's (gk__stencil_spec_shape_key). */
/* The merge both take (gk__stencil_gen_config_user, and the bench's
 * choice of a configuration): the caller's parameters user over the
 * defaults of the design they name (else the description's default
 * design); DESIGN=2 without NT: NT = (TX/RX)*(TY/RY), GK_EINVAL naming
 * shape_key and text when that is not a whole number of warps in
 * 32..1024.  Not checked against the rules. */
gk_status gk__stencil_gen_config_over(const gk_config *user, const char *shape_key, const char *text, int dims,
                                      int radius, int npoints, size_t elem, gk_config *over);

gk_status gk__stencil_gen_config_user(const char *text, const char *shape_key, int dims, int radius, int npoints,
                                      size_t elem, const gk_device_info *dev, gk_config *full);

#endif /* GK_SPACE_STENCIL_GEN_H */
