#!/bin/sh
# The ABI: libgk.so exports exactly the symbols src/libgk.map lists (the
# committed list: adding or removing a symbol is a deliberate edit there),
# the map lists exactly the GK_API declarations of include/gk/*.h, every
# export carries the map's version node, and the soname is the version's
# major number.  Nothing else leaks (no gk__ internals, no helpers of the
# libraries libgk links statically).
. "$top_srcdir/tests/tap.sh"
so=$(ls "$top_builddir"/.libs/libgk.so 2>/dev/null | head -1)
if [ -z "$so" ] || ! command -v nm >/dev/null 2>&1; then echo "1..0 # SKIP no shared libgk or no nm"; exit 0; fi
map="$top_srcdir/src/libgk.map"
# (__odr_asan.NAME: AddressSanitizer's marker beside an exported global, in
# --enable-sanitizers builds; not a symbol of gk's)
nm -D --defined-only "$so" | awk '$2 ~ /^[TDRBVWGS]$/ { print $3 }' | grep -v '^__odr_asan\.' \
  | grep -v '^GK_[0-9.]*$' | sort -u >"$t_tmp/exported_versioned"
sed 's/@.*//' "$t_tmp/exported_versioned" | sort -u >"$t_tmp/exported"
cat "$top_srcdir"/include/gk/*.h | tr '\n' ' ' | sed 's/GK_API/\nGK_API/g' | grep '^GK_API' \
  | sed 's/[([].*//; s/.*[ *]\([A-Za-z_][A-Za-z_0-9]*\) *$/\1/' | grep '^gk_' | sort -u >"$t_tmp/declared"
sed 's,/\*.*\*/,,' "$map" | tr -d ' \t' | grep -E '^gk_[A-Za-z0-9_]*;$' | tr -d ';' | sort >"$t_tmp/listed"
[ -s "$t_tmp/declared" ] && [ -s "$t_tmp/exported" ] && [ -s "$t_tmp/listed" ]
t_result $? "found the declared, the listed and the exported symbols"
# (a symbol in two nodes is a function whose struct grew: its old version
# stays for old programs, .symver; it must then be exported in two versions)
dup=$(uniq -d "$t_tmp/listed" | while read -r n; do
  [ "$(grep -c "^$n@" "$t_tmp/exported_versioned")" -ge 2 ] || printf '%s ' "$n"; done)
[ -z "$dup" ]; t_result $? "src/libgk.map lists each symbol once, but for those exported in several versions${dup:+ (twice: $dup)}"
sort -u "$t_tmp/listed" -o "$t_tmp/listed"
extra=$(comm -23 "$t_tmp/exported" "$t_tmp/listed" | tr '\n' ' ')
[ -z "$extra" ]; t_result $? "nothing exported that src/libgk.map does not list${extra:+: $extra}"
missing=$(comm -13 "$t_tmp/exported" "$t_tmp/listed" | tr '\n' ' ')
[ -z "$missing" ]; t_result $? "every listed symbol is exported${missing:+ (missing: $missing)}"
undeclared=$(comm -13 "$t_tmp/declared" "$t_tmp/listed" | tr '\n' ' ')
[ -z "$undeclared" ]; t_result $? "every listed symbol is declared GK_API in include/gk${undeclared:+ (not: $undeclared)}"
unlisted=$(comm -23 "$t_tmp/declared" "$t_tmp/listed" | tr '\n' ' ')
[ -z "$unlisted" ]; t_result $? "every GK_API declaration is listed in src/libgk.map${unlisted:+ (not: $unlisted)}"
! grep -q '^gk__' "$t_tmp/exported"; t_result $? "no gk__ internal is exported"
! grep -qv '^gk_' "$t_tmp/exported"; t_result $? "every exported name starts with gk_"
# every export is versioned (GNU ld with the map: NAME@@GK_x.y); a linker
# without version scripts exports by visibility alone
if grep -q 'GK_VERSION_SCRIPT_LDFLAGS = .*version-script' "$top_builddir/Makefile" 2>/dev/null; then
  unver=$(grep -v '@@\?GK_[0-9]' "$t_tmp/exported_versioned" | tr '\n' ' ')
  [ -z "$unver" ]; t_result $? "every export carries a GK_ version node${unver:+ (not: $unver)}"
else
  t_skip "the linker took no version script" "version nodes"
fi
# the soname follows -version-info CURRENT:REVISION:AGE: libgk.so.(CURRENT - AGE)
info=$(sed -n 's/^libgk_la_LDFLAGS = -version-info \([0-9]*\):\([0-9]*\):\([0-9]*\).*/\1 \3/p' "$top_srcdir/Makefile.am")
set -- $info
if command -v objdump >/dev/null 2>&1 && [ -n "$1" ]; then
  soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
  [ "$soname" = "libgk.so.$(($1 - $2))" ]; t_result $? "the soname $soname is libgk.so.(CURRENT - AGE) = libgk.so.$(($1 - $2))"
  major=$(sed -n 's/^#define GK_VERSION_MAJOR \([0-9]*\)/\1/p' "$top_builddir/include/gk/version.h")
  [ "$(($1 - $2))" = "$major" ]; t_result $? "the soname's number is GK_VERSION_MAJOR ($major)"
else
  t_skip "no objdump" "soname"
  t_skip "no objdump" "soname and major version"
fi
t_done
