#!/usr/bin/env bash
# mpi_bench.sh LCPBENCH MKINST [ROUNDS]: what dealing and gathering cost
# (results/performance.md, "Grids: what dealing costs"), the quantity measured: a grid of 1000
# cells of about 10 ms (50 instances x 20 PGS lines) on 2 ranks, its total time against the
# sum of its cell times.  "2 ranks" is `mpirun -np 2': rank 0 deals and gathers, rank 1 runs
# every cell, so the sum of the cell times is the serial run's time and the overhead is
#     (M1000 - M1) / (S1000 - S1) - 1     dealing and gathering, per cell
#     M1000 / S1000 - 1                   the same with mpirun's start-up
# where S is the serial run's wall time and M the MPI run's, for the 1000-cell grid and for its
# first cell alone (the fixed costs: process start, MPI_Init, mpirun's launch).  The same from
# CPU seconds (user + sys of every rank, load-independent): the CPU the ranks spend beyond the
# serial run's, split into the worker's (the cells' critical path) and rank 0's (it writes
# the files).  Then `mpirun -np 3' (2 workers): the cells' speed-up over the serial run
# (2 at best; on a 2-core machine rank 0 shares a core).  ROUNDS (default 3) paired rounds,
# each run once per round, interleaved; the load average is printed before each round.  A
# benchmark, not a test: it fails only when a run fails.  Last, reorder's orderings on 1 and
# 2 workers (below).
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
ROUNDS=${3:-3}
command -v mpirun >/dev/null || { echo "no mpirun"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export TMPDIR=$T OPENBLAS_NUM_THREADS=1
{ echo "suite mpibench"; echo "set reps=3 tol=-1 maxit=2500"
  for i in $(seq 50); do "$MK" "$T/i$i" $((20 + i)) >/dev/null || exit 1; echo "instance $T/i$i"; done
  for k in $(seq 20); do echo "solver pgs omega=1.$((k % 10)) label=w$k"; done; } >"$T/b1000.txt"
head -3 "$T/b1000.txt" >"$T/b1.txt"; echo "solver pgs omega=1.1 label=w1" >>"$T/b1.txt"
# one rank: the command, then the CPU seconds of it (bash's `times': its children's)
cat >"$T/rank.sh" <<'EOS'
#!/usr/bin/env bash
"$@" >/dev/null 2>&1 || exit 1
times >"$CPU_OUT.t${OMPI_COMM_WORLD_RANK:-0}"     # no pipe: a subshell has no children
tail -1 "$CPU_OUT.t${OMPI_COMM_WORLD_RANK:-0}" |
  awk '{ gsub("[ms]", " "); print $1 * 60 + $2 + $3 * 60 + $4 }' >"$CPU_OUT.${OMPI_COMM_WORLD_RANK:-0}"
EOS
chmod +x "$T/rank.sh"
now() { date +%s.%N; }
one() {   # one NP GRID: "WALL CPU CPU0" of one run (NP 0: serial): CPU of every rank, of rank 0
  local t0 t1
  rm -rf "$T/o" "$T"/cpu.*
  export CPU_OUT=$T/cpu
  t0=$(now)
  if [ "$1" = 0 ]; then "$T/rank.sh" "$LB" run "$2" --out "$T/o" --no-plots || exit 1
  else mpirun --oversubscribe --bind-to core:overload-allowed -np "$1" "$T/rank.sh" "$LB" run "$2" --out "$T/o" --no-plots || exit 1; fi
  t1=$(now)
  awk -v a="$t0" -v b="$t1" '{ c += $1 } FILENAME ~ /cpu[.]0$/ { c0 = $1 }
    END { printf "%.4f %.4f %.4f", b - a, c, c0 }' "$T"/cpu.[0-9]*
}
cells() { grep -c ',w[0-9]*,pgs,' "$T/o/runs.csv"; }
for rep in $(seq "$ROUNDS"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  read -r s1 cs1 _ <<<"$(one 0 "$T/b1.txt")"
  read -r s2 cs2 _ <<<"$(one 0 "$T/b1000.txt")"
  [ "$(cells)" = 1000 ] || { echo "serial: not 1000 rows"; exit 1; }
  read -r m1 cm1 cr1 <<<"$(one 2 "$T/b1.txt")"
  read -r m2 cm2 cr2 <<<"$(one 2 "$T/b1000.txt")"
  [ "$(cells)" = 1000 ] || { echo "-np 2: not 1000 rows"; exit 1; }
  read -r p1 cp1 _ <<<"$(one 3 "$T/b1.txt")"
  read -r p2 cp2 _ <<<"$(one 3 "$T/b1000.txt")"
  awk -v L="$load" -v s1="$s1" -v s2="$s2" -v m1="$m1" -v m2="$m2" -v p1="$p1" -v p2="$p2" \
      -v cs1="$cs1" -v cs2="$cs2" -v cm1="$cm1" -v cm2="$cm2" -v cr1="$cr1" -v cr2="$cr2" 'BEGIN {
    printf "round (load %s): serial 1 cell %.2f s, 1000 cells %.2f s; -np 2: %.2f s, %.2f s; " \
           "-np 3: %.2f s, %.2f s\n", L, s1, s2, m1, m2, p1, p2
    printf "  -np 2 overhead: per cell %+.2f%% (wall), %+.2f%% (CPU of both ranks; the " \
           "worker %+.2f%%, rank 0 %.2f%%); with start-up %+.2f%% (fixed %.2f s); " \
           "-np 3 speed-up of the cells %.2f\n", \
           100 * ((m2 - m1) / (s2 - s1) - 1), 100 * ((cm2 - cm1) / (cs2 - cs1) - 1),
           100 * ((cm2 - cr2 - cm1 + cr1) / (cs2 - cs1) - 1), 100 * (cr2 - cr1) / (cs2 - cs1),
           100 * (m2 / s2 - 1), m1 - s1, (s2 - s1) / (p2 - p1) }'
done

# reorder's orderings dealt to the ranks: three-spheres' 9! = 362880 orderings (the table's
# largest body; no scene has 10 rows, so 10! = 3.6 million is not measured) on 1 worker
# (-np 2) and 2 workers (-np 3), the time of the orderings alone as the table reports it;
# the target is 2 workers within 1.1x of half of 1 worker's time.
rt() {   # rt NP: seconds of three-spheres' orderings
  rm -rf "$T/r"
  mpirun --oversubscribe --bind-to core:overload-allowed -np "$1" "$LB" table reorder --out "$T/r" 2>&1 >/dev/null |
    sed -n 's/.*reorder three-spheres: .* in \([0-9.]*\) s$/\1/p'
}
for rep in $(seq "$ROUNDS"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  r1=$(rt 2); r2=$(rt 3)
  [ -n "$r1" ] && [ -n "$r2" ] || { echo "reorder: no time reported"; exit 1; }
  awk -v L="$load" -v a="$r1" -v b="$r2" 'BEGIN {
    printf "reorder (load %s): 362880 orderings on 1 worker %.2f s, on 2 workers %.2f s: " \
           "%.2fx half the 1-worker time\n", L, a, b, b / (a / 2) }'
done
