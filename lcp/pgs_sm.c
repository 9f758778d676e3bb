/* pgs_sm.c: projected Gauss-Seidel with subspace minimisation (`pgs-sm'), lcp/README.md,
 * "The field's solver families".
 *
 * One iteration of the loop is one cycle:
 *   1. k_pgs PGS sweeps (options.pgs_sweeps, 5; pgs's sweep, natural order, omega 1) to
 *      settle an active set;
 *   2. up to k_sm subspace steps (options.sm_steps, 5): F = the rows strictly inside their
 *      bounds (lo_i < z_i < hi_i, friction bounds from z), the others held at their bounds;
 *        A_FF d_F = -w_F      by Jacobi-preconditioned CG, at most inner_max (10) iterations,
 *                             to a relative 1e-2 (a few steps, the paper's "subspace
 *                             minimisation" of f over the free rows)
 *        z_F <- P(z_F + t d_F), t = 1, 1/2, ... (at most 10 halvings) until the natural-map
 *                             residual decreases (the projected search on the residual);
 *      the phase stops when no t decreases it, or when the active set changes.
 * P is the box of the projected normals (lcp_project), as in apgd; with a friction index
 * the subspace direction ignores the coupling of the bounds (a heuristic the search
 * guards).  CG needs A_FF symmetric positive definite: symmetric A.
 * Work: one per sweep, per CG iteration, per product of w and of each trial; matrix-free,
 * one more to rebuild u = Minv J^T z after a phase that moved z.
 * Source: M. Silcowitz, S. Niebe, K. Erleben, "Projected Gauss-Seidel subspace
 * minimization method for interactive rigid body dynamics", GRAPP 2010.
 */
#include "families.h"
#include "solvers.h"

#include <string.h>

#define SM_INNER 10
#define SM_RTOL 1e-2
#define SM_HALVINGS 10

typedef struct sm_ctx {
    const lcp_problem *P;
    lcp_pgs *pgs;
    lcp_linop L;
    double *w, *d, *b, *zt, *ws;   /* m each, ws 4m */
    unsigned char *free_, *free2;  /* m: F, and F after a step */
    int sweeps, k_pgs, k_sm, inner_max;
} sm_ctx;

/* mask[i] = 1 on the rows strictly inside their bounds at z; returns their count */
static int free_rows(const lcp_problem *P, const double *z, unsigned char *mask)
{
    int n = 0;
    for (int i = 0; i < P->m; i++) {
        double lo, hi;
        lcp_row_bounds(P, z, i, &lo, &hi);
        mask[i] = lo < z[i] && z[i] < hi;
        n += mask[i];
    }
    return n;
}

/* w = A z + q and ||z - mid(lo, z - w, hi)||_2 */
static double residual_at(sm_ctx *c, const double *z, double *w)
{
    const lcp_problem *P = c->P;
    double s = 0.0;
    lcp_linop_apply(&c->L, z, w);
    for (int i = 0; i < P->m; i++) {
        double lo, hi;
        w[i] += P->q[i];
        lcp_row_bounds(P, z, i, &lo, &hi);
        double r = z[i] - lcp_mid(lo, z[i] - w[i], hi);
        s += r * r;
    }
    return sqrt(s);
}

/* one subspace step from z (w, r its residual); 1 when it moved z with F unchanged */
static int subspace_step(sm_ctx *c, double *z, double *r)
{
    int m = c->P->m;
    if (free_rows(c->P, z, c->free_) == 0) return 0;
    for (int i = 0; i < m; i++) c->b[i] = -c->w[i];                       /* -w_F */
    lcp_cg(&c->L, c->free_, NULL, c->b, c->d, SM_RTOL, c->inner_max, c->ws);
    for (int h = 0; h <= SM_HALVINGS; h++) {
        double t = ldexp(1.0, -h);
        for (int i = 0; i < m; i++) c->zt[i] = z[i] + t * c->d[i];       /* z_F + t d_F */
        lcp_project(c->P, c->zt);
        double rt = residual_at(c, c->zt, c->b);
        if (rt < *r) {
            memcpy(z, c->zt, (size_t)m * sizeof(double));
            memcpy(c->w, c->b, (size_t)m * sizeof(double));
            *r = rt;
            free_rows(c->P, z, c->free2);
            return memcmp(c->free_, c->free2, (size_t)m) == 0;
        }
    }
    return 0;
}

static lcp_status sm_step(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    sm_ctx *c = vctx;
    (void)k;
    (void)row;
    for (int s = 0; s < c->k_pgs; s++) est->e2 = lcp_pgs_sweep(c->pgs, ++c->sweeps, z);
    double r = residual_at(c, z, c->w), r0 = r;
    for (int s = 0; s < c->k_sm; s++)
        if (!subspace_step(c, z, &r)) break;
    if (r < r0 && lcp_pgs_mf(c->pgs)) {
        lcp_pgs_touch(c->pgs, z);                                     /* u = Minv J^T z */
        c->L.products += 1.0;
    }
    est->work = c->k_pgs + lcp_linop_fresh(&c->L);
    est->merit = r;
    return LCP_OK;
}

lcp_status lcp_solve_pgs_sm(const lcp_problem *P, const lcp_options *opt, double *z,
                            lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    lcp_options o = *opt;                 /* the paper's PGS: natural order, omega 1 */
    o.order = LCP_ORDER_NATURAL;
    o.omega = 1.0;
    sm_ctx c = {.P = P, .k_pgs = opt->pgs_sweeps, .k_sm = opt->sm_steps,
                .inner_max = opt->inner_max > 0 ? opt->inner_max : SM_INNER};
    lcp_status st = opt->pgs_sweeps >= 1 && opt->sm_steps >= 0 && opt->inner_max >= 0
                        ? lcp_pgs_open(&c.pgs, P, &o, &info->row) : LCP_ERR_ARG;
    if (st == LCP_OK) st = lcp_linop_init(&c.L, P, opt->form, &info->row);
    size_t m = (size_t)P->m;
    double *v = lcp_malloc(8 * m + 1, sizeof(double));
    c.free_ = lcp_malloc(2 * m + 1, 1);
    if (st == LCP_OK && (!v || !c.free_)) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        c.w = v, c.d = v + m, c.b = v + 2 * m, c.zt = v + 3 * m, c.ws = v + 4 * m;
        c.free2 = c.free_ + m;
        info->form = c.L.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        info->omega = 1.0;
        st = lcp_iterate_method(P, opt, sm_step, &c, z, info);
    }
    lcp_pgs_close(c.pgs);
    lcp_linop_free(&c.L);
    lcp_free(v);
    lcp_free(c.free_);
    info->status = st;
    return st;
}
