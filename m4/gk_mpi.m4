# gk_mpi.m4 - GK_CHECK_MPI: MPI for the gk command's runs under mpirun.
#   --with-mpi[=DIR]  use MPI (DIR: its prefix; DIR/bin/mpicc is asked first)
#   --without-mpi     build without it
# Default: use it when found.  Found through Open MPI's wrapper compiler
# (mpicc --showme:compile / --showme:link) or pkg-config's ompi-c (then mpi),
# and only if a C program that calls MPI_Init links.  Sets MPI_CFLAGS and
# MPI_LIBS (used by the gk command only: libgk links no MPI), defines
# GK_HAVE_MPI and the conditional GK_MPI.
AC_DEFUN([GK_CHECK_MPI], [
AC_ARG_WITH([mpi],
  [AS_HELP_STRING([--with-mpi@<:@=DIR@:>@], [run under mpirun (default: when found); DIR: the MPI prefix])],
  [], [with_mpi=check])
gk_mpi=no
MPI_CFLAGS=
MPI_LIBS=
AS_IF([test "x$with_mpi" != xno], [
  gk_mpicc=
  AS_IF([test "x$with_mpi" != xyes && test "x$with_mpi" != xcheck],
        [AS_IF([test -x "$with_mpi/bin/mpicc"], [gk_mpicc="$with_mpi/bin/mpicc"])],
        [AC_PATH_PROG([GK_MPICC], [mpicc])
         gk_mpicc=$GK_MPICC])
  AS_IF([test -n "$gk_mpicc" && "$gk_mpicc" --showme:compile >/dev/null 2>&1],
        [MPI_CFLAGS=`"$gk_mpicc" --showme:compile`
         MPI_LIBS=`"$gk_mpicc" --showme:link`],
        [test -n "$PKG_CONFIG" || AC_PATH_PROG([PKG_CONFIG], [pkg-config])
         gk_pcpath=$PKG_CONFIG_PATH
         AS_IF([test "x$with_mpi" != xyes && test "x$with_mpi" != xcheck],
               [PKG_CONFIG_PATH="$with_mpi/lib/pkgconfig:$with_mpi/lib64/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"; export PKG_CONFIG_PATH])
         for gk_pc in ompi-c mpi; do
           AS_IF([test -n "$PKG_CONFIG" && $PKG_CONFIG --exists $gk_pc 2>/dev/null],
                 [MPI_CFLAGS=`$PKG_CONFIG --cflags $gk_pc`; MPI_LIBS=`$PKG_CONFIG --libs $gk_pc`; break])
         done
         PKG_CONFIG_PATH=$gk_pcpath])
  AC_MSG_CHECKING([whether a C program links with MPI])
  gk_save_CFLAGS=$CFLAGS; gk_save_LIBS=$LIBS
  CFLAGS="$CFLAGS $MPI_CFLAGS"; LIBS="$MPI_LIBS $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[int f; MPI_Initialized(&f); return f;]])],
    [gk_mpi=yes], [gk_mpi=no])
  CFLAGS=$gk_save_CFLAGS; LIBS=$gk_save_LIBS
  AC_MSG_RESULT([$gk_mpi])
  AS_IF([test "x$gk_mpi" = xno],
        [AS_IF([test "x$with_mpi" != xcheck],
               [AC_MSG_ERROR([--with-mpi given but no usable MPI was found (install Open MPI, e.g. libopenmpi-dev, or pass --with-mpi=DIR)])])
         MPI_CFLAGS=; MPI_LIBS=])
])
AS_IF([test "x$gk_mpi" = xyes],
      [AC_DEFINE([GK_HAVE_MPI], [1], [Define if the gk command is built with MPI.])
       gk_mpi_summary="yes ($MPI_LIBS)"],
      [gk_mpi_summary=no])
AC_SUBST([MPI_CFLAGS])
AC_SUBST([MPI_LIBS])
AM_CONDITIONAL([GK_MPI], [test "x$gk_mpi" = xyes])
])
