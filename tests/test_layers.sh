#!/bin/sh
# The layers of src/ (HACKING.md): no folder includes from, or calls into, a
# folder above it or beside it.  Read from the sources' #include lines and
# from the symbols of the built objects.
. "$top_srcdir/tests/tap.sh"
sh "$top_srcdir/tools/layers.sh" "$top_srcdir/src" >"$t_tmp/inc" 2>&1; r=$?
[ $r = 0 ] || t_diag "$(cat "$t_tmp/inc")"
t_result $r "#include lines: no upward edge between src/ folders"
if command -v python3 >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
  python3 "$top_srcdir/tools/layers-symbols.py" "$top_builddir" >"$t_tmp/sym" 2>&1; r=$?
  [ $r = 0 ] || t_diag "$(cat "$t_tmp/sym")"
  grep -q 'api   -> ' "$t_tmp/sym"; t_result $(( r || $? )) "symbols: no call goes up or sideways between src/ folders"
else
  echo "ok $((t_n = t_n + 1)) # SKIP no python3 or nm"
fi
t_done
