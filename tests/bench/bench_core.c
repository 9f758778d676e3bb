/* bench_core.c: the cost of one PGS sweep against the memory-traffic floor (issue "Core"):
 * on a contact-like problem with 10^5 rows (3D bodies, 2 bodies per row, 3 rows per contact)
 *   matrix-free PGS sweep   vs  one J (Minv (J^T z))
 *   assembled PGS sweep     vs  one CSR product A z
 * A sweep's cost is the slope of solve time against sweep count (101 sweeps against 1: the
 * set-up cancels).  Prints the ratio of the minima and the median of paired ratios (see
 * main); exits 1 when a median paired ratio exceeds its target. */
#include "lcp.h"
#include "testprob.h"
#include "benchclock.h"

#include <stdio.h>
#include <time.h>

#define ROUNDS 9

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof(double), cmp);
    return t[n / 2];
}

static double minimum(const double *t, int n)
{
    double v = t[0];
    for (int i = 1; i < n; i++) v = t[i] < v ? t[i] : v;
    return v;
}

static double solve_time(const lcp_problem *P, lcp_form form, int sweeps, double *z)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = -1;
    o.max_iter = sweeps;
    o.form = form;
    lcp_info info;
    double t0 = now();
    lcp_solve(lcp_solver_find("pgs"), P, &o, z, &info);
    return now() - t0;
}

int main(int argc, char **argv)
{
    /* argument: a number of contacts (random contact graph), or an instance folder (e.g. a
     * captured sphere pile: `lcpbench capture spheres --param n=15000 --at 20 --out DIR') */
    lcp_problem P;
    char msg[512];
    if (argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9')) {
        if (lcp_read_instance(argv[1], &P, msg, sizeof msg) != LCP_OK) {
            fprintf(stderr, "bench_core: %s\n", msg);
            return 1;
        }
    } else {
        int contacts = argc > 1 ? atoi(argv[1]) : 33334;
        if (tp_contact(&P, 6, contacts * 2 / 3, contacts, 2, 0.5, 1e-3, 1) != 0) return 1;
    }
    double *z = calloc((size_t)P.m, sizeof(double)), *y = calloc((size_t)P.m, sizeof(double));
    double *t1 = calloc((size_t)P.n, sizeof(double)), *u = calloc((size_t)P.n, sizeof(double));
    for (int i = 0; i < P.m; i++) z[i] = 0.01 * (i % 7);
    /* ROUNDS rounds, each timing the two floors and the two sweeps back to back: the
     * ratio of each round pairs times taken close together (this machine's neighbours come
     * and go); the report gives the median of the paired ratios and the ratio of minima */
    double fm[ROUNDS], fa[ROUNDS], sm[ROUNDS], sa[ROUNDS], rm[ROUNDS], ra[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int k = 0; k < 10; k++) {
            lcp_csr_matvec_t(&P.J, z, t1);    /* J^T z */
            lcp_csr_matvec(&P.Minv, t1, u);   /* Minv (J^T z) */
            lcp_csr_matvec(&P.J, u, y);       /* J (...) */
        }
        fm[r] = (now() - t0) / 10;
        t0 = now();
        for (int k = 0; k < 10; k++) lcp_csr_matvec(&P.A, z, y);
        fa[r] = (now() - t0) / 10;
        sm[r] = (solve_time(&P, LCP_FORM_MATRIX_FREE, 101, z) -
                 solve_time(&P, LCP_FORM_MATRIX_FREE, 1, z)) / 100;
        sa[r] = (solve_time(&P, LCP_FORM_ASSEMBLED, 101, z) -
                 solve_time(&P, LCP_FORM_ASSEMBLED, 1, z)) / 100;
        rm[r] = sm[r] / fm[r];
        ra[r] = sa[r] / fa[r];
    }
    double mf_ratio = median(rm, ROUNDS), as_ratio = median(ra, ROUNDS);
    printf("rows %d, bodies %d, nnz(J) %d, nnz(A) %d\n", P.m, P.n / 6, LCP_CSR_NNZ(&P.J),
           LCP_CSR_NNZ(&P.A));
    printf("J(Minv(J^T z)) %.3f ms, matrix-free PGS sweep %.3f ms (minima): ratio %.2f of "
           "minima, %.2f median of %d paired (target <= 1.5)\n", 1e3 * minimum(fm, ROUNDS),
           1e3 * minimum(sm, ROUNDS), minimum(sm, ROUNDS) / minimum(fm, ROUNDS), mf_ratio,
           ROUNDS);
    printf("A z            %.3f ms, assembled PGS sweep   %.3f ms (minima): ratio %.2f of "
           "minima, %.2f median of %d paired (target <= 1.2)\n", 1e3 * minimum(fa, ROUNDS),
           1e3 * minimum(sa, ROUNDS), minimum(sa, ROUNDS) / minimum(fa, ROUNDS), as_ratio,
           ROUNDS);
    int bad = mf_ratio > 1.5 || as_ratio > 1.2;
    free(z);
    free(y);
    free(t1);
    free(u);
    lcp_problem_free(&P);
    return bad;
}
