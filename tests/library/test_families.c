/* test_families.c: the field's solver families (nncg, pgs-sm, apgd, spg, newton-min,
 * newton-fb, admm), one named TAP line per property:
 *   - reference/SOLVER/INSTANCE: on every committed instance given as an argument, each
 *     family solver reaches ldlt-ref's answer (tol 1e-8: converged, ||r||_2 <= 1e-8,
 *     wdiff <= 1e-6) or, where named in `stalls' below, returns an honest non-converged
 *     answer (max-iterations, its reported residual that of its z, above tol, below the
 *     start's: the best iterate); a solver that does not support the instance must refuse
 *     it with the registry's status;
 *   - known/SOLVER/PROBLEM: z* of a constructed problem (SPD A, z* and w* with disjoint
 *     supports, q = w* - A z*; standard and boxed) to 1e-7;
 *   - rate/newton-*: the local quadratic rate on a nondegenerate problem from its history:
 *     r_{k+1} <= 2 r_k^2 on every step from r_k <= 0.05 whose r_{k+1} is above the rounding
 *     floor (1e-12), at least two such steps;
 *   - forms/SOLVER: matrix-free and assembled iterates agree to rounding;
 *   - work/..., history/..., best/...: the work unit, the caller's history, the best iterate;
 *   - siconos/...: against Siconos's dense Newton-min and Newton-FB on small problems, when
 *     the peers are built in (# SKIP otherwise).
 */
#include "lcp.h"
#include "lcp_peers.h"
#include "tap.h"
#include "testprob.h"

#include <stdlib.h>
#include <string.h>

static const char *const fam[] = {"nncg", "pgs-sm", "apgd", "spg", "newton-min", "newton-fb",
                                  "admm"};
enum { NFAM = sizeof fam / sizeof fam[0] };

/* the committed instances where a method stalls at 50000 iterations (friction: the coupled
 * problem is not the QP spg's line search decreases) */
static const struct {
    const char *solver, *instance;
} stalls[] = {
    {"spg", "pool-graded-step100"},
    {"spg", "pool-step100"},
    {"spg", "spheres-step100"},
};

static int stalls_on(const char *s, const char *inst)
{
    for (size_t k = 0; k < sizeof stalls / sizeof stalls[0]; k++)
        if (!strcmp(stalls[k].solver, s) && !strcmp(stalls[k].instance, inst)) return 1;
    return 0;
}

static double r2_of(const lcp_problem *P, const double *z)
{
    double *w = malloc(sizeof(double) * (size_t)P->m);
    lcp_residuals R;
    lcp_residual(P, z, w, &R);
    free(w);
    return R.r2;
}

static lcp_status run(const char *name, const lcp_problem *P, lcp_options *o, double *z,
                      lcp_info *info)
{
    memset(z, 0, sizeof(double) * (size_t)P->m);
    return lcp_solve(lcp_solver_find(name), P, o, z, info);
}

/* one solver on one committed instance (P->zref: ldlt-ref's answer) */
static void on_instance(const char *s, const lcp_problem *P, const char *inst, double *z)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = 1e-8;
    o.max_iter = 50000;
    lcp_info info;
    lcp_status sup = lcp_solver_supports(lcp_solver_find(s), P);
    lcp_status st = run(s, P, &o, z, &info);
    if (sup != LCP_OK) {
        ok(st == sup, "reference/%s/%s refuses it: %s", s, inst, lcp_status_str(st));
        return;
    }
    double zd = NAN, wd = NAN, r = r2_of(P, z);
    lcp_ref_distance(P, z, &zd, &wd);
    memset(z, 0, sizeof(double) * (size_t)P->m);
    double r0 = r2_of(P, z);                                     /* the start's */
    if (stalls_on(s, inst)) {
        ok(st == LCP_MAXITER && r == info.residual && r > o.tol && r < r0,
           "reference/%s/%s stalls honestly: %s, ||r|| %.3g (start %.3g)", s, inst,
           lcp_status_str(st), r, r0);
        return;
    }
    ok(st == LCP_OK && r <= o.tol && wd <= 1e-6, "reference/%s/%s: %s in %d iterations, "
       "work %.0f, ||r|| %.3g, zdiff %.2g, wdiff %.2g", s, inst, lcp_status_str(st),
       info.iterations, info.work, r, zd, wd);
}

static void instances(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        lcp_problem P;
        char msg[512], buf[512];
        const char *inst = tp_folder_name(argv[a], buf, sizeof buf);
        if (lcp_read_instance(argv[a], &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "reference/%s: %s", inst, msg);
            continue;
        }
        double *z = calloc((size_t)P.m, sizeof(double));
        lcp_options o;
        lcp_options_default(&o);
        lcp_info info;
        lcp_status st = run("ldlt-ref", &P, &o, z, &info);
        free(P.zref);
        P.zref = z;                                          /* ldlt-ref's answer */
        double *zs = calloc((size_t)P.m, sizeof(double));
        if (ok(st == LCP_OK || st == LCP_NONUNIQUE, "reference/ldlt-ref/%s", inst))
            for (int s = 0; s < NFAM; s++) on_instance(fam[s], &P, inst, zs);
        free(zs);
        lcp_problem_free(&P);
    }
}

/* a nondegenerate problem with a known answer: m = nc contacts (fr friction rows each,
 * uncoupled: plain boxes) */
static int known_problem(lcp_problem *P, double **zs, int nb, int nc, int fr, uint64_t seed)
{
    if (tp_contact(P, 6, nb, nc, fr, 0.5, 0.05, seed) != 0) return -1;
    free(P->findex);
    P->findex = NULL;
    *zs = malloc(sizeof(double) * (size_t)P->m);
    tp_known(P, *zs, seed + 1);
    return 0;
}

static double dist(const double *a, const double *b, int m)
{
    double d = 0.0;
    for (int i = 0; i < m; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

static void known(void)
{
    const char *names[] = {"random-3d-m400", "random-3d-box-m450"};
    for (int p = 0; p < 2; p++) {
        lcp_problem P;
        double *zs;
        if (known_problem(&P, &zs, 100, p ? 150 : 400, p ? 2 : 0, 21 + (uint64_t)p) != 0) {
            ok(0, "known/%s: built", names[p]);
            continue;
        }
        double *z = malloc(sizeof(double) * (size_t)P.m);
        for (int s = 0; s < NFAM; s++) {
            lcp_options o;
            lcp_options_default(&o);
            o.tol = 1e-10;
            o.max_iter = 100000;
            lcp_info info;
            lcp_status st = run(fam[s], &P, &o, z, &info);
            double d = dist(z, zs, P.m);
            ok(st == LCP_OK && d <= 1e-7, "known/%s/%s: %s, %d iterations, |z - z*| %.2g",
               fam[s], names[p], lcp_status_str(st), info.iterations, d);
        }
        free(z);
        free(zs);
        lcp_problem_free(&P);
    }
}

/* Newton's local rate from its history: the residuals of its last steps */
static void rate(void)
{
    lcp_problem P;
    double *zs;
    if (known_problem(&P, &zs, 100, 300, 0, 31) != 0) {
        ok(0, "rate: built");
        return;
    }
    double *z = malloc(sizeof(double) * (size_t)P.m), res[64];
    for (int s = 4; s <= 5; s++) {
        lcp_history h = {.cap = 64, .residual = res};
        lcp_options o;
        lcp_options_default(&o);
        o.tol = 1e-12;
        o.max_iter = 60;
        o.history = &h;
        lcp_info info;
        lcp_status st = run(fam[s], &P, &o, z, &info);
        int n = h.n, steps = 0, quad = 1;
        for (int k = 0; k + 1 < n; k++)      /* local steps above the rounding floor */
            if (res[k] <= 0.05 && res[k + 1] >= 1e-12) {
                quad &= res[k + 1] <= 2.0 * res[k] * res[k];
                steps++;
            }
        ok(st == LCP_OK && quad && steps >= 2, "rate/%s: %d local steps with r_{k+1} <= 2 "
           "r_k^2, the last %.2e -> %.2e -> %.2e", fam[s], steps, n >= 3 ? res[n - 3] : NAN,
           n >= 2 ? res[n - 2] : NAN, res[n - 1]);
    }
    free(z);
    free(zs);
    lcp_problem_free(&P);
}

/* assembled and matrix-free: the same iterates to rounding (20 iterations) */
static void forms(void)
{
    lcp_problem P;
    double *zs;
    if (known_problem(&P, &zs, 40, 120, 2, 41) != 0) {
        ok(0, "forms: built");
        return;
    }
    double *za = malloc(sizeof(double) * (size_t)P.m), *zm = malloc(sizeof(double) * (size_t)P.m);
    for (int s = 0; s < NFAM; s++) {
        if (!(lcp_solver_find(fam[s])->needs & LCP_FACTORED)) continue;   /* admm: assembled */
        lcp_options o;
        lcp_options_default(&o);
        o.tol = -1.0;
        o.max_iter = fam[s][0] == 'n' && fam[s][1] == 'e' ? 3 : 20;
        lcp_info ia, im;
        o.form = LCP_FORM_ASSEMBLED;
        lcp_status sa = run(fam[s], &P, &o, za, &ia);
        o.form = LCP_FORM_MATRIX_FREE;
        lcp_status sm = run(fam[s], &P, &o, zm, &im);
        double d = dist(za, zm, P.m);
        ok(sa == sm && ia.form == LCP_FORM_ASSEMBLED && im.form == LCP_FORM_MATRIX_FREE &&
           d <= 1e-9, "forms/%s: assembled and matrix-free iterates within %.2g", fam[s], d);
    }
    free(za);
    free(zm);
    free(zs);
    lcp_problem_free(&P);
}

/* the work unit, counted exactly: per iteration nncg one sweep (assembled), spg one
 * product after the first's two, admm one solve plus the rho rule's product every 25;
 * pgs's work is still its sweeps */
static void work(void)
{
    lcp_problem P;
    double *zs;
    if (known_problem(&P, &zs, 40, 120, 2, 51) != 0) {
        ok(0, "work: built");
        return;
    }
    double *z = malloc(sizeof(double) * (size_t)P.m);
    lcp_options o;
    lcp_options_default(&o);
    o.tol = 1e-9;
    lcp_info i;
    o.form = LCP_FORM_ASSEMBLED;
    run("nncg", &P, &o, z, &i);
    ok(i.work == i.iterations, "work/nncg-assembled: %g = %d sweeps", i.work, i.iterations);
    o.form = LCP_FORM_MATRIX_FREE;
    run("nncg", &P, &o, z, &i);
    ok(i.work > i.iterations && i.work <= 2 * i.iterations, "work/nncg-matrix-free: %g for %d "
       "sweeps (u rebuilt after each momentum step)", i.work, i.iterations);
    run("spg", &P, &o, z, &i);
    ok(i.work == i.iterations + 1, "work/spg: %g = %d iterations + 1", i.work, i.iterations);
    run("admm", &P, &o, z, &i);
    ok(i.work == i.iterations + i.iterations / 25 && i.factorizations >= 1 &&
       i.factor_time > 0.0, "work/admm: %g for %d iterations, %ld factorisations in %.2g s",
       i.work, i.iterations, i.factorizations, i.factor_time);
    run("pgs", &P, &o, z, &i);
    ok(i.work == i.iterations, "work/pgs: %g = %d sweeps", i.work, i.iterations);
    free(z);
    free(zs);
    lcp_problem_free(&P);
}

/* the caller's history (apgd), and the best iterate of a run stopped early */
static void history(void)
{
    lcp_problem P;
    double *zs;
    if (known_problem(&P, &zs, 40, 120, 0, 61) != 0) {
        ok(0, "history: built");
        return;
    }
    enum { CAP = 4096 };
    int it[CAP];
    double wk[CAP], res[CAP], mer[CAP], *z = malloc(sizeof(double) * (size_t)P.m);
    lcp_history h = {.cap = CAP, .iteration = it, .work = wk, .residual = res, .merit = mer};
    lcp_options o;
    lcp_options_default(&o);
    o.tol = 1e-9;
    o.history = &h;
    lcp_info i;
    lcp_status st = run("apgd", &P, &o, z, &i);
    int mono = 1, n = h.n;
    for (int k = 1; k < n; k++) mono &= wk[k] > wk[k - 1] && it[k] == k && isfinite(mer[k]);
    ok(st == LCP_OK && n == i.residual_checks && n == i.iterations + 1 && it[0] == 0 &&
       wk[0] == 0.0 && mono && wk[n - 1] == i.work && res[n - 1] == i.residual,
       "history/apgd: %d rows, work 0 .. %g increasing, last residual %.3g", n, wk[n - 1],
       res[n - 1]);
    double best = INFINITY;
    for (int s = 0; s < NFAM; s++) {
        h.n = 0;
        o.max_iter = 6;
        o.sm_steps = strcmp(fam[s], "pgs-sm") ? 5 : 0;     /* pgs-sm: 6 x 5 PGS sweeps */
        st = run(fam[s], &P, &o, z, &i);
        best = INFINITY;
        for (int k = 0; k < h.n; k++) best = fmin(best, res[k]);
        ok(st == LCP_MAXITER && i.residual == best && r2_of(&P, z) == best,
           "best/%s: stopped after 6, returns the best of %d residuals, %.3g", fam[s], h.n, best);
    }
    free(z);
    free(zs);
    lcp_problem_free(&P);
}

/* a random dense positive definite LCP, A = B B^T + I (m x m), q from a known z* */
static int dense_problem(lcp_problem *P, double *zs, int m, uint64_t seed)
{
    double *B = malloc(sizeof(double) * (size_t)(m * m));
    double *A = calloc((size_t)(m * m), sizeof(double));
    double *q = malloc(sizeof(double) * (size_t)m);
    uint64_t r = seed;
    for (int k = 0; k < m * m; k++) B[k] = tp_unif(&r) - 0.5;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            for (int k = 0; k < m; k++) A[i * m + j] += B[i * m + k] * B[j * m + k];
            A[i * m + j] += i == j ? 1.0 : 0.0;
        }
    for (int i = 0; i < m; i++) zs[i] = tp_next(&r) % 2 ? 0.5 + tp_unif(&r) : 0.0;
    for (int i = 0; i < m; i++) {
        q[i] = zs[i] > 0.0 ? 0.0 : 0.2 + tp_unif(&r);           /* w*: disjoint support */
        for (int j = 0; j < m; j++) q[i] -= A[i * m + j] * zs[j];
    }
    int rc = tp_dense(P, m, A, q, NULL, NULL, NULL);
    free(A);
    free(B);
    free(q);
    return rc;
}

/* ours against Siconos's dense Newton methods, when the peers are built in */
static void siconos(void)
{
    static const char *const pair[][2] = {{"newton-min", "siconos-newton-min"},
                                          {"newton-fb", "siconos-newton-fb"}};
    for (int p = 0; p < 2; p++) {
        const lcp_solver *peer = lcp_peer_find(pair[p][1]);
        for (int k = 0; k < 4; k++) {
            int m = 10 + 10 * k;
            if (!peer) {
                ok(1, "siconos/%s/m%d # SKIP %s not built in", pair[p][0], m, pair[p][1]);
                continue;
            }
            lcp_problem P;
            double zs[40], zo[40], zp[40];
            dense_problem(&P, zs, m, 71 + (uint64_t)k);
            lcp_options o;
            lcp_options_default(&o);
            o.tol = 1e-10;
            lcp_info io, ip;
            lcp_status so = run(pair[p][0], &P, &o, zo, &io);
            memset(zp, 0, sizeof zp);
            lcp_status sp = lcp_solve(peer, &P, &o, zp, &ip);
            double d = dist(zo, zp, m), e = dist(zo, zs, m);
            ok(so == LCP_OK && sp == LCP_OK && d <= 1e-8 && e <= 1e-8, "siconos/%s/m%d: %d "
               "iterations (siconos %d), |z - z_siconos| %.2g, |z - z*| %.2g", pair[p][0], m,
               io.iterations, ip.iterations, d, e);
            lcp_problem_free(&P);
        }
    }
}

int main(int argc, char **argv)
{
    for (int s = 0; s < NFAM; s++) ok(lcp_solver_find(fam[s]) != NULL, "registry/%s", fam[s]);
    instances(argc, argv);
    known();
    rate();
    forms();
    work();
    history();
    siconos();
    return tap_done();
}
