#!/bin/sh
# bench/gpu-check.sh TARBALL OUTDIR - on a GPU machine: build the tarball,
# run the whole suite (GPU tests must run, not skip), then the two benchmarks
# with the built-in defaults (the figures DESIGN.md and the issues compare).
# Logs go to OUTDIR.  NVLink multicast stays off.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
tarball=$1 out=$2
mkdir -p "$out" /tmp/gkb && cd /tmp/gkb && tar xf "$tarball" && cd gk-* || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu --format=csv | tee "$out/gpu.txt"
./configure >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
grep -A12 'configuration summary' "$out/configure.log"
make -j16 >"$out/make.log" 2>&1 || { tail -40 "$out/make.log"; exit 1; }
make -j16 check >"$out/check.log" 2>&1; rc=$?
cp test-suite.log "$out/" 2>/dev/null
grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR)' "$out/check.log"
grep -E '^(FAIL|ERROR)' "$out/check.log" | head -20
grep -c '^SKIP' "$out/check.log"; grep '^SKIP' "$out/check.log" | head
[ "${GK_CHECK_ONLY:-0}" = 1 ] && exit $rc
GK_CACHE_DIR=/tmp/gk-nocache ./gk bench apsp --sizes=4096,16384,25000 --config=APSP_TILE=128 2>&1 | tee "$out/bench-apsp.txt"
GK_CACHE_DIR=/tmp/gk-nocache ./gk bench stencil --sizes=256,512 --steps=100 --config=DESIGN=1 2>&1 | tee "$out/bench-stencil.txt"
GK_CACHE_DIR=/tmp/gk-nocache ./gk stencil --size=512 --steps=100 --time --check 2>&1 | tee "$out/stencil-run.txt"
exit $rc
