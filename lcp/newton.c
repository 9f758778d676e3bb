/* newton.c: semismooth Newton methods with a line search: on the min-map (`newton-min')
 * and on Fischer-Burmeister (`newton-fb').  One implementation; the variant is the row
 * function Phi_i(z_i, w_i) and its generalised derivative, decided once, before the loop
 * (lcp/README.md, "The field's solver families").
 *
 * THE EQUATION.  Phi(z) = 0 with w = A z + q, row by row:
 *   min-map (natural map):  Phi_i = z_i - mid(lo_i, z_i - w_i, hi_i), i.e. w_i on the rows F
 *     with lo_i < z_i - w_i < hi_i, and z_i - bound_i on the others (B);
 *   Fischer-Burmeister, phi(a, b) = a + b - sqrt(a^2 + b^2):  Phi_i = phi(z_i - lo_i, w_i)
 *     for lo finite, hi = inf; for a box Billups's composition
 *     Phi_i = phi(z_i - lo_i, -phi(hi_i - z_i, -w_i)); -phi(hi_i - z_i, -w_i) for lo = -inf;
 *     w_i for a free row.  At a = b = 0 the element (1, 1)/sqrt(2) of the generalised
 *     gradient is taken: d phi = (1 - 1/sqrt 2)(da + db).
 * Either way dPhi_i = Da_i dz_i + Db_i dw_i with Da_i, Db_i >= 0, so an element of the
 * generalised Jacobian is H = diag(Da) + diag(Db) A (min-map: Da, Db = 0, 1 on F, 1, 0 on B).
 *
 * THE NEWTON SYSTEM  H d = -Phi.  Rows with Db_i <= 1e-12 Da_i (min-map: B) are eliminated,
 * d_i = -Phi_i / Da_i; on the others (S) dividing by Db_i leaves a symmetric positive
 * definite system (A symmetric positive definite):
 *     (A_SS + diag(Da/Db)_S) d_S = -Phi_S / Db_S - (A d_B)_S
 * (min-map: A_FF d_F = -w_F - A_FB d_B, Erleben's notes).  Inner solve: Jacobi-preconditioned
 * CG (linop.c), products with A only, so matrix-free works, to the relative tolerance
 * eta_k = min(forcing, ||Phi||) (inexact Newton: eta_k = O(||Phi||) keeps the local
 * quadratic rate), at most inner_max (100) iterations.  Our choice over KLU/CHOLMOD on
 * A_SS: no factorisation per step, and no assembled A needed.
 *
 * GLOBALISATION.  psi = 1/2 ||Phi||^2, grad psi = H' Phi = Da Phi + A (Db Phi).  The
 * Newton direction is kept when grad'd <= -rho ||d||^p (rho = 1e-8, p = 2.1, De Luca,
 * Facchinei, Kanzow), else d = -grad.  Armijo: t = 1, 1/2, ... while
 * psi(z_t) > psi(z) + sigma t grad'd (sigma = 1e-4), z_t = z + t d (min-map: clipped to the
 * box, the projected search).  A failed search with the Newton direction retries with the
 * gradient; a failed gradient search stops the loop (max-iterations, best iterate).
 * newton-fb's search is nonmonotone (Grippo, Lampariello, Lucidi 1986): psi(z) is replaced
 * by the largest psi of the last 10 iterates.  On a captured 46055-row frictionless pile
 * (tol 1e-10) that took newton-fb from a stall at 1.5e-2 after 500 steps to 192 steps;
 * the same window made newton-min stall (0.19 after 500 steps, against 200 steps to 1e-10
 * monotone), so the min-map's search stays monotone.
 *
 * WORK (products with A): A d (one per step: every trial's w_t = w + t A d, or one product
 * per trial of the clipped min-map search), A d_B, one per CG iteration, and grad psi.
 * Friction index: not supported (the coupled bounds make H non-symmetric; unsupported).
 * Sources: K. Erleben, "Numerical methods for linear complementarity problems in
 * physics-based animation", SIGGRAPH 2013 course notes (the min-map Newton method); T. De
 * Luca, F. Facchinei, C. Kanzow, "A semismooth equation approach to the solution of
 * nonlinear complementarity problems", Math. Prog. 75 (1996) 407-439; S. C. Billups,
 * "Algorithms for complementarity problems and generalized equations", PhD thesis,
 * Wisconsin 1995 (the box composition).
 */
#include "families.h"
#include "solvers.h"

#include <string.h>

#define NEWTON_SIGMA 1e-4
#define NEWTON_RHO 1e-8
#define NEWTON_P 2.1
#define NEWTON_TMIN 1e-12
#define NEWTON_INNER 100
#define NEWTON_M 10          /* newton-fb's nonmonotone window (Grippo, Lampariello, Lucidi) */
#define SQRT1_2 0.70710678118654752440

typedef struct newton_ctx {
    const lcp_problem *P;
    lcp_linop L;
    int fb;                  /* 1: Fischer-Burmeister, 0: min-map */
    double *w, *phi, *da, *db, *d, *grad, *Ad, *zt, *wt, *rhs, *shift, *ws;
    unsigned char *mask;     /* S: the rows of the reduced system */
    double psi, forcing;
    double last[NEWTON_M];   /* psi of the last NEWTON_M iterates */
    double psi_ref;          /* their largest: the search's reference */
    int window;              /* iterates in it: NEWTON_M (fb), 1 (min-map: monotone) */
    int inner_max;
} newton_ctx;

/* phi(a, b) = a + b - sqrt(a^2 + b^2) and its partial derivatives */
static double fb_phi(double a, double b, double *pa, double *pb)
{
    double r = sqrt(a * a + b * b);
    *pa = r > 0.0 ? 1.0 - a / r : 1.0 - SQRT1_2;
    *pb = r > 0.0 ? 1.0 - b / r : 1.0 - SQRT1_2;
    return a + b - r;
}

/* Phi_i, Da_i, Db_i of row i at (z_i, w_i) */
static double row_phi(int fb, double z, double w, double lo, double hi, double *da, double *db)
{
    if (!fb) {
        double v = z - w;
        int free = lo < v && v < hi;
        *da = free ? 0.0 : 1.0;
        *db = free ? 1.0 : 0.0;
        return free ? w : z - (v <= lo ? lo : hi);
    }
    double a1, b1, a2, b2;
    if (isfinite(lo) && !isfinite(hi)) return fb_phi(z - lo, w, da, db);
    if (!isfinite(lo) && !isfinite(hi)) {
        *da = 0.0;
        *db = 1.0;
        return w;
    }
    double c = -fb_phi(hi - z, -w, &a2, &b2);            /* dc = a2 dz + b2 dw */
    if (!isfinite(lo)) {
        *da = a2;
        *db = b2;
        return c;
    }
    double v = fb_phi(z - lo, c, &a1, &b1);
    *da = a1 + b1 * a2;
    *db = b1 * b2;
    return v;
}

/* Phi, Da, Db at (z, w); returns psi = 1/2 ||Phi||^2 */
static double eval_phi(newton_ctx *c, const double *z, const double *w, double *phi, int derivs)
{
    double s = 0.0, da, db;
    for (int i = 0; i < c->P->m; i++) {
        phi[i] = row_phi(c->fb, z[i], w[i], c->P->lo[i], c->P->hi[i], &da, &db);
        if (derivs) c->da[i] = da, c->db[i] = db;
        s += phi[i] * phi[i];
    }
    return 0.5 * s;
}

/* the Newton direction d from H d = -Phi (the reduced system by CG) */
static void newton_direction(newton_ctx *c)
{
    int m = c->P->m, any = 0;
    for (int i = 0; i < m; i++) {
        c->mask[i] = c->db[i] > 1e-12 * c->da[i];
        c->d[i] = c->mask[i] ? 0.0 : -c->phi[i] / c->da[i];          /* d_B = -Phi_B / Da_B */
        any |= c->d[i] != 0.0;
    }
    if (any) lcp_linop_apply(&c->L, c->d, c->Ad);                      /* A d_B */
    double pn = sqrt(2.0 * c->psi);
    for (int i = 0; i < m; i++) {
        c->shift[i] = c->mask[i] ? c->da[i] / c->db[i] : 0.0;
        c->rhs[i] = c->mask[i] ? -c->phi[i] / c->db[i] - (any ? c->Ad[i] : 0.0) : 0.0;
    }
    lcp_cg(&c->L, c->mask, c->shift, c->rhs, c->zt, fmin(c->forcing, pn), c->inner_max, c->ws);
    for (int i = 0; i < m; i++)
        if (c->mask[i]) c->d[i] = c->zt[i];
}

/* the Armijo search along d from z (slope = grad'd < 0): on success z, w, phi, psi move
 * to the accepted point and 1 is returned */
static int line_search(newton_ctx *c, double *z, double slope)
{
    int m = c->P->m, clip = !c->fb;
    if (!clip) lcp_linop_apply(&c->L, c->d, c->Ad);
    for (double t = 1.0; t >= NEWTON_TMIN; t *= 0.5) {
        for (int i = 0; i < m; i++) c->zt[i] = z[i] + t * c->d[i];
        if (clip) {
            lcp_project(c->P, c->zt);
            lcp_linop_apply(&c->L, c->zt, c->wt);
            for (int i = 0; i < m; i++) c->wt[i] += c->P->q[i];
        } else {
            for (int i = 0; i < m; i++) c->wt[i] = c->w[i] + t * c->Ad[i];
        }
        double pt = eval_phi(c, c->zt, c->wt, c->rhs, 0);
        if (pt <= c->psi_ref + NEWTON_SIGMA * t * slope) {
            memcpy(z, c->zt, (size_t)m * sizeof(double));
            memcpy(c->w, c->wt, (size_t)m * sizeof(double));
            c->psi = eval_phi(c, z, c->w, c->phi, 1);
            return 1;
        }
    }
    return 0;
}

static lcp_status newton_step(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    newton_ctx *c = vctx;
    int m = c->P->m;
    (void)row;
    if (k == 1) {                                                   /* w = A z + q */
        lcp_linop_apply(&c->L, z, c->w);
        for (int i = 0; i < m; i++) c->w[i] += c->P->q[i];
        c->psi = eval_phi(c, z, c->w, c->phi, 1);
    }
    c->last[(k - 1) % c->window] = c->psi;                           /* the window's max */
    c->psi_ref = 0.0;
    for (int j = 0; j < (k < c->window ? k : c->window); j++)
        c->psi_ref = fmax(c->psi_ref, c->last[j]);
    for (int i = 0; i < m; i++) c->rhs[i] = c->db[i] * c->phi[i];
    lcp_linop_apply(&c->L, c->rhs, c->grad);                         /* A (Db Phi) */
    for (int i = 0; i < m; i++) c->grad[i] += c->da[i] * c->phi[i];  /* + Da Phi */
    newton_direction(c);
    double slope = lcp_dot(m, c->grad, c->d), dn = sqrt(lcp_dot(m, c->d, c->d));
    int moved = slope <= -NEWTON_RHO * pow(dn, NEWTON_P) && line_search(c, z, slope);
    if (!moved) {                                                   /* gradient step */
        for (int i = 0; i < m; i++) c->d[i] = -c->grad[i];
        moved = line_search(c, z, -lcp_dot(m, c->grad, c->grad));
    }
    est->merit = c->psi;
    est->work = lcp_linop_fresh(&c->L);
    return moved || c->psi == 0.0 ? LCP_OK : LCP_MAXITER;            /* stalled: stop */
}

static lcp_status newton_solve(const lcp_problem *P, const lcp_options *opt, double *z,
                               lcp_info *info, int fb)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    newton_ctx c = {.P = P, .fb = fb, .forcing = opt->forcing, .window = fb ? NEWTON_M : 1,
                    .inner_max = opt->inner_max > 0 ? opt->inner_max : NEWTON_INNER};
    lcp_status st = opt->forcing > 0.0 && opt->inner_max >= 0
                        ? lcp_linop_init(&c.L, P, opt->form, &info->row) : LCP_ERR_ARG;
    size_t m = (size_t)P->m;
    double *v = lcp_malloc(15 * m + 1, sizeof(double));
    c.mask = lcp_malloc(m + 1, 1);
    if (st == LCP_OK && (!v || !c.mask)) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        double **a[] = {&c.w, &c.phi, &c.da, &c.db, &c.d, &c.grad, &c.Ad, &c.zt, &c.wt,
                        &c.rhs, &c.shift, &c.ws};
        for (size_t j = 0; j < sizeof a / sizeof a[0]; j++) *a[j] = v + j * m;  /* ws: 4m */
        info->form = c.L.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        st = lcp_iterate_method(P, opt, newton_step, &c, z, info);
    }
    lcp_linop_free(&c.L);
    lcp_free(v);
    lcp_free(c.mask);
    info->status = st;
    return st;
}

lcp_status lcp_solve_newton_min(const lcp_problem *P, const lcp_options *opt, double *z,
                                lcp_info *info)
{
    return newton_solve(P, opt, z, info, 0);
}

lcp_status lcp_solve_newton_fb(const lcp_problem *P, const lcp_options *opt, double *z,
                               lcp_info *info)
{
    return newton_solve(P, opt, z, info, 1);
}
