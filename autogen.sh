#!/bin/sh
# autogen.sh - generate configure from a git checkout (tarballs ship it).
set -e
cd "$(dirname "$0")"
autoreconf --install --force
