/* instance.c: instance folders (lcp/README.md, "Instance folders"): lcp_read_instance(_opt)
 * and lcp_write_instance.  One table, parts[], lists the folder's files in reading and writing
 * order, each with what it holds, where it goes in lcp_problem and what it is checked
 * against; the reader and the writer loop over it.  One file: mtx.c.
 *
 * FORMAT.  A folder of Matrix Market files (mtx.c), 1-based indices:
 *   A.mtx      m x m  coordinate, general or symmetric (lower triangle stored)   required
 *   q.mtx      m x 1  array                                                       required
 *   lo.mtx     m x 1  array, -inf allowed (absent: 0)
 *   hi.mtx     m x 1  array, +inf allowed (absent: +inf)
 *   findex.mtx m x 1  array integer, 0-based row of the coupled normal, -1 = none
 *   J.mtx      m x n  coordinate general          } both or neither
 *   Minv.mtx   n x n  coordinate symmetric        }  (general is accepted if symmetric)
 *   E.mtx, z0.mtx, zref.mtx   m x 1 array (absent: NULL)
 *   meta.txt   any text, kept verbatim in P->meta
 * A, J and Minv may also come dense (`array'), every vector as a single row.  Other files
 * are ignored.  The first of A.mtx and q.mtx read fixes m, J.mtx fixes n; every later file
 * must agree.
 * LOADING WHAT A FORM NEEDS (lcp_read_options.skip).  LCP_READ_SKIP_A leaves A.mtx unread
 * when J.mtx and Minv.mtx are present and the factor test is on (m is then q.mtx's), for
 * the matrix-free form: A is usually the largest file and its CSR the largest array (a
 * captured sphere pile: 45 entries a row against J's 9).  LCP_READ_SKIP_FACTORS leaves J,
 * Minv and E unread, for the assembled form.  What is not read is not validated.
 *
 * VALIDATION.  The reader stops at the first problem and writes one line into msg naming the
 * file and, where it applies, the line: "inst/A.mtx:7: row index 0 out of range 1..5".
 * Within one file: mtx.c.  Across the folder:
 *   LCP_ERR_IO           folder or required file missing, unreadable, not a regular file; an
 *                        optional file that is a dangling symbolic link or a loop of links
 *                        ("lo.mtx: dangling symbolic link"): only a name that is not there
 *                        at all (lstat: ENOENT) is absent
 *   LCP_ERR_FORMAT       NaN or Inf in A, q, J, Minv, E, z0, zref, NaN bound, non-square A,
 *                        findex out of -1..m-1, sizes the files cannot hold: m is bounded by
 *                        q.mtx's bytes / 2 and n by Minv.mtx's bytes / 6 (an inverse mass
 *                        matrix stores its diagonal), checked before anything is allocated
 *                        in proportion to the declared sizes
 *   LCP_ERR_INCONSISTENT sizes that disagree between files, only one of J and Minv, bounds
 *                        (lo > hi, lo = +inf, hi = -inf), findex pointing at itself or at a
 *                        row with findex >= 0, Minv not symmetric, A != J Minv J^T + diag(E)
 * Cross-file checks are lcp_problem_check's (its message is prefixed with the folder).
 * On failure P is left empty (lcp_problem_init) and everything read is freed.
 *
 * WRITING.  %.17g, so a read-write-read round trip is bit-identical (mtx.c).  A and Minv are
 * written `symmetric' (lower triangle) when exactly symmetric, else `general'.  lo.mtx and
 * hi.mtx are omitted when they hold the defaults (0, +inf; -0 counts as 0); the other
 * optional files are written when present.  All files are written to temporary names in the
 * folder first and renamed only when every one of them is complete; on a failure the
 * temporaries (and the folder, if this call created it) are removed.  Optional instance
 * files of the folder that the problem does not have are removed after the renames, so a
 * rewritten folder never mixes two problems.
 *
 * COST.  Reading is O(file bytes + nnz + m + n) (mtx.c); lcp_problem_check adds the rows of
 * J Minv J^T (see problem.c).  10^5 rows, 3.3e6 stored entries (145 MB of text): about 0.7 s
 * of CPU, 0.15 s of it the check (tests/bench/bench_io.c).  Writing is one fprintf per value
 * (about 0.5 us per entry).
 *
 * LIMITS.  Those of mtx.c; paths are limited to LCP_PATH_LEN (4096) bytes; the writer
 * renames without fsync (atomic against crashes of the program, not of the machine).
 */
#include "io_internal.h"
#include "lcp_internal.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- the table ---------------------------------------------------------------------------- */

/* the files of an instance, in reading and writing order */
enum { F_A, F_Q, F_LO, F_HI, F_FINDEX, F_J, F_MINV, F_E, F_Z0, F_ZREF, F_META, F_N };

enum { P_MATRIX, P_VECTOR, P_INDEX, P_TEXT };    /* lcp_csr, double *, int *, char * */
enum { N_OPTIONAL, N_REQUIRED, N_WITH_PAIR };   /* N_WITH_PAIR: read when its pair is */
enum { D_ANY, D_M, D_N };                        /* a dimension that must be m or n */

/* the checks of an index vector's rows against each other, its file lines in lines */
typedef lcp_status part_check(const lcp_problem *P, const char *path, const int *lines,
                              char *msg, size_t msglen);

typedef struct part {
    const char *name;
    int kind;            /* P_MATRIX, P_VECTOR, P_INDEX, P_TEXT */
    int need;            /* N_OPTIONAL (absent unless there), N_REQUIRED, N_WITH_PAIR */
    int pair;            /* both or neither: the other file of the pair (0: none) */
    unsigned skip;       /* the lcp_read_options.skip bit that leaves it unread */
    size_t off;          /* where it goes: offsetof(lcp_problem, ...) */
    int rows, cols;      /* D_M, D_N: equal to m, n, or, the first time, what fixes them;
                            rows == cols != D_ANY: square */
    lcp_mtx_spec spec;   /* matrices: the formats accepted (symm_ok: written `symmetric'
                            when exactly symmetric) */
    int values;          /* vectors: LCP_MTX_FINITE, _LO, _HI */
    int fill;            /* vectors: absent means every entry def, and is written so */
    double def;
    part_check *check;   /* index vectors */
} part;

static part_check check_findex;

static const part parts[F_N] = {
    [F_A] = {.name = "A.mtx", .kind = P_MATRIX, .need = N_REQUIRED, .skip = LCP_READ_SKIP_A,
             .off = offsetof(lcp_problem, A), .rows = D_M, .cols = D_M,
             .spec = {.coord = 1, .dense_ok = 1, .symm_ok = 1, .general_ok = 1}},
    [F_Q] = {.name = "q.mtx", .kind = P_VECTOR, .need = N_REQUIRED,
             .off = offsetof(lcp_problem, q), .rows = D_M, .values = LCP_MTX_FINITE},
    [F_LO] = {.name = "lo.mtx", .kind = P_VECTOR, .off = offsetof(lcp_problem, lo),
              .rows = D_M, .values = LCP_MTX_LO, .fill = 1, .def = 0.0},
    [F_HI] = {.name = "hi.mtx", .kind = P_VECTOR, .off = offsetof(lcp_problem, hi),
              .rows = D_M, .values = LCP_MTX_HI, .fill = 1, .def = INFINITY},
    [F_FINDEX] = {.name = "findex.mtx", .kind = P_INDEX, .off = offsetof(lcp_problem, findex),
                  .rows = D_M, .check = check_findex},
    [F_J] = {.name = "J.mtx", .kind = P_MATRIX, .pair = F_MINV, .skip = LCP_READ_SKIP_FACTORS,
             .off = offsetof(lcp_problem, J), .rows = D_M, .cols = D_N,
             .spec = {.coord = 1, .general_ok = 1}},
    [F_MINV] = {.name = "Minv.mtx", .kind = P_MATRIX, .need = N_WITH_PAIR, .pair = F_J,
                .skip = LCP_READ_SKIP_FACTORS, .off = offsetof(lcp_problem, Minv), .rows = D_N,
                .cols = D_N, .spec = {.coord = 1, .symm_ok = 1, .general_ok = 1}},
    [F_E] = {.name = "E.mtx", .kind = P_VECTOR, .skip = LCP_READ_SKIP_FACTORS,
             .off = offsetof(lcp_problem, E), .rows = D_M, .values = LCP_MTX_FINITE},
    [F_Z0] = {.name = "z0.mtx", .kind = P_VECTOR, .off = offsetof(lcp_problem, z0),
              .rows = D_M, .values = LCP_MTX_FINITE},
    [F_ZREF] = {.name = "zref.mtx", .kind = P_VECTOR, .off = offsetof(lcp_problem, zref),
                .rows = D_M, .values = LCP_MTX_FINITE},
    [F_META] = {.name = "meta.txt", .kind = P_TEXT, .off = offsetof(lcp_problem, meta)},
};

/* where part e goes in P */
static void *part_at(lcp_problem *P, const part *e) { return (char *)P + e->off; }
static const void *part_in(const lcp_problem *P, const part *e)
{
    return (const char *)P + e->off;
}

/* findex.mtx: no row points at itself or at a row with findex >= 0 (named by line) */
static lcp_status check_findex(const lcp_problem *P, const char *path, const int *lines,
                               char *msg, size_t msglen)
{
    for (int i = 0; i < P->m; i++) {
        int f = P->findex[i];
        if (f == i)
            return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                            "%s:%d: row %d: findex %d points at its own row", path, lines[i],
                            i + 1, f);
        if (f >= 0 && P->findex[f] >= 0)
            return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                            "%s:%d: row %d: findex %d points at a row with findex %d >= 0", path,
                            lines[i], i + 1, f, P->findex[f]);
    }
    return LCP_OK;
}

/* ---- paths -------------------------------------------------------------------------------- */

/* path = dir/name; LCP_ERR_ARG when too long */
static lcp_status join(char *path, const char *dir, const char *name, char *msg, size_t msglen)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;                        /* no "dir//A.mtx" */
    int r = snprintf(path, LCP_PATH_LEN, "%.*s/%s", (int)n, dir, name);
    if (r < 0 || r >= LCP_PATH_LEN)
        return lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: path too long", dir);
    return LCP_OK;
}

/* Whether the optional file path is there (*present 1) or absent (0).  Only a name that
 * lstat does not find (ENOENT) is absent: a symbolic link to nothing, a loop of links or a
 * name that cannot be examined is LCP_ERR_IO naming the file, not an absent file (the
 * folder would otherwise be read as another problem, solved and reported without a word). */
static lcp_status probe(const char *path, int *present, char *msg, size_t msglen)
{
    struct stat sb;
    *present = 0;
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT) return LCP_OK;
        return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot examine: %s", path,
                        strerror(errno));
    }
    if (S_ISLNK(sb.st_mode) && stat(path, &sb) != 0) {
        if (errno == ENOENT)
            return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: dangling symbolic link", path);
        if (errno == ELOOP)
            return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: too many levels of symbolic links",
                            path);
        return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot follow symbolic link: %s", path,
                        strerror(errno));
    }
    *present = 1;
    return LCP_OK;
}

/* path's size in *bytes; LCP_ERR_IO when it cannot be examined or is not a regular file.
 * stat never opens the file, so a FIFO or a device is refused without blocking. */
static lcp_status file_bytes(const char *path, long long *bytes, char *msg, size_t msglen)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: not a regular file", path);
    *bytes = (long long)sb.st_size;
    return LCP_OK;
}

/* dir/a and dir/b into pa and pb, each probed (*ha, *hb: present) */
static lcp_status probe_pair(const char *dir, const part *a, const part *b, char *pa,
                             char *pb, int *ha, int *hb, char *msg, size_t msglen)
{
    lcp_status st = join(pa, dir, a->name, msg, msglen);
    if (st == LCP_OK) st = join(pb, dir, b->name, msg, msglen);
    if (st == LCP_OK) st = probe(pa, ha, msg, msglen);
    if (st == LCP_OK) st = probe(pb, hb, msg, msglen);
    return st;
}

/* ---- reading ------------------------------------------------------------------------------ */

typedef struct reader {
    const char *dir;
    unsigned skip;               /* the parts left unread (lcp_read_options.skip, decided) */
    int have_m, have_n;          /* P->m, P->n fixed */
    const char *mfile, *nfile;   /* the files that fixed them, named in size messages */
    lcp_dim_cap cap_m, cap_n;    /* the columns a matrix of m or n columns may declare */
    int present[F_N];
} reader;

/* The folder examined before any file is read: it is a folder; m is bounded by q.mtx, which
 * holds m values of at least 2 bytes ("1\n"); LCP_READ_SKIP_A applies only with both factor
 * files there and the factor test on. */
static lcp_status reader_open(reader *c, const char *dir, const lcp_read_options *ro,
                              char *msg, size_t msglen)
{
    struct stat sb;
    char path[LCP_PATH_LEN], pm[LCP_PATH_LEN];
    unsigned skip = ro ? ro->skip : 0u;
    int hj, hm;
    memset(c, 0, sizeof *c);
    c->dir = dir;
    c->cap_m = (lcp_dim_cap){-1, parts[F_Q].name, 0, "values"};
    c->cap_n = (lcp_dim_cap){-1, parts[F_MINV].name, 0, "diagonal entries"};
    if (stat(dir, &sb) != 0)
        return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot open folder: %s", dir,
                        strerror(errno));
    if (!S_ISDIR(sb.st_mode)) return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: not a folder", dir);
    lcp_status st = join(path, dir, parts[F_Q].name, msg, msglen);
    if (st == LCP_OK) st = file_bytes(path, &c->cap_m.bytes, msg, msglen);
    if (st != LCP_OK) return st;
    c->cap_m.max = (long)((c->cap_m.bytes + 1) / 2);
    if ((skip & LCP_READ_SKIP_A) && (skip & LCP_READ_SKIP_FACTORS))
        return lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: cannot skip both A and its factors", dir);
    c->skip = skip & LCP_READ_SKIP_FACTORS;
    if ((skip & LCP_READ_SKIP_A) && ro->factor_tol >= 0) {  /* only with factors to solve */
        st = probe_pair(dir, &parts[F_J], &parts[F_MINV], path, pm, &hj, &hm, msg, msglen);
        if (st == LCP_OK && hj && hm) c->skip |= LCP_READ_SKIP_A;
    }
    return st;
}

/* Part a and its pair b, both or neither.  b (Minv.mtx) bounds n: an inverse mass matrix
 * stores its n diagonal entries, at least 6 bytes each ("1 1 1\n"). */
static lcp_status check_pair(reader *c, const part *a, const part *b, char *msg,
                             size_t msglen)
{
    char pa[LCP_PATH_LEN], pb[LCP_PATH_LEN];
    int ha, hb;
    lcp_status st = probe_pair(c->dir, a, b, pa, pb, &ha, &hb, msg, msglen);
    if (st != LCP_OK) return st;
    if (ha != hb)
        return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s: present without %s",
                        ha ? pa : pb, ha ? pb : pa);
    if (hb && (st = file_bytes(pb, &c->cap_n.bytes, msg, msglen)) == LCP_OK)
        c->cap_n.max = (long)(c->cap_n.bytes / 6);
    return st;
}

/* the size a dimension must have (-1: any, or not yet fixed) */
static long want(const reader *c, const lcp_problem *P, int dim)
{
    if (dim == D_M) return c->have_m ? P->m : -1;
    if (dim == D_N) return c->have_n ? P->n : -1;
    return -1;
}

/* m and n fixed by the first part that has them */
static lcp_status learn_dims(reader *c, const part *e, const char *path, long rows,
                             long cols, lcp_problem *P, char *msg, size_t msglen)
{
    if (e->rows == D_M && !c->have_m) {
        if (rows > INT_MAX)
            return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: %ld rows: too many", path, rows);
        P->m = (int)rows;
        c->have_m = 1;
        c->mfile = e->name;
    }
    if (e->cols == D_N && !c->have_n) {
        P->n = (int)cols;
        c->have_n = 1;
        c->nfile = e->name;
    }
    return LCP_OK;
}

/* matrix part e from path: its sizes from m and n, its columns bounded by cap_m or cap_n */
static lcp_status read_matrix(reader *c, const part *e, const char *path, lcp_problem *P,
                              char *msg, size_t msglen)
{
    lcp_csr *M = part_at(P, e);
    const char *other = e->rows == D_N ? c->nfile : c->mfile;
    lcp_status st = lcp_mtx_read_matrix(path, &e->spec, e->rows == e->cols, want(c, P, e->rows),
                                        want(c, P, e->cols), other,
                                        e->cols == D_M ? &c->cap_m : &c->cap_n, M, msg, msglen);
    if (st != LCP_OK) return st;
    return learn_dims(c, e, path, M->nrow, M->ncol, P, msg, msglen);
}

/* the file path of part e, there, into P */
static lcp_status read_part(reader *c, const part *e, const char *path, lcp_problem *P,
                            char *msg, size_t msglen)
{
    long rows = -1;
    int *lines = NULL;
    lcp_status st;
    switch (e->kind) {
    case P_MATRIX: return read_matrix(c, e, path, P, msg, msglen);
    case P_VECTOR:
        st = lcp_mtx_read_array(path, want(c, P, D_M), c->mfile, e->values, part_at(P, e),
                                &rows, msg, msglen);
        return st == LCP_OK ? learn_dims(c, e, path, rows, -1, P, msg, msglen) : st;
    case P_INDEX:
        st = lcp_mtx_read_index(path, want(c, P, D_M), c->mfile, part_at(P, e), &lines, msg,
                                msglen);
        if (st == LCP_OK && e->check) st = e->check(P, path, lines, msg, msglen);
        lcp_free(lines);
        return st;
    default: return lcp_read_file(path, part_at(P, e), NULL, msg, msglen);
    }
}

/* an optional part that is absent: NULL, or every entry its default */
static lcp_status read_absent(const part *e, const char *path, lcp_problem *P, char *msg,
                              size_t msglen)
{
    if (!e->fill) return LCP_OK;
    double *v = lcp_malloc((size_t)P->m, sizeof(double));
    if (!v) return lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", path);
    for (int i = 0; i < P->m; i++) v[i] = e->def;
    *(double **)part_at(P, e) = v;
    return LCP_OK;
}

/* part k of the folder into P: skipped, absent or read */
static lcp_status read_one(reader *c, int k, lcp_problem *P, char *msg, size_t msglen)
{
    const part *e = &parts[k];
    char path[LCP_PATH_LEN];
    int there = 1;
    lcp_status st = join(path, c->dir, e->name, msg, msglen);
    if (st == LCP_OK && e->pair > k) st = check_pair(c, e, &parts[e->pair], msg, msglen);
    if (st != LCP_OK || (c->skip & e->skip)) return st;
    if (e->need == N_WITH_PAIR && !c->present[e->pair]) return LCP_OK;
    if (e->need == N_OPTIONAL && (st = probe(path, &there, msg, msglen)) != LCP_OK) return st;
    if (!there) return read_absent(e, path, P, msg, msglen);
    c->present[k] = 1;
    return read_part(c, e, path, P, msg, msglen);
}

void lcp_read_options_default(lcp_read_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->factor_tol = 1e-12;
}

lcp_status lcp_read_instance(const char *dir, lcp_problem *P, char *msg, size_t msglen)
{
    lcp_read_options ro;
    lcp_read_options_default(&ro);
    return lcp_read_instance_opt(dir, &ro, P, msg, msglen);
}

lcp_status lcp_read_instance_opt(const char *dir, const lcp_read_options *ro, lcp_problem *P,
                                 char *msg, size_t msglen)
{
    reader c;
    char sub[512];
    if (msg && msglen) msg[0] = '\0';
    if (!P || !dir) return lcp_fail(msg, msglen, LCP_ERR_ARG, "no folder or problem given");
    lcp_problem_init(P);
    lcp_status st = reader_open(&c, dir, ro, msg, msglen);
    for (int k = 0; k < F_N && st == LCP_OK; k++) st = read_one(&c, k, P, msg, msglen);
    if (st == LCP_OK) {
        st = lcp_problem_check_tol(P, ro ? ro->factor_tol : 1e-12, sub, sizeof sub);
        if (st != LCP_OK) {                                        /* cross-file */
            size_t n = strlen(dir);
            while (n > 1 && dir[n - 1] == '/') n--;
            lcp_fail(msg, msglen, st, "%.*s/%s", (int)n, dir, sub);
        }
    }
    if (st != LCP_OK) lcp_problem_free(P);
    return st;
}

/* ---- writing ------------------------------------------------------------------------------ */

static int all_default(int m, const double *v, double def)
{
    for (int i = 0; i < m; i++)
        if (v[i] != def) return 0;
    return 1;
}

/* whether P has part e to write: required, present, and for a filled vector not its default */
static int part_wanted(const lcp_problem *P, const part *e)
{
    const void *at = part_in(P, e);
    if (e->need == N_REQUIRED) return 1;
    switch (e->kind) {
    case P_MATRIX: return ((const lcp_csr *)at)->p != NULL;
    case P_VECTOR:
        return e->fill ? !all_default(P->m, *(double *const *)at, e->def)
                       : *(double *const *)at != NULL;
    case P_INDEX: return *(int *const *)at != NULL;
    default: return *(char *const *)at != NULL;
    }
}

/* one part's file (lcp_write_temp's writer); lower: a matrix written `symmetric' */
typedef struct part_out {
    const lcp_problem *P;
    const part *e;
    int lower;
} part_out;

static void write_part(FILE *fp, const void *ctx)
{
    const part_out *o = ctx;
    const void *at = part_in(o->P, o->e);
    switch (o->e->kind) {
    case P_MATRIX: lcp_mtx_write_coord(fp, at, o->lower); break;
    case P_VECTOR: lcp_mtx_write_array(fp, o->P->m, *(double *const *)at); break;
    case P_INDEX: lcp_mtx_write_iarray(fp, o->P->m, *(int *const *)at); break;
    default: fputs(*(char *const *)at, fp); break;
    }
}

/* P holds what a folder needs: A (m x m), q, lo, hi, and J (m x n) with Minv (n x n) or
 * neither */
static int writable(const lcp_problem *P)
{
    return P->A.p && P->m >= 1 && P->A.nrow == P->m && P->A.ncol == P->m && P->q && P->lo &&
           P->hi && !P->J.p == !P->Minv.p &&
           !(P->J.p && (P->J.nrow != P->m || P->Minv.nrow != P->J.ncol ||
                        P->Minv.ncol != P->J.ncol));
}

/* What to write: want[k], and out[k].lower for the matrices written `symmetric' (found
 * before anything is written: the test allocates, and a failure must fail the write, not
 * change the file's symmetry word); LCP_ERR_NOMEM (no message) or LCP_OK. */
static lcp_status plan_parts(const lcp_problem *P, int *want, part_out *out)
{
    for (int k = 0; k < F_N; k++) {
        const part *e = &parts[k];
        want[k] = part_wanted(P, e);
        out[k] = (part_out){P, e, 0};
        if (e->kind == P_MATRIX && e->spec.symm_ok && want[k] &&
            lcp_csr_symmetric(part_in(P, e), &out[k].lower) != LCP_OK)
            return LCP_ERR_NOMEM;
    }
    return LCP_OK;
}

/* every wanted part into its temporary file tmp[k] (final[k] its name) */
static lcp_status write_temps(char (*final)[LCP_PATH_LEN], char (*tmp)[LCP_PATH_LEN],
                              const int *want, const part_out *out, char *msg, size_t msglen)
{
    for (int k = 0; k < F_N; k++) {
        if (!want[k]) continue;
        lcp_status st = lcp_write_temp(final[k], tmp[k], write_part, &out[k], msg, msglen);
        if (st != LCP_OK) return st;
        if (lcp_is_dir(final[k]))                                  /* rename would fail */
            return lcp_fail(msg, msglen, LCP_ERR_IO, "%s: is a folder", final[k]);
    }
    return LCP_OK;
}

lcp_status lcp_write_instance(const char *dir, const lcp_problem *P, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    char final[F_N][LCP_PATH_LEN], tmp[F_N][LCP_PATH_LEN];
    int want[F_N], created = 0, renamed = 0;
    part_out out[F_N];
    if (msg && msglen) msg[0] = '\0';
    for (int k = 0; k < F_N; k++) tmp[k][0] = '\0';
    if (!dir || !P || !writable(P)) {
        st = lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: incomplete or inconsistent problem",
                      dir ? dir : "(no folder)");
        goto done;
    }
    for (int k = 0; k < F_N; k++)
        if ((st = join(final[k], dir, parts[k].name, msg, msglen)) != LCP_OK) goto done;
    if (plan_parts(P, want, out) != LCP_OK) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", dir);
        goto done;
    }
    if (!lcp_is_dir(dir)) {
        if (mkdir(dir, 0777) != 0) {
            st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot create folder: %s", dir,
                          strerror(errno));
            goto done;
        }
        created = 1;
    }
    if ((st = write_temps(final, tmp, want, out, msg, msglen)) != LCP_OK) goto done;
    for (int k = 0; k < F_N; k++) {                                /* all complete: rename */
        if (!want[k]) continue;
        if (rename(tmp[k], final[k]) != 0) {
            st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot rename %s: %s", final[k],
                          tmp[k], strerror(errno));
            goto done;
        }
        tmp[k][0] = '\0';
        renamed++;
    }
    for (int k = 0; k < F_N; k++)                                  /* stale optional files */
        if (!want[k] && !lcp_is_dir(final[k])) remove(final[k]);
done:
    for (int k = 0; k < F_N; k++)
        if (tmp[k][0]) remove(tmp[k]);
    if (st != LCP_OK && created && !renamed) rmdir(dir);
    return st;
}
