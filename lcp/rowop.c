/* rowop.c: set-up of the row operator shared by the Gauss-Seidel sweeps (lcp_internal.h).
 *
 * Matrix-free form (Lacoursiere's notes, Alg. 2.1/2.2; ODE quickstep's iMJ): B = J Minv
 * (m x n, row i = (Minv J_i^T)^T, same body blocks as J_i), a_ii = J_i . B_i + E_i, and
 * u = B^T z = Minv J^T z (Minv symmetric).  Cost: B in O(nnz(J) * block size), u in O(nnz(B)).
 * Assembled form: a_ii read from A.
 */
#include "lcp_internal.h"

#include <string.h>

lcp_status lcp_rowop_init(lcp_rowop *op, const lcp_problem *P, lcp_form form)
{
    memset(op, 0, sizeof *op);
    op->P = P;
    form = lcp_rowop_mf(P, form) ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
    if (form == LCP_FORM_MATRIX_FREE && !lcp_problem_has_factors(P)) return LCP_ERR_NEEDS_FACTORS;
    if (form == LCP_FORM_ASSEMBLED && !P->A.p) return LCP_ERR_NEEDS_ASSEMBLED;
    op->mf = form == LCP_FORM_MATRIX_FREE;
    op->diag = lcp_malloc((size_t)P->m, sizeof(double));
    if (!op->diag) return LCP_ERR_NOMEM;
    if (!op->mf) {
        lcp_csr_diag(&P->A, op->diag);
        return LCP_OK;
    }
    lcp_status st = lcp_csr_multiply(&P->J, &P->Minv, &op->B);      /* B = J Minv */
    if (st == LCP_OK) {
        op->u = lcp_calloc((size_t)P->n, sizeof(double));
        if (!op->u) st = LCP_ERR_NOMEM;
    }
    if (st != LCP_OK) {
        lcp_rowop_free(op);
        return st;
    }
    const lcp_csr *J = &P->J, *B = &op->B;
    for (int i = 0; i < P->m; i++) {                                /* merge sorted rows */
        double d = P->E ? P->E[i] : 0.0;
        int a = J->p[i], b = B->p[i];
        while (a < J->p[i + 1] && b < B->p[i + 1]) {
            if (J->j[a] == B->j[b]) d += J->x[a++] * B->x[b++];     /* a_ii += J_ic B_ic */
            else if (J->j[a] < B->j[b]) a++;
            else b++;
        }
        op->diag[i] = d;
    }
    return LCP_OK;
}

void lcp_rowop_reset(lcp_rowop *op, const double *z)
{
    if (op->mf) lcp_csr_matvec_t(&op->B, z, op->u);                /* u = Minv J^T z */
}

void lcp_rowop_free(lcp_rowop *op)
{
    if (!op) return;
    lcp_csr_free(&op->B);
    lcp_free(op->u);
    lcp_free(op->diag);
    op->u = NULL;
    op->diag = NULL;
}
