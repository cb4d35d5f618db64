#!/bin/sh
# install-deps.sh - install what building gk from git needs on Debian/Ubuntu,
# only what is missing.  The CUDA toolkit is not installed here: gk builds
# CPU-only without it (install NVIDIA's toolkit for the GPU backend).
set -e
need=
have() { command -v "$1" >/dev/null 2>&1; }
have gcc || need="$need gcc libc6-dev"
have make || need="$need make"
have autoreconf || need="$need autoconf"
have automake || need="$need automake"
have libtoolize || need="$need libtool"
have pkg-config || need="$need pkg-config"
pkg-config --exists hwloc 2>/dev/null || need="$need libhwloc-dev"
have python3 || need="$need python3"
have mpicc || need="$need libopenmpi-dev"       # gk under mpirun (and its tests)
have mpirun || need="$need openmpi-bin"
have groff || need="$need groff-base"          # tests/test_man3.sh formats the man pages
# the Python module's tests (numpy; scipy to compare with): Debian's packages
deb_has() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
if have dpkg-query; then
  deb_has python3-numpy || need="$need python3-numpy"
  deb_has python3-scipy || need="$need python3-scipy"
  # gk.nx's tests compare with NetworkX
  deb_has python3-networkx || need="$need python3-networkx"
  # tests/test_pip.sh: pip wheel without the package index, a new venv
  for p in python3-pip python3-venv python3-setuptools python3-wheel; do
    deb_has $p || need="$need $p"
  done
  # tests/test_deb.sh: dpkg-buildpackage -b (debian/control's
  # Build-Depends; build-essential is implied) and lintian
  for p in build-essential dpkg-dev debhelper dh-python lintian; do
    deb_has $p || need="$need $p"
  done
fi
[ -n "$need" ] || exit 0
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
echo "install-deps: installing:$need" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $need
