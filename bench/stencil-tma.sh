#!/bin/sh
# bench/stencil-tma.sh - issue 27, second round: the RING=1 kernels' input
# planes by the TMA (sm_90) against every thread's cp.async, on a GPU
# machine.  Builds two trees from one release tarball: "new" as shipped,
# "old" with the three files of the commit before the TMA (OLD_REV, default
# 4f10dea: src/gpu/stencil.cu, src/gpu/stencil_gpu.c,
# src/core/space_stencil.c, taken beforehand into $OLD_DIR with
#   for f in src/gpu/stencil.cu src/gpu/stencil_gpu.c src/core/space_stencil.c; do
#     git show 4f10dea:$f > $OLD_DIR/$(basename $f); done
# ), then
#   ab     gk stencil --size=512 --steps=96 --time for each of CFGS, old
#          and new alternating, REPS rounds (kernel time, one run each)
#   tune   gktune --kernels=stencil at 256 (90 s) and 512 (120 s) into a
#          fresh cache ($OUT/cache), then gk bench stencil --sizes=512
#          --steps=100 with it and with the built-in defaults
# Usage: OLD_DIR=... OUT=... sh bench/stencil-tma.sh TARBALL [ab] [tune]
set -u
tarball=$1; shift
parts=${*:-ab tune}
OUT=${OUT:-/tmp/stencil-tma}; mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
for v in old new; do
  mkdir -p /tmp/tma-$v
  (cd /tmp/tma-$v && tar xf "$tarball" && cd gk-* \
    && if [ $v = old ]; then cp "$OLD_DIR"/stencil.cu "$OLD_DIR"/stencil_gpu.c src/gpu/ && cp "$OLD_DIR"/space_stencil.c src/core/; fi \
    && ./configure --with-cuda-arch=90 >/dev/null && make -j8 >/dev/null 2>"$OUT/build-$v.err" || echo "build $v failed") &
done
wait
A=DESIGN=2,RX=2,ASYNC=1,RING=1,UNROLL=1,PREFETCH=1
CFGS=${CFGS:-"$A,TSTEPS=2,BX=32,BY=8,RY=4,ZC=128,MINB=2
$A,TSTEPS=3,BX=32,BY=16,RY=2,ZC=512,MINB=1
$A,TSTEPS=3,BX=32,BY=8,RY=4,ZC=256,MINB=1
$A,TSTEPS=4,BX=32,BY=8,RY=4,ZC=256,MINB=1"}
for p in $parts; do case $p in
ab)
  for rep in $(seq "${REPS:-2}"); do for v in old new; do for c in $CFGS; do
    o=$(cd /tmp/tma-$v/gk-* && timeout 60 ./gk stencil --size=512 --steps=96 --device=gpu --time --config="$c" 2>&1 \
        | grep GStencil | sed 's/.*gpu: //;s/, [0-9.]* GFLOP.*//')
    echo "$rep $v $c ${o:-failed}"
  done; done; done | tee "$OUT/ab.txt" ;;
tune)
  cd /tmp/tma-new/gk-* || exit 1
  C=$OUT/cache; mkdir -p "$C"
  GK_CACHE_DIR=$C GK_DATA_DIR=/tmp/none ./gktune --kernels=stencil --sizes='stencil=256' --budget=90 -q > "$OUT/gktune256.log" 2>&1
  GK_CACHE_DIR=$C GK_DATA_DIR=/tmp/none ./gktune --kernels=stencil --sizes='stencil=512' --budget=120 -q > "$OUT/gktune512.log" 2>&1
  grep -h 'kernel=stencil' "$C"/tune-*.txt
  GK_CACHE_DIR=$C GK_DATA_DIR=/tmp/none timeout 150 ./gk bench stencil --sizes=512 --steps=100 2>&1 | tee "$OUT/bench-tuned.txt"
  E=$(mktemp -d)
  GK_CACHE_DIR=$E GK_DATA_DIR=/tmp/none timeout 100 ./gk bench stencil --sizes=512 --steps=100 --config=DESIGN=2,TSTEPS=2 2>&1 | tee "$OUT/bench-defaults.txt"
  GK_CACHE_DIR=$E GK_DATA_DIR=/tmp/none timeout 100 ./gk bench stencil --sizes=512 --steps=100 --config=DESIGN=1 2>&1 | tee -a "$OUT/bench-defaults.txt"
  cd - >/dev/null ;;
esac; done
