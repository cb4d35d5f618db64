#!/bin/sh
# The examples build and run against the INSTALLED library, as a user's
# program would: a staged install of this build tree (tests/stage_install.sh),
# pkg-config pointed at its gk.pc only, examples/Makefile run on a copy of
# examples/ with this build's compilers, the programs run with the staged
# libgk.  The C example (host memory, any backend) must verify its results;
# the CUDA example is built when configure found nvcc and runs where a GPU is
# usable (it exits 77 otherwise: SKIP), and must verify its batches.
. "$top_srcdir/tests/tap.sh"
pkgconfig=${PKG_CONFIG:-pkg-config}
if ! command -v "$pkgconfig" >/dev/null 2>&1; then
  echo "1..0 # SKIP no pkg-config (the examples are built through pkg-config gk)"
  exit 0
fi
. "$top_srcdir/tests/stage_install.sh"
# only the staged gk.pc, its paths moved under the staging root
PKG_CONFIG_LIBDIR=$stage_lib/pkgconfig PKG_CONFIG_PATH=$stage_lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage_root
export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
version=$(sed -n 's/^#define GK_VERSION_STRING "\(.*\)"/\1/p' "$top_builddir/include/gk/version.h")
got=$("$pkgconfig" --modversion gk 2>&1)
[ "$got" = "$version" ]; t_result $? "pkg-config finds the staged gk.pc (version '$got', want '$version')"
flags=$("$pkgconfig" --cflags --libs gk)
case " $flags " in *" -I$stage_root"*" -L$stage_root"*) r=0 ;; *) r=1 ;; esac
t_result $r "pkg-config --cflags --libs gk names the staged directories ($flags)"

ex=$t_tmp/examples
mkdir -p "$ex" && cp "$top_srcdir"/examples/Makefile "$top_srcdir"/examples/*.c "$top_srcdir"/examples/*.cu "$ex"/
run_env() { env LD_LIBRARY_PATH="$stage_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"; }

# --enable-sanitizers: libgk is instrumented; the C example is built with the
# same flags (the runtime must come first), the CUDA one gets it preloaded
cflags="-O2 -Wall -Wextra -Werror"
[ "${GK_SANITIZERS:-no}" = yes ] && cflags="$cflags -fsanitize=address,undefined -fno-omit-frame-pointer"
t_ok "examples/Makefile builds apsp_host with \$CC and pkg-config gk" \
  ${MAKE:-make} -C "$ex" apsp_host CC="${GK_CC:-cc}" CFLAGS="$cflags"
if command -v ldd >/dev/null 2>&1 && [ -x "$ex/apsp_host" ]; then
  lib=$(run_env ldd "$ex/apsp_host" | awk '$1 ~ /^libgk\.so/ { print $3 }')
  case $lib in "$stage_lib"/*) r=0 ;; *) r=1 ;; esac
  t_result $r "apsp_host loads the staged libgk ($lib)"
fi
(cd "$ex" && run_env ./apsp_host) >"$t_tmp/apsp.out" 2>"$t_tmp/apsp.err"
rc=$?
t_diag "$(cat "$t_tmp/apsp.out" "$t_tmp/apsp.err")"
[ $rc = 0 ] && grep -q '^apsp_host: 5 of 5 results verified against the plain loop$' "$t_tmp/apsp.out" \
  && grep -q 'expected error: invalid argument: gk_apsp_plan_execute: dist is NULL' "$t_tmp/apsp.out"
t_result $? "apsp_host runs, verifies its 5 results and shows gk_last_error's message (exit $rc)"

if [ -z "${GK_NVCC:-}" ]; then
  t_skip "configure found no nvcc" "examples/Makefile builds stencil_device with nvcc"
  t_skip "configure found no nvcc" "stencil_device verifies its batches"
else
  t_ok "examples/Makefile builds stencil_device with nvcc and pkg-config gk" \
    ${MAKE:-make} -C "$ex" stencil_device NVCC="$GK_NVCC" NVCCFLAGS="-O2 ${GK_NVCC_GENCODE:-}"
  pre=
  if [ "${GK_SANITIZERS:-no}" = yes ]; then
    cc=${GK_CC:-cc}
    # (not built with the sanitizers: they are preloaded, as for Python)
    pre="LD_PRELOAD=$($cc -print-file-name=libasan.so):$($cc -print-file-name=libubsan.so)"
    pre="$pre ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:protect_shadow_gap=0"
  fi
  (cd "$ex" && run_env $pre ./stencil_device) >"$t_tmp/sd.out" 2>"$t_tmp/sd.err"
  rc=$?
  t_diag "$(cat "$t_tmp/sd.out" "$t_tmp/sd.err")"
  if [ $rc = 77 ]; then
    t_skip "no usable GPU: $(sed -n 's/.*SKIP: //p' "$t_tmp/sd.out" | head -1)" "stencil_device verifies its batches"
  else
    [ $rc = 0 ] && grep -q '^stencil_device: all 6 batches verified against the host reference$' "$t_tmp/sd.out" \
      && grep -q 'checksums on gk.s stream: agree; padding untouched: yes' "$t_tmp/sd.out"
    t_result $? "stencil_device runs on the GPU and verifies its batches (exit $rc)"
  fi
fi
t_done
