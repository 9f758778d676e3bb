/* mtx.c: one Matrix Market file (https://math.nist.gov/MatrixMarket/formats.html): read
 * into a CSR matrix (lcp_mtx_read_matrix) or a vector (lcp_mtx_read_array, the integer
 * lcp_mtx_read_index, the public lcp_read_vector), written from one (lcp_mtx_write_coord,
 * lcp_mtx_write_array, lcp_mtx_write_iarray, the public lcp_write_vector), and the two file
 * helpers the instance folder also uses: the whole-file reader (lcp_read_file) and the write
 * to a temporary name (lcp_write_temp).  What an instance folder holds: instance.c.
 *
 * FORMAT.  `%%MatrixMarket matrix coordinate|array real|double|integer general|symmetric',
 * then a size line (`rows columns entries' or `rows columns'), then the entries, 1-based
 * indices, one a line: a coordinate file `row column value', an array file `value' by
 * columns (the lower triangle by columns when symmetric).  Header words are
 * case-insensitive; `%' comment lines may follow the banner and precede entries; blank lines
 * are skipped; Windows line ends are accepted.
 *
 * FIELDS.  Real files accept the `real', `double' and `integer' fields (an integer field
 * must hold integer tokens; they are read as doubles, exact below 2^53).  An index file
 * (findex.mtx) must be `integer'.  `complex' and `pattern' fields, `skew-symmetric' and
 * `hermitian' are rejected, as are `array' where `coordinate' is required (unless the
 * caller accepts a dense matrix: lcp_mtx_spec.dense_ok) and the converse.  A vector may come
 * as a single row (1 x m, MATLAB's mmwrite of q').
 *
 * VALIDATION.  The reader stops at the first problem and writes one line into msg naming the
 * file and, where it applies, the line: "inst/A.mtx:7: row index 0 out of range 1..5".
 *   LCP_ERR_IO           file missing, unreadable or not a regular file (a FIFO or a
 *                        device is refused without blocking: the type is checked on a
 *                        non-blocking descriptor before any read)
 *   LCP_ERR_FORMAT       no banner, wrong header, bad size line, bad token, index out of
 *                        range or zero, entry above the diagonal in a symmetric file,
 *                        duplicate entry (the later line is named), NaN or Inf where the
 *                        values must be finite, NaN in a bound, fewer entries than
 *                        announced, trailing data, no newline at the end of the file (a file
 *                        cut inside its last number would otherwise read as another value),
 *                        a shape the caller does not accept, sizes the file cannot hold (an
 *                        array needs 2 bytes a value, a coordinate file 6 an entry) or the
 *                        caller's lcp_dim_cap allows, all checked before anything is
 *                        allocated in proportion to the declared sizes
 *   LCP_ERR_INCONSISTENT sizes other than the caller requires, lo = +inf, hi = -inf
 *
 * WRITING.  Values are written with %.17g, so a read-write-read round trip is bit-identical
 * (-0 and inf included); a coordinate matrix is written `symmetric' (lower triangle) when
 * the caller says it is exactly symmetric, else `general'.  lcp_write_temp writes to a new
 * temporary name next to the final one; the caller renames it (atomic against crashes of the
 * program, not of the machine: no fsync).
 *
 * COST.  Reading is O(file bytes + nnz + rows + columns): the file is read whole into memory
 * and parsed by hand (numbers: decimal.c, strtod for what it leaves), then one stable bucket
 * pass by row builds the CSR (files written row by row, like ours, come out sorted;
 * otherwise a stable bucket pass by column goes first).  A duplicate is found after the
 * whole file is read, and its lines by a rescan (of the file read again: the text is freed
 * once its entries are parsed).  Memory: the file text plus 16 bytes per stored entry and
 * the CSR.  A whole instance of 10^5 rows and 3.3e6 stored entries (145 MB of text) reads in
 * about 0.7 s of CPU (instance.c, tests/bench/bench_io.c).  Writing is one fprintf per value
 * (about 0.5 us per entry).
 *
 * LIMITS.  Indices and entry counts are int (2^31 - 1, counting both triangles of a
 * symmetric matrix); paths are limited to LCP_PATH_LEN (4096) bytes; files are read whole
 * (no streaming); numbers are read and written in the C locale's format (strtod and fprintf
 * follow LC_NUMERIC, so a program that sets another numeric locale must not).
 */
#include "io_internal.h"
#include "lcp_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- reading: one Matrix Market file in memory ------------------------------------------ */

typedef struct mm {
    const char *name;     /* path shown in messages */
    char *buf;            /* the file, NUL-terminated */
    const char *s, *end;  /* cursor, end of the text */
    long line;            /* line of the cursor, 1-based */
    int coord;            /* 1 coordinate, 0 array */
    int integer;          /* 1 integer field */
    int symm;             /* 1 symmetric */
    long nrow, ncol, nnz; /* size line (nnz = nrow * ncol for arrays) */
    long size_line;       /* its line number */
    const char *data;     /* where the entries start (after the size line) */
    long data_line;       /* and its line number */
    size_t data_off;      /* data - buf: kept when the text is released (mm_release) */
} mm;

static void mm_free(mm *f)
{
    lcp_free(f->buf);
    memset(f, 0, sizeof *f);
}


/* The whole file (io_internal.h).  The file is opened non-blocking and its type checked on
 * the open descriptor before any read: opening a FIFO for reading blocks until a writer
 * appears, so the type check after a blocking open (or a stat before it, which a rename can
 * race) would not be enough. */
lcp_status lcp_read_file(const char *path, char **text, size_t *size, char *msg,
                         size_t msglen)
{
    lcp_status st = LCP_OK;
    struct stat sb;
    char *buf = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        goto done;
    }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: not a regular file", path);
        goto done;
    }
    if ((unsigned long long)sb.st_size >= (unsigned long long)SIZE_MAX) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory (%lld bytes)", path,
                      (long long)sb.st_size);
        goto done;
    }
    size_t n = (size_t)sb.st_size, got = 0;
    if (!(buf = lcp_malloc(n + 1, 1))) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory (%zu bytes)", path, n);
        goto done;
    }
    while (got < n) {                                              /* regular: never EAGAIN */
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (got != n) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: read error (%zu of %zu bytes)", path, got, n);
        goto done;
    }
    buf[n] = '\0';
    *text = buf;
    if (size) *size = n;
    buf = NULL;
done:
    if (fd >= 0) close(fd);
    lcp_free(buf);
    return st;
}

/* the file at path into f, the cursor at its start */
static lcp_status mm_load(mm *f, const char *path, char *msg, size_t msglen)
{
    size_t size = 0;
    memset(f, 0, sizeof *f);
    f->name = path;
    lcp_status st = lcp_read_file(path, &f->buf, &size, msg, msglen);
    if (st != LCP_OK) return st;
    f->s = f->buf;
    f->end = f->buf + size;
    f->line = 1;
    return LCP_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* c (at s) ends a token: blank, newline or the end of the text */
static int ends_token(const mm *f, const char *s)
{
    return is_blank(*s) || *s == '\n' || s == f->end;
}

/* skip blank and comment lines; 1 when the cursor is at a data line, 0 at the end */
static int mm_next_data(mm *f)
{
    for (;;) {
        const char *s = f->s;
        while (is_blank(*s)) s++;
        if (s == f->end) {
            f->s = s;
            return 0;
        }
        if (*s == '\n' || *s == '%') {
            const char *nl = memchr(s, '\n', (size_t)(f->end - s));
            f->s = nl ? nl + 1 : f->end;
            if (nl) f->line++;
            continue;
        }
        f->s = s;
        return 1;
    }
}

/* integer token at *ps (values beyond +-1e15 saturate) */
static int parse_long(const mm *f, const char **ps, long *v)
{
    const char *s = *ps;
    while (*s == ' ' || *s == '\t') s++;
    int neg = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    if (*s < '0' || *s > '9') return 0;
    long x = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if (x < 1000000000000000L) x = 10 * x + (*s - '0');
    if (!ends_token(f, s)) return 0;
    *v = neg ? -x : x;
    *ps = s;
    return 1;
}

/* real token at *ps; with integer = 1 the token must be an integer */
static int parse_value(const mm *f, const char **ps, int integer, double *v)
{
    const char *s = *ps;
    char *e;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '\n' || *s == '\r' || *s == '\v' || *s == '\f' || s == f->end) return 0;
    const char *fe;
    double x;
    if (lcp_fast_decimal(s, f->end, &fe, &x) && ends_token(f, fe)) {
        e = (char *)(uintptr_t)fe;
    } else {
        x = strtod(s, &e);                                         /* correctly rounded */
        if (e == s || !ends_token(f, e)) return 0;
    }
    if (integer)
        for (const char *t = (*s == '-' || *s == '+') ? s + 1 : s; t < e; t++)
            if (*t < '0' || *t > '9') return 0;
    *v = x;
    *ps = e;
    return 1;
}

/* the rest of the line is blank; moves to the next line */
static int end_line(mm *f, const char **ps)
{
    const char *s = *ps;
    while (is_blank(*s)) s++;
    if (*s == '\n') {
        s++;
        f->line++;
    } else if (s != f->end) {
        return 0;
    }
    *ps = s;
    return 1;
}

/* lower-case word of at most cap-1 letters from *ps (stops at blank or newline) */
static void word(const char **ps, char *w, size_t cap)
{
    const char *s = *ps;
    size_t n = 0;
    while (is_blank(*s)) s++;
    while (*s && !is_blank(*s) && *s != '\n') {
        char c = *s++;
        if (n + 1 < cap) w[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    w[n] = '\0';
    *ps = s;
}

/* banner and size line */
static lcp_status mm_header(mm *f, char *msg, size_t msglen)
{
    char w[5][32];
    const char *s = f->s;
    word(&s, w[0], sizeof w[0]);
    if (strcmp(w[0], "%%matrixmarket") != 0)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                    "%s:1: not a Matrix Market file (no %%%%MatrixMarket banner)", f->name);
    for (int k = 1; k < 5; k++) word(&s, w[k], sizeof w[k]);
    if (strcmp(w[1], "matrix") != 0)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:1: object `%s' is not `matrix'", f->name,
                    w[1]);
    if (strcmp(w[2], "coordinate") != 0 && strcmp(w[2], "array") != 0)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                    "%s:1: format `%s' is neither `coordinate' nor `array'", f->name, w[2]);
    if (strcmp(w[3], "real") != 0 && strcmp(w[3], "double") != 0 &&
        strcmp(w[3], "integer") != 0)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                    "%s:1: field `%s' not supported (want real or integer)", f->name, w[3]);
    if (strcmp(w[4], "general") != 0 && strcmp(w[4], "symmetric") != 0)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                    "%s:1: symmetry `%s' not supported (want general or symmetric)", f->name,
                    w[4]);
    f->coord = w[2][0] == 'c';
    f->integer = w[3][0] == 'i';
    f->symm = w[4][0] == 's';
    if (!end_line(f, &s))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:1: unexpected text after the banner",
                    f->name);
    f->s = s;
    if (!mm_next_data(f))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: no size line", f->name, f->line);
    f->size_line = f->line;
    s = f->s;
    long nnz = 0;
    if (!parse_long(f, &s, &f->nrow) || !parse_long(f, &s, &f->ncol) ||
        (f->coord && !parse_long(f, &s, &nnz)) || !end_line(f, &s))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: bad size line (want `%s')", f->name,
                    f->size_line, f->coord ? "rows columns entries" : "rows columns");
    if (f->nrow < 0 || f->ncol < 0 || nnz < 0 || f->nrow > INT_MAX || f->ncol > INT_MAX ||
        nnz > INT_MAX)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: sizes out of range 0..%d", f->name,
                    f->size_line, INT_MAX);
    if (f->symm && f->nrow != f->ncol)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: symmetric but %ld x %ld", f->name,
                    f->size_line, f->nrow, f->ncol);
    /* an array lists every entry by columns; a symmetric one the lower triangle by columns */
    f->nnz = f->coord ? nnz : f->symm ? f->nrow * (f->nrow + 1) / 2 : f->nrow * f->ncol;
    f->s = s;
    return LCP_OK;
}

static lcp_status mm_expect(const mm *f, const lcp_mtx_spec *sp, char *msg, size_t msglen)
{
    if (f->coord != sp->coord && !(sp->coord && sp->dense_ok))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:1: `%s' format where `%s' is required",
                    f->name, f->coord ? "coordinate" : "array",
                    sp->coord ? "coordinate" : "array");
    if (sp->integer && !f->integer)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:1: `real' field where `integer' is required",
                    f->name);
    if ((f->symm && !sp->symm_ok) || (!f->symm && !sp->general_ok))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:1: `%s' where `%s' is required", f->name,
                    f->symm ? "symmetric" : "general", sp->symm_ok ? "symmetric" : "general");
    return LCP_OK;
}

/* the end of the data: after the last entry only blank and comment lines may follow, and
 * the file ends with a newline (the writer always writes one): a file cut inside its last
 * number would otherwise be read with a different value ("0.25" cut to "0.2") */
static lcp_status mm_finish(mm *f, char *msg, size_t msglen)
{
    if (mm_next_data(f))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                    "%s:%ld: trailing data after the %ld entries announced on line %ld",
                    f->name, f->line, f->nnz, f->size_line);
    if (f->end > f->buf && f->end[-1] != '\n')
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                    "%s:%ld: no newline at the end of the last line (truncated file?)",
                    f->name, f->line);
    return LCP_OK;
}

static lcp_status mm_truncated(const mm *f, long k, char *msg, size_t msglen)
{
    return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                "%s:%ld: file ends after %ld of the %ld entries announced on line %ld", f->name,
                f->line, k, f->nnz, f->size_line);
}

/* x allowed as a value of kind LCP_MTX_FINITE, _LO, _HI, _NOTNAN (io_internal.h) */
static lcp_status check_value(const mm *f, double x, int kind, char *msg, size_t msglen)
{
    if (isnan(x))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: value is NaN", f->name, f->line);
    if (kind == LCP_MTX_FINITE && !isfinite(x))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: value %g is not finite", f->name,
                    f->line, x);
    if (kind == LCP_MTX_LO && x == INFINITY)
        return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s:%ld: lo = +inf", f->name, f->line);
    if (kind == LCP_MTX_HI && x == -INFINITY)
        return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s:%ld: hi = -inf", f->name, f->line);
    return LCP_OK;
}

/* count = f->nnz values of an array file into v[] (one per line) */
static lcp_status mm_read_values(mm *f, int kind, double *v, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    for (long k = 0; k < f->nnz && st == LCP_OK; k++) {
        if (!mm_next_data(f)) return mm_truncated(f, k, msg, msglen);
        const char *s = f->s;
        long line = f->line;
        if (!parse_value(f, &s, f->integer, &v[k]))
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: expected %s", f->name, line,
                        f->integer ? "an integer" : "a real number");
        st = check_value(f, v[k], kind, msg, msglen);
        if (st == LCP_OK && !end_line(f, &s))
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: unexpected text after the value",
                      f->name, line);
        f->s = s;
    }
    return st == LCP_OK ? mm_finish(f, msg, msglen) : st;
}

/* ---- reading: coordinate files to CSR --------------------------------------------------- */

/* Scatter the expanded entries (e = 2k direct, 2k+1 mirrored (j,i) of a symmetric file) into
 * the rows of A in the order given (order == NULL: e ascending, file order). */
static void scatter(const int *ti, const int *tj, const double *tx, long ne, const int *order,
                    int symm, int *next, lcp_csr *A)
{
    for (long t = 0; t < ne; t++) {
        int e;
        if (order) {
            e = order[t];
        } else {
            e = (int)t;
            if ((e & 1) && (!symm || ti[e >> 1] == tj[e >> 1])) continue; /* no mirror */
        }
        int k = e >> 1, mir = e & 1;
        int r = mir ? tj[k] : ti[k];
        int d = next[r]++;
        A->j[d] = mir ? ti[k] : tj[k];
        A->x[d] = tx[k];
    }
}

/* Free the text once its entries are parsed: a coordinate file's text (about 35 bytes an
 * entry) and its triplets (16) would otherwise both be held while the CSR (12) is built.
 * mm_entry_line reads the file again when a message needs a line. */
static void mm_release(mm *f)
{
    f->data_off = (size_t)(f->data - f->buf);
    lcp_free(f->buf);
    f->buf = NULL;
    f->s = f->end = f->data = NULL;
}

/* the file line of entry k (0-based), found again by scanning: only for messages (0 when
 * the released text cannot be read again) */
static long mm_entry_line(const mm *f, long k)
{
    mm g = *f, h = {0};
    if (!f->buf) {                                  /* released: read the file again */
        if (mm_load(&h, f->name, NULL, 0) != LCP_OK) return 0;
        if (f->data_off > (size_t)(h.end - h.buf)) {
            mm_free(&h);
            return 0;
        }
        g.buf = h.buf;
        g.end = h.end;
        g.data = h.buf + f->data_off;
    }
    long line = 0;
    g.s = g.data;
    g.line = f->data_line;
    for (long t = 0; mm_next_data(&g); t++) {
        if (t == k) {
            line = g.line;
            break;
        }
        const char *nl = memchr(g.s, '\n', (size_t)(g.end - g.s));
        if (!nl) break;
        g.s = nl + 1;
        g.line++;
    }
    mm_free(&h);
    return line;
}

/* 1 when every row of A has strictly ascending columns */
static int rows_sorted(const lcp_csr *A)
{
    for (int i = 0; i < A->nrow; i++)
        for (int d = A->p[i] + 1; d < A->p[i + 1]; d++)
            if (A->j[d] <= A->j[d - 1]) return 0;
    return 1;
}

/* The rows of A (counts in A->p) filled again in column order: a stable bucket pass by
 * column lists the total expanded entries, then scatter, stable, leaves every row sorted.
 * next: max(nrow, ncol) + 1 ints of workspace.  LCP_ERR_NOMEM (no message) or LCP_OK. */
static lcp_status scatter_by_columns(const int *ti, const int *tj, const double *tx, int nz,
                                     long total, int symm, int *next, lcp_csr *A)
{
    int *order = lcp_malloc((size_t)total, sizeof(int));
    if (!order) return LCP_ERR_NOMEM;
    memset(next, 0, ((size_t)A->ncol + 1) * sizeof(int));
    for (int k = 0; k < nz; k++) {                                 /* column counts */
        next[tj[k] + 1]++;
        if (symm && ti[k] != tj[k]) next[ti[k] + 1]++;
    }
    for (int c = 0; c < A->ncol; c++) next[c + 1] += next[c];
    for (int k = 0; k < nz; k++) {
        order[next[tj[k]]++] = 2 * k;
        if (symm && ti[k] != tj[k]) order[next[ti[k]]++] = 2 * k + 1;
    }
    memcpy(next, A->p, (size_t)A->nrow * sizeof(int));
    scatter(ti, tj, tx, total, order, symm, next, A);              /* stable: sorted rows */
    lcp_free(order);
    return LCP_OK;
}

/* LCP_ERR_FORMAT naming the first duplicate of A's sorted rows at its later file line (the
 * stored entry of a symmetric file), or LCP_OK */
static lcp_status mm_duplicate(const mm *f, int nz, const int *ti, const int *tj,
                               const lcp_csr *A, char *msg, size_t msglen)
{
    for (int i = 0; i < A->nrow; i++)
        for (int d = A->p[i] + 1; d < A->p[i + 1]; d++)
            if (A->j[d] == A->j[d - 1]) {
                int r = i, c = A->j[d], k1 = -1, k2 = -1;
                if (f->symm && r < c) {                            /* name the stored one */
                    r = c;
                    c = i;
                }
                for (int k = 0; k < nz && k2 < 0; k++)            /* its first two lines */
                    if (ti[k] == r && tj[k] == c) {
                        if (k1 < 0) k1 = k;
                        else k2 = k;
                    }
                return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                                "%s:%ld: duplicate entry (%d,%d), first on line %ld", f->name,
                                mm_entry_line(f, k2), r + 1, c + 1, mm_entry_line(f, k1));
            }
    return LCP_OK;
}

/* A (nrow x ncol) from the nz file entries (0-based ti, tj), both triangles when symm.  One
 * stable bucket pass by row in file order; when that leaves a row unsorted, a stable pass by
 * column goes first.  A duplicate is reported at its later line. */
static lcp_status mm_to_csr(const mm *f, int nz, const int *ti, const int *tj,
                            const double *tx, lcp_csr *A, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    int nrow = (int)f->nrow, ncol = (int)f->ncol, symm = f->symm;
    int *next = NULL;
    long total = nz;
    if (symm)
        for (int k = 0; k < nz; k++) total += ti[k] != tj[k];     /* + mirrored entries */
    if (total > INT_MAX || 2L * nz + 1 > INT_MAX) {
        st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: %ld entries (both triangles): too many",
                  f->name, total);
        goto done;
    }
    st = lcp_csr_alloc(A, nrow, ncol, (int)total);
    next = lcp_malloc((size_t)(nrow > ncol ? nrow : ncol) + 1, sizeof(int));
    if (st != LCP_OK || !next) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", f->name);
        goto done;
    }
    for (int k = 0; k < nz; k++) {                                 /* row counts */
        A->p[ti[k] + 1]++;
        if (symm && ti[k] != tj[k]) A->p[tj[k] + 1]++;
    }
    for (int i = 0; i < nrow; i++) A->p[i + 1] += A->p[i];
    memcpy(next, A->p, (size_t)nrow * sizeof(int));
    scatter(ti, tj, tx, 2L * nz, NULL, symm, next, A);             /* file order */
    if (!rows_sorted(A) &&                                         /* column order first */
        scatter_by_columns(ti, tj, tx, nz, total, symm, next, A) != LCP_OK) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", f->name);
        goto done;
    }
    st = mm_duplicate(f, nz, ti, tj, A, msg, msglen);
done:
    if (st != LCP_OK) lcp_csr_free(A);
    lcp_free(next);
    return st;
}

/* the entry `row column value' at the cursor (a data line): *i, *j 1-based and checked,
 * *x finite; the cursor moves to the next line */
static lcp_status mm_coord_entry(mm *f, long *i, long *j, double *x, char *msg, size_t msglen)
{
    const char *s = f->s;
    long line = f->line;
    lcp_status st;
    if (!parse_long(f, &s, i) || !parse_long(f, &s, j) || !parse_value(f, &s, f->integer, x))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: expected `row column %s'",
                        f->name, line, f->integer ? "integer" : "value");
    if (*i < 1 || *i > f->nrow)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: row index %ld out of range 1..%ld",
                        f->name, line, *i, f->nrow);
    if (*j < 1 || *j > f->ncol)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                        "%s:%ld: column index %ld out of range 1..%ld", f->name, line, *j,
                        f->ncol);
    if (f->symm && *j > *i)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                        "%s:%ld: entry (%ld,%ld) above the diagonal in a symmetric file "
                        "(store the lower triangle)", f->name, line, *i, *j);
    if ((st = check_value(f, *x, LCP_MTX_FINITE, msg, msglen)) != LCP_OK) return st;
    if (!end_line(f, &s))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: unexpected text after the entry",
                        f->name, line);
    f->s = s;
    return LCP_OK;
}

/* entries of a coordinate file (after its header) into the CSR A */
static lcp_status mm_read_coord(mm *f, lcp_csr *A, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    int *ti = NULL, *tj = NULL;
    double *tx = NULL;
    /* every entry takes at least 6 bytes ("1 1 1\n"): cap the allocation by the file size */
    long cap = (long)((f->end - f->s + 1) / 6);
    long nalloc = f->nnz < cap ? f->nnz : cap;
    ti = lcp_malloc((size_t)nalloc, sizeof(int));
    tj = lcp_malloc((size_t)nalloc, sizeof(int));
    tx = lcp_malloc((size_t)nalloc, sizeof(double));
    if (!ti || !tj || !tx) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", f->name);
        goto done;
    }
    f->data = f->s;
    f->data_line = f->line;
    for (long k = 0; k < f->nnz; k++) {
        long i, j;
        if (k == nalloc || !mm_next_data(f)) {
            st = mm_truncated(f, k, msg, msglen);
            goto done;
        }
        if ((st = mm_coord_entry(f, &i, &j, &tx[k], msg, msglen)) != LCP_OK) goto done;
        ti[k] = (int)i - 1;
        tj[k] = (int)j - 1;
    }
    if ((st = mm_finish(f, msg, msglen)) != LCP_OK) goto done;
    mm_release(f);                                   /* the text is parsed */
    st = mm_to_csr(f, (int)f->nnz, ti, tj, tx, A, msg, msglen);
done:
    lcp_free(ti);
    lcp_free(tj);
    lcp_free(tx);
    return st;
}

/* The entries of an array file (after its header) into the CSR A: column by column, the
 * lower triangle only when symmetric (mirrored); entries equal to 0 are not stored.  Every
 * value takes at least 2 bytes ("0\n"): the count is checked against the file's size before
 * anything is allocated. */
static lcp_status mm_read_dense(mm *f, lcp_csr *A, char *msg, size_t msglen)
{
    if (f->nnz > (long)((f->end - f->s + 1) / 2))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                    "%s:%ld: %ld x %ld dense needs %ld values, more than the file can hold",
                    f->name, f->size_line, f->nrow, f->ncol, f->nnz);
    long cap = f->symm ? 2 * f->nnz : f->nnz;
    double *v = lcp_malloc((size_t)(f->nnz ? f->nnz : 1), sizeof(double));
    int *ti = lcp_malloc((size_t)(cap ? cap : 1), sizeof(int));
    int *tj = lcp_malloc((size_t)(cap ? cap : 1), sizeof(int));
    double *tx = lcp_malloc((size_t)(cap ? cap : 1), sizeof(double));
    lcp_status st = v && ti && tj && tx ? LCP_OK
                                        : lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory",
                                                   f->name);
    if (st == LCP_OK) st = mm_read_values(f, LCP_MTX_FINITE, v, msg, msglen);
    long t = 0, k = 0;
    for (long j = 0; st == LCP_OK && j < f->ncol; j++)
        for (long i = f->symm ? j : 0; i < f->nrow; i++, k++) {
            if (v[k] == 0.0) continue;
            ti[t] = (int)i;
            tj[t] = (int)j;
            tx[t++] = v[k];
            if (f->symm && i != j) {
                ti[t] = (int)j;
                tj[t] = (int)i;
                tx[t++] = v[k];
            }
        }
    if (st == LCP_OK) {
        st = lcp_csr_from_triplets(A, (int)f->nrow, (int)f->ncol, (int)t, ti, tj, tx);
        if (st != LCP_OK) st = lcp_fail(msg, msglen, st, "%s: out of memory", f->name);
    }
    lcp_free(v);
    lcp_free(ti);
    lcp_free(tj);
    lcp_free(tx);
    return st;
}

/* ---- reading: the files a caller asks for -------------------------------------------- */

/* the matrix's sizes as the caller requires them (lcp_mtx_read_matrix) */
static lcp_status mm_shape(const mm *f, int square, long want_rows, long want_cols,
                           const char *other, const lcp_dim_cap *cap, char *msg, size_t msglen)
{
    if (f->nrow < 1 || f->ncol < 1)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: empty matrix (%ld x %ld)", f->name,
                        f->size_line, f->nrow, f->ncol);
    if (square && f->nrow != f->ncol)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: %ld x %ld, must be square",
                        f->name, f->size_line, f->nrow, f->ncol);
    if ((want_rows >= 0 && f->nrow != want_rows) || (want_cols >= 0 && f->ncol != want_cols))
        return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                        "%s:%ld: %ld x %ld, but %s needs %ld x %ld", f->name, f->size_line,
                        f->nrow, f->ncol, other, want_rows >= 0 ? want_rows : f->nrow,
                        want_cols >= 0 ? want_cols : f->ncol);
    if (cap->max >= 0 && f->ncol > cap->max)                       /* (rows: checked above) */
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                        "%s:%ld: %ld x %ld, but %s (%lld bytes) can hold at most %ld %s",
                        f->name, f->size_line, f->nrow, f->ncol, cap->file, cap->bytes,
                        cap->max, cap->what);
    return LCP_OK;
}

lcp_status lcp_mtx_read_matrix(const char *path, const lcp_mtx_spec *sp, int square,
                               long want_rows, long want_cols, const char *other,
                               const lcp_dim_cap *cap, lcp_csr *M, char *msg, size_t msglen)
{
    mm f = {0};
    lcp_status st = mm_load(&f, path, msg, msglen);
    if (st == LCP_OK) st = mm_header(&f, msg, msglen);
    if (st == LCP_OK) st = mm_expect(&f, sp, msg, msglen);
    if (st == LCP_OK)
        st = mm_shape(&f, square, want_rows, want_cols, other, cap, msg, msglen);
    if (st == LCP_OK)
        st = f.coord ? mm_read_coord(&f, M, msg, msglen) : mm_read_dense(&f, M, msg, msglen);
    mm_free(&f);
    return st;
}

/* An m x 1 array file loaded into f and its header read, up to its values: a single row
 * (MATLAB's mmwrite of q') is read as the same values in a column; want_rows >= 0 is the
 * required m (other names the file it comes from); integer requires the integer field. */
static lcp_status array_open(mm *f, const char *path, long want_rows, const char *other,
                             int integer, char *msg, size_t msglen)
{
    lcp_mtx_spec sp = {0, 0, 0, 1, integer};
    lcp_status st = mm_load(f, path, msg, msglen);
    if (st == LCP_OK) st = mm_header(f, msg, msglen);
    if (st == LCP_OK) st = mm_expect(f, &sp, msg, msglen);
    if (st != LCP_OK) return st;
    if (f->nrow == 1 && f->ncol != 1) {                            /* a row vector */
        f->nrow = f->ncol;
        f->ncol = 1;
    }
    if (f->ncol != 1)
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: %ld x %ld, must be a single column "
                        "or a single row", path, f->size_line, f->nrow, f->ncol);
    if (want_rows >= 0 && f->nrow != want_rows)
        return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s:%ld: %ld rows, but %s has %ld",
                        path, f->size_line, f->nrow, other, want_rows);
    /* every value takes at least 2 bytes ("1\n"): a longer count is a truncated file */
    if (f->nnz > (long)((f->end - f->s + 1) / 2))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                        "%s:%ld: %ld entries announced but the file is too short to hold them",
                        path, f->size_line, f->nnz);
    return LCP_OK;
}

lcp_status lcp_mtx_read_array(const char *path, long want_rows, const char *other, int values,
                              double **v, long *rows, char *msg, size_t msglen)
{
    mm f = {0};
    double *x = NULL;
    lcp_status st = array_open(&f, path, want_rows, other, 0, msg, msglen);
    if (st == LCP_OK) {
        if (rows) *rows = f.nrow;
        if (!(x = lcp_malloc((size_t)f.nnz, sizeof(double))))
            st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", path);
    }
    if (st == LCP_OK) st = mm_read_values(&f, values, x, msg, msglen);
    if (st == LCP_OK) {
        *v = x;
        x = NULL;
    }
    mm_free(&f);
    lcp_free(x);
    return st;
}

/* the f->nnz rows of an index file (after its header): ix[k] in -1..nrow-1, il[k] its line */
static lcp_status mm_read_indices(mm *f, int *ix, int *il, char *msg, size_t msglen)
{
    for (long k = 0; k < f->nnz; k++) {
        long val;
        if (!mm_next_data(f)) return mm_truncated(f, k, msg, msglen);
        const char *s = f->s;
        long line = f->line;
        if (!parse_long(f, &s, &val) || !end_line(f, &s))
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: expected one integer",
                            f->name, line);
        if (val < -1 || val >= f->nrow)
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: findex %ld out of range -1..%ld",
                            f->name, line, val, f->nrow - 1);
        f->s = s;
        ix[k] = (int)val;
        il[k] = line > INT_MAX ? INT_MAX : (int)line;
    }
    return mm_finish(f, msg, msglen);
}

lcp_status lcp_mtx_read_index(const char *path, long want_rows, const char *other, int **iv,
                              int **lines, char *msg, size_t msglen)
{
    mm f = {0};
    int *ix = NULL, *il = NULL;
    lcp_status st = array_open(&f, path, want_rows, other, 1, msg, msglen);
    if (st == LCP_OK) {
        ix = lcp_malloc((size_t)f.nnz, sizeof(int));
        il = lcp_malloc((size_t)f.nnz, sizeof(int));
        if (!ix || !il) st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", path);
    }
    if (st == LCP_OK) st = mm_read_indices(&f, ix, il, msg, msglen);
    if (st == LCP_OK) {
        *iv = ix;
        *lines = il;
        ix = il = NULL;
    }
    mm_free(&f);
    lcp_free(ix);
    lcp_free(il);
    return st;
}

lcp_status lcp_read_vector(const char *path, int *m, double **v, char *msg, size_t msglen)
{
    long rows = 0;
    lcp_status st;
    if (msg && msglen) msg[0] = '\0';
    if (!path || !m || !v) return lcp_fail(msg, msglen, LCP_ERR_ARG, "no path or output given");
    *v = NULL;
    *m = 0;
    st = lcp_mtx_read_array(path, -1, NULL, LCP_MTX_NOTNAN, v, &rows, msg, msglen);
    if (st == LCP_OK) *m = (int)rows;
    return st;
}

/* ---- writing ------------------------------------------------------------------------------ */

void lcp_mtx_write_coord(FILE *fp, const lcp_csr *M, int lower)
{
    long nz = 0;
    for (int i = 0; i < M->nrow; i++)
        for (int k = M->p[i]; k < M->p[i + 1]; k++) nz += !lower || M->j[k] <= i;
    fprintf(fp, "%%%%MatrixMarket matrix coordinate real %s\n",
            lower ? "symmetric" : "general");
    fprintf(fp, "%d %d %ld\n", M->nrow, M->ncol, nz);
    for (int i = 0; i < M->nrow; i++)
        for (int k = M->p[i]; k < M->p[i + 1]; k++)
            if (!lower || M->j[k] <= i) fprintf(fp, "%d %d %.17g\n", i + 1, M->j[k] + 1, M->x[k]);
}

void lcp_mtx_write_array(FILE *fp, int m, const double *v)
{
    fprintf(fp, "%%%%MatrixMarket matrix array real general\n%d 1\n", m);
    for (int i = 0; i < m; i++) fprintf(fp, "%.17g\n", v[i]);
}

void lcp_mtx_write_iarray(FILE *fp, int m, const int *v)
{
    fprintf(fp, "%%%%MatrixMarket matrix array integer general\n%d 1\n", m);
    for (int i = 0; i < m; i++) fprintf(fp, "%d\n", v[i]);
}

/* Create a new temporary file next to final (final.PID.K.tmp), exclusively.  tmp gets its
 * name.  NULL with errno set on failure. */
static FILE *open_temp(const char *final, char *tmp)
{
    FILE *fp = NULL;
    for (int k = 0; k < 100 && !fp; k++) {
        int r = snprintf(tmp, LCP_PATH_LEN, "%s.%ld.%d.tmp", final, (long)getpid(), k);
        if (r < 0 || r >= LCP_PATH_LEN) {
            errno = ENAMETOOLONG;
            break;
        }
        fp = fopen(tmp, "wx");                                     /* O_CREAT | O_EXCL */
        if (!fp && errno != EEXIST) break;
    }
    if (!fp) tmp[0] = '\0';
    return fp;
}

lcp_status lcp_write_temp(const char *final, char *tmp, lcp_write_fn *write, const void *ctx,
                          char *msg, size_t msglen)
{
    FILE *fp = open_temp(final, tmp);
    if (!fp)
        return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot create: %s", final, strerror(errno));
    write(fp, ctx);
    int bad = ferror(fp);
    int err = errno;
    if (fclose(fp) != 0 || bad) {
        lcp_status st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: write error: %s", final,
                                 strerror(bad ? err : errno));
        remove(tmp);
        tmp[0] = '\0';
        return st;
    }
    return LCP_OK;
}

int lcp_is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* lcp_write_vector's file: an m x 1 array */
typedef struct vector_out {
    int m;
    const double *v;
} vector_out;

static void write_vector(FILE *fp, const void *ctx)
{
    const vector_out *o = ctx;
    lcp_mtx_write_array(fp, o->m, o->v);
}

lcp_status lcp_write_vector(const char *path, int m, const double *v, char *msg, size_t msglen)
{
    char tmp[LCP_PATH_LEN];
    vector_out out = {m, v};
    lcp_status st = LCP_OK;
    tmp[0] = '\0';
    if (msg && msglen) msg[0] = '\0';
    if (!path || m < 0 || (m > 0 && !v)) {
        st = lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: bad vector", path ? path : "(no path)");
        goto done;
    }
    if (lcp_is_dir(path)) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: is a folder", path);
        goto done;
    }
    st = lcp_write_temp(path, tmp, write_vector, &out, msg, msglen);
    if (st != LCP_OK) goto done;
    if (rename(tmp, path) != 0) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot rename %s: %s", path, tmp,
                  strerror(errno));
        goto done;
    }
    tmp[0] = '\0';
done:
    if (tmp[0]) remove(tmp);
    return st;
}
