/* jacobi.c: projected Jacobi (`jacobi`), spec/solvers.md.
 *
 * All rows from the same old iterate (bounds too):
 *     z^{k+1} = mid(lo(z^k), z^k - omega D^{-1} (A z^k + q), hi(z^k))
 * omega = 1 by default; `auto' (omega_auto) takes omega = 1 / lambda_max(D^-1/2 A D^-1/2),
 * estimated by 50 power iterations from a fixed start vector (reported in info->omega).
 * Assembled: w = A z + q (one CSR product).  Matrix-free: w = J (Minv (J^T z)) + E z + q
 * (three sparse products).  Both O(nnz) per sweep.  Jacobi may diverge on contact problems:
 * the shared loop then stops with LCP_ERR_DIVERGED or LCP_ERR_NONFINITE.
 */
#include "lcp_internal.h"
#include "solvers.h"

#include <string.h>

typedef struct jacobi_ctx {
    const lcp_problem *P;
    int mf;
    double omega;
    double *d;      /* m: a_ii */
    double *w;      /* m: A z + q */
    double *zold;   /* m */
    double *t, *u;  /* n: J^T z, Minv J^T z (matrix-free) */
} jacobi_ctx;

/* w = A z + q in the chosen form */
static void jacobi_w(jacobi_ctx *c, const double *z)
{
    const lcp_problem *P = c->P;
    if (c->mf) {
        lcp_csr_matvec_t(&P->J, z, c->t);                    /* t = J^T z */
        lcp_csr_matvec(&P->Minv, c->t, c->u);                /* u = Minv t */
        lcp_csr_matvec(&P->J, c->u, c->w);                   /* w = J u */
        for (int i = 0; i < P->m; i++) c->w[i] += (P->E ? P->E[i] * z[i] : 0.0) + P->q[i];
    } else {
        lcp_csr_matvec(&P->A, z, c->w);                      /* w = A z */
        for (int i = 0; i < P->m; i++) c->w[i] += P->q[i];
    }
}

static lcp_status jacobi_sweep(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    jacobi_ctx *c = vctx;
    const lcp_problem *P = c->P;
    (void)k;
    (void)row;
    jacobi_w(c, z);
    memcpy(c->zold, z, (size_t)P->m * sizeof(double));
    double e2 = 0.0;
    for (int i = 0; i < P->m; i++) {
        double lo, hi;
        lcp_row_bounds(P, c->zold, i, &lo, &hi);
        double rho = c->zold[i] - lcp_mid(lo, c->zold[i] - c->w[i], hi);  /* r_i(z^k) */
        e2 += rho * rho;
        z[i] = lcp_mid(lo, c->zold[i] - c->omega * c->w[i] / c->d[i], hi);
    }
    est->e2 = e2;                                 /* ||r(z^k)||_2^2, z^k kept in zold */
    est->prev = c->zold;
    return LCP_OK;
}

/* lambda_max of D^-1/2 A D^-1/2 by power iteration (A symmetric positive semi-definite):
 * x <- S x / ||S x||, lambda = x^T S x.  Uses c->w and c->zold as workspace. */
static double jacobi_lambda_max(jacobi_ctx *c)
{
    const lcp_problem *P = c->P;
    int m = P->m;
    double *x = c->zold, *y = c->w, lambda = 0.0;
    uint64_t s = 12345;
    for (int i = 0; i < m; i++) x[i] = 1.0 + 0.1 * lcp_rng_uniform(&s);
    for (int it = 0; it < 50; it++) {
        double nx = 0.0;
        for (int i = 0; i < m; i++) nx += x[i] * x[i];
        nx = sqrt(nx);
        if (!(nx > 0.0)) break;
        for (int i = 0; i < m; i++) x[i] /= nx * sqrt(c->d[i]);   /* x <- D^-1/2 x / ||x|| */
        lcp_csr_matvec(&P->A, x, y);                             /* y = A D^-1/2 x */
        lambda = 0.0;
        for (int i = 0; i < m; i++) {
            y[i] /= sqrt(c->d[i]);                               /* y = S x */
            lambda += y[i] * x[i] * sqrt(c->d[i]);               /* x^T S x, ||x|| = 1 */
        }
        memcpy(x, y, (size_t)m * sizeof(double));
    }
    return lambda;
}

lcp_status lcp_solve_jacobi(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    jacobi_ctx c = {.P = P, .omega = opt->omega};
    lcp_status st = LCP_OK;
    lcp_form form = opt->form;
    if (form == LCP_FORM_AUTO)
        form = lcp_problem_has_factors(P) ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
    if (form == LCP_FORM_MATRIX_FREE && !lcp_problem_has_factors(P)) st = LCP_ERR_NEEDS_FACTORS;
    if (!opt->omega_auto && !(opt->omega > 0.0 && opt->omega < 2.0)) st = LCP_ERR_ARG;
    c.mf = form == LCP_FORM_MATRIX_FREE;
    c.d = lcp_malloc((size_t)P->m, sizeof(double));
    c.w = lcp_malloc((size_t)P->m, sizeof(double));
    c.zold = lcp_malloc((size_t)P->m, sizeof(double));
    if (c.mf) {
        c.t = lcp_malloc((size_t)P->n, sizeof(double));
        c.u = lcp_malloc((size_t)P->n, sizeof(double));
    }
    if (st == LCP_OK && (!c.d || !c.w || !c.zold || (c.mf && (!c.t || !c.u))))
        st = LCP_ERR_NOMEM;
    if (st == LCP_OK) lcp_csr_diag(&P->A, c.d);
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(c.d[i] > 0.0)) {
            st = LCP_ERR_ZERO_DIAG;
            info->row = i;
        }
    if (st == LCP_OK && opt->omega_auto) {
        double lambda = P->m > 0 ? jacobi_lambda_max(&c) : 1.0;
        if (!(lambda > 0.0) || !isfinite(lambda)) st = LCP_ERR_BREAKDOWN;
        else c.omega = 1.0 / lambda;
    }
    if (st == LCP_OK) {
        info->form = form;
        info->omega = c.omega;
        st = lcp_iterate_fused(P, opt, jacobi_sweep, &c, z, info);
        info->omega = c.omega;
    }
    lcp_free(c.d);
    lcp_free(c.w);
    lcp_free(c.zold);
    lcp_free(c.t);
    lcp_free(c.u);
    info->status = st;
    return st;
}
