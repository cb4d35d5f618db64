#!/bin/sh
# bench/gpu-api.sh TARBALL OUTDIR - on a GPU machine, the library round
# (issue 23): build the tarball; run the tests that exercise the GPU through
# the new entry points (MODE=full: the whole suite instead); then
# `gk bench plan` (many small calls: a plan on device memory, on host memory,
# gk_*_run, against the kernels' own time) and the examples' run where
# installed.  Logs go to OUTDIR.  NVLink multicast stays off.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tarball=$1 out=$2
mkdir -p "$out" /tmp/gkb && cd /tmp/gkb && tar xf "$tarball" && cd gk-* || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu --format=csv | tee "$out/gpu.txt"
./configure >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
grep -A12 'configuration summary' "$out/configure.log"
make -j16 >"$out/make.log" 2>&1 || { tail -40 "$out/make.log"; exit 1; }
if [ "${MODE:-gpu}" = full ]; then
  make -j16 check >"$out/check.log" 2>&1; rc=$?
else
  tests="tests/test_plans tests/test_apsp_gpu tests/test_apsp_write tests/test_stencil_gpu tests/test_stencil_gpu_rx
         tests/test_stencil_multi_gpu tests/test_gemm_gpu tests/test_elementwise_gpu tests/test_gpu_selftest
         tests/test_threads tests/test_examples.sh tests/test_python.sh tests/test_tune_gpu.sh"
  have=""
  for t in $tests; do [ -f "$t.c" ] || [ -f "$t" ] && have="$have $t"; done
  make -j16 check TESTS="$have" >"$out/check.log" 2>&1; rc=$?
fi
cp test-suite.log "$out/" 2>/dev/null
grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR)' "$out/check.log"
grep -E '^(FAIL|ERROR)' "$out/check.log" | head -20
echo "skipped: $(grep -c '^SKIP' "$out/check.log")"; grep '^SKIP' "$out/check.log" | head -20
for f in tests/*.log; do grep -q '^not ok' "$f" && { echo "--- $f"; grep -B2 -A2 '^not ok' "$f" | head -30; }; done
[ "${GK_CHECK_ONLY:-0}" = 1 ] && exit $rc
GK_CACHE_DIR=/tmp/gk-nocache ./gk bench plan --calls=1000 2>&1 | tee "$out/bench-plan.txt"
GK_CACHE_DIR=/tmp/gk-nocache ./gk bench plan --calls=1000 --json >"$out/bench-plan.json" 2>&1
exit $rc
