#!/usr/bin/env bash
# peers_table.sh LCPBENCH CHECK_INSTANCES: `lcpbench table peers' in its quick form (two tiny
# instances: stack8-mu0, a standard LCP every peer accepts, and capsule, with friction), as
# TAP: every registered peer appears in its tables, ldlt-ref's residual is at rounding, the
# known failures are listed (ODE's and Bullet's Dantzig off on the sliding capsule, Siconos
# refusing friction), its CSVs read with pandas without options, and `lcpbench solve' with
# peers and ours gives one CSV with the same columns for all.
set -u
LB=$1
CI=$2
. "$(dirname "$0")/../common/tap.sh"
rc_and_line() { rc_is "$1" && one_line_err "$2"; }

PEERS=$("$LB" list solvers | awk '{print $1}' | grep -E '^(siconos|ode|bullet)-')
D=$T/p
run "$LB" table peers --out "$D" --no-canonical --instances "$CI/stack8-mu0" "$CI/capsule" --reps 1
ok "peers-table/exit-0" rc_is 0
ok "peers-table/files" bash -c "for f in peers.md peers.csv failures.csv claims.csv runs.csv provenance.json plots/perf-time.csv plots/data-1e-06.csv; do [ -s '$D/'\$f ] || exit 1; done"
# every registered solver has one row per instance; every peer built in appears
ok "peers-table/one-row-per-pair" bash -c "[ \$(awk 'NR>1' '$D/peers.csv' | wc -l) = \$(( 2 * \$('$LB' list solvers | wc -l) )) ]"
if [ -z "$PEERS" ]; then
  ok "peers-table/every-peer-appears # SKIP built without peers (-Dpeers, libraries absent)" true
else
  for p in $PEERS; do
    ok "peers-table/appears $p" bash -c "[ \$(awk -F, -v s=$p '\$4 == s' '$D/peers.csv' | wc -l) = 2 ] && grep -q '^- \`$p\`' '$D/peers.md'"
  done
fi
# peers.csv columns: 4 solver, 5 library, 6 ran, 7 status, 8 peer_status, 10 residual,
# 11 rel_residual, 12 zdiff, 18 time_at_cap, 19 solved, 20 failure
# ldlt-ref, the reference, at rounding on both (rel_residual)
ok "peers-table/ldlt-ref-at-rounding" bash -c "awk -F, '\$4 == \"ldlt-ref\" { n++; if (!(\$11 != \"\" && \$11 + 0 <= 1e-12 && \$7 == \"converged\")) bad = 1 } END { exit !(n == 2 && !bad) }' '$D/peers.csv'"
# the failure rule is the tolerance asked: our runs with ||r||_2 <= 1e-6 solve, zdiff above
# 1e-6 or not (stack8-mu0: pgs and the others stop at 1e-6 with zdiff about 1e-5)
ok "peers-table/ours-solve-at-tol-whatever-zdiff" bash -c "awk -F, '\$5 == \"ours\" && \$10 != \"\" && \$10 + 0 <= 1e-6 { n++; if (\$19 != 1 || \$20 != \"\") bad = 1; if (\$12 + 0 > 1e-6) big++ } END { exit !(n > 0 && big > 0 && !bad) }' '$D/peers.csv'"
ok "peers-table/zdiff-never-a-failure" bash -c "! grep -q 'zdiff [0-9.e+-]* >' '$D/failures.csv' '$D/peers.csv'"
ok "peers-table/finding-ldlt-ref-rounding-held" grep -q '^ldlt-ref-rounding,finding,.*,held,' "$D/claims.csv"
# the finding is row-wise (max_i |r_i| / ((|A||z|)_i + |q_i|) <= 16 eps), the norm-wise
# ||r||_2 / max(1, ||q||_2) beside each case
rowwise() { python3 - "$1" "$2" <<'PY'
import csv, sys
c = {r['id']: r for r in csv.DictReader(open(sys.argv[1]))}['ldlt-ref-rounding']
cases = c['numbers'].split('; ')
assert len(cases) == int(sys.argv[2]) and c['verdict'] == 'held', c
for x in cases:
    name, rel, v = x.split()[0], float(x.split('(rel ')[1].split(')')[0]), float(x.split()[-1])
    assert 0 <= v <= 16 * 2.220446049250313e-16 and rel >= 0, x
assert '16 eps' in c['threshold'] and 'row-wise' in c['metric'] and 'norm-wise' in c['changed'], c
print(c['numbers'])
PY
}
ok "peers-table/ldlt-ref-rounding-row-wise" rowwise "$D/claims.csv" 2
# mass-ratio-1e4 (|A| up to 6e4): at rounding row by row (1.1e-16) where the norm-wise
# relative residual reads 8.8e-12, above the 1e-12 the finding used to ask
MR=$(cd "$(dirname "$0")/../.." && pwd)/problems/instances/mass-ratio-1e4-step10
if [ -d "$MR" ]; then
  run "$LB" table peers --out "$T/mr" --no-canonical --instances "$MR" --reps 1
  ok "peers-table/mass-ratio-exit-0" rc_is 0
  ok "peers-table/mass-ratio-ldlt-ref-rounding-row-wise" rowwise "$T/mr/claims.csv" 1
  ok "peers-table/mass-ratio-norm-wise-above-1e-12" python3 -c "
import csv, sys
c = {r['id']: r for r in csv.DictReader(open(sys.argv[1]))}['ldlt-ref-rounding']
x = c['numbers']
rel, v = float(x.split('(rel ')[1].split(')')[0]), float(x.split()[-1])
assert x.startswith('mass-ratio-1e4-step10 ') and rel > 1e-12 and v <= 2 * 2.220446049250313e-16, x
" "$T/mr/claims.csv"
else
  ok "peers-table/mass-ratio # SKIP problems/instances/mass-ratio-1e4-step10 not found" true
fi
# failures are listed per tool: refused pairs (mgs takes no friction) and, with the peers,
# the frozen-friction Dantzig answers on capsule and Siconos's refusal of friction
ok "peers-table/failures-section" bash -c "grep -q '^## Where each tool fails' '$D/peers.md' && grep -q '^- \`mgs\` (ours): [12] of 2: .*capsule (refused (unsupported))' '$D/peers.md'"
ok "peers-table/failures-csv-refused" grep -q '^mgs,ours,capsule,6,refused (unsupported),' "$D/failures.csv"
ok "peers-table/no-failure-ldlt-ref" bash -c "! grep -q '^ldlt-ref,' '$D/failures.csv'"
if echo "$PEERS" | grep -qx ode-dantzig; then
  ok "peers-table/ode-dantzig-capsule-failure-listed" bash -c "grep -q '^ode-dantzig,ode,capsule,6,\"*residual [0-9.e+-]* > 1e-6' '$D/failures.csv' && grep -q '^- \`ode-dantzig\` (ode): 1 of 2: capsule (residual' '$D/peers.md'"
  # ODE's Dantzig says converged on the sliding capsule (it froze the friction bounds): its
  # own verdict is peer_status, the status the suite's from ||r||_2 (0.46 > 1e-6)
  ok "peers-table/ode-dantzig-own-converged-is-peer-status" bash -c "awk -F, '\$1 == \"capsule\" && \$4 == \"ode-dantzig\" { f = (\$7 == \"not-converged\" && \$8 == \"converged\" && \$10 + 0 > 1e-6 && \$19 == 0) } END { exit !f }' '$D/peers.csv'"
  ok "peers-table/ode-dantzig-solves-standard" bash -c "awk -F, '\$1 == \"stack8-mu0\" && \$4 == \"ode-dantzig\" { f = (\$19 == 1 && \$10 + 0 <= 1e-12) } END { exit !f }' '$D/peers.csv'"
  ok "peers-table/finding-ode-did-not-hold" grep -q '^ode-dantzig-solves,finding,.*,did not hold,.*capsule [0-9.e+-]* (no)' "$D/claims.csv"
else
  ok "peers-table/ode-dantzig-capsule-failure-listed # SKIP ode-dantzig not built" true
  ok "peers-table/ode-dantzig-solves-standard # SKIP ode-dantzig not built" true
  ok "peers-table/finding-ode-did-not-hold # SKIP ode-dantzig not built" true
fi
if echo "$PEERS" | grep -qx siconos-lemke; then
  ok "peers-table/siconos-refuses-friction" grep -q '^siconos-lemke,siconos,capsule,6,refused (unsupported),' "$D/failures.csv"
else
  ok "peers-table/siconos-refuses-friction # SKIP siconos-lemke not built" true
fi
ok "peers-table/wins-and-losses-section" grep -q '^## Where each peer wins and loses' "$D/peers.md"
# every answer of a peer is judged by its residual: converged exactly when ||r||_2 <= 1e-6
NEED=0; [ -n "$PEERS" ] && NEED=1
ok "peers-table/peer-status-is-the-residual-verdict" bash -c "awk -F, -v need=$NEED 'NR > 1 && \$5 != \"ours\" && \$10 != \"\" { n++; want = \$10 + 0 <= 1e-6 ? \"converged\" : \"not-converged\"; if (\$7 != want || \$8 == \"\") bad = 1 } NR > 1 && \$5 == \"ours\" && \$8 != \"\" { bad = 1 } END { exit !(!bad && n >= need) }' '$D/peers.csv'"
# Bullet's PGS does not report its sweeps: its timing runs repeat the whole cap, so its time
# is marked at cap and its speed finding is not tested
if echo "$PEERS" | grep -qx bullet-pgs; then
  ok "peers-table/bullet-pgs-time-at-cap" bash -c "awk -F, '\$4 == \"bullet-pgs\" && \$6 == 1 { n++; if (\$18 != 1) bad = 1 } END { exit !(n > 0 && !bad) }' '$D/peers.csv' && grep -q '^| bullet-pgs.*, at cap)' '$D/peers.md'"
  ok "peers-table/bullet-pgs-speed-not-tested" grep -q '^bullet-pgs-faster,finding,.*,not tested,,its times were measured at its iteration cap' "$D/claims.csv"
else
  ok "peers-table/bullet-pgs-time-at-cap # SKIP bullet-pgs not built" true
  ok "peers-table/bullet-pgs-speed-not-tested # SKIP bullet-pgs not built" true
fi
ok "peers-table/no-nan" bash -c "! grep -qi 'nan' '$D/peers.csv' '$D/failures.csv'"

# the table's CSVs read with pandas without options (the system python: the one with pandas)
PY=/usr/bin/python3
if ! [ -x "$PY" ] || ! "$PY" -c 'import pandas' 2>/dev/null; then
  ok "peers-table/pandas # SKIP /usr/bin/python3 with pandas not found" true
else
  for f in peers.csv failures.csv claims.csv plots/perf-time.csv plots/data-1e-06.csv; do
    ok "peers-table/pandas $f" "$PY" "$COMMON/checks.py" csv_reads_plain "$D/$f" 3 1
  done
  ok "peers-table/pandas-columns" "$PY" -c "
import sys, pandas
d = pandas.read_csv(sys.argv[1])
need = ['instance', 'rows', 'solver', 'library', 'ran', 'status', 'peer_status', 'iterations',
        'residual', 'rel_residual', 'zdiff', 'wdiff', 'time_s', 'time_min_s', 'time_at_cap',
        'solved', 'failure']
assert all(c in d.columns for c in need), list(d.columns)
assert d[d.solver == 'ldlt-ref'].residual.max() <= 1e-12
assert list(d.columns[6:8]) == ['status', 'peer_status'], list(d.columns)
" "$D/peers.csv"
fi

# lcpbench solve with peers and ours: one CSV, the same columns for all, every residual there
if echo "$PEERS" | grep -qx siconos-lemke && echo "$PEERS" | grep -qx ode-dantzig &&
   echo "$PEERS" | grep -qx bullet-pgs; then
  run "$LB" solve "$CI/stack8-mu0" --solver siconos-lemke,ode-dantzig,bullet-pgs,pgs,ldlt-ref --reps 1
  ok "solve/peers-and-ours-exit-0" rc_is 0
  ok "solve/peers-and-ours-one-csv" bash -c "[ \$(wc -l <'$T/out') = 6 ] && awk -F, 'NR == 1 { n = NF; ci = 0; for (k = 1; k <= NF; k++) { if (\$k == \"residual\") cr = k; if (\$k == \"zdiff\") cz = k } } NR > 1 { if (NF != n || \$cr == \"\" || \$cz == \"\") exit 1 } END { exit !(cr && cz) }' '$T/out'"
  # a peer that says converged by its own test while ||r||_2 misses the tolerance asked:
  # Bullet's PGS stops on its sum of squared updates (< tol^2), on chain6 at ||r||_2 8e-6
  # (solve's columns: 3 status, 5 residual, 22 peer_status)
  run "$LB" solve "$CI/chain6" --solver bullet-pgs --tol 1e-6 --reps 0
  ok "solve/bullet-pgs-own-converged-misses-tol" bash -c "awk -F, 'NR == 2 { f = (\$3 == \"not-converged\" && \$22 == \"converged\" && \$5 + 0 > 1e-6) } END { exit !f }' '$T/out'"
  # a direct peer's exact answer against a tolerance no double reaches: the tol asked of the
  # others on the command line judges it too (it takes none itself)
  run "$LB" solve "$CI/stack8-mu0" --solver pgs,siconos-lemke --tol 1e-30 --maxit 20 --reps 0
  ok "solve/siconos-lemke-judged-by-the-tol-asked" bash -c "awk -F, '\$2 == \"siconos-lemke\" { f = (\$3 == \"not-converged\" && \$22 == \"converged\") } \$2 == \"pgs\" { p = (\$3 == \"max-iterations\" && \$22 == \"\") } END { exit !(f && p) }' '$T/out'"
  # the same through a suite's `set tol=' (runs.csv: status, peer_status by name)
  printf '%s\n' "instance $CI/stack8-mu0" 'set tol=1e-30 reps=0' 'solver siconos-lemke' 'solver ode-dantzig' > "$T/judge.suite"
  run "$LB" run "$T/judge.suite" --out "$T/judge"
  ok "run/set-tol-judges-direct-peers" bash -c "awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) { if (\$k == \"status\") cs = k; if (\$k == \"peer_status\") cp = k }; next } { n++; if (\$cs != \"not-converged\" || \$cp != \"converged\") bad = 1 } END { exit !(cs && cp && n == 2 && !bad) }' '$T/judge/runs.csv'"
else
  for n in peers-and-ours-exit-0 peers-and-ours-one-csv bullet-pgs-own-converged-misses-tol siconos-lemke-judged-by-the-tol-asked; do
    ok "solve/$n # SKIP the peers are not built" true
  done
  ok "run/set-tol-judges-direct-peers # SKIP the peers are not built" true
fi

# --timeout reaches every run: a generous limit is carried in every row (runs.csv `timeout')
# and cuts nothing; a limit of 1e-6 s is past before any solve can answer (the deadline is
# taken before the run's fork, on CLOCK_MONOTONIC, and checked before each read of the
# child's answer), so every run, ours and the peers', is cut and listed as timed out
tcol() { awk -F, -v want="$2" -v col="$3" 'NR == 1 { for (k = 1; k <= NF; k++) { if ($k == "timeout") ct = k; if ($k == "status") cs = k }; next } { n++; if ($ct != want) bad = 1; if (col == "all-timeout" && $cs != "timeout") bad = 1; if (col == "none-timeout" && $cs == "timeout") bad = 1 } END { exit !(ct && cs && n > 0 && !bad) }' "$1/runs.csv"; }
D60=$T/p60
run "$LB" table peers --out "$D60" --no-canonical --instances "$CI/stack8-mu0" --reps 1 --timeout 60
ok "peers-table/timeout-60-exit-0" rc_is 0
ok "peers-table/timeout-60-in-every-row" tcol "$D60" 60 none-timeout
ok "peers-table/timeout-60-rows-are-the-ran-pairs" bash -c "[ \$(awk 'NR>1' '$D60/runs.csv' | wc -l) = \$(awk -F, '\$6 == 1' '$D60/peers.csv' | wc -l) ]"
ok "peers-table/timeout-60-in-md" grep -q 'Each run is limited to 60 s (--timeout)' "$D60/peers.md"
ok "peers-table/timeout-60-in-provenance" grep -q '"--timeout", "60"' "$D60/provenance.json"
ok "peers-table/timeout-60-ldlt-ref-solves" bash -c "awk -F, '\$4 == \"ldlt-ref\" { f = (\$7 == \"converged\" && \$19 == 1) } END { exit !f }' '$D60/peers.csv'"
DT=$T/pt
run "$LB" table peers --out "$DT" --no-canonical --instances "$CI/stack8-mu0" "$CI/capsule" --reps 1 --timeout 1e-6
ok "peers-table/timeout-tiny-exit-0" rc_is 0
ok "peers-table/timeout-tiny-every-run-cut" tcol "$DT" 1e-06 all-timeout
ok "peers-table/timeout-tiny-peers-csv" bash -c "awk -F, '\$6 == 1 { n++; if (\$7 != \"timeout\" || \$8 != \"\" || \$19 != 0 || \$20 != \"timed out (--timeout 1e-06 s)\") bad = 1 } END { exit !(n > 0 && !bad) }' '$DT/peers.csv'"
ok "peers-table/timeout-tiny-ldlt-ref-rounding-not-measured" grep -q '^ldlt-ref-rounding,finding,.*,not tested,.*stack8-mu0: not measured' "$DT/claims.csv"
ok "peers-table/timeout-tiny-failure-listed" bash -c "grep -q '^ldlt-ref,ours,stack8-mu0,8,timed out (--timeout 1e-06 s),timeout,,,\$' '$DT/failures.csv' && grep -q '^- \`ldlt-ref\` (ours): 2 of 2: stack8-mu0 (timed out (--timeout 1e-06 s)); capsule (timed out' '$DT/peers.md'"
if echo "$PEERS" | grep -qx siconos-lemke; then
  ok "peers-table/timeout-tiny-peer-cut" grep -q '^siconos-lemke,siconos,stack8-mu0,8,timed out (--timeout 1e-06 s),timeout,' "$DT/failures.csv"
else
  ok "peers-table/timeout-tiny-peer-cut # SKIP siconos-lemke not built" true
fi

# options only the peers table takes
run "$LB" table reorder --out "$T/x" --instances "$CI/capsule"
ok "bad/instances-other-table" rc_and_line 2 "takes no --instances"
run "$LB" table peers --out "$T/x" --no-canonical
ok "bad/no-canonical-alone" rc_and_line 2 "needs --instances"
run "$LB" table peers --out "$T/x" --no-canonical --instances "$T/none"
ok "bad/instance-not-a-folder" rc_and_line 1 "not an instance folder"

tap_done
