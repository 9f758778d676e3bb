/* test_dantzig.c: ODE's Dantzig pivoting (`dantzig', `dantzig-rounds') and quickstep's own
 * settings (ordering ode8, warm_scale).  One named TAP line per property:
 *   known solutions (SPD A, boxes with lo <= 0 <= hi, unbounded rows; m up to 500), 1e-12;
 *   exhaustive enumeration (m <= 10); ODE's own test problems (1000, ODE's pass rule);
 *   all rows unbounded = one factorisation, equal to LAPACKE dposv;
 *   friction bounds frozen from the frictionless normals (instance folders given as
 *   arguments): z solves the frozen-bound problem to the harness bound;
 *   a degenerate problem: `partial' at the right row, rows not reached 0;
 *   refusals and the drive-step guard; scale invariance (force against impulse form);
 *   dantzig-rounds settles on a friction problem;
 *   ode8: the order of sweeps 1-8, the reshuffles at 9, 17, determinism; warm_scale.
 */
#include "dantzig.h"
#include "dantzig_loops.h"
#include "enumerate.h"
#include "lcp_internal.h"
#include "odegen.h"
#include "tap.h"
#include "testprob.h"

#include <lapacke.h>
#include <stdio.h>
#include <string.h>

static double inf_norm(const double *v, int m)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s = fmax(s, fabs(v[i]));
    return s;
}

/* ||a - b||_inf / max(1, ||b||_inf) */
static double rel_diff(const double *a, const double *b, int m)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s = fmax(s, fabs(a[i] - b[i]));
    return s / fmax(1.0, inf_norm(b, m));
}

static lcp_status dantzig(const lcp_problem *P, const dantzig_options *o, double *z,
                          lcp_info *info, dantzig_out *out)
{
    lcp_options opt;
    lcp_options_default(&opt);
    return lcp_dantzig(P, &opt, o, z, info, out);
}

/* 0. the loops' order of sums (dantzig_loops.h): the four-row triangular solves and the
 * two-row dot give, bit for bit, what the one-row loops give, for every size 0 .. 130 (all
 * block counts and tails), on values of mixed signs and magnitudes */
static void test_loops(uint64_t seed)
{
    enum { NMAX = 131 };
    int ld = 136, bad_lo = 0, bad_up = 0, bad_dot2 = 0;
    double *L = malloc(sizeof(double) * (size_t)ld * NMAX), x[NMAX], y[NMAX], x1[NMAX];
    uint64_t s = seed;
    for (int k = 0; k < ld * NMAX; k++)
        L[k] = (tp_unif(&s) - 0.5) * (k % 3 ? 0.3 : 3e-3);
    for (int n = 0; n < NMAX; n++) {
        for (int i = 0; i < n; i++) x[i] = x1[i] = (tp_unif(&s) - 0.5) * (i % 2 ? 1e3 : 1.0);
        dz_trsv_lower(n, L, ld, x);
        for (int j = 1; j < n; j++) x1[j] -= dz_dot_loop(j, L + (size_t)j * ld, x1);
        bad_lo += n > 0 && memcmp(x, x1, sizeof(double) * (size_t)n) != 0;
        for (int i = 0; i < n; i++) x[i] = x1[i] = (tp_unif(&s) - 0.5) * (i % 2 ? 1e3 : 1.0);
        dz_trsv_upper(n, L, ld, x);
        for (int j = n - 1; j > 0; j--)
            for (int k = 0; k < j; k++) x1[k] -= L[(size_t)j * ld + k] * x1[j];
        bad_up += n > 0 && memcmp(x, x1, sizeof(double) * (size_t)n) != 0;
        for (int i = 0; i < n; i++) y[i] = tp_unif(&s) - 0.5;
        double ax, ay;
        dz_dot2_loop(n, L + (size_t)n * ld, x, y, &ax, &ay);
        bad_dot2 += ax != dz_dot_loop(n, L + (size_t)n * ld, x) ||
                    ay != dz_dot_loop(n, L + (size_t)n * ld, y);
    }
    ok(bad_lo == 0, "dantzig/loops-lower: four rows at a time = one row at a time, bit for bit");
    ok(bad_up == 0, "dantzig/loops-upper: four rows at a time = one row at a time, bit for bit");
    ok(bad_dot2 == 0, "dantzig/loops-dot2: two dots in one loop = two dz_dot_loop, bit for bit");
    if (bad_lo || bad_up || bad_dot2)
        tap_diag("sizes that differ: lower %d, upper %d, dot2 %d", bad_lo, bad_up, bad_dot2);
    free(L);
}

/* 1. known solutions: contact problems (and boxes, and a few unbounded rows) whose q is
 * built from a chosen z* with disjoint supports of z* and w* */
static void test_known(int nb, int nc, int box, uint64_t seed)
{
    lcp_problem P;
    if (tp_contact(&P, 6, nb, nc, box ? 1 : 0, 0.5, 0.05, seed) != 0) {
        ok(0, "dantzig/known-m%d (setup)", nc);
        return;
    }
    free(P.findex);                                  /* plain boxes: known solution */
    P.findex = NULL;
    for (int i = 0; i < P.m; i += 7) {               /* some bilateral rows */
        P.lo[i] = -INFINITY;
        P.hi[i] = INFINITY;
    }
    double *zs = malloc(sizeof(double) * (size_t)P.m), *z = malloc(sizeof(double) * (size_t)P.m);
    tp_known(&P, zs, seed + 1);
    lcp_info info;
    lcp_status st = dantzig(&P, NULL, z, &info, NULL);
    double d = rel_diff(z, zs, P.m);
    ok(st == LCP_OK && d <= 1e-12, "dantzig/known-%s-m%d: z* to 1e-12", box ? "box" : "lcp", P.m);
    if (st != LCP_OK || d > 1e-12)
        tap_diag("status %s, |z - z*| %.3g, %ld pivots", lcp_status_str(st), d, info.pivots);
    free(zs);
    free(z);
    lcp_problem_free(&P);
}

/* 2. enumeration (m <= 10), random SPD A = M M^T + 0.05 I and boxes */
static void test_enum(int m, int box, uint64_t seed)
{
    uint64_t s = seed;
    double *A = calloc((size_t)(m * m), sizeof(double)), *M = malloc(sizeof(double) * (size_t)(m * m));
    double *q = malloc(sizeof(double) * (size_t)m), *lo = malloc(sizeof(double) * (size_t)m);
    double *hi = malloc(sizeof(double) * (size_t)m);
    for (int k = 0; k < m * m; k++) M[k] = 2.0 * tp_unif(&s) - 1.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++)
            for (int k = 0; k < m; k++) A[i * m + j] += M[i * m + k] * M[j * m + k];
        A[i * m + i] += 0.05;
        q[i] = 2.0 * tp_unif(&s) - 1.0;
        lo[i] = box ? -0.2 - 0.5 * tp_unif(&s) : 0.0;
        hi[i] = box ? 0.2 + 0.5 * tp_unif(&s) : INFINITY;
    }
    for (int i = 0; i < m; i++)                        /* exactly symmetric */
        for (int j = 0; j < i; j++) A[j * m + i] = A[i * m + j];
    lcp_problem P;
    tp_dense(&P, m, A, q, lo, hi, NULL);
    double *ze = calloc((size_t)m, sizeof(double)), *z = calloc((size_t)m, sizeof(double));
    int nsol = enumerate(&P, ze);
    lcp_info info;
    lcp_status st = dantzig(&P, NULL, z, &info, NULL);
    double d = rel_diff(z, ze, m);
    ok(nsol == 1 && st == LCP_OK && d <= 1e-10, "dantzig/enum-%s-m%d: the one solution",
       box ? "box" : "lcp", m);
    if (!(nsol == 1 && st == LCP_OK && d <= 1e-10))
        tap_diag("%d solutions, status %s, |z - z_enum| %.3g", nsol, lcp_status_str(st), d);
    lcp_problem_free(&P);
    free(A);
    free(M);
    free(q);
    free(lo);
    free(hi);
    free(ze);
    free(z);
}

/* 3. ODE's own test: 1000 problems, n = 100, nub = 50; ODE's pass rule on the solver's own
 * w: max |A x - b - w| <= 1e-9 and every row in one of the three cases */
static void test_ode_generator(int count)
{
    int passed = 0, n = 100;
    double worst = 0.0;
    double *z = malloc(sizeof(double) * (size_t)n), *w = malloc(sizeof(double) * (size_t)n);
    double *Az = malloc(sizeof(double) * (size_t)n);
    for (int k = 0; k < count; k++) {
        lcp_problem P;
        if (odegen(&P, n, 50, 5000 + (uint64_t)k) != 0) {
            lcp_problem_free(&P);
            continue;
        }
        lcp_info info;
        dantzig_out out = {.w = w};
        lcp_status st = dantzig(&P, NULL, z, &info, &out);
        lcp_csr_matvec(&P.A, z, Az);
        double diff = 0.0;
        int cases = 1;
        for (int i = 0; i < n; i++) {
            diff = fmax(diff, fabs(Az[i] + P.q[i] - w[i]));      /* A x - b - w, b = -q */
            int c1 = z[i] == P.lo[i] && w[i] >= 0.0, c2 = z[i] == P.hi[i] && w[i] <= 0.0;
            int c3 = z[i] >= P.lo[i] && z[i] <= P.hi[i] && w[i] == 0.0;
            cases &= c1 || c2 || c3;
        }
        worst = fmax(worst, diff);
        passed += st == LCP_OK && diff <= 1e-9 && cases;
        lcp_problem_free(&P);
    }
    ok(passed == count, "dantzig/ode-test-problems: %d of %d pass ODE's rule (max |Ax-b-w| %.2g)",
       passed, count, worst);
    free(z);
    free(w);
    free(Az);
}

/* 4. every row unbounded: one factorisation, no pivots, the dposv solution */
static void test_all_unbounded(int m, uint64_t seed)
{
    lcp_problem P;
    tp_contact(&P, 6, m / 3 > 40 ? m / 3 : 40, m, 0, 0.0, 0.05, seed);  /* A regular */
    for (int i = 0; i < P.m; i++) {
        P.lo[i] = -INFINITY;
        P.hi[i] = INFINITY;
    }
    double *Ad = calloc((size_t)m * (size_t)m, sizeof(double));
    double *x = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) {
        for (int k = P.A.p[i]; k < P.A.p[i + 1]; k++) Ad[(size_t)i * m + P.A.j[k]] = P.A.x[k];
        x[i] = -P.q[i];
    }
    int rc = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', m, 1, Ad, m, x, 1);
    lcp_info info;
    dantzig_out out = {0};
    lcp_status st = dantzig(&P, NULL, z, &info, &out);
    double d = rel_diff(z, x, m);
    ok(rc == 0 && st == LCP_OK && info.factorizations == 1 && info.pivots == 0 &&
           out.nub == m && d <= 1e-12,
       "dantzig/all-unbounded-m%d: one factorisation, no pivots, = dposv", m);
    if (!(st == LCP_OK && d <= 1e-12))
        tap_diag("status %s, %ld factorizations, %ld pivots, |z - x| %.3g", lcp_status_str(st),
                 info.factorizations, info.pivots, d);
    free(Ad);
    free(x);
    free(z);
    lcp_problem_free(&P);
}

/* the sub-problem of the rows keep[] (k of them) */
static int sub_problem(const lcp_problem *P, const int *rows, int k, lcp_problem *S)
{
    int *map = malloc(sizeof(int) * (size_t)P->m), nz = 0, t = 0;
    for (int i = 0; i < P->m; i++) map[i] = -1;
    for (int a = 0; a < k; a++) {
        map[rows[a]] = a;
        nz += P->A.p[rows[a] + 1] - P->A.p[rows[a]];
    }
    int *ti = malloc(sizeof(int) * (size_t)(nz + 1)), *tj = malloc(sizeof(int) * (size_t)(nz + 1));
    double *tx = malloc(sizeof(double) * (size_t)(nz + 1));
    for (int a = 0; a < k; a++)
        for (int e = P->A.p[rows[a]]; e < P->A.p[rows[a] + 1]; e++)
            if (map[P->A.j[e]] >= 0) {
                ti[t] = a;
                tj[t] = map[P->A.j[e]];
                tx[t++] = P->A.x[e];
            }
    lcp_problem_init(S);
    int rc = lcp_csr_from_triplets(&S->A, k, k, t, ti, tj, tx) != LCP_OK ||
             lcp_problem_alloc_vectors(S, k) != LCP_OK;
    for (int a = 0; !rc && a < k; a++) {
        S->q[a] = P->q[rows[a]];
        S->lo[a] = P->lo[rows[a]];
        S->hi[a] = P->hi[rows[a]];
    }
    char msg[256];
    if (!rc) rc = lcp_problem_check(S, msg, sizeof msg) != LCP_OK;
    free(map);
    free(ti);
    free(tj);
    free(tx);
    return rc ? -1 : 0;
}

/* 5. friction (ODE's lcp.cpp, Baraff 1994): the answer solves the problem whose friction
 * bounds are mu |z_n^0|, z_n^0 the solution of the normals alone: its natural-map residual
 * on that frozen-bound problem (lcp_residual) is at the harness bound 1e-10 max(1, |q|_inf)
 * (the frozen problem is positive definite, so this pins z).  z_n^0 comes from ldlt-ref, or
 * from dantzig itself when ldlt-ref does not declare the normals' problem solved. */
static void test_frozen(const char *dir)
{
    const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    lcp_problem P, N, F;
    char msg[4200];
    lcp_problem_init(&N);
    lcp_problem_init(&F);
    if (lcp_read_instance(dir, &P, msg, sizeof msg) != LCP_OK || !P.findex) {
        ok(0, "dantzig/frozen-%s (read: %s)", name, P.findex ? msg : "no friction rows");
        lcp_problem_free(&P);
        return;
    }
    int m = P.m, k = 0;
    int *rows = calloc((size_t)m, sizeof(int)), *pos = calloc((size_t)m, sizeof(int));
    for (int i = 0; i < m; i++)
        if (P.findex[i] < 0) {
            pos[i] = k;
            rows[k++] = i;
        }
    double *zn = calloc((size_t)m, sizeof(double)), *z = calloc((size_t)m, sizeof(double));
    double *w = calloc((size_t)m, sizeof(double));
    lcp_options opt;
    lcp_options_default(&opt);
    lcp_info info;
    lcp_status sn = LCP_ERR_ARG;
    int good = sub_problem(&P, rows, k, &N) == 0;
    const char *zsrc = "ldlt-ref";
    if (good) {                                                  /* normals alone */
        sn = lcp_solve(lcp_solver_find("ldlt-ref"), &N, &opt, zn, &info);
        if (sn != LCP_OK && sn != LCP_NONUNIQUE) {
            zsrc = "dantzig";
            good = dantzig(&N, NULL, zn, &info, NULL) == LCP_OK;
        }
    }
    for (int i = 0; i < m; i++) rows[i] = i;                     /* frozen-bound problem */
    good = good && sub_problem(&P, rows, m, &F) == 0;
    for (int i = 0; good && i < m; i++)
        if (P.findex[i] >= 0) {
            double h = fabs(P.hi[i] * zn[pos[P.findex[i]]]);
            F.lo[i] = -h;
            F.hi[i] = h;
        }
    lcp_status st = dantzig(&P, NULL, z, &info, NULL);
    lcp_residuals R = {0};
    if (good) lcp_residual(&F, z, w, &R);
    double bound = 1e-10 * fmax(1.0, inf_norm(P.q, m));
    ok(good && (st == LCP_OK || st == LCP_NOT_SETTLED) && R.rinf <= bound,
       "dantzig/frozen-%s: z solves the frozen-bound problem (|r|_inf <= 1e-10)", name);
    tap_diag("%s: status %s, frozen-problem |r|_inf %.2g (normals by %s), coupled |r|_inf %.2g",
             name, lcp_status_str(st), good ? R.rinf : NAN, zsrc, info.residual_inf);
    free(rows);
    free(pos);
    free(zn);
    free(z);
    free(w);
    lcp_problem_free(&P);
    lcp_problem_free(&N);
    lcp_problem_free(&F);
}

/* 6. two identical boxed rows, no compliance (E = 0): the second cannot move (dw_i = 0 with
 * w_i > 0, step -inf); ODE stops there, keeps row 0 and zeroes rows 1 and 2 */
static void test_degenerate(void)
{
    double A[] = {1, 1, 0, 1, 1, 0, 0, 0, 1}, q[] = {-0.5, 0, -1};
    double lo[] = {-1, -1, 0}, hi[] = {1, 1, INFINITY};
    lcp_problem P;
    tp_dense(&P, 3, A, q, lo, hi, NULL);
    double z[3] = {9, 9, 9};
    char set[3];
    lcp_info info;
    dantzig_out out = {.set = set};
    lcp_status st = dantzig(&P, NULL, z, &info, &out);
    ok(st == LCP_PARTIAL && info.row == 1 && z[0] == 0.5 && z[1] == 0.0 && z[2] == 0.0 &&
           set[0] == 'C' && set[1] == 'R' && set[2] == 'R',
       "dantzig/degenerate: partial at row 1, z = (0.5, 0, 0)");
    if (st != LCP_PARTIAL)
        tap_diag("status %s, row %d, z = (%g, %g, %g)", lcp_status_str(st), info.row, z[0], z[1],
                 z[2]);
    ok(strcmp(lcp_status_str(LCP_PARTIAL), "partial") == 0 && LCP_PARTIAL > 0,
       "dantzig/partial-is-a-positive-status-named-partial");
    dantzig_options o;
    dantzig_options_default(&o);
    o.on_degenerate = DANTZIG_DEGENERATE_ERROR;
    st = dantzig(&P, &o, z, &info, NULL);
    ok(st == LCP_ERR_BREAKDOWN && info.row == 1, "dantzig/degenerate-error: breakdown at row 1");
    lcp_problem_free(&P);
    /* two identical unbounded rows: the second pivot of the block is 0 */
    double A2[] = {1, 1, 1, 1}, q2[] = {-1, -1}, lo2[] = {-INFINITY, -INFINITY};
    double hi2[] = {INFINITY, INFINITY};
    tp_dense(&P, 2, A2, q2, lo2, hi2, NULL);
    dantzig_options_default(&o);
    o.zero_pivot = DANTZIG_PIVOT_REPORT;
    st = dantzig(&P, &o, z, &info, NULL);
    ok(st == LCP_ERR_BREAKDOWN && info.row == 1, "dantzig/zero-pivot-report: breakdown at row 1");
    lcp_problem_free(&P);
}

/* 7. refusals, each naming the row; the dense cap; the drive-step guard */
static void test_refusals(void)
{
    double A[] = {2, 1, 1, 2}, q[] = {-1, -1};
    lcp_problem P;
    lcp_info info;
    double z[2];
    const lcp_solver *s = lcp_solver_find("dantzig");
    lcp_options opt;
    lcp_options_default(&opt);
    {
        double lo[] = {0, 0.1}, hi[] = {INFINITY, 1};
        tp_dense(&P, 2, A, q, lo, hi, NULL);
        ok(lcp_solve(s, &P, &opt, z, &info) == LCP_ERR_UNSUPPORTED && info.row == 1,
           "dantzig/refuses-lo-above-0: unsupported at row 1");
        lcp_problem_free(&P);
    }
    {
        double lo[] = {-1, 0}, hi[] = {-0.5, 1};
        tp_dense(&P, 2, A, q, lo, hi, NULL);
        ok(lcp_solve(s, &P, &opt, z, &info) == LCP_ERR_UNSUPPORTED && info.row == 0,
           "dantzig/refuses-hi-below-0: unsupported at row 0");
        lcp_problem_free(&P);
    }
    {
        double lo[] = {0, -0.2}, hi[] = {INFINITY, 0.5};
        int f[] = {-1, 0};
        tp_dense(&P, 2, A, q, lo, hi, f);
        ok(lcp_solve(s, &P, &opt, z, &info) == LCP_ERR_UNSUPPORTED && info.row == 1,
           "dantzig/refuses-friction-lo-not-minus-hi: unsupported at row 1");
        dantzig_options o;
        dantzig_options_default(&o);
        o.friction = DANTZIG_FRICTION_FIXED;
        ok(dantzig(&P, &o, z, &info, NULL) == LCP_NOT_SETTLED,
           "dantzig/friction-fixed-takes-stored-bounds");
        lcp_problem_free(&P);
    }
    {
        double An[] = {2, 1, 0.5, 2};
        tp_dense(&P, 2, An, q, NULL, NULL, NULL);
        ok(lcp_solve(s, &P, &opt, z, &info) == LCP_ERR_NEEDS_SYMMETRIC &&
               lcp_dantzig(&P, &opt, NULL, z, &info, NULL) == LCP_ERR_NEEDS_SYMMETRIC,
           "dantzig/refuses-non-symmetric");
        lcp_problem_free(&P);
    }
    tp_dense(&P, 2, A, q, NULL, NULL, NULL);
    dantzig_options o;
    dantzig_options_default(&o);
    o.dense_cap = 63.0;                                  /* 2 m^2 doubles = 64 bytes */
    ok(dantzig(&P, &o, z, &info, NULL) == LCP_ERR_TOO_LARGE, "dantzig/refuses-above-dense-cap");
    o.dense_cap = 64.0;
    ok(dantzig(&P, &o, z, &info, NULL) == LCP_OK, "dantzig/accepts-at-dense-cap");
    lcp_problem_free(&P);
    unsigned want = LCP_NEEDS_SYMMETRIC | LCP_SUPPORTS_BOX | LCP_SUPPORTS_FINDEX | LCP_DIRECT |
                    LCP_DENSE;
    ok(s && s->needs == want && lcp_solver_find("dantzig-rounds") &&
           lcp_solver_find("dantzig-rounds")->needs == want,
       "dantzig/registry-needs: symmetric, box, findex, direct, dense");
    /* the guard: one drive step allowed, the second row needs more */
    {
        double A3[] = {2, 1, 1, 2}, q3[] = {-1, -3};
        tp_dense(&P, 2, A3, q3, NULL, NULL, NULL);
        dantzig_options_default(&o);
        o.max_drive_steps = 1;
        lcp_status st = dantzig(&P, &o, z, &info, NULL);
        ok(st == LCP_PIVOT_CAP && info.row == 1 && z[1] == 0.0,
           "dantzig/drive-step-guard: pivot-cap at row 1");
        o.max_drive_steps = 0;
        st = dantzig(&P, &o, z, &info, NULL);
        ok(st == LCP_OK && fabs(z[0]) < 1e-15 && fabs(z[1] - 1.5) < 1e-15,
           "dantzig/without-guard: z = (0, 1.5)");
        lcp_problem_free(&P);
    }
}

/* 8. force against impulse form: (A / h, q / h) gives the same partition and z */
static void test_scale(uint64_t seed)
{
    lcp_problem P, S;
    tp_contact(&P, 6, 30, 60, 2, 0.6, 0.01, seed);
    tp_contact(&S, 6, 30, 60, 2, 0.6, 0.01, seed);
    double h = 1.0 / 60.0;
    for (int k = 0; k < LCP_CSR_NNZ(&S.A); k++) S.A.x[k] /= h;
    for (int i = 0; i < S.m; i++) S.q[i] /= h;
    int m = P.m, same = 1;
    double *z1 = malloc(sizeof(double) * (size_t)m), *z2 = malloc(sizeof(double) * (size_t)m);
    char *s1 = malloc((size_t)m), *s2 = malloc((size_t)m);
    lcp_info i1, i2;
    dantzig_out o1 = {.set = s1}, o2 = {.set = s2};
    lcp_status a = dantzig(&P, NULL, z1, &i1, &o1), b = dantzig(&S, NULL, z2, &i2, &o2);
    for (int i = 0; i < m; i++) same &= s1[i] == s2[i];
    double d = rel_diff(z2, z1, m);
    ok(a >= 0 && a == b && same && i1.pivots == i2.pivots && d <= 1e-12,
       "dantzig/scale-invariant: same partition, pivots and z (1e-12) with A/h, q/h");
    if (!(same && d <= 1e-12)) tap_diag("statuses %d %d, |dz| %.3g", a, b, d);
    /* dantzig-rounds on the same friction problem: bounds settle, coupled residual met */
    lcp_info ir;
    dantzig_options o;
    dantzig_options_default(&o);
    o.friction = DANTZIG_FRICTION_ROUNDS;
    dantzig_out orr = {0};
    lcp_status r = dantzig(&P, &o, z1, &ir, &orr);
    ok(r == LCP_OK && orr.rounds > 1 && ir.residual_inf <= 1e-10 * fmax(1.0, inf_norm(P.q, m)),
       "dantzig-rounds/settles: converged on the coupled problem after %d passes", orr.rounds);
    free(z1);
    free(z2);
    free(s1);
    free(s2);
    lcp_problem_free(&P);
    lcp_problem_free(&S);
}

/* 9. ode8: [findex < 0 | findex >= 0] for sweeps 1-8, reshuffled before 9 and 17 only,
 * deterministic for a seed; pgs with ode8 twice gives the same bits */
static void test_ode8(void)
{
    lcp_problem P;
    tp_contact(&P, 6, 20, 30, 2, 0.5, 0.05, 77);
    int m = P.m;
    lcp_options opt;
    lcp_options_default(&opt);
    opt.order = LCP_ORDER_ODE8;
    opt.seed = 5;
    lcp_orderer a, b;
    lcp_order_init(&a, &P, &opt, NULL);
    lcp_order_init(&b, &P, &opt, NULL);
    int *prev = malloc(sizeof(int) * (size_t)m), *want = malloc(sizeof(int) * (size_t)m), n = 0;
    for (int i = 0; i < m; i++)
        if (P.findex[i] < 0) want[n++] = i;
    for (int i = 0; i < m; i++)
        if (P.findex[i] >= 0) want[n++] = i;
    int first8 = 1, changes_ok = 1, same = 1, is_perm = 1;
    for (int k = 1; k <= 24; k++) {
        const int *pa = lcp_order_next(&a, k, P.q), *pb = lcp_order_next(&b, k, P.q);
        int changed = k > 1 && memcmp(pa, prev, sizeof(int) * (size_t)m) != 0;
        if (k <= 8) first8 &= memcmp(pa, want, sizeof(int) * (size_t)m) == 0;
        if (k > 1) changes_ok &= changed == (k == 9 || k == 17);
        same &= memcmp(pa, pb, sizeof(int) * (size_t)m) == 0;
        int *seen = calloc((size_t)m, sizeof(int));
        for (int i = 0; i < m; i++) is_perm &= pa[i] >= 0 && pa[i] < m && !seen[pa[i]]++;
        free(seen);
        memcpy(prev, pa, sizeof(int) * (size_t)m);
    }
    ok(first8, "ode8/sweeps-1-8: rows without findex ascending, then friction rows ascending");
    ok(changes_ok && is_perm, "ode8/reshuffled-before-sweeps-9-and-17-only");
    ok(same, "ode8/deterministic-for-a-seed");
    lcp_order_free(&a);
    lcp_order_free(&b);
    opt.max_iter = 20;
    opt.omega = 1.3;
    opt.tol = -1.0;
    double *z1 = calloc((size_t)m, sizeof(double)), *z2 = calloc((size_t)m, sizeof(double));
    lcp_info info;
    lcp_solve(lcp_solver_find("pgs"), &P, &opt, z1, &info);
    lcp_solve(lcp_solver_find("pgs"), &P, &opt, z2, &info);
    ok(memcmp(z1, z2, sizeof(double) * (size_t)m) == 0, "ode8/pgs-20-sweeps-same-bits-twice");
    /* warm_scale: the start is warm_scale * z, projected (0 sweeps return the start) */
    lcp_options w;
    lcp_options_default(&w);
    ok(w.warm_scale == 1.0, "warm_scale/default-1");
    w.warm = 1;
    w.warm_scale = 0.9;
    w.max_iter = 0;
    for (int i = 0; i < m; i++) z1[i] = (double)(i % 5) - 1.0;  /* -1, 0, 1, 2, 3 */
    lcp_solve(lcp_solver_find("pgs"), &P, &w, z1, &info);
    int good = 1;
    for (int i = 0; i < m; i++) {
        double z0 = (double)(i % 5) - 1.0, lo, hi;
        if (P.findex[i] < 0) good &= z1[i] == fmax(0.0, 0.9 * z0);          /* normals */
        else {
            lcp_bounds(&P, z1, i, &lo, &hi);
            good &= z1[i] == fmin(fmax(0.9 * z0, lo), hi);
        }
    }
    ok(good, "warm_scale/0.9: pgs starts from mid(lo, 0.9 z, hi)");
    free(prev);
    free(want);
    free(z1);
    free(z2);
    lcp_problem_free(&P);
}

int main(int argc, char **argv)
{
    test_loops(7);
    test_known(10, 40, 0, 1);
    test_known(30, 150, 1, 2);
    test_known(80, 250, 1, 3);                           /* m = 500 */
    for (int m = 4; m <= 10; m += 3) {
        test_enum(m, 0, 10 + (uint64_t)m);
        test_enum(m, 1, 20 + (uint64_t)m);
    }
    test_ode_generator(1000);
    test_all_unbounded(120, 41);
    test_all_unbounded(600, 42);   /* the factor past DZ_BLAS_TRSV = 512 rows: OpenBLAS */
    for (int a = 1; a < argc; a++) test_frozen(argv[a]);
    test_degenerate();
    test_refusals();
    test_scale(51);
    test_ode8();
    return tap_done();
}
