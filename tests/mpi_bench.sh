#!/usr/bin/env bash
# mpi_bench.sh LCPBENCH MKINST: what dealing and gathering cost (README, "Grids on a
# cluster"): a grid of 200 short cells (10 instances x 20 solver lines, a few ms each) run
# serially and under `mpirun -np 2' (rank 0 deals, one worker runs every cell), 3 times each,
# paired; prints the wall times and their ratio, which is 1 + what MPI adds per cell (and its
# start-up).  A benchmark, not a test: it fails only when a run fails.
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
command -v mpirun >/dev/null || { echo "no mpirun"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export TMPDIR=$T OPENBLAS_NUM_THREADS=1
{ echo "suite mpibench"; echo "set reps=3 tol=-1 maxit=400"
  for i in $(seq 10); do "$MK" "$T/i$i" $((20 + i)) >/dev/null || exit 1; echo "instance $T/i$i"; done
  for k in $(seq 20); do echo "solver pgs omega=1.$k label=w$k"; done; } >"$T/b.txt"
now() { date +%s.%N; }
for rep in 1 2 3; do
  t0=$(now); "$LB" run "$T/b.txt" --out "$T/S$rep" --no-plots >/dev/null 2>&1 || exit 1
  t1=$(now); mpirun --oversubscribe --bind-to core -np 2 "$LB" run "$T/b.txt" --out "$T/M$rep" --no-plots >/dev/null 2>&1 || exit 1
  t2=$(now)
  awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "serial %.3f s, mpirun -np 2 %.3f s, ratio %.3f\n", b - a, c - b, (c - b) / (b - a) }'
done
