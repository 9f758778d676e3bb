#!/usr/bin/env bash
# score.sh LCPBENCH INSTANCES: `lcpbench score' gives the same residuals as `lcpbench solve'
# on the same z (one residual function), scores every iterate of a history, and refuses bad
# files with one line naming the file and line.
set -u
L=$1 I=$2
. "$(dirname "$0")/../common/tap.sh"
PY=/usr/bin/python3
col() { awk -F, -v c="$1" -v r="$2" 'NR == r + 1 { print $c }' "$3"; }
for inst in stack-30-step100 capsule-step1 pool-mu0-step100; do
  run "$L" solve "$I/$inst" --solver pgs,pgs-block,ldlt-ref --tol 1e-6 --maxit 200 --reps 0 \
    --solution "$T/sol-$inst"
  cp "$T/out" "$T/solve.csv"
  for s in 1 2 3; do
    name=$(col 2 "$s" "$T/solve.csv")
    run "$L" score "$I/$inst" "$T/sol-$inst/${inst}__$name.mtx"
    ok "score = solve on $inst/$name: ||r||_2 and ||r||_inf" \
      test "$(col 5 1 "$T/out"),$(col 6 1 "$T/out")" = \
           "$(col 5 "$s" "$T/solve.csv"),$(col 6 "$s" "$T/solve.csv")" -a -n "$(col 5 1 "$T/out")"
  done
done
inst=stack-30-step100
z=$T/sol-$inst/${inst}__pgs.mtx
m=$(awk '!/^%/ { print $1; exit }' "$z")
# a history of two iterates: z = 0, then the pgs answer; with a header naming the columns
{ printf 'iteration,time_s'; for ((r = 0; r < m; r++)); do printf ',z%d' $r; done; echo
  printf '0,0'; for ((r = 0; r < m; r++)); do printf ',0'; done; echo
  printf '7,0.5'; awk '!/^%/ && ++n > 1 { printf ",%s", $1 }' "$z"; echo; } >"$T/hist.csv"
run "$L" score "$I/$inst" "$z" --history "$T/hist.csv"
ok "history: one row for Z.mtx and one per iterate" test "$(wc -l <"$T/out")" = 4
ok "history: iteration and time_s columns read from the header" \
  test "$(col 3 3 "$T/out"),$(col 4 3 "$T/out")" = "7,5.000000e-01"
ok "history: the last iterate scores as Z.mtx does" \
  test "$(col 5 3 "$T/out")" = "$(col 5 1 "$T/out")"
q0=$(awk '!/^%/ && ++n > 1 { s += ($1 < 0 ? $1 * $1 : 0) } END { printf "%.6e", sqrt(s) }' "$I/$inst/q.mtx")
ok "history: z = 0 scores ||min(0, q)||_2 (standard LCP: r = min(z, w), w = q)" \
  test "$(col 5 2 "$T/out")" = "$q0"
# bad input: one line naming the file (and line), exit 1; usage errors exit 2
printf '1,2\n' >"$T/short.csv"
run "$L" score "$I/$inst" --history "$T/short.csv"
ok "a history row of the wrong width is refused naming file and line" eval 'rc_is 1 && one_line_err "short.csv:1:"'
{ awk '!/^%/ && ++n > 1 { printf "%s%s", (n > 2 ? "," : ""), $1 }' "$z"; echo; } | sed 's/^[^,]*/nan/' >"$T/nan.csv"
run "$L" score "$I/$inst" --history "$T/nan.csv"
ok "a NaN in a history is refused naming file and line" eval 'rc_is 1 && one_line_err "nan.csv:1: field 1"'
run "$L" score "$I/$inst" "$I/capsule-step1/q.mtx"
ok "a Z.mtx of another size is refused" eval 'rc_is 1 && one_line_err "rows, the instance"'
run "$L" score "$I/$inst"
ok "no Z.mtx and no history is a usage error" eval 'rc_is 2 && one_line_err "needs"'
run "$L" score "$I/$inst" "$z" --bogus
ok "an unknown option is a usage error" eval 'rc_is 2 && one_line_err "unknown option"'
tap_done
