#!/usr/bin/env bash
# bench_families.sh iteration|newton LCPBENCH: the field's solver families on captured
# frictionless sphere piles (meson benchmarks 'families-iteration' and 'families-newton';
# lcp/README.md, "The field's solver families"; what they measured: results/performance.md).
# Each solve is a whole `lcpbench solve' process (reading included) timed in CPU seconds
# (user + system, /usr/bin/time), so the numbers hold on a loaded host; one BLAS thread.
#   iteration  `capture spheres --param n=45000 --param mu=0 --at 30 --iters 10' (about 10^5
#              rows: n = 22000 gave 59896, 37000 gave 81326; FAMILIES_PILE_N=N sets n):
#              every family and pgs for K = 100 iterations with no residual test (--tol -1)
#              and for 0 (K = 20 left admm's 20 solves inside the noise of its factorisation:
#              a negative difference at 81326 rows); per iteration: the work (products with A, lcp_info.work
#              / K) and the CPU seconds (the K-iteration run less the 0-iteration one, / K),
#              that time in PGS sweeps; admm's factorisation falls in its 0-iteration run.
#   newton     `capture spheres --param n=10000 --param mu=0 --at 100' (46055 rows, the pile
#              of bench_ref_pile.sh): newton-fb and newton-min to ||r||_2 <= 1e-10 (maxit 1000)
#              and ldlt-ref; CPU seconds, steps, work, residual, and each Newton method's
#              CPU against ldlt-ref's (reported, no target: exit 0 when every solve ran).
set -eu
what=$1
LB=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OPENBLAS_NUM_THREADS=1
# cpu SOLVER ARGS...: "CPU_SECONDS,ITERATIONS,WORK,RESIDUAL,STATUS" of one solve of $P
cpu() {
  local s=$1
  shift
  /usr/bin/time -f '%U %S' -o "$T/time" "$LB" solve "$P" --solver "$s" --reps 0 "$@" >"$T/out"
  awk -v c="$(awk '{ print $1 + $2 }' "$T/time")" -F, 'NR == 1 { for (k = 1; k <= NF; k++) h[$k] = k; next }
    { printf "%.2f,%s,%s,%s,%s\n", c, $h["iterations"], $h["work"], $h["residual"], $h["status"] }' "$T/out"
}
case "$what" in
  iteration)
    n=${FAMILIES_PILE_N:-45000} K=100
    "$LB" capture spheres --param n="$n" --param mu=0 --at 30 --iters 10 --out "$T" --name p >/dev/null
    P=$T/p-step30
    echo "# pile n=$n mu=0 step 30: $(awk '/^rows/ { print $3 }' "$P/meta.txt") rows; K = $K iterations"
    echo "solver,work_per_iteration,cpu_per_iteration_s,pgs_sweeps_per_iteration,cpu_0_iterations_s"
    base=""
    for s in pgs nncg pgs-sm apgd spg newton-min newton-fb admm; do
      IFS=, read -r c0 _ _ _ _ <<<"$(cpu "$s" --maxit 0 --tol -1)"
      IFS=, read -r cK it w _ _ <<<"$(cpu "$s" --maxit $K --tol -1)"
      per=$(echo "($cK - $c0) / $it" | bc -l)
      [ -n "$base" ] || base=$per
      printf '%s,%.2f,%.4f,%.2f,%.2f\n' "$s" "$(echo "$w / $it" | bc -l)" "$per" \
        "$(echo "$per / $base" | bc -l)" "$c0"
    done
    ;;
  newton)
    "$LB" capture spheres --param n=10000 --param mu=0 --at 100 --out "$T" --name p >/dev/null
    P=$T/p-step100
    echo "# pile n=10000 mu=0 step 100: $(awk '/^rows/ { print $3 }' "$P/meta.txt") rows; tol 1e-10"
    echo "solver,cpu_s,iterations,work,residual,status,cpu_over_ldlt_ref"
    IFS=, read -r cref itr wr rr sr <<<"$(cpu ldlt-ref)"
    echo "ldlt-ref,$cref,$itr,$wr,$rr,$sr,1"
    for s in newton-fb newton-min; do
      IFS=, read -r c it w r st <<<"$(cpu "$s" --tol 1e-10 --maxit 1000)"
      printf '%s,%s,%s,%s,%s,%s,%.2f\n' "$s" "$c" "$it" "$w" "$r" "$st" "$(echo "$c / $cref" | bc -l)"
    done
    ;;
  *) echo "bench_families.sh: iteration or newton, not '$what'" >&2; exit 2 ;;
esac
