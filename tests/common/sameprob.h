/* sameprob.h: bit-for-bit comparison of problems, for the tests that read, write and
 * re-read instances (test_io, test_nomem). */
#ifndef LCP_SAMEPROB_H
#define LCP_SAMEPROB_H

#include "lcp.h"

#include <string.h>

static inline int same_csr(const lcp_csr *a, const lcp_csr *b)
{
    if (!a->p || !b->p) return !a->p && !b->p;
    int nz = LCP_CSR_NNZ(a);
    return a->nrow == b->nrow && a->ncol == b->ncol && LCP_CSR_NNZ(b) == nz &&
           memcmp(a->p, b->p, sizeof(int) * ((size_t)a->nrow + 1)) == 0 &&
           memcmp(a->j, b->j, sizeof(int) * (size_t)nz) == 0 &&
           memcmp(a->x, b->x, sizeof(double) * (size_t)nz) == 0;
}

static inline int same_vec(const double *a, const double *b, int m)
{
    if (!a || !b) return !a && !b;
    return memcmp(a, b, sizeof(double) * (size_t)m) == 0;
}

/* every array bit-identical */
static inline int same_problem(const lcp_problem *a, const lcp_problem *b)
{
    int m = a->m;
    int f = (!a->findex && !b->findex) ||
            (a->findex && b->findex && memcmp(a->findex, b->findex, sizeof(int) * (size_t)m) == 0);
    int meta = (!a->meta && !b->meta) || (a->meta && b->meta && strcmp(a->meta, b->meta) == 0);
    return a->m == b->m && a->n == b->n && a->symmetric == b->symmetric && same_csr(&a->A, &b->A) &&
           same_vec(a->q, b->q, m) && same_vec(a->lo, b->lo, m) && same_vec(a->hi, b->hi, m) &&
           f && same_csr(&a->J, &b->J) && same_csr(&a->Minv, &b->Minv) &&
           same_vec(a->E, b->E, m) && same_vec(a->z0, b->z0, m) && same_vec(a->zref, b->zref, m) &&
           meta;
}

#endif
