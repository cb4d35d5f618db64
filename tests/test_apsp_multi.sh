#!/bin/sh
# APSP past one process and one GPU: `mpirun -np 2|3 gk apsp --device=cpu`
# on awkward sizes (a rank may own no rows) and on the NTHU cases, the row
# engine in one process (--exchange), `gk apsp --gpus=2` (both exchanges)
# and `mpirun -np 2 gk apsp --device=gpu` where two GPUs are usable: every
# output byte-identical to the single-process output.  Bad inputs under MPI:
# every rank fails, one message, exit 1, no output file.
. "$top_srcdir/tests/tap.sh"
data="$top_srcdir/tests/data/nthu-apsp"
T=$t_tmp
# root in CI and in containers; 3 ranks on fewer cores
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMP_NUM_THREADS=1
i32() { for v in "$@"; do
  printf "\\$(printf %03o $((v & 255)))\\$(printf %03o $(((v >> 8) & 255)))\\$(printf %03o $(((v >> 16) & 255)))\\$(printf %03o $(((v >> 24) & 255)))"
done; }

mpi=no why="gk was built without MPI (configure found none)"
if grep -q '^#define GK_HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null; then
  if command -v mpirun >/dev/null 2>&1; then mpi=yes; else why="no mpirun on the PATH"; fi
fi
ngpu=$("$GK" info --json 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["gpus"]))' 2>/dev/null)
[ -n "$ngpu" ] || ngpu=0
# Under --enable-sanitizers: Open MPI's components are dlopen'ed and closed by
# MPI_Finalize, and what they keep LeakSanitizer reports from an "unknown
# module" no suppression can name; leak checks stay off for the ranks only
# (memory errors are still caught; gk's own leaks are checked by the
# single-process runs here and in the other tests).
MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun -q --oversubscribe"

# awkward sizes: one vertex, below one tile, a tile +- 1, more ranks than tiles
sizes="1 2 63 65 127 1000 1027"
for V in $sizes; do
  "$GK" gen apsp --vertices=$V --edges=$((3 * V + 5)) --seed=$V --max-weight=100 "$T/g$V" &&
  "$GK" apsp --device=cpu "$T/g$V" "$T/ref$V" || echo "Bail out! cannot make the reference for V = $V"
done

# ---- the row engine in one process (no MPI needed)
for V in $sizes; do
  "$GK" apsp --device=cpu --exchange=device "$T/g$V" "$T/one$V" 2>"$T/err" && cmp -s "$T/ref$V" "$T/one$V"
  t_result $? "V = $V: the row engine in one process == gk apsp"
done

# ---- MPI, CPU ranks
if [ $mpi = yes ]; then
  for np in 2 3; do
    for V in $sizes; do
      rm -f "$T/m"
      $MPIRUN -np $np "$GK" apsp --device=cpu "$T/g$V" "$T/m" 2>"$T/err" && cmp -s "$T/ref$V" "$T/m"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "mpirun -np $np --device=cpu, V = $V: byte-identical"
    done
    for f in "$data"/c*.out.sha256; do
      c=$(basename "$f" .out.sha256)
      want=$(cut -c1-64 "$f")
      rm -f "$T/m"
      $MPIRUN -np $np "$GK" apsp --device=cpu "$data/$c" "$T/m" 2>"$T/err"
      got=$(sha256sum "$T/m" 2>/dev/null | cut -c1-64)
      [ "$got" = "$want" ]; t_result $? "mpirun -np $np --device=cpu, NTHU $c: output SHA-256 matches"
    done
  done
  # --time and --json: rank 0 alone prints, every phase named
  $MPIRUN -np 2 "$GK" apsp --device=cpu --json "$T/g1000" "$T/m" >"$T/json" 2>"$T/err"
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
s = d["seconds"]
assert d["ranks"] == 2 and d["vertices"] == 1000
for k in ("read", "distribute", "compute", "exchange_busy", "exchange_stall", "write"): assert s[k] >= 0, k' "$T/json"
  t_result $? "mpirun -np 2 --json: one JSON object with ranks and every phase"
  $MPIRUN -np 2 "$GK" apsp --device=cpu --time "$T/g1000" "$T/m" >"$T/time" 2>"$T/err"
  [ "$(grep -c '^compute rate' "$T/time")" = 1 ] && grep -q '^distribute' "$T/time" && grep -q 'exchange stall' "$T/time"
  t_result $? "mpirun -np 2 --time: one table (rank 0), with distribute and the exchange"
  # bad inputs: every rank fails, one message, exit 1, no output
  i32 4 2 0 1 5 > "$T/short"
  i32 4 1 0 9 5 > "$T/dst"
  i32 4 1 0 1 -3 > "$T/neg"
  i32 0 0 > "$T/v0"
  for b in short dst neg v0; do
    rm -f "$T/bad.out"
    for np in 2 3; do
      t_fails_mpi "mpirun -np $np, bad input '$b': one message, exit 1" 1 "$b" $MPIRUN -np $np "$GK" apsp --device=cpu "$T/$b" "$T/bad.out"
      [ ! -e "$T/bad.out" ]; t_result $? "mpirun -np $np, bad input '$b': no output file"
    done
  done
  cp "$T/ref1000" "$T/keep"
  $MPIRUN -np 2 "$GK" apsp --device=cpu "$T/dst" "$T/keep" 2>/dev/null
  cmp -s "$T/ref1000" "$T/keep"; t_result $? "mpirun: a failed run leaves an existing OUTPUT untouched"
  t_fails_mpi "mpirun: standard output is refused" 1 "standard output" $MPIRUN -np 2 "$GK" apsp --device=cpu "$T/g63" -
  t_fails_mpi "mpirun: --check is refused" 2 "check" $MPIRUN -np 2 "$GK" apsp --device=cpu --check "$T/g63" "$T/m"
  $MPIRUN -np 2 "$GK" apsp --device=cpu "$T/g1000" /dev/null 2>"$T/err"
  t_result $? "mpirun: a device (/dev/null) is written in place"
  # a plain run, not under mpirun, does not start MPI
  env | grep -q '^OMPI_COMM_WORLD' && t_diag "the test itself runs under mpirun"
  "$GK" apsp --device=cpu --verbose "$T/g63" "$T/m" 2>"$T/err"
  ! grep -qi 'mpi\|rank' "$T/err"; t_result $? "a plain run says nothing of MPI"
else
  echo "ok $((t_n + 1)) # SKIP MPI tests: $why"; t_n=$((t_n + 1))
fi

# ---- several GPUs
if [ "$ngpu" -ge 2 ]; then
  "$GK" gen apsp --vertices=3000 --edges=40000 --seed=7 "$T/g3000"
  "$GK" apsp --device=cpu "$T/g3000" "$T/ref3000"
  for V in $sizes 3000; do
    for ex in device host; do
      rm -f "$T/m"
      "$GK" apsp --gpus=2 --exchange=$ex "$T/g$V" "$T/m" 2>"$T/err" && cmp -s "$T/ref$V" "$T/m"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "--gpus=2 --exchange=$ex, V = $V: byte-identical"
    done
  done
  for f in "$data"/c*.out.sha256; do
    c=$(basename "$f" .out.sha256)
    "$GK" apsp --gpus=2 "$data/$c" "$T/m" 2>"$T/err"
    [ "$(sha256sum "$T/m" | cut -c1-64)" = "$(cut -c1-64 "$f")" ]; t_result $? "--gpus=2, NTHU $c: output SHA-256 matches"
  done
  if [ $mpi = yes ]; then
    for V in $sizes 3000; do
      rm -f "$T/m"
      $MPIRUN -np 2 "$GK" apsp --device=gpu "$T/g$V" "$T/m" 2>"$T/err" && cmp -s "$T/ref$V" "$T/m"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "mpirun -np 2 --device=gpu, V = $V: byte-identical"
    done
    $MPIRUN -np 2 "$GK" apsp --device=gpu --exchange=host "$T/g3000" "$T/m" 2>"$T/err" && cmp -s "$T/ref3000" "$T/m"
    t_result $? "mpirun -np 2 --device=gpu --exchange=host: byte-identical"
  fi
  t_ok "bench apsp --gpus=2 (one GPU, seed design, gk's design agree)" "$GK" bench apsp --gpus=2 --sizes=2000
  grep -q ' yes$' "$t_tmp/out"; t_result $? "bench apsp --gpus=2: the rows say same"
else
  echo "ok $((t_n + 1)) # SKIP several-GPU tests: $ngpu GPU(s) usable here"; t_n=$((t_n + 1))
fi
t_done
