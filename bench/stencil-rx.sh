#!/bin/sh
# bench/stencil-rx.sh - on a GPU machine, from a built tree: the GPU tests of
# the RX/ASYNC kernel variants (TESTS=1: tests/test_stencil_gpu_rx; TESTS=2:
# and tests/test_stencil_gpu) and a sweep at 512^3 with nt = 96 (whole passes
# for every T = 1..4), one
# `gk stencil --time` run each (kernel time only; NVRTC for every
# configuration but the built-in defaults).  Logs go to $OUT (or /tmp); the
# table is printed last.  CFGS overrides the list (one per line).
# Usage: bench/stencil-rx.sh [GK]    (GK defaults to ./gk)
GK=${1:-./gk}
out=${OUT:-/tmp}
export GK_CACHE_DIR=${GK_CACHE_DIR:-/tmp/gk-sweep-cache}
t_list=""
[ "${TESTS:-1}" -ge 1 ] && t_list="test_stencil_gpu_rx"
[ "${TESTS:-1}" -ge 2 ] && t_list="$t_list test_stencil_gpu"
for t in $t_list; do
  if [ -x tests/$t ]; then
    s=$(date +%s)
    ./tests/$t > "$out/$t.log" 2>&1
    echo "$t: rc=$? $(grep -c '^ok' "$out/$t.log") ok, $(grep -c '^not ok' "$out/$t.log") not ok, $(($(date +%s) - s)) s"
    grep '^not ok' "$out/$t.log" | head -20
  fi
done
# SET=1: the first sweep (RX, ASYNC against the old kernels); SET=2: tile
# geometry for 512^3 (BX=33: a 66-wide tile stores 64 columns, 8 tiles
# across 512), MINB, ZC, T = 3/4 and the one-step kernels
SET1="
DESIGN=1
DESIGN=2,TSTEPS=2
DESIGN=1,ASYNC=1
DESIGN=1,ASYNC=1,PREFETCH=2
DESIGN=1,RX=2
DESIGN=1,RX=2,ASYNC=1
DESIGN=1,RX=2,ASYNC=1,PREFETCH=2
DESIGN=1,RX=2,RY=2,ASYNC=1,PREFETCH=2
DESIGN=1,BX=16,RX=2,ASYNC=1,PREFETCH=2
DESIGN=1,BY=16,RY=2,RX=2,ASYNC=1,PREFETCH=2
DESIGN=2,TSTEPS=2,ASYNC=1
DESIGN=2,TSTEPS=2,ASYNC=1,PREFETCH=2
DESIGN=2,TSTEPS=2,RX=2,RY=2
DESIGN=2,TSTEPS=2,RX=2,RY=2,ASYNC=1
DESIGN=2,TSTEPS=2,RX=2,RY=2,ASYNC=1,PREFETCH=2
DESIGN=2,TSTEPS=2,RX=2,RY=2,ASYNC=1,MAXRREG=80
DESIGN=2,TSTEPS=2,BY=16,RY=2,RX=2,ASYNC=1
DESIGN=2,TSTEPS=2,RX=2,RY=4,ASYNC=1
DESIGN=2,TSTEPS=2,RX=2,RY=4,ASYNC=1,ZC=128
DESIGN=2,TSTEPS=2,BX=16,RX=2,RY=4,ASYNC=1
DESIGN=2,TSTEPS=3,RX=2,RY=2,ASYNC=1
DESIGN=2,TSTEPS=3,BY=16,RY=2,RX=2,ASYNC=1
DESIGN=2,TSTEPS=4,BY=16,RY=2,RX=2,ASYNC=1
"
SET2="
DESIGN=2,TSTEPS=2,RX=2,RY=4,ASYNC=1,ZC=128
DESIGN=2,TSTEPS=2,RX=2,RY=4,ASYNC=1,ZC=64
DESIGN=2,TSTEPS=2,RX=2,RY=4,ASYNC=1,ZC=128,MINB=2
DESIGN=2,TSTEPS=2,BX=33,RX=2,RY=4,ASYNC=1,MINB=2,ZC=64
DESIGN=2,TSTEPS=2,BX=33,RX=2,RY=4,ASYNC=1,MINB=2,ZC=128
DESIGN=2,TSTEPS=2,BX=33,RX=2,RY=4,ASYNC=1,MINB=2,ZC=57
DESIGN=2,TSTEPS=2,BX=33,RX=2,RY=4,ASYNC=1,ZC=64
DESIGN=2,TSTEPS=2,BX=33,BY=17,RX=2,RY=2,ASYNC=1,ZC=64
DESIGN=2,TSTEPS=2,BX=33,BY=17,RX=2,RY=2,ASYNC=1,ZC=128
DESIGN=2,TSTEPS=2,BX=31,RX=2,RY=4,ASYNC=1,ZC=128
DESIGN=2,TSTEPS=2,BX=33,RX=2,RY=4,ASYNC=1,MINB=2,PREFETCH=2,ZC=64
DESIGN=2,TSTEPS=2,RX=2,RY=4,ASYNC=1,ZC=86
DESIGN=2,TSTEPS=2,RX=2,RY=4,ASYNC=1,ZC=256
DESIGN=2,TSTEPS=2,RX=2,RY=2,ASYNC=1,MINB=3,ZC=128
DESIGN=2,TSTEPS=2,RX=2,RY=4,ZC=128
DESIGN=2,TSTEPS=2,RX=2,RY=4,ZC=128,MINB=2
DESIGN=2,TSTEPS=3,BX=34,BY=16,RX=2,RY=2,ASYNC=1,ZC=128
DESIGN=2,TSTEPS=4,BX=35,BY=16,RX=2,RY=2,ASYNC=1,ZC=128
DESIGN=2,TSTEPS=4,BY=16,RX=2,RY=2,ASYNC=1,ZC=128
DESIGN=1,RX=2
DESIGN=1,RX=2,ZC=128
DESIGN=1,RX=2,ZC=32
DESIGN=1,RX=2,RY=2,MINB=3
DESIGN=1,RX=2,BY=4
DESIGN=1,RX=2,BX=64,BY=4
DESIGN=1,RX=2,UNROLL=2
DESIGN=1,RX=2,RY=2,ASYNC=1,MINB=3
DESIGN=1,RX=2,BY=4,RY=8,ASYNC=1
DESIGN=1,RX=2,ASYNC=1,MINB=2
"
# SET=3: around the new defaults (DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,
# ASYNC=1,MINB=2,ZC=64); "-" = the defaults themselves (the embedded fatbin)
SET3="
-
ZC=128
ZC=96
PREFETCH=2,ZC=128
MINB=0,ZC=128
BX=16,MINB=4,ZC=128
BY=4,RY=8,MINB=0,ZC=128
TSTEPS=3,BY=16,RY=2,MINB=0,ZC=128
TSTEPS=4,BY=16,RY=2,MINB=0,ZC=128
TSTEPS=3,MINB=0,ZC=128
DESIGN=1
DESIGN=1,ZC=32
DESIGN=1,RY=2,MINB=3
DESIGN=1,PREFETCH=2
"
# SET=4: the one-step kernel with wide, flat tiles (gktune's winner at 256^3:
# BX=128, BY=2, RY=2) at 512^3
SET4="
DESIGN=1,BX=128,BY=2,RY=2,UNROLL=2,MAXRREG=64,PREFETCH=2,MINB=0
DESIGN=1,BX=128,BY=2,RY=2,MINB=0
DESIGN=1,BX=128,BY=2,RY=2,MINB=2
DESIGN=1,BX=128,BY=2,RY=4,MINB=0
DESIGN=1,BX=128,BY=4,RY=2,MINB=0
DESIGN=1,BX=256,BY=1,RY=4,MINB=0
DESIGN=1,BX=256,BY=1,RY=2,MINB=0
DESIGN=1,BX=64,BY=4,RY=2,MINB=0
DESIGN=1,BX=64,BY=2,RY=4,MINB=0
DESIGN=1,BX=128,BY=1,RY=4,MINB=0
DESIGN=1,BX=128,BY=2,RY=2,PREFETCH=2,MINB=0
DESIGN=1,BX=128,BY=2,RY=2,ZC=128,MINB=0
"
case ${SET:-2} in 1) dflt=$SET1 ;; 3) dflt=$SET3 ;; 4) dflt=$SET4 ;; *) dflt=$SET2 ;; esac
CFGS=${CFGS:-$dflt}
: > "$out/sweep.log"
for c in $CFGS; do
  cc=$c; [ "$c" = - ] && cc=
  r=$("$GK" stencil --size=${SWEEP_SIZE:-512} --steps=96 --device=gpu --time ${cc:+--config="$cc"} 2>&1 | grep 'GStencil\|rror' | sed 's/.*steps on gpu: //')
  printf '%-52s %s\n' "$c" "$r" >> "$out/sweep.log"
done
echo "sweep at ${SWEEP_SIZE:-512}^3, nt=96 (gk stencil --time, kernel time; one run each)"
cat "$out/sweep.log"
