#!/usr/bin/env bash
# precision_table.sh LCPBENCH SOURCE_ROOT: `lcpbench table precision --quick' end to end, as
# TAP (run from SOURCE_ROOT, where problems/instances is): exit 0; the six quick instances at
# both precisions with the cap; every count is the first sweep of the history at or below its
# tolerance; float32 = float64 on the data exact in float32 (the stacks) and not on the
# capsule; beta = 2^-23 scale; the claims parse (six findings, each with a source, a metric,
# a threshold and a verdict of the kit's vocabulary) and their verdicts follow from the CSV's
# numbers (prec-floor, prec-reach, prec-1e-6); the figure's data; every CSV read by pandas
# without options (skipped without pandas).  Then the setting at the command line: pgs
# accepts precision=float32 and prints its run (runs.csv names it), jacobi and amgs-D refuse
# it with the settings table's one line, pgs refuses it with the assembled form
# (bad-argument) and on a folder without J and Minv (needs-factors).
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")     # absolute: the test runs in SRC
SRC=$2
. "$(dirname "$0")/../common/tap.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
cd "$SRC" || exit 1

run "$LB" table precision --quick --out "$T/p"
ok "precision/exit-0" rc_is 0
[ "$(cat "$T/rc")" = 0 ] || sed 's/^/# /' "$T/err"

check() {
  ok "$1" env PYTHONPATH="$COMMON" "$PY" -c "
import sys, math
from checks import table_rows, claims_by_id, one_row
d = sys.argv[1]
t, tt = table_rows(d, 'precision.csv', 'precision-time.csv')
claims = claims_by_id(d)
def one(**kv): return one_row(t, **kv)
$2
" "$T/p"
}

check "precision/instances-both-precisions" "
names = {'capsule-step1', 'three-spheres-step1', 'chain-step300', 'stack-30-step100',
         'boxes-tower-5-step10', 'pool-mu0-step100'}
assert {r['instance'] for r in t} == names, {r['instance'] for r in t}
for n in names:
    for p in ('float64', 'float32'):
        r = one(instance=n, precision=p)
        assert r['cap'] == '3000' and 0 < int(r['sweeps']) <= 3000, r"
check "precision/beta-is-2u-scale" "
for r in t:
    assert abs(float(r['beta_float32']) - 2.0 ** -23 * float(r['scale'])) <= 1e-6 * float(r['beta_float32']), r"
check "precision/exact-data-same-numbers" "
s64, s32 = one(instance='stack-30-step100', precision='float64'), one(instance='stack-30-step100', precision='float32')
for k in ('sweeps_to_1e-4', 'sweeps_to_1e-6', 'sweeps_to_1e-8', 'lowest_residual', 'lowest_at'):
    assert s64[k] == s32[k], (k, s64, s32)
c64, c32 = one(instance='capsule-step1', precision='float64'), one(instance='capsule-step1', precision='float32')
assert float(c64['lowest_residual']) < 1e-13 < float(c32['lowest_residual']) <= float(c32['beta_float32']), (c64, c32)
assert c64['sweeps_to_1e-8'] != '' and c32['sweeps_to_1e-8'] == '', (c64, c32)"
check "precision/pool-floor-above-1e-6" "
p64, p32 = one(instance='pool-mu0-step100', precision='float64'), one(instance='pool-mu0-step100', precision='float32')
assert float(p32['beta_float32']) > 1e-6 and p64['sweeps_to_1e-4'] == p32['sweeps_to_1e-4'] != '', (p64, p32)"
check "precision/timing-rows" "
assert [r['instance'] for r in tt] == ['pool-mu0-step100'], tt
r = tt[0]
assert float(r['bytes_float32']) < float(r['bytes_float64']) and float(r['sweep_float64_s']) > 0 and float(r['float64_over_floor']) > 0, r"
check "claims/six-findings-parse" "
ids = ['prec-floor', 'prec-rel', 'prec-reach', 'prec-1e-6', 'prec-sweeps', 'prec-faster']
assert sorted(claims) == sorted(ids), sorted(claims)
for i in ids:
    c = claims[i]
    assert c['kind'] == 'finding' and c['source'] and c['metric'] and c['threshold'] and c['statement'], c
    assert c['verdict'] in ('held', 'held, qualified', 'did not hold', 'not decidable', 'not tested'), c
assert claims['prec-faster']['verdict'] == 'not tested' and 'quick' in claims['prec-faster']['reason']"
check "claims/verdicts-follow-the-numbers" "
past = [r for r in t if r['precision'] == 'float32' and float(one(instance=r['instance'], precision='float64')['lowest_residual']) < float(r['beta_float32']) / 100]
assert past, t
floor = all(float(r['lowest_residual']) <= float(r['beta_float32']) for r in past)
assert claims['prec-floor']['verdict'] == ('held' if floor else 'did not hold'), claims['prec-floor']
cases = []
for n in {r['instance'] for r in t}:
    a, b = one(instance=n, precision='float64'), one(instance=n, precision='float32')
    for k in ('1e-4', '1e-6', '1e-8'):
        if a['sweeps_to_' + k] != '' and float(k) >= float(a['beta_float32']):
            cases.append(b['sweeps_to_' + k] != '')
assert cases and claims['prec-reach']['verdict'] == ('held' if all(cases) else 'did not hold'), claims['prec-reach']
c6 = [one(instance=n, precision='float32')['sweeps_to_1e-6'] != '' for n in {r['instance'] for r in t} if one(instance=n, precision='float64')['sweeps_to_1e-6'] != '']
assert c6 and claims['prec-1e-6']['verdict'] == ('held' if all(c6) else 'did not hold'), claims['prec-1e-6']"
ok "precision/figure-data" bash -c "grep -q '^\"[a-z0-9-]*, float32\",' '$T/p/plots/precision-residual.csv' && grep -q '^\"[a-z0-9-]*, float64\",' '$T/p/plots/precision-residual.csv' && [ -s '$T/p/plots/precision-residual.gp' ]"
ok "precision/markdown-lists-the-findings" bash -c "grep -q '^## Findings of this suite' '$T/p/precision.md' && [ \$(grep -c '^[0-9]\. \*\*' '$T/p/precision.md') = 6 ]"
if "$PY" -c 'import pandas' 2>/dev/null; then
  ok "precision/pandas-reads-every-csv" "$PY" -c "
import sys, glob, pandas
for f in glob.glob(sys.argv[1] + '/*.csv') + glob.glob(sys.argv[1] + '/plots/*.csv'):
    pandas.read_csv(f)
" "$T/p"
else
  echo "ok $((n += 1)) - precision/pandas-reads-every-csv # SKIP no pandas"
fi

# the setting at the command line
I=problems/instances/capsule-step1
run "$LB" solve "$I" --solver pgs --precision float32 --tol 1e-12 --maxit 100 --reps 0
ok "setting/pgs-float32-accepted" eval 'rc_is 0 && grep -q "^capsule-step1,pgs,max-iterations,100," "$T/out"'
for s in jacobi amgs-D; do
  run "$LB" solve "$I" --solver $s --precision float32 --reps 0
  ok "setting/$s-refuses-precision" eval "rc_is 2 && one_line_err '$s does not use --precision' && [ ! -s '$T/out' ]"
done
run "$LB" solve "$I" --solver pgs --precision float32 --form assembled --reps 0
ok "setting/pgs-float32-assembled-is-bad-argument" eval 'grep -q "^capsule-step1,pgs,bad-argument," "$T/out"'
mkdir "$T/noJ" && cp "$I/A.mtx" "$I/q.mtx" "$T/noJ/"
run "$LB" solve "$T/noJ" --solver pgs --precision float32 --reps 0
ok "setting/pgs-float32-without-factors-is-needs-factors" eval 'grep -q "^noJ,pgs,needs-factors," "$T/out"'
printf 'instance %s\nset reps=0 maxit=20\nsolver pgs precision=float32 label=p32\nsolver pgs label=p64\n' "$SRC/$I" >"$T/s.txt"
run "$LB" run "$T/s.txt" --out "$T/r" --no-plots
ok "setting/runs-csv-names-the-precision" env PYTHONPATH="$COMMON" "$PY" -c "
import sys
from checks import table_rows
r = {x['label']: x for x in table_rows(sys.argv[1], 'runs.csv')[0]}
assert r['p32']['precision'] == 'float32' and r['p64']['precision'] == 'float64', r
" "$T/r"
tap_done
