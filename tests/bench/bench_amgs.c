/* bench_amgs.c: time per sweep of the AMGS family against PGS (meson benchmark 'amgs').
 *
 *  1. Method 3.1 (amgs-D, matrix-free) against matrix-free pgs on a contact-like problem
 *     (3D bodies of 6 dof, 3 rows per contact, two bodies per row, ~10^5 rows):
 *     target amgs-D / pgs <= 1.2.
 *  2. Method 2.2 (amgs-D-explicit, dense A) against Method 3.1 at m = 600 .. 1200:
 *     target explicit / matrix-free >= 10; also whole solves of 100 sweeps, set-up (the
 *     dense A by cblas_dgemm) included, as a time step of a simulation would pay it.
 * Time per sweep = (t_K - t_1) / (K - 1) with t_k read by the monitor after sweep k
 * (CLOCK_MONOTONIC), so set-up (B = J Minv, the dense A) is excluded; tol = -1 and a fixed
 * sweep count; median (and min) of 5 runs after one warm-up, the two solvers compared
 * interleaved.
 * OpenBLAS runs on one thread.  Note: OpenBLAS 0.3.21 may not recognise a recent CPU and
 * fall back to its slow Prescott kernels (the core is printed); for fair dense timings run
 * with OPENBLAS_CORETYPE=SkylakeX (or Haswell) as the CPU allows.
 * Usage: bench_amgs [rows] (default 100000).
 */
#include "lcp.h"
#include "testprob.h"

#include <cblas.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REPS 5

typedef struct clock_rec {
    int cap;
    double *t; /* t[k] = time after sweep k */
} clock_rec;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void clock_monitor(void *ctx, int it, const double *z)
{
    clock_rec *c = ctx;
    (void)z;
    if (it < c->cap) c->t[it] = now();
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* seconds per sweep of solvers a and b, runs interleaved (a, b, a, b, ...) so that a
 * change of machine load hits both; medians over REPS after a warm-up; NAN on an error */
static void per_sweep2(const char *na, const char *nb, const lcp_problem *P, lcp_form form,
                       int sweeps, double ta[2], double tb[2])
{
    const char *names[2] = {na, nb};
    double *out[2] = {ta, tb}, times[2][REPS];
    double *z = malloc(sizeof(double) * (size_t)P->m);
    clock_rec c = {sweeps + 1, malloc(sizeof(double) * (size_t)(sweeps + 1))};
    lcp_options o;
    lcp_info info;
    lcp_options_default(&o);
    o.tol = -1.0;
    o.max_iter = sweeps;
    o.form = form;
    o.monitor = clock_monitor;
    o.monitor_ctx = &c;
    ta[0] = ta[1] = tb[0] = tb[1] = NAN;
    for (int v = 0; v < 2; v++) /* warm-up, and check that both run */
        if (!z || !c.t || !lcp_solver_find(names[v]) ||
            lcp_solve(lcp_solver_find(names[v]), P, &o, z, &info) < 0) {
            free(z);
            free(c.t);
            return;
        }
    for (int k = 0; k < REPS; k++)
        for (int v = 0; v < 2; v++) {
            lcp_solve(lcp_solver_find(names[v]), P, &o, z, &info);
            times[v][k] = (c.t[sweeps] - c.t[1]) / (sweeps - 1);
        }
    for (int v = 0; v < 2; v++) {
        qsort(times[v], REPS, sizeof(double), cmp_double);
        out[v][0] = times[v][REPS / 2]; /* median */
        out[v][1] = times[v][0];        /* min */
    }
    free(z);
    free(c.t);
}

/* median over REPS (after a warm-up) of the seconds of a whole solve of `sweeps' sweeps,
 * set-up included */
static double per_solve(const char *name, const lcp_problem *P, int sweeps)
{
    const lcp_solver *s = lcp_solver_find(name);
    double *z = malloc(sizeof(double) * (size_t)P->m), times[REPS];
    lcp_options o;
    lcp_info info;
    lcp_options_default(&o);
    o.tol = -1.0;
    o.max_iter = sweeps;
    double r = NAN;
    if (s && z && lcp_solve(s, P, &o, z, &info) >= 0) {
        for (int k = 0; k < REPS; k++) {
            double t0 = now();
            lcp_solve(s, P, &o, z, &info);
            times[k] = now() - t0;
        }
        qsort(times, REPS, sizeof(double), cmp_double);
        r = times[REPS / 2];
    }
    free(z);
    return r;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 100000;
    int nc = rows / 3 > 2 ? rows / 3 : 2;
    lcp_problem P;
    int status = 0;

    openblas_set_num_threads(1);
    printf("# bench_amgs: seconds per sweep, median of %d (monitor timestamps)\n", REPS);
    printf("# ratios: of the medians, and of the minima (steadier on a loaded machine)\n");
    printf("# OpenBLAS core %s (%s)\n", openblas_get_corename(), openblas_get_config());
    if (tp_contact(&P, 6, nc / 2 > 2 ? nc / 2 : 2, nc, 2, 0.5, 1e-4, 42) != 0) {
        printf("problem generation failed\n");
        return 1;
    }
    printf("# contact problem: m = %d rows, n = %d, nnz(J) = %d, nnz(A) = %d\n", P.m, P.n,
           LCP_CSR_NNZ(&P.J), LCP_CSR_NNZ(&P.A));
    double tp[2], ta[2], tpa[2], taa[2];
    per_sweep2("pgs", "amgs-D", &P, LCP_FORM_MATRIX_FREE, 40, tp, ta);
    per_sweep2("pgs", "amgs-D", &P, LCP_FORM_ASSEMBLED, 40, tpa, taa);
    printf("matrix-free  pgs %.4g s  amgs-D %.4g s  ratio %.3f (of minima %.3f; target <= 1.2)\n",
           tp[0], ta[0], ta[0] / tp[0], ta[1] / tp[1]);
    printf("assembled    pgs %.4g s  amgs-D %.4g s  ratio %.3f (of minima %.3f)\n", tpa[0], taa[0],
           taa[0] / tpa[0], taa[1] / tpa[1]);
    lcp_problem_free(&P);

    const int ms[] = {600, 900, 1200};
    for (int k = 0; k < 3; k++) {
        lcp_problem Q;
        int c = ms[k] / 3;
        if (tp_contact(&Q, 6, c / 2, c, 2, 0.5, 1e-4, 43 + (uint64_t)k) != 0) return 1;
        double t31[2], t22[2];
        per_sweep2("amgs-D", "amgs-D-explicit", &Q, LCP_FORM_AUTO, 100, t31, t22);
        double s31 = per_solve("amgs-D", &Q, 100), s22 = per_solve("amgs-D-explicit", &Q, 100);
        printf("m = %4d  per sweep: Method 3.1 %.4g s  Method 2.2 %.4g s  ratio %.1f "
               "(of minima %.1f; target >= 10)\n", Q.m, t31[0], t22[0], t22[0] / t31[0],
               t22[1] / t31[1]);
        printf("          solve of 100 sweeps with set-up: 3.1 %.4g s  2.2 %.4g s  ratio %.1f\n",
               s31, s22, s22 / s31);
        lcp_problem_free(&Q);
    }
    return status;
}
