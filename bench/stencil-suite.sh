#!/bin/sh
# bench/stencil-suite.sh - issue 25, item 5: AN5D's benchmark suite (the
# CGO 2020 artifact, github.com/khaki3/AN5D-Artifact) next to gk on the same
# shapes, coefficients, grid sizes, step counts and element types, one table.
#
#   sh bench/stencil-suite.sh AN5D_DIR GK_PREFIX OUTDIR
#
# AN5D_DIR   an unpacked AN5D-Artifact, or a tarball of one (never in the
#            repository: fetch it into an ignored folder; only common.h and
#            compiled/ are read).  The
#            script copies what it builds to $WORK and patches the copy, never
#            AN5D_DIR.
# GK_PREFIX  where gk is: an installed prefix (GK_PREFIX/bin/gk) or a build
#            tree (GK_PREFIX/gk).
# OUTDIR     the table (table.md), results.csv and every log.
#
# For each benchmark (bench/stencil-suite/README.md says where each comes
# from) and each of float and double:
#  - AN5D: the artifact's generated CUDA (compiled/<type>/<bench>-<config>_
#    {host,kernel}.cu, "Tuned" code), built here with nvcc for sm_90 with the
#    artifact's own flags (--use_fast_math -Xptxas -v -O3 -Xcompiler -fopenmp,
#    and -maxrregcount so that the block launches: see build_an5d), run as
#    the artifact runs it (compiled/run.sh: -s 16384 in 2D, -s 512 in 3D,
#    -t 1000).  The artifact picks the best variant by measuring the top five
#    configurations of its performance model (compiled/{v100,p100}_<type>.csv)
#    and keeping the fastest; here the first AN5D_TOP (default 1) of the V100
#    model's ranking that the artifact ships, best measured kept.  Its timer:
#    host wall clock (CLOCK_MONOTONIC_RAW) from after the upload and a
#    cudaDeviceSynchronize to after the last kernel and a second one:
#    kernels only, "Average: X GFLOPS, Y ms" over -n runs.
#  - gk: `gk stencil --dims --shape --radius --type --boundary=fixed
#    --coeffs=bench/stencil-suite/<bench>.weights --size --steps --json`,
#    its "compute" phase (CUDA events around the steps: kernels only).
#  Both GStencil/s count the points updated: compsize^d per step (AN5D's grid
#  is compsize + 2r per axis with the outer r cells fixed; gk runs the same
#  grid with --boundary=fixed).  AN5D's GStencil/s = its GFLOPS / BENCH_FPP.
#
# Environment:
#   SUITE_ONLY=ERE   run only the benchmarks whose "name.type" matches (grep -E),
#                    e.g. 'star3d|box2d1r.float'
#   AN5D_TOP=N       AN5D variants per benchmark, 1..5 (default 1)
#   AN5D_REPS=N      timed AN5D runs per variant, its -n (default 1; the
#                    artifact used 5)
#   GK_REPS=N        gk runs per benchmark, best kept (default 1)
#   STEPS=N          time steps (default 1000, the artifact's)
#   MODE=all|build|an5d|gk  all (default): build AN5D in the background while
#                    gk's rows run, then AN5D's rows; build: only compile AN5D
#                    (no GPU needed); an5d, gk: one side only
#   JOBS=N           parallel nvcc (default: the number of CPUs, less 2 with
#                    MODE=all)
#   ARCH=N           CUDA architecture (default 90)
#   BUDGET_S=N       stop starting new runs after N seconds (default 450); the
#                    rows not run say "skipped"
#   WORK=DIR         build directory (default /tmp/an5d-suite)
#   GK_EXTRA='...'   more `gk stencil` options (e.g. --verbose)
# OUTDIR gets table.md (the table, also printed), results.csv, suite.log,
# gk-configs.txt (the configuration each gk row ran), an5d.*.log and gk.*.log
# (every run's output), nvcc-ptxas.txt (registers and spills of each AN5D
# kernel) and nvcc-failed/ (the log of any variant that did not build).
set -u
if [ $# -ne 3 ]; then
    echo "usage: $0 AN5D_DIR GK_PREFIX OUTDIR" >&2
    exit 2
fi
AN5D=$1 GKP=$2 OUTD=$3
HERE=$(cd "$(dirname "$0")" && pwd)
WDIR=$HERE/stencil-suite
MODE=${MODE:-all}
TOP=${AN5D_TOP:-1}
AREPS=${AN5D_REPS:-1}
GREPS=${GK_REPS:-1}
STEPS=${STEPS:-1000}
JOBS_SET=${JOBS:-}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
ARCH=${ARCH:-90}
BUDGET_S=${BUDGET_S:-450}
WORK=${WORK:-/tmp/an5d-suite}
ONLY=${SUITE_ONLY:-.}
START=$(date +%s)

die() { echo "stencil-suite: $*" >&2; exit 1; }
mkdir -p "$OUTD" "$WORK" || die "cannot create $OUTD or $WORK"
# A tarball of the artifact's files (what the GPU machine gets carried: the
# generated CUDA compresses 20x) is unpacked into $WORK/an5d first.
# MODE=gk reads nothing of the artifact: AN5D_DIR may be "-"
if [ "$MODE" = gk ]; then :
elif [ -f "$AN5D" ]; then
    rm -rf "$WORK/an5d" && mkdir -p "$WORK/an5d" && tar xf "$AN5D" -C "$WORK/an5d" ||
        die "$AN5D: cannot unpack"
    AN5D=$WORK/an5d
    [ -f "$AN5D/common.h" ] || AN5D=$(dirname "$(find "$WORK/an5d" -name common.h | head -1)")
fi
if [ "$MODE" != gk ]; then
    [ -f "$AN5D/common.h" ] && [ -d "$AN5D/compiled/float" ] ||
        die "$AN5D: not an AN5D-Artifact tree (no common.h or compiled/float)"
fi
case $TOP in [1-5]) ;; *) die "AN5D_TOP=$TOP: want 1..5" ;; esac
GK=
if [ "$MODE" != build ] && [ "$MODE" != an5d ]; then
    if [ -x "$GKP/bin/gk" ]; then GK=$GKP/bin/gk
    elif [ -x "$GKP/gk" ]; then GK=$GKP/gk
    else die "$GKP: no bin/gk or gk there"; fi
fi
OUTD=$(cd "$OUTD" && pwd)
LOG=$OUTD/suite.log
: >"$LOG"
say() { echo "$*" | tee -a "$LOG"; }
elapsed() { echo $(( $(date +%s) - START )); }

# name dims shape radius FPP (FPP: the artifact's BENCH_FPP, flops per point)
SUITE="star2d1r 2 star 1 9
star2d2r 2 star 2 17
star2d3r 2 star 3 25
star2d4r 2 star 4 33
box2d1r 2 box 1 17
box2d2r 2 box 2 49
box2d3r 2 box 3 97
box2d4r 2 box 4 161
star3d1r 3 star 1 13
star3d2r 3 star 2 25
star3d3r 3 star 3 37
star3d4r 3 star 4 49
box3d1r 3 box 1 53
box3d2r 3 box 2 249
box3d3r 3 box 3 685
box3d4r 3 box 4 1457
j2d5pt 2 star 1 10
j2d9pt 2 star 2 18
j2d9pt-gol 2 box 1 18
j3d27pt 3 box 1 54
gradient2d 2 - 1 19"

# AN5D's configurations for BENCH TYPE, the V100 model's order, the first
# AN5D_TOP that the artifact ships (its double/ folder holds only the
# configurations of the float rankings: compiled/nvcc_compile_top5.sh reads
# the float lists for both types).  Names as compiled/run.sh builds them.
configs() {
    awk -F, -v b="$1" '$1 == b {
        if ($3 == "") print $1 "-" $2 "-" $4 "-" $5; else print $1 "-" $2 "x" $3 "-" $4 "-" $5 }' \
        "$AN5D/compiled/v100_$2.csv" |
    while read -r c; do
        [ -f "$AN5D/compiled/$2/${c}_host.cu" ] && echo "$c"
    done | head -n "$TOP"
}

# ---- 1. build the AN5D variants (in parallel) ----
# Fix-ups for a 2026 toolkit, on the copy: none are needed for the kernels
# to compile with CUDA 13 as generated.  They have no __launch_bounds__, so a
# block of bS1 (2D) or bS1 x bS2 (3D) threads launches only if its registers
# fit the SM's 64K ("too many resources requested for launch" otherwise):
# the artifact swept -maxrregcount 0/32/64/96 (all.sh) for this; here each
# variant gets the largest limit its block can launch with (64 for 1024
# threads, 128 for 512, 255 for 256), which binds only when it would
# otherwise not run.  common.h's warm-up runs the full
# problem once, unrecorded: here it runs 10 steps of a smaller grid (1024^2,
# 128^3) instead, enough to create the context and load every kernel (with
# CUDA_MODULE_LOADING=EAGER), and saves a full run per variant.  The timed
# runs are the artifact's.
build_an5d() {
    mkdir -p "$WORK/src" "$WORK/bin" || return 1
    sed -e 's/kernel_stencil(A, compsize, timestep, true));$/kernel_stencil(A, BENCH_DIM == 2 ? 1024 : 128, 10, true));/' \
        "$AN5D/common.h" >"$WORK/src/common.h"
    grep -q 'BENCH_DIM == 2 ? 1024 : 128, 10, true' "$WORK/src/common.h" ||
        { say "common.h: the warm-up line was not found; left as it is"; cp "$AN5D/common.h" "$WORK/src/common.h"; }
    : >"$WORK/jobs"
    echo "$SUITE" | while read -r name dims shape r fpp; do
        for t in float double; do
            echo "$name.$t" | grep -Eq -- "$ONLY" || continue
            for c in $(configs "$name" "$t"); do
                mkdir -p "$WORK/src/$t"
                for s in _host.cu _kernel.cu _kernel.hu; do
                    [ -f "$WORK/src/$t/$c$s" ] || cp "$AN5D/compiled/$t/$c$s" "$WORK/src/$t/" || exit 1
                done
                # threads per block: bS1 in 2D, bS1 x bS2 in 3D
                thr=$(echo "${c#"$name"-}" | awk -F- '{ split($1, b, "x"); print b[1] * (b[2] ? b[2] : 1) }')
                reg=$((65536 / thr)); [ $reg -gt 255 ] && reg=255
                [ -x "$WORK/bin/$c.$t" ] ||
                    echo "$(wc -c <"$WORK/src/$t/${c}_kernel.cu") $t $c $reg" >>"$WORK/jobs"
            done
        done
    done || return 1
    # the biggest sources (the longest compiles) first
    sort -rn "$WORK/jobs" | cut -d' ' -f2- >"$WORK/jobs.sorted"
    n=$(wc -l <"$WORK/jobs")
    NVCC=nvcc
    command -v nvcc >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
    say "== building $n AN5D variants for sm_$ARCH with $JOBS jobs ($("$NVCC" --version | tail -1))"
    t0=$(date +%s)
    # one nvcc per variant; a failure leaves no binary and its log says why
    SUITE_ARCH=$ARCH SUITE_NVCC=$NVCC xargs -r -P "$JOBS" -L 1 sh -c 'cd "$0/src/$1" && "$SUITE_NVCC" -D SB_TYPE=$1 -gencode=arch=compute_$SUITE_ARCH,code=sm_$SUITE_ARCH \
        --use_fast_math -Xptxas -v -maxrregcount=$3 -O3 -Xcompiler -fopenmp -I"$0/src" "$2"_host.cu "$2"_kernel.cu -o "$0/bin/$2.$1.tmp" \
        >"$0/bin/$2.$1.log" 2>&1 && mv "$0/bin/$2.$1.tmp" "$0/bin/$2.$1" || echo "nvcc failed: $1 $2 (see $0/bin/$2.$1.log)"' \
        "$WORK" <"$WORK/jobs.sorted" | tee -a "$LOG"
    say "== built in $(( $(date +%s) - t0 )) s"
    # ptxas's registers and spills per kernel; the whole log of a failure
    for f in "$WORK"/bin/*.log; do
        [ -f "$f" ] || continue
        b=${f%.log}
        if [ -x "$b" ]; then
            echo "== ${b##*/}"; grep -E 'registers|spill' "$f" | sed 's/^ptxas info *: *//' | sort | uniq -c
        else
            mkdir -p "$OUTD/nvcc-failed" && cp "$f" "$OUTD/nvcc-failed/"
        fi
    done >"$OUTD/nvcc-ptxas.txt"
    return 0
}

# ---- 2. run ----
# AN5D: prints "gst config" of the best variant, or "failed -"
run_an5d() {   # name type dims size fpp
    best=0 bestc=-
    for c in $(configs "$1" "$2"); do
        b=$WORK/bin/$c.$2
        lg=$OUTD/an5d.$c.$2.log
        if [ ! -x "$b" ]; then echo "no binary" >"$lg"; continue; fi
        CUDA_MODULE_LOADING=EAGER "$b" -s "$4" -t "$STEPS" -n "$AREPS" >"$lg" 2>&1
        # Average: X GFLOPS, Y ms -> points updated per second
        g=$(awk -v n="$4" -v d="$3" -v t="$STEPS" '/^Average:/ { ms = $4;
              if (ms > 0) printf "%.2f", (d == 2 ? n * n : n * n * n) * t / (ms * 1e6) }' "$lg")
        [ -n "$g" ] || continue
        if awk -v a="$g" -v b="$best" 'BEGIN { exit !(a > b) }'; then best=$g bestc=${c#"$1"-}; fi
    done
    if [ "$bestc" = - ]; then echo "failed -"; else echo "$best $bestc"; fi
}

# gk: prints the best GStencil/s over GK_REPS runs (interior points), or failed
run_gk() {   # name type dims shape r size
    ext=$(( $6 + 2 * $5 ))
    sz=${ext}x$ext
    [ "$3" = 3 ] && sz=${ext}x${ext}x$ext
    gt=f32; [ "$2" = double ] && gt=f64
    lg=$OUTD/gk.$1.$2.log
    : >"$lg"
    best=0 i=0
    while [ $i -lt "$GREPS" ]; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        "$GK" stencil --device=gpu --dims="$3" --shape="$4" --radius="$5" --type=$gt --boundary=fixed \
            --coeffs="$WDIR/$1.weights" --size="$sz" --steps="$STEPS" --json ${GK_EXTRA:-} >"$lg.json" 2>>"$lg"
        rc=$?
        cat "$lg.json" >>"$lg"
        [ $rc = 0 ] || continue
        s=$(tr -d ' \n' <"$lg.json" | sed -n 's/.*"seconds":{[^}]*"compute":\([0-9.eE+-]*\).*/\1/p')
        g=$(awk -v s="$s" -v n="$6" -v d="$3" -v t="$STEPS" 'BEGIN { if (s > 0)
              printf "%.2f", (d == 2 ? n * n : n * n * n) * t / s * 1e-9 }')
        [ -n "$g" ] || continue
        if awk -v a="$g" -v b="$best" 'BEGIN { exit !(a > b) }'; then
            best=$g
            echo "$1 $2: $(sed -n 's/.*"config":"\([^"]*\)".*/\1/p' "$lg.json")" >"$lg.config"
        fi
    done
    [ -f "$lg.config" ] && cat "$lg.config" >>"$OUTD/gk-configs.txt"
    rm -f "$lg.json" "$lg.config"
    if [ "$best" = 0 ]; then echo failed; else echo "$best"; fi
}

say "== stencil-suite $(date -u) on $(uname -n): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
say "   AN5D_TOP=$TOP AN5D_REPS=$AREPS GK_REPS=$GREPS STEPS=$STEPS MODE=$MODE SUITE_ONLY=$ONLY"
RES=$WORK/results
rm -rf "$RES" && mkdir -p "$RES" || die "cannot create $RES"
BUILD_PID=
case $MODE in
build | an5d) build_an5d || die "the AN5D build failed" ;;
all)    # nvcc on all but two CPUs while gk's rows run: only gk's host side
        # (set-up, NVRTC, grid generation) shares the CPUs, its timed phase is
        # CUDA events on the GPU; the AN5D rows start once the build is done
        [ -z "${JOBS_SET:-}" ] && [ "$JOBS" -gt 3 ] && JOBS=$((JOBS - 2))
        build_an5d >"$WORK/build.out" 2>&1 &
        BUILD_PID=$! ;;
gk) ;;
*) die "MODE=$MODE: want all, build, an5d or gk" ;;
esac
[ "$MODE" = build ] && { say "== build only: done in $(elapsed) s"; exit 0; }
[ -n "$GK" ] && say "   gk: $GK ($("$GK" --version 2>/dev/null | head -1))"

# one phase (gk or an5d) over the selected rows: $RES/NAME.TYPE.PHASE
rows() {
    echo "$SUITE" | while read -r name dims shape r fpp; do
        for t in float double; do
            echo "$name.$t" | grep -Eq -- "$ONLY" || continue
            size=16384; [ "$dims" = 3 ] && size=512
            f=$RES/$name.$t.$1
            [ -f "$f" ] && continue                 # done in the first pass
            if [ "$1" = an5d ] && [ "${2:-}" = ready ]; then
                ready=1                             # every variant built already?
                for c in $(configs "$name" "$t"); do [ -x "$WORK/bin/$c.$t" ] || ready=0; done
                [ $ready = 1 ] || continue
            fi
            if [ "$(elapsed)" -ge "$BUDGET_S" ]; then
                echo "skipped -" >"$f"
            elif [ "$1" = an5d ]; then
                run_an5d "$name" "$t" "$dims" "$size" "$fpp" >"$f"
            elif [ "$shape" = - ]; then
                echo "n/a" >"$f"
            else
                run_gk "$name" "$t" "$dims" "$shape" "$r" "$size" >"$f"
            fi
            say "   $name $t $1: $(cat "$f")  [$(elapsed) s]"
        done
    done
}
[ "$MODE" = all ] || [ "$MODE" = gk ] && rows gk
if [ -n "$BUILD_PID" ]; then
    # the rows whose variants are built, while the longest compiles finish
    rows an5d ready
    wait "$BUILD_PID" || die "the AN5D build failed"
    grep -E '^== built|nvcc failed' "$WORK/build.out"
fi
[ "$MODE" = all ] || [ "$MODE" = an5d ] && rows an5d

CSV=$OUTD/results.csv
echo "benchmark,type,size,steps,an5d_gstencil_s,an5d_config,gk_gstencil_s,gk_over_an5d" >"$CSV"
echo "$SUITE" | while read -r name dims shape r fpp; do
    for t in float double; do
        echo "$name.$t" | grep -Eq -- "$ONLY" || continue
        size=16384; [ "$dims" = 3 ] && size=512
        a="- -"; g=-
        [ -f "$RES/$name.$t.an5d" ] && a=$(cat "$RES/$name.$t.an5d")
        [ -f "$RES/$name.$t.gk" ] && g=$(cut -d' ' -f1 "$RES/$name.$t.gk")
        set -- $a
        ratio=$(awk -v a="$1" -v g="$g" 'BEGIN { if (a + 0 > 0 && g + 0 > 0) printf "%.2f", g / a; else print "-" }')
        echo "$name,$t,$size,$STEPS,$1,$2,$g,$ratio" >>"$CSV"
    done
done

# ---- 3. the table ----
{
    echo "AN5D suite on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(date -u +%F)," \
         "$STEPS steps; GStencil/s = updated points (compsize^d) x steps / kernel time"
    echo
    echo "| benchmark | type | size | steps | AN5D best GStencil/s | AN5D config (bS1[xbS2]-bT-sl) | gk GStencil/s | gk / AN5D |"
    echo "|---|---|---|---|---:|---|---:|---:|"
    tail -n +2 "$CSV" | awk -F, '{ sz = ($1 ~ /3d/) ? $3 "^3" : $3 "^2";
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, sz, $4, $5, $6, $7, $8 }'
} >"$OUTD/table.md"
cat "$OUTD/table.md"
say "== done in $(elapsed) s"
