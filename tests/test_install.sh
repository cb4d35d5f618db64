#!/bin/sh
# An installed gk finds the tables it ships: `make install DESTDIR=...` from
# this build, then the installed gk (without GK_DATA_DIR, which the other
# tests set) must report $(pkgdatadir) as its data directory, not a path
# baked in before configure knew the prefix ("NONE/share/gk"), and the H200
# table must be installed there.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/stage_install.sh"
root=$stage_root
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

# the C API's man pages: every exported function has its page in
# $(man3dir), the group's page or a link page (.so) to it, so that
# `man gk_apsp_plan_create` works
man3="$root$GK_TEST_MAN3DIR"
r=0
for p in "$top_srcdir"/doc/man3/*.3; do cmp -s "$p" "$man3/$(basename "$p")" || { r=1; t_diag "not installed: $(basename "$p")"; }; done
t_result $r "the man3 pages are installed in \$(man3dir) ($GK_TEST_MAN3DIR)"
r=0 n=0
for f in $(sed 's,/\*.*\*/,,' "$top_srcdir/src/libgk.map" | tr -d ' \t' | grep -E '^gk_[A-Za-z0-9_]*;$' | tr -d ';'); do
  n=$((n + 1))
  page=$man3/$f.3
  if [ -f "$page" ] && target=$(sed -n 's,^\.so man3/,,p' "$page") && [ -n "$target" ]; then
    [ -f "$man3/$target" ] || { r=1; t_diag "$f.3 links to $target, which is not installed"; }
  elif [ ! -f "$page" ]; then
    r=1; t_diag "no man page $f.3"
  fi
done
[ $n -ge 90 ] || r=1
t_result $r "each of the $n exported functions has a man3 page or a link page to its group's"
t_done
