# tap.sh: sourced by the shell tests; TAP lines, a scratch folder and the run helpers.
#   ok NAME COMMAND...     one TAP line: "ok N - NAME" when COMMAND succeeds
#   run COMMAND...         stdout, stderr and exit code into $T/out, $T/err, $T/rc
#   rc_is CODE             the last run's exit code
#   one_line_err PATTERN   the last run printed exactly one stderr line, matching PATTERN
#   tap_done               the plan line; exit status 1 when a check failed
#   $COMMON                this folder (absolute): "$PY" "$COMMON/checks.py" FUNCTION ARG...
#                          runs the shared Python checks (checks.py)
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
fails=0
ok() {
  local name=$1; shift
  n=$((n + 1))
  if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fails=$((fails + 1)); fi
}
run() { "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
one_line_err() { [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$1" "$T/err"; }
tap_done() { echo "1..$n"; [ "$fails" = 0 ]; }
