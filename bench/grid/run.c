/* run.c: the measured-run loop of lcpbench (bench_grid_loop), shared by `lcpbench run',
 * `lcpbench solve', `lcpbench check' and the tables; and the run folder of `lcpbench run
 * SUITE --out DIR' (bench_run_folder; cmd/run.c reads its arguments), written with it
 *     DIR/runs.csv          one row per run (columns below and in results/README.md)
 *     DIR/history/I__L.csv  iteration,residual,residual_inf,time_s of each run
 *     DIR/provenance.json   what ran where
 *     DIR/plots/            convergence figures (kit/figures.c)
 * Each run is measure.c's: a recording run with the harness's residual history, then a
 * warm-up and `reps' timing samples with the monitor off and the recorded iteration count.
 * runs.csv columns:
 *     instance,label,solver,rows, the settings (settings.c: tol,maxit,omega,...; empty when
 *     the solver does not use it or its default is the solver's), status,iterations,
 *     iter_to_tol,residual,residual_inf,rel_residual,zdiff,wdiff,time_s,time_min_s,
 *     time_max_s,time_batch,time_setup_s,work,omega_used,beta_used,gamma_used,shape,form_used,
 *     history,peer_status, then the instance's descriptors from its meta.txt (desc_keys:
 *     contacts,limit_rows,bodies,mass_ratio,mu,bilateral_share,self_stress,
 *     self_stress_normal,cond_lanczos,family; empty where meta.txt has none)
 * *_used is what the solver reports; iter_to_tol = first recorded sweep with ||r||_2 <= tol
 * (empty when never reached); status: the solver's, except for a peer's or an external
 * command's answer, judged by its residual (judge(): converged iff ||r||_2 <= the tol asked),
 * whose own status is peer_status (empty for ours); residuals are lcp_residual at the final
 * z; zdiff/wdiff need a reference (zref.mtx or ref=SOLVER); time_s/min/max = median/min/max
 * seconds per solve of the timing samples, time_batch = solves per sample, time_setup_s =
 * the solver's setup (lcp_prepare), timed once apart from the solves.  Empty fields mean "no value"; NaN is
 * never printed.  Cost: the runs; the recording adds nothing to the reported times.
 */
#include "grid.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* reference answer for zdiff/wdiff when the instance has no zref.mtx; the reference's
 * status (LCP_OK when none is needed) */
static lcp_status give_ref(const char *cmd, const bench_inst *I, lcp_problem *P)
{
    if (P->zref || !I->ref) return LCP_OK;
    const bench_ref_how how = {I->ref, 0, 0, 0, 0, 0, 0};
    double *z = lcp_calloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
    lcp_status st = LCP_ERR_NOMEM;
    if (z && bench_solver_find(I->ref) && bench_reference(P, &how, z, &st) == 0) {
        P->zref = z;
        return st;
    }
    bench_error(cmd, "%s: reference %s: %s (no zdiff/wdiff)", I->name, I->ref,
                lcp_status_str(st));
    lcp_free(z);
    return st;
}

/* the status of a run that cannot start, or NULL */
static const char *cannot_start(const bench_settings *set, const lcp_problem *P)
{
    if (set->opt.warm && !P->z0) return "no-z0";
    if (set->opt.order == LCP_ORDER_PERM && set->perm_rows != P->m) return "bad-permutation";
    return NULL;
}

/* The row's status and iter_to_tol once the run is done: a peer's or an external command's
 * answer is judged by its residual (bench_residual_status), its own status kept in
 * peer_status; a direct solver's iterations count as reaching tol when its residual is at
 * most tol */
static void judge(bench_row *w, const bench_spec *sp, const bench_result *r,
                  const bench_history *h)
{
    double tol = bench_settings_tol(&sp->set);
    w->peer_status = "";
    if (bench_judged(sp->solver->name, sp->ext_cmd != NULL)) {
        int cut = r->timed_out || r->crashed || !strcmp(w->status, "no-z0") ||
                  !strcmp(w->status, "bad-permutation");
        w->peer_status = cut ? "" : w->status;
        if (w->usable) w->status = bench_residual_status(r->res.r2, tol);
    }
    if (!w->usable) return;
    w->iter_to_tol = iter_to_tol(h, tol);
    if ((sp->solver->needs & LCP_DIRECT) && r->res.r2 <= tol &&
        (!strcmp(w->status, "converged") || !strcmp(w->status, "solved-nonunique")))
        w->iter_to_tol = r->iterations;
}

/* one run of spec sp on instance I: measure, history file, row; 1 when it failed */
static int one_run(const char *cmd, const bench_inst *I, const bench_spec *sp, lcp_problem *P,
                   double *z, const bench_sink *out)
{
    const bench_settings *set = &sp->set;
    bench_result r;
    bench_history h = {0};
    bench_row w = {.inst = I, .spec = sp, .P = P, .r = &r, .iter_to_tol = -1, .history = "",
                   .peer_status = "", .z = z};
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
        if (st == LCP_ERR_NOMEM) {        /* the grid stops after this row and one line */
            bench_error(cmd, "%s: %s: %s", I->name, set->label, w.status);
            out->row(out->ctx, &w);
            bench_history_free(&h);
            return BENCH_NOMEM;
        }
        if (failed && !out->quiet) {
            if (st == LCP_ERR_NO_SOLUTION && isfinite(r.info.certificate))
                bench_error(cmd, "%s: %s: %s: Farkas certificate y >= 0, q^T y = -1, A^T y <= 0 "
                            "to %.3g of |A|^T y", I->name, set->label, w.status,
                            r.info.certificate);
            else if (r.info.row >= 0)
                bench_error(cmd, "%s: %s: %s at row %d", I->name, set->label, w.status,
                            r.info.row);
            else bench_error(cmd, "%s: %s: %s", I->name, set->label, w.status);
        }
    }
    judge(&w, sp, &r, &h);
    if (w.usable && out->history && h.n > 0) {
        bench_history_name(I->name, set->label, hname, sizeof hname);
        if (out->history(out->ctx, hname, &h) == 0) w.history = hname;
        else {
            bench_error(cmd, "%s: cannot keep its history", hname);
            failed = 1;
        }
    } else if (w.usable && out->histdir && h.n > 0) {
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

unsigned bench_load_skip(const bench_suite *S, const bench_inst *I)
{
    const bench_setting *form = bench_setting_find("form");
    int mf = 1, as = 1, any = 0;
    if (I->ref) return 0;
    for (int k = 0; k < S->nspec; k++) {
        const bench_spec *sp = &S->spec[k];
        if (sp->block != I->block) continue;
        any = 1;
        int uses = !sp->ext_cmd && bench_setting_uses(form, sp->solver);
        lcp_form f = sp->set.opt.form;
        mf &= uses && (sp->solver->needs & LCP_FACTORED) && f != LCP_FORM_ASSEMBLED &&
              sp->set.opt.order != LCP_ORDER_ERROR;    /* sorts by A's residuals */
        as &= uses && f == LCP_FORM_ASSEMBLED;
    }
    return !any ? 0u : mf ? LCP_READ_SKIP_A : as ? LCP_READ_SKIP_FACTORS : 0u;
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
    const int unwritten = bench_write_failures();
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
        if (out->lean) ro.skip = bench_load_skip(S, I);
        lcp_status rs = lcp_read_instance_opt(I->path, &ro, &P, msg, sizeof msg);
        if (rs != LCP_OK) {
            bench_error(cmd, "%s", msg);
            if (rs == LCP_ERR_NOMEM) {
                failed = BENCH_NOMEM;
                break;
            }
            failed = 1;
            bench_progress_step(&prog, runs);
            continue;
        }
        double *z = NULL;
        if (give_ref(cmd, I, &P) != LCP_ERR_NOMEM &&
            !(z = lcp_malloc((size_t)(P.m > 0 ? P.m : 1), sizeof(double))))
            bench_error(cmd, "%s: out of memory", I->name);
        if (!z) failed = BENCH_NOMEM;
        for (int k = 0, c = (int)(first % n); z && k < S->nspec; k++) {
            if (S->spec[k].block != I->block || c++ % n != mine) continue;
            int f = one_run(cmd, I, &S->spec[k], &P, z, out);
            bench_progress_step(&prog, 1);
            if (f == BENCH_NOMEM) {
                failed = BENCH_NOMEM;
                break;
            }
            failed |= f;
            if (bench_write_failures() != unwritten) break;   /* a full disk: stop here */
        }
        lcp_free(z);
        lcp_problem_free(&P);
        if (failed == BENCH_NOMEM || bench_write_failures() != unwritten) break;
    }
    bench_progress_end(&prog);
    return failed;
}

/* ---- runs.csv ------------------------------------------------------------------------------ */

/* The descriptor columns, after peer_status: meta.txt keys (problems/README.md,
 * "Descriptors"; `family' from lcpbench families), the last one text, the others numbers */
static const char *const desc_keys[] = {"contacts", "limit_rows", "bodies", "mass_ratio", "mu",
                                        "bilateral_share", "self_stress",
                                        "self_stress_normal", "cond_lanczos", "family"};
enum { NDESC = (int)(sizeof desc_keys / sizeof desc_keys[0]) };

/* the cell of meta.txt's key (its first "key = value" line) into out: a number as written,
 * or the number before a note in parentheses ("0.3 (every contact)", FCLIB's); text keys
 * (text = 1) as written; "" when absent or not a number */
static void meta_cell(const char *meta, const char *key, int text, char *out, size_t len)
{
    char v[128], *end;
    out[0] = 0;
    if (!bench_meta_value(meta, key, v, sizeof v)) return;
    if (text) {
        snprintf(out, len, "%s", v);
        return;
    }
    (void)strtod(v, &end);
    size_t w = (size_t)(end - v);
    if (w == 0 || !(*end == 0 || strncmp(end, " (", 2) == 0)) return;
    if (w < len) snprintf(out, len, "%.*s", (int)w, v);
}

void bench_runs_head(FILE *f)
{
    int ns;
    const bench_setting *st = bench_settings_table(&ns);
    fprintf(f, "instance,label,solver,rows");
    for (int k = 0; k < ns; k++)
        if (st[k].kind != BENCH_TEXT) fprintf(f, ",%s", st[k].key);
    fprintf(f, ",status,iterations,iter_to_tol,residual,residual_inf,rel_residual,zdiff,wdiff,"
               "time_s,time_min_s,time_max_s,time_batch,time_setup_s,work,omega_used,beta_used,gamma_used,"
               "shape,form_used,history,peer_status");
    for (int k = 0; k < NDESC; k++) fprintf(f, ",%s", desc_keys[k]);
    fputc('\n', f);
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
    fputc(',', f);
    bench_csv_field(f, w->peer_status ? w->peer_status : "");
    for (int k = 0; k < NDESC; k++) {
        char v[128];
        meta_cell(w->P ? w->P->meta : NULL, desc_keys[k], k == NDESC - 1, v, sizeof v);
        fputc(',', f);
        bench_csv_field(f, v);
    }
    fputc('\n', f);
    fflush(f);
}

void bench_runs_row(FILE *f, const bench_row *w)
{
    runs_row(f, w);
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

/* ---- MPI: rank 0 deals the cells, the other ranks run them -------------------------------
 * Under `mpirun -np N' (N >= 2; built with MPI) rank 0 deals the cells (instance x solver
 * line, numbered as --shard numbers them) to the N-1 worker ranks (mpi.c) and writes what
 * comes back in cell order: a worker runs one_run with its row and its history rendered into
 * memory and sends both with the history's name.  So every file but the time columns and
 * provenance is the serial run's, whatever N.  A worker keeps the instance of its last cell
 * read (cells of one instance are numbered in a row, so consecutive cells mostly share it). */

typedef struct grid_worker {
    const bench_suite *S;
    int *ci, *cs;             /* instance and spec of every cell, in the loop's order */
    long total;
    int cur, readable;        /* the instance read into P (-1 none); whether it was */
    lcp_problem P;
    double *z;
    FILE *row, *hist;         /* this cell's row and history, into memory */
    char name[2 * BENCH_LABEL + 16];
} grid_worker;

typedef struct grid_head {    /* a cell's result: the lengths, then row, name and history */
    int64_t rowlen, namelen, histlen;
} grid_head;

static void mem_row(void *ctx, const bench_row *w)
{
    runs_row(((grid_worker *)ctx)->row, w);
}

static int mem_history(void *ctx, const char *name, const bench_history *h)
{
    grid_worker *g = ctx;
    snprintf(g->name, sizeof g->name, "%s", name);
    return bench_history_print(g->hist, h) != 0;
}

static int grid_worker_init(grid_worker *g, const bench_suite *S)
{
    memset(g, 0, sizeof *g);
    g->S = S;
    g->cur = -1;
    lcp_problem_init(&g->P);
    g->total = bench_suite_runs(S);
    g->ci = lcp_malloc((size_t)(g->total > 0 ? g->total : 1), sizeof *g->ci);
    g->cs = lcp_malloc((size_t)(g->total > 0 ? g->total : 1), sizeof *g->cs);
    if (!g->ci || !g->cs) return 1;
    long c = 0;
    for (int i = 0; i < S->ninst; i++)
        for (int k = 0; k < S->nspec; k++)
            if (S->spec[k].block == S->inst[i].block) {
                g->ci[c] = i;
                g->cs[c++] = k;
            }
    return 0;
}

static void grid_worker_free(grid_worker *g)
{
    lcp_free(g->z);
    lcp_problem_free(&g->P);
    lcp_free(g->ci);
    lcp_free(g->cs);
}

/* bench_cell_fn: one cell of the grid, as bench_grid_loop runs it */
static int grid_cell(void *ctx, long cell, char **out, size_t *len)
{
    grid_worker *g = ctx;
    char msg[8400];
    *out = NULL;
    *len = 0;
    if (cell < 0 || cell >= g->total) return 1;
    const bench_inst *I = &g->S->inst[g->ci[cell]];
    if (g->ci[cell] != g->cur) {              /* the grid loop's reading, for this instance */
        lcp_free(g->z);
        g->z = NULL;
        lcp_problem_free(&g->P);
        lcp_problem_init(&g->P);
        g->cur = g->ci[cell];
        lcp_read_options ro;
        lcp_read_options_default(&ro);
        ro.factor_tol = I->factor_tol;
        g->readable = lcp_read_instance_opt(I->path, &ro, &g->P, msg, sizeof msg) == LCP_OK;
        if (!g->readable) bench_error(CMD, "%s", msg);
        else {
            give_ref(CMD, I, &g->P);
            g->z = lcp_malloc((size_t)(g->P.m > 0 ? g->P.m : 1), sizeof(double));
            if (!g->z) bench_error(CMD, "%s: out of memory", I->name);
        }
    }
    if (!g->readable || !g->z) return 1;      /* serially: no row, the run failed */
    char *row = NULL, *hb = NULL;
    size_t rl = 0, hl = 0;
    g->row = open_memstream(&row, &rl);
    g->hist = open_memstream(&hb, &hl);
    g->name[0] = 0;
    int bad = 1;
    if (g->row && g->hist) {
        bench_sink sink = {.row = mem_row, .history = mem_history, .ctx = g, .force = 1};
        bad = one_run(CMD, I, &g->S->spec[g->cs[cell]], &g->P, g->z, &sink);
    }
    if (g->row) fclose(g->row);
    if (g->hist) fclose(g->hist);
    grid_head h = {(int64_t)rl, (int64_t)strlen(g->name), g->name[0] ? (int64_t)hl : 0};
    size_t n = sizeof h + (size_t)(h.rowlen + h.namelen + h.histlen);
    char *b = lcp_malloc(n, 1);
    if (b && row && hb) {
        memcpy(b, &h, sizeof h);
        memcpy(b + sizeof h, row, (size_t)h.rowlen);
        memcpy(b + sizeof h + h.rowlen, g->name, (size_t)h.namelen);
        memcpy(b + sizeof h + h.rowlen + h.namelen, hb, (size_t)h.histlen);
        *out = b;
        *len = n;
    } else {
        bench_error(CMD, "%s: out of memory", I->name);
        lcp_free(b);
        bad = 1;
    }
    free(row); /* open_memstream's buffers: the C library's malloc */
    free(hb);
    return bad;
}

typedef struct grid_sink {   /* rank 0: where the results go */
    FILE *runs;
    const char *histdir;
} grid_sink;

/* bench_put_fn: one cell's row into runs.csv, its history into histdir */
static int grid_put(void *ctx, long cell, int failed, const char *b, size_t len)
{
    grid_sink *o = ctx;
    grid_head h;
    char name[2 * BENCH_LABEL + 16], path[BENCH_PATH + 300], msg[8400];
    (void)cell;
    (void)failed;
    if (len < sizeof h) return 0;             /* no row: the worker said why */
    memcpy(&h, b, sizeof h);
    if (h.rowlen < 0 || h.namelen < 0 || h.histlen < 0 ||
        sizeof h + (size_t)(h.rowlen + h.namelen + h.histlen) != len)
        return 1;
    const char *row = b + sizeof h, *nm = row + h.rowlen, *hist = nm + h.namelen;
    fwrite(row, 1, (size_t)h.rowlen, o->runs);
    fflush(o->runs);
    if (h.namelen <= 0 || h.namelen >= (int64_t)sizeof name) return 0;
    memcpy(name, nm, (size_t)h.namelen);
    name[h.namelen] = 0;
    snprintf(path, sizeof path, "%s/%s", o->histdir, name);
    bench_out f;
    if (bench_out_open(&f, path, 1, msg, sizeof msg) != 0
        || (fwrite(hist, 1, (size_t)h.histlen, f.f), bench_out_commit(&f, 1, msg, sizeof msg))) {
        bench_error(CMD, "%s", msg);
        return 1;
    }
    return 0;
}

/* a worker: run the cells rank 0 deals of S */
static int grid_work(const bench_mpi *m, const bench_suite *S)
{
    grid_worker g;
    if (grid_worker_init(&g, S)) {
        bench_error(CMD, "rank %d: out of memory", bench_mpi_rank(m));
        bench_mpi_abort(m);
    }
    int rc = bench_mpi_work(m, grid_cell, &g);
    grid_worker_free(&g);
    return rc;
}

/* rank 0: bench_grid_run_shard's folder, the cells dealt to the workers (which run
 * grid_work on the same suite meanwhile; S NULL: they are sent home, 1) */
static int grid_deal(const char *cmd, const bench_mpi *m, const bench_suite *S,
                     const char *dir, int quiet, int argc, char **argv)
{
    char hist[2 * BENCH_PATH], path[2 * BENCH_PATH], msg[8400];
    snprintf(hist, sizeof hist, "%s/history", dir);
    snprintf(path, sizeof path, "%s/provenance.json", dir);
    bench_out out;
    int bad = !S || bench_mkdir_p(hist, msg, sizeof msg) != 0;
    if (bad && S) bench_error(cmd, "%s", msg);
    bad = bad || bench_mpi_provenance(m, cmd, path, argc, argv);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    bad = bad || !bench_open(cmd, &out, path, 1);
    grid_sink o = {bad ? NULL : out.f, hist};
    if (bad) {
        bench_mpi_deal(m, NULL, 0, grid_put, &o);
        return 1;
    }
    bench_runs_head(out.f);
    int failed = bench_mpi_deal(m, quiet ? NULL : cmd, bench_suite_runs(S), grid_put, &o);
    if (bench_close(cmd, &out)) return 1;
    return failed;
}

/* A worker's scratch folder, $TMPDIR/lcpbench-rankR (staged, removed at the end): its
 * captures.  Ends the job when it cannot be made. */
static void scratch_open(const bench_mpi *m, bench_stage *stage)
{
    char base[BENCH_PATH];
    const char *td = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/lcpbench-rank%d", td && *td ? td : "/tmp", bench_mpi_rank(m));
    if (bench_stage_open(CMD, stage, base, 1)) bench_mpi_abort(m);
}

/* `lcpbench run' on the ranks of mpirun: rank 0 stages DIR and deals, the workers load the
 * suite too (scenes captured into a scratch folder of their own) and run cells */
static int mpi_cmd_run(const bench_mpi *m, const char *suite, const char *out, int force,
                       int plots, int shard_n, int argc, char **argv)
{
    bench_stage stage;
    bench_suite S;
    bench_lock lock = {.fd = -1, .slot = -1};    /* rank 0's: one writer per DIR */
    char capdir[BENCH_PATH + 64];
    int ok = 0, rc = 1;
    if (bench_mpi_rank(m) == 0) {
        if (shard_n > 0) {
            bench_error(CMD, "--shard is for runs without mpirun (mpirun deals the cells)");
            rc = 2;
        } else if (!bench_lock_take(CMD, &lock, out) &&
                   !bench_stage_open(CMD, &stage, out, force)) {
            snprintf(capdir, sizeof capdir, "%s/instances", stage.work);
            rc = bench_suite_load(CMD, suite, capdir, 1, &S);
            ok = rc == 0;
            if (!ok) bench_stage_commit(CMD, &stage, 0);
        }
    }
    if (!bench_mpi_agree(m, ok)) {
        bench_lock_release(&lock);
        return bench_mpi_rank(m) == 0 ? rc : 1;
    }
    if (bench_mpi_rank(m) > 0) {
        scratch_open(m, &stage);
        snprintf(capdir, sizeof capdir, "%s/instances", stage.work);
        if (bench_suite_load(CMD, suite, capdir, 1, &S)) {
            bench_error(CMD, "rank %d cannot load the suite: the job ends", bench_mpi_rank(m));
            bench_stage_commit(CMD, &stage, 0);
            bench_mpi_abort(m);
        }
        rc = grid_work(m, &S);
        bench_suite_free(&S);
        bench_stage_commit(CMD, &stage, 0);
        return rc;
    }
    rc = grid_deal(CMD, m, &S, stage.work, 0, argc, argv);
    bench_suite_free(&S);
    if (plots && bench_write_failures() == stage.failures &&   /* not a lost folder's */
        bench_plot_dir(CMD, stage.work, 0) != 0)
        rc = 1;
    if (bench_stage_commit(CMD, &stage, 1)) rc = 1;
    bench_lock_release(&lock);
    return rc;
}

int bench_grid_run_text(const char *cmd, const bench_suite *S, const char *text,
                        const char *name, const char *dir, int force, int quiet,
                        const bench_mpi *m, int argc, char **argv)
{
    if (!m) return bench_grid_run(cmd, S, dir, force, quiet, argc, argv);
    size_t ln = strlen(name), lt = strlen(text);
    char *job = lcp_malloc(ln + lt + 2, 1);
    if (!job) {
        bench_error(cmd, "out of memory");
        return 1;
    }
    memcpy(job, name, ln + 1);                /* name, 0, text, 0 */
    memcpy(job + ln + 1, text, lt + 1);
    bench_mpi_job(m, BENCH_JOB_GRID, job, ln + lt + 2);
    lcp_free(job);
    return grid_deal(cmd, m, S, dir, quiet, argc, argv);
}

int bench_grid_serve(const bench_mpi *m, const char *payload, size_t len)
{
    const char *name = payload, *text = memchr(payload, 0, len);
    if (!text) bench_mpi_abort(m);
    text++;
    bench_stage stage;
    bench_suite S;
    char capdir[BENCH_PATH + 64];
    scratch_open(m, &stage);
    snprintf(capdir, sizeof capdir, "%s/instances", stage.work);
    if (bench_suite_parse(CMD, text, name, ".", capdir, 1, &S)) {
        bench_error(CMD, "rank %d cannot load the grid %s: the job ends", bench_mpi_rank(m),
                    name);
        bench_stage_commit(CMD, &stage, 0);
        bench_mpi_abort(m);
    }
    int rc = grid_work(m, &S);
    bench_suite_free(&S);
    bench_stage_commit(CMD, &stage, 0);
    return rc;
}

int bench_run_text(const char *cmd, const char *text, const char *name, const char *dir,
                   int force, const bench_mpi *m, int argc, char **argv)
{
    char capdir[BENCH_PATH + 32];
    snprintf(capdir, sizeof capdir, "%s/instances", dir);
    bench_suite S;
    int rc = bench_suite_parse(cmd, text, name, ".", capdir, force, &S);
    if (rc) return rc;
    rc = bench_grid_run_text(cmd, &S, text, name, dir, force, 0, m, argc, argv);
    bench_suite_free(&S);
    if (bench_plot_dir(cmd, dir, 1) != 0) rc = 1;
    return rc;
}

/* `lcpbench run' without mpirun, DIR locked: staged into DIR.tmpPID, put in place at the end */
static int run_staged(const char *suite, const char *out, int force, int plots, int shard_k,
                      int shard_n, int argc, char **argv)
{
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
    if (rc == BENCH_NOMEM) {      /* a grid cut short by memory: the previous DIR stays */
        bench_stage_commit(CMD, &stage, 0);
        return 1;
    }
    if (plots && bench_write_failures() == stage.failures &&   /* not a lost folder's */
        bench_plot_dir(CMD, stage.work, 0) != 0)
        rc = 1;
    if (bench_stage_commit(CMD, &stage, 1)) rc = 1;
    return rc;
}

/* `lcpbench run SUITE --out DIR' once its arguments are read (cmd/run.c): under mpirun the
 * ranks share the grid, else DIR is locked and the grid staged into it */
int bench_run_folder(const char *suite, const char *out, int force, int plots, int shard_k,
                     int shard_n, int argc, char **argv)
{
    bench_mpi *m = bench_mpi_start();
    if (m) {
        int rc = mpi_cmd_run(m, suite, out, force, plots, shard_n, argc, argv);
        bench_mpi_finish(m);
        return rc;
    }
    bench_lock lock;                     /* one writer per DIR: a second run is refused */
    if (bench_lock_take(CMD, &lock, out)) return 1;
    int rc = run_staged(suite, out, force, plots, shard_k, shard_n, argc, argv);
    bench_lock_release(&lock);
    return rc;
}
