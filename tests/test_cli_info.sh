#!/bin/sh
# gk info, --help, --version work with or without a GPU; info --json parses.
. "$top_srcdir/tests/tap.sh"
t_ok "gk --version" "$GK" --version
grep -q "^gk (gk) " "$t_tmp/out"; t_result $? "version line names gk"
t_ok "gk --help" "$GK" --help
t_ok "gktune --help" "$GKTUNE" --help
t_ok "gk info exits 0" "$GK" info
grep -q "^GPUs" "$t_tmp/out" && grep -q "^CPU" "$t_tmp/out" && grep -q "Tuning cache" "$t_tmp/out"
t_result $? "gk info has build, CPU, GPU and cache sections"
t_ok "gk info --json exits 0" "$GK" info --json
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "gpus" in d and d["cpu"]["pus"] >= 1' "$t_tmp/out"
  t_result $? "gk info --json is valid JSON with cpu and gpus"
else
  echo "ok $((t_n=t_n+1)) - JSON check # SKIP no python3"
fi
t_fails "unknown command is a usage error" 2 "unknown command" "$GK" frobnicate
t_fails "bad info option is a usage error" 2 "unrecognized option" "$GK" info --bogus
# gk info is the diagnostic: a GK_DEVICE it cannot read is a one-line
# warning there, not the end of the report; a run still fails on it
GK_DEVICE=abc "$GK" info >"$t_tmp/out" 2>"$t_tmp/err"; rc=$?
[ $rc = 0 ] && grep -q "^Build" "$t_tmp/out" && [ "$(wc -l <"$t_tmp/err")" = 1 ] \
  && grep -q "^gk: warning: GK_DEVICE: 'abc'" "$t_tmp/err"
t_result $? "gk info with GK_DEVICE=abc: one warning naming it, the report, exit 0"
t_fails "a run with GK_DEVICE=abc fails naming it" 1 "GK_DEVICE: 'abc'" env GK_DEVICE=abc "$GK" stencil --size=4 --steps=1
# GK_DEVICE=all names every GPU there is: none on a machine without one,
# where a CPU run goes on as with GK_DEVICE=0 (it failed there before)
t_ok "GK_DEVICE=all with --device=cpu runs on any machine" env GK_DEVICE=all "$GK" stencil --device=cpu --size=4 --steps=1
# GK_CPU_ISA: the context's instruction set is the one the CPU kernels run
# (--verbose names it); a bad one fails naming the variable
for k in "gemm --m=9 --n=9 --k=9" "stencil --size=6 --steps=2"; do
  env GK_CPU_ISA=generic "$GK" $k --device=cpu --verbose >"$t_tmp/out" 2>"$t_tmp/err"
  grep -q "kernel generic" "$t_tmp/err"; t_result $? "GK_CPU_ISA=generic: gk ${k%% *} runs the generic kernels"
done
t_fails "GK_CPU_ISA=bogus fails naming it" 1 "GK_CPU_ISA: unknown instruction set 'bogus'" \
  env GK_CPU_ISA=bogus "$GK" gemm --m=2 --n=2 --k=2 --device=cpu
t_done
