"""test_module.py (meson test python-module): the Python module lcpbench's interface against
the command line (lcp/python/README.md).

- Settings: z bit for bit with the CLI's for omega, order (a name, and rows as perm:FILE),
  tol, maxit, a fraction "4/3", warm (the folder's z0) and z0=; a refused setting (unused by
  the solver, out of range, unknown value) raises the CLI's own message.
- The same problem from SciPy: A, J, Minv as scipy.sparse CSR, CSC, COO (through tocsr) and
  dense arrays, the vectors as scipy.io.mmread returns them: the library's CSR identical to
  the folder's and pgs's z bit for bit; write() then read() and the CLI on the written folder.
- Bad input raises lcpbench.Error with the status named (non-square, NaN and Inf, wrong
  lengths, findex out of range, at itself, beyond int, lo > hi, broken CSR arrays, ...).
- The GIL is released during a solve (another thread runs meanwhile), and the answer is the
  same from two threads at once.
- No leak: 10^4 calls of each entry point (errors included) leave the inputs' reference
  counts, Python's allocated blocks (sys.getallocatedblocks: an object leaked a call would be
  10^4 of them) and the C heap (glibc mallinfo2) as they were.
"""
import functools
import gc
import os
import sys
import threading
import time

import numpy as np
import pytest
import scipy.io as sio
import scipy.sparse as sp

from lcptest import (INSTANCES, TMP, base, cli, cli_error, cli_file, cli_solve, heap,
                     instance, lcpbench, mtx_vector, same_bits)

SMALL = instance("stack-30")


@pytest.fixture(scope="module")
def small():
    return lcpbench.read(SMALL)


def reversed_rows(m):
    rows = list(range(m))[::-1]
    rows[0], rows[1] = rows[1], rows[0]
    return rows


def perm_file(m):
    path = os.path.join(TMP, "perm.txt")
    with open(path, "w") as f:
        f.write("\n".join(map(str, reversed_rows(m))) + "\n")
    return path


# ---- settings -------------------------------------------------------------------------------
SETTINGS = [
    ("pgs", {"omega": 1.2, "order": "reverse"}, ["--omega", "1.2", "--order", "reverse"]),
    ("pgs", {"omega": "4/3", "tol": 1e-9, "maxit": 3000},
     ["--omega", "4/3", "--tol", "1e-9", "--maxit", "3000"]),
    ("pgs", {"order": "ROWS"}, ["--order", "perm:FILE"]),
    ("pgs", {"order": "random", "seed": 7}, ["--order", "random", "--seed", "7"]),
    ("jacobi", {"omega": "auto", "threads": 2}, ["--omega", "auto", "--threads", "2"]),
    ("pgs", {"warm": True, "warm_scale": 0.9}, ["--warm", "--warm-scale", "0.9"]),
    ("amgs-D", {"beta": 0.5, "gamma": 0.9, "form": "assembled"},
     ["--beta", "0.5", "--gamma", "0.9", "--form", "assembled"]),
    ("pgs", {"every": 10, "tol": np.float64(1e-7)}, ["--check-every", "10", "--tol", "1e-7"]),
    ("pgs", {"precision": "float32", "tol": 1e-7}, ["--precision", "float32", "--tol", "1e-7"]),
]


@pytest.mark.parametrize("name,kw,flags", SETTINGS,
                         ids=lambda x: str(x) if isinstance(x, str) else None)
def test_settings_give_the_cli_z(small, name, kw, flags):
    if kw.get("order") == "ROWS":
        kw = dict(kw, order=reversed_rows(small.m))
        flags = ["--order", "perm:" + perm_file(small.m)]
    rows, sol, _, p = cli_solve(SMALL, [name], flags, "set")
    r = lcpbench.solve(small, name, **kw)
    zf = cli_file(sol, name, ".mtx")
    assert zf is not None, p.stderr
    assert same_bits(r.z, mtx_vector(zf)) and r.iterations == int(rows[name]["iterations"])


def test_z0_starts_where_warm_starts(small):
    r1 = lcpbench.solve(small, "pgs", warm=1)
    r2 = lcpbench.solve(small, "pgs", z0=small.z0)
    assert same_bits(r1.z, r2.z) and r1.iterations == r2.iterations


@pytest.mark.parametrize("name,kw,flags", [
    ("pgs-block", {"omega": 1.5}, ["--omega", "1.5"]),
    ("ldlt-ref", {"tol": 1e-8}, ["--tol", "1e-8"]),
    ("pgs", {"omega": 3}, ["--omega", "3"]),
    ("pgs", {"order": "bogus"}, ["--order", "bogus"]),
    ("pgs", {"maxit": -1}, ["--maxit", "-1"]),
    ("pgs", {"threads": 2}, ["--threads", "2"]),
    ("jacobi", {"omega": "fast"}, ["--omega", "fast"])])
def test_refused_setting_has_the_cli_message(small, name, kw, flags):
    p = cli("solve", SMALL, "--solver", name, "--reps", "0", *flags)
    assert p.returncode == 2
    with pytest.raises(lcpbench.Error) as e:
        lcpbench.solve(small, name, **kw)
    assert (e.value.status, str(e.value)) == ("bad-argument", cli_error(p))


@pytest.mark.parametrize("what,call,status", [
    ("an unknown setting", lambda P: lcpbench.solve(P, "pgs", foo=1), "bad-argument"),
    ("a harness setting (reps)", lambda P: lcpbench.solve(P, "pgs", reps=3), "bad-argument"),
    ("an unknown solver", lambda P: lcpbench.solve(P, "nope"), "bad-argument"),
    ("order rows of the wrong length", lambda P: lcpbench.solve(P, "pgs", order=[0, 1]),
     "bad-argument"),
    ("order rows not a permutation", lambda P: lcpbench.solve(P, "pgs", order=[0] * P.m),
     "bad-argument"),
    ("z0 of the wrong length", lambda P: lcpbench.solve(P, "pgs", z0=[0.0]), "inconsistent"),
    ("warm without z0", lambda P: lcpbench.solve(lcpbench.Problem(np.eye(2), [-1, -1]), "pgs",
                                                 warm=1), "bad-argument"),
    ("residual of a z of the wrong length", lambda P: lcpbench.residual(P, np.zeros(3)),
     "inconsistent")], ids=lambda x: x if isinstance(x, str) and " " in x else None)
def test_bad_call_raises_named(small, what, call, status):
    with pytest.raises(lcpbench.Error) as e:
        call(small)
    assert e.value.status == status


# ---- the same problem from SciPy ------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def folder_arrays(inst):
    f = lambda x: os.path.join(inst, x)  # noqa: E731
    opt = lambda x: sio.mmread(f(x)) if os.path.exists(f(x)) else None  # noqa: E731
    mats = sio.mmread(f("A.mtx")), opt("J.mtx"), opt("Minv.mtx")
    vecs = dict(q=sio.mmread(f("q.mtx")), lo=opt("lo.mtx"), hi=opt("hi.mtx"),
                findex=opt("findex.mtx"), E=opt("E.mtx"), z0=opt("z0.mtx"))
    return mats, vecs


FORMS = {"CSR": sp.csr_matrix, "CSC": sp.csc_matrix, "COO": sp.coo_matrix,
         "dense": lambda M: M.toarray()}


@functools.lru_cache(maxsize=None)
def folder_solved(inst):
    """the folder's Problem and pgs's Result on it, once per instance"""
    P = lcpbench.read(inst)
    return P, lcpbench.solve(P, "pgs")


@pytest.mark.parametrize("inst", INSTANCES, ids=base)
@pytest.mark.parametrize("form", list(FORMS))
def test_problem_from_scipy_equals_the_folder(inst, form):
    P, ref = folder_solved(inst)
    if form == "dense" and P.m > 400:
        pytest.skip("dense only up to m = 400 (m = %d)" % P.m)
    (A, J, Minv), vecs = folder_arrays(inst)
    conv = FORMS[form]
    Q = lcpbench.Problem(conv(A), J=conv(J) if J is not None else None,
                         Minv=conv(Minv) if Minv is not None else None, **vecs)
    want = P.csr()
    if form == "dense":  # a dense array holds no explicit zeros (tilted frictional disk
        # contacts give n.t = 0 exactly in A): the folder's CSR without them
        M = sp.csr_matrix((want[2], want[1], want[0]), shape=(P.m, P.m))
        M.eliminate_zeros()
        want = (M.indptr, M.indices, M.data)
    assert all(np.array_equal(a, b) for a, b in zip(Q.csr(), want))
    r = lcpbench.solve(Q, "pgs")
    assert same_bits(r.z, ref.z) and r.iterations == ref.iterations


@pytest.mark.parametrize("inst", INSTANCES, ids=base)
def test_write_then_read_and_the_cli(inst):
    (A, _, _), vecs = folder_arrays(inst)
    out = os.path.join(TMP, "written-" + base(inst))
    Q = lcpbench.Problem(sp.csc_matrix(A), **vecs)
    Q.write(out)
    R = lcpbench.read(out)
    assert all(np.array_equal(a, b) for a, b in zip(R.csr(), Q.csr()))
    assert all(same_bits(getattr(R, k), getattr(Q, k)) for k in ("q", "lo", "hi", "z0"))
    _, sol, _, p = cli_solve(out, ["pgs"], (), "w")
    zf = cli_file(sol, "pgs", ".mtx")
    assert zf is not None, p.stderr
    assert same_bits(lcpbench.solve(Q, "pgs").z, mtx_vector(zf))


# ---- bad input --------------------------------------------------------------------------------
A2 = np.array([[2.0, 1.0], [1.0, 2.0]])
q2 = np.array([-1.0, -1.0])


def csr_with(**attrs):
    M = sp.csr_matrix(A2)
    for k, v in attrs.items():
        setattr(M, k, v)
    return M


def nan_csr():
    M = sp.csr_matrix(A2)
    M.data[1] = np.nan
    return M


FR = dict(lo=[0, -0.5], hi=[np.inf, 0.5])
BAD = [
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
    ("NaN in CSR A", lambda: lcpbench.Problem(nan_csr(), q2), "bad-format"),
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
    ("findex out of range (m)", lambda: lcpbench.Problem(A2, q2, findex=[-1, 2], **FR),
     "bad-format"),
    ("findex out of range (-2)", lambda: lcpbench.Problem(A2, q2, findex=[-1, -2], **FR),
     "bad-format"),
    ("findex beyond int", lambda: lcpbench.Problem(A2, q2, findex=[-1, 2**40], **FR),
     "bad-format"),
    ("findex at its own row", lambda: lcpbench.Problem(A2, q2, findex=[-1, 1], **FR),
     "inconsistent"),
    ("findex of reals", lambda: lcpbench.Problem(A2, q2, findex=[-1.0, 0.5], **FR),
     "bad-argument"),
    ("CSR index out of range",
     lambda: lcpbench.Problem(csr_with(indices=np.array([7, 1, 0, 1], dtype=np.int32)), q2),
     "inconsistent"),
    ("CSR indptr decreasing",
     lambda: lcpbench.Problem(csr_with(indptr=np.array([0, 3, 2], dtype=np.int32)), q2),
     "inconsistent"),
    ("J without Minv", lambda: lcpbench.Problem(A2, q2, J=np.eye(2)), "inconsistent"),
    ("A != J Minv J^T", lambda: lcpbench.Problem(A2, q2, J=np.eye(2), Minv=np.eye(2)),
     "inconsistent"),
    ("a missing folder", lambda: lcpbench.read(os.path.join(TMP, "none")), "io-error"),
    ("write into a file", lambda: lcpbench.Problem(A2, q2).write(__file__), "io-error"),
    ("pgs on a zero diagonal", lambda: lcpbench.solve(lcpbench.Problem(
        np.array([[0.0, 1.0], [1.0, 2.0]]), q2), "pgs"), "zero-diagonal"),
    ("dantzig on a non-symmetric A", lambda: lcpbench.solve(
        lcpbench.Problem(np.array([[2.0, 1.0], [0.0, 2.0]]), q2), "dantzig"), "needs-symmetric"),
]


@pytest.mark.parametrize("what,call,status", BAD, ids=[b[0] for b in BAD])
def test_bad_input_raises_named(what, call, status):
    with pytest.raises(lcpbench.Error) as e:
        call()
    assert e.value.status == status


def test_error_is_a_value_error_and_check_false_returns_it():
    assert issubclass(lcpbench.Error, ValueError)
    r = lcpbench.solve(lcpbench.Problem(np.array([[0.0, 1.0], [1.0, 2.0]]), q2), "pgs",
                       check=False)
    assert r.status == "zero-diagonal" and r.row == 0 and np.all(np.isnan(r.w))


def test_scalar_bounds_and_factors():
    m2 = lcpbench.Problem(A2, q2, lo=-1, hi=1)
    assert np.array_equal(m2.lo, [-1, -1]) and np.array_equal(m2.hi, [1, 1])
    J = sp.random(6, 4, density=0.6, random_state=3, format="csr")
    Mi = sp.diags([1.0, 2.0, 0.5, 1.5]).tocsr()
    E = np.full(6, 1e-3)
    F = lcpbench.Problem(None, -np.ones(6), J=J, Minv=Mi, E=E)
    B = (J @ Mi @ J.T + sp.diags(E)).toarray()
    assert np.allclose(F.A.toarray(), B, rtol=1e-15, atol=0) and F.n == 4


# ---- the GIL --------------------------------------------------------------------------------
def test_the_gil_is_released_during_a_solve():
    big = lcpbench.read(instance("pool-step100"))
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
    assert ticks[0] >= 20 or dt < 0.05, "%d wakes in %.2f s" % (ticks[0], dt)
    assert all(same_bits(res[k].z, solo.z) for k in range(2))


# ---- reference counts and leaks over 10^4 calls ---------------------------------------------
def test_no_leak_over_10000_calls():
    Ac, qc, zc = sp.csr_matrix(A2), np.array([-1.0, -1.0]), np.array([0.5, 0.5])
    Z2 = np.array([[0.5, 0.5], [0.25, 0.75]])

    def calls():
        Q = lcpbench.Problem(Ac, qc, lo=0.0, findex=None)
        lcpbench.solve(Q, "pgs", omega=1.0, tol=1e-8)
        lcpbench.solve(Q, "ldlt-ref")
        lcpbench.residual(Q, zc)
        lcpbench.score(Q, zc), lcpbench.score(Q, Z2)
        lcpbench.run_sweeps(Q, lambda z: z * 0.5, maxit=2)    # z returned: copied back
        lcpbench.run_solver(Q, lambda P: Z2)
        lcpbench.solve(Q, "pgs", check=False, maxit=3)
        for fn in (lambda: lcpbench.Problem(Ac, [1.0]), lambda: lcpbench.solve(Q, "pgs", omega=3),
                   lambda: lcpbench.solve(Q, "pgs-block", omega=1.5),
                   lambda: lcpbench.Problem(np.ones((2, 3)), qc), lambda: lcpbench.solve(Q, "x"),
                   lambda: lcpbench.run_solver(Q, lambda P: [1.0]),
                   lambda: lcpbench.capture("nope")):
            try:
                fn()
            except lcpbench.Error:
                pass
        Q.csr(), Q.q, Q.findex, Q.A
        lcpbench.solvers()

    for _ in range(500):                    # first calls fill caches (imports, interning)
        calls()
    gc.collect()
    watched = (Ac, Ac.data, Ac.indices, qc, zc, Z2, lcpbench.Error)
    counts = [sys.getrefcount(x) for x in watched]
    py0, c0 = sys.getallocatedblocks(), heap()
    for _ in range(10000):
        calls()
    gc.collect()
    py1, c1 = sys.getallocatedblocks(), heap()
    assert [sys.getrefcount(x) for x in watched] == counts
    assert py1 - py0 < 1000, "Python's allocated blocks grew by %d (an object leaked a call " \
        "would be 10^4)" % (py1 - py0)
    assert c1 - c0 < 256 * 1024, "the C heap grew %d bytes (a leak of one problem a call " \
        "would be > 2 MB)" % (c1 - c0)
