/* solve.c: `lcpbench solve INSTANCE... --solver NAME[,NAME...] [settings]'.
 *
 * A grid of its instances x solvers run by the harness's one loop (run.c), with a row
 * writer that prints one CSV line per run on stdout (bench/README.md, "The command line"):
 *   instance,solver,status,iterations,residual,residual_inf,time_s,time_min_s,time_max_s,
 *   time_batch,time_setup_s,rel_residual,zdiff,wdiff,work,form,order,omega,beta,gamma,shape,
 *   peer_status
 * residual = ||r||_2 computed here from (A, q, z); status = the suite's verdict on a peer's
 * answer (converged iff residual <= the tol asked), its own status in peer_status (run.c);
 * time_s = median of the --reps timing samples, time_min_s/time_max_s their spread.  Fields
 * that have no value are empty, never NaN; the instance name is quoted per RFC 4180 when
 * needed.  Instances are named by their folder, or by their path relative to the common
 * parent when two folders share a name.  The settings flags come from the settings table
 * (settings.c); each solver gets those it uses, and a flag that no chosen solver uses is
 * refused.  Exit: 0 every run gave an answer or timed out, 1 a run failed or an instance
 * was bad, 2 usage.
 */
#include "cmd.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *CMD = "solve";

static void help(void)
{
    printf("usage: lcpbench solve INSTANCE... --solver NAME[,NAME...] [options]\n"
           "\n"
           "Solve instance folders (lcp/README.md, \"Instance folders\") and print one CSV\n"
           "line per run:\n"
           "  instance,solver,status,iterations,residual,residual_inf,time_s,time_min_s,\n"
           "  time_max_s,time_batch,time_setup_s,rel_residual,zdiff,wdiff,work,form,order,\n"
           "  omega,beta,gamma,shape,peer_status\n"
           "residuals are computed by lcpbench from (A, q, z); a peer's status is lcpbench's\n"
           "verdict (converged iff residual <= --tol, default 1e-6), its own in peer_status;\n"
           "time_s is the median seconds\n"
           "per solve of --reps timing samples (monitor off, fixed iteration count; a sample\n"
           "repeats the solve time_batch times so that it lasts at least 1 ms), min and max\n"
           "beside it; time_setup_s is the solver's setup (once per problem), timed apart;\n"
           "zdiff/wdiff need zref.mtx.\n"
           "\n"
           "options:\n"
           "  --solver NAME[,NAME]  solvers (lcpbench list solvers)\n"
           "  --history DIR         write DIR/INSTANCE__SOLVER.csv: iteration,residual,\n"
           "                        residual_inf,time_s (sweep k at k x the timed seconds\n"
           "                        per sweep), DIR/provenance.json and DIR/runs.csv (the\n"
           "                        rows of lcpbench run, joined to those of an earlier\n"
           "                        solve into DIR), so `lcpbench plot DIR' draws it\n"
           "  --solution DIR        write DIR/INSTANCE__SOLVER.mtx (z, Matrix Market)\n"
           "  --store-ref           store a direct solver's z as INSTANCE/zref.mtx\n"
           "  --provenance FILE     write what ran where (version, compiler, CPU, ...) as JSON\n"
           "  --factor-tol T|off    relative tolerance of A = J Minv J^T + diag(E) when the\n"
           "                        folder has J and Minv (default 1e-12; off: no test)\n"
           "  --lean                read only what the solvers' form needs: without A when\n"
           "                        every solver runs matrix-free on J, Minv, E (A.mtx is\n"
           "                        then not read nor compared with the factors, residuals\n"
           "                        come from the factors), without J, Minv, E when every\n"
           "                        one asks for --form assembled\n"
           "  --force               replace existing output files\n"
           "settings (lcpbench list settings; numbers may be fractions a/b; each solver gets\n"
           "the settings it uses; one that no chosen solver uses is refused):\n");
    bench_settings_help(stdout, 1);
}

static int read_perm(const char *file, int **perm, int *count)
{
    const char *why;
    FILE *f = bench_fopen_read(file, &why);
    if (!f) {
        bench_error(CMD, "%s: cannot read permutation: %s", file, why);
        return -1;
    }
    int cap = 64, n = 0, *p = lcp_malloc((size_t)cap, sizeof(int));
    long v;
    int rc = 0;
    while (p && fscanf(f, "%ld", &v) == 1) {
        if (v < 0 || v > 2147483647L) {
            bench_error(CMD, "%s: entry %d: %ld is not a 0-based row", file, n + 1, v);
            rc = -1;
            break;
        }
        if (n == cap) {
            int *q = lcp_realloc(p, (size_t)(cap *= 2), sizeof(int));
            if (!q) {
                bench_error(CMD, "%s: out of memory", file);
                rc = -1;
                break;
            }
            p = q;
        }
        p[n++] = (int)v;
    }
    if (rc == 0 && !feof(f)) {
        bench_error(CMD, "%s: entry %d is not an integer", file, n + 1);
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && !p) {
        bench_error(CMD, "%s: out of memory", file);
        rc = -1;
    }
    if (rc != 0 || !p) {
        lcp_free(p);
        return -1;
    }
    *perm = p;
    *count = n;
    return 0;
}

typedef struct solve_args {
    const char *solvers, *history, *solution, *provenance;
    int force, store_ref, ninst, lean;
    FILE *runs;          /* --history DIR: its runs.csv (staged), the rows of `run' */
    bench_out runs_out;
    double factor_tol;   /* --factor-tol (1e-12; -1 = off) */
    char **inst;
    int *perm;
    bench_settings set;
} solve_args;

/* one settings flag at argv[*k]: 1 taken, 0 not a settings flag, -1 error printed */
static int setting_flag(void *to, int argc, char **argv, int *k)
{
    solve_args *a = to;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(argv[*k], "="), argv[*k]);
    const bench_setting *t = bench_setting_find(name);
    if (!t || !t->flag || strcmp(t->flag, name)) return 0;
    const char *v = strchr(argv[*k], '=') ? strchr(argv[*k], '=') + 1 : "1";
    char msg[512];
    if (t->kind != BENCH_BOOL && bench_opt(argc, argv, k, t->flag, &v) < 0) return -1;
    if (!strcmp(t->key, "order") && !strncmp(v, "perm:", 5)) {
        if (a->perm) lcp_free(a->perm);
        a->perm = NULL;
        if (read_perm(v + 5, &a->perm, &a->set.perm_rows) != 0) return -1;
        a->set.opt.order = LCP_ORDER_PERM;
        a->set.opt.perm = a->perm;
        a->set.given |= 1ull << (t - bench_settings_table(NULL));
        return 1;
    }
    if (bench_setting_set(&a->set, t, v, msg, sizeof msg) != 0) {
        bench_error(CMD, "%s: %s", t->flag, msg);
        return -1;
    }
    return 1;
}

static int inst_word(const char *cmd, const char *w, void *to)
{
    (void)cmd;
    solve_args *a = to;
    a->inst[a->ninst++] = (char *)w; /* a word of argv */
    return 0;
}

static int parse(int argc, char **argv, solve_args *a)
{
    bench_settings_default(&a->set);
    a->factor_tol = 1e-12;
    a->inst = lcp_malloc((size_t)argc, sizeof(char *));
    if (!a->inst) {
        bench_error(CMD, "out of memory");
        return 2;
    }
    const bench_arg args[] = {
        {"--force", BENCH_ARG_FLAG, &a->force, NULL, "replace existing outputs"},
        {"--store-ref", BENCH_ARG_FLAG, &a->store_ref, NULL, "store a direct solver's z"},
        {"--lean", BENCH_ARG_FLAG, &a->lean, NULL, "read only what the form needs"},
        {"--solver", BENCH_ARG_VALUE, &a->solvers, NULL, "NAME[,NAME...]"},
        {"--history", BENCH_ARG_VALUE, &a->history, NULL, "write the histories to DIR"},
        {"--solution", BENCH_ARG_VALUE, &a->solution, NULL, "write z to DIR"},
        {"--provenance", BENCH_ARG_VALUE, &a->provenance, NULL, "write provenance to FILE"},
        {"--factor-tol", BENCH_ARG_VALUE, &a->factor_tol, bench_arg_factor_tol,
         "the reader's factor test"},
    };
    const bench_args p = {CMD, args, BENCH_NARG(args), inst_word, a, setting_flag, a, 0};
    int r = bench_args_parse(&p, argc, argv);
    if (r == BENCH_ARGS_HELP) help();
    if (r) return r;
    if (!a->solvers) {
        bench_error(CMD, "--solver NAME is required (lcpbench list solvers)");
        return 2;
    }
    if (a->ninst == 0) {
        bench_error(CMD, "no instance folder given (lcpbench solve --help)");
        return 2;
    }
    return 0;
}

/* One spec per solver of "a,b,c", each with the settings it uses; an unknown name, or a
 * setting that no chosen solver uses: -1 (one line naming the solver and the setting). */
static int add_solvers(const solve_args *a, bench_suite *S)
{
    char *copy = lcp_strdup(a->solvers);
    int n = 1;
    for (const char *c = a->solvers; *c; c++) n += *c == ',';
    S->spec = lcp_calloc((size_t)n, sizeof *S->spec);
    int rc = copy && S->spec ? 0 : -1;
    if (rc) bench_error(CMD, "out of memory");
    uint64_t used = 0;
    for (char *save = NULL, *tok = rc == 0 ? strtok_r(copy, ",", &save) : NULL; rc == 0 && tok;
         tok = strtok_r(NULL, ",", &save)) {
        const lcp_solver *s = bench_solver_find(tok);
        if (!s) {
            bench_error(CMD, "--solver: unknown solver '%s' (lcpbench list solvers)", tok);
            rc = -1;
            break;
        }
        bench_spec *sp = &S->spec[S->nspec++];
        sp->solver = s;
        sp->set = a->set;
        bench_settings_drop_unused(&sp->set, s);
        used |= sp->set.given;
        snprintf(sp->set.label, sizeof sp->set.label, "%s", s->name);
    }
    lcp_free(copy);
    if (rc == 0 && S->nspec == 0) {
        bench_error(CMD, "--solver: empty list");
        rc = -1;
    }
    int ns;
    const bench_setting *t = bench_settings_table(&ns);
    char names[1024] = "";
    for (int k = 0; rc == 0 && k < S->nspec; k++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                 S->spec[k].solver->name);
    for (int k = 0; rc == 0 && k < ns; k++)
        if ((a->set.given >> k & 1u) && !(used >> k & 1u)) {
            bench_error(CMD, "%s %s not use %s (lcpbench list settings)", names,
                        S->nspec == 1 ? "does" : "do", t[k].flag);
            rc = -1;
        }
    return rc;
}

static int add_instances(const solve_args *a, bench_suite *S)
{
    S->inst = lcp_calloc((size_t)a->ninst, sizeof *S->inst);
    char *names = lcp_calloc((size_t)a->ninst, sizeof S->inst->name);
    int rc = S->inst && names ? 0 : -1;
    if (rc) bench_error(CMD, "out of memory");
    if (rc == 0 && bench_instance_names(a->ninst, a->inst, names, sizeof S->inst->name) != 0) {
        bench_error(CMD, "an instance path is too long");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < a->ninst; i++) {
        bench_inst *I = &S->inst[S->ninst++];
        I->factor_tol = a->factor_tol;
        snprintf(I->name, sizeof I->name, "%s", names + i * sizeof I->name);
        if (snprintf(I->path, sizeof I->path, "%s", a->inst[i]) >= (int)sizeof I->path) {
            bench_error(CMD, "%s: path too long", a->inst[i]);
            rc = -1;
        }
        for (int j = 0; rc == 0 && j < i; j++)
            if (!strcmp(S->inst[j].name, I->name)) {
                bench_error(CMD, "%s is given twice", a->inst[i]);
                rc = -1;
            }
    }
    lcp_free(names);
    return rc;
}

static void csv_num(double v)
{
    if (isfinite(v)) printf(",%.6e", v);
    else printf(",");
}

static void solve_row(void *ctx, const bench_row *w)
{
    const solve_args *a = ctx;
    const bench_result *r = w->r;
    if (a->runs) bench_runs_row(a->runs, w);
    int ok = w->usable;
    bench_csv_field(stdout, w->inst->name);
    printf(",%s,%s,%d", w->spec->solver->name, w->status, r->iterations);
    csv_num(ok ? r->res.r2 : NAN);
    csv_num(ok ? r->res.rinf : NAN);
    csv_num(ok ? r->t_median : NAN);
    csv_num(ok ? r->t_min : NAN);
    csv_num(ok ? r->t_max : NAN);
    if (ok && r->batch > 0) printf(",%ld", r->batch);
    else printf(",");
    csv_num(ok ? r->t_setup : NAN);
    csv_num(ok ? r->res.rel : NAN);
    csv_num(ok ? r->zdiff : NAN);
    csv_num(ok ? r->wdiff : NAN);
    const bench_setting *order = bench_setting_find("order");
    printf(",%.0f,%s,%s", r->info.work, ok ? lcp_form_name(r->info.form) : "",
           bench_setting_uses(order, w->spec->solver) ? lcp_order_name(w->spec->set.opt.order)
                                                      : "");
    csv_num(ok && r->info.omega > 0 ? r->info.omega : NAN);
    csv_num(ok && r->info.shape ? r->info.beta : NAN);
    csv_num(ok && r->info.shape ? r->info.gamma : NAN);
    printf(",%s,", r->info.shape == 'D' ? "D" : r->info.shape == 'I' ? "I" : "");
    bench_csv_field(stdout, w->peer_status ? w->peer_status : "");
    putchar('\n');
    bench_flush_stdout();
}

/* write z to PATH unless it exists (without --force); 0 or 1 (error printed) */
static int write_z(const char *opt, const char *path, int force, const lcp_problem *P,
                   const double *z)
{
    char msg[4400];
    if (!force && access(path, F_OK) == 0) {
        bench_error(CMD, "%s: %s exists (use --force to replace it)", opt, path);
        return 1;
    }
    lcp_status st = lcp_write_vector(path, P->m, z, msg, sizeof msg);
    if (st != LCP_OK) {
        if (st == LCP_ERR_IO) bench_write_failed();
        bench_error(CMD, "%s: %s", opt, msg);
        return 1;
    }
    return 0;
}

/* --solution and --store-ref */
static int solve_after(void *ctx, const bench_row *w, lcp_problem *P)
{
    const solve_args *a = ctx;
    char path[BENCH_PATH + 300];
    int failed = 0;
    if (!w->usable) return 0;
    if (a->solution) {
        bench_history_name(w->inst->name, w->spec->set.label, path, sizeof path);
        char full[2 * BENCH_PATH + 300];
        snprintf(full, sizeof full, "%s/%.*s.mtx", a->solution, (int)strlen(path) - 4, path);
        failed |= write_z("--solution", full, a->force, P, w->z);
    }
    lcp_status st = w->r->status;
    if (a->store_ref && (w->spec->solver->needs & LCP_DIRECT) &&
        (st == LCP_OK || st == LCP_NONUNIQUE)) {
        snprintf(path, sizeof path, "%s/zref.mtx", w->inst->path);
        if (write_z("--store-ref", path, a->force, P, w->z)) return 1;
        double *zr = lcp_malloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
        if (zr) {
            memcpy(zr, w->z, (size_t)P->m * sizeof(double));
            lcp_free(P->zref);
            P->zref = zr;   /* later solvers report their distance to it */
        }
    }
    return failed;
}

/* --history and --solution folders: written into DIR.tmpPID, moved into DIR when the solves
 * are done (an interrupted solve leaves DIR as it was; kit.h, interrupted commands);
 * --history DIR also gets runs.csv, the rows `run' writes, so that `lcpbench plot DIR'
 * draws it (its history column names DIR/INSTANCE__SOLVER.csv) */
static int outputs_ready(solve_args *a, bench_stage *stage, int argc, char **argv)
{
    const char **dir[2] = {&a->history, &a->solution};
    for (int k = 0; k < 2; k++) {
        if (!*dir[k]) continue;
        if (bench_stage_open(CMD, &stage[k], *dir[k], 1)) return -1;
        *dir[k] = stage[k].work;
        if (bench_provenance_json(CMD, *dir[k], argc, argv)) return -1;
    }
    if (a->history) {
        char path[BENCH_PATH + 64];
        snprintf(path, sizeof path, "%s/runs.csv", a->history);
        if (!(a->runs = bench_open(CMD, &a->runs_out, path, 1))) return -1;
        bench_runs_head(a->runs);
    }
    if (a->provenance && bench_provenance_file(CMD, a->provenance, argc, argv)) return -1;
    return 0;
}

/* The staged runs.csv of --history DIR after the rows of DIR/runs.csv (a previous solve's)
 * that stay true, so that it names every history the folder keeps: an old row stays unless
 * this solve wrote its instance and label again (its columns matched by name); a new row
 * whose history file DIR has already is dropped without --force (bench_stage_merge refuses
 * that file, so the old row stays with it).  An unreadable DIR/runs.csv is an error (its
 * replacement is not moved in) unless --force, which replaces it.  0; 1 (one line);
 * BENCH_NOMEM (one line) when memory ran out: the caller then moves nothing in. */
static int runs_combine(const bench_stage *st, int force)
{
    char path[sizeof st->work + 16], prev[sizeof st->dir + 16], msg[8400];
    char file[sizeof st->dir + 2 * BENCH_LABEL + 32];
    snprintf(path, sizeof path, "%s/runs.csv", st->work);
    snprintf(prev, sizeof prev, "%s/runs.csv", st->dir);
    bench_csv N, O = {0};
    int have = access(prev, F_OK) == 0, rc = 0;
    if (bench_csv_read(path, &N, msg, sizeof msg) != 0) {   /* our own file: out of memory */
        bench_error(CMD, "%s", msg);
        return BENCH_NOMEM;
    }
    int bad = have && bench_csv_read(prev, &O, msg, sizeof msg) != 0;
    if (bad && strstr(msg, "out of memory")) {
        bench_error(CMD, "%s", msg);
        bench_csv_free(&N);
        return BENCH_NOMEM;
    }
    if (have && !bad && (bench_csv_col(&O, "instance") < 0 || bench_csv_col(&O, "label") < 0)) {
        snprintf(msg, sizeof msg, "%s: not a runs.csv of lcpbench (no instance,label)", prev);
        bad = 1;
    }
    if (bad) {
        bench_csv_free(&O);
        have = 0;
        if (!force) {
            bench_error(CMD, "%s (use --force to replace it)", msg);
            unlink(path);
            bench_csv_free(&N);
            return 1;
        }
    }
    int ci = bench_csv_col(&N, "instance"), cl = bench_csv_col(&N, "label");
    int ch = bench_csv_col(&N, "history");
    int oi = bench_csv_col(&O, "instance"), ol = bench_csv_col(&O, "label");
    char *keep = lcp_malloc((size_t)N.nrow + 1, 1);
    int dropped = 0;
    for (int r = 0; keep && r < N.nrow; r++) {
        const char *h = bench_csv_get(&N, r, ch);
        snprintf(file, sizeof file, "%s/%s", st->dir, h);
        keep[r] = force || !*h || access(file, F_OK) != 0;
        dropped |= !keep[r];
    }
    bench_out o;
    FILE *f = keep && (have || dropped) ? bench_open(CMD, &o, path, 1) : NULL;
    if (!keep) {
        bench_error(CMD, "out of memory");
        rc = BENCH_NOMEM;
    }
    if (f) {
        for (int c = 0; c < N.ncol; c++) {
            if (c) fputc(',', f);
            bench_csv_field(f, N.head[c]);
        }
        fputc('\n', f);
        for (int r = 0; r < O.nrow; r++) {            /* the old rows this solve leaves */
            int again = 0;
            for (int s = 0; !again && s < N.nrow; s++)
                again = keep[s] && !strcmp(bench_csv_get(&O, r, oi), bench_csv_get(&N, s, ci)) &&
                        !strcmp(bench_csv_get(&O, r, ol), bench_csv_get(&N, s, cl));
            for (int c = 0; !again && c < N.ncol; c++) {
                if (c) fputc(',', f);
                bench_csv_field(f, bench_csv_get(&O, r, bench_csv_col(&O, N.head[c])));
            }
            if (!again) fputc('\n', f);
        }
        for (int r = 0; r < N.nrow; r++) {            /* then this solve's */
            for (int c = 0; keep[r] && c < N.ncol; c++) {
                if (c) fputc(',', f);
                bench_csv_field(f, bench_csv_get(&N, r, c));
            }
            if (keep[r]) fputc('\n', f);
        }
        rc = bench_close(CMD, &o);
    } else if (keep && (have || dropped)) rc = 1;   /* bench_open said why */
    lcp_free(keep);
    bench_csv_free(&O);
    bench_csv_free(&N);
    return rc;
}

int bench_cmd_solve(int argc, char **argv)
{
    solve_args a = {0};
    bench_suite S = {0};
    bench_stage stage[2] = {{.slot = -1}, {.slot = -1}};
    int rc = parse(argc, argv, &a), helped = rc == 1;
    if (rc == 0 && (add_solvers(&a, &S) != 0 || add_instances(&a, &S) != 0 ||
                    outputs_ready(&a, stage, argc, argv) != 0))
        rc = 2;
    if (rc == 0) {
        snprintf(S.name, sizeof S.name, "solve");
        printf("instance,solver,status,iterations,residual,residual_inf,time_s,time_min_s,"
               "time_max_s,time_batch,time_setup_s,rel_residual,zdiff,wdiff,work,form,order,"
               "omega,beta,gamma,shape,peer_status\n");
        bench_flush_stdout();
        bench_sink sink = {.histdir = a.history, .row = solve_row, .after = solve_after,
                           .ctx = &a, .force = a.force, .lean = a.lean};
        rc = bench_grid_loop(CMD, &S, &sink);
    }
    if (a.runs && bench_close(CMD, &a.runs_out) && rc == 0) rc = 1;
    a.runs = NULL;
    if (stage[0].work[0] && rc != 2 && rc != BENCH_NOMEM &&   /* --history's stage */
        bench_write_failures() == stage[0].failures) {   /* (after a lost file: none moved) */
        int c = runs_combine(&stage[0], a.force);
        if (c) rc = c == BENCH_NOMEM ? c : 1;
    }
    for (int k = 0; k < 2; k++)
        if (stage[k].work[0]) {
            if (rc == 2 || rc == BENCH_NOMEM) bench_stage_commit(CMD, &stage[k], 0);
            else if (bench_stage_merge(CMD, &stage[k], a.force)) rc = 1;
        }
    bench_suite_free(&S);
    lcp_free(a.inst);
    lcp_free(a.perm);
    return helped ? 0 : rc == BENCH_NOMEM ? 1 : rc;
}
