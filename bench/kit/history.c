/* history.c: a run's residual history (iteration, ||r||_2, ||r||_inf, time_s per recorded
 * sweep): the one writer and the one reader (a strict CSV through csv.c), its file name
 * INSTANCE__LABEL.csv, and what the tables ask of it (the first sweep at or below a level,
 * the smallest residual).
 * Cost: linear in the history. */
#include "kit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_history_free(bench_history *h)
{
    lcp_free(h->iter);
    lcp_free(h->r2);
    lcp_free(h->rinf);
    lcp_free(h->t);
    memset(h, 0, sizeof *h);
}

static void csv_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.6e", v);
    else fputc(',', f);
}

int bench_history_print(FILE *f, const bench_history *h)
{
    fprintf(f, "iteration,residual,residual_inf,time_s\n");
    for (int k = 0; k < h->n; k++) {
        fprintf(f, "%d", h->iter[k]);
        csv_num(f, h->r2[k]);
        csv_num(f, h->rinf[k]);
        csv_num(f, h->t[k]);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int bench_history_write(const bench_history *h, const char *path, int force, char *msg,
                        size_t msglen)
{
    bench_out o;
    if (bench_out_open(&o, path, force, msg, msglen) != 0) return -1;
    bench_history_print(o.f, h);
    return bench_out_commit(&o, 1, msg, msglen);
}

void bench_history_name(const char *instance, const char *label, char *out, size_t len)
{
    char si[2 * BENCH_LABEL], sl[BENCH_LABEL];
    bench_safe_name(instance, si, sizeof si);
    bench_safe_name(label, sl, sizeof sl);
    snprintf(out, len, "%s__%s.csv", si, sl);
}

int bench_history_read(const char *path, bench_history *h, char *msg, size_t msglen)
{
    memset(h, 0, sizeof *h);
    bench_csv H;
    if (bench_csv_read(path, &H, msg, msglen) != 0) return -1;
    int ci = bench_csv_col(&H, "iteration"), cr = bench_csv_col(&H, "residual");
    int cf = bench_csv_col(&H, "residual_inf"), ct = bench_csv_col(&H, "time_s");
    if (ci < 0 || cr < 0) {
        snprintf(msg, msglen, "%s: not a history (no iteration,residual columns)", path);
        bench_csv_free(&H);
        return -1;
    }
    size_t n = (size_t)H.nrow + 1;
    h->iter = lcp_malloc(n, sizeof(int));
    h->r2 = lcp_malloc(n, sizeof(double));
    h->rinf = lcp_malloc(n, sizeof(double));
    h->t = lcp_malloc(n, sizeof(double));
    if (!h->iter || !h->r2 || !h->rinf || !h->t) {
        bench_history_free(h);
        bench_csv_free(&H);
        snprintf(msg, msglen, "%s: out of memory", path);
        return -1;
    }
    for (int r = 0; r < H.nrow; r++) {
        double it = bench_csv_num(&H, r, ci);
        if (!isfinite(it)) continue;
        h->iter[h->n] = (int)it;
        h->r2[h->n] = bench_csv_num(&H, r, cr);
        h->rinf[h->n] = bench_csv_num(&H, r, cf);
        h->t[h->n] = bench_csv_num(&H, r, ct);
        h->n++;
    }
    h->cap = H.nrow + 1;
    bench_csv_free(&H);
    return 0;
}

int bench_history_load(const char *dir, const char *file, bench_history *h, char *msg,
                       size_t msglen)
{
    char path[BENCH_PATH + 300];
    memset(h, 0, sizeof *h);
    if (!file || !*file) return 1;
    snprintf(path, sizeof path, "%s/history/%s", dir, file);
    return bench_history_read(path, h, msg, msglen);
}

int bench_history_reach(const bench_history *h, double level)
{
    for (int k = 0; k < h->n; k++)
        if (h->r2[k] <= level) return h->iter[k];   /* at or below: equal counts */
    return -1;
}

double bench_history_min(const bench_history *h)
{
    double m = INFINITY;
    for (int k = 0; k < h->n; k++)
        if (h->r2[k] < m) m = h->r2[k];
    return isfinite(m) ? m : NAN;
}
