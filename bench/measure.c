/* measure.c: one measured run of one solver on one instance (design.md section 7).
 *
 * 1. Recording run: the monitor computes the harness's own residual ||r||_2, ||r||_inf
 *    (lcp_residual) after every sweep and stamps the solve time so far, with the time spent
 *    recording subtracted.  It gives the history and the iteration count.
 * 2. Timing runs: the same options with no monitor, no residual tests (tol < 0) and exactly
 *    the recorded iteration count (direct solvers are rerun as they are); one warm-up, then
 *    `reps' runs on CLOCK_MONOTONIC; median and min reported.
 * The final residuals come from lcp_residual on the recording run's z, never from info.
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct recorder {
    const lcp_problem *P;
    double *w;
    bench_history *h;
    double t0, excluded;
    int failed;
} recorder;

static int history_push(bench_history *h, int it, double r2, double rinf, double t)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 256;
        int *iter = realloc(h->iter, (size_t)cap * sizeof(int));
        if (iter) h->iter = iter;
        double *a = realloc(h->r2, (size_t)cap * sizeof(double));
        if (a) h->r2 = a;
        double *b = realloc(h->rinf, (size_t)cap * sizeof(double));
        if (b) h->rinf = b;
        double *c = realloc(h->t, (size_t)cap * sizeof(double));
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
    double t = bench_now();
    lcp_residuals R;
    lcp_residual(r->P, z, r->w, &R);
    if (history_push(r->h, iteration, R.r2, R.rinf, t - r->t0 - r->excluded) != 0) r->failed = 1;
    r->excluded += bench_now() - t;
}

void bench_history_free(bench_history *h)
{
    free(h->iter);
    free(h->r2);
    free(h->rinf);
    free(h->t);
    memset(h, 0, sizeof *h);
}

int bench_history_write(const bench_history *h, const char *path, int force, char *msg,
                        size_t msglen)
{
    bench_out o;
    if (bench_out_open(&o, path, force, msg, msglen) != 0) return -1;
    bench_provenance(o.f, 0, NULL);
    fprintf(o.f, "iteration,residual,residual_inf,time_s\n");
    for (int k = 0; k < h->n; k++)
        fprintf(o.f, "%d,%.6e,%.6e,%.6e\n", h->iter[k], h->r2[k], h->rinf[k], h->t[k]);
    return bench_out_commit(&o, 1, msg, msglen);
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

lcp_status bench_run_solver(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                            const double *z_start, int reps, double *z, bench_result *r,
                            bench_history *h)
{
    memset(r, 0, sizeof *r);
    r->zdiff = r->wdiff = NAN;
    r->t_median = r->t_min = NAN;
    lcp_options o = *opt;
    bench_history local = {0};
    recorder rec = {.P = P, .h = h ? h : &local};
    rec.w = malloc((size_t)(P->m > 0 ? P->m : 1) * sizeof(double));
    if (!rec.w) return r->status = LCP_ERR_NOMEM;
    if (h) {
        o.monitor = record;
        o.monitor_ctx = &rec;
    }
    start_from(P, z_start, z);
    rec.t0 = bench_now();
    r->status = lcp_solve(s, P, &o, z, &r->info);
    r->iterations = r->info.iterations;
    if (r->status >= 0) {
        lcp_residual(P, z, rec.w, &r->res);                 /* the harness's own residual */
        if (P->zref) lcp_ref_distance(P, z, &r->zdiff, &r->wdiff);
    }
    if (r->status >= 0 && reps > 0) {
        double *zt = malloc((size_t)(P->m > 0 ? P->m : 1) * sizeof(double));
        double *t = malloc((size_t)(reps + 1) * sizeof(double));
        lcp_options ot = *opt;
        ot.monitor = NULL;
        ot.monitor_ctx = NULL;
        if (!(s->needs & LCP_DIRECT)) {
            ot.tol = -1.0;                                   /* no residual tests */
            ot.max_iter = r->iterations;
        }
        if (zt && t) {
            for (int k = 0; k <= reps; k++) {                /* k = 0: warm-up */
                lcp_info info;
                start_from(P, z_start, zt);
                double t0 = bench_now();
                lcp_solve(s, P, &ot, zt, &info);
                t[k] = bench_now() - t0;
            }
            qsort(t + 1, (size_t)reps, sizeof(double), cmp_double);
            r->t_min = t[1];
            r->t_median = reps % 2 ? t[1 + reps / 2] : 0.5 * (t[reps / 2] + t[reps / 2 + 1]);
        } else {
            r->status = LCP_ERR_NOMEM;
        }
        free(zt);
        free(t);
    }
    if (rec.failed) r->status = LCP_ERR_NOMEM;
    bench_history_free(&local);
    free(rec.w);
    return r->status;
}
