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
 * 3. In the same rounds, what 2 threads can gain at all on this machine at that moment: a
 *    kernel with no shared data and no synchronisation (each thread runs 8 independent
 *    multiply-add chains; 2 threads on 2 free cores do twice the work of one in the same
 *    time) and a STREAM-style triad a = b + 3 c over 3 x 160 MB (memory bandwidth, 1 and 2
 *    threads), each the same work on 1 and on 2 threads.  The load average is printed at
 *    the start and at the end.
 * The machine is shared: run it when it is quiet, and read the range. */
#define _DEFAULT_SOURCE /* getloadavg */
#include "lcp.h"
#include "testprob.h"
#include "benchclock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 15

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

/* ---- the reference kernels: the same work split over 1 or 2 threads ---- */
typedef struct kern {
    int id, nt;
    double res;
} kern;
static double *ta, *tb, *tc;
static volatile double sink;
enum { TRIAD_N = 20000000, CHAIN_ITERS = 40000000 };

static void *chains(void *v)   /* 8 independent chains: the FP ports, no memory */
{
    kern *k = v;
    double x[8];
    for (int j = 0; j < 8; j++) x[j] = 1.0 + 1e-3 * j + 1e-9 * k->id;
    for (long i = 0; i < CHAIN_ITERS / k->nt; i++)
        for (int j = 0; j < 8; j++) x[j] = x[j] * 0.99999999 + 1e-8;
    k->res = x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7];
    return NULL;
}

static void *triad(void *v)    /* a = b + 3 c over this thread's share */
{
    kern *k = v;
    long lo = (long)TRIAD_N * k->id / k->nt, hi = (long)TRIAD_N * (k->id + 1) / k->nt;
    for (int r = 0; r < 4; r++)
        for (long i = lo; i < hi; i++) ta[i] = tb[i] + 3.0 * tc[i];
    k->res = ta[lo];
    return NULL;
}

static double kernel_time(void *(*f)(void *), int nt)
{
    pthread_t th[2];
    kern k[2];
    double t0 = now();
    for (int i = 0; i < nt; i++) {
        k[i] = (kern){i, nt, 0.0};
        if (i > 0) pthread_create(&th[i], NULL, f, &k[i]);
    }
    f(&k[0]);
    for (int i = 1; i < nt; i++) pthread_join(th[i], NULL);
    double t = now() - t0;
    for (int i = 0; i < nt; i++) sink += k[i].res;   /* the work cannot be dropped */
    return t;
}

static void loadavg(const char *when)
{
    double l[3];
    if (getloadavg(l, 3) == 3) printf("load average %s: %.2f %.2f %.2f\n", when, l[0], l[1], l[2]);
}

int main(int argc, char **argv)
{
    loadavg("at the start");
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
    double kc[ROUNDS], kt[ROUNDS], bw1[ROUNDS], bw2[ROUNDS], eff[ROUNDS];
    ta = calloc(TRIAD_N, sizeof(double));
    tb = calloc(TRIAD_N, sizeof(double));
    tc = calloc(TRIAD_N, sizeof(double));
    if (!ta || !tb || !tc) return 1;
    for (long i = 0; i < TRIAD_N; i++) tb[i] = 1.0, tc[i] = 2.0;
    for (int r = 0; r < ROUNDS; r++) {
        double k1 = kernel_time(chains, 1), k2 = kernel_time(chains, 2);
        double t1 = kernel_time(triad, 1), t2 = kernel_time(triad, 2);
        kc[r] = k1 / k2;
        kt[r] = t1 / t2;
        bw1[r] = 4.0 * 24.0 * TRIAD_N / t1 * 1e-9;
        bw2[r] = 4.0 * 24.0 * TRIAD_N / t2 * 1e-9;
        tp[r] = sweep_time(&P, "pgs", 1, z, &cj);
        tc1[r] = sweep_time(&P, "pgs-color", 1, z, &c1);
        tc2[r] = sweep_time(&P, "pgs-color", 2, z, &c2);
        tj1[r] = sweep_time(&P, "jacobi", 1, z, &cj);
        tj2[r] = sweep_time(&P, "jacobi", 2, z, &cj);
        cc[r] = c2 / c1;
        sc[r] = tc1[r] / tc2[r];
        sj[r] = tj1[r] / tj2[r];
        cp[r] = tp[r] / tc2[r];
        eff[r] = sc[r] / kc[r];
    }
    qsort(kc, ROUNDS, sizeof(double), cmp);
    qsort(kt, ROUNDS, sizeof(double), cmp);
    qsort(bw1, ROUNDS, sizeof(double), cmp);
    qsort(bw2, ROUNDS, sizeof(double), cmp);
    qsort(eff, ROUNDS, sizeof(double), cmp);
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
    printf("reference kernel (independent chains, no sharing) 2 threads / 1: median %.2f "
           "(range %.2f-%.2f): what 2 threads could gain at the time\n", kc[ROUNDS / 2],
           kc[0], kc[ROUNDS - 1]);
    printf("pgs-color speed-up / reference kernel speed-up, same round: median %.2f "
           "(range %.2f-%.2f)\n", eff[ROUNDS / 2], eff[0], eff[ROUNDS - 1]);
    printf("triad: 1 thread %.1f GB/s, 2 threads %.1f GB/s (medians; 2/1 median %.2f, "
           "range %.2f-%.2f)\n", bw1[ROUNDS / 2], bw2[ROUNDS / 2], kt[ROUNDS / 2], kt[0],
           kt[ROUNDS - 1]);
    loadavg("at the end");
    free(ta);
    free(tb);
    free(tc);
    free(z);
    lcp_problem_free(&P);
    return sc[ROUNDS / 2] < 1.7;
}
