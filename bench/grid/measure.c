/* measure.c: one measured run of one solver on one instance (bench/README.md, "Timing").
 *
 * 1. Recording run: the monitor computes the harness's own residual ||r||_2, ||r||_inf
 *    (lcp_residual_ws, the same numbers as lcp_residual, its workspace allocated once for
 *    the run) after every sweep.  It gives the history and the iteration count K.
 * 2. Timing runs: the same options with no monitor, no residual tests (tol < 0) and exactly
 *    K sweeps (direct solvers are rerun as they are).  One warm-up solve (three when it
 *    is under 1 ms: the least counts), then `reps'
 *    samples on CLOCK_MONOTONIC, each of b back-to-back solves and giving (sample time) / b
 *    seconds per solve; b starts at 1 and grows (the samples start again) whenever a
 *    sample lasted less than 1 ms.  Median, min and max reported.  A solver with a setup
 *    (lcp_prepare: work done once per problem) is prepared once, timed apart (t_setup).
 * 3. The history's time of sweep k is k * t_median / K: the timing runs' seconds per sweep,
 *    so the last point of a residual-against-time curve is the table's time_s, and the time
 *    the recording spends computing residuals never enters a figure.  No timing runs (reps
 *    = 0): no times.  Direct solvers have no sweeps: their history is one point (their
 *    iterations, final residual, t_median).
 * With a time limit (bench_run_limited) the run happens in a forked child that sends its
 * result through a pipe; past the limit the child is killed and the run is `timeout'.
 * The final residuals come from lcp_residual on the recording run's z, never from info.
 * Cost: the recording run (a residual per sweep), then (reps + 1) b solves plus the batch
 * calibration.
 */
#include "grid.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct recorder {
    const lcp_problem *P;
    double *w;
    double *work;                /* lcp_residual_ws's, held for the whole recording run */
    size_t nwork;
    bench_history *h;
    int failed;
} recorder;

static int history_push(bench_history *h, int it, double r2, double rinf, double t)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 256;
        int *iter = lcp_realloc(h->iter, (size_t)cap, sizeof(int));
        if (iter) h->iter = iter;
        double *a = lcp_realloc(h->r2, (size_t)cap, sizeof(double));
        if (a) h->r2 = a;
        double *b = lcp_realloc(h->rinf, (size_t)cap, sizeof(double));
        if (b) h->rinf = b;
        double *c = lcp_realloc(h->t, (size_t)cap, sizeof(double));
        if (c) h->t = c;
        if (!iter || !a || !b || !c) return -1;
        h->cap = cap;
    }
    h->iter[h->n] = it;
    h->r2[h->n] = r2;
    h->rinf[h->n] = rinf;
    h->t[h->n] = t;
    h->n++;
    return 0;
}

static void record(void *ctx, int iteration, const double *z)
{
    recorder *r = ctx;
    lcp_residuals R;
    lcp_residual_ws(r->P, z, r->w, r->work, r->nwork, &R);
    if (history_push(r->h, iteration, R.r2, R.rinf, NAN) != 0) r->failed = 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void start_from(const lcp_problem *P, const double *z_start, double *z)
{
    if (z_start) memcpy(z, z_start, (size_t)P->m * sizeof(double));
    else memset(z, 0, (size_t)P->m * sizeof(double));
}

/* seconds per solve of `batch' back-to-back solves */
static double sample(const lcp_problem *P, const lcp_solver *s, const lcp_options *o,
                     const double *z_start, double *zt, long batch)
{
    lcp_info info;
    double t0 = bench_now();
    for (long b = 0; b < batch; b++) {
        start_from(P, z_start, zt);
        lcp_solve(s, P, o, zt, &info);
    }
    return (bench_now() - t0) / (double)batch;
}

enum { MAX_BATCH = 1 << 24 };

/* the timing runs: r->t_median, t_min, t_max, batch; -1 out of memory */
static int timing(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                  const double *z_start, int reps, bench_result *r)
{
    double *zt = lcp_malloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
    double *t = lcp_malloc((size_t)reps, sizeof(double));
    if (!zt || !t) {
        lcp_free(zt);
        lcp_free(t);
        return -1;
    }
    lcp_options ot = *opt;
    ot.monitor = NULL;
    ot.monitor_ctx = NULL;
    ot.history = NULL;                                       /* the recording run's only */
    void *prep = NULL;                                       /* the solver's setup, timed */
    double t0 = bench_now();                                 /* apart from the solves */
    if (lcp_prepare(s, P, &ot, &prep) != LCP_OK) prep = NULL;
    r->t_setup = bench_now() - t0;
    ot.prepared = prep;
    if (!(s->needs & LCP_DIRECT)) {
        ot.tol = -1.0;                                       /* no residual tests */
        ot.max_iter = r->iterations;
    }
    long batch = 1;
    double tw = INFINITY;
    for (int k = 0; k < 3 && (k == 0 || tw < 1e-3); k++)    /* warm-up (a short one: */
        tw = fmin(tw, sample(P, s, &ot, z_start, zt, 1));   /* the least of 3) */
    for (int k = 0; k < reps;) {
        if (tw * (double)batch < 1e-3 && batch < MAX_BATCH) { /* a sample lasts >= 1 ms */
            double want = tw > 0 ? ceil(1.2e-3 / tw) : 2.0 * (double)batch;
            batch = want > 2.0 * (double)batch ? (long)fmin(want, MAX_BATCH) : 2 * batch;
            k = 0;                                           /* a new batch: samples anew */
        }
        t[k] = tw = sample(P, s, &ot, z_start, zt, batch);
        if (!(tw * (double)batch < 1e-3) || batch >= MAX_BATCH) k++;
    }
    qsort(t, (size_t)reps, sizeof(double), cmp_double);
    r->t_min = t[0];
    r->t_max = t[reps - 1];
    r->t_median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    r->batch = batch;
    lcp_unprepare(s, prep);
    lcp_free(zt);
    lcp_free(t);
    return 0;
}

lcp_status bench_run_solver(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                            const double *z_start, int reps, double *z, bench_result *r,
                            bench_history *h)
{
    memset(r, 0, sizeof *r);
    r->zdiff = r->wdiff = NAN;
    r->t_median = r->t_min = r->t_max = r->t_setup = NAN;
    lcp_options o = *opt;
    bench_history local = {0};
    recorder rec = {.P = P, .h = h ? h : &local};
    rec.w = lcp_malloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
    rec.nwork = lcp_residual_work(P);     /* the monitor's and the final residual's: none
                                             allocated a sweep, none whose failure goes unseen */
    rec.work = rec.nwork ? lcp_malloc(rec.nwork, sizeof(double)) : NULL;
    if (!rec.w || (rec.nwork && !rec.work)) {
        lcp_free(rec.w);
        lcp_free(rec.work);
        return r->status = LCP_ERR_NOMEM;
    }
    if (h) {
        o.monitor = record;
        o.monitor_ctx = &rec;
    }
    start_from(P, z_start, z);
    r->status = lcp_solve(s, P, &o, z, &r->info);
    r->iterations = r->info.iterations;
    if (r->status >= 0) {
        lcp_residual_ws(P, z, rec.w, rec.work, rec.nwork, &r->res); /* the harness's own */
        if (P->zref) lcp_ref_distance(P, z, &r->zdiff, &r->wdiff);
    }
    if (r->status >= 0 && reps > 0 && timing(P, s, opt, z_start, reps, r) != 0)
        r->status = LCP_ERR_NOMEM;
    if (h && r->status >= 0 && (s->needs & LCP_DIRECT) && h->n == 0 &&
        history_push(h, r->iterations, r->res.r2, r->res.rinf, NAN) != 0)
        rec.failed = 1;                                      /* a direct solver: one point */
    for (int k = 0; h && k < h->n; k++)                      /* sweep k at k t / K */
        h->t[k] = (s->needs & LCP_DIRECT) || r->iterations == 0
                      ? r->t_median
                      : r->t_median * h->iter[k] / r->iterations;
    if (rec.failed) r->status = LCP_ERR_NOMEM;
    bench_history_free(&local);
    lcp_free(rec.w);
    lcp_free(rec.work);
    return r->status;
}

/* ---- the same in a child process, with a time limit ------------------------------------- */

static int put(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* read n bytes before the deadline; 0, -1 (closed or error) or 1 (deadline) */
static int get(int fd, void *p, size_t n, double deadline)
{
    char *c = p;
    while (n > 0) {
        double left = deadline - bench_now();
        if (left <= 0) return 1;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int pr = poll(&pf, 1, (int)ceil(fmin(left, 3600.0) * 1000.0));
        if (pr < 0 && errno == EINTR) continue;
        if (pr < 0) return -1;
        if (pr == 0) continue;
        ssize_t g = read(fd, c, n);
        if (g < 0 && errno == EINTR) continue;
        if (g <= 0) return -1;
        c += g;
        n -= (size_t)g;
    }
    return 0;
}

static void child(int fd, const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                  const double *z_start, int reps, double *z, bench_history *h)
{
    bench_result r;
    bench_history local = {0};
    bench_run_solver(P, s, opt, z_start, reps, z, &r, h ? &local : NULL);
    int ok = put(fd, &r, sizeof r) == 0 && put(fd, &local.n, sizeof local.n) == 0 &&
             put(fd, local.iter, (size_t)local.n * sizeof(int)) == 0 &&
             put(fd, local.r2, (size_t)local.n * sizeof(double)) == 0 &&
             put(fd, local.rinf, (size_t)local.n * sizeof(double)) == 0 &&
             put(fd, local.t, (size_t)local.n * sizeof(double)) == 0 &&
             put(fd, z, (size_t)P->m * sizeof(double)) == 0;
    _exit(ok ? 0 : 1);
}

/* the parent's side: 0 done, 1 timed out, -1 the child failed */
static int parent(int fd, const lcp_problem *P, double *z, bench_result *r, bench_history *h,
                  double deadline)
{
    int n = 0, g = get(fd, r, sizeof *r, deadline);
    if (g == 0) g = get(fd, &n, sizeof n, deadline);
    if (g == 0 && (n < 0 || n > 1000000000)) g = -1;
    bench_history local = {0};
    if (g == 0 && n > 0) {
        local.iter = lcp_malloc((size_t)n, sizeof(int));
        local.r2 = lcp_malloc((size_t)n, sizeof(double));
        local.rinf = lcp_malloc((size_t)n, sizeof(double));
        local.t = lcp_malloc((size_t)n, sizeof(double));
        local.n = local.cap = n;
        if (!local.iter || !local.r2 || !local.rinf || !local.t) g = -1;
    }
    if (g == 0 && n > 0) g = get(fd, local.iter, (size_t)n * sizeof(int), deadline);
    if (g == 0 && n > 0) g = get(fd, local.r2, (size_t)n * sizeof(double), deadline);
    if (g == 0 && n > 0) g = get(fd, local.rinf, (size_t)n * sizeof(double), deadline);
    if (g == 0 && n > 0) g = get(fd, local.t, (size_t)n * sizeof(double), deadline);
    if (g == 0) g = get(fd, z, (size_t)P->m * sizeof(double), deadline);
    if (g == 0 && h) {
        bench_history_free(h);
        *h = local;
    } else {
        bench_history_free(&local);
    }
    return g;
}

lcp_status bench_run_limited(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                             const double *z_start, int reps, double timeout, double *z,
                             bench_result *r, bench_history *h)
{
    if (!(timeout > 0)) return bench_run_solver(P, s, opt, z_start, reps, z, r, h);
    memset(r, 0, sizeof *r);
    lcp_info_init(&r->info);
    r->res.r2 = r->res.rinf = r->res.rel = r->zdiff = r->wdiff = NAN;
    r->t_median = r->t_min = r->t_max = r->t_setup = NAN;
    double deadline = bench_now() + timeout;
    int fd[2];
    if (pipe(fd) != 0) return r->status = LCP_ERR_NOMEM;
    fflush(NULL);                               /* the child writes nothing through stdio */
    pid_t harness = getpid(), pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return r->status = LCP_ERR_NOMEM;
    }
    if (pid == 0) {
        close(fd[0]);
        /* dies with the harness, even when the harness is killed outright (SIGKILL), so a
         * limited solve never outlives the run that started it */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != harness) _exit(1); /* the harness died before prctl */
        child(fd[1], P, s, opt, z_start, reps, z, h);
    }
    close(fd[1]);
    bench_cleanup_child(pid);
    int g = parent(fd[0], P, z, r, h, deadline);
    close(fd[0]);
    if (g != 0) kill(pid, SIGKILL);
    int wst;
    while (waitpid(pid, &wst, 0) < 0 && errno == EINTR) {
    }
    bench_cleanup_child(0);
    if (g == 1) {
        r->timed_out = 1;
        r->status = LCP_ERR_ARG;                /* no answer; the row says `timeout' */
    } else if (g != 0) {
        r->crashed = 1;                         /* killed by a signal, or no full result */
        r->status = LCP_ERR_NOMEM;
    }
    return r->status;
}
