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
 * THE FUSED TEST (lcp_iterate_fused).  The exact residual of the iterate after a
 * Gauss-Seidel sweep cannot be had without another product: rows visited early change
 * again when later rows move.  A fused sweep instead returns, at almost no cost, the
 * sum of squares of the natural-map residual of each row AT THE MOMENT IT IS VISITED,
 *     rho_i = z_i - mid(lo_i, z_i - w_i, hi_i),   w_i = (A z + q)_i,  z the newest iterate
 * (the quantities the row update computes anyway), and e_k = ||rho||_2.  How it relates
 * to the true residual r(z) (A = D - L - U in the visiting order, d = z_k - z_{k-1}):
 *   - Jacobi: every row is visited at z_{k-1}, so e_k = ||r(z_{k-1})||_2 exactly (in the
 *     matrix-free form to the rounding of J (Minv J^T z) against A z).
 *   - Gauss-Seidel: row i is visited at (z_k on rows before i, z_{k-1} from i on), so,
 *     mid being 1-Lipschitz, | rho_i - r_i(z_{k-1}) | <= |(L d)_i|, and with omega = 1
 *     row i is exactly solved after its update, so |r_i(z_k)| <= |(U d)_i| (friction rows
 *     add mu |d_f| when their normal row f is visited after them).  Where no bound is
 *     active the sweep is linear and rho = -D d, r(z_k) = -U d: once the iteration has
 *     settled on its slowest mode, r(z_k) / e_k tends to a constant.
 * JACOBI (est->prev set): e_k is the residual of z_{k-1}, which the sweep keeps; when
 * e_k <= FUSE_LAG tol (or e_k may exceed the divergence limit) the loop takes the exact
 * residual of z_{k-1}, and when that stops the loop, z goes back to z_{k-1}: the same stop,
 * status and iterate as the unfused test, at the price of one discarded sweep.
 * GAUSS-SEIDEL: e_k is not a bound, and the loop never stops on it: it only decides WHEN
 * to pay for the exact residual.  The exact residual r_j of a checked sweep j calibrates
 * the ratio c = r_j / e_j, and sweep k is checked exactly when
 *     it is the first sweep that may be checked (calibration),
 *     c e_k <= S tol                               (it may have converged),
 *     c e_k <= FUSE_NEAR tol < r_j                 (re-calibrate once within a decade of tol),
 *     r_j <= FUSE_NEAR tol and k - j >= 2 (j - i)  (re-calibrate as c ages near tol),
 *     e_k >= e_j FUSE_RECAL                        (re-calibrate when the estimate grew 100x),
 *     c e_k S > diverge max(1, r_0)                (it may have diverged),
 *     e_k is 0, NaN or Inf, or k = max_iter.
 * The ratio c only matters near tol (and near the divergence limit), so it is refreshed
 * where it is used: once when the prediction first comes within a decade of tol, which
 * leaves the band below to a c at most a decade old.  (A re-calibration every two decades
 * on the way down, as before, took 3489 exact residuals over the 892 runs of
 * tests/library/test_fused.c on the canonical instances and the sliding box where this takes 3118
 * (3289 with the ageing rule below), and 3.3 in a solve of fewer than 30 sweeps beyond the
 * start's and the stopping one where this takes 2.5; neither stopped late there nor on 26
 * other captures, cold and warm-started: results/performance.md.)
 * Near tol, c also ages: a solve that gains 0.1% a sweep can stay within a decade of tol
 * for hundreds of sweeps while c moves, and a c calibrated at their start then predicts
 * too high a residual when it reaches tol (the sliding box below, replayed with its first
 * calibration after sweep 2 instead of 1: c calibrated at 0.78 in the transient settled at
 * 0.56, and the loop stopped 102 sweeps late).  So near tol, with i the
 * calibration before j, sweep j + 2 (j - i) is checked too: the slack below, the square
 * of the change of c over a span j - i, then covers a steady drift over the next span,
 * twice as long, and the spans double (about log2 of the sweeps spent near tol).
 * The slack S is FUSE_SLACK until three calibrations have been made (two changes of c
 * measured), then the square of the larger of the last two changes of c (at least
 * FUSE_SLACK_MIN): where c is steady (it settles to 4 digits on the chain) few sweeps near
 * tol are checked, where it jumps (friction rows switching) the band widens.  One change
 * is not enough to trust: the first calibrations fall in the transient, where c can move
 * by 1.35x right after a change of 1.09x (amgs-I, warm-started on a sliding box).  The
 * floor only keeps the band open where c has not moved at all (rounding moves it by far
 * less than 0.1%): with a floor of 1.1, an amgs-D solve of a sliding box that gains 0.1%
 * a sweep near tol took 99 exact residuals in 820 sweeps, with 1.001 10 (14 with the
 * ageing rule above; results/performance.md, the stopping test).
 * LCP_OK still means lcp_residual(z) <= tol, the same test on the same iterate as the
 * unfused loop, and the stop can only come later than the unfused loop's, when the
 * calibrated prediction overestimates the residual by more than S at the first sweep whose
 * residual is below tol (tests/library/test_fused.c: no such case on the canonical instances and
 * the sliding box, cold and warm-started).
 * Cost per sweep beyond the sweep: O(m) (the finite test), plus O(nnz(A)) per exact
 * residual (the start's is O(m) at z = 0, where lcp_residual needs no product; without A,
 * one pass over Minv's pattern per solve sizes the workspace, residual.c): every
 * check_every sweeps unfused; fused, the first sweep's, one within a decade of tol, the
 * sweeps within the slack of tol, and one per 100x of growth (Jacobi: those within
 * FUSE_LAG of tol).
 * check_every applies to both: only sweeps it names are tested.
 */
#include "lcp_internal.h"

#include <string.h>

void lcp_start(const lcp_problem *P, const lcp_options *opt, double *z)
{
    if (!opt->warm)
        for (int i = 0; i < P->m; i++) z[i] = 0.0;
    else if (opt->warm_scale != 1.0)
        for (int i = 0; i < P->m; i++) z[i] *= opt->warm_scale;   /* ODE quickstep: 0.9 */
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

/* the fused test's constants (see the header) */
#define FUSE_SLACK 4.0  /* slack until three calibrations have shown how c drifts */
#define FUSE_SLACK_MIN 1.001
#define FUSE_RECAL 100.0 /* re-calibrate when the estimate grew by this factor */
#define FUSE_NEAR 10.0   /* re-calibrate once when the prediction comes within this of tol */
#define FUSE_LAG 1.01   /* exact estimates of the previous iterate: rounding margin */

/* The one loop.  Exactly one of sweep and fused is set. */
static lcp_status iterate(const lcp_problem *P, const lcp_options *opt, lcp_sweep_fn *sweep,
                          lcp_fused_sweep_fn *fused, void *ctx, double *z, lcp_info *info)
{
    if (!P || !opt || (!sweep && !fused) || !z || !info || opt->max_iter < 0 ||
        opt->check_every < 1)
        return LCP_ERR_ARG;
    size_t nwork = lcp_residual_work(P);
    double *w = lcp_malloc((size_t)P->m + nwork, sizeof(double));
    if (!w) return LCP_ERR_NOMEM;
    double *work = w + P->m;            /* the factored residual's, when P holds no A */
    lcp_status st = LCP_MAXITER;
    double r2 = INFINITY, rinf = INFINITY;   /* the last exact residual's norms */
    int k = 0, row = -1, checks = 0;
    double c = 0.0, ecal = 0.0;   /* fused: calibrated ratio r / e, estimate at calibration */
    double drift[2] = {0.0, 0.0}; /* fused: the last two calibrations' change of c (>= 1) */
    int calibrated = 0;
    int kcal[2] = {0, 0};         /* fused: the sweeps of the last two calibrations */
    int fresh = 0;                /* R holds the residual of z as it is now */

    lcp_start(P, opt, z);
    if (!all_finite(z, P->m)) {
        st = LCP_ERR_NONFINITE;
        goto done;
    }
    if (opt->monitor) opt->monitor(opt->monitor_ctx, 0, z);
    double r0 = 0.0;
    if (opt->tol >= 0.0) {
        lcp_residual_norms(P, z, w, work, nwork, &r2, &rinf);
        checks++;
        fresh = 1;
        r0 = r2;
        if (r2 <= opt->tol) st = LCP_OK;
    }
    const double tol = opt->tol, rdiv = opt->diverge * fmax(1.0, r0);
    while (st == LCP_MAXITER && k < opt->max_iter) {
        k++;
        fresh = 0;
        lcp_sweep_est est = {0.0, NULL};
        lcp_status s = fused ? fused(ctx, k, z, &row, &est) : sweep(ctx, k, z, &row);
        if (s < 0) {
            st = s;
            break;
        }
        double e = sqrt(est.e2);
        /* an exact estimate of z_{k-1}, a sweep the unfused loop tested: stop there */
        if (est.prev && tol >= 0.0 && k > 1 && (k - 1) % opt->check_every == 0 &&
            !(e > FUSE_LAG * tol && FUSE_LAG * e <= rdiv)) {
            lcp_residual_norms(P, est.prev, w, work, nwork, &r2, &rinf);
            checks++;
            if (r2 <= tol) st = LCP_OK;
            else if (!(r2 <= rdiv)) st = LCP_ERR_DIVERGED;
            if (st != LCP_MAXITER) {
                memcpy(z, est.prev, (size_t)P->m * sizeof(double));   /* back to z_{k-1} */
                k--;
                fresh = 1;
                break;
            }
        }
        if (!all_finite(z, P->m)) {
            st = LCP_ERR_NONFINITE;
            break;
        }
        if (opt->monitor) opt->monitor(opt->monitor_ctx, k, z);
        if (tol < 0.0 || (k % opt->check_every != 0 && k != opt->max_iter)) continue;
        int due = 1;
        if (fused && est.prev) due = k == opt->max_iter;     /* z_k is tested next sweep */
        else if (fused && calibrated && k != opt->max_iter && e > 0.0 && isfinite(e)) {
            double pred = c * e;                             /* predicted ||r(z_k)||_2 */
            double d = fmax(drift[0], drift[1]);
            double slack = calibrated >= 3 && d > 0.0 ? fmax(FUSE_SLACK_MIN, d * d) : FUSE_SLACK;
            due = pred <= slack * tol || !(pred * FUSE_SLACK <= rdiv) ||
                  (pred <= FUSE_NEAR * tol && r2 > FUSE_NEAR * tol) ||
                  (calibrated >= 2 && r2 <= FUSE_NEAR * tol &&
                   k - kcal[0] >= 2 * (kcal[0] - kcal[1])) ||
                  e >= ecal * FUSE_RECAL;
        }
        if (!due) continue;
        lcp_residual_norms(P, z, w, work, nwork, &r2, &rinf);
        checks++;
        fresh = 1;
        if (fused && e > 0.0 && isfinite(e) && isfinite(r2)) {
            double cn = r2 / e;
            if (calibrated && c > 0.0 && cn > 0.0) {
                drift[1] = drift[0];
                drift[0] = fmax(cn / c, c / cn);
            }
            c = cn;
            ecal = e;
            kcal[1] = kcal[0];
            kcal[0] = k;
            calibrated++;
        }
        if (r2 <= tol) st = LCP_OK;
        else if (!(r2 <= rdiv)) st = LCP_ERR_DIVERGED;
    }
done:
    info->iterations = k;
    info->work = k;
    info->row = row;
    if (!fresh) lcp_residual_norms(P, z, w, work, nwork, &r2, &rinf);   /* the same function, z */
    info->residual = r2;
    info->residual_inf = rinf;
    info->residual_checks = checks;
    info->status = st;
    lcp_free(w);
    return st;
}

lcp_status lcp_iterate(const lcp_problem *P, const lcp_options *opt, lcp_sweep_fn *sweep,
                       void *ctx, double *z, lcp_info *info)
{
    return iterate(P, opt, sweep, NULL, ctx, z, info);
}

lcp_status lcp_iterate_fused(const lcp_problem *P, const lcp_options *opt,
                             lcp_fused_sweep_fn *sweep, void *ctx, double *z, lcp_info *info)
{
    return iterate(P, opt, NULL, sweep, ctx, z, info);
}
