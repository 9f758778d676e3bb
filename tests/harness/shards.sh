#!/usr/bin/env bash
# shards.sh LCPBENCH MKINST: `lcpbench run SUITE --shard K/N' and `lcpbench merge' build the
# folder the whole run writes (bench/README.md, "Grids on a cluster"): a suite of 3 instances
# (one captured from a scene) x 5 solver lines, with a timed-out run, is run whole and as 3
# shards (and as 1 shard and as 7, more shards than some instances have cells), merged;
# runs.csv and every history are byte-identical once the time columns are dropped, the file
# lists and captured instances identical; merge refuses with one line a missing shard, a shard
# given twice, shards of another grid, an incomplete shard and a folder that is no shard;
# shards with other columns (an earlier build's) merge under their own header.
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
. "$(dirname "$0")/../common/tap.sh"

. "$(dirname "$0")/same_folder.sh"
grid_suite "$MK" "$T" || { echo "Bail out! mkinst failed"; exit 1; }
sed 's/omega=1.3/omega=1.2/' "$T/s.txt" >"$T/other.txt"

"$LB" run "$T/s.txt" --out "$T/W" --no-plots >/dev/null 2>"$T/werr"
echo $? >"$T/wrc"
ok "whole/run-writes-its-rows" bash -c "[ \$(wc -l <'$T/W/runs.csv') = 16 ] && [ ! -e '$T/W/shard.csv' ] && [ \$(grep -c '^[^,]*,slow,.*,timeout,' '$T/W/runs.csv') = 3 ]"
for N in 1 3 7; do
  dirs=()
  for K in $(seq 1 $N); do
    "$LB" run "$T/s.txt" --shard $K/$N --out "$T/S$N-$K" --no-plots >/dev/null 2>&1
    dirs+=("$T/S$N-$K")
  done
  # shards given in reverse order: the order of the arguments does not matter
  rev=(); for ((i=${#dirs[@]}-1; i>=0; i--)); do rev+=("${dirs[i]}"); done
  run "$LB" merge "${rev[@]}" --out "$T/M$N" --no-plots
  ok "merge/$N-shards-exit-0" rc_is 0
  ok "merge/$N-shards-equal-the-whole-run-but-times-and-provenance" same_folder "$T/W" "$T/M$N"
done
# shards whose runs.csv has other columns (an earlier build's: no descriptor columns, cut
# here): the merged runs.csv keeps the shards' header, its rows as they are
for K in 1 2 3; do
  cp -r "$T/S3-$K" "$T/C3-$K"
  python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(r[:-10] for r in rows)' "$T/C3-$K/runs.csv"
done
run "$LB" merge "$T/C3-1" "$T/C3-2" "$T/C3-3" --out "$T/MC" --no-plots
ok "merge/keeps-the-shards-columns" bash -c "[ \$(cat '$T/rc') = 0 ] &&
  [ \"\$(head -1 '$T/MC/runs.csv')\" = \"\$(head -1 '$T/C3-1/runs.csv')\" ] &&
  head -1 '$T/MC/runs.csv' | grep -q ',peer_status\$' && [ \$(wc -l <'$T/MC/runs.csv') = 16 ]"
ok "shard/each-runs-its-cells-only" bash -c "[ \$(( \$(wc -l <'$T/S3-1/runs.csv') + \$(wc -l <'$T/S3-2/runs.csv') + \$(wc -l <'$T/S3-3/runs.csv') - 3 )) = 15 ]"
ok "shard/time-columns-are-really-there" bash -c "head -1 '$T/W/runs.csv' | grep -q time_setup_s && head -1 '$T/W/history/i1__pgs.csv' | grep -q time_s"

refused() {   # refused PATTERN ARGS...: exit 1, one error line matching PATTERN, no DIR
  local pat=$1; shift
  rm -rf "$T/X"
  run "$LB" merge "$@" --out "$T/X" --no-plots
  rc_is 1 && one_line_err "$pat" && [ ! -e "$T/X" ]
}
ok "merge/refuses-a-missing-shard" refused "shard 2/3 is missing" "$T/S3-1" "$T/S3-3"
ok "merge/refuses-a-shard-given-twice" refused "both shard 1/3" "$T/S3-1" "$T/S3-1" "$T/S3-2" "$T/S3-3"
ok "merge/refuses-shards-of-different-counts" refused "different grids" "$T/S3-1" "$T/S7-2"
"$LB" run "$T/other.txt" --shard 2/3 --out "$T/O2" --no-plots >/dev/null 2>&1
ok "merge/refuses-shards-of-another-suite" refused "different grids" "$T/S3-1" "$T/O2" "$T/S3-3"
cp -r "$T/S3-2" "$T/I2" && touch "$T/I2/INCOMPLETE"
ok "merge/refuses-an-incomplete-shard" refused "is incomplete" "$T/S3-1" "$T/I2" "$T/S3-3"
ok "merge/refuses-a-folder-that-is-no-shard" refused "not a shard folder" "$T/S3-1" "$T/W" "$T/S3-3"
run "$LB" run "$T/s.txt" --shard 4/3 --out "$T/B"
ok "shard/refuses-K-above-N" bash -c "[ \$(cat '$T/rc') = 2 ] && grep -q 'not K/N' '$T/err'"
tap_done
