#!/bin/sh
# test_sssp_bench.sh - `gk bench apsp --algorithms --quick --json` runs and
# every row (graph x S, in the fixed order) names auto's choice, and every
# algorithm gave the same distances; the text table has the same rows;
# gktune --calibrate=sssp writes the rates file auto then names.  No timing
# assertion.
. "$top_srcdir/tests/tap.sh"
export GK_CACHE_DIR="$t_tmp/cache"
mkdir -p "$GK_CACHE_DIR"

t_ok "bench apsp --algorithms --quick --json" "$GK" bench apsp --algorithms --quick --json --device=cpu
cp "$t_tmp/out" "$t_tmp/json"
if command -v python3 >/dev/null 2>&1; then
  python3 - "$t_tmp/json" > "$t_tmp/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
want = [(g, s) for g in ("random", "road", "powerlaw", "dense", "negative") for s in ("1", "100", "V")]
assert len(rows) == 15, "rows: %d" % len(rows)
algs = {"fw", "dijkstra", "johnson", "bellman-ford"}
for (g, s), r in zip(want, rows):
    assert r["graph"] == g, (g, r["graph"])
    S = {"1": 1, "100": min(100, r["V"]), "V": r["V"]}[s]
    assert r["S"] == S, (g, s, r["S"])
    assert r["auto_choice"] in algs, r
    assert r["auto_backend"] in ("cpu", "gpu"), r
    assert r["same"] is True, r
    sec = r["seconds"]
    assert (sec["dijkstra"] is None) == (g == "negative"), r
    assert r["auto_choice"] != "dijkstra" or g != "negative", r
    assert all(sec[a] is None or sec[a] >= 0 for a in algs), r
    assert r["auto_over_fastest"] > 0 and r["why"].startswith("auto: "), r
PY
  rc=$?; [ $rc = 0 ] || t_diag "$(cat "$t_tmp/check")"
  t_result $rc "15 rows in order, each with auto's choice, the same distances, dijkstra only without negative weights"
else
  echo "ok $((t_n=t_n+1)) - JSON check # SKIP no python3"
fi

t_ok "the text table" "$GK" bench apsp --algorithms --quick --device=cpu
test "$(grep -cE '^(random|road|powerlaw|dense|negative) ' "$t_tmp/out")" = 15
t_result $? "15 rows"
awk '/^(random|road|powerlaw|dense|negative) /{ if ($10 !~ /^(fw|dijkstra|johnson|bellman-ford)$/ || $12 != "yes") bad = 1 } END { exit bad }' "$t_tmp/out"
rc=$?; [ $rc = 0 ] || t_diag "$(cat "$t_tmp/out")"
t_result $rc "each row names auto's choice and says the distances were the same"

t_fails "an unknown option is a usage error" 2 "unrecognized option" "$GK" bench apsp --algorithms --bogus
t_ok "--algorithms --help" "$GK" bench apsp --algorithms --help
grep -q -- "--quick" "$t_tmp/out"; t_result $? "its help names --quick"

# calibration: the rates file in the cache, then auto's reason names it
t_ok "gktune --calibrate=sssp" "$GKTUNE" --calibrate=sssp
test -s "$GK_CACHE_DIR/sssp-rates-cpu.txt" && grep -q "^cpu_edge_ns [0-9]" "$GK_CACHE_DIR/sssp-rates-cpu.txt"
t_result $? "sssp-rates-cpu.txt written with the rates"
t_ok "bench after calibration" "$GK" bench apsp --algorithms --quick --json --device=cpu
grep -q "sssp-rates-cpu.txt" "$t_tmp/out"; t_result $? "auto's why names the rates file"
t_fails "--calibrate of something else" 2 "calibrat" "$GKTUNE" --calibrate=gemm
t_done
