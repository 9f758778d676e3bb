/* bench.h: what the lcpbench subcommands share: timing, provenance, progress, output
 * folders, and the measured run of one solver on one instance (design.md section 7).
 *
 * The harness computes every residual itself from (A, q, z) with lcp_residual(); it never
 * reads info.residual for its tables. */
#ifndef BENCH_H
#define BENCH_H

#include "lcp.h"

#include <stdio.h>

/* ---- subcommands: int cmd(int argc, char **argv), argv[0] = subcommand name ---------- */
typedef int bench_cmd_fn(int argc, char **argv);
bench_cmd_fn bench_cmd_list, bench_cmd_solve;
bench_cmd_fn bench_cmd_capture, bench_cmd_simulate;
bench_cmd_fn bench_cmd_run, bench_cmd_plot, bench_cmd_profile, bench_cmd_table, bench_cmd_check;
bench_cmd_fn bench_cmd_score, bench_cmd_convert;
void bench_list_tables(FILE *f); /* names and one line each (table.c) */
void bench_list_suites(FILE *f); /* built-in suites of lcpbench run (suite.c) */

/* ---- option parsing ------------------------------------------------------------------ */
/* 1 when argv[*k] is `--name value' (consumes the value) or `--name=value'; *val set.
 * -1 (message printed) when the value is missing. 0 when argv[*k] is another option. */
int bench_opt(int argc, char **argv, int *k, const char *name, const char **val);
/* strict number parsing; on failure prints "lcpbench CMD: --opt: 'text' is not ..." */
int bench_parse_double(const char *cmd, const char *opt, const char *s, double *out);
int bench_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
/* one error line on stderr: "lcpbench CMD: ..." */
void bench_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- clock and provenance -------------------------------------------------------------- */
double bench_now(void); /* monotonic seconds (CLOCK_MONOTONIC) */
/* "# key: value" lines: tool version, git revision, compiler and flags, CPU, library
 * versions, date, command line (argv may be NULL).  For Markdown results; CSV files carry
 * no comment lines (they read with any CSV reader without options). */
void bench_provenance(FILE *f, int argc, char **argv);
/* The same facts as DIR/provenance.json (written atomically, replacing an older one): one
 * per output folder.  0, or 1 with one error line. */
int bench_provenance_json(const char *cmd, const char *dir, int argc, char **argv);
/* One CSV field, quoted per RFC 4180 when it holds a comma, a quote, CR or LF. */
void bench_csv_field(FILE *f, const char *s);

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
} bench_out;
int bench_out_open(bench_out *o, const char *path, int force, char *msg, size_t msglen);
int bench_out_commit(bench_out *o, int ok, char *msg, size_t msglen);

/* ---- residual history -------------------------------------------------------------------- */
typedef struct bench_history {
    int n, cap;
    int *iter;      /* iteration number */
    double *r2;     /* ||r||_2 (harness-computed) */
    double *rinf;   /* ||r||_inf */
    double *t;      /* solve time up to this iterate, recording time excluded */
} bench_history;
void bench_history_free(bench_history *h);
/* iteration,residual,residual_inf,time_s with provenance */
int bench_history_write(const bench_history *h, const char *path, int force, char *msg,
                        size_t msglen);

/* ---- one measured run ---------------------------------------------------------------------- */
typedef struct bench_result {
    lcp_status status;       /* the solver's status */
    lcp_info info;           /* the solver's info (work units, parameters used) */
    lcp_residuals res;       /* harness-computed at the final z */
    double zdiff, wdiff;     /* distance to the reference, NaN without zref */
    int iterations;          /* sweeps of the recording run */
    double t_median, t_min;  /* timing runs (seconds), NaN when reps == 0 */
} bench_result;

/* Recording run (monitor on, history into h when h != NULL) then 1 warm-up and `reps'
 * timing runs with the monitor off, tol < 0 and max_iter = the recorded iterations.
 * z (m entries) receives the recording run's answer; z_start (or NULL) is the warm start. */
lcp_status bench_run_solver(const lcp_problem *P, const lcp_solver *s, const lcp_options *opt,
                            const double *z_start, int reps, double *z, bench_result *r,
                            bench_history *h);

#endif
