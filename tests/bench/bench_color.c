/* bench_color.c: the parallel solvers (issue "Performance", item 2).
 *   bench_color [--rounds R] [--curve [N]] [--solver S] [--time DIR] [instance folder ...]
 * 1. Sweeps to tolerance 1e-6 (cap 5000) of pgs (natural order), pgs-color (rows coloured)
 *    and pgs-color-contact (contacts coloured) on each instance folder given as an
 *    argument, and their residuals after 1000 sweeps: what each colouring costs in sweeps;
 *    with the number of colours and the colouring's time.
 * 2. On a synthetic 3D contact problem with 10^5 rows (3 rows per contact, friction, the
 *    two bodies of a contact drawn at random among 22222), the time of one sweep (slope of
 *    161 sweeps against 1, both given the solver's set-up made once beforehand, which
 *    leaves out the colouring and the per-solve start) of pgs, pgs-color on
 *    1 and 2 threads, and jacobi on 1 and 2 threads; each round (R, default 15) times them
 *    back to back and the report gives the median of the paired speed-ups (1 thread / 2
 *    threads) with their range, and the process CPU time per sweep on 2 threads / 1 (1 =
 *    the threads do not slow each other down; above 1, sharing costs: cache lines moving
 *    between the cores, waits).
 * 3. In the same rounds, what 2 threads can gain at all on this machine at that moment: a
 *    kernel with no shared data and no synchronisation (each thread runs 8 independent
 *    multiply-add chains; 2 threads on 2 free cores do twice the work of one in the same
 *    time), timed on 1 and 2 threads just before pgs-color and on 2 threads just after,
 *    and a STREAM-style triad a = b + 3 c over 3 x 160 MB (memory bandwidth, 1 and 2
 *    threads), and a kernel of 32 chains that keeps a core's FP ports busy (2x on two
 *    cores, about 1x on two hardware threads of one core: it tells whether a virtual
 *    machine's two cores are whole cores), and what a run of the sweeps' thread pool costs
 *    (2000 empty runs on 2 threads back to back).  A round is QUIET when the kernel
 *    gained >= 1.8 both before and after: the pgs-color ratios are also given over the
 *    quiet rounds (on a shared machine, the rounds in which two cores were free).  The load average is printed at the start and the end.
 *    Exits 1 when the median pgs-color speed-up on 2 threads is below 1.7 (the target),
 *    over all rounds, or over the quiet rounds when at least a third of them were quiet.
 * --solver S: the coloured solver timed in 2 and 3 and in the curve: pgs-color (default) or
 *    pgs-color-contact.
 * --time DIR: parts 2 and 3 (or the curve) on the instance folder DIR instead of the
 *    synthetic problem (a captured pile: bodies and contacts numbered in space, so each
 *    thread's share of a colour keeps to its own bodies far more than with random pairs).
 * --curve [N]: instead of 2 and 3, the speed-up curve for 1..N threads (N: the online
 *    cores by default): per thread count T, R rounds of pgs-color on 1 and T threads and
 *    the kernel on 1 and T threads, medians and ranges of the ratios, and the CPU ratio.
 * The machine is shared: run it when it is quiet, and read the range; on a loaded machine
 * `chrt -f 1 bench_color` (root) keeps other processes off the cores while it times (each
 * timing starts after 100 ms asleep, so the real-time throttle never cuts into one). */
#define _DEFAULT_SOURCE /* getloadavg */
#include "lcp.h"
#include "lcp_internal.h"   /* the thread pool, timed on its own */
#include "testprob.h"
#include "benchclock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS 200
static const char *CS = "pgs-color";   /* the coloured solver timed (--solver) */
#define MAX_T 256

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 100 ms asleep before each timing: run under a real-time policy (chrt,
 * results/performance.md), the timed code then stays below the kernel's real-time share (95% of
 * each second by default) and is never throttled in the middle of a timing */
static void pause_briefly(void)
{
    struct timespec ts = {0, 100000000L};
    nanosleep(&ts, NULL);
}

static double cpu_spent;   /* process CPU seconds of the last solve_time */

static lcp_options sweeps_options(int threads, int sweeps, const void *prepared)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = -1;
    o.max_iter = sweeps;
    o.threads = threads;
    o.prepared = prepared;
    return o;
}

static double solve_time(const lcp_problem *P, const char *solver, int threads, int sweeps,
                         const void *prepared, double *z)
{
    lcp_options o = sweeps_options(threads, sweeps, prepared);
    lcp_info info;
    pause_briefly();
    double c0 = cpu(), t0 = now();
    lcp_solve(lcp_solver_find(solver), P, &o, z, &info);
    double t = now() - t0;
    cpu_spent = cpu() - c0;
    return t;
}

/* The sweeps a slope spans: a host's hiccup of a few ms is a smaller share of 160 sweeps
 * (0.3 to 0.6 s a timing at 10^5 rows) than of 40 */
#define SLOPE 160

/* wall seconds per sweep; *cpu_per: process CPU seconds per sweep (all threads).  The
 * solver's setup (the colouring and the rows in colour order, pgs's streaming layout) is
 * made once, untimed, and given to both solves: a setup of 30 ms or more, timed inside
 * each solve, varied by more than the difference of 40 sweeps the slope then measured (it
 * gave negative sweep times in some rounds) */
static double sweep_time(const lcp_problem *P, const char *solver, int threads, double *z,
                         double *cpu_per)
{
    const lcp_solver *S = lcp_solver_find(solver);
    lcp_options o = sweeps_options(threads, SLOPE + 1, NULL);
    void *prep = NULL;
    if (lcp_prepare(S, P, &o, &prep) != LCP_OK) {
        fprintf(stderr, "bench_color: %s: set-up failed\n", solver);
        exit(2);
    }
    double tk = solve_time(P, solver, threads, SLOPE + 1, prep, z), ck = cpu_spent;
    double t1 = solve_time(P, solver, threads, 1, prep, z);
    lcp_unprepare(S, prep);
    *cpu_per = (ck - cpu_spent) / SLOPE;
    return (tk - t1) / SLOPE;
}

/* ---- the reference kernels: the same work split over 1 or 2 threads ---- */
typedef struct kern {
    int id, nt;
    double res;
} kern;
static double *ta, *tb, *tc;
static volatile double sink;
enum { TRIAD_N = 20000000, CHAIN_ITERS = 20000000 };

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

static void *ports(void *v)    /* 32 independent chains: more than one core's FP ports can
                                  overlap, so two threads gain 2x only on two whole cores,
                                  not on two hardware threads of one */
{
    kern *k = v;
    double x[32];
    for (int j = 0; j < 32; j++) x[j] = 1.0 + 1e-3 * j + 1e-9 * k->id;
    for (long i = 0; i < CHAIN_ITERS / 4 / k->nt; i++)
        for (int j = 0; j < 32; j++) x[j] = x[j] * 0.99999999 + 1e-8;
    double s = 0.0;
    for (int j = 0; j < 32; j++) s += x[j];
    k->res = s;
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
    pthread_t th[MAX_T];
    kern k[MAX_T];
    pause_briefly();
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

/* microseconds a run of the sweeps' thread pool (pool.c) costs on 2 threads: 2000 empty
 * runs back to back (what a sweep pays to start its threads and wait for them) */
static void pool_noop(void *arg, int tid)
{
    (void)arg;
    (void)tid;
}

static double pool_run_us(void)
{
    lcp_pool *p;
    if (lcp_pool_start(&p, 2) != LCP_OK) return -1.0;
    lcp_pool_run(p, pool_noop, NULL);
    double t0 = now();
    for (int k = 0; k < 2000; k++) lcp_pool_run(p, pool_noop, NULL);
    double t = (now() - t0) / 2000;
    lcp_pool_stop(p);
    return 1e6 * t;
}

static void loadavg(const char *when)
{
    double l[3];
    if (getloadavg(l, 3) == 3) printf("load average %s: %.2f %.2f %.2f\n", when, l[0], l[1], l[2]);
}

/* median and range of x[0..n-1] (sorted in place) */
typedef struct spread {
    double med, lo, hi;
    int n;
} spread;
static spread spread_of(double *x, int n)
{
    spread s = {0.0, 0.0, 0.0, n};
    if (n == 0) return s;
    qsort(x, (size_t)n, sizeof(double), cmp);
    s.med = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    s.lo = x[0];
    s.hi = x[n - 1];
    return s;
}

static void instance_table(int nf, char **folders)
{
    static const char *sv[3] = {"pgs", "pgs-color", "pgs-color-contact"};
    if (nf > 0)
        printf("sweeps to 1e-6 (cap 5000) and residual after 1000 sweeps; colours and the "
               "colouring's seconds\n%-26s %6s %11s %11s %11s %8s %9s %8s %9s\n", "instance",
               "rows", "pgs", "pgs-color", "-contact", "colours", "colour_s", "colours",
               "colour_s");
    for (int a = 0; a < nf; a++) {
        lcp_problem P;
        char msg[512];
        if (lcp_read_instance(folders[a], &P, msg, sizeof msg) != LCP_OK) {
            fprintf(stderr, "bench_color: %s\n", msg);
            exit(1);
        }
        double *z = calloc((size_t)P.m + 1, sizeof(double));
        lcp_info it[3], ir[3];
        lcp_status st[3];
        for (int v = 0; v < 3; v++) {
            lcp_options o;
            lcp_options_default(&o);
            o.max_iter = 5000;
            st[v] = lcp_solve(lcp_solver_find(sv[v]), &P, &o, z, &it[v]);
            o.tol = -1.0;                               /* the residual after 1000 sweeps */
            o.max_iter = 1000;
            lcp_solve(lcp_solver_find(sv[v]), &P, &o, z, &ir[v]);
        }
        size_t n = strlen(folders[a]);
        while (n > 1 && folders[a][n - 1] == '/') n--;
        size_t b = n;
        while (b > 0 && folders[a][b - 1] != '/') b--;
        printf("%-26.*s %6d", (int)(n - b), folders[a] + b, P.m);
        for (int v = 0; v < 3; v++)
            printf(" %5d%-5s", it[v].iterations, st[v] == LCP_OK ? "" : " cap");
        printf(" %8d %9.2e %8d %9.2e\n", it[1].colors, it[1].color_time, it[2].colors,
               it[2].color_time);
        printf("%-26s %6s", "  residual @1000", "");
        for (int v = 0; v < 3; v++) printf(" %10.2e", ir[v].residual);
        printf("\n");
        free(z);
        lcp_problem_free(&P);
    }
}

/* the speed-up curve: pgs-color on 1 and T threads and the kernel on 1 and T, T = 1..N */
static void curve(const lcp_problem *P, double *z, int N, int R)
{
    printf("\nspeed-up curve, %s, %d paired rounds per thread count (medians, ranges)\n"
           "%7s %9s %9s %17s %17s %17s\n", CS, R, "threads", "ms/sweep", "ms 1 thr",
           "speed-up", "kernel speed-up", "CPU T / CPU 1");
    for (int T = 1; T <= N; T++) {
        double s[MAX_ROUNDS], k[MAX_ROUNDS], c[MAX_ROUNDS], t1[MAX_ROUNDS], tT[MAX_ROUNDS];
        for (int r = 0; r < R; r++) {
            double c1, cT;
            k[r] = kernel_time(chains, 1) / kernel_time(chains, T);
            t1[r] = sweep_time(P, CS, 1, z, &c1);
            tT[r] = sweep_time(P, CS, T, z, &cT);
            s[r] = t1[r] / tT[r];
            c[r] = cT / c1;
        }
        spread ss = spread_of(s, R), ks = spread_of(k, R), cs = spread_of(c, R);
        spread a = spread_of(tT, R), b = spread_of(t1, R);
        printf("%7d %9.3f %9.3f %5.2f (%4.2f-%4.2f) %5.2f (%4.2f-%4.2f) %5.2f (%4.2f-%4.2f)\n",
               T, 1e3 * a.med, 1e3 * b.med, ss.med, ss.lo, ss.hi, ks.med, ks.lo, ks.hi,
               cs.med, cs.lo, cs.hi);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    int R = 15, N = 0, nf = 0;
    const char *timed = NULL;
    char **folders = calloc((size_t)argc + 1, sizeof(char *));
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--rounds") && a + 1 < argc) {
            R = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--solver") && a + 1 < argc) {
            CS = argv[++a];
            if (!lcp_solver_find(CS) || strncmp(CS, "pgs-color", 9)) {
                fprintf(stderr, "bench_color: --solver: pgs-color or pgs-color-contact\n");
                return 2;
            }
        } else if (!strcmp(argv[a], "--time") && a + 1 < argc) {
            timed = argv[++a];
        } else if (!strcmp(argv[a], "--curve")) {
            N = (int)sysconf(_SC_NPROCESSORS_ONLN);
            if (a + 1 < argc && argv[a + 1][0] >= '0' && argv[a + 1][0] <= '9') N = atoi(argv[++a]);
        } else {
            folders[nf++] = argv[a];
        }
    }
    if (R < 1 || R > MAX_ROUNDS || N < 0 || N > MAX_T) {
        fprintf(stderr, "bench_color: --rounds 1..%d, --curve 1..%d\n", MAX_ROUNDS, MAX_T);
        return 2;
    }
    loadavg("at the start");
    instance_table(nf, folders);
    free(folders);
    lcp_problem P;
    char msg[512];
    if (timed && lcp_read_instance(timed, &P, msg, sizeof msg) != LCP_OK) {
        fprintf(stderr, "bench_color: %s\n", msg);
        return 1;
    }
    if (!timed && tp_contact(&P, 6, 22222, 33334, 2, 0.5, 1e-3, 1) != 0) return 1;
    double *z = calloc((size_t)P.m, sizeof(double));
    lcp_options o;
    lcp_options_default(&o);
    o.max_iter = 1;
    o.tol = -1;
    lcp_info info;
    lcp_solve(lcp_solver_find(CS), &P, &o, z, &info);
    if (timed)
        printf("\ntimed on %s: %d rows, %d body coordinates, %d colours (colouring %.3f s)\n",
               timed, P.m, P.n, info.colors, info.color_time);
    else
        printf("\nsynthetic 3D contact problem: %d rows, %d bodies, %d colours (colouring %.3f s)\n",
               P.m, P.n / 6, info.colors, info.color_time);
    if (N > 0) {
        curve(&P, z, N, R);
        loadavg("at the end");
        free(z);
        lcp_problem_free(&P);
        return 0;
    }
    static double tp[MAX_ROUNDS], tc1[MAX_ROUNDS], tc2[MAX_ROUNDS], tj1[MAX_ROUNDS],
        tj2[MAX_ROUNDS], sc[MAX_ROUNDS], sj[MAX_ROUNDS], cp[MAX_ROUNDS], cc[MAX_ROUNDS],
        kc[MAX_ROUNDS], kt[MAX_ROUNDS], bw1[MAX_ROUNDS], bw2[MAX_ROUNDS], eff[MAX_ROUNDS],
        qs[MAX_ROUNDS], qc[MAX_ROUNDS], qk[MAX_ROUNDS], c1p[MAX_ROUNDS], kp[MAX_ROUNDS],
        pu[MAX_ROUNDS];
    double c1, c2, cj, cpgs;
    int nq = 0;
    ta = calloc(TRIAD_N, sizeof(double));
    tb = calloc(TRIAD_N, sizeof(double));
    tc = calloc(TRIAD_N, sizeof(double));
    if (!ta || !tb || !tc) return 1;
    for (long i = 0; i < TRIAD_N; i++) tb[i] = 1.0, tc[i] = 2.0;
    for (int r = 0; r < R; r++) {
        double k1 = kernel_time(chains, 1), k2 = kernel_time(chains, 2);
        tc1[r] = sweep_time(&P, CS, 1, z, &c1);
        tc2[r] = sweep_time(&P, CS, 2, z, &c2);
        double k2b = kernel_time(chains, 2);
        kp[r] = kernel_time(ports, 1) / kernel_time(ports, 2);
        double t1 = kernel_time(triad, 1), t2 = kernel_time(triad, 2);
        kc[r] = k1 / k2;
        kt[r] = t1 / t2;
        bw1[r] = 4.0 * 24.0 * TRIAD_N / t1 * 1e-9;
        bw2[r] = 4.0 * 24.0 * TRIAD_N / t2 * 1e-9;
        tp[r] = sweep_time(&P, "pgs", 1, z, &cpgs);
        c1p[r] = c1 / cpgs;
        tj1[r] = sweep_time(&P, "jacobi", 1, z, &cj);
        tj2[r] = sweep_time(&P, "jacobi", 2, z, &cj);
        pu[r] = pool_run_us();
        cc[r] = c2 / c1;
        sc[r] = tc1[r] / tc2[r];
        sj[r] = tj1[r] / tj2[r];
        cp[r] = tp[r] / tc2[r];
        eff[r] = sc[r] / kc[r];
        if (k1 / k2 >= 1.8 && k1 / k2b >= 1.8) {
            qs[nq] = sc[r];
            qc[nq] = cc[r];
            qk[nq++] = k1 / k2;
        }
    }
    spread Kc = spread_of(kc, R), Kt = spread_of(kt, R), B1 = spread_of(bw1, R);
    spread B2 = spread_of(bw2, R), Ef = spread_of(eff, R), Sc = spread_of(sc, R);
    spread Sj = spread_of(sj, R), Cp = spread_of(cp, R), Cc = spread_of(cc, R);
    spread Tp = spread_of(tp, R), T1 = spread_of(tc1, R), T2 = spread_of(tc2, R);
    spread J1 = spread_of(tj1, R), J2 = spread_of(tj2, R);
    spread C1p = spread_of(c1p, R), Kp = spread_of(kp, R), Pu = spread_of(pu, R);
    spread Qs = spread_of(qs, nq), Qc = spread_of(qc, nq), Qk = spread_of(qk, nq);
    printf("median ms per sweep: pgs %.2f, %s 1 thread %.2f, 2 threads %.2f; "
           "jacobi 1 thread %.2f, 2 threads %.2f\n", 1e3 * Tp.med, CS, 1e3 * T1.med, 1e3 * T2.med,
           1e3 * J1.med, 1e3 * J2.med);
    printf("%s speed-up, 2 threads / 1: median %.2f (range %.2f-%.2f) of %d paired "
           "(target >= 1.7)\n", CS, Sc.med, Sc.lo, Sc.hi, R);
    printf("%s CPU time per sweep, 2 threads / 1 thread (both threads counted; 1 = "
           "no work added by the split): median %.2f (range %.2f-%.2f)\n", CS, Cc.med, Cc.lo,
           Cc.hi);
    printf("reference kernel (independent chains, no sharing) 2 threads / 1: median %.2f "
           "(range %.2f-%.2f): what 2 threads could gain at the time\n", Kc.med, Kc.lo, Kc.hi);
    printf("%s speed-up / reference kernel speed-up, same round: median %.2f "
           "(range %.2f-%.2f)\n", CS, Ef.med, Ef.lo, Ef.hi);
    printf("port-bound kernel (32 chains, the FP ports busy) 2 threads / 1: median %.2f "
           "(range %.2f-%.2f): near 2 on two whole cores, near 1 on two hardware threads "
           "of one core\n", Kp.med, Kp.lo, Kp.hi);
    if (nq > 0)
        printf("quiet rounds (kernel >= 1.8 before and after %s): %d of %d: %s "
               "speed-up median %.2f (range %.2f-%.2f), CPU ratio %.2f (%.2f-%.2f), kernel "
               "%.2f (%.2f-%.2f)\n", CS, nq, R, CS, Qs.med, Qs.lo, Qs.hi, Qc.med, Qc.lo, Qc.hi,
               Qk.med, Qk.lo, Qk.hi);
    else
        printf("quiet rounds (kernel >= 1.8 before and after %s): none of %d\n", CS, R);
    printf("%s on 2 threads against serial pgs: median %.2f (range %.2f-%.2f)\n", CS,
           Cp.med, Cp.lo, Cp.hi);
    printf("%s on 1 thread against serial pgs, medians: %.2f; CPU time per sweep, "
           "paired: median %.2f (range %.2f-%.2f)\n", CS, T1.med / Tp.med, C1p.med, C1p.lo, C1p.hi);
    printf("jacobi speed-up, 2 threads / 1: median %.2f (range %.2f-%.2f)\n", Sj.med, Sj.lo,
           Sj.hi);
    printf("thread pool, 2 threads: %.2f us a run (median; %.2f-%.2f), 2000 empty runs back "
           "to back\n", Pu.med, Pu.lo, Pu.hi);
    printf("triad: 1 thread %.1f GB/s, 2 threads %.1f GB/s (medians; 2/1 median %.2f, "
           "range %.2f-%.2f)\n", B1.med, B2.med, Kt.med, Kt.lo, Kt.hi);
    loadavg("at the end");
    free(ta);
    free(tb);
    free(tc);
    free(z);
    lcp_problem_free(&P);
    return (3 * nq >= R ? Qs.med : Sc.med) < 1.7;
}
