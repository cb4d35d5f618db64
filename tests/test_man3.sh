#!/bin/sh
# The man3 pages document the public C API, both ways: every GK_API
# declaration of include/gk/*.h has its prototype, as the header spells it,
# in the SYNOPSIS of exactly one page of doc/man3 and is described in that
# page's text (a .B/.BR/.BI/.RB/.IB entry); every prototype a SYNOPSIS gives
# is a GK_API declaration.  Each page formats without a warning
# (groff -man -ww), so that `man` shows what was written.
. "$top_srcdir/tests/tap.sh"
names="$top_srcdir/tools/man3-names.sh"
pages=$(ls "$top_srcdir"/doc/man3/*.3 2>/dev/null)
[ -n "$pages" ]; t_result $? "doc/man3 holds the pages"
sh "$names" header "$top_srcdir"/include/gk/*.h | sort >"$t_tmp/declared"
sh "$names" protos $pages | sort >"$t_tmp/documented"
[ "$(wc -l <"$t_tmp/declared")" -ge 90 ]
t_result $? "found the GK_API declarations of include/gk ($(wc -l <"$t_tmp/declared"))"
# names first (clear messages), then the whole prototypes
cut -d' ' -f1 "$t_tmp/declared" | sort -u >"$t_tmp/dnames"
cut -d' ' -f1 "$t_tmp/documented" | sort >"$t_tmp/mnames_all"
sort -u "$t_tmp/mnames_all" >"$t_tmp/mnames"
missing=$(comm -23 "$t_tmp/dnames" "$t_tmp/mnames" | tr '\n' ' ')
[ -z "$missing" ]; t_result $? "every GK_API function is in a man3 SYNOPSIS${missing:+ (not: $missing)}"
extra=$(comm -13 "$t_tmp/dnames" "$t_tmp/mnames" | tr '\n' ' ')
[ -z "$extra" ]; t_result $? "every function a SYNOPSIS gives is declared GK_API${extra:+ (not: $extra)}"
twice=$(uniq -d "$t_tmp/mnames_all" | tr '\n' ' ')
[ -z "$twice" ]; t_result $? "each function is in one SYNOPSIS only${twice:+ (more: $twice)}"
differ=$(comm -3 "$t_tmp/declared" "$t_tmp/documented" | sed 's/^[ \t]*//' | cut -d' ' -f1 | sort -u \
  | tr '\n' ' ')
[ -z "$differ" ]
t_result $? "each SYNOPSIS prototype is the header's (white space aside)${differ:+ (differ: $differ)}"
[ -z "$differ" ] || t_diag "$(comm -3 "$t_tmp/declared" "$t_tmp/documented")"

# described in the text of the page whose SYNOPSIS has it, not only listed
undescribed=
for p in $pages; do
  awk '/^\.SH/ { syn = ($0 ~ /SYNOPSIS/) } !syn && /^\.(B|BR|BI|RB|IB)[ \t]/' "$p" >"$t_tmp/body"
  for f in $(sh "$names" names "$p"); do
    grep -q "\\(^\\|[^A-Za-z0-9_]\\)$f\\([^A-Za-z0-9_]\\|\$\\)" "$t_tmp/body" \
      || undescribed="$undescribed $(basename "$p"):$f"
  done
done
[ -z "$undescribed" ]; t_result $? "every function is described in its page's text${undescribed:+ (not:$undescribed)}"

# every page has the sections a reader looks for
for p in $pages; do
  r=0
  for s in NAME SYNOPSIS DESCRIPTION 'RETURN VALUE' THREADS EXAMPLE 'SEE ALSO'; do
    grep -q "^\\.SH \"*$s\"*\$" "$p" || { r=1; t_diag "$(basename "$p"): no $s section"; }
  done
  t_result $r "$(basename "$p") has NAME, SYNOPSIS, DESCRIPTION, RETURN VALUE, THREADS, EXAMPLE, SEE ALSO"
done

# formatted without warnings
if command -v groff >/dev/null 2>&1; then
  for p in $pages; do
    groff -man -Tutf8 -ww -z "$p" >"$t_tmp/groff" 2>&1
    r=$?
    [ -s "$t_tmp/groff" ] && r=1
    [ $r = 0 ] || t_diag "$(cat "$t_tmp/groff")"
    t_result $r "groff -man -ww formats $(basename "$p") without a warning"
  done
else
  t_skip "no groff (Debian: groff-base)" "groff -man -ww formats the pages"
fi
t_done
