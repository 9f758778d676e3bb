#!/usr/bin/env bash
# harness.sh LCPBENCH MKINST CHECKDIR: the harness subcommands (run, plot, table, check,
# profile) as TAP: outputs, provenance, no NaN, refusals, and that `check' catches a real
# regression in a perturbed copy of the committed baseline.
set -u
LB=$1
MK=$2
CK=$3
. "$(dirname "$0")/../common/tap.sh"
rc_and_line() { rc_is "$1" && one_line_err "$2"; }

"$MK" "$T/i1" 7 || { echo "Bail out! mkinst failed"; exit 1; }
"$MK" "$T/i2" 8 1 || { echo "Bail out! mkinst failed"; exit 1; }
cat >"$T/s.txt" <<'SUITE'
# a small suite
suite unit
instance i*
set tol=1e-8 maxit=5000 reps=1
solver pgs
solver pgs omega=1.3
solver jacobi omega=auto label=jac
solver amgs-D plot=0
SUITE

run "$LB" run "$T/s.txt" --out "$T/r"
ok "run/exit-0" rc_is 0
ok "run/provenance-json-not-in-csv" bash -c "grep -q '\"lcpbench\"' '$T/r/provenance.json' && ! grep -q '^#' '$T/r/runs.csv'"
ok "run/runs-csv-header" grep -q '^instance,label,solver,rows,tol,maxit,omega,beta,gamma,order,seed,threads,form,precision,warm,warm_scale,every,restart,projected,pgs_sweeps,sm_steps,inner_max,forcing,step,memory,rho,sigma,relax,reps,timeout,plot,status,iterations,iter_to_tol,residual,' "$T/r/runs.csv"
# the descriptor columns after peer_status; mkinst's folders have no meta.txt: every cell empty
ok "run/runs-csv-descriptor-columns-empty-without-meta" python3 "$COMMON/checks.py" \
  runs_descriptors "$T/r/runs.csv" "$T"
ok "run/one-row-per-run" bash -c "[ \$(grep -vc '^#' '$T/r/runs.csv') = 9 ]"
ok "run/auto-label-names-options" grep -q '^i1,pgs:omega=1.3,pgs,' "$T/r/runs.csv"
ok "run/no-nan" bash -c "! grep -qi nan '$T/r/runs.csv'"
ok "run/converged-iter-to-tol-equals-iterations" bash -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"status\"] == \"converged\" { n++; if (\$c[\"iterations\"] != \$c[\"iter_to_tol\"]) bad = 1 } END { exit bad || n < 6 }' '$T/r/runs.csv'"
ok "run/residual-below-tol" bash -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"status\"] == \"converged\" { n++; if (!(\$c[\"residual\"] <= 1e-8)) bad = 1 } END { exit bad || n < 6 }' '$T/r/runs.csv'"
ok "run/history-per-run" bash -c "[ \$(ls '$T/r/history' | wc -l) = 8 ] && [ \$(head -1 '$T/r/history/i1__pgs.csv') = iteration,residual,residual_inf,time_s ]"
ok "run/plot-scripts" bash -c "[ -s '$T/r/plots/i1-iter.gp' ] && [ -s '$T/r/plots/i2-time.gp' ] && grep -q noenhanced '$T/r/plots/i1-iter.gp' && grep -q pdfcairo '$T/r/plots/i1-iter.gp'"
ok "run/plot-excludes-plot-0" bash -c "! grep -q amgs-D '$T/r/plots/i1-iter.gp'"
if command -v gnuplot >/dev/null; then
  ok "run/plot-images" bash -c "[ -s '$T/r/plots/i1-iter.png' ] && [ -s '$T/r/plots/i1-iter.pdf' ]"
  ok "plot/rebuild-from-gp" bash -c "cd '$T/r/plots' && rm -f i1-iter.png && gnuplot i1-iter.gp && [ -s i1-iter.png ]"
else
  ok "run/plot-images # SKIP no gnuplot" true
  ok "plot/rebuild-from-gp # SKIP no gnuplot" true
fi
run "$LB" plot "$T/r"
ok "plot/redraw-exit-0" rc_is 0
run env PATH=/nonexistent "$LB" plot "$T/r"
ok "plot/no-gnuplot-warns-exit-0" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'gnuplot not found' '$T/err'"

cp "$T/r/runs.csv" "$T/runs.keep"
run "$LB" run "$T/s.txt" --out "$T/r"
ok "run/refuses-non-empty-dir" bash -c "[ \$(cat '$T/rc') = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'force' '$T/err' && cmp -s '$T/runs.keep' '$T/r/runs.csv'"
run "$LB" run "$T/s.txt" --out "$T/r" --force --no-plots
ok "run/force-replaces" rc_is 0

run "$LB" run nosuchsuite --out "$T/x"
ok "bad/unknown-suite-exit-2" rc_and_line 2 "unknown suite 'nosuchsuite'"
run "$LB" run "$T/s.txt" --out "$T/x" --frob
ok "bad/run-unknown-option" rc_and_line 2 -- "--frob"
printf 'instance %s/i1\nsolver pgs tol=abc\n' "$T" >"$T/bad.txt"
run "$LB" run "$T/bad.txt" --out "$T/x"
ok "bad/suite-line-named" rc_and_line 2 "bad.txt:2: tol: 'abc'"
printf 'instance %s/i1\nsolver nosolver\n' "$T" >"$T/bad2.txt"
run "$LB" run "$T/bad2.txt" --out "$T/x"
ok "bad/suite-unknown-solver" rc_and_line 2 "unknown solver 'nosolver'"
printf 'instance %s/i1\nsolver pgs\nsolver pgs\n' "$T" >"$T/bad3.txt"
run "$LB" run "$T/bad3.txt" --out "$T/x"
ok "bad/suite-duplicate-label" rc_and_line 2 "label 'pgs' is used twice"
run "$LB" plot "$T/nothing-here"
ok "bad/plot-unreadable-dir-exit-1" rc_and_line 1 "nothing-here/runs.csv"
run "$LB" table nosuchtable --out "$T/x"
ok "bad/unknown-table-exit-2" rc_and_line 2 "unknown table 'nosuchtable'"
run "$LB" table amgs-table1
ok "bad/table-needs-out" rc_and_line 2 -- "--out"

mkdir -p "$T/full" && echo keep >"$T/full/mine.txt"
run "$LB" table amgs-table1 --out "$T/full"
ok "bad/table-refuses-non-empty-dir" bash -c "[ \$(cat '$T/rc') = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q force '$T/err' && [ \$(ls '$T/full') = mine.txt ]"

# the exhaustive ordering study, end to end (seconds)
run "$LB" table reorder --out "$T/ro"
ok "table/reorder-exit-0" rc_is 0
ok "table/reorder-all-orderings" bash -c "grep -v '^#' '$T/ro/reorder-capsule-hist.csv' | awk -F, 'NR>1 { s += \$2 } END { exit s != 720 }' && grep -v '^#' '$T/ro/reorder-three-spheres-hist.csv' | awk -F, 'NR>1 { s += \$2 } END { exit s != 362880 }'"
ok "table/reorder-markdown-claims" bash -c "grep -q '^| three-spheres | 362880 |' '$T/ro/reorder.md' && grep -Eq '\\*\\*(held|did not hold)\\*\\*' '$T/ro/reorder.md' && ! grep -qi nan '$T/ro/reorder.md'"

# grids: instances pair only with the solvers of their grid
printf 'instance i1\nsolver pgs\ngrid\ninstance i2\nsolver jacobi\n' >"$T/g.txt"
run "$LB" run "$T/g.txt" --out "$T/g" --no-plots
ok "run/grid-blocks-pair-within" bash -c "[ \$(grep -vc '^#' '$T/g/runs.csv') = 3 ] && grep -q '^i1,pgs,' '$T/g/runs.csv' && grep -q '^i2,jacobi,' '$T/g/runs.csv'"
printf 'instance i1\nsolver pgs\ngrid\ninstance i1\nsolver pgs\n' >"$T/g2.txt"
run "$LB" run "$T/g2.txt" --out "$T/g2" --no-plots
ok "bad/same-run-in-two-grids" rc_and_line 2 "instance 'i1' meets label 'pgs' in two grids"
printf 'instance i1 ref=ldlt-ref\nset reps=0\nsolver pgs tol=1e-10 maxit=100000\n' >"$T/ref.txt"
run "$LB" run "$T/ref.txt" --out "$T/ref" --no-plots
ok "run/ref-gives-distance" bash -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } NR == 2 { exit !(\$c[\"zdiff\"] != \"\" && \$c[\"zdiff\"] < 1e-6 && \$c[\"wdiff\"] != \"\") }' '$T/ref/runs.csv'"

# profile
run "$LB" profile "$T/r"
ok "profile/exit-0" rc_is 0
ok "profile/files" bash -c "[ -s '$T/r/profile/perf-time.csv' ] && [ -s '$T/r/profile/perf-time.gp' ] && [ -s '$T/r/profile/data-1e-06.gp' ]"
ok "profile/best-solver-reaches-1" bash -c "awk -F, 'NR>1 && \$NF+0 == 1 { one=1 } END { exit !one }' '$T/r/profile/perf-iterations.csv'"
run "$LB" profile "$T/r" --cost frob
ok "bad/profile-unknown-cost" rc_and_line 2 "frob"

# check against the committed baseline, then against perturbed copies
run "$LB" check "$CK"
ok "check/committed-baseline-passes" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'within their bands' '$T/out'"
# one perturbed copy of the baseline with four regressions on different lines
awk -F, 'BEGIN { OFS = "," }
  !a && $2 == "pgs" && $3 == "iterations" && $4 > 5 { $5 = 1; a = 1; print $1 > "/dev/stderr" }
  !b && $2 != "pgs" && $3 == "status" && $4 == "converged" { $4 = "max-iterations"; b = 1 }
  !c && $2 != "pgs" && $3 == "residual@10" && $4 > 1e-6 { $5 = $4 / 10; c = 1 }
  !d && $2 != "pgs" && $3 == "wdiff" && $4 > 0 { $5 = $4 / 100; d = 1 }
  { print }' "$CK/baseline.csv" >"$T/b.csv" 2>"$T/b.inst"
run "$LB" check "$CK" --baseline "$T/b.csv"
ok "check/perturbed-baseline-exit-1" bash -c "[ \$(cat '$T/rc') = 1 ] && grep -q FAILED '$T/err'"
ok "check/fails-on-iterations-regression" grep -q "REGRESSION $(cat "$T/b.inst") pgs iterations: expected .* (bound 1), got" "$T/err"
ok "check/fails-on-changed-status" grep -q 'status: expected max-iterations, got converged' "$T/err"
ok "check/fails-on-residual-regression" grep -q 'residual@10: expected .*, got' "$T/err"
ok "check/fails-on-reference-distance" grep -q 'wdiff: expected .*, got' "$T/err"
ok "check/one-line-per-regression" bash -c "[ \$(grep -c REGRESSION '$T/err') = 4 ]"
run "$LB" check "$T/nothing-here"
ok "bad/check-unreadable-dir-exit-1" rc_and_line 1 "nothing-here/suite.txt"
run "$LB" check "$CK" --frob
ok "bad/check-unknown-option" rc_and_line 2 -- "--frob"

tap_done
