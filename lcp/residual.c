/* residual.c: the one residual function of the suite (lcp/README.md, "The problem":
 * residuals).
 *
 *   w = A z + q,   r_i = z_i - mid(lo_i, z_i - w_i, hi_i)   (natural map; min(z, w) for an LCP)
 *   with friction-coupled bounds lo_i |z_f|, hi_i |z_f| (f = findex[i]).
 * Reported: ||r||_2, ||r||_inf, ||r||_2 / max(1, ||q||_2), complementarity
 * max_i |(z_i - b_i) w_i| with b_i the bound z_i is nearest (only finite bounds), and the
 * largest bound violation of z.  Cost: one CSR product, O(nnz(A) + m).
 * A problem read without A (LCP_READ_SKIP_A) has w = J (Minv (J^T z)) + E z + q instead,
 * three CSR products in that order, O(nnz(J) + nnz(Minv) + m) with n doubles of workspace
 * when Minv is block diagonal (below), 2n otherwise: the same w to rounding (not bit for
 * bit: A z sums the entries of A, each a rounded sum of products).  At z = 0 (a cold
 * start, the loop's first residual) w = q with no product: the same numbers the product
 * gives, as A's entries are finite (the reader and lcp_problem_check refuse others), up to
 * the sign of a zero w_i, which no reported quantity sees.
 */
#include "lcp_internal.h"

#include <string.h>

void lcp_bounds(const lcp_problem *P, const double *z, int i, double *lo, double *hi)
{
    lcp_row_bounds(P, z, i, lo, hi);
}

/* MINV IN PLACE.  A simulator's Minv is block diagonal: each body's mass block (6 x 6, 3 x 3
 * in 2D, or its diagonal) touches only that body's coordinates.  Then u = Minv t can
 * overwrite t, one block at a time through a copy of the block's t, and the factored
 * product needs n doubles of workspace instead of 2n (on a captured 729021-row pile,
 * 9.8 MB less in the loop's workspace and as much in each residual the harness records).
 * Each u_r is summed over row r's entries in CSR order from 0, as lcp_csr_matvec sums it,
 * so u is the same bit for bit.  The blocks are found from the pattern alone: rows are
 * taken in order, a block [s, e) grows to cover every column its rows reach, and closes at
 * the first row r with r + 1 = e; a row that reaches a column before its block's start
 * means Minv is not block diagonal (so does a block wider than MINV_BLOCK).
 * lcp_residual_work checks the pattern (one pass over it) and asks for n doubles only when
 * it holds; lcp_product forms u in place only when given fewer than 2n. */
enum { MINV_BLOCK = 64 };

/* the end e of the block [s, e) of Minv that starts at row s, or -1 when a row of it
 * reaches a column before s or the block is wider than MINV_BLOCK */
static inline int block_end(const lcp_csr *M, int s)
{
    int e = s + 1;
    if (M->p[s + 1] - M->p[s] == 1 && M->j[M->p[s]] == s) return e;   /* 1 x 1 (diagonal) */
    for (int r = s; r < e; r++)
        for (int k = M->p[r]; k < M->p[r + 1]; k++) {
            if (M->j[k] < s) return -1;
            if (M->j[k] >= e) e = M->j[k] + 1;
        }
    return e - s <= MINV_BLOCK ? e : -1;
}

/* 1 when Minv (square, n rows) is block diagonal in blocks of at most MINV_BLOCK */
static int minv_blocks(const lcp_csr *M)
{
    for (int s = 0, e; s < M->nrow; s = e)
        if ((e = block_end(M, s)) < 0) return 0;
    return 1;
}

/* t <- Minv t, for a Minv that minv_blocks accepts */
static void minv_in_place(const lcp_csr *M, double *t)
{
    double b[MINV_BLOCK];
    for (int s = 0, e; s < M->nrow; s = e) {
        e = block_end(M, s);
        const double *in = t + s;               /* a 1-row block reads t before writing it */
        if (e - s > 1) {
            for (int c = s; c < e; c++) b[c - s] = t[c];
            in = b;
        }
        for (int r = s; r < e; r++) {
            double v = 0.0;
            for (int k = M->p[r]; k < M->p[r + 1]; k++) v += M->x[k] * in[M->j[k] - s];
            t[r] = v;
        }
    }
}

void lcp_product(const lcp_problem *P, const double *z, double *w, double *work, size_t nwork,
                 int mf)
{
    if (!mf) {
        lcp_csr_matvec(&P->A, z, w);
        return;
    }
    double *t = work, *u = work;
    lcp_csr_matvec_t(&P->J, z, t);                                  /* t = J^T z */
    if (nwork < 2 * (size_t)P->n) {
        minv_in_place(&P->Minv, t);                                 /* u = Minv t, over t */
    } else {
        u = work + P->n;
        lcp_csr_matvec(&P->Minv, t, u);                             /* u = Minv t */
    }
    lcp_csr_matvec(&P->J, u, w);                                    /* w = J u */
    if (P->E)
        for (int i = 0; i < P->m; i++) w[i] += P->E[i] * z[i];     /* + E z */
}

size_t lcp_residual_work(const lcp_problem *P)
{
    if (P->A.p) return 0;
    return (minv_blocks(&P->Minv) ? 1 : 2) * (size_t)P->n;
}

void lcp_residual(const lcp_problem *P, const double *z, double *w, lcp_residuals *R)
{
    size_t nw = lcp_residual_work(P);
    double *work = nw ? lcp_malloc(nw, sizeof(double)) : NULL;
    if (nw && !work) {                                              /* no workspace: no answer */
        for (int i = 0; i < P->m; i++) w[i] = NAN;
        R->r2 = R->rinf = R->rel = R->comp = R->infeas = INFINITY;
        return;
    }
    lcp_residual_ws(P, z, w, work, nw, R);
    lcp_free(work);
}

/* w = A z + q and the norms of the natural map: the part of the residual the iteration
 * loop's test and lcp_info read (the loop takes it after sweeps; the rest of
 * lcp_residual_ws is a second pass over the same w) */
void lcp_residual_norms(const lcp_problem *P, const double *z, double *w, double *work,
                        size_t nwork, double *r2, double *rinf)
{
    double s2 = 0.0, sinf = 0.0;
    int zero = 1;                                  /* z = 0 (a cold start): A z = 0 */
    for (int i = 0; i < P->m && zero; i++) zero = z[i] == 0.0;
    if (zero)
        memset(w, 0, (size_t)P->m * sizeof(double));
    else
        lcp_product(P, z, w, work, nwork, !P->A.p);
    for (int i = 0; i < P->m; i++) {
        double lo, hi;
        w[i] += P->q[i];                                       /* w = A z + q */
        lcp_row_bounds(P, z, i, &lo, &hi);
        double r = z[i] - lcp_mid(lo, z[i] - w[i], hi);        /* natural map */
        if (r != r) r = INFINITY;                              /* NaN never hides */
        s2 += r * r;
        if (fabs(r) > sinf) sinf = fabs(r);
    }
    *r2 = sqrt(s2);
    *rinf = sinf;
}

void lcp_residual_ws(const lcp_problem *P, const double *z, double *w, double *work,
                     size_t nwork, lcp_residuals *R)
{
    lcp_residual_norms(P, z, w, work, nwork, &R->r2, &R->rinf);
    double q2 = 0.0, comp = 0.0, infeas = 0.0;
    for (int i = 0; i < P->m; i++) {
        double lo, hi;
        lcp_row_bounds(P, z, i, &lo, &hi);
        q2 += P->q[i] * P->q[i];
        double v = fmax(lo - z[i], z[i] - hi);                 /* bound violation */
        if (v > infeas) infeas = v;
        double dl = isfinite(lo) ? fabs(z[i] - lo) : INFINITY;
        double dh = isfinite(hi) ? fabs(z[i] - hi) : INFINITY;
        double d = fmin(dl, dh);
        if (isfinite(d) && fabs(d * w[i]) > comp) comp = fabs(d * w[i]);
    }
    R->rel = R->r2 / fmax(1.0, sqrt(q2));
    R->comp = comp;
    R->infeas = infeas;
}

/* ROW-WISE SCALED RESIDUAL.  max_i |r_i| / ((|A| |z|)_i + |q_i|): each row's natural-map
 * residual against the size of the terms that make up its w_i, the measure of "at rounding"
 * that a norm-wise ||r|| / ||q|| is not when rows differ in scale by decades (a mass ratio
 * of 1e4: |A| reaches 6e4 on rows whose q is O(1)).  A row with r_i = 0 counts 0; one with
 * r_i != 0 on a zero scale counts +inf.  NaN without A (the scale needs A's entries).
 * w is A z + q at z (lcp_residual's).  Cost: one pass over A, O(nnz(A) + m). */
double lcp_residual_rowwise(const lcp_problem *P, const double *z, const double *w)
{
    if (!P || !z || !w || !P->A.p) return NAN;
    double worst = 0.0;
    for (int i = 0; i < P->m; i++) {
        double lo, hi, sc = fabs(P->q[i]);
        lcp_row_bounds(P, z, i, &lo, &hi);
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) sc += fabs(P->A.x[k] * z[P->A.j[k]]);
        double r = fabs(z[i] - lcp_mid(lo, z[i] - w[i], hi));
        if (!(r == 0)) worst = fmax(worst, sc > 0 && isfinite(r) ? r / sc : INFINITY);
    }
    return worst;
}

lcp_status lcp_ref_distance(const lcp_problem *P, const double *z, double *zdiff,
                            double *wdiff)
{
    if (!P || !z || !P->zref) return LCP_ERR_ARG;
    double dz = 0.0, nz = 0.0, dw = 0.0, nw = 0.0;
    if (!P->A.p) {                                     /* no A: the factored products */
        size_t m = (size_t)P->m, nwork = lcp_residual_work(P);
        double *v = lcp_malloc(2 * m + nwork, sizeof(double));
        if (!v) return LCP_ERR_NOMEM;
        lcp_product(P, z, v, v + 2 * m, nwork, !P->A.p);
        lcp_product(P, P->zref, v + m, v + 2 * m, nwork, !P->A.p);
        for (int i = 0; i < P->m; i++) {
            double w = v[i] + P->q[i], wr = v[m + (size_t)i] + P->q[i];
            dz = fmax(dz, fabs(z[i] - P->zref[i]));
            nz = fmax(nz, fabs(P->zref[i]));
            dw = fmax(dw, fabs(w - wr));
            nw = fmax(nw, fabs(wr));
            if (z[i] != z[i]) dz = dw = INFINITY;
        }
        lcp_free(v);
        if (zdiff) *zdiff = dz / fmax(1.0, nz);
        if (wdiff) *wdiff = dw / fmax(1.0, nw);
        return LCP_OK;
    }
    for (int i = 0; i < P->m; i++) {
        double w = P->q[i], wr = P->q[i];
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) {
            w += P->A.x[k] * z[P->A.j[k]];                      /* w_i = A_i z + q_i */
            wr += P->A.x[k] * P->zref[P->A.j[k]];               /* wref_i */
        }
        dz = fmax(dz, fabs(z[i] - P->zref[i]));
        nz = fmax(nz, fabs(P->zref[i]));
        dw = fmax(dw, fabs(w - wr));
        nw = fmax(nw, fabs(wr));
        if (z[i] != z[i]) dz = dw = INFINITY;
    }
    if (zdiff) *zdiff = dz / fmax(1.0, nz);
    if (wdiff) *wdiff = dw / fmax(1.0, nw);
    return LCP_OK;
}

lcp_status lcp_final_residual(const lcp_problem *P, const double *z, double *w, lcp_info *info,
                              lcp_status st)
{
    if (st < 0) return st;
    lcp_residuals R;
    lcp_residual(P, z, w, &R);
    info->residual = R.r2;
    info->residual_inf = R.rinf;
    return isfinite(R.r2) && isfinite(R.rinf) ? st : LCP_ERR_NONFINITE;
}
