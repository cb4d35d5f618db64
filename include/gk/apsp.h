/* gk/apsp.h - all-pairs shortest paths (blocked Floyd-Warshall). */
#ifndef GK_APSP_H
#define GK_APSP_H

#include <gk/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Unreachable pairs hold 2^30 - 1 in the NTHU output format. */
#define GK_APSP_INF 1073741823

#ifdef __cplusplus
}
#endif
#endif /* GK_APSP_H */
