#!/bin/sh
# On a GPU: a short real gktune run, then gk uses its result (gk info and
# gk apsp --verbose say so); a corrupt or stale cache is reported and ignored;
# the shipped table is the next fallback; --config overrides.
. "$top_srcdir/tests/tap.sh"
if "$GK" info | grep -q '^  none: '; then echo "1..0 # SKIP no CUDA device"; exit 0; fi
export GK_CACHE_DIR="$t_tmp/cache" GK_DATA_DIR="$t_tmp/data"
mkdir -p "$GK_DATA_DIR/tuned"
"$GK" gen apsp --vertices=300 --edges=5000 --seed=3 "$t_tmp/g.bin" 2>"$t_tmp/err" || t_diag "$(cat "$t_tmp/err")"
uses() { "$GK" info >"$t_tmp/info" 2>&1; grep -q "^  apsp .*$1" "$t_tmp/info"; }

uses "built-in default"; t_result $? "before tuning: the built-in default"
t_ok "a short gktune run" "$GKTUNE" --kernels=apsp --sizes=apsp=1024 --budget=25 -q
t_diag "$(cat "$t_tmp/out")"
cache=$(ls "$GK_CACHE_DIR"/tune-*.txt 2>/dev/null | head -1)
[ -n "$cache" ] && grep -q '^entry kernel=apsp size=1024 ' "$cache"; t_result $? "it wrote a cache entry"
uses "tuning cache"; t_result $? "gk info: apsp uses the tuning cache"
"$GK" apsp --verbose "$t_tmp/g.bin" "$t_tmp/d.bin" 2>"$t_tmp/err" >/dev/null && grep -q "tuning cache" "$t_tmp/err"
t_result $? "gk apsp --verbose says it uses the tuning cache"
"$GK" apsp --check "$t_tmp/g.bin" "$t_tmp/d.bin" >/dev/null 2>"$t_tmp/err"; t_result $? "and the tuned kernel passes --check"

cp "$cache" "$t_tmp/good"
echo "entry kernel=apsp size=oops" >>"$cache"
uses "built-in default" && grep -q "ignored" "$t_tmp/info"; t_result $? "a corrupt cache is reported and ignored"
sed 's/ driver=[0-9]*/ driver=1/' "$t_tmp/good" >"$cache"
uses "built-in default" && grep -q "stale (driver 1 -> " "$t_tmp/info"; t_result $? "a stale cache (driver changed) is reported and ignored"
model=$(basename "$cache" .txt); model=${model#tune-}
mv "$cache" "$GK_DATA_DIR/tuned/$model.txt"
uses "shipped table"; t_result $? "without a cache, the shipped table for this model is used"
# gktune measures what it would replace: the shipped entry, given a
# MAXRREG no candidate list holds (120), must show up in its measurements
shipped="$GK_DATA_DIR/tuned/$model.txt"
sed 's/^\(entry kernel=apsp size=1024 .*MAXRREG=\)[0-9]*/\1120/' "$shipped" >"$t_tmp/s" && mv "$t_tmp/s" "$shipped"
grep -q '^entry kernel=apsp size=1024 .*MAXRREG=120' "$shipped"; t_result $? "the shipped entry now has MAXRREG=120"
uses "shipped table"; t_result $? "and is still used"
t_ok "a second short gktune run (fresh cache)" env GK_CACHE_DIR="$t_tmp/cache2" "$GKTUNE" --kernels=apsp \
  --sizes=apsp=1024 --budget=15 -q --csv="$t_tmp/m.csv"
grep '^apsp,1024,' "$t_tmp/m.csv" | grep -q 'MAXRREG=120'
t_result $? "gktune measured the shipped table's entry beside its own candidates"
"$GK" apsp --verbose --config=MAXRREG=0 "$t_tmp/g.bin" "$t_tmp/d.bin" 2>"$t_tmp/err" >/dev/null && grep -q -- "--config" "$t_tmp/err"
t_result $? "--config overrides"
t_fails "--config with an unknown parameter is refused (a usage error)" 2 "has no parameter 'NOPE'" \
  "$GK" apsp --config=NOPE=1 "$t_tmp/g.bin" "$t_tmp/d2.bin"
[ ! -e "$t_tmp/d2.bin" ]; t_result $? "and writes no output"

# The typed kernels' shapes (apspx_*): a run of one of them writes its own
# entry (validated bit for bit against the CPU first), gk apsp --weights=
# float64 then runs with it (the detail says so) and still passes --check.
export GK_CACHE_DIR="$t_tmp/cache3"
t_ok "gktune --kernels=apspx_f64 (one small size class)" "$GKTUNE" --kernels=apspx_f64 --sizes=apspx_f64=384 -q \
  --csv="$t_tmp/x.csv"
cache=$(ls "$GK_CACHE_DIR"/tune-*.txt 2>/dev/null | head -1)
[ -n "$cache" ] && grep -q '^entry kernel=apspx_f64 size=384 .* config=APSPX_F64_TM=[48],APSPX_F64_TN=[48]$' "$cache" \
  && ! grep -q '^entry kernel=apsp ' "$cache"
t_result $? "it wrote an apspx_f64 entry of its two parameters, and nothing for apsp"
[ "$(grep -c '^apspx_f64,384,.*,ok,' "$t_tmp/x.csv")" = 4 ]; t_result $? "all 4 shapes measured and valid"
"$GK" apsp --weights=float64 --verbose --check "$t_tmp/g.bin" "$t_tmp/d.bin" 2>"$t_tmp/err" >/dev/null \
  && grep -q "typed shapes: apspx_f64 from the cache" "$t_tmp/err"
t_result $? "gk apsp --weights=float64 runs with it and passes --check"; t_diag "$(cat "$t_tmp/err")"
t_done
