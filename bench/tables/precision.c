/* precision.c: `lcpbench table precision' (our own study; issue "float32 as a measured
 * axis"): what float32 storage of J and B = J Minv in the matrix-free PGS sweep (pgs
 * precision=float32: each product, u, z and the residual in double; lcp/README.md,
 * "float32 storage") does to convergence, to the lowest residual a solve reaches and to the
 * time of a sweep against the streaming floor, beside float64.
 *
 * Instances: every folder of problems/instances/ (the working directory's, else the source
 * tree lcpbench was built from) and captured sphere piles (`spheres' at step 30, 10 sweeps a
 * step, mu 0.5: n = 1000, and with --full n = 2000); --quick: the five smallest committed
 * instances (capsule, three-spheres, chain, stack-30, boxes-tower) and pool-mu0, no pile.
 * Convergence: pgs from a cold start, natural order, omega 1, at each precision, to the cap
 * (20000 sweeps; --quick 3000; --full 100000) or ||r||_2 <= 1e-14; ||r||_2 of every sweep
 * computed by the harness in double on the float64 problem (the one residual): sweeps to
 * 1e-4, 1e-6, 1e-8 (the first sweep at or below, rule 7), the lowest ||r||_2 and its sweep.
 * The predicted float32 floor: a fixed point of the float32 sweep solves the LCP of
 * A32 = J32 B32^T + E, and w - w32 = (J B^T - J32 B32^T) z with each entry of J32 and B32
 * within a relative u = 2^-24 of J's and B's, so ||r(z)||_2 <= ||w - w32||_2 <= beta =
 * 2u || |J| |B|^T |z| + |E| |z| ||_2 (+ O(u^2)), taken at float64's last iterate; scale =
 * beta / 2u.  "exact" marks an instance whose J and B are floats already (then float32 is
 * float64 bit for bit).
 * Time: per instance of at least TIME_MIN_ROWS rows, R paired rounds (5; --quick 3) of a
 * STREAM-style triad on 3 x 64 MiB arrays, then float64, float32 and float64 again, each the slope of a solve's time over K
 * sweeps (tol < 0: (t(K+1) - t(1)) / K, so the set-up cancels; K sized to about 20 ms, each solve the least of 3): the
 * medians of seconds per sweep, float32 / float64 (and float64 / float64, the noise
 * control), and each against its floor: the bytes a sweep moves at least once in CSR form
 * (J and B: 12 bytes an entry in float64, 8 in float32; q, lo, hi, omega / a_ii, z: 8 a row;
 * E, findex; u read and written: 16 a coordinate; results/performance.md, "Memory and the
 * streaming floor") over the round's triad bandwidth.  An instance in the last-level cache
 * is not limited by memory: its ratio says what the rows' instructions cost.  The pile for
 * timing (10^5 rows, n = 11800, from memory) is captured too (not in --quick); its
 * convergence only with --full.
 * Writes precision.md, precision.csv (one row per instance and precision), precision-time.csv,
 * claims.csv and plots/precision-residual.{csv,gp,png,pdf} (the residual per sweep at both
 * precisions where float32 stalls highest, on two scenes).  The non-timing columns
 * regenerate bit for bit (one thread, fixed order, no randomness).
 * Cost: 2 x cap sweeps and residuals per instance at most (about a minute here), the
 * captures (a few seconds) and the timing rounds.
 */
#include "tables.h"

#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NTOL = 3, NPREC = 2, MAXINST = 64, TRIAD_N = 1 << 23 };
static const double tols[NTOL] = {1e-4, 1e-6, 1e-8};
static const char *const quick_names[] = {"capsule-step1", "three-spheres-step1", "chain-step300",
                                          "stack-30-step100", "boxes-tower-5-step10",
                                          "pool-mu0-step100"};
#define U32 0x1.0p-24   /* float32's unit roundoff */
#define FLOOR_STOP 1e-14
/* instances below this many rows are not timed: a sweep of microseconds measures the
 * machine's noise, not the storage */
#define TIME_MIN_ROWS 500

typedef struct inst {
    char name[128], dir[BENCH_PATH];
    int m, exact, pile, converge;        /* converge: the convergence runs are made */
    int reach[NPREC][NTOL];              /* first sweep at or below tols[t], -1 never */
    double low[NPREC];                   /* lowest ||r||_2 within the cap */
    int low_at[NPREC], sweeps[NPREC];
    const char *status[NPREC];
    double beta, scale;
    double t[NPREC], t64b, ratio, noise;  /* medians: seconds a sweep, t32/t64, t64/t64' */
    double floor_ratio[NPREC];            /* sweep / its floor, median of the rounds */
    double bytes[NPREC], bw;              /* bytes a sweep per precision, median triad B/s */
    bench_history h[NPREC];               /* kept for the figure's instances */
} inst;

typedef struct prec_tab {
    int n, cap, rounds;
    inst *I;
} prec_tab;

/* ---- convergence ------------------------------------------------------------------------- */

static int exact_in_float(const lcp_problem *P, const lcp_csr *B)
{
    for (int k = 0; k < LCP_CSR_NNZ(&P->J); k++)
        if ((double)(float)P->J.x[k] != P->J.x[k]) return 0;
    for (int k = 0; k < LCP_CSR_NNZ(B); k++)
        if ((double)(float)B->x[k] != B->x[k]) return 0;
    return 1;
}

/* scale = || |J| |B|^T |z| + |E| |z| ||_2; exact: J and B are floats */
static double scale_of(const lcp_problem *P, const double *z, int *exact)
{
    lcp_csr B = {0};
    double *t = lcp_calloc((size_t)P->n + 1, sizeof(double)), s = 0.0;
    if (!t || lcp_csr_multiply(&P->J, &P->Minv, &B) != LCP_OK) {
        lcp_free(t);
        return NAN;
    }
    *exact = exact_in_float(P, &B);
    for (int i = 0; i < P->m; i++)                               /* t = |B|^T |z| */
        for (int k = B.p[i]; k < B.p[i + 1]; k++) t[B.j[k]] += fabs(B.x[k]) * fabs(z[i]);
    for (int i = 0; i < P->m; i++) {
        double v = P->E ? fabs(P->E[i] * z[i]) : 0.0;
        for (int k = P->J.p[i]; k < P->J.p[i + 1]; k++) v += fabs(P->J.x[k]) * t[P->J.j[k]];
        s += v * v;
    }
    lcp_csr_free(&B);
    lcp_free(t);
    return sqrt(s);
}

static int converge(const bench_table_ctx *t, const lcp_problem *P, inst *I, int cap)
{
    double *z = lcp_malloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
    if (!z) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    int rc = 0;
    for (int p = 0; p < NPREC; p++) {
        lcp_options o;
        lcp_options_default(&o);
        o.tol = FLOOR_STOP;
        o.max_iter = cap;
        o.form = LCP_FORM_MATRIX_FREE;
        o.precision = p ? LCP_PRECISION_FLOAT32 : LCP_PRECISION_FLOAT64;
        bench_result r;
        lcp_status st = bench_run_solver(P, bench_solver_find("pgs"), &o, NULL, 0, z, &r, &I->h[p]);
        I->status[p] = lcp_status_str(st);
        I->sweeps[p] = r.iterations;
        for (int k = 0; k < NTOL; k++) I->reach[p][k] = bench_history_reach(&I->h[p], tols[k]);
        I->low[p] = bench_history_min(&I->h[p]);
        I->low_at[p] = -1;
        for (int k = 0; k < I->h[p].n; k++)
            if (I->h[p].r2[k] == I->low[p]) {
                I->low_at[p] = I->h[p].iter[k];
                break;
            }
        if (st < 0) {
            bench_error(t->cmd, "%s: pgs %s: %s", I->name, lcp_precision_name(o.precision),
                        lcp_status_str(st));
            rc = 1;
        }
        if (p == 0) {                               /* beta at float64's last iterate */
            I->scale = scale_of(P, z, &I->exact);
            I->beta = 2.0 * U32 * I->scale;
        }
    }
    lcp_free(z);
    return rc;
}

/* seconds of a pgs solve of `sweeps' sweeps without a test */
static double solve_time1(const lcp_problem *P, lcp_precision prec, int sweeps, double *z)
{
    lcp_options o;
    lcp_options_default(&o);
    o.tol = -1;
    o.max_iter = sweeps;
    o.form = LCP_FORM_MATRIX_FREE;
    o.precision = prec;
    lcp_info info;
    memset(z, 0, sizeof(double) * (size_t)P->m);
    double t0 = bench_now();
    lcp_solve(bench_solver_find("pgs"), P, &o, z, &info);
    return bench_now() - t0;
}

/* ---- time against the floor -------------------------------------------------------------- */

static double triad(double *a, const double *b, const double *c)   /* bytes a second, best of 3 */
{
    double best = 0.0;
    for (int pass = 0; pass < 3; pass++) {
        double t0 = bench_now();
        for (long i = 0; i < TRIAD_N; i++) a[i] = b[i] + 3.0 * c[i];
        double bw = 24.0 * (double)TRIAD_N / (bench_now() - t0);
        if (bw > best) best = bw;
    }
    return best;
}

/* seconds of a pgs solve of `sweeps' sweeps without a test, the least of 3 (a loaded
 * machine takes the core away now and then) */
static double solve_time(const lcp_problem *P, lcp_precision prec, int sweeps, double *z)
{
    double best = INFINITY;
    for (int k = 0; k < 3; k++) best = fmin(best, solve_time1(P, prec, sweeps, z));
    return best;
}

static double sweep_time(const lcp_problem *P, lcp_precision prec, int K, double *z)
{
    double t1 = solve_time(P, prec, 1, z);
    return (solve_time(P, prec, K + 1, z) - t1) / K;
}

/* bytes one matrix-free sweep moves at least once in CSR form (tests/bench/bench_mem.c's
 * count, values of J and B in `value' bytes) */
static double sweep_bytes(const lcp_problem *P, double value)
{
    lcp_csr B = {0};
    if (lcp_csr_multiply(&P->J, &P->Minv, &B) != LCP_OK) return NAN;
    double m = P->m, n = P->n;
    double b = (value + 4.0) * (LCP_CSR_NNZ(&P->J) + LCP_CSR_NNZ(&B)) + 8.0 * (m + 1);
    b += 40.0 * m + (P->E ? 8.0 * m : 0.0) + (P->findex ? 4.0 * m : 0.0) + 16.0 * n;
    lcp_csr_free(&B);
    return b;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_dbl);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { RMAX = 9 };

static int timing(const bench_table_ctx *t, const lcp_problem *P, inst *I, int rounds,
                  double *ta, double *tb, double *tc)
{
    double *z = lcp_malloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
    if (!z) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    I->bytes[0] = sweep_bytes(P, 8.0);
    I->bytes[1] = sweep_bytes(P, 4.0);
    double probe = fmax(sweep_time(P, LCP_PRECISION_FLOAT64, 5, z), 1e-9);
    int K = (int)fmin(fmax(0.02 / probe, 5), 20000);
    double t64[RMAX], t32[RMAX], t64b[RMAX], rat[RMAX], noi[RMAX], bw[RMAX], f64[RMAX], f32[RMAX];
    for (int r = 0; r < rounds; r++) {
        bw[r] = triad(ta, tb, tc);
        t64[r] = sweep_time(P, LCP_PRECISION_FLOAT64, K, z);
        t32[r] = sweep_time(P, LCP_PRECISION_FLOAT32, K, z);
        t64b[r] = sweep_time(P, LCP_PRECISION_FLOAT64, K, z);
        double base = 0.5 * (t64[r] + t64b[r]);
        rat[r] = t32[r] / base;
        noi[r] = t64b[r] / t64[r];
        f64[r] = base / (I->bytes[0] / bw[r]);
        f32[r] = t32[r] / (I->bytes[1] / bw[r]);
    }
    I->t[0] = median(t64, rounds);
    I->t[1] = median(t32, rounds);
    I->t64b = median(t64b, rounds);
    I->ratio = median(rat, rounds);
    I->noise = median(noi, rounds);
    I->bw = median(bw, rounds);
    I->floor_ratio[0] = median(f64, rounds);
    I->floor_ratio[1] = median(f32, rounds);
    lcp_free(z);
    return 0;
}

/* ---- the instances ------------------------------------------------------------------------ */

static int add(prec_tab *T, const char *name, const char *dir, int pile, int conv)
{
    if (T->n == MAXINST) return 1;
    inst *I = &T->I[T->n++];
    memset(I, 0, sizeof *I);
    snprintf(I->name, sizeof I->name, "%s", name);
    snprintf(I->dir, sizeof I->dir, "%s", dir);
    I->pile = pile;
    I->converge = conv;
    I->beta = I->scale = I->low[0] = I->low[1] = NAN;
    for (int p = 0; p < NPREC; p++) {
        I->t[p] = I->floor_ratio[p] = I->bytes[p] = NAN;
        I->status[p] = "";
        I->low_at[p] = I->sweeps[p] = -1;
        for (int k = 0; k < NTOL; k++) I->reach[p][k] = -1;
    }
    I->t64b = I->ratio = I->noise = I->bw = NAN;
    return 0;
}

static int quick_wanted(const char *name)
{
    for (size_t k = 0; k < sizeof quick_names / sizeof quick_names[0]; k++)
        if (!strcmp(name, quick_names[k])) return 1;
    return 0;
}

static int collect(const bench_table_ctx *t, prec_tab *T)
{
    glob_t g;
    int gr = glob("problems/instances/*", 0, NULL, &g);
    if (gr != 0 || g.gl_pathc == 0) {
        if (gr == 0) globfree(&g);
        gr = glob(LCPBENCH_SOURCE_ROOT "/problems/instances/*", 0, NULL, &g);
    }
    if (gr != 0 || g.gl_pathc == 0) {
        if (gr == 0) globfree(&g);
        bench_error(t->cmd, "no problems/instances/* here nor in %s: run from the source tree",
                    LCPBENCH_SOURCE_ROOT);
        return 1;
    }
    for (size_t k = 0; k < g.gl_pathc; k++) {
        const char *slash = strrchr(g.gl_pathv[k], '/'), *name = slash ? slash + 1 : g.gl_pathv[k];
        if (t->size < 0 && !quick_wanted(name)) continue;
        add(T, name, g.gl_pathv[k], 0, 1);
    }
    globfree(&g);
    if (t->size < 0) return 0;
    static const int piles[] = {1000, 2000, 11800};
    for (int k = 0; k < 3; k++) {
        if (k == 1 && t->size <= 0) continue;              /* n = 2000: --full */
        char name[64], dir[BENCH_PATH + 64];
        snprintf(name, sizeof name, "spheres-%d-step30", piles[k]);
        snprintf(dir, sizeof dir, "%s/instances/%s", t->out, name);
        add(T, name, dir, 1, piles[k] < 11800 || t->size > 0);
    }
    return 0;
}

/* capture a pile into its folder (it is read back like the committed instances) */
static int capture(const bench_table_ctx *t, const inst *I)
{
    int n = atoi(I->name + strlen("spheres-"));
    char kv[2][32];
    snprintf(kv[0], sizeof kv[0], "n=%d", n);
    snprintf(kv[1], sizeof kv[1], "iters=10");
    const char *kvp[2] = {kv[0], kv[1]};
    lcp_problem P;
    lcp_problem_init(&P);
    int rc = bench_scene_problem(t->cmd, "spheres", 2, kvp, 30, I->dir, &P);
    lcp_problem_free(&P);
    return rc;
}

/* ---- outputs ------------------------------------------------------------------------------ */

static int write_csv(const bench_table_ctx *t, const prec_tab *T)
{
    static const char *const h[] = {"instance", "rows", "pile", "exact_in_float32", "precision",
                                    "cap", "status", "sweeps", "sweeps_to_1e-4", "sweeps_to_1e-6",
                                    "sweeps_to_1e-8", "lowest_residual", "lowest_at",
                                    "scale", "beta_float32", "lowest_over_scale"};
    static const char *const ht[] = {"instance", "rows", "pile", "bytes_float64",
                                     "bytes_float32", "triad_GBs", "sweep_float64_s",
                                     "sweep_float32_s", "float32_over_float64",
                                     "float64_over_float64", "float64_over_floor",
                                     "float32_over_floor"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "precision.csv", t->force, 16, h)) return 1;
    for (int i = 0; i < T->n; i++) {
        const inst *I = &T->I[i];
        if (!I->converge) continue;
        for (int p = 0; p < NPREC; p++) {
            bench_csvw_str(&w, I->name);
            bench_csvw_int(&w, I->m);
            bench_csvw_int(&w, I->pile);
            bench_csvw_int(&w, I->exact);
            bench_csvw_str(&w, p ? "float32" : "float64");
            bench_csvw_int(&w, T->cap);
            bench_csvw_str(&w, I->status[p]);
            bench_csvw_int(&w, I->sweeps[p]);
            for (int k = 0; k < NTOL; k++) bench_csvw_num(&w, I->reach[p][k] >= 0 ? I->reach[p][k] : NAN, "%.0f");
            bench_csvw_num(&w, I->low[p], "%.6e");
            bench_csvw_int(&w, I->low_at[p]);
            bench_csvw_num(&w, I->scale, "%.6e");
            bench_csvw_num(&w, I->beta, "%.6e");
            bench_csvw_num(&w, I->low[p] / I->scale, "%.6e");
            bench_csvw_end(&w);
        }
    }
    if (bench_csvw_close(&w, t->cmd)) return 1;
    if (bench_csvw_open(&w, t->cmd, t->out, "precision-time.csv", t->force, 12, ht)) return 1;
    for (int i = 0; i < T->n; i++) {
        const inst *I = &T->I[i];
        if (!isfinite(I->t[0])) continue;
        bench_csvw_str(&w, I->name);
        bench_csvw_int(&w, I->m);
        bench_csvw_int(&w, I->pile);
        bench_csvw_num(&w, I->bytes[0], "%.0f");
        bench_csvw_num(&w, I->bytes[1], "%.0f");
        bench_csvw_num(&w, I->bw / 1e9, "%.3f");
        bench_csvw_num(&w, I->t[0], "%.6e");
        bench_csvw_num(&w, I->t[1], "%.6e");
        bench_csvw_num(&w, I->ratio, "%.4f");
        bench_csvw_num(&w, I->noise, "%.4f");
        bench_csvw_num(&w, I->floor_ratio[0], "%.4f");
        bench_csvw_num(&w, I->floor_ratio[1], "%.4f");
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

/* the scene of an instance: its name up to the first '-' */
static int same_scene(const char *a, const char *b)
{
    size_t la = strcspn(a, "-"), lb = strcspn(b, "-");
    return la == lb && !strncmp(a, b, la);
}

/* the residual curves of the instance where float32 stalls highest (its lowest residual
 * with float64's 100 times below it) and of the same on another scene: float32's floor
 * plain to see */
static int figures(const bench_table_ctx *t, const prec_tab *T)
{
    int pick[2] = {-1, -1};
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < T->n; i++) {
            const inst *I = &T->I[i];
            if (!I->converge || !(I->low[0] < I->low[1] / 100)) continue;
            if (j == 1 && (pick[0] < 0 || same_scene(I->name, T->I[pick[0]].name))) continue;
            if (pick[j] < 0 || I->low[1] > T->I[pick[j]].low[1]) pick[j] = i;
        }
    bench_series S[4];
    char title[4][192];
    double *x[4] = {NULL, NULL, NULL, NULL}, *y[4] = {NULL, NULL, NULL, NULL};
    int ns = 0, rc = 0;
    for (int j = 0; j < 2; j++) {
        if (pick[j] < 0) continue;
        const inst *I = &T->I[pick[j]];
        for (int p = 0; p < NPREC; p++) {
            const bench_history *h = &I->h[p];
            x[ns] = lcp_malloc((size_t)h->n + 1, sizeof(double));
            y[ns] = lcp_malloc((size_t)h->n + 1, sizeof(double));
            if (!x[ns] || !y[ns]) {
                rc = 1;
                break;
            }
            for (int k = 0; k < h->n; k++) {
                x[ns][k] = h->iter[k];
                y[ns][k] = h->r2[k];
            }
            snprintf(title[ns], sizeof title[ns], "%s, %s", I->name, p ? "float32" : "float64");
            S[ns] = (bench_series){title[ns], h->n, x[ns], y[ns], 0};
            ns++;
        }
    }
    if (rc == 0 && ns > 0) {
        char dir[BENCH_PATH + 16];
        snprintf(dir, sizeof dir, "%s/plots", t->out);
        bench_fig F;
        bench_fig_init(&F);
        F.base = "precision-residual";
        F.title = "pgs, float64 and float32 storage of J and B: residual per sweep";
        F.xlabel = "PGS sweeps";
        F.ylabel = "||r||_2 (double, on the float64 problem)";
        F.logy = 1;
        F.ns = ns;
        F.s = S;
        rc = bench_fig_write(t->cmd, dir, &F, t->style) < 0;
    }
    for (int k = 0; k < 4; k++) {
        lcp_free(x[k]);
        lcp_free(y[k]);
    }
    return rc;
}

/* ---- claims: bands fixed from float32's unit roundoff before the run ------------------------ */

enum { NCLAIM = 6 };
#define OWN "this suite (lcp/README.md, \"float32 storage\")"
static const bench_claim_def defs[NCLAIM] = {
    {.id = "prec-floor", .kind = BENCH_FINDING, .source = OWN,
     .quote = "float32 storage leaves pgs's residual at most beta = 2u || |J| |B|^T |z| + "
              "|E| |z| ||_2 (u = 2^-24): a fixed point of the float32 sweep is exact for "
              "J32 B32^T + E, which is off A z by at most that",
     .metric = "float32's lowest ||r||_2 within the cap over beta, on every instance where "
               "float64's lowest is below beta / 100 (float64 converged past float32's floor)",
     .band = "<= 1", .b = {{0, 1}}},
    {.id = "prec-rel", .kind = BENCH_FINDING, .source = OWN,
     .quote = "float32's lowest residual is about the unit roundoff relative to the row "
              "sums' scale",
     .metric = "float32's lowest ||r||_2 over scale = || |J| |B|^T |z| + |E| |z| ||_2, where "
               "J or B is not exact in float32 and float64's lowest is below beta / 100",
     .band = "in [u/100, 2u] = [6.0e-10, 1.19e-7]", .b = {{U32 / 100, 2 * U32}}},
    {.id = "prec-reach", .kind = BENCH_FINDING, .source = OWN,
     .quote = "float32 reaches every tolerance float64 reaches that lies at or above its "
              "floor beta",
     .metric = "per instance and tolerance (1e-4, 1e-6, 1e-8) with tol >= beta that float64 "
               "reaches within the cap: float32 reaches it within the cap",
     .band = "yes in every case", .b = {{1, 1}}},
    {.id = "prec-1e-6", .kind = BENCH_FINDING, .source = "issue 40 (users of engines run "
                                                       "contact solvers in float32)",
     .quote = "float32 reaches 1e-6 on every instance where float64 does",
     .metric = "per instance where float64 reaches ||r||_2 <= 1e-6 within the cap: float32 "
               "reaches it too (whatever beta)",
     .band = "yes in every case", .b = {{1, 1}}},
    {.id = "prec-sweeps", .kind = BENCH_FINDING, .source = OWN,
     .quote = "above its floor float32 storage does not change the convergence: the same "
              "sweeps to a tolerance",
     .metric = "(|sweeps32 - sweeps64| - 1)+ / sweeps64 to each tolerance >= 10 beta that "
               "both reach",
     .band = "<= 1%", .b = {{0, 0.01}}},
    {.id = "prec-faster", .kind = BENCH_FINDING, .source = OWN,
     .quote = "from memory a float32 sweep takes less time than a float64 sweep (it moves "
              "8 bytes an entry of J and B, not 12)",
     .metric = "float32 / float64 seconds a sweep (median of paired rounds) on the captured "
               "10^5-row pile; noise control: float64 / float64 in the same rounds",
     .band = "<= 0.95", .rule = BENCH_RULE_TIMED, .b = {{0, 0.95}},
     .changed = BENCH_TIMING_CHANGED},
};

static void claims(const prec_tab *T, bench_claim *cl)
{
    bench_claims_init(cl, defs, NCLAIM);
    int timed = 0;
    for (int i = 0; i < T->n; i++) {
        const inst *I = &T->I[i];
        if (I->converge) {
            int past = I->low[0] < I->beta / 100;
            if (past) bench_claim_value(&cl[0], I->name, I->low[1] / I->beta, "%.3f");
            if (past && !I->exact) bench_claim_value(&cl[1], I->name, I->low[1] / I->scale, "%.2e");
            for (int k = 0; k < NTOL; k++) {
                char lab[192];
                snprintf(lab, sizeof lab, "%s %g", I->name, tols[k]);
                if (I->reach[0][k] >= 0 && tols[k] >= I->beta)
                    bench_claim_flag(&cl[2], 0, lab, I->reach[1][k] >= 0);
                if (I->reach[0][k] >= 0 && I->reach[1][k] >= 0 && tols[k] >= 10 * I->beta) {
                    double d = fmax(fabs((double)I->reach[1][k] - I->reach[0][k]) - 1, 0);
                    bench_claim_value(&cl[4], lab, d / fmax(I->reach[0][k], 1), "%.3f");
                }
            }
            if (I->reach[0][1] >= 0) bench_claim_flag(&cl[3], 0, I->name, I->reach[1][1] >= 0);
        }
        if (I->pile && I->m >= 100000 && isfinite(I->ratio)) {
            bench_obs o = {I->ratio, I->ratio, I->ratio, 0, {fmin(I->noise, 1 / I->noise),
                                                            fmax(I->noise, 1 / I->noise)}};
            bench_claim_add(&cl[5], 0, I->name, &o, "%.3f");
            timed = 1;
        }
    }
    if (!timed) bench_claim_untested(&cl[5], "no 10^5-row pile was timed (--quick)");
}

static void md(FILE *f, const prec_tab *T)
{
    static const char *const h[] = {"instance", "rows", "beta (float32 floor)", "to 1e-4",
                                    "to 1e-6", "to 1e-8", "lowest residual (sweep)",
                                    "lowest / scale"};
    fprintf(f, "## Convergence: sweeps to tolerance and the lowest residual\n\n"
               "pgs (omega 1, natural order, cold start), at most %d sweeps (or to ||r||_2 <= "
               "1e-14); each cell float64 / float32; \"-\": not within the cap.  ||r||_2 is "
               "computed in double on the float64 problem whatever the storage.  beta = 2u "
               "|| |J| |B|^T |z| + |E| |z| ||_2 (u = 2^-24, z float64's last iterate) bounds "
               "||r||_2 at a fixed point of the float32 sweep; scale = beta / 2u.  (exact): J "
               "and B are floats already, float32 = float64 bit for bit.\n\n", T->cap);
    bench_md_head(f, 8, h, "lrrrrrrr");
    for (int i = 0; i < T->n; i++) {
        const inst *I = &T->I[i];
        if (!I->converge) continue;
        char c[8][160], a[2][48];
        snprintf(c[0], sizeof c[0], "%s%s", I->name, I->exact ? " (exact)" : "");
        snprintf(c[1], sizeof c[1], "%d", I->m);
        bench_fmt(c[2], sizeof c[2], I->beta, "%.2e");
        for (int k = 0; k < NTOL; k++) {
            for (int p = 0; p < NPREC; p++)
                bench_fmt(a[p], sizeof a[p], I->reach[p][k] >= 0 ? I->reach[p][k] : NAN, "%.0f");
            snprintf(c[3 + k], sizeof c[3 + k], "%s / %s", a[0], a[1]);
        }
        snprintf(c[6], sizeof c[6], "%.2e (%d) / %.2e (%d)", I->low[0], I->low_at[0], I->low[1],
                 I->low_at[1]);
        snprintf(c[7], sizeof c[7], "%.1e / %.1e", I->low[0] / I->scale, I->low[1] / I->scale);
        const char *cell[8];
        for (int j = 0; j < 8; j++) cell[j] = c[j];
        bench_md_row(f, 8, cell);
    }
    static const char *const ht[] = {"instance", "rows", "bytes a row f64 / f32",
                                     "ns a row f64 / f32", "f32 / f64 (noise f64 / f64)",
                                     "sweep / floor f64", "sweep / floor f32"};
    fprintf(f, "\n## Time per sweep against the streaming floor\n\n"
               "Medians of paired rounds (triad, float64, float32, float64 again); floor = "
               "bytes a sweep moves at least once in CSR form / the round's triad bandwidth "
               "(3 x 64 MiB arrays).  Instances that fit in the last-level cache are not "
               "limited by memory: their ratio is what the rows' instructions cost.  Times are "
               "this machine's and vary between runs; the 10^6-row target is the benchmark "
               "`mem-stream`'s (results/performance.md).\n\n");
    bench_md_head(f, 7, ht, "lrrrrrr");
    for (int i = 0; i < T->n; i++) {
        const inst *I = &T->I[i];
        if (!isfinite(I->t[0])) continue;
        char c[7][96];   /* c[0] unused: the name is the cell itself (name[128]) */
        c[0][0] = '\0';
        snprintf(c[1], sizeof c[1], "%d", I->m);
        snprintf(c[2], sizeof c[2], "%.0f / %.0f", I->bytes[0] / I->m, I->bytes[1] / I->m);
        snprintf(c[3], sizeof c[3], "%.1f / %.1f", 1e9 * I->t[0] / I->m, 1e9 * I->t[1] / I->m);
        snprintf(c[4], sizeof c[4], "%.2f (%.2f)", I->ratio, I->noise);
        snprintf(c[5], sizeof c[5], "%.2f", I->floor_ratio[0]);
        snprintf(c[6], sizeof c[6], "%.2f", I->floor_ratio[1]);
        const char *cell[7];
        for (int j = 0; j < 7; j++) cell[j] = c[j];
        cell[0] = I->name;
        bench_md_row(f, 7, cell);
    }
    fprintf(f, "\n");
}

int bench_table_precision(const bench_table_ctx *t)
{
    prec_tab T = {0};
    T.cap = t->maxit > 0 ? (int)t->maxit : t->size < 0 ? 3000 : t->size > 0 ? 100000 : 20000;
    T.rounds = t->size < 0 ? 3 : 5;
    T.I = lcp_calloc(MAXINST, sizeof *T.I);
    double *ta = lcp_malloc(TRIAD_N, sizeof(double)), *tb = lcp_malloc(TRIAD_N, sizeof(double));
    double *tc = lcp_malloc(TRIAD_N, sizeof(double));
    int rc = 0;
    if (!T.I || !ta || !tb || !tc) {
        bench_error(t->cmd, "out of memory");
        rc = 1;
        goto done;
    }
    for (long i = 0; i < TRIAD_N; i++) ta[i] = 0.0, tb[i] = 1.0, tc[i] = 2.0;
    if ((rc = collect(t, &T)) != 0) goto done;
    bench_progress prog;
    bench_progress_start(&prog, "precision", T.n);
    for (int i = 0; i < T.n; i++) {
        inst *I = &T.I[i];
        if (I->pile && capture(t, I)) {
            rc = 1;
            continue;
        }
        lcp_problem P;
        char msg[8400];
        lcp_read_options ro;
        lcp_read_options_default(&ro);
        ro.skip = LCP_READ_SKIP_A * (I->pile && !I->converge);  /* timing only: no A */
        if (lcp_read_instance_opt(I->dir, &ro, &P, msg, sizeof msg) != LCP_OK) {
            bench_error(t->cmd, "%s", msg);
            rc = 1;
            continue;
        }
        I->m = P.m;
        if (lcp_problem_has_factors(&P)) {
            if (I->converge) rc |= converge(t, &P, I, T.cap);
            if (P.m >= TIME_MIN_ROWS) rc |= timing(t, &P, I, T.rounds, ta, tb, tc);
        } else
            I->converge = 0;
        lcp_problem_free(&P);
        bench_progress_step(&prog, 1);
    }
    bench_progress_end(&prog);
    bench_claim cl[NCLAIM];
    claims(&T, cl);
    rc |= write_csv(t, &T) | bench_claims_csv(t->cmd, t->out, t->force, cl, NCLAIM);
    rc |= figures(t, &T);
    bench_out o;
    FILE *f = bench_table_md(t, &o, "precision.md", "precision: float32 storage of J and B in "
                                                    "the matrix-free PGS sweep");
    if (f) {
        fprintf(f, "What float32 storage of J and B = J Minv (pgs `precision=float32`: every "
                   "product, u, z and the residual in double) does to the sweeps to a "
                   "tolerance, to the lowest residual pgs reaches and to the time of a sweep, "
                   "beside float64, on the committed instances%s.  A variant for measurement, "
                   "never the default.\n\n", t->size < 0 ? " (--quick: six of them)" :
                   " and captured sphere piles (spheres, step 30, 10 sweeps a step)");
        md(f, &T);
        bench_claims_md(f, cl, NCLAIM);
        fprintf(f, "\nFigure: `plots/precision-residual.png` (||r||_2 per sweep, float64 and "
                   "float32, where float32 stalls highest, on two scenes).\n");
        if (bench_close(t->cmd, &o)) rc = 1;
        else fprintf(stderr, "lcpbench table: wrote %s/precision.md\n", t->dest);
    } else
        rc = 1;
done:
    if (T.I)
        for (int i = 0; i < T.n; i++)
            for (int p = 0; p < NPREC; p++) bench_history_free(&T.I[i].h[p]);
    lcp_free(T.I);
    lcp_free(ta);
    lcp_free(tb);
    lcp_free(tc);
    return rc;
}
