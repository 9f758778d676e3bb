/* test_pgs_block.c: block Gauss-Seidel by contact (`pgs-block', lcp/pgs_block.c).
 *   (a) one contact group (1 normal + 2 friction rows): one sweep is the exact solution,
 *       checked by the natural-map residual and by the conditions written out by hand;
 *   (b) random friction problems (3D fr = 2, 2D fr = 1): converges to 1e-10 and agrees with
 *       pgs's converged answer to 1e-7, in every ordering;
 *   (c) frictionless: pgs-block and pgs give the same iterates (groups of one);
 *   (d) assembled and matrix-free forms give the same iterates to 1e-12;
 *   (e) a zero diagonal row is refused with LCP_ERR_ZERO_DIAG naming the row;
 *   (f) groups outside the enumeration (k = 3, a non-standard normal row) use the inner
 *       projected Gauss-Seidel fallback and still converge to pgs's answer. */
#include "lcp.h"
#include "tap.h"
#include "testprob.h"

#include <string.h>

typedef struct trace {
    int m, cap, n;
    double *z; /* (cap + 1) x m iterates */
} trace;

static void record(void *ctx, int it, const double *z)
{
    trace *t = ctx;
    if (it > t->cap) return;
    memcpy(t->z + (size_t)it * (size_t)t->m, z, sizeof(double) * (size_t)t->m);
    if (it + 1 > t->n) t->n = it + 1;
}

/* run `name' for exactly `sweeps' sweeps recording every iterate */
static lcp_status run_trace(const char *name, const lcp_problem *P, lcp_form form,
                            lcp_order order, int sweeps, trace *t)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = -1.0;
    o.max_iter = sweeps;
    o.form = form;
    o.order = order;
    o.seed = 7;
    o.monitor = record;
    o.monitor_ctx = t;
    t->m = P->m;
    t->cap = sweeps;
    t->n = 0;
    t->z = calloc((size_t)(sweeps + 1) * (size_t)P->m, sizeof(double));
    double *z = calloc((size_t)P->m, sizeof(double));
    lcp_info info;
    lcp_status st = lcp_solve(lcp_solver_find(name), P, &o, z, &info);
    free(z);
    return st;
}

static double trace_diff(const trace *a, const trace *b)
{
    if (a->n != b->n || a->m != b->m) return INFINITY;
    double d = 0.0;
    for (size_t k = 0; k < (size_t)a->n * (size_t)a->m; k++) d = fmax(d, fabs(a->z[k] - b->z[k]));
    return d;
}

static lcp_status solve(const char *name, const lcp_problem *P, lcp_order order, double tol,
                        double *z, lcp_info *info)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = tol;
    o.max_iter = 100000;
    o.order = order;
    o.seed = 3;
    return lcp_solve(lcp_solver_find(name), P, &o, z, info);
}

/* the box-friction conditions of one contact written out: 1 when they hold to tol */
static int contact_conditions(const lcp_problem *P, const double *z, double tol, int *state)
{
    double w[3];
    lcp_csr_matvec(&P->A, z, w);
    for (int i = 0; i < 3; i++) w[i] += P->q[i];
    double zn = z[0];
    int good = zn >= -tol && w[0] >= -tol && fabs(zn * w[0]) <= tol;
    *state = 0;
    if (zn <= tol) return good && fabs(z[1]) <= tol && fabs(z[2]) <= tol;
    for (int t = 1; t < 3; t++) {
        double lo = P->lo[t] * zn, hi = P->hi[t] * zn;
        good &= z[t] >= lo - tol && z[t] <= hi + tol;
        if (fabs(z[t] - lo) <= tol) {
            good &= w[t] >= -tol;
            *state |= 1 << (2 * t);
        } else if (fabs(z[t] - hi) <= tol) {
            good &= w[t] <= tol;
            *state |= 2 << (2 * t);
        } else {
            good &= fabs(w[t]) <= tol;
            *state |= 1;
        }
    }
    if (!*state) *state = 1;
    return good;
}

static void test_one_contact(void)
{
    int failures = 0, separated = 0, sticking = 0, sliding = 0, n = 0;
    double worst = 0.0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        lcp_problem P;
        double mu = seed % 4 == 0 ? 0.1 : (seed % 4 == 1 ? 0.5 : (seed % 4 == 2 ? 1.0 : 2.0));
        if (tp_contact(&P, 6, 2, 1, 2, mu, 0.05, seed) != 0) {
            failures++;
            continue;
        }
        for (int i = 0; i < 3; i++) P.q[i] *= 1.0 + (double)(seed % 7);   /* vary the scale */
        lcp_options o;
        lcp_options_default(&o);
        o.max_iter = 1;
        o.tol = -1.0;
        for (int f = 0; f < 2; f++) {
            o.form = f ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
            double z[3] = {0, 0, 0}, w[3];
            lcp_info info;
            lcp_status st = lcp_solve(lcp_solver_find("pgs-block"), &P, &o, z, &info);
            lcp_residuals R;
            lcp_residual(&P, z, w, &R);
            double scale = 1.0 + fabs(P.q[0]) + fabs(P.q[1]) + fabs(P.q[2]);
            int state;
            int good = st >= 0 && info.iterations == 1 && R.r2 <= 1e-12 * scale &&
                       contact_conditions(&P, z, 1e-11 * scale, &state);
            worst = fmax(worst, R.r2 / scale);
            if (!good) {
                failures++;
                if (failures < 5)
                    tap_diag("seed %llu form %d: status %s residual %g", (unsigned long long)seed,
                             f, lcp_status_str(st), R.r2);
            }
            if (f == 0 && good) {
                n++;
                if (state == 0) separated++;
                else if (state == 1) sticking++;
                else sliding++;
            }
        }
        lcp_problem_free(&P);
    }
    ok(failures == 0, "one contact (1 normal + 2 friction): one sweep is exact, 200 seeds x 2 forms");
    tap_diag("states: %d separated, %d sticking, %d at least one friction row at a bound "
             "(of %d); worst relative residual %.3g", separated, sticking, sliding, n, worst);
    ok(separated > 0 && sticking > 0 && sliding > 0, "one contact: all kinds of states exercised");
}

static void test_random_friction(void)
{
    static const struct {
        const char *name;
        int d, nb, nc, fr;
        uint64_t seed;
    } cases[] = {
        {"3d-fr2-nc40", 6, 20, 40, 2, 21},
        {"3d-fr2-nc120", 6, 40, 120, 2, 22},
        {"2d-fr1-nc40", 3, 15, 40, 1, 23},
        {"2d-fr1-nc150", 3, 50, 150, 1, 24},
    };
    static const lcp_order orders[] = {LCP_ORDER_NATURAL, LCP_ORDER_REVERSE,
                                       LCP_ORDER_SYMMETRIC, LCP_ORDER_RANDOM,
                                       LCP_ORDER_ERROR, LCP_ORDER_MASS};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lcp_problem P;
        if (tp_contact(&P, cases[c].d, cases[c].nb, cases[c].nc, cases[c].fr, 0.5, 0.05,
                       cases[c].seed) != 0) {
            ok(0, "pgs-block/%s: problem built", cases[c].name);
            continue;
        }
        double *zp = calloc((size_t)P.m, sizeof(double));
        double *zb = calloc((size_t)P.m, sizeof(double));
        lcp_info ip, ib;
        lcp_status sp = solve("pgs", &P, LCP_ORDER_NATURAL, 1e-13, zp, &ip);
        for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
            lcp_status sb = solve("pgs-block", &P, orders[k], 1e-10, zb, &ib);
            double d = 0.0;
            for (int i = 0; i < P.m; i++) d = fmax(d, fabs(zb[i] - zp[i]));
            int good = sp == LCP_OK && sb == LCP_OK && ib.residual <= 1e-10 && d <= 1e-7;
            ok(good, "pgs-block/%s/%s: converges to 1e-10, agrees with pgs to 1e-7",
               cases[c].name, lcp_order_name(orders[k]));
            if (!good || k == 0)
                tap_diag("pgs %s in %d sweeps; pgs-block %s in %d sweeps, residual %g, "
                         "|z - z_pgs|_inf %g", lcp_status_str(sp), ip.iterations,
                         lcp_status_str(sb), ib.iterations, ib.residual, d);
        }
        free(zp);
        free(zb);
        lcp_problem_free(&P);
    }
}

static void test_frictionless(void)
{
    lcp_problem P;
    if (tp_contact(&P, 6, 20, 60, 0, 0.5, 0.05, 31) != 0) {
        ok(0, "frictionless problem built");
        return;
    }
    static const lcp_order orders[] = {LCP_ORDER_NATURAL, LCP_ORDER_SYMMETRIC,
                                       LCP_ORDER_RANDOM, LCP_ORDER_MASS};
    for (int f = 0; f < 2; f++)
        for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
            lcp_form form = f ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
            trace a, b;
            lcp_status sa = run_trace("pgs", &P, form, orders[k], 40, &a);
            lcp_status sb = run_trace("pgs-block", &P, form, orders[k], 40, &b);
            double d = trace_diff(&a, &b);
            ok(sa >= 0 && sb >= 0 && d == 0.0,
               "frictionless %s %s: pgs-block == pgs iterate for iterate (41 iterates)",
               lcp_form_name(form), lcp_order_name(orders[k]));
            if (d != 0.0) tap_diag("max difference %g", d);
            free(a.z);
            free(b.z);
        }
    lcp_problem_free(&P);
}

static void test_forms(void)
{
    static const int dims[][2] = {{6, 2}, {3, 1}};
    for (int c = 0; c < 2; c++) {
        lcp_problem P;
        if (tp_contact(&P, dims[c][0], 25, 70, dims[c][1], 0.6, 0.05, 41 + (uint64_t)c) != 0) {
            ok(0, "problem built");
            continue;
        }
        trace a, b;
        lcp_status sa = run_trace("pgs-block", &P, LCP_FORM_ASSEMBLED, LCP_ORDER_NATURAL, 60, &a);
        lcp_status sb = run_trace("pgs-block", &P, LCP_FORM_MATRIX_FREE, LCP_ORDER_NATURAL, 60, &b);
        double d = trace_diff(&a, &b);
        ok(sa >= 0 && sb >= 0 && d <= 1e-12,
           "%s friction: assembled and matrix-free iterates agree to 1e-12 (61 iterates)",
           dims[c][0] == 6 ? "3D" : "2D");
        tap_diag("max difference %g", d);
        free(a.z);
        free(b.z);
        lcp_problem_free(&P);
    }
}

static void test_zero_diag(void)
{
    double A[] = {2, 0, 0, 0, 0, 0, 0, 0, 3}, q[] = {-1, 1, -1};
    lcp_problem P;
    if (tp_dense(&P, 3, A, q, NULL, NULL, NULL) != 0) {
        ok(0, "zero-diagonal problem built");
        return;
    }
    double z[3] = {0, 0, 0};
    lcp_info info;
    lcp_status st = solve("pgs-block", &P, LCP_ORDER_NATURAL, 1e-10, z, &info);
    ok(st == LCP_ERR_ZERO_DIAG && info.row == 1, "zero diagonal: LCP_ERR_ZERO_DIAG at row 1 "
       "(got %s, row %d)", lcp_status_str(st), info.row);
    lcp_problem_free(&P);
}

/* groups the enumeration does not cover go to the inner projected Gauss-Seidel fallback:
 * k = 3 friction rows on one normal row, and a friction pair on a bilateral (free) row */
static void test_fallback(void)
{
    static const double A[] = {4, 1, 0.5, 0.2, 0.1, 1, 3, 0.3, 0.1, 0.2, 0.5, 0.3, 3, 0.4, 0.1,
                               0.2, 0.1, 0.4, 2, 0.3, 0.1, 0.2, 0.1, 0.3, 2};
    static const double q[] = {-3, -1, 2, -4, 0.5};
    static const double lo[] = {0, -0.5, -0.7, -0.4, 0}, hi[] = {INFINITY, 0.5, 0.7, 0.4, 1};
    static const double lob[] = {-INFINITY, -0.5, -0.7, -0.4, 0};
    static const int f3[] = {-1, 0, 0, 0, -1}, fb[] = {-1, 0, 0, -1, 3};
    struct {
        const char *name;
        const double *lo;
        const int *f;
    } cases[] = {{"k=3 friction rows", lo, f3}, {"friction on a bilateral row", lob, fb}};
    for (int c = 0; c < 2; c++) {
        lcp_problem P;
        if (tp_dense(&P, 5, A, q, cases[c].lo, hi, cases[c].f) != 0) {
            ok(0, "fallback problem built");
            continue;
        }
        double zp[5] = {0}, zb[5] = {0};
        lcp_info ip, ib;
        lcp_status sp = solve("pgs", &P, LCP_ORDER_NATURAL, 1e-13, zp, &ip);
        lcp_status sb = solve("pgs-block", &P, LCP_ORDER_NATURAL, 1e-10, zb, &ib);
        double d = 0.0;
        for (int i = 0; i < 5; i++) d = fmax(d, fabs(zb[i] - zp[i]));
        ok(sp == LCP_OK && sb == LCP_OK && d <= 1e-7,
           "fallback (%s): converges, agrees with pgs to 1e-7", cases[c].name);
        tap_diag("pgs %d sweeps, pgs-block %s in %d sweeps, |z - z_pgs|_inf %g", ip.iterations,
                 lcp_status_str(sb), ib.iterations, d);
        lcp_problem_free(&P);
    }
}

int main(void)
{
    ok(lcp_solver_find("pgs-block") != NULL, "pgs-block is registered");
    test_one_contact();
    test_random_friction();
    test_frictionless();
    test_forms();
    test_zero_diag();
    test_fallback();
    return tap_done();
}
