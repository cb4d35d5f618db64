#!/bin/sh
# The gk Python module (python/gk) against scipy and numpy references:
# tests/python/test_gk.py prints TAP.  Skips, with the reason, when configure
# found no python3 or that python has no numpy.
: "${PYTHON:=python3}"
if [ "$PYTHON" = : ] || ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "1..0 # SKIP no python3 (configure found none, or --without-python)"
  exit 0
fi
if ! "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
  echo "1..0 # SKIP numpy is not installed for $PYTHON (apt-get install python3-numpy python3-scipy)"
  exit 0
fi
. "$top_srcdir/tests/python_san.sh"
exec "$PYTHON" "$top_srcdir/tests/python/test_gk.py"
