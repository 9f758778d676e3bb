/* io.c: instance folders (lcp/README.md, "Instance folders"): lcp_read_instance,
 * lcp_write_instance, lcp_read_vector, lcp_write_vector.
 *
 * FORMAT.  A folder of Matrix Market files, 1-based indices:
 *   A.mtx      m x m  coordinate, general or symmetric (lower triangle stored)   required
 *   q.mtx      m x 1  array                                                       required
 *   lo.mtx     m x 1  array, -inf allowed (absent: 0)
 *   hi.mtx     m x 1  array, +inf allowed (absent: +inf)
 *   findex.mtx m x 1  array integer, 0-based row of the coupled normal, -1 = none
 *   J.mtx      m x n  coordinate general          } both or neither
 *   Minv.mtx   n x n  coordinate symmetric        }  (general is accepted if symmetric)
 *   E.mtx, z0.mtx, zref.mtx   m x 1 array (absent: NULL)
 *   meta.txt   any text, kept verbatim in P->meta
 * LOADING WHAT A FORM NEEDS (lcp_read_options.skip).  LCP_READ_SKIP_A leaves A.mtx unread
 * when J.mtx and Minv.mtx are present and the factor test is on (m is then q.mtx's), for
 * the matrix-free form: A is usually the largest file and its CSR the largest array (a
 * captured sphere pile: 45 entries a row against J's 9).  LCP_READ_SKIP_FACTORS leaves J,
 * Minv and E unread, for the assembled form.  What is not read is not validated.
 * Other files are ignored.  Header words are case-insensitive; `%' comment lines may follow
 * the banner and precede entries; blank lines are skipped; Windows line ends are accepted.
 *
 * FIELDS.  Real files accept the `real', `double' and `integer' fields (an integer field
 * must hold integer tokens; they are read as doubles, exact below 2^53).  findex.mtx must
 * be `integer'.  `complex' and `pattern' fields, `skew-symmetric' and `hermitian' are
 * rejected, as are `array' where `coordinate' is required and the converse.
 *
 * VALIDATION.  The reader stops at the first problem and writes one line into msg naming the
 * file and, where it applies, the line: "inst/A.mtx:7: row index 0 out of range 1..5".
 *   LCP_ERR_IO           folder or required file missing, unreadable, not a regular file
 *                        (a FIFO or a device is refused without blocking: the type is
 *                        checked on a non-blocking descriptor before any read); an
 *                        optional file that is a dangling symbolic link or a loop of links
 *                        ("lo.mtx: dangling symbolic link"): only a name that is not there
 *                        at all (lstat: ENOENT) is absent
 *   LCP_ERR_FORMAT       no banner, wrong header, bad size line, bad token, index out of
 *                        range or zero, entry above the diagonal in a symmetric file,
 *                        duplicate entry (the later line is named), NaN or Inf (A, q, J,
 *                        Minv, E, z0, zref), NaN bound, fewer entries than announced,
 *                        trailing data, no newline at the end of a .mtx file (a file cut
 *                        inside its last number would otherwise read as another value),
 *                        non-square A, findex out of -1..m-1, sizes the files cannot hold:
 *                        an array needs 2 bytes a value, a coordinate file 6 an entry, m is
 *                        bounded by q.mtx's bytes / 2 and n by Minv.mtx's bytes / 6 (an
 *                        inverse mass matrix stores its diagonal), all checked before
 *                        anything is allocated in proportion to the declared sizes
 *   LCP_ERR_INCONSISTENT sizes that disagree between files, only one of J and Minv, bounds
 *                        (lo > hi, lo = +inf, hi = -inf), findex pointing at itself or at a
 *                        row with findex >= 0, Minv not symmetric, A != J Minv J^T + diag(E)
 * Cross-file checks are lcp_problem_check's (its message is prefixed with the folder).
 * On failure P is left empty (lcp_problem_init) and everything read is freed.
 *
 * WRITING.  Values are written with %.17g, so a read-write-read round trip is bit-identical
 * (-0 and inf included).  A and Minv are written `symmetric' (lower triangle) when exactly
 * symmetric, else `general'.  lo.mtx and hi.mtx are omitted when they hold the defaults (0,
 * +inf; -0 counts as 0); the other optional files are written when present.  All files are
 * written to temporary names in the folder first and renamed only when every one of them is
 * complete; on a failure the temporaries (and the folder, if this call created it) are
 * removed.  Optional instance files of the folder that the problem does not have are
 * removed after the renames, so a rewritten folder never mixes two problems.
 *
 * COST.  Reading is O(file bytes + nnz + m + n): each file is read whole into memory and
 * parsed by hand, then one stable bucket pass by row builds the CSR (files written row by
 * row, like ours, come out sorted; otherwise a stable bucket pass by column goes first).
 * Numbers: tokens of at most 19 significant digits with a decimal exponent in -22..19 (all
 * that %.17g writes for magnitudes 1e-5..1e19) are converted exactly with 64/128-bit
 * integer arithmetic (fast_decimal: digits eight at a time, one 128-bit product or
 * division, round half to even); every other token goes to strtod.  Both are correctly
 * rounded, so the result is strtod's bit for bit (tested on 200000 tokens).  Memory: the
 * file text plus 16 bytes per stored entry and the CSR.  lcp_problem_check adds the rows
 * of J Minv J^T (see problem.c).  10^5 rows, 3.3e6 stored entries (145 MB of text): about
 * 0.7 s of CPU, 0.15 s of it the check (tests/bench/bench_io.c).  Writing is one fprintf per value
 * (about 0.5 us per entry).
 *
 * LIMITS.  Indices and entry counts are int (2^31 - 1, counting both triangles of a
 * symmetric A); file paths are limited to 4096 bytes; files are read whole (no streaming);
 * the writer renames without fsync (atomic against crashes of the program, not of the
 * machine); numbers are read and written in the C locale's format (strtod and fprintf
 * follow LC_NUMERIC, so a program that sets another numeric locale must not).  A duplicate is found after the whole file is read, and its lines by a rescan.
 */
#include "lcp_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum { PATH_LEN = 4096 };

/* path = dir/name; LCP_ERR_ARG when too long */
static lcp_status join(char *path, const char *dir, const char *name, char *msg, size_t msglen)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;                        /* no "dir//A.mtx" */
    int r = snprintf(path, PATH_LEN, "%.*s/%s", (int)n, dir, name);
    if (r < 0 || r >= PATH_LEN)
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

/* read the whole file; LCP_ERR_IO when it cannot be opened or read or is not a regular file.
 * The file is opened non-blocking and its type checked on the open descriptor before any
 * read: opening a FIFO for reading blocks until a writer appears, so the type check after a
 * blocking open (or a stat before it, which a rename can race) would not be enough. */
static lcp_status mm_load(mm *f, const char *path, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    struct stat sb;
    memset(f, 0, sizeof *f);
    f->name = path;
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
    size_t size = (size_t)sb.st_size, got = 0;
    f->buf = lcp_malloc(size + 1, 1);
    if (!f->buf) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory (%zu bytes)", path, size);
        goto done;
    }
    while (got < size) {                                           /* regular: never EAGAIN */
        ssize_t r = read(fd, f->buf + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (got != size) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: read error (%zu of %zu bytes)", path, got,
                      size);
        goto done;
    }
    f->buf[size] = '\0';
    f->s = f->buf;
    f->end = f->buf + size;
    f->line = 1;
done:
    if (fd >= 0) close(fd);
    if (st != LCP_OK) {
        lcp_free(f->buf);
        f->buf = NULL;
    }
    return st;
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

#if defined(__SIZEOF_INT128__) && defined(__GNUC__)
__extension__ typedef unsigned __int128 u128;

static int clz128(u128 x)
{
    unsigned long long hi = (unsigned long long)(x >> 64), lo = (unsigned long long)x;
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll(lo);
}

/* v = w 10^e (w > 0) correctly rounded to double with integer arithmetic only (exact, so it
 * also holds under valgrind, which does not emulate x87 long doubles).  e >= 0: the product
 * w 10^e (w < 2^64, 10^e < 2^64 for e <= 19) is exact in 128 bits.  e < 0: the quotient
 * (w 2^s) / 10^-e with w 2^s normalised to 128 bits and 10^-e < 2^74 (-e <= 22) has at least
 * 54 bits, and the remainder is the sticky bit.  Then round to 53 bits, half to even.
 * Returns 0 outside these ranges (left to strtod). */
static int exact_scale(unsigned long long w, int e, double *v)
{
    static const unsigned long long p10[20] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
        100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
        10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
        100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull};
    u128 x;
    int bexp = 0, sticky = 0;                                      /* v = (x + sticky) 2^bexp */
    if (e >= 0) {
        if (e > 19) return 0;
        x = (u128)w * p10[e];                                      /* exact */
    } else {
        if (e < -22) return 0;
        u128 d = -e <= 19 ? (u128)p10[-e] : (u128)p10[19] * p10[-e - 19];
        int sh = __builtin_clzll(w) + 64;
        u128 n = (u128)w << sh;                                    /* top bit set */
        x = n / d;                                                 /* >= 2^53 */
        sticky = n - x * d != 0;
        bexp = -sh;
    }
    int nb = 128 - clz128(x);                                      /* bits of x */
    unsigned long long mant;
    if (nb > 53) {
        int sh = nb - 53;
        u128 rem = x & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
        mant = (unsigned long long)(x >> sh);
        if (rem > half || (rem == half && (sticky || (mant & 1)))) mant++; /* half to even */
        bexp += sh;
        if (mant == (1ull << 53)) {
            mant >>= 1;
            bexp++;
        }
    } else {
        mant = (unsigned long long)x << (53 - nb);                 /* exact, no sticky */
        bexp -= 53 - nb;
    }
    int biased = bexp + 52 + 1023;                                 /* v = mant 2^bexp */
    if (biased < 1 || biased > 2046) return 0;
    uint64_t bits = ((uint64_t)biased << 52) | (mant & ((1ull << 52) - 1));
    memcpy(v, &bits, sizeof *v);
    return 1;
}

/* A run of digits at s (the text ends at end) appended to w, leading zeros skipped while
 * w = 0; *nsig counts the significant digits.  Returns the characters read, or -1 past 19
 * significant digits.  Eight digits at a time when they are there (SWAR, little-endian). */
static int digit_run(const char *s, const char *end, unsigned long long *w, int *nsig)
{
    const char *p = s;
    if (*w == 0)
        while (*p == '0') p++;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (end - p >= 8 && *nsig + 8 <= 19) {
        uint64_t x;
        memcpy(&x, p, 8);
        if ((((x & 0xF0F0F0F0F0F0F0F0ull) |
              (((x + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4))) !=
            0x3333333333333333ull)
            break;                                                 /* not eight digits */
        x -= 0x3030303030303030ull;
        x = x * 10 + (x >> 8);                                     /* pairs */
        x = (((x & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
             (((x >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
        *w = *w * 100000000ull + x;
        *nsig += 8;
        p += 8;
    }
#else
    (void)end;
#endif
    for (; *p >= '0' && *p <= '9'; p++) {
        if (++*nsig > 19) return -1;
        *w = 10 * *w + (unsigned)(*p - '0');
    }
    return (int)(p - s);
}

/* Decimal token [+-]digits[.digits][(e|E)[+-]digits] to double, correctly rounded, or 0 to
 * leave it to strtod (more than 19 significant digits, exponents out of exact_scale's range,
 * inf, nan, hex). */
static int fast_decimal(const char *s, const char *end, const char **endp, double *v)
{
    int neg = 0, nd, nsig = 0, frac = 0;
    unsigned long long w = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    if ((nd = digit_run(s, end, &w, &nsig)) < 0) return 0;         /* integer digits */
    s += nd;
    if (*s == '.') {
        if ((frac = digit_run(s + 1, end, &w, &nsig)) < 0) return 0; /* fraction digits */
        s += 1 + frac;
        nd += frac;
    }
    if (nd == 0) return 0;
    int e = 0;
    if (*s == 'e' || *s == 'E') {
        int eneg = 0, ne = 0;
        s++;
        if (*s == '-' || *s == '+') eneg = *s++ == '-';
        for (; *s >= '0' && *s <= '9'; s++)
            if (++ne > 4) return 0;
            else e = 10 * e + (*s - '0');
        if (ne == 0) return 0;
        if (eneg) e = -e;
    }
    e -= frac;                                                     /* v = w 10^e */
    double d = 0.0;
    if (w != 0 && !exact_scale(w, e, &d)) return 0;
    *v = neg ? -d : d;
    *endp = s;
    return 1;
}
#else
static int fast_decimal(const char *s, const char *end, const char **endp, double *v)
{
    (void)s;
    (void)end;
    (void)endp;
    (void)v;
    return 0;
}
#endif

/* real token at *ps; with integer = 1 the token must be an integer */
static int parse_value(const mm *f, const char **ps, int integer, double *v)
{
    const char *s = *ps;
    char *e;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '\n' || *s == '\r' || *s == '\v' || *s == '\f' || s == f->end) return 0;
    const char *fe;
    double x;
    if (fast_decimal(s, f->end, &fe, &x) && ends_token(f, fe)) {
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

/* what a file must be */
typedef struct mm_spec {
    int coord;       /* 1 coordinate, 0 array */
    int dense_ok;    /* a coordinate matrix may also come as an array (dense; SciPy, MATLAB) */
    int symm_ok;     /* symmetric allowed */
    int general_ok;  /* general allowed */
    int integer;     /* 1: integer field required (findex) */
} mm_spec;

static lcp_status mm_expect(const mm *f, const mm_spec *sp, char *msg, size_t msglen)
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

/* what the values may be */
enum { V_FINITE, V_LO, V_HI, V_NOTNAN };

static lcp_status check_value(const mm *f, double x, int kind, char *msg, size_t msglen)
{
    if (isnan(x))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: value is NaN", f->name, f->line);
    if (kind == V_FINITE && !isfinite(x))
        return lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: value %g is not finite", f->name,
                    f->line, x);
    if (kind == V_LO && x == INFINITY)
        return lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s:%ld: lo = +inf", f->name, f->line);
    if (kind == V_HI && x == -INFINITY)
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

/* A (nrow x ncol) from the nz file entries (0-based ti, tj), both triangles when symm.  One
 * stable bucket pass by row in file order; when that leaves a row unsorted, a stable pass by
 * column goes first.  A duplicate is reported at its later line. */
static lcp_status mm_to_csr(const mm *f, int nz, const int *ti, const int *tj,
                            const double *tx, lcp_csr *A, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    int nrow = (int)f->nrow, ncol = (int)f->ncol, symm = f->symm;
    int *next = NULL, *order = NULL;
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
    int sorted = 1;
    for (int i = 0; i < nrow && sorted; i++)
        for (int d = A->p[i] + 1; d < A->p[i + 1]; d++)
            if (A->j[d] <= A->j[d - 1]) {
                sorted = 0;
                break;
            }
    if (!sorted) {                                                 /* column order first */
        order = lcp_malloc((size_t)total, sizeof(int));
        if (!order) {
            st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", f->name);
            goto done;
        }
        memset(next, 0, ((size_t)ncol + 1) * sizeof(int));
        for (int k = 0; k < nz; k++) {                             /* column counts */
            next[tj[k] + 1]++;
            if (symm && ti[k] != tj[k]) next[ti[k] + 1]++;
        }
        for (int c = 0; c < ncol; c++) next[c + 1] += next[c];
        for (int k = 0; k < nz; k++) {
            order[next[tj[k]]++] = 2 * k;
            if (symm && ti[k] != tj[k]) order[next[ti[k]]++] = 2 * k + 1;
        }
        memcpy(next, A->p, (size_t)nrow * sizeof(int));
        scatter(ti, tj, tx, total, order, symm, next, A);          /* stable: sorted rows */
    }
    for (int i = 0; i < nrow; i++)                                 /* duplicates */
        for (int d = A->p[i] + 1; d < A->p[i + 1]; d++)
            if (A->j[d] == A->j[d - 1]) {
                int r = i, c = A->j[d], k1 = -1, k2 = -1;
                if (symm && r < c) {                               /* name the stored one */
                    r = c;
                    c = i;
                }
                for (int k = 0; k < nz && k2 < 0; k++)            /* its first two lines */
                    if (ti[k] == r && tj[k] == c) {
                        if (k1 < 0) k1 = k;
                        else k2 = k;
                    }
                st = lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                          "%s:%ld: duplicate entry (%d,%d), first on line %ld", f->name,
                          mm_entry_line(f, k2), r + 1, c + 1, mm_entry_line(f, k1));
                goto done;
            }
done:
    if (st != LCP_OK) lcp_csr_free(A);
    lcp_free(next);
    lcp_free(order);
    return st;
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
        if (k == nalloc || !mm_next_data(f)) {
            st = mm_truncated(f, k, msg, msglen);
            goto done;
        }
        const char *s = f->s;
        long line = f->line, i, j;
        double x;
        if (!parse_long(f, &s, &i) || !parse_long(f, &s, &j) ||
            !parse_value(f, &s, f->integer, &x)) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: expected `row column %s'",
                      f->name, line, f->integer ? "integer" : "value");
            goto done;
        }
        if (i < 1 || i > f->nrow) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: row index %ld out of range 1..%ld",
                      f->name, line, i, f->nrow);
            goto done;
        }
        if (j < 1 || j > f->ncol) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                      "%s:%ld: column index %ld out of range 1..%ld", f->name, line, j,
                      f->ncol);
            goto done;
        }
        if (f->symm && j > i) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                      "%s:%ld: entry (%ld,%ld) above the diagonal in a symmetric file "
                      "(store the lower triangle)", f->name, line, i, j);
            goto done;
        }
        if ((st = check_value(f, x, V_FINITE, msg, msglen)) != LCP_OK) goto done;
        if (!end_line(f, &s)) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: unexpected text after the entry",
                      f->name, line);
            goto done;
        }
        f->s = s;
        ti[k] = (int)i - 1;
        tj[k] = (int)j - 1;
        tx[k] = x;
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

/* ---- reading: the files of an instance -------------------------------------------------- */

/* A bound on a coordinate file's dimensions from the size of a file that must hold one
 * item per row: the CSR needs memory in proportion to the rows declared, so a short file
 * declaring 2e8 rows is refused before anything is allocated. */
typedef struct dim_cap {
    long max;          /* < 0: no bound */
    const char *file;  /* the file that bounds it */
    long long bytes;   /* its size */
    const char *what;  /* "values", "diagonal entries" */
} dim_cap;

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
    if (st == LCP_OK) st = mm_read_values(f, V_FINITE, v, msg, msglen);
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

/* A coordinate file dir/name into M.  want_rows / want_cols >= 0 are required sizes (other
 * names the file they come from); square requires nrow == ncol; columns at most cap->max
 * (the rows are A's, bounded by its columns, or J's, required equal to A's).  *present = 0 when the file is absent and not required. */
static lcp_status read_matrix(const char *dir, const char *name, int required,
                              const mm_spec *sp, int square, long want_rows, long want_cols,
                              const char *other, const dim_cap *cap, lcp_csr *M, int *present,
                              char *msg, size_t msglen)
{
    char path[PATH_LEN];
    mm f = {0};
    lcp_status st = join(path, dir, name, msg, msglen);
    *present = 0;
    if (st != LCP_OK) goto done;
    if (!required) {
        int there;
        if ((st = probe(path, &there, msg, msglen)) != LCP_OK || !there) goto done;
    }
    if ((st = mm_load(&f, path, msg, msglen)) != LCP_OK) goto done;
    *present = 1;
    if ((st = mm_header(&f, msg, msglen)) != LCP_OK) goto done;
    if ((st = mm_expect(&f, sp, msg, msglen)) != LCP_OK) goto done;
    if (f.nrow < 1 || f.ncol < 1) {
        st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: empty matrix (%ld x %ld)", path,
                  f.size_line, f.nrow, f.ncol);
        goto done;
    }
    if (square && f.nrow != f.ncol) {
        st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: %ld x %ld, must be square", path,
                  f.size_line, f.nrow, f.ncol);
        goto done;
    }
    if ((want_rows >= 0 && f.nrow != want_rows) || (want_cols >= 0 && f.ncol != want_cols)) {
        st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s:%ld: %ld x %ld, but %s needs %ld x %ld",
                  path, f.size_line, f.nrow, f.ncol, other, want_rows >= 0 ? want_rows : f.nrow,
                  want_cols >= 0 ? want_cols : f.ncol);
        goto done;
    }
    if (cap->max >= 0 && f.ncol > cap->max) {                     /* (rows: checked above) */
        st = lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                      "%s:%ld: %ld x %ld, but %s (%lld bytes) can hold at most %ld %s",
                      path, f.size_line, f.nrow, f.ncol, cap->file, cap->bytes, cap->max,
                      cap->what);
        goto done;
    }
    st = f.coord ? mm_read_coord(&f, M, msg, msglen) : mm_read_dense(&f, M, msg, msglen);
done:
    mm_free(&f);
    return st;
}

/* An m x 1 array file into *v (real) or *iv (integer findex, with the file line of each
 * row in *lines); *rows = m.  Absent and not required: *v = NULL, *present = 0. */
static lcp_status read_array(const char *path, int required, long want_rows, const char *other,
                             int kind, double **v, int **iv, int **lines, long *rows,
                             int *present, char *msg, size_t msglen)
{
    mm f = {0};
    lcp_status st = LCP_OK;
    double *x = NULL;
    int *ix = NULL, *il = NULL;
    mm_spec sp = {0, 0, 0, 1, iv != NULL};
    *present = 0;
    if (!required) {
        int there;
        if ((st = probe(path, &there, msg, msglen)) != LCP_OK || !there) goto done;
    }
    if ((st = mm_load(&f, path, msg, msglen)) != LCP_OK) goto done;
    *present = 1;
    if ((st = mm_header(&f, msg, msglen)) != LCP_OK) goto done;
    if ((st = mm_expect(&f, &sp, msg, msglen)) != LCP_OK) goto done;
    if (f.nrow == 1 && f.ncol != 1) { /* a row vector (MATLAB's mmwrite of q'): the same values */
        f.nrow = f.ncol;
        f.ncol = 1;
    }
    if (f.ncol != 1) {
        st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: %ld x %ld, must be a single column "
                  "or a single row", path, f.size_line, f.nrow, f.ncol);
        goto done;
    }
    if (want_rows >= 0 && f.nrow != want_rows) {
        st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s:%ld: %ld rows, but %s has %ld", path,
                  f.size_line, f.nrow, other, want_rows);
        goto done;
    }
    /* every value takes at least 2 bytes ("1\n"): a longer count is a truncated file */
    long cap = (long)((f.end - f.s + 1) / 2);
    if (f.nnz > cap) {
        st = lcp_fail(msg, msglen, LCP_ERR_FORMAT,
                  "%s:%ld: %ld entries announced but the file is too short to hold them", path,
                  f.size_line, f.nnz);
        goto done;
    }
    if (rows) *rows = f.nrow;
    if (iv) {
        ix = lcp_malloc((size_t)f.nnz, sizeof(int));
        il = lcp_malloc((size_t)f.nnz, sizeof(int));
    } else {
        x = lcp_malloc((size_t)f.nnz, sizeof(double));
    }
    if (iv ? !ix || !il : !x) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    if (!iv) {
        st = mm_read_values(&f, kind, x, msg, msglen);
        if (st == LCP_OK) {
            *v = x;
            x = NULL;
        }
        goto done;
    }
    for (long k = 0; k < f.nnz; k++) {                              /* integer rows */
        long val;
        if (!mm_next_data(&f)) {
            st = mm_truncated(&f, k, msg, msglen);
            goto done;
        }
        const char *s = f.s;
        long line = f.line;
        if (!parse_long(&f, &s, &val) || !end_line(&f, &s)) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: expected one integer", path, line);
            goto done;
        }
        if (val < -1 || val >= f.nrow) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s:%ld: findex %ld out of range -1..%ld",
                      path, line, val, f.nrow - 1);
            goto done;
        }
        f.s = s;
        ix[k] = (int)val;
        il[k] = line > INT_MAX ? INT_MAX : (int)line;
    }
    if ((st = mm_finish(&f, msg, msglen)) != LCP_OK) goto done;
    *iv = ix;
    *lines = il;
    ix = il = NULL;
done:
    if (st != LCP_OK) *present = 0;
    mm_free(&f);
    lcp_free(x);
    lcp_free(ix);
    lcp_free(il);
    return st;
}

/* dir/name as text into *text (NULL when absent) */
static lcp_status read_text(const char *path, char **text, char *msg, size_t msglen)
{
    mm f = {0};
    lcp_status st;
    int there;
    *text = NULL;
    if ((st = probe(path, &there, msg, msglen)) != LCP_OK || !there) goto done;
    if ((st = mm_load(&f, path, msg, msglen)) != LCP_OK) goto done;
    *text = f.buf;
    f.buf = NULL;
done:
    mm_free(&f);
    return st;
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
    static const mm_spec spec_A = {1, 1, 1, 1, 0}, spec_J = {1, 0, 0, 1, 0},
                         spec_Minv = {1, 0, 1, 1, 0};
    lcp_status st = LCP_OK;
    char path[PATH_LEN], sub[512];
    int present, *lines = NULL;
    struct stat sb;
    if (msg && msglen) msg[0] = '\0';
    if (!P || !dir) return lcp_fail(msg, msglen, LCP_ERR_ARG, "no folder or problem given");
    lcp_problem_init(P);
    if (stat(dir, &sb) != 0) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot open folder: %s", dir, strerror(errno));
        goto done;
    }
    if (!S_ISDIR(sb.st_mode)) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: not a folder", dir);
        goto done;
    }
    /* m is bounded by q.mtx, which holds m values of at least 2 bytes ("1\n") */
    dim_cap cap_m = {-1, "q.mtx", 0, "values"}, cap_n = {-1, "Minv.mtx", 0, "diagonal entries"};
    if ((st = join(path, dir, "q.mtx", msg, msglen)) != LCP_OK) goto done;
    if ((st = file_bytes(path, &cap_m.bytes, msg, msglen)) != LCP_OK) goto done;
    cap_m.max = (long)((cap_m.bytes + 1) / 2);
    unsigned skip = ro ? ro->skip : 0u;
    if ((skip & LCP_READ_SKIP_A) && (skip & LCP_READ_SKIP_FACTORS)) {
        st = lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: cannot skip both A and its factors", dir);
        goto done;
    }
    int skip_a = 0, skip_f = (skip & LCP_READ_SKIP_FACTORS) != 0;
    if ((skip & LCP_READ_SKIP_A) && ro->factor_tol >= 0) {  /* only with factors to solve */
        char pj[PATH_LEN], pm[PATH_LEN];
        if ((st = join(pj, dir, "J.mtx", msg, msglen)) != LCP_OK) goto done;
        if ((st = join(pm, dir, "Minv.mtx", msg, msglen)) != LCP_OK) goto done;
        int hj, hm;
        if ((st = probe(pj, &hj, msg, msglen)) != LCP_OK) goto done;
        if ((st = probe(pm, &hm, msg, msglen)) != LCP_OK) goto done;
        skip_a = hj && hm;
    }
    /* the file the row count comes from, named in size messages */
    const char *mfile = skip_a ? "q.mtx" : "A.mtx";
    int m = 0;
    if (!skip_a) {
        st = read_matrix(dir, "A.mtx", 1, &spec_A, 1, -1, -1, NULL, &cap_m, &P->A, &present,
                         msg, msglen);
        if (st != LCP_OK) goto done;
        m = P->A.nrow;
    }
    if ((st = join(path, dir, "q.mtx", msg, msglen)) != LCP_OK) goto done;
    long qrows = -1;
    st = read_array(path, 1, skip_a ? -1 : P->A.nrow, "A.mtx", V_FINITE, &P->q, NULL, NULL,
                    &qrows, &present, msg, msglen);
    if (st != LCP_OK) goto done;
    if (skip_a) {
        if (qrows > INT_MAX) {
            st = lcp_fail(msg, msglen, LCP_ERR_FORMAT, "%s: %ld rows: too many", path, qrows);
            goto done;
        }
        m = (int)qrows;
    }
    P->m = m;
    if ((st = join(path, dir, "lo.mtx", msg, msglen)) != LCP_OK) goto done;
    st = read_array(path, 0, m, mfile, V_LO, &P->lo, NULL, NULL, NULL, &present, msg, msglen);
    if (st == LCP_OK && !present && !(P->lo = lcp_calloc((size_t)m, sizeof(double))))
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", path);
    if (st != LCP_OK) goto done;
    if ((st = join(path, dir, "hi.mtx", msg, msglen)) != LCP_OK) goto done;
    st = read_array(path, 0, m, mfile, V_HI, &P->hi, NULL, NULL, NULL, &present, msg, msglen);
    if (st == LCP_OK && !present) {
        if (!(P->hi = lcp_malloc((size_t)m, sizeof(double))))
            st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", path);
        else
            for (int i = 0; i < m; i++) P->hi[i] = INFINITY;       /* hi = +inf */
    }
    if (st != LCP_OK) goto done;
    if ((st = join(path, dir, "findex.mtx", msg, msglen)) != LCP_OK) goto done;
    st = read_array(path, 0, m, mfile, 0, NULL, &P->findex, &lines, NULL, &present, msg,
                    msglen);
    if (st != LCP_OK) goto done;
    for (int i = 0; P->findex && i < m; i++) {                      /* named by line */
        int f = P->findex[i];
        if (f == i) {
            st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                      "%s:%d: row %d: findex %d points at its own row", path, lines[i], i + 1, f);
            goto done;
        }
        if (f >= 0 && P->findex[f] >= 0) {
            st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT,
                      "%s:%d: row %d: findex %d points at a row with findex %d >= 0", path,
                      lines[i], i + 1, f, P->findex[f]);
            goto done;
        }
    }
    {
        char pj[PATH_LEN], pm[PATH_LEN];
        if ((st = join(pj, dir, "J.mtx", msg, msglen)) != LCP_OK) goto done;
        if ((st = join(pm, dir, "Minv.mtx", msg, msglen)) != LCP_OK) goto done;
        int hj, hm;
        if ((st = probe(pj, &hj, msg, msglen)) != LCP_OK) goto done;
        if ((st = probe(pm, &hm, msg, msglen)) != LCP_OK) goto done;
        if (hj != hm) {
            st = lcp_fail(msg, msglen, LCP_ERR_INCONSISTENT, "%s: present without %s",
                      hj ? pj : pm, hj ? pm : pj);
            goto done;
        }
        /* n is bounded by Minv.mtx: an inverse mass matrix stores its n diagonal entries,
         * at least 6 bytes each ("1 1 1\n") */
        if (hm) {
            if ((st = file_bytes(pm, &cap_n.bytes, msg, msglen)) != LCP_OK) goto done;
            cap_n.max = (long)(cap_n.bytes / 6);
        }
    }
    present = 0;
    if (!skip_f)
        st = read_matrix(dir, "J.mtx", 0, &spec_J, 0, m, -1, mfile, &cap_n, &P->J, &present,
                         msg, msglen);
    if (st != LCP_OK) goto done;
    if (present) {
        P->n = P->J.ncol;
        st = read_matrix(dir, "Minv.mtx", 1, &spec_Minv, 1, P->n, P->n, "J.mtx", &cap_n,
                         &P->Minv, &present, msg, msglen);
        if (st != LCP_OK) goto done;
    }
    if ((st = join(path, dir, "E.mtx", msg, msglen)) != LCP_OK) goto done;
    if (!skip_f)
        st = read_array(path, 0, m, mfile, V_FINITE, &P->E, NULL, NULL, NULL, &present, msg,
                        msglen);
    if (st != LCP_OK) goto done;
    if ((st = join(path, dir, "z0.mtx", msg, msglen)) != LCP_OK) goto done;
    st = read_array(path, 0, m, mfile, V_FINITE, &P->z0, NULL, NULL, NULL, &present, msg, msglen);
    if (st != LCP_OK) goto done;
    if ((st = join(path, dir, "zref.mtx", msg, msglen)) != LCP_OK) goto done;
    st = read_array(path, 0, m, mfile, V_FINITE, &P->zref, NULL, NULL, NULL, &present, msg,
                    msglen);
    if (st != LCP_OK) goto done;
    if ((st = join(path, dir, "meta.txt", msg, msglen)) != LCP_OK) goto done;
    if ((st = read_text(path, &P->meta, msg, msglen)) != LCP_OK) goto done;
    st = lcp_problem_check_tol(P, ro ? ro->factor_tol : 1e-12, sub, sizeof sub); /* cross-file */
    if (st != LCP_OK) {
        size_t n = strlen(dir);
        while (n > 1 && dir[n - 1] == '/') n--;
        lcp_fail(msg, msglen, st, "%.*s/%s", (int)n, dir, sub);
    }
done:
    lcp_free(lines);
    if (st != LCP_OK) lcp_problem_free(P);
    return st;
}

lcp_status lcp_read_vector(const char *path, int *m, double **v, char *msg, size_t msglen)
{
    int present;
    long rows = 0;
    lcp_status st;
    if (msg && msglen) msg[0] = '\0';
    if (!path || !m || !v) return lcp_fail(msg, msglen, LCP_ERR_ARG, "no path or output given");
    *v = NULL;
    *m = 0;
    st = read_array(path, 1, -1, NULL, V_NOTNAN, v, NULL, NULL, &rows, &present, msg, msglen);
    if (st == LCP_OK) *m = (int)rows;
    return st;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* coordinate matrix; lower = 1 writes the lower triangle as `symmetric' */
static void write_coord(FILE *fp, const lcp_csr *M, int lower)
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

static void write_array(FILE *fp, int m, const double *v)
{
    fprintf(fp, "%%%%MatrixMarket matrix array real general\n%d 1\n", m);
    for (int i = 0; i < m; i++) fprintf(fp, "%.17g\n", v[i]);
}

static void write_iarray(FILE *fp, int m, const int *v)
{
    fprintf(fp, "%%%%MatrixMarket matrix array integer general\n%d 1\n", m);
    for (int i = 0; i < m; i++) fprintf(fp, "%d\n", v[i]);
}

/* the parts of an instance, in writing order */
enum { W_A, W_Q, W_LO, W_HI, W_FINDEX, W_J, W_MINV, W_E, W_Z0, W_ZREF, W_META, W_N };
static const char *const part_name[W_N] = {"A.mtx", "q.mtx", "lo.mtx", "hi.mtx",
                                           "findex.mtx", "J.mtx", "Minv.mtx", "E.mtx",
                                           "z0.mtx", "zref.mtx", "meta.txt"};

/* symA, symM: A and Minv exactly symmetric (found before anything is written: the test
 * allocates, and a failure must fail the write, not change the file's symmetry word) */
static void write_part(FILE *fp, const lcp_problem *P, int part, int symA, int symM)
{
    switch (part) {
    case W_A: write_coord(fp, &P->A, symA); break;
    case W_Q: write_array(fp, P->m, P->q); break;
    case W_LO: write_array(fp, P->m, P->lo); break;
    case W_HI: write_array(fp, P->m, P->hi); break;
    case W_FINDEX: write_iarray(fp, P->m, P->findex); break;
    case W_J: write_coord(fp, &P->J, 0); break;
    case W_MINV: write_coord(fp, &P->Minv, symM); break;
    case W_E: write_array(fp, P->m, P->E); break;
    case W_Z0: write_array(fp, P->m, P->z0); break;
    case W_ZREF: write_array(fp, P->m, P->zref); break;
    case W_META: fputs(P->meta, fp); break;
    default: break;
    }
}

/* Create a new temporary file next to final (final.PID.K.tmp), exclusively.  tmp gets its
 * name.  NULL with errno set on failure. */
static FILE *open_temp(const char *final, char *tmp)
{
    FILE *fp = NULL;
    for (int k = 0; k < 100 && !fp; k++) {
        int r = snprintf(tmp, PATH_LEN, "%s.%ld.%d.tmp", final, (long)getpid(), k);
        if (r < 0 || r >= PATH_LEN) {
            errno = ENAMETOOLONG;
            break;
        }
        fp = fopen(tmp, "wx");                                     /* O_CREAT | O_EXCL */
        if (!fp && errno != EEXIST) break;
    }
    if (!fp) tmp[0] = '\0';
    return fp;
}

/* write one part (or vector) into a temporary file named in tmp; removes it on failure */
static lcp_status write_temp(const char *final, char *tmp, const lcp_problem *P, int part,
                             const int *sym, int m, const double *v, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    FILE *fp = open_temp(final, tmp);
    if (!fp) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot create: %s", final, strerror(errno));
        goto done;
    }
    if (P) write_part(fp, P, part, sym[0], sym[1]);
    else write_array(fp, m, v);
    int bad = ferror(fp);
    int err = errno;
    if (fclose(fp) != 0 || bad) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: write error: %s", final,
                  strerror(bad ? err : errno));
        remove(tmp);
        tmp[0] = '\0';
    }
done:
    return st;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int all_default(int m, const double *v, double def)
{
    for (int i = 0; i < m; i++)
        if (v[i] != def) return 0;
    return 1;
}

lcp_status lcp_write_instance(const char *dir, const lcp_problem *P, char *msg, size_t msglen)
{
    lcp_status st = LCP_OK;
    char final[W_N][PATH_LEN], tmp[W_N][PATH_LEN];
    int want[W_N], created = 0, renamed = 0, sym[2] = {0, 0};
    if (msg && msglen) msg[0] = '\0';
    for (int k = 0; k < W_N; k++) tmp[k][0] = '\0';
    if (!dir || !P || !P->A.p || P->m < 1 || P->A.nrow != P->m || P->A.ncol != P->m ||
        !P->q || !P->lo || !P->hi || !P->J.p != !P->Minv.p ||
        (P->J.p && (P->J.nrow != P->m || P->Minv.nrow != P->J.ncol ||
                    P->Minv.ncol != P->J.ncol))) {
        st = lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: incomplete or inconsistent problem",
                  dir ? dir : "(no folder)");
        goto done;
    }
    want[W_A] = want[W_Q] = 1;
    want[W_LO] = !all_default(P->m, P->lo, 0.0);
    want[W_HI] = !all_default(P->m, P->hi, INFINITY);
    want[W_FINDEX] = P->findex != NULL;
    want[W_J] = want[W_MINV] = P->J.p != NULL;
    want[W_E] = P->E != NULL;
    want[W_Z0] = P->z0 != NULL;
    want[W_ZREF] = P->zref != NULL;
    want[W_META] = P->meta != NULL;
    for (int k = 0; k < W_N; k++)
        if ((st = join(final[k], dir, part_name[k], msg, msglen)) != LCP_OK) goto done;
    if (lcp_csr_symmetric(&P->A, &sym[0]) != LCP_OK ||
        (P->Minv.p && lcp_csr_symmetric(&P->Minv, &sym[1]) != LCP_OK)) {
        st = lcp_fail(msg, msglen, LCP_ERR_NOMEM, "%s: out of memory", dir);
        goto done;
    }
    if (!is_dir(dir)) {
        if (mkdir(dir, 0777) != 0) {
            st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot create folder: %s", dir,
                      strerror(errno));
            goto done;
        }
        created = 1;
    }
    for (int k = 0; k < W_N; k++) {
        if (!want[k]) continue;
        st = write_temp(final[k], tmp[k], P, k, sym, 0, NULL, msg, msglen);
        if (st != LCP_OK) goto done;
        if (is_dir(final[k])) {                                    /* rename would fail */
            st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: is a folder", final[k]);
            goto done;
        }
    }
    for (int k = 0; k < W_N; k++) {                                /* all complete: rename */
        if (!want[k]) continue;
        if (rename(tmp[k], final[k]) != 0) {
            st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: cannot rename %s: %s", final[k], tmp[k],
                      strerror(errno));
            goto done;
        }
        tmp[k][0] = '\0';
        renamed++;
    }
    for (int k = 0; k < W_N; k++)                                  /* stale optional files */
        if (!want[k] && !is_dir(final[k])) remove(final[k]);
done:
    for (int k = 0; k < W_N; k++)
        if (tmp[k][0]) remove(tmp[k]);
    if (st != LCP_OK && created && !renamed) rmdir(dir);
    return st;
}

lcp_status lcp_write_vector(const char *path, int m, const double *v, char *msg, size_t msglen)
{
    char tmp[PATH_LEN];
    lcp_status st = LCP_OK;
    tmp[0] = '\0';
    if (msg && msglen) msg[0] = '\0';
    if (!path || m < 0 || (m > 0 && !v)) {
        st = lcp_fail(msg, msglen, LCP_ERR_ARG, "%s: bad vector", path ? path : "(no path)");
        goto done;
    }
    if (is_dir(path)) {
        st = lcp_fail(msg, msglen, LCP_ERR_IO, "%s: is a folder", path);
        goto done;
    }
    if ((st = write_temp(path, tmp, NULL, 0, NULL, m, v, msg, msglen)) != LCP_OK) goto done;
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
