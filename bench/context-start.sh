#!/bin/sh
# context-start.sh - bench/context-start.c against an installed or built gk:
#   sh bench/context-start.sh GKSRC GKBUILD [DIR]
# (GKSRC: the source tree, for include/; GKBUILD: the build tree, for
# .libs/libgk.so and gk).  Three processes alone, three reading the
# V = 25000 input of bench/apsp-io.sh on the main thread meanwhile.
src=$1; b=$2; dir=${3:-/tmp}
cc -O2 -I"$src/include" -I"$b/include" -o "$dir/context-start" "$src/bench/context-start.c" -L"$b/.libs" -lgk -lpthread \
  -Wl,-rpath,"$b/.libs" || exit 1
"$b/gk" gen apsp --vertices=25000 --edges=6250000 --max-weight=1000 --seed=14 "$dir/cs.in" || exit 1
cat "$dir/cs.in" >/dev/null
for i in 1 2 3; do echo "alone $i"; "$dir/context-start"; done
for i in 1 2 3; do echo "with the read $i"; "$dir/context-start" "$dir/cs.in"; done
rm -f "$dir/cs.in"
