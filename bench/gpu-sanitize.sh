#!/bin/sh
# bench/gpu-sanitize.sh TARBALL OUTDIR - the GPU tests under compute-sanitizer
# (memcheck with leak check, then racecheck), each test program on its own.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
tarball=$1 out=$2
mkdir -p "$out" /tmp/gks && cd /tmp/gks && tar xf "$tarball" && cd gk-* || exit 1
./configure --with-cuda-arch=90 >"$out/configure.log" 2>&1 && make -j16 >"$out/make.log" 2>&1 \
  && make -j16 check TESTS= >>"$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
rc=0
for tool in memcheck racecheck; do
  for t in tests/test_gpu_selftest tests/test_stencil_gpu tests/test_apsp_gpu; do
    extra=; [ $tool = memcheck ] && extra="--leak-check full"
    GK_DATA_DIR=$PWD/data timeout 240 "$cs" --tool $tool $extra --error-exitcode 9 "$t" >"$out/$tool-${t#tests/}.log" 2>&1
    r=$?; [ $r = 0 ] || rc=1
    printf '%-10s %-24s exit %3d  %s  %s\n' $tool "${t#tests/}" $r \
      "$(grep -c '^ok' "$out/$tool-${t#tests/}.log") ok, $(grep -c '^not ok' "$out/$tool-${t#tests/}.log") not ok" \
      "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$out/$tool-${t#tests/}.log" | tr '\n' ' ')"
  done
done
exit $rc
