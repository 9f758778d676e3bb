/* example.c: a program of your own on the installed liblcp (lcp/README.md, "Linking the
 * library").
 *
 *     cc example.c $(pkg-config --cflags --libs lcp) -o example
 *     ./example                  # a contact with friction, built here
 *     ./example FOLDER           # an instance folder (lcp/README.md, "Instance folders")
 *
 * It solves the problem with projected Gauss-Seidel and with the exact pivoting reference,
 * found by name in liblcp's registry, and prints each solver's status, iterations (sweeps,
 * or pivoting steps), residual and the distance between the two answers.  Exit status 0
 * when both solved it.
 *
 * The built-in problem is one contact with one friction direction:
 *     row 0: normal,   0 <= z0,              w0 = 2 z0 + 0.5 z1 - 1
 *     row 1: friction, -mu z0 <= z1 <= mu z0 (findex 1 -> 0, mu = 0.5),
 *                                            w1 = 0.5 z0 + 1.5 z1 + 0.8
 * whose answer is z = (4/7, -2/7): the friction force at its bound -mu z0, sliding. */
#include <lcp.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int contact(lcp_problem *P)
{
    int ti[] = {0, 0, 1, 1}, tj[] = {0, 1, 0, 1};
    double tx[] = {2.0, 0.5, 0.5, 1.5};
    if (lcp_csr_from_triplets(&P->A, 2, 2, 4, ti, tj, tx) != LCP_OK ||
        lcp_problem_alloc_vectors(P, 2) != LCP_OK)
        return -1;
    P->findex = malloc(2 * sizeof *P->findex);
    if (!P->findex) return -1;
    P->q[0] = -1.0;
    P->q[1] = 0.8;
    P->findex[0] = -1;            /* the normal row */
    P->findex[1] = 0;             /* friction on row 0's force: bounds lo*z0, hi*z0 */
    P->lo[1] = -0.5;
    P->hi[1] = 0.5;
    return 0;
}

int main(int argc, char **argv)
{
    lcp_problem P;
    char msg[512];
    lcp_problem_init(&P);
    lcp_status st = argc > 1 ? lcp_read_instance(argv[1], &P, msg, sizeof msg)
                             : (contact(&P) == 0 ? lcp_problem_check(&P, msg, sizeof msg)
                                                 : LCP_ERR_NOMEM);
    if (st != LCP_OK) {
        fprintf(stderr, "example: %s: %s\n", argc > 1 ? argv[1] : "built-in problem",
                st == LCP_ERR_NOMEM ? "out of memory" : msg);
        lcp_problem_free(&P);
        return 2;
    }
    const char *names[] = {"pgs", "ldlt-ref"};
    double *z[2] = {calloc((size_t)P.m, sizeof(double)), calloc((size_t)P.m, sizeof(double))};
    double *w = calloc((size_t)P.m, sizeof(double));
    int failed = !z[0] || !z[1] || !w;
    printf("%d rows\n", P.m);
    for (int k = 0; k < 2 && !failed; k++) {
        lcp_options o;
        lcp_options_default(&o);
        o.tol = 1e-10;           /* ||r||_2 of the natural residual
                                    (lcp/README.md, "The problem") */
        o.max_iter = 100000;
        lcp_info info;
        st = lcp_solve(lcp_solver_find(names[k]), &P, &o, z[k], &info);
        lcp_residuals R;
        lcp_residual(&P, z[k], w, &R);  /* the one residual, computed here from z */
        printf("%-9s %-10s %6d iterations  ||r||_2 %.3e  complementarity %.3e\n", names[k],
               lcp_status_str(st), info.iterations, R.r2, R.comp);
        failed |= st != LCP_OK && st != LCP_NONUNIQUE;
    }
    if (!failed) {
        double d = 0.0;
        for (int i = 0; i < P.m; i++) d = fmax(d, fabs(z[0][i] - z[1][i]));
        printf("max |z_pgs - z_ref| = %.3e\n", d);
        if (P.m <= 4)
            for (int i = 0; i < P.m; i++) printf("z[%d] = %.15g\n", i, z[1][i]);
    }
    free(z[0]);
    free(z[1]);
    free(w);
    lcp_problem_free(&P);
    return failed;
}
