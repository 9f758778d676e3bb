/* stream.h: the streaming layout of the matrix-free Gauss-Seidel sweep (stream.c), inside
 * liblcp only.  pgs builds it at set-up when the problem is large (LCP_STREAM_MIN_ROWS);
 * the tests and benchmarks reach it through lcp_pgs_solve_layout. */
#ifndef LCP_STREAM_H
#define LCP_STREAM_H

#include "lcp_internal.h"

/* Below this many rows pgs sweeps J, B and the row vectors as they are: building the layout
 * costs about 5 plain sweeps (13 ms at 10^5 rows) and saves about a third of one (README
 * "Memory and the streaming floor"), so small problems, solved in a few sweeps each
 * (a stepper's), would pay more than they gain. */
#define LCP_STREAM_MIN_ROWS 50000

typedef struct lcp_stream {
    int m, n;
    int has_e;       /* E present: one more word a record */
    double *w;       /* the records in layout order, one array (words of 8 bytes) */
    int *off;        /* m: word offset of the record at layout position s */
    int *pos;        /* m: layout position of row i */
    int *col;        /* n: new index of original column c (bodies renumbered by first touch) */
    double *u;       /* n: u = Minv J^T z in the new numbering */
    int natural;     /* the layout order is 0..m-1 */
} lcp_stream;

/* Build the records of P's rows in the order `order' (m rows, NULL = natural) from J, the
 * row operator's B = J Minv and step_i = omega / a_ii.  LCP_ERR_NOMEM, or LCP_ERR_ARG when
 * the layout cannot hold the problem (over 2^31 words, a row with 2^15 runs); the caller
 * then sweeps the plain form. */
lcp_status lcp_stream_build(lcp_stream *s, const lcp_problem *P, const lcp_csr *B,
                            const double *step, const int *order);
/* u = Minv J^T z, the same sums in the same order as lcp_rowop_reset */
void lcp_stream_reset(lcp_stream *s, const double *z);
/* One sweep; dir 1 = layout order, -1 = reverse layout order, 0 = rows in the order perm.
 * Returns sum rho_i^2 as pgs's fused test.  Same arithmetic as pgs's matrix-free rows. */
double lcp_stream_sweep(lcp_stream *s, double *z, int dir, const int *perm);
void lcp_stream_free(lcp_stream *s);

/* pgs with the layout chosen: layout < 0 by the size (what lcp_solve_pgs does), 0 the plain
 * matrix-free (or assembled) rows, 1 the streaming layout whenever the form is matrix-free.
 * *build_time (when not NULL) gets the seconds spent building the layout. */
lcp_status lcp_pgs_solve_layout(const lcp_problem *P, const lcp_options *opt, double *z,
                                lcp_info *info, int layout, double *build_time);

#endif /* LCP_STREAM_H */
