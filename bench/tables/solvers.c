/* solvers.c: `lcpbench table solvers': the field's solver families (lcp/README.md, "The
 * field's solver families": nncg, pgs-sm, apgd, spg, newton-min, newton-fb, admm) beside the
 * baselines pgs and jacobi (omega auto) and the reference ldlt-ref, on the committed instances
 * and on captured sphere piles of three sizes, frictionless and with friction; residual
 * against work (products with A, sweep-equivalents) and against time; performance and data
 * profiles (Dolan and More 2002; More and Wild 2009); each source's headline claim about its
 * own method checked under the claims rule; where each family wins (results/README.md,
 * "solvers/").
 *
 * Instances: every folder of problems/instances/ (run from the source tree; --quick: the five
 * smallest) and piles `capture spheres --param n=N [--param mu=0] --at 100' for N in PILES
 * (--quick QUICK_PILES, --full FULL_PILES), captured into DIR/instances/.  Every run: cold
 * start, tol 1e-8 on ||r||_2 (the one residual), an iteration cap per solver that gives each
 * about the same budget in sweep-equivalents (CAP; --quick / 4; --maxit K sets every cap to
 * K), check every iteration.  One measured run per pair (bench_run_solver: the
 * recording run fills the library's history of iteration, work, residual; then one warm-up
 * and --reps timing runs, REPS by default, with no residual tests and exactly the recorded
 * iterations); the time of iteration k is k x the median seconds per solve / iterations, as
 * everywhere in the harness.  zdiff, wdiff against zref.mtx, or against ldlt-ref's answer
 * (run first) where the folder has none.
 *
 * Counts: "work to eps" is the work at the first iteration whose ||r||_2 <= eps (exact, every
 * iteration is tested).  ldlt-ref's work is its pivot steps, another unit: it is left out of
 * the work figures and profiles and kept in the time ones.
 *
 * Outputs in DIR: solvers.md, solvers.csv (every instance x solver), claims.csv,
 * history/INSTANCE__SOLVER.csv (iteration,work,residual,time_s), plots/INSTANCE-work and
 * INSTANCE-time (residual against work and time, one figure each per instance), plots/
 * perf-work, perf-time (performance profiles of the work and the time to 1e-8) and
 * data-work-EPS (data profiles at 1e-4, 1e-6, 1e-8), instances/ (the captured piles).
 * Cost: the runs; 142 s of CPU for the default grid on one core (measured), 12 s --quick.
 */
#include "tables.h"

#include <float.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NSOLVER = 10, NLEV = 3, NPILE = 3, NQUICK = 4, REPS = 1, NOTE = 200, REF = 9 };
static const char *const SOLVER[NSOLVER] = {"pgs", "jacobi", "nncg", "pgs-sm", "apgd", "spg",
                                            "newton-min", "newton-fb", "admm", "ldlt-ref"};
/* iterations at most: about 2e4 sweep-equivalents each at the work per iteration measured on
 * the piles (lcp/README.md: nncg 1.8, apgd 1.35, spg 1.05, admm 1 solve, pgs-sm about 23 a
 * cycle, newton 8 to 80 a step); ldlt-ref has its own pivot cap */
static const int CAP[NSOLVER] = {20000, 20000, 20000, 1000, 20000, 20000, 300, 300, 20000, 0};
static const double TOL = 1e-8;
static const double LEV[NLEV] = {1e-4, 1e-6, 1e-8};
static const int PILES[NPILE] = {40, 120, 300}, QUICK_PILES[NPILE] = {25, 35, 45},
                 FULL_PILES[NPILE] = {1000, 3000, 10000};
static const char *const QUICK[NQUICK] = {"capsule-step1", "three-spheres-step1",
                                          "chain-step300", "stack-30-step100"};

typedef struct inst {
    char name[BENCH_LABEL], path[BENCH_PATH];
    int m, friction;          /* friction: a friction index; else frictionless (lo 0, hi inf) */
    const char *cls;          /* "stack" (stacks, chains, box towers), "pool" (2D piles),
                                 "pile" (3D piles), "small" (the rest) */
} inst;

typedef struct run {          /* one instance x solver */
    int ran;                  /* 0: refused (why) */
    char status[32], why[NOTE];
    int its, it_lev[NLEV];    /* iterations; the first at or below each level, -1 never */
    double work, work_lev[NLEV], res, rel, zdiff, wdiff;
    double rowwise;     /* ldlt-ref: lcp_residual_rowwise of its answer (NaN for the others) */
    double t, tmin, tmax, tsetup, t_tol;  /* seconds per solve; time to TOL */
    long fact;                /* factorisations (admm) */
    double order;             /* Newton: order of the last three residuals of a run with the
                                 inner CG allowed 2m + 100 iterations, NaN when it cannot tell */
    double order_cap;         /* the same of the timed run (inner_max at its default) */
    double rate;              /* admm: log-rate of the second half / first half */
} run;

typedef struct study {
    int np;
    inst *I;
    run *R;                   /* np x NSOLVER */
    int cap[NSOLVER], reps;
    const int *piles;
    double wall;
} study;

static run *at(const study *S, int p, int s) { return &S->R[(size_t)p * NSOLVER + s]; }

static const char *class_of(const char *name)
{
    if (!strncmp(name, "stack", 5) || !strncmp(name, "chain", 5) || !strncmp(name, "boxes", 5))
        return "stack";
    if (!strncmp(name, "pool", 4)) return "pool";
    if (!strncmp(name, "spheres", 7) || !strncmp(name, "pile", 4)) return "pile";
    return "small";
}

/* ---- the instances ---------------------------------------------------------------------- */

static int add(const char *cmd, study *S, int *cap, const char *path, const char *name)
{
    if (S->np == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        inst *n = lcp_realloc(S->I, (size_t)*cap, sizeof *n);
        if (!n) {
            bench_error(cmd, "out of memory");
            return 1;
        }
        S->I = n;
    }
    inst *I = &S->I[S->np++];
    memset(I, 0, sizeof *I);
    snprintf(I->path, sizeof I->path, "%s", path);
    snprintf(I->name, sizeof I->name, "%s", name);
    I->cls = class_of(name);
    return 0;
}

static int collect(const bench_table_ctx *t, study *S)
{
    int cap = 0;
    glob_t g;
    int gr = glob("problems/instances/*", 0, NULL, &g);
    if (gr != 0 || g.gl_pathc == 0) {
        if (gr == 0) globfree(&g);
        bench_error(t->cmd, "no problems/instances/* here: run from the source tree");
        return 1;
    }
    for (size_t k = 0; k < g.gl_pathc; k++) {
        const char *b = strrchr(g.gl_pathv[k], '/') + 1;
        int keep = t->size >= 0;
        for (int q = 0; !keep && q < NQUICK; q++) keep = !strcmp(b, QUICK[q]);
        if (keep && add(t->cmd, S, &cap, g.gl_pathv[k], b)) {
            globfree(&g);
            return 1;
        }
    }
    globfree(&g);
    for (int f = 0; f < 2; f++)           /* frictionless piles, then mu 0.5 (the default) */
        for (int k = 0; k < NPILE; k++) {
            char name[BENCH_LABEL], dir[BENCH_PATH + 64], nkv[32], msg[8400];
            const char *kv[2] = {nkv, "mu=0"};
            snprintf(name, sizeof name, "pile-%d%s-step100", S->piles[k], f ? "" : "-mu0");
            snprintf(nkv, sizeof nkv, "n=%d", S->piles[k]);
            snprintf(dir, sizeof dir, "%s/instances/%s", t->out, name);
            if (bench_capture_scene("spheres", f ? 1 : 2, kv, 100, dir, msg, sizeof msg)) {
                bench_error(t->cmd, "capture spheres n=%d: %s", S->piles[k], msg);
                return 1;
            }
            if (add(t->cmd, S, &cap, dir, name)) return 1;
        }
    return 0;
}

/* ---- one run ------------------------------------------------------------------------------ */

/* the order of convergence of the last three residuals, log(r2/r1) / log(r1/r0): 2 for a
 * quadratic rate, 1 for a linear one; NaN when the residuals do not decrease there */
static double last_order(const lcp_history *h)
{
    if (h->n < 4) return NAN;
    double r0 = h->residual[h->n - 3], r1 = h->residual[h->n - 2], r2 = h->residual[h->n - 1];
    if (!(r1 < r0) || !(r0 > 0) || !(r1 > 0)) return NAN;
    return log(fmax(r2, 1e-300) / r1) / log(r1 / r0);
}

/* the log-rate per iteration over the second half of the iterations against that over the
 * quarter before it, [K/4, K/2] and [K/2, K]: about 1 for a linear rate, well below 1 for a
 * sublinear one; NaN for fewer than 40 iterations */
static double rate_halves(const lcp_history *h)
{
    int K = h->n - 1;
    if (K < 40) return NAN;
    double a = h->residual[K / 4], b = h->residual[K / 2], c = h->residual[K];
    if (!(a > 0 && b > 0 && c > 0)) return NAN;
    double s1 = log(b / a) / (double)(h->iteration[K / 2] - h->iteration[K / 4]);
    double s2 = log(c / b) / (double)(h->iteration[K] - h->iteration[K / 2]);
    return s1 < 0 ? s2 / s1 : NAN;
}

/* Jacobi tests a sweep through an estimate and takes the exact residual only near tol
 * (lcp/iterate.c), so the library's history has rows at those tests only; its levels need
 * every sweep.  The harness's monitor (bh: lcp_residual after every sweep, the same
 * residual) gives them, and the work of a sweep between two recorded rows is interpolated
 * linearly (a Jacobi sweep is one product).  h is rewritten with bh's rows; 0, or -1 out of
 * memory. */
static int every_sweep(lcp_history *h, const bench_history *bh)
{
    int n = h->n, rc = 0;
    int *it = lcp_malloc((size_t)n + 1, sizeof(int));
    double *w = lcp_malloc((size_t)n + 1, sizeof(double));
    if (!it || !w || bh->n > h->cap) rc = -1;
    for (int j = 0; rc == 0 && j < n; j++) {
        it[j] = h->iteration[j];
        w[j] = h->work[j];
    }
    for (int k = 0, j = 0; rc == 0 && k < bh->n; k++) {
        int i = bh->iter[k];
        while (j + 1 < n && it[j + 1] <= i) j++;
        double x = it[j] == i || j + 1 >= n
                       ? w[j] + (i - it[j])
                       : w[j] + (w[j + 1] - w[j]) * (i - it[j]) / (double)(it[j + 1] - it[j]);
        h->iteration[k] = i;
        h->work[k] = x;
        h->residual[k] = bh->r2[k];
    }
    if (rc == 0) h->n = bh->n;
    lcp_free(it);
    lcp_free(w);
    return rc;
}

/* The local rate as the sources state it, for exact Newton steps: a recording run (no
 * timing) with the inner CG allowed 2m + 100 iterations, so that each step meets the forcing
 * eta_k = min(0.1, ||F||) (the default inner_max, 100, stops CG first on the piles), to
 * ||r||_2 <= NEWTON_TOL; the order of its last three residuals.  h is scratch. */
static const double NEWTON_TOL = 1e-10;
static double exact_order(const lcp_problem *P, const lcp_solver *sv, int cap, lcp_history *h,
                          double *z)
{
    lcp_options o;
    lcp_info info;
    lcp_options_default(&o);
    o.tol = NEWTON_TOL;
    o.max_iter = cap;
    o.inner_max = 2 * P->m + 100;
    o.history = h;
    h->n = 0;
    lcp_status st = lcp_solve(sv, P, &o, z, &info);
    return st == LCP_OK ? last_order(h) : NAN;
}

static int write_history(const bench_table_ctx *t, const study *S, int p, int s,
                         const lcp_history *h, const run *r)
{
    char file[BENCH_PATH];
    bench_history_name(S->I[p].name, SOLVER[s], file, sizeof file);
    char rel[BENCH_PATH + 16];
    snprintf(rel, sizeof rel, "history/%s", file);
    static const char *const head[] = {"iteration", "work", "residual", "time_s"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, rel, t->force, 4, head)) return 1;
    for (int k = 0; k < h->n; k++) {
        bench_csvw_int(&w, h->iteration[k]);
        bench_csvw_num(&w, h->work[k], "%.6g");
        bench_csvw_num(&w, h->residual[k], "%.6e");
        bench_csvw_num(&w, r->its > 0 ? r->t * h->iteration[k] / r->its : r->t, "%.6e");
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

/* ldlt-ref, then the others: their numbers into S's row p, their histories (for the figures)
 * into H[s] */
static int run_instance(const bench_table_ctx *t, study *S, int p, lcp_history *H)
{
    inst *I = &S->I[p];
    lcp_problem P;
    char msg[8400];
    lcp_problem_init(&P);
    if (lcp_read_instance(I->path, &P, msg, sizeof msg) != LCP_OK) {
        bench_error(t->cmd, "%s", msg);
        lcp_problem_free(&P);
        return 1;
    }
    I->m = P.m;
    I->friction = 0;
    for (int i = 0; P.findex && i < P.m; i++) I->friction |= P.findex[i] >= 0;
    double *z = lcp_malloc((size_t)P.m + 1, sizeof(double));
    int rc = z ? 0 : 1;
    for (int k = 0; rc == 0 && k < NSOLVER; k++) {
        int s = k == 0 ? REF : k - 1 + (k - 1 >= REF);      /* ldlt-ref first */
        run *r = at(S, p, s);
        lcp_history *h = &H[s];
        h->n = 0;
        const lcp_solver *sv = bench_solver_find(SOLVER[s]);
        lcp_status st = sv ? lcp_solver_supports(sv, &P) : LCP_ERR_UNSUPPORTED;
        memset(r, 0, sizeof *r);
        r->order = r->order_cap = r->rate = r->rowwise = NAN;
        if (st != LCP_OK) {
            snprintf(r->status, sizeof r->status, "%s", lcp_status_str(st));
            snprintf(r->why, sizeof r->why, "refused (%s)", lcp_status_str(st));
            continue;
        }
        lcp_options o;
        lcp_options_default(&o);
        o.tol = TOL;
        if (S->cap[s] > 0) o.max_iter = S->cap[s];
        o.omega_auto = !strcmp(SOLVER[s], "jacobi");
        o.history = s == REF ? NULL : h;
        bench_result br;
        bench_history bh = {0};             /* jacobi: the harness's residual every sweep */
        int mon = !strcmp(SOLVER[s], "jacobi");
        st = bench_run_solver(&P, sv, &o, NULL, S->reps, z, &br, mon ? &bh : NULL);
        if (mon && st >= 0 && every_sweep(h, &bh) != 0) st = LCP_ERR_NOMEM;
        bench_history_free(&bh);
        r->ran = 1;
        snprintf(r->status, sizeof r->status, "%s", lcp_status_str(st));
        if (st == LCP_ERR_NOMEM) {
            bench_error(t->cmd, "%s: %s: out of memory", I->name, SOLVER[s]);
            rc = 1;
            break;
        }
        if (st < 0) {
            snprintf(r->why, sizeof r->why, "no answer (%s)", lcp_status_str(st));
            r->res = r->rel = r->zdiff = r->wdiff = r->t = r->tmin = r->tmax = r->tsetup =
                r->t_tol = r->work = NAN;
            for (int l = 0; l < NLEV; l++) r->it_lev[l] = -1, r->work_lev[l] = NAN;
            continue;
        }
        r->its = br.iterations;
        r->res = br.res.r2;
        r->rel = br.res.rel;
        r->zdiff = br.zdiff;
        r->wdiff = br.wdiff;
        r->t = br.t_median;
        r->tmin = br.t_min;
        r->tmax = br.t_max;
        r->tsetup = br.t_setup;
        r->fact = br.info.factorizations;
        r->work = s == REF ? NAN : br.info.work;
        if (s == REF) {                                 /* one point: its end */
            double *w = lcp_malloc((size_t)P.m + 1, sizeof(double));
            if (w) {
                lcp_residuals R;
                lcp_residual(&P, z, w, &R);
                r->rowwise = lcp_residual_rowwise(&P, z, w);
            }
            lcp_free(w);
            h->n = 1;
            h->iteration[0] = r->its;
            h->work[0] = NAN;
            h->residual[0] = r->res;
        }
        for (int l = 0; l < NLEV; l++) {
            r->it_lev[l] = -1;
            r->work_lev[l] = NAN;
            for (int j = 0; j < h->n; j++)
                if (h->residual[j] <= LEV[l]) {
                    r->it_lev[l] = h->iteration[j];
                    r->work_lev[l] = h->work[j];
                    break;
                }
        }
        r->t_tol = r->it_lev[NLEV - 1] < 0 ? NAN
                   : r->its > 0          ? r->t * r->it_lev[NLEV - 1] / r->its
                                         : r->t;
        if (!strncmp(SOLVER[s], "newton", 6) && r->it_lev[NLEV - 1] >= 0)
            r->order_cap = last_order(h);
        if (!strcmp(SOLVER[s], "admm") && r->it_lev[NLEV - 1] >= 0) r->rate = rate_halves(h);
        if (s == REF && st == LCP_OK && !P.zref) {       /* the reference of the others */
            P.zref = lcp_malloc((size_t)P.m + 1, sizeof(double));
            if (P.zref) memcpy(P.zref, z, (size_t)P.m * sizeof(double));
        }
        if (r->it_lev[NLEV - 1] < 0)
            snprintf(r->why, sizeof r->why, "||r||_2 %.1e > 1e-8 after %d iterations (%s)",
                     r->res, r->its, r->status);
        rc |= write_history(t, S, p, s, h, r);
        if (!strncmp(SOLVER[s], "newton", 6)) r->order = exact_order(&P, sv, S->cap[s], h, z);
    }
    lcp_free(z);
    lcp_problem_free(&P);
    return rc;
}

/* ---- figures ------------------------------------------------------------------------------ */

/* INSTANCE-WHAT: ||r||_2 of the ns series against x (log-log, tol drawn); nothing when ns is
 * 0; 0, or 1 when the figure could not be written */
static int residual_fig(const bench_table_ctx *t, const char *dir, const char *instance,
                        const char *what, const char *xlabel, int label_points, int ns,
                        const bench_series *s)
{
    char base[BENCH_LABEL + 16], title[BENCH_LABEL + 64];
    bench_fig F;
    bench_fig_init(&F);
    snprintf(base, sizeof base, "%s-%s", instance, what);
    snprintf(title, sizeof title, "%s: residual against %s", instance, what);
    F.base = base;
    F.title = title;
    F.xlabel = xlabel;
    F.ylabel = "||r||_2";
    F.logx = F.logy = 1;
    F.hline = TOL;
    F.hline_title = "tol 1e-8";
    F.label_points = label_points;
    F.ns = ns;
    F.s = s;
    return ns && bench_fig_write(t->cmd, dir, &F, t->style) < 0;
}

static int figures(const bench_table_ctx *t, const study *S, int p, const lcp_history *H)
{
    char dir[BENCH_PATH + 16];
    snprintf(dir, sizeof dir, "%s/plots", t->out);
    bench_series W[NSOLVER], T[NSOLVER];
    double *x[NSOLVER] = {0};
    int nw = 0, nt = 0, rc = 0;
    for (int s = 0; s < NSOLVER; s++) {
        const run *r = at(S, p, s);
        if (!r->ran || H[s].n == 0) continue;
        if (s != REF) W[nw++] = (bench_series){SOLVER[s], H[s].n, H[s].work, H[s].residual, 0};
        x[s] = lcp_malloc((size_t)H[s].n, sizeof(double));
        if (!x[s]) {
            rc = 1;
            continue;
        }
        for (int k = 0; k < H[s].n; k++)
            x[s][k] = r->its > 0 ? r->t * H[s].iteration[k] / r->its : r->t;
        T[nt++] = (bench_series){SOLVER[s], H[s].n, x[s], H[s].residual, s == REF};
    }
    if (residual_fig(t, dir, S->I[p].name, "work", "work (products with A, sweep-equivalents)",
                     0, nw, W) ||
        residual_fig(t, dir, S->I[p].name, "time",
                     "time (s; iteration k at k / K of the median solve)", 1, nt, T))
        rc = 1;
    for (int s = 0; s < NSOLVER; s++) lcp_free(x[s]);
    if (rc) bench_error(t->cmd, "%s: figures not written", S->I[p].name);
    return rc;
}

/* performance profiles of the work and the time to TOL, data profiles of the work to each
 * level; ldlt-ref in the time profile only */
static int profiles(const bench_table_ctx *t, const study *S)
{
    char dir[BENCH_PATH + 16];
    snprintf(dir, sizeof dir, "%s/plots", t->out);
    double *v = lcp_malloc((size_t)S->np * NSOLVER + 1, sizeof(double));
    if (!v) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    int rc = 0, missing = 0;
    for (int e = -2; e < NLEV; e++) {   /* -2: perf time, -1: perf work, 0..: data work */
        int ns = e == -2 ? NSOLVER : NSOLVER - 1;
        for (int p = 0; p < S->np; p++)
            for (int s = 0; s < ns; s++) {
                const run *r = at(S, p, s);
                double c = e == -2 ? r->t_tol : e == -1 ? r->work_lev[NLEV - 1] : r->work_lev[e];
                if (!r->ran || !isfinite(c)) c = INFINITY;
                v[p * ns + s] = e >= 0 && isfinite(c) ? log10(fmax(c, 1.0)) : c;
            }
        if (e < 0) {
            bench_profile_ratios(S->np, ns, v, e == -2 ? 1e-7 : 1.0);
            rc |= bench_profile_figure(t->cmd, dir, e == -2 ? "perf-time" : "perf-work", S->np,
                                       ns, SOLVER, v, 0.5,
                                       e == -2 ? "performance profile: time to ||r||_2 <= 1e-8"
                                               : "performance profile: work to ||r||_2 <= 1e-8",
                                       e == -2 ? "log2(tau), tau = time / best time"
                                               : "log2(tau), tau = work / least work",
                                       t->style, &missing);
            continue;
        }
        char base[32], title[96], xl[96];
        snprintf(base, sizeof base, "data-work-%.0e", LEV[e]);
        snprintf(title, sizeof title, "data profile: ||r||_2 <= %.0e within the work", LEV[e]);
        snprintf(xl, sizeof xl, "log10(work to ||r||_2 <= %.0e, sweep-equivalents)", LEV[e]);
        rc |= bench_profile_figure(t->cmd, dir, base, S->np, ns, SOLVER, v, 0.5, title, xl,
                                   t->style, &missing);
    }
    if (missing)
        bench_error(t->cmd, "warning: gnuplot not found: profile scripts and data written in "
                            "%s, no images", dir);
    lcp_free(v);
    return rc;
}

/* ---- claims -------------------------------------------------------------------------------- */

enum { C_NNCG, C_PGSSM, C_APGD, C_APGD10, C_SPG, C_NEWTON_FB, C_NEWTON_MIN, C_ADMM_LIN,
       C_ADMM_FACT, F_REF, F_AGREE, F_NEWTON_WORK, F_NNCG_FRICTION, F_SPG_FRICTION,
       F_NEWTON_CAP, NCLAIM };
static const bench_claim_def defs[NCLAIM] = {
    {.id = "nncg-faster-than-pgs", .kind = BENCH_SOURCE,
     .source = "Silcowitz, Niebe, Erleben 2010, The Visual Computer 26 (abstract, paraphrased; "
               "the text is not at hand here)",
     .quote = "NNCG converges faster than PGS on the stacking scenes it was made for",
     .metric = "iterations to ||r||_2 <= 1e-6, nncg / pgs (an NNCG iteration is one PGS sweep "
               "and a vector update), per stack instance (stacks, the chain, the box tower)",
     .band = "< 1", .b = {{0, 1 - 1e-12}}},
    {.id = "pgs-sm-faster-than-pgs", .kind = BENCH_SOURCE,
     .source = "Silcowitz, Niebe, Erleben 2010, GRAPP (abstract, paraphrased; the text is not "
               "at hand here)",
     .quote = "subspace minimisation makes PGS reach accurate solutions faster on stacks",
     .metric = "work to ||r||_2 <= 1e-6, pgs-sm / pgs (sweep-equivalents: a pgs-sm cycle is 5 "
               "sweeps and its CG products), per stack instance",
     .band = "< 1", .b = {{0, 1 - 1e-12}}},
    {.id = "apgd-faster-than-jacobi", .kind = BENCH_SOURCE,
     .source = "Mazhar, Heyn, Negrut, Tasora 2015, ACM TOG 34(3) (abstract, paraphrased; the "
               "text is not at hand here)",
     .quote = "APGD converges in fewer iterations than the projected Jacobi baseline on "
              "granular problems",
     .metric = "iterations to ||r||_2 <= 1e-6, apgd / jacobi (omega auto), per granular "
               "instance (2D pools and 3D piles)",
     .band = "< 1", .b = {{0, 1 - 1e-12}}},
    {.id = "apgd-order-of-magnitude", .kind = BENCH_SOURCE,
     .source = "Mazhar, Heyn, Negrut, Tasora 2015, ACM TOG 34(3) (abstract, paraphrased; the "
               "text is not at hand here)",
     .quote = "APGD needs about an order of magnitude fewer iterations than the projected "
              "Jacobi baseline on granular problems",
     .metric = "as apgd-faster-than-jacobi, the median over the granular instances",
     .band = "<= 0.1 (median; qualified when the spread crosses it)", .b = {{0, 0.1}}},
    {.id = "spg-robust", .kind = BENCH_SOURCE,
     .source = "Birgin, Martinez, Raydan 2000, SIAM J. Optim. 10 (abstract, paraphrased; the "
               "text is not at hand here)",
     .quote = "SPG2 is robust on large convex-constrained problems",
     .metric = "spg reaches ||r||_2 <= 1e-6 within its budget, per frictionless instance (a "
               "convex QP on a box: the problem class of the paper)",
     .band = "yes on every instance", .b = {{1, 1}}},
    {.id = "newton-fb-local-rate", .kind = BENCH_SOURCE,
     .source = "De Luca, Facchinei, Kanzow 1996, Math. Prog. 75 (convergence theorems, "
               "paraphrased)",
     .quote = "the semismooth Newton method on Fischer-Burmeister converges locally "
              "superlinearly, quadratically for a linear problem at a regular solution",
     .metric = "order of the last three residuals log(r_K/r_K-1) / log(r_K-1/r_K-2) (2: "
               "quadratic, 1: linear) of a run to ||r||_2 <= 1e-10 whose inner CG may take 2m + "
               "100 iterations, so that every step meets the forcing eta_k = min(0.1, ||F||) "
               "(exact enough for the theorem's rate), median over the frictionless instances",
     .band = ">= 1.5 (median; qualified when the spread crosses it)", .b = {{1.5, INFINITY}}},
    {.id = "newton-min-local-rate", .kind = BENCH_SOURCE,
     .source = "Qi 1993, Math. Oper. Res. 18; Pang 1990, Math. Oper. Res. 15 (B-differentiable "
               "Newton on the min-map; Erleben 2013's course notes use it), paraphrased",
     .quote = "the semismooth (B-differentiable) Newton method on the min-map converges "
              "locally quadratically at a regular solution",
     .metric = "as newton-fb-local-rate, for newton-min",
     .band = ">= 1.5 (median; qualified when the spread crosses it)", .b = {{1.5, INFINITY}}},
    {.id = "admm-linear", .kind = BENCH_SOURCE,
     .source = "Boyd, Parikh, Chu, Peleato, Eckstein 2011, Sec. 3.2; Stellato et al. 2020 "
               "(OSQP), paraphrased",
     .quote = "ADMM converges linearly on a strongly convex QP",
     .metric = "log-rate per iteration over iterations [K/2, K] against [K/4, K/2], K the "
               "iterations to 1e-8 (1: a constant linear rate; a sublinear rate gives well "
               "under 1), median over the instances where admm took 40 iterations or more",
     .band = "[0.5, 2] (median; qualified when the spread crosses it)", .b = {{0.5, 2}}},
    {.id = "admm-one-factorisation", .kind = BENCH_SOURCE,
     .source = "Stellato et al. 2020, Math. Prog. Comp. 12 (OSQP; abstract, paraphrased)",
     .quote = "the KKT matrix is factored once and the factorisation reused in every iteration "
              "(factored again only when rho is updated)",
     .metric = "factorisations per solve (ours: again when rho moves by 5x), per instance",
     .band = "<= 3", .b = {{1, 3}}},
    {.id = "ldlt-ref-rounding", .kind = BENCH_FINDING, .source = "this suite (solvers table)",
     .quote = "the reference ldlt-ref solves every instance to rounding",
     .metric = "row-wise scaled residual of ldlt-ref's answer, max_i |r_i| / ((|A||z|)_i + "
               "|q_i|) (lcp_residual_rowwise)",
     .band = "<= 16 eps = 3.6e-15 (the oracle's own test of rounding, its status converged)",
     .b = {{0, 16 * DBL_EPSILON}},
     .changed = "was ||r||_2 / max(1, ||q||_2) <= 1e-12, a norm-wise test that fails "
                "mass-ratio-1e4 (8.8e-12: |A| reaches 6e4) where every row is at 1.1e-16 of "
                "its own rounding scale; now row-wise, the band the reference's own 16 eps"},
    {.id = "answers-agree", .kind = BENCH_FINDING, .source = "this suite (solvers table)",
     .quote = "without friction every answer at ||r||_2 <= 1e-8 agrees with ldlt-ref's in w "
              "(w is unique for a positive semi-definite A)",
     .metric = "largest wdiff over the solvers that reached 1e-8, per frictionless instance "
               "(friction instances, where the coupled problem may have other solutions, are "
               "noted apart)",
     .band = "<= 1e-6", .b = {{0, 1e-6}}},
    {.id = "newton-least-work-frictionless", .kind = BENCH_FINDING,
     .source = "this suite (solvers table)",
     .quote = "on frictionless problems a Newton method needs the least work to 1e-8",
     .metric = "least work to ||r||_2 <= 1e-8 of newton-min and newton-fb / least of the "
               "others, per frictionless instance",
     .band = "<= 1", .b = {{0, 1}}},
    {.id = "nncg-beats-pgs-friction", .kind = BENCH_FINDING,
     .source = "this suite (solvers table)",
     .quote = "with friction nncg needs less work than pgs to 1e-8",
     .metric = "work to ||r||_2 <= 1e-8, nncg / pgs, per friction instance",
     .band = "< 1", .b = {{0, 1 - 1e-12}}},
    {.id = "spg-friction", .kind = BENCH_FINDING, .source = "this suite (solvers table)",
     .quote = "spg (box of the current normals) reaches 1e-8 on every friction instance",
     .metric = "reached within the budget, per friction instance", .band = "yes",
     .b = {{1, 1}}},
    {.id = "newton-inner-cap-rate", .kind = BENCH_FINDING, .source = "this suite (solvers table)",
     .quote = "with the default inner cap (100 CG iterations) the Newton methods' last steps "
              "contract at the inner solver's linear rate, not quadratically",
     .metric = "order of the last three residuals of the timed runs to 1e-8 (newton-min and "
               "newton-fb), median over the frictionless instances",
     .band = "< 1.5 (median)", .b = {{-INFINITY, 1.5 - 1e-12}}},
};

static int solver_ix(const char *name)
{
    for (int s = 0; s < NSOLVER; s++)
        if (!strcmp(SOLVER[s], name)) return s;
    return -1;
}

/* a / b of a count to a level (iterations l = 0, 1, 2 or work l = 3 + level) where a must be
 * below b: both reached, the ratio; one at its cap, a bound that decides only on its side of
 * the band [0, hi]; else not measured */
static void ratio_case(const study *S, bench_claim *c, int p, int a, int b, int l, double hi)
{
    const run *ra = at(S, p, a), *rb = at(S, p, b);
    if (!ra->ran || !rb->ran) return;
    int w = l >= NLEV;
    int lev = w ? l - NLEV : l;
    double va = w ? ra->work_lev[lev] : ra->it_lev[lev] >= 0 ? ra->it_lev[lev] : NAN;
    double vb = w ? rb->work_lev[lev] : rb->it_lev[lev] >= 0 ? rb->it_lev[lev] : NAN;
    double ca = w ? ra->work : ra->its, cb = w ? rb->work : rb->its;
    char lab[BENCH_LABEL + 96];
    if (isfinite(va) && isfinite(vb)) {
        bench_claim_value(c, S->I[p].name, va / vb, "%.3g");
    } else if (isfinite(va) && cb > 0 && va / cb <= hi) {     /* b at its cap: ratio below */
        snprintf(lab, sizeof lab, "%s (%s at its cap: a bound)", S->I[p].name, SOLVER[b]);
        bench_claim_value(c, lab, va / cb, "<= %.3g");
    } else if (isfinite(vb) && ca > 0 && ca / vb > hi) {      /* a at its cap: ratio above */
        snprintf(lab, sizeof lab, "%s (%s at its cap: a bound)", S->I[p].name, SOLVER[a]);
        bench_claim_value(c, lab, ca / vb, ">= %.3g");
    } else {
        snprintf(lab, sizeof lab, "%s: neither reached the level, or a bound that cannot decide",
                 S->I[p].name);
        bench_claim_missing(c, lab);
    }
}

static int claims(const bench_table_ctx *t, const study *S, bench_claim *cl)
{
    int pgs = solver_ix("pgs"), jac = solver_ix("jacobi"), nncg = solver_ix("nncg"),
        sm = solver_ix("pgs-sm"), apgd = solver_ix("apgd"), spg = solver_ix("spg"),
        nmin = solver_ix("newton-min"), nfb = solver_ix("newton-fb"), admm = solver_ix("admm");
    bench_claims_init(cl, defs, NCLAIM);
    double *v = lcp_malloc((size_t)S->np + 1, sizeof(double));
    if (!v) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    int nv = 0;
    for (int p = 0; p < S->np; p++) {
        const inst *I = &S->I[p];
        if (!strcmp(I->cls, "stack")) {
            ratio_case(S, &cl[C_NNCG], p, nncg, pgs, 1, 1);
            ratio_case(S, &cl[C_PGSSM], p, sm, pgs, NLEV + 1, 1);
        }
        if (!strcmp(I->cls, "pool") || !strcmp(I->cls, "pile")) {
            ratio_case(S, &cl[C_APGD], p, apgd, jac, 1, 1);
            const run *a = at(S, p, apgd), *j = at(S, p, jac);
            if (a->ran && j->ran && a->it_lev[1] >= 0)
                v[nv++] = j->it_lev[1] >= 0 ? (double)a->it_lev[1] / j->it_lev[1]
                                            : (double)a->it_lev[1] / fmax(1, j->its);
        }
        const run *sp = at(S, p, spg);
        if (sp->ran && !I->friction) bench_claim_flag(&cl[C_SPG], 0, I->name, sp->it_lev[1] >= 0);
        if (sp->ran && I->friction)
            bench_claim_flag(&cl[F_SPG_FRICTION], 0, I->name, sp->it_lev[2] >= 0);
        const run *ad = at(S, p, admm);
        if (ad->ran && ad->it_lev[2] >= 0)
            bench_claim_value(&cl[C_ADMM_FACT], I->name, (double)ad->fact, "%.0f");
        const run *ref = at(S, p, REF);
        if (ref->ran && isfinite(ref->rel)) bench_claim_value(&cl[F_REF], I->name, ref->rowwise, "%.1e");
        double wmax = -1;
        for (int s = 0; s < NSOLVER; s++) {
            const run *r = at(S, p, s);
            if (s != REF && r->ran && r->it_lev[2] >= 0 && isfinite(r->wdiff))
                wmax = fmax(wmax, r->wdiff);
        }
        if (wmax >= 0 && !I->friction) bench_claim_value(&cl[F_AGREE], I->name, wmax, "%.1e");
        else if (wmax > 1e-6)
            bench_claim_note(&cl[F_AGREE], "with friction %s: wdiff %.1e (another solution "
                             "at ||r||_2 <= 1e-8)", I->name, wmax);
        if (!I->friction && at(S, p, nmin)->ran) {
            double bn = INFINITY, bo = INFINITY;
            for (int s = 0; s < NSOLVER; s++) {
                double w = at(S, p, s)->ran ? at(S, p, s)->work_lev[2] : NAN;
                if (s == REF || !isfinite(w)) continue;
                if (s == nmin || s == nfb) bn = fmin(bn, w);
                else bo = fmin(bo, w);
            }
            if (isfinite(bn) && isfinite(bo))
                bench_claim_value(&cl[F_NEWTON_WORK], I->name, bn / bo, "%.3g");
            else bench_claim_missing(&cl[F_NEWTON_WORK], "no Newton method or no other reached "
                                                         "1e-8 on an instance");
        }
        if (I->friction) ratio_case(S, &cl[F_NNCG_FRICTION], p, nncg, pgs, NLEV + 2, 1);
    }
    if (nv) bench_claim_spread(&cl[C_APGD10], "granular instances", v, nv, "%.3g");
    else bench_claim_untested(&cl[C_APGD10], "apgd reached 1e-6 on no granular instance");
    static const int which[4][2] = {{C_NEWTON_FB, 0}, {C_NEWTON_MIN, 1}, {C_ADMM_LIN, 2},
                                    {F_NEWTON_CAP, 3}};
    v = lcp_realloc(v, 2 * (size_t)S->np + 1, sizeof(double));
    if (!v) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    for (int c = 0; c < 4; c++) {
        nv = 0;
        int s = which[c][1] == 0 ? nfb : which[c][1] == 1 ? nmin : admm;
        for (int p = 0; p < S->np; p++)
            for (int k = 0; k < (which[c][1] == 3 ? 2 : 1); k++) {
                const run *r = at(S, p, which[c][1] == 3 ? (k ? nfb : nmin) : s);
                double x = which[c][1] == 2 ? r->rate : which[c][1] == 3 ? r->order_cap : r->order;
                if (r->ran && isfinite(x) && (which[c][1] == 2 || !S->I[p].friction)) v[nv++] = x;
            }
        if (nv) bench_claim_spread(&cl[which[c][0]], which[c][1] == 2 ? "instances" :
                                   "frictionless instances", v, nv, "%.3g");
        else bench_claim_untested(&cl[which[c][0]], "no run that reached 1e-8 could tell its "
                                                    "rate (too few iterations, or not monotone)");
    }
    for (int c = 0; c < NCLAIM; c++)
        if (cl[c].ncase == 0 && !cl[c].reason[0])
            bench_claim_untested(&cl[c], "no instance of its kind in this grid");
    lcp_free(v);
    return 0;
}

/* ---- outputs ------------------------------------------------------------------------------ */

static int write_csv(const bench_table_ctx *t, const study *S)
{
    static const char *const head[] = {
        "instance", "rows", "friction", "class", "solver", "ran", "status", "cap",
        "iterations", "work", "residual", "rel_residual", "zdiff", "wdiff", "it_to_1e-4",
        "it_to_1e-6", "it_to_1e-8", "work_to_1e-4", "work_to_1e-6", "work_to_1e-8",
        "factorizations", "time_s", "time_min_s", "time_max_s", "time_setup_s",
        "time_to_tol_s", "failure"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "solvers.csv", t->force, 27, head)) return 1;
    for (int p = 0; p < S->np; p++)
        for (int s = 0; s < NSOLVER; s++) {
            const run *r = at(S, p, s);
            bench_csvw_str(&w, S->I[p].name);
            bench_csvw_int(&w, S->I[p].m);
            bench_csvw_int(&w, S->I[p].friction);
            bench_csvw_str(&w, S->I[p].cls);
            bench_csvw_str(&w, SOLVER[s]);
            bench_csvw_int(&w, r->ran);
            bench_csvw_str(&w, r->status);
            if (S->cap[s] > 0) bench_csvw_int(&w, S->cap[s]);
            else bench_csvw_str(&w, "");
            bench_csvw_int(&w, r->its);
            bench_csvw_num(&w, r->ran ? r->work : NAN, "%.6g");
            bench_csvw_num(&w, r->ran ? r->res : NAN, "%.6e");
            bench_csvw_num(&w, r->ran ? r->rel : NAN, "%.6e");
            bench_csvw_num(&w, r->ran ? r->zdiff : NAN, "%.6e");
            bench_csvw_num(&w, r->ran ? r->wdiff : NAN, "%.6e");
            for (int l = 0; l < NLEV; l++)
                if (r->ran && r->it_lev[l] >= 0) bench_csvw_int(&w, r->it_lev[l]);
                else bench_csvw_str(&w, "");
            for (int l = 0; l < NLEV; l++) bench_csvw_num(&w, r->ran ? r->work_lev[l] : NAN, "%.6g");
            if (r->ran) bench_csvw_int(&w, r->fact);
            else bench_csvw_str(&w, "");
            bench_csvw_num(&w, r->ran ? r->t : NAN, "%.6e");
            bench_csvw_num(&w, r->ran ? r->tmin : NAN, "%.6e");
            bench_csvw_num(&w, r->ran ? r->tmax : NAN, "%.6e");
            bench_csvw_num(&w, r->ran ? r->tsetup : NAN, "%.6e");
            bench_csvw_num(&w, r->ran ? r->t_tol : NAN, "%.6e");
            bench_csvw_str(&w, r->why);
            bench_csvw_end(&w);
        }
    return bench_csvw_close(&w, t->cmd);
}

/* per class x friction: how often each solver needs the least work (time) to 1e-8 */
static void md_wins(FILE *f, const study *S)
{
    static const char *const cls[] = {"small", "stack", "pool", "pile"};
    fprintf(f, "\n## Where each family wins\n\nPer problem kind (class x friction), the "
               "solvers that needed the least work to ||r||_2 <= 1e-8 (ldlt-ref aside: its "
               "unit is a pivot step) and the least time to it (ldlt-ref included), with the "
               "number of instances each won; `none` where no solver reached 1e-8.  Times were "
               "measured under the load of a shared machine: read them as ratios.\n\n");
    static const char *const head[] = {"class", "friction", "instances", "least work",
                                       "least time"};
    bench_md_head(f, 5, head, "llrll");
    for (int c = 0; c < 4; c++)
        for (int fr = 0; fr < 2; fr++) {
            int n = 0, ww[NSOLVER] = {0}, wt[NSOLVER] = {0};
            for (int p = 0; p < S->np; p++) {
                if (strcmp(S->I[p].cls, cls[c]) || S->I[p].friction != fr) continue;
                n++;
                int bw = -1, bt = -1;
                for (int s = 0; s < NSOLVER; s++) {
                    const run *r = at(S, p, s);
                    if (!r->ran) continue;
                    if (s != REF && isfinite(r->work_lev[2]) &&
                        (bw < 0 || r->work_lev[2] < at(S, p, bw)->work_lev[2]))
                        bw = s;
                    if (isfinite(r->t_tol) && (bt < 0 || r->t_tol < at(S, p, bt)->t_tol)) bt = s;
                }
                if (bw >= 0) ww[bw]++;
                if (bt >= 0) wt[bt]++;
            }
            if (!n) continue;
            char a[NSOLVER * 24] = "", b[NSOLVER * 24] = "", nn[16];
            for (int s = 0; s < NSOLVER; s++) {
                if (ww[s]) snprintf(a + strlen(a), sizeof a - strlen(a), "%s%s %d", a[0] ? ", " : "", SOLVER[s], ww[s]);
                if (wt[s]) snprintf(b + strlen(b), sizeof b - strlen(b), "%s%s %d", b[0] ? ", " : "", SOLVER[s], wt[s]);
            }
            snprintf(nn, sizeof nn, "%d", n);
            const char *row[5] = {cls[c], fr ? "yes" : "no", nn, a[0] ? a : "none",
                                  b[0] ? b : "none"};
            bench_md_row(f, 5, row);
        }
}

static void md_results(FILE *f, const study *S)
{
    static const char *const head[] = {"solver", "status", "iterations", "work",
                                       "work to 1e-4 / 1e-6 / 1e-8", "residual", "wdiff",
                                       "time s (min..max)", "time to 1e-8 s"};
    for (int p = 0; p < S->np; p++) {
        fprintf(f, "\n### %s (%d rows, %s, %s)\n\n", S->I[p].name, S->I[p].m,
                S->I[p].friction ? "friction" : "frictionless", S->I[p].cls);
        bench_md_head(f, 9, head, "llrrrrrrr");
        for (int s = 0; s < NSOLVER; s++) {
            const run *r = at(S, p, s);
            char b[9][96], x[3][24];
            const char *row[9];
            snprintf(b[0], 96, "%s%s", SOLVER[s], r->ran && r->it_lev[2] < 0 ? " *" : "");
            snprintf(b[1], 96, "%s", r->status);
            if (!r->ran) {
                for (int k = 2; k < 9; k++) snprintf(b[k], 96, "-");
            } else {
                snprintf(b[2], 96, "%d", r->its);
                bench_fmt(b[3], 96, r->work, "%.0f");
                for (int l = 0; l < NLEV; l++) bench_fmt(x[l], 24, r->work_lev[l], "%.0f");
                snprintf(b[4], 96, "%s / %s / %s", x[0], x[1], x[2]);
                bench_fmt(b[5], 96, r->res, "%.1e");
                bench_fmt(b[6], 96, r->wdiff, "%.1e");
                char m[24], lo[24], hi[24];
                snprintf(b[7], 96, "%s (%s..%s)", bench_fmt(m, 24, r->t, "%.2e"),
                         bench_fmt(lo, 24, r->tmin, "%.1e"), bench_fmt(hi, 24, r->tmax, "%.1e"));
                bench_fmt(b[8], 96, r->t_tol, "%.2e");
            }
            for (int k = 0; k < 9; k++) row[k] = b[k];
            bench_md_row(f, 9, row);
        }
    }
}

static int write_md(const bench_table_ctx *t, const study *S, const bench_claim *cl)
{
    bench_out o;
    FILE *f = bench_table_md(t, &o, "solvers.md", "solvers: the field's solver families, one "
                                                  "residual, work and time");
    if (!f) return 1;
    fprintf(f, "Every solver on %d instances (the committed ones and sphere piles of %d, %d "
               "and %d spheres at step 100, frictionless and with mu 0.5): cold start, tol "
               "1e-8 on ||r||_2 (the one residual: the natural map), iterations at most: ",
            S->np, S->piles[0], S->piles[1], S->piles[2]);
    for (int s = 0; s < NSOLVER; s++)
        if (S->cap[s] > 0) fprintf(f, "%s%s %d", s ? ", " : "", SOLVER[s], S->cap[s]);
    fprintf(f, " (about the same budget in sweep-equivalents; ldlt-ref its own pivot cap); "
               "jacobi with omega auto, every other solver with its defaults "
               "(`lcpbench list settings`).  **Work** is products with A (a PGS sweep is "
               "about one; lcp/README.md, \"The field's solver families\"); *work to eps* is "
               "the work at the first iteration with ||r||_2 <= eps (every iteration is "
               "tested).  ldlt-ref's iterations are pivot steps, another unit: it is in the "
               "time figures and profiles, not the work ones.  Time: the median of the timing "
               "runs (%d, `--reps`) after one warm-up, with no residual tests and exactly the "
               "recorded iterations (min..max beside); the time to 1e-8 is that iteration's share of "
               "the median, as in every figure of the harness.  wdiff is against ldlt-ref's "
               "answer.  The methods that project onto a box take, with friction, the box of "
               "the current normals (lcp/README.md); the Newton methods refuse a friction "
               "index (`unsupported`).  The runs took %.0f s.  `*` after a solver: it did not "
               "reach 1e-8.\n",
            S->reps, S->wall);
    md_wins(f, S);
    bench_claims_md(f, cl, NCLAIM);
    fprintf(f, "\n## Figures\n\n- `plots/INSTANCE-work.png`: ||r||_2 against work, every "
               "solver but ldlt-ref\n- `plots/INSTANCE-time.png`: ||r||_2 against time "
               "(ldlt-ref a point at its time)\n- `plots/perf-work.png`, `perf-time.png`: "
               "Dolan-More performance profiles of the work and the time to 1e-8 over the %d "
               "instances (a solver that did not reach it, or refused the problem, fails)\n"
               "- `plots/data-work-1e-04.png`, `-1e-06`, `-1e-08`: More-Wild data profiles, "
               "the share of instances at ||r||_2 <= eps within the work\n", S->np);
    fprintf(f, "\n## Results\n");
    md_results(f, S);
    fprintf(f, "\n## Files\n\n- `solvers.csv`: every instance x solver (`ran` 0: refused; "
               "iterations and work to 1e-4, 1e-6, 1e-8; times; `failure`)\n- `claims.csv`\n"
               "- `history/INSTANCE__SOLVER.csv`: iteration,work,residual,time_s\n"
               "- `plots/`: the figures (.gp, .csv, .png, .pdf)\n- `instances/`: the "
               "captured piles\n");
    if (bench_close(t->cmd, &o)) return 1;
    fprintf(stderr, "lcpbench table: wrote %s/solvers.md\n", t->out);
    return 0;
}

int bench_table_solvers(const bench_table_ctx *t)
{
    study S = {0};
    int rc = 0;
    S.reps = t->reps_given ? t->reps : REPS;
    S.piles = t->size < 0 ? QUICK_PILES : t->size > 0 ? FULL_PILES : PILES;
    for (int s = 0; s < NSOLVER; s++)
        S.cap[s] = t->maxit > 0 && CAP[s] > 0 ? (int)t->maxit
                   : t->size < 0             ? CAP[s] / 4
                                             : CAP[s];
    lcp_history H[NSOLVER] = {{0}};
    int hcap = 2;
    for (int s = 0; s < NSOLVER; s++) hcap = S.cap[s] + 2 > hcap ? S.cap[s] + 2 : hcap;
    char msg[4400], hdir[BENCH_PATH + 16];
    snprintf(hdir, sizeof hdir, "%s/history", t->out);
    if (bench_mkdir_p(hdir, msg, sizeof msg) != 0) {
        bench_error(t->cmd, "%s", msg);
        return 1;
    }
    for (int s = 0; s < NSOLVER; s++) {
        H[s].cap = hcap;
        H[s].iteration = lcp_malloc((size_t)hcap, sizeof(int));
        H[s].work = lcp_malloc((size_t)hcap, sizeof(double));
        H[s].residual = lcp_malloc((size_t)hcap, sizeof(double));
        if (!H[s].iteration || !H[s].work || !H[s].residual) rc = 1;
    }
    if (rc) bench_error(t->cmd, "out of memory");
    if (rc == 0) rc = collect(t, &S);
    if (rc == 0 && !(S.R = lcp_calloc((size_t)S.np * NSOLVER + 1, sizeof *S.R))) {
        bench_error(t->cmd, "out of memory");
        rc = 1;
    }
    double t0 = bench_now();
    for (int p = 0; rc == 0 && p < S.np; p++) {
        rc |= run_instance(t, &S, p, H);
        if (rc == 0) rc |= figures(t, &S, p, H);
    }
    S.wall = bench_now() - t0;
    bench_claim cl[NCLAIM];
    if (rc == 0) rc |= write_csv(t, &S);
    if (rc == 0) rc |= profiles(t, &S);
    if (rc == 0) rc |= claims(t, &S, cl);
    if (rc == 0) rc |= bench_claims_csv(t->cmd, t->out, t->force, cl, NCLAIM);
    if (rc == 0) rc |= write_md(t, &S, cl);
    for (int s = 0; s < NSOLVER; s++) {
        lcp_free(H[s].iteration);
        lcp_free(H[s].work);
        lcp_free(H[s].residual);
    }
    lcp_free(S.I);
    lcp_free(S.R);
    return rc;
}
