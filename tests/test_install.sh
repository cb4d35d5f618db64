#!/bin/sh
# An installed gk finds the tables it ships: `make install DESTDIR=...` from
# this build, then the installed gk (without GK_DATA_DIR, which the other
# tests set) must report $(pkgdatadir) as its data directory, not a path
# baked in before configure knew the prefix ("NONE/share/gk"), and the H200
# table must be installed there.  The Python module is installed with the
# libdir it loads libgk from, and the install prints the PYTHONPATH line
# exactly when $(PYTHON) does not search $(pythondir).  `make install
# prefix=P` for another prefix than configure's is refused, installing
# nothing (the paths above are compiled in).
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/stage_install.sh"
root=$stage_root
cp "$t_tmp/out" "$t_tmp/install.out"
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
other=$t_tmp/other-prefix
# (make adds its own "*** ... Error" line after the message, and under
# make -j check maybe a warning about the jobserver: not counted)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -s -C "$top_builddir" install prefix="$other" \
  >"$t_tmp/out" 2>"$t_tmp/err"
r=$?
[ $r != 0 ] && [ "$(grep -Evc '^make(\[[0-9]+\])?: (\*\*\*|warning: jobserver)' "$t_tmp/err")" = 1 ] &&
  grep -q "prefix=$other is not configure's prefix ($GK_TEST_PREFIX).*configure --prefix=$other" "$t_tmp/err"
r=$?; [ $r = 0 ] || t_diag "$(cat "$t_tmp/err")"
t_result $r "make install prefix=P (not configure's prefix) is refused with one line saying what to do"
[ ! -e "$other" ]; t_result $? "and nothing is installed there"

# the Python module (when configure found a python3)
if [ "${PYTHON:-:}" != : ] && [ -n "$GK_TEST_PYTHONDIR" ]; then
  . "$top_srcdir/tests/python_san.sh"
  mod="$root$GK_TEST_PYTHONDIR/gk"
  [ -f "$mod/__init__.py" ] && [ -f "$mod/_lib.py" ] &&
    [ "$(sed -n "s/^LIBDIR = '\(.*\)'$/\1/p" "$mod/_config.py")" = "$GK_TEST_LIBDIR" ]
  t_result $? "the module is installed in \$(pythondir) with _config.LIBDIR = \$(libdir)"
  t_ok "the installed module imports and runs (its libgk from the staging root)" \
    env PYTHONPATH="$root$GK_TEST_PYTHONDIR" GK_LIBRARY="$root$GK_TEST_LIBDIR/libgk.so.1" \
    "$PYTHON" -c 'import gk, sys; assert gk.__file__.startswith(sys.argv[1]); print(gk.__version__)' "$root"
  hint="export PYTHONPATH='$GK_TEST_PYTHONDIR'"
  if "$PYTHON" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$GK_TEST_PYTHONDIR"; then
    ! grep -q "^export PYTHONPATH=" "$t_tmp/install.out"
    t_result $? "\$(PYTHON) searches \$(pythondir): the install prints no PYTHONPATH line"
  else
    grep -qxF "$hint" "$t_tmp/install.out"; t_result $? "the install printed: $hint"
  fi
  t_ok "make install with a pythondir that python does not search" \
    ${MAKE:-make} -C "$top_builddir" install-data DESTDIR="$t_tmp/root2" pythondir=/nonexistent/gk-site
  grep -qxF "export PYTHONPATH='/nonexistent/gk-site'" "$t_tmp/out"
  t_result $? "it prints the exact PYTHONPATH line"
else
  t_skip "no python3 (configure found none)" "the Python module's install"
fi
t_done
