#!/bin/sh
# Graph formats: DIMACS .gr, Matrix Market and text edge lists read by
# `gk apsp` and written by `gk convert` and `gk gen apsp`; .npy distance
# matrices.  Each format gives the NTHU file's distances and round-trips;
# a small graph's distances are checked against values worked out by hand;
# auto detection; every malformed file is refused with one line naming the
# file and the line, exit 1 and no output.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp

# little-endian int32s
i32() { for v in "$@"; do
  printf "\\$(printf %03o $((v & 255)))\\$(printf %03o $(((v >> 8) & 255)))\\$(printf %03o $(((v >> 16) & 255)))\\$(printf %03o $(((v >> 24) & 255)))"
done; }
I=1073741823

# ---- a small graph by hand: 0->1 (3 and 1: duplicates keep 1), 1->2 (0), 2->2 (self-loop), 3->0 (7)
printf 'c a sample\np sp 4 5\na 1 2 3\na 2 3 0\na 1 2 1\na 3 3 4\na 4 1 7\n' >"$T/s.gr"
printf '%%%%MatrixMarket matrix coordinate integer general\n%% a sample\n4 4 5\n1 2 3\n2 3 0\n1 2 1\n3 3 4\n4 1 7\n' >"$T/s.mtx"
printf '# a sample\n0 1 3\n1 2 0   # a 0-weight edge\n\n0 1 1\n2 2 4\n3 0 7\n' >"$T/s.edges"
i32 4 5 0 1 3 1 2 0 0 1 1 2 2 4 3 0 7 >"$T/s.nthu"
i32 0 1 1 $I  $I 0 0 $I  $I $I 0 $I  7 8 8 0 >"$T/s.want"
for f in nthu gr mtx edges; do
  t_ok "apsp reads the hand-made .$f" "$GK" apsp --device=cpu "$T/s.$f" "$T/s.$f.out"
  cmp -s "$T/s.$f.out" "$T/s.want"; t_result $? ".$f: the distances worked out by hand"
done
i32 0 1 1 7  1 0 0 8  1 0 0 8  7 8 8 0 >"$T/s.uwant"
t_ok "apsp --undirected" "$GK" apsp --undirected --device=cpu "$T/s.gr" "$T/s.u.out"
cmp -s "$T/s.u.out" "$T/s.uwant"; t_result $? "--undirected: every edge both ways (by hand)"
t_ok "apsp --undirected on nthu" "$GK" apsp --undirected --device=cpu "$T/s.nthu" "$T/s.u2.out"
cmp -s "$T/s.u2.out" "$T/s.uwant"; t_result $? "--undirected on nthu (by hand)"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n' >"$T/p.mtx"
i32 0 1 2  1 0 1  2 1 0 >"$T/p.want"
"$GK" apsp "$T/p.mtx" "$T/p.out" && cmp -s "$T/p.out" "$T/p.want"
t_result $? "mtx pattern symmetric: weight 1 both ways (by hand)"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 4.0e0\n' >"$T/r.mtx"
i32 0 4 $I 0 >"$T/r.want"
"$GK" apsp "$T/r.mtx" "$T/r.out" && cmp -s "$T/r.out" "$T/r.want"; t_result $? "mtx real with integral values"
printf '0 1 5\n' >"$T/v.edges"
i32 0 5 $I $I  $I 0 $I $I  $I $I 0 $I  $I $I $I 0 >"$T/v.want"
"$GK" apsp --vertices=4 "$T/v.edges" "$T/v.out" && cmp -s "$T/v.out" "$T/v.want"
t_result $? "edges --vertices=4: more vertices than the largest id + 1"

# ---- a generated graph: every format gives the NTHU distances and round-trips
t_ok "gen apsp (nthu)" "$GK" gen apsp --vertices=120 --edges=900 --seed=7 --max-weight=30 "$T/g.nthu"
t_ok "apsp on the nthu file" "$GK" apsp --device=cpu "$T/g.nthu" "$T/g.want"
for f in gr mtx edges; do
  t_ok "convert nthu -> $f" "$GK" convert "$T/g.nthu" "$T/g.$f"
  t_ok "apsp on .$f" "$GK" apsp --device=cpu "$T/g.$f" "$T/g.$f.out"
  cmp -s "$T/g.$f.out" "$T/g.want"; t_result $? ".$f gives the nthu file's distances"
  t_ok "convert $f -> nthu" "$GK" convert "$T/g.$f" "$T/g.$f.nthu"
  "$GK" apsp --device=cpu "$T/g.$f.nthu" "$T/g.$f.nthu.out" && cmp -s "$T/g.$f.nthu.out" "$T/g.want"
  t_result $? "$f -> nthu round trip: same distances"
  t_ok "gen apsp --format=$f" "$GK" gen apsp --vertices=120 --edges=900 --seed=7 --max-weight=30 "$T/gen.$f"
  cmp -s "$T/gen.$f" "$T/g.$f"; t_result $? "gen in .$f = the nthu graph converted (same seed, same graph)"
done
cmp -s "$T/g.gr.nthu" "$T/g.nthu"; t_result $? "nthu -> gr -> nthu is byte-identical"
# an edge list cannot record vertices without an edge: gen says so (as
# convert does), and --vertices reads it back as the graph it was
"$GK" gen apsp --vertices=100 --edges=1 --seed=3 "$T/iso.edges" 2>"$T/iso.err"; rc=$?
[ $rc = 0 ] && grep -q "iso.edges: vertices [0-9]* to 99 have no edge.*--vertices=100" "$T/iso.err"
t_result $? "gen apsp to an edge list warns about the vertices it cannot record"
"$GK" gen apsp --vertices=100 --edges=1 --seed=3 "$T/iso.nthu" && "$GK" apsp --device=cpu "$T/iso.nthu" "$T/iso.want" \
  && "$GK" apsp --device=cpu --vertices=100 "$T/iso.edges" "$T/iso.out" && cmp -s "$T/iso.out" "$T/iso.want"
t_result $? "read with --vertices, that edge list gives the nthu graph's distances"
"$GK" gen apsp --vertices=120 --edges=900 --seed=7 "$T/full.edges" 2>"$T/full.err" && [ ! -s "$T/full.err" ]
t_result $? "no warning when the last vertex has an edge"
cmp -s "$T/g.edges.nthu" "$T/g.nthu"; t_result $? "nthu -> edges -> nthu is byte-identical"
[ "$(sed -n 3p "$T/g.mtx" | cut -d' ' -f3)" -le 900 ] && ! sort "$T/g.mtx" | awk 'NR > 3 { print $1, $2 }' | uniq -d | grep -q .
t_result $? "mtx output merges duplicate entries"
t_ok "convert --output-format=gr to a name without extension" "$GK" convert --output-format=gr "$T/g.nthu" "$T/plain"
cmp -s "$T/plain" "$T/g.gr"; t_result $? "--output-format overrides the name"

# ---- auto detection: by the first bytes when the name says nothing, stdin
cp "$T/g.gr" "$T/noext1"; cp "$T/g.mtx" "$T/noext2"; cp "$T/g.edges" "$T/noext3"; cp "$T/g.nthu" "$T/noext4"
for nf in 1:gr 2:mtx 3:edges 4:nthu; do
  n=${nf%%:*}
  "$GK" apsp --device=cpu "$T/noext$n" "$T/noext$n.out" && cmp -s "$T/noext$n.out" "$T/g.want"
  t_result $? "auto detection of ${nf#*:} from the first bytes"
done
cp "$T/g.gr" "$T/mislabeled.txt"
t_fails "a .txt name is read as an edge list" 1 "mislabeled.txt:1: " "$GK" apsp "$T/mislabeled.txt" "$T/x"
t_ok "--format=gr overrides the name" "$GK" apsp --format=gr --device=cpu "$T/mislabeled.txt" "$T/ml.out"
cmp -s "$T/ml.out" "$T/g.want"; t_result $? "--format=gr: same distances"
"$GK" apsp --format=edges --device=cpu - "$T/stdin.out" <"$T/g.edges" && cmp -s "$T/stdin.out" "$T/g.want"
t_result $? "an edge list on standard input with --format=edges"
"$GK" apsp --device=cpu - "$T/stdin2.out" <"$T/g.nthu" && cmp -s "$T/stdin2.out" "$T/g.want"
t_result $? "standard input is nthu by default"
"$GK" convert --format=gr --output-format=edges - - <"$T/g.gr" >"$T/stdout.edges" && cmp -s "$T/stdout.edges" "$T/g.edges"
t_result $? "convert from standard input to standard output"
if mkfifo "$T/pipe.gr" 2>/dev/null; then
  cat "$T/g.gr" >"$T/pipe.gr" &
  timeout 60 "$GK" apsp --device=cpu "$T/pipe.gr" "$T/pipe.out" && cmp -s "$T/pipe.out" "$T/g.want"
  t_result $? "a FIFO named .gr is read once, as gr (detection does not take its bytes)"
  wait
else
  echo "ok $((t_n = t_n + 1)) - a FIFO named .gr # SKIP mkfifo failed"
fi
if mkfifo "$T/pipe" 2>/dev/null; then
  (cat "$T/g.gr" >"$T/pipe" 2>/dev/null &)
  t_fails "a text graph through a FIFO of no extension: read as NTHU, and the message says it is text and names --format" 1 \
    "pipe: looks like text (first bytes '.*'), not the NTHU binary format: a pipe or device is read as NTHU unless its name ends in .gr, .mtx or .edges: give --format=edges.gr.mtx" \
    timeout 60 "$GK" apsp --device=cpu "$T/pipe" "$T/pipe2.out"
  [ ! -e "$T/pipe2.out" ]; t_result $? "and no output"
else
  echo "ok $((t_n = t_n + 1)) - a text FIFO # SKIP mkfifo failed"
  echo "ok $((t_n = t_n + 1)) - and no output # SKIP mkfifo failed"
fi
# standard input is sniffed like a file: its first bytes kept for the reader
for f in gr mtx edges nthu; do
  cat "$T/g.$f" | "$GK" apsp --device=cpu - "$T/sniff.$f.out" && cmp -s "$T/sniff.$f.out" "$T/g.want"
  t_result $? "a .$f graph piped into standard input without --format: detected, same distances"
done
cat "$T/g.gr" | "$GK" convert - "$T/sniff.nthu" && cmp -s "$T/sniff.nthu" "$T/g.nthu"
t_result $? "convert: a piped .gr detected"
printf 'src,dst,w\n0,1,5\n' >"$T/edges.csv"
t_fails "text of no known format: detection says what it saw and names --format" 1 \
  "edges.csv: looks like text, not the NTHU binary format (first bytes 'src,dst,w'); name the format with --format=edges|gr|mtx" \
  "$GK" apsp "$T/edges.csv" "$T/x.npy"
t_fails "the same on standard input" 1 "standard input: looks like text.*--format=" \
  sh -c 'printf "src,dst,w\n" | exec "$1" apsp - "$2"' sh "$GK" "$T/x.npy"
printf '0,1,5\n' >"$T/c.csv"
t_fails "a comma-separated edge list: the commas named" 1 "c.csv:1: an edge line must be 'SRC DST W' (fields separated by spaces or tabs, not commas)" \
  "$GK" apsp "$T/c.csv" "$T/x.npy"
[ ! -e "$T/x.npy" ]; t_result $? "and no output"

# ---- a UTF-8 byte-order mark is skipped (documented); CR-only line ends named
printf '\357\273\277c bom\np sp 4 5\na 1 2 3\na 2 3 0\na 1 2 1\na 3 3 4\na 4 1 7\n' >"$T/bom.gr"
printf '\357\273\277%%%%MatrixMarket matrix coordinate integer general\n4 4 5\n1 2 3\n2 3 0\n1 2 1\n3 3 4\n4 1 7\n' >"$T/bom.mtx"
printf '\357\273\2770 1 3\n1 2 0\n0 1 1\n2 2 4\n3 0 7\n' >"$T/bom.edges"
for f in gr mtx edges; do
  "$GK" apsp --device=cpu "$T/bom.$f" "$T/bom.$f.out" && cmp -s "$T/bom.$f.out" "$T/s.want"
  t_result $? ".$f starting with a UTF-8 byte-order mark: read as without it"
  cp "$T/bom.$f" "$T/bomnoext$f"
  "$GK" apsp --device=cpu "$T/bomnoext$f" "$T/bomnoext.out" && cmp -s "$T/bomnoext.out" "$T/s.want"
  t_result $? "and detected as $f without an extension"
done
printf 'p sp 4 1\ra 1 2 3\r' >"$T/cr.gr"
t_fails "CR-only line ends are named" 1 "cr.gr:1: a carriage return (CR) inside the line: lines must end with LF or CR LF" \
  "$GK" apsp "$T/cr.gr" "$T/x"
printf 'p sp 4 1\r\na 1 2 3\r\n' >"$T/crlf.gr"
t_ok "CR LF line ends are read" "$GK" apsp --device=cpu "$T/crlf.gr" "$T/crlf.out"
# empty files: no line 0
for f in gr mtx edges; do
  : >"$T/empty.$f"
  t_fails "an empty .$f: 'the file is empty', no line number" 1 "^gk: [^:]*empty\.$f: the file is empty" \
    "$GK" apsp "$T/empty.$f" "$T/x"
done
# numbers: decimal only (no hexadecimal floats, inf or nan); a leading + is accepted
for v in 0x1p4 0x10 1e 1.e5x; do
  printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 %s\n' $v >"$T/num.mtx"
  t_fails "mtx real '$v' is refused" 1 "num.mtx:3: entry (1, 2): weight '$v' is not a decimal number" \
    "$GK" apsp "$T/num.mtx" "$T/x"
done
# inf and nan: no text format defines them as "no edge" (1.2: the typed reader names them)
for v in inf nan -inf +NaN Infinity; do
  printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 %s\n' $v >"$T/num.mtx"
  t_fails "mtx real '$v' is refused" 1 "num.mtx:3: entry (1, 2): weight $v: .* is not a weight" \
    "$GK" apsp "$T/num.mtx" "$T/x"
done
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 2\n+1 +2 +1.6e1\n2 1 .5e1\n' >"$T/plus.mtx"
i32 0 16 5 0 >"$T/plus.want"
"$GK" apsp --device=cpu "$T/plus.mtx" "$T/plus.out" && cmp -s "$T/plus.out" "$T/plus.want"
t_result $? "mtx: '+1', '+1.6e1' and '.5e1' are read (16 and 5)"
printf '+0 +1 +7\n' >"$T/plus.edges"
i32 0 7 $I 0 >"$T/plus.ewant"
"$GK" apsp --device=cpu "$T/plus.edges" "$T/plus.eout" && cmp -s "$T/plus.eout" "$T/plus.ewant"
t_result $? "edges: a leading + is accepted"

# ---- 1-based edge lists: a warning, and --one-based reads them so
printf '1 2 3\n2 3 0\n1 2 1\n3 3 4\n4 1 7\n' >"$T/one.edges"
"$GK" apsp --device=cpu "$T/one.edges" "$T/one0.out" 2>"$T/one.err"; rc=$?
[ $rc = 0 ] && [ "$(grep -c . "$T/one.err")" = 1 ] && grep -q "one.edges: no edge names vertex 0 (the smallest id is 1).*--one-based" "$T/one.err"
t_result $? "an edge list that never names 0 and names 1: one warning line"
t_ok "--one-based" "$GK" apsp --device=cpu --one-based "$T/one.edges" "$T/one.out"
cmp -s "$T/one.out" "$T/s.want" && [ ! -s "$T/err" ]; t_result $? "--one-based: the hand-worked distances, no warning"
"$GK" convert --one-based "$T/one.edges" "$T/one.gr" 2>"$T/one.err" && [ ! -s "$T/one.err" ] \
  && "$GK" apsp --device=cpu "$T/one.gr" "$T/one.gr.out" && cmp -s "$T/one.gr.out" "$T/s.want"
t_result $? "convert --one-based: the same graph"
"$GK" convert "$T/one.edges" "$T/one0.gr" 2>"$T/one.err"; grep -q "no edge names vertex 0" "$T/one.err"
t_result $? "convert warns too"
printf '0 1 3\n' | "$GK" apsp --device=cpu - "$T/z.out" 2>"$T/z.err" && [ ! -s "$T/z.err" ]
t_result $? "no warning when vertex 0 has an edge"
t_ok "--one-based with --vertices" "$GK" apsp --device=cpu --one-based --vertices=4 "$T/one.edges" "$T/one4.out"
cmp -s "$T/one4.out" "$T/s.want"; t_result $? "and the same distances"
t_fails "--one-based: id 0 refused" 1 "z0.edges:1: edge 0 -> 1: vertex 0 is outside \\[1, " \
  sh -c 'printf "0 1 3\n" >"$1/z0.edges"; exec "$2" apsp --one-based "$1/z0.edges" "$1/x"' sh "$T" "$GK"
t_fails "--one-based on a .gr file" 1 "s.gr: --one-based applies to edge lists; a gr file has its own numbering (1-based)" \
  "$GK" apsp --one-based "$T/s.gr" "$T/x"
t_fails "--one-based on an nthu file" 1 "s.nthu: --one-based applies to edge lists" "$GK" convert --one-based "$T/s.nthu" "$T/x.gr"

# ---- duplicates merged in bounded memory: an edge list of 20 000 lines over
# 60 vertices (more distinct pairs than the first table holds: gk switches to
# the 60 x 60 matrix) plus self-loops, converted to mtx and checked against
# an awk reference (the smallest weight of each pair, sorted, 1-based)
"$GK" gen apsp --vertices=60 --edges=20000 --seed=11 --max-weight=50 "$T/dup.edges" 2>/dev/null
printf '5 5 9\n5 5 3\n59 59 0\n' >>"$T/dup.edges"
t_ok "convert a duplicate-heavy edge list with self-loops to mtx" "$GK" convert "$T/dup.edges" "$T/dup.mtx"
grep -v '^#' "$T/dup.edges" | awk '{ k = ($1 + 1) " " ($2 + 1); if (!(k in m) || $3 < m[k]) m[k] = $3 }
  END { for (k in m) print k, m[k] }' | sort -n -k1,1 -k2,2 >"$T/dup.ref"
tail -n +4 "$T/dup.mtx" >"$T/dup.body"
cmp -s "$T/dup.body" "$T/dup.ref" && [ "$(sed -n 3p "$T/dup.mtx")" = "60 60 $(wc -l <"$T/dup.ref")" ]
t_result $? "mtx: each pair once with its smallest weight, self-loops kept, sorted (awk reference)"
"$GK" convert "$T/dup.edges" "$T/dup.nthu" && "$GK" apsp --device=cpu "$T/dup.nthu" "$T/dup.want" &&
  "$GK" apsp --device=cpu "$T/dup.edges" "$T/dup.out" && cmp -s "$T/dup.out" "$T/dup.want" &&
  "$GK" apsp --device=cpu --undirected "$T/dup.nthu" "$T/dup.uwant" &&
  "$GK" apsp --device=cpu --undirected "$T/dup.edges" "$T/dup.uout" && cmp -s "$T/dup.uout" "$T/dup.uwant"
t_result $? "apsp of it (directed and undirected) = apsp of the nthu file (read as a list)"

# ---- .npy output
t_ok "apsp --output-format=npy" "$GK" apsp --output-format=npy --device=cpu "$T/g.gr" "$T/g.out.npy"
hdr=$(head -c 6 "$T/g.out.npy" | od -An -c | tr -d ' ')
size=$(wc -c <"$T/g.out.npy")
[ "$hdr" = "223NUMPY" ] && [ $(((size - 120 * 120 * 4) % 64)) = 0 ] && tail -c $((120 * 120 * 4)) "$T/g.out.npy" | cmp -s - "$T/g.want"
t_result $? ".npy: the magic, a 64-byte aligned header, then the nthu bytes"
t_ok "a .npy name is npy by default" "$GK" apsp --device=cpu "$T/g.gr" "$T/auto.npy"
cmp -s "$T/auto.npy" "$T/g.out.npy"; t_result $? "auto: .npy by the name"
if [ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import numpy' 2>/dev/null; then
  "$PYTHON" -c 'import numpy as np, sys
a = np.load(sys.argv[1]); b = np.fromfile(sys.argv[2], dtype="<i4").reshape(120, 120)
sys.exit(not (a.dtype == np.int32 and a.shape == (120, 120) and (a == b).all()))' "$T/g.out.npy" "$T/g.want"
  t_result $? "numpy.load reads the .npy (int32, 120 x 120, the same values)"
else
  echo "ok $((t_n = t_n + 1)) - numpy.load reads the .npy # SKIP no python3 with numpy"
fi

# ---- warnings and option rules
i32 6 1 0 2 1 >"$T/iso.nthu"
t_ok "convert to edges with isolated vertices" "$GK" convert "$T/iso.nthu" "$T/iso.edges"
grep -q 'read it with --vertices=6' "$T/err"; t_result $? "convert warns that an edge list loses isolated vertices"
t_fails "--vertices on a .gr file" 1 "s.gr: --vertices applies to edge lists" "$GK" apsp --vertices=9 "$T/s.gr" "$T/x"
t_fails "--format=npy for a graph" 2 "want auto, nthu, gr, mtx or edges" "$GK" apsp --format=npy "$T/s.gr" "$T/x"
t_fails "--output-format=gr for distances" 2 "want auto, nthu or npy" "$GK" apsp --output-format=gr "$T/s.gr" "$T/x"
t_fails "convert to npy" 2 "want auto, nthu, gr, mtx or edges" "$GK" convert --output-format=npy "$T/s.gr" "$T/x"
t_fails "convert without OUTPUT" 2 "INPUT and OUTPUT" "$GK" convert "$T/s.gr"
t_fails "convert onto its input" 1 "s.gr" "$GK" convert "$T/s.gr" "$T/s.gr"

# ---- malformed files: one line FILE:LINE: ..., exit 1, no output
# the int32 rules, which --weights=int32 and gk convert keep (1.2)
bad_int32() {  # bad_int32 EXT NAME PATTERN TEXT (printf format)
  ext=$1 name=$2 pat=$3
  printf "$4" >"$T/bad.$ext"
  rm -f "$T/bad.out" "$T/bad.conv"
  t_fails "$ext: $name (--weights=int32)" 1 "bad\\.$ext:$pat" "$GK" apsp --weights=int32 --device=cpu "$T/bad.$ext" "$T/bad.out"
  "$GK" convert "$T/bad.$ext" "$T/bad.conv" 2>/dev/null
  [ $? = 1 ] && [ ! -e "$T/bad.out" ] && [ ! -e "$T/bad.conv" ] && [ -z "$(ls "$T" | grep 'bad\.\(out\|conv\)\.tmp')" ]
  t_result $? "$ext: $name: convert refuses it too; no output file"
}
# negative weights (1.2): gk apsp computes with them (int32 here); gk convert
# keeps the int32 graph rules and refuses them, leaving no output
neg_read() {  # neg_read EXT NAME TEXT WANT-INT32S...
  ext=$1 name=$2 text=$3; shift 3
  printf "$text" >"$T/neg.$ext"
  i32 "$@" >"$T/neg.want"
  rm -f "$T/neg.out" "$T/neg.conv"
  "$GK" apsp --weights=int32 --device=cpu "$T/neg.$ext" "$T/neg.out" && cmp -s "$T/neg.out" "$T/neg.want"
  t_result $? "$ext: $name: read and solved as int32 (hand-computed distances)"
  "$GK" convert "$T/neg.$ext" "$T/neg.conv" 2>/dev/null
  [ $? = 1 ] && [ ! -e "$T/neg.conv" ]; t_result $? "$ext: $name: convert (int32 graphs) refuses it; no output file"
}
bad() {  # bad EXT NAME PATTERN TEXT (printf format)
  ext=$1 name=$2 pat=$3
  printf "$4" >"$T/bad.$ext"
  rm -f "$T/bad.out" "$T/bad.conv"
  t_fails "$ext: $name" 1 "bad\\.$ext:$pat" "$GK" apsp --device=cpu "$T/bad.$ext" "$T/bad.out"
  "$GK" convert "$T/bad.$ext" "$T/bad.conv" 2>/dev/null
  [ $? = 1 ] && [ ! -e "$T/bad.out" ] && [ ! -e "$T/bad.conv" ] && [ -z "$(ls "$T" | grep 'bad\.\(out\|conv\)\.tmp')" ]
  t_result $? "$ext: $name: convert refuses it too; no output file"
}
bad gr "an arc before the p line" "1: an arc before" 'a 1 2 3\np sp 2 1\n'
bad gr "a second p line" "2: a second problem line (the first is line 1)" 'p sp 2 0\np sp 2 0\n'
bad gr "a p line that is not sp" "1: the problem line must be 'p sp N M'" 'p max 2 1\n'
bad gr "a vertex count of 0" "1: p sp: vertex count '0'" 'p sp 0 0\n'
bad gr "a vertex outside [1, n]" "3: arc 5 -> 0: vertex 5 is outside \\[1, 4\\]" 'c x\np sp 4 1\na 5 0 3\n'
bad gr "a vertex 0" "2: arc 1 -> 0: vertex 0 is outside \\[1, 4\\]" 'p sp 4 1\na 1 0 3\n'
bad gr "a missing weight" "2: an arc line must be 'a U V W'" 'p sp 4 1\na 1 2\n'
# (1.2: negative, real and large weights are read by gk apsp; --weights=int32 keeps the old rules)
neg_read gr "a negative weight" 'p sp 3 2\na 1 2 -3\na 2 3 5\n' 0 -3 2 $I 0 5 $I $I 0
bad_int32 gr "a weight above 1073741822" "2: arc 1 -> 2: weight 1073741823 is outside" 'p sp 4 1\na 1 2 1073741823\n'
bad_int32 gr "a fractional weight" "2: arc 1 -> 2: weight '2.5' is not an integer" 'p sp 4 1\na 1 2 2.5\n'
bad gr "an extra field" "2: extra field '9'" 'p sp 4 1\na 1 2 3 9\n'
bad gr "an unknown line type" "2: unknown line type 'x'" 'p sp 4 1\nx 1 2 3\n'
bad gr "fewer arcs than m" "3: the file ends after 1 arcs; the problem line (line 1) says 2" 'p sp 4 2\na 1 2 3\nc end\n'
bad gr "more arcs than m" "3: more arcs than the 1" 'p sp 4 1\na 1 2 3\na 2 3 4\n'
bad gr "no p line" "1: no 'p sp N M' problem line" 'c only a comment\n'
bad gr "a NUL byte" "2: a NUL byte" 'p sp 4 1\na 1 2\000 3\n'
bad mtx "no banner" "1: no '%%MatrixMarket" '4 4 1\n1 2 3\n'
bad mtx "an array matrix" "1: 'array' matrices are not read" '%%%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4\n'
bad mtx "a complex field" "1: field 'complex'" '%%%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 3 0\n'
bad mtx "skew-symmetric" "1: symmetry 'skew-symmetric'" '%%%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n'
bad mtx "a non-square matrix" "3: the matrix is 3 x 4" '%%%%MatrixMarket matrix coordinate integer general\n%% c\n3 4 1\n1 2 3\n'
bad mtx "a bad size line" "2: the size line must be" '%%%%MatrixMarket matrix coordinate integer general\n3 3\n'
bad mtx "a row outside [1, n]" "3: entry (4, 1): vertex 4 is outside \\[1, 3\\]" '%%%%MatrixMarket matrix coordinate integer general\n3 3 1\n4 1 2\n'
bad_int32 mtx "a fractional real" "3: entry (1, 2): weight 0.5 is not an integer" '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 0.5\n'
neg_read mtx "a negative value" '%%%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 -1\n' 0 -1 $I $I 0 $I $I $I 0
bad mtx "a pattern entry with a value" "3: extra field '5'" '%%%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 5\n'
bad mtx "fewer entries than NNZ" "3: the file ends after 1 entries; the size line (line 2) says 2" '%%%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 1\n'
bad mtx "more entries than NNZ" "4: more entries than the 1" '%%%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1\n2 3 1\n'
bad mtx "no size line" "2: no 'ROWS COLUMNS ENTRIES' size line" '%%%%MatrixMarket matrix coordinate integer general\n%% nothing\n'
bad edges "two fields" "2: an edge line must be 'SRC DST W'" '0 1 3\n1 2\n'
bad edges "a non-integer vertex" "1: edge a -> 1: src 'a' is not an integer" 'a 1 3\n'
bad edges "a negative vertex" "3: edge 0 -> -1: vertex -1 is outside" '# c\n0 1 3\n0 -1 3\n'
neg_read edges "a negative weight" '0 1 -3\n' 0 -3 $I 0
bad edges "an extra field" "1: extra field '7'" '0 1 3 7\n'
bad edges "no edges" "1: no edges, and no --vertices" '# empty\n'
t_fails "edges: a vertex at or above --vertices" 1 "v.edges:1: edge 0 -> 1: vertex 1 is outside \\[0, 0\\]" \
  "$GK" apsp --vertices=1 "$T/v.edges" "$T/x"
# an endless line (a stream of zeros or of letters) fails at once, in bounded memory
for f in gr mtx edges; do
  t_fails "$f: a NUL byte in a stream is refused as it is read" 1 "dev/zero:1: a NUL byte" \
    "$GK" apsp --format=$f /dev/zero "$T/x"
done
head -c 1100000 /dev/zero | tr '\0' 7 >"$T/long.edges"
t_fails "edges: a line over 1 MiB is refused" 1 "long.edges:1: a line longer than 1048576 bytes" \
  "$GK" apsp "$T/long.edges" "$T/x"
[ ! -e "$T/x" ]; t_result $? "and no output"
# a real weight that underflows is not 0
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e-400\n' >"$T/under.mtx"
for w in auto int32 float32; do
  t_fails "mtx: a weight that underflows (1e-400) is not 0 (--weights=$w)" 1 "under.mtx:3: .*weight 1e-400 is below float64's smallest" \
    "$GK" apsp --weights=$w "$T/under.mtx" "$T/x"
done
# a text format never gets a vertex count its reader refuses (INT32_MAX - 1 at most)
for f in gr mtx edges; do
  t_fails "gen apsp --format=$f: 2147483647 vertices refused" 1 "big.$f: 2147483647 vertices: the $f format holds at most 2147483646" \
    "$GK" gen apsp --vertices=2147483647 --edges=2 --format=$f "$T/big.$f"
  [ ! -e "$T/big.$f" ]; t_result $? "and no output"
done
t_ok "gen apsp --format=edges: 2147483646 vertices written" "$GK" gen apsp --vertices=2147483646 --edges=2 --format=edges "$T/big.edges"
t_ok "and read back (converted to gr)" "$GK" convert "$T/big.edges" "$T/big2.gr"
t_done
