/* check.c: `lcpbench check [DIR]': the accuracy regression check.  DIR (default: the
 * source tree's results/check, else the installed copy; see default_dir) holds
 *     suite.txt      the regression suite (suite.c format): every committed instance x every
 *                    registered solver (`solver all'), no timing (reps=0)
 *     baseline.csv   the committed figures: instance,solver,figure,expected,bound
 *     instances/     small instances (make-instances.sh regenerates them)
 * The suite is run (quietly, into a temporary folder or --out), the figures are computed
 * from runs.csv and the residual histories, and each is compared with its baseline line:
 *     status         the status name (a peer's: the suite's verdict from its residual,
 *                    run.c); must equal `expected'
 *     peer_status    a peer's own status name (peers only); must equal `expected'
 *     iterations     sweeps to the tolerance (or done when capped): got <= bound
 *     residual@K     ||r||_2 after K sweeps (the last one when the run stopped earlier):
 *                    got <= bound (sweep solvers only: a direct run's history is one point)
 *     residual       ||r||_2 at the end of the run: got <= bound
 *     zdiff, wdiff   distance of the final z and w to the reference: got <= bound
 * Times are never compared.  Every regression prints one line naming instance, solver,
 * figure, expected and got, and the exit code is 1; a run with no baseline is a warning.
 * A baseline run is matched by instance and label (its `solver' column; a setting on a suite
 * line is part of the label).  Nothing matched: exit 1 and one line naming the labels not
 * matched, the peers this build lacks among them and the labels run instead.  Some baseline
 * runs missing: one REGRESSION line by label (exit 1), unless each is of a peer this build
 * lacks (siconos-, ode-, bullet- unknown to bench_solver_find): a note.
 * --update rewrites baseline.csv (a plain CSV; provenance.json beside it) with bands: iterations + max(2, 5%), residual@K x 1.5
 * (+1e-14), final residual x 1.5 (+1e-12), distances max(2x, 1e-10).  Cost: the suite's runs (seconds).
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cmd.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *CMD = "check";
static const int sample_k[] = {1, 10, 100, 1000};
enum { NSAMPLE = 4 };

typedef struct figure {
    char inst[BENCH_LABEL], solver[BENCH_LABEL], name[32], expected[64], bound[64];
    char got[64];
    double gotv;
} figure;

typedef struct figlist {
    int n, cap;
    figure *f;
} figlist;

static figure *fig_add(figlist *L, const char *inst, const char *solver, const char *name)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 256;
        figure *f = lcp_realloc(L->f, (size_t)cap, sizeof *f);
        if (!f) return NULL;
        L->f = f;
        L->cap = cap;
    }
    figure *g = &L->f[L->n++];
    memset(g, 0, sizeof *g);
    snprintf(g->inst, sizeof g->inst, "%s", inst);
    snprintf(g->solver, sizeof g->solver, "%s", solver);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->gotv = NAN;
    return g;
}

/* residuals of a history (the report kit's reader) at the sample sweeps; *last = last
 * recorded sweep */
static int samples(const char *dir, const char *file, double *r, int *last)
{
    bench_history h;
    for (int k = 0; k < NSAMPLE; k++) r[k] = NAN;
    *last = -1;
    char msg[4400];
    int hl = bench_history_load(dir, file, &h, msg, sizeof msg);
    if (hl < 0) bench_error(CMD, "%s", msg);              /* named but unreadable */
    if (hl != 0) return -1;
    for (int j = 0; j < h.n; j++) {
        for (int k = 0; k < NSAMPLE; k++)
            if (h.iter[j] <= sample_k[k]) r[k] = h.r2[j];   /* the value at K, or before it */
        *last = h.iter[j];
    }
    bench_history_free(&h);
    return 0;
}

/* the figures of every run of a run folder */
static int figures(const char *dir, figlist *L)
{
    bench_csv T;
    if (bench_read_runs(CMD, dir, &T)) return -1;
    int ci = bench_csv_col(&T, "instance"), cl = bench_csv_col(&T, "label");
    int cs = bench_csv_col(&T, "status"), cit = bench_csv_col(&T, "iterations");
    int ctt = bench_csv_col(&T, "iter_to_tol"), ch = bench_csv_col(&T, "history");
    int cz = bench_csv_col(&T, "zdiff"), cw = bench_csv_col(&T, "wdiff");
    int csv = bench_csv_col(&T, "solver"), cps = bench_csv_col(&T, "peer_status");
    int rc = 0;
    for (int r = 0; rc == 0 && r < T.nrow; r++) {
        const char *inst = bench_csv_get(&T, r, ci), *lab = bench_csv_get(&T, r, cl);
        figure *g = fig_add(L, inst, lab, "status");
        if (!g) {
            rc = -1;
            break;
        }
        snprintf(g->got, sizeof g->got, "%s", bench_csv_get(&T, r, cs));
        const char *own = bench_csv_get(&T, r, cps);   /* a peer's own status, "" for ours */
        if (own[0] && (g = fig_add(L, inst, lab, "peer_status")))
            snprintf(g->got, sizeof g->got, "%s", own);
        double it = bench_csv_num(&T, r, ctt);
        if (!isfinite(it)) it = bench_csv_num(&T, r, cit);
        if (isfinite(it) && (g = fig_add(L, inst, lab, "iterations"))) {
            g->gotv = it;
            snprintf(g->got, sizeof g->got, "%.0f", it);
        }
        double res[NSAMPLE];
        int last;
        const lcp_solver *sv = bench_solver_find(bench_csv_get(&T, r, csv));
        int sweeps = sv && !(sv->needs & LCP_DIRECT);   /* a direct run's history: 1 point */
        if (sweeps && samples(dir, bench_csv_get(&T, r, ch), res, &last) == 0)
            for (int k = 0; k < NSAMPLE; k++) {
                char nm[32];
                snprintf(nm, sizeof nm, "residual@%d", sample_k[k]);
                if (isfinite(res[k]) && sample_k[k] <= last && (g = fig_add(L, inst, lab, nm))) {
                    g->gotv = res[k];
                    snprintf(g->got, sizeof g->got, "%.6e", res[k]);
                }
            }
        const char *dn[3] = {"residual", "zdiff", "wdiff"};
        int dc[3] = {bench_csv_col(&T, "residual"), cz, cw};
        for (int d = 0; d < 3; d++) {
            double v = bench_csv_num(&T, r, dc[d]);
            if (isfinite(v) && (g = fig_add(L, inst, lab, dn[d]))) {
                g->gotv = v;
                snprintf(g->got, sizeof g->got, "%.6e", v);
            }
        }
        if (!g) rc = -1;
    }
    bench_csv_free(&T);
    if (rc) bench_error(CMD, "out of memory");
    return rc;
}

/* got value of a named figure in L, or NULL */
static const figure *fig_find(const figlist *L, const char *inst, const char *solver,
                              const char *name)
{
    for (int k = 0; k < L->n; k++)
        if (!strcmp(L->f[k].inst, inst) && !strcmp(L->f[k].solver, solver) &&
            !strcmp(L->f[k].name, name))
            return &L->f[k];
    return NULL;
}

/* baseline.csv (plain CSV) and provenance.json in its folder */
static int write_baseline(const char *path, const figlist *L, int argc, char **argv)
{
    bench_out o;
    if (!bench_open(CMD, &o, path, 1)) return 1;
    fprintf(o.f, "instance,solver,figure,expected,bound\n");
    for (int k = 0; k < L->n; k++) {
        const figure *g = &L->f[k];
        double v = g->gotv;
        bench_csv_field(o.f, g->inst);
        fputc(',', o.f);
        bench_csv_field(o.f, g->solver);
        if (!strcmp(g->name, "status") || !strcmp(g->name, "peer_status")) {
            fprintf(o.f, ",%s,%s,\n", g->name, g->got);
        } else if (!strcmp(g->name, "iterations")) {
            double band = ceil(0.05 * v);
            fprintf(o.f, ",iterations,%.0f,%.0f\n", v, v + (band > 2 ? band : 2));
        } else if (!strcmp(g->name, "residual")) {
            fprintf(o.f, ",residual,%.6e,%.6e\n", v, 1.5 * v + 1e-12);
        } else if (!strncmp(g->name, "residual@", 9)) {
            fprintf(o.f, ",%s,%.6e,%.6e\n", g->name, v, 1.5 * v + 1e-14);
        } else {
            fprintf(o.f, ",%s,%.6e,%.6e\n", g->name, v, fmax(2 * v, 1e-10));
        }
    }
    if (bench_close(CMD, &o)) return 1;
    char dir[BENCH_PATH + 64];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    return bench_provenance_json(CMD, dir, argc, argv);
}

static const char *text_or(const bench_text *b, const char *none)
{
    return b->n && !b->failed ? b->s : none;
}

/* A baseline label that names a peer library's solver (bench_solver_library) which
 * this build does not have.  A label is the solver's name, or solver:key=value;... when a
 * suite line gives settings (suite.c); a label= of the suite's own is neither. */
static int peer_lacking(const char *label)
{
    char s[BENCH_LABEL];
    snprintf(s, sizeof s, "%s", label);
    char *colon = strchr(s, ':');
    if (colon) *colon = 0;
    return !bench_solver_find(s) && strcmp(bench_solver_library(s), "ours") != 0;
}

/* one run of the baseline (instance x label) and whether this check ran it */
typedef struct brun {
    const char *inst, *label;
    int matched, done;
} brun;

/* the baseline's runs that found no run here, one entry per label: "LABEL (k of n runs:
 * INST, ...)", into peers (peers this build lacks) or other; *npeer, *nother runs */
static void unmatched(brun *R, int nr, bench_text *peers, bench_text *other, int *npeer,
                      int *nother)
{
    for (int k = 0; k < nr; k++) {
        if (R[k].matched || R[k].done) continue;
        int peer = peer_lacking(R[k].label), miss = 0, all = 0;
        bench_text *b = peer ? peers : other;
        for (int j = k; j < nr; j++)
            if (!strcmp(R[j].label, R[k].label)) {
                all++;
                miss += !R[j].matched;
            }
        bench_text_add(b, "%s%s (%d of %d runs:", b->n ? "; " : "", R[k].label, miss, all);
        for (int j = k, shown = 0; j < nr; j++) {
            if (R[j].matched || strcmp(R[j].label, R[k].label)) continue;
            R[j].done = 1;
            if (shown < 6) bench_text_add(b, " %s", R[j].inst);
            else if (shown == 6) bench_text_add(b, " ...");
            shown++;
        }
        bench_text_add(b, ")");
        *(peer ? npeer : nother) += miss;
    }
}

/* 0: every baseline run compared (or lacking a peer) and within its bands; 1: a regression
 * (lines printed); 2: nothing compared (one line printed) */
/* Line r of baseline B (columns col: instance, solver, figure, expected, bound) against its
 * figure in L: 1 (one line printed) when it is a regression.  Statuses must be equal, the
 * other figures within their bound. */
static int compare_line(const char *path, const bench_csv *B, int r, const int *col,
                        const figlist *L)
{
    const char *inst = bench_csv_get(B, r, col[0]), *sol = bench_csv_get(B, r, col[1]);
    const char *fig = bench_csv_get(B, r, col[2]), *exp = bench_csv_get(B, r, col[3]);
    const figure *g = fig_find(L, inst, sol, fig);
    if (!g) {
        fprintf(stderr, "lcpbench check: REGRESSION %s %s %s: expected %s, got no value\n",
                inst, sol, fig, exp);
        return 1;
    }
    if (!strcmp(fig, "status") || !strcmp(fig, "peer_status")) {
        if (!strcmp(g->got, exp)) return 0;
        fprintf(stderr, "lcpbench check: REGRESSION %s %s %s: expected %s, got %s\n", inst, sol,
                fig, exp, g->got);
        return 1;
    }
    double bound = bench_csv_num(B, r, col[4]);
    if (!isfinite(bound)) {
        bench_error(CMD, "%s: line for %s %s %s has no numeric bound", path, inst, sol, fig);
        return 1;
    }
    if (g->gotv <= bound) return 0;
    fprintf(stderr, "lcpbench check: REGRESSION %s %s %s: expected %s (bound %s), got %s\n",
            inst, sol, fig, exp, bench_csv_get(B, r, col[4]), g->got);
    return 1;
}

/* The runs here with no baseline run (of R[0..nr)): their labels into fresh, a warning
 * each when warn; how many */
static int fresh_runs(const figlist *L, const brun *R, int nr, int warn, bench_text *fresh)
{
    int nfresh = 0;
    for (int k = 0; k < L->n; k++) {
        if (strcmp(L->f[k].name, "status")) continue;
        int known = 0, seen = 0;
        for (int j = 0; !known && j < nr; j++)
            known = !strcmp(R[j].inst, L->f[k].inst) && !strcmp(R[j].label, L->f[k].solver);
        if (known) continue;
        nfresh++;
        for (int j = 0; !seen && j < k; j++)
            seen = !strcmp(L->f[j].name, "status") && !strcmp(L->f[j].solver, L->f[k].solver);
        if (!seen) bench_text_add(fresh, "%s%s", fresh->n ? ", " : "", L->f[k].solver);
        if (warn)
            fprintf(stderr, "lcpbench check: warning: %s %s has no baseline (lcpbench check "
                            "--update records it)\n", L->f[k].inst, L->f[k].solver);
    }
    return nfresh;
}

static int compare(const char *path, const figlist *L, int *nfig, int *nrun)
{
    char msg[4400];
    bench_csv B;
    if (bench_csv_read(path, &B, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s", msg);
        return 1;
    }
    const int col[5] = {bench_csv_col(&B, "instance"), bench_csv_col(&B, "solver"),
                        bench_csv_col(&B, "figure"), bench_csv_col(&B, "expected"),
                        bench_csv_col(&B, "bound")};
    const int ci = col[0], cs = col[1];
    if (ci < 0 || cs < 0 || col[2] < 0 || col[3] < 0 || col[4] < 0) {
        bench_error(CMD, "%s: not a baseline (instance,solver,figure,expected,bound)", path);
        bench_csv_free(&B);
        return 1;
    }
    /* the baseline's runs (its `solver' column is the run's label) and which ran here */
    brun *R = lcp_calloc((size_t)B.nrow + 1, sizeof *R);
    int *of = lcp_calloc((size_t)B.nrow + 1, sizeof *of), nr = 0;
    if (!R || !of) {
        bench_error(CMD, "out of memory");
        lcp_free(R);
        lcp_free(of);
        bench_csv_free(&B);
        return 1;
    }
    for (int r = 0; r < B.nrow; r++) {
        const char *inst = bench_csv_get(&B, r, ci), *sol = bench_csv_get(&B, r, cs);
        int k = nr - 1; /* a run's lines are adjacent in a written baseline: try the last */
        if (k < 0 || strcmp(R[k].inst, inst) || strcmp(R[k].label, sol))
            for (k = 0; k < nr; k++)
                if (!strcmp(R[k].inst, inst) && !strcmp(R[k].label, sol)) break;
        if (k == nr) R[nr++] = (brun){inst, sol, fig_find(L, inst, sol, "status") != NULL, 0};
        of[r] = k;
    }
    int bad = 0;
    *nfig = *nrun = 0;
    for (int k = 0; k < nr; k++) *nrun += R[k].matched;
    for (int r = 0; r < B.nrow; r++) {
        if (!R[of[r]].matched) continue; /* summed up below, by label */
        ++*nfig;
        bad |= compare_line(path, &B, r, col, L);
    }
    /* the baseline's runs with no run here, and the runs here with no baseline */
    bench_text peers = {0}, other = {0}, fresh = {0};
    int npeer = 0, nother = 0;
    unmatched(R, nr, &peers, &other, &npeer, &nother);
    int nfresh = fresh_runs(L, R, nr, *nrun > 0, &fresh);
    if (peers.failed || other.failed || fresh.failed) {
        bench_error(CMD, "out of memory");
        bad = 1;
    } else if (*nrun == 0) { /* nothing compared: one line with the reason */
        fprintf(stderr, "lcpbench check: FAILED: nothing compared: none of the %d runs of %s "
                        "has a run in this check; baseline labels not matched: %s; of them "
                        "peers this build lacks: %s; labels run here with no baseline: %s%s\n",
                nr, path, text_or(&other, nr ? "none besides the peers" : "none (the baseline "
                                                                          "holds no runs)"),
                text_or(&peers, "none"), text_or(&fresh, "none"),
                nother && nfresh ? " (a changed setting changes the label: review, then "
                                   "lcpbench check --update)" : "");
        bad = 2;
    } else {
        if (nother) {
            fprintf(stderr, "lcpbench check: REGRESSION %d baseline runs have no run here "
                            "(a changed setting changes the label; an instance or solver "
                            "gone): %s\n", nother, other.s);
            bad = 1;
        }
        if (npeer)
            fprintf(stderr, "lcpbench check: note: %d baseline runs of peers this build lacks "
                            "were not checked: %s\n", npeer, peers.s);
    }
    lcp_free(peers.s);
    lcp_free(other.s);
    lcp_free(fresh.s);
    lcp_free(R);
    lcp_free(of);
    bench_csv_free(&B);
    return bad;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* the folder the suite runs in: --out (empty), else a new temporary one; 0 or 1 */
static int run_folder(const char *out, char *tmp, size_t len)
{
    if (out && bench_dir_nonempty(out)) {
        bench_error(CMD, "%s is not empty", out);
        return 1;
    }
    if (out) {
        snprintf(tmp, len, "%s", out);
        return 0;
    }
    const char *td = getenv("TMPDIR");
    snprintf(tmp, len, "%s/lcpbench-check-XXXXXX", td && *td ? td : "/tmp");
    if (mkdtemp(tmp)) return 0;
    bench_error(CMD, "cannot create a temporary folder: %s", strerror(errno));
    return 1;
}

/* The committed check folder: this build's source tree, else the installed data, else
 * results/check under the current folder (whichever has a readable suite.txt first). */
static const char *default_dir(char *buf, size_t len)
{
    const char *roots[2] = {LCPBENCH_SOURCE_ROOT "/results/check",
                            LCPBENCH_DATADIR "/results/check"};
    for (int k = 0; k < 2; k++) {
        snprintf(buf, len, "%s/suite.txt", roots[k]);
        if (access(buf, R_OK) == 0) {
            snprintf(buf, len, "%s", roots[k]);
            return buf;
        }
    }
    return "results/check";
}

static void help(void)
{
    printf("usage: lcpbench check [DIR] [--update] [--baseline FILE] [--out RUNDIR]\n"
           "\n"
           "Accuracy regression check: run DIR/suite.txt with no timing and compare each\n"
           "figure with DIR/baseline.csv.  Default DIR: results/check of the source tree this\n"
           "lcpbench was built from (" LCPBENCH_SOURCE_ROOT "),\n"
           "else the installed copy (" LCPBENCH_DATADIR "/results/check).\n"
           "Figures:\n"
           "  status (must be equal), iterations to the tolerance, residual@K (||r||_2 after\n"
           "  K = 1, 10, 100, 1000 sweeps), the final residual, zdiff and wdiff (distance to\n"
           "  the reference):"
           " got <= bound.  Times are never compared.\n"
           "Each regression prints one line (instance, solver, figure, expected, got); exit 1.\n"
           "  --update          rewrite DIR/baseline.csv from this run (bands: iterations\n"
           "                    + max(2, 5%%), residuals x 1.5, distances max(2x, 1e-10))\n"
           "  --baseline FILE   compare with FILE instead of DIR/baseline.csv\n"
           "  --out RUNDIR      keep the run folder (default: a temporary folder, removed)\n");
}

/* the check folder: one */
static int folder(const char *cmd, const char *w, void *to)
{
    if (*(const char **)to) {
        bench_error(cmd, "one check folder at a time");
        return -1;
    }
    *(const char **)to = w;
    return 0;
}

int bench_cmd_check(int argc, char **argv)
{
    const char *dir = NULL, *baseline = NULL, *out = NULL;
    int update = 0;
    const bench_arg args[] = {
        {"--update", BENCH_ARG_FLAG, &update, NULL, "rewrite DIR/baseline.csv"},
        {"--baseline", BENCH_ARG_VALUE, &baseline, NULL, "compare with FILE"},
        {"--out", BENCH_ARG_VALUE, &out, NULL, "keep the run folder"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), folder, &dir, NULL, NULL, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) help();
    if (r) return r == BENCH_ARGS_HELP ? 0 : 2;
    char suite[BENCH_PATH + 32], base[BENCH_PATH + 32], tmp[BENCH_PATH], defdir[BENCH_PATH];
    if (!dir) dir = default_dir(defdir, sizeof defdir);
    if (bench_incomplete(CMD, dir)) return 1;
    snprintf(suite, sizeof suite, "%s/suite.txt", dir);
    snprintf(base, sizeof base, "%s/baseline.csv", dir);
    if (!baseline) baseline = base;
    if (access(suite, R_OK) != 0) {
        bench_error(CMD, "%s: cannot read: %s", suite, strerror(errno));
        return 1;
    }
    if (!update && access(baseline, R_OK) != 0) {
        bench_error(CMD, "%s: cannot read: %s (lcpbench check --update creates it)", baseline,
                    strerror(errno));
        return 1;
    }
    if (run_folder(out, tmp, sizeof tmp)) return 1;
    bench_suite S;
    int rc = bench_suite_load(CMD, suite, NULL, 0, &S);
    figlist L = {0};
    long runs = 0;
    int nfig = 0, nrun = 0;
    if (rc == 0) {
        runs = bench_suite_runs(&S);
        int g = bench_grid_run(CMD, &S, tmp, 1, 1, argc, argv);
        (void)g;   /* failed runs show up as changed statuses */
        bench_suite_free(&S);
        rc = figures(tmp, &L) != 0 ? 1 : 0;
    }
    if (rc == 0 && update) {
        rc = write_baseline(baseline, &L, argc, argv);
        if (rc == 0)
            printf("lcpbench check: wrote %d figures of %ld runs to %s\n", L.n, runs, baseline);
    } else if (rc == 0) {
        rc = compare(baseline, &L, &nfig, &nrun);
        if (rc == 0)
            printf("lcpbench check: %d figures of %d runs within their bands (%s)\n", nfig,
                   nrun, baseline);
        else if (rc == 1)
            fprintf(stderr, "lcpbench check: FAILED against %s\n", baseline);
        rc = rc != 0; /* 2: nothing compared, said in one line */
    }
    lcp_free(L.f);
    if (!out) nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}
