#!/bin/sh
# gk apsp, gk gen apsp, gk bench apsp from the command line: the NTHU public
# cases by SHA-256 of the output, every bad-input rule (one line naming the
# file and the item, exit 1, no output file), --check, --time, --json, and
# CPU/GPU agreement where a GPU is usable.
. "$top_srcdir/tests/tap.sh"
data="$top_srcdir/tests/data/nthu-apsp"
T=$t_tmp

# little-endian int32s, for hand-made inputs
i32() { for v in "$@"; do
  printf "\\$(printf %03o $((v & 255)))\\$(printf %03o $(((v >> 8) & 255)))\\$(printf %03o $(((v >> 16) & 255)))\\$(printf %03o $(((v >> 24) & 255)))"
done; }

gpu=no
"$GK" info | grep -q '^  none:' || gpu=yes

# ---- the course's public cases
for f in "$data"/c*.out.sha256; do
  c=$(basename "$f" .out.sha256)
  want=$(cut -c1-64 "$f")
  for dev in cpu auto; do
    "$GK" apsp --device=$dev "$data/$c" "$T/$c.out" 2>"$T/err"
    got=$(sha256sum "$T/$c.out" 2>/dev/null | cut -c1-64)
    [ "$got" = "$want" ]; t_result $? "$c on --device=$dev: output SHA-256 matches"
  done
done

# ---- generated graphs: reproducible; CPU (blocked), CPU (checked), auto agree
t_ok "gen apsp" "$GK" gen apsp --vertices=300 --edges=5000 --seed=42 --max-weight=50 "$T/g1"
t_ok "gen apsp again" "$GK" gen apsp --vertices=300 --edges=5000 --seed=42 --max-weight=50 "$T/g2"
cmp -s "$T/g1" "$T/g2"; t_result $? "same seed, same file"
[ "$(wc -c <"$T/g1")" -eq $((8 + 12 * 5000)) ]; t_result $? "generated file is 8 + 12E bytes"
t_ok "apsp --check on the CPU" "$GK" apsp --device=cpu --check "$T/g1" "$T/o_cpu"
grep -q "^check against the plain CPU k-i-j loop: every distance equal: ok$" "$t_tmp/out"
t_result $? "apsp --check says what it compared against, on stdout"
t_ok "apsp --check on auto" "$GK" apsp --check "$T/g1" "$T/o_auto"
cmp -s "$T/o_cpu" "$T/o_auto"; t_result $? "auto ($gpu GPU) output == CPU output"
if [ $gpu = yes ]; then
  t_ok "gen 2000 vertices" "$GK" gen apsp --vertices=2000 --edges=100000 --seed=3 "$T/g3"
  t_ok "apsp on the GPU, checked" "$GK" apsp --device=gpu --check "$T/g3" "$T/o3g"
  t_ok "apsp on the CPU" "$GK" apsp --device=cpu "$T/g3" "$T/o3c"
  cmp -s "$T/o3g" "$T/o3c"; t_result $? "GPU output byte-identical to CPU output (V=2000)"
else
  t_fails "--device=gpu without a GPU" 1 "no GPU" "$GK" apsp --device=gpu "$T/g1" "$T/o_gpu"
  [ ! -e "$T/o_gpu" ]; t_result $? "no output file when no GPU"
fi

# ---- --time, --json, --verbose
t_ok "apsp --time --device=cpu" "$GK" apsp --time --device=cpu "$T/g1" "$T/o_t"
grep -q '^read' "$T/out" && grep -q '^compute' "$T/out" && ! grep -q '^host->device' "$T/out" \
  && ! grep -q '^device->host' "$T/out" && grep -q '^write' "$T/out" && grep -q '^total' "$T/out"
t_result $? "--time on the CPU prints read, compute, write, total and no transfer rows"
grep -q 'on CPU' "$T/err"; t_result $? "--time says which device on stderr"
t_ok "apsp --json --device=cpu" "$GK" apsp --json --device=cpu "$T/g1" "$T/o_t"
grep -q '"host_to_device":null' "$T/out" && grep -q '"device":"cpu"' "$T/out" && grep -q '"device_name":"CPU' "$T/out"
t_result $? "--json on the CPU: transfers null, device cpu, the CPU named"
if [ "$gpu" = yes ]; then
  t_ok "apsp --time on the GPU" "$GK" apsp --time --device=gpu "$T/g1" "$T/o_t"
  grep -q '^host->device' "$T/out" && grep -q '^device->host' "$T/out"; t_result $? "--time on the GPU has the transfer rows"
fi
t_ok "apsp --json" "$GK" apsp --json "$T/g1" "$T/o_j"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["vertices"]==300 and d["seconds"]["compute"]>=0 and d["device"] in ("cpu","gpu")' "$T/out"
  t_result $? "--json is one valid JSON object"
else
  echo "ok $((t_n=t_n+1)) - JSON check # SKIP no python3"
fi
t_ok "apsp --verbose" "$GK" apsp --verbose --device=cpu "$T/g1" "$T/o_v"
grep -q 'CPU' "$T/err"; t_result $? "--verbose names the device"

# ---- bad inputs: one line naming the file and the item, exit 1, no output
bad() {  # bad NAME PATTERN BYTES-FUNCTION...
  name=$1 pat=$2; shift 2
  "$@" >"$T/bad.in"
  rm -f "$T/bad.out"
  t_fails "rejects $name" 1 "bad.in.*$pat" "$GK" apsp --device=cpu "$T/bad.in" "$T/bad.out"
  [ ! -e "$T/bad.out" ] && [ -z "$(ls "$T" | grep 'bad.out.tmp')" ]; t_result $? "no output file after $name"
}
bad "an empty file" "not 8 + 12E" i32
bad "a missing edge" "not 8 + 12E" i32 3 2 0 1 5
bad "trailing bytes" "not 8 + 12E" i32 3 1 0 1 5 0
bad "V = 0" "V = 0" i32 0 0
bad "V < 0" "V = -3" i32 -3 0
bad "E < 0" "E = -2" i32 4 -2
bad "src outside [0, V)" "src 4 is outside" i32 4 2 0 1 1 4 1 1
bad "dst outside [0, V)" "dst -1 is outside" i32 4 1 0 -1 1
bad "a negative weight" "weight -5" i32 4 1 0 1 -5
bad "weight > 1073741822" "weight 1073741823" i32 4 1 0 1 1073741823
bad "a matrix too large to allocate" "needs .* for the distance matrix" i32 2000000000 0
# a failing run says only why it fails (no warning about long paths first)
bad "a matrix too large, with paths longer than INF" "needs .* for the distance matrix" i32 2000000000 1 0 1 1000
# a run that succeeds warns when a distance could reach INF
i32 3 2 0 1 1073741822 1 2 1073741822 >"$T/long.in"
"$GK" apsp --device=cpu "$T/long.in" "$T/long.out" 2>"$T/long.err"; rc=$?
[ $rc = 0 ] && [ "$(wc -l <"$T/long.err")" = 1 ] && grep -q "long.in: (V - 1) \* max weight = 2147483644: paths that long are reported as unreachable" "$T/long.err"
t_result $? "a successful run warns once that paths as long as INF read as unreachable"
t_fails "a missing input file" 1 "nonexistent" "$GK" apsp "$T/nonexistent" "$T/bad.out"
printf keep >"$T/keep.out"
i32 3 1 0 9 1 >"$T/bad.in"
"$GK" apsp "$T/bad.in" "$T/keep.out" 2>/dev/null
[ "$(cat "$T/keep.out")" = keep ]; t_result $? "a failed run leaves an existing OUTPUT untouched"
i32 3 4 0 1 7 0 1 3 1 1 9 2 0 0 >"$T/dup.in"
t_ok "duplicates and self-loops are accepted" "$GK" apsp --device=cpu "$T/dup.in" "$T/dup.out"
i32 0 3 1073741823 1073741823 0 1073741823 0 3 0 >"$T/dup.want"
cmp -s "$T/dup.out" "$T/dup.want"; t_result $? "duplicates keep the minimum, self-loops ignored"

# ---- usage errors
t_fails "apsp without OUTPUT" 2 "want INPUT and OUTPUT" "$GK" apsp "$T/g1"
t_fails "a bad --device" 2 "device" "$GK" apsp --device=tpu "$T/g1" "$T/x"
t_fails "gen without --edges" 2 "required" "$GK" gen apsp --vertices=5 "$T/x"
t_fails "gen with a bad --max-weight" 2 "max-weight" "$GK" gen apsp --vertices=5 --edges=1 --max-weight=1073741823 "$T/x"
t_ok "bench apsp on the CPU" "$GK" bench apsp --device=cpu --sizes=100,130
grep -q '^    130 ' "$T/out" && ! grep -q ' NO$' "$T/out"; t_result $? "bench rows agree with the baseline"
# (the blocked kernel's speed-up over the plain loop is a benchmark, not a
# test: see bench/README.md, "Checking the CPU speed-up by hand")
# ---- --precision: the 16-bit and 32-bit paths give the same bytes
devs=cpu
[ $gpu = yes ] && devs="cpu gpu"
for f in "$data"/c*.out.sha256; do
  c=$(basename "$f" .out.sha256)
  want=$(cut -c1-64 "$f")
  for dev in $devs; do
    for p in 16 32; do
      "$GK" apsp --device=$dev --precision=$p "$data/$c" "$T/$c.p$p" 2>"$T/err"
      got=$(sha256sum "$T/$c.p$p" 2>/dev/null | cut -c1-64)
      [ "$got" = "$want" ]; t_result $? "$c on --device=$dev --precision=$p: output SHA-256 matches"
    done
  done
done
# a chain at the cap 32767: 0 -> 1 -> 2 sums to 32766, 0 -> 3 to exactly 32767,
# 0 -> 4 to 32768; vertex 5 unreachable
i32 6 4 0 1 16383 1 2 16383 2 3 1 3 4 1 >"$T/cap.in"
i32 6 3 0 1 16383 1 2 16383 4 5 2 >"$T/below.in"
for dev in $devs; do
  t_ok "cap chain, --precision=32 on $dev" "$GK" apsp --device=$dev --precision=32 --verbose "$T/cap.in" "$T/cap.32"
  grep -q 'precision 32: 32-bit, as asked' "$T/err"; t_result $? "--verbose says 32 bits were asked ($dev)"
  t_ok "cap chain, --precision=16 on $dev" "$GK" apsp --device=$dev --precision=16 --verbose "$T/cap.in" "$T/cap.16"
  grep -q 'precision 32: 16-bit run, then 32-bit' "$T/err"; t_result $? "--verbose: a distance at the cap sends it to 32 bits ($dev)"
  cmp -s "$T/cap.16" "$T/cap.32"; t_result $? "cap chain: --precision=16 output == --precision=32 output ($dev)"
  t_ok "below the cap, auto on $dev" "$GK" apsp --device=$dev --json "$T/below.in" "$T/below.a"
  grep -q '"precision":16' "$T/out" && grep -q '"precision_detail":"16-bit, exact: every entry at the cap' "$T/out"
  t_result $? "--json: the automatic choice ran 16 bits, exact, unreachable pairs shown ($dev)"
  t_ok "below the cap, --precision=32 on $dev" "$GK" apsp --device=$dev --precision=32 "$T/below.in" "$T/below.32"
  cmp -s "$T/below.a" "$T/below.32"; t_result $? "below the cap: auto output == --precision=32 output ($dev)"
done
i32 3 2 0 1 40000 1 2 1 >"$T/heavy.in"
t_ok "a weight above the cap, auto" "$GK" apsp --device=cpu --verbose "$T/heavy.in" "$T/heavy.a"
grep -q 'precision 32: 32-bit: an initial entry reaches' "$T/err"; t_result $? "auto: a weight above the cap picks 32 bits"
i32 0 40000 40001 1073741823 0 1 1073741823 1073741823 0 >"$T/heavy.want"
cmp -s "$T/heavy.a" "$T/heavy.want"; t_result $? "a weight above the cap: the exact distances"
t_fails "a bad --precision" 2 "precision.*'8' is not auto, 16 or 32" "$GK" apsp --precision=8 "$T/g1" "$T/x"
[ ! -e "$T/x" ]; t_result $? "no output after a bad --precision"
# ---- the output streamed while the result comes back from the GPU
# (gk__apsp_run_write): small staging chunks (GK_APSP_STAGE_BYTES, a testing
# knob) so that V = 1000 takes many chunks, and an odd size so that the last
# one is short; the bytes equal the CPU's for both widths and both formats.
t_ok "gen 1000 vertices" "$GK" gen apsp --vertices=1000 --edges=20000 --seed=14 --max-weight=1000 "$T/s.in"
t_ok "apsp 1000 vertices on the CPU" "$GK" apsp --device=cpu "$T/s.in" "$T/s.cpu"
t_ok "apsp 1000 vertices on the CPU, .npy" "$GK" apsp --device=cpu "$T/s.in" "$T/s.cpu.npy"
if [ $gpu = yes ]; then
  for chunk in 40000 12345; do
    for p in 32 16 auto; do
      rm -f "$T/s.gpu" "$T/s.gpu.npy"   # a failed run must not pass on an older file
      GK_APSP_STAGE_BYTES=$chunk "$GK" apsp --device=gpu --precision=$p --time "$T/s.in" "$T/s.gpu" >"$T/out" 2>"$T/err" \
        && cmp -s "$T/s.gpu" "$T/s.cpu"; t_result $? "streamed in $chunk-byte chunks, --precision=$p: output == the CPU's"
      GK_APSP_STAGE_BYTES=$chunk "$GK" apsp --device=gpu --precision=$p "$T/s.in" "$T/s.gpu.npy" 2>"$T/err" \
        && cmp -s "$T/s.gpu.npy" "$T/s.cpu.npy"; t_result $? "streamed in $chunk-byte chunks, --precision=$p, .npy: output == the CPU's"
    done
  done
  t_ok "streamed, --precision=32 --time" env GK_APSP_STAGE_BYTES=40000 "$GK" apsp --device=gpu --precision=32 --time "$T/s.in" "$T/s.gpu"
  grep -q '^device->host and write overlapped in chunks' "$T/out"; t_result $? "--time says device->host and the write overlapped"
  t_fails "a bad GK_APSP_STAGE_BYTES" 1 "GK_APSP_STAGE_BYTES='0'" env GK_APSP_STAGE_BYTES=0 "$GK" apsp --device=gpu "$T/s.in" "$T/s.bad"
  [ ! -e "$T/s.bad" ]; t_result $? "no output after a bad GK_APSP_STAGE_BYTES"
else
  i=0; while [ $i -lt 16 ]; do echo "ok $((t_n = t_n + 1)) # SKIP no usable GPU"; i=$((i + 1)); done
fi
# ---- the initial matrix made on the GPU from the edge list: the CPU's bytes
# for duplicates, self-loops, V = 1, isolated vertices, the cap both ways,
# undirected; a bad edge on a stream is reported before what follows it
i32 3 2 0 1 1 0 9 1 7 | "$GK" apsp --device=cpu - "$T/st.out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'standard input: edge 1 (0, 9, 1): dst 9 is outside' "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ] \
  && [ ! -e "$T/st.out" ]; t_result $? "a bad edge on standard input: one line naming it, no output"
i32 1 2 0 0 5 0 0 9 >"$T/v1.in"
i32 8 6 0 1 7 0 1 3 1 1 60000 2 3 40000 2 3 2 3 0 1 >"$T/iso.in"
i32 3 3 0 1 50000 0 1 4 1 2 3 >"$T/heavydup.in"
if [ $gpu = yes ]; then
  for f in dup v1 iso heavydup heavy cap below s; do
    for p in 32 16 auto; do
      for u in "" --undirected; do
        rm -f "$T/m.cpu" "$T/m.gpu"
        "$GK" apsp --device=cpu --precision=$p $u "$T/$f.in" "$T/m.cpu" 2>/dev/null \
          && GK_APSP_STAGE_BYTES=12345 "$GK" apsp --device=gpu --precision=$p $u "$T/$f.in" "$T/m.gpu" 2>"$T/err" \
          && cmp -s "$T/m.gpu" "$T/m.cpu"; t_result $? "$f.in --precision=$p $u: the GPU (matrix made on it, 12345-byte chunks) == the CPU"
      done
    done
  done
  t_ok "--time on the GPU" "$GK" apsp --device=gpu --time "$T/s.in" "$T/s.gpu"
  grep -q '^initial matrix   made on the GPU from the edge list' "$T/out"; t_result $? "--time says the matrix was made on the GPU"
else
  i=0; while [ $i -lt 50 ]; do echo "ok $((t_n = t_n + 1)) # SKIP no usable GPU"; i=$((i + 1)); done
fi
t_ok "--time on the CPU" "$GK" apsp --device=cpu --time "$T/s.in" "$T/s.cpu2"
grep -q '^initial matrix   built on the host from the edge list' "$T/out"; t_result $? "--time on the CPU: the matrix built on the host"
# Failures while writing: nothing left behind on either device (the GPU's
# streamed write stops between chunks; the temp file is removed).
for dev in $devs; do
  t_fails "an output directory that does not exist ($dev)" 1 "s.out" \
    env GK_APSP_STAGE_BYTES=40000 "$GK" apsp --device=$dev "$T/s.in" "$T/nodir/s.out"
  [ ! -e "$T/nodir" ]; t_result $? "no directory or file made ($dev)"
  # a file size limit: write fails (EFBIG) in the middle of the matrix
  t_fails "the output passing the file size limit ($dev)" 1 "s.big.*write failed" \
    sh -c 'trap "" XFSZ; ulimit -f 2000; GK_APSP_STAGE_BYTES=40000 exec "$0" apsp --device="$1" "$2" "$3"' \
    "$GK" "$dev" "$T/s.in" "$T/s.big"
  [ ! -e "$T/s.big" ] && [ -z "$(ls "$T" | grep 's.big.tmp')" ]; t_result $? "no output and no temp file after it ($dev)"
  if [ -w /dev/full ]; then
    t_fails "output to /dev/full ($dev)" 1 "/dev/full: write failed: No space left on device" \
      env GK_APSP_STAGE_BYTES=40000 "$GK" apsp --device=$dev "$T/s.in" /dev/full
  else
    echo "ok $((t_n = t_n + 1)) # SKIP no writable /dev/full"
  fi
done
# an output named like a graph still gets the raw matrix, with a warning
"$GK" apsp --device=cpu "$T/g1" "$T/dist.gr" 2>"$T/err" && grep -q "dist.gr: the name of a DIMACS .gr graph, but it gets the distance matrix, raw" "$T/err" \
  && "$GK" apsp --device=cpu "$T/g1" "$T/dist.bin" 2>"$T/err2" && cmp -s "$T/dist.gr" "$T/dist.bin" && ! grep -q warning "$T/err2"
t_result $? "an output named .gr: a warning, the same raw matrix as .bin (no warning there)"
# past one process --undirected is taken (issue 24): the one-process matrix
"$GK" apsp --device=cpu --undirected "$T/g1" "$T/xu.ref" && "$GK" apsp --device=cpu --exchange=host --undirected "$T/g1" "$T/xu.out" \
  && cmp -s "$T/xu.ref" "$T/xu.out" && ! cmp -s "$T/xu.ref" "$T/dist.bin"
t_result $? "--exchange with --undirected: the single-process undirected matrix (not the directed one)"
t_done
