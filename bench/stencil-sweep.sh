#!/bin/sh
# bench/stencil-sweep.sh - on a GPU machine, from a built tree: the GPU
# stencil test, `gk bench stencil` at 512^3 (nt = 100) and a sweep of DESIGN 2
# (temporal blocking) configurations at 512^3 with nt = 96 (whole passes for
# every T), one `gk stencil --time` run each (NVRTC).  Logs go to $OUT (or
# /tmp); the table is printed last.
# Usage: bench/stencil-sweep.sh [GK]    (GK defaults to ./gk)
GK=${1:-./gk}
out=${OUT:-/tmp}
export GK_CACHE_DIR=${GK_CACHE_DIR:-/tmp/gk-sweep-cache}
if [ "${TEST:-1}" = 1 ] && [ -x tests/test_stencil_gpu ]; then
  ./tests/test_stencil_gpu > "$out/test_stencil_gpu.log" 2>&1
  echo "test_stencil_gpu: rc=$? $(grep -c '^ok' "$out/test_stencil_gpu.log") ok, $(grep -c '^not ok' "$out/test_stencil_gpu.log") not ok"
  grep '^not ok' "$out/test_stencil_gpu.log" | head -20
fi
"$GK" bench stencil --sizes=${SIZES:-512} --steps=${STEPS:-100} --reps=${REPS:-5} 2>&1 | tee "$out/bench.log"
CFGS=${CFGS:-"
DESIGN=1
DESIGN=1,PREFETCH=2
DESIGN=1,BY=2,PREFETCH=2
DESIGN=2,TSTEPS=1,PREFETCH=2
DESIGN=2,TSTEPS=2
DESIGN=2,TSTEPS=2,PREFETCH=2
DESIGN=2,TSTEPS=3,PREFETCH=2
DESIGN=2,TSTEPS=2,ZC=128,PREFETCH=2
DESIGN=2,TSTEPS=3,ZC=128,PREFETCH=2
DESIGN=2,TSTEPS=4,BX=64,BY=8,RY=4,PREFETCH=2
DESIGN=2,TSTEPS=2,BX=32,BY=4,RY=4,PREFETCH=2
DESIGN=2,TSTEPS=2,BX=64,BY=4,RY=4,PREFETCH=2
"}
: > "$out/sweep.log"
for c in $CFGS; do
  r=$("$GK" stencil --size=${SWEEP_SIZE:-512} --steps=96 --device=gpu --time --config="$c" 2>&1 | grep 'GStencil' | sed 's/.*steps on gpu: //')
  printf '%-44s %s\n' "$c" "$r" >> "$out/sweep.log"
done
echo "sweep at ${SWEEP_SIZE:-512}^3, nt=96 (gk stencil --time: includes upload/download; one run each)"
cat "$out/sweep.log"
