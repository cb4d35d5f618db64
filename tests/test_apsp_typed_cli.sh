#!/bin/sh
# gk apsp --weights / --predecessors and gk path from the command line (issue
# 24), against hand-computed results: real and negative weights, the auto
# type rule (int32, int64, float64), .npy inputs, -0.0, predecessors and the
# paths read back from them; every bad input one line naming the file and
# line or the option, a non-zero exit, and neither OUTPUT nor the
# predecessors file left behind.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp

# the numbers of a raw file of TYPE (od's -t), one per line
nums() { od -A n -v -t "$1" "$2" | tr -s ' \t' '\n\n' | grep -v '^$'; }
# numeric equality of two lists (awk reads inf and -0 the same way as C)
same() { printf '%s\n' $2 >"$T/want.txt"; nums "$1" "$3" >"$T/got.txt"
  awk 'NR == FNR { w[FNR] = $1; n = FNR; next } { if (!(FNR in w) || $1 + 0 != w[FNR] + 0) bad = 1; m = FNR }
       END { exit bad || m != n }' "$T/want.txt" "$T/got.txt"; }
noout() { [ ! -e "$T/o" ] && [ ! -e "$T/p" ] && [ -z "$(ls "$T" | grep '^[op]\..*tmp\|\.tmp\.')" ]; }

# ---- real and negative weights (unique shortest paths: any tie rule agrees)
printf 'c hand-made\np sp 4 5\na 1 2 0.5\na 2 3 -0.25\na 3 4 1.5\na 1 4 3\na 4 1 2\n' >"$T/g.gr"
D="0 0.5 0.25 1.75  3.25 0 -0.25 1.25  3.5 4 0 1.5  2 2.5 2.25 0"
P="-1 0 1 2  3 -1 1 2  3 0 -1 2  3 0 1 -1"
t_ok "gr with real and negative weights, --predecessors" "$GK" apsp --device=cpu --predecessors="$T/g.pred" "$T/g.gr" "$T/g.out"
same f8 "$D" "$T/g.out"; t_result $? "auto: float64 distances, hand-computed"
same d4 "$P" "$T/g.pred"; t_result $? "predecessors, hand-computed (-1: none)"
t_ok "--check on float64" "$GK" apsp --device=cpu --check --weights=float64 "$T/g.gr" "$T/g.chk"
grep -q "check against the plain CPU k-i-j loop: every distance within the tolerance: ok" "$T/out"
t_result $? "--check says the tolerance was met"
cmp -s "$T/g.out" "$T/g.chk"; t_result $? "--check changes nothing"
t_ok "--weights=float32" "$GK" apsp --device=cpu --weights=float32 "$T/g.gr" "$T/g32.out"
[ "$(wc -c <"$T/g32.out")" -eq 64 ] && same f4 "$D" "$T/g32.out"; t_result $? "float32: 4 x 4 x 4 bytes, the same values"
"$GK" apsp --device=cpu --json --weights=float64 "$T/g.gr" "$T/g.json" >"$T/json" 2>/dev/null
grep -q '"weights":"float64"' "$T/json"; t_result $? "--json says the weight type"
"$GK" apsp --device=cpu --verbose "$T/g.gr" "$T/g.v" 2>"$T/verr"
grep -q "weights: float64" "$T/verr"; t_result $? "--verbose says the weight type"
"$GK" apsp --device=cpu - "$T/g.stdin" <"$T/g.gr" && cmp -s "$T/g.out" "$T/g.stdin"
t_result $? "the same graph on standard input"
t_ok "predecessors as .npy" "$GK" apsp --device=cpu --predecessors="$T/g.pred.npy" "$T/g.gr" "$T/g.npy"
head -c 128 "$T/g.pred.npy" | grep -q "'descr': '<i4'" && head -c 128 "$T/g.npy" | grep -q "'descr': '<f8'"
t_result $? ".npy outputs carry their dtype (<i4 predecessors, <f8 distances)"

# ---- gk path
t_ok "gk path 1 0" "$GK" path --predecessors="$T/g.pred" 1 0
[ "$(cat "$T/out")" = "1 2 3 0" ]; t_result $? "the path 1 -> 0 is 1 2 3 0 (one line)"
t_ok "gk path with --dist" "$GK" path --predecessors="$T/g.pred.npy" --dist="$T/g.npy" 0 3
[ "$(cat "$T/out")" = "$(printf '0 1 2 3\n1.75')" ]; t_result $? "0 -> 3: 0 1 2 3, length 1.75"
t_fails "gk path: a raw float64 --dist without --weights names the sizes and --weights=float64" 1 \
  "dist=.*g.out: 128 bytes is no 4 x 4 int32 matrix (64 bytes; V = 4 from --predecessors).*--weights=float64" \
  "$GK" path --predecessors="$T/g.pred" --dist="$T/g.out" 0 3
t_fails "gk path: a raw float64 --dist read as float32" 1 "128 bytes is no 4 x 4 float32 matrix.*--weights=float64" \
  "$GK" path --predecessors="$T/g.pred" --dist="$T/g.out" --weights=float32 0 3
t_ok "gk path: the raw float64 --dist with --weights=float64" \
  "$GK" path --predecessors="$T/g.pred" --dist="$T/g.out" --weights=float64 0 3
[ "$(cat "$T/out")" = "$(printf '0 1 2 3\n1.75')" ]; t_result $? "0 -> 3: length 1.75 from the raw file"
head -c 100 "$T/g.out" >"$T/short.out"
t_fails "gk path: a --dist of no type's size: no hint" 1 "100 bytes is no 4 x 4 float64 matrix (128 bytes; V = 4 from --predecessors)\$" \
  "$GK" path --predecessors="$T/g.pred" --dist="$T/short.out" --weights=float64 0 3
t_ok "gk path from a vertex to itself" "$GK" path --predecessors="$T/g.pred" 2 2
[ "$(cat "$T/out")" = "2" ]; t_result $? "2 -> 2 is 2"
printf '0 1 1\n' >"$T/u.edges"
"$GK" apsp --device=cpu --predecessors="$T/u.pred" "$T/u.edges" "$T/u.out" 2>/dev/null
t_fails "gk path: unreachable: exit 1, one line" 1 "no path from 1 to 0" "$GK" path --predecessors="$T/u.pred" 1 0
t_fails "gk path: a vertex outside the matrix" 1 "TO 7: not a vertex of the 2" "$GK" path --predecessors="$T/u.pred" 0 7
t_fails "gk path without --predecessors" 2 "--predecessors=FILE is required" "$GK" path 0 1
printf 'abc' >"$T/bad.pred"
t_fails "gk path: a file that is no V x V int32 matrix" 1 "bad.pred: 3 bytes is no V x V int32 matrix" \
  "$GK" path --predecessors="$T/bad.pred" 0 1
printf '\377\377\377\377\001\000\000\000\001\000\000\000\377\377\377\377' >"$T/cyc.pred"   # [[-1, 1], [1, -1]]: 0 <- 1 <- 1 ...
t_fails "gk path: a broken matrix (a cycle)" 1 "cycle" "$GK" path --predecessors="$T/cyc.pred" 0 1

# ---- the auto type rule on integers
printf '0 1 600000000\n1 2 600000000\n' >"$T/big.edges"
t_ok "auto on long integer paths" "$GK" apsp --device=cpu "$T/big.edges" "$T/big.out"
same d8 "0 600000000 1200000000  4611686018427387903 0 600000000  4611686018427387903 4611686018427387903 0" "$T/big.out"
t_result $? "(V-1) * max|w| >= 2^30 - 1: int64, the path of 1.2e9 kept (2^62 - 1: unreachable)"
"$GK" apsp --device=cpu --weights=int32 "$T/big.edges" "$T/big32.out" 2>"$T/err"
same d4 "0 600000000 1073741823  1073741823 0 600000000  1073741823 1073741823 0" "$T/big32.out"
t_result $? "--weights=int32: today's rule (a path >= 2^30 - 1 reads unreachable)"
grep -q "reported as unreachable" "$T/err"; t_result $? "and its warning"
printf '0 1 5\n1 2 -3\n2 0 1\n' >"$T/neg.edges"
t_ok "small integers with a negative one" "$GK" apsp --device=cpu --predecessors="$T/neg.pred" "$T/neg.edges" "$T/neg.out"
same d4 "0 5 2  -2 0 -3  1 6 0" "$T/neg.out"; t_result $? "int32 distances with a negative weight, hand-computed"
same d4 "-1 0 1  2 -1 1  2 0 -1" "$T/neg.pred"; t_result $? "and their predecessors"
t_ok "--weights=int64 on it" "$GK" apsp --device=cpu --weights=int64 "$T/neg.edges" "$T/neg64.out"
same d8 "0 5 2  -2 0 -3  1 6 0" "$T/neg64.out"; t_result $? "int64: the same values in 8 bytes"
printf '0 1 -0.0\n1 0 2.5\n' >"$T/z.edges"
t_ok "-0.0 weight" "$GK" apsp --device=cpu "$T/z.edges" "$T/z.out"
[ "$(od -A n -t x1 -v "$T/z.out" | tr -d ' \n')" = "0000000000000000000000000000000000000000000004400000000000000000" ]
t_result $? "-0.0 is read as +0.0 (the bytes of 0, +0, 2.5, 0)"

# ---- a dense .npy written the scipy way (0 for "no edge") with one
# negative weight: 0 is an edge of weight 0 for gk, so 0 -> 1 (-1) and
# 1 -> 0 (0) are a negative cycle, and the message says why
hdr="{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }"
pad=$((128 - 10 - ${#hdr} - 1))
{ printf "\223NUMPY\001\000\166\000%s%${pad}s\n" "$hdr" ''
  printf '\000\000\000\000\377\377\377\377\000\000\000\000\000\000\000\000'; } >"$T/scipy0.npy"
[ "$(wc -c <"$T/scipy0.npy")" -eq 144 ]; t_result $? "the hand-made .npy is 128 + 16 bytes"
t_fails "a dense .npy with scipy's 0 = no edge" 1 "negative cycle through vertex .*0 off the diagonal is an edge of weight 0" \
  "$GK" apsp --device=cpu "$T/scipy0.npy" "$T/o"

# ---- a .npy input: the initial matrix as it is (the closure of a closure is itself)
t_ok "a .npy matrix as INPUT" "$GK" apsp --device=cpu "$T/g.npy" "$T/g2.npy"
cmp -s "$T/g.npy" "$T/g2.npy"; t_result $? "its closure again: the same file"

# ---- gk convert with real and negative weights: written as read to the text
# formats (each file solved by gk apsp gives the original's distances, the
# hand-computed D), refused by name for nthu
for f in edges mtx gr; do
  t_ok "convert real and negative weights: gr -> $f" "$GK" convert "$T/g.gr" "$T/conv.$f"
  "$GK" apsp --device=cpu "$T/conv.$f" "$T/conv.$f.out" 2>/dev/null && same f8 "$D" "$T/conv.$f.out"
  t_result $? "$f: gk apsp reads back the distances of the original (hand-computed)"
done
[ "$(grep -v '^#' "$T/conv.edges")" = "$(printf '0 1 0.5\n1 2 -0.25\n2 3 1.5\n0 3 3\n3 0 2')" ]
t_result $? "edges: the weights as read, in file order (0.5, -0.25, not 0.50000000000000000)"
head -1 "$T/conv.mtx" | grep -q '^%%MatrixMarket matrix coordinate real general$'
t_result $? "mtx: a real field for real weights"
printf '0 1 0.1\n0 1 0.7\n1 2 -3\n2 2 -1\n2 0 1e-300\n1 0 123456789012345\n0 2 2.5e20\n' >"$T/r.edges"
t_ok "convert edges -> mtx (duplicates, a self-loop, extreme magnitudes)" "$GK" convert "$T/r.edges" "$T/r.mtx"
[ "$(sed -n '3,$p' "$T/r.mtx")" = "$(printf '3 3 6\n1 2 0.1\n1 3 2.5e+20\n2 1 123456789012345\n2 3 -3\n3 1 1e-300\n3 3 -1')" ]
t_result $? "mtx: the smallest of duplicates, sorted, self-loop kept, every weight exact (shortest text)"
printf 'p sp 4 3\na 1 2 0.5\na 2 3 0.25\na 4 3 1.5\n' >"$T/pos.gr"    # undirected: 0 -> 3 costs 2.25
t_ok "convert --undirected real weights -> gr" "$GK" convert --undirected "$T/pos.gr" "$T/und.gr"
"$GK" apsp --device=cpu "$T/und.gr" "$T/und1.out" 2>/dev/null && "$GK" apsp --device=cpu --undirected "$T/pos.gr" \
  "$T/und2.out" 2>/dev/null && cmp -s "$T/und1.out" "$T/und2.out" &&
  same f8 "0 0.5 0.75 2.25  0.5 0 0.25 1.75  0.75 0.25 0 1.5  2.25 1.75 1.5 0" "$T/und1.out"
t_result $? "--undirected: the converted graph solves as gk apsp --undirected on the original (hand-computed)"
"$GK" convert --format=gr --output-format=edges - - <"$T/g.gr" >"$T/stdin.edges" && cmp -s "$T/stdin.edges" "$T/conv.edges"
t_result $? "convert real weights from standard input to standard output"
printf 'p sp 2 1\na 1 2 -7\n' >"$T/ni.gr"
"$GK" convert "$T/ni.gr" "$T/ni.mtx" && head -1 "$T/ni.mtx" | grep -q 'coordinate integer general' && grep -qx '1 2 -7' "$T/ni.mtx"
t_result $? "negative integers: an integer mtx field"
rm -f "$T/o"
t_fails "convert real weights to nthu: named, with the formats that hold them" 1 \
  "g.gr:3: arc 1 -> 2: weight '0.5' is not an integer (the nthu output .*o holds int32 weights in \\[0, 1073741822\\]: write gr, mtx or edges)" \
  "$GK" convert --output-format=nthu "$T/g.gr" "$T/o"
t_fails "convert --weights=int32 and a real weight" 1 "g.gr:3: .*weight '0.5' is not an integer (--weights=int32)" \
  "$GK" convert --weights=int32 "$T/g.gr" "$T/o.edges"
t_ok "convert --weights=int64 with negative integers" "$GK" convert --weights=int64 "$T/ni.gr" "$T/ni.edges"
t_fails "convert --weights=float64 to nthu: a usage error" 2 "--weights=float64: the nthu OUTPUT holds int32 weights" \
  "$GK" convert --weights=float64 "$T/g.gr" "$T/o"
t_fails "convert --weights=bogus" 2 "--weights: 'bogus' is not auto" "$GK" convert --weights=bogus "$T/g.gr" "$T/o.gr"
[ ! -e "$T/o" ] && [ ! -e "$T/o.edges" ] && [ ! -e "$T/o.gr" ]; t_result $? "convert: no output after the refusals"

# ---- bad inputs: one line, exit status, neither output
bad() {  # bad NAME CODE PATTERN TEXT [OPTION...]
  name=$1 code=$2 pat=$3 text=$4; shift 4
  printf "$text" >"$T/bad.edges"
  rm -f "$T/o" "$T/p"
  t_fails "$name" "$code" "$pat" "$GK" apsp --device=cpu --predecessors="$T/p" "$@" "$T/bad.edges" "$T/o"
  noout; t_result $? "$name: no output, no predecessors file"
}
bad "a negative cycle" 1 "bad.edges: negative cycle through vertex [0-9]" '0 1 1\n1 2 1\n2 0 -3\n'
bad "a negative cycle (float64)" 1 "negative cycle through vertex [0-9]" '0 1 1.5\n1 2 1\n2 0 -3\n'
bad "a negative self-loop is ignored, a negative 2-cycle is not" 1 "negative cycle through vertex" '0 0 -1\n0 1 -1\n1 0 0.5\n'
bad "NaN" 1 "bad.edges:2: edge 1 -> 2: weight nan: NaN is not a weight" '0 1 1\n1 2 nan\n'
bad "inf in a text format" 1 "bad.edges:1: edge 0 -> 1: weight inf: infinity is not a weight" '0 1 inf\n'
bad "a weight that is no number" 1 "bad.edges:2: edge 1 -> 2: weight '1..5' is not a decimal number" '0 1 1\n1 2 1..5\n'
bad "--weights=int64 and a real weight" 1 "bad.edges:1: .*weight '2.5' is not an integer (--weights=int64)" '0 1 2.5\n' --weights=int64
bad "--weights=float32 and a weight beyond float32" 1 "bad.edges:1: .*weight 1e39 is outside float32's range" '0 1 1e39\n' --weights=float32
bad "int32 with a negative weight past the bound" 1 "use int64" '0 1 -300000000\n1 2 1\n' --weights=int32
bad "int64 that would overflow" 1 "int64 distances need (V - 1) \\* max|w| < 2^61" '0 1 9007199254740992\n' --vertices=300
t_fails "--weights=bogus" 2 "--weights: 'bogus' is not auto, int32, int64, float32 or float64" \
  "$GK" apsp --weights=bogus "$T/g.gr" "$T/o"
t_fails "--predecessors = OUTPUT" 2 "the same file as OUTPUT" "$GK" apsp --predecessors="$T/o" "$T/g.gr" "$T/o"
t_fails "--predecessors past one process" 2 "--predecessors needs the whole matrix in one process" \
  "$GK" apsp --exchange=host --predecessors="$T/p" "$T/g.gr" "$T/o"
# (past one process every weight type runs now: the same bytes as one)
"$GK" apsp --exchange=host --weights=float64 "$T/g.gr" "$T/g.host" >/dev/null 2>"$T/host.err" &&
  cmp -s "$T/g.out" "$T/g.host"
t_result $? "--weights=float64 past one process (--exchange=host): the one-process bytes $(head -c 300 "$T/host.err")"
t_fails "--precision with float weights" 2 "--precision=16 applies to int32 distances" \
  "$GK" apsp --precision=16 --weights=float32 "$T/g.gr" "$T/o"
noout; t_result $? "no output after the usage errors"
t_done
