#!/bin/sh
# bench/stencil-gen.sh [GK] [STEPS] [REPS] - the generated stencil engine on
# AN5D-suite-like descriptions (khaki3/AN5D-Artifact's shapes and sizes:
# 3D 512^3, 2D 16384^2; fixed boundaries, as AN5D's benchmarks keep their
# outer r cells) in float32 and float64: GStencil/s of T = 1..4 steps per
# pass and the percentage of the one-step memory floor measured in the same
# run.  AN5D runs 1000 steps; the default here is 100 (the rate per step is
# the same once the pipeline is full; the device time is not).
set -e
GK=${1:-./gk}
STEPS=${2:-100}
REPS=${3:-3}
for d in star3d1r:3d-star-r1 star3d4r:3d-star-r4 box3d1r:3d-box-r1 box3d2r:3d-box-r2 \
         star2d1r:2d-star-r1 box2d2r:2d-box-r2; do
    name=${d%%:*} desc=${d#*:}
    for t in f32 f64; do
        echo "## $name $t"
        "$GK" bench stencil --stencil="$desc:fixed:$t" --steps="$STEPS" --reps="$REPS" || echo "## FAILED: $name $t"
    done
done
