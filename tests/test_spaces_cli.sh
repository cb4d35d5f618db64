#!/bin/sh
# Parameter ranges at the front doors: gk refuses a --config value outside
# its parameter's range before any arithmetic (BY=1073741825 overflowed
# BX*BY and was accepted), with one line naming --config; gktune --list
# prints the ranges.
. "$top_srcdir/tests/tap.sh"
d=$t_tmp

t_fails "stencil --config BY=1073741825 (BX*BY overflowed int)" 2 "^gk: --config: kernel stencil: BY=1073741825 is outside \[1, 1024\]$" \
  "$GK" stencil --size=8 --device=cpu --config=BX=64,BY=1073741825,RY=4 --output="$d/o.bin"
[ ! -e "$d/o.bin" ]; t_result $? "no output file"
t_fails "stencil --config BX=2147483647" 2 "BX=2147483647 is outside \[1, 1024\]" \
  "$GK" stencil --size=8 --device=cpu --config=BX=2147483647
t_fails "stencil --config ZC=-2147483648" 2 "ZC=-2147483648 is outside \[1, 65535\]" \
  "$GK" stencil --size=8 --device=cpu --config=ZC=-2147483648
t_fails "stencil --config RY=0" 2 "RY=0 is outside \[1, 8\]" "$GK" stencil --size=8 --device=cpu --config=RY=0
t_ok "stencil --config at the range ends that the constraints allow" \
  "$GK" stencil --size=8 --device=cpu --config=BX=1024,BY=1,RY=1,ZC=65535,UNROLL=16,MAXRREG=0,DESIGN=0

if "$GKTUNE" --list | grep -q '^vadd'; then
  t_ok "gktune --list" "$GKTUNE" --list
  grep -q "^  BY  *default 8  *range \[1, 1024\]  *values 1,2,4,8" "$t_tmp/out"; t_result $? "--list shows BY's range"
  grep -q "^  APSP_TILE  *default 128  *range \[32, 256\]" "$t_tmp/out"; t_result $? "--list shows APSP_TILE's range"
  grep -q "^  THREADS  *default 256  *range \[32, 1024\]" "$t_tmp/out"; t_result $? "--list shows THREADS's range"
  t_ok "gktune --list --kernels=gemm,apsp" "$GKTUNE" --list --kernels=gemm,apsp
  [ "$(grep -v '^ ' "$t_tmp/out" | cut -d: -f1 | tr '\n' ' ')" = "apsp gemm " ] && grep -q "^  BM " "$t_tmp/out" \
    && ! grep -q "^  BY " "$t_tmp/out"
  t_result $? "--list --kernels: only the kernels named, each with its parameters"
  t_ok "gktune --list --kernels=apspx_f64,apspx_p" "$GKTUNE" --list --kernels=apspx_f64,apspx_p
  grep -q "^apspx_f64: 4 combinations, 4 pass" "$t_tmp/out" && grep -q "^apspx_p: 4 combinations, 3 pass" "$t_tmp/out" \
    && grep -q "^  APSPX_F64_TM  *default 4  *range \[4, 64\]  *values 4,8" "$t_tmp/out" \
    && [ "$(grep -c '^  ' "$t_tmp/out")" = 6 ]
  t_result $? "--list: the typed shapes' spaces, two parameters each"
  "$GKTUNE" --list | grep -v '^ ' | cut -d: -f1 | tr '\n' ' ' >"$t_tmp/names"
  case "$(cat "$t_tmp/names")" in *"apspx_f32 apspx_f64 apspx_p ") true;; *) false;; esac
  t_result $? "--list: the typed shapes come last ($(cat "$t_tmp/names"))"
else
  echo "ok $((t_n=t_n+1)) - gktune --list ranges # SKIP built without CUDA"
fi
t_fails "gktune --list --json is a usage error" 2 "--list prints text" "$GKTUNE" --list --json
t_done
