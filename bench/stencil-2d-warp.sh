#!/bin/sh
# bench/stencil-2d-warp.sh [GK] - the 2D warp design (DESIGN=1): steps per
# pass T up to 8, input rows loaded PF rows ahead, PX points per lane
# (below the radius: x neighbours from lanes further away), on the AN5D
# suite's 2D stars and boxes (fixed boundary, SIZE^2, 100 steps, median of
# 3); every row checked bit for bit against the CPU by gk bench (TSTEPS in
# --config: the T-step kernel alone).  The kernels are compiled first, in
# parallel, into the cache directory (a small grid, not timed), so the
# timed runs load them (a source of T steps per pass compiles T kernels:
# the whole 1..8 x PF x PX space takes NVRTC most of an hour).  About 3
# minutes on an H200 at SIZE=8192.  The figures behind DESIGN=1's defaults
# (src/core/space_stencil_gen.c, warp_default) and
# bench/stencil-suite-results.md, "Rows in flight".
set -u
GK=${1:-./gk}
JOBS=${JOBS:-14}
SIZE=${SIZE:-16384}          # the suite's 16384^2; 8192^2 (past the L2 too) is 4x quicker
# LIST=FILE: the descriptions and configurations from FILE (the same
# format as below: bench/stencil-2d-skew.txt, the stages one row apart)
list() {
    # description  configurations (DESIGN=1 and these), one T each
    if [ -n "${LIST:-}" ]; then grep -v '^#' "$LIST"; else builtin; fi | while read -r d cs; do
        for c in $cs; do echo "--stencil=2d-$d --config=DESIGN=1,$c"; done
    done
}
builtin() {
    cat <<'L'
star-r1:fixed:f32 TSTEPS=4,PF=1 TSTEPS=4,PF=2 TSTEPS=6,PF=2 TSTEPS=8,PF=2 TSTEPS=8,PF=3 TSTEPS=4,PX=8,PF=2
star-r1:fixed:f64 TSTEPS=4,PF=1 TSTEPS=4,PF=2 TSTEPS=6,PF=2 TSTEPS=6,PX=2,PF=2 TSTEPS=8,PX=2,PF=2
box-r1:fixed:f32 TSTEPS=4,PF=1 TSTEPS=4,PF=2 TSTEPS=6,PF=2 TSTEPS=8,PF=2
box-r1:fixed:f64 TSTEPS=4,PF=2 TSTEPS=6,PF=2
star-r2:fixed:f32 TSTEPS=4,PF=1 TSTEPS=4,PF=2 TSTEPS=6,PF=2 TSTEPS=6,PX=2,PF=2
star-r2:fixed:f64 TSTEPS=2,PF=1 TSTEPS=2,PF=2 TSTEPS=3,PF=2 TSTEPS=4,PX=2,PF=2
box-r2:fixed:f32 TSTEPS=4,PF=2 TSTEPS=3,PF=2 TSTEPS=4,PX=2,PF=2
box-r2:fixed:f64 TSTEPS=2,PF=2 TSTEPS=3,PX=2,PF=2
star-r3:fixed:f32 TSTEPS=3,PF=1 TSTEPS=3,PF=2 TSTEPS=4,PX=2,PF=2
star-r3:fixed:f64 TSTEPS=2,PF=2 TSTEPS=3,PX=2,PF=2 TSTEPS=2,PX=1,PF=2
star-r4:fixed:f32 TSTEPS=2,PF=2 TSTEPS=3,PX=2,PF=2 TSTEPS=4,PX=2,PF=2
star-r4:fixed:f64 TSTEPS=1,PF=1 TSTEPS=1,PF=2 TSTEPS=2,PX=2,PF=2 TSTEPS=2,PX=1,PF=2
box-r3:fixed:f32 TSTEPS=2,PF=2 TSTEPS=3,PX=2,PF=2
box-r3:fixed:f64 TSTEPS=2,PF=2 TSTEPS=2,PX=2,PF=2
box-r4:fixed:f32 TSTEPS=2,PF=2 TSTEPS=2,PX=2,PF=2
box-r4:fixed:f64 TSTEPS=1,PF=2 TSTEPS=2,PX=2,PF=2
L
}
# compile every kernel in parallel
list | xargs -P "$JOBS" -I{} sh -c "\"$GK\" bench stencil --device=gpu --sizes=256 --steps=2 --reps=1 {} >/dev/null 2>&1"
[ "${WARMONLY:-0}" = 1 ] && exit 0          # the kernels compiled, nothing timed
list | while read -r a b; do
    echo "== $a $b"
    "$GK" bench stencil --device=gpu --sizes="$SIZE" --steps=100 --reps=3 $a $b 2>&1 | grep -E "gen T=|FAIL|rror"
done
