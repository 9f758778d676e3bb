/* lanczos.c: an estimate of the condition number of A on its range (problems/README.md,
 * "Descriptors"),
 *
 *     cond = lambda_max(A) / lambda_min+(A),   lambda_min+ = the smallest eigenvalue of A
 *                                              above 1e-10 lambda_max (on range(A))
 *
 * for the symmetric positive semidefinite A = J Minv J^T + diag(E) of a captured problem
 * (every row: bilateral, normal and friction rows alike; the bounds and findex do not enter).
 *
 * Method: k steps of Lanczos with full reorthogonalisation (twice, classical Gram-Schmidt)
 * on A, started from q_1 = A u / |A u|, u uniform in [-1, 1]^m from splitmix64(seed).  A
 * start in range(A) keeps the Krylov space in range(A) = null(A)^perp (A symmetric), so the
 * null space is deflated by the start itself and the Ritz values (eigenvalues of the
 * tridiagonal T_k, LAPACKE_dstev) approximate the nonzero eigenvalues only; rounding leaks
 * null-space components of size eps |A| into the recurrence, which the 1e-10 lambda_max cut
 * removes.  The recurrence stops at breakdown, beta_j <= 1e-10 max |T|: the Krylov space is
 * then an invariant subspace, the whole range of A seen from u, and the Ritz values are
 * eigenvalues (to rounding); otherwise after k = min(m, 200) steps, when lambda_max is
 * accurate (its Ritz value converges first) and the Ritz lambda_min+ is an upper bound:
 * cond is then a lower bound.  `lanczos_steps' < m with `lanczos_exact' 1 says breakdown.
 * A is read as stored (full CSR), or as J (Minv (J^T x)) + E x when A is absent.
 * Cost: k products with A (or its factors) and O(k^2 m) for the reorthogonalisation; memory
 * k m doubles; skipped (LCP_ERR_TOO_LARGE) when k m > 4e7.
 * Source: Golub and Van Loan, Matrix Computations, 4th ed., Sec. 10.1 (Lanczos), 10.3
 * (full reorthogonalisation).
 */
#include "prob_internal.h"

#include <lapacke.h>

/* y = A x, by A or by its factors (t: n work) */
static void apply(const lcp_problem *P, const double *x, double *y, double *t, double *u)
{
    if (P->A.p) {
        lcp_csr_matvec(&P->A, x, y);
        return;
    }
    lcp_csr_matvec_t(&P->J, x, t);                          /* t = J^T x */
    lcp_csr_matvec(&P->Minv, t, u);                         /* u = Minv t */
    lcp_csr_matvec(&P->J, u, y);                            /* y = J u */
    for (int i = 0; i < P->m; i++) y[i] += (P->E ? P->E[i] : 0.0) * x[i];  /* + E x */
}

static double norm2(int m, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s += x[i] * x[i];
    return sqrt(s);
}

lcp_status prob_lanczos_cond(const lcp_problem *P, uint64_t seed, prob_cond *C)
{
    if (!P || !C || (!P->A.p && (!P->J.p || !P->Minv.p))) return LCP_ERR_ARG;
    memset(C, 0, sizeof *C);
    int m = P->m, n = P->A.p ? 0 : P->n, kmax = m < 200 ? m : 200;
    if (m <= 0) return LCP_ERR_ARG;
    if ((double)kmax * (double)m > 4e7) return LCP_ERR_TOO_LARGE;
    double *Q = lcp_malloc((size_t)kmax * (size_t)m, sizeof(double));
    double *w = lcp_malloc((size_t)m, sizeof(double)), *c = lcp_malloc((size_t)kmax, sizeof(double));
    double *al = lcp_malloc((size_t)kmax, sizeof(double)), *be = lcp_malloc((size_t)kmax, sizeof(double));
    double *t = lcp_malloc((size_t)n + 1, sizeof(double)), *u = lcp_malloc((size_t)n + 1, sizeof(double));
    lcp_status st = Q && w && c && al && be && t && u ? LCP_OK : LCP_ERR_NOMEM;
    int k = 0;
    if (st == LCP_OK) {
        uint64_t s = seed;
        for (int i = 0; i < m; i++) w[i] = 2.0 * lcp_rng_uniform(&s) - 1.0;   /* u */
        apply(P, w, Q, t, u);                                               /* A u */
        double b0 = norm2(m, Q), tmax = 0.0;
        if (!(b0 > 0.0)) st = LCP_ERR_SINGULAR;                             /* A u = 0 */
        for (int i = 0; i < m && st == LCP_OK; i++) Q[i] /= b0;             /* q_1 */
        while (st == LCP_OK && k < kmax) {
            double *q = Q + (size_t)k * m;
            apply(P, q, w, t, u);                                           /* w = A q_k */
            al[k] = 0.0;
            for (int i = 0; i < m; i++) al[k] += q[i] * w[i];               /* alpha = q.w */
            for (int pass = 0; pass < 2; pass++)                            /* w -= Q Q^T w */
                for (int j = 0; j <= k; j++) {
                    const double *qj = Q + (size_t)j * m;
                    double d = 0.0;
                    for (int i = 0; i < m; i++) d += qj[i] * w[i];
                    for (int i = 0; i < m; i++) w[i] -= d * qj[i];
                }
            be[k] = norm2(m, w);                                            /* beta_k */
            tmax = fmax(tmax, fabs(al[k]) + be[k] + (k ? be[k - 1] : 0.0));
            k++;
            if (be[k - 1] <= 1e-10 * tmax) {                                /* breakdown */
                C->exact = 1;
                break;
            }
            if (k < kmax)
                for (int i = 0; i < m; i++) Q[(size_t)k * m + i] = w[i] / be[k - 1];
        }
        if (st == LCP_OK && k == m) C->exact = 1;                           /* all of R^m */
    }
    if (st == LCP_OK) {
        for (int j = 0; j < k; j++) c[j] = al[j];
        if (LAPACKE_dstev(LAPACK_COL_MAJOR, 'N', k, c, be, NULL, 1) != 0) st = LCP_ERR_BREAKDOWN;
    }
    if (st == LCP_OK) {
        double lmax = c[k - 1], lmin = INFINITY;                            /* ascending */
        for (int j = 0; j < k; j++)
            if (c[j] > 1e-10 * lmax) lmin = fmin(lmin, c[j]);               /* on the range */
        C->lambda_max = lmax;
        C->lambda_min = lmin;
        C->cond = lmax / lmin;
        C->steps = k;
    }
    lcp_free(Q);
    lcp_free(w);
    lcp_free(c);
    lcp_free(al);
    lcp_free(be);
    lcp_free(t);
    lcp_free(u);
    return st;
}
