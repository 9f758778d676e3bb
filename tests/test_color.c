/* test_color.c: the parallel solvers (pgs-color, threaded jacobi) on instance folders given
 * as arguments (the canonical scene instances) and on generated contact problems.
 *   - the colouring is valid: every row once, ordered within a colour by the first column of
 *     J_i (matrix-free; the first body of the row), then by row, and no two rows of
 *     one colour share a column of J or of B = J Minv (matrix-free), are coupled through A
 *     (assembled) or through findex;
 *   - pgs-color after 40 sweeps equals, bit for bit, serial `pgs' with the ordering `perm'
 *     = the rows colour by colour (a serial implementation of the same coloured order), on
 *     1, 2, 3 and 4 threads, in both forms;
 *   - pgs-color to a tolerance (1e-7, cap 500) stops after the same sweeps on 1 to 4 threads;
 *   - jacobi after 25 sweeps is bit-identical on 1 to 4 threads and equal to a serial
 *     Jacobi written here from the formula with the library's CSR products. */
#include "lcp_internal.h"
#include "tap.h"
#include "testprob.h"

#include <string.h>

static const char *base(const char *path, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/') buf[--n] = 0;
    const char *s = strrchr(buf, '/');
    return s ? s + 1 : buf;
}

/* the order within a colour, written out: matrix-free, by the first column of J_i (the
 * row's first body), then by row; assembled, by row.  < 0 when row a comes before row b */
static int key(const lcp_problem *P, int mf, int a, int b)
{
    if (mf) {
        int ka = P->J.p[a] < P->J.p[a + 1] ? P->J.j[P->J.p[a]] : P->n;
        int kb = P->J.p[b] < P->J.p[b + 1] ? P->J.j[P->J.p[b]] : P->n;
        if (ka != kb) return ka < kb ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

/* 1 when the colouring is a valid partition with no conflict inside a colour */
static int color_valid(const lcp_problem *P, const lcp_csr *B, int mf, int nc, const int *cp,
                       const int *rows, char *why, size_t len)
{
    int m = P->m, ncol = mf ? P->n : m, ok_ = 1;
    int *seen = calloc((size_t)m + 1, sizeof(int)), *col = malloc(((size_t)ncol + 1) * sizeof(int));
    int *color = malloc(((size_t)m + 1) * sizeof(int));
    if (cp[0] != 0 || cp[nc] != m) {
        snprintf(why, len, "colour pointers 0..%d, want 0..%d", cp[nc], m);
        ok_ = 0;
    }
    for (int c = 0; ok_ && c < nc; c++)
        for (int t = cp[c]; t < cp[c + 1]; t++) {
            int i = rows[t];
            if (i < 0 || i >= m || seen[i]++) {
                snprintf(why, len, "row %d repeated or out of range", i);
                ok_ = 0;
                break;
            }
            if (t > cp[c] && !(key(P, mf, rows[t - 1], i) < 0)) {
                snprintf(why, len, "rows %d, %d of colour %d out of order (first column, then "
                         "row)", rows[t - 1], i, c);
                ok_ = 0;
                break;
            }
            color[i] = c;
        }
    for (int c = 0; ok_ && c < nc; c++) {
        for (int j = 0; j < ncol; j++) col[j] = -1;
        for (int t = cp[c]; ok_ && t < cp[c + 1]; t++) {
            int i = rows[t];
            const lcp_csr *S[2] = {mf ? &P->J : &P->A, mf ? B : NULL};
            for (int s = 0; s < 2 && S[s]; s++)
                for (int k = S[s]->p[i]; ok_ && k < S[s]->p[i + 1]; k++) {
                    int j = S[s]->j[k];
                    if (mf && col[j] >= 0 && col[j] != i) {
                        snprintf(why, len, "rows %d and %d of colour %d share column %d",
                                 col[j], i, c, j);
                        ok_ = 0;
                    }
                    if (mf) col[j] = i;
                    else if (j != i && color[j] == c) {
                        snprintf(why, len, "rows %d and %d of colour %d coupled (a_ij != 0)",
                                 i, j, c);
                        ok_ = 0;
                    }
                }
            if (ok_ && P->findex && P->findex[i] >= 0 && color[P->findex[i]] == c) {
                snprintf(why, len, "row %d and its normal row %d share colour %d", i,
                         P->findex[i], c);
                ok_ = 0;
            }
        }
    }
    free(seen);
    free(col);
    free(color);
    return ok_;
}

/* serial projected Jacobi from the formula, sweeps sweeps from lcp_start's point */
static void jacobi_ref(const lcp_problem *P, int mf, double omega, int sweeps, double *z)
{
    lcp_options o;
    lcp_options_default(&o);
    int m = P->m;
    double *w = malloc(((size_t)m + 1) * sizeof(double)), *zo = malloc(((size_t)m + 1) * sizeof(double));
    double *d = malloc(((size_t)m + 1) * sizeof(double));
    double *t = malloc(((size_t)P->n + 1) * sizeof(double)), *u = malloc(((size_t)P->n + 1) * sizeof(double));
    lcp_csr_diag(&P->A, d);
    lcp_start(P, &o, z);
    for (int k = 0; k < sweeps; k++) {
        if (mf) {
            lcp_csr_matvec_t(&P->J, z, t);                   /* w = J Minv J^T z + E z + q */
            lcp_csr_matvec(&P->Minv, t, u);
            lcp_csr_matvec(&P->J, u, w);
            for (int i = 0; i < m; i++) w[i] += (P->E ? P->E[i] * z[i] : 0.0) + P->q[i];
        } else {
            lcp_csr_matvec(&P->A, z, w);                     /* w = A z + q */
            for (int i = 0; i < m; i++) w[i] += P->q[i];
        }
        memcpy(zo, z, (size_t)m * sizeof(double));
        for (int i = 0; i < m; i++) {
            double lo, hi;
            lcp_bounds(P, zo, i, &lo, &hi);
            z[i] = lcp_mid(lo, zo[i] - omega * w[i] / d[i], hi);
        }
    }
    free(w);
    free(zo);
    free(d);
    free(t);
    free(u);
}

static void check_problem(const char *name, const lcp_problem *P)
{
    const lcp_solver *pgs = lcp_solver_find("pgs"), *col = lcp_solver_find("pgs-color");
    const lcp_solver *jac = lcp_solver_find("jacobi");
    int m = P->m;
    size_t bytes = ((size_t)m + 1) * sizeof(double);
    double *zr = calloc((size_t)m + 1, sizeof(double)), *zt = calloc((size_t)m + 1, sizeof(double));
    for (int mf = lcp_problem_has_factors(P) ? 1 : 0; mf >= 0; mf--) {
        const char *fn = mf ? "matrix-free" : "assembled";
        lcp_rowop op;
        int nc = 0, *cp = NULL, *rows = NULL;
        char why[256] = "";
        lcp_status st = lcp_rowop_init(&op, P, mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED);
        if (st == LCP_OK) st = lcp_color_rows(P, &op.B, mf, &nc, &cp, &rows);
        ok(st == LCP_OK && color_valid(P, &op.B, mf, nc, cp, rows, why, sizeof why),
           "pgs-color/%s/%s: colouring valid (%d colours for %d rows)", name, fn, nc, m);
        if (why[0]) tap_diag("%s", why);
        lcp_options o;
        lcp_options_default(&o);
        o.form = mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        o.tol = -1.0;
        o.max_iter = 40;
        o.order = LCP_ORDER_PERM;
        o.perm = rows;
        lcp_info info;
        lcp_solve(pgs, P, &o, zr, &info);                    /* the serial coloured order */
        o.order = LCP_ORDER_NATURAL;
        o.perm = NULL;
        int its[5] = {0};
        for (int T = 1; T <= 4; T++) {
            o.threads = T;
            o.tol = -1.0;
            memset(zt, 0xff, bytes);
            lcp_status s = lcp_solve(col, P, &o, zt, &info);
            ok(s >= 0 && memcmp(zt, zr, (size_t)m * sizeof(double)) == 0 &&
               info.threads == T && info.colors == nc,
               "pgs-color/%s/%s/threads=%d: 40 sweeps bit-identical to serial pgs in the "
               "coloured order", name, fn, T);
            o.tol = 1e-7;
            o.max_iter = 500;
            lcp_solve(col, P, &o, zt, &info);
            its[T] = info.iterations;
            o.max_iter = 40;
        }
        ok(its[2] == its[1] && its[3] == its[1] && its[4] == its[1],
           "pgs-color/%s/%s: sweeps to 1e-7 (cap 500) the same on 1 to 4 threads "
           "(%d %d %d %d)", name, fn, its[1], its[2], its[3], its[4]);
        /* jacobi */
        o.max_iter = 25;
        o.tol = -1.0;
        jacobi_ref(P, mf, 1.0, 25, zr);
        for (int T = 1; T <= 4; T++) {
            o.threads = T;
            memset(zt, 0xff, bytes);
            lcp_solve(jac, P, &o, zt, &info);
            ok(info.iterations == 25 && memcmp(zt, zr, (size_t)m * sizeof(double)) == 0 &&
               info.threads == T,
               "jacobi/%s/%s/threads=%d: 25 sweeps bit-identical to a serial Jacobi", name,
               fn, T);
        }
        lcp_rowop_free(&op);
        free(cp);
        free(rows);
    }
    free(zr);
    free(zt);
}

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        lcp_problem P;
        char msg[512], nb[512];
        if (lcp_read_instance(argv[a], &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "read %s", argv[a]);
            tap_diag("%s", msg);
            continue;
        }
        check_problem(base(argv[a], nb, sizeof nb), &P);
        lcp_problem_free(&P);
    }
    struct { const char *name; int d, nb, nc, fr; } gen[] = {
        {"random-2d-friction-m600", 3, 120, 200, 1},
        {"random-3d-friction-m900", 6, 150, 300, 2},
        {"random-3d-m500", 6, 100, 500, 0},
    };
    for (size_t g = 0; g < sizeof gen / sizeof gen[0]; g++) {
        lcp_problem P;
        if (tp_contact(&P, gen[g].d, gen[g].nb, gen[g].nc, gen[g].fr, 0.5, 0.01, 7 + g) != 0) {
            ok(0, "generate %s", gen[g].name);
            continue;
        }
        check_problem(gen[g].name, &P);
        lcp_problem_free(&P);
    }
    return tap_done();
}
