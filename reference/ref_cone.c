/* ref_cone.c: the box-friction problem as the LCP of its friction cone, solved by Lemke's
 * method (route `lemke-cone'), for the friction problems the other routes leave without an
 * answer.
 *
 * COMPUTES.  Box friction row by row (row t with normal row n = findex[t] and coefficient
 * mu_t = hi_t = -lo_t:  |z_t| <= mu_t z_n,  w_t = 0 inside,  w_t <= 0 at +mu_t z_n,  w_t >= 0
 * at -mu_t z_n) is maximal dissipation over a polyhedral (square) friction cone.  With
 * z_t = b+_t - b-_t,  b+, b- >= 0  and one multiplier s_t >= 0 a friction row, it is exactly
 * the LCP in x = (z_N, b+, b-, s) >= 0 (z_N: the rows without findex, each at lo = 0,
 * hi = inf):
 *     (A z + q)_N                    >= 0  ⊥ z_N
 *     (A z + q)_t + s_t              >= 0  ⊥ b+_t
 *    -(A z + q)_t + s_t              >= 0  ⊥ b-_t
 *     mu_t z_n - b+_t - b-_t         >= 0  ⊥ s_t
 * (check: s_t > 0 forces b+_t + b-_t = mu_t z_n, and then only one of b+, b- is positive
 * unless both w rows vanish, which makes s_t = 0; so z_t is at a bound with w_t = -s_t or
 * +s_t; s_t = 0 with b+_t or b-_t positive gives w_t = 0; z_n = 0 leaves b+ = b- = 0 and
 * s_t >= |w_t|.  Conversely every box-friction solution gives x: b+-, s_t = |w_t| at a
 * bound, 0 inside.)  Its matrix M is copositive when A is positive semi-definite:
 * x^T M x = z^T A z + sum_t mu_t s_t z_n >= 0 for x >= 0; for A = J M^-1 J^T and q = J v
 * plus non-negative normal terms q^T x >= 0 on the solutions of the homogeneous problem, so
 * a solution exists (M. Anitescu and F. A. Potra, "Formulating dynamic multi-rigid-body
 * contact problems with friction as solvable linear complementarity problems", Nonlinear
 * Dynamics 14 (1997) 231-247, in another basis; R. W. Cottle, J.-S. Pang and R. E. Stone,
 * "The Linear Complementarity Problem", 1992, section 3.8).
 *   METHOD.  M sparse (CSC; n = N + 3 T unknowns, at most REF_CONE_MAX_N), its diagonal
 * shifted by reg max_k M_kk (M + reg I is strictly copositive, so Lemke's method processes
 * it in exact arithmetic, whatever the covering vector d > 0; unshifted, the dense runs on
 * the 802-row pool and on fric3d-1 ended on uncertified rays after 17133 and 22624 pivots),
 * solved by lemke_lcp_sparse (lemke_sparse.c: lexicographic ratio test, KLU's LU of the
 * basis and its product-form updates, without lemke_lcp's dense n x n inverse).  The tries
 * (REF_CONE_TRIES), each while the last gave no answer: reg = 1e-12 with the covering vector
 * of q's negative part, d_k = max(0, -q_k) / max(1, ||q||_inf) + REF_CONE_COVER, within a
 * quarter of the budget; then reg = 1e-12 and 1e-9 with d = 1 (lemke_lcp's path, pivot for
 * pivot; with the dense basis 1e-12 ended on a basis that is not M's on fric3d-1 and 1e-9 on
 * the pool, with the sparse one 1e-12 answers both).  With d = 1 the path of LCP(q + z0 d)
 * brings the rows in in the order of q; with q's d every violated row reaches 0 at once at
 * the start and the path shrinks the violations together: on the corpus's cases 9763
 * pivots against 22624 (fric3d-1), 5850 against 17133 (the pool, mu 0.3), 12170 against
 * 15262 (mu 1), 8194 against 16726 (spheres-step100), but 9773 against 4637 on fric2d-1
 * (which the route does not reach: PGS then Newton answers it first) and past the quarter
 * budget on the 4040-row fric2d-2 (`--full'; d = 1 answers it after); 51241 pivots against
 * 82749 over eleven friction problems.  The final basis is solved again on M itself
 * (lemke_sparse_basis: the shift's error removed when that basis is one of M's, kept when
 * its natural residual is smaller);
 * z = (z_N, b+ - b-), projected on its coupled bounds (b+ - b- of an open contact came out
 * -4.7e-31 on fric3d-1, inside the oracle's rounding but outside [0, 0]), then goes to
 * semismooth Newton on the problem as given (ref_ssn.c, from that z and again from its last
 * iterate while each try halves the residual) unless it is at rounding already: the Newton
 * point of the partition z shows.  The shift and Lemke's tolerances decide nothing: the
 * answer is the final check's (ref_rounding, every row at rounding on the problem as given).
 *   When it runs (ref_cone_fits): friction (findex), every friction row lo = -hi with hi
 * finite and >= 0, its normal row without findex, and every row without findex at
 * lo = 0, hi = inf; A symmetric to sym_tol (the driver's `ldlt-ref' path, not Lemke's) and
 * A + REF_CONE_PSD diag(A) positive definite by the backend's factorisation of all rows
 * (A positive semi-definite up to that shift); n <= REF_CONE_MAX_N.  The sign condition on q is
 * not checked (a ray is then possible, and is only an uncertified ray: no status from it).
 *
 * ENTRY (ref_cone).  z the best iterate (not read), C->eps any; the backend may hold any
 * factor.
 * EXIT.  *solved = 1: z at rounding on the problem as given (C->w, C->s its w and scale).
 * Otherwise z the best of Lemke's mapped point and Newton's last iterate (the driver keeps
 * its own best).  C->eps = 0; C->nff = -1 (the backend's factor replaced); C->pivots counts
 * Lemke's pivots.  LCP_OK or LCP_ERR_NOMEM.
 *
 * COST.  Lemke's pivots on the sparse basis (lemke_sparse.c): one KLU solve and the etas a
 * pivot, a refactorisation every few dozen to hundreds; the pivot count is the problem's
 * and the covering vector's (about 4 to 5 n on the corpus's cases with q's: 5850 pivots and
 * about 0.5 s of CPU for the 1604 unknowns of the 802-row pool, 9763 and about 2 s for the
 * 2016 of fric3d-1; with d = 1 about 11 n), capped at REF_CONE_COVER_WORK flops for q's d
 * and REF_CONE_WORK for each try with d = 1 (the cost gate: about 6 minutes here; a try
 * with d = 1 that reaches it ends the route, the next shift's path being as long); then
 * Newton as in ref_ssn.c (a few sparse LUs).  One factorisation of A for the
 * semi-definiteness test.
 */
#include "lemke_ref.h"
#include "ref_ctx.h"

#include <float.h>
#include <string.h>

#define REF_CONE_COVER 1e-6 /* the covering vector: d_k = max(0, -q_k) / max(1, ||q||_inf)
                               + REF_CONE_COVER (1e-9 and 1e-12 gave no answer on the pool
                               and fric3d-1: a secondary ray, the pivot cap, up to 1809
                               lexicographic ties; 1e-8 to 1e-4 took about as many pivots) */
#define REF_CONE_TRIES {{1e-12, 1}, {1e-12, 0}, {1e-9, 0}} /* Lemke on M + reg max_k M_kk I
                                       with the covering vector of q (1) or all ones (0), in
                                       turn until one answers */
#define REF_CONE_MAX_N 20000 /* cone unknowns at most (N + 3 T) */
#define REF_CONE_WORK 5e11 /* flops of Lemke's solves and factorisations at most, a shift:
                              fric3d-1 needs 1.8e10, fric2d-2 4.4e11 */
#define REF_CONE_COVER_WORK (REF_CONE_WORK / 4) /* the budget of the try with q's covering
                              vector: where its path is the longer one (fric2d-1: 9773 pivots
                              against 4637), d = 1 still gets its own */
#define REF_CONE_PSD 1e-10 /* A + REF_CONE_PSD diag(A) must factor with positive pivots */

/* Whether the rows fit: the structure of the header; pos[i] = the unknown of row i (z_N
 * index, or friction index k), *N, *T the counts.  Returns 1 when it fits. */
static int ref_cone_fits(const lcp_problem *P, int *pos, int *N, int *T)
{
    int m = P->m;
    *N = *T = 0;
    if (!P->findex) return 0;
    for (int i = 0; i < m; i++) {
        int f = P->findex[i];
        if (f < 0) {
            if (P->lo[i] != 0.0 || P->hi[i] != INFINITY) return 0;
            pos[i] = (*N)++;
        } else {
            if (f >= m || !(P->hi[i] >= 0.0) || !isfinite(P->hi[i]) || P->lo[i] != -P->hi[i] ||
                P->findex[f] >= 0)
                return 0;
            pos[i] = (*T)++;
        }
    }
    return *N + 3L * *T <= REF_CONE_MAX_N;
}

/* The cone LCP M (CSC, n x n, n = N + 3 T, every diagonal entry present) and its q, as in
 * the header, the diagonal shifted by reg max_k M_kk.  *Mp, *Mi, *Mx allocated here. */
static lcp_status ref_cone_build(const lcp_problem *P, const int *pos, int N, int T,
                                 double reg, int **Mp, int **Mi, double **Mx, double *qq)
{
    const lcp_csr *A = &P->A;
    int n = N + 3 * T, m = P->m;
    long cap = 4L * A->p[m] + 5L * T + n, nt = 0;
    int *I = lcp_malloc((size_t)cap, sizeof *I), *J = lcp_malloc((size_t)cap, sizeof *J);
    double *X = lcp_malloc((size_t)cap, sizeof *X);
    int *cp = lcp_calloc((size_t)n + 1, sizeof *cp), *at = lcp_malloc((size_t)n, sizeof *at);
    *Mp = cp;
    *Mi = NULL;
    *Mx = NULL;
    if (!I || !J || !X || !cp || !at) goto nomem;
#define PUT(r, c, v) (I[nt] = (r), J[nt] = (c), X[nt++] = (v))
    for (int k = 0; k < n; k++) PUT(k, k, 0.0);
    for (int i = 0; i < m; i++) {
        int fr = P->findex[i] >= 0, k = pos[i];
        int r = fr ? N + k : k;                          /* the row of (A z + q)_i */
        for (int e = A->p[i]; e < A->p[i + 1]; e++) {
            int j = A->j[e];
            double a = A->x[e];
            for (int g = 0; g <= fr; g++) {              /* row r, then -(row r) at b-_t */
                int rr = g ? N + T + k : r;
                double sa = g ? -a : a;
                if (P->findex[j] < 0) {
                    PUT(rr, pos[j], sa);
                } else {
                    PUT(rr, N + pos[j], sa);
                    PUT(rr, N + T + pos[j], -sa);
                }
            }
        }
        qq[r] = P->q[i];
        if (!fr) continue;
        int rm = N + T + k, rs = N + 2 * T + k;
        PUT(r, rs, 1.0);                                 /* + s_t */
        PUT(rm, rs, 1.0);
        qq[rm] = -P->q[i];
        PUT(rs, pos[P->findex[i]], P->hi[i]);            /* mu_t z_n - b+_t - b-_t */
        PUT(rs, N + k, -1.0);
        PUT(rs, N + T + k, -1.0);
        qq[rs] = 0.0;
    }
#undef PUT
    for (long e = 0; e < nt; e++) cp[J[e] + 1]++;        /* CSC, duplicates summed */
    for (int c = 0; c < n; c++) cp[c + 1] += cp[c];
    int *ri = lcp_malloc((size_t)nt + 1, sizeof *ri);
    double *rx = lcp_malloc((size_t)nt + 1, sizeof *rx);
    if (!ri || !rx) {
        lcp_free(ri);
        lcp_free(rx);
        goto nomem;
    }
    memcpy(at, cp, (size_t)n * sizeof *at);
    for (long e = 0; e < nt; e++) {
        ri[at[J[e]]] = I[e];
        rx[at[J[e]]++] = X[e];
    }
    for (int k = 0; k < n; k++) at[k] = -1;              /* at[row]: its entry in the column */
    int nz = 0;
    double dmax = 0.0;
    for (int c = 0; c < n; c++) {
        int c0 = nz;
        for (int e = cp[c]; e < cp[c + 1]; e++) {
            int r = ri[e];
            if (at[r] >= c0) {
                rx[at[r]] += rx[e];
            } else {
                at[r] = nz;
                ri[nz] = r;
                rx[nz++] = rx[e];
            }
        }
        cp[c] = c0;
        for (int e = c0; e < nz; e++)
            if (ri[e] == c) dmax = fmax(dmax, rx[e]);
    }
    cp[n] = nz;
    for (int c = 0; c < n; c++)
        for (int e = cp[c]; e < cp[c + 1]; e++)
            if (ri[e] == c) rx[e] += reg * dmax;
    *Mi = ri;
    *Mx = rx;
    lcp_free(I);
    lcp_free(J);
    lcp_free(X);
    lcp_free(at);
    return LCP_OK;
nomem:
    lcp_free(I);
    lcp_free(J);
    lcp_free(X);
    lcp_free(at);
    lcp_free(cp);
    *Mp = NULL;
    return LCP_ERR_NOMEM;
}

/* max_k |min(x_k, (M x + q)_k)|, the natural residual of the cone LCP (t: n scratch) */
static double ref_cone_nat(int n, const int *Mp, const int *Mi, const double *Mx,
                           const double *qq, const double *x, double *t)
{
    memcpy(t, qq, (size_t)n * sizeof *t);
    for (int c = 0; c < n; c++)
        for (int e = Mp[c]; e < Mp[c + 1]; e++) t[Mi[e]] += Mx[e] * x[c];
    double r = 0.0;
    for (int k = 0; k < n; k++) r = fmax(r, fabs(fmin(x[k], t[k])));
    return r;
}

/* d: Lemke's covering vector for the cone LCP's q (n entries): the negative part of q,
 * scaled, plus REF_CONE_COVER (so d > 0) */
static void ref_cone_cover(size_t n, const double *qq, double *d)
{
    double qs = 1.0;
    for (size_t k = 0; k < n; k++) qs = fmax(qs, fabs(qq[k]));
    for (size_t k = 0; k < n; k++) d[k] = (qq[k] < 0.0 ? -qq[k] / qs : 0.0) + REF_CONE_COVER;
}

lcp_status ref_cone_solve(const lcp_problem *P, double reg, int cover, double *z, long *pivots)
{
    int m = P->m, N = 0, T = 0;
    *pivots = 0;
    int *pos = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof *pos);
    if (!pos) return LCP_ERR_NOMEM;
    if (!ref_cone_fits(P, pos, &N, &T)) {
        lcp_free(pos);
        return LCP_ERR_ARG;
    }
    size_t n = (size_t)N + 3 * (size_t)T;
    int *Mp = NULL, *Mi = NULL;
    double *Mx = NULL;
    double *qq = lcp_malloc(n + 1, sizeof *qq), *x = lcp_malloc(n + 1, sizeof *x);
    double *y = lcp_malloc(n + 1, sizeof *y), *t = lcp_malloc(n + 1, sizeof *t);
    lcp_status st = qq && x && y && t ? LCP_OK : LCP_ERR_NOMEM;
    if (st == LCP_OK) st = ref_cone_build(P, pos, N, T, reg, &Mp, &Mi, &Mx, qq);
    if (st == LCP_OK) {
        lemke_stats ls;
        if (cover) ref_cone_cover(n, qq, t);            /* t: the covering vector here */
        st = lemke_lcp_sparse((int)n, Mp, Mi, Mx, qq, cover ? t : NULL, 0,
                              cover ? REF_CONE_COVER_WORK : REF_CONE_WORK, x, &ls);
        *pivots = ls.pivots;
    }
    if (st == LCP_OK) {                                 /* the basis on M itself: kept when */
        lcp_free(Mp);                                   /* its residual is smaller */
        lcp_free(Mi);
        lcp_free(Mx);
        Mi = NULL;
        Mx = NULL;
        st = ref_cone_build(P, pos, N, T, 0.0, &Mp, &Mi, &Mx, qq);
        if (st == LCP_OK) {
            memcpy(y, x, n * sizeof *y);
            st = lemke_sparse_basis((int)n, Mp, Mi, Mx, qq, y);
        }
        if (st == LCP_OK && ref_cone_nat((int)n, Mp, Mi, Mx, qq, y, t) <
                                ref_cone_nat((int)n, Mp, Mi, Mx, qq, x, t))
            memcpy(x, y, n * sizeof *x);
    }
    if (st == LCP_OK)
        for (int i = 0; i < m; i++)                     /* z = (z_N, b+ - b-) */
            z[i] = P->findex[i] >= 0 ? x[N + pos[i]] - x[N + T + pos[i]] : x[pos[i]];
    lcp_free(Mp);
    lcp_free(Mi);
    lcp_free(Mx);
    lcp_free(qq);
    lcp_free(x);
    lcp_free(y);
    lcp_free(t);
    lcp_free(pos);
    return st;
}

/* A + REF_CONE_PSD diag(A) factored with every row free: 1 when every pivot is positive */
static lcp_status ref_cone_psd(ref_ctx *C, int *psd)
{
    int bad = -1;
    for (int i = 0; i < C->m; i++) C->F[i] = i;
    lcp_status st = C->be.factor(&C->be, C->F, C->m, REF_CONE_PSD, NULL, 0.0, &bad);
    C->nff = -1;
    C->nf = 0;
    *psd = st == LCP_OK && bad < 0;
    return st == LCP_ERR_NOMEM ? st : LCP_OK;
}

lcp_status ref_cone(ref_ctx *C, double *z, int *solved)
{
    int m = C->m, N = 0, T = 0, psd = 0;
    long piv = 0;
    *solved = 0;
    int *pos = lcp_malloc((size_t)m, sizeof *pos);
    if (!pos) return LCP_ERR_NOMEM;
    int fits = ref_cone_fits(C->P, pos, &N, &T);
    lcp_free(pos);
    lcp_status st = fits ? ref_cone_psd(C, &psd) : LCP_OK;
    if (st != LCP_OK || !psd) return st;
    double *zc = lcp_malloc((size_t)m, sizeof *zc);
    if (!zc) return LCP_ERR_NOMEM;
    static const struct { double reg; int cover; } tries[] = REF_CONE_TRIES;
    for (int g = 0; g < (int)(sizeof tries / sizeof *tries) && st == LCP_OK && !*solved; g++) {
        lcp_status sl = ref_cone_solve(C->P, tries[g].reg, tries[g].cover, zc, &piv);
        C->pivots += piv;
        C->iterations++;
        if (sl == LCP_ERR_NOMEM) st = sl;
        if (sl == LCP_PIVOT_CAP && !tries[g].cover) break; /* the next shift's path is as
                                                              long (d = 1 goes on from q's d) */
        if (st != LCP_OK || sl != LCP_OK) continue;
        for (int i = 0; i < m; i++) {                   /* within the coupled bounds: b+ - b- */
            double lo, hi;                              /* of an open contact is 1e-31, not 0 */
            lcp_row_bounds(C->P, zc, i, &lo, &hi);
            z[i] = lcp_mid(lo, zc[i], hi);
        }
        C->eps = 0.0;
        if (ref_rounding(C, z) < 0) *solved = 1;        /* at rounding already */
        else st = ref_ssn_tries(C, z, solved);          /* else Newton */
        if (st == LCP_OK && *solved) ref_rounding(C, z); /* C->w, C->s of the answer */
    }
    lcp_free(zc);
    return st == LCP_ERR_NOMEM ? st : LCP_OK;
}
