/* plot.c: `lcpbench plot DIR': the convergence figures of a run folder, redrawn from
 * DIR/runs.csv and DIR/history/ (run.c writes them); plus the small CSV reader and the
 * gnuplot runner the harness shares.
 *
 * For every instance of runs.csv, two figures in DIR/plots/, each with its script:
 *     INSTANCE-iter.gp/.png/.pdf   ||r||_2 against iteration, all runs with plot = 1
 *     INSTANCE-time.gp/.png/.pdf   ||r||_2 against solve time (recording excluded)
 * log-scale residual axis, noenhanced text, pngcairo and pdfcairo.  The scripts read the
 * history CSVs in place (../history/), so `cd DIR/plots && gnuplot INSTANCE-iter.gp'
 * rebuilds a figure.  Without gnuplot the scripts are written and one warning line says so.
 * Cost: linear in runs.csv; gnuplot once per figure.
 */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- CSV --------------------------------------------------------------------------------- */

static int split(char *line, char **out, int max)
{
    int n = 0;
    char *s = line;
    for (;;) {
        char *c = strchr(s, ',');
        if (c) *c = 0;
        if (n < max) out[n] = s;
        n++;
        if (!c) break;
        s = c + 1;
    }
    return n;
}

int bench_csv_read(const char *path, bench_csv *T, char *msg, size_t msglen)
{
    memset(T, 0, sizeof *T);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, msglen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) free(buf);
            buf = b;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(msg, msglen, "%s: cannot read%s", path, bad ? "" : ": out of memory");
        return -1;
    }
    buf[n] = 0;
    /* lines */
    int nl = 1;
    for (size_t k = 0; k < n; k++) nl += buf[k] == '\n';
    char **lines = malloc((size_t)nl * sizeof(char *));
    int cnt = 0;
    for (char *s = buf; lines && s && *s;) {
        char *e = strchr(s, '\n');
        if (e) *e = 0;
        size_t len = strlen(s);
        if (len && s[len - 1] == '\r') s[len - 1] = 0;
        if (s[0] != '#' && s[0] != 0) lines[cnt++] = s;
        s = e ? e + 1 : NULL;
    }
    if (!lines || cnt == 0) {
        free(lines);
        free(buf);
        snprintf(msg, msglen, "%s: no header line", path);
        return -1;
    }
    T->ncol = 1;
    for (const char *c = lines[0]; *c; c++) T->ncol += *c == ',';
    T->head = malloc((size_t)T->ncol * sizeof(char *));
    T->nrow = cnt - 1;
    T->cell = malloc(((size_t)T->nrow * (size_t)T->ncol + 1) * sizeof(char *));
    if (!T->head || !T->cell) {
        free(lines);
        T->buf = buf;
        bench_csv_free(T);
        snprintf(msg, msglen, "%s: out of memory", path);
        return -1;
    }
    split(lines[0], T->head, T->ncol);
    for (int r = 0; r < T->nrow; r++) {
        char **row = T->cell + (size_t)r * (size_t)T->ncol;
        int got_n = split(lines[r + 1], row, T->ncol);
        for (int c = got_n; c < T->ncol; c++) row[c] = buf + n;   /* the final "" */
    }
    free(lines);
    T->buf = buf;
    return 0;
}

void bench_csv_free(bench_csv *T)
{
    free(T->head);
    free(T->cell);
    free(T->buf);
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
        return -1;
    }
    return 0;
}

void bench_gp_png(FILE *f, const char *base)
{
    fprintf(f, "set terminal pngcairo size 1000,600 noenhanced\nset output '%s.png'\n"
               "set termoption noenhanced\n", base);
}

void bench_gp_pdf(FILE *f, const char *base)
{
    fprintf(f, "set terminal pdfcairo size 7in,4.2in noenhanced\nset output '%s.pdf'\n"
               "set termoption noenhanced\nreplot\nunset output\n", base);
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

/* one figure: residual of every listed run against column xcol (1 iteration, 4 time) */
static int figure(const char *cmd, const char *plots, const char *inst, const bench_csv *T,
                  const int *rows, int nrows, int xcol, char *msg, size_t msglen)
{
    char safe[BENCH_LABEL], base[BENCH_LABEL + 16], path[BENCH_PATH + 256], q[512];
    bench_safe_name(inst, safe, sizeof safe);
    snprintf(base, sizeof base, "%s-%s", safe, xcol == 1 ? "iter" : "time");
    snprintf(path, sizeof path, "%s/%s.gp", plots, base);
    bench_out o;
    if (bench_out_open(&o, path, 1, msg, msglen) != 0) return -1;
    FILE *f = o.f;
    bench_provenance(f, 0, NULL);
    bench_gp_quote(inst, q, sizeof q);
    fprintf(f, "# %s: ||r||_2 against %s; data: ../history/*.csv (lcpbench run)\n", inst,
            xcol == 1 ? "iteration" : "time");
    fprintf(f, "set datafile separator ','\n");
    fprintf(f, "set logscale y\nset format y '%%.0e'\nset grid\n");
    if (xcol == 1) fprintf(f, "set xlabel 'iteration'\n");
    else fprintf(f, "set xlabel 'solve time (s)'\n");
    fprintf(f, "set ylabel '||r||_2 (natural-map residual)'\n");
    fprintf(f, "set title %s.': residual against %s'\n", q, xcol == 1 ? "iteration" : "time");
    fprintf(f, "set key outside right top\n");
    int ch = bench_csv_col(T, "history"), cl = bench_csv_col(T, "label");
    bench_gp_png(f, base);
    fprintf(f, "plot \\\n");
    for (int k = 0; k < nrows; k++) {
        char file[BENCH_PATH], lq[256];
        snprintf(file, sizeof file, "../history/%s", bench_csv_get(T, rows[k], ch));
        bench_gp_quote(file, q, sizeof q);
        bench_gp_quote(bench_csv_get(T, rows[k], cl), lq, sizeof lq);
        fprintf(f, "  %s using %d:($2 > 0 ? $2 : 1/0) with lines lw 2 title %s%s\n", q, xcol,
                lq, k + 1 < nrows ? ", \\" : "");
    }
    bench_gp_pdf(f, base);
    if (bench_out_commit(&o, 1, msg, msglen) != 0) return -1;
    snprintf(path, sizeof path, "%s.gp", base);
    return bench_gnuplot(cmd, plots, path);
}

int bench_plot_dir(const char *cmd, const char *dir, int quiet)
{
    char path[BENCH_PATH + 64], msg[8400];
    bench_csv T;
    if (bench_read_runs(cmd, dir, &T)) return 1;
    int ci = bench_csv_col(&T, "instance"), ch = bench_csv_col(&T, "history");
    int cp = bench_csv_col(&T, "plot");
    if (ci < 0 || ch < 0 || bench_csv_col(&T, "label") < 0) {
        bench_error(cmd, "%s: not a runs.csv of lcpbench run (no instance/label/history)",
                    path);
        bench_csv_free(&T);
        return 1;
    }
    snprintf(path, sizeof path, "%s/plots", dir);
    if (bench_mkdir_p(path, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        bench_csv_free(&T);
        return 1;
    }
    int *rows = malloc((size_t)(T.nrow + 1) * sizeof(int));
    char *done = calloc((size_t)T.nrow + 1, 1);
    int rc = 0, missing = 0, figs = 0;
    for (int r = 0; rows && done && r < T.nrow; r++) {
        if (done[r]) continue;
        const char *inst = bench_csv_get(&T, r, ci);
        int n = 0;
        for (int s = r; s < T.nrow; s++) {
            if (strcmp(bench_csv_get(&T, s, ci), inst) != 0) continue;
            done[s] = 1;
            if (!*bench_csv_get(&T, s, ch)) continue;
            if (cp >= 0 && strcmp(bench_csv_get(&T, s, cp), "0") == 0) continue;
            rows[n++] = s;
        }
        if (n == 0) continue;
        for (int x = 0; x < 2; x++) {
            int g = figure(cmd, path, inst, &T, rows, n, x == 0 ? 1 : 4, msg, sizeof msg);
            if (g == 1) missing = 1;
            else if (g < 0) {
                if (msg[0]) bench_error(cmd, "%s", msg);
                rc = 1;
            }
            msg[0] = 0;
            figs++;
        }
    }
    if (!rows || !done) {
        bench_error(cmd, "out of memory");
        rc = 1;
    }
    if (missing)
        bench_error(cmd, "warning: gnuplot not found: wrote %d .gp scripts in %s, no images "
                         "(install gnuplot-nox, then run gnuplot FILE.gp there)", figs, path);
    else if (!quiet && rc == 0 && figs)
        fprintf(stderr, "lcpbench %s: %d figures in %s\n", cmd, figs, path);
    free(rows);
    free(done);
    bench_csv_free(&T);
    return rc;
}

static void help(void)
{
    printf("usage: lcpbench plot DIR\n"
           "\n"
           "Redraw the convergence figures of a run folder (lcpbench run) from DIR/runs.csv\n"
           "and DIR/history/: DIR/plots/INSTANCE-iter and INSTANCE-time, each as .gp (rebuild\n"
           "with `cd DIR/plots && gnuplot FILE.gp'), .png (pngcairo) and .pdf (pdfcairo).\n"
           "Without gnuplot the scripts are written and a warning says so (exit 0).\n");
}

int bench_cmd_plot(int argc, char **argv)
{
    const char *dir = NULL;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            help();
            return 0;
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
    return bench_plot_dir("plot", dir, 0);
}
