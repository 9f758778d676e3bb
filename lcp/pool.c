/* pool.c: the thread pool of the parallel sweeps (both pgs-colors, jacobi), POSIX threads.
 *
 * Started once per solve with T threads: the caller is thread 0, T - 1 workers wait
 * between runs.  lcp_pool_run(fn, arg) runs fn(arg, t) on every thread t and returns when
 * all are done.  A run is announced by a generation counter and its end by a counter of
 * workers still running (C11 atomics); a thread that waits first spins on the counter for
 * up to SPIN_S and only then sleeps on a condition variable (mutex-protected, so no
 * wake-up is lost).  The spin is there because a sweep is short: waking a sleeping thread
 * took 30-60 us a run on a virtual machine here (a futex wake and an interrupt to an idle
 * virtual core), 2-3% of a 2-ms sweep of 10^5 rows and more than a whole sweep of a
 * stepper's problem; spinning hands a run over in well under a microsecond, and a solve's
 * sweeps follow each other closely enough that the workers are still spinning.  With more
 * threads than the cores the process may use (its affinity mask) nobody spins: a spinning
 * thread would hold the core of the thread it waits for (4 threads on 2 cores took twice
 * as long with the spin).  OpenMP runtimes do the same (a spin before blocking, the
 * OMP_WAIT_POLICY / blocktime setting, shortened when oversubscribed).
 * Inside a run, the waits between threads (lcp_pool_barrier, a sense-reversing counter
 * barrier, and lcp_pool_await, a wait for a counter that lcp_pool_add moves; C11 atomics,
 * sequentially consistent: what a thread wrote before it arrived or added is seen by every
 * thread after its wait) spin for up to WAIT_SPIN_S and then sleep on a condition
 * variable until the arrival or addition they wait for wakes them.  On a machine shared
 * with other work the thread waited for may have lost its core: a waiter that kept
 * spinning (or only yielded, as before: sched_yield gives the core to no one of equal
 * priority under Linux's fair scheduler) held a core the late thread could have run on,
 * and 2 threads ran at 0.68 to 0.80 of one thread's speed at 36 colour waits a sweep.
 * A waiter that sleeps costs the adder one atomic load when nobody sleeps (a count of
 * sleepers, read after the addition: with the sleeper's increment before its last look,
 * sequentially consistent, one of the two sees the other) and a lock and a broadcast when
 * somebody does.  With more threads than cores nobody spins.
 * ADAPTIVE RUNS (lcp_pool_run_adaptive, one per sweep): a run on all threads or on the
 * caller alone (the workers left asleep: the callers' pieces do not depend on who runs
 * them, so the results do not change), whichever takes less time.  A solve starts on the
 * caller alone, the speed the threads must not lose against; after ADAPT_FIRST runs the
 * other mode is probed by one run, and by a second only when the first was not much
 * slower (under ADAPT_REJECT times the mean of the mode's last ADAPT_KEEP runs), and
 * taken only when its two runs took on average under ADAPT_GAIN of that mean.  Each
 * confirmation doubles the stretch to the next probe, and the stretch is at least long
 * enough that the probe's excess (its time beyond the mode's mean) is ADAPT_COST of the
 * stretch's time (up to ADAPT_MAX runs).  So on a machine whose other work takes the
 * cores, the threads cost one slow run at the start and then at most ADAPT_COST; on a
 * free machine they take over after ADAPT_FIRST + 2 runs.  An adaptive run on all
 * threads is also cut short: once it has taken ADAPT_REJECT times the mean run alone,
 * lcp_pool_overdue tells the caller, and pgs-color's workers stop claiming blocks and
 * the caller finishes the sweep alone (under load, a run on both threads of this 2-core
 * machine could take several times a run alone: at any of 36 colours the thread waited
 * for may have lost its core).  Test only: lcp_pool_force_overdue(after) makes pools
 * started while it is set run every adaptive run on all threads and be overdue from the
 * (after + 1)-th lcp_pool_overdue of each run (pgs-color asks at each colour), so the
 * `parallel' test reaches the cut on an idle machine; lcp_pool_cut_runs counts the cuts.
 * Before (a solve started on all threads, decided on the sums of two runs, probed two
 * runs every stretch of 3% cost, and a probe ran to its end), paired 161-sweep solves of
 * pgs-color at 10^5 rows under load ran at 0.90-0.96 of one thread (lcp/README.md).
 * Work is split by the callers into fixed pieces (rows, blocks), so results never depend
 * on which thread ran a piece.  Cost: per run, a handover (spinning) or a wake-up
 * (sleeping); per wait, a spin of at most WAIT_SPIN_S, then a wake-up.
 * Sources: Mellor-Crummey and Scott, "Algorithms for scalable synchronization on
 * shared-memory multiprocessors" (1991), the sense-reversing centralised barrier; the
 * spin-then-block wait of Karlin, Li, Manasse and Owicki, "Empirical studies of
 * competitive spinning for a shared-memory multiprocessor" (SOSP 1991).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "lcp_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h> /* getloadavg */
#include <unistd.h>

/* how long a waiting thread spins before it sleeps (seconds), when the pool has no more
 * threads than the process has cores; with more, a spinning thread would hold the core of
 * the thread it waits for, so they sleep at once */
#define SPIN_S 200e-6
/* how long a thread waiting inside a run (barrier, await) spins before it sleeps: a
 * colour's or a stage's last blocks take a few microseconds when every thread has its
 * core, and a thread that has lost its core takes milliseconds to come back */
#define WAIT_SPIN_S 50e-6

/* adaptive runs: a solve starts on the caller alone (the speed the threads must not lose
 * against); the first probe of the other mode comes after ADAPT_FIRST runs of the mode, and
 * a probe is one run, a second only when the first took less than ADAPT_REJECT times the
 * mean of the mode's last ADAPT_KEEP runs (a probe of a mode that is much slower, all
 * threads on a machine whose other work has the cores, costs one run).  The other mode is
 * taken when its two probe runs took on average under ADAPT_GAIN of the mode's mean; the
 * next probe comes after twice the runs (when the probe confirmed the mode), and at least
 * after as many runs of the mode as keep the probes' excess time (what they took beyond the
 * mode's mean) under ADAPT_COST of the time, at most ADAPT_MAX runs: a probe of a mode 2x
 * slower waits 100 runs, one 5x slower 400. */
enum { ADAPT_FIRST = 2, ADAPT_PROBE = 2, ADAPT_KEEP = 8, ADAPT_MAX = 4096 };
#define ADAPT_GAIN 0.97
#define ADAPT_REJECT 1.25
#define ADAPT_COST 0.01

struct lcp_pool {
    int n;                     /* threads, caller included */
    pthread_t *th;             /* n - 1 workers */
    struct pool_worker *w;     /* n - 1 worker arguments */
    pthread_mutex_t mu;        /* guards the sleeps on start and done */
    pthread_cond_t start, done;
    atomic_ulong gen;          /* run counter: a new value announces a run (or quit) */
    atomic_int pending;        /* workers still running this run */
    atomic_int quit;           /* stop request */
    int sleepers;              /* workers asleep on start (under mu) */
    int caller_asleep;         /* the caller asleep on done (under mu) */
    double spin_s;             /* SPIN_S, or 0 when there are more threads than cores */
    double wait_spin_s;        /* WAIT_SPIN_S, or 0 likewise */
    pthread_cond_t wake;       /* the waits inside a run sleep here (under mu) */
    atomic_int waiting;        /* threads asleep (or about to sleep) in a wait */
    lcp_pool_fn *fn;           /* the run's function and argument: written before gen */
    void *arg;
    atomic_int count, sense;   /* barrier */
    int *local;                /* n: each thread's barrier sense */
    int active;                /* threads taking part in the run now: n, or 1 (solo) */
    /* lcp_pool_run_adaptive: all threads or the caller alone, whichever runs faster */
    int adapt;                 /* 1: adaptive runs choose; 0: always all threads */
    int solo;                  /* the mode adaptive runs take now (1: the caller alone) */
    int probing;               /* runs of the current probe of the other mode so far */
    int until;                 /* runs of the mode before its next probe */
    int interval;              /* ADAPT_FIRST, doubled when a probe confirms, at most
                                  ADAPT_MAX */
    double last[2][ADAPT_KEEP]; /* each mode's last run times (rings; [1]: alone) */
    int nlast[2], ilast[2];
    double tried[ADAPT_PROBE]; /* the probe's run times */
    double run_t0, budget;     /* a run on all threads: its start, and the time after which
                                  lcp_pool_overdue says the caller should finish it alone */
    int force;                 /* test only (lcp_pool_force_overdue): -1 off, else every
                                  adaptive run on all threads, overdue after `force' asks */
    int asked;                 /* lcp_pool_overdue's questions in this run (forced) */
};

/* test only: lcp_pool_force_overdue's setting, read by lcp_pool_start; and the runs cut */
static int force_overdue = -1;
static atomic_long cut_runs;


typedef struct pool_worker {
    lcp_pool *p;
    int tid;
} pool_worker;

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* the cores this process may run on (its affinity mask; the online count if unknown) */
static int cores(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* A bounded spin: `while (!ready && spinning(&s))' waits with a pause between looks and
 * reads the clock every 64 of them; spinning() returns 0 once the spin has lasted
 * s.limit seconds (at once when the limit is 0), and the caller then sleeps. */
typedef struct spinner {
    double limit, t0;
    unsigned k;
} spinner;

static int spinning(spinner *s)
{
    if (s->limit <= 0.0) return 0;
    relax();
    if ((++s->k & 63) == 0) {
        double t = lcp_seconds();
        if (s->t0 == 0.0) s->t0 = t;
        else if (t - s->t0 > s->limit) return 0;
    }
    return 1;
}

static void *worker(void *v)
{
    pool_worker *me = v;
    lcp_pool *p = me->p;
    unsigned long seen = 0;
    for (;;) {
        spinner s = {p->spin_s, 0.0, 0};
        while (atomic_load(&p->gen) == seen && spinning(&s)) {}
        if (atomic_load(&p->gen) == seen) {                    /* no run yet: sleep */
            pthread_mutex_lock(&p->mu);
            while (atomic_load(&p->gen) == seen) {
                p->sleepers++;
                pthread_cond_wait(&p->start, &p->mu);
                p->sleepers--;
            }
            pthread_mutex_unlock(&p->mu);
        }
        seen = atomic_load(&p->gen);
        if (atomic_load(&p->quit)) return NULL;
        p->fn(p->arg, me->tid);
        if (atomic_fetch_sub(&p->pending, 1) == 1) {   /* the last: wake the caller */
            pthread_mutex_lock(&p->mu);
            if (p->caller_asleep) pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

lcp_status lcp_pool_start(lcp_pool **pool, int nthreads)
{
    *pool = NULL;
    if (nthreads < 1) return LCP_ERR_ARG;
    lcp_pool *p = lcp_calloc(1, sizeof *p);
    if (!p) return LCP_ERR_NOMEM;
    p->n = nthreads;
    p->active = nthreads;
    p->adapt = 1;
    p->solo = 1;                            /* adaptive runs start on the caller alone */
    p->interval = p->until = ADAPT_FIRST;
    p->force = force_overdue;
    p->spin_s = nthreads <= cores() ? SPIN_S : 0.0;
    p->wait_spin_s = nthreads <= cores() ? WAIT_SPIN_S : 0.0;
    atomic_init(&p->gen, 0);
    atomic_init(&p->waiting, 0);
    atomic_init(&p->pending, 0);
    atomic_init(&p->quit, 0);
    atomic_init(&p->count, 0);
    atomic_init(&p->sense, 0);
    p->local = lcp_calloc((size_t)nthreads, sizeof(int));
    if (!p->local) {
        lcp_free(p);
        return LCP_ERR_NOMEM;
    }
    if (nthreads == 1) {
        *pool = p;
        return LCP_OK;
    }
    p->th = lcp_malloc((size_t)nthreads - 1, sizeof(pthread_t));
    p->w = lcp_malloc((size_t)nthreads - 1, sizeof(pool_worker));
    if (!p->th || !p->w || pthread_mutex_init(&p->mu, NULL) != 0) {
        lcp_free(p->th);
        lcp_free(p->w);
        lcp_free(p->local);
        lcp_free(p);
        return LCP_ERR_NOMEM;
    }
    pthread_cond_init(&p->start, NULL);
    pthread_cond_init(&p->done, NULL);
    pthread_cond_init(&p->wake, NULL);
    int started = 0;
    for (int t = 1; t < nthreads; t++) {
        p->w[t - 1].p = p;
        p->w[t - 1].tid = t;
        if (pthread_create(&p->th[t - 1], NULL, worker, &p->w[t - 1]) != 0) break;
        started++;
    }
    if (started < nthreads - 1) {           /* could not start them all: stop the others */
        p->n = started + 1;
        lcp_pool_stop(p);
        return LCP_ERR_NOMEM;
    }
    *pool = p;
    return LCP_OK;
}

void lcp_pool_run(lcp_pool *p, lcp_pool_fn *fn, void *arg)
{
    if (p->n == 1) {
        fn(arg, 0);
        return;
    }
    p->fn = fn;
    p->arg = arg;
    atomic_store(&p->pending, p->n - 1);
    pthread_mutex_lock(&p->mu);                /* a worker about to sleep sees the run */
    atomic_fetch_add(&p->gen, 1);
    if (p->sleepers > 0) pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0);
    spinner s = {p->spin_s, 0.0, 0};
    while (atomic_load(&p->pending) > 0 && spinning(&s)) {}
    if (atomic_load(&p->pending) == 0) return;
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->pending) > 0) {
        p->caller_asleep = 1;
        pthread_cond_wait(&p->done, &p->mu);
    }
    p->caller_asleep = 0;
    pthread_mutex_unlock(&p->mu);
}

/* wake the threads asleep in lcp_pool_await (after the value they wait on has changed) */
static void wake_waiters(lcp_pool *p)
{
    if (atomic_load(&p->waiting) == 0) return;          /* nobody asleep: no lock */
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
}

void lcp_pool_await(lcp_pool *p, atomic_int *a, int want)
{
    spinner s = {p->wait_spin_s, 0.0, 0};
    while (atomic_load(a) != want && spinning(&s)) {}
    if (atomic_load(a) == want) return;
    atomic_fetch_add(&p->waiting, 1);             /* before the last look (header) */
    pthread_mutex_lock(&p->mu);
    while (atomic_load(a) != want) pthread_cond_wait(&p->wake, &p->mu);
    pthread_mutex_unlock(&p->mu);
    atomic_fetch_sub(&p->waiting, 1);
}

void lcp_pool_add(lcp_pool *p, atomic_int *a, int v)
{
    atomic_fetch_add(a, v);
    if (p->n > 1) wake_waiters(p);
}

void lcp_pool_barrier(lcp_pool *p, int tid)
{
    if (p->active == 1) return;                         /* one thread, or a solo run */
    int s = p->local[tid] = !p->local[tid];
    if (atomic_fetch_add(&p->count, 1) == p->n - 1) {   /* last to arrive releases all */
        atomic_store(&p->count, 0);
        atomic_store(&p->sense, s);
        wake_waiters(p);
        return;
    }
    lcp_pool_await(p, &p->sense, s);
}

int lcp_threads_free(void)
{
    int c = cores();
    double load;
    if (getloadavg(&load, 1) != 1 || !(load >= 0.0)) return c;   /* unknown: all */
    double f = ceil((double)c - load);                  /* the cores the load leaves */
    return f < 1.0 ? 1 : f > (double)c ? c : (int)f;
}

int lcp_threads(const lcp_options *opt)
{
    return opt->threads_auto ? lcp_threads_free() : opt->threads;
}

int lcp_pool_size(const lcp_pool *p)
{
    return p ? p->n : 1;
}

int lcp_pool_active(const lcp_pool *p)
{
    return p ? p->active : 1;
}

void lcp_pool_set_adapt(lcp_pool *p, int adapt)
{
    if (p) p->adapt = adapt;
}

/* a run time of mode `solo', into the ring of its last ADAPT_KEEP */
static void remember(lcp_pool *p, int solo, double t)
{
    p->last[solo][p->ilast[solo]] = t;
    p->ilast[solo] = (p->ilast[solo] + 1) % ADAPT_KEEP;
    if (p->nlast[solo] < ADAPT_KEEP) p->nlast[solo]++;
}

/* the mean of mode `solo''s last runs (0: none yet).  The mean, not the median: a run on
 * all threads on a machine whose other work takes the cores is usually fast and now and
 * then very slow (a thread waited for lost its core), and a solve pays the mean */
static double mean(const lcp_pool *p, int solo)
{
    double t = 0.0;
    for (int k = 0; k < p->nlast[solo]; k++) t += p->last[solo][k];
    return p->nlast[solo] > 0 ? t / p->nlast[solo] : 0.0;
}

/* the probe of the other mode ends after `runs' runs: switch or confirm, and when the
 * next probe comes */
static void probe_end(lcp_pool *p, int runs)
{
    double avg = mean(p, p->solo), tried = 0.0, excess = 0.0;
    for (int k = 0; k < runs; k++) {
        tried += p->tried[k] / runs;
        excess += p->tried[k] - avg;
    }
    p->probing = 0;
    if (runs == ADAPT_PROBE && avg > 0.0 && tried < ADAPT_GAIN * avg) {
        p->solo = !p->solo;                              /* the other mode is faster */
        double old = avg;
        avg = mean(p, p->solo);
        excess = runs * (old - avg);                     /* a probe back would cost this */
        p->interval = ADAPT_FIRST;
    } else {
        p->interval *= 2;                                /* confirmed: probe less often */
    }
    /* runs of the mode that the next probe's excess may cost ADAPT_COST of */
    double need = avg > 0.0 ? excess / (ADAPT_COST * avg) : ADAPT_MAX;
    if (need > p->interval) p->interval = need < ADAPT_MAX ? (int)need : ADAPT_MAX;
    if (p->interval > ADAPT_MAX) p->interval = ADAPT_MAX;
    p->until = p->interval;
}

int lcp_pool_overdue(lcp_pool *p)
{
    if (!p || p->n == 1 || p->active == 1) return 0;
    int late = p->force >= 0 ? p->asked++ >= p->force
                             : p->budget > 0.0 && lcp_seconds() - p->run_t0 > p->budget;
    if (late) atomic_fetch_add(&cut_runs, 1);
    return late;
}

void lcp_pool_force_overdue(int after)
{
    force_overdue = after < 0 ? -1 : after;
}

long lcp_pool_cut_runs(void)
{
    return atomic_load(&cut_runs);
}

int lcp_pool_run_adaptive(lcp_pool *p, lcp_pool_fn *fn, void *arg)
{
    if (p->n > 1 && p->force >= 0) {     /* test only: on all threads, cut after `force' */
        p->asked = 0;
        lcp_pool_run(p, fn, arg);
        p->asked = 0;
        return 0;
    }
    if (p->n == 1 || !p->adapt) {
        lcp_pool_run(p, fn, arg);
        return 0;
    }
    int solo = p->probing > 0 || p->until <= 0 ? !p->solo : p->solo;
    double t0 = lcp_seconds();
    if (solo) {                          /* the caller alone; the workers stay asleep */
        p->active = 1;
        fn(arg, 0);
        p->active = p->n;
    } else {                             /* on all threads, at most ADAPT_REJECT x alone */
        p->run_t0 = t0;
        p->budget = ADAPT_REJECT * mean(p, 1);
        lcp_pool_run(p, fn, arg);
        p->budget = 0.0;
    }
    double t = lcp_seconds() - t0;
    remember(p, solo, t);
    if (solo != p->solo) {                               /* a run of a probe */
        p->tried[p->probing++] = t;
        if (p->probing == ADAPT_PROBE) probe_end(p, ADAPT_PROBE);
        else if (t >= ADAPT_REJECT * mean(p, p->solo)) probe_end(p, p->probing);
    } else {
        p->until--;
    }
    return solo;
}

void lcp_pool_stop(lcp_pool *p)
{
    if (!p) return;
    if (p->n > 1) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->quit, 1);
        atomic_fetch_add(&p->gen, 1);
        pthread_cond_broadcast(&p->start);
        pthread_mutex_unlock(&p->mu);
        for (int t = 0; t < p->n - 1; t++) pthread_join(p->th[t], NULL);
        pthread_cond_destroy(&p->start);
        pthread_cond_destroy(&p->done);
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
    }
    lcp_free(p->th);
    lcp_free(p->w);
    lcp_free(p->local);
    lcp_free(p);
}
