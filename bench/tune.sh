#!/bin/sh
# bench/tune.sh - how good is gktune's budgeted search?  Runs gktune with its
# default budget and then --exhaustive, each on a fresh cache, and prints per
# kernel and size class: default-config time, budgeted result, exhaustive best,
# and how far the budgeted result is from the exhaustive best.
#   usage: bench/tune.sh [BUILD_DIR] [OUT_DIR]     (run on the GPU machine)
set -e
B=${1:-.}
O=${2:-.}
mkdir -p "$O"
run() {  # name, extra options
  name=$1; shift
  d=$(mktemp -d)
  t0=$(date +%s.%N)
  GK_CACHE_DIR=$d "$B/gktune" --json -q "$@" >"$O/tune-$name.json.tmp" 2>"$O/tune-$name.err" || { cat "$O/tune-$name.err"; exit 1; }
  t1=$(date +%s.%N)
  mv "$O/tune-$name.json.tmp" "$O/tune-$name.json"
  cp "$d"/tune-*.csv "$O/tune-$name.csv" 2>/dev/null || true
  cp "$d"/tune-*.txt "$O/tune-$name.cache.txt" 2>/dev/null || true
  echo "$name: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s wall" | tee "$O/tune-$name.wall"
  rm -rf "$d"
}
run default
run exhaustive --exhaustive
python3 - "$O" <<'PY'
import json, sys
o = sys.argv[1]
a = {(r["kernel"], r["size"]): r for r in json.load(open(o + "/tune-default.json"))["results"]}
b = {(r["kernel"], r["size"]): r for r in json.load(open(o + "/tune-exhaustive.json"))["results"]}
print("%-8s %6s %11s %11s %11s %8s %9s %9s  %s" % ("kernel", "size", "default ms", "budget ms", "exhaust ms",
      "gap", "tried b/e", "failed", "budgeted config"))
for k in sorted(a):
    r, e = a[k], b.get(k)
    f = r["failed"]
    print("%-8s %6d %11.4g %11.4g %11.4g %7.1f%% %4d/%-4d %9s  %s" % (k[0], k[1], r["default_ms"], r["best_ms"],
          e["best_ms"] if e else float("nan"), 100 * (r["best_ms"] / e["best_ms"] - 1) if e else float("nan"),
          r["measured"], e["measured"] if e else 0,
          "%d/%d/%d/%d/%d" % (f["compile"], f["launch"], f["wrong"], f["fault"], f["timeout"]), r["config"]))
PY
