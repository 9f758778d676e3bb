#!/usr/bin/env bash
# install.sh BUILD SRC SANITIZE: `meson install' into a scratch root, then build a program
# outside the tree against it with nothing but pkg-config (shared and static), run it, and
# check what the shared library exports (the LCP_API declarations of lcp.h, nothing else).
set -u
B=$1 SRC=$2 SAN=$3
. "$(dirname "$0")/tap.sh"
if [ "$SAN" != none ]; then
  echo "1..0 # SKIP the installed library is built with -fsanitize=$SAN"; exit 0
fi
command -v pkg-config >/dev/null || { echo "1..0 # SKIP pkg-config not installed"; exit 0; }
root=$T/root
ok "meson install into a scratch root" meson install -C "$B" --no-rebuild --quiet --destdir "$root"
pc=$(find "$root" -name lcp.pc | head -n 1)
lib=$(dirname "$(find "$root" -name 'liblcp.so.*.*' | head -n 1)")
ok "installed: lcp.pc, liblcp.so, liblcp.a, lcp/lcp.h, lcpbench, the check data" \
  test -n "$pc" -a -e "$lib/liblcp.a" -a -n "$(find "$root" -path '*/include/lcp/lcp.h')" \
  -a -n "$(find "$root" -path '*/bin/lcpbench')" -a -n "$(find "$root" -path '*/lcpbench/results/check/baseline.csv')"
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
build() { cc -std=c11 -Wall -Wextra -Werror "$SRC" "$@"; }
ok "a program builds against the shared library with pkg-config" \
  build $(pkg-config --cflags lcp) -o "$T/shared" $(pkg-config --libs lcp) -lm
run env LD_LIBRARY_PATH="$lib" "$T/shared"
ok "  ... and solves with it" rc_is 0
cp "$T/out" "$T/shared.tap"
ok "a program builds against the static archive with pkg-config --static" \
  build $(pkg-config --cflags lcp) -o "$T/static" "$lib/liblcp.a" \
  $(pkg-config --static --libs lcp | sed 's/-llcp//')
run "$T/static"
ok "  ... and solves with it" rc_is 0
nm -D --defined-only "$lib/liblcp.so" | awk '{print $3}' | grep -v '^_' | sort >"$T/exported"
grep '^LCP_API' "$(find "$root" -path '*/include/lcp/lcp.h' | head -n 1)" |
  grep -o 'lcp_[a-z_]*(' | tr -d '(' | sort -u >"$T/api"
ok "liblcp.so exports only the public declarations (no lcp_malloc, ref_solve, solver entry points)" \
  test -z "$(comm -23 "$T/exported" "$T/api")"
ok "  ... and every public function" test -z "$(comm -13 "$T/exported" "$T/api")"
tap_done
