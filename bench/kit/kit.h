/* kit.h: the harness's kit, the bottom layer of bench/ (folder kit/): what every command,
 * grid and table shares, knowing nothing of suites, grids or tables (it includes no other
 * folder of bench/).
 *   registry.c  the solvers: liblcp's registry, then liblcp-peers's, as one table
 *   args.c      the one argument parser: every subcommand's flags as a table
 *   settings.c  the run settings: one table behind solve flags, suite keys, help, runs.csv
 *   util.c      clock, provenance, errors (one line each), option parsing, progress, output
 *               files and folders written whole (staging), locks, interrupted commands
 *   csv.c       the one CSV reader; history.c the residual histories
 *   report.c    CSV and Markdown writers, the figure writer and gnuplot;
 *   claims.c    claims as data with verdicts computed from the numbers; the one
 *               comparability rule of whole simulations; figures.c the convergence figures of a run
 *               folder; profile.c performance and data profiles
 * The harness computes every residual itself from (A, q, z) with lcp_residual(); it never
 * reads info.residual for its tables.
 *
 * REACHED.  A history reaches level L at its first recorded sweep k with ||r||_2 <= L
 * (equal counts).  bench_history_reach is the only place that says so.
 *
 * CSV.  A header row, then one row per record; fields quoted per RFC 4180 (bench_csv_field),
 * empty = no value, never NaN, no comment lines: pandas.read_csv(path) and csv.DictReader
 * read them without options.  Provenance goes to DIR/provenance.json, once per folder.
 *
 * CLAIMS (claims.c).  A claim is a statement of a source (or a finding of this suite) with
 * its location, the metric it is checked on, a band fixed before the run and a rule, all in a
 * table's static bench_claim_def table.  Each case (scene, seed, ...) adds numbers only; the
 * kit decides: "held", "held, qualified" (a spread crosses the band), "did not hold", "not
 * decidable" (a timing case whose value, widened by its uncertainty, reaches a band edge, or
 * one without a noise control) and "not tested".
 * They print in two lists, "Claims of the source" and "Findings of this suite", and as
 * DIR/claims.csv.  The same physical state of two whole simulations: bench_state_comparable.
 *
 * FIGURES.  bench_fig_write takes the series in memory and writes DIR/BASE.csv (the data,
 * downsampled to at most BENCH_FIG_POINTS points per series keeping the first and last
 * points and the first point at or below each decade), DIR/BASE.gp that reads only that
 * file, and runs gnuplot for BASE.png (quick look) and BASE.pdf (3.4 in wide, 8 pt text).
 * Series are told apart by colour (Okabe-Ito without yellow; black in the mono style),
 * dash type and markers every few points; series that agree within 0.1% at every point are
 * drawn once and named together in the key ("a = b").
 */
#ifndef BENCH_KIT_H
#define BENCH_KIT_H

#include "lcp.h"
#include "lcp_alloc.h" /* the library's allocation wrapper, shared by bench/ */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { BENCH_PATH = 4096 };

/* ---- solvers (registry.c): liblcp's registry, then liblcp-peers's, as one table ------ */
const lcp_solver *bench_solvers(int *count);
const lcp_solver *bench_solver_find(const char *name); /* NULL when unknown */
/* The library a solver name belongs to, by liblcp-peers's naming (siconos-, ode-, bullet-):
 * "siconos", "ode", "bullet", or "ours"; also for a peer this build was made without. */
const char *bench_solver_library(const char *name);
/* The suite's own verdict on an answer from its residual (bench/README.md, "Peer
 * statuses"): "converged" when ||r||_2 (the harness's lcp_residual) <= tol, the
 * tolerance asked, else "not-converged" (NaN too).  The status of every run of another
 * library's solver (a peer, `solver external') that gave an answer; the solver's own verdict
 * goes to peer_status. */
const char *bench_residual_status(double r2, double tol);
/* 1 when the harness judges the answers of solver NAME itself (bench_residual_status): a
 * peer library's solver (bench_solver_library is not "ours") or an external command
 * (external = 1) */
int bench_judged(const char *name, int external);

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
    double tol_asked;           /* NaN: the tol given to a solver that takes none (a direct
                                   one, `solver external'), kept for bench_residual_status */
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
/* The settings of s that solver sv does not use back to their defaults, not given (a tol
 * given is kept in tol_asked). */
void bench_settings_drop_unused(bench_settings *s, const lcp_solver *sv);
/* The tolerance asked of the run: tol_asked when a tol was given to a solver that takes
 * none, else opt.tol (default 1e-6) */
double bench_settings_tol(const bench_settings *s);
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
/* The one argument parser of the subcommands (args.c): each describes its options as a
 * table, one entry per flag, and its other words by one handler.  A handler takes the
 * option's value (NULL for a flag, or for WORDS when none follows) and returns 0, or
 * non-zero after one line on stderr. */
typedef int bench_arg_fn(const char *cmd, const char *val, void *to);
typedef enum {
    BENCH_ARG_FLAG,  /* --name: *(int *)to = 1, or fn(cmd, NULL, to) */
    BENCH_ARG_VALUE, /* --name V or --name=V: *(const char **)to = V, or fn(cmd, V, to) */
    BENCH_ARG_WORDS  /* --name W...: the words up to the next option into *(bench_words *)to */
} bench_arg_kind;
typedef struct bench_words {
    char **v; /* into argv */
    int n;
} bench_words;
typedef struct bench_arg {
    const char *name;    /* "--out" */
    bench_arg_kind kind;
    void *to;            /* where the value goes (or the handler's target) */
    bench_arg_fn *fn;    /* NULL: store as the kind says */
    const char *help;    /* one line: what it sets */
} bench_arg;
typedef struct bench_args {
    const char *cmd;          /* the subcommand, for messages */
    const bench_arg *arg;     /* the options */
    int narg;
    bench_arg_fn *word;       /* each word that is no option (instance, scene, folder) */
    void *word_to;
    /* an option no entry names (solve's settings flags): 1 taken, 0 not, -1 refused */
    int (*option)(void *to, int argc, char **argv, int *k);
    void *option_to;
    int dash;                 /* 1: a lone "-" is an unknown option, 0: a word */
} bench_args;
#define BENCH_ARGS_HELP 1
/* argv[1..argc-1] through p: 0, BENCH_ARGS_HELP at --help or -h (nothing printed), or 2
 * (usage error, one line printed) at the first argument refused. */
int bench_args_parse(const bench_args *p, int argc, char **argv);
/* handlers for the options several subcommands share: --style (bench_style *to),
 * --factor-tol (double *to) */
bench_arg_fn bench_arg_style, bench_arg_factor_tol;
#define BENCH_NARG(a) ((int)(sizeof(a) / sizeof((a)[0])))
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

/* ---- growing text (util.c) ---------------------------------------------------------------
 * A string that grows as it is written (lists for one summary line): s (NUL-terminated, n
 * bytes), NULL until the first write; failed when an allocation or a format failed (what
 * was written stays).  Freed with lcp_free(b.s). */
typedef struct bench_text {
    char *s;
    size_t n, cap;
    int failed;
} bench_text;
void bench_text_add(bench_text *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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
/* The value of key in an instance's meta.txt text (its first "key = value" line, trailing
 * blanks and CR dropped) into out; 1, or 0 with out "" when meta (NULL: none) has no such
 * line.  O(length of meta). */
int bench_meta_value(const char *meta, const char *key, char *out, size_t len);

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

/* ---- the one thread pool of the harness (jobs.c) ------------------------------------------ */
/* fn(ctx, lo, hi): the jobs lo..hi-1, writing only their own outputs */
typedef void bench_jobs_fn(void *ctx, long lo, long hi);
/* the threads to use: the online cores, at most max (max < 1: no bound but the pool's, 64) */
int bench_jobs_threads(int max);
/* Jobs 0..n-1 in chunks of `chunk', dealt in order on demand to `threads' threads (the caller
 * one of them; a thread that cannot be created leaves its share to the others); prog, when not
 * NULL, is stepped as chunks finish.  Returns the threads that ran. */
int bench_jobs_run(long n, long chunk, int threads, bench_jobs_fn *fn, void *ctx,
                   bench_progress *prog);

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
 * temporary files of bench_out_open are removed then; interrupted commands below) */
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


/* bench_provenance_file (above) of a run on nranks MPI ranks (0: none): also "ranks" and
 * "hosts", the host of each rank (hosts: nranks strings, hostlen bytes apart). */
int bench_provenance_ranks(const char *cmd, const char *path, int argc, char **argv,
                           int nranks, const char *hosts, size_t hostlen);

/* Output folder of a command: refuse a non-empty dir unless force, then create it.
 * 0, or 1 with one error line. */
int bench_out_dir(const char *cmd, const char *dir, int force);
/* bench_out_open / bench_out_commit that print their one error line: the FILE or NULL;
 * 0 or 1. */
FILE *bench_open(const char *cmd, bench_out *o, const char *path, int force);
int bench_close(const char *cmd, bench_out *o);

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

/* The same records one at a time (memory: one record), for files larger than memory:
 * bench_csv_next reads the next record into field[0..nfield-1] (valid until the next call)
 * and returns nfield, 0 at the end of the file, or -1 with msg naming the file (and line).
 * line: the line the record starts on. */
typedef struct bench_csv_stream {
    FILE *f;
    const char *path;
    char *buf;        /* the record's text (getline's buffer) */
    size_t cap;
    char **field;
    size_t fcap;
    int nfield, line, lines;
    long records;
} bench_csv_stream;
int bench_csv_stream_open(bench_csv_stream *S, const char *path, char *msg, size_t msglen);
int bench_csv_next(bench_csv_stream *S, char *msg, size_t msglen);
void bench_csv_stream_close(bench_csv_stream *S);

/* DIR/runs.csv of a run folder; 0, or 1 with one error line */
int bench_read_runs(const char *cmd, const char *dir, bench_csv *T);
/* Open DIR/FILE (a Markdown result) and write "# TITLE" and the provenance in a text
 * block; the FILE or NULL (error line printed) */
FILE *bench_md_open(const char *cmd, bench_out *o, const char *dir, const char *file,
                    int force, const char *title, int argc, char **argv);

/* ---- gnuplot ------------------------------------------------------------------------------ */

/* Run `gnuplot script' in folder dir.  0 ok; 1 gnuplot missing (warned once on stderr);
 * -1 gnuplot could not be started, -2 it failed on the script (one line each). */
int bench_gnuplot(const char *cmd, const char *dir, const char *script);
/* Redraw the convergence figures of a run folder (DIR/plots/). 0 ok, 1 on failure. */
int bench_plot_dir(const char *cmd, const char *dir, int quiet);
/* gnuplot string literal of s (quotes and backslashes escaped) into out */
void bench_gp_quote(const char *s, char *out, size_t len);


/* ---- histories ----------------------------------------------------------------------------- */

/* Read a history CSV (iteration,residual[,residual_inf][,time_s]) into h (zeroed first; free
 * with bench_history_free).  0, or -1 with msg. */
int bench_history_read(const char *path, bench_history *h, char *msg, size_t msglen);
/* DIR/history/FILE of a run folder: 0; 1 when file is "" (the run kept no history); -1 when
 * it cannot be read (missing, malformed, out of memory), with msg */
int bench_history_load(const char *dir, const char *file, bench_history *h, char *msg,
                       size_t msglen);
/* first recorded sweep with ||r||_2 <= level, -1 when never */
int bench_history_reach(const bench_history *h, double level);
/* smallest recorded ||r||_2 (NaN when empty) */
double bench_history_min(const bench_history *h);

/* ---- CSV and Markdown writers --------------------------------------------------------------- */

typedef struct bench_csvw {
    bench_out o;
    int col;          /* fields written in the current row */
} bench_csvw;

/* Open DIR/FILE and write the header (ncol names).  0, or 1 with one error line. */
int bench_csvw_open(bench_csvw *w, const char *cmd, const char *dir, const char *file,
                    int force, int ncol, const char *const *head);
void bench_csvw_str(bench_csvw *w, const char *s);
void bench_csvw_num(bench_csvw *w, double v, const char *fmt);   /* empty when not finite */
void bench_csvw_int(bench_csvw *w, long v);
void bench_csvw_end(bench_csvw *w);                               /* ends the row */
int bench_csvw_close(bench_csvw *w, const char *cmd);            /* 0, or 1 with one line */

/* "fmt" of v into b, or "-" when v is not finite; returns b */
const char *bench_fmt(char *b, size_t n, double v, const char *fmt);
/* Markdown table: header row with alignments ("l" or "r" per column), then rows */
void bench_md_head(FILE *f, int ncol, const char *const *head, const char *align);
void bench_md_row(FILE *f, int ncol, const char *const *cell);

/* ---- claims (claims.c) --------------------------------------------------------------------
 * A table states its claims in one file-scope `static const bench_claim_def' table and hands
 * the kit numbers only; the kit decides (the rule in claims.c's header and bench/README.md,
 * "Claims and verdicts"). */

typedef enum bench_claim_kind { BENCH_SOURCE = 0, BENCH_FINDING = 1 } bench_claim_kind;
typedef enum bench_verdict {
    BENCH_NOT_TESTED = 0, BENCH_HELD, BENCH_QUALIFIED, BENCH_NOT_HELD, BENCH_UNDECIDABLE
} bench_verdict;
typedef enum bench_rule {
    BENCH_RULE_EACH = 0,   /* every case (or `need' of them) in its band */
    BENCH_RULE_TIMED       /* the same, its cases timings: a case is decided only when its value,
                              widened by its uncertainty, clears every band edge */
} bench_rule;

/* The run-to-run allowance of a timing case (bench/README.md, "Claims and verdicts"): the
 * relative factor a in "a timing ratio v of one quiet run may be anywhere in [v/(1+a),
 * v(1+a)] in the next".  A timing case's uncertainty is the larger of a and its noise
 * control's half-width; the case is decided only when the widened value lies wholly on one
 * side of every band edge.  Chosen from two regenerations of every result set at identical
 * code on the same idle 2-core machine (results at commits 93890c8 and 8dd6e00): over the 124
 * timing cases the claims decide on, the relative change of the value was 7% at the median,
 * 28% at most on a median over repetitions (amgs-table2-suite), 38% on ode's single time
 * ratios and 100% at most (peers: siconos-lemke over ldlt-ref on stack-150-mu0, 80 then 160,
 * the peer's own time 3.8 ms then 8.3 ms).  The allowance covers the largest: with a >= the
 * largest change, a case decided in one run is decided the same way or not decidable in the
 * next, never the opposite. */
#define BENCH_TIMING_ALLOWANCE 1.0
/* for a timing claim's `changed': what the allowance changed */
#define BENCH_TIMING_CHANGED "a timing case is now decided only where its value clears every " \
    "band edge by the larger of its noise control's half-width and the run-to-run allowance " \
    "of a factor 2 (two quiet regenerations at the same code moved timing ratios by up to 2x " \
    "and flipped 11 verdicts under the noise control alone)"

enum { BENCH_NBAND = 4 };
typedef struct bench_band { double lo, hi; } bench_band;   /* lo <= v <= hi */

typedef struct bench_claim_def {
    const char *id;          /* short, unique in the table: "t1-half" */
    bench_claim_kind kind;
    const char *source;      /* source and section: "Miyamoto et al. 2019, Sec. 5.1, Table 1" */
    const char *quote;       /* the source's sentence, quoted (a finding: its statement) */
    const char *metric;      /* the quantity checked */
    const char *band;        /* the band(s), in words, fixed before the run */
    bench_rule rule;
    int need;                /* 0: every case; k > 0: at least k cases (an existence claim) */
    bench_band b[BENCH_NBAND]; /* b[0]: the band of bench_claim_value/spread/timed */
    const char *changed;     /* NULL, or which verdict changed from the previous version, why */
} bench_claim_def;

typedef struct bench_claim {
    const bench_claim_def *def;
    /* filled by the cases: */
    int ncase, npass, nfail, nmissing, nundec;
    int nqual;               /* cases held on their median whose spread crosses the band */
    int ntimed;              /* timing cases */
    char numbers[1024];      /* "pool 0.88; stack 0.50 (no)" */
    char reason[256];        /* why not tested */
    char undec[256];         /* the first undecided case and why */
} bench_claim;

/* One case's numbers: a value (n = 0), or the median over n >= 1 instances with min and
 * max, and for a timing claim its noise control: the [min, max] of the same method measured
 * against itself the same way (NaN: none).  A case is a timing case when it carries a noise
 * control or its claim's rule is TIMED; its value is a ratio of times (> 0), or an exponent
 * added by bench_claim_slope. */
typedef struct bench_obs {
    double v, min, max;
    int n;
    double noise[2];
} bench_obs;

/* c[j] for d[j], no case yet */
void bench_claims_init(bench_claim *c, const bench_claim_def *d, int n);
/* one case checked on band b of the definition; NaN value: a case that was not measured */
void bench_claim_add(bench_claim *c, int b, const char *label, const bench_obs *o,
                     const char *fmt);
/* one number on band 0 (bench_claim_in: on band b) */
void bench_claim_value(bench_claim *c, const char *label, double v, const char *fmt);
void bench_claim_in(bench_claim *c, int b, const char *label, double v, const char *fmt);
/* a yes/no fact as the number 1 or 0 on band b (printed yes or no) */
void bench_claim_flag(bench_claim *c, int b, const char *label, int yes);
/* min, median, max of the finite values of v[0..n) into s[3]; returns how many were finite
 * (s NaN when none) */
int bench_spread(const double *v, int n, double s[3]);
/* the median and spread of v[0..n) as a case (no noise control) */
bench_obs bench_obs_spread(const double *v, int n);
/* one case over several instances (seeds x steps): the median on band 0, qualified when the
 * spread crosses it; the numbers read "label median [min, max] (n)" */
void bench_claim_spread(bench_claim *c, const char *label, const double *v, int n,
                        const char *fmt);
/* a timing case: the spread of v and, as its noise control, the [min, max] of noise[0..nn) */
void bench_claim_timed(bench_claim *c, const char *label, const double *v, int n,
                       const double *noise, int nn, const char *fmt);
/* a timing case whose value p is a log-log slope (an exponent) of times fitted over sizes
 * spanning the factor span (> 1), with its standard error se: its uncertainty is the larger
 * of se and log(1 + BENCH_TIMING_ALLOWANCE) / log(span) (the allowance on the time ratio over
 * the span), either side of p */
void bench_claim_slope(bench_claim *c, int b, const char *label, double p, double se,
                       double span, const char *fmt);
/* text beside the numbers that decides nothing */
void bench_claim_note(bench_claim *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* a case that could not be measured (the reason, once) */
void bench_claim_missing(bench_claim *c, const char *reason);
/* the whole claim is not tested by this table, and why */
void bench_claim_untested(bench_claim *c, const char *reason);
bench_verdict bench_claim_verdict(const bench_claim *c);
/* held, held, qualified, did not hold, not decidable, not tested */
const char *bench_verdict_str(bench_verdict v);
/* the rule in words into b ("at least 2 cases in the band"); returns b */
const char *bench_rule_str(const bench_claim_def *d, char *b, size_t n);
/* "## Claims of the source" and "## Findings of this suite" (Markdown) */
void bench_claims_md(FILE *f, const bench_claim *c, int n);
/* DIR/claims.csv: id,kind,source,statement,metric,threshold,verdict,numbers,reason,rule,
 * changed (statement: the quoted sentence; threshold: the band) */
int bench_claims_csv(const char *cmd, const char *dir, int force, const bench_claim *c, int n);

/* ---- the same physical state (claims.c) ------------------------------------------------------
 * One rule for every whole-simulation table (bench/README.md, "The same physical state"):
 * x is comparable with the reference ref when
 *   |KE_x - KE_ref| <= BENCH_STATE_KE_REL max(KE_x, KE_ref) + BENCH_STATE_KE_FLOOR E,
 *     E = sum over bodies of m |g| r, the energy of lifting every body by its radius (two
 *     piles at rest differ by less than the floor however small their energies);
 *   the centres of mass' heights within BENCH_STATE_HEIGHT r;
 *   the mean contacts per step within BENCH_STATE_CONTACTS (relative);
 *   and a stack stands in both or in neither.
 * A non-finite kinetic energy (a diverged run) is never comparable. */
#define BENCH_STATE_KE_REL 0.5
#define BENCH_STATE_KE_FLOOR 1e-3
#define BENCH_STATE_HEIGHT 0.5
#define BENCH_STATE_CONTACTS 0.10
typedef struct bench_state {
    double ke;          /* kinetic energy at the end (J) */
    double height;      /* centre of mass's height against gravity at the end (m) */
    double contacts;    /* contacts per step, mean over the steps */
    int stands;         /* a stack: 1 stands, 0 fell; -1 not a stack */
    double escale;      /* E = sum m |g| r (J) */
    double r;           /* the scene's body radius (m) */
} bench_state;
/* 1 or 0; the reason for 0 into why */
int bench_state_comparable(const bench_state *x, const bench_state *ref, char *why, size_t n);
/* the rule in one Markdown sentence, the same in every table */
void bench_state_rule_md(FILE *f);

/* ---- figures ------------------------------------------------------------------------------ */

typedef enum bench_style { BENCH_STYLE_PAPER = 0, BENCH_STYLE_MONO } bench_style;
/* "paper" or "mono"; 0, or -1 with one error line (cmd: --style: ...) */
int bench_style_parse(const char *cmd, const char *s, bench_style *style);

enum { BENCH_FIG_POINTS = 250 };

typedef enum bench_fig_kind {
    BENCH_FIG_LINES = 0,   /* lines with a marker every few points */
    BENCH_FIG_MARKS,       /* lines with a marker on every point (short series) */
    BENCH_FIG_BOXES,       /* histogram bars (the first series; the others as markers) */
    BENCH_FIG_STEPS        /* step functions (profiles) */
} bench_fig_kind;

typedef struct bench_series {
    const char *title;     /* key entry */
    int n;
    const double *x, *y;   /* n points; non-finite y (or y <= 0 on a log axis) are gaps */
    int points;            /* 1: markers only (marks on a histogram or a line plot) */
} bench_series;

typedef struct bench_fig {
    const char *base;              /* DIR/BASE.{csv,gp,png,pdf} */
    const char *title;             /* PNG only (a paper's caption replaces it) */
    const char *xlabel, *ylabel;   /* what is plotted, with units */
    int logx, logy;
    bench_fig_kind kind;
    double hline;                  /* > 0: a horizontal line (the tolerance) */
    const char *hline_title;       /* its key entry */
    const char *key;               /* key position inside the plot (NULL: the corner with
                                      the fewest data points) */
    int label_points;              /* 1: markers-only series are named beside their marker,
                                      not in the key */
    const char *extra;             /* more gnuplot commands (arrows, labels) or NULL */
    double xmin, xmax;             /* NaN: fitted to the data */
    int ns;
    const bench_series *s;
} bench_fig;

/* initialise F (every field zero, ranges NaN) */
void bench_fig_init(bench_fig *F);
/* Write the data, the script and the images.  0; 1 gnuplot missing (warned once by
 * bench_gnuplot; script and data kept); -2 gnuplot failed on the script (a warning line,
 * script and data kept); -1 failure (out of memory, a file not written: one error line). */
int bench_fig_write(const char *cmd, const char *dir, const bench_fig *F, bench_style style);
/* groups of coincident series: grp[i] = the first series that series i coincides with
 * (i itself when none); exposed for the tests */
void bench_fig_groups(const bench_fig *F, int *grp);


/* ---- profiles (profile.c) ------------------------------------------------------------------- */

/* Dolan-More ratios in place: v (np x ns, row p = instance) holds costs, non-finite = failed;
 * each becomes log2(max(cost, floor) / the instance's best), +inf for failures and for every
 * setting of an instance that none solved. */
void bench_profile_ratios(int np, int ns, double *v, double floor_cost);
/* The step functions F_s(x) = #{p : v[p,s] <= x} / np of the ns settings (label[s]) at their
 * breakpoints (every finite value, and the largest plus pad) as figure DIR/BASE.  0, or 1
 * after one error line; *missing = 1 when gnuplot is absent. */
int bench_profile_figure(const char *cmd, const char *dir, const char *base, int np, int ns,
                         const char *const *label, const double *v, double pad,
                         const char *title, const char *xlabel, bench_style style,
                         int *missing);

/* ---- convergence figures (figures.c) ---------------------------------------------------- */
int bench_plot_dir_style(const char *cmd, const char *dir, int quiet, bench_style style);

#endif
