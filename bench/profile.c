/* profile.c: `lcpbench profile DIR': performance profiles (Dolan and More 2002) and data
 * profiles (More and Wild 2009) over every instance of a run folder (run.c).
 *
 * PERFORMANCE PROFILE of cost c (time_s, iterations to the tolerance, or work units):
 *     t_{p,s} = cost of solver setting s on instance p; +inf when the run did not converge
 *     r_{p,s} = t_{p,s} / min_s t_{p,s}
 *     rho_s(tau) = |{p : r_{p,s} <= tau}| / n_p,   drawn against log2(tau)
 * (costs are floored at 1 sweep / 1 work unit / 1 ns, so a warm start that is already
 * converged compares as 1).  Instances where every setting failed count as failures for all.
 * DATA PROFILE at accuracy eps (||r||_2 <= eps, absolute, the harness's residual):
 *     k_{p,s} = first recorded sweep with ||r||_2 <= eps (history; direct solvers: their
 *               iterations when the final residual is <= eps), +inf when never
 *     d_s(k) = |{p : k_{p,s} <= k}| / n_p,   for eps = 1e-2, 1e-4, 1e-6, 1e-8, 1e-10.
 * Outputs in DIR/profile/: perf-COST.dat/.gp/.png/.pdf and data-EPS.dat/.gp/.png/.pdf;
 * each .dat has the step breakpoints, one column per setting (label order of runs.csv).
 * Cost: O(n_p n_s log) plus reading the histories.
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *CMD = "profile";
static const double accuracies[] = {1e-2, 1e-4, 1e-6, 1e-8, 1e-10};
enum { NACC = 5 };

typedef struct prof {
    int np, ns;
    char (*inst)[BENCH_LABEL];
    char (*label)[BENCH_LABEL];
    int *row;          /* np * ns: row of runs.csv, -1 when absent */
} prof;

static int index_of(char (*list)[BENCH_LABEL], int n, const char *s)
{
    for (int k = 0; k < n; k++)
        if (strcmp(list[k], s) == 0) return k;
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* write `x y_1 .. y_ns' breakpoints of the step functions F_s(x) = #{p: v[p,s] <= x}/np */
static void steps(FILE *f, const prof *P, const double *v, double xmax_pad)
{
    int n = P->np * P->ns;
    double *xs = malloc((size_t)(n + 2) * sizeof(double));
    if (!xs) return;
    int m = 0;
    for (int k = 0; k < n; k++)
        if (isfinite(v[k])) xs[m++] = v[k];
    qsort(xs, (size_t)m, sizeof(double), cmp_double);
    double top = m ? xs[m - 1] : 0.0;
    xs[m++] = top + xmax_pad;
    for (int k = 0; k < m; k++) {
        if (k > 0 && xs[k] == xs[k - 1]) continue;
        fprintf(f, "%.9g", xs[k]);
        for (int s = 0; s < P->ns; s++) {
            int c = 0;
            for (int p = 0; p < P->np; p++) c += v[p * P->ns + s] <= xs[k];
            fprintf(f, " %.6f", (double)c / P->np);
        }
        fprintf(f, "\n");
    }
    free(xs);
}

static int figure(const char *dir, const char *base, const prof *P, const double *v,
                  double pad, const char *title, const char *xlabel, int argc, char **argv,
                  int *missing)
{
    char path[BENCH_PATH + 128], q[512];
    bench_out o;
    snprintf(path, sizeof path, "%s/%s.dat", dir, base);
    if (!bench_open(CMD, &o, path, 1)) return 1;
    bench_provenance(o.f, argc, argv);
    fprintf(o.f, "# %s; %d instances; columns: x", title, P->np);
    for (int s = 0; s < P->ns; s++) fprintf(o.f, " %s", P->label[s]);
    fprintf(o.f, "\n");
    steps(o.f, P, v, pad);
    if (bench_close(CMD, &o)) return 1;
    snprintf(path, sizeof path, "%s/%s.gp", dir, base);
    if (!bench_open(CMD, &o, path, 1)) return 1;
    FILE *f = o.f;
    bench_provenance(f, 0, NULL);
    bench_gp_quote(title, q, sizeof q);
    fprintf(f, "set title %s\nset xlabel '%s'\nset ylabel 'fraction of instances'\n", q,
            xlabel);
    fprintf(f, "set yrange [0:1.05]\nset grid\nset key outside right top\n");
    bench_gp_png(f, base);
    fprintf(f, "plot \\\n");
    for (int s = 0; s < P->ns; s++) {
        bench_gp_quote(P->label[s], q, sizeof q);
        fprintf(f, "  '%s.dat' using 1:%d with steps lw 2 title %s%s\n", base, s + 2, q,
                s + 1 < P->ns ? ", \\" : "");
    }
    bench_gp_pdf(f, base);
    if (bench_close(CMD, &o)) return 1;
    snprintf(path, sizeof path, "%s.gp", base);
    int g = bench_gnuplot(CMD, dir, path);
    if (g == 1) *missing = 1;
    return g < 0 ? 1 : 0;
}

/* first sweep with ||r||_2 <= eps for every accuracy (inf when never) */
static void reach(const char *dir, const bench_csv *T, int r, double *k)
{
    for (int a = 0; a < NACC; a++) k[a] = INFINITY;
    const char *st = bench_csv_get(T, r, bench_csv_col(T, "status"));
    if (!strcmp(st, "") || !strcmp(st, "no-z0")) return;
    const char *h = bench_csv_get(T, r, bench_csv_col(T, "history"));
    char path[BENCH_PATH + 300], msg[4400];
    bench_csv H;
    snprintf(path, sizeof path, "%s/history/%s", dir, h);
    if (*h && bench_csv_read(path, &H, msg, sizeof msg) == 0) {
        int ci = bench_csv_col(&H, "iteration"), cr = bench_csv_col(&H, "residual");
        for (int row = 0; row < H.nrow; row++) {
            double v = bench_csv_num(&H, row, cr), it = bench_csv_num(&H, row, ci);
            for (int a = 0; a < NACC; a++)
                if (v <= accuracies[a] && !isfinite(k[a])) k[a] = it;
        }
        bench_csv_free(&H);
        return;
    }
    double res = bench_csv_num(T, r, bench_csv_col(T, "residual"));
    double its = bench_csv_num(T, r, bench_csv_col(T, "iterations"));
    for (int a = 0; a < NACC; a++)
        if (res <= accuracies[a] && isfinite(its)) k[a] = its;
}

static void help(void)
{
    printf("usage: lcpbench profile DIR [--cost time|iterations|work|all]\n"
           "\n"
           "Performance profiles (Dolan-More: cost / best cost per instance, failures = inf,\n"
           "tau on a log2 axis) and data profiles (fraction of instances reaching ||r||_2 <=\n"
           "eps within k sweeps, eps = 1e-2, 1e-4, 1e-6, 1e-8, 1e-10) over every instance of\n"
           "a run folder (lcpbench run), one curve per solver setting (label).  Writes\n"
           "DIR/profile/perf-COST.{dat,gp,png,pdf} and data-EPS.{dat,gp,png,pdf}.\n"
           "  --cost C   performance profile cost (default all): time (median time_s),\n"
           "             iterations (iter_to_tol), work (work units)\n");
}

int bench_cmd_profile(int argc, char **argv)
{
    const char *dir = NULL, *cost = "all";
    for (int k = 1; k < argc; k++) {
        const char *v;
        int r;
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            return 0;
        } else if ((r = bench_opt(argc, argv, &k, "--cost", &v)) != 0) {
            if (r < 0) return 2;
            if (strcmp(v, "time") && strcmp(v, "iterations") && strcmp(v, "work") &&
                strcmp(v, "all")) {
                bench_error(CMD, "--cost: unknown cost '%s' (time, iterations, work, all)", v);
                return 2;
            }
            cost = v;
        } else if (argv[k][0] == '-' && argv[k][1]) {
            bench_error(CMD, "unknown option '%s' (lcpbench profile --help)", argv[k]);
            return 2;
        } else if (dir) {
            bench_error(CMD, "one run folder at a time");
            return 2;
        } else dir = argv[k];
    }
    if (!dir) {
        bench_error(CMD, "no run folder given (lcpbench profile --help)");
        return 2;
    }
    char path[BENCH_PATH + 64], msg[8400];
    bench_csv T;
    if (bench_read_runs(CMD, dir, &T)) return 1;
    int ci = bench_csv_col(&T, "instance"), cl = bench_csv_col(&T, "label");
    int cs = bench_csv_col(&T, "status");
    if (ci < 0 || cl < 0 || cs < 0 || T.nrow == 0) {
        bench_error(CMD, "%s: not a runs.csv of lcpbench run, or no runs", path);
        bench_csv_free(&T);
        return 1;
    }
    prof P = {0};
    P.inst = calloc((size_t)T.nrow, sizeof *P.inst);
    P.label = calloc((size_t)T.nrow, sizeof *P.label);
    int rc = 0;
    for (int r = 0; P.inst && P.label && r < T.nrow; r++) {
        const char *i = bench_csv_get(&T, r, ci), *l = bench_csv_get(&T, r, cl);
        if (index_of(P.inst, P.np, i) < 0) snprintf(P.inst[P.np++], BENCH_LABEL, "%s", i);
        if (index_of(P.label, P.ns, l) < 0) snprintf(P.label[P.ns++], BENCH_LABEL, "%s", l);
    }
    size_t nps = (size_t)P.np * (size_t)P.ns;
    P.row = malloc((nps + 1) * sizeof(int));
    double *v = malloc((nps + 1) * sizeof(double));
    double *kk = malloc((nps * NACC + 1) * sizeof(double));
    if (!P.inst || !P.label || !P.row || !v || !kk) {
        bench_error(CMD, "out of memory");
        rc = 1;
        goto done;
    }
    for (size_t k = 0; k < nps; k++) P.row[k] = -1;
    for (int r = 0; r < T.nrow; r++)
        P.row[index_of(P.inst, P.np, bench_csv_get(&T, r, ci)) * P.ns +
              index_of(P.label, P.ns, bench_csv_get(&T, r, cl))] = r;
    snprintf(path, sizeof path, "%s/profile", dir);
    if (bench_mkdir_p(path, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s", msg);
        rc = 1;
        goto done;
    }
    int missing = 0, figs = 0;
    static const char *const costs[3] = {"time", "iterations", "work"};
    static const char *const cols[3] = {"time_s", "iter_to_tol", "work"};
    static const double floor_c[3] = {1e-9, 1.0, 1.0};
    for (int c = 0; c < 3; c++) {
        if (strcmp(cost, "all") && strcmp(cost, costs[c])) continue;
        int col = bench_csv_col(&T, cols[c]);
        for (int p = 0; p < P.np; p++) {
            double best = INFINITY;
            for (int s = 0; s < P.ns; s++) {
                int r = P.row[p * P.ns + s];
                double t = INFINITY;
                if (r >= 0 && !strcmp(bench_csv_get(&T, r, cs), "converged")) {
                    t = bench_csv_num(&T, r, col);
                    t = isfinite(t) ? fmax(t, floor_c[c]) : INFINITY;
                }
                v[p * P.ns + s] = t;
                if (t < best) best = t;
            }
            for (int s = 0; s < P.ns; s++)    /* log2 of the ratio */
                v[p * P.ns + s] = isfinite(best) ? log2(v[p * P.ns + s] / best) : INFINITY;
        }
        char base[64], title[128], xl[64];
        snprintf(base, sizeof base, "perf-%s", costs[c]);
        snprintf(title, sizeof title, "performance profile: %s to the tolerance", costs[c]);
        snprintf(xl, sizeof xl, "log2(tau), tau = %s / best %s", costs[c], costs[c]);
        rc |= figure(path, base, &P, v, 0.5, title, xl, argc, argv, &missing);
        figs++;
    }
    for (int p = 0; p < P.np; p++)
        for (int s = 0; s < P.ns; s++) {
            int r = P.row[p * P.ns + s];
            double *k = kk + (size_t)(p * P.ns + s) * NACC;
            if (r >= 0) reach(dir, &T, r, k);
            else
                for (int a = 0; a < NACC; a++) k[a] = INFINITY;
        }
    for (int a = 0; a < NACC; a++) {
        for (size_t k = 0; k < nps; k++) v[k] = kk[k * NACC + (size_t)a];
        char base[64], title[128];
        snprintf(base, sizeof base, "data-%.0e", accuracies[a]);
        snprintf(title, sizeof title, "data profile: ||r||_2 <= %.0e within k sweeps",
                 accuracies[a]);
        rc |= figure(path, base, &P, v, 1.0, title, "sweeps k", argc, argv, &missing);
        figs++;
    }
    if (missing)
        bench_error(CMD, "warning: gnuplot not found: wrote %d .gp scripts and data in %s, no "
                         "images (install gnuplot-nox, then run gnuplot FILE.gp there)", figs,
                    path);
    else if (rc == 0)
        fprintf(stderr, "lcpbench profile: %d figures over %d instances x %d settings in %s\n",
                figs, P.np, P.ns, path);
done:
    free(P.inst);
    free(P.label);
    free(P.row);
    free(v);
    free(kk);
    bench_csv_free(&T);
    return rc;
}
