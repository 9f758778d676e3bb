#!/usr/bin/env bash
# fuzz.sh SRCROOT TARGET SECONDS WORKDIR: build the libFuzzer target fuzz_TARGET.c beside
# this script (read or solve) with clang (-fsanitize=fuzzer,address,undefined) from the
# library's sources, replay the committed corpus fuzz/corpus-TARGET/ beside it (every crash
# once found and fixed is kept there as a regression input), replay fuzz/known-TARGET/ if any
# (inputs that still fail: open defects, TAP TODO lines), then fuzz for SECONDS seconds from the seed
# FUZZ_SEED (default 1).  TAP: a line each, or "1..0 # SKIP" when clang cannot build a fuzzer
# (FUZZ_REQUIRED=1 makes that a failure).  The objects are built once in WORKDIR/obj (in
# parallel, under a lock: both targets share them) and rebuilt when their source or a header
# is newer.  A crash leaves its input in WORKDIR/crash-TARGET-* (printed).
set -u
SRC=$1 TGT=$2 SECS=$3 WORK=$4
HERE=$(cd "$(dirname "$0")" && pwd)   # tests/robust: the targets and their corpus fuzz/
CLANG=${CLANG:-clang}
mkdir -p "$WORK"
skip() {
  if [ "${FUZZ_REQUIRED:-0}" = 1 ]; then echo "not ok 1 - fuzz/$TGT: $1"; echo "1..1"; exit 1; fi
  echo "1..0 # SKIP $1"; exit 0
}
command -v "$CLANG" >/dev/null || skip "no clang"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }' \
  >"$WORK/probe.c"
"$CLANG" -fsanitize=fuzzer "$WORK/probe.c" -o "$WORK/probe" 2>/dev/null ||
  skip "clang cannot link libFuzzer (install libclang-rt-dev)"
DEPS=$(pkg-config --cflags --libs openblas lapacke 2>/dev/null || echo "-lopenblas -llapacke")
CFLAGS=(-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=fuzzer,address,undefined
        -fno-sanitize-recover=all -fno-omit-frame-pointer -I"$SRC/lcp" -I"$SRC/reference"
        -I/usr/include/suitesparse)
BIN=$WORK/fuzz_$TGT
(
  flock 9
  mkdir -p "$WORK/obj"
  objs=() pids=() relink=0
  for f in "$SRC"/lcp/*.c "$SRC"/reference/*.c "$HERE/fuzz_$TGT.c"; do
    case $f in */peer_*) continue ;; esac # the peer libraries are not fuzzed (no LCP_HAVE_*)
    o=$WORK/obj/$(basename "$(dirname "$f")")_$(basename "$f" .c).o
    objs+=("$o")
    stale=0
    [ -f "$o" ] || stale=1
    for h in "$f" "$SRC"/lcp/*.h "$SRC"/reference/*.h; do [ "$h" -nt "$o" ] && stale=1; done
    if [ $stale = 1 ]; then
      relink=1
      "$CLANG" "${CFLAGS[@]}" -c "$f" -o "$o" 2>>"$WORK/build-$TGT.log" &
      pids+=($!)
    fi
  done
  for p in "${pids[@]}"; do wait "$p" || exit 1; done
  [ -x "$BIN" ] || relink=1
  if [ $relink = 1 ]; then
    # shellcheck disable=SC2086
    "$CLANG" "${CFLAGS[@]}" "${objs[@]}" -o "$BIN" -lcholmod -lklu -lsuitesparseconfig $DEPS -lm \
      -lpthread 2>>"$WORK/build-$TGT.log" || exit 1
  fi
) 9>"$WORK/lock"
if [ $? != 0 ] || [ ! -x "$BIN" ]; then
  echo "not ok 1 - fuzz/$TGT: build failed"; sed 's/^/# /' "$WORK/build-$TGT.log" | head -40
  echo "1..1"; exit 1
fi
export OPENBLAS_NUM_THREADS=1
RUN=$(mktemp -d "$WORK/run-$TGT.XXXXXX")
trap 'rm -rf "$RUN"' EXIT
mkdir -p "$RUN/tmp" "$RUN/corpus"
fails=0
# 1. the committed corpus, each input once
TMPDIR=$RUN/tmp "$BIN" -runs=0 -artifact_prefix="$WORK/crash-$TGT-" \
  "$HERE/fuzz/corpus-$TGT" >"$RUN/replay.log" 2>&1
rc=$?
n=$(ls "$HERE/fuzz/corpus-$TGT" | wc -l)
if [ $rc = 0 ]; then echo "ok 1 - fuzz/$TGT: the $n committed inputs replay without a crash"
else echo "not ok 1 - fuzz/$TGT: a committed input crashes"; tail -40 "$RUN/replay.log" | sed 's/^/# /'; fails=1; fi
# 2. known open defects: inputs that still fail, committed to known-TARGET/ (TAP TODO)
k=2
for f in "$HERE/fuzz/known-$TGT"/*; do
  [ -f "$f" ] || continue
  if TMPDIR=$RUN/tmp "$BIN" "$f" >"$RUN/known.log" 2>&1; then
    echo "ok $k - fuzz/$TGT/known/$(basename "$f") # TODO known defect, now passing: move it to corpus-$TGT"
  else
    echo "not ok $k - fuzz/$TGT/known/$(basename "$f") # TODO known defect: $(grep -m1 "^fuzz_" "$RUN/known.log")"
  fi
  k=$((k + 1))
done
# 3. fuzz for SECS seconds (new inputs go to a scratch corpus, not into the source tree)
#    from a fixed seed (FUZZ_SEED, default 1), so that a failure in CI can be replayed
SEED=${FUZZ_SEED:-1}
touch "$RUN/start"
TMPDIR=$RUN/tmp "$BIN" -seed="$SEED" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 \
  -report_slow_units=100000 -max_len=4096 -print_final_stats=1 -artifact_prefix="$WORK/crash-$TGT-" "$RUN/corpus" \
  "$HERE/fuzz/corpus-$TGT" >"$RUN/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$RUN/fuzz.log")
if [ $rc = 0 ]; then echo "ok $k - fuzz/$TGT: ${runs:-?} inputs in $SECS s (seed $SEED) without a crash, leak or hang"
else
  repro=$(find "$WORK" -maxdepth 1 -newer "$RUN/start" \( -name "crash-$TGT-crash-*" -o \
    -name "crash-$TGT-leak-*" -o -name "crash-$TGT-oom-*" -o -name "crash-$TGT-timeout-*" \) |
    head -1)
  echo "not ok $k - fuzz/$TGT: failure after ${runs:-?} inputs (seed $SEED); reproducer: ${repro:-none}"
  # the details go to stderr too: a TAP runner shows stderr, not "#" lines, when a test fails;
  # the reproducer is printed in base64 so that a failure on another machine can be replayed
  # (base64 -d > f; fuzz_TARGET f)
  { grep -B2 -A30 "ERROR\|violated\|runtime error\|SUMMARY" "$RUN/fuzz.log" | head -60
    [ -n "$repro" ] && { echo "reproducer, base64:"; base64 -w 76 "$repro"; }
  } | tee /dev/stderr | sed 's/^/# /'
  fails=1
fi
echo "1..$k"
[ $fails = 0 ]
