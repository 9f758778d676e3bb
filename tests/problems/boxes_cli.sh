#!/usr/bin/env bash
# boxes_cli.sh LCPBENCH: `lcpbench capture' of the hard-family scenes boxes and mass-ratio
# (problems/README.md, "Scenes" and "Descriptors") as TAP: a recapture is byte-identical
# (every file, cmp), the descriptors of meta.txt on a stack of two boxes are the counts by
# hand (tests/problems/test_boxes.c explains them: 8 contacts, 24 rows, 12 self-stress
# states on the contact rows, 2 on the normal rows), the mass ratio is max/min, and the
# boxes' bad parameters get one line and exit 2.
set -u
LB=$1
. "$(dirname "$0")/../common/tap.sh"
same_dir() { # every file of $1 equals the one in $2, and both hold the same names
  [ "$(cd "$1" && ls)" = "$(cd "$2" && ls)" ] || return 1
  for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || return 1; done
}
meta_is() { grep -qx "$2 = $3" "$1/meta.txt"; } # meta_is FOLDER KEY VALUE

for args in "boxes --param layers=3 --param cols=3 --at 20 --name wall" \
            "boxes --param n=8 --at 20 --name tower" \
            "mass-ratio --param ratio=10000 --param reverse=1 --at 20 --name mr"; do
  name=$(echo "$args" | sed 's/.*--name //')
  # shellcheck disable=SC2086
  "$LB" capture $args --out "$T/a" >/dev/null 2>&1
  # shellcheck disable=SC2086
  "$LB" capture $args --out "$T/b" >/dev/null 2>&1
  ok "capture/$name-recapture-byte-identical" same_dir "$T/a/$name-step20" "$T/b/$name-step20"
done
ok "capture/wall-3x3-10-bricks" meta_is "$T/a/wall-step20" bodies 10
ok "capture/mr-mass-ratio-1e4" meta_is "$T/a/mr-step20" mass_ratio 10000
ok "capture/mr-no-self-stress" meta_is "$T/a/mr-step20" self_stress 0

run "$LB" capture boxes --param n=2 --param jitter=0 --at 1 --name pair --out "$T/p"
P="$T/p/pair-step1"
ok "descriptors/pair-exit-0" rc_is 0
ok "descriptors/pair-8-contacts-24-rows" bash -c "grep -qx 'contacts = 8' '$P/meta.txt' && grep -qx 'rows = 24' '$P/meta.txt'"
ok "descriptors/pair-self-stress-12" meta_is "$P" self_stress 12
ok "descriptors/pair-self-stress-normal-2" meta_is "$P" self_stress_normal 2
ok "descriptors/pair-mass-ratio-1-no-bilateral" bash -c "grep -qx 'mass_ratio = 1' '$P/meta.txt' && grep -qx 'bilateral_share = 0' '$P/meta.txt'"
run "$LB" capture chain --at 2 --out "$T/c"
ok "descriptors/chain-all-rows-bilateral" meta_is "$T/c/chain-step2" bilateral_share 1

run "$LB" capture boxes --param jitter=0.15 --at 1 --out "$T/e"
ok "bad/boxes-jitter-does-not-fit" bash -c "[ \$(cat '$T/rc') = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'does not fit' '$T/err'"
run "$LB" capture boxes --param layers=2.5 --at 1 --out "$T/e"
ok "bad/boxes-layers-not-integer" bash -c "[ \$(cat '$T/rc') = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'layers' '$T/err'"
run "$LB" capture mass-ratio --param reverse=2 --at 1 --out "$T/e"
ok "bad/mass-ratio-reverse-0-or-1" bash -c "[ \$(cat '$T/rc') = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'reverse' '$T/err'"
tap_done
