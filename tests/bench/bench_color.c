/* bench_color.c: the parallel solvers (issue "Performance", item 2).
 *   bench_color [--rounds R] [--loaded] [--curve [N] [--rows M[,M...]] [--csv FILE]] [--solver S]
 *               [--time DIR] [instance folder ...]
 * 0. What the colouring costs in sweeps on the problem timed in 2 and 3 (and in every
 *    parallel result it prints): the residual after 161 sweeps of pgs (natural order), of
 *    the coloured solver and of jacobi (omega auto), and the sweeps each needs to reach
 *    pgs's (cap 644).
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
 *    threads) with their range (2 threads as the library runs them: a sweep on the caller
 *    alone while the other thread makes it slower; and, beside it, with every sweep on
 *    both threads, options.threads_fixed), and the process CPU time per sweep on 2 threads / 1 (1 =
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
 *    The report also gives the distribution-free 95% confidence interval of the median
 *    paired speed-up of pgs-color and jacobi (order statistics: with 31 rounds the 10th and
 *    22nd; below 6 rounds the range).
 * --loaded: the target of a loaded machine instead (issue "Performance": 2 threads never
 *    below 0.95x 1 thread): each round also times the two again in the other order (1, 2,
 *    2, 1 threads: a load that drifts during the round moves both sides alike; the round's
 *    speed-up is the sum of its 1-thread times over that of its 2-thread times), and the
 *    program exits 1 unless the lower end of the 95% interval of the median of those
 *    speed-ups is >= 0.95 for both the coloured solver and jacobi, i.e. unless the rounds
 *    show, at 95%, that the median 2-thread sweep is no slower than 0.95x the 1-thread one
 *    (tests/bench/parallel_loaded.sh makes the load itself: one busy process per core).
 * --solver S: the coloured solver timed in 2 and 3 and in the curve: pgs-color (default) or
 *    pgs-color-contact.
 * --time DIR: parts 2 and 3 (or the curve) on the instance folder DIR instead of the
 *    synthetic problem (a captured pile: bodies and contacts numbered in space, so each
 *    thread's share of a colour keeps to its own bodies far more than with random pairs).
 * --doubling: the curve at 1, 2, 4, ... threads and N only (a short run on many cores).
 * --curve [N]: instead of 2 and 3, the thread curve for T = 1..N threads (N: the online
 *    cores by default) of pgs-color, pgs-color-contact and jacobi (matrix-free), on the
 *    synthetic problem with M rows for each --rows M (default 10^5; the bodies and contacts
 *    scaled with the rows; --rows 1e5,1e6 for both sizes) or on --time DIR.  Per round
 *    (R rounds, default 5 with --curve), each solver on 1, 2, ..., N threads: one solve of
 *    S + 1 sweeps from z = 0, the S sweeps after the first timed by the solver's monitor
 *    (S = 1.6e7 / M, 10 to 160: 160 at 10^5 rows, 16 at 10^6), the set-up (colouring)
 *    made once before the rounds; the speed-up of T threads over the same round's 1
 *    thread, and the process CPU time per sweep on T threads / 1 thread; then the kernel
 *    of independent chains and the triad on 1..N threads (what T threads can gain at all).
 *    Medians and ranges over the rounds.  What each colouring costs in sweeps, beside pgs
 *    (natural order), on the same problem: the residual after S + 1 sweeps, pgs's, and the
 *    sweeps each needs to reach pgs's (capped at 4 (S + 1)).  The stepper's collision
 *    detection and assembly are single-threaded (problems/), and the output says so.
 *    --csv FILE: the same as CSV, one line per solver, rows and threads (kernel-chains
 *    and triad with rows 0), after `# key: value' lines that describe the machine (CPU
 *    model, cores, load average at the start; the end's as the last line).  Each timing
 *    starts after 10 ms asleep (100 ms elsewhere: see below).  A full curve at 10^5 and
 *    10^6 rows on 16 cores should take 4 to 5 minutes (estimated from the sweep times of
 *    the 2-core machines; not yet run on 16 cores: tests/bench/thread_curve.sh runs it,
 *    prints its wall time and draws the figure).
 * The machine is shared: run it when it is quiet, and read the range; on a loaded machine
 * `chrt -f 1 bench_color` (root) keeps other processes off the cores while it times (each
 * timing starts after 100 ms asleep, so the real-time throttle never cuts into one). */
#define _GNU_SOURCE /* getloadavg, sched_getaffinity */
#include "lcp.h"
#include "kit.h"            /* bench_provenance: the machine's lines */
#include "lcp_internal.h"   /* the thread pool, timed on its own */
#include "testprob.h"
#include "benchclock.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS 200
static const char *CS = "pgs-color";   /* the coloured solver timed (--solver) */
static int main_argc;                   /* the command, for the CSV's provenance lines */
static char **main_argv;
#define MAX_T 256
static int loaded;     /* --loaded: the target of a loaded machine (2 threads >= 0.95x 1) */
static int doubling;   /* --doubling: the curve at 1, 2, 4, ... and N threads only */

static int next_T(int T, int N)
{
    return !doubling ? T + 1 : 2 * T < N || T == N ? 2 * T : N;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 100 ms asleep before each timing: run under a real-time policy (chrt,
 * results/performance.md), the timed code then stays below the kernel's real-time share (95% of
 * each second by default) and is never throttled in the middle of a timing */
static long pause_ns = 100000000L;   /* the curve: 10 ms (a run on a machine of its own) */

static void pause_briefly(void)
{
    struct timespec ts = {0, pause_ns};
    nanosleep(&ts, NULL);
}

static double cpu_spent;   /* process CPU seconds of the last solve_time */

/* 1: the threads' own speed (options.threads_fixed, the curve); 0: the library's default,
 * a sweep on the caller alone when the other threads made the sweeps slower */
static int fixed_threads;

static lcp_options sweeps_options(int threads, int sweeps, const void *prepared)
{
    lcp_options o;
    lcp_options_default(&o);
    o.threads_fixed = fixed_threads;
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

/* the distribution-free 95% confidence interval of the median of x[0..n-1] (sorted): the
 * order statistics x_(k) and x_(n-k+1) with k the largest for which P(Bin(n, 1/2) < k) <=
 * 0.025 (W. J. Conover, "Practical Nonparametric Statistics", 3rd ed., 1999, section 3.2);
 * with fewer than 6 values no such k exists and the interval is the range */
static void median_ci(const double *x, int n, double *lo, double *hi)
{
    double p = ldexp(1.0, -n), cum = 0.0;   /* P(Bin(n, 1/2) = j), j from 0 */
    int k = 0;
    for (int j = 0; j < n; j++) {
        cum += p;
        if (cum > 0.025) break;
        k = j + 1;                           /* P(Bin < k) = cum <= 0.025 */
        p *= (double)(n - j) / (double)(j + 1);
    }
    if (k < 1) k = 1;
    *lo = n > 0 ? x[k - 1] : 0.0;
    *hi = n > 0 ? x[n - k] : 0.0;
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

/* ---- the thread curve (--curve) ------------------------------------------------------ */

/* wall and process CPU time at two sweeps of one solve (options.monitor): the sweeps
 * between them, without the solve's start (pool, u's reset, jacobi's J^T) and its final
 * residual */
typedef struct sweep_mon {
    int k1, k2;
    double t1, t2, c1, c2;
} sweep_mon;

static void sweep_monitor(void *ctx, int k, const double *z)
{
    (void)z;
    sweep_mon *m = ctx;
    if (k == m->k1) m->t1 = now(), m->c1 = cpu();
    if (k == m->k2) m->t2 = now(), m->c2 = cpu();
}

/* seconds per sweep of S sweeps (sweeps 2 .. S + 1 of a solve of S + 1 from z = 0), on T
 * threads, given the solver's set-up; *cpu_per: process CPU seconds per sweep; *res: the
 * residual after the S + 1 sweeps (the same for every T: the iterates are) */
static double monitored_sweeps(const lcp_problem *P, const char *solver, int T, int S,
                               const void *prep, double *z, double *cpu_per, double *res)
{
    sweep_mon m = {1, S + 1, 0, 0, 0, 0};
    lcp_options o = sweeps_options(T, S + 1, prep);
    o.monitor = sweep_monitor;
    o.monitor_ctx = &m;
    lcp_info info;
    pause_briefly();
    lcp_status st = lcp_solve(lcp_solver_find(solver), P, &o, z, &info);
    if (st != LCP_OK && st != LCP_MAXITER) {
        fprintf(stderr, "bench_color: %s on %d threads: %s\n", solver, T, lcp_status_str(st));
        exit(2);
    }
    *cpu_per = (m.c2 - m.c1) / S;
    *res = info.residual;
    return (m.t2 - m.t1) / S;
}

/* the sweeps `solver' needs (on T threads) to reach the residual tol, at most cap (-1 when
 * it does not), and *res, its residual after k sweeps; jacobi with omega auto (omega 1
 * diverges on the synthetic problem; a sweep's work does not depend on omega) */
static int sweeps_to(const lcp_problem *P, const char *solver, int T, double tol, int cap,
                     int k, double *z, double *res)
{
    lcp_options o = sweeps_options(T, k, NULL);
    o.omega_auto = !strcmp(solver, "jacobi");
    lcp_info info;
    lcp_solve(lcp_solver_find(solver), P, &o, z, &info);
    *res = info.residual;
    o.tol = tol;
    o.max_iter = cap;
    lcp_status st = lcp_solve(lcp_solver_find(solver), P, &o, z, &info);
    return st == LCP_OK ? info.iterations : -1;
}

/* the machine, as comment lines (`# key: value'; gnuplot and pandas' comment='#' skip them) */
static void machine_lines(FILE *f, const char *when)
{
    double l[3] = {-1, -1, -1};
    if (getloadavg(l, 3) != 3) l[0] = l[1] = l[2] = -1;
    if (!strcmp(when, "start")) {
        int mine = (int)sysconf(_SC_NPROCESSORS_ONLN);
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0) mine = CPU_COUNT(&set);
        bench_provenance(f, main_argc, main_argv);      /* version, compiler, cpu, date */
        fprintf(f, "# cores this process may use: %d\n# threads=auto would take: %d\n", mine,
                lcp_threads_free());
    }
    fprintf(f, "# load average at the %s: %.2f %.2f %.2f\n", when, l[0], l[1], l[2]);
}

static const char *const CURVE_SOLVERS[] = {"pgs-color", "pgs-color-contact", "jacobi"};
enum { NCS = 3 };

/* The curve at m rows: per round, each solver on 1, 2, ..., N threads (one solve each,
 * S sweeps timed by the monitor), the speed-up of T threads over that round's 1 thread;
 * the no-sharing kernel and the triad on 1..N threads; then median and range over the
 * rounds.  Before the rounds, what each colouring costs in sweeps: its residual after
 * S + 1 sweeps against pgs's (natural order), and the sweeps it needs to reach pgs's. */
static void curve_rows(const lcp_problem *P, int N, int R, int S, FILE *csv)
{
    int m = P->m;
    double *z = calloc((size_t)m + 1, sizeof(double));
    if (!z) exit(1);
    void *prep[NCS] = {NULL, NULL, NULL};
    int colors[NCS] = {0, 0, 0};
    for (int v = 0; v < NCS; v++) {                     /* the colourings, made once */
        const lcp_solver *sv = lcp_solver_find(CURVE_SOLVERS[v]);
        lcp_options o = sweeps_options(1, 1, NULL);
        if (sv->setup && lcp_prepare(sv, P, &o, &prep[v]) != LCP_OK) {
            fprintf(stderr, "bench_color: %s: set-up failed\n", CURVE_SOLVERS[v]);
            exit(2);
        }
        lcp_info info;
        o.prepared = prep[v];
        lcp_solve(sv, P, &o, z, &info);
        colors[v] = info.colors;
    }
    /* the sweep cost: pgs's residual after S + 1 sweeps, each solver's, and the sweeps each
     * needs to reach pgs's (on N threads: the iterates do not depend on it) */
    double cpu_unused, rp, rs[NCS], tres[NCS];
    monitored_sweeps(P, "pgs", 1, S, NULL, z, &cpu_unused, &rp);
    int need[NCS];
    for (int v = 0; v < NCS; v++)
        need[v] = sweeps_to(P, CURVE_SOLVERS[v], N, rp, 4 * (S + 1), S + 1, z, &rs[v]);
    printf("\n%d rows, %d sweeps a timing; residual after %d sweeps: pgs %.3e (res/pgs: each "
           "solver's against it, jacobi with omega auto; to pgs: the sweeps each needs to reach "
           "it, cap %d)\n", m, S, S + 1, rp, 4 * (S + 1));
    int nk = N + 1;
    double *sp = calloc((size_t)(NCS + 2) * (size_t)nk * (size_t)R, sizeof(double));
    double *tm = calloc((size_t)(NCS + 2) * (size_t)nk * (size_t)R, sizeof(double));
    double *cr = calloc((size_t)(NCS + 2) * (size_t)nk * (size_t)R, sizeof(double));
    if (!sp || !tm || !cr) exit(1);
#define AT3(a, v, T, r) a[((size_t)(v) * (size_t)nk + (size_t)(T)) * (size_t)R + (size_t)(r)]
    int differs = 0;
    for (int r = 0; r < R; r++) {
        for (int v = 0; v < NCS; v++) {
            double t1 = 0, c1 = 0;
            for (int T = 1; T <= N; T = next_T(T, N)) {
                double c, res;
                double t = monitored_sweeps(P, CURVE_SOLVERS[v], T, S, prep[v], z, &c, &res);
                if (T == 1) t1 = t, c1 = c, tres[v] = res;
                else if (memcmp(&res, &tres[v], sizeof res)) differs = 1;
                AT3(tm, v, T, r) = t;
                AT3(sp, v, T, r) = t1 / t;
                AT3(cr, v, T, r) = c / c1;
            }
        }
        double k1 = kernel_time(chains, 1), b1 = kernel_time(triad, 1);
        for (int T = 1; T <= N; T = next_T(T, N)) {
            double kT = T == 1 ? k1 : kernel_time(chains, T), bT = T == 1 ? b1 : kernel_time(triad, T);
            AT3(tm, NCS, T, r) = kT;
            AT3(sp, NCS, T, r) = k1 / kT;
            AT3(tm, NCS + 1, T, r) = bT;
            AT3(sp, NCS + 1, T, r) = b1 / bT;
            AT3(cr, NCS, T, r) = AT3(cr, NCS + 1, T, r) = NAN;
        }
        fprintf(stderr, "bench_color: %d rows, round %d of %d\n", m, r + 1, R);
    }
    if (differs)
        printf("WARNING: a residual after %d sweeps differs between thread counts\n", S + 1);
    printf("%-18s %7s %7s %10s %21s %17s %7s %9s %7s\n", "solver", "threads", "colours",
           "ms/sweep", "speed-up (range)", "CPU T / CPU 1", "sweeps", "res/pgs", "to pgs");
    for (int v = 0; v < NCS + 2; v++)
        for (int T = 1; T <= N; T = next_T(T, N)) {
            spread a = spread_of(&AT3(tm, v, T, 0), R), b = spread_of(&AT3(sp, v, T, 0), R);
            int solver = v < NCS;
            spread c = solver ? spread_of(&AT3(cr, v, T, 0), R) : (spread){NAN, NAN, NAN, 0};
            const char *name = solver ? CURVE_SOLVERS[v] : v == NCS ? "kernel-chains" : "triad";
            char to[32] = "";
            if (solver) snprintf(to, sizeof to, "%d", need[v]);
            printf("%-18s %7d %7d %10.3f %5.2f (%5.2f-%5.2f) %5.2f (%4.2f-%4.2f) %7d %9.3g "
                   "%7s\n", name, T, solver ? colors[v] : 0, 1e3 * a.med, b.med, b.lo, b.hi,
                   c.med, c.lo, c.hi, solver ? S : 0, solver ? rs[v] / rp : NAN,
                   solver ? (need[v] < 0 ? "cap" : to) : "");
            char tail[128] = ",,,,,,,";       /* the kernels: no sweeps, no residuals */
            if (solver)
                snprintf(tail, sizeof tail, "%.4f,%.4f,%.4f,%d,%.6e,%.6e,%d,%s", c.med, c.lo,
                         c.hi, colors[v], rs[v], rp, S + 1, need[v] < 0 ? "" : to);
            if (csv)
                fprintf(csv, "%s,%d,%d,%d,%d,%.6e,%.6e,%.6e,%.4f,%.4f,%.4f,%s\n", name,
                        solver ? m : 0, T, R, solver ? S : 0, a.med, a.lo, a.hi, b.med, b.lo,
                        b.hi, tail);
        }
#undef AT3
    if (csv) fflush(csv);
    fflush(stdout);
    for (int v = 0; v < NCS; v++)
        if (prep[v]) lcp_unprepare(lcp_solver_find(CURVE_SOLVERS[v]), prep[v]);
    free(sp);
    free(tm);
    free(cr);
    free(z);
}

/* the synthetic 3D contact problem with about `rows' rows: contacts of 3 rows (friction),
 * two bodies each drawn at random, 2 bodies for every 3 contacts (10^5 rows: 33334
 * contacts, 22222 bodies); A is dropped once made (the matrix-free solvers never read it,
 * and at 10^6 rows it would take 0.4 GB) */
static int synthetic(lcp_problem *P, int rows)
{
    int nc = (rows + 2) / 3, nb = (int)((2L * nc) / 3);
    if (nb < 2) nb = 2;
    if (tp_contact(P, 6, nb, nc, 2, 0.5, 1e-3, 1) != 0) return -1;
    lcp_csr_free(&P->A);
    return 0;
}

/* sweeps a timing at m rows: about 1.6e7 rows a timing, 10 to 160 sweeps */
static int curve_sweeps(int m)
{
    long s = m > 0 ? (16000000L + m / 2) / m : 160;   /* rounded: 16 at 1000002 rows */
    return s < 10 ? 10 : s > 160 ? 160 : (int)s;
}

static void curve(const lcp_problem *timed, const int *rows, int nrows, int N, int R,
                  const char *csvpath)
{
    FILE *csv = NULL;
    if (csvpath && !(csv = fopen(csvpath, "w"))) {
        fprintf(stderr, "bench_color: --csv %s: cannot write\n", csvpath);
        exit(2);
    }
    const char *stepper = "# stepper: collision detection and assembly are single-threaded "
                          "(problems/collide.c, problems/step.c): no thread curve for them\n";
    if (csv) {
        fprintf(csv, "# bench_color --curve: the parallel solvers on 1..%d threads, %d "
                     "rounds (tests/README.md)\n", N, R);
        machine_lines(csv, "start");
        fputs(stepper, csv);
        fprintf(csv, "solver,rows,threads,rounds,sweeps,s_per_sweep_med,s_per_sweep_lo,"
                     "s_per_sweep_hi,speedup_med,speedup_lo,speedup_hi,cpu_ratio_med,"
                     "cpu_ratio_lo,cpu_ratio_hi,colors,residual,pgs_residual,pgs_sweeps,"
                     "sweeps_to_pgs_residual\n");
    }
    machine_lines(stdout, "start");
    fputs(stepper, stdout);
    ta = calloc(TRIAD_N, sizeof(double));              /* the triad's 3 x 160 MB */
    tb = calloc(TRIAD_N, sizeof(double));
    tc = calloc(TRIAD_N, sizeof(double));
    if (!ta || !tb || !tc) exit(1);
    for (long i = 0; i < TRIAD_N; i++) tb[i] = 1.0, tc[i] = 2.0;
    if (timed) curve_rows(timed, N, R, curve_sweeps(timed->m), csv);
    for (int k = 0; !timed && k < nrows; k++) {
        lcp_problem P;
        if (synthetic(&P, rows[k]) != 0) {
            fprintf(stderr, "bench_color: --rows %d: cannot make the problem\n", rows[k]);
            exit(1);
        }
        curve_rows(&P, N, R, curve_sweeps(P.m), csv);
        lcp_problem_free(&P);
    }
    machine_lines(stdout, "end");
    free(ta);
    free(tb);
    free(tc);
    if (csv) {
        machine_lines(csv, "end");
        if (fclose(csv) != 0) {
            fprintf(stderr, "bench_color: --csv %s: write failed\n", csvpath);
            exit(2);
        }
    }
}

int main(int argc, char **argv)
{
    int R = 15, N = 0, nf = 0, nrows = 0, rows[8], rounds_given = 0;
    main_argc = argc;
    main_argv = argv;
    const char *timed = NULL, *csvpath = NULL;
    char **folders = calloc((size_t)argc + 1, sizeof(char *));
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--rounds") && a + 1 < argc) {
            R = atoi(argv[++a]);
            rounds_given = 1;
        } else if (!strcmp(argv[a], "--csv") && a + 1 < argc) {
            csvpath = argv[++a];
        } else if (!strcmp(argv[a], "--rows") && a + 1 < argc) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", argv[++a]);
            for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
                char *end;
                double v = strtod(t, &end);            /* 1e5 or 100000 */
                if (end == t || *end || !(v >= 30 && v <= 3e7) || nrows == 8) {
                    fprintf(stderr, "bench_color: --rows: '%s' is not a row count in "
                                    "[30, 3e7] (at most 8)\n", t);
                    return 2;
                }
                rows[nrows++] = (int)v;
            }
        } else if (!strcmp(argv[a], "--solver") && a + 1 < argc) {
            CS = argv[++a];
            if (!lcp_solver_find(CS) || strncmp(CS, "pgs-color", 9)) {
                fprintf(stderr, "bench_color: --solver: pgs-color or pgs-color-contact\n");
                return 2;
            }
        } else if (!strcmp(argv[a], "--time") && a + 1 < argc) {
            timed = argv[++a];
        } else if (!strcmp(argv[a], "--loaded")) {
            loaded = 1;
        } else if (!strcmp(argv[a], "--doubling")) {
            doubling = 1;
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
    if ((nrows || csvpath) && N == 0) {
        fprintf(stderr, "bench_color: --rows and --csv go with --curve\n");
        return 2;
    }
    if (N > 0) fixed_threads = 1, pause_ns = 10000000L;   /* the curve: what T threads do */
    if (N > 0 && !timed) {               /* the curve: its own problems, 5 rounds */
        if (!rounds_given) R = 5;
        if (nrows == 0) rows[nrows++] = 100000;
        instance_table(nf, folders);
        free(folders);
        curve(NULL, rows, nrows, N, R, csvpath);
        return 0;
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
        if (!rounds_given) R = 5;
        curve(&P, NULL, 0, N, R, csvpath);
        loadavg("at the end");
        free(z);
        lcp_problem_free(&P);
        return 0;
    }
    {   /* the colouring's sweep cost beside pgs's, on the problem timed */
        double cu, rp, rcs, rj;
        monitored_sweeps(&P, "pgs", 1, SLOPE, NULL, z, &cu, &rp);
        int need = sweeps_to(&P, CS, 2, rp, 4 * (SLOPE + 1), SLOPE + 1, z, &rcs);
        int needj = sweeps_to(&P, "jacobi", 2, rp, 4 * (SLOPE + 1), SLOPE + 1, z, &rj);
        char a[32] = "more than the cap", b[32] = "more than the cap";
        if (need >= 0) snprintf(a, sizeof a, "%d", need);
        if (needj >= 0) snprintf(b, sizeof b, "%d", needj);
        printf("sweep cost beside pgs (natural order): residual after %d sweeps pgs %.3e, %s "
               "%.3e (%.2fx), jacobi (omega auto) %.3e (%.3gx); sweeps to reach pgs's: %s %s, "
               "jacobi %s (cap %d)\n", SLOPE + 1, rp, CS, rcs, rcs / rp, rj, rj / rp, CS, a,
               b, 4 * (SLOPE + 1));
    }
    static double tp[MAX_ROUNDS], tc1[MAX_ROUNDS], tc2[MAX_ROUNDS], tj1[MAX_ROUNDS],
        tj2[MAX_ROUNDS], sc[MAX_ROUNDS], sj[MAX_ROUNDS], cp[MAX_ROUNDS], cc[MAX_ROUNDS],
        kc[MAX_ROUNDS], kt[MAX_ROUNDS], bw1[MAX_ROUNDS], bw2[MAX_ROUNDS], eff[MAX_ROUNDS],
        qs[MAX_ROUNDS], qc[MAX_ROUNDS], qk[MAX_ROUNDS], c1p[MAX_ROUNDS], kp[MAX_ROUNDS],
        pu[MAX_ROUNDS], sf[MAX_ROUNDS], tj2f[MAX_ROUNDS], sjf[MAX_ROUNDS], ab[MAX_ROUNDS],
        abj[MAX_ROUNDS];
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
        fixed_threads = 1;                     /* the two threads' own speed, beside */
        double c2f, t2f = sweep_time(&P, CS, 2, z, &c2f);
        tj2f[r] = sweep_time(&P, "jacobi", 2, z, &c2f);
        fixed_threads = 0;
        sf[r] = tc1[r] / t2f;
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
        if (loaded) {   /* the pairs counterbalanced (1, 2, 2, 1 threads): a load that drifts
                           during the round moves both sides alike */
            double t2b = sweep_time(&P, CS, 2, z, &c2f), t1b = sweep_time(&P, CS, 1, z, &c2f);
            ab[r] = (tc1[r] + t1b) / (tc2[r] + t2b);
            double u2b = sweep_time(&P, "jacobi", 2, z, &c2f);
            double u1b = sweep_time(&P, "jacobi", 1, z, &c2f);
            abj[r] = (tj1[r] + u1b) / (tj2[r] + u2b);
        }
        cc[r] = c2 / c1;
        sc[r] = tc1[r] / tc2[r];
        sj[r] = tj1[r] / tj2[r];
        sjf[r] = tj1[r] / tj2f[r];
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
    spread Sf = spread_of(sf, R), Sjf = spread_of(sjf, R);
    printf("median ms per sweep: pgs %.2f, %s 1 thread %.2f, 2 threads %.2f; "
           "jacobi 1 thread %.2f, 2 threads %.2f\n", 1e3 * Tp.med, CS, 1e3 * T1.med, 1e3 * T2.med,
           1e3 * J1.med, 1e3 * J2.med);
    printf("%s speed-up, 2 threads / 1: median %.2f (range %.2f-%.2f) of %d paired "
           "(target >= 1.7)\n", CS, Sc.med, Sc.lo, Sc.hi, R);
    printf("%s speed-up, 2 threads always both (threads_fixed: the threads' own speed) / 1: "
           "median %.2f (range %.2f-%.2f)\n", CS, Sf.med, Sf.lo, Sf.hi);
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
    printf("jacobi speed-up, 2 threads / 1: median %.2f (range %.2f-%.2f); always both "
           "threads: %.2f (%.2f-%.2f)\n", Sj.med, Sj.lo, Sj.hi, Sjf.med, Sjf.lo, Sjf.hi);
    printf("thread pool, 2 threads: %.2f us a run (median; %.2f-%.2f), 2000 empty runs back "
           "to back\n", Pu.med, Pu.lo, Pu.hi);
    printf("triad: 1 thread %.1f GB/s, 2 threads %.1f GB/s (medians; 2/1 median %.2f, "
           "range %.2f-%.2f)\n", B1.med, B2.med, Kt.med, Kt.lo, Kt.hi);
    /* the loaded machine's target: the lower end of the median's 95% interval (Sc and Sj are
     * sorted by spread_of) */
    double sclo, schi, sjlo, sjhi;
    median_ci(sc, R, &sclo, &schi);
    median_ci(sj, R, &sjlo, &sjhi);
    printf("95%% confidence interval of the median speed-up, 2 threads / 1 (order statistics, "
           "%d rounds): %s %.2f-%.2f, jacobi %.2f-%.2f\n", R, CS, sclo, schi, sjlo, sjhi);
    double ablo = 0.0, abhi = 0.0, ajlo = 0.0, ajhi = 0.0;   /* the counterbalanced pairs' */
    if (loaded) {   /* the verdict is on these */
        spread Ab = spread_of(ab, R), Abj = spread_of(abj, R);
        median_ci(ab, R, &ablo, &abhi);
        median_ci(abj, R, &ajlo, &ajhi);
        printf("counterbalanced (1, 2, 2, 1 threads a round) speed-up, 2 threads / 1: %s "
               "median %.2f (range %.2f-%.2f), 95%% interval %.2f-%.2f; jacobi %.2f "
               "(%.2f-%.2f), interval %.2f-%.2f (target on a loaded machine: the lower ends "
               ">= 0.95)\n", CS, Ab.med, Ab.lo, Ab.hi, ablo, abhi, Abj.med, Abj.lo, Abj.hi,
               ajlo, ajhi);
    }
    loadavg("at the end");
    free(ta);
    free(tb);
    free(tc);
    free(z);
    lcp_problem_free(&P);
    if (loaded) {
        int shown = ablo >= 0.95 && ajlo >= 0.95;
        printf("loaded-machine target (2 threads never below 0.95x 1 thread): %s\n",
               shown ? "shown (both lower ends >= 0.95)" : "not shown");
        return !shown;
    }
    return (3 * nq >= R ? Qs.med : Sc.med) < 1.7;
}
