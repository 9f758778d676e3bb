#!/usr/bin/env bash
# plot_cases.sh LCPBENCH MKINST: convergence figures in three cases new users met, as TAP.
#  zero:    a residual of exactly 0 (a direct solver on a diagonal LCP) is drawn at a floor
#           one decade below the smallest positive value, the axis labelled "0 (exact)"
#           there (gnuplot refused the log axis: "all points y value undefined"); runs.csv,
#           the history and stdout keep 0.
#  solve:   `solve --history DIR' writes DIR/runs.csv (the columns of `run') beside its
#           histories, so `lcpbench plot DIR' draws it; a second solve into DIR keeps the
#           first one's rows; a refused history keeps its row.
#  nohist:  a run without a history (the peers record none; a failed run) is named in the
#           figure: a marker "LABEL: no history" in the key, or a note under the plot.
set -u
LB=$1
MK=$2
. "$(dirname "$0")/../common/tap.sh"
have_gp() { command -v gnuplot >/dev/null; }
# COLUMN of the row of runs.csv FILE with instance INST and label LABEL
field() {
  python3 -c "
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline='')):
    if r['instance'] == sys.argv[2] and r['label'] == sys.argv[3]:
        print(r[sys.argv[4]])" "$@"
}
export T
export -f field rc_is one_line_err   # for the checks run by bash -c

# a diagonal LCP: A = diag(2, 4), q = (-2, 1): z = (1, 0), w = (0, 1), ||r||_2 = 0 exactly
mkdir -p "$T/diag"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 2\n2 2 4\n' >"$T/diag/A.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n-2\n1\n' >"$T/diag/q.mtx"
"$MK" "$T/inst" 7 || { echo "Bail out! mkinst failed"; exit 1; }

# ---- zero: the reference alone, every residual 0 --------------------------------------------
printf 'instance %s/diag\nset reps=1\nsolver ldlt-ref\n' "$T" >"$T/z1.txt"
run "$LB" run "$T/z1.txt" --out "$T/z1"
ok "zero/run-exit-0" rc_is 0
ok "zero/no-gnuplot-failure" bash -c "! grep -q 'gnuplot failed' '$T/err'"
ok "zero/data-keep-exact-0" bash -c "[ \"\$(field '$T/z1/runs.csv' diag ldlt-ref residual)\" = 0.000000e+00 ] &&
  [ \"\$(sed -n 2p '$T/z1/history/diag__ldlt-ref.csv' | cut -d, -f2)\" = 0.000000e+00 ]"
# nothing positive drawn: the floor is 1e-17, named on the axis
ok "zero/floor-labelled-on-axis" grep -q '^set ytics (.*"0 (exact)" 1e-17)$' "$T/z1/plots/diag-iter.gp"
ok "zero/drawn-at-floor" bash -c "[ \"\$(sed -n 2p '$T/z1/plots/diag-iter.csv')\" = 'ldlt-ref,2,1.000000e-17' ]"
if have_gp; then
  ok "zero/images" bash -c "for f in diag-iter diag-time; do [ -s '$T/z1/plots/'\$f.png ] && [ -s '$T/z1/plots/'\$f.pdf ] || exit 1; done"
  ok "zero/redraw-from-gp" bash -c "cd '$T/z1/plots' && rm -f diag-iter.png && gnuplot diag-iter.gp 2>'$T/gperr' && [ -s diag-iter.png ] && ! grep -q undefined '$T/gperr'"
else
  ok "zero/images # SKIP gnuplot not found" true
  ok "zero/redraw-from-gp # SKIP gnuplot not found" true
fi

# ---- zero: beside a curve the floor is a decade below its smallest positive value ----------
printf 'instance %s/diag\nset reps=1\nsolver ldlt-ref\nsolver pgs\n' "$T" >"$T/z2.txt"
run "$LB" run "$T/z2.txt" --out "$T/z2"
ok "zero/with-curve-exit-0" bash -c "[ \$(cat '$T/rc') = 0 ] && ! grep -q 'gnuplot failed' '$T/err'"
# pgs: 2 at sweep 0, then 0: the floor is 1e-1, the positive value stays where it is
ok "zero/floor-below-smallest-positive" grep -q '^set ytics ("1e1" 1e1, "1e0" 1e0, "0 (exact)" 1e-01)$' "$T/z2/plots/diag-iter.gp"
ok "zero/positive-values-unmoved" bash -c "grep -q '^pgs,0,2.000000e+00$' '$T/z2/plots/diag-iter.csv' && grep -q '^pgs,1,1.000000e-01$' '$T/z2/plots/diag-iter.csv'"
# a figure without zeros keeps gnuplot's own tics
printf 'instance %s/inst\nset reps=1 tol=1e-8 maxit=5000\nsolver pgs\n' "$T" >"$T/z3.txt"
run "$LB" run "$T/z3.txt" --out "$T/z3"
ok "zero/no-floor-without-zeros" bash -c "[ \$(cat '$T/rc') = 0 ] && ! grep -q 'exact' '$T/z3/plots/inst-iter.gp'"

# ---- solve: --history DIR is a folder that plot draws ----------------------------------------
run "$LB" solve "$T/diag" "$T/inst" --solver pgs,ldlt-ref --tol 1e-8 --maxit 5000 --reps 1 --history "$T/H"
ok "solve/exit-0" rc_is 0
ok "solve/runs-csv-columns-of-run" bash -c "[ \"\$(head -1 '$T/H/runs.csv')\" = \"\$(head -1 '$T/z1/runs.csv')\" ]"
ok "solve/runs-csv-row-per-run" bash -c "[ \$(wc -l <'$T/H/runs.csv') = 5 ] &&
  [ \"\$(field '$T/H/runs.csv' inst pgs history)\" = inst__pgs.csv ] &&
  [ \"\$(field '$T/H/runs.csv' diag ldlt-ref residual)\" = 0.000000e+00 ]"
ok "solve/runs-csv-same-numbers-as-stdout" bash -c "grep '^inst,pgs,' '$T/out' | cut -d, -f3,4,5 >'$T/a' &&
  echo \"\$(field '$T/H/runs.csv' inst pgs status),\$(field '$T/H/runs.csv' inst pgs iterations),\$(field '$T/H/runs.csv' inst pgs residual)\" | cmp -s - '$T/a'"
ok "solve/histories-beside-runs-csv" bash -c "[ -s '$T/H/inst__pgs.csv' ] && [ -s '$T/H/diag__ldlt-ref.csv' ] && [ ! -e '$T/H/history' ]"
run "$LB" plot "$T/H"
ok "solve/plot-exit-0" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q '4 figures' '$T/err'"
ok "solve/plot-draws-every-run" bash -c "grep -q 'title \"pgs\"' '$T/H/plots/inst-iter.gp' && grep -q 'title \"ldlt-ref\"' '$T/H/plots/inst-iter.gp' &&
  grep -q '^pgs,' '$T/H/plots/inst-time.csv' && grep -q '\"0 (exact)\"' '$T/H/plots/diag-iter.gp'"
if have_gp; then
  ok "solve/plot-images" bash -c "[ -s '$T/H/plots/inst-iter.png' ] && [ -s '$T/H/plots/inst-time.pdf' ] && [ -s '$T/H/plots/diag-iter.png' ]"
else
  ok "solve/plot-images # SKIP gnuplot not found" true
fi
# a second solve into the folder: its rows join the first one's
cp -r "$T/diag" "$T/diag2"
run "$LB" solve "$T/diag2" --solver pgs --reps 0 --history "$T/H"
ok "solve/second-solve-keeps-rows" bash -c "[ \$(cat '$T/rc') = 0 ] && [ \$(wc -l <'$T/H/runs.csv') = 6 ] &&
  [ \"\$(field '$T/H/runs.csv' inst pgs history)\" = inst__pgs.csv ] && [ \"\$(field '$T/H/runs.csv' diag2 pgs history)\" = diag2__pgs.csv ]"
cp "$T/H/runs.csv" "$T/runs.keep"
# a history that exists is refused without --force: its row stays the one that wrote it
run "$LB" solve "$T/inst" --solver pgs --tol 1e-10 --maxit 5000 --reps 0 --history "$T/H"
ok "solve/refused-history-keeps-its-row" bash -c "[ \$(cat '$T/rc') = 1 ] && grep -q 'inst__pgs.csv exists' '$T/err' && cmp -s '$T/runs.keep' '$T/H/runs.csv'"
run "$LB" solve "$T/inst" --solver pgs --tol 1e-10 --maxit 5000 --reps 0 --history "$T/H" --force
ok "solve/force-replaces-the-row" bash -c "[ \$(cat '$T/rc') = 0 ] && [ \$(wc -l <'$T/H/runs.csv') = 6 ] &&
  [ \"\$(field '$T/H/runs.csv' inst pgs tol)\" = 1e-10 ] && [ \"\$(field '$T/H/runs.csv' diag2 pgs status)\" = converged ]"
run "$LB" plot "$T/H"
ok "solve/plot-after-second-solve" bash -c "[ \$(cat '$T/rc') = 0 ] && [ -s '$T/H/plots/diag2-iter.gp' ]"
ok "solve/no-temporary-left" bash -c "[ -z \"\$(find '$T' -name '*.tmp[0-9]*')\" ]"

# ---- nohist: runs without a history are named in the figure ---------------------------------
# a run folder whose rows lose their history (as a peer's has none) or their answer (a failed
# run): runs.csv edited, so the case holds wherever the peers are built or not
printf 'instance %s/inst\nset reps=1 tol=1e-8 maxit=5000\nsolver pgs\nsolver pgs omega=1.2 label=sor\nsolver jacobi label=jac\n' "$T" >"$T/nh.txt"
run "$LB" run "$T/nh.txt" --out "$T/nh" --no-plots
python3 - "$T/nh/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
for r in rows:
    if r['label'] == 'sor':
        r['history'] = ''
    if r['label'] == 'jac':
        r.update(status='zero-diagonal', history='', residual='', residual_inf='', time_s='')
with open(sys.argv[1], 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator='\n')
    w.writeheader()
    w.writerows(rows)
PY
run "$LB" plot "$T/nh"
ok "nohist/plot-exit-0" bash -c "[ \$(cat '$T/rc') = 0 ] && ! grep -q 'gnuplot failed' '$T/err'"
ok "nohist/key-names-run-without-history" grep -q "with points .* title \"sor: no history\"" "$T/nh/plots/inst-iter.gp"
ok "nohist/marker-at-final-residual" bash -c "grep -q \"^sor: no history,\$(field '$T/nh/runs.csv' inst sor iterations),\$(field '$T/nh/runs.csv' inst sor residual)\$\" '$T/nh/plots/inst-iter.csv' &&
  grep -q '^sor: no history,' '$T/nh/plots/inst-time.csv'"
ok "nohist/failed-run-noted-under-plot" bash -c "grep -q '^set label \"no history, not drawn: jac (zero-diagonal)\" at character' '$T/nh/plots/inst-iter.gp' && grep -q '^set bmargin' '$T/nh/plots/inst-iter.gp'"
ok "nohist/curve-still-drawn" grep -q 'title "pgs"' "$T/nh/plots/inst-iter.gp"
if have_gp; then
  ok "nohist/images" bash -c "[ -s '$T/nh/plots/inst-iter.png' ] && [ -s '$T/nh/plots/inst-iter.pdf' ]"
else
  ok "nohist/images # SKIP gnuplot not found" true
fi
# an instance where no run has anything to draw: a warning line, not silence
"$MK" "$T/zd" 9 0 4 || { echo "Bail out! mkinst failed"; exit 1; }
printf 'instance %s/zd\nset reps=0\nsolver pgs\n' "$T" >"$T/zd.txt"
run "$LB" run "$T/zd.txt" --out "$T/zdr" --no-plots
run "$LB" plot "$T/zdr"
ok "nohist/nothing-to-draw-warns" bash -c "[ \$(cat '$T/rc') = 0 ] && one_line_err 'zd: no figure, no run has a history or a final residual: pgs (zero-diagonal)'"
# a real peer: siconos-pgs (or bullet-pgs) records no history
peer=$("$LB" list solvers | awk '$1 == "siconos-pgs" || $1 == "bullet-pgs" { print $1; exit }')
if [ -n "$peer" ]; then
  printf 'instance %s/inst\nset reps=1 tol=1e-8 maxit=5000\nsolver pgs\nsolver %s\n' "$T" "$peer" >"$T/peer.txt"
  run "$LB" run "$T/peer.txt" --out "$T/peer"
  ok "nohist/peer-has-no-history" bash -c "[ \$(cat '$T/rc') = 0 ] && [ -z \"\$(field '$T/peer/runs.csv' inst $peer history)\" ]"
  ok "nohist/peer-named-in-key" grep -q "title \"$peer: no history\"" "$T/peer/plots/inst-iter.gp"
else
  ok "nohist/peer-has-no-history # SKIP no iterative peer built (meson -Dpeers)" true
  ok "nohist/peer-named-in-key # SKIP no iterative peer built (meson -Dpeers)" true
fi

tap_done
