/* solve.c: lcpbench.solve and lcpbench.residual.
 *
 *   solve(problem, solver="pgs", *, z0=None, history=True, check=True, **settings) -> Result
 *   residual(problem, z) -> Residuals
 *
 * The settings are the harness's table (bench/kit/settings.c, `lcpbench list settings'):
 * tol, maxit, omega ("auto"), beta, gamma, order, seed, threads, form, precision, warm,
 * warm_scale, every; a value is read by the table's own reader (numbers as Python writes them, or text:
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
 * A SOLVER OF YOUR OWN: sweep=f (no solver named) runs f(z, k), which updates z in place
 * (k = 1, 2, ...), as the sweep of the library's one loop, lcp_iterate, the GIL held: its
 * starting point mid(lo, 0, hi) (or the warm start), the stopping test ||r||_2 <= tol on
 * lcp_residual, the NaN and divergence checks, the history recorded as above.  Its name is
 * "python", an iterative solver: tol, maxit and warm apply, other settings are refused.
 * An exception of f stops the loop and propagates.
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
                        double t, double tol)
{
    PyObject *r = PyStructSequence_New(&pylcp_result_type);
    const char *status = lcp_status_str(info->status);
    if (info->status >= 0 && bench_judged(s->name, 0))   /* a peer's answer: judged by its
                                                             residual, as lcpbench does */
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
    PyObject *fn;    /* sweep(z, k): updates z (a float64 array of m entries) in place */
    PyObject *z;     /* the Result's z, the loop's iterate */
    int failed;      /* the callback raised: its exception is pending */
} pysweep;

static lcp_status py_sweep(void *ctx, int sweep, double *z, int *row)
{
    pysweep *c = ctx;
    PyArrayObject *za = (PyArrayObject *)c->z;
    PyObject *arg = z == PyArray_DATA(za) ? Py_NewRef(c->z)
                                          : pylcp_array_copy(z, (int)PyArray_SIZE(za));
    PyObject *r = arg ? PyObject_CallFunction(c->fn, "Oi", arg, sweep) : NULL;
    if (r && arg != c->z)                              /* a loop buffer of its own: back */
        memcpy(z, PyArray_DATA((PyArrayObject *)arg), (size_t)PyArray_SIZE(za) * sizeof(double));
    Py_XDECREF(arg);
    if (!r) {
        c->failed = 1;
        return LCP_ERR_ARG;
    }
    Py_DECREF(r);
    return LCP_OK;
}

/* the registry entry a Python sweep is checked and named by: an iterative solver (tol,
 * maxit, warm apply) with no solve of its own */
static const lcp_solver python_solver = {"python", "a Python sweep through lcp_iterate", 0,
                                         NULL, NULL, NULL};

PyObject *pylcp_solve(PyObject *self, PyObject *args, PyObject *kw)
{
    PyObject *sweep = NULL;
    PyObject *pobj = NULL, *z0 = NULL;
    const char *name = "pgs";
    int hist = 1, check = 1;
    if (!PyArg_ParseTuple(args, "O!|s:solve", &pylcp_problem_type, &pobj, &name)) return NULL;
    const lcp_problem *P = &((pylcp_problem *)pobj)->P;
    bench_settings set;
    bench_settings_default(&set);
    int *perm = NULL, rc = 0;
    PyObject *key, *v;
    Py_ssize_t pos = 0;
    while (rc == 0 && kw && PyDict_Next(kw, &pos, &key, &v)) {
        const char *k = PyUnicode_AsUTF8(key);
        if (!k) rc = -1;
        else if (!strcmp(k, "solver")) {
            name = PyTuple_GET_SIZE(args) > 1 ? NULL : PyUnicode_Check(v) ? PyUnicode_AsUTF8(v)
                                                                            : NULL;
            if (!name) {
                pylcp_raise(LCP_ERR_ARG, "solver: given twice, or not a str");
                rc = -1;
            }
        } else if (!strcmp(k, "z0")) z0 = v == Py_None ? NULL : v;
        else if (!strcmp(k, "sweep")) sweep = v == Py_None ? NULL : v;
        else if (!strcmp(k, "history")) rc = (hist = PyObject_IsTrue(v)) < 0 ? -1 : 0;
        else if (!strcmp(k, "check")) rc = (check = PyObject_IsTrue(v)) < 0 ? -1 : 0;
        else rc = setting(k, v, P->m, &set, &perm);
    }
    if (rc == 0 && sweep && (!PyCallable_Check(sweep) || PyTuple_GET_SIZE(args) > 1 ||
                             (kw && PyDict_GetItemString(kw, "solver")))) {
        pylcp_raise(LCP_ERR_ARG, "sweep: a callable sweep(z, k), and no solver beside it");
        rc = -1;
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
        else out = result(s, &info, z, w, &R, &rec, zdiff, wdiff, t, bench_settings_tol(&set));
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
