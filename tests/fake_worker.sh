#!/bin/sh
# fake_worker.sh - stands in for `gktune --worker` in tests: a fake GPU whose
# timings are a known function of the vadd configuration, so the search, the
# journal, crash handling and the cache can be checked without a GPU.
#   time = 1 + |VADD_PER_THREAD - 2| + |THREADS - 256| / 128  (best: 2, 256)
#   FAKE_FAULT=1  the worker dies measuring VADD_PER_THREAD=4,THREADS=512
#   FAKE_WRONG=1  validation fails for VADD_PER_THREAD=2,THREADS=128
#   FAKE_INT_AFTER=N   on its Nth measurement it interrupts gktune (SIGINT to
#                      its parent, as Ctrl-C would), then answers
#   FAKE_KILL_AFTER=N  on its Nth measurement it kills gktune (SIGKILL), as a
#                      crash would, instead of answering
#   FAKE_TERM_AFTER=N  on its Nth measurement it writes its pid to
#                      $FAKE_PIDFILE, sends gktune SIGTERM and never answers
#                      (a measurement that hangs; it ends when killed or when
#                      its stdin closes)
#   FAKE_FDS=FILE      it appends the list of its open fds to FILE at start
# The interrupt and the kill land at a known point: no waiting, no polling.
[ -n "$FAKE_FDS" ] && ls -l "/proc/$$/fd" >>"$FAKE_FDS"
n=0
while read -r cmd rest; do
  case $cmd in
    info) echo "info 9 0 132 13000 13000 49152 232448 233472 65536 1024 62914560 150000000000 Fake GPU" ;;
    measure|verify)
      set -- $rest
      if [ "$cmd" = verify ]; then cfg=$4; else cfg=$6; fi
      if [ "$cmd" = measure ]; then
        n=$((n + 1))
        if [ "$n" = "$FAKE_KILL_AFTER" ]; then kill -KILL "$PPID"; exit 0; fi
        if [ "$n" = "$FAKE_INT_AFTER" ]; then kill -INT "$PPID"; fi
        if [ "$n" = "$FAKE_TERM_AFTER" ]; then
          [ -n "$FAKE_PIDFILE" ] && echo $$ >"$FAKE_PIDFILE"
          kill -TERM "$PPID"
          while read -r _; do :; done
          exit 0
        fi
      fi
      if [ -n "$FAKE_FAULT" ] && [ "$cfg" = "VADD_PER_THREAD=4,THREADS=512" ]; then exit 3; fi
      if [ -n "$FAKE_WRONG" ] && [ "$cfg" = "VADD_PER_THREAD=2,THREADS=128" ]; then
        echo "fail wrong element 7 differs"; continue
      fi
      if [ "$cmd" = verify ]; then echo ok; continue; fi
      echo "$cfg" | awk -F'[=,]' '{ p = $2; t = $4; d = p - 2; if (d < 0) d = -d; e = (t - 256) / 128; if (e < 0) e = -e;
                                    printf "ok %.3f %.3f\n", 1 + d + e, 1 + d + e }' ;;
    quit) exit 0 ;;
    *) echo "fail error unknown request" ;;
  esac
done
