#!/usr/bin/env python3
"""compare.py [FOLDER]: the Python module lcpbench in its three uses (lcp/python/README.md).

  1. a problem: an instance folder (FOLDER), else a scene's step captured in memory
     (a column of 30 disks with friction, step 100: what `lcpbench capture stack --at 100'
     writes);
  2. solvers compared on it: status, sweeps, ||r||_2 (the one residual);
  3. a solver of your own: a NumPy projected Jacobi sweep run by the library's loop
     (run_sweeps: its stopping test and history), and the same iterates from a whole solve
     of yours scored as `lcpbench score' scores them (run_solver).

Installed by `meson install' beside example.c (share/doc/lcpbench/examples/); run it with
the installed module on the path, e.g.
  PYTHONPATH=PREFIX/lib/python3/dist-packages python3 compare.py
"""
import sys

import numpy as np

import lcpbench

if len(sys.argv) > 1:
    P = lcpbench.read(sys.argv[1])
else:
    P = lcpbench.capture("stack", {"n": 30}, 100)
print(f"problem: m = {P.m}, nnz = {P.nnz}")

for name in ("pgs", "jacobi", "amgs-D", "ldlt-ref", "dantzig"):
    r = lcpbench.solve(P, name, check=False)          # check=False: an error as a status
    print(f"{name:10} {r.status:16} {r.iterations:6} {r.residual:.2e}")

A, d = P.A.tocsr(), P.A.diagonal()
f = P.findex if P.findex is not None else np.full(P.m, -1)
coupled = f >= 0


def bounds(z):
    """lo, hi at z: a friction row's bounds scale with its normal row's |z| (findex)"""
    scale = np.where(coupled, np.abs(z[np.where(coupled, f, 0)]), 1.0)
    return P.lo * scale, P.hi * scale


def sweep(z):
    """one damped projected Jacobi sweep: z <- mid(lo, z - (A z + q) / (2 a_ii), hi)"""
    return np.clip(z - 0.5 * (A @ z + P.q) / d, *bounds(z))


r = lcpbench.run_sweeps(P, sweep, maxit=200, tol=1e-6)
print(f"{'my-jacobi':10} {r.status:16} {r.iterations:6} {r.residual:.2e}  (run_sweeps)")


def my_solve(P):
    z, Z = np.clip(np.zeros(P.m), *bounds(np.zeros(P.m))), []
    for _ in range(200):
        z = sweep(z)
        Z.append(z)
    return np.array(Z)                                # every iterate: the history is scored


r = lcpbench.run_solver(P, my_solve, tol=1e-6)
print(f"{'my-solve':10} {r.status:16} {r.iterations:6} {r.residual:.2e}  (run_solver, "
      f"{r.time_s:.3f} s)")
