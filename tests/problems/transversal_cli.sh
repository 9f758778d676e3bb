#!/usr/bin/env bash
# transversal_cli.sh LCPBENCH: `lcpbench modal' and `lcpbench simulate --stepper' as TAP:
# the towed string's spectrum and h_crit, the mode shapes, the transversal CSV columns, the
# deterministic output, and one error line for a world with contacts or a bad name.
set -u
LB=$1
. "$(dirname "$0")/../common/tap.sh"
one_line_exit_2() { rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -qF -- "$1" "$T/err"; }

run "$LB" modal towed --at 0
ok "modal/towed-exit-0" rc_is 0
ok "modal/towed-omega-max-63.06" grep -q '^# omega_max: restricted 63.0599781' "$T/out"
ok "modal/towed-h-crit-31.7ms" grep -q '^# h_crit = 2/omega_max = 0.0317158 s' "$T/out"
ok "modal/towed-20-modes-csv" bash -c "grep -c ',restricted\$' '$T/out' | grep -qx 20 && grep -qx 'i,omega_i,h_omega_i,space' '$T/out'"
run "$LB" modal pendulum --at 0 --param angle=0 --modes
ok "modal/pendulum-mode-shape" bash -c "grep -qx 'mode,body,dx,dy' '$T/out' && grep -q '^1,0,3.16227766' '$T/out'"
run "$LB" modal chain --at 300 --param n=10 --solver ldlt-ref --param dim=3
ok "modal/bad-param" one_line_exit_2 "unknown parameter 'dim'"
run "$LB" modal stack --at 0
ok "modal/contacts-refused" one_line_exit_2 "contacts are not supported"

run "$LB" simulate towed --steps 40 --stepper vts --solver ldlt-ref --param h=0.034 --modal
ok "simulate-stepper/exit-0" rc_is 0
ok "simulate-stepper/header" bash -c "head -1 '$T/out' | grep -qx 'step,bodies,contacts,rows,iterations,residual,max_penetration,kinetic_energy,max_stretch,E_T,E_C,E_nyq,omega_max'"
ok "simulate-stepper/41-lines" bash -c "[ \$(wc -l <'$T/out') = 41 ]"
ok "simulate-stepper/summary-jitter" grep -q '^# stepper vts: jitter after 40 steps' "$T/err"
cp "$T/out" "$T/first.csv"
run "$LB" simulate towed --steps 40 --stepper vts --solver ldlt-ref --param h=0.034 --modal
ok "simulate-stepper/deterministic" cmp -s "$T/out" "$T/first.csv"
run "$LB" simulate thread --steps 60 --stepper ivts --beta 0.5 --iters 20 --rhs spook
ok "simulate-stepper/ivts-options" bash -c "rc_ok() { [ \$(cat '$T/rc') = 0 ]; }; rc_ok && grep -q '^# stepper ivts: [a-z]* after 60 steps' '$T/err' && [ \$(wc -l <'$T/out') = 61 ]"
run "$LB" simulate stack --steps 3 --stepper pbd
ok "simulate-stepper/contacts-refused" one_line_exit_2 "stepper pbd: unsupported"
run "$LB" simulate towed --steps 3 --stepper nope
ok "simulate-stepper/unknown" one_line_exit_2 "unknown stepper 'nope'"
run "$LB" simulate towed --steps 3 --beta 0.5
ok "simulate-stepper/beta-needs-stepper" one_line_exit_2 "go with --stepper"
tap_done
