/* amgs_regime.c: `lcpbench table amgs-regime': when does AMGS halve PGS's sweeps?  Our
 * own study (results/README.md, "amgs-regime/"), not a source's table.
 *
 * amgs-D with gamma beta = b makes the row update of PSOR with omega = 2/(1 + b), so its gain
 * over PGS is that of over-relaxation, which depends on the error modes the solve removes.
 * Over a grid of scene x SPOOK compliance eps x seed x step (mu 0, d 4; the stepper's
 * converged state: 100 PGS sweeps or 1e-8 per step, stack 150), for each captured instance:
 * PGS, amgs-D (beta 0.5, gamma 1) and amgs-I (default beta) sweeps to ||r||_2 <= 1e-6 from
 * the stepper's warm start, and on the active rows F of the reference (ldlt-ref): |F|, dim
 * null(J_F^T) (self-stress states), the smallest eigenvalue of A_FF (= E when there are
 * self-stress states), the asymptotic predicted ratios log(rho_GS)/log(rho_SOR) from the
 * spectral radii of the linear iterations on A_FF, and the predicted ratios from the start:
 * the sweep counts of those linear iterations from the warm start's error to the same
 * tolerance (grid.h, the regime analysis).  eps = 0: the stepper runs rigid and each
 * instance's q is projected onto range(J) (bench_problem_rigid).  Probes beside the grid: the
 * default pool's step-100 instance with E removed and q projected (the same geometry,
 * rigid), and the pools at h = 1/120.
 * The grid (the default; --full the same): pool, pool-graded, spheres x eps {0, 1e-7, 1e-6,
 * 1e-5} x seeds 1-4 x steps {100, 200, 300}, the stack (150) x the same eps at step 100, the
 * three probes; --quick: stack (150) and pool at eps {0, 1e-6}, seed 1, step 100, one probe.
 * The predictors' errors per scene and per regime (self-stress states few < 5, intermediate
 * 5-30, many > 30) go to errors.csv and regime.md.
 * Writes regime.md, regime.csv, errors.csv, claims.csv and
 * plots/regime-{predicted,null}.{csv,gp,png,pdf}.
 * Cost per instance: three solves and three linear-model runs of up to --maxit sweeps
 * (default 200000), one ldlt-ref, and O(|F|^3) dense eigenvalue problems (about a second for
 * a 500-row pool); the whole grid took 344 s of CPU, --quick 4 s.
 */
#include "tables.h"
#include "prob.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct rcase {
    const char *scene;
    double eps, d, h;     /* h 0: the scene's default */
    int seed, step;
    int strip;            /* 1: captured with eps, then E removed and q projected (probe) */
    const char *probe;    /* NULL: a grid point */
    int n;                /* stack size (0: scene default) */
    /* measured */
    int ok, noref, rigid, it_pgs, it_d, it_i;   /* noref: ldlt-ref gave no reference */
    double r_d, r_i, moved;
    bench_regime R;
} rcase;

enum { MAXC = 1200 };

static int solve_sweeps(const lcp_problem *P, const char *name, long maxit)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = 1e-6;
    o.max_iter = (int)maxit;
    o.warm = P->z0 != NULL;
    if (!strcmp(name, "amgs-D")) {
        o.beta = 0.5;
        o.gamma = 1;
    }
    size_t m = (size_t)(P->m > 0 ? P->m : 1);
    double *z = lcp_calloc(m, sizeof(double));
    if (!z) return -2;
    if (P->z0) memcpy(z, P->z0, (size_t)P->m * sizeof(double));
    lcp_info info;
    lcp_status st = lcp_solve(bench_solver_find(name), P, &o, z, &info);
    lcp_free(z);
    if (st < 0) return -2;
    return st == LCP_OK ? info.iterations : -1;   /* -1: not within maxit */
}

/* one instance: reference, analysis and the three solves */
static void measure(const bench_table_ctx *t, lcp_problem *P, rcase *c, long maxit)
{
    char msg[512];
    c->moved = NAN;
    if (c->strip || c->eps == 0) {
        if (bench_problem_rigid(P, &c->moved, msg, sizeof msg) != 0) {
            bench_error(t->cmd, "%s: %s", c->scene, msg);
            return;
        }
    }
    c->rigid = P->E == NULL;
    if (!c->rigid) {
        c->rigid = 1;
        for (int i = 0; i < P->m; i++) c->rigid &= P->E[i] == 0;
    }
    size_t m = (size_t)(P->m > 0 ? P->m : 1);
    double *zr = lcp_calloc(m, sizeof(double));
    lcp_options o;
    lcp_info info;
    lcp_options_default(&o);
    o.max_pivots = 50000;
    lcp_status st = zr ? lcp_solve(bench_solver_find("ldlt-ref"), P, &o, zr, &info) : LCP_ERR_NOMEM;
    if (st != LCP_OK && st != LCP_NONUNIQUE) {
        /* reported as a row without a reference (no active set, no ratio), not a failure:
         * the rigid piles' LCPs are degenerate and the pivoting may not decide them */
        fprintf(stderr, "lcpbench table: %s eps %g d %g seed %d step %d: ldlt-ref %s: no "
                        "reference, the row is left without numbers\n", c->scene, c->eps, c->d,
                c->seed, c->step, lcp_status_str(st));
        c->noref = 1;
        c->r_d = c->r_i = NAN;
        lcp_free(zr);
        return;
    }
    if (bench_regime_analyse(P, zr, 0.5, c->rigid, &c->R) != 0)
        bench_error(t->cmd, "%s: the eigenvalue analysis failed", c->scene);
    if (bench_regime_linear(P, zr, P->z0, 0.5, 1e-6, maxit, &c->R) != 0)
        bench_error(t->cmd, "%s: the linear model ran out of memory", c->scene);
    lcp_free(zr);
    c->it_pgs = solve_sweeps(P, "pgs", maxit);
    c->it_d = solve_sweeps(P, "amgs-D", maxit);
    c->it_i = solve_sweeps(P, "amgs-I", maxit);
    c->r_d = c->it_pgs > 0 && c->it_d >= 0 ? (double)c->it_d / c->it_pgs : NAN;
    c->r_i = c->it_pgs > 0 && c->it_i >= 0 ? (double)c->it_i / c->it_pgs : NAN;
    c->ok = 1;
}

/* the grid for t->size, then the probes; returns the number of cases.  The whole grid (the
 * default and --full): pool, pool-graded, spheres x eps {0, 1e-7, 1e-6, 1e-5} x seeds 1-4 x
 * steps {100, 200, 300}, d 4, and the stack (150, not seeded) at step 100 for each eps;
 * --quick: pool and stack (150) at eps {0, 1e-6}, seed 1, step 100 and one probe. */
static int grid(const bench_table_ctx *t, rcase *c)
{
    static const char *const sc_all[] = {"pool", "pool-graded", "spheres", "stack"};
    static const char *const sc_q[] = {"pool", "stack"};
    static const double eps_all[] = {0, 1e-7, 1e-6, 1e-5}, eps_q[] = {0, 1e-6};
    static const int st_all[] = {100, 200, 300}, st_q[] = {100};
    int quick = t->size < 0;
    const char *const *sc = quick ? sc_q : sc_all;
    int nsc = quick ? 2 : 4;
    const double *ev = quick ? eps_q : eps_all;
    int ne = quick ? 2 : 4;
    const int *stv = quick ? st_q : st_all;
    int nst = quick ? 1 : 3, nseed = quick ? 1 : 4, n = 0;
    for (int s = 0; s < nsc; s++)
        for (int e = 0; e < ne; e++)
            for (int seed = 1; seed <= nseed; seed++) {
                int stack = !strcmp(sc[s], "stack");
                if (stack && seed > 1) continue;   /* not seeded */
                for (int k = 0; k < (stack ? 1 : nst) && n < MAXC; k++) {
                    rcase x = {.scene = sc[s], .eps = ev[e], .d = 4, .seed = seed,
                               .step = stv[k]};
                    if (stack) x.n = 150;
                    c[n++] = x;
                }
            }
    rcase probes[] = {
        {.scene = "pool", .eps = 1e-6, .d = 4, .seed = 1, .step = 100, .strip = 1,
         .probe = "pool eps 1e-6 captured, then E = 0 and q projected (same geometry)"},
        {.scene = "pool", .eps = 1e-6, .d = 4, .h = 1.0 / 120, .seed = 1, .step = 100,
         .probe = "pool at h = 1/120"},
        {.scene = "pool-graded", .eps = 1e-6, .d = 4, .h = 1.0 / 120, .seed = 1, .step = 100,
         .probe = "pool-graded at h = 1/120"},
    };
    for (int k = 0; k < (quick ? 1 : 3) && n < MAXC; k++) c[n++] = probes[k];
    return n;
}

/* the regimes of the self-stress states: few < 5, intermediate 5-30, many > 30 */
static int regime_of(const rcase *c)
{
    int k = c->R.nnull;
    return k < 0 ? -1 : k < 5 ? 0 : k <= 30 ? 1 : 2;
}

static const char *regime_word(const rcase *c)
{
    static const char *const w[3] = {"few", "intermediate", "many"};
    int g = regime_of(c);
    return g < 0 ? "" : w[g];
}

/* both predicted and measured: a grid point (no probe) with finite numbers */
static int scored(const rcase *c, double pred)
{
    return c->ok && !c->probe && isfinite(c->r_d) && isfinite(pred);
}

/* run every case; simulations shared by the cases of one scene x eps x d x h x seed */
static int run_cases(const bench_table_ctx *t, rcase *c, int n, long maxit)
{
    int rc = 0;
    bench_progress prog;
    bench_progress_start(&prog, "amgs-regime", n);
    char *done = lcp_calloc((size_t)n, 1);
    for (int a = 0; done && a < n; a++) {
        if (done[a]) continue;
        int idx[8], steps[8], ns = 0;
        for (int b = a; b < n && ns < 8; b++)
            if (!done[b] && !strcmp(c[b].scene, c[a].scene) && c[b].eps == c[a].eps &&
                c[b].d == c[a].d && c[b].h == c[a].h && c[b].seed == c[a].seed &&
                c[b].strip == c[a].strip && c[b].n == c[a].n &&
                (ns == 0 || c[b].step > steps[ns - 1])) {
                idx[ns] = b;
                steps[ns++] = c[b].step;
                done[b] = 1;
            }
        char kv[8][64];
        const char *kvp[8];
        int nkv = 0;
        snprintf(kv[nkv++], 64, "mu=0");
        snprintf(kv[nkv++], 64, "eps=%.17g", c[a].eps);
        snprintf(kv[nkv++], 64, "d=%.17g", c[a].d);
        snprintf(kv[nkv++], 64, "seed=%d", c[a].seed);
        if (c[a].h > 0) snprintf(kv[nkv++], 64, "h=%.17g", c[a].h);
        if (c[a].n > 0) snprintf(kv[nkv++], 64, "n=%d", c[a].n);
        for (int k = 0; k < nkv; k++) kvp[k] = kv[k];
        lcp_problem P[8];
        char msg[4096] = "";
        if (prob_capture_steps(c[a].scene, nkv, kvp, NULL, 0, ns, steps, P, msg, sizeof msg) != 0) {
            bench_error(t->cmd, "%s", msg);
            rc = 1;
            bench_progress_step(&prog, ns);
            continue;
        }
        for (int k = 0; k < ns; k++) {
            measure(t, &P[k], &c[idx[k]], maxit);
            if (!c[idx[k]].ok && !c[idx[k]].noref) rc = 1;
            lcp_problem_free(&P[k]);
            bench_progress_step(&prog, 1);
        }
    }
    bench_progress_end(&prog);
    lcp_free(done);
    return rc;
}

static void case_name(const rcase *c, char *b, size_t n)
{
    if (c->probe) snprintf(b, n, "%s", c->probe);
    else snprintf(b, n, "%s", c->scene);
}

static int write_csv(const bench_table_ctx *t, const rcase *c, int n)
{
    static const char *const head[] = {
        "scene", "probe", "n", "eps", "d", "h", "seed", "step", "rigid", "q_moved", "rows",
        "active_rows", "self_stress", "lambda_min_AFF", "pgs_sweeps", "amgs_D_sweeps",
        "amgs_I_sweeps", "ratio_D", "ratio_I", "rho_gs", "rho_sor", "rho_amgs_I",
        "predicted_D", "predicted_I", "regime", "start_residual_AFF", "linear_pgs_sweeps",
        "linear_amgs_D_sweeps", "linear_amgs_I_sweeps", "predicted_start_D",
        "predicted_start_I", "error_D", "error_start_D"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "regime.csv", t->force, 33, head)) return 1;
    for (int k = 0; k < n; k++) {
        const rcase *x = &c[k];
        bench_csvw_str(&w, x->scene);
        bench_csvw_str(&w, x->probe ? x->probe : "");
        bench_csvw_num(&w, x->n > 0 ? x->n : NAN, "%.0f");
        bench_csvw_num(&w, x->eps, "%g");
        bench_csvw_num(&w, x->d, "%g");
        bench_csvw_num(&w, x->h > 0 ? x->h : 1.0 / 60, "%.9g");
        bench_csvw_int(&w, x->seed);
        bench_csvw_int(&w, x->step);
        bench_csvw_int(&w, x->rigid);
        bench_csvw_num(&w, x->moved, "%.3e");
        bench_csvw_num(&w, x->ok ? x->R.m : NAN, "%.0f");
        bench_csvw_num(&w, x->ok ? x->R.nf : NAN, "%.0f");
        bench_csvw_num(&w, x->ok && x->R.nnull >= 0 ? x->R.nnull : NAN, "%.0f");
        bench_csvw_num(&w, x->ok ? x->R.lam_min : NAN, "%.6e");
        bench_csvw_num(&w, x->ok && x->it_pgs >= 0 ? x->it_pgs : NAN, "%.0f");
        bench_csvw_num(&w, x->ok && x->it_d >= 0 ? x->it_d : NAN, "%.0f");
        bench_csvw_num(&w, x->ok && x->it_i >= 0 ? x->it_i : NAN, "%.0f");
        bench_csvw_num(&w, x->ok ? x->r_d : NAN, "%.4f");
        bench_csvw_num(&w, x->ok ? x->r_i : NAN, "%.4f");
        bench_csvw_num(&w, x->ok ? x->R.rho_gs : NAN, "%.9f");
        bench_csvw_num(&w, x->ok ? x->R.rho_sor : NAN, "%.9f");
        bench_csvw_num(&w, x->ok ? x->R.rho_amgs_i : NAN, "%.9f");
        bench_csvw_num(&w, x->ok ? x->R.pred_d : NAN, "%.4f");
        bench_csvw_num(&w, x->ok ? x->R.pred_i : NAN, "%.4f");
        bench_csvw_str(&w, x->ok ? regime_word(x) : "");
        bench_csvw_num(&w, x->ok ? x->R.lin_r0 : NAN, "%.6e");
        bench_csvw_num(&w, x->ok && x->R.lin_gs >= 0 ? (double)x->R.lin_gs : NAN, "%.0f");
        bench_csvw_num(&w, x->ok && x->R.lin_sor >= 0 ? (double)x->R.lin_sor : NAN, "%.0f");
        bench_csvw_num(&w, x->ok && x->R.lin_i >= 0 ? (double)x->R.lin_i : NAN, "%.0f");
        bench_csvw_num(&w, x->ok ? x->R.pred_lin_d : NAN, "%.4f");
        bench_csvw_num(&w, x->ok ? x->R.pred_lin_i : NAN, "%.4f");
        bench_csvw_num(&w, x->ok ? x->R.pred_d - x->r_d : NAN, "%.4f");
        bench_csvw_num(&w, x->ok ? x->R.pred_lin_d - x->r_d : NAN, "%.4f");
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

static void md_table(FILE *f, const rcase *c, int n, long maxit)
{
    static const char *const head[] = {"scene", "eps", "d", "seed", "step", "rows", "active",
                                       "self-stress", "lambda_min(A_FF)", "PGS sweeps",
                                       "amgs-D/PGS", "predicted", "from start", "amgs-I/PGS",
                                       "predicted I"};
    bench_md_head(f, 15, head, "lrrrrrrrrrrrrrr");
    for (int k = 0; k < n; k++) {
        const rcase *x = &c[k];
        char b[15][96];
        case_name(x, b[0], 96);
        if (x->n > 0) snprintf(b[0] + strlen(b[0]), 96 - strlen(b[0]), " (%d)", x->n);
        snprintf(b[1], 96, x->strip ? "1e-6 -> 0" : "%g", x->eps);
        snprintf(b[2], 96, "%g", x->d);
        snprintf(b[3], 96, "%d", x->seed);
        snprintf(b[4], 96, "%d", x->step);
        bench_fmt(b[5], 96, x->ok ? x->R.m : NAN, "%.0f");
        bench_fmt(b[6], 96, x->ok ? x->R.nf : NAN, "%.0f");
        bench_fmt(b[7], 96, x->ok && x->R.nnull >= 0 ? x->R.nnull : NAN, "%.0f");
        bench_fmt(b[8], 96, x->ok ? x->R.lam_min : NAN, "%.2e");
        if (x->noref) snprintf(b[9], 96, "no reference");
        else if (!x->ok) snprintf(b[9], 96, "failed");
        else if (x->it_pgs >= 0) snprintf(b[9], 96, "%d", x->it_pgs);
        else snprintf(b[9], 96, "> %ld", maxit);
        bench_fmt(b[10], 96, x->ok ? x->r_d : NAN, "%.2f");
        bench_fmt(b[11], 96, x->ok ? x->R.pred_d : NAN, "%.2f");
        bench_fmt(b[12], 96, x->ok ? x->R.pred_lin_d : NAN, "%.2f");
        bench_fmt(b[13], 96, x->ok ? x->r_i : NAN, "%.2f");
        bench_fmt(b[14], 96, x->ok ? x->R.pred_i : NAN, "%.2f");
        const char *row[15];
        for (int j = 0; j < 15; j++) row[j] = b[j];
        bench_md_row(f, 15, row);
    }
}

/* ---- the predictors' errors per scene and per regime ---- */

/* the scenes; the regimes over the compliant instances (with E = 0 the self-stress states
 * are not errors), the rigid ones apart; all */
enum { NGROUP = 9, GROUP_ALL = 8 };
static const char *const group_name[NGROUP] = {"pool", "pool-graded", "spheres", "stack",
                                               "compliant, few (< 5)",
                                               "compliant, intermediate (5-30)",
                                               "compliant, many (> 30)", "rigid (E = 0)", "all"};

static int in_group(const rcase *c, int g)
{
    if (g < 4) return !strcmp(c->scene, group_name[g]);
    if (g < 7) return !c->rigid && regime_of(c) == g - 4;
    if (g == 7) return c->rigid;
    return 1;
}

typedef struct errstat {
    int n, nin;
    double mean_abs, max_abs, mean;   /* of predicted - measured */
} errstat;

static errstat err_of(const rcase *c, int n, int g, int start)
{
    errstat e = {0, 0, 0, 0, 0};
    for (int j = 0; j < n; j++) {
        double p = start ? c[j].R.pred_lin_d : c[j].R.pred_d;
        if (!scored(&c[j], p) || !in_group(&c[j], g)) continue;
        double d = p - c[j].r_d;
        e.n++;
        e.nin += fabs(d) <= 0.06;
        e.mean_abs += fabs(d);
        e.mean += d;
        e.max_abs = fmax(e.max_abs, fabs(d));
    }
    if (e.n) e.mean_abs /= e.n, e.mean /= e.n;
    else e.mean_abs = e.mean = e.max_abs = NAN;
    return e;
}

static int write_errors(const bench_table_ctx *t, const rcase *c, int n)
{
    static const char *const head[] = {"group", "predictor", "instances", "mean_abs_error",
                                       "max_abs_error", "mean_error", "within_0.06"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "errors.csv", t->force, 7, head)) return 1;
    for (int g = 0; g < NGROUP; g++)
        for (int s = 0; s < 2; s++) {
            errstat e = err_of(c, n, g, s);
            bench_csvw_str(&w, group_name[g]);
            bench_csvw_str(&w, s ? "from start" : "asymptotic");
            bench_csvw_int(&w, e.n);
            bench_csvw_num(&w, e.mean_abs, "%.4f");
            bench_csvw_num(&w, e.max_abs, "%.4f");
            bench_csvw_num(&w, e.mean, "%.4f");
            bench_csvw_int(&w, e.nin);
            bench_csvw_end(&w);
        }
    return bench_csvw_close(&w, t->cmd);
}

static void md_errors(FILE *f, const rcase *c, int n)
{
    /* no '|' in a cell: it would split the Markdown table's columns */
    static const char *const head[] = {"scene or regime", "instances", "asymptotic: mean abs err",
                                       "max abs err", "mean err", "within 0.06",
                                       "from start: mean abs err", "max abs err", "mean err",
                                       "within 0.06"};
    fprintf(f, "\n## The predictors' errors\n\nPredicted minus measured amgs-D/PGS over the "
               "grid points with both numbers (probes left out), per scene and, over the compliant "
               "instances, per regime of self-stress states (few < 5, intermediate 5-30, many "
               "> 30); the rigid instances (E = 0: their self-stress states are no errors) "
               "apart.  Asymptotic: "
               "log(rho_GS)/log(rho_SOR) on A_FF.  From start: the linear GS and SOR iterations "
               "on A_FF from the warm start's error e0 = z0_F - z_F, counted to ||A_FF e||_2 <= "
               "1e-6 (the solvers' own test on the active rows); its sweep counts are "
               "`linear_*_sweeps` in regime.csv.  Every number in `errors.csv`.\n\n");
    bench_md_head(f, 10, head, "lrrrrrrrrr");
    for (int g = 0; g < NGROUP; g++) {
        errstat e[2] = {err_of(c, n, g, 0), err_of(c, n, g, 1)};
        char b[10][64];
        snprintf(b[0], 64, "%s", group_name[g]);
        snprintf(b[1], 64, "%d", e[0].n);
        for (int s = 0; s < 2; s++) {
            bench_fmt(b[2 + 4 * s], 64, e[s].mean_abs, "%.3f");
            bench_fmt(b[3 + 4 * s], 64, e[s].max_abs, "%.3f");
            bench_fmt(b[4 + 4 * s], 64, e[s].mean, "%+.3f");
            snprintf(b[5 + 4 * s], 64, "%d of %d", e[s].nin, e[s].n);
        }
        const char *row[10];
        for (int j = 0; j < 10; j++) row[j] = b[j];
        bench_md_row(f, 10, row);
    }
}

enum { NCLAIM = 7 };
#define RG_SRC "this suite (results/README.md, \"amgs-regime/\")"

static const bench_claim_def defs[NCLAIM] = {
    {.id = "rg-rigid", .kind = BENCH_FINDING, .source = RG_SRC, .b = {{0.40, 0.65}},
     .quote = "With rigid contacts and a consistent q (E = 0, q in range(J)) amgs-D "
                  "takes about half of PGS's sweeps, the paper's Pool 1 ratio 0.53",
     .metric = "amgs-D/PGS sweeps to 1e-6 on the rigid instances, per scene",
     .band = "median in [0.40, 0.65] (the paper's 0.48-0.55 widened by 0.08 and "
                  "0.10)"},
    {.id = "rg-selfstress", .kind = BENCH_FINDING, .source = RG_SRC, .b = {{0.75, 1.05}},
     .quote = "With compliance E > 0 and many self-stress states (dim null(J_F^T) > "
                  "30) the gain goes: the ratio is near 1",
     .metric = "amgs-D/PGS on the compliant instances with more than 30 self-stress states",
     .band = "median in [0.75, 1.05]"},
    {.id = "rg-isostatic", .kind = BENCH_FINDING, .source = RG_SRC, .b = {{0.40, 0.65}},
     .quote = "With no self-stress state (a chain or stack, a near-isostatic pile) the "
                  "ratio is about 0.5 whatever the compliance",
     .metric = "amgs-D/PGS on the compliant instances with dim null(J_F^T) = 0",
     .band = "median in [0.40, 0.65]"},
    {.id = "rg-predicted", .kind = BENCH_FINDING, .source = RG_SRC, .b = {{0.8, 1}},
     .quote = "The linearised rate ratio log(rho_GS)/log(rho_SOR) on the reference's "
                  "active rows predicts the measured amgs-D/PGS ratio within 0.06",
     .metric = "share of the grid points (probes left out) with both numbers where "
               "|measured - predicted| <= 0.06",
     .band = "at least 0.8 (the issue's count was 25 of 27)"},
    {.id = "rg-beta-I", .kind = BENCH_FINDING, .source = RG_SRC, .b = {{0.9, 1.15}},
     .quote = "amgs-I (Omega = beta I, beta = mean a_ii) takes about as many sweeps as "
                  "PGS in every regime",
     .metric = "amgs-I/PGS sweeps to 1e-6 over all instances",
     .band = "median in [0.90, 1.15] (the paper's 1.02-1.05 widened)"},
    {.id = "rg-intermediate", .kind = BENCH_FINDING, .source = RG_SRC, .b = {{0.60, 0.90}},
     .quote = "Between the extremes (E > 0, 5 to 30 self-stress states) the ratio is "
                  "neither about 0.5 nor about 1 but in between",
     .metric = "amgs-D/PGS on the compliant instances with 5 to 30 self-stress states",
     .band = "median in [0.60, 0.90] (the referees' 0.65-0.81 widened)"},
    {.id = "rg-predicted-start", .kind = BENCH_FINDING, .source = RG_SRC, .b = {{0.8, 1}},
     .quote = "The linear GS and SOR iterations on the active rows A_FF, run from the warm "
                  "start's error and counted to the solvers' tolerance, predict the measured "
                  "amgs-D/PGS ratio within 0.06",
     .metric = "share of the grid points (probes left out) with both numbers where "
               "|measured - predicted from the start| <= 0.06",
     .band = "at least 0.8 (as rg-predicted)"},
};

static void findings(const rcase *c, int n, bench_claim *cl)
{
    bench_claims_init(cl, defs, NCLAIM);
    double *v = lcp_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!v) return;
    static const char *const scenes[] = {"pool", "pool-graded", "stack", "spheres"};
    for (int s = 0; s < 4; s++) {   /* rigid, per scene */
        int k = 0;
        for (int j = 0; j < n; j++)
            if (c[j].ok && c[j].rigid && !strcmp(c[j].scene, scenes[s])) v[k++] = c[j].r_d;
        char lab[64];
        snprintf(lab, sizeof lab, "%s", scenes[s]);
        if (k) bench_claim_spread(&cl[0], lab, v, k, "%.2f");
    }
    for (int w = 0; w < 2; w++) {
        int k = 0;
        for (int j = 0; j < n; j++)
            if (c[j].ok && !c[j].rigid && c[j].R.nnull >= 0 &&
                (w == 0 ? c[j].R.nnull > 30 : c[j].R.nnull == 0))
                v[k++] = c[j].r_d;
        if (k) bench_claim_spread(&cl[1 + w], "compliant instances", v, k, "%.2f");
        else bench_claim_missing(&cl[1 + w], "no instance of this kind in the grid");
    }
    for (int p = 0; p < 2; p++) {   /* rg-predicted (asymptotic), rg-predicted-start */
        errstat e = err_of(c, n, GROUP_ALL, p);
        bench_claim *cp = &cl[p ? 6 : 3];
        if (e.n) {
            char lab[96];
            snprintf(lab, sizeof lab, "%d of %d instances within 0.06 =", e.nin, e.n);
            bench_claim_value(cp, lab, (double)e.nin / e.n, "%.2f");
            for (int g = 0; g < GROUP_ALL; g++) {
                errstat q = err_of(c, n, g, p);
                if (q.n)
                    bench_claim_note(cp, "%s: %d of %d, mean |err| %.3f, max %.3f", group_name[g],
                                     q.nin, q.n, q.mean_abs, q.max_abs);
            }
        } else bench_claim_missing(cp, "no instance with both numbers");
    }
    {   /* rg-intermediate */
        int k = 0;
        for (int j = 0; j < n; j++)
            if (c[j].ok && !c[j].rigid && regime_of(&c[j]) == 1) v[k++] = c[j].r_d;
        if (k) bench_claim_spread(&cl[5], "compliant instances", v, k, "%.2f");
        else bench_claim_missing(&cl[5], "no instance of this kind in the grid");
    }
    int k = 0;
    for (int j = 0; j < n; j++)
        if (c[j].ok) v[k++] = c[j].r_i;
    bench_claim_spread(&cl[4], "all instances", v, k, "%.2f");
    lcp_free(v);
}

static int figures(const bench_table_ctx *t, const rcase *c, int n)
{
    /* series: rigid, compliant with self-stress, compliant without; then y = x */
    double *x[3], *y[3], *x2[3];
    int k[3] = {0, 0, 0}, kl = 0;
    double *xl = lcp_malloc((size_t)(n + 1), sizeof(double));
    double *yl = lcp_malloc((size_t)(n + 1), sizeof(double));
    for (int s = 0; s < 3; s++) {
        x[s] = lcp_malloc((size_t)(n + 1), sizeof(double));
        y[s] = lcp_malloc((size_t)(n + 1), sizeof(double));
        x2[s] = lcp_malloc((size_t)(n + 1), sizeof(double));
    }
    int ok = xl && yl;
    for (int s = 0; s < 3; s++) ok &= x[s] && y[s] && x2[s];
    int rc = 0;
    char dir[BENCH_PATH + 16];
    snprintf(dir, sizeof dir, "%s/plots", t->out);
    for (int j = 0; ok && j < n; j++) {
        if (!c[j].ok || !isfinite(c[j].r_d)) continue;
        int s = c[j].rigid ? 0 : c[j].R.nnull > 0 ? 1 : 2;
        x[s][k[s]] = c[j].R.pred_d;
        x2[s][k[s]] = c[j].R.nnull;
        y[s][k[s]++] = c[j].r_d;
        if (isfinite(c[j].R.pred_lin_d)) {
            xl[kl] = c[j].R.pred_lin_d;
            yl[kl++] = c[j].r_d;
        }
    }
    static const char *const title[3] = {"rigid (E = 0, q in range(J))",
                                         "compliant, with self-stress states",
                                         "compliant, no self-stress state"};
    double lx[2] = {0.3, 1.3}, ly[2] = {0.3, 1.3};
    if (ok) {
        bench_series s[5];
        int ns = 0;
        for (int j = 0; j < 3; j++)
            if (k[j]) s[ns++] = (bench_series){title[j], k[j], x[j], y[j], 1};
        if (kl) s[ns++] = (bench_series){"all, predicted from the start (linear model)", kl, xl, yl, 1};
        s[ns++] = (bench_series){"measured = predicted", 2, lx, ly, 0};
        bench_fig F;
        bench_fig_init(&F);
        F.base = "regime-predicted";
        F.title = "amgs-D/PGS sweeps to 1e-6: measured against the predictions";
        F.xlabel = "predicted ratio: log(rho_GS)/log(rho_SOR) on A_FF, or from the start";
        F.ylabel = "measured amgs-D/PGS sweeps";
        F.kind = BENCH_FIG_LINES;
        F.ns = ns;
        F.s = s;
        if (bench_fig_write(t->cmd, dir, &F, t->style) < 0) rc = 1;
        ns = 0;
        for (int j = 0; j < 3; j++)
            if (k[j]) s[ns++] = (bench_series){title[j], k[j], x2[j], y[j], 1};
        /* the key in the bottom right corner, under the data: the y range starts far enough
         * below the lowest ratio (a third of the plot) that no point lies behind it */
        double ylo = INFINITY, yhi = 1.0;
        char yr[64];
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < k[j]; i++) ylo = fmin(ylo, y[j][i]), yhi = fmax(yhi, y[j][i]);
        yhi += 0.05;
        if (isfinite(ylo)) ylo -= 0.5 * (yhi - ylo);
        snprintf(yr, sizeof yr, "set yrange [%.2f:%.2f]\n", ylo, yhi);
        bench_fig_init(&F);
        F.base = "regime-null";
        F.title = "amgs-D/PGS sweeps to 1e-6 against the self-stress states";
        F.xlabel = "self-stress states dim null(J_F^T) on the active rows";
        F.ylabel = "measured amgs-D/PGS sweeps";
        F.kind = BENCH_FIG_LINES;
        F.key = "at graph 0.99, graph 0.01 right bottom";
        F.extra = isfinite(ylo) ? yr : NULL;
        F.ns = ns;
        F.s = s;
        if (ns && bench_fig_write(t->cmd, dir, &F, t->style) < 0) rc = 1;
    } else rc = 1;
    for (int s = 0; s < 3; s++) {
        lcp_free(x[s]);
        lcp_free(y[s]);
        lcp_free(x2[s]);
    }
    lcp_free(xl);
    lcp_free(yl);
    return rc;
}

int bench_table_amgs_regime(const bench_table_ctx *t)
{
    long maxit = t->maxit > 0 ? t->maxit : 200000;
    rcase *c = lcp_calloc(MAXC, sizeof(rcase));
    if (!c) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    int n = grid(t, c);
    int rc = run_cases(t, c, n, maxit);
    bench_claim cl[NCLAIM];
    findings(c, n, cl);
    if (write_csv(t, c, n) || write_errors(t, c, n) || bench_claims_csv(t->cmd, t->out, t->force, cl, NCLAIM)) rc = 1;
    if (figures(t, c, n)) rc = 1;
    bench_out o;
    FILE *f = bench_table_md(t, &o, "regime.md", "amgs-regime: when does AMGS halve PGS's "
                                                 "sweeps? (our own study)");
    if (f) {
        fprintf(f, "amgs-D with gamma beta = b makes the row update of PSOR with omega = 2/(1 + "
                   "b) (lcp/README.md, \"The AMGS family\"), so its gain over PGS is that of "
                   "over-relaxation, set by the slowest error modes.  Per instance (mu = 0, "
                   "the stepper's converged state, warm start z0): sweeps to ||r||_2 <= 1e-6 "
                   "of PGS, amgs-D (beta 0.5, gamma 1) and amgs-I (beta = mean a_ii), at most "
                   "%ld each; on the active rows F of the reference ldlt-ref (z above its "
                   "bound or w = 0): |F|, the self-stress states dim null(J_F^T), the smallest "
                   "eigenvalue of A_FF, and the predicted ratio log(rho_GS)/log(rho_SOR) from "
                   "the spectral radii of the Gauss-Seidel and SOR(omega = 4/3) iteration "
                   "matrices on A_FF (dense, LAPACKE dgeev; amgs-I: SOR with omega_i = 2 "
                   "a_ii/(beta + a_ii)).  eps = 0: the stepper runs rigid and each instance's "
                   "q is projected onto range(J) so that the rigid LCP is consistent; its "
                   "self-stress modes are then eigenvalue-1 modes of both iterations that are "
                   "not errors and are left out of rho.  SPOOK compliance E = 4 eps/(h^2 (1 + "
                   "4 d)).  Grid: %s.\n\n", maxit,
                t->size < 0 ? "quick: pool, stack (150) x eps {0, 1e-6} x d 4 x seed 1 x "
                              "step 100"
                            : "pool, pool-graded, spheres x eps {0, 1e-7, 1e-6, 1e-5} x d 4 x "
                              "seeds 1-4 x steps {100, 200, 300}, and the stack (150) x the "
                              "same eps at step 100");
        fprintf(f, "The stack has no random layout: only seed 1 is run.  Probes below the grid "
                   "rows: the same geometry as the default pool (eps 1e-6) with E removed "
                   "and q projected, and the pools at h = 1/120.\n\n");
        md_table(f, c, n, maxit);
        md_errors(f, c, n);
        bench_claims_md(f, cl, NCLAIM);
        fprintf(f, "\n## Figures\n\n- `plots/regime-predicted.png`: measured amgs-D/PGS "
                   "against the predicted ratios, asymptotic and from the start (the line: equal)\n- `plots/regime-null.png`: "
                   "measured amgs-D/PGS against the self-stress states\n\n`.pdf`, `.gp` and "
                   "the data `.csv` beside them; every number in `regime.csv`, the findings "
                   "in `claims.csv`.\n");
        if (bench_close(t->cmd, &o)) rc = 1;
        else fprintf(stderr, "lcpbench table: wrote %s/regime.md\n", t->out);
    } else rc = 1;
    lcp_free(c);
    return rc;
}
