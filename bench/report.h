/* report.h: the report kit that every table, `plot', `profile' and `check' share: one
 * reader of residual histories with one definition of "reached a level", plain CSV and
 * Markdown writers, claims as data with verdicts computed from the numbers, the figure
 * writer (styles for print), and the table registry's types.
 *
 * REACHED.  A history reaches level L at its first recorded sweep k with ||r||_2 <= L
 * (equal counts).  bench_history_reach is the only place that says so.
 *
 * CSV.  A header row, then one row per record; fields quoted per RFC 4180 (bench_csv_field),
 * empty = no value, never NaN, no comment lines: pandas.read_csv(path) and csv.DictReader
 * read them without options.  Provenance goes to DIR/provenance.json, once per folder.
 *
 * CLAIMS.  A claim is a statement of a source (or a finding of this suite) with its location,
 * the metric it is checked on and a threshold fixed in the code before the run.  Each case
 * (scene, seed, ...) adds one number; the verdict follows from the cases: "did not hold" when
 * a case fails, "not tested" (with the reason) when a case could not be measured or there is
 * none, else "held" - qualified when a case held on the median of its instances while their
 * spread crossed the band (bench_claim_spread; rule: one instance is not evidence).  They print in two lists, "Claims of the source" and "Findings of this
 * suite", and as DIR/claims.csv.
 *
 * FIGURES.  bench_fig_write takes the series in memory and writes DIR/BASE.csv (the data,
 * downsampled to at most BENCH_FIG_POINTS points per series keeping the first and last
 * points and the first point at or below each decade), DIR/BASE.gp that reads only that
 * file, and runs gnuplot for BASE.png (quick look) and BASE.pdf (3.4 in wide, 8 pt text).
 * Series are told apart by colour (Okabe-Ito without yellow; black in the mono style),
 * dash type and markers every few points; series that agree within 0.1% at every point are
 * drawn once and named together in the key ("a = b").
 */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include "harness.h"

#include <stdarg.h>

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

/* ---- claims ------------------------------------------------------------------------------- */

typedef enum bench_claim_kind { BENCH_SOURCE = 0, BENCH_FINDING = 1 } bench_claim_kind;
typedef enum bench_verdict { BENCH_NOT_TESTED = 0, BENCH_HELD, BENCH_NOT_HELD } bench_verdict;

typedef struct bench_claim {
    const char *id;          /* short, unique in the table: "t1-half" */
    bench_claim_kind kind;
    const char *source;      /* "Miyamoto et al. 2019, Sec. 5.1, Table 1" */
    const char *statement;   /* quoted or closely paraphrased */
    const char *metric;      /* the quantity checked */
    const char *threshold;   /* fixed before the run, in words ("ratio in [0.35, 0.65]") */
    double lo, hi;           /* bench_claim_value passes when lo <= v <= hi */
    /* filled by the cases: */
    int ncase, nfail, nmissing;
    int nqual;               /* cases held on their median whose spread crosses the band */
    char numbers[1024];      /* "pool 0.88; stack 0.50 (no)" */
    char reason[256];        /* why not tested */
} bench_claim;

/* one case whose pass/fail the table decided; the text is appended to numbers */
void bench_claim_case(bench_claim *c, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* one case checked as lo <= v <= hi (NaN = a case that could not be measured) */
void bench_claim_value(bench_claim *c, const char *label, double v, const char *fmt);
/* min, median, max of the finite values of v[0..n) into s[3]; returns how many were finite
 * (s NaN when none) */
int bench_spread(const double *v, int n, double s[3]);
/* one case over several instances (seeds x steps): checked on the median (lo <= median <= hi)
 * and qualified when the spread (min, max) crosses the band; the numbers read "label median
 * [min, max] (n)".  No finite value: a case that could not be measured. */
void bench_claim_spread(bench_claim *c, const char *label, const double *v, int n,
                        const char *fmt);
/* a case that could not be measured (the reason, once) */
void bench_claim_missing(bench_claim *c, const char *reason);
/* the whole claim is not tested by this table, and why */
void bench_claim_untested(bench_claim *c, const char *reason);
bench_verdict bench_claim_verdict(const bench_claim *c);
const char *bench_verdict_str(bench_verdict v);   /* held, did not hold, not tested */
/* "## Claims of the source" and "## Findings of this suite" (Markdown) */
void bench_claims_md(FILE *f, const bench_claim *c, int n);
/* DIR/claims.csv: id,kind,source,statement,metric,threshold,verdict,numbers,reason */
int bench_claims_csv(const char *cmd, const char *dir, int force, const bench_claim *c, int n);

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

/* the tables (one file each, registered in table.c) */
bench_table_fn bench_table_amgs1, bench_table_amgs2, bench_table_amgs_figures,
    bench_table_reorder, bench_table_spook_pgs, bench_table_ode, bench_table_transversal,
    bench_table_amgs_regime, bench_table_reorder_sim,
    bench_table_peers;

/* a worker rank's side of reorder's orderings under mpirun: the job's payload (the instance
 * folder); 0, or 1 on failure */
int bench_reorder_serve(const bench_mpi *m, const char *payload, size_t len);

/* The Markdown result of a table: "# TITLE", provenance, and the variant line.  The FILE
 * or NULL (error line printed). */
FILE *bench_table_md(const bench_table_ctx *t, bench_out *o, const char *file,
                     const char *title);
/* The runs of a suite text into t->out (bench_run_text) and their convergence figures in
 * t->style: 0, 1 (a run or file failed) or 2 (bad suite text). */
int bench_table_runs(const bench_table_ctx *t, const char *text, const char *name);
/* row of runs.csv with this instance and label, -1 when absent */
int bench_runs_find(const bench_csv *T, const char *inst, const char *label);

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

/* ---- convergence figures (plot.c) ------------------------------------------------------- */
int bench_plot_dir_style(const char *cmd, const char *dir, int quiet, bench_style style);

/* ---- whole simulations shared by amgs-table2 and amgs-figures (table_amgs2.c) ------------ */
typedef struct bench_sim_out {
    double t_solve;       /* seconds, sum over steps of the stepper's timed solver call */
    long sweeps;          /* sum over steps */
    int steps;            /* done */
    int steps_rows;       /* steps that had rows to solve */
    double last_res;      /* ||r||_2 of the last step */
    /* the physical state (README, "The AMGS family"): */
    double ke_end;        /* kinetic energy after the last step (J) */
    int contacts_end;     /* contacts of the last step */
    double contacts_mean; /* contacts per step, mean over the steps */
    double pen_max;       /* max penetration over the second half of the steps (m) */
    int stands;           /* stack: 1 when every disk is within r/2 of its initial x, the
                             top disk within r/2 of its initial height and the kinetic energy
                             below 1% of sum m g r (at rest); -1: not a stack */
} bench_sim_out;
/* Step `scene' for `steps' steps with `solver' (amgs-D: beta, gamma 1) at `iters' sweeps per
 * step and tolerance tol (< 0: a fixed `iters' sweeps, no residual test); res (steps entries,
 * or NULL) receives ||r||_2 per step (NaN: no rows).  0, or -1 with msg. */
int bench_sim_run(const char *scene, const char *solver, double beta, int steps, int iters,
                  double tol, double *res, bench_sim_out *o, char *msg, size_t msglen);
/* Rule 4 of amgs-table2: is state x physically comparable with the reference state ref?
 * Kinetic energies within a factor BENCH_SIM_KE_FACTOR (or both below BENCH_SIM_KE_REST J),
 * mean contacts within BENCH_SIM_CONTACTS (relative), and the same `stands'.  1 or 0; the
 * reason for 0 into why. */
#define BENCH_SIM_KE_FACTOR 10.0
#define BENCH_SIM_KE_REST 1e-4
#define BENCH_SIM_CONTACTS 0.10
int bench_sim_comparable(const bench_sim_out *x, const bench_sim_out *ref, char *why,
                         size_t n);

#endif
