#!/bin/sh
# gk.shortest_path, gk.dijkstra, gk.johnson, gk.bellman_ford (python/gk/csgraph.py)
# against scipy.sparse.csgraph's: tests/python/test_sssp.py prints TAP.  Skips,
# with the reason, without python3, numpy or scipy (the reference).
: "${PYTHON:=python3}"
if [ "$PYTHON" = : ] || ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "1..0 # SKIP no python3 (configure found none, or --without-python)"
  exit 0
fi
for m in numpy scipy; do
  if ! "$PYTHON" -c "import $m" >/dev/null 2>&1; then
    echo "1..0 # SKIP $m is not installed for $PYTHON (apt-get install python3-$m)"
    exit 0
  fi
done
. "$top_srcdir/tests/python_san.sh"
exec "$PYTHON" "$top_srcdir/tests/python/test_sssp.py"
