#!/usr/bin/env bash
# cli.sh LCPBENCH MKINST: the command line's contract (bench/README.md, "The command
# line"), as TAP.
# Every bad input gets one line on stderr and a non-zero exit, and loses nothing.
set -u
LB=$1
MK=$2
. "$(dirname "$0")/../common/tap.sh"

"$MK" "$T/inst" 7 || { echo "Bail out! mkinst failed"; exit 1; }
"$MK" "$T/fric" 8 1 || { echo "Bail out! mkinst failed"; exit 1; }
"$MK" "$T/zd" 9 0 4 || { echo "Bail out! mkinst failed"; exit 1; }

run "$LB" list solvers
ok "list/solvers-names-pgs-and-jacobi" bash -c "rc_is() { [ \"\$(cat $T/rc)\" = 0 ]; }; rc_is && grep -q '^  pgs ' $T/out && grep -q '^  jacobi ' $T/out"

run "$LB" solve "$T/inst" --solver pgs,jacobi --reps 1 --tol 1e-8 --maxit 100000 --omega auto
ok "solve/exit-0" rc_is 0
ok "solve/csv-header" bash -c "head -1 $T/out | grep -q '^instance,solver,status,iterations,residual,residual_inf,time_s,'"
ok "solve/pgs-converged" bash -c "grep -q '^inst,pgs,converged,' $T/out"
ok "solve/two-rows" bash -c "[ \$(wc -l <$T/out) = 3 ]"
ok "solve/residual-below-tol" bash -c "awk -F, 'NR==2 { exit !(\$5 <= 1e-8 && \$5 != \"\") }' $T/out"
ok "solve/no-nan-printed" bash -c "! grep -qi nan $T/out"

run "$LB" solve "$T/fric" --solver pgs --reps 0 --form assembled --tol 1e-9 --maxit 5000
cp "$T/out" "$T/asm.csv"
run "$LB" solve "$T/fric" --solver pgs --reps 0 --form matrix-free --tol 1e-9 --maxit 5000
ok "solve/forms-same-iterations" bash -c "[ \"\$(cut -d, -f3,4 $T/asm.csv)\" = \"\$(cut -d, -f3,4 $T/out)\" ]"

run "$LB" solve "$T/fric" --solver pgs --reps 0 --order random --seed 5 --maxit 30 --tol -1
cp "$T/out" "$T/r1.csv"
run "$LB" solve "$T/fric" --solver pgs --reps 0 --order random --seed 5 --maxit 30 --tol -1
ok "solve/deterministic-bytes" cmp -s "$T/r1.csv" "$T/out"

run "$LB" solve "$T/inst" --solver pgs --reps 0 --history "$T/hist" --solution "$T/sol"
ok "solve/history-written" bash -c "[ \$(head -1 $T/hist/inst__pgs.csv) = iteration,residual,residual_inf,time_s ] && grep -q '\"lcpbench\"' $T/hist/provenance.json"
ok "solve/history-starts-at-iteration-0" bash -c "grep -v '^#' $T/hist/inst__pgs.csv | sed -n 2p | grep -q '^0,'"
ok "solve/solution-written" bash -c "head -1 $T/sol/inst__pgs.mtx | grep -q '^%%MatrixMarket matrix array real general'"
cp "$T/hist/inst__pgs.csv" "$T/hist.keep"
run "$LB" solve "$T/inst" --solver pgs --reps 0 --history "$T/hist"
ok "solve/history-not-overwritten-without-force" bash -c "[ \$(cat $T/rc) = 1 ] && grep -q 'exists' $T/err && cmp -s $T/hist.keep $T/hist/inst__pgs.csv"
run "$LB" solve "$T/inst" --solver pgs --reps 0 --history "$T/hist" --force
ok "solve/history-replaced-with-force" rc_is 0

run "$LB" solve "$T/inst" --solver nope
ok "bad/unknown-solver-exit-2" rc_is 2
ok "bad/unknown-solver-one-line" one_line_err "unknown solver 'nope'"
run "$LB" solve "$T/inst" --solver pgs --order sideways
ok "bad/unknown-ordering" bash -c "[ \$(cat $T/rc) = 2 ] && [ \$(wc -l <$T/err) = 1 ] && grep -q sideways $T/err"
run "$LB" solve "$T/inst" --solver pgs --frobnicate
ok "bad/unknown-option" bash -c "[ \$(cat $T/rc) = 2 ] && grep -q -- '--frobnicate' $T/err"
run "$LB" solve "$T/inst" --solver pgs --tol abc
ok "bad/not-a-number" bash -c "[ \$(cat $T/rc) = 2 ] && grep -q -- \"--tol: 'abc'\" $T/err"
run "$LB" solve "$T/inst" --solver pgs --omega 3
ok "bad/omega-out-of-range" bash -c "[ \$(cat $T/rc) = 2 ] && grep -q -- '--omega' $T/err"
run "$LB" frobnicate
ok "bad/unknown-command" bash -c "[ \$(cat $T/rc) = 2 ] && grep -q frobnicate $T/err"
run "$LB" solve "$T/missing" --solver pgs
ok "bad/missing-folder-names-it" bash -c "[ \$(cat $T/rc) = 1 ] && [ \$(wc -l <$T/err) = 1 ] && grep -q '$T/missing' $T/err"

cp -r "$T/inst" "$T/nanq"
awk 'NR == 3 { $0 = "nan" } 1' "$T/inst/q.mtx" >"$T/nanq/q.mtx"
run "$LB" solve "$T/nanq" --solver pgs
ok "bad/nan-in-q-names-file" bash -c "[ \$(cat $T/rc) = 1 ] && [ \$(wc -l <$T/err) = 1 ] && grep -q 'q.mtx' $T/err && ! grep -q nanq,pgs $T/out"

run "$LB" solve "$T/zd" --solver pgs,jacobi --reps 0
ok "bad/zero-diagonal-names-row" bash -c "[ \$(cat $T/rc) = 1 ] && grep -q 'zero-diagonal at row 4' $T/err && grep -q '^zd,pgs,zero-diagonal,' $T/out"

run "$LB" solve "$T/inst" --solver pgs --history /proc/no/such/dir
ok "bad/unwritable-output-folder" bash -c "[ \$(cat $T/rc) = 2 ] && [ \$(wc -l <$T/err) = 1 ] && [ ! -e /proc/no ]"
cp -r "$T/inst" "$T/noz0" && rm "$T/noz0/z0.mtx"
run "$LB" solve "$T/noz0" --solver pgs --warm
ok "bad/warm-without-z0" bash -c "[ \$(cat $T/rc) = 1 ] && grep -q z0.mtx $T/err"
echo "0 1 2" >"$T/perm3"
run "$LB" solve "$T/inst" --solver pgs --order "perm:$T/perm3"
ok "bad/permutation-wrong-length" bash -c "[ \$(cat $T/rc) = 1 ] && grep -q 'permutation' $T/err"
m=$(awk '!/^%/ {print $1; exit}' "$T/inst/q.mtx")
seq $((m - 1)) -1 0 >"$T/permr"
run "$LB" solve "$T/inst" --solver pgs --order "perm:$T/permr" --reps 0
cp "$T/out" "$T/perm.csv"
run "$LB" solve "$T/inst" --solver pgs --order reverse --reps 0
ok "solve/perm-file-equals-reverse" bash -c "[ \"\$(cut -d, -f3-6 $T/perm.csv)\" = \"\$(cut -d, -f3-6 $T/out)\" ]"

# a FIFO (which would block a reader forever) or a folder where a text file is read: refused
# at once, one line each (run's suite, plot's and profile's runs.csv, a permutation file)
mkfifo "$T/fifo" && mkdir -p "$T/fifodir" && mkfifo "$T/fifodir/runs.csv"
not_regular() {   # not_regular NAME ARGS...: exit 1 or 2 within 20 s, one line
  local name=$1; shift
  run timeout 20 "$LB" "$@"
  ok "bad/not-regular/$name" \
    eval '{ rc_is 1 || rc_is 2; } && one_line_err "not a regular file"'
}
not_regular run-suite-fifo run "$T/fifo" --out "$T/fo"
not_regular run-suite-folder run "$T/fifodir" --out "$T/fo"
not_regular plot-runs-csv-fifo plot "$T/fifodir"
not_regular profile-runs-csv-fifo profile "$T/fifodir"
not_regular solve-perm-fifo solve "$T/inst" --solver pgs --order "perm:$T/fifo"
ok "bad/not-regular/nothing-written" test ! -e "$T/fo"

# a run with no timing runs (reps=0) has no times: its figures are against sweeps only
printf 'instance %s\nset reps=0 maxit=50\nsolver pgs\n' "$T/inst" >"$T/untimed.txt"
run "$LB" run "$T/untimed.txt" --out "$T/untimed"
ok "plot/untimed-run-no-time-figure" eval 'rc_is 0 && [ -e "$T/untimed/plots/inst-iter.gp" ] &&
  [ ! -e "$T/untimed/plots/inst-time.gp" ] && ! grep -q "gnuplot failed" "$T/err"'
# a history that runs.csv names but that is cut short: one line naming it, the figures kept
(cd "$T/untimed" && find plots -type f | sort | xargs sha256sum) >"$T/plots.sum"
h=$(ls "$T/untimed/history/"*.csv | head -n 1)
head -c -1 "$h" >"$T/cut.csv" && cp "$T/cut.csv" "$h"
run "$LB" plot "$T/untimed" --style mono
ok "plot/cut-history-refused-figures-kept" eval 'rc_is 1 && one_line_err "$(basename "$h")" &&
  (cd "$T/untimed" && find plots -type f | sort | xargs sha256sum) | cmp -s - "$T/plots.sum"'

for c in list solve; do
  run "$LB" $c --help
  ok "help/$c" bash -c "[ \$(cat $T/rc) = 0 ] && grep -q usage $T/out"
done
tap_done
