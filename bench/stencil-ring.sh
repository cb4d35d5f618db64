#!/bin/sh
# bench/stencil-ring.sh - on a GPU machine, from a built tree (run in the
# build directory): the GPU stencil tests, an ncu profile of the T = 2 kernel
# (shipped overlapped tiles against RING=1 exact tiles) and the one-step
# kernel, a sweep of RING=1 configurations at 512^3 (gk stencil --time,
# nt = 96, one run each, NVRTC), and gk bench stencil at 512^3 with the
# shipped table and with the RING=1 configuration named in RINGCFG.
# Logs go to $OUT (or /tmp).  PARTS selects: sass ab tests ncu stalls sweep tune
# benchbest bench (benchbest: gk bench stencil with the best T = 2 and T = 3
# configurations of the sweeps, RINGBEST and RINGBEST3)
# (sass: opcode counts of temporal2 of the kernel source and of $V1, the
# first RING version, compiled by nvcc; ab: the same configurations timed
# with both sources, the faster one is kept (rebuilt); tune: gktune at 512^3
# into a fresh cache, then gk bench stencil with it)
# (stalls: ncu stall reasons and instruction mix of the configurations in
# STALLCFGS).
out=${OUT:-/tmp}
. "$(dirname "$0")/stencil-parts.sh"
GK=${GK:-./gk}
export GK_CACHE_DIR=${GK_CACHE_DIR:-/tmp/gk-ring-cache}
PARTS=${PARTS:-"tests ncu sweep bench"}
S="DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,PREFETCH=1"
SHIPPED="$S,ZC=128,UNROLL=2"
RINGBEST=${RINGBEST:-"DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2,RING=1"}
RINGBEST3=${RINGBEST3:-"DESIGN=2,TSTEPS=3,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=1,RING=1"}
RINGCFG=${RINGCFG:-"TSTEPS=2,BX=32,BY=8,RY=4,ZC=128,UNROLL=2,RX=2,ASYNC=1,MINB=2,PREFETCH=1,RING=1"}
V1=${V1:-stencil-v1.cu}
AB=${AB:-"DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2,RING=1
DESIGN=2,TSTEPS=3,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=1,RING=1
DESIGN=2,TSTEPS=3,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=2,RX=2,ASYNC=1,MINB=2,ZC=256,UNROLL=2,RING=1"}
timeab() {   # $1: label; prints one line per AB configuration, the sum last
  tot=0
  for c in $AB; do
    g=$(SWEEP_SIZE=512 stencil_timed "$c")
    printf '%s %-70s %s\n' "$1" "$c" "$g"
    v=$(echo "$g" | sed -n 's/.*s, \([0-9.]*\) GStencil.*/\1/p'); tot=$(awk "BEGIN{print $tot + ${v:-0}}")
  done
  echo "$1 sum $tot"
}
for p in $PARTS; do case $p in
sass)
  CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
  F="-DDESIGN=2 -DTSTEPS=2 -DBX=32 -DBY=16 -DRY=2 -DZC=256 -DUNROLL=2 -DPREFETCH=1 -DRX=2 -DASYNC=1 -DMINB=1 -DRING=1"
  for src in ../src/gpu/stencil.cu "$V1"; do
    nvcc -arch=sm_90 -O3 --std=c++17 $F --cubin -o /tmp/sass.cubin "$src" && "$CUOBJ" -sass -fun gk_stencil_temporal2 /tmp/sass.cubin > "$out/sass-$(basename $src).txt"
    echo "== $src: opcodes of temporal2 (static)"
    grep -oE '^ +/\*[0-9a-f]{4}\*/ +(@!?U?P[0-9T] +)?[A-Z][A-Z0-9_.]*' "$out/sass-$(basename $src).txt" | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -14 | tr '\n' ' '; echo
  done ;;
ab)
  timeab v2 | tee "$out/ab.log"
  cp ../src/gpu/stencil.cu /tmp/stencil-v2.cu && cp "$V1" ../src/gpu/stencil.cu && make -j16 gk gktune >/dev/null 2>&1
  timeab v1 | tee -a "$out/ab.log"
  s2=$(sed -n 's/^v2 sum //p' "$out/ab.log"); s1=$(sed -n 's/^v1 sum //p' "$out/ab.log")
  if awk "BEGIN{exit !($s2 >= $s1)}"; then cp /tmp/stencil-v2.cu ../src/gpu/stencil.cu; echo "kept v2"; else echo "kept v1"; fi | tee -a "$out/ab.log"
  make -j16 >/dev/null 2>&1; make -j16 check TESTS= >/dev/null 2>&1 ;;
tune)
  stencil_tune "$out" 'stencil=512' "${BUDGET:-150}" ;;
tests)
  stencil_tests "$out" ;;
ncu)
  NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
  echo "ncu: ${NCU:-none}"
  if [ -n "$NCU" ]; then
    for c in "$SHIPPED" "$SHIPPED,RING=1" "DESIGN=1,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=64"; do
      k=gk_stencil_temporal2; case $c in DESIGN=1*) k=gk_stencil_stream;; esac
      timeout 90 "$NCU" --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
        --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        -k regex:$k -c 1 "$GK" stencil --size=512 --steps=2 --device=gpu --config="$c" > "$out/ncu-$k-$(echo "$c" | tr ',=' '_-').txt" 2>&1
      echo "ncu $c: rc=$?"
    done
  fi ;;
stalls)
  NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
  for c in ${STALLCFGS:-"$SHIPPED" "$RINGBEST"}; do
    k=gk_stencil_temporal$(echo "$c" | sed -n 's/.*TSTEPS=\([0-9]\).*/\1/p'); case $c in DESIGN=1*) k=gk_stencil_stream;; esac
    f="$out/stalls-$k-$(echo "$c" | tr ',=' '_-').txt"
    timeout 90 "$NCU" --section WarpStateStats --section InstructionStats --section SchedulerStats --print-details all \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      -k regex:$k -c 1 "$GK" stencil --size=512 --steps=4 --device=gpu --config="$c" > "$f" 2>&1
    echo "ncu stalls $c: rc=$?"
    grep -E 'stalled_.*ratio' "$f" | awk '$NF+0 > 0.05' | sort -k3 -rn | head -12
  done ;;
sweep)
  S16="DESIGN=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1"
  case ${SET:-1} in
  1) SETCFGS="
$SHIPPED
$SHIPPED,RING=1
$S,ZC=128,UNROLL=1,RING=1
$S,ZC=256,UNROLL=1,RING=1
$S,ZC=256,UNROLL=2,RING=1
$S,ZC=64,UNROLL=1,RING=1
$S,ZC=64,UNROLL=2,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=128,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=4,RX=2,ASYNC=1,MINB=1,ZC=128,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=4,RX=2,ASYNC=1,MINB=1,ZC=256,RING=1
DESIGN=2,TSTEPS=3,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=128,RING=1
DESIGN=2,TSTEPS=3,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=128,RING=1
DESIGN=2,TSTEPS=3,BX=32,BY=16,RY=4,RX=2,ASYNC=1,MINB=1,ZC=128,RING=1
DESIGN=2,TSTEPS=4,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=128,RING=1
DESIGN=1,BX=64,BY=2,RY=4,RX=2,ASYNC=1,MINB=0
DESIGN=1,BX=64,BY=2,RY=4,RX=2,ASYNC=1,MINB=0,ZC=256
DESIGN=1,BX=32,BY=4,RY=8,RX=2,ASYNC=1,MINB=2,ZC=128
" ;;
  3) SETCFGS="
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=128,UNROLL=1,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=128,UNROLL=2,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,ZC=256,UNROLL=1,RING=1
$S16,TSTEPS=2,MINB=1,ZC=256,UNROLL=2,RING=1
$S16,TSTEPS=3,MINB=1,ZC=256,UNROLL=1,RING=1
" ;;
  2) SETCFGS="
$S16,TSTEPS=2,MINB=0,ZC=128,UNROLL=2,RING=0
$S16,TSTEPS=2,MINB=0,ZC=256,UNROLL=2,RING=0
$S16,TSTEPS=2,MINB=0,ZC=256,UNROLL=2,RING=1
$S16,TSTEPS=2,MINB=1,ZC=256,UNROLL=2,RING=1
$S16,TSTEPS=2,MINB=1,ZC=256,UNROLL=1,RING=1
$S16,TSTEPS=2,MINB=1,ZC=128,UNROLL=2,RING=1
$S16,TSTEPS=2,MINB=1,ZC=512,UNROLL=2,RING=1
$S16,TSTEPS=2,MINB=1,ZC=256,UNROLL=4,RING=1
$S16,TSTEPS=2,MINB=1,ZC=256,UNROLL=2,PREFETCH=2,RING=1
$S16,TSTEPS=3,MINB=1,ZC=128,UNROLL=2,RING=1
$S16,TSTEPS=3,MINB=1,ZC=256,UNROLL=2,RING=1
$S16,TSTEPS=3,MINB=1,ZC=512,UNROLL=2,RING=1
$S16,TSTEPS=3,MINB=1,ZC=256,UNROLL=1,RING=1
$S16,TSTEPS=3,MINB=1,ZC=256,UNROLL=2,PREFETCH=2,RING=1
$S16,TSTEPS=4,MINB=1,ZC=256,UNROLL=2,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=2,RX=2,ASYNC=1,MINB=2,ZC=256,UNROLL=2,RING=1
DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=2,RX=2,ASYNC=1,MINB=2,ZC=128,UNROLL=2,RING=1
DESIGN=2,TSTEPS=3,BX=32,BY=8,RY=2,RX=2,ASYNC=1,MINB=2,ZC=256,UNROLL=2,RING=1
DESIGN=2,TSTEPS=2,BX=64,BY=8,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2,RING=1
DESIGN=1,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2
DESIGN=1,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=0,ZC=64
DESIGN=1,BX=64,BY=2,RY=4,RX=2,ASYNC=1,MINB=0,UNROLL=2
" ;;
  esac
  CFGS=${CFGS:-$SETCFGS}
  : > "$out/sweep.log"
  for c in $CFGS; do
    printf '%-52s %s\n' "$c" "$(stencil_timed "$c")" >> "$out/sweep.log"
  done
  echo "sweep at ${SWEEP_SIZE:-512}^3, nt=96 (gk stencil --time, kernel time, one run each)"; cat "$out/sweep.log" ;;
benchbest)
  for c in "$RINGBEST" "$RINGBEST3"; do
    echo "gk bench stencil --config=$c:"
    timeout 100 "$GK" bench stencil --sizes=512 --steps=100 --config="$c" 2>&1 | tee -a "$out/bench-best.log"
  done ;;
bench)
  echo "gk bench stencil, shipped table:"
  timeout 150 "$GK" bench stencil --sizes=512 --steps=100 2>&1 | tee "$out/bench-shipped.log"
  echo "gk bench stencil --config=$RINGCFG:"
  timeout 150 "$GK" bench stencil --sizes=512 --steps=100 --config="$RINGCFG" 2>&1 | tee "$out/bench-ring.log" ;;
esac; done
