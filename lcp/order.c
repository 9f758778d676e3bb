/* order.c: the row orderings of the Gauss-Seidel family (lcp/README.md, "Solvers":
 * orderings).
 *
 *   natural, reverse          fixed
 *   symmetric                 odd sweeps forward, even sweeps backward
 *   random                    a Fisher-Yates shuffle every sweep (splitmix64, seeded)
 *   random8                   reshuffled every 8 sweeps (ODE quickstep)
 *   error                     rows by |r_i| of the natural map, largest first, every sweep
 *   mass                      rows by effective mass 1/a_ii, largest first
 *   ode8                      ODE quickstep's: rows with findex < 0 ascending, then rows with
 *                             findex >= 0 ascending, for sweeps 1-8; before sweeps 9, 17, ...
 *                             the current order is reshuffled (forward Fisher-Yates, as
 *                             quickstep.cpp; splitmix64, seeded, in place of ODE's LCG)
 *   perm                      options.perm, validated as a permutation of 0..m-1
 *   height                    rows by options.rowkey ascending (bottom-up spatial order:
 *                             the stepper passes each row's contact height; Erleben 2007
 *                             via Andrews et al. 2017, Sec. 1), fixed for the solve
 * Ties are broken by row index, so every ordering is deterministic.  Cost per sweep: O(1)
 * for fixed orders, O(m) for random, O(nnz(A) + m log m) for error.
 */
#include "lcp_internal.h"

#include <string.h>

typedef struct keyed {
    double key;
    int row;
} keyed;

static int by_key_desc(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key > y->key) return -1;
    if (x->key < y->key) return 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* perm = rows sorted by key descending; key(i) fills the pairs first */
static void sort_by_key(lcp_orderer *o)
{
    keyed *t = o->sort;
    for (int i = 0; i < o->m; i++)
        if (t[i].key != t[i].key) t[i].key = INFINITY;       /* NaN first, never lost */
    qsort(t, (size_t)o->m, sizeof(keyed), by_key_desc);
    for (int i = 0; i < o->m; i++) o->perm[i] = t[i].row;
}

static void shuffle(lcp_orderer *o)
{
    for (int i = o->m - 1; i > 0; i--) {                /* Fisher-Yates */
        int r = lcp_rng_below(&o->rng, i + 1);
        int t = o->perm[i];
        o->perm[i] = o->perm[r];
        o->perm[r] = t;
    }
}

/* forward Fisher-Yates of the current order: swap(perm[i], perm[rand(i + 1)]), i = 1.. */
static void shuffle_forward(lcp_orderer *o)
{
    for (int i = 1; i < o->m; i++) {
        int r = lcp_rng_below(&o->rng, i + 1);
        int t = o->perm[i];
        o->perm[i] = o->perm[r];
        o->perm[r] = t;
    }
}

/* bottom-up spatial order: rows by ascending opt->rowkey, ties by row index (NaN last) */
static lcp_status order_height(lcp_orderer *o, const lcp_options *opt)
{
    if (!opt->rowkey) return LCP_ERR_ARG;
    keyed *t = o->sort;
    for (int i = 0; i < o->m; i++) {
        double k = opt->rowkey[i];
        t[i].key = k == k ? -k : -INFINITY;                  /* descending of -key */
        t[i].row = i;
    }
    qsort(t, (size_t)o->m, sizeof(keyed), by_key_desc);
    for (int i = 0; i < o->m; i++) o->perm[i] = t[i].row;
    return LCP_OK;
}

lcp_status lcp_order_init(lcp_orderer *o, const lcp_problem *P, const lcp_options *opt,
                          const double *diag)
{
    memset(o, 0, sizeof *o);
    o->kind = opt->order;
    o->m = P->m;
    o->P = P;
    o->rng = opt->seed;
    o->perm = lcp_malloc((size_t)P->m, sizeof(int));
    o->sort = lcp_malloc((size_t)P->m, sizeof(keyed));
    if (o->kind == LCP_ORDER_ERROR) {        /* without A, the residual's workspace too */
        o->nwork = lcp_residual_work(P);
        o->w = lcp_malloc((size_t)P->m + o->nwork, sizeof(double));
    }
    if (!o->perm || !o->sort || (o->kind == LCP_ORDER_ERROR && !o->w)) {
        lcp_order_free(o);
        return LCP_ERR_NOMEM;
    }
    for (int i = 0; i < P->m; i++) o->perm[i] = i;
    keyed *t = o->sort;
    lcp_status st = LCP_OK;
    switch (o->kind) {
    case LCP_ORDER_NATURAL:
    case LCP_ORDER_SYMMETRIC:
    case LCP_ORDER_RANDOM:
    case LCP_ORDER_RANDOM8:
    case LCP_ORDER_ERROR:
        break;
    case LCP_ORDER_REVERSE:
        for (int i = 0; i < P->m; i++) o->perm[i] = P->m - 1 - i;
        break;
    case LCP_ORDER_ODE8: {                  /* findex < 0 rows first, friction rows last */
        int n = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < P->m; i++)
                if ((P->findex && P->findex[i] >= 0) == pass) o->perm[n++] = i;
        break;
    }
    case LCP_ORDER_MASS:
        for (int i = 0; i < P->m; i++) {
            t[i].key = diag[i] > 0.0 ? 1.0 / diag[i] : INFINITY;   /* effective mass */
            t[i].row = i;
        }
        sort_by_key(o);
        break;
    case LCP_ORDER_PERM:
        if (!opt->perm) {
            st = LCP_ERR_ARG;
            break;
        }
        for (int i = 0; i < P->m; i++) t[i].row = 0;            /* marks seen rows */
        for (int i = 0; i < P->m && st == LCP_OK; i++) {
            int r = opt->perm[i];
            if (r < 0 || r >= P->m || t[r].row) st = LCP_ERR_ARG;
            else {
                t[r].row = 1;
                o->perm[i] = r;
            }
        }
        break;
    case LCP_ORDER_HEIGHT:
        st = order_height(o, opt);
        break;
    default:
        st = LCP_ERR_ARG;
    }
    if (st != LCP_OK) lcp_order_free(o);
    return st;
}

const int *lcp_order_next(lcp_orderer *o, int k, const double *z)
{
    switch (o->kind) {
    case LCP_ORDER_SYMMETRIC: {
        int forward = (k % 2) == 1;
        for (int i = 0; i < o->m; i++) o->perm[i] = forward ? i : o->m - 1 - i;
        break;
    }
    case LCP_ORDER_RANDOM:
        shuffle(o);
        break;
    case LCP_ORDER_RANDOM8:
        if ((k - 1) % 8 == 0) shuffle(o);
        break;
    case LCP_ORDER_ODE8:
        if (k > 1 && (k - 1) % 8 == 0) shuffle_forward(o);
        break;
    case LCP_ORDER_ERROR: {
        lcp_residuals R;
        lcp_residual_ws(o->P, z, o->w, o->w + o->m, o->nwork, &R);  /* w = A z + q */
        keyed *t = o->sort;
        for (int i = 0; i < o->m; i++) {
            double lo, hi;
            lcp_row_bounds(o->P, z, i, &lo, &hi);
            t[i].key = fabs(z[i] - lcp_mid(lo, z[i] - o->w[i], hi));   /* |r_i| */
            t[i].row = i;
        }
        sort_by_key(o);
        break;
    }
    default:
        break;
    }
    return o->perm;
}

void lcp_order_free(lcp_orderer *o)
{
    if (!o) return;
    lcp_free(o->perm);
    lcp_free(o->sort);
    lcp_free(o->w);
    o->perm = NULL;
    o->sort = NULL;
    o->w = NULL;
}
