/* run.c: the measured-run loop of lcpbench (bench_grid_loop), shared by `lcpbench run',
 * `lcpbench solve', `lcpbench check' and the tables; and `lcpbench run SUITE --out DIR',
 * which writes with it
 *     DIR/runs.csv          one row per run (columns below and in results/README.md)
 *     DIR/history/I__L.csv  iteration,residual,residual_inf,time_s of each run
 *     DIR/provenance.json   what ran where
 *     DIR/plots/            convergence figures (plot.c)
 * Each run is measure.c's: a recording run with the harness's residual history, then a
 * warm-up and `reps' timing samples with the monitor off and the recorded iteration count.
 * runs.csv columns:
 *     instance,label,solver,rows, the settings (settings.c: tol,maxit,omega,...; empty when
 *     the solver does not use it or its default is the solver's), status,iterations,
 *     iter_to_tol,residual,residual_inf,rel_residual,zdiff,wdiff,time_s,time_min_s,
 *     time_max_s,time_batch,time_setup_s,work,omega_used,beta_used,gamma_used,shape,form_used,
 *     history
 * *_used is what the solver reports; iter_to_tol = first recorded sweep with ||r||_2 <= tol
 * (empty when never reached); residuals are lcp_residual at the final z; zdiff/wdiff need a
 * reference (zref.mtx or ref=SOLVER); time_s/min/max = median/min/max seconds per solve of
 * the timing samples, time_batch = solves per sample, time_setup_s = the solver's setup
 * (lcp_prepare), timed once apart from the solves.  Empty fields mean "no value"; NaN is
 * never printed.  Cost: the runs; the recording adds nothing to the reported times.
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

/* the status of a run that cannot start, or NULL */
static const char *cannot_start(const bench_settings *set, const lcp_problem *P)
{
    if (set->opt.warm && !P->z0) return "no-z0";
    if (set->opt.order == LCP_ORDER_PERM && set->perm_rows != P->m) return "bad-permutation";
    return NULL;
}

/* one run of spec sp on instance I: measure, history file, row; 1 when it failed */
static int one_run(const char *cmd, const bench_inst *I, const bench_spec *sp, lcp_problem *P,
                   double *z, const bench_sink *out)
{
    const bench_settings *set = &sp->set;
    bench_result r;
    bench_history h = {0};
    bench_row w = {.inst = I, .spec = sp, .P = P, .r = &r, .iter_to_tol = -1, .history = "",
                   .z = z};
    const char *no = cannot_start(set, P);
    int failed = 0;
    char hname[2 * BENCH_LABEL + 16], path[BENCH_PATH + 300], msg[8400];
    if (no) {
        memset(&r, 0, sizeof r);
        lcp_info_init(&r.info);
        r.res.r2 = r.res.rinf = r.res.rel = r.zdiff = r.wdiff = NAN;
        r.t_median = r.t_min = r.t_max = NAN;
        w.status = no;
        bench_error(cmd, "%s: %s: %s", I->name, set->label,
                    no[0] == 'n' ? "warm=1 needs z0.mtx" : "the permutation has the wrong length");
        failed = 1;
    } else if (sp->ext_cmd) {
        lcp_status st = bench_run_external(cmd, sp, I->path, P, z, &r, &h, &w.status);
        w.usable = st >= 0;
        failed = st < 0 && !r.timed_out;
    } else {
        lcp_status st = bench_run_limited(P, sp->solver, &set->opt, set->opt.warm ? P->z0 : NULL,
                                          set->reps, set->timeout, z, &r, &h);
        w.status = r.timed_out ? "timeout" : r.crashed ? "crashed" : lcp_status_str(st);
        w.usable = st >= 0;
        failed = st < 0 && !r.timed_out;
        if (failed && !out->quiet) {
            if (r.info.row >= 0)
                bench_error(cmd, "%s: %s: %s at row %d", I->name, set->label, w.status,
                            r.info.row);
            else bench_error(cmd, "%s: %s: %s", I->name, set->label, w.status);
        }
    }
    if (w.usable) {
        w.iter_to_tol = iter_to_tol(&h, set->opt.tol);
        if ((sp->solver->needs & LCP_DIRECT) && (r.status == LCP_OK || r.status == LCP_NONUNIQUE))
            w.iter_to_tol = r.iterations;
    }
    if (w.usable && out->histdir && h.n > 0) {
        bench_history_name(I->name, set->label, hname, sizeof hname);
        snprintf(path, sizeof path, "%s/%s", out->histdir, hname);
        if (bench_history_write(&h, path, out->force, msg, sizeof msg) == 0) w.history = hname;
        else {
            bench_error(cmd, "%s", msg);
            failed = 1;
        }
    }
    out->row(out->ctx, &w);
    if (out->after && out->after(out->ctx, &w, P)) failed = 1;
    bench_history_free(&h);
    return failed;
}

int bench_grid_loop(const char *cmd, const bench_suite *S, const bench_sink *out)
{
    int failed = 0;
    char msg[8400];
    long cell = 0, total = 0, n = out->shard_n > 0 ? out->shard_n : 1;
    long mine = out->shard_n > 0 ? out->shard_k - 1 : 0;
    for (long c = 0; c < bench_suite_runs(S); c++) total += c % n == mine;
    bench_progress prog;
    bench_progress_start(&prog, cmd, total);
    if (out->quiet) prog.tty = 0;
    for (int i = 0; i < S->ninst; i++) {
        const bench_inst *I = &S->inst[i];
        int runs = 0;
        long first = cell;
        for (int k = 0; k < S->nspec; k++)
            if (S->spec[k].block == I->block) runs += cell++ % n == mine;
        if (runs == 0) continue;          /* no cell of this instance is ours */
        lcp_problem P;
        lcp_problem_init(&P);
        lcp_read_options ro;
        lcp_read_options_default(&ro);
        ro.factor_tol = I->factor_tol;
        if (lcp_read_instance_opt(I->path, &ro, &P, msg, sizeof msg) != LCP_OK) {
            bench_error(cmd, "%s", msg);
            failed = 1;
            bench_progress_step(&prog, runs);
            continue;
        }
        give_ref(cmd, I, &P);
        double *z = malloc((size_t)(P.m > 0 ? P.m : 1) * sizeof(double));
        if (!z) {
            bench_error(cmd, "%s: out of memory", I->name);
            failed = 1;
        }
        for (int k = 0, c = (int)(first % n); z && k < S->nspec; k++) {
            if (S->spec[k].block != I->block || c++ % n != mine) continue;
            failed |= one_run(cmd, I, &S->spec[k], &P, z, out);
            bench_progress_step(&prog, 1);
        }
        free(z);
        lcp_problem_free(&P);
    }
    bench_progress_end(&prog);
    return failed;
}

/* ---- runs.csv ------------------------------------------------------------------------------ */

void bench_runs_head(FILE *f)
{
    int ns;
    const bench_setting *st = bench_settings_table(&ns);
    fprintf(f, "instance,label,solver,rows");
    for (int k = 0; k < ns; k++)
        if (st[k].kind != BENCH_TEXT) fprintf(f, ",%s", st[k].key);
    fprintf(f, ",status,iterations,iter_to_tol,residual,residual_inf,rel_residual,zdiff,wdiff,"
               "time_s,time_min_s,time_max_s,time_batch,time_setup_s,work,omega_used,beta_used,gamma_used,"
               "shape,form_used,history\n");
}

static void runs_row(void *ctx, const bench_row *w)
{
    FILE *f = ctx;
    const bench_result *r = w->r;
    const bench_spec *sp = w->spec;
    int ok = w->usable, ns;
    const bench_setting *st = bench_settings_table(&ns);
    bench_csv_field(f, w->inst->name);
    fputc(',', f);
    bench_csv_field(f, sp->set.label);
    fprintf(f, ",%s,%d", sp->solver->name, w->P->m);
    for (int k = 0; k < ns; k++) {
        if (st[k].kind == BENCH_TEXT) continue;
        char v[64] = "";
        if (bench_setting_uses(&st[k], sp->solver)) bench_setting_text(&sp->set, &st[k], v, sizeof v);
        fputc(',', f);
        bench_csv_field(f, v);
    }
    fprintf(f, ",%s,%d", w->status, ok ? r->iterations : 0);
    if (w->iter_to_tol >= 0) fprintf(f, ",%d", w->iter_to_tol);
    else fprintf(f, ",");
    num(f, ok ? r->res.r2 : NAN);
    num(f, ok ? r->res.rinf : NAN);
    num(f, ok ? r->res.rel : NAN);
    num(f, ok ? r->zdiff : NAN);
    num(f, ok ? r->wdiff : NAN);
    num(f, ok ? r->t_median : NAN);
    num(f, ok ? r->t_min : NAN);
    num(f, ok ? r->t_max : NAN);
    if (ok && r->batch > 0) fprintf(f, ",%ld", r->batch);
    else fprintf(f, ",");
    num(f, ok ? r->t_setup : NAN);
    fprintf(f, ",%.0f", ok && isfinite(r->info.work) ? r->info.work : 0.0);
    num(f, ok && r->info.omega > 0 ? r->info.omega : NAN);
    num(f, ok && r->info.shape ? r->info.beta : NAN);
    num(f, ok && r->info.shape ? r->info.gamma : NAN);
    fprintf(f, ",%s,%s,", r->info.shape == 'D' ? "D" : r->info.shape == 'I' ? "I" : "",
            ok ? lcp_form_name(r->info.form) : "");
    bench_csv_field(f, w->history);
    fputc('\n', f);
    fflush(f);
}

/* DIR/shard.csv: every cell of the grid with this folder's shard number */
static int shard_csv(const char *cmd, const bench_suite *S, const char *dir, int k, int n)
{
    char path[BENCH_PATH + 16];
    snprintf(path, sizeof path, "%s/shard.csv", dir);
    bench_out o;
    FILE *f = bench_open(cmd, &o, path, 1);
    if (!f) return 1;
    fprintf(f, "shard,of,cell,instance,label\n");
    long cell = 0;
    for (int i = 0; i < S->ninst; i++)
        for (int s = 0; s < S->nspec; s++) {
            if (S->spec[s].block != S->inst[i].block) continue;
            fprintf(f, "%d,%d,%ld,", k, n, cell++);
            bench_csv_field(f, S->inst[i].name);
            fputc(',', f);
            bench_csv_field(f, S->spec[s].set.label);
            fputc('\n', f);
        }
    return bench_close(cmd, &o);
}

int bench_grid_run(const char *cmd, const bench_suite *S, const char *dir, int force,
                   int quiet, int argc, char **argv)
{
    return bench_grid_run_shard(cmd, S, dir, force, quiet, 0, 0, argc, argv);
}

int bench_grid_run_shard(const char *cmd, const bench_suite *S, const char *dir, int force,
                         int quiet, int shard_k, int shard_n, int argc, char **argv)
{
    char hist[BENCH_PATH + 16], path[BENCH_PATH + 16], msg[8400];
    snprintf(hist, sizeof hist, "%s/history", dir);
    if (bench_mkdir_p(hist, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    if (bench_provenance_json(cmd, dir, argc, argv)) return 1;
    if (shard_n > 0 && shard_csv(cmd, S, dir, shard_k, shard_n)) return 1;
    bench_out out;
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    if (!bench_open(cmd, &out, path, force)) return 1;
    bench_runs_head(out.f);
    bench_sink sink = {.histdir = hist, .row = runs_row, .ctx = out.f, .force = force,
                       .quiet = quiet, .shard_k = shard_k, .shard_n = shard_n};
    int failed = bench_grid_loop(cmd, S, &sink);
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
    printf("usage: lcpbench run SUITE --out DIR [--force] [--no-plots] [--shard K/N]\n"
           "\n"
           "Run a grid of instances x solver settings: SUITE is a built-in name or a suite\n"
           "file.  Writes DIR/runs.csv (one row per run), DIR/history/INSTANCE__LABEL.csv\n"
           "(iteration,residual,residual_inf,time_s; sweep k at k x the timed seconds per\n"
           "sweep), DIR/instances/ (captured scenes), DIR/provenance.json and DIR/plots/\n"
           "(residual against iteration and time per instance, .gp + .png + .pdf).\n"
           "Refuses a non-empty DIR unless --force.  The folder is written as DIR.tmpPID\n"
           "and renamed into place when complete (--force replaces DIR whole then); SIGINT\n"
           "or SIGTERM leave the previous DIR as it was and no temporary file.\n"
           "--shard K/N runs the cells c (instance x solver line, counted from 0 in the\n"
           "grid's order) with c mod N = K-1 and writes DIR/shard.csv; `lcpbench merge'\n"
           "joins the N shard folders into the folder the whole run writes.\n"
           "\n"
           "built-in suites:\n");
    bench_list_suites(stdout);
    printf("\n");
    bench_suite_format_help(stdout);
    printf("\nruns.csv columns (results/README.md): ");
    bench_runs_head(stdout);
}

int bench_cmd_run(int argc, char **argv)
{
    const char *suite = NULL, *out = NULL;
    int force = 0, plots = 1, shard_k = 0, shard_n = 0;
    for (int k = 1; k < argc; k++) {
        const char *v;
        int r;
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            return 0;
        } else if (strcmp(argv[k], "--force") == 0) force = 1;
        else if (strcmp(argv[k], "--no-plots") == 0) plots = 0;
        else if ((r = bench_opt(argc, argv, &k, "--shard", &v)) != 0) {
            char *e1, *e2;
            long a = r > 0 ? strtol(v, &e1, 10) : 0, b = r > 0 && *e1 == '/' ? strtol(e1 + 1, &e2, 10) : 0;
            if (r < 0) return 2;
            if (*e1 != '/' || *e2 || b < 1 || b > 1000000 || a < 1 || a > b) {
                bench_error(CMD, "--shard: '%s' is not K/N with 1 <= K <= N", v);
                return 2;
            }
            shard_k = (int)a;
            shard_n = (int)b;
        }
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
    bench_stage stage;
    if (bench_stage_open(CMD, &stage, out, force)) return 1;
    char capdir[BENCH_PATH + 64];
    snprintf(capdir, sizeof capdir, "%s/instances", stage.work);
    bench_suite S;
    int rc = bench_suite_load(CMD, suite, capdir, 1, &S);
    if (rc) {
        bench_stage_commit(CMD, &stage, 0);
        return rc;
    }
    rc = bench_grid_run_shard(CMD, &S, stage.work, 1, 0, shard_k, shard_n, argc, argv);
    bench_suite_free(&S);
    if (plots && bench_plot_dir(CMD, stage.work, 0) != 0) rc = 1;
    if (bench_stage_commit(CMD, &stage, 1)) rc = 1;
    return rc;
}
