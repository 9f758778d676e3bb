#!/usr/bin/env bash
# parallel_loaded.sh BENCH_COLOR [ROUNDS] [ARGS...]: 2 threads against 1 on a loaded machine
# (meson benchmark 'parallel-loaded'; issue "Performance": 2 threads never below 0.95x 1
# thread).  Starts one busy process per online core (a shell loop of integer additions, nice
# 0, so the solver's threads compete for every core), runs `BENCH_COLOR --loaded --rounds
# ROUNDS ARGS' (default 31 rounds of the 10^5-row synthetic problem) and stops the load.
# The verdict is bench_color's: the lower end of the 95% confidence interval of the median
# counterbalanced speed-up (1, 2, 2, 1 threads a round; pgs-color or --solver's, and
# jacobi) must be >= 0.95.  Exit status: bench_color's (0 shown, 1 not shown), 2 on a usage
# error.  About 40 minutes on 2 cores under that load (2026-12-01: 31 rounds, 40 min).
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: parallel_loaded.sh BENCH_COLOR [ROUNDS] [ARGS...]" >&2
  exit 2
fi
bc=$1
rounds=${2:-31}
shift
[ $# -gt 0 ] && shift
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq "$(nproc)"); do
  bash -c 'i=0; while :; do i=$((i + 1)); done' &
  pids+=($!)
done
echo "# load: ${#pids[@]} busy processes (one per online core)"
export OPENBLAS_NUM_THREADS=1
"$bc" --loaded --rounds "$rounds" "$@"
