#!/usr/bin/env bash
# install.sh BUILD PYTHON (meson test python-install): `meson install' into a scratch root,
# then the module imported from the installed site-packages alone (PYTHONPATH, nothing of
# the build tree) and the installed example compare.py run with it:
# - the module lcpbench*.so lands in PYTHON's site-packages below the prefix;
# - imported from there it is that file, and lists the solvers;
# - share/doc/lcpbench/examples/compare.py runs (a scene captured in memory, five solvers,
#   a NumPy sweep through run_sweeps, a whole solve through run_solver) and on an installed
#   instance folder.
set -u
B=$1 PY=$2
. "$(dirname "$0")/../common/tap.sh"
root=$T/root
ok "meson install into a scratch root" meson install -C "$B" --no-rebuild --quiet --destdir "$root"
so=$(find "$root" -name 'lcpbench*.so' | head -n 1)
site=$(dirname "$so")
example=$(find "$root" -path '*/share/doc/lcpbench/examples/compare.py' | head -n 1)
inst=$(find "$root" -path '*/lcpbench/problems/instances' -type d | head -n 1)
ok "installed: the module under the prefix's site-packages ($site)" \
  eval 'test -n "$so" && case "$site" in */site-packages|*/dist-packages) true;; *) false;; esac'
ok "  ... and the example compare.py" test -n "$example"
run env -u PYTHONPATH PYTHONPATH="$site" "$PY" -c \
  'import lcpbench, sys; print(lcpbench.__file__); print(len(lcpbench.solvers()))'
ok "the installed module imports from there (lcpbench.__file__ is the installed file)" \
  eval 'rc_is 0 && [ "$(head -n 1 "$T/out")" = "$so" ] && [ "$(sed -n 2p "$T/out")" -gt 10 ]'
cd "$T" || exit 1
run env PYTHONPATH="$site" "$PY" "$example"
ok "  ... runs the installed compare.py: every line of the three uses" \
  eval 'rc_is 0 && grep -q "^ldlt-ref  *converged" "$T/out" && grep -q "^my-jacobi .*(run_sweeps)" "$T/out" &&
        grep -q "^my-solve .*(run_solver" "$T/out" && [ "$(wc -l <"$T/out")" = 8 ]'
run env PYTHONPATH="$site" "$PY" "$example" "$inst/capsule-step1"
ok "  ... and on an installed instance folder (capsule-step1: m = 6)" \
  eval 'rc_is 0 && grep -q "^problem: m = 6," "$T/out"'
tap_done
