#!/usr/bin/env bash
# The README's main job: install what is missing, build (release), then regenerate the AMGS
# paper's Table 1 from scratch under the paper's protocol (rigid contacts, 10 sweeps per
# stepper step; pool and pool-graded at seeds 1-4 and stack-150, each at steps 100, 200, 300;
# every method, 5 timing repetitions) with its figures into results/amgs-table1/ (replacing
# the committed copy: `git diff results/' shows what changed).
# Extra arguments go to `lcpbench table', e.g. `bash bench/main.sh --out /tmp/t1'.
set -euo pipefail
cd "$(dirname "$0")/.."
bash bench/build.sh                      # install what is missing, release build in build/
export OPENBLAS_NUM_THREADS=1
out=results/amgs-table1
for a in "$@"; do [ "$a" = --out ] && out=; done
if [ -n "$out" ]; then
  build/bench/lcpbench table amgs-table1 --out "$out" --force "$@"
else
  build/bench/lcpbench table amgs-table1 "$@"
fi
