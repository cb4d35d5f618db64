#!/bin/sh
# bench/gpu-final-multi.sh TARBALL OUTDIR - on a machine with two or more
# GPUs (nvidia-h200-x2, nvidia-h200-x4), in one call: build the release
# tarball, the multi-GPU stencil benchmarks (bench/stencil-multi.sh bench
# big: one GPU against 2 and G GPUs, in one process and under mpirun, and the
# grids one GPU cannot hold), APSP_MULTI=1 (default): `gk bench apsp
# --gpus=G` and `mpirun -np G gk bench apsp` at n = APSP_N (50000), then the whole suite (every GPU and multi-GPU
# test runs there).  The suite gets what is left of DEADLINE seconds (default
# 570) since the start, or SUITE_LIMIT seconds when set.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tarball=$1 out=$2
START=$(date +%s); export START
mkdir -p "$out" /tmp/gkm && cd /tmp/gkm && tar xf "$tarball" && cd gk-* || exit 1
nvidia-smi --query-gpu=index,name,memory.total,clocks.sm --format=csv,noheader
J=$(nproc)
./configure --with-cuda-arch=90 >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
make -j"$J" >"$out/make.log" 2>&1 || { grep -B2 -A8 error "$out/make.log" | head -60; exit 1; }
echo "== built at $(($(date +%s) - START)) s"
OUT="$out/stencil" sh bench/stencil-multi.sh build bench big >"$out/stencil-multi.txt" 2>&1
sed -n '/==== figures/,$p' "$out/stencil-multi.txt"
if [ "${APSP_MULTI:-1}" = 1 ]; then   # APSP past one GPU: --gpus=G and mpirun -np G at n = APSP_N
  OUT="$out/apsp" N="${APSP_N:-50000}" sh bench/apsp-multi.sh bench >"$out/apsp-multi.txt" 2>&1
  cat "$out/apsp/summary.txt"
fi
lim=${SUITE_LIMIT:-$((${DEADLINE:-570} - ($(date +%s) - START)))}
echo "== make check (at $(($(date +%s) - START)) s, limit $lim s)"
timeout -k 10 "$lim" make -j"$J" check >"$out/check.log" 2>&1; rc=$?
[ $rc = 124 ] && echo "suite: TIMED OUT after $lim s"
grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR)' "$out/check.log"
grep -E '^(FAIL|ERROR)' "$out/check.log" | head; grep '^SKIP' "$out/check.log" | sed 's/^/  /' | head -12
for t in tests/test_apsp_multi.sh tests/test_stencil_multi.sh tests/test_stencil_multi_gpu; do
  [ -f "$t.log" ] || [ -f "${t%.sh}.log" ] || continue
  f=$( [ -f "${t%.sh}.log" ] && echo "${t%.sh}.log" || echo "$t.log")
  echo "  $t: $(grep -c '^ok' "$f") ok, $(grep -c '^not ok' "$f") not ok, $(grep -c '# SKIP' "$f") skipped"
done
cp tests/*.log "$out/" 2>/dev/null
echo "== done at $(($(date +%s) - START)) s"
exit $rc
