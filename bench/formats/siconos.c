/* siconos.c: Siconos Numerics' .dat LCP files (linearComplementarity_printInFile), in.
 * Dense storage only (the matrix buffer is column-major: value k is M(k mod n, k div n));
 * w = M z + q is our convention.  Layout: n, the storage type (0 dense), the matrix's rows
 * and columns, its dense rows and columns, the n x n values, then q. */
#include "formats.h"

#define fail bench_fmt_fail /* msg filled, the status returned (dense.c) */

lcp_status bench_siconos_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                              double **cone, char *msg, size_t len)
{
    (void)o;
    *cone = NULL;
    enum { MAX = BENCH_DENSE_MAX };
    bench_tokens t;
    lcp_status st = bench_tokens_open(&t, path, msg, len);
    long n = 0, storage = 0, s0 = 0, s1 = 0, d0 = 0, d1 = 0;
    double *a = NULL, *q = NULL;
    if (st == LCP_OK) st = bench_tokens_int(&t, 0, 1, MAX, &n, "the size", msg, len);
    if (st == LCP_OK) st = bench_tokens_int(&t, 0, 0, 10, &storage, "the storage type", msg, len);
    if (st == LCP_OK && storage != 0)
        st = fail(msg, len, LCP_ERR_FORMAT, "%s:%ld: storage type %ld (%s) is not supported: "
                  "only dense (0)", path, t.line, storage,
                  storage == 1 ? "sparse block" : storage == 2 ? "sparse" : "unknown");
    if (st == LCP_OK) st = bench_tokens_int(&t, 0, 1, MAX, &s0, "the row count", msg, len);
    if (st == LCP_OK) st = bench_tokens_int(&t, 0, 1, MAX, &s1, "the column count", msg, len);
    if (st == LCP_OK) st = bench_tokens_int(&t, 0, 1, MAX, &d0, "the dense row count", msg, len);
    if (st == LCP_OK) st = bench_tokens_int(&t, 0, 1, MAX, &d1, "the dense column count", msg, len);
    if (st == LCP_OK && (s0 != n || s1 != n || d0 != n || d1 != n))
        st = fail(msg, len, LCP_ERR_INCONSISTENT, "%s:%ld: matrix %ld x %ld for an LCP of size "
                  "%ld", path, t.line, s0, s1, n);
    if (st == LCP_OK && (!(a = lcp_malloc((size_t)n * n, sizeof *a)) ||
                         !(q = lcp_malloc((size_t)n, sizeof *q))))
        st = fail(msg, len, LCP_ERR_NOMEM, "%s: out of memory for %ld x %ld", path, n, n);
    for (long k = 0; st == LCP_OK && k < n * n; k++) {
        double v;
        st = bench_tokens_num(&t, 0, 0, &v, "M", msg, len);
        a[(k % n) * n + k / n] = v; /* column-major buffer: value k is M(k mod n, k div n) */
    }
    for (long i = 0; st == LCP_OK && i < n; i++)
        st = bench_tokens_num(&t, 0, 0, &q[i], "q", msg, len);
    if (st == LCP_OK) st = bench_from_dense(P, (int)n, a, q, NULL, NULL, NULL, path, msg, len);
    if (t.f) fclose(t.f);
    lcp_free(a);
    lcp_free(q);
    return st;
}
