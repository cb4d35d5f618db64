#!/bin/sh
# bench/stencil-split.sh - issue 27, fourth round: the 27-point box's RING=1
# kernels with SPLIT=1 (no block barrier in the plane loop: two mbarriers,
# every thread arriving after a plane's stage 1 and after its last stage
# and waiting for all at the next plane's top and before its stage 2)
# against SPLIT=0, on a GPU machine with an sm_90 GPU (the TMA path), in a
# built tree (`./configure --with-cuda-arch=90 && make`, then run
# `sh bench/stencil-split.sh` in the build directory), e.g.
#   OUT=$(mktemp -d) PARTS="ab bench" sh bench/stencil-split.sh
# Logs go to $OUT (default: a new directory under /tmp, printed).  GK,
# REPS, CFGS, BENCHCFGS, NCUCFGS and SIZECFGS may be set to override the
# lists below; the ncu part needs Nsight Compute's ncu on the PATH.
# PARTS (default "ab bench") selects, in order:
#   ab     gk stencil --size=512 --steps=96 --time for each of CFGS with
#          SPLIT=0 then SPLIT=1, REPS rounds (kernel time, one run each;
#          the rounds of one call agreed within 1 %, calls on different
#          machines differ by up to 3 %)
#   bench  gk bench stencil --sizes=512 --steps=100 --config=C for each of
#          BENCHCFGS (median of 5, every row bit for bit against the CPU)
#   ncu    ncu of the first temporal launch (4 steps at 512^3)
#          for each of NCUCFGS with SPLIT=0 and 1
#   tune   gktune --kernels=stencil at 512 (150 s) and 256 (90 s), each
#          size in a fresh cache ($out/c512, $out/c256) with the tree's
#          shipped table competing (GK_DATA_DIR=data: how the shipped
#          entries were made), then gk bench stencil --sizes=512 --steps=100
#          with the 512 cache, with the built-in defaults and DESIGN=1
#   sizes  gk stencil --size=N --steps=STEPS --time, no table, for each of
#          SIZECFGS at 256, 384, 512, 768 and 1024 (candidates for the
#          built-in defaults)
out=${OUT:-$(mktemp -d /tmp/stencil-split.XXXXXX)}
echo "logs: $out"
GK=${GK:-./gk}
PARTS=${PARTS:-"ab bench"}
export NCCL_NVLS_ENABLE=0
A=DESIGN=2,RX=2,ASYNC=1,RING=1,UNROLL=1
CFGS=${CFGS:-"
$A,TSTEPS=2,BX=64,BY=8,RY=4,ZC=256,MINB=0,PREFETCH=1
$A,TSTEPS=2,BX=32,BY=8,RY=4,ZC=128,MINB=2,PREFETCH=1
$A,TSTEPS=2,BX=32,BY=8,RY=4,ZC=128,MINB=1,PREFETCH=2
$A,TSTEPS=2,BX=32,BY=16,RY=2,ZC=256,MINB=0,PREFETCH=1
$A,TSTEPS=3,BX=32,BY=16,RY=2,ZC=512,MINB=1,PREFETCH=1
$A,TSTEPS=3,BX=32,BY=8,RY=4,ZC=256,MINB=1,PREFETCH=1
$A,TSTEPS=4,BX=32,BY=8,RY=4,ZC=256,MINB=1,PREFETCH=1
"}
BENCHCFGS=${BENCHCFGS:-"$A,TSTEPS=2,BX=64,BY=8,RY=4,ZC=256,MINB=0,PREFETCH=1,SPLIT=1
$A,TSTEPS=2,BX=32,BY=8,RY=4,ZC=128,MINB=2,PREFETCH=1,SPLIT=1"}
NCUCFGS=${NCUCFGS:-"$A,TSTEPS=2,BX=64,BY=8,RY=4,ZC=256,MINB=0,PREFETCH=1
$A,TSTEPS=3,BX=32,BY=16,RY=2,ZC=512,MINB=1,PREFETCH=1"}
SIZECFGS=${SIZECFGS:-"DESIGN=2,TSTEPS=2
DESIGN=2,TSTEPS=2,SPLIT=1
DESIGN=2,TSTEPS=2,BX=64,BY=8,RY=4,ZC=256,MINB=0,SPLIT=1
DESIGN=2,TSTEPS=2,BX=64,BY=8,RY=4,ZC=128,MINB=0,SPLIT=1"}
for p in $PARTS; do case $p in
ab)
  for rep in $(seq "${REPS:-2}"); do for c in $CFGS; do for s in 0 1; do
    o=$(timeout 60 "$GK" stencil --size=512 --steps=96 --device=gpu --time --config="$c,SPLIT=$s" 2>&1 \
        | grep GStencil | sed 's/.*gpu: //;s/, [0-9.]* GFLOP.*//')
    echo "$rep SPLIT=$s $c ${o:-failed}"
  done; done; done | tee "$out/split-ab.txt" ;;
bench)
  for c in $BENCHCFGS; do
    timeout 150 "$GK" bench stencil --sizes=512 --steps=100 --config="$c" 2>&1
  done | tee "$out/split-bench.txt" ;;
ncu)
  for c in $NCUCFGS; do for s in 0 1; do
    echo "== $c,SPLIT=$s"
    timeout 200 ncu --kernel-name regex:gk_stencil_temporal --launch-count 1 --section SpeedOfLight \
      --section WarpStateStats \
      --metrics sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread \
      "$GK" stencil --size=512 --steps=4 --device=gpu --config="$c,SPLIT=$s" 2>&1 \
      | grep -v '^==PROF==' | grep -E 'Duration|Throughput|Busy|Stall|Cycles|Warp|sm__|smsp__|launch__|gk_stencil' 
  done; done > "$out/split-ncu.txt" 2>&1 ;;
tune)
  for n in 512 256; do
    C=$out/c$n; rm -rf "$C"; mkdir -p "$C"
    GK_CACHE_DIR=$C GK_DATA_DIR=$PWD/data "$GK"tune --kernels=stencil --sizes="stencil=$n" \
      --budget=$((n == 512 ? 150 : 90)) -q > "$out/gktune$n.log" 2>&1
    grep -h 'kernel=stencil' "$C"/tune-*.txt
  done
  GK_CACHE_DIR=$out/c512 GK_DATA_DIR=/tmp/none timeout 150 "$GK" bench stencil --sizes=512 --steps=100 2>&1 \
    | tee "$out/bench-tuned.txt"
  E=$(mktemp -d)
  for c in DESIGN=2,TSTEPS=2 DESIGN=1; do
    GK_CACHE_DIR=$E GK_DATA_DIR=/tmp/none timeout 100 "$GK" bench stencil --sizes=512 --steps=100 --config=$c 2>&1
  done | tee "$out/bench-defaults.txt"
  rm -rf "$E" ;;
sizes)
  E=$(mktemp -d)
  for n in 256 384 512 768 1024; do for c in $SIZECFGS; do
    st=$((n > 512 ? 24 : 96))
    o=$(GK_CACHE_DIR=$E GK_DATA_DIR=/tmp/none timeout 60 "$GK" stencil --size=$n --steps=$st --device=gpu --time \
        --config="$c" 2>&1 | grep GStencil | sed 's/.*gpu: //;s/, [0-9.]* GFLOP.*//')
    echo "$n $c ${o:-failed}"
  done; done | tee "$out/split-sizes.txt"
  rm -rf "$E" ;;
esac; done
