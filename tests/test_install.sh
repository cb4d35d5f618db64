#!/bin/sh
# An installed gk finds the tables it ships: `make install DESTDIR=...` from
# this build, then the installed gk (without GK_DATA_DIR, which the other
# tests set) must report $(pkgdatadir) as its data directory, not a path
# baked in before configure knew the prefix ("NONE/share/gk"), and the H200
# table must be installed there.
. "$top_srcdir/tests/tap.sh"
root=$t_tmp/root
t_ok "make install DESTDIR=... succeeds" ${MAKE:-make} -C "$top_builddir" install DESTDIR="$root"
gk="$root$GK_TEST_BINDIR/gk"
[ -x "$gk" ]; t_result $? "gk is installed in \$(bindir) ($GK_TEST_BINDIR)"
table="$root$GK_TEST_PKGDATADIR/tuned/nvidia-h200-sm90.txt"
[ -f "$table" ] && cmp -s "$table" "$top_srcdir/data/tuned/nvidia-h200-sm90.txt"
t_result $? "the H200 table is installed in \$(pkgdatadir)/tuned ($GK_TEST_PKGDATADIR)"

# the installed gk, its libgk from the staging root (libtool's rpath names the
# final libdir, which may hold another libgk or none)
run_gk() { env -u GK_DATA_DIR LD_LIBRARY_PATH="$root$GK_TEST_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$gk" "$@"; }
data_dir() { sed -n 's/.*"data_dir": *"\([^"]*\)".*/\1/p' "$t_tmp/out" | head -1; }
t_ok "installed gk info --json runs" run_gk info --json
d=$(data_dir)
[ "$d" = "$GK_TEST_PKGDATADIR" ]; t_result $? "installed gk reads shipped tables from \$(pkgdatadir): '$d'"
case $d in NONE*|*'${'*) r=1 ;; *) r=0 ;; esac
t_result $r "the data directory is a real path (no NONE/ or unexpanded variable)"
GK_DATA_DIR=/opt/gk-tables; export GK_DATA_DIR
t_ok "gk info --json with GK_DATA_DIR" env LD_LIBRARY_PATH="$root$GK_TEST_LIBDIR" "$gk" info --json
unset GK_DATA_DIR
[ "$(data_dir)" = /opt/gk-tables ]; t_result $? "GK_DATA_DIR overrides the data directory"
t_done
