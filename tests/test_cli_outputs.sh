#!/bin/sh
# Outputs of every command: refused up front when they cannot be written or
# would overwrite the input (one line, exit 1, nothing created, input intact);
# no temp file left by an interrupted write; --time --json keeps stdout one
# JSON object.  Devices and FIFOs are written in place, never replaced; a
# symlink is followed; an existing output keeps its mode; "-" is standard
# output / standard input; sizes that do not fit are refused before any
# allocation.
. "$top_srcdir/tests/tap.sh"
d=$t_tmp
"$GK" gen apsp --vertices=50 --edges=300 --seed=2 "$d/g.in" || echo "Bail out! gen apsp failed"
cp "$d/g.in" "$d/g.orig"
"$GK" gen grid --size=6 "$d/grid.bin" || echo "Bail out! gen grid failed"

t_fails "apsp: output = input is refused" 1 "is the input file" "$GK" apsp --device=cpu "$d/g.in" "$d/g.in"
cmp -s "$d/g.in" "$d/g.orig"; t_result $? "and the input is intact"
t_fails "apsp: output in a missing directory" 1 "$d/nodir/o: cannot create" "$GK" apsp --device=cpu "$d/g.in" "$d/nodir/o"
mkdir "$d/adir"
t_fails "apsp: output is a directory" 1 "adir: is a directory" "$GK" apsp --device=cpu "$d/g.in" "$d/adir"
t_fails "gen apsp: output in a missing directory" 1 "cannot create" "$GK" gen apsp --vertices=5 --edges=5 "$d/nodir/g"
t_fails "gen grid: output is a directory" 1 "is a directory" "$GK" gen grid --size=4 "$d/adir"
t_fails "stencil: --output = --input is refused" 1 "is the input file" \
  "$GK" stencil --size=6 --steps=1 --device=cpu --input="$d/grid.bin" --output="$d/grid.bin"
t_fails "stencil: --output in a missing directory" 1 "cannot create" \
  "$GK" stencil --size=6 --steps=1 --device=cpu --output="$d/nodir/x.bin"
ls "$d"/nodir "$d"/adir/* >/dev/null 2>&1; [ $? -ne 0 ]; t_result $? "nothing was created"

"$GK" apsp --device=cpu --time --json "$d/g.in" "$d/o.out" >"$d/json" 2>/dev/null
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["vertices"] == 50' "$d/json"
  t_result $? "apsp --time --json: stdout is one JSON object"
else
  echo "ok $((t_n=t_n+1)) # SKIP no python3"
fi

# A write that fails half-way (the file size limit: EFBIG, SIGXFSZ ignored)
# leaves neither output nor temp file.
(trap '' XFSZ; ulimit -c 0; ulimit -f 8; exec "$GK" gen apsp --vertices=1000 --edges=100000 --seed=1 "$d/big.in") \
  >/dev/null 2>"$d/big.err"; rc=$?
[ $rc -eq 1 ] && grep -q "big.in: write failed" "$d/big.err" && [ "$(wc -l <"$d/big.err")" -eq 1 ]
t_result $? "a failed write is one error line (status $rc: $(cat "$d/big.err"))"
ls "$d"/big.in* >/dev/null 2>&1; [ $? -ne 0 ]; t_result $? "and leaves neither output nor temp file"

# gk itself ignores SIGXFSZ (the shell's trap above is not needed): past
# `ulimit -f` the same run ends with gk's line, not "File size limit
# exceeded".  (A writer killed mid-write, where no handler runs, leaves no
# temp file: test_io's SIGKILL test.)
( (ulimit -c 0; ulimit -f 8; exec "$GK" gen apsp --vertices=1000 --edges=100000 --seed=1 "$d/killed.in") \
  >/dev/null 2>"$d/killed.err"; echo $? >"$d/killed.rc") 2>/dev/null
rc=$(cat "$d/killed.rc")
[ "$rc" = 1 ] && grep -q "killed.in: write failed: File too large" "$d/killed.err" && [ "$(wc -l <"$d/killed.err")" -eq 1 ]
t_result $? "gen past ulimit -f without a trap: gk's one line, status 1 (status $rc)"
ls "$d"/killed.in* >/dev/null 2>&1; [ $? -ne 0 ]; t_result $? "and leaves no output and no OUT.tmp.* behind"

# ---- outputs that must be written into, not replaced
"$GK" apsp --device=cpu "$d/g.in" "$d/ref.out" || echo "Bail out! apsp failed"

# A FIFO: the reader gets the bytes.  A hard link to the FIFO lets us
# release a reader still blocked in open() (if gk replaced the FIFO) by
# opening it read-write, which never blocks.
mkfifo "$d/fifo" && ln "$d/fifo" "$d/fifo.keep"
cat "$d/fifo" >"$d/fifo.got" &
cpid=$!
"$GK" apsp --device=cpu "$d/g.in" "$d/fifo" 2>"$d/err"; rc=$?
exec 3<>"$d/fifo.keep"; exec 3>&-
wait $cpid
[ $rc -eq 0 ] && [ -p "$d/fifo" ] && cmp -s "$d/fifo.got" "$d/ref.out"
t_result $? "output to a FIFO: the reader gets the result, the FIFO stays (status $rc)"

# A symlink: stays a link, its target has the data.
echo old >"$d/target.out"
ln -s target.out "$d/link.out"
t_ok "output to a symlink" "$GK" apsp --device=cpu "$d/g.in" "$d/link.out"
[ -L "$d/link.out" ] && [ "$(readlink "$d/link.out")" = target.out ] && cmp -s "$d/target.out" "$d/ref.out"
t_result $? "the link stays a link and its target has the result"

# A dangling symlink (relative, into another directory): the target is created.
mkdir "$d/sub"
ln -s sub/new.out "$d/dangling.out"
t_ok "output to a dangling symlink" "$GK" apsp --device=cpu "$d/g.in" "$d/dangling.out"
[ -L "$d/dangling.out" ] && cmp -s "$d/sub/new.out" "$d/ref.out"
t_result $? "the link stays a link and the file it names is created"
ls "$d"/sub/*.tmp.* "$d"/*.tmp.* >/dev/null 2>&1; [ $? -ne 0 ]; t_result $? "no temp file left"

# A link like /dev/stdout (-> /proc/self/fd/1 -> "pipe:[N]") writes into the pipe.
if [ -e /proc/self/fd/1 ]; then
  ln -s /proc/self/fd/1 "$d/stdout.link"
  "$GK" apsp --device=cpu "$d/g.in" "$d/stdout.link" 2>"$d/err" | cat >"$d/via-link.out"
  [ -L "$d/stdout.link" ] && cmp -s "$d/via-link.out" "$d/ref.out"
  t_result $? "output to a link to /proc/self/fd/1 goes down the pipe ($(cat "$d/err"))"
else
  echo "ok $((t_n=t_n+1)) # SKIP no /proc/self/fd"
fi

# /dev/null stays a character device (as root a bad gk could replace it:
# put it back if so, and fail).
if [ "$(id -u)" = 0 ]; then
  t_ok "output to /dev/null" "$GK" apsp --device=cpu "$d/g.in" /dev/null
  if [ -c /dev/null ]; then t_result 0 "/dev/null is still a character device"
  else
    rm -f /dev/null; mknod -m 666 /dev/null c 1 3
    t_result 1 "/dev/null is still a character device (it was replaced; restored)"
  fi
else
  echo "ok $((t_n=t_n+1)) # SKIP not root: gk could not replace /dev/null anyway"
  echo "ok $((t_n=t_n+1)) # SKIP not root"
fi

# A copy of /dev/full: "no space" is an error naming the file, the device stays.
if mknod "$d/full" c 1 7 2>/dev/null; then
  t_fails "output to a copy of /dev/full fails" 1 "full: write failed: No space left on device" \
    "$GK" apsp --device=cpu "$d/g.in" "$d/full"
  [ -c "$d/full" ]; t_result $? "and the device stays a device"
  t_fails "gen grid to /dev/full's copy fails" 1 "full: write failed" "$GK" gen grid --size=4 "$d/full"
else
  echo "ok $((t_n=t_n+1)) # SKIP mknod failed (not root or no CAP_MKNOD)"
  echo "ok $((t_n=t_n+1)) # SKIP mknod failed"
  echo "ok $((t_n=t_n+1)) # SKIP mknod failed"
fi

# An existing output keeps its mode.
echo old >"$d/private.out"
chmod 600 "$d/private.out"
t_ok "output over a 0600 file" "$GK" apsp --device=cpu "$d/g.in" "$d/private.out"
m=$(ls -l "$d/private.out" | cut -c1-10)
[ "$m" = "-rw-------" ] && cmp -s "$d/private.out" "$d/ref.out"; t_result $? "it keeps mode 0600 ($m)"

# "-": standard output and standard input.
mkdir "$d/cwd"
(cd "$d/cwd" && "$GK" apsp --device=cpu "$d/g.in" - >"$d/std.out"); rc=$?
[ $rc -eq 0 ] && cmp -s "$d/std.out" "$d/ref.out" && [ ! -e "$d/cwd/-" ]
t_result $? "apsp output '-' is standard output, same bytes as the file output"
(cd "$d/cwd" && "$GK" apsp --device=cpu - "$d/stdin.out" <"$d/g.in"); rc=$?
[ $rc -eq 0 ] && cmp -s "$d/stdin.out" "$d/ref.out"; t_result $? "apsp input '-' is standard input"
cat "$d/g.in" | "$GK" apsp --device=cpu - - >"$d/pipe.out"; rc=$?
[ $rc -eq 0 ] && cmp -s "$d/pipe.out" "$d/ref.out"; t_result $? "apsp from a pipe to a pipe"
head -c 100 "$d/g.in" >"$d/short.in"
t_fails "apsp: short standard input" 1 "standard input: cannot read the edges: file ends early" \
  "$GK" apsp --device=cpu - "$d/short.out" <"$d/short.in"
head -c 4 "$d/g.in" >"$d/short2.in"
t_fails "apsp: standard input shorter than the header" 1 "standard input: cannot read the V, E header" \
  "$GK" apsp --device=cpu - "$d/short.out" <"$d/short2.in"
{ cat "$d/g.in"; printf x; } >"$d/long.in"
t_fails "apsp: standard input with bytes after the edges" 1 "standard input: extra bytes after the E = 300 edges" \
  "$GK" apsp --device=cpu - "$d/short.out" <"$d/long.in"
[ ! -e "$d/short.out" ]; t_result $? "no output file after a bad standard input"

"$GK" stencil --size=6 --steps=2 --device=cpu --input="$d/grid.bin" --output="$d/grid.ref" ||
  echo "Bail out! stencil failed"
t_ok "stencil --input=- --output=-" sh -c '"$1" stencil --size=6 --steps=2 --device=cpu --input=- --output=- <"$2" >"$3"' \
  sh "$GK" "$d/grid.bin" "$d/grid.std"
cmp -s "$d/grid.std" "$d/grid.ref"; t_result $? "and gives the same grid as the files"
head -c 1000 "$d/grid.bin" >"$d/grid.short"
t_fails "stencil: short standard input" 1 "standard input: cannot read the grid" \
  "$GK" stencil --size=6 --steps=2 --device=cpu --input=- --output="$d/grid.bad" <"$d/grid.short"
{ cat "$d/grid.bin"; printf 12345678; } >"$d/grid.long"
t_fails "stencil: standard input longer than the grid" 1 "standard input: extra bytes after the 1728 bytes" \
  "$GK" stencil --size=6 --steps=2 --device=cpu --input=- --output="$d/grid.bad" <"$d/grid.long"
[ ! -e "$d/grid.bad" ]; t_result $? "no output file after a bad grid on standard input"
t_ok "stencil --coeffs=-" sh -c '"$1" stencil --size=6 --steps=2 --device=cpu --coeffs=- --input="$2" --output="$3" <"$4"' \
  sh "$GK" "$d/grid.bin" "$d/grid.c" "$top_srcdir/tests/data/stencil_coeffs_random.txt"
"$GK" stencil --size=6 --steps=2 --device=cpu --coeffs="$top_srcdir/tests/data/stencil_coeffs_random.txt" \
  --input="$d/grid.bin" --output="$d/grid.cref"
cmp -s "$d/grid.c" "$d/grid.cref"; t_result $? "and reads the same coefficients as the file"

# ---- sizes that do not fit in 64 bits (or in memory addresses)
t_fails "gen grid 2^30 x 2^30 x 2 (bytes wrapped to 0: crashed)" 2 "does not fit\|do not fit" \
  "$GK" gen grid --size=1073741824x1073741824x2 "$d/huge1.bin"
t_fails "gen grid 2^30 cube (wrote an empty file)" 2 "does not fit\|do not fit" \
  "$GK" gen grid --size=1073741824 "$d/huge2.bin"
t_fails "stencil 2^30 cube (CPU byte count overflowed)" 2 "does not fit\|do not fit" \
  "$GK" stencil --size=1073741824 --device=cpu --output="$d/huge3.bin"
t_fails "stencil --input of a 2^30 x 2^30 x 2 grid from an empty file" 2 "does not fit\|do not fit" \
  "$GK" stencil --size=1073741824x1073741824x2 --device=cpu --input=/dev/null
ls "$d"/huge* >/dev/null 2>&1; [ $? -ne 0 ]; t_result $? "no output file for sizes that do not fit"
t_done
