#!/bin/sh
# tools/layers.sh [SRCDIR] - the dependency graph between the folders of src/,
# read from the #include lines, and a check that it has no upward edge:
# cli -> api -> tune -> gpu, cpu -> core (tune may also use cpu).
src=${1:-src}
grep -rHo '#include "[a-z]*/' "$src" --include='*.c' --include='*.h' --include='*.cu' \
  | sed "s|^$src/||; s|/[^:]*:#include \"| -> |; s|/\$||" | sort | uniq -c | awk '$2 != $4'
rank() { case $1 in core) echo 0 ;; cpu|gpu) echo 1 ;; tune) echo 2 ;; api) echo 3 ;; cli) echo 4 ;; *) echo 9 ;; esac; }
bad=0
for e in $(grep -rHo '#include "[a-z]*/' "$src" --include='*.c' --include='*.h' --include='*.cu' \
           | sed "s|^$src/||; s|/[^:]*:#include \"|:|; s|/\$||" | sort -u); do
  from=${e%%:*} to=${e##*:}
  [ "$from" = "$to" ] && continue
  if [ "$(rank "$from")" -le "$(rank "$to")" ]; then echo "upward or sideways edge: $from -> $to"; bad=1; fi
done
[ $bad = 0 ] && echo "no upward edge"
exit $bad
