#!/usr/bin/env bash
# solvers_table.sh LCPBENCH SOURCE_ROOT: `lcpbench table solvers --quick' (four committed
# instances and sphere piles of 25, 35 and 45 spheres, frictionless and with friction; run
# from SOURCE_ROOT, where problems/instances/ is) end to end, as TAP: one row per instance x
# solver, the Newton methods refusing a friction index, exact counts known from
# lcp/README.md's table (pgs's 246 and 4286 sweeps, nncg's and apgd's work), every answer at
# 1e-8 within wdiff 1e-6 of ldlt-ref's, ldlt-ref at rounding, the claims with their verdicts
# (NNCG and PGS-SM faster than PGS on the stacks, the Newton methods' quadratic local rate,
# ADMM's one factorisation) and the figures and profiles.
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")   # absolute: the test runs from SRC
SRC=$2
. "$(dirname "$0")/../common/tap.sh"
PY=python3
cd "$SRC" || { echo "Bail out! $SRC"; exit 1; }
# val FILE.csv 'python boolean over row r' 'python expression': the value of the first match
val() {
  "$PY" - "$1" "$2" "$3" <<'PYEOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if eval(sys.argv[2]):
        print(eval(sys.argv[3])); break
PYEOF
}
inside() { "$PY" -c "import sys; v = float('$1'); sys.exit(0 if $2 <= v <= $3 else 1)" 2>/dev/null; }

D=$T/s
run "$LB" table solvers --quick --reps 1 --out "$D"
ok "solvers-table/exit-0" rc_is 0
C=$D/solvers.csv
ok "solvers-table/files" bash -c "for f in solvers.md solvers.csv claims.csv provenance.json plots/perf-work.csv plots/perf-time.csv plots/data-work-1e-08.csv plots/chain-step300-work.gp plots/pile-35-mu0-step100-time.csv history/stack-30-step100__nncg.csv; do [ -s '$D/'\$f ] || exit 1; done"
ok "solvers-table/one-row-per-pair" [ "$(awk 'NR > 1' "$C" | wc -l)" = 100 ]
ok "solvers-table/newton-refuses-friction" [ "$(val "$C" "r['friction'] == '1' and r['solver'].startswith('newton') and (r['ran'] != '0' or r['status'] != 'unsupported')" "'bad'")" = "" ]
ok "solvers-table/newton-runs-frictionless" [ "$(val "$C" "r['friction'] == '0' and r['solver'] == 'newton-min'" "r['ran']")" = 1 ]
# exact counts (lcp/README.md, "The field's solver families")
CHAIN="r['instance'] == 'chain-step300'"
STACK="r['instance'] == 'stack-30-step100'"
ok "solvers-table/chain-pgs-246-sweeps" [ "$(val "$C" "$CHAIN and r['solver'] == 'pgs'" "r['it_to_1e-8']")" = 246 ]
ok "solvers-table/chain-nncg-work-133" [ "$(val "$C" "$CHAIN and r['solver'] == 'nncg'" "r['work_to_1e-8']")" = 133 ]
ok "solvers-table/chain-newton-min-2-steps-39-products" [ "$(val "$C" "$CHAIN and r['solver'] == 'newton-min'" "r['iterations'] + '/' + r['work']")" = 2/39 ]
ok "solvers-table/stack30-pgs-4286-sweeps" [ "$(val "$C" "$STACK and r['solver'] == 'pgs'" "r['it_to_1e-8']")" = 4286 ]
ok "solvers-table/stack30-apgd-work-355" [ "$(val "$C" "$STACK and r['solver'] == 'apgd'" "r['work_to_1e-8']")" = 355 ]
ok "solvers-table/stack30-admm-work-1136" [ "$(val "$C" "$STACK and r['solver'] == 'admm'" "r['work_to_1e-8']")" = 1136 ]
ok "solvers-table/work-levels-ordered" [ "$(val "$C" "r['work_to_1e-8'] != '' and not (float(r['work_to_1e-4']) <= float(r['work_to_1e-6']) <= float(r['work_to_1e-8']) <= float(r['work']))" "'bad'")" = "" ]
# w is unique without friction; with friction pile-45 has another solution (nncg, admm)
ok "solvers-table/frictionless-answers-agree" [ "$(val "$C" "r['friction'] == '0' and r['it_to_1e-8'] != '' and r['solver'] != 'ldlt-ref' and not float(r['wdiff']) <= 1e-6" "r['instance'] + r['solver']")" = "" ]
ok "solvers-table/pile45-friction-another-solution" inside "$(val "$C" "r['instance'] == 'pile-45-step100' and r['solver'] == 'nncg'" "r['wdiff'] if float(r['residual']) <= 1e-8 else 'nan'")" 1e-3 1e-1
ok "solvers-table/ldlt-ref-at-rounding" [ "$(val "$C" "r['solver'] == 'ldlt-ref' and not (r['status'] == 'converged' and float(r['rel_residual']) <= 1e-12)" "'bad'")" = "" ]
ok "solvers-table/unreached-say-why" [ "$(val "$C" "r['ran'] == '1' and r['it_to_1e-8'] == '' and r['failure'] == ''" "'bad'")" = "" ]
# claims: 9 of the sources, 6 findings; the verdicts the quick grid gives
K=$D/claims.csv
ok "solvers-table/claims-9-source-6-findings" [ "$("$PY" -c "import csv, collections; print(sorted(collections.Counter(r['kind'] for r in csv.DictReader(open('$K'))).items()))")" = "[('finding', 6), ('source', 9)]" ]
ok "solvers-table/nncg-faster-held" [ "$(val "$K" "r['id'] == 'nncg-faster-than-pgs'" "r['verdict']")" = held ]
ok "solvers-table/nncg-stack30-ratio-0.0906" bash -c "grep '^nncg-faster-than-pgs,' '$K' | grep -q 'stack-30-step100 0.0906'"
ok "solvers-table/pgs-sm-faster-held" [ "$(val "$K" "r['id'] == 'pgs-sm-faster-than-pgs'" "r['verdict']")" = held ]
for m in newton-fb newton-min; do
  ok "solvers-table/$m-local-rate-held" [ "$(val "$K" "r['id'] == '$m-local-rate'" "r['verdict']")" = held ]
  ok "solvers-table/$m-order-about-2" inside "$(val "$K" "r['id'] == '$m-local-rate'" "r['numbers'].split()[3]")" 1.8 2.3
done
ok "solvers-table/admm-one-factorisation-held" [ "$(val "$K" "r['id'] == 'admm-one-factorisation'" "r['verdict']")" = held ]
ok "solvers-table/answers-agree-held" [ "$(val "$K" "r['id'] == 'answers-agree'" "r['verdict']")" = held ]
ok "solvers-table/ldlt-ref-rounding-held" [ "$(val "$K" "r['id'] == 'ldlt-ref-rounding'" "r['verdict']")" = held ]
ok "solvers-table/spg-friction-did-not-hold" [ "$(val "$K" "r['id'] == 'spg-friction'" "r['verdict']")" = "did not hold" ]
ok "solvers-table/md-two-lists-and-wins" bash -c "grep -q '^## Claims of the source' '$D/solvers.md' && grep -q '^## Findings of this suite' '$D/solvers.md' && grep -q '^## Where each family wins' '$D/solvers.md'"
# jacobi tests through an estimate: its levels come from the harness's residual every sweep
ok "solvers-table/jacobi-every-sweep" [ "$(wc -l <"$D/history/chain-step300__jacobi.csv")" = 973 ]
ok "solvers-table/chain-jacobi-369-sweeps-to-1e-4" [ "$(val "$C" "$CHAIN and r['solver'] == 'jacobi'" "r['it_to_1e-4'] + '/' + r['work_to_1e-4']")" = 369/369 ]
ok "solvers-table/history-work-column" [ "$(head -1 "$D/history/stack-30-step100__nncg.csv")" = "iteration,work,residual,time_s" ]
tap_done
