#!/bin/sh
# make-instances.sh LCPBENCH: regenerate results/check/instances/ deterministically from the
# scenes (instances.suite) and store each instance's reference answer (ldlt-ref) as zref.mtx.
# Run from results/check; then `lcpbench check --update' rewrites baseline.csv.
set -eu
LB=${1:-lcpbench}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$LB" run instances.suite --out "$T/run" --no-plots
rm -rf instances
mkdir instances
for d in "$T"/run/instances/*/; do
  n=$(basename "$d")
  cp -r "$d" "instances/$n"
  "$LB" solve "instances/$n" --solver ldlt-ref --reps 0 --store-ref >/dev/null ||
    echo "make-instances: no reference for $n" >&2
done
