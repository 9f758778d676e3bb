#!/usr/bin/env python3
"""oracle_corpus.py: the oracle corpus of `ldlt-ref`, generated, and its independent check.

    oracle_corpus.py make DIR [--full | --quick]
        writes one Matrix Market instance folder per case under DIR (--quick: without the
        cases in SLOW, which take seconds; the sanitizer build runs that) (A.mtx, q.mtx, and
        lo.mtx, hi.mtx, findex.mtx where the case has them) and DIR/expected.csv:
        case,family,rows,expect (the statuses the oracle may answer, '|' between them).
    oracle_corpus.py search LCPBENCH DIR S0 S1
        writes the fuzz-fric case of every seed S0 <= s < S1 under DIR, solves each with
        ldlt-ref and lemke-ref, and prints the ten slowest (how the family's seeds were found)
    oracle_corpus.py check DIR RUNS.csv SOLUTIONS
        reads `lcpbench solve`'s CSV lines (RUNS.csv) and the z it wrote (SOLUTIONS/CASE__SOLVER.mtx),
        and prints TAP: for every case, the status is one of those expected, and an answer
        with a usable status is re-checked here, row by row, from A, q and the bounds alone
        (numpy; no code of the suite): converged and solved-nonunique at rounding,
        no-solution-found with a Farkas certificate recomputed here (see below).

Each family mirrors a class of external problem on which the oracle once answered falsely
(reference/README.md, "What the oracle answers"); the generator is seeded, so the same files
come out on every machine:
  spd-scaled      frictionless contact LCPs A = J M^-1 J^T with masses over four decades
                  (positive definite, wide diagonal scaling)
  q-rounding      positive definite A, q at rounding level (|q_i| <= 4e-19): z ~ 1e-22
  near-sym        semi-definite contact A (redundant contacts) made non-symmetric at 1e-14
  nonsym-psd      boxed friction LCPs whose A is non-symmetric by 1e-3 (a skew part) and
                  whose symmetric part is semi-definite
  bimatrix        LCPs of 2x2 .. 3x3 bimatrix games (not copositive-plus; a solution exists)
  infeasible      copositive-plus LCPs with no solution (certificate expected)
  fric2d, fric3d  friction BLCPs of disk and sphere contacts, mu 0.1 to 1, redundant contacts
  fuzz-fric       small non-symmetric friction BLCPs with the fuzz target's values (k 2^e,
                  e in -40..40), the class of the slow fuzz-found instances
The check of no-solution-found: a vector y >= 0 with A^T y <= 0 and q^T y < 0 proves that
no z >= 0 has A z + q >= 0 (Farkas).  The oracle prints its certificate's residual; here the
certificate is searched for independently by a small linear program (scipy).
"""
import csv
import os
import sys

import numpy as np

EPS = np.finfo(float).eps
ROUND = 64.0   # this check's rounding allowance: 4x the oracle's own 16 eps


def write_mtx(path, M, symmetric=False):
    M = np.asarray(M, dtype=float)
    with open(path, "w") as f:
        if symmetric:
            f.write("%%MatrixMarket matrix coordinate real symmetric\n")
            ii, jj = np.nonzero(np.tril(M))
        else:
            f.write("%%MatrixMarket matrix coordinate real general\n")
            ii, jj = np.nonzero(M)
        f.write(f"{M.shape[0]} {M.shape[1]} {len(ii)}\n")
        for i, j in zip(ii, jj):
            f.write(f"{i + 1} {j + 1} {M[i, j]!r}\n")


def write_vec(path, v, integer=False):
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix array " + ("integer" if integer else "real") + " general\n")
        f.write(f"{len(v)} 1\n")
        for x in v:
            if integer:
                f.write(f"{int(x)}\n")
            elif np.isinf(x):
                f.write("inf\n" if x > 0 else "-inf\n")
            else:
                f.write(f"{float(x)!r}\n")


def read_vec(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("%")]
    n = int(lines[0].split()[0])
    return np.array([float(x) for x in lines[1:1 + n]])


def read_mtx(path):
    with open(path) as f:
        head = f.readline()
        lines = [l for l in f if not l.startswith("%")]
    m, n, nnz = (int(x) for x in lines[0].split())
    A = np.zeros((m, n))
    for l in lines[1:1 + nnz]:
        i, j, x = l.split()
        A[int(i) - 1, int(j) - 1] = float(x)
        if "symmetric" in head and i != j:
            A[int(j) - 1, int(i) - 1] = float(x)
    return A


# ---- contact matrices ----

def contact_jacobian(rng, nb, rows, dim, fric, stack=1):
    """J of `rows` contact rows between nb bodies (2D: 3 dofs, 3D: 6), a contact touching
    one body and the ground or two bodies; with fric, each contact has dim - 1 tangent rows
    after its normal; `stack` contacts share a normal (a box face: redundant contacts).
    Returns J, findex (normal row of each tangent row, -1 else)."""
    nd = 3 if dim == 2 else 6
    per = dim if fric else 1
    J = np.zeros((rows, nd * nb))
    findex = -np.ones(rows, dtype=int)
    r = 0
    while r + per <= rows:
        a = rng.integers(nb)
        b = rng.integers(-1, nb)
        if b == a:
            b = -1
        n = rng.normal(size=dim)
        n /= np.linalg.norm(n)
        basis = [n]
        if fric:
            t = np.linalg.svd(n.reshape(1, -1))[2][1:]
            basis += list(t)
        for _ in range(stack):
            if r + per > rows:
                break
            arm_a = rng.uniform(-0.5, 0.5, size=dim)
            arm_b = rng.uniform(-0.5, 0.5, size=dim)
            for k, d in enumerate(basis):
                for body, arm, sgn in ((a, arm_a, 1.0), (b, arm_b, -1.0)):
                    if body < 0:
                        continue
                    if dim == 2:
                        ang = arm[0] * d[1] - arm[1] * d[0]
                        J[r + k, 3 * body:3 * body + 3] += sgn * np.array([d[0], d[1], ang])
                    else:
                        J[r + k, 6 * body:6 * body + 6] += sgn * np.concatenate([d, np.cross(arm, d)])
                if k > 0:
                    findex[r + k] = r
            r += per
    return J[:r], findex[:r]


def minv(rng, nb, dim, decades):
    nd = 3 if dim == 2 else 6
    mass = 10.0 ** rng.uniform(-decades / 2, decades / 2, size=nb)
    return np.repeat(1.0 / mass, nd) * np.tile(np.r_[np.ones(dim), 2.0 * np.ones(nd - dim)], nb)


def case_spd_scaled(rng, rows):
    nb = rows // 2 + 10                 # dofs 3 nb > rows: J has full row rank
    J, _ = contact_jacobian(rng, nb, rows, 2, False)
    A = J @ np.diag(minv(rng, nb, 2, 4)) @ J.T
    A = 0.5 * (A + A.T)                 # exactly symmetric
    q = rng.uniform(-16, 16, size=len(A))
    return dict(A=A, q=q, symmetric=True), "converged"


def case_q_rounding(rng, rows):
    B = rng.normal(size=(rows, rows // 4)) * (rng.random((rows, rows // 4)) < 0.02)
    A = 800.0 * np.eye(rows) + 10.0 * B @ B.T
    A = 0.5 * (A + A.T)
    q = rng.uniform(-4e-19, 4e-19, size=rows)
    q[rng.choice(rows, size=min(200, rows), replace=False)] = -1e-19
    return dict(A=A, q=q, symmetric=True), "converged"


def case_near_sym(rng, rows):
    nb = rows // 4                      # rows > dofs 3 nb: semi-definite
    J, _ = contact_jacobian(rng, nb, rows, 2, False, stack=2)
    A = J @ np.diag(minv(rng, nb, 2, 2)) @ J.T
    A = 0.5 * (A + A.T)
    E = rng.normal(size=A.shape) * (A != 0)
    A = A + 1e-14 * np.abs(A).max() * E / np.abs(E).max()
    q = J @ rng.normal(size=J.shape[1])  # a velocity: the contact problem has a solution
    return dict(A=A, q=q), "converged|solved-nonunique"


def friction_case(rng, rows, dim, mu, stack, decades, skew):
    nb = max(2, rows // (dim * stack * 2))
    J, findex = contact_jacobian(rng, nb, rows, dim, True, stack=stack)
    A = J @ np.diag(minv(rng, nb, dim, decades)) @ J.T
    A = 0.5 * (A + A.T)
    if skew > 0:
        S = rng.normal(size=A.shape) * (A != 0)
        S = S - S.T
        A = A + skew * np.abs(A).max() * S / np.abs(S).max()
    m = len(A)
    q = J @ rng.normal(size=J.shape[1]) + np.where(findex < 0, rng.uniform(0, 0.01, size=m), 0)
    lo = np.where(findex < 0, 0.0, -mu)
    hi = np.where(findex < 0, np.inf, mu)
    return dict(A=A, q=q, lo=lo, hi=hi, findex=findex, symmetric=skew == 0)


def case_nonsym_psd(rng, rows):
    return friction_case(rng, rows, 3, rng.uniform(0.1, 1.0), 2, 2, 1e-3), \
        "converged|solved-nonunique"


def case_fric2d(rng, rows):
    return friction_case(rng, rows, 2, rng.uniform(0.1, 1.0), 2, 2, 0.0), FRICTION_EXPECT[rows]


def case_fric3d(rng, rows):
    return friction_case(rng, rows, 3, rng.uniform(0.1, 1.0), 4, 2, 0.0), FRICTION_EXPECT[rows]


# A random friction problem need not have a solution (the coupled problem is not an LCP):
# the small ones do (PGS converges to 1e-10 in 618 and 195 sweeps); on the larger ones PGS
# stalls (at 1e-4 and 1e-2 after 10^5 sweeps) and the frozen-bound rounds alone hit the
# pivot cap, but the 2D one has a solution that Newton steps from PGS's iterate find (and the
# independent check confirms); the 3D one has one too (A = J M^-1 J^T, q = J v plus
# non-negative normal terms: the friction cone's LCP of Anitescu and Potra, reference/
# ref_cone.c), which the route `lemke-cone' finds, so it must be answered; so must the
# --full 2D one (4040 rows: the route, within its flop budget); on the --full 3D one (1710
# rows) the earlier routes answer, and friction-not-settled stays allowed there.
FRICTION_EXPECT = {200: "converged|solved-nonunique", 216: "converged|solved-nonunique",
                   1000: "converged|solved-nonunique",
                   864: "converged|solved-nonunique",
                   4040: "converged|solved-nonunique",
                   1710: "converged|solved-nonunique|friction-not-settled"}


def case_bimatrix(rng, k):
    P = rng.uniform(1, 10, size=(k, k))
    Q = rng.uniform(1, 10, size=(k, k))
    A = np.block([[np.zeros((k, k)), P], [Q.T, np.zeros((k, k))]])
    return dict(A=A, q=-np.ones(2 * k)), "converged|solved-nonunique"


def case_infeasible(rng, k):
    """copositive-plus (positive semi-definite) A = B B^T with a q that no z >= 0 makes
    A z + q >= 0: q = -B y0 for a y... chosen so that y = v (B^T v = 0, v >= 0) certifies"""
    n = 2 * k
    B = rng.normal(size=(n, k))
    v = rng.uniform(0.5, 2, size=n)
    B -= np.outer(v, v @ B) / (v @ v)       # v^T B = 0: A^T v = 0
    A = B @ B.T
    A = 0.5 * (A + A.T)
    q = rng.uniform(-1, 1, size=n)
    q -= v * (v @ q + 1.0) / (v @ v)        # v^T q = -1 < 0
    return dict(A=A, q=q), "no-solution-found"


def fuzz_value(rng, size=None, emax=40):
    """k 2^e, k in -128..127, e in -emax..emax: the values of the fuzz target fuzz_solve"""
    return rng.integers(-128, 128, size=size) * np.exp2(rng.integers(-emax, emax + 1, size=size))


def case_fuzz_fric(_, seed):
    """a small friction BLCP with the fuzz target's values (fuzz_solve): A non-symmetric
    (so each friction round is Lemke's, whose uncertified rays are answered by enumerating
    up to 2^16 bases), about 30% dense, 10 to 30 rows, mu = k 2^e; seeded by its own seed
    (the family's 'sizes' are seeds), found by a search of 200 seeds for the slowest"""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(10, 31))
    A = np.zeros((m, m))
    nz = rng.random((m, m)) < 0.3
    A[nz] = fuzz_value(rng, nz.sum())
    A[np.diag_indices(m)] = np.abs(fuzz_value(rng, m)) + 1.0
    findex = -np.ones(m, dtype=int)
    lo, hi = np.zeros(m), np.full(m, np.inf)
    for i in range(m):
        if rng.random() < 0.4:
            f = int(rng.integers(0, m))
            if f != i and findex[f] < 0:
                findex[i] = f
                mu = abs(fuzz_value(rng, emax=20))
                lo[i], hi[i] = -mu, mu
    q = fuzz_value(rng, m)
    return dict(A=A, q=q, lo=lo, hi=hi, findex=findex, symmetric=False), FUZZ_EXPECT[seed]


# seeds 164 and 188: 500 rounds of enumerations, 12 s and 3 s each before the enumeration
# budget (reference/ref_rescue.c, REF_ENUM_BASES), no route finds an answer; seed 57: the
# rounds converge slowly (hundreds of rounds, each answered by enumeration): the budget must
# not cost its answer
FUZZ_EXPECT = {164: "converged|solved-nonunique|friction-not-settled",
               188: "converged|solved-nonunique|friction-not-settled",
               57: "converged|solved-nonunique"}


FAMILIES = [
    # name, generator, sizes (CI), sizes added by --full
    ("spd-scaled", case_spd_scaled, [60, 376], [1500]),
    ("q-rounding", case_q_rounding, [80, 667], []),
    ("near-sym", case_near_sym, [120, 570], []),
    ("nonsym-psd", case_nonsym_psd, [96, 675], [1389]),
    ("bimatrix", case_bimatrix, [2, 2, 3, 3], []),
    ("infeasible", case_infeasible, [2, 5], []),
    ("fric2d", case_fric2d, [200, 1000], [4040]),
    ("fric3d", case_fric3d, [216, 864], [1710]),
    ("fuzz-fric", case_fuzz_fric, [164, 188, 57], []),
]


SLOW = ("fric2d-1", "fric3d-1")


def make(out, full=False, quick=False):
    os.makedirs(out, exist_ok=True)
    rows = []
    for fi, (name, gen, sizes, more) in enumerate(FAMILIES):
        for si, n in enumerate(sizes + (more if full else [])):
            rng = np.random.default_rng(1000 * fi + si)
            d, expect = gen(rng, n)
            case = f"{name}-{si}"
            if quick and case in SLOW:
                continue
            write_case(os.path.join(out, case), d)
            rows.append((case, name, len(d["q"]), expect))
    with open(os.path.join(out, "expected.csv"), "w") as f:
        f.write("case,family,rows,expect\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")
    print(" ".join(r[0] for r in rows))


def load(d):
    A = read_mtx(os.path.join(d, "A.mtx"))
    q = read_vec(os.path.join(d, "q.mtx"))
    m = len(q)
    lo = read_vec(os.path.join(d, "lo.mtx")) if os.path.exists(os.path.join(d, "lo.mtx")) else np.zeros(m)
    hi = read_vec(os.path.join(d, "hi.mtx")) if os.path.exists(os.path.join(d, "hi.mtx")) else np.full(m, np.inf)
    fx = os.path.join(d, "findex.mtx")
    findex = read_vec(fx).astype(int) if os.path.exists(fx) else -np.ones(m, dtype=int)
    return A, q, lo, hi, findex


def worst_row(A, q, lo, hi, findex, z):
    """the largest violation of the (coupled) complementarity conditions relative to the
    row's rounding scale ((|A||z|)_i + |q_i|) eps, and its row"""
    w = A @ z + q
    L, H = lo.copy(), hi.copy()
    f = findex >= 0
    L[f] = lo[f] * np.abs(z[findex[f]])
    H[f] = hi[f] * np.abs(z[findex[f]])
    scale = EPS * (np.abs(A) @ np.abs(z) + np.abs(q))
    zs = EPS * np.maximum(np.abs(z), np.maximum(np.abs(np.where(np.isfinite(L), L, 0)),
                                                np.abs(np.where(np.isfinite(H), H, 0))))
    # the natural residual row by row: z_i - mid(L, z - w, H) in the w scale
    zv = np.maximum(L - z, 0) + np.maximum(z - H, 0)         # bound violation
    at_lo = z <= L + 8 * zs + ROUND * scale
    at_hi = z >= H - 8 * zs - ROUND * scale
    wv = np.where(at_lo & at_hi, 0.0,
                  np.where(at_lo, np.maximum(-w, 0), np.where(at_hi, np.maximum(w, 0), np.abs(w))))
    ratio = np.maximum(zv / np.maximum(zs, 1e-300), wv / np.maximum(scale, 1e-300))
    i = int(np.argmax(ratio))
    return ratio[i], i


def farkas(A, q):
    """y >= 0, A^T y <= 0, q^T y = -1 (an LP), or None"""
    from scipy.optimize import linprog
    m = len(q)
    r = linprog(np.zeros(m), A_ub=A.T, b_ub=np.zeros(m), A_eq=q.reshape(1, -1), b_eq=[-1.0],
                bounds=[(0, None)] * m, method="highs")
    return r.x if r.status == 0 else None


def check(d, runs, sols):
    exp = {r["case"]: r for r in csv.DictReader(open(os.path.join(d, "expected.csv")))}
    got = {}
    with open(runs) as f:
        for line in f:
            if line.startswith("instance,") or not line.strip():
                continue
            row = next(csv.reader([line]))
            got[os.path.basename(row[0].rstrip("/"))] = row
    n = fails = 0
    for case, e in exp.items():
        row = got.get(case)
        status = row[2] if row else "(no run)"
        ok = status in e["expect"].split("|")
        diag = f"status {status}, expected {e['expect']}"
        if ok and status in ("converged", "solved-nonunique"):
            A, q, lo, hi, findex = load(os.path.join(d, case))
            z = read_vec(os.path.join(sols, f"{case}__{row[1]}.mtx"))
            ratio, i = worst_row(A, q, lo, hi, findex, z)
            ok = ratio <= ROUND
            diag += f"; worst row {i}: {ratio:.3g} eps of its scale (allowed {ROUND:g})"
        elif ok and status == "no-solution-found":
            A, q, _, _, _ = load(os.path.join(d, case))
            ok = farkas(A, q) is not None
            diag += "; Farkas certificate " + ("found" if ok else "NOT found: a solution may exist")
        n += 1
        fails += not ok
        print(f"{'ok' if ok else 'not ok'} {n} - {case} ({e['rows']} rows): {diag}")
    print(f"1..{n}")
    return 1 if fails else 0


def write_case(p, d):
    os.makedirs(p, exist_ok=True)
    write_mtx(os.path.join(p, "A.mtx"), d["A"], d.get("symmetric", False))
    write_vec(os.path.join(p, "q.mtx"), d["q"])
    if "lo" in d:
        write_vec(os.path.join(p, "lo.mtx"), d["lo"])
        write_vec(os.path.join(p, "hi.mtx"), d["hi"])
    if "findex" in d and (d["findex"] >= 0).any():
        write_vec(os.path.join(p, "findex.mtx"), d["findex"], integer=True)


def search(lcpbench, out, s0, s1):
    """the fuzz-fric class for seeds s0 <= s < s1, each solved by ldlt-ref and lemke-ref
    (no caps): prints the slowest ten (CPU seconds of the process, status, iterations)"""
    import resource
    import subprocess
    res = []
    for seed in range(s0, s1):
        FUZZ_EXPECT.setdefault(seed, "")
        d, _ = case_fuzz_fric(None, seed)
        p = os.path.join(out, f"seed{seed}")
        write_case(p, d)
        for solver in ("ldlt-ref", "lemke-ref"):
            t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = subprocess.run([lcpbench, "solve", p, "--solver", solver, "--reps", "0"],
                               capture_output=True, text=True)
            t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            line = [l for l in r.stdout.splitlines() if f",{solver}," in l]
            f = line[0].split(",") if line else ["", "", "failed", "0"]
            res.append((t1.ru_utime + t1.ru_stime - t0.ru_utime - t0.ru_stime, seed, solver,
                        f[2], f[3]))
    for t, seed, solver, status, its in sorted(res, reverse=True)[:10]:
        print(f"seed {seed} {solver}: {t:.2f} s, {status}, {its} iterations")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2], "--full" in sys.argv[3:], "--quick" in sys.argv[3:])
    elif len(sys.argv) == 6 and sys.argv[1] == "search":
        search(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        sys.exit(__doc__)
