#!/bin/sh
# gk gen apsp --kind=grid|road|powerlaw (issue 26) read back by an
# independent reader (awk on the edge list): V, the edge count, the grid's
# adjacency, both directions with the same weight, weights in range, the
# shortcuts, R-MAT's skew; the same bytes for OMP_NUM_THREADS=1 and 2 and
# the same graph in every format (gk convert back to an edge list); the
# default kind (random) byte-identical to gk 1.1's generator (checksums of
# its output); bad options one line, exit 2, no file.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp
gen() { "$GK" gen apsp "$@"; }
body() { grep -v '^#' "$1"; }   # an edge list without its comment line

# ---- grid: side = floor(sqrt(V)); each vertex linked both ways to its right
# and lower neighbour, weights in [1, W]
t_ok "gen --kind=grid --vertices=50" gen --kind=grid --vertices=50 --seed=3 --max-weight=9 "$T/grid.edges"
head -1 "$T/grid.edges" | grep -q "49 vertices, 168 edges"; t_result $? "grid: 7 x 7 = 49 vertices, 2 * 2 * 7 * 6 = 168 edges"
# every line a grid link with a weight in [1, 9], each link once per direction,
# the reverse of each line present with the same weight, every link there
grid_ok() {  # grid_ok FILE SIDE W LINES: the first LINES lines are the grid
  body "$1" | head -n "$4" | awk -v n="$2" -v W="$3" '
    { a = $1; b = $2; w = $3
      if (a < 0 || b < 0 || a >= n * n || b >= n * n) { print "vertex out of range: " $0; bad = 1 }
      right = (b == a + 1 && int(a / n) == int(b / n)) || (a == b + 1 && int(a / n) == int(b / n))
      down = (b == a + n) || (a == b + n)
      if (!right && !down) { print "not a grid link: " $0; bad = 1 }
      if (w < 1 || w > W || w != int(w)) { print "weight out of [1, " W "]: " $0; bad = 1 }
      if ((a, b) in seen) { print "twice: " $0; bad = 1 }
      seen[a, b] = w; m++ }
    END { for (k in seen) { split(k, p, SUBSEP)
            if (!((p[2], p[1]) in seen) || seen[p[2], p[1]] != seen[k]) { print "no reverse with the same weight: " p[1] " " p[2]; bad = 1 } }
          if (m != 4 * n * (n - 1)) { print m " links, want " 4 * n * (n - 1); bad = 1 }
          exit bad }'
}
grid_ok "$T/grid.edges" 7 9 168; t_result $? "grid: every right and down link, both ways, the same weight in [1, 9]"
[ "$(body "$T/grid.edges" | wc -l)" -eq 168 ]; t_result $? "grid: nothing else"
[ "$(body "$T/grid.edges" | awk '{ print $3 }' | sort -u | wc -l)" -ge 5 ]; t_result $? "grid: the weights vary"
t_ok "gen --kind=grid --vertices=1" gen --kind=grid --vertices=1 "$T/g1.edges"
head -1 "$T/g1.edges" | grep -q "1 vertices, 0 edges"; t_result $? "grid of one vertex: no edge"

# ---- road: the grid, then round(P% of V) shortcuts both ways, weights in [W, 8W]
t_ok "gen --kind=road --vertices=400 --shortcuts=5" gen --kind=road --vertices=400 --shortcuts=5 --seed=4 \
  --max-weight=10 "$T/road.edges"
head -1 "$T/road.edges" | grep -q "400 vertices, 1560 edges"; t_result $? "road: 400 vertices, 2 * (760 + 20) edges"
grid_ok "$T/road.edges" 20 10 1520; t_result $? "road: the 20 x 20 grid first, weights in [1, 10]"
body "$T/road.edges" | tail -n 40 | awk '
  NR % 2 == 1 { a = $1; b = $2; w = $3
    if (a < 0 || a >= 400 || b < 0 || b >= 400 || w < 10 || w > 80) { print "bad shortcut: " $0; bad = 1 } }
  NR % 2 == 0 { if ($1 != b || $2 != a || $3 != w) { print "no reverse: " $0; bad = 1 }
    d = a - b; if (d < 0) d = -d; if (d != 1 && d != 20) far++ }
  END { if (NR != 40 || far < 15) { print NR " lines, " far " far"; bad = 1 }; exit bad }'
t_result $? "road: 20 shortcuts, each both ways with one weight in [10, 80], most between distant vertices"
t_ok "road with the default 2% shortcuts" gen --kind=road --vertices=10000 --seed=4 "$T/road2.edges"
head -1 "$T/road2.edges" | grep -q "10000 vertices, 40000 edges"; t_result $? "road: 2 * (19800 + 200) edges"
t_ok "road --shortcuts=0" gen --kind=road --vertices=400 --shortcuts=0 --seed=4 --max-weight=10 "$T/road0.edges"
body "$T/road.edges" | head -n 1520 >"$T/road.grid"
body "$T/road0.edges" | cmp -s - "$T/road.grid"; t_result $? "road --shortcuts=0 is the same seed's grid"
gen --kind=grid --vertices=400 --seed=4 --max-weight=10 "$T/grid400.edges"
body "$T/grid400.edges" | cmp -s - "$T/road.grid"; t_result $? "... which is --kind=grid's"

# ---- powerlaw: R-MAT, V rounded up to a power of two, E edges in [1, W]
t_ok "gen --kind=powerlaw --vertices=200 --edges=3000" gen --kind=powerlaw --vertices=200 --edges=3000 --seed=5 \
  --max-weight=7 "$T/pl.edges"
head -1 "$T/pl.edges" | grep -q "256 vertices, 3000 edges"; t_result $? "powerlaw: 256 vertices, 3000 edges"
body "$T/pl.edges" | awk '{ if ($1 < 0 || $1 > 255 || $2 < 0 || $2 > 255 || $3 < 1 || $3 > 7) bad = 1; out[$1]++ }
  END { # R-MAT with a = 0.57: vertex 0 expects 3000 * 0.76^8 = 334 out-edges, the mean is 11.7
        if (NR != 3000 || out[0] < 200 || out[255] > 20) bad = 1; exit bad }'
t_result $? "powerlaw: ids in [0, 256), weights in [1, 7], vertex 0 a hub (skewed degrees)"

# ---- the same bytes for any thread count, the same graph in every format
for k in "grid --vertices=40000" "road --vertices=40000" "powerlaw --vertices=5000 --edges=100000"; do
  n=${k%% *}
  OMP_NUM_THREADS=1 "$GK" gen apsp --kind=$k --seed=9 "$T/$n.1.nthu" &&
    OMP_NUM_THREADS=2 "$GK" gen apsp --kind=$k --seed=9 "$T/$n.2.nthu" && cmp "$T/$n.1.nthu" "$T/$n.2.nthu"
  t_result $? "$n: OMP_NUM_THREADS=1 and 2 give the same bytes"
  gen --kind=$k --seed=9 "$T/$n.edges" && "$GK" convert "$T/$n.1.nthu" "$T/$n.conv.edges" 2>/dev/null &&
    body "$T/$n.edges" >"$T/$n.want" && body "$T/$n.conv.edges" | cmp -s - "$T/$n.want"
  t_result $? "$n: nthu, converted to an edge list, is the generated edge list"
  gen --kind=$k --seed=9 "$T/$n.gr" && "$GK" convert "$T/$n.gr" "$T/$n.gr.edges" 2>/dev/null &&
    body "$T/$n.gr.edges" | cmp -s - "$T/$n.want"
  t_result $? "$n: gr, converted to an edge list, is the generated edge list"
  gen --kind=$k --seed=9 "$T/$n.mtx" && "$GK" convert "$T/$n.mtx" "$T/$n.mtx.edges" 2>/dev/null &&
    body "$T/$n.mtx.edges" | sort >"$T/$n.mtx.sorted" &&
    sort -k1,1n -k2,2n -k3,3n "$T/$n.want" | awk '{ k = $1 " " $2 } k != p { print; p = k }' |
    sort | cmp -s - "$T/$n.mtx.sorted"
  t_result $? "$n: mtx (sorted, duplicates merged to the smallest) holds the same edges (self-loops too)"
done
gen --kind=road --vertices=40000 --seed=10 "$T/road.10.nthu" && ! cmp -s "$T/road.1.nthu" "$T/road.10.nthu"
t_result $? "another seed, another graph"

# ---- the default kind: gk 1.1's generator, byte for byte
t_ok "gen apsp without --kind" gen --vertices=300 --edges=5000 --seed=42 --max-weight=50 "$T/r.nthu"
[ "$(cksum <"$T/r.nthu" | tr -s ' ')" = "31097507 60008" ]; t_result $? "no --kind: gk 1.1's bytes (cksum 31097507)"
gen --kind=random --vertices=300 --edges=5000 --seed=42 --max-weight=50 "$T/r2.nthu" && cmp -s "$T/r.nthu" "$T/r2.nthu"
t_result $? "--kind=random: the same bytes"
gen --vertices=1000 --edges=20000 --seed=14 "$T/r.edges" 2>/dev/null
[ "$(body "$T/r.edges" | cksum | tr -s ' ')" = "1882717927 233456" ]; t_result $? "no --kind, an edge list: gk 1.1's lines"

# ---- bad options: one line, exit 2, no file
badgen() {  # badgen NAME PATTERN OPTION...
  name=$1 pat=$2; shift 2
  rm -f "$T/o"
  t_fails "$name" 2 "$pat" "$GK" gen apsp "$@" "$T/o"
  [ ! -e "$T/o" ]; t_result $? "$name: no file"
}
badgen "--kind=bogus" "--kind: kind 'bogus': want random, grid, road or powerlaw" --kind=bogus --vertices=9
badgen "grid with --edges" "--edges: a grid graph's edges follow from --vertices" --kind=grid --vertices=9 --edges=4
badgen "powerlaw without --edges" "--vertices and --edges are required" --kind=powerlaw --vertices=9
badgen "road without --vertices" "--vertices is required" --kind=road
badgen "--shortcuts=101" "--shortcuts=101: want a percentage in \[0, 100\]" --kind=road --vertices=9 --shortcuts=101
badgen "--shortcuts=-1" "--shortcuts=-1" --kind=road --vertices=9 --shortcuts=-1
badgen "grid with --max-weight=0" "--max-weight=0: a grid graph's weights are >= 1" --kind=grid --vertices=9 --max-weight=0
t_done
