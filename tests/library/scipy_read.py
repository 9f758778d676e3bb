#!/usr/bin/env python3
"""scipy_read.py LCPBENCH DIR...: instance folders as SciPy reads them (lcp/README.md,
"Instance folders"), an independent check of the format and of the harness's residual, as TAP.

For each folder, every file is read with scipy.io.mmread alone (no lcpbench code):
  - the sizes agree (A m x m, the vectors m x 1, J m x n, Minv n x n, findex in range);
  - with the factors, A = J Minv J^T + diag(E) to 1e-12 of max |A| (the reader's test);
then `lcpbench solve DIR --solver S --solution OUT` (S = pgs to 1e-10, and the reference
ldlt-ref; each must give an answer) writes z, SciPy reads it back, and the
natural-map residual r = z - mid(lo_eff, z - w, hi_eff), w = A z + q, friction bounds
lo_i |z_f|, hi_i |z_f| (f = findex_i), is computed here in numpy.  Its 2-norm must agree
with the `residual` column lcpbench printed to 1e-6 relative (the column has 7 significant
digits): the same quantity, summed in another order by another program.
Skipped (1..0 # SKIP) when numpy or scipy is not installed.
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import scipy.io as sio
    import scipy.sparse as sp
except ImportError:
    print("1..0 # SKIP numpy/scipy not installed (apt-get install python3-scipy)")
    sys.exit(0)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import Tap  # noqa: E402  (TAP lines as the other tests print them)

tap = Tap()
ok = tap.ok


def vec(path):
    """an m x 1 array file as a flat float vector"""
    return np.asarray(sio.mmread(path), dtype=float).reshape(-1)


def natural_residual(A, q, lo, hi, findex, z):
    w = A @ z + q
    lo_e, hi_e = lo.copy(), hi.copy()
    for i, f in enumerate(findex):
        if f >= 0:
            lo_e[i] = lo[i] * abs(z[f])
            hi_e[i] = hi[i] * abs(z[f])
    return z - np.minimum(np.maximum(z - w, lo_e), hi_e)


def main():
    lb, dirs = sys.argv[1], sys.argv[2:]
    out = tempfile.mkdtemp()
    for d in dirs:
        name = os.path.basename(os.path.normpath(d))
        f = lambda x: os.path.join(d, x)  # noqa: E731
        A = sp.csr_matrix(sio.mmread(f("A.mtx")))
        m = A.shape[0]
        q = vec(f("q.mtx"))
        lo = vec(f("lo.mtx")) if os.path.exists(f("lo.mtx")) else np.zeros(m)
        hi = vec(f("hi.mtx")) if os.path.exists(f("hi.mtx")) else np.full(m, np.inf)
        findex = (np.asarray(sio.mmread(f("findex.mtx"))).reshape(-1).astype(int)
                  if os.path.exists(f("findex.mtx")) else np.full(m, -1))
        sizes = (A.shape == (m, m) and q.size == m and lo.size == m and hi.size == m
                 and findex.size == m and np.all((findex >= -1) & (findex < m)))
        ok(sizes, "%s: SciPy reads A, q, lo, hi, findex with agreeing sizes" % name,
           "A %s, q %d, lo %d, hi %d, findex %d" % (A.shape, q.size, lo.size, hi.size,
                                                     findex.size))
        if os.path.exists(f("J.mtx")):
            J = sp.csr_matrix(sio.mmread(f("J.mtx")))
            Minv = sp.csr_matrix(sio.mmread(f("Minv.mtx")))
            E = vec(f("E.mtx")) if os.path.exists(f("E.mtx")) else np.zeros(m)
            B = (J @ Minv @ J.T + sp.diags(E)).toarray()
            Ad = A.toarray()
            scale = max(1.0, np.abs(Ad).max())
            err = np.abs(B - Ad).max() / scale
            ok(J.shape[0] == m and Minv.shape == (J.shape[1], J.shape[1]) and err <= 1e-12,
               "%s: A = J Minv J^T + diag(E) in numpy (relative %.1e)" % (name, err))
        for solver in ("pgs", "ldlt-ref"):
            sol = os.path.join(out, name + "-" + solver)
            opts = ["--tol", "1e-10", "--maxit", "3000"] if solver == "pgs" else []
            p = subprocess.run([lb, "solve", d, "--solver", solver, "--reps", "0",
                                "--solution", sol] + opts, capture_output=True, text=True)
            rows = list(csv.DictReader(io.StringIO(p.stdout)))
            if p.returncode != 0 or len(rows) != 1 or rows[0]["residual"] == "":
                ok(False, "%s: %s gave an answer to score" % (name, solver),
                   rows[0]["status"] if rows else p.stderr.strip())
                continue
            zfile = [x for x in os.listdir(sol) if x.endswith(".mtx")]
            z = vec(os.path.join(sol, zfile[0]))
            r = np.linalg.norm(natural_residual(A, q, lo, hi, findex, z))
            theirs = float(rows[0]["residual"])
            ok(z.size == m and abs(r - theirs) <= 1e-6 * max(r, theirs) + 1e-300,
               "%s: %s's z read back by SciPy, its residual in numpy = lcpbench's" %
               (name, solver), "numpy %.17g, lcpbench %.17g" % (r, theirs))
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
