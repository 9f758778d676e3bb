/* iterate.c: the one iteration loop of the sweep solvers (PETSc KSP style: the sweep
 * computes, the loop decides).
 *
 *   z <- start (lcp_start);  monitor(0, z)
 *   for k = 1 .. max_iter:
 *       sweep(k, z)                            (the solver's only job)
 *       stop with LCP_ERR_NONFINITE if z has a NaN or Inf
 *       monitor(k, z)                          (observes only)
 *       every check_every sweeps (tol >= 0):  r = ||z - mid(lo, z - w, hi)||_2
 *           r <= tol                     ->  LCP_OK
 *           r > diverge * max(1, r_0)    ->  LCP_ERR_DIVERGED
 *   cap reached -> LCP_MAXITER (usable answer)
 * The final residual is always computed with lcp_residual() and stored in info.
 * Cost per sweep beyond the sweep: O(m), plus O(nnz(A)) on residual checks.
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

lcp_status lcp_iterate(const lcp_problem *P, const lcp_options *opt, lcp_sweep_fn *sweep,
                       void *ctx, double *z, lcp_info *info)
{
    if (!P || !opt || !sweep || !z || !info || opt->max_iter < 0 || opt->check_every < 1)
        return LCP_ERR_ARG;
    double *w = lcp_malloc((size_t)P->m, sizeof(double));
    if (!w) return LCP_ERR_NOMEM;
    lcp_status st = LCP_MAXITER;
    lcp_residuals R;
    int k = 0, row = -1;

    lcp_start(P, opt, z);
    if (!all_finite(z, P->m)) {
        st = LCP_ERR_NONFINITE;
        goto done;
    }
    if (opt->monitor) opt->monitor(opt->monitor_ctx, 0, z);
    double r0 = 0.0;
    if (opt->tol >= 0.0) {
        lcp_residual(P, z, w, &R);
        r0 = R.r2;
        if (R.r2 <= opt->tol) st = LCP_OK;
    }
    while (st == LCP_MAXITER && k < opt->max_iter) {
        k++;
        lcp_status s = sweep(ctx, k, z, &row);
        if (s < 0) {
            st = s;
            break;
        }
        if (!all_finite(z, P->m)) {
            st = LCP_ERR_NONFINITE;
            break;
        }
        if (opt->monitor) opt->monitor(opt->monitor_ctx, k, z);
        if (opt->tol >= 0.0 && (k % opt->check_every == 0 || k == opt->max_iter)) {
            lcp_residual(P, z, w, &R);
            if (R.r2 <= opt->tol) st = LCP_OK;
            else if (!(R.r2 <= opt->diverge * fmax(1.0, r0))) st = LCP_ERR_DIVERGED;
        }
    }
done:
    info->iterations = k;
    info->work = k;
    info->row = row;
    lcp_residual(P, z, w, &R);
    info->residual = R.r2;
    info->residual_inf = R.rinf;
    info->status = st;
    lcp_free(w);
    return st;
}
