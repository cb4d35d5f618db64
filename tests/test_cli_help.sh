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
# The commands: info, convert, then `gk NAME`, `gk gen GEN`, `gk bench NAME`
# for each GK_KERNEL(NAME, "GEN") line of src/kernels.def, and `gk bench plan`.
def="$top_srcdir/src/kernels.def"
pat='^GK_KERNEL(\([a-z0-9_]*\), *"\([a-z0-9_-]*\)")$'
nk=$(grep -c '^GK_KERNEL(' "$def")
[ "$nk" -gt 0 ] && [ "$(grep -c "$pat" "$def")" = "$nk" ]
t_result $? "src/kernels.def: its $nk GK_KERNEL lines read as GK_KERNEL(name, \"gen\")"
{ echo info; echo convert
  sed -n "s/$pat/\1 \2/p" "$def" | while read -r name gen; do printf '%s\ngen %s\nbench %s\n' "$name" "$gen" "$name"; done
  echo "bench plan"; } >"$t_tmp/commands"
while IFS= read -r cmd; do
  # shellcheck disable=SC2086
  "$GK" $cmd --help </dev/null >"$t_tmp/help" 2>&1; rc=$?
  "$GK" $cmd -h </dev/null >"$t_tmp/h" 2>&1 && cmp -s "$t_tmp/help" "$t_tmp/h" && [ $rc = 0 ]
  t_result $? "gk $cmd: -h and --help print the same help, exit 0"
  awk 'length > 80 { bad = 1 } END { exit bad }' "$t_tmp/help"
  t_result $? "gk $cmd: --help fits 80 columns"
  opts <"$t_tmp/help" | grep -v -- '^--help$' >"$t_tmp/a"
  section "gk $cmd" | opts | grep -v -- '^--help$' >"$t_tmp/b"
  [ -s "$t_tmp/a" ] && cmp -s "$t_tmp/a" "$t_tmp/b"
  r=$?; [ $r = 0 ] || t_diag "gk $cmd --help vs gk(1):" "$(diff "$t_tmp/a" "$t_tmp/b")"
  t_result $r "gk $cmd: the options of --help and of gk(1) agree"
done <"$t_tmp/commands"
# gk help [COMMAND [KIND]]: the same text as --help
"$GK" --help >"$t_tmp/a" 2>&1 && "$GK" help >"$t_tmp/b" 2>&1 && cmp -s "$t_tmp/a" "$t_tmp/b"
t_result $? "gk help: gk --help's text, exit 0"
for cmd in apsp "gen apsp" path "bench apsp" gen; do
  # shellcheck disable=SC2086
  "$GK" $cmd --help >"$t_tmp/a" 2>&1 && "$GK" help $cmd >"$t_tmp/b" 2>&1 && cmp -s "$t_tmp/a" "$t_tmp/b"
  t_result $? "gk help $cmd: gk $cmd --help's text, exit 0"
done
"$GK" help bogus >/dev/null 2>"$t_tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown command 'bogus'" "$t_tmp/err"
t_result $? "gk help bogus: unknown command, exit 2"
"$GKTUNE" --help >"$t_tmp/help" 2>&1
awk 'length > 80 { bad = 1 } END { exit bad }' "$t_tmp/help"; t_result $? "gktune: --help fits 80 columns"
opts <"$t_tmp/help" | grep -v -- '^--help$\|^--version$' >"$t_tmp/a"
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 } on' "$top_srcdir/doc/gktune.1" | opts \
  | grep -v -- '^--help$\|^--version$' >"$t_tmp/b"
[ -s "$t_tmp/a" ] && cmp -s "$t_tmp/a" "$t_tmp/b"
r=$?; [ $r = 0 ] || t_diag "gktune --help vs gktune(1):" "$(diff "$t_tmp/a" "$t_tmp/b")"
t_result $r "gktune: the options of --help and of gktune(1) agree"
t_done
