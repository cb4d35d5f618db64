#!/bin/sh
# gk gemm, gk gen matrix, gk bench gemm: results, files and every bad-input rule.
. "$top_srcdir/tests/tap.sh"
d=$t_tmp

t_ok "gen matrix 7x5" "$GK" gen matrix --rows=7 --cols=5 --seed=3 "$d/a.bin"
[ "$(wc -c <"$d/a.bin")" -eq 140 ]; t_result $? "gen matrix writes R*C*4 bytes"
t_ok "gen matrix 5x11 (seed 4)" "$GK" gen matrix --rows=5 --cols=11 --seed=4 "$d/b.bin"

t_ok "gemm from files" "$GK" gemm --m=7 --n=11 --k=5 --input-a="$d/a.bin" --input-b="$d/b.bin" --output="$d/c.bin" --device=cpu
[ "$(wc -c <"$d/c.bin")" -eq 308 ]; t_result $? "C is M*N*4 bytes"
t_ok "gemm from seed 3" "$GK" gemm --m=7 --n=11 --k=5 --seed=3 --output="$d/cs.bin" --device=cpu
cmp -s "$d/c.bin" "$d/cs.bin"; t_result $? "--seed S means A of seed S and B of seed S+1 (gen matrix)"

# C against an independent computation (python, double accumulation, the bound of gk/gemm.h)
if command -v python3 >/dev/null 2>&1; then
  python3 - "$d/a.bin" "$d/b.bin" "$d/c.bin" <<'PY'
import struct, sys
M, N, K = 7, 11, 5
a = struct.unpack('<%df' % (M*K), open(sys.argv[1], 'rb').read())
b = struct.unpack('<%df' % (K*N), open(sys.argv[2], 'rb').read())
c = struct.unpack('<%df' % (M*N), open(sys.argv[3], 'rb').read())
ok = True
for i in range(M):
    for j in range(N):
        r = sum(a[i*K+p] * b[p*N+j] for p in range(K))
        s = sum(abs(a[i*K+p] * b[p*N+j]) for p in range(K))
        ok &= abs(c[i*N+j] - r) <= 2 * K * 2**-23 * s + 1e-37
sys.exit(0 if ok else 1)
PY
  t_result $? "C matches an independent python product within the stated bound"
else
  echo "ok $((t_n=t_n+1)) - python cross-check # SKIP no python3"
fi

for s in "1 1 1" "13 17 19" "37 1 300" "5 64 1" "145 33 257"; do
  set -- $s
  t_ok "--check ${1}x${2}x${3} on the CPU" "$GK" gemm --m=$1 --n=$2 --k=$3 --check --device=cpu
done
grep -q "of the bound.*ok$" "$t_tmp/out"; t_result $? "--check reports ok with the fraction of the bound"
t_ok "--time --json" "$GK" gemm --m=9 --n=8 --k=7 --time --json --check --device=cpu
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["k"]==7 and d["gflop_per_s"]>0 and d["check"]["ok"]' "$t_tmp/out"
  t_result $? "--json is valid JSON with the rate and the check"
else
  echo "ok $((t_n=t_n+1)) - JSON check # SKIP no python3"
fi
t_ok "--time line" "$GK" gemm --m=9 --n=8 --k=7 --time --device=cpu
grep -q "GFLOP/s" "$t_tmp/out"; t_result $? "--time prints GFLOP/s"
t_ok "--output=- writes C to stdout" "$GK" gemm --m=3 --n=4 --k=2 --output=- --device=cpu
[ "$(wc -c <"$t_tmp/out")" -eq 48 ]; t_result $? "stdout holds exactly C"

if "$GK" info | grep -q "compute capability"; then
  t_ok "--device=gpu --check 131x257x67" "$GK" gemm --m=131 --n=257 --k=67 --check --device=gpu --verbose
  t_ok "--device=gpu --check 1x1x1" "$GK" gemm --m=1 --n=1 --k=1 --check --device=gpu
  t_ok "--config small tiles --check" "$GK" gemm --m=100 --n=96 --k=33 --check --device=gpu --config=BM=64,BN=64,TM=4,TN=4,VEC=2
  t_ok "bench gemm small" "$GK" bench gemm --sizes=200x136x70 --reps=1
  grep -q "naive" "$t_tmp/out" && grep -q "tuned" "$t_tmp/out" && ! grep -q FAIL "$t_tmp/out"; t_result $? "bench has the kernels and all checks pass"
else
  t_fails "--device=gpu without a GPU" 1 "CUDA\|GPU\|device" "$GK" gemm --m=4 --n=4 --k=4 --device=gpu
  t_fails "bench gemm --device=gpu without a GPU" 1 "CUDA\|GPU\|device" "$GK" bench gemm --device=gpu --sizes=8
fi
t_ok "bench gemm --device=cpu" "$GK" bench gemm --device=cpu --sizes=70x50x90 --reps=1
grep -q "^70x50x90 .* reference .*(reference)" "$t_tmp/out" && grep -q "^70x50x90 .* cpu .* ok (" "$t_tmp/out" \
  && grep -q "openblas" "$t_tmp/out"; t_result $? "bench gemm on the CPU: reference, backend checked, OpenBLAS row (run or not)"

# Bad input: one line, the exit status, no output file.
printf 'xxxx' >"$d/short.bin"
t_fails "A of the wrong size" 1 "short.bin.*bytes" "$GK" gemm --m=7 --n=11 --k=5 --input-a="$d/short.bin" --output="$d/bad.bin"
t_fails "B larger than K x N" 1 "a.bin.*bytes" "$GK" gemm --m=7 --n=2 --k=5 --input-b="$d/a.bin" --output="$d/bad.bin"
t_fails "missing input" 1 "nothere.bin" "$GK" gemm --m=4 --n=4 --k=4 --input-a="$d/nothere.bin" --output="$d/bad.bin"
python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<6f",1,2,3,float("nan"),5,6))' "$d/nan.bin" 2>/dev/null \
  || printf '\000\000\200?\000\000\200?\000\000\200?\000\000\300\177\000\000\200?\000\000\200?' >"$d/nan.bin"
t_fails "a NaN in A" 1 "nan.bin: element (1, 0) is NaN" "$GK" gemm --m=2 --n=4 --k=3 --input-a="$d/nan.bin" --output="$d/bad.bin"
printf '\000\000\200?\000\000\200\177' >"$d/inf.bin"
t_fails "an infinity in B" 1 "inf.bin: element (0, 1) is infinite" "$GK" gemm --m=3 --n=2 --k=1 --input-b="$d/inf.bin" --output="$d/bad.bin"
t_fails "--m=0" 2 "\-\-m" "$GK" gemm --m=0 --n=4 --k=4 --output="$d/bad.bin"
t_fails "negative --k" 2 "\-\-k" "$GK" gemm --m=4 --n=4 --k=-3 --output="$d/bad.bin"
t_fails "--n not a number" 2 "\-\-n" "$GK" gemm --m=4 --n=4x --k=4 --output="$d/bad.bin"
t_fails "--m above INT_MAX" 2 "\-\-m" "$GK" gemm --m=2147483648 --n=4 --k=4 --output="$d/bad.bin"
t_fails "missing --k" 2 "\-\-k is required" "$GK" gemm --m=4 --n=4 --output="$d/bad.bin"
t_fails "bytes overflow" 1 "does not fit\|overflow" "$GK" gemm --m=2147483647 --n=2147483647 --k=2 --output="$d/bad.bin"
t_fails "too large for memory" 1 "needs.*memory" "$GK" gemm --m=2000000 --n=2000000 --k=1 --device=cpu --output="$d/bad.bin"
t_fails "gen matrix bytes overflow" 1 "overflow" "$GK" gen matrix --rows=2147483647 --cols=2147483647 "$d/bad.bin"
t_fails "gen matrix --rows=0" 2 "rows" "$GK" gen matrix --rows=0 --cols=3 "$d/bad.bin"
t_fails "unknown --config parameter" 2 "TILE" "$GK" gemm --m=4 --n=4 --k=4 --config=TILE=3 --output="$d/bad.bin"
t_fails "--config over 1024 threads" 2 "1024" "$GK" gemm --m=4 --n=4 --k=4 --config=BM=256,BN=256,TM=4,TN=8 --output="$d/bad.bin"
t_fails "--config TM not a multiple of 4" 2 "groups of 4" "$GK" gemm --m=4 --n=4 --k=4 --config=TM=6 --output="$d/bad.bin"
t_fails "bench: size 0" 2 "sizes" "$GK" bench gemm --sizes=0 --device=cpu
t_fails "both inputs on stdin" 2 "standard input" "$GK" gemm --m=4 --n=4 --k=4 --input-a=- --input-b=- --output="$d/bad.bin"
t_fails "output is the input" 1 "a.bin" "$GK" gemm --m=7 --n=5 --k=5 --input-a="$d/a.bin" --output="$d/a.bin"
t_fails "unknown option" 2 "unrecognized option '--bogus'" "$GK" gemm --m=4 --n=4 --k=4 --bogus
grep -q "^Try 'gk gemm --help'" "$t_tmp/err"; t_result $? "usage errors point at the subcommand's help"
[ ! -e "$d/bad.bin" ] && [ -z "$(ls "$d" | grep tmp)" ]; t_result $? "no output or temp file left by any failure"
[ "$(wc -c <"$d/a.bin")" -eq 140 ]; t_result $? "the input named as output is untouched"
# Without --output: one summary line (the --time line) saying C is not written.
t_ok "no --output" "$GK" gemm --m=7 --n=5 --k=3 --device=cpu
[ "$(wc -l <"$t_tmp/out")" -eq 1 ] && [ ! -s "$t_tmp/err" ] &&
  grep -q '^gemm 7x5x3 on cpu: [0-9.]* s, [0-9.]* GFLOP/s; the result is not written (no --output)$' "$t_tmp/out"
t_result $? "no --output: one line with the sizes, device and rate, saying nothing was written"
t_ok "--output, no --time" "$GK" gemm --m=7 --n=5 --k=3 --device=cpu --output="$d/quiet.bin"
[ ! -s "$t_tmp/out" ] && [ ! -s "$t_tmp/err" ]; t_result $? "--output without --time: nothing printed"
# A bench row's note is whole: the OpenBLAS row either ran or names the
# library and the Debian package in full (it was cut to "...; Debian: libo").
t_ok "bench gemm --device=cpu" "$GK" bench gemm --device=cpu --sizes=16 --reps=1
r=1
if grep -q '^16x16x16  *openblas  *not run' "$t_tmp/out"; then
  grep -q '^16x16x16  *openblas  *not run: OpenBLAS not found (libopenblas\.so\.0; Debian: libopenblas-dev)$' "$t_tmp/out" && r=0
else
  grep -q '^16x16x16  *openblas  *[0-9.]* ' "$t_tmp/out" && r=0
fi
[ $r = 0 ] || t_diag "$(cat "$t_tmp/out")"
t_result $r "bench gemm: the OpenBLAS row ran, or its note is whole"
t_done
