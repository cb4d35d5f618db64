#!/bin/sh
# Chosen sources past one process and one GPU: `gk apsp --sources` under
# `mpirun -np 2|3 --device=cpu`, with --gpus=all and under `mpirun -np 2
# --device=gpu` where two GPUs are usable, and on one GPU: every output
# (distances, predecessors aside: ties may pick other trees) byte-identical to
# the single-process CPU output, in every algorithm; a bad source under MPI:
# every rank fails, one message, exit 1, no output file.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMP_NUM_THREADS=1
mpi=no why="gk was built without MPI (configure found none)"
if grep -q '^#define GK_HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null; then
  if command -v mpirun >/dev/null 2>&1; then mpi=yes; else why="no mpirun on the PATH"; fi
fi
ngpu=$("$GK" info --json 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["gpus"]))' 2>/dev/null)
[ -n "$ngpu" ] || ngpu=0
MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun -q --oversubscribe"

"$GK" gen apsp --kind=road --vertices=2500 --seed=3 --max-weight=50 "$T/road.gr" &&
"$GK" gen apsp --kind=powerlaw --vertices=1000 --edges=6000 --seed=4 --max-weight=50 "$T/pl.gr" ||
  echo "Bail out! cannot generate the graphs"
# sources: repeats, the last vertex, out of order
printf '7\n# a comment\n0-20\n2499\n7\n1000-1030\n' > "$T/src-road"
printf '7\n0-20\n1023\n7\n500-530\n' > "$T/src-pl"
for g in road pl; do
  for a in dijkstra bellman-ford johnson; do
    "$GK" apsp --device=cpu --algorithm=$a --sources=@"$T/src-$g" "$T/$g.gr" "$T/ref-$g-$a.npy" ||
      echo "Bail out! no reference for $g $a"
  done
  cmp -s "$T/ref-$g-dijkstra.npy" "$T/ref-$g-bellman-ford.npy" && cmp -s "$T/ref-$g-dijkstra.npy" "$T/ref-$g-johnson.npy"
  t_result $? "$g: dijkstra, bellman-ford and johnson give the same bytes (int32)"
done

if [ $mpi = yes ]; then
  for np in 2 3; do
    for g in road pl; do
      rm -f "$T/m.npy"
      $MPIRUN -np $np "$GK" apsp --device=cpu --algorithm=dijkstra --sources=@"$T/src-$g" "$T/$g.gr" "$T/m.npy" 2>"$T/err" &&
        cmp -s "$T/ref-$g-dijkstra.npy" "$T/m.npy"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "mpirun -np $np --device=cpu, $g: byte-identical"
    done
  done
  rm -f "$T/m.npy"
  $MPIRUN -np 2 "$GK" apsp --device=cpu --sources=3,99999 "$T/road.gr" "$T/m.npy" 2>"$T/err"
  r=$?
  [ $r = 1 ] && [ ! -e "$T/m.npy" ] && [ "$(grep -c 'outside' "$T/err")" = 1 ]
  t_result $? "mpirun -np 2, a source outside [0, V): exit 1 (got $r), one message, no output"
else
  t_skip "$why" "mpirun rows"
fi

if [ "$ngpu" -ge 1 ]; then
  for g in road pl; do
    for a in dijkstra bellman-ford johnson; do
      rm -f "$T/m.npy"
      "$GK" apsp --device=gpu --algorithm=$a --sources=@"$T/src-$g" "$T/$g.gr" "$T/m.npy" 2>"$T/err" &&
        cmp -s "$T/ref-$g-dijkstra.npy" "$T/m.npy"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "one GPU, $g, $a: byte-identical to the CPU"
    done
  done
else
  t_skip "no usable GPU" "GPU rows"
fi
if [ "$ngpu" -ge 2 ]; then
  for g in road pl; do
    rm -f "$T/m.npy"
    "$GK" apsp --gpus=all --algorithm=dijkstra --sources=@"$T/src-$g" "$T/$g.gr" "$T/m.npy" 2>"$T/err" &&
      cmp -s "$T/ref-$g-dijkstra.npy" "$T/m.npy"
    r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
    t_result $r "--gpus=all ($ngpu GPUs), $g: byte-identical"
    if [ $mpi = yes ]; then
      rm -f "$T/m.npy"
      $MPIRUN -np 2 "$GK" apsp --device=gpu --algorithm=dijkstra --sources=@"$T/src-$g" "$T/$g.gr" "$T/m.npy" 2>"$T/err" &&
        cmp -s "$T/ref-$g-dijkstra.npy" "$T/m.npy"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "mpirun -np 2 --device=gpu, $g: byte-identical"
    fi
  done
else
  t_skip "several-GPU tests: $ngpu GPU(s) usable here" "several GPUs"
fi
t_done
