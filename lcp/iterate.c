/* iterate.c: the one iteration loop of the sweep solvers (PETSc KSP style: the sweep
 * computes, the loop decides).
 *
 *   z <- start (lcp_start);  monitor(0, z)
 *   for k = 1 .. max_iter:
 *       sweep(k, z)  [fused sweeps also return e_k, below]    (the solver's only job)
 *       stop with LCP_ERR_NONFINITE if z has a NaN or Inf
 *       monitor(k, z)                          (observes only)
 *       every check_every sweeps (tol >= 0), when the test is due (below):
 *           r = ||z - mid(lo, z - w, hi)||_2    (lcp_residual's norms: one product with A)
 *           r <= tol                     ->  LCP_OK
 *           r > diverge * max(1, r_0)    ->  LCP_ERR_DIVERGED
 *   cap reached -> LCP_MAXITER (usable answer)
 * The final residual is always computed with lcp_residual()'s norms and stored in info
 * (lcp_residual_norms: the same w and norms, without the quantities info does not hold).
 *
 * THE SWEEP COUNT IS THE FIRST CROSSING.  A converged solve stops at the first tested sweep
 * k whose residual, lcp_residual's ||r(z_k)||_2, is at or below tol: info->iterations is
 * that k, and z is z_k.  So the loop takes the exact residual at every sweep it tests
 * (every check_every sweeps, default 1), whatever the sweep estimates.
 * THE FUSED SWEEPS (lcp_iterate_fused) also return e_k, the norm of the natural-map
 * residual of each row AT THE MOMENT IT IS VISITED,
 *     rho_i = z_i - mid(lo_i, z_i - w_i, hi_i),   w_i = (A z + q)_i,  z the newest iterate.
 *   - Jacobi (est->prev set): every row is visited at z_{k-1}, so e_k = ||r(z_{k-1})||_2
 *     exactly (in the matrix-free form to the rounding of J (Minv J^T z) against A z).  The
 *     sweep keeps z_{k-1}; when e_k <= FUSE_LAG tol (or e_k may exceed the divergence
 *     limit) the loop takes the exact residual of z_{k-1}, and when that stops the loop, z
 *     goes back to z_{k-1}: the same stop, status and iterate as testing every sweep, at
 *     the price of one discarded sweep.  A sweep whose e_k is above FUSE_LAG tol cannot
 *     have crossed (1% of rounding margin), so no exact residual is skipped where one could.
 *   - Gauss-Seidel (pgs, pgs-block, pgs-color, the AMGS family): row i is visited at
 *     (z_k on rows before i, z_{k-1} from i on), and no bound on r(z_k) cheaper than the
 *     residual itself proves that a sweep did not cross: |r(z_k) - rho| is bounded only by
 *     (2 + ||A||_F + mu) ||z_k - z_{k-1}||, which exceeds e_k itself wherever the iteration
 *     is slow.  A calibrated estimate (r(z_k) ~ c e_k, the test of 0.3.0) skipped sweeps
 *     where the residual oscillates and stopped late (pgs, symmetric order, three-spheres,
 *     tol 1e-4: 17 sweeps where the residual was 8.06e-5 at 15, 4.17e-4 at 16), so every
 *     tested Gauss-Seidel sweep takes the exact residual; e_k is not used.  Its cost:
 *     results/performance.md, "The stopping test".
 * Cost per sweep beyond the sweep: O(m) (the finite test), plus O(nnz(A)) per exact
 * residual (the start's is O(m) at z = 0, where lcp_residual needs no product; without A,
 * one pass over Minv's pattern per solve sizes the workspace, residual.c): every tested
 * sweep for Gauss-Seidel (about the cost of a sweep), Jacobi's within FUSE_LAG of tol.
 * check_every applies to both: only sweeps it names are tested, and the count is then the
 * first crossing among them.
 */
#include "lcp_internal.h"

#include <string.h>

void lcp_project_from(const lcp_problem *P, const double *zb, double *z)
{
    for (int i = 0; i < P->m; i++) {
        double lo, hi;
        lcp_row_bounds(P, zb, i, &lo, &hi);
        z[i] = lcp_mid(lo, z[i], hi);
    }
}

void lcp_project(const lcp_problem *P, double *z)
{
    /* uncoupled rows first, then coupled rows whose bounds depend on them */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < P->m; i++) {
            int coupled = P->findex && P->findex[i] >= 0;
            if (coupled != pass) continue;
            double lo, hi;
            lcp_row_bounds(P, z, i, &lo, &hi);
            z[i] = lcp_mid(lo, z[i], hi);
        }
}

void lcp_start(const lcp_problem *P, const lcp_options *opt, double *z)
{
    if (!opt->warm)
        for (int i = 0; i < P->m; i++) z[i] = 0.0;
    else if (opt->warm_scale != 1.0)
        for (int i = 0; i < P->m; i++) z[i] *= opt->warm_scale;   /* ODE quickstep: 0.9 */
    lcp_project(P, z);
}

/* 1 when no z_i is NaN or Inf: an OR of exponent-field tests on the bits, which the
 * compiler vectorises (a floating-point sum would be a serial chain of additions) */
static int all_finite(const double *z, int m)
{
    const uint64_t expo = 0x7FF0000000000000ull;
    uint64_t bad = 0;
    for (int i = 0; i < m; i++) {
        uint64_t b;
        memcpy(&b, &z[i], sizeof b);
        bad |= (uint64_t)((b & expo) == expo);
    }
    return bad == 0;
}

#define FUSE_LAG 1.01   /* Jacobi's exact estimates of the previous iterate: rounding margin */

/* What the loop tracks besides z: the last exact residual, the work so far, the best
 * iterate (when the method asks for it) and the caller's history. */
typedef struct loop {
    const lcp_problem *P;
    const lcp_options *opt;
    double *w, *work, *best;    /* m, nwork, m (best: NULL unless kept) */
    size_t nwork;
    double r2, rinf;            /* the last exact residual's norms */
    double rbest;               /* the best iterate's ||r||_2 */
    double units;               /* work so far (sweep-equivalents) */
    int checks, fresh;          /* exact residuals taken; R holds z's residual as it is */
} loop;

/* one row of the caller's history (options.history), when it has room */
static void history_row(const loop *L, int k, double merit)
{
    lcp_history *h = L->opt->history;
    if (!h || h->n >= h->cap) return;
    if (h->iteration) h->iteration[h->n] = k;
    if (h->work) h->work[h->n] = L->units;
    if (h->residual) h->residual[h->n] = L->r2;
    if (h->merit) h->merit[h->n] = merit;
    h->n++;
}

/* the exact residual of z (iteration k) into L, a history row, the best iterate kept */
static void exact(loop *L, const double *z, int k, double merit)
{
    lcp_residual_norms(L->P, z, L->w, L->work, L->nwork, &L->r2, &L->rinf);
    L->checks++;
    history_row(L, k, merit);
    if (L->best && L->r2 < L->rbest) {
        L->rbest = L->r2;
        memcpy(L->best, z, (size_t)L->P->m * sizeof(double));
    }
}

/* the status the exact residual r2 gives against tol and the divergence limit rdiv */
static lcp_status verdict(double r2, double tol, double rdiv)
{
    if (r2 <= tol) return LCP_OK;
    return r2 <= rdiv ? LCP_MAXITER : LCP_ERR_DIVERGED;
}

/* Jacobi's exact estimate of z_{k-1} (est->prev): when it is due and near tol (or past the
 * divergence limit), test z_{k-1} and, if that stops the loop, go back to it */
static lcp_status test_prev(loop *L, const lcp_sweep_est *est, int *k, double *z, double rdiv)
{
    double e = sqrt(est->e2), tol = L->opt->tol;
    if (!est->prev || tol < 0.0 || *k <= 1 || (*k - 1) % L->opt->check_every != 0 ||
        (e > FUSE_LAG * tol && FUSE_LAG * e <= rdiv))
        return LCP_MAXITER;
    L->units -= est->work;                     /* z_{k-1}'s row: the work up to it */
    exact(L, est->prev, *k - 1, NAN);
    lcp_status st = verdict(L->r2, tol, rdiv);
    if (st != LCP_MAXITER) {
        memcpy(z, est->prev, (size_t)L->P->m * sizeof(double));   /* back to z_{k-1} */
        --*k;
        L->fresh = 1;
    } else L->units += est->work;
    return st;
}

/* the loop's end: the final residual, the best iterate when z is not converged and a
 * better one was seen, info */
static void finish(loop *L, double *z, int k, int row, lcp_status st, lcp_info *info)
{
    if (!L->fresh) lcp_residual_norms(L->P, z, L->w, L->work, L->nwork, &L->r2, &L->rinf);
    if (L->best && st != LCP_OK && st != LCP_ERR_NONFINITE && L->rbest < L->r2) {
        memcpy(z, L->best, (size_t)L->P->m * sizeof(double));
        lcp_residual_norms(L->P, z, L->w, L->work, L->nwork, &L->r2, &L->rinf);
        if (st == LCP_ERR_DIVERGED) st = LCP_MAXITER;    /* a usable best iterate */
    }
    info->iterations = k;
    info->work = L->units;
    info->row = row;
    info->residual = L->r2;
    info->residual_inf = L->rinf;
    info->residual_checks = L->checks;
    info->status = st;
}

/* The one loop.  Exactly one of sweep and fused is set; keep_best: the method's best
 * iterate by the residual is returned when it does not converge (lcp_iterate_method). */
static lcp_status iterate(const lcp_problem *P, const lcp_options *opt, lcp_sweep_fn *sweep,
                          lcp_fused_sweep_fn *fused, void *ctx, double *z, lcp_info *info,
                          int keep_best)
{
    if (!P || !opt || (!sweep && !fused) || !z || !info || opt->max_iter < 0 ||
        opt->check_every < 1)
        return LCP_ERR_ARG;
    loop L = {.P = P, .opt = opt, .nwork = lcp_residual_work(P), .r2 = INFINITY,
              .rinf = INFINITY, .rbest = INFINITY};
    size_t m = (size_t)P->m;
    L.w = lcp_malloc(m * (keep_best ? 2 : 1) + L.nwork, sizeof(double));
    if (!L.w) return LCP_ERR_NOMEM;
    L.work = L.w + m;                   /* the factored residual's, when P holds no A */
    if (keep_best) L.best = L.w + m + L.nwork;
    lcp_status st = LCP_MAXITER;
    int k = 0, row = -1;
    lcp_start(P, opt, z);
    if (!all_finite(z, P->m)) st = LCP_ERR_NONFINITE;
    if (st == LCP_MAXITER && opt->monitor) opt->monitor(opt->monitor_ctx, 0, z);
    if (st == LCP_MAXITER && opt->tol >= 0.0) {
        exact(&L, z, 0, NAN);
        L.fresh = 1;
        if (L.r2 <= opt->tol) st = LCP_OK;
    }
    const double tol = opt->tol, rdiv = opt->diverge * fmax(1.0, L.fresh ? L.r2 : 0.0);
    while (st == LCP_MAXITER && k < opt->max_iter) {
        k++;
        L.fresh = 0;
        lcp_sweep_est est = {0.0, NULL, 1.0, NAN};
        lcp_status s = fused ? fused(ctx, k, z, &row, &est) : sweep(ctx, k, z, &row);
        if (s < 0) {
            st = s;
            break;
        }
        int stalled = s > 0;              /* a method that cannot go on: test z and stop */
        L.units += est.work;
        if ((st = test_prev(&L, &est, &k, z, rdiv)) != LCP_MAXITER) break;
        if (!all_finite(z, P->m)) {
            st = LCP_ERR_NONFINITE;
            break;
        }
        if (opt->monitor) opt->monitor(opt->monitor_ctx, k, z);
        if (stalled) {
            if (tol >= 0.0) exact(&L, z, k, est.merit);
            L.fresh = tol >= 0.0;
            if (tol >= 0.0) st = verdict(L.r2, tol, rdiv);
            break;
        }
        if (tol < 0.0 || (k % opt->check_every != 0 && k != opt->max_iter)) continue;
        /* Jacobi: z_k is tested next sweep through its exact estimate (above), but at the cap */
        if (est.prev && k != opt->max_iter) continue;
        exact(&L, z, k, est.merit);
        L.fresh = 1;
        st = verdict(L.r2, tol, rdiv);
    }
    finish(&L, z, k, row, st, info);
    lcp_free(L.w);
    return info->status;
}

lcp_status lcp_iterate(const lcp_problem *P, const lcp_options *opt, lcp_sweep_fn *sweep,
                       void *ctx, double *z, lcp_info *info)
{
    return iterate(P, opt, sweep, NULL, ctx, z, info, 0);
}

lcp_status lcp_iterate_fused(const lcp_problem *P, const lcp_options *opt,
                             lcp_fused_sweep_fn *sweep, void *ctx, double *z, lcp_info *info)
{
    return iterate(P, opt, NULL, sweep, ctx, z, info, 0);
}

lcp_status lcp_iterate_method(const lcp_problem *P, const lcp_options *opt,
                              lcp_fused_sweep_fn *step, void *ctx, double *z, lcp_info *info)
{
    return iterate(P, opt, NULL, step, ctx, z, info, 1);
}
