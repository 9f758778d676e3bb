/* lcp.h: the public interface of liblcp, the solver library of lcpbench.
 *
 * PROBLEM.  Find z with  w = A z + q,  lo <= z <= hi,  and for every row i
 *     z_i = lo_i  =>  w_i >= 0,   z_i = hi_i  =>  w_i <= 0,   lo_i < z_i < hi_i  =>  w_i = 0.
 * lo = 0, hi = +inf is the standard LCP  0 <= z _|_ w >= 0.  Friction coupling (ODE's
 * convention): when findex[i] >= 0, row i's effective bounds are lo_i*|z_f| and hi_i*|z_f|
 * with f = findex[i], recomputed from the newest z.  When the factors are present,
 * A = J Minv J^T + diag(E).
 *
 * DATA.  Matrices are CSR (lcp_csr): row pointers p[0..nrow], column indices j[] sorted
 * ascending in each row, values x[].  A problem (lcp_problem) owns all its arrays.
 * Symmetric matrices are stored in full (both triangles) in memory.
 *
 * SOLVERS.  Every solver has the signature lcp_solve_fn and is listed once in the registry
 * (lcp_solvers()).  status < 0: error, no usable answer; 0: converged; > 0: a usable answer
 * with fine print (iteration cap, non-unique z, ...).  lcp_status_str() names each.
 * The library prints nothing, never exits, and keeps no global mutable state.
 *
 * RESIDUAL.  One function, lcp_residual(), computes the natural-map residual
 * r = z - mid(lo_eff, z - w, hi_eff) and its norms; every solver and the harness use it.
 */
#ifndef LCP_H
#define LCP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols of the public interface.  liblcp is built with -fvisibility=hidden: only the
 * declarations marked LCP_API are exported from the shared library. */
#if defined(__GNUC__) || defined(__clang__)
#define LCP_API __attribute__((visibility("default")))
#else
#define LCP_API
#endif

/* ---- status codes ------------------------------------------------------------------- */

typedef enum lcp_status {
    LCP_OK = 0,                   /* converged / exact */
    LCP_MAXITER = 1,              /* usable: iteration cap reached before the tolerance */
    LCP_NONUNIQUE = 2,            /* solved, but A is semi-definite: z not unique, w is */
    LCP_NOT_SETTLED = 3,          /* usable: coupled friction bounds did not settle */
    LCP_PIVOT_CAP = 4,            /* usable: pivot cap reached, best partition returned */
    LCP_PARTIAL = 5,              /* usable: ODE's Dantzig stopped at a row it could not drive
                                     (rows not reached are 0; info->row when known) */
    LCP_UNDECIDED = 6,            /* usable: an exact method ended with neither an answer at
                                     rounding nor a checked certificate that none exists
                                     (ldlt-ref, lemke-ref); the best iterate is returned */
    LCP_ERR_ARG = -1,             /* bad argument (NULL, size, option out of range) */
    LCP_ERR_NOMEM = -2,           /* out of memory */
    LCP_ERR_ZERO_DIAG = -3,       /* a_ii <= 0 at info->row (Gauss-Seidel cannot proceed) */
    LCP_ERR_SINGULAR = -4,        /* singular pivot block at info->row */
    LCP_ERR_NONFINITE = -5,       /* an iterate became NaN or Inf */
    LCP_ERR_DIVERGED = -6,        /* residual grew beyond options.diverge times its start */
    LCP_ERR_NEEDS_FACTORS = -7,   /* solver needs J and Minv */
    LCP_ERR_NEEDS_SYMMETRIC = -8, /* solver needs a symmetric A */
    LCP_ERR_TOO_LARGE = -9,       /* problem too large for this solver (dense forms) */
    LCP_ERR_BREAKDOWN = -10,      /* numerical breakdown (pivoting, factorisation) */
    LCP_ERR_IO = -11,             /* file missing, unreadable or unwritable */
    LCP_ERR_FORMAT = -12,         /* malformed file or value (NaN, bad header, bad index) */
    LCP_ERR_INCONSISTENT = -13,   /* files or arrays disagree (sizes, bounds, factors) */
    LCP_ERR_UNSUPPORTED = -14,    /* the solver does not support this problem's bounds */
    LCP_ERR_NO_SOLUTION = -15,    /* no solution exists: ldlt-ref and lemke-ref say it only
                                     with a Farkas certificate checked on A and q
                                     (info->certificate); lemke_lcp: the method ended on a
                                     ray (a certificate when A is copositive-plus) */
    LCP_ERR_NEEDS_ASSEMBLED = -16 /* solver or form needs A, which the problem does not hold
                                     (read with LCP_READ_SKIP_A) */
} lcp_status;

/* short name, e.g. "converged", "zero-diagonal" */
LCP_API const char *lcp_status_str(lcp_status s);

/* ---- sparse matrices (CSR) ---------------------------------------------------------- */

typedef struct lcp_csr {
    int nrow, ncol; /* dimensions */
    int *p;         /* nrow+1 row pointers; NULL for an absent matrix */
    int *j;         /* p[nrow] column indices, ascending within each row */
    double *x;      /* p[nrow] values */
} lcp_csr;

#define LCP_CSR_NNZ(A) ((A)->p ? (A)->p[(A)->nrow] : 0)

LCP_API lcp_status lcp_csr_alloc(lcp_csr *A, int nrow, int ncol, int nnz); /* zeroed arrays */
LCP_API void lcp_csr_free(lcp_csr *A);                                       /* accepts empty */
/* y = A x (y has nrow entries) */
LCP_API void lcp_csr_matvec(const lcp_csr *A, const double *x, double *y);
/* y = A^T x (y has ncol entries) */
LCP_API void lcp_csr_matvec_t(const lcp_csr *A, const double *x, double *y);
/* Build from 0-based triplets; duplicates are summed; explicit zeros are kept. */
LCP_API lcp_status lcp_csr_from_triplets(lcp_csr *A, int nrow, int ncol, int nnz, const int *ti,
                                 const int *tj, const double *tx);
LCP_API lcp_status lcp_csr_transpose(const lcp_csr *A, lcp_csr *T); /* T = A^T (A->x NULL: a
                                                                  pattern, and so is T) */
LCP_API lcp_status lcp_csr_copy(const lcp_csr *A, lcp_csr *C);
/* C = A B */
LCP_API lcp_status lcp_csr_multiply(const lcp_csr *A, const lcp_csr *B, lcp_csr *C);
/* A = J Minv J^T + diag(E) (E may be NULL).  Minv must be stored in full. */
LCP_API lcp_status lcp_csr_jmjt(const lcp_csr *J, const lcp_csr *Minv, const double *E, lcp_csr *A);
/* *sym = 1 when A == A^T exactly (values bit-equal), else 0; O(nnz + n), valid CSR needed */
LCP_API lcp_status lcp_csr_symmetric(const lcp_csr *A, int *sym);
/* the same as a plain answer (0 also when out of memory) */
LCP_API int lcp_csr_is_symmetric(const lcp_csr *A);
/* d[i] = A_ii (0 when not stored) */
LCP_API void lcp_csr_diag(const lcp_csr *A, double *d);

/* ---- the problem -------------------------------------------------------------------- */

typedef struct lcp_problem {
    int m;          /* rows (unknowns) */
    lcp_csr A;      /* m x m, full storage; absent (p == NULL) only when read with
                       LCP_READ_SKIP_A from a folder with factors: then every residual is
                       computed from J Minv J^T + diag(E) */
    double *q;      /* m */
    double *lo;     /* m, always allocated (default 0) */
    double *hi;     /* m, always allocated (default +inf) */
    int *findex;    /* m (0-based normal row, -1 none) or NULL for no coupling */
    int n;          /* body coordinates (columns of J); 0 without factors */
    lcp_csr J;      /* m x n or absent (p == NULL) */
    lcp_csr Minv;   /* n x n full storage, or absent */
    double *E;      /* m regularisation or NULL (zero) */
    double *z0;     /* m warm start or NULL */
    double *zref;   /* m reference solution or NULL */
    int symmetric;  /* 1 when A is exactly symmetric (set by lcp_problem_finish) */
    char *meta;     /* contents of meta.txt ("key = value" lines) or NULL */
} lcp_problem;

LCP_API void lcp_problem_init(lcp_problem *P);                    /* all empty */
LCP_API void lcp_problem_free(lcp_problem *P);                    /* frees everything, re-inits */
LCP_API int lcp_problem_has_factors(const lcp_problem *P);        /* J and Minv present */
/* The threads `threads=auto' uses (options.threads_auto): the cores this process may run
 * on (its affinity mask) less the load average of the last minute, rounded up, at least 1:
 * ceil(cores - load1) in [1, cores] (all the cores when the load is unknown).  The load
 * average counts every runnable thread, this process's own that ran in the last minute
 * too: read it before a long threaded run, not in its middle. */
LCP_API int lcp_threads_free(void);
/* Allocate q, lo (0), hi (+inf) for m rows: the minimum a problem needs besides A. */
LCP_API lcp_status lcp_problem_alloc_vectors(lcp_problem *P, int m);
/* Validate a complete problem and set P->symmetric.  On error, msg names the part
 * ("A.mtx", "lo.mtx row 3", ...).  Checks: finite A, q, E, J, Minv, z0, zref; square A;
 * lo <= hi (lo < +inf, hi > -inf); findex in range, not self, pointing at an uncoupled
 * row (its own findex is -1); factor sizes; A == J Minv J^T + diag(E) within a relative 1e-12. */
LCP_API lcp_status lcp_problem_check(lcp_problem *P, char *msg, size_t msglen);

/* ---- instance folders (lcp/README.md, "Instance folders") ---------------------------- */

/* Read an instance folder; validates everything (lcp_problem_check) and names the file and
 * line of the first problem in msg (one line: control characters of a path come escaped,
 * \n, \x1b).  An optional file is absent only when its name is not there: a dangling
 * symbolic link or a loop of links is LCP_ERR_IO naming it. */
LCP_API lcp_status lcp_read_instance(const char *dir, lcp_problem *P, char *msg, size_t msglen);
/* Write an instance folder (created if missing) with %.17g values: a round trip is
 * bit-identical.  Each file is written to a temporary name and renamed, so a failure leaves
 * no half-written file behind.  A is written `symmetric' (lower triangle) when symmetric. */
LCP_API lcp_status lcp_write_instance(const char *dir, const lcp_problem *P, char *msg,
                                      size_t msglen);
/* How a folder is read (lcp_read_instance uses the defaults). */
typedef struct lcp_read_options {
    double factor_tol;   /* 1e-12: A == J Minv J^T + diag(E) within this relative tolerance
                            (float32-assembled A needs about 1e-6); < 0: no factor test (the
                            matrix-free form then solves J Minv J^T + diag(E), the assembled
                            form and every residual use A) */
    unsigned skip;       /* 0: read everything.  LCP_READ_SKIP_A: when the folder has J and
                            Minv and factor_tol >= 0, A.mtx is neither read nor held (nor
                            compared with the factors); m comes from q.mtx.  Only the
                            matrix-free form can solve it (solvers flagged LCP_FACTORED),
                            and residuals use the factors.  LCP_READ_SKIP_FACTORS: J, Minv
                            and E are not read (the assembled form needs A alone).  Not both. */
} lcp_read_options;
enum { LCP_READ_SKIP_A = 1u, LCP_READ_SKIP_FACTORS = 2u };
LCP_API void lcp_read_options_default(lcp_read_options *o);
LCP_API lcp_status lcp_read_instance_opt(const char *dir, const lcp_read_options *ro,
                                         lcp_problem *P, char *msg, size_t msglen);
/* One m x 1 `matrix array real general' file, written atomically. */
LCP_API lcp_status lcp_write_vector(const char *path, int m, const double *v, char *msg,
                                    size_t msglen);
/* Read an m x 1 real array file; *v is allocated (malloc) and *m set. */
LCP_API lcp_status lcp_read_vector(const char *path, int *m, double **v, char *msg, size_t msglen);

/* ---- residuals (lcp/README.md, "The problem") ------------------------------------- */

typedef struct lcp_residuals {
    double r2;     /* ||r||_2, r = z - mid(lo_eff, z - w, hi_eff) */
    double rinf;   /* ||r||_inf */
    double rel;    /* ||r||_2 / max(1, ||q||_2) */
    double comp;   /* max |(z_i - bound) w_i| over rows: complementarity */
    double infeas; /* max bound violation of z */
} lcp_residuals;

/* w (out, m entries) = A z + q and the residual norms of z.  The only residual function.
 * Without A (LCP_READ_SKIP_A): w = J (Minv (J^T z)) + E z + q, equal to A z + q to rounding
 * (it allocates lcp_residual_work(P) doubles; when that fails every norm is +inf and w is
 * NaN). */
LCP_API void lcp_residual(const lcp_problem *P, const double *z, double *w, lcp_residuals *R);
/* The doubles of workspace the residual needs on P: 0 when P holds A; without A, n when
 * Minv is block diagonal (blocks of at most 64 rows), else 2n.  One pass over Minv's
 * pattern. */
LCP_API size_t lcp_residual_work(const lcp_problem *P);
/* lcp_residual with the caller's workspace (work: nwork >= lcp_residual_work(P) doubles,
 * NULL when that is 0), allocating nothing: the same w and residuals bit for bit.  For a
 * caller that takes a residual after every sweep (the harness's monitor), or that must
 * tell a refused allocation (its own, reported) from a z whose residual is +inf. */
LCP_API void lcp_residual_ws(const lcp_problem *P, const double *z, double *w, double *work,
                             size_t nwork, lcp_residuals *R);
/* The row-wise scaled residual max_i |r_i| / ((|A||z|)_i + |q_i|) of z, w = A z + q as
 * lcp_residual wrote it: 0 at an exact answer, about eps at one exact to rounding row by row
 * (+inf for a row with r_i != 0 on a zero scale; NaN without A).  O(nnz(A) + m). */
LCP_API double lcp_residual_rowwise(const lcp_problem *P, const double *z, const double *w);
/* Effective bounds of row i at z (friction coupling applied). */
LCP_API void lcp_bounds(const lcp_problem *P, const double *z, int i, double *lo, double *hi);
/* Distances to the reference: ||z - zref||_inf / max(1, ||zref||_inf) and the same in w.
 * Needs P->zref (returns LCP_ERR_ARG without it). */
LCP_API lcp_status lcp_ref_distance(const lcp_problem *P, const double *z, double *zdiff,
                            double *wdiff);

/* ---- options and info ---------------------------------------------------------------- */

typedef enum lcp_order {
    LCP_ORDER_NATURAL = 0, /* 0, 1, ..., m-1 */
    LCP_ORDER_REVERSE,     /* m-1, ..., 0 */
    LCP_ORDER_SYMMETRIC,   /* forward then backward; each counts as a sweep */
    LCP_ORDER_RANDOM,      /* fresh Fisher-Yates permutation every sweep (seeded) */
    LCP_ORDER_RANDOM8,     /* reshuffled every 8 sweeps (ODE quickstep) */
    LCP_ORDER_ERROR,       /* largest natural-map residual first, re-sorted each sweep */
    LCP_ORDER_MASS,        /* largest effective mass 1/a_ii first */
    LCP_ORDER_ODE8,        /* ODE quickstep: rows without findex, then friction rows;
                              the current order reshuffled before sweeps 9, 17, ... */
    LCP_ORDER_PERM,        /* options.perm */
    LCP_ORDER_HEIGHT       /* lowest options.rowkey first (the stepper: contact heights) */
} lcp_order;

LCP_API const char *lcp_order_name(lcp_order o);
/* Parse "natural", "reverse", ..., "perm" (the CLI reads the FILE of perm:FILE). */
LCP_API lcp_status lcp_order_parse(const char *s, lcp_order *o);

typedef enum lcp_form {
    LCP_FORM_AUTO = 0,    /* matrix-free when J and Minv are present, else assembled */
    LCP_FORM_ASSEMBLED,   /* CSR A */
    LCP_FORM_MATRIX_FREE  /* J, Minv, E with u = Minv J^T z */
} lcp_form;

LCP_API const char *lcp_form_name(lcp_form f);

/* How a matrix-free sweep stores J and B = J Minv (lcp/README.md, "float32 storage"): a
 * variant to measure what engines' float32 data do to convergence, never the default. */
typedef enum lcp_precision {
    LCP_PRECISION_FLOAT64 = 0, /* J and B in double */
    LCP_PRECISION_FLOAT32      /* J and B rounded to float32 once, at set-up; the row sums,
                                  u = Minv J^T z, z and the residual in double */
} lcp_precision;

LCP_API const char *lcp_precision_name(lcp_precision p);

/* Observes one iterate: called at iteration 0 and after every sweep.  Must not modify. */
typedef void lcp_monitor_fn(void *ctx, int iteration, const double *z);

/* A history the caller owns (PETSc's KSPSetResidualHistory): the loop writes one row at
 * iteration 0 and at every exact residual it takes, while n < cap.  Any array may be NULL. */
typedef struct lcp_history {
    int cap;          /* rows each non-NULL array holds */
    int n;            /* rows written (the caller sets 0) */
    int *iteration;   /* the iteration of the row */
    double *work;     /* work so far in sweep-equivalents (lcp_info.work) */
    double *residual; /* ||r||_2 (lcp_residual) */
    double *merit;    /* the method's own merit (NaN when it has none) */
} lcp_history;

typedef struct lcp_options {
    int max_iter;        /* 1000: sweep cap */
    double tol;          /* 1e-6: stop at ||r||_2 <= tol; tol < 0 never tests (timing runs) */
    int check_every;     /* 1: residual test every this many sweeps */
    double omega;        /* 1.0: relaxation (pgs, jacobi) */
    int omega_auto;      /* 0: jacobi, 1 = omega = 1/lambda_max(D^-1/2 A D^-1/2) */
    lcp_order order;     /* LCP_ORDER_NATURAL */
    uint64_t seed;       /* 1: random orderings */
    const int *perm;     /* NULL: m 0-based rows for LCP_ORDER_PERM (caller owns) */
    lcp_form form;       /* LCP_FORM_AUTO */
    double beta;         /* 0: AMGS Omega scale; 0 = solver default */
    double gamma;        /* 1.0: AMGS gamma */
    int warm;            /* 0: start at mid(lo, 0, hi); 1: start from z as passed in */
    double diverge;      /* 1e12: stop as diverged when ||r||_2 > diverge * max(1, ||r0||_2) */
    long max_pivots;     /* 0: pivoting solvers' cap; 0 = solver default */
    lcp_monitor_fn *monitor; /* NULL */
    void *monitor_ctx;   /* NULL */
    const void *prepared; /* NULL: what the solver's setup made for this problem (lcp_prepare);
                             a solve only reads it.  pgs and pgs-color(-contact) check that it
                             was made by their own setup for the options that fix it (pgs:
                             omega, the form, the order's layout and perm or rowkey; the
                             pgs-colors: omega, the form, rows or contacts): when it was not,
                             the solve ignores it and does what it does without it (the same
                             z; its own set-up's time in info.setup_time) */
    double sym_tol;      /* 1e-12: ldlt-ref treats A as symmetric when its relative asymmetry
                            max|A - A^T| / max|A| is at most this (and pivots with the
                            symmetric part, residuals on A itself); above it, lemke-ref */
    int threads;         /* 1: threads of the parallel solvers (pgs-color, pgs-color-contact,
                            jacobi) */
    int threads_auto;    /* 0; 1: threads = lcp_threads_free() at the solve's start (threads
                            is then not read; info.threads says how many ran) */
    int threads_fixed;   /* 0: each sweep runs on all the threads or on the calling thread
                            alone, whichever the sweeps so far ran faster (probed; the same
                            iterates either way; info.solo_sweeps); 1: always on all
                            (benchmarks of the threads' own speed) */
    double warm_scale;   /* 1.0: a warm start begins at warm_scale * z (ODE quickstep: 0.9) */
    const double *rowkey; /* NULL: m keys for LCP_ORDER_HEIGHT, rows visited by ascending
                             key (caller owns; the stepper passes each row's height) */
    lcp_history *history; /* NULL: rows of (iteration, work, residual, merit), caller owns */
    /* the field's solver families (lcp/README.md, "The field's solver families") */
    int restart;         /* 1: the source's restart rule (nncg: beta > 1; apgd: gradient
                            restart of O'Donoghue and Candes); 0: never restart */
    int projected;       /* 0: nncg as the paper (the next sweep projects); 1: clip after
                            the momentum step */
    int pgs_sweeps;      /* 5: pgs-sm, PGS sweeps before each subspace phase */
    int sm_steps;        /* 5: pgs-sm, subspace steps at most per phase */
    int inner_max;       /* 0: CG iterations per inner solve (Newton's inner solver and
                            pgs-sm's subspace solver are Jacobi-preconditioned CG); 0 = solver
                            default (pgs-sm 10, newton 100) */
    double forcing;      /* 0.1: Newton's inner tolerance eta_k = min(forcing, ||F||) relative
                            to the right-hand side (inexact Newton) */
    double step;         /* 0: first step 1/L (apgd) or alpha_0 (spg); 0 = the source's
                            estimate */
    int memory;          /* 10: spg's nonmonotone window M */
    double rho;          /* 0: admm's first penalty; 0 = 0.1 mean(a_ii) (OSQP's 0.1 on its
                            scaled problem), then OSQP's adaptive rule (admm.c) */
    double sigma;        /* 1e-6: admm's proximal term */
    double relax;        /* 1.6: admm's over-relaxation alpha */
    lcp_precision precision; /* LCP_PRECISION_FLOAT64: pgs's matrix-free storage of J and B
                            (FLOAT32: the solve is pgs's matrix-free form, else LCP_ERR_ARG,
                            or LCP_ERR_NEEDS_FACTORS without J and Minv); the other solvers
                            do not read it (the harness refuses it for them) */
} lcp_options;

LCP_API void lcp_options_default(lcp_options *o);

typedef struct lcp_info {
    lcp_status status;   /* as returned */
    int iterations;      /* sweeps done (pivoting solvers: outer iterations) */
    double residual;     /* ||r||_2 at return (lcp_residual) */
    double residual_inf; /* ||r||_inf at return */
    double work;         /* work units: sweeps, or pivots for pivoting solvers; the field's
                            families: sweep-equivalents, products with A (lcp/README.md) */
    long pivots;         /* pivoting solvers */
    long factorizations; /* pivoting solvers */
    double flops;        /* pivoting solvers: factorisation flops reported by the library */
    int row;             /* row involved in an error or warning, -1 when none */
    lcp_form form;       /* form actually used */
    double omega;        /* relaxation used */
    double beta, gamma;  /* AMGS parameters used (0 otherwise) */
    char shape;          /* AMGS Omega shape 'D' or 'I'; 0 otherwise */
    double asymmetry;    /* ldlt-ref, lemke-ref: max|A - A^T| / max|A| (0 when symmetric) */
    double certificate;  /* ldlt-ref, lemke-ref, no-solution-found: the Farkas certificate's
                            worst row, max_j (A^T y)_j+ / (|A|^T y)_j for y >= 0 with
                            q^T y = -1 (<= 1e-12 to be accepted); NAN otherwise */
    const char *route;   /* ldlt-ref, lemke-ref: how the answer was found: "block",
                            "interior-point", "coupled", "newton", "lemke", "enumeration",
                            "pgs+newton", "lemke-cone" (friction as its cone's LCP); NULL for
                            other solvers */
    int residual_checks; /* exact residuals (lcp_residual) the loop's stopping test took */
    int threads;         /* threads used (1 for the serial solvers) */
    int solo_sweeps;     /* parallel solvers: sweeps run on the calling thread alone, as the
                            other threads made them slower (options.threads_fixed) */
    int colors;          /* pgs-color(-contact): colours of the row (contact) colouring; 0
                            otherwise */
    double color_time;   /* pgs-color(-contact): seconds the colouring took (in its setup: the
                            prepared one's when given options.prepared) */
    double setup_time;   /* seconds of the solver's once-per-problem set-up that this call
                            ran itself (lcp_solve without options.prepared, or pgs, pgs-color
                            called without a prepared set-up that fits); 0 when it was given
                            one or had nothing to set up */
    double factor_time;  /* seconds of factorisations (admm), counted in
                            factorizations and apart from work */
} lcp_info;

LCP_API void lcp_info_init(lcp_info *info);

/* ---- solvers and the registry -------------------------------------------------------- */

/* z: in = starting point when options->warm, out = the answer (m entries). */
typedef lcp_status lcp_solve_fn(const lcp_problem *P, const lcp_options *opt, double *z,
                                lcp_info *info);

enum {
    LCP_NEEDS_FACTORS = 1u,   /* needs J and Minv */
    LCP_NEEDS_SYMMETRIC = 2u, /* needs symmetric A */
    LCP_SUPPORTS_BOX = 4u,    /* finite / two-sided bounds */
    LCP_SUPPORTS_FINDEX = 8u, /* friction coupling */
    LCP_DENSE = 16u,          /* forms dense m x m data (size limited) */
    LCP_DIRECT = 32u,         /* a direct (pivoting) method: no sweeps, tol and max_iter
                                 do not apply; timing reruns it as is */
    LCP_FACTORED = 64u        /* its matrix-free form reads J, Minv, E and never A: it solves a
                                 problem read with LCP_READ_SKIP_A */
};

/* Work a solver does once per problem, apart from its solves (CHOLMOD's analyse/factorise
 * split): converting the problem to another library's format, pgs's streaming layout,
 * pgs-color's colouring.  setup stores what it made in *data; solve finds it in
 * options->prepared; teardown frees it.  The data holds for P as it was when set up (its
 * values may be copied) and for the options the solver names at options.prepared. */
typedef lcp_status lcp_setup_fn(const lcp_problem *P, const lcp_options *opt, void **data);
typedef void lcp_teardown_fn(void *data);

typedef struct lcp_solver {
    const char *name;        /* registry / CLI name, e.g. "pgs" */
    const char *description; /* one line */
    unsigned needs;          /* LCP_NEEDS_* | LCP_SUPPORTS_* */
    lcp_solve_fn *solve;
    lcp_setup_fn *setup;     /* NULL: nothing to prepare */
    lcp_teardown_fn *teardown;
} lcp_solver;

/* The registry: *count entries of a static const table. */
LCP_API const lcp_solver *lcp_solvers(int *count);
LCP_API const lcp_solver *lcp_solver_find(const char *name); /* NULL when unknown */
/* Check that solver s supports P (factors, symmetry, bounds); LCP_OK or the status why not. */
LCP_API lcp_status lcp_solver_supports(const lcp_solver *s, const lcp_problem *P);
/* The solver's setup for P (*data = NULL when it has none, or nothing to set up for P and
 * opt, e.g. pgs below LCP_STREAM_MIN_ROWS rows): pass *data as options->prepared to any
 * number of solves of P, then lcp_unprepare.  Timing harnesses time it apart from the
 * solves.  pgs and pgs-color return only out-of-memory; options they cannot solve with
 * give *data = NULL and the solve reports why. */
LCP_API lcp_status lcp_prepare(const lcp_solver *s, const lcp_problem *P,
                               const lcp_options *opt, void **data);
LCP_API void lcp_unprepare(const lcp_solver *s, void *data);
/* Check support, then solve (running setup and teardown around the solve when the solver
 * has them and options->prepared is NULL).  info->status is set in every case. */
LCP_API lcp_status lcp_solve(const lcp_solver *s, const lcp_problem *P, const lcp_options *opt,
                     double *z, lcp_info *info);

/* ---- the shared iteration loop ------------------------------------------------------- */

/* One sweep of an iterative solver: update z in place.  `sweep' counts from 1.
 * Returns LCP_OK or an error status (setting *row when a row is to blame). */
typedef lcp_status lcp_sweep_fn(void *ctx, int sweep, double *z, int *row);

/* The loop every sweep solver uses: starting point, monitor at iteration 0 and after every
 * sweep, residual test every check_every sweeps, non-finite and divergence checks, final
 * residual and status in info. */
LCP_API lcp_status lcp_iterate(const lcp_problem *P, const lcp_options *opt, lcp_sweep_fn *sweep,
                       void *ctx, double *z, lcp_info *info);

/* Starting point: z = mid(lo_eff, 0, hi_eff) unless opt->warm (then warm_scale * z is
 * projected). */
LCP_API void lcp_start(const lcp_problem *P, const lcp_options *opt, double *z);

/* A solve's last step, for the authors of solver wrappers (liblcp-peers uses it): for a
 * usable status (st >= 0) the residual of z into info (w: m doubles of workspace), and
 * LCP_ERR_NONFINITE instead of st when it is not finite (z finite but so large that A z + q
 * overflows); an error status is returned as it is. */
LCP_API lcp_status lcp_final_residual(const lcp_problem *P, const double *z, double *w,
                                      lcp_info *info, lcp_status st);

#ifdef __cplusplus
}
#endif
#endif /* LCP_H */
