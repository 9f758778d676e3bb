/* csr.c: compressed sparse row matrices and the one allocation wrapper of lcpbench
 * (lcp_alloc.h: liblcp, problems/ and bench/ allocate through it).
 *
 * A CSR matrix stores row i's entries in j[p[i] .. p[i+1]-1] (columns ascending) and x[].
 * Costs: matvec O(nnz); transpose O(nnz + ncol); multiply C = A B is Gustavson's row-by-row
 * product with a dense accumulator, O(flops + nrow + ncol); jmjt forms J Minv J^T + diag(E)
 * as (J Minv) J^T.  Indices are int: up to 2^31-1 entries.
 */
#include "lcp_internal.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#ifdef LCP_TCOV
#include <malloc.h> /* malloc_usable_size (glibc) */
/* The test-only build (a separate static library compiled with -DLCP_TCOV, linked only by
 * the allocation-failure tests, with problems/ and bench/ compiled against it) counts
 * allocations and makes the k-th one after lcp_tcov_arm(k), and
 * every later one, fail, the way CSparse's Tcov tests do (Davis 2006, "Direct Methods for
 * Sparse Linear Systems", section 8.3).  This counter is the only mutable global of that
 * build; the production library has none. */
static struct {
    long fail_at;  /* 0: disarmed */
    long count;    /* allocations asked for since arm */
    long failed;   /* of them refused */
    long live;     /* allocations made and not yet freed (all time) */
} tcov;

void lcp_tcov_arm(long k)
{
    tcov.fail_at = k > 0 ? k : 0;
    tcov.count = tcov.failed = 0;
}

long lcp_tcov_count(void) { return tcov.count; }
long lcp_tcov_failed(void) { return tcov.failed; }
long lcp_tcov_live(void) { return tcov.live; }

int lcp_tcov_refuse(void)
{
    tcov.count++;
    if (tcov.fail_at > 0 && tcov.count >= tcov.fail_at) {
        tcov.failed++;
        return 1;
    }
    return 0;
}

static void *tcov_made(void *p)
{
    tcov.live += p != NULL;
    return p;
}

void *lcp_tcov_malloc(size_t size) { return lcp_tcov_refuse() ? NULL : tcov_made(malloc(size)); }
void *lcp_tcov_calloc(size_t n, size_t size)
{
    return lcp_tcov_refuse() ? NULL : tcov_made(calloc(n, size));
}
/* A realloc that shrinks an existing block is not counted: KLU gives memory back at the end
 * of a factorisation and keeps the larger block when that fails, which is no failure. */
void *lcp_tcov_realloc(void *p, size_t size)
{
    if (p && size <= malloc_usable_size(p)) return realloc(p, size);
    if (lcp_tcov_refuse()) return NULL;
    void *r = realloc(p, size);
    if (r && !p) tcov.live++;
    return r;
}
void lcp_tcov_free(void *p)
{
    tcov.live -= p != NULL;
    free(p);
}
#define MALLOC lcp_tcov_malloc
#define CALLOC lcp_tcov_calloc
#define REALLOC lcp_tcov_realloc
#define FREE lcp_tcov_free
#else
#define MALLOC malloc
#define CALLOC calloc
#define REALLOC realloc
#define FREE free
#endif

void *lcp_malloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return MALLOC(n * size > 0 ? n * size : 1);
}

void *lcp_calloc(size_t n, size_t size)
{
    return CALLOC(n > 0 ? n : 1, size > 0 ? size : 1);
}

void *lcp_realloc(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return REALLOC(p, n * size > 0 ? n * size : 1);
}

char *lcp_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = lcp_malloc(n, 1);
    if (c) memcpy(c, s, n);
    return c;
}

void lcp_free(void *p) { FREE(p); }

lcp_status lcp_csr_alloc(lcp_csr *A, int nrow, int ncol, int nnz)
{
    if (!A || nrow < 0 || ncol < 0 || nnz < 0) return LCP_ERR_ARG;
    A->nrow = nrow;
    A->ncol = ncol;
    A->p = lcp_calloc((size_t)nrow + 1, sizeof(int));
    A->j = lcp_calloc((size_t)nnz, sizeof(int));
    A->x = lcp_calloc((size_t)nnz, sizeof(double));
    if (!A->p || !A->j || !A->x) {
        lcp_csr_free(A);
        return LCP_ERR_NOMEM;
    }
    return LCP_OK;
}

void lcp_csr_free(lcp_csr *A)
{
    if (!A) return;
    lcp_free(A->p);
    lcp_free(A->j);
    lcp_free(A->x);
    A->p = NULL;
    A->j = NULL;
    A->x = NULL;
    A->nrow = A->ncol = 0;
}

void lcp_csr_matvec(const lcp_csr *A, const double *x, double *y)
{
    for (int i = 0; i < A->nrow; i++) {
        double s = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) s += A->x[k] * x[A->j[k]]; /* y_i = A_i x */
        y[i] = s;
    }
}

void lcp_csr_matvec_t(const lcp_csr *A, const double *x, double *y)
{
    memset(y, 0, (size_t)A->ncol * sizeof(double));
    for (int i = 0; i < A->nrow; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) y[A->j[k]] += A->x[k] * x[i]; /* y += A_i^T x_i */
}

/* Sort each row's entries by column (insertion sort: rows are short) and sum duplicates. */
static void csr_sort_sum(lcp_csr *A)
{
    int nz = 0;
    for (int i = 0; i < A->nrow; i++) {
        int a = A->p[i], b = A->p[i + 1];
        for (int k = a + 1; k < b; k++) {
            int jk = A->j[k];
            double xk = A->x[k];
            int t = k - 1;
            while (t >= a && A->j[t] > jk) {
                A->j[t + 1] = A->j[t];
                A->x[t + 1] = A->x[t];
                t--;
            }
            A->j[t + 1] = jk;
            A->x[t + 1] = xk;
        }
        A->p[i] = nz;
        for (int k = a; k < b; k++) {
            if (nz > A->p[i] && A->j[nz - 1] == A->j[k]) {
                A->x[nz - 1] += A->x[k];
            } else {
                A->j[nz] = A->j[k];
                A->x[nz] = A->x[k];
                nz++;
            }
        }
    }
    A->p[A->nrow] = nz;
}

lcp_status lcp_csr_from_triplets(lcp_csr *A, int nrow, int ncol, int nnz, const int *ti,
                                 const int *tj, const double *tx)
{
    if (!A || nrow < 0 || ncol < 0 || nnz < 0 || (nnz > 0 && (!ti || !tj || !tx)))
        return LCP_ERR_ARG;
    for (int k = 0; k < nnz; k++)
        if (ti[k] < 0 || ti[k] >= nrow || tj[k] < 0 || tj[k] >= ncol) return LCP_ERR_ARG;
    lcp_status st = lcp_csr_alloc(A, nrow, ncol, nnz);
    if (st != LCP_OK) return st;
    for (int k = 0; k < nnz; k++) A->p[ti[k] + 1]++;            /* row counts */
    for (int i = 0; i < nrow; i++) A->p[i + 1] += A->p[i];      /* cumulative */
    int *next = lcp_malloc((size_t)nrow + 1, sizeof(int));
    if (!next) {
        lcp_csr_free(A);
        return LCP_ERR_NOMEM;
    }
    memcpy(next, A->p, ((size_t)nrow + 1) * sizeof(int));
    for (int k = 0; k < nnz; k++) {                             /* scatter, stable */
        int d = next[ti[k]]++;
        A->j[d] = tj[k];
        A->x[d] = tx[k];
    }
    lcp_free(next);
    csr_sort_sum(A);
    return LCP_OK;
}

lcp_status lcp_csr_transpose(const lcp_csr *A, lcp_csr *T)
{
    if (!A || !T || !A->p) return LCP_ERR_ARG;
    int nz = LCP_CSR_NNZ(A);
    lcp_status st = lcp_csr_alloc(T, A->ncol, A->nrow, nz);
    if (st != LCP_OK) return st;
    if (!A->x) {                                       /* a pattern: so is T */
        lcp_free(T->x);
        T->x = NULL;
    }
    for (int k = 0; k < nz; k++) T->p[A->j[k] + 1]++;
    for (int c = 0; c < A->ncol; c++) T->p[c + 1] += T->p[c];
    int *next = lcp_malloc((size_t)A->ncol + 1, sizeof(int));
    if (!next) {
        lcp_csr_free(T);
        return LCP_ERR_NOMEM;
    }
    memcpy(next, T->p, ((size_t)A->ncol + 1) * sizeof(int));
    for (int i = 0; i < A->nrow; i++)                  /* rows in order: columns of T sorted */
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int d = next[A->j[k]]++;
            T->j[d] = i;
            if (A->x) T->x[d] = A->x[k];
        }
    lcp_free(next);
    return LCP_OK;
}

lcp_status lcp_csr_copy(const lcp_csr *A, lcp_csr *C)
{
    if (!A || !C || !A->p) return LCP_ERR_ARG;
    int nz = LCP_CSR_NNZ(A);
    lcp_status st = lcp_csr_alloc(C, A->nrow, A->ncol, nz);
    if (st != LCP_OK) return st;
    memcpy(C->p, A->p, ((size_t)A->nrow + 1) * sizeof(int));
    memcpy(C->j, A->j, (size_t)nz * sizeof(int));
    memcpy(C->x, A->x, (size_t)nz * sizeof(double));
    return LCP_OK;
}

/* The rows of C = A B one at a time, or of C itself when it is held (lcp_internal.h).
 * Row i: C_ic = sum over A_i's entries in their order of A_ir B_rc, each column started
 * where A_i's entries first reach it, then the columns sorted (insertion: rows are short). */
lcp_status lcp_csr_rows_init(lcp_csr_rows *r, const lcp_csr *C, const lcp_csr *A,
                             const lcp_csr *B)
{
    memset(r, 0, sizeof *r);
    r->C = C;
    if (C) return LCP_OK;
    if (!A || !B || !A->p || !B->p || A->ncol != B->nrow) return LCP_ERR_ARG;
    r->A = A;
    r->B = B;
    long most = 0;                                  /* the longest row, bounded */
    for (int i = 0; i < A->nrow; i++) {
        long len = 0;
        for (int ka = A->p[i]; ka < A->p[i + 1]; ka++)
            len += B->p[A->j[ka] + 1] - B->p[A->j[ka]];
        if (len > most) most = len;
    }
    if (most > B->ncol) most = B->ncol;
    int n = B->ncol;
    r->mark = lcp_malloc((size_t)n + 1, sizeof(int));
    r->acc = lcp_calloc((size_t)n + 1, sizeof(double));
    r->jb = lcp_malloc((size_t)most + 1, sizeof(int));
    r->xb = lcp_malloc((size_t)most + 1, sizeof(double));
    if (!r->mark || !r->acc || !r->jb || !r->xb) {
        lcp_csr_rows_free(r);
        return LCP_ERR_NOMEM;
    }
    for (int c = 0; c < n; c++) r->mark[c] = -1;
    return LCP_OK;
}

void lcp_csr_row(lcp_csr_rows *r, int i)
{
    if (r->C) {
        r->j = r->C->j + r->C->p[i];
        r->x = r->C->x ? r->C->x + r->C->p[i] : NULL;
        r->len = r->C->p[i + 1] - r->C->p[i];
        return;
    }
    const lcp_csr *A = r->A, *B = r->B;
    if (r->stamp == INT_MAX) {                      /* a row may be asked for again: a */
        for (int c = 0; c < B->ncol; c++) r->mark[c] = -1;   /* new stamp for each call */
        r->stamp = 0;
    }
    int len = 0, stamp = ++r->stamp;
    for (int ka = A->p[i]; ka < A->p[i + 1]; ka++) {
        int q = A->j[ka];
        double a = A->x[ka];
        for (int kb = B->p[q]; kb < B->p[q + 1]; kb++) {
            int c = B->j[kb];
            if (r->mark[c] != stamp) {
                r->mark[c] = stamp;
                r->jb[len++] = c;
                r->acc[c] = 0.0;
            }
            r->acc[c] += a * B->x[kb];                              /* C_ic += A_iq B_qc */
        }
    }
    for (int k = 1; k < len; k++) {                                 /* columns ascending */
        int c = r->jb[k], t = k - 1;
        for (; t >= 0 && r->jb[t] > c; t--) r->jb[t + 1] = r->jb[t];
        r->jb[t + 1] = c;
    }
    for (int k = 0; k < len; k++) r->xb[k] = r->acc[r->jb[k]];
    r->j = r->jb;
    r->x = r->xb;
    r->len = len;
}

void lcp_csr_rows_free(lcp_csr_rows *r)
{
    if (!r) return;
    lcp_free(r->mark);
    lcp_free(r->acc);
    lcp_free(r->jb);
    lcp_free(r->xb);
    memset(r, 0, sizeof *r);
}

/* Gustavson: row i of C = sum_k A_ik B_k.  Two passes: count, then fill (lcp_csr_row). */
lcp_status lcp_csr_multiply(const lcp_csr *A, const lcp_csr *B, lcp_csr *C)
{
    if (!A || !B || !C || !A->p || !B->p || A->ncol != B->nrow) return LCP_ERR_ARG;
    int m = A->nrow;
    C->p = NULL;
    lcp_csr_rows r;
    lcp_status st = lcp_csr_rows_init(&r, NULL, A, B);
    if (st != LCP_OK) return st;
    long total = 0;
    for (int i = 0; i < m; i++) {                                   /* pass 1: count */
        lcp_csr_row(&r, i);
        total += r.len;
    }
    if (total > INT32_MAX) st = LCP_ERR_TOO_LARGE;
    if (st == LCP_OK) st = lcp_csr_alloc(C, m, B->ncol, (int)total);
    for (int i = 0, nz = 0; st == LCP_OK && i < m; i++) {          /* pass 2: the rows */
        lcp_csr_row(&r, i);
        memcpy(C->j + nz, r.j, (size_t)r.len * sizeof(int));
        memcpy(C->x + nz, r.x, (size_t)r.len * sizeof(double));
        nz += r.len;
        C->p[i + 1] = nz;
    }
    lcp_csr_rows_free(&r);
    return st;
}

/* A = J Minv J^T + diag(E), lower triangle first: row i of L = sum over r ascending of
 * B_ir (J^T)_r restricted to columns c <= i (B = J Minv; rows of J^T are sorted, so each
 * stops at c > i), plus E_i on the diagonal (inserted when row i of J is empty); the upper
 * triangle is L's transpose, so A is exactly symmetric.  The same sums in the same order as
 * the full product mirrored from its lower triangle, at half the flops, and no search. */
lcp_status lcp_csr_jmjt(const lcp_csr *J, const lcp_csr *Minv, const double *E, lcp_csr *A)
{
    if (!J || !Minv || !A || !J->p || !Minv->p || J->ncol != Minv->nrow ||
        Minv->nrow != Minv->ncol)
        return LCP_ERR_ARG;
    int m = J->nrow;
    lcp_csr B = {0}, Jt = {0}, L = {0}, Lt = {0};
    int *mark = NULL;
    double *acc = NULL;
    lcp_status st = lcp_csr_multiply(J, Minv, &B);                  /* B = J Minv */
    if (st == LCP_OK) st = lcp_csr_transpose(J, &Jt);
    if (st == LCP_OK) {
        mark = lcp_malloc((size_t)m + 1, sizeof(int));
        acc = lcp_calloc((size_t)m + 1, sizeof(double));
        if (!mark || !acc) st = LCP_ERR_NOMEM;
    }
    long total = 0;
    for (int c = 0; st == LCP_OK && c < m; c++) mark[c] = -1;
    for (int i = 0; st == LCP_OK && i < m; i++) {                   /* pass 1: count L */
        int diag = 0;
        for (int ka = B.p[i]; ka < B.p[i + 1]; ka++)
            for (int kb = Jt.p[B.j[ka]]; kb < Jt.p[B.j[ka] + 1] && Jt.j[kb] <= i; kb++)
                if (mark[Jt.j[kb]] != i) {
                    mark[Jt.j[kb]] = i;
                    total++;
                    diag |= Jt.j[kb] == i;
                }
        if (!diag && E) total++;
    }
    if (st == LCP_OK && total > INT32_MAX) st = LCP_ERR_TOO_LARGE;
    if (st == LCP_OK) st = lcp_csr_alloc(&L, m, m, (int)total);
    for (int c = 0; st == LCP_OK && c < m; c++) mark[c] = -1;
    for (int i = 0, nz = 0; st == LCP_OK && i < m; i++) {           /* pass 2: fill L */
        int start = nz, diag = 0;
        for (int ka = B.p[i]; ka < B.p[i + 1]; ka++) {
            double a = B.x[ka];
            for (int kb = Jt.p[B.j[ka]]; kb < Jt.p[B.j[ka] + 1] && Jt.j[kb] <= i; kb++) {
                int c = Jt.j[kb];
                if (mark[c] != i) {
                    mark[c] = i;
                    L.j[nz++] = c;
                    acc[c] = 0.0;
                    diag |= c == i;
                }
                acc[c] += a * Jt.x[kb];                             /* L_ic += B_ir J_cr */
            }
        }
        if (E && diag) acc[i] += E[i];                              /* a_ii += E_i */
        if (E && !diag) {
            L.j[nz++] = i;
            acc[i] = E[i];
        }
        for (int k = start; k < nz; k++) L.x[k] = acc[L.j[k]];
        L.p[i + 1] = nz;
    }
    if (st == LCP_OK) csr_sort_sum(&L);                             /* columns ascending */
    if (st == LCP_OK) st = lcp_csr_transpose(&L, &Lt);              /* upper = L^T */
    if (st == LCP_OK) st = lcp_csr_alloc(A, m, m, 2 * LCP_CSR_NNZ(&L));
    if (st == LCP_OK) {
        int nz = 0;
        for (int i = 0; i < m; i++) {          /* row i: L_i (c <= i), then Lt_i (c > i) */
            for (int k = L.p[i]; k < L.p[i + 1]; k++) {
                A->j[nz] = L.j[k];
                A->x[nz++] = L.x[k];
            }
            for (int k = Lt.p[i]; k < Lt.p[i + 1]; k++)
                if (Lt.j[k] > i) {
                    A->j[nz] = Lt.j[k];
                    A->x[nz++] = Lt.x[k];
                }
            A->p[i + 1] = nz;
        }
    }
    if (st != LCP_OK) lcp_csr_free(A);
    lcp_free(mark);
    lcp_free(acc);
    lcp_csr_free(&B);
    lcp_csr_free(&Jt);
    lcp_csr_free(&L);
    lcp_csr_free(&Lt);
    return st;
}

/* 1 when A == A^T exactly (values bit-equal), in O(nnz + n) without searching: visiting rows i in order, the entries (c, i) above the
 * diagonal of each row c are met in column order, so a cursor per row c pairs them with the
 * entries (i, c) below the diagonal.  Needs a valid CSR (sorted, in range). */
lcp_status lcp_csr_symmetric(const lcp_csr *A, int *sym)
{
    int n = A->nrow, *next = NULL;
    lcp_status st = LCP_OK;
    *sym = 0;
    if (A->nrow != A->ncol) goto done;
    next = lcp_malloc((size_t)n + 1, sizeof(int));
    if (!next) {
        st = LCP_ERR_NOMEM;
        goto done;
    }
    for (int c = 0; c < n; c++) {                                   /* first entry > c */
        int k = A->p[c];
        while (k < A->p[c + 1] && A->j[k] <= c) k++;
        next[c] = k;
    }
    for (int i = 0; i < n; i++)
        for (int k = A->p[i]; k < A->p[i + 1] && A->j[k] < i; k++) {
            int c = A->j[k], t = next[c]++;                         /* a_ic <-> a_ci */
            if (t >= A->p[c + 1] || A->j[t] != i || A->x[t] != A->x[k]) goto done;
        }
    for (int c = 0; c < n; c++)                                     /* no unpaired a_ci */
        if (next[c] != A->p[c + 1]) goto done;
    *sym = 1;
done:
    lcp_free(next);
    return st;
}

int lcp_csr_is_symmetric(const lcp_csr *A)
{
    int sym = 0;
    if (!A || !A->p || lcp_csr_symmetric(A, &sym) != LCP_OK) return 0;
    return sym;
}

void lcp_csr_diag(const lcp_csr *A, double *d)
{
    for (int i = 0; i < A->nrow; i++) {
        d[i] = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (A->j[k] == i) d[i] = A->x[k];
    }
}
