#!/usr/bin/env bash
# clean-root.sh: the README's two commands on a clean Debian 12, as a new user meets them.
#
# A minimal Debian 12 root (debootstrap --variant=minbase: no compiler, no meson, no
# SuiteSparse) in a scratch folder, a fresh clone of this repository copied in, then in that
# root (chroot), with nothing installed but what the project's own scripts install:
#   1. `bash bench/main.sh`, the README's first command: installs the core packages, builds,
#      regenerates AMGS Table 1 and its figures; exit 0 with every file written; the Python
#      module it built imports (the README's `PYTHONPATH=build/lcp/python') and solves;
#   2. the installed library on a machine without the peer libraries: tests/library/install.sh
#      (pkg-config lcp and lcp-static, the installed example built and run);
#   3. `bash bench/build.sh --tests`, the install step of the README's second command: the
#      optional packages installed, the build configured again and the peers found;
#   4. each optional package absent in turn: `meson setup' succeeds without it.
# TAP on standard output.  Needs root (debootstrap, chroot, mount) and the Debian mirror this
# machine's apt uses; skipped otherwise.  CI runs it (.ci/run); by hand:
#   sudo bash .ci/clean-root.sh            (about 10 minutes on 2 cores)
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
n=0
fails=0
ok() {
  local name=$1; shift
  n=$((n + 1))
  if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fails=$((fails + 1)); fi
}
skip() { echo "1..0 # SKIP $*"; exit 0; }
# ok_log NAME LINES CMD...: ok, and when CMD fails the last LINES lines of the step's log as
# TAP comments (the reason stays in CI's output)
ok_log() {
  local name=$1 lines=$2; shift 2
  if "$@"; then ok "$name" true; else ok "$name" false; show_log "$lines"; fi
}
[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot)"
if ! command -v debootstrap >/dev/null; then
  apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1 ||
    skip "debootstrap cannot be installed"
fi

work=$(mktemp -d /var/tmp/lcpbench-clean-root.XXXXXX)
root=$work/root
log=$work/log
mounts=()
cleanup() {
  for ((k = ${#mounts[@]} - 1; k >= 0; k--)); do umount -l "${mounts[k]}" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
# in_root CMD: run a bash command line in the root, as root, its output into $log
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    /bin/bash -c "$1" >"$log" 2>&1
}
show_log() { sed 's/^/# /' "$log" | tail -n "${1:-40}"; }

# The mirror this machine's apt uses (the first URIs: of a deb822 file, else the first deb line)
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] ||
  mirror=$(sed -n 's/^deb  *\(\[[^]]*\] *\)\{0,1\}\([^ ]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null |
           head -n 1)
[ -n "$mirror" ] || skip "no Debian mirror in this machine's apt sources"

if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$log" 2>&1; then
  ok "a minimal Debian 12 root (debootstrap --variant=minbase bookworm)" false
  show_log
  echo "1..$n"
  exit 1
fi
ok "a minimal Debian 12 root (debootstrap --variant=minbase bookworm)" true
# the root reaches Debian as this machine does: its apt sources and its network settings
# (Acquire:: lines), nothing else of the machine's
rm -f "$root/etc/apt/sources.list"
cp -a /etc/apt/sources.list "$root/etc/apt/" 2>/dev/null
for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] && cp -a "$f" "$root/etc/apt/sources.list.d/"
done
for f in /etc/apt/apt.conf.d/*; do
  [ -f "$f" ] && grep -q '^Acquire::' "$f" && cp -a "$f" "$root/etc/apt/apt.conf.d/"
done
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
for m in proc sys dev; do
  if mount --bind "/$m" "$root/$m" 2>/dev/null; then mounts+=("$root/$m"); fi
done
git clone --quiet --no-hardlinks "$src" "$root/src"
ok "a fresh clone copied in" test -f "$root/src/bench/main.sh"
in_root 'for p in gcc meson ninja-build pkg-config libsuitesparse-dev libopenblas-dev gnuplot-nox; do
           dpkg-query -W -f="\${Status}\n" $p 2>/dev/null | grep -q "install ok installed" && echo $p
         done; true'
ok_log "nothing of the build is preinstalled in the root (compiler, meson, SuiteSparse, gnuplot)" \
  40 test ! -s "$log"

# 1. The README's first command, as printed there
start=$SECONDS
in_root 'cd /src && timeout 1800 bash bench/main.sh'
rc=$?
ok_log "bash bench/main.sh on the clean root: exit 0 ($((SECONDS - start)) s)" 60 test $rc = 0
t1=$root/src/results/amgs-table1
ok "  ... wrote Table 1, its claims and its figures anew (table1.md, table1.csv, claims.csv, PNGs)" \
  eval 'test -s "$t1/table1.md" -a -s "$t1/table1.csv" -a -s "$t1/claims.csv" &&
        test "$(find "$t1" -name "*.png" -newer "$root/src/bench/main.sh" | wc -l)" -gt 0 &&
        test -z "$(find "$t1" -name "*.png" ! -newer "$root/src/bench/main.sh")"'
in_root 'cd /src && git status --porcelain --untracked-files=all | grep -v "^ M results/amgs-table1/\|^?? build/"; true'
ok_log "  ... and changed nothing outside results/amgs-table1/ and build/" 40 test ! -s "$log"
in_root 'dpkg-query -W -f="\${Package} \${Status}\n" | grep "install ok installed" | grep -Ei "siconos|bullet|dart|fclib|openmpi"; true'
ok_log "  ... with no optional package installed (no peer, FCLIB or MPI)" 40 test ! -s "$log"

# the README's Python section: the module bench/main.sh built (python3-dev, python3-numpy are
# among its core packages) imports from the build tree and solves a scene's step
in_root 'cd /src && PYTHONPATH=build/lcp/python python3 -c "import lcpbench
P = lcpbench.capture(\"capsule\", {}, 1)
r = lcpbench.solve(P, \"ldlt-ref\")
assert r.status == \"converged\" and len(lcpbench.solvers()) > 10, r
print(lcpbench.__file__)"'
rc=$?
ok_log "  ... and built the Python module: PYTHONPATH=build/lcp/python python3 -c 'import lcpbench' solves a captured scene" \
  20 test $rc = 0

# 2. The installed library where the peers are not installed
in_root 'cd /src && bash tests/library/install.sh build tests/library/link_outside.c none'
rc=$?
checks=$(grep -c '^ok ' "$log")
ok_log "the installed liblcp, lcp-static and example without the peer libraries (tests/library/install.sh: $checks checks)" \
  60 test $rc = 0 -a "$checks" -gt 10

# 3. The test command's install step, then the peers are found
start=$SECONDS
in_root 'cd /src && timeout 1800 bash bench/build.sh --tests'
rc=$?
ok_log "bash bench/build.sh --tests on the same root: exit 0 ($((SECONDS - start)) s)" 60 \
  test $rc = 0
in_root 'cd /src && build/bench/lcpbench list solvers'
ok "  ... configured again: lcpbench lists the peers it installed" \
  eval 'grep -q "siconos-lemke" "$log" && grep -q "bullet-dantzig" "$log" && grep -q "ode-dantzig" "$log"'

# 4. Every optional package really optional: configure with each absent
for p in libsiconos-numerics-dev libdart-external-odelcpsolver-dev libbullet-dev libfclib-dev \
         libopenmpi-dev g++ clang valgrind python3-scipy; do
  in_root "dpkg -r --force-depends $p >/dev/null 2>&1 &&
           cd /src && meson setup /tmp/cfg --buildtype=release; rc=\$?; rm -rf /tmp/cfg
           apt-get install -y -qq --no-install-recommends $p >/dev/null 2>&1 || echo reinstall failed
           exit \$rc"
  rc=$?
  ok_log "meson setup succeeds without $p" 20 test $rc = 0
done

echo "1..$n"
[ "$fails" = 0 ]
