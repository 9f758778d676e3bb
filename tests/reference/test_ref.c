/* test_ref.c: the pivoting reference `ldlt-ref' against answers known by construction, by
 * exhaustive enumeration of active sets (m <= 12) and by the dense LAPACKE path of the same
 * pivoting.  One named TAP line per property (ref/...).
 *
 * Enumeration: for every assignment of the rows to {lower, upper, free} (2^m for the
 * standard LCP, 3^m for finite boxes) solve A_FF z_F = -(q_F + A_FB z_B) in the least-squares
 * minimum-norm sense (LAPACKE_dgelsd, so singular A_FF are allowed), keep it when it is
 * consistent and complementary.  For semi-definite A some solution has a nonsingular A_FF
 * (a basic solution), so w = A z + q (unique) is found.
 *
 * Every solve also checks that CHOLMOD's malloc_count came back to its start value
 * (ref/malloc-count-balanced at the end).
 */
#include "enumerate.h"
#include "ldlt_ref.h"
#include "tap.h"
#include "testprob.h"

#include <float.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long n_solves = 0, n_leaks = 0;
static long n_ok = 0, n_ok_rounding = 0, n_usable = 0, n_usable_worse = 0;
static double worst_round = 0.0;
static int g_ipm = -1; /* ref_options.ipm of every solve (test_ipm forces the phase) */
static int g_super = -1; /* ref_options.supernodal of every solve (test_supernodal) */

static double inf_norm(const double *v, int m)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s = fmax(s, fabs(v[i]));
    return s;
}

static double max_diff(const double *a, const double *b, int m)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s = fmax(s, fabs(a[i] - b[i]));
    return s;
}

/* max_i |r_i| / (eps ((|A||z|)_i + |q_i|)): how far z is from rounding, row by row */
static double round_ratio(const lcp_problem *P, const double *z)
{
    double *w = malloc(sizeof(double) * (size_t)(P->m + 1)), worst = 0.0;
    lcp_residuals R;
    lcp_residual(P, z, w, &R);
    for (int i = 0; i < P->m; i++) {
        double lo, hi, s = fabs(P->q[i]);
        lcp_bounds(P, z, i, &lo, &hi);
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) s += fabs(P->A.x[k] * z[P->A.j[k]]);
        double r = fabs(z[i] - fmin(fmax(lo, z[i] - w[i]), hi));
        if (r > 0.0) worst = fmax(worst, s > 0.0 ? r / (DBL_EPSILON * s) : INFINITY);
    }
    free(w);
    return worst;
}

/* ref_solve with backend/variant, cold unless warm; counts CHOLMOD leaks, converged answers
 * not at rounding (row by row) and usable answers worse than the start */
static lcp_status solve(const lcp_problem *P, ref_backend_kind be, int block, int full,
                        int warm, long max_pivots, double *z, lcp_info *info,
                        ref_stats *st)
{
    lcp_options opt;
    ref_options ro;
    ref_stats local;
    lcp_options_default(&opt);
    opt.warm = warm;
    opt.max_pivots = max_pivots;
    ref_options_default(&ro);
    ro.backend = be;
    ro.block = block;
    ro.full_pattern = full;
    ro.ipm = g_ipm;
    ro.supernodal = g_super;
    if (!st) st = &local;
    double *z0 = malloc(sizeof(double) * (size_t)(P->m + 1)), r0 = 0.0;
    if (z0 && P->m > 0 && P->q) {                 /* the start's ||r||_inf */
        double *w0 = malloc(sizeof(double) * (size_t)P->m);
        lcp_residuals R0;
        memcpy(z0, z, sizeof(double) * (size_t)P->m);
        lcp_start(P, &opt, z0);
        lcp_residual(P, z0, w0, &R0);
        r0 = R0.rinf;
        free(w0);
    }
    free(z0);
    lcp_status s = ref_solve(P, &opt, &ro, z, info, st);
    n_solves++;
    if (s == LCP_OK) {
        double rr = P->m > 0 ? round_ratio(P, z) : 0.0;
        n_ok++;
        n_ok_rounding += rr <= 16.0;
        worst_round = fmax(worst_round, rr);
    }
    if (s > 0) {
        n_usable++;
        n_usable_worse += !(info->residual_inf <= r0);
    }
    if (st->malloc_delta != 0) {
        n_leaks++;
        tap_diag("malloc_count delta %ld after solve %ld", st->malloc_delta, n_solves);
    }
    return s;
}

static void wvec(const lcp_problem *P, const double *z, double *w)
{
    lcp_csr_matvec(&P->A, z, w);
    for (int i = 0; i < P->m; i++) w[i] += P->q[i];
}

/* A = M M^T + diag(e) with M: m x n, k random entries per row plus M_ii when i < n */
static int mk_random(lcp_problem *P, int m, int n, int k, double e, uint64_t seed)
{
    uint64_t s = seed;
    int nz = m * (k + 1), t = 0, rc = 0;
    int *ti = malloc(sizeof(int) * (size_t)nz), *tj = malloc(sizeof(int) * (size_t)(nz + n));
    double *tx = malloc(sizeof(double) * (size_t)(nz + n));
    double *E = malloc(sizeof(double) * (size_t)m);
    lcp_csr M, Id;
    memset(&M, 0, sizeof M);
    memset(&Id, 0, sizeof Id);
    lcp_problem_init(P);
    for (int i = 0; i < m; i++) {
        for (int r = 0; r < k; r++) {
            ti[t] = i;
            tj[t] = (int)(tp_next(&s) % (uint64_t)n);
            tx[t++] = 2.0 * tp_unif(&s) - 1.0;
        }
        if (i < n) {
            ti[t] = i;
            tj[t] = i;
            tx[t++] = 1.0 + tp_unif(&s);
        }
        E[i] = e;
    }
    rc |= lcp_csr_from_triplets(&M, m, n, t, ti, tj, tx);
    for (int i = 0; i < n; i++) {
        ti[i] = tj[i] = i;
        tx[i] = 1.0;
    }
    rc |= lcp_csr_from_triplets(&Id, n, n, n, ti, tj, tx);
    rc |= lcp_csr_jmjt(&M, &Id, e > 0.0 ? E : NULL, &P->A);
    rc |= lcp_problem_alloc_vectors(P, m);
    for (int i = 0; i < m && rc == 0; i++) P->q[i] = 2.0 * tp_unif(&s) - 1.0;
    lcp_csr_free(&M);
    lcp_csr_free(&Id);
    free(ti);
    free(tj);
    free(tx);
    free(E);
    char msg[256];
    if (rc == 0 && lcp_problem_check(P, msg, sizeof msg) != LCP_OK) rc = -1;
    return rc ? -1 : 0;
}

static void test_known(int m, int box, uint64_t seed)
{
    lcp_problem P;
    lcp_info info;
    const char *kind = box ? "box" : "solution";
    if (mk_random(&P, m, m, 3, 0.1, seed) != 0) {
        ok(0, "ref/known-%s-m%d (setup)", kind, m);
        return;
    }
    if (box)
        for (int i = 0; i < m; i++) {
            P.lo[i] = i % 4 == 3 ? -INFINITY : -0.5 - (double)(i % 3);
            P.hi[i] = i % 5 == 4 ? INFINITY : 0.5 + (double)(i % 2);
        }
    double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    tp_known(&P, zs, seed + 7);
    int nlo = 0, nhi = 0, nfree = 0;
    for (int i = 0; i < m; i++) {
        if (zs[i] == P.lo[i]) nlo++;
        else if (zs[i] == P.hi[i]) nhi++;
        else nfree++;
    }
    lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
    double d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && d <= 1e-12, "ref/known-%s-m%d", kind, m);
    if (st != LCP_OK || d > 1e-12)
        tap_diag("status %s, |z - z*| %.3g, pivots %ld", lcp_status_str(st), d, info.pivots);
    if (box) ok(nlo > 0 && nhi > 0 && nfree > 0, "ref/known-box-m%d-has-lo-hi-inside", m);
    if (m <= 400) {
        st = solve(&P, REF_DENSE, 1, -1, 0, 0, z, &info, NULL);
        d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
        ok(st == LCP_OK && d <= 1e-12, "ref/dense-known-%s-m%d", kind, m);
    }
    /* variants: single pivots only, full pattern always, sub pattern always */
    if (m <= 400) { /* one factorisation per moved index: small m only */
        st = solve(&P, REF_CHOLMOD, 0, -1, 0, 0, z, &info, NULL);
        d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
        ok(st == LCP_OK && d <= 1e-12, "ref/murty-only-known-%s-m%d", kind, m);
    }
    st = solve(&P, REF_CHOLMOD, 1, 1, 0, 0, z, &info, NULL);
    d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && d <= 1e-12, "ref/full-pattern-known-%s-m%d", kind, m);
    st = solve(&P, REF_CHOLMOD, 1, 0, 0, 0, z, &info, NULL);
    d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && d <= 1e-12, "ref/sub-pattern-known-%s-m%d", kind, m);
    /* warm start from the answer: one step, no pivots */
    st = solve(&P, REF_CHOLMOD, 1, -1, 1, 0, z, &info, NULL);
    ok(st == LCP_OK && info.pivots == 0 && info.iterations == 1, "ref/warm-from-answer-%s-m%d",
       kind, m);
    free(zs);
    free(z);
    lcp_problem_free(&P);
}

/* m <= 12: enumeration, sparse and dense agree */
static void test_enum(int m, int box, int semidef, uint64_t seed)
{
    lcp_problem P;
    lcp_info info;
    ref_stats rs;
    char name[64];
    snprintf(name, sizeof name, "%s%s-m%d", semidef ? "semidef" : "pd", box ? "-box" : "", m);
    /* semi-definite: A = M M^T with M m x (m/2) */
    if (mk_random(&P, m, semidef ? m / 2 : m, 2, semidef ? 0.0 : 0.05, seed) != 0) {
        ok(0, "ref/enum-%s (setup)", name);
        return;
    }
    if (box)
        for (int i = 0; i < m; i++) {
            P.lo[i] = -0.3;
            P.hi[i] = 0.4;
        }
    if (semidef) { /* q = w* - A z* so that a solution exists (a random q may have none) */
        double *zs = malloc(sizeof(double) * (size_t)m);
        tp_known(&P, zs, seed + 1);
        free(zs);
    }
    double *ze = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    double *zd = malloc(sizeof(double) * (size_t)m), *we = malloc(sizeof(double) * (size_t)m);
    double *w = malloc(sizeof(double) * (size_t)m), *wd = malloc(sizeof(double) * (size_t)m);
    int nsol = enumerate(&P, ze);
    lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
    lcp_info dinfo;
    lcp_status sd = solve(&P, REF_DENSE, 1, -1, 0, 0, zd, &dinfo, NULL);
    wvec(&P, ze, we);
    wvec(&P, z, w);
    wvec(&P, zd, wd);
    double ws = fmax(1.0, inf_norm(we, m));
    if (!semidef) {
        ok(nsol == 1 && st == LCP_OK && max_diff(z, ze, m) <= 1e-10 * fmax(1.0, inf_norm(ze, m)),
           "ref/enum-%s", name);
        ok(sd == LCP_OK && max_diff(zd, z, m) <= 1e-10 * fmax(1.0, inf_norm(z, m)),
           "ref/dense-agrees-%s", name);
    } else {
        double bound = 1e-10 * fmax(1.0, inf_norm(P.q, m));
        ok(nsol >= 1 && (st == LCP_OK || st == LCP_NONUNIQUE) && info.residual_inf <= bound &&
               max_diff(w, we, m) <= 1e-9 * ws,
           "ref/enum-w-%s", name);
        ok((sd == LCP_OK || sd == LCP_NONUNIQUE) && max_diff(wd, w, m) <= 1e-9 * ws,
           "ref/dense-agrees-w-%s", name);
        if (st != LCP_OK && st != LCP_NONUNIQUE)
            tap_diag("status %s row %d res %.3g", lcp_status_str(st), info.row,
                     info.residual_inf);
    }
    if (nsol < 1) tap_diag("enumeration found no solution");
    free(ze);
    free(z);
    free(zd);
    free(we);
    free(w);
    free(wd);
    lcp_problem_free(&P);
}

/* A = J J^T, J m x n with m > n, z* supported on more than n rows: z not unique */
static void test_nonunique(int m, int n, uint64_t seed)
{
    lcp_problem P;
    lcp_info info;
    ref_stats rs;
    if (mk_random(&P, m, n, 2, 0.0, seed) != 0) {
        ok(0, "ref/nonunique-m%d-n%d (setup)", m, n);
        return;
    }
    double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    double *ws = malloc(sizeof(double) * (size_t)m), *w = malloc(sizeof(double) * (size_t)m);
    double *zd = malloc(sizeof(double) * (size_t)m), *wd = malloc(sizeof(double) * (size_t)m);
    uint64_t s = seed + 3;
    for (int i = 0; i < m; i++) { /* 3/4 of the rows in contact (support > n) */
        int in = i % 4 != 0;
        zs[i] = in ? 0.2 + tp_unif(&s) : 0.0;
        ws[i] = in ? 0.0 : 0.2 + tp_unif(&s);
    }
    lcp_csr_matvec(&P.A, zs, P.q);
    for (int i = 0; i < m; i++) P.q[i] = ws[i] - P.q[i];
    lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
    wvec(&P, z, w);
    double sc = fmax(1.0, inf_norm(ws, m));
    ok(st == LCP_NONUNIQUE && max_diff(w, ws, m) <= 1e-9 * sc &&
           info.residual_inf <= 1e-10 * fmax(1.0, inf_norm(P.q, m)),
       "ref/nonunique-w-exact-m%d-n%d", m, n);
    if (st != LCP_NONUNIQUE)
        tap_diag("status %s, |w - w*| %.3g, res %.3g", lcp_status_str(st),
                 max_diff(w, ws, m), info.residual_inf);
    lcp_status sd = solve(&P, REF_DENSE, 1, -1, 0, 0, zd, &info, NULL);
    wvec(&P, zd, wd);
    ok(sd == LCP_NONUNIQUE && max_diff(wd, ws, m) <= 1e-9 * sc,
       "ref/dense-nonunique-w-exact-m%d-n%d", m, n);
    free(zs);
    free(z);
    free(ws);
    free(w);
    free(zd);
    free(wd);
    lcp_problem_free(&P);
}

static void test_findex(int nb, int nc, uint64_t seed)
{
    lcp_problem P;
    lcp_info info, dinfo;
    ref_stats rs;
    if (tp_contact(&P, 6, nb, nc, 2, 0.5, 1e-4, seed) != 0) {
        ok(0, "ref/findex-m%d (setup)", 3 * nc);
        lcp_problem_free(&P);
        return;
    }
    int m = P.m;
    double *z = malloc(sizeof(double) * (size_t)m), *zd = malloc(sizeof(double) * (size_t)m);
    double *w = malloc(sizeof(double) * (size_t)m);
    lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
    double bound = 1e-10 * fmax(1.0, inf_norm(P.q, m));
    lcp_residuals R;
    lcp_residual(&P, z, w, &R);
    int sliding = 0, sticking = 0;
    for (int i = 0; i < m; i++)
        if (P.findex[i] >= 0 && z[P.findex[i]] > 0.0) {
            double h = P.hi[i] * z[P.findex[i]];
            if (fabs(fabs(z[i]) - h) <= 1e-12 * fmax(1.0, h)) sliding++;
            else sticking++;
        }
    ok(st == LCP_OK && R.rinf <= bound && rs.rounds >= 2, "ref/findex-coupled-m%d", m);
    tap_diag("findex m=%d: %s, rounds %d, pivots %ld, factorizations %ld, newton %ld, "
             "coupled steps %ld, residual %.3g, sliding %d sticking %d",
             m, lcp_status_str(st), rs.rounds, info.pivots, info.factorizations,
             rs.newton_steps, rs.coupled_steps, R.rinf, sliding, sticking);
    /* coupled pivoting ends the rounds: the coupled problem to rounding, not to 1e-12 */
    ok(st == LCP_OK && rs.coupled_steps > 0 && R.rinf <= 1e-13 * fmax(1.0, inf_norm(P.q, m)) &&
           sliding > 0 && sticking > 0,
       "ref/findex-coupled-pivoting-exact-m%d", m);
    lcp_status sd = solve(&P, REF_DENSE, 1, -1, 0, 0, zd, &dinfo, NULL);
    ok(sd == LCP_OK && max_diff(zd, z, m) <= 1e-9 * fmax(1.0, inf_norm(z, m)),
       "ref/dense-agrees-findex-m%d", m);
    free(z);
    free(zd);
    free(w);
    lcp_problem_free(&P);
}

/* Contact-structured boxes (friction rows +-mu, no coupling) with a constructed answer:
 * block steps stall on these, so the Newton stage is exercised. */
static void test_contact_box(int nb, int nc, uint64_t seed)
{
    lcp_problem P;
    lcp_info info;
    ref_stats rs;
    if (tp_contact(&P, 6, nb, nc, 2, 0.5, 1e-2, seed) != 0) {
        ok(0, "ref/contact-box-known-m%d (setup)", 3 * nc);
        lcp_problem_free(&P);
        return;
    }
    int m = P.m;
    free(P.findex); /* plain boxes: the constructed answer needs fixed bounds */
    P.findex = NULL;
    double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    double *zd = malloc(sizeof(double) * (size_t)m);
    tp_known(&P, zs, seed + 5);
    lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
    double d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && d <= 1e-10, "ref/contact-box-known-m%d", m);
    tap_diag("contact box m=%d: %s, |z - z*| %.3g, steps %d, newton %ld, single %ld", m,
             lcp_status_str(st), d, info.iterations, rs.newton_steps, rs.single_steps);
    lcp_status sd = solve(&P, REF_DENSE, 1, -1, 0, 0, zd, &info, NULL);
    ok(sd == LCP_OK && max_diff(zd, zs, m) <= 1e-10 * fmax(1.0, inf_norm(zs, m)),
       "ref/dense-contact-box-known-m%d", m);
    free(zs);
    free(z);
    free(zd);
    lcp_problem_free(&P);
}

/* Multiply every stored entry above the diagonal by 1 + rel u, u uniform in [-1, 1]: A is
 * then symmetric only to rounding (as J^T M^-1 J assembled in floating point). */
static void perturb(lcp_problem *P, double rel, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < P->m; i++)
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++)
            if (P->A.j[k] > i) P->A.x[k] *= 1.0 + rel * (2.0 * tp_unif(&s) - 1.0);
    P->symmetric = 0;
}

/* Symmetric to rounding: accepted (asymmetry reported, at most options.sym_tol), pivoted
 * with the symmetric part, and the answer exact for A itself (known solution built with the
 * perturbed A; friction coupling residual on A). */
static void test_nearsym(void)
{
    lcp_problem P;
    lcp_info info;
    int m = 300;
    mk_random(&P, m, m, 3, 0.1, 71);
    perturb(&P, 8e-13, 72);
    double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    double *w = malloc(sizeof(double) * (size_t)m);
    tp_known(&P, zs, 73);
    const lcp_solver *s = lcp_solver_find("ldlt-ref");
    lcp_options opt;
    lcp_options_default(&opt);
    ok(lcp_solver_supports(s, &P) == LCP_OK && !lcp_csr_is_symmetric(&P.A),
       "ref/nearsym-registry-accepts");
    lcp_status st = lcp_solve(s, &P, &opt, z, &info);
    lcp_residuals R;
    lcp_residual(&P, z, w, &R);
    double d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && info.asymmetry > 0.0 && info.asymmetry <= 1e-12 && d <= 1e-12 &&
           R.rinf <= 1e-13 * fmax(1.0, inf_norm(P.q, m)) && info.residual_inf == R.rinf,
       "ref/nearsym-known-m%d-exact-on-A", m);
    tap_diag("near-symmetric m=%d: %s, asymmetry %.3g, |z - z*| %.3g, ||r||_inf on A %.3g", m,
             lcp_status_str(st), info.asymmetry, d, R.rinf);
    st = solve(&P, REF_DENSE, 1, -1, 0, 0, z, &info, NULL);
    d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && d <= 1e-12, "ref/nearsym-dense-known-m%d", m);
    opt.sym_tol = 1e-15;                        /* tighter: Lemke's method, same answer */
    st = lcp_solve(s, &P, &opt, z, &info);
    d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && info.asymmetry > 1e-15 && info.factorizations == 0 && d <= 1e-12,
       "ref/nearsym-above-sym-tol-lemke");
    free(zs);
    free(z);
    free(w);
    lcp_problem_free(&P);
    /* friction coupling (coupled pivoting's GMRES uses A's rows) */
    if (tp_contact(&P, 6, 30, 60, 2, 0.5, 1e-4, 32) != 0) {
        ok(0, "ref/nearsym-findex (setup)");
        lcp_problem_free(&P);
        return;
    }
    m = P.m;
    perturb(&P, 1e-12, 74);
    z = malloc(sizeof(double) * (size_t)m);
    w = malloc(sizeof(double) * (size_t)m);
    ref_stats rs;
    st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
    lcp_residual(&P, z, w, &R);
    ok(st == LCP_OK && R.rinf <= 1e-13 * fmax(1.0, inf_norm(P.q, m)) && info.asymmetry > 0.0,
       "ref/nearsym-findex-m%d-exact-on-A", m);
    tap_diag("near-symmetric findex m=%d: %s, asymmetry %.3g, ||r||_inf %.3g, coupled %ld", m,
             lcp_status_str(st), info.asymmetry, R.rinf, rs.coupled_steps);
    free(z);
    free(w);
    lcp_problem_free(&P);
}

/* The interior-point phase forced on (ro.ipm = 1: it runs after the first block step that
 * leaves violators), on the problems above: the answers must not change.  Also: the auto
 * rule starts it on a contact problem where block steps stall, and the answer is exact. */
static void test_ipm(void)
{
    lcp_problem P;
    lcp_info info;
    ref_stats rs;
    g_ipm = 1;
    for (int box = 0; box <= 1; box++)
        for (int m = 50; m <= 300; m *= 6) {
            const char *kind = box ? "box" : "solution";
            if (mk_random(&P, m, m, 3, 0.1, 60 + (uint64_t)m) != 0) {
                ok(0, "ref/ipm-known-%s-m%d (setup)", kind, m);
                continue;
            }
            for (int i = 0; box && i < m; i++) {  /* lower only, upper only, both, none */
                P.lo[i] = i % 4 == 3 ? -INFINITY : -0.5 - (double)(i % 3);
                P.hi[i] = i % 5 == 4 ? INFINITY : 0.5 + (double)(i % 2);
            }
            double *zs = malloc(sizeof(double) * (size_t)m);
            double *z = malloc(sizeof(double) * (size_t)m);
            tp_known(&P, zs, 61 + (uint64_t)m);
            lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
            double d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
            ok(st == LCP_OK && d <= 1e-12 && rs.ipm_steps > 0, "ref/ipm-known-%s-m%d", kind, m);
            tap_diag("ipm known %s m=%d: %s, |z - z*| %.3g, ipm steps %ld, steps %d", kind, m,
                     lcp_status_str(st), d, rs.ipm_steps, info.iterations);
            if (m <= 400) {
                st = solve(&P, REF_DENSE, 1, -1, 0, 0, z, &info, &rs);
                d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
                ok(st == LCP_OK && d <= 1e-12 && rs.ipm_steps > 0, "ref/ipm-dense-known-%s-m%d",
                   kind, m);
            }
            free(zs);
            free(z);
            lcp_problem_free(&P);
        }
    /* the sub pattern (forced): the interior point factors one free set at every iteration,
     * which is analysed once (ref_cholmod.c), not once a factorisation */
    if (mk_random(&P, 300, 300, 3, 0.1, 360) == 0) {
        int m = P.m;
        for (int i = 0; i < m; i++) {
            P.lo[i] = i % 4 == 3 ? -INFINITY : -0.5 - (double)(i % 3);
            P.hi[i] = i % 5 == 4 ? INFINITY : 0.5 + (double)(i % 2);
        }
        double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
        tp_known(&P, zs, 361);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, 0, 0, 0, z, &info, &rs);
        double d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
        long fact = info.factorizations - rs.lu_factorizations;
        ok(st == LCP_OK && d <= 1e-12 && rs.ipm_steps >= 2 &&
               rs.analyses + rs.ipm_steps - 1 <= fact,
           "ref/ipm-sub-pattern-analysed-once-m%d", m);
        tap_diag("ipm sub pattern m=%d: %s, |z - z*| %.3g, ipm steps %ld, analyses %ld of %ld "
                 "factorisations", m, lcp_status_str(st), d, rs.ipm_steps, rs.analyses, fact);
        free(zs);
        free(z);
        lcp_problem_free(&P);
    }
    for (int m = 6; m <= 12; m += 6)                  /* enumeration, pd and semi-definite */
        for (int semidef = 0; semidef <= 1; semidef++) {
            if (mk_random(&P, m, semidef ? m / 2 : m, 2, semidef ? 0.0 : 0.05,
                          70 + (uint64_t)m) != 0)
                continue;
            size_t sz = sizeof(double) * (size_t)m;
            double *zs = malloc(sz), *ze = malloc(sz), *z = malloc(sz), *w = malloc(sz);
            double *we = malloc(sz);
            if (semidef) tp_known(&P, zs, 71 + (uint64_t)m);
            int nsol = enumerate(&P, ze);
            lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
            wvec(&P, z, w);
            wvec(&P, ze, we);
            double dz = max_diff(z, ze, m) / fmax(1.0, inf_norm(ze, m));
            double dw = max_diff(w, we, m) / fmax(1.0, inf_norm(we, m));
            ok(nsol >= 1 && (st == LCP_OK || (semidef && st == LCP_NONUNIQUE)) &&
                   (semidef ? dw <= 1e-9 : dz <= 1e-10) && rs.ipm_steps > 0,
               "ref/ipm-enum-%s-m%d", semidef ? "semidef" : "pd", m);
            free(zs);
            free(z);
            free(ze);
            free(w);
            free(we);
            lcp_problem_free(&P);
        }
    /* semi-definite A = M M^T (M 200 x 90): w exact, reported non-unique */
    if (mk_random(&P, 200, 90, 2, 0.0, 75) == 0) {
        int m = P.m;
        double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
        double *w = malloc(sizeof(double) * (size_t)m), *ws = malloc(sizeof(double) * (size_t)m);
        tp_known(&P, zs, 76);
        wvec(&P, zs, ws);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
        wvec(&P, z, w);
        ok(st == LCP_NONUNIQUE && rs.ipm_steps > 0 &&
               max_diff(w, ws, m) <= 1e-9 * fmax(1.0, inf_norm(ws, m)) &&
               info.residual_inf <= 1e-10 * fmax(1.0, inf_norm(P.q, m)),
           "ref/ipm-nonunique-w-exact-m%d", m);
        tap_diag("ipm semi-definite m=%d: %s, ipm steps %ld, |w - w*| %.3g", m,
                 lcp_status_str(st), rs.ipm_steps, max_diff(w, ws, m));
        free(zs);
        free(z);
        free(w);
        free(ws);
    }
    lcp_problem_free(&P);
    /* friction coupling: the forced phase (first round) against the default path */
    if (tp_contact(&P, 6, 30, 60, 2, 0.5, 1e-4, 32) == 0) {
        int m = P.m;
        double *z = malloc(sizeof(double) * (size_t)m), *zd = malloc(sizeof(double) * (size_t)m);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
        g_ipm = 0;
        lcp_status sd = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, zd, &info, NULL);
        g_ipm = 1;
        ok(st == LCP_OK && sd == LCP_OK && rs.ipm_steps > 0 &&
               max_diff(z, zd, m) <= 1e-9 * fmax(1.0, inf_norm(zd, m)),
           "ref/ipm-findex-agrees-m%d", m);
        free(z);
        free(zd);
    }
    lcp_problem_free(&P);
    g_ipm = -1;
    /* the auto rule: contact boxes on which block steps stall */
    if (tp_contact(&P, 6, 60, 300, 2, 0.5, 1e-2, 43) == 0) {
        int m = P.m;
        free(P.findex);
        P.findex = NULL;
        double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
        tp_known(&P, zs, 44);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, &rs);
        double d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
        ok(st == LCP_OK && d <= 1e-10 && rs.ipm_steps > 0, "ref/ipm-auto-contact-box-m%d", m);
        tap_diag("auto: m=%d %s, |z - z*| %.3g, ipm steps %ld, newton %ld, steps %d", m,
                 lcp_status_str(st), d, rs.ipm_steps, rs.newton_steps, info.iterations);
        free(zs);
        free(z);
    }
    lcp_problem_free(&P);
}

static void test_small_cases(void)
{
    lcp_problem P;
    lcp_info info;
    double z[4];
    /* singular: A = [1 1; 1 1], q = (-1, -1): z1 + z2 = 1, not unique */
    {
        const double A[] = {1, 1, 1, 1}, q[] = {-1, -1};
        tp_dense(&P, 2, A, q, NULL, NULL, NULL);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        ok(st == LCP_NONUNIQUE && fabs(z[0] + z[1] - 1.0) <= 1e-12 && z[0] >= 0 && z[1] >= 0,
           "ref/singular-2x2-nonunique");
        lcp_problem_free(&P);
    }
    /* zero matrix, q >= 0: z = 0 solves */
    {
        const double A[] = {0, 0, 0, 0}, q[] = {1, 2};
        tp_dense(&P, 2, A, q, NULL, NULL, NULL);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        ok(st == LCP_OK && z[0] == 0.0 && z[1] == 0.0, "ref/zero-matrix-feasible");
        lcp_problem_free(&P);
    }
    /* zero matrix, q < 0: no solution, never LCP_OK */
    {
        const double A[] = {0, 0, 0, 0}, q[] = {1, -2};
        tp_dense(&P, 2, A, q, NULL, NULL, NULL);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        ok(st == LCP_ERR_NO_SOLUTION && info.certificate <= 1e-12,
           "ref/zero-matrix-infeasible-certified");
        tap_diag("zero matrix, q < 0: %s row %d", lcp_status_str(st), info.row);
        lcp_problem_free(&P);
    }
    /* indefinite: A = [1 2; 2 1] is not semi-definite */
    {
        const double A[] = {1, 2, 2, 1}, q[] = {-1, -1};
        tp_dense(&P, 2, A, q, NULL, NULL, NULL);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        lcp_residuals R;
        double w[2];
        lcp_residual(&P, z, w, &R);
        ok(st < 0 || R.rinf <= 1e-10, "ref/indefinite-never-silent");
        tap_diag("indefinite: %s", lcp_status_str(st));
        lcp_problem_free(&P);
    }
    /* non-symmetric A: handed to Lemke's method (z = (1/4, 1/2)), no factorisation */
    {
        const double A[] = {2, 1, 0, 2}, q[] = {-1, -1};
        tp_dense(&P, 2, A, q, NULL, NULL, NULL);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        ok(st == LCP_OK && fabs(z[0] - 0.25) <= 1e-15 && fabs(z[1] - 0.5) <= 1e-15 &&
               info.asymmetry == 0.5 && info.factorizations == 0,
           "ref/nonsymmetric-solved-by-lemke");
        lcp_problem_free(&P);
    }
    /* NaN in q: rejected by lcp_problem_check, and never LCP_OK from ldlt-ref */
    {
        const double A[] = {2, 0, 0, 2}, q[] = {-1, -1};
        tp_dense(&P, 2, A, q, NULL, NULL, NULL);
        P.q[1] = NAN;
        char msg[200];
        lcp_status sc = lcp_problem_check(&P, msg, sizeof msg);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        ok(sc < 0 && st < 0 && info.row == 1, "ref/nan-q-rejected");
        P.q[1] = -1.0;
        z[0] = NAN;
        z[1] = 0.0;
        st = solve(&P, REF_CHOLMOD, 1, -1, 1, 0, z, &info, NULL);
        ok(st < 0, "ref/nan-warm-start-rejected");
        lcp_problem_free(&P);
    }
    /* free rows (both bounds infinite) and a fixed row (lo = hi) */
    {
        const double A[] = {4, 1, 0, 1, 3, 1, 0, 1, 2}, q[] = {1, -2, 3};
        const double lo[] = {-INFINITY, 0.5, -INFINITY}, hi[] = {INFINITY, 0.5, INFINITY};
        tp_dense(&P, 3, A, q, lo, hi, NULL);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        double w[3];
        wvec(&P, z, w);
        ok(st == LCP_OK && z[1] == 0.5 && fabs(w[0]) <= 1e-14 && fabs(w[2]) <= 1e-14,
           "ref/free-and-fixed-rows");
        lcp_problem_free(&P);
    }
    /* empty problem */
    {
        lcp_problem_init(&P);
        lcp_problem_alloc_vectors(&P, 0);
        lcp_csr_alloc(&P.A, 0, 0, 0);
        lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 0, z, &info, NULL);
        ok(st == LCP_OK, "ref/empty-problem");
        lcp_problem_free(&P);
    }
}

static void test_pivot_cap(void)
{
    lcp_problem P;
    lcp_info info;
    int m = 60;
    mk_random(&P, m, m, 3, 0.1, 99);
    double *z = malloc(sizeof(double) * (size_t)m);
    lcp_status st = solve(&P, REF_CHOLMOD, 1, -1, 0, 2, z, &info, NULL);
    ok(st == LCP_PIVOT_CAP && info.row >= 0 && info.row < m && info.pivots <= 2,
       "ref/pivot-cap-reported");
    /* the answer is the best iterate: never worse than z = 0 (the start), and the residual
     * reported is that of the z returned */
    double *w = malloc(sizeof(double) * (size_t)m), *z0 = calloc((size_t)m, sizeof(double));
    lcp_residuals R, R0;
    lcp_residual(&P, z, w, &R);
    lcp_residual(&P, z0, w, &R0);
    ok(R.rinf <= R0.rinf && R.rinf == info.residual_inf, "ref/pivot-cap-best-iterate");
    tap_diag("pivot cap: ||r||_inf %.3g, start %.3g", R.rinf, R0.rinf);
    free(w);
    free(z0);
    free(z);
    lcp_problem_free(&P);
    /* pivot caps across a contact problem's block steps: intermediate partitions are often
     * worse than the start; every capped answer must not be */
    if (tp_contact(&P, 6, 60, 300, 2, 0.5, 1e-4, 43) != 0) {
        ok(0, "ref/pivot-cap-best-iterate-contact (setup)");
        lcp_problem_free(&P);
        return;
    }
    m = P.m;
    z = malloc(sizeof(double) * (size_t)m);
    w = malloc(sizeof(double) * (size_t)m);
    z0 = calloc((size_t)m, sizeof(double));
    lcp_residual(&P, z0, w, &R0);
    int capped = 0, worse = 0;
    for (long cap = 50; cap <= 1600; cap *= 2) {
        st = solve(&P, REF_CHOLMOD, 1, -1, 0, cap, z, &info, NULL);
        lcp_residual(&P, z, w, &R);
        capped += st == LCP_PIVOT_CAP;
        worse += st > 0 && !(R.rinf <= R0.rinf && R.rinf == info.residual_inf);
        tap_diag("cap %ld: %s ||r||_inf %.3g (start %.3g)", cap, lcp_status_str(st), R.rinf, R0.rinf);
    }
    ok(capped > 0 && worse == 0, "ref/pivot-cap-best-iterate-contact-m%d (%d capped)", m, capped);
    free(w);
    free(z0);
    free(z);
    lcp_problem_free(&P);
}

static void test_registry(void)
{
    const lcp_solver *s = lcp_solver_find("ldlt-ref");
    ok(s && (s->needs & LCP_DIRECT) && (s->needs & LCP_SUPPORTS_FINDEX),
       "ref/registered-as-ldlt-ref");
    if (!s) return;
    lcp_problem P;
    lcp_info info;
    lcp_options opt;
    int m = 100;
    mk_random(&P, m, m, 3, 0.1, 5);
    double *zs = malloc(sizeof(double) * (size_t)m), *z = malloc(sizeof(double) * (size_t)m);
    tp_known(&P, zs, 11);
    lcp_options_default(&opt);
    lcp_status st = lcp_solve(s, &P, &opt, z, &info);
    double d = max_diff(z, zs, m) / fmax(1.0, inf_norm(zs, m));
    ok(st == LCP_OK && info.status == LCP_OK && d <= 1e-12 &&
           info.factorizations > 0 && info.flops > 0 && info.work == (double)info.pivots,
       "ref/registry-solve-fills-info");
    free(zs);
    free(z);
    lcp_problem_free(&P);
}

/* One problem solved with CHOLMOD's simplicial LDL^T and with the supernodal LL^T
 * (ref_super.c) forced: the same status, every factorisation of the second run
 * supernodal (or a sparse LU of the semismooth Newton phase), w within 1e-9 relative and z too when it is unique, and without friction the
 * same pivoting path (steps, pivots, factorisations).  With friction the rounds run
 * hundreds of solves whose rounding differs, so the two paths may part (on the committed
 * spheres instance 293 and 317 steps) and only the answers are compared. */
static void super_pair(const char *name, const lcp_problem *P, int full)
{
    int m = P->m;
    double *z0 = calloc((size_t)m + 1, sizeof(double)), *z1 = calloc((size_t)m + 1, sizeof(double));
    double *w0 = malloc(sizeof(double) * ((size_t)m + 1)), *w1 = malloc(sizeof(double) * ((size_t)m + 1));
    lcp_info i0, i1;
    ref_stats r0, r1;
    g_super = 0;
    lcp_status s0 = solve(P, REF_CHOLMOD, 1, full, 0, 0, z0, &i0, &r0);
    g_super = 1;
    lcp_status s1 = solve(P, REF_CHOLMOD, 1, full, 0, 0, z1, &i1, &r1);
    g_super = -1;
    wvec(P, z0, w0);
    wvec(P, z1, w1);
    double zs = fmax(1.0, inf_norm(z0, m)), ws = fmax(1.0, inf_norm(P->q, m));
    double dz = max_diff(z0, z1, m), dw = max_diff(w0, w1, m);
    int unique = s0 == LCP_OK, path = P->findex != NULL || (i0.iterations == i1.iterations &&
                   i0.pivots == i1.pivots && i0.factorizations == i1.factorizations);
    ok(s0 == s1 && s0 >= 0 && path && r0.supernodal == 0 &&
           r1.supernodal + r1.lu_factorizations == i1.factorizations && i1.factorizations > 0 &&
           (!unique || dz <= 1e-9 * zs) && dw <= 1e-9 * ws,
       "ref/supernodal-agrees-%s%s (%s, steps %d/%d, fact %ld, dz %.2g, dw %.2g)", name,
       full == 1 ? "-full" : "", lcp_status_str(s1), i0.iterations, i1.iterations,
       i1.factorizations, dz, dw);
    free(z0);
    free(z1);
    free(w0);
    free(w1);
}

/* test_ref --supernodal DIR: the supernodal factorisation against CHOLMOD's simplicial one
 * on generated problems (random SPD and semi-definite, boxes, friction coupling, the
 * interior-point start) and on every committed instance in DIR. */
static int test_supernodal(const char *dir)
{
    lcp_problem P;
    char name[160];
    for (int m = 4; m <= 12; m += 4)
        for (int box = 0; box <= 1; box++) {
            if (mk_random(&P, m, m, 3, 0.1, 500 + (uint64_t)m) == 0) {
                if (box)
                    for (int i = 0; i < m; i++) { P.lo[i] = -0.3; P.hi[i] = 0.3; }
                snprintf(name, sizeof name, "random-%s-m%d", box ? "box" : "lcp", m);
                super_pair(name, &P, -1);
            }
            lcp_problem_free(&P);
        }
    if (mk_random(&P, 300, 300, 3, 0.1, 601) == 0) {
        super_pair("random-m300", &P, -1);
        super_pair("random-m300", &P, 1);
    }
    lcp_problem_free(&P);
    if (mk_random(&P, 200, 90, 2, 0.0, 22) == 0) {     /* test_nonunique's problem */
        uint64_t sd = 25;
        double *zs = malloc(sizeof(double) * 200);
        for (int i = 0; i < 200; i++) zs[i] = i % 4 != 0 ? 0.2 + tp_unif(&sd) : 0.0;
        lcp_csr_matvec(&P.A, zs, P.q);
        for (int i = 0; i < 200; i++) P.q[i] = (i % 4 != 0 ? 0.0 : 0.2 + tp_unif(&sd)) - P.q[i];
        free(zs);
        super_pair("semidef-m200-n90", &P, -1);
    }
    lcp_problem_free(&P);
    if (tp_contact(&P, 6, 30, 60, 2, 0.5, 1e-4, 32) == 0) super_pair("findex-m180", &P, -1);
    lcp_problem_free(&P);
    g_ipm = 1;
    if (tp_contact(&P, 6, 60, 300, 2, 0.5, 1e-4, 42) == 0) super_pair("ipm-findex-m900", &P, -1);
    lcp_problem_free(&P);
    g_ipm = -1;
    static const char *inst[] = {"capsule-step1", "chain-step300", "pool-graded-mu0-step100",
                                 "pool-graded-step100", "pool-mu0-step100", "pool-step100",
                                 "spheres-step100", "stack-150-mu0-step100",
                                 "stack-150-step100", "stack-30-step100", "three-spheres-step1"};
    for (size_t k = 0; k < sizeof inst / sizeof inst[0]; k++) {
        char path[1024], msg[512];
        snprintf(path, sizeof path, "%s/%s", dir, inst[k]);
        if (lcp_read_instance(path, &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "ref/supernodal-agrees-%s (read: %s)", inst[k], msg);
            continue;
        }
        super_pair(inst[k], &P, -1);
        lcp_problem_free(&P);
    }
    ok(n_leaks == 0, "ref/supernodal-malloc-count-balanced (%ld solves)", n_solves);
    ok(n_ok > 0 && n_ok_rounding == n_ok,
       "ref/supernodal-every-converged-at-rounding-row-by-row (%ld of %ld, worst %.3g eps)",
       n_ok_rounding, n_ok, worst_round);
    return tap_done();
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--supernodal") == 0) return test_supernodal(argv[2]);
    test_registry();
    test_small_cases();
    test_known(20, 0, 1);
    test_known(50, 0, 2);
    test_known(300, 0, 3);
    test_known(2000, 0, 4);
    test_known(50, 1, 5);
    test_known(300, 1, 6);
    for (int m = 4; m <= 12; m += 2) test_enum(m, 0, 0, 100 + (uint64_t)m);
    for (int m = 4; m <= 8; m += 2) test_enum(m, 1, 0, 200 + (uint64_t)m);
    for (int m = 4; m <= 12; m += 4) test_enum(m, 0, 1, 300 + (uint64_t)m);
    test_enum(8, 1, 1, 408);
    test_nonunique(12, 6, 21);
    test_nonunique(200, 90, 22);
    test_contact_box(20, 60, 41);
    test_contact_box(60, 300, 42);
    test_findex(4, 5, 31);
    test_findex(30, 60, 32);
    test_ipm();
    test_pivot_cap();
    test_nearsym();
    ok(n_leaks == 0, "ref/malloc-count-balanced (%ld solves)", n_solves);
    ok(n_ok > 0 && n_ok_rounding == n_ok,
       "ref/every-converged-at-rounding-row-by-row (%ld of %ld, worst %.3g eps)", n_ok_rounding,
       n_ok, worst_round);
    ok(n_usable_worse == 0, "ref/usable-never-worse-than-start (%ld usable answers)", n_usable);
    return tap_done();
}
