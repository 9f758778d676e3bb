/* test_lean.c: loading only what a form needs (lcp_read_options.skip, results/performance.md,
 * memory) and the streamed matrix-free sweep give the same answers bit for bit.
 * For every instance folder given: read it whole (A and the factors) and read it without A
 * (LCP_READ_SKIP_A) and without the factors (LCP_READ_SKIP_FACTORS); then
 *   - every solver flagged LCP_FACTORED, matrix-free, to tol 1e-6 (the fused stopping test,
 *     whose exact residuals then come from the factors) and capped at 300 sweeps, gives the
 *     same z (memcmp), status and sweep count on the problem without A as on the whole one;
 *     pgs also in the orderings symmetric, random, ode8 and mass, and with SOR (not `error',
 *     which sorts by residuals: from the factors they differ by rounding);
 *   - assembled pgs on the problem without factors = on the whole problem, bit for bit;
 *   - the factored residual agrees with A's to 1e-12 relative (||r||_2 and w);
 *     jacobi also with omega auto (its power iteration by the factors' product);
 *   - solvers that need A (ldlt-ref, the assembled form of pgs and jacobi) refuse the
 *     problem without A with needs-assembled, and nothing was read that was skipped.
 * Usage: test_lean INSTANCE_DIR... */
#include "lcp.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static void base(const char *path, char *out, size_t len)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/') b--;
    snprintf(out, len, "%.*s", (int)(n - b), path + b);
}

/* solve P and Q with the same options; 1 when z, status and sweeps are identical */
static int same_solve(const lcp_solver *s, const lcp_problem *P, const lcp_problem *Q,
                      const lcp_options *o, lcp_status *st_out, int *it_out)
{
    double *z1 = calloc((size_t)P->m, sizeof(double)), *z2 = calloc((size_t)P->m, sizeof(double));
    lcp_info i1, i2;
    if (o->warm && P->z0) {
        memcpy(z1, P->z0, (size_t)P->m * sizeof(double));
        memcpy(z2, Q->z0, (size_t)P->m * sizeof(double));
    }
    lcp_status a = lcp_solve(s, P, o, z1, &i1), b = lcp_solve(s, Q, o, z2, &i2);
    int same = a == b && i1.iterations == i2.iterations &&
               memcmp(z1, z2, (size_t)P->m * sizeof(double)) == 0;
    if (!same)
        printf("# %s: %s/%s, %d/%d sweeps\n", s->name, lcp_status_str(a), lcp_status_str(b),
               i1.iterations, i2.iterations);
    *st_out = a;
    *it_out = i1.iterations;
    free(z1);
    free(z2);
    return same;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_lean INSTANCE_DIR...\n");
        return 2;
    }
    int nsolvers;
    const lcp_solver *all = lcp_solvers(&nsolvers);
    for (int a = 1; a < argc; a++) {
        char nm[256];
        base(argv[a], nm, sizeof nm);
        lcp_problem P, Q, R;
        char msg[1024];
        lcp_read_options ro;
        lcp_read_options_default(&ro);
        if (lcp_read_instance(argv[a], &P, msg, sizeof msg) != LCP_OK) {
            ok(0, "lean/%s read: %s", nm, msg);
            continue;
        }
        ro.skip = LCP_READ_SKIP_A;
        lcp_status sq = lcp_read_instance_opt(argv[a], &ro, &Q, msg, sizeof msg);
        ro.skip = LCP_READ_SKIP_FACTORS;
        lcp_status sr = lcp_read_instance_opt(argv[a], &ro, &R, msg, sizeof msg);
        if (!lcp_problem_has_factors(&P)) {
            ok(sq == LCP_OK && Q.A.p && sr == LCP_OK && !R.J.p,
               "lean/%s: no factors: A read even when asked to skip it", nm);
            lcp_problem_free(&P);
            lcp_problem_free(&Q);
            lcp_problem_free(&R);
            continue;
        }
        ok(sq == LCP_OK && !Q.A.p && Q.m == P.m && Q.J.p && Q.Minv.p && !!Q.E == !!P.E,
           "lean/%s: read without A (m %d from q.mtx, J, Minv, E held)", nm, Q.m);
        ok(sr == LCP_OK && R.A.p && !R.J.p && !R.Minv.p && !R.E && R.n == 0,
           "lean/%s: read without J, Minv, E", nm);
        if (sq != LCP_OK || sr != LCP_OK) {
            lcp_problem_free(&P);
            lcp_problem_free(&Q);
            lcp_problem_free(&R);
            continue;
        }
        /* the factored residual against A's, at z0 or a made-up z */
        double *z = malloc((size_t)P.m * sizeof(double)), *w1 = malloc((size_t)P.m * sizeof(double)),
               *w2 = malloc((size_t)P.m * sizeof(double));
        for (int i = 0; i < P.m; i++) z[i] = P.z0 ? P.z0[i] : 0.01 * (i % 5);
        lcp_residuals r1, r2;
        lcp_residual(&P, z, w1, &r1);
        lcp_residual(&Q, z, w2, &r2);
        double dw = 0.0, wmax = 0.0;
        for (int i = 0; i < P.m; i++) {
            dw = fmax(dw, fabs(w1[i] - w2[i]));
            wmax = fmax(wmax, fabs(w1[i]));
        }
        ok(dw <= 1e-12 * fmax(1.0, wmax) && fabs(r1.r2 - r2.r2) <= 1e-12 * fmax(1.0, r1.r2),
           "lean/%s: factored residual = A's to 1e-12 (|dw| %.2g, ||r|| %.17g vs %.17g)", nm,
           dw, r1.r2, r2.r2);
        free(z);
        free(w1);
        free(w2);
        /* every solver flagged LCP_FACTORED, matrix-free, on both */
        for (int k = 0; k < nsolvers; k++) {
            const lcp_solver *s = &all[k];
            if (!(s->needs & LCP_FACTORED) || lcp_solver_supports(s, &P) != LCP_OK) continue;
            for (int warm = 0; warm <= 1; warm++) {
                if (warm && !P.z0) continue;
                lcp_options o;
                lcp_options_default(&o);
                o.form = LCP_FORM_MATRIX_FREE;
                o.max_iter = 300;
                o.warm = warm;
                lcp_status st;
                int it;
                int same = same_solve(s, &P, &Q, &o, &st, &it);
                ok(same, "lean/%s/%s%s: without A = with A bit for bit (%s, %d sweeps)", nm,
                   s->name, warm ? "/warm" : "", lcp_status_str(st), it);
            }
        }
            /* not `error': it sorts rows by residuals, which the factors give to rounding only
         * (lcpbench solve --lean keeps A for it) */
        const lcp_order orders[] = {LCP_ORDER_SYMMETRIC, LCP_ORDER_RANDOM, LCP_ORDER_ODE8,
                                    LCP_ORDER_MASS};
        for (int k = 0; k < 5; k++) {
            lcp_options o;
            lcp_options_default(&o);
            o.form = LCP_FORM_MATRIX_FREE;
            o.max_iter = 200;
            if (k < 4) o.order = orders[k];
            else o.omega = 1.3;
            lcp_status st;
            int it;
            int same = same_solve(lcp_solver_find("pgs"), &P, &Q, &o, &st, &it);
            ok(same, "lean/%s/pgs/%s: without A = with A bit for bit (%s, %d sweeps)", nm,
               k < 4 ? lcp_order_name(o.order) : "sor-1.3", lcp_status_str(st), it);
        }
        {
            lcp_options o;
            lcp_options_default(&o);
            o.form = LCP_FORM_MATRIX_FREE;
            o.max_iter = 300;
            o.omega_auto = 1;
            lcp_status st;
            int it;
            int same = same_solve(lcp_solver_find("jacobi"), &P, &Q, &o, &st, &it);
            ok(same, "lean/%s/jacobi/omega-auto: without A = with A bit for bit (%s, %d sweeps)",
               nm, lcp_status_str(st), it);
        }
        {
            lcp_options o;
            lcp_options_default(&o);
            o.form = LCP_FORM_ASSEMBLED;
            o.max_iter = 300;
            lcp_status st;
            int it;
            int same = same_solve(lcp_solver_find("pgs"), &P, &R, &o, &st, &it);
            ok(same, "lean/%s/pgs/assembled: without factors = with them bit for bit (%s, %d "
               "sweeps)", nm, lcp_status_str(st), it);
        }
        {   /* what needs A refuses the problem without it */
            double *zz = calloc((size_t)P.m, sizeof(double));
            lcp_options o;
            lcp_options_default(&o);
            lcp_info info;
            lcp_status s1 = lcp_solve(lcp_solver_find("ldlt-ref"), &Q, &o, zz, &info);
            o.form = LCP_FORM_ASSEMBLED;
            lcp_status s2 = lcp_solve(lcp_solver_find("jacobi"), &Q, &o, zz, &info);
            lcp_status s3 = lcp_solve(lcp_solver_find("pgs"), &Q, &o, zz, &info);
            ok(s1 == LCP_ERR_NEEDS_ASSEMBLED && s2 == LCP_ERR_NEEDS_ASSEMBLED &&
                   s3 == LCP_ERR_NEEDS_ASSEMBLED && info.status == s3 &&
                   !strcmp(lcp_status_str(s3), "needs-assembled"),
               "lean/%s: ldlt-ref, assembled jacobi and pgs refuse the problem without A", nm);
            free(zz);
        }
        lcp_problem_free(&P);
        lcp_problem_free(&Q);
        lcp_problem_free(&R);
    }
    {   /* both skips at once: an argument error */
        lcp_problem P;
        lcp_read_options ro;
        lcp_read_options_default(&ro);
        ro.skip = LCP_READ_SKIP_A | LCP_READ_SKIP_FACTORS;
        char msg[512];
        ok(lcp_read_instance_opt(argv[1], &ro, &P, msg, sizeof msg) == LCP_ERR_ARG &&
               strstr(msg, "cannot skip both"), "lean/skip-both-refused");
    }
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
