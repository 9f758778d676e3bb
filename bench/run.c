/* run.c: `lcpbench run SUITE --out DIR': every instance x solver setting of a suite
 * (suite.c), each a measured run (measure.c: a recording run with the harness's residual
 * history, then a warm-up and `reps' timing runs with the monitor off and the recorded
 * iteration count), written as
 *     DIR/runs.csv          one row per run (columns below and in results/README.md)
 *     DIR/history/I__S.csv  iteration,residual,residual_inf,time_s of each run
 *     DIR/plots/            convergence figures (plot.c)
 * runs.csv columns:
 *     instance,label,solver,rows,tol,maxit,omega,beta,gamma,order,seed,form,warm,every,reps,
 *     plot,status,iterations,iter_to_tol,residual,residual_inf,rel_residual,zdiff,wdiff,time_s,
 *     time_min_s,work,omega_used,beta_used,gamma_used,shape,form_used,history
 * tol..reps are the settings asked for (omega/beta/gamma empty = the solver's default),
 * *_used what the solver reports; iter_to_tol = first recorded iteration with
 * ||r||_2 <= tol (empty when never reached); residuals are lcp_residual at the final z;
 * zdiff/wdiff need a reference (zref.mtx or ref=SOLVER); time_s/time_min_s = median/min of
 * the timing runs.  Empty fields mean "no value"; NaN is never printed.
 * Cost: the runs; the recording adds nothing to the reported times.
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *CMD = "run";

static void num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.6e", v);
    else fprintf(f, ",");
}

static int iter_to_tol(const bench_history *h, double tol)
{
    for (int k = 0; k < h->n; k++)
        if (h->r2[k] <= tol) return h->iter[k];
    return -1;
}

/* reference answer for zdiff/wdiff when the instance has no zref.mtx */
static void give_ref(const char *cmd, const bench_inst *I, lcp_problem *P)
{
    if (P->zref || !I->ref) return;
    const lcp_solver *s = lcp_solver_find(I->ref);
    double *z = calloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
    lcp_options o;
    lcp_options_default(&o);
    lcp_info info;
    lcp_status st = s && z ? lcp_solve(s, P, &o, z, &info) : LCP_ERR_NOMEM;
    if (st == LCP_OK || st == LCP_NONUNIQUE) {
        P->zref = z;
        return;
    }
    bench_error(cmd, "%s: reference %s: %s (no zdiff/wdiff)", I->name, I->ref,
                lcp_status_str(st));
    free(z);
}

int bench_grid_run(const char *cmd, const bench_suite *S, const char *dir, int force,
                   int quiet, int argc, char **argv)
{
    char path[BENCH_PATH + 256], msg[8400];
    snprintf(path, sizeof path, "%s/history", dir);
    if (bench_mkdir_p(path, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    bench_out out;
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    if (!bench_open(cmd, &out, path, force)) return 1;
    FILE *f = out.f;
    bench_provenance(f, argc, argv);
    fprintf(f, "# suite: %s\n", S->name);
    fprintf(f, "instance,label,solver,rows,tol,maxit,omega,beta,gamma,order,seed,form,warm,"
               "every,reps,plot,status,iterations,iter_to_tol,residual,residual_inf,rel_residual,"
               "zdiff,wdiff,time_s,time_min_s,work,omega_used,beta_used,gamma_used,shape,"
               "form_used,history\n");
    int failed = 0;
    bench_progress prog;
    bench_progress_start(&prog, cmd, bench_suite_runs(S));
    if (quiet) prog.tty = 0;
    for (int i = 0; i < S->ninst; i++) {
        const bench_inst *I = &S->inst[i];
        lcp_problem P;
        lcp_problem_init(&P);
        if (lcp_read_instance(I->path, &P, msg, sizeof msg) != LCP_OK) {
            bench_error(cmd, "%s", msg);
            failed = 1;
            continue;
        }
        give_ref(cmd, I, &P);
        double *z = malloc((size_t)(P.m > 0 ? P.m : 1) * sizeof(double));
        for (int k = 0; z && k < S->nspec; k++) {
            const bench_spec *sp = &S->spec[k];
            if (sp->block != I->block) continue;
            bench_result r;
            bench_history h = {0};
            lcp_status st;
            const char *stname;
            if (sp->opt.warm && !P.z0) {
                bench_error(cmd, "%s: %s: warm=1 needs z0.mtx", I->name, sp->label);
                memset(&r, 0, sizeof r);
                lcp_info_init(&r.info);
                r.res.r2 = r.res.rinf = r.res.rel = r.zdiff = r.wdiff = NAN;
                r.t_median = r.t_min = NAN;
                st = LCP_ERR_ARG;
                stname = "no-z0";
            } else {
                st = bench_run_solver(&P, sp->solver, &sp->opt, sp->opt.warm ? P.z0 : NULL,
                                      sp->reps, z, &r, &h);
                stname = lcp_status_str(st);
                if (st < 0 && !quiet) {
                    if (r.info.row >= 0)
                        bench_error(cmd, "%s: %s: %s at row %d", I->name, sp->label, stname,
                                    r.info.row);
                    else
                        bench_error(cmd, "%s: %s: %s", I->name, sp->label, stname);
                }
            }
            if (st < 0) failed = 1;
            char hname[2 * BENCH_LABEL + 8], si[BENCH_LABEL], sl[BENCH_LABEL];
            bench_safe_name(I->name, si, sizeof si);
            bench_safe_name(sp->label, sl, sizeof sl);
            snprintf(hname, sizeof hname, "%s__%s.csv", si, sl);
            int hist_ok = 0;
            if (st >= 0 && h.n > 0) {
                snprintf(path, sizeof path, "%s/history/%s", dir, hname);
                if (bench_history_write(&h, path, force, msg, sizeof msg) == 0) hist_ok = 1;
                else {
                    bench_error(cmd, "%s", msg);
                    failed = 1;
                }
            }
            int itt = st >= 0 ? iter_to_tol(&h, sp->opt.tol) : -1;
            if (st >= 0 && (sp->solver->needs & LCP_DIRECT) && (st == LCP_OK ||
                                                                st == LCP_NONUNIQUE))
                itt = r.iterations;
            fprintf(f, "%s,%s,%s,%d", I->name, sp->label, sp->solver->name, P.m);
            fprintf(f, ",%.6g,%d,%s", sp->opt.tol, sp->opt.max_iter, sp->omega_text);
            if (sp->beta_given) fprintf(f, ",%.17g", sp->opt.beta);
            else fprintf(f, ",");
            if (sp->gamma_given) fprintf(f, ",%.17g", sp->opt.gamma);
            else fprintf(f, ",");
            fprintf(f, ",%s,%llu,%s,%d,%d,%d,%d,%s,%d", lcp_order_name(sp->opt.order),
                    (unsigned long long)sp->opt.seed, lcp_form_name(sp->opt.form),
                    sp->opt.warm, sp->opt.check_every, sp->reps, sp->plot, stname,
                    st >= 0 ? r.iterations : 0);
            if (itt >= 0) fprintf(f, ",%d", itt);
            else fprintf(f, ",");
            num(f, st >= 0 ? r.res.r2 : NAN);
            num(f, st >= 0 ? r.res.rinf : NAN);
            num(f, st >= 0 ? r.res.rel : NAN);
            num(f, st >= 0 ? r.zdiff : NAN);
            num(f, st >= 0 ? r.wdiff : NAN);
            num(f, st >= 0 ? r.t_median : NAN);
            num(f, st >= 0 ? r.t_min : NAN);
            fprintf(f, ",%.0f", st >= 0 && isfinite(r.info.work) ? r.info.work : 0.0);
            num(f, st >= 0 && r.info.omega > 0 ? r.info.omega : NAN);
            num(f, st >= 0 && r.info.shape ? r.info.beta : NAN);
            num(f, st >= 0 && r.info.shape ? r.info.gamma : NAN);
            fprintf(f, ",%s,%s,%s\n",
                    r.info.shape == 'D' ? "D" : r.info.shape == 'I' ? "I" : "",
                    st >= 0 ? lcp_form_name(r.info.form) : "", hist_ok ? hname : "");
            fflush(f);
            bench_history_free(&h);
            bench_progress_step(&prog, 1);
        }
        if (!z) {
            bench_error(cmd, "%s: out of memory", I->name);
            failed = 1;
        }
        free(z);
        lcp_problem_free(&P);
    }
    bench_progress_end(&prog);
    if (bench_close(cmd, &out)) return 1;
    return failed;
}

int bench_run_text(const char *cmd, const char *text, const char *name, const char *dir,
                   int force, int argc, char **argv)
{
    char capdir[BENCH_PATH + 32];
    snprintf(capdir, sizeof capdir, "%s/instances", dir);
    bench_suite S;
    int rc = bench_suite_parse(cmd, text, name, ".", capdir, force, &S);
    if (rc) return rc;
    rc = bench_grid_run(cmd, &S, dir, force, 0, argc, argv);
    bench_suite_free(&S);
    if (bench_plot_dir(cmd, dir, 1) != 0) rc = 1;
    return rc;
}

static void help(void)
{
    printf("usage: lcpbench run SUITE --out DIR [--force] [--no-plots]\n"
           "\n"
           "Run a grid of instances x solver settings: SUITE is a built-in name or a suite\n"
           "file.  Writes DIR/runs.csv (one row per run), DIR/history/INSTANCE__LABEL.csv\n"
           "(iteration,residual,residual_inf,time_s), DIR/instances/ (captured scenes) and\n"
           "DIR/plots/ (residual against iteration and time per instance, .gp + .png + .pdf).\n"
           "Refuses a non-empty DIR unless --force.\n"
           "\n"
           "built-in suites:\n");
    bench_list_suites(stdout);
    printf("\n");
    bench_suite_format_help(stdout);
    printf("\nruns.csv columns: instance,label,solver,rows,tol,maxit,omega,beta,gamma,order,\n"
           "  seed,form,warm,every,reps,plot,status,iterations,iter_to_tol,residual,residual_inf,\n"
           "  rel_residual,zdiff,wdiff,time_s,time_min_s,work,omega_used,beta_used,\n"
           "  gamma_used,shape,form_used,history   (results/README.md)\n");
}

int bench_cmd_run(int argc, char **argv)
{
    const char *suite = NULL, *out = NULL;
    int force = 0, plots = 1;
    for (int k = 1; k < argc; k++) {
        const char *v;
        int r;
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            return 0;
        } else if (strcmp(argv[k], "--force") == 0) force = 1;
        else if (strcmp(argv[k], "--no-plots") == 0) plots = 0;
        else if ((r = bench_opt(argc, argv, &k, "--out", &v)) != 0) {
            if (r < 0) return 2;
            out = v;
        } else if (argv[k][0] == '-' && argv[k][1]) {
            bench_error(CMD, "unknown option '%s' (lcpbench run --help)", argv[k]);
            return 2;
        } else if (suite) {
            bench_error(CMD, "one suite at a time ('%s' and '%s')", suite, argv[k]);
            return 2;
        } else suite = argv[k];
    }
    if (!suite) {
        bench_error(CMD, "no suite given (lcpbench run --help)");
        return 2;
    }
    if (!out) {
        bench_error(CMD, "--out DIR is required");
        return 2;
    }
    if (!bench_suite_builtin(suite) && !strchr(suite, '/') && !strchr(suite, '.')) {
        FILE *t = fopen(suite, "r");
        if (!t) {
            bench_error(CMD, "unknown suite '%s' (built-in: smoke, amgs, friction; or a file)",
                        suite);
            return 2;
        }
        fclose(t);
    }
    if (bench_out_dir(CMD, out, force)) return 1;
    char capdir[BENCH_PATH + 32];
    snprintf(capdir, sizeof capdir, "%s/instances", out);
    bench_suite S;
    int rc = bench_suite_load(CMD, suite, capdir, force, &S);
    if (rc) return rc;
    rc = bench_grid_run(CMD, &S, out, force, 0, argc, argv);
    bench_suite_free(&S);
    if (plots && bench_plot_dir(CMD, out, 0) != 0) rc = 1;
    return rc;
}
