#!/usr/bin/env bash
# convert.sh LCPBENCH INSTANCES DATA FCLIB_CHECK|none: `lcpbench convert' between instance
# folders, FCLIB (through libfclib), Siconos .dat and ODE's dense convention: round trips
# that give back the same bytes, imports with known solutions, and refusals.
set -u
L=$1 I=$2 D=$3 FC=$4
. "$(dirname "$0")/../common/tap.sh"
same() { # same FOLDER1 FOLDER2 FILES...: the listed files are byte-identical where present
  local a=$1 b=$2 f; shift 2
  for f in "$@"; do
    [ -f "$a/$f.mtx" ] || continue
    cmp -s "$a/$f.mtx" "$b/$f.mtx" || return 1
  done
}
z_is() { # z_is FOLDER SOLVER Z...: the solver's answer equals Z to 1e-12
  local it=(--tol 1e-14 --maxit 100000)       # a direct solver takes neither (it is refused)
  [ "$2" = ldlt-ref ] && it=()
  "$L" solve "$1" --solver "$2" "${it[@]}" --solution "$T/z-$$" --force \
    >/dev/null 2>&1 || return 1
  local f=$T/z-$$/$(basename "$1")__$2.mtx; shift 2
  awk -v want="$*" 'BEGIN { n = split(want, w, " ") }
    !/^%/ && ++k > 1 { d = $1 - w[k - 1]; if (d < 0) d = -d; if (d > 1e-12) bad = 1 }
    END { exit bad || k - 1 != n }' "$f"
}

# ---- ODE/DART dense convention: out and back in, any instance with or without friction
for inst in capsule-step1 stack-30-step100 chain-step300; do
  run "$L" convert "$I/$inst" "$T/$inst.ode"
  ok "ode: $inst written" rc_is 0
  run "$L" convert "$T/$inst.ode" "$T/ode-$inst"
  ok "ode: $inst read back with the same A, q, lo, hi, findex" \
    eval 'rc_is 0 && same "$I/$inst" "$T/ode-$inst" A q lo hi findex' 
done
ok "ode: b = -q in the file (A x = b + w)" \
  test "$(awk '!/^#/ && NF { n++ } n == 2 + 6 { print $1; exit }' "$T/capsule-step1.ode")" = \
       "$(awk '!/^%/ && ++k == 2 { printf "%.17g", -$1 }' "$I/capsule-step1/q.mtx")"
printf '2 1\n1 0\n0 1\n1 1\n0 0\ninf inf\n-1 -1\n' >"$T/nub.ode"
run "$L" convert "$T/nub.ode" "$T/nub"
ok "ode: a row counted in nub must be unbounded (one line naming the row)" \
  eval 'rc_is 1 && one_line_err "row 0 is one of the nub"'
printf '2 0\n1 0\n0 1\n1\n' >"$T/short.ode"
run "$L" convert "$T/short.ode" "$T/short"
ok "ode: a file that ends early is refused naming file and line" \
  eval 'rc_is 1 && one_line_err "short.ode:5: file ends before b"'

# ---- dense A and row-vector q as SciPy's and MATLAB's mmwrite write them
mkdir -p "$T/dense-g" "$T/dense-s"
printf '%%%%MatrixMarket matrix array real general\n%%\n2 2\n2\n1\n1\n2\n' >"$T/dense-g/A.mtx"
printf '%%%%MatrixMarket matrix array real symmetric\n2 2\n2\n1\n2\n' >"$T/dense-s/A.mtx"
for d in dense-g dense-s; do
  printf '%%%%MatrixMarket matrix array real general\n1 2\n-5\n-6\n' >"$T/$d/q.mtx"
  ok "mmwrite: $d A (array) and a 1 x m q read as the LCP z = (4/3, 7/3)" \
    z_is "$T/$d" ldlt-ref 1.3333333333333333 2.3333333333333335
done
printf '%%%%MatrixMarket matrix array real general\n2 2\n2\n1\n1\n' >"$T/dense-g/A.mtx"
run "$L" solve "$T/dense-g" --solver pgs
ok "mmwrite: a dense A with fewer values than 2 x 2 is refused naming the file" \
  eval 'rc_is 1 && one_line_err "A.mtx:"'

# ---- A assembled in float32 beside J and Minv: the factor test's tolerance (--factor-tol)
cp -r "$I/capsule-step1" "$T/f32"
awk '/^%/ || ++n == 1 { print; next } { printf "%s %s %.7g\n", $1, $2, $3 }' \
  "$I/capsule-step1/A.mtx" >"$T/f32/A.mtx"
run "$L" solve "$T/f32" --solver pgs
ok "factor-tol: a float32 A is refused by the default 1e-12 test (one line naming A.mtx)" \
  eval 'rc_is 1 && one_line_err "A.mtx: (.*J Minv J^T + diag(E)"'
run "$L" solve "$T/f32" --solver pgs --factor-tol 1e-6
ok "factor-tol: solve --factor-tol 1e-6 reads it" rc_is 0
run "$L" score "$T/f32" "$I/capsule-step1/z0.mtx" --factor-tol off
ok "factor-tol: score --factor-tol off reads it" rc_is 0
run "$L" convert "$T/f32" "$T/f32.ode" --factor-tol 1e-6
ok "factor-tol: convert --factor-tol 1e-6 reads it" rc_is 0
run "$L" convert "$T/f32" "$T/f32-copy" --factor-tol 1e-6
ok "factor-tol: the relaxed tolerance is recorded in the converted folder's meta.txt" \
  grep -q '^factor_tol = 1e-06' "$T/f32-copy/meta.txt"
run "$L" solve "$T/f32" --solver pgs --factor-tol 2
ok "factor-tol: a tolerance outside [0, 1) is a usage error" \
  eval 'rc_is 2 && one_line_err "factor-tol"'

# ---- Siconos .dat (in): a non-symmetric P-matrix with a known solution
run "$L" convert "$D/lcp_nonsym3.dat" "$T/nonsym3"
ok "siconos: the .dat file imports" rc_is 0
ok "siconos: its column-major M gives z = (4, 5, 3)/13 (M^T would give (5, 4, 3)/13)" \
  z_is "$T/nonsym3" pgs 0.30769230769230771 0.38461538461538464 0.23076923076923078
printf '2\n1\n2\n2\n' >"$T/sbm.dat"
run "$L" convert "$T/sbm.dat" "$T/sbm"
ok "siconos: sparse block storage is refused by name" \
  eval 'rc_is 1 && one_line_err "storage type 1 (sparse block) is not supported"'
run "$L" convert "$T/nonsym3" "$T/x.dat"
ok "siconos is an input format only (usage error)" eval 'rc_is 2 && one_line_err "input format only"'

# ---- FCLIB through libfclib
if [ "$FC" = none ]; then
  echo "# libfclib not built in: FCLIB cases skipped"
  tap_done
  exit $?
fi
# FCLIB's solution is the cone problem's: a folder's zref-cone.mtx (here zref / 2, to tell
# them apart) goes out as FCLIB's solution and comes back as zref-cone.mtx; zref.mtx, the box
# LCP's own answer, is not written to FCLIB and no zref.mtx comes back
for inst in capsule-step1 stack-30-step100 spheres-step100; do
  cp -r "$I/$inst" "$T/in-$inst"
  "$L" solve "$T/in-$inst" --solver ldlt-ref --store-ref --reps 0 >/dev/null 2>&1
  awk '/^%/ || ++k == 1 { print; next } { printf "%.17g\n", $1 / 2 }' "$T/in-$inst/zref.mtx" \
    >"$T/in-$inst/zref-cone.mtx"
  run "$L" convert "$T/in-$inst" "$T/$inst.hdf5"
  ok "fclib: $inst written as a local problem" rc_is 0
  ok "fclib: libfclib reads back W = A, q, mu = the friction bounds ($inst)" \
    "$FC" compare "$T/$inst.hdf5" "$T/in-$inst"
  ok "fclib: $inst's FCLIB solution is its zref-cone.mtx, not its zref.mtx" \
    eval '"$FC" solution "$T/$inst.hdf5" >"$T/sol-$inst" && [ -s "$T/sol-$inst" ] &&
      awk "!/^%/ && ++k > 1" "$T/in-$inst/zref-cone.mtx" | sort | cmp -s - <(sort "$T/sol-$inst") &&
      ! awk "!/^%/ && ++k > 1" "$T/in-$inst/zref.mtx" | sort | cmp -s - <(sort "$T/sol-$inst")'
  run "$L" convert "$T/$inst.hdf5" "$T/back-$inst"
  ok "fclib: $inst round trip gives the same A, q, lo, hi, findex, z0, zref-cone and no zref" \
    eval 'rc_is 0 && same "$T/in-$inst" "$T/back-$inst" A q lo hi findex z0 zref-cone &&
      [ -f "$T/back-$inst/zref-cone.mtx" ] && ! [ -e "$T/back-$inst/zref.mtx" ]'
done
run "$L" convert "$I/pool-mu0-step100" "$T/pool.hdf5"
run "$L" convert "$T/pool.hdf5" "$T/pool" --friction none
ok "fclib: a frictionless LCP round trips through 2D contacts with mu = 0 (--friction none)" \
  eval 'rc_is 0 && same "$I/pool-mu0-step100" "$T/pool" A q lo hi z0' 
run "$L" convert "$I/chain-step300" "$T/chain.hdf5"
ok "fclib: free rows alone have no FCLIB form (refused, nothing written)" \
  eval 'rc_is 1 && one_line_err "no contact rows" && ! ls "$T" | grep -q "chain.hdf5"'
# friction bounds that are not one symmetric mu per contact: refused, the last such row named
printf '3 0\n2 0 0\n0 2 0\n0 0 2\n1 1 1\n0 -0.5 -0.2\ninf 0.3 0.1\n-1 0 0\n' >"$T/asym.ode"
run "$L" convert "$T/asym.ode" "$T/asym.hdf5"
ok "fclib: asymmetric friction bounds are refused naming the last such row, nothing written" \
  eval 'rc_is 1 && one_line_err "row 2: friction bounds \[-0.2, 0.1\] are not one symmetric mu" &&
    ! ls "$T" | grep -q "asym.hdf5"'
printf '5 0\n2 0 0 0 0\n0 2 0 0 0\n0 0 2 0 0\n0 0 0 2 0\n0 0 0 0 2\n1 1 1 1 1\n0 -0.5 0 -0.5 -0.5\ninf 0.5 inf 0.5 0.5\n-1 0 -1 2 2\n' >"$T/dims.ode"
run "$L" convert "$T/dims.ode" "$T/dims.hdf5"
ok "fclib: contacts of two dimensions in one file are refused in one line" \
  eval 'rc_is 1 && one_line_err "a contact with 2 friction rows where others have 1"'
"$FC" local "$T/local.hdf5"
run "$L" convert "$T/local.hdf5" "$T/local"
ok "fclib: a local problem written by libfclib imports as box friction" \
  z_is "$T/local" ldlt-ref 0.5 -0.15
run "$L" convert "$T/local.hdf5" "$T/local-n" --friction none
ok "fclib: ... and as its normal LCP with --friction none" z_is "$T/local-n" ldlt-ref 0.5
"$FC" global "$T/global.hdf5"
run "$L" convert "$T/global.hdf5" "$T/global"
ok "fclib: a global problem reduces to A = H^T M^-1 H, q = H^T M^-1 f + w (z known)" \
  z_is "$T/global" ldlt-ref 1 -0.3
ok "fclib: the reduced global problem keeps J and Minv" test -f "$T/global/J.mtx" -a -f "$T/global/Minv.mtx"
# an FCLIB file with a solution: two 3D contacts, mu 0.5 and 0.3, contact 0 sliding along
# (1, 1), so the cone's r = (1, s, s, 2, -0.6, 0), s = 0.5/sqrt(2), while the box LCP the
# converter builds has z = (1, 0.5, 0.5, 2, -0.6, 0) (tests/harness/fclib_check.c)
vec_is() { # vec_is FILE Z...: the m x 1 array FILE holds Z to 1e-15
  local f=$1; shift
  awk -v want="$*" 'BEGIN { n = split(want, w, " ") }
    !/^%/ && ++k > 1 { d = $1 - w[k - 1]; if (d < 0) d = -d; if (d > 1e-15) bad = 1 }
    END { exit bad || k - 1 != n }' "$f"
}
"$FC" cone "$T/cone.hdf5"
run "$L" convert "$T/cone.hdf5" "$T/cone"
ok "fclib-cone: imports" rc_is 0
ok "fclib-cone: FCLIB's solution is kept as zref-cone.mtx, and no zref.mtx is written" \
  eval 'vec_is "$T/cone/zref-cone.mtx" 1 0.35355339059327373 0.35355339059327373 2 -0.6 0 &&
    ! [ -e "$T/cone/zref.mtx" ]'
ok "fclib-cone: the box LCP's own solution differs from it (ldlt-ref: z = (1, 0.5, 0.5, 2, -0.6, 0))" \
  z_is "$T/cone" ldlt-ref 1 0.5 0.5 2 -0.6 0
run "$L" score "$T/cone" "$T/cone/zref-cone.mtx"
ok "fclib-cone: the cone's solution leaves the box LCP's ||r||_2 = 0.207 (not a reference)" \
  eval 'rc_is 0 && awk -F, "NR == 2 { exit !(\$5 > 0.2071 && \$5 < 0.2072) }" "$T/out"'
run "$L" solve "$T/cone" --solver ldlt-ref,pgs --reps 1
ok "fclib-cone: solve compares against no reference (zdiff, wdiff empty; were 7.3e-2, 1.5e-1)" \
  eval 'rc_is 0 && [ $(wc -l <"$T/out") = 3 ] && awk -F, "NR == 1 { for (k = 1; k <= NF; k++) { if (\$k == \"zdiff\") cz = k; if (\$k == \"wdiff\") cw = k } next } { if (\$cz != \"\" || \$cw != \"\" || \$3 != \"converged\") bad = 1 } END { exit bad || !cz || !cw }" "$T/out"'
ok "fclib-cone: meta.txt names the source file and its problem" \
  eval 'grep -qx "source_file = $T/cone.hdf5" "$T/cone/meta.txt" &&
    grep -qx "source_problem = fclib_local (an FCLIB file holds one problem)" "$T/cone/meta.txt"'
ok "fclib-cone: meta.txt gives the contacts, dim and mu (min .. max, per contact)" \
  eval 'grep -qx "dim = 3" "$T/cone/meta.txt" && grep -qx "contacts = 2" "$T/cone/meta.txt" &&
    grep -qx "mu = 0.3 .. 0.5 (min .. max over the 2 contacts)" "$T/cone/meta.txt" &&
    grep -qx "mu_per_contact = 0.5 0.3" "$T/cone/meta.txt"'
ok "fclib-cone: meta.txt says what the friction rows are (box: a 4-facet pyramid around the cone)" \
  eval 'grep -q "^friction = box: each of a contact.s 2 tangent rows bounded on its own, -mu z_N <= z_t <= mu z_N .*4-facet pyramid .*circumscribing FCLIB.s Coulomb cone" "$T/cone/meta.txt" &&
    grep -q "^zref-cone = zref-cone.mtx: FCLIB.s solution (r) of its cone problem, not of this LCP" "$T/cone/meta.txt" &&
    grep -qx "z0 = FCLIB.s guess 1 of 1" "$T/cone/meta.txt"'
run "$L" convert "$T/cone.hdf5" "$T/cone-n" --friction none
ok "fclib-cone: --friction none keeps the normal rows of the cone solution, apart, and says so" \
  eval 'rc_is 0 && vec_is "$T/cone-n/zref-cone.mtx" 1 2 && ! [ -e "$T/cone-n/zref.mtx" ] &&
    grep -q "^friction = none: FCLIB.s normal rows only" "$T/cone-n/meta.txt"'
run "$L" convert "$T/cone" "$T/cone2.hdf5"
ok "fclib-cone: written back, zref-cone.mtx is FCLIB's solution again" \
  eval 'rc_is 0 && "$FC" solution "$T/cone2.hdf5" | tr "\n" " " | grep -qx "1 0.35355339059327373 0.35355339059327373 2 -0.59999999999999998 0 "'
run "$L" convert "$T/local.hdf5" "$T/cone" --force
ok "fclib-cone: a file without a solution over it (--force) leaves no stale zref-cone.mtx" \
  eval 'rc_is 0 && ! [ -e "$T/cone/zref-cone.mtx" ] && grep -qx "zref-cone = none (the file holds no solution)" "$T/cone/meta.txt" &&
    grep -qx "mu = 0.3 (every contact)" "$T/cone/meta.txt" && grep -q "^friction = box: .*FCLIB.s 2D Coulomb cone |r_T| <= mu r_N itself" "$T/cone/meta.txt"'
"$FC" mixed "$T/mixed.hdf5"
run "$L" convert "$T/mixed.hdf5" "$T/mixed"
ok "fclib-cone: a mixed problem's solution takes r on the contact, l on the free row" \
  eval 'rc_is 0 && vec_is "$T/mixed/zref-cone.mtx" 1 -0.3 2 &&
    grep -qx "free_rows = 1 (the mixed part.s equality multipliers, after the contact rows)" "$T/mixed/meta.txt"'
ok "fclib-cone: a global problem's meta.txt names fclib_global" \
  grep -qx "source_problem = fclib_global (an FCLIB file holds one problem)" "$T/global/meta.txt"
printf 'not hdf5\n' >"$T/junk.hdf5"
run "$L" convert "$T/junk.hdf5" "$T/junk"
ok "fclib: a file that is not HDF5 is refused in one line" \
  eval 'rc_is 1 && one_line_err "not an HDF5 file"'
run "$L" convert "$I/capsule-step1" "$T/capsule-step1.hdf5"
ok "fclib: an existing output is not replaced without --force" \
  eval 'rc_is 1 && one_line_err "exists"'
tap_done
