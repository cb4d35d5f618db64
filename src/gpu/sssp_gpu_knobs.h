/* sssp_gpu_knobs.h - the GPU shortest-path backend's knobs, outside the
 * contract's interface (sssp_gpu.h): for the benchmark and tests. */
#ifndef GK_SSSP_GPU_KNOBS_H
#define GK_SSSP_GPU_KNOBS_H

#include "gpu/sssp_gpu.h"

/* Threads per block (a multiple of 32, 32..1024; other values ignored) and
 * the bucket width in mean |w| (> 0; else ignored), for the next calls of
 * gk__sssp_gpu_rows.  A thread count above the one the workspace was sized
 * for may leave fewer searches resident at once; it stays correct. */
void gk__sssp_gpu_set_knobs(gk__sssp_gpu *h, int threads, double delta_x);

/* At most `slots` searches at once and `rows` rows per chunk (0: no
 * limit), from the next call on: the tests run many chunks on small graphs. */
void gk__sssp_gpu_set_chunk(gk__sssp_gpu *h, long long slots, long long rows);

/* Searches per launch (the workspace's slots). */
long long gk__sssp_gpu_slots(const gk__sssp_gpu *h);

#endif /* GK_SSSP_GPU_KNOBS_H */
