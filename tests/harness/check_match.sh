#!/usr/bin/env bash
# check_match.sh LCPBENCH CHECK_INSTANCES: `lcpbench check' when the baseline's runs and the
# check's runs do not match, as TAP.  A baseline run is matched by (instance, label); a setting
# changed on a suite line changes the label (pgs:omega=1.3 -> pgs:omega=1.2), so no run
# matches and nothing is compared (a label that names no solver was taken for a peer this
# build lacks, and check passed having compared nothing): check must fail in one line that names the labels not matched, the peers this
# build lacks among them, and the labels run instead.  A partial match fails too, unless all
# the runs missing are of peers this build lacks (a note then).  `siconos-notbuilt' stands for
# a peer this build lacks in any build (no such peer exists).
set -u
LB=$1
CI=$2
. "$(dirname "$0")/../common/tap.sh"

C=$T/ck
mkdir -p "$C/instances"
cp -r "$CI/capsule" "$CI/stack8-mu0" "$C/instances/"
suite() { # suite PGS_LINE JACOBI_LINE: the check folder's suite.txt
  printf 'suite check\ninstance instances/*\nset tol=1e-8 maxit=3000 reps=0 warm=0\n%s\n%s\n' \
    "$1" "$2" >"$C/suite.txt"
}
suite "solver pgs omega=1.3" "solver jacobi omega=0.9"
run "$LB" check "$C" --update
ok "setup/baseline-written" eval 'rc_is 0 && [ $(awk -F, "\$3 == \"status\"" "$C/baseline.csv" | wc -l) = 4 ]'
# a baseline run of a peer this build lacks, as a build with the peers would have written it
printf 'capsule,siconos-notbuilt,status,converged,\ncapsule,siconos-notbuilt,residual,1e-9,2e-9\n' \
  >>"$C/baseline.csv"

# every run matched but the lacking peer's: passes, with a note naming the peer
run "$LB" check "$C"
ok "all-matched/exit-0" rc_is 0
ok "all-matched/counts-only-compared-runs" grep -q '^lcpbench check: [0-9]* figures of 4 runs within their bands' "$T/out"
ok "all-matched/peer-note" one_line_err '^lcpbench check: note: 1 baseline runs of peers this build lacks were not checked: siconos-notbuilt (1 of 1 runs: capsule)$'

# a changed setting on both solver lines: no run matches, nothing is compared
suite "solver pgs omega=1.2" "solver jacobi omega=0.8"
run "$LB" check "$C"
ok "nothing-compared/exit-1" rc_is 1
ok "nothing-compared/one-line" one_line_err '^lcpbench check: FAILED: nothing compared: none of the 5 runs of .*baseline.csv has a run in this check'
ok "nothing-compared/labels-not-matched" grep -q 'baseline labels not matched: pgs:omega=1.3 (2 of 2 runs: capsule stack8-mu0); jacobi:omega=0.9 (2 of 2 runs: capsule stack8-mu0); of them' "$T/err"
ok "nothing-compared/peers-apart" grep -q '; of them peers this build lacks: siconos-notbuilt (1 of 1 runs: capsule); ' "$T/err"
ok "nothing-compared/labels-run-instead" grep -q 'labels run here with no baseline: pgs:omega=1.2, jacobi:omega=0.8 (a changed setting changes the label' "$T/err"
ok "nothing-compared/no-success-line" bash -c "! grep -q 'within their bands' '$T/out'"

# one solver line changed: jacobi compared, pgs missing: a regression, the peer a note
suite "solver pgs omega=1.2" "solver jacobi omega=0.9"
run "$LB" check "$C"
ok "partial/exit-1" rc_is 1
ok "partial/missing-runs-named" grep -q '^lcpbench check: REGRESSION 2 baseline runs have no run here (.*): pgs:omega=1.3 (2 of 2 runs: capsule stack8-mu0)$' "$T/err"
ok "partial/peer-note-apart" grep -q '^lcpbench check: note: 1 baseline runs of peers this build lacks were not checked: siconos-notbuilt (1 of 1 runs: capsule)$' "$T/err"
ok "partial/new-label-warned" grep -q '^lcpbench check: warning: capsule pgs:omega=1.2 has no baseline' "$T/err"
ok "partial/failed-line" grep -q '^lcpbench check: FAILED against .*baseline.csv$' "$T/err"

# only the peer's runs in the baseline: nothing compared, and the line says why
awk -F, 'NR == 1 || $2 == "siconos-notbuilt"' "$C/baseline.csv" >"$T/peers-only.csv"
suite "solver pgs omega=1.3" "solver jacobi omega=0.9"
run "$LB" check "$C" --baseline "$T/peers-only.csv"
ok "peers-only/exit-1" rc_is 1
ok "peers-only/one-line" one_line_err '^lcpbench check: FAILED: nothing compared: none of the 1 runs of .*peers-only.csv has a run in this check; baseline labels not matched: none besides the peers; of them peers this build lacks: siconos-notbuilt (1 of 1 runs: capsule); labels run here with no baseline: pgs:omega=1.3, jacobi:omega=0.9$'

tap_done
