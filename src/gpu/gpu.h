/* gpu.h - the GPU plumbing of libgk (host side, plain C): CUDA errors as gk
 * errors, loading kernel images (the embedded fatbin or an NVRTC cubin),
 * launching by handle, timing with events.  Built only with CUDA. */
#ifndef GK_GPU_H
#define GK_GPU_H

#include "core/space.h"

#include <cuda_runtime_api.h>

/* A kernel source file as built into libgk: the nvcc fatbin (default
 * parameters, every configured architecture) and the source text (for NVRTC
 * variants and for the tuning cache's source hash). */
typedef struct gk_kernel_image {  /* also named in tune/tune.h */
    const char *name;
    const unsigned char *fatbin;
    size_t fatbin_size;
    const char *source;
    size_t source_size;
} gk_kernel_image;

/* The embedded images: vadd's and one per kernel of src/kernels.def. */
extern const gk_kernel_image gk__image_vadd;
#define GK_KERNEL(name, gen) extern const gk_kernel_image gk__image_##name;
#include "kernels.def"
#undef GK_KERNEL

/* The vector add (selftest.c; its space: src/core/space_vadd.c): one run of
 * n floats with cfg on the current device; ms[r] per timed rep after a warm-up; with check != NULL the result is
 * copied there and compared with the CPU (GK_EMISMATCH if it differs). */
gk_status gk__vadd_run(const gk_device_info *dev, size_t n, const gk_config *cfg, uint64_t seed, int reps, double *ms, float *check);

/* Turn a CUDA error into GK_ECUDA with "what: message (name)". */
gk_status gk__cuda_fail(cudaError_t e, const char *what);

#define GK_CUDA_TRY(call) do { cudaError_t e_ = (call); \
        if (e_ != cudaSuccess) return gk__cuda_fail(e_, #call); } while (0)
/* For functions that release resources at a label: sets st and jumps. */
#define GK_CUDA_GOTO(call, st, label) do { cudaError_t e_ = (call); \
        if (e_ != cudaSuccess) { st = gk__cuda_fail(e_, #call); goto label; } } while (0)

/* Make device `ordinal` current for the calling thread; *prev receives the
 * device that was current, for gk__gpu_leave (the library leaves the
 * caller's CUDA state as it found it). */
gk_status gk__gpu_enter(int ordinal, int *prev);
void gk__gpu_leave(int prev);

/* A stream on the current device (NULL stream on failure, with the error). */
gk_status gk__gpu_stream_create(cudaStream_t *s);
void gk__gpu_stream_destroy(cudaStream_t s);

typedef struct gk_gpu_module {
    cudaLibrary_t lib;
    int from_nvrtc;            /* 0: embedded fatbin, 1: NVRTC cubin */
    char log[4096];            /* NVRTC log when compile failed */
} gk_gpu_module;

/* Load img for the current device with configuration cfg (NULL or all
 * defaults: the embedded fatbin; otherwise NVRTC with -DNAME=VALUE for each
 * parameter and --maxrregcount=MAXRREG when that is > 0). */
gk_status gk__gpu_module_load(const gk_kernel_image *img, const gk_space *space,
                              const gk_config *cfg, gk_gpu_module *m);
void gk__gpu_module_unload(gk_gpu_module *m);


/* Compile img's source with NVRTC for sm_<cc> with -D options from the complete
 * cfg; on success *cubin is malloc'ed.  Thread-safe (the tuner compiles in
 * parallel). */
gk_status gk__nvrtc_compile(const gk_kernel_image *img, const gk_space *space,
                            const gk_config *cfg, int cc_major, int cc_minor,
                            void **cubin, size_t *size, char *log, size_t logn);
/* 1 if NVRTC can be opened here; otherwise 0 and the reason. */
int gk__nvrtc_available(char *why, size_t n);

gk_status gk__gpu_kernel(gk_gpu_module *m, const char *name, cudaKernel_t *k);
/* Launch k; raises the kernel's dynamic shared memory limit first when smem is
 * above the 48 KiB default, and checks the launch. */
gk_status gk__gpu_launch(cudaKernel_t k, dim3 grid, dim3 block, size_t smem,
                         cudaStream_t stream, void **args);

/* Event pair for timing a region on a stream. */
typedef struct gk_gpu_timer { cudaEvent_t start, stop; } gk_gpu_timer;
gk_status gk__gpu_timer_init(gk_gpu_timer *t);
gk_status gk__gpu_timer_start(gk_gpu_timer *t, cudaStream_t s);
/* Records the stop on s, waits for it, *ms = the milliseconds since the
 * start (ms may be NULL: only the wait). */
gk_status gk__gpu_timer_stop(gk_gpu_timer *t, cudaStream_t s, float *ms);
void gk__gpu_timer_free(gk_gpu_timer *t);

/* Measure device-to-device copy bandwidth (bytes read + written per second)
 * over a buffer of `bytes`; median of `reps` after a warm-up. */
gk_status gk__gpu_copy_bandwidth(size_t bytes, int reps, double *bytes_per_s);

/* The FMA ceiling of the current device (ceiling.c): independent chains of
 * float32 (f32 != 0) or float64 FMAs on stream, FMAs per second; median of
 * 5 runs after a warm-up.  The kernel is compiled by NVRTC on first use. */
gk_status gk__gpu_fma_ceiling(int f32, void *stream, double *fma_per_s);

static inline dim3 gk__dim3(unsigned x, unsigned y, unsigned z)
{
    dim3 d; d.x = x; d.y = y; d.z = z; return d;
}

#endif /* GK_GPU_H */
