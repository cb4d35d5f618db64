#!/bin/sh
# gk apsp --sources / --algorithm / --min-only / --nearest / --limit (issue
# 26) from the command line, on generated graphs (random, road, power-law,
# and one with negative weights but no negative cycle): the rows against
# scipy.sparse.csgraph's dijkstra, bellman_ford and johnson (integers exact),
# the predecessors checked as shortest-path trees (tests/sssp_cli_ref.py),
# all sources by Dijkstra byte-identical with plain gk apsp (Floyd-Warshall),
# @FILE with comments; every bad input one line, a non-zero exit and no
# output file.  The scipy parts skip, with the reason, without a python3 that
# has numpy and scipy.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp
REF=$top_srcdir/tests/sssp_cli_ref.py
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

# a python3 with numpy and scipy: configure's, else the system's
PY=
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
  [ -n "$p" ] && [ "$p" != : ] && "$p" -c 'import numpy, scipy.sparse.csgraph' >/dev/null 2>&1 && { PY=$p; break; }
done
why_skip="no python3 with numpy and scipy (apt-get install python3-scipy)"
ref() {  # ref NAME ARGS...: a TAP line from the reference check
  name=$1; shift
  if [ -z "$PY" ]; then t_skip "$why_skip" "$name"; return; fi
  "$PY" "$REF" "$@" >"$T/ref.out" 2>&1; r=$?
  [ $r = 0 ] || t_diag "$(cat "$T/ref.out")"
  t_result $r "$name"
}
gk() { "$GK" apsp --device=cpu "$@"; }

# ---- the graphs (edge lists, so that the reference reads them as text)
"$GK" gen apsp --kind=random --vertices=200 --edges=900 --seed=5 --max-weight=100 "$T/r.edges" 2>/dev/null &&
  "$GK" gen apsp --kind=road --vertices=400 --seed=6 --max-weight=50 --shortcuts=3 "$T/road.edges" &&
  "$GK" gen apsp --kind=powerlaw --vertices=256 --edges=1500 --seed=7 --max-weight=20 "$T/pl.edges" ||
  echo "Bail out! gk gen apsp"
# negative weights, no negative cycle: w = base + h[u] - h[v] with base >= 0
awk 'BEGIN { x = 7; V = 80
  for (v = 0; v < V; v++) { x = (x * 48271) % 2147483647; h[v] = x % 40 }
  for (e = 0; e < 420; e++) {
    x = (x * 48271) % 2147483647; u = x % V; x = (x * 48271) % 2147483647; v = x % V
    x = (x * 48271) % 2147483647; print u, v, x % 30 + h[u] - h[v] } }' >"$T/neg.edges"
grep -q -- ' -' "$T/neg.edges"; t_result $? "the negative-weight graph has negative weights"
set -- r 200 "5,0,17-19,5" road 400 "399,0,210-212,0" pl 256 "0,1,255,100-103" neg 80 "3,0,79,3,40-42"

# ---- rows against scipy, every algorithm
while [ $# -gt 0 ]; do
  g=$1 V=$2 S=$3; shift 3
  n=$(echo "$S" | tr ',' '\n' | awk -F- '{ n += NF == 2 ? $2 - $1 + 1 : 1 } END { print n }')
  if [ $g = neg ]; then algs="bellman-ford johnson auto fw"; else algs="dijkstra bellman-ford johnson auto fw"; fi
  for a in $algs; do
    case $a:$g in
      bellman-ford:*) sa=bellman_ford ;;
      johnson:*|*:neg) sa=johnson ;;
      *) sa=dijkstra ;;
    esac
    t_ok "$g: --sources=$S --algorithm=$a" gk --vertices=$V --sources="$S" --algorithm=$a \
      --predecessors="$T/$g.$a.pred" "$T/$g.edges" "$T/$g.$a.out"
    [ "$(wc -c <"$T/$g.$a.out")" -eq $((n * V * 4)) ]; t_result $? "$g $a: $n x $V int32 values"
    ref "$g $a: the rows equal scipy's $sa" rows "$T/$g.edges" $V $sa "$S" "$T/$g.$a.out"
    ref "$g $a: every predecessor row is a shortest-path tree" pred "$T/$g.edges" $V "$S" "$T/$g.$a.out" \
      "$T/$g.$a.pred"
  done
  cmp -s "$T/$g.bellman-ford.out" "$T/$g.johnson.out" && cmp -s "$T/$g.bellman-ford.out" "$T/$g.auto.out" &&
    cmp -s "$T/$g.bellman-ford.out" "$T/$g.fw.out"
  t_result $? "$g: every algorithm's distances are the same bytes"
done

# ---- all sources by Dijkstra: plain gk apsp's bytes (Floyd-Warshall)
for g in r:200 road:400; do
  V=${g#*:} g=${g%:*}
  gk --vertices=$V "$T/$g.edges" "$T/$g.fw-all" &&
    gk --vertices=$V --sources=0-$((V - 1)) --algorithm=dijkstra "$T/$g.edges" "$T/$g.d-all" &&
    cmp "$T/$g.fw-all" "$T/$g.d-all"
  t_result $? "$g: --sources=0-$((V - 1)) --algorithm=dijkstra is byte-identical with gk apsp (int32)"
done
gk --vertices=200 --algorithm=dijkstra "$T/r.edges" "$T/r.d-none" && cmp -s "$T/r.fw-all" "$T/r.d-none"
t_result $? "--algorithm=dijkstra without --sources: every vertex, the same bytes"

# ---- .npy: shape (S, V)
t_ok ".npy output" gk --vertices=200 --sources="5,0,17-19,5" --algorithm=dijkstra "$T/r.edges" "$T/r.npy"
[ "$(tail -c $((6 * 200 * 4)) "$T/r.npy" | cmp - "$T/r.dijkstra.out" && echo same)" = same ] &&
  head -c 128 "$T/r.npy" | grep -q "'shape': (6, 200)"
t_result $? ".npy: the header says (6, 200), then the raw rows' bytes"
ref ".npy: numpy.load gives int32 (6, 200), scipy's rows" rows "$T/r.edges" 200 dijkstra "5,0,17-19,5" "$T/r.npy"

# ---- --min-only, --nearest, --limit
t_ok "--min-only --nearest" gk --vertices=200 --sources="5,0,17-19" --min-only --nearest="$T/r.near" \
  --predecessors="$T/r.mpred" "$T/r.edges" "$T/r.min"
[ "$(wc -c <"$T/r.min")" -eq 800 ] && [ "$(wc -c <"$T/r.near")" -eq 800 ]; t_result $? "--min-only: one row of 200"
ref "--min-only: scipy's min_only distances; --nearest: a source at that distance" minonly "$T/r.edges" 200 \
  "5,0,17-19" "$T/r.min" "$T/r.near"
ref "--min-only: the predecessors are a shortest-path forest from the sources" pred "$T/r.edges" 200 "5,0,17-19" \
  "$T/r.min" "$T/r.mpred" minonly
t_ok "--min-only --nearest=.npy --limit" gk --vertices=400 --sources="0,399,210" --min-only --limit=200 \
  --nearest="$T/road.near.npy" "$T/road.edges" "$T/road.min.npy"
head -c 128 "$T/road.min.npy" | grep -q "'shape': (1, 400)" && head -c 128 "$T/road.near.npy" | grep -q "'shape': (1, 400)"
t_result $? "--min-only: .npy outputs of one row, shape (1, 400)"
ref "--min-only --limit=200: scipy's, .npy of one row (1, 400)" minonly "$T/road.edges" 400 "0,399,210" "$T/road.min.npy" \
  "$T/road.near.npy" 200
# a limit equal to a distance keeps it (scipy: > limit is unreachable)
L=$(od -A n -v -t d4 -j $((4 * (400 + 399))) -N 4 "$T/road.dijkstra.out" | tr -d ' ')
t_ok "--limit=$L (row 1: source 0 to vertex 399)" gk --vertices=400 --sources="399,0,210-212,0" --limit="$L" \
  --predecessors="$T/road.lpred" "$T/road.edges" "$T/road.lim"
ref "--limit=$L: scipy's dijkstra(limit=$L)" rows "$T/road.edges" 400 dijkstra "399,0,210-212,0" "$T/road.lim" "$L"
[ "$(od -A n -v -t d4 -j $((4 * (400 + 399))) -N 4 "$T/road.lim" | tr -d ' ')" = "$L" ]
t_result $? "--limit: a distance equal to the limit is kept"
cmp -s "$T/road.lim" "$T/road.dijkstra.out"; [ $? = 1 ]
t_result $? "--limit: some distances became unreachable"
ref "--limit: the predecessors are shortest-path trees of what is left" pred "$T/road.edges" 400 "399,0,210-212,0" \
  "$T/road.lim" "$T/road.lpred"
t_ok "--limit=0" gk --vertices=200 --sources=5,0 --limit=0 "$T/r.edges" "$T/r.l0"
ref "--limit=0: the sources and the zero-weight paths only (scipy's)" rows "$T/r.edges" 200 dijkstra "5,0" "$T/r.l0" 0

# ---- @FILE with comments, blank lines and ranges
printf '# the sources\n5\n\n  0   # the first vertex\n17-19\n\t5\n' >"$T/list"
t_ok "--sources=@FILE" gk --vertices=200 --sources=@"$T/list" --algorithm=dijkstra "$T/r.edges" "$T/r.at"
cmp -s "$T/r.at" "$T/r.dijkstra.out"; t_result $? "@FILE: the rows of --sources=5,0,17-19,5"

# ---- bad inputs: one line, the exit status, no output file
noout() { [ ! -e "$T/o" ] && [ ! -e "$T/p" ] && [ ! -e "$T/n" ] && [ -z "$(ls "$T" | grep '\.tmp')" ]; }
bad() {  # bad NAME CODE PATTERN OPTION...
  name=$1 code=$2 pat=$3; shift 3
  rm -f "$T/o" "$T/p" "$T/n"
  t_fails "$name" "$code" "$pat" "$GK" apsp --device=cpu "$@"
  noout; t_result $? "$name: no output file"
}
bad "a source outside [0, V)" 1 "r.edges: source 200 (position 1) is outside \[0, 200)" \
  --sources=3,200 --vertices=200 --predecessors="$T/p" "$T/r.edges" "$T/o"
printf '1\n999\n' >"$T/far"
bad "a source outside [0, V) in @FILE, --min-only" 1 "source 999 .* outside \[0, 200)" \
  --sources=@"$T/far" --min-only --nearest="$T/n" --vertices=200 "$T/r.edges" "$T/o"
bad "a negative weight with --algorithm=dijkstra points at johnson" 1 \
  "negative weight .* Dijkstra needs non-negative weights; use --algorithm=johnson" \
  --sources=0 --algorithm=dijkstra --predecessors="$T/p" "$T/neg.edges" "$T/o"
printf '0 1 4\n1 2 -3\n2 3 1\n3 1 1\n2 0 9\n' >"$T/cyc.edges"
for a in bellman-ford johnson auto; do
  bad "a negative cycle, --algorithm=$a: names a vertex on it" 1 "cyc.edges: negative cycle through vertex [123]\$" \
    --sources=0 --algorithm=$a --predecessors="$T/p" "$T/cyc.edges" "$T/o"
done
printf '0 1 1\n' >"$T/one.edges"
bad "--algorithm=fw on a graph too big for the V x V matrix: the memory it needs" 1 \
  "fw needs the whole V x V int32 matrix (3.6 TiB for V = 1000000)" \
  --sources=0 --algorithm=fw --vertices=1000000 "$T/one.edges" "$T/o"
t_ok "auto on that graph: not fw" gk --sources=0 --vertices=1000000 --verbose "$T/one.edges" "$T/big.out"
grep -q "fw V x V does not fit" "$T/err"; t_result $? "--verbose: auto says fw does not fit"
for l in "1,,2" "a" "3-1" "-1" "1-" "0,5x"; do
  bad "--sources=$l: a usage error" 2 "--sources=$l: .* is not a vertex number or a range A-B" \
    --sources="$l" "$T/r.edges" "$T/o"
done
printf '# nothing\n\n   # at all\n' >"$T/empty"
bad "an empty @FILE" 1 "empty: no sources in it" --sources=@"$T/empty" "$T/r.edges" "$T/o"
printf '4\nfive\n' >"$T/word"
bad "a bad line of @FILE names the file and line" 1 "word:2: 'five' is not a vertex number" \
  --sources=@"$T/word" "$T/r.edges" "$T/o"
bad "a missing @FILE" 1 "--sources=@.*nofile: No such file" --sources=@"$T/nofile" "$T/r.edges" "$T/o"
bad "--limit=-1" 2 "--limit=-1: want a distance >= 0" --sources=0 --limit=-1 "$T/r.edges" "$T/o"
bad "--limit=nan" 2 "--limit" --sources=0 --limit=nan "$T/r.edges" "$T/o"
bad "--nearest without --min-only" 2 "--nearest=.*n: the nearest sources come with --min-only" \
  --sources=0 --nearest="$T/n" "$T/r.edges" "$T/o"
bad "--algorithm=bogus" 2 "--algorithm: .*bogus" --sources=0 --algorithm=bogus "$T/r.edges" "$T/o"
bad "--config=garbage with --sources (dijkstra runs: checked anyway)" 2 "--config: bad configuration item 'garbage'" \
  --sources=0 --algorithm=dijkstra --config=garbage "$T/r.edges" "$T/o"
bad "--sources with --check" 2 "--check" --sources=0 --check "$T/r.edges" "$T/o"
bad "one file named as two outputs" 2 "named as two outputs" --sources=0 --predecessors="$T/o" "$T/r.edges" "$T/o"
# ---- the run's refusals name the input file (not a library function)
bad "a negative weight with --algorithm=dijkstra names the file" 1 \
  "^gk: .*neg.edges: negative weight .* Dijkstra needs non-negative weights" \
  --sources=0 --algorithm=dijkstra "$T/neg.edges" "$T/o"
for m in "" --min-only; do
  bad "--limit with negative weights $m: names the file, not gk_sssp_run" 1 \
    "^gk: .*neg.edges: limit needs non-negative weights" --sources=0,3 $m --limit=5 "$T/neg.edges" "$T/o"
done
bad "--algorithm=fw too big: names the file" 1 "^gk: .*one.edges: fw needs the whole V x V" \
  --sources=0 --algorithm=fw --vertices=1000000 "$T/one.edges" "$T/o"
"$PY" -c 'import numpy; numpy.save("'"$T"'/dense.npy", numpy.zeros((3, 3)))' 2>/dev/null ||
  printf '\223NUMPY\001\000v\000{}' >"$T/dense.npy"
bad "a dense .npy INPUT: a graph file is needed, said so" 1 \
  "dense.npy: a .npy file is a dense matrix, not a graph file: .* nthu, gr, mtx or edges" \
  --sources=0 "$T/dense.npy" "$T/o"

# ---- OUTPUT '-', a pipe, a FIFO (written in order), --output-format
gk --vertices=200 --sources="5,0,17-19,5" "$T/r.edges" - >"$T/r.stdout"
t_result $? "OUTPUT '-': exit 0"
cmp -s "$T/r.stdout" "$T/r.dijkstra.out"; t_result $? "OUTPUT '-': the rows' bytes on standard output"
gk --vertices=200 --sources="5,0,17-19,5" --output-format=npy "$T/r.edges" - | cat >"$T/r.pipe"
cmp -s "$T/r.pipe" "$T/r.npy"; t_result $? "OUTPUT '-' into a pipe with --output-format=npy: the .npy bytes"
gk --vertices=200 --sources="5,0,17-19,5" --output-format=npy "$T/r.edges" "$T/r.named-raw"
cmp -s "$T/r.named-raw" "$T/r.npy"; t_result $? "--output-format=npy: .npy whatever the name"
gk --vertices=200 --sources="5,0,17-19,5" --output-format=nthu "$T/r.edges" "$T/r.raw.npy"
cmp -s "$T/r.raw.npy" "$T/r.dijkstra.out"; t_result $? "--output-format=nthu: raw rows even for a .npy name"
gk --vertices=400 --sources=0,399 --min-only --output-format=npy --nearest="$T/road.near-" \
  "$T/road.edges" - >"$T/road.min-" &&
  gk --vertices=400 --sources=0,399 --min-only --nearest="$T/road.near2" "$T/road.edges" "$T/road.min2.npy" &&
  cmp -s "$T/road.min-" "$T/road.min2.npy" && cmp -s "$T/road.near-" "$T/road.near2"
t_result $? "--min-only to standard output: the same row and nearest sources"
rm -f "$T/fifo"
if mkfifo "$T/fifo" 2>/dev/null; then
  cat "$T/fifo" >"$T/fifo.out" &
  reader=$!
  gk --vertices=200 --sources="5,0,17-19,5" --predecessors="$T/fifo.pred" "$T/r.edges" "$T/fifo"; r=$?
  [ $r = 0 ] || kill $reader 2>/dev/null      # never opened: the reader would wait for ever
  wait $reader
  [ $r = 0 ]; t_result $? "OUTPUT a FIFO: exit 0 (no 'Illegal seek')"
  cmp -s "$T/fifo.out" "$T/r.dijkstra.out"; t_result $? "OUTPUT a FIFO: the rows' bytes"
else
  t_skip "mkfifo failed" "OUTPUT a FIFO"
fi
# ---- --time: its table, once (not --verbose's lines as well)
gk --vertices=200 --sources=5,0 --time "$T/r.edges" "$T/r.time" >"$T/time.out" 2>"$T/time.err"
t_result $? "--time: exit 0"
[ "$(grep -c 'predicted fastest' "$T/time.out" "$T/time.err" | awk -F: '{ n += $2 } END { print n }')" = 1 ] &&
  [ ! -s "$T/time.err" ] && grep -q '^compute ' "$T/time.out"
t_result $? "--time: the table on stdout says the algorithm and why once, nothing on stderr"
# ---- --limit=inf: no limit (scipy's default), the same rows
gk --vertices=200 --sources="5,0,17-19,5" --limit=inf "$T/r.edges" "$T/r.linf" &&
  cmp -s "$T/r.linf" "$T/r.dijkstra.out"
t_result $? "--limit=inf: no limit, the rows of no --limit"
# ---- a range past V is refused before it is expanded: --sources=0-2000000000
# on a 200-vertex graph is one message, not a 16 GB list (ulimit -v: 390 MiB of
# address space; AddressSanitizer reserves terabytes: skipped there)
if [ "${GK_SANITIZERS:-no}" != no ]; then
  t_skip "address-space limits do not apply under the sanitizers" "a huge range past V in bounded memory"
else
  rm -f "$T/o"
  (ulimit -v 400000 && OMP_NUM_THREADS=2 exec "$GK" apsp --device=cpu --vertices=200 --sources=7,0-2000000000 \
    "$T/r.edges" "$T/o") 2>"$T/range.err"; rc=$?
  [ $rc = 1 ] && [ "$(wc -l <"$T/range.err")" = 1 ] && [ ! -e "$T/o" ] &&
    grep -q "r.edges: source 200 (position 201) is outside \[0, 200)" "$T/range.err"
  r=$?; [ $r = 0 ] || t_diag "exit $rc: $(cat "$T/range.err")"
  t_result $r "--sources=7,0-2000000000 on 200 vertices: source 200 at position 201 named, in 390 MiB"
fi
t_done
