/* problem.c: lcpbench.Problem, an LCP  w = A z + q,  lo <= z <= hi  (findex: friction
 * coupling) built from Python objects, and its write().
 *
 *   Problem(A, q, lo=None, hi=None, findex=None, J=None, Minv=None, E=None, z0=None)
 *
 * A (and J, Minv): a scipy.sparse matrix in CSR or CSC (its indptr, indices, data read
 * directly; another sparse format through its .tocsr()), or anything NumPy reads as a 2-D
 * array (dense: entries equal to 0 are not stored, as the instance reader does with a dense
 * Matrix Market file).  Duplicates of a sparse matrix are summed (SciPy's meaning), explicit
 * zeros kept; the library's CSR is built by lcp_csr_from_triplets (rows sorted).  A may be
 * None when J and Minv are given: A = J Minv J^T + diag(E).  Vectors: shape (m,), (m,1) or
 * (1,m) (what scipy.io.mmread returns); lo and hi also a scalar.  findex: integers, -1 for
 * none.  Then lcp_problem_check, the reader's own checks (finite values, square A, lo <= hi,
 * findex in range and at uncoupled rows, factor sizes, A = J Minv J^T + diag(E)), names the
 * first problem in an lcpbench.Error.
 * Cost: O(nnz) and one copy of every array.
 */
#include "pylcp.h"

#include "lcp_alloc.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* The NumPy array of obj's attribute `attr' as `type', 1-D; NULL with an Error. */
static PyArrayObject *attr_array(PyObject *obj, const char *attr, int type, const char *name)
{
    PyObject *a = PyObject_GetAttrString(obj, attr);
    if (!a) {
        PyErr_Clear();
        return (PyArrayObject *)pylcp_raise(LCP_ERR_ARG, "%s: a sparse matrix without %s", name,
                                            attr);
    }
    PyArrayObject *r = (PyArrayObject *)PyArray_FROMANY(a, type, 1, 1, NPY_ARRAY_CARRAY_RO);
    Py_DECREF(a);
    if (!r) {
        PyErr_Clear();
        return (PyArrayObject *)pylcp_raise(LCP_ERR_ARG, "%s: %s is not a 1-D array of %s", name,
                                            attr, type == NPY_DOUBLE ? "reals" : "integers");
    }
    return r;
}

/* M from nnz 0-based triplets (duplicates summed), when st is LCP_OK; ti and tj freed */
static lcp_status csr_of(lcp_status st, const char *name, lcp_csr *M, npy_intp nr, npy_intp nc,
                         npy_intp nnz, int *ti, int *tj, const double *tx)
{
    if (st == LCP_OK) {
        st = lcp_csr_from_triplets(M, (int)nr, (int)nc, (int)nnz, ti, tj, tx);
        if (st != LCP_OK) pylcp_raise(st, "%s: out of memory", name);
    }
    lcp_free(ti);
    lcp_free(tj);
    return st;
}

/* A scipy.sparse matrix in CSR (csc = 0) or CSC (csc = 1) into M: triplets, then the
 * library's CSR.  Checked: shape, indptr from 0 and non-decreasing, indices in range. */
static lcp_status from_compressed(PyObject *obj, int csc, const char *name, lcp_csr *M)
{
    long long nr = -1, nc = -1;
    PyObject *shape = PyObject_GetAttrString(obj, "shape");
    if (!shape || !PyArg_ParseTuple(shape, "LL", &nr, &nc)) PyErr_Clear();
    Py_XDECREF(shape);
    if (nr < 0 || nc < 0 || nr > INT_MAX || nc > INT_MAX) {
        pylcp_raise(LCP_ERR_ARG, "%s: shape is not two sizes up to %d", name, INT_MAX);
        return LCP_ERR_ARG;
    }
    PyArrayObject *ptr = attr_array(obj, "indptr", NPY_INT64, name);
    PyArrayObject *ind = ptr ? attr_array(obj, "indices", NPY_INT64, name) : NULL;
    PyArrayObject *val = ind ? attr_array(obj, "data", NPY_DOUBLE, name) : NULL;
    lcp_status st = val ? LCP_OK : LCP_ERR_ARG;
    long long nmajor = csc ? nc : nr, nminor = csc ? nr : nc;
    const int64_t *p = ptr ? PyArray_DATA(ptr) : NULL, *i = ind ? PyArray_DATA(ind) : NULL;
    npy_intp nnz = 0;
    if (st == LCP_OK && PyArray_SIZE(ptr) != nmajor + 1) {
        st = LCP_ERR_INCONSISTENT;
        pylcp_raise(st, "%s: indptr has %zd entries, not %lld", name, (Py_ssize_t)PyArray_SIZE(ptr),
                    nmajor + 1);
    }
    if (st == LCP_OK) nnz = (npy_intp)p[nmajor];
    if (st == LCP_OK && (p[0] != 0 || nnz > PyArray_SIZE(ind) || nnz > PyArray_SIZE(val) ||
                         nnz > INT_MAX)) {
        st = LCP_ERR_INCONSISTENT;
        pylcp_raise(st, "%s: indptr runs from %lld to %lld over %zd indices and %zd values",
                    name, (long long)p[0], (long long)p[nmajor], (Py_ssize_t)PyArray_SIZE(ind),
                    (Py_ssize_t)PyArray_SIZE(val));
    }
    for (long long k = 0; st == LCP_OK && k < nmajor; k++)
        if (p[k + 1] < p[k]) {
            st = LCP_ERR_INCONSISTENT;
            pylcp_raise(st, "%s: indptr decreases at %lld", name, k + 1);
        }
    for (npy_intp e = 0; st == LCP_OK && e < nnz; e++)
        if (i[e] < 0 || i[e] >= nminor) {
            st = LCP_ERR_INCONSISTENT;
            pylcp_raise(st, "%s: index %lld of entry %zd is out of range 0..%lld", name,
                        (long long)i[e], (Py_ssize_t)e, nminor - 1);
        }
    int *ti = st == LCP_OK ? lcp_malloc((size_t)nnz + 1, sizeof(int)) : NULL;
    int *tj = st == LCP_OK ? lcp_malloc((size_t)nnz + 1, sizeof(int)) : NULL;
    if (st == LCP_OK && (!ti || !tj)) {
        st = LCP_ERR_NOMEM;
        pylcp_raise(st, "%s: out of memory", name);
    }
    for (long long k = 0; st == LCP_OK && k < nmajor; k++)
        for (int64_t e = p[k]; e < p[k + 1]; e++) {
            ti[e] = csc ? (int)i[e] : (int)k;                   /* row    */
            tj[e] = csc ? (int)k : (int)i[e];                   /* column */
        }
    st = csr_of(st, name, M, nr, nc, nnz, ti, tj, val ? PyArray_DATA(val) : NULL);
    Py_XDECREF(ptr);
    Py_XDECREF(ind);
    Py_XDECREF(val);
    return st;
}

/* A dense 2-D array into M, its non-zero entries (NaN included: the check then finds it) */
static lcp_status from_dense(PyObject *obj, const char *name, lcp_csr *M)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 2, 2,
                                                        NPY_ARRAY_CARRAY_RO);
    if (!a) {
        PyErr_Clear();
        pylcp_raise(LCP_ERR_ARG, "%s: neither a scipy.sparse matrix nor a 2-D array of reals",
                    name);
        return LCP_ERR_ARG;
    }
    npy_intp nr = PyArray_DIM(a, 0), nc = PyArray_DIM(a, 1);
    const double *x = PyArray_DATA(a);
    lcp_status st = LCP_OK;
    npy_intp nnz = 0;
    if (nr > INT_MAX || nc > INT_MAX) {
        st = LCP_ERR_TOO_LARGE;
        pylcp_raise(st, "%s: %zd x %zd is too large", name, (Py_ssize_t)nr, (Py_ssize_t)nc);
    }
    for (npy_intp e = 0; st == LCP_OK && e < nr * nc; e++) nnz += x[e] != 0.0;
    if (st == LCP_OK && nnz > INT_MAX) {
        st = LCP_ERR_TOO_LARGE;
        pylcp_raise(st, "%s: more than %d non-zero entries", name, INT_MAX);
    }
    int *ti = st == LCP_OK ? lcp_malloc((size_t)nnz + 1, sizeof(int)) : NULL;
    int *tj = st == LCP_OK ? lcp_malloc((size_t)nnz + 1, sizeof(int)) : NULL;
    double *tx = st == LCP_OK ? lcp_malloc((size_t)nnz + 1, sizeof(double)) : NULL;
    if (st == LCP_OK && (!ti || !tj || !tx)) {
        st = LCP_ERR_NOMEM;
        pylcp_raise(st, "%s: out of memory", name);
    }
    npy_intp k = 0;
    for (npy_intp r = 0; st == LCP_OK && r < nr; r++)
        for (npy_intp c = 0; c < nc; c++)
            if (x[r * nc + c] != 0.0) {
                ti[k] = (int)r, tj[k] = (int)c, tx[k] = x[r * nc + c];
                k++;
            }
    st = csr_of(st, name, M, nr, nc, nnz, ti, tj, tx);
    lcp_free(tx);
    Py_DECREF(a);
    return st;
}

/* obj (a scipy.sparse matrix or a dense 2-D array) into M; LCP_OK or an Error raised */
static lcp_status to_csr(PyObject *obj, const char *name, lcp_csr *M)
{
    PyObject *fmt = PyObject_GetAttrString(obj, "format");
    if (!fmt) {
        PyErr_Clear();
        return from_dense(obj, name, M);
    }
    const char *f = PyUnicode_Check(fmt) ? PyUnicode_AsUTF8(fmt) : NULL;
    lcp_status st;
    if (f && (!strcmp(f, "csr") || !strcmp(f, "csc"))) {
        st = from_compressed(obj, f[2] == 'c', name, M);
    } else if (f && PyObject_HasAttrString(obj, "tocsr")) {
        PyObject *csr = PyObject_CallMethod(obj, "tocsr", NULL);
        PyObject *cf = csr ? PyObject_GetAttrString(csr, "format") : NULL;
        int ok = cf && PyUnicode_Check(cf) && !strcmp(PyUnicode_AsUTF8(cf), "csr");
        PyErr_Clear();
        st = ok ? from_compressed(csr, 0, name, M) : LCP_ERR_ARG;
        if (!ok) pylcp_raise(st, "%s: a sparse matrix whose tocsr() gives no CSR matrix", name);
        Py_XDECREF(cf);
        Py_XDECREF(csr);
    } else {
        PyErr_Clear();
        st = from_dense(obj, name, M);
    }
    Py_DECREF(fmt);
    return st;
}

PyArrayObject *pylcp_vector(PyObject *obj, const char *name, int m, int scalar_ok)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 2,
                                                        NPY_ARRAY_CARRAY_RO);
    if (!a) {
        PyErr_Clear();
        return (PyArrayObject *)pylcp_raise(LCP_ERR_ARG, "%s: not an array of reals", name);
    }
    int nd = PyArray_NDIM(a);
    if (nd == 0 && scalar_ok) {
        double v = *(const double *)PyArray_DATA(a);
        npy_intp dim = m;
        PyArrayObject *b = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_DOUBLE);
        for (int i = 0; b && i < m; i++) ((double *)PyArray_DATA(b))[i] = v;
        Py_DECREF(a);
        return b;
    }
    if (nd == 0 || (nd == 2 && PyArray_DIM(a, 0) != 1 && PyArray_DIM(a, 1) != 1) ||
        PyArray_SIZE(a) != m) {
        char shape[64] = "a scalar";
        if (nd == 1) snprintf(shape, sizeof shape, "%zd entries", (Py_ssize_t)PyArray_DIM(a, 0));
        if (nd == 2)
            snprintf(shape, sizeof shape, "shape (%zd, %zd)", (Py_ssize_t)PyArray_DIM(a, 0),
                     (Py_ssize_t)PyArray_DIM(a, 1));
        Py_DECREF(a);
        return (PyArrayObject *)pylcp_raise(LCP_ERR_INCONSISTENT, "%s: %s, not %d", name, shape,
                                            m);
    }
    return a;
}

PyObject *pylcp_array_copy(const double *v, int n)
{
    npy_intp dim = n;
    PyObject *a = PyArray_SimpleNew(1, &dim, NPY_DOUBLE);
    if (a && n > 0) memcpy(PyArray_DATA((PyArrayObject *)a), v, (size_t)n * sizeof(double));
    return a;
}

/* *v (lcp_malloc) = obj as m doubles; 0, or -1 with an Error */
static int copy_vector(PyObject *obj, const char *name, int m, int scalar_ok, double **v)
{
    PyArrayObject *a = pylcp_vector(obj, name, m, scalar_ok);
    if (!a) return -1;
    if (!*v) *v = lcp_malloc((size_t)m, sizeof(double));
    if (*v) memcpy(*v, PyArray_DATA(a), (size_t)m * sizeof(double));
    Py_DECREF(a);
    if (!*v) pylcp_raise(LCP_ERR_NOMEM, "%s: out of memory", name);
    return *v ? 0 : -1;
}

/* findex: m integers; a value beyond int is reported as the library reports one out of
 * range (the others are left to lcp_problem_check) */
static int copy_findex(PyObject *obj, int m, int **f)
{
    PyArrayObject *g = (PyArrayObject *)PyArray_FROMANY(obj, NPY_NOTYPE, 1, 2, 0);
    int integral = g && PyArray_ISINTEGER(g);
    if (g && PyArray_ISFLOAT(g)) {                      /* reals: only whole numbers */
        PyObject *d = PyArray_FROMANY((PyObject *)g, NPY_DOUBLE, 1, 2, NPY_ARRAY_CARRAY_RO);
        integral = d != NULL;
        for (npy_intp i = 0; d && i < PyArray_SIZE((PyArrayObject *)d); i++) {
            double v = ((const double *)PyArray_DATA((PyArrayObject *)d))[i];
            integral = integral && v == floor(v) && fabs(v) < 9e18;
        }
        Py_XDECREF(d);
    }
    PyArrayObject *a = integral ? (PyArrayObject *)PyArray_FROMANY(
                                      (PyObject *)g, NPY_INT64, 1, 2,
                                      NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST)
                                : NULL;
    Py_XDECREF(g);
    if (!a) {
        PyErr_Clear();
        pylcp_raise(LCP_ERR_ARG, "findex: not an array of whole numbers");
        return -1;
    }
    int rc = 0;
    if ((PyArray_NDIM(a) == 2 && PyArray_DIM(a, 0) != 1 && PyArray_DIM(a, 1) != 1) ||
        PyArray_SIZE(a) != m) {
        pylcp_raise(LCP_ERR_INCONSISTENT, "findex: %zd entries, not %d",
                    (Py_ssize_t)PyArray_SIZE(a), m);
        rc = -1;
    }
    const int64_t *v = PyArray_DATA(a);
    for (int i = 0; rc == 0 && i < m; i++)
        if (v[i] < INT_MIN || v[i] > INT_MAX) {
            pylcp_raise(LCP_ERR_FORMAT, "findex: row %d: findex %lld out of range -1..%d",
                        i + 1, (long long)v[i], m - 1);
            rc = -1;
        }
    *f = rc == 0 ? lcp_malloc((size_t)m, sizeof(int)) : NULL;
    if (rc == 0 && !*f) {
        pylcp_raise(LCP_ERR_NOMEM, "findex: out of memory");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < m; i++) (*f)[i] = (int)v[i];
    Py_DECREF(a);
    return rc;
}

static int given(PyObject *o) { return o && o != Py_None; }

static PyObject *problem_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"A", "q", "lo", "hi", "findex", "J", "Minv", "E", "z0", NULL};
    PyObject *A = NULL, *q = NULL, *lo = NULL, *hi = NULL, *findex = NULL, *J = NULL,
             *Minv = NULL, *E = NULL, *z0 = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOOOOOO:Problem", names, &A, &q, &lo, &hi,
                                     &findex, &J, &Minv, &E, &z0))
        return NULL;
    lcp_problem P;
    lcp_problem_init(&P);
    int rc = 0;
    if (given(J) != given(Minv)) {
        pylcp_raise(LCP_ERR_INCONSISTENT, "J and Minv come together");
        rc = -1;
    }
    if (rc == 0 && given(J)) rc = to_csr(J, "J", &P.J) == LCP_OK ? 0 : -1;
    if (rc == 0 && given(Minv)) rc = to_csr(Minv, "Minv", &P.Minv) == LCP_OK ? 0 : -1;
    if (rc == 0 && given(A)) rc = to_csr(A, "A", &P.A) == LCP_OK ? 0 : -1;
    if (rc == 0 && !given(A) && !given(J)) {
        pylcp_raise(LCP_ERR_ARG, "A is None and no J, Minv given");
        rc = -1;
    }
    if (rc == 0) {
        P.m = given(A) ? P.A.nrow : P.J.nrow;
        P.n = P.J.p ? P.J.ncol : 0;
        lcp_status st = lcp_problem_alloc_vectors(&P, P.m);
        if (st != LCP_OK) {
            pylcp_raise(st, "%s", P.m < 1 ? "A has no rows" : "out of memory");
            rc = -1;
        }
    }
    if (rc == 0) rc = copy_vector(q, "q", P.m, 0, &P.q);
    if (rc == 0 && given(lo)) rc = copy_vector(lo, "lo", P.m, 1, &P.lo);
    if (rc == 0 && given(hi)) rc = copy_vector(hi, "hi", P.m, 1, &P.hi);
    if (rc == 0 && given(findex)) rc = copy_findex(findex, P.m, &P.findex);
    if (rc == 0 && given(E)) rc = copy_vector(E, "E", P.m, 0, &P.E);
    if (rc == 0 && given(z0)) rc = copy_vector(z0, "z0", P.m, 0, &P.z0);
    if (rc == 0 && !given(A)) {                       /* A = J Minv J^T + diag(E) */
        lcp_status st = P.J.ncol == P.Minv.nrow && P.Minv.nrow == P.Minv.ncol
                            ? lcp_csr_jmjt(&P.J, &P.Minv, P.E, &P.A)
                            : LCP_ERR_INCONSISTENT;
        if (st != LCP_OK) {
            pylcp_raise(st, "J is %d x %d and Minv %d x %d: no J Minv J^T", P.J.nrow, P.J.ncol,
                        P.Minv.nrow, P.Minv.ncol);
            rc = -1;
        }
    }
    char msg[512];
    lcp_status st = rc == 0 ? lcp_problem_check(&P, msg, sizeof msg) : LCP_OK;
    if (st != LCP_OK) {
        pylcp_raise(st, "%s", msg);
        rc = -1;
    }
    if (rc != 0) {
        lcp_problem_free(&P);
        return NULL;
    }
    PyObject *self = type->tp_alloc(type, 0);
    if (!self) {
        lcp_problem_free(&P);
        return NULL;
    }
    ((pylcp_problem *)self)->P = P;
    return self;
}

PyObject *pylcp_problem_wrap(lcp_problem *P)
{
    PyObject *self = pylcp_problem_type.tp_alloc(&pylcp_problem_type, 0);
    if (!self) {
        lcp_problem_free(P);
        return NULL;
    }
    ((pylcp_problem *)self)->P = *P;
    lcp_problem_init(P);
    return self;
}

static void problem_dealloc(PyObject *self)
{
    lcp_problem_free(&((pylcp_problem *)self)->P);
    Py_TYPE(self)->tp_free(self);
}

/* ---- what a Problem shows: copies, never views of the library's arrays ---------------- */

static const lcp_problem *prob(PyObject *self) { return &((pylcp_problem *)self)->P; }

/* the CSR triple (indptr, indices, data) of M as int32, int32, float64 arrays; None absent */
static PyObject *csr_triple(const lcp_csr *M)
{
    if (!M->p) Py_RETURN_NONE;
    npy_intp np1 = (npy_intp)M->nrow + 1, nnz = LCP_CSR_NNZ(M);
    PyObject *p = PyArray_SimpleNew(1, &np1, NPY_INT32);
    PyObject *j = PyArray_SimpleNew(1, &nnz, NPY_INT32);
    PyObject *x = PyArray_SimpleNew(1, &nnz, NPY_DOUBLE);
    if (!p || !j || !x) {
        Py_XDECREF(p);
        Py_XDECREF(j);
        Py_XDECREF(x);
        return NULL;
    }
    memcpy(PyArray_DATA((PyArrayObject *)p), M->p, (size_t)np1 * sizeof(int));
    if (nnz) {
        memcpy(PyArray_DATA((PyArrayObject *)j), M->j, (size_t)nnz * sizeof(int));
        memcpy(PyArray_DATA((PyArrayObject *)x), M->x, (size_t)nnz * sizeof(double));
    }
    return Py_BuildValue("(NNN)", p, j, x);
}

/* scipy.sparse.csr_matrix of M (SciPy imported when asked); None when absent */
static PyObject *csr_scipy(const lcp_csr *M)
{
    if (!M->p) Py_RETURN_NONE;
    PyObject *t = csr_triple(M);
    PyObject *sp = t ? PyImport_ImportModule("scipy.sparse") : NULL;
    PyObject *data = t && sp ? Py_BuildValue("(OOO)", PyTuple_GET_ITEM(t, 2),
                                             PyTuple_GET_ITEM(t, 1), PyTuple_GET_ITEM(t, 0))
                             : NULL;
    PyObject *r = data ? PyObject_CallMethod(sp, "csr_matrix", "(O(ii))", data, M->nrow,
                                             M->ncol)
                       : NULL;
    Py_XDECREF(data);
    Py_XDECREF(sp);
    Py_XDECREF(t);
    return r;
}

static PyObject *vec_or_none(const double *v, int m)
{
    if (!v) Py_RETURN_NONE;
    return pylcp_array_copy(v, m);
}

static PyObject *get_m(PyObject *self, void *c) { return PyLong_FromLong(prob(self)->m); }
static PyObject *get_n(PyObject *self, void *c) { return PyLong_FromLong(prob(self)->n); }
static PyObject *get_nnz(PyObject *self, void *c)
{
    return PyLong_FromLong(LCP_CSR_NNZ(&prob(self)->A));
}
static PyObject *get_symmetric(PyObject *self, void *c)
{
    return PyBool_FromLong(prob(self)->symmetric);
}
static PyObject *get_A(PyObject *self, void *c) { return csr_scipy(&prob(self)->A); }
static PyObject *get_J(PyObject *self, void *c) { return csr_scipy(&prob(self)->J); }
static PyObject *get_Minv(PyObject *self, void *c) { return csr_scipy(&prob(self)->Minv); }
static PyObject *get_q(PyObject *self, void *c) { return vec_or_none(prob(self)->q, prob(self)->m); }
static PyObject *get_lo(PyObject *self, void *c) { return vec_or_none(prob(self)->lo, prob(self)->m); }
static PyObject *get_hi(PyObject *self, void *c) { return vec_or_none(prob(self)->hi, prob(self)->m); }
static PyObject *get_E(PyObject *self, void *c) { return vec_or_none(prob(self)->E, prob(self)->m); }
static PyObject *get_z0(PyObject *self, void *c) { return vec_or_none(prob(self)->z0, prob(self)->m); }
static PyObject *get_zref(PyObject *self, void *c)
{
    return vec_or_none(prob(self)->zref, prob(self)->m);
}
static PyObject *get_findex(PyObject *self, void *c)
{
    const lcp_problem *P = prob(self);
    if (!P->findex) Py_RETURN_NONE;
    npy_intp m = P->m;
    PyObject *a = PyArray_SimpleNew(1, &m, NPY_INT32);
    if (a) memcpy(PyArray_DATA((PyArrayObject *)a), P->findex, (size_t)m * sizeof(int));
    return a;
}
static PyObject *get_meta(PyObject *self, void *c)
{
    if (!prob(self)->meta) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(prob(self)->meta, (Py_ssize_t)strlen(prob(self)->meta),
                                "replace");
}

static PyGetSetDef problem_getset[] = {
    {"m", get_m, NULL, "rows (unknowns)", NULL},
    {"n", get_n, NULL, "body coordinates (columns of J); 0 without factors", NULL},
    {"nnz", get_nnz, NULL, "stored entries of A (both triangles)", NULL},
    {"symmetric", get_symmetric, NULL, "A is exactly symmetric", NULL},
    {"A", get_A, NULL, "A as a scipy.sparse.csr_matrix (a copy)", NULL},
    {"J", get_J, NULL, "J as a scipy.sparse.csr_matrix, or None", NULL},
    {"Minv", get_Minv, NULL, "Minv as a scipy.sparse.csr_matrix, or None", NULL},
    {"q", get_q, NULL, "q (a copy)", NULL},
    {"lo", get_lo, NULL, "lower bounds (a copy)", NULL},
    {"hi", get_hi, NULL, "upper bounds (a copy)", NULL},
    {"findex", get_findex, NULL, "friction coupling (int32, -1 none), or None", NULL},
    {"E", get_E, NULL, "diagonal regularisation, or None", NULL},
    {"z0", get_z0, NULL, "warm start, or None", NULL},
    {"zref", get_zref, NULL, "reference solution (zref.mtx), or None", NULL},
    {"meta", get_meta, NULL, "meta.txt's text, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *problem_csr(PyObject *self, PyObject *unused)
{
    return csr_triple(&prob(self)->A);
}

static PyObject *problem_write(PyObject *self, PyObject *args)
{
    PyObject *path = NULL;
    if (!PyArg_ParseTuple(args, "O&:write", PyUnicode_FSConverter, &path)) return NULL;
    char msg[4400];
    lcp_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lcp_write_instance(PyBytes_AS_STRING(path), prob(self), msg, sizeof msg);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (st != LCP_OK) return pylcp_raise(st, "%s", msg);
    Py_RETURN_NONE;
}

static PyObject *problem_repr(PyObject *self)
{
    const lcp_problem *P = prob(self);
    return PyUnicode_FromFormat("<lcpbench.Problem m=%d nnz=%d%s%s%s>", P->m,
                                LCP_CSR_NNZ(&P->A), P->symmetric ? " symmetric" : "",
                                P->findex ? " findex" : "",
                                lcp_problem_has_factors(P) ? " factors" : "");
}

static PyMethodDef problem_methods[] = {
    {"csr", problem_csr, METH_NOARGS,
     "csr() -> (indptr, indices, data): A in the library's CSR (int32, int32, float64 copies)"},
    {"write", problem_write, METH_VARARGS,
     "write(folder): the instance folder (Matrix Market files, %.17g: a round trip is exact)"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject pylcp_problem_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lcpbench.Problem",
    .tp_basicsize = sizeof(pylcp_problem),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Problem(A, q, lo=None, hi=None, findex=None, J=None, Minv=None, E=None, z0=None)\n"
              "\n"
              "The LCP  w = A z + q,  lo <= z <= hi  (lo = 0, hi = +inf by default; findex[i] >= 0:\n"
              "row i's bounds are lo_i |z_f|, hi_i |z_f| with f = findex[i]).  A, J, Minv: a\n"
              "scipy.sparse matrix (CSR, CSC or any other through tocsr()) or a dense 2-D array;\n"
              "A may be None with J and Minv (A = J Minv J^T + diag(E)).  Vectors: (m,), (m,1) or\n"
              "(1,m); lo, hi also scalars.  Copied and checked as the instance reader checks a\n"
              "folder; lcpbench.Error names the first problem.  Immutable.",
    .tp_new = problem_new,
    .tp_dealloc = problem_dealloc,
    .tp_repr = problem_repr,
    .tp_methods = problem_methods,
    .tp_getset = problem_getset,
};
