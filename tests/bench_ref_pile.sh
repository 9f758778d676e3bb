#!/usr/bin/env bash
# bench_ref_pile.sh LCPBENCH BENCH_REF: the reference on a real pile (meson benchmark
# 'reference-pile'): capture the frictionless sphere pile of the target (2400
# spheres settled for 100 steps: 10760 rows, the LCP of step 100) and solve it with
# ldlt-ref; bench_ref fails unless the answer is exact in under 5 s with a peak RSS
# under 1 GiB.
set -eu
LB=$1
BR=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$LB" capture spheres --param n=2400 --param mu=0 --at 100 --out "$T" >/dev/null
OPENBLAS_NUM_THREADS=1 "$BR" "$T/spheres-step100"
