#!/bin/sh
# pip: `pip wheel` of the source tree builds libgk with configure + make and
# bundles it in the gk module (setup.py); the wheel, installed into a new
# virtual environment, imports with no environment variable (no PYTHONPATH,
# LD_LIBRARY_PATH or GK_LIBRARY), loads its own libgk and shipped tables,
# and passes the module's tests (tests/python/test_gk.py) there.
#
# To keep CI's time down the wheel's libgk is built CPU-only
# (GK_CONFIGURE_ARGS=--without-cuda): the GPU code is the same as the build
# tree's, which the other tests cover.  Without the package index: Debian's
# python3-pip, python3-venv, python3-setuptools and python3-wheel, and pip's
# --no-build-isolation; numpy and scipy come from the system's site packages
# (venv --system-site-packages).
. "$top_srcdir/tests/tap.sh"
: "${PYTHON:=python3}"
if [ "${GK_SANITIZERS:-no}" = yes ]; then
  echo "1..0 # SKIP the sanitizer build: the wheel's libgk is a build of its own, tested in the plain run"
  exit 0
fi
if [ "$PYTHON" = : ] || ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "1..0 # SKIP no python3 (configure found none, or --without-python)"
  exit 0
fi
for m in pip venv setuptools wheel; do
  if ! "$PYTHON" -c "import $m" >/dev/null 2>&1; then
    echo "1..0 # SKIP $PYTHON has no $m module (Debian: apt-get install python3-pip python3-venv python3-setuptools python3-wheel)"
    exit 0
  fi
done
if ! "$PYTHON" -m venv --help >/dev/null 2>&1 || ! "$PYTHON" -c 'import ensurepip' >/dev/null 2>&1; then
  echo "1..0 # SKIP $PYTHON -m venv cannot make environments with pip (Debian: apt-get install python3-venv)"
  exit 0
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1
# make check's PYTHONPATH names the source tree's python/, where an earlier
# in-tree pip build may have left gk.egg-info: pip would take it for an
# installed gk.  Nothing here runs with it (nor with GK_LIBRARY).
unset PYTHONPATH GK_LIBRARY
# make check's jobserver does not reach the make that setup.py runs (pip
# closes the descriptors): let setup.py pick its own -j
unset MAKEFLAGS MFLAGS MAKELEVEL

# The source tree, copied: setuptools writes build/ and *.egg-info where it
# builds, and the tree may be read-only (make distcheck).  A git checkout
# gives its files (no configure: setup.py runs ./autogen.sh, as for a user's
# clone); a distributed tree is copied whole (setup.py uses configure).
src=$t_tmp/src
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1 &&
   git -C "$top_srcdir" ls-files >/dev/null 2>&1; then
  if (cd "$top_srcdir" && git ls-files -z --cached --others --exclude-standard | xargs -0 sh -c '
        for f; do [ -e "$f" ] || [ -h "$f" ] || continue; mkdir -p "$0/$(dirname "$f")" && cp -P "$f" "$0/$f" || exit 1; done' "$src")
  then :; else echo "Bail out! cannot copy the git checkout"; exit 1; fi
  if ! command -v autoreconf >/dev/null 2>&1; then
    echo "1..0 # SKIP a git checkout: setup.py needs autoconf/automake/libtool for ./autogen.sh"
    exit 0
  fi
else
  # (an in-tree build under make -j: other tests create and delete their
  # temporaries in this tree meanwhile; a file gone before tar reads it is
  # skipped, theirs are left out, and what setup.py needs is checked)
  mkdir -p "$src" &&
    (cd "$top_srcdir" && tar --ignore-failed-read --warning=no-file-removed --warning=no-file-changed \
       --exclude='*.tmp.*' -cf - .) | (cd "$src" && tar -xf -) &&
    [ -f "$src/setup.py" ] && [ -f "$src/configure" ] && chmod -R u+w "$src" ||
    { echo "Bail out! cannot copy $top_srcdir"; exit 1; }
fi

t_ok "pip wheel (CPU-only libgk: GK_CONFIGURE_ARGS=--without-cuda)" \
  env GK_CONFIGURE_ARGS=--without-cuda "$PYTHON" -m pip wheel -v --no-build-isolation --no-deps -w "$t_tmp/dist" "$src"
[ $rc = 0 ] || t_diag "$(tail -30 "$t_tmp/out")"
whl=$(ls "$t_tmp"/dist/gk-*.whl 2>/dev/null | head -1)
[ -n "$whl" ]; t_result $? "a wheel: $(basename "${whl:-none}")"
"$PYTHON" - "$whl" >"$t_tmp/list" 2>&1 <<'EOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = {"gk/__init__.py", "gk/_lib.py", "gk/nx.py", "gk/csgraph.py", "gk/libgk.so.1", "gk/data/tuned/nvidia-h200-sm90.txt"}
missing = need - names
print("missing:", sorted(missing)) if missing else None
sys.exit(1 if missing else 0)
EOF
t_result $? "the wheel holds the module, libgk.so.1 and the tuning tables $(cat "$t_tmp/list")"

venv=$t_tmp/venv
t_ok "a new virtual environment (--system-site-packages)" "$PYTHON" -m venv --system-site-packages "$venv"
t_ok "pip install the wheel into it" "$venv/bin/python" -m pip install --no-index --no-deps "$whl"

# No environment at all but PATH: the module must find its own libgk.
cat >"$t_tmp/where.py" <<'EOF'
import os, sys
import gk
from gk import _lib
pkg = os.path.dirname(os.path.abspath(gk.__file__))
venv = os.path.realpath(sys.argv[1])
lib = gk.info()["library"]
assert os.path.realpath(pkg).startswith(venv + os.sep), "gk imported from %s, not the venv" % pkg
assert lib == os.path.join(pkg, "libgk.so.1"), "libgk loaded from %s" % lib
c = gk._context("where", "cpu", None)
d = _lib.lib.gk_context_data_dir(c.handle).decode()
assert d == os.path.join(pkg, "data"), "data directory %s" % d
print("gk", gk.__version__, "from", pkg, "with", lib)
EOF
t_ok "import gk with no environment variable (env -i): libgk and the tables from the package" \
  env -i PATH=/usr/bin:/bin HOME="$t_tmp" "$venv/bin/python" "$t_tmp/where.py" "$venv"
t_diag "$(cat "$t_tmp/out")"

if "$venv/bin/python" -c 'import numpy' >/dev/null 2>&1; then
  # the module's own tests, run with the venv's python, without the build
  # tree's GK_LIBRARY/PYTHONPATH (GK_LAYOUT, a test program, stays)
  env -u LD_LIBRARY_PATH -u GK_DATA_DIR "$venv/bin/python" \
    "$top_srcdir/tests/python/test_gk.py" >"$t_tmp/py" 2>&1
  r=$?
  n=$(grep -c '^ok ' "$t_tmp/py"); bad=$(grep -c '^not ok ' "$t_tmp/py"); sk=$(grep -c '^ok .*# SKIP' "$t_tmp/py")
  [ $r = 0 ] && [ "$bad" = 0 ] && [ "$n" -gt 0 ] || { r=1; t_diag "$(cat "$t_tmp/py")"; }
  t_result $r "tests/python/test_gk.py in the venv: $n ok ($sk of them skipped), $bad not ok"
  grep '# SKIP' "$t_tmp/py" | t_diag "$(cat)"
  if "$venv/bin/python" -c 'import networkx' >/dev/null 2>&1; then
    env -u LD_LIBRARY_PATH -u GK_DATA_DIR "$venv/bin/python" "$top_srcdir/tests/python/test_nx.py" >"$t_tmp/nx" 2>&1
    r=$?; n=$(grep -c '^ok ' "$t_tmp/nx"); bad=$(grep -c '^not ok ' "$t_tmp/nx")
    [ $r = 0 ] && [ "$bad" = 0 ] && [ "$n" -gt 0 ] || { r=1; t_diag "$(cat "$t_tmp/nx")"; }
    t_result $r "tests/python/test_nx.py (gk.nx) in the venv: $n ok, $bad not ok"
  else
    t_skip "networkx is not installed for $PYTHON (apt-get install python3-networkx)" "gk.nx in the venv"
  fi
else
  t_skip "numpy is not installed for $PYTHON (apt-get install python3-numpy)" "tests/python/test_gk.py in the venv"
fi
t_done
