/* apgd.c: accelerated projected gradient (`apgd'), Nesterov's method with an adaptive step
 * and restart, on the box QP  min f(z) = 1/2 z'Az + q'z  over lo <= z <= hi (symmetric A),
 * lcp/README.md, "The field's solver families".
 *
 *   L_0 = ||A (x_0 - xh)|| / ||x_0 - xh||, xh = x_0 + 1 (all ones); t = 1/L (options.step
 *   > 0: t = step); theta_0 = 1; y_0 = x_0.  Each iteration:
 *     g = A y_k + q;  x_{k+1} = P(y_k - t g)
 *     while f(x_{k+1}) > f(y_k) + g'(x_{k+1} - y_k) + (L/2)||x_{k+1} - y_k||^2:
 *         L <- 2L, t <- 1/L, x_{k+1} = P(y_k - t g)
 *     theta_{k+1} solves theta^2 = (1 - theta) theta_k^2
 *     beta = theta_k (1 - theta_k) / (theta_k^2 + theta_{k+1})
 *     y_{k+1} = x_{k+1} + beta (x_{k+1} - x_k)
 *     restart (options.restart) when g'(x_{k+1} - x_k) > 0:  y_{k+1} = x_{k+1}, theta = 1
 *     L <- 0.9 L, t <- 1/L
 * P projects on the box; with a friction index on the box of the projected normals
 * (lcp_project: the engines' practice), so every iterate is feasible.  (The box of x_k's
 * normals instead, as spg takes it: 30578 iterations to 1e-8 on pool-step100, 63713 on
 * spheres-step100, against 28579 and 4710 with this one.)
 * For a quadratic f(x) - f(y) - g'(x - y) = 1/2 (x - y)'A(x - y), so the test is
 * (x - y)'(A x - A y) <= L ||x - y||^2: the same inequality without the cancellation of
 * f's values, which near the answer made L double for ever (a 2 x 2 problem stalled at
 * 1e-10).  A y is kept by linearity, A y_{k+1} = A x_{k+1} + beta (A x_{k+1} - A x_k): the only
 * product is A x_{k+1}, one per trial of the step (the work unit).  Matrix-free through
 * the factors' product.  The loop returns the best iterate by the residual.
 * Sources: H. Mazhar, T. Heyn, D. Negrut, A. Tasora, "Using Nesterov's method to accelerate
 * multibody dynamics with friction and contact", ACM TOG 34(3) 32 (2015), Algorithm 2;
 * B. O'Donoghue, E. Candes, "Adaptive restart for accelerated gradient schemes", Found.
 * Comput. Math. 15 (2015) 715-732 (the gradient restart).
 */
#include "families.h"
#include "solvers.h"

#include <string.h>

typedef struct apgd_ctx {
    const lcp_problem *P;
    lcp_linop L;
    double *xo, *y, *g, *Ax, *Axo, *Ay;  /* m each: x_k, y_k, the gradient, their products */
    double Lip, theta;
    int restart;
} apgd_ctx;

/* L_0 from a product along the ones vector: ||A 1|| / ||1|| (x_0 - xh = -1) */
static double apgd_lipschitz(apgd_ctx *c)
{
    int m = c->P->m;
    for (int i = 0; i < m; i++) c->g[i] = 1.0;
    lcp_linop_apply(&c->L, c->g, c->y);
    double n = sqrt(lcp_dot(m, c->y, c->y) / (double)m);
    return n > 0.0 ? n : 1.0;
}

/* x = P(y - g / L), A x and f(x); returns f(x) */
static double apgd_trial(apgd_ctx *c, double *x)
{
    for (int i = 0; i < c->P->m; i++) x[i] = c->y[i] - c->g[i] / c->Lip;
    lcp_project(c->P, x);
    lcp_linop_apply(&c->L, x, c->Ax);
    return lcp_qp_value(c->P, x, c->Ax);
}

static lcp_status apgd_step(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    apgd_ctx *c = vctx;
    int m = c->P->m;
    (void)row;
    if (k == 1) {                                        /* y_0 = x_0, A x_0 */
        memcpy(c->y, z, (size_t)m * sizeof(double));
        lcp_linop_apply(&c->L, z, c->Ax);
        memcpy(c->Ay, c->Ax, (size_t)m * sizeof(double));
    }
    memcpy(c->xo, z, (size_t)m * sizeof(double));        /* x_k and A x_k */
    memcpy(c->Axo, c->Ax, (size_t)m * sizeof(double));
    for (int i = 0; i < m; i++) c->g[i] = c->Ay[i] + c->P->q[i];           /* g = A y + q */
    double fx = apgd_trial(c, z);
    for (int tries = 0; tries < 60; tries++) {
        double dAd = 0.0, d2 = 0.0;       /* f(x) - f(y) - g'(x - y) = 1/2 d'Ad, d = x - y */
        for (int i = 0; i < m; i++) {
            double d = z[i] - c->y[i];
            dAd += d * (c->Ax[i] - c->Ay[i]);
            d2 += d * d;
        }
        if (dAd <= c->Lip * d2) break;                   /* the quadratic bound holds */
        c->Lip *= 2.0;
        fx = apgd_trial(c, z);
    }
    double t2 = c->theta * c->theta;
    double th = 0.5 * (-t2 + sqrt(t2 * t2 + 4.0 * t2));  /* theta^2 = (1 - theta) theta_k^2 */
    double beta = c->theta * (1.0 - c->theta) / (t2 + th), gd = 0.0;
    for (int i = 0; i < m; i++) gd += c->g[i] * (z[i] - c->xo[i]);
    if (c->restart && gd > 0.0) {                       /* O'Donoghue-Candes: restart */
        beta = 0.0;
        th = 1.0;
    }
    for (int i = 0; i < m; i++) {
        c->y[i] = z[i] + beta * (z[i] - c->xo[i]);                  /* y = x + beta dx */
        c->Ay[i] = c->Ax[i] + beta * (c->Ax[i] - c->Axo[i]);        /* A y by linearity */
    }
    c->theta = th;
    c->Lip *= 0.9;
    est->merit = fx;
    est->work = lcp_linop_fresh(&c->L);
    return LCP_OK;
}

lcp_status lcp_solve_apgd(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    apgd_ctx c = {.P = P, .theta = 1.0, .restart = opt->restart};
    lcp_status st = opt->step >= 0.0 ? lcp_linop_init(&c.L, P, opt->form, &info->row)
                                     : LCP_ERR_ARG;
    double *v = lcp_malloc(6 * (size_t)P->m + 1, sizeof(double));
    if (st == LCP_OK && !v) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        c.xo = v, c.y = v + P->m, c.g = v + 2 * P->m;
        c.Ax = v + 3 * P->m, c.Axo = v + 4 * P->m, c.Ay = v + 5 * P->m;
        c.Lip = opt->step > 0.0 ? 1.0 / opt->step : P->m ? apgd_lipschitz(&c) : 1.0;
        info->form = c.L.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        st = lcp_iterate_method(P, opt, apgd_step, &c, z, info);
    }
    lcp_linop_free(&c.L);
    lcp_free(v);
    info->status = st;
    return st;
}
