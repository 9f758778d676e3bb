/* peers.c: `lcpbench table peers': the peer libraries' solvers (Siconos Numerics,
 * ODE's Dantzig as DART ships it, Bullet's MLCP solvers; lcp/README.md, "Solvers", Peers; the comparison: results/README.md, "peers/") beside
 * every solver of ours, on the same instances, with one residual and one reference.
 *
 * Instances: every folder of problems/instances/ (relative to the working directory: run it
 * from the source tree) and the folders given with --instances (--no-canonical: only
 * those).  Solvers: every registered solver, each on the instances it supports
 * (lcp_solver_supports: the pairs it refuses are listed, not run); solvers flagged dense in
 * the registry (every peer, lemke-ref, the explicit AMGS) only on instances of at most
 * DENSE_CAP rows, to keep the table within minutes (measured: ode-dantzig 13 s and
 * lemke-ref over 2 minutes per solve on 868 to 1530 rows).  --timeout S is passed to every
 * run (the suite's `set timeout=S', so runs.csv's timeout column carries it): a run past S
 * seconds is stopped (its forked child killed, measure.c) and listed as timed out, a
 * failure; ldlt-ref's reference answer is computed apart, unlimited.  Every run: cold start,
 * tol 1e-6 and maxit 10000 (--maxit) asked of every solver; ours stop at ||r||_2 <= tol, each
 * peer maps them onto its own test and its own cap and stops by that.  jacobi runs with
 * omega auto, the others with their defaults.  The reference of zdiff/wdiff is ldlt-ref's
 * answer (zref.mtx when the folder has one).  The runs go through the suite runner
 * (bench_grid_run: the recording run, one warm-up and --reps timing runs), so runs.csv and
 * history/ are a run folder like any other (`lcpbench profile DIR', `lcpbench plot DIR');
 * --reps timing runs (default REPS), one for dense solvers on more than DENSE_ONE rows.
 *
 * A run SOLVES an instance when it gave an answer (status >= 0) whose ||r||_2, the harness's
 * residual, is at most 1e-6, the tolerance asked.  It FAILS when it was refused (by the
 * registry, by the peer at run time, or skipped by the size cap), its ||r||_2 is above
 * 1e-6 whatever its own status, or it timed out: each reason is listed per tool; zdiff is
 * reported, never a failure.  A peer's status is the suite's verdict from ||r||_2 (run.c),
 * its own in peer_status.  A time measured at the iteration cap (at_cap) is an upper bound:
 * marked, and left out of the speed findings (not tested).
 * Profiles over all instances, one curve per library (ours, Siconos, ODE, Bullet: on each
 * instance the best of its solvers; 24 curves would not read in one column): performance
 * profile of the median time (failures = not solved), data profiles of the time to reach
 * ||r||_2 <= eps for eps = 1e-4, 1e-6, 1e-10 (from the history's times, or the median time
 * of a run without one), drawn by profile.c's step-function writer.
 * Findings (kit.h, claims) with thresholds fixed here: per peer, that it solves every instance it
 * accepts, and that it is faster than the fastest of our solvers that solves the same
 * instance; and that ldlt-ref's residual is at rounding, row by row, everywhere.
 * Outputs in DIR: peers.md, peers.csv (every instance x solver, run or not), failures.csv,
 * claims.csv, plots/perf-time and plots/data-EPS (.csv/.gp/.png/.pdf), runs.csv, history/.
 * Cost: the runs (a few minutes on the canonical instances) plus reading their histories.
 */
#include "tables.h"

#include <float.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { DENSE_CAP = 600, DENSE_ONE = 300, MAXIT = 10000, REPS = 3, NEPS = 3, NOTE = 160 };
static const double TOL = 1e-6;       /* the stopping tolerance asked of every solver, and the
                                         failure rule: ||r||_2 above it (zdiff is reported) */
/* ldlt-ref at rounding: every row's natural residual within ROUND_EPS eps of its own rounding
 * scale, |r_i| <= 16 eps ((|A||z|)_i + |q_i|): the oracle's own test of "solved to rounding"
 * (reference/README.md, its status `converged'), fixed before the run.  Row-wise, not
 * norm-wise: ||r||_2 / max(1, ||q||_2) compares a row's rounding with the largest q, and on
 * mass-ratio-1e4 (|A| up to 6e4) it is 8.8e-12 with every row at 1.1e-16 of its own scale. */
static const double ROUND_EPS = 16;
static const double EPS[NEPS] = {1e-4, 1e-6, 1e-10};

typedef struct inst {
    char name[BENCH_LABEL], path[BENCH_PATH];
    int m, symmetric;
    const char *kind;        /* "standard", "box", "friction" */
} inst;

typedef struct cell {        /* one instance x solver */
    int row;                 /* runs.csv row, -1 when not run */
    char status[48];         /* runs.csv's: for a peer, the suite's verdict from ||r||_2 */
    char peer_status[48];    /* a peer's own status, "" for ours */
    int solved, accepted;
    int capped;              /* its time was measured at its iteration cap: an upper bound */
    double res, rel, zdiff, wdiff, t, tmin, tmax, tsetup, its;
    char why[NOTE];          /* not run: why; run: its failures ("; "-joined), "" = none */
} cell;

typedef struct peers {
    int np, ns;
    inst *I;
    const lcp_solver **S;
    cell *C;                 /* np x ns */
    int have_max, have_setup;
    double wall, load0, load1;
} peers;

/* timing runs: --reps, else REPS (a full run of this table stays within minutes) */
static int reps(const bench_table_ctx *t) { return t->reps_given ? t->reps : REPS; }

static cell *at(const peers *Q, int p, int s) { return &Q->C[(size_t)p * Q->ns + s]; }

static int is_peer(const lcp_solver *s)
{
    return strcmp(bench_solver_library(s->name), "ours") != 0;
}

static double loadavg(void)
{
    double l = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = NAN;
        fclose(f);
    }
    return l;
}

/* ---- the instances ---------------------------------------------------------------------- */

static int add_inst(const char *cmd, peers *Q, int *cap, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        bench_error(cmd, "%s: not an instance folder", path);
        return 1;
    }
    if (strpbrk(path, " \t\r\n#")) {
        bench_error(cmd, "%s: blanks and # are not allowed in instance paths", path);
        return 1;
    }
    if (Q->np == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        inst *n = lcp_realloc(Q->I, (size_t)*cap, sizeof *n);
        if (!n) {
            bench_error(cmd, "out of memory");
            return 1;
        }
        Q->I = n;
    }
    inst *I = &Q->I[Q->np];
    memset(I, 0, sizeof *I);
    snprintf(I->path, sizeof I->path, "%s", path);
    size_t n = strlen(I->path);
    while (n > 1 && I->path[n - 1] == '/') I->path[--n] = 0;
    const char *b = strrchr(I->path, '/');
    snprintf(I->name, sizeof I->name, "%s", b ? b + 1 : I->path);
    if (strpbrk(I->name, ",\"")) {
        bench_error(cmd, "%s: instance names may not hold , or \"", path);
        return 1;
    }
    for (int k = 0; k < Q->np; k++)
        if (!strcmp(Q->I[k].name, I->name)) {
            bench_error(cmd, "two instances named '%s' (%s and %s)", I->name, Q->I[k].path,
                        I->path);
            return 1;
        }
    Q->np++;
    return 0;
}

static int collect(const bench_table_ctx *t, peers *Q)
{
    int cap = 0;
    if (!t->no_canonical) {
        glob_t g;
        int gr = glob("problems/instances/*", 0, NULL, &g);
        if (gr != 0 || g.gl_pathc == 0) {
            if (gr == 0) globfree(&g);
            bench_error(t->cmd, "no problems/instances/* here: run from the source tree, or "
                                "give --instances DIR... --no-canonical");
            return 1;
        }
        for (size_t k = 0; k < g.gl_pathc; k++)
            if (add_inst(t->cmd, Q, &cap, g.gl_pathv[k])) {
                globfree(&g);
                return 1;
            }
        globfree(&g);
    }
    for (int k = 0; k < t->ninst; k++)
        if (add_inst(t->cmd, Q, &cap, t->inst[k])) return 1;
    return 0;
}

/* read each instance, decide every pair (run, refused, skipped) and write the suite */
static int plan(const bench_table_ctx *t, peers *Q, bench_text *suite)
{
    char msg[8400];
    /* --timeout on every run (0: none); each run's row carries it (runs.csv `timeout') */
    bench_text_add(suite, "suite peers\nset tol=%g maxit=%ld reps=%d warm=0 timeout=%.17g\n", TOL,
        t->maxit ? t->maxit : (long)MAXIT, reps(t), t->timeout);
    for (int p = 0; p < Q->np; p++) {
        inst *I = &Q->I[p];
        lcp_problem P;
        lcp_problem_init(&P);
        if (lcp_read_instance(I->path, &P, msg, sizeof msg) != LCP_OK) {
            bench_error(t->cmd, "%s", msg);
            lcp_problem_free(&P);
            return 1;
        }
        I->m = P.m;
        I->symmetric = P.symmetric;
        I->kind = "standard";
        for (int i = 0; i < P.m; i++) {
            if (P.findex && P.findex[i] >= 0) I->kind = "friction";
            else if ((P.lo[i] != 0.0 || P.hi[i] != INFINITY) && strcmp(I->kind, "friction"))
                I->kind = "box";
        }
        bench_text_add(suite, "grid\ninstance %s name=%s ref=ldlt-ref\n", I->path, I->name);
        for (int s = 0; s < Q->ns; s++) {
            const lcp_solver *S = Q->S[s];
            cell *c = at(Q, p, s);
            lcp_status st = lcp_solver_supports(S, &P);
            c->row = -1;
            if (st != LCP_OK) {
                snprintf(c->status, sizeof c->status, "%s", lcp_status_str(st));
                snprintf(c->why, sizeof c->why, "refused (%s)", lcp_status_str(st));
            } else if ((S->needs & LCP_DENSE) && P.m > DENSE_CAP) {
                snprintf(c->status, sizeof c->status, "skipped");
                snprintf(c->why, sizeof c->why, "skipped (dense, %d rows > %d)", P.m,
                         DENSE_CAP);
            } else {
                /* a dense solver's solve on more than DENSE_ONE rows takes a second or more
                 * here: one timing run */
                int one = (S->needs & LCP_DENSE) && P.m > DENSE_ONE && reps(t) > 1;
                bench_text_add(suite, "solver %s%s%s\n", S->name,
                    strcmp(S->name, "jacobi") ? "" : " omega=auto label=jacobi",
                    one ? " reps=1" : "");
            }
        }
        lcp_problem_free(&P);
    }
    if (suite->failed) bench_error(t->cmd, "out of memory");
    return suite->failed;
}

/* ---- the runs' numbers ------------------------------------------------------------------- */

static int refusal(const char *st)
{
    return !strcmp(st, "unsupported") || !strcmp(st, "needs-symmetric") ||
           !strcmp(st, "too-large") || !strcmp(st, "needs-factors");
}

/* why the run of cell c failed ("" when it solved): refused, or ||r||_2 above the
 * tolerance asked, with the status and a peer's own status beside it */
static void failure(cell *c)
{
    char b[NOTE];
    if (!c->accepted)
        snprintf(c->why, NOTE, "refused by the solver (%s)", c->status);
    else if (!c->solved)
        snprintf(c->why, NOTE, "residual %s > 1e-6; status %s%s%s",
                 bench_fmt(b, sizeof b, c->res, "%.1e"), c->status,
                 c->peer_status[0] ? ", its own " : "", c->peer_status);
}

/* A time measured at the iteration cap: the run used its whole budget (iterations >= maxit)
 * without reaching the tolerance at that sweep (iter_to_tol), so its timing runs repeated
 * the whole cap (Bullet's PGS does not report its sweeps: always).  Speed claims leave it
 * out (not tested). */
static int at_cap(const bench_csv *T, int r)
{
    double its = bench_csv_num(T, r, bench_csv_col(T, "iterations"));
    double cap = bench_csv_num(T, r, bench_csv_col(T, "maxit"));
    double hit = bench_csv_num(T, r, bench_csv_col(T, "iter_to_tol"));
    return isfinite(cap) && its >= cap && !(hit == its);
}

static void read_cell(const bench_table_ctx *t, const bench_csv *T, int r, cell *c)
{
    snprintf(c->status, sizeof c->status, "%s", bench_csv_get(T, r, bench_csv_col(T, "status")));
    snprintf(c->peer_status, sizeof c->peer_status, "%s",
             bench_csv_get(T, r, bench_csv_col(T, "peer_status")));
    c->res = bench_csv_num(T, r, bench_csv_col(T, "residual"));
    c->rel = bench_csv_num(T, r, bench_csv_col(T, "rel_residual"));
    c->zdiff = bench_csv_num(T, r, bench_csv_col(T, "zdiff"));
    c->wdiff = bench_csv_num(T, r, bench_csv_col(T, "wdiff"));
    c->t = bench_csv_num(T, r, bench_csv_col(T, "time_s"));
    c->tmin = bench_csv_num(T, r, bench_csv_col(T, "time_min_s"));
    c->tmax = bench_csv_num(T, r, bench_csv_col(T, "time_max_s"));
    c->tsetup = bench_csv_num(T, r, bench_csv_col(T, "time_setup_s"));
    c->its = bench_csv_num(T, r, bench_csv_col(T, "iterations"));
    c->capped = isfinite(c->t) && at_cap(T, r);
    c->accepted = !refusal(c->status);
    c->solved = c->accepted && isfinite(c->res) && c->res <= TOL;
    if (!strcmp(c->status, "timeout")) /* stopped at --timeout: no answer */
        snprintf(c->why, NOTE, "timed out (--timeout %g s)", t->timeout);
    else failure(c);
}

static void read_cells(const bench_table_ctx *t, const bench_csv *T, peers *Q)
{
    Q->have_max = bench_csv_col(T, "time_max_s") >= 0;
    Q->have_setup = bench_csv_col(T, "time_setup_s") >= 0;
    for (int p = 0; p < Q->np; p++)
        for (int s = 0; s < Q->ns; s++) {
            cell *c = at(Q, p, s);
            c->res = c->rel = c->zdiff = c->wdiff = c->t = c->tmin = c->tmax = c->tsetup =
                c->its = NAN;
            if (c->why[0]) continue;   /* refused or skipped before the runs */
            int r = bench_runs_find(T, Q->I[p].name, Q->S[s]->name);
            c->row = r;
            if (r < 0) {
                snprintf(c->status, sizeof c->status, "missing");
                snprintf(c->why, sizeof c->why, "no run in runs.csv");
                continue;
            }
            read_cell(t, T, r, c);
        }
}

/* the fastest solver of ours that solves instance p (-1 when none) */
static int fastest_ours(const peers *Q, int p)
{
    int best = -1;
    for (int s = 0; s < Q->ns; s++) {
        const cell *c = at(Q, p, s);
        if (is_peer(Q->S[s]) || !c->solved || c->capped || !isfinite(c->t)) continue;
        if (best < 0 || c->t < at(Q, p, best)->t) best = s;
    }
    return best;
}

/* ---- outputs ------------------------------------------------------------------------------ */

static int write_csv(const bench_table_ctx *t, const peers *Q)
{
    static const char *const head[] = {
        "instance", "rows", "problem", "solver", "library", "ran", "status", "peer_status",
        "iterations", "residual", "rel_residual", "zdiff", "wdiff", "time_s", "time_min_s",
        "time_max_s", "time_setup_s", "time_at_cap", "solved", "failure"};
    static const char *const fhead[] = {"tool", "library", "instance", "rows", "failure",
                                        "status", "peer_status", "residual", "zdiff"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "peers.csv", t->force, 20, head)) return 1;
    for (int p = 0; p < Q->np; p++)
        for (int s = 0; s < Q->ns; s++) {
            const cell *c = at(Q, p, s);
            bench_csvw_str(&w, Q->I[p].name);
            bench_csvw_int(&w, Q->I[p].m);
            bench_csvw_str(&w, Q->I[p].kind);
            bench_csvw_str(&w, Q->S[s]->name);
            bench_csvw_str(&w, bench_solver_library(Q->S[s]->name));
            bench_csvw_int(&w, c->row >= 0);
            bench_csvw_str(&w, c->status);
            bench_csvw_str(&w, c->peer_status);
            bench_csvw_num(&w, c->its, "%.0f");
            bench_csvw_num(&w, c->res, "%.6e");
            bench_csvw_num(&w, c->rel, "%.6e");
            bench_csvw_num(&w, c->zdiff, "%.6e");
            bench_csvw_num(&w, c->wdiff, "%.6e");
            bench_csvw_num(&w, c->t, "%.6e");
            bench_csvw_num(&w, c->tmin, "%.6e");
            bench_csvw_num(&w, c->tmax, "%.6e");
            bench_csvw_num(&w, c->tsetup, "%.6e");
            bench_csvw_int(&w, c->capped);
            bench_csvw_int(&w, c->solved);
            bench_csvw_str(&w, c->why);
            bench_csvw_end(&w);
        }
    if (bench_csvw_close(&w, t->cmd)) return 1;
    if (bench_csvw_open(&w, t->cmd, t->out, "failures.csv", t->force, 9, fhead)) return 1;
    for (int s = 0; s < Q->ns; s++)
        for (int p = 0; p < Q->np; p++) {
            const cell *c = at(Q, p, s);
            if (!c->why[0]) continue;
            bench_csvw_str(&w, Q->S[s]->name);
            bench_csvw_str(&w, bench_solver_library(Q->S[s]->name));
            bench_csvw_str(&w, Q->I[p].name);
            bench_csvw_int(&w, Q->I[p].m);
            bench_csvw_str(&w, c->why);
            bench_csvw_str(&w, c->status);
            bench_csvw_str(&w, c->peer_status);
            bench_csvw_num(&w, c->res, "%.6e");
            bench_csvw_num(&w, c->zdiff, "%.6e");
            bench_csvw_end(&w);
        }
    return bench_csvw_close(&w, t->cmd);
}

/* seconds of run (p, s) to reach ||r||_2 <= eps: the history's time at its first sweep
 * there, or the run's median time when it has no history; inf when never */
static double time_to(const bench_table_ctx *t, const bench_csv *T, const peers *Q, int p,
                      int s, double eps)
{
    const cell *c = at(Q, p, s);
    if (c->row < 0 || !c->accepted) return INFINITY;
    bench_history h;
    const char *file = bench_csv_get(T, c->row, bench_csv_col(T, "history"));
    char msg[4400];
    if (bench_history_load(t->out, file, &h, msg, sizeof msg) == 0) {
        int it = bench_history_reach(&h, eps);
        double v = INFINITY;
        for (int k = 0; it >= 0 && k < h.n; k++)
            if (h.iter[k] == it) {
                v = h.t[k];
                if (!isfinite(v) && c->its > 0) v = c->t * it / c->its;
                break;
            }
        bench_history_free(&h);
        return isfinite(v) ? v : INFINITY;
    }
    return c->res <= eps && isfinite(c->t) ? c->t : INFINITY;
}

/* the libraries in the profiles: each one curve, its best solver per instance */
static const char *const LIBS[] = {"ours", "siconos", "ode", "bullet"};
static const char *const LIBNAME[] = {"ours", "Siconos", "ODE (DART)", "Bullet"};
enum { NLIB = 4 };

static int profiles(const bench_table_ctx *t, const bench_csv *T, const peers *Q)
{
    char dir[BENCH_PATH + 16];
    snprintf(dir, sizeof dir, "%s/plots", t->out);
    int nl = 0, rc = 0, missing = 0, lib[NLIB];
    char names[NLIB][64];
    const char *label[NLIB];
    double *v = lcp_malloc(((size_t)Q->np * NLIB + 1), sizeof(double));
    if (!v) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    for (int l = 0; l < NLIB; l++) {   /* the libraries with a run somewhere */
        int ran = 0, n = 0;
        for (int s = 0; s < Q->ns; s++) {
            if (strcmp(bench_solver_library(Q->S[s]->name), LIBS[l])) continue;
            n++;
            for (int p = 0; p < Q->np; p++) ran |= at(Q, p, s)->row >= 0;
        }
        if (!ran) continue;
        if (n > 1) snprintf(names[nl], 64, "%s (best of %d)", LIBNAME[l], n);
        else snprintf(names[nl], 64, "%s", LIBNAME[l]);
        label[nl] = names[nl];
        lib[nl++] = l;
    }
    /* cost of library k on instance p: its best solver's (e < 0: median time of a solving
     * run; else the time to ||r||_2 <= EPS[e]) */
    for (int e = -1; e < NEPS; e++) {
        for (int p = 0; p < Q->np; p++)
            for (int k = 0; k < nl; k++) {
                double best = INFINITY;
                for (int s = 0; s < Q->ns; s++) {
                    if (strcmp(bench_solver_library(Q->S[s]->name), LIBS[lib[k]])) continue;
                    const cell *c = at(Q, p, s);
                    double x = e < 0 ? (c->solved && isfinite(c->t) ? c->t : INFINITY)
                                     : time_to(t, T, Q, p, s, EPS[e]);
                    if (x < best) best = x;
                }
                v[p * nl + k] = e >= 0 && isfinite(best) ? log10(fmax(best, 1e-9)) : best;
            }
        if (e < 0) {
            bench_profile_ratios(Q->np, nl, v, 1e-9);
            rc |= bench_profile_figure(t->cmd, dir, "perf-time", Q->np, nl, label, v, 0.5,
                                       "performance profile: median time to ||r||_2 <= 1e-6",
                                       "log2(tau), tau = time / best time", t->style,
                                       &missing);
            continue;
        }
        char base[32], title[128], xl[96];
        snprintf(base, sizeof base, "data-%.0e", EPS[e]);
        snprintf(title, sizeof title, "data profile: ||r||_2 <= %.0e within t seconds",
                 EPS[e]);
        snprintf(xl, sizeof xl, "log10(t / s) to ||r||_2 <= %.0e", EPS[e]);
        rc |= bench_profile_figure(t->cmd, dir, base, Q->np, nl, label, v, 0.5, title, xl,
                                   t->style, &missing);
    }
    if (missing)
        bench_error(t->cmd, "warning: gnuplot not found: profile scripts and data written in "
                            "%s, no images", dir);
    lcp_free(v);
    return rc;
}

/* the findings, stated once: two per peer (PEER in the id and the statement is its name)
 * and ldlt-ref at rounding */
enum { F_SOLVES, F_FASTER, F_ROUNDING };
static const bench_claim_def defs[3] = {
    {.id = "PEER-solves", .kind = BENCH_FINDING, .source = "this suite (peers table)",
     .quote = "PEER reaches ||r||_2 <= 1e-6, the tolerance asked, on every instance it "
              "accepts",
     .metric = "||r||_2 per accepted instance (zdiff reported, not tested)", .band = "<= 1e-6",
     .b = {{0, TOL}}},
    {.id = "PEER-faster", .kind = BENCH_FINDING, .source = "this suite (peers table)",
     .quote = "PEER is faster than the fastest of our solvers on every instance both solve "
              "(||r||_2 <= 1e-6)",
     .metric = "median time / that of our fastest solver solving it; noise control: that "
               "solver's timing samples against themselves (min/max and max/min)",
     .band = "< 1 (times measured under load)", .rule = BENCH_RULE_TIMED,
     .b = {{0, 1 - 1e-12}}, .changed = BENCH_TIMING_CHANGED},
    {.id = "ldlt-ref-rounding", .kind = BENCH_FINDING, .source = "this suite (peers table)",
     .quote = "the reference ldlt-ref solves every instance to rounding",
     .metric = "row-wise scaled residual of ldlt-ref's answer, max_i |r_i| / ((|A||z|)_i + "
               "|q_i|), r the natural residual (||r||_2 / max(1, ||q||_2) reported beside)",
     .band = "<= 16 eps = 3.6e-15 (the oracle's own test of rounding, its status converged)",
     .b = {{0, ROUND_EPS * DBL_EPSILON}},
     .changed = "was \"did not hold\" on ||r||_2 / max(1, ||q||_2) <= 1e-12, a norm-wise "
                "test that fails mass-ratio-1e4 (8.8e-12: |A| reaches 6e4) where every row is "
                "at 1.1e-16 of its own rounding scale; the metric is now row-wise, the band "
                "the reference's own 16 eps"},
};

/* defs[k] for peer `name' into d (id and statement in st, NOTE each) */
static void peer_def(bench_claim_def *d, int k, const char *name, char (*st)[NOTE])
{
    *d = defs[k];
    snprintf(st[0], NOTE, "%s%s", name, defs[k].id + 4);
    snprintf(st[1], NOTE, "%s%s", name, defs[k].quote + 4);
    d->id = st[0];
    d->quote = st[1];
}

/* ldlt-ref's answer on the instance folder path (bench_reference, the harness's one way to
 * ask it, from z = 0 as its run) scored row by row against its rounding scale: max_i |r_i| /
 * ((|A||z|)_i + |q_i|) (lcp_residual_rowwise).  NaN when the folder cannot be read, holds no A or
 * ldlt-ref gives no answer.  Cost: one ldlt-ref solve and one pass over A. */
static double ldlt_ref_rowwise(const char *path)
{
    char msg[512];
    lcp_problem P;
    lcp_problem_init(&P);
    double worst = NAN, *z = NULL, *w = NULL;
    lcp_status st;
    const bench_ref_how how = {"ldlt-ref", 0, 1, 0, 0, 0, 0};
    if (lcp_read_instance(path, &P, msg, sizeof msg) != LCP_OK || !P.A.p) goto done;
    z = lcp_calloc((size_t)P.m + 1, sizeof(double));
    w = lcp_calloc((size_t)P.m + 1, sizeof(double));
    if (!z || !w || bench_reference(&P, &how, z, &st) != 0) goto done;
    lcp_residuals R;
    lcp_residual(&P, z, w, &R);
    worst = lcp_residual_rowwise(&P, z, w);
done:
    lcp_free(z);
    lcp_free(w);
    lcp_problem_free(&P);
    return worst;
}

/* two findings per peer, and ldlt-ref at rounding; their definitions in d, the texts in st */
static int findings(const peers *Q, bench_claim *cl, bench_claim_def *d, char (*st)[2][NOTE])
{
    int n = 0;
    for (int s = 0; s < Q->ns; s++) {
        if (!is_peer(Q->S[s])) continue;
        const char *name = Q->S[s]->name;
        peer_def(&d[n], F_SOLVES, name, st[n]);
        bench_claims_init(&cl[n], &d[n], 1);
        for (int p = 0; p < Q->np; p++) {
            const cell *c = at(Q, p, s);
            if (c->row < 0 || !c->accepted) continue;
            bench_claim_value(&cl[n], Q->I[p].name, isfinite(c->res) ? c->res : INFINITY,
                              "%.1e");
        }
        if (cl[n].ncase == 0) bench_claim_untested(&cl[n], "it accepted no instance");
        n++;
        peer_def(&d[n], F_FASTER, name, st[n]);
        bench_claims_init(&cl[n], &d[n], 1);
        int capped = 0;
        for (int p = 0; p < Q->np; p++) {
            const cell *c = at(Q, p, s), *us;
            int o = fastest_ours(Q, p);
            capped += c->solved && c->capped;
            if (!c->solved || c->capped || o < 0 || !isfinite(c->t)) continue;
            char lab[BENCH_LABEL + 48];
            snprintf(lab, sizeof lab, "%s (vs %s)", Q->I[p].name, Q->S[o]->name);
            us = at(Q, p, o);
            double v = c->t / fmax(us->t, 1e-9), noise[2] = {us->tmin / us->tmax,
                                                             us->tmax / us->tmin};
            bench_claim_timed(&cl[n], lab, &v, 1, noise, 2, "%.2g");
        }
        if (cl[n].ncase == 0)
            bench_claim_untested(&cl[n], capped ? "its times were measured at its iteration "
                                                  "cap (upper bounds)" : "it solved no instance");
        n++;
    }
    for (int s = 0; s < Q->ns; s++) {
        if (strcmp(Q->S[s]->name, "ldlt-ref")) continue;
        bench_claims_init(&cl[n], &defs[F_ROUNDING], 1);
        for (int p = 0; p < Q->np; p++) {
            const cell *c = at(Q, p, s);
            if (c->row < 0) continue;
            char lab[BENCH_LABEL + 48];
            snprintf(lab, sizeof lab, "%s (rel %.1e)", Q->I[p].name, c->rel);
            /* a run without an answer (timed out): not measured, whatever a solve apart says */
            bench_claim_value(&cl[n], isfinite(c->rel) ? lab : Q->I[p].name,
                              isfinite(c->rel) ? ldlt_ref_rowwise(Q->I[p].path) : NAN, "%.1e");
        }
        n++;
    }
    return n;
}

static void time_text(char *b, size_t n, const peers *Q, const cell *c)
{
    char m[24], lo[24], hi[24];
    bench_fmt(m, sizeof m, c->t, "%.2e");
    bench_fmt(lo, sizeof lo, c->tmin, "%.2e");
    bench_fmt(hi, sizeof hi, c->tmax, "%.2e");
    const char *cap = c->capped ? ", at cap" : "";
    if (!isfinite(c->t)) snprintf(b, n, "-");
    else if (Q->have_max) snprintf(b, n, "%s (%s..%s%s)", m, lo, hi, cap);
    else snprintf(b, n, "%s (min %s%s)", m, lo, cap);
}

static void md_results(FILE *f, const peers *Q)
{
    static const char *const head[] = {"solver", "status", "its own status", "iterations",
                                       "time s: median (spread)", "residual", "rel residual",
                                       "zdiff", "wdiff"};
    for (int p = 0; p < Q->np; p++) {
        fprintf(f, "\n### %s (%d rows, %s%s)\n\n", Q->I[p].name, Q->I[p].m, Q->I[p].kind,
                Q->I[p].symmetric ? ", symmetric" : "");
        bench_md_head(f, 9, head, "lllrrrrrr");
        for (int s = 0; s < Q->ns; s++) {
            const cell *c = at(Q, p, s);
            if (c->row < 0) continue;
            char b[9][96];
            const char *row[9];
            snprintf(b[0], 96, "%s%s", Q->S[s]->name, c->solved ? "" : " *");
            snprintf(b[1], 96, "%s", c->status);
            snprintf(b[2], 96, "%s", c->peer_status[0] ? c->peer_status : "-");
            bench_fmt(b[3], 96, c->its, "%.0f");
            time_text(b[4], 96, Q, c);
            bench_fmt(b[5], 96, c->res, "%.1e");
            bench_fmt(b[6], 96, c->rel, "%.1e");
            bench_fmt(b[7], 96, c->zdiff, "%.1e");
            bench_fmt(b[8], 96, c->wdiff, "%.1e");
            for (int k = 0; k < 9; k++) row[k] = b[k];
            bench_md_row(f, 9, row);
        }
    }
}

/* per peer: where it is faster than our fastest, slower, fails, is refused */
static void md_wins(FILE *f, const peers *Q)
{
    fprintf(f, "\n## Where each peer wins and loses\n\nFrom the numbers above: a peer *wins* "
               "on an instance it solves (||r||_2 <= 1e-6) in less median time than the "
               "fastest of our solvers that solves it (named), and *loses* where it is "
               "slower, fails, or refuses the problem.  A time measured at the iteration cap "
               "(`at cap`: an upper bound) is not tested for speed.  Times were measured "
               "under load: ratios within 2x of 1 are not a clear verdict.\n\n");
    for (int s = 0; s < Q->ns; s++) {
        if (!is_peer(Q->S[s])) continue;
        int nwin = 0, nlose = 0, nfail = 0, nref = 0, ncap = 0;
        bench_text w = {0}, l = {0}, x = {0}, r = {0}, k = {0};
        for (int p = 0; p < Q->np; p++) {
            const cell *c = at(Q, p, s);
            int o = fastest_ours(Q, p);
            if (c->solved && c->capped)
                bench_text_add(&k, "%s%s", ncap++ ? ", " : "", Q->I[p].name);
            else if (c->solved && o >= 0 && isfinite(c->t)) {
                double q = c->t / fmax(at(Q, p, o)->t, 1e-9);
                bench_text *b = q < 1 ? &w : &l;
                bench_text_add(b, "%s%s %.2gx %s", (q < 1 ? nwin : nlose) ? ", " : "", Q->I[p].name, q,
                    Q->S[o]->name);
                if (q < 1) nwin++;
                else nlose++;
            }
            if (c->row < 0 || !c->accepted) bench_text_add(&r, "%s%s", nref++ ? ", " : "", Q->I[p].name);
            else if (c->why[0]) bench_text_add(&x, "%s%s (%s)", nfail++ ? "; " : "", Q->I[p].name, c->why);
        }
        fprintf(f, "- `%s`: wins on %d (%s); loses on time on %d (%s); speed not tested (timed "
                   "at its cap) on %d (%s); fails on %d (%s); refused or skipped on %d (%s).\n",
                Q->S[s]->name, nwin, nwin ? w.s : "none", nlose, nlose ? l.s : "none", ncap,
                ncap ? k.s : "none", nfail, nfail ? x.s : "none", nref, nref ? r.s : "none");
        lcp_free(k.s);
        lcp_free(w.s);
        lcp_free(l.s);
        lcp_free(x.s);
        lcp_free(r.s);
    }
}

static void md_failures(FILE *f, const peers *Q)
{
    fprintf(f, "\n## Where each tool fails\n\nA tool fails on an instance when it was refused "
               "(by the registry's flags, by the solver at run time, or skipped by the %d-row "
               "cap on dense solvers), left ||r||_2 above 1e-6, the tolerance asked, whatever "
               "its own status, or ran past --timeout (`failures.csv`; zdiff is reported "
               "beside, not a failure).\n\n", DENSE_CAP);
    for (int s = 0; s < Q->ns; s++) {
        int n = 0;
        for (int p = 0; p < Q->np; p++) n += at(Q, p, s)->why[0] != 0;
        fprintf(f, "- `%s` (%s): %d of %d%s", Q->S[s]->name, bench_solver_library(Q->S[s]->name), n, Q->np,
                n ? ": " : "");
        int k = 0;
        for (int p = 0; p < Q->np; p++) {
            const cell *c = at(Q, p, s);
            if (c->why[0]) fprintf(f, "%s%s (%s)", k++ ? "; " : "", Q->I[p].name, c->why);
        }
        fprintf(f, "\n");
    }
}

static int write_md(const bench_table_ctx *t, const peers *Q, const bench_claim *cl, int ncl)
{
    bench_out o;
    FILE *f = bench_table_md(t, &o, "peers.md", "peers: Siconos, ODE/DART and Bullet beside "
                                                "our solvers, one residual");
    if (!f) return 1;
    int npeer = 0;
    for (int s = 0; s < Q->ns; s++) npeer += is_peer(Q->S[s]);
    char lim[160];
    if (t->timeout > 0)
        snprintf(lim, sizeof lim, "Each run is limited to %g s (--timeout): a run past it is "
                 "stopped and listed as timed out, a failure.", t->timeout);
    else snprintf(lim, sizeof lim, "No time limit per run (--timeout S sets one).");
    fprintf(f, "Every registered solver (%d, of which %d peers) on %d instances, each on the "
               "instances it supports (the registry's flags; the pairs it refuses are listed "
               "below, not run).  The stopping rule asked of every solver: cold start, tol "
               "%g, maxit %ld.  %s  Ours stop at ||r||_2 <= tol (the harness's residual); **each "
               "peer maps tol and maxit onto its own test and cap and stops by that** (Siconos: "
               "its own error measure; Bullet's PGS: the sum of squared updates of a sweep "
               "against tol^2; it does not report its sweeps, so its iterations show the cap and "
               "its timing runs, which repeat the recorded count with no tolerance, run the "
               "full cap: its time is an upper bound; ODE's and Bullet's Dantzig, the pivoting "
               "methods: their own end).  **The status column is this suite's verdict**: "
               "converged when ||r||_2 <= tol, whatever the solver says; a peer's own status "
               "is the next column (`peer_status` in the CSV files).  A time measured at the "
               "iteration cap is marked `at cap` (`time_at_cap`) and not tested for speed.  "
               "jacobi with omega auto, every other solver with its defaults.  Solvers flagged "
               "dense (every peer, lemke-ref, amgs-*-explicit) run only on instances of at "
               "most %d rows, to keep the table within minutes (ode-dantzig took 13 s and "
               "lemke-ref over 2 minutes per solve on 868 to 1530 rows).  "
               "Residuals are the harness's (||r||_2 of the natural map, and relative: "
               "/ max(1, ||q||_2)); zdiff and wdiff are against ldlt-ref's answer.  A run "
               "*solves* an instance when ||r||_2 <= 1e-6, the tolerance asked (zdiff is "
               "reported, not a test).  Time: median of %d timing runs "
               "after one warm-up (one run for dense solvers on more than %d rows: their "
               "solves take seconds), spread %s; %s.  The runs took %.0f s (load average %.1f "
               "before, %.1f after, on this machine's cores): times are noisy, compare "
               "ratios.  `*` after a solver: not solved.\n",
            Q->ns, npeer, Q->np, TOL, t->maxit ? t->maxit : (long)MAXIT, lim, DENSE_CAP, reps(t),
            DENSE_ONE, Q->have_max ? "min..max" : "shown by the min",
            Q->have_setup ? "a solver's setup (a peer's conversion to its dense format) is "
                            "timed apart (time_setup_s)"
                          : "the timed solves include each peer's conversion to its own "
                            "format (O(m^2))",
            Q->wall, Q->load0, Q->load1);
    fprintf(f, "\n## Results\n");
    md_results(f, Q);
    md_wins(f, Q);
    bench_claims_md(f, cl, ncl);
    md_failures(f, Q);
    fprintf(f, "\n## Profiles\n\nOver all %d instances, one curve per library (ours, "
               "Siconos, ODE, Bullet): on each instance the best of the library's solvers "
               "(a refused or unsolved instance counts as a failure); every solver's numbers "
               "are in the tables above and `peers.csv`:\n\n- `plots/perf-time.png`: "
               "Dolan-More performance profile of the median time, solved = ||r||_2 <= 1e-6 (a "
               "time at the iteration cap enters as the upper bound it is)\n"
               "- `plots/data-1e-04.png`, `data-1e-06`, `data-1e-10`: share of instances "
               "whose ||r||_2 reaches eps within t seconds (the history's time at the first "
               "sweep there; the median time of a run without a history: direct solvers and "
               "peers without a per-iteration callback)\n", Q->np);
    fprintf(f, "\n## Files\n\n- `peers.csv`: every instance x solver (`ran` 0 = refused or "
               "skipped; `status` this suite's verdict, `peer_status` a peer's own; "
               "`time_at_cap`; `solved`; `failure`: the reasons)\n- `failures.csv`: "
               "tool,library,instance,rows,failure,status,peer_status,residual,zdiff\n- `runs.csv`, "
               "`history/`: the run folder (`lcpbench profile DIR`, `lcpbench plot DIR`)\n- "
               "`plots/`: the profiles (.gp, .csv, .png, .pdf)\n");
    if (bench_close(t->cmd, &o)) return 1;
    fprintf(stderr, "lcpbench table: wrote %s/peers.md\n", t->out);
    return 0;
}

int bench_table_peers(const bench_table_ctx *t)
{
    peers Q = {0};
    bench_text suite = {0};
    bench_csv T = {0};
    bench_suite S = {0};
    int rc = 0, parsed = 0, nsolver;
    const lcp_solver *reg = bench_solvers(&nsolver);
    Q.ns = nsolver;
    Q.S = lcp_malloc(((size_t)nsolver + 1), sizeof *Q.S);
    if (!Q.S) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    for (int s = 0; s < nsolver; s++) Q.S[s] = &reg[s];
    if (collect(t, &Q)) {
        rc = 1;
        goto done;
    }
    Q.C = lcp_calloc((size_t)Q.np * (size_t)Q.ns + 1, sizeof *Q.C);
    if (!Q.C) {
        bench_error(t->cmd, "out of memory");
        rc = 1;
        goto done;
    }
    if (plan(t, &Q, &suite)) {
        rc = 1;
        goto done;
    }
    rc = bench_suite_parse(t->cmd, suite.s, "peers", ".", NULL, t->force, &S);
    if (rc) goto done;
    parsed = 1;
    Q.load0 = loadavg();
    double t0 = bench_now();
    /* 1 = a run ended in an error status (a peer's refusal or breakdown): listed below */
    bench_grid_run_text(t->cmd, &S, suite.s, "peers", t->out, t->force, 0, t->mpi, t->argc,
                        t->argv);
    Q.wall = bench_now() - t0;
    Q.load1 = loadavg();
    if (bench_read_runs(t->cmd, t->out, &T)) {
        rc = 1;
        goto done;
    }
    read_cells(t, &T, &Q);
    rc |= write_csv(t, &Q);
    rc |= profiles(t, &T, &Q);
    int maxcl = 2 * Q.ns + 1, ncl;
    bench_claim *cl = lcp_calloc((size_t)maxcl, sizeof *cl);
    bench_claim_def *d = lcp_calloc((size_t)maxcl, sizeof *d);
    char (*st)[2][NOTE] = lcp_calloc((size_t)maxcl, sizeof *st);
    if (!cl || !d || !st) {
        bench_error(t->cmd, "out of memory");
        rc = 1;
    } else {
        ncl = findings(&Q, cl, d, st);
        rc |= bench_claims_csv(t->cmd, t->out, t->force, cl, ncl);
        rc |= write_md(t, &Q, cl, ncl);
    }
    lcp_free(cl);
    lcp_free(d);
    lcp_free(st);
done:
    if (parsed) bench_suite_free(&S);
    bench_csv_free(&T);
    lcp_free(suite.s);
    lcp_free(Q.I);
    lcp_free(Q.S);
    lcp_free(Q.C);
    return rc;
}
