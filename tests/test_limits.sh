#!/bin/sh
# Resource limits end with a gk message: past `ulimit -f` every writer
# fails with one line naming the file (EFBIG, not death by SIGXFSZ), exit
# 1, no temp file left and the old output intact; text graphs are read in
# bounded memory (`ulimit -v`).  Each limit is set in a subshell, so the
# test is deterministic.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp

"$GK" gen apsp --vertices=300 --edges=3000 --seed=5 "$T/g.nthu" || exit 1
"$GK" gen grid --size=40 "$T/grid.in" || exit 1

# limited CMD...: CMD under `ulimit -f 10` (5 to 10 KiB: the outputs below are larger)
limited() { (ulimit -f 10 && exec "$@"); }
check() {  # NAME OUTPUT CMD...
  name=$1 out=$2; shift 2
  echo old >"$out"
  t_fails "$name past ulimit -f: one gk line naming the file" 1 \
    "^gk: $out: write failed: File too large (past the file size limit: ulimit -f" limited "$@"
  [ "$(cat "$out")" = old ] && [ -z "$(ls "$T" | grep '\.tmp\.')" ]
  t_result $? "$name: the old output is intact, no temp file left"
}
check "gk apsp" "$T/res" "$GK" apsp --device=cpu "$T/g.nthu" "$T/res"
check "gk apsp (npy)" "$T/out.npy" "$GK" apsp --device=cpu "$T/g.nthu" "$T/out.npy"
check "gk convert" "$T/out.gr" "$GK" convert "$T/g.nthu" "$T/out.gr"
check "gk convert (mtx)" "$T/out.mtx" "$GK" convert "$T/g.nthu" "$T/out.mtx"
check "gk gen apsp" "$T/out.nthu" "$GK" gen apsp --vertices=300 --edges=3000 "$T/out.nthu"
check "gk gen apsp (edges)" "$T/out.edges" "$GK" gen apsp --vertices=300 --edges=3000 "$T/out.edges"
check "gk stencil" "$T/out.grid" "$GK" stencil --device=cpu --size=40 --steps=1 --input="$T/grid.in" --output="$T/out.grid"
check "gk gen grid" "$T/out2.grid" "$GK" gen grid --size=40 "$T/out2.grid"
# standard output redirected into a file past the limit
(ulimit -f 10 && exec "$GK" apsp --device=cpu "$T/g.nthu" - >"$T/stdout.out" 2>"$T/err"); rc=$?
[ $rc = 1 ] && grep -q "^gk: standard output: write failed: File too large" "$T/err"
t_result $? "gk apsp to standard output past ulimit -f: a gk line, exit 1"
# under the limit everything works as before
(ulimit -f 100000 && exec "$GK" apsp --device=cpu "$T/g.nthu" "$T/ok.out"); rc=$?
[ $rc = 0 ] && [ "$(wc -c <"$T/ok.out")" = 360000 ]; t_result $? "a limit that is not reached changes nothing"

# ---- memory: a text graph is read into its distinct pairs or its matrix,
# not into a list of every line.  3 M lines over 200 vertices (a 160 KB
# matrix) under `ulimit -v 120000` (117 MiB of address space): a reader that
# kept every edge (12 bytes each, and its growth) runs out; gk must not.
# AddressSanitizer reserves terabytes of address space: skipped there.
if [ "${GK_SANITIZERS:-no}" != no ]; then
  t_skip "address-space limits do not apply under the sanitizers" "3 M-line edge list in 117 MiB of address space"
  t_skip "address-space limits do not apply under the sanitizers" "and the distances"
else
  "$GK" gen apsp --vertices=200 --edges=3000000 --seed=9 "$T/m.edges" 2>/dev/null || exit 1
  "$GK" convert "$T/m.edges" "$T/m.nthu" && "$GK" apsp --device=cpu "$T/m.nthu" "$T/m.want" || exit 1
  (ulimit -v 120000 && OMP_NUM_THREADS=2 exec "$GK" apsp --device=cpu "$T/m.edges" "$T/m.out") 2>"$T/m.err"; rc=$?
  [ $rc = 0 ] || t_diag "exit $rc" "$(cat "$T/m.err")"
  t_result $rc "a 3 M-line edge list read in 117 MiB of address space (ulimit -v)"
  cmp -s "$T/m.out" "$T/m.want"; t_result $? "and the distances are those of the same graph read as nthu"
  (ulimit -v 120000 && OMP_NUM_THREADS=2 exec "$GK" convert "$T/m.edges" "$T/m.mtx") 2>"$T/m.err"; rc=$?
  [ $rc = 0 ] && [ "$(sed -n 3p "$T/m.mtx" | cut -d' ' -f3)" -le 40000 ]
  t_result $? "gk convert of it to mtx (its distinct pairs) in the same limit"
fi

# ---- threads under an address-space limit: 64 OpenMP threads of 8 MiB
# stacks cannot fit in 195 MiB; libgomp would print "Thread creation
# failed" and exit.  gk says how many fit and runs with them.
if [ "${GK_SANITIZERS:-no}" != no ]; then
  t_skip "address-space limits do not apply under the sanitizers" "64 threads asked under ulimit -v"
  t_skip "address-space limits do not apply under the sanitizers" "and the distances"
else
  "$GK" apsp --device=cpu "$T/g.nthu" "$T/t.want" || exit 1
  (ulimit -s 8192 && ulimit -v 200000 && OMP_NUM_THREADS=64 exec "$GK" apsp --device=cpu "$T/g.nthu" "$T/t.out") \
    >/dev/null 2>"$T/t.err"; rc=$?
  [ $rc = 0 ] && [ "$(grep -c . "$T/t.err")" = 1 ] && ! grep -q libgomp "$T/t.err" &&
    grep -q "^gk: warning: the address-space limit (ulimit -v: .*) leaves room for [0-9]* OpenMP threads\{0,1\} (each maps a 8.0 MiB stack), not 64: running with [0-9]*$" "$T/t.err"
  r=$?; [ $r = 0 ] || t_diag "exit $rc" "$(cat "$T/t.err")"
  t_result $r "64 threads asked under ulimit -v: one gk warning with the count that fits, not libgomp's exit"
  cmp -s "$T/t.out" "$T/t.want"; t_result $? "and the distances are the same"
fi
t_done
