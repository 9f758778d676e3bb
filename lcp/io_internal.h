/* io_internal.h: what the files of the instance reader and writer share, and nothing else
 * of liblcp sees.  Three layers, each using only the one below it:
 *   decimal.c   a decimal token to the correctly rounded double (lcp_fast_decimal);
 *   mtx.c       one Matrix Market file: read into a CSR matrix or a vector, written from
 *               one; the whole-file reader and the write-to-a-temporary helper; the public
 *               lcp_read_vector and lcp_write_vector;
 *   instance.c  the instance folder (lcp/README.md, "Instance folders"): one table of its
 *               files, lcp_read_instance(_opt) and lcp_write_instance loop over it.
 */
#ifndef LCP_IO_INTERNAL_H
#define LCP_IO_INTERNAL_H

#include "lcp.h"

#include <stddef.h>
#include <stdio.h>

enum { LCP_PATH_LEN = 4096 }; /* the longest path the reader and the writer build */

/* ---- decimal.c ------------------------------------------------------------------------ */
/* The decimal token [+-]digits[.digits][(e|E)[+-]digits] at s (the text ends at end) to the
 * correctly rounded double *v, *endp after it: 1, or 0 to leave the token to strtod (more
 * than 19 significant digits, an exponent out of the exact range, inf, nan, hex). */
int lcp_fast_decimal(const char *s, const char *end, const char **endp, double *v);

/* ---- mtx.c: reading one file ----------------------------------------------------------- */
/* what a file must be */
typedef struct lcp_mtx_spec {
    int coord;       /* 1 coordinate, 0 array */
    int dense_ok;    /* a coordinate matrix may also come as an array (dense; SciPy, MATLAB) */
    int symm_ok;     /* symmetric allowed (and written when exactly symmetric) */
    int general_ok;  /* general allowed */
    int integer;     /* 1: integer field required (findex) */
} lcp_mtx_spec;

/* what the values of a vector may be */
enum { LCP_MTX_FINITE, LCP_MTX_LO, LCP_MTX_HI, LCP_MTX_NOTNAN };

/* A bound on a coordinate file's columns from the size of a file that must hold one item
 * per column: the CSR needs memory in proportion to the sizes declared, so a short file
 * declaring 2e8 columns is refused before anything is allocated. */
typedef struct lcp_dim_cap {
    long max;          /* < 0: no bound */
    const char *file;  /* the file that bounds it */
    long long bytes;   /* its size */
    const char *what;  /* "values", "diagonal entries" */
} lcp_dim_cap;

/* The whole file at path into *text (NUL-terminated, lcp_malloc; *size its bytes when size
 * is not NULL).  LCP_ERR_IO when it cannot be opened or read or is not a regular file (a
 * FIFO is refused without blocking), LCP_ERR_NOMEM. */
lcp_status lcp_read_file(const char *path, char **text, size_t *size, char *msg,
                         size_t msglen);

/* The coordinate (or, with sp->dense_ok, array) file at path into M.  want_rows, want_cols
 * >= 0 are required sizes (other names the file they come from); square requires nrow ==
 * ncol; the columns are at most cap->max. */
lcp_status lcp_mtx_read_matrix(const char *path, const lcp_mtx_spec *sp, int square,
                               long want_rows, long want_cols, const char *other,
                               const lcp_dim_cap *cap, lcp_csr *M, char *msg, size_t msglen);

/* An m x 1 (or 1 x m) real array file at path into *v (lcp_malloc; untouched on failure),
 * its values checked as `values' says; want_rows >= 0 is the required m (other names the
 * file it comes from); *rows = m when rows is not NULL. */
lcp_status lcp_mtx_read_array(const char *path, long want_rows, const char *other, int values,
                              double **v, long *rows, char *msg, size_t msglen);

/* An m x 1 (or 1 x m) integer array of rows -1..m-1 (findex.mtx) into *iv, with the file
 * line of each row in *lines (both lcp_malloc; untouched on failure). */
lcp_status lcp_mtx_read_index(const char *path, long want_rows, const char *other, int **iv,
                              int **lines, char *msg, size_t msglen);

/* ---- mtx.c: writing -------------------------------------------------------------------- */
/* A coordinate matrix (lower = 1: its lower triangle as `symmetric'), an m x 1 real or
 * integer array, each value with %.17g or %d. */
void lcp_mtx_write_coord(FILE *fp, const lcp_csr *M, int lower);
void lcp_mtx_write_array(FILE *fp, int m, const double *v);
void lcp_mtx_write_iarray(FILE *fp, int m, const int *v);

/* Write a file's contents through write(fp, ctx) into a new temporary file next to final
 * (final.PID.K.tmp, created exclusively), its name in tmp (LCP_PATH_LEN bytes; "" when none
 * is left).  On failure the temporary is removed.  The caller renames it into place. */
typedef void lcp_write_fn(FILE *fp, const void *ctx);
lcp_status lcp_write_temp(const char *final, char *tmp, lcp_write_fn *write, const void *ctx,
                          char *msg, size_t msglen);

int lcp_is_dir(const char *path); /* 1: path is a folder (or a link to one) */

#endif /* LCP_IO_INTERNAL_H */
