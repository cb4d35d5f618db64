#!/bin/sh
# bench/stencil.sh - rerun the stencil benchmark of bench/stencil-results.md.
# Usage: bench/stencil.sh [GK]   (GK defaults to ./gk in the build directory)
# Prints `gk bench stencil` at 256^3 and 512^3 with nt = 100 (median of 5
# runs, each design checked against the CPU; the temporal design with
# T = 1..4, the one-step floor and the FMA ceiling), the CPU designs
# (`gk bench stencil --device=cpu`, 256^3), then a sweep of kernel
# configurations at 512^3 (one run each of `gk stencil --time`, nt = 96:
# whole passes for every T) unless SWEEP=0.  Needs a CUDA device; NVRTC
# for the sweep.
set -e
GK=${1:-./gk}
"$GK" info | sed -n '/^GPUs/,/^Tuning/p'
"$GK" bench stencil --sizes=${SIZES:-256,512} --steps=${STEPS:-100} --reps=${REPS:-5}
echo "CPU backend ($(nproc) CPUs):"
"$GK" bench stencil --device=cpu --sizes=256
[ "${SWEEP:-1}" = 0 ] && exit 0
echo "sweep at 512^3, nt=96 (gk stencil --time, one run each)"
for c in \
  DESIGN=1 DESIGN=2,TSTEPS=1 DESIGN=2,TSTEPS=2 DESIGN=2,TSTEPS=3 DESIGN=2,TSTEPS=4 \
  DESIGN=2,TSTEPS=2,ZC=128 DESIGN=2,TSTEPS=3,ZC=128 DESIGN=2,TSTEPS=2,BX=64,BY=4,RY=4 \
  DESIGN=2,TSTEPS=4,BX=64,BY=8,RY=4 DESIGN=2,TSTEPS=2,BX=32,BY=4,RY=8 DESIGN=0
do
  printf '%-36s ' "$c"
  "$GK" stencil --size=512 --steps=96 --device=gpu --time --config="$c" 2>&1 | sed 's/.*steps on gpu: //'
done
