#!/bin/bash
# lean_cli.sh: `lcpbench solve --lean' (read only what the form needs) prints the same CSV as
# reading everything, times aside, on every committed instance, for matrix-free solvers
# (A not read), assembled ones (J, Minv, E not read) and a mix (everything read); a folder
# whose A.mtx is unreadable solves matrix-free with --lean and fails without.
# Usage: lean_cli.sh LCPBENCH INSTANCES_DIR
. "$(dirname "$0")/../common/tap.sh"
L=$1
I=$2
fields() { cut -d, -f1-6,12-21 "$1"; }
for d in "$I"/*/; do
  name=$(basename "$d")
  for s in "pgs,pgs-block,amgs-D --maxit 300" "pgs,ldlt-ref --maxit 300" \
           "pgs,amgs-I --form assembled --maxit 300"; do
    # shellcheck disable=SC2086
    "$L" solve "$d" --solver $s --reps 0 >"$T/a.csv" 2>/dev/null
    # shellcheck disable=SC2086
    "$L" solve "$d" --solver $s --reps 0 --lean >"$T/b.csv" 2>/dev/null
    fields "$T/a.csv" >"$T/a"
    fields "$T/b.csv" >"$T/b"
    ok "lean-cli/$name/${s%% *}${s#* --maxit 300}: --lean prints the same CSV" \
      eval '[ -s "$T/a" ] && cmp -s "$T/a" "$T/b"'
  done
done
cp -r "$I/capsule-step1" "$T/noA"
printf 'not a matrix\n' >"$T/noA/A.mtx"
run "$L" solve "$T/noA" --solver pgs --lean --reps 0
ok "lean-cli: a folder with a broken A.mtx solves matrix-free with --lean (A not read)" \
  eval 'rc_is 0 && grep -q "^noA,pgs,converged,10," "$T/out"'
run "$L" solve "$T/noA" --solver pgs --reps 0
ok "lean-cli: ... and is refused without --lean (one line naming A.mtx)" \
  eval 'rc_is 1 && one_line_err "A.mtx"'
tap_done
