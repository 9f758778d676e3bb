/* iterates.c: iterates computed elsewhere, read back: a CSV of rows "iteration,time_s,z_1..z_m"
 * (an outside solver's, `lcpbench score' and external suite lines read them), each row handed
 * to a callback as it is read (the kit's CSV reader, a record at a time).
 * Cost: one pass over the file. */
#include "grid.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char msg[8400];
    bench_csv_stream S;
    if (bench_csv_stream_open(&S, path, msg, sizeof msg)) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    int cols = m + 2, ci = -1, ct = -1, rc = 0, header = -1, n;
    int *zcol = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof *zcol);
    long k = 0;
    if (!zcol) {
        bench_error(cmd, "%s: out of memory", path);
        rc = 1;
    }
    while (!rc && (n = bench_csv_next(&S, msg, sizeof msg)) != 0) {
        if (n < 0) {
            bench_error(cmd, "%s", msg);
            rc = 1;
            break;
        }
        char **fld = S.field;
        double v;
        if (header < 0) { /* the first record: a header when its first field is not a number */
            header = !numeric(fld[0], &v);
            int nz = 0;
            for (int c = 0; c < n && c < cols; c++) {
                if (header && !strcmp(fld[c], "iteration")) ci = c;
                else if (header && !strcmp(fld[c], "time_s")) ct = c;
                else if (nz < m) zcol[nz++] = c;
                else nz++;
            }
            if (n > cols || nz != m) {
                bench_error(cmd, "%s:%d: %d columns of z, the instance has %d rows", path,
                            S.line, n > cols ? n - (ci >= 0) - (ct >= 0) : nz, m);
                rc = 1;
                break;
            }
            cols = n;
            if (header) continue;
        }
        if (n != cols) {
            bench_error(cmd, "%s:%d: %d fields, expected %d", path, S.line, n, cols);
            rc = 1;
            break;
        }
        for (int r = 0; r < m && !rc; r++)
            if (!number(fld[zcol[r]], &z[r])) {
                bench_error(cmd, "%s:%d: field %d '%s' is not a finite number", path, S.line,
                            zcol[r] + 1, fld[zcol[r]]);
                rc = 1;
            }
        double it = (double)k, t = NAN;
        if (!rc && ci >= 0 && (!number(fld[ci], &it) || it != floor(it) || it < 0)) {
            bench_error(cmd, "%s:%d: iteration '%s' is not a count", path, S.line, fld[ci]);
            rc = 1;
        }
        if (!rc && ct >= 0 && !number(fld[ct], &t)) {
            bench_error(cmd, "%s:%d: time_s '%s' is not a number", path, S.line, fld[ct]);
            rc = 1;
        }
        if (!rc) fn(ctx, (long)it, t, z);
        k++;
    }
    lcp_free(zcol);
    bench_csv_stream_close(&S);
    return rc;
}
