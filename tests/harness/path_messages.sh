#!/usr/bin/env bash
# path_messages.sh LCPBENCH MKINST: what `lcpbench solve' says about the paths it is given.
# A control character in a folder's name (a newline, ESC) is written escaped (\n, \x1b) in the
# one error line, whether the line is the harness's or quotes the library's message
# (bench/README.md, "The command line"); an optional instance file that is a dangling symbolic
# link or a loop of links is an error naming the file, not an absent file (lcp/README.md,
# "Instance folders"): nothing is solved, exit 1, one line.
set -u
LB=$1
MK=$2
. "$(dirname "$0")/../common/tap.sh"

"$MK" "$T/i1" 7 || { echo "Bail out! mkinst failed"; exit 1; }
# one_line_fixed TEXT: the last run printed one stderr line, holding TEXT verbatim, and no
# raw control character but its newline
one_line_fixed() {
  [ "$(wc -l <"$T/err")" = 1 ] && grep -qF -- "$1" "$T/err" &&
    ! tr -d '\n' <"$T/err" | LC_ALL=C grep -q '[[:cntrl:]]'
}
no_row() { [ "$(grep -vc '^instance,' "$T/out")" = 0 ]; }   # no solved row on stdout
refused() { rc_is 1 && one_line_fixed "$1"; }   # refused TEXT: exit 1, that one line
solved() { rc_is 0 && grep -q "^$1,pgs," "$T/out" && [ ! -s "$T/err" ]; }

# ---- control characters in the folder's name -------------------------------------------------
nl="$T/a
b"
mkdir "$nl"
cp "$T/i1"/*.mtx "$nl"/
rm "$nl/q.mtx"
run "$LB" solve "$nl" --solver pgs
ok "escape/newline-in-folder-one-line-harness-message" refused 'a\nb/q.mtx: cannot open'
cp "$T/i1/q.mtx" "$nl"/
printf '%%%%MatrixMarket matrix array real general\n7 1\n1\n' >"$nl/lo.mtx"
run "$LB" solve "$nl" --solver pgs
ok "escape/newline-in-folder-one-line-library-message" refused 'a\nb/lo.mtx:2: 7 rows'
esc="$T/x$(printf '\033')[31my	z"
run "$LB" solve "$esc" --solver pgs
ok "escape/esc-and-tab-in-missing-folder-one-line" refused 'x\x1b[31my\tz: cannot open folder'
run "$LB" solve "$T/i1" --solver "pg
s"
ok "escape/newline-in-solver-name-one-line" bash -c "! grep -qx 0 '$T/rc'"
ok "escape/newline-in-solver-name-one-line-text" one_line_fixed 'pg\ns'

# ---- optional files that are broken symbolic links -----------------------------------------------
for f in lo.mtx findex.mtx zref.mtx meta.txt; do
  rm -rf "$T/l"; cp -r "$T/i1" "$T/l"; rm -f "$T/l/$f"
  ln -s no-such-file "$T/l/$f"
  run "$LB" solve "$T/l" --solver pgs
  ok "links/$f-dangling-is-an-error" refused "$T/l/$f: dangling symbolic link"
  ok "links/$f-dangling-solves-nothing" no_row
  rm "$T/l/$f"; ln -s "$f" "$T/l/$f"
  run "$LB" solve "$T/l" --solver pgs
  ok "links/$f-loop-is-an-error" refused "$T/l/$f: too many levels of symbolic links"
  ok "links/$f-loop-solves-nothing" no_row
done
# the control: absent, it is absent; a link to a file reads as the file
rm -rf "$T/l"; cp -r "$T/i1" "$T/l"; rm -f "$T/l/zref.mtx"
run "$LB" solve "$T/l" --solver pgs --reps 0
ok "links/absent-file-is-absent" solved l
mv "$T/l/q.mtx" "$T/q.mtx"; ln -s ../q.mtx "$T/l/q.mtx"
run "$LB" solve "$T/l" --solver pgs --reps 0
ok "links/link-to-a-file-reads-it" solved l
tap_done
