/* figures.c: the convergence figures of a run folder, drawn from DIR/runs.csv and its
 * histories (DIR/history/, or DIR itself for a folder of `lcpbench solve --history DIR')
 * with the report kit's figure writer (report.c), and the Markdown file opener the tables
 * share.
 *
 * For every instance of runs.csv, two figures in DIR/plots/, each with its data and script:
 *     INSTANCE-iter.{csv,gp,png,pdf}   ||r||_2 against sweep, all runs with plot = 1
 *     INSTANCE-time.{csv,gp,png,pdf}   ||r||_2 against solve time
 * log-scale residual axis, the tolerance as a horizontal line when the runs share one.  A
 * residual of exactly 0 is drawn at a floor one decade below the smallest positive value of
 * the figure, the axis labelled "0 (exact)" there; a run without a history (a peer's, a
 * failed run) is a marker at its final residual named "no history" in the key, or a note
 * line under the plot.  The scripts read only their own .csv, so `gnuplot INSTANCE-iter.gp'
 * in a copy of plots/ rebuilds a figure.  Without gnuplot the scripts are written and one
 * warning line says so.
 * Cost: linear in runs.csv and the histories; gnuplot once per figure.
 */
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

FILE *bench_md_open(const char *cmd, bench_out *o, const char *dir, const char *file,
                    int force, const char *title, int argc, char **argv)
{
    char path[BENCH_PATH + 256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = bench_open(cmd, o, path, force);
    if (!f) return NULL;
    fprintf(f, "# %s\n\n```text\n", title);
    bench_provenance(f, argc, argv);
    fprintf(f, "```\n\n");
    return f;
}

/* ---- convergence figures ------------------------------------------------------------------ */

/* the tolerance shared by the listed runs (their tol column), 0 when they differ */
static double common_tol(const bench_csv *T, const int *rows, int n)
{
    int ct = bench_csv_col(T, "tol");
    double tol = n ? bench_csv_num(T, rows[0], ct) : NAN;
    for (int k = 1; k < n; k++)
        if (bench_csv_num(T, rows[k], ct) != tol) return 0;
    return isfinite(tol) && tol > 0 ? tol : 0;
}

/* The history of a row: DIR/history/FILE in a folder of `lcpbench run', DIR/FILE in one of
 * `lcpbench solve --history DIR' (which has no history/: its runs.csv lies beside the
 * histories).  bench_history_load's codes: 0, 1 no history named, -1 with msg. */
static int load_history(const char *dir, const char *file, bench_history *h, char *msg,
                        size_t msglen)
{
    char path[BENCH_PATH + 300];
    struct stat st;
    snprintf(path, sizeof path, "%s/history", dir);
    if (!*file || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return bench_history_load(dir, file, h, msg, msglen);
    memset(h, 0, sizeof *h);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return bench_history_read(path, h, msg, msglen);
}

/* A residual of exactly 0 (a direct solver's answer) has no place on a log axis: it is drawn
 * at the floor, one decade below the smallest positive value of the figure (the tolerance
 * line included; 1e-17 when nothing is positive), so no positive value is ever moved.  The
 * floor; *top the largest value drawn (the floor when none is positive). */
static double zero_floor(const bench_series *S, int ns, double hline, double *top)
{
    double lo = hline > 0 ? hline : INFINITY, hi = hline > 0 ? hline : 0;
    for (int i = 0; i < ns; i++)
        for (int k = 0; k < S[i].n; k++) {
            double v = S[i].y[k];
            if (v > 0 && v < lo) lo = v;
            if (v > hi && isfinite(v)) hi = v;
        }
    double fl = isfinite(lo) ? pow(10.0, floor(log10(lo) + 1e-9) - 1) : 1e-17;
    *top = hi > fl ? hi : fl;
    return fl;
}

/* the y tics of a figure drawn with a floor, into out: powers of ten every `step' decades
 * (at most 6 intervals from the floor to the top decade), none within half a step above
 * the floor, and the floor itself labelled "0 (exact)" in place of its power of ten */
static size_t floor_tics(char *out, size_t len, double fl, double top)
{
    static const int steps[] = {1, 2, 5, 10, 20, 50, 100};
    int lo = (int)lround(log10(fl)), hi = (int)ceil(log10(top) - 1e-9), step = 100;
    for (int k = 0; k < 7; k++)
        if (hi - lo <= 6 * steps[k]) {
            step = steps[k];
            break;
        }
    size_t at = (size_t)snprintf(out, len, "set ytics (");
    for (int d = hi - ((hi % step) + step) % step; d > lo && at < len; d -= step)
        if (2 * (d - lo) >= step)
            at += (size_t)snprintf(out + at, len - at, "\"1e%d\" 1e%d, ", d, d);
    if (at < len) at += (size_t)snprintf(out + at, len - at, "\"0 (exact)\" %.0e)\n", fl);
    return at < len ? at : len;
}

enum { NOTE_WIDTH = 60 };   /* characters in a line under a 3.4 in plot at 8 pt */
typedef char note_line[BENCH_LABEL + 96];

/* the note lines under the plot as gnuplot labels (the first just under the axis) and the
 * bottom margin they need, appended to extra at el (elen bytes); the new length */
static size_t note_labels(char *extra, size_t el, size_t elen, const note_line *note, int notes)
{
    for (int j = 0; j < notes && el < elen; j++) {
        char q[2 * sizeof note[0] + 8];
        bench_gp_quote(note[j], q, sizeof q);
        el += (size_t)snprintf(extra + el, elen - el, "set label %s at character 1, %.2f "
                               "left front\n", q, 0.7 + 1.2 * (notes - 1 - j));
    }
    if (notes && el < elen)
        el += (size_t)snprintf(extra + el, elen - el, "set bmargin %.1f\n", 3.2 + 1.2 * notes);
    return el;
}

/* one warning line for an instance none of whose runs can be drawn, naming them */
static void warn_nothing(const char *cmd, const char *inst, const bench_csv *T, const int *bare,
                         int nb)
{
    char msg[4400];
    int cl = bench_csv_col(T, "label"), cs = bench_csv_col(T, "status");
    size_t ml = (size_t)snprintf(msg, sizeof msg, "warning: %s: no figure, no run has a "
                                 "history or a final residual:", inst);
    for (int b = 0; b < nb && ml < sizeof msg; b++)
        ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "%s %s (%s)", b ? "," : "",
                               bench_csv_get(T, bare[b], cl), bench_csv_get(T, bare[b], cs));
    bench_error(cmd, "%s", msg);
}

/* exact zeros (and below) of the drawn values sy of the ns series set to the floor fl;
 * 1 when there was one */
static int at_floor(const bench_series *S, double **sy, int ns, double fl)
{
    int zero = 0;
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < S[i].n; j++)
            if (sy[i][j] <= 0) {
                sy[i][j] = fl;
                zero = 1;
            }
    return zero;
}

/* The runs without a history in figure xi (0: against sweeps, 1: against time): a marker
 * at its final residual (x: its iterations or time_s) named "LABEL: no history" in the key,
 * appended to S and sy after ns series (bx, by, name: one slot per run); or, without a
 * final residual (or a time), named in the note lines under the plot ("no history, not
 * drawn: LABEL (STATUS), ...").  The new ns; *notes the note lines. */
static int bare_runs(const bench_csv *T, const int *bare, int nb, int xi, double *bx,
                     double *by, char (*name)[BENCH_LABEL + 64], note_line *note, int *notes,
                     bench_series *S, double **sy, int ns)
{
    int cs = bench_csv_col(T, "status"), cr = bench_csv_col(T, "residual");
    int ci = bench_csv_col(T, "iterations"), ct = bench_csv_col(T, "time_s");
    int cl = bench_csv_col(T, "label");
    int nn = 0;
    for (int b = 0; b < nb; b++) {
        const char *lab = bench_csv_get(T, bare[b], cl), *st = bench_csv_get(T, bare[b], cs);
        double r = bench_csv_num(T, bare[b], cr), v = bench_csv_num(T, bare[b], xi ? ct : ci);
        if (r >= 0 && isfinite(r) && isfinite(v)) {  /* a marker, named in the key */
            bx[b] = v;
            by[b] = r;
            snprintf(name[b], sizeof name[b], "%s: no history", lab);
            sy[ns] = &by[b];
            S[ns++] = (bench_series){name[b], 1, &bx[b], &by[b], 1};
            continue;
        }
        char item[BENCH_LABEL + 40];                /* no point: named under the plot */
        snprintf(item, sizeof item, "%s (%s)", lab,
                 r >= 0 && isfinite(r) ? "no time" : *st ? st : "no result");
        size_t ll = nn ? strlen(note[nn - 1]) : 0;
        if (nn && ll + strlen(item) + 2 <= NOTE_WIDTH)
            snprintf(note[nn - 1] + ll, sizeof note[0] - ll, ", %s", item);
        else {
            snprintf(note[nn], sizeof note[0], "%s%s",
                     nn ? "" : "no history, not drawn: ", item);
            nn++;
        }
    }
    *notes = nn;
    return ns;
}

/* the figures of one instance (against sweeps, and against time when the run was timed):
 * a curve per run with a history; a run without one (the peers record none, a failed run
 * has none) is a marker at its final residual (x: its iterations or time_s) named "LABEL:
 * no history" in the key (short: a 3.4 in figure's key has room for about 35 characters),
 * or, without a final residual (or a time), named in note lines under the plot ("no
 * history, not drawn: LABEL (STATUS), ..."): no run leaves a figure silently (an instance with nothing to draw gets a warning line unless quiet).
 * *nfig gets how many were written; bench_fig_write's codes, -1 out of memory */
static int instance_figures(const char *cmd, const char *dir, const char *plots,
                            const char *inst, const bench_csv *T, const int *rows, int n,
                            bench_style style, int quiet, int *nfig)
{
    int ch = bench_csv_col(T, "history"), cl = bench_csv_col(T, "label");
    int cr = bench_csv_col(T, "residual"), ct = bench_csv_col(T, "time_s");
    size_t elen = (size_t)n * (BENCH_LABEL + 200) + 2048;
    bench_history *h = lcp_calloc((size_t)n, sizeof *h);
    double **x = lcp_calloc((size_t)n, sizeof *x), **y = lcp_calloc((size_t)n, sizeof *y);
    double **sy = lcp_calloc((size_t)n, sizeof *sy);   /* the y drawn of each series */
    double *bx = lcp_malloc(2 * (size_t)n, sizeof(double)), *by = bx ? bx + n : NULL;
    int *hrow = lcp_malloc(2 * (size_t)n, sizeof(int)), *bare = hrow ? hrow + n : NULL;
    char (*name)[BENCH_LABEL + 64] = lcp_malloc((size_t)n, sizeof *name);
    note_line *note = lcp_malloc((size_t)n, sizeof *note);  /* lines under the plot */
    char *extra = lcp_malloc(elen, 1);
    bench_series *S = lcp_calloc((size_t)n, sizeof *S);
    int rc = 0, nh = 0, nb = 0;
    if (!h || !x || !y || !sy || !bx || !hrow || !name || !note || !extra || !S) {
        bench_error(cmd, "out of memory");
        rc = -1;
    }
    char msg[4400];
    for (int k = 0; !rc && k < n; k++) {
        int hl = load_history(dir, bench_csv_get(T, rows[k], ch), &h[nh], msg, sizeof msg);
        if (hl == 1) {                                  /* the run kept no history */
            bare[nb++] = rows[k];
            continue;
        }
        if (hl < 0) {                                   /* named but unreadable: an error */
            bench_error(cmd, "%s", msg);
            rc = -1;
            break;
        }
        x[nh] = lcp_malloc((size_t)(h[nh].n + 1), sizeof(double));
        y[nh] = lcp_malloc((size_t)(h[nh].n + 1), sizeof(double));
        if (!x[nh] || !y[nh]) {
            bench_error(cmd, "out of memory");
            rc = -1;
            bench_history_free(&h[nh]);
            lcp_free(x[nh]);
            lcp_free(y[nh]);
            break;
        }
        hrow[nh++] = rows[k];
    }
    char safe[BENCH_LABEL], base[BENCH_LABEL + 16], title[BENCH_LABEL + 64], tt[64];
    bench_safe_name(inst, safe, sizeof safe);
    double tol = common_tol(T, rows, n);
    snprintf(tt, sizeof tt, "tolerance %.0e", tol);
    int timed = 0;                      /* reps = 0: no times, no figure against time */
    for (int k = 0; k < nh; k++)
        for (int j = 0; j < h[k].n; j++) timed |= isfinite(h[k].t[j]);
    for (int b = 0; b < nb; b++)
        timed |= isfinite(bench_csv_num(T, bare[b], ct)) && bench_csv_num(T, bare[b], cr) >= 0;
    *nfig = 0;
    for (int xi = 0; !rc && xi < 1 + timed; xi++) {
        int ns = 0, notes = 0;
        size_t el = 0;
        for (int k = 0; k < nh; k++) {
            for (int j = 0; j < h[k].n; j++) {
                x[k][j] = xi ? h[k].t[j] : h[k].iter[j];
                y[k][j] = h[k].r2[j];
            }
            sy[ns] = y[k];
            S[ns++] = (bench_series){bench_csv_get(T, hrow[k], cl), h[k].n, x[k], y[k], 0};
        }
        extra[0] = 0;
        ns = bare_runs(T, bare, nb, xi, bx, by, name, note, &notes, S, sy, ns);
        el = note_labels(extra, el, elen, note, notes);
        if (ns == 0) {                                  /* nothing to draw: say so */
            if (!quiet) warn_nothing(cmd, inst, T, bare, nb);
            break;
        }
        double top, fl = zero_floor(S, ns, tol, &top);
        if (at_floor(S, sy, ns, fl) && el < elen) el += floor_tics(extra + el, elen - el, fl, top);
        bench_fig F;
        bench_fig_init(&F);
        snprintf(base, sizeof base, "%s-%s", safe, xi ? "time" : "iter");
        snprintf(title, sizeof title, "%s: residual against %s", inst, xi ? "time" : "sweep");
        F.base = base;
        F.title = title;
        F.xlabel = xi ? "solve time (s)" : "sweep";
        F.ylabel = "||r||_2 (natural-map residual)";
        F.logy = 1;
        F.hline = tol;
        F.hline_title = tt;
        F.extra = extra[0] ? extra : NULL;
        F.ns = ns;
        F.s = S;
        int g = bench_fig_write(cmd, plots, &F, style);
        if (g != 0) rc = g;
        if (g >= 0 || g == -2) ++*nfig;
    }
    for (int k = 0; k < nh; k++) {
        bench_history_free(&h[k]);
        lcp_free(x[k]);
        lcp_free(y[k]);
    }
    lcp_free(h);
    lcp_free(x);
    lcp_free(y);
    lcp_free(sy);
    lcp_free(bx);
    lcp_free(hrow);
    lcp_free(name);
    lcp_free(note);
    lcp_free(extra);
    lcp_free(S);
    return rc;
}

int bench_plot_dir(const char *cmd, const char *dir, int quiet)
{
    return bench_plot_dir_style(cmd, dir, quiet, BENCH_STYLE_PAPER);
}

int bench_plot_dir_style(const char *cmd, const char *dir, int quiet, bench_style style)
{
    char path[BENCH_PATH + 64];
    bench_csv T;
    if (bench_read_runs(cmd, dir, &T)) return 1;
    int ci = bench_csv_col(&T, "instance"), ch = bench_csv_col(&T, "history");
    int cp = bench_csv_col(&T, "plot");
    if (ci < 0 || ch < 0 || bench_csv_col(&T, "label") < 0) {
        bench_error(cmd, "%s/runs.csv: not a runs.csv of lcpbench run (no "
                         "instance/label/history)", dir);
        bench_csv_free(&T);
        return 1;
    }
    snprintf(path, sizeof path, "%s/plots", dir);
    bench_stage st;                     /* the figures all moved into DIR/plots, or none */
    if (bench_stage_open(cmd, &st, path, 1)) {
        bench_csv_free(&T);
        return 1;
    }
    int *rows = lcp_malloc((size_t)(T.nrow + 1), sizeof(int));
    char *done = lcp_calloc((size_t)T.nrow + 1, 1);
    int rc = 0, missing = 0, figs = 0, failed = 0;
    for (int r = 0; rows && done && r < T.nrow; r++) {
        if (done[r]) continue;
        const char *inst = bench_csv_get(&T, r, ci);
        int n = 0;
        for (int s = r; s < T.nrow; s++) {
            if (strcmp(bench_csv_get(&T, s, ci), inst) != 0) continue;
            done[s] = 1;             /* runs without a history too: named, never left out */
            if (cp >= 0 && strcmp(bench_csv_get(&T, s, cp), "0") == 0) continue;
            rows[n++] = s;
        }
        if (n == 0) continue;
        int nf = 0;
        int g = instance_figures(cmd, dir, st.work, inst, &T, rows, n, style, quiet, &nf);
        if (g == 1) missing = 1;
        else if (g < 0) rc = 1;
        figs += nf;
        if (g == -1) {                  /* out of memory, a history or a file: one line */
            failed = 1;
            break;
        }
    }
    if (!rows || !done) {
        bench_error(cmd, "out of memory");
        rc = 1;
    }
    /* moved in unless out of memory, a history unread or a file not written (then none);
     * gnuplot's own failures keep their scripts and data (a warning each) */
    if (rows && done && !failed ? bench_stage_merge(cmd, &st, 1) : bench_stage_commit(cmd, &st, 0))
        rc = 1;
    if (missing)
        bench_error(cmd, "warning: gnuplot not found: wrote %d .gp scripts in %s, no images "
                         "(install gnuplot-nox, then run gnuplot FILE.gp there)", figs, path);
    else if (!quiet && rc == 0 && figs)
        bench_note(cmd, "%d figures in %s", figs, path);
    lcp_free(rows);
    lcp_free(done);
    bench_csv_free(&T);
    return rc;
}
