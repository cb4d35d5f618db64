# GK_CHECK_CUDA: find the CUDA toolkit (nvcc, runtime headers, the static
# runtime, NVRTC) and choose the GPU architectures to build for.
#
#   --with-cuda[=DIR]     default: look in $CUDA_HOME, on $PATH, /usr/local/cuda
#   --without-cuda        CPU-only build
#   --with-cuda-arch=LIST e.g. "90" or "sm_80,sm_90"; default: the GPUs present,
#                         else a default list that this nvcc supports
#
# Only device code goes through nvcc (to a fatbin embedded in libgk as bytes),
# so host code stays C compiled by $CC and linked by libtool: no nvcc-compiled
# host objects.  libgk links the static CUDA runtime, which opens libcuda at
# run time, so gk starts (and runs on the CPU) where no driver is installed.
AC_DEFUN([GK_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@], [CUDA toolkit location (default: look for it)])],
    [], [with_cuda=check])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST],
      [GPU architectures to build for, e.g. "80,90" (default: detect the GPUs present)])],
    [], [with_cuda_arch=detect])
  AC_ARG_VAR([NVCC], [CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])

  gk_cuda=no
  gk_cuda_version=none
  gk_nvcc=none
  gk_nvrtc=no
  gk_cuda_arch_summary=none
  CUDA_HOME_DIR=
  AS_IF([test "x$with_cuda" = "xno"], [gk_cuda="no (--without-cuda)"], [
    gk_cuda_dirs=
    AS_CASE([$with_cuda], [yes|check], [], [gk_cuda_dirs="$with_cuda"])
    AS_IF([test -z "$gk_cuda_dirs"], [
      test -n "$CUDA_HOME" && gk_cuda_dirs="$CUDA_HOME"
      gk_p=`command -v nvcc 2>/dev/null` && gk_cuda_dirs="$gk_cuda_dirs `dirname \`dirname $gk_p\``"
      gk_cuda_dirs="$gk_cuda_dirs /usr/local/cuda /opt/cuda"
    ])
    AC_MSG_CHECKING([for the CUDA toolkit])
    for gk_d in $gk_cuda_dirs; do
      AS_IF([test -x "$gk_d/bin/nvcc" && test -f "$gk_d/include/cuda_runtime_api.h"],
            [CUDA_HOME_DIR=$gk_d; break])
    done
    AS_IF([test -n "$CUDA_HOME_DIR"], [AC_MSG_RESULT([$CUDA_HOME_DIR])], [AC_MSG_RESULT([no])])
  ])

  AS_IF([test -n "$CUDA_HOME_DIR"], [
    : ${NVCC="$CUDA_HOME_DIR/bin/nvcc"}
    gk_cuda_version=`$NVCC --version 2>/dev/null | sed -n 's/.*release \(@<:@0-9.@:>@*\).*/\1/p'`
    gk_nvcc="$NVCC"
    CUDA_LIBDIR=
    for gk_l in "$CUDA_HOME_DIR/lib64" "$CUDA_HOME_DIR/lib" "$CUDA_HOME_DIR/targets/x86_64-linux/lib" "$CUDA_HOME_DIR/targets/sbsa-linux/lib"; do
      AS_IF([test -f "$gk_l/libcudart_static.a"], [CUDA_LIBDIR=$gk_l; break])
    done
    CUDA_CPPFLAGS="-I$CUDA_HOME_DIR/include"
    CUDA_LIBS="-L$CUDA_LIBDIR -lcudart_static -ldl -lpthread -lrt"
    AC_MSG_CHECKING([whether a C program links the static CUDA runtime])
    gk_save_CPPFLAGS=$CPPFLAGS; gk_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"; LIBS="$CUDA_LIBS $LIBS"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <cuda_runtime_api.h>]],
        [[int n = 0; cudaLibrary_t l; (void)l; return (int)cudaGetDeviceCount(&n);]])],
      [AC_MSG_RESULT([yes]); gk_cudart=yes],
      [AC_MSG_RESULT([no]); gk_cudart=no])
    CPPFLAGS=$gk_save_CPPFLAGS; LIBS=$gk_save_LIBS
    AS_IF([test "x$gk_cudart" = "xyes"], [
      gk_cuda="yes ($CUDA_HOME_DIR)"
      AC_DEFINE([GK_HAVE_CUDA], [1], [Define if CUDA support is built.])
      AC_DEFINE_UNQUOTED([GK_CUDA_VERSION_STR], ["$gk_cuda_version"], [CUDA toolkit version])
      AS_IF([test -f "$CUDA_HOME_DIR/include/nvrtc.h"], [
        gk_nvrtc_major=`echo $gk_cuda_version | sed 's/\..*//'`
        gk_nvrtc="yes (opened at run time: libnvrtc.so.$gk_nvrtc_major)"
        AC_DEFINE_UNQUOTED([GK_NVRTC_SONAME], ["libnvrtc.so.$gk_nvrtc_major"], [NVRTC library])
        AC_DEFINE_UNQUOTED([GK_CUDA_LIBDIR], ["$CUDA_LIBDIR"], [where the toolkit's libraries are])
        AC_DEFINE_UNQUOTED([GK_CUDA_INCDIR], ["$CUDA_HOME_DIR/include"], [the toolkit's headers])
        AC_DEFINE([GK_HAVE_NVRTC], [1], [Define if NVRTC headers were found.])
      ], [gk_nvrtc="no (nvrtc.h not found; tuning disabled)"])
    ], [
      AS_IF([test "x$with_cuda" != "xcheck"],
            [AC_MSG_ERROR([--with-cuda given but a C program cannot link $CUDA_LIBDIR/libcudart_static.a])])
      gk_cuda="no (CUDA runtime does not link)"
      CUDA_CPPFLAGS=; CUDA_LIBS=
    ])
  ], [
    AS_IF([test "x$with_cuda" != "xno" && test "x$with_cuda" != "xcheck"],
          [AC_MSG_ERROR([--with-cuda given but no nvcc found])])
    AS_IF([test "x$with_cuda" = "xcheck"], [gk_cuda="no (toolkit not found)"])
  ])

  dnl ------------------------------------------------------ architectures
  NVCC_GENCODE=
  AS_IF([test "x${gk_cuda%% *}" = "xyes"], [
    gk_supported=`$NVCC --list-gpu-code 2>/dev/null | sed -n 's/^sm_\(@<:@0-9@:>@*\)$/\1/p' | tr '\n' ' '`
    AC_MSG_CHECKING([for GPU architectures])
    gk_arch_from=
    AS_CASE([$with_cuda_arch],
      [detect|yes|""], [
        gk_archs=
        AS_IF([command -v nvidia-smi >/dev/null 2>&1],
          [gk_archs=`nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | grep '^@<:@0-9@:>@*$' | sort -u | tr '\n' ' '`])
        AS_IF([test -z "$gk_archs" && test -x "$CUDA_HOME_DIR/bin/__nvcc_device_query"],
          [gk_archs=`"$CUDA_HOME_DIR/bin/__nvcc_device_query" 2>/dev/null | tr ',' ' ' | tr -c '0-9 \n' ' '`])
        AS_IF([test -n "`echo $gk_archs | tr -d ' '`"], [gk_arch_from="detected"],
              [gk_archs="75 80 86 89 90 100 120"; gk_arch_from="default: no GPU found"])
      ],
      [gk_archs=`echo "$with_cuda_arch" | tr ',' ' ' | sed 's/sm_//g; s/compute_//g'`; gk_arch_from="--with-cuda-arch"])
    gk_list=
    for gk_a in $gk_archs; do
      AS_CASE([" $gk_supported "], [*" $gk_a "*], [gk_list="$gk_list $gk_a"],
        [AS_IF([test "$gk_arch_from" = "--with-cuda-arch"],
               [AC_MSG_ERROR([nvcc $gk_cuda_version cannot build for sm_$gk_a (it supports: $gk_supported)])],
               [AC_MSG_WARN([skipping sm_$gk_a: not supported by nvcc $gk_cuda_version])])])
    done
    AS_IF([test -z "$gk_list"], [AC_MSG_ERROR([no GPU architecture left to build for; use --with-cuda-arch])])
    gk_max=0
    for gk_a in $gk_list; do
      NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$gk_a,code=sm_$gk_a"
      test "$gk_a" -gt "$gk_max" && gk_max=$gk_a
    done
    NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$gk_max,code=compute_$gk_max"
    gk_cuda_arch_summary="`echo $gk_list | sed 's/\(@<:@0-9@:>@*\)/sm_\1/g'` + PTX compute_$gk_max ($gk_arch_from)"
    AC_MSG_RESULT([$gk_cuda_arch_summary])
    AC_DEFINE_UNQUOTED([GK_CUDA_ARCHS], ["$gk_cuda_arch_summary"], [GPU architectures built])
  ])
  AC_SUBST([CUDA_HOME_DIR])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([NVCC_GENCODE])
  AM_CONDITIONAL([GK_CUDA], [test "x${gk_cuda%% *}" = "xyes"])
])
