/* pgs.c: projected Gauss-Seidel and SOR (`pgs`), lcp/README.md, "Solvers".
 *
 * Row by row in the chosen order, with the newest z:
 *     r_i = (A z + q)_i
 *     z_i <- mid(lo_i, z_i - omega r_i / a_ii, hi_i)      (friction bounds from the newest z)
 * omega = 1 is PGS; 1 < omega < 2 over-relaxes (ODE's default 1.3).
 * Forms: assembled (CSR A, O(nnz(A)) per sweep) or matrix-free (J, Minv, E with
 * u = Minv J^T z; r_i = J_i u + E_i z_i + q_i; u += Minv J_i^T dz; O(nnz(J) + nnz(B)) per
 * sweep) through the shared row operator: both give the same iterates to rounding.
 * Matrix-free from LCP_STREAM_MIN_ROWS rows, when u is reached at random (lcp_stream_pays),
 * the rows are swept from the streaming layout (stream.c): the same iterates bit for bit,
 * from one array in sweep order with u's bodies renumbered.  The layout is pgs's setup
 * (lcp_prepare: built once, read by any number of solves, each with its own u); a solve
 * given none, or one built for other options (omega, the form, the order laid out and its
 * perm or rowkey), builds its own as it starts.
 * precision = float32 (a variant, lcp/README.md "float32 storage"): the matrix-free form
 * with J's and B's values rounded to float32 once, at set-up (the plain rows: float copies
 * of J.x and B.x, B's doubles freed; the layout: B's values two to a word, J's from a float
 * copy); each product is taken in double ((double)J_ic u_c, dz (double)B_ic), so the sums,
 * u, z and a_ii = J_i . B_i + E_i (from the float64 data) stay double.  The iteration is
 * then PGS on A32 = J32 B32^T + E, whose fixed point is off A's by about the unit roundoff
 * 2^-24 = 6e-8 times |J| |B| |z|; on data exact in float32 the iterates are float64's bit
 * for bit (tests/library/test_float32.c).  Bytes a row: 8 instead of 12 an entry of J and B.
 * Needs a_ii > 0 on every row (else LCP_ERR_ZERO_DIAG naming the row).
 * Stopping test fused into the sweep (iterate.c): each row adds its natural-map residual
 * as visited, rho_i = z_i - mid(lo_i, z_i - r_i, hi_i), one mid and one multiply-add.
 * Sources: Lacoursiere 2013 notes (Alg. 2.1, 2.2); ODE quickstep (SOR-LCP).
 */
#include "lcp_internal.h"
#include "solvers.h"
#include "stream.h"

#include <string.h>

typedef struct pgs_ctx {
    const lcp_problem *P;
    lcp_rowop op;
    lcp_orderer ord;
    double omega;
    double *step;   /* m: omega / a_ii */
    int streamed;   /* the matrix-free rows swept from the streaming layout (stream.c) */
    float *jf, *bf; /* precision float32, plain rows: J's and B's values (B.x freed) */
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
    const float *jf = c->jf, *bf = c->bf;
    for (int t = 0; t < P->m; t++) {
        int i = natural ? t : perm[t];
        double lo, hi;
        lcp_row_bounds(P, z, i, &lo, &hi);
        double r = P->q[i];                                           /* r_i = (A z + q)_i */
        if (mf) {
            const lcp_csr *J = &P->J;
            if (mf == 2)                                              /* float32 J_i */
                for (int k = J->p[i]; k < J->p[i + 1]; k++) r += (double)jf[k] * op->u[J->j[k]];
            else
                for (int k = J->p[i]; k < J->p[i + 1]; k++) r += J->x[k] * op->u[J->j[k]];
            if (P->E) r += P->E[i] * z[i];
        } else {
            const lcp_csr *A = &P->A;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) r += A->x[k] * z[A->j[k]];
        }
        double rho = z[i] - lcp_mid(lo, z[i] - r, hi);               /* row i as visited */
        e2 += rho * rho;
        double zi = lcp_mid(lo, z[i] - c->step[i] * r, hi);   /* z_i - omega r_i / a_ii */
        if (mf == 2) {                                                /* u += B32_i^T dz */
            double dz = zi - z[i];
            if (dz != 0.0)
                for (int k = op->B.p[i]; k < op->B.p[i + 1]; k++)
                    op->u[op->B.j[k]] += dz * (double)bf[k];
        } else if (mf)
            lcp_rowop_update(op, i, zi - z[i]);                       /* u += B_i^T dz */
        z[i] = zi;
    }
    return e2;
}

/* u = B32^T z, the sums of lcp_rowop_reset in its order */
static void reset_f32(pgs_ctx *c, const double *z)
{
    const lcp_csr *B = &c->op.B;
    memset(c->op.u, 0, (size_t)B->ncol * sizeof(double));
    for (int i = 0; i < B->nrow; i++)
        for (int k = B->p[i]; k < B->p[i + 1]; k++) c->op.u[B->j[k]] += (double)c->bf[k] * z[i];
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
    if (k == 1) {                                         /* u = Minv J^T z at the start */
        if (c->bf) reset_f32(c, z);
        else lcp_rowop_reset(&c->op, z);
    }
    const int *perm = lcp_order_next(&c->ord, k, z);
    est->e2 = c->bf ? pgs_rows(c, perm, z, 2) : c->op.mf ? pgs_rows(c, perm, z, 1)
                                                          : pgs_rows(c, perm, z, 0);
    return LCP_OK;
}

/* The orders whose permutation the records are laid out in (the others visit the natural
 * layout: symmetric both ways, random, random8, error and ode8 through the offsets). */
static int laid_out(lcp_order o)
{
    return o == LCP_ORDER_REVERSE || o == LCP_ORDER_MASS || o == LCP_ORDER_PERM ||
           o == LCP_ORDER_HEIGHT;
}

/* The streamed sweep takes its rows from the orderer (pgs_sweep's dir 0). */
static int visits_by_orderer(lcp_order o)
{
    return o != LCP_ORDER_NATURAL && o != LCP_ORDER_SYMMETRIC && !laid_out(o);
}

/* 1 when the solve sweeps from the streaming layout: the matrix-free form, and layout > 0,
 * or layout < 0 from LCP_STREAM_MIN_ROWS rows where it pays (lcp_stream_pays) */
static int takes_layout(const lcp_problem *P, const lcp_options *opt, int layout)
{
    if (!lcp_problem_has_factors(P) || !lcp_rowop_mf(P, opt->form)) return 0;
    return layout > 0 || (layout < 0 && P->m >= LCP_STREAM_MIN_ROWS && lcp_stream_pays(P));
}

/* what fixes a laid-out order besides its kind: options.perm (perm) or options.rowkey
 * (height), *bytes long; NULL otherwise */
static const void *order_key(const lcp_problem *P, const lcp_options *opt, size_t *bytes)
{
    *bytes = 0;
    if (opt->order == LCP_ORDER_PERM) *bytes = (size_t)P->m * sizeof(int);
    if (opt->order == LCP_ORDER_HEIGHT) *bytes = (size_t)P->m * sizeof(double);
    return opt->order == LCP_ORDER_PERM ? (const void *)opt->perm
                                        : opt->order == LCP_ORDER_HEIGHT ? (const void *)opt->rowkey
                                                                         : NULL;
}

/* The row operator, the steps and the order: omega in (0, 2), a_ii > 0 (else *row), a
 * valid order. */
static lcp_status pgs_init(pgs_ctx *c, const lcp_problem *P, const lcp_options *opt, int *row)
{
    c->P = P;
    c->omega = opt->omega;
    if (!(opt->omega > 0.0 && opt->omega < 2.0)) return LCP_ERR_ARG;
    if (opt->precision != LCP_PRECISION_FLOAT64) {   /* float32: the matrix-free form only */
        if (opt->precision != LCP_PRECISION_FLOAT32) return LCP_ERR_ARG;
        if (!lcp_rowop_mf(P, opt->form)) return opt->form == LCP_FORM_AUTO ? LCP_ERR_NEEDS_FACTORS
                                                                           : LCP_ERR_ARG;
    }
    lcp_status st = lcp_rowop_init(&c->op, P, opt->form);
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(c->op.diag[i] > 0.0)) {
            st = LCP_ERR_ZERO_DIAG;
            *row = i;
        }
    if (st == LCP_OK && !(c->step = lcp_malloc((size_t)P->m, sizeof(double)))) st = LCP_ERR_NOMEM;
    for (int i = 0; st == LCP_OK && i < P->m; i++) c->step[i] = opt->omega / c->op.diag[i];
    if (st == LCP_OK) st = lcp_order_init(&c->ord, P, opt, c->op.diag);
    return st;
}

/* precision float32, plain rows: J's and B's values as floats, B's doubles freed */
static lcp_status pgs_to_float32(pgs_ctx *c)
{
    const lcp_csr *J = &c->P->J;
    lcp_csr *B = &c->op.B;
    c->jf = lcp_malloc((size_t)LCP_CSR_NNZ(J) + 1, sizeof(float));
    c->bf = lcp_malloc((size_t)LCP_CSR_NNZ(B) + 1, sizeof(float));
    if (!c->jf || !c->bf) return LCP_ERR_NOMEM;
    for (int k = 0; k < LCP_CSR_NNZ(J); k++) c->jf[k] = (float)J->x[k];  /* round to nearest */
    for (int k = 0; k < LCP_CSR_NNZ(B); k++) c->bf[k] = (float)B->x[k];
    lcp_free(B->x);
    B->x = NULL;
    return LCP_OK;
}

static void pgs_free(pgs_ctx *c)
{
    lcp_free(c->jf);
    lcp_free(c->bf);
    c->jf = c->bf = NULL;
    lcp_order_free(&c->ord);
    lcp_rowop_free(&c->op);
    lcp_free(c->step);
    c->step = NULL;
}

/* What pgs's setup makes (lcp_prepare): the streaming layout and what fixed its records,
 * so that a solve whose options would lay out other records builds its own (lcp.h,
 * options.prepared).  A solve only reads it: u, the orderer and z are the solve's. */
typedef struct pgs_prep {
    unsigned tag;         /* LCP_PREP_PGS */
    double omega;         /* the records' steps are omega / a_ii */
    lcp_order order;      /* the order laid out (reverse, mass, perm, height) or natural */
    void *key;            /* a copy of options.perm (perm) or options.rowkey (height), or NULL */
    size_t key_bytes;
    double build_time;    /* seconds of lcp_stream_build */
    lcp_stream st;        /* without u */
} pgs_prep;

static void pgs_prep_free(pgs_prep *pp)
{
    if (!pp) return;
    lcp_stream_free(&pp->st);
    lcp_free(pp->key);
    lcp_free(pp);
}

/* The layout for P and opt when the solve takes it (takes_layout), else *out = NULL; also
 * NULL when the layout cannot hold P (lcp_stream_build's LCP_ERR_ARG: the solve then sweeps
 * the plain rows, building the row operator again).  The row operator's u and a_ii are
 * freed before the layout is built and its B, the steps and the order after (the records
 * hold them), to keep the peak low. */
static lcp_status pgs_prepare(const lcp_problem *P, const lcp_options *opt, int layout,
                              pgs_prep **out, int *row)
{
    *out = NULL;
    if (!takes_layout(P, opt, layout)) return LCP_OK;
    pgs_ctx c = {.P = P};
    lcp_status st = pgs_init(&c, P, opt, row);
    pgs_prep *pp = st == LCP_OK ? lcp_calloc(1, sizeof *pp) : NULL;
    if (st == LCP_OK && !pp) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        lcp_free(c.op.u);
        lcp_free(c.op.diag);
        c.op.u = NULL;
        c.op.diag = NULL;
        double t0 = lcp_seconds();
        st = lcp_stream_build_as(&pp->st, P, &c.op.B, c.step,
                                 laid_out(opt->order) ? c.ord.perm : NULL, 0,
                                 opt->precision == LCP_PRECISION_FLOAT32);
        pp->build_time = lcp_seconds() - t0;
    }
    pgs_free(&c);
    int cannot_hold = pp && st == LCP_ERR_ARG;
    const void *key = st == LCP_OK ? order_key(P, opt, &pp->key_bytes) : NULL;
    if (key && !(pp->key = lcp_malloc(pp->key_bytes, 1))) st = LCP_ERR_NOMEM;
    if (st != LCP_OK) {
        pgs_prep_free(pp);
        return cannot_hold ? LCP_OK : st;
    }
    if (key) memcpy(pp->key, key, pp->key_bytes);
    lcp_free(pp->st.u);                                        /* each solve has its own */
    pp->st.u = NULL;
    pp->tag = LCP_PREP_PGS;
    pp->omega = opt->omega;
    pp->order = laid_out(opt->order) ? opt->order : LCP_ORDER_NATURAL;
    *out = pp;
    return LCP_OK;
}

/* 1 when the solve of P with opt would lay out the records pp holds */
static int pgs_fits(const pgs_prep *pp, const lcp_problem *P, const lcp_options *opt)
{
    size_t bytes;
    const void *key = order_key(P, opt, &bytes);
    const lcp_stream *s = &pp->st;
    return pp->tag == LCP_PREP_PGS && pp->omega == opt->omega && takes_layout(P, opt, 1) &&
           s->f32 == (opt->precision == LCP_PRECISION_FLOAT32) &&
           s->m == P->m && s->n == P->J.ncol && s->jx == P->J.x && s->q == P->q &&
           s->lo == P->lo && s->hi == P->hi && s->E == P->E &&
           pp->order == (laid_out(opt->order) ? opt->order : LCP_ORDER_NATURAL) &&
           pp->key_bytes == bytes && (!bytes || (key && memcmp(pp->key, key, bytes) == 0));
}

/* sweeps from the layout pp (read only): u and the orderer are the solve's own */
static lcp_status pgs_run_layout(const pgs_prep *pp, const lcp_problem *P,
                                 const lcp_options *opt, double *z, lcp_info *info)
{
    pgs_ctx c = {.P = P, .omega = opt->omega, .streamed = 1, .st = pp->st};
    c.ord.kind = opt->order;
    lcp_status st = LCP_OK;
    if (!(c.st.u = lcp_calloc((size_t)c.st.n + 1, sizeof(double)))) st = LCP_ERR_NOMEM;
    if (st == LCP_OK && visits_by_orderer(opt->order)) st = lcp_order_init(&c.ord, P, opt, NULL);
    if (st == LCP_OK) {
        info->form = LCP_FORM_MATRIX_FREE;
        info->omega = opt->omega;
        st = lcp_iterate_fused(P, opt, pgs_sweep, &c, z, info);
    }
    lcp_order_free(&c.ord);
    lcp_free(c.st.u);
    return st;
}

/* sweeps the plain rows (assembled, or matrix-free by J and B) */
static lcp_status pgs_run_rows(const lcp_problem *P, const lcp_options *opt, double *z,
                               lcp_info *info)
{
    pgs_ctx c = {.P = P};
    lcp_status st = pgs_init(&c, P, opt, &info->row);
    if (st == LCP_OK && opt->precision == LCP_PRECISION_FLOAT32) st = pgs_to_float32(&c);
    if (st == LCP_OK) {
        info->form = c.op.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        info->omega = opt->omega;
        st = lcp_iterate_fused(P, opt, pgs_sweep, &c, z, info);
    }
    pgs_free(&c);
    return st;
}

/* ---- one plain sweep, for the solvers built over PGS (nncg, pgs-sm) ------------------ */
struct lcp_pgs {
    pgs_ctx c;
};

lcp_status lcp_pgs_open(lcp_pgs **out, const lcp_problem *P, const lcp_options *opt, int *row)
{
    *out = lcp_calloc(1, sizeof **out);
    if (!*out) return LCP_ERR_NOMEM;
    lcp_options o = *opt;                     /* the solvers over PGS sweep in float64 */
    o.precision = LCP_PRECISION_FLOAT64;
    lcp_status st = pgs_init(&(*out)->c, P, &o, row);
    if (st != LCP_OK) {
        lcp_pgs_close(*out);
        *out = NULL;
    }
    return st;
}

double lcp_pgs_sweep(lcp_pgs *s, int k, double *z)
{
    lcp_sweep_est est = {0.0, NULL, 1.0, NAN};
    int row;
    pgs_sweep(&s->c, k, z, &row, &est);
    return est.e2;
}

void lcp_pgs_touch(lcp_pgs *s, const double *z)
{
    lcp_rowop_reset(&s->c.op, z);
}

int lcp_pgs_mf(const lcp_pgs *s)
{
    return s->c.op.mf;
}

void lcp_pgs_close(lcp_pgs *s)
{
    if (!s) return;
    pgs_free(&s->c);
    lcp_free(s);
}

lcp_status lcp_pgs_prepare_layout(const lcp_problem *P, const lcp_options *opt, int layout,
                                  void **data)
{
    if (!data) return LCP_ERR_ARG;
    *data = NULL;
    if (!P || !opt) return LCP_ERR_ARG;
    pgs_prep *pp;
    int row;
    lcp_status st = pgs_prepare(P, opt, layout, &pp, &row);
    *data = pp;
    return st == LCP_ERR_NOMEM ? st : LCP_OK;   /* other errors: the solve reports them */
}

lcp_status lcp_setup_pgs(const lcp_problem *P, const lcp_options *opt, void **data)
{
    return lcp_pgs_prepare_layout(P, opt, -1, data);
}

void lcp_teardown_pgs(void *data)
{
    pgs_prep_free(data);
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
    const pgs_prep *pp = opt->prepared;
    pgs_prep *own = NULL;
    lcp_status st = LCP_OK;
    if (!pp || !pgs_fits(pp, P, opt)) {               /* none given, or made for others */
        double t0 = lcp_seconds();
        st = pgs_prepare(P, opt, layout, &own, &info->row);
        if (own) {
            info->setup_time = lcp_seconds() - t0;
            if (build_time) *build_time = own->build_time;
        }
        pp = own;
    }
    if (st == LCP_OK) st = pp ? pgs_run_layout(pp, P, opt, z, info) : pgs_run_rows(P, opt, z, info);
    pgs_prep_free(own);
    info->status = st;
    return st;
}
