/* bench_core.c: the cost of one PGS sweep against the memory-traffic floor (issue "Core"):
 * on a contact-like problem with 10^5 rows (3D bodies, 2 bodies per row, 3 rows per contact)
 *   matrix-free PGS sweep   vs  one J (Minv (J^T z))
 *   assembled PGS sweep     vs  one CSR product A z
 * A sweep's cost is the slope of solve time against sweep count (set-up excluded); every
 * time is the median of 5.  Prints the ratios; exits 1 when a ratio exceeds its target. */
#include "lcp.h"
#include "testprob.h"

#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median5(double *t)
{
    qsort(t, 5, sizeof(double), cmp);
    return t[2];
}

static double solve_time(const lcp_problem *P, lcp_form form, int sweeps, double *z)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = -1;
    o.max_iter = sweeps;
    o.form = form;
    lcp_info info;
    double t[5];
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        lcp_solve(lcp_solver_find("pgs"), P, &o, z, &info);
        t[r] = now() - t0;
    }
    return median5(t);
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
    double t[5];
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        for (int k = 0; k < 10; k++) {
            lcp_csr_matvec_t(&P.J, z, t1);    /* J^T z */
            lcp_csr_matvec(&P.Minv, t1, u);   /* Minv (J^T z) */
            lcp_csr_matvec(&P.J, u, y);       /* J (...) */
        }
        t[r] = (now() - t0) / 10;
    }
    double floor_mf = median5(t);
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        for (int k = 0; k < 10; k++) lcp_csr_matvec(&P.A, z, y);
        t[r] = (now() - t0) / 10;
    }
    double floor_asm = median5(t);
    double mf = (solve_time(&P, LCP_FORM_MATRIX_FREE, 21, z) - solve_time(&P, LCP_FORM_MATRIX_FREE, 1, z)) / 20;
    double as = (solve_time(&P, LCP_FORM_ASSEMBLED, 21, z) - solve_time(&P, LCP_FORM_ASSEMBLED, 1, z)) / 20;
    printf("rows %d, bodies %d, nnz(J) %d, nnz(A) %d\n", P.m, P.n / 6, LCP_CSR_NNZ(&P.J),
           LCP_CSR_NNZ(&P.A));
    printf("J(Minv(J^T z)) %.3f ms, matrix-free PGS sweep %.3f ms, ratio %.2f (target <= 1.5)\n",
           1e3 * floor_mf, 1e3 * mf, mf / floor_mf);
    printf("A z            %.3f ms, assembled PGS sweep   %.3f ms, ratio %.2f (target <= 1.2)\n",
           1e3 * floor_asm, 1e3 * as, as / floor_asm);
    int bad = mf / floor_mf > 1.5 || as / floor_asm > 1.2;
    free(z);
    free(y);
    free(t1);
    free(u);
    lcp_problem_free(&P);
    return bad;
}
