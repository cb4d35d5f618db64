/* sssp_none.c - the GPU shortest-path backend's knobs (sssp_gpu_knobs.h)
 * in a CPU-only build (--without-cuda, or no toolkit found): nothing to
 * set (gk__sssp_gpu_open already fails with GK_ENODEV: none.c). */
#include "gpu/sssp_gpu_knobs.h"

void gk__sssp_gpu_set_knobs(gk__sssp_gpu *h, int threads, double delta_x) { (void)h; (void)threads; (void)delta_x; }

void gk__sssp_gpu_set_chunk(gk__sssp_gpu *h, long long slots, long long rows) { (void)h; (void)slots; (void)rows; }

long long gk__sssp_gpu_slots(const gk__sssp_gpu *h) { (void)h; return 0; }
