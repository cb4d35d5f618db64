#!/bin/sh
# bench/stencil-ring.sh - on a GPU machine, from a built tree (run in the
# build directory): the GPU stencil tests, an ncu profile of the T = 2 kernel
# (shipped overlapped tiles against RING=1 exact tiles) and the one-step
# kernel, a sweep of RING=1 configurations at 512^3 (gk stencil --time,
# nt = 96, one run each, NVRTC), and gk bench stencil at 512^3 with the
# shipped table and with the RING=1 configuration named in RINGCFG.
# Logs go to $OUT (or /tmp).  PARTS selects: tests ncu stalls sweep bench
# (stalls: ncu stall reasons and instruction mix of the configurations in
# STALLCFGS).
out=${OUT:-/tmp}
GK=${GK:-./gk}
export GK_CACHE_DIR=${GK_CACHE_DIR:-/tmp/gk-ring-cache}
PARTS=${PARTS:-"tests ncu sweep bench"}
S="DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,MINB=2,PREFETCH=1"
SHIPPED="$S,ZC=128,UNROLL=2"
RINGBEST=${RINGBEST:-"DESIGN=2,TSTEPS=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1,MINB=1,ZC=256,UNROLL=2,RING=1"}
RINGCFG=${RINGCFG:-"TSTEPS=2,BX=32,BY=8,RY=4,ZC=128,UNROLL=2,RX=2,ASYNC=1,MINB=2,PREFETCH=1,RING=1"}
for p in $PARTS; do case $p in
tests)
  t0=$(date +%s)
  make -j16 check TESTS="${TESTS:-tests/test_stencil_gpu_rx tests/test_stencil_gpu tests/test_spaces tests/test_stencil_multi_gpu tests/test_stencil_cli.sh}" > "$out/check.log" 2>&1
  echo "check rc=$? ($(( $(date +%s) - t0 )) s)"; grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR)' "$out/check.log"
  cp tests/test_stencil*.log tests/test_spaces.log "$out/" 2>/dev/null
  grep -h '^not ok' tests/test_stencil*.log tests/test_spaces.log | head -20 ;;
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
    r=$(timeout 60 "$GK" stencil --size=${SWEEP_SIZE:-512} --steps=96 --device=gpu --time --config="$c" 2>&1 | grep 'GStencil' | sed 's/.*steps on gpu: //')
    printf '%-52s %s\n' "$c" "$r" >> "$out/sweep.log"
  done
  echo "sweep at ${SWEEP_SIZE:-512}^3, nt=96 (gk stencil --time, kernel time, one run each)"; cat "$out/sweep.log" ;;
bench)
  echo "gk bench stencil, shipped table:"
  timeout 150 "$GK" bench stencil --sizes=512 --steps=100 2>&1 | tee "$out/bench-shipped.log"
  echo "gk bench stencil --config=$RINGCFG:"
  timeout 150 "$GK" bench stencil --sizes=512 --steps=100 --config="$RINGCFG" 2>&1 | tee "$out/bench-ring.log" ;;
esac; done
