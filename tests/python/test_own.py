"""test_own.py (meson test python-own): the scenes and your own solver from Python
(lcp/python/README.md, "The three uses").

- lcpbench.capture(scene, params, step) equals `lcpbench capture SCENE --at STEP --param ...'
  bit for bit: every array of the problem (A, J, Minv as CSR, q, lo, hi, findex, E, z0) and
  meta.txt; several steps in one call equal one capture each; the committed capsule-step1
  and three-spheres-step1 come back; a bad scene, parameter, step or solver raises
  lcpbench.Error with the CLI's message; 10^3 captures and refusals leak nothing.
- run_sweeps: a sweep in pgs's own arithmetic order (plain Python floats) gives pgs's history
  and z bit for bit, so the loop is pgs's loop; a NumPy PGS sweep (row products by numpy's dot:
  another summation order) gives pgs's history within a relative 1e-12 and the residual of
  its own z; z returned or updated in place alike; its exception propagates; NaN stops it as
  non-finite; a setting the sweep does not use is refused.
- run_solver and score: a whole solve's answer and iterates scored in-process equal
  `lcpbench score' on the same numbers written to files (z.mtx, the --history CSV), at the
  CLI's printed precision; score of z equals residual of z bit for bit; the status is the
  verdict ||r||_2 <= tol.
"""
import csv
import gc
import io
import os
import sys

import numpy as np
import pytest

from lcptest import (TMP, cli, cli_error, e6, heap, instance, lcpbench, same_bits,
                     write_mtx_vector)

ARRAYS = ("q", "lo", "hi", "findex", "E", "z0")


def cli_capture(scene, params, steps, tag):
    out = os.path.join(TMP, "cap-" + tag)
    p = cli("capture", scene, "--at", ",".join(map(str, steps)), "--out", out,
            *[x for k, v in params.items() for x in ("--param", "%s=%s" % (k, v))])
    return p, [os.path.join(out, "%s-step%d" % (scene, t)) for t in steps]


def assert_same_problem(P, Q):
    assert (P.m, P.n, P.nnz, P.symmetric) == (Q.m, Q.n, Q.nnz, Q.symmetric)
    for a, b in zip(P.csr(), Q.csr()):
        assert same_bits(a, b) if a.dtype.kind == "f" else np.array_equal(a, b)
    for k in ARRAYS:
        a, b = getattr(P, k), getattr(Q, k)
        assert (a is None and b is None) or (a.dtype == b.dtype and same_bits(a, b)), k
    for k in ("J", "Minv"):
        a, b = getattr(P, k), getattr(Q, k)
        assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
        assert same_bits(a.data, b.data), k
    assert P.meta == Q.meta


@pytest.mark.parametrize("scene,params,step", [
    ("capsule", {}, 1),
    ("stack", {"n": 30, "mu": 0.3}, 40),
    ("chain", {"h": "1/120"}, 25),
    ("spheres", {"n": 30, "seed": 3}, 15),
], ids=lambda x: x if isinstance(x, str) else None)
def test_capture_equals_the_cli(scene, params, step):
    p, (folder,) = cli_capture(scene, params, [step], scene)
    assert p.returncode == 0, p.stderr
    assert_same_problem(lcpbench.capture(scene, params, step), lcpbench.read(folder))


def test_capture_of_several_steps_and_the_committed_instances():
    got = lcpbench.capture("stack", ["n=30", "mu=0"], [20, 40])
    assert len(got) == 2 and got[1].m == 30
    assert_same_problem(got[0], lcpbench.capture("stack", {"n": 30, "mu": 0}, 20))
    for scene in ("capsule", "three-spheres"):          # committed with `--at 1`
        committed, mine = lcpbench.read(instance(scene + "-step1")), lcpbench.capture(scene)
        for a, b in zip(mine.csr(), committed.csr()):
            assert np.array_equal(a, b)
        assert all(same_bits(getattr(mine, k), getattr(committed, k)) for k in ("q", "z0"))


@pytest.mark.parametrize("scene,params,step,flags", [
    ("nope", {}, 1, []),
    ("stack", {"bogus": 1}, 1, []),
    ("stack", {"n": 0}, 1, []),
    ("stack", {"n": "x"}, 1, []),
    ("pool", {"r": 2}, 1, []),
    ("spheres", {}, 1, []),
    ("stack", {}, 1, ["--solver", "nosuch"]),
], ids=["unknown scene", "unknown parameter", "parameter out of range", "parameter not a "
        "number", "scene does not fit", "step without constraints", "unknown solver"])
def test_capture_errors_have_the_cli_message(scene, params, step, flags):
    p = cli("capture", scene, "--at", step, "--out", os.path.join(TMP, "bad"), *flags,
            *[x for k, v in params.items() for x in ("--param", "%s=%s" % (k, v))])
    assert p.returncode != 0
    kw = {"solver": flags[1]} if flags else {}
    with pytest.raises(lcpbench.Error) as e:
        lcpbench.capture(scene, params, step, **kw)
    assert e.value.status == "bad-argument"
    assert str(e.value) == cli_error(p)


@pytest.mark.parametrize("params,step", [
    (None, 0), (None, [3, 2]), (None, "x"), (None, [[1]]), (None, 1.5), (None, []),
    (None, 2**40), ({1: 2}, 1), ({"n": [1]}, 1), ("n=3", 1), (["n=3", 5], 1)])
def test_capture_bad_steps_and_params(params, step):
    with pytest.raises(lcpbench.Error) as e:
        lcpbench.capture("stack", params, step)
    assert e.value.status == "bad-argument"


# ---- your sweep through the library's loop --------------------------------------------------
@pytest.fixture(scope="module")
def mu0():
    """a 150-disk column without friction: bounds 0 and +inf, one PGS row each"""
    P = lcpbench.read(instance("stack-150-mu0-step100"))
    A = P.A.tocsr()
    return P, A.indptr.tolist(), A.indices.tolist(), A.data.tolist(), P.q.tolist()


def test_sweep_in_pgs_order_gives_pgs_bit_for_bit(mu0):
    P, ptr, ind, val, q = mu0
    step = [1.0 / d for d in P.A.diagonal()]            # pgs's omega / a_ii with omega 1

    def sweep(z):                                       # pgs.c's arithmetic, row by row
        for i in range(P.m):
            r = q[i]
            for k in range(ptr[i], ptr[i + 1]):
                r += val[k] * z[ind[k]]
            z[i] = max(z[i] - step[i] * r, 0.0)

    mine = lcpbench.run_sweeps(P, sweep, maxit=20)
    theirs = lcpbench.solve(P, "pgs", maxit=20, form="assembled")
    assert (mine.solver, mine.status, mine.iterations) == ("python", "max-iterations", 20)
    assert same_bits(mine.z, theirs.z)
    assert same_bits(mine.history, theirs.history) and len(mine.history) == 21
    assert same_bits(mine.history_inf, theirs.history_inf)
    assert np.array_equal(mine.history_iterations, theirs.history_iterations)


def numpy_sweep(P):
    A, d = P.A.tocsr(), P.A.diagonal()

    def sweep(z):                                       # one Gauss-Seidel sweep, numpy rows
        z = z.copy()
        for i in range(P.m):
            s, e = A.indptr[i], A.indptr[i + 1]
            z[i] = max(z[i] - (A.data[s:e] @ z[A.indices[s:e]] + P.q[i]) / d[i], 0.0)
        return z
    return sweep


def test_numpy_sweep_gives_pgs_history_to_rounding(mu0):
    P = mu0[0]
    mine = lcpbench.run_sweeps(P, numpy_sweep(P), maxit=30)
    theirs = lcpbench.solve(P, "pgs", maxit=30, form="assembled")
    assert mine.iterations == 30 and len(mine.history) == 31
    rel = np.abs(mine.history - theirs.history) / theirs.history
    assert rel.max() <= 1e-12, "history differs by %.3g relative" % rel.max()
    assert np.abs(mine.z - theirs.z).max() <= 1e-12
    assert mine.residual == lcpbench.residual(P, mine.z).residual


def test_run_sweeps_stopping_errors_and_settings(mu0):
    P = mu0[0]
    exact = lcpbench.solve(P, "ldlt-ref").z
    r = lcpbench.run_sweeps(P, lambda z: exact, tol=1e-10)
    assert (r.status, r.iterations) == ("converged", 1)
    with pytest.raises(ZeroDivisionError):
        lcpbench.run_sweeps(P, lambda z: 1 / 0)
    for sweep, status in ((lambda z: z.fill(np.nan), "non-finite"),
                          (lambda z: z[:3], "inconsistent")):
        with pytest.raises(lcpbench.Error) as e:
            lcpbench.run_sweeps(P, sweep)
        assert e.value.status == status
    for kw in ({"omega": 1.2}, {"solver": "pgs"}):
        with pytest.raises(lcpbench.Error) as e:
            lcpbench.run_sweeps(P, numpy_sweep(P), **kw)
        assert e.value.status == "bad-argument"
    with pytest.raises(lcpbench.Error, match="unknown setting 'sweep'"):
        lcpbench.solve(P, sweep=numpy_sweep(P))


# ---- your whole solve, scored as `lcpbench score' scores it ----------------------------------
def cli_score(inst, *args):
    p = cli("score", inst, *args)
    assert p.returncode == 0, p.stderr
    return list(csv.DictReader(io.StringIO(p.stdout)))


COLS = ("residual", "residual_inf", "rel_residual", "complementarity", "infeasibility",
        "zdiff", "wdiff")


@pytest.mark.parametrize("part", ["stack-30-step100", "capsule-step1"])
def test_run_solver_scores_as_lcpbench_score(part):
    inst = instance(part)
    P = lcpbench.read(inst)

    def jacobi(P):                                      # 40 damped projected Jacobi sweeps
        A, d, z, Z = P.A.tocsr(), P.A.diagonal(), np.clip(np.zeros(P.m), P.lo, P.hi), []
        for _ in range(40):
            z = np.clip(z - 0.5 * (A @ z + P.q) / d, P.lo, P.hi)
            Z.append(z)
        return np.array(Z)

    r = lcpbench.run_solver(P, jacobi, tol=1e-3)
    Z = jacobi(P)
    assert (r.solver, r.iterations, len(r.history)) == ("python", 40, 40)
    assert same_bits(r.z, Z[-1]) and r.time_s > 0
    assert r.status == ("converged" if r.residual <= 1e-3 else "not-converged")
    zf, hf = os.path.join(TMP, part + "-z.mtx"), os.path.join(TMP, part + "-h.csv")
    write_mtx_vector(zf, r.z)
    np.savetxt(hf, Z, delimiter=",", fmt="%.17g")
    (row,) = cli_score(inst, zf)
    assert [e6(v) for v in (r.residual, r.residual_inf, r.rel_residual, r.zdiff, r.wdiff)] == \
        [row[k] for k in ("residual", "residual_inf", "rel_residual", "zdiff", "wdiff")]
    rows = cli_score(inst, "--history", hf)
    S = lcpbench.score(P, Z)
    for c in COLS:
        assert [e6(v) for v in getattr(S, c)] == [x[c] for x in rows], c
    assert [e6(v) for v in r.history] == [x["residual"] for x in rows]
    assert [e6(v) for v in r.history_inf] == [x["residual_inf"] for x in rows]
    assert list(r.history_iterations) == list(range(1, 41))
    one = lcpbench.score(P, r.z)
    R = lcpbench.residual(P, r.z)
    assert [one.residual, one.residual_inf, one.rel_residual, one.complementarity,
            one.infeasibility] == [R.residual, R.residual_inf, R.rel_residual, R.comp, R.infeas]
    assert one.residual == r.residual == S.residual[-1]


def test_run_solver_answers_and_errors():
    P = lcpbench.read(instance("capsule-step1"))
    exact = lcpbench.solve(P, "ldlt-ref").z
    r = lcpbench.run_solver(P, lambda P: exact)
    assert (r.status, r.iterations, len(r.history)) == ("converged", 1, 1)
    r = lcpbench.run_solver(P, lambda P: exact + 1.0, history=False)
    assert r.status == "not-converged" and len(r.history) == 0
    r = lcpbench.run_solver(P, lambda P: np.full(P.m, np.nan))
    assert r.status == "not-converged"
    for fn, status in ((lambda P: exact[:2], "inconsistent"), (lambda P: "z", "bad-argument")):
        with pytest.raises(lcpbench.Error) as e:
            lcpbench.run_solver(P, fn)
        assert e.value.status == status
    with pytest.raises(KeyError):
        lcpbench.run_solver(P, lambda P: {}["x"])
    with pytest.raises(lcpbench.Error, match="unknown keyword 'maxit'"):
        lcpbench.run_solver(P, lambda P: exact, maxit=3)
    with pytest.raises(lcpbench.Error) as e:
        lcpbench.score(P, np.zeros((2, 3)))
    assert e.value.status == "inconsistent"


def test_capture_does_not_leak():
    """1000 captures and 1000 refused ones leave the C heap and the params' counts flat"""
    params, bad = {"mu": 0.5}, {"bogus": 1}

    def calls():
        lcpbench.capture("capsule", params, 1)
        with pytest.raises(lcpbench.Error):
            lcpbench.capture("capsule", bad, 1)

    for _ in range(100):
        calls()
    gc.collect()
    counts, c0 = [sys.getrefcount(x) for x in (params, bad)], heap()
    for _ in range(1000):
        calls()
    gc.collect()
    assert [sys.getrefcount(x) for x in (params, bad)] == counts
    assert heap() - c0 < 64 * 1024, "the C heap grew %d bytes (a problem a call: > 2 MB)" % (
        heap() - c0)
