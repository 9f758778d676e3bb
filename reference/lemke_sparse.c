/* lemke_sparse.c: Lemke's method on a sparse basis (KLU's LU and a product-form update),
 * for LCPs whose matrix is sparse and too large for the dense basis inverse of lemke_ref.c
 * to be cheap: the friction cone's LCP of route `lemke-cone' (ref_cone.c).
 *
 * COMPUTES.  lemke_lcp_sparse: a solution of the standard LCP  w = M z + q >= 0, z >= 0,
 * z^T w = 0 (M sparse, CSC, any matrix), or LCP_ERR_NO_SOLUTION when the method ends on a
 * secondary ray (no certificate is formed here: the caller claims nothing from it).
 *
 * METHOD.  The method of lemke_lcp (lemke_ref.c) step for step: covering vector d = 1 (or
 * the caller's d > 0: the path of LCP(q + z0 d) from z0 large to z0 = 0 then depends on d,
 * the method's termination does not), z0 entering first at the most negative q_i / d_i,
 * then the complement of each leaving variable,
 * the same lexicographic ratio test with the same tolerances (LEMKE_PIV, LEMKE_TIE), the same
 * drift check.  Only the basis is held otherwise: B = B0 E_1 ... E_t, with B0 factored by
 * KLU (BTF, AMD, partial pivoting) and E_s the identity with column p_s replaced by the
 * pivot column u_s = B_{s-1}^-1 a (the product form of the inverse; G. B. Dantzig and
 * W. Orchard-Hays, "The product form for the inverse in the simplex method", Math. Tables
 * Aids Comput. 8 (1954) 64-67).  Each pivot needs one solve with B (FTRAN: KLU's solve, then
 * the etas in order); a lexicographic tie needs the tied rows of B^-1 (BTRAN: the etas
 * backwards, then KLU's transposed solve), rare in practice.  B0 is factored again, with
 * the basic values recomputed from q (one refinement step), when the etas hold more entries
 * than the LU (plus 8 n), after LKS_ETA_MAX pivots, or when the basic values drifted
 * (||q - B x_B||_inf > LEMKE_DRIFT max(1, ||q||_inf), checked every LEMKE_CHECK pivots).  At
 * a refactorisation each basic variable is put in the position of its complementary pair
 * (z0 in the pair with neither basic): B0's columns are then e_i (w_i basic), -M_:i (z_i
 * basic) and -d, whose diagonal is the one KLU prefers; the positions are labels only, so
 * the ratio test's choices do not depend on them.  At the end the complementary basis is
 * solved anew (lemke_sparse_basis: M_ZZ z_Z = -q_Z by KLU with refinement).
 *
 * COST.  A pivot: one KLU solve (4 nnz(L + U) flops) plus the etas' entries (at most about
 * nnz(L + U) + 8 n); a refactorisation every few dozen to hundreds of pivots.  Memory: M,
 * B0's CSC and LU, the etas; no n x n array.  The number of pivots is the problem's, as in
 * lemke_ref.c (the same path in exact arithmetic).
 */
#include "lemke_ref.h"
#include "ref_internal.h"

#include <klu.h>
#include <string.h>

#define LKS_ETA_MAX 400  /* etas at most, then B0 is factored again */

typedef struct lks {
    int n;
    const int *Mp, *Mi;
    const double *Mx, *q;
    const double *d;    /* the covering vector, or NULL: all ones */
    double qs;          /* max(1, ||q||_inf) */
    int *bas;           /* n: basic variable of each position: w_i = i, z_j = n + j, z0 = 2n */
    double *xb;         /* n: basic values */
    double *a, *t1, *y; /* n: the pivot column, scratch, a row of B^-1 */
    int *tie, *mark;    /* n: tied positions; pair marks */
    klu_common c;
    klu_symbolic *sym;
    klu_numeric *num;
    int *Bp, *Bi;       /* B0, CSC: n + 1, nnz(M) + 2 n */
    double *Bx;
    long lunz;          /* nnz(L + U) of B0's factor, and its off-diagonal blocks */
    int neta, *ep, *es; /* etas: pivot position, start of entries (LKS_ETA_MAX + 1) */
    double *epv;        /* pivot entry u_p of each eta */
    int *ei;            /* entries of the etas (position, value; the pivot left out) */
    double *ex;
    long ecap, enz;
    long reinverts;
    double work;        /* flops of the solves and factorisations so far */
} lks;

/* d_k, the covering vector's entry k */
static inline double lks_d(const lks *L, int k)
{
    return L->d ? L->d[k] : 1.0;
}

/* t1 = column of variable v in [I, -M, -d] (dense) */
static void lks_col(lks *L, int v, double *out)
{
    int n = L->n;
    memset(out, 0, (size_t)n * sizeof *out);
    if (v < n) out[v] = 1.0;
    else if (v < 2 * n)
        for (int e = L->Mp[v - n]; e < L->Mp[v - n + 1]; e++) out[L->Mi[e]] -= L->Mx[e];
    else
        for (int k = 0; k < n; k++) out[k] = -lks_d(L, k);
}

/* x = B^-1 x in place (FTRAN) */
static int lks_ftran(lks *L, double *x)
{
    L->work += 2.0 * (double)(L->lunz + L->enz) + 4.0 * L->n;
    if (!klu_solve(L->sym, L->num, L->n, 1, x, &L->c)) return 0;
    for (int t = 0; t < L->neta; t++) {
        int p = L->ep[t];
        double xp = x[p] / L->epv[t];
        if (xp != 0.0)
            for (long e = L->es[t]; e < L->es[t + 1]; e++) x[L->ei[e]] -= L->ex[e] * xp;
        x[p] = xp;
    }
    return 1;
}

/* y = row k of B^-1 (BTRAN) */
static int lks_btran(lks *L, int k, double *y)
{
    L->work += 2.0 * (double)(L->lunz + L->enz) + 4.0 * L->n;
    memset(y, 0, (size_t)L->n * sizeof *y);
    y[k] = 1.0;
    for (int t = L->neta - 1; t >= 0; t--) {
        int p = L->ep[t];
        double s = y[p];
        for (long e = L->es[t]; e < L->es[t + 1]; e++) s -= y[L->ei[e]] * L->ex[e];
        y[p] = s / L->epv[t];
    }
    return klu_tsolve(L->sym, L->num, L->n, 1, y, &L->c);
}

/* t1 = q - B x_B; returns its inf-norm */
static double lks_drift(lks *L)
{
    int n = L->n;
    memcpy(L->t1, L->q, (size_t)n * sizeof *L->t1);
    for (int r = 0; r < n; r++) {
        int v = L->bas[r];
        double x = L->xb[r];
        if (v < n) L->t1[v] -= x;
        else if (v < 2 * n)
            for (int e = L->Mp[v - n]; e < L->Mp[v - n + 1]; e++) L->t1[L->Mi[e]] += L->Mx[e] * x;
        else
            for (int k = 0; k < n; k++) L->t1[k] += lks_d(L, k) * x;
    }
    double d = 0.0;
    for (int k = 0; k < n; k++) {
        double v = fabs(L->t1[k]);
        if (!(v <= d)) d = v;                           /* NaN propagates */
    }
    return d;
}

/* B0 = B in canonical positions, factored; etas cleared; x_B = B^-1 q, refined once */
static lcp_status lks_refactor(lks *L)
{
    int n = L->n, r0 = -1;
    memset(L->mark, 0, (size_t)n * sizeof *L->mark);
    for (int r = 0; r < n; r++) {
        int v = L->bas[r];
        if (v < 2 * n) L->mark[v < n ? v : v - n] = 1;
    }
    for (int i = 0; i < n && r0 < 0; i++)
        if (!L->mark[i]) r0 = i;                       /* the pair of z0 (none: z0 left) */
    int *nb = L->tie;                                  /* the new labels, then copied */
    for (int r = 0; r < n; r++) {
        int v = L->bas[r];
        int i = v < n ? v : (v < 2 * n ? v - n : r0);
        nb[i] = v;
    }
    memcpy(L->bas, nb, (size_t)n * sizeof *nb);
    int nz = 0;
    for (int i = 0; i < n; i++) {
        int v = L->bas[i];
        L->Bp[i] = nz;
        if (v < n) {
            L->Bi[nz] = v;
            L->Bx[nz++] = 1.0;
        } else if (v < 2 * n) {
            for (int e = L->Mp[v - n]; e < L->Mp[v - n + 1]; e++) {
                L->Bi[nz] = L->Mi[e];
                L->Bx[nz++] = -L->Mx[e];
            }
        } else {
            for (int k = 0; k < n; k++) {
                L->Bi[nz] = k;
                L->Bx[nz++] = -lks_d(L, k);
            }
        }
    }
    L->Bp[n] = nz;
    if (L->num) klu_free_numeric(&L->num, &L->c);
    if (L->sym) klu_free_symbolic(&L->sym, &L->c);
    L->sym = klu_analyze(n, L->Bp, L->Bi, &L->c);
    if (L->sym) L->num = klu_factor(L->Bp, L->Bi, L->Bx, L->sym, &L->c);
    if (!L->sym || !L->num)
        return L->c.status == KLU_OUT_OF_MEMORY ? LCP_ERR_NOMEM : LCP_ERR_BREAKDOWN;
    L->lunz = (long)L->num->lnz + L->num->unz + L->num->nzoff;
    if (klu_flops(L->sym, L->num, &L->c)) L->work += L->c.flops;
    L->work += 20.0 * (double)nz;                       /* the ordering, roughly */
    L->neta = 0;
    L->enz = 0;
    L->es[0] = 0;
    L->reinverts++;
    memcpy(L->xb, L->q, (size_t)n * sizeof *L->xb);
    if (!lks_ftran(L, L->xb)) return LCP_ERR_BREAKDOWN;
    lks_drift(L);                                       /* one refinement step */
    if (!lks_ftran(L, L->t1)) return LCP_ERR_BREAKDOWN;
    for (int k = 0; k < n; k++) L->xb[k] += L->t1[k];
    return LCP_OK;
}

/* The leaving position for the pivot column a (sign s): lemke_ratio, its ties by lemke_lex
 * on the tied rows of B^-1 (BTRAN; formed once, nt x n); -1: a ray; -2: a solve failed; -3:
 * no memory */
static int lks_ratio(lks *L, double s, long *ties)
{
    int n = L->n, nt = 0;
    int r = lemke_ratio(n, L->a, L->xb, L->bas, L->qs, s, L->tie, &nt);
    if (r != -2) return r;
    (*ties)++;
    double *R = lcp_malloc((size_t)nt * (size_t)n, sizeof *R);
    if (!R) return -3;
    for (int t = 0; t < nt; t++) {
        L->mark[t] = t;
        if (!lks_btran(L, L->tie[t], R + (size_t)t * n)) {
            lcp_free(R);
            return -2;
        }
    }
    r = lemke_lex(n, L->a, s, L->tie, L->mark, nt, R);
    lcp_free(R);
    return r;
}

/* Pivot on position r with column a: x_B updated, the eta appended (the caller refactors
 * when the etas are many) */
static lcp_status lks_pivot(lks *L, int r, int v)
{
    int n = L->n;
    double p = L->a[r], t = L->xb[r] / p;
    for (int k = 0; k < n; k++) L->xb[k] -= L->a[k] * t;
    L->xb[r] = t;
    L->bas[r] = v;
    long need = L->enz + n;
    if (need > L->ecap) {
        long cap = need > 2 * L->ecap ? need : 2 * L->ecap;
        int *ei = lcp_realloc(L->ei, (size_t)cap, sizeof *ei);
        if (!ei) return LCP_ERR_NOMEM;
        L->ei = ei;
        double *ex = lcp_realloc(L->ex, (size_t)cap, sizeof *ex);
        if (!ex) return LCP_ERR_NOMEM;
        L->ex = ex;
        L->ecap = cap;
    }
    int s = L->neta;
    L->ep[s] = r;
    L->epv[s] = p;
    for (int k = 0; k < n; k++)
        if (k != r && L->a[k] != 0.0) {
            L->ei[L->enz] = k;
            L->ex[L->enz++] = L->a[k];
        }
    L->es[++L->neta] = (int)L->enz;
    return LCP_OK;
}

lcp_status lemke_sparse_basis(int n, const int *Mp, const int *Mi, const double *Mx,
                              const double *q, double *z)
{
    int k = 0;
    int *Z = lcp_malloc((size_t)n + 1, sizeof *Z), *inv = lcp_malloc((size_t)n + 1, sizeof *inv);
    int *Sp = lcp_malloc((size_t)n + 1, sizeof *Sp);
    int *Si = lcp_malloc((size_t)Mp[n] + 1, sizeof *Si);
    double *Sx = lcp_malloc((size_t)Mp[n] + 1, sizeof *Sx);
    double *zz = lcp_malloc((size_t)n + 1, sizeof *zz), *res = lcp_malloc((size_t)n + 1, sizeof *res);
    lcp_status st = Z && inv && Sp && Si && Sx && zz && res ? LCP_OK : LCP_ERR_NOMEM;
    klu_common c;
    klu_symbolic *sym = NULL;
    klu_numeric *num = NULL;
    klu_defaults(&c);
    if (st == LCP_OK) {
        for (int i = 0; i < n; i++) {
            inv[i] = -1;
            if (z[i] > 0.0) {
                inv[i] = k;
                Z[k++] = i;
            }
        }
        int nz = 0;
        for (int b = 0; b < k; b++) {                   /* M_ZZ, CSC */
            Sp[b] = nz;
            for (int e = Mp[Z[b]]; e < Mp[Z[b] + 1]; e++)
                if (inv[Mi[e]] >= 0) {
                    Si[nz] = inv[Mi[e]];
                    Sx[nz++] = Mx[e];
                }
        }
        Sp[k] = nz;
        if (k > 0) sym = klu_analyze(k, Sp, Si, &c);
        if (sym) num = klu_factor(Sp, Si, Sx, sym, &c);
        if (k > 0 && (!sym || !num))
            st = c.status == KLU_OUT_OF_MEMORY ? LCP_ERR_NOMEM : LCP_OK; /* singular: keep z */
    }
    if (st == LCP_OK && num) {
        double prev = INFINITY;
        for (int a = 0; a < k; a++) zz[a] = z[Z[a]];
        for (int it = 0; it < 6; it++) {                /* res = -q_Z - M_ZZ z_Z */
            for (int a = 0; a < k; a++) res[a] = -q[Z[a]];
            for (int b = 0; b < k; b++)
                for (int e = Sp[b]; e < Sp[b + 1]; e++) res[Si[e]] -= Sx[e] * zz[b];
            double rn = 0.0;
            for (int a = 0; a < k; a++) rn = fmax(rn, fabs(res[a]));
            if (it >= 2 && !(rn <= 0.5 * prev)) break;  /* refinement stopped helping */
            prev = rn;
            if (rn == 0.0) break;
            if (!klu_solve(sym, num, k, 1, res, &c)) break;
            for (int a = 0; a < k; a++) zz[a] += res[a];
        }
        for (int a = 0; a < k; a++) z[Z[a]] = zz[a] > 0.0 ? zz[a] : 0.0;
    }
    if (num) klu_free_numeric(&num, &c);
    if (sym) klu_free_symbolic(&sym, &c);
    lcp_free(Z);
    lcp_free(inv);
    lcp_free(Sp);
    lcp_free(Si);
    lcp_free(Sx);
    lcp_free(zz);
    lcp_free(res);
    return st;
}

lcp_status lemke_lcp_sparse(int n, const int *Mp, const int *Mi, const double *Mx,
                            const double *q, const double *d, long max_pivots, double max_work,
                            double *z, lemke_stats *stp)
{
    lemke_stats st0;
    lemke_stats *st = stp ? stp : &st0;
    memset(st, 0, sizeof *st);
    if (n < 0 || (n > 0 && (!Mp || !q || !z))) return LCP_ERR_ARG;
    for (int k = 0; d && k < n; k++)
        if (!(d[k] > 0.0 && d[k] < INFINITY)) return LCP_ERR_ARG;
    lks L;
    memset(&L, 0, sizeof L);
    if (lemke_start(n, q, z, &max_pivots, &L.qs)) return LCP_OK;   /* z = 0 */
    L.n = n;
    L.Mp = Mp;
    L.Mi = Mi;
    L.Mx = Mx;
    L.q = q;
    L.d = d;
    klu_defaults(&L.c);
    size_t nn = (size_t)n;
    L.bas = lcp_malloc(nn, sizeof *L.bas);
    L.xb = lcp_malloc(nn, sizeof *L.xb);
    L.a = lcp_malloc(nn, sizeof *L.a);
    L.t1 = lcp_malloc(nn, sizeof *L.t1);
    L.y = lcp_malloc(nn, sizeof *L.y);
    L.tie = lcp_malloc(nn, sizeof *L.tie);
    L.mark = lcp_malloc(nn, sizeof *L.mark);
    L.Bp = lcp_malloc(nn + 1, sizeof *L.Bp);
    L.Bi = lcp_malloc((size_t)Mp[n] + 2 * nn, sizeof *L.Bi);
    L.Bx = lcp_malloc((size_t)Mp[n] + 2 * nn, sizeof *L.Bx);
    L.ep = lcp_malloc(LKS_ETA_MAX + 1, sizeof *L.ep);
    L.es = lcp_malloc(LKS_ETA_MAX + 1, sizeof *L.es);
    L.epv = lcp_malloc(LKS_ETA_MAX + 1, sizeof *L.epv);
    lcp_status s = LCP_OK;
    if (!L.bas || !L.xb || !L.a || !L.t1 || !L.y || !L.tie || !L.mark || !L.Bp || !L.Bi ||
        !L.Bx || !L.ep || !L.es || !L.epv) {
        s = LCP_ERR_NOMEM;
        goto out;
    }
    for (int i = 0; i < n; i++) L.bas[i] = i;           /* basis: all w, B = I */
    s = lks_refactor(&L);
    if (s != LCP_OK) goto out;
    int enter = 2 * n;                                  /* z0 first: the most negative q_i */
    lks_col(&L, enter, L.a);
    if (!lks_ftran(&L, L.a)) {
        s = LCP_ERR_BREAKDOWN;
        goto out;
    }
    int r = lks_ratio(&L, -1.0, &st->ties);
    for (;;) {
        if (r < -1) {                                   /* a solve failed, or no memory */
            s = r == -3 ? LCP_ERR_NOMEM : LCP_ERR_BREAKDOWN;
            break;
        }
        if (r < 0) {                                    /* no leaving row: a secondary ray */
            s = LCP_ERR_NO_SOLUTION;
            break;
        }
        int leave = L.bas[r];
        s = lks_pivot(&L, r, enter);
        if (s != LCP_OK) break;
        st->pivots++;
        if (leave == 2 * n) break;                      /* z0 left: solved */
        if (st->pivots >= max_pivots || (max_work > 0.0 && L.work > max_work)) {
            s = LCP_PIVOT_CAP;
            break;
        }
        if (L.neta >= LKS_ETA_MAX || L.enz > L.lunz + 8L * n ||
            (st->pivots % LEMKE_CHECK == 0 && lks_drift(&L) > LEMKE_DRIFT * L.qs)) {
            s = lks_refactor(&L);
            if (s != LCP_OK) break;
        }
        enter = leave < n ? leave + n : leave - n;      /* the complement enters */
        lks_col(&L, enter, L.a);
        if (!lks_ftran(&L, L.a)) {
            s = LCP_ERR_BREAKDOWN;
            break;
        }
        r = lks_ratio(&L, 1.0, &st->ties);
    }
    for (int k = 0; k < n; k++)                         /* z from the basis */
        if (L.bas[k] >= n && L.bas[k] < 2 * n) z[L.bas[k] - n] = fmax(L.xb[k], 0.0);
    if (s == LCP_OK) s = lemke_sparse_basis(n, Mp, Mi, Mx, q, z);
out:
    st->reinverts = L.reinverts > 0 ? L.reinverts - 1 : 0;
    st->work = L.work;
    if (L.num) klu_free_numeric(&L.num, &L.c);
    if (L.sym) klu_free_symbolic(&L.sym, &L.c);
    lcp_free(L.bas);
    lcp_free(L.xb);
    lcp_free(L.a);
    lcp_free(L.t1);
    lcp_free(L.y);
    lcp_free(L.tie);
    lcp_free(L.mark);
    lcp_free(L.Bp);
    lcp_free(L.Bi);
    lcp_free(L.Bx);
    lcp_free(L.ep);
    lcp_free(L.es);
    lcp_free(L.epv);
    lcp_free(L.ei);
    lcp_free(L.ex);
    return s;
}
