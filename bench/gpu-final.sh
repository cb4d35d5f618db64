#!/bin/sh
# bench/gpu-final.sh TARBALL OUTDIR - on a one-GPU machine: the suite, make
# distcheck, and the default-configuration benchmarks of both kernels.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
tarball=$1 out=$2
mkdir -p "$out" /tmp/gkf && cd /tmp/gkf && tar xf "$tarball" && cd gk-* || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu --format=csv,noheader
./configure >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
grep -A16 'configuration summary' "$out/configure.log" | grep -i 'arch\|mpi\|python\|cuda  '
make -j16 >"$out/make.log" 2>&1 || { tail -40 "$out/make.log"; exit 1; }
make -j16 check >"$out/check.log" 2>&1; rc=$?
echo "== make check"; grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR)' "$out/check.log"
grep -E '^(FAIL|ERROR)' "$out/check.log" | head; grep '^SKIP' "$out/check.log" | sed 's/^/  /' | head -12
GK_CACHE_DIR=/tmp/gk-nocache ./gk bench apsp --sizes=4096,16384,25000 --config=APSP_TILE=128 >"$out/bench-apsp.txt" 2>&1
GK_CACHE_DIR=/tmp/gk-nocache ./gk bench stencil --sizes=512 --steps=100 >"$out/bench-stencil.txt" 2>&1
python3 -c 'import numpy' 2>/dev/null && GK_LIBRARY=$PWD/.libs/libgk.so PYTHONPATH=$PWD/python \
  timeout 120 python3 bench/python-apsp.py --device=gpu --repeat=3 >"$out/bench-python.txt" 2>&1
echo "== bench apsp (defaults)"; cat "$out/bench-apsp.txt"
echo "== bench stencil (default + shipped table)"; tail -12 "$out/bench-stencil.txt"
echo "== python"; tail -6 "$out/bench-python.txt" 2>/dev/null
make -j16 distcheck DISTCHECK_CONFIGURE_FLAGS=--with-cuda-arch=90 >"$out/distcheck.log" 2>&1; d=$?
echo "== distcheck rc=$d"; grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR)' "$out/distcheck.log" | tail -5; tail -4 "$out/distcheck.log"
exit $((rc || d))
