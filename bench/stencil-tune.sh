#!/bin/sh
# bench/stencil-tune.sh - on a GPU machine, from a built tree: `gk bench
# stencil` with the built-in defaults (no tuning table), `gktune
# --kernels=stencil` within its default budget (wall time printed), then
# the bench again with the table gktune wrote; the table's stencil lines are
# left in $OUT/tune-stencil-lines.txt for data/tuned/.
# Usage: bench/stencil-tune.sh [SIZES]    (default 256,512; steps 100)
# TUNE_SIZES=512: gktune --sizes='stencil=512' (the search at 512^3 itself:
# by default gktune searches the smallest class and only re-times its best
# few on the larger ones); BENCH0=0: no bench before tuning.
sizes=${1:-256,512}
out=${OUT:-/tmp}
c=$(mktemp -d /tmp/gk-tune.XXXXXX)
[ "${BENCH0:-1}" = 1 ] && GK_CACHE_DIR=$c GK_DATA_DIR=/tmp/none ./gk bench stencil --sizes=$sizes --steps=100 2>&1 | tee "$out/bench-defaults.log"
s=$(date +%s)
GK_CACHE_DIR=$c ./gktune --kernels=stencil ${TUNE_SIZES:+--sizes="stencil=$TUNE_SIZES"} -q > "$out/gktune.log" 2>&1
echo "gktune --kernels=stencil: rc=$? wall $(($(date +%s) - s)) s"
tail -5 "$out/gktune.log"
cp "$c"/tune-*.txt "$out/" 2>/dev/null
grep -h 'kernel=stencil' "$c"/tune-*.txt | tee "$out/tune-stencil-lines.txt"
GK_CACHE_DIR=$c GK_DATA_DIR=/tmp/none ./gk bench stencil --sizes=$sizes --steps=100 2>&1 | tee "$out/bench-tuned.log"
