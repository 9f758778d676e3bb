/* csv.c: the harness's one CSV reader (RFC 4180), one record parser under two ways to read:
 *   - bench_csv_read: a whole file (the harness's own outputs: runs.csv, results), strict: a
 *     record with more or fewer fields than the header, a quoted field never closed or a last
 *     line without its line break is refused in one line naming the file and line;
 *   - bench_csv_stream: a record at a time (iterates of an outside solver, whose files can
 *     be larger than memory), the caller checking the fields; a last line without its line
 *     break is read (other programs' files end so).
 * Cost: one pass over the file; the cells point into one buffer. */
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- CSV --------------------------------------------------------------------------------- */

/* One record of CSV text at r, parsed in place per RFC 4180 (w: where the unquoted text goes,
 * at or before r): fields split at commas outside quotes, "" inside quotes is one quote,
 * quoted fields may hold commas and line breaks; CRLF or LF ends the record.  Each field's
 * start is appended to (*c)[] (*cap grown), *nf counts them, *ln counts the line breaks read.
 * Returns the first byte after the record; NULL when out of memory, or with *open the line of
 * a quoted field the text ends inside. */
static char *record(char *r, char ***c, size_t *cap, size_t *nc, int *nf, int *ln, int *open)
{
    char *w = r;
    *nf = 0;
    for (;;) {
        char *start = w;
        if (*r == '"') {
            int at = *ln;
            for (r++;; ) {
                if (!*r) {                                  /* the text ends inside quotes */
                    *open = at;
                    return NULL;
                }
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *ln += *r == '\n';
                    *w++ = *r++;
                }
            }
        }
        while (*r && *r != ',' && *r != '\n' && *r != '\r') *w++ = *r++;
        if (*r == '\r') r++;
        char end = *r;
        *w++ = 0;
        if (end) r++;
        *ln += end == '\n';
        if (*nc == *cap) {
            char **t = lcp_realloc(*c, *cap * 2, sizeof(char *));
            if (!t) return NULL;
            *c = t;
            *cap *= 2;
        }
        (*c)[(*nc)++] = start;
        (*nf)++;
        if (end != ',') return r;
    }
}

/* Parse the CSV text in buf (n bytes, NUL at buf[n]) in place, record by record: blank lines
 * and "#" lines before the header are skipped.  cells[] receives the field starts, rowlen[]
 * the fields per record and line[] the line each record starts on; returns the number of
 * records, -1 when out of memory, or -2 with *bad the line of a quoted field that is never
 * closed. */
static int parse(char *buf, size_t n, char ***cells, int **rowlen, int **line, size_t *ncell,
                 int *bad)
{
    size_t cap = 1024, nc = 0;
    int rcap = 256, nr = 0, ln = 1, open = 0;
    char **c = lcp_malloc(cap, sizeof(char *));
    int *rl = lcp_malloc((size_t)rcap, sizeof(int)), *li = lcp_malloc((size_t)rcap, sizeof(int));
    char *r = buf;
    while (c && rl && li && r && *r) {
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
        li[nr] = ln;
        r = record(r, &c, &cap, &nc, &rl[nr], &ln, &open);
        nr++;
    }
    if (!c || !rl || !li || !r || *r) {
        lcp_free(c);
        lcp_free(rl);
        lcp_free(li);
        *bad = open;
        return open ? -2 : -1;
    }
    *cells = c;
    *rowlen = rl;
    *line = li;
    *ncell = nc;
    return nr;
}

int bench_csv_stream_open(bench_csv_stream *S, const char *path, char *msg, size_t msglen)
{
    memset(S, 0, sizeof *S);
    const char *why;
    S->path = path;
    if (!(S->f = bench_fopen_read(path, &why))) {
        snprintf(msg, msglen, "%s: cannot read: %s", path, why);
        return -1;
    }
    S->fcap = 64;
    if (!(S->field = lcp_malloc(S->fcap, sizeof(char *)))) {
        bench_csv_stream_close(S);
        snprintf(msg, msglen, "%s: out of memory", path);
        return -1;
    }
    return 0;
}

/* 1 when text holds an odd number of quotes: a quoted field goes on on the next line */
static int inside_quotes(const char *text)
{
    int odd = 0;
    for (; *text; text++) odd ^= *text == '"';
    return odd;
}

int bench_csv_next(bench_csv_stream *S, char *msg, size_t msglen)
{
    for (;;) {
        ssize_t got = getline(&S->buf, &S->cap, S->f);
        if (got <= 0) {
            if (ferror(S->f)) {
                snprintf(msg, msglen, "%s: read error", S->path);
                return -1;
            }
            return 0;
        }
        S->line = ++S->lines;
        if (S->buf[strspn(S->buf, "\r\n")] == 0) continue;            /* blank line */
        if (S->records == 0 && S->buf[0] == '#') continue;            /* comment first */
        size_t len = (size_t)got;
        int odd = inside_quotes(S->buf);
        while (odd) {                            /* a quoted line break: join the next line */
            char *more = NULL;
            size_t mcap = 0;
            ssize_t g = getline(&more, &mcap, S->f);
            if (g <= 0) {
                free(more);
                break;                           /* record() names the open quote */
            }
            S->lines++;
            char *t = realloc(S->buf, len + (size_t)g + 1);
            if (!t) {
                free(more);
                snprintf(msg, msglen, "%s: out of memory", S->path);
                return -1;
            }
            memcpy(t + len, more, (size_t)g + 1);
            odd ^= inside_quotes(more);          /* the quotes so far, counted once */
            free(more);
            S->buf = t;
            len += (size_t)g;
            S->cap = len + 1;
        }
        size_t nc = 0;
        int ln = S->line, open = 0;
        if (!record(S->buf, &S->field, &S->fcap, &nc, &S->nfield, &ln, &open)) {
            if (open)
                snprintf(msg, msglen, "%s:%d: a quoted field is never closed", S->path, open);
            else
                snprintf(msg, msglen, "%s: out of memory", S->path);
            return -1;
        }
        S->records++;
        return S->nfield;
    }
}

void bench_csv_stream_close(bench_csv_stream *S)
{
    if (S->f) fclose(S->f);
    free(S->buf); /* getline's buffer */
    lcp_free(S->field);
    memset(S, 0, sizeof *S);
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
