#!/bin/sh
# libgk.so exports exactly the documented API: every symbol declared with
# GK_API in include/gk/*.h, and nothing else (no gk__ internals, no helpers
# of the libraries it links statically).
. "$top_srcdir/tests/tap.sh"
so=$(ls "$top_builddir"/.libs/libgk.so 2>/dev/null | head -1)
if [ -z "$so" ] || ! command -v nm >/dev/null 2>&1; then echo "1..0 # SKIP no shared libgk or no nm"; exit 0; fi
# (__odr_asan.NAME: AddressSanitizer's marker beside an exported global, in
# --enable-sanitizers builds; not a symbol of gk's)
nm -D --defined-only "$so" | awk '$2 ~ /^[TDRBVWGS]$/ { print $3 }' | sed 's/@.*//' | grep -v '^__odr_asan\.' \
  | sort -u >"$t_tmp/exported"
cat "$top_srcdir"/include/gk/*.h | tr '\n' ' ' | sed 's/GK_API/\nGK_API/g' | grep '^GK_API' \
  | sed 's/[([].*//; s/.*[ *]\([A-Za-z_][A-Za-z_0-9]*\) *$/\1/' | grep '^gk_' | sort -u >"$t_tmp/declared"
[ -s "$t_tmp/declared" ] && [ -s "$t_tmp/exported" ]; t_result $? "found the declared and the exported symbols"
extra=$(comm -23 "$t_tmp/exported" "$t_tmp/declared" | tr '\n' ' ')
[ -z "$extra" ]; t_result $? "nothing exported that gk.h does not declare${extra:+: $extra}"
missing=$(comm -13 "$t_tmp/exported" "$t_tmp/declared" | tr '\n' ' ')
[ -z "$missing" ]; t_result $? "every declared function is exported${missing:+ (missing: $missing)}"
! grep -q '^gk__' "$t_tmp/exported"; t_result $? "no gk__ internal is exported"
! grep -qv '^gk_' "$t_tmp/exported"; t_result $? "every exported name starts with gk_"
t_done
