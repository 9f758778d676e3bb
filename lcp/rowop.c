/* rowop.c: set-up of the row operator shared by the Gauss-Seidel sweeps (lcp_internal.h).
 *
 * Matrix-free form (Lacoursiere's notes, Alg. 2.1/2.2; ODE quickstep's iMJ): B = J Minv
 * (m x n, row i = (Minv J_i^T)^T, same body blocks as J_i), a_ii = J_i . B_i + E_i, and
 * u = B^T z = Minv J^T z (Minv symmetric).  Cost: B in O(nnz(J) * block size), u in O(nnz(B)).
 * Assembled form: a_ii read from A.
 */
#include "lcp_internal.h"

#include <string.h>

/* a_ii = E_i + J_i . B_i, J's and B's rows merged by column (B's rows from r) */
static void factored_diag(const lcp_problem *P, lcp_csr_rows *r, double *diag)
{
    const lcp_csr *J = &P->J;
    for (int i = 0; i < P->m; i++) {                                /* merge sorted rows */
        lcp_csr_row(r, i);
        double d = P->E ? P->E[i] : 0.0;
        int a = J->p[i], b = 0;
        while (a < J->p[i + 1] && b < r->len) {
            if (J->j[a] == r->j[b]) d += J->x[a++] * r->x[b++];     /* a_ii += J_ic B_ic */
            else if (J->j[a] < r->j[b]) a++;
            else b++;
        }
        diag[i] = d;
    }
}

/* hold = 1: B = J Minv and u are made (the sweeps); 0: diag only (lcp_rowop_init_diag) */
static lcp_status rowop_init(lcp_rowop *op, const lcp_problem *P, lcp_form form, int hold)
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
    lcp_status st = LCP_OK;
    if (hold) {
        st = lcp_csr_multiply(&P->J, &P->Minv, &op->B);             /* B = J Minv */
        if (st == LCP_OK && !(op->u = lcp_calloc((size_t)P->n, sizeof(double))))
            st = LCP_ERR_NOMEM;
    }
    lcp_csr_rows r;
    if (st == LCP_OK) st = lcp_csr_rows_init(&r, hold ? &op->B : NULL, &P->J, &P->Minv);
    if (st == LCP_OK) {
        factored_diag(P, &r, op->diag);
        lcp_csr_rows_free(&r);
    }
    if (st != LCP_OK) lcp_rowop_free(op);
    return st;
}

lcp_status lcp_rowop_init(lcp_rowop *op, const lcp_problem *P, lcp_form form)
{
    return rowop_init(op, P, form, 1);
}

lcp_status lcp_rowop_init_diag(lcp_rowop *op, const lcp_problem *P, lcp_form form)
{
    return rowop_init(op, P, form, 0);
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
