#!/bin/sh
# The GPU rows of issue 26 (bench/sssp-results.md), run from a built tree:
#   1. tests/bench_sssp_gpu road 1000000 1000: 1000 sources of the road-like
#      graph in memory, the GPU backend against gk's CPU Dijkstra on every
#      core of the same machine, rows compared byte for byte (target: >= 5x);
#   2. the same through the command line, end to end: `gk gen apsp
#      --kind=road`, `gk apsp --sources=@FILE` on the GPU and on the CPU, the
#      rows to /dev/null, --json's compute seconds;
#   3. all sources of the 100 000-vertex road graph on the GPU (Dijkstra)
#      against gk's Floyd-Warshall on the same graph (the 16-bit path), both
#      writing the V x V result to /dev/null (target: faster than FW).
# Usage: sh bench/sssp-gpu.sh BUILD_DIR OUTDIR [skip-fw]
set -u
B=${1:?build dir}; O=${2:?output dir}; SKIP_FW=${3:-}
mkdir -p "$O"
GK="$B/gk"
export NCCL_NVLS_ENABLE=0
echo "== 1. in memory: tests/bench_sssp_gpu road 1000000 1000"
"$B/tests/bench_sssp_gpu" road 1000000 1000 2>&1 | tee "$O/bench-road-1000.txt"
echo "== 2. the command line"
"$GK" gen apsp --kind=road --vertices=1000000 --seed=1 "$O/road1m.gr"
python3 -c 'import random; r = random.Random(7); print("\n".join(str(r.randrange(1000000)) for _ in range(1000)))' > "$O/src1000"
for dev in gpu cpu; do
  "$GK" apsp --device=$dev --sources=@"$O/src1000" --json "$O/road1m.gr" /dev/null > "$O/cli-$dev.json" 2>"$O/cli-$dev.err"
  echo "$dev: $(python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(j["algorithm"], j["device"], "compute %.3f s" % j["seconds"]["compute"], "wall %.3f s" % j["wall"])' "$O/cli-$dev.json" 2>&1)"
done
echo "== 3. all sources of the 100 000-vertex road graph"
"$GK" gen apsp --kind=road --vertices=100000 --seed=1 "$O/road100k.gr"
"$GK" apsp --device=gpu --algorithm=dijkstra --sources=0-99855 --json "$O/road100k.gr" /dev/null > "$O/all-gpu.json" 2>"$O/all-gpu.err"
echo "gpu dijkstra, every source: $(python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print("compute %.3f s" % j["seconds"]["compute"], "wall %.3f s" % j["wall"])' "$O/all-gpu.json" 2>&1)"
if [ -z "$SKIP_FW" ]; then
  "$GK" apsp --device=gpu --json "$O/road100k.gr" /dev/null > "$O/all-fw.json" 2>"$O/all-fw.err"
  echo "gpu floyd-warshall: $(python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print("compute %.3f s" % j["seconds"]["compute"], "precision", j["precision"])' "$O/all-fw.json" 2>&1)"
fi
