#!/bin/sh
# bench/stencil-z-temporal.sh [GK] - the 3D z-streaming design (DESIGN=2)
# with temporal blocking: its thread layouts at T = 1..4 steps per pass on
# the AN5D suite's 3D shapes (fixed boundary, 512^3, 100 steps, median of
# 3), each row checked bit for bit against the CPU by gk bench.  The
# figures behind DESIGN=2's defaults (src/core/space_stencil_gen.c,
# z_default) and bench/stencil-suite-results.md, "Temporal blocking".
# One GPU; about 6 minutes on an H200.
set -u
GK=${1:-./gk}
B() {
    echo "== $*"
    "$GK" bench stencil --device=gpu --sizes=512 --steps=100 --reps=3 "$@" 2>&1 | grep -E "gen T=|floor "
}
L1="TX=64,TY=32,RX=2,RY=4,NT=256 TX=32,TY=32,RX=1,RY=4,NT=256 TX=32,TY=16,RX=1,RY=2,NT=256 TX=64,TY=16,RX=2,RY=2,NT=256"
for d in 3d-star-r1:fixed:f64 3d-box-r1:fixed:f64 3d-star-r1:fixed:f32 3d-box-r1:fixed:f32; do
    for l in $L1; do B --stencil=$d --config=DESIGN=2,$l; done
done
# the zero boundary against the fixed one (same kernel but the band)
B --stencil=3d-star-r1:zero:f64 --config=DESIGN=2,TX=32,TY=32,RX=1,RY=4,NT=256
B --stencil=3d-box-r1:zero:f32 --config=DESIGN=2,TX=64,TY=16,RX=2,RY=2,NT=256
for r in 2 3 4; do for sh in star box; do for t in f32 f64; do
    [ "$sh$r" = box4 ] && continue
    for l in TX=32,TY=16,RX=1,RY=2,NT=256 TX=32,TY=32,RX=1,RY=4,NT=256; do
        if [ $r = 2 ]; then B --stencil=3d-$sh-r$r:fixed:$t --config=DESIGN=2,$l
        else B --stencil=3d-$sh-r$r:fixed:$t --config=DESIGN=2,$l,TSTEPS=1; fi
    done
done; done; done
