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
 *   METHOD.  M dense (n = N + 3 T unknowns, at most LEMKE_MAX_N), its diagonal shifted by
 * reg max_k M_kk (M + reg I is strictly copositive, so Lemke's method processes it in exact
 * arithmetic; unshifted, the runs on the 802-row pool and on fric3d-1 ended on uncertified
 * rays after 17133 and 22624 pivots), reg = 1e-9 and, when that gives no answer, 1e-12
 * (REF_CONE_REGS: at 1e-12 fric3d-1's run ended on a basis that is not M's, at 1e-9 the
 * pool's; reference/README.md has the table),
 * solved by lemke_lcp (lemke_ref.c: covering vector 1, lexicographic ratio test, dense basis
 * inverse); its final basis is solved again on M itself (dense LU: the shift's error
 * removed when that basis is one of M's); z = (z_N, b+ - b-), projected on its coupled
 * bounds (b+ - b- of an open contact came out -4.7e-31 on fric3d-1, inside the oracle's
 * rounding but outside [0, 0]), then goes to semismooth Newton on the problem as given
 * (ref_ssn.c, from that z and again from its last iterate while each try halves the
 * residual) unless it is at rounding already: the Newton point of the partition z shows.
 * The shift and Lemke's tolerances decide nothing: the answer is the final check's
 * (ref_rounding, every row at rounding on the problem as given).
 *   When it runs (ref_cone_fits): friction (findex), every friction row lo = -hi with hi
 * finite and >= 0, its normal row without findex, and every row without findex at
 * lo = 0, hi = inf; A symmetric to sym_tol (the driver's `ldlt-ref' path, not Lemke's) and
 * A + REF_CONE_PSD diag(A) positive definite by the backend's factorisation of all rows
 * (A positive semi-definite up to that shift); n <= LEMKE_MAX_N.  The sign condition on q is
 * not checked (a ray is then possible, and is only an uncertified ray: no status from it).
 *
 * ENTRY (ref_cone).  z the best iterate (not read), C->eps any; the backend may hold any
 * factor.
 * EXIT.  *solved = 1: z at rounding on the problem as given (C->w, C->s its w and scale).
 * Otherwise z the best of Lemke's mapped point and Newton's last iterate (the driver keeps
 * its own best).  C->eps = 0; C->nff = -1 (the backend's factor replaced); C->pivots counts
 * Lemke's pivots.  LCP_OK or LCP_ERR_NOMEM.
 *
 * COST.  16 n^2 bytes (M and the basis inverse) and 4 n^2 flops a Lemke pivot; the pivot
 * count is that of the problem: 17133 pivots for the 1604 unknowns of the 802-row pool and
 * 20 s of CPU; then Newton as in ref_ssn.c (a few sparse LUs).  One factorisation of A for
 * the semi-definiteness test.
 */
#include "lemke_ref.h"
#include "ref_ctx.h"

#include <float.h>
#include <lapacke.h>
#include <string.h>

#define REF_CONE_REGS {1e-9, 1e-12} /* Lemke on M + reg max_k M_kk I, each reg in turn
                                       until one answers */
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
    return *N + 3L * *T <= LEMKE_MAX_N;
}

/* The cone LCP (dense, row-major n x n, n = N + 3 T) and its q, as in the header, the
 * diagonal shifted by reg max_k M_kk */
static void ref_cone_build(const lcp_problem *P, const int *pos, int N, int T, double reg,
                           double *M, double *qq)
{
    const lcp_csr *A = &P->A;
    size_t n = (size_t)N + 3 * (size_t)T;
    memset(M, 0, n * n * sizeof *M);
    for (int i = 0; i < P->m; i++) {
        int fr = P->findex[i] >= 0, k = pos[i];
        size_t r = fr ? (size_t)N + k : (size_t)k;     /* the row of (A z + q)_i */
        for (int e = A->p[i]; e < A->p[i + 1]; e++) {
            int j = A->j[e];
            double a = A->x[e];
            if (P->findex[j] < 0) {
                M[r * n + pos[j]] += a;
            } else {
                M[r * n + N + pos[j]] += a;
                M[r * n + N + T + pos[j]] -= a;
            }
        }
        qq[r] = P->q[i];
        if (!fr) continue;
        size_t rm = (size_t)N + T + k, rs = (size_t)N + 2 * T + k;
        for (size_t c = 0; c < n; c++) M[rm * n + c] = -M[r * n + c];
        M[r * n + rs] = 1.0;                            /* + s_t */
        M[rm * n + rs] = 1.0;
        qq[rm] = -P->q[i];
        M[rs * n + pos[P->findex[i]]] = P->hi[i];       /* mu_t z_n - b+_t - b-_t */
        M[rs * n + N + k] = -1.0;
        M[rs * n + N + T + k] = -1.0;
        qq[rs] = 0.0;
    }
    double dmax = 0.0;
    for (size_t k = 0; k < n; k++) dmax = fmax(dmax, M[k * n + k]);
    for (size_t k = 0; k < n; k++) M[k * n + k] += reg * dmax;
}

/* max_k |min(x_k, (M x + q)_k)|, the natural residual of the cone LCP */
static double ref_cone_nat(int n, const double *M, const double *qq, const double *x)
{
    double r = 0.0;
    for (int k = 0; k < n; k++) {
        double w = qq[k];
        for (int c = 0; c < n; c++) w += M[(size_t)k * n + c] * x[c];
        r = fmax(r, fabs(fmin(x[k], w)));
    }
    return r;
}

/* The basis of the shifted LCP's answer x on the unshifted M: M_ZZ x_Z = -q_Z for the
 * positive x_Z (dense LU, one refinement step), taken when its natural residual is
 * smaller than x's (the shift's error gone when the shifted basis is one of M's) */
static lcp_status ref_cone_basis(int n, const double *M, const double *qq, double *x)
{
    int k = 0;
    int *Z = lcp_malloc((size_t)n, sizeof *Z);
    lapack_int *ipiv = lcp_malloc((size_t)n, sizeof *ipiv);
    if (!Z || !ipiv) {
        lcp_free(Z);
        lcp_free(ipiv);
        return LCP_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++)
        if (x[i] > 0.0) Z[k++] = i;
    double *S = lcp_malloc((size_t)k * (size_t)k + 1, sizeof *S);
    double *b = lcp_malloc((size_t)n, sizeof *b), *y = lcp_malloc((size_t)n, sizeof *y);
    lcp_status st = S && b && y ? LCP_OK : LCP_ERR_NOMEM;
    if (st == LCP_OK && k > 0) {
        for (int a = 0; a < k; a++)
            for (int c = 0; c < k; c++) S[(size_t)a * k + c] = M[(size_t)Z[a] * n + Z[c]];
        lapack_int info = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, k, k, S, k, ipiv);
        if (info == 0) {
            memcpy(y, x, (size_t)n * sizeof *y);
            for (int it = 0; it < 2; it++) {            /* solve, then one refinement */
                for (int a = 0; a < k; a++) {
                    double w = qq[Z[a]];
                    const double *row = M + (size_t)Z[a] * n;
                    for (int c = 0; c < k; c++) w += row[Z[c]] * y[Z[c]];
                    b[a] = -w;
                }
                LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', k, 1, S, k, ipiv, b, 1);
                for (int a = 0; a < k; a++) y[Z[a]] += b[a];
            }
            for (int i = 0; i < n; i++) y[i] = fmax(y[i], 0.0);
            if (ref_cone_nat(n, M, qq, y) < ref_cone_nat(n, M, qq, x))
                memcpy(x, y, (size_t)n * sizeof *x);
        }
    }
    lcp_free(S);
    lcp_free(b);
    lcp_free(y);
    lcp_free(Z);
    lcp_free(ipiv);
    return st;
}

lcp_status ref_cone_solve(const lcp_problem *P, double reg, double *z, long *pivots)
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
    double *M = lcp_malloc(n * n, sizeof *M), *qq = lcp_malloc(n, sizeof *qq);
    double *x = lcp_malloc(n, sizeof *x);
    lcp_status st = M && qq && x ? LCP_OK : LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        lemke_stats ls;
        ref_cone_build(P, pos, N, T, reg, M, qq);
        st = lemke_lcp((int)n, M, qq, 0, x, NULL, &ls);
        *pivots = ls.pivots;
    }
    if (st == LCP_OK) {                                 /* the basis on M itself */
        ref_cone_build(P, pos, N, T, 0.0, M, qq);
        st = ref_cone_basis((int)n, M, qq, x);
    }
    if (st == LCP_OK)
        for (int i = 0; i < m; i++)                     /* z = (z_N, b+ - b-) */
            z[i] = P->findex[i] >= 0 ? x[N + pos[i]] - x[N + T + pos[i]] : x[pos[i]];
    lcp_free(M);
    lcp_free(qq);
    lcp_free(x);
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
    static const double regs[] = REF_CONE_REGS;
    for (int g = 0; g < (int)(sizeof regs / sizeof *regs) && st == LCP_OK && !*solved; g++) {
        lcp_status sl = ref_cone_solve(C->P, regs[g], zc, &piv);
        C->pivots += piv;
        C->iterations++;
        if (sl == LCP_ERR_NOMEM) st = sl;
        if (st != LCP_OK || sl != LCP_OK) continue;
        for (int i = 0; i < m; i++) {                   /* within the coupled bounds: b+ - b- */
            double lo, hi;                              /* of an open contact is 1e-31, not 0 */
            lcp_row_bounds(C->P, zc, i, &lo, &hi);
            z[i] = lcp_mid(lo, zc[i], hi);
        }
        C->eps = 0.0;
        if (ref_rounding(C, z) < 0) *solved = 1;        /* at rounding already */
        for (int t = 0; t < REF_SSN_TRIES && !*solved; t++) {
            int tried = 0;
            lcp_residuals R;
            lcp_residual(C->P, z, C->wo, &R);
            double before = R.rinf;
            st = ref_ssn(C, z, solved, &tried);
            if (st != LCP_OK || *solved || !tried) break;
            lcp_residual(C->P, C->zn, C->wo, &R);
            if (!(R.rinf <= 0.5 * before)) break;       /* crawled: no more tries */
            memcpy(z, C->zn, (size_t)m * sizeof *z);
        }
        if (st == LCP_OK && *solved && ref_rounding(C, z) >= 0) *solved = 0;
        if (st == LCP_OK && *solved) ref_rounding(C, z); /* C->w, C->s of the answer */
    }
    lcp_free(zc);
    return st == LCP_ERR_NOMEM ? st : LCP_OK;
}
