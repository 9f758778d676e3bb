#!/usr/bin/env bash
# bench_piles.sh parallel|mem|stop LCPBENCH BENCH: the parallel, memory and stopping-test
# benchmarks on captured
# sphere piles (bodies and contacts numbered in space, as a stepper makes them), beside the
# synthetic problems with contacts between bodies drawn at random that `parallel' and
# `mem-stream' time (results/performance.md).  Each pile is `capture spheres --param n=N --at
# 30 --iters 10' (friction, mu 0.5: 3 rows a contact):
#   parallel  n = 11800: 106971 rows; bench_color --time PILE (pgs-color on 1 and 2 threads,
#             paired rounds), then the same with --solver pgs-color-contact; exits 1 when
#             either run is below the 1.7x target
#   mem       n = 2000 (9858 rows, in the last-level cache: what the rows' instructions cost),
#             n = 28200 (195126 rows), n = 205400 (729021 rows; a 35 s capture, 1.3 GB):
#             bench_mem PILE... (sweep / streaming floor, peak RSS with and without A)
#   stop      n = 11800 (106971 rows): bench_stop --cap 200 --no-synthetic PILE (a solve
#             with the fused test every sweep against the same sweeps with none)
set -eu
what=$1
LB=$2
BENCH=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
case "$what" in
  parallel) sizes="11800" ;;
  mem) sizes="2000 28200 205400" ;;
  stop) sizes="11800" ;;
  *) echo "bench_piles.sh: parallel, mem or stop, not '$what'" >&2; exit 2 ;;
esac
dirs=()
for n in $sizes; do
  "$LB" capture spheres --param n="$n" --at 30 --iters 10 --out "$T" --name "s$n" >/dev/null
  dirs+=("$T/s$n-step30")
done
if [ "$what" = parallel ]; then
  rc=0
  "$BENCH" --time "${dirs[0]}" || rc=1
  "$BENCH" --time "${dirs[0]}" --solver pgs-color-contact || rc=1
  exit $rc
fi
if [ "$what" = stop ]; then
  exec "$BENCH" --cap 200 --no-synthetic "${dirs[0]}"
fi
"$BENCH" "${dirs[@]}"
