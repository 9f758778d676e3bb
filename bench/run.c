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
    double *z = lcp_calloc((size_t)(P->m > 0 ? P->m : 1), sizeof(double));
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
    lcp_free(z);
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
        if (lcp_read_instance_opt(I->path, &ro, &P, msg, sizeof msg) != LCP_OK) {
            bench_error(cmd, "%s", msg);
            failed = 1;
            bench_progress_step(&prog, runs);
            continue;
        }
        give_ref(cmd, I, &P);
        double *z = lcp_malloc((size_t)(P.m > 0 ? P.m : 1), sizeof(double));
        if (!z) {
            bench_error(cmd, "%s: out of memory", I->name);
            failed = 1;
        }
        for (int k = 0, c = (int)(first % n); z && k < S->nspec; k++) {
            if (S->spec[k].block != I->block || c++ % n != mine) continue;
            failed |= one_run(cmd, I, &S->spec[k], &P, z, out);
            bench_progress_step(&prog, 1);
        }
        lcp_free(z);
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

/* ---- MPI: rank 0 deals the cells, the other ranks run them -------------------------------
 * Under `mpirun -np N' (N >= 2; built with MPI) rank 0 hands out cells (instance x solver
 * line, numbered as --shard numbers them) one at a time to the N-1 worker ranks as they ask,
 * and writes what comes back in cell order: the worker runs one_run with its row rendered
 * into memory and its history file written into a scratch folder of its own, then sends the
 * row text, the history's name and its bytes.  So every file but the time columns and
 * provenance is the serial run's, whatever N.  Cost per cell: two messages and the copy of
 * its history; each worker holds one cell ahead; rank 0 polls every millisecond and runs
 * no cell. */
#ifdef LCPBENCH_HAVE_MPI
#include <mpi.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

enum { TAG_RESULT = 1, TAG_CELL = 2, HOSTLEN = MPI_MAX_PROCESSOR_NAME + 1 };

typedef struct mpi_world {
    int rank, n;
    char *hosts;              /* rank 0: n host names, HOSTLEN bytes apart */
} mpi_world;

typedef struct cell_head {    /* what a worker sends before the row, name and history bytes */
    int64_t cell, failed, rowlen, namelen, histlen;
} cell_head;

/* Initialise MPI when started by mpirun on 2 ranks or more (the host names are gathered on
 * rank 0); 0 otherwise (MPI untouched: the serial run). */
static int mpi_start(mpi_world *mw)
{
    const char *sz = getenv("OMPI_COMM_WORLD_SIZE");
    memset(mw, 0, sizeof *mw);
    if (!sz) sz = getenv("PMI_SIZE");
    if (!sz || atoi(sz) < 2) return 0;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &mw->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mw->n);
    char me[HOSTLEN];
    int len = 0;
    memset(me, 0, sizeof me);
    MPI_Get_processor_name(me, &len);
    if (mw->rank == 0 && !(mw->hosts = lcp_calloc((size_t)mw->n, HOSTLEN))) {
        bench_error(CMD, "out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(me, HOSTLEN, MPI_CHAR, mw->hosts, HOSTLEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    return mw->n;
}

/* the instance and spec of every cell, in the loop's order; 0 or 1 (out of memory) */
static int cell_map(const bench_suite *S, int **ci, int **cs, long *n)
{
    *n = bench_suite_runs(S);
    *ci = lcp_malloc((size_t)(*n > 0 ? *n : 1), sizeof **ci);
    *cs = lcp_malloc((size_t)(*n > 0 ? *n : 1), sizeof **cs);
    if (!*ci || !*cs) return 1;
    long c = 0;
    for (int i = 0; i < S->ninst; i++)
        for (int k = 0; k < S->nspec; k++)
            if (S->spec[k].block == S->inst[i].block) {
                (*ci)[c] = i;
                (*cs)[c++] = k;
            }
    return 0;
}

typedef struct mem_row {      /* a worker's row writer: the row into memory */
    FILE *f;
    char history[2 * BENCH_LABEL + 16];
} mem_row;

static void mem_row_write(void *ctx, const bench_row *w)
{
    mem_row *m = ctx;
    runs_row(m->f, w);
    snprintf(m->history, sizeof m->history, "%s", w->history);
}

/* the whole file path into *buf (malloc'ed), its length into *len; 0 or 1 */
static int slurp(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 1;
    char *b = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&b, &n);
    char chunk[65536];
    size_t got;
    while (m && (got = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, got, m);
    int bad = ferror(f) || !m;
    fclose(f);
    if (m) fclose(m);
    if (bad) {
        free(b); /* open_memstream's buffer */
        return 1;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* message of one cell (or of none: cell -1, the first request) */
static char *pack(long cell, int failed, const char *row, size_t rowlen, const char *name,
                  const char *hist, size_t histlen, int *len)
{
    cell_head h = {cell, failed, (int64_t)rowlen, (int64_t)strlen(name), (int64_t)histlen};
    size_t n = sizeof h + rowlen + (size_t)h.namelen + histlen;
    char *b = lcp_malloc(n, 1);
    if (!b || n > INT32_MAX) {
        bench_error(CMD, "cell %ld: out of memory or too large a message", cell);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memcpy(b, &h, sizeof h);
    memcpy(b + sizeof h, row, rowlen);
    memcpy(b + sizeof h + rowlen, name, (size_t)h.namelen);
    memcpy(b + sizeof h + rowlen + h.namelen, hist, histlen);
    *len = (int)n;
    return b;
}

/* A worker: ask for cells and run each with one_run until rank 0 answers -1.  Rank 0
 * answers the first request with two cells and each result with one more, so a worker always
 * holds the next cell while it runs one and never waits for rank 0.  The instance of the last
 * cell stays read (cells of one instance are dealt in a row). */
static int mpi_worker(const bench_suite *S, const char *work)
{
    char hist[BENCH_PATH + 64], path[2 * BENCH_PATH], msg[8400];
    int *ci = NULL, *cs = NULL, len, failed = 0, cur = -1, readable = 0;
    long total = 0, cell = -1;
    snprintf(hist, sizeof hist, "%s/history", work);
    snprintf(msg, sizeof msg, "out of memory");
    if (bench_mkdir_p(hist, msg, sizeof msg) != 0 || cell_map(S, &ci, &cs, &total)) {
        bench_error(CMD, "rank of %s: %s", work, msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    lcp_problem P;
    lcp_problem_init(&P);
    double *z = NULL;
    long next = -1;
    MPI_Request rq;
    char *b = pack(-1, 0, "", 0, "", "", 0, &len);
    MPI_Send(b, len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    lcp_free(b);
    MPI_Recv(&cell, 1, MPI_LONG, 0, TAG_CELL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irecv(&next, 1, MPI_LONG, 0, TAG_CELL, MPI_COMM_WORLD, &rq);
    while (cell >= 0 && cell < total) {
        const bench_inst *I = &S->inst[ci[cell]];
        if (ci[cell] != cur) {        /* the grid loop's reading, for this instance */
            lcp_free(z);
            z = NULL;
            lcp_problem_free(&P);
            lcp_problem_init(&P);
            cur = ci[cell];
            lcp_read_options ro;
            lcp_read_options_default(&ro);
            ro.factor_tol = I->factor_tol;
            readable = lcp_read_instance_opt(I->path, &ro, &P, msg, sizeof msg) == LCP_OK;
            if (!readable) bench_error(CMD, "%s", msg);
            else {
                give_ref(CMD, I, &P);
                z = lcp_malloc((size_t)(P.m > 0 ? P.m : 1), sizeof(double));
                if (!z) bench_error(CMD, "%s: out of memory", I->name);
            }
        }
        char *row = NULL, *hb = NULL;
        size_t rowlen = 0, hl = 0;
        mem_row m = {.f = NULL, .history = ""};
        int bad = 1;
        if (readable && z && (m.f = open_memstream(&row, &rowlen))) {
            bench_sink sink = {.histdir = hist, .row = mem_row_write, .ctx = &m, .force = 1};
            bad = one_run(CMD, I, &S->spec[cs[cell]], &P, z, &sink);
            fclose(m.f);
            snprintf(path, sizeof path, "%s/%s", hist, m.history);
            if (m.history[0] && slurp(path, &hb, &hl)) {
                bench_error(CMD, "%s: cannot read back", path);
                bad = 1;
                m.history[0] = 0;
            }
            if (m.history[0]) unlink(path);
        }
        failed |= bad;
        b = pack(cell, bad, row ? row : "", rowlen, m.history, hb ? hb : "", hl, &len);
        free(row); /* open_memstream's buffers */
        free(hb);
        MPI_Send(b, len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
        lcp_free(b);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);     /* the cell dealt ahead */
        cell = next;
        MPI_Irecv(&next, 1, MPI_LONG, 0, TAG_CELL, MPI_COMM_WORLD, &rq);
    }
    MPI_Wait(&rq, MPI_STATUS_IGNORE);         /* the answer to the last result: -1 */
    lcp_free(z);
    lcp_problem_free(&P);
    lcp_free(ci);
    lcp_free(cs);
    return failed;
}

/* one cell's message into runs and histdir; 1 when the cell failed or a file did */
static int put_cell(const char *b, FILE *runs, const char *histdir)
{
    cell_head h;
    char name[2 * BENCH_LABEL + 16], path[BENCH_PATH + 300], msg[8400];
    memcpy(&h, b, sizeof h);
    const char *row = b + sizeof h, *nm = row + h.rowlen, *hist = nm + h.namelen;
    int failed = (int)h.failed;
    fwrite(row, 1, (size_t)h.rowlen, runs);
    fflush(runs);
    if (h.namelen <= 0 || h.namelen >= (int64_t)sizeof name) return failed;
    memcpy(name, nm, (size_t)h.namelen);
    name[h.namelen] = 0;
    snprintf(path, sizeof path, "%s/%s", histdir, name);
    bench_out o;
    if (bench_out_open(&o, path, 1, msg, sizeof msg) != 0
        || (fwrite(hist, 1, (size_t)h.histlen, o.f), bench_out_commit(&o, 1, msg, sizeof msg))) {
        bench_error(CMD, "%s", msg);
        failed = 1;
    }
    return failed;
}

/* Rank 0: deal the cells of S (none when S is NULL: the workers are sent home) and write
 * what comes back in cell order into runs and histdir.  A worker is done when it has been
 * answered -1 twice (the cell it held ahead, and its last result).  0, or 1 when a cell
 * failed. */
static int mpi_deal(const mpi_world *mw, const bench_suite *S, FILE *runs, const char *histdir)
{
    long total = S ? bench_suite_runs(S) : 0, next = 0, written = 0;
    int active = mw->n - 1, failed = 0;
    char **got = lcp_calloc((size_t)total + 1, sizeof *got);
    int *ends = lcp_calloc((size_t)mw->n, sizeof *ends);
    if (!got || !ends) {
        bench_error(CMD, "out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    bench_progress prog;
    bench_progress_start(&prog, CMD, total);
    while (active > 0) {
        MPI_Status s;
        int flag = 0, len = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &s);
        if (!flag) {
            nanosleep(&(struct timespec){0, 1000000}, NULL);
            continue;
        }
        MPI_Get_count(&s, MPI_BYTE, &len);
        char *b = lcp_malloc(len > 0 ? (size_t)len : 1, 1);
        if (!b) {
            bench_error(CMD, "out of memory");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Recv(b, len, MPI_BYTE, s.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        cell_head h = {.cell = -1};
        if (len >= (int)sizeof h) memcpy(&h, b, sizeof h);
        if (h.cell >= written && h.cell < total && !got[h.cell]) {
            got[h.cell] = b;
            b = NULL;
        }
        lcp_free(b);
        for (int k = h.cell < 0 ? 2 : 1; k > 0; k--) {
            long give = next < total ? next++ : -1;
            if (give < 0 && ++ends[s.MPI_SOURCE] == 2) active--;
            MPI_Send(&give, 1, MPI_LONG, s.MPI_SOURCE, TAG_CELL, MPI_COMM_WORLD);
        }
        for (; written < total && got[written]; written++) {
            failed |= put_cell(got[written], runs, histdir);
            lcp_free(got[written]);
            got[written] = NULL;
            bench_progress_step(&prog, 1);
        }
    }
    bench_progress_end(&prog);
    lcp_free(got);
    lcp_free(ends);
    return failed || written < total;
}

/* bench_grid_run_shard's folder, the cells dealt to the ranks */
static int mpi_grid_run(const mpi_world *mw, const bench_suite *S, const char *dir, int argc,
                        char **argv)
{
    char hist[2 * BENCH_PATH], path[2 * BENCH_PATH], msg[8400];
    snprintf(hist, sizeof hist, "%s/history", dir);
    snprintf(path, sizeof path, "%s/provenance.json", dir);
    bench_out out;
    int bad = bench_mkdir_p(hist, msg, sizeof msg) != 0;
    if (bad) bench_error(CMD, "%s", msg);
    bad = bad || bench_provenance_ranks(CMD, path, argc, argv, mw->n, mw->hosts, HOSTLEN);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    bad = bad || !bench_open(CMD, &out, path, 1);
    if (bad) {
        mpi_deal(mw, NULL, NULL, NULL);
        return 1;
    }
    bench_runs_head(out.f);
    int failed = mpi_deal(mw, S, out.f, hist);
    if (bench_close(CMD, &out)) return 1;
    return failed;
}
#endif

#ifdef LCPBENCH_HAVE_MPI
/* `lcpbench run' on the ranks of mpirun: rank 0 stages DIR and deals, the workers load the
 * suite too (scenes captured into a scratch folder of their own) and run cells */
static int mpi_cmd_run(const mpi_world *mw, const char *suite, const char *out, int force,
                       int plots, int shard_n, int argc, char **argv)
{
    bench_stage stage;
    bench_suite S;
    char capdir[BENCH_PATH + 64], base[BENCH_PATH];
    int ok = 0, rc = 1;
    if (mw->rank == 0) {
        if (shard_n > 0) {
            bench_error(CMD, "--shard is for runs without mpirun (mpirun deals the cells)");
            rc = 2;
        } else if (!bench_stage_open(CMD, &stage, out, force)) {
            snprintf(capdir, sizeof capdir, "%s/instances", stage.work);
            rc = bench_suite_load(CMD, suite, capdir, 1, &S);
            ok = rc == 0;
            if (!ok) bench_stage_commit(CMD, &stage, 0);
        }
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) return mw->rank == 0 ? rc : 1;
    if (mw->rank > 0) {
        const char *td = getenv("TMPDIR");
        snprintf(base, sizeof base, "%s/lcpbench-rank%d", td && *td ? td : "/tmp", mw->rank);
        if (bench_stage_open(CMD, &stage, base, 1)) MPI_Abort(MPI_COMM_WORLD, 1);
        snprintf(capdir, sizeof capdir, "%s/instances", stage.work);
        if (bench_suite_load(CMD, suite, capdir, 1, &S)) {
            bench_error(CMD, "rank %d cannot load the suite: the job ends", mw->rank);
            bench_stage_commit(CMD, &stage, 0);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        rc = mpi_worker(&S, stage.work);
        bench_suite_free(&S);
        bench_stage_commit(CMD, &stage, 0);
        return rc;
    }
    rc = mpi_grid_run(mw, &S, stage.work, argc, argv);
    bench_suite_free(&S);
    if (plots && bench_plot_dir(CMD, stage.work, 0) != 0) rc = 1;
    if (bench_stage_commit(CMD, &stage, 1)) rc = 1;
    return rc;
}
#endif

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
           "Under `mpirun -np N' (a build with MPI) rank 0 deals the cells to N-1 worker\n"
           "ranks and writes the same folder; bind each rank to a core (--bind-to core).\n"
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
#ifdef LCPBENCH_HAVE_MPI
    mpi_world mw;
    if (mpi_start(&mw) > 1) {
        int rc = mpi_cmd_run(&mw, suite, out, force, plots, shard_n, argc, argv);
        lcp_free(mw.hosts);
        MPI_Finalize();
        return rc;
    }
#endif
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
