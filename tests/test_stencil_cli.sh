#!/bin/sh
# gk stencil, gk gen grid, gk bench stencil: results, files and every bad-input rule.
. "$top_srcdir/tests/tap.sh"
d=$t_tmp

t_ok "gen grid 17x9x13" "$GK" gen grid --size=17x9x13 --seed=5 "$d/g.bin"
[ "$(wc -c <"$d/g.bin")" -eq $((17 * 9 * 13 * 8)) ]; t_result $? "gen grid writes NX*NY*NZ*8 bytes"
t_ok "gen grid cube" "$GK" gen grid --size=4 "$d/c.bin"
[ "$(wc -c <"$d/c.bin")" -eq 512 ]; t_result $? "one size means a cube"

t_ok "stencil nt=0 from file" "$GK" stencil --size=17x9x13 --steps=0 --input="$d/g.bin" --output="$d/o0.bin" --device=cpu
cmp -s "$d/g.bin" "$d/o0.bin"; t_result $? "nt=0 returns the input unchanged"
t_ok "stencil from seed" "$GK" stencil --size=17x9x13 --steps=3 --seed=5 --output="$d/s.bin" --device=cpu
t_ok "stencil from the generated grid" "$GK" stencil --size=17x9x13 --steps=3 --input="$d/g.bin" --output="$d/f.bin" --device=cpu
cmp -s "$d/s.bin" "$d/f.bin"; t_result $? "--seed and gen grid with that seed give the same run"
t_ok "another seed" "$GK" stencil --size=17x9x13 --steps=3 --seed=6 --output="$d/s6.bin" --device=cpu
! cmp -s "$d/s.bin" "$d/s6.bin"; t_result $? "another seed gives another result"

t_ok "--check on the CPU (default coeffs)" "$GK" stencil --size=17x9x13 --steps=7 --check --device=cpu
grep -q "ok$" "$t_tmp/out"; t_result $? "--check reports ok"
t_ok "--check with a coefficient file" "$GK" stencil --size=2x3x5 --steps=2 --check --device=cpu \
  --coeffs="$top_srcdir/tests/data/stencil_coeffs_random.txt"
t_ok "--time --json" "$GK" stencil --size=9 --steps=2 --time --json --check --device=cpu
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["steps"]==2 and d["gstencil_per_s"]>0 and d["check"]["ok"]' "$t_tmp/out"
  t_result $? "--json is valid JSON with the rate and the check"
else
  echo "ok $((t_n=t_n+1)) - JSON check # SKIP no python3"
fi
t_ok "--time line" "$GK" stencil --size=9 --steps=2 --time --device=cpu
grep -q "GStencil/s.*GFLOP/s" "$t_tmp/out"; t_result $? "--time prints GStencil/s and GFLOP/s"
grep -q "^generate  *[0-9]" "$t_tmp/out" && ! grep -q "^read " "$t_tmp/out"
t_result $? "--time: a grid from --seed has a generate row (as past one process), no read row"
"$GK" gen grid --size=9 --seed=3 "$d/g9.bin" || exit 1
t_ok "--time with --input" "$GK" stencil --size=9 --steps=2 --time --device=cpu --input="$d/g9.bin"
grep -q "^read  *[0-9]" "$t_tmp/out" && ! grep -q "^generate " "$t_tmp/out"
t_result $? "--time: a grid from --input has a read row"
t_ok "1x1x1 --check" "$GK" stencil --size=1 --steps=7 --check --device=cpu

# The output after nt steps equals an independent computation (python, when
# present): one step on 2x3x5 with the default coefficients.
if command -v python3 >/dev/null 2>&1; then
  "$GK" gen grid --size=2x3x5 --seed=9 "$d/p.bin" && "$GK" stencil --size=2x3x5 --steps=2 --input="$d/p.bin" --output="$d/po.bin" --device=cpu
  python3 - "$d/p.bin" "$d/po.bin" <<'PY'
import struct, sys
nx, ny, nz = 2, 3, 5
c = {'ZZZ': .9415, 'NZZ': .01531, 'PZZ': .02345, 'ZNZ': -.01334, 'ZPZ': -.03512, 'ZZN': .02333, 'ZZP': .02111,
     'NNZ': -.03154, 'PNZ': -.01234, 'NPZ': .01111, 'PPZ': .02222, 'NZN': .01212, 'PZN': .01313, 'NZP': -.01242,
     'PZP': -.03751, 'ZNN': -.03548, 'ZPN': -.04214, 'ZNP': .01795, 'ZPP': .01279, 'NNN': .01537, 'PNN': -.01357,
     'NPN': -.01734, 'PPN': .01975, 'NNP': .02568, 'PNP': .02734, 'NPP': -.01242, 'PPP': -.02018}
L = {-1: 'N', 0: 'Z', 1: 'P'}
g = list(struct.unpack('<%dd' % (nx*ny*nz), open(sys.argv[1], 'rb').read()))
def at(g, x, y, z):
    return g[(z*ny + y)*nx + x] if 0 <= x < nx and 0 <= y < ny and 0 <= z < nz else 0.0
for s in range(2):
    g = [sum(c[L[dx]+L[dy]+L[dz]] * at(g, x+dx, y+dy, z+dz) for dz in (-1,0,1) for dy in (-1,0,1) for dx in (-1,0,1))
         for z in range(nz) for y in range(ny) for x in range(nx)]
o = struct.unpack('<%dd' % (nx*ny*nz), open(sys.argv[2], 'rb').read())
err = max(abs(a-b) for a, b in zip(g, o))
sys.exit(0 if err < 1e-14 else 1)
PY
  t_result $? "2 steps on 2x3x5 match an independent python computation"
else
  echo "ok $((t_n=t_n+1)) - python cross-check # SKIP no python3"
fi

# GPU, when there is one: the whole command with --check.
if "$GK" info | grep -q "compute capability"; then
  t_ok "--device=gpu --check 33x18x35" "$GK" stencil --size=33x18x35 --steps=7 --check --device=gpu --verbose
  t_ok "--device=gpu nt=0" "$GK" stencil --size=17x9x13 --steps=0 --input="$d/g.bin" --output="$d/go.bin" --device=gpu
  cmp -s "$d/g.bin" "$d/go.bin"; t_result $? "gpu nt=0 returns the input"
  t_ok "gpu output equals cpu output" "$GK" stencil --size=17x9x13 --steps=3 --seed=5 --output="$d/gs.bin" --device=gpu
  cmp -s "$d/s.bin" "$d/gs.bin"; t_result $? "gpu and cpu results are bit-identical"
  t_ok "--config DESIGN=0 --check" "$GK" stencil --size=40x7x9 --steps=2 --check --device=gpu --config=DESIGN=0,BX=16,BY=4
  t_ok "bench stencil small" "$GK" bench stencil --sizes=48x40x33 --steps=3 --reps=1
  grep -q "naive" "$t_tmp/out" && grep -q "stream" "$t_tmp/out" && ! grep -q FAIL "$t_tmp/out"; t_result $? "bench has the kernels and all checks pass"
  grep -q "compute ceiling per row (.*): naive 1.000x .* T=2 " "$t_tmp/out"; t_result $? "bench: each row's compute ceiling"
  # the FP64 work of RING=1, T=2 on one 64x32 tile, ZC=32 (two chunks of 32
  # and 8 planes), 4 steps, by hand: stage 1 the tile and its ring of 196
  # points run by 7 warps (2272) on 40 + 2*4 planes, stage 2 the tile on 40
  # + 2*2 planes: (2272*48 + 2048*44) / (2 * 64*32*40) = 1.215625
  t_ok "bench stencil --json, RING=1 T=2" "$GK" bench stencil --sizes=64x32x40 --steps=4 --reps=1 --json \
    --config=DESIGN=2,TSTEPS=2,BX=32,BY=8,RY=4,RX=2,ZC=32,ASYNC=1,RING=1
  w=$(tr '{' '\n' < "$t_tmp/out" | grep '"tsteps": *2' | sed -n 's/.*"work_per_point": *\([0-9.e+-]*\).*/\1/p')
  awk -v w="$w" 'BEGIN { exit !(w + 0 > 1.2155 && w + 0 < 1.2157) }'
  t_result $? "bench --json: work_per_point of T=2 is 1.215625 to the 6 digits printed ($w)"
  t_ok "bench stencil --stencil: float32 FMA ceiling" "$GK" bench stencil --stencil=3d-star-r1:f32 --sizes=40 --steps=2 --reps=1
  grep -q "float32 FMA chains: .* compute ceiling .* at 7 operations/point" "$t_tmp/out" \
    && grep -q "bound per T (the lower of the two): T=1 " "$t_tmp/out"; t_result $? "bench --stencil: compute ceiling and bound per T"
else
  t_fails "--device=gpu without a GPU" 1 "CUDA\|GPU\|device" "$GK" stencil --size=4 --device=gpu
  t_fails "bench stencil --device=gpu without a GPU" 1 "CUDA\|GPU\|device" "$GK" bench stencil --device=gpu --sizes=8
fi
# the CPU designs against the CPU copy floor, on any machine
t_ok "bench stencil --device=cpu" "$GK" bench stencil --device=cpu --sizes=20x12x9 --steps=2 --reps=1
grep -q "^20x12x9 .* reference .*(reference)" "$t_tmp/out" && grep -q "^20x12x9 .* cpu .* ok (" "$t_tmp/out" \
  && grep -q "copy bandwidth .* floor" "$t_tmp/out"; t_result $? "bench stencil on the CPU: reference, backend checked, floor"
# a grid whose copy fits in the last-level cache has no memory floor: "n/a",
# not the rate of an in-cache copy of a few KB (when the system names its cache)
llc=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null)
case $llc in ''|0|*[!0-9]*) llc=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null) ;; esac
case $llc in ''|0|*[!0-9]*) llc=$(sed 's/K$/000/' /sys/devices/system/cpu/cpu0/cache/index*/size 2>/dev/null | sort -n | tail -1) ;; esac
case $llc in ''|0|*[!0-9]*) llc=0 ;; esac
if [ "$llc" -ge 65536 ]; then
  t_ok "bench stencil --device=cpu on an 8^3 grid" "$GK" bench stencil --device=cpu --sizes=8 --steps=2 --reps=1
  grep -q "^8 .* cpu .* n/a  ok (" "$t_tmp/out" && ! grep -q "^8 .*%" "$t_tmp/out" \
    && grep -q "^8  *copy bandwidth over 2 x 4.1 KB: n/a (grid fits in cache" "$t_tmp/out"
  t_result $? "bench stencil: an in-cache grid's %floor is n/a, with the reason"
  t_ok "bench stencil --stencil --json on an 8^3 grid" "$GK" bench stencil --device=cpu --stencil=3d-star-r1 --sizes=8 \
    --steps=1 --reps=1 --json
  grep -q '"percent_of_floor":null' "$t_tmp/out" && grep -q '"floor_gstencil_per_s":null' "$t_tmp/out" \
    && ! grep -q '"percent_of_floor":[0-9]' "$t_tmp/out"
  t_result $? "bench stencil --json: no floor is null, not a number"
  "$GK" bench stencil --device=cpu --sizes=8 --steps=2 --reps=1 --json >"$t_tmp/j" 2>&1 \
    && grep -q '"floor_t_gstencil_per_s":null' "$t_tmp/j" && grep -q '"bound_gstencil_per_s":null' "$t_tmp/j" \
    && ! grep -q '"bound_gstencil_per_s":[0-9]' "$t_tmp/j"
  t_result $? "bench stencil --json: no floor, no per-T floor or bound (null)"
else
  t_skip "the system names no cache size" "in-cache grids: n/a"
  t_skip "the system names no cache size" "in-cache grids: n/a (JSON)"
  t_skip "the system names no cache size" "in-cache grids: no per-T bound (JSON)"
fi
# Past the last-level cache, each row's bound is T times the one-step floor
# (on the CPU no FMA ceiling caps it), in --json and on the text's bound
# line: the smallest cube whose two grids do not fit (when that is small
# enough to run here in seconds)
n=0
if [ "$llc" -gt 0 ]; then
  n=$(awk -v c="$llc" 'BEGIN { n = 8; while (2 * n * n * n * 8 <= c) n += 8; print n }')
fi
if [ "$n" -gt 0 ] && [ "$n" -le 336 ]; then
  "$GK" bench stencil --device=cpu --sizes=$n --steps=2 --reps=1 --json >"$t_tmp/j" 2>&1 \
    && tr '{' '\n' <"$t_tmp/j" | grep '"tsteps"' \
       | sed 's/.*"tsteps":\([0-9]*\).*"floor_gstencil_per_s":\([^,]*\).*"floor_t_gstencil_per_s":\([^,]*\).*"bound_gstencil_per_s":\([^,}]*\).*/\1 \2 \3 \4/' \
       >"$t_tmp/rows" \
    && [ "$(wc -l <"$t_tmp/rows")" -ge 2 ] && grep -q '^[2-9] ' "$t_tmp/rows" \
    && awk 'function d(a, b) { return a > b ? a - b : b - a }
            NF != 4 || $2 + 0 <= 0 || d($3, $1 * $2) > 1e-3 * $3 || d($4, $1 * $2) > 1e-3 * $4 { bad = 1 }
            END { exit bad }' "$t_tmp/rows"
  t_result $? "bench stencil --json past the cache: each row's bound is T x the one-step floor"
  "$GK" bench stencil --device=cpu --sizes=$n --steps=2 --reps=1 >"$t_tmp/b" 2>&1 \
    && f=$(sed -n "s/^$n .*one-step floor \([0-9.]*\) GStencil.*/\1/p" "$t_tmp/b") && [ -n "$f" ] \
    && line=$(grep "^$n  *bound per T (min of T x the floor): T=1 " "$t_tmp/b") \
    && echo "$line" | awk -v f="$f" '{ for (i = 1; i <= NF; i++) if ($i ~ /^T=[0-9]$/) { t = substr($i, 3); v = $(i + 1);
                                          n++; e = 0.006 * t + 0.006   # both printed to 0.01
                                          if (v - t * f > e || t * f - v > e) bad = 1 } }
                                     END { exit bad || n < 2 }'
  t_result $? "bench stencil past the cache: the bound line lists T x the floor for every T"
else
  t_skip "a cube past this machine's last-level cache ($llc bytes) is too large to run here" "per-T bound (JSON)"
  t_skip "a cube past this machine's last-level cache ($llc bytes) is too large to run here" "per-T bound (text)"
fi

# Bad input: one line, exit 1, no output file.
printf 'xxxx' >"$d/short.bin"
t_fails "input of the wrong size" 1 "short.bin.*bytes" "$GK" stencil --size=17x9x13 --input="$d/short.bin" --output="$d/bad1.bin"
t_fails "input larger than the size" 1 "g.bin.*bytes" "$GK" stencil --size=4 --input="$d/g.bin" --output="$d/bad1.bin"
t_fails "missing input" 1 "nothere.bin" "$GK" stencil --size=4 --input="$d/nothere.bin" --output="$d/bad1.bin"
t_fails "size 0" 2 "size" "$GK" stencil --size=0 --output="$d/bad1.bin"
t_fails "negative size" 2 "size" "$GK" stencil --size=4x-3x4 --output="$d/bad1.bin"
t_fails "two sizes" 2 "size" "$GK" stencil --size=4x4 --output="$d/bad1.bin"
t_fails "size with junk" 2 "size" "$GK" stencil --size=4y4 --output="$d/bad1.bin"
t_fails "negative steps" 2 "steps.*range" "$GK" stencil --size=4 --steps=-1 --output="$d/bad1.bin"
t_fails "steps not a number" 2 "steps" "$GK" stencil --size=4 --steps=abc --output="$d/bad1.bin"
t_fails "coefficients: 26 numbers" 1 "bad26.txt.*27" "$GK" stencil --size=4 --coeffs="$top_srcdir/tests/data/stencil_coeffs_bad26.txt" --output="$d/bad1.bin"
t_fails "coefficients: a NaN" 1 "nan.txt.*finite" "$GK" stencil --size=4 --coeffs="$top_srcdir/tests/data/stencil_coeffs_nan.txt" --output="$d/bad1.bin"
printf '1 2 3 x\n' >"$d/cw.txt"
t_fails "coefficients: a word" 1 "cw.txt.*not a number" "$GK" stencil --size=4 --coeffs="$d/cw.txt" --output="$d/bad1.bin"
cp "$top_srcdir/tests/data/stencil_coeffs_random.txt" "$d/cf.txt"
t_fails "--output naming the --coeffs file is refused" 1 "cf.txt: is the input file .*cf.txt" \
  "$GK" stencil --size=4 --steps=1 --device=cpu --coeffs="$d/cf.txt" --output="$d/cf.txt"
cmp -s "$top_srcdir/tests/data/stencil_coeffs_random.txt" "$d/cf.txt"; t_result $? "and the coefficient file is untouched"
t_fails "grid too large for memory" 1 "needs.*memory" "$GK" stencil --size=100000 --output="$d/bad1.bin" --device=cpu
t_fails "gen grid too large" 1 "needs.*memory" "$GK" gen grid --size=100000x100000x1000 "$d/bad1.bin"
t_fails "gen grid size 0" 2 "size" "$GK" gen grid --size=0 "$d/bad1.bin"
t_fails "unknown --config parameter" 2 "TILE" "$GK" stencil --size=4 --config=TILE=3 --output="$d/bad1.bin"
t_fails "--config over 1024 threads" 2 "1024" "$GK" stencil --size=4 --config=BX=128,BY=16 --output="$d/bad1.bin"
t_fails "bad --device" 2 "device" "$GK" stencil --size=4 --device=tpu --output="$d/bad1.bin"
t_fails "missing --size" 2 "size" "$GK" stencil --output="$d/bad1.bin"
t_fails "unknown option" 2 "unrecognized option '--bogus'" "$GK" stencil --size=4 --bogus
grep -q "^Try 'gk stencil --help'" "$t_tmp/err"; t_result $? "usage errors point at the subcommand's help"
[ ! -e "$d/bad1.bin" ] && [ -z "$(ls "$d" | grep tmp)" ]; t_result $? "no output or temp file left by any failure"
t_fails "--input and --coeffs both standard input is a usage error" 2 "cannot both be standard input" \
  "$GK" stencil --size=4 --steps=1 --device=cpu --input=- --coeffs=-
# the plain reference loop runs at most 2 steps: its row says 2 in the steps column
"$GK" bench stencil --device=cpu --sizes=8 --steps=5 --reps=1 >"$t_tmp/b" 2>&1 \
  && awk '$3 == "reference" { ref = $2 } $3 == "cpu" { cpu = $2 } END { exit !(ref == 2 && cpu == 5) }' "$t_tmp/b"
t_result $? "bench stencil: the reference row's steps column is the 2 steps it ran, the others 5"
# Without --output the run says what it computed: one summary line on standard
# output (the line --time ends with), saying the result is not written;
# with --output and no --time nothing is printed.
t_ok "no --output" "$GK" stencil --size=17x9x13 --steps=3 --device=cpu
[ "$(wc -l <"$t_tmp/out")" -eq 1 ] && [ ! -s "$t_tmp/err" ] &&
  grep -q '^stencil 17x9x13, 3 steps on cpu: [0-9.]* s, [0-9.]* GStencil/s, [0-9.]* GFLOP/s; the result is not written (no --output)$' "$t_tmp/out"
t_result $? "no --output: one line with the size, steps, device and rates, saying nothing was written"
t_ok "--output, no --time" "$GK" stencil --size=17x9x13 --steps=3 --device=cpu --output="$d/quiet.bin"
[ ! -s "$t_tmp/out" ] && [ ! -s "$t_tmp/err" ] && [ -s "$d/quiet.bin" ]
t_result $? "--output without --time: the file and nothing printed"
t_done
