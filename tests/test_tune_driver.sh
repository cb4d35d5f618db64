#!/bin/sh
# gktune's search, journal, crash handling, lock and cache, driven through a
# fake measuring worker (tests/fake_worker.sh) whose timings are known: no GPU
# needed.  Needs a CUDA build (NVRTC compiles the vadd variants here).
. "$top_srcdir/tests/tap.sh"
if ! "$GKTUNE" --list | grep -q '^vadd'; then echo "1..0 # SKIP built without CUDA"; exit 0; fi
export GK_CACHE_DIR="$t_tmp/cache"
export GK_TUNE_WORKER="/bin/sh $top_srcdir/tests/fake_worker.sh"
best="VADD_PER_THREAD=2,THREADS=256"
json() { python3 -c "import json,sys; d=json.load(open('$t_tmp/out')); print($1)"; }

t_ok "gktune on the fake GPU" "$GKTUNE" --kernels=vadd --sizes='vadd=1000,5000' --json -q
if command -v python3 >/dev/null 2>&1; then
  [ "$(json "d['results'][0]['config']")" = "$best" ]; t_result $? "finds the fastest configuration"
  [ "$(json "len(d['results'])")" = 2 ]; t_result $? "one result per size class"
  [ "$(json "d['results'][0]['speedup']")" = 2 ]; t_result $? "speed-up over the default is 2"
  [ "$(json "d['results'][0]['strategy']")" = exhaustive ]; t_result $? "9 configurations: exhaustive"
  [ "$(json "d['results'][0]['measured']")" = 9 ]; t_result $? "each measured once"
else
  for i in 1 2 3 4 5; do echo "ok $((t_n=t_n+1)) # SKIP no python3"; done
fi
cache=$(ls "$GK_CACHE_DIR"/tune-*.txt 2>/dev/null | head -1)
[ -n "$cache" ] && grep -q '^gk-tune-cache 1$' "$cache" && grep -q '^key device="Fake GPU" cc=9.0 sms=132 driver=13000 runtime=13000' "$cache"
t_result $? "cache is versioned text keyed by the device"
grep -q "^entry kernel=vadd size=1000 .*config=$best\$" "$cache" && grep -q "^entry kernel=vadd size=5000 " "$cache"
t_result $? "one cache line per kernel and size class"
csv=$(ls "$GK_CACHE_DIR"/tune-*.csv 2>/dev/null | head -1)
[ -n "$csv" ] && [ "$(grep -c '^vadd,1000,' "$csv")" = 9 ] && grep -q '^kernel,size,config,status,median_ms' "$csv"
t_result $? "every measurement is in the CSV"
[ ! -e "$GK_CACHE_DIR"/journal-*.csv ] 2>/dev/null; t_result $? "a complete run leaves no journal"

# a stale cache (another driver) is re-tuned over, not merged with
sed -i 's/ driver=13000 / driver=12000 /' "$cache"
echo "entry kernel=vadd size=77 source=0 ms=1 default_ms=1 when=x config=THREADS=128" >>"$cache"
t_ok "gktune over a stale cache" "$GKTUNE" --kernels=vadd --sizes=vadd=1000 -q
grep -q ' driver=13000 ' "$cache" && ! grep -q 'size=77' "$cache" && grep -q "^entry kernel=vadd size=1000 .*config=$best\$" "$cache"
t_result $? "the stale file is replaced by a fresh one under the current key"

rm -rf "$GK_CACHE_DIR"
FAKE_FAULT=1 FAKE_WRONG=1 FAKE_FDS="$t_tmp/fds" t_ok "a crashing worker and a wrong answer do not stop the run" \
  "$GKTUNE" --kernels=vadd --sizes=vadd=1000 --json -q
if command -v python3 >/dev/null 2>&1; then
  [ "$(json "d['results'][0]['failed']['fault']")" = 1 ]; t_result $? "the crash is recorded as a fault"
  [ "$(json "d['results'][0]['failed']['wrong']")" = 1 ]; t_result $? "the wrong answer is recorded"
  [ "$(json "d['results'][0]['config']")" = "$best" ]; t_result $? "and the winner is still found"
fi
# the worker started after the crash must not hold gktune's journal or lock
[ "$(grep -c ' 0 -> ' "$t_tmp/fds")" -ge 2 ] && ! grep -qF -e "$GK_CACHE_DIR" "$t_tmp/fds"
r=$?; [ $r = 0 ] || t_diag "the workers' fds:" "$(cat "$t_tmp/fds")"
t_result $r "a restarted worker inherits neither the journal nor the lock"
grep -q '"VADD_PER_THREAD=4,THREADS=512",fault,' "$GK_CACHE_DIR"/tune-*.csv; t_result $? "the CSV says fault"

rm -rf "$GK_CACHE_DIR"
# the worker itself interrupts gktune on its 3rd measurement (after compiling)
FAKE_INT_AFTER=3 "$GKTUNE" --kernels=vadd --sizes=vadd=1000 -q >"$t_tmp/out" 2>"$t_tmp/err"; rc=$?
[ $rc = 130 ] && grep -q "run gktune again to resume" "$t_tmp/err"; t_result $? "Ctrl-C stops with status 130 and says how to resume"
j=$(ls "$GK_CACHE_DIR"/journal-*.csv 2>/dev/null | head -1)
n=$(grep -c '^vadd,' "$j" 2>/dev/null || echo 0)
[ "$n" -ge 1 ] && [ "$n" -lt 9 ]; t_result $? "the journal keeps the $n measurements made"
t_ok "the next run resumes" "$GKTUNE" --kernels=vadd --sizes=vadd=1000 --json -q
if command -v python3 >/dev/null 2>&1; then
  [ "$(json "d['results'][0]['resumed']")" = "$n" ]; t_result $? "$n measurements resumed, not repeated"
  [ "$(json "d['results'][0]['config']")" = "$best" ]; t_result $? "same winner after resuming"
fi

# a torn last line (a crash mid-write) is ended, not glued to the next record
rm -rf "$GK_CACHE_DIR"
# the worker kills gktune when asked for its 3rd measurement: 2 are journaled
FAKE_KILL_AFTER=3 "$GKTUNE" --kernels=vadd --sizes=vadd=1000 -q >/dev/null 2>&1
records() { cat "$GK_CACHE_DIR"/journal-*.csv 2>/dev/null | grep -c '^vadd,'; }
j=$(ls "$GK_CACHE_DIR"/journal-*.csv 2>/dev/null | head -1)
[ -n "$j" ] && [ "$(records)" -ge 2 ]; t_result $? "a killed run leaves its journal ($(records) records)"
[ -n "$j" ] && head -c -20 "$j" >"$t_tmp/torn" && mv "$t_tmp/torn" "$j"   # tear the last record
t_ok "resume after a crash with a torn journal" "$GKTUNE" --kernels=vadd --sizes=vadd=1000 --json -q
[ "$(grep -c '^vadd,1000,' "$GK_CACHE_DIR"/tune-*.csv)" -ge 9 ] && ! grep -q 'ok,[0-9.]*vadd' "$GK_CACHE_DIR"/tune-*.csv
t_result $? "every record stands on its own line"

if command -v flock >/dev/null 2>&1; then
  # this shell holds the lock (on fd 9) while gktune runs
  exec 9>>"$GK_CACHE_DIR/tune.lock"
  flock 9
  t_fails "a second gktune is refused while one holds the lock" 1 "locked by another gktune" \
    "$GKTUNE" --kernels=vadd --sizes=vadd=1000 -q
  flock -u 9
  exec 9>&-
else
  echo "ok $((t_n=t_n+1)) # SKIP no flock(1)"
fi
t_fails "an unknown kernel is a usage error" 2 "no tunable kernel 'nope'" "$GKTUNE" --kernels=nope
t_fails "an unknown kernel in --sizes is a usage error" 2 "no tunable kernel 'vad'" "$GKTUNE" --kernels=vadd --sizes=vad=100
t_fails "a size listed twice is a usage error" 2 "lists 1000 twice" "$GKTUNE" --kernels=vadd --sizes=vadd=1000,1000
rm -rf "$GK_CACHE_DIR"
t_fails "--csv into a missing directory fails before tuning" 1 "cannot create" \
  "$GKTUNE" --kernels=vadd --sizes=vadd=1000 --csv="$t_tmp/nodir/x.csv"
[ ! -e "$GK_CACHE_DIR" ]; t_result $? "and touched no cache"

# a cache directory with a space; the worker found on PATH (execvp)
GK_CACHE_DIR="$t_tmp/my cache" GK_TUNE_WORKER="sh $top_srcdir/tests/fake_worker.sh" \
  t_ok "a cache path with a space" "$GKTUNE" --kernels=vadd --sizes=vadd=1000 -q --csv="$t_tmp/all.csv"
grep -q "^vadd .*$best" "$t_tmp/out"; t_result $? "still finds the best configuration"
[ "$(grep -c '^vadd,1000,' "$t_tmp/all.csv")" = 9 ]; t_result $? "--csv holds every measurement"
# every time: the exec failure is not a race with the first request
named=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
  GK_TUNE_WORKER="/nonexistent/worker" "$GKTUNE" --kernels=vadd --sizes=vadd=1000 >/dev/null 2>"$t_tmp/err"
  [ $? = 1 ] && [ "$(cat "$t_tmp/err")" = "gktune: cannot start worker '/nonexistent/worker': No such file or directory" ] &&
    named=$((named + 1))
done
[ $named = 30 ] || t_diag "last stderr:" "$(cat "$t_tmp/err")"
[ $named = 30 ]; t_result $? "a worker that cannot start is named, with the reason ($named of 30 runs)"
t_fails "a bad size list is a usage error" 2 "bad list for vadd" "$GKTUNE" --kernels=vadd --sizes=vadd=1,x
GK_TUNE_WORKER="/bin/false" t_fails "no GPU: a clear message and non-zero exit" 1 "no GPU to tune" "$GKTUNE" --kernels=vadd
t_done
