#!/usr/bin/env bash
# bench_ref_pile.sh LCPBENCH BENCH_REF: the reference on real piles (meson benchmark
# 'reference-pile'): capture frictionless sphere piles (n spheres settled for 100 steps, the
# LCP of step 100) and solve each with ldlt-ref in its own process; bench_ref prints rows,
# time, CPU time, peak RSS, steps (of which interior-point), factorisations (of which supernodal),
# Gflop, the largest nnz(L) and the residual, and fails unless the answer is exact within the
# pile's time target and memory cap:
#     n = 2400   10760 rows   5 s    (the issue's reference pile)
#     n = 3200   13636 rows   10 s
#     n = 10000  46055 rows   20 s
#     n = 30000  138614 rows  200 s  (only with LCPBENCH_PILE_FULL=1: a 40 s capture, 2 GB)
# and friction piles (mu 0.5, the scene's default; 3 rows a contact), solved exactly by the
# rounds and the semismooth Newton phase on the coupled problem:
#     n = 1300   10626 rows   20 s    (the issue's 10^4-row friction pile; 18.6 s of CPU, then
#                                      0.88 of the build before, paired at load 5 to 7:
#                                      about 13.6 s idle; reference/README.md)
#     n = 2400   19908 rows   300 s   (converged at 2.3e-15 in 98.6 s of CPU since the interior
#                                      point runs once a friction round: reference/README.md)
# LCPBENCH_PILE_PAIRED=1 also solves each pile with CHOLMOD's simplicial LDL^T (the path
# before the supernodal factorisation; no time target) right after, for paired ratios.
set -eu
LB=$1
BR=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
piles="2400:5:1024 3200:10:1024 10000:20:2048"
[ "${LCPBENCH_PILE_FULL:-0}" = 1 ] && piles="$piles 30000:200:4096"
fail=0
for p in $piles; do
  IFS=: read -r n max_s max_mb <<<"$p"
  "$LB" capture spheres --param n="$n" --param mu=0 --at 100 --out "$T/p$n" >/dev/null
  echo "# pile n=$n (supernodal auto)"
  OPENBLAS_NUM_THREADS=1 "$BR" "$T/p$n/spheres-step100" "$max_s" "$max_mb" || fail=1
  if [ "${LCPBENCH_PILE_PAIRED:-0}" = 1 ]; then
    echo "# pile n=$n (CHOLMOD simplicial, paired)"
    OPENBLAS_NUM_THREADS=1 "$BR" "$T/p$n/spheres-step100" 1e9 1e9 0 || true
  fi
  rm -rf "$T/p$n"
done
for p in 1300:20:1024:1 2400:300:2048:1; do
  IFS=: read -r n max_s max_mb required <<<"$p"
  "$LB" capture spheres --param n="$n" --at 100 --out "$T/f$n" >/dev/null
  echo "# friction pile n=$n (mu 0.5)"
  OPENBLAS_NUM_THREADS=1 "$BR" "$T/f$n/spheres-step100" "$max_s" "$max_mb" ||
    { [ "$required" = 1 ] && fail=1; echo "# n=$n: not exact within the target"; }
  rm -rf "$T/f$n"
done
exit $fail
