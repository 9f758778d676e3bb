/* solve.c: lcpbench.solve, residual, and your own solver: run_sweeps, run_solver, score.
 *
 *   solve(problem, solver="pgs", *, z0=None, history=True, check=True, **settings) -> Result
 *   residual(problem, z) -> Residuals
 *   run_sweeps(problem, sweep, ...), run_solver(problem, solve, ...) -> Result
 *   score(problem, z) -> Score
 *
 * The settings are the harness's table (bench/kit/settings.c, `lcpbench list settings'):
 * tol, maxit, omega ("auto"), beta, gamma, order, seed, threads, form, precision, warm,
 * warm_scale, every and the families' (restart, ..., relax); a value is read by the table's
 * own reader (numbers as Python writes them, or text:
 * "4/3", "auto", "random"), so the checks and the messages are those of `lcpbench solve'
 * (without its "lcpbench solve: " prefix): "--omega: '3' is not a number in (0,2)",
 * "pgs-block does not use --omega (lcpbench list settings)".  The harness's own settings
 * (reps, timeout, plot, label) are not the solver's and are refused.  order may also be a
 * sequence of m rows (the CLI's perm:FILE).  z0 starts the solve from an array (warm=1 from
 * the problem's z0).
 *
 * The solve is `lcpbench solve''s recording run (bench/grid/measure.c): z starts at 0 (or a
 * copy of the warm start), lcp_solve with a monitor that takes the residual ||r||_2 and
 * ||r||_inf of every iterate with lcp_residual_ws (its workspace allocated once), then the
 * residuals of the answer from lcp_residual_ws: the same z bit for bit, the same history;
 * a direct solver's history is one point.  The GIL is released from the start of the solve
 * to the final residual.  time_s is the wall time of lcp_solve, with the monitor's
 * residuals when history=True (use history=False to time the solve alone).
 * An error status raises lcpbench.Error (status, row, iterations) unless check=False, which
 * returns the Result with that status (residuals NaN).
 *
 * YOUR OWN SOLVER (lcp/python/README.md, "Check your own solver"):
 *   run_sweeps(problem, sweep, **settings): sweep(z) -> z (or None after updating z in
 *     place) is the sweep of the library's one loop, lcp_iterate, the GIL held: its start
 *     mid(lo, 0, hi) (or the warm start), the stopping test ||r||_2 <= tol on lcp_residual,
 *     the NaN and divergence checks, the history recorded as above.  Its name is "python",
 *     an iterative solver: tol, maxit and warm apply, other settings are refused.  An
 *     exception of sweep stops the loop and propagates.
 *   run_solver(problem, solve, tol=, history=True): solve(problem) -> z, or its iterates
 *     (K x m, the last row the answer), called once and timed; every row scored as
 *     `lcpbench score' scores an answer (bench/cmd/score.c: lcp_residual and
 *     lcp_ref_distance), the status the verdict bench_residual_status(||r||_2, tol) that
 *     lcpbench gives a peer's answer.
 *   score(problem, z): those figures of z (floats) or of iterates K x m (arrays of K).
 */
#include "pylcp.h"

#include "kit.h"

#include <math.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

typedef struct recorder {
    const lcp_problem *P;
    double *w, *work; /* lcp_residual_ws's: m and nwork doubles */
    size_t nwork;
    int n, cap, failed;
    int *iter;
    double *r2, *rinf;
} recorder;

static void push(recorder *r, int it, double r2, double rinf)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 256;
        int *i = lcp_realloc(r->iter, (size_t)cap, sizeof(int));
        if (i) r->iter = i;
        double *a = lcp_realloc(r->r2, (size_t)cap, sizeof(double));
        if (a) r->r2 = a;
        double *b = lcp_realloc(r->rinf, (size_t)cap, sizeof(double));
        if (b) r->rinf = b;
        if (!i || !a || !b) {
            r->failed = 1;
            return;
        }
        r->cap = cap;
    }
    r->iter[r->n] = it;
    r->r2[r->n] = r2;
    r->rinf[r->n] = rinf;
    r->n++;
}

static void record(void *ctx, int iteration, const double *z)
{
    recorder *r = ctx;
    lcp_residuals R;
    lcp_residual_ws(r->P, z, r->w, r->work, r->nwork, &R);
    push(r, iteration, R.r2, R.rinf);
}

/* ---- the settings -------------------------------------------------------------------- */

/* value as the text `lcpbench solve' would be given: str as it is, bool 0/1, int and float
 * as Python writes them (repr: the shortest text that reads back as the same double) */
static PyObject *setting_text(PyObject *v)
{
    if (PyUnicode_Check(v)) return Py_NewRef(v);
    if (PyBool_Check(v)) return PyUnicode_FromString(v == Py_True ? "1" : "0");
    if (PyLong_Check(v) || PyFloat_Check(v)) return PyObject_Repr(v);
    PyObject *f = PyNumber_Check(v) ? PyNumber_Float(v) : NULL;  /* numpy scalars */
    PyObject *t = f ? PyObject_Repr(f) : NULL;
    Py_XDECREF(f);
    return t;
}

/* order given as rows: *perm (lcp_malloc) of m entries, validated by the library */
static int order_rows(PyObject *v, int m, bench_settings *set, const bench_setting *t,
                      int **perm)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(v, NPY_INT64, 1, 1, NPY_ARRAY_CARRAY_RO);
    if (!a) {
        PyErr_Clear();
        pylcp_raise(LCP_ERR_ARG, "--order: neither a name nor a sequence of rows");
        return -1;
    }
    int rc = PyArray_SIZE(a) == m ? 0 : -1;
    if (rc) pylcp_raise(LCP_ERR_ARG, "--order: %zd rows, not %d", (Py_ssize_t)PyArray_SIZE(a), m);
    const int64_t *r = PyArray_DATA(a);
    for (int i = 0; rc == 0 && i < m; i++)
        if (r[i] < 0 || r[i] >= m) {
            pylcp_raise(LCP_ERR_ARG, "--order: entry %d: %lld is not a row 0..%d", i + 1,
                        (long long)r[i], m - 1);
            rc = -1;
        }
    *perm = rc == 0 ? lcp_malloc((size_t)m, sizeof(int)) : NULL;
    if (rc == 0 && !*perm) {
        pylcp_raise(LCP_ERR_NOMEM, "--order: out of memory");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < m; i++) (*perm)[i] = (int)r[i];
    Py_DECREF(a);
    if (rc == 0) {
        set->opt.order = LCP_ORDER_PERM;
        set->opt.perm = *perm;
        set->perm_rows = m;
        set->given |= 1ull << (t - bench_settings_table(NULL));
    }
    return rc;
}

/* one keyword of solve() into set: 0, or -1 with an Error */
static int setting(const char *key, PyObject *v, int m, bench_settings *set, int **perm)
{
    const bench_setting *t = bench_setting_find(key);
    if (!t || strcmp(t->key, key)) {
        pylcp_raise(LCP_ERR_ARG, "unknown setting '%s' (lcpbench list settings)", key);
        return -1;
    }
    if (t->at + t->size > offsetof(bench_settings, opt) + sizeof(lcp_options)) {
        pylcp_raise(LCP_ERR_ARG, "%s is a setting of the harness (lcpbench solve), not of "
                    "the solver", key);
        return -1;
    }
    if (v == Py_None) return 0;                          /* the default */
    if (!strcmp(key, "order") && !PyUnicode_Check(v)) return order_rows(v, m, set, t, perm);
    PyObject *text = setting_text(v);
    const char *s = text ? PyUnicode_AsUTF8(text) : NULL;
    char msg[512];
    int rc = 0;
    if (!s) {
        PyErr_Clear();
        pylcp_raise(LCP_ERR_ARG, "%s: not a number nor a word", t->flag);
        rc = -1;
    } else if (bench_setting_set(set, t, s, msg, sizeof msg) != 0) {
        pylcp_raise(LCP_ERR_ARG, "%s: %s", t->flag, msg);
        rc = -1;
    }
    Py_XDECREF(text);
    return rc;
}

/* ---- the result ---------------------------------------------------------------------- */

static PyObject *int_array(const int *v, int n)
{
    npy_intp dim = n;
    PyObject *a = PyArray_SimpleNew(1, &dim, NPY_INT32);
    if (a && n > 0) memcpy(PyArray_DATA((PyArrayObject *)a), v, (size_t)n * sizeof(int));
    return a;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Result(solver, status, z, w, iterations, work, residual, residual_inf, rel_residual,
 *        history, history_inf, history_iterations, zdiff, wdiff, row, form, omega, pivots,
 *        time_s) */
static PyObject *result(const lcp_solver *s, const lcp_info *info, PyObject *z, PyObject *w,
                        const lcp_residuals *R, const recorder *rec, double zdiff, double wdiff,
                        double t, double tol, int judged)
{
    PyObject *r = PyStructSequence_New(&pylcp_result_type);
    const char *status = lcp_status_str(info->status);
    if (info->status >= 0 && judged)   /* a peer's or a Python solve's answer: judged by its
                                          residual, as lcpbench judges them */
        status = bench_residual_status(R->r2, tol);
    PyObject *items[] = {
        PyUnicode_FromString(s->name),
        PyUnicode_FromString(status),
        Py_NewRef(z),
        Py_NewRef(w),
        PyLong_FromLong(info->iterations),
        PyFloat_FromDouble(info->work),
        PyFloat_FromDouble(R->r2),
        PyFloat_FromDouble(R->rinf),
        PyFloat_FromDouble(R->rel),
        pylcp_array_copy(rec->r2, rec->n),
        pylcp_array_copy(rec->rinf, rec->n),
        int_array(rec->iter, rec->n),
        PyFloat_FromDouble(zdiff),
        PyFloat_FromDouble(wdiff),
        PyLong_FromLong(info->row),
        PyUnicode_FromString(lcp_form_name(info->form)),
        PyFloat_FromDouble(info->omega),
        PyLong_FromLong(info->pivots),
        PyFloat_FromDouble(t),
    };
    enum { N = sizeof items / sizeof items[0] };
    int ok = r != NULL;
    for (int k = 0; k < N; k++) ok = ok && items[k];
    for (int k = 0; k < N; k++) {
        if (ok) PyStructSequence_SetItem(r, k, items[k]);   /* steals */
        else Py_XDECREF(items[k]);
    }
    if (!ok) Py_CLEAR(r);
    return r;
}

static PyObject *solve_error(const lcp_solver *s, const lcp_info *info)
{
    PyObject *type = NULL, *val = NULL, *tb = NULL;
    if (info->row >= 0)
        pylcp_raise(info->status, "%s: %s at row %d after %d iterations", s->name,
                    lcp_status_str(info->status), info->row, info->iterations);
    else
        pylcp_raise(info->status, "%s: %s after %d iterations", s->name,
                    lcp_status_str(info->status), info->iterations);
    PyErr_Fetch(&type, &val, &tb);
    PyErr_NormalizeException(&type, &val, &tb);
    PyObject *row = PyLong_FromLong(info->row), *it = PyLong_FromLong(info->iterations);
    if (val && row && it) {
        PyObject_SetAttrString(val, "row", row);
        PyObject_SetAttrString(val, "iterations", it);
    }
    Py_XDECREF(row);
    Py_XDECREF(it);
    PyErr_Restore(type, val, tb);
    return NULL;
}

/* ---- a Python sweep through the library's loop (lcp_iterate) ---------------------------- */

typedef struct pysweep {
    PyObject *fn;    /* sweep(z) -> z or None: one sweep, z a float64 array of m entries */
    PyObject *z;     /* the Result's z, the loop's iterate */
    int failed;      /* the callback raised (or returned a wrong array): an exception pending */
} pysweep;

static lcp_status py_sweep(void *ctx, int sweep, double *z, int *row)
{
    (void)sweep;
    (void)row;
    pysweep *c = ctx;
    PyArrayObject *za = (PyArrayObject *)c->z;
    npy_intp m = PyArray_SIZE(za);
    PyObject *arg = z == PyArray_DATA(za) ? Py_NewRef(c->z) : pylcp_array_copy(z, (int)m);
    PyObject *r = arg ? PyObject_CallOneArg(c->fn, arg) : NULL;
    PyArrayObject *ret = r && r != Py_None ? pylcp_vector(r, "sweep's answer", (int)m, 0) : NULL;
    const double *src = ret ? PyArray_DATA(ret) : r == Py_None ? PyArray_DATA((PyArrayObject *)arg)
                                                               : NULL;
    if (src && src != z) memmove(z, src, (size_t)m * sizeof(double)); /* into the loop's z */
    Py_XDECREF(ret);
    Py_XDECREF(r);
    Py_XDECREF(arg);
    if (!src) {
        c->failed = 1;
        return LCP_ERR_ARG;
    }
    return LCP_OK;
}

/* the registry entry a Python sweep is checked and named by: an iterative solver (tol,
 * maxit, warm apply) with no solve of its own */
static const lcp_solver python_solver = {"python", "a Python sweep through lcp_iterate", 0,
                                         NULL, NULL, NULL};

static PyObject *run(PyObject *pobj, const char *name, int named, PyObject *sweep, PyObject *kw);

PyObject *pylcp_run_sweeps(PyObject *self, PyObject *args, PyObject *kw)
{
    PyObject *pobj = NULL, *sweep = NULL;
    if (!PyArg_ParseTuple(args, "O!O:run_sweeps", &pylcp_problem_type, &pobj, &sweep))
        return NULL;
    if (!PyCallable_Check(sweep))
        return pylcp_raise(LCP_ERR_ARG, "run_sweeps: sweep is not callable: sweep(z) -> z");
    return run(pobj, NULL, 0, sweep, kw);
}

PyObject *pylcp_solve(PyObject *self, PyObject *args, PyObject *kw)
{
    PyObject *pobj = NULL;
    const char *name = "pgs";
    if (!PyArg_ParseTuple(args, "O!|s:solve", &pylcp_problem_type, &pobj, &name)) return NULL;
    return run(pobj, name, PyTuple_GET_SIZE(args) > 1, NULL, kw);
}

/* solve (sweep NULL: the solver `name', named = 1 when given by position) or run_sweeps */
static PyObject *run(PyObject *pobj, const char *name, int named, PyObject *sweep, PyObject *kw)
{
    PyObject *z0 = NULL;
    int hist = 1, check = 1;
    const lcp_problem *P = &((pylcp_problem *)pobj)->P;
    bench_settings set;
    bench_settings_default(&set);
    int *perm = NULL, rc = 0;
    PyObject *key, *v;
    Py_ssize_t pos = 0;
    while (rc == 0 && kw && PyDict_Next(kw, &pos, &key, &v)) {
        const char *k = PyUnicode_AsUTF8(key);
        if (!k) rc = -1;
        else if (!strcmp(k, "solver") && !sweep) {
            name = named ? NULL : PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
            if (!name) {
                pylcp_raise(LCP_ERR_ARG, "solver: given twice, or not a str");
                rc = -1;
            }
        } else if (!strcmp(k, "solver")) {
            pylcp_raise(LCP_ERR_ARG, "run_sweeps: the sweep is the solver (no solver=)");
            rc = -1;
        } else if (!strcmp(k, "z0")) z0 = v == Py_None ? NULL : v;
        else if (!strcmp(k, "history")) rc = (hist = PyObject_IsTrue(v)) < 0 ? -1 : 0;
        else if (!strcmp(k, "check")) rc = (check = PyObject_IsTrue(v)) < 0 ? -1 : 0;
        else rc = setting(k, v, P->m, &set, &perm);
    }
    const lcp_solver *s = rc == 0 ? sweep ? &python_solver : bench_solver_find(name) : NULL;
    if (rc == 0 && !s) {
        pylcp_raise(LCP_ERR_ARG, "unknown solver '%s' (lcpbench.solvers())", name);
        rc = -1;
    }
    const bench_setting *unused = rc == 0 ? bench_settings_unused(&set, s) : NULL;
    if (unused) {
        pylcp_raise(LCP_ERR_ARG, "%s does not use %s (lcpbench list settings)", s->name,
                    unused->flag);
        rc = -1;
    }
    PyArrayObject *start = NULL;
    if (rc == 0 && z0) {
        start = pylcp_vector(z0, "z0", P->m, 0);
        rc = start ? 0 : -1;
        set.opt.warm = 1;
    }
    if (rc == 0 && set.opt.warm && !start && !P->z0) {
        pylcp_raise(LCP_ERR_ARG, "warm=1 needs z0.mtx (the problem's z0, or solve's z0=)");
        rc = -1;
    }
    npy_intp m = P->m;
    PyObject *z = rc == 0 ? PyArray_ZEROS(1, &m, NPY_DOUBLE, 0) : NULL;
    PyObject *w = z ? PyArray_SimpleNew(1, &m, NPY_DOUBLE) : NULL;
    recorder rec = {.P = P};
    rec.nwork = lcp_residual_work(P);
    rec.w = w ? lcp_malloc((size_t)m, sizeof(double)) : NULL;
    rec.work = w && rec.nwork ? lcp_malloc(rec.nwork, sizeof(double)) : NULL;
    if (rc == 0 && (!w || !rec.w || (rec.nwork && !rec.work))) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        rc = -1;
    }
    PyObject *out = NULL;
    if (rc == 0) {
        double *zd = PyArray_DATA((PyArrayObject *)z), *wd = PyArray_DATA((PyArrayObject *)w);
        const double *zs = start ? PyArray_DATA(start) : set.opt.warm ? P->z0 : NULL;
        lcp_options o = set.opt;
        if (hist) {
            o.monitor = record;
            o.monitor_ctx = &rec;
        }
        lcp_info info;
        lcp_info_init(&info);
        lcp_residuals R = {NAN, NAN, NAN, NAN, NAN};
        double zdiff = NAN, wdiff = NAN, t;
        pysweep ps = {.fn = sweep, .z = z};
        if (sweep) {                                   /* the GIL held: Python runs the sweep */
            if (zs) memcpy(zd, zs, (size_t)m * sizeof(double));
            t = seconds();
            lcp_iterate(P, &o, py_sweep, &ps, zd, &info);
            t = seconds() - t;
        }
        Py_BEGIN_ALLOW_THREADS
        if (!sweep) {
            if (zs) memcpy(zd, zs, (size_t)m * sizeof(double));
            t = seconds();
            lcp_solve(s, P, &o, zd, &info);
            t = seconds() - t;
        }
        if (info.status >= 0) {
            lcp_residual_ws(P, zd, wd, rec.work, rec.nwork, &R);    /* the harness's own */
            if (P->zref) lcp_ref_distance(P, zd, &zdiff, &wdiff);
            if (hist && (s->needs & LCP_DIRECT) && rec.n == 0)
                push(&rec, info.iterations, R.r2, R.rinf);            /* one point */
        } else {
            for (npy_intp i = 0; i < m; i++) wd[i] = NAN;
        }
        Py_END_ALLOW_THREADS
        if (ps.failed) (void)0;                        /* the sweep's own exception */
        else if (rec.failed) pylcp_raise(LCP_ERR_NOMEM, "%s: the history: out of memory", s->name);
        else if (info.status < 0 && check) solve_error(s, &info);
        else out = result(s, &info, z, w, &R, &rec, zdiff, wdiff, t, bench_settings_tol(&set),
                         bench_judged(s->name, 0));
    }
    Py_XDECREF(z);
    Py_XDECREF(w);
    Py_XDECREF(start);
    lcp_free(perm);
    lcp_free(rec.w);
    lcp_free(rec.work);
    lcp_free(rec.iter);
    lcp_free(rec.r2);
    lcp_free(rec.rinf);
    return out;
}

PyObject *pylcp_residual(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"problem", "z", NULL};
    PyObject *pobj = NULL, *zobj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O:residual", names, &pylcp_problem_type, &pobj,
                                     &zobj))
        return NULL;
    const lcp_problem *P = &((pylcp_problem *)pobj)->P;
    PyArrayObject *z = pylcp_vector(zobj, "z", P->m, 0);
    npy_intp m = P->m;
    PyObject *w = z ? PyArray_SimpleNew(1, &m, NPY_DOUBLE) : NULL;
    size_t nwork = lcp_residual_work(P);
    double *work = w && nwork ? lcp_malloc(nwork, sizeof(double)) : NULL;
    PyObject *r = w && (!nwork || work) ? PyStructSequence_New(&pylcp_residuals_type) : NULL;
    if (w && nwork && !work) PyErr_NoMemory();
    if (r) {
        lcp_residuals R;
        double zdiff = NAN, wdiff = NAN;
        Py_BEGIN_ALLOW_THREADS
        lcp_residual_ws(P, PyArray_DATA(z), PyArray_DATA((PyArrayObject *)w), work, nwork, &R);
        if (P->zref) lcp_ref_distance(P, PyArray_DATA(z), &zdiff, &wdiff);
        Py_END_ALLOW_THREADS
        const double v[] = {R.r2, R.rinf, R.rel, R.comp, R.infeas, zdiff, wdiff};
        int ok = 1;
        for (int k = 0; k < 7; k++) {
            PyObject *f = PyFloat_FromDouble(v[k]);
            ok = ok && f;
            if (f) PyStructSequence_SetItem(r, k, f);        /* steals */
        }
        PyStructSequence_SetItem(r, 7, Py_NewRef(w));
        if (!ok) Py_CLEAR(r);
    }
    lcp_free(work);
    Py_XDECREF(w);
    Py_XDECREF(z);
    return r;
}

/* ---- score(problem, z) and run_solver(problem, solve): answers from Python, scored -------- */

enum { NSCORE = 7 };

/* The figures of `lcpbench score' (bench/cmd/score.c) for K iterates Z (K x m, row-major)
 * into out[f][k]: ||r||_2, ||r||_inf, ||r||_2 / max(1, ||q||_2), complementarity, bound
 * violation (lcp_residual_ws: the same numbers as lcp_residual bit for bit), zdiff, wdiff
 * (lcp_ref_distance; NaN without zref).  w: m doubles, the last row's A z + q at return. */
static void score_rows(const lcp_problem *P, const double *Z, npy_intp K, double *w,
                       double *work, size_t nwork, double *const out[NSCORE])
{
    for (npy_intp k = 0; k < K; k++) {
        const double *z = Z + (size_t)k * (size_t)P->m;
        lcp_residuals R;
        double zd = NAN, wd = NAN;
        lcp_residual_ws(P, z, w, work, nwork, &R);
        if (P->zref) lcp_ref_distance(P, z, &zd, &wd);
        const double v[NSCORE] = {R.r2, R.rinf, R.rel, R.comp, R.infeas, zd, wd};
        for (int f = 0; f < NSCORE; f++) out[f][k] = v[f];
    }
}

/* Z as a C-contiguous float64 array of K x m (a 1-D z of m: K = 1), or NULL with an Error */
static PyArrayObject *iterates(PyObject *obj, const char *what, int m, npy_intp *K)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 1, 2,
                                                        NPY_ARRAY_CARRAY_RO);
    if (!a) {
        PyErr_Clear();
        return (PyArrayObject *)pylcp_raise(LCP_ERR_ARG, "%s: not z (m reals) nor iterates "
                                            "(K x m reals)", what);
    }
    int nd = PyArray_NDIM(a);
    npy_intp cols = PyArray_DIM(a, nd - 1);
    *K = nd == 1 ? 1 : PyArray_DIM(a, 0);
    if (cols != m || *K < 1) {
        pylcp_raise(LCP_ERR_INCONSISTENT, "%s: %zd x %zd, the problem has m = %d", what,
                    (Py_ssize_t)*K, (Py_ssize_t)cols, m);
        Py_CLEAR(a);
    }
    return a;
}

PyObject *pylcp_score(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"problem", "z", NULL};
    PyObject *pobj = NULL, *zobj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O:score", names, &pylcp_problem_type, &pobj,
                                     &zobj))
        return NULL;
    const lcp_problem *P = &((pylcp_problem *)pobj)->P;
    npy_intp K = 0;
    PyArrayObject *Z = iterates(zobj, "z", P->m, &K);
    if (!Z) return NULL;
    int one = PyArray_NDIM(Z) == 1;
    PyObject *cols[NSCORE] = {NULL};
    double *out[NSCORE];
    int ok = 1;
    for (int f = 0; f < NSCORE; f++) {
        cols[f] = PyArray_SimpleNew(1, &K, NPY_DOUBLE);
        ok = ok && cols[f];
        out[f] = cols[f] ? PyArray_DATA((PyArrayObject *)cols[f]) : NULL;
    }
    size_t nwork = lcp_residual_work(P);
    double *w = ok ? lcp_malloc((size_t)P->m + 1, sizeof(double)) : NULL;
    double *work = w && nwork ? lcp_malloc(nwork, sizeof(double)) : NULL;
    PyObject *r = w && (!nwork || work) ? PyStructSequence_New(&pylcp_score_type) : NULL;
    if (ok && !r && !PyErr_Occurred()) PyErr_NoMemory();
    if (r) {
        Py_BEGIN_ALLOW_THREADS
        score_rows(P, PyArray_DATA(Z), K, w, work, nwork, out);
        Py_END_ALLOW_THREADS
        for (int f = 0; f < NSCORE; f++) {
            PyObject *v = one ? PyFloat_FromDouble(out[f][0]) : Py_NewRef(cols[f]);
            if (!v) ok = 0;
            else PyStructSequence_SetItem(r, f, v);            /* steals */
        }
        if (!ok) Py_CLEAR(r);
    }
    for (int f = 0; f < NSCORE; f++) Py_XDECREF(cols[f]);
    lcp_free(w);
    lcp_free(work);
    Py_DECREF(Z);
    return r;
}

/* the registry entry a Python solve is named and judged by: one answer, no sweeps of ours */
static const lcp_solver python_solve = {"python", "a Python solve scored by the harness",
                                        LCP_DIRECT, NULL, NULL, NULL};

PyObject *pylcp_run_solver(PyObject *self, PyObject *args, PyObject *kw)
{
    PyObject *pobj = NULL, *fn = NULL;
    if (!PyArg_ParseTuple(args, "O!O:run_solver", &pylcp_problem_type, &pobj, &fn)) return NULL;
    const lcp_problem *P = &((pylcp_problem *)pobj)->P;
    if (!PyCallable_Check(fn))
        return pylcp_raise(LCP_ERR_ARG, "run_solver: solve is not callable: solve(problem) -> z");
    bench_settings set;
    bench_settings_default(&set);
    int hist = 1, rc = 0, *perm = NULL;
    PyObject *key, *v;
    Py_ssize_t pos = 0;
    while (rc == 0 && kw && PyDict_Next(kw, &pos, &key, &v)) {
        const char *k = PyUnicode_AsUTF8(key);
        if (!k) rc = -1;
        else if (!strcmp(k, "tol")) rc = setting(k, v, P->m, &set, &perm);
        else if (!strcmp(k, "history")) rc = (hist = PyObject_IsTrue(v)) < 0 ? -1 : 0;
        else {
            pylcp_raise(LCP_ERR_ARG, "run_solver: unknown keyword '%s' (tol, history)", k);
            rc = -1;
        }
    }
    lcp_free(perm);
    if (rc) return NULL;
    double t = seconds();
    PyObject *ans = PyObject_CallOneArg(fn, pobj);
    t = seconds() - t;
    if (!ans) return NULL;                                   /* its exception */
    npy_intp K = 0, m = P->m;
    PyArrayObject *Z = iterates(ans, "solve's answer", P->m, &K);
    Py_DECREF(ans);
    if (!Z) return NULL;
    npy_intp first = hist ? 0 : K - 1, n = K - first;          /* the rows scored */
    PyObject *z = pylcp_array_copy((const double *)PyArray_DATA(Z) + (size_t)(K - 1) * (size_t)m,
                                   (int)m);
    PyObject *w = z ? PyArray_SimpleNew(1, &m, NPY_DOUBLE) : NULL;
    double *col = w ? lcp_malloc((size_t)(NSCORE * n), sizeof(double)) : NULL;
    size_t nwork = lcp_residual_work(P);
    double *work = col && nwork ? lcp_malloc(nwork, sizeof(double)) : NULL;
    recorder rec = {.P = P};
    PyObject *out = NULL;
    if (w && (!col || (nwork && !work))) PyErr_NoMemory();
    else if (w) {
        double *o[NSCORE];
        for (int f = 0; f < NSCORE; f++) o[f] = col + (size_t)f * (size_t)n;
        Py_BEGIN_ALLOW_THREADS
        score_rows(P, (const double *)PyArray_DATA(Z) + (size_t)first * (size_t)m, n,
                   PyArray_DATA((PyArrayObject *)w), work, nwork, o);
        Py_END_ALLOW_THREADS
        for (npy_intp k = 0; hist && k < n; k++) push(&rec, (int)(first + k + 1), o[0][k], o[1][k]);
        lcp_info info;
        lcp_info_init(&info);
        info.status = LCP_OK;
        info.iterations = (int)K;
        info.work = NAN;
        info.row = -1;
        lcp_residuals R = {o[0][n - 1], o[1][n - 1], o[2][n - 1], o[3][n - 1], o[4][n - 1]};
        if (rec.failed) pylcp_raise(LCP_ERR_NOMEM, "run_solver: the history: out of memory");
        else out = result(&python_solve, &info, z, w, &R, &rec, o[5][n - 1], o[6][n - 1], t,
                          bench_settings_tol(&set), 1);
    }
    Py_XDECREF(z);
    Py_XDECREF(w);
    Py_DECREF(Z);
    lcp_free(col);
    lcp_free(work);
    lcp_free(rec.iter);
    lcp_free(rec.r2);
    lcp_free(rec.rinf);
    return out;
}
