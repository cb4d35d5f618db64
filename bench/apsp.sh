#!/bin/sh
# bench/apsp.sh - rerun the APSP benchmark: the CPU (blocked vs plain loop)
# and, where a GPU is usable, the GPU kernel vs the classic baseline and the
# min-plus ceiling.  Run from a build directory; results: bench/apsp-results.md.
set -e
GK=${GK:-./gk}
"$GK" info | sed -n '/^CPU/,/^Tuning/p'
"$GK" bench apsp --device=cpu --sizes="${CPU_SIZES:-1024,2048}"
if ! "$GK" info | grep -q '^  none:'; then
  "$GK" bench apsp --device=gpu --sizes="${GPU_SIZES:-4096,16384,25000}"
fi
