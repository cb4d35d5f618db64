#!/bin/sh
# bench/apsp-cpu-types.sh - rerun the CPU rows of bench/apsp-results.md for the
# element types of issue 24 ("CPU, every element type").
# Usage, from a build directory (gcc): bench/apsp-cpu-types.sh [BASE_BUILD_DIR]
# Builds bench/apsp-cpu-types.c against .libs/libgk_impl.a and prints, for each
# type in TYPES (default int32 int64 float32 float64) at N (default 3000): the
# blocked code, the blocked code with predecessors and the plain k-i-j loop
# (wall and CPU seconds), whether they agree; NEG=1 also with negative weights.
# With BASE_BUILD_DIR (an in-tree build of an older gk, e.g. `git archive` of main): its int32 blocked and 16-bit
# rows, alternating with this build's, RUNS (default 3) times each, so that a
# loaded machine shows in both alike.  OMP_NUM_THREADS picks the threads; on a
# shared machine compare CPU seconds with OMP_NUM_THREADS=1.
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-3000}
${CC:-gcc} -O2 -fopenmp -I"$src/src" -I"$src/include" -I. "$src/bench/apsp-cpu-types.c" .libs/libgk_impl.a -lm \
  -o apsp-cpu-types
${CC:-gcc} -O2 -fopenmp -DINT32_ONLY -I"$src/src" -I"$src/include" -I. "$src/bench/apsp-cpu-types.c" \
  .libs/libgk_impl.a -lm -o apsp-cpu-types-int32
grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
echo "CPUs: $(nproc); OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
for t in ${TYPES:-int32 int64 float32 float64}; do
  echo "$t: $(uptime)"
  ./apsp-cpu-types "$N" "$t"
  [ "${NEG:-0}" = 1 ] && NEG=1 ./apsp-cpu-types "$N" "$t"
done
[ -n "$1" ] || exit 0
here=$PWD
(cd "$1" && ${CC:-gcc} -O2 -fopenmp -DINT32_ONLY -Isrc -Iinclude -I. "$src/bench/apsp-cpu-types.c" .libs/libgk_impl.a \
  -lm -o "$here/apsp-cpu-types-base")
i=0
while [ "$i" -lt "${RUNS:-3}" ]; do
  i=$((i + 1))
  echo "base, run $i: $(uptime)"
  ./apsp-cpu-types-base "$N"
  echo "this build, run $i: $(uptime)"
  ./apsp-cpu-types-int32 "$N"
done
