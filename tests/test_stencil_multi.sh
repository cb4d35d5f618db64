#!/bin/sh
# The stencil past one process and one GPU: z slabs.  `mpirun -np 2|3 gk
# stencil --device=cpu` on awkward sizes (1x1x1, NZ < ranks so that a rank
# owns no plane, slabs thinner than the halo, non-cubic grids), random
# coefficients, step counts that are not multiples of the halo depth, from
# a file and from --seed; the slab path in one process (--exchange);
# `gk stencil --gpus=1|2` and `mpirun -np 2 --device=gpu` (both exchanges)
# where GPUs are usable: every output byte-identical to the single-process
# CPU output.  Bad inputs under MPI: every rank exits 1, one message, no
# output file.
. "$top_srcdir/tests/tap.sh"
T=$t_tmp
C="$top_srcdir/tests/data/stencil_coeffs_random.txt"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMP_NUM_THREADS=1

mpi=no why="gk was built without MPI (configure found none)"
if grep -q '^#define GK_HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null; then
  if command -v mpirun >/dev/null 2>&1; then mpi=yes; else why="no mpirun on the PATH"; fi
fi
ngpu=$("$GK" info --json 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["gpus"]))' 2>/dev/null)
[ -n "$ngpu" ] || ngpu=0
# see test_apsp_multi.sh: leak checks stay off for the ranks only
MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun -q --oversubscribe"

# size:steps:coefficients (d: the default ones, r: random)
cases="1x1x1:3:d 7x5x1:5:r 6x4x2:9:d 3x3x5:7:r 17x9x13:9:r 40x3x7:1:d 5x6x11:0:r 24x20x9:10:d"
co() { [ "$1" = r ] && echo "--coeffs=$C"; }
for c in $cases; do
  IFS=: read sz st cf <<EOF
$c
EOF
  "$GK" gen grid --size=$sz --seed=11 "$T/in$sz" &&
  "$GK" stencil --device=cpu --size=$sz --steps=$st $(co $cf) --input="$T/in$sz" --output="$T/ref$sz" &&
  "$GK" stencil --device=cpu --size=$sz --steps=$st $(co $cf) --seed=4 --output="$T/rs$sz" ||
    echo "Bail out! cannot make the reference for $sz"
done

# ---- the slab path in one process (no MPI needed)
for c in $cases; do
  IFS=: read sz st cf <<EOF
$c
EOF
  rm -f "$T/m"
  "$GK" stencil --device=cpu --exchange=auto --size=$sz --steps=$st $(co $cf) --input="$T/in$sz" --output="$T/m" 2>"$T/err" &&
    cmp -s "$T/ref$sz" "$T/m"
  t_result $? "$sz, $st steps: the slab path in one process == gk stencil"
done

# ---- MPI, CPU ranks
if [ $mpi = yes ]; then
  for np in 2 3; do
    for c in $cases; do
      IFS=: read sz st cf <<EOF
$c
EOF
      rm -f "$T/m"
      $MPIRUN -np $np "$GK" stencil --device=cpu --size=$sz --steps=$st $(co $cf) --input="$T/in$sz" --output="$T/m" 2>"$T/err" &&
        cmp -s "$T/ref$sz" "$T/m"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "mpirun -np $np --device=cpu, $sz, $st steps, coefficients $cf: byte-identical"
    done
    for sz in 6x4x2 17x9x13; do
      rm -f "$T/m"
      st=$(echo "$cases" | tr ' ' '\n' | grep "^$sz:" | cut -d: -f2); cf=$(echo "$cases" | tr ' ' '\n' | grep "^$sz:" | cut -d: -f3)
      $MPIRUN -np $np "$GK" stencil --device=cpu --size=$sz --steps=$st $(co $cf) --seed=4 --output="$T/m" 2>"$T/err" &&
        cmp -s "$T/rs$sz" "$T/m"
      t_result $? "mpirun -np $np --device=cpu, $sz from --seed (each rank makes its planes): byte-identical"
    done
  done
  # --time and --json: rank 0 alone prints, every phase named
  $MPIRUN -np 2 "$GK" stencil --device=cpu --size=24x20x9 --steps=10 --json --input="$T/in24x20x9" --output="$T/m" >"$T/json" 2>"$T/err"
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
s = d["seconds"]
assert d["ranks"] == 2 and d["slabs"] == 2 and d["halo_planes"] >= 1 and d["nz"] == 9
for k in ("read", "compute", "exchange_busy", "exchange_stall", "write"): assert s[k] >= 0, k' "$T/json"
  t_result $? "mpirun -np 2 --json: one JSON object with ranks, slabs and every phase"
  $MPIRUN -np 2 "$GK" stencil --device=cpu --size=24x20x9 --steps=10 --time --output="$T/m" >"$T/time" 2>"$T/err"
  [ "$(grep -c '^stencil 24x20x9' "$T/time")" = 1 ] && grep -q '^generate' "$T/time" && grep -q 'exchange stall' "$T/time" &&
    grep -q '^z slabs: 2' "$T/time"
  t_result $? "mpirun -np 2 --time: one table (rank 0) with the exchange and the slabs"
  $MPIRUN -np 2 "$GK" stencil --device=cpu --size=24x20x9 --steps=10 >"$T/sum" 2>"$T/err"
  [ "$(wc -l <"$T/sum")" = 1 ] && grep -q '^stencil 24x20x9, 10 steps on the CPUs of 2 ranks: .*; the result is not written (no --output)$' "$T/sum"
  t_result $? "mpirun -np 2 without --output: one summary line (rank 0), saying nothing was written"
  # bad inputs: every rank exits 1, one message, no output
  head -c 100 "$T/in6x4x2" >"$T/short"
  python3 -c 'import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
d[8 * 40:8 * 41] = struct.pack("<d", float("nan"))     # z = 1: the last rank'"'"'s plane
open(sys.argv[2], "wb").write(d)' "$T/in6x4x2" "$T/nan"
  for b in short:bytes "nan:x=4 y=2 z=1 (number 40) is NaN" missing:open; do
    f=${b%%:*} pat=${b#*:}
    for np in 2 3; do
      rm -f "$T/bad.out" "$T"/rc.*
      t_fails_mpi "mpirun -np $np, bad input '$f': one message, exit 1" 1 "$pat" \
        $MPIRUN -np $np "$GK" stencil --device=cpu --size=6x4x2 --input="$T/$f" --output="$T/bad.out"
      [ ! -e "$T/bad.out" ]; t_result $? "mpirun -np $np, bad input '$f': no output file"
      # every rank's own status (mpirun would kill the others after the first)
      OMPI_MCA_orte_abort_on_non_zero_status=0 \
        $MPIRUN -np $np sh -c '"$0" stencil --device=cpu --size=6x4x2 --input="$1" --output="$2"; echo $? >"$3/rc.$OMPI_COMM_WORLD_RANK"' \
        "$GK" "$T/$f" "$T/bad.out" "$T" 2>/dev/null
      [ ! -e "$T/bad.out" ] && [ "$(cat "$T"/rc.* | sort -u)" = 1 ] && [ "$(ls "$T"/rc.* | wc -l)" = $np ]
      t_result $? "mpirun -np $np, bad input '$f': every rank exits 1"
    done
  done
  cp "$T/ref6x4x2" "$T/keep"
  $MPIRUN -np 2 "$GK" stencil --device=cpu --size=6x4x2 --input="$T/nan" --output="$T/keep" 2>/dev/null
  cmp -s "$T/ref6x4x2" "$T/keep"; t_result $? "mpirun: a failed run leaves an existing OUTPUT untouched"
  cp "$top_srcdir/tests/data/stencil_coeffs_random.txt" "$T/cf.txt"
  t_fails_mpi "mpirun: --output naming the --coeffs file is refused" 1 "is the input file" \
    $MPIRUN -np 2 "$GK" stencil --device=cpu --size=4 --coeffs="$T/cf.txt" --output="$T/cf.txt"
  cmp -s "$top_srcdir/tests/data/stencil_coeffs_random.txt" "$T/cf.txt"; t_result $? "mpirun: and the coefficient file is untouched"
  t_fails_mpi "mpirun: standard output is refused" 1 "standard output" $MPIRUN -np 2 "$GK" stencil --device=cpu --size=4 --output=-
  t_fails_mpi "mpirun: --check is refused" 2 "check" $MPIRUN -np 2 "$GK" stencil --device=cpu --size=4 --check
  t_fails_mpi "mpirun: a missing directory" 1 "nonexistent" $MPIRUN -np 2 "$GK" stencil --device=cpu --size=4 --output="$T/nonexistent/o"
  $MPIRUN -np 2 "$GK" stencil --device=cpu --size=17x9x13 --input="$T/in17x9x13" --output=/dev/null 2>"$T/err"
  t_result $? "mpirun: a device (/dev/null) is written in place"
else
  echo "ok $((t_n + 1)) # SKIP MPI tests: $why"; t_n=$((t_n + 1))
fi

# ---- GPUs
if [ "$ngpu" -ge 1 ]; then
  for c in $cases; do
    IFS=: read sz st cf <<EOF
$c
EOF
    rm -f "$T/m"
    "$GK" stencil --gpus=1 --size=$sz --steps=$st $(co $cf) --input="$T/in$sz" --output="$T/m" 2>"$T/err" && cmp -s "$T/ref$sz" "$T/m"
    r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
    t_result $r "--gpus=1, $sz, $st steps: byte-identical to the CPU"
  done
else
  echo "ok $((t_n + 1)) # SKIP GPU tests: no usable GPU here"; t_n=$((t_n + 1))
fi
if [ "$ngpu" -ge 2 ]; then
  for c in $cases; do
    IFS=: read sz st cf <<EOF
$c
EOF
    rm -f "$T/m"
    "$GK" stencil --gpus=2 --size=$sz --steps=$st $(co $cf) --input="$T/in$sz" --output="$T/m" 2>"$T/err" && cmp -s "$T/ref$sz" "$T/m"
    r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
    t_result $r "--gpus=2, $sz, $st steps: byte-identical to the CPU"
    if [ $mpi = yes ]; then
      for ex in auto host; do
        rm -f "$T/m"
        $MPIRUN -np 2 "$GK" stencil --device=gpu --exchange=$ex --size=$sz --steps=$st $(co $cf) --input="$T/in$sz" --output="$T/m" 2>"$T/err" &&
          cmp -s "$T/ref$sz" "$T/m"
        r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
        t_result $r "mpirun -np 2 --device=gpu --exchange=$ex, $sz, $st steps: byte-identical to the CPU"
      done
    fi
  done
  t_ok "bench stencil --gpus=2 (the slabs equal one GPU)" "$GK" bench stencil --gpus=2 --sizes=96x80x70 --steps=9
  grep -q ' yes$' "$t_tmp/out"; t_result $? "bench stencil --gpus=2: the row says same bits"
else
  echo "ok $((t_n + 1)) # SKIP several-GPU tests: $ngpu GPU(s) usable here"; t_n=$((t_n + 1))
fi

# ---- stencil descriptions (--stencil, --type, --boundary) past one process
# and GPU: slabs along the slowest axis (3D: z, 2D: y) with r x T halo
# planes; every output byte-identical to one process on the CPU (the same
# chain: HACKING.md "the stencil chain").  desc:type:boundary:size:steps:
# weights (d: the description's defaults; r: random; m: a random mask,
# about half the points zero)
dcases="3d-star-r1:f64:zero:17x9x13:9:d 3d-star-r4:f32:periodic:11x10x19:7:d 3d-star-r4:f64:fixed:12x11x17:5:r
3d-box-r2:f32:periodic:9x7x11:6:r 2d-box-r2:f64:periodic:37x29:8:d 2d-box-r2:f32:fixed:23x13:6:r
2d-star-r3:f32:zero:15x31:5:d 3d-mask-r2:f64:zero:10x9x14:4:m 2d-mask-r1:f32:periodic:9x8:11:m
3d-box-r1:f64:fixed:7x5x4:10:d 3d-star-r2:f64:periodic:6x5x7:13:r"
dsplit() {
  IFS=: read ds dt db dz dn dw <<EOF
$1
EOF
  dkey="$ds-$dt-$db-$dz"
  case $dw in d) dwo= ;; *) dwo="--coeffs=$T/w-$dkey" ;; esac
  dargs="--stencil=$ds:$db --type=$dt --size=$dz --steps=$dn $dwo"
}
# the input grid (float32 or float64) and the weights of a case
dinput() {
  python3 -c 'import random, struct, sys
desc, t, size, w, grid, wfile = sys.argv[1:]
rnd = random.Random(desc + t + size)
dims, r = int(desc[0]), int(desc.split("-r")[1])
n = 1
for v in size.split("x"): n *= int(v)
open(grid, "wb").write(struct.pack("<%d%s" % (n, "f" if t == "f32" else "d"), *[rnd.uniform(-1, 1) for _ in range(n)]))
if w != "d":
    k = (2 * r + 1) ** dims
    ws = []
    for i in range(k):
        c = [(i // (2 * r + 1) ** a) % (2 * r + 1) - r for a in range(dims)]
        on = w == "r" or i == (k - 1) // 2 or rnd.random() < 0.5
        if "star" in desc and sum(1 for v in c if v) > 1: on = False
        ws.append(rnd.uniform(-0.3, 0.3) if on else 0.0)
    open(wfile, "w").write(" ".join("%.6g" % v for v in ws) + "\n")' "$ds" "$dt" "$dz" "$dw" "$T/in-$dkey" "$T/w-$dkey"
}
for c in $dcases; do
  dsplit "$c"
  dinput &&
  "$GK" stencil --device=cpu $dargs --input="$T/in-$dkey" --output="$T/ref-$dkey" &&
  "$GK" stencil --device=cpu $dargs --seed=5 --output="$T/rs-$dkey" ||
    echo "Bail out! cannot make the reference for $c"
done
dsplit "3d-star-r4:f32:periodic:11x10x19:7:d"
! cmp -s "$T/in-$dkey" "$T/ref-$dkey"
t_result $? "descriptions: the reference is not the input (the comparisons below can fail)"
for c in $dcases; do
  dsplit "$c"
  rm -f "$T/m"
  "$GK" stencil --device=cpu --exchange=auto $dargs --input="$T/in-$dkey" --output="$T/m" 2>"$T/err" &&
    cmp -s "$T/ref-$dkey" "$T/m"
  t_result $? "$dkey, $dn steps: the slab path in one process == gk stencil"
done
if [ $mpi = yes ]; then
  for np in 2 3; do
    for c in $dcases; do
      dsplit "$c"
      rm -f "$T/m"
      $MPIRUN -np $np "$GK" stencil --device=cpu $dargs --input="$T/in-$dkey" --output="$T/m" 2>"$T/err" &&
        cmp -s "$T/ref-$dkey" "$T/m"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "mpirun -np $np --device=cpu $dkey, $dn steps, weights $dw: byte-identical"
    done
  done
  for c in "3d-star-r4:f32:periodic:11x10x19:7:d" "2d-box-r2:f64:periodic:37x29:8:d" "3d-box-r1:f64:fixed:7x5x4:10:d"; do
    dsplit "$c"
    rm -f "$T/m"
    $MPIRUN -np 3 "$GK" stencil --device=cpu $dargs --seed=5 --output="$T/m" 2>"$T/err" && cmp -s "$T/rs-$dkey" "$T/m"
    t_result $? "mpirun -np 3 --device=cpu $dkey from --seed (each rank makes its planes, in its type): byte-identical"
  done
  # more ranks than planes (two ranks hold none), thin slabs (T = 1)
  dsplit "3d-box-r1:f64:fixed:7x5x4:10:d"
  rm -f "$T/m"
  $MPIRUN -np 6 "$GK" stencil --device=cpu $dargs --input="$T/in-$dkey" --output="$T/m" 2>"$T/err" &&
    cmp -s "$T/ref-$dkey" "$T/m"
  t_result $? "mpirun -np 6 --device=cpu $dkey (4 planes: two ranks hold none): byte-identical"
  $MPIRUN -np 2 "$GK" stencil --device=cpu --stencil=2d-star-r2:periodic --type=f32 --size=40x30 --steps=5 --json \
    --output="$T/m" >"$T/json" 2>"$T/err"
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["ranks"] == 2 and d["slabs"] == 2 and d["halo_planes"] >= 2 and d["halo_planes"] % 2 == 0, d' "$T/json"
  t_result $? "mpirun -np 2 2d-star-r2 --json: 2 slabs, a halo of r x T rows"
  # bad inputs: one line naming what is wrong, every rank exits 1, no output
  rm -f "$T/bad.out"
  t_fails_mpi "mpirun -np 4, 3d-star-r4 over 10 planes: the slab thinner than the halo is named" 1 \
    "10 planes over 4 slabs leaves a slab of 2 planes, thinner than the halo of radius 4: use at most 2" \
    $MPIRUN -np 4 "$GK" stencil --device=cpu --stencil=3d-star-r4 --size=12x12x10 --steps=3 --output="$T/bad.out"
  [ ! -e "$T/bad.out" ]; t_result $? "and no output file"
  t_fails_mpi "mpirun -np 3, 2d-box-r2 over 5 rows: rows, not planes" 1 "5 rows over 3 slabs leaves a slab of 1 row, thinner" \
    $MPIRUN -np 3 "$GK" stencil --device=cpu --stencil=2d-box-r2 --size=12x5 --steps=3 --output="$T/bad.out"
  dsplit "2d-box-r2:f32:fixed:23x13:6:r"
  python3 -c 'import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
d[4 * (23 * 11 + 3):4 * (23 * 11 + 4)] = struct.pack("<f", float("inf"))   # y = 11: the last rank'"'"'s rows
open(sys.argv[2], "wb").write(d)' "$T/in-$dkey" "$T/inf32"
  t_fails_mpi "mpirun -np 2, float32 input with an infinity: its x and y named" 1 "x=3 y=11 (number 256) is infinite" \
    $MPIRUN -np 2 "$GK" stencil --device=cpu $dargs --input="$T/inf32" --output="$T/bad.out"
  head -c 400 "$T/in-$dkey" >"$T/short32"
  t_fails_mpi "mpirun -np 2, a float32 grid of the wrong size" 1 "400 bytes, but a 23x13 float32 grid is 1196 bytes" \
    $MPIRUN -np 2 "$GK" stencil --device=cpu $dargs --input="$T/short32" --output="$T/bad.out"
  [ ! -e "$T/bad.out" ]; t_result $? "and no output file"
else
  echo "ok $((t_n + 1)) # SKIP MPI tests of descriptions: $why"; t_n=$((t_n + 1))
fi
if [ "$ngpu" -ge 1 ]; then
  for c in $dcases; do
    dsplit "$c"
    rm -f "$T/m"
    "$GK" stencil --gpus=1 $dargs --input="$T/in-$dkey" --output="$T/m" 2>"$T/err" && cmp -s "$T/ref-$dkey" "$T/m"
    r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
    t_result $r "--gpus=1 $dkey, $dn steps, weights $dw: byte-identical to the CPU"
  done
  # slabs of one GPU (ranks share it): every round writes halo planes into
  # a buffer of the engine, whose fixed band the kernels never write
  if [ $mpi = yes ]; then
    for c in $dcases; do
      case $c in *:fixed:*) ;; *) continue ;; esac
      dsplit "$c"
      rm -f "$T/m"
      $MPIRUN -np 3 "$GK" stencil --device=gpu --exchange=host $dargs --input="$T/in-$dkey" --output="$T/m" 2>"$T/err" &&
        cmp -s "$T/ref-$dkey" "$T/m"
      r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
      t_result $r "mpirun -np 3 --device=gpu on one GPU, $dkey, $dn steps: byte-identical to the CPU"
    done
  fi
else
  echo "ok $((t_n + 1)) # SKIP GPU tests of descriptions: no usable GPU here"; t_n=$((t_n + 1))
fi
if [ "$ngpu" -ge 2 ]; then
  for c in $dcases; do
    dsplit "$c"
    rm -f "$T/m"
    "$GK" stencil --gpus=2 $dargs --input="$T/in-$dkey" --output="$T/m" 2>"$T/err" && cmp -s "$T/ref-$dkey" "$T/m"
    r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
    t_result $r "--gpus=2 $dkey, $dn steps, weights $dw: byte-identical to the CPU"
    if [ $mpi = yes ]; then
      for ex in auto host; do
        rm -f "$T/m"
        $MPIRUN -np 2 "$GK" stencil --device=gpu --exchange=$ex $dargs --input="$T/in-$dkey" --output="$T/m" 2>"$T/err" &&
          cmp -s "$T/ref-$dkey" "$T/m"
        r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
        t_result $r "mpirun -np 2 --device=gpu --exchange=$ex $dkey, $dn steps: byte-identical to the CPU"
      done
    fi
  done
  dsplit "3d-star-r4:f32:periodic:11x10x19:7:d"
  rm -f "$T/m"
  "$GK" stencil --gpus=2 $dargs --seed=5 --output="$T/m" 2>"$T/err" && cmp -s "$T/rs-$dkey" "$T/m"
  t_result $? "--gpus=2 $dkey from --seed: byte-identical to the CPU"
else
  echo "ok $((t_n + 1)) # SKIP several-GPU tests of descriptions: $ngpu GPU(s) usable here"; t_n=$((t_n + 1))
fi
t_done
