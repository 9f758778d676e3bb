/* test_io.c: the instance-folder reader and writer (lcp/instance.c, lcp/mtx.c,
 * lcp/decimal.c) and lcp_problem_check.
 *
 * Every folder is built at test time under a mkdtemp() directory: a small hand-written
 * instance with every file present (A = J Minv J^T + diag(E) exactly in binary), and one
 * variant per bad input (one file replaced or removed).  Each bad case checks the status,
 * that the message names the file (and the line where there is one), and that the problem is
 * left empty.  Round trips compare every array with memcmp.  Cost: well under a second.
 */
#include "lcp.h"
#include "tap.h"
#include "sameprob.h"
#include "testprob.h"

#include <dirent.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256]; /* mkdtemp directory */

typedef struct file_t {
    const char *name, *text; /* text NULL: the file is absent */
} file_t;

/* The base instance: m = n = 3, J = I, Minv = [2 1 0; 1 3 0; 0 0 4], E = (0.5, 0.25, 0),
 * A = Minv + diag(E); rows 2 and 3 are friction rows of the normal row 1. */
static const file_t base[] = {
    {"A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
              "% the LCP matrix\n"
              "3 3 4\n"
              "1 1 2.5\n"
              "2 1 1\n"
              "2 2 3.25\n"
              "3 3 4\n"},
    {"q.mtx", "%%MatrixMarket matrix array real general\n3 1\n-1\n0.5\n0.25\n"},
    {"lo.mtx", "%%MatrixMarket matrix array real general\n3 1\n0\n-0.5\n-0.5\n"},
    {"hi.mtx", "%%MatrixMarket matrix array real general\n3 1\ninf\n0.5\n0.5\n"},
    {"findex.mtx", "%%MatrixMarket matrix array integer general\n3 1\n-1\n0\n0\n"},
    {"J.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 1\n3 3 1\n"},
    {"Minv.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                 "3 3 4\n1 1 2\n2 1 1\n2 2 3\n3 3 4\n"},
    {"E.mtx", "%%MatrixMarket matrix array real general\n3 1\n0.5\n0.25\n0\n"},
    {"z0.mtx", "%%MatrixMarket matrix array real general\n3 1\n0.1\n-0\n1e-300\n"},
    {"zref.mtx", "%%MatrixMarket matrix array real general\n3 1\n0.4\n0\n0\n"},
    {"meta.txt", "scene = hand\nstep = 3\nnotes = two  spaces, no newline at the end"},
};
enum { NBASE = sizeof base / sizeof base[0] };

static int write_text(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (!fp) return -1;
    fputs(text, fp);
    return fclose(fp);
}

/* a folder root/name holding the base files with the overrides applied */
static const char *make_case(const char *name, const file_t *ov, int nov)
{
    static char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    mkdir(dir, 0777);
    for (int b = 0; b < NBASE; b++) {
        const char *text = base[b].text;
        for (int k = 0; k < nov; k++)
            if (strcmp(ov[k].name, base[b].name) == 0) text = ov[k].text;
        if (text) write_text(dir, base[b].name, text);
    }
    for (int k = 0; k < nov; k++) {                                 /* new files */
        int known = 0;
        for (int b = 0; b < NBASE; b++) known |= strcmp(ov[k].name, base[b].name) == 0;
        if (!known && ov[k].text) write_text(dir, ov[k].name, ov[k].text);
    }
    return dir;
}

static int is_empty(const lcp_problem *P)
{
    return P->m == 0 && P->n == 0 && !P->A.p && !P->q && !P->lo && !P->hi && !P->findex &&
           !P->J.p && !P->Minv.p && !P->E && !P->z0 && !P->zref && !P->meta;
}

/* one bad folder: status want, message containing `where' (file or file:line) */
static void bad(const char *name, const file_t *ov, int nov, lcp_status want, const char *where)
{
    char msg[512];
    lcp_problem P;
    const char *dir = make_case(name, ov, nov);
    lcp_status st = lcp_read_instance(dir, &P, msg, sizeof msg);
    int good = st == want && strstr(msg, where) != NULL && strchr(msg, '\n') == NULL &&
               is_empty(&P);
    ok(good, "io/bad/%s", name);
    if (getenv("IO_VERBOSE")) tap_diag("%s", msg);
    if (!good) tap_diag("status %s (want %s), msg \"%s\" (want \"%s\")", lcp_status_str(st),
                        lcp_status_str(want), msg, where);
    lcp_problem_free(&P);
}



static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static int file_has(const char *path, const char *needle)
{
    char buf[4096];
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

static void test_good(void)
{
    char msg[512], dir2[512];
    lcp_problem P, Q;
    const char *dir = make_case("good", NULL, 0);
    lcp_status st = lcp_read_instance(dir, &P, msg, sizeof msg);
    ok(st == LCP_OK, "io/read-complete-instance");
    if (st != LCP_OK) {
        tap_diag("%s", msg);
        return;
    }
    ok(P.m == 3 && P.n == 3 && LCP_CSR_NNZ(&P.A) == 5 && P.A.x[1] == 1.0 && P.A.x[2] == 1.0 &&
           P.hi[0] == INFINITY && P.lo[1] == -0.5 && P.findex && P.findex[2] == 0 &&
           P.E && P.E[1] == 0.25 && P.z0[2] == 1e-300 && signbit(P.z0[1]),
       "io/read-values");
    ok(P.symmetric == 1, "io/symmetric-flag-set");
    ok(P.meta && strcmp(P.meta, base[NBASE - 1].text) == 0, "io/meta-verbatim");
    snprintf(dir2, sizeof dir2, "%s/good-written", root);
    st = lcp_write_instance(dir2, &P, msg, sizeof msg);
    ok(st == LCP_OK, "io/write-creates-folder");
    st = lcp_read_instance(dir2, &Q, msg, sizeof msg);
    ok(st == LCP_OK && same_problem(&P, &Q), "io/roundtrip-bit-identical");
    char p[1024];
    snprintf(p, sizeof p, "%s/A.mtx", dir2);
    ok(file_has(p, "coordinate real symmetric"), "io/write-symmetric-A-as-lower");
    snprintf(p, sizeof p, "%s/Minv.mtx", dir2);
    ok(file_has(p, "coordinate real symmetric"), "io/write-Minv-symmetric");
    snprintf(p, sizeof p, "%s/meta.txt", dir2);
    ok(file_has(p, "no newline at the end"), "io/write-meta-verbatim");
    ok(count_entries(dir2) == NBASE, "io/write-no-temporaries-left");

    /* rewriting a folder without zref and E/J/Minv removes the stale files */
    free(Q.zref);
    Q.zref = NULL;
    lcp_problem_free(&P);
    st = lcp_write_instance(dir2, &Q, msg, sizeof msg);
    lcp_status st2 = lcp_read_instance(dir2, &P, msg, sizeof msg);
    snprintf(p, sizeof p, "%s/zref.mtx", dir2);
    ok(st == LCP_OK && st2 == LCP_OK && !P.zref && access(p, F_OK) != 0 && same_problem(&P, &Q),
       "io/write-removes-stale-files");
    lcp_problem_free(&P);
    lcp_problem_free(&Q);
}

static void test_variants(void)
{
    char msg[512];
    lcp_problem P, Q;
    const char *dir;
    lcp_status st;

    /* the same A stored general, unsorted, with CRLF, comments and blank lines */
    dir = make_case("good", NULL, 0);
    lcp_read_instance(dir, &P, msg, sizeof msg);
    file_t gen2[1] = {{"A.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                "3 3 5\n1 1 2.5\n1 2 1\n2 1 1\n2 2 3.25\n3 3 4\n"}};
    st = lcp_read_instance(make_case("general", gen2, 1), &Q, msg, sizeof msg);
    ok(st == LCP_OK && same_problem(&P, &Q), "io/symmetric-general-equal");
    lcp_problem_free(&Q);
    file_t uns[1] = {{"A.mtx", "%%MATRIXMARKET Matrix Coordinate Real General\r\n"
                               "% comment\r\n\r\n"
                               "3 3 5\r\n2 2 3.25\r\n3 3 4\r\n\r\n 2 1 1\t\r\n1 2 1\r\n"
                               "1 1 2.5\r\n% trailing comment\r\n\r\n"}};
    st = lcp_read_instance(make_case("unsorted", uns, 1), &Q, msg, sizeof msg);
    ok(st == LCP_OK && same_problem(&P, &Q), "io/unsorted-crlf-comments-equal");
    if (st != LCP_OK) tap_diag("%s", msg);
    lcp_problem_free(&Q);
    file_t unss[1] = {{"A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                                "3 3 4\n3 3 4\n2 2 3.25\n2 1 1\n1 1 2.5\n"}};
    st = lcp_read_instance(make_case("unsorted-symmetric", unss, 1), &Q, msg, sizeof msg);
    ok(st == LCP_OK && same_problem(&P, &Q), "io/unsorted-symmetric-equal");
    lcp_problem_free(&Q);
    file_t intq[2] = {{"q.mtx", "%%MatrixMarket matrix array integer general\n3 1\n-1\n0\n2\n"},
                      {"notes.mtx", "garbage"}};
    st = lcp_read_instance(make_case("integer-q", intq, 2), &Q, msg, sizeof msg);
    ok(st == LCP_OK && Q.q[2] == 2.0, "io/integer-field-in-real-file-accepted");
    ok(st == LCP_OK, "io/unknown-files-ignored");
    lcp_problem_free(&Q);
    file_t tol[1] = {{"A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                               "3 3 4\n1 1 2.5\n2 1 1\n2 2 3.25\n3 3 4.00000000000001\n"}};
    st = lcp_read_instance(make_case("factors-within-tol", tol, 1), &Q, msg, sizeof msg);
    ok(st == LCP_OK, "io/factors-within-1e-12-accepted");
    lcp_problem_free(&Q);
    lcp_problem_free(&P);

    /* minimal: A and q only */
    file_t min[9] = {{"lo.mtx", NULL}, {"hi.mtx", NULL}, {"findex.mtx", NULL},
                     {"J.mtx", NULL},  {"Minv.mtx", NULL}, {"E.mtx", NULL},
                     {"z0.mtx", NULL}, {"zref.mtx", NULL}, {"meta.txt", NULL}};
    st = lcp_read_instance(make_case("minimal", min, 9), &P, msg, sizeof msg);
    ok(st == LCP_OK && P.lo[0] == 0.0 && P.lo[2] == 0.0 && P.hi[1] == INFINITY && !P.findex &&
           !P.J.p && !P.Minv.p && P.n == 0 && !P.E && !P.z0 && !P.zref && !P.meta,
       "io/defaults-when-absent");
    lcp_problem_free(&P);

    /* a non-symmetric A is read and written general */
    file_t ns[10] = {{"A.mtx", "%%MatrixMarket matrix coordinate real general\n"
                               "3 3 4\n1 1 2\n1 3 -1\n2 2 3\n3 3 4\n"},
                     {"lo.mtx", NULL}, {"hi.mtx", NULL}, {"findex.mtx", NULL},
                     {"J.mtx", NULL},  {"Minv.mtx", NULL}, {"E.mtx", NULL},
                     {"z0.mtx", NULL}, {"zref.mtx", NULL}, {"meta.txt", NULL}};
    st = lcp_read_instance(make_case("nonsymmetric", ns, 10), &P, msg, sizeof msg);
    char d2[512], p[1024];
    snprintf(d2, sizeof d2, "%s/nonsymmetric-written", root);
    lcp_status st2 = st == LCP_OK ? lcp_write_instance(d2, &P, msg, sizeof msg) : st;
    snprintf(p, sizeof p, "%s/A.mtx", d2);
    lcp_status st3 = st2 == LCP_OK ? lcp_read_instance(d2, &Q, msg, sizeof msg) : st2;
    ok(st3 == LCP_OK && P.symmetric == 0 && file_has(p, "coordinate real general") &&
           same_problem(&P, &Q) && count_entries(d2) == 2,
       "io/nonsymmetric-written-general");
    lcp_problem_free(&P);
    lcp_problem_free(&Q);
}

/* one bad input each: the file replaced (text NULL: removed), the status and the message part
 * that names the file (and line) */
static const struct bad_case {
    const char *name, *file, *text;
    lcp_status want;
    const char *where;
} bad_cases[] = {
    {"missing-A", "A.mtx", NULL, LCP_ERR_IO, "/A.mtx"},
    {"missing-q", "q.mtx", NULL, LCP_ERR_IO, "/q.mtx"},
    {"empty-A", "A.mtx", "", LCP_ERR_FORMAT, "A.mtx:1"},
    {"no-banner", "A.mtx", "3 3 1\n1 1 1\n", LCP_ERR_FORMAT, "A.mtx:1"},
    {"no-banner-q", "q.mtx", "3 1\n1\n2\n3\n", LCP_ERR_FORMAT, "q.mtx:1"},
    {"header-complex", "A.mtx",
     "%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 1 1 0\n", LCP_ERR_FORMAT,
     "A.mtx:1"},
    {"header-pattern", "A.mtx",
     "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1\n",
     LCP_ERR_FORMAT, "A.mtx:1"},
    {"header-hermitian", "A.mtx",
     "%%MatrixMarket matrix coordinate real hermitian\n3 3 1\n1 1 1\n", LCP_ERR_FORMAT,
     "A.mtx:1"},
    {"header-skew", "A.mtx",
     "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 1 1\n", LCP_ERR_FORMAT,
     "A.mtx:1"},
    {"header-vector-object", "q.mtx",
     "%%MatrixMarket vector array real general\n3 1\n1\n2\n3\n",
     LCP_ERR_FORMAT, "q.mtx:1"},
    {"array-A-fewer-values-than-announced", "A.mtx",
     "%%MatrixMarket matrix array real general\n3 3\n1\n0\n0\n0\n1\n",
     LCP_ERR_FORMAT, "A.mtx:2"},
    {"coordinate-where-array", "q.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 1 3\n1 1 1\n2 1 1\n3 1 1\n",
     LCP_ERR_FORMAT, "q.mtx:1"},
    {"findex-real-field", "findex.mtx",
     "%%MatrixMarket matrix array real general\n3 1\n-1\n0\n0\n", LCP_ERR_FORMAT,
     "findex.mtx:1"},
    {"integer-field-with-real-value", "q.mtx",
     "%%MatrixMarket matrix array integer general\n3 1\n1\n2.5\n3\n", LCP_ERR_FORMAT,
     "q.mtx:4"},
    {"J-symmetric", "J.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 2 1\n3 3 1\n",
     LCP_ERR_FORMAT, "J.mtx:1"},
    {"bad-size-line", "A.mtx", "%%MatrixMarket matrix coordinate real general\n3 3\n1 1 1\n",
     LCP_ERR_FORMAT, "A.mtx:2"},
    {"negative-size", "q.mtx", "%%MatrixMarket matrix array real general\n-3 1\n1\n",
     LCP_ERR_FORMAT, "q.mtx:2"},
    {"vector-two-columns", "q.mtx",
     "%%MatrixMarket matrix array real general\n3 2\n1\n2\n3\n4\n5\n6\n", LCP_ERR_FORMAT,
     "q.mtx:2"},
    {"non-square-A", "A.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 1 1\n",
     LCP_ERR_FORMAT, "A.mtx:2"},
    {"size-q", "q.mtx", "%%MatrixMarket matrix array real general\n4 1\n1\n2\n3\n4\n",
     LCP_ERR_INCONSISTENT, "q.mtx:2"},
    {"size-lo", "lo.mtx", "%%MatrixMarket matrix array real general\n2 1\n0\n0\n",
     LCP_ERR_INCONSISTENT, "lo.mtx:2"},
    {"size-findex", "findex.mtx", "%%MatrixMarket matrix array integer general\n2 1\n-1\n0\n",
     LCP_ERR_INCONSISTENT, "findex.mtx:2"},
    {"size-E", "E.mtx", "%%MatrixMarket matrix array real general\n4 1\n0\n0\n0\n0\n",
     LCP_ERR_INCONSISTENT, "E.mtx:2"},
    {"size-J-rows", "J.mtx", "%%MatrixMarket matrix coordinate real general\n4 3 1\n1 1 1\n",
     LCP_ERR_INCONSISTENT, "J.mtx:2"},
    {"size-Minv", "Minv.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n4 4 1\n1 1 1\n", LCP_ERR_INCONSISTENT,
     "Minv.mtx:2"},
    {"size-Minv-not-square", "Minv.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 1 1\n", LCP_ERR_FORMAT,
     "Minv.mtx:2"},
    {"row-index-zero", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n2 1 1\n0 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:5: row index 0 out of range 1..3"},
    {"row-index-too-large", "J.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n4 2 1\n3 3 1\n",
     LCP_ERR_FORMAT, "J.mtx:4: row index 4"},
    {"column-index-too-large", "A.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 2.5\n2 4 1\n",
     LCP_ERR_FORMAT, "A.mtx:4: column index 4"},
    {"column-index-zero", "Minv.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 0 2\n2 2 3\n",
     LCP_ERR_FORMAT, "Minv.mtx:3: column index 0"},
    {"duplicate-general", "A.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 3 6\n1 1 2.5\n1 2 1\n2 1 1\n"
     "2 2 3.25\n3 3 4\n1 2 1\n", LCP_ERR_FORMAT, "A.mtx:8: duplicate entry (1,2)"},
    {"duplicate-symmetric", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 2.5\n2 1 0.5\n2 2 3.25\n"
     "3 3 4\n2 1 0.5\n", LCP_ERR_FORMAT, "A.mtx:7: duplicate entry (2,1)"},
    {"duplicate-diagonal-J", "J.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 1\n3 3 1\n1 1 0\n",
     LCP_ERR_FORMAT, "J.mtx:6: duplicate entry (1,1), first on line 3"},
    {"above-diagonal-A", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n1 2 1\n2 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:4: entry (1,2) above the diagonal"},
    {"above-diagonal-Minv", "Minv.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2\n1 2 1\n2 2 3\n3 3 4\n",
     LCP_ERR_FORMAT, "Minv.mtx:4"},
    {"nan-A", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n2 1 nan\n2 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:4"},
    {"inf-A", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 inf\n2 1 1\n2 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:3"},
    {"nan-q", "q.mtx", "%%MatrixMarket matrix array real general\n3 1\n-1\nNaN\n0.25\n",
     LCP_ERR_FORMAT, "q.mtx:4"},
    {"inf-q", "q.mtx", "%%MatrixMarket matrix array real general\n3 1\n-inf\n0.5\n0.25\n",
     LCP_ERR_FORMAT, "q.mtx:3"},
    {"nan-J", "J.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 nan\n3 3 1\n",
     LCP_ERR_FORMAT, "J.mtx:4"},
    {"inf-Minv", "Minv.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2\n2 1 1\n2 2 3\n3 3 inf\n",
     LCP_ERR_FORMAT, "Minv.mtx:6"},
    {"nan-E", "E.mtx", "%%MatrixMarket matrix array real general\n3 1\n0.5\n0.25\nnan\n",
     LCP_ERR_FORMAT, "E.mtx:5"},
    {"inf-z0", "z0.mtx", "%%MatrixMarket matrix array real general\n3 1\ninf\n0\n0\n",
     LCP_ERR_FORMAT, "z0.mtx:3"},
    {"nan-zref", "zref.mtx", "%%MatrixMarket matrix array real general\n3 1\n0\n0\nnan\n",
     LCP_ERR_FORMAT, "zref.mtx:5"},
    {"nan-lo", "lo.mtx", "%%MatrixMarket matrix array real general\n3 1\nnan\n-0.5\n-0.5\n",
     LCP_ERR_FORMAT, "lo.mtx:3"},
    {"truncated-A", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 2.5\n2 1 1\n2 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:7: file ends after 4 of the 5 entries"},
    {"truncated-huge-count", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 2000000000\n1 1 2.5\n",
     LCP_ERR_FORMAT, "A.mtx"},
    {"no-final-newline", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n3 3 4\n2 2 3.25\n2 1 1\n"
     "1 1 2.5", LCP_ERR_FORMAT, "A.mtx:6: no newline at the end"},
    {"cut-inside-last-number", "q.mtx", "%%MatrixMarket matrix array real general\n3 1\n-1\n"
     "0.5\n0.2", LCP_ERR_FORMAT, "q.mtx:5: no newline at the end"},
    {"no-final-newline-after-comment", "hi.mtx", "%%MatrixMarket matrix array real general\n"
     "3 1\ninf\n0.5\n0.5\n% end", LCP_ERR_FORMAT, "hi.mtx:6: no newline"},
    {"huge-A-small-q", "A.mtx", "%%MatrixMarket matrix coordinate real general\n"
     "200000000 200000000 1\n1 1 1\n", LCP_ERR_FORMAT,
     "A.mtx:2: 200000000 x 200000000, but q.mtx (57 bytes) can hold at most 29 values"},
    {"truncated-q", "q.mtx", "%%MatrixMarket matrix array real general\n3 1\n-1\n0.5\n",
     LCP_ERR_FORMAT, "q.mtx:5"},
    {"truncated-mid-line", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n2 1 1\n2 2 3.25\n"
     "3 3", LCP_ERR_FORMAT, "A.mtx:6"},
    {"trailing-entry", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n2 1 1\n2 2 3.25\n"
     "3 3 4\n3 2 0\n", LCP_ERR_FORMAT, "A.mtx:7: trailing data"},
    {"trailing-garbage-q", "q.mtx",
     "%%MatrixMarket matrix array real general\n3 1\n-1\n0.5\n0.25\nhello\n",
     LCP_ERR_FORMAT, "q.mtx:6"},
    {"garbage-after-entry", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5 x\n2 1 1\n2 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:3"},
    {"garbage-value", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n2 1 1.0x\n2 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:4"},
    {"garbage-index", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n2.0 1 1\n2 2 3.25\n"
     "3 3 4\n", LCP_ERR_FORMAT, "A.mtx:4"},
    {"two-values-on-a-line", "q.mtx",
     "%%MatrixMarket matrix array real general\n3 1\n-1 0.5\n0.25\n", LCP_ERR_FORMAT,
     "q.mtx:3"},
    {"lo-greater-than-hi", "lo.mtx", "%%MatrixMarket matrix array real general\n3 1\n0\n"
     "0.75\n-0.5\n", LCP_ERR_INCONSISTENT, "lo.mtx: row 2: lo = 0.75 > hi = 0.5"},
    {"lo-plus-inf", "lo.mtx", "%%MatrixMarket matrix array real general\n3 1\ninf\n"
     "-0.5\n-0.5\n", LCP_ERR_INCONSISTENT, "lo.mtx:3"},
    {"hi-minus-inf", "hi.mtx", "%%MatrixMarket matrix array real general\n3 1\ninf\n"
     "-inf\n0.5\n", LCP_ERR_INCONSISTENT, "hi.mtx:4"},
    {"findex-out-of-range", "findex.mtx",
     "%%MatrixMarket matrix array integer general\n3 1\n-1\n3\n0\n", LCP_ERR_FORMAT,
     "findex.mtx:4"},
    {"findex-below-minus-one", "findex.mtx",
     "%%MatrixMarket matrix array integer general\n3 1\n-2\n0\n0\n", LCP_ERR_FORMAT,
     "findex.mtx:3"},
    {"findex-self", "findex.mtx",
     "%%MatrixMarket matrix array integer general\n3 1\n-1\n1\n0\n", LCP_ERR_INCONSISTENT,
     "findex.mtx:4"},
    {"findex-chain", "findex.mtx",
     "%%MatrixMarket matrix array integer general\n3 1\n-1\n0\n1\n", LCP_ERR_INCONSISTENT,
     "findex.mtx:5"},
    {"factors-inconsistent", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5\n2 1 1\n2 2 3.25\n"
     "3 3 4.00000001\n", LCP_ERR_INCONSISTENT, "A.mtx: (3,3)"},
    {"factors-extra-entry", "A.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 2.5\n2 1 1\n2 2 3.25\n"
     "3 1 1e-6\n3 3 4\n", LCP_ERR_INCONSISTENT, "A.mtx: (3,1)"},
    {"factors-missing-E", "E.mtx", NULL, LCP_ERR_INCONSISTENT, "E.mtx"},
    {"Minv-not-symmetric", "Minv.mtx",
     "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 2\n1 2 1\n2 1 1.5\n2 2 3\n"
     "3 3 4\n", LCP_ERR_INCONSISTENT, "Minv.mtx"},
    {"only-J", "Minv.mtx", NULL, LCP_ERR_INCONSISTENT, "J.mtx: present without"},
    {"only-Minv", "J.mtx", NULL, LCP_ERR_INCONSISTENT, "Minv.mtx: present without"},
};
enum { NBAD = sizeof bad_cases / sizeof bad_cases[0] };

static void test_bad(void)
{
    char msg[512], path[1024];
    lcp_problem P;
    lcp_status st;

    snprintf(path, sizeof path, "%s/no-such-folder", root);
    st = lcp_read_instance(path, &P, msg, sizeof msg);
    ok(st == LCP_ERR_IO && strstr(msg, "no-such-folder") && is_empty(&P), "io/bad/missing-folder");
    snprintf(path, sizeof path, "%s/good/A.mtx", root);
    st = lcp_read_instance(path, &P, msg, sizeof msg);
    ok(st == LCP_ERR_IO && strstr(msg, "A.mtx") && is_empty(&P), "io/bad/folder-is-a-file");

    for (int k = 0; k < NBAD; k++) {
        file_t ov = {bad_cases[k].file, bad_cases[k].text};
        bad(bad_cases[k].name, &ov, 1, bad_cases[k].want, bad_cases[k].where);
    }
    {
        static const char nul[] = "%%MatrixMarket matrix array real general\n3 1\n-1\n0.5\n"
                                  "0.25\0junk\n";
        char d[512];
        make_case("nul-byte", NULL, 0);
        snprintf(d, sizeof d, "%s/nul-byte", root);
        snprintf(path, sizeof path, "%s/q.mtx", d);
        FILE *fp = fopen(path, "wb");
        if (fp) {
            fwrite(nul, 1, sizeof nul - 1, fp);
            fclose(fp);
        }
        st = lcp_read_instance(d, &P, msg, sizeof msg);
        ok(st == LCP_ERR_FORMAT && strstr(msg, "q.mtx:5") && is_empty(&P), "io/bad/nul-byte");
    }
    {
        char d[512];
        snprintf(d, sizeof d, "%s/A-is-folder", root);
        make_case("A-is-folder", (file_t[]){{"A.mtx", NULL}}, 1);
        snprintf(path, sizeof path, "%s/A.mtx", d);
        mkdir(path, 0777);
        st = lcp_read_instance(d, &P, msg, sizeof msg);
        ok(st == LCP_ERR_IO && strstr(msg, "A.mtx") && is_empty(&P), "io/bad/A-is-a-folder");
    }
}

/* in-memory problems through lcp_problem_check */
static void test_check(void)
{
    char msg[256];
    lcp_problem P;
    lcp_problem_init(&P);
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_ARG, "check/empty-problem");
    ok(lcp_problem_alloc_vectors(&P, 4) == LCP_OK && P.m == 4 && P.q[3] == 0.0 &&
           P.lo[3] == 0.0 && P.hi[0] == INFINITY,
       "check/alloc-vectors-defaults");
    int ti[] = {0, 1, 2, 3, 0}, tj[] = {0, 1, 2, 3, 3};
    double tx[] = {1, 2, 3, 4, 0.5};
    lcp_csr_from_triplets(&P.A, 4, 4, 5, ti, tj, tx);
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_OK && P.symmetric == 0,
       "check/nonsymmetric-ok");
    P.A.j[1] = 0;                                                   /* row 1: (0,3),(0,0)? */
    P.A.j[0] = 3;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_FORMAT && strstr(msg, "A.mtx: row 1"),
       "check/unsorted-csr-rejected");
    P.A.j[0] = 0;
    P.A.j[1] = 3;
    P.lo[2] = 1.0;
    P.hi[2] = 0.5;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_INCONSISTENT &&
           strstr(msg, "lo.mtx: row 3"),
       "check/lo-greater-than-hi");
    P.lo[2] = 0.0;
    P.hi[2] = INFINITY;
    P.q[1] = NAN;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_FORMAT && strstr(msg, "q.mtx: row 2"),
       "check/nan-q");
    P.q[1] = 0.0;
    P.findex = malloc(4 * sizeof(int));
    P.findex[0] = -1;
    P.findex[1] = 0;
    P.findex[2] = -1;
    P.findex[3] = 3;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_INCONSISTENT &&
           strstr(msg, "findex.mtx: row 4"),
       "check/findex-self");
    lcp_problem_free(&P);
    ok(is_empty(&P), "check/free-reinits");

    /* a contact problem: consistent, then J perturbed */
    ok(tp_contact(&P, 6, 8, 20, 2, 0.5, 0.01, 7) == 0, "check/contact-consistent");
    P.J.x[5] *= 1.0 + 1e-9;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_INCONSISTENT && strstr(msg, "J.mtx"),
       "check/contact-J-perturbed");
    P.J.x[5] /= 1.0 + 1e-9;
    P.n++;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_INCONSISTENT && strstr(msg, "J.mtx"),
       "check/n-disagrees-with-J");
    P.n--;
    lcp_csr J = P.J;
    P.J.p = NULL;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_ERR_INCONSISTENT &&
           strstr(msg, "Minv.mtx: present without J.mtx"),
       "check/Minv-without-J");
    P.J = J;
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_OK && P.symmetric == 1,
       "check/contact-restored");
    lcp_problem_free(&P);
}

/* a random contact problem with awkward values survives write-read-write-read exactly */
static void test_roundtrip_random(void)
{
    char msg[512], d1[512], d2[512];
    lcp_problem P, Q, R;
    lcp_problem_init(&Q);
    lcp_problem_init(&R);
    int made = tp_contact(&P, 6, 10, 30, 2, 0.5, 0.01, 42) == 0;
    ok(made, "io/random-contact-made");
    if (!made) return;
    int m = P.m;
    static const double odd[] = {0.1, 1.0 / 3.0, -0.0, DBL_MIN, DBL_MAX, -DBL_MAX, 5e-324,
                                 1e-310, 123456789.123456789, -2.5e-17};
    P.z0 = malloc(sizeof(double) * (size_t)m);
    P.zref = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) {
        P.z0[i] = odd[i % 10];
        P.zref[i] = (double)i / 7.0;
        P.q[i] = odd[(i + 3) % 10] * (i % 3 ? 1.0 : 1e-3);
    }
    P.lo[0] = -INFINITY;                                            /* a bilateral row */
    P.findex[1] = P.findex[2] = -1;
    P.lo[1] = -INFINITY;
    P.hi[1] = INFINITY;
    P.lo[2] = -1.0 / 3.0;
    P.hi[2] = 2.0 / 3.0;
    P.meta = malloc(64);
    strcpy(P.meta, "scene = random\nmu = 0.5\n");
    ok(lcp_problem_check(&P, msg, sizeof msg) == LCP_OK, "io/random-contact-valid");
    snprintf(d1, sizeof d1, "%s/random-1", root);
    snprintf(d2, sizeof d2, "%s/random-2", root);
    lcp_status s1 = lcp_write_instance(d1, &P, msg, sizeof msg);
    lcp_status s2 = s1 == LCP_OK ? lcp_read_instance(d1, &Q, msg, sizeof msg) : s1;
    lcp_status s3 = s2 == LCP_OK ? lcp_write_instance(d2, &Q, msg, sizeof msg) : s2;
    lcp_status s4 = s3 == LCP_OK ? lcp_read_instance(d2, &R, msg, sizeof msg) : s3;
    if (s4 != LCP_OK) tap_diag("%s", msg);
    ok(s4 == LCP_OK && same_problem(&P, &Q), "io/roundtrip-bit-identical-with-inf-bounds");
    ok(s4 == LCP_OK && same_problem(&Q, &R), "io/read-write-read-bit-identical");
    ok(s4 == LCP_OK && Q.lo[1] == -INFINITY && Q.hi[1] == INFINITY && Q.z0[6] == 5e-324 &&
           signbit(Q.z0[2]),
       "io/roundtrip-inf-denormal-minus-zero");
    lcp_problem_free(&P);
    lcp_problem_free(&Q);
    lcp_problem_free(&R);
}

/* failed writes leave nothing behind */
static void test_write_fail(void)
{
    char msg[512], path[1024], dir[512];
    lcp_problem P;
    lcp_status st;
    st = lcp_read_instance(make_case("good", NULL, 0), &P, msg, sizeof msg);
    if (st != LCP_OK) return;

    snprintf(path, sizeof path, "%s/plainfile", root);
    write_text(root, "plainfile", "x");
    snprintf(dir, sizeof dir, "%s/plainfile/inst", root);
    int before = count_entries(root);
    st = lcp_write_instance(dir, &P, msg, sizeof msg);
    struct stat sb;
    ok(st == LCP_ERR_IO && strstr(msg, "plainfile/inst") && count_entries(root) == before &&
           stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 1,
       "io/write-fails-parent-is-file-nothing-created");

    st = lcp_write_instance("/proc/lcpbench-io-test", &P, msg, sizeof msg);
    ok(st == LCP_ERR_IO && strstr(msg, "/proc/lcpbench-io-test") &&
           access("/proc/lcpbench-io-test", F_OK) != 0,
       "io/write-fails-read-only-location");

    /* q.mtx is a folder: the writer fails after writing A's temporary; no file is left */
    snprintf(dir, sizeof dir, "%s/q-is-folder", root);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/q.mtx", dir);
    mkdir(path, 0777);
    st = lcp_write_instance(dir, &P, msg, sizeof msg);
    ok(st == LCP_ERR_IO && strstr(msg, "q.mtx") && count_entries(dir) == 1,
       "io/write-fails-midway-no-temporaries");

    snprintf(path, sizeof path, "%s/plainfile/v.mtx", root);
    st = lcp_write_vector(path, 3, P.q, msg, sizeof msg);
    ok(st == LCP_ERR_IO && strstr(msg, "v.mtx"), "io/write-vector-fails");

    lcp_problem Q;
    lcp_problem_init(&Q);
    snprintf(dir, sizeof dir, "%s/incomplete", root);
    st = lcp_write_instance(dir, &Q, msg, sizeof msg);
    ok(st == LCP_ERR_ARG && access(dir, F_OK) != 0, "io/write-rejects-incomplete-problem");
    lcp_problem_free(&P);
}

static void test_vector(void)
{
    char msg[512], path[1024];
    static const double v[] = {0.1, -0.0, INFINITY, -INFINITY, DBL_MIN, 5e-324, DBL_MAX,
                               1.0 / 3.0, -7.0, 1e300};
    int m = -1;
    double *r = NULL;
    snprintf(path, sizeof path, "%s/v.mtx", root);
    lcp_status s1 = lcp_write_vector(path, 10, v, msg, sizeof msg);
    lcp_status s2 = lcp_read_vector(path, &m, &r, msg, sizeof msg);
    ok(s1 == LCP_OK && s2 == LCP_OK && m == 10 && r && memcmp(r, v, sizeof v) == 0,
       "io/vector-roundtrip-bit-identical");
    free(r);
    r = NULL;
    double nan3[3] = {1.0, NAN, 2.0};
    lcp_write_vector(path, 3, nan3, msg, sizeof msg);
    s2 = lcp_read_vector(path, &m, &r, msg, sizeof msg);
    ok(s2 == LCP_ERR_FORMAT && strstr(msg, "v.mtx:4") && !r, "io/vector-nan-rejected");
    lcp_write_vector(path, 0, NULL, msg, sizeof msg);
    s2 = lcp_read_vector(path, &m, &r, msg, sizeof msg);
    ok(s2 == LCP_OK && m == 0, "io/vector-empty");
    free(r);
    r = NULL;
    snprintf(path, sizeof path, "%s/no-such.mtx", root);
    s2 = lcp_read_vector(path, &m, &r, msg, sizeof msg);
    ok(s2 == LCP_ERR_IO && strstr(msg, "no-such.mtx") && !r, "io/vector-missing");
    snprintf(path, sizeof path, "%s/good/A.mtx", root);
    s2 = lcp_read_vector(path, &m, &r, msg, sizeof msg);
    ok(s2 == LCP_ERR_FORMAT && strstr(msg, "A.mtx:1") && !r, "io/vector-coordinate-rejected");
}

/* the reader's number parser against strtod, bit for bit, on many kinds of tokens */
static void test_parse(void)
{
    enum { N = 200000 };
    char path[1024], msg[512], tok[64];
    char **toks = malloc(sizeof(char *) * N);
    double *want = malloc(sizeof(double) * N);
    uint64_t s = 99;
    snprintf(path, sizeof path, "%s/numbers.mtx", root);
    FILE *fp = fopen(path, "w");
    if (!fp || !toks || !want) {
        ok(0, "io/parse-matches-strtod");
        return;
    }
    fprintf(fp, "%%%%MatrixMarket matrix array real general\n%d 1\n", N);
    static const char *const fixed[] = {
        "9007199254740993", "9007199254740995", "18014398509481988", "9223372036854775807",
        "9223372036854775808", "18446744073709551615", "0.000000000000000000000000001",
        "000123.4500", "+5", "-0.0", ".5", "5.", "1e5", "1E+05", "1e-27", "1e27", "1e28",
        "123456789012345678e-27", "1234567890123456789e27", "12345678901234567890",
        "4.9406564584124654e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
        "0.1", "0.30000000000000004", "-inf", "inf", "0x1.8p1",
        "1.00000000000000011102230246251565404236316680908203125",
        "7.038531e-26", "8.9255e-7", "3.0540412e5", "1448997445238699", "0.0000000000"};
    int nf = (int)(sizeof fixed / sizeof fixed[0]);
    for (int k = 0; k < N; k++) {
        int kind = k < nf ? -1 : (int)(tp_next(&s) % 6);
        double x;
        uint64_t b = tp_next(&s);
        switch (kind) {
        case -1: snprintf(tok, sizeof tok, "%s", fixed[k]); break;
        case 0:                                                     /* any finite double */
            memcpy(&x, &b, sizeof x);
            if (!isfinite(x)) x = 1.5;
            snprintf(tok, sizeof tok, "%.17g", x);
            break;
        case 1:                                                     /* %.Pg, O(1e+-30) */
            x = (tp_unif(&s) - 0.5) * pow(10.0, (double)(int)(b % 61) - 30.0);
            snprintf(tok, sizeof tok, "%.*g", 1 + (int)(tp_next(&s) % 20), x);
            break;
        case 2:                                                     /* %.Pe */
            x = (tp_unif(&s) - 0.5) * pow(10.0, (double)(int)(b % 41) - 20.0);
            snprintf(tok, sizeof tok, "%.*e", (int)(tp_next(&s) % 19), x);
            break;
        case 3:                                                     /* %.Pf */
            x = (tp_unif(&s) - 0.5) * pow(10.0, (double)(int)(b % 12));
            snprintf(tok, sizeof tok, "%.*f", (int)(tp_next(&s) % 18), x);
            break;
        case 4: {                                                   /* random digits */
            int nd = 1 + (int)(b % 22), dot = (int)(tp_next(&s) % (uint64_t)(nd + 2)), t = 0;
            if (b & (1ull << 40)) tok[t++] = '-';
            for (int d = 0; d < nd; d++) {
                if (d == dot) tok[t++] = '.';
                tok[t++] = (char)('0' + tp_next(&s) % 10);
            }
            if (b & (1ull << 41)) t += snprintf(tok + t, sizeof tok - (size_t)t, "e%d",
                                                (int)(tp_next(&s) % 71) - 35);
            tok[t] = '\0';
            break;
        }
        default:                                                    /* integers near 2^k */
            x = ldexp(1.0, 50 + (int)(b % 14)) + (double)(int)(tp_next(&s) % 9) - 4.0;
            snprintf(tok, sizeof tok, "%.0f", x);
            if (b & 1) snprintf(tok, sizeof tok, "%llu", (unsigned long long)(b >> (b % 11)));
            break;
        }
        toks[k] = strdup(tok);
        want[k] = strtod(tok, NULL);
        fprintf(fp, "%s\n", tok);
    }
    fclose(fp);
    int m = 0, bad = -1;
    double *got = NULL;
    lcp_status st = lcp_read_vector(path, &m, &got, msg, sizeof msg);
    for (int k = 0; st == LCP_OK && k < N && bad < 0; k++)
        if (memcmp(&got[k], &want[k], sizeof(double)) != 0) bad = k;
    ok(st == LCP_OK && m == N && bad < 0, "io/parse-matches-strtod");
    if (st != LCP_OK) tap_diag("%s", msg);
    if (bad >= 0) tap_diag("token \"%s\": got %.17g, strtod %.17g", toks[bad], got[bad], want[bad]);
    for (int k = 0; k < N; k++) free(toks[k]);
    free(toks);
    free(want);
    free(got);
}

/* peak resident set of this process, in KiB */
static long peak_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

/* The reader's holes: a FIFO or another non-regular file in place of an instance file is
 * refused without blocking (an alarm turns a hang into a failure of this program); a short
 * file declaring 2e8 rows or columns is refused before the CSR is allocated (the peak RSS
 * may not grow by 100 MB); a file cut at any byte is refused or read with the exact original
 * values. */
static void test_holes(void)
{
    char msg[512], path[1024], d[512];
    lcp_problem P, O;
    lcp_status st;
    static const char *const fifo_files[] = {"A.mtx", "q.mtx", "lo.mtx", "findex.mtx", "J.mtx",
                                             "Minv.mtx", "zref.mtx", "meta.txt"};
    alarm(60);
    for (size_t k = 0; k < sizeof fifo_files / sizeof fifo_files[0]; k++) {
        const char *name = fifo_files[k];
        char cname[64], want[96];
        snprintf(cname, sizeof cname, "fifo-%s", name);
        make_case(cname, (file_t[]){{name, NULL}}, 1);
        snprintf(d, sizeof d, "%s/%s", root, cname);
        snprintf(path, sizeof path, "%s/%s", d, name);
        int made = mkfifo(path, 0600) == 0;
        st = made ? lcp_read_instance(d, &P, msg, sizeof msg) : LCP_OK;
        snprintf(want, sizeof want, "/%s: not a regular file", name);
        ok(made && st == LCP_ERR_IO && strstr(msg, want) && strchr(msg, '\n') == NULL &&
               is_empty(&P),
           "io/bad/%s-is-a-fifo", name);
        if (st != LCP_ERR_IO) tap_diag("status %s, msg \"%s\"", lcp_status_str(st), msg);
        lcp_problem_free(&P);
    }
    {
        int mv = -1;
        double *v = NULL;
        snprintf(path, sizeof path, "%s/fifo-vector.mtx", root);
        int made = mkfifo(path, 0600) == 0;
        st = made ? lcp_read_vector(path, &mv, &v, msg, sizeof msg) : LCP_OK;
        ok(made && st == LCP_ERR_IO && strstr(msg, "fifo-vector.mtx: not a regular file") && !v,
           "io/bad/vector-is-a-fifo");
        st = lcp_read_vector("/dev/zero", &mv, &v, msg, sizeof msg);
        ok(st == LCP_ERR_IO && strstr(msg, "/dev/zero: not a regular file") && !v,
           "io/bad/vector-is-a-device");
    }
    alarm(0);

    /* 2e8 rows in 75 bytes: refused before 1.6 GB of row pointers are allocated and touched */
    {
        static const char huge[] = "%%MatrixMarket matrix coordinate real general\n"
                                   "200000000 200000000 1\n1 1 10\n";
        char big_q[256];
        snprintf(big_q, sizeof big_q, "%%%%MatrixMarket matrix array real general\n"
                                      "200000000 1\n1\n");
        long before = peak_kib();
        st = lcp_read_instance(make_case("huge-A", (file_t[]){{"A.mtx", huge}}, 1), &P, msg,
                               sizeof msg);
        lcp_status st2 = lcp_read_instance(
            make_case("huge-A-huge-q", (file_t[]){{"A.mtx", huge}, {"q.mtx", big_q}}, 2), &P,
            msg, sizeof msg);
        char jcols[256], mbig[256];
        snprintf(jcols, sizeof jcols, "%%%%MatrixMarket matrix coordinate real general\n"
                                      "3 200000000 3\n1 1 1\n2 2 1\n3 3 1\n");
        snprintf(mbig, sizeof mbig, "%%%%MatrixMarket matrix coordinate real symmetric\n"
                                    "200000000 200000000 4\n1 1 2\n2 1 1\n2 2 3\n3 3 4\n");
        lcp_status st3 = lcp_read_instance(
            make_case("huge-n", (file_t[]){{"J.mtx", jcols}, {"Minv.mtx", mbig}}, 2), &P, msg,
            sizeof msg);
        int inst = st3 == LCP_ERR_FORMAT && strstr(msg, "J.mtx:2: 3 x 200000000, but Minv.mtx");
        if (!inst) tap_diag("huge-n: %s \"%s\"", lcp_status_str(st3), msg);
        long grew = peak_kib() - before;
        ok(sizeof huge - 1 == 75 && st == LCP_ERR_FORMAT && st2 == LCP_ERR_FORMAT && inst &&
               is_empty(&P) && before > 0 && grew < 100 * 1024,
           "io/bad/2e8-rows-in-75-bytes-refused-fast");
        tap_diag("peak RSS grew by %ld KiB over the three huge declarations", grew);
    }

    /* the base instance with one file cut at every byte: an error, or the exact problem */
    st = lcp_read_instance(make_case("good", NULL, 0), &O, msg, sizeof msg);
    int bad = 0, cuts = 0, errors = 0;
    for (int b = 0; st == LCP_OK && b < NBASE; b++) {
        if (strcmp(base[b].name, "meta.txt") == 0) continue;        /* free text: verbatim */
        size_t len = strlen(base[b].text);
        char cut[512];
        for (size_t c = 0; c < len; c++) {
            memcpy(cut, base[b].text, c);
            cut[c] = '\0';
            file_t ov = {base[b].name, cut};
            lcp_status sc = lcp_read_instance(make_case("cut", &ov, 1), &P, msg, sizeof msg);
            cuts++;
            if (sc == LCP_OK) {
                if (!same_problem(&O, &P) && bad++ == 0)
                    tap_diag("%s cut at byte %zu read with other values", base[b].name, c);
            } else {
                errors++;
                if ((sc != LCP_ERR_FORMAT && sc != LCP_ERR_INCONSISTENT) ||
                    !strstr(msg, base[b].name))
                    if (bad++ == 0)
                        tap_diag("%s cut at byte %zu: %s \"%s\"", base[b].name, c,
                                 lcp_status_str(sc), msg);
            }
            lcp_problem_free(&P);
        }
    }
    ok(st == LCP_OK && bad == 0 && cuts > 400, "io/cut-at-every-byte-errs-or-reads-exactly");
    tap_diag("%d cuts, %d refused", cuts, errors);
    lcp_problem_free(&O);

    /* a written vector of awkward values cut at every byte */
    static const double v[] = {0.1, -0.0, INFINITY, -INFINITY, 5e-324, 1.0 / 3.0, 1e300};
    snprintf(path, sizeof path, "%s/cut-vector.mtx", root);
    char text[1024];
    size_t len = 0;
    if (lcp_write_vector(path, 7, v, msg, sizeof msg) == LCP_OK) {
        FILE *fp = fopen(path, "rb");
        if (fp) {
            len = fread(text, 1, sizeof text, fp);
            fclose(fp);
        }
    }
    bad = 0;
    for (size_t c = 0; c < len; c++) {
        FILE *fp = fopen(path, "wb");
        if (!fp) break;
        fwrite(text, 1, c, fp);
        fclose(fp);
        int mv = 0;
        double *r = NULL;
        if (lcp_read_vector(path, &mv, &r, msg, sizeof msg) == LCP_OK &&
            (mv != 7 || memcmp(r, v, sizeof v) != 0) && bad++ == 0)
            tap_diag("vector cut at byte %zu read with other values", c);
        free(r);
    }
    ok(len > 50 && bad == 0, "io/vector-cut-at-every-byte-errs-or-reads-exactly");
}

/* An optional file that is a symbolic link to nothing or a loop of links is an error naming
 * the file, not an absent file (another problem would be read and solved); a link to a
 * regular file reads as that file. */
static void test_links(void)
{
    static const char *const names[] = {"lo.mtx", "hi.mtx",  "findex.mtx", "J.mtx",   "Minv.mtx",
                                        "E.mtx",  "z0.mtx", "zref.mtx",   "meta.txt"};
    static const struct {
        const char *kind, *target, *want;
    } kinds[] = {{"dangling", "no-such-file", "dangling symbolic link"},
                 {"loop", NULL, "too many levels of symbolic links"}};
    char msg[512], path[1024], want[128], cname[96];
    lcp_problem P, O;
    lcp_status st;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            snprintf(cname, sizeof cname, "link-%s-%s", kinds[k].kind, names[i]);
            const char *d = make_case(cname, (file_t[]){{names[i], NULL}}, 1);
            snprintf(path, sizeof path, "%s/%s", d, names[i]);
            int made = symlink(kinds[k].target ? kinds[k].target : names[i], path) == 0;
            st = made ? lcp_read_instance(d, &P, msg, sizeof msg) : LCP_OK;
            snprintf(want, sizeof want, "/%s: %s", names[i], kinds[k].want);
            int good = made && st == LCP_ERR_IO && strstr(msg, want) &&
                       strchr(msg, '\n') == NULL && is_empty(&P);
            ok(good, "io/bad/%s-is-a-%s-link", names[i], kinds[k].kind);
            if (!good) tap_diag("status %s, msg \"%s\" (want \"%s\")", lcp_status_str(st), msg,
                                want);
            lcp_problem_free(&P);
        }
    /* the matrix-free form's probe of J and Minv (LCP_READ_SKIP_A) too */
    {
        lcp_read_options ro;
        lcp_read_options_default(&ro);
        ro.skip = LCP_READ_SKIP_A;
        const char *d = make_case("link-skip-a", (file_t[]){{"Minv.mtx", NULL}}, 1);
        snprintf(path, sizeof path, "%s/Minv.mtx", d);
        int made = symlink("no-such-file", path) == 0;
        st = made ? lcp_read_instance_opt(d, &ro, &P, msg, sizeof msg) : LCP_OK;
        ok(made && st == LCP_ERR_IO && strstr(msg, "/Minv.mtx: dangling symbolic link") &&
               is_empty(&P),
           "io/bad/Minv.mtx-dangling-link-skip-a");
        if (st != LCP_ERR_IO) tap_diag("status %s, msg \"%s\"", lcp_status_str(st), msg);
        lcp_problem_free(&P);
    }
    /* the control: links to the base files read as the files themselves */
    st = lcp_read_instance(make_case("good", NULL, 0), &O, msg, sizeof msg);
    const char *d = make_case("link-good", NULL, 0);
    int made = 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", d, names[i]);
        char target[64];
        snprintf(target, sizeof target, "../good/%s", names[i]);
        made &= unlink(path) == 0 && symlink(target, path) == 0;
    }
    lcp_status st2 = made ? lcp_read_instance(d, &P, msg, sizeof msg) : LCP_ERR_IO;
    ok(st == LCP_OK && st2 == LCP_OK && same_problem(&O, &P), "io/links-to-files-read");
    if (st2 != LCP_OK) tap_diag("status %s, msg \"%s\"", lcp_status_str(st2), msg);
    lcp_problem_free(&P);
    lcp_problem_free(&O);
}

/* A control character in a folder's name does not split the message: it comes escaped
 * (\n, \x1b, \t), whole and on one line, and cut at an escape when msg is short. */
static void test_escape(void)
{
    char msg[512], dir[600], want[700];
    lcp_problem P;
    snprintf(dir, sizeof dir, "%s/new\nline\033[31m\tx", root);
    mkdir(dir, 0777);
    write_text(dir, "q.mtx", base[1].text);                   /* A.mtx missing */
    lcp_status st = lcp_read_instance(dir, &P, msg, sizeof msg);
    snprintf(want, sizeof want, "%s/new\\nline\\x1b[31m\\tx/A.mtx: cannot open", root);
    int good = st == LCP_ERR_IO && strncmp(msg, want, strlen(want)) == 0;
    for (const char *c = msg; *c; c++) good &= (unsigned char)*c >= 0x20 && *c != 0x7f;
    ok(good && is_empty(&P), "io/msg/control-characters-escaped");
    if (!good) tap_diag("msg \"%s\" (want \"%s...\")", msg, want);
    /* short buffers: the longest prefix that ends between two escapes (\n: 2 bytes, \x1b:
     * 4), NUL-terminated */
    char cut[sizeof msg] = {0};                                 /* 1: msg may end before k */
    for (size_t k = 0; msg[k]; ) {
        cut[k] = 1;
        k += msg[k] != '\\' ? 1 : msg[k + 1] == 'x' ? 4 : 2;
    }
    int cut_ok = 1;
    size_t n = strlen(root) + 4;                                /* ".../new" */
    for (size_t len = n; len < n + 16; len++) {
        char small[600];
        memset(small, 'Z', sizeof small);
        lcp_read_instance(dir, &P, small, len);
        size_t got = strlen(small), best = len - 1;
        while (!cut[best]) best--;
        if (got != best || strncmp(small, msg, got) != 0) cut_ok = 0;
        if (got != best) tap_diag("msglen %zu: %zu bytes kept, want %zu", len, got, best);
        lcp_problem_free(&P);
    }
    ok(cut_ok, "io/msg/escaped-message-cut-between-escapes");
}

int main(void)
{
    snprintf(root, sizeof root, "%s/lcpio-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) {
        printf("Bail out! mkdtemp failed\n");
        return 1;
    }
    tap_diag("folders under %s", root);
    test_good();
    test_variants();
    test_bad();
    test_check();
    test_roundtrip_random();
    test_write_fail();
    test_vector();
    test_holes();
    test_links();
    test_escape();
    test_parse();
    int rc = tap_done();
    if (rc == 0) {                                                  /* keep them on failure */
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd) != 0) tap_diag("could not remove %s", root);
    }
    return rc;
}
