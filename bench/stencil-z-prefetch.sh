#!/bin/sh
# bench/stencil-z-prefetch.sh [GK] - the 3D z-streaming design (DESIGN=2):
# its input planes through registers (PF=1, one plane in flight) against
# asynchronous copies into a ring of shared planes (PF=2..4 planes in
# flight), on the AN5D suite's 3D shapes (fixed boundary, 512^3, 100 steps,
# median of 3), each description at its default layout; every row checked
# bit for bit against the CPU by gk bench (gk bench --stencil with TSTEPS=T
# in --config times the T-step kernel alone).  About 5 minutes on an H200.  The figures behind
# DESIGN=2's default PF (src/core/space_stencil_gen.c, z_default) and
# bench/stencil-suite-results.md, "Planes in flight".
set -u
GK=${1:-./gk}
B() {
    echo "== $*"
    "$GK" bench stencil --device=gpu --sizes=512 --steps=100 --reps=3 "$@" 2>&1 | grep -E "gen T=|FAIL|rror"
}
# one step per pass, PF = 1 and 3, every shape of the suite
for r in 1 2 3 4; do for sh in star box; do for t in f32 f64; do
    [ "$sh$r" = box4 ] && continue
    for pf in 1 3; do B --stencil=3d-$sh-r$r:fixed:$t --config=DESIGN=2,TSTEPS=1,PF=$pf; done
done; done; done
# radius 1, two and three steps per pass
for d in 3d-star-r1:fixed:f64 3d-box-r1:fixed:f64; do for pf in 1 3; do
    B --stencil=$d --config=DESIGN=2,TSTEPS=2,PF=$pf; B --stencil=$d --config=DESIGN=2,TSTEPS=3,PF=$pf
done; done
for d in 3d-star-r1:fixed:f32 3d-box-r1:fixed:f32; do for pf in 1 3; do
    B --stencil=$d --config=DESIGN=2,TSTEPS=3,PF=$pf
done; done
