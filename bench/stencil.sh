#!/bin/sh
# bench/stencil.sh - rerun the stencil benchmark of bench/stencil_results.md.
# Usage: bench/stencil.sh [GK]   (GK defaults to ./gk in the build directory)
# Prints `gk bench stencil` at 256^3 and 512^3 with nt = 100 (median of 5
# runs, each kernel checked against the CPU), then a sweep of kernel
# configurations at 512^3 (one run each of `gk stencil --time`) unless
# SWEEP=0.  Needs a CUDA device; NVRTC for the sweep.
set -e
GK=${1:-./gk}
"$GK" info | sed -n '/^GPUs/,/^Tuning/p'
"$GK" bench stencil --sizes=${SIZES:-256,512} --steps=${STEPS:-100} --reps=${REPS:-5}
echo "CPU backend ($(nproc) CPUs):"
"$GK" stencil --size=256 --steps=20 --device=cpu --time
"$GK" stencil --size=512 --steps=5 --device=cpu --time
[ "${SWEEP:-1}" = 0 ] && exit 0
echo "sweep at 512^3, nt=100 (gk stencil --time, one run each)"
for c in \
  DESIGN=1 DESIGN=1,RY=1 DESIGN=1,RY=4 DESIGN=1,BY=8 DESIGN=1,BY=2,RY=4 DESIGN=1,BY=8,RY=1 \
  DESIGN=1,BX=64,BY=4,RY=1 DESIGN=1,BX=64,BY=2,RY=2 DESIGN=1,BX=64,BY=2,RY=4 DESIGN=1,BX=128,BY=2,RY=1 \
  DESIGN=1,ZC=32 DESIGN=1,ZC=128 DESIGN=1,UNROLL=1 DESIGN=1,MAXRREG=96 \
  DESIGN=0 DESIGN=0,BY=8 DESIGN=0,BX=64,BY=4 DESIGN=0,RY=4
do
  printf '%-36s ' "$c"
  "$GK" stencil --size=512 --steps=100 --device=gpu --time --config="$c" 2>&1 | sed 's/.*steps on gpu: //'
done
