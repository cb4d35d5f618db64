#!/bin/sh
# bench/gemm.sh - rerun the matrix multiply benchmark of bench/gemm-results.md.
# Usage: bench/gemm.sh [GK]   (GK defaults to ./gk in the build directory)
# GPU (when gk finds one): `gk bench gemm` at 4096^3 and 8192^3 (median of 5
# runs: the course's naive, 32x32-tile and 4x4-per-thread kernels, the tuned
# kernel, cuBLAS SGEMM in strict fp32 and the FP32 ceiling, all in the same
# run), then unless SWEEP=0 a sweep of tuned-kernel configurations at 4096^3
# (`gk bench gemm --reps=3 --config=...`, the tuned row only).  CPU: `gk bench
# gemm --device=cpu` at 1024^3 and 2048^3 (the backend per instruction set and
# OpenBLAS when libopenblas.so.0 is installed), with `uptime` (the CPU
# numbers are only as good as the machine is quiet).  The shipped H200 table
# is used by an installed gk, or with GK_DATA_DIR=<source dir>/data.
set -e
GK=${1:-./gk}
if "$GK" info | grep -q "compute capability"; then
  "$GK" info | sed -n '/^GPUs/,/^Tuning/p'
  "$GK" bench gemm --sizes=${SIZES:-4096,8192} --reps=${REPS:-5}
  if [ "${SWEEP:-1}" != 0 ]; then
    echo "sweep at 4096^3 (gk bench gemm --reps=3 --config=..., the tuned row)"
    for c in \
      BM=128,BN=128,TM=8,TN=8,BK=8 BM=128,BN=128,TM=8,TN=8,BK=16,MINB=1 BM=128,BN=256,TM=8,TN=16,MINB=1 \
      BM=256,BN=128,TM=16,TN=8,MINB=1 BM=128,BN=128,TM=8,TN=8,STAGES=1 BM=64,BN=128,TM=8,TN=4,VEC=2 \
      BM=128,BN=64,TM=8,TN=4,BK=16 BM=128,BN=128,TM=8,TN=8,MINB=1
    do
      printf '%-40s ' "$c"
      "$GK" bench gemm --sizes=4096 --reps=3 --config="$c" | grep ' tuned ' | cut -c1-110
    done
  fi
fi
echo "CPU ($(nproc) CPUs; $(uptime)):"
"$GK" bench gemm --device=cpu --sizes=${CPU_SIZES:-1024,2048}
echo "after: $(uptime)"
