/* pylcp.h: the Python extension module `lcpbench' (lcp/python/README.md), its shared parts.
 *
 *   module.c   the module: Error, Result, Residuals, Solver, solvers(), read(), import
 *   problem.c  the Problem type: NumPy arrays and scipy.sparse matrices (CSR, CSC, others
 *              through .tocsr()) in, a validated lcp_problem (lcp_problem_check) held
 *   solve.c    solve() and residual(): the settings by the harness's table (bench/kit,
 *              settings.c: the same names, checks and messages as `lcpbench solve'), the
 *              solve with the GIL released, the history recorded as the harness records it
 *
 * A Problem owns a copy of every array (the library's lcp_problem owns its arrays), is
 * immutable, and so can be solved by several threads at once.  Every error is an
 * lcpbench.Error (a ValueError) whose `status' is the library's status name
 * ("inconsistent", "bad-format", "zero-diagonal", ...).
 */
#ifndef PYLCP_H
#define PYLCP_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL pylcp_ARRAY_API
#ifndef PYLCP_MODULE
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "lcp.h"

typedef struct pylcp_problem {
    PyObject_HEAD
    lcp_problem P; /* validated by lcp_problem_check; never changed after construction */
} pylcp_problem;

extern PyTypeObject pylcp_problem_type;         /* problem.c */
extern PyTypeObject pylcp_result_type;          /* module.c: structseq lcpbench.Result */
extern PyTypeObject pylcp_residuals_type;       /* module.c: structseq lcpbench.Residuals */
extern PyTypeObject pylcp_score_type;           /* module.c: structseq lcpbench.Score */
extern PyObject *pylcp_error;                   /* module.c: lcpbench.Error, set at import */

/* Raise lcpbench.Error(msg) with .status = lcp_status_str(st), .code = st; returns NULL. */
PyObject *pylcp_raise(lcp_status st, const char *fmt, ...);
/* A new Problem holding *P (taken over: *P is re-initialised), or NULL (P freed). */
PyObject *pylcp_problem_wrap(lcp_problem *P);
/* obj as a new C-contiguous float64 array of m entries: shape (m,), (m,1), (1,m), or a
 * scalar when scalar_ok (broadcast); NULL with lcpbench.Error naming `name'. */
PyArrayObject *pylcp_vector(PyObject *obj, const char *name, int m, int scalar_ok);
/* A new float64 NumPy array of n entries copied from v. */
PyObject *pylcp_array_copy(const double *v, int n);

PyObject *pylcp_solve(PyObject *self, PyObject *args, PyObject *kw);     /* solve.c */
PyObject *pylcp_residual(PyObject *self, PyObject *args, PyObject *kw);  /* solve.c */
PyObject *pylcp_run_sweeps(PyObject *self, PyObject *args, PyObject *kw); /* solve.c */
PyObject *pylcp_score(PyObject *self, PyObject *args, PyObject *kw);     /* solve.c */
PyObject *pylcp_run_solver(PyObject *self, PyObject *args, PyObject *kw); /* solve.c */

#endif /* PYLCP_H */
