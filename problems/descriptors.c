/* descriptors.c: what makes a captured problem hard, as numbers (problems/README.md
 * "Descriptors"): rows, contacts, joint-limit rows, bodies, the mass ratio max m / min m, the
 * friction coefficient, the share of bilateral rows, and the self-stress states
 *
 *     s = dim null(J_C^T) = |C| - rank(J_C)
 *
 * the impulse distributions on the contact rows C that J^T maps to zero force: a
 * statically indeterminate set of contacts (A_CC = J_C Minv J_C^T + E is singular but for
 * E).  Counted on all contact rows (normal and friction) and on the normal rows alone.
 * Rows by their bounds: bilateral lo = -inf and hi = +inf; friction: findex >= 0; a
 * unilateral row (lo = 0, hi = +inf) is a contact's normal row when J has an entry on the
 * linear coordinates of a body (J_n = [n, r_a x n | -n, -(r_b x n)], n a unit vector), a
 * joint limit's when J acts on angular coordinates only (J_l = [0, s | 0, -s], step.c);
 * contacts = the normal rows (one per contact point); contact rows = normal and friction:
 * the limit rows are neither (a joint held at both its limits has two opposite rows, a null
 * vector of J^T that is not a self-stress of the contacts).  (Restricted to the rows active
 * in a solution, the same count is the amgs-regime table's.)
 * And the condition of A on its range, lambda_max / lambda_min+, by Lanczos (lanczos.c,
 * prob_lanczos_cond, seed 1).
 * Needs: P with J.  Cost: two dense column-pivoted QRs, O(|C| n min(|C|, n)); skipped
 * (-1) when |C| n > 4e6 (a dense copy above 32 MB).
 */
#include "prob_internal.h"

#include <stdio.h>

enum { KIND_OTHER, KIND_NORMAL, KIND_FRICTION, KIND_BILATERAL, KIND_LIMIT };

/* 1 when row i of J has an entry on a linear coordinate (column c with c mod nd < dim), or
 * when the columns are not the world's (nd = 0: every unilateral row a contact's) */
static int acts_linear(const lcp_problem *P, int i, int nd, int dim)
{
    if (nd <= 0) return 1;
    for (int p = P->J.p[i]; p < P->J.p[i + 1]; p++)
        if (P->J.x[p] != 0.0 && P->J.j[p] % nd < dim) return 1;
    return 0;
}

/* the kind of row i (nd, dim: the world's coordinates per body and dimension) */
static int row_kind(const lcp_problem *P, int i, int nd, int dim)
{
    if (isinf(P->lo[i]) && P->lo[i] < 0 && isinf(P->hi[i]) && P->hi[i] > 0 &&
        !(P->findex && P->findex[i] >= 0))
        return KIND_BILATERAL;
    if (P->findex && P->findex[i] >= 0) return KIND_FRICTION;
    if (P->lo[i] == 0.0 && isinf(P->hi[i]) && P->hi[i] > 0)
        return acts_linear(P, i, nd, dim) ? KIND_NORMAL : KIND_LIMIT;
    return KIND_OTHER;
}

/* dim null(J_S^T) over the contact rows (normal_only: the normal rows); -1 too large or
 * failed */
static int null_dim(const lcp_problem *P, int nd, int dim, int normal_only)
{
    int m = P->J.nrow, n = P->J.ncol, k = 0;
    for (int i = 0; i < m; i++) {
        int t = row_kind(P, i, nd, dim);
        k += t == KIND_NORMAL || (!normal_only && t == KIND_FRICTION);
    }
    if (k == 0) return 0;
    if ((double)k * (double)n > 4e6) return -1;
    double *Jd = lcp_calloc((size_t)k * (size_t)n, sizeof(double));
    if (!Jd) return -1;
    int r = 0;
    for (int i = 0; i < m; i++) {
        int t = row_kind(P, i, nd, dim);
        if (!(t == KIND_NORMAL || (!normal_only && t == KIND_FRICTION))) continue;
        for (int p = P->J.p[i]; p < P->J.p[i + 1]; p++)
            Jd[r + (size_t)k * (size_t)P->J.j[p]] = P->J.x[p];  /* column-major k x n */
        r++;
    }
    int rank = prob_rank(k, n, Jd);
    lcp_free(Jd);
    return rank < 0 ? -1 : k - rank;                              /* |C| - rank(J_C) */
}

lcp_status prob_descriptors(const prob_world *W, const lcp_problem *P, prob_desc *D)
{
    if (!W || !P || !D || !P->J.p || P->J.nrow != P->m) return LCP_ERR_ARG;
    memset(D, 0, sizeof *D);
    D->rows = P->m;
    D->bodies = W->nb;
    D->mu = W->mu;
    double mmax = 0.0, mmin = INFINITY;
    for (int k = 0; k < W->nb; k++) {
        mmax = fmax(mmax, W->mass[k]);
        mmin = fmin(mmin, W->mass[k]);
    }
    D->mass_ratio = W->nb > 0 ? mmax / mmin : 1.0;                /* max m / min m */
    /* the world's columns: nd per body, the first dim of them linear (else no limit rows) */
    int nd = P->n == W->nb * W->ndof ? W->ndof : 0, dim = W->dim;
    for (int i = 0; i < P->m; i++) {
        int t = row_kind(P, i, nd, dim);
        D->bilateral += t == KIND_BILATERAL;
        D->contacts += t == KIND_NORMAL;
        D->limit_rows += t == KIND_LIMIT;
    }
    D->bilateral_share = P->m > 0 ? (double)D->bilateral / P->m : 0.0;
    D->self_stress = null_dim(P, nd, dim, 0);
    D->self_stress_normal = null_dim(P, nd, dim, 1);
    prob_cond C;
    D->cond = D->lambda_max = D->lambda_min = -1.0;
    if (prob_lanczos_cond(P, 1, &C) == LCP_OK) {
        D->cond = C.cond;
        D->lambda_max = C.lambda_max;
        D->lambda_min = C.lambda_min;
        D->lanczos_steps = C.steps;
        D->lanczos_exact = C.exact;
    }
    return LCP_OK;
}

char *prob_meta_descriptors(const prob_world *W, const lcp_problem *P)
{
    prob_desc D;
    if (prob_descriptors(W, P, &D) != LCP_OK) return NULL;
    char add[640];
    int k = snprintf(add, sizeof add,
                     "mass_ratio = %.10g\nbilateral_rows = %d\nbilateral_share = %.10g\n"
                     "limit_rows = %d\nself_stress = %d\nself_stress_normal = %d\n"
                     "cond_lanczos = %.6g\nlambda_max = %.6g\nlambda_min_range = %.6g\n"
                     "lanczos_steps = %d\nlanczos_exact = %d\n",
                     D.mass_ratio, D.bilateral, D.bilateral_share, D.limit_rows, D.self_stress,
                     D.self_stress_normal, D.cond, D.lambda_max, D.lambda_min,
                     D.lanczos_steps, D.lanczos_exact);
    size_t len = P->meta ? strlen(P->meta) : 0;
    char *s = lcp_malloc(len + (size_t)k + 1, 1);
    if (!s) return NULL;
    if (len) memcpy(s, P->meta, len);
    memcpy(s + len, add, (size_t)k + 1);
    return s;
}
