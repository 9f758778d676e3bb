"""test_solvers.py (meson test python-solvers): every registered solver on every committed
instance, from Python and from the command line (lcp/python/README.md).

`lcpbench solve INSTANCE --solver ALL --reps 0 --solution DIR --history DIR --timeout
SECONDS' once per instance, then lcpbench.solve(read(INSTANCE), S) for each solver S: the
same status and iterations, z bit for bit (the CLI writes %.17g, read back exactly), the
residual as the CLI prints it (%.6e) and the whole history (iterations, ||r||_2, ||r||_inf at
%.6e); an error status raises lcpbench.Error carrying that status.  A run past SECONDS in the
CLI is skipped here (CI time), named.
"""
import csv
import functools

import pytest

from lcptest import (INSTANCES, SECONDS, base, cli, cli_file, cli_solve, e6, lcpbench,
                     mtx_vector, same_bits)

NAMES = [s.name for s in lcpbench.solvers()]


def test_solvers_listed_as_the_cli_lists_them():
    listed = [ln.split()[0] for ln in cli("list", "solvers").stdout.splitlines()
              if ln.startswith("  ") and ln.split()]
    assert NAMES == listed
    assert all(s.description and isinstance(s.needs, tuple) for s in lcpbench.solvers())


@functools.lru_cache(maxsize=None)
def cli_run(inst):
    """the CLI's rows and files for every solver on inst (one run, kept for the next solver)"""
    rows, sol, hist, _ = cli_solve(inst, NAMES, ("--timeout", "%g" % SECONDS))
    return rows, sol, hist, lcpbench.read(inst)


@pytest.mark.parametrize("inst", INSTANCES, ids=base)
@pytest.mark.parametrize("name", NAMES)
def test_solve_equals_the_cli(inst, name):
    rows, sol, hist, P = cli_run(inst)
    row = rows.get(name)
    assert row is not None, "the CLI printed no row for " + name
    if row["status"] == "timeout":
        pytest.skip("over %g s in the CLI" % SECONDS)
    if row["residual"] == "":                      # an error status: raised with its name
        with pytest.raises(lcpbench.Error) as e:
            lcpbench.solve(P, name)
        assert e.value.status == row["status"]
        return
    r = lcpbench.solve(P, name, check=False)
    assert (r.status, r.iterations) == (row["status"], int(row["iterations"]))
    zf = cli_file(sol, name, ".mtx")
    assert zf and same_bits(r.z, mtx_vector(zf)), "z differs from " + str(zf)
    assert (e6(r.residual), e6(r.residual_inf)) == (row["residual"], row["residual_inf"])
    hf = cli_file(hist, name, ".csv")                # none: a peer records no history
    theirs = []
    if hf:
        with open(hf) as f:
            theirs = [(int(h["iteration"]), h["residual"], h["residual_inf"])
                      for h in csv.DictReader(f)]
    mine = [(int(i), e6(a), e6(b))
            for i, a, b in zip(r.history_iterations, r.history, r.history_inf)]
    assert mine == theirs
