#!/usr/bin/env bash
# full_disk.sh LCPBENCH MKINST: what a full disk leaves (bench/README.md, "Interrupted runs",
# a full disk).  Results of `run' (with its plots and `profile'), `solve --history
# --solution', `capture', `convert' and `table' are written to a small tmpfs, the tmpfs is
# filled, each command is run again over them with --force and other settings (other
# contents), and `plot' and `profile' redraw the run's figures in another style: each must
# exit non-zero with exactly one line naming a file and the reason (ENOSPC), leave the
# previous files byte-identical and no temporary beside them.  Then standard output on a full
# device (/dev/full): `solve', `list', `simulate' and `--version' must exit 2 with one line
# naming standard output, not 0 with their output lost.  Skipped (TAP's 1..0 # SKIP) where a
# tmpfs cannot be mounted (not root, or a container without the right).
set -u
LB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MK=$2
. "$(dirname "$0")/../common/tap.sh"

D=$T/disk
mkdir -p "$D"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=8m tmpfs "$D" 2>/dev/null; then
  echo "1..0 # SKIP cannot mount a tmpfs here (needs root)"; exit 0
fi
trap 'umount "$D" 2>/dev/null; rm -rf "$T"' EXIT

"$MK" "$T/i1" 7 && "$MK" "$T/i2" 9 || { echo "Bail out! mkinst failed"; exit 1; }
printf 'instance %s\nset reps=1 maxit=50\nsolver pgs\nsolver jacobi\n' "$T/i1" >"$T/suite.txt"
printf 'instance %s\nset reps=1 maxit=60\nsolver pgs omega=1.2\nsolver jacobi\n' "$T/i1" \
  >"$T/suite2.txt"

# the previous results, written while there is room
"$LB" run "$T/suite.txt" --out "$D/R" >/dev/null 2>&1 &&
  "$LB" profile "$D/R" >/dev/null 2>&1 &&
  "$LB" solve "$T/i1" --solver pgs --reps 1 --history "$D/H" --solution "$D/S" >/dev/null 2>&1 &&
  "$LB" capture stack --param n=3 --at 1,2 --out "$D/C" >/dev/null 2>&1 &&
  "$LB" convert "$T/i1" "$D/i1.ode" >/dev/null 2>&1 &&
  "$LB" table reorder --out "$D/T" >/dev/null 2>&1 ||
  { echo "Bail out! the first results could not be written"; exit 1; }
fclib=0   # convert to FCLIB (HDF5 through libfclib) where lcpbench was built with it
"$LB" convert "$T/i1" "$D/f.h5" >/dev/null 2>&1 && fclib=1
tree() { (cd "$D" && find . -path ./fill -prune -o -type f -print0 | sort -z | xargs -0 sha256sum); }
tree >"$T/before"
same() { tree >"$T/now" && cmp -s "$T/now" "$T/before"; }
no_tmp() { [ -z "$(find "$D" -name '*.tmp*' -o -name '*.old[0-9]*')" ]; }

dd if=/dev/zero of="$D/fill" bs=4k >/dev/null 2>&1   # until the tmpfs is full
ok "the tmpfs is full" test "$(df -k --output=avail "$D" | tail -n 1 | tr -d ' ')" = 0

full() {   # full NAME COMMAND...: rerun over the previous results on the full disk
  local name=$1; shift
  run "$@"
  ok "$name: non-zero exit" test "$(cat "$T/rc")" != 0
  ok "$name: one line naming the file and ENOSPC" one_line_err "$D/.*No space left on device"
  ok "$name: the file named as the user wrote it, not its temporary" eval '! grep -q "\.tmp[0-9]" "$T/err"' 
  ok "$name: the previous files byte-identical, no temporary" eval 'same && no_tmp'
}
full "run" "$LB" run "$T/suite2.txt" --out "$D/R" --force
full "solve --history --solution" "$LB" solve "$T/i1" --solver pgs --reps 1 --maxit 30 \
  --history "$D/H" --solution "$D/S" --force
full "capture" "$LB" capture stack --param n=4 --at 1,2 --out "$D/C" --force
full "convert" "$LB" convert "$T/i2" "$D/i1.ode" --force
if [ "$fclib" = 1 ]; then   # libfclib and HDF5 print nothing of their own
  full "convert to FCLIB" "$LB" convert "$T/i2" "$D/f.h5" --force
fi
full "table" "$LB" table reorder --out "$D/T" --force
full "plot" "$LB" plot "$D/R" --style mono
full "profile" "$LB" profile "$D/R" --style mono

# room again: the same commands write over the previous results
rm -f "$D/fill"
run "$LB" run "$T/suite2.txt" --out "$D/R" --no-plots --force
ok "with room again, run writes over the previous folder" eval 'rc_is 0 && ! same && no_tmp'

# standard output on a full device
for c in "solve $T/i1 --solver pgs --reps 1" "list solvers" \
         "simulate stack --param n=3 --steps 3" "--version"; do
  # shellcheck disable=SC2086
  run "$LB" $c
  ok "${c%% *} to a terminal or file with room: exit 0" rc_is 0
  # shellcheck disable=SC2086
  "$LB" $c >/dev/full 2>"$T/err"
  echo $? >"$T/rc"
  ok "${c%% *} > /dev/full: exit 2, one line naming standard output" \
    eval 'rc_is 2 && one_line_err "standard output: write failed: No space left on device"'
done
tap_done
