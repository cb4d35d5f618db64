#!/bin/sh
# One behaviour for every subcommand: usage errors exit 2 and name what is
# wrong (a missing value, an ambiguous abbreviation, a value given to a flag,
# an unknown option, a --config the kernel refuses, on any backend), with
# "Try 'gk SUBCOMMAND --help'"; control characters in messages are escaped.
. "$top_srcdir/tests/tap.sh"
d=$t_tmp
"$GK" gen apsp --vertices=20 --edges=60 --seed=2 "$d/g" || exit 1
try() { grep -q "^Try '$1 --help'" "$t_tmp/err"; }
t_fails "apsp: a missing value is named" 2 "option '--config' requires a value" "$GK" apsp "$d/g" "$d/o" --config
try "gk apsp"; t_result $? "apsp: Try 'gk apsp --help'"
t_fails "stencil: an ambiguous abbreviation is named" 2 "option '--s' is ambiguous.*--size.*--steps" "$GK" stencil --s=4
try "gk stencil"; t_result $? "stencil: Try 'gk stencil --help'"
t_fails "gen grid: a value given to a flag" 2 "doesn't allow a value" "$GK" gen grid --size=4 --help=3 "$d/o"
t_fails "bench apsp: unknown option" 2 "unrecognized option '--nope'" "$GK" bench apsp --nope
try "gk bench apsp"; t_result $? "bench apsp: Try 'gk bench apsp --help'"
t_fails "info: unexpected argument" 2 "unexpected argument 'x'" "$GK" info x
t_ok "abbreviations work" "$GK" stencil --si=3 --st=1 --dev=cpu
for dev in cpu auto; do
  t_fails "apsp --device=$dev refuses an unknown --config parameter" 2 "apsp has no parameter 'NOPE'" \
    "$GK" apsp --device=$dev --config=NOPE=1 "$d/g" "$d/o_$dev"
  t_fails "stencil --device=$dev refuses an unknown --config parameter" 2 "stencil has no parameter 'NOPE'" \
    "$GK" stencil --size=4 --device=$dev --config=NOPE=1
done
[ ! -e "$d/o_cpu" ] && [ ! -e "$d/o_auto" ]; t_result $? "no output after a refused --config"
t_fails "--config is parsed strictly" 2 "config" "$GK" apsp --device=cpu --config=APSP_TILE=1x "$d/g" "$d/o"
t_fails "a newline in --config stays on one line" 2 "\\\\n" "$GK" stencil --size=4 --config="$(printf 'BX=1\nBY=2')"
t_ok "a valid --config on the CPU runs" "$GK" apsp --device=cpu --config=APSP_TILE=64 "$d/g" "$d/o"
grep -q "warning: --config applies to the GPU kernels; this run was on the CPU" "$t_tmp/err"
t_result $? "and says it is unused on the CPU"
t_ok "bench stencil accepts --device" "$GK" bench stencil --device=cpu --sizes=6 --steps=1 --reps=1 --json
grep -q '"device":"cpu"' "$t_tmp/out"; t_result $? "bench stencil --device=cpu --json says cpu"
t_fails "usage errors exit 2 in stencil too" 2 "steps" "$GK" stencil --size=4 --steps=x
# an empty file name is a usage error naming its option or operand, and
# nothing is written
t_fails "stencil --output= is named" 2 "^gk: --output: empty file name" "$GK" stencil --size=4 --steps=1 --output=
t_fails "stencil --input= is named" 2 "^gk: --input: empty file name" "$GK" stencil --size=4 --steps=1 --input=
t_fails "stencil --coeffs= is named" 2 "^gk: --coeffs: empty file name" "$GK" stencil --size=4 --steps=1 --coeffs=
t_fails "gemm --input-b= is named" 2 "^gk: --input-b: empty file name" "$GK" gemm --m=2 --n=2 --k=2 --input-b=
t_fails "elementwise --output= is named" 2 "^gk: --output: empty file name" "$GK" elementwise --size=4 --output=
t_fails "apsp: an empty OUTPUT operand" 2 "^gk: OUTPUT: empty file name" "$GK" apsp --device=cpu "$d/g" ""
t_fails "apsp: an empty INPUT operand" 2 "^gk: INPUT: empty file name" "$GK" apsp --device=cpu "" "$d/o_e"
t_fails "gen grid: an empty OUTPUT operand" 2 "^gk: OUTPUT: empty file name" "$GK" gen grid --size=4 ""
[ ! -e "$d/o_e" ]; t_result $? "no output after an empty INPUT"
t_fails "elementwise --size with three numbers quotes the whole value" 2 "'4x4x4' is not a size" \
  "$GK" elementwise --size=4x4x4
t_fails "gktune: unknown option" 2 "unrecognized option" "$GKTUNE" --bogus
grep -q "^Try 'gktune --help'" "$t_tmp/err"; t_result $? "gktune: Try 'gktune --help'"
# reports never mix with data on stdout, and a lost report is a failure
"$GK" apsp --device=cpu "$d/g" "$d/o_ref" || exit 1
"$GK" apsp --device=cpu --json --time "$d/g" - >"$d/o_pipe" 2>"$d/rep"
cmp -s "$d/o_ref" "$d/o_pipe" && grep -q '"command":"apsp"' "$d/rep"
t_result $? "apsp --json --time with OUTPUT -: the matrix alone on stdout, the report on stderr"
"$GK" stencil --size=5 --steps=2 --device=cpu --json --output=- >"$d/s_pipe" 2>"$d/rep"
[ "$(wc -c <"$d/s_pipe")" -eq 1000 ] && grep -q '"command":"stencil"' "$d/rep"
t_result $? "stencil --json --output=-: 5^3 doubles on stdout, the report on stderr"
if [ -w /dev/full ]; then
  t_fails "a --json report lost to a full stdout is an error" 1 "standard output: write failed" \
    sh -c '"$0" apsp --device=cpu --json "$1" "$2" >/dev/full' "$GK" "$d/g" "$d/o_full"
  t_fails "gk info to a full stdout is an error" 1 "standard output: write failed" sh -c '"$0" info >/dev/full' "$GK"
else
  echo "ok $((t_n = t_n + 1)) # SKIP no writable /dev/full"; echo "ok $((t_n = t_n + 1)) # SKIP no writable /dev/full"
fi
t_done
