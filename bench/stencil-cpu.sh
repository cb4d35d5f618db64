#!/bin/sh
# bench/stencil-cpu.sh - rerun the CPU stencil benchmark of bench/stencil-results.md
# ("CPU, issue 13").
# Usage: bench/stencil-cpu.sh [GK]   (GK defaults to ./gk in the build directory)
# Prints the machine (CPU model, cores, uptime), then RUNS (default 3) calls of
# `gk bench stencil --device=cpu` at SIZES (default 256) with REPS (default 5)
# timed runs of STEPS (default 10) steps per design, each call preceded by its
# uptime: the plain reference loop, the one-step sweep with each instruction set
# the CPU has, the temporal sweeps (T = 2..4), against the copy floor measured
# in the same call.  Then the end-to-end command of the issue (`gk stencil
# --device=cpu --size=256 --steps=10 --time`: allocation, first touch and the
# default T included).  Timings on a shared machine vary by 2x: keep the best
# call and the load it ran under.  OMP_NUM_THREADS picks the threads.
# MICRO=1 (from a build directory, gcc): also bench/stencil-cpu-micro.c (FMA
# chains, the AVX-512 row kernel in L2 and L3, one thread's sweeps).
set -e
GK=${1:-./gk}
RUNS=${RUNS:-3}
grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
echo "CPUs: $(nproc); OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
i=0
while [ "$i" -lt "$RUNS" ]; do
  i=$((i + 1))
  echo "run $i: $(uptime)"
  "$GK" bench stencil --device=cpu --sizes="${SIZES:-256}" --steps="${STEPS:-10}" --reps="${REPS:-5}"
done
echo "end to end: $(uptime)"
"$GK" stencil --device=cpu --size="${SIZE:-256}" --steps=10 --time
[ "${MICRO:-0}" = 1 ] || exit 0
src=$(dirname "$0")/..
${CC:-gcc} -O2 -fopenmp -I"$src/src" -I"$src/include" -I. "$src/bench/stencil-cpu-micro.c" .libs/libgk_impl.a -lm \
  -o stencil-cpu-micro
echo "micro-benchmarks: $(uptime)"
OMP_NUM_THREADS=1 ./stencil-cpu-micro
