/* stencil_gen.h - the generated GPU stencil engine (HACKING.md, "The generated stencil engine"):
 * CUDA source written for one description (its points and weights compile-
 * time constants, the FMA chain in the CPU's order), compiled with NVRTC,
 * cached per process; a grid kept on the device between calls.
 *
 * Declared in every build: a CPU-only build gets the stubs of src/gpu/none.c
 * (each fails with GK_ENODEV), so callers need no #ifdef.  The stream is a
 * cudaStream_t passed as void * here for the same reason. */
#ifndef GK_STENCIL_GEN_H
#define GK_STENCIL_GEN_H

#include "gpu/stencil_gen_spec.h"
#include "core/space_stencil_gen.h"

typedef struct gk_stencil_gen gk_stencil_gen;

/* A store of compiled cubins beyond the process: the cache directory of the
 * context whose call opens the engine (src/tune/stencil_gen_store.c fills
 * one from a cache directory: gk__stencil_gen_disk_store), passed to every
 * open, so that two contexts with two cache directories, in one thread or
 * in two, each keep their kernels in their own; this layer holds no store
 * of its own and does no file I/O.  load: 1 and a malloc'ed copy when name
 * is stored, else 0; save: best effort.  name: "sm<arch>-rt<runtime>-<hash
 * of the source>-<length>".  where: the layers above's (the directory),
 * opaque here.  A NULL store, or NULL functions: none (the process's
 * cache only). */
typedef struct gk__sg_cubin_store gk__sg_cubin_store;
struct gk__sg_cubin_store {
    int (*load)(const gk__sg_cubin_store *s, const char *name, void **data, size_t *size);
    void (*save)(const gk__sg_cubin_store *s, const char *name, const void *data, size_t size);
    char where[4096];
};

/* On device dev (already current) and stream: the kernels of spec s for an
 * nx x ny x nz grid (2D: nz = 1) with configuration cfg (NULL: the
 * description's defaults, gk__stencil_gen_default_design with design -1:
 * 2D the warp design, 3D the z-streaming design), both device buffers.
 * GK_EINVAL naming the configuration when it cannot run for this
 * description or device; GK_ECOMPILE with NVRTC's message; GK_ENOMEM naming
 * the amount.  The kernels come from the process's cache of compiled
 * code, else from store (may be NULL), else NVRTC (then kept in both). */
gk_status gk__stencil_gen_open(gk_stencil_gen **g, const gk_device_info *dev, void *stream,
                               const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz,
                               const gk_config *cfg, const gk__sg_cubin_store *store);
/* A dense host grid (x fastest, elements of the spec's type) in and out;
 * upload resets nothing else.  ms: the copy's time (may be NULL). */
gk_status gk__stencil_gen_upload(gk_stencil_gen *g, const void *grid, float *ms);
/* steps steps: passes of TSTEPS steps, then one pass of the remainder;
 * timed with events (ms may be NULL). */
gk_status gk__stencil_gen_run(gk_stencil_gen *g, int64_t steps, float *ms);
gk_status gk__stencil_gen_download(gk_stencil_gen *g, void *grid, float *ms);
/* steps steps on a grid in device memory (pitch_y elements between rows,
 * pitch_z between planes; 2D: pitch_z unused), synchronous. */
gk_status gk__stencil_gen_exec_device(gk_stencil_gen *g, void *grid, int64_t pitch_y, int64_t pitch_z,
                                      int64_t steps);
/* The configuration text that ran ("TX=32,TY=8,NT=256,ZC=64,TSTEPS=1"). */
const char *gk__stencil_gen_config(const gk_stencil_gen *g);
void gk__stencil_gen_close(gk_stencil_gen *g);


/* The generated CUDA source of spec s with the complete configuration cfg
 * (malloc'ed text in *src): what NVRTC compiles.  Every build (the tests
 * read it without a GPU). */
gk_status gk__stencil_gen_source(const gk__stencil_spec *s, const gk_config *cfg, char **src);

/* Slabs (src/api/stencil_dist.c), several GPUs in one process: open with
 * dev's GPU made current and the default stream; planes k .. k+n-1 along
 * the slowest axis (3D: z planes of nx*ny; 2D: rows of nx) of the current
 * grid from (put = 1) or into dense host memory (returns when done); steps
 * steps launched, and waited for when wait.  Each makes the engine's GPU
 * current first. */
gk_status gk__stencil_gen_open_on(gk_stencil_gen **g, const gk_device_info *dev, const gk__stencil_spec *s,
                                  int64_t nx, int64_t ny, int64_t nz, const gk_config *cfg,
                                  const gk__sg_cubin_store *store);
gk_status gk__stencil_gen_planes(gk_stencil_gen *g, int64_t k, int64_t n, void *host, int put);
gk_status gk__stencil_gen_steps_on(gk_stencil_gen *g, int64_t steps, int wait);

/* The device copies that carry the fixed boundary's band of planes [p0,
 * p1) (2D: rows) into the other buffer after a host write (band_sync in
 * stencil_gen.c, which says what c holds); CUDA builds only (none.c has no
 * stub: nothing but that file and its test calls it). */
size_t gk__stencil_gen_band_copies(int dims, int64_t mx, int64_t my, int64_t mz, int64_t r, size_t es, size_t maxpitch,
                                   int64_t p0, int64_t p1, size_t (*c)[4], size_t max);

#endif /* GK_STENCIL_GEN_H */
