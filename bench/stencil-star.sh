#!/bin/sh
# bench/stencil-star.sh - issue 27, third round: on a GPU machine, in a
# built tree (run in the build directory), the generated engine's 7-point
# float64 star (DESIGN=2, z-streaming with overlapped tiles) over tiles and
# steps per pass, what bounds it (ncu), and the classic engine's one-step
# kernels over tiles.  Logs go to $OUT (or /tmp).  PARTS selects, in order:
#   star     gk stencil --stencil=3d-star-r1 --size=512 --steps=96 --time
#            for the defaults and each of STARCFGS (kernel time, one run
#            each: differences under ~3 % are noise)
#   starncu  ncu of gk_sg_t* for each of STARNCU (6 steps at 512^3)
#   onestep  gk stencil --size=512 --steps=96 --time (the 27-point box) for
#            each of ONECFGS: DESIGN=1 and DESIGN=2 at T=1 over tiles
#   layouts  the generated engine's DESIGN=2 layouts of LAYCFGS (and the
#            defaults) for each description of LAYDESCS (kernel time)
#   ab       the generated engine's DESIGN=2, two builds: OLDGK (a gk built
#            from the commit before) and GK, runs alternating, REPS rounds,
#            each "description|configuration" of ABCFGS (kernel time)
out=${OUT:-/tmp}
GK=${GK:-./gk}
PARTS=${PARTS:-"star starncu onestep"}
Z="DESIGN=2,PF=3"
STARCFGS=${STARCFGS:-"
$Z,TX=32,TY=32,RY=4,NT=256,ZC=64,TSTEPS=2
$Z,TX=32,TY=32,RY=4,NT=256,ZC=64,TSTEPS=3
$Z,TX=32,TY=32,RY=4,NT=256,ZC=128,TSTEPS=3
$Z,TX=32,TY=32,RY=4,NT=256,ZC=64,TSTEPS=4
$Z,TX=64,TY=32,RX=2,RY=4,NT=256,ZC=64,TSTEPS=3
$Z,TX=64,TY=32,RX=2,RY=4,NT=256,ZC=64,TSTEPS=4
$Z,TX=64,TY=32,RX=1,RY=4,NT=512,ZC=64,TSTEPS=3
$Z,TX=64,TY=32,RX=1,RY=4,NT=512,ZC=64,TSTEPS=4
$Z,TX=32,TY=64,RY=8,NT=256,ZC=64,TSTEPS=3
$Z,TX=32,TY=64,RY=8,NT=256,ZC=64,TSTEPS=4
$Z,TX=32,TY=64,RY=4,NT=512,ZC=64,TSTEPS=4
$Z,TX=64,TY=64,RX=2,RY=8,NT=256,ZC=64,TSTEPS=4
DESIGN=2,PF=1,TX=64,TY=64,RX=2,RY=8,NT=256,ZC=64,TSTEPS=3
DESIGN=2,PF=2,TX=64,TY=32,RX=2,RY=4,NT=256,ZC=128,TSTEPS=4
"}
STARNCU=${STARNCU:-"$Z,TX=32,TY=32,RY=4,NT=256,ZC=64,TSTEPS=3 $Z,TX=64,TY=32,RX=2,RY=4,NT=256,ZC=64,TSTEPS=4"}
O="RX=2,ASYNC=1,MINB=0,UNROLL=1"
ONECFGS=${ONECFGS:-"
DESIGN=1,$O,BX=128,BY=1,RY=4,ZC=64
DESIGN=1,$O,BX=128,BY=1,RY=4,ZC=128
DESIGN=1,RX=2,ASYNC=1,BY=8,RY=4,BX=32,ZC=128,MINB=2,UNROLL=1
DESIGN=2,TSTEPS=1,RING=1,$O,BX=128,BY=1,RY=4,ZC=64
DESIGN=2,TSTEPS=1,RING=1,$O,BX=126,BY=1,RY=4,ZC=64
DESIGN=2,TSTEPS=1,RING=1,$O,BX=126,BY=1,RY=4,ZC=128
DESIGN=2,TSTEPS=1,RING=1,$O,BX=64,BY=2,RY=4,ZC=64
DESIGN=2,TSTEPS=1,RING=1,$O,BX=64,BY=1,RY=4,ZC=64
DESIGN=2,TSTEPS=1,RING=1,$O,BX=64,BY=4,RY=2,ZC=128
DESIGN=2,TSTEPS=1,RING=1,$O,BX=32,BY=8,RY=4,ZC=128
"}
ABCFGS=${ABCFGS:-"
3d-star-r1|
3d-star-r1|ZC=128
3d-star-r1|RX=2,RY=2,TX=32,TY=32,NT=256,TSTEPS=3
3d-star-r1|RX=2,RY=2,TX=32,TY=32,NT=256,TSTEPS=3,ZC=128
3d-star-r1|RX=2,RY=4,TX=32,TY=32,NT=128,TSTEPS=3
3d-star-r1|RX=2,RY=4,TX=64,TY=32,NT=256,TSTEPS=3
3d-star-r1|RX=2,RY=2,TX=32,TY=32,NT=256,TSTEPS=2
3d-star-r1|RX=2,RY=2,TX=32,TY=64,NT=512,TSTEPS=3
3d-box-r1:f32|
3d-box-r1:f32|RX=2,RY=2,TX=32,TY=32,NT=256
3d-box-r1:f32|RX=2,RY=4,TX=64,TY=32,NT=256,TSTEPS=2
3d-box-r1:f32|RX=2,RY=4,TX=32,TY=32,NT=128
3d-box-r1:fixed:f64|
3d-box-r1:fixed:f64|RX=2,RY=2,TX=32,TY=32,NT=256,TSTEPS=2
3d-star-r2|
3d-star-r2|RX=2,RY=2,TX=32,TY=32,NT=256
3d-box-r2:f32|
3d-box-r2:f32|RX=2,RY=2,TX=32,TY=16,NT=128
"}
LAYDESCS=${LAYDESCS:-"3d-star-r1:zero:f64 3d-star-r1:fixed:f64 3d-box-r1:zero:f32 3d-box-r1:fixed:f32
3d-star-r1:zero:f32 3d-star-r1:fixed:f32 3d-box-r1:fixed:f64"}
L2="DESIGN=2,RX=2"
LAYCFGS=${LAYCFGS:-"
$L2,RY=4,TX=64,TY=32,NT=256,TSTEPS=2
$L2,RY=4,TX=64,TY=32,NT=256,TSTEPS=3
$L2,RY=4,TX=32,TY=32,NT=128,TSTEPS=2
$L2,RY=4,TX=32,TY=32,NT=128,TSTEPS=3
$L2,RY=2,TX=32,TY=32,NT=256,TSTEPS=3
$L2,RY=4,TX=64,TY=32,NT=256,TSTEPS=2,ZC=128
"}
timed() {   # $1: the stencil option (or none), $2: a configuration
  o=$(timeout 90 "$GK" stencil $1 --size=512 --steps=96 --device=gpu --time ${2:+--config="$2"} 2>&1)
  r=$(echo "$o" | grep 'GStencil' | sed 's/.*steps on gpu: //;s/, [0-9.]* GFLOP.*//')
  echo "${r:-failed: $(echo "$o" | tail -1)}"
}
for p in $PARTS; do case $p in
star)
  echo "== 3d-star-r1 f64, zero boundary, 512^3, 96 steps (kernel time, one run each)"
  { printf '%-72s %s\n' defaults "$(timed --stencil=3d-star-r1)"
    for c in $STARCFGS; do printf '%-72s %s\n' "$c" "$(timed --stencil=3d-star-r1 "$c")"; done
    printf '%-72s %s\n' defaults "$(timed --stencil=3d-star-r1)"; } | tee "$out/star-sweep.log" ;;
starncu)
  NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
  echo "== ncu: ${NCU:-none}"
  [ -n "$NCU" ] || continue
  i=0
  for c in $STARNCU; do
    i=$((i + 1)); f="$out/star-ncu-$i.txt"
    timeout 150 "$NCU" --section SpeedOfLight --section WarpStateStats --section InstructionStats \
      --section SchedulerStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
      --metrics 'dram__bytes_read.sum,dram__bytes_write.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_op_dfma.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sass__inst_executed_shared_loads,sass__inst_executed_shared_stores,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      -k regex:gk_sg_t -s 1 -c 1 "$GK" stencil --stencil=3d-star-r1 --size=512 --steps=12 --device=gpu --config="$c" > "$f" 2>&1
    echo "ncu $c: rc=$?"
    grep -E 'dram__bytes|pipe_fp64|issue_active|inst_executed|Registers Per|Achieved Occupancy|Theoretical Occ|Duration|wavefronts|bank_conflicts|Shared Memory Config|Block Limit' "$f" | head -24
    grep -E 'stalled_.*ratio' "$f" | awk '$NF+0 > 0.05' | sort -k3 -rn | head -10
  done ;;
layouts)
  echo "== DESIGN=2 layouts, 512^3, 96 steps (kernel time, one run each)"
  for d in $LAYDESCS; do
    printf '%-22s %-56s %s\n' "$d" defaults "$(timed --stencil="$d")"
    for c in $LAYCFGS; do
      printf '%-22s %-56s %s\n' "$d" "$c" "$(timed --stencil="$d" "$c")"
      case $d in *fixed*) printf '%-22s %-56s %s\n' "$d" "$c,OX=0" "$(timed --stencil="$d" "$c,OX=0")" ;; esac
    done
  done | tee "$out/layouts.log" ;;
ab)
  : "${OLDGK:?OLDGK must name a gk built from the commit before}"
  echo "== A/B, 512^3, 96 steps (kernel time, one run each): old $OLDGK, new $GK"
  for rep in $(seq "${REPS:-2}"); do for c in $ABCFGS; do for v in old new; do
    g=$GK; [ $v = old ] && g=$OLDGK
    printf '%s %-4s %-72s %s\n' "$rep" "$v" "$c" "$(GK=$g timed --stencil="${c%%|*}" "${c#*|}")"
  done; done; done | tee "$out/ab.log" ;;
onestep)
  echo "== 27-point box f64, 512^3, 96 steps, one step per pass (kernel time, one run each)"
  for c in $ONECFGS; do printf '%-72s %s\n' "$c" "$(timed "" "$c")"; done | tee "$out/onestep-sweep.log" ;;
esac; done
