#!/usr/bin/env bash
# stop_instructions.sh BENCH_STOP DIR...: what the fused stopping test costs, counted in
# instructions (valgrind's callgrind) rather than timed: for each folder and solver, N solves
# to 1e-6 with the fused test against N solves of the same sweeps with no test, callgrind
# collecting inside the solves alone (bench_stop --instructions).  Prints instructions a
# solve and their ratio; the count is the same from run to run whatever else the machine
# does (results/performance.md, the stopping test).  Exit 77 (skipped) without valgrind.
set -eu
BENCH=$1
shift
command -v valgrind >/dev/null || { echo "valgrind not found: skipped"; exit 77; }
N=${N:-200}
count() {   # count DIR SOLVER MODE -> instructions collected
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=/dev/null \
    "$BENCH" --instructions "$1" "$2" "$3" "$N" 2>&1 >/dev/null |
    awk '/Collected :/ {print $NF}'
}
printf '%-24s %-9s %6s %6s %12s %12s %7s\n' instance solver sweeps exact fused/solve \
  none/solve ratio
for dir in "$@"; do
  name=$(basename "$dir")
  for s in pgs pgs-block jacobi amgs-D amgs-I; do
    line=$("$BENCH" --instructions "$dir" "$s" fused 1)
    K=$(echo "$line" | sed -n 's/.*: \([0-9]*\) sweeps, \([0-9]*\) exact.*/\1/p')
    C=$(echo "$line" | sed -n 's/.*: \([0-9]*\) sweeps, \([0-9]*\) exact.*/\2/p')
    f=$(count "$dir" "$s" fused)
    n=$(count "$dir" "$s" none)
    if [ "${n:-0}" = 0 ]; then   # built without valgrind's headers: no toggle, no count
      echo "callgrind collected nothing (bench_stop built without <valgrind/callgrind.h>): skipped"
      exit 77
    fi
    awk -v nm="$name" -v s="$s" -v K="$K" -v C="$C" -v f="$f" -v n="$n" -v N="$N" \
      'BEGIN { printf "%-24s %-9s %6d %6d %12.0f %12.0f %7.3f\n", nm, s, K, C, f / N, n / N, f / n }'
  done
done
