# stage_install.sh - sourced by the tests that need gk as a user gets it:
# `make install DESTDIR=$t_tmp/root` of this build tree (one TAP result),
# and where its pieces landed.  Needs tap.sh first, and GK_TEST_BINDIR,
# GK_TEST_LIBDIR (the configured $(bindir), $(libdir)) from Makefile.am.
#   stage_root   the DESTDIR
#   stage_bin    $stage_root$(bindir)
#   stage_lib    $stage_root$(libdir): libgk.so.*, pkgconfig/gk.pc
stage_root=$t_tmp/root
stage_bin=$stage_root$GK_TEST_BINDIR
stage_lib=$stage_root$GK_TEST_LIBDIR
t_ok "make install DESTDIR=... succeeds" ${MAKE:-make} -C "$top_builddir" install DESTDIR="$stage_root"
