#!/usr/bin/env bash
# install.sh BUILD SRC SANITIZE: `meson install' into a scratch root, then build programs
# outside the tree against it with nothing but pkg-config, run them, and check what the
# libraries export and depend on:
# - liblcp (lcp.pc, lcp-static.pc) carries no flag of the peer libraries and links none of
#   them: SuiteSparse, OpenBLAS and LAPACKE only;
# - liblcp-peers (lcp-peers.pc) is the peers' own library;
# - the installed example (share/doc/lcpbench/examples/example.c) builds from the installed
#   tree, shared and static, and solves its problem and an installed instance.
set -u
B=$1 SRC=$2 SAN=$3
. "$(dirname "$0")/../common/tap.sh"
if [ "$SAN" != none ]; then
  echo "1..0 # SKIP the installed library is built with -fsanitize=$SAN"; exit 0
fi
command -v pkg-config >/dev/null || { echo "1..0 # SKIP pkg-config not installed"; exit 0; }
root=$T/root
ok "meson install into a scratch root" meson install -C "$B" --no-rebuild --quiet --destdir "$root"
pc=$(find "$root" -name lcp.pc | head -n 1)
lib=$(dirname "$(find "$root" -name 'liblcp.so.*.*' | head -n 1)")
example=$(find "$root" -path '*/share/doc/lcpbench/examples/example.c' | head -n 1)
inst=$(find "$root" -path '*/lcpbench/problems/instances' -type d | head -n 1)
ok "installed: lcp.pc, lcp-static.pc, liblcp.so, liblcp.a, lcp/lcp.h, lcpbench, the check data" \
  test -n "$pc" -a -e "$(dirname "$pc")/lcp-static.pc" -a -e "$lib/liblcp.a" \
  -a -n "$(find "$root" -path '*/include/lcp/lcp.h')" \
  -a -n "$(find "$root" -path '*/bin/lcpbench')" -a -n "$(find "$root" -path '*/lcpbench/results/check/baseline.csv')"
ok "installed: liblcp-peers.so, lcp-peers.pc, lcp/lcp_peers.h, the example program" \
  test -e "$lib/liblcp-peers.so" -a -e "$(dirname "$pc")/lcp-peers.pc" \
  -a -n "$(find "$root" -path '*/include/lcp/lcp_peers.h')" -a -n "$example"
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root

# no peer in liblcp: neither in its flags nor among the libraries it needs
peer_re='siconos|[Bb]ullet|BT_USE|dart|odelcp|stdc\+\+'
flags="$(pkg-config --cflags lcp) $(pkg-config --libs lcp) $(pkg-config --static --libs lcp) \
$(pkg-config --cflags --libs lcp-static)"
ok "lcp.pc and lcp-static.pc name no peer library, define or include path" \
  eval '! grep -Eq "$peer_re" <<<"$flags"'
needed=$(readelf -d "$lib/liblcp.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
ok "liblcp.so needs no peer library ($needed)" eval '! grep -Eq "$peer_re" <<<"$needed"'
ok "  ... and no C++ runtime" eval '! grep -q "libstdc++" <<<"$needed"'

build() { cc -std=c11 -Wall -Wextra -Werror "$@"; }
# no_peer BINARY: the libraries the dynamic loader maps for it include no peer library
no_peer() {
  env LD_LIBRARY_PATH="$lib" ldd "$1" >"$T/ldd" 2>&1 && ! grep -Eq "$peer_re" "$T/ldd"
}
ok "a program builds against the shared library with pkg-config" \
  build "$SRC" $(pkg-config --cflags lcp) -o "$T/shared" $(pkg-config --libs lcp) -lm
run env LD_LIBRARY_PATH="$lib" "$T/shared"
ok "  ... and solves with it" rc_is 0
ok "  ... and loads no peer library" no_peer "$T/shared"
ok "pkg-config --static --libs lcp names liblcp's direct dependencies only (no -lgfortran: a machine without gfortran has none)" \
  eval '! grep -q -- "-lgfortran" <<<"$(pkg-config --static --libs lcp)"'
ok "a program builds with pkg-config --static --libs lcp (every private flag of the archive)" \
  build "$SRC" $(pkg-config --cflags lcp) -o "$T/pstatic" $(pkg-config --static --libs lcp)
run env LD_LIBRARY_PATH="$lib" "$T/pstatic"
ok "  ... solves with it and loads no peer library" eval 'rc_is 0 && no_peer "$T/pstatic"'
ok "a program builds against the static archive with pkg-config lcp-static" \
  build "$SRC" $(pkg-config --cflags lcp-static) -o "$T/static" $(pkg-config --libs lcp-static)
run "$T/static"
ok "  ... and solves with it" rc_is 0
ok "  ... needs no liblcp.so and loads no peer library" \
  eval 'no_peer "$T/static" && ! grep -q "liblcp\.so" "$T/ldd"'

# the installed example, built from the installed tree as its header comment says
ok "the installed example builds with pkg-config lcp" \
  build "$example" $(pkg-config --cflags lcp) -o "$T/example" $(pkg-config --libs lcp) -lm
run env LD_LIBRARY_PATH="$lib" "$T/example"
ok "  ... solves its contact with friction: z = (4/7, -2/7), both solvers converged" \
  eval 'rc_is 0 && grep -q "^z\[0\] = 0.57142857142857" "$T/out" &&
        grep -q "^z\[1\] = -0.28571428571428" "$T/out" && [ "$(grep -c " converged " "$T/out")" = 2 ]'
ok "  ... and loads no peer library" no_peer "$T/example"
run env LD_LIBRARY_PATH="$lib" "$T/example" "$inst/capsule-step1"
ok "  ... solves an installed instance folder (capsule-step1)" \
  eval 'rc_is 0 && grep -q "^ldlt-ref  *converged" "$T/out"'
run env LD_LIBRARY_PATH="$lib" "$T/example" "$T/no-such-folder"
ok "  ... and names a folder it cannot read in one line, exit 2" \
  eval 'rc_is 2 && one_line_err "no-such-folder"'
ok "the installed example builds with pkg-config lcp-static" \
  build "$example" $(pkg-config --cflags lcp-static) -o "$T/example-static" \
  $(pkg-config --libs lcp-static)
run "$T/example-static"
ok "  ... and gives the same output as the shared build" \
  eval 'rc_is 0 && env LD_LIBRARY_PATH="$lib" "$T/example" | cmp -s - "$T/out"'

# the peers' library: a program of lcp_peers.h lists them through lcp-peers.pc
cat >"$T/peers.c" <<'C'
#include <lcp_peers.h>
#include <stdio.h>
int main(void)
{
    int n;
    const lcp_solver *p = lcp_peer_solvers(&n);
    for (int k = 0; k < n; k++) printf("%s\n", p[k].name);
    return !(lcp_peer_find("no-such-peer") == NULL && (n == 0 || lcp_peer_find(p[0].name) == &p[0]));
}
C
ok "a program builds against liblcp-peers with pkg-config lcp-peers" \
  build "$T/peers.c" $(pkg-config --cflags lcp-peers) -o "$T/peers" $(pkg-config --libs lcp-peers)
run env LD_LIBRARY_PATH="$lib" "$T/peers"
lcpbench_peers=$(env LD_LIBRARY_PATH="$lib" "$(find "$root" -path '*/bin/lcpbench')" list solvers |
                 grep -Eo '^ *(siconos|ode|bullet)-[a-z-]*' | tr -d ' ' | sort)
ok "  ... and lists the peers lcpbench lists ($(wc -l <"$T/out") peers)" \
  eval 'rc_is 0 && [ "$(sort "$T/out")" = "$lcpbench_peers" ]'

nm -D --defined-only "$lib/liblcp.so" | awk '{print $3}' | grep -v '^_' | sort >"$T/exported"
grep '^LCP_API' "$(find "$root" -path '*/include/lcp/lcp.h' | head -n 1)" |
  grep -o 'lcp_[a-z_]*(' | tr -d '(' | sort -u >"$T/api"
ok "liblcp.so exports only the public declarations (no lcp_malloc, ref_solve, solver entry points)" \
  test -z "$(comm -23 "$T/exported" "$T/api")"
ok "  ... and every public function" test -z "$(comm -13 "$T/exported" "$T/api")"
nm -D --defined-only "$lib/liblcp-peers.so" | awk '{print $3}' | grep -v '^_' | sort >"$T/pexported"
ok "liblcp-peers.so exports lcp_peer_solvers and lcp_peer_find only ($(tr '\n' ' ' <"$T/pexported"))" \
  test "$(tr '\n' ' ' <"$T/pexported")" = "lcp_peer_find lcp_peer_solvers "
tap_done
