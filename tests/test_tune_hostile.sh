#!/bin/sh
# gktune in a hostile or damaged cache directory (issue 29), through the fake
# measuring worker (tests/fake_worker.sh: no GPU; needs a CUDA build for the
# vadd variants).  Links to a canary file in place of the lock, the cache,
# the journal; dangling links; FIFOs; a directory writable by others; another
# user's file (as root); a cache with 5000 entries, garbage, a truncated one,
# a 2 GiB sparse one; an oversized journal; SIGTERM during a measurement that
# hangs.  Asserted: the canary untouched and nothing created through a link;
# a refusal is one line naming the path, exit 1, at once (each run is bounded
# by timeout(1) only so that a regression fails instead of hanging (-k: the
# old gktune ignored SIGTERM while blocked on a FIFO): nothing
# here waits on time); a damaged file is said in one warning line and kept as
# FILE.bad; a signal ends the run with 128 + its number, the worker gone and
# nothing half-written left.
. "$top_srcdir/tests/tap.sh"
if ! "$GKTUNE" --list | grep -q '^vadd'; then echo "1..0 # SKIP built without CUDA"; exit 0; fi
if ! command -v timeout >/dev/null 2>&1; then echo "1..0 # SKIP no timeout(1)"; exit 0; fi
export GK_TUNE_WORKER="/bin/sh $top_srcdir/tests/fake_worker.sh"
canary="$t_tmp/canary"
echo "canary: not gktune's" >"$canary"
intact() { [ -f "$canary" ] && [ ! -L "$canary" ] && [ "$(cat "$canary")" = "canary: not gktune's" ]; }
tune() { timeout -k 10 120 "$GKTUNE" --kernels=vadd --sizes=vadd=1000 -q "$@"; }
# a fresh cache directory (0700), the one gktune is given
n=0
fresh() { n=$((n + 1)); d="$t_tmp/c$n"; mkdir -m "${1:-700}" "$d"; chmod "${1:-700}" "$d"; export GK_CACHE_DIR="$d"; }
mode() { stat -c %a "$1" 2>/dev/null; }

# the names gktune gives the fake GPU's files: the cache per device model,
# the journal (and the run's CSV) and the cubins per key
fresh
t_ok "a run in a clean directory" tune
cache=$(basename "$(ls "$d"/tune-*.txt 2>/dev/null | head -1)")
h=$(ls "$d"/tune-*.csv 2>/dev/null | head -1 | sed 's/.*tune-\([0-9a-f]*\)\.csv$/\1/')
journal="journal-$h.csv"
[ -n "$cache" ] && [ -n "$h" ]; t_result $? "its files: $cache, tune-$h.csv"
[ "$(mode "$d/$cache")" = 600 ] && [ "$(mode "$d/tune.lock")" = 600 ] && [ "$(mode "$d/tune-$h.csv")" = 600 ]
t_result $? "are the user's alone (0600)"

# ---- item 4: no link followed, no directory others can write ----
for f in tune.lock "$cache" "$journal"; do
  fresh; ln -s "$canary" "$d/$f"
  t_fails "$f as a link to another file is refused" 1 "$f: a symbolic link: refused" tune
  intact; t_result $? "and that file is untouched"
  fresh; ln -s "$t_tmp/made-through-$f" "$d/$f"
  t_fails "$f as a dangling link is refused" 1 "$f: a symbolic link: refused" tune
  [ ! -e "$t_tmp/made-through-$f" ]; t_result $? "and nothing is created at its target"
done
fresh; mkdir -m 700 "$t_tmp/elsewhere"; ln -s "$t_tmp/elsewhere" "$d/cubins-$h"
t_fails "the cubins directory as a link is refused" 1 "cubins-$h: a symbolic link" tune
[ -z "$(ls -A "$t_tmp/elsewhere")" ]; t_result $? "and nothing is written through it"

fresh 777
t_fails "a cache directory writable by others is refused" 1 "$d: unsafe tuning cache directory: writable by others (mode 0777" tune
[ -z "$(ls -A "$d")" ]; t_result $? "and nothing is written in it"
fresh 770
t_fails "one writable by its group too" 1 "$d: unsafe tuning cache directory: writable by its group" tune
fresh 1777
t_fails "a sticky one too (others may create names in it)" 1 "writable by others (mode 1777" tune
fresh 777; mkdir -m 700 "$d/mine"; export GK_CACHE_DIR="$d/mine"
t_fails "a 0700 directory inside one writable by others is refused, naming it" 1 \
  "mine: unsafe tuning cache directory: $d above it is writable by others" tune
export GK_CACHE_DIR="$t_tmp/new/cache"
t_ok "a missing cache directory is created" tune
[ "$(mode "$t_tmp/new")" = 700 ] && [ "$(mode "$t_tmp/new/cache")" = 700 ]
t_result $? "0700, with its missing parent ($(mode "$t_tmp/new"), $(mode "$t_tmp/new/cache"))"
fresh; ln -s "$d" "$t_tmp/link-to-c$n"; export GK_CACHE_DIR="$t_tmp/link-to-c$n"
t_ok "a cache directory reached through a link (to a safe one) is used" tune
[ -f "$d/$cache" ] && [ ! -L "$d/$cache" ]; t_result $? "and the cache lands in the directory it names"
if [ "$(id -u)" = 0 ]; then
  fresh; echo x >"$d/$cache"; chown 12345 "$d/$cache"
  t_fails "another user's cache file is refused" 1 "$cache: belongs to uid 12345, not to you" tune
else
  t_skip "not root: cannot give a file to another user" "another user's cache file is refused"
fi

# ---- item 5: FIFOs refused at once; a signal ends the run ----
for f in "$cache" "$journal" tune.lock; do
  fresh; mkfifo "$d/$f"
  t_fails "$f as a FIFO is refused at once (not opened and waited on)" 1 "$f: a FIFO, not a regular file: refused" tune
done

fresh
FAKE_TERM_AFTER=3 FAKE_PIDFILE="$t_tmp/worker.pid" tune >"$t_tmp/out" 2>"$t_tmp/err"; rc=$?
[ $rc = 143 ] && [ "$(wc -l <"$t_tmp/err")" = 1 ] && grep -q "interrupted after .* run gktune again to resume" "$t_tmp/err"
r=$?; [ $r = 0 ] || t_diag "exit $rc:" "$(cat "$t_tmp/err")"
t_result $r "SIGTERM during a measurement that hangs ends gktune with 143, saying how to resume"
wpid=$(cat "$t_tmp/worker.pid" 2>/dev/null)
[ -n "$wpid" ] && ! kill -0 "$wpid" 2>/dev/null; t_result $? "its worker (pid $wpid) is gone"
[ "$(grep -c '^vadd,' "$d/$journal" 2>/dev/null)" = 2 ] && ! grep -q ',fault,\|,timeout,' "$d/$journal"
t_result $? "the journal keeps the 2 measurements made, nothing of the abandoned one"
[ -z "$(find "$d" -name '*.tmp.*')" ]; t_result $? "no temp file is left"
t_ok "the next run resumes" tune --json
if command -v python3 >/dev/null 2>&1; then
  [ "$(python3 -c "import json; print(json.load(open('$t_tmp/out'))['results'][0]['resumed'])")" = 2 ]
  t_result $? "with the 2 measurements"
else
  t_skip "no python3" "with the 2 measurements"
fi

# ---- item 6: a damaged cache is said, kept as .bad, and replaced ----
# one warning line naming the file and the reason; FILE.bad holds what was there
damaged() {
  what=$1 pat=$2
  cp "$d/$cache" "$t_tmp/orig" 2>/dev/null
  tune >"$t_tmp/out" 2>"$t_tmp/err"; rc=$?
  [ $rc = 0 ] && [ "$(wc -l <"$t_tmp/err")" = 1 ] &&
    grep -q "^gktune: warning: dropped the tuning cache ($d/$cache$pat); it is kept as $d/$cache.bad\$" "$t_tmp/err"
  r=$?; [ $r = 0 ] || t_diag "exit $rc:" "$(cat "$t_tmp/err")"
  t_result $r "$what: one warning line, exit 0"
  cmp -s "$t_tmp/orig" "$d/$cache.bad" && [ "$(grep -c '^entry ' "$d/$cache")" = 1 ]
  t_result $? "$what: kept as $cache.bad; the new cache holds this run's entry"
}
fresh
{ echo "gk-tune-cache 1"; echo "key x"; i=0
  while [ $i -lt 5000 ]; do i=$((i + 1)); echo "entry kernel=vadd size=$i source=1 ms=1 default_ms=1 when=x config=THREADS=128"; done
} >"$d/$cache"
damaged "5000 entries" ": more than 64 entries"
fresh; printf 'PK\003\004 an archive, not a cache\n' >"$d/$cache"
damaged "garbage" ":1: not a gk tuning cache"
fresh; printf '\177ELF\001\002\n\000\377' >"$d/$cache"
damaged "binary garbage" ": a NUL byte: not a gk tuning cache"
fresh; printf 'gk-tune-cache 1\nkey device="Fake GPU" cc=9' >"$d/$cache"
tune >/dev/null 2>&1; t_result $? "a cache cut inside its key line is only stale (another key): replaced"
fresh; printf '# gk tuning cache - written by gktune(1); safe to delete.\ngk-tune-cache 1\n' >"$d/$cache"
damaged "a cache cut before its key" ": no key line"
fresh
if truncate -s 2G "$d/$cache" 2>/dev/null; then
  tune >"$t_tmp/out" 2>"$t_tmp/err"; rc=$?
  [ $rc = 0 ] && [ "$(wc -l <"$t_tmp/err")" = 1 ] && grep -q "$cache: 2147483648 bytes, over the limit of 1048576: not read" "$t_tmp/err"
  t_result $? "a 2 GiB (sparse) cache: one warning line, not read"
  [ "$(stat -c %s "$d/$cache.bad")" = 2147483648 ] && [ "$(grep -c '^entry ' "$d/$cache")" = 1 ]
  t_result $? "kept as $cache.bad (moved, not copied); the new cache holds this run's entry"
else
  t_skip "no sparse files here" "a 2 GiB cache"
  t_skip "no sparse files here" "a 2 GiB cache kept"
fi
fresh
if truncate -s 65M "$d/$journal" 2>/dev/null; then
  tune >"$t_tmp/out" 2>"$t_tmp/err"; rc=$?
  [ $rc = 0 ] && [ "$(wc -l <"$t_tmp/err")" = 1 ] &&
    grep -q "warning: dropped the tuner's journal ($d/$journal: 68157440 bytes, over the limit" "$t_tmp/err" &&
    [ -f "$d/$journal.bad" ]
  r=$?; [ $r = 0 ] || t_diag "exit $rc:" "$(cat "$t_tmp/err")"
  t_result $r "an oversized journal: one warning line, kept as .bad, the run goes on"
else
  t_skip "no sparse files here" "an oversized journal"
fi
t_done
