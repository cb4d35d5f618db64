#!/bin/sh
# MPI faults (issue 29): ranks that see different files (another working
# directory: the input missing, another V, another graph or grid of the same
# size, the coefficients missing), a rank killed at every point of a run
# (each of its collectives in turn: read, compute, write), and a file size
# limit.  Each must end the job within 10 s (timeout) with one gk error line
# and a non-zero exit on every surviving rank, and leave no file but the
# untouched old output (a kill after the output was committed leaves the
# new, complete output).  CPU ranks (--device=cpu) under mpirun.
#
# Rerunnable by hand from a build tree, with the issue's 10 s bound:
#   top_srcdir=. top_builddir=. GK=./gk GK_FAULT_LIMIT_S=10 sh tests/test_mpi_faults.sh
# Under make check the bound is 30 s (GK_FAULT_LIMIT_S): the suite runs
# beside other tests on loaded machines, and Open MPI's own abort path
# (mpirun noticing a dead rank, ending the others) slows with the load; a
# real hang still fails.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp
case $GK in /*) ;; *) GK=$PWD/$GK ;; esac     # the ranks run in other directories
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=1

mpi=no why="gk was built without MPI (configure found none)"
if grep -q '^#define GK_HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null; then
  if command -v mpirun >/dev/null 2>&1; then mpi=yes; else why="no mpirun on the PATH"; fi
fi
command -v timeout >/dev/null 2>&1 || { mpi=no why="no timeout(1)"; }
if [ $mpi = no ]; then
  echo "ok 1 # SKIP MPI faults: $why"; t_n=1; t_done; exit
fi
# see test_apsp_multi.sh: leak checks stay off for the ranks only
limit=${GK_FAULT_LIMIT_S:-30}
MPIRUN="timeout -k 5 $limit env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun -q --oversubscribe"

# gk's own lines on stderr (not Open MPI's "[host:pid] ..." ones)
gk_lines() { grep -v '^\[[^] ]*:[0-9]*\] ' "$1" | grep -cv '^ *$'; }

# ---- one rank sees other files: two working directories A and B
mkdir -p "$T/A" "$T/B"
"$GK" gen apsp --vertices=300 --edges=2000 --seed=1 "$T/A/in.bin"
"$GK" gen grid --size=6x5x9 --seed=1 "$T/A/g"
cp "$top_srcdir/tests/data/stencil_coeffs_random.txt" "$T/A/cf"
# two_dirs NAME PATTERN SETUP GK-ARGS...: every rank exits 1 (each rank's own
# status, mpirun told not to kill the others), one message, no output
two_dirs() {
  name=$1 pat=$2; shift 2
  rm -f "$T"/out "$T"/rc.*
  OMPI_MCA_orte_abort_on_non_zero_status=0 $MPIRUN \
    -np 1 --wdir "$T/A" sh -c '"$0" "$@"; echo $? >"'"$T"'/rc.A"' "$GK" "$@" : \
    -np 1 --wdir "$T/B" sh -c '"$0" "$@"; echo $? >"'"$T"'/rc.B"' "$GK" "$@" >/dev/null 2>"$T/err"
  rc=$?
  r=0
  [ $rc != 124 ] || { t_diag "timed out (a hang)"; r=1; }
  [ "$(cat "$T/rc.A" "$T/rc.B" 2>/dev/null | tr '\n' ' ')" = "1 1 " ] || r=1
  [ "$(gk_lines "$T/err")" = 1 ] && grep -q -e "$pat" "$T/err" || r=1
  [ ! -e "$T/out" ] || r=1
  [ $r = 0 ] || t_diag "exit $rc, ranks: $(cat "$T"/rc.* 2>/dev/null | tr '\n' ' ')" "$(cat "$T/err")"
  t_result $r "$name: every rank exits 1 within $limit s, one message, no output"
}
rm -f "$T/B/in.bin"
two_dirs "apsp, the input missing on rank 1" "rank 1 of 2: in.bin: cannot open" apsp --device=cpu in.bin "$T/out"
"$GK" gen apsp --vertices=301 --edges=2000 --seed=1 "$T/B/in.bin"
two_dirs "apsp, another V on rank 1" "rank 1 reads V = 301, rank 0 300" apsp --device=cpu in.bin "$T/out"
"$GK" gen apsp --vertices=300 --edges=2000 --seed=2 "$T/B/in.bin"
two_dirs "apsp, another graph of the same size on rank 1" "rank 1 reads other bytes" apsp --device=cpu in.bin "$T/out"
"$GK" gen grid --size=6x5x9 --seed=2 "$T/B/g"
two_dirs "stencil, another grid of the same size on rank 1" "rank 1 reads other bytes" \
  stencil --device=cpu --size=6x5x9 --input=g --output="$T/out"
two_dirs "stencil, the coefficients missing on rank 1" "rank 1 of 2: .*cf: cannot open" \
  stencil --device=cpu --size=6x5x9 --coeffs=cf --output="$T/out"
head -c 100 "$T/A/in.bin" >"$T/B/in.bin"
two_dirs "apsp, a truncated input on rank 1 only" "in.bin" apsp --device=cpu in.bin "$T/out"

# ---- a rank killed at each of its collectives in turn
"$GK" gen apsp --vertices=200 --edges=1500 --seed=3 "$T/g"
"$GK" apsp --device=cpu "$T/g" "$T/ref"
"$GK" gen grid --size=7x5x12 --seed=3 "$T/grid"
"$GK" stencil --device=cpu --size=7x5x12 --steps=5 --input="$T/grid" --output="$T/sref"
# kill_each KERNEL RANK REF GK-ARGS... (the output is "$T/w/out")
kill_each() {
  kernel=$1 victim=$2 ref=$3; shift 3
  n=1 bad="" runs=0 last=none
  while [ $n -le 400 ]; do
    rm -rf "$T/w"; mkdir "$T/w"; echo "old output" >"$T/w/out"
    GK_TEST_MPI_KILL=$victim:$n $MPIRUN -np 2 -x GK_TEST_MPI_KILL "$GK" "$@" >/dev/null 2>"$T/err"
    rc=$?
    runs=$((runs + 1))
    left=$(ls -A "$T/w" | tr '\n' ' ')
    if [ $rc = 0 ]; then               # past its last collective: a whole run
      cmp -s "$ref" "$T/w/out" && [ "$left" = "out " ] || bad="$bad n=$n:a-whole-run-differs"
      last=$n
      break
    fi
    [ $rc != 124 ] || bad="$bad n=$n:timed-out"
    [ "$left" = "out " ] || bad="$bad n=$n:left[$left]"
    if cmp -s "$ref" "$T/w/out"; then  # killed after the commit
      [ "$(gk_lines "$T/err")" -le 1 ] || bad="$bad n=$n:lines"
    else
      [ "$(cat "$T/w/out")" = "old output" ] || bad="$bad n=$n:old-output-changed"
      [ "$(gk_lines "$T/err")" = 1 ] || bad="$bad n=$n:$(gk_lines "$T/err")-lines"
    fi
    n=$((n + 1))
  done
  [ "$last" != none ] || bad="$bad no-whole-run-within-400"
  [ $runs -gt 2 ] || bad="$bad the-hook-killed-nothing"
  r=0; [ -z "$bad" ] || { r=1; t_diag "failed at:$bad" "last stderr:" "$(cat "$T/err")"; }
  t_result $r "$kernel: rank $victim killed at each of its $((runs - 1)) collectives: ends within $limit s, non-zero, one line, only the old (or the committed) output left"
}
kill_each apsp 0 "$T/ref" apsp --device=cpu "$T/g" "$T/w/out"
kill_each apsp 1 "$T/ref" apsp --device=cpu "$T/g" "$T/w/out"
kill_each stencil 0 "$T/sref" stencil --device=cpu --size=7x5x12 --steps=5 --input="$T/grid" --output="$T/w/out"
kill_each stencil 1 "$T/sref" stencil --device=cpu --size=7x5x12 --steps=5 --input="$T/grid" --output="$T/w/out"

# ---- a file size limit (the output is larger than it): SIGXFSZ or EFBIG.
# 5 MB: Open MPI itself needs more than a few hundred KB of files (its
# shared-memory segments), and under such a tiny limit MPI_Init fails; the
# outputs (5.8 MB, 8 MB) are larger than the limit and quick to compute
# (the sanitizer build too).
"$GK" gen apsp --vertices=1200 --edges=20000 --seed=4 "$T/g4"
for k in apsp stencil; do
  rm -rf "$T/w"; mkdir "$T/w"; echo "old output" >"$T/w/out"
  if [ $k = apsp ]; then set -- apsp --device=cpu "$T/g4" "$T/w/out"
  else set -- stencil --device=cpu --size=100 --steps=1 --output="$T/w/out"; fi
  # the limit on the ranks alone: under it mpirun's own PMIx server can
  # fail (and, loaded, crash in PMIx_Finalize), which is not gk's doing
  $MPIRUN -np 2 sh -c 'ulimit -f 5000 && exec "$0" "$@"' "$GK" "$@" >/dev/null 2>"$T/err"
  rc=$?
  [ $rc != 0 ] && [ $rc != 124 ] && [ "$(ls -A "$T/w" | tr '\n' ' ')" = "out " ] && [ "$(cat "$T/w/out")" = "old output" ]
  r=$?; [ $r = 0 ] || t_diag "exit $rc, left: $(ls -A "$T/w" | tr '\n' ' ')" "$(cat "$T/err")"
  t_result $r "$k under ulimit -f 5000: non-zero within $limit s, only the old output left"
done

# ---- a temp file of a job whose every process died is removed by the next run
rm -rf "$T/w"; mkdir "$T/w"
host=$(uname -n | tr -c 'A-Za-z0-9.\n_-' '_')
sh -c 'exit 0' & dead=$!; wait $dead          # a pid that no longer runs
echo stale >"$T/w/out.gk-mpi-$dead-$host.AbC123"
echo other >"$T/w/out.gk-mpi-$$-$host.XyZ789"  # its writer (this shell) still runs
$MPIRUN -np 2 "$GK" apsp --device=cpu "$T/g" "$T/w/out" 2>"$T/err"
cmp -s "$T/ref" "$T/w/out" && [ "$(ls -A "$T/w" | tr '\n' ' ')" = "out out.gk-mpi-$$-$host.XyZ789 " ]
r=$?; [ $r = 0 ] || t_diag "left: $(ls -A "$T/w" | tr '\n' ' ')" "$(cat "$T/err")"
t_result $r "the next run removes a dead job's temp file (and keeps a live one's)"
t_done
