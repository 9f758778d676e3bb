/* stream.h: the streaming layout of the matrix-free Gauss-Seidel sweep (stream.c), inside
 * liblcp only.  pgs builds it in its setup (lcp_prepare, or at the start of a solve not
 * given one) when the problem is large (LCP_STREAM_MIN_ROWS); the tests and benchmarks
 * reach it through lcp_pgs_solve_layout and lcp_pgs_prepare_layout.  pgs-color and
 * pgs-color-contact always sweep their matrix-free rows from it, in colour order, with the
 * rows' values copied into the records (lcp_stream_blocks). */
#ifndef LCP_STREAM_H
#define LCP_STREAM_H

#include "lcp_internal.h"

/* Below this many rows pgs sweeps J, B and the row vectors as they are: building the layout
 * costs about 5 plain sweeps (13 ms at 10^5 rows) and saves about a third of one
 * (results/performance.md, "Memory and the streaming floor"), so small problems, solved in
 * a few sweeps each (a stepper's), would pay more than they gain. */
#define LCP_STREAM_MIN_ROWS 50000

typedef struct lcp_stream {
    int m, n;
    int has_e;       /* E present */
    int copy;        /* the records carry q, lo, hi, E and J's values (else P's are read) */
    double *w;       /* the records in layout order, one array (words of 8 bytes) */
    int *off;        /* m: word offset of the record at layout position s */
    int *pos;        /* m: layout position of row i */
    int *col;        /* n: new index of original column c (bodies renumbered by first touch) */
    double *u;       /* n: u = Minv J^T z in the new numbering */
    const double *jx; /* P's J values: a record names where its row's start */
    int f32;         /* precision float32: B's values two to a word, J's read from jf */
    float *jf;       /* f32: J's values rounded to float32, in P's order (owned) */
    const double *q, *lo, *hi, *E; /* P's */
    int natural;     /* the layout order is 0..m-1 */
} lcp_stream;

/* 1 when the layout pays on P (what pgs asks from LCP_STREAM_MIN_ROWS rows): at least 15%
 * of the rows (every 8th looked at) reach a column more than 4096 columns (32 KB of u)
 * away from every column of the row before, i.e. u is reached at random.  Captured piles
 * (bodies and contacts numbered in space) have 5%: their plain sweep already reads u in
 * order, and the layout measured 0.9-1.0x its speed there; contacts between bodies drawn
 * at random have 33% and sweep 1.2-1.3x faster with it
 * (results/performance.md, "Memory and the streaming floor"). */
int lcp_stream_pays(const lcp_problem *P);

/* 1 when row i of B (b's row last read, lcp_csr_row) has the columns of row i of J, in the
 * same order (a contact row's B = J Minv with Minv block diagonal: its bodies' coordinates) */
int lcp_stream_same_pattern(const lcp_csr *J, int i, const lcp_csr_rows *b);

/* Build the records of P's rows in the order `order' (m rows, NULL = natural) from J, the
 * row operator's B = J Minv (NULL: B's rows made one at a time from P's J and Minv, the
 * same numbers, so that B is not held beside the records) and step_i = omega / a_ii.
 * copy = 0 (pgs): the records name where P holds J_i's values, q_i, lo_i, hi_i and E_i,
 * read in place (in the natural order each is a stream); copy = 1 (pgs-color, whose order
 * scatters them): the records carry them, 8 bytes an entry of J and 24-32 a row more.
 * LCP_ERR_NOMEM, or LCP_ERR_ARG when the layout cannot hold the problem (over 2^31 words;
 * without copy, a row with 2^15 runs); pgs then sweeps the plain form. */
lcp_status lcp_stream_build(lcp_stream *s, const lcp_problem *P, const lcp_csr *B,
                            const double *step, const int *order, int copy);
/* lcp_stream_build with f32 = 1: J's and B's values rounded to float32 (pgs's precision
 * float32; each product taken in double, u in double); B's values take half the words.
 * Not with copy (LCP_ERR_ARG). */
lcp_status lcp_stream_build_as(lcp_stream *s, const lcp_problem *P, const lcp_csr *B,
                               const double *step, const int *order, int copy, int f32);
/* u = Minv J^T z, the same sums in the same order as lcp_rowop_reset */
void lcp_stream_reset(lcp_stream *s, const double *z);
/* One sweep; dir 1 = layout order, -1 = reverse layout order, 0 = rows in the order perm.
 * Returns sum rho_i^2 as pgs's fused test.  Same arithmetic as pgs's matrix-free rows. */
double lcp_stream_sweep(lcp_stream *s, double *z, int dir, const int *perm);
/* A copied layout's records at layout positions bs[b0] .. bs[b1] - 1, forward, with u
 * given (each solve, or each set of threads, has its own); part[b] = sum rho_i^2 over
 * block b = [bs[b], bs[b + 1]).  The same row arithmetic as lcp_stream_sweep; the records
 * of different calls may run at the same time when their rows touch disjoint u and z. */
void lcp_stream_blocks(const lcp_stream *s, double *u, double *z, const int *bs, int b0, int b1,
                       double *part);
void lcp_stream_free(lcp_stream *s);

/* pgs with the layout chosen: layout < 0 by the size (what lcp_solve_pgs does), 0 the plain
 * matrix-free (or assembled) rows, 1 the streaming layout whenever the form is matrix-free.
 * A layout given in opt->prepared that fits the options is swept whatever `layout' says;
 * otherwise the solve builds its own (`layout' deciding), and *build_time (when not NULL)
 * gets the seconds spent building it (0 when none was built). */
lcp_status lcp_pgs_solve_layout(const lcp_problem *P, const lcp_options *opt, double *z,
                                lcp_info *info, int layout, double *build_time);
/* pgs's setup with the layout chosen as above (lcp_setup_pgs is layout -1): *data = the
 * layout, or NULL when the solve would not take one (or the options are invalid: the solve
 * reports why).  Free it with lcp_unprepare (pgs's teardown). */
lcp_status lcp_pgs_prepare_layout(const lcp_problem *P, const lcp_options *opt, int layout,
                                  void **data);

#endif /* LCP_STREAM_H */
