#!/usr/bin/env bash
# build.sh: installs what lcpbench needs on Debian (12 "bookworm" or later) and builds it
# (release, in build/): compiler, meson, ninja, SuiteSparse (CHOLMOD), OpenBLAS, LAPACKE,
# gnuplot.  Skips the install when all are present.
set -euo pipefail
# With --tests, also what the tests compare against or need (tests/run.sh passes it): the
# peer libraries (Siconos Numerics, DART's copy of ODE's Dantzig routine, Bullet), FCLIB,
# pandas and SciPy for the plain-CSV and Matrix Market checks, pytest and SciPy for the
# Python module's tests (tests/python/), clang and libFuzzer for the
# fuzz targets, Open MPI for `mpirun lcpbench run', valgrind for the memcheck test and the
# stopping test's instruction counts, time and bc for the oracle corpus's CPU times.  Each is
# optional for the build itself.
# python3-dev and python3-numpy: the Python module lcpbench (lcp/python/), built by default
# when they are found (meson option python=auto).
pkgs=(build-essential meson ninja-build pkg-config git python3 libsuitesparse-dev
      libopenblas-dev liblapacke-dev gnuplot-nox python3-dev python3-numpy)
if [ "${1:-}" = --tests ]; then
  pkgs+=(libsiconos-numerics-dev libdart-external-odelcpsolver-dev libbullet-dev g++
         libfclib-dev python3-pandas python3-scipy python3-pytest clang libclang-rt-dev
         libopenmpi-dev openmpi-bin valgrind time bc)
fi
# quiet WHAT CMD...: run CMD with its output kept aside; when it fails, show the output (the
# last 60 lines: meson's and ninja's errors are at the end) and exit with its status.
quiet() {
  local what=$1 log rc=0
  shift
  log=$(mktemp)
  "$@" >"$log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    tail -n 60 "$log" >&2
    echo "build.sh: $what failed (exit $rc)" >&2
    rm -f "$log"
    exit $rc
  fi
  rm -f "$log"
}
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "installing: ${missing[*]}" >&2
  quiet "apt-get update" $SUDO apt-get update -qq
  quiet "apt-get install" $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

# Then the release build in build/ (configured once, rebuilt when sources change).  A failed
# configure leaves no build.ninja, so the next run configures again from scratch; a run that
# installed packages configures again, so that what it installed is found (the peers, FCLIB
# and MPI of --tests after a first build without them).
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  rm -rf build
  quiet "meson setup" meson setup build --buildtype=release
elif [ ${#missing[@]} -gt 0 ]; then
  quiet "meson setup --reconfigure" meson setup --reconfigure build
fi
quiet "ninja" ninja -C build
