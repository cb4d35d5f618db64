#!/bin/sh
# APSP past one process and one GPU for every weight type (HACKING.md, "APSP
# element types"): int32, int64, float32, float64, negative weights, a
# negative cycle, every input format (edge lists with real and negative
# weights, NTHU widened by --weights, a dense .npy matrix, --undirected) and
# .npy output.  `gk apsp --exchange=device` (the row engine in one process),
# `mpirun -np 2|3 gk apsp --device=cpu`, and where two GPUs are usable
# `gk apsp --gpus=2` (both exchanges) and `mpirun -np 2 gk apsp
# --device=gpu`: every output byte-identical (floats included) to the
# single-process CPU output, a negative cycle the same error naming the same
# vertex, exit 1, no output.  The integer results are also checked against
# a plain Floyd-Warshall loop written here (Python).
. "$top_srcdir/tests/tap.sh"
T=$t_tmp
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMP_NUM_THREADS=1
MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun -q --oversubscribe"

if ! command -v python3 >/dev/null 2>&1; then
  echo "1..0 # SKIP no python3 to write the graphs"; exit 0
fi
mpi=no why="gk was built without MPI (configure found none)"
if grep -q '^#define GK_HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null; then
  if command -v mpirun >/dev/null 2>&1; then mpi=yes; else why="no mpirun on the PATH"; fi
fi
ngpu=$("$GK" info --json 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["gpus"]))' 2>/dev/null)
[ -n "$ngpu" ] || ngpu=0

# ---- the graphs (edge lists "src dst w", 0-based; --vertices=V on every run)
#   real<V>: real weights in [0, 10), sparse (unreachable pairs)
#   neg<V>:  integer weights, some negative, no negative cycle (w = c +
#            p[dst] - p[src], c >= 0: every cycle sums to >= 0)
#   negr<V>: the same with real weights
#   cyc:     a negative cycle through vertices 70, 71, 72 of 100
# V: below a tile, a tile, a tile +- 1, several tiles; 1000 for the GPUs
python3 - "$T" <<'EOF' || echo "Bail out! cannot write the graphs"
import random, sys
d = sys.argv[1]
def write(name, V, E, seed, kind):
    r = random.Random(seed)
    p = [r.randint(0, 40) for _ in range(V)]
    with open(f"{d}/{name}", "w") as f:
        for _ in range(E):
            s, t = r.randrange(V), r.randrange(V)
            if kind == "real":
                w = f"{r.uniform(0, 10):.7g}"
            elif kind == "neg":
                w = str(r.randint(0, 9) + p[t] - p[s])
            else:
                w = f"{r.uniform(0, 3) + 0.37 * (p[t] - p[s]):.7g}"
            f.write(f"{s} {t} {w}\n")
for V in (1, 5, 63, 64, 65, 130, 200, 1000):
    E = 2 * V + 3 if V < 1000 else 6000
    write(f"real{V}", V, E, V, "real")
    write(f"neg{V}", V, E, V + 1, "neg")
    write(f"negr{V}", V, E, V + 2, "negr")
with open(f"{d}/cyc", "w") as f:
    r = random.Random(9)
    for _ in range(300):
        f.write(f"{r.randrange(100)} {r.randrange(100)} {r.randint(1, 20)}\n")
    f.write("70 71 2\n71 72 -4\n72 70 1\n")
EOF

# cases: NAME INPUT OPTIONS... (OUTPUT gets .npy in the name when NAME ends in npy)
cases="$T/cases"
: >"$cases"
for V in 1 5 63 64 65 130 200; do
  echo "real$V-auto real$V --vertices=$V" >>"$cases"
  echo "real$V-f32 real$V --vertices=$V --weights=float32" >>"$cases"
  echo "neg$V-auto neg$V --vertices=$V" >>"$cases"
  echo "neg$V-i64 neg$V --vertices=$V --weights=int64" >>"$cases"
  echo "negr$V-f64 negr$V --vertices=$V --weights=float64" >>"$cases"
done
echo "neg130-f32npy neg130 --vertices=130 --weights=float32" >>"$cases"
echo "negr200-f32 negr200 --vertices=200 --weights=float32" >>"$cases"
echo "real130-undir real130 --vertices=130 --undirected" >>"$cases"
"$GK" gen apsp --vertices=150 --edges=600 --seed=3 --max-weight=50 "$T/nthu150" || echo "Bail out! gk gen apsp"
echo "nthu150-i64 nthu150 --weights=int64" >>"$cases"
echo "nthu150-f32 nthu150 --weights=float32" >>"$cases"
echo "nthu150-undir nthu150 --undirected" >>"$cases"
# a dense .npy input: a distance matrix (float64, inf where unreachable)
"$GK" apsp --device=cpu --vertices=130 "$T/negr130" "$T/dense130.npy" || echo "Bail out! the dense input"
echo "dense130-npy dense130.npy" >>"$cases"
echo "dense130-f32 dense130.npy --weights=float32" >>"$cases"

out_of() { case $1 in *npy) echo "$T/$2.npy" ;; *) echo "$T/$2" ;; esac; }

# the references: one process on the CPU
while read -r name in opts; do
  # shellcheck disable=SC2086
  "$GK" apsp --device=cpu $opts "$T/$in" "$(out_of "$name" "ref-$name")" 2>"$T/err" \
    || echo "Bail out! cannot make the reference $name: $(cat "$T/err")"
done <"$cases"

# the integer results against a plain Floyd-Warshall loop (int32 and int64
# outputs are exact: the same numbers as any correct code)
python3 - "$T" <<'EOF'
import struct, sys
d = sys.argv[1]
bad = 0
for V in (5, 63, 65, 130):
    INF = float("inf")
    m = [[INF] * V for _ in range(V)]
    for i in range(V): m[i][i] = 0
    for line in open(f"{d}/neg{V}"):
        s, t, w = line.split(); s, t, w = int(s), int(t), int(w)
        if s != t and w < m[s][t]: m[s][t] = w
    for k in range(V):
        mk = m[k]
        for i in range(V):
            a = m[i][k]
            if a == INF: continue
            mi = m[i]
            for j in range(V):
                if a + mk[j] < mi[j]: mi[j] = a + mk[j]
    for name, fmt, inf in ((f"neg{V}-auto", "<i", 2**30 - 1), (f"neg{V}-i64", "<q", 2**62 - 1)):
        raw = open(f"{d}/ref-{name}", "rb").read()
        got = struct.unpack(f"<{V * V}{fmt[1]}", raw)
        want = [inf if x == INF else x for row in m for x in row]
        ok = list(got) == want
        bad |= not ok
        if not ok:
            print(f"# {name}: the single-process reference differs from a plain Floyd-Warshall")
sys.exit(bad)
EOF
[ $? = 0 ]; t_result $? "the integer references agree with the plain loop"

# run LABEL CMD...: every case through CMD (the input and output appended)
run_all() {
  label=$1; shift
  while read -r name in opts; do
    o=$(out_of "$name" "m-$name")
    rm -f "$o"
    # shellcheck disable=SC2086
    "$@" $opts "$T/$in" "$o" 2>"$T/err" </dev/null && cmp -s "$(out_of "$name" "ref-$name")" "$o"
    r=$?; [ $r = 0 ] || t_diag "$(cat "$T/err")"
    t_result $r "$label, $name: byte-identical to one process on the CPU"
  done <"$cases"
}

# cycle LABEL CMD...: the negative cycle's error as one process gives it
cycle() {
  label=$1; shift
  rm -f "$T/cyc.out"
  t_fails_mpi "$label: a negative cycle is one message naming vertex $cyc_vertex, exit 1" 1 \
    "cyc: negative cycle through vertex $cyc_vertex\$" "$@" --vertices=100 "$T/cyc" "$T/cyc.out"
  [ ! -e "$T/cyc.out" ]; t_result $? "$label: a negative cycle leaves no output file"
}
"$GK" apsp --device=cpu --vertices=100 "$T/cyc" "$T/cyc.ref" 2>"$T/err"
cyc_vertex=$(sed -n 's/.*negative cycle through vertex \([0-9]*\)$/\1/p' "$T/err")
case $cyc_vertex in 7[012]) t_result 0 "one process: the negative cycle names vertex $cyc_vertex" ;;
  *) t_diag "$(cat "$T/err")"; t_result 1 "one process: the negative cycle names a vertex on it" ;; esac

# ---- the row engine in one process (no MPI needed)
run_all "--exchange=device (CPU)" "$GK" apsp --device=cpu --exchange=device
cycle "--exchange=device (CPU)" "$GK" apsp --device=cpu --exchange=device
t_fails "--exchange=device: --predecessors is refused by name" 2 "predecessors" \
  "$GK" apsp --device=cpu --exchange=device --predecessors="$T/p" "$T/neg65" "$T/m"

# ---- MPI, CPU ranks
if [ $mpi = yes ]; then
  for np in 2 3; do
    run_all "mpirun -np $np --device=cpu" $MPIRUN -np $np "$GK" apsp --device=cpu
    cycle "mpirun -np $np --device=cpu" $MPIRUN -np $np "$GK" apsp --device=cpu
  done
  t_fails_mpi "mpirun: --predecessors is refused by name" 2 "predecessors" \
    $MPIRUN -np 2 "$GK" apsp --device=cpu --predecessors="$T/p" "$T/neg65" "$T/m"
  printf '0 1 -20000000\n1 2 5\n' >"$T/big"
  t_fails_mpi "mpirun: an int32 request whose paths could overflow is refused, one message" 1 "int64" \
    $MPIRUN -np 2 "$GK" apsp --device=cpu --weights=int32 --vertices=100 "$T/big" "$T/m"
  $MPIRUN -np 2 "$GK" apsp --device=cpu --json --weights=float32 --vertices=65 "$T/real65" "$T/m" >"$T/json" 2>"$T/err"
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["weights"] == "float32" and d["ranks"] == 2 and d["vertices"] == 65, d' "$T/json"
  t_result $? "mpirun --json: the weight type is reported"
else
  t_skip "$why" "MPI tests"
fi

# ---- several GPUs (fewer sizes: each run starts CUDA on two GPUs)
if [ "$ngpu" -ge 2 ]; then
  grep -v -e '^[a-z]*\(5\|63\|130\)-\(auto\|f32\|i64\|f64\) ' "$cases" >"$T/gcases"
  for n in real neg negr; do
    w=; [ $n = negr ] && w=--weights=float32
    echo "${n}1000-gpu ${n}1000 --vertices=1000 $w" >>"$T/gcases"
    "$GK" apsp --device=cpu --vertices=1000 $w "$T/${n}1000" "$T/ref-${n}1000-gpu"
  done
  # a smaller set for the other two ways
  grep -e '^[a-z]*\(1\|65\)-\|1000-gpu\|f32npy\|undir\|dense130-npy' "$T/gcases" >"$T/gcases2"
  cp "$T/gcases" "$cases"
  run_all "--gpus=2 --exchange=device" "$GK" apsp --gpus=2 --exchange=device
  cycle "--gpus=2 --exchange=device" "$GK" apsp --gpus=2 --exchange=device
  cp "$T/gcases2" "$cases"
  run_all "--gpus=2 --exchange=host" "$GK" apsp --gpus=2 --exchange=host
  cycle "--gpus=2 --exchange=host" "$GK" apsp --gpus=2 --exchange=host
  if [ $mpi = yes ]; then
    run_all "mpirun -np 2 --device=gpu" $MPIRUN -np 2 "$GK" apsp --device=gpu
    cycle "mpirun -np 2 --device=gpu" $MPIRUN -np 2 "$GK" apsp --device=gpu
  fi
  t_fails "--gpus=2: --predecessors is refused by name" 2 "predecessors" \
    "$GK" apsp --gpus=2 --predecessors="$T/p" "$T/neg65" "$T/m"
else
  t_skip "$ngpu GPU(s) usable here" "several-GPU tests"
fi
t_done
