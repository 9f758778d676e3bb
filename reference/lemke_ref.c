/* lemke_ref.c: `lemke-ref', the exact path of the reference for non-symmetric A: Lemke's
 * complementary pivoting method on a dense basis inverse.
 *
 * COMPUTES.  lemke_lcp: a solution of the standard LCP  w = M z + q >= 0, z >= 0, z^T w = 0
 * (M dense, any matrix), or the secondary ray the method ended on.  ref_lemke_box: the boxed
 * problem  lo <= z <= hi  with w = A z + q (A sparse, not necessarily symmetric; the bounds
 * frozen by the caller) through the standard reformulation as an LCP in u >= 0:
 *   lo finite:            z_i = lo_i + u_i,  w_i ⊥ u_i;  and when hi_i is finite too, one
 *                         more variable v_i ⊥ (hi_i - lo_i) - u_i  with  w_i + v_i ⊥ u_i
 *   lo = -inf, hi finite: z_i = hi_i - u_i,  -w_i ⊥ u_i
 *   both infinite:        z_i = u_i - u'_i,  w_i ⊥ u_i  and  -w_i ⊥ u'_i
 *   lo = hi:              z_i = lo_i, eliminated.
 * (If u_i is inside its box, v_i = 0 and w_i = 0; at lo, v_i = 0 and w_i >= 0; at hi,
 * u_i > 0 so w_i = -v_i <= 0.)  The LCP has m + (two-sided rows) + (free rows) unknowns
 * and its matrix is dense: M_kl = s_k s_l A_ij for u_k of row i, u_l of row j (s = +-1),
 * with the +-1 coupling of the v's.  Friction coupling (findex) is the business of the
 * caller: ldlt_ref.c runs the same frozen-bound rounds around this as around its pivoting.
 *
 * METHOD.  Lemke's method with the covering vector d = (1, ..., 1): the augmented system
 * w - M z - d z0 = q, starting with the basis of all w, z0 entering at the level that makes
 * the most negative q_i zero; then the complement of each leaving variable enters, until
 * z0 leaves (a solution) or the entering column has no positive entry (a secondary ray:
 * LCP_ERR_NO_SOLUTION, the ray returned).  Anti-cycling: the lexicographic ratio test
 * (rows of [x_B, B^-1] divided by the pivot column, the lexicographic minimum; z0 leaves
 * whenever it is among the tied rows), with which the method is finite on degenerate
 * problems.  It terminates with a solution for P-matrices and, for copositive-plus M, ends
 * on a ray only when the LCP is infeasible (Cottle, Pang and Stone 1992, Theorems 4.4.1 and
 * 4.4.13).
 *   Basis: the explicit inverse B^-1 (n x n, row-major), updated per pivot by the rank-one
 * Gauss-Jordan update (cblas_dger); every LEMKE_CHECK pivots the basic values are checked
 * against B x_B = q, and when they drifted beyond 1e-9 (relative) B^-1 is recomputed from
 * scratch (LAPACKE dgetrf + dgetri).  At the end the complementary basis {w_W, z_Z} is
 * solved anew: M_ZZ z_Z = -q_Z by LU (dgetrf / dgetrs) with iterative refinement until the
 * residual stops falling, so the answer is exact to rounding whatever the updates did.
 * Tolerances: a pivot entry must exceed 1e-11 of the column's largest; ratios tie when the
 * rows they would leave at zero are within 1e-12 max(1, ||q||_inf) of each other.
 *
 * COST.  Per pivot one product B^-1 a (2 n^2 flops, cblas_dgemv; a unit column when a w
 * enters) and one rank-one update (2 n^2); a re-inversion is 2 n^3 (rare).  Memory: M and
 * B^-1, 16 n^2 bytes: n <= LEMKE_MAX_N (4000, 256 MB) else LCP_ERR_TOO_LARGE.  The number of
 * pivots is problem dependent (about the size of the solution's support on random P-matrix
 * problems; exponential in the worst case, capped at max_pivots).
 *
 * SOURCES.  C. E. Lemke, "Bimatrix equilibrium points and mathematical programming",
 * Management Sci. 11 (1965) 681-689; R. W. Cottle, J.-S. Pang, R. E. Stone, "The Linear
 * Complementarity Problem", Academic Press 1992, sections 4.4 (Lemke's method, the
 * lexicographic rule) and 1.5 (mixed and boxed problems as LCPs).
 */
#include "lemke_ref.h"
#include "ref_internal.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <string.h>

#define LEMKE_CERT 1e-9  /* a certificate needs q^T y < -LEMKE_CERT |q|^T y */
#define LEMKE_CERT_OK 1e-12 /* ... and (M^T y)_j <= LEMKE_CERT_OK (|M|^T y)_j */
#define LEMKE_ENUM_N 16  /* an uncertified ray: enumerate the 2^n bases up to this n */
#define LEMKE_NEAR 1e-9  /* coupled solve: a friction row within this (relative) of a bound of
                            its normal's impulse slides (the rounds settled to 1e-12) */

typedef struct lemke {
    int n;
    const double *M, *q;
    double qs;       /* max(1, ||q||_inf) */
    double *Binv;    /* n x n row-major */
    double *xb;      /* n: basic values */
    double *a;       /* n: B^-1 (entering column) */
    double *t1, *t2; /* n: scratch */
    int *bas;        /* n: the basic variable of each row: w_i = i, z_j = n + j, z0 = 2n */
    int *tie, *row;  /* n: tied rows; their rows of B^-1 (lemke_lex) */
} lemke;

/* a = B^-1 (column of variable v in [I, -M, -d]) */
static void lk_column(lemke *L, int v)
{
    int n = L->n;
    if (v < n) {
        for (int k = 0; k < n; k++) L->a[k] = L->Binv[(size_t)k * n + v];
        return;
    }
    if (v < 2 * n)
        for (int k = 0; k < n; k++) L->t1[k] = -L->M[(size_t)k * n + (v - n)];
    else
        for (int k = 0; k < n; k++) L->t1[k] = -1.0;
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, L->Binv, n, L->t1, 1, 0.0, L->a, 1);
}

int lemke_start(int n, const double *q, double *z, long *max_pivots, double *qs)
{
    int neg = 0;
    *qs = 1.0;
    for (int i = 0; i < n; i++) {
        z[i] = 0.0;
        neg |= q[i] < 0.0;
        *qs = fmax(*qs, fabs(q[i]));
    }
    if (*max_pivots <= 0) *max_pivots = 50L * n + 1000;
    return !neg;
}

int lemke_ratio(int n, const double *a, const double *xb, const int *bas, double qs, double s,
                int *tie, int *nt)
{
    double amax = 0.0, theta = INFINITY;
    *nt = 0;
    for (int k = 0; k < n; k++) {                  /* fmax and fmin as compares (a NaN is */
        double v = fabs(a[k]);                     /* passed over by both): no libm call */
        if (v > amax) amax = v;                    /* an entry, a tenth of a pivot's time */
    }
    double tol = LEMKE_PIV * amax;
    if (!(amax > 0.0)) return -1;
    for (int k = 0; k < n; k++)
        if (s * a[k] > tol) {
            double t = xb[k] / (s * a[k]);
            if (t < theta) theta = t;
        }
    if (theta == INFINITY) return -1;
    for (int k = 0; k < n; k++)                    /* rows left within rounding of zero */
        if (s * a[k] > tol && xb[k] - theta * s * a[k] <= LEMKE_TIE * qs) {
            tie[(*nt)++] = k;
            if (bas[k] == 2 * n) return k;         /* z0 can leave: it does */
        }
    return *nt == 1 ? tie[0] : -2;
}

int lemke_lex(int n, const double *a, double s, int *tie, int *row, int nt, const double *R)
{
    double bs = 0.0;
    for (int t = 0; t < nt; t++) {
        const double *r = R + (size_t)row[t] * n;
        double rn = 0.0;
        for (int c = 0; c < n; c++) rn = fmax(rn, fabs(r[c]));
        bs = fmax(bs, rn / (s * a[tie[t]]));
    }
    double eb = 1e-11 * bs;
    for (int c = 0; c < n && nt > 1; c++) {
        double vmin = INFINITY;
        for (int t = 0; t < nt; t++)
            vmin = fmin(vmin, R[(size_t)row[t] * n + c] / (s * a[tie[t]]));
        int keep = 0;
        for (int t = 0; t < nt; t++)
            if (R[(size_t)row[t] * n + c] / (s * a[tie[t]]) <= vmin + eb) {
                tie[keep] = tie[t];
                row[keep++] = row[t];
            }
        nt = keep;
    }
    return tie[0];
}

/* The leaving row for column a (sign s): lemke_ratio, its ties by lemke_lex on the rows of
 * B^-1 itself; -1 when no row is a candidate (a ray). */
static int lk_ratio(lemke *L, double s, long *ties)
{
    int nt = 0;
    int r = lemke_ratio(L->n, L->a, L->xb, L->bas, L->qs, s, L->tie, &nt);
    if (r != -2) return r;
    (*ties)++;
    for (int t = 0; t < nt; t++) L->row[t] = L->tie[t];
    return lemke_lex(L->n, L->a, s, L->tie, L->row, nt, L->Binv);
}

/* Pivot on row r with column a: x_B and B^-1 updated (Gauss-Jordan, rank one). */
static void lk_pivot(lemke *L, int r, int v)
{
    int n = L->n;
    double p = L->a[r], t = L->xb[r] / p;
    double *rowr = L->Binv + (size_t)r * n;
    for (int k = 0; k < n; k++) L->xb[k] -= L->a[k] * t;
    L->xb[r] = t;
    for (int c = 0; c < n; c++) L->t2[c] = rowr[c] / p;
    cblas_dger(CblasRowMajor, n, n, -1.0, L->a, 1, L->t2, 1, L->Binv, n);
    memcpy(rowr, L->t2, (size_t)n * sizeof *rowr);
    L->bas[r] = v;
}

/* t1 = q - B x_B; returns its inf-norm */
static double lk_drift(lemke *L)
{
    int n = L->n;
    memcpy(L->t1, L->q, (size_t)n * sizeof *L->t1);
    for (int r = 0; r < n; r++) {
        int v = L->bas[r];
        double x = L->xb[r];
        if (v < n) L->t1[v] -= x;
        else if (v < 2 * n)
            for (int k = 0; k < n; k++) L->t1[k] += L->M[(size_t)k * n + (v - n)] * x;
        else
            for (int k = 0; k < n; k++) L->t1[k] += x;
    }
    double d = 0.0;
    for (int k = 0; k < n; k++) d = fmax(d, fabs(L->t1[k]));
    return d;
}

/* B^-1 from scratch (dgetrf + dgetri), x_B = B^-1 q refined once. */
static lcp_status lk_reinvert(lemke *L, int *ipiv)
{
    int n = L->n;
    double *B = L->Binv;
    memset(B, 0, (size_t)n * n * sizeof *B);
    for (int r = 0; r < n; r++) {                  /* column r of B = column of bas[r] */
        int v = L->bas[r];
        if (v < n) B[(size_t)v * n + r] = 1.0;
        else if (v < 2 * n)
            for (int k = 0; k < n; k++) B[(size_t)k * n + r] = -L->M[(size_t)k * n + (v - n)];
        else
            for (int k = 0; k < n; k++) B[(size_t)k * n + r] = -1.0;
    }
    if (LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, B, n, ipiv) != 0) return LCP_ERR_BREAKDOWN;
    if (LAPACKE_dgetri(LAPACK_ROW_MAJOR, n, B, n, ipiv) != 0) return LCP_ERR_BREAKDOWN;
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, B, n, L->q, 1, 0.0, L->xb, 1);
    lk_drift(L);                                   /* one refinement step */
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, B, n, L->t1, 1, 1.0, L->xb, 1);
    return LCP_OK;
}

/* The final complementary basis solved anew: M_ZZ z_Z = -q_Z with refinement. */
static void lk_polish(lemke *L, double *z, int *ipiv)
{
    int n = L->n, k = 0;
    int *Z = L->tie;
    for (int r = 0; r < n; r++)
        if (L->bas[r] >= n && L->bas[r] < 2 * n) Z[k++] = L->bas[r] - n;
    if (k == 0) return;
    double *S = L->Binv, *res = L->t1, *dx = L->t2, prev = INFINITY;
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) S[(size_t)a * k + b] = L->M[(size_t)Z[a] * n + Z[b]];
    if (LAPACKE_dgetrf(LAPACK_ROW_MAJOR, k, k, S, k, ipiv) != 0) return; /* keep x_B's */
    double *zz = L->a;
    for (int a = 0; a < k; a++) zz[a] = 0.0;
    for (int it = 0; it < 6; it++) {
        double rn = 0.0;
        for (int a = 0; a < k; a++) {              /* res = -q_Z - M_ZZ z_Z */
            double s = -L->q[Z[a]];
            const double *Mr = L->M + (size_t)Z[a] * n;
            for (int b = 0; b < k; b++) s -= Mr[Z[b]] * zz[b];
            res[a] = dx[a] = s;
            rn = fmax(rn, fabs(s));
        }
        if (it >= 2 && !(rn <= 0.5 * prev)) break;  /* refinement stopped helping */
        prev = rn;
        if (rn == 0.0) break;
        if (LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', k, 1, S, k, ipiv, dx, 1) != 0) return;
        for (int a = 0; a < k; a++) zz[a] += dx[a];
    }
    for (int a = 0; a < k; a++) z[Z[a]] = zz[a] > 0.0 ? zz[a] : 0.0;
}

lcp_status lemke_lcp(int n, const double *M, const double *q, long max_pivots, double *z,
                     lemke_ray *ray, lemke_stats *stp)
{
    lemke_stats st0;
    lemke_stats *st = stp ? stp : &st0;
    memset(st, 0, sizeof *st);
    if (n < 0 || (n > 0 && (!M || !q || !z))) return LCP_ERR_ARG;
    if (n > LEMKE_MAX_N) return LCP_ERR_TOO_LARGE;
    lemke L;
    memset(&L, 0, sizeof L);
    if (lemke_start(n, q, z, &max_pivots, &L.qs)) return LCP_OK;   /* z = 0 */
    L.n = n;
    L.M = M;
    L.q = q;
    size_t nn = (size_t)n;
    L.Binv = lcp_calloc(nn * nn, sizeof *L.Binv);
    L.xb = lcp_malloc(nn, sizeof *L.xb);
    L.a = lcp_malloc(nn, sizeof *L.a);
    L.t1 = lcp_malloc(nn, sizeof *L.t1);
    L.t2 = lcp_malloc(nn, sizeof *L.t2);
    L.bas = lcp_malloc(nn, sizeof *L.bas);
    L.tie = lcp_malloc(nn, sizeof *L.tie);
    L.row = lcp_malloc(nn, sizeof *L.row);
    int *ipiv = lcp_malloc(nn, sizeof *ipiv);
    lcp_status s = LCP_OK;
    if (!L.Binv || !L.xb || !L.a || !L.t1 || !L.t2 || !L.bas || !L.tie || !L.row || !ipiv) {
        s = LCP_ERR_NOMEM;
        goto out;
    }
    for (int i = 0; i < n; i++) {                   /* basis: all w, B = I */
        L.Binv[(size_t)i * n + i] = 1.0;
        L.xb[i] = q[i];
        L.bas[i] = i;
    }
    int enter = 2 * n;                              /* z0 first: the most negative q_i */
    lk_column(&L, enter);
    int r = lk_ratio(&L, -1.0, &st->ties);
    for (;;) {
        if (r < 0) {                                /* no leaving row: a secondary ray */
            s = LCP_ERR_NO_SOLUTION;
            break;
        }
        int leave = L.bas[r];
        lk_pivot(&L, r, enter);
        st->pivots++;
        if (leave == 2 * n) break;                  /* z0 left: solved */
        if (st->pivots >= max_pivots) {
            s = LCP_PIVOT_CAP;
            break;
        }
        if (st->pivots % LEMKE_CHECK == 0 && lk_drift(&L) > LEMKE_DRIFT * L.qs) {
            s = lk_reinvert(&L, ipiv);
            st->reinverts++;
            if (s != LCP_OK) break;
        }
        enter = leave < n ? leave + n : leave - n;  /* the complement enters */
        lk_column(&L, enter);
        r = lk_ratio(&L, 1.0, &st->ties);
    }
    for (int k = 0; k < n; k++)                     /* z from the basis */
        if (L.bas[k] >= n && L.bas[k] < 2 * n) z[L.bas[k] - n] = fmax(L.xb[k], 0.0);
    if (s == LCP_OK) lk_polish(&L, z, ipiv);
    if (s == LCP_ERR_NO_SOLUTION && ray) {          /* x_B(t) = x_B - t a, x_enter = t */
        ray->z0 = ray->dz0 = 0.0;
        for (int i = 0; i < n; i++) {
            if (ray->z) ray->z[i] = 0.0;
            if (ray->dz) ray->dz[i] = 0.0;
            if (ray->w) ray->w[i] = 0.0;
            if (ray->dw) ray->dw[i] = 0.0;
        }
        for (int k = 0; k <= n; k++) {
            int v = k < n ? L.bas[k] : enter;
            double x = k < n ? L.xb[k] : 0.0, dx = k < n ? -L.a[k] : 1.0;
            double *pv = v < n ? ray->w : (v < 2 * n ? ray->z : NULL);
            double *pd = v < n ? ray->dw : (v < 2 * n ? ray->dz : NULL);
            int i = v < n ? v : v - n;
            if (v == 2 * n) {
                ray->z0 = x;
                ray->dz0 = dx;
            } else {
                if (pv) pv[i] = x;
                if (pd) pd[i] = dx;
            }
        }
    }
out:
    lcp_free(L.Binv);
    lcp_free(L.xb);
    lcp_free(L.a);
    lcp_free(L.t1);
    lcp_free(L.t2);
    lcp_free(L.bas);
    lcp_free(L.tie);
    lcp_free(L.row);
    lcp_free(ipiv);
    return s;
}

/* A Farkas certificate from the ray's direction y = dz (negative entries cleared): y >= 0,
 * q^T y < 0 and M^T y <= 0 prove that no u >= 0 has M u + q >= 0, whatever M is.  Returns
 * the certificate's worst row  max_j (M^T y)_j+ / (|M|^T y)_j  with y scaled to q^T y = -1
 * (0 for an exact certificate), or INFINITY when q^T y is not clearly negative. */
static double lk_certify(int n, const double *M, const double *q, double *y)
{
    double qy = 0.0, qa = 0.0, worst = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(y[i] > 0.0)) y[i] = 0.0;
        qy += q[i] * y[i];
        qa += fabs(q[i]) * y[i];
    }
    if (!(qy < -LEMKE_CERT * qa)) return INFINITY;
    for (int i = 0; i < n; i++) y[i] /= -qy;
    for (int j = 0; j < n; j++) {
        double my = 0.0, ma = 0.0;
        for (int i = 0; i < n; i++) {
            double v = M[(size_t)i * n + j] * y[i];
            my += v;
            ma += fabs(v);
        }
        if (my > 0.0) worst = fmax(worst, ma > 0.0 ? my / ma : INFINITY);
    }
    return worst;
}

/* Every complementary basis of the LCP (M, q), n <= LEMKE_ENUM_N: the first whose solve
 * M_ZZ u_Z = -q_Z (LU, refined) gives u_Z >= 0 and w >= 0 at rounding; u, or -1. */
static int lk_enumerate(int n, const double *M, const double *q, double *u, long *left)
{
    double S[LEMKE_ENUM_N * LEMKE_ENUM_N], x[LEMKE_ENUM_N], r[LEMKE_ENUM_N];
    int Z[LEMKE_ENUM_N], ipiv[LEMKE_ENUM_N];
    for (unsigned long set = 0; set < (1ul << n) && *left > 0; set++, --*left) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (set >> i & 1ul) Z[k++] = i;
        for (int a = 0; a < k; a++) {
            x[a] = 0.0;
            for (int b = 0; b < k; b++) S[a * k + b] = M[(size_t)Z[a] * n + Z[b]];
        }
        if (k > 0 && LAPACKE_dgetrf(LAPACK_ROW_MAJOR, k, k, S, k, ipiv) != 0) continue;
        for (int it = 0; k > 0 && it < 3; it++) {   /* x = -M_ZZ^-1 q_Z, refined twice */
            for (int a = 0; a < k; a++) {
                r[a] = -q[Z[a]];
                for (int b = 0; b < k; b++) r[a] -= M[(size_t)Z[a] * n + Z[b]] * x[b];
            }
            LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', k, 1, S, k, ipiv, r, 1);
            for (int a = 0; a < k; a++) x[a] += r[a];
        }
        int good = 1;
        for (int i = 0; i < n; i++) u[i] = 0.0;
        for (int a = 0; a < k; a++) u[Z[a]] = x[a];
        for (int i = 0; good && i < n; i++) {
            double w = q[i], sc = fabs(q[i]);
            for (int j = 0; j < n; j++) {
                w += M[(size_t)i * n + j] * u[j];
                sc += fabs(M[(size_t)i * n + j] * u[j]);
            }
            double tol = 64.0 * DBL_EPSILON * sc;
            good = (set >> i & 1ul) ? u[i] >= -tol : w >= -tol;
        }
        if (good) {
            for (int i = 0; i < n; i++) u[i] = fmax(u[i], 0.0);
            return 0;
        }
    }
    return -1;
}

lcp_status ref_lemke_box(const lcp_problem *P, const double *lo, const double *hi,
                         long max_pivots, double *z, long *pivots, int *row, double *cert,
                         int *enumerated, long *enum_left)
{
    const lcp_csr *A = &P->A;
    int m = P->m, n = 0;
    *pivots = 0;
    *row = -1;
    *enumerated = 0;
    size_t mm = (size_t)m + 1;
    int *vp = lcp_malloc(mm, sizeof *vp), *vm = lcp_malloc(mm, sizeof *vm);
    int *vv = lcp_malloc(mm, sizeof *vv);
    double *s = lcp_malloc(mm, sizeof *s);
    double *M = NULL, *qq = NULL, *u = NULL;
    lcp_status st = LCP_OK;
    if (!vp || !vm || !vv || !s) {
        st = LCP_ERR_NOMEM;
        goto out;
    }
    /* the variables of each row: u_i (+ sign) vp, u_i (- sign) vm, v_i vv; -1 none */
    for (int i = 0; i < m; i++) {
        vp[i] = vm[i] = vv[i] = -1;
        s[i] = 0.0;
        if (lo[i] == hi[i]) s[i] = lo[i];
        else if (lo[i] > -INFINITY) {
            s[i] = lo[i];
            vp[i] = n++;
        } else if (hi[i] < INFINITY) {
            s[i] = hi[i];
            vm[i] = n++;
        } else {
            vp[i] = n++;
            vm[i] = n++;
        }
    }
    for (int i = 0; i < m; i++)
        if (vp[i] >= 0 && lo[i] > -INFINITY && hi[i] < INFINITY) vv[i] = n++;
    if (n > LEMKE_MAX_N) {
        st = LCP_ERR_TOO_LARGE;
        *row = LEMKE_MAX_N;                         /* the first row that does not fit */
        goto out;
    }
    M = lcp_calloc((size_t)n * (size_t)n + 1, sizeof *M);
    qq = lcp_malloc((size_t)n + 1, sizeof *qq);
    u = lcp_malloc((size_t)n + 1, sizeof *u);
    if (!M || !qq || !u) {
        st = LCP_ERR_NOMEM;
        goto out;
    }
    for (int i = 0; i < m; i++) {
        double qi = P->q[i];                        /* q_i + (A s)_i */
        for (int k = A->p[i]; k < A->p[i + 1]; k++) qi += A->x[k] * s[A->j[k]];
        for (int sg = 0; sg < 2; sg++) {
            int r = sg == 0 ? vp[i] : vm[i];
            double si = sg == 0 ? 1.0 : -1.0;
            if (r < 0) continue;
            qq[r] = si * qi;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) {
                int j = A->j[k];
                if (vp[j] >= 0) M[(size_t)r * n + vp[j]] += si * A->x[k];
                if (vm[j] >= 0) M[(size_t)r * n + vm[j]] -= si * A->x[k];
            }
            if (sg == 0 && vv[i] >= 0) M[(size_t)r * n + vv[i]] = 1.0;
        }
        if (vv[i] >= 0) {
            qq[vv[i]] = hi[i] - lo[i];
            M[(size_t)vv[i] * n + vp[i]] = -1.0;
        }
    }
    lemke_stats ls;
    double *dz = lcp_malloc((size_t)n + 1, sizeof *dz);
    lemke_ray ray = {NULL, NULL, dz, NULL, 0.0, 0.0};
    st = dz ? lemke_lcp(n, M, qq, max_pivots, u, &ray, &ls) : LCP_ERR_NOMEM;
    *pivots = dz ? ls.pivots : 0;
    if (st == LCP_ERR_NO_SOLUTION) {            /* a ray: a certificate, or nothing */
        *cert = lk_certify(n, M, qq, dz);
        if (!(*cert <= LEMKE_CERT_OK)) {
            st = n <= LEMKE_ENUM_N && lk_enumerate(n, M, qq, u, enum_left) == 0 ? LCP_OK
                                                                               : LCP_UNDECIDED;
            *enumerated = st == LCP_OK;
            if (st == LCP_UNDECIDED)
                for (int k = 0; k < n; k++) u[k] = 0.0;  /* no answer: the start */
        }
    }
    lcp_free(dz);
    for (int i = 0; i < m; i++) {                   /* z = s + u - u', in the box */
        double zi = s[i];
        if (vp[i] >= 0) zi += u[vp[i]];
        if (vm[i] >= 0) zi -= u[vm[i]];
        if (vv[i] >= 0 && u[vv[i]] > 0.0) zi = hi[i];  /* v_i > 0: u_i = hi_i - lo_i */
        z[i] = lcp_mid(lo[i], zi, hi[i]);
    }
out:
    lcp_free(vp);
    lcp_free(vm);
    lcp_free(vv);
    lcp_free(s);
    lcp_free(M);
    lcp_free(qq);
    lcp_free(u);
    return st;
}

/* The coupled problem on the partition z shows against the frozen bounds lo, hi (at lo, at
 * hi, or free), solved exactly by a dense LU: free rows have w_i = 0; a friction row at a
 * bound slides with its normal impulse, z_t = c_t z_n (c_t = P->lo[t] or P->hi[t]) instead
 * of the frozen value; other bound rows keep their values.  The unknowns z_F solve
 *     sum_j A_ij z_j + q_i = 0  (i in F),  z_t = c_t z_n(t) substituted,
 * a non-symmetric |F| x |F| system (dgetrf / dgetrs, refined until the residual stops
 * falling).  z is replaced only when the coupled residual ||r||_inf (lcp_residual) does
 * not grow; *improved says whether it was.  |F| > LEMKE_MAX_N or a singular system: z kept.
 * The frozen-bound rounds converge only linearly (to 1e-12); this ends them exactly. */
lcp_status ref_coupled_dense(const lcp_problem *P, const double *lo, const double *hi, double *z,
                             int *improved)
{
    const lcp_csr *A = &P->A;
    int m = P->m, nf = 0;
    *improved = 0;
    size_t mm = (size_t)m + 1;
    int *pos = lcp_malloc(mm, sizeof *pos), *F = lcp_malloc(mm, sizeof *F);
    lapack_int *ipiv = lcp_malloc(mm, sizeof *ipiv);
    double *c = lcp_calloc(mm, sizeof *c), *zn = lcp_malloc(mm, sizeof *zn);
    double *w = lcp_malloc(mm, sizeof *w), *b = lcp_malloc(mm, sizeof *b), *K = NULL;
    signed char *sl = lcp_calloc(mm, 1);
    lcp_status st = LCP_OK;
    if (!pos || !F || !ipiv || !c || !zn || !w || !b || !sl) {
        st = LCP_ERR_NOMEM;
        goto out;
    }
    for (int i = 0; i < m; i++) {                   /* the partition */
        double l = lo[i], h = hi[i];
        pos[i] = -1;
        zn[i] = z[i];
        if (P->findex && P->findex[i] >= 0) {       /* friction: near the bounds of z */
            lcp_row_bounds(P, z, i, &l, &h);
            double tl = LEMKE_NEAR * fmax(1.0, fabs(l)), th = LEMKE_NEAR * fmax(1.0, fabs(h));
            if (l < h && fabs(z[i] - l) <= tl) sl[i] = 1;
            else if (l < h && fabs(z[i] - h) <= th) sl[i] = 2;
            if (sl[i] || l == h) continue;
        }
        if (l < z[i] && z[i] < h) {
            pos[i] = nf;
            F[nf++] = i;
        }
    }
    for (int i = 0; P->findex && i < m; i++) {      /* sliding rows with a free normal */
        int f = P->findex[i];
        if (sl[i] && f >= 0 && pos[f] >= 0) c[i] = sl[i] == 1 ? P->lo[i] : P->hi[i];
        else sl[i] = 0;
    }
    if (nf == 0 || nf > LEMKE_MAX_N) goto out;
    K = lcp_calloc((size_t)nf * (size_t)nf, sizeof *K);
    if (!K) {
        st = LCP_ERR_NOMEM;
        goto out;
    }
    for (int a = 0; a < nf; a++) {                  /* K = A_FF + A_FS C */
        int i = F[a];
        for (int p = A->p[i]; p < A->p[i + 1]; p++) {
            int j = A->j[p];
            if (pos[j] >= 0) K[(size_t)a * nf + pos[j]] += A->x[p];
            else if (sl[j]) K[(size_t)a * nf + pos[P->findex[j]]] += A->x[p] * c[j];
        }
    }
    if (LAPACKE_dgetrf(LAPACK_ROW_MAJOR, nf, nf, K, nf, ipiv) != 0) goto out;
    for (int a = 0; a < nf; a++) zn[F[a]] = 0.0;
    double prev = INFINITY;
    for (int k = 0; k < 8; k++) {                   /* solve, refine while it helps */
        for (int i = 0; i < m; i++)
            if (sl[i]) zn[i] = c[i] * zn[P->findex[i]];
        double rn = 0.0;
        for (int a = 0; a < nf; a++) {
            int i = F[a];
            double s = P->q[i];
            for (int p = A->p[i]; p < A->p[i + 1]; p++) s += A->x[p] * zn[A->j[p]];
            b[a] = -s;
            rn = fmax(rn, fabs(s));
        }
        if (k >= 2 && !(rn < 0.5 * prev)) break;
        prev = rn;
        if (rn == 0.0) break;
        if (LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', nf, 1, K, nf, ipiv, b, 1) != 0) break;
        for (int a = 0; a < nf; a++) zn[F[a]] += b[a];
    }
    for (int i = 0; i < m; i++)
        if (sl[i]) zn[i] = c[i] * zn[P->findex[i]];
    lcp_residuals R0, R1;
    lcp_residual(P, z, w, &R0);
    lcp_residual(P, zn, w, &R1);
    if (R1.rinf <= R0.rinf) {
        memcpy(z, zn, (size_t)m * sizeof *z);
        *improved = 1;
    }
out:
    lcp_free(pos);
    lcp_free(F);
    lcp_free(ipiv);
    lcp_free(c);
    lcp_free(zn);
    lcp_free(w);
    lcp_free(b);
    lcp_free(K);
    lcp_free(sl);
    return st;
}
