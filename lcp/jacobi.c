/* jacobi.c: projected Jacobi (`jacobi`), lcp/README.md, "Solvers".
 *
 * All rows from the same old iterate (bounds too):
 *     z^{k+1} = mid(lo(z^k), z^k - omega D^{-1} (A z^k + q), hi(z^k))
 * omega = 1 by default; `auto' (omega_auto) takes omega = 1 / lambda_max(D^-1/2 A D^-1/2),
 * estimated by 50 power iterations from a fixed start vector (reported in info->omega).
 * Assembled: w = A z + q (one CSR product).  Matrix-free: w = J (Minv (J^T z)) + E z + q
 * (three sparse products, J^T z by the rows of a stored J^T).  Both O(nnz) per sweep.
 * The diagonal, and the power iteration's product, come from the same form: matrix-free
 * never reads A (so `solve --lean` leaves it unread; bench/README.md, "The command
 * line"), with a_ii = J_i . (J Minv)_i + E_i as pgs takes it.
 * Jacobi may diverge on contact problems: the shared loop then stops with LCP_ERR_DIVERGED
 * or LCP_ERR_NONFINITE.
 * Threads (options.threads, or the free cores with threads_auto; a pool started once per
 * solve, its waits spinning briefly, then sleeping: pool.c): each stage is cut into fixed
 * blocks of rows, every row's sum is taken in the same order as the serial CSR product,
 * and the row residuals of the fused stopping test (iterate.c; for Jacobi the exact
 * residual of z^k) are summed per block, then the blocks in order: iterates and estimate
 * are bit-identical for any number of threads.  Three barriers per sweep (matrix-free),
 * one (assembled).
 */
#include "lcp_internal.h"
#include "solvers.h"

#include <string.h>

enum { BLOCK = 256, MAX_THREADS = 256 };

typedef struct jacobi_ctx {
    const lcp_problem *P;
    int mf;
    double omega;
    double *d;      /* m: a_ii */
    double *w;      /* m: workspace of the power iteration */
    double *zold;   /* m: z^k */
    double *t, *u;  /* n: J^T z, Minv J^T z (matrix-free; one array, u = t + n) */
    lcp_csr JT;     /* matrix-free: J^T, so that J^T z is computed by rows */
    lcp_pool *pool;
    double *part;   /* one partial sum of rho^2 per block of BLOCK rows */
    double *z;      /* the iterate of the sweep being run */
    int solo;       /* sweeps run on the calling thread alone (adaptive runs) */
} jacobi_ctx;

/* [first, last) of n items (blocks of `unit') for thread tid of T */
static void share(int n, int unit, int tid, int T, int *first, int *last)
{
    int nb = (n + unit - 1) / unit;
    *first = (int)((long)nb * tid / T) * unit;
    *last = (int)((long)nb * (tid + 1) / T) * unit;
    if (*last > n) *last = n;
    if (*first > n) *first = n;
}

/* One sweep on thread tid: the same sums, in the same order, as one CSR product per
 * stage, whatever the number of threads:
 *   zold = z;  [matrix-free: t = J^T zold, u = Minv t (by rows of J^T and Minv)]
 *   w_i = A_i zold + q_i  or  J_i u + (E_i zold_i + q_i);  z_i = mid(lo, zold_i - omega w_i / d_i, hi) */
static void jacobi_task(void *vctx, int tid)
{
    jacobi_ctx *c = vctx;
    const lcp_problem *P = c->P;
    int T = lcp_pool_active(c->pool), r0, r1, d0, d1;   /* 1 in a solo run */
    double *z = c->z, *zold = c->zold;
    share(P->m, BLOCK, tid, T, &r0, &r1);
    memcpy(zold + r0, z + r0, (size_t)(r1 - r0) * sizeof(double));
    lcp_pool_barrier(c->pool, tid);                           /* zold complete */
    if (c->mf) {
        share(P->n, BLOCK, tid, T, &d0, &d1);
        for (int j = d0; j < d1; j++) {                       /* t = J^T zold */
            double s = 0.0;
            for (int k = c->JT.p[j]; k < c->JT.p[j + 1]; k++) s += c->JT.x[k] * zold[c->JT.j[k]];
            c->t[j] = s;
        }
        lcp_pool_barrier(c->pool, tid);
        for (int j = d0; j < d1; j++) {                       /* u = Minv t */
            double s = 0.0;
            for (int k = P->Minv.p[j]; k < P->Minv.p[j + 1]; k++)
                s += P->Minv.x[k] * c->t[P->Minv.j[k]];
            c->u[j] = s;
        }
        lcp_pool_barrier(c->pool, tid);
    }
    for (int b0 = r0; b0 < r1; b0 += BLOCK) {
        int b1 = b0 + BLOCK < r1 ? b0 + BLOCK : r1;
        double e2 = 0.0;
        for (int i = b0; i < b1; i++) {
            double w = 0.0;
            if (c->mf) {
                for (int k = P->J.p[i]; k < P->J.p[i + 1]; k++) w += P->J.x[k] * c->u[P->J.j[k]];
                w += (P->E ? P->E[i] * zold[i] : 0.0) + P->q[i];
            } else {
                for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) w += P->A.x[k] * zold[P->A.j[k]];
                w += P->q[i];
            }
            double lo, hi;
            lcp_row_bounds(P, zold, i, &lo, &hi);
            double rho = zold[i] - lcp_mid(lo, zold[i] - w, hi);          /* r_i(z^k) */
            e2 += rho * rho;
            z[i] = lcp_mid(lo, zold[i] - c->omega * w / c->d[i], hi);
        }
        c->part[b0 / BLOCK] = e2;
    }
}

static lcp_status jacobi_sweep(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    jacobi_ctx *c = vctx;
    (void)k;
    (void)row;
    c->z = z;
    c->solo += lcp_pool_run_adaptive(c->pool, jacobi_task, c);
    double e2 = 0.0;
    for (int b = 0; b < (c->P->m + BLOCK - 1) / BLOCK; b++) e2 += c->part[b];
    est->e2 = e2;                                 /* ||r(z^k)||_2^2, z^k kept in zold */
    est->prev = c->zold;
    return LCP_OK;
}

/* lambda_max of D^-1/2 A D^-1/2 by power iteration (A symmetric positive semi-definite):
 * x <- S x / ||S x||, lambda = x^T S x.  Uses c->w and c->zold as workspace. */
static double jacobi_lambda_max(jacobi_ctx *c)
{
    const lcp_problem *P = c->P;
    int m = P->m;
    double *x = c->zold, *y = c->w, lambda = 0.0;
    uint64_t s = 12345;
    for (int i = 0; i < m; i++) x[i] = 1.0 + 0.1 * lcp_rng_uniform(&s);
    for (int it = 0; it < 50; it++) {
        double nx = 0.0;
        for (int i = 0; i < m; i++) nx += x[i] * x[i];
        nx = sqrt(nx);
        if (!(nx > 0.0)) break;
        for (int i = 0; i < m; i++) x[i] /= nx * sqrt(c->d[i]);   /* x <- D^-1/2 x / ||x|| */
        /* y = A D^-1/2 x (matrix-free: c->t and c->u, 2n doubles) */
        lcp_product(P, x, y, c->t, 2 * (size_t)P->n, c->mf);
        lambda = 0.0;
        for (int i = 0; i < m; i++) {
            y[i] /= sqrt(c->d[i]);                               /* y = S x */
            lambda += y[i] * x[i] * sqrt(c->d[i]);               /* x^T S x, ||x|| = 1 */
        }
        memcpy(x, y, (size_t)m * sizeof(double));
    }
    return lambda;
}

lcp_status lcp_solve_jacobi(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    jacobi_ctx c = {.P = P, .omega = opt->omega};
    lcp_status st = LCP_OK;
    lcp_form form = opt->form;
    if (form == LCP_FORM_AUTO)
        form = lcp_problem_has_factors(P) ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
    if (form == LCP_FORM_MATRIX_FREE && !lcp_problem_has_factors(P)) st = LCP_ERR_NEEDS_FACTORS;
    if (!opt->omega_auto && !(opt->omega > 0.0 && opt->omega < 2.0)) st = LCP_ERR_ARG;
    int T = lcp_threads(opt);              /* options.threads, or the free cores (auto) */
    if (T < 1 || T > MAX_THREADS) st = LCP_ERR_ARG;
    c.mf = form == LCP_FORM_MATRIX_FREE;
    c.w = lcp_malloc((size_t)P->m, sizeof(double));
    c.zold = lcp_malloc((size_t)P->m, sizeof(double));
    c.part = lcp_malloc((size_t)P->m / BLOCK + 1, sizeof(double));
    if (c.mf) {
        c.t = lcp_malloc(2 * (size_t)P->n + 1, sizeof(double));
        c.u = c.t ? c.t + P->n : NULL;
    }
    if (st == LCP_OK && (!c.w || !c.zold || !c.part || (c.mf && !c.t)))
        st = LCP_ERR_NOMEM;
    if (st == LCP_OK && !c.mf && !P->A.p) st = LCP_ERR_NEEDS_ASSEMBLED;
    if (st == LCP_OK) {              /* a_ii as pgs: A's, or J_i . (J Minv)_i + E_i (rowop.c) */
        lcp_rowop op;
        st = lcp_rowop_init(&op, P, form);
        if (st == LCP_OK) {
            c.d = op.diag;                                    /* kept; B and u freed */
            op.diag = NULL;
        }
        lcp_rowop_free(&op);                                  /* before J^T: a lower peak */
    }
    if (st == LCP_OK && c.mf) st = lcp_csr_transpose(&P->J, &c.JT);
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(c.d[i] > 0.0)) {
            st = LCP_ERR_ZERO_DIAG;
            info->row = i;
        }
    if (st == LCP_OK && opt->omega_auto) {
        double lambda = P->m > 0 ? jacobi_lambda_max(&c) : 1.0;
        if (!(lambda > 0.0) || !isfinite(lambda)) st = LCP_ERR_BREAKDOWN;
        else c.omega = 1.0 / lambda;
    }
    if (st == LCP_OK) st = lcp_pool_start(&c.pool, T);  /* once per solve */
    if (st == LCP_OK) lcp_pool_set_adapt(c.pool, !opt->threads_fixed);
    if (st == LCP_OK) {
        info->form = form;
        info->omega = c.omega;
        info->threads = T;
        st = lcp_iterate_fused(P, opt, jacobi_sweep, &c, z, info);
        info->omega = c.omega;
        info->solo_sweeps = c.solo;
    }
    lcp_pool_stop(c.pool);
    lcp_csr_free(&c.JT);
    lcp_free(c.part);
    lcp_free(c.d);
    lcp_free(c.w);
    lcp_free(c.zold);
    lcp_free(c.t);
    info->status = st;
    return st;
}
