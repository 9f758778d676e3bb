/* linop.c: the operator y = A x of the field's solver families, conjugate gradients on a
 * principal submatrix, the box QP's objective (families.h).
 *
 *   assembled:    y = A x                          one CSR product, O(nnz(A))
 *   matrix-free:  y = J (Minv (J^T x)) + E x       three sparse products, O(nnz(J) + nnz(Minv))
 * Both are lcp_product (residual.c), the residual's own product, so the two forms agree
 * with it to rounding.  a_ii from rowop.c (J_i . (J Minv)_i + E_i matrix-free).
 *
 * CG (Hestenes and Stiefel 1952) with the Jacobi preconditioner M = diag(a_ii + s_i):
 *   r = b_S, z = M^-1 r, p = z;  repeat: y = (A_SS + diag(s)) p, a = r'z / p'y, x += a p,
 *   r -= a y, stop at ||r|| <= rtol ||b_S||; z = M^-1 r, beta = r'z_new / r'z, p = z + beta p.
 * A product with A_SS is a product with A of p (zero off S) restricted to S: one unit.
 * Cost per iteration one product and O(m).  Breakdown (p'y <= 0: A_SS not positive
 * definite along p) stops with the x so far.
 */
#include "families.h"

#include <string.h>

lcp_status lcp_linop_init(lcp_linop *L, const lcp_problem *P, lcp_form form, int *row)
{
    memset(L, 0, sizeof *L);
    L->P = P;
    lcp_rowop op;
    lcp_status st = lcp_rowop_init_diag(&op, P, form);
    if (st != LCP_OK) return st;
    L->mf = op.mf;
    L->diag = op.diag;
    if (L->mf && !(L->work = lcp_malloc(2 * (size_t)P->n + 1, sizeof(double)))) st = LCP_ERR_NOMEM;
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(L->diag[i] > 0.0)) {
            st = LCP_ERR_ZERO_DIAG;
            if (row) *row = i;
        }
    if (st != LCP_OK) lcp_linop_free(L);
    return st;
}

void lcp_linop_apply(lcp_linop *L, const double *x, double *y)
{
    lcp_product(L->P, x, y, L->work, L->mf ? 2 * (size_t)L->P->n : 0, L->mf);
    L->products += 1.0;
}

void lcp_linop_free(lcp_linop *L)
{
    if (!L) return;
    lcp_free(L->work);
    lcp_free(L->diag);
    L->work = L->diag = NULL;
}

/* y_S = (A_SS + diag(shift)_S) p (p zero off S), y zero off S */
static void sub_apply(lcp_linop *L, const unsigned char *mask, const double *shift,
                      const double *p, double *y)
{
    lcp_linop_apply(L, p, y);
    for (int i = 0; i < L->P->m; i++)
        y[i] = mask[i] ? y[i] + (shift ? shift[i] * p[i] : 0.0) : 0.0;
}

int lcp_cg(lcp_linop *L, const unsigned char *mask, const double *shift, const double *b,
           double *x, double rtol, int maxit, double *ws)
{
    int m = L->P->m, it = 0;
    double *r = ws, *zp = ws + m, *p = ws + 2 * (size_t)m, *y = ws + 3 * (size_t)m;
    double rz = 0.0, bn = 0.0;
    for (int i = 0; i < m; i++) {
        x[i] = 0.0;
        r[i] = mask[i] ? b[i] : 0.0;                                   /* r = b_S */
        zp[i] = mask[i] ? r[i] / (L->diag[i] + (shift ? shift[i] : 0.0)) : 0.0;
        p[i] = zp[i];
        rz += r[i] * zp[i];
        bn += r[i] * r[i];
    }
    double stop = rtol * sqrt(bn);
    while (it < maxit && sqrt(lcp_dot(m, r, r)) > stop) {
        sub_apply(L, mask, shift, p, y);                              /* y = A_SS p */
        double py = lcp_dot(m, p, y);
        if (!(py > 0.0)) break;                                        /* breakdown */
        double a = rz / py;
        for (int i = 0; i < m; i++) {
            x[i] += a * p[i];                                          /* x += a p */
            r[i] -= a * y[i];                                          /* r -= a y */
        }
        it++;
        double rz1 = 0.0;
        for (int i = 0; i < m; i++) {
            zp[i] = mask[i] ? r[i] / (L->diag[i] + (shift ? shift[i] : 0.0)) : 0.0;
            rz1 += r[i] * zp[i];
        }
        double beta = rz1 / rz;
        rz = rz1;
        for (int i = 0; i < m; i++) p[i] = zp[i] + beta * p[i];        /* p = z + beta p */
    }
    return it;
}

double lcp_qp_value(const lcp_problem *P, const double *z, const double *Az)
{
    double f = 0.0;
    for (int i = 0; i < P->m; i++) f += z[i] * (0.5 * Az[i] + P->q[i]);   /* 1/2 z'Az + q'z */
    return f;
}
