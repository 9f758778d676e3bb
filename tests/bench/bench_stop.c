/* bench_stop.c: what the stopping test costs.
 * For each problem (instance folders given as arguments, then a synthetic 3D contact problem
 * with 10^5 rows) and solver (pgs, pgs-block, jacobi, amgs-D, amgs-I; default form):
 *   K       = sweeps of a solve to tol 1e-6 (cap 1000, or --cap N, on the folders; 200 on
 *             the synthetic problem, which --no-synthetic leaves out)
 *   fused   = time of that solve (the fused test, every sweep)
 *   none    = time of K sweeps with no test (tol < 0)
 *   exact   = time of K sweeps with the exact residual after every sweep (lcp_residual in
 *             a monitor: what the test cost before it was fused)
 * Each round times them back to back (CPU time of the process, solves repeated to >= 20 ms),
 * with two more for the breakdown below when K < 100, and the report gives the median over ROUNDS of
 * the paired ratios fused/none and exact/none, with their range.  For a solve of fewer
 * than 100 sweeps it also gives where the time goes (medians, ns): the solve with no sweep
 * (its fixed cost), a sweep ((none - fixed) / K), the fused estimate (the fused sweeps
 * tested only at sweep K, less none, / K), the loop's exact residual (fused less that,
 * over the residuals besides the start's and the stopping one) and lcp_residual with all
 * its quantities ((exact - none) / K).  The loop takes the exact residual at every tested
 * Gauss-Seidel sweep (the sweep count is the first crossing: lcp/iterate.c), so the target
 * is the cost of that residual: exits 1 when a median fused/none exceeds 1.05 x the median
 * exact/none on a solve of at least 100 sweeps (lcp_residual in a monitor computes more
 * than the loop's pass; a solve of 10 sweeps cannot: its start and
 * final confirmation are residuals too).
 * --instructions DIR SOLVER fused|none N: run N solves of DIR with SOLVER, fused (to 1e-6,
 * cap 1000) or none (the same sweeps, tol < 0), with callgrind's collection on around them
 * alone (valgrind --tool=callgrind --collect-atstart=no); tests/bench/stop_instructions.sh runs
 * it and prints the ratio of the instructions: a count that does not move with the host's
 * load, where the timings above swing by 10 to 60% on a shared machine. */
#include "lcp.h"
#include "testprob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_TOGGLE_COLLECT   /* no valgrind headers: nothing is collected (and
                                      stop_instructions.sh skips) */
#endif

#define ROUNDS 9

/* process CPU seconds: the solves are single-threaded, and on a shared machine the CPU
 * time of a run is less disturbed by the neighbours than its wall-clock time */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct exact_mon {
    const lcp_problem *P;
    double *w, sum;
} exact_mon;

static void exact_every(void *ctx, int k, const double *z)
{
    exact_mon *e = ctx;
    lcp_residuals R;
    (void)k;
    lcp_residual(e->P, z, e->w, &R);
    e->sum += R.r2;
}

/* seconds per solve, the solve repeated reps times */
static double timed(const lcp_solver *S, const lcp_problem *P, const lcp_options *o, double *z,
                    int reps)
{
    lcp_info info;
    double t0 = now();
    for (int r = 0; r < reps; r++) lcp_solve(S, P, o, z, &info);
    return (now() - t0) / reps;
}

static int bench(const char *name, const lcp_problem *P, const char *solver, int cap)
{
    const lcp_solver *S = lcp_solver_find(solver);
    double *z = calloc((size_t)P->m + 1, sizeof(double)), *w = calloc((size_t)P->m + 1, sizeof(double));
    lcp_options of, on, oe;
    lcp_options_default(&of);
    of.max_iter = cap;
    lcp_info info;
    lcp_status st = lcp_solve(S, P, &of, z, &info);
    int K = info.iterations, checks = info.residual_checks;
    if (st < 0 || K == 0) {
        printf("%-26s %-9s %-15s (skipped)\n", name, solver, lcp_status_str(st));
        free(z);
        free(w);
        return 0;
    }
    on = of;
    on.tol = -1.0;
    on.max_iter = K;
    exact_mon em = {P, w, 0.0};
    oe = on;
    oe.monitor = exact_every;
    oe.monitor_ctx = &em;
    lcp_options o0 = on;                      /* no sweep: the solve's fixed cost */
    o0.max_iter = 0;
    lcp_options o1 = of;                      /* the fused sweeps, tested only at sweep K */
    o1.max_iter = K;
    o1.check_every = K;
    int reps = 1;
    double t1 = timed(S, P, &on, z, 1);
    if (t1 < 0.02) reps = (int)(0.02 / fmax(t1, 1e-7)) + 1;
    double rf[ROUNDS], re[ROUNDS], fix[ROUNDS], sw[ROUNDS], ex[ROUNDS], est[ROUNDS], lr[ROUNDS];
    int extra = checks - 2;                   /* the loop's residuals besides the start's
                                               * (at z = 0: no product) and the stopping one
                                               * (which the unfused solve takes at the end) */
    for (int r = 0; r < ROUNDS; r++) {
        double tn = timed(S, P, &on, z, reps);
        double tf = timed(S, P, &of, z, reps);
        double te = timed(S, P, &oe, z, reps);
        double t0 = K < 100 ? timed(S, P, &o0, z, reps) : 0.0;   /* the breakdown's */
        double t1k = K < 100 ? timed(S, P, &o1, z, reps) : 0.0;
        est[r] = (t1k - tn) / K;
        lr[r] = extra > 0 ? (tf - t1k) / extra : 0.0;
        rf[r] = tf / tn;
        re[r] = te / tn;
        fix[r] = t0;
        sw[r] = (tn - t0) / K;
        ex[r] = (te - tn) / K;                /* the monitor's residual, one a sweep */
    }
    qsort(rf, ROUNDS, sizeof(double), cmp);
    qsort(re, ROUNDS, sizeof(double), cmp);
    qsort(fix, ROUNDS, sizeof(double), cmp);
    qsort(sw, ROUNDS, sizeof(double), cmp);
    qsort(ex, ROUNDS, sizeof(double), cmp);
    qsort(est, ROUNDS, sizeof(double), cmp);
    qsort(lr, ROUNDS, sizeof(double), cmp);
    printf("%-26s %-9s %-15s %5d sweeps %4d exact  fused/none %.3f (%.3f-%.3f)  "
           "exact-every-sweep/none %.2f (%.2f-%.2f)\n", name, solver, lcp_status_str(st), K,
           checks, rf[ROUNDS / 2], rf[0], rf[ROUNDS - 1], re[ROUNDS / 2], re[0],
           re[ROUNDS - 1]);
    if (K < 100 && extra > 0)   /* where a short solve's time goes (medians, not paired) */
        printf("%-26s   ns: fixed %.0f, a sweep %.0f, the estimate %.0f a sweep, the "
               "loop's exact residual %.0f (%d not stopping), lcp_residual in a monitor %.0f\n",
               "", 1e9 * fix[ROUNDS / 2], 1e9 * sw[ROUNDS / 2], 1e9 * est[ROUNDS / 2],
               1e9 * lr[ROUNDS / 2], extra, 1e9 * ex[ROUNDS / 2]);
    fflush(stdout);
    free(z);
    free(w);
    return K >= 100 && rf[ROUNDS / 2] > 1.05 * re[ROUNDS / 2];
}

/* --instructions: N solves of one kind, callgrind collecting around them alone */
static int instructions(const char *dir, const char *solver, const char *mode, int n)
{
    lcp_problem P;
    char msg[512];
    const lcp_solver *S = lcp_solver_find(solver);
    int fused = strcmp(mode, "fused") == 0;
    if (!S || (!fused && strcmp(mode, "none") != 0) || n < 1) {
        fprintf(stderr, "bench_stop: --instructions DIR SOLVER fused|none N\n");
        return 2;
    }
    if (lcp_read_instance(dir, &P, msg, sizeof msg) != LCP_OK) {
        fprintf(stderr, "bench_stop: %s\n", msg);
        return 1;
    }
    double *z = calloc((size_t)P.m + 1, sizeof(double));
    lcp_options o;
    lcp_options_default(&o);
    o.max_iter = 1000;
    lcp_info info;
    lcp_status st = lcp_solve(S, &P, &o, z, &info);
    int K = info.iterations, checks = info.residual_checks;
    if (!fused) {
        o.tol = -1.0;
        o.max_iter = K;
    }
    CALLGRIND_TOGGLE_COLLECT;
    for (int r = 0; r < n; r++) lcp_solve(S, &P, &o, z, &info);
    CALLGRIND_TOGGLE_COLLECT;
    printf("%s %s %s: %d sweeps, %d exact residuals fused, %d solves\n", dir, solver,
           lcp_status_str(st), K, checks, n);
    free(z);
    lcp_problem_free(&P);
    return 0;   /* a solve that diverges is counted too: its status is in the line */
}

int main(int argc, char **argv)
{
    const char *solvers[] = {"pgs", "pgs-block", "jacobi", "amgs-D", "amgs-I"};
    if (argc == 6 && strcmp(argv[1], "--instructions") == 0)
        return instructions(argv[2], argv[3], argv[4], atoi(argv[5]));
    int bad = 0, first = 1, dir_cap = 1000, synthetic = 1;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--no-synthetic") == 0)
            synthetic = 0;
        else if (strcmp(argv[first], "--cap") == 0 && first + 1 < argc &&
                 atoi(argv[first + 1]) > 0)
            dir_cap = atoi(argv[++first]);
        else {
            fprintf(stderr, "bench_stop: unknown option or bad value '%s' (usage: bench_stop "
                    "[--cap N] [--no-synthetic] [DIR...])\n", argv[first]);
            return 2;
        }
        first++;
    }
    printf("median of %d paired ratios (range); K = sweeps of the solve to 1e-6\n", ROUNDS);
    for (int a = first; a <= argc - !synthetic; a++) {
        lcp_problem P;
        char msg[512], name[64];
        int cap = dir_cap;
        if (a < argc) {
            if (lcp_read_instance(argv[a], &P, msg, sizeof msg) != LCP_OK) {
                fprintf(stderr, "bench_stop: %s\n", msg);
                return 1;
            }
            size_t n = strlen(argv[a]);
            while (n > 1 && argv[a][n - 1] == '/') n--;
            size_t b = n;
            while (b > 0 && argv[a][b - 1] != '/') b--;
            snprintf(name, sizeof name, "%.*s", (int)(n - b), argv[a] + b);
        } else {   /* 10^5 rows: 33334 contacts of 3 rows on 22222 3D bodies */
            if (tp_contact(&P, 6, 22222, 33334, 2, 0.5, 1e-3, 1) != 0) return 1;
            snprintf(name, sizeof name, "synthetic-1e5 (m %d)", P.m);
            cap = 200;
        }
        for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; s++)
            bad |= bench(name, &P, solvers[s], cap);
        lcp_problem_free(&P);
    }
    return bad;
}
