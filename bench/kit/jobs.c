/* jobs.c: the harness's one thread pool (kit layer).  A table that runs many independent jobs
 * (orderings, simulations) hands their index range [0, n) to bench_jobs_run: chunks of
 * `chunk' indices are dealt in order, on demand, to at most `threads' threads, the calling
 * thread one of them.  Each job writes only its own outputs, so what a table prints is the
 * serial run's whatever the thread count and the order in which the chunks finish.  (The
 * library's solvers have their own pool, lcp/pool.c: a barrier per colour inside one solve.) */
#include "kit.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

enum { MAX_THREADS = 64 };

typedef struct jobs {
    long n, chunk;
    atomic_long next;          /* the first index not yet dealt */
    bench_jobs_fn *fn;
    void *ctx;
    bench_progress *prog;      /* stepped under `lock' as chunks finish; NULL: none */
    pthread_mutex_t lock;
} jobs;

static void *deal(void *arg)
{
    jobs *J = arg;
    long lo;
    while ((lo = atomic_fetch_add(&J->next, J->chunk)) < J->n) {
        long hi = lo + J->chunk < J->n ? lo + J->chunk : J->n;
        J->fn(J->ctx, lo, hi);
        if (J->prog) {
            pthread_mutex_lock(&J->lock);
            bench_progress_step(J->prog, hi - lo);
            pthread_mutex_unlock(&J->lock);
        }
    }
    return NULL;
}

int bench_jobs_threads(int max)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int t = ncpu < 1 ? 1 : ncpu > MAX_THREADS ? MAX_THREADS : (int)ncpu;
    return max >= 1 && t > max ? max : t;
}

int bench_jobs_run(long n, long chunk, int threads, bench_jobs_fn *fn, void *ctx,
                   bench_progress *prog)
{
    jobs J = {.n = n, .chunk = chunk < 1 ? 1 : chunk, .fn = fn, .ctx = ctx, .prog = prog};
    atomic_init(&J.next, 0);
    pthread_mutex_init(&J.lock, NULL);
    pthread_t th[MAX_THREADS];
    int started = 0;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    for (int t = 1; t < threads; t++)           /* a thread that cannot start is not needed */
        if (pthread_create(&th[started], NULL, deal, &J) == 0) started++;
    deal(&J);                                   /* the caller deals too, and ends the range */
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    pthread_mutex_destroy(&J.lock);
    return started + 1;
}
