/* nncg.c: the nonsmooth nonlinear conjugate gradient method (`nncg'), lcp/README.md, "The
 * field's solver families".
 *
 * PGS sweeps accelerated as a nonlinear CG (Fletcher-Reeves) on the sweep's update:
 *     x_1 = PGS(x_0);  g_1 = x_1 - x_0;  p_1 = g_1
 *     k >= 1:  x_{k+1} = PGS(x_k);  g_{k+1} = x_{k+1} - x_k;  beta = ||g_{k+1}||^2 / ||g_k||^2
 *              beta > 1 (options.restart):  restart, p_{k+1} = 0, no step
 *              else:  x_{k+1} += beta p_k;  p_{k+1} = beta p_k + g_{k+1}
 * The next sweep projects (the paper); options.projected = 1 clips x_{k+1} to the box of
 * its own normals after the step.  The sweep is pgs's (natural order, omega 1, the PGS of
 * the paper), assembled or matrix-free, so boxes and friction index are as in pgs.
 * Work per iteration: one sweep; matrix-free, a momentum step also rebuilds u = Minv J^T z
 * (a product with the factors): one more unit.
 * Source: M. Silcowitz, S. Niebe, K. Erleben, "A nonsmooth nonlinear conjugate gradient
 * method for interactive contact force problems", The Visual Computer 26 (2010) 893-901;
 * Bullet's btNNCGConstraintSolver.
 */
#include "lcp_internal.h"
#include "solvers.h"

#include <string.h>

typedef struct nncg_ctx {
    const lcp_problem *P;
    lcp_pgs *pgs;
    double *x0, *p; /* m: x_k before the sweep, the direction p_k */
    double gprev;   /* ||g_k||^2 */
    int restart, projected;
} nncg_ctx;

static lcp_status nncg_step(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    nncg_ctx *c = vctx;
    int m = c->P->m;
    (void)row;
    memcpy(c->x0, z, (size_t)m * sizeof(double));
    est->e2 = lcp_pgs_sweep(c->pgs, k, z);                       /* x_{k+1} = PGS(x_k) */
    double g2 = 0.0;
    for (int i = 0; i < m; i++) g2 += (z[i] - c->x0[i]) * (z[i] - c->x0[i]);
    double beta = c->gprev > 0.0 ? g2 / c->gprev : 0.0;           /* Fletcher-Reeves */
    c->gprev = g2;
    est->merit = sqrt(g2);
    if (k == 1 || (c->restart && beta > 1.0)) {          /* p_1 = g_1; restart: p = 0 */
        for (int i = 0; i < m; i++) c->p[i] = k == 1 ? z[i] - c->x0[i] : 0.0;
        return LCP_OK;
    }
    for (int i = 0; i < m; i++) {
        double g = z[i] - c->x0[i];
        z[i] += beta * c->p[i];                                  /* x_{k+1} += beta p_k */
        c->p[i] = beta * c->p[i] + g;                            /* p_{k+1} = beta p_k + g */
    }
    if (c->projected) lcp_project(c->P, z);
    if (lcp_pgs_mf(c->pgs)) {
        lcp_pgs_touch(c->pgs, z);                                /* u = Minv J^T z */
        est->work += 1.0;
    }
    return LCP_OK;
}

lcp_status lcp_solve_nncg(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    lcp_options o = *opt;                 /* the paper's PGS: natural order, omega 1 */
    o.order = LCP_ORDER_NATURAL;
    o.omega = 1.0;
    nncg_ctx c = {.P = P, .restart = opt->restart, .projected = opt->projected};
    lcp_status st = lcp_pgs_open(&c.pgs, P, &o, &info->row);
    c.x0 = lcp_malloc(2 * (size_t)P->m + 1, sizeof(double));
    c.p = c.x0 ? c.x0 + P->m : NULL;
    if (st == LCP_OK && !c.x0) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        info->form = lcp_pgs_mf(c.pgs) ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        info->omega = 1.0;
        st = lcp_iterate_method(P, opt, nncg_step, &c, z, info);
    }
    lcp_pgs_close(c.pgs);
    lcp_free(c.x0);
    info->status = st;
    return st;
}
