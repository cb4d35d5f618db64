# GK_CHECK_HWLOC: --with-hwloc (default: use it when pkg-config finds it) /
# --without-hwloc.  Without it gk still builds; `gk info` then reports the CPU
# count from the OS and says hwloc is absent.
AC_DEFUN([GK_CHECK_HWLOC], [
  AC_ARG_WITH([hwloc],
    [AS_HELP_STRING([--with-hwloc], [use hwloc for CPU topology (default: if found)])],
    [], [with_hwloc=check])
  gk_hwloc=no
  AS_IF([test "x$with_hwloc" != "xno"], [
    PKG_CHECK_MODULES([HWLOC], [hwloc >= 2.0],
      [gk_hwloc="yes (`$PKG_CONFIG --modversion hwloc`)"
       AC_DEFINE([GK_HAVE_HWLOC], [1], [Define if hwloc is used.])],
      [AS_IF([test "x$with_hwloc" = "xyes"],
             [AC_MSG_ERROR([--with-hwloc given but pkg-config cannot find hwloc >= 2.0])])
       gk_hwloc="no (not found by pkg-config)"])
  ], [gk_hwloc="no (--without-hwloc)"])
  AM_CONDITIONAL([GK_HWLOC], [test "x${gk_hwloc%% *}" = "xyes"])
])
