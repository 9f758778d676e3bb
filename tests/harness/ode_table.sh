#!/usr/bin/env bash
# ode_table.sh LCPBENCH: `lcpbench table ode --quick' end to end, as TAP: dantzig on a
# friction instance solves the problem with the bounds its pass froze to rounding while its
# coupled residual is large (capsule: 0.32), the all-bilateral chain is one factorisation and
# no pivot, quickstep's 20-sweep rows at omega 1.3 (cold, warm 0.9, warm 1) are present with
# exactly 20 sweeps, dantzig stops `partial' on the eps = 0 pile, the D3 exponents are the
# least-squares slopes of log time on log m of the table's own rows (the times themselves are
# not asserted: a test machine's load moves them; the claims' thresholds are the table's),
# the D4 slides stop near v0^2 / (2 mu g) = 5.10 m with every solver,
# claims O1-O8 of the source and F1-F3 of the suite in two lists with verdicts that follow
# from the numbers, and every CSV read by pandas without options.
# The numbers are read with /usr/bin/python3 (csv module); the pandas check is skipped when
# that python has no pandas.
set -u
LB=$1
. "$(dirname "$0")/../common/tap.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

run "$LB" table ode --quick --out "$T/o"
ok "ode/exit-0" rc_is 0
[ "$(cat "$T/rc")" = 0 ] || sed 's/^/# /' "$T/err"

check() {
  ok "$1" env PYTHONPATH="$COMMON" "$PY" -c "
import sys
from checks import table_rows, claims_by_id, one_row
d = sys.argv[1]
def rows(f): return table_rows(d, f)[0]
t, sc = table_rows(d, 'ode.csv', 'ode-scaling.csv')
claims = claims_by_id(d)
def one(**kv): return one_row(t, **kv)
$2
" "$T/o"
}

check "d1/dantzig-capsule-frozen-at-rounding-coupled-0.32" "
r = one(instance='capsule', setting='dantzig')
assert r['status'] == 'friction-not-settled' and float(r['frozen_residual']) <= 1e-14, r
assert 0.25 <= float(r['residual_inf']) <= 0.4, r"
check "d1/dantzig-rounds-capsule-coupled-at-rounding" "
r = one(instance='capsule', setting='dantzig-rounds')
assert r['status'] == 'converged' and float(r['residual_inf']) <= 1e-12, r"
check "d1/chain-one-factorisation-no-pivot" "
r = one(instance='chain', setting='dantzig')
assert r['factorizations'] == '1' and r['pivots'] == '0' and float(r['zdiff']) <= 1e-13, r"
check "d1/quickstep-20-sweeps-cold-warm0.9-warm1" "
for i in ('capsule', 'three-spheres', 'chain', 'stack-30'):
    for s in ('qs20-cold', 'qs20-warm0.9', 'qs20-warm1', 'qs20-omega1'):
        r = one(instance=i, setting=s)
        assert r['iterations'] == '20' and r['status'] == 'max-iterations' and float(r['time_s']) > 0, r"
check "d1/warm-start-matters-on-stack" "
c, w9, w1 = (float(one(instance='stack-30', setting=s)['wdiff']) for s in ('qs20-cold', 'qs20-warm0.9', 'qs20-warm1'))
assert w1 < 1e-6 < w9 < c, (c, w9, w1)"
check "d2/eps0-pile-partial-row-and-zeroed" "
r = one(instance='pool50-mu0-eps0', setting='dantzig')
assert r['status'] == 'partial' and int(r['partial_row']) > 0 and 0 < float(r['rows_zeroed']) < 1, r
assert one(instance='pool50-mu0-eps0', setting='ldlt-ref')['status'] == 'converged'"
check "d3/exponents-fitted" "
import math
p = {(r['series'], r['setting']): r for r in sc}
for st in ('dantzig', 'ldlt-ref', 'qs20-cold', 'qs20-warm1'):
    r = p[('pool', st)]
    pts = [(math.log(float(x['m'])), math.log(float(x['time_s']))) for x in t
           if x['part'] == 'D3' and x['instance'].startswith('pool') and x['setting'] == st]
    n = len(pts)
    mx, my = sum(a for a, b in pts) / n, sum(b for a, b in pts) / n
    e = sum((a - mx) * (b - my) for a, b in pts) / sum((a - mx) ** 2 for a, b in pts)
    assert r['points'] == str(n) == '3' and r['exponent_stderr'] != '', r
    assert abs(float(r['exponent']) - e) <= 1e-3, (st, r['exponent'], e)"
check "claims/o1-o8-source-f1-f3-ours" "
ids = ['O%d' % k for k in range(1, 9)] + ['F1', 'F2', 'F3']
assert sorted(claims) == sorted(ids), sorted(claims)
assert all(claims[i]['kind'] == ('finding' if i[0] == 'F' else 'source') for i in ids), claims
assert all(claims[i]['source'] and claims[i]['threshold'] for i in ids)
assert all('wiki' in claims[i]['source'] for i in ('O1', 'O2', 'O3', 'O8'))
assert all('source comment' in claims[i]['source'] for i in ('O4', 'O6', 'O7'))"
check "claims/verdicts-from-numbers" "
v = {i: c['verdict'] for i, c in claims.items()}
assert v['O1'] == 'held' and v['O2'] == 'held' and v['O3'] == 'held' and v['O4'] == 'held', v
sim = {(r['simulation'], r['setting']): r for r in rows('ode-sim.csv')}
o7 = []
for n in ('capsule-mu1', 'three-spheres-mu1'):
    c, w9, w1 = (float(sim[(n, s)]['wdiff_mean']) for s in ('qs20-cold', 'qs20-warm0.9', 'qs20-warm1'))
    o7.append(w1 > c and w9 > c)
assert v['O7'] == ('held' if all(o7) else 'did not hold'), (v['O7'], o7)
assert v['F1'] == 'held', v
o5 = [float(x.split()[1]) for x in claims['O5']['numbers'].split('; ')]
assert v['O5'] == ('held' if all(x < 1 for x in o5) else 'did not hold'), (v['O5'], o5)"
check "d4/slides-stop-near-5.10m-every-solver" "
sim = rows('ode-sim.csv')
assert len(sim) == 8, len(sim)
for r in sim:
    assert r['steps'] == '300' and 4.9 <= float(r['distance_body0']) <= 5.2, r
    assert float(r['kinetic_energy_end']) < 0.01 * float(r['kinetic_energy_start']), r
    assert float(r['max_penetration']) < 1e-3 and float(r['wdiff_mean']) < 1e-3, r"
ok "claims/two-lists-in-markdown" bash -c "grep -q '^## Claims of the source' '$T/o/ode.md' && grep -q '^## Findings of this suite' '$T/o/ode.md' && grep -q '^## D3' '$T/o/ode.md'"
ok "registry/ode-sor-gone" bash -c "! '$LB' table ode-sor --out '$T/x' 2>/dev/null"

"$PY" "$COMMON/checks.py" csv_verdicts "$T/o" 2 1 ode.csv ode-scaling.csv ode-sim.csv claims.csv \
  runs.csv >"$T/pd" 2>/dev/null
case $? in
  3) ok "csv/pandas # SKIP $PY has no pandas" true ;;
  *) while read -r g f; do ok "csv/pandas $f" [ "$g" = 1 ]; done <"$T/pd" ;;
esac
if command -v gnuplot >/dev/null; then
  ok "figures/ode-time-png" bash -c "[ -s '$T/o/plots/ode-time.png' ] && [ -s '$T/o/plots/ode-time.csv' ]"
else
  ok "figures/ode-time-png # SKIP gnuplot not found" true
fi
tap_done
