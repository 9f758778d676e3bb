#!/usr/bin/env bash
# valgrind_core.sh SUPP PROGRAM...: the fast C test programs under valgrind's memcheck, one
# TAP line each: an invalid read or write, a use of an uninitialised value, a definite or
# possible leak, or the program's own failure makes the line "not ok" (valgrind's report
# follows as comments).  SUPP suppresses the peer libraries' own leaks (Siconos Numerics').
# Registered only in a build without sanitizers (a sanitized program cannot run under
# valgrind); without valgrind the whole test is skipped.
set -u
supp=$1
shift
if ! command -v valgrind >/dev/null; then
  echo "1..0 # SKIP valgrind not found"
  exit 0
fi
echo "1..$#"
n=0
rc=0
for prog in "$@"; do
  n=$((n + 1))
  log=$(mktemp)
  valgrind --error-exitcode=99 --leak-check=full --quiet --suppressions="$supp" \
    --log-file="$log" "$prog" >/dev/null 2>&1
  st=$?
  if [ "$st" = 0 ] && [ ! -s "$log" ]; then
    echo "ok $n - $(basename "$prog") clean under valgrind"
  else
    echo "not ok $n - $(basename "$prog") under valgrind (exit $st)"
    sed 's/^/# /' "$log" | head -40
    rc=1
  fi
  rm -f "$log"
done
exit $rc
