#!/bin/sh
# Every option each subcommand's --help lists is in its gk(1) / gktune(1)
# section, and the other way round; every subcommand answers -h and --help.
. "$top_srcdir/tests/tap.sh"
man="$top_srcdir/doc/gk.1"
# the long options of a text: --name (man pages escape the dashes as \-\-)
opts() { sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sed 's/-$//' | sort -u; }
section() {   # the .SS section of gk.1 whose title starts with "$1 "
  awk -v t=".SS $1" 'index($0, t " ") == 1 || $0 == t { on = 1; next } /^\.S[SH] / { on = 0 } on' "$man"
}
for cmd in "info" "convert" "apsp" "gen apsp" "bench apsp" "stencil" "gen grid" "bench stencil" \
    "elementwise" "gen elementwise" "bench elementwise" \
  "gemm" "gen matrix" "bench gemm" "bench plan"; do
  # shellcheck disable=SC2086
  "$GK" $cmd --help >"$t_tmp/help" 2>&1; rc=$?
  "$GK" $cmd -h >"$t_tmp/h" 2>&1 && cmp -s "$t_tmp/help" "$t_tmp/h" && [ $rc = 0 ]
  t_result $? "gk $cmd: -h and --help print the same help, exit 0"
  awk 'length > 80 { bad = 1 } END { exit bad }' "$t_tmp/help"
  t_result $? "gk $cmd: --help fits 80 columns"
  opts <"$t_tmp/help" | grep -v -- '^--help$' >"$t_tmp/a"
  section "gk $cmd" | opts | grep -v -- '^--help$' >"$t_tmp/b"
  [ -s "$t_tmp/a" ] && cmp -s "$t_tmp/a" "$t_tmp/b"
  r=$?; [ $r = 0 ] || t_diag "gk $cmd --help vs gk(1):" "$(diff "$t_tmp/a" "$t_tmp/b")"
  t_result $r "gk $cmd: the options of --help and of gk(1) agree"
done
"$GKTUNE" --help >"$t_tmp/help" 2>&1
awk 'length > 80 { bad = 1 } END { exit bad }' "$t_tmp/help"; t_result $? "gktune: --help fits 80 columns"
opts <"$t_tmp/help" | grep -v -- '^--help$\|^--version$' >"$t_tmp/a"
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 } on' "$top_srcdir/doc/gktune.1" | opts \
  | grep -v -- '^--help$\|^--version$' >"$t_tmp/b"
[ -s "$t_tmp/a" ] && cmp -s "$t_tmp/a" "$t_tmp/b"
r=$?; [ $r = 0 ] || t_diag "gktune --help vs gktune(1):" "$(diff "$t_tmp/a" "$t_tmp/b")"
t_result $r "gktune: the options of --help and of gktune(1) agree"
t_done
