#!/bin/sh
# cuda-startup.sh - time CUDA's start and exit as a gk process meets them
# (bench/cuda-startup.cu; see bench/apsp-results.md).  Needs nvcc.
#   sh bench/cuda-startup.sh [OUTDIR]
set -e
dir=$(dirname "$0"); out=${1:-/tmp}
nvcc -O2 -o "$out/cuda-startup" "$dir/cuda-startup.cu"
nvidia-smi --query-gpu=name,persistence_mode,driver_version --format=csv,noheader || true
for round in 1 2 3; do
    for mode in free keep reset quick; do
        s=$(date +%s.%N)
        "$out/cuda-startup" $mode > "$out/cs.txt"
        e=$(date +%s.%N)
        leave=$(sed -n 's/^leaving main at //p' "$out/cs.txt")
        awk -v s="$s" -v e="$e" -v l="$leave" -v r=$round -v m=$mode 'BEGIN { printf "== round %d mode %s: process wall %.4f s, exit (after main) %.4f s\n", r, m, e - s, e - l }'
        grep -v '^leaving' "$out/cs.txt"
    done
done
