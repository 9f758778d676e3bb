#!/usr/bin/env bash
# bench_problems.sh LCPBENCH: the stepper's performance targets (meson benchmark
# 'problems'), each printed and checked:
#   - simulate spheres, 10^4 spheres, 100 steps of 10 PGS sweeps: under 10 s of processor
#     time (printed with the wall clock), contact detection under 30% of the step time;
#   - capturing an instance costs at most 3 steps: pool, 100 steps, every step captured,
#     capture time per captured step over the time of a step without capture.
set -u
LB=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
check() { # check NAME CONDITION(awk expression over $v) VALUE
  if awk -v v="$3" "BEGIN { exit !($2) }"; then echo "ok - $1 ($3)"; else echo "FAIL - $1 ($3)"; fails=$((fails + 1)); fi
}
field() { sed -n "s/.*$1 \([0-9.]*\) s.*/\1/p" "$2"; }
"$LB" simulate spheres --param n=10000 --steps 100 --iters 10 --tol -1 --timing >"$T/sph.csv" 2>"$T/sph.err" || exit 1
cat "$T/sph.err"
total=$(field total "$T/sph.err")
cpu=$(sed -n 's/.*cpu \([0-9.]*\) s.*/\1/p' "$T/sph.err")
coll=$(field collision "$T/sph.err")
# the processor time of the whole run: the wall clock also counts other jobs' turns
check "spheres-1e4-100-steps-under-10-s-cpu" 'v < 10' "$cpu"
check "spheres-1e4-collision-share-under-30%" 'v < 0.30' "$(awk -v c="$coll" -v t="$total" 'BEGIN { printf "%.3f", c / t }')"
"$LB" simulate pool --steps 100 --timing >/dev/null 2>"$T/plain.err" || exit 1
"$LB" simulate pool --steps 100 --timing --capture-every 1 --out "$T/cap" >/dev/null 2>"$T/cap.err" || exit 1
cat "$T/plain.err" "$T/cap.err"
captured=$(ls "$T/cap" | wc -l)
ratio=$(awk -v c="$(field capture "$T/cap.err")" -v n="$captured" -v t="$(field total "$T/plain.err")" \
  'BEGIN { printf "%.2f", (c / n) / (t / 100) }')
check "pool-capture-costs-at-most-3-steps" 'v <= 3' "$ratio"
[ "$fails" = 0 ]
