#!/usr/bin/env bash
# ref_pool_eps0.sh LCPBENCH: the reference on pools captured without compliance (eps = 0:
# A = J M^-1 J^T is only semi-definite, redundant contacts).  It used to stop at the pivot
# cap (residual 1e5).  Each answer must be exact: status converged (the final partition's
# A_FF nonsingular: z unique) or solved-nonunique (w exact, z not), and ||r||_inf at
# rounding (the status itself means every row is within 16 eps of (|A||z| + |q|)_i).
LB=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
fails=0
for spec in "pool 100 0.1" "pool 100 0"; do
  set -- $spec
  name="$1-mu$3"
  "$LB" capture "$1" --at "$2" --param eps=0 --param mu="$3" --name "$name" --out "$T" \
    >/dev/null 2>&1
  out=$("$LB" solve "$T/$name-step$2" --solver ldlt-ref --reps 0 2>&1 | tail -n 1)
  IFS=, read -r inst solver status it res resinf rest <<<"$out"
  n=$((n + 1))
  if { [ "$status" = converged ] || [ "$status" = solved-nonunique ]; } &&
    awk -v r="$resinf" 'BEGIN { exit !(r != "" && r + 0 <= 1e-12) }'; then
    echo "ok $n - ref-pool-eps0/$name-step$2-exact # $status $resinf"
  else
    echo "not ok $n - ref-pool-eps0/$name-step$2-exact # $status $resinf"
    fails=1
  fi
done
echo "1..$n"
exit $fails
