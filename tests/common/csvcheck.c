/* csvcheck.c: csvcheck FILE...: each FILE is a plain CSV as RFC 4180 defines it (section 2):
 * records end in LF or CRLF; a field is either free of `,' `"' CR LF, or enclosed in double
 * quotes with every quote inside doubled; the first record is a header of non-empty,
 * distinct names; every record has as many fields as the header; no comment lines (a
 * first field that starts with `#').  Prints one TAP line per file ("ok N - FILE is plain
 * RFC 4180 CSV", or "not ok" with the first defect and its line) and the plan; exit 1 when
 * a file failed.  It reads the files byte by byte and needs nothing but libc (and tap.h).
 */
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXF = 4096, MAXNAME = 256 };

typedef struct parser {
    FILE *f;
    long line;
    char why[256];
} parser;

/* one field into buf (truncated at len); *end = ',' '\n' or EOF; -1 on a defect */
static int field(parser *p, char *buf, size_t len, int *end)
{
    size_t n = 0;
    int c = fgetc(p->f);
    if (c == '"') {
        for (;;) {
            c = fgetc(p->f);
            if (c == EOF) {
                snprintf(p->why, sizeof p->why, "line %ld: quoted field not closed", p->line);
                return -1;
            }
            if (c == '"') {
                c = fgetc(p->f);
                if (c != '"') break;            /* the closing quote */
            }
            if (c == '\n') p->line++;
            if (n + 1 < len) buf[n++] = (char)c;
        }
    } else {
        while (c != ',' && c != '\n' && c != '\r' && c != EOF) {
            if (c == '"') {
                snprintf(p->why, sizeof p->why, "line %ld: quote inside an unquoted field",
                         p->line);
                return -1;
            }
            if (n + 1 < len) buf[n++] = (char)c;
            c = fgetc(p->f);
        }
    }
    buf[n] = 0;
    if (c == '\r') {
        c = fgetc(p->f);
        if (c != '\n') {
            snprintf(p->why, sizeof p->why, "line %ld: CR not followed by LF", p->line);
            return -1;
        }
    }
    if (c != ',' && c != '\n' && c != EOF) {
        snprintf(p->why, sizeof p->why, "line %ld: text after a closing quote", p->line);
        return -1;
    }
    *end = c;
    return 0;
}

/* 0 when the file is plain CSV, else -1 with p->why */
static int check(const char *path, parser *p)
{
    p->f = fopen(path, "rb");
    p->line = 1;
    if (!p->f) {
        snprintf(p->why, sizeof p->why, "cannot read");
        return -1;
    }
    static char names[MAXF][MAXNAME];
    char buf[MAXNAME];
    int ncol = -1, rc = 0, nrec = 0;
    for (;;) {
        int c = fgetc(p->f);
        if (c == EOF) break;
        ungetc(c, p->f);
        int nf = 0, end = ',';
        while (rc == 0 && end == ',') {
            if (field(p, buf, sizeof buf, &end) != 0) rc = -1;
            else if (nf == 0 && buf[0] == '#') {
                snprintf(p->why, sizeof p->why, "line %ld: a comment line", p->line);
                rc = -1;
            } else if (ncol < 0 && nf < MAXF) {
                if (!buf[0]) {
                    snprintf(p->why, sizeof p->why, "header: empty column name");
                    rc = -1;
                }
                for (int k = 0; rc == 0 && k < nf; k++)
                    if (!strcmp(names[k], buf)) {
                        snprintf(p->why, sizeof p->why, "header: column '%s' twice", buf);
                        rc = -1;
                    }
                snprintf(names[nf], MAXNAME, "%s", buf);
            }
            nf++;
        }
        if (rc) break;
        if (ncol < 0) ncol = nf;
        else if (nf != ncol) {
            snprintf(p->why, sizeof p->why, "line %ld: %d fields, the header has %d", p->line,
                     nf, ncol);
            rc = -1;
            break;
        }
        nrec++;
        p->line++;
        if (end == EOF) break;
    }
    if (rc == 0 && nrec == 0) {
        snprintf(p->why, sizeof p->why, "empty file (no header)");
        rc = -1;
    }
    fclose(p->f);
    return rc;
}

int main(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        parser p;
        memset(&p, 0, sizeof p);
        int good = check(argv[k], &p) == 0;
        ok(good, "%s is plain RFC 4180 CSV%s%s", argv[k], good ? "" : ": ", good ? "" : p.why);
    }
    return tap_done();
}
