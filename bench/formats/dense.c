/* dense.c: what the dense text formats (siconos.c, ode.c) and the FCLIB reduction share: a
 * problem from dense row-major data, validated, and the whitespace-separated numbers of a
 * text file, each failure a message naming the file and line (the readers' msg, which the
 * command prints once). */
#include "formats.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

lcp_status bench_fmt_fail(char *msg, size_t len, lcp_status st, const char *fmt_, ...)
{
    va_list ap;
    va_start(ap, fmt_);
    vsnprintf(msg, len, fmt_, ap);
    va_end(ap);
    return st;
}

/* ---- a problem from dense row-major data --------------------------------------------------- */

/* M (m x m) from the dense row-major a; entries equal to 0 are not stored */
lcp_status bench_csr_from_dense(lcp_csr *M, int m, const double *a)
{
    size_t nnz = 0;
    for (size_t k = 0; k < (size_t)m * m; k++) nnz += a[k] != 0.0;
    if (nnz > 2147483647u) return LCP_ERR_TOO_LARGE;
    int *ti = lcp_malloc((nnz ? nnz : 1), sizeof *ti);
    int *tj = lcp_malloc((nnz ? nnz : 1), sizeof *tj);
    double *tx = lcp_malloc((nnz ? nnz : 1), sizeof *tx);
    lcp_status st = ti && tj && tx ? LCP_OK : LCP_ERR_NOMEM;
    size_t k = 0;
    for (int i = 0; st == LCP_OK && i < m; i++)
        for (int j = 0; j < m; j++)
            if (a[(size_t)i * m + j] != 0.0) {
                ti[k] = i;
                tj[k] = j;
                tx[k++] = a[(size_t)i * m + j];
            }
    if (st == LCP_OK) st = lcp_csr_from_triplets(M, m, m, (int)nnz, ti, tj, tx);
    lcp_free(ti);
    lcp_free(tj);
    lcp_free(tx);
    return st;
}

/* P (initialised) from the dense m x m matrix a (row-major; entries equal to 0 are not
 * stored), q, and optional lo, hi, findex; validated. */
lcp_status bench_from_dense(lcp_problem *P, int m, const double *a, const double *q,
                            const double *lo, const double *hi, const int *findex,
                            const char *where, char *msg, size_t len)
{
    lcp_status st = bench_csr_from_dense(&P->A, m, a);
    if (st == LCP_OK) st = lcp_problem_alloc_vectors(P, m);
    if (st == LCP_OK && findex && !(P->findex = lcp_malloc((size_t)(m ? m : 1), sizeof(int))))
        st = LCP_ERR_NOMEM;
    for (int i = 0; st == LCP_OK && i < m; i++) {
        P->q[i] = q[i];
        if (lo) P->lo[i] = lo[i];
        if (hi) P->hi[i] = hi[i];
        if (findex) P->findex[i] = findex[i];
    }
    if (st != LCP_OK) return bench_fmt_fail(msg, len, st, "%s: %s", where, lcp_status_str(st));
    char m2[1024];
    st = lcp_problem_check(P, m2, sizeof m2);
    return st == LCP_OK ? st : bench_fmt_fail(msg, len, st, "%s: %s", where, m2);
}

/* ---- whitespace-separated numbers of a text file ------------------------------------------- */

/* next token (skipping blanks, and '#' comment lines when comments) into buf; 0 at the end */
static int next_token(bench_tokens *t, char *buf, size_t len, int comments)
{
    int c;
    size_t n = 0;
    for (;;) {
        c = fgetc(t->f);
        if (c == '\n') t->line++;
        else if (c == '#' && comments) {
            while ((c = fgetc(t->f)) != EOF && c != '\n') {}
            if (c == '\n') t->line++;
        } else if (c == EOF || !(c == ' ' || c == '\t' || c == '\r')) break;
    }
    while (c != EOF && !(c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
        if (n + 1 < len) buf[n++] = (char)c;
        c = fgetc(t->f);
    }
    if (c == '\n') ungetc(c, t->f);
    buf[n] = 0;
    return n > 0;
}

/* a real (inf allowed when bounds) or an integer in [ilo, ihi] (when integer) */
lcp_status bench_tokens_num(bench_tokens *t, int comments, int bounds, double *v,
                            const char *what, char *msg, size_t len)
{
    char buf[128], *end;
    if (!next_token(t, buf, sizeof buf, comments))
        return bench_fmt_fail(msg, len, LCP_ERR_FORMAT, "%s:%ld: file ends before %s", t->path,
                              t->line, what);
    errno = 0;
    *v = strtod(buf, &end);
    if (end == buf || *end || errno == ERANGE || isnan(*v) || (!bounds && isinf(*v)))
        return bench_fmt_fail(msg, len, LCP_ERR_FORMAT, "%s:%ld: %s: '%s' is not a %snumber",
                              t->path, t->line, what, buf, bounds ? "" : "finite ");
    return LCP_OK;
}

lcp_status bench_tokens_int(bench_tokens *t, int comments, long lo, long hi, long *v,
                            const char *what, char *msg, size_t len)
{
    char buf[128], *end;
    if (!next_token(t, buf, sizeof buf, comments))
        return bench_fmt_fail(msg, len, LCP_ERR_FORMAT, "%s:%ld: file ends before %s", t->path,
                              t->line, what);
    errno = 0;
    *v = strtol(buf, &end, 10);
    if (end == buf || *end || errno == ERANGE || *v < lo || *v > hi)
        return bench_fmt_fail(msg, len, LCP_ERR_FORMAT,
                              "%s:%ld: %s: '%s' is not an integer in %ld..%ld", t->path, t->line,
                              what, buf, lo, hi);
    return LCP_OK;
}

lcp_status bench_tokens_open(bench_tokens *t, const char *path, char *msg, size_t len)
{
    struct stat sb;
    t->path = path;
    t->line = 1;
    t->f = NULL;
    if (stat(path, &sb) != 0)
        return bench_fmt_fail(msg, len, LCP_ERR_IO, "%s: cannot open: %s", path,
                              strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return bench_fmt_fail(msg, len, LCP_ERR_IO, "%s: not a regular file", path);
    if (!(t->f = fopen(path, "r")))
        return bench_fmt_fail(msg, len, LCP_ERR_IO, "%s: cannot open: %s", path,
                              strerror(errno));
    return LCP_OK;
}
