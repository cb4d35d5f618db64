#!/bin/sh
# bench/stencil-loader.sh - issue 13, fourth round: the plane loaders without
# index tests (the padded layout of stencil_gpu.c holds every address a tile
# reads), A/B of stencil.cu variants, one-step sweeps, gktune and the bench.
# On a GPU machine, from a built tree (run in its build directory: the
# source is found through the Makefile's srcdir, or SRC=dir); logs to $OUT
# (or /tmp).  PARTS selects: sass ab sweep tests tune bench
#   sass   static opcode counts of gk_stencil_temporal2 and gk_stencil_stream
#          (configuration $B below: the 512 entry before this round), this
#          source against $OLD (an older stencil.cu, if given), compiled by
#          nvcc; needs cuobjdump
#   ab     for each file V in $VARIANTS (stencil.cu variants): rebuild gk
#          with it, time each of $ABCFGS twice; the tree's own source is put
#          back at the end (also on an interrupt)
#   sweep  gk stencil --size=512 --steps=96 --time --config=C for each C
#          of $CFGS (default: SET=temporal or SET=onestep below; kernel
#          time, one run each)
#   tests  the GPU stencil tests (make check TESTS=...)
#   tune   gktune --kernels=stencil at 256 and 512 into a fresh cache
#          (BUDGET seconds), then gk bench stencil at 512 with that cache
#   bench  gk bench stencil --sizes=512 --steps=100 --config=C for each C
#          of $BENCHCFGS
out=${OUT:-/tmp}
GK=${GK:-./gk}
export GK_CACHE_DIR=${GK_CACHE_DIR:-/tmp/gk-loader-cache}
PARTS=${PARTS:-"sass sweep"}
SRC=${SRC:-$(sed -n 's/^srcdir = //p' Makefile 2>/dev/null)}
SRC=${SRC:-..}
CU="$SRC/src/gpu/stencil.cu"
[ -f "$CU" ] || { echo "stencil-loader.sh: no $CU (run it in a build directory, or set SRC)" >&2; exit 1; }
. "$(dirname "$0")/stencil-parts.sh"
SET=${SET:-temporal}
B="DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=4,ZC=256,UNROLL=1,PREFETCH=2,RX=2,ASYNC=1,MINB=0,RING=1"
S="DESIGN=1,BX=64,BY=2,RY=4,RX=2,ASYNC=1"
case $SET in
temporal) DEFCFGS="
$B
DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2,RING=1
DESIGN=2,TSTEPS=3,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=1,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=128,UNROLL=1,RING=1
DESIGN=1,BX=32,BY=16,RY=4,RX=2,ASYNC=1,PREFETCH=2,MINB=0,ZC=256
DESIGN=1,BX=64,BY=2,RY=4,RX=2,ASYNC=1,MINB=0,ZC=128
DESIGN=1,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=64
DESIGN=1,BX=128,BY=2,RY=2,ZC=64,UNROLL=2,MAXRREG=64,PREFETCH=2,RX=2,ASYNC=1,MINB=0
" ;;
onestep) DEFCFGS="
$S,MINB=0,ZC=128
$S,MINB=4,ZC=128
$S,MINB=5,ZC=128
$S,MINB=0,ZC=96
$S,MINB=0,ZC=192
$S,MINB=0,ZC=256
$S,MINB=0,ZC=128,UNROLL=2
$S,MINB=4,ZC=128,PREFETCH=2
DESIGN=1,BX=64,BY=2,RY=4,RX=2,ASYNC=0,MINB=0,ZC=128
DESIGN=1,BX=32,BY=4,RY=4,RX=2,ASYNC=1,MINB=0,ZC=128
DESIGN=1,BX=32,BY=4,RY=4,RX=2,ASYNC=1,MINB=4,ZC=128
DESIGN=1,BX=64,BY=4,RY=2,RX=2,ASYNC=1,MINB=2,ZC=128
DESIGN=1,BX=64,BY=4,RY=2,RX=2,ASYNC=1,MINB=3,ZC=128
DESIGN=1,BX=32,BY=8,RY=2,RX=2,ASYNC=1,MINB=3,ZC=128
DESIGN=1,BX=128,BY=2,RY=4,RX=2,ASYNC=1,MINB=0,ZC=128
DESIGN=1,BX=128,BY=2,RY=4,RX=2,ASYNC=1,MINB=2,ZC=128
" ;;
esac
ABCFGS=${ABCFGS:-"$B
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=128,UNROLL=1,RING=1
$S,MINB=0,ZC=128
$S,MINB=0,ZC=128,PREFETCH=2
DESIGN=1,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=64
DESIGN=1,BX=64,BY=4,RY=4,RX=2,ASYNC=1,MINB=0,ZC=128
DESIGN=1,BX=128,BY=1,RY=8,RX=2,ASYNC=1,MINB=0,ZC=128
DESIGN=1,BX=64,BY=2,RY=8,RX=2,ASYNC=1,MINB=0,ZC=128"}
for p in $PARTS; do case $p in
sass)
  CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
  [ -n "$CUOBJ" ] || { echo "sass: no cuobjdump (the CUDA toolkit's bin/)"; continue; }
  F=$(echo "$B,MAXRREG=0" | tr ',' '\n' | sed 's/^/-D/' | tr '\n' ' ')
  for src in "$CU" $OLD; do
    nvcc -arch=sm_90 -O3 $F --cubin -o /tmp/sass.cubin "$src" || continue
    for k in gk_stencil_temporal2 gk_stencil_stream; do
      "$CUOBJ" -sass -fun $k /tmp/sass.cubin > "$out/sass-$k-$(basename $src).txt"
      echo "== $src $k: $(grep -cE '^ +/\*[0-9a-f]{4}\*/' "$out/sass-$k-$(basename $src).txt") instructions; opcodes:"
      grep -oE '^ +/\*[0-9a-f]{4}\*/ +(@!?U?P[0-9T] +)?[A-Z][A-Z0-9_.]*' "$out/sass-$k-$(basename $src).txt" | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -16 | tr '\n' ' '; echo
    done
  done ;;
ab)
  [ -n "$VARIANTS" ] || { echo "ab: set VARIANTS to the stencil.cu files to compare"; continue; }
  cp "$CU" /tmp/stencil-own.cu
  trap 'cp /tmp/stencil-own.cu "$CU"; make -j16 gk >/dev/null 2>&1; exit 1' INT TERM
  for v in $VARIANTS; do
    cp "$v" "$CU" && make -j16 gk >/dev/null 2>&1 || echo "build with $v failed"
    export GK_CACHE_DIR=/tmp/gk-ab-$(basename $v)     # (the loop is a subshell)
    for rep in 1 2; do for c in $ABCFGS; do
      echo "$(basename $v) $rep $c $(stencil_timed "$c")"
    done; done
  done | tee "$out/ab.log"
  cp /tmp/stencil-own.cu "$CU" && make -j16 gk >/dev/null 2>&1
  trap - INT TERM ;;
sweep)
  : > "$out/sweep.log"
  for c in ${CFGS:-$DEFCFGS}; do
    printf '%-52s %s\n' "$c" "$(stencil_timed "$c")" >> "$out/sweep.log"
  done
  echo "sweep at ${SWEEP_SIZE:-512}^3, nt=96 (gk stencil --time, kernel time, one run each)"; cat "$out/sweep.log" ;;
tests)
  stencil_tests "$out" ;;
tune)
  stencil_tune "$out" "${TUNESIZES:-stencil=256,512}" "${BUDGET:-200}" ;;
bench)
  [ -n "$BENCHCFGS" ] || echo "bench: set BENCHCFGS to the configurations to bench"
  for c in $BENCHCFGS; do
    echo "gk bench stencil --sizes=512 --steps=100 --config=$c:"
    timeout 150 "$GK" bench stencil --sizes=512 --steps=100 --config="$c" 2>&1 | tee -a "$out/bench.log"
  done ;;
esac; done
