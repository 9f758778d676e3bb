/* families.h: what the solvers of the field's families share (linop.c), not seen by users.
 *
 * - the operator y = A x in either form (assembled CSR, or J (Minv (J^T x)) + E x from the
 *   factors, the residual's own product: lcp_product), with A's diagonal;
 * - conjugate gradients on a principal submatrix A_SS + diag(s) with a Jacobi
 *   preconditioner, products with A counted;
 * - the box QP's objective f(z) = 1/2 z'Az + q'z from a known A z.
 *
 * THE WORK UNIT.  Every solver of the families counts products with A (y = A x, one CSR
 * product in the assembled form, three sparse products J^T, Minv, J in the matrix-free
 * form): a PGS sweep costs about one, so one product is one sweep-equivalent.  A product
 * with a principal submatrix (A_SS p with p zero off S) counts one.  The loop's stopping
 * test (lcp_residual's product, iterate.c) is not counted, as it is not for pgs.
 * Factorisations are counted apart (lcp_info.factorizations, factor_time).
 */
#ifndef LCP_FAMILIES_H
#define LCP_FAMILIES_H

#include "lcp_internal.h"

typedef struct lcp_linop {
    const lcp_problem *P;
    int mf;          /* 1: from the factors */
    double *work;    /* 2n doubles (matrix-free) */
    double *diag;    /* m: a_ii (rowop.c's, in the same form) */
    double products; /* products with A so far */
    double reported; /* of which lcp_linop_fresh has reported */
} lcp_linop;

/* the form of `form' on P (auto: matrix-free with factors), diag; LCP_ERR_ZERO_DIAG with
 * *row when some a_ii <= 0 */
lcp_status lcp_linop_init(lcp_linop *L, const lcp_problem *P, lcp_form form, int *row);
/* y = A x, one product counted */
void lcp_linop_apply(lcp_linop *L, const double *x, double *y);
void lcp_linop_free(lcp_linop *L);
/* the products since its last call: a step's work (lcp_sweep_est.work) */
static inline double lcp_linop_fresh(lcp_linop *L)
{
    double n = L->products - L->reported;
    L->reported = L->products;
    return n;
}

/* Conjugate gradients on (A_SS + diag(shift)_S) x_S = b_S, S = {i : mask[i]}, with the
 * Jacobi preconditioner (a_ii + shift_i), from x = 0; x is 0 off S.  Stops at
 * ||res||_2 <= rtol ||b_S||_2 or after maxit iterations (one product each).  shift may be
 * NULL.  ws: 4m doubles.  Returns the iterations. */
int lcp_cg(lcp_linop *L, const unsigned char *mask, const double *shift, const double *b,
           double *x, double rtol, int maxit, double *ws);

/* f(z) = 1/2 z'(Az) + q'z, given Az */
double lcp_qp_value(const lcp_problem *P, const double *z, const double *Az);

/* Sparse LU (KLU) of K = A + s I for a symmetric CSR A (shift_lu.c): open analyses the
 * pattern once, factor(s) factors for a shift, solve overwrites b with K^-1 b. */
typedef struct lcp_shift_lu lcp_shift_lu;
lcp_status lcp_shift_lu_open(lcp_shift_lu **F, const lcp_csr *A);
lcp_status lcp_shift_lu_factor(lcp_shift_lu *F, double s);
lcp_status lcp_shift_lu_solve(lcp_shift_lu *F, double *b);
void lcp_shift_lu_close(lcp_shift_lu *F);   /* accepts NULL */

static inline double lcp_dot(int m, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s += x[i] * y[i];
    return s;
}

#endif
