/* ref_dense.c: the dense factorisation backend of the pivoting reference.
 *
 * COMPUTES.  For a free set F, the Cholesky factorisation (LAPACKE dpotrf, lower) of the
 * dense |F| x |F| matrix  S = A_FF + eps * diag(A_FF) + diag(dplus_F)  and solves S x = b
 * (dpotrs).  The same pivoting driver (ldlt_ref.c) runs on it, so it is an independent
 * second opinion on the sparse CHOLMOD path and the benchmark's dense baseline.
 *
 * PIVOT CHECK.  dpotrf stops at the first leading minor that is not positive definite
 * (info > 0): that row is reported as dependent.  Otherwise the first k (natural order)
 * with L_kk^2 <= tau * A_kk is reported.
 *
 * COST.  |F|^3/3 flops and |F|^2 doubles per factorisation, |F|^2 per solve; no ordering,
 * no reuse.  For m in the thousands only.
 */
#include "ref_internal.h"

#include <lapacke.h>
#include <string.h>

typedef struct ref_dense {
    const lcp_csr *A;
    const double *diag;
    int m;
    int nf;
    double *M;        /* nf x nf column major: the factor */
    size_t cap;       /* entries allocated in M */
    int *pos;         /* m: index in F or -1 */
} ref_dense;

static lcp_status dense_factor(ref_backend *be, const int *F, int nf, double eps,
                               const double *dplus, double tau, int *bad)
{
    ref_dense *D = be->impl;
    const lcp_csr *A = D->A;
    *bad = -1;
    D->nf = nf;
    if (nf == 0) return LCP_OK;
    size_t need = (size_t)nf * (size_t)nf;
    if (need > D->cap) {
        lcp_free(D->M);
        D->M = lcp_malloc(need, sizeof *D->M);
        D->cap = D->M ? need : 0;
        if (!D->M) return LCP_ERR_NOMEM;
    }
    memset(D->M, 0, need * sizeof *D->M);
    for (int g = 0; g < D->m; g++) D->pos[g] = -1;
    for (int k = 0; k < nf; k++) D->pos[F[k]] = k;
    for (int k = 0; k < nf; k++) {                    /* column k = row F[k] of A */
        int g = F[k];
        for (int t = A->p[g]; t < A->p[g + 1]; t++) {
            int r = D->pos[A->j[t]];
            if (r >= 0) D->M[(size_t)k * nf + r] = A->x[t];
        }
        D->M[(size_t)k * nf + k] += eps * D->diag[g] + (dplus ? dplus[g] : 0.0);
    }
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', nf, D->M, nf);
    be->factorizations++;
    be->flops += (double)nf * nf * nf / 3.0;
    if (info < 0) return LCP_ERR_BREAKDOWN;
    if (info > 0) {
        *bad = F[info - 1];
        return LCP_OK;
    }
    for (int k = 0; k < nf && *bad < 0; k++) {
        double l = D->M[(size_t)k * nf + k], akk = D->diag[F[k]] + (dplus ? dplus[F[k]] : 0.0);
        if (!(akk > 0.0) || !(l * l > tau * akk)) *bad = F[k];  /* d_k = L_kk^2 */
    }
    return LCP_OK;
}

static lcp_status dense_solve(ref_backend *be, const double *b, double *x)
{
    ref_dense *D = be->impl;
    if (D->nf == 0) return LCP_OK;
    memcpy(x, b, (size_t)D->nf * sizeof *x);
    lapack_int info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', D->nf, 1, D->M, D->nf, x, D->nf);
    return info == 0 ? LCP_OK : LCP_ERR_BREAKDOWN;
}

static void dense_destroy(ref_backend *be)
{
    ref_dense *D = be ? be->impl : NULL;
    if (!D) return;
    lcp_free(D->M);
    lcp_free(D->pos);
    lcp_free(D);
    be->impl = NULL;
}

lcp_status ref_dense_create(ref_backend *be, const lcp_csr *A, const double *diag)
{
    if (!be || !A || !diag || A->nrow != A->ncol) return LCP_ERR_ARG;
    memset(be, 0, sizeof *be);
    ref_dense *D = lcp_calloc(1, sizeof *D);
    if (!D) return LCP_ERR_NOMEM;
    be->impl = D;
    be->factor = dense_factor;
    be->solve = dense_solve;
    be->destroy = dense_destroy;
    D->A = A;
    D->diag = diag;
    D->m = A->nrow;
    D->pos = lcp_malloc((size_t)D->m + 1, sizeof *D->pos);
    if (!D->pos) {
        dense_destroy(be);
        return LCP_ERR_NOMEM;
    }
    return LCP_OK;
}
