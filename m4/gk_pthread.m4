# AX_PTHREAD_SIMPLE: link with -pthread (gcc and clang on Linux); the static
# CUDA runtime and the tuner's lock need it.
AC_DEFUN([AX_PTHREAD_SIMPLE], [
  AC_MSG_CHECKING([whether $CC accepts -pthread])
  gk_save_LIBS=$LIBS
  LIBS="$LIBS -pthread"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>]], [[pthread_self();]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no]); LIBS=$gk_save_LIBS])
])
