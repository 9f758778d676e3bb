/* ref_cholmod.c: the sparse factorisation backend of the pivoting reference.
 *
 * COMPUTES.  For a free set F (ascending rows) the LDL^T factorisation of
 *     S = A_FF + eps * diag(A_FF) + diag(dplus_F)   (eps = 0 unless the driver shifts;
 *                                                    dplus only in its interior-point phase)
 * with CHOLMOD's analysis (AMD fill-reducing ordering; METIS nested dissection for the full
 * pattern when AMD fills too much) and its simplicial LDL^T or, for large ones, the
 * supernodal LL^T of ref_super.c, and solves S x = b.
 *
 * TWO WAYS TO BUILD S.
 *   full pattern:  S = [A_FF + eps D, 0; 0, I] in A's own row order, stored on A's whole
 *                  pattern (the entries coupling F to bound rows kept as explicit zeros).
 *                  The pattern never changes, so the symbolic analysis (ordering, etree,
 *                  column counts) is done once per solve and reused by every step.  Its
 *                  ordering is AMD's, or METIS's nested dissection when AMD's factorisation
 *                  costs over 10^7 flops and METIS's costs fewer (on 3D piles 40% fewer).
 *   sub pattern:   S = A_FF compressed to |F| rows, analysed again (AMD) whenever F
 *                  changes; the same F again (the interior point's iterations) keeps the
 *                  analysis, and METIS is then tried as for the full pattern (on the
 *                  10626-row friction pile the interior point's factorisations fall from
 *                  2.7e8 flops, the full pattern's, to about 2e8).
 * Auto: the sub pattern when |F| < m/2; otherwise the full pattern when it is cheap (under
 * 10^6 flops: an analysis would cost as much as the factorisation) or F is every row, and
 * else whichever of the two needs fewer flops (the full pattern's ordering also carries
 * the fill of the bound rows: on a synthetic pile of 2000 rows the sub pattern needs 2.4x
 * fewer flops).
 *
 * PIVOT CHECK.  CHOLMOD's LDL^T accepts indefinite and singular matrices silently (only a
 * zero pivot sets Common->status), so after every factorisation the diagonal D is read
 * (simplicial LDL^T keeps D(k,k) in the first slot of column k) and the first pivot in
 * elimination order with d_k <= tau * A_kk (or NaN) is reported to the driver as a
 * dependent row.  Common->status < 0 is an error (out of memory or breakdown).
 *
 * COST.  One factorisation per call (flops as counted by cholmod_analyze: Common->fl);
 * the analysis O(nnz(L)) when the sub pattern is used.  Memory: L, one copy of A's upper
 * triangle, three dense m-vectors.
 *
 * NUMERIC FACTORISATION.  CHOLMOD's simplicial LDL^T (column by column, about 1 Gflop/s),
 * or, when the analysis counts over 10^7 flops (or ref_options.supernodal = 1), our own
 * supernodal multifrontal LL^T on the same analysis (ref_super.c: dense BLAS kernels,
 * d_k = L_kk^2 for the pivot check).  CHOLMOD's supernodal code is in its GPL Supernodal
 * module, which lcpbench does not call.  On a captured 46055-row sphere pile the supernodal
 * path cuts ldlt-ref's time about sixfold (25 factorisations of 3e9 flops each).
 *
 * LIMITS.  Int indices (cholmod_* not cholmod_l_*): nnz(L) < 2^31.  No use of the Modify
 * module (GPL): every step refactorises.  Source: T. Davis, CHOLMOD user guide
 * (SuiteSparse 5.12).
 */
#include "ref_internal.h"

#include <cholmod.h>
#include <string.h>

#define CHOL_FULL_CHEAP 1e6 /* full-pattern factorisations below this many flops are used
                               without comparing (an analysis would cost as much) */
#define CHOL_SUPER_FL 1e7   /* auto: supernodal (ref_super.c) above this many flops */

typedef struct ref_chol {
    cholmod_common c;
    const lcp_csr *A;
    const double *diag;
    int m;
    int policy;            /* -1 auto, 0 never, 1 always full pattern */
    int spolicy;           /* -1 auto (CHOL_SUPER_FL), 0 never, 1 always supernodal */
    size_t malloc_start;
    cholmod_sparse *S;     /* m x m capacity, upper triangle (stype 1) */
    cholmod_factor *Lfull; /* analysed on the full pattern, reused */
    double fl_full;
    cholmod_factor *Lsub;  /* analysed per free set */
    double fl_sub;
    int *Fsub, nfsub;      /* m: the free set Lsub was analysed for (nfsub -1: none) */
    int snsub_tried;       /* SNsub was attempted for Lsub */
    int subnd_tried;       /* METIS was tried on the sub pattern of Fsub */
    cholmod_factor *L;     /* the current one (Lfull or Lsub) */
    ref_super *SNfull;     /* supernodal symbolic of Lfull (ref_super.c), or NULL */
    int sn_tried;          /* SNfull was attempted */
    ref_super *SNsub;      /* supernodal symbolic of Lsub, or NULL */
    ref_super *SN;         /* the current one, NULL: CHOLMOD's simplicial factor L */
    double *akk;           /* m: pivot check per system index: A_kk + dplus_k */
    signed char *chk;      /* m: 1 for a free row (checked) */
    int full;              /* mode of the current factor */
    int ns;                /* size of the current system */
    int nf;
    const int *F;          /* the current free list (driver owns) */
    int *pos;              /* m: system index of a row, -1 when not in the system */
    int *map;              /* m: row of a system index */
    cholmod_dense *B, *X, *Y, *E;
} ref_chol;

static lcp_status chol_status(const cholmod_common *c)
{
    if (c->status == CHOLMOD_OUT_OF_MEMORY) return LCP_ERR_NOMEM;
    return c->status < 0 ? LCP_ERR_BREAKDOWN : LCP_OK;
}

/* Fill R->S for the current mode: column c (row g = map[c]) holds the rows r <= c of
 * row g of A (A symmetric, so row g of the CSR is column g).  The diagonal is always in
 * the pattern (inserted when A does not store it). */
static void chol_build(ref_chol *R, const signed char *isfree, double eps,
                       const double *dplus)
{
    const lcp_csr *A = R->A;
    cholmod_sparse *S = R->S;
    int *Sp = S->p, *Si = S->i;
    double *Sx = S->x;
    int nz = 0;
    for (int c = 0; c < R->ns; c++) {
        int g = R->map[c], fg = isfree[g], have_diag = 0;
        Sp[c] = nz;
        for (int k = A->p[g]; k < A->p[g + 1]; k++) {
            int h = A->j[k];
            if (h > g) break;                         /* upper triangle: rows h <= g */
            int r = R->pos[h];
            if (r < 0) continue;                      /* sub pattern: h not free */
            double v = (fg && isfree[h]) ? A->x[k] : 0.0; /* full: couplings to B are 0 */
            if (h == g) {
                v = fg ? A->x[k] + eps * R->diag[g] + (dplus ? dplus[g] : 0.0) : 1.0;
                have_diag = 1;
            }
            Si[nz] = r;
            Sx[nz++] = v;
        }
        if (!have_diag) {                             /* A_gg not stored */
            Si[nz] = c;
            Sx[nz++] = fg ? (dplus ? dplus[g] : 0.0) : 1.0;
        }
    }
    Sp[R->ns] = nz;
    S->nrow = S->ncol = (size_t)R->ns;
}

/* Try nested dissection after AMD when AMD's factorisation is expensive (over 10^7 flops):
 * on 3D contact graphs METIS saves a third to a half of the flops, and the full pattern is
 * analysed once per solve, so its higher analysis cost is paid once. */
static int chol_try_nd(const ref_chol *R)
{
    return R->c.fl > 1e7;
}

/* Lay out the system for a mode (full: A's order and pattern; sub: F only) and fill S. */
static void chol_setup(ref_chol *R, int full, const int *F, int nf, const signed char *isfree,
                       double eps, const double *dplus)
{
    int m = R->m;
    R->full = full;
    if (full) {
        for (int g = 0; g < m; g++) R->pos[g] = R->map[g] = g;
        R->ns = m;
    } else {
        for (int g = 0; g < m; g++) R->pos[g] = -1;
        for (int k = 0; k < nf; k++) {
            R->pos[F[k]] = k;
            R->map[k] = F[k];
        }
        R->ns = nf;
    }
    chol_build(R, isfree, eps, dplus);
}

/* The full pattern's analysis, once a solve: AMD, and METIS when AMD's flops are high
 * (chol_try_nd), the one with fewer flops kept. */
static lcp_status chol_analyse_full(ref_backend *be)
{
    ref_chol *R = be->impl;
    R->Lfull = cholmod_analyze(R->S, &R->c);
    lcp_status st = chol_status(&R->c);
    if (st == LCP_OK && !R->Lfull) st = LCP_ERR_BREAKDOWN;
    R->fl_full = R->c.fl;
    be->analyses++;
    if (st == LCP_OK && chol_try_nd(R)) {
        R->c.method[0].ordering = CHOLMOD_METIS;
        cholmod_factor *Lnd = cholmod_analyze(R->S, &R->c);
        R->c.method[0].ordering = CHOLMOD_AMD;
        if (Lnd && R->c.fl < R->fl_full) {
            cholmod_free_factor(&R->Lfull, &R->c);
            R->Lfull = Lnd;
            R->fl_full = R->c.fl;
        } else {
            cholmod_free_factor(&Lnd, &R->c);
        }
        R->c.status = CHOLMOD_OK;                       /* no METIS: AMD's is kept */
        be->analyses++;
    }
    return st;
}

/* The sub pattern's analysis (AMD), again whenever F differs from the free set of the last
 * one: S's sub pattern is a function of F alone, so the same F reuses Lsub and its
 * supernodal symbolic (the interior point factors one F at every iteration).  The second
 * time one F comes, METIS is tried too when AMD's factorisation is expensive (over 10^7
 * flops, the rule of chol_try_nd), and kept when it needs fewer flops: its dearer analysis
 * is then paid once for the factorisations that follow on that F. */
static lcp_status chol_analyse_sub(ref_backend *be)
{
    ref_chol *R = be->impl;
    if (R->Lsub && R->nfsub == R->nf && memcmp(R->Fsub, R->F, (size_t)R->nf * sizeof *R->F) == 0) {
        if (R->subnd_tried || !(R->fl_sub > 1e7)) return LCP_OK;
        R->subnd_tried = 1;                     /* F again: nested dissection pays */
        R->c.method[0].ordering = CHOLMOD_METIS;
        cholmod_factor *Lnd = cholmod_analyze(R->S, &R->c);
        R->c.method[0].ordering = CHOLMOD_AMD;
        be->analyses++;
        if (Lnd && R->c.status == CHOLMOD_OK && R->c.fl < R->fl_sub) {
            cholmod_free_factor(&R->Lsub, &R->c);
            ref_super_free(&R->SNsub);
            R->snsub_tried = 0;
            R->Lsub = Lnd;
            R->fl_sub = R->c.fl;
        } else {
            cholmod_free_factor(&Lnd, &R->c);
        }
        R->c.status = CHOLMOD_OK;                       /* no METIS: AMD's is kept */
        return LCP_OK;
    }
    R->subnd_tried = 0;
    cholmod_free_factor(&R->Lsub, &R->c);
    ref_super_free(&R->SNsub);
    R->snsub_tried = 0;
    R->nfsub = -1;
    R->Lsub = cholmod_analyze(R->S, &R->c);
    lcp_status st = chol_status(&R->c);
    if (st == LCP_OK && !R->Lsub) st = LCP_ERR_BREAKDOWN;
    R->fl_sub = R->c.fl;
    be->analyses++;
    if (st == LCP_OK) {
        memcpy(R->Fsub, R->F, (size_t)R->nf * sizeof *R->F);
        R->nfsub = R->nf;
    }
    return st;
}

/* The supernodal symbolic for the current factor (R->L, just analysed or the full
 * pattern's), when the policy asks for it; R->SN NULL keeps CHOLMOD's simplicial LDL^T (also
 * when ref_super finds the counts inconsistent).  The full pattern's is built once. */
static lcp_status chol_super_setup(ref_chol *R, double fl)
{
    int want = R->spolicy > 0 || (R->spolicy < 0 && fl > CHOL_SUPER_FL);
    lcp_status st = LCP_OK;
    R->SN = NULL;
    if (!want) return LCP_OK;
    if (R->full && !R->sn_tried) {
        R->sn_tried = 1;
        st = ref_super_analyse(&R->SNfull, R->ns, R->S->p, R->S->i, R->L->Perm,
                               R->L->ColCount);
    } else if (!R->full && !R->snsub_tried) {         /* once per sub analysis */
        R->snsub_tried = 1;
        st = ref_super_analyse(&R->SNsub, R->ns, R->S->p, R->S->i, R->L->Perm,
                               R->L->ColCount);
    }
    if (st == LCP_ERR_BREAKDOWN) st = LCP_OK;         /* not usable: simplicial */
    R->SN = R->full ? R->SNfull : R->SNsub;
    return st;
}

static lcp_status chol_factor(ref_backend *be, const int *F, int nf, double eps,
                              const double *dplus, double tau, int *bad)
{
    ref_chol *R = be->impl;
    lcp_status st = LCP_OK;
    signed char *isfree = NULL;
    int m = R->m;
    *bad = -1;
    R->F = F;
    R->nf = nf;
    if (nf == 0) return LCP_OK;
    isfree = lcp_calloc((size_t)m, 1);
    if (!isfree) return LCP_ERR_NOMEM;
    for (int k = 0; k < nf; k++) isfree[F[k]] = 1;

    int full = R->policy == 1 || (R->policy < 0 && 2 * nf >= m);
    double fl = 0.0;
    chol_setup(R, full, F, nf, isfree, eps, dplus);
    if (full && !R->Lfull) st = chol_analyse_full(be);
    if (st == LCP_OK && full && R->policy < 0 && nf < m && R->fl_full > CHOL_FULL_CHEAP) {
        /* the full pattern's ordering also pays for the fill of the bound rows' explicit
         * zeros: analyse A_FF too and keep the one with fewer flops */
        chol_setup(R, 0, F, nf, isfree, eps, dplus);
        st = chol_analyse_sub(be);
        if (st == LCP_OK && R->fl_sub >= R->fl_full) chol_setup(R, 1, F, nf, isfree, eps, dplus);
    } else if (st == LCP_OK && !full) {
        st = chol_analyse_sub(be);
    }
    if (st == LCP_OK) {
        R->L = R->full ? R->Lfull : R->Lsub;
        fl = R->full ? R->fl_full : R->fl_sub;
        st = chol_super_setup(R, fl);
    }
    if (st == LCP_OK && R->SN) {                     /* supernodal LL^T (ref_super.c) */
        for (int c = 0; c < R->ns; c++) {
            int g = R->map[c];
            R->chk[c] = isfree[g];
            R->akk[c] = R->diag[g] + (dplus ? dplus[g] : 0.0);
        }
        int badc = -1;
        st = ref_super_factor(R->SN, R->S->x, R->akk, R->chk, tau, &badc);
        if (badc >= 0) *bad = R->map[badc];
        be->factorizations++;
        be->supernodal++;
        be->flops += fl;
        double lnz = (double)ref_super_nnz(R->SN);
        if (lnz > be->lnz) be->lnz = lnz;
    } else if (st == LCP_OK) {
        cholmod_factorize(R->S, R->L, &R->c);
        st = chol_status(&R->c);               /* NOT_POSDEF (> 0) is checked below */
        be->factorizations++;
        be->flops += fl;
        double lnz = 0.0;                      /* nnz(L) of this factor: its column counts */
        for (int k = 0; k < R->ns; k++) lnz += ((const int *)R->L->ColCount)[k];
        if (lnz > be->lnz) be->lnz = lnz;
    }
    if (st == LCP_OK && !R->SN && (R->L->is_ll || R->L->is_super || R->L->xtype != CHOLMOD_REAL))
        st = LCP_ERR_BREAKDOWN;                /* not the simplicial LDL^T asked for */
    if (st == LCP_OK && !R->SN) {              /* D(k,k) = Lx[Lp[k]] in elimination order */
        const int *Lp = R->L->p, *Perm = R->L->Perm;
        const double *Lx = R->L->x;
        for (int k = 0; k < R->ns && *bad < 0; k++) {
            int g = R->map[Perm ? Perm[k] : k];
            if (!isfree[g]) continue;              /* identity rows of the full pattern */
            double d = Lx[Lp[k]], akk = R->diag[g] + (dplus ? dplus[g] : 0.0);
            if (!(akk > 0.0) || !(d > tau * akk)) *bad = g;
        }
    }
    lcp_free(isfree);
    return st;
}

static lcp_status chol_solve(ref_backend *be, const double *b, double *x)
{
    ref_chol *R = be->impl;
    if (R->nf == 0) return LCP_OK;
    double *Bx = R->B->x;
    R->B->nrow = (size_t)R->ns;
    R->B->d = (size_t)R->ns;
    if (R->full) memset(Bx, 0, (size_t)R->ns * sizeof *Bx);
    for (int k = 0; k < R->nf; k++) Bx[R->pos[R->F[k]]] = b[k]; /* b into system order */
    if (R->SN) {
        lcp_status sst = ref_super_solve(R->SN, Bx);
        for (int k = 0; sst == LCP_OK && k < R->nf; k++) x[k] = Bx[R->pos[R->F[k]]];
        return sst;
    }
    int okc = cholmod_solve2(CHOLMOD_A, R->L, R->B, NULL, &R->X, NULL, &R->Y, &R->E, &R->c);
    lcp_status st = okc ? chol_status(&R->c) : LCP_ERR_BREAKDOWN;
    if (st == LCP_OK && okc) {
        const double *Xx = R->X->x;
        for (int k = 0; k < R->nf; k++) x[k] = Xx[R->pos[R->F[k]]];
    } else if (R->c.status == CHOLMOD_OUT_OF_MEMORY) {
        st = LCP_ERR_NOMEM;
    }
    return st;
}

static void chol_destroy(ref_backend *be)
{
    ref_chol *R = be ? be->impl : NULL;
    if (!R) return;
    if (R->S) R->S->nrow = R->S->ncol = (size_t)R->m;  /* back to its allocated size */
    if (R->B) R->B->nrow = R->B->d = (size_t)R->m;
    cholmod_free_sparse(&R->S, &R->c);
    cholmod_free_factor(&R->Lfull, &R->c);
    cholmod_free_factor(&R->Lsub, &R->c);
    ref_super_free(&R->SNfull);
    ref_super_free(&R->SNsub);
    lcp_free(R->akk);
    lcp_free(R->chk);
    lcp_free(R->Fsub);
    cholmod_free_dense(&R->B, &R->c);
    cholmod_free_dense(&R->X, &R->c);
    cholmod_free_dense(&R->Y, &R->c);
    cholmod_free_dense(&R->E, &R->c);
    cholmod_finish(&R->c);                  /* frees Common's workspace too */
    be->malloc_delta = (long)R->c.malloc_count - (long)R->malloc_start;
    lcp_free(R->pos);
    lcp_free(R->map);
    lcp_free(R);
    be->impl = NULL;
}

lcp_status ref_cholmod_create(ref_backend *be, const lcp_csr *A, const double *diag,
                              int full_pattern, int supernodal)
{
    if (!be || !A || !diag || A->nrow != A->ncol) return LCP_ERR_ARG;
    memset(be, 0, sizeof *be);
    ref_chol *R = lcp_calloc(1, sizeof *R);
    if (!R) return LCP_ERR_NOMEM;
    be->impl = R;
    be->factor = chol_factor;
    be->solve = chol_solve;
    be->destroy = chol_destroy;
    int m = A->nrow;
    R->A = A;
    R->diag = diag;
    R->m = m;
    R->policy = full_pattern;
    R->spolicy = supernodal;
#ifdef LCP_TCOV
    /* test-only build: CHOLMOD allocates through the same failing counter as liblcp */
    SuiteSparse_config.malloc_func = lcp_tcov_malloc;
    SuiteSparse_config.calloc_func = lcp_tcov_calloc;
    SuiteSparse_config.realloc_func = lcp_tcov_realloc;
    SuiteSparse_config.free_func = lcp_tcov_free;
#endif
    cholmod_start(&R->c);
    R->c.print = 0;                        /* the library prints nothing */
    R->c.supernodal = CHOLMOD_SIMPLICIAL;  /* D must be readable */
    R->c.final_ll = 0;                     /* keep LDL^T */
    R->c.nmethods = 1;                     /* AMD only: deterministic and cheap */
    R->c.method[0].ordering = CHOLMOD_AMD;
    R->malloc_start = R->c.malloc_count;
    size_t nzu = (size_t)LCP_CSR_NNZ(A) / 2 + (size_t)m + 1; /* upper triangle + diagonal */
    R->pos = lcp_malloc((size_t)m + 1, sizeof *R->pos);
    R->map = lcp_malloc((size_t)m + 1, sizeof *R->map);
    R->akk = lcp_malloc((size_t)m + 1, sizeof *R->akk);
    R->chk = lcp_malloc((size_t)m + 1, sizeof *R->chk);
    R->Fsub = lcp_malloc((size_t)m + 1, sizeof *R->Fsub);
    R->nfsub = -1;
    R->S = cholmod_allocate_sparse((size_t)m, (size_t)m, nzu, 1, 1, 1, CHOLMOD_REAL, &R->c);
    R->B = cholmod_allocate_dense((size_t)m, 1, (size_t)m, CHOLMOD_REAL, &R->c);
    if (!R->pos || !R->map || !R->akk || !R->chk || !R->Fsub || !R->S || !R->B) {
        chol_destroy(be);
        return LCP_ERR_NOMEM;
    }
    return LCP_OK;
}
