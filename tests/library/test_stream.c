/* test_stream.c: pgs's streaming layout (lcp/stream.c, results/performance.md,
 * "Memory and the streaming floor") gives the plain matrix-free sweep's iterates bit for bit.
 * On every instance folder given (those with J and Minv) and on synthetic contact problems
 * whose contacts join bodies drawn at random (3D with friction, 3D frictionless with boxes
 * and no E, 2D with friction, and one whose J leaves out a coordinate of every body so that
 * B's columns differ from J's), for every ordering pgs has and with SOR:
 *   - pgs through the layout and pgs on the plain matrix-free rows give the same z (memcmp),
 *     status, sweep count and final residual (==), both to tol 1e-6 and for 7 sweeps
 *     without a test; the layout was built (its build time is > 0);
 *   - the assembled form agrees with the layout to rounding (same status, sweeps within
 *     one, z to 1e-8 relative to max |z|), except in the orderings error and mass, which
 *     sort by residuals and a_ii: the forms round those differently, so ties and near-ties
 *     order the rows differently.
 * Then lcp_solve on a problem of LCP_STREAM_MIN_ROWS rows whose bodies are drawn at random
 * (which takes the layout by itself: lcp_stream_pays) equals the plain rows for 3 sweeps,
 * and a problem whose columns are all near each other is found not to pay.
 * pgs's setup (lcp_prepare; lcp_pgs_prepare_layout to force the layout on small problems):
 *   - the layout made once and given to two solves (lcp_pgs_solve_layout, told to sweep the
 *     plain rows: a layout given is swept all the same; and lcp_solve) gives the solve that
 *     builds its own bit for bit (status, z, sweeps, residual), in every ordering; those two
 *     report no set-up (setup_time and build time 0), the solve building its own a positive
 *     one;
 *   - options the layout was not made for (another omega, an order laid out otherwise,
 *     another perm or rowkey, the assembled form, pgs-color's prepared data) are ignored:
 *     the same z as without it, and the solve reports the set-up it ran itself (> 0 exactly
 *     when the solve without it builds a layout); the same perm in another array fits;
 *   - on the LCP_STREAM_MIN_ROWS problem lcp_prepare makes the layout by itself and two
 *     solves with it equal lcp_solve (3 sweeps); on a 3600-row problem it makes none (NULL).
 * Usage: test_stream [INSTANCE_DIR]... */
#include "lcp.h"
#include "stream.h"
#include "tap.h"
#include "testprob.h"

#include <string.h>

static const lcp_order orders[] = {
    LCP_ORDER_NATURAL, LCP_ORDER_REVERSE, LCP_ORDER_SYMMETRIC, LCP_ORDER_RANDOM,
    LCP_ORDER_RANDOM8, LCP_ORDER_ERROR, LCP_ORDER_MASS, LCP_ORDER_ODE8, LCP_ORDER_PERM,
    LCP_ORDER_HEIGHT};

/* layout against plain rows (bit for bit) and against the assembled form (to rounding) */
static void compare(const lcp_problem *P, const char *name, lcp_order order, double omega,
                    double tol, int max_iter)
{
    int m = P->m;
    double *z1 = calloc((size_t)m, sizeof(double)), *z2 = calloc((size_t)m, sizeof(double)),
           *z3 = calloc((size_t)m, sizeof(double)), *key = malloc(sizeof(double) * (size_t)m);
    int *perm = malloc(sizeof(int) * (size_t)m);
    uint64_t s = 7;
    for (int i = 0; i < m; i++) perm[i] = i;
    for (int i = m - 1; i > 0; i--) {
        int r = (int)(tp_next(&s) % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[r];
        perm[r] = t;
    }
    for (int i = 0; i < m; i++) key[i] = (double)(tp_next(&s) % 1000);   /* with ties */
    lcp_options o;
    lcp_options_default(&o);
    o.order = order;
    o.omega = omega;
    o.tol = tol;
    o.max_iter = max_iter;
    o.perm = perm;
    o.rowkey = key;
    o.seed = 3;
    o.form = LCP_FORM_MATRIX_FREE;
    lcp_info i1, i2, i3;
    double bt = 0.0;
    lcp_status a = lcp_pgs_solve_layout(P, &o, z1, &i1, 1, &bt);
    lcp_status b = lcp_pgs_solve_layout(P, &o, z2, &i2, 0, NULL);
    char what[160];
    snprintf(what, sizeof what, "%s %s omega %.1f %s", name, lcp_order_name(order), omega,
             tol > 0 ? "to 1e-6" : "7 sweeps");
    int same = a == b && i1.iterations == i2.iterations && i1.residual == i2.residual &&
               memcmp(z1, z2, sizeof(double) * (size_t)m) == 0;
    if (!same)
        printf("# %s/%s, %d/%d sweeps, residual %.17g/%.17g\n", lcp_status_str(a),
               lcp_status_str(b), i1.iterations, i2.iterations, i1.residual, i2.residual);
    ok(same && a >= 0 && bt > 0.0, "%s: layout = plain matrix-free rows bit for bit (%s, %d sweeps)",
       what, lcp_status_str(a), i1.iterations);
    if (P->A.p && order != LCP_ORDER_ERROR && order != LCP_ORDER_MASS) {
        o.form = LCP_FORM_ASSEMBLED;
        lcp_status c = lcp_pgs_solve_layout(P, &o, z3, &i3, 1, NULL);
        double dmax = 0.0, zmax = 0.0;
        for (int i = 0; i < m; i++) {
            dmax = fmax(dmax, fabs(z1[i] - z3[i]));
            zmax = fmax(zmax, fabs(z3[i]));
        }
        int near = c == a && (tol < 0 || abs(i3.iterations - i1.iterations) <= 1) &&
                   dmax <= 1e-8 * fmax(1.0, zmax);
        if (!near)
            printf("# assembled %s, %d sweeps, max |dz| %.3g (max |z| %.3g)\n", lcp_status_str(c),
                   i3.iterations, dmax, zmax);
        ok(near, "%s: assembled form = layout to rounding", what);
    }
    free(z1);
    free(z2);
    free(z3);
    free(key);
    free(perm);
}

/* status, z, sweeps and residual the same */
static int same_solve(lcp_status a, const lcp_info *ia, const double *za, lcp_status b,
                      const lcp_info *ib, const double *zb, int m)
{
    return a == b && ia->iterations == ib->iterations && ia->residual == ib->residual &&
           memcmp(za, zb, sizeof(double) * (size_t)m) == 0;
}

/* The solves of P with `o' given the prepared `d' (lcp_pgs_solve_layout told layout 0 when
 * d fits, else 1; then lcp_solve) against the same solves without it (the layout built by
 * the solve; lcp_solve by the size).  fits: d was made for these options (no set-up in
 * them), else each sets up as it does without it. */
static void check_prepared(const lcp_problem *P, const char *what, const void *d,
                           const lcp_options *o, int fits)
{
    int m = P->m;
    double *z0 = calloc((size_t)m + 1, sizeof(double)), *z1 = calloc((size_t)m + 1, sizeof(double)),
           *z2 = calloc((size_t)m + 1, sizeof(double)), *z3 = calloc((size_t)m + 1, sizeof(double));
    lcp_info i0, i1, i2, i3;
    double bt0 = 0.0, bt1 = -1.0;
    lcp_options op = *o;
    op.prepared = NULL;
    lcp_status a = lcp_pgs_solve_layout(P, &op, z0, &i0, 1, &bt0);
    op.prepared = d;
    lcp_status b = lcp_pgs_solve_layout(P, &op, z1, &i1, fits ? 0 : 1, &bt1);
    lcp_status c = lcp_solve(lcp_solver_find("pgs"), P, &op, z2, &i2);
    op.prepared = NULL;
    lcp_status e = lcp_solve(lcp_solver_find("pgs"), P, &op, z3, &i3);   /* by the size */
    int setup = fits ? i1.setup_time == 0.0 && bt1 == 0.0 && i2.setup_time == 0.0
                     : (i1.setup_time > 0.0) == (i0.setup_time > 0.0) &&
                           (bt1 > 0.0) == (bt0 > 0.0) &&
                           (i2.setup_time > 0.0) == (i3.setup_time > 0.0);
    if (!setup)
        tap_diag("set-up seconds %g (build %g) / %g without, %g (build %g) / %g with",
                 i0.setup_time, bt0, i3.setup_time, i1.setup_time, bt1, i2.setup_time);
    ok(d && a >= 0 && same_solve(a, &i0, z0, b, &i1, z1, m) &&
       same_solve(a, &i0, z0, c, &i2, z2, m) && same_solve(a, &i0, z0, e, &i3, z3, m) && setup,
       "%s: %s, two solves = the solves without it bit for bit (%s, %d sweeps)", what,
       fits ? "prepared once" : "prepared for other options, ignored", lcp_status_str(a),
       i0.iterations);
    free(z0);
    free(z1);
    free(z2);
    free(z3);
}

/* a random permutation of m rows and keys with ties, from seed s */
static void perm_keys(int m, uint64_t s, int *perm, double *key)
{
    for (int i = 0; i < m; i++) perm[i] = i;
    for (int i = m - 1; i > 0; i--) {
        int r = (int)(tp_next(&s) % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[r];
        perm[r] = t;
    }
    for (int i = 0; i < m; i++) key[i] = (double)(tp_next(&s) % 1000);
}

/* pgs's setup: in every ordering, then options it was not made for */
static void prepared(const lcp_problem *P, const char *name)
{
    int m = P->m;
    int *p1 = malloc(sizeof(int) * (size_t)m), *p2 = malloc(sizeof(int) * (size_t)m),
        *p1b = malloc(sizeof(int) * (size_t)m);
    double *k1 = malloc(sizeof(double) * (size_t)m), *k2 = malloc(sizeof(double) * (size_t)m);
    perm_keys(m, 7, p1, k1);
    perm_keys(m, 8, p2, k2);
    memcpy(p1b, p1, sizeof(int) * (size_t)m);
    lcp_options o;
    lcp_options_default(&o);
    o.form = LCP_FORM_MATRIX_FREE;
    o.tol = 1e-6;
    o.max_iter = 300;
    o.seed = 3;
    o.perm = p1;
    o.rowkey = k1;
    char what[200];
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
        void *d = NULL;
        o.order = orders[k];
        lcp_pgs_prepare_layout(P, &o, 1, &d);
        snprintf(what, sizeof what, "%s %s", name, lcp_order_name(orders[k]));
        check_prepared(P, what, d, &o, 1);
        lcp_unprepare(lcp_solver_find("pgs"), d);
    }
    struct {
        const char *what;
        lcp_order order;
        double omega;
        lcp_form form;
        const int *perm;
        const double *key;
        int fits;
    } alt[] = {
        {"omega 1.3", LCP_ORDER_NATURAL, 1.3, LCP_FORM_MATRIX_FREE, p1, k1, 0},
        {"order reverse", LCP_ORDER_REVERSE, 1.0, LCP_FORM_MATRIX_FREE, p1, k1, 0},
        {"order mass", LCP_ORDER_MASS, 1.0, LCP_FORM_AUTO, p1, k1, 0},
        {"assembled form", LCP_ORDER_NATURAL, 1.0, LCP_FORM_ASSEMBLED, p1, k1, 0},
        {"symmetric order (natural layout)", LCP_ORDER_SYMMETRIC, 1.0, LCP_FORM_AUTO, p1, k1, 1},
        {"another perm", LCP_ORDER_PERM, 1.0, LCP_FORM_MATRIX_FREE, p2, k1, 0},
        {"the same perm in another array", LCP_ORDER_PERM, 1.0, LCP_FORM_MATRIX_FREE, p1b, k1, 1},
        {"another rowkey", LCP_ORDER_HEIGHT, 1.0, LCP_FORM_MATRIX_FREE, p1, k2, 0},
    };
    for (size_t k = 0; k < sizeof alt / sizeof alt[0]; k++) {
        void *d = NULL;
        o.order = alt[k].order == LCP_ORDER_PERM || alt[k].order == LCP_ORDER_HEIGHT
                      ? alt[k].order : LCP_ORDER_NATURAL;      /* made for omega 1, p1, k1 */
        o.omega = 1.0;
        o.form = LCP_FORM_MATRIX_FREE;
        o.perm = p1;
        o.rowkey = k1;
        lcp_pgs_prepare_layout(P, &o, 1, &d);
        o.order = alt[k].order;
        o.omega = alt[k].omega;
        o.form = alt[k].form;
        o.perm = alt[k].perm;
        o.rowkey = alt[k].key;
        snprintf(what, sizeof what, "%s, %s", name, alt[k].what);
        if (alt[k].form != LCP_FORM_ASSEMBLED || P->A.p)
            check_prepared(P, what, d, &o, alt[k].fits);
        lcp_unprepare(lcp_solver_find("pgs"), d);
    }
    const lcp_solver *col = lcp_solver_find("pgs-color");
    void *d = NULL;
    lcp_options_default(&o);
    lcp_prepare(col, P, &o, &d);
    snprintf(what, sizeof what, "%s, pgs-color's prepared data", name);
    check_prepared(P, what, d, &o, 0);
    lcp_unprepare(col, d);
    free(p1);
    free(p2);
    free(p1b);
    free(k1);
    free(k2);
}

static void all_orders(const lcp_problem *P, const char *name)
{
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
        compare(P, name, orders[k], 1.0, 1e-6, 300);
        compare(P, name, orders[k], 1.0, -1.0, 7);
    }
    compare(P, name, LCP_ORDER_NATURAL, 1.3, 1e-6, 300);
    compare(P, name, LCP_ORDER_SYMMETRIC, 1.3, 1e-6, 300);
}

/* drop J's entries at coordinate `coord' of every body (d dof), then A again */
static int drop_coordinate(lcp_problem *P, int d, int coord)
{
    lcp_csr *J = &P->J;
    int nz = 0;
    for (int i = 0; i < J->nrow; i++) {
        int start = nz;
        for (int k = J->p[i]; k < J->p[i + 1]; k++)
            if (J->j[k] % d != coord) {
                J->j[nz] = J->j[k];
                J->x[nz++] = J->x[k];
            }
        J->p[i] = start;
    }
    J->p[J->nrow] = nz;
    lcp_csr_free(&P->A);
    return lcp_csr_jmjt(&P->J, &P->Minv, P->E, &P->A) != LCP_OK;
}

int main(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        lcp_problem P;
        char msg[1024];
        if (lcp_read_instance(argv[k], &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "%s: read (%s)", argv[k], msg);
            continue;
        }
        if (lcp_problem_has_factors(&P)) {
            char name[256];
            size_t n = strlen(argv[k]), b;
            while (n > 1 && argv[k][n - 1] == '/') n--;
            for (b = n; b > 0 && argv[k][b - 1] != '/'; b--) continue;
            snprintf(name, sizeof name, "%.*s", (int)(n - b), argv[k] + b);
            all_orders(&P, name);
        }
        lcp_problem_free(&P);
    }

    lcp_problem P;
    if (tp_contact(&P, 6, 400, 1200, 2, 0.5, 1e-3, 11) == 0) {
        ok(!lcp_stream_pays(&P), "random 3D friction: 2400 columns, all near: the layout does not pay");
        all_orders(&P, "random 3D friction");
        prepared(&P, "random 3D friction");
        lcp_options o;
        lcp_options_default(&o);
        void *d = &o;
        lcp_status st = lcp_prepare(lcp_solver_find("pgs"), &P, &o, &d);
        ok(st == LCP_OK && d == NULL, "random 3D friction, %d rows: lcp_prepare makes no layout "
           "(NULL)", P.m);
    }
    else ok(0, "random 3D friction: built");
    lcp_problem_free(&P);

    if (tp_contact(&P, 6, 300, 900, 0, 0.0, 1e-3, 12) == 0) {
        uint64_t s = 5;
        for (int i = 0; i < P.m; i++)
            if (tp_next(&s) % 3 == 0) {
                P.lo[i] = -0.05;
                P.hi[i] = 0.05;
            }
        free(P.E);
        P.E = NULL;
        lcp_csr_free(&P.A);
        if (lcp_csr_jmjt(&P.J, &P.Minv, NULL, &P.A) == LCP_OK) all_orders(&P, "random 3D boxes no E");
        else ok(0, "random 3D boxes: built");
    } else ok(0, "random 3D boxes: built");
    lcp_problem_free(&P);

    if (tp_contact(&P, 3, 500, 1000, 1, 0.3, 1e-4, 13) == 0) {
        all_orders(&P, "random 2D friction");
        prepared(&P, "random 2D friction");
    }
    else ok(0, "random 2D friction: built");
    lcp_problem_free(&P);

    if (tp_contact(&P, 6, 300, 800, 2, 0.5, 1e-3, 14) == 0 && drop_coordinate(&P, 6, 4) == 0)
        all_orders(&P, "random 3D, B's columns beyond J's");
    else ok(0, "random 3D, B's columns beyond J's: built");
    lcp_problem_free(&P);

    /* lcp_solve takes the layout by itself at LCP_STREAM_MIN_ROWS rows */
    if (tp_contact(&P, 6, LCP_STREAM_MIN_ROWS / 6, LCP_STREAM_MIN_ROWS / 3 + 1, 2, 0.5, 1e-3, 15) == 0) {
        lcp_options o;
        lcp_options_default(&o);
        o.tol = -1.0;
        o.max_iter = 3;
        o.form = LCP_FORM_MATRIX_FREE;
        double *z1 = calloc((size_t)P.m, sizeof(double)), *z2 = calloc((size_t)P.m, sizeof(double));
        lcp_info i1, i2;
        double bt1 = 0.0, bt2 = 0.0;
        lcp_status a = lcp_pgs_solve_layout(&P, &o, z1, &i1, -1, &bt1);
        lcp_status b = lcp_pgs_solve_layout(&P, &o, z2, &i2, 0, &bt2);
        ok(lcp_stream_pays(&P), "%d rows on %d bodies drawn at random: the layout pays", P.m,
           P.n / 6);
        ok(a == b && bt1 > 0.0 && bt2 == 0.0 && memcmp(z1, z2, sizeof(double) * (size_t)P.m) == 0,
           "%d rows: pgs takes the layout by itself, 3 sweeps bit for bit", P.m);
        const lcp_solver *pgs = lcp_solver_find("pgs");
        lcp_status c = lcp_solve(pgs, &P, &o, z2, &i2);
        ok(memcmp(z1, z2, sizeof(double) * (size_t)P.m) == 0 && i2.setup_time > 0.0,
           "%d rows: lcp_solve = the layout, its set-up timed", P.m);
        void *d = NULL;
        lcp_status sp = lcp_prepare(pgs, &P, &o, &d);
        o.prepared = d;
        double *z3 = calloc((size_t)P.m, sizeof(double));
        int same = 1;
        for (int k = 0; k < 2; k++) {
            lcp_info i3;
            lcp_status e = lcp_solve(pgs, &P, &o, z3, &i3);
            same = same && same_solve(c, &i2, z2, e, &i3, z3, P.m) && i3.setup_time == 0.0;
        }
        ok(sp == LCP_OK && d && same, "%d rows: lcp_prepare makes the layout, two solves with it "
           "= lcp_solve bit for bit, no set-up in them", P.m);
        lcp_unprepare(pgs, d);
        free(z1);
        free(z2);
        free(z3);
    } else ok(0, "large problem: built");
    lcp_problem_free(&P);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
