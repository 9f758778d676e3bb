#!/usr/bin/env bash
# mpi.sh LCPBENCH MKINST MPI SANITIZE: `mpirun -np N lcpbench run SUITE --out DIR' writes the
# folder of the serial run (bench/README.md, "Grids on a cluster").  shards.sh's grid (3 instances, one
# captured from a scene, x 5 solver lines, with a timed-out run) is run serially and under 2,
# 3 and 4 ranks: runs.csv and every history are byte-identical once the time columns are
# dropped, the file lists and captured instances identical, provenance.json lists the ranks
# and their hosts.  A cell that fails (an external solver whose command fails) is recorded with its status
# under MPI as serially, with the same exit status.  A worker rank killed with SIGKILL in the
# middle of a cell ends the job with a message, exit status not 0, and DIR is not written
# (what is left is DIR.tmpPID marked INCOMPLETE, or nothing).  `table ode --quick' (its grid
# dealt) and `table reorder' (its ranges of orderings dealt) on 2 and 3 ranks write the serial
# table's files: runs.csv, histories and every CSV of the table equal once the time columns
# (and claims' verdicts, which may rest on times) are dropped, reorder.md equal.  MPI: "true" when lcpbench is
# built with MPI; skipped otherwise, and under sanitizers (Open MPI's own leaks and checks).
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
if [ "$3" != true ]; then echo "1..0 # SKIP lcpbench built without MPI (-Dmpi)"; exit 0; fi
if [ "$4" != none ]; then echo "1..0 # SKIP MPI runs are not tested under sanitizers"; exit 0; fi
command -v mpirun >/dev/null || { echo "1..0 # SKIP no mpirun"; exit 0; }
. "$(dirname "$0")/../common/tap.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export TMPDIR=$T
mpi() { local np=$1; shift; mpirun --oversubscribe -np "$np" "$LB" "$@"; }

. "$(dirname "$0")/same_folder.sh"
grid_suite "$MK" "$T" || { echo "Bail out! mkinst failed"; exit 1; }
ranks_are() {   # ranks_are DIR N: provenance.json says N ranks and names N hosts
  python3 - "$1/provenance.json" "$2" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
sys.exit(0 if p.get("ranks") == n and len(p.get("hosts", [])) == n and all(p["hosts"]) else 1)
PY
}

"$LB" run "$T/s.txt" --out "$T/W" --no-plots >/dev/null 2>&1
ok "serial/run-writes-its-rows-and-no-ranks" bash -c "[ \$(wc -l <'$T/W/runs.csv') = 16 ] && [ \$(grep -c '^[^,]*,slow,.*,timeout,' '$T/W/runs.csv') = 3 ] && ! grep -q '\"ranks\"' '$T/W/provenance.json'"
for N in 2 3 4; do
  run mpi $N run "$T/s.txt" --out "$T/M$N" --no-plots
  ok "mpi/$N-ranks-exit-0" rc_is 0
  ok "mpi/$N-ranks-equal-the-serial-run-but-times-and-provenance" same_folder "$T/W" "$T/M$N"
  ok "mpi/$N-ranks-provenance-lists-the-ranks-and-hosts" ranks_are "$T/M$N" $N
done
ok "mpi/time-columns-are-really-there" bash -c "head -1 '$T/M2/runs.csv' | grep -q time_setup_s && head -1 '$T/M2/history/i1__pgs.csv' | grep -q time_s"
ok "mpi/no-scratch-folder-left" bash -c "[ -z \"\$(find '$T' -maxdepth 1 -name 'lcpbench-rank*')\" ]"

# a cell that cannot start: its row and status, the grid goes on, the serial exit status
sed 's/^solver ldlt-ref$/solver external broken cmd=false\nsolver ldlt-ref/' "$T/s.txt" >"$T/f.txt"
run "$LB" run "$T/f.txt" --out "$T/FW" --no-plots
echo "$(cat "$T/rc")" >"$T/frc"
run mpi 3 run "$T/f.txt" --out "$T/FM" --no-plots
ok "mpi/failed-cell-recorded-like-serial" bash -c "[ \$(grep -c ',broken,.*,external-failed,' '$T/FM/runs.csv') = 3 ] && [ \$(wc -l <'$T/FM/runs.csv') = 19 ]"
ok "mpi/failed-cell-same-exit-status-as-serial" bash -c "[ \$(cat '$T/frc') = 1 ] && [ \$(cat '$T/rc') = 1 ]"
ok "mpi/failed-cell-grid-equals-serial" same_folder "$T/FW" "$T/FM"

# a worker rank killed in the middle of a long cell
# (no timeout=: the cell runs in the worker itself, with no measurement child to outlive it)
printf 'instance %s\nset reps=1 tol=-1 maxit=30000000\nsolver pgs\nsolver jacobi\n' \
  "$T/i1" >"$T/long.txt"
mpi 2 run "$T/long.txt" --out "$T/D" --no-plots >"$T/kout" 2>"$T/kerr" &
job=$!
for _ in $(seq 100); do
  w=$(find "$T" -maxdepth 1 -name 'lcpbench-rank1.tmp*' | head -1)
  [ -n "$w" ] && [ -d "$w/history" ] && break
  sleep 0.1
done
sleep 0.5
[ -n "$w" ] && kill -9 "${w##*.tmp}"
wait $job
krc=$?
ok "mpi/dead-rank-ends-the-job-with-status-not-0" bash -c "[ -n '$w' ] && [ $krc != 0 ]"
ok "mpi/dead-rank-leaves-no-DIR" bash -c "[ ! -e '$T/D' ] && for d in '$T'/D.tmp*; do [ ! -e \"\$d\" ] || [ -e \"\$d/INCOMPLETE\" ] || exit 1; done"
ok "mpi/dead-rank-leaves-no-process" bash -c "sleep 0.5; ! ps -eo args | grep -v grep | grep -q -- '$T/long.txt'"
ok "mpi/dead-rank-says-so" bash -c "grep -qi 'exited\|killed\|signal\|abort' '$T/kerr'"

# `table' under mpirun: rank 0 runs the table and deals its grids (ode --quick: one grid of 55
# cells through the run loop) and reorder's ranges of orderings to the other ranks
same_table() {   # same_table A B: the same files; runs.csv, histories and the table's CSVs
                 # equal once time columns are dropped; reorder's Markdown equal but its header
  PYTHONPATH="$COMMON" python3 - "$1" "$2" <<'PY'
import csv, os, sys
from checks import TIME_COLUMNS
a, b = sys.argv[1], sys.argv[2]
TIME = set(TIME_COLUMNS) | {"solve_time_s", "exponent", "exponent_stderr", "numbers"}
def files(d):
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs
                  if f != "provenance.json")
def rows(p, drop):
    r = list(csv.reader(open(p, newline="")))
    keep = [i for i, h in enumerate(r[0]) if h not in drop]
    return [[x[i] for i in keep if i < len(x)] for x in r]
fa, fb = files(a), files(b)
if fa != fb:
    sys.exit("# file lists differ")
n = 0
for f in fa:
    pa, pb = os.path.join(a, f), os.path.join(b, f)
    if f.endswith(".csv") and not f.startswith("plots/"):
        drop = TIME | ({"verdict", "reason"} if f == "claims.csv" else set())
        if rows(pa, drop) != rows(pb, drop):
            sys.exit("# differs: " + f)
        n += 1
    elif f.endswith(".md") and f.startswith("reorder"):
        la = [l for l in open(pa) if not l.startswith(("# date", "# command"))]
        lb = [l for l in open(pb) if not l.startswith(("# date", "# command"))]
        if la != lb:
            sys.exit("# differs: " + f)
sys.exit(0 if n >= 3 else "# too few CSV files compared")
PY
}
"$LB" table ode --quick --out "$T/TO" >/dev/null 2>&1
"$LB" table reorder --out "$T/TR" >/dev/null 2>&1
for N in 2 3; do
  run mpi $N table ode --quick --out "$T/TO$N"
  ok "mpi/table-ode-$N-ranks-exit-0" rc_is 0
  ok "mpi/table-ode-$N-ranks-runs-histories-and-csvs-equal-serial-but-times" same_table "$T/TO" "$T/TO$N"
  ok "mpi/table-ode-$N-ranks-provenance-lists-the-ranks" ranks_are "$T/TO$N" $N
  run mpi $N table reorder --out "$T/TR$N"
  ok "mpi/table-reorder-$N-ranks-exit-0" rc_is 0
  ok "mpi/table-reorder-$N-ranks-equal-the-serial-table" same_table "$T/TR" "$T/TR$N"
done
ok "mpi/table-reorder-all-orderings" bash -c "awk -F, 'NR>1 { s += \$2 } END { exit s != 362880 }' '$T/TR3/reorder-three-spheres-hist.csv'"
tap_done
