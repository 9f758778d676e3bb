/* pgs.c: projected Gauss-Seidel and SOR (`pgs`), README "Solvers".
 *
 * Row by row in the chosen order, with the newest z:
 *     r_i = (A z + q)_i
 *     z_i <- mid(lo_i, z_i - omega r_i / a_ii, hi_i)      (friction bounds from the newest z)
 * omega = 1 is PGS; 1 < omega < 2 over-relaxes (ODE's default 1.3).
 * Forms: assembled (CSR A, O(nnz(A)) per sweep) or matrix-free (J, Minv, E with
 * u = Minv J^T z; r_i = J_i u + E_i z_i + q_i; u += Minv J_i^T dz; O(nnz(J) + nnz(B)) per
 * sweep) through the shared row operator: both give the same iterates to rounding.
 * Matrix-free from LCP_STREAM_MIN_ROWS rows, when u is reached at random (lcp_stream_pays),
 * the rows are swept from the streaming layout built at the start of the solve (stream.c):
 * the same iterates bit for bit, from one array in sweep order with u's bodies renumbered.
 * Needs a_ii > 0 on every row (else LCP_ERR_ZERO_DIAG naming the row).
 * Stopping test fused into the sweep (iterate.c): each row adds its natural-map residual
 * as visited, rho_i = z_i - mid(lo_i, z_i - r_i, hi_i), one mid and one multiply-add.
 * Sources: Lacoursiere 2013 notes (Alg. 2.1, 2.2); ODE quickstep (SOR-LCP).
 */
#include "lcp_internal.h"
#include "solvers.h"
#include "stream.h"

#include <time.h>

typedef struct pgs_ctx {
    const lcp_problem *P;
    lcp_rowop op;
    lcp_orderer ord;
    double omega;
    double *step;   /* m: omega / a_ii */
    int streamed;   /* the matrix-free rows swept from the streaming layout (stream.c) */
    lcp_stream st;
} pgs_ctx;

/* The rows of one sweep; returns sum rho_i^2, rho_i = z_i - mid(lo_i, z_i - r_i, hi_i)
 * the natural-map residual of row i as visited (the fused stopping test, iterate.c).
 * `mf' is a constant at each call site, so the compiler emits one loop per form with no
 * branch inside (the sweep is within 1.2x of a CSR product). */
static inline __attribute__((always_inline)) double pgs_rows(pgs_ctx *c, const int *perm,
                                                             double *z, const int mf)
{
    double e2 = 0.0;
    const lcp_problem *P = c->P;
    lcp_rowop *op = &c->op;
    const int natural = c->ord.kind == LCP_ORDER_NATURAL;
    for (int t = 0; t < P->m; t++) {
        int i = natural ? t : perm[t];
        double lo, hi;
        lcp_row_bounds(P, z, i, &lo, &hi);
        double r = P->q[i];                                           /* r_i = (A z + q)_i */
        if (mf) {
            const lcp_csr *J = &P->J;
            for (int k = J->p[i]; k < J->p[i + 1]; k++) r += J->x[k] * op->u[J->j[k]];
            if (P->E) r += P->E[i] * z[i];
        } else {
            const lcp_csr *A = &P->A;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) r += A->x[k] * z[A->j[k]];
        }
        double rho = z[i] - lcp_mid(lo, z[i] - r, hi);               /* row i as visited */
        e2 += rho * rho;
        double zi = lcp_mid(lo, z[i] - c->step[i] * r, hi);   /* z_i - omega r_i / a_ii */
        if (mf) lcp_rowop_update(op, i, zi - z[i]);                   /* u += B_i^T dz */
        z[i] = zi;
    }
    return e2;
}

static lcp_status pgs_sweep(void *vctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    pgs_ctx *c = vctx;
    (void)row;
    if (c->streamed) {
        if (k == 1) lcp_stream_reset(&c->st, z);
        int dir = 0;
        switch (c->ord.kind) {
        case LCP_ORDER_NATURAL: case LCP_ORDER_REVERSE: case LCP_ORDER_MASS:
        case LCP_ORDER_PERM: case LCP_ORDER_HEIGHT:
            dir = 1;                                  /* laid out in the sweep's order */
            break;
        case LCP_ORDER_SYMMETRIC:
            dir = k % 2 == 1 ? 1 : -1;
            break;
        default:
            break;
        }
        est->e2 = lcp_stream_sweep(&c->st, z, dir, dir ? NULL : lcp_order_next(&c->ord, k, z));
        return LCP_OK;
    }
    if (k == 1) lcp_rowop_reset(&c->op, z);               /* u = Minv J^T z at the start */
    const int *perm = lcp_order_next(&c->ord, k, z);
    est->e2 = c->op.mf ? pgs_rows(c, perm, z, 1) : pgs_rows(c, perm, z, 0);
    return LCP_OK;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The streaming layout in the order of the sweeps when it is fixed (stream.c).  The row
 * operator's u and a_ii are freed before it is built and its B and the steps after (the
 * records hold them), to keep the peak low.  A problem the layout cannot hold (LCP_ERR_ARG)
 * is swept in the plain form. */
static lcp_status pgs_stream(pgs_ctx *c)
{
    const int *order = NULL;
    switch (c->ord.kind) {
    case LCP_ORDER_REVERSE: case LCP_ORDER_MASS: case LCP_ORDER_PERM: case LCP_ORDER_HEIGHT:
        order = c->ord.perm;
        break;
    default:
        break;
    }
    lcp_free(c->op.u);
    lcp_free(c->op.diag);
    c->op.u = NULL;
    c->op.diag = NULL;
    lcp_status st = lcp_stream_build(&c->st, c->P, &c->op.B, c->step, order);
    if (st == LCP_ERR_ARG) {
        c->op.u = lcp_calloc((size_t)c->P->n, sizeof(double));
        return c->op.u ? LCP_OK : LCP_ERR_NOMEM;
    }
    if (st != LCP_OK) return st;
    c->streamed = 1;
    lcp_csr_free(&c->op.B);
    lcp_free(c->step);
    c->step = NULL;
    return LCP_OK;
}

lcp_status lcp_solve_pgs(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    return lcp_pgs_solve_layout(P, opt, z, info, -1, NULL);
}

lcp_status lcp_pgs_solve_layout(const lcp_problem *P, const lcp_options *opt, double *z,
                                lcp_info *info, int layout, double *build_time)
{
    if (build_time) *build_time = 0.0;
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    pgs_ctx c = {.P = P, .omega = opt->omega};
    lcp_status st = LCP_OK;
    if (!(opt->omega > 0.0 && opt->omega < 2.0)) st = LCP_ERR_ARG;
    if (st == LCP_OK) st = lcp_rowop_init(&c.op, P, opt->form);
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(c.op.diag[i] > 0.0)) {
            st = LCP_ERR_ZERO_DIAG;
            info->row = i;
        }
    if (st == LCP_OK && !(c.step = lcp_malloc((size_t)P->m, sizeof(double)))) st = LCP_ERR_NOMEM;
    for (int i = 0; st == LCP_OK && i < P->m; i++) c.step[i] = opt->omega / c.op.diag[i];
    if (st == LCP_OK) st = lcp_order_init(&c.ord, P, opt, c.op.diag);
    int stream = c.op.mf && (layout > 0 || (layout < 0 && P->m >= LCP_STREAM_MIN_ROWS &&
                                              lcp_stream_pays(P)));
    if (st == LCP_OK && stream) {
        double t0 = seconds();
        st = pgs_stream(&c);
        if (build_time) *build_time = seconds() - t0;
        if (st != LCP_OK) lcp_order_free(&c.ord);
    }
    if (st == LCP_OK) {
        info->form = c.op.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        info->omega = opt->omega;
        st = lcp_iterate_fused(P, opt, pgs_sweep, &c, z, info);
        lcp_order_free(&c.ord);
    }
    lcp_rowop_free(&c.op);
    lcp_stream_free(&c.st);
    lcp_free(c.step);
    info->status = st;
    return st;
}
