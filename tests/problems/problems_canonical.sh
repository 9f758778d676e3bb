#!/usr/bin/env bash
# problems_canonical.sh LCPBENCH SRCDIR: the committed canonical instances
# (SRCDIR/problems/instances) are exactly what problems/canonical.sh captures today:
# recapture into a temporary folder and compare every file byte for byte (cmp), as TAP.
set -u
LB=$1
SRC=$2
. "$(dirname "$0")/../common/tap.sh"
same_dir() { # every file of $1 equals the one in $2, and both hold the same names
  [ "$(cd "$1" && ls)" = "$(cd "$2" && ls)" ] || return 1
  for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || { echo "# differs: $f" >&2; return 1; }; done
}
ok "canonical/recapture-runs" "$SRC/problems/canonical.sh" "$LB" "$T/new"
ok "canonical/same-folders" bash -c "[ \"\$(ls '$SRC/problems/instances' | grep -v README)\" = \"\$(ls '$T/new')\" ]"
for d in "$T"/new/*/; do
  name=$(basename "$d")
  ok "canonical/$name-byte-identical" same_dir "$SRC/problems/instances/$name" "$d"
done
tap_done
