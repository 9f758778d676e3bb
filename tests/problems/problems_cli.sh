#!/usr/bin/env bash
# problems_cli.sh LCPBENCH: `lcpbench capture' and `lcpbench simulate' (problems/README.md,
# bench/README.md, "The command line") as TAP: folders written, overwrite refused without
# --force, CSV shape, and every bad input (parameter, option, scene, solver) gets one line on
# stderr and exit 2.
set -u
LB=$1
. "$(dirname "$0")/../common/tap.sh"
bad() { # bad NAME PATTERN ARGS...: exit 2 and one stderr line matching PATTERN
  local name=$1 pat=$2; shift 2
  run "$LB" "$@"
  ok "bad/$name" one_line_exit_2 "$pat"
}
one_line_exit_2() { rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -qF -- "$1" "$T/err"; }

run "$LB" capture pool --at 100 --out "$T/c"
ok "capture/pool-exit-0" rc_is 0
ok "capture/pool-prints-its-folder" grep -qx "$T/c/pool-step100" "$T/out"
ok "capture/pool-files" bash -c "cd '$T/c/pool-step100' && ls A.mtx q.mtx lo.mtx hi.mtx findex.mtx J.mtx Minv.mtx E.mtx z0.mtx meta.txt >/dev/null"
ok "capture/pool-J-is-m-by-663" bash -c "grep -v '^%' '$T/c/pool-step100/J.mtx' | head -1 | awk '{ exit !(\$2 == 663) }'"
ok "capture/pool-meta" bash -c "grep -qx 'scene = pool' '$T/c/pool-step100/meta.txt' && grep -qx 'step = 100' '$T/c/pool-step100/meta.txt' && grep -qx 'r = 0.21' '$T/c/pool-step100/meta.txt' && grep -q '^source = ' '$T/c/pool-step100/meta.txt'"
run "$LB" solve "$T/c/pool-step100" --solver pgs --reps 0
ok "capture/pool-reads-back-in-solve" rc_is 0
cp "$T/c/pool-step100/q.mtx" "$T/q.keep"
run "$LB" capture pool --at 100 --out "$T/c"
ok "capture/refuses-non-empty-folder" bash -c "[ \$(cat '$T/rc') = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'not empty' '$T/err' && cmp -s '$T/q.keep' '$T/c/pool-step100/q.mtx'"
run "$LB" capture pool --at 100 --out "$T/c" --force
ok "capture/force-replaces-identically" bash -c "[ \$(cat '$T/rc') = 0 ] && cmp -s '$T/q.keep' '$T/c/pool-step100/q.mtx'"
run "$LB" capture stack --steps 3 --name s3 --out "$T/c"
ok "capture/steps-3-gives-3-folders" bash -c "[ \$(cat '$T/rc') = 0 ] && [ -f '$T/c/s3-step1/A.mtx' ] && [ -f '$T/c/s3-step3/A.mtx' ] && [ ! -e '$T/c/s3-step4' ]"
run "$LB" capture pool --param mu=0 --at 100 --name nofric --out "$T/c"
ok "capture/mu0-has-no-findex" bash -c "[ \$(cat '$T/rc') = 0 ] && [ ! -e '$T/c/nofric-step100/findex.mtx' ] && grep -qx 'mu = 0' '$T/c/nofric-step100/meta.txt'"

run "$LB" simulate stack --steps 3
ok "simulate/exit-0" rc_is 0
ok "simulate/csv-header" bash -c "head -1 '$T/out' | grep -qx 'step,bodies,contacts,rows,iterations,residual,max_penetration,kinetic_energy'"
ok "simulate/one-line-per-step" bash -c "[ \$(wc -l <'$T/out') = 4 ] && sed -n 4p '$T/out' | grep -q '^3,30,30,60,'"
run "$LB" simulate chain --steps 4 --capture-every 2 --out "$T/sim" --solver jacobi --iters 50
ok "simulate/capture-every-2" bash -c "[ \$(cat '$T/rc') = 0 ] && [ -f '$T/sim/chain-step2/A.mtx' ] && [ -f '$T/sim/chain-step4/A.mtx' ] && [ ! -e '$T/sim/chain-step3' ] && grep -qx 'solver = jacobi' '$T/sim/chain-step2/meta.txt'"
run "$LB" simulate spheres --steps 2 --param n=50 --timing
ok "simulate/timing-on-stderr" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'collision' '$T/err'"
run "$LB" capture --help
ok "help/capture" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q '^usage: lcpbench capture' '$T/out'"
run "$LB" simulate --help
ok "help/simulate" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q '^usage: lcpbench simulate' '$T/out'"

bad negative-radius "r = -1: must be > 0" capture pool --param r=-1 --at 1 --out "$T/x"
bad zero-mass "m = 0: must be > 0" capture stack --param m=0 --at 1 --out "$T/x"
bad negative-mu "mu = -0.5: must be >= 0" simulate spheres --param mu=-0.5 --steps 1
bad unknown-key "unknown parameter 'radius'" simulate pool --param radius=1 --steps 1
bad not-a-number "'abc' is not a finite number" simulate pool --param r=abc --steps 1
bad does-not-fit "does not fit" capture pool --param r=0.3 --at 1 --out "$T/x"
bad unknown-option "unknown option '--bogus'" capture pool --at 1 --out "$T/x" --bogus
bad unknown-scene "unknown scene 'nope'" simulate nope --steps 1
bad unknown-solver "unknown solver 'nope'" simulate pool --steps 1 --solver nope
bad capture-needs-out "--out DIR is required" capture pool --at 1
bad capture-at-or-steps "either --at" capture pool --at 1 --steps 2 --out "$T/x"
bad simulate-needs-steps "--steps N is required" simulate pool
bad bad-at "--at: 'x' is not an integer" capture pool --at 1,x --out "$T/x"
ok "bad/nothing-written" bash -c "[ ! -e '$T/x' ]"
tap_done
