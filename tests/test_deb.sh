#!/bin/sh
# The Debian packages (debian/): dpkg-buildpackage -us -uc -b on a copy of
# the tree makes libgk1, libgk-dev, gk and python3-gk with what they must
# hold; lintian reports no error or warning; then, as root, the packages are
# installed with dpkg -i, used as a user would (gk, gktune, import gk, a C
# program built with pkg-config gk, all without any environment variable),
# and purged, which leaves the machine as it was.
#
# Why a real install: the packages' dependencies, dh_python3's byte
# compilation, ldconfig and the paths compiled in (/usr/share/gk,
# /usr/lib/<triplet>) are what users get, and only dpkg -i exercises them.
# CI runs as root on a throwaway clone; elsewhere the install part is skipped
# unless root, never replaces gk packages that are already installed, and
# skips when another dpkg holds the lock.  The build is CPU-only
# (GK_CONFIGURE_ARGS=--without-cuda) and without the package's own `make
# check` (DEB_BUILD_OPTIONS=nocheck) to keep CI's time down.
. "$top_srcdir/tests/tap.sh"
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
[ "${GK_SANITIZERS:-no}" = yes ] && skip_all "the sanitizer build: the packages are built (unsanitized) in the plain run"
[ -n "$GK_TEST_DEB_INNER" ] && skip_all "inside the package build of tests/test_deb.sh"
[ -d "$top_srcdir/debian" ] || skip_all "no debian/ in the source tree"
for t in dpkg-buildpackage dpkg-checkbuilddeps dpkg-deb dh; do
  command -v $t >/dev/null 2>&1 ||
    skip_all "no $t (Debian: apt-get install dpkg-dev debhelper dh-python; tools/install-deps.sh does)"
done
( cd "$top_srcdir" && dpkg-checkbuilddeps ) >"$t_tmp/deps" 2>&1 ||
  skip_all "$(sed -n 's/.*Unmet build dependencies: */missing build dependencies: /p' "$t_tmp/deps" | head -1)"

version=$(cd "$top_srcdir" && dpkg-parsechangelog -S Version 2>/dev/null)
gkv=$("$GK" --version | sed -n '1s/.* //p')
[ "$version" = "$gkv" ]
t_result $? "debian/changelog's version ($version) is gk's ($gkv)"

# a copy: dpkg-buildpackage writes debian/ build products and ../*.deb
src=$t_tmp/gk-$gkv
mkdir -p "$src"
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1 && git -C "$top_srcdir" ls-files >/dev/null 2>&1; then
  (cd "$top_srcdir" && git ls-files -z --cached --others --exclude-standard | xargs -0 sh -c '
     for f; do [ -e "$f" ] || [ -h "$f" ] || continue; mkdir -p "$0/$(dirname "$f")" && cp -P "$f" "$0/$f" || exit 1; done' "$src")
else
  cp -R "$top_srcdir/." "$src" && chmod -R u+w "$src"
fi || { echo "Bail out! cannot copy the source tree"; exit 1; }

jobs=$(nproc 2>/dev/null || echo 2)
(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL GK_TEST_DEB_INNER=1 GK_CONFIGURE_ARGS=--without-cuda DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
   dpkg-buildpackage -us -uc -b) >"$t_tmp/build.log" 2>&1
r=$?; [ $r = 0 ] || t_diag "$(tail -40 "$t_tmp/build.log")"
t_result $r "dpkg-buildpackage -us -uc -b (CPU-only, nocheck)"
[ $r = 0 ] || { t_done; exit 1; }

arch=$(dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null || dpkg --print-architecture)
multi=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
deb() { echo "$t_tmp/${1}_${gkv}_$arch.deb"; }
has() {   # has PACKAGE PATH...: the package holds each path
  p=$1; shift
  dpkg-deb -c "$(deb "$p")" | awk '{ print $6 }' | sed 's,^\./,/,' >"$t_tmp/list.$p" || return 1
  for f; do grep -qxF "$f" "$t_tmp/list.$p" || { t_diag "$p lacks $f"; return 1; }; done
}
has libgk1 "/usr/lib/$multi/libgk.so.1" /usr/share/gk/tuned/nvidia-h200-sm90.txt
t_result $? "libgk1: libgk.so.1 and the tuning tables"
has libgk-dev /usr/include/gk.h /usr/include/gk/apsp.h /usr/include/gk/version.h "/usr/lib/$multi/libgk.so" \
  "/usr/lib/$multi/pkgconfig/gk.pc"
t_result $? "libgk-dev: the headers, libgk.so and gk.pc"
# every section-3 page make install installed (debian/tmp) is in libgk-dev
r=0
for m in "$src"/debian/tmp/usr/share/man/man3/*; do
  [ -e "$m" ] || continue
  grep -qxF "/usr/share/man/man3/$(basename "$m").gz" "$t_tmp/list.libgk-dev" || { r=1; t_diag "libgk-dev lacks $m"; }
done
t_result $r "libgk-dev: every man3 page make install installs ($(ls "$src"/debian/tmp/usr/share/man/man3 | wc -l))"
! grep -q '\.la$' "$t_tmp/list.libgk-dev" "$t_tmp/list.libgk1"
t_result $? "no libtool archive (.la) is shipped"
has gk /usr/bin/gk /usr/bin/gktune /usr/share/man/man1/gk.1.gz /usr/share/man/man1/gktune.1.gz
t_result $? "gk: the commands and their manual pages"
has python3-gk /usr/lib/python3/dist-packages/gk/__init__.py /usr/lib/python3/dist-packages/gk/_lib.py \
  /usr/lib/python3/dist-packages/gk/nx.py /usr/lib/python3/dist-packages/gk/csgraph.py \
  /usr/lib/python3/dist-packages/gk/_config.py
t_result $? "python3-gk: the module"
dpkg-deb -f "$(deb python3-gk)" Depends | grep -q "libgk1 (= $gkv)" &&
  dpkg-deb -f "$(deb libgk1)" Depends | grep -q libhwloc
t_result $? "dependencies: python3-gk on this libgk1, libgk1 on hwloc (shlibs)"

if command -v lintian >/dev/null 2>&1; then
  lintian -I --pedantic --fail-on error,warning "$t_tmp/gk_${gkv}_$arch.changes" >"$t_tmp/lintian" 2>&1
  r=$?
  grep -v '^running with root privileges' "$t_tmp/lintian" >"$t_tmp/tags"
  [ -s "$t_tmp/tags" ] && t_diag "lintian (each tag explained in debian/README):" "$(cat "$t_tmp/tags")"
  t_result $r "lintian: no error or warning"
else
  t_skip "no lintian (apt-get install lintian)" "lintian"
fi

# -------------------------------------------------------------- installed
pkgs="libgk1 libgk-dev gk python3-gk"
installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q ' installed$'; }
why=
[ "$(id -u)" = 0 ] || why="not root (dpkg -i needs it; CI runs as root)"
if [ -z "$why" ]; then
  for p in $pkgs; do installed $p && why="$p is installed already: not replaced by a test"; done
fi
if [ -n "$why" ]; then
  for n in "dpkg -i" "installed gk runs" "import gk" "a C program with pkg-config gk" "dpkg --purge"; do
    t_skip "$why" "$n"
  done
  t_done; exit $?
fi
purge() { dpkg --purge $pkgs >"$t_tmp/purge" 2>&1; }
trap 'purge; rm -rf "$t_tmp"' EXIT
dpkg -i "$(deb libgk1)" "$(deb libgk-dev)" "$(deb gk)" "$(deb python3-gk)" >"$t_tmp/out" 2>&1
r=$?
if [ $r != 0 ] && grep -q 'lock' "$t_tmp/out"; then
  purge
  for n in "dpkg -i" "installed gk runs" "import gk" "a C program with pkg-config gk" "dpkg --purge"; do
    t_skip "another dpkg holds the lock" "$n"
  done
  t_done; exit $?
fi
[ $r = 0 ] || t_diag "$(cat "$t_tmp/out")"
t_result $r "dpkg -i libgk1 libgk-dev gk python3-gk"

clean_env() { env -i PATH=/usr/bin:/bin HOME="$t_tmp" "$@"; }
cd "$t_tmp" || exit 1
clean_env /usr/bin/gk gen apsp --vertices=60 --edges=600 --seed=3 g.in >"$t_tmp/out" 2>&1 &&
  clean_env /usr/bin/gk apsp --device=cpu --check g.in d.out >>"$t_tmp/out" 2>&1 &&
  clean_env /usr/bin/gk info --json >"$t_tmp/info" 2>>"$t_tmp/out" &&
  grep -q '"data_dir": *"/usr/share/gk"' "$t_tmp/info" && clean_env /usr/bin/gktune --help >/dev/null
r=$?; [ $r = 0 ] || t_diag "$(cat "$t_tmp/out" "$t_tmp/info")"
t_result $r "installed gk runs (apsp --check, its tables in /usr/share/gk) and gktune"

clean_env /usr/bin/python3 -c "
import gk, numpy as np
assert gk.__file__.startswith('/usr/lib/python3/dist-packages/gk/'), gk.__file__
assert gk.info()['library'] == '/usr/lib/$multi/libgk.so.1', gk.info()['library']
d = gk.apsp(np.array([[0, 1, 4], [1, 2, 5], [0, 2, 11]]), kind='edges', device='cpu')
assert d[0, 2] == 9 and d[2, 0] == gk.INF, d
" >"$t_tmp/out" 2>&1
r=$?; [ $r = 0 ] || t_diag "$(cat "$t_tmp/out")"
t_result $r "import gk: the installed module with the installed libgk.so.1"

cat >"$t_tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <gk.h>
int main(void)
{
    /* a 3-vertex path graph: 0 -> 1 (w 2), 1 -> 2 (w 3) */
    int32_t d[9] = { 0, 2, GK_APSP_INF, GK_APSP_INF, 0, 3, GK_APSP_INF, GK_APSP_INF, 0 };
    gk_context_options o;
    gk_context *ctx;
    gk_apsp_problem p;
    gk_apsp_options ao;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    gk_apsp_problem_init(&p, 3);
    gk_apsp_options_init(&ao);
    if (gk_context_create(&ctx, &o) || gk_apsp_run(ctx, &p, d, &ao, NULL)) {
        fprintf(stderr, "%s\n", gk_last_error());
        return 1;
    }
    gk_context_destroy(ctx);
    printf("%s %d\n", gk_version(), d[2]);
    return d[2] == 5 && !strcmp(gk_version(), GK_VERSION_STRING) ? 0 : 1;
}
EOF
cc=${GK_CC:-cc}
clean_env sh -c "$cc -o prog prog.c \$(pkg-config --cflags --libs gk) && ./prog" >"$t_tmp/out" 2>&1
r=$?; [ $r = 0 ] || t_diag "$(cat "$t_tmp/out")"
t_result $r "a C program built with pkg-config gk runs against the installed library: $(cat "$t_tmp/out")"

purge; r=$?
for p in $pkgs; do installed $p && r=1; done
[ ! -e /usr/bin/gk ] && [ ! -e /usr/lib/python3/dist-packages/gk ] || r=1
[ $r = 0 ] || t_diag "$(cat "$t_tmp/purge")"
t_result $r "dpkg --purge leaves none of the packages or their files"
t_done
