#!/usr/bin/env python3
"""checks.py: the Python side of the shell tests' checks, in one module.

As a command, from a shell test (the script picks the interpreter, and prints its own SKIP
lines when that one has no pandas):

    "$PY" "$COMMON/checks.py" FUNCTION ARG...

runs FUNCTION(ARG...), whole numbers passed as numbers: exit 0 when the check holds, 1 with
the reason on stderr when it does not, 3 when the check needs pandas and this Python has none.
As a module (PYTHONPATH=tests/common, or sys.path): the same functions and Tap.

  csv_reads_plain PATH [MIN_COLUMNS [MIN_ROWS]]
        pandas.read_csv without options reads PATH: at least MIN_COLUMNS columns (2), none
        named like a comment line ('#...'), at least MIN_ROWS rows (1)
  csv_all_read_plain MIN_FILES PATTERN...
        at least MIN_FILES files match the glob PATTERNs, each read as csv_reads_plain
        with one column and no row at least
  csv_readers_agree PATH [MIN_ROWS]
        pandas.read_csv and csv.DictReader, both without options, read PATH alike: the
        same header (two names at least, none '#...'), the same number of rows (MIN_ROWS,
        0, at least), no row longer or shorter than the header
  csv_verdicts BASE MIN_COLUMNS MIN_ROWS [NAME...]
        one line "1 NAME" or "0 NAME" per CSV, as csv_reads_plain(BASE/NAME, ...) holds or
        not: the NAMEs given, else every *.csv below BASE (sorted); one Python for many
        files, pandas being slow to import
  strip_time_columns PATH
        prints the CSV at PATH without its time columns (TIME_COLUMNS), one line a row,
        fields joined by commas: run folders compared but for their times
  regen_compare COMMITTED FRESH VERSION REL SET...
        TAP: the result sets SET of COMMITTED (results/) against their regeneration in
        FRESH: the same CSV files, every cell but the timing columns (TIME_COLUMNS) equal,
        numbers within the relative REL (or both below 1e-12 in magnitude: rounding);
        provenance naming VERSION in both

As a module only: csv_rows(PATH), the rows as dicts (csv.DictReader); table_rows(DIR,
NAME...), those of each CSV NAME of a table's folder; claims_by_id(DIR), its claims.csv's
rows by id; one_row(ROWS, **KV), the one row whose columns have the values KV
(AssertionError unless exactly one); Tap.
"""
import csv
import fnmatch
import glob
import os
import re
import sys

# The timing columns, the one list: what differs between two runs of the same build on the
# same input (strip_time_columns and regen_compare leave them out).  An entry is a column
# name (in every CSV), or SET/FILE:COLUMN (one CSV of a result set of results/), or
# SET/FILE[ID]:COLUMN (the row of a claims.csv whose id is ID: a claim on times).
TIME_COLUMNS = (
    "time_s", "time_min_s", "time_max_s", "time_batch", "time_setup_s",  # run folders
    "time_per_sweep_s", "time_per_row_s",                # spook-pgs-scaling.csv
    "spook-pgs/plots/spook-pgs-scaling.csv:y",           # its figure: seconds per sweep
    "spook-pgs/claims.csv[spook-linear]:numbers",        # linear cost: time per sweep per row
    "spook-pgs/claims.csv[spook-linear]:verdict",
    # precision: the time per sweep against the floor (its figures of bytes are not timing)
    "precision/precision-time.csv:triad_GBs", "precision/precision-time.csv:sweep_float64_s",
    "precision/precision-time.csv:sweep_float32_s",
    "precision/precision-time.csv:float32_over_float64",
    "precision/precision-time.csv:float64_over_float64",
    "precision/precision-time.csv:float64_over_floor",
    "precision/precision-time.csv:float32_over_floor",
    "precision/claims.csv[prec-faster]:numbers", "precision/claims.csv[prec-faster]:verdict",
    "time_to_tol_s",                                     # solvers.csv
    "time_per_step_s",                                   # transversal's t2-steppers.csv
    "solve_time_s",                                      # ode-sim.csv
    "solve_time_median_s", "solve_time_min_s", "solve_time_max_s",   # amgs-table2*/table2.csv
    "ratio_to_pgs_median", "ratio_to_pgs_min", "ratio_to_pgs_max",   # its time ratios
    # ode: the fitted exponents of the time against m, and the claims read off times
    "ode/ode-scaling.csv:exponent", "ode/ode-scaling.csv:exponent_stderr",
    "ode/claims.csv[O8]:numbers", "ode/claims.csv[O8]:verdict",
    "ode/claims.csv[F3]:numbers", "ode/claims.csv[F3]:verdict",
)
# CSV files that are timing through and through (figures drawn against seconds): compared
# by name only
TIME_FILES = ("solvers/plots/*-time.csv", "solvers/plots/perf-time.csv", "ode/plots/ode-time.csv",
              "peers/plots/perf-time.csv",
              "amgs-table1*/plots/*-time.csv",                 # residual against seconds
              "peers/plots/data-*.csv")                         # data profiles over seconds


class NoPandas(Exception):
    """pandas cannot be imported (exit status 3 as a command)"""


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise NoPandas(str(e))
    return pandas


def csv_reads_plain(path, min_columns=2, min_rows=1):
    """pandas.read_csv(path) without options; the frame, or AssertionError"""
    d = _pandas().read_csv(path)
    cols = [str(c) for c in d.columns]
    assert len(cols) >= min_columns and not any(c.startswith("#") for c in cols), (path, cols)
    assert len(d) >= min_rows, (path, len(d))
    return d


def csv_all_read_plain(min_files, *patterns):
    files = [f for p in patterns for f in sorted(glob.glob(p))]
    assert len(files) >= min_files, (len(files), patterns)
    for f in files:
        csv_reads_plain(f, 1, 0)


def csv_readers_agree(path, min_rows=0):
    d = csv_reads_plain(path, 2, min_rows)
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        names = reader.fieldnames
    assert list(names or []) == [str(c) for c in d.columns], (path, names, list(d.columns))
    assert len(rows) == len(d), (path, len(rows), len(d))
    assert all(None not in r and None not in r.values() for r in rows), (path, "ragged row")


def csv_verdicts(base, min_columns, min_rows, *names):
    _pandas()
    if not names:
        found = []
        for root, dirs, files in os.walk(base):
            dirs.sort()
            found += [os.path.relpath(os.path.join(root, f), base) for f in sorted(files)
                      if f.endswith(".csv")]
        names = found
    for name in names:
        try:
            csv_reads_plain(os.path.join(base, name), min_columns, min_rows)
            good = True
        except Exception:
            good = False
        print("1" if good else "0", name)


def strip_time_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, h in enumerate(rows[0]) if h not in TIME_COLUMNS]
    for r in rows:
        print(",".join(r[i] for i in keep))


def _timing(name, col, row_id, row=None):
    """is column col of the CSV name (SET/FILE), in the row whose id is row_id, a timing one;
    a claims.csv row whose rule decides on times (it names a noise control or a timing
    uncertainty: bench_rule_str's words) is a claim on times: its
    numbers, verdict and reason are timing whatever its set (bench/README.md, "Claims and
    verdicts")"""
    if (row is not None and os.path.basename(name) == "claims.csv"
            and col in ("numbers", "verdict", "reason")
            and ("noise control" in row.get("rule", "") or "timing uncertainty" in row.get("rule", ""))):
        return True
    return (col in TIME_COLUMNS or "%s:%s" % (name, col) in TIME_COLUMNS
            or "%s[%s]:%s" % (name, row_id, col) in TIME_COLUMNS)


# numbers below it in magnitude are rounding (a semi-definite A_FF's smallest eigenvalue,
# -1.2e-15 on one machine and -1.4e-15 on another): regen_compare takes two such as equal
ROUNDING = 1e-12


# a number inside a text cell (a claim's "numbers": "pool 4.3e-14; coupled 0.091")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _same_number(a, b, rel):
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    big = max(abs(x), abs(y))
    return big <= ROUNDING or abs(x - y) <= rel * big


def _same(a, b, rel):
    """two CSV cells alike: equal text, or numbers within rel of each other, or both at
    rounding (ROUNDING); a text cell with numbers in it: the same words around them and
    each pair of numbers alike so (a zdiff of 8.9e-16 printed as 1.8e-15 is rounding)"""
    if a == b:
        return True
    if _same_number(a, b, rel):
        return True
    if _NUMBER.split(a) != _NUMBER.split(b):
        return False
    na, nb = _NUMBER.findall(a), _NUMBER.findall(b)
    return len(na) == len(nb) and all(_same_number(x, y, rel) for x, y in zip(na, nb))


def _csv_diffs(name, old, new, rel):
    """the differences of two CSVs of result set file name (SET/FILE) but timing columns"""
    a, b = csv_rows(old), csv_rows(new)
    with open(old, newline="") as f:
        head_a = next(csv.reader(f), [])
    with open(new, newline="") as f:
        head_b = next(csv.reader(f), [])
    if head_a != head_b:
        return ["%s: columns %s, regenerated %s" % (name, head_a, head_b)]
    if len(a) != len(b):
        return ["%s: %d rows, regenerated %d" % (name, len(a), len(b))]
    out = []
    for k, (ra, rb) in enumerate(zip(a, b)):
        for c in head_a:
            if not _timing(name, c, ra.get("id"), ra) and not _same(ra[c], rb[c], rel):
                out.append("%s: row %d (%s) %s: %r, regenerated %r"
                           % (name, k + 2, ",".join(list(ra.values())[:2]), c, ra[c], rb[c]))
    return out


def _provenance(d, setname, version, clean):
    """what is missing of set folder d's provenance: provenance.json naming the version, a
    date and the command, and the provenance lines at the top of each Markdown file; clean:
    the commit named is not -dirty (a committed set was made by a committed build)"""
    import json
    miss = []
    try:
        with open(os.path.join(d, "provenance.json")) as f:
            p = json.load(f)
        if not str(p.get("lcpbench", "")).startswith(version + " (git "):
            miss.append("%s/provenance.json: lcpbench %r, not version %s with its commit"
                        % (setname, p.get("lcpbench"), version))
        if not p.get("date") or not p.get("command"):
            miss.append("%s/provenance.json: no date or command" % setname)
        if clean and "-dirty" in str(p.get("lcpbench", "")):
            miss.append("%s/provenance.json: %r: made by a build of a modified tree"
                        % (setname, p.get("lcpbench")))
    except (OSError, ValueError) as e:
        miss.append("%s/provenance.json: %s" % (setname, e))
    for md in sorted(glob.glob(os.path.join(d, "*.md"))):
        with open(md) as f:
            head = f.read(4000)
        for line in ("# lcpbench: " + version + " (git ", "# date: ", "# command: "):
            if "\n" + line not in head:
                miss.append("%s/%s: no provenance line %r" % (setname, os.path.basename(md),
                                                                line))
    return miss


def regen_compare(committed, fresh, version, rel=1e-9, *sets):
    """TAP: each result set SET of committed (results/) against its regeneration in fresh:
    the same CSV files (plots/ included), the same columns and rows, every cell but the
    timing columns (TIME_COLUMNS) equal (numbers within rel, or both below ROUNDING in
    magnitude); the provenance of both (the
    version, a date, the command) present and excluded from the comparison.  Exit 1 when
    a check failed."""
    rel = float(rel)
    t = Tap()
    for s in sets:
        a, b = os.path.join(committed, s), os.path.join(fresh, s)
        for d, what, clean in ((a, "committed", True), (b, "regenerated", False)):
            miss = _provenance(d, s, version, clean)
            t.ok(not miss, "%s: %s provenance names version %s%s, a date and the command"
                 % (s, what, version, " and a commit" if clean else ""), "; ".join(miss[:5]))
        files = sorted(os.path.relpath(f, a) for f in glob.glob(os.path.join(a, "**", "*.csv"),
                                                                   recursive=True))
        again = sorted(os.path.relpath(f, b) for f in glob.glob(os.path.join(b, "**", "*.csv"),
                                                                   recursive=True))
        t.ok(files and files == again, "%s: the same %d CSV files" % (s, len(files)),
             "committed %s, regenerated %s" % (files, again))
        for f in files:
            if f not in again or any(fnmatch.fnmatch("%s/%s" % (s, f), p) for p in TIME_FILES):
                continue
            diffs = _csv_diffs("%s/%s" % (s, f), os.path.join(a, f), os.path.join(b, f), rel)
            t.ok(not diffs, "%s/%s: every non-timing column as committed (%d differences)"
                 % (s, f, len(diffs)), "; ".join(diffs[:5]))
    if t.done():
        raise AssertionError("the regenerated result sets differ from the committed ones")


# runs.csv's descriptor columns (bench/grid/run.c, after peer_status), meta.txt's keys
DESCRIPTOR_COLUMNS = ("contacts", "limit_rows", "bodies", "mass_ratio", "mu", "bilateral_share",
                      "self_stress", "self_stress_normal", "cond_lanczos", "family")


def runs_descriptors(runs, instances, min_filled=0):
    """runs.csv (path runs) ends with the descriptor columns, after peer_status, and each row's
    cells are the values of its instance's meta.txt (instances/INSTANCE/meta.txt; no folder
    or no meta.txt: every cell empty): the number as written, or before a note in
    parentheses; family as written.  At least min_filled rows have every cell filled."""
    with open(runs, newline="") as f:
        head = next(csv.reader(f))
    n = len(DESCRIPTOR_COLUMNS)
    assert tuple(head[-n:]) == DESCRIPTOR_COLUMNS and head[-n - 1] == "peer_status", head
    filled = 0
    for r in csv_rows(runs):
        meta = {}
        path = os.path.join(instances, r["instance"], "meta.txt")
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    k, sep, v = line.rstrip("\n").partition(" = ")
                    if sep and k not in meta:
                        meta[k] = v
        for c in DESCRIPTOR_COLUMNS:
            want = meta.get(c, "")
            if c != "family" and want:
                word = want.split(" ", 1)
                want = word[0] if len(word) == 1 or word[1].startswith("(") else ""
                try:
                    float(want)
                except ValueError:
                    want = ""
            assert r[c] == want, (r["instance"], r["label"], c, r[c], want)
        filled += all(r[c] != "" for c in DESCRIPTOR_COLUMNS)
    assert filled >= int(min_filled), (filled, min_filled)


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def table_rows(d, *names):
    return [csv_rows(os.path.join(d, n)) for n in names]


def claims_by_id(d):
    return {r["id"]: r for r in csv_rows(os.path.join(d, "claims.csv"))}


def one_row(rows, /, **kv):
    m = [r for r in rows if all(r[k] == v for k, v in kv.items())]
    assert len(m) == 1, (kv, len(m))
    return m[0]


class Tap:
    """TAP lines from Python, as tap.h and tap.sh print them: "ok N - NAME", "not ok N -
    NAME" (then "# DIAG" when given), and the plan last"""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, diag=""):
        self.n += 1
        print(("ok %d - %s" if cond else "not ok %d - %s") % (self.n, name))
        if not cond:
            self.failed += 1
            if diag:
                print("# " + diag)
        return cond

    def done(self):
        """prints the plan; the exit status: 1 when a check failed"""
        print("1..%d" % self.n)
        return 1 if self.failed else 0


def _arg(a):
    try:
        return int(a)
    except ValueError:
        return a


def main(argv):
    if len(argv) < 2 or argv[1].startswith("_") or not callable(globals().get(argv[1])):
        sys.stderr.write("usage: checks.py FUNCTION ARG... (see its docstring)\n")
        return 2
    try:
        globals()[argv[1]](*[_arg(a) for a in argv[2:]])
    except NoPandas as e:
        sys.stderr.write("checks.py: %s\n" % e)
        return 3
    except Exception as e:
        sys.stderr.write("checks.py %s: %s: %s\n" % (argv[1], type(e).__name__, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
