/* modal.c: `lcpbench modal SCENE --at T [--param k=v ...] [--stepper NAME] [--solver NAME]
 * [--modes]': the modal analysis of the geometric stiffness of a scene's distance joints
 * after T steps (problems/transversal.h; problems/README.md, "Transversal stability").
 *
 * Steps the scene T times with the chosen stepper (default vts with the scene's solver),
 * then analyses the state under the last step's multipliers (T = 0: the initial state under
 * the scene's warm start, its static tension).  Prints a commented header (sizes, omega_max
 * restricted / full space / Francu's E K, their spread, mu_pos_max, h_crit = 2/omega_max and
 * h omega_max, the time of the analysis) and the spectrum as CSV
 *     i,omega_i,h_omega_i,space
 * with the restricted eigenvalues ascending (omega_i < 0 marks a compressive mode: minus
 * sqrt(-omega_i^2)).  With --modes, the M-normalised mode shapes follow:
 *     mode,body,dx,dy[,dz]
 * Cost: the steps, then one dense modal analysis (O(n^3), n = dim bodies).
 */
#include "cmd.h"
#include "transversal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bench_cmd_fn bench_cmd_modal;

static void help(void)
{
    printf("usage: lcpbench modal SCENE --at T [--param key=value ...] [--stepper NAME]\n"
           "         [--solver NAME] [--iters K] [--modes]\n"
           "Step SCENE T times, then print the spectrum of its distance joints' geometric\n"
           "stiffness in the transversal space (omega_i^2 of (L^T -K~ L, L^T M L)) as CSV\n"
           "  i,omega_i,h_omega_i,space\n"
           "and in the header omega_max three ways (restricted, full space, E K) and\n"
           "h_crit = 2/omega_max (velocity stepping is stable iff h omega_max <= 2).\n"
           "  --at T          steps before the analysis (0: the initial state)\n"
           "  --stepper NAME  vts (default), ivts, pbd, xpbd, fp, gsd, gsd-l2, gsfull, shake\n"
           "  --solver NAME   the LCP solver of vts and gsd (default: the scene's pgs)\n"
           "  --iters K       its sweep cap (= --param iters=K)\n"
           "  --modes         also print the mode shapes: mode,body,dx,dy[,dz]\n"
           "  --param k=v     scene or stepper parameter (lcpbench simulate SCENE --help)\n"
           "Worlds with contacts or joints off the body centres are not supported.\n");
}

/* the analysis of W after `at' steps as text: the header lines, omega_i, the modes */
static void print_modal(const char *scene, const prob_stepper *st, const prob_world *W,
                        const prob_modal *R, long at, int modes, double secs)
{
    double h = W->h;
    printf("# scene %s, stepper %s, solver %s, after %ld steps (t = %.6g s), h = %.6g s\n",
           scene, st->name, W->solver->name, at, at * h, h);
    printf("# dofs %d (translational), joints %d, rank %d, transversal %d\n", R->n, R->m, R->rank,
           R->nt);
    printf("# omega_max: restricted %.10g, full space %.10g, E K %.10g rad/s (spread %.2g)\n",
           R->omega_restricted, R->omega_full, R->omega_ek, R->spread);
    printf("# h_crit = 2/omega_max = %.6g s, h omega_max = %.6g (%s), mu_pos_max = %.6g\n",
           R->h_crit, h * R->omega_restricted,
           h * R->omega_restricted <= 2.0 ? "stable" : "unstable: period-2 growth", R->mu_pos_max);
    printf("# modal analysis: %.3f ms\n", 1e3 * secs);
    printf("i,omega_i,h_omega_i,space\n");
    for (int i = 0; i < R->nt; i++) {
        double w2 = R->omega2[i], om = w2 >= 0.0 ? sqrt(w2) : -sqrt(-w2);
        printf("%d,%.10g,%.10g,restricted\n", i + 1, om, h * om);
    }
    if (modes) {
        printf("mode,body,dx,dy%s\n", W->dim == 3 ? ",dz" : "");
        for (int i = 0; i < R->nt; i++)
            for (int b = 0; b < W->nb; b++) {
                const double *p = R->modes + (size_t)R->n * (size_t)i + (size_t)W->dim * (size_t)b;
                printf("%d,%d,%.10g,%.10g", i + 1, b, p[0], p[1]);
                if (W->dim == 3) printf(",%.10g", p[2]);
                printf("\n");
            }
    }
}

typedef struct modal_args {
    const char *scene, *pv[2 * PROB_MAX_PARAMS]; /* --param and --iters in order */
    char iters_kv[64];
    int np;
    long at;
} modal_args;

static int param(const char *cmd, const char *v, void *to)
{
    modal_args *a = to;
    if (a->np == (int)(sizeof a->pv / sizeof a->pv[0])) {
        bench_error(cmd, "too many --param");
        return -1;
    }
    a->pv[a->np++] = v;
    return 0;
}

static int at_arg(const char *cmd, const char *v, void *to)
{
    return bench_parse_int(cmd, "--at", v, 0, 100000000, &((modal_args *)to)->at) != 0;
}

static int iters(const char *cmd, const char *v, void *to)
{
    modal_args *a = to;
    long it;
    if (bench_parse_int(cmd, "--iters", v, 1, 100000000, &it)) return -1;
    snprintf(a->iters_kv, sizeof a->iters_kv, "iters=%ld", it);
    if (a->np < (int)(sizeof a->pv / sizeof a->pv[0])) a->pv[a->np++] = a->iters_kv;
    return 0;
}

static int scene_word(const char *cmd, const char *w, void *to)
{
    modal_args *a = to;
    if (a->scene) {
        bench_error(cmd, "unexpected argument '%s' (one scene per run)", w);
        return -1;
    }
    a->scene = w;
    return 0;
}

int bench_cmd_modal(int argc, char **argv)
{
    const char *cmd = argv[0], *stepper = "vts", *solver = NULL;
    modal_args a = {.at = -1};
    int modes = 0;
    const bench_arg args[] = {
        {"--modes", BENCH_ARG_FLAG, &modes, NULL, "the modes too"},
        {"--param", BENCH_ARG_VALUE, &a, param, "scene parameter k=v"},
        {"--at", BENCH_ARG_VALUE, &a, at_arg, "the step"},
        {"--stepper", BENCH_ARG_VALUE, &stepper, NULL, "the stepper"},
        {"--solver", BENCH_ARG_VALUE, &solver, NULL, "the stepper's solver"},
        {"--iters", BENCH_ARG_VALUE, &a, iters, "sweeps per step"},
    };
    const bench_args ap = {cmd, args, BENCH_NARG(args), scene_word, &a, NULL, NULL, 1};
    int r = bench_args_parse(&ap, argc, argv);
    if (r == BENCH_ARGS_HELP) help();
    if (r) return r == BENCH_ARGS_HELP ? 0 : 2;
    const char *scene = a.scene, **pv = a.pv;
    const int np = a.np;
    const long at = a.at;
    if (!scene) {
        bench_error(cmd, "no scene given (lcpbench list scenes)");
        return 2;
    }
    if (at < 0) {
        bench_error(cmd, "--at T is required (0: the initial state)");
        return 2;
    }
    const prob_scene *sc = prob_scene_find(scene);
    if (!sc) {
        bench_error(cmd, "unknown scene '%s' (lcpbench list scenes)", scene);
        return 2;
    }
    const prob_stepper *st = prob_stepper_find(stepper);
    if (!st) {
        bench_error(cmd, "unknown stepper '%s' (vts, ivts, pbd, xpbd, fp, gsd, gsd-l2, "
                         "gsfull, shake)", stepper);
        return 2;
    }
    prob_params P;
    char msg[1024];
    prob_params_default(sc, &P);
    for (int k = 0; k < np; k++)
        if (prob_params_set(&P, pv[k], msg, sizeof msg) != LCP_OK) {
            bench_error(cmd, "%s: %s", scene, msg);
            return 2;
        }
    prob_world W;
    if (prob_world_create(&W, sc, &P, msg, sizeof msg) != LCP_OK) {
        bench_error(cmd, "%s: %s", scene, msg);
        return 2;
    }
    if (solver && prob_world_set_solver(&W, solver, W.opt.max_iter, W.opt.tol) != LCP_OK) {
        bench_error(cmd, "unknown solver '%s' (lcpbench list solvers)", solver);
        prob_world_free(&W);
        return 2;
    }
    if (prob_tv_check(&W, msg, sizeof msg) != LCP_OK) {
        bench_error(cmd, "%s: %s", scene, msg);
        prob_world_free(&W);
        return 2;
    }
    for (long t = 1; t <= at; t++) {
        prob_alt_info info;
        if (prob_step_alt(&W, st, NULL, &info, msg, sizeof msg) != LCP_OK) {
            bench_error(cmd, "%s: %s", scene, msg);
            prob_world_free(&W);
            return 1;
        }
    }
    prob_modal R;
    double t0 = bench_now();
    lcp_status s = prob_modal_compute(&W, NULL, PROB_MODAL_ALL | (modes ? PROB_MODAL_MODES : 0),
                                      &R, msg, sizeof msg);
    double t1 = bench_now();
    if (s != LCP_OK) {
        bench_error(cmd, "%s: %s", scene, msg);
        prob_world_free(&W);
        return 1;
    }
    print_modal(scene, st, &W, &R, at, modes, t1 - t0);
    prob_modal_free(&R);
    prob_world_free(&W);
    return 0;
}

/* ---- lcpbench simulate --stepper NAME (called from capture.c) ---------------------------- */

int bench_simulate_stepper(const char *cmd, prob_world *W, const char *stepper, int iters,
                           double beta, const char *rhs, int modal, long steps);

typedef struct sim_ctx {
    int modal;
} sim_ctx;

static lcp_status sim_row(void *vctx, const prob_world *W, const prob_jitter_row *r)
{
    const sim_ctx *c = vctx;
    printf("%d,%d,0,%d,%d,%.9g,0,%.9g,%.9g,%.9g,%.9g,%.9g", r->step, W->nb, W->nj,
           r->info->iterations, r->info->residual, r->ke, r->max_stretch, r->et, r->ec, r->enyq);
    if (c->modal) printf(",%.9g", r->omega_max);
    printf("\n");
    return LCP_OK;
}

/* Step W with the named stepper, one CSV line per step with the transversal columns
 * max_stretch, E_T, E_C, E_nyq (centred at the previous step) [, omega_max]; the summary
 * (outcome, Jstar, stretch) on stderr.  iters <= 0 keeps the stepper's default K. */
int bench_simulate_stepper(const char *cmd, prob_world *W, const char *stepper, int iters,
                           double beta, const char *rhs, int modal, long steps)
{
    const prob_stepper *s = prob_stepper_find(stepper);
    if (!s) {
        bench_error(cmd, "unknown stepper '%s' (vts, ivts, pbd, xpbd, fp, gsd, gsd-l2, gsfull, "
                         "shake)", stepper);
        return 2;
    }
    prob_stepper_opts o;
    prob_stepper_opts_default(&o);
    if (iters > 0 && !s->uses_solver) o.iters = iters;
    if (!isnan(beta)) o.beta = beta;
    if (rhs && strcmp(rhs, "spook") == 0) o.rhs = PROB_RHS_SPOOK;
    else if (rhs && strcmp(rhs, "francu") != 0) {
        bench_error(cmd, "--rhs: '%s' is not francu or spook", rhs);
        return 2;
    }
    char msg[1024];
    if (prob_tv_check(W, msg, sizeof msg) != LCP_OK) {
        bench_error(cmd, "stepper %s: unsupported: %s", stepper, msg);
        return 2;
    }
    prob_jitter_cfg cfg;
    prob_jitter_cfg_default(&cfg);
    cfg.steps = (int)steps;
    cfg.every_modal = modal;
    sim_ctx ctx = {modal};
    printf("step,bodies,contacts,rows,iterations,residual,max_penetration,kinetic_energy,"
           "max_stretch,E_T,E_C,E_nyq%s\n", modal ? ",omega_max" : "");
    prob_jitter_result R;
    lcp_status st = prob_jitter_run(W, s, &o, &cfg, sim_row, &ctx, &R, msg, sizeof msg);
    if (st != LCP_OK) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    fprintf(stderr, "# stepper %s: %s after %d steps, Jstar %.3g, max E_nyq/E_ref %.3g, "
            "max_stretch %.3g, rms_stretch %.3g%s%s%s\n", s->name, prob_outcome_name(R.outcome),
            R.steps_done, R.jstar, R.max_enyq, R.max_stretch, R.rms_stretch,
            R.outcome == PROB_EXPLODED ? " (exploded: " : "", R.fail,
            R.outcome == PROB_EXPLODED ? ")" : "");
    return R.outcome == PROB_EXPLODED ? 1 : 0;
}
