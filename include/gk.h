/* gk.h - the public C API of libgk.  The only header users include.
 *
 * libgk runs all-pairs shortest paths (blocked Floyd-Warshall) and a 27-point
 * 3D stencil on NVIDIA GPUs and on CPUs (OpenMP/SIMD).  Every function returns
 * a gk_status; on failure gk_last_error() holds a one-line message for the
 * calling thread.  The library never prints and never exits.
 */
#ifndef GK_H
#define GK_H

#include <gk/common.h>
#include <gk/info.h>
#include <gk/context.h>
#include <gk/config.h>
#include <gk/apsp.h>
#include <gk/stencil.h>
#include <gk/tune.h>
#include <gk/parse.h>
#include <gk/elementwise.h>
#include <gk/gemm.h>

#endif /* GK_H */
