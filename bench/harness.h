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
 * Every CSV starts with bench_provenance "# " lines.
 */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include "bench.h"

#include <stddef.h>

/* ---- suites ------------------------------------------------------------------------------ */

enum { BENCH_LABEL = 96, BENCH_PATH = 4096 };

typedef struct bench_spec {    /* one `solver' line: a solver and its settings */
    char label[BENCH_LABEL];   /* unique in the suite; legend and file name */
    const lcp_solver *solver;
    lcp_options opt;           /* lcp_options_default + set/line keys */
    char omega_text[32];       /* as given ("" = default, "auto") */
    int beta_given, gamma_given, omega_given;
    int reps;                  /* 5: timing repetitions after one warm-up */
    int plot;                  /* 1: drawn in the convergence figures */
    int block;                 /* grid block (`grid' statements); runs pair equal blocks */
} bench_spec;

typedef struct bench_inst {    /* one instance of the grid */
    char name[BENCH_LABEL];    /* unique in the suite */
    char path[BENCH_PATH];     /* instance folder */
    const char *ref;           /* NULL or the solver that gives zref when zref.mtx is absent */
    int block;                 /* grid block */
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

/* Run every instance x spec, writing DIR/runs.csv and DIR/history/.  Returns 0 when every
 * run is usable, 1 when a run failed or a file could not be written (one line each). */
int bench_grid_run(const char *cmd, const bench_suite *S, const char *dir, int force,
                   int quiet, int argc, char **argv);

/* Parse suite text (scene lines capture into DIR/instances), run it into DIR and draw its
 * convergence figures quietly: what the tables share.  0, 1 (a run or file failed) or 2. */
int bench_run_text(const char *cmd, const char *text, const char *name, const char *dir,
                   int force, int argc, char **argv);

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

/* 1 when dir exists and holds an entry besides . and .. */
int bench_dir_nonempty(const char *dir);
/* file-name-safe copy of s: [A-Za-z0-9._-] kept, everything else '_' */
void bench_safe_name(const char *s, char *out, size_t len);

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
 * -1 gnuplot failed (warned). */
int bench_gnuplot(const char *cmd, const char *dir, const char *script);
/* Redraw the convergence figures of a run folder (DIR/plots/). 0 ok, 1 on failure. */
int bench_plot_dir(const char *cmd, const char *dir, int quiet);
/* gnuplot string literal of s (quotes and backslashes escaped) into out */
void bench_gp_quote(const char *s, char *out, size_t len);

#endif
