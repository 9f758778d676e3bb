/* test_solvers.c: every registered solver on every small problem with a known answer, one
 * named TAP line per (solver, problem); solvers that do not support a problem are skipped by
 * name with the registry's reason.  Expected failures are marked by name with # TODO. */
#include "lcp.h"
#include "tap.h"
#include "testprob.h"

#include <string.h>

typedef struct known {
    char name[64];
    lcp_problem P;
    double *zstar;
} known;

static int add_dense(known *k, const char *name, int m, const double *A, const double *q,
                     const double *lo, const double *hi, const int *findex, const double *zs)
{
    snprintf(k->name, sizeof k->name, "%s", name);
    if (tp_dense(&k->P, m, A, q, lo, hi, findex) != 0) return -1;
    k->zstar = malloc(sizeof(double) * (size_t)m);
    memcpy(k->zstar, zs, sizeof(double) * (size_t)m);
    return 0;
}

static int add_random(known *k, const char *name, int d, int nb, int nc, int boxed, uint64_t seed)
{
    snprintf(k->name, sizeof k->name, "%s", name);
    if (tp_contact(&k->P, d, nb, nc, boxed ? (d == 3 ? 1 : 2) : 0, 0.5, 0.05, seed) != 0) return -1;
    if (boxed) {  /* uncouple the friction rows: plain boxes, known solution */
        free(k->P.findex);
        k->P.findex = NULL;
    }
    k->zstar = malloc(sizeof(double) * (size_t)k->P.m);
    tp_known(&k->P, k->zstar, seed + 1);
    return 0;
}

/* expected failures, by solver name, with the reason */
static const struct {
    const char *solver, *problem, *reason;
} todo[] = {
    {"siconos-cpg", "hand-2x2-free", "Siconos 4.4's CPG ends with its own failure code "
                                     "before tol 1e-11 (its answer is within 5e-9 of z*)"},
    {"siconos-cpg", "random-2d-m40", "the same, within 4e-8"},
    {"siconos-cpg", "random-3d-m120", "the same, within 4e-9"},
    {"ode-dantzig", "hand-findex-sliding", "ODE's Dantzig freezes the friction bound at mu z_n "
                                           "of the frictionless normal z_n = 1, so z = (7/8, "
                                           "1/2) (as designed)"},
    {"bullet-dantzig", "hand-findex-sliding", "Bullet's copy of ODE's Dantzig: the same"},
};

int main(void)
{
    known K[16];
    int nk = 0;
    memset(K, 0, sizeof K);
    /* hand-checked: 1x1 interior and at the bound */
    {
        double A[] = {2}, q[] = {-4}, z[] = {2};
        add_dense(&K[nk++], "hand-1x1-free", 1, A, q, NULL, NULL, NULL, z);
        double q2[] = {3}, z2[] = {0};
        add_dense(&K[nk++], "hand-1x1-bound", 1, A, q2, NULL, NULL, NULL, z2);
    }
    {   /* 2x2: z = A^-1 (-q) = (4/3, 7/3) > 0; and one row at its bound */
        double A[] = {2, 1, 1, 2}, q[] = {-5, -6}, z[] = {4.0 / 3.0, 7.0 / 3.0};
        add_dense(&K[nk++], "hand-2x2-free", 2, A, q, NULL, NULL, NULL, z);
        double q2[] = {-1, 3}, z2[] = {0.5, 0};
        add_dense(&K[nk++], "hand-2x2-mixed", 2, A, q2, NULL, NULL, NULL, z2);
    }
    {   /* 3x3 tridiagonal: z = (1, 0, 1), w = (0, 8, 0) */
        double A[] = {4, 1, 0, 1, 4, 1, 0, 1, 4}, q[] = {-4, 6, -4}, z[] = {1, 0, 1};
        add_dense(&K[nk++], "hand-3x3", 3, A, q, NULL, NULL, NULL, z);
    }
    {   /* boxed: z* = (-1 at lo, w = 2), (1 at hi, w = -3), (0.3 inside, w = 0) */
        double A[] = {2, 0.5, 0, 0.5, 2, 0.5, 0, 0.5, 2};
        double z[] = {-1, 1, 0.3}, w[] = {2, -3, 0}, q[3];
        for (int i = 0; i < 3; i++) q[i] = w[i] - (A[3 * i] * z[0] + A[3 * i + 1] * z[1] + A[3 * i + 2] * z[2]);
        double lo[] = {-1, -1, -1}, hi[] = {1, 1, 1};
        add_dense(&K[nk++], "hand-box-lo-hi-inside", 3, A, q, lo, hi, NULL, z);
    }
    {   /* friction coupling: normal row 0, friction row 1 with mu = 0.5 saturating at
         * hi = mu z0: 2.25 z0 = 2 -> z = (8/9, 4/9), w1 = 8/9 - 5 < 0 */
        double A[] = {2, 0.5, 0.5, 1}, q[] = {-2, -5}, lo[] = {0, -0.5}, hi[] = {INFINITY, 0.5};
        int f[] = {-1, 0};
        double z[] = {8.0 / 9.0, 4.0 / 9.0};
        add_dense(&K[nk++], "hand-findex-sliding", 2, A, q, lo, hi, f, z);
    }
    add_random(&K[nk++], "random-2d-m40", 3, 12, 40, 0, 11);
    add_random(&K[nk++], "random-3d-m120", 6, 30, 120, 0, 12);
    add_random(&K[nk++], "random-3d-box-m90", 6, 30, 45, 1, 13);
    add_random(&K[nk++], "random-2d-box-m150", 3, 40, 50, 1, 14);

    int ns;
    const lcp_solver *S = lcp_solvers(&ns);
    for (int s = 0; s < ns; s++)
        for (int k = 0; k < nk; k++) {
            lcp_problem *P = &K[k].P;
            lcp_status sup = lcp_solver_supports(&S[s], P);
            if (sup != LCP_OK) {
                ok(1, "%s/%s # SKIP %s", S[s].name, K[k].name, lcp_status_str(sup));
                continue;
            }
            lcp_options o;
            lcp_options_default(&o);
            o.tol = 1e-11;
            o.max_iter = 200000;
            if (strcmp(S[s].name, "jacobi") == 0) o.omega_auto = 1;
            double *z = calloc((size_t)P->m, sizeof(double));
            lcp_info info;
            lcp_status st = lcp_solve(&S[s], P, &o, z, &info);
            if (st == LCP_ERR_TOO_LARGE) { /* a size cap the registry flags cannot state */
                ok(1, "%s/%s # SKIP too-large", S[s].name, K[k].name);
                free(z);
                continue;
            }
            for (size_t e = 0; e < sizeof todo / sizeof todo[0]; e++)
                if (!strcmp(S[s].name, todo[e].solver) && !strcmp(K[k].name, todo[e].problem))
                    tap_todo(todo[e].reason);
            double err = 0.0;
            for (int i = 0; i < P->m; i++) err = fmax(err, fabs(z[i] - K[k].zstar[i]));
            int good = (st == LCP_OK || st == LCP_NONUNIQUE) && err <= 1e-7;
            if (strcmp(S[s].name, "dantzig") == 0 && P->findex)
                tap_todo("ODE's Dantzig freezes friction bounds at the frictionless normals");
            ok(good, "%s/%s", S[s].name, K[k].name);
            if (!good)
                tap_diag("status %s, %d iterations, residual %g, |z - z*|_inf %g",
                         lcp_status_str(st), info.iterations, info.residual, err);
            free(z);
        }
    for (int k = 0; k < nk; k++) {
        lcp_problem_free(&K[k].P);
        free(K[k].zstar);
    }
    return tap_done();
}
