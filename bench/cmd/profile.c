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
 * k_{p,s} comes from the report kit's history reader (bench_history_reach: at or below).
 * FAMILIES (--families FILE, a CSV instance,family: lcpbench families' families.csv): the
 * same profiles over the instances of each family alone, in DIR/profile/family-FAMILY/ (the
 * ratios to the best setting taken within the family's instances, which is per instance
 * anyway); instances absent from FILE are in the overall profiles only.
 * Outputs in DIR/profile/: perf-COST.{csv,gp,png,pdf} and data-EPS.{csv,gp,png,pdf}; each
 * .csv holds the step breakpoints (series,x,y; one block per setting, label order of
 * runs.csv).
 * Cost: O(n_p n_s log) plus reading the histories.
 */
#include "cmd.h"

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

static int figure(const char *dir, const char *base, const prof *P, const double *v,
                  double pad, const char *title, const char *xlabel, bench_style style,
                  int *missing)
{
    const char **label = lcp_malloc(((size_t)P->ns + 1), sizeof *label);
    if (!label) {
        bench_error(CMD, "out of memory");
        return 1;
    }
    for (int s = 0; s < P->ns; s++) label[s] = P->label[s];
    int rc = bench_profile_figure(CMD, dir, base, P->np, P->ns, label, v, pad, title, xlabel,
                                  style, missing);
    lcp_free(label);
    return rc;
}

/* first sweep with ||r||_2 <= eps for every accuracy (inf when never) */
/* the sweeps run r took to each accuracy (from its history, else its final residual); 0,
 * or 1 with one error line when its history is named but cannot be read */
static int reach(const char *dir, const bench_csv *T, int r, double *k)
{
    for (int a = 0; a < NACC; a++) k[a] = INFINITY;
    const char *st = bench_csv_get(T, r, bench_csv_col(T, "status"));
    if (!strcmp(st, "") || !strcmp(st, "no-z0")) return 0;
    bench_history h;
    char msg[4400];
    int hl = bench_history_load(dir, bench_csv_get(T, r, bench_csv_col(T, "history")), &h, msg,
                                sizeof msg);
    if (hl < 0) {
        bench_error(CMD, "%s", msg);
        return 1;
    }
    if (hl == 0) {
        for (int a = 0; a < NACC; a++) {
            int it = bench_history_reach(&h, accuracies[a]);
            if (it >= 0) k[a] = it;
        }
        bench_history_free(&h);
        return 0;
    }
    double res = bench_csv_num(T, r, bench_csv_col(T, "residual"));
    double its = bench_csv_num(T, r, bench_csv_col(T, "iterations"));
    for (int a = 0; a < NACC; a++)
        if (res <= accuracies[a] && isfinite(its)) k[a] = its;
    return 0;
}

static void help(void)
{
    printf("usage: lcpbench profile DIR [--cost time|iterations|work|all] [--style paper|mono]\n"
           "\n"
           "Performance profiles (Dolan-More: cost / best cost per instance, failures = inf,\n"
           "tau on a log2 axis) and data profiles (fraction of instances reaching ||r||_2 <=\n"
           "eps within k sweeps, eps = 1e-2, 1e-4, 1e-6, 1e-8, 1e-10) over every instance of\n"
           "a run folder (lcpbench run), one curve per solver setting (label).  Writes\n"
           "DIR/profile/perf-COST.{csv,gp,png,pdf} and data-EPS.{csv,gp,png,pdf}.\n"
           "  --cost C    performance profile cost (default all): time (median time_s),\n"
           "              iterations (iter_to_tol), work (work units)\n"
           "  --style S   figures: paper (default) or mono\n"
           "  --families FILE  also the profiles of each family apart, in\n"
           "              DIR/profile/family-FAMILY/ (FILE: a CSV with the columns instance\n"
           "              and family, as lcpbench families writes families.csv)\n");
}

/* the run folder: one */
static int folder(const char *cmd, const char *w, void *to)
{
    if (*(const char **)to) {
        bench_error(cmd, "one run folder at a time");
        return -1;
    }
    *(const char **)to = w;
    return 0;
}

static int cost_arg(const char *cmd, const char *v, void *to)
{
    if (strcmp(v, "time") && strcmp(v, "iterations") && strcmp(v, "work") && strcmp(v, "all")) {
        bench_error(cmd, "--cost: unknown cost '%s' (time, iterations, work, all)", v);
        return -1;
    }
    *(const char **)to = v;
    return 0;
}

/* the options; 0, 2 after one error line, 3 after --help */
static int parse(int argc, char **argv, const char **dir, const char **cost,
                 bench_style *style, const char **fams)
{
    const bench_arg args[] = {
        {"--style", BENCH_ARG_VALUE, style, bench_arg_style, "paper or mono"},
        {"--families", BENCH_ARG_VALUE, fams, NULL, "instance,family CSV"},
        {"--cost", BENCH_ARG_VALUE, cost, cost_arg, "time, iterations, work or all"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), folder, dir, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) {
        help();
        return 3;
    }
    if (r) return 2;
    if (!*dir) {
        bench_error(CMD, "no run folder given (lcpbench profile --help)");
        return 2;
    }
    return 0;
}

/* log2 of cost / best cost per instance into v (np x ns); failures = inf */
static void perf_ratios(const bench_csv *T, const prof *P, int c, double *v)
{
    static const char *const cols[3] = {"time_s", "iter_to_tol", "work"};
    static const double floor_c[3] = {1e-9, 1.0, 1.0};
    int col = bench_csv_col(T, cols[c]), cs = bench_csv_col(T, "status");
    for (int p = 0; p < P->np; p++)
        for (int s = 0; s < P->ns; s++) {
            int r = P->row[p * P->ns + s];
            double t = INFINITY;
            if (r >= 0 && !strcmp(bench_csv_get(T, r, cs), "converged"))
                t = bench_csv_num(T, r, col);
            v[p * P->ns + s] = t;
        }
    bench_profile_ratios(P->np, P->ns, v, floor_c[c]);
}

/* instances, labels and the row of each pair; 0, or 1 with one error line */
static int index_runs(const bench_csv *T, prof *P)
{
    int ci = bench_csv_col(T, "instance"), cl = bench_csv_col(T, "label");
    P->inst = lcp_calloc((size_t)T->nrow, sizeof *P->inst);
    P->label = lcp_calloc((size_t)T->nrow, sizeof *P->label);
    for (int r = 0; P->inst && P->label && r < T->nrow; r++) {
        const char *i = bench_csv_get(T, r, ci), *l = bench_csv_get(T, r, cl);
        if (index_of(P->inst, P->np, i) < 0) snprintf(P->inst[P->np++], BENCH_LABEL, "%s", i);
        if (index_of(P->label, P->ns, l) < 0) snprintf(P->label[P->ns++], BENCH_LABEL, "%s", l);
    }
    size_t nps = (size_t)P->np * (size_t)P->ns;
    P->row = lcp_malloc((nps + 1), sizeof(int));
    if (!P->inst || !P->label || !P->row) {
        bench_error(CMD, "out of memory");
        return 1;
    }
    for (size_t k = 0; k < nps; k++) P->row[k] = -1;
    for (int r = 0; r < T->nrow; r++)
        P->row[index_of(P->inst, P->np, bench_csv_get(T, r, ci)) * P->ns +
               index_of(P->label, P->ns, bench_csv_get(T, r, cl))] = r;
    return 0;
}

/* the performance and data profiles of the instances of P into out (the run folder dir's
 * runs T); v: np ns, kk: np ns NACC of work.  0, or 1 (*unread: a history could not be read) */
static int draw(const char *dir, const char *out, const bench_csv *T, const prof *P,
                const char *cost, bench_style style, double *v, double *kk, int *missing,
                int *figs, int *unread)
{
    int rc = 0, failures = bench_write_failures();
    size_t nps = (size_t)P->np * (size_t)P->ns;
    static const char *const costs[3] = {"time", "iterations", "work"};
    for (int c = 0; c < 3; c++) {
        if (strcmp(cost, "all") && strcmp(cost, costs[c])) continue;
        perf_ratios(T, P, c, v);
        char base[64], title[128], xl[64];
        snprintf(base, sizeof base, "perf-%s", costs[c]);
        snprintf(title, sizeof title, "performance profile: %s to the tolerance", costs[c]);
        snprintf(xl, sizeof xl, "log2(tau), tau = %s / best %s", costs[c], costs[c]);
        rc |= figure(out, base, P, v, 0.5, title, xl, style, missing);
        (*figs)++;
        if (bench_write_failures() != failures) return rc;   /* a full disk: stop */
    }
    for (int p = 0; p < P->np; p++)
        for (int s = 0; s < P->ns; s++) {
            int r = P->row[p * P->ns + s];
            double *k = kk + (size_t)(p * P->ns + s) * NACC;
            if (r >= 0 && reach(dir, T, r, k)) {    /* the staged figures are dropped */
                *unread = 1;
                return 1;
            }
            if (r < 0)
                for (int a = 0; a < NACC; a++) k[a] = INFINITY;
        }
    for (int a = 0; a < NACC; a++) {
        for (size_t k = 0; k < nps; k++) v[k] = kk[k * NACC + (size_t)a];
        char base[64], title[128];
        snprintf(base, sizeof base, "data-%.0e", accuracies[a]);
        snprintf(title, sizeof title, "data profile: ||r||_2 <= %.0e within k sweeps",
                 accuracies[a]);
        rc |= figure(out, base, P, v, 1.0, title, "sweeps k", style, missing);
        (*figs)++;
        if (bench_write_failures() != failures) return rc;
    }
    return rc;
}

/* --families FILE: a CSV with the columns instance and family (lcpbench families) */
static const char *family_of(const bench_csv *G, const char *inst)
{
    int ci = bench_csv_col(G, "instance"), cf = bench_csv_col(G, "family");
    for (int r = 0; r < G->nrow; r++)
        if (!strcmp(bench_csv_get(G, r, ci), inst)) return bench_csv_get(G, r, cf);
    return "";
}

int bench_cmd_profile(int argc, char **argv)
{
    const char *dir = NULL, *cost = "all", *fams = NULL;
    bench_style style = BENCH_STYLE_PAPER;
    int rc = parse(argc, argv, &dir, &cost, &style, &fams);
    if (rc) return rc == 3 ? 0 : rc;
    bench_csv G = {0};
    const char **fam = NULL;      /* the families of --families, in file order */
    int nfam = 0;
    if (fams) {
        char msg[BENCH_PATH + 400];
        if (bench_csv_read(fams, &G, msg, sizeof msg) != 0) {
            bench_error(CMD, "%s", msg);
            return 1;
        }
        int cf = bench_csv_col(&G, "family");
        fam = lcp_malloc((size_t)G.nrow + 1, sizeof *fam);
        if (bench_csv_col(&G, "instance") < 0 || cf < 0 || !fam) {
            bench_error(CMD, "%s: %s", fams, fam ? "no instance and family columns (lcpbench "
                                                   "families writes them)" : "out of memory");
            lcp_free(fam);
            bench_csv_free(&G);
            return 1;
        }
        for (int r = 0; r < G.nrow; r++) {
            const char *f = bench_csv_get(&G, r, cf);
            int seen = 0;
            for (int k = 0; k < nfam; k++) seen |= !strcmp(fam[k], f);
            if (!seen && *f && !strchr(f, '/') && f[0] != '.') fam[nfam++] = f;
        }
    }
    char path[BENCH_PATH + 64];
    bench_csv T;
    bench_stage st;
    int staged = 0, unread = 0;
    if (bench_incomplete(CMD, dir) || bench_read_runs(CMD, dir, &T)) {
        lcp_free(fam);
        bench_csv_free(&G);
        return 1;
    }
    if (bench_csv_col(&T, "instance") < 0 || bench_csv_col(&T, "label") < 0 ||
        bench_csv_col(&T, "status") < 0 || T.nrow == 0) {
        bench_error(CMD, "%s/runs.csv: not a runs.csv of lcpbench run, or no runs", dir);
        bench_csv_free(&T);
        lcp_free(fam);
        bench_csv_free(&G);
        return 1;
    }
    prof P = {0};
    size_t nps = (size_t)T.nrow * (size_t)T.nrow;
    double *v = NULL, *kk = NULL;
    if (index_runs(&T, &P)) {
        rc = 1;
        goto done;
    }
    nps = (size_t)P.np * (size_t)P.ns;
    v = lcp_malloc((nps + 1), sizeof(double));
    kk = lcp_malloc((nps * NACC + 1), sizeof(double));
    snprintf(path, sizeof path, "%s/profile", dir);
    if (!v || !kk) {
        bench_error(CMD, "out of memory");
        rc = 1;
        goto done;
    }
    if (bench_stage_open(CMD, &st, path, 1)) {   /* its files all moved in, or none */
        rc = 1;
        goto done;
    }
    staged = 1;
    int missing = 0, figs = 0;
    rc |= draw(dir, st.work, &T, &P, cost, style, v, kk, &missing, &figs, &unread);
    if (unread || bench_write_failures() != st.failures) goto done;
    for (int f = 0; fams && f < nfam && !rc; f++) {  /* --families: each family apart */
        prof Q = P;
        int *row = lcp_malloc(nps + 1, sizeof(int));
        char (*inst)[BENCH_LABEL] = lcp_calloc((size_t)P.np + 1, sizeof *inst);
        Q.np = 0;
        Q.row = row;
        Q.inst = inst;
        for (int p = 0; row && inst && p < P.np; p++) {
            if (strcmp(family_of(&G, P.inst[p]), fam[f])) continue;
            memcpy(inst[Q.np], P.inst[p], BENCH_LABEL);
            memcpy(row + (size_t)Q.np * P.ns, P.row + (size_t)p * P.ns, P.ns * sizeof(int));
            Q.np++;
        }
        char sub[BENCH_PATH + 300], msg[BENCH_PATH + 400];
        snprintf(sub, sizeof sub, "%s/family-%s", st.work, fam[f]);
        if (!row || !inst) {
            bench_error(CMD, "out of memory");
            rc = 1;
        } else if (Q.np > 0 && bench_mkdir_p(sub, msg, sizeof msg) != 0) {
            bench_error(CMD, "%s", msg);
            rc = 1;
        } else if (Q.np > 0) {                       /* a family without runs: no folder */
            rc |= draw(dir, sub, &T, &Q, cost, style, v, kk, &missing, &figs, &unread);
            fprintf(stderr, "lcpbench profile: family %s: %d instances in %s/family-%s\n",
                    fam[f], Q.np, path, fam[f]);
        }
        lcp_free(row);
        lcp_free(inst);
        if (unread || bench_write_failures() != st.failures) goto done;
    }
    if (bench_stage_merge(CMD, &st, 1)) rc = 1;
    staged = 0;
    if (missing)
        bench_error(CMD, "warning: gnuplot not found: wrote %d .gp scripts and data in %s, no "
                         "images (install gnuplot-nox, then run gnuplot FILE.gp there)", figs,
                    path);
    else if (rc == 0)
        fprintf(stderr, "lcpbench profile: %d figures over %d instances x %d settings in %s\n",
                figs, P.np, P.ns, path);
done:
    if (staged && (unread ? bench_stage_commit(CMD, &st, 0)    /* none moved */
                          : bench_stage_merge(CMD, &st, 1)))     /* a full disk: none moved */
        rc = 1;
    lcp_free(P.inst);
    lcp_free(P.label);
    lcp_free(P.row);
    lcp_free(v);
    lcp_free(kk);
    bench_csv_free(&T);
    lcp_free(fam);
    if (fams) bench_csv_free(&G);
    return rc;
}
