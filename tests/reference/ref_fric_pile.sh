#!/usr/bin/env bash
# ref_fric_pile.sh LCPBENCH: ldlt-ref settles a captured friction pile (test
# 'reference-fric-pile').  600 spheres, mu 0.5 (the scene's default), the LCP of step 100
# (4794 rows): before the semismooth Newton phase of the reference its frozen-bound rounds
# cycled and the run ended `friction-not-settled' (residual 1.6e-9 after 500 rounds).
# Asserts: the status is `converged', the residual the suite reports is at rounding
# (||r||_inf <= 1e-12 max(1, ||q||_inf)), and, computed here independently from the
# folder's Matrix Market files and the written z, the coupled complementarity row by row:
#   normal rows   z_i >= 0, w_i >= 0, min(z_i, w_i) ~ 0;
#   friction rows |z_t| <= mu z_n, and w_t = 0 inside, w_t >= 0 at -mu z_n, w_t <= 0 at
#                 +mu z_n (bounds lo_t |z_n|, hi_t |z_n|; findex gives n; z_t = 0 and no
#                 test of w_t when z_n = 0),
# each within 1e-10 of the row's scale (|A||z|)_i + |q_i| (and of z_n's for the bounds).
set -eu
LB=$1
N=${REF_FRIC_PILE_N:-600}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$LB" capture spheres --param n="$N" --at 100 --out "$T/p" >/dev/null
D="$T/p/spheres-step100"
out=$(OPENBLAS_NUM_THREADS=1 "$LB" solve "$D" --solver ldlt-ref --reps 0 --solution "$T/z" \
  2>&1) || {
  echo "not ok 1 - ref/fric-pile-$N solve ran ($out)"; exit 1; }
echo "1..3"
line=$(printf '%s\n' "$out" | grep ',ldlt-ref,' | head -1)
IFS=, read -r _ _ status _ _ rinf _ <<<"$line"
if [ "$status" = converged ]; then
  echo "ok 1 - ref/fric-pile-$N converged"
else
  echo "not ok 1 - ref/fric-pile-$N converged (status $status, residual_inf $rinf)"
fi
python3 - "$D" "$T/z" "$N" "$rinf" <<'EOF'
import glob, math, sys
d, zdir, n, rinf = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])

def vec(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith('%')]
    return [float(x) for x in lines[1:]]

def coo(path):
    with open(path) as f:
        head = f.readline()
        lines = [l for l in f if not l.startswith('%')]
    m = int(lines[0].split()[0])
    rows = [[] for _ in range(m)]
    for l in lines[1:]:
        i, j, x = l.split()
        i, j, x = int(i) - 1, int(j) - 1, float(x)
        rows[i].append((j, x))
        if 'symmetric' in head and i != j:
            rows[j].append((i, x))
    return rows

A = coo(d + '/A.mtx')
q, lo, hi = vec(d + '/q.mtx'), vec(d + '/lo.mtx'), vec(d + '/hi.mtx')
fx = [int(x) for x in vec(d + "/findex.mtx")]
z = vec(glob.glob(zdir + '/*.mtx')[0])
m = len(q)
qinf = max(abs(x) for x in q)
ok = rinf <= 1e-12 * max(1.0, qinf)
print('%s 2 - ref/fric-pile-%s residual at rounding (residual_inf %.3g, ||q||_inf %.3g)'
      % ('ok' if ok else 'not ok', n, rinf, qinf))
worst, wrow, nfric = 0.0, -1, 0
for i in range(m):
    w = q[i] + sum(x * z[j] for j, x in A[i])
    s = abs(q[i]) + sum(abs(x * z[j]) for j, x in A[i])
    l, h = lo[i], hi[i]
    if fx[i] >= 0:
        nfric += 1
        zn = abs(z[fx[i]])
        l, h = lo[i] * zn, hi[i] * zn
        s = max(s, abs(zn))
    tol = 1e-10 * max(s, 1e-300)
    e = max(l - z[i], z[i] - h, 0.0)                # outside the bounds
    if l == h:
        e = abs(z[i] - l)                            # fixed (normal at zero): no w test
    elif z[i] <= l + tol and z[i] - l <= h - z[i]:
        e = max(e, -w)                               # at lo: w >= 0 (the nearer bound: a
                                                     # normal of 1e-13 leaves h - l < tol)
    elif z[i] >= h - tol:
        e = max(e, w)                                # at hi: w <= 0
    else:
        e = max(e, abs(w))                           # inside: w = 0
    if e / max(s, 1e-300) > worst:
        worst, wrow = e / max(s, 1e-300), i
ok = worst <= 1e-10 and nfric > 0
print('%s 3 - ref/fric-pile-%s coupled complementarity row by row (%d rows, %d friction, '
      'worst %.2g relative at row %d)' % ('ok' if ok else 'not ok', n, m, nfric, worst, wrow))
EOF
