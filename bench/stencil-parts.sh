# bench/stencil-parts.sh - the parts the stencil bench scripts share
# (sourced by stencil-ring.sh and stencil-loader.sh; run in a build
# directory, GK set to the gk to run).

# One timed run of configuration $1 at SWEEP_SIZE^3 (default 512), 96 steps:
# "<seconds> s, <rate> GStencil/s", or gk's last line when it gave no rate.
stencil_timed() {
  o=$(timeout 60 "$GK" stencil --size=${SWEEP_SIZE:-512} --steps=96 --device=gpu --time --config="$1" 2>&1)
  r=$(echo "$o" | grep 'GStencil' | sed 's/.*steps on gpu: //;s/, [0-9.]* GFLOP.*//')
  echo "${r:-failed: $(echo "$o" | tail -1)}"
}

# The GPU stencil tests (TESTS overrides the list); logs into $1.
stencil_tests() {
  t0=$(date +%s)
  make -j16 check TESTS="${TESTS:-tests/test_stencil_gpu_rx tests/test_stencil_gpu tests/test_spaces tests/test_stencil_multi_gpu tests/test_stencil_cli.sh}" > "$1/check.log" 2>&1
  echo "check rc=$? ($(( $(date +%s) - t0 )) s)"; grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR)' "$1/check.log"
  cp tests/test_stencil*.log tests/test_spaces.log "$1/" 2>/dev/null
  grep -h '^not ok' tests/test_stencil*.log tests/test_spaces.log | head -20
}

# gktune --kernels=stencil --sizes=$2 --budget=$3 into a fresh cache, then
# gk bench stencil at 512^3 with that cache (no shipped table); logs into $1.
stencil_tune() {
  c=$(mktemp -d /tmp/gk-tune.XXXXXX); s0=$(date +%s)
  GK_CACHE_DIR=$c ./gktune --kernels=stencil --sizes="$2" --budget="$3" -q > "$1/gktune.log" 2>&1
  echo "gktune: rc=$? wall $(( $(date +%s) - s0 )) s"; tail -4 "$1/gktune.log"
  cp "$c"/tune-*.txt "$1/" 2>/dev/null; grep -h 'kernel=stencil' "$c"/tune-*.txt
  GK_CACHE_DIR=$c GK_DATA_DIR=/tmp/none timeout 150 "$GK" bench stencil --sizes=512 --steps=100 2>&1 | tee "$1/bench-tuned.log"
}
