/* harness.h: what the harness subcommands (run, plot, profile, table, check) share, beyond
 * bench.h: suites (grids of instances x solver settings), the grid runner that writes a
 * run folder, a small CSV reader for runs.csv and histories, scene capture through
 * problems/, and gnuplot.
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
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include "bench.h"

#include <stddef.h>

/* ---- suites ------------------------------------------------------------------------------ */

enum { BENCH_PATH = 4096 };

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

/* Text of the built-in suite `name' (NULL when unknown); bench_list_suites (bench.h) lists
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
                                  "crashed" (a limited run's child died) */
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
/* bench_provenance_file (bench.h) of a run on nranks MPI ranks (0: none): also "ranks" and
 * "hosts", the host of each rank (hosts: nranks strings, hostlen bytes apart). */
int bench_provenance_ranks(const char *cmd, const char *path, int argc, char **argv,
                           int nranks, const char *hosts, size_t hostlen);
/* ---- the ranks of mpirun (mpi.c; README, "Grids on a cluster") ---------------------------
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
 * instance folder dir.  0 or -1 with msg. */
int bench_capture_scene(const char *scene, int nkv, const char *const *kv, int step,
                        const char *dir, char *msg, size_t msglen);

/* Output folder of a command: refuse a non-empty dir unless force, then create it.
 * 0, or 1 with one error line. */
int bench_out_dir(const char *cmd, const char *dir, int force);
/* bench_out_open / bench_out_commit that print their one error line: the FILE or NULL;
 * 0 or 1. */
FILE *bench_open(const char *cmd, bench_out *o, const char *path, int force);
int bench_close(const char *cmd, bench_out *o);
/* World of a scene with "key=value" parameters (prob_world_create).  0 or -1 with msg. */
struct prob_world;
int bench_scene_world(const char *scene, int nkv, const char *const *kv, struct prob_world *W,
                      char *msg, size_t msglen);

/* ---- interrupted commands (util.c) -------------------------------------------------------
 * A folder of results is written whole into DIR.tmpPID beside DIR, which holds a file
 * INCOMPLETE until bench_stage_commit renames it into place (the previous DIR is kept until
 * then, and removed after).  SIGINT, SIGTERM or SIGHUP remove the temporary folder and the
 * temporary files of bench_out_open, kill the measurement child, and end the process with
 * the signal's status.  A folder left with INCOMPLETE (the process was killed with SIGKILL,
 * or a rank died) is refused by check, plot and profile (bench_incomplete). */
typedef struct bench_stage {
    char dir[BENCH_PATH];      /* the target, without trailing slashes */
    char work[BENCH_PATH + 32];/* where the command writes: DIR.tmpPID */
    char old[BENCH_PATH + 32]; /* DIR.oldPID during the swap */
    int slot;
    int failures;              /* bench_write_failures() when it was opened */
} bench_stage;
/* Refuse a non-empty dir unless force (one error line, 1), else create s->work with its
 * INCOMPLETE mark: 0. */
int bench_stage_open(const char *cmd, bench_stage *s, const char *dir, int force);
/* ok: put s->work in place of s->dir (0, or 1 with one error line); !ok: remove s->work.
 * A file that could not be written since the stage was opened (bench_write_failures: a full
 * disk) makes the folder incomplete: it is removed as with !ok, s->dir stays as it was, and
 * 1 is returned with no further line (the failed write printed its own). */
int bench_stage_commit(const char *cmd, bench_stage *s, int ok);
/* Move every file of s->work into s->dir (created), keeping the other files of s->dir; a
 * file that exists there is refused (one error line each) unless force, but for
 * provenance.json and runs.csv (solve --history writes its runs.csv with the rows of the
 * previous one that it keeps).  0, or 1.  After a failed write (as above) nothing is
 * moved: 1. */
int bench_stage_merge(const char *cmd, bench_stage *s, int force);
/* How many output files (bench_out) could not be opened or written so far in this process:
 * a stage compares it with its count at opening, the grid loop stops when it grows. */
int bench_write_failures(void);
/* count a write that failed elsewhere (the library's writers: LCP_ERR_IO) */
void bench_write_failed(void);
/* 1 with one error line when dir holds the INCOMPLETE mark, else 0 */
int bench_incomplete(const char *cmd, const char *dir);
/* An output folder's writer lock: the file DIR.lock beside DIR (made, with its parents, when
 * missing), write-locked with fcntl (F_SETLK, the whole file) while the command writes DIR,
 * holding its pid.  A second command for the same DIR is refused (one error line naming DIR
 * and the holder's pid: 1).  The kernel drops the lock when its process ends however it
 * ends, and forked children never hold it, so a DIR.lock left by a process that died
 * (SIGKILL, a crash) is stale: the next command takes it over.  Released (and the file
 * removed) by bench_lock_release, or by a SIGINT, SIGTERM or SIGHUP. */
typedef struct bench_lock {
    char path[BENCH_PATH + 8];
    int fd, slot;
} bench_lock;
int bench_lock_take(const char *cmd, bench_lock *l, const char *dir);
void bench_lock_release(bench_lock *l);     /* nothing when not taken */
/* remove a file or a folder tree (async-signal-safe; errors ignored) */
void bench_remove_tree(const char *path);

/* 1 when dir exists and holds an entry besides . and .. */
int bench_dir_nonempty(const char *dir);

/* ---- CSV tables --------------------------------------------------------------------------- */

typedef struct bench_csv {
    int ncol, nrow;
    char **head;      /* ncol column names */
    char **cell;      /* nrow * ncol strings (row-major); missing fields are "" */
    char *buf;        /* storage */
} bench_csv;

/* Read a CSV file per RFC 4180 (quoted fields may hold commas, quotes and line breaks);
 * blank lines and "#" lines before the header are skipped, the first other record is the
 * header.  0 or -1 with msg. */
int bench_csv_read(const char *path, bench_csv *T, char *msg, size_t msglen);
void bench_csv_free(bench_csv *T);
int bench_csv_col(const bench_csv *T, const char *name);            /* -1 when absent */
const char *bench_csv_get(const bench_csv *T, int row, int col);   /* "" when col < 0 */
/* number in a cell, NaN when empty or not a number */
double bench_csv_num(const bench_csv *T, int row, int col);

/* DIR/runs.csv of a run folder; 0, or 1 with one error line */
int bench_read_runs(const char *cmd, const char *dir, bench_csv *T);
/* Open DIR/FILE (a Markdown result) and write "# TITLE" and the provenance in a text
 * block; the FILE or NULL (error line printed) */
FILE *bench_md_open(const char *cmd, bench_out *o, const char *dir, const char *file,
                    int force, const char *title, int argc, char **argv);
/* Capture step `step' of a scene into dir and read it back into P (lcp_problem_init'ed);
 * 0, or 1 with one error line */
int bench_scene_problem(const char *cmd, const char *scene, int nkv, const char *const *kv,
                        int step, const char *dir, lcp_problem *P);

/* ---- gnuplot ------------------------------------------------------------------------------ */

/* Run `gnuplot script' in folder dir.  0 ok; 1 gnuplot missing (warned once on stderr);
 * -1 gnuplot could not be started, -2 it failed on the script (one line each). */
int bench_gnuplot(const char *cmd, const char *dir, const char *script);
/* Redraw the convergence figures of a run folder (DIR/plots/). 0 ok, 1 on failure. */
int bench_plot_dir(const char *cmd, const char *dir, int quiet);
/* gnuplot string literal of s (quotes and backslashes escaped) into out */
void bench_gp_quote(const char *s, char *out, size_t len);

#endif
