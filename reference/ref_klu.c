/* ref_klu.c: sparse LU of a non-symmetric system for the pivoting reference: the coupled
 * friction system of the semismooth Newton phase of ldlt_ref.c,
 *     (A_FF + A_FS C) z_F = b     (sliding rows S tied to their normal impulses),
 * whose matrix the driver hands over row by row (CSR, n x n, no duplicate entries).
 *
 * METHOD.  KLU (SuiteSparse, LGPL): the CSR arrays of K are the CSC arrays of K^T, which
 * KLU factors (no BTF: the contact graph of a pile is one strongly connected block; partial
 * pivoting with diagonal preference, row scaling by the max); K x = b is then KLU's
 * transposed solve.  The fill-reducing order is KLU's AMD on the pattern of K + K^T; when
 * KLU estimates the LU at over 2e7 flops, CHOLMOD's analysis of that pattern is given to
 * KLU as its user ordering instead (lu_order): AMD's, or METIS's nested dissection when
 * AMD's Cholesky flops exceed 10^7 and METIS's are fewer (ref_cholmod.c's rule for A_FF).  On the 10626-row friction pile: 41 LUs of 9.4e9 flops in all against
 * 13.9e9 with KLU's own AMD, the ordering 15 ms an LU (an order of A's whole pattern
 * computed once and restricted to F needed 12.8e9: the bound rows' fill).  The reciprocal
 * pivot ratio min |U_kk| / max |U_kk| (klu_rcond) is reported, so that the driver can
 * refuse a numerically singular system.  Allocation goes through SuiteSparse_config, which
 * the sparse backend (ref_cholmod.c) points at the library's allocator.
 *
 * COST.  One symbolic analysis (AMD, and METIS when large) and one numeric factorisation
 * per call: about twice the flops of the Cholesky factorisation of the same pattern,
 * without dense kernels (left-looking, column by column); a solve costs 4 nnz(L + U) flops.
 *
 * SOURCE.  T. A. Davis and E. Palamadai Natarajan, "Algorithm 907: KLU, a direct sparse
 * solver for circuit simulation problems", ACM Trans. Math. Softw. 37 (2010) 36.
 */
#include "ref_internal.h"

#include <cholmod.h>
#include <klu.h>
#include <string.h>

struct ref_lu {
    klu_common c;
    klu_symbolic *sym;
    klu_numeric *num;
    int n;
};

#define LU_ND_LU_FL 2e7 /* KLU's estimate of the LU flops with AMD above which the order
                           of lu_order is computed */
#define LU_ND_FL 1e7    /* AMD's Cholesky flops above which nested dissection is tried */

/* One CHOLMOD analysis of the symmetric pattern S with the given ordering; its flops and
 * nnz(L), Perm copied out; 0 when it failed. */
static int lu_analyse(cholmod_sparse *S, int ordering, int *Perm, double *fl, double *lnz,
                      cholmod_common *c)
{
    c->method[0].ordering = ordering;
    cholmod_factor *F = cholmod_analyze(S, c);
    int ok = F && c->status == CHOLMOD_OK;
    if (ok) {
        memcpy(Perm, F->Perm, S->nrow * sizeof *Perm);
        *fl = c->fl;
        *lnz = c->lnz;
    }
    cholmod_free_factor(&F, c);
    c->status = CHOLMOD_OK;
    return ok;
}

/* KLU's user ordering (klu_common.ordering 3): the fill-reducing order of the pattern of
 * K + K^T by CHOLMOD's analysis, AMD's, or METIS's nested dissection when AMD's Cholesky
 * flops exceed LU_ND_FL and METIS's are fewer (as ref_cholmod.c does for A_FF: on the
 * coupled matrices of the 10626-row pile the LU's flops fall from 3.4e8 to 2.3e8 a step).
 * Returns nnz(L) of the order kept (KLU's first allocation), 0 on failure (then KLU reports
 * KLU_INVALID, and ref_lu_factor keeps KLU's own AMD order). */
static int lu_order(int n, int *Kp, int *Kj, int *Perm, klu_common *kc)
{
    (void)kc;
    int *Pnd = lcp_malloc((size_t)n + 1, sizeof *Pnd);
    cholmod_common c;
    cholmod_sparse K;
    double fl = 0.0, lnz = 0.0, fnd = 0.0, lnd = 0.0;
    int ok = 0;
    cholmod_start(&c);
    c.print = 0;
    c.nmethods = 1;
    memset(&K, 0, sizeof K);
    K.nrow = K.ncol = (size_t)n;
    K.nzmax = (size_t)Kp[n];
    K.p = Kp;
    K.i = Kj;
    K.itype = CHOLMOD_INT;
    K.xtype = CHOLMOD_PATTERN;
    K.dtype = CHOLMOD_DOUBLE;
    K.packed = 1;
    cholmod_sparse *T = Pnd ? cholmod_transpose(&K, 0, &c) : NULL;
    cholmod_sparse *S = T ? cholmod_add(&K, T, NULL, NULL, 0, 0, &c) : NULL;
    if (S) {
        S->stype = 1;                                  /* symmetric: its upper triangle */
        ok = lu_analyse(S, CHOLMOD_AMD, Perm, &fl, &lnz, &c);
        if (ok && fl > LU_ND_FL && lu_analyse(S, CHOLMOD_METIS, Pnd, &fnd, &lnd, &c) &&
            fnd < fl) {
            memcpy(Perm, Pnd, (size_t)n * sizeof *Perm);
            lnz = lnd;
        }
    }
    cholmod_free_sparse(&S, &c);
    cholmod_free_sparse(&T, &c);
    cholmod_finish(&c);
    lcp_free(Pnd);
    return ok ? (int)fmin(fmax(lnz, 1.0), 1e9) : 0;
}

lcp_status ref_lu_factor(ref_lu **out, int n, const int *Rp, const int *Rj, const double *Rx,
                         double *rcond, double *flops)
{
    ref_lu *L = lcp_calloc(1, sizeof *L);
    *out = NULL;
    *rcond = 0.0;
    if (!L) return LCP_ERR_NOMEM;
    L->n = n;
    klu_defaults(&L->c);
    L->c.btf = 0;
    L->c.scale = 2;
    /* KLU takes non-const arrays but does not modify them */
    L->sym = klu_analyze(n, (int *)Rp, (int *)Rj, &L->c);     /* AMD (KLU's own) */
    if (L->sym && L->sym->est_flops > LU_ND_LU_FL) {    /* large: nested dissection may pay */
        L->c.ordering = 3;
        L->c.user_order = lu_order;
        klu_symbolic *nd = klu_analyze(n, (int *)Rp, (int *)Rj, &L->c);
        if (nd) {
            klu_free_symbolic(&L->sym, &L->c);
            L->sym = nd;
        }
        L->c.status = KLU_OK;                           /* no order: AMD's is kept */
    }
    if (L->sym) L->num = klu_factor((int *)Rp, (int *)Rj, (double *)Rx, L->sym, &L->c);
    lcp_status st = LCP_OK;
    if (!L->sym || !L->num) {
        st = L->c.status == KLU_OUT_OF_MEMORY ? LCP_ERR_NOMEM
             : L->c.status == KLU_SINGULAR  ? LCP_OK
                                             : LCP_ERR_BREAKDOWN;
    } else if (klu_rcond(L->sym, L->num, &L->c)) {
        *rcond = L->c.rcond;
        if (!(*rcond >= 0.0)) *rcond = 0.0;            /* NaN: singular */
        if (flops && klu_flops(L->sym, L->num, &L->c)) *flops = L->c.flops;
    }
    if (st != LCP_OK || !L->num) {
        ref_lu_free(&L);
        return st;                                      /* singular: *out NULL, rcond 0 */
    }
    *out = L;
    return LCP_OK;
}

lcp_status ref_lu_solve(ref_lu *L, double *b)
{
    if (!L) return LCP_ERR_ARG;
    if (!klu_tsolve(L->sym, L->num, L->n, 1, b, &L->c))
        return L->c.status == KLU_OUT_OF_MEMORY ? LCP_ERR_NOMEM : LCP_ERR_BREAKDOWN;
    return LCP_OK;
}

void ref_lu_free(ref_lu **L)
{
    if (!L || !*L) return;
    if ((*L)->num) klu_free_numeric(&(*L)->num, &(*L)->c);
    if ((*L)->sym) klu_free_symbolic(&(*L)->sym, &(*L)->c);
    lcp_free(*L);
    *L = NULL;
}
