/* ref_klu.c: sparse LU of a non-symmetric system for the pivoting reference: the coupled
 * friction system of the semismooth Newton phase of ldlt_ref.c,
 *     (A_FF + A_FS C) z_F = b     (sliding rows S tied to their normal impulses),
 * whose matrix the driver hands over row by row (CSR, n x n, no duplicate entries).
 *
 * METHOD.  KLU (SuiteSparse, LGPL): the CSR arrays of K are the CSC arrays of K^T, which
 * KLU factors (AMD ordering on the pattern of K + K^T, no BTF: the contact graph of a
 * pile is one strongly connected block; partial pivoting with diagonal preference, row
 * scaling by the max); K x = b is then KLU's transposed solve.  The reciprocal pivot
 * ratio min |U_kk| / max |U_kk| (klu_rcond) is reported, so that the driver can refuse a
 * numerically singular system.  Allocation goes through SuiteSparse_config, which the
 * sparse backend (ref_cholmod.c) points at the library's allocator.
 *
 * COST.  One symbolic analysis (AMD) and one numeric factorisation per call: about twice
 * the flops of the Cholesky factorisation of the same pattern, without dense kernels
 * (left-looking, column by column); a solve costs 4 nnz(L + U) flops.
 *
 * SOURCE.  T. A. Davis and E. Palamadai Natarajan, "Algorithm 907: KLU, a direct sparse
 * solver for circuit simulation problems", ACM Trans. Math. Softw. 37 (2010) 36.
 */
#include "ref_internal.h"

#include <klu.h>

struct ref_lu {
    klu_common c;
    klu_symbolic *sym;
    klu_numeric *num;
    int n;
};

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
    L->sym = klu_analyze(n, (int *)Rp, (int *)Rj, &L->c);
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
