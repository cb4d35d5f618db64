#!/bin/sh
# bench/sssp-cpu.sh - the CPU rows of issue 26 (bench/sssp-results.md): gk's
# shortest paths from chosen sources against scipy on the same graph.
# Usage, from a build directory: bench/sssp-cpu.sh [WORKDIR]
#   1. `gk gen apsp --kind=road --vertices=1000000` (V = 10^6, E ~ 4.04 M),
#      100 sources (minstd from seed 1, the same list on every machine):
#      `gk apsp --device=cpu --sources=@list` (best wall of RUNS, default 3,
#      output to /dev/null; one more run to a file whose every distance is
#      compared with scipy's) vs scipy.sparse.csgraph.dijkstra(indices=those
#      100) timed by bench/sssp-cpu.py on the graph it reads from the same file.
#   2. `--kind=road --vertices=100000`, all sources (S = V: a 40 GB int32
#      result, written to /dev/null as it is made), ALL=0 skips it; and where
#      Floyd-Warshall would be: V^3 / the rate of
#      `gk bench apsp --device=cpu --sizes=$FW_N` (default 4096).
# ONE=0 skips row 1, ALL=0 the all-sources run of row 2.
# Environment: GK (default ./gk), PYTHON (default /usr/bin/python3, with
# numpy and scipy), OMP_NUM_THREADS (default: every core).  Prints the rows;
# the machine's load is printed before each so that a shared machine shows.
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
GK=${GK:-./gk}
PY=${PYTHON:-/usr/bin/python3}
W=${1:-${TMPDIR:-/tmp}/gk-sssp-bench}
RUNS=${RUNS:-3}
mkdir -p "$W"
load() { echo "# load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"; }
json_num() { sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p"; }   # json_num KEY <JSON: the first number of KEY

echo "# $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) CPUs, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
echo "# $("$GK" --version | head -1); $("$PY" -c 'import scipy, numpy, sys; print("scipy", scipy.__version__, "numpy", numpy.__version__, "python", sys.version.split()[0])')"

# ---- 1. V = 10^6 road graph, 100 sources (ONE=0 skips it)
if [ "${ONE:-1}" = 1 ]; then
G1=$W/road1m.nthu
[ -s "$G1" ] || "$GK" gen apsp --kind=road --vertices=1000000 "$G1"
awk 'BEGIN { x = 1; for (i = 0; i < 100; i++) { x = (x * 48271) % 2147483647; print x % 1000000 } }' >"$W/list"
load
best=; bestc=
i=0
while [ "$i" -lt "$RUNS" ]; do
  i=$((i + 1))
  j=$("$GK" apsp --device=cpu --sources=@"$W/list" --json "$G1" /dev/null)
  wall=$(echo "$j" | json_num wall); comp=$(echo "$j" | json_num compute)
  echo "gk run $i: wall $wall s (read + solve + write), solve $comp s; $(echo "$j" | sed -n 's/.*"algorithm":"\([^"]*\)".*/\1/p')"
  best=$(awk -v a="$best" -v b="$wall" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
  bestc=$(awk -v a="$bestc" -v b="$comp" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
done
"$GK" apsp --device=cpu --sources=@"$W/list" "$G1" "$W/rows1m"
load
"$PY" "$src/bench/sssp-cpu.py" "$G1" "$W/list" "$W/rows1m" | tee "$W/scipy.txt"
rm -f "$W/rows1m"
sp=$(sed -n 's/^scipy_dijkstra //p' "$W/scipy.txt")
awk -v s="$sp" -v w="$best" -v c="$bestc" 'BEGIN {
  printf "V=1000000 road, 100 sources: gk %.2f s wall (best of runs; solve %.2f s), scipy dijkstra %.2f s: %.1fx (%.1fx solve to solve)\n", w, c, s, s / w, s / c }'
fi

# ---- 2. V = 10^5 road graph, all sources; Floyd-Warshall's projection
G2=$W/road100k.nthu
[ -s "$G2" ] || "$GK" gen apsp --kind=road --vertices=100000 "$G2"
if [ "${ALL:-1}" = 1 ]; then
  load
  j=$("$GK" apsp --device=cpu --algorithm=auto --json "$G2" /dev/null)
  echo "V=100000 road, all 100000 sources to /dev/null: $(echo "$j" | json_num wall) s wall, solve $(echo "$j" | json_num compute) s; $(echo "$j" | sed -n 's/.*"why":"\([^"]*\)".*/\1/p')"
fi
load
N=${FW_N:-4096}
j=$("$GK" bench apsp --device=cpu --sizes="$N" --json)
t=$(echo "$j" | json_num tmps); t16=$(echo "$j" | json_num tmps16)
awk -v t="$t" -v t16="$t16" -v n="$N" 'BEGIN { v = 1e5
  printf "Floyd-Warshall at V=%d (gk bench apsp --device=cpu --sizes=%d): %.1f G min-plus/s int32, %.1f G/s 16-bit -> V=100000 would take %.0f s (int32), %.0f s (16-bit), and needs a %.0f GB matrix\n",
    n, n, t * 1000, t16 * 1000, v * v * v / (t * 1e12), v * v * v / (t16 * 1e12), v * v * 4 / 1e9 }'
