/* lcp_internal.h: what the parts of liblcp share but users do not see.
 *
 * - allocation: lcp_malloc / lcp_calloc / lcp_realloc / lcp_strdup / lcp_free (lcp_alloc.h:
 *   one wrapper, shared with problems/ and bench/, NULL-safe free);
 * - the seeded generator (splitmix64) used by random orderings and tests;
 * - the row operator that gives (A z)_i from the newest z in either form, shared by the
 *   Gauss-Seidel sweeps (pgs, amgs):
 *     assembled:    (A z)_i = sum_j A_ij z_j                     cost nnz(A_i)
 *     matrix-free:  (A z)_i = J_i u + E_i z_i,  u = Minv J^T z   cost nnz(J_i)
 *                   after z_i changes by dz:  u += dz * (Minv J_i^T)   (row i of B = J Minv)
 * - the orderer that yields each sweep's row order.
 */
#ifndef LCP_INTERNAL_H
#define LCP_INTERNAL_H

#include "lcp.h"
#include "lcp_alloc.h"

#include <math.h>
#ifndef __cplusplus
#include <stdatomic.h> /* the pool's counters (C only) */
#endif
#include <stdlib.h>
#include <time.h>

#ifdef __cplusplus
extern "C" { /* the peer libraries' wrappers are C++ */
#endif

/* lcp_problem_check with the factor test's relative tolerance (< 0: no factor test) */
lcp_status lcp_problem_check_tol(lcp_problem *P, double factor_tol, char *msg, size_t msglen);

/* The rows of a product C = A B one at a time, without holding C (csr.c): row i has the
 * numbers row i of lcp_csr_multiply(A, B) has, bit for bit (the same sums in the same
 * order, columns ascending); or, when C is given, C's own rows.  pgs-color's setup reads
 * B = J Minv this way, so that B is never held beside the rows' records
 * (results/performance.md).  Workspace: B's columns, twice, and the longest row. */
typedef struct lcp_csr_rows {
    const lcp_csr *C;            /* held: its rows are read in place */
    const lcp_csr *A, *B;        /* else computed */
    int *mark;                   /* B->ncol: the call a column was last started in */
    int stamp;                   /* calls of lcp_csr_row (a new mark each) */
    double *acc;                 /* B->ncol: the sums */
    int *jb;                     /* the computed row's columns and values */
    double *xb;
    const int *j;                /* row i (lcp_csr_row): len columns, ascending, */
    const double *x;             /* and their values (NULL for a held pattern) */
    int len;
} lcp_csr_rows;
lcp_status lcp_csr_rows_init(lcp_csr_rows *r, const lcp_csr *C, const lcp_csr *A,
                             const lcp_csr *B);
void lcp_csr_row(lcp_csr_rows *r, int i);
void lcp_csr_rows_free(lcp_csr_rows *r);

/* w = A z (mf = 0), or J (Minv (J^T z)) + E z (mf = 1; work: nwork doubles, at least
 * lcp_residual_work(P) of a P without A; with fewer than 2n, u = Minv t is formed over t,
 * which lcp_residual_work allows only for a block-diagonal Minv: residual.c) */
void lcp_product(const lcp_problem *P, const double *z, double *w, double *work, size_t nwork,
                 int mf);

/* lcp_residual_work and lcp_residual_ws: lcp.h */
/* its first pass alone: w = A z + q and ||r||_2, ||r||_inf (the same numbers, the same
 * arithmetic), without ||q||, complementarity and bound violation: what the iteration
 * loop's test and lcp_info read */
void lcp_residual_norms(const lcp_problem *P, const double *z, double *w, double *work,
                        size_t nwork, double *r2, double *rinf);

/* lcp_final_residual: lcp.h (the peer wrappers of liblcp-peers call it) */

/* seconds on CLOCK_MONOTONIC: the set-up and colouring times of lcp_info */
static inline double lcp_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The first member of what the setups of pgs and pgs-color make (lcp_prepare): a solve
 * given data whose tag is not its own, or made for other options, prepares for itself. */
enum { LCP_PREP_PGS = 0x50475331, LCP_PREP_COLOR = 0x50474331 };

/* The escape of byte c in a message line: \n, \r, \t as two characters, any other control
 * byte and DEL as \xHH (ESC: \x1b); "" for a byte kept as it is (printable, backslash,
 * 0x80 and up, so UTF-8 passes).  lcp_fail's messages and the harness's lines (bench/util.c)
 * use it, so a path with a newline in it never splits a line. */
const char *lcp_escape_byte(unsigned char c, char buf[5]);

/* Write one message line into msg (when msg and msglen) and return st; control characters
 * of the formatted text (a path's newline) are escaped (lcp_escape_byte). */
lcp_status lcp_fail(char *msg, size_t msglen, lcp_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- generator: splitmix64 (Steele, Lea, Flood 2014), explicit state --------------- */
static inline uint64_t lcp_rng_next(uint64_t *s)
{
    uint64_t x = (*s += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
/* uniform integer in [0, k) (k > 0), Lemire's multiply-shift without rejection bias
 * worth worrying about for k << 2^32 */
static inline int lcp_rng_below(uint64_t *s, int k)
{
    return (int)(((lcp_rng_next(s) >> 32) * (uint64_t)k) >> 32);
}
static inline double lcp_rng_uniform(uint64_t *s) /* [0, 1) */
{
    return (double)(lcp_rng_next(s) >> 11) * 0x1.0p-53;
}

/* mid(lo, x, hi) for lo <= hi, as min then max: each is one select the compiler emits as
 * minsd/maxsd, so the projection has no branch (a data-dependent branch here mispredicted
 * on friction rows and cost a third of a sweep).  Same bits as "x < lo ? lo : x > hi ? hi
 * : x" for every x, NaN and signed zeros included, whenever lo <= hi. */
static inline double lcp_mid(double lo, double x, double hi)
{
    double t = x > hi ? hi : x;
    return t < lo ? lo : t;
}

/* ---- row operator --------------------------------------------------------------------- */
typedef struct lcp_rowop {
    const lcp_problem *P;
    int mf;        /* 1 = matrix-free */
    lcp_csr B;     /* matrix-free: B = J Minv (m x n), row i = (Minv J_i^T)^T */
    double *u;     /* matrix-free: n entries, u = Minv J^T z */
    double *diag;  /* m entries: a_ii (from the factors in the matrix-free form) */
} lcp_rowop;

/* the form lcp_rowop_init takes for `form' on P: 1 matrix-free (asked, or auto with the
 * factors), 0 assembled */
static inline int lcp_rowop_mf(const lcp_problem *P, lcp_form form)
{
    return form == LCP_FORM_AUTO ? lcp_problem_has_factors(P) : form == LCP_FORM_MATRIX_FREE;
}
/* Choose the form (opt->form), build B and diag.  LCP_ERR_NEEDS_FACTORS when the
 * matrix-free form is asked for without factors. */
lcp_status lcp_rowop_init(lcp_rowop *op, const lcp_problem *P, lcp_form form);
/* the same without B and u (op->B empty): the form and diag, the same numbers; whoever
 * needs B's rows reads them with lcp_csr_rows (pgs-color's setup) */
lcp_status lcp_rowop_init_diag(lcp_rowop *op, const lcp_problem *P, lcp_form form);
/* matrix-free: u = Minv J^T z  (call after the starting point is set) */
void lcp_rowop_reset(lcp_rowop *op, const double *z);
void lcp_rowop_free(lcp_rowop *op);

/* (A z)_i with the newest z, in the form mf (a constant at a call site that wants one loop
 * per form, the branch decided outside the row loop) */
static inline __attribute__((always_inline)) double
lcp_rowop_dot_as(const lcp_rowop *op, int i, const double *z, const int mf)
{
    double s = 0.0;
    if (mf) {
        const lcp_csr *J = &op->P->J;
        for (int k = J->p[i]; k < J->p[i + 1]; k++) s += J->x[k] * op->u[J->j[k]];
        if (op->P->E) s += op->P->E[i] * z[i];
    } else {
        const lcp_csr *A = &op->P->A;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) s += A->x[k] * z[A->j[k]];
    }
    return s;
}

/* (A z)_i with the newest z */
static inline double lcp_rowop_dot(const lcp_rowop *op, int i, const double *z)
{
    return lcp_rowop_dot_as(op, i, z, op->mf);
}

/* after z_i changed by dz */
static inline __attribute__((always_inline)) void
lcp_rowop_update_as(lcp_rowop *op, int i, double dz, const int mf)
{
    if (mf && dz != 0.0) {
        const lcp_csr *B = &op->B;
        for (int k = B->p[i]; k < B->p[i + 1]; k++) op->u[B->j[k]] += dz * B->x[k];
    }
}

static inline void lcp_rowop_update(lcp_rowop *op, int i, double dz)
{
    lcp_rowop_update_as(op, i, dz, op->mf);
}

/* effective bounds of row i with the newest z (friction coupling) */
static inline void lcp_row_bounds(const lcp_problem *P, const double *z, int i, double *lo,
                                  double *hi)
{
    if (P->findex && P->findex[i] >= 0) {
        double zn = fabs(z[P->findex[i]]);
        *lo = P->lo[i] * zn;
        *hi = P->hi[i] * zn;
    } else {
        *lo = P->lo[i];
        *hi = P->hi[i];
    }
}

/* ---- the fused stopping test (iterate.c) -------------------------------------------- */
/* What a fused sweep measures while it updates the rows (iterate.c):
 *   e2    sum over rows of rho_i^2, rho_i = z_i - mid(lo_i, z_i - w_i, hi_i) the natural-map
 *         residual of row i at the moment the sweep visits it (w_i = (A z + q)_i and the
 *         bounds as the row update computes them);
 *   prev  NULL, or the iterate the sweep started from when every row was visited there
 *         (Jacobi): e2 is then that iterate's squared residual, and prev stays valid until
 *         the next sweep. */
typedef struct lcp_sweep_est {
    double e2;
    const double *prev;
    double work;   /* the loop sets 1: sweep-equivalents this iteration cost (lcp_info.work) */
    double merit;  /* the loop sets NaN: the method's own merit at z, for the history */
} lcp_sweep_est;
typedef lcp_status lcp_fused_sweep_fn(void *ctx, int sweep, double *z, int *row,
                                      lcp_sweep_est *est);
/* lcp_iterate with a fused sweep: with prev (Jacobi) the exact estimate of z_{k-1} decides
 * when the exact residual is taken; without it every tested sweep takes it, so the stop is
 * the first crossing either way (iterate.c); the decision is lcp_residual(z) <= tol. */
lcp_status lcp_iterate_fused(const lcp_problem *P, const lcp_options *opt,
                             lcp_fused_sweep_fn *sweep, void *ctx, double *z, lcp_info *info);

/* The loop of the methods that are not sweeps (lcp/README.md, "The field's solver
 * families"): lcp_iterate_fused, with each step's work and merit from est (prev unused),
 * and the best iterate by the residual returned, with a non-converged status, when the
 * loop stops without converging (max-iterations also for a run that diverged after it). */
lcp_status lcp_iterate_method(const lcp_problem *P, const lcp_options *opt,
                              lcp_fused_sweep_fn *step, void *ctx, double *z, lcp_info *info);

/* One plain PGS sweep (pgs.c, no streaming layout), for the solvers built over PGS
 * (nncg, pgs-sm): opened for opt's omega, order and form (a_ii <= 0: LCP_ERR_ZERO_DIAG at
 * *row); lcp_pgs_sweep(k = 1) sets u = Minv J^T z from z; after z changed outside a sweep
 * (matrix-free form, lcp_pgs_mf) lcp_pgs_touch sets u again.  Returns the fused estimate e2. */
typedef struct lcp_pgs lcp_pgs;
lcp_status lcp_pgs_open(lcp_pgs **s, const lcp_problem *P, const lcp_options *opt, int *row);
double lcp_pgs_sweep(lcp_pgs *s, int k, double *z);
void lcp_pgs_touch(lcp_pgs *s, const double *z);
int lcp_pgs_mf(const lcp_pgs *s);
void lcp_pgs_close(lcp_pgs *s);

/* z <- mid(lo_eff, z, hi_eff): uncoupled rows first, then the friction rows with bounds
 * from the projected normals (the box of the current iterate) */
void lcp_project(const lcp_problem *P, double *z);
/* z <- mid(lo(zb), z, hi(zb)): the box of the normals of zb (zb may be z only when P has
 * no friction index) */
void lcp_project_from(const lcp_problem *P, const double *zb, double *z);

/* ---- thread pool (pool.c) and row colouring (pgs_color.c) -------------------------- */
typedef struct lcp_pool lcp_pool;
typedef void lcp_pool_fn(void *arg, int tid);
/* nthreads >= 1 threads, the caller being thread 0 (nthreads = 1 starts none) */
lcp_status lcp_pool_start(lcp_pool **pool, int nthreads);
/* fn(arg, t) on every thread t = 0 .. size-1; returns when all are done */
void lcp_pool_run(lcp_pool *pool, lcp_pool_fn *fn, void *arg);
/* inside fn: wait until every thread has reached the barrier (spins briefly, then sleeps) */
void lcp_pool_barrier(lcp_pool *pool, int tid);
/* inside fn: wait until *a == want (spins briefly, then sleeps until an lcp_pool_add on
 * the pool wakes it); *a += v and wake the sleepers.  a: a counter the callers share */
#ifndef __cplusplus
void lcp_pool_await(lcp_pool *pool, atomic_int *a, int want);
void lcp_pool_add(lcp_pool *pool, atomic_int *a, int v);
#endif
int lcp_pool_size(const lcp_pool *pool);
/* one run (a sweep) on all threads or on the caller alone, whichever the runs so far say is
 * faster (pool.c, "adaptive runs"); returns 1 when it ran on the caller alone.  fn must
 * split its work by lcp_pool_active (the threads taking part in the run) */
int lcp_pool_run_adaptive(lcp_pool *pool, lcp_pool_fn *fn, void *arg);
int lcp_pool_active(const lcp_pool *pool);
/* inside fn, on the caller (tid 0) of an adaptive run on all threads: 1 when the run has
 * taken longer than ADAPT_REJECT x the mean run on the caller alone; a caller that can
 * then finish the run alone (pgs-color: the workers stop claiming blocks) should, and
 * should not ask again in that run (each 1 is counted as a run cut short) */
int lcp_pool_overdue(lcp_pool *pool);
/* TEST ONLY (tests/library/test_color.c; not in lcp.h, never set by the library): pools
 * started while after >= 0 run every adaptive run on all threads (no choice, no probe)
 * and lcp_pool_overdue answers 1 from its (after + 1)-th question in a run on (pgs-color
 * asks once a colour, from the first: after = 1 cuts every sweep at its second colour);
 * after < 0 (the default) turns it off.  Not thread-safe against pools being started.
 * lcp_pool_cut_runs: the runs cut short (lcp_pool_overdue said 1), forced or not, by all
 * pools since the program started. */
void lcp_pool_force_overdue(int after);
long lcp_pool_cut_runs(void);
/* 1 (default): lcp_pool_run_adaptive chooses; 0: it always runs on all threads */
void lcp_pool_set_adapt(lcp_pool *pool, int adapt);
/* the threads a solve runs on: options.threads, or lcp_threads_free() when threads_auto */
int lcp_threads(const lcp_options *opt);
void lcp_pool_stop(lcp_pool *pool); /* joins the workers; accepts NULL */

/* Greedy colouring of the rows (pgs_color.c): rows of one colour share no J column (in the
 * matrix-free form: no column of J or of B = J Minv), are not coupled through A (assembled
 * form: a_ij = a_ji = 0) and are not friction-coupled (findex).  Rows are coloured in
 * natural order with the smallest colour no earlier neighbour has.  contact = 1: the
 * units coloured are contacts (a normal row and the rows whose findex names it), whose
 * rows share a colour; the rules hold between rows of different units.  On return colptr
 * (ncolors + 1 entries) and rows (m entries: the rows of colour c in
 * rows[colptr[c] .. colptr[c+1]-1], ordered by lcp_color_key of the unit's normal row,
 * then by that row, then ascending) are allocated with lcp_malloc. */
/* the key ordering the rows of a colour: matrix-free, the first column of J_i (the first
 * body of the row's contact; n for an empty row), so that a thread given a range of bodies
 * takes a contiguous run of each colour; assembled, i */
static inline int lcp_color_key(const lcp_problem *P, int mf, int i)
{
    if (!mf) return i;
    return P->J.p[i] < P->J.p[i + 1] ? P->J.j[P->J.p[i]] : P->n;
}
lcp_status lcp_color_rows(const lcp_problem *P, int mf, int contact, int *ncolors,
                          int **colptr, int **rows);

/* ---- orderings ------------------------------------------------------------------------ */
typedef struct lcp_orderer {
    lcp_order kind;
    int m;
    int *perm;        /* m: the current order */
    void *sort;       /* m (key, row) pairs: sort workspace (error, mass) */
    double *w;        /* the error ordering: w (m), then the residual's workspace (nwork) */
    size_t nwork;
    uint64_t rng;     /* generator state (random, random8) */
    const lcp_problem *P;
} lcp_orderer;

/* diag: a_ii (for mass).  Validates opt->perm for LCP_ORDER_PERM. */
lcp_status lcp_order_init(lcp_orderer *o, const lcp_problem *P, const lcp_options *opt,
                          const double *diag);
/* the order of sweep k (k >= 1), computed from the current z where the ordering needs it */
const int *lcp_order_next(lcp_orderer *o, int k, const double *z);
void lcp_order_free(lcp_orderer *o);

#ifdef __cplusplus
}
#endif

#endif /* LCP_INTERNAL_H */
