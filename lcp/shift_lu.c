/* shift_lu.c: sparse LU of K = A + s I for a symmetric A (admm's system), by KLU.
 *
 * K's CSR arrays are those of A with each row's diagonal entry made present (inserted as
 * 0 when A does not store it); its positions are kept, so a new shift s rewrites m values
 * and factors again on the same analysis and, after the first, with the first's pivot
 * order in the first's memory (klu_refactor: K stays symmetric positive definite for every
 * shift s > 0 of a positive semi-definite A, so the order stays usable).  For a symmetric A
 * the CSR arrays are also K's CSC arrays, so KLU's plain solve solves K x = b.
 * Cost: the analysis (AMD on K + K^T) once, one numeric factorisation per shift, 4
 * nnz(L + U) flops per solve.  Source: T. A. Davis, E. Palamadai Natarajan, "Algorithm
 * 907: KLU", ACM TOMS 37 (2010) 36.  (The reference's general LU, reference/ref_klu.c,
 * factors a new pattern each call and solves with the transpose.)
 */
#include "families.h"

#include <klu.h>
#include <string.h>

struct lcp_shift_lu {
    klu_common c;
    klu_symbolic *sym;
    klu_numeric *num;
    int m;
    lcp_csr K;       /* A with its diagonal present */
    int *dpos;       /* m: the position of K_ii */
    double *a;       /* m: A_ii */
};

/* K = A with a stored diagonal in every row, dpos and a */
static lcp_status shift_pattern(lcp_shift_lu *F, const lcp_csr *A)
{
    int m = A->nrow, nz = 0, miss = 0;
    for (int i = 0; i < m; i++) {
        int has = 0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) has |= A->j[k] == i;
        miss += !has;
    }
    lcp_status st = lcp_csr_alloc(&F->K, m, m, A->p[m] + miss);
    F->dpos = lcp_malloc((size_t)m + 1, sizeof(int));
    F->a = lcp_calloc((size_t)m + 1, sizeof(double));
    if (st != LCP_OK || !F->dpos || !F->a) return LCP_ERR_NOMEM;
    for (int i = 0; i < m; i++) {
        int done = 0;
        for (int k = A->p[i]; k <= A->p[i + 1]; k++) {
            int j = k < A->p[i + 1] ? A->j[k] : m;
            if (!done && j >= i) {                       /* the diagonal's place */
                F->dpos[i] = nz;
                F->K.j[nz] = i;
                F->K.x[nz++] = j == i ? (F->a[i] = A->x[k]) : 0.0;
                done = 1;
                if (j == i) continue;
            }
            if (k < A->p[i + 1]) F->K.j[nz] = j, F->K.x[nz++] = A->x[k];
        }
        F->K.p[i + 1] = nz;
    }
    return LCP_OK;
}

lcp_status lcp_shift_lu_open(lcp_shift_lu **out, const lcp_csr *A)
{
    lcp_shift_lu *F = lcp_calloc(1, sizeof *F);
    *out = F;
    if (!F) return LCP_ERR_NOMEM;
    F->m = A->nrow;
    klu_defaults(&F->c);
    F->c.btf = 0;
    lcp_status st = shift_pattern(F, A);
    if (st == LCP_OK) F->sym = klu_analyze(F->m, F->K.p, F->K.j, &F->c);
    if (st == LCP_OK && !F->sym)
        st = F->c.status == KLU_OUT_OF_MEMORY ? LCP_ERR_NOMEM : LCP_ERR_BREAKDOWN;
    return st;
}

lcp_status lcp_shift_lu_factor(lcp_shift_lu *F, double s)
{
    for (int i = 0; i < F->m; i++) F->K.x[F->dpos[i]] = F->a[i] + s;    /* K = A + s I */
    if (F->num) {                       /* the same pivot order, in place: no allocation */
        if (klu_refactor(F->K.p, F->K.j, F->K.x, F->sym, F->num, &F->c)) return LCP_OK;
        return LCP_ERR_BREAKDOWN;
    }
    F->num = klu_factor(F->K.p, F->K.j, F->K.x, F->sym, &F->c);
    if (F->num) return LCP_OK;
    return F->c.status == KLU_OUT_OF_MEMORY ? LCP_ERR_NOMEM : LCP_ERR_BREAKDOWN;
}

lcp_status lcp_shift_lu_solve(lcp_shift_lu *F, double *b)
{
    if (klu_solve(F->sym, F->num, F->m, 1, b, &F->c)) return LCP_OK;
    return F->c.status == KLU_OUT_OF_MEMORY ? LCP_ERR_NOMEM : LCP_ERR_BREAKDOWN;
}

void lcp_shift_lu_close(lcp_shift_lu *F)
{
    if (!F) return;
    if (F->num) klu_free_numeric(&F->num, &F->c);
    if (F->sym) klu_free_symbolic(&F->sym, &F->c);
    lcp_csr_free(&F->K);
    lcp_free(F->dpos);
    lcp_free(F->a);
    lcp_free(F);
}
