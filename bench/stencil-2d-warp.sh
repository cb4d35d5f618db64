#!/bin/sh
# bench/stencil-2d-warp.sh [GK] - the 2D warp design (DESIGN=1): steps per
# pass T = 1..8, input rows loaded PF rows ahead, PX points per lane (below
# the radius: x neighbours from lanes further away), on the AN5D suite's
# 2D stars and boxes (fixed boundary, 16384^2, 100 steps, median of 3);
# every row checked bit for bit against the CPU by gk bench (with DESIGN=1
# named, gk bench --stencil times T = 1..8, each the T-step kernel).  The
# kernels are compiled first, in parallel, into the cache directory (a
# small grid, not timed), so the timed runs load them.  About 8 minutes on
# an H200.  The figures behind DESIGN=1's defaults (src/core/space_stencil_gen.c,
# warp_default) and bench/stencil-suite-results.md, "Rows in flight".
set -u
GK=${1:-./gk}
JOBS=${JOBS:-12}
SIZE=${SIZE:-16384}          # the suite's 16384^2; 8192^2 (past the L2 too) is 4x quicker
list() {
    for r in 1 2 3 4; do for sh in star box; do for t in f32 f64; do
        for c in PX=4,PF=1 PX=4,PF=2 PX=2,PF=2; do
            echo "--stencil=2d-$sh-r$r:fixed:$t --config=DESIGN=1,$c"
        done
        [ $r -ge 3 ] && echo "--stencil=2d-$sh-r$r:fixed:$t --config=DESIGN=1,PX=1,PF=2"
        [ $r = 1 ] && [ $t = f32 ] && echo "--stencil=2d-$sh-r$r:fixed:$t --config=DESIGN=1,PX=8,PF=2"
    done; done; done
}
# compile every kernel (each T row is its own source) in parallel
list | xargs -P "$JOBS" -I{} sh -c "\"$GK\" bench stencil --device=gpu --sizes=256 --steps=2 --reps=1 {} >/dev/null 2>&1"
[ "${WARMONLY:-0}" = 1 ] && exit 0          # the kernels compiled, nothing timed
list | while read -r a b; do
    echo "== $a $b"
    "$GK" bench stencil --device=gpu --sizes="$SIZE" --steps=100 --reps=3 $a $b 2>&1 | grep -E "gen T=|FAIL|rror"
done
