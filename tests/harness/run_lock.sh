#!/usr/bin/env bash
# run_lock.sh LCPBENCH MKINST: one `lcpbench run' at a time per output folder
# (bench/README.md, "Interrupted runs": one run per folder, the writer lock DIR.lock).  A
# second run into the folder a first one is writing (a new folder, the same folder spelt DIR/,
# or with --force) is refused with one stderr line naming the folder and the first run's pid,
# exit 1, nothing on stdout, and the first run's folder is its own (its label, not the
# second's); the lock file is gone after.  A lock held by another process (python's lockf: an
# fcntl write lock on the whole file, the protocol bench/README.md gives) is refused the same
# way, naming that pid.  A stale lock (the file a SIGKILLed run left, or a dead pid written by
# hand) is taken over: the run succeeds and removes it.  SIGTERM removes it too.
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
. "$(dirname "$0")/../common/tap.sh"

"$MK" "$T/i1" 7 || { echo "Bail out! mkinst failed"; exit 1; }
suite() {   # suite FILE LABEL SECONDS: one run of SECONDS (a timeout ends it)
  printf 'instance %s\nset reps=1\nsolver pgs tol=-1 maxit=2000000000 timeout=%s label=%s\n' \
    "$T/i1" "$3" "$2" >"$1"
}
suite "$T/first.txt" first 3
suite "$T/second.txt" second 0.1
# wait (5 s at most) until the file $1 holds a line of digits; 0 when it came
wait_pid_in() {
  for _ in $(seq 100); do grep -qx '[0-9][0-9]*' "$1" 2>/dev/null && return 0; sleep 0.05; done
  return 1
}
refused_by() {   # refused_by PID DIR: the last run was refused in one line naming both
  rc_is 1 && one_line_err "$2: another lcpbench (pid $1) is writing this folder" &&
    [ ! -s "$T/out" ]
}
owns() {   # owns DIR LABEL: DIR holds one run, labelled LABEL, and no lock or temporary is left
  [ "$(grep -c "^i1,$2,pgs," "$1/runs.csv")" = 1 ] && [ "$(wc -l <"$1/runs.csv")" = 2 ] &&
    grep -q "$2.txt" "$1/provenance.json" && [ ! -e "$1.lock" ] &&
    [ -z "$(find "$(dirname "$1")" -name '*.tmp[0-9]*' -o -name '*.old[0-9]*')" ]
}

# ---- two runs into one new folder at once ----------------------------------------------------
mkdir "$T/a"
"$LB" run "$T/first.txt" --out "$T/a/R" --no-plots >"$T/first.out" 2>"$T/first.err" &
first=$!
wait_pid_in "$T/a/R.lock"
ok "lock/holds-the-first-runs-pid" bash -c "[ \"\$(cat '$T/a/R.lock' 2>/dev/null)\" = $first ]"
run "$LB" run "$T/second.txt" --out "$T/a/R" --no-plots
ok "lock/second-run-same-new-folder-refused-naming-pid" refused_by "$first" "$T/a/R"
run "$LB" run "$T/second.txt" --out "$T/a/R/" --no-plots --force
ok "lock/second-run-DIR/-with-force-refused" refused_by "$first" "$T/a/R"
wait "$first"
echo $? >"$T/first.rc"
ok "lock/first-run-ends-0" bash -c "[ \$(cat '$T/first.rc') = 0 ] && [ ! -s '$T/first.err' ]"
ok "lock/first-runs-folder-intact-lock-gone" owns "$T/a/R" first

# ---- a lock held by another process (fcntl lock on DIR.lock, its pid in it) ------------------
python3 - "$T/a/H.lock" <<'PY' &
import fcntl, os, sys, time
f = open(sys.argv[1], "a+")
fcntl.lockf(f, fcntl.LOCK_EX)
f.truncate(0); f.write("%d\n" % os.getpid()); f.flush()
time.sleep(30)
PY
holder=$!
wait_pid_in "$T/a/H.lock"
run "$LB" run "$T/second.txt" --out "$T/a/H" --no-plots
ok "lock/held-by-another-process-refused-naming-its-pid" refused_by "$holder" "$T/a/H"
ok "lock/refused-run-wrote-nothing" bash -c "[ ! -e '$T/a/H' ] && [ \"\$(cat '$T/a/H.lock')\" = $holder ]"
kill "$holder"; wait "$holder" 2>/dev/null
run "$LB" run "$T/second.txt" --out "$T/a/H" --no-plots
ok "lock/holder-gone-its-file-taken-over" bash -c "[ \$(cat '$T/rc') = 0 ] && [ ! -s '$T/err' ]"
ok "lock/taken-over-folder-written-lock-removed" owns "$T/a/H" second

# ---- stale locks: a dead pid by hand, the file a SIGKILLed run leaves ---------------------------
sleep 0 & dead=$!; wait "$dead"          # a pid that has just ended
echo "$dead" >"$T/a/S.lock"
run "$LB" run "$T/second.txt" --out "$T/a/S" --no-plots
ok "lock/stale-dead-pid-taken-over" bash -c "[ \$(cat '$T/rc') = 0 ] && [ ! -s '$T/err' ]"
ok "lock/stale-dead-pid-folder-written-lock-removed" owns "$T/a/S" second
"$LB" run "$T/first.txt" --out "$T/a/K" --no-plots >/dev/null 2>&1 &
k=$!
wait_pid_in "$T/a/K.lock"
kill -KILL "$k"; wait "$k" 2>/dev/null
ok "lock/sigkill-leaves-the-stale-file" bash -c "[ \"\$(cat '$T/a/K.lock')\" = $k ]"
rm -rf "$T/a"/K.tmp*
run "$LB" run "$T/second.txt" --out "$T/a/K" --no-plots
ok "lock/sigkilled-runs-lock-taken-over" bash -c "[ \$(cat '$T/rc') = 0 ] && [ ! -s '$T/err' ]"
ok "lock/sigkilled-runs-lock-folder-written-lock-removed" owns "$T/a/K" second

# ---- SIGTERM removes the lock; the next run goes ahead ------------------------------------------
"$LB" run "$T/first.txt" --out "$T/a/G" --no-plots >/dev/null 2>&1 &
g=$!
wait_pid_in "$T/a/G.lock"
kill -TERM "$g"; wait "$g"
echo $? >"$T/g.rc"
ok "lock/sigterm-ends-143-lock-and-folder-removed" \
  bash -c "[ \$(cat '$T/g.rc') = 143 ] && [ ! -e '$T/a/G.lock' ] && [ ! -e '$T/a/G' ]"
tap_done
