#!/usr/bin/env bash
# harness_run.sh LCPBENCH MKINST CSVCHECK: the run side of the harness as TAP: the settings
# table (every solver x every setting refused or accepted, in solve and in a suite, one line
# each), fractions, --timeout, plain CSV (pandas, csv.DictReader and the C RFC 4180 checker
# on every CSV of a fresh run and solve output), unique quoted instance names, curve end time
# = table time within the spread, the 1 ms timing samples, --version, check from anywhere.
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
CC=$3
. "$(dirname "$0")/../common/tap.sh"
rc_and_line() { rc_is "$1" && one_line_err "$2"; }

"$MK" "$T/i1" 7 || { echo "Bail out! mkinst failed"; exit 1; }
"$MK" "$T/i2" 8 1 || { echo "Bail out! mkinst failed"; exit 1; }

# ---- the settings table: every registered solver x every setting ----------------------------
"$LB" list settings >"$T/settings" || { echo "Bail out! list settings failed"; exit 1; }
"$LB" list solvers | awk '{print $1}' >"$T/solvers"
ok "settings/table-lists-the-known-settings" bash -c "for k in tol maxit omega beta gamma order seed form warm every reps timeout plot label; do grep -q \"^\$k \" '$T/settings' || exit 1; done"
value() {   # a valid value of setting $1 (default + a change where the default is "-")
  case $1 in
    tol) echo 1e-8 ;; maxit) echo 50 ;; omega) echo 1.2 ;; beta) echo 0.5 ;; gamma) echo 1 ;;
    order) echo reverse ;; seed) echo 3 ;; form) echo assembled ;; warm) echo 1 ;;
    every) echo 2 ;; reps) echo 1 ;; timeout) echo 60 ;; plot) echo 0 ;; label) echo lab ;;
    *) awk -v k="$1" '$1 == k { print ($5 == "-" ? 1 : $5) }' "$T/settings" ;;
  esac
}
while read -r key flag kind range dflt users; do
  [ "$key" = key ] && continue
  v=$(value "$key")
  # the solvers that use it: all in one suite and one solve (each pair one TAP line)
  { printf 'instance %s\nset reps=0 maxit=50\n' "$T/i1"
    for s in $users; do printf 'solver %s %s=%s label=%s\n' "$s" "$key" "$v" "$s"; done; } >"$T/k.txt"
  run "$LB" run "$T/k.txt" --out "$T/k" --force --no-plots
  cp "$T/rc" "$T/k.rc"; cp "$T/err" "$T/k.err"; cp "$T/k/runs.csv" "$T/k.csv" 2>/dev/null
  if [ "$flag" != - ]; then
    if [ "$kind" = bool ]; then arg=("$flag"); else arg=("$flag" "$v"); fi
    run "$LB" solve "$T/i1" --solver "$(echo $users | tr ' ' ,)" --reps 0 "${arg[@]}"
    cp "$T/out" "$T/k.solve"
  fi
  while read -r s; do
    uses=0
    for u in $users; do [ "$u" = "$s" ] && uses=1; done
    if [ $uses = 1 ]; then
      ok "settings/suite/$s/$key-accepted" bash -c "[ \$(cat '$T/k.rc') != 2 ] && ! grep -q 'does not use' '$T/k.err' && grep -q ',$s,' '$T/k.csv'"
      [ "$flag" = - ] || ok "settings/solve/$s/$key-accepted" grep -q "^i1,$s," "$T/k.solve"
      continue
    fi
    printf 'instance %s\nset reps=0 maxit=50\nsolver %s %s=%s\n' "$T/i1" "$s" "$key" "$v" >"$T/k.txt"
    run "$LB" run "$T/k.txt" --out "$T/k" --force --no-plots
    ok "settings/suite/$s/$key-refused" bash -c "[ \$(cat '$T/rc') = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"$s does not use $key\" '$T/err'"
    [ "$flag" = - ] && continue
    run "$LB" solve "$T/i1" --solver "$s" --reps 0 "${arg[@]}"
    ok "settings/solve/$s/$key-refused" bash -c "[ \$(cat '$T/rc') = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q -- \"$s does not use $flag\" '$T/err' && [ ! -s '$T/out' ]"
  done <"$T/solvers"
done <"$T/settings"

# facts the table must hold whatever its shape (the options these solvers read)
for pair in pgs-block:omega amgs-D:omega amgs-I:omega ldlt-ref:tol ldlt-ref:maxit jacobi:order jacobi:beta pgs:beta; do
  s=${pair%%:*}; k=${pair#*:}
  ok "settings/fact/$s-does-not-use-$k" bash -c "! awk -v k=$k '\$1 == k' '$T/settings' | grep -qw -- '$s'"
done
for pair in pgs:omega jacobi:omega amgs-D:beta mgs:beta pgs:order amgs-D:order pgs:tol ldlt-ref:warm; do
  s=${pair%%:*}; k=${pair#*:}
  ok "settings/fact/$s-uses-$k" bash -c "awk -v k=$k '\$1 == k' '$T/settings' | grep -qw -- '$s'"
done
# several solvers: each gets what it uses; refused when none does
run "$LB" solve "$T/i1" --solver pgs,ldlt-ref --tol 1e-8 --maxit 10000 --reps 0
ok "settings/solve-several-each-gets-its-own" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q '^i1,pgs,converged,' '$T/out' && grep -q '^i1,ldlt-ref,converged,' '$T/out'"
run "$LB" solve "$T/i1" --solver pgs-block,amgs-D --omega 1.2
ok "settings/solve-several-refused-names-them" bash -c "[ \$(cat '$T/rc') = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'pgs-block, amgs-D do not use --omega' '$T/err'"

# suites: `set' keys and `solver all' keys apply where they are used
printf 'instance %s\nset reps=0 omega=1.3 tol=1e-8 maxit=10000\nsolver pgs\nsolver pgs-block\nsolver ldlt-ref\n' "$T/i1" >"$T/set.txt"
run "$LB" run "$T/set.txt" --out "$T/set" --no-plots
ok "settings/set-applies-where-used" python3 -c "
import csv, sys
r = {x['label']: x for x in csv.DictReader(open('$T/set/runs.csv'))}
sys.exit(not (r['pgs']['omega'] == '1.3' and r['pgs']['omega_used'] == '1.300000e+00' and
              r['pgs-block']['omega'] == '' and r['pgs-block']['tol'] == '1e-08' and
              r['ldlt-ref']['tol'] == '' and r['ldlt-ref']['maxit'] == '' and
              r['ldlt-ref']['status'] == 'converged'))"
printf 'instance %s\nset reps=0\nsolver all omega=1.2 maxit=20\n' "$T/i1" >"$T/all.txt"
run "$LB" run "$T/all.txt" --out "$T/all" --no-plots
ok "settings/solver-all-applies-where-used" python3 -c "
import csv, sys
r = {x['solver']: x for x in csv.DictReader(open('$T/all/runs.csv'))}
sys.exit(not (r['pgs']['label'] == 'pgs:omega=1.2;maxit=20' and r['pgs-block']['label'] == 'pgs-block:maxit=20' and
              r['ldlt-ref']['label'] == 'ldlt-ref' and r['jacobi']['omega'] == '1.2' and r['amgs-D']['omega'] == ''))"
printf 'instance %s\nsolver all frobnicate=4\n' "$T/i1" >"$T/all2.txt"
run "$LB" run "$T/all2.txt" --out "$T/all2" --no-plots
ok "settings/unknown-key-refused" rc_and_line 2 "unknown key 'frobnicate'"
printf 'instance %s\nset frob=1\nsolver pgs\n' "$T/i1" >"$T/all3.txt"
run "$LB" run "$T/all3.txt" --out "$T/all3" --no-plots
ok "settings/set-unknown-key-refused-at-its-line" rc_and_line 2 "all3.txt:2: unknown key 'frob'"

# one number reader: 4/3 in solve and in a suite, the same run as 1.3333333333333333
run "$LB" solve "$T/i1" --solver pgs --omega 4/3 --tol 1e-8 --maxit 10000 --reps 0
cp "$T/out" "$T/frac.csv"
run "$LB" solve "$T/i1" --solver pgs --omega 1.3333333333333333 --tol 1e-8 --maxit 10000 --reps 0
ok "numbers/solve-fraction-equals-decimal" bash -c "[ \"\$(cut -d, -f3-6 '$T/frac.csv')\" = \"\$(cut -d, -f3-6 '$T/out')\" ] && grep -q ',1.333333e+00,' '$T/frac.csv'"
printf 'instance %s\nset reps=0\nsolver pgs omega=4/3 tol=1e-8 maxit=10000 label=p\n' "$T/i1" >"$T/f.txt"
run "$LB" run "$T/f.txt" --out "$T/f" --no-plots
ok "numbers/suite-fraction-same-iterations" bash -c "[ \"\$(python3 -c \"import csv; r=next(csv.DictReader(open('$T/f/runs.csv'))); print(r['iterations'], r['omega'], r['omega_used'])\")\" = \"\$(cut -d, -f4 '$T/frac.csv' | tail -1) 1.3333333333333333 1.333333e+00\" ]"
run "$LB" solve "$T/i1" --solver pgs --omega 4/0
ok "numbers/zero-denominator-refused" bash -c "[ \$(cat '$T/rc') = 2 ] && grep -q -- \"--omega: '4/0'\" '$T/err'"

# ---- --timeout ---------------------------------------------------------------------------------
t0=$(date +%s.%N)
run "$LB" solve "$T/i1" "$T/i2" --solver pgs --tol 0 --maxit 2000000000 --timeout 0.5 --reps 0
t1=$(date +%s.%N)
ok "timeout/solve-ends-long-runs" bash -c "[ \$(cat '$T/rc') = 0 ] && [ \$(grep -c ',pgs,timeout,' '$T/out') = 2 ]"
ok "timeout/solve-took-about-the-limit" awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 20) }'
printf 'instance %s\nset reps=1\nsolver pgs tol=0 maxit=2000000000 timeout=0.3 label=long\nsolver pgs tol=1e-8 maxit=10000 timeout=60 label=short\nsolver ldlt-ref timeout=0.0001 label=ref\n' "$T/i2" >"$T/to.txt"
run "$LB" run "$T/to.txt" --out "$T/to" --no-plots
ok "timeout/suite-grid-goes-on" python3 -c "
import csv, sys
r = {x['label']: x for x in csv.DictReader(open('$T/to/runs.csv'))}
sys.exit(not (r['long']['status'] == 'timeout' and r['long']['residual'] == '' and
              r['short']['status'] == 'converged' and float(r['short']['residual']) <= 1e-8 and
              r['long']['timeout'] == '0.3'))"
ok "timeout/run-exit-0" rc_is 0

# ---- a fresh run folder and solve output: plain CSV --------------------------------------------
mkdir -p "$T/p/a" "$T/p/b"
"$MK" "$T/p/a/x" 7 && "$MK" "$T/p/b/x" 9 1 && cp -r "$T/i1" "$T/p/a/with,comma"
cat >"$T/s.txt" <<SUITE
instance $T/i1
instance $T/i2
instance $T/p/a/with,comma name=comma_inst
set tol=1e-8 maxit=5000 reps=3
solver pgs
solver pgs omega=1.3
solver amgs-D
solver ldlt-ref
SUITE
run "$LB" run "$T/s.txt" --out "$T/r" --no-plots
ok "plain/run-exit-0" rc_is 0
ok "plain/run-provenance-json" python3 -c "import json; d = json.load(open('$T/r/provenance.json')); assert d['lcpbench'] and d['command'][0] == 'run'"
run "$LB" solve "$T/p/a/x" "$T/p/b/x" "$T/p/a/with,comma" --solver pgs,ldlt-ref --tol 1e-8 --maxit 5000 --reps 2 --history "$T/sh" --provenance "$T/sp.json"
cp "$T/out" "$T/solve.csv"
ok "plain/solve-exit-0" rc_is 0
ok "plain/solve-provenance-file" python3 -c "import json; json.load(open('$T/sp.json')); json.load(open('$T/sh/provenance.json'))"
ok "names/colliding-basenames-relative-to-common-parent" bash -c "grep -q '^a/x,pgs,' '$T/solve.csv' && grep -q '^b/x,pgs,' '$T/solve.csv' && [ -s '$T/sh/a_x__pgs.csv' ] && [ -s '$T/sh/b_x__pgs.csv' ]"
printf 'instance p/*/x\nset reps=0\nsolver pgs\n' >"$T/glob.txt"
run "$LB" run "$T/glob.txt" --out "$T/glob" --no-plots
ok "names/suite-glob-collision-relative-names" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q '^a/x,pgs,' '$T/glob/runs.csv' && grep -q '^b/x,pgs,' '$T/glob/runs.csv' && [ -s '$T/glob/history/a_x__pgs.csv' ]"
ok "names/comma-quoted" bash -c "grep -q '^\"a/with,comma\",pgs,converged,' '$T/solve.csv'"
csv_ok() { "$CC" "$1" | grep -v '^1\.\.' | sed 's/^/# /'; return "${PIPESTATUS[0]}"; }
files=$(find "$T/r" "$T/sh" -name '*.csv'; echo "$T/solve.csv")
nf=0
for f in $files; do
  nf=$((nf + 1))
  ok "plain/rfc4180/${f#$T/}" csv_ok "$f"
done
ok "plain/every-output-checked" bash -c "[ $nf -ge 20 ]"
if python3 -c 'import pandas' 2>/dev/null; then
  for f in $files; do
    ok "plain/pandas/${f#$T/}" python3 "$COMMON/checks.py" csv_readers_agree "$f"
  done
  ok "plain/pandas-reads-the-comma-name" python3 -c "
import pandas, sys
d = pandas.read_csv('$T/solve.csv')
sys.exit(not ('a/with,comma' in set(d['instance']) and 'b/x' in set(d['instance'])))"
else
  ok "plain/pandas # SKIP python3-pandas is not installed" true
fi
# the C checker can fail: a comment line, a ragged row, a bad quote
printf '# lcpbench: x\na,b\n1,2\n' >"$T/bad1.csv"
printf 'a,b\n1,2,3\n' >"$T/bad2.csv"
printf 'a,b\n"1"x,2\n' >"$T/bad3.csv"
printf 'a,b\n"1,""2""",3\r\n' >"$T/good.csv"
ok "csvcheck/refuses-comment-line" bash -c "! '$CC' '$T/bad1.csv' >/dev/null"
ok "csvcheck/refuses-ragged-row" bash -c "! '$CC' '$T/bad2.csv' >/dev/null"
ok "csvcheck/refuses-text-after-quote" bash -c "! '$CC' '$T/bad3.csv' >/dev/null"
ok "csvcheck/accepts-quoted-comma-and-crlf" csv_ok "$T/good.csv"

# ---- times: the curve ends at the table's time, within the spread -----------------------------
ok "times/curve-end-equals-time_s-within-spread" python3 -c "
import csv, sys
bad = 0; n = 0
for r in csv.DictReader(open('$T/r/runs.csv')):
    if not r['history'] or not r['time_s']:
        continue
    h = list(csv.DictReader(open('$T/r/history/' + r['history'])))
    t, lo, hi = float(r['time_s']), float(r['time_min_s']), float(r['time_max_s'])
    last = float(h[-1]['time_s'])
    n += 1
    if not (lo <= t <= hi and abs(last - t) <= (hi - lo) + 1e-6 * t):
        bad = 1; print('#', r['instance'], r['label'], last, t, lo, hi)
sys.exit(bad or n < 12)"
ok "times/history-time-is-k-times-seconds-per-sweep" python3 -c "
import csv, sys
r = [x for x in csv.DictReader(open('$T/r/runs.csv')) if x['label'] == 'pgs' and x['instance'] == 'i1'][0]
h = list(csv.DictReader(open('$T/r/history/' + r['history'])))
K, t = int(r['iterations']), float(r['time_s'])
sys.exit(not (K > 5 and all(abs(float(x['time_s']) - int(x['iteration']) * t / K) <= 1e-6 * t for x in h)))"
ok "times/direct-solver-one-point" python3 -c "
import csv, sys
r = [x for x in csv.DictReader(open('$T/r/runs.csv')) if x['label'] == 'ldlt-ref' and x['instance'] == 'i2'][0]
h = list(csv.DictReader(open('$T/r/history/' + r['history'])))
sys.exit(not (len(h) == 1 and h[0]['iteration'] == r['iterations'] and h[0]['time_s'] == r['time_s']))"
ok "times/samples-last-1ms" python3 -c "
import csv, sys
rows = [x for x in csv.DictReader(open('$T/r/runs.csv')) if x['time_s']]
sys.exit(not all(int(x['time_batch']) * float(x['time_min_s']) >= 0.999e-3 for x in rows) or not any(int(x['time_batch']) > 1 for x in rows))"
ok "times/spread-columns-beside-time" bash -c "head -1 '$T/r/runs.csv' | grep -q ',time_s,time_min_s,time_max_s,time_batch,' && head -1 '$T/solve.csv' | grep -q ',time_s,time_min_s,time_max_s,time_batch,'"

# ---- --version, check from any folder ----------------------------------------------------------
run "$LB" --version
ok "version/prints-version-and-git" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -Eq '^lcpbench [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-z-]+\)$' '$T/out'"
(cd "$T" && OPENBLAS_NUM_THREADS=1 "$LB" check >"$T/out" 2>"$T/err"; echo $? >"$T/rc")
sed "s/^/# /" "$T/err"
ok "check/works-from-any-folder" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'within their bands' '$T/out'"

tap_done
