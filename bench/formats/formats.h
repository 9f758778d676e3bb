/* formats.h: the format converters (folder formats/, third layer of bench/, above the
 * grid): `lcpbench convert' between instance folders, FCLIB, Siconos .dat, ODE's text and
 * dense Matrix Market.  One file per format (folder.c, fclib.c, siconos.c, ode.c), what the
 * dense text formats share (dense.c), and the command with its one table of formats
 * (convert.c).  The readers and writers keep liblcp's reader convention: they fill msg and
 * return a status, and the command prints msg once. */
#ifndef BENCH_FORMATS_H
#define BENCH_FORMATS_H

#include "grid.h"

int bench_cmd_convert(int argc, char **argv);

/* what a reader takes besides the file */
typedef struct bench_format_opts {
    int friction_box;             /* FCLIB: 1 box-friction BLCP (default), 0 normal LCP only */
    const lcp_read_options *ro;   /* folders: --factor-tol */
} bench_format_opts;

/* P (initialised) from path; *cone: FCLIB's solution of its cone problem (zref-cone.mtx,
 * never zref.mtx), NULL when there is none */
typedef lcp_status (*bench_format_reader)(const char *path, const bench_format_opts *o,
                                          lcp_problem *P, double **cone, char *msg,
                                          size_t len);
/* P (and cone when not NULL) to path, replacing it only when force */
typedef lcp_status (*bench_format_writer)(const char *path, const lcp_problem *P,
                                          const double *cone, int force, char *msg,
                                          size_t len);

/* one entry of convert.c's table of formats */
typedef struct bench_format {
    const char *name;
    const char *ext[2];           /* the names' endings that select it (NULL: none) */
    const char *description;      /* its line of `lcpbench convert --help' */
    bench_format_reader read;     /* NULL: not an input format */
    bench_format_writer write;    /* NULL: not an output format */
    const char *missing;          /* not NULL: not built in, and why (the error line) */
} bench_format;

/* dense.c: what the dense text formats share */
enum { BENCH_DENSE_MAX = 16384 }; /* the largest: 8 bytes per entry at most 2 GiB */
typedef struct bench_tokens {
    FILE *f;
    const char *path;
    long line;
} bench_tokens;
lcp_status bench_fmt_fail(char *msg, size_t len, lcp_status st, const char *fmt_, ...)
    __attribute__((format(printf, 4, 5)));
lcp_status bench_csr_from_dense(lcp_csr *M, int m, const double *a);
lcp_status bench_from_dense(lcp_problem *P, int m, const double *a, const double *q,
                            const double *lo, const double *hi, const int *findex,
                            const char *where, char *msg, size_t len);
lcp_status bench_tokens_open(bench_tokens *t, const char *path, char *msg, size_t len);
lcp_status bench_tokens_num(bench_tokens *t, int comments, int bounds, double *v,
                            const char *what, char *msg, size_t len);
lcp_status bench_tokens_int(bench_tokens *t, int comments, long lo, long hi, long *v,
                            const char *what, char *msg, size_t len);

/* folder.c: the instance folder, with FCLIB's cone solution beside it (zref-cone.mtx) */
lcp_status bench_folder_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                             double **cone, char *msg, size_t len);
lcp_status bench_folder_write(const char *path, const lcp_problem *P, const double *cone,
                              int force, char *msg, size_t len);

/* siconos.c: Siconos Numerics' .dat LCP files, in */
lcp_status bench_siconos_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                              double **cone, char *msg, size_t len);

/* ode.c: ODE's, DART's and Bullet's dSolveLCP arguments as dense text, in and out */
lcp_status bench_ode_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                          double **cone, char *msg, size_t len);
lcp_status bench_ode_write(const char *path, const lcp_problem *P, const double *cone,
                           int force, char *msg, size_t len);

/* fclib.c (built only with libfclib): FCLIB HDF5, local problems in and out, global in */
lcp_status bench_fclib_read(const char *path, const bench_format_opts *o, lcp_problem *P,
                            double **cone, char *msg, size_t len);
lcp_status bench_fclib_write(const char *path, const lcp_problem *P, const double *cone,
                             int force, char *msg, size_t len);

#endif
