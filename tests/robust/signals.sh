#!/usr/bin/env bash
# signals.sh LCPBENCH MKINST: what SIGINT, SIGTERM and SIGKILL leave (bench/README.md,
# "Interrupted runs").  A grid of a few seconds is interrupted after 1 s: the command ends with
# the signal's status (130, 143), the previous folder is byte-identical, no *.tmp* file or
# folder is left, no measurement child survives (--timeout runs fork one); the same for
# `table' and `solve --history'.  A folder killed with SIGKILL is left as DIR.tmpPID holding
# INCOMPLETE, and check, plot and profile refuse it with one line.
set -u
set -m   # job control: background commands do not start with SIGINT ignored
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
. "$(dirname "$0")/../common/tap.sh"

"$MK" "$T/i1" 7 || { echo "Bail out! mkinst failed"; exit 1; }
# 4 runs of about 1 s each (a fixed number of sweeps, no stopping test)
slow() {   # slow SUITEFILE MAXIT [KEY=VALUE]: the suite text
  { printf 'instance %s\nset reps=1 tol=-1 maxit=%s %s\n' "$T/i1" "$2" "${3:-}"
    for o in 1 1.1 1.2 1.3; do printf 'solver pgs omega=%s\n' "$o"; done; } >"$1"
}
slow "$T/fast.txt" 100
slow "$T/slow.txt" 3000000
slow "$T/slowt.txt" 3000000 timeout=60
"$LB" run "$T/fast.txt" --out "$T/R" --no-plots >/dev/null 2>&1 || { echo "Bail out! run failed"; exit 1; }
"$LB" plot "$T/R" >/dev/null 2>&1                 # with figures when gnuplot is there
(cd "$T" && find R -type f -print0 | sort -z | xargs -0 sha256sum) >"$T/before"

same() { (cd "$T" && find R -type f -print0 | sort -z | xargs -0 sha256sum) | cmp -s - "$T/before"; }
no_tmp() { [ -z "$(find "$T" -name '*.tmp*' -o -name '*.old[0-9]*')" ]; }
no_child() { sleep 0.3; ! ps -eo args | grep -v grep | grep -q -- "$T/R"; }
# interrupt CMD... with signal $1 after 1 s; the exit status into $T/rc
interrupt() {
  local sig=$1; shift
  "$@" >/dev/null 2>"$T/err" &
  local pid=$!
  sleep 1
  kill -s "$sig" "$pid"
  wait "$pid"
  echo $? >"$T/rc"
}

for sig in INT TERM; do
  code=$([ $sig = INT ] && echo 130 || echo 143)
  interrupt $sig "$LB" run "$T/slow.txt" --out "$T/R" --force --no-plots
  ok "run/sig$sig-ends-with-status-$code" rc_is $code
  ok "run/sig$sig-keeps-the-previous-folder-byte-identical" same
  ok "run/sig$sig-leaves-no-temporary-file" no_tmp
  interrupt $sig "$LB" run "$T/slowt.txt" --out "$T/R" --force --no-plots
  ok "run/timeout-child/sig$sig-ends-with-status-$code" rc_is $code
  ok "run/timeout-child/sig$sig-keeps-the-previous-folder" same
  ok "run/timeout-child/sig$sig-kills-the-measurement-child" no_child
  ok "run/timeout-child/sig$sig-leaves-no-temporary-file" no_tmp
done

# solve --history: the history files of the previous solve stay, no temporary file
"$LB" solve "$T/i1" --solver pgs --tol -1 --maxit 100 --reps 1 --history "$T/H" >/dev/null 2>&1
(cd "$T" && find H -type f -print0 | sort -z | xargs -0 sha256sum) >"$T/hbefore"
interrupt INT "$LB" solve "$T/i1" --solver pgs --tol -1 --maxit 3000000 --reps 1 --history "$T/H" --force
ok "solve-history/sigINT-ends-with-status-130" rc_is 130
ok "solve-history/sigINT-keeps-the-previous-histories" bash -c "(cd '$T' && find H -type f -print0 | sort -z | xargs -0 sha256sum) | cmp -s - '$T/hbefore'"
ok "solve-history/sigINT-leaves-no-temporary-file" no_tmp

# table: the previous folder of the table stays whole
# (amgs-regime's default grid takes minutes: the signal always comes while it runs; reorder
# may finish within the second on an idle machine)
mkdir -p "$T/TB" && echo previous >"$T/TB/reorder.md"
interrupt TERM "$LB" table amgs-regime --out "$T/TB" --force --reps 1
ok "table/sigTERM-ends-with-status-143" rc_is 143
ok "table/sigTERM-keeps-the-previous-folder" bash -c "[ \"\$(ls '$T/TB')\" = reorder.md ] && [ \"\$(cat '$T/TB/reorder.md')\" = previous ]"
ok "table/sigTERM-leaves-no-temporary-file" no_tmp

# SIGKILL cannot be caught: the folder being written stays beside, marked INCOMPLETE
interrupt KILL "$LB" run "$T/slow.txt" --out "$T/R" --force --no-plots
ok "run/sigKILL-keeps-the-previous-folder" same
left=$(ls -d "$T"/R.tmp* 2>/dev/null | head -1)
ok "run/sigKILL-leaves-the-new-folder-marked-INCOMPLETE" test -n "$left" -a -f "$left/INCOMPLETE"
if [ -n "$left" ]; then
  cp "$T/R/runs.csv" "$left/" 2>/dev/null
  run "$LB" plot "$left"
  ok "plot/refuses-an-incomplete-folder-with-one-line" bash -c "[ \$(cat '$T/rc') = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'is incomplete' '$T/err'"
  run "$LB" profile "$left"
  ok "profile/refuses-an-incomplete-folder-with-one-line" bash -c "[ \$(cat '$T/rc') = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'is incomplete' '$T/err'"
  mkdir -p "$T/C" && printf 'instance %s\nsolver pgs reps=0\n' "$T/i1" >"$T/C/suite.txt" && touch "$T/C/INCOMPLETE"
  run "$LB" check "$T/C" --update
  ok "check/refuses-an-incomplete-folder-with-one-line" bash -c "[ \$(cat '$T/rc') = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'is incomplete' '$T/err'"
  # the next run into R replaces it and removes its own leftovers only
  run "$LB" run "$T/fast.txt" --out "$T/R" --force --no-plots
  ok "run/after-sigKILL-a-new-run-completes" bash -c "[ \$(cat '$T/rc') = 0 ] && [ ! -e '$T/R/INCOMPLETE' ] && [ -s '$T/R/runs.csv' ]"
  rm -rf "$left"
fi
# SIGKILL of a run whose solves are limited (timeout=): the measurement child dies with it
interrupt KILL "$LB" run "$T/slowt.txt" --out "$T/R" --force --no-plots
ok "run/sigKILL-with-timeout-leaves-no-measurement-child" no_child
rm -rf "$T"/R.tmp*
# an ordinary run replaces the folder whole: no file of the previous run is left
touch "$T/R/stale.csv"
run "$LB" run "$T/fast.txt" --out "$T/R" --force --no-plots
ok "run/force-replaces-the-folder-whole" bash -c "[ \$(cat '$T/rc') = 0 ] && [ ! -e '$T/R/stale.csv' ] && [ ! -e '$T/R/INCOMPLETE' ]"
ok "run/complete-run-leaves-no-temporary-file" no_tmp
tap_done
