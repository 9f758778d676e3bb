#!/usr/bin/env bash
# transversal_table.sh LCPBENCH: `lcpbench table transversal --quick' end to end, as TAP: the
# numbers that matter (towed N = 20 omega_max 63.06 against the analytic string, every
# measured onset within 2% of h_crit = 2 / omega_max, the symplectic Euler growth at 1.25
# h_crit, hang 100's h_crit 9.53 ms, Francu's beta* = 0.65, the outcomes that
# results/README.md, "transversal/", reports), the claims in two lists (14 of the sources,
# FB3-diag, FA1-mode, FA5-2hc, FB2-vts, FB4-half ours) with verdicts that follow from those numbers, every CSV read by pandas
# without options, and the figures.
# The numbers are read with /usr/bin/python3 (csv module); the pandas check is skipped when
# that python has no pandas.
set -u
LB=$1
. "$(dirname "$0")/../common/tap.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

run "$LB" table transversal --quick --out "$T/tv"
ok "transversal/exit-0" rc_is 0
[ "$(cat "$T/rc")" = 0 ] || cat "$T/err" | sed 's/^/# /'

# check NAME PYTHON: rows of the table's CSVs as dicts (t1, t2, t3, t4, t5, t6, claims) and
# a helper near(a, b, rel); the python code asserts
check() {
  local name=$1
  ok "$name" env PYTHONPATH="$COMMON" "$PY" -c "
import sys, os
from checks import table_rows, claims_by_id, one_row as one
d = sys.argv[1]
t1, t2, t3, t4, t6 = table_rows(d, 't1-onset.csv', 't2-steppers.csv', 't3-beta.csv',
                                't4-pgs.csv', 't6-energy.csv')
claims = claims_by_id(d)
def near(a, b, rel): return abs(float(a) / float(b) - 1) <= rel
$2
" "$T/tv"
}

check "t1/towed-20-omega-max-63.06" "
r = one(t1, scene='towed', N='20', param='F=10')
assert near(r['omega_restricted'], 63.06, 1e-3) and near(r['omega_analytic'], 63.06, 1e-3), r
assert near(r['omega_full'], r['omega_restricted'], 1e-10) and near(r['omega_EK'], r['omega_restricted'], 1e-10), r
assert near(r['h_crit'], 0.031716, 1e-4), r"
check "t1/onset-within-2pct-of-h-crit" "
rs = [r for r in t1 if r['h_onset']]
assert len(rs) == 3, len(rs)
for r in rs: assert abs(float(r['onset_ratio']) - 1) <= 0.02 and near(float(r['h_onset']) / float(r['h_crit']), float(r['onset_ratio']), 1e-5), r"
check "t1/growth-at-1.25-is-symplectic-euler" "
for r in t1:
    if r['mu_pred_125']: assert near(r['mu_meas_125'], r['mu_pred_125'], 0.05) and near(r['mu_pred_125'], 4.0, 1e-6), r"
check "t1/hang-100-h-crit-9.53ms" "
r = one(t1, scene='hang', param='ratio=100')
assert abs(float(r['h_crit']) - 0.00953) <= 0.000005, r
assert 0.0094 < float(r['h_onset']) < 0.0097, r"
check "t1/towed-no-tension-no-limit" "
r = one(t1, scene='towed', param='F=0')
assert float(r['omega_restricted']) == 0 and r['h_crit'] == '' and r['h_onset'] == '', r"
check "t1/mac-random-offset-0.53-tiny-0.974" "
r = one(t1, scene='towed', N='20', param='F=10')
assert abs(float(r['mac_top']) - 0.531) <= 0.01 and float(r['et_share_125']) >= 0.99, r
assert 'gives MAC 0.974 instead of 0.531' in open(os.path.join(d, 'transversal.md')).read()"
check "t2/towed-vts-jitters-at-1.07-ivts-pbd-gsd-quiet" "
c = [r for r in t2 if r['scene'] == 'towed' and r['h_over_hcrit'] == '1.07']
o = {(r['stepper'], r['iters']): r['outcome'] for r in c}
assert o[('vts', '')] == 'jitter' and o[('ivts-francu', '20')] == 'quiet', o
assert o[('pbd', '20')] == 'quiet' and o[('gsd', '')] == 'quiet' and o[('shake', '')] == 'exploded', o"
check "t2/fp-jitters-below-h-crit" "
r = one(t2, scene='towed', h_over_hcrit='0.95', stepper='fp')
assert r['outcome'] == 'jitter', r"
check "t2/gsfull-quiet-at-10-h-crit" "
r = one(t2, scene='towed', h_over_hcrit='10', stepper='gsfull')
assert r['outcome'] == 'quiet' and float(r['max_stretch']) <= 1e-10, r"
check "t2/thread-jstar-ivts-pbd-vts" "
j = {r['stepper']: float(r['Jstar']) for r in t2 if r['scene'] == 'thread' and r['stepper'] in ('vts', 'ivts-francu', 'pbd')}
assert j['ivts-francu'] < j['pbd'] < j['vts'] and 1e-5 < j['ivts-francu'] < 1e-4, j"
check "t2/fc1-verdict-follows-gsd-on-mass-ratios" "
g = [r for r in t2 if r['scene'] == 'hang' and r['stepper'] == 'gsd' and r['param'] in ('ratio=100', 'ratio=10000', 'ratio=1e+06')]
assert len(g) >= 2 and any(r['param'] == 'ratio=1e+06' for r in g), g
good = all(r['outcome'] == 'quiet' and float(r['max_stretch']) <= 0.01 for r in g)
assert claims['FC1']['verdict'] == ('held' if good else 'did not hold'), (claims['FC1'], g)"
check "t3/beta-0.60-survives-0.65-explodes-cos-negative" "
b = {r['beta']: r for r in t3}
assert b['0.60']['outcome'] != 'exploded' and b['0.65']['outcome'] == 'exploded', b
assert b['1.00']['outcome'] == 'exploded' and float(b['0.65']['cos_at_fail']) < -0.9, b"
check "t4/towed-0.95-k-min-warm-1-cold-100" "
k = {r['start']: r['k_min'] for r in t4 if r['scene'] == 'towed' and r['h_over_hcrit'] == '0.95'}
assert k == {'warm': '1', 'cold': '100'}, k"
check "t6/vts-keeps-swing-gsd-dissipates" "
a = {r['stepper']: float(r['amp_ratio']) for r in t6}
assert a['vts'] >= 0.95 and a['gsd'] <= 0.5 and 0.5 < a['pbd'] < 0.8, a"
check "claims/19-ids-5-findings-ours" "
ids = ['FA1', 'FA2', 'FA2b', 'FA3', 'FA4', 'FA5', 'FB1', 'FB2', 'FB3', 'FB3-diag', 'FB4', 'FB5', 'FC1', 'FC2', 'FD1', 'FA1-mode', 'FA5-2hc', 'FB2-vts', 'FB4-half']
assert sorted(claims) == sorted(ids), sorted(claims)
assert [i for i in ids if claims[i]['kind'] == 'finding'] == ['FB3-diag', 'FA1-mode', 'FA5-2hc', 'FB2-vts', 'FB4-half'], claims
assert all(claims[i]['source'] and claims[i]['threshold'] for i in ids)"
check "claims/verdicts-from-numbers" "
v = {i: c['verdict'] for i, c in claims.items()}
held = ['FA1', 'FA2', 'FA2b', 'FA5', 'FB1', 'FB2', 'FB3', 'FB4', 'FC2', 'FD1']
nothold = ['FA1-mode', 'FA5-2hc', 'FB2-vts', 'FB4-half', 'FB3-diag']
assert all(v[i] == 'held' for i in held) and all(v[i] == 'did not hold' for i in nothold), v
assert 'vts/ivts' in claims['FB2-vts']['numbers'] and '(no)' in claims['FB2-vts']['numbers']
assert 'ivts/pbd' in claims['FB2']['numbers'] and '(no)' not in claims['FB2']['numbers']"
ok "t4/onset-instance-captured" bash -c "ls '$T/tv'/instances/towed-0.95hc-cold-pgs1-step*/A.mtx >/dev/null && grep -q '^Captured: \`instances/towed-0.95hc-cold-pgs1-step' '$T/tv/transversal.md'"
ok "claims/two-lists-in-markdown" bash -c "grep -q '^## Claims of the source' '$T/tv/transversal.md' && grep -q '^## Findings of this suite' '$T/tv/transversal.md' && grep -q 'FB3-diag' '$T/tv/transversal.md'"

# every CSV read by pandas without options, in one python (pandas is slow to import)
"$PY" "$COMMON/checks.py" csv_verdicts "$T/tv" 2 1 >"$T/pd" 2>/dev/null
case $? in
  3) ok "csv/pandas # SKIP $PY has no pandas" true ;;
  *) ok "csv/pandas-16-files" bash -c "[ \$(wc -l <'$T/pd') = 16 ]"
     while read -r g f; do ok "csv/pandas $f" [ "$g" = 1 ]; done <"$T/pd" ;;
esac
if command -v gnuplot >/dev/null; then
  ok "figures/f1-f8-png" bash -c "cd '$T/tv/plots' && for b in f1-onset f2-growth f3-spectrum f4-jstar f5-beta f6-chain-homega f6-chain-enyq f7-mode f8-kmin; do [ -s \$b.png ] && [ -s \$b.gp ] && [ -s \$b.csv ] || exit 1; done"
else
  ok "figures/f1-f8-png # SKIP gnuplot not found" true
fi
tap_done
