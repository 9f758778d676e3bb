#!/usr/bin/env bash
# The README's test command: install, build (release and ASan+UBSan), run every test suite in
# both builds.  Exit status non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash bench/build.sh --tests              # install what is missing, release build in build/
export OPENBLAS_NUM_THREADS=1
rc=0
meson test -C build --print-errorlogs || rc=1
[ -f build-asan/build.ninja ] || meson setup build-asan --buildtype=debugoptimized \
  -Db_sanitize=address,undefined -Dc_args=-fno-sanitize-recover=all >/dev/null
ninja -C build-asan >/dev/null
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  meson test -C build-asan --print-errorlogs --timeout-multiplier 3 || rc=1
exit $rc
