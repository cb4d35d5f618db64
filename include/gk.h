/* gk.h - the public C API of libgk.  The only header users include.
 *
 * libgk runs all-pairs shortest paths (blocked Floyd-Warshall), a 27-point
 * 3D stencil, an fp32 matrix multiply and an elementwise kernel on NVIDIA
 * GPUs and on CPUs (OpenMP/SIMD), on host or device memory, in one call per
 * job or through plans made once.  Every function that can fail returns a
 * gk_status; on failure gk_last_error() holds a one-line message for the
 * calling thread.  The library never prints and never exits.  gk(3) is the
 * overview; each group has its page (gk_context(3), gk_apsp(3), ...).
 */
#ifndef GK_H
#define GK_H

#include <gk/version.h>
#include <gk/common.h>
#include <gk/info.h>
#include <gk/context.h>
#include <gk/apsp.h>
#include <gk/stencil.h>
#include <gk/tune.h>
#include <gk/elementwise.h>
#include <gk/gemm.h>
#include <gk/sssp.h>

#endif /* GK_H */
