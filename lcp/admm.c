/* admm.c: ADMM on the box QP of a symmetric LCP (`admm'), in the operator-splitting form of
 * OSQP, lcp/README.md, "The field's solver families".
 *
 *   minimise f(x) = 1/2 x'Ax + q'x  subject to  x = y,  y in the box.
 *   K = A + (sigma + rho) I, factored once (shift_lu.c, KLU), then each iteration:
 *     x~      = K^-1 (sigma x_k - q + rho y_k - lambda_k)
 *     y_{k+1} = P(alpha x~ + (1 - alpha) y_k + lambda_k / rho)
 *     lambda_{k+1} = lambda_k + rho (alpha x~ + (1 - alpha) y_k - y_{k+1});   x_{k+1} = x~
 *   The answer is y (it lies in the box).  Defaults (OSQP): sigma = 1e-6, alpha = 1.6;
 *   rho_0 = 0.1 on OSQP's scaled problem, here 0.1 mean(a_ii) (we do not scale; options.rho
 *   > 0 sets it).  Every 25 iterations OSQP's rule
 *     rho_new = rho sqrt( (||x - y||_inf / max(||x||, ||y||)) /
 *                         (||A x + q + lambda||_inf / max(||A x||, ||lambda||, ||q||)) )
 *   (norms inf), and K is factored again only when rho_new leaves [rho/5, 5 rho].
 * P is the box of the projected normals with a friction index (lcp_project, as apgd): the
 * coupled problem is not this QP, so it may stall there (best iterate, not converged).
 * Work: a solve with the factors counts one unit (as a product), the product A x of the
 * rho rule one; factorisations apart (info.factorizations, info.factor_time).  Needs A
 * assembled (K is formed from it).
 * Sources: S. Boyd, N. Parikh, E. Chu, B. Peleato, J. Eckstein, "Distributed optimization
 * and statistical learning via the alternating direction method of multipliers", Found.
 * Trends Mach. Learn. 3 (2011); B. Stellato, G. Banjac, P. Goulart, A. Bemporad, S. Boyd,
 * "OSQP: an operator splitting solver for quadratic programs", Math. Prog. Comp. 12 (2020)
 * 637-672.
 */
#include "families.h"
#include "solvers.h"

#include <string.h>

#define ADMM_RHO0 0.1
#define ADMM_EVERY 25
#define ADMM_RHO_TOL 5.0

typedef struct admm_ctx {
    const lcp_problem *P;
    lcp_linop L;
    lcp_shift_lu *F;
    double *x, *lam, *xt, *Ax;      /* m each */
    double rho, sigma, alpha;
    lcp_info *info;
} admm_ctx;

/* K = A + (sigma + rho) I factored, counted and timed */
static lcp_status admm_factor(admm_ctx *c)
{
    double t0 = lcp_seconds();
    lcp_status st = lcp_shift_lu_factor(c->F, c->sigma + c->rho);
    c->info->factor_time += lcp_seconds() - t0;
    c->info->factorizations++;
    return st;
}

static double norm_inf(int m, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s = fmax(s, fabs(v[i]));
    return s;
}

/* OSQP's rho rule at (x, y = z, lambda); K factored again when rho moves by 5x */
static lcp_status admm_rho(admm_ctx *c, const double *z)
{
    int m = c->P->m;
    lcp_linop_apply(&c->L, c->x, c->Ax);
    double rp = 0.0, rd = 0.0;
    for (int i = 0; i < m; i++) {
        rp = fmax(rp, fabs(c->x[i] - z[i]));                          /* x - y */
        rd = fmax(rd, fabs(c->Ax[i] + c->P->q[i] + c->lam[i]));       /* A x + q + lambda */
    }
    double np = fmax(norm_inf(m, c->x), norm_inf(m, z));
    double nd = fmax(norm_inf(m, c->Ax), fmax(norm_inf(m, c->lam), norm_inf(m, c->P->q)));
    if (!(rp > 0.0 && rd > 0.0 && np > 0.0 && nd > 0.0)) return LCP_OK;
    double r = fmin(1e6, fmax(1e-6, c->rho * sqrt((rp / np) / (rd / nd))));
    if (r <= ADMM_RHO_TOL * c->rho && r >= c->rho / ADMM_RHO_TOL) return LCP_OK;
    c->rho = r;
    return admm_factor(c);
}

static lcp_status admm_step(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    admm_ctx *c = vctx;
    int m = c->P->m;
    const double *q = c->P->q;
    (void)row;
    if (m == 0) return LCP_OK;                                        /* nothing factored */
    if (k == 1) memcpy(c->x, z, (size_t)m * sizeof(double));         /* x_0 = y_0, lambda 0 */
    for (int i = 0; i < m; i++)
        c->xt[i] = c->sigma * c->x[i] - q[i] + c->rho * z[i] - c->lam[i];
    lcp_status st = lcp_shift_lu_solve(c->F, c->xt);                  /* x~ = K^-1 (...) */
    c->L.products += 1.0;
    if (st != LCP_OK) return st;
    double rp = 0.0;
    for (int i = 0; i < m; i++) {
        double xr = c->alpha * c->xt[i] + (1.0 - c->alpha) * z[i];    /* relaxed x~ */
        c->x[i] = xr;                                                 /* (kept for lambda) */
        z[i] = xr + c->lam[i] / c->rho;
    }
    lcp_project(c->P, z);                                             /* y_{k+1} */
    for (int i = 0; i < m; i++) {
        c->lam[i] += c->rho * (c->x[i] - z[i]);
        rp = fmax(rp, fabs(c->xt[i] - z[i]));
        c->x[i] = c->xt[i];                                           /* x_{k+1} = x~ */
    }
    if (k % ADMM_EVERY == 0) st = admm_rho(c, z);
    est->merit = rp;
    est->work = lcp_linop_fresh(&c->L);
    return st;
}

lcp_status lcp_solve_admm(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    admm_ctx c = {.P = P, .sigma = opt->sigma, .alpha = opt->relax, .info = info};
    lcp_status st = opt->rho >= 0.0 && opt->sigma >= 0.0 && opt->relax > 0.0 &&
                            opt->relax < 2.0
                        ? lcp_linop_init(&c.L, P, LCP_FORM_ASSEMBLED, &info->row)
                        : LCP_ERR_ARG;
    double *v = lcp_calloc(4 * (size_t)P->m + 1, sizeof(double));
    if (st == LCP_OK && !v) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        c.x = v, c.lam = v + P->m, c.xt = v + 2 * P->m, c.Ax = v + 3 * P->m;
        double mean = 0.0;
        for (int i = 0; i < P->m; i++) mean += c.L.diag[i] / P->m;
        c.rho = opt->rho > 0.0 ? opt->rho : ADMM_RHO0 * (P->m ? mean : 1.0);
        double t0 = lcp_seconds();
        if (P->m > 0) st = lcp_shift_lu_open(&c.F, &P->A);
        info->factor_time += lcp_seconds() - t0;
    }
    if (st == LCP_OK && P->m > 0) st = admm_factor(&c);
    if (st == LCP_OK) {
        info->form = LCP_FORM_ASSEMBLED;
        st = lcp_iterate_method(P, opt, admm_step, &c, z, info);
    }
    lcp_shift_lu_close(c.F);
    lcp_linop_free(&c.L);
    lcp_free(v);
    info->status = st;
    return st;
}
