/* ref_super.c: a supernodal multifrontal Cholesky factorisation (LL^T) for the sparse backend
 * of the pivoting reference, on CHOLMOD's fill-reducing analysis.
 *
 * COMPUTES.  For a symmetric matrix S given by its upper triangle (CSC, n x n) and the
 * ordering P of CHOLMOD's analysis (Perm, ColCount), the factor L L^T = P S P^T, and solves
 * S x = b with it.  Columns whose structures nest are grouped into supernodes (fundamental
 * supernodes, then a parent absorbs its last child when few explicit zeros are added: the
 * relaxed amalgamation rule and thresholds of CHOLMOD's defaults, 4 / 16 / 48 columns with
 * 80% / 10% / 5% zeros); each supernode is one dense frontal matrix: the original entries of
 * its columns plus its children's update matrices (extend-add), a dense Cholesky of its
 * diagonal block (LAPACK dpotrf), a triangular solve for the rows below (dtrsm) and the
 * update matrix for its parent (dsyrk), kept on a stack (postorder).
 *
 * WHY.  CHOLMOD's simplicial LDL^T runs column by column at about 1 Gflop/s; its supernodal
 * factorisation (BLAS-3) is in the Supernodal module, which is GPL, and lcpbench uses only
 * CHOLMOD's LGPL modules (README, Licence).  On the captured 3D sphere piles nearly all of
 * `ldlt-ref`'s time is numerical factorisation (the interior-point phase factors the whole
 * A 10 to 20 times), and dense blocks run it several times faster.
 *
 * PIVOT CHECK.  The same as the simplicial backend's, with d_k = L_kk^2: the first column
 * in elimination order whose check flag is set and with d_k <= tau * akk_k (or NaN), or at
 * which dpotrf meets a non-positive pivot, is reported (system index) and the
 * factorisation stops there: the factor is then incomplete and the solve refuses it.
 *
 * COST.  Symbolic: the elimination tree (Liu's algorithm), the supernodes and their row
 * structures by union over children, O(nnz(L) + nnz(S) log).  Numeric: the flops of the
 * factorisation (plus amalgamation zeros) in dense kernels, memory sum(r_s k_s) for L,
 * the largest front r^2 and the peak of the update stack.  Solve: 2 nnz(L) flops.
 *
 * SOURCES.  J. W. H. Liu, "The multifrontal method for sparse matrix solution: theory and
 * practice", SIAM Review 34 (1992) 82-109 (elimination tree, postorder, update stack);
 * I. S. Duff and J. K. Reid, "The multifrontal solution of indefinite sparse symmetric
 * linear equations", ACM TOMS 9 (1983) 302-325; C. Ashcraft and R. Grimes, "The influence of
 * relaxed supernode partitions on the multifrontal method", ACM TOMS 15 (1989) 291-309;
 * T. Davis, CHOLMOD user guide (the amalgamation thresholds).
 */
#include "ref_internal.h"

#include <cblas.h>
#include <lapacke.h>
#include <string.h>

struct ref_super {
    int n, ns;          /* columns; supernodes */
    int *perm;          /* n: system index of permuted column j (CHOLMOD's Perm) */
    int *Cp, *Ci;       /* permuted lower triangle of S (CSC, diagonal included) */
    int *dst;           /* nnz(S): slot in Cx of each entry of S */
    double *Cx;
    int *super;         /* ns + 1: first column of each supernode */
    int *nchild;        /* ns: children in the supernodal tree */
    size_t *rp;         /* ns + 1: row structure of s in ri[rp[s] .. rp[s+1]) */
    int *ri;            /* own columns first, then the rows below, ascending */
    size_t *xp;         /* ns + 1: values of s (r x k column major) in x[xp[s] ..] */
    double *x;
    double *W;          /* the largest front, r^2 */
    double *stack;      /* update matrices */
    int *sid;           /* ns: supernode of each stacked update */
    int *map;           /* n: position of a row in the current front */
    double *tmp;        /* n */
    int complete;       /* the last factorisation ran to its end */
};

static int sn_merge(int k, double zeros, double total)
{
    double z = total > 0.0 ? zeros / total : 0.0;
    return k <= 4 || (k <= 16 && z < 0.8) || (k <= 48 && z < 0.1) || z < 0.05;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void ref_super_free(ref_super **pF)
{
    ref_super *F = pF ? *pF : NULL;
    if (!F) return;
    lcp_free(F->perm);
    lcp_free(F->Cp);
    lcp_free(F->Ci);
    lcp_free(F->dst);
    lcp_free(F->Cx);
    lcp_free(F->super);
    lcp_free(F->nchild);
    lcp_free(F->rp);
    lcp_free(F->ri);
    lcp_free(F->xp);
    lcp_free(F->x);
    lcp_free(F->W);
    lcp_free(F->stack);
    lcp_free(F->sid);
    lcp_free(F->map);
    lcp_free(F->tmp);
    lcp_free(F);
    *pF = NULL;
}

lcp_status ref_super_analyse(ref_super **out, int n, const int *Sp, const int *Si,
                             const int *Perm, const int *ColCount)
{
    lcp_status st = LCP_ERR_NOMEM;
    *out = NULL;
    if (n <= 0 || !Perm || !ColCount) return LCP_ERR_ARG;
    size_t nn = (size_t)n + 1, nz = (size_t)Sp[n];
    ref_super *F = lcp_calloc(1, sizeof *F);
    int *iperm = lcp_malloc(nn, sizeof *iperm), *Up = lcp_calloc(nn + 1, sizeof *Up);
    int *Ui = lcp_malloc(nz + 1, sizeof *Ui), *parent = lcp_malloc(nn, sizeof *parent);
    int *anc = lcp_malloc(nn, sizeof *anc), *snode = lcp_malloc(nn, sizeof *snode);
    int *sfirst = lcp_malloc(nn + 1, sizeof *sfirst), *head = NULL, *next = NULL;
    double *snz = lcp_malloc(nn, sizeof *snz);
    int *srows = lcp_malloc(nn, sizeof *srows);
    if (!F || !iperm || !Up || !Ui || !parent || !anc || !snode || !sfirst || !snz || !srows)
        goto out;
    F->n = n;
    F->perm = lcp_malloc(nn, sizeof *F->perm);
    F->Cp = lcp_calloc(nn + 1, sizeof *F->Cp);
    F->Ci = lcp_malloc(nz + 1, sizeof *F->Ci);
    F->dst = lcp_malloc(nz + 1, sizeof *F->dst);
    F->Cx = lcp_malloc(nz + 1, sizeof *F->Cx);
    F->map = lcp_malloc(nn, sizeof *F->map);
    F->tmp = lcp_malloc(nn, sizeof *F->tmp);
    if (!F->perm || !F->Cp || !F->Ci || !F->dst || !F->Cx || !F->map || !F->tmp) goto out;
    memcpy(F->perm, Perm, (size_t)n * sizeof *Perm);
    for (int k = 0; k < n; k++) iperm[Perm[k]] = k;

    /* the permuted lower triangle (column min, row max) and its transpose's pattern */
    for (int c = 0; c < n; c++)
        for (int e = Sp[c]; e < Sp[c + 1]; e++) {
            int a = iperm[Si[e]], b = iperm[c];
            F->Cp[(a < b ? a : b) + 1]++;
            Up[(a > b ? a : b) + 1]++;
        }
    for (int j = 0; j < n; j++) {
        F->Cp[j + 1] += F->Cp[j];
        Up[j + 1] += Up[j];
    }
    memcpy(anc, F->Cp, (size_t)n * sizeof *anc);    /* next free slots */
    memcpy(parent, Up, (size_t)n * sizeof *parent);
    for (int c = 0; c < n; c++)
        for (int e = Sp[c]; e < Sp[c + 1]; e++) {
            int a = iperm[Si[e]], b = iperm[c], lo = a < b ? a : b, hi = a > b ? a : b;
            F->dst[e] = anc[lo];
            F->Ci[anc[lo]++] = hi;
            Ui[parent[hi]++] = lo;
        }

    /* elimination tree (Liu, path compression) */
    for (int j = 0; j < n; j++) {
        parent[j] = anc[j] = -1;
        for (int e = Up[j]; e < Up[j + 1]; e++)
            for (int i = Ui[e]; i != -1 && i < j;) {
                int nx = anc[i];
                anc[i] = j;
                if (nx == -1) parent[i] = j;
                i = nx;
            }
    }

    /* fundamental supernodes: j + 1 continues j's when it is j's parent and its column
     * has one entry fewer (the structures then nest) */
    int nf = 0;
    for (int j = 0; j < n; j++) {
        if (j == 0 || !(parent[j - 1] == j && ColCount[j - 1] == ColCount[j] + 1)) {
            sfirst[nf] = j;
            srows[nf] = ColCount[j];
            snz[nf] = 0.0;
            nf++;
        }
        snz[nf - 1] += ColCount[j];
    }
    sfirst[nf] = n;
    /* relaxed amalgamation: a supernode absorbs the group just before it when that
     * group's last column has its parent in it (its last child in postorder) */
    int ns = 0;
    for (int s = 0; s < nf; s++) {
        int f = sfirst[s], k = sfirst[s + 1] - f;
        if (ns > 0) {
            int gf = sfirst[ns - 1], gk = f - gf, gl = f - 1;     /* the group before */
            int pl = parent[gl];
            if (pl >= f && pl < f + k) {
                double K = gk + k, R = gk + srows[s];
                double total = K * R - K * (K - 1.0) / 2.0, zeros = total - (snz[ns - 1] + snz[s]);
                if (sn_merge((int)K, zeros, total)) {
                    srows[ns - 1] = (int)R;
                    snz[ns - 1] += snz[s];
                    continue;
                }
            }
        }
        sfirst[ns] = f;
        srows[ns] = srows[s];
        snz[ns] = snz[s];
        ns++;
    }
    sfirst[ns] = n;
    F->ns = ns;
    F->super = lcp_malloc((size_t)ns + 1, sizeof *F->super);
    F->nchild = lcp_calloc((size_t)ns + 1, sizeof *F->nchild);
    F->rp = lcp_malloc((size_t)ns + 1, sizeof *F->rp);
    F->xp = lcp_malloc((size_t)ns + 1, sizeof *F->xp);
    F->sid = lcp_malloc((size_t)ns + 1, sizeof *F->sid);
    head = lcp_malloc((size_t)ns + 1, sizeof *head);
    next = lcp_malloc((size_t)ns + 1, sizeof *next);
    if (!F->super || !F->nchild || !F->rp || !F->xp || !F->sid || !head || !next) goto out;
    memcpy(F->super, sfirst, ((size_t)ns + 1) * sizeof *sfirst);
    size_t cap = 0;
    for (int s = 0; s < ns; s++) {
        for (int j = sfirst[s]; j < sfirst[s + 1]; j++) snode[j] = s;
        cap += (size_t)(srows[s] > sfirst[s + 1] - sfirst[s] ? srows[s]
                                                               : sfirst[s + 1] - sfirst[s]);
        head[s] = -1;
    }
    for (int s = ns - 1; s >= 0; s--) {             /* children lists, ascending */
        int p = parent[sfirst[s + 1] - 1];
        if (p < 0) continue;
        int sp = snode[p];
        next[s] = head[sp];
        head[sp] = s;
        F->nchild[sp]++;
    }
    F->ri = lcp_malloc(cap + 1, sizeof *F->ri);
    if (!F->ri) goto out;

    /* row structures: own columns, then rows below from S and from the children */
    for (int j = 0; j < n; j++) anc[j] = -1;        /* marker */
    size_t top = 0, xsz = 0, stk = 0, peak = 0, wmax = 0;
    st = LCP_OK;
    for (int s = 0; s < ns && st == LCP_OK; s++) {
        int f = sfirst[s], l = sfirst[s + 1] - 1, k = l - f + 1;
        F->rp[s] = top;
        if (top + (size_t)k > cap) st = LCP_ERR_BREAKDOWN;
        for (int j = f; j <= l && st == LCP_OK; j++) F->ri[top++] = j;
        size_t below = top;
        for (int j = f; j <= l && st == LCP_OK; j++)
            for (int e = F->Cp[j]; e < F->Cp[j + 1]; e++) {
                int i = F->Ci[e];
                if (i <= l || anc[i] == s) continue;
                if (top >= cap) {
                    st = LCP_ERR_BREAKDOWN;
                    break;
                }
                anc[i] = s;
                F->ri[top++] = i;
            }
        for (int c = head[s]; c >= 0 && st == LCP_OK; c = next[c]) {
            int kc = sfirst[c + 1] - sfirst[c];
            for (size_t e = F->rp[c] + (size_t)kc; e < F->rp[c + 1]; e++) {
                int i = F->ri[e];
                if (i <= l || anc[i] == s) continue;
                if (top >= cap) {
                    st = LCP_ERR_BREAKDOWN;
                    break;
                }
                anc[i] = s;
                F->ri[top++] = i;
            }
        }
        if (st != LCP_OK) break;
        qsort(F->ri + below, top - below, sizeof *F->ri, cmp_int);
        size_t r = top - F->rp[s], u = r - (size_t)k;
        F->xp[s] = xsz;
        xsz += r * (size_t)k;
        if (r * r > wmax) wmax = r * r;
        for (int c = head[s]; c >= 0; c = next[c]) {   /* its children's updates leave */
            size_t rc = F->rp[c + 1] - F->rp[c] - (size_t)(sfirst[c + 1] - sfirst[c]);
            stk -= rc * rc;
        }
        stk += u * u;
        if (stk > peak) peak = stk;
    }
    F->rp[ns] = top;
    F->xp[ns] = xsz;
    if (st != LCP_OK) goto out;                     /* counts inconsistent: not used */
    st = LCP_ERR_NOMEM;
    F->x = lcp_malloc(xsz + 1, sizeof *F->x);
    F->W = lcp_malloc(wmax + 1, sizeof *F->W);
    F->stack = lcp_malloc(peak + 1, sizeof *F->stack);
    if (!F->x || !F->W || !F->stack) goto out;
    st = LCP_OK;
out:
    lcp_free(iperm);
    lcp_free(Up);
    lcp_free(Ui);
    lcp_free(parent);
    lcp_free(anc);
    lcp_free(snode);
    lcp_free(sfirst);
    lcp_free(snz);
    lcp_free(srows);
    lcp_free(head);
    lcp_free(next);
    if (st == LCP_OK) *out = F;
    else ref_super_free(&F);
    return st;
}

size_t ref_super_nnz(const ref_super *F)
{
    size_t nz = 0;
    for (int s = 0; F && s < F->ns; s++) {
        size_t k = (size_t)(F->super[s + 1] - F->super[s]), r = F->rp[s + 1] - F->rp[s];
        nz += r * k - k * (k - 1) / 2;                /* the lower trapezoid */
    }
    return nz;
}

lcp_status ref_super_factor(ref_super *F, const double *Sx, const double *akk,
                            const signed char *chk, double tau, int *bad)
{
    int n = F->n;
    size_t stk = 0, nst = 0;
    *bad = -1;
    F->complete = 0;
    for (int e = 0; e < F->Cp[n]; e++) F->Cx[F->dst[e]] = Sx[e];  /* dst: a permutation */
    size_t *soff = lcp_malloc((size_t)F->ns + 1, sizeof *soff);   /* stack offsets */
    if (!soff) return LCP_ERR_NOMEM;
    for (int s = 0; s < F->ns; s++) {
        int f = F->super[s], k = F->super[s + 1] - f;
        const int *R = F->ri + F->rp[s];
        int r = (int)(F->rp[s + 1] - F->rp[s]), u = r - k;
        double *W = F->W;
        for (int i = 0; i < r; i++) F->map[R[i]] = i;
        memset(W, 0, (size_t)r * (size_t)r * sizeof *W);
        for (int j = f; j < f + k; j++)               /* S's entries of its columns */
            for (int e = F->Cp[j]; e < F->Cp[j + 1]; e++)
                W[(size_t)(j - f) * r + F->map[F->Ci[e]]] += F->Cx[e];
        for (int c = 0; c < F->nchild[s]; c++) {       /* extend-add, from the stack top */
            int cs = F->sid[--nst], kc = F->super[cs + 1] - F->super[cs];
            const int *Rc = F->ri + F->rp[cs] + kc;
            int uc = (int)(F->rp[cs + 1] - F->rp[cs]) - kc;
            const double *U = F->stack + soff[nst];
            for (int b = 0; b < uc; b++) {
                double *Wc = W + (size_t)F->map[Rc[b]] * r;
                const double *Uc = U + (size_t)b * uc;
                for (int a = b; a < uc; a++) Wc[F->map[Rc[a]]] += Uc[a];
            }
            stk = soff[nst];
        }
        lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', k, W, r);
        if (info < 0) {
            lcp_free(soff);
            return LCP_ERR_BREAKDOWN;
        }
        int ok = info > 0 ? (int)info - 1 : k;         /* columns factored */
        for (int c = 0; c < ok && *bad < 0; c++) {
            int g = F->perm[f + c];
            double l = W[(size_t)c * r + c];
            if (chk[g] && (!(akk[g] > 0.0) || !(l * l > tau * akk[g]))) *bad = g;
        }
        if (*bad < 0 && info > 0) *bad = F->perm[f + ok];
        if (*bad >= 0) {
            lcp_free(soff);
            return LCP_OK;                            /* incomplete: the solve refuses */
        }
        if (u > 0) {
            cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, u, k,
                        1.0, W, r, W + k, r);
            cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, u, k, -1.0, W + k, r, 1.0,
                        W + (size_t)k * r + k, r);
            double *U = F->stack + stk;                /* push the update matrix */
            for (int b = 0; b < u; b++)
                memcpy(U + (size_t)b * u + b, W + (size_t)(k + b) * r + k + b,
                       (size_t)(u - b) * sizeof *U);
            soff[nst] = stk;
            F->sid[nst++] = s;
            stk += (size_t)u * (size_t)u;
        }
        memcpy(F->x + F->xp[s], W, (size_t)r * (size_t)k * sizeof *W);
    }
    lcp_free(soff);
    F->complete = 1;
    return LCP_OK;
}

lcp_status ref_super_solve(ref_super *F, double *b)
{
    if (!F->complete) return LCP_ERR_BREAKDOWN;
    int n = F->n;
    double *y = F->tmp;
    for (int j = 0; j < n; j++) y[j] = b[F->perm[j]];
    double *t = b;                                     /* b is free as scratch now */
    for (int s = 0; s < F->ns; s++) {                  /* L y = P b */
        int f = F->super[s], k = F->super[s + 1] - f;
        int r = (int)(F->rp[s + 1] - F->rp[s]), u = r - k;
        const double *L = F->x + F->xp[s];
        const int *R = F->ri + F->rp[s] + k;
        cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, k, L, r, y + f, 1);
        if (u == 0) continue;
        cblas_dgemv(CblasColMajor, CblasNoTrans, u, k, 1.0, L + k, r, y + f, 1, 0.0, t, 1);
        for (int i = 0; i < u; i++) y[R[i]] -= t[i];
    }
    for (int s = F->ns - 1; s >= 0; s--) {             /* L^T x = y */
        int f = F->super[s], k = F->super[s + 1] - f;
        int r = (int)(F->rp[s + 1] - F->rp[s]), u = r - k;
        const double *L = F->x + F->xp[s];
        const int *R = F->ri + F->rp[s] + k;
        if (u > 0) {
            for (int i = 0; i < u; i++) t[i] = y[R[i]];
            cblas_dgemv(CblasColMajor, CblasTrans, u, k, -1.0, L + k, r, t, 1, 1.0, y + f, 1);
        }
        cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, k, L, r, y + f, 1);
    }
    for (int j = 0; j < n; j++) b[F->perm[j]] = y[j];
    return LCP_OK;
}
