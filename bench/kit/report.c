/* report.c: the report kit: CSV and Markdown writers and the figure writer with its print
 * styles (the claims and their verdicts are in claims.c).
 *
 * Figures follow what a journal's single column needs: 3.4 in wide PDF with 8 pt text, the
 * key inside the plot, series told apart in grey-scale (dash type and marker, not colour
 * alone), and the data beside the script so that `gnuplot BASE.gp' redraws it from a copy
 * of the folder; gnuplot runs in a child process (bench_gnuplot).  Cost: linear in the
 * data; one gnuplot process per figure.
 */
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- CSV and Markdown writers --------------------------------------------------------------- */

int bench_csvw_open(bench_csvw *w, const char *cmd, const char *dir, const char *file,
                    int force, int ncol, const char *const *head)
{
    char path[BENCH_PATH + 256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    w->col = 0;
    if (!bench_open(cmd, &w->o, path, force)) return 1;
    for (int c = 0; c < ncol; c++) bench_csvw_str(w, head[c]);
    bench_csvw_end(w);
    return 0;
}

void bench_csvw_str(bench_csvw *w, const char *s)
{
    if (w->col++) fputc(',', w->o.f);
    bench_csv_field(w->o.f, s ? s : "");
}

void bench_csvw_num(bench_csvw *w, double v, const char *fmt)
{
    if (w->col++) fputc(',', w->o.f);
    if (isfinite(v)) fprintf(w->o.f, fmt, v);
}

void bench_csvw_int(bench_csvw *w, long v)
{
    if (w->col++) fputc(',', w->o.f);
    fprintf(w->o.f, "%ld", v);
}

void bench_csvw_end(bench_csvw *w)
{
    fputc('\n', w->o.f);
    w->col = 0;
}

int bench_csvw_close(bench_csvw *w, const char *cmd)
{
    return bench_close(cmd, &w->o);
}

const char *bench_fmt(char *b, size_t n, double v, const char *fmt)
{
    if (isfinite(v)) snprintf(b, n, fmt, v);
    else snprintf(b, n, "-");
    return b;
}

void bench_md_head(FILE *f, int ncol, const char *const *head, const char *align)
{
    bench_md_row(f, ncol, head);
    fputc('|', f);
    for (int c = 0; c < ncol; c++) fputs(align[c] == 'r' ? "---:|" : "---|", f);
    fputc('\n', f);
}

void bench_md_row(FILE *f, int ncol, const char *const *cell)
{
    fputc('|', f);
    for (int c = 0; c < ncol; c++) fprintf(f, " %s |", cell[c]);
    fputc('\n', f);
}

/* ---- figures ------------------------------------------------------------------------------ */

int bench_style_parse(const char *cmd, const char *s, bench_style *style)
{
    if (!strcmp(s, "paper")) *style = BENCH_STYLE_PAPER;
    else if (!strcmp(s, "mono")) *style = BENCH_STYLE_MONO;
    else {
        bench_error(cmd, "--style: unknown style '%s' (paper, mono)", s);
        return -1;
    }
    return 0;
}

void bench_fig_init(bench_fig *F)
{
    memset(F, 0, sizeof *F);
    F->xmin = F->xmax = NAN;
}

/* Okabe and Ito's colour-blind-safe palette without its yellow; dash types and open markers
 * so that the series stay apart in grey-scale */
static const char *const palette[] = {"#000000", "#0072B2", "#D55E00", "#009E73",
                                      "#CC79A7", "#E69F00", "#56B4E9"};
static const int dashes[] = {1, 2, 4, 5, 3, 1, 2};
static const int marks[] = {6, 4, 8, 12, 2, 10, 14};
enum { NSTYLE = 7 };

static int usable(const bench_fig *F, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!F->logy || y > 0) && (!F->logx || x > 0);
}

void bench_fig_groups(const bench_fig *F, int *grp)
{
    for (int i = 0; i < F->ns; i++) {
        grp[i] = i;
        const bench_series *a = &F->s[i];
        for (int j = 0; j < i && grp[i] == i; j++) {
            const bench_series *b = &F->s[j];
            if (grp[j] != j || a->n != b->n || a->n == 0) continue;
            int same = 1;
            for (int k = 0; same && k < a->n; k++) {
                double ya = a->y[k], yb = b->y[k];
                same = a->x[k] == b->x[k] &&
                       ((!isfinite(ya) && !isfinite(yb)) ||
                        fabs(ya - yb) <= 1e-3 * fmax(fabs(ya), fabs(yb)));
            }
            if (same) grp[i] = j;
        }
    }
}

/* the points of series s worth keeping: first, last, every k-th, and the first point at or
 * below each decade 1e1 .. 1e-16 and the horizontal line (keep[] gets 0/1) */
static void downsample(const bench_fig *F, const bench_series *s, char *keep)
{
    int n = s->n, step = n > BENCH_FIG_POINTS ? (n + BENCH_FIG_POINTS - 1) / BENCH_FIG_POINTS : 1;
    if (F->kind == BENCH_FIG_STEPS) step = 1;   /* every step of a profile */
    for (int k = 0; k < n; k++) keep[k] = k % step == 0 || k == n - 1;
    for (int d = 1; d >= -17; d--) {
        double level = d == -17 ? F->hline : pow(10.0, d);
        for (int k = 0; level > 0 && k < n; k++)
            if (s->y[k] <= level) {
                keep[k] = 1;
                break;
            }
    }
}

static int write_data(const bench_fig *F, const char *dir, char *msg, size_t msglen)
{
    char path[BENCH_PATH + 128];
    snprintf(path, sizeof path, "%s/%s.csv", dir, F->base);
    bench_out o;
    if (bench_out_open(&o, path, 1, msg, msglen) != 0) return -1;
    fprintf(o.f, "series,x,y\n");
    int maxn = 1;
    for (int i = 0; i < F->ns; i++) maxn = F->s[i].n > maxn ? F->s[i].n : maxn;
    char *keep = lcp_malloc((size_t)maxn, 1);
    for (int i = 0; keep && i < F->ns; i++) {
        const bench_series *s = &F->s[i];
        if (i) fprintf(o.f, "\n\n");   /* gnuplot `index i' */
        downsample(F, s, keep);
        for (int k = 0; k < s->n; k++) {
            if (!keep[k]) continue;
            bench_csv_field(o.f, s->title);
            fprintf(o.f, ",%.9g,", s->x[k]);
            if (isfinite(s->y[k])) fprintf(o.f, "%.6e", s->y[k]);
            fprintf(o.f, "\n");
        }
    }
    int ok = keep != NULL;
    lcp_free(keep);
    if (!ok) snprintf(msg, msglen, "%s: out of memory", path);
    if (bench_out_commit(&o, ok, msg, msglen) != 0) return -1;
    return ok ? 0 : -1;
}

/* the data's extent: [*x0, *x1] and the smallest / largest usable y */
static void extent(const bench_fig *F, double *x0, double *x1, double *y0, double *y1)
{
    *x0 = *y0 = INFINITY;
    *x1 = *y1 = -INFINITY;
    for (int i = 0; i < F->ns; i++)
        for (int k = 0; k < F->s[i].n; k++) {
            double x = F->s[i].x[k], y = F->s[i].y[k];
            if (!usable(F, x, y)) continue;
            if (F->kind == BENCH_FIG_BOXES && y == 0) continue;
            *x0 = fmin(*x0, x);
            *x1 = fmax(*x1, x);
            *y0 = fmin(*y0, y);
            *y1 = fmax(*y1, y);
        }
}

/* the plotted ranges (fitted to the data) */
static void ranges(const bench_fig *F, double r[4])
{
    extent(F, &r[0], &r[1], &r[2], &r[3]);
    if (isfinite(F->xmin)) r[0] = F->xmin;
    if (isfinite(F->xmax)) r[1] = F->xmax;
    if (F->kind == BENCH_FIG_BOXES && isfinite(r[0])) {   /* whole bars */
        r[0] -= 1;
        r[1] += 1;
    }
    if (F->logy && F->hline > 0) {
        r[2] = fmin(r[2], F->hline);
        r[3] = fmax(r[3], F->hline);
    }
    if (F->logy && isfinite(r[2]) && isfinite(r[3]) && r[2] > 0) {
        r[2] = pow(10.0, floor(log10(r[2]) + 1e-9));
        r[3] = pow(10.0, ceil(log10(r[3]) - 1e-9));
    }
    if (!F->logy) r[2] = fmin(r[2], 0.0);
}

/* a tic step of 1, 2 or 5 times a power of ten giving at most 6 intervals over w */
static double tic_step(double w)
{
    double p = pow(10.0, floor(log10(w / 5))), m[3] = {1, 2, 5};
    for (int k = 0; k < 3; k++)
        if (w / (m[k] * p) <= 6) return m[k] * p;
    return 10 * p;
}

static void axes(FILE *f, const bench_fig *F, const double r[4])
{
    if (isfinite(r[0]) && isfinite(r[1]) && r[1] > r[0]) {
        fprintf(f, "set xrange [%.9g:%.9g]\n", r[0], r[1]);
        if (!F->logx)   /* labels that do not run into each other at 3.4 in */
            fprintf(f, "set xtics %.9g\nset format x '%%g'\n", tic_step(r[1] - r[0]));
    }
    if (!F->logy) fprintf(f, "set format y '%%g'\n");
    if (F->logy) {
        if (isfinite(r[2]) && isfinite(r[3]) && r[2] > 0 && r[3] > r[2])
            fprintf(f, "set yrange [%.3g:%.3g]\n", r[2], r[3]);
        fprintf(f, "set logscale y\nset format y '1e%%L'\n");
    } else if (F->kind == BENCH_FIG_BOXES && isfinite(r[3]))   /* room above the top marker */
        fprintf(f, "set yrange [0:%.6g]\n", 1.08 * r[3]);
    if (F->logx) fprintf(f, "set logscale x\nset format x '1e%%L'\n");
}

/* position of v in [lo, hi] as a fraction of the axis */
static double frac(double v, double lo, double hi, int lg)
{
    if (lg) return v > 0 && lo > 0 ? (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) : -1;
    return (v - lo) / (hi - lo);
}

/* Where the key covers the fewest data: 8 places inside the plot (corners, edge middles),
 * the key's box estimated from its entries (8 pt text on a plot about 200 x 125 pt), data
 * sampled along the drawn segments.  *extend is set when every place covers data: the
 * caller then makes room for the key below the data (step functions: right of them) and
 * puts it in the bottom right corner. */
static void key_place(const bench_fig *F, const double r[4], int nent, int maxlen,
                      char *out, size_t len, int *extend)
{
    static const double ax[3] = {0.0, 0.5, 1.0}, ay[3] = {1.0, 0.5, 0.0};
    static const char *const hj[3] = {"left", "center", "right"};
    static const char *const vj[3] = {"top", "center", "bottom"};
    double w = fmin(0.95, (maxlen * 4.4 + 35) / 200.0);
    double h = fmin(0.95, (nent * 9.5 + 6) / 125.0);
    long cnt[9] = {0};
    double ylo = r[2], yhi = r[3];
    *extend = 0;
    if (!(r[1] > r[0]) || !(yhi > ylo)) {
        snprintf(out, len, "top right");
        return;
    }
    for (int i = 0; i < F->ns + (F->hline > 0); i++) {
        int hl = i == F->ns, n = hl ? 2 : F->s[i].n;
        double px = 0, py = 0;
        int have = 0;
        for (int k = 0; k < n; k++) {
            double x = hl ? r[k ? 1 : 0] : F->s[i].x[k], y = hl ? F->hline : F->s[i].y[k];
            if (!usable(F, x, y)) {
                have = 0;
                continue;
            }
            double fx = frac(x, r[0], r[1], F->logx), fy = frac(y, ylo, yhi, F->logy);
            int steps = have && !F->s[i < F->ns ? i : 0].points ? 12 : 1;
            for (int j = 1; j <= steps; j++) {   /* along the segment from the last point */
                double t = (double)j / steps;
                double qx = steps > 1 ? px + t * (fx - px) : fx;
                double qy = steps > 1 ? py + t * (fy - py) : fy;
                for (int c = 0; c < 9; c++) {
                    double x0 = ax[c % 3] - w * ax[c % 3], y0 = ay[c / 3] - h * ay[c / 3];
                    cnt[c] += c != 4 && qx >= x0 - 0.02 && qx <= x0 + w + 0.02 &&
                              qy >= y0 - 0.03 && qy <= y0 + h + 0.03;
                }
            }
            px = fx;
            py = fy;
            have = 1;
        }
    }
    int best = 2;                                   /* top right unless another is emptier */
    static const int order[8] = {2, 0, 8, 6, 1, 7, 5, 3};
    for (int k = 0; k < 8; k++)
        if (cnt[order[k]] < cnt[best]) best = order[k];
    if (cnt[best] > 0 && F->kind != BENCH_FIG_BOXES) {   /* room below for the key */
        *extend = 1;
        best = 8;
    }
    static const double inset[3] = {0.01, 0.0, -0.01};   /* off the border */
    snprintf(out, len, "at graph %.2f, graph %.2f %s %s", ax[best % 3] + inset[best % 3],
             ay[best / 3] - inset[best / 3], hj[best % 3], vj[best / 3]);
}

/* markers-only series named beside their marker (left of it in the right half) */
static void point_labels(FILE *f, const bench_fig *F, const double r[4])
{
    for (int i = 0; F->label_points && i < F->ns; i++) {
        const bench_series *s = &F->s[i];
        if (!s->points || s->n < 1 || !usable(F, s->x[0], s->y[0])) continue;
        char q[512];
        bench_gp_quote(s->title, q, sizeof q);
        int right = frac(s->x[0], r[0], r[1], F->logx) > 0.5;
        fprintf(f, "set label %s at %.9g, %.9g %s offset character %s, 0 front\n", q, s->x[0],
                s->y[0], right ? "right" : "left", right ? "-1.5" : "1.5");
    }
}

static void terminal_png(FILE *f, const char *base)
{
    fprintf(f, "set terminal pngcairo size 1020,750 font 'Helvetica,18' linewidth 2.5 "
               "noenhanced\nset output '%s.png'\n", base);
}

static void series_style(FILE *f, const bench_fig *F, int i, int k, int npts,
                         bench_style style)
{
    const char *col = style == BENCH_STYLE_MONO ? "#000000" : palette[k % NSTYLE];
    int d = (k + k / NSTYLE) % NSTYLE;   /* past NSTYLE series another dash and marker with
                                            each colour: series k and k + 7 stay apart */
    if (F->kind == BENCH_FIG_BOXES && i == 0) {
        fprintf(f, "with boxes fs solid %s border lc rgb '#000000' lc rgb '%s'",
                style == BENCH_STYLE_MONO ? "0.25" : "0.5",
                style == BENCH_STYLE_MONO ? "#000000" : palette[1]);
    } else if (F->s[i].points || F->kind == BENCH_FIG_BOXES) {
        fprintf(f, "with points lc rgb '%s' pt %d ps 0.9", col, marks[d] + 1);
    } else if (F->kind == BENCH_FIG_STEPS) {
        fprintf(f, "with steps lw 1.5 dt %d lc rgb '%s'", dashes[d], col);
    } else {
        int pi = F->kind == BENCH_FIG_MARKS ? 1 : npts / 8 + 1 + k;   /* markers apart */
        fprintf(f, "with linespoints lw 1.5 dt %d lc rgb '%s' pt %d ps 0.8 pi %d",
                dashes[d], col, marks[d], pi);
    }
}

/* the key: its entries (merged groups once), its place, and room made for it in r */
static void key(FILE *f, const bench_fig *F, const int *grp, double r[4])
{
    int nent = F->hline > 0, maxlen = F->hline_title ? (int)strlen(F->hline_title) : 0;
    for (int i = 0; i < F->ns; i++) {
        if (!F->s[i].title[0] || (F->label_points && F->s[i].points) || grp[i] != i) continue;
        int l = 0;
        for (int j = i; j < F->ns; j++)
            if (grp[j] == i) l += (int)strlen(F->s[j].title) + (j > i ? 3 : 0);
        nent++;
        maxlen = l > maxlen ? l : maxlen;
    }
    if (!nent) {
        fprintf(f, "unset key\n");
        return;
    }
    char where[96];
    int extend = 0;
    double h = (nent * 9.5 + 6) / 125.0;   /* the key's share of the plot's height */
    if (F->key) snprintf(where, sizeof where, "%s", F->key);
    else key_place(F, r, nent, maxlen, where, sizeof where, &extend);
    double w = fmin(0.95, (maxlen * 4.4 + 35) / 200.0);   /* and of its width */
    if (extend && F->kind == BENCH_FIG_STEPS && !F->logx)  /* profiles: room on the right */
        r[1] += (r[1] - r[0]) * w / (1 - w);
    else if (extend && F->logy) r[2] /= pow(10.0, ceil(h * log10(r[3] / r[2]) / (1 - h)));
    else if (extend) r[2] -= (r[3] - r[2]) * h / (1 - h);
    fprintf(f, "set key inside %s opaque box lc rgb '#808080' samplen 2.5 spacing 1.1\n", where);
}

/* the plot command: one entry per group of coincident series, then the horizontal line */
static void plot_command(FILE *f, const bench_fig *F, const int *grp, bench_style style)
{
    char q[1100];
    fprintf(f, "plot \\\n");
    int drawn = 0;
    for (int i = 0; i < F->ns; i++) {
        if (grp[i] != i) continue;
        char title[1024];
        size_t tl = (size_t)snprintf(title, sizeof title, "%s", F->s[i].title);
        for (int j = i + 1; j < F->ns; j++)
            if (grp[j] == i && tl < sizeof title)
                tl += (size_t)snprintf(title + tl, sizeof title - tl, " = %s", F->s[j].title);
        bench_gp_quote(title, q, sizeof q);
        int npts = 0;
        for (int k = 0; k < F->s[i].n; k++) npts += usable(F, F->s[i].x[k], F->s[i].y[k]);
        npts = npts > BENCH_FIG_POINTS ? BENCH_FIG_POINTS : npts;
        fprintf(f, "%s  '%s.csv' index %d using 2:3 ", drawn ? ", \\\n" : "", F->base, i);
        series_style(f, F, i, drawn, npts, style);
        if ((F->kind == BENCH_FIG_BOXES && i == 0 && !F->s[i].title[0]) ||
            (F->label_points && F->s[i].points))
            fprintf(f, " notitle");
        else fprintf(f, " title %s", q);
        drawn++;
    }
    if (F->hline > 0) {
        bench_gp_quote(F->hline_title ? F->hline_title : "", q, sizeof q);
        fprintf(f, ", \\\n  %.6e with lines lw 1 dt 3 lc rgb '#606060' title %s", F->hline, q);
    }
    fprintf(f, "\n");
}

int bench_fig_write(const char *cmd, const char *dir, const bench_fig *F, bench_style style)
{
    char msg[8400], path[BENCH_PATH + 128], q[512];
    int *grp = lcp_malloc((size_t)(F->ns + 1), sizeof(int));
    bench_out o;
    snprintf(path, sizeof path, "%s/%s.gp", dir, F->base);
    if (!grp) snprintf(msg, sizeof msg, "out of memory");
    if (!grp || bench_mkdir_p(dir, msg, sizeof msg) != 0 ||
        write_data(F, dir, msg, sizeof msg) != 0 ||
        bench_out_open(&o, path, 1, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        lcp_free(grp);
        return -1;
    }
    bench_fig_groups(F, grp);
    FILE *f = o.f;
    fprintf(f, "# %s: lcpbench figure; data in %s.csv (series,x,y; one block per series).\n"
               "# Redraw with `gnuplot %s.gp' in this folder.  Style: %s.\n", F->base, F->base,
            F->base, style == BENCH_STYLE_MONO ? "mono" : "paper");
    fprintf(f, "set datafile separator ','\nset grid lc rgb '#c0c0c0' lw 0.5\n"
               "set border lw 0.8\nset tics nomirror out scale 0.5\nset mxtics default\n");
    bench_gp_quote(F->xlabel, q, sizeof q);
    fprintf(f, "set xlabel %s\n", q);
    bench_gp_quote(F->ylabel, q, sizeof q);
    fprintf(f, "set ylabel %s\n", q);
    double r[4];
    ranges(F, r);
    key(f, F, grp, r);
    axes(f, F, r);
    point_labels(f, F, r);
    if (F->extra) fprintf(f, "%s", F->extra);
    terminal_png(f, F->base);
    if (F->title) {
        bench_gp_quote(F->title, q, sizeof q);
        fprintf(f, "set title %s\n", q);
    }
    plot_command(f, F, grp, style);
    fprintf(f, "unset title\n"
               "set terminal pdfcairo size 3.4in,2.5in font 'Helvetica,8' linewidth 1 "
               "noenhanced\nset output '%s.pdf'\nreplot\nunset output\n", F->base);
    lcp_free(grp);
    if (bench_out_commit(&o, 1, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return -1;
    }
    snprintf(path, sizeof path, "%s.gp", F->base);
    return bench_gnuplot(cmd, dir, path);
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
