#!/bin/sh
# bench/elementwise.sh - the elementwise kernel at the report's shape on the
# GPU: `gk bench elementwise` (baseline, float4, tuned with the built-in or
# shipped configuration, ceiling; 8192x8192, 100 iterations, median of 5),
# the same with --config=SKIP=2 (the defaults but the tan queue), then
# gktune on a fresh cache for the elementwise kernel only (its wall time
# recorded), then the bench again with the configuration gktune chose, and a
# checked `gk elementwise` run.  CPU rows: bench/elementwise.sh cpu.
#   usage: bench/elementwise.sh [BUILD_DIR] [OUT_DIR] [TUNE_BUDGET_S]   (on the GPU machine)
#          bench/elementwise.sh cpu [BUILD_DIR]                          (CPU rows, any machine)
set -e
if [ "$1" = cpu ]; then
  B=${2:-.}
  uptime
  "$B/gk" bench elementwise --device=cpu --sizes=1024x1024,8192x1024 --iterations=100 --reps=3
  exit 0
fi
B=${1:-.}
O=${2:-.}
BUDGET=${3:-120}
mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$O/ew-gpu.txt" || true
echo "== gk bench elementwise (configuration before tuning)"
"$B/gk" bench elementwise --sizes=8192x8192 --iterations=100 --reps=5 | tee "$O/ew-bench-before.txt"
echo "== gk bench elementwise --config=SKIP=2 (the defaults, the block's tan queue)"
GK_CACHE_DIR=/tmp/gk-ew-nocache "$B/gk" bench elementwise --sizes=8192x8192 --iterations=100 --reps=5 \
  --config=SKIP=2 | tee "$O/ew-bench-skip2.txt"
echo "== gktune --kernels=elementwise --budget=$BUDGET (fresh cache)"
d=$(mktemp -d)
t0=$(date +%s.%N)
GK_CACHE_DIR=$d "$B/gktune" --kernels=elementwise --budget="$BUDGET" --json -q --csv="$O/ew-tune.csv" \
  >"$O/ew-tune.json" 2>"$O/ew-tune.err" || cat "$O/ew-tune.err"
t1=$(date +%s.%N)
echo "gktune elementwise: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s wall" | tee "$O/ew-tune.wall"
cp "$d"/tune-*.txt "$O/ew-tune.cache.txt" 2>/dev/null || true
cat "$O/ew-tune.cache.txt" 2>/dev/null || true
echo "== gk bench elementwise (gktune's configuration)"
GK_CACHE_DIR=$d "$B/gk" bench elementwise --sizes=8192x8192 --iterations=100 --reps=5 | tee "$O/ew-bench-after.txt"
echo "== gk elementwise --check --time"
GK_CACHE_DIR=$d "$B/gk" elementwise --size=8192x8192 --iterations=100 --check --time --verbose 2>&1 | tee "$O/ew-run.txt"
rm -rf "$d"
