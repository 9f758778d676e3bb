/* test_cond.c: the Lanczos estimate of the condition of A on its range
 * (prob_lanczos_cond, problems/lanczos.c) against the dense eigenvalues of A (LAPACKE_dsyev),
 * as TAP:
 *   cond/CASE/lambda-max       the largest Ritz value within 1e-8 of the largest eigenvalue
 *   cond/CASE/lambda-min-range the smallest Ritz value above 1e-10 lambda_max within 1e-6 of
 *                              the smallest eigenvalue above 1e-10 lambda_max (exact runs:
 *                              breakdown or k = m); a lower bound run (k = 200 < m): the Ritz
 *                              value is not below the eigenvalue
 *   cond/CASE/null-space       the dense count of eigenvalues below 1e-10 lambda_max
 *                              (printed; the box pair without E has its 2 self-stress states)
 *   cond/meta                  capture's meta.txt has the cond_lanczos line
 * The cases: frictionless disk stack without compliance (A nonsingular), two boxes without
 * friction or compliance (A singular: rank 6 of 8), a box tower with friction and E, the
 * jointed chain hanging and draped, the mass-ratio 1e4 column, a 60-sphere pile (more
 * than 200 rows: not exact).
 */
#include "prob.h"
#include "tap.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dense_eigs(const lcp_problem *P, double *ev)
{
    int m = P->m;
    double *D = calloc((size_t)m * m, sizeof(double));
    for (int i = 0; i < m; i++)
        for (int p = P->A.p[i]; p < P->A.p[i + 1]; p++) D[(size_t)i * m + P->A.j[p]] = P->A.x[p];
    LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', m, D, m, ev);
    free(D);
}

static void check(const char *name, const char *scene, int nkv, const char *const *kv, int at,
                  int null_expected)
{
    lcp_problem P;
    char msg[512];
    int steps[1] = {at};
    if (prob_capture_steps(scene, nkv, kv, NULL, 0, 1, steps, &P, msg, sizeof msg) != LCP_OK) {
        ok(0, "cond/%s/captured (%s)", name, msg);
        return;
    }
    int m = P.m;
    double *ev = malloc((size_t)m * sizeof(double));
    dense_eigs(&P, ev);
    double lmax = ev[m - 1], lmin = INFINITY;
    int nul = 0;
    for (int i = 0; i < m; i++) {
        if (ev[i] > 1e-10 * lmax) lmin = fmin(lmin, ev[i]);
        else nul++;
    }
    prob_cond C;
    lcp_status st = prob_lanczos_cond(&P, 1, &C);
    ok(st == LCP_OK && fabs(C.lambda_max - lmax) <= 1e-8 * lmax,
       "cond/%s/lambda-max (%d rows, Lanczos %.10g, dense %.10g, %d steps)", name, m,
       C.lambda_max, lmax, C.steps);
    if (C.exact)
        ok(st == LCP_OK && fabs(C.lambda_min - lmin) <= 1e-6 * lmin,
           "cond/%s/lambda-min-range (Lanczos %.10g, dense %.10g, cond %.6g, exact)", name,
           C.lambda_min, lmin, C.cond);
    else
        ok(st == LCP_OK && C.lambda_min >= lmin * (1 - 1e-8),
           "cond/%s/lambda-min-range-upper-bound (Lanczos %.6g >= dense %.6g, cond %.6g >= "
           "%.6g, %d of %d steps)", name, C.lambda_min, lmin, C.cond, lmax / lmin, C.steps, m);
    ok(null_expected < 0 || nul == null_expected, "cond/%s/null-space (%d eigenvalues below "
       "1e-10 lambda_max)", name, nul);
    free(ev);
    lcp_problem_free(&P);
}

int main(void)
{
    const char *stack[] = {"n=5", "mu=0", "eps=0"};
    const char *pair[] = {"n=2", "mu=0", "eps=0", "jitter=0"};
    const char *tower[] = {"n=3"};
    const char *drape[] = {"pose=1"};
    const char *ratio[] = {"ratio=10000"};
    const char *sph[] = {"n=60"};
    check("stack-5-mu0-eps0", "stack", 3, stack, 2, 0);
    check("box-pair-mu0-eps0", "boxes", 4, pair, 1, 2);
    check("box-tower-3", "boxes", 1, tower, 10, 0);
    check("links-hanging", "links", 0, NULL, 200, 0);
    check("links-draped", "links", 1, drape, 100, 0);
    check("mass-ratio-1e4", "mass-ratio", 1, ratio, 10, 0);
    check("spheres-60", "spheres", 1, sph, 60, -1);
    lcp_problem P;
    char msg[512];
    int steps[1] = {100};
    int good = prob_capture_steps("links", 1, drape, NULL, PROB_CAPTURE_DESCRIPTORS, 1, steps, &P,
                                  msg, sizeof msg) == LCP_OK;
    ok(good && P.meta && strstr(P.meta, "\ncond_lanczos = ") && strstr(P.meta, "\nlanczos_exact = 1\n"),
       "cond/meta/capture-writes-cond-lanczos");
    if (good) lcp_problem_free(&P);
    return tap_done();
}
