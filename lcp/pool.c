/* pool.c: the thread pool of the parallel sweeps (pgs-color, jacobi), POSIX threads.
 *
 * Started once per solve with T threads: the caller is thread 0, T - 1 workers wait on a
 * condition variable between runs.  lcp_pool_run(fn, arg) runs fn(arg, t) on every
 * thread t and returns when all are done (a mutex and condition variable: one wake-up per
 * sweep).  Inside a run, lcp_pool_barrier() is a sense-reversing counter barrier on C11
 * atomics (sequentially consistent: what a thread wrote before the barrier is seen by
 * every thread after it), spinning briefly and then yielding the core, since this machine
 * is shared and a spinning thread would take the time of the thread it waits for.
 * Work is split by the callers into fixed pieces (rows, blocks), so results never depend
 * on which thread ran a piece.  Cost: one wake-up per run, one barrier per call.
 * Source: Mellor-Crummey and Scott, "Algorithms for scalable synchronization on
 * shared-memory multiprocessors" (1991), the sense-reversing centralised barrier.
 */
#include "lcp_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

struct lcp_pool {
    int n;                     /* threads, caller included */
    pthread_t *th;             /* n - 1 workers */
    struct pool_worker *w;     /* n - 1 worker arguments */
    pthread_mutex_t mu;
    pthread_cond_t start, done;
    unsigned long gen;         /* run counter (under mu) */
    int pending, quit;         /* workers still running this run; stop request */
    lcp_pool_fn *fn;
    void *arg;
    atomic_int count, sense;   /* barrier */
    int *local;                /* n: each thread's barrier sense */
};

typedef struct pool_worker {
    lcp_pool *p;
    int tid;
} pool_worker;

static void *worker(void *v)
{
    pool_worker *me = v;
    lcp_pool *p = me->p;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->gen == seen && !p->quit) pthread_cond_wait(&p->start, &p->mu);
        seen = p->gen;
        int quit = p->quit;
        lcp_pool_fn *fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        if (quit) return NULL;
        fn(arg, me->tid);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

lcp_status lcp_pool_start(lcp_pool **pool, int nthreads)
{
    *pool = NULL;
    if (nthreads < 1) return LCP_ERR_ARG;
    lcp_pool *p = lcp_calloc(1, sizeof *p);
    if (!p) return LCP_ERR_NOMEM;
    p->n = nthreads;
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
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->pending = p->n - 1;
    p->gen++;
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void lcp_pool_barrier(lcp_pool *p, int tid)
{
    if (p->n == 1) return;
    int s = p->local[tid] = !p->local[tid];
    if (atomic_fetch_add(&p->count, 1) == p->n - 1) {   /* last to arrive releases all */
        atomic_store(&p->count, 0);
        atomic_store(&p->sense, s);
        return;
    }
    for (long spin = 0; atomic_load(&p->sense) != s; spin++)
        if (spin > 2000) sched_yield();
}

int lcp_pool_size(const lcp_pool *p)
{
    return p ? p->n : 1;
}

void lcp_pool_stop(lcp_pool *p)
{
    if (!p) return;
    if (p->n > 1) {
        pthread_mutex_lock(&p->mu);
        p->quit = 1;
        pthread_cond_broadcast(&p->start);
        pthread_mutex_unlock(&p->mu);
        for (int t = 0; t < p->n - 1; t++) pthread_join(p->th[t], NULL);
        pthread_cond_destroy(&p->start);
        pthread_cond_destroy(&p->done);
        pthread_mutex_destroy(&p->mu);
    }
    lcp_free(p->th);
    lcp_free(p->w);
    lcp_free(p->local);
    lcp_free(p);
}
