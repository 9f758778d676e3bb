#!/usr/bin/env bash
# families_cli.sh LCPBENCH: `lcpbench families' (bench/cmd/families.c; problems/README.md,
# "Hard families") and `lcpbench profile --families' as TAP: the smallest size of every
# family (--sizes 1: 8 families x 3 steps = 24 instances), meta.txt's family lines,
# families.csv, suite.txt and suite-all.txt over the same 24 instances, a byte-identical
# second capture, a run of the suite cut to two families (two solvers), the descriptors in
# its runs.csv
# (meta.txt's; limit rows apart from contacts), and its profiles split by family;
# the usage errors exit 2 with one line.
set -u
LB=$1
. "$(dirname "$0")/../common/tap.sh"
F=$T/fam
quiet() { "$@" >"$T/log" 2>&1; }
ok "families/runs" quiet "$LB" families --out "$F" --sizes 1
ok "families/24-instances" bash -c "[ \$(ls '$F/instances' | wc -l) -eq 24 ]"
ok "families/csv-24-rows-and-head" bash -c "[ \$(wc -l < '$F/families.csv') -eq 25 ] &&
  head -1 '$F/families.csv' | grep -q '^instance,family,scene,size,step,rows'"
ok "families/suite-24-instances" bash -c "[ \$(grep -c '^instance ' '$F/suite.txt') -eq 24 ]"
ok "families/suite-all-24-instances-every-solver" bash -c "[ \$(grep -c '^instance ' '$F/suite-all.txt') -eq 24 ] &&
  grep -qx 'solver all' '$F/suite-all.txt'"
ok "families/meta-family-line" grep -qx "family = links-draped" \
  "$F/instances/links-draped-n5-step100/meta.txt"
ok "families/meta-cond-line" grep -q "^cond_lanczos = " \
  "$F/instances/boxes-wall-layers2-cols3-step10/meta.txt"
ok "families/eight-families" bash -c "[ \$(cut -d, -f2 '$F/families.csv' | sed 1d | sort -u | wc -l) -eq 8 ]"
"$LB" families --out "$T/fam2" --sizes 1 >/dev/null 2>&1
ok "families/recapture-byte-identical" diff -r "$F" "$T/fam2"
ok "families/refuses-non-empty-dir" bash -c "! '$LB' families --out '$F' --sizes 1 >/dev/null 2>&1"
# a run over two families, one solver, and the profiles of each apart
{ echo "suite two"; grep -E '^instance instances/(mass-ratio-light|links-hanging)' "$F/suite.txt";
  echo "set tol=1e-6 maxit=20000 reps=1 warm=1"; echo "solver pgs"; echo "solver amgs-D"; } \
  > "$F/two.txt"
ok "families/run-two-families" quiet "$LB" run "$F/two.txt" --out "$T/run" --no-plots
# runs.csv ends with the instances' descriptors, read from their meta.txt (12 rows, all filled);
# the hanging chain of 5 at step 400 has two limit rows and no contact
ok "families/runs-csv-descriptors-from-meta" python3 "$COMMON/checks.py" runs_descriptors \
  "$T/run/runs.csv" "$F/instances" 12
ok "families/runs-csv-limit-rows-not-contacts" bash -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
  \$1 == \"links-hanging-n5-step400\" { n++; if (\$c[\"limit_rows\"] != 2 || \$c[\"contacts\"] != 0 ||
  \$c[\"family\"] != \"links-hanging\" || \$c[\"bilateral_share\"] != \"0.8333333333\") bad = 1 }
  END { exit bad || n != 2 }' '$T/run/runs.csv'"
ok "families/csv-limit-rows" grep -q '^links-hanging-n5-step400,links-hanging,links,n5,400,12,0,5,1,0,[^,]*,2,0.8333333333,0.3$' \
  "$F/families.csv"
ok "families/profile-by-family" quiet "$LB" profile "$T/run" --families "$F/families.csv" --cost iterations
for f in mass-ratio-light links-hanging; do
  ok "families/profile-$f" test -s "$T/run/profile/family-$f/perf-iterations.csv"
done
ok "families/profile-only-the-run's-families" bash -c "[ \$(ls -d '$T/run/profile'/family-* | wc -l) -eq 2 ]"
out=$("$LB" families 2>&1); rc=$?
ok "families/no-out-exit-2" test "$rc" -eq 2 -a "$(echo "$out" | wc -l)" -eq 1
out=$("$LB" families --out "$T/x" --sizes 4 2>&1); rc=$?
ok "families/bad-sizes-exit-2" test "$rc" -eq 2
tap_done
