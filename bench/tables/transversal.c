/* transversal.c: `lcpbench table transversal' (Francu 2018, "Transversal stability of
 * constraints" and "Implicit velocity projection"; Andrews, Teichmann, Kry 2017; Tournier et
 * al. 2015): the modal prediction of velocity stepping's jitter against measured onsets, the
 * alternative steppers at fixed steps, Francu's beta, solver inexactness, the time-resolved
 * prediction on a swinging chain and the energy behaviour.  problems/README.md, "Transversal stability".
 *
 * T1 t1-onset.csv     modal analysis (restricted, full space, E K) and VTS (exact ldlt-ref)
 *                     onset by bisection in [0.9, 1.1] h_crit to 0.25% (400 steps, unstable
 *                     when E_T grows 1e6x), growth and modal content at 1.25 h_crit: towed N
 *                     5..40 x F 1, 10, 100 (and F = 0), hang ratio 1..1e4, pendulum at rest
 * T2 t2-steppers.csv  every stepper on towed at h / h_crit 0.5..10, hang (ratio 1, 100, 1e4)
 *                     at 1/60 and 0.1, thread at 1/60, chain at 1/60 and 1/100 (2 s)
 * T3 t3-beta.csv      ivts (K 20, rhs francu) on thread with beta 0.10..1.00
 * T4 t4-pgs.csv       VTS with k warm-started PGS sweeps, first warm start the static tension
 *                     (scene default) or zero (cold): k_min per h / h_crit; the LCP of the
 *                     onset step of the cold one-sweep runs at 0.95 h_crit in instances/
 * T5 t5-chain.csv     chain released level at h = 1/60, 1/100, 1/200 (3 s): h omega_max per
 *                     step (all three forms) against E_nyq
 * T6 t6-energy.csv    swing amplitude ratio over 10 s on hang (ratio 1, amp 0.2 rad, 1/60)
 * Figures plots/f1..f8 (.csv data, .gp, .png, .pdf); claims.csv; transversal.md.
 * --quick runs a subset of every table (the meson test); verdicts then rest on fewer cases.
 * Runs are independent and go to a pool of threads (at most the online cores, 4); each run's
 * numbers do not depend on the order (seeded perturbations), only time_per_step_s does.
 * Cost: about 480 runs of 60 to 600 steps of at most 40 bodies, about 8 s of CPU (20 to 31 s
 * wall time on a loaded 2-core machine); --quick about 80 runs.
 */
#include "tables.h"
#include "transversal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- runs: one scene, one stepper, one h; or one onset bisection ----------------------- */

enum { MAXKV = 6 };

typedef struct job {
    const char *scene;
    char kv[MAXKV][40];
    int nkv;
    double h;
    const char *stepper, *solver;  /* solver: vts and gsd (NULL: the scene's pgs) */
    int iters;                     /* the solver's sweeps (tol < 0: always that many) */
    prob_stepper_opts o;
    prob_jitter_cfg cfg;
    int onset;                     /* 1: bisection in [h_lo, h_hi] */
    double h_lo, h_hi;
    prob_jitter_monitor *mon;
    void *mctx;
    /* out */
    prob_jitter_result R;
    double h_onset;
    lcp_status st;
    char msg[256];
} job;

typedef struct joblist {
    job *a;
    int n, cap;
} joblist;

/* a new run of scene by stepper at h (index into L, -1 out of memory) */
static int jadd(joblist *L, const char *scene, double h, const char *stepper,
                const char *solver, int iters, int steps)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 64;
        job *a = lcp_realloc(L->a, (size_t)cap, sizeof *a);
        if (!a) return -1;
        L->a = a;
        L->cap = cap;
    }
    job *j = &L->a[L->n];
    memset(j, 0, sizeof *j);
    j->scene = scene;
    j->h = h;
    j->stepper = stepper;
    j->solver = solver;
    j->iters = iters;
    prob_stepper_opts_default(&j->o);
    prob_jitter_cfg_default(&j->cfg);
    j->cfg.steps = steps;
    j->h_onset = NAN;
    return L->n++;
}

static void jkv(job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jkv(job *j, const char *fmt, ...)
{
    if (j->nkv == MAXKV) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->kv[j->nkv++], sizeof j->kv[0], fmt, ap);
    va_end(ap);
}

static lcp_status params(const char *scene, char (*kv)[40], int nkv, prob_params *P,
                         const prob_scene **sc, char *msg, size_t msglen)
{
    *sc = prob_scene_find(scene);
    if (!*sc) {
        snprintf(msg, msglen, "unknown scene '%s'", scene);
        return LCP_ERR_ARG;
    }
    prob_params_default(*sc, P);
    lcp_status st = LCP_OK;
    for (int k = 0; k < nkv && st == LCP_OK; k++) st = prob_params_set(P, kv[k], msg, msglen);
    return st;
}

static void exec_job(job *j)
{
    const prob_scene *sc;
    prob_params P;
    j->st = params(j->scene, j->kv, j->nkv, &P, &sc, j->msg, sizeof j->msg);
    const prob_stepper *s = prob_stepper_find(j->stepper);
    if (j->st == LCP_OK && !s) {
        snprintf(j->msg, sizeof j->msg, "unknown stepper %s", j->stepper);
        j->st = LCP_ERR_ARG;
    }
    if (j->st != LCP_OK) return;
    if (j->onset) {
        j->st = prob_jitter_onset(sc, &P, j->solver, j->iters, s, &j->o, j->h_lo, j->h_hi,
                                  0.0025, j->cfg.steps, &j->h_onset, j->msg, sizeof j->msg);
        return;
    }
    prob_world W;
    j->st = prob_jitter_world(&W, sc, &P, j->h, j->solver, j->iters, -1.0, j->msg,
                              sizeof j->msg);
    if (j->st != LCP_OK) return;
    j->st = prob_jitter_run(&W, s, &j->o, &j->cfg, j->mon, j->mctx, &j->R, j->msg,
                            sizeof j->msg);
    prob_world_free(&W);
}

/* bench_jobs_fn: runs lo..hi-1 of the list ctx */
static void exec_jobs(void *ctx, long lo, long hi)
{
    job *a = ctx;
    for (long k = lo; k < hi; k++) exec_job(&a[k]);
}

/* run jobs from..L->n on the online cores (at most 4); failures are reported, not fatal */
static void run_jobs(const bench_table_ctx *t, joblist *L, int from, const char *what)
{
    int nt = bench_jobs_threads(4);
    fprintf(stderr, "lcpbench %s: transversal %s: %d runs on %d threads\n", t->cmd, what,
            L->n - from, nt);
    bench_jobs_run(L->n - from, 1, nt, exec_jobs, L->a + from, NULL);
    for (int k = from; k < L->n; k++)
        if (L->a[k].st != LCP_OK)
            fprintf(stderr, "lcpbench %s: transversal: %s %s h=%.4g: %s\n", t->cmd,
                    L->a[k].scene, L->a[k].stepper, L->a[k].h, L->a[k].msg);
}

/* the modal analysis of a scene's initial state under its warm start */
static lcp_status modal0(const char *scene, char (*kv)[40], int nkv, int flags, prob_modal *M,
                         double *len, char *msg, size_t msglen)
{
    const prob_scene *sc;
    prob_params P;
    lcp_status st = params(scene, kv, nkv, &P, &sc, msg, msglen);
    prob_world W;
    if (st == LCP_OK) st = prob_world_create(&W, sc, &P, msg, msglen);
    if (st != LCP_OK) return st;
    st = prob_modal_compute(&W, NULL, flags, M, msg, msglen);
    if (len) *len = W.nj > 0 ? W.joint[0].len : NAN;
    prob_world_free(&W);
    return st;
}

/* ---- monitors ------------------------------------------------------------------------- */

/* T1 at 1.25 h_crit: the share of E_T in unresolved modes and the transversal velocity at the
 * last step of the linear phase (amplitude below 1e-3 len) */
typedef struct lin_ctx {
    const prob_modal *M;
    double h, lin;
    double *u, *ulast;      /* n each */
    double share;
    int have;
} lin_ctx;

static lcp_status lin_monitor(void *ctx, const prob_world *W, const prob_jitter_row *row)
{
    lin_ctx *c = ctx;
    int n = c->M->n;
    double et, ec;
    if (!(row->amp < c->lin) || prob_modal_split(W, NULL, c->u, &et, &ec) != LCP_OK)
        return LCP_OK;
    double tot = 0.0, unres = 0.0;
    for (int i = 0; i < c->M->nt; i++) {
        const double *psi = c->M->modes + (size_t)n * (size_t)i;
        double a = 0.0;
        for (int q = 0; q < n; q++) a += psi[q] * W->mass[q / W->dim] * c->u[q];
        tot += 0.5 * a * a;
        if (c->M->omega2[i] > 0.0 && c->h * sqrt(c->M->omega2[i]) > 2.0) unres += 0.5 * a * a;
    }
    c->share = tot > 0.0 ? unres / tot : NAN;
    memcpy(c->ulast, c->u, (size_t)n * sizeof(double));
    c->have = 1;
    return LCP_OK;
}

/* a per-step series (E_T for F2) */
typedef struct series_ctx {
    int cap;
    double *y;
} series_ctx;

static lcp_status et_monitor(void *ctx, const prob_world *W, const prob_jitter_row *row)
{
    (void)W;
    series_ctx *c = ctx;
    if (row->step <= c->cap) c->y[row->step - 1] = row->et;
    return LCP_OK;
}

/* T3: min cos(n^0, n_c) over steps 2.. */
static lcp_status cos_monitor(void *ctx, const prob_world *W, const prob_jitter_row *row)
{
    (void)W;
    double *c = ctx;
    if (row->step >= 2 && row->info && !isnan(row->info->cos_min))
        *c = isnan(*c) ? row->info->cos_min : fmin(*c, row->info->cos_min);
    return LCP_OK;
}

/* T4: the first step whose Nyquist energy reaches the jitter level 1e-4 E_ref (0: never) */
typedef struct onset_ctx {
    int step;
    double eref;
} onset_ctx;

static lcp_status onset_monitor(void *ctx, const prob_world *W, const prob_jitter_row *row)
{
    onset_ctx *c = ctx;
    if (!(c->eref > 0.0)) c->eref = prob_jitter_eref(W);
    if (!c->step && row->enyq > 1e-4 * c->eref) c->step = row->step;
    return LCP_OK;
}

/* T5: omega_max (three forms) and the energies per step */
typedef struct chain_ctx {
    int cap;
    double *om, *enyq, *ke, *sp;
    double spread;          /* the largest spread of the three omega_max (omega > 1 rad/s) */
    double spread_t;        /* the same over the states with every link in tension */
    double eref;
} chain_ctx;

static lcp_status chain_monitor(void *ctx, const prob_world *W, const prob_jitter_row *row)
{
    chain_ctx *c = ctx;
    int k = row->step - 1;
    if (k >= c->cap) return LCP_OK;
    if (!(c->eref > 0.0)) c->eref = prob_jitter_eref(W);
    prob_modal M;
    c->om[k] = NAN;
    if (prob_modal_compute(W, NULL, PROB_MODAL_ALL, &M, NULL, 0) == LCP_OK) {
        c->om[k] = M.omega_restricted;
        c->sp[k] = M.spread;
        if (M.omega_restricted > 1.0) c->spread = fmax(c->spread, M.spread);
        int taut = 1;
        for (int j = 0; j < W->nj; j++) taut = taut && W->zj[j] < 0.0;
        if (M.omega_restricted > 1.0 && taut) c->spread_t = fmax(c->spread_t, M.spread);
    }
    prob_modal_free(&M);
    c->enyq[k] = row->enyq;
    c->ke[k] = row->ke;
    return LCP_OK;
}

/* ---- the configurations ------------------------------------------------------------------ */

static const double PI = 3.14159265358979323846;

enum { NT1 = 19, T1_F0 = 12 };

typedef struct t1row {
    const char *scene;
    int N;
    double F, ratio;        /* towed F, hang ratio (NaN: not this scene) */
    char kv[MAXKV][40];
    int nkv, quick;
    char param[32];
    prob_modal M;
    int have;
    double len, analytic;
    int j_onset, j_125, j_f0[3];
    lin_ctx lin;
} t1row;

/* T2 steppers */
typedef struct tvs {
    const char *label, *stepper, *solver;
    int iters;      /* solver sweeps (vts, gsd) */
    int K;          /* ivts, pbd, xpbd sweeps (0: not used) */
    int rhs;
    int quick;
} tvs;

static const tvs t2s[] = {
    {"vts", "vts", "ldlt-ref", 1, 0, 0, 1},
    {"vts-pgs", "vts", "pgs", 1, 0, 0, 1},
    {"vts-pgs", "vts", "pgs", 5, 0, 0, 0},
    {"vts-pgs", "vts", "pgs", 20, 0, 0, 0},
    {"vts-pgs", "vts", "pgs", 100, 0, 0, 0},
    {"ivts-francu", "ivts", NULL, 0, 1, PROB_RHS_FRANCU, 0},
    {"ivts-francu", "ivts", NULL, 0, 5, PROB_RHS_FRANCU, 0},
    {"ivts-francu", "ivts", NULL, 0, 20, PROB_RHS_FRANCU, 1},
    {"ivts-spook", "ivts", NULL, 0, 1, PROB_RHS_SPOOK, 0},
    {"ivts-spook", "ivts", NULL, 0, 5, PROB_RHS_SPOOK, 0},
    {"ivts-spook", "ivts", NULL, 0, 20, PROB_RHS_SPOOK, 0},
    {"pbd", "pbd", NULL, 0, 1, 0, 0},
    {"pbd", "pbd", NULL, 0, 5, 0, 0},
    {"pbd", "pbd", NULL, 0, 20, 0, 1},
    {"pbd", "pbd", NULL, 0, 100, 0, 0},
    {"xpbd", "xpbd", NULL, 0, 20, 0, 0},
    {"fp", "fp", NULL, 0, 0, 0, 1},
    {"gsd", "gsd", "ldlt-ref", 1, 0, 0, 1},
    {"gsd-l2", "gsd-l2", "ldlt-ref", 1, 0, 0, 0},
    {"gsfull", "gsfull", NULL, 0, 0, 0, 1},
    {"shake", "shake", NULL, 0, 0, 0, 1},
};
enum { NS2 = sizeof t2s / sizeof t2s[0], S_VTS = 0, S_IVTS20 = 7, S_PBD20 = 13 };

typedef struct t2cfg {
    const char *scene;
    char param[32];
    char kv[MAXKV][40];
    int nkv;
    double h, hc, ratio_h;  /* ratio_h: h / h_crit (NaN: no tension at the start) */
    int steps;
    int j0;                 /* first job (NS2 per config, -1 for those not run) */
    int js[NS2];
} t2cfg;

static const double t2_towed[] = {0.5, 0.95, 1.07, 2, 5, 10};
static const int t2_towed_quick[] = {0, 1, 1, 1, 0, 1};
static const double t2_ratio[] = {1, 100, 1e4};
static const double t2_hang_h[] = {1.0 / 60, 0.1};

/* T4 */
static const double t4_h[] = {0.5, 0.8, 0.95};
static const int t4_k[] = {1, 2, 5, 10, 20, 50, 100, 200};
enum { N4H = 3, N4K = 8 };

/* T5, T6 */
static const double t5_h[] = {1.0 / 60, 1.0 / 100, 1.0 / 200};
static const double T5_TIME = 3.0;
static const tvs t6s[] = {
    {"vts", "vts", "ldlt-ref", 1, 0, 0, 1}, {"gsd", "gsd", "ldlt-ref", 1, 0, 0, 1},
    {"pbd", "pbd", NULL, 0, 20, 0, 1},      {"xpbd", "xpbd", NULL, 0, 20, 0, 0},
    {"ivts", "ivts", NULL, 0, 20, PROB_RHS_FRANCU, 1}, {"fp", "fp", NULL, 0, 0, 0, 0},
};
enum { NS6 = 6, F2N = 3, F2STEPS = 120 };
static const double f2_ratio[F2N] = {0.95, 1.05, 1.25};

/* a job of stepper s on a T2-like configuration */
static int jadd_s(joblist *L, const tvs *s, const char *scene, char (*kv)[40], int nkv,
                  double h, int steps)
{
    int k = jadd(L, scene, h, s->stepper, s->solver, s->iters, steps);
    if (k < 0) return k;
    job *j = &L->a[k];
    for (int i = 0; i < nkv; i++) jkv(j, "%s", kv[i]);
    if (s->K > 0) j->o.iters = s->K;
    j->o.rhs = s->rhs;
    return k;
}

typedef struct tables {
    int quick;
    joblist L;
    t1row t1[NT1];
    double hc_towed;           /* towed N = 20, F = 10 */
    int nt2;
    t2cfg t2[16];
    int fc1[2];                /* gsd at ratio 1e6 */
    int nbeta;
    double beta[19];
    int j3[19];
    double cos_after1[19];
    int j4[2][N4H][N4K][2];    /* scene, h, k, start (warm, cold) */
    double hc4[2];
    onset_ctx cap4[2];         /* 0.95 h_crit, 1 sweep, cold: its onset step, captured */
    char capdir[2][64];
    int j5[3];
    chain_ctx c5[3];
    int n5[3];
    int j6[NS6];
    int jf2[F2N];
    series_ctx f2[F2N];
    int jf7;                   /* towed 1.25 h_crit, pert 1e-22 */
    lin_ctx lin7;
} tables;

static int alloc_fail(const bench_table_ctx *t)
{
    bench_error(t->cmd, "out of memory");
    return 1;
}

/* T1 rows and their modal analyses (phase A) */
static int setup_t1(const bench_table_ctx *t, tables *T)
{
    static const int Ns[4] = {5, 10, 20, 40};
    static const double Fs[3] = {1, 10, 100};
    static const double rs[5] = {1, 10, 100, 1e3, 1e4};
    int r = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 3; b++) {
            t1row *x = &T->t1[r++];
            x->scene = "towed";
            x->N = Ns[a];
            x->F = Fs[b];
            x->ratio = NAN;
            x->quick = Ns[a] == 20 && Fs[b] == 10;
        }
    t1row *x = &T->t1[r++];                       /* T1_F0 */
    *x = (t1row){.scene = "towed", .N = 20, .F = 0, .ratio = NAN, .quick = 1};
    for (int a = 0; a < 5; a++) {
        x = &T->t1[r++];
        *x = (t1row){.scene = "hang", .N = 20, .F = NAN, .ratio = rs[a], .quick = a == 2};
    }
    x = &T->t1[r++];
    *x = (t1row){.scene = "pendulum", .N = 1, .F = NAN, .ratio = NAN, .quick = 1};
    for (int k = 0; k < NT1; k++) {
        x = &T->t1[k];
        x->j_onset = x->j_125 = x->j_f0[0] = x->j_f0[1] = x->j_f0[2] = -1;
        x->analytic = NAN;
        if (!strcmp(x->scene, "towed")) {
            snprintf(x->kv[0], 40, "n=%d", x->N);
            snprintf(x->kv[1], 40, "F=%g", x->F);
            x->nkv = 2;
            snprintf(x->param, sizeof x->param, "F=%g", x->F);
        } else if (!strcmp(x->scene, "hang")) {
            snprintf(x->kv[0], 40, "ratio=%g", x->ratio);
            x->nkv = 1;
            snprintf(x->param, sizeof x->param, "ratio=%g", x->ratio);
        } else {                                 /* at rest, a seeded offset to grow */
            snprintf(x->kv[0], 40, "angle=0");
            snprintf(x->kv[1], 40, "pert=1e-9");
            x->nkv = 2;
            snprintf(x->param, sizeof x->param, "at rest");
        }
        if (T->quick && !x->quick) continue;
        char msg[512];
        if (modal0(x->scene, x->kv, x->nkv, PROB_MODAL_ALL | PROB_MODAL_MODES, &x->M, &x->len,
                   msg, sizeof msg) != LCP_OK) {
            bench_error(t->cmd, "transversal: %s %s: %s", x->scene, x->param, msg);
            return 1;
        }
        x->have = 1;
        if (!strcmp(x->scene, "towed")) {               /* fixed-free beaded string, k = N */
            double s = sin((2.0 * x->N - 1) * PI / (2.0 * (2 * x->N + 1)));
            x->analytic = sqrt(4.0 * x->F / (0.1 * 0.1)) * s;    /* m = len = 0.1 (defaults) */
        } else if (!strcmp(x->scene, "pendulum")) x->analytic = sqrt(9.81 / 1.0);
    }
    return 0;
}

static int jobs_t1(tables *T)
{
    static const double f0h[3] = {0.01, 0.1, 1.0};
    for (int k = 0; k < NT1; k++) {
        t1row *x = &T->t1[k];
        if (!x->have) continue;
        if (k == T1_F0) {
            for (int i = 0; i < 3; i++) {
                int j = jadd(&T->L, x->scene, f0h[i], "vts", "ldlt-ref", 1, 400);
                if (j < 0) return 1;
                for (int q = 0; q < x->nkv; q++) jkv(&T->L.a[j], "%s", x->kv[q]);
                x->j_f0[i] = j;
            }
            continue;
        }
        double hc = x->M.h_crit;
        int j = jadd(&T->L, x->scene, hc, "vts", "ldlt-ref", 1, 400);
        if (j < 0) return 1;
        for (int q = 0; q < x->nkv; q++) jkv(&T->L.a[j], "%s", x->kv[q]);
        T->L.a[j].onset = 1;
        T->L.a[j].h_lo = 0.9 * hc;
        T->L.a[j].h_hi = 1.1 * hc;
        x->j_onset = j;
        j = jadd(&T->L, x->scene, 1.25 * hc, "vts", "ldlt-ref", 1, 60);
        if (j < 0) return 1;
        for (int q = 0; q < x->nkv; q++) jkv(&T->L.a[j], "%s", x->kv[q]);
        job *jb = &T->L.a[j];
        jb->cfg.modal = 1;
        jb->cfg.fit_from = 3;
        x->lin = (lin_ctx){.M = &x->M, .h = 1.25 * hc, .lin = 1e-3 * x->len, .share = NAN};
        x->lin.u = lcp_calloc(2 * (size_t)x->M.n, sizeof(double));
        if (!x->lin.u) return 1;
        x->lin.ulast = x->lin.u + x->M.n;
        jb->mon = lin_monitor;
        jb->mctx = &x->lin;
        x->j_125 = j;
    }
    /* F7's second pattern: the towed string from a 1e-22 rad offset */
    t1row *x = &T->t1[7];                                   /* towed N 20, F 10 */
    int j = jadd(&T->L, "towed", 1.25 * x->M.h_crit, "vts", "ldlt-ref", 1, 60);
    if (j < 0) return 1;
    jkv(&T->L.a[j], "pert=1e-22");
    T->L.a[j].cfg.modal = 1;
    T->L.a[j].cfg.fit_from = 3;
    T->lin7 = (lin_ctx){.M = &x->M, .h = 1.25 * x->M.h_crit, .lin = 1e-3 * x->len, .share = NAN};
    T->lin7.u = lcp_calloc(2 * (size_t)x->M.n, sizeof(double));
    if (!T->lin7.u) return 1;
    T->lin7.ulast = T->lin7.u + x->M.n;
    T->L.a[j].mon = lin_monitor;
    T->L.a[j].mctx = &T->lin7;
    T->jf7 = j;
    /* F2: E_T per step at 0.95, 1.05, 1.25 h_crit */
    for (int i = 0; i < F2N; i++) {
        j = jadd(&T->L, "towed", f2_ratio[i] * x->M.h_crit, "vts", "ldlt-ref", 1, F2STEPS);
        if (j < 0) return 1;
        T->f2[i].cap = F2STEPS;
        T->f2[i].y = lcp_malloc(F2STEPS, sizeof(double));
        if (!T->f2[i].y) return 1;
        for (int s = 0; s < F2STEPS; s++) T->f2[i].y[s] = NAN;
        T->L.a[j].mon = et_monitor;
        T->L.a[j].mctx = &T->f2[i];
        T->jf2[i] = j;
    }
    return 0;
}

static int jobs_t2(const bench_table_ctx *t, tables *T)
{
    char msg[512];
    T->nt2 = 0;
    T->hc_towed = T->t1[7].M.h_crit;
    for (int i = 0; i < 6; i++) {
        if (T->quick && !t2_towed_quick[i]) continue;
        t2cfg *c = &T->t2[T->nt2++];
        *c = (t2cfg){.scene = "towed", .hc = T->hc_towed, .ratio_h = t2_towed[i], .steps = 400};
        c->h = t2_towed[i] * T->hc_towed;
        snprintf(c->param, sizeof c->param, "N=20 F=10");
    }
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < 2; i++) {
            if (T->quick && (r != 1 || i != 0)) continue;
            t2cfg *c = &T->t2[T->nt2++];
            *c = (t2cfg){.scene = "hang", .h = t2_hang_h[i], .steps = 400, .nkv = 1};
            snprintf(c->kv[0], 40, "ratio=%g", t2_ratio[r]);
            snprintf(c->param, sizeof c->param, "ratio=%g", t2_ratio[r]);
            prob_modal M;
            if (modal0("hang", c->kv, 1, 0, &M, NULL, msg, sizeof msg) != LCP_OK) {
                bench_error(t->cmd, "transversal: hang: %s", msg);
                return 1;
            }
            c->hc = M.h_crit;
            c->ratio_h = c->h / c->hc;
            prob_modal_free(&M);
        }
    t2cfg *c = &T->t2[T->nt2++];
    *c = (t2cfg){.scene = "thread", .h = 1.0 / 60, .hc = NAN, .ratio_h = NAN, .steps = 120};
    snprintf(c->param, sizeof c->param, "kappa=3.3");
    for (int i = 0; i < 2 && !T->quick; i++) {
        c = &T->t2[T->nt2++];
        *c = (t2cfg){.scene = "chain", .h = i ? 1.0 / 100 : 1.0 / 60, .hc = NAN,
                     .ratio_h = NAN};
        c->steps = (int)lround(2.0 / c->h);
        snprintf(c->param, sizeof c->param, "released level");
    }
    for (int k = 0; k < T->nt2; k++) {
        c = &T->t2[k];
        for (int s = 0; s < NS2; s++) {
            c->js[s] = -1;
            if (T->quick && !t2s[s].quick) continue;
            int j = jadd_s(&T->L, &t2s[s], c->scene, c->kv, c->nkv, c->h, c->steps);
            if (j < 0) return alloc_fail(t);
            c->js[s] = j;
        }
    }
    /* FC1 beyond T2: gsd on hang with mass ratio 1e6 */
    for (int i = 0; i < 2; i++) {
        char kv[1][40] = {"ratio=1e6"};
        T->fc1[i] = jadd_s(&T->L, &t2s[17], "hang", kv, 1, t2_hang_h[i], 400);
        if (T->fc1[i] < 0) return alloc_fail(t);
    }
    return 0;
}

static int jobs_t3(tables *T)
{
    T->nbeta = 0;
    for (int i = 0; i < 19; i++) {
        double b = (2 + i) * 0.05;
        if (T->quick && !(i == 8 || i == 10 || i == 11 || i == 18)) continue;
        int k = T->nbeta++;
        T->beta[k] = b;
        T->cos_after1[k] = NAN;
        int j = jadd(&T->L, "thread", 1.0 / 60, "ivts", NULL, 0, 120);
        if (j < 0) return 1;
        T->L.a[j].o.iters = 20;
        T->L.a[j].o.beta = b;
        T->L.a[j].mon = cos_monitor;
        T->L.a[j].mctx = &T->cos_after1[k];
        T->j3[k] = j;
    }
    return 0;
}

static int jobs_t4(const bench_table_ctx *t, tables *T)
{
    static const char *const sc[2] = {"towed", "hang"};
    char msg[512];
    for (int s = 0; s < 2; s++) {
        prob_modal M;
        if (modal0(sc[s], NULL, 0, 0, &M, NULL, msg, sizeof msg) != LCP_OK) {
            bench_error(t->cmd, "transversal: %s: %s", sc[s], msg);
            return 1;
        }
        T->hc4[s] = M.h_crit;
        prob_modal_free(&M);
        for (int a = 0; a < N4H; a++)
            for (int b = 0; b < N4K; b++)
                for (int w = 0; w < 2; w++) {
                    T->j4[s][a][b][w] = -1;
                    if (T->quick && (s == 1 || a != 2 || !(b == 0 || b == 2 || b == 6)))
                        continue;
                    int j = jadd(&T->L, sc[s], t4_h[a] * T->hc4[s], "vts", "pgs", t4_k[b], 400);
                    if (j < 0) return alloc_fail(t);
                    jkv(&T->L.a[j], "warm=%d", w ? 0 : 1);
                    T->j4[s][a][b][w] = j;
                    if (a == 2 && b == 0 && w == 1) {
                        T->L.a[j].mon = onset_monitor;
                        T->L.a[j].mctx = &T->cap4[s];
                    }
                }
    }
    return 0;
}

static int jobs_t56(tables *T)
{
    for (int i = 0; i < 3; i++) {
        T->j5[i] = -1;
        if (T->quick && i > 0) continue;
        int steps = (int)lround(T5_TIME / t5_h[i]);
        chain_ctx *c = &T->c5[i];
        c->cap = T->n5[i] = steps;
        c->om = lcp_calloc(4 * (size_t)steps, sizeof(double));
        if (!c->om) return 1;
        c->enyq = c->om + steps;
        c->ke = c->om + 2 * (size_t)steps;
        c->sp = c->om + 3 * (size_t)steps;
        for (int k = 0; k < steps; k++) c->om[k] = c->enyq[k] = c->ke[k] = c->sp[k] = NAN;
        int j = jadd(&T->L, "chain", t5_h[i], "vts", "ldlt-ref", 1, steps);
        if (j < 0) return 1;
        T->L.a[j].mon = chain_monitor;
        T->L.a[j].mctx = c;
        T->j5[i] = j;
    }
    char kv[2][40] = {"ratio=1", "amp=0.2"};
    for (int s = 0; s < NS6; s++) {
        T->j6[s] = -1;
        if (T->quick && !t6s[s].quick) continue;
        T->j6[s] = jadd_s(&T->L, &t6s[s], "hang", kv, 2, 1.0 / 60, 600);
        if (T->j6[s] < 0) return 1;
    }
    return 0;
}

/* ---- CSV -------------------------------------------------------------------------------- */

static const job *J(const tables *T, int j)
{
    return j >= 0 && T->L.a[j].st == LCP_OK ? &T->L.a[j] : NULL;
}

static double onset_of(const tables *T, const t1row *x)
{
    const job *j = J(T, x->j_onset);
    return j ? j->h_onset : NAN;
}

static int write_t1(const bench_table_ctx *t, const tables *T)
{
    static const char *const head[] = {
        "scene", "N", "param", "omega_restricted", "omega_full", "omega_EK", "omega_analytic",
        "h_crit", "h_onset", "onset_ratio", "mu_pred_125", "mu_meas_125", "mac_top",
        "unresolved_share", "mu_pos_max", "et_share_125", "fit_steps_125"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "t1-onset.csv", t->force, 17, head)) return 1;
    for (int k = 0; k < NT1; k++) {
        const t1row *x = &T->t1[k];
        if (!x->have) continue;
        const job *j = J(T, x->j_125);
        double on = onset_of(T, x);
        bench_csvw_str(&w, x->scene);
        bench_csvw_int(&w, x->N);
        bench_csvw_str(&w, x->param);
        bench_csvw_num(&w, x->M.omega_restricted, "%.10g");
        bench_csvw_num(&w, x->M.omega_full, "%.10g");
        bench_csvw_num(&w, x->M.omega_ek, "%.10g");
        bench_csvw_num(&w, x->analytic, "%.10g");
        bench_csvw_num(&w, x->M.h_crit, "%.8g");
        bench_csvw_num(&w, on, "%.8g");
        bench_csvw_num(&w, on / x->M.h_crit, "%.6f");
        bench_csvw_num(&w, j ? j->R.mu_pred : NAN, "%.6g");
        bench_csvw_num(&w, j ? j->R.mu_meas : NAN, "%.6g");
        bench_csvw_num(&w, j ? j->R.mac_top : NAN, "%.4g");
        bench_csvw_num(&w, j && x->lin.have ? x->lin.share : NAN, "%.4g");
        bench_csvw_num(&w, x->M.mu_pos_max, "%.6g");
        bench_csvw_num(&w, j ? j->R.et_share : NAN, "%.6g");
        if (j) bench_csvw_int(&w, j->R.fit_steps);
        else bench_csvw_str(&w, "");
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

static void t2_row(bench_csvw *w, const t2cfg *c, const tvs *s, const job *j)
{
    bench_csvw_str(w, c->scene);
    bench_csvw_str(w, c->param);
    bench_csvw_num(w, c->h, "%.8g");
    bench_csvw_num(w, c->ratio_h, "%.4g");
    bench_csvw_str(w, s->label);
    if (s->K > 0 || s->solver == NULL || strcmp(s->solver, "pgs") != 0) {
        if (s->K > 0) bench_csvw_int(w, s->K);
        else bench_csvw_str(w, "");
    } else bench_csvw_int(w, s->iters);
    bench_csvw_num(w, s->rhs == PROB_RHS_FRANCU && !strcmp(s->stepper, "ivts") ? 0.5 : NAN,
                   "%.2f");
    bench_csvw_str(w, j ? prob_outcome_name(j->R.outcome) : "");
    bench_csvw_num(w, j ? j->R.jstar : NAN, "%.4g");
    bench_csvw_num(w, j ? j->R.max_enyq : NAN, "%.4g");
    bench_csvw_num(w, j ? j->R.max_stretch : NAN, "%.4g");
    bench_csvw_num(w, j ? j->R.rms_stretch : NAN, "%.4g");
    bench_csvw_num(w, j ? j->R.amp_ratio : NAN, "%.4g");
    bench_csvw_num(w, j ? j->R.time_per_step : NAN, "%.3g");
    bench_csvw_int(w, j ? j->R.steps_done : 0);
    bench_csvw_str(w, j ? j->R.fail : "");
}

static int write_t2(const bench_table_ctx *t, const tables *T)
{
    static const char *const head[] = {
        "scene", "param", "h", "h_over_hcrit", "stepper", "iters", "beta", "outcome", "Jstar",
        "max_Enyq", "max_stretch", "rms_stretch", "amp_ratio", "time_per_step_s", "steps_done",
        "fail"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "t2-steppers.csv", t->force, 16, head)) return 1;
    for (int k = 0; k < T->nt2; k++)
        for (int s = 0; s < NS2; s++)
            if (T->t2[k].js[s] >= 0) {
                t2_row(&w, &T->t2[k], &t2s[s], J(T, T->t2[k].js[s]));
                bench_csvw_end(&w);
            }
    for (int i = 0; i < 2; i++) {                              /* FC1: mass ratio 1e6 */
        t2cfg c = {.scene = "hang", .h = t2_hang_h[i], .ratio_h = NAN};
        snprintf(c.param, sizeof c.param, "ratio=1e+06");
        t2_row(&w, &c, &t2s[17], J(T, T->fc1[i]));
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

/* beta*: the smallest beta that explodes */
static double beta_star(const tables *T)
{
    for (int k = 0; k < T->nbeta; k++) {
        const job *j = J(T, T->j3[k]);
        if (j && j->R.outcome == PROB_EXPLODED) return T->beta[k];
    }
    return NAN;
}

static int write_t3(const bench_table_ctx *t, const tables *T)
{
    static const char *const head[] = {"beta", "outcome", "t_fail", "max_stretch",
                                       "cos_min_before_fail", "cos_at_fail",
                                       "cos_min_after_step1", "Jstar", "fail"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "t3-beta.csv", t->force, 9, head)) return 1;
    for (int k = 0; k < T->nbeta; k++) {
        const job *j = J(T, T->j3[k]);
        bench_csvw_num(&w, T->beta[k], "%.2f");
        bench_csvw_str(&w, j ? prob_outcome_name(j->R.outcome) : "");
        bench_csvw_num(&w, j ? j->R.t_fail : NAN, "%.4g");
        bench_csvw_num(&w, j ? j->R.max_stretch : NAN, "%.4g");
        bench_csvw_num(&w, j ? j->R.cos_min : NAN, "%.4f");
        bench_csvw_num(&w, j ? j->R.cos_min_fail : NAN, "%.4f");
        bench_csvw_num(&w, T->cos_after1[k], "%.4f");
        bench_csvw_num(&w, j ? j->R.jstar : NAN, "%.4g");
        bench_csvw_str(&w, j ? j->R.fail : "");
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

/* k_min: the fewest sweeps that keep VTS quiet (NaN: none in the list) */
static double kmin(const tables *T, int s, int a, int w)
{
    for (int b = 0; b < N4K; b++) {
        const job *j = J(T, T->j4[s][a][b][w]);
        if (j && j->R.outcome == PROB_QUIET) return t4_k[b];
    }
    return NAN;
}

static int write_t4(const bench_table_ctx *t, const tables *T)
{
    static const char *const head[] = {"scene", "param", "start", "h", "h_over_hcrit",
                                       "sweeps", "outcome", "Jstar", "max_stretch", "k_min"};
    static const char *const sc[2] = {"towed", "hang"}, *const pr[2] = {"N=20 F=10",
                                                                         "ratio=100"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "t4-pgs.csv", t->force, 10, head)) return 1;
    for (int s = 0; s < 2; s++)
        for (int wm = 0; wm < 2; wm++)
            for (int a = 0; a < N4H; a++)
                for (int b = 0; b < N4K; b++) {
                    if (T->j4[s][a][b][wm] < 0) continue;
                    const job *j = J(T, T->j4[s][a][b][wm]);
                    bench_csvw_str(&w, sc[s]);
                    bench_csvw_str(&w, pr[s]);
                    bench_csvw_str(&w, wm ? "cold" : "warm");
                    bench_csvw_num(&w, t4_h[a] * T->hc4[s], "%.8g");
                    bench_csvw_num(&w, t4_h[a], "%.2f");
                    bench_csvw_int(&w, t4_k[b]);
                    bench_csvw_str(&w, j ? prob_outcome_name(j->R.outcome) : "");
                    bench_csvw_num(&w, j ? j->R.jstar : NAN, "%.4g");
                    bench_csvw_num(&w, j ? j->R.max_stretch : NAN, "%.4g");
                    bench_csvw_num(&w, kmin(T, s, a, wm), "%.0f");
                    bench_csvw_end(&w);
                }
    return bench_csvw_close(&w, t->cmd);
}

/* T5 summary of one h: predicted t* and measured onset (NaN: never) */
static void t5_summary(const tables *T, int i, double *tpred, double *tmeas, double *hom_max)
{
    const chain_ctx *c = &T->c5[i];
    double h = t5_h[i];
    *tpred = *tmeas = NAN;
    *hom_max = 0.0;
    int n = J(T, T->j5[i]) ? J(T, T->j5[i])->R.steps_done : 0;
    for (int k = 0; k < n; k++) {
        if (isnan(*tpred) && h * c->om[k] > 2.0) *tpred = (k + 1) * h;
        *hom_max = fmax(*hom_max, h * c->om[k]);
    }
    for (int k = 0; k + 10 <= n && isnan(*tmeas); k++) {
        int q = 0;
        while (q < 10 && c->enyq[k + q] / c->eref > 1e-6) q++;
        if (q == 10) *tmeas = (k + 1) * h;
    }
}

static int write_t5(const bench_table_ctx *t, const tables *T)
{
    static const char *const head[] = {"h", "step", "t", "omega_max", "h_omega", "E_nyq", "KE",
                                       "E_ref", "spread"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "t5-chain.csv", t->force, 9, head)) return 1;
    for (int i = 0; i < 3; i++) {
        const job *j = J(T, T->j5[i]);
        if (!j) continue;
        const chain_ctx *c = &T->c5[i];
        for (int k = 0; k < j->R.steps_done; k++) {
            bench_csvw_num(&w, t5_h[i], "%.8g");
            bench_csvw_int(&w, k + 1);
            bench_csvw_num(&w, (k + 1) * t5_h[i], "%.6g");
            bench_csvw_num(&w, c->om[k], "%.6g");
            bench_csvw_num(&w, t5_h[i] * c->om[k], "%.5g");
            bench_csvw_num(&w, c->enyq[k], "%.4g");
            bench_csvw_num(&w, c->ke[k], "%.6g");
            bench_csvw_num(&w, c->eref, "%.6g");
            bench_csvw_num(&w, c->sp[k], "%.2g");
            bench_csvw_end(&w);
        }
    }
    return bench_csvw_close(&w, t->cmd);
}

static int write_t6(const bench_table_ctx *t, const tables *T)
{
    static const char *const head[] = {"stepper", "iters", "amp_ratio", "max_stretch",
                                       "outcome", "steps_done"};
    bench_csvw w;
    if (bench_csvw_open(&w, t->cmd, t->out, "t6-energy.csv", t->force, 6, head)) return 1;
    for (int s = 0; s < NS6; s++) {
        if (T->j6[s] < 0) continue;
        const job *j = J(T, T->j6[s]);
        bench_csvw_str(&w, t6s[s].label);
        if (t6s[s].K > 0) bench_csvw_int(&w, t6s[s].K);
        else bench_csvw_str(&w, "");
        bench_csvw_num(&w, j ? j->R.amp_ratio : NAN, "%.4f");
        bench_csvw_num(&w, j ? j->R.max_stretch : NAN, "%.4g");
        bench_csvw_str(&w, j ? prob_outcome_name(j->R.outcome) : "");
        bench_csvw_int(&w, j ? j->R.steps_done : 0);
        bench_csvw_end(&w);
    }
    return bench_csvw_close(&w, t->cmd);
}

/* ---- figures ------------------------------------------------------------------------------ */

static int fig(const bench_table_ctx *t, bench_fig *F)
{
    char dir[BENCH_PATH + 16];
    snprintf(dir, sizeof dir, "%s/plots", t->out);
    return bench_fig_write(t->cmd, dir, F, t->style) < 0;
}

static int figures(const bench_table_ctx *t, const tables *T)
{
    int rc = 0;
    bench_fig F;
    bench_series S[8];
    /* F1: measured onsets against h_crit = 2 / omega_max */
    double ox[NT1], oy[NT1], px[NT1], py[NT1];
    int n1 = 0;
    for (int k = 0; k < NT1; k++) {
        const t1row *x = &T->t1[k];
        if (!x->have || k == T1_F0) continue;
        ox[n1] = x->M.omega_restricted;
        oy[n1] = onset_of(T, x);
        n1++;
    }
    for (int a = 0; a < n1; a++) px[a] = ox[a];                  /* sorted for the line */
    for (int a = 1; a < n1; a++)
        for (int b = a; b > 0 && px[b] < px[b - 1]; b--) {
            double s = px[b];
            px[b] = px[b - 1];
            px[b - 1] = s;
        }
    for (int a = 0; a < n1; a++) py[a] = 2.0 / px[a];
    S[0] = (bench_series){"predicted h_crit = 2 / omega_max", n1, px, py, 0};
    S[1] = (bench_series){"measured VTS onset (bisection)", n1, ox, oy, 1};
    bench_fig_init(&F);
    F.base = "f1-onset";
    F.title = "T1: VTS onset against the modal prediction";
    F.xlabel = "omega_max (rad/s)";
    F.ylabel = "time step h (s)";
    F.logx = F.logy = 1;
    F.ns = 2;
    F.s = S;
    rc |= fig(t, &F);
    /* F2: E_T per step at 0.95, 1.05, 1.25 h_crit with the predicted slopes */
    double kx[F2STEPS], pr[2][F2STEPS];
    char nm[5][64];
    for (int k = 0; k < F2STEPS; k++) kx[k] = k + 1;
    int ns = 0;
    for (int i = 0; i < F2N; i++) {
        snprintf(nm[i], 64, "VTS at %.2f h_crit", f2_ratio[i]);
        S[ns++] = (bench_series){nm[i], F2STEPS, kx, T->f2[i].y, 0};
    }
    for (int i = 1; i < F2N; i++) {
        double mu = prob_modal_growth(f2_ratio[i] * T->hc_towed, 2.0 / T->hc_towed);
        double e3 = T->f2[i].y[2], top = 0.0;
        for (int k = 0; k < F2STEPS; k++)
            if (isfinite(T->f2[i].y[k])) top = fmax(top, T->f2[i].y[k]);
        for (int k = 0; k < F2STEPS; k++) {                /* up to 10x the measured top */
            double v = e3 * pow(mu, 2.0 * (k - 2));
            pr[i - 1][k] = v <= 10.0 * top ? v : NAN;
        }
        snprintf(nm[2 + i], 64, "predicted |mu|^2k, |mu| = %.4f", mu);
        S[ns++] = (bench_series){nm[2 + i], F2STEPS, kx, pr[i - 1], 0};
    }
    bench_fig_init(&F);
    F.base = "f2-growth";
    F.title = "towed N = 20: transversal energy per step";
    F.xlabel = "step";
    F.ylabel = "E_T (J)";
    F.logy = 1;
    F.ns = ns;
    F.s = S;
    rc |= fig(t, &F);
    /* F3: spectra of towed (N 20, F 10) and hang (ratio 100) with 2/h at h = 1/60 */
    const t1row *tw = &T->t1[7], *hg = &T->t1[15];
    double ix[2][64], iy[2][64], ay[64];
    int nn[2] = {0, 0};
    const t1row *sp[2] = {tw, hg};
    for (int s = 0; s < 2; s++)
        for (int i = 0; sp[s]->have && i < sp[s]->M.nt && i < 64; i++) {
            ix[s][i] = i + 1;
            iy[s][i] = sp[s]->M.omega2[i] > 0 ? sqrt(sp[s]->M.omega2[i]) : NAN;
            nn[s]++;
        }
    for (int i = 0; i < nn[0]; i++)
        ay[i] = sqrt(4.0 * 10.0 / (0.1 * 0.1)) * sin((2.0 * (i + 1) - 1) * PI / (2.0 * 41));
    S[0] = (bench_series){"towed N = 20, F = 10 N", nn[0], ix[0], iy[0], 1};
    S[1] = (bench_series){"towed, analytic fixed-free string", nn[0], ix[0], ay, 0};
    S[2] = (bench_series){"hang N = 20, end mass 100 m", nn[1], ix[1], iy[1], 1};
    bench_fig_init(&F);
    F.base = "f3-spectrum";
    F.title = "restricted spectrum omega_i";
    F.xlabel = "mode i";
    F.ylabel = "omega_i (rad/s)";
    F.logy = 1;
    F.hline = 120.0;
    F.hline_title = "2/h at h = 1/60";
    F.ns = 3;
    F.s = S;
    rc |= fig(t, &F);
    /* F4: Jstar against h / h_crit on towed, per stepper */
    static const int f4s[7] = {0, 7, 13, 16, 17, 19, 20};   /* vts-pgs: in the CSV */
    double rx[7][8], jy[7][8];
    char f4n[7][40];
    ns = 0;
    for (int q = 0; q < 7; q++) {
        int s = f4s[q], m = 0;
        for (int k = 0; k < T->nt2; k++) {
            const t2cfg *c = &T->t2[k];
            if (strcmp(c->scene, "towed") || c->js[s] < 0) continue;
            const job *j = J(T, c->js[s]);
            rx[q][m] = c->ratio_h;
            jy[q][m++] = j && j->R.outcome != PROB_EXPLODED ? fmax(j->R.jstar, 1e-30) : NAN;
        }
        if (!m) continue;
        if (t2s[s].K > 0) snprintf(f4n[q], 40, "%s %d", t2s[s].label, t2s[s].K);
        else if (!strcmp(t2s[s].label, "vts-pgs")) snprintf(f4n[q], 40, "vts-pgs %d",
                                                            t2s[s].iters);
        else snprintf(f4n[q], 40, "%s", t2s[s].label);
        S[ns++] = (bench_series){f4n[q], m, rx[q], jy[q], 0};
    }
    bench_fig_init(&F);
    F.base = "f4-jstar";
    F.title = "towed N = 20: Jstar per stepper (exploded runs: no point)";
    F.xlabel = "h / h_crit";
    F.ylabel = "Jstar (below 1e-30 drawn at 1e-30)";
    F.logx = F.logy = 1;
    F.kind = BENCH_FIG_MARKS;
    F.hline = 1e-4;
    F.hline_title = "jitter above 1e-4";
    F.ns = ns;
    F.s = S;
    rc |= fig(t, &F);
    /* F5: the beta sweep */
    double bx[19], bs[19], bc[19];
    for (int k = 0; k < T->nbeta; k++) {
        const job *j = J(T, T->j3[k]);
        bx[k] = T->beta[k];
        bs[k] = j ? j->R.max_stretch : NAN;
        bc[k] = j && j->R.outcome == PROB_EXPLODED ? fmin(j->R.cos_min, j->R.cos_min_fail)
                                                   : T->cos_after1[k];
    }
    S[0] = (bench_series){"max stretch |l - L| / L (exploded: > 10)", T->nbeta, bx, bs, 0};
    S[1] = (bench_series){"cos_min (after step 1; exploded: up to the failing step)",
                          T->nbeta, bx, bc, 0};
    bench_fig_init(&F);
    F.base = "f5-beta";
    F.title = "thread: ivts (K = 20) against beta";
    F.xlabel = "beta";
    F.ylabel = "stretch, cos";
    F.kind = BENCH_FIG_MARKS;
    F.ns = 2;
    F.s = S;
    rc |= fig(t, &F);
    /* F6: h omega_max(t) and E_nyq(t) on chain */
    double *tx[3] = {NULL, NULL, NULL}, *hy[3] = {NULL, NULL, NULL}, *ey[3] = {NULL, NULL, NULL};
    char f6n[3][40];
    ns = 0;
    for (int i = 0; i < 3; i++) {
        const job *j = J(T, T->j5[i]);
        if (!j) continue;
        int n = j->R.steps_done;
        tx[i] = lcp_malloc(3 * (size_t)(n + 1), sizeof(double));
        if (!tx[i]) continue;
        hy[i] = tx[i] + n + 1;
        ey[i] = tx[i] + 2 * (size_t)(n + 1);
        for (int k = 0; k < n; k++) {
            tx[i][k] = (k + 1) * t5_h[i];
            hy[i][k] = t5_h[i] * T->c5[i].om[k];
            ey[i][k] = T->c5[i].enyq[k] / T->c5[i].eref;
        }
        snprintf(f6n[i], 40, "h = 1/%.0f", 1.0 / t5_h[i]);
        S[ns++] = (bench_series){f6n[i], n, tx[i], hy[i], 0};
    }
    bench_fig_init(&F);
    F.base = "f6-chain-homega";
    F.title = "chain released level: h omega_max(t)";
    F.xlabel = "t (s)";
    F.ylabel = "h omega_max";
    F.hline = 2.0;
    F.hline_title = "stability limit 2";
    F.ns = ns;
    F.s = S;
    rc |= fig(t, &F);
    for (int i = 0, q = 0; i < 3; i++)
        if (tx[i]) S[q++].y = ey[i];
    F.base = "f6-chain-enyq";
    F.title = "chain released level: Nyquist energy E_nyq / E_ref";
    F.ylabel = "E_nyq / E_ref";
    F.logy = 1;
    F.hline = 1e-6;
    F.hline_title = "onset level 1e-6";
    rc |= fig(t, &F);
    for (int i = 0; i < 3; i++) lcp_free(tx[i]);
    /* F7: predicted top mode against the measured growing pattern (y of each bead) */
    if (tw->have) {
        int N = 20, n = tw->M.n;
        double bxx[20], yp[20], y1[20], y2[20];
        const double *psi = tw->M.modes + (size_t)n * (size_t)(tw->M.nt - 1);
        const double *us[2] = {tw->lin.have ? tw->lin.ulast : NULL,
                               T->lin7.have ? T->lin7.ulast : NULL};
        double *ys[2] = {y1, y2};
        double mp = 0.0;
        for (int b = 0; b < N; b++) mp = fmax(mp, fabs(psi[2 * b + 1]));
        for (int b = 0; b < N; b++) {
            bxx[b] = b + 1;
            yp[b] = psi[2 * b + 1] / mp;
        }
        for (int s = 0; s < 2; s++) {
            double m = 0.0, d = 0.0;
            for (int b = 0; us[s] && b < N; b++) {
                m = fmax(m, fabs(us[s][2 * b + 1]));
                d += us[s][2 * b + 1] * psi[2 * b + 1];
            }
            for (int b = 0; b < N; b++)
                ys[s][b] = us[s] && m > 0 ? (d < 0 ? -1 : 1) * us[s][2 * b + 1] / m : NAN;
        }
        char l1[80], l2[80];
        snprintf(l1, 80, "measured, 1e-9 rad random offset (MAC %.3f)",
                 J(T, tw->j_125) ? J(T, tw->j_125)->R.mac_top : NAN);
        snprintf(l2, 80, "measured, 1e-22 rad random offset (MAC %.3f)",
                 J(T, T->jf7) ? J(T, T->jf7)->R.mac_top : NAN);
        S[0] = (bench_series){"predicted top mode psi_max", N, bxx, yp, 0};
        S[1] = (bench_series){l1, N, bxx, y1, 1};
        S[2] = (bench_series){l2, N, bxx, y2, 1};
        bench_fig_init(&F);
        F.base = "f7-mode";
        F.title = "towed N = 20 at 1.25 h_crit: the growing pattern, end of the linear phase";
        F.xlabel = "bead";
        F.ylabel = "transversal velocity (scaled to max 1)";
        F.ns = 3;
        F.s = S;
        rc |= fig(t, &F);
    }
    /* F8: k_min against h / h_crit */
    double kx8[4][N4H], ky8[4][N4H];
    static const char *const f8n[4] = {"towed, warm start", "towed, cold start",
                                       "hang 100, warm start", "hang 100, cold start"};
    ns = 0;
    for (int s = 0; s < 2; s++)
        for (int w = 0; w < 2; w++) {
            int m = 0;
            for (int a = 0; a < N4H; a++) {
                if (T->j4[s][a][0][w] < 0 && T->j4[s][a][2][w] < 0) continue;
                kx8[2 * s + w][m] = t4_h[a];
                ky8[2 * s + w][m++] = kmin(T, s, a, w);
            }
            if (m) S[ns++] = (bench_series){f8n[2 * s + w], m, kx8[2 * s + w], ky8[2 * s + w], 0};
        }
    bench_fig_init(&F);
    F.base = "f8-kmin";
    F.title = "fewest PGS sweeps that keep VTS quiet";
    F.xlabel = "h / h_crit";
    F.ylabel = "k_min (PGS sweeps per step)";
    F.logy = 1;
    F.kind = BENCH_FIG_MARKS;
    F.ns = ns;
    F.s = S;
    rc |= fig(t, &F);
    return rc;
}

/* ---- claims ------------------------------------------------------------------------------- */

enum {
    FA1, FA2, FA2B, FA3, FA4, FA5, FB1, FB2, FB3, FB3D, FB4, FB5, FC1, FC2, FD1,
    FA1M, FA5H, FB2V, FB4H, NCLAIM
};


static const t2cfg *t2find(const tables *T, const char *scene, const char *param, double h,
                           double ratio_h)
{
    for (int k = 0; k < T->nt2; k++) {
        const t2cfg *c = &T->t2[k];
        if (strcmp(c->scene, scene) || (param && strcmp(c->param, param))) continue;
        if (!isnan(ratio_h) && fabs(c->ratio_h / ratio_h - 1) > 1e-9) continue;
        if (!isnan(h) && fabs(c->h / h - 1) > 1e-9) continue;
        return c;
    }
    return NULL;
}

static const job *t2job(const tables *T, const t2cfg *c, int s)
{
    return c ? J(T, c->js[s]) : NULL;
}

static int unstable(prob_outcome o)
{
    return o == PROB_JITTER || o == PROB_EXPLODED;
}

static const bench_claim_def defs[NCLAIM] = {
    [FA1] = {.id = "FA1", .source = "Francu 2018, \"Transversal stability of constraints\", "
             "par. 1; Tournier et al. 2015, abstract",
             .quote = "FA1 (FA-a): \"I will attempt to formulate jittering mathematically "
             "as oscillations transversal to the constraint directions\"; Tournier: "
             "\"spurious transverse vibrations\".  Tested as: the growing motion of unstable "
                 "VTS is transversal",
             .metric = "E_T / (E_T + E_C) at the last step of the linear phase of each T1 run "
             "at 1.25 h_crit (the onset protocol's 1e-9 rad seeded random offset)",
             .band = "share >= 0.99 in every run", .b = {{0.99, 1}},
             .changed = "was \"did not hold\" through MAC >= 0.9 with the top mode, a "
             "condition of ours (nearly equal modes mix); it is now the finding FA1-mode"},
    [FA2] = {.id = "FA2", .source = "Francu 2018, \"Transversal stability of constraints\", "
             "last paragraph (after Andrews et al. 2017)",
             .quote = "FA2 (FA-c): \"If the highest eigenvalue omega^2 of M^-1 K~ does not "
             "satisfy omega < 2/h, then the simulation becomes unstable\".  Tested as: VTS "
             "is unstable iff h omega_max > 2",
             .metric = "h_onset / h_crit of each T1 configuration (VTS, exact solve, "
             "bisection to 0.25%)",
             .band = "within 2% of 1", .b = {{0.98, 1.02}}},
    [FA2B] = {.id = "FA2b", .source = "Francu 2018, \"Transversal stability of "
              "constraints\", last paragraph; the symplectic Euler growth of a mode",
              .quote = "FA2b: above the threshold VTS grows like symplectic Euler on the "
              "top mode, |mu| = ((s - 2) + sqrt((s - 2)^2 - 4)) / 2 per step",
              .metric = "mu_meas / mu_pred at 1.25 h_crit (least-squares fit of the top "
              "mode's energy over the linear phase)",
              .band = "within 5% of 1", .b = {{0.95, 1.05}}},
    [FA3] = {.id = "FA3", .source = "Francu 2018, \"Transversal stability of constraints\", "
             "par. 2",
             .quote = "FA3 (FA-b): \"instabilities don't come from the constraints "
             "themselves, but from how constraint forces are distributed to the other "
             "constraints and how these constraints are geometrically related\"",
             .metric = "VTS on towed with F = 0 at h = 0.01, 0.1, 1 s (quiet: 1); the log-log "
             "slope of omega_max^2 against F (1 to 100 N) per N",
             .band = "F = 0 quiet at every h (band 0); slope 1.00 +- 0.01 (band 1)",
             .b = {{1, 1}, {0.99, 1.01}}},
    [FA4] = {.id = "FA4", .source = "Francu 2018, \"Transversal stability of constraints\", "
             "the paragraph after theta'' = C + E K theta, and the last paragraph",
             .quote = "FA4 (FA-d): \"K~ = L^T K L\" and \"modal analysis of M^-1 K~ [is] "
             "the proper way of studying stability\".  Tested as: the transversal (restricted "
             "and E K) and full-space omega_max agree",
             .metric = "relative spread of the three omega_max on every T1 state and the "
             "largest over every T5 state with omega_max > 1 rad/s",
             .band = "at most 1%", .b = {{0, 0.01}}},
    [FA5] = {.id = "FA5", .source = "Francu 2018, \"Transversal stability of constraints\", "
             "par. 1",
             .quote = "FA5 (FA-e): \"SHAKE right away explodes if it's stressed enough, "
             "while VTS manifests what is known as 'jittering' (in the same conditions)\"",
             .metric = "outcome of shake and vts on towed at 1.07 h_crit, just stressed enough "
             "for VTS to go unstable (vts finite: no non-finite value and no link stretched "
             "beyond 10 lengths)",
             .band = "shake exploded (band 0) and vts not exploded (band 1)",
             .b = {{1, 1}, {1, 1}},
             .changed = "was tested at 2 h_crit, a stress of our choosing where VTS explodes "
             "too; the source's \"stressed enough\" is the threshold, so 1.07 h_crit; 2 h_crit "
             "is now the finding FA5-2hc"},
    [FB1] = {.id = "FB1", .source = "Francu 2018, \"Implicit velocity projection\", last "
             "paragraph",
             .quote = "FB1 (FB-b): \"If you iterate this scheme you get implicit VTS and "
             "it's way more stable than VTS\"",
             .metric = "outcome of ivts (K 20, beta 0.5) on towed at 1.07, 2, 5 h_crit where "
             "vts jitters or explodes",
             .band = "ivts quiet in every such case", .b = {{1, 1}}},
    [FB2] = {.id = "FB2", .source = "Francu 2018, \"Implicit velocity projection\", last "
             "paragraph",
             .quote = "FB2 (FB-b): \"I haven't got to make measurements, but it looks just "
             "like PBD\" (on a 2D thread with extreme initial velocities)",
             .metric = "Jstar on thread (kappa 3.3, h 1/60, 2 s) of ivts (K 20) over pbd's "
             "(K 20)",
             .band = "ivts / pbd in [0.1, 10]", .b = {{0.1, 10}},
             .changed = "was \"did not hold\" through vts / ivts >= 100, a condition the "
             "source does not state; it is now the finding FB2-vts"},
    [FB3] = {.id = "FB3", .source = "Francu 2018, \"Implicit velocity projection\", last "
             "paragraph",
             .quote = "FB3 (FB-c): \"you don't set beta too close to 1 or it explodes "
             "(why, I don't know yet)\"",
             .metric = "beta*, the smallest beta that explodes on thread (ivts, K 20, 2 s), "
             "and the run at beta = 1",
             .band = "beta* in [0.5, 1.0) (band 0) and beta = 1 explodes (band 1)",
             .b = {{0.5, 1 - 1e-12}, {1, 1}}},
    [FB3D] = {.id = "FB3-diag", .kind = BENCH_FINDING,
              .source = "this suite, on Francu's FB-c",
              .quote = "FB3-diag: ivts explodes when a link turns by more than 90 degrees "
              "within the iteration, so that the effective Schur term n^0 . n_c (w_a + w_b) "
              "loses its sign",
              .metric = "cos_min = min_j n_j(x_k) . n_j(x_k + h v) on the T3 runs: up to and "
              "including the failing step (exploding runs), after step 1 (the others)",
              .band = "< 0 in every exploding run (band 0); > 0.5 in every other run "
              "(band 1)", .b = {{-INFINITY, -1e-300}, {0.5 + 1e-12, INFINITY}}},
    [FB4] = {.id = "FB4", .source = "Francu 2018, \"Implicit velocity projection\", par. 2 "
             "and 3",
             .quote = "FB4 (FB-d): \"VTS is very similar to SHAKE ... which is symplectic. "
             "This means energy gets conserved better in the transverse direction\"; "
             "implicit integrators \"dissipate energy artificially\"",
             .metric = "T6 swing amplitude ratio after 10 s (hang, ratio 1, amp 0.2 rad, "
             "h 1/60) of pbd, ivts and gsd over vts's",
             .band = "below 1 for each (vts conserves better)", .b = {{0, 1 - 1e-12}},
             .changed = "was \"did not hold\" through a threshold of ours (pbd, ivts, gsd "
             "<= 0.5 and vts >= 0.95); the source compares, so the test is the ratio to vts; "
             "the threshold is now the finding FB4-half"},
    [FB5] = {.id = "FB5", .source = "Francu 2018, \"Implicit velocity projection\", par. 2",
             .quote = "FB5 (FB-a): \"PBD is very stable just because it is fully "
             "implicit\"",
             .metric = "outcome of pbd (K 20) on every T2 configuration",
             .band = "never jitter (the share of configurations not jittering: 1)",
             .b = {{1, 1}}},
    [FC1] = {.id = "FC1", .source = "Andrews, Teichmann, Kry 2017, abstract",
             .quote = "FC1: geometric stiffness is stable \"for mass ratios of "
             "1,000,000-to-1 at time steps up to 0.1 s\" (our diagonal form gsd)",
             .metric = "gsd (ldlt-ref) on hang with ratio 1e2, 1e4, 1e6 at h = 1/60 and 0.1",
             .band = "quiet (band 0) with max_stretch <= 1% (band 1) in every case",
             .b = {{1, 1}, {0, 0.01}}},
    [FC2] = {.id = "FC2", .source = "Andrews, Teichmann, Kry 2017, abstract",
             .quote = "FC2: geometric stiffness \"tends to significantly dissipate kinetic "
             "energy\"",
             .metric = "T6 swing amplitude ratio after 10 s of gsd, where vts keeps >= 0.95",
             .band = "gsd <= 0.5", .b = {{0, 0.5}}},
    [FD1] = {.id = "FD1", .source = "Tournier et al. 2015, abstract",
             .quote = "FD1: geometric stiffness is \"the missing piece\" against "
             "instabilities in the nullspace directions.  Tested as: full geometric "
             "stiffness (gsfull) is stable far beyond h_crit",
             .metric = "outcome of gsfull on towed (N 20, F 10) at 10 h_crit",
             .band = "quiet", .b = {{1, 1}}},
    [FA1M] = {.id = "FA1-mode", .kind = BENCH_FINDING, .source = "this suite, on FA1",
              .quote = "the growing motion of unstable VTS is the top geometric-stiffness "
              "mode",
              .metric = "MAC(psi_max, u) at the last step of the linear phase of each T1 run "
              "at 1.25 h_crit", .band = "MAC >= 0.9 in every run", .b = {{0.9, 1}}},
    [FA5H] = {.id = "FA5-2hc", .kind = BENCH_FINDING, .source = "this suite, on FA5",
              .quote = "at 2 h_crit SHAKE explodes while VTS stays finite",
              .metric = "outcome of shake and vts on towed at 2 h_crit",
              .band = "shake exploded (band 0) and vts not exploded (band 1)",
              .b = {{1, 1}, {1, 1}}},
    [FB2V] = {.id = "FB2-vts", .kind = BENCH_FINDING, .source = "this suite, on FB2",
              .quote = "on the thread VTS jitters at least 100 times more than ivts (Jstar)",
              .metric = "Jstar of vts over ivts's on thread", .band = ">= 100",
              .b = {{100, INFINITY}}},
    [FB4H] = {.id = "FB4-half", .kind = BENCH_FINDING, .source = "this suite, on FB4",
              .quote = "vts keeps the swing (>= 0.95) while pbd, ivts and gsd lose at least "
              "half of it (<= 0.5)", .metric = "T6 swing amplitude ratio after 10 s",
              .band = "vts >= 0.95 (band 0); pbd, ivts, gsd <= 0.5 (band 1)",
              .b = {{0.95, INFINITY}, {0, 0.5}}},
};

/* FA5 at ratio h / h_crit on towed: shake exploded (band 0), vts not exploded (band 1) */
static void claim_fa5(const tables *T, bench_claim *c, double ratio)
{
    const t2cfg *c2 = t2find(T, "towed", NULL, NAN, ratio);
    const job *sh = t2job(T, c2, 20), *vt = t2job(T, c2, S_VTS);
    char lab[2][160];
    if (!sh || !vt) {
        bench_claim_missing(c, "towed at this h_crit ratio not run");
        return;
    }
    snprintf(lab[0], sizeof lab[0], "%g h_crit: shake %s, exploded", ratio,
             prob_outcome_name(sh->R.outcome));
    snprintf(lab[1], sizeof lab[1], "vts %s%s%.100s, not exploded",
             prob_outcome_name(vt->R.outcome),
             vt->R.fail[0] ? ", " : "", vt->R.fail);
    bench_claim_flag(c, 0, lab[0], sh->R.outcome == PROB_EXPLODED);
    bench_claim_flag(c, 1, lab[1], vt->R.outcome != PROB_EXPLODED);
}

/* the claims on T1: the spectra, the onsets, the linear phase */
static void claims_t1(const tables *T, bench_claim *cl)
{
    /* T1 */
    for (int k = 0; k < NT1; k++) {
        const t1row *x = &T->t1[k];
        if (!x->have) continue;
        char lab[64];                               /* short: 19 cases share 1 kB */
        if (!strcmp(x->scene, "towed")) snprintf(lab, sizeof lab, "towed %d F%g", x->N, x->F);
        else if (!strcmp(x->scene, "hang")) snprintf(lab, sizeof lab, "hang r%g", x->ratio);
        else snprintf(lab, sizeof lab, "pendulum");
        if (k == T1_F0) continue;                    /* no tension: no spectrum to compare */
        bench_claim_value(&cl[FA4], lab, x->M.spread, "%.1e");
        const job *j = J(T, x->j_125);
        if (j && !isnan(j->R.mac_top)) {
            bench_claim_value(&cl[FA1], lab, j->R.et_share, "%.3f");
            bench_claim_value(&cl[FA1M], lab, j->R.mac_top, "%.2f");
        } else {
            bench_claim_missing(&cl[FA1], "no linear phase measured");
            bench_claim_missing(&cl[FA1M], "no linear phase measured");
        }
        bench_claim_value(&cl[FA2], lab, onset_of(T, x) / x->M.h_crit, "%.4f");
        bench_claim_value(&cl[FA2B], lab, j ? j->R.mu_meas / j->R.mu_pred : NAN, "%.4f");
    }
    const t1row *f0 = &T->t1[T1_F0];
    for (int i = 0; i < 3 && f0->have; i++) {
        const job *j = J(T, f0->j_f0[i]);
        char lab[64];
        snprintf(lab, sizeof lab, "F 0 h %g %s", j ? j->h : NAN,
                 j ? prob_outcome_name(j->R.outcome) : "-");
        if (j) bench_claim_flag(&cl[FA3], 0, lab, j->R.outcome == PROB_QUIET);
        else bench_claim_missing(&cl[FA3], "an F = 0 run failed");
    }
    for (int a = 0; a < 4; a++) {
        const t1row *lo = &T->t1[3 * a], *hi = &T->t1[3 * a + 2];
        if (!lo->have || !hi->have) continue;
        double s = log(pow(hi->M.omega_restricted / lo->M.omega_restricted, 2)) / log(100.0);
        char lab[32];
        snprintf(lab, sizeof lab, "slope N %d", lo->N);
        bench_claim_in(&cl[FA3], 1, lab, s, "%.4f");
    }
    for (int i = 0; i < 3; i++)
        if (J(T, T->j5[i]))
            bench_claim_value(&cl[FA4], i == 0 ? "chain 1/60" : i == 1 ? "chain 1/100"
                                                                      : "chain 1/200",
                              T->c5[i].spread, "%.1e");
}

/* the claims on T2: the steppers' outcomes */
static void claims_t2(const tables *T, bench_claim *cl)
{
    claim_fa5(T, &cl[FA5], 1.07);
    claim_fa5(T, &cl[FA5H], 2.0);
    static const double fb1r[3] = {1.07, 2, 5};
    for (int i = 0; i < 3; i++) {
        const t2cfg *c = t2find(T, "towed", NULL, NAN, fb1r[i]);
        const job *v = t2job(T, c, S_VTS), *iv = t2job(T, c, S_IVTS20);
        if (!v || !iv) continue;
        char lab[96];
        snprintf(lab, sizeof lab, "%.2f h_crit vts %s, ivts %s: quiet", fb1r[i],
                 prob_outcome_name(v->R.outcome), prob_outcome_name(iv->R.outcome));
        if (unstable(v->R.outcome)) bench_claim_flag(&cl[FB1], 0, lab, iv->R.outcome == PROB_QUIET);
    }
    const t2cfg *th = t2find(T, "thread", NULL, NAN, NAN);
    const job *ti = t2job(T, th, S_IVTS20), *tp = t2job(T, th, S_PBD20), *tv = t2job(T, th, S_VTS);
    if (ti && tp && tv) {
        bench_claim_note(&cl[FB2], "Jstar ivts %.2g, pbd %.2g, vts %.2g", ti->R.jstar,
                         tp->R.jstar, tv->R.jstar);
        bench_claim_value(&cl[FB2], "ivts/pbd", ti->R.jstar / tp->R.jstar, "%.2g");
        bench_claim_value(&cl[FB2V], "vts/ivts", tv->R.jstar / ti->R.jstar, "%.3g");
    } else {
        bench_claim_missing(&cl[FB2], "thread runs missing");
        bench_claim_missing(&cl[FB2V], "thread runs missing");
    }
    {
        int n = 0, bad = 0;
        char list[512] = "";
        for (int k = 0; k < T->nt2; k++) {
            const job *p = t2job(T, &T->t2[k], S_PBD20);
            if (!p) continue;
            n++;
            if (p->R.outcome == PROB_JITTER) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s %s h %.3g", bad++ ? ", " : "; jitter: ",
                         T->t2[k].scene, T->t2[k].param, T->t2[k].h);
            }
        }
        if (n) {
            bench_claim_value(&cl[FB5], "share of configurations not jittering",
                              (double)(n - bad) / n, "%.2f");
            if (bad) bench_claim_note(&cl[FB5], "%s", list + 2);
        }
        else bench_claim_missing(&cl[FB5], "no pbd run");
    }
    for (int r = 1; r < 3; r++)
        for (int i = 0; i < 2; i++) {
            char p[32];
            snprintf(p, sizeof p, "ratio=%g", t2_ratio[r]);
            const t2cfg *c = t2find(T, "hang", p, t2_hang_h[i], NAN);
            const job *g = t2job(T, c, 17);
            if (!g) continue;
            char lab[96];
            snprintf(lab, sizeof lab, "%s h %.3g %s", p, t2_hang_h[i],
                     prob_outcome_name(g->R.outcome));
            bench_claim_flag(&cl[FC1], 0, lab, g->R.outcome == PROB_QUIET);
            bench_claim_in(&cl[FC1], 1, "stretch", g->R.max_stretch, "%.1e");
        }
    for (int i = 0; i < 2; i++) {
        const job *g = J(T, T->fc1[i]);
        char lab[128];
        if (g) snprintf(lab, sizeof lab, "ratio=1e6 h %.3g %s%s%.60s", t2_hang_h[i],
                        prob_outcome_name(g->R.outcome), g->R.fail[0] ? ": " : "", g->R.fail);
        if (g) {
            bench_claim_flag(&cl[FC1], 0, lab, g->R.outcome == PROB_QUIET);
            bench_claim_in(&cl[FC1], 1, "stretch", g->R.max_stretch, "%.1e");
        }
        else bench_claim_missing(&cl[FC1], "a ratio 1e6 run failed");
    }
    const t2cfg *c10 = t2find(T, "towed", NULL, NAN, 10);
    const job *gf = t2job(T, c10, 19);
    if (gf) {
        bench_claim_note(&cl[FD1], "Jstar %.2g, stretch %.1e", gf->R.jstar, gf->R.max_stretch);
        bench_claim_flag(&cl[FD1], 0, prob_outcome_name(gf->R.outcome),
                         gf->R.outcome == PROB_QUIET);
    }
    else bench_claim_missing(&cl[FD1], "towed at 10 h_crit not run");
}

/* the claims on T3 (beta on the thread) and T6 (the swing) */
static void claims_t36(const tables *T, bench_claim *cl)
{
    /* T3 */
    int have1 = 0, expl1 = 0;
    for (int k = 0; k < T->nbeta; k++) {
        const job *j = J(T, T->j3[k]);
        if (!j) continue;
        if (fabs(T->beta[k] - 1.0) < 1e-9) {
            have1 = 1;
            expl1 = j->R.outcome == PROB_EXPLODED;
        }
        char lab[48];
        int ex = j->R.outcome == PROB_EXPLODED;
        snprintf(lab, sizeof lab, "beta %.2f%s cos", T->beta[k], ex ? " exploded," : "");
        bench_claim_in(&cl[FB3D], ex ? 0 : 1, lab, ex ? fmin(j->R.cos_min, j->R.cos_min_fail)
                                                      : T->cos_after1[k], "%.2f");
    }
    double bs = beta_star(T);
    if (have1) {
        bench_claim_in(&cl[FB3], 0, "beta*", bs, "%.2f");
        bench_claim_flag(&cl[FB3], 1, "beta 1 explodes", expl1);
    }
    else bench_claim_missing(&cl[FB3], "beta = 1 not run");
    /* T6 */
    const job *e[NS6];
    for (int s = 0; s < NS6; s++) e[s] = J(T, T->j6[s]);
    if (e[0] && e[1] && e[2] && e[4]) {
        static const int oth[3] = {2, 4, 1};   /* pbd, ivts, gsd */
        static const char *const on[3] = {"pbd", "ivts", "gsd"};
        double v = e[0]->R.amp_ratio;
        bench_claim_note(&cl[FB4], "vts %.3f", v);
        bench_claim_in(&cl[FB4H], 0, "vts", v, "%.3f");
        for (int k = 0; k < 3; k++) {
            char lab[32];
            snprintf(lab, sizeof lab, "%s %.3f, over vts", on[k], e[oth[k]]->R.amp_ratio);
            bench_claim_value(&cl[FB4], lab, e[oth[k]]->R.amp_ratio / v, "%.3f");
            bench_claim_in(&cl[FB4H], 1, on[k], e[oth[k]]->R.amp_ratio, "%.3f");
        }
        if (v >= 0.95)
            bench_claim_value(&cl[FC2], "gsd", e[1]->R.amp_ratio, "%.3f");
        else bench_claim_missing(&cl[FC2], "vts did not keep the swing (>= 0.95)");
    } else {
        bench_claim_missing(&cl[FB4], "T6 runs missing");
        bench_claim_missing(&cl[FB4H], "T6 runs missing");
        bench_claim_missing(&cl[FC2], "T6 runs missing");
    }
}

static void claims(const tables *T, bench_claim *cl)
{
    bench_claims_init(cl, defs, NCLAIM);
    claims_t1(T, cl);
    claims_t2(T, cl);
    claims_t36(T, cl);
}

/* ---- Markdown ------------------------------------------------------------------------------ */

static void md_t1(FILE *f, const tables *T)
{
    static const char *const head[] = {"scene", "N", "param", "omega_max (rad/s)", "spread",
                                       "analytic", "h_crit (ms)", "h_onset (ms)", "onset / h_crit",
                                       "mu pred 1.25", "mu meas 1.25", "E_T share", "MAC top",
                                       "unresolved share"};
    bench_md_head(f, 14, head, "lrlrrrrrrrrrrr");
    for (int k = 0; k < NT1; k++) {
        const t1row *x = &T->t1[k];
        if (!x->have) continue;
        const job *j = J(T, x->j_125);
        double on = onset_of(T, x);
        char b[14][48];
        const char *row[14];
        snprintf(b[0], 48, "%s", x->scene);
        snprintf(b[1], 48, "%d", x->N);
        snprintf(b[2], 48, "%s", x->param);
        bench_fmt(b[3], 48, x->M.omega_restricted, "%.4f");
        bench_fmt(b[4], 48, x->M.spread, "%.1e");
        bench_fmt(b[5], 48, x->analytic, "%.4f");
        bench_fmt(b[6], 48, 1e3 * x->M.h_crit, "%.4g");
        bench_fmt(b[7], 48, 1e3 * on, "%.4g");
        bench_fmt(b[8], 48, on / x->M.h_crit, "%.4f");
        bench_fmt(b[9], 48, j ? j->R.mu_pred : NAN, "%.5f");
        bench_fmt(b[10], 48, j ? j->R.mu_meas : NAN, "%.5f");
        bench_fmt(b[11], 48, j ? j->R.et_share : NAN, "%.4f");
        bench_fmt(b[12], 48, j ? j->R.mac_top : NAN, "%.3f");
        bench_fmt(b[13], 48, j && x->lin.have ? x->lin.share : NAN, "%.3f");
        if (k == T1_F0) snprintf(b[6], 48, "inf");
        for (int c = 0; c < 14; c++) row[c] = b[c];
        bench_md_row(f, 14, row);
    }
}

/* one letter per outcome */
static const char *abbrev(const job *j)
{
    if (!j) return "-";
    switch (j->R.outcome) {
    case PROB_QUIET: return "q";
    case PROB_MARGINAL: return "m";
    case PROB_JITTER: return "**J**";
    case PROB_EXPLODED: return "**X**";
    }
    return "?";
}

static void md_t2(FILE *f, const tables *T)
{
    const char *head[20];
    char hb[20][48];
    int nc = 0;
    head[nc++] = "stepper";
    for (int k = 0; k < T->nt2 && nc < 20; k++) {
        const t2cfg *c = &T->t2[k];
        if (!strcmp(c->scene, "towed")) snprintf(hb[nc], 48, "towed %.3g hc", c->ratio_h);
        else if (!strcmp(c->scene, "hang"))
            snprintf(hb[nc], 48, "hang %s h %.3g", c->param + 6, c->h);
        else snprintf(hb[nc], 48, "%s 1/%.0f", c->scene, 1.0 / c->h);
        head[nc] = hb[nc];
        nc++;
    }
    char align[21];
    memset(align, 'c', sizeof align);
    align[0] = 'l';
    align[nc] = 0;
    bench_md_head(f, nc, head, align);
    for (int s = 0; s < NS2; s++) {
        char name[48];
        const char *row[20];
        int any = 0;
        if (t2s[s].K > 0) snprintf(name, 48, "%s %d", t2s[s].label, t2s[s].K);
        else if (!strcmp(t2s[s].label, "vts-pgs")) snprintf(name, 48, "vts-pgs %d", t2s[s].iters);
        else snprintf(name, 48, "%s", t2s[s].label);
        row[0] = name;
        for (int k = 0; k < T->nt2; k++) {
            row[k + 1] = abbrev(t2job(T, &T->t2[k], s));
            any |= T->t2[k].js[s] >= 0;
        }
        if (any) bench_md_row(f, nc, row);
    }
}

/* stretch against iterations for pbd and ivts (beside the claims, not a claim) */
static void md_stretch(FILE *f, const tables *T)
{
    static const int ss[7] = {5, 6, 7, 11, 12, 13, 14};
    const t2cfg *cf[4] = {t2find(T, "towed", NULL, NAN, 0.5), t2find(T, "towed", NULL, NAN, 1.07),
                          t2find(T, "towed", NULL, NAN, 5), t2find(T, "hang", "ratio=100",
                                                                   1.0 / 60, NAN)};
    static const char *const head[] = {"stepper", "towed 0.5 h_crit", "towed 1.07 h_crit",
                                       "towed 5 h_crit", "hang 100, h 1/60"};
    bench_md_head(f, 5, head, "lrrrr");
    for (int q = 0; q < 7; q++) {
        char b[5][48];
        const char *row[5];
        int any = 0;
        snprintf(b[0], 48, "%s %d", t2s[ss[q]].label, t2s[ss[q]].K);
        for (int c = 0; c < 4; c++) {
            const job *j = t2job(T, cf[c], ss[q]);
            any |= j != NULL;
            if (j && j->R.outcome == PROB_EXPLODED) snprintf(b[c + 1], 48, "exploded");
            else bench_fmt(b[c + 1], 48, j ? j->R.max_stretch : NAN, "%.2g");
        }
        for (int c = 0; c < 5; c++) row[c] = b[c];
        if (any) bench_md_row(f, 5, row);
    }
}

static void md_rest(FILE *f, const tables *T)
{
    /* T3 */
    char bs[32];
    if (isnan(beta_star(T))) snprintf(bs, sizeof bs, "none");
    else snprintf(bs, sizeof bs, "%.2f", beta_star(T));
    fprintf(f, "\n## T3: Francu's beta on `thread` (`t3-beta.csv`, figure `plots/f5-beta`)\n\n"
               "ivts, K = 20 sweeps, rhs = (beta/h) C, h = 1/60, kappa = 3.3 (V = 19.8 m/s), "
               "2 s.  beta* (the smallest beta that explodes) = %s.\n\n", bs);
    static const char *const h3[] = {"beta", "outcome", "t_fail (s)", "max stretch",
                                     "cos_min (to the failure)", "cos_min after step 1", "Jstar"};
    bench_md_head(f, 7, h3, "rlrrrrr");
    for (int k = 0; k < T->nbeta; k++) {
        const job *j = J(T, T->j3[k]);
        char b[7][40];
        const char *row[7];
        snprintf(b[0], 40, "%.2f", T->beta[k]);
        snprintf(b[1], 40, "%s", j ? prob_outcome_name(j->R.outcome) : "-");
        bench_fmt(b[2], 40, j ? j->R.t_fail : NAN, "%.4g");
        bench_fmt(b[3], 40, j ? j->R.max_stretch : NAN, "%.3g");
        double c = j ? fmin(j->R.cos_min, j->R.cos_min_fail) : NAN;
        bench_fmt(b[4], 40, c, "%.3f");
        bench_fmt(b[5], 40, T->cos_after1[k], "%.3f");
        bench_fmt(b[6], 40, j ? j->R.jstar : NAN, "%.2g");
        for (int q = 0; q < 7; q++) row[q] = b[q];
        bench_md_row(f, 7, row);
    }
    /* T4 */
    fprintf(f, "\n## T4: PGS sweeps against stability (`t4-pgs.csv`, figure `plots/f8-kmin`)\n\n"
               "VTS with k warm-started PGS sweeps per step (fixed, no early stop), 400 steps.  "
               "warm: the first step starts from the scene's static tension (its default); "
               "cold: from zero impulses.  k_min = the fewest of 1, 2, 5, 10, 20, 50, 100, 200 "
               "sweeps that keep VTS quiet (- = none).\n\n");
    for (int s = 0; s < 2; s++)
        if (T->capdir[s][0])
            fprintf(f, "%s `instances/%s/`: the LCP of the first step at the jitter level "
                       "(E_nyq > 1e-4 E_ref) of the cold-started 1-sweep run at 0.95 h_crit "
                       "(written by the command, not committed).\n", s ? "" : "Captured:",
                    T->capdir[s]);
    if (T->capdir[0][0] || T->capdir[1][0]) fprintf(f, "\n");
    static const char *const h4[] = {"scene", "start", "0.5 h_crit", "0.8 h_crit",
                                     "0.95 h_crit"};
    bench_md_head(f, 5, h4, "llrrr");
    static const char *const sc[2] = {"towed N 20 F 10", "hang ratio 100"};
    for (int s = 0; s < 2; s++)
        for (int w = 0; w < 2; w++) {
            char b[5][40];
            const char *row[5];
            int any = 0;
            snprintf(b[0], 40, "%s", sc[s]);
            snprintf(b[1], 40, "%s", w ? "cold" : "warm");
            for (int a = 0; a < N4H; a++) {
                int run = 0;
                for (int k = 0; k < N4K; k++) run |= T->j4[s][a][k][w] >= 0;
                any |= run;
                if (run) bench_fmt(b[2 + a], 40, kmin(T, s, a, w), "%.0f");
                else snprintf(b[2 + a], 40, "not run");
            }
            for (int q = 0; q < 5; q++) row[q] = b[q];
            if (any) bench_md_row(f, 5, row);
        }
    /* T5 */
    fprintf(f, "\n## T5: the time-resolved prediction on `chain` (`t5-chain.csv`, figures "
               "`plots/f6-chain-*`)\n\nThe chain released level (20 links, d 2), VTS with "
               "ldlt-ref, 3 s; omega_max after every step from the step's multipliers.  "
               "Predicted t* = the first step with h omega_max > 2; measured onset = the first "
               "step from which E_nyq / E_ref > 1e-6 for 10 steps (this level is already "
               "crossed by the smooth fall at these steps, so the measured onset does not "
               "separate jitter from the release; `plots/f6-chain-enyq` shows the whole "
               "curve).  Spread: the largest (max - min) / max of the three omega_max over "
               "the states with omega_max > 1 rad/s, and over those with every link in "
               "tension (z < 0); per step in the CSV.\n\n");
    static const char *const h5[] = {"h", "predicted t* (s)", "measured onset (s)",
                                     "max h omega_max", "outcome", "spread of the 3 forms",
                                     "spread, all links taut"};
    bench_md_head(f, 7, h5, "lrrrlrr");
    for (int i = 0; i < 3; i++) {
        const job *j = J(T, T->j5[i]);
        if (!j) continue;
        double tp, tm, hm;
        t5_summary(T, i, &tp, &tm, &hm);
        char b[7][40];
        const char *row[7];
        snprintf(b[0], 40, "1/%.0f", 1.0 / t5_h[i]);
        if (isnan(tp)) snprintf(b[1], 40, "never");
        else snprintf(b[1], 40, "%.3f", tp);
        if (isnan(tm)) snprintf(b[2], 40, "never");
        else snprintf(b[2], 40, "%.3f", tm);
        snprintf(b[3], 40, "%.3f", hm);
        snprintf(b[4], 40, "%s", prob_outcome_name(j->R.outcome));
        snprintf(b[5], 40, "%.1e", T->c5[i].spread);
        snprintf(b[6], 40, "%.1e", T->c5[i].spread_t);
        for (int q = 0; q < 7; q++) row[q] = b[q];
        bench_md_row(f, 7, row);
    }
    /* T6 */
    fprintf(f, "\n## T6: energy behaviour (`t6-energy.csv`)\n\n`hang` with ratio 1, every link "
               "at 0.2 rad, h = 1/60 (h omega_max well below 2), 10 s: the peak horizontal "
               "position of the end bead in the last second over that in the first.\n\n");
    static const char *const h6[] = {"stepper", "amplitude ratio", "max stretch", "outcome"};
    bench_md_head(f, 4, h6, "lrrl");
    for (int s = 0; s < NS6; s++) {
        const job *j = J(T, T->j6[s]);
        if (T->j6[s] < 0) continue;
        char b[4][40];
        const char *row[4];
        snprintf(b[0], 40, "%s%s", t6s[s].label, t6s[s].K ? " 20" : "");
        bench_fmt(b[1], 40, j ? j->R.amp_ratio : NAN, "%.3f");
        bench_fmt(b[2], 40, j ? j->R.max_stretch : NAN, "%.2g");
        snprintf(b[3], 40, "%s", j ? prob_outcome_name(j->R.outcome) : "-");
        for (int q = 0; q < 4; q++) row[q] = b[q];
        bench_md_row(f, 4, row);
    }
}

static int markdown(const bench_table_ctx *t, const tables *T, const bench_claim *cl,
                    double seconds)
{
    bench_out o;
    FILE *f = bench_table_md(t, &o, "transversal.md", "transversal: jitter of velocity "
                                                      "stepping, the modal prediction and the "
                                                      "alternative steppers (Francu 2018)");
    if (!f) return 1;
    if (T->quick)
        fprintf(f, "**Quick mode** (`--quick`): a subset of every table; the verdicts rest on "
                   "fewer cases than the full run.\n\n");
    fprintf(f, "Francu publishes no numbers (his posts show videos), so the claims below are his "
               "statements, each checked on our numbers with a band fixed before the run; a "
               "condition he does not state (a mode shape, a factor of ours) is a finding of "
               "this suite, never part of his claim (FA1-mode, FA5-2hc, FB2-vts, FB4-half: "
               "each says under \"Changed\" which verdict moved).  "
               "All worlds are beads on centre-attached distance joints (problems/README.md, \"Transversal "
               "stability\").  Wall time of the runs: %.1f s.\n\n", seconds);
    const job *a = J(T, T->t1[7].j_125), *b = J(T, T->jf7);
    fprintf(f, "Perturbation protocol for the 1.25 h_crit runs (MAC, E_T share): the onset "
               "protocol's seeded random link-angle offset of 1e-9 rad, because FA1 and FA1-mode "
               "ask for every T1 run; with a 1e-22 rad offset (a longer linear phase) towed N "
               "20 gives MAC %.3f instead of %.3f (figure `plots/f7-mode`).\n\n",
            b ? b->R.mac_top : NAN, a ? a->R.mac_top : NAN);
    fprintf(f, "## T1: modal prediction against the measured onset (`t1-onset.csv`, figures "
               "`plots/f1-onset`, `plots/f2-growth`, `plots/f3-spectrum`)\n\nVTS with the exact "
               "solve (ldlt-ref).  omega_max from the restricted problem (L^T -K~ L, L^T M L); "
               "spread = (max - min) / max of the restricted, full-space and E K forms; "
               "h_crit = 2 / omega_max.  Onset by bisection in [0.9, 1.1] h_crit to 0.25%%: a run "
               "of 400 steps is unstable when E_T grows 1e6-fold.  mu at 1.25 h_crit: predicted "
               "by symplectic Euler, measured by a least-squares fit of the top mode's energy "
               "over the linear phase (amplitude below 1e-3 L, from step 3); E_T share, MAC and "
               "the unresolved share (E_T in modes with h omega > 2) at its last step.\n\n");
    md_t1(f, T);
    fprintf(f, "\n## T2: the steppers at fixed steps (`t2-steppers.csv`, figure "
               "`plots/f4-jstar`)\n\nOutcome per run: q quiet (Jstar < 1e-9), m marginal, "
               "**J** jitter (Jstar > 1e-4), **X** exploded (the stepper failed, a value became "
               "non-finite, or a link stretched beyond 10 lengths).  Jstar, stretch, amplitude "
               "ratio and time per step are in the CSV (times measured with the runs spread over "
               "threads on a loaded machine: compare them within a run only).  towed: 400 "
               "steps; hang: 400 steps; thread and chain: 2 s.  vts and gsd solve exactly "
               "(ldlt-ref); vts-pgs k: k PGS sweeps per step, warm-started; ivts: beta 0.5 "
               "(francu) or the SPOOK right-hand side (spook); xpbd: alpha = the scene's "
               "compliance (0, so it equals pbd).  The towed column at 10 h_crit is beyond the "
               "list, for FD1.\n\n");
    md_t2(f, T);
    fprintf(f, "\nStability bought with constraint error (beside the claims, not a claim): the "
               "largest link stretch |l - L| / L of pbd and ivts (francu) against their sweeps.\n\n");
    md_stretch(f, T);
    md_rest(f, T);
    bench_claims_md(f, cl, NCLAIM);
    fprintf(f, "\n## Files\n\n- `t1-onset.csv` .. `t6-energy.csv`: the tables above with every "
               "column\n- `claims.csv`: the claims with their verdicts and numbers\n- `plots/`: "
               "f1-onset (measured onsets against 2 / omega_max), f2-growth (E_T per step at "
               "0.95, 1.05, 1.25 h_crit with the predicted slopes), f3-spectrum (omega_i with "
               "2/h at h = 1/60), f4-jstar (Jstar against h / h_crit per stepper), f5-beta, "
               "f6-chain-homega and f6-chain-enyq, f7-mode (predicted top mode over the "
               "measured growing pattern), f8-kmin; each .csv (data), .gp, .png, .pdf\n");
    if (bench_close(t->cmd, &o)) return 1;
    fprintf(stderr, "lcpbench %s: wrote %s/transversal.md\n", t->cmd, t->out);
    return 0;
}

/* ---- the table ------------------------------------------------------------------------------ */

/* T4: the LCP of the onset step of the cold 1-sweep runs at 0.95 h_crit, for the solver
 * tables (DIR/instances/, not committed) */
static void capture_t4(const bench_table_ctx *t, tables *T)
{
    static const char *const sc[2] = {"towed", "hang"};
    for (int s = 0; s < 2; s++) {
        int step = T->cap4[s].step;
        if (!J(T, T->j4[s][2][0][1]) || step < 1) continue;
        char kv[4][40], dir[BENCH_PATH + 96], msg[8400];
        const char *k[4] = {kv[0], kv[1], kv[2], kv[3]};
        snprintf(kv[0], 40, "h=%.17g", 0.95 * T->hc4[s]);
        snprintf(kv[1], 40, "warm=0");
        snprintf(kv[2], 40, "iters=1");
        snprintf(kv[3], 40, "tol=-1");
        snprintf(T->capdir[s], sizeof T->capdir[s], "%s-0.95hc-cold-pgs1-step%d", sc[s], step);
        snprintf(dir, sizeof dir, "%s/instances/%s", t->out, T->capdir[s]);
        if (bench_capture_scene(sc[s], 4, k, step, dir, msg, sizeof msg) != 0) {
            fprintf(stderr, "lcpbench %s: transversal: capture %s: %s\n", t->cmd, sc[s], msg);
            T->capdir[s][0] = 0;
        }
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int bench_table_transversal(const bench_table_ctx *t)
{
    tables *T = lcp_calloc(1, sizeof *T);
    if (!T) return alloc_fail(t);
    T->quick = t->size < 0;
    double t0 = now();
    int rc = setup_t1(t, T);
    if (!rc && (jobs_t1(T) || jobs_t2(t, T) || jobs_t3(T) || jobs_t4(t, T) || jobs_t56(T)))
        rc = alloc_fail(t);
    if (!rc) {
        run_jobs(t, &T->L, 0, T->quick ? "(quick)" : "T1-T6");
        capture_t4(t, T);
    }
    double secs = now() - t0;
    bench_claim cl[NCLAIM];
    if (!rc) {
        fprintf(stderr, "lcpbench %s: transversal: runs took %.1f s\n", t->cmd, secs);
        claims(T, cl);
        rc |= write_t1(t, T) | write_t2(t, T) | write_t3(t, T) | write_t4(t, T) |
              write_t5(t, T) | write_t6(t, T);
        rc |= bench_claims_csv(t->cmd, t->out, t->force, cl, NCLAIM);
        rc |= figures(t, T);
        rc |= markdown(t, T, cl, secs);
    }
    for (int k = 0; k < NT1; k++) {
        if (T->t1[k].have) prob_modal_free(&T->t1[k].M);
        lcp_free(T->t1[k].lin.u);
    }
    lcp_free(T->lin7.u);
    for (int i = 0; i < F2N; i++) lcp_free(T->f2[i].y);
    for (int i = 0; i < 3; i++) lcp_free(T->c5[i].om);
    lcp_free(T->L.a);
    lcp_free(T);
    return rc ? 1 : 0;
}
