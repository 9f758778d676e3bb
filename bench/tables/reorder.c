/* reorder.c: `lcpbench table reorder': constraint ordering (Andrews, Erleben, Kry,
 * Teichmann 2017, "Constraint reordering for iterative multi-body simulation with contact",
 * Sec. 1, Figs. 2 and 3).
 *
 * For the scenes capsule (6 rows, 6! = 720 orderings) and three-spheres (9 rows,
 * 9! = 362880), captured at step 1 with the scene's mu (1): every ordering as a fixed
 * permutation (order perm), PGS from a cold start, sweeps to ||r||_2 <= 1e-4 (the library's
 * stopping test), capped at 100 (101 in the histogram = not reached).  Ordering k is the k-th
 * permutation in lexicographic order (Lehmer code), so workers split index ranges: one thread
 * per online core (the kit's pool, at most 8; the library keeps no global state), progress on stderr; under
 * mpirun, ranges of 10^4 orderings dealt to the ranks (bench/README.md, "Grids on a cluster").
 * Heuristic orderings on the same axis: natural (the default), reverse, symmetric, error,
 * mass, and random with seeds 1..20 (min / median / max); and block PGS (`pgs-block', each
 * contact's normal and friction rows solved exactly per visit, natural order).
 * Outputs in DIR: reorder.md, claims.csv, reorder-SCENE-hist.csv (iterations,count),
 * reorder-SCENE-heuristics.csv (ordering,iterations,permutation), history/ of the default,
 * best and worst orderings (tol 1e-10, 100 sweeps), plots/SCENE-orderings (their Figure 2)
 * and plots/SCENE-hist (their Figure 3), each .csv/.gp/.png/.pdf, instances/.
 * Cost: m! PGS solves of at most 100 sweeps of m rows.
 */
#include "tables.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { CAP = 100, MAXM = 12, NSEED = 20 };
static const double TOL = 1e-4;

/* the k-th permutation of 0..m-1 in lexicographic order */
static void perm_of(long k, int m, int *perm)
{
    int pool[MAXM];
    long f = 1;
    for (int i = 2; i < m; i++) f *= i;
    for (int i = 0; i < m; i++) pool[i] = i;
    for (int i = 0; i < m; i++) {
        long d = f ? k / f : 0;
        if (f) k %= f;
        perm[i] = pool[d];
        for (int j = (int)d; j < m - 1 - i; j++) pool[j] = pool[j + 1];
        if (m - 1 - i > 0) f /= (m - 1 - i);
    }
}

typedef struct worker {
    const lcp_problem *P;
    const lcp_solver *pgs;
    long lo, hi;
    unsigned char *its;    /* per ordering: sweeps, CAP + 1 when not reached; 255 error */
    atomic_long *done;
    long base;             /* its[k - base] is ordering k's */
} worker;

static int sweeps(const lcp_problem *P, const lcp_solver *s, const lcp_options *o, double *z)
{
    lcp_info info;
    lcp_status st = lcp_solve(s, P, o, z, &info);
    if (st < 0) return 255;
    return st == LCP_OK ? info.iterations : CAP + 1;
}

static void *work(void *arg)
{
    worker *w = arg;
    int perm[MAXM];
    double *z = lcp_malloc((size_t)w->P->m, sizeof(double));
    lcp_options o;
    lcp_options_default(&o);
    o.tol = TOL;
    o.max_iter = CAP;
    o.order = LCP_ORDER_PERM;
    o.perm = perm;
    long pending = 0;
    for (long k = w->lo; z && k < w->hi; k++) {
        perm_of(k, w->P->m, perm);
        w->its[k - w->base] = (unsigned char)sweeps(w->P, w->pgs, &o, z);
        if (++pending == 256) {
            atomic_fetch_add(w->done, pending);
            pending = 0;
        }
    }
    atomic_fetch_add(w->done, pending);
    lcp_free(z);
    return NULL;
}


enum { NHEUR = 6 };
static const char *const hname[NHEUR] = {"natural", "reverse", "symmetric", "error", "mass",
                                         "pgs-block"};

typedef struct scene_out {
    const char *scene;
    long n;
    int m;                  /* rows */
    int min, max, natural, reached;
    double median, frac20, frac25;
    int heur[NHEUR];        /* natural reverse symmetric error mass, pgs-block (natural) */
    int rmin, rmed, rmax;
    long best, worst;
    long hist[256];         /* orderings per sweep count; CAP + 1 = not reached, 255 error */
    bench_history curve[3]; /* default, best, worst */
} scene_out;

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* bench_jobs_fn: the sweeps of orderings lo..hi-1 (ctx: the worker of every chunk) */
static void work_chunk(void *ctx, long lo, long hi)
{
    worker w = *(const worker *)ctx;
    w.lo = lo;
    w.hi = hi;
    work(&w);
}

/* the sweeps of every ordering into its[] (n entries), on the online cores (at most 8) */
static void enumerate(const lcp_problem *P, long n, unsigned char *its, const char *scene)
{
    int nt = bench_jobs_threads(8);
    atomic_long done;   /* counted by work(); the progress line counts the chunks */
    atomic_init(&done, 0);
    char label[128];
    snprintf(label, sizeof label, "reorder %s (%ld orderings, %d threads)", scene, n, nt);
    bench_progress prog;
    bench_progress_start(&prog, label, n);
    worker w = {P, bench_solver_find("pgs"), 0, 0, its, &done, 0};
    bench_jobs_run(n, 4096, nt, work_chunk, &w, &prog);
    bench_progress_end(&prog);
}

/* ---- under mpirun: ranges of orderings dealt to the ranks ----------------------------------
 * Rank 0 sends every worker the captured instance's folder (on a file system they share: the
 * table's DIR), each reads it (the problem rank 0 read, bit for bit) and runs the ranges of
 * CHUNK orderings that rank 0 deals (mpi.c); rank 0 puts each range's sweeps in place, so
 * its[] and every output are the serial run's. */
enum { CHUNK = 10000 };

typedef struct ranges {
    worker w;            /* the problem, PGS, and its[] for one range at a time */
    long n;
    unsigned char *its;  /* rank 0: every ordering's sweeps */
} ranges;

/* bench_cell_fn: the sweeps of orderings [CHUNK c, CHUNK (c + 1)) as bytes */
static int range_cell(void *ctx, long c, char **out, size_t *len)
{
    ranges *g = ctx;
    long lo = c * CHUNK, hi = lo + CHUNK < g->n ? lo + CHUNK : g->n;
    atomic_long done;
    atomic_init(&done, 0);
    *out = NULL;
    *len = 0;
    if (lo >= hi || !(g->w.its = lcp_malloc((size_t)(hi - lo), 1))) return 1;
    g->w.lo = g->w.base = lo;
    g->w.hi = hi;
    g->w.done = &done;
    work(&g->w);
    *out = (char *)g->w.its;
    *len = (size_t)(hi - lo);
    return atomic_load(&done) != hi - lo;
}

/* bench_put_fn: a range's sweeps into its[] */
static int range_put(void *ctx, long c, int failed, const char *b, size_t len)
{
    ranges *g = ctx;
    long lo = c * CHUNK;
    (void)failed;
    if (lo + (long)len > g->n) return 1;
    memcpy(g->its + lo, b, len);
    return 0;
}

static long factorial(int m)
{
    long n = 1;
    for (int i = 2; i <= m; i++) n *= i;
    return n;
}

int bench_reorder_serve(const bench_mpi *m, const char *payload, size_t len)
{
    char msg[8400];
    lcp_problem P;
    lcp_problem_init(&P);
    (void)len;
    if (lcp_read_instance(payload, &P, msg, sizeof msg) != LCP_OK || P.m < 1 || P.m > 10) {
        bench_error("table", "rank %d: reorder: %s", bench_mpi_rank(m), msg);
        bench_mpi_abort(m);
    }
    ranges g = {.w = {&P, bench_solver_find("pgs"), 0, 0, NULL, NULL, 0}, .n = factorial(P.m)};
    int rc = bench_mpi_work(m, range_cell, &g);
    lcp_problem_free(&P);
    return rc;
}

/* rank 0: the sweeps of every ordering of the instance in dir (read into P) from the ranks */
static int enumerate_ranks(const bench_mpi *m, const char *dir, const lcp_problem *P, long n,
                           unsigned char *its, const char *scene)
{
    char label[128];
    snprintf(label, sizeof label, "reorder %s (%ld orderings, %d ranks)", scene, n,
             bench_mpi_ranks(m) - 1);
    ranges g = {.w = {P, bench_solver_find("pgs"), 0, 0, NULL, NULL, 0}, .n = n, .its = its};
    double t0 = bench_now();
    bench_mpi_job(m, BENCH_JOB_REORDER, dir, strlen(dir) + 1);
    int rc = bench_mpi_deal(m, label, (n + CHUNK - 1) / CHUNK, range_put, &g);
    fprintf(stderr, "lcpbench table: reorder %s: %ld orderings on %d worker ranks in %.3f s\n",
            scene, n, bench_mpi_ranks(m) - 1, bench_now() - t0);
    return rc;
}

/* histogram, best, worst, median and the shares under 20 / over 25 sweeps */
static void statistics(const char *cmd, const unsigned char *its, scene_out *so)
{
    long n = so->n;
    int errors = 0;
    memset(so->hist, 0, sizeof so->hist);
    so->best = so->worst = 0;
    for (long k = 0; k < n; k++) {
        so->hist[its[k]]++;
        errors += its[k] == 255;
        if (its[k] < its[so->best]) so->best = k;
        if (its[k] != 255 && (its[so->worst] == 255 || its[k] > its[so->worst])) so->worst = k;
    }
    if (errors) bench_error(cmd, "%s: %d orderings ended in an error status", so->scene, errors);
    so->min = its[so->best];
    so->max = its[so->worst];
    so->natural = its[0];
    long c = 0, c20 = 0, c25 = 0;
    so->median = NAN;
    for (int v = 0; v < 256; v++) {
        if (isnan(so->median) && c + so->hist[v] >= (n + 1) / 2) so->median = v;
        c += so->hist[v];
        if (v < 20) c20 += so->hist[v];
        if (v > 25 && v != 255) c25 += so->hist[v];
    }
    so->frac20 = (double)c20 / n;
    so->frac25 = (double)c25 / n;
    so->reached = (int)(n - so->hist[CAP + 1] - so->hist[255]);
}

/* the heuristic orderings, block PGS and random seeds on the same problem */
static void heuristics(const lcp_problem *P, scene_out *so)
{
    const lcp_solver *pgs = bench_solver_find("pgs"), *blk = bench_solver_find("pgs-block");
    lcp_options o;
    lcp_options_default(&o);
    o.tol = TOL;
    o.max_iter = CAP;
    double *z = lcp_malloc((size_t)P->m, sizeof(double));
    const lcp_order ho[5] = {LCP_ORDER_NATURAL, LCP_ORDER_REVERSE, LCP_ORDER_SYMMETRIC,
                             LCP_ORDER_ERROR, LCP_ORDER_MASS};
    for (int h = 0; h < NHEUR; h++) so->heur[h] = 255;
    so->rmin = so->rmed = so->rmax = 255;
    if (!z) return;
    for (int h = 0; h < 5; h++) {
        o.order = ho[h];
        so->heur[h] = sweeps(P, pgs, &o, z);
    }
    o.order = LCP_ORDER_NATURAL;           /* block PGS: groups in the natural order */
    so->heur[5] = blk ? sweeps(P, blk, &o, z) : 255;
    int rs[NSEED];
    o.order = LCP_ORDER_RANDOM;
    for (int s = 0; s < NSEED; s++) {
        o.seed = (uint64_t)(s + 1);
        rs[s] = sweeps(P, pgs, &o, z);
    }
    qsort(rs, NSEED, sizeof(int), cmp_int);
    so->rmin = rs[0];
    so->rmed = rs[NSEED / 2];
    so->rmax = rs[NSEED - 1];
    lcp_free(z);
}

/* the permutation of ordering k as "0 3 1 ..." */
static void perm_text(long k, int m, char *b, size_t len)
{
    int p[MAXM];
    size_t l = 0;
    perm_of(k, m, p);
    b[0] = 0;
    for (int i = 0; i < m && l < len; i++)
        l += (size_t)snprintf(b + l, len - l, "%s%d", i ? " " : "", p[i]);
}

static int write_csv(const bench_table_ctx *t, const scene_out *so)
{
    static const char *const hh[] = {"iterations", "count"};
    static const char *const hr[] = {"ordering", "iterations", "permutation"};
    char file[96], pb[64], pw[64];
    bench_csvw w;
    snprintf(file, sizeof file, "reorder-%s-hist.csv", so->scene);
    if (bench_csvw_open(&w, t->cmd, t->out, file, t->force, 2, hh)) return 1;
    for (int v = 0; v <= CAP + 1; v++) {
        bench_csvw_int(&w, v);
        bench_csvw_int(&w, so->hist[v]);
        bench_csvw_end(&w);
    }
    if (bench_csvw_close(&w, t->cmd)) return 1;
    snprintf(file, sizeof file, "reorder-%s-heuristics.csv", so->scene);
    if (bench_csvw_open(&w, t->cmd, t->out, file, t->force, 3, hr)) return 1;
    perm_text(so->best, so->m, pb, sizeof pb);
    perm_text(so->worst, so->m, pw, sizeof pw);
    const char *name[NHEUR + 5] = {hname[0], hname[1], hname[2], hname[3], hname[4], hname[5],
                                   "random-min", "random-median", "random-max", "best",
                                   "worst"};
    const int val[NHEUR + 5] = {so->heur[0], so->heur[1], so->heur[2], so->heur[3],
                                so->heur[4], so->heur[5], so->rmin, so->rmed, so->rmax,
                                so->min, so->max};
    for (int k = 0; k < NHEUR + 5; k++) {
        bench_csvw_str(&w, name[k]);
        bench_csvw_int(&w, val[k]);
        bench_csvw_str(&w, k == NHEUR + 3 ? pb : k == NHEUR + 4 ? pw : "");
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

/* residual curves of the default, best and worst orderings (tol 1e-10, 100 sweeps), kept in
 * so->curve and written to history/ */
static int curves(const bench_table_ctx *t, const lcp_problem *P, scene_out *so)
{
    static const char *const wn[3] = {"default", "best", "worst"};
    char path[BENCH_PATH + 128], msg[8400];
    snprintf(path, sizeof path, "%s/history", t->out);
    if (bench_mkdir_p(path, msg, sizeof msg) != 0) {
        bench_error(t->cmd, "%s", msg);
        return 1;
    }
    long which[3] = {0, so->best, so->worst};
    int perm[MAXM], rc = 0;
    double *z = lcp_malloc((size_t)P->m, sizeof(double));
    for (int k = 0; z && k < 3; k++) {
        lcp_options o;
        lcp_options_default(&o);
        o.tol = 1e-10;
        o.max_iter = CAP;
        o.order = LCP_ORDER_PERM;
        o.perm = perm;
        perm_of(which[k], P->m, perm);
        bench_result r;
        bench_run_solver(P, bench_solver_find("pgs"), &o, NULL, 0, z, &r, &so->curve[k]);
        snprintf(path, sizeof path, "%s/history/%s__%s.csv", t->out, so->scene, wn[k]);
        if (bench_history_write(&so->curve[k], path, t->force, msg, sizeof msg) != 0) {
            bench_error(t->cmd, "%s", msg);
            rc = 1;
        }
    }
    lcp_free(z);
    return rc;
}

static int figures(const bench_table_ctx *t, scene_out *so)
{
    char dir[BENCH_PATH + 16], base[64], title[128], xl[96];
    snprintf(dir, sizeof dir, "%s/plots", t->out);
    /* their Figure 2: default, best and worst orderings */
    double *x[3] = {NULL, NULL, NULL};
    bench_series S[NHEUR + 2];
    static const char *const wn[3] = {"default (natural)", "best ordering", "worst ordering"};
    int rc = 0;
    for (int k = 0; k < 3; k++) {
        const bench_history *h = &so->curve[k];
        x[k] = lcp_malloc((size_t)(h->n + 1), sizeof(double));
        if (!x[k]) rc = 1;
        for (int j = 0; x[k] && j < h->n; j++) x[k][j] = h->iter[j];
        S[k] = (bench_series){wn[k], x[k] ? h->n : 0, x[k], h->r2, 0};
    }
    bench_fig F;
    bench_fig_init(&F);
    snprintf(base, sizeof base, "%s-orderings", so->scene);
    snprintf(title, sizeof title, "%s: default, best, worst ordering", so->scene);
    F.base = base;
    F.title = title;
    F.xlabel = "PGS sweep";
    F.ylabel = "||r||_2";
    F.logy = 1;
    F.hline = TOL;
    F.hline_title = "1e-4";
    F.ns = 3;
    F.s = S;
    if (!rc) rc = bench_fig_write(t->cmd, dir, &F, t->style) < 0;
    for (int k = 0; k < 3; k++) lcp_free(x[k]);
    /* their Figure 3: the histogram, each heuristic a marker in a row of its own above it,
     * named beside it */
    double hx[CAP + 2], hy[CAP + 2], mx[NHEUR + 1], my[NHEUR + 1], top = 1;
    char names[NHEUR + 1][64];
    for (int v = 0; v <= CAP + 1; v++) {
        hx[v] = v;
        hy[v] = so->hist[v];
        top = fmax(top, hy[v]);
    }
    S[0] = (bench_series){"", CAP + 2, hx, hy, 0};
    for (int h = 0; h <= NHEUR; h++) {
        int v = h < NHEUR ? so->heur[h] : so->rmed;
        mx[h] = v == 255 ? NAN : v;
        my[h] = top * (1.12 + 0.14 * h);
        if (h < NHEUR) snprintf(names[h], sizeof names[h], "%s%s: %d", hname[h],
                                h == 0 ? " (default)" : "", v);
        else snprintf(names[h], sizeof names[h], "random (median of %d seeds): %d", NSEED, v);
        S[h + 1] = (bench_series){names[h], 1, &mx[h], &my[h], 1};
    }
    bench_fig_init(&F);
    snprintf(base, sizeof base, "%s-hist", so->scene);
    snprintf(title, sizeof title, "%s: %ld orderings", so->scene, so->n);
    snprintf(xl, sizeof xl, "PGS sweeps to ||r||_2 <= 1e-4 (%d = not reached)", CAP + 1);
    F.base = base;
    F.title = title;
    F.xlabel = xl;
    F.ylabel = "orderings";
    F.kind = BENCH_FIG_BOXES;
    F.label_points = 1;
    F.extra = "set boxwidth 0.9\nset grid noxtics ytics\n";
    F.ns = NHEUR + 2;
    F.s = S;
    rc |= bench_fig_write(t->cmd, dir, &F, t->style) < 0;
    return rc;
}

static int one_scene(const bench_table_ctx *t, scene_out *so)
{
    char dir[BENCH_PATH + 64];
    snprintf(dir, sizeof dir, "%s/instances/%s", t->out, so->scene);
    lcp_problem P;
    lcp_problem_init(&P);
    if (bench_scene_problem(t->cmd, so->scene, 0, NULL, 1, dir, &P)) {
        lcp_problem_free(&P);
        return 1;
    }
    if (P.m < 1 || P.m > 10) {
        bench_error(t->cmd, "%s: %d rows; the exhaustive study needs 1..10", so->scene, P.m);
        lcp_problem_free(&P);
        return 1;
    }
    so->m = P.m;
    so->n = 1;
    for (int i = 2; i <= P.m; i++) so->n *= i;
    unsigned char *its = lcp_malloc((size_t)so->n, 1);
    if (!its) {
        bench_error(t->cmd, "out of memory");
        lcp_problem_free(&P);
        return 1;
    }
    if (t->mpi) {
        if (enumerate_ranks(t->mpi, dir, &P, so->n, its, so->scene)) {
            bench_error(t->cmd, "%s: the ranks did not give every ordering", so->scene);
            lcp_free(its);
            lcp_problem_free(&P);
            return 1;
        }
    } else enumerate(&P, so->n, its, so->scene);
    statistics(t->cmd, its, so);
    lcp_free(its);
    heuristics(&P, so);
    int rc = write_csv(t, so);
    rc |= curves(t, &P, so);
    lcp_problem_free(&P);
    rc |= figures(t, so);
    return rc;
}

enum { NCLAIM = 6 };

/* three claims per scene, as the source states them for each of its two examples (the
 * order of so[]: capsule, three-spheres) */
#define RO_SRC "Andrews et al. 2017, Sec. 1, Figs. 2 and 3"
#define RO_BEST(sc) {.id = "reorder-best-" sc, .source = RO_SRC, .b = {{0, 19}}, \
    .quote = sc ": \"The best ordering converges in less than 20 iterations\"", \
    .metric = "PGS sweeps of the best ordering to ||r||_2 <= 1e-4", .band = "under 20"}
#define RO_WORST(sc) {.id = "reorder-worst-" sc, .source = RO_SRC, .b = {{26, INFINITY}}, \
    .quote = sc ": \"for the worst ordering, the error remains high even after 25 " \
             "iterations\"", \
    .metric = "PGS sweeps of the worst ordering to ||r||_2 <= 1e-4", .band = "over 25"}
#define RO_SPREAD(sc) {.id = "reorder-spread-" sc, .source = RO_SRC, .b = {{10, INFINITY}}, \
    .quote = sc ": there is a large variation in the number of iterations required", \
    .metric = "worst minus best sweeps", .band = "at least 10"}
static const bench_claim_def defs[NCLAIM] = {
    RO_BEST("capsule"), RO_WORST("capsule"), RO_SPREAD("capsule"),
    RO_BEST("three-spheres"), RO_WORST("three-spheres"), RO_SPREAD("three-spheres")};

static void claims(const scene_out *so, bench_claim *cl)
{
    bench_claims_init(cl, defs, NCLAIM);
    for (int s = 0; s < 2; s++) {
        bench_claim *c = cl + 3 * s;
        bench_claim_value(&c[0], "best", so[s].min, "%.0f");
        bench_claim_value(&c[1], "worst", so[s].max, "%.0f");
        bench_claim_value(&c[2], "worst - best =", so[s].max - so[s].min, "%.0f");
    }
}

static void md_table(FILE *f, const scene_out *so)
{
    static const char *const head[] = {"scene", "orderings", "best", "median", "worst",
                                       "< 20 sweeps", "> 25 sweeps", "natural (default)",
                                       "reverse", "symmetric", "error", "mass", "random",
                                       "pgs-block"};
    bench_md_head(f, 14, head, "lrrrrrrrrrrrlr");
    for (int s = 0; s < 2; s++) {
        char b[14][40];
        const char *row[14];
        snprintf(b[0], 40, "%s", so[s].scene);
        snprintf(b[1], 40, "%ld", so[s].n);
        snprintf(b[2], 40, "%d", so[s].min);
        snprintf(b[3], 40, "%.0f", so[s].median);
        snprintf(b[4], 40, "%d", so[s].max);
        snprintf(b[5], 40, "%.1f%%", 100 * so[s].frac20);
        snprintf(b[6], 40, "%.1f%%", 100 * so[s].frac25);
        for (int h = 0; h < 5; h++) snprintf(b[7 + h], 40, "%d", so[s].heur[h]);
        snprintf(b[12], 40, "%d / %d / %d", so[s].rmin, so[s].rmed, so[s].rmax);
        snprintf(b[13], 40, "%d", so[s].heur[5]);
        for (int c = 0; c < 14; c++) row[c] = b[c];
        bench_md_row(f, 14, row);
    }
}

int bench_table_reorder(const bench_table_ctx *t)
{
    scene_out *so = lcp_calloc(2, sizeof *so);
    if (!so) {
        bench_error(t->cmd, "out of memory");
        return 1;
    }
    so[0].scene = "capsule";
    so[1].scene = "three-spheres";
    int rc = 0;
    for (int s = 0; s < 2 && !rc; s++) rc |= one_scene(t, &so[s]);
    bench_claim cl[NCLAIM];
    bench_out o;
    FILE *f = NULL;
    if (!rc) {
        claims(so, cl);
        rc = bench_claims_csv(t->cmd, t->out, t->force, cl, NCLAIM);
        f = bench_table_md(t, &o, "reorder.md", "reorder: constraint ordering and PGS "
                                                "(Andrews, Erleben, Kry, Teichmann)");
    }
    if (f) {
        fprintf(f, "Every ordering of the rows as a fixed permutation; PGS sweeps from a cold "
                   "start to ||r||_2 <= 1e-4, capped at %d (%d = not reached).  Instances: step "
                   "1 of the scenes, mu = 1.  Random: %d seeds (min / median / max).  "
                   "pgs-block: block PGS, each contact's normal and friction rows solved "
                   "exactly per visit (natural order), same tolerance and cap.\n\n", CAP,
                CAP + 1, NSEED);
        md_table(f, so);
        bench_claims_md(f, cl, NCLAIM);
        fprintf(f, "\n## Files\n\n- `reorder-SCENE-hist.csv`: iterations,count over all "
                   "orderings\n- `reorder-SCENE-heuristics.csv`: sweeps of the heuristic "
                   "orderings, best and worst (with their permutations)\n- "
                   "`plots/SCENE-hist.png`: histogram with the heuristics marked above it "
                   "(their Figure 3)\n- `plots/SCENE-orderings.png`: residual of the default, "
                   "best and worst ordering (their Figure 2); data in `history/` and beside "
                   "the figures\n");
        if (bench_close(t->cmd, &o)) rc = 1;
        else fprintf(stderr, "lcpbench table: wrote %s/reorder.md\n", t->dest);
    } else rc = 1;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) bench_history_free(&so[s].curve[k]);
    lcp_free(so);
    return rc;
}
