/* fuzz_read.c: libFuzzer target around lcp_read_instance.
 *
 * The input is an instance folder: chunks separated by the byte 0x01 become, in this order,
 * A.mtx q.mtx lo.mtx hi.mtx findex.mtx J.mtx Minv.mtx E.mtx z0.mtx zref.mtx meta.txt (an
 * empty chunk: the file is absent; chunks past the eleventh are ignored), written into a
 * scratch folder.  Whatever the reader says, it must not crash, leak or hang; when it
 * accepts the folder, the problem must satisfy the reader's promises (m >= 1, sorted CSR
 * rows with columns in range, finite A, q, J, Minv, E, z0, zref, no NaN bound, lo <= hi,
 * lo < +inf, hi > -inf, findex in -1..m-1 pointing at normal rows), and writing it and
 * reading it back must give the same problem bit for bit (lo and hi by value: a default
 * bound file is omitted, -0 counting as 0), twice (read-write-read-write-read).
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * Build (tests/robust/fuzz.sh does it): clang -fsanitize=fuzzer,address,undefined with the
 * library's sources.  Seeds: tests/robust/fuzz/corpus-read/.
 */
#include "lcp.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const names[] = {"A.mtx",    "q.mtx", "lo.mtx", "hi.mtx",   "findex.mtx",
                                     "J.mtx",    "Minv.mtx", "E.mtx", "z0.mtx", "zref.mtx",
                                     "meta.txt"};
enum { NFILES = sizeof names / sizeof names[0] };

static char root[256], in_dir[300], out1[300], out2[300];

static void must(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "fuzz_read: violated: %s\n", what);
        abort();
    }
}

static void path_of(char *p, size_t n, const char *dir, const char *name)
{
    snprintf(p, n, "%s/%s", dir, name);
}

static void clear(const char *dir)
{
    char p[400];
    for (int k = 0; k < NFILES; k++) {
        path_of(p, sizeof p, dir, names[k]);
        unlink(p);
    }
}

static int csr_ok(const lcp_csr *A, int nrow, int ncol)
{
    if (!A->p || A->nrow != nrow || A->ncol != ncol || A->p[0] != 0) return 0;
    for (int i = 0; i < nrow; i++) {
        if (A->p[i + 1] < A->p[i]) return 0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            if (A->j[k] < 0 || A->j[k] >= ncol || !isfinite(A->x[k])) return 0;
            if (k > A->p[i] && A->j[k] <= A->j[k - 1]) return 0;
        }
    }
    return 1;
}

static int finite_or_null(const double *v, int m)
{
    for (int i = 0; v && i < m; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

static int same_bits(const void *a, const void *b, size_t n)
{
    if (!a || !b) return !a && !b;
    return memcmp(a, b, n) == 0;
}

static int same_csr(const lcp_csr *a, const lcp_csr *b)
{
    if (!a->p || !b->p) return !a->p && !b->p;
    size_t nz = (size_t)LCP_CSR_NNZ(a);
    return a->nrow == b->nrow && a->ncol == b->ncol && LCP_CSR_NNZ(b) == (int)nz &&
           memcmp(a->p, b->p, sizeof(int) * ((size_t)a->nrow + 1)) == 0 &&
           memcmp(a->j, b->j, sizeof(int) * nz) == 0 && memcmp(a->x, b->x, sizeof(double) * nz) == 0;
}

/* equal values (lo, hi: the writer omits a default lo.mtx or hi.mtx, -0 counting as 0, so
 * an all -0 lo comes back +0) */
static int same_values(const double *a, const double *b, int m)
{
    for (int i = 0; i < m; i++)
        if (!(a[i] == b[i])) return 0;
    return 1;
}

static int same_problem(const lcp_problem *a, const lcp_problem *b)
{
    size_t m = (size_t)a->m, dv = sizeof(double) * m;
    int meta = (!a->meta && !b->meta) || (a->meta && b->meta && strcmp(a->meta, b->meta) == 0);
    return a->m == b->m && a->n == b->n && a->symmetric == b->symmetric &&
           same_csr(&a->A, &b->A) && same_bits(a->q, b->q, dv) && same_values(a->lo, b->lo, a->m) &&
           same_values(a->hi, b->hi, a->m) && same_bits(a->findex, b->findex, sizeof(int) * m) &&
           same_csr(&a->J, &b->J) && same_csr(&a->Minv, &b->Minv) && same_bits(a->E, b->E, dv) &&
           same_bits(a->z0, b->z0, dv) && same_bits(a->zref, b->zref, dv) && meta;
}

static void check_promises(const lcp_problem *P)
{
    int m = P->m;
    must(m >= 1 && P->q && P->lo && P->hi, "m >= 1 with q, lo, hi");
    must(csr_ok(&P->A, m, m), "A: sorted rows, columns in range, finite");
    must(finite_or_null(P->q, m) && finite_or_null(P->E, m) && finite_or_null(P->z0, m) &&
             finite_or_null(P->zref, m),
         "q, E, z0, zref finite");
    for (int i = 0; i < m; i++) {
        must(!isnan(P->lo[i]) && !isnan(P->hi[i]), "no NaN bound");
        must(P->lo[i] <= P->hi[i] && P->lo[i] < INFINITY && P->hi[i] > -INFINITY,
             "lo <= hi, lo < +inf, hi > -inf");
        if (P->findex) {
            int f = P->findex[i];
            must(f >= -1 && f < m && f != i && (f < 0 || P->findex[f] < 0),
                 "findex in -1..m-1, at a normal row");
        }
    }
    if (P->J.p || P->Minv.p) {
        must(P->J.p && P->Minv.p && P->n >= 1, "both factors");
        must(csr_ok(&P->J, m, P->n) && csr_ok(&P->Minv, P->n, P->n), "J, Minv valid");
    }
    must(P->symmetric == lcp_csr_is_symmetric(&P->A), "symmetric flag");
}

/* the working folders go when the process ends normally (libFuzzer's run, a replay) */
static void remove_root(void)
{
    const char *dirs[] = {in_dir, out1, out2};
    for (int k = 0; k < 3; k++) {
        clear(dirs[k]);
        rmdir(dirs[k]);
    }
    rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    atexit(remove_root);
    snprintf(root, sizeof root, "%s/lcpfuzz-read-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) abort();
    snprintf(in_dir, sizeof in_dir, "%s/in", root);
    snprintf(out1, sizeof out1, "%s/out1", root);
    snprintf(out2, sizeof out2, "%s/out2", root);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[512], p[400];
    lcp_problem P, Q, R;
    const uint8_t *s = data, *end = data + size;
    clear(in_dir);
    clear(out1);
    clear(out2);
    rmdir(out1);
    rmdir(out2);
    if (mkdir(in_dir, 0700) != 0 && access(in_dir, F_OK) != 0) abort();
    for (int k = 0; k < NFILES && s <= end; k++) {
        const uint8_t *e = memchr(s, 0x01, (size_t)(end - s));
        if (!e) e = end;
        if (e > s) {
            path_of(p, sizeof p, in_dir, names[k]);
            FILE *fp = fopen(p, "wb");
            if (!fp) abort();
            fwrite(s, 1, (size_t)(e - s), fp);
            fclose(fp);
        }
        s = e + 1;
    }
    lcp_status st = lcp_read_instance(in_dir, &P, msg, sizeof msg);
    must(st == LCP_OK || (st < 0 && strcmp(lcp_status_str(st), "unknown-status") != 0),
         "a named error status");
    if (st != LCP_OK) {
        must(msg[0] != '\0' && strchr(msg, '\n') == NULL, "one message line");
        must(P.m == 0 && !P.A.p && !P.q && !P.meta, "problem left empty");
        return 0;
    }
    check_promises(&P);
    lcp_problem_init(&Q);
    lcp_problem_init(&R);
    must(lcp_write_instance(out1, &P, msg, sizeof msg) == LCP_OK, "accepted problem written");
    must(lcp_read_instance(out1, &Q, msg, sizeof msg) == LCP_OK, "written problem read back");
    must(same_problem(&P, &Q), "read-write-read bit-identical");
    must(lcp_write_instance(out2, &Q, msg, sizeof msg) == LCP_OK, "rewritten");
    must(lcp_read_instance(out2, &R, msg, sizeof msg) == LCP_OK, "rewritten read back");
    must(same_problem(&Q, &R), "second round trip bit-identical");
    lcp_problem_free(&P);
    lcp_problem_free(&Q);
    lcp_problem_free(&R);
    return 0;
}
