/* problem.c: the problem type (lcp_problem) and its validation, lcp_problem_check.
 *
 * A problem owns its arrays: A (m x m CSR, full storage), q, lo, hi (always present),
 * findex, the factors J (m x n) and Minv (n x n, full storage), E, z0, zref (optional) and
 * the verbatim meta.txt text.  lcp_problem_check validates a complete problem, in this order:
 *   1. sizes and CSR structure: A square, m >= 1, row pointers monotone, column indices in
 *      range and strictly ascending in every row (A, J, Minv)        -> LCP_ERR_FORMAT
 *      (A with m != P->m rows, missing q, lo or hi: LCP_ERR_INCONSISTENT, LCP_ERR_ARG)
 *   2. finite A, q, E, J, Minv, z0, zref; lo and hi not NaN           -> LCP_ERR_FORMAT
 *   3. bounds: lo_i <= hi_i, lo_i < +inf, hi_i > -inf                 -> LCP_ERR_INCONSISTENT
 *   4. findex_i in -1..m-1                                            -> LCP_ERR_FORMAT
 *      findex_i != i, findex[findex_i] = -1 (a normal row, no chains) -> LCP_ERR_INCONSISTENT
 *   5. factors: both or neither of J and Minv, J m x n, Minv n x n, n = P->n, Minv == Minv^T
 *      exactly, and A == J Minv J^T + diag(E) entrywise over the union of both patterns:
 *      max |A - J Minv J^T - diag(E)| <= 1e-12 max(1e-300, max |A|)   -> LCP_ERR_INCONSISTENT
 * and sets P->symmetric = lcp_csr_is_symmetric(&P->A).  A problem read without A
 * (LCP_READ_SKIP_A: A.p == NULL, factors present) gets 1 to 5 without A's parts and without
 * the comparison in 5, and P->symmetric = 0 (no A to be symmetric).  The first failure is described by one
 * line in msg that starts with the file that holds the part ("lo.mtx: row 3: lo = 2 > hi = 1");
 * rows in messages are 1-based like the Matrix Market files, findex values are as stored
 * (0-based).  lcp_read_instance prefixes the folder.
 *
 * Cost: O(nnz(A) + m) for the symmetry test (a cursor per row, no search); with factors,
 * B = J Minv and J^T (O(nnz(J) * block size)) and the rows of B J^T accumulated one at a
 * time into a dense vector and compared with A, O(flops of J Minv J^T + nnz(A)); the
 * product is never stored or sorted.  Memory: B, J^T and three m-vectors.
 * Limits: the factor test is relative to max |A|; an all-zero A is compared to 1e-312.
 */
#include "lcp_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void lcp_problem_init(lcp_problem *P)
{
    if (!P) return;
    memset(P, 0, sizeof *P);
    P->A.p = P->J.p = P->Minv.p = NULL;
    P->A.j = P->J.j = P->Minv.j = NULL;
    P->A.x = P->J.x = P->Minv.x = NULL;
    P->q = P->lo = P->hi = P->E = P->z0 = P->zref = NULL;
    P->findex = NULL;
    P->meta = NULL;
}

void lcp_problem_free(lcp_problem *P)
{
    if (!P) return;
    lcp_csr_free(&P->A);
    lcp_csr_free(&P->J);
    lcp_csr_free(&P->Minv);
    lcp_free(P->q);
    lcp_free(P->lo);
    lcp_free(P->hi);
    lcp_free(P->findex);
    lcp_free(P->E);
    lcp_free(P->z0);
    lcp_free(P->zref);
    lcp_free(P->meta);
    lcp_problem_init(P);
}

int lcp_problem_has_factors(const lcp_problem *P)
{
    return P && P->J.p && P->Minv.p;
}

/* Replaces any q, lo, hi already held (they are freed). */
lcp_status lcp_problem_alloc_vectors(lcp_problem *P, int m)
{
    if (!P || m < 0) return LCP_ERR_ARG;
    double *q = lcp_calloc((size_t)m, sizeof(double));
    double *lo = lcp_calloc((size_t)m, sizeof(double));
    double *hi = lcp_malloc((size_t)m, sizeof(double));
    lcp_status st = LCP_OK;
    if (!q || !lo || !hi) {
        st = LCP_ERR_NOMEM;
        goto done;
    }
    for (int i = 0; i < m; i++) hi[i] = INFINITY;                   /* hi = +inf */
    lcp_free(P->q);
    lcp_free(P->lo);
    lcp_free(P->hi);
    P->q = q;
    P->lo = lo;
    P->hi = hi;
    P->m = m;
    q = lo = hi = NULL;
done:
    lcp_free(q);
    lcp_free(lo);
    lcp_free(hi);
    return st;
}

/* ---- helpers --------------------------------------------------------------------------- */

/* CSR structure: p[0] = 0, p monotone, columns in range and strictly ascending */
static lcp_status check_csr(const lcp_csr *A, const char *file, char *msg, size_t msglen)
{
    if (A->nrow < 0 || A->ncol < 0 || !A->p || A->p[0] != 0)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: bad CSR row pointers", file);
    for (int i = 0; i < A->nrow; i++) {
        if (A->p[i + 1] < A->p[i])
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: row %d: row pointers decrease", file,
                        i + 1);
        if (A->p[i + 1] > A->p[i] && (!A->j || !A->x))
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: missing CSR arrays", file);
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int c = A->j[k];
            if (c < 0 || c >= A->ncol)
                return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                            "%s: row %d: column index %d out of range 1..%d", file, i + 1,
                            c + 1, A->ncol);
            if (k > A->p[i] && c <= A->j[k - 1])
                return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                            "%s: row %d: column %d not ascending or duplicated", file, i + 1,
                            c + 1);
            if (!isfinite(A->x[k]))
                return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                            "%s: row %d, column %d: value %g is not finite", file, i + 1, c + 1,
                            A->x[k]);
        }
    }
    return LCP_OK;
}

static lcp_status check_finite(const double *v, int m, const char *file, char *msg,
                               size_t msglen)
{
    if (!v) return LCP_OK;
    for (int i = 0; i < m; i++)
        if (!isfinite(v[i]))
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: row %d: value %g is not finite",
                        file, i + 1, v[i]);
    return LCP_OK;
}

/* A == J Minv J^T + diag(E) within the relative 1e-12, entrywise over the union of both
 * patterns, without forming and sorting the product: with B = J Minv and J^T, row i of
 * J Minv J^T is sum_k B_ik (J^T)_k (the order lcp_csr_jmjt sums the lower triangle in),
 * scattered into a dense accumulator.  When A is exactly symmetric only the lower triangle
 * is compared (J Minv J^T is symmetric; its upper triangle differs from the lower one by
 * rounding only): half the work.  Cost O(flops of B J^T + nnz(A)), memory O(m + nnz(J)). */
static lcp_status check_factors(lcp_problem *P, int lower, double rtol, char *msg,
                                size_t msglen)
{
    lcp_csr B = {0}, Jt = {0};
    double *acc = NULL;
    int *mark = NULL, *list = NULL;
    lcp_status st = LCP_OK;
    int m = P->m;
    if (!P->J.p != !P->Minv.p) {
        st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s: present without %s",
                  P->J.p ? "J.mtx" : "Minv.mtx", P->J.p ? "Minv.mtx" : "J.mtx");
        goto done;
    }
    if (!P->J.p) goto done;
    if (P->J.nrow != m || P->J.ncol != P->n || P->n < 1) {
        st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "J.mtx: J is %d x %d, want %d x %d",
                  P->J.nrow, P->J.ncol, m, P->n);
        goto done;
    }
    if (P->Minv.nrow != P->n || P->Minv.ncol != P->n) {
        st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "Minv.mtx: Minv is %d x %d, want %d x %d",
                  P->Minv.nrow, P->Minv.ncol, P->n, P->n);
        goto done;
    }
    if ((st = check_csr(&P->J, "J.mtx", msg, msglen)) != LCP_OK) goto done;
    if ((st = check_csr(&P->Minv, "Minv.mtx", msg, msglen)) != LCP_OK) goto done;
    int sym;
    if ((st = lcp_csr_symmetric(&P->Minv, &sym)) != LCP_OK) goto nomem;
    if (!sym) {
        st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "Minv.mtx: Minv is not symmetric");
        goto done;
    }
    if (rtol < 0) goto done;                                        /* no A to compare */
    if ((st = lcp_csr_multiply(&P->J, &P->Minv, &B)) != LCP_OK) goto nomem;   /* B = J Minv */
    if ((st = lcp_csr_transpose(&P->J, &Jt)) != LCP_OK) goto nomem;
    acc = lcp_calloc((size_t)m, sizeof(double));
    mark = lcp_malloc((size_t)m, sizeof(int));
    list = lcp_malloc((size_t)m, sizeof(int));
    if (!acc || !mark || !list) {
        st = LCP_ERR_NOMEM;
        goto nomem;
    }
    double amax = 0.0, dmax = 0.0;
    int di = -1, dj = -1;
    for (int k = 0; k < LCP_CSR_NNZ(&P->A); k++)
        if (fabs(P->A.x[k]) > amax) amax = fabs(P->A.x[k]);         /* max |A| */
    double tol = rtol * (amax > 1e-300 ? amax : 1e-300);
    for (int r = 0; r < m; r++) mark[r] = -1;
    for (int i = 0; i < m; i++) {
        int nl = 0;
        for (int kb = B.p[i]; kb < B.p[i + 1]; kb++) {              /* acc = B_i J^T */
            int d = B.j[kb];
            double b = B.x[kb];
            for (int kt = Jt.p[d]; kt < Jt.p[d + 1]; kt++) {
                int r = Jt.j[kt];                                   /* ascending */
                if (lower && r > i) break;
                if (mark[r] != i) {
                    mark[r] = i;
                    acc[r] = 0.0;
                    list[nl++] = r;
                }
                acc[r] += b * Jt.x[kt];                             /* c_ir += B_id J_rd */
            }
        }
        if (P->E) {
            if (mark[i] != i) {
                mark[i] = i;
                acc[i] = 0.0;
                list[nl++] = i;
            }
            acc[i] += P->E[i];                                      /* c_ii += E_i */
        }
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) {           /* A_i - C_i */
            int c = P->A.j[k];
            if (lower && c > i) break;
            double d = fabs(P->A.x[k] - (mark[c] == i ? acc[c] : 0.0));
            if (mark[c] == i) mark[c] = -2 - i;                     /* compared */
            if (!(d <= dmax)) {                                     /* NaN too (overflow) */
                dmax = d;
                di = i;
                dj = c;
            }
        }
        for (int t = 0; t < nl; t++) {                              /* C_ir where A_ir = 0 */
            int c = list[t];
            if (mark[c] == i && !(fabs(acc[c]) <= dmax)) {
                dmax = fabs(acc[c]);
                di = i;
                dj = c;
            }
        }
        if (!(dmax <= tol)) {
            double a = 0.0, c = mark[dj] == i || mark[dj] == -2 - i ? acc[dj] : 0.0;
            for (int k = P->A.p[di]; k < P->A.p[di + 1]; k++)
                if (P->A.j[k] == dj) a = P->A.x[k];
            st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                      "A.mtx: (%d,%d): A = %.17g but J Minv J^T + diag(E) = %.17g "
                      "(J.mtx, Minv.mtx, E.mtx; |diff| %.3g > %g max|A| = %.3g)",
                      di + 1, dj + 1, a, c, dmax, rtol, tol);
            goto done;
        }
    }
nomem:
    if (st != LCP_OK)
        st = lcp_fail(msg, msglen, st, "J.mtx: cannot form J Minv J^T: %s", lcp_status_str(st));
done:
    lcp_csr_free(&B);
    lcp_csr_free(&Jt);
    lcp_free(acc);
    lcp_free(mark);
    lcp_free(list);
    return st;
}

lcp_status lcp_problem_check(lcp_problem *P, char *msg, size_t msglen)
{
    return lcp_problem_check_tol(P, 1e-12, msg, msglen);
}

lcp_status lcp_problem_check_tol(lcp_problem *P, double factor_tol, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    if (msg && msglen) msg[0] = '\0';
    if (!P) return lcp_fail(msg, msglen, LCP_ERR_ARG, "no problem given");
    int m = P->m;
    int noA = !P->A.p && lcp_problem_has_factors(P);   /* read with LCP_READ_SKIP_A */
    if ((!P->A.p && !noA) || m < 1)
        return lcp_fail(msg, msglen, LCP_ERR_ARG, "A.mtx: A missing or m = %d < 1", m);
    if (noA) {                                          /* no A: only the factors' shapes */
        P->A.nrow = P->A.ncol = m;
    } else if (P->A.nrow != P->A.ncol)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "A.mtx: A is %d x %d, not square",
                    P->A.nrow, P->A.ncol);
    if (P->A.nrow != m)
        return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "A.mtx: A is %d x %d but m = %d",
                    P->A.nrow, P->A.ncol, m);
    if (!P->q || !P->lo || !P->hi)
        return lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: missing", !P->q ? "q.mtx"
                    : !P->lo ? "lo.mtx" : "hi.mtx");
    if (!noA && (st = check_csr(&P->A, "A.mtx", msg, msglen)) != LCP_OK) return st;
    if ((st = check_finite(P->q, m, "q.mtx", msg, msglen)) != LCP_OK) return st;
    if ((st = check_finite(P->E, m, "E.mtx", msg, msglen)) != LCP_OK) return st;
    if ((st = check_finite(P->z0, m, "z0.mtx", msg, msglen)) != LCP_OK) return st;
    if ((st = check_finite(P->zref, m, "zref.mtx", msg, msglen)) != LCP_OK) return st;
    for (int i = 0; i < m; i++) {
        double lo = P->lo[i], hi = P->hi[i];
        if (isnan(lo) || isnan(hi))
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: row %d: bound is NaN",
                        isnan(lo) ? "lo.mtx" : "hi.mtx", i + 1);
        if (lo == INFINITY)
            return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "lo.mtx: row %d: lo = +inf", i + 1);
        if (hi == -INFINITY)
            return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "hi.mtx: row %d: hi = -inf", i + 1);
        if (lo > hi)
            return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                        "lo.mtx: row %d: lo = %.17g > hi = %.17g", i + 1, lo, hi);
    }
    if (P->findex)
        for (int i = 0; i < m; i++) {
            int f = P->findex[i];
            if (f < -1 || f >= m)
                return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                            "findex.mtx: row %d: findex %d out of range -1..%d", i + 1, f, m - 1);
            if (f == i)
                return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                            "findex.mtx: row %d: findex %d points at its own row", i + 1, f);
            if (f >= 0 && P->findex[f] >= 0)
                return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                            "findex.mtx: row %d: findex %d points at a row with findex %d >= 0",
                            i + 1, f, P->findex[f]);
        }
    if (noA) {                          /* factors' shapes and Minv's symmetry, no A to test */
        P->symmetric = 0;
        return check_factors(P, 0, -1.0, msg, msglen);
    }
    if ((st = lcp_csr_symmetric(&P->A, &P->symmetric)) != LCP_OK)
        return lcp_fail(msg, msglen, st, "A.mtx: out of memory");
    if (factor_tol < 0) return LCP_OK; /* the caller takes A and the factors as they are */
    return check_factors(P, P->symmetric, factor_tol, msg, msglen);
}
