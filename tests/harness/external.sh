#!/usr/bin/env bash
# external.sh LCPBENCH EXTERNAL_PGS INSTANCES: a solver outside the library in a suite
# (`solver external NAME cmd=...'): it appears in runs.csv scored by the harness's residual,
# with a history and a time, in the profiles; failures and time limits give a named status
# and the grid goes on.
set -u
L=$1 X=$2 I=$3
. "$(dirname "$0")/../common/tap.sh"
col() { # col FILE LABEL COLUMN: the value of COLUMN in the row of LABEL
  awk -F, -v l="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
    $2 == l { print $k[c] }' "$1"
}
export -f col
cat >"$T/s.txt" <<SUITE
suite ext
instance $I/stack-30-step100
instance $I/capsule-step1
set reps=2
solver pgs tol=1e-9 maxit=5000 label=pgs
solver external xpgs cmd=$X
solver external broken cmd=false
solver external slow timeout=0.5 cmd=sleep 5;
SUITE
run "$L" run "$T/s.txt" --out "$T/r"
ok "a grid with external solvers runs (exit 1: one of them failed)" rc_is 1
R=$T/r/runs.csv
ok "external: the answer is scored by the harness (answered; capsule: residual below 1e-9 as pgs's)" \
  bash -c "[ \"\$(col '$R' xpgs peer_status | sort -u)\" = answered ] &&
    awk -v a=\"\$(col '$R' xpgs residual | tail -n 1)\" -v b=\"\$(col '$R' pgs residual | tail -n 1)\" \
      'BEGIN { exit !(a > 0 && a < 1e-9 && b < 1e-9) }'"
# its status is the suite's verdict: converged exactly when ||r||_2 <= the tol asked (1e-6)
ok "external: status converged iff its residual is at most the tolerance" \
  bash -c "paste -d' ' <(col '$R' xpgs status) <(col '$R' xpgs residual) |
    awk '{ n++; if (\$1 != (\$2 + 0 <= 1e-6 ? \"converged\" : \"not-converged\")) bad = 1 } END { exit !(n == 2 && !bad) }'"
ok "external: its time comes from timing the process (median within min and max)" \
  bash -c "awk -v t=\"\$(col '$R' xpgs time_s | head -n 1)\" -v lo=\"\$(col '$R' xpgs time_min_s | head -n 1)\" \
    -v hi=\"\$(col '$R' xpgs time_max_s | head -n 1)\" 'BEGIN { exit !(t > 0 && lo <= t && t <= hi) }'"
ok "external: its history.csv became a scored history (iteration 0 is the cold start)" \
  bash -c "h=\"\$(col '$R' xpgs history | head -n 1)\"; [ -n \"\$h\" ] &&
    awk -F, 'NR == 2 && \$1 == 0 { ok = 1 } END { exit !ok }' '$T/r/history/'\"\$h\""
ok "external: the same sweeps as the library's pgs give the same residual at sweep 1" \
  bash -c "[ -n \"\$(col '$R' pgs history)\" ] && hx=\"\$(col '$R' xpgs history | head -n 1)\"; hp=\"\$(col '$R' pgs history | head -n 1)\";
    [ \"\$(awk -F, 'NR == 3 { print \$2 }' '$T/r/history/'\"\$hx\")\" = \"\$(awk -F, 'NR == 3 { print \$2 }' '$T/r/history/'\"\$hp\")\" ]"
ok "external: a command that fails gives external-failed, one line naming it" \
  bash -c "[ \"\$(col '$R' broken status | sort -u)\" = external-failed ] &&
    grep -q 'external broken: the command exited with status 1' '$T/err'"
ok "external: a command past its timeout is killed and says timeout" \
  bash -c "[ \"\$(col '$R' slow status | sort -u)\" = timeout ]"
run "$L" profile "$T/r"
ok "external: the performance and data profiles take the external solver like any other" \
  bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q '^xpgs,' '$T/r/profile/perf-time.csv' &&
    grep -q '^xpgs,' '$T/r/profile/data-1e-06.csv'"
printf 'solver external pgs cmd=true\n' >"$T/bad.txt"
run "$L" run "$T/bad.txt" --out "$T/bad"
ok "external: a registered solver's name is refused" eval 'rc_is 2 && one_line_err "registered solver"'
printf 'instance %s\nsolver external x tol=1e-6 cmd=true\n' "$I/capsule-step1" >"$T/bad2.txt"
run "$L" run "$T/bad2.txt" --out "$T/bad2"
ok "external: a setting an external command does not use is refused" eval 'rc_is 2 && one_line_err "tol"'
tap_done
