#!/bin/sh
# bench/apsp-io.sh - issue 14: `gk apsp --time --verbose` on the NTHU-style
# dense case (V = 25000, E = 6.25 M, weights <= 1000) with device->host
# overlapped with the write and the GPU buffers made during the read:
# twice --precision=32, twice auto (the 16-bit path), each with the whole
# process's wall time; the outputs compared (cmp) and removed.
#
#   bench/apsp-io.sh GK [DIR]
#
# DIR: a local disk with 11 GB free.  Results: bench/apsp-speed-results.md.
GK=${1:-gk}
DIR=${2:-/tmp}
now() { date +%s.%N; }
echo "== $(date -u) $(uname -n); uptime: $(uptime)"
"$GK" gen apsp --vertices=25000 --edges=6250000 --max-weight=1000 --seed=14 "$DIR/aio.in" || exit 1
cat "$DIR/aio.in" >/dev/null
i=0
for p in 32 auto 32 auto; do
  i=$((i + 1))
  echo "== run $i: gk apsp --time --verbose --precision=$p"
  t0=$(now); "$GK" apsp --time --verbose --precision=$p "$DIR/aio.in" "$DIR/aio.$i.out"; rc=$?; t1=$(now)
  awk -v a="$t0" -v b="$t1" -v rc="$rc" 'BEGIN { printf "whole process wall %.3f s (exit %d)\n", b - a, rc }'
done
for i in 2 3 4; do
  cmp "$DIR/aio.$i.out" "$DIR/aio.1.out" >/dev/null && echo "identical: run $i == run 1" || echo "DIFFERENT: run $i"
done
rm -f "$DIR"/aio.*.out "$DIR/aio.in"
