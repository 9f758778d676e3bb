#!/usr/bin/env bash
# regenerate.sh [--out ROOT] [--lcpbench PATH] [--list] [SET...]: regenerate the committed
# result sets of results/ (results/README.md, "Regenerating the results").
#
# Each SET is a folder of results/ with the command that made it (the table below, the same
# as results/README.md's); no SET: every one, in the table's order.  Each set is written by
# `lcpbench table NAME ... --out ROOT/SET --force' (so its provenance names the lcpbench
# version and the git commit that made it), then trimmed to what is committed: the Markdown,
# the CSV files, claims.csv, provenance.json and plots/*.{png,gp,csv} (history/, instances/
# and the PDF figures are removed).  The check baseline (`check') is rewritten in place by
# `lcpbench check --update', only when ROOT is this tree's results/.
#
# ROOT defaults to results/ of this tree, lcpbench to build/bench/lcpbench (bench/build.sh).
# The tables run from the repository root (the peers table reads problems/instances/ there),
# with one BLAS thread.  Each set's wall and CPU seconds and the total go to stderr.  Exit 1
# when a set failed (the others still run), 2 on a bad argument.
set -uo pipefail
here=$(pwd)
cd "$(dirname "$0")/.."
export OPENBLAS_NUM_THREADS=1

# SET | lcpbench arguments (--out and --force are added)
SETS='
amgs-table1         table amgs-table1
amgs-table1-suite   table amgs-table1 --variant suite
amgs-regime         table amgs-regime
amgs-regime-quick   table amgs-regime --quick
amgs-table2         table amgs-table2
amgs-table2-spook   table amgs-table2 --variant spook
amgs-table2-suite   table amgs-table2 --variant suite
reorder-sim         table reorder-sim
amgs-figures        table amgs-figures
amgs-figures-spook  table amgs-figures --variant spook
reorder             table reorder
ode                 table ode
spook-pgs           table spook-pgs
transversal         table transversal
peers               table peers
precision           table precision
solvers             table solvers
check               check --update
'

root=results lb=build/bench/lcpbench want=()
abs() { case $1 in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
while [ $# -gt 0 ]; do
  case $1 in
    --out) root=$(abs "${2:?--out needs a folder}"); shift ;;
    --lcpbench) lb=$(abs "${2:?--lcpbench needs a path}"); shift ;;
    --list) echo "$SETS" | awk 'NF { s = $1; $1 = ""; printf "%-20s lcpbench%s\n", s, $0 }'
            exit 0 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "regenerate.sh: unknown option '$1' (--help)" >&2; exit 2 ;;
    *) want+=("$1") ;;
  esac
  shift
done
[ -x "$lb" ] || { echo "regenerate.sh: $lb not found: bash bench/build.sh first" >&2; exit 2; }
[ ${#want[@]} -gt 0 ] || want=($(echo "$SETS" | awk 'NF { print $1 }'))
for s in "${want[@]}"; do
  echo "$SETS" | awk -v s="$s" '$1 == s { f = 1 } END { exit !f }' ||
    { echo "regenerate.sh: no result set '$s' (--list)" >&2; exit 2; }
done

# keep what is committed of a fresh set: no folder but plots/, no PDF
trim() {
  find "$1" -mindepth 1 -maxdepth 1 -type d ! -name plots -exec rm -rf {} +
  if [ -d "$1/plots" ]; then
    find "$1/plots" -mindepth 1 \( -type d -o -name '*.pdf' \) -prune -exec rm -rf {} +
  fi
}

# one set: its command, then the trim; 0 or the command's exit status
one() {
  local s=$1 args
  args=$(echo "$SETS" | awk -v s="$s" '$1 == s { $1 = ""; print }')
  if [ "$s" = check ]; then
    "$lb" $args results/check
  else
    "$lb" $args --out "$root/$s" --force && trim "$root/$s"
  fi
}

failed=0 wall=0 cpu=0
for s in "${want[@]}"; do
  if [ "$s" = check ] && [ "$(realpath -m "$root")" != "$(realpath results)" ]; then
    echo "regenerate.sh: check: rewritten in place only (results/check); skipped" >&2
    continue
  fi
  t0=$(date +%s.%N)
  c0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)   # children's CPU ticks
  one "$s"
  rc=$?
  t=$(echo "$(date +%s.%N) - $t0" | bc)
  c=$(awk -v c0="$c0" -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15 + $16 + $17 - c0) / hz }' \
      /proc/$$/stat)
  wall=$(echo "$wall + $t" | bc) cpu=$(echo "$cpu + $c" | bc)
  [ $rc -eq 0 ] || { failed=1; echo "regenerate.sh: $s FAILED (exit $rc)" >&2; }
  printf 'regenerate.sh: %-18s %7.1f s wall %7.1f s CPU\n' "$s" "$t" "$c" >&2
done
printf 'regenerate.sh: %-18s %7.1f s wall %7.1f s CPU (load average now %s)\n' total "$wall" \
  "$cpu" "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit $failed
