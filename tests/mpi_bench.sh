#!/usr/bin/env bash
# mpi_bench.sh LCPBENCH MKINST: what dealing and gathering cost (README, "Grids on a
# cluster"): a grid of 200 cells (10 instances x 20 solver lines, about 10 ms each) and a grid
# of its first cell, each run serially and under `mpirun -np 2' (rank 0 deals, one worker
# runs every cell), 3 times, paired.  The 1-cell grid gives the fixed costs (start-up,
# mpirun's); the per-cell overhead is (M200 - M1) / (S200 - S1) - 1, the MPI run's time for
# the 199 more cells against the serial run's, i.e. the total against the sum of the cell
# times.  A benchmark, not a test: it fails only when a run fails.
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
command -v mpirun >/dev/null || { echo "no mpirun"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export TMPDIR=$T OPENBLAS_NUM_THREADS=1
{ echo "suite mpibench"; echo "set reps=3 tol=-1 maxit=2500"
  for i in $(seq 10); do "$MK" "$T/i$i" $((20 + i)) >/dev/null || exit 1; echo "instance $T/i$i"; done
  for k in $(seq 20); do echo "solver pgs omega=1.$k label=w$k"; done; } >"$T/b200.txt"
head -4 "$T/b200.txt" >"$T/b1.txt"; echo "solver pgs omega=1.1 label=w1" >>"$T/b1.txt"
now() { date +%s.%N; }
wall() {   # wall NP GRID OUT: seconds of one run (NP 0: serial)
  local t0 t1
  rm -rf "$3"
  t0=$(now)
  if [ "$1" = 0 ]; then "$LB" run "$2" --out "$3" --no-plots >/dev/null 2>&1 || exit 1
  else mpirun --oversubscribe --bind-to core -np "$1" "$LB" run "$2" --out "$3" --no-plots >/dev/null 2>&1 || exit 1; fi
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
for rep in 1 2 3; do
  s1=$(wall 0 "$T/b1.txt" "$T/o"); s200=$(wall 0 "$T/b200.txt" "$T/o")
  m1=$(wall 2 "$T/b1.txt" "$T/o"); m200=$(wall 2 "$T/b200.txt" "$T/o")
  awk -v s1="$s1" -v s2="$s200" -v m1="$m1" -v m2="$m200" 'BEGIN {
    printf "serial: 1 cell %.3f s, 200 cells %.3f s; mpirun -np 2: 1 cell %.3f s, 200 cells %.3f s; " \
           "per-cell overhead %+.1f%%, fixed %.3f s\n", s1, s2, m1, m2, 100 * ((m2 - m1) / (s2 - s1) - 1), m1 - s1 }'
done
