/* sssp_gpu.h - the GPU shortest-path backend: many sources per launch on
 * one GPU (the design, and why, in sssp.cu's header).  A handle holds the
 * graph on one device; each call computes a batch of rows (a gk__sssp_job,
 * core/sssp_job.h) and copies them to the job's host buffers.  Results are
 * those of the CPU backend: the same distances bit for bit (d[u] + w in the
 * element type, the minimum kept), a valid shortest-path tree for pred. */
#ifndef GK_SSSP_GPU_H
#define GK_SSSP_GPU_H

#include "core/graph.h"
#include "core/sssp_job.h"

typedef struct gk__sssp_gpu gk__sssp_gpu;

/* Upload g to CUDA device `device` (made current by this call), work on
 * `stream` (a cudaStream_t of that device; NULL: the default stream) with
 * the kernel parameters cfg (complete, of kernel "sssp"; NULL: the
 * defaults).  GK_ENOMEM naming the bytes when the graph and the workspace
 * do not fit; GK_ENODEV in CPU-only builds. */
gk_status gk__sssp_gpu_open(const gk_graph *g, int device, void *stream, const gk_config *cfg,
                            gk__sssp_gpu **out);

/* The rows of j (non-negative weights, or j->h for Johnson; negative
 * weights without h: Bellman-Ford semantics with the cycle check,
 * GK_ENEGCYCLE).  Returns when the rows are in j->dist / j->pred /
 * j->nearest; *ms (may be NULL): device time in milliseconds (events). */
gk_status gk__sssp_gpu_rows(gk__sssp_gpu *h, gk__sssp_job *j, double *ms);

void gk__sssp_gpu_close(gk__sssp_gpu *h);

#endif /* GK_SSSP_GPU_H */
