/* plot.c: `lcpbench plot DIR': the convergence figures of a run folder, redrawn from
 * DIR/runs.csv and DIR/history/ (run.c writes them) with the report kit's figure writer
 * (report.c); plus the CSV reader (RFC 4180) and the gnuplot runner the harness shares.
 *
 * For every instance of runs.csv, two figures in DIR/plots/, each with its data and script:
 *     INSTANCE-iter.{csv,gp,png,pdf}   ||r||_2 against sweep, all runs with plot = 1
 *     INSTANCE-time.{csv,gp,png,pdf}   ||r||_2 against solve time
 * log-scale residual axis, the tolerance as a horizontal line when the runs share one.  A
 * residual of exactly 0 is drawn at a floor one decade below the smallest positive value of
 * the figure, the axis labelled "0 (exact)" there; a run without a history (a peer's, a
 * failed run) is a marker at its final residual named "no history" in the key, or a note
 * line under the plot.  A folder of `lcpbench solve --history DIR' (runs.csv beside the
 * histories, no history/) draws the same way.  The scripts read only their own .csv, so
 * `gnuplot INSTANCE-iter.gp' in a copy of plots/ rebuilds a figure.  Without gnuplot the
 * scripts are written and one warning line says so.
 * Cost: linear in runs.csv and the histories; gnuplot once per figure.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- CSV --------------------------------------------------------------------------------- */

/* Parse the CSV text in buf (n bytes, NUL at buf[n]) in place, per RFC 4180: fields split at
 * commas outside quotes, "" inside quotes is one quote, quoted fields may hold commas and
 * line breaks; CRLF or LF ends a record; blank lines and "#" lines before the header are
 * skipped.  cells[] receives the field starts, rowlen[] the fields per record and line[] the
 * line each record starts on; returns the number of records, -1 when out of memory, or -2
 * with *bad the line of a quoted field that is never closed. */
static int parse(char *buf, size_t n, char ***cells, int **rowlen, int **line, size_t *ncell,
                 int *bad)
{
    size_t cap = 1024, nc = 0;
    int rcap = 256, nr = 0, ln = 1;
    char **c = lcp_malloc(cap, sizeof(char *));
    int *rl = lcp_malloc((size_t)rcap, sizeof(int)), *li = lcp_malloc((size_t)rcap, sizeof(int));
    char *r = buf, *w = buf;
    while (c && rl && li && *r) {
        if (*r == '\n' || (*r == '\r' && r[1] == '\n')) {   /* blank line */
            r += *r == '\r' ? 2 : 1;
            ln++;
            continue;
        }
        if (nr == 0 && *r == '#') {                         /* comment before the header */
            char *e = strchr(r, '\n');
            r = e ? e + 1 : buf + n;
            ln++;
            continue;
        }
        if (nr == rcap) {
            rcap *= 2;
            int *t = lcp_realloc(rl, (size_t)rcap, sizeof(int));
            if (t) rl = t;
            int *u = t ? lcp_realloc(li, (size_t)rcap, sizeof(int)) : NULL;
            if (!u) break;
            li = u;
        }
        rl[nr] = 0;
        li[nr] = ln;
        for (;;) {                                          /* the fields of one record */
            char *start = w;
            if (*r == '"') {
                int open = ln;
                for (r++;; ) {
                    if (!*r) {                              /* the file ends inside quotes */
                        lcp_free(c);
                        lcp_free(rl);
                        lcp_free(li);
                        *bad = open;
                        return -2;
                    }
                    if (*r == '"' && r[1] == '"') {
                        *w++ = '"';
                        r += 2;
                    } else if (*r == '"') {
                        r++;
                        break;
                    } else {
                        ln += *r == '\n';
                        *w++ = *r++;
                    }
                }
            }
            while (*r && *r != ',' && *r != '\n' && *r != '\r') *w++ = *r++;
            if (*r == '\r') r++;
            char end = *r;
            *w++ = 0;
            if (end) r++;
            ln += end == '\n';
            if (nc == cap) {
                char **t = lcp_realloc(c, (cap *= 2), sizeof(char *));
                if (!t) {
                    lcp_free(c);
                    c = NULL;
                    break;
                }
                c = t;
            }
            c[nc++] = start;
            rl[nr]++;
            if (end != ',') break;
        }
        nr++;
    }
    if (!c || !rl || !li || *r) {
        lcp_free(c);
        lcp_free(rl);
        lcp_free(li);
        return -1;
    }
    *cells = c;
    *rowlen = rl;
    *line = li;
    *ncell = nc;
    return nr;
}

int bench_csv_read(const char *path, bench_csv *T, char *msg, size_t msglen)
{
    memset(T, 0, sizeof *T);
    const char *why;
    FILE *f = bench_fopen_read(path, &why);
    if (!f) {
        snprintf(msg, msglen, "%s: cannot read: %s", path, why);
        return -1;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = lcp_malloc(cap, 1);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *b = lcp_realloc(buf, cap *= 2, 1);
            if (!b) lcp_free(buf);
            buf = b;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        lcp_free(buf);
        snprintf(msg, msglen, "%s: cannot read%s", path, bad ? "" : ": out of memory");
        return -1;
    }
    buf[n] = 0;
    char **cells;
    int *rowlen, *line, open = 0;
    size_t ncell;
    if (n > 0 && buf[n - 1] != '\n') {     /* every writer ends a file with a line break */
        lcp_free(buf);
        snprintf(msg, msglen, "%s: the last line has no line break (the file was cut short?)",
                 path);
        return -1;
    }
    int nrec = parse(buf, n, &cells, &rowlen, &line, &ncell, &open);
    if (nrec <= 0) {
        lcp_free(buf);
        if (nrec == -2)
            snprintf(msg, msglen, "%s:%d: a quoted field is never closed", path, open);
        else
            snprintf(msg, msglen, "%s: %s", path, nrec < 0 ? "out of memory" : "no header line");
        return -1;
    }
    for (int r = 1; r < nrec; r++)          /* RFC 4180: every record has the header's fields */
        if (rowlen[r] != rowlen[0]) {
            snprintf(msg, msglen, "%s:%d: %d fields where the header has %d", path, line[r],
                     rowlen[r], rowlen[0]);
            lcp_free(cells);
            lcp_free(rowlen);
            lcp_free(line);
            lcp_free(buf);
            return -1;
        }
    lcp_free(line);
    T->ncol = rowlen[0];
    T->nrow = nrec - 1;
    T->head = lcp_malloc((size_t)T->ncol, sizeof(char *));
    T->cell = lcp_malloc(((size_t)T->nrow * (size_t)T->ncol + 1), sizeof(char *));
    T->buf = buf;
    if (!T->head || !T->cell) {
        lcp_free(cells);
        lcp_free(rowlen);
        bench_csv_free(T);
        snprintf(msg, msglen, "%s: out of memory", path);
        return -1;
    }
    memcpy(T->head, cells, (size_t)T->ncol * sizeof(char *));
    size_t at = (size_t)T->ncol;
    for (int r = 0; r < T->nrow; r++) {
        char **row = T->cell + (size_t)r * (size_t)T->ncol;
        for (int k = 0; k < T->ncol; k++) row[k] = cells[at + (size_t)k];
        at += (size_t)rowlen[r + 1];
    }
    lcp_free(cells);
    lcp_free(rowlen);
    return 0;
}

void bench_csv_free(bench_csv *T)
{
    lcp_free(T->head);
    lcp_free(T->cell);
    lcp_free(T->buf);
    memset(T, 0, sizeof *T);
}

int bench_csv_col(const bench_csv *T, const char *name)
{
    for (int c = 0; c < T->ncol; c++)
        if (strcmp(T->head[c], name) == 0) return c;
    return -1;
}

const char *bench_csv_get(const bench_csv *T, int row, int col)
{
    if (col < 0 || row < 0 || row >= T->nrow || col >= T->ncol) return "";
    return T->cell[(size_t)row * (size_t)T->ncol + (size_t)col];
}

double bench_csv_num(const bench_csv *T, int row, int col)
{
    const char *s = bench_csv_get(T, row, col);
    char *end;
    if (!*s) return NAN;
    double v = strtod(s, &end);
    return *end ? NAN : v;
}

int bench_read_runs(const char *cmd, const char *dir, bench_csv *T)
{
    char path[BENCH_PATH + 64], msg[8400];
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    if (bench_csv_read(path, T, msg, sizeof msg) == 0) return 0;
    bench_error(cmd, "%s", msg);
    return 1;
}

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

/* ---- gnuplot ----------------------------------------------------------------------------- */

int bench_gnuplot(const char *cmd, const char *dir, const char *script)
{
    pid_t pid = fork();
    if (pid < 0) {
        bench_error(cmd, "cannot start gnuplot: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (chdir(dir) != 0) _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return 1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bench_error(cmd, "warning: gnuplot failed on %s/%s (the script and data are kept)", dir,
                    script);
        return -2;
    }
    return 0;
}

void bench_gp_quote(const char *s, char *out, size_t len)
{
    size_t k = 0;
    if (len < 3) {
        if (len) out[0] = 0;
        return;
    }
    out[k++] = '"';
    for (; *s && k + 3 < len; s++) {
        if (*s == '"' || *s == '\\') out[k++] = '\\';
        out[k++] = *s;
    }
    out[k++] = '"';
    out[k] = 0;
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
    int cs = bench_csv_col(T, "status"), cr = bench_csv_col(T, "residual");
    int ci = bench_csv_col(T, "iterations"), ct = bench_csv_col(T, "time_s");
    size_t elen = (size_t)n * (BENCH_LABEL + 200) + 2048;
    bench_history *h = lcp_calloc((size_t)n, sizeof *h);
    double **x = lcp_calloc((size_t)n, sizeof *x), **y = lcp_calloc((size_t)n, sizeof *y);
    double **sy = lcp_calloc((size_t)n, sizeof *sy);   /* the y drawn of each series */
    double *bx = lcp_malloc(2 * (size_t)n, sizeof(double)), *by = bx ? bx + n : NULL;
    int *hrow = lcp_malloc(2 * (size_t)n, sizeof(int)), *bare = hrow ? hrow + n : NULL;
    char (*name)[BENCH_LABEL + 64] = lcp_malloc((size_t)n, sizeof *name);
    char (*note)[BENCH_LABEL + 96] = lcp_malloc((size_t)n, sizeof *note);  /* lines */
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
        for (int b = 0; b < nb; b++) {                  /* the runs without a history */
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
            size_t ll = notes ? strlen(note[notes - 1]) : 0;
            if (notes && ll + strlen(item) + 2 <= NOTE_WIDTH)
                snprintf(note[notes - 1] + ll, sizeof note[0] - ll, ", %s", item);
            else {
                snprintf(note[notes], sizeof note[0], "%s%s",
                         notes ? "" : "no history, not drawn: ", item);
                notes++;
            }
        }
        for (int j = 0; j < notes && el < elen; j++) {  /* first line under the axis */
            char q[2 * sizeof note[0] + 8];
            bench_gp_quote(note[j], q, sizeof q);
            el += (size_t)snprintf(extra + el, elen - el, "set label %s at character 1, %.2f "
                                   "left front\n", q, 0.7 + 1.2 * (notes - 1 - j));
        }
        if (notes && el < elen)                         /* room for them below the axis */
            el += (size_t)snprintf(extra + el, elen - el, "set bmargin %.1f\n",
                                   3.2 + 1.2 * notes);
        if (ns == 0) {                                  /* nothing to draw: say so */
            if (!quiet) {
                size_t ml = (size_t)snprintf(msg, sizeof msg, "warning: %s: no figure, no run "
                                             "has a history or a final residual:", inst);
                for (int b = 0; b < nb && ml < sizeof msg; b++)
                    ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "%s %s (%s)",
                                           b ? "," : "", bench_csv_get(T, bare[b], cl),
                                           bench_csv_get(T, bare[b], cs));
                bench_error(cmd, "%s", msg);
            }
            break;
        }
        double top, fl = zero_floor(S, ns, tol, &top);
        int zero = 0;
        for (int i = 0; i < ns; i++)                    /* exact zeros drawn at the floor */
            for (int j = 0; j < S[i].n; j++)
                if (sy[i][j] <= 0) {
                    sy[i][j] = fl;
                    zero = 1;
                }
        if (zero && el < elen) el += floor_tics(extra + el, elen - el, fl, top);
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

static void help(void)
{
    printf("usage: lcpbench plot DIR [--style paper|mono]\n"
           "\n"
           "Redraw the convergence figures of a run folder (lcpbench run) from DIR/runs.csv\n"
           "and DIR/history/, or of a folder of lcpbench solve --history DIR (runs.csv beside\n"
           "the histories): DIR/plots/INSTANCE-iter and INSTANCE-time, each as .csv (the\n"
           "data, downsampled), .gp (rebuild with `gnuplot FILE.gp' in a copy of plots/),\n"
           ".png (quick look) and .pdf (3.4 in wide, 8 pt text).  The tolerance is drawn\n"
           "when the runs share one; curves that coincide are drawn once, named together.\n"
           "A residual of exactly 0 is drawn at a floor one decade below the smallest\n"
           "positive value, labelled \"0 (exact)\" on the axis; a run without a history (the\n"
           "peers) is a marker at its final residual, \"LABEL: no history\" in the key, or\n"
           "a note under the plot when it has no final residual (a failed run).\n"
           "  --style S   paper (colour-blind-safe colours, dashes and markers; default) or\n"
           "              mono (black, dashes and markers)\n"
           "Without gnuplot the scripts are written and a warning says so (exit 0).\n");
}

int bench_cmd_plot(int argc, char **argv)
{
    const char *dir = NULL, *v;
    bench_style style = BENCH_STYLE_PAPER;
    for (int k = 1; k < argc; k++) {
        int r;
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            return 0;
        } else if ((r = bench_opt(argc, argv, &k, "--style", &v)) != 0) {
            if (r < 0 || bench_style_parse("plot", v, &style) != 0) return 2;
        } else if (argv[k][0] == '-' && argv[k][1]) {
            bench_error("plot", "unknown option '%s' (lcpbench plot --help)", argv[k]);
            return 2;
        } else if (dir) {
            bench_error("plot", "one run folder at a time");
            return 2;
        } else dir = argv[k];
    }
    if (!dir) {
        bench_error("plot", "no run folder given (lcpbench plot --help)");
        return 2;
    }
    if (bench_incomplete("plot", dir)) return 1;
    return bench_plot_dir_style("plot", dir, 0, style);
}
