/* buildinfo.c - what configure chose, for `gk info`. */
#include "core/internal.h"

#ifndef GK_CUDA_VERSION_STR
#define GK_CUDA_VERSION_STR "no"
#endif
#ifndef GK_CUDA_ARCHS
#define GK_CUDA_ARCHS "none"
#endif
#ifndef GK_NVRTC_SONAME
#define GK_NVRTC_SONAME "no"
#endif

const gk_build_info *gk_build_info_get(void)
{
    static const gk_build_info info = {
        .struct_size = sizeof(gk_build_info),
        .version = PACKAGE_VERSION,
        .cc = GK_CC_VERSION,
        .configure_args = GK_CONFIGURE_ARGS,
#ifdef GK_HAVE_OPENMP
        .openmp = "yes", .has_openmp = 1,
#else
        .openmp = "no", .has_openmp = 0,
#endif
#ifdef GK_HAVE_HWLOC
        .hwloc = "yes", .has_hwloc = 1,
#else
        .hwloc = "no", .has_hwloc = 0,
#endif
#ifdef GK_HAVE_CUDA
        .cuda = GK_CUDA_VERSION_STR, .has_cuda = 1,
#else
        .cuda = "no", .has_cuda = 0,
#endif
        .cuda_archs = GK_CUDA_ARCHS,
#if defined(GK_HAVE_CUDA) && defined(GK_HAVE_NVRTC)
        .nvrtc = GK_NVRTC_SONAME, .has_nvrtc = 1,
#else
        .nvrtc = "no", .has_nvrtc = 0,
#endif
    };
    return &info;
}
