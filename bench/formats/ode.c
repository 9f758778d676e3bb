/* ode.c: a dense text form of ODE's, DART's and Bullet's dSolveLCP arguments, in and out:
 * A x = b + w with lo, hi, findex and nub leading unbounded rows, so q = -b.  Layout: lines
 * starting with '#' are comments; then `n nub', the n x n matrix A row by row (full, not
 * ODE's padded triangle), then b, lo, hi (n numbers each, `inf' allowed) and findex (n
 * integers, -1 = none). */
#include "formats.h"

#include <math.h>

#define fail bench_fmt_fail /* msg filled, the status returned (dense.c) */

lcp_status bench_ode_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                          double **cone, char *msg, size_t len)
{
    (void)o;
    *cone = NULL;
    bench_tokens t;
    lcp_status st = bench_tokens_open(&t, path, msg, len);
    long n = 0, nub = 0;
    double *a = NULL, *b = NULL, *lo = NULL, *hi = NULL;
    int *fx = NULL;
    if (st == LCP_OK) st = bench_tokens_int(&t, 1, 1, BENCH_DENSE_MAX, &n, "n", msg, len);
    if (st == LCP_OK) st = bench_tokens_int(&t, 1, 0, n, &nub, "nub", msg, len);
    if (st == LCP_OK && (!(a = lcp_malloc((size_t)n * n, sizeof *a)) ||
                         !(b = lcp_malloc((size_t)n, sizeof *b)) ||
                         !(lo = lcp_malloc((size_t)n, sizeof *lo)) ||
                         !(hi = lcp_malloc((size_t)n, sizeof *hi)) ||
                         !(fx = lcp_malloc((size_t)n, sizeof *fx))))
        st = fail(msg, len, LCP_ERR_NOMEM, "%s: out of memory for %ld x %ld", path, n, n);
    for (long k = 0; st == LCP_OK && k < n * n; k++)
        st = bench_tokens_num(&t, 1, 0, &a[k], "A", msg, len);
    for (long i = 0; st == LCP_OK && i < n; i++) {
        st = bench_tokens_num(&t, 1, 0, &b[i], "b", msg, len);
        b[i] = -b[i]; /* A x = b + w  <=>  w = A x + q with q = -b */
    }
    for (long i = 0; st == LCP_OK && i < n; i++)
        st = bench_tokens_num(&t, 1, 1, &lo[i], "lo", msg, len);
    for (long i = 0; st == LCP_OK && i < n; i++)
        st = bench_tokens_num(&t, 1, 1, &hi[i], "hi", msg, len);
    for (long i = 0; st == LCP_OK && i < n; i++) {
        long v;
        st = bench_tokens_int(&t, 1, -1, n - 1, &v, "findex", msg, len);
        fx[i] = (int)v;
    }
    for (long i = 0; st == LCP_OK && i < nub; i++)
        if (lo[i] != -INFINITY || hi[i] != INFINITY || fx[i] >= 0)
            st = fail(msg, len, LCP_ERR_INCONSISTENT, "%s: row %ld is one of the nub = %ld "
                      "unbounded rows but has bounds or a findex", path, i, nub);
    int any = 0;
    for (long i = 0; fx && i < n; i++) any |= fx[i] >= 0;
    if (st == LCP_OK)
        st = bench_from_dense(P, (int)n, a, b, lo, hi, any ? fx : NULL, path, msg, len);
    if (t.f) fclose(t.f);
    lcp_free(a);
    lcp_free(b);
    lcp_free(lo);
    lcp_free(hi);
    lcp_free(fx);
    return st;
}

static void put_num(FILE *f, double v, const char *sep)
{
    if (isinf(v)) fprintf(f, "%sinf%s", v < 0 ? "-" : "", sep);
    else fprintf(f, "%.17g%s", v, sep);
}

lcp_status bench_ode_write(const char *path, const lcp_problem *P, const double *cone,
                           int force, char *msg, size_t len)
{
    (void)cone; /* no place for it */
    int m = P->m, nub = 0;
    while (nub < m && P->lo[nub] == -INFINITY && P->hi[nub] == INFINITY &&
           !(P->findex && P->findex[nub] >= 0))
        nub++;
    double *row = lcp_calloc((size_t)(m ? m : 1), sizeof *row);
    bench_out o;
    char m2[4400];
    if (!row) return fail(msg, len, LCP_ERR_NOMEM, "%s: out of memory", path);
    if (bench_out_open(&o, path, force, m2, sizeof m2) != 0) {
        lcp_free(row);
        return fail(msg, len, LCP_ERR_IO, "%s", m2);
    }
    FILE *f = o.f;
    fprintf(f, "# ODE/DART/Bullet dSolveLCP arguments written by lcpbench: A x = b + w,\n"
               "# lo <= x <= hi, findex (-1 = none), the first nub rows unbounded; b = -q.\n"
               "# n nub, then A (n rows, full), b, lo, hi, findex\n%d %d\n", m, nub);
    for (int i = 0; i < m; i++) {
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) row[P->A.j[k]] = P->A.x[k];
        for (int j = 0; j < m; j++) put_num(f, row[j], j + 1 < m ? " " : "\n");
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) row[P->A.j[k]] = 0.0;
    }
    for (int i = 0; i < m; i++) put_num(f, -P->q[i], i + 1 < m ? " " : "\n"); /* b = -q */
    for (int i = 0; i < m; i++) put_num(f, P->lo[i], i + 1 < m ? " " : "\n");
    for (int i = 0; i < m; i++) put_num(f, P->hi[i], i + 1 < m ? " " : "\n");
    for (int i = 0; i < m; i++)
        fprintf(f, "%d%s", P->findex ? P->findex[i] : -1, i + 1 < m ? " " : "\n");
    lcp_free(row);
    if (bench_out_commit(&o, 1, m2, sizeof m2) != 0) return fail(msg, len, LCP_ERR_IO, "%s", m2);
    return LCP_OK;
}
