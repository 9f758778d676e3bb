#!/usr/bin/env bash
# nomem_ulimit.sh LCPBENCH INSTANCES: the explicit AMGS solvers under a small address-space
# limit (`ulimit -v', in a subshell, with a timeout) end with a clean error status instead of
# spinning inside OpenBLAS's allocator: out-of-memory when OpenBLAS's dgemm buffer (128 MiB)
# does not fit, too-large when the dense arrays exceed half the limit; under a roomy limit the
# same runs finish normally (the control).  Each case runs with OPENBLAS_NUM_THREADS=1, 2
# and unset (the environment of meson test is not trusted: each is set or removed here):
# OpenBLAS's pthreads build starts its worker threads before main(), each maps a 128 MiB
# buffer at once and retries forever when the limit refuses it, and exit() joined them, so
# with more than one thread every command printed its result and never ended (lcpbench now
# executes itself again with one thread then: bench_blas_fit, bench/util.c).  The timeout
# turns such a hang into a failure (exit 124).  A sanitizer build cannot start under
# `ulimit -v' (its shadow memory is reserved up front): then the test is skipped.
set -u
LB=$1
INST=$2
. "$(dirname "$0")/../common/tap.sh"
threads=1
limited() { # limited KIB COMMAND...: under ulimit -v KIB, $threads threads, a 15 s timeout
  local kib=$1; shift
  local env=(env OPENBLAS_NUM_THREADS="$threads")
  [ "$threads" = unset ] && env=(env -u OPENBLAS_NUM_THREADS)
  run bash -c 'ulimit -v "$0" && exec timeout 15 "$@"' "$kib" "${env[@]}" "$@"
}
limited 100000 "$LB" list solvers
if ! rc_is 0; then
  echo "1..0 # SKIP lcpbench cannot start under ulimit -v 100000 (a sanitizer build?)"
  exit 0
fi
status_is() { rc_is 1 && grep -q ",$1,$2," "$T/out" && one_line_err "$1: $2"; }
# a 600-sphere pile (4794 rows, 3600 dofs: its dense arrays take 420 MB) for the too-large
# case: the binary itself needs about 90 MB of address space to start with the peer libraries
OPENBLAS_NUM_THREADS=1 "$LB" capture spheres --param n=600 --at 100 --out "$T/big" >/dev/null 2>&1
for threads in 1 2 unset; do
  tn=threads-$threads
  limited 100000 "$LB" list solvers
  ok "ulimit/$tn/list-under-100-MB-ends" bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q '^ *amgs-D-explicit ' '$T/out'"
  for s in amgs-D-explicit amgs-I-explicit; do
    limited 100000 "$LB" solve "$INST/stack-30-step100" --solver "$s"
    ok "ulimit/$tn/$s/stack-30-under-100-MB-out-of-memory" status_is "$s" out-of-memory
    limited 200000 "$LB" solve "$T/big/spheres-step100" --solver "$s"
    ok "ulimit/$tn/$s/spheres-4794-rows-under-200-MB-too-large" status_is "$s" too-large
    limited 100000 "$LB" solve "$INST/stack-30-step100" --solver "$s" --form assembled
    ok "ulimit/$tn/$s/stack-30-assembled-needs-no-dgemm-runs" \
      bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q ',$s,max-iterations\|,$s,converged' '$T/out'"
    limited 1000000 "$LB" solve "$INST/stack-30-step100" --solver "$s"
    ok "ulimit/$tn/$s/stack-30-under-1-GB-runs" \
      bash -c "[ \$(cat '$T/rc') = 0 ] && grep -q ',$s,max-iterations\|,$s,converged' '$T/out'"
  done
done
tap_done
