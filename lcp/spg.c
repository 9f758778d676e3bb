/* spg.c: Barzilai-Borwein spectral projected gradient (`spg'), SPG2 of Birgin, Martinez
 * and Raydan, on the box QP  min f(z) = 1/2 z'Az + q'z  over lo <= z <= hi (symmetric A),
 * lcp/README.md, "The field's solver families".
 *
 *   alpha_0 = 1 / ||P(x_0 - g_0) - x_0||_inf (options.step > 0: alpha_0 = step)
 *   each iteration:  g = A x + q;  d = P(x - alpha g) - x
 *     nonmonotone Armijo over the last M values (options.memory, 10):
 *       lambda = 1;  while f(x + lambda d) > max_{j<M} f_{k-j} + gamma lambda g'd
 *         lambda <- the minimiser of the quadratic through f(x), g'd, f(x + lambda d),
 *                   kept in [sigma1, sigma2 lambda] (else lambda / 2); gamma = 1e-4,
 *                   sigma1 = 0.1, sigma2 = 0.9
 *     s = lambda d;  y = A s;  alpha = s's / s'y clamped to [1e-30, 1e30] (1e30 when
 *     s'y <= 0): the paper's bounds, no scaling by diag A.
 * A quadratic needs one product per iteration: with Ad, f(x + lambda d) = f(x) + lambda g'd
 * + lambda^2/2 d'Ad for every lambda, and A x_{k+1} = A x + lambda A d.  P projects on the
 * box; x + lambda d
 * lies between x and P(x - alpha g).  With a friction index the box is that of x's own
 * normals, fixed for the step (lcp_project_from), so d is a descent direction of f on it
 * and the search is SPG2's; projecting on the box of the projected normals instead
 * (apgd's P) left capsule-step1 at 3e-5 after 100000 iterations (18 with this box).
 * The coupled problem is not this QP, so the method may stall on friction problems: the
 * loop then returns the best iterate, not converged.
 * Sources: E. G. Birgin, J. M. Martinez, M. Raydan, "Nonmonotone spectral projected
 * gradient methods on convex sets", SIAM J. Optim. 10 (2000) 1196-1211 (SPG2); Project
 * Chrono's ChSolverBB.
 */
#include "families.h"
#include "solvers.h"

#include <string.h>

#define SPG_GAMMA 1e-4
#define SPG_AMIN 1e-30
#define SPG_AMAX 1e30

typedef struct spg_ctx {
    const lcp_problem *P;
    lcp_linop L;
    double *d, *Ad, *Ax, *g;   /* m each */
    double *fhist;             /* memory: the last values of f */
    int memory;
    double alpha, f;
} spg_ctx;

/* d = P(x - alpha g) - x */
static void spg_direction(spg_ctx *c, const double *x)
{
    for (int i = 0; i < c->P->m; i++) c->d[i] = x[i] - c->alpha * c->g[i];
    lcp_project_from(c->P, x, c->d);
    for (int i = 0; i < c->P->m; i++) c->d[i] -= x[i];
}

/* the nonmonotone step length along d: f(x + lambda d) from gd = g'd and dAd = d'Ad */
static double spg_lambda(const spg_ctx *c, int k, double gd, double dAd)
{
    double top = -INFINITY, lambda = 1.0;
    int n = k < c->memory ? k : c->memory;
    for (int j = 0; j < n; j++) top = fmax(top, c->fhist[j]);
    for (int tries = 0; tries < 60; tries++) {
        double ft = c->f + lambda * gd + 0.5 * lambda * lambda * dAd;
        if (ft <= top + SPG_GAMMA * lambda * gd) break;
        double lt = -0.5 * lambda * lambda * gd / (ft - c->f - lambda * gd);  /* quadratic */
        lambda = lt >= 0.1 && lt <= 0.9 * lambda ? lt : 0.5 * lambda;
    }
    return lambda;
}

static lcp_status spg_step(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    spg_ctx *c = vctx;
    int m = c->P->m;
    (void)row;
    if (k == 1) {
        lcp_linop_apply(&c->L, z, c->Ax);
        for (int i = 0; i < m; i++) c->g[i] = c->Ax[i] + c->P->q[i];
        c->f = lcp_qp_value(c->P, z, c->Ax);
        if (!(c->alpha > 0.0)) {                           /* SPG2's alpha_0 */
            c->alpha = 1.0;
            spg_direction(c, z);
            double dn = 0.0;
            for (int i = 0; i < m; i++) dn = fmax(dn, fabs(c->d[i]));
            c->alpha = dn > 0.0 ? fmin(SPG_AMAX, fmax(SPG_AMIN, 1.0 / dn)) : 1.0;
        }
    }
    c->fhist[(k - 1) % c->memory] = c->f;
    spg_direction(c, z);
    lcp_linop_apply(&c->L, c->d, c->Ad);
    double gd = lcp_dot(m, c->g, c->d), dAd = lcp_dot(m, c->d, c->Ad);
    double lambda = spg_lambda(c, k, gd, dAd);
    for (int i = 0; i < m; i++) {
        z[i] += lambda * c->d[i];                                   /* x += lambda d */
        c->Ax[i] += lambda * c->Ad[i];
        c->g[i] = c->Ax[i] + c->P->q[i];
    }
    c->f += lambda * gd + 0.5 * lambda * lambda * dAd;
    double ss = lambda * lambda * lcp_dot(m, c->d, c->d), sy = lambda * lambda * dAd;
    c->alpha = sy > 0.0 ? fmin(SPG_AMAX, fmax(SPG_AMIN, ss / sy)) : SPG_AMAX;  /* BB step */
    est->merit = c->f;
    est->work = lcp_linop_fresh(&c->L);
    return LCP_OK;
}

lcp_status lcp_solve_spg(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    spg_ctx c = {.P = P, .memory = opt->memory, .alpha = opt->step};
    lcp_status st = opt->memory >= 1 && opt->step >= 0.0
                        ? lcp_linop_init(&c.L, P, opt->form, &info->row) : LCP_ERR_ARG;
    double *v = lcp_malloc(4 * (size_t)P->m + (size_t)(opt->memory > 0 ? opt->memory : 0) + 1,
                           sizeof(double));
    if (st == LCP_OK && !v) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        c.d = v, c.Ad = v + P->m, c.Ax = v + 2 * P->m, c.g = v + 3 * P->m;
        c.fhist = v + 4 * (size_t)P->m;
        info->form = c.L.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        st = lcp_iterate_method(P, opt, spg_step, &c, z, info);
    }
    lcp_linop_free(&c.L);
    lcp_free(v);
    info->status = st;
    return st;
}
