#!/bin/sh
# gk elementwise, gk gen elementwise, gk bench elementwise: results, files
# and every bad-input rule (one line, exit status, no output file).
. "$top_srcdir/tests/tap.sh"
d=$t_tmp

t_ok "gen elementwise 13x7" "$GK" gen elementwise --size=13x7 --seed=5 "$d/m.bin"
[ "$(wc -c <"$d/m.bin")" -eq $((13 * 7 * 4)) ]; t_result $? "gen elementwise writes DIMX*DIMY*4 bytes"
t_ok "gen elementwise square" "$GK" gen elementwise --size=5 "$d/sq.bin"
[ "$(wc -c <"$d/sq.bin")" -eq 100 ]; t_result $? "one size means a square"

t_ok "0 iterations from file" "$GK" elementwise --size=13x7 --iterations=0 --input="$d/m.bin" --output="$d/o0.bin" --device=cpu
cmp -s "$d/m.bin" "$d/o0.bin"; t_result $? "0 iterations return the input unchanged"
t_ok "from seed" "$GK" elementwise --size=13x7 --iterations=9 --seed=5 --output="$d/s.bin" --device=cpu
t_ok "from the generated matrix" "$GK" elementwise --size=13x7 --iterations=9 --input="$d/m.bin" --output="$d/f.bin" --device=cpu
cmp -s "$d/s.bin" "$d/f.bin"; t_result $? "--seed and gen elementwise with that seed give the same run"
t_ok "--check on the CPU" "$GK" elementwise --size=13x7 --iterations=9 --check --device=cpu
grep -q "ok$" "$t_tmp/out"; t_result $? "--check reports ok"
t_ok "1x1 --check" "$GK" elementwise --size=1x1 --iterations=5 --check --device=cpu
t_ok "--time --json --check" "$GK" elementwise --size=31x3 --iterations=4 --time --json --check --device=cpu
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["iterations"]==4 and d["dimx"]==31 and d["gelem_iter_per_s"]>0 and d["check"]["ok"]' "$t_tmp/out"
  t_result $? "--json is valid JSON with the rate and the check"
  # an independent computation: python's math (double) rounded to float per step
  python3 - "$d/m.bin" "$d/f.bin" <<'PY'
import math, struct, sys
f32 = lambda v: struct.unpack('<f', struct.pack('<f', v))[0]
dimx, dimy = 13, 7
a = list(struct.unpack('<%df' % (dimx * dimy), open(sys.argv[1], 'rb').read()))
fs = [math.log, math.cos, math.sin, math.tan]
for i in range(len(a)):
    v = a[i]
    for it in range(9):
        try:
            b = f32(f32(fs[(i % dimx) % 4](v)) + 1.0)
            v = f32(v + f32(math.sqrt(b))) if b >= 0 else float('nan')
        except ValueError:
            v = float('nan')
    a[i] = v
o = struct.unpack('<%df' % (dimx * dimy), open(sys.argv[2], 'rb').read())
bad = [i for i in range(len(a)) if not (a[i] == o[i] or (a[i] != a[i] and o[i] != o[i]))]
sys.exit(1 if bad else 0)
PY
  t_result $? "9 iterations on 13x7 equal python's math rounded to float per step, bit for bit"
else
  echo "ok $((t_n=t_n+1)) - JSON check # SKIP no python3"
  echo "ok $((t_n=t_n+1)) - python cross-check # SKIP no python3"
fi
t_ok "--time line" "$GK" elementwise --size=9x2 --iterations=2 --time --device=cpu
grep -q "element-iterations/s" "$t_tmp/out"; t_result $? "--time prints element-iterations per second"

if "$GK" info | grep -q "compute capability"; then
  t_ok "--device=gpu --check 1031x37" "$GK" elementwise --size=1031x37 --iterations=25 --check --device=gpu --verbose
  t_ok "--device=gpu 0 iterations" "$GK" elementwise --size=13x7 --iterations=0 --input="$d/m.bin" --output="$d/g0.bin" --device=gpu
  cmp -s "$d/m.bin" "$d/g0.bin"; t_result $? "gpu 0 iterations return the input"
  t_ok "--config --check" "$GK" elementwise --size=4099x5 --iterations=7 --check --device=gpu --config=VEC=4,BX=64,BY=2,UNROLL=2
  t_ok "bench elementwise small" "$GK" bench elementwise --sizes=515x33 --iterations=5 --reps=1
  grep -q "baseline" "$t_tmp/out" && grep -q "float4" "$t_tmp/out" && grep -q "tuned" "$t_tmp/out" \
    && grep -q "ceiling" "$t_tmp/out" && ! grep -q FAIL "$t_tmp/out"; t_result $? "bench has the designs and the ceiling, all checked"
else
  t_fails "--device=gpu without a GPU" 1 "CUDA\|GPU\|device" "$GK" elementwise --size=4 --device=gpu
fi
t_ok "bench elementwise --device=cpu" "$GK" bench elementwise --device=cpu --sizes=67x5 --iterations=3 --reps=1
grep -q "^67x5 .* reference .* ok" "$t_tmp/out" && grep -q "^67x5 .* cpu .* ok" "$t_tmp/out"
t_result $? "bench on the CPU: the reference loop and the backend, checked"

# Bad input: one line, exit status, no output file.
printf 'xxxx' >"$d/short.bin"
t_fails "input of the wrong size" 1 "short.bin.*bytes" "$GK" elementwise --size=13x7 --input="$d/short.bin" --output="$d/bad1.bin"
t_fails "input larger than the size" 1 "m.bin.*bytes" "$GK" elementwise --size=3x3 --input="$d/m.bin" --output="$d/bad1.bin"
t_fails "missing input" 1 "nothere.bin" "$GK" elementwise --size=4 --input="$d/nothere.bin" --output="$d/bad1.bin"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<6f", 1, 2, 3, 4, float("nan"), 6))' "$d/nan.bin"
  python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<6f", 1, 2, float("-inf"), 4, 5, 6))' "$d/inf.bin"
  t_fails "a NaN in the input" 1 "nan.bin: element (1, 1) is NaN" "$GK" elementwise --size=3x2 --input="$d/nan.bin" --output="$d/bad1.bin"
  t_fails "an infinity in the input" 1 "inf.bin: element (0, 2) is infinite" "$GK" elementwise --size=3x2 --input="$d/inf.bin" --output="$d/bad1.bin"
fi
t_fails "size 0" 2 "size.*>= 1" "$GK" elementwise --size=0 --output="$d/bad1.bin"
t_fails "size 0 columns" 2 "size.*>= 1" "$GK" elementwise --size=0x5 --output="$d/bad1.bin"
t_fails "negative size" 2 "size.*>= 1" "$GK" elementwise --size=4x-3 --output="$d/bad1.bin"
t_fails "size with junk" 2 "size" "$GK" elementwise --size=4y4 --output="$d/bad1.bin"
t_fails "three sizes" 2 "size" "$GK" elementwise --size=4x4x4 --output="$d/bad1.bin"
t_fails "size whose bytes overflow" 2 "size.*do not fit" "$GK" elementwise --size=2147483647x2147483647 --output="$d/bad1.bin"
t_fails "size above 2^31-1" 2 "size.*above" "$GK" elementwise --size=2147483648x1 --output="$d/bad1.bin"
t_fails "size beyond int64" 2 "size" "$GK" elementwise --size=99999999999999999999x2 --output="$d/bad1.bin"
t_fails "matrix too large for memory" 1 "needs.*memory" "$GK" elementwise --size=2000000x2000000 --output="$d/bad1.bin" --device=cpu
t_fails "negative iterations" 2 "iterations.*range" "$GK" elementwise --size=4 --iterations=-1 --output="$d/bad1.bin"
t_fails "iterations not a number" 2 "iterations" "$GK" elementwise --size=4 --iterations=abc --output="$d/bad1.bin"
t_fails "gen size 0" 2 "size" "$GK" gen elementwise --size=0 "$d/bad1.bin"
t_fails "gen too large" 1 "needs.*memory" "$GK" gen elementwise --size=2000000x2000000 "$d/bad1.bin"
t_fails "unknown --config parameter" 2 "TILE" "$GK" elementwise --size=4 --config=TILE=3 --output="$d/bad1.bin"
t_fails "--config over 1024 threads" 2 "1024" "$GK" elementwise --size=4 --config=BX=1024,BY=2 --output="$d/bad1.bin"
t_fails "--config partial warp" 2 "multiple of 32" "$GK" elementwise --size=4 --config=BX=48 --output="$d/bad1.bin"
t_fails "bad --device" 2 "device" "$GK" elementwise --size=4 --device=tpu --output="$d/bad1.bin"
t_fails "missing --size" 2 "size" "$GK" elementwise --output="$d/bad1.bin"
t_fails "bench size 0" 2 "sizes" "$GK" bench elementwise --sizes=0x4 --device=cpu
t_fails "bench 0 iterations" 2 "iterations" "$GK" bench elementwise --iterations=0 --device=cpu
t_fails "unknown option" 2 "unrecognized option '--bogus'" "$GK" elementwise --size=4 --bogus
grep -q "^Try 'gk elementwise --help'" "$t_tmp/err"; t_result $? "usage errors point at the subcommand's help"
[ ! -e "$d/bad1.bin" ] && [ -z "$(ls "$d" | grep tmp)" ]; t_result $? "no output or temp file left by any failure"
# Without --output: one summary line (the --time line) saying nothing was written.
t_ok "no --output" "$GK" elementwise --size=9x4 --iterations=3 --device=cpu
[ "$(wc -l <"$t_tmp/out")" -eq 1 ] && [ ! -s "$t_tmp/err" ] &&
  grep -q '^elementwise 9x4, 3 iterations on cpu: [0-9.]* s, [0-9.]* G element-iterations/s; the result is not written (no --output)$' "$t_tmp/out"
t_result $? "no --output: one line with the size, iterations, device and rate, saying nothing was written"
t_done
