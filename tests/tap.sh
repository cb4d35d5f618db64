# tap.sh - TAP helpers for gk's shell tests (sourced).
#   t_ok CMD...          test passes if CMD exits 0
#   t_fails CODE PAT CMD...  CMD exits CODE (nonzero: any nonzero if CODE=x),
#                            prints one stderr line matching PAT (plus, for
#                            usage errors, the "Try --help" line)
#   t_fails_mpi CODE PAT CMD...  t_fails for `mpirun ... gk`: lines that Open
#                            MPI's runtime itself writes ("[host:pid] ...",
#                            e.g. PMIx teardown errors when ranks exit
#                            non-zero) are not gk's messages; they are shown
#                            as diagnostics and not counted
t_n=0 t_failed=0
t_tmp=${TMPDIR:-/tmp}/gk-test.$$
mkdir -p "$t_tmp"
trap 'rm -rf "$t_tmp"' EXIT
t_result() { t_n=$((t_n + 1)); if [ "$1" = 0 ]; then echo "ok $t_n - $2"; else echo "not ok $t_n - $2"; t_failed=$((t_failed + 1)); fi; }
t_diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
t_skip() { t_n=$((t_n + 1)); echo "ok $t_n - $2 # SKIP $1"; }
t_ok() { name=$1; shift; "$@" >"$t_tmp/out" 2>"$t_tmp/err"; rc=$?; [ $rc = 0 ] || t_diag "exit $rc" "$(cat "$t_tmp/err")"; t_result $rc "$name"; }
# t__fails MPI NAME CODE PAT CMD...: the body of t_fails (MPI=0) and
# t_fails_mpi (MPI=1)
t__fails() {
  t__mpi=$1 name=$2 code=$3 pat=$4; shift 4
  "$@" >"$t_tmp/out" 2>"$t_tmp/raw"; rc=$?
  if [ "$t__mpi" = 1 ]; then
    grep -v '^\[[^] ]*:[0-9]*\] ' "$t_tmp/raw" >"$t_tmp/err"
    grep '^\[[^] ]*:[0-9]*\] ' "$t_tmp/raw" >"$t_tmp/mpi" && t_diag "Open MPI's runtime wrote:" "$(cat "$t_tmp/mpi")"
  else
    cp "$t_tmp/raw" "$t_tmp/err"
  fi
  # usage errors (exit 2) may add GNU's "Try '... --help'" line
  lines=$(grep -cv "^Try '" "$t_tmp/err")
  r=0
  if [ "$code" = x ]; then [ $rc -ne 0 ] || r=1; else [ $rc -eq "$code" ] || r=1; fi
  [ "$lines" -eq 1 ] || r=1
  grep -q -e "$pat" "$t_tmp/err" || r=1
  [ $r = 0 ] || t_diag "exit $rc, stderr ($lines lines):" "$(cat "$t_tmp/raw")"
  t_result $r "$name"
}
t_fails() { t__fails 0 "$@"; }
t_fails_mpi() { t__fails 1 "$@"; }
t_done() { echo "1..$t_n"; [ $t_failed = 0 ]; }
