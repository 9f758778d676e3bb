/* module.c: the Python extension module `lcpbench' (lcp/python/README.md): liblcp's
 * problems, its solvers and liblcp-peers's as `lcpbench list solvers' lists them (the
 * harness's registry, bench/kit/registry.c), the one residual, instance folders.
 *
 *   Problem(A, q, ...)      problem.c         read(folder, factor_tol=1e-12) -> Problem
 *   solve(problem, ...)     solve.c           residual(problem, z) -> Residuals
 *   run_sweeps(problem, sweep, ...), run_solver(problem, solve, ...) -> Result, score(problem,
 *   z) -> Score: your own solver through the library's loop or scored as `lcpbench score'
 *   capture(scene, params, step) -> Problem: a scene's step as `lcpbench capture' writes it
 *   solvers() -> [Solver(name, description, needs)]
 *   Error: a ValueError with .status (the status name) and .code (the lcp_status value)
 *
 * Needs NumPy (its C API); SciPy only for Problem.A, J, Minv (scipy.sparse.csr_matrix).
 * As the lcpbench program does, the import makes OpenBLAS single-threaded unless
 * OPENBLAS_NUM_THREADS is set: the dense solvers' answers (amgs-*-explicit, dantzig, the
 * peers) then equal the command line's bit for bit (a BLAS sum split over threads rounds
 * otherwise).  It holds for every user of that OpenBLAS in the process.
 */
#define PYLCP_MODULE
#include "pylcp.h"

#include "kit.h"
#include "lcp_alloc.h"
#include "prob.h"

#include <cblas.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

PyObject *pylcp_error;
PyTypeObject pylcp_result_type, pylcp_residuals_type, pylcp_score_type;
static PyTypeObject solver_type;

PyObject *pylcp_raise(lcp_status st, const char *fmt, ...)
{
    char msg[4600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    PyObject *e = PyObject_CallFunction(pylcp_error, "s", msg);
    PyObject *name = e ? PyUnicode_FromString(lcp_status_str(st)) : NULL;
    PyObject *code = name ? PyLong_FromLong((long)st) : NULL;
    if (code && PyObject_SetAttrString(e, "status", name) == 0 &&
        PyObject_SetAttrString(e, "code", code) == 0)
        PyErr_SetObject(pylcp_error, e);
    Py_XDECREF(code);
    Py_XDECREF(name);
    Py_XDECREF(e);
    return NULL;
}

static PyObject *py_read(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"folder", "factor_tol", NULL};
    PyObject *path = NULL, *tol = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|O:read", names, PyUnicode_FSConverter, &path,
                                     &tol))
        return NULL;
    lcp_read_options ro;
    lcp_read_options_default(&ro);
    if (tol && PyUnicode_Check(tol) && !PyUnicode_CompareWithASCIIString(tol, "off"))
        ro.factor_tol = -1.0;
    else if (tol && tol != Py_None) {
        ro.factor_tol = PyFloat_AsDouble(tol);
        if (PyErr_Occurred() || !(ro.factor_tol >= 0.0)) {
            PyErr_Clear();
            Py_DECREF(path);
            return pylcp_raise(LCP_ERR_ARG, "factor_tol: a number >= 0 or 'off'");
        }
    }
    lcp_problem P;
    lcp_problem_init(&P);
    char msg[4400];
    lcp_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lcp_read_instance_opt(PyBytes_AS_STRING(path), &ro, &P, msg, sizeof msg);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (st != LCP_OK) {
        lcp_problem_free(&P);
        return pylcp_raise(st, "%s", msg);
    }
    return pylcp_problem_wrap(&P);
}

/* ---- capture(scene, params=None, step=1, *, solver="pgs") ---------------------------------- */

/* v as a parameter's text: a str as it is, a number as Python writes it (repr: the shortest
 * text that reads back as the same double) */
static PyObject *param_text(PyObject *k, PyObject *v)
{
    PyObject *t = PyUnicode_Check(v) ? Py_NewRef(v) : NULL;
    if (!t && (PyLong_Check(v) || PyFloat_Check(v))) t = PyObject_Repr(v);
    if (!t && PyNumber_Check(v)) {                              /* numpy scalars */
        PyObject *f = PyNumber_Float(v);
        t = f ? PyObject_Repr(f) : NULL;
        Py_XDECREF(f);
    }
    PyObject *kv = t ? PyUnicode_FromFormat("%U=%U", k, t) : NULL;
    Py_XDECREF(t);
    if (!kv) {
        PyErr_Clear();
        const char *key = PyUnicode_AsUTF8(k);
        PyErr_Clear();
        pylcp_raise(LCP_ERR_ARG, "params: %s: neither a number nor a str", key ? key : "?");
    }
    return kv;
}

/* params (None, a dict {key: value}, or a sequence of "key=value") as a new list of str */
static PyObject *param_list(PyObject *params)
{
    PyObject *list = PyList_New(0);
    if (!list || !params || params == Py_None) return list;
    if (PyDict_Check(params)) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (list && PyDict_Next(params, &pos, &k, &v)) {
            PyObject *kv = PyUnicode_Check(k)
                               ? param_text(k, v)
                               : pylcp_raise(LCP_ERR_ARG, "params: a key is not a str");
            if (!kv || PyList_Append(list, kv) != 0) Py_CLEAR(list);
            Py_XDECREF(kv);
        }
        return list;
    }
    PyObject *seq = PyUnicode_Check(params) ? NULL : PySequence_Fast(params, "");
    for (Py_ssize_t k = 0; seq && list && k < PySequence_Fast_GET_SIZE(seq); k++) {
        PyObject *kv = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyUnicode_Check(kv) || PyList_Append(list, kv) != 0) Py_CLEAR(list);
    }
    if (!seq || !list) {
        PyErr_Clear();
        Py_CLEAR(list);
        pylcp_raise(LCP_ERR_ARG, "params: a dict {key: value} or a sequence of 'key=value'");
    }
    Py_XDECREF(seq);
    return list;
}

static PyObject *py_capture(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"scene", "params", "step", "solver", NULL};
    const char *scene = NULL, *solver = "pgs";
    PyObject *params = NULL, *step = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|OO$s:capture", names, &scene, &params, &step,
                                     &solver))
        return NULL;
    PyArrayObject *raw = (PyArrayObject *)(step ? PyArray_FROMANY(step, NPY_NOTYPE, 0, 1,
                                                                  NPY_ARRAY_CARRAY_RO)
                                                : PyArray_ZEROS(0, NULL, NPY_INT64, 0));
    PyArrayObject *st = raw && (PyArray_ISINTEGER(raw) || PyArray_SIZE(raw) == 0)
                            ? (PyArrayObject *)PyArray_FROMANY((PyObject *)raw, NPY_INT64, 0, 1,
                                                               NPY_ARRAY_CARRAY_RO)
                            : NULL;
    Py_XDECREF(raw);
    if (!st) {
        PyErr_Clear();
        return pylcp_raise(LCP_ERR_ARG, "step: an integer >= 1, or increasing integers");
    }
    int one = PyArray_NDIM(st) == 0;
    if (!step) *(int64_t *)PyArray_DATA(st) = 1;
    npy_intp ns = PyArray_SIZE(st);
    int nstep = (int)ns, bad = ns < 1 || ns > 100000;
    int *steps = bad ? NULL : lcp_malloc((size_t)ns, sizeof(int));
    for (npy_intp k = 0; steps && k < ns; k++) {
        int64_t t = ((const int64_t *)PyArray_DATA(st))[k];
        bad |= t < 1 || t > 100000000 || (k > 0 && t <= steps[k - 1]);
        steps[k] = bad ? 1 : (int)t;
    }
    Py_DECREF(st);
    PyObject *list = NULL, *out = NULL;
    if (bad || !steps) {
        lcp_free(steps);
        return bad ? pylcp_raise(LCP_ERR_ARG, "step: an integer >= 1, or increasing integers")
                   : PyErr_NoMemory();
    }
    if (!bench_solver_find(solver)) {                      /* a peer: "cannot use solver" */
        lcp_free(steps);
        return pylcp_raise(LCP_ERR_ARG, "unknown solver '%s' (lcpbench list solvers)", solver);
    }
    list = param_list(params);
    Py_ssize_t nkv = list ? PyList_GET_SIZE(list) : 0;
    const char **kv = list ? lcp_malloc((size_t)nkv + 1, sizeof *kv) : NULL;
    lcp_problem *P = kv ? lcp_malloc((size_t)nstep, sizeof *P) : NULL;
    if (list && (!kv || !P)) PyErr_NoMemory();
    for (Py_ssize_t k = 0; P && list && k < nkv; k++)
        if (!(kv[k] = PyUnicode_AsUTF8(PyList_GET_ITEM(list, k)))) Py_CLEAR(list);
    if (P && list) {
        char msg[4096];
        lcp_status s;
        Py_BEGIN_ALLOW_THREADS
        s = prob_capture_steps(scene, (int)nkv, kv, solver, PROB_CAPTURE_DESCRIPTORS, nstep,
                               steps, P, msg, sizeof msg);
        Py_END_ALLOW_THREADS
        if (s != LCP_OK) pylcp_raise(s, "%s", msg);
        else if (one)
            out = pylcp_problem_wrap(&P[0]);                    /* frees P[0] on failure */
        else {
            out = PyList_New(nstep);
            for (int k = 0; k < nstep; k++) {
                PyObject *p = out ? pylcp_problem_wrap(&P[k]) : NULL;
                if (!out) lcp_problem_free(&P[k]);
                else if (!p) Py_CLEAR(out);
                else PyList_SET_ITEM(out, k, p);
            }
        }
    }
    lcp_free(P);
    lcp_free(kv);
    lcp_free(steps);
    Py_XDECREF(list);
    return out;
}

/* the words of a registry entry's flags */
static PyObject *needs_words(unsigned needs)
{
    static const struct { unsigned bit; const char *word; } w[] = {
        {LCP_NEEDS_FACTORS, "factors"}, {LCP_NEEDS_SYMMETRIC, "symmetric"},
        {LCP_SUPPORTS_BOX, "box"},      {LCP_SUPPORTS_FINDEX, "findex"},
        {LCP_DENSE, "dense"},           {LCP_DIRECT, "direct"},
        {LCP_FACTORED, "factored"},
    };
    PyObject *t = PyList_New(0);
    for (size_t k = 0; t && k < sizeof w / sizeof w[0]; k++)
        if (needs & w[k].bit) {
            PyObject *s = PyUnicode_FromString(w[k].word);
            if (!s || PyList_Append(t, s) != 0) Py_CLEAR(t);
            Py_XDECREF(s);
        }
    PyObject *r = t ? PyList_AsTuple(t) : NULL;
    Py_XDECREF(t);
    return r;
}

static PyObject *py_solvers(PyObject *self, PyObject *unused)
{
    int n;
    const lcp_solver *s = bench_solvers(&n);
    PyObject *list = PyList_New(n);
    for (int k = 0; list && k < n; k++) {
        PyObject *e = PyStructSequence_New(&solver_type);
        PyObject *a = PyUnicode_FromString(s[k].name);
        PyObject *b = PyUnicode_FromString(s[k].description);
        PyObject *c = needs_words(s[k].needs);
        if (!e || !a || !b || !c) {
            Py_XDECREF(e), Py_XDECREF(a), Py_XDECREF(b), Py_XDECREF(c);
            Py_CLEAR(list);
            break;
        }
        PyStructSequence_SetItem(e, 0, a);
        PyStructSequence_SetItem(e, 1, b);
        PyStructSequence_SetItem(e, 2, c);
        PyList_SET_ITEM(list, k, e);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"read", (PyCFunction)(void (*)(void))py_read, METH_VARARGS | METH_KEYWORDS,
     "read(folder, factor_tol=1e-12) -> Problem\n\n"
     "An instance folder (lcp/README.md, \"Instance folders\"), checked as `lcpbench solve'\n"
     "checks it; factor_tol: the relative tolerance of A = J Minv J^T + diag(E), or 'off'."},
    {"solve", (PyCFunction)(void (*)(void))pylcp_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(problem, solver='pgs', *, z0=None, history=True, check=True, **settings)\n"
     "      -> Result\n\n"
     "One solve as `lcpbench solve' runs it (the same z bit for bit), the GIL released.\n"
     "settings: the keys of `lcpbench list settings' that the solver uses (tol, maxit,\n"
     "omega, beta, gamma, order, seed, threads, form, warm, warm_scale, every), with the\n"
     "same checks and messages; order may be a sequence of m rows.  z0: start from it.\n"
     "history: record ||r||_2 and ||r||_inf of every iterate (Result.history, history_inf,\n"
     "history_iterations).  An error status raises Error unless check=False."},
    {"run_sweeps", (PyCFunction)(void (*)(void))pylcp_run_sweeps, METH_VARARGS | METH_KEYWORDS,
     "run_sweeps(problem, sweep, *, z0=None, history=True, check=True, tol=, maxit=,\n"
     "           warm=) -> Result\n\n"
     "Your sweep, sweep(z) -> z (or None after updating z in place), run by the library's\n"
     "one loop (lcp_iterate) as it runs pgs's: the start mid(lo, 0, hi) (or z0, warm), the\n"
     "stopping test ||r||_2 <= tol on lcp_residual, the NaN and divergence checks, the\n"
     "history; solver 'python'.  The GIL is held; an exception of sweep propagates."},
    {"run_solver", (PyCFunction)(void (*)(void))pylcp_run_solver, METH_VARARGS | METH_KEYWORDS,
     "run_solver(problem, solve, *, tol=1e-6, history=True) -> Result\n\n"
     "Your whole solve, solve(problem) -> z (m reals) or its iterates (K x m, the last\n"
     "row the answer), timed (time_s) and scored as `lcpbench score' scores an answer:\n"
     "the residual, zdiff, wdiff of z, the history of every row (iterations 1..K), the\n"
     "status judged by ||r||_2 <= tol as lcpbench judges a peer (converged or\n"
     "not-converged); solver 'python'."},
    {"score", (PyCFunction)(void (*)(void))pylcp_score, METH_VARARGS | METH_KEYWORDS,
     "score(problem, z) -> Score\n\n"
     "`lcpbench score' in-process: z (m reals) gives floats, iterates (K x m) arrays of K:\n"
     "residual residual_inf rel_residual complementarity infeasibility zdiff wdiff."},
    {"residual", (PyCFunction)(void (*)(void))pylcp_residual, METH_VARARGS | METH_KEYWORDS,
     "residual(problem, z) -> Residuals\n\n"
     "The one residual (lcp_residual): r = z - mid(lo, z - w, hi), w = A z + q; its norms,\n"
     "complementarity, bound violation, the distances to zref when the problem has one, w."},
    {"capture", (PyCFunction)(void (*)(void))py_capture, METH_VARARGS | METH_KEYWORDS,
     "capture(scene, params=None, step=1, *, solver='pgs') -> Problem\n\n"
     "The LCP of step `step' of a scene of problems/ (before its solve, z0 = the stepper's\n"
     "warm start), as `lcpbench capture SCENE --at STEP [--param k=v ...] [--solver S]'\n"
     "writes it: the same arrays bit for bit, meta with the descriptors.  params: a dict\n"
     "{key: value} or a sequence of 'key=value' (`lcpbench capture SCENE --help' lists\n"
     "them; iters and tol are the stepper's).  step: an int, or increasing ints (a list\n"
     "of Problems, one stepping).  Errors: the CLI's messages, status bad-argument."},
    {"solvers", py_solvers, METH_NOARGS,
     "solvers() -> [Solver(name, description, needs)]: every registered solver, the peers\n"
     "this build has included, as `lcpbench list solvers'."},
    {NULL, NULL, 0, NULL},
};

static PyStructSequence_Field result_fields[] = {
    {"solver", "the solver's name"},
    {"status", "status name: converged, max-iterations, ... (an error only with check=False)"},
    {"z", "the answer"},
    {"w", "A z + q (NaN after an error)"},
    {"iterations", "sweeps (pivoting solvers: outer iterations)"},
    {"work", "work units: sweeps, or pivots"},
    {"residual", "||r||_2 of z (lcp_residual)"},
    {"residual_inf", "||r||_inf of z"},
    {"rel_residual", "||r||_2 / max(1, ||q||_2)"},
    {"history", "||r||_2 of every recorded iterate"},
    {"history_inf", "||r||_inf of every recorded iterate"},
    {"history_iterations", "the iteration of each record (0: the start)"},
    {"zdiff", "||z - zref||_inf / max(1, ||zref||_inf) (NaN without zref)"},
    {"wdiff", "the same in w"},
    {"row", "the row of an error or warning, -1 when none"},
    {"form", "the form used: assembled or matrix-free"},
    {"omega", "the relaxation used (0 when none)"},
    {"pivots", "pivots of a pivoting solver"},
    {"time_s", "seconds of the solve (with the history's residuals when history=True)"},
    {NULL, NULL},
};
static PyStructSequence_Desc result_desc = {"lcpbench.Result", "a solve's answer", result_fields,
                                            19};

static PyStructSequence_Field residual_fields[] = {
    {"residual", "||r||_2, r = z - mid(lo, z - w, hi)"},
    {"residual_inf", "||r||_inf"},
    {"rel_residual", "||r||_2 / max(1, ||q||_2)"},
    {"comp", "max |(z_i - bound) w_i|"},
    {"infeas", "max bound violation of z"},
    {"zdiff", "||z - zref||_inf / max(1, ||zref||_inf) (NaN without zref)"},
    {"wdiff", "the same in w"},
    {"w", "A z + q"},
    {NULL, NULL},
};
static PyStructSequence_Desc residual_desc = {"lcpbench.Residuals", "lcp_residual of a z",
                                              residual_fields, 8};

static PyStructSequence_Field score_fields[] = {
    {"residual", "||r||_2, r = z - mid(lo, z - w, hi)"},
    {"residual_inf", "||r||_inf"},
    {"rel_residual", "||r||_2 / max(1, ||q||_2)"},
    {"complementarity", "max |(z_i - bound) w_i|"},
    {"infeasibility", "max bound violation of z"},
    {"zdiff", "||z - zref||_inf / max(1, ||zref||_inf) (NaN without zref)"},
    {"wdiff", "the same in w"},
    {NULL, NULL},
};
static PyStructSequence_Desc score_desc = {"lcpbench.Score",
                                           "lcpbench score's figures of z or of iterates",
                                           score_fields, 7};

static PyStructSequence_Field solver_fields[] = {
    {"name", "registry name (solve's solver=)"},
    {"description", "one line"},
    {"needs", "words: factors, symmetric (needed); box, findex (supported); dense, direct, "
              "factored"},
    {NULL, NULL},
};
static PyStructSequence_Desc solver_desc = {"lcpbench.Solver", "a registered solver",
                                            solver_fields, 3};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lcpbench",
    .m_doc = "lcpbench: LCP solvers (PGS/SOR, Jacobi, AMGS, block PGS, Dantzig, an exact\n"
             "pivoting reference and the peers) on NumPy and SciPy data.  lcp/python/README.md.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit_lcpbench(void); /* the module's one exported symbol */
PyMODINIT_FUNC PyInit_lcpbench(void)
{
    import_array();
    if (!getenv("OPENBLAS_NUM_THREADS")) openblas_set_num_threads(1); /* as lcpbench's main */
    if (PyType_Ready(&pylcp_problem_type) < 0) return NULL;
    if (!pylcp_result_type.tp_name &&
        (PyStructSequence_InitType2(&pylcp_result_type, &result_desc) < 0 ||
         PyStructSequence_InitType2(&pylcp_residuals_type, &residual_desc) < 0 ||
         PyStructSequence_InitType2(&pylcp_score_type, &score_desc) < 0 ||
         PyStructSequence_InitType2(&solver_type, &solver_desc) < 0))
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (!pylcp_error)
        pylcp_error = PyErr_NewExceptionWithDoc(
            "lcpbench.Error",
            "An error of lcpbench: .status is the library's status name (inconsistent,\n"
            "bad-format, zero-diagonal, ...), .code its lcp_status value; a failed solve\n"
            "also has .row and .iterations.",
            PyExc_ValueError, NULL);
    if (!pylcp_error || PyModule_AddObjectRef(m, "Error", pylcp_error) < 0 ||
        PyModule_AddObjectRef(m, "Problem", (PyObject *)&pylcp_problem_type) < 0 ||
        PyModule_AddObjectRef(m, "Result", (PyObject *)&pylcp_result_type) < 0 ||
        PyModule_AddObjectRef(m, "Residuals", (PyObject *)&pylcp_residuals_type) < 0 ||
        PyModule_AddObjectRef(m, "Score", (PyObject *)&pylcp_score_type) < 0 ||
        PyModule_AddObjectRef(m, "Solver", (PyObject *)&solver_type) < 0 ||
        PyModule_AddStringConstant(m, "__version__", LCPBENCH_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
