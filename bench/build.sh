#!/usr/bin/env bash
# build.sh: installs what lcpbench needs on Debian (12 "bookworm" or later) and builds it
# (release, in build/): compiler, meson, ninja, SuiteSparse (CHOLMOD), OpenBLAS, LAPACKE,
# gnuplot.  Skips the install when all are present.
set -euo pipefail
# With --tests, also what the tests compare against or need (tests/run.sh passes it): the
# peer libraries (Siconos Numerics, DART's copy of ODE's Dantzig routine, Bullet), FCLIB,
# pandas and SciPy for the plain-CSV and Matrix Market checks, clang and libFuzzer for the
# fuzz targets, Open MPI for `mpirun lcpbench run', valgrind for the memcheck test and the
# stopping test's instruction counts.  Each is optional for the build itself.
pkgs=(build-essential meson ninja-build pkg-config git python3 libsuitesparse-dev
      libopenblas-dev liblapacke-dev gnuplot-nox)
if [ "${1:-}" = --tests ]; then
  pkgs+=(libsiconos-numerics-dev libdart-external-odelcpsolver-dev libbullet-dev g++
         libfclib-dev python3-pandas python3-scipy clang libclang-rt-dev
         libopenmpi-dev openmpi-bin valgrind)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# Then the release build in build/ (configured once, rebuilt when sources change).
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || meson setup build --buildtype=release >/dev/null
ninja -C build >/dev/null
