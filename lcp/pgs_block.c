/* pgs_block.c: block Gauss-Seidel by contact (`pgs-block'), lcp/README.md, "Solvers".
 *
 * GROUPS.  A row n with findex[n] < 0 together with every friction row t with findex[t] == n
 * forms a group G = {n, t_1, ..., t_k} (k = 1 in 2D, 2 in 3D); a row that no row points at
 * is a group of one (bilateral rows, plain LCP or boxed rows).  Groups are built once (a
 * CSR-like list, normal row first, friction rows ascending) together with their dense
 * blocks A_GG: read from the CSR A (assembled form) or computed from the factors
 * (matrix-free form, B = J Minv: A_gh = J_g . B_h + E_g delta_gh).
 *
 * SWEEP.  Groups are visited in the order of their normal row in the chosen row ordering
 * (lcp_order_next; a coupled row's position is ignored, its group is solved when its normal
 * row comes up).  Per visit, with the newest z and the other rows held fixed,
 *     b = (A z + q)_G - A_GG z_G,      w_G = A_GG z_G' + b,
 * and the group's small boxed problem is solved exactly:
 *   - group of one: z_i <- mid(lo_i, z_i - r_i / a_ii, hi_i) (a PGS update, omega = 1; the
 *     same arithmetic as `pgs', so on problems without friction the iterates are pgs's);
 *   - contact (0 <= z_n, lo_t z_n <= z_t <= hi_t z_n, lo_t/hi_t = P->lo/P->hi of row t):
 *     ENUMERATION in a fixed order, the first valid state wins (deterministic):
 *       1. z_n = 0, all z_t = 0: valid if w_n = b_n >= 0;
 *       2. z_n > 0 and each friction row free (w_t = 0), at lo (z_t = lo_t z_n, w_t >= 0)
 *          or at hi (z_t = hi_t z_n, w_t <= 0), in lexicographic order free < lo < hi
 *          (first friction row slowest): substituting z_t = c_t z_n for bound rows leaves
 *          a (1 + #free) square system (w_n = 0, w_t = 0 for free t), solved by Gaussian
 *          elimination with partial pivoting; the state is valid when z_n >= 0, free z_t
 *          lie in their box and bound rows have the right sign of w_t, all within a
 *          relative 1e-12 (free z_t are then clipped into the box).
 *     FALLBACK: if no state is valid (only possible numerically), if k > 2, if the normal
 *     row is not a standard 0 <= z_n row, or if a friction bound is infinite, the group is
 *     solved by inner projected Gauss-Seidel sweeps on the block (bounds recomputed from the
 *     local z_n) until the largest change is <= 1e-14 max(1, |z_G|) or 1000 inner sweeps.
 *   Matrix-free: u += Minv J_g^T dz_g (lcp_rowop_update) for every changed row.
 *
 * COST.  Set-up: O(sum_G |G|^2 (nnz per row)).  Per sweep: one row product per row (as pgs)
 * plus at most 1 + 3^k small solves (k <= 2: at most 10 systems of size <= 3) per contact.
 * Needs a_ii > 0 on every row (else LCP_ERR_ZERO_DIAG naming the row).
 * Stopping test fused into the sweep (iterate.c): every row adds its natural-map residual
 * at the moment its group is visited (before the group's update).
 *
 * SOURCE.  The "grouping" strategy of Andrews, Erleben, Kry, Teichmann, "Contact and
 * friction simulation for computer graphics" (SIGGRAPH course, 2017); ODE's box friction.
 */
#include "lcp_internal.h"
#include "solvers.h"

#include <string.h>

enum { BLK_MAXK = 2, BLK_MAXS = 1 + BLK_MAXK, BLK_INNER = 1000 };

typedef struct blk_ctx {
    const lcp_problem *P;
    lcp_rowop op;
    lcp_orderer ord;
    int ng;          /* groups */
    int *gp;         /* ng + 1 pointers into grow */
    int *grow;       /* m rows, group by group (normal row first) */
    int *gof;        /* m: group of a leading row, -1 for a coupled (friction) row */
    size_t *boff;    /* ng + 1 offsets into blk */
    double *blk;     /* dense A_GG blocks, row-major */
    double *step;    /* m: 1 / a_ii */
    double *zl, *rl; /* workspace of the largest group: local z, r */
} blk_ctx;

/* A_gh from the CSR A (0 when not stored); rows sorted by column */
static double csr_entry(const lcp_csr *A, int g, int h)
{
    int a = A->p[g], b = A->p[g + 1];
    while (a < b) {
        int c = a + (b - a) / 2;
        if (A->j[c] < h) a = c + 1;
        else b = c;
    }
    return (a < A->p[g + 1] && A->j[a] == h) ? A->x[a] : 0.0;
}

/* J_g . B_h (sorted sparse rows) */
static double sparse_dot(const lcp_csr *J, int g, const lcp_csr *B, int h)
{
    double d = 0.0;
    int a = J->p[g], b = B->p[h];
    while (a < J->p[g + 1] && b < B->p[h + 1]) {
        if (J->j[a] == B->j[b]) d += J->x[a++] * B->x[b++];
        else if (J->j[a] < B->j[b]) a++;
        else b++;
    }
    return d;
}

static lcp_status build_groups(blk_ctx *c)
{
    const lcp_problem *P = c->P;
    int m = P->m;
    int *cnt = lcp_calloc((size_t)m + 1, sizeof(int));
    c->gof = lcp_malloc((size_t)m + 1, sizeof(int));
    c->grow = lcp_malloc((size_t)m + 1, sizeof(int));
    c->gp = lcp_malloc((size_t)m + 1, sizeof(int));
    c->boff = lcp_malloc((size_t)m + 1, sizeof(size_t));
    lcp_status st = LCP_OK;
    if (!cnt || !c->gof || !c->grow || !c->gp || !c->boff) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        for (int i = 0; i < m; i++)                       /* friction rows per normal row */
            if (P->findex && P->findex[i] >= 0) cnt[P->findex[i]]++;
        int ng = 0, pos = 0, smax = 1;
        size_t off = 0;
        for (int i = 0; i < m; i++) {
            if (P->findex && P->findex[i] >= 0) {
                c->gof[i] = -1;
                continue;
            }
            c->gof[i] = ng;
            c->gp[ng] = pos;
            c->boff[ng] = off;
            int s = 1 + cnt[i];
            if (s > smax) smax = s;
            off += (size_t)s * (size_t)s;
            cnt[i] = pos + 1;                             /* next slot for its friction rows */
            c->grow[pos] = i;
            pos += s;
            ng++;
        }
        c->gp[ng] = pos;
        c->boff[ng] = off;
        c->ng = ng;
        for (int i = 0; i < m; i++)                       /* ascending within each group */
            if (P->findex && P->findex[i] >= 0) c->grow[cnt[P->findex[i]]++] = i;
        c->blk = lcp_malloc(off ? off : 1, sizeof(double));
        c->zl = lcp_malloc((size_t)smax, sizeof(double));
        c->rl = lcp_malloc((size_t)smax, sizeof(double));
        if (!c->blk || !c->zl || !c->rl) st = LCP_ERR_NOMEM;
    }
    for (int g = 0; st == LCP_OK && g < c->ng; g++) {
        int s = c->gp[g + 1] - c->gp[g];
        const int *r = c->grow + c->gp[g];
        double *M = c->blk + c->boff[g];
        for (int a = 0; a < s; a++)
            for (int b = 0; b < s; b++) {
                double v;
                if (c->op.mf) {
                    v = sparse_dot(&P->J, r[a], &c->op.B, r[b]);
                    if (a == b && P->E) v += P->E[r[a]];
                } else {
                    v = csr_entry(&P->A, r[a], r[b]);
                }
                M[a * s + b] = v;
            }
        for (int a = 0; a < s; a++) M[a * s + a] = c->op.diag[r[a]];   /* same a_ii as pgs */
    }
    lcp_free(cnt);
    return st;
}

/* Solve the n x n system K x = y (row-major, n <= BLK_MAXS) by Gaussian elimination with
 * partial pivoting; 0 when a pivot is zero or not finite */
static int small_solve(int n, double *K, double *y)
{
    for (int col = 0; col < n; col++) {
        int piv = col;
        for (int r = col + 1; r < n; r++)
            if (fabs(K[r * n + col]) > fabs(K[piv * n + col])) piv = r;
        double p = K[piv * n + col];
        if (!(fabs(p) > 0.0) || !isfinite(p)) return 0;
        if (piv != col) {
            for (int k = 0; k < n; k++) {
                double t = K[col * n + k];
                K[col * n + k] = K[piv * n + k];
                K[piv * n + k] = t;
            }
            double t = y[col];
            y[col] = y[piv];
            y[piv] = t;
        }
        for (int r = col + 1; r < n; r++) {
            double f = K[r * n + col] / p;
            for (int k = col; k < n; k++) K[r * n + k] -= f * K[col * n + k];
            y[r] -= f * y[col];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = y[r];
        for (int k = r + 1; k < n; k++) s -= K[r * n + k] * y[k];
        y[r] = s / K[r * n + r];
    }
    return 1;
}

/* Exact solve of one contact group by enumeration (see the header).  M: s x s block, b the
 * local right side, lo/hi the friction coefficients (index 1..k); z out.  1 on success. */
static int contact_enum(int s, const double *M, const double *b, const double *lo,
                        const double *hi, double *z)
{
    int k = s - 1;
    double bscale = 0.0;
    for (int a = 0; a < s; a++) bscale = fmax(bscale, fabs(b[a]));
    const double rtol = 1e-12;
    double tolw = rtol * bscale;
    if (b[0] >= -tolw) {                                   /* state 1: separated */
        for (int a = 0; a < s; a++) z[a] = 0.0;
        return 1;
    }
    int nstates = 1;
    for (int t = 0; t < k; t++) nstates *= 3;
    for (int code = 0; code < nstates; code++) {
        int state[BLK_MAXS] = {0};                         /* 0 free, 1 at lo, 2 at hi */
        int col[BLK_MAXS];                                 /* local row -> unknown index */
        double cf[BLK_MAXS] = {0.0};
        int rest = code, nu = 1;
        col[0] = 0;
        for (int t = k; t >= 1; t--) {                     /* first friction row slowest */
            state[t] = rest % 3;
            rest /= 3;
        }
        for (int t = 1; t <= k; t++) {
            if (state[t] == 0) col[t] = nu++;
            else {
                col[t] = -1;
                cf[t] = state[t] == 1 ? lo[t] : hi[t];
            }
        }
        double K[BLK_MAXS * BLK_MAXS], y[BLK_MAXS];
        int e = 0;
        for (int a = 0; a < s; a++) {                      /* equations: w_a = 0 */
            if (a > 0 && state[a] != 0) continue;
            for (int u = 0; u < nu; u++) K[e * nu + u] = 0.0;
            for (int h = 0; h < s; h++) {
                if (col[h] >= 0) K[e * nu + col[h]] += M[a * s + h];
                else K[e * nu + 0] += M[a * s + h] * cf[h];
            }
            y[e] = -b[a];
            e++;
        }
        if (!small_solve(nu, K, y)) continue;
        double zn = y[0];
        if (!(zn >= 0.0) || !isfinite(zn)) continue;
        double zt[BLK_MAXS];
        zt[0] = zn;
        for (int t = 1; t <= k; t++) zt[t] = col[t] >= 0 ? y[col[t]] : cf[t] * zn;
        double zscale = 0.0;
        for (int a = 0; a < s; a++) zscale = fmax(zscale, fabs(zt[a]));
        double tolz = rtol * zscale;
        double mscale = 0.0;
        for (int a = 0; a < s * s; a++) mscale = fmax(mscale, fabs(M[a]));
        double tw = rtol * (bscale + mscale * zscale);
        int valid = 1;
        for (int t = 1; t <= k && valid; t++) {
            double w = b[t];
            for (int h = 0; h < s; h++) w += M[t * s + h] * zt[h];
            if (state[t] == 0) valid = zt[t] >= lo[t] * zn - tolz && zt[t] <= hi[t] * zn + tolz;
            else if (state[t] == 1) valid = w >= -tw;
            else valid = w <= tw;
        }
        if (!valid) continue;
        for (int t = 1; t <= k; t++) zt[t] = lcp_mid(lo[t] * zn, zt[t], hi[t] * zn);
        for (int a = 0; a < s; a++) z[a] = zt[a];
        return 1;
    }
    return 0;
}

/* Inner projected Gauss-Seidel on the block: w = M z + b, bounds of the friction rows from
 * the local normal value.  z in (the current values) and out. */
static void inner_pgs(const lcp_problem *P, const int *rows, int s, const double *M,
                      const double *b, double *z)
{
    for (int it = 0; it < BLK_INNER; it++) {
        double change = 0.0, zmax = 0.0;
        for (int a = 0; a < s; a++) {
            double lo, hi;
            if (a > 0 && P->findex && P->findex[rows[a]] == rows[0]) {
                double zn = fabs(z[0]);
                lo = P->lo[rows[a]] * zn;
                hi = P->hi[rows[a]] * zn;
            } else {
                lo = P->lo[rows[a]];
                hi = P->hi[rows[a]];
            }
            double w = b[a];
            for (int h = 0; h < s; h++) w += M[a * s + h] * z[h];
            double za = lcp_mid(lo, z[a] - w / M[a * s + a], hi);
            change = fmax(change, fabs(za - z[a]));
            z[a] = za;
            zmax = fmax(zmax, fabs(za));
        }
        if (change <= 1e-14 * fmax(1.0, zmax)) break;
    }
}

/* r_i = (A z + q)_i with the newest z, the same arithmetic as pgs */
static inline __attribute__((always_inline)) double row_res(const blk_ctx *c, int i,
                                                            const double *z, const int mf)
{
    const lcp_problem *P = c->P;
    double r = P->q[i];
    if (mf) {
        const lcp_csr *J = &P->J;
        for (int k = J->p[i]; k < J->p[i + 1]; k++) r += J->x[k] * c->op.u[J->j[k]];
        if (P->E) r += P->E[i] * z[i];
    } else {
        const lcp_csr *A = &P->A;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) r += A->x[k] * z[A->j[k]];
    }
    return r;
}

/* returns sum rho_a^2 over the group's rows as visited (iterate.c) */
static double solve_group(blk_ctx *c, int g, double *z, const int mf)
{
    const lcp_problem *P = c->P;
    const int *rows = c->grow + c->gp[g];
    int s = c->gp[g + 1] - c->gp[g];
    const double *M = c->blk + c->boff[g];
    double *zl = c->zl, *b = c->rl;
    double e2 = 0.0;
    for (int a = 0; a < s; a++) {                          /* b = r_G - A_GG z_G */
        b[a] = row_res(c, rows[a], z, mf);
        zl[a] = z[rows[a]];
        double lo, hi;
        lcp_row_bounds(P, z, rows[a], &lo, &hi);
        double rho = zl[a] - lcp_mid(lo, zl[a] - b[a], hi);      /* row as visited */
        e2 += rho * rho;
    }
    for (int a = 0; a < s; a++)
        for (int h = 0; h < s; h++) b[a] -= M[a * s + h] * zl[h];
    int done = 0;
    int n = rows[0];
    if (s - 1 <= BLK_MAXK && P->lo[n] == 0.0 && P->hi[n] == INFINITY) {
        double lo[BLK_MAXS], hi[BLK_MAXS];
        int finite = 1;
        for (int t = 1; t < s; t++) {
            lo[t] = P->lo[rows[t]];
            hi[t] = P->hi[rows[t]];
            finite &= isfinite(lo[t]) && isfinite(hi[t]);
        }
        double zn[BLK_MAXS];
        if (finite && contact_enum(s, M, b, lo, hi, zn)) {
            for (int a = 0; a < s; a++) zl[a] = zn[a];
            done = 1;
        }
    }
    if (!done) inner_pgs(P, rows, s, M, b, zl);
    for (int a = 0; a < s; a++) {
        int i = rows[a];
        if (mf) lcp_rowop_update(&c->op, i, zl[a] - z[i]);
        z[i] = zl[a];
    }
    return e2;
}

static inline __attribute__((always_inline)) double blk_rows(blk_ctx *c, const int *perm,
                                                             double *z, const int mf)
{
    double e2 = 0.0;
    const lcp_problem *P = c->P;
    const int natural = c->ord.kind == LCP_ORDER_NATURAL;
    for (int t = 0; t < P->m; t++) {
        int i = natural ? t : perm[t];
        int g = c->gof[i];
        if (g < 0) continue;                               /* solved with its normal row */
        if (c->gp[g + 1] - c->gp[g] == 1) {                /* group of one: a PGS update */
            double lo = P->lo[i], hi = P->hi[i];
            double r = row_res(c, i, z, mf);
            double rho = z[i] - lcp_mid(lo, z[i] - r, hi);           /* row as visited */
            e2 += rho * rho;
            double zi = lcp_mid(lo, z[i] - c->step[i] * r, hi);
            if (mf) lcp_rowop_update(&c->op, i, zi - z[i]);
            z[i] = zi;
        } else {
            e2 += solve_group(c, g, z, mf);
        }
    }
    return e2;
}

static lcp_status blk_sweep(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    blk_ctx *c = vctx;
    (void)row;
    if (k == 1) lcp_rowop_reset(&c->op, z);               /* u = Minv J^T z at the start */
    const int *perm = lcp_order_next(&c->ord, k, z);
    est->e2 = c->op.mf ? blk_rows(c, perm, z, 1) : blk_rows(c, perm, z, 0);
    return LCP_OK;
}

static void blk_free(blk_ctx *c)
{
    lcp_free(c->gp);
    lcp_free(c->grow);
    lcp_free(c->gof);
    lcp_free(c->boff);
    lcp_free(c->blk);
    lcp_free(c->step);
    lcp_free(c->zl);
    lcp_free(c->rl);
}

lcp_status lcp_solve_pgs_block(const lcp_problem *P, const lcp_options *opt, double *z,
                         lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    blk_ctx c;
    memset(&c, 0, sizeof c);
    c.P = P;
    lcp_status st = lcp_rowop_init(&c.op, P, opt->form);
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(c.op.diag[i] > 0.0)) {
            st = LCP_ERR_ZERO_DIAG;
            info->row = i;
        }
    if (st == LCP_OK && !(c.step = lcp_malloc((size_t)P->m + 1, sizeof(double))))
        st = LCP_ERR_NOMEM;
    for (int i = 0; st == LCP_OK && i < P->m; i++) c.step[i] = 1.0 / c.op.diag[i];
    if (st == LCP_OK) st = build_groups(&c);
    if (st == LCP_OK) st = lcp_order_init(&c.ord, P, opt, c.op.diag);
    if (st == LCP_OK) {
        info->form = c.op.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        info->omega = 1.0;
        st = lcp_iterate_fused(P, opt, blk_sweep, &c, z, info);
        lcp_order_free(&c.ord);
    }
    lcp_rowop_free(&c.op);
    blk_free(&c);
    info->status = st;
    return st;
}
