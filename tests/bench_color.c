/* bench_color.c: the parallel solvers (issue "Performance", item 2).
 * 1. Sweeps to tolerance 1e-6 (cap 5000) of pgs (natural order) and pgs-color on each
 *    instance folder given as an argument, and their residuals after 1000 sweeps: what the
 *    colouring costs in sweeps; with the number of colours and the colouring's time.
 * 2. On a synthetic 3D contact problem with 10^5 rows (3 rows per contact, friction), the
 *    time of one sweep (slope of 41 sweeps against 1, which cancels the set-up and the
 *    colouring) of pgs, pgs-color on 1 and 2 threads, and jacobi on 1 and 2 threads; each
 *    round times them back to back and the report gives the median of ROUNDS paired
 *    speed-ups (1 thread / 2 threads) with their range.  Exits 1 when the median
 *    pgs-color speed-up on 2 threads is below 1.7 (the target).
 * The machine is shared: run it when it is quiet, and read the range. */
#include "lcp.h"
#include "testprob.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define ROUNDS 7

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

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_spent;   /* process CPU seconds of the last solve_time */

static double solve_time(const lcp_problem *P, const char *solver, int threads, int sweeps,
                         double *z)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = -1;
    o.max_iter = sweeps;
    o.threads = threads;
    lcp_info info;
    double c0 = cpu(), t0 = now();
    lcp_solve(lcp_solver_find(solver), P, &o, z, &info);
    double t = now() - t0;
    cpu_spent = cpu() - c0;
    return t;
}

/* wall seconds per sweep; *cpu_per: process CPU seconds per sweep (all threads) */
static double sweep_time(const lcp_problem *P, const char *solver, int threads, double *z,
                         double *cpu_per)
{
    double t41 = solve_time(P, solver, threads, 41, z), c41 = cpu_spent;
    double t1 = solve_time(P, solver, threads, 1, z);
    *cpu_per = (c41 - cpu_spent) / 40;
    return (t41 - t1) / 40;
}

int main(int argc, char **argv)
{
    printf("%-26s %6s %7s %9s %10s %10s %10s %10s\n", "instance", "rows", "colours",
           "colour_s", "pgs", "pgs-color", "r@1000 pgs", "pgs-color");
    for (int a = 1; a < argc; a++) {
        lcp_problem P;
        char msg[512];
        if (lcp_read_instance(argv[a], &P, msg, sizeof msg) != LCP_OK) {
            fprintf(stderr, "bench_color: %s\n", msg);
            return 1;
        }
        double *z = calloc((size_t)P.m + 1, sizeof(double));
        lcp_options o;
        lcp_options_default(&o);
        o.max_iter = 5000;
        lcp_info ip, ic;
        lcp_status sp = lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &ip);
        lcp_status sc = lcp_solve(lcp_solver_find("pgs-color"), &P, &o, z, &ic);
        lcp_info rp, rc;                               /* residuals after 1000 sweeps */
        o.tol = -1.0;
        o.max_iter = 1000;
        lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &rp);
        lcp_solve(lcp_solver_find("pgs-color"), &P, &o, z, &rc);
        size_t n = strlen(argv[a]);
        while (n > 1 && argv[a][n - 1] == '/') n--;
        size_t b = n;
        while (b > 0 && argv[a][b - 1] != '/') b--;
        printf("%-26.*s %6d %7d %9.2e %5d%-5s %5d%-5s %10.2e %10.2e\n", (int)(n - b),
               argv[a] + b, P.m, ic.colors, ic.color_time, ip.iterations,
               sp == LCP_OK ? "" : " cap", ic.iterations, sc == LCP_OK ? "" : " cap",
               rp.residual, rc.residual);
        free(z);
        lcp_problem_free(&P);
    }
    lcp_problem P;
    if (tp_contact(&P, 6, 22222, 33334, 2, 0.5, 1e-3, 1) != 0) return 1;
    double *z = calloc((size_t)P.m, sizeof(double));
    lcp_options o;
    lcp_options_default(&o);
    o.max_iter = 1;
    o.tol = -1;
    lcp_info info;
    lcp_solve(lcp_solver_find("pgs-color"), &P, &o, z, &info);
    printf("\nsynthetic 3D contact problem: %d rows, %d bodies, %d colours (colouring %.3f s)\n",
           P.m, P.n / 6, info.colors, info.color_time);
    double tp[ROUNDS], tc1[ROUNDS], tc2[ROUNDS], tj1[ROUNDS], tj2[ROUNDS];
    double sc[ROUNDS], sj[ROUNDS], cp[ROUNDS], cc[ROUNDS], c1, c2, cj;
    for (int r = 0; r < ROUNDS; r++) {
        tp[r] = sweep_time(&P, "pgs", 1, z, &cj);
        tc1[r] = sweep_time(&P, "pgs-color", 1, z, &c1);
        tc2[r] = sweep_time(&P, "pgs-color", 2, z, &c2);
        tj1[r] = sweep_time(&P, "jacobi", 1, z, &cj);
        tj2[r] = sweep_time(&P, "jacobi", 2, z, &cj);
        cc[r] = c2 / c1;
        sc[r] = tc1[r] / tc2[r];
        sj[r] = tj1[r] / tj2[r];
        cp[r] = tp[r] / tc2[r];
    }
    qsort(sc, ROUNDS, sizeof(double), cmp);
    qsort(sj, ROUNDS, sizeof(double), cmp);
    qsort(cp, ROUNDS, sizeof(double), cmp);
    qsort(cc, ROUNDS, sizeof(double), cmp);
    qsort(tp, ROUNDS, sizeof(double), cmp);
    qsort(tc1, ROUNDS, sizeof(double), cmp);
    qsort(tc2, ROUNDS, sizeof(double), cmp);
    qsort(tj1, ROUNDS, sizeof(double), cmp);
    qsort(tj2, ROUNDS, sizeof(double), cmp);
    printf("median ms per sweep: pgs %.2f, pgs-color 1 thread %.2f, 2 threads %.2f; "
           "jacobi 1 thread %.2f, 2 threads %.2f\n", 1e3 * tp[ROUNDS / 2],
           1e3 * tc1[ROUNDS / 2], 1e3 * tc2[ROUNDS / 2], 1e3 * tj1[ROUNDS / 2],
           1e3 * tj2[ROUNDS / 2]);
    printf("pgs-color speed-up, 2 threads / 1: median %.2f (range %.2f-%.2f) of %d paired "
           "(target >= 1.7)\n", sc[ROUNDS / 2], sc[0], sc[ROUNDS - 1], ROUNDS);
    printf("pgs-color on 2 threads against serial pgs: median %.2f (range %.2f-%.2f)\n",
           cp[ROUNDS / 2], cp[0], cp[ROUNDS - 1]);
    printf("pgs-color CPU time per sweep, 2 threads / 1 thread (both threads counted; 1 = "
           "no work added by the split): median %.2f (range %.2f-%.2f)\n", cc[ROUNDS / 2],
           cc[0], cc[ROUNDS - 1]);
    printf("jacobi speed-up, 2 threads / 1: median %.2f (range %.2f-%.2f)\n", sj[ROUNDS / 2],
           sj[0], sj[ROUNDS - 1]);
    free(z);
    lcp_problem_free(&P);
    return sc[ROUNDS / 2] < 1.7;
}
