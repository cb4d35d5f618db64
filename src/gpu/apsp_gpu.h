/* apsp_gpu.h - the APSP GPU backend (host side, built only with CUDA): the
 * kernel's search space and an upload / run / download context, used by
 * gk_apsp_gpu, `gk bench apsp` and the tuner. */
#ifndef GK_APSP_GPU_H
#define GK_APSP_GPU_H

#ifdef HAVE_CONFIG_H
#include "config.h"   /* GK_HAVE_CUDA */
#endif
#ifdef GK_HAVE_CUDA
#include "gpu/gpu.h"
#else
/* CPU-only builds: only the typed entry points below exist, as stubs
 * failing with GK_ENODEV (src/gpu/none.c), so that callers need no #ifdef */
#include "core/space.h"
typedef struct CUstream_st *cudaStream_t;
#endif

/* The kernel's tunable parameters and constraints: src/core/space_apsp.c. */

typedef struct gk_apsp_gpu gk_apsp_gpu;

/* On device dev (already current: gk__gpu_enter) and stream: load the
 * module with cfg (NULL = defaults), allocate the padded device matrix
 * (GK_ENOMEM naming the size when the device lacks the memory). */
gk_status gk__apsp_gpu_open(gk_apsp_gpu **ctx, const gk_device_info *dev, cudaStream_t stream,
                            int32_t V, const gk_config *cfg);
/* The same with bits = 16: the exact 16-bit path (src/cpu/apsp_cpu.h says
 * why it is exact); its kernel's parameters are cfg's APSP16_* (the tile
 * is fixed).  Upload narrows on the host into pinned
 * staging buffers (every entry clamped to the cap), run runs the 16-bit
 * phases, download widens on the host (the cap as INF: only when the entries
 * at the cap are known to be unreachable); download16 gives the raw result.
 * Both widths move rows through two pinned buffers, conversion and copies
 * overlapped. */
#define GK_APSP16_CAP 32767                    /* the same in src/cpu/apsp_cpu.h */
#define GK_APSP16_TILE 128                     /* H_TILE of apsp.cu */
gk_status gk__apsp_gpu_open_bits(gk_apsp_gpu **ctx, const gk_device_info *dev, cudaStream_t stream,
                                 int32_t V, const gk_config *cfg, int bits);
/* 16 bits: the entries of the V x V result at the cap (synchronizes). */
gk_status gk__apsp_gpu_count_cap(gk_apsp_gpu *ctx, int64_t *count);
/* The context's knobs, before the first transfer: the staging chunk size
 * (a testing knob; 0: the built-in 32 MiB), and lookahead / mp3 0 to turn
 * the lookahead or gk_apsp_mp3 off (benchmark knobs; the result is the
 * same). */
void gk__apsp_gpu_set_knobs(gk_apsp_gpu *ctx, size_t stage_bytes, int lookahead, int mp3);
/* The stream later work is enqueued on (a plan follows the context's). */
void gk__apsp_gpu_set_stream(gk_apsp_gpu *ctx, cudaStream_t stream);
/* int32 with predecessors: the packed product (apsp.cu, xops_i32pk) when
 * the upload finds non-negative weights below its cap (on by default; 0:
 * always the general product, for comparing); _packed: whether the last
 * run used it to the end (no rerun). */
void gk__apsp_gpu_set_packed(gk_apsp_gpu *ctx, int on);
int gk__apsp_gpu_packed(const gk_apsp_gpu *ctx);
/* int32 only: the V x V matrix at dist in device memory (leading dimension
 * ld) solved in place: copied into the padded matrix (or used in place when
 * V is a multiple of the tile, ld = V and dist is 16-byte aligned), the
 * rounds, copied back; all enqueued on the stream, nothing waits. */
gk_status gk__apsp_gpu_exec_device(gk_apsp_gpu *ctx, int32_t *dist, int64_t ld);
gk_status gk__apsp_gpu_download16(gk_apsp_gpu *ctx, uint16_t *m16, float *ms);
/* The device's packed 16-bit min-plus rate (updates per second, two per
 * __viaddmin_u16x2). */
gk_status gk__apsp_gpu_ceiling16(gk_apsp_gpu *ctx, double *per_s);

/* V*V row-major host -> device (padding set to INF); ms: CUDA events
 * (host-side conversion included). */
gk_status gk__apsp_gpu_upload(gk_apsp_gpu *ctx, const int32_t *dist, float *ms);
/* Full blocked Floyd-Warshall on the uploaded matrix; depends on nothing
 * else, so upload + run repeats give the same result. */
gk_status gk__apsp_gpu_run(gk_apsp_gpu *ctx, float *ms);
/* The lookahead of gk__apsp_gpu_run (on by default; gk__apsp_gpu_set_knobs
 * turns it off, and gk_apsp_mp3 for phases 3 to 5 in favour of
 * gk_apsp_minplus, to compare them in a benchmark): phase 3's tiles of the
 * next pivot row and column, then the next round's phases 1 and 2, on a
 * second, high-priority stream while the main stream updates the rest.  The
 * result is the same either way. */
gk_status gk__apsp_gpu_download(gk_apsp_gpu *ctx, int32_t *dist, float *ms);
/* The same, calling each(arg, r0, m) as soon as rows r0 .. r0 + m - 1 of
 * dist are final, while the next chunk's copy runs on the copy engine (a
 * caller writes them to a file meanwhile); a failure of each stops the
 * download (no copy left running) and is returned.  ms: CUDA events around
 * the whole, each's time included. */
gk_status gk__apsp_gpu_download_each(gk_apsp_gpu *ctx, int32_t *dist, float *ms,
                                     gk_status (*each)(void *arg, int64_t r0, int64_t m), void *arg);
/* The pinned staging buffers (and the device staging area of
 * gk__apsp_gpu_build and gk__apsp_gpu_download_rows) now, ahead of the first
 * transfer: rows move in chunks of 32 MiB, or GK_APSP_STAGE_BYTES bytes (a
 * testing knob; at least one int32 row). */
gk_status gk__apsp_gpu_stage(gk_apsp_gpu *ctx);
void gk__apsp_gpu_close(gk_apsp_gpu *ctx);

/* The initial matrix made on the device from E validated edges (int32
 * triples src, dst, w: what gk__apsp_graph_read keeps), instead of an
 * upload: INF (16 bits: the cap) everywhere, 0 on the diagonal, each pair's
 * smallest weight (16 bits: clamped to the cap), self-loops ignored,
 * undirected: both ways; the same matrix the host readers make (narrowed
 * as gk__apsp_gpu_upload narrows it).  The edges move through the pinned
 * buffers; ms: CUDA events around the whole. */
gk_status gk__apsp_gpu_build(gk_apsp_gpu *ctx, const int32_t *edges, int64_t E, int undirected, float *ms);
/* The result without a host matrix: each(arg, rows, r0, m) gets rows r0 ..
 * r0 + m - 1 as int32 (V per row) in a pinned buffer, valid during the
 * call, while the next chunk comes down (16 bits: widened on the device,
 * the cap as INF: only for a result with no entry at the cap); a failure of
 * each stops it and is returned.  ms: CUDA events around the whole. */
gk_status gk__apsp_gpu_download_rows(gk_apsp_gpu *ctx, float *ms,
                                     gk_status (*each)(void *arg, const int32_t *rows, int64_t r0, int64_t m),
                                     void *arg);

/* The classic baseline kernels on the same uploaded matrix (the padded size
 * must be a multiple of 64: true for the default tile). */
gk_status gk__apsp_gpu_run_baseline(gk_apsp_gpu *ctx, float *ms);
/* The device's int32 min-plus rate (chains of independent VIADDMNMX), in
 * min-plus operations per second. */
gk_status gk__apsp_gpu_ceiling(gk_apsp_gpu *ctx, double *per_s);

/* ---- element types, negative weights, predecessors (issue 24; the
 * semantics: HACKING.md, "APSP element types") ----
 * A context for V vertices of element type t (GK_DTYPE_INT32, INT64,
 * FLOAT32, FLOAT64), with_pred 1: predecessors kept too.  One kernel
 * template (apsp.cu, "typed") at the ordered tile 64 (GK_APSP_ORDER_TILE):
 * floats and predecessors bit-identical to the CPU's blocked code.  int32
 * without predecessors runs the tuned int32 kernels (any tile) unless the
 * upload finds a negative weight.  cfg: the apsp configuration (NULL:
 * defaults); its APSPX_* parameters are the typed kernels' thread shapes
 * (src/core/space_apsp.c). */
gk_status gk__apsp_gpu_open_typed(gk_apsp_gpu **ctx, const gk_device_info *dev, cudaStream_t stream,
                                  int32_t V, gk_dtype t, int with_pred, const gk_config *cfg);
/* host V x V of the context's type (ld = V); predecessors initialised on
 * the device; the negative-weight scan on the device (int32 without
 * predecessors: on the host, to pick the kernels) */
gk_status gk__apsp_gpu_upload_typed(gk_apsp_gpu *ctx, const void *dist, float *ms);
/* enqueues every round (and the integer types' cleanup after negative
 * weights: entries > INF / 2 become INF) */
gk_status gk__apsp_gpu_run_typed(gk_apsp_gpu *ctx, float *ms);
/* waits for the stream; *cycle: the smallest vertex whose diagonal entry
 * went negative in the first round where one did (a vertex on a negative
 * cycle), -1: none */
gk_status gk__apsp_gpu_cycle(gk_apsp_gpu *ctx, int64_t *cycle);
/* host V x V (ld = V); pred may be NULL (must be NULL without with_pred) */
gk_status gk__apsp_gpu_download_typed(gk_apsp_gpu *ctx, void *dist, int32_t *pred, float *ms);
/* device memory in place (leading dimensions ld / pld elements), pred
 * written (may be NULL); always the typed kernels (the weights' sign is
 * known only on the device: non-negative int32 without predecessors goes
 * through gk__apsp_gpu_exec_device, the fast path); enqueued, nothing waits
 * (gk__apsp_gpu_cycle waits) */
gk_status gk__apsp_gpu_exec_device_typed(gk_apsp_gpu *ctx, void *dist, int64_t ld, int32_t *pred, int64_t pld);
/* the device's min-plus rate for type t (chains of the same add + min as
 * the kernels), updates per second */
gk_status gk__apsp_gpu_ceiling_typed(gk_apsp_gpu *ctx, gk_dtype t, double *per_s);

#endif /* GK_APSP_GPU_H */
