/* test_unit.c: the library's building blocks and the properties of the sweep solvers:
 * CSR algebra, the residual, the iteration loop and monitor, matrix-free vs assembled
 * iterates, orderings, determinism, and the error statuses. */
#include "lcp.h"
#include "lcp_internal.h"   /* lcp_residual_work */
#include "tap.h"
#include "testprob.h"

#include <string.h>

/* ---- a monitor that stores every iterate ---- */
typedef struct trace {
    int m, n, cap, bad_order, last;
    double *z;  /* n iterates of m */
} trace;

static void trace_fn(void *ctx, int it, const double *z)
{
    trace *t = ctx;
    if (it != t->last + 1) t->bad_order = 1;
    t->last = it;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->z = realloc(t->z, sizeof(double) * (size_t)t->cap * (size_t)t->m);
    }
    memcpy(t->z + (size_t)t->n * (size_t)t->m, z, sizeof(double) * (size_t)t->m);
    t->n++;
}

static trace run_traced(const lcp_problem *P, const char *solver, lcp_options o, lcp_status *st)
{
    trace t = {.m = P->m, .last = -1};
    o.monitor = trace_fn;
    o.monitor_ctx = &t;
    double *z = calloc((size_t)P->m, sizeof(double));
    lcp_info info;
    *st = lcp_solve(lcp_solver_find(solver), P, &o, z, &info);
    free(z);
    return t;
}

static double max_iterate_diff(const trace *a, const trace *b)
{
    if (a->n != b->n) return INFINITY;
    double d = 0.0, s = 1.0;
    for (size_t k = 0; k < (size_t)a->n * (size_t)a->m; k++) {
        d = fmax(d, fabs(a->z[k] - b->z[k]));
        s = fmax(s, fabs(a->z[k]));
    }
    return d / s;
}

static void test_csr(void)
{
    /* A = [1 2 0; 0 3 4], duplicates summed, columns sorted */
    int ti[] = {0, 1, 0, 1, 0}, tj[] = {1, 2, 0, 1, 1};
    double tx[] = {1, 4, 1, 3, 1};
    lcp_csr A = {0}, T = {0}, C = {0};
    lcp_csr_from_triplets(&A, 2, 3, 5, ti, tj, tx);
    ok(LCP_CSR_NNZ(&A) == 4 && A.j[0] == 0 && A.j[1] == 1 && A.x[1] == 2.0,
       "csr/triplets-sum-duplicates-sort");
    double x[] = {1, 1, 1}, y[2], yt[3], one[] = {1, 1};
    lcp_csr_matvec(&A, x, y);
    ok(y[0] == 3 && y[1] == 7, "csr/matvec");
    lcp_csr_matvec_t(&A, one, yt);
    ok(yt[0] == 1 && yt[1] == 5 && yt[2] == 4, "csr/matvec-transpose");
    lcp_csr_transpose(&A, &T);
    lcp_csr_multiply(&A, &T, &C); /* A A^T = [5 6; 6 25] */
    ok(LCP_CSR_NNZ(&C) == 4 && C.x[0] == 5 && C.x[1] == 6 && C.x[2] == 6 && C.x[3] == 25,
       "csr/multiply-A-At");
    ok(lcp_csr_is_symmetric(&C) && !lcp_csr_is_symmetric(&A), "csr/is-symmetric");
    lcp_csr_free(&T);                  /* a pattern (x NULL) transposes to a pattern */
    lcp_csr pat = {.nrow = A.nrow, .ncol = A.ncol, .p = A.p, .j = A.j, .x = NULL};
    ok(lcp_csr_transpose(&pat, &T) == LCP_OK && !T.x && T.nrow == 3 && LCP_CSR_NNZ(&T) == 4 &&
           T.p[1] == 1 && T.p[2] == 3 && T.j[0] == 0 && T.j[1] == 0 && T.j[2] == 1 &&
           T.j[3] == 1,
       "csr/transpose-pattern");
    lcp_csr_free(&A);
    lcp_csr_free(&T);
    lcp_csr_free(&C);
    int bad_i[] = {2};
    ok(lcp_csr_from_triplets(&A, 2, 2, 1, bad_i, bad_i, tx) == LCP_ERR_ARG,
       "csr/triplet-out-of-range-refused");

    lcp_problem P;
    tp_contact(&P, 6, 10, 20, 2, 0.5, 0.01, 5);
    lcp_csr D = {0};
    lcp_csr_jmjt(&P.J, &P.Minv, P.E, &D);
    double *zz = malloc(sizeof(double) * (size_t)P.m), *a = malloc(sizeof(double) * (size_t)P.m),
           *b = malloc(sizeof(double) * (size_t)P.m), *t = malloc(sizeof(double) * (size_t)P.n),
           *u = malloc(sizeof(double) * (size_t)P.n);
    uint64_t s = 3;
    for (int i = 0; i < P.m; i++) zz[i] = tp_unif(&s);
    lcp_csr_matvec(&D, zz, a);
    lcp_csr_matvec_t(&P.J, zz, t);
    lcp_csr_matvec(&P.Minv, t, u);
    lcp_csr_matvec(&P.J, u, b);
    double err = 0.0;
    for (int i = 0; i < P.m; i++) err = fmax(err, fabs(a[i] - b[i] - P.E[i] * zz[i]));
    ok(err < 1e-13 && lcp_csr_is_symmetric(&D), "csr/jmjt-equals-factors-and-symmetric");
    free(zz);
    free(a);
    free(b);
    free(t);
    free(u);
    lcp_csr_free(&D);
    lcp_problem_free(&P);
}

static void test_residual(void)
{
    /* A = [2 1; 1 2], q = (-1, 3): z = (0.5, 0) exact; z = (1, 1): w = (2, 6), r = min(z, w) */
    double A[] = {2, 1, 1, 2}, q[] = {-1, 3};
    lcp_problem P;
    tp_dense(&P, 2, A, q, NULL, NULL, NULL);
    double z[] = {0.5, 0}, w[2];
    lcp_residuals R;
    lcp_residual(&P, z, w, &R);
    ok(R.r2 == 0.0 && w[0] == 0.0 && w[1] == 3.5, "residual/exact-solution-zero");
    double z2[] = {1, 1};
    lcp_residual(&P, z2, w, &R);
    ok_close(R.r2, sqrt(2.0), 1e-15, "residual/natural-map-min-z-w");
    ok_close(R.rinf, 1.0, 1e-15, "residual/inf-norm");
    ok_close(R.rel, sqrt(2.0) / sqrt(10.0), 1e-15, "residual/relative-to-q");
    /* row-wise: r = (1, 1) against (|A||z|)_i + |q_i| = (3 + 1, 3 + 3): max(1/4, 1/6) */
    ok(lcp_residual_rowwise(&P, z2, w) == 0.25, "residual/rowwise-by-hand: %.17g",
       lcp_residual_rowwise(&P, z2, w));
    lcp_residual(&P, z, w, &R);
    ok(lcp_residual_rowwise(&P, z, w) == 0.0, "residual/rowwise-exact-zero");
    double z3[] = {-1, 0.5};
    lcp_residual(&P, z3, w, &R);
    ok_close(R.infeas, 1.0, 1e-15, "residual/infeasibility");
    double znan[] = {NAN, 0};
    lcp_residual(&P, znan, w, &R);
    ok(!isfinite(R.r2), "residual/nan-never-hides");
    lcp_problem_free(&P);
    /* boxed: lo = -1, hi = 1, z = 1 with w = -3 is optimal; w = +3 is not */
    double A1[] = {1}, q1[] = {-4}, lo[] = {-1}, hi[] = {1}, z1[] = {1}, w1[1];
    tp_dense(&P, 1, A1, q1, lo, hi, NULL);
    lcp_residual(&P, z1, w1, &R);
    ok(R.r2 == 0.0, "residual/box-at-upper-bound");
    P.q[0] = 2.0;
    lcp_residual(&P, z1, w1, &R);
    ok_close(R.r2, 2.0, 1e-15, "residual/box-wrong-side");
    lcp_problem_free(&P);
    /* z = 0 (a cold start) takes no product: w = q, r_i = -mid(lo_i, -q_i, hi_i) with the
     * friction rows' bounds 0, the same in both forms */
    for (int form = 0; form < 2; form++) {
        tp_contact(&P, 6, 25, 60, 2, 0.6, 0.02, 21);
        if (form) lcp_csr_free(&P.A);                  /* matrix-free: J, Minv, E */
        double *z0 = calloc((size_t)P.m, sizeof(double)), *w0 = malloc((size_t)P.m * sizeof(double));
        double s2 = 0.0, sinf = 0.0;
        int wq = 1;
        lcp_residual(&P, z0, w0, &R);
        for (int i = 0; i < P.m; i++) {
            int fr = P.findex && P.findex[i] >= 0;
            double r = fr ? 0.0 : -fmax(P.lo[i], fmin(-P.q[i], P.hi[i]));
            s2 += r * r;
            sinf = fmax(sinf, fabs(r));
            wq &= w0[i] == P.q[i];
        }
        if (form) ok(isnan(lcp_residual_rowwise(&P, z0, w0)), "residual/rowwise-needs-A");
        ok(wq && R.r2 == sqrt(s2) && R.rinf == sinf && R.r2 > 0.0,
           "residual/cold-start-%s: w = q, r2 %.17g (expected %.17g)",
           form ? "matrix-free" : "assembled", R.r2, sqrt(s2));
        free(z0);
        free(w0);
        lcp_problem_free(&P);
    }
}

/* Minv with one entry (r, c) of value v added (rebuilt from its triplets) */
static void minv_add(lcp_problem *P, int r, int c, double v)
{
    lcp_csr *M = &P->Minv;
    int nz = M->p[M->nrow] + 1;
    int *ti = malloc(sizeof(int) * (size_t)nz), *tj = malloc(sizeof(int) * (size_t)nz);
    double *tx = malloc(sizeof(double) * (size_t)nz);
    for (int i = 0; i < M->nrow; i++)
        for (int k = M->p[i]; k < M->p[i + 1]; k++) {
            ti[k] = i;
            tj[k] = M->j[k];
            tx[k] = M->x[k];
        }
    ti[nz - 1] = r;
    tj[nz - 1] = c;
    tx[nz - 1] = v;
    lcp_csr C = {0};
    if (lcp_csr_from_triplets(&C, M->nrow, M->ncol, nz, ti, tj, tx) == LCP_OK) {
        lcp_csr_free(M);
        *M = C;
    }
    free(ti);
    free(tj);
    free(tx);
}

/* The factored residual (no A) forms u = Minv t over t when Minv is block diagonal: the
 * same w bit for bit as the three CSR products written out, with n doubles of workspace
 * (2n when Minv is not block diagonal, the products then as before) */
static void test_factored_product(void)
{
    const char *kind[] = {"blocks-6", "blocks-3", "diagonal", "coupled-back", "block-too-wide"};
    for (int c = 0; c < 5; c++) {
        lcp_problem P;
        int d = c == 1 ? 3 : 6;
        tp_contact(&P, d, 25, 60, 2, 0.6, 0.02, 40 + (uint64_t)c);
        lcp_csr_free(&P.A);                                   /* matrix-free: J, Minv, E */
        if (c == 2) {                                         /* Minv's diagonal alone */
            lcp_csr *M = &P.Minv;
            int nz = 0;
            for (int i = 0; i < M->nrow; i++) {
                int k0 = M->p[i];
                M->p[i] = nz;
                for (int k = k0; k < M->p[i + 1]; k++)
                    if (M->j[k] == i) {
                        M->j[nz] = i;
                        M->x[nz++] = M->x[k];
                    }
            }
            M->p[M->nrow] = nz;
        }
        if (c == 3) minv_add(&P, P.n - 1, 0, 0.01);          /* a row reaching back */
        if (c == 4) minv_add(&P, 0, P.n - 1, 0.01);          /* a first block of n > 64 */
        size_t want = (c < 3 ? 1 : 2) * (size_t)P.n;
        uint64_t seed = 7;
        double *z = malloc(sizeof(double) * (size_t)P.m), *w = malloc(sizeof(double) * (size_t)P.m);
        double *wm = malloc(sizeof(double) * (size_t)P.m);
        double *t = malloc(sizeof(double) * (size_t)P.n), *u = malloc(sizeof(double) * (size_t)P.n);
        for (int i = 0; i < P.m; i++) z[i] = tp_unif(&seed);
        lcp_residuals R;
        lcp_residual(&P, z, w, &R);
        lcp_csr_matvec_t(&P.J, z, t);
        lcp_csr_matvec(&P.Minv, t, u);
        lcp_csr_matvec(&P.J, u, wm);
        for (int i = 0; i < P.m; i++) {
            wm[i] += P.E[i] * z[i];
            wm[i] += P.q[i];
        }
        ok(memcmp(w, wm, sizeof(double) * (size_t)P.m) == 0 && lcp_residual_work(&P) == want,
           "residual/factored-product-%s: w bit for bit, workspace %zu doubles (n = %d)",
           kind[c], lcp_residual_work(&P), P.n);
        /* the caller's workspace, exactly lcp_residual_work doubles: the same w and norms */
        size_t nw = lcp_residual_work(&P);
        double *work = malloc(sizeof(double) * nw), *ww = malloc(sizeof(double) * (size_t)P.m);
        lcp_residuals Rw;
        lcp_residual_ws(&P, z, ww, work, nw, &Rw);
        ok(memcmp(ww, w, sizeof(double) * (size_t)P.m) == 0 && memcmp(&Rw, &R, sizeof R) == 0,
           "residual/caller-workspace-%s: lcp_residual_ws = lcp_residual bit for bit", kind[c]);
        free(work);
        free(ww);
        free(z);
        free(w);
        free(wm);
        free(t);
        free(u);
        lcp_problem_free(&P);
    }
}

static void test_loop_and_forms(void)
{
    lcp_problem P;
    tp_contact(&P, 6, 25, 60, 2, 0.6, 0.02, 21);
    lcp_options o;
    lcp_options_default(&o);
    o.tol = -1;
    o.max_iter = 60;
    lcp_status s1, s2;
    const char *solvers[] = {"pgs", "jacobi"};
    for (int k = 0; k < 2; k++) {
        lcp_options oo = o;
        if (k == 1) oo.omega_auto = 1;
        oo.form = LCP_FORM_ASSEMBLED;
        trace a = run_traced(&P, solvers[k], oo, &s1);
        oo.form = LCP_FORM_MATRIX_FREE;
        trace b = run_traced(&P, solvers[k], oo, &s2);
        ok(s1 >= 0 && s2 >= 0 && a.n == 61 && max_iterate_diff(&a, &b) <= 1e-12,
           "%s/assembled-equals-matrix-free-every-iterate", solvers[k]);
        ok(!a.bad_order && a.n == 61, "%s/monitor-sees-0-then-each-sweep", solvers[k]);
        free(a.z);
        free(b.z);
    }
    /* SOR too, and every ordering in both forms */
    for (int ord = LCP_ORDER_NATURAL; ord < LCP_ORDER_PERM; ord++) {
        lcp_options oo = o;
        oo.omega = 1.3;
        oo.order = (lcp_order)ord;
        oo.form = LCP_FORM_ASSEMBLED;
        trace a = run_traced(&P, "pgs", oo, &s1);
        oo.form = LCP_FORM_MATRIX_FREE;
        trace b = run_traced(&P, "pgs", oo, &s2);
        ok(max_iterate_diff(&a, &b) <= 1e-12, "pgs/forms-agree-omega1.3-%s",
           lcp_order_name((lcp_order)ord));
        free(a.z);
        free(b.z);
    }
    lcp_info info;
    double *z = calloc((size_t)P.m, sizeof(double));
    lcp_problem_free(&P);
    /* no factors: matrix-free refused with a status */
    double A[] = {2}, q[] = {-1};
    tp_dense(&P, 1, A, q, NULL, NULL, NULL);
    o.form = LCP_FORM_MATRIX_FREE;
    ok(lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info) == LCP_ERR_NEEDS_FACTORS,
       "pgs/matrix-free-without-factors-refused");
    lcp_problem_free(&P);
    free(z);
}

static void test_orderings(void)
{
    lcp_problem P;
    tp_contact(&P, 3, 20, 50, 0, 0.0, 0.05, 31);
    double *zs = malloc(sizeof(double) * (size_t)P.m);
    tp_known(&P, zs, 32);
    int *perm = malloc(sizeof(int) * (size_t)P.m);
    for (int i = 0; i < P.m; i++) perm[i] = (7 * i + 3) % P.m;  /* m = 50: 7 coprime */
    double *z = calloc((size_t)P.m, sizeof(double));
    for (int ord = LCP_ORDER_NATURAL; ord <= LCP_ORDER_PERM; ord++) {
        lcp_options o;
        lcp_options_default(&o);
        o.order = (lcp_order)ord;
        o.perm = perm;
        o.tol = 1e-12;
        o.max_iter = 100000;
        lcp_info info;
        lcp_status st = lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info);
        double err = 0.0;
        for (int i = 0; i < P.m; i++) err = fmax(err, fabs(z[i] - zs[i]));
        ok(st == LCP_OK && err < 1e-9, "order/%s-reaches-the-solution", lcp_order_name((lcp_order)ord));
    }
    /* a bad permutation is refused */
    perm[0] = perm[1];
    lcp_options o;
    lcp_options_default(&o);
    o.order = LCP_ORDER_PERM;
    o.perm = perm;
    lcp_info info;
    ok(lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info) == LCP_ERR_ARG,
       "order/perm-not-a-permutation-refused");
    /* symmetric = natural then reverse sweeps */
    lcp_status st;
    lcp_options_default(&o);
    o.tol = -1;
    o.max_iter = 2;
    o.order = LCP_ORDER_SYMMETRIC;
    trace a = run_traced(&P, "pgs", o, &st);
    o.max_iter = 1;
    o.order = LCP_ORDER_NATURAL;
    trace b = run_traced(&P, "pgs", o, &st);
    o.warm = 1;
    o.order = LCP_ORDER_REVERSE;
    double *zw = malloc(sizeof(double) * (size_t)P.m);
    memcpy(zw, b.z + P.m, sizeof(double) * (size_t)P.m);
    lcp_solve(lcp_solver_find("pgs"), &P, &o, zw, &info);
    ok(memcmp(zw, a.z + 2 * P.m, sizeof(double) * (size_t)P.m) == 0,
       "order/symmetric-is-forward-then-backward");
    free(a.z);
    free(b.z);
    free(zw);
    /* determinism: random ordering, same seed -> identical bytes; other seed differs */
    lcp_options_default(&o);
    o.order = LCP_ORDER_RANDOM;
    o.seed = 99;
    o.max_iter = 7;
    o.tol = -1;
    double *z1 = calloc((size_t)P.m, sizeof(double)), *z2 = calloc((size_t)P.m, sizeof(double));
    lcp_solve(lcp_solver_find("pgs"), &P, &o, z1, &info);
    lcp_solve(lcp_solver_find("pgs"), &P, &o, z2, &info);
    ok(memcmp(z1, z2, sizeof(double) * (size_t)P.m) == 0, "determinism/random-same-seed-same-bytes");
    o.seed = 100;
    lcp_solve(lcp_solver_find("pgs"), &P, &o, z2, &info);
    ok(memcmp(z1, z2, sizeof(double) * (size_t)P.m) != 0, "determinism/random-other-seed-differs");
    free(z1);
    free(z2);
    free(z);
    free(zs);
    free(perm);
    lcp_problem_free(&P);
}

static void test_statuses(void)
{
    lcp_problem P;
    lcp_options o;
    lcp_info info;
    double z[3];
    lcp_options_default(&o);
    /* zero diagonal at row 2 */
    double A[] = {2, 0, 0, 0, 2, 0, 0, 0, 0}, q[] = {-1, -1, 1};
    tp_dense(&P, 3, A, q, NULL, NULL, NULL);
    lcp_status st = lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info);
    ok(st == LCP_ERR_ZERO_DIAG && info.row == 2, "pgs/zero-diagonal-names-row-2");
    st = lcp_solve(lcp_solver_find("jacobi"), &P, &o, z, &info);
    ok(st == LCP_ERR_ZERO_DIAG && info.row == 2, "jacobi/zero-diagonal-names-row-2");
    lcp_problem_free(&P);
    /* Jacobi diverges on an unbounded problem with rho(I - D^-1 A) = 1.8: a status, not a loop */
    double B[] = {1, 0.9, 0.9, 0.9, 1, 0.9, 0.9, 0.9, 1}, qb[] = {-1, -1, -1};
    double lo[] = {-INFINITY, -INFINITY, -INFINITY}, hi[] = {INFINITY, INFINITY, INFINITY};
    tp_dense(&P, 3, B, qb, lo, hi, NULL);
    o.max_iter = 100000;
    st = lcp_solve(lcp_solver_find("jacobi"), &P, &o, z, &info);
    ok((st == LCP_ERR_DIVERGED || st == LCP_ERR_NONFINITE) && info.iterations < 1000,
       "jacobi/divergence-stops-with-status");
    o.omega_auto = 1;
    o.tol = 1e-10;
    st = lcp_solve(lcp_solver_find("jacobi"), &P, &o, z, &info);
    ok(st == LCP_OK && fabs(info.omega - 1.0 / 2.8) < 1e-6, "jacobi/omega-auto-is-1-over-lambda-max");
    o.omega_auto = 0;
    o.max_iter = 5;
    o.tol = 1e-14;
    st = lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info);
    ok(st == LCP_MAXITER && info.iterations == 5, "pgs/iteration-cap-is-usable-status");
    o.omega = 2.5;
    ok(lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info) == LCP_ERR_ARG, "pgs/omega-out-of-range");
    lcp_problem_free(&P);
    ok(lcp_solver_find("no-such-solver") == NULL, "registry/unknown-name-is-null");
    int n;
    const lcp_solver *S = lcp_solvers(&n);
    int named = 1;
    for (int k = 0; k < n; k++)
        named &= S[k].name && S[k].description && S[k].solve && lcp_solver_find(S[k].name) == &S[k];
    ok(n >= 2 && named, "registry/every-entry-named-and-findable");
    ok(strcmp(lcp_status_str(LCP_ERR_ZERO_DIAG), "zero-diagonal") == 0 &&
           strcmp(lcp_status_str((lcp_status)77), "unknown-status") == 0,
       "status/names");
}

int main(void)
{
    test_csr();
    test_residual();
    test_factored_product();
    test_loop_and_forms();
    test_orderings();
    test_statuses();
    return tap_done();
}
