/* iterates.c: iterates computed elsewhere, read back: a CSV of rows "iteration,time_s,z_1..z_m"
 * (an outside solver's, `lcpbench score' and external suite lines read them), each row handed
 * to a callback as it is read.
 * Cost: one pass over the file. */
#include "grid.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* split a CSV line at commas in place (no quoting: numbers and plain names); count */
static int split(char *line, char **f, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *s = line;; s++) {
        if (n < max) f[n] = s;
        n++;
        s += strcspn(s, ",");
        if (!*s) break;
        *s = 0;
    }
    return n;
}

/* 1 when s is all a number (NaN and Inf included: they are numbers, not header names) */
static int numeric(const char *s, double *v)
{
    char *end;
    while (*s == ' ') s++;
    errno = 0;
    *v = strtod(s, &end);
    while (*end == ' ') end++;
    return end != s && !*end && errno != ERANGE;
}

static int number(const char *s, double *v) { return numeric(s, v) && isfinite(*v); }

int bench_iterates_read(const char *cmd, const char *path, int m, double *z,
                        bench_iterate_fn *fn, void *ctx)
{
    const char *why;
    FILE *f = bench_fopen_read(path, &why);
    if (!f) {
        bench_error(cmd, "%s: cannot open: %s", path, why);
        return 1;
    }
    int cols = m + 2, ci = -1, ct = -1, rc = 0, header = -1;
    size_t cap = 0;
    char *line = NULL, **fld = lcp_malloc((size_t)cols, sizeof *fld);
    int *zcol = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof *zcol);
    long lineno = 0, k = 0;
    if (!fld || !zcol) {
        bench_error(cmd, "%s: out of memory", path);
        rc = 1;
    }
    while (!rc && getline(&line, &cap, f) > 0) {
        lineno++;
        if (line[strspn(line, " \r\n")] == 0) continue;
        int n = split(line, fld, cols);
        double v;
        if (header < 0) { /* the first line: a header when its first field is not a number */
            header = !numeric(fld[0], &v);
            int nz = 0;
            for (int c = 0; c < n && c < cols; c++) {
                if (header && !strcmp(fld[c], "iteration")) ci = c;
                else if (header && !strcmp(fld[c], "time_s")) ct = c;
                else if (nz < m) zcol[nz++] = c;
                else nz++;
            }
            if (n > cols || nz != m) {
                bench_error(cmd, "%s:%ld: %d columns of z, the instance has %d rows", path,
                            lineno, n > cols ? n - (ci >= 0) - (ct >= 0) : nz, m);
                rc = 1;
                break;
            }
            cols = n;
            if (header) continue;
        }
        if (n != cols) {
            bench_error(cmd, "%s:%ld: %d fields, expected %d", path, lineno, n, cols);
            rc = 1;
            break;
        }
        for (int r = 0; r < m && !rc; r++)
            if (!number(fld[zcol[r]], &z[r])) {
                bench_error(cmd, "%s:%ld: field %d '%s' is not a finite number", path, lineno,
                            zcol[r] + 1, fld[zcol[r]]);
                rc = 1;
            }
        double it = (double)k, t = NAN;
        if (!rc && ci >= 0 && (!number(fld[ci], &it) || it != floor(it) || it < 0)) {
            bench_error(cmd, "%s:%ld: iteration '%s' is not a count", path, lineno, fld[ci]);
            rc = 1;
        }
        if (!rc && ct >= 0 && !number(fld[ct], &t)) {
            bench_error(cmd, "%s:%ld: time_s '%s' is not a number", path, lineno, fld[ct]);
            rc = 1;
        }
        if (!rc) fn(ctx, (long)it, t, z);
        k++;
    }
    if (!rc && ferror(f)) {
        bench_error(cmd, "%s: read error", path);
        rc = 1;
    }
    free(line); /* getline's buffer */
    lcp_free(fld);
    lcp_free(zcol);
    fclose(f);
    return rc;
}
