/* test_float32.c: pgs's precision float32 (lcp/README.md, "float32 storage": J and B = J Minv
 * rounded to float32 once, every product, u, z and the residual in double).
 *   - exact data: a contact problem whose J entries are multiples of 1/8 in [-1, 1] and whose
 *     Minv is diagonal with powers of two, so that J and B are exact in float32 (checked):
 *     float32 gives float64's iterates bit for bit (status, sweeps, z by memcmp, residual),
 *     on the plain matrix-free rows and through the streaming layout, in natural, reverse,
 *     symmetric and random order and from a warm start, 3D with friction, 3D with boxes,
 *     2D with friction;
 *   - random data (not exact): float32 differs from float64 after 7 sweeps (it is in
 *     effect), and the layout gives the plain rows' float32 iterates bit for bit (7 sweeps
 *     and to 1e-6, the orders above and error; from a warm start); a layout prepared for
 *     float64 is not used by a float32 solve (the same z as without it), nor one made for
 *     float32 by a float64 solve;
 *   - the attainable residual: on every instance folder given, float32 reaches
 *     beta = 2u || |J| |B|^T |z*| + |E| |z*| ||_2 (u = 2^-24, z* ldlt-ref's answer), the
 *     bound on ||(A - J32 B32^T) z*||_2 that a fixed point of the float32 sweep is off A's,
 *     from a cold start within 60000 sweeps, wherever float64 reaches it within the same
 *     cap (a folder where it does not is named and not checked; at least one is checked);
 *   - refusals: the assembled form (LCP_ERR_ARG), no factors with the form auto
 *     (LCP_ERR_NEEDS_FACTORS), a precision that is not one (LCP_ERR_ARG); nncg (a solver over
 *     PGS sweeps) ignores it.
 * Usage: test_float32 [INSTANCE_DIR]... */
#include "lcp.h"
#include "stream.h"
#include "tap.h"
#include "testprob.h"

#include <string.h>

/* J's entries to multiples of 1/8, Minv diagonal with powers of two, A again */
static int make_exact(lcp_problem *P)
{
    for (int k = 0; k < LCP_CSR_NNZ(&P->J); k++) P->J.x[k] = round(P->J.x[k] * 8.0) / 8.0;
    for (int r = 0; r < P->Minv.nrow; r++)
        for (int k = P->Minv.p[r]; k < P->Minv.p[r + 1]; k++)
            P->Minv.x[k] = P->Minv.j[k] == r ? exp2(round(log2(P->Minv.x[k]))) : 0.0;
    lcp_csr_free(&P->A);
    return lcp_csr_jmjt(&P->J, &P->Minv, P->E, &P->A) == LCP_OK ? 0 : -1;
}

/* every value of J and of B = J Minv is a float */
static int exact_in_float(const lcp_problem *P)
{
    lcp_csr B = {0};
    if (lcp_csr_multiply(&P->J, &P->Minv, &B) != LCP_OK) return 0;
    int ok = 1;
    for (int k = 0; k < LCP_CSR_NNZ(&P->J); k++) ok &= (double)(float)P->J.x[k] == P->J.x[k];
    for (int k = 0; k < LCP_CSR_NNZ(&B); k++) ok &= (double)(float)B.x[k] == B.x[k];
    lcp_csr_free(&B);
    return ok;
}

typedef struct run {
    lcp_status st;
    int it;
    double res;
    double *z;
} run;

static run solve_from(const lcp_problem *P, lcp_precision prec, lcp_order order, double tol,
                      int maxit, int layout, const void *prepared, int warm)
{
    lcp_options o;
    lcp_options_default(&o);
    o.precision = prec;
    o.order = order;
    o.tol = tol;
    o.max_iter = maxit;
    o.form = LCP_FORM_MATRIX_FREE;
    o.prepared = prepared;
    run r = {LCP_ERR_ARG, -1, NAN, calloc((size_t)P->m, sizeof(double))};
    o.warm = warm;                              /* warm: from z_i = 0.01 (i mod 5) */
    for (int i = 0; warm && i < P->m; i++) r.z[i] = 0.01 * (i % 5);
    lcp_info info;
    r.st = lcp_pgs_solve_layout(P, &o, r.z, &info, layout, NULL);
    r.it = info.iterations;
    r.res = info.residual;
    return r;
}

static run solve(const lcp_problem *P, lcp_precision prec, lcp_order order, double tol,
                 int maxit, int layout, const void *prepared)
{
    return solve_from(P, prec, order, tol, maxit, layout, prepared, 0);
}

static int same(const run *a, const run *b, int m)
{
    return a->st == b->st && a->it == b->it && a->res == b->res &&
           memcmp(a->z, b->z, sizeof(double) * (size_t)m) == 0;
}

static const lcp_order orders[] = {LCP_ORDER_NATURAL, LCP_ORDER_REVERSE, LCP_ORDER_SYMMETRIC,
                                   LCP_ORDER_RANDOM, LCP_ORDER_ERROR};

static void exact_case(const char *name, int d, int nb, int nc, int fr, double mu)
{
    lcp_problem P;
    if (tp_contact(&P, d, nb, nc, fr, mu, 1e-3, 5) != 0 || make_exact(&P) != 0) {
        ok(0, "exact/%s: test problem", name);
        return;
    }
    if (fr == 0)                                    /* boxes: lo -1/2, hi 3/4 on some rows */
        for (int i = 0; i < P.m; i += 3) P.lo[i] = -0.5, P.hi[i] = 0.75;
    ok(exact_in_float(&P), "exact/%s: J and B = J Minv are floats", name);
    for (int o = 0; o < 4; o++)
        for (int layout = 0; layout < 2; layout++) {
            run a = solve(&P, LCP_PRECISION_FLOAT64, orders[o], 1e-8, 500, layout, NULL);
            run b = solve(&P, LCP_PRECISION_FLOAT32, orders[o], 1e-8, 500, layout, NULL);
            ok(a.st >= 0 && a.it > 1 && same(&a, &b, P.m),
               "exact/%s/%s/%s: float32 = float64 bit for bit (%s, %d sweeps)", name,
               lcp_order_name(orders[o]), layout ? "layout" : "plain", lcp_status_str(b.st),
               b.it);
            free(a.z);
            free(b.z);
        }
    for (int layout = 0; layout < 2; layout++) {               /* from a warm start */
        run a = solve_from(&P, LCP_PRECISION_FLOAT64, LCP_ORDER_NATURAL, 1e-8, 500, layout, NULL, 1);
        run b = solve_from(&P, LCP_PRECISION_FLOAT32, LCP_ORDER_NATURAL, 1e-8, 500, layout, NULL, 1);
        ok(a.st >= 0 && a.it > 1 && same(&a, &b, P.m),
           "exact/%s/warm/%s: float32 = float64 bit for bit (%s, %d sweeps)", name,
           layout ? "layout" : "plain", lcp_status_str(b.st), b.it);
        free(a.z);
        free(b.z);
    }
    lcp_problem_free(&P);
}

static void random_case(void)
{
    lcp_problem P;
    if (tp_contact(&P, 6, 400, 600, 2, 0.5, 1e-3, 9) != 0) {
        ok(0, "random: test problem");
        return;
    }
    run a = solve(&P, LCP_PRECISION_FLOAT64, LCP_ORDER_NATURAL, -1, 7, 0, NULL);
    run b = solve(&P, LCP_PRECISION_FLOAT32, LCP_ORDER_NATURAL, -1, 7, 0, NULL);
    double dmax = 0.0, zmax = 0.0;
    for (int i = 0; i < P.m; i++) {
        dmax = fmax(dmax, fabs(a.z[i] - b.z[i]));
        zmax = fmax(zmax, fabs(a.z[i]));
    }
    /* float32 in effect (z differs), and close: 7 sweeps move z by ~ u = 6e-8 relative */
    ok(dmax > 0.0 && dmax <= 1e-5 * zmax,
       "random: float32 differs from float64 after 7 sweeps, by %.2e of max |z| (<= 1e-5)",
       zmax > 0 ? dmax / zmax : NAN);
    free(a.z);
    free(b.z);
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
        for (int k = 0; k < 2; k++) {
            double tol = k ? 1e-6 : -1;
            int maxit = k ? 300 : 7;
            run p = solve(&P, LCP_PRECISION_FLOAT32, orders[o], tol, maxit, 0, NULL);
            run l = solve(&P, LCP_PRECISION_FLOAT32, orders[o], tol, maxit, 1, NULL);
            ok(p.st >= 0 && same(&p, &l, P.m),
               "random/%s/%s: float32 layout = float32 plain rows bit for bit (%s, %d sweeps)",
               lcp_order_name(orders[o]), k ? "tol 1e-6" : "7 sweeps", lcp_status_str(l.st),
               l.it);
            free(p.z);
            free(l.z);
        }
    /* from a warm start (u = B32^T z built from a nonzero z) */
    run pw = solve_from(&P, LCP_PRECISION_FLOAT32, LCP_ORDER_NATURAL, -1, 7, 0, NULL, 1);
    run lw = solve_from(&P, LCP_PRECISION_FLOAT32, LCP_ORDER_NATURAL, -1, 7, 1, NULL, 1);
    ok(pw.st >= 0 && same(&pw, &lw, P.m),
       "random/warm: float32 layout = float32 plain rows bit for bit from a warm start");
    free(pw.z);
    free(lw.z);
    /* a prepared layout made for the other precision is not used */
    for (int k = 0; k < 2; k++) {
        lcp_options o;
        lcp_options_default(&o);
        o.form = LCP_FORM_MATRIX_FREE;
        o.precision = k ? LCP_PRECISION_FLOAT32 : LCP_PRECISION_FLOAT64;
        void *prep = NULL;
        lcp_status st = lcp_pgs_prepare_layout(&P, &o, 1, &prep);
        lcp_precision other = k ? LCP_PRECISION_FLOAT64 : LCP_PRECISION_FLOAT32;
        run with = solve(&P, other, LCP_ORDER_NATURAL, -1, 7, 0, prep);
        run own = solve(&P, other, LCP_ORDER_NATURAL, -1, 7, 0, NULL);
        ok(st == LCP_OK && prep && same(&with, &own, P.m),
           "random: a layout prepared for %s is not used by a %s solve",
           lcp_precision_name(o.precision), lcp_precision_name(other));
        lcp_unprepare(lcp_solver_find("pgs"), prep);
        free(with.z);
        free(own.z);
    }
    lcp_problem_free(&P);
}

/* beta = 2u || |J| |B|^T |z| + |E| |z| ||_2 */
static double bound(const lcp_problem *P, const double *z)
{
    lcp_csr B = {0};
    double *t = calloc((size_t)P->n + 1, sizeof(double)), s = 0.0;
    if (!t || lcp_csr_multiply(&P->J, &P->Minv, &B) != LCP_OK) {
        free(t);
        return NAN;
    }
    for (int i = 0; i < P->m; i++)                              /* t = |B|^T |z| */
        for (int k = B.p[i]; k < B.p[i + 1]; k++) t[B.j[k]] += fabs(B.x[k]) * fabs(z[i]);
    for (int i = 0; i < P->m; i++) {
        double v = P->E ? fabs(P->E[i] * z[i]) : 0.0;
        for (int k = P->J.p[i]; k < P->J.p[i + 1]; k++) v += fabs(P->J.x[k]) * t[P->J.j[k]];
        s += v * v;
    }
    lcp_csr_free(&B);
    free(t);
    return 2.0 * ldexp(1.0, -24) * sqrt(s);
}

static int attainable(const char *dir)
{
    lcp_problem P;
    char msg[1024], nb[256];
    const char *name = tp_folder_name(dir, nb, sizeof nb);
    if (lcp_read_instance(dir, &P, msg, sizeof msg) != LCP_OK) {
        ok(0, "attainable/%s: read (%s)", name, msg);
        return 0;
    }
    if (!lcp_problem_has_factors(&P)) {
        lcp_problem_free(&P);
        return 0;
    }
    double *zs = calloc((size_t)P.m, sizeof(double));
    lcp_options o;
    lcp_options_default(&o);
    lcp_info info;
    lcp_status st = lcp_solve(lcp_solver_find("ldlt-ref"), &P, &o, zs, &info);
    double beta = st == LCP_OK || st == LCP_NONUNIQUE ? bound(&P, zs) : NAN;
    int checked = 0;
    if (!(beta > 0.0)) {
        ok(0, "attainable/%s: ldlt-ref's answer and the bound (%s)", name, lcp_status_str(st));
    } else {
        run a = solve(&P, LCP_PRECISION_FLOAT64, LCP_ORDER_NATURAL, beta, 60000, 0, NULL);
        if (a.st != LCP_OK)
            printf("# attainable/%s: float64 does not reach beta = %.3e within 60000 sweeps "
                   "(%.3e): not checked\n", name, beta, a.res);
        else {
            run b = solve(&P, LCP_PRECISION_FLOAT32, LCP_ORDER_NATURAL, beta, 60000, 0, NULL);
            ok(b.st == LCP_OK && b.res <= beta,
               "attainable/%s: float32 reaches beta = %.3e (||r||_2 %.3e after %d sweeps; "
               "float64 %d)", name, beta, b.res, b.it, a.it);
            free(b.z);
            checked = 1;
        }
        free(a.z);
    }
    free(zs);
    lcp_problem_free(&P);
    return checked;
}

static void refusals(void)
{
    lcp_problem P, D;
    double a[4] = {2, 1, 1, 2}, q[2] = {-1, -1};
    if (tp_contact(&P, 3, 10, 20, 1, 0.5, 1e-3, 3) != 0 || tp_dense(&D, 2, a, q, NULL, NULL, NULL) != 0) {
        ok(0, "refusals: test problems");
        return;
    }
    lcp_options o;
    lcp_options_default(&o);
    o.precision = LCP_PRECISION_FLOAT32;
    lcp_info info;
    double z[200];
    o.form = LCP_FORM_ASSEMBLED;
    ok(lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info) == LCP_ERR_ARG,
       "refusals: float32 with the assembled form is LCP_ERR_ARG");
    o.form = LCP_FORM_AUTO;
    ok(lcp_solve(lcp_solver_find("pgs"), &D, &o, z, &info) == LCP_ERR_NEEDS_FACTORS,
       "refusals: float32 without J and Minv is LCP_ERR_NEEDS_FACTORS");
    o.precision = (lcp_precision)7;
    ok(lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info) == LCP_ERR_ARG,
       "refusals: precision 7 is LCP_ERR_ARG");
    ok(!strcmp(lcp_precision_name(LCP_PRECISION_FLOAT32), "float32") &&
       !strcmp(lcp_precision_name(LCP_PRECISION_FLOAT64), "float64") &&
       !strcmp(lcp_precision_name((lcp_precision)7), "?"), "refusals: names");
    double z1[200], z2[200];
    lcp_options_default(&o);
    o.max_iter = 30;
    lcp_status s1 = lcp_solve(lcp_solver_find("nncg"), &P, &o, z1, &info);
    o.precision = LCP_PRECISION_FLOAT32;
    lcp_status s2 = lcp_solve(lcp_solver_find("nncg"), &P, &o, z2, &info);
    ok(s1 == s2 && memcmp(z1, z2, sizeof(double) * (size_t)P.m) == 0,
       "refusals: nncg (over PGS sweeps) ignores precision");
    lcp_problem_free(&P);
    lcp_problem_free(&D);
}

int main(int argc, char **argv)
{
    exact_case("3d-friction", 6, 40, 60, 2, 0.5);
    exact_case("3d-boxes", 6, 40, 60, 0, 0.0);
    exact_case("2d-friction", 3, 40, 60, 1, 0.5);
    random_case();
    refusals();
    int checked = 0;
    for (int a = 1; a < argc; a++) checked += attainable(argv[a]);
    if (argc > 1) ok(checked > 0, "attainable: %d folders checked", checked);
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
