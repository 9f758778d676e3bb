/* bench.h: what the lcpbench subcommands share: timing, provenance, progress, output
 * folders, the run settings, and the measured run of one solver on one instance (README,
 * "The harness").
 *
 * The harness computes every residual itself from (A, q, z) with lcp_residual(); it never
 * reads info.residual for its tables. */
#ifndef BENCH_H
#define BENCH_H

#include "lcp.h"
#include "lcp_alloc.h" /* the library's allocation wrapper, shared by bench/ */

#include <stdint.h>
#include <stdio.h>

/* ---- subcommands: int cmd(int argc, char **argv), argv[0] = subcommand name ---------- */
typedef int bench_cmd_fn(int argc, char **argv);
bench_cmd_fn bench_cmd_list, bench_cmd_solve;
bench_cmd_fn bench_cmd_capture, bench_cmd_simulate;
bench_cmd_fn bench_cmd_run, bench_cmd_plot, bench_cmd_profile, bench_cmd_table, bench_cmd_check;
bench_cmd_fn bench_cmd_score, bench_cmd_convert, bench_cmd_merge;
void bench_list_tables(FILE *f); /* names and one line each (table.c) */
void bench_list_suites(FILE *f); /* built-in suites of lcpbench run (suite.c) */

/* ---- solvers (registry.c): liblcp's registry, then liblcp-peers's, as one table ------ */
const lcp_solver *bench_solvers(int *count);
const lcp_solver *bench_solver_find(const char *name); /* NULL when unknown */

/* ---- run settings (settings.c): one table behind solve flags, suite keys, help, runs.csv -- */
enum { BENCH_LABEL = 96 };
typedef struct bench_settings {
    lcp_options opt;            /* lcp_options_default, then the settings given */
    int reps;                   /* 5: timing runs after one warm-up */
    int plot;                   /* 1: drawn in the convergence figures */
    double timeout;             /* 0: seconds a run may take (0 = no limit) */
    char label[BENCH_LABEL];    /* "": suites make one from the solver and its keys */
    int perm_rows;              /* 0: entries of opt.perm (solve --order perm:FILE) */
    uint64_t given;             /* bit k: setting k of the table was given */
} bench_settings;

typedef enum bench_kind { BENCH_INT, BENCH_DOUBLE, BENCH_ENUM, BENCH_BOOL, BENCH_TEXT } bench_kind;
typedef struct bench_setting {
    const char *key;            /* suite key and runs.csv column, e.g. "omega" */
    const char *flag;           /* lcpbench solve flag, NULL = suites only */
    bench_kind kind;
    const char *range;          /* int, double: "[lo,hi]" / "(lo,hi)", bounds may be inf */
    const char *word;           /* a word accepted instead of a number ("auto"), or NULL */
    const char *dflt;           /* the default as text; "" = the solver's own */
    const char *users;          /* "*", "@iterative" (not LCP_DIRECT) or registry name patterns */
    size_t at, size;            /* the value's place in bench_settings */
    size_t word_at;             /* int in bench_settings set to 1 by `word', 0 by a number */
    const char *(*names)(int k);/* enum: the k-th value's name, NULL past the last */
    const char *help;
} bench_setting;

const bench_setting *bench_settings_table(int *count);
const bench_setting *bench_setting_find(const char *key);   /* by key or flag; NULL */
void bench_settings_default(bench_settings *s);
int bench_setting_uses(const bench_setting *k, const lcp_solver *s);
/* Read val into setting k of s and mark it given.  0, or -1 with msg ("'x' is not ...") */
int bench_setting_set(bench_settings *s, const bench_setting *k, const char *val, char *msg,
                      size_t len);
/* The first setting given in s that solver sv does not use, or NULL. */
const bench_setting *bench_settings_unused(const bench_settings *s, const lcp_solver *sv);
/* The settings of s that solver sv does not use back to their defaults, not given. */
void bench_settings_drop_unused(bench_settings *s, const lcp_solver *sv);
/* Setting k of s as text for runs.csv; "" when not given and the default is the solver's. */
void bench_setting_text(const bench_settings *s, const bench_setting *k, char *out, size_t len);
/* help lines: solve flags (solve_flags = 1) or suite keys */
void bench_settings_help(FILE *f, int solve_flags);
/* `lcpbench list settings': key, flag, kind, range, default and the solvers that use it */
void bench_settings_list(FILE *f);
/* The one number reader: a decimal number or a fraction a/b (4/3), finite.  0 or -1. */
int bench_parse_number(const char *s, double *v);

/* ---- option parsing ------------------------------------------------------------------ */
/* 1 when argv[*k] is `--name value' (consumes the value) or `--name=value'; *val set.
 * -1 (message printed) when the value is missing. 0 when argv[*k] is another option. */
int bench_opt(int argc, char **argv, int *k, const char *name, const char **val);
/* strict number parsing; on failure prints "lcpbench CMD: --opt: 'text' is not ..." */
int bench_parse_double(const char *cmd, const char *opt, const char *s, double *out);
int bench_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
/* --factor-tol T|off: the relative tolerance of the reader's A = J Minv J^T + diag(E) test
 * (off: no test, -1).  0, or -1 with one error line. */
int bench_parse_factor_tol(const char *cmd, const char *s, double *out);
/* Before anything else in main: under an address-space limit (ulimit -v) that leaves no
 * room for the work buffers of OpenBLAS's threads, execute the program again with
 * OPENBLAS_NUM_THREADS=1 (its threads would spin forever and exit would hang; util.c).
 * Returns when nothing is to be done (or the exec failed). */
void bench_blas_fit(char **argv);
/* one error line on stderr: "lcpbench CMD: ..." (control characters escaped: \n, \x1b) */
void bench_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* the same line for what is not an error (a summary on stderr): "lcpbench CMD: ...", a path
 * inside a staged folder named as DIR/FILE */
void bench_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fopen(path, "r") of a regular file only: a FIFO (which would block), a folder or a device
 * is refused at once.  NULL with *why set ("not a regular file", or strerror's text). */
FILE *bench_fopen_read(const char *path, const char **why);
/* fflush(stdout), keeping the errno of the first failure (a full disk, a closed file) */
void bench_flush_stdout(void);
/* A command's exit status once standard output is flushed: output lost (printf's failures set
 * the stream's error flag) is an error, one line naming the stream, rc or else 2 */
int bench_stdout_status(const char *cmd, int rc);

/* ---- clock and provenance -------------------------------------------------------------- */
double bench_now(void); /* monotonic seconds (CLOCK_MONOTONIC) */
/* "# key: value" lines: tool version, git revision, compiler and flags, CPU, library
 * versions, date, command line (argv may be NULL).  For Markdown results; CSV files carry
 * no comment lines (they read with any CSV reader without options). */
void bench_provenance(FILE *f, int argc, char **argv);
/* The same facts as DIR/provenance.json (written atomically, replacing an older one): one
 * per output folder.  0, or 1 with one error line. */
int bench_provenance_json(const char *cmd, const char *dir, int argc, char **argv);
/* the same into the file `path' (lcpbench solve --provenance FILE) */
int bench_provenance_file(const char *cmd, const char *path, int argc, char **argv);
/* One CSV field, quoted per RFC 4180 when it holds a comma, a quote, CR or LF. */
void bench_csv_field(FILE *f, const char *s);

/* Names of n instance folders (the one naming rule of the outputs): each folder's name, or,
 * when two folders share a name, every path relative to the common parent of all (a/x, b/x).
 * names: n strings of len bytes.  0, or -1 when a name does not fit. */
int bench_instance_names(int n, char *const *paths, char *names, size_t len);

/* ---- progress line on stderr (quiet when stderr is not a terminal) --------------------- */
typedef struct bench_progress {
    const char *label;
    long total, done;
    double t0, last;
    int tty;
} bench_progress;
void bench_progress_start(bench_progress *p, const char *label, long total);
void bench_progress_step(bench_progress *p, long increment);
void bench_progress_end(bench_progress *p);

/* ---- output folders -------------------------------------------------------------------- */
/* Create dir (and parents).  0 on success, else -1 with msg. */
int bench_mkdir_p(const char *dir, char *msg, size_t msglen);
/* Open path for writing through a temporary name; bench_commit renames it into place
 * (or removes it when ok == 0).  Refuses to replace an existing file unless force. */
typedef struct bench_out {
    FILE *f;
    char path[4096], tmp[4096];
    int slot;                   /* its place among what a signal removes (util.c) */
} bench_out;
int bench_out_open(bench_out *o, const char *path, int force, char *msg, size_t msglen);
int bench_out_commit(bench_out *o, int ok, char *msg, size_t msglen);
/* the forked measurement child (0: none), killed too when a signal ends the command (the
 * temporary files of bench_out_open are removed then; harness.h, interrupted commands) */
void bench_cleanup_child(long pid);
/* a temporary file written by other means than bench_out (libfclib's), removed when a
 * signal ends the command: its slot (-1 when none is free), then bench_cleanup_done */
int bench_cleanup_file(const char *path);
void bench_cleanup_done(int slot);

/* ---- residual history -------------------------------------------------------------------- */
typedef struct bench_history {
    int n, cap;
    int *iter;      /* iteration number */
    double *r2;     /* ||r||_2 (harness-computed) */
    double *rinf;   /* ||r||_inf */
    double *t;      /* sweep k: k x the timing runs' median seconds per sweep; NaN untimed */
} bench_history;
void bench_history_free(bench_history *h);
/* iteration,residual,residual_inf,time_s (a plain CSV; empty = no value) */
int bench_history_write(const bench_history *h, const char *path, int force, char *msg,
                        size_t msglen);
/* the same text into f; 0, or -1 on a write error */
int bench_history_print(FILE *f, const bench_history *h);
/* The one name of a history file: INSTANCE__LABEL.csv, both made file-name safe. */
void bench_history_name(const char *instance, const char *label, char *out, size_t len);
/* file-name-safe copy of s: [A-Za-z0-9._-] kept, everything else '_' */
void bench_safe_name(const char *s, char *out, size_t len);

/* ---- iterates computed elsewhere ------------------------------------------------------ */
/* Each iterate of a CSV with one iterate per line (m numbers; an optional header may name
 * `iteration' and `time_s' columns, then the others are z) is handed to fn with its
 * iteration (the line's index when absent) and time (NaN when absent); z (m entries) is
 * scratch.  0, or 1 with one error line naming file and line (score.c). */
typedef void bench_iterate_fn(void *ctx, long iteration, double time_s, const double *z);
int bench_iterates_read(const char *cmd, const char *path, int m, double *z,
                        bench_iterate_fn *fn, void *ctx);

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
 * recording run's answer; z_start (or NULL) is the warm start. */
lcp_status bench_run_solver(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                            const double *z_start, int reps, double *z, bench_result *r,
                            bench_history *h);
/* The same with a limit of `timeout' seconds (> 0; else no limit) in a forked child: past
 * it the child is killed, r->timed_out = 1 and the status is negative (no answer). */
lcp_status bench_run_limited(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                             const double *z_start, int reps, double timeout, double *z,
                             bench_result *r, bench_history *h);

#endif
