/* grid.h: the grid engine, the second layer of bench/ (folder grid/; it includes the kit
 * only): suites (grids of instances x solver settings), the measured run of one solver on
 * one instance, the run loop that writes a run folder, outside solvers, the ranks of
 * mpirun, scene capture through problems/, whole simulations, the regime analysis, and what
 * the tables share (their context, their Markdown and runs).
 *
 * RUN FOLDER (written by bench_grid_run, read by plot, profile, table, check):
 *     DIR/runs.csv                 one row per run (columns: results/README.md)
 *     DIR/history/RUN.csv          iteration,residual,residual_inf,time_s of each run
 *     DIR/instances/NAME/          instances captured from scenes by `scene' lines
 *     DIR/plots/INSTANCE-iter.*    .gp, .png, .pdf: residual against iteration
 *     DIR/plots/INSTANCE-time.*    residual against time
 *     DIR/provenance.json          what ran where (bench_provenance_json)
 * Every CSV is plain: one header line, RFC 4180 quoting, no comment lines.  `run' and
 * `table' write the folder as DIR.tmpPID and rename it into place (bench_stage_open below).
 */
#ifndef BENCH_GRID_H
#define BENCH_GRID_H

#include "kit.h"

void bench_list_suites(FILE *f); /* built-in suites of lcpbench run (suite.c) */

/* ---- iterates computed elsewhere ------------------------------------------------------ */
/* Each iterate of a CSV with one iterate per line (m numbers; an optional header may name
 * `iteration' and `time_s' columns, then the others are z) is handed to fn with its
 * iteration (the line's index when absent) and time (NaN when absent); z (m entries) is
 * scratch.  0, or 1 with one error line naming file and line (iterates.c). */
typedef void bench_iterate_fn(void *ctx, long iteration, double time_s, const double *z);
int bench_iterates_read(const char *cmd, const char *path, int m, double *z,
                        bench_iterate_fn *fn, void *ctx);

/* ---- the reference answer (reference.c) ---------------------------------------------------- */
/* How to get z*: the direct solver, then (pgs_maxit > 0) PGS as a fallback. */
typedef struct bench_ref_how {
    const char *solver;  /* NULL: ldlt-ref */
    long max_pivots;     /* its cap; 0: the solver's default */
    int any;             /* 1: any answer of the direct solver (status >= 0), not only OK/NONUNIQUE */
    double pgs_tol;      /* the fallback's tolerance */
    int pgs_maxit;       /* its sweep cap; 0: no fallback */
    int pgs_warm;        /* 1: from P->z0 (without one, from what the direct solver left); 0: from 0 */
    double pgs_accept;   /* refuse the fallback when its residual is above (INFINITY: never) */
} bench_ref_how;
/* z (m entries) = the reference of P; 0 (direct), 1 (PGS) or -1 (none); *st: last status */
int bench_reference(const lcp_problem *P, const bench_ref_how *how, double *z, lcp_status *st);

/* ---- one measured run ---------------------------------------------------------------------- */
typedef struct bench_result {
    lcp_status status;       /* the solver's status */
    lcp_info info;           /* the solver's info (work units, parameters used) */
    lcp_residuals res;       /* harness-computed at the final z */
    double zdiff, wdiff;     /* distance to the reference, NaN without zref */
    int iterations;          /* sweeps of the recording run */
    double t_median, t_min, t_max; /* seconds per solve of the timing runs, NaN when reps == 0 */
    long batch;              /* solves per timing sample (a sample lasts >= 1 ms) */
    double t_setup;          /* seconds of the solver's setup (lcp_prepare), apart; NaN untimed */
    int timed_out;           /* bench_run_limited: the time limit ended the run (no answer) */
    int crashed;             /* bench_run_limited: the child died without a result */
} bench_result;

/* Recording run (monitor on, history into h when h != NULL), then one warm-up and `reps'
 * timing samples with the monitor off, tol < 0 and max_iter = the recorded iterations;
 * the history's times from the timing runs (measure.c).  z (m entries) receives the
 * recording run's answer; z_start (or NULL) is the warm start.  opt->history (the library's
 * rows of iteration, work, residual, merit) is filled by the recording run only. */
lcp_status bench_run_solver(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                            const double *z_start, int reps, double *z, bench_result *r,
                            bench_history *h);
/* The same with a limit of `timeout' seconds (> 0; else no limit) in a forked child: past
 * it the child is killed, r->timed_out = 1 and the status is negative (no answer). */
lcp_status bench_run_limited(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                             const double *z_start, int reps, double timeout, double *z,
                             bench_result *r, bench_history *h);


/* ---- suites ------------------------------------------------------------------------------ */


typedef struct bench_spec {    /* one `solver' line: a solver and its settings */
    const lcp_solver *solver;
    bench_settings set;        /* set.label: unique in its grid; legend and file name */
    int block;                 /* grid block (`grid' statements); runs pair equal blocks */
    char *ext_cmd;             /* NULL, or the command of `solver external' (external.c; then
                                  solver is a descriptor of its own, with no solve) */
} bench_spec;

typedef struct bench_inst {    /* one instance of the grid */
    char name[BENCH_LABEL];    /* unique in the suite */
    char path[BENCH_PATH];     /* instance folder */
    const char *ref;           /* NULL or the solver that gives zref when zref.mtx is absent */
    int block;                 /* grid block */
    double factor_tol;         /* 1e-12: reading's factor test (lcp_read_options; < 0: none) */
} bench_inst;

typedef struct bench_suite {
    char name[BENCH_LABEL];
    int ninst, nspec, capinst, capspec;
    bench_inst *inst;
    bench_spec *spec;
} bench_suite;

/* Text of the built-in suite `name' (NULL when unknown); bench_list_suites (above) lists
 * them. */
const char *bench_suite_builtin(const char *name);
/* Parse suite text (built-in or a file's contents).  base: folder that relative instance
 * paths are taken from.  capdir: where `scene' lines capture (NULL: scene lines are an
 * error).  Errors print one line "lcpbench CMD: WHERE:LINE: ..." and return 2 (bad text)
 * or 1 (capture or file failure). */
int bench_suite_parse(const char *cmd, const char *text, const char *where, const char *base,
                      const char *capdir, int force, bench_suite *S);
/* Suite by built-in name or file path (same return codes). */
int bench_suite_load(const char *cmd, const char *arg, const char *capdir, int force,
                     bench_suite *S);
void bench_suite_free(bench_suite *S);
long bench_suite_runs(const bench_suite *S); /* instance x solver pairs of equal grids */
/* help text of the format */
void bench_suite_format_help(FILE *f);

/* ---- the measured-run loop (run.c) ------------------------------------------------------- */

typedef struct bench_row {     /* one run, as the row writers see it */
    const bench_inst *inst;
    const bench_spec *spec;
    const lcp_problem *P;
    const char *status;        /* lcp_status_str, or "no-z0", "bad-permutation", "timeout",
                                  "crashed" (a limited run's child died); the answer of a
                                  judged solver (bench_judged): bench_residual_status's */
    const char *peer_status;   /* "" for ours; a judged solver's own status (lcp_status_str;
                                  "answered" for an external command; "" when cut short) */
    int usable;                /* the run gave an answer (status >= 0) */
    const bench_result *r;
    int iter_to_tol;           /* first recorded sweep with ||r||_2 <= tol; -1 */
    const char *history;       /* history file name written, or "" */
    const double *z;           /* the answer (usable runs) */
} bench_row;

typedef struct bench_sink {    /* where the rows go */
    const char *histdir;       /* folder of the history files; NULL = none */
    void (*row)(void *ctx, const bench_row *w);               /* the row writer */
    int (*after)(void *ctx, const bench_row *w, lcp_problem *P); /* NULL, or 1 = failed */
    void *ctx;
    /* NULL, or where the history goes instead of a file in histdir (its file name given);
     * 0, or 1 when it could not be kept */
    int (*history)(void *ctx, const char *name, const bench_history *h);
    int force, quiet;          /* replace history files; no error lines for failed runs */
    int shard_k, shard_n;      /* 0, 0: every cell; else the cells c (0-based, in the loop's
                                  order) with c % shard_n == shard_k - 1 */
    int lean;                  /* 1: read only what the instance's runs need (bench_load_skip);
                                  the row writer and `after' then see P without A or without
                                  the factors */
} bench_sink;

/* What the runs of instance I in S need not read (lcp_read_options.skip): LCP_READ_SKIP_A
 * when every spec of its block is one of ours flagged LCP_FACTORED with form auto or
 * matrix-free (not
 * in the `error' ordering, which sorts by residuals), LCP_READ_SKIP_FACTORS when every spec asks for the assembled form; 0 when a
 * reference solver is to run (ref=) or a spec is external. */
unsigned bench_load_skip(const bench_suite *S, const bench_inst *I);

/* `solver external NAME ... cmd=COMMAND' (external.c): s->solver becomes a descriptor named
 * NAME that takes every problem, s->ext_cmd the command.  0, or 1 with msg. */
int bench_external_spec(bench_spec *s, const char *name, const char *command, char *msg,
                        size_t msglen);
void bench_external_free(bench_spec *s);
/* One run of an external spec on the instance folder inst (read into P): the command run
 * reps times as a process, its z.mtx and history.csv scored with lcp_residual; *status =
 * "answered", "timeout" or "external-failed" (one error line).  LCP_OK when answered. */
lcp_status bench_run_external(const char *cmd, const bench_spec *sp, const char *inst,
                              const lcp_problem *P, double *z, bench_result *r,
                              bench_history *h, const char **status);

/* Every instance x spec of S (pairs of equal blocks): read the instance, give it a
 * reference (ref=SOLVER), one measured run (bench_run_limited) per spec, its history file,
 * then out->row and out->after.  0 when every run gave an answer or timed out, 1 when a
 * run failed, an instance was unreadable or a file could not be written, BENCH_NOMEM when
 * an allocation was refused (reading, the reference or a run's out-of-memory status): the
 * loop stops there after one error line, and the caller discards what it was writing. */
enum { BENCH_NOMEM = 3 };
int bench_grid_loop(const char *cmd, const bench_suite *S, const bench_sink *out);

/* bench_grid_loop into DIR/runs.csv (columns: results/README.md), DIR/history/ and
 * DIR/provenance.json. */
int bench_grid_run(const char *cmd, const bench_suite *S, const char *dir, int force,
                   int quiet, int argc, char **argv);
/* The same for shard k of n (n = 0: every cell); a shard also writes DIR/shard.csv
 * (shard,of,cell,instance,label: every cell of the grid), what `lcpbench merge' checks. */
int bench_grid_run_shard(const char *cmd, const bench_suite *S, const char *dir, int force,
                         int quiet, int shard_k, int shard_n, int argc, char **argv);

/* ---- the ranks of mpirun (mpi.c; bench/README.md, "Grids on a cluster") ---------------
 * NULL stands for "no MPI": a serial run (built without MPI, not under mpirun, or 1 rank). */
typedef struct bench_mpi bench_mpi;
/* MPI started when under mpirun on 2 ranks or more (host names gathered on rank 0); NULL
 * otherwise, MPI untouched. */
bench_mpi *bench_mpi_start(void);
int bench_mpi_rank(const bench_mpi *m);     /* 0 for NULL */
int bench_mpi_ranks(const bench_mpi *m);    /* 1 for NULL */
/* rank 0: bench_provenance_ranks of this world into path */
int bench_mpi_provenance(const bench_mpi *m, const char *cmd, const char *path, int argc,
                         char **argv);
/* every rank: rank 0's ok (a broadcast) */
int bench_mpi_agree(const bench_mpi *m, int ok);
void bench_mpi_abort(const bench_mpi *m);   /* ends every rank of the job */
/* every rank: MPI_Finalize, m freed */
void bench_mpi_finish(bench_mpi *m);
enum { BENCH_JOB_END = 0, BENCH_JOB_GRID = 1, BENCH_JOB_REORDER = 2 };
/* rank 0: job `kind' with its payload to every worker (waits until each has it) */
void bench_mpi_job(const bench_mpi *m, int kind, const char *payload, size_t len);
/* a worker: wait (asleep, not spinning) for rank 0's next job; its payload (malloc'ed,
 * 0-terminated), kind and length */
char *bench_mpi_next_job(const bench_mpi *m, int *kind, size_t *len);
/* A worker's cell: run cell number `cell', its result bytes into *out (malloc'ed, or NULL
 * with *len 0); 1 when the cell failed. */
typedef int bench_cell_fn(void *ctx, long cell, char **out, size_t *len);
/* Rank 0: one cell's result, in cell order; 1 when writing it failed. */
typedef int bench_put_fn(void *ctx, long cell, int failed, const char *b, size_t len);
/* Rank 0 deals cells 0..total-1 to the workers as they ask (progress on stderr under label,
 * none when NULL) and hands each result to put in cell order; every worker runs
 * bench_mpi_work meanwhile.  0, or 1 when a cell or put failed. */
int bench_mpi_deal(const bench_mpi *m, const char *label, long total, bench_put_fn *put,
                   void *ctx);
int bench_mpi_work(const bench_mpi *m, bench_cell_fn *run, void *ctx);

/* the runs.csv header line (with its newline) */
void bench_runs_head(FILE *f);
/* one runs.csv row of a run (the row writer of `run', and of `solve --history DIR') */
void bench_runs_row(FILE *f, const bench_row *w);

/* Parse suite text (scene lines capture into DIR/instances), run it into DIR and draw its
 * convergence figures quietly: what the tables share.  m: the ranks of mpirun (NULL:
 * serially), see bench_grid_run_text.  0, 1 (a run or file failed) or 2. */
int bench_run_text(const char *cmd, const char *text, const char *name, const char *dir,
                   int force, const bench_mpi *m, int argc, char **argv);
/* bench_grid_run of S, parsed from text (name: where it came from; relative paths from the
 * working folder); on the ranks of mpirun when m is not NULL: rank 0 deals the cells to the
 * workers, which parse the same text (their scene captures in a scratch folder; `instance'
 * folders at the same paths) in bench_grid_serve, and writes the same folder. */
int bench_grid_run_text(const char *cmd, const bench_suite *S, const char *text,
                        const char *name, const char *dir, int force, int quiet,
                        const bench_mpi *m, int argc, char **argv);
/* a worker's side of bench_grid_run_text: the job's payload; 0, or 1 when a cell failed */
int bench_grid_serve(const bench_mpi *m, const char *payload, size_t len);

/* Capture the problem of step `step' of scene `scene' with "key=value" parameters into the
 * instance folder dir (prob_capture_steps, then lcp_write_instance).  0 or -1 with msg, one
 * line naming the scene (prob_capture_steps's messages, "scene NAME: " and a write's). */
int bench_capture_scene(const char *scene, int nkv, const char *const *kv, int step,
                        const char *dir, char *msg, size_t msglen);

/* Capture step `step' of a scene into dir and read it back into P (lcp_problem_init'ed);
 * 0, or 1 with one error line */
int bench_scene_problem(const char *cmd, const char *scene, int nkv, const char *const *kv,
                        int step, const char *dir, lcp_problem *P);

/* `lcpbench run SUITE --out DIR' once its arguments are read (cmd/run.c): under mpirun the
 * ranks share the grid (rank 0 writes DIR), else DIR is locked (bench_lock_take) and the grid
 * staged into it; plots: draw the convergence figures; shard_k/shard_n: one shard (0: all).
 * 0, 1 (a run or file failed) or 2 (bad suite). */
int bench_run_folder(const char *suite, const char *out, int force, int plots, int shard_k,
                     int shard_n, int argc, char **argv);

/* ---- tables ------------------------------------------------------------------------------- */

typedef struct bench_variant {
    const char *name;      /* "paper" (the source's protocol) or "suite" (ours) */
    const char *protocol;  /* one line: what differs */
} bench_variant;

typedef struct bench_table_ctx {
    const char *cmd, *out;         /* "table", where to write: DIR.tmpPID (renamed to DIR) */
    const char *dest;              /* DIR, for messages */
    const char *name;              /* the table */
    const bench_variant *variant;  /* the chosen variant */
    const struct bench_table *table; /* the table (its variants) */
    int force, reps, reps_given;   /* reps_given: --reps was on the command line */
    long maxit, steps;             /* 0: the table's default */
    double beta;
    int size;                      /* grid size: -1 --quick (tests), 0 default, 1 --full */
    double timeout;                /* --timeout: seconds per run of the table's grids, 0 none */
    bench_style style;
    int argc;
    char **argv;
    int ninst;                     /* --instances DIR...: more instance folders (tables that */
    char **inst;                   /* take them: bench_table.instances) */
    int no_canonical;              /* --no-canonical: only those folders */
    const bench_mpi *mpi;          /* the ranks of mpirun, NULL serially: rank 0 runs the
                                      table and deals its grids to the other ranks */
} bench_table_ctx;

typedef int bench_table_fn(const bench_table_ctx *t);

typedef struct bench_table {
    const char *name, *what;
    bench_table_fn *fn;
    const bench_variant *variants;   /* the first is the default */
    int nvariants;
    int instances;                   /* 1: takes --instances and --no-canonical */
} bench_table;


/* The Markdown result of a table: "# TITLE", provenance, and the variant line.  The FILE
 * or NULL (error line printed). */
FILE *bench_table_md(const bench_table_ctx *t, bench_out *o, const char *file,
                     const char *title);
/* The runs of a suite text into t->out (bench_run_text) and their convergence figures in
 * t->style: 0, 1 (a run or file failed) or 2 (bad suite text). */
int bench_table_runs(const bench_table_ctx *t, const char *text, const char *name);
/* row of runs.csv with this instance and label, -1 when absent */
int bench_runs_find(const bench_csv *T, const char *inst, const char *label);

/* ---- whole simulations shared by amgs-table2 and amgs-figures (sim.c) ---------------- */
typedef struct bench_sim_out {
    double t_solve;       /* seconds, sum over steps of the stepper's timed solver call */
    long sweeps;          /* sum over steps */
    int steps;            /* done */
    int steps_rows;       /* steps that had rows to solve */
    double last_res;      /* ||r||_2 of the last step */
    /* the physical state (results/README.md, "amgs-table2/"): */
    double ke_end;        /* kinetic energy after the last step (J) */
    int contacts_end;     /* contacts of the last step */
    double contacts_mean; /* contacts per step, mean over the steps */
    double pen_max;       /* max penetration over the second half of the steps (m) */
    int stands;           /* stack: 1 when every disk is within r/2 of its initial x, the
                             top disk within r/2 of its initial height and the kinetic energy
                             below 1% of sum m g r (at rest); -1: not a stack */
    bench_state state;    /* what the comparability rule reads (bench_state_comparable) */
} bench_sim_out;
/* Step `scene' with its parameters kv[0..nkv-1] ("key=value": the stepper's, e.g. eps=0
 * poscorr=0 for rigid contacts) for `steps' steps with `solver' (amgs-D: beta, gamma 1) at
 * `iters' sweeps per step and tolerance tol (< 0: a fixed `iters' sweeps, no residual test);
 * res (steps entries, or NULL) receives ||r||_2 per step (NaN: no rows).  0, or -1 with msg. */
int bench_sim_run(const char *scene, int nkv, const char *const *kv, const char *solver,
                  double beta, int steps, int iters, double tol, double *res, bench_sim_out *o,
                  char *msg, size_t msglen);
struct prob_world;
/* The state of world W at the end of a run for the kit's comparability rule: its kinetic
 * energy, the height of its centre of mass against gravity, the energy scale sum m |g| r and
 * the radius r (the scene's parameter "r"), with the run's mean contacts and standing. */
void bench_sim_state(const struct prob_world *W, double contacts_mean, int stands,
                     bench_state *s);


/* ---- the regime analysis (regime.c) -------------------------------------------------------
 * (lcp/README.md, "The AMGS family"; results/README.md, "amgs-regime/"): when does AMGS halve PGS's sweeps?
 *
 * amgs-D with gamma beta = b makes the row update of projected SOR with omega = 2/(1 + b) on
 * rows above their bound, so near the solution both PGS and amgs-D are linear iterations on
 * the active rows F: Gauss-Seidel and SOR on A_FF.  Their asymptotic rates are the spectral
 * radii of the iteration matrices G = I - M^-1 A_FF with M = D/omega - L (omega may differ per
 * row: amgs-I's omega_i = 2 a_ii / (beta + a_ii)).  Sweeps per decade are -1/log10(rho), so
 * the predicted amgs/PGS sweep ratio is log(rho_GS) / log(rho_SOR).  Self-stress states
 * (the null space of J_F^T, when a pile has more active contacts than degrees of freedom)
 * have the eigenvalue E of the compliance in A_FF = J_F Minv J_F^T + E I; with E = 0 they
 * are eigenvalue-1 modes of every G that are not errors (the solution set is a line there),
 * so they are left out of rho (the `nskip' eigenvalues nearest 1).
 */
/* ---- instances in memory ------------------------------------------------------------------- */

/* Rigid contacts with a consistent right-hand side: A = J Minv J^T (E dropped) and q replaced
 * by its least-squares projection onto range(J) (LAPACKE dgelsd, rcond 1e-12).  *moved gets
 * ||q - q_proj||_2 / max(1e-300, ||q||_2).  Needs the factors.  0, or -1 with msg. */
int bench_problem_rigid(lcp_problem *P, double *moved, char *msg, size_t msglen);

/* ---- the analysis ------------------------------------------------------------------------ */

/* The active rows of a solution z: z_i above its lower bound, or w_i = (A z + q)_i within
 * 1e-9 max(1, ||q||_inf) of 0 (tight rows; with a semi-definite A the solution's z is not
 * unique but w is, so the tight rows are).  F receives the rows (m entries of room); returns
 * their number. */
int bench_active_rows(const lcp_problem *P, const double *z, int *F);

/* Dense A_FF (nf x nf, column-major) into out. */
void bench_dense_sub(const lcp_problem *P, const int *F, int nf, double *out);

/* dim null(J_F^T) = nf - rank(J_F) (singular values of the dense J_F, LAPACKE dgesdd; rank =
 * singular values above 1e-10 times the largest).  -1 without factors or on failure. */
int bench_null_dim(const lcp_problem *P, const int *F, int nf);

/* Spectral radius of the SOR iteration matrix I - M^-1 S of the symmetric n x n S
 * (column-major), M = diag(S)/omega_i - strict lower(S) (omega NULL: Gauss-Seidel; omega
 * one entry per row), leaving out the nskip eigenvalues nearest 1 (LAPACKE dgeev).  NaN on
 * failure. */
double bench_sor_radius(const double *S, int n, const double *omega, int nskip);

/* Smallest eigenvalue of the symmetric n x n S (LAPACKE dsyev); NaN on failure. */
double bench_sym_min_eig(const double *S, int n);

/* sweeps-per-decade ratio of two linear rates: log(rho_ref) / log(rho); NaN unless both are
 * in (0, 1 - BENCH_RATE_RESOLUTION).  A radius within the resolution of 1 is not resolved from
 * the eigenvalue 1 of A_FF's null space (self-stress states): dgeev returns it to rounding
 * (1 - rho of 1e-12 to 1e-10, another value on another BLAS), and a ratio of two such logs is
 * that rounding, not a prediction (in amgs-regime every other radius is at least 1e-6 below 1) */
#define BENCH_RATE_RESOLUTION 1e-8
double bench_rate_ratio(double rho_ref, double rho);

typedef struct bench_regime {
    int m, nf, nnull;        /* rows, active rows, dim null(J_F^T) */
    double lam_min;          /* smallest eigenvalue of A_FF */
    double rho_gs, rho_sor, rho_amgs_i;  /* GS, SOR(omega), amgs-I's per-row SOR */
    double pred_d, pred_i;   /* predicted amgs-D/PGS and amgs-I/PGS sweep ratios */
    /* the linear model from the start (bench_regime_linear): sweeps of the GS, SOR(omega)
     * and amgs-I iterations on A_FF from e0 = z0_F - z_F until ||A_FF e||_2 <= tol (-1: not
     * within maxit), their ratios (NaN when the GS count is 0 or any is -1) and the
     * initial residual ||A_FF e0||_2 */
    long lin_gs, lin_sor, lin_i;
    double lin_r0;
    double pred_lin_d, pred_lin_i;
} bench_regime;

/* The whole analysis on the active rows of z (a reference solution): amgs-D's omega =
 * 2/(1 + b) (b = gamma beta), amgs-I's omega_i = 2 a_ii/(beta_I + a_ii) with beta_I =
 * mean(a_ii) over all rows (its solver default).  rigid: E = 0, so the nnull eigenvalues
 * nearest 1 are left out.  0, or -1 (out of memory, LAPACKE failure). */
int bench_regime_analyse(const lcp_problem *P, const double *z, double b, int rigid,
                         bench_regime *R);

/* The linear model of the sweep counts on the active rows F of z (a reference solution):
 * the projected sweeps of PGS, amgs-D (omega = 2/(1 + b)) and amgs-I, from the warm start
 * z0, act on the rows of F as the linear Gauss-Seidel/SOR iteration e <- G e on A_FF as
 * long as the active set holds; the sweep count to ||r||_2 <= tol is then the first k with
 * ||A_FF G^k e0||_2 <= tol, e0 = z0_F - z_F.  Unlike the asymptotic log(rho_GS)/log(rho_SOR)
 * it weighs each mode by its share of the starting residual: a self-stress mode of
 * compliance E has ||A_FF v|| = E ||v||, so a slow mode the start hardly excites is under
 * tol before it is the slowest.  Fills lin_* and pred_lin_* of R (bench_regime_analyse first:
 * it sets nf).  z0 NULL: z0 = 0.  Sparse sweeps on A_FF: O(nnz(A_FF)) a sweep, at most
 * 3 maxit sweeps.  0, or -1 (out of memory). */
int bench_regime_linear(const lcp_problem *P, const double *z, const double *z0, double b,
                        double tol, long maxit, bench_regime *R);

#endif
