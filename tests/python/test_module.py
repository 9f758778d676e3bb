#!/usr/bin/env python3
"""test_module.py MODE LCPBENCH MODULE_DIR SECONDS INSTANCE...: the Python module lcpbench
(lcp/python/README.md) against the command line, as TAP.  MODE `solvers': the first two
items below (the test python-solvers); `api': the others (python-module).

- lcpbench.solvers() lists the solvers of `lcpbench list solvers', in its order.
- Every solver on every committed instance (those the build has: the peers when built):
  `lcpbench solve INSTANCE --solver ALL --reps 0 --solution DIR --history DIR --timeout
  SECONDS' once per instance, then lcpbench.solve(read(INSTANCE), S): the same status and
  iterations, z bit for bit (the CLI writes %.17g, read back exactly), the residual as the
  CLI prints it (%.6e) and the whole history (iterations, ||r||_2, ||r||_inf, %.6e); an
  error status raises lcpbench.Error carrying that status.  A run past SECONDS in the CLI
  is skipped here (named, `# SKIP').
- Settings: z bit for bit with the CLI's for omega, order (a name, and rows as perm:FILE),
  tol, maxit, a fraction "4/3", warm (the folder's z0) and z0=; a refused setting (unused
  by the solver, out of range, unknown value) raises the CLI's own message.
- The same problem from SciPy: A, J, Minv as scipy.sparse CSR, CSC, COO (through tocsr) and
  dense arrays, the vectors as scipy.io.mmread returns them: the library's CSR identical to
  the folder's and pgs's z bit for bit; write() then read() and the CLI on the written folder.
- Bad input raises lcpbench.Error with the status named (non-square, NaN and Inf, wrong
  lengths, findex out of range, at itself, beyond int, lo > hi, broken CSR arrays, ...).
- sweep=f, a numpy PGS sweep of the test's own, runs through the library's loop: its history,
  its residual, pgs's z to 1e-12; its exception propagates, NaN stops it as non-finite.
- The GIL is released during a solve (another thread runs meanwhile), and the answer is the
  same from two threads at once.
- No leak: 10^4 calls of each entry point (errors included) leave the inputs' reference
  counts, Python's traced memory (tracemalloc) and the C heap (glibc mallinfo2) as they were.
Skipped (1..0 # SKIP) without numpy and scipy.
"""
import csv
import ctypes
import gc
import io
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc

try:
    import numpy as np
    import scipy.io as sio
    import scipy.sparse as sp
except ImportError:
    print("1..0 # SKIP numpy/scipy not installed (apt-get install python3-numpy python3-scipy)")
    sys.exit(0)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import Tap  # noqa: E402  (TAP lines as the other tests print them)

tap = Tap()
ok = tap.ok
MODE, LB, MODDIR = sys.argv[1], sys.argv[2], sys.argv[3]
SECONDS, INSTANCES = float(sys.argv[4]), sys.argv[5:]
sys.path.insert(0, MODDIR)
import lcpbench  # noqa: E402

TMP = tempfile.mkdtemp(prefix="lcpbench-py-")


def skip(name, why):
    tap.n += 1
    print("ok %d - %s # SKIP %s" % (tap.n, name, why))


def mtx_vector(path):
    """an m x 1 array file, every number read by float() (correctly rounded: %.17g exact)"""
    with open(path) as f:
        lines = [x for x in f.read().split("\n") if x and not x.startswith("%")]
    return np.array([float(x) for x in lines[1:]])


def same_bits(a, b):
    a, b = np.ascontiguousarray(a, dtype=float), np.ascontiguousarray(b, dtype=float)
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))


def e6(v):
    return "%.6e" % v if math.isfinite(v) else ""


def cli(*args):
    return subprocess.run([LB] + list(args), capture_output=True, text=True)


def cli_solve(inst, solvers, extra=(), tag="run"):
    """rows of `lcpbench solve` by solver, and the folders of its z and histories"""
    out = tempfile.mkdtemp(dir=TMP, prefix=tag)
    sol, hist = os.path.join(out, "z"), os.path.join(out, "h")
    p = cli("solve", inst, "--solver", ",".join(solvers), "--reps", "0", "--solution", sol,
            "--history", hist, *extra)
    rows = {r["solver"]: r for r in csv.DictReader(io.StringIO(p.stdout))}
    return rows, sol, hist, p


def cli_file(folder, solver, ext):
    if not os.path.isdir(folder):
        return None
    f = [x for x in os.listdir(folder) if x.endswith("__" + solver + ext)]
    return os.path.join(folder, f[0]) if len(f) == 1 else None


def raises(fn, status, msg=None):
    """fn() raises lcpbench.Error with this status (and message): (True, why)"""
    try:
        fn()
    except lcpbench.Error as e:
        good = e.status == status and (msg is None or str(e) == msg)
        return good, "%s: %s" % (e.status, e)
    except Exception as e:  # noqa: BLE001  (any other exception is the failure reported)
        return False, "%s: %s" % (type(e).__name__, e)
    return False, "nothing raised"


# ---- the registry -------------------------------------------------------------------------
names = [s.name for s in lcpbench.solvers()]
listed = [ln.split()[0] for ln in cli("list", "solvers").stdout.splitlines()
          if ln.startswith("  ") and ln.split()]
ok(names == listed, "solvers() = lcpbench list solvers (%d solvers)" % len(names),
   "python %s, cli %s" % (names, listed))
ok(all(s.description and isinstance(s.needs, tuple) for s in lcpbench.solvers()),
   "every Solver has a description and its needs as words")


# ---- every solver on every instance, against the CLI ---------------------------------------
def compare(inst, name, P, row, sol, hist):
    label = "%s/%s" % (name, os.path.basename(os.path.normpath(inst)))
    if row is None:
        ok(False, label + ": the CLI printed a row")
        return
    if row["status"] == "timeout":
        skip(label, "over %g s in the CLI" % SECONDS)
        return
    r = lcpbench.solve(P, name, check=False)
    why = []
    if r.status != row["status"]:
        why.append("status %s, cli %s" % (r.status, row["status"]))
    if r.iterations != int(row["iterations"]):
        why.append("iterations %d, cli %s" % (r.iterations, row["iterations"]))
    usable = row["residual"] != ""
    if usable:
        zf, hf = cli_file(sol, name, ".mtx"), cli_file(hist, name, ".csv")
        if not zf or not same_bits(r.z, mtx_vector(zf)):
            why.append("z differs from %s" % zf)
        if e6(r.residual) != row["residual"] or e6(r.residual_inf) != row["residual_inf"]:
            why.append("residual %s %s, cli %s %s" % (e6(r.residual), e6(r.residual_inf),
                                                      row["residual"], row["residual_inf"]))
        hrows = list(csv.DictReader(open(hf))) if hf else []
        mine = [(int(i), e6(a), e6(b)) for i, a, b in
                zip(r.history_iterations, r.history, r.history_inf)]
        theirs = [(int(h["iteration"]), h["residual"], h["residual_inf"]) for h in hrows]
        if mine != theirs:
            why.append("history (%d points) differs from the CLI's (%d)" %
                       (len(mine), len(theirs)))
    else:
        good, err = raises(lambda: lcpbench.solve(P, name), row["status"])
        if not good:
            why.append("check=True: " + err)
    ok(not why, label + ": status, iterations, z bit for bit, residual and history = the CLI's"
       + ("" if usable else " (raises %s)" % row["status"]), "; ".join(why))


if MODE == "solvers":
    for inst in INSTANCES:
        P = lcpbench.read(inst)
        rows, sol, hist, p = cli_solve(inst, names, ("--timeout", "%g" % SECONDS))
        for name in names:
            compare(inst, name, P, rows.get(name), sol, hist)
    sys.exit(tap.done())

# ---- settings -------------------------------------------------------------------------------
small = next(i for i in INSTANCES if "stack-30" in i)
P = lcpbench.read(small)
perm_file = os.path.join(TMP, "perm.txt")
rows_rev = list(range(P.m))[::-1]
rows_rev[0], rows_rev[1] = rows_rev[1], rows_rev[0]
with open(perm_file, "w") as f:
    f.write("\n".join(map(str, rows_rev)) + "\n")
cases = [
    ("pgs", {"omega": 1.2, "order": "reverse"}, ["--omega", "1.2", "--order", "reverse"]),
    ("pgs", {"omega": "4/3", "tol": 1e-9, "maxit": 3000},
     ["--omega", "4/3", "--tol", "1e-9", "--maxit", "3000"]),
    ("pgs", {"order": rows_rev}, ["--order", "perm:" + perm_file]),
    ("pgs", {"order": "random", "seed": 7}, ["--order", "random", "--seed", "7"]),
    ("jacobi", {"omega": "auto", "threads": 2}, ["--omega", "auto", "--threads", "2"]),
    ("pgs", {"warm": True, "warm_scale": 0.9}, ["--warm", "--warm-scale", "0.9"]),
    ("amgs-D", {"beta": 0.5, "gamma": 0.9, "form": "assembled"},
     ["--beta", "0.5", "--gamma", "0.9", "--form", "assembled"]),
    ("pgs", {"every": 10, "tol": np.float64(1e-7)}, ["--check-every", "10", "--tol", "1e-7"]),
    ("pgs", {"precision": "float32", "tol": 1e-7}, ["--precision", "float32", "--tol", "1e-7"]),
]
for name, kw, flags in cases:
    rows, sol, hist, p = cli_solve(small, [name], flags, "set")
    r = lcpbench.solve(P, name, **kw)
    zf = cli_file(sol, name, ".mtx")
    ok(zf is not None and same_bits(r.z, mtx_vector(zf)) and
       r.iterations == int(rows[name]["iterations"]),
       "%s %s: z bit for bit and iterations = the CLI's with %s" %
       (name, " ".join("%s=%s" % (k, "rows" if k == "order" and not isinstance(v, str) else v)
                       for k, v in kw.items()), " ".join(flags)), p.stderr.strip())
z0 = P.z0
r1 = lcpbench.solve(P, "pgs", warm=1)
r2 = lcpbench.solve(P, "pgs", z0=z0)
ok(same_bits(r1.z, r2.z) and r1.iterations == r2.iterations,
   "z0= starts where warm=1 starts from the folder's z0")
for name, kw, flags in [
        ("pgs-block", {"omega": 1.5}, ["--omega", "1.5"]),
        ("ldlt-ref", {"tol": 1e-8}, ["--tol", "1e-8"]),
        ("pgs", {"omega": 3}, ["--omega", "3"]),
        ("pgs", {"order": "bogus"}, ["--order", "bogus"]),
        ("pgs", {"maxit": -1}, ["--maxit", "-1"]),
        ("pgs", {"threads": 2}, ["--threads", "2"]),
        ("jacobi", {"omega": "fast"}, ["--omega", "fast"])]:
    p = cli("solve", small, "--solver", name, "--reps", "0", *flags)
    want = p.stderr.strip().split("\n")[-1].replace("lcpbench solve: ", "", 1)
    good, err = raises(lambda: lcpbench.solve(P, name, **kw), "bad-argument", want)
    ok(good and p.returncode == 2, "%s %s: refused with the CLI's message '%s'" %
       (name, " ".join(flags), want), err)
for what, fn, status in [
        ("an unknown setting", lambda: lcpbench.solve(P, "pgs", foo=1), "bad-argument"),
        ("a harness setting (reps)", lambda: lcpbench.solve(P, "pgs", reps=3), "bad-argument"),
        ("an unknown solver", lambda: lcpbench.solve(P, "nope"), "bad-argument"),
        ("order rows of the wrong length", lambda: lcpbench.solve(P, "pgs", order=[0, 1]),
         "bad-argument"),
        ("order rows not a permutation",
         lambda: lcpbench.solve(P, "pgs", order=[0] * P.m), "bad-argument"),
        ("z0 of the wrong length", lambda: lcpbench.solve(P, "pgs", z0=[0.0]), "inconsistent"),
        ("warm without z0", lambda: lcpbench.solve(lcpbench.Problem(np.eye(2), [-1, -1]),
                                                   "pgs", warm=1), "bad-argument"),
        ("residual of a z of the wrong length", lambda: lcpbench.residual(P, np.zeros(3)),
         "inconsistent")]:
    good, err = raises(fn, status)
    ok(good, "%s raises lcpbench.Error %s" % (what, status), err)

# ---- the same problem from SciPy ------------------------------------------------------------
for inst in INSTANCES:
    base = os.path.basename(os.path.normpath(inst))
    P = lcpbench.read(inst)
    f = lambda x: os.path.join(inst, x)  # noqa: E731
    opt = lambda x: sio.mmread(f(x)) if os.path.exists(f(x)) else None  # noqa: E731
    A, J, Minv = sio.mmread(f("A.mtx")), opt("J.mtx"), opt("Minv.mtx")
    vecs = dict(q=sio.mmread(f("q.mtx")), lo=opt("lo.mtx"), hi=opt("hi.mtx"),
                findex=opt("findex.mtx"), E=opt("E.mtx"), z0=opt("z0.mtx"))
    ref = lcpbench.solve(P, "pgs")
    forms = [("CSR", sp.csr_matrix), ("CSC", sp.csc_matrix), ("COO", sp.coo_matrix)]
    if P.m <= 400:
        forms.append(("dense", lambda M: M.toarray()))
    for form, conv in forms:
        try:
            Q = lcpbench.Problem(conv(A), J=conv(J) if J is not None else None,
                                 Minv=conv(Minv) if Minv is not None else None, **vecs)
            same = all(np.array_equal(a, b) for a, b in zip(Q.csr(), P.csr()))
            r = lcpbench.solve(Q, "pgs")
            good = same and same_bits(r.z, ref.z) and r.iterations == ref.iterations
            why = "A %s, z %s" % ("same" if same else "differs",
                                  "same" if same_bits(r.z, ref.z) else "differs")
        except lcpbench.Error as e:
            good, why = False, "%s: %s" % (e.status, e)
        ok(good, "%s: Problem from SciPy %s = read(folder): its CSR, pgs's z bit for bit" %
           (base, form), why)
    out = os.path.join(TMP, "written-" + base)
    Q = lcpbench.Problem(sp.csc_matrix(A), **{k: v for k, v in vecs.items()})
    Q.write(out)
    R = lcpbench.read(out)
    same = (all(np.array_equal(a, b) for a, b in zip(R.csr(), Q.csr())) and
            all(same_bits(getattr(R, k), getattr(Q, k)) for k in ("q", "lo", "hi", "z0")))
    rows, sol, hist, p = cli_solve(out, ["pgs"], (), "w")
    zf = cli_file(sol, "pgs", ".mtx")
    mine = lcpbench.solve(Q, "pgs")
    ok(same and zf is not None and same_bits(mine.z, mtx_vector(zf)),
       "%s: write() then read() gives the Problem back; the CLI on the folder gives "
       "pgs's z bit for bit" % base, p.stderr.strip())

# ---- bad input --------------------------------------------------------------------------------
A2 = np.array([[2.0, 1.0], [1.0, 2.0]])
q2 = np.array([-1.0, -1.0])
nan_csr = sp.csr_matrix(A2)
nan_csr.data[1] = np.nan
bad_ind = sp.csr_matrix(A2)
bad_ind.indices = bad_ind.indices.copy()
bad_ind.indices[0] = 7
bad_ptr = sp.csr_matrix(A2)
bad_ptr.indptr = np.array([0, 3, 2], dtype=np.int32)
fr = dict(lo=[0, -0.5], hi=[np.inf, 0.5])
bad = [
    ("non-square dense A", lambda: lcpbench.Problem(np.ones((2, 3)), [1, 1]), "bad-format"),
    ("non-square CSR A", lambda: lcpbench.Problem(sp.csr_matrix(np.ones((3, 2))), [1, 1, 1]),
     "bad-format"),
    ("non-square CSC A", lambda: lcpbench.Problem(sp.csc_matrix(np.ones((3, 2))), [1, 1, 1]),
     "bad-format"),
    ("empty A", lambda: lcpbench.Problem(np.zeros((0, 0)), []), "bad-argument"),
    ("1-D A", lambda: lcpbench.Problem(np.ones(4), q2), "bad-argument"),
    ("a str for A", lambda: lcpbench.Problem("A", q2), "bad-argument"),
    ("NaN in dense A", lambda: lcpbench.Problem(np.array([[np.nan, 0], [0, 1.0]]), q2),
     "bad-format"),
    ("NaN in CSR A", lambda: lcpbench.Problem(nan_csr, q2), "bad-format"),
    ("Inf in CSC A", lambda: lcpbench.Problem(sp.csc_matrix(np.array([[np.inf, 0], [0, 1.0]])),
                                              q2), "bad-format"),
    ("NaN in q", lambda: lcpbench.Problem(A2, [np.nan, 1]), "bad-format"),
    ("NaN in lo", lambda: lcpbench.Problem(A2, q2, lo=[np.nan, 0]), "bad-format"),
    ("q too short", lambda: lcpbench.Problem(A2, [1.0]), "inconsistent"),
    ("q too long", lambda: lcpbench.Problem(A2, [1.0, 2, 3]), "inconsistent"),
    ("q 2 x 2", lambda: lcpbench.Problem(A2, np.ones((2, 2))), "inconsistent"),
    ("lo of the wrong length", lambda: lcpbench.Problem(A2, q2, lo=[0.0]), "inconsistent"),
    ("hi of the wrong length", lambda: lcpbench.Problem(A2, q2, hi=[1, 2, 3]), "inconsistent"),
    ("lo > hi", lambda: lcpbench.Problem(A2, q2, lo=[1, 0], hi=[0, 1]), "inconsistent"),
    ("findex of the wrong length", lambda: lcpbench.Problem(A2, q2, findex=[-1]),
     "inconsistent"),
    ("findex out of range (m)", lambda: lcpbench.Problem(A2, q2, findex=[-1, 2], **fr),
     "bad-format"),
    ("findex out of range (-2)", lambda: lcpbench.Problem(A2, q2, findex=[-1, -2], **fr),
     "bad-format"),
    ("findex beyond int", lambda: lcpbench.Problem(A2, q2, findex=[-1, 2**40], **fr),
     "bad-format"),
    ("findex at its own row", lambda: lcpbench.Problem(A2, q2, findex=[-1, 1], **fr),
     "inconsistent"),
    ("findex of reals", lambda: lcpbench.Problem(A2, q2, findex=[-1.0, 0.5], **fr),
     "bad-argument"),
    ("CSR index out of range", lambda: lcpbench.Problem(bad_ind, q2), "inconsistent"),
    ("CSR indptr decreasing", lambda: lcpbench.Problem(bad_ptr, q2), "inconsistent"),
    ("J without Minv", lambda: lcpbench.Problem(A2, q2, J=np.eye(2)), "inconsistent"),
    ("A != J Minv J^T", lambda: lcpbench.Problem(A2, q2, J=np.eye(2), Minv=np.eye(2)),
     "inconsistent"),
    ("a missing folder", lambda: lcpbench.read(os.path.join(TMP, "none")), "io-error"),
    ("write into a file", lambda: lcpbench.Problem(A2, q2).write(perm_file), "io-error"),
    ("pgs on a zero diagonal", lambda: lcpbench.solve(lcpbench.Problem(
        np.array([[0.0, 1.0], [1.0, 2.0]]), q2), "pgs"), "zero-diagonal"),
    ("dantzig on a non-symmetric A", lambda: lcpbench.solve(
        lcpbench.Problem(np.array([[2.0, 1.0], [0.0, 2.0]]), q2), "dantzig"), "needs-symmetric"),
]
for what, fn, status in bad:
    good, err = raises(fn, status)
    ok(good, "%s raises lcpbench.Error %s" % (what, status), err)
r = lcpbench.solve(lcpbench.Problem(np.array([[0.0, 1.0], [1.0, 2.0]]), q2), "pgs", check=False)
ok(r.status == "zero-diagonal" and r.row == 0 and np.all(np.isnan(r.w)),
   "check=False returns the error status with its row (w NaN)", repr(r.status))
ok(issubclass(lcpbench.Error, ValueError), "lcpbench.Error is a ValueError")
m2 = lcpbench.Problem(A2, q2, lo=-1, hi=1)
ok(np.array_equal(m2.lo, [-1, -1]) and np.array_equal(m2.hi, [1, 1]),
   "scalar bounds are broadcast")
J = sp.random(6, 4, density=0.6, random_state=3, format="csr")
Mi = sp.diags([1.0, 2.0, 0.5, 1.5]).tocsr()
E = np.full(6, 1e-3)
F = lcpbench.Problem(None, -np.ones(6), J=J, Minv=Mi, E=E)
B = (J @ Mi @ J.T + sp.diags(E)).toarray()
ok(np.allclose(F.A.toarray(), B, rtol=1e-15, atol=0) and F.n == 4,
   "A = None with J, Minv, E: A = J Minv J^T + diag(E)")

# ---- a sweep of your own through the library's loop ----------------------------------------
P = lcpbench.read(next(i for i in INSTANCES if "stack-150-mu0" in i))
Ap, dp = P.A.tocsr(), P.A.diagonal()


def my_sweep(z, k):
    for i in range(P.m):
        s, e = Ap.indptr[i], Ap.indptr[i + 1]
        z[i] = min(max(z[i] - (Ap.data[s:e] @ z[Ap.indices[s:e]] + P.q[i]) / dp[i], 0), np.inf)


mine = lcpbench.solve(P, sweep=my_sweep, maxit=30)
theirs = lcpbench.solve(P, "pgs", maxit=30, form="assembled")
ok(mine.solver == "python" and mine.status == "max-iterations" and mine.iterations == 30 and
   len(mine.history) == 31 and mine.residual == lcpbench.residual(P, mine.z).residual and
   abs(mine.residual - theirs.residual) <= 1e-12 * theirs.residual and
   np.abs(mine.z - theirs.z).max() <= 1e-12,
   "sweep= a numpy PGS sweep: through lcp_iterate, 30 sweeps, 31 history points, the "
   "residual of its z, pgs's z to 1e-12", "%s %d %.17g %.17g" % (mine.status, mine.iterations,
                                                                  mine.residual, theirs.residual))
exact = lcpbench.solve(P, "ldlt-ref").z
r = lcpbench.solve(P, sweep=lambda z, k: z.__setitem__(slice(None), exact), tol=1e-10)
ok(r.status == "converged" and r.iterations == 1, "sweep= the exact answer: converged at 1")
for what, fn, want in [
        ("a sweep that raises", lambda: lcpbench.solve(P, sweep=lambda z, k: 1 / 0),
         ZeroDivisionError),
        ("a sweep that writes NaN", lambda: lcpbench.solve(P, sweep=lambda z, k: z.fill(np.nan)),
         "non-finite"),
        ("a sweep with omega", lambda: lcpbench.solve(P, sweep=my_sweep, omega=1.2),
         "bad-argument"),
        ("a sweep beside a solver", lambda: lcpbench.solve(P, "pgs", sweep=my_sweep),
         "bad-argument")]:
    if isinstance(want, str):
        good, err = raises(fn, want)
    else:
        try:
            fn()
            good, err = False, "nothing raised"
        except want:
            good, err = True, ""
    ok(good, "%s: %s" % (what, want if isinstance(want, str) else want.__name__), err)

# ---- the GIL --------------------------------------------------------------------------------
big = lcpbench.read(next(i for i in INSTANCES if "pool-step100" in i))
solo = lcpbench.solve(big, "pgs", tol=-1, maxit=400)
ticks, res = [0], {}


def run(k):
    res[k] = lcpbench.solve(big, "pgs", tol=-1, maxit=400)


th = [threading.Thread(target=run, args=(k,)) for k in range(2)]
t0 = time.perf_counter()
for t in th:
    t.start()
while any(t.is_alive() for t in th):
    ticks[0] += 1
    time.sleep(0.001)
for t in th:
    t.join()
dt = time.perf_counter() - t0
ok(ticks[0] >= 20 or dt < 0.05,
   "the main thread runs while two threads solve (%d wakes in %.2f s)" % (ticks[0], dt))
ok(all(same_bits(res[k].z, solo.z) for k in range(2)),
   "two threads solving one Problem at once get the one-thread z bit for bit")

# ---- reference counts and leaks over 10^4 calls ---------------------------------------------
Ac, qc = sp.csr_matrix(A2), np.array([-1.0, -1.0])
zc = np.array([0.5, 0.5])
libc = ctypes.CDLL(None)


class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                 "uordblks", "fordblks", "keepcost")]


def heap():
    if not hasattr(libc, "mallinfo2"):
        return 0
    libc.mallinfo2.restype = MallInfo2
    i = libc.mallinfo2()
    return i.uordblks + i.hblkhd


def calls():
    Q = lcpbench.Problem(Ac, qc, lo=0.0, findex=None)
    r = lcpbench.solve(Q, "pgs", omega=1.0, tol=1e-8)
    lcpbench.solve(Q, "ldlt-ref")
    lcpbench.residual(Q, zc)
    lcpbench.solve(Q, "pgs", check=False, maxit=3)
    for fn in (lambda: lcpbench.Problem(Ac, [1.0]), lambda: lcpbench.solve(Q, "pgs", omega=3),
               lambda: lcpbench.solve(Q, "pgs-block", omega=1.5),
               lambda: lcpbench.Problem(np.ones((2, 3)), qc), lambda: lcpbench.solve(Q, "x")):
        try:
            fn()
        except lcpbench.Error:
            pass
    Q.csr(), Q.q, Q.findex, Q.A
    lcpbench.solvers()
    return r


for _ in range(1000):                       # first calls fill caches (imports, interning)
    calls()
gc.collect()
counts = [sys.getrefcount(x) for x in (Ac, Ac.data, Ac.indices, qc, zc, lcpbench.Error)]
tracemalloc.start()
gc.collect()
py0, c0 = tracemalloc.get_traced_memory()[0], heap()
N = 10000
for _ in range(N):
    calls()
gc.collect()
py1, c1 = tracemalloc.get_traced_memory()[0], heap()
tracemalloc.stop()
after = [sys.getrefcount(x) for x in (Ac, Ac.data, Ac.indices, qc, zc, lcpbench.Error)]
ok(after == counts, "%d calls of every entry point leave the inputs' reference counts" % N,
   "%s -> %s" % (counts, after))
ok(py1 - py0 < 128 * 1024, "%d calls: Python's traced memory grows %d bytes (< 128 KiB; a "
   "float leaked a call would be 240 KB)" % (N, py1 - py0))
ok(c1 - c0 < 256 * 1024, "%d calls: the C heap grows %d bytes (< 256 KiB; a leak of one "
   "problem a call would be > 2 MB)" % (N, c1 - c0))

sys.exit(tap.done())
