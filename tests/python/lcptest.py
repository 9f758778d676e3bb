"""lcptest.py: what the pytest files of tests/python/ share (conftest.py imports it).

meson test sets, for each pytest run (tests/python/meson.build):
  LCPBENCH            the lcpbench program of the build (the command line compared against)
  LCPBENCH_PYDIR      the folder of the built module (put first on sys.path here)
  LCPBENCH_INSTANCES  the committed instance folders, os.pathsep between them
  LCPBENCH_SECONDS    a CLI run longer than this is skipped by python-solvers (CI time)
"""
import csv
import ctypes
import io
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

LB = os.environ["LCPBENCH"]
sys.path.insert(0, os.environ["LCPBENCH_PYDIR"])
INSTANCES = [p for p in os.environ["LCPBENCH_INSTANCES"].split(os.pathsep) if p]
SECONDS = float(os.environ.get("LCPBENCH_SECONDS", "10"))
TMP = tempfile.mkdtemp(prefix="lcpbench-py-")

import lcpbench  # noqa: E402,F401  (from LCPBENCH_PYDIR; the tests import it from here)


def instance(part):
    """the committed instance folder whose path contains part"""
    return next(i for i in INSTANCES if part in i)


def base(inst):
    return os.path.basename(os.path.normpath(inst))


def mtx_vector(path):
    """an m x 1 array file, every number read by float() (correctly rounded: %.17g exact)"""
    with open(path) as f:
        lines = [x for x in f.read().split("\n") if x and not x.startswith("%")]
    return np.array([float(x) for x in lines[1:]])


def write_mtx_vector(path, z):
    """z as an m x 1 Matrix Market array, %.17g: read back exactly"""
    with open(path, "w") as f:
        f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % len(z))
        f.write("".join("%.17g\n" % v for v in z))


def same_bits(a, b):
    a, b = np.ascontiguousarray(a, dtype=float), np.ascontiguousarray(b, dtype=float)
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))


def e6(v):
    """a number as the CLI's CSVs print it (%.6e, empty when not finite)"""
    return "%.6e" % v if math.isfinite(v) else ""


def cli(*args):
    return subprocess.run([LB] + [str(a) for a in args], capture_output=True, text=True)


def cli_error(p):
    """the last line of a CLI's stderr without its `lcpbench CMD: ' prefix"""
    line = p.stderr.strip().split("\n")[-1]
    return line.split(": ", 1)[1] if line.startswith("lcpbench ") else line


def cli_solve(inst, solvers, extra=(), tag="run"):
    """rows of `lcpbench solve` by solver, the folders of its z and histories, the process"""
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


class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                 "uordblks", "fordblks", "keepcost")]


def heap():
    """bytes of the C heap in use (glibc's mallinfo2; 0 where it has none)"""
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "mallinfo2"):
        return 0
    libc.mallinfo2.restype = MallInfo2
    i = libc.mallinfo2()
    return i.uordblks + i.hblkhd
