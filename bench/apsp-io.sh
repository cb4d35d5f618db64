#!/bin/sh
# bench/apsp-io.sh - issue 14: `gk apsp --time --verbose` on the NTHU-style
# dense case (V = 25000, E = 6.25 M, weights <= 1000): twice
# --precision=32, twice auto (the 16-bit path), each with the whole
# process's wall time (and, with /usr/bin/time, its peak resident memory:
# the host V x V matrix, 2.5 GB, or not); each output compared (cmp) with
# run 1's and removed; `sync` between runs so each write starts with no
# dirty data behind it.
#
#   bench/apsp-io.sh GK [DIR]
#
# DIR: a local disk with 6 GB free.  Results: bench/apsp-results.md.
GK=${1:-gk}
DIR=${2:-/tmp}
now() { date +%s.%N; }
echo "== $(date -u) $(uname -n); uptime: $(uptime)"
"$GK" gen apsp --vertices=25000 --edges=6250000 --max-weight=1000 --seed=14 "$DIR/aio.in" || exit 1
cat "$DIR/aio.in" >/dev/null
TIME=
[ -x /usr/bin/time ] && TIME="/usr/bin/time -f %e_s_wall_%M_KB_max_RSS"
i=0
for p in 32 auto 32 auto; do
  i=$((i + 1))
  sync
  echo "== run $i: gk apsp --time --verbose --precision=$p"
  t0=$(now); $TIME "$GK" apsp --time --verbose --precision=$p "$DIR/aio.in" "$DIR/aio.$i.out"; rc=$?; t1=$(now)
  awk -v a="$t0" -v b="$t1" -v rc="$rc" 'BEGIN { printf "whole process wall %.3f s (exit %d)\n", b - a, rc }'
  if [ $i -gt 1 ]; then
    cmp "$DIR/aio.$i.out" "$DIR/aio.1.out" >/dev/null && echo "identical: run $i == run 1" || echo "DIFFERENT: run $i"
    rm -f "$DIR/aio.$i.out"
  fi
done
rm -f "$DIR"/aio.*.out "$DIR/aio.in"
