/* capture.c: `lcpbench capture' and `lcpbench simulate' (bench/README.md, "The command line",
 * problems/README.md): step a scene of problems/ in time and write the LCP instance of chosen
 * steps (before the solve, z0 = the stepper's warm start) as instance folders
 * DIR/NAME-stepT, or print one CSV line per step:
 *     step,bodies,contacts,rows,iterations,residual,max_penetration,kinetic_energy
 * (residual = ||r||_2 by lcp_residual at the stepper's answer; max_penetration over the
 * step's contacts before the solve; kinetic energy after the step).
 * Cost: the steps themselves plus one lcp_write_instance per captured step.
 */
#include "cmd.h"
#include "prob.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_AT = 256 };

typedef struct run_args {
    const char *cmd;
    const prob_scene *scene;
    prob_params params;
    const char *solver;  /* "pgs" */
    long iters;          /* --iters (the iters parameter) */
    double tol;          /* --tol (the tol parameter) */
    char iters_kv[64], tol_kv[64]; /* "iters=K", "tol=T" applied as --param */
    long steps;          /* simulate: steps; capture: capture 1..steps */
    int nat;
    long at[MAX_AT];     /* capture --at */
    long every;          /* simulate --capture-every */
    const char *out, *name;
    int force, timing;
    const char *stepper, *rhs; /* simulate --stepper NAME [--beta B] [--rhs R] [--modal] */
    double beta;
    int modal;
} run_args;

/* modal.c: simulate with a transversal-stability stepper (problems/README.md,
 * "Transversal stability") */
int bench_simulate_stepper(const char *cmd, prob_world *W, const char *stepper, int iters,
                           double beta, const char *rhs, int modal, long steps);

typedef struct capture_ctx {
    const run_args *a;
    int written;
    char msg[8192];
} capture_ctx;

static int wants(const run_args *a, long step)
{
    if (a->every > 0) return step % a->every == 0;
    if (a->nat == 0) return strcmp(a->cmd, "capture") == 0 && step <= a->steps;
    for (int k = 0; k < a->nat; k++)
        if (a->at[k] == step) return 1;
    return 0;
}

static void folder(const run_args *a, long step, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s-step%ld", a->out, a->name ? a->name : a->scene->name, step);
}

static lcp_status capture_hook(void *vctx, const prob_world *W, const lcp_problem *P,
                               int step)
{
    capture_ctx *c = vctx;
    if (!wants(c->a, step)) return LCP_OK;
    char dir[4096];
    folder(c->a, step, dir, sizeof dir);
    /* written whole beside dir (dir.tmpPID) and renamed into place: a failure, or a signal,
     * leaves the earlier folder as it was (kit.h, interrupted commands) */
    bench_stage sg;
    if (bench_stage_open(c->a->cmd, &sg, dir, c->a->force) != 0) {
        snprintf(c->msg, sizeof c->msg, "%s: cannot write", dir);
        return LCP_ERR_IO;
    }
    lcp_problem Q = *P;              /* the same arrays; meta.txt with the descriptors */
    Q.meta = prob_meta_descriptors(W, P);
    lcp_status st = Q.meta ? lcp_write_instance(sg.work, &Q, c->msg, sizeof c->msg)
                           : LCP_ERR_NOMEM;
    lcp_free(Q.meta);
    if (bench_stage_commit(c->a->cmd, &sg, st == LCP_OK) != 0 && st == LCP_OK) st = LCP_ERR_IO;
    if (st != LCP_OK) {
        if (st == LCP_ERR_NOMEM) /* the message names dir, not the temporary */
            snprintf(c->msg, sizeof c->msg, "%s: out of memory", dir);
        return st;
    }
    printf("%s\n", dir);
    bench_flush_stdout();
    c->written++;
    return LCP_OK;
}

/* the parameters of a scene with their defaults (after --help when a scene is named) */
static void scene_help(const prob_scene *sc)
{
    prob_params P;
    prob_params_default(sc, &P);
    printf("\nscene %s (%dD): %s\nsource: %s\nparameters (--param key=value):\n", sc->name,
           sc->dim, sc->description, sc->source);
    for (int k = 0; k < P.n; k++)
        printf("  %-8s %-12.6g %s\n", P.p[k].key, P.p[k].value, P.p[k].help);
}

static void help(const char *cmd)
{
    if (strcmp(cmd, "capture") == 0)
        printf("usage: lcpbench capture SCENE (--at T1,T2,... | --steps N) --out DIR\n"
               "         [--param key=value ...] [--name NAME] [--force]\n"
               "         [--solver NAME] [--iters K] [--tol T]\n"
               "Step SCENE and write the LCP of each chosen step (before its solve, z0 = the\n"
               "warm start) to DIR/NAME-stepT (NAME defaults to SCENE); prints each folder.\n"
               "  --at T1,...     steps to capture (steps count from 1); a step without\n"
               "                  constraints is an error\n"
               "  --steps N       capture every step 1..N that has constraints\n"
               "  --force         replace the instance files of existing non-empty folders\n");
    else
        printf("usage: lcpbench simulate SCENE --steps N [--param key=value ...]\n"
               "         [--solver NAME] [--iters K] [--tol T] [--timing]\n"
               "         [--capture-every K --out DIR [--name NAME] [--force]]\n"
               "Step SCENE N times; CSV on stdout, one line per step:\n"
               "  step,bodies,contacts,rows,iterations,residual,max_penetration,"
               "kinetic_energy\n"
               "  --timing        time per part of the step on stderr\n"
               "  --capture-every K  write the LCP of steps K, 2K, ... (those with constraints)\n"
               "  --stepper NAME  vts, ivts, pbd, xpbd, fp, gsd, gsd-l2, gsfull, shake (distance\n"
               "                  joints only): adds max_stretch,E_T,E_C,E_nyq[,omega_max];\n"
               "                  --iters K is then ivts/pbd/xpbd's sweeps; --beta B and\n"
               "                  --rhs francu|spook for ivts; --modal adds omega_max\n");
    printf("  --solver NAME   the stepper's solver (lcpbench list solvers; default pgs)\n"
           "  --iters K       sweep cap per step (= --param iters=K; default 100, stack 1000)\n"
           "  --tol T         stop at ||r||_2 <= T (= --param tol=T; default 1e-8; < 0: always\n"
           "                  K sweeps)\n"
           "  --param k=v     scene or stepper parameter (value may be a fraction: h=1/120);\n"
           "                  `lcpbench %s SCENE --help' lists a scene's parameters\n", cmd);
}

/* what the options gather before the scene is known */
typedef struct capture_parse {
    run_args *a;
    const char *scene, *pv[4 * PROB_MAX_PARAMS]; /* --param, --iters, --tol in order */
    int np, have_steps;
} capture_parse;

/* one more scene parameter: "too many options" when pv is full */
static int push(const char *cmd, capture_parse *c, const char *kv)
{
    if (c->np == (int)(sizeof c->pv / sizeof c->pv[0])) {
        bench_error(cmd, "too many options");
        return -1;
    }
    c->pv[c->np++] = kv;
    return 0;
}

static int param(const char *cmd, const char *v, void *to)
{
    return push(cmd, to, v);
}

static int beta(const char *cmd, const char *v, void *to)
{
    return bench_parse_double(cmd, "--beta", v, &((capture_parse *)to)->a->beta) != 0;
}

static int iters(const char *cmd, const char *v, void *to)
{
    run_args *a = ((capture_parse *)to)->a;
    if (bench_parse_int(cmd, "--iters", v, 1, 100000000, &a->iters)) return -1;
    snprintf(a->iters_kv, sizeof a->iters_kv, "iters=%ld", a->iters); /* as --param */
    return push(cmd, to, a->iters_kv);
}

static int tol(const char *cmd, const char *v, void *to)
{
    run_args *a = ((capture_parse *)to)->a;
    if (bench_parse_double(cmd, "--tol", v, &a->tol)) return -1;
    snprintf(a->tol_kv, sizeof a->tol_kv, "tol=%.17g", a->tol);
    return push(cmd, to, a->tol_kv);
}

static int steps(const char *cmd, const char *v, void *to)
{
    capture_parse *c = to;
    if (bench_parse_int(cmd, "--steps", v, 1, 100000000, &c->a->steps)) return -1;
    c->have_steps = 1;
    return 0;
}

static int name(const char *cmd, const char *v, void *to)
{
    if (!*v || strchr(v, '/')) {
        bench_error(cmd, "--name: '%s' must be a non-empty name without '/'", v);
        return -1;
    }
    *(const char **)to = v;
    return 0;
}

/* --at T1,T2,...: the steps to capture */
static int at(const char *cmd, const char *v, void *to)
{
    run_args *a = to;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (a->nat == MAX_AT) {
            bench_error(cmd, "--at: more than %d steps", MAX_AT);
            return -1;
        }
        if (bench_parse_int(cmd, "--at", t, 1, 100000000, &a->at[a->nat])) return -1;
        a->nat++;
    }
    if (a->nat == 0) {
        bench_error(cmd, "--at: no steps given");
        return -1;
    }
    return 0;
}

static int every(const char *cmd, const char *v, void *to)
{
    return bench_parse_int(cmd, "--capture-every", v, 1, 100000000, to) != 0;
}

static int scene_word(const char *cmd, const char *w, void *to)
{
    capture_parse *c = to;
    if (c->scene) {
        bench_error(cmd, "unexpected argument '%s' (one scene per run)", w);
        return -1;
    }
    c->scene = w;
    return 0;
}

/* the steps and the outputs asked for: 0, or 2 after one error line */
static int check_steps(const char *cmd, run_args *a, int have_steps)
{
    if (strcmp(cmd, "capture") == 0) {
        if (have_steps == (a->nat > 0)) {
            bench_error(cmd, "give either --at T1,T2,... or --steps N");
            return 2;
        }
        for (int k = 0; k < a->nat; k++) a->steps = a->at[k] > a->steps ? a->at[k] : a->steps;
        if (!a->out) {
            bench_error(cmd, "--out DIR is required");
            return 2;
        }
    } else {
        if (!have_steps) {
            bench_error(cmd, "--steps N is required");
            return 2;
        }
        if ((a->every > 0) != (a->out != NULL)) {
            bench_error(cmd, "--capture-every K and --out DIR go together");
            return 2;
        }
        if (a->stepper && a->every > 0) {
            bench_error(cmd, "--stepper does not capture (leave out --capture-every)");
            return 2;
        }
        if (!a->stepper && (a->modal || a->rhs || !isnan(a->beta))) {
            bench_error(cmd, "--modal, --rhs and --beta go with --stepper");
            return 2;
        }
    }
    return 0;
}

/* parse argv into a; 0 ok, 1 --help printed, 2 usage error (message printed) */
static int parse(int argc, char **argv, run_args *a)
{
    const char *cmd = argv[0];
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->solver = "pgs";
    a->beta = NAN;
    capture_parse c = {.a = a};
    const int sim = strcmp(cmd, "simulate") == 0;
    /* one letter per option: b both subcommands, s simulate only, c capture only */
    const char only[] = "bssssbbbbbbbbcs";
    const bench_arg all[] = {
        {"--force", BENCH_ARG_FLAG, &a->force, NULL, "replace existing instance files"},
        {"--timing", BENCH_ARG_FLAG, &a->timing, NULL, "time per part of the step"},
        {"--modal", BENCH_ARG_FLAG, &a->modal, NULL, "adds omega_max"},
        {"--stepper", BENCH_ARG_VALUE, &a->stepper, NULL, "a transversal-stability stepper"},
        {"--rhs", BENCH_ARG_VALUE, &a->rhs, NULL, "francu or spook"},
        {"--beta", BENCH_ARG_VALUE, &c, beta, "ivts's beta"},
        {"--param", BENCH_ARG_VALUE, &c, param, "scene or stepper parameter k=v"},
        {"--solver", BENCH_ARG_VALUE, &a->solver, NULL, "the stepper's solver"},
        {"--iters", BENCH_ARG_VALUE, &c, iters, "sweep cap per step"},
        {"--tol", BENCH_ARG_VALUE, &c, tol, "stop at ||r||_2 <= T"},
        {"--steps", BENCH_ARG_VALUE, &c, steps, "steps"},
        {"--out", BENCH_ARG_VALUE, &a->out, NULL, "the instance folders' parent"},
        {"--name", BENCH_ARG_VALUE, &a->name, name, "the instance folders' name"},
        {"--at", BENCH_ARG_VALUE, a, at, "steps to capture"},
        {"--capture-every", BENCH_ARG_VALUE, &a->every, every, "capture steps K, 2K, ..."},
    };
    _Static_assert(sizeof only - 1 == sizeof all / sizeof all[0], "one letter per option");
    bench_arg args[BENCH_NARG(all)];
    int n = 0;
    for (int e = 0; e < BENCH_NARG(all); e++)
        if (only[e] == 'b' || only[e] == (sim ? 's' : 'c')) args[n++] = all[e];
    const bench_args p = {cmd, args, n, scene_word, &c, NULL, NULL, 1};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) {
        help(cmd);
        if (c.scene && prob_scene_find(c.scene)) scene_help(prob_scene_find(c.scene));
        return 1;
    }
    if (r) return 2;
    const char *scene = c.scene, **pv = c.pv;
    const int np = c.np, have_steps = c.have_steps;
    if (!scene) {
        bench_error(cmd, "no scene given (lcpbench list scenes)");
        return 2;
    }
    a->scene = prob_scene_find(scene);
    if (!a->scene) {
        bench_error(cmd, "unknown scene '%s' (lcpbench list scenes)", scene);
        return 2;
    }
    prob_params_default(a->scene, &a->params);
    for (int k = 0; k < np; k++) {
        char msg[1024];
        if (prob_params_set(&a->params, pv[k], msg, sizeof msg) != LCP_OK) {
            bench_error(cmd, "%s: %s", scene, msg);
            return 2;
        }
    }
    if (!bench_solver_find(a->solver)) {
        bench_error(cmd, "unknown solver '%s' (lcpbench list solvers)", a->solver);
        return 2;
    }
    return check_steps(cmd, a, have_steps);
}

static int run(int argc, char **argv)
{
    run_args a;
    int pr = parse(argc, argv, &a);
    if (pr) return pr == 1 ? 0 : 2;
    const char *cmd = a.cmd;
    int capturing = a.out != NULL;
    if (capturing && !a.force)                         /* refuse before stepping at all */
        for (long t = 1; t <= a.steps; t++) {
            if (!wants(&a, t)) continue;
            char dir[4096];
            folder(&a, t, dir, sizeof dir);
            if (bench_dir_nonempty(dir)) {
                bench_error(cmd, "%s exists and is not empty (--force replaces it)", dir);
                return 1;
            }
        }
#ifdef __GLIBC__
    /* Each step allocates and frees its problem (at 10^4 spheres about 100 MB: J, Minv, A and
     * lcp_csr_jmjt's temporaries, the solver's workspace).  By default glibc hands large
     * blocks back to the kernel at every free, and the page faults of taking them again cost
     * about a fifth of the run; keep them in the process instead. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20); /* glibc's largest */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    char msg[1024];
    prob_world W;
    if (prob_world_create(&W, a.scene, &a.params, msg, sizeof msg) != LCP_OK) {
        bench_error(cmd, "%s: %s", a.scene->name, msg);
        return 2;
    }
    int rc = 0;
    if (prob_world_set_solver(&W, a.solver, W.opt.max_iter, W.opt.tol) != LCP_OK) {
        bench_error(cmd, "cannot use solver '%s'", a.solver);
        rc = 2;
    }
    if (rc == 0 && a.stepper) {
        rc = bench_simulate_stepper(cmd, &W, a.stepper, (int)a.iters, a.beta, a.rhs, a.modal,
                                    a.steps);
        prob_world_free(&W);
        return rc;
    }
    capture_ctx ctx = {&a, 0, ""};
    int simulate = strcmp(cmd, "simulate") == 0, empty = 0;
    if (simulate && rc == 0)
        printf("step,bodies,contacts,rows,iterations,residual,max_penetration,"
               "kinetic_energy\n");
    double tc = 0, tb = 0, tw = 0, ts = 0, tt = 0;
    bench_progress prog;
    bench_progress_start(&prog, a.scene->name, a.steps);
    clock_t cpu0 = clock();
    for (long t = 1; t <= a.steps && rc == 0; t++) {
        prob_step_info info;
        lcp_status st = prob_step(&W, capturing ? capture_hook : NULL, &ctx, &info, msg,
                                  sizeof msg);
        if (st != LCP_OK) {
            bench_error(cmd, "%s: %s%s%s", a.scene->name, msg, ctx.msg[0] ? ": " : "",
                        ctx.msg);
            rc = 1;
            break;
        }
        if (capturing && info.rows == 0 && a.nat > 0 && wants(&a, t)) {
            bench_error(cmd, "%s step %ld has no constraints: nothing to capture",
                        a.scene->name, t);          /* asked for by --at: an error */
            empty = 1;
        }
        tc += info.t_collide;
        tb += info.t_build;
        tw += info.t_capture;
        ts += info.t_solve;
        tt += info.t_total;
        if (simulate)
            printf("%d,%d,%d,%d,%d,%.9g,%.9g,%.9g\n", info.step, info.bodies, info.contacts,
                   info.rows, info.iterations, info.residual, info.max_penetration,
                   info.kinetic_energy);
        bench_progress_step(&prog, 1);
    }
    bench_progress_end(&prog);
    if (a.timing && rc == 0)
        fprintf(stderr,
                "# %s: %ld steps, %d bodies, solver %s: total %.3f s (%.3f ms/step, cpu "
                "%.3f s); collision %.3f s (%.1f%%), assembly %.3f s (%.1f%%), solve %.3f s "
                "(%.1f%%), capture %.3f s\n",
                a.scene->name, a.steps, W.nb, a.solver, tt, 1e3 * tt / (double)a.steps,
                (double)(clock() - cpu0) / CLOCKS_PER_SEC, tc, 100 * tc / tt, tb,
                100 * tb / tt, ts, 100 * ts / tt, tw);
    prob_world_free(&W);
    if (rc == 0 && empty) rc = 1;
    return rc;
}

int bench_cmd_capture(int argc, char **argv) { return run(argc, argv); }

int bench_cmd_simulate(int argc, char **argv) { return run(argc, argv); }
