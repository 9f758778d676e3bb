#!/bin/sh
# canonical.sh LCPBENCH OUTDIR: capture the canonical instance set (problems/instances/,
# problems/README.md) into OUTDIR, one folder per line below.  Every capture is deterministic:
# recapturing gives byte-identical files (tests/problems/problems_canonical.sh compares them
# with cmp).
# Each line: the arguments of `lcpbench capture' after the scene, --out OUTDIR added.
set -eu
LB=$1
OUT=$2
mkdir -p "$OUT"
while read -r scene args; do
  case "$scene" in ''|'#'*) continue ;; esac
  args=${args%%#*}
  # shellcheck disable=SC2086
  "$LB" capture "$scene" $args --out "$OUT" --force >/dev/null
done <<'LIST'
# scene         arguments                                      folder
pool            --at 100                                       # pool-step100
pool            --param mu=0 --at 100 --name pool-mu0          # pool-mu0-step100
pool-graded     --at 100                                       # pool-graded-step100
pool-graded     --param mu=0 --at 100 --name pool-graded-mu0   # pool-graded-mu0-step100
stack           --at 100 --name stack-30                       # stack-30-step100
stack           --param n=150 --at 100 --name stack-150        # stack-150-step100
stack           --param n=150 --param mu=0 --at 100 --name stack-150-mu0
spheres         --at 100                                       # spheres-step100
capsule         --at 1                                         # capsule-step1
three-spheres   --at 1                                         # three-spheres-step1
chain           --at 300                                       # chain-step300
boxes           --param n=5 --at 10 --name boxes-tower-5       # boxes-tower-5-step10
mass-ratio      --param ratio=10000 --at 10 --name mass-ratio-1e4  # mass-ratio-1e4-step10
links           --param pose=1 --at 200 --name links-draped-10 # links-draped-10-step200
silo            --param n=24 --param cols=3 --at 60 --name silo-24 # silo-24-step60
kapla           --param layers=3 --at 10 --name kapla-3        # kapla-3-step10
LIST
