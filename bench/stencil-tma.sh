#!/bin/sh
# bench/stencil-tma.sh - issue 27, second round: the RING=1 kernels' input
# planes by the TMA against every thread's cp.async, on a GPU machine with
# an sm_90 GPU (H100, H200) and nvcc.  Builds two trees from one release
# tarball (`make dist` of a tree at or after 3537099: gk-VERSION.tar.gz):
# "new" as it is, "old" with the three files of 4f10dea (the commit before
# the TMA) copied in from OLD_DIR, made beforehand in a checkout with
#   mkdir -p OLD_DIR; for f in src/gpu/stencil.cu src/gpu/stencil_gpu.c \
#     src/core/space_stencil.c; do git show 4f10dea:$f > OLD_DIR/$(basename $f); done
# then runs the parts asked for (default: both):
#   ab     gk stencil --size=512 --steps=96 --time for each of CFGS, old
#          and new alternating, REPS rounds (kernel time, one run each)
#   tune   gktune --kernels=stencil at 256 (90 s) and 512 (120 s) into a
#          fresh cache ($OUT/cache), then gk bench stencil --sizes=512
#          --steps=100 with it and with the built-in defaults
# Usage: OLD_DIR=DIR [OUT=DIR] sh bench/stencil-tma.sh TARBALL [ab] [tune]
# (relative paths are fine).  The two-GPU figure of the same round is
# `gk bench stencil --gpus=2 --sizes=1024 --steps=100` (bench/stencil-multi.sh).
set -u
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
[ $# -ge 1 ] && [ -f "$1" ] || { echo "usage: OLD_DIR=DIR sh $0 TARBALL [ab] [tune] (no tarball '${1:-}')" >&2; exit 2; }
: "${OLD_DIR:?OLD_DIR must hold 4f10dea's stencil.cu, stencil_gpu.c and space_stencil.c (see the top of $0)}"
for f in stencil.cu stencil_gpu.c space_stencil.c; do
  [ -f "$OLD_DIR/$f" ] || { echo "$0: $OLD_DIR/$f is missing" >&2; exit 2; }
done
tarball=$(abs "$1"); shift
OLD_DIR=$(abs "$OLD_DIR")
parts=${*:-ab tune}
OUT=$(abs "${OUT:-/tmp/stencil-tma}"); mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
for v in old new; do
  rm -rf /tmp/tma-$v; mkdir -p /tmp/tma-$v
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
  rm -rf "$E"
  cd - >/dev/null ;;
esac; done
