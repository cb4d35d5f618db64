# python_san.sh - sourced by the tests that run Python on libgk
# (test_python.sh, test_nx.sh, test_install.sh).  Under --enable-sanitizers
# libgk is instrumented and python is not: the sanitizer runtimes must be
# loaded first.  Leak checking stays with the C tests (CPython keeps its own
# allocations at exit on purpose).
if [ "${GK_SANITIZERS:-no}" = yes ]; then
  cc=${GK_CC:-cc}
  LD_PRELOAD="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)${LD_PRELOAD:+ $LD_PRELOAD}"
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  export LD_PRELOAD ASAN_OPTIONS
fi
