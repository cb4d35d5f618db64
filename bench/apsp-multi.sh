#!/bin/sh
# bench/apsp-multi.sh - APSP past one GPU on a machine with two or more GPUs
# (nvidia-h200-x2, nvidia-h200-x4): build, test, benchmark.  Run from an
# unpacked release tree (`make dist`); logs go to $OUT (default
# ./apsp-multi-out).  G = ${GPUS:-every GPU nvidia-smi lists}.
#   sh bench/apsp-multi.sh [build] [check] [multicheck] [bench] [big]
#          (default: build check bench big)
#   build  ./configure && make -j$(nproc), unless ./gk is there already
#   check  make check (the multi-GPU and MPI tests among them)
#   multicheck  only the multi-GPU tests (tests/test_apsp_multi.sh)
#   bench  gk bench apsp --gpus=G (one GPU, seed design, gk's design) and
#          mpirun -np G gk bench apsp, at n = ${N:-50000}
#   big    gk apsp --gpus=G --time on a ${BIG:-196000}-vertex graph, output to
#          /dev/null (BIG^2 int32 more than one H200 holds), if ${BIG_BUDGET:-0}
#          seconds are not yet spent (0: no limit; START=epoch seconds of the
#          start)
# A short table comes last.  NVLink multicast stays off.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=${OUT:-apsp-multi-out}
mkdir -p "$OUT"
START=${START:-$(date +%s)}
steps=${*:-build check bench big}
N=${N:-50000}
G=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
J=$(nproc)
BIG=${BIG:-196000}
summary="$OUT/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
elapsed() { echo $(($(date +%s) - START)); }
for s in $steps; do
  case $s in
  build)
    if [ ! -x ./gk ]; then
      nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1; nvidia-smi topo -m >> "$OUT/nvidia-smi.txt" 2>&1
      ./configure --with-cuda-arch=90 > "$OUT/configure.log" 2>&1 || { note "configure failed"; tail -30 "$OUT/configure.log"; exit 1; }
      make -j$J > "$OUT/make.log" 2>&1 || { note "make failed"; grep -B2 -A8 'error' "$OUT/make.log" | head -60; exit 1; }
    fi
    note "build: $(sed -n '/MPI  /p;/architectures/p' "$OUT/configure.log" | tr -s ' ' | tr '\n' ';') at $(elapsed) s" ;;
  check)
    make -j$J check > "$OUT/check.log" 2>&1
    note "make check: $(grep '^# \(TOTAL\|PASS\|SKIP\|FAIL\|ERROR\)' "$OUT/check.log" | tr -d '#' | tr -s ' ' | tr '\n' ' ') at $(elapsed) s"
    grep -h '^\(FAIL\|ERROR\)' "$OUT/check.log" | head -20 | tee -a "$summary"
    cat tests/test_apsp_multi.log > "$OUT/test_apsp_multi.log" 2>/dev/null
    grep -h '^not ok' tests/*.log | head -20 | tee -a "$summary" ;;
  multicheck)
    make -j$J check TESTS=tests/test_apsp_multi.sh > "$OUT/check.log" 2>&1
    note "make check TESTS=tests/test_apsp_multi.sh: $(grep '^# \(TOTAL\|PASS\|SKIP\|FAIL\|ERROR\)' "$OUT/check.log" | tr -d '#' | tr -s ' ' | tr '\n' ' ') at $(elapsed) s"
    cp tests/test_apsp_multi.log "$OUT/test_apsp_multi.log" 2>/dev/null
    grep -h '^not ok' tests/test_apsp_multi.log | head -20 | tee -a "$summary" ;;
  bench)
    note "--- \$ gk bench apsp --gpus=$G --sizes=$N   (at $(elapsed) s)"
    ./gk bench apsp --gpus="$G" --sizes="$N" > "$OUT/bench-gpus$G.txt" 2>&1
    note "$(cat "$OUT/bench-gpus$G.txt")"
    note "--- \$ mpirun -np $G gk bench apsp --sizes=$N   (at $(elapsed) s)"
    mpirun -q -np "$G" ./gk bench apsp --sizes="$N" > "$OUT/bench-mpi$G.txt" 2>&1
    note "$(cat "$OUT/bench-mpi$G.txt")"
    note "(at $(elapsed) s)" ;;
  big)
    if [ "${BIG_BUDGET:-0}" -gt 0 ] && [ "$(elapsed)" -gt "$BIG_BUDGET" ]; then
      note "big: skipped, $(elapsed) s spent (budget $BIG_BUDGET s)"; continue
    fi
    if grep -q '^not ok' tests/test_apsp_multi.log 2>/dev/null || grep -q ' NO$' "$OUT/bench-gpus$G.txt" 2>/dev/null; then
      note "big: skipped, the multi-GPU tests or the benchmark's check failed"; continue
    fi
    ./gk gen apsp --vertices="$BIG" --edges=$((BIG * 16)) --seed=5 /tmp/big.bin
    note "--- \$ gk apsp --gpus=$G --time --verbose big.bin /dev/null   (V = $BIG, E = $((BIG * 16)); $(nvidia-smi --query-gpu=memory.total --format=csv,noheader | head -1) per GPU)"
    ./gk apsp --gpus=$G --time --verbose /tmp/big.bin /dev/null > "$OUT/big.txt" 2>&1
    note "$(cat "$OUT/big.txt")"
    note "(at $(elapsed) s)"
    rm -f /tmp/big.bin ;;
  esac
done
