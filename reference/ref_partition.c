/* ref_partition.c: one partition of the pivoting reference solved exactly, w and its
 * rounding scale, and the violator tests every phase uses.
 *
 * COMPUTES.  Every row is in one of three sets: free (F: w_i = 0), at its lower bound
 * (z_i = lo_i) or at its upper bound (z_i = hi_i).  For a partition the free unknowns solve
 *     A_FF z_F = -(q_F + A_FB z_B)                                          (1)
 * by a factorisation of A_FF (ref_cholmod.c: sparse LDL^T, or ref_dense.c: dense
 * Cholesky; of A + eps D once shifted, see ref_box.c), followed by iterative refinement (at
 * least one step, more while it halves the residual of (1)).  Then w = A z + q, its rounding
 * scale s_i = (|A||z|)_i + |q_i|, and the violators are
 *     free i with z_i < lo_i or z_i > hi_i,   lower i with w_i < 0,   upper i with w_i > 0
 * beyond REF_VIOL eps of the row's own scale (rows with lo_i = hi_i are fixed); an absolute
 * tolerance let rows of small scale pass the pivoting and fail the final check.  No
 * violator: the partition is the solution.  Every factorisation's pivots are checked:
 * d_k <= REF_TAU A_kk marks a dependent row and switches the proximal shift on (C->eps =
 * REF_SHIFT); a zero pivot even with the shift (a zero row) is LCP_ERR_SINGULAR, a negative
 * one (A indefinite) LCP_ERR_BREAKDOWN.  A friction round that keeps the free set reuses
 * the factor (one solve, no factorisation).
 *   ref_polish refines the final partition until its residual stops falling (z_F +=
 * S^-1 (-w_F) with the factor held, w unshifted, at most REF_POLISH steps).
 *
 * ENTRY.  ref_partition: C->state a partition, C->lo, C->hi the frozen bounds, C->eps the
 * shift (C->zc its centre).  ref_polish: C->F the final partition with its factor held.
 * EXIT.  z solves (1) (z_B at its bounds), C->F, C->nf its free list, C->w = A z + q
 * (+ eps D (z - zc)), C->s its scale; C->Ff, C->nff, C->epsf what the backend holds.
 *
 * COST.  One factorisation of A_FF when F changed, REF_REFINE solves and products with A.
 */
#include "ref_ctx.h"

#include <float.h>
#include <string.h>

#define REF_POLISH 10      /* refinement steps of the final partition (while they help) */

/* w = A z + q + eps D (z - zc): the w of the (regularised) LCP being pivoted, and its
 * rounding scale s = |A||z| + |q| */
void ref_w(ref_ctx *C, const double *z)
{
    const lcp_csr *A = &C->P->A;
    for (int i = 0; i < C->m; i++) {
        double w = C->P->q[i], s = fabs(w);
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            double v = A->x[k] * z[A->j[k]];
            w += v;
            s += fabs(v);
        }
        C->w[i] = w;
        C->s[i] = s;
    }
    if (C->eps > 0.0)
        for (int i = 0; i < C->m; i++) C->w[i] += C->eps * C->diag[i] * (z[i] - C->zc[i]);
}

/* max over the free rows of |w_i| / s_i: how far the partition's solve is from rounding */
double ref_wf(const ref_ctx *C)
{
    double r = 0.0;
    for (int t = 0; t < C->nf; t++) {
        int i = C->F[t];
        double a = fabs(C->w[i]);
        if (a > 0.0) r = fmax(r, C->s[i] > 0.0 ? a / C->s[i] : INFINITY);
    }
    return r;
}

/* Solve the partition: z_B at its bounds, z_F from (1) with refinement; w = A z + q. */
lcp_status ref_partition(ref_ctx *C, double *z)
{
    lcp_status st = LCP_OK;
    int m = C->m, nf = 0, bad = -1;
    for (int i = 0; i < m; i++) {
        if (C->state[i] == ST_LO) z[i] = C->lo[i];
        else if (C->state[i] == ST_HI) z[i] = C->hi[i];
        else {
            C->F[nf++] = i;
            z[i] = 0.0;              /* the solve starts from z_F = 0 */
        }
    }
    C->nf = nf;
    int same = nf == C->nff && C->eps == C->epsf;      /* friction rounds often keep F */
    for (int t = 0; same && t < nf; t++) same = C->F[t] == C->Ff[t];
    if (nf > 0 && !same) {
        C->nff = -1;
        st = C->be.factor(&C->be, C->F, nf, C->eps, NULL, C->eps > 0.0 ? 0.0 : REF_TAU, &bad);
        if (st == LCP_OK && bad >= 0 && C->eps == 0.0) { /* dependent row: shift from now */
            C->eps = REF_SHIFT;
            st = C->be.factor(&C->be, C->F, nf, C->eps, NULL, 0.0, &bad);
        }
        if (st == LCP_OK && bad >= 0)           /* zero row (no solution) or indefinite */
            st = C->diag[bad] == 0.0 ? LCP_ERR_SINGULAR : LCP_ERR_BREAKDOWN;
        if (st != LCP_OK) C->row = bad;
        if (st == LCP_OK) {                             /* remember what is factored */
            memcpy(C->Ff, C->F, (size_t)nf * sizeof *C->Ff);
            C->nff = nf;
            C->epsf = C->eps;
        }
    }
    ref_w(C, z);
    double prev = INFINITY, target = DBL_EPSILON;
    for (int k = 0; st == LCP_OK && nf > 0 && k < REF_REFINE; k++) {
        double rf = ref_wf(C);                             /* relative to rounding */
        if (k >= 2 && rf <= target) break;                 /* solved and refined once */
        if (k >= 2 && !(rf <= 0.5 * prev)) break;          /* refinement stopped helping */
        prev = rf;
        for (int t = 0; t < nf; t++) C->b[t] = -C->w[C->F[t]]; /* b = -w_F */
        st = C->be.solve(&C->be, C->b, C->x);
        for (int t = 0; st == LCP_OK && t < nf; t++) {
            z[C->F[t]] += C->x[t];                          /* z_F += S^{-1} b */
            if (!isfinite(z[C->F[t]])) {
                st = LCP_ERR_BREAKDOWN;
                C->row = C->F[t];
            }
        }
        if (st == LCP_OK) ref_w(C, z);
    }
    return st;
}

/* The set row i asks for with bounds lo, hi, or -1 when it is not violated. */
int ref_wants_in(const ref_ctx *C, const double *z, int i, double lo, double hi)
{
    double tw = REF_VIOL * DBL_EPSILON * C->s[i];          /* w off by more than rounding */
    double tz = C->diag[i] > 0.0 ? tw / C->diag[i] : 0.0;  /* z: the same, in z's units */
    switch (C->state[i]) {
    case ST_FREE:
        if (z[i] < lo - fmax(tz, REF_VIOL * DBL_EPSILON * fabs(lo))) return ST_LO;
        if (z[i] > hi + fmax(tz, REF_VIOL * DBL_EPSILON * fabs(hi))) return ST_HI;
        return -1;
    case ST_LO:
        return (lo < hi && C->w[i] < -tw) ? ST_FREE : -1;
    default:
        return (lo < hi && C->w[i] > tw) ? ST_FREE : -1;
    }
}

/* The set row i asks for with its frozen bounds, or -1. */
int ref_wants(const ref_ctx *C, const double *z, int i)
{
    return ref_wants_in(C, z, i, C->lo[i], C->hi[i]);
}

/* Violators of a solved partition: their number, the first in *first. */
int ref_count(const ref_ctx *C, const double *z, int *first)
{
    int n = 0;
    *first = -1;
    for (int i = 0; i < C->m; i++)
        if (ref_wants(C, z, i) >= 0) {
            if (*first < 0) *first = i;
            n++;
        }
    return n;
}

/* The final partition refined until its residual stops falling: z_F += S^-1 (-w_F) with the
 * factor the backend holds (S = A_FF, or A_FF + eps D when shifted: then the steps converge
 * to a solution of the consistent singular system), w = A z + q unshifted, measured row by
 * row against (|A||z|)_i + |q_i|; the best z is kept.  Needs the factor of the current F. */
lcp_status ref_polish(ref_ctx *C, double *z)
{
    const lcp_csr *A = &C->P->A;
    int nf = C->nf, same = nf > 0 && nf == C->nff && C->eps == C->epsf;
    for (int t = 0; same && t < nf; t++) same = C->F[t] == C->Ff[t];
    if (!same) return LCP_OK;
    double prev = INFINITY;
    lcp_status st = LCP_OK;
    for (int k = 0; k <= REF_POLISH; k++) {
        double rs = 0.0;                                /* max_F |w_i| / s_i */
        for (int t = 0; t < nf; t++) {
            int i = C->F[t];
            double w = C->P->q[i], s = fabs(w);
            for (int p = A->p[i]; p < A->p[i + 1]; p++) {
                double v = A->x[p] * z[A->j[p]];
                w += v;
                s += fabs(v);
            }
            C->b[t] = -w;
            if (fabs(w) > 0.0) rs = fmax(rs, s > 0.0 ? fabs(w) / s : INFINITY);
        }
        if (!(rs < prev)) {                             /* stopped falling: the last z */
            for (int t = 0; t < nf; t++) z[C->F[t]] -= C->x[t];
            break;
        }
        prev = rs;
        if (rs == 0.0 || k == REF_POLISH) break;
        st = C->be.solve(&C->be, C->b, C->x);
        if (st != LCP_OK) break;
        for (int t = 0; t < nf; t++) z[C->F[t]] += C->x[t];
    }
    ref_w(C, z);
    return st;
}

