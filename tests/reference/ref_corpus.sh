#!/usr/bin/env bash
# ref_corpus.sh LCPBENCH INSTANCES [--full | --quick]: the oracle corpus (test
# 'reference-corpus'; --quick, for the sanitizer build, leaves out the cases that take
# seconds: two generated friction problems and the captured piles).
# ldlt-ref on (1) the generated families of tests/reference/oracle_corpus.py, each mirroring a
# class of external problem on which the oracle once answered falsely (positive definite with
# wide diagonal scaling, q at rounding level, near-symmetric at 1e-14, non-symmetric friction
# with a semi-definite symmetric part, bimatrix games, certified-infeasible LCPs, 2D and 3D
# friction with redundant contacts), (2) captured friction piles without compliance
# (eps = 0: semi-definite, redundant contacts), (3) every committed instance.  Each case's
# status must be one of those it expects, and every answer is re-checked by the script's own
# numpy code from the folder's files (oracle_corpus.py check): converged and solved-nonunique
# at rounding row by row, no-solution-found with a Farkas certificate it finds itself.  Each
# case's CPU time (user + system: the machine may be shared) is printed; with
# CORPUS_MAX_CPU=S (the benchmark 'reference-corpus' sets 2, the goal of the reference
# README) a case of at most 2000 rows over S seconds fails.
set -u
LB=$1
INST=$2
FULL=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import numpy, scipy' 2>/dev/null; then
  echo "1..0 # SKIP numpy and scipy are needed for the independent check"
  exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$PY" "$HERE/oracle_corpus.py" make "$T/c" $FULL >/dev/null || { echo "not ok 1 - corpus generated"; exit 1; }
# (2) captured piles: the expectation is what an independent solver proves (PGS converges on
# pool mu 1); pool mu 0.3 has a solution (PGS stalls at 6e-4; the friction cone's LCP,
# route lemke-cone, finds it and the independent check confirms it)
cap() { "$LB" capture "$1" --at "$2" --out "$T/c" --name "$3" --force "${@:4}" >/dev/null &&
        mv "$T/c/$3-step$2" "$T/c/$3"; }
if [ "$FULL" != --quick ]; then
  cap pool 150 pool-mu1-eps0 --param mu=1 --param eps=0 &&
  cap pool 150 pool-mu0.3-eps0 --param mu=0.3 --param eps=0 ||
    { echo "not ok 1 - piles captured"; exit 1; }
  { echo "pool-mu1-eps0,pile,736,converged|solved-nonunique"
    echo "pool-mu0.3-eps0,pile,802,converged|solved-nonunique"
  } >>"$T/c/expected.csv"
fi
{
  for d in "$INST"/*/; do
    n=$(basename "$d")
    cp -r "$d" "$T/c/$n"
    rm -f "$T/c/$n/zref.mtx"
    echo "$n,committed,$(sed -n 's/^rows = //p' "$d/meta.txt"),converged|solved-nonunique"
  done
} >>"$T/c/expected.csv"
: >"$T/runs.csv"
: >"$T/slow"
: >"$T/times"
while IFS=, read -r case _ rows _; do
  [ "$case" = case ] && continue
  OPENBLAS_NUM_THREADS=1 /usr/bin/time -f '%U %S' -o "$T/time" "$LB" solve "$T/c/$case" \
    --solver ldlt-ref --reps 0 --solution "$T/sol" --force 2>"$T/err" >"$T/out"
  grep ',ldlt-ref,' "$T/out" >>"$T/runs.csv"
  t=$(tail -n 1 "$T/time" | awk '{print $1 + $2}')             # CPU seconds: the machine may be shared
  echo "$case $rows rows: $t s of CPU" >>"$T/times"
  if [ -n "${CORPUS_MAX_CPU:-}" ] && [ "$rows" -le 2000 ] &&
     [ "$(echo "$t > $CORPUS_MAX_CPU" | bc)" = 1 ]; then
    echo "$case $rows rows: $t s of CPU" >>"$T/slow"
  fi
done <"$T/c/expected.csv"
"$PY" "$HERE/oracle_corpus.py" check "$T/c" "$T/runs.csv" "$T/sol" | grep -v '^1\.\.' >"$T/tap"
n=$(grep -c '^\(not \)\?ok' "$T/tap")
cat "$T/tap"
sed 's/^/# /' "$T/times"
if [ -n "${CORPUS_MAX_CPU:-}" ]; then
  n=$((n + 1))
  if [ -s "$T/slow" ]; then
    echo "not ok $n - ref/corpus-at-most-${CORPUS_MAX_CPU}s-cpu-per-case-up-to-2000-rows"
    sed 's/^/# slow: /' "$T/slow"
  else
    echo "ok $n - ref/corpus-at-most-${CORPUS_MAX_CPU}s-cpu-per-case-up-to-2000-rows"
  fi
fi
echo "1..$n"
grep -q '^not ok' "$T/tap" && exit 1
[ -s "$T/slow" ] && exit 1
exit 0
