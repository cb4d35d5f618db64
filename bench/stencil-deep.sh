#!/bin/sh
# bench/stencil-deep.sh - issue 27 (deep temporal blocking): on a GPU
# machine, in a built tree (run in the build directory), what bounds the
# 27-point float64 box at T = 2..4 steps per pass, and the generated
# engine's 7-point star float64 and 27-point box float32.  Logs go to $OUT
# (or /tmp).  PARTS selects, in order:
#   bench  gk bench stencil --sizes=512 --steps=100 (the table in use)
#   sweep  gk stencil --size=512 --steps=96 --time for every configuration
#          of DEEPCFGS (kernel time, one run each: differences under ~3 %
#          are noise)
#   ncu    ncu of the kernels of NCUCFGS (4 steps at 512^3): DRAM bytes,
#          FP64 pipe use, issue slots, warp stall reasons per instruction,
#          instruction mix
#   sass   opcode counts of temporalT compiled by nvcc for each of NCUCFGS
#          (and the whole SASS of each, for reading)
#   gen    gk bench stencil --stencil=... for the generated engine's
#          3d-star-r1 float64 and 3d-box-r1 float32 (the issue's other
#          targets), 512^3, 100 steps
out=${OUT:-/tmp}
. "$(dirname "$0")/stencil-parts.sh"
GK=${GK:-./gk}
PARTS=${PARTS:-"bench sweep ncu sass gen"}
S16="DESIGN=2,BX=32,BY=16,RY=2,RX=2,ASYNC=1,RING=1"
S8="DESIGN=2,BX=32,BY=8,RY=4,RX=2,ASYNC=1,RING=1"
DEEPCFGS=${DEEPCFGS:-"
$S8,TSTEPS=2,MINB=2,ZC=256,UNROLL=2
$S16,TSTEPS=3,MINB=1,ZC=256,UNROLL=1
$S16,TSTEPS=3,MINB=1,ZC=512,UNROLL=1
$S16,TSTEPS=3,MINB=1,ZC=256,UNROLL=2
$S8,TSTEPS=3,MINB=1,ZC=256,UNROLL=1
$S8,TSTEPS=3,MINB=0,ZC=256,UNROLL=1
$S8,TSTEPS=3,MINB=2,ZC=256,UNROLL=1
DESIGN=2,BX=32,BY=16,RY=4,RX=2,ASYNC=1,RING=1,TSTEPS=3,MINB=1,ZC=256,UNROLL=1
DESIGN=2,BX=64,BY=8,RY=2,RX=2,ASYNC=1,RING=1,TSTEPS=3,MINB=1,ZC=256,UNROLL=1
$S16,TSTEPS=4,MINB=1,ZC=256,UNROLL=1
$S8,TSTEPS=4,MINB=1,ZC=256,UNROLL=1
DESIGN=2,BX=64,BY=8,RY=2,RX=2,ASYNC=1,RING=1,TSTEPS=4,MINB=1,ZC=256,UNROLL=1
"}
NCUCFGS=${NCUCFGS:-"$S8,TSTEPS=2,MINB=2,ZC=256,UNROLL=2 $S16,TSTEPS=3,MINB=1,ZC=256,UNROLL=1"}
for p in $PARTS; do case $p in
bench)
  echo "== gk bench stencil --sizes=512 --steps=100"
  timeout 150 "$GK" bench stencil --sizes=512 --steps=100 2>&1 | tee "$out/deep-bench.log" ;;
sweep)
  echo "== sweep at 512^3, 96 steps (gk stencil --time, kernel time, one run each)"
  for c in $DEEPCFGS; do
    printf '%-84s %s\n' "$c" "$(stencil_timed "$c")"
  done | tee "$out/deep-sweep.log" ;;
ncu)
  NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
  echo "== ncu: ${NCU:-none}"
  [ -n "$NCU" ] || continue
  for c in $NCUCFGS; do
    t=$(echo "$c" | sed -n 's/.*TSTEPS=\([0-9]\).*/\1/p')
    f="$out/deep-ncu-T$t.txt"
    timeout 120 "$NCU" --section SpeedOfLight --section WarpStateStats --section InstructionStats \
      --section SchedulerStats --section Occupancy --section LaunchStats \
      --metrics 'dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_op_dfma.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      -k regex:gk_stencil_temporal$t -c 1 "$GK" stencil --size=512 --steps=4 --device=gpu --config="$c" > "$f" 2>&1
    echo "ncu $c: rc=$?"
    grep -E 'dram__bytes|mem_local|pipe_fp64|issue_active|inst_executed|Registers Per|Achieved Occupancy|Duration|wavefronts|bank_conflicts' "$f" | head -18
    grep -E 'stalled_.*ratio' "$f" | awk '$NF+0 > 0.05' | sort -k3 -rn | head -10
  done ;;
sass)
  CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
  for c in $NCUCFGS; do
    t=$(echo "$c" | sed -n 's/.*TSTEPS=\([0-9]\).*/\1/p')
    F=$(echo "MAXRREG=0,PREFETCH=1,$c" | tr ',' '\n' | sed 's/^/-D/' | tr '\n' ' ')
    nvcc -arch=sm_90 -O3 --std=c++17 $F -Xptxas -v --cubin -o /tmp/deep.cubin "${SRCDIR:-.}/src/gpu/stencil.cu" 2> /tmp/deep-ptxas.txt
    grep -A4 "gk_stencil_temporal$t'" /tmp/deep-ptxas.txt | grep -E 'Used|spill'
    "$CUOBJ" -sass -fun gk_stencil_temporal$t /tmp/deep.cubin > "$out/deep-sass-T$t.txt"
    echo "== $c: opcodes of temporal$t (static)"
    grep -oE '^ +/\*[0-9a-f]{4}\*/ +(@!?U?P[0-9T] +)?[A-Z][A-Z0-9_.]*' "$out/deep-sass-T$t.txt" | awk '{print $NF}' \
      | sed 's/\..*//' | sort | uniq -c | sort -rn | head -24 | tr '\n' ' '; echo
  done ;;
gen)
  for s in 3d-star-r1:f64 3d-box-r1:f32 3d-box-r1:f64; do
    echo "== gk bench stencil --stencil=${s%:*} --type=${s#*:} --sizes=512 --steps=100"
    timeout 120 "$GK" bench stencil --stencil="${s%:*}" --type="${s#*:}" --sizes=512 --steps=100 2>&1
  done | tee "$out/deep-gen.log" ;;
esac; done
