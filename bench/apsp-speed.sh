#!/bin/sh
# bench/apsp-speed.sh - issue 14 (APSP speed): the whole-process phase table
# of `gk apsp --time` on the NTHU-style dense case (V = 25000, E = V^2/100 =
# 6.25 M, weights <= 1000) for --precision=32 and auto, before (GK_BEFORE,
# optional: a build of main) and after; `gk bench apsp` (the int32 kernel,
# the 16-bit path, both ceilings); the 16-bit kernel's variants; the CPU rows.
#
#   bench/apsp-speed.sh GK [DIR] [GK_BEFORE]
#
# DIR must be on a local disk with 6 GB free (input 75 MB, outputs 2.5 GB
# each, removed as soon as compared).  Results: bench/apsp-results.md.
# STEPS (default "gpu cpu") picks the parts; SIZES the GPU bench sizes;
# VARIANTS the 16-bit kernel's --config variants to bench at 16384 (none: skip).
# STEPS=lookahead: `gk bench apsp --sizes=$SIZES` with the lookahead off
# (GK_APSP_LOOKAHEAD=0), on (the default, twice), and on with phases 3-5 in
# gk_apsp_minplus instead of gk_apsp_mp3 (GK_APSP_MP3=0); LVARIANTS: int32
# --config variants benched the same way (none: skip).
# STEPS=final: `gk bench apsp --sizes=$SIZES` once (built-in defaults).
GK=${1:-gk}
DIR=${2:-/tmp}
BEFORE=${3:-}
STEPS=${STEPS:-gpu cpu}
SIZES=${SIZES:-16384,25000}
V=25000
E=6250000

now() { date +%s.%N; }
wall() {  # wall LABEL CMD...: run, print the whole process's wall time
  label=$1; shift
  t0=$(now); "$@"; rc=$?; t1=$(now)
  awk -v a="$t0" -v b="$t1" -v l="$label" -v rc="$rc" 'BEGIN { printf "%s: whole process wall %.3f s (exit %d)\n", l, b - a, rc }'
}

echo "== $(date -u) $(uname -n); uptime: $(uptime)"
"$GK" info 2>&1 | head -20

for step in $STEPS; do
case $step in
gpu)
  echo "== input: gk gen apsp --vertices=$V --edges=$E --max-weight=1000 --seed=14"
  "$GK" gen apsp --vertices=$V --edges=$E --max-weight=1000 --seed=14 "$DIR/apsp-speed.in" || exit 1
  cat "$DIR/apsp-speed.in" >/dev/null    # in the page cache for every run alike
  for bin in ${BEFORE:+before} after; do
    g=$GK; [ $bin = before ] && g=$BEFORE
    for p in 32 auto 32 auto; do
      if [ $bin = before ]; then
        [ $p = auto ] && continue
        echo "== $bin: gk apsp --time --verbose (main: int32 only)"
        wall "$bin" "$g" apsp --time --verbose "$DIR/apsp-speed.in" "$DIR/apsp-speed.$bin.out"
      else
        echo "== $bin: gk apsp --time --verbose --precision=$p"
        wall "$bin precision=$p" "$g" apsp --time --verbose --precision=$p "$DIR/apsp-speed.in" "$DIR/apsp-speed.$bin.$p.out"
      fi
    done
  done
  for f in "$DIR"/apsp-speed.*.out; do
    cmp "$f" "$DIR/apsp-speed.after.32.out" >/dev/null && echo "identical: $(basename "$f")" || echo "DIFFERENT: $(basename "$f")"
  done
  rm -f "$DIR"/apsp-speed.*.out "$DIR/apsp-speed.in"
  echo "== gk bench apsp --sizes=$SIZES"
  "$GK" bench apsp --sizes="$SIZES"
  [ "${VARIANTS:-}" = none ] && VARIANTS=" "
  for v in ${VARIANTS:-APSP16_TW=8 APSP16_BK=32}; do
    echo "== gk bench apsp --sizes=16384 --config=$v (16-bit kernel variant; NVRTC)"
    "$GK" bench apsp --sizes=16384 --config="$v"
  done
  ;;
final)
  echo "== gk bench apsp --sizes=$SIZES ($(date -u +%T))"
  "$GK" bench apsp --sizes="$SIZES"
  ;;
lookahead)
  for la in 0 default default mp3off; do
    echo "== GK_APSP_LOOKAHEAD=$la gk bench apsp --sizes=$SIZES ($(date -u +%T))"
    case $la in
    default) "$GK" bench apsp --sizes="$SIZES" ;;
    mp3off) GK_APSP_MP3=0 "$GK" bench apsp --sizes="$SIZES" ;;
    *) GK_APSP_LOOKAHEAD=$la "$GK" bench apsp --sizes="$SIZES" ;;
    esac
  done
  [ "${LVARIANTS:-}" = none ] && LVARIANTS=" "
  for v in ${LVARIANTS:-APSP_BK=16,APSP_UNROLL=16 APSP_TM=4,APSP_TN=16}; do
    echo "== gk bench apsp --sizes=$SIZES --config=$v (lookahead on; NVRTC) ($(date -u +%T))"
    "$GK" bench apsp --sizes="$SIZES" --config="$v"
  done
  ;;
cpu)
  echo "== CPU: gk bench apsp --device=cpu --sizes=2048,4000; uptime: $(uptime)"
  "$GK" bench apsp --device=cpu --sizes=2048,4000
  echo "uptime after: $(uptime)"
  ;;
esac
done
