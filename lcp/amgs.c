/* amgs.c: the modulus-based accelerated Gauss-Seidel family (AMGS): amgs-D, amgs-I,
 * amgs-D-explicit, amgs-I-explicit, and the non-accelerated baseline mgs.  One
 * implementation; the variant (shape of Omega, method, form of the row operator) is decided
 * once, before the loop, by the choice of sweep function and of omegahat_i = ohD a_ii + ohI.
 *
 * MODULUS VARIABLES (Bai 2010; Zheng and Yin 2013).  A vector x with
 *     z = (|x| + x) / gamma,    w = Omega_hat (|x| - x) / gamma,    Omega_hat = gamma Omega,
 * Omega a positive diagonal, gamma > 0 (these are the relations at a fixed point of the
 * iteration below; w is often written with Omega in place of Omega_hat).  Only Omega_hat
 * matters for the z-iterates: with y = x / gamma every formula below is free of gamma.
 *
 * THE ITERATION.  Two splittings A = M1 - N1 = M2 - N2:
 *     (M1 + Omega_hat) x^{k+1} = N1 x^k + (Omega_hat - M2)|x^k| + N2 |x^{k+1}| - gamma q.
 * AMGS takes M1 = D - L, N1 = U, M2 = D - U, N2 = L (A = D - L - U).  Row i of a sweep is
 * then explicit, with s_i = sum_{j != i} a_ij z_j + q_i over the newest z:
 *     x_i <- [ (omegahat_i - a_ii)|x_i| - gamma s_i ] / (omegahat_i + a_ii)
 *     z_i <- 2 max(x_i, 0) / gamma
 *   amgs-D: Omega = beta D, omegahat_i = gamma beta a_ii   (default beta = 0.5, gamma = 1)
 *   amgs-I: Omega = beta I, omegahat_i = gamma beta        (default beta = mean(a_ii), gamma = 1)
 * With omegahat_i = a_ii this is PGS; on rows with x_i >= 0 it is projected SOR with
 * omega_i = 2 a_ii / (omegahat_i + a_ii) (lcp/README.md, "The AMGS family";
 * tests/library/test_amgs.c).
 *
 * FORMS (S. Miyamoto et al., "Sparsity exploitation of accelerated modulus-based
 * Gauss-Seidel method for interactive rigid body simulations", 2019, arXiv:1910.09873):
 * - Method 2.2 (amgs-D-explicit, amgs-I-explicit): the dense m x m matrix
 *   A = J Minv J^T + diag(E) is formed with OpenBLAS, T = J Minv (sparse, block-diagonal
 *   Minv) then A = T J^T by cblas_dgemm over the columns J uses; without factors (or with
 *   options.form = assembled) the dense A is copied from the CSR A.  A sweep reads every row
 *   of the dense A: (A z)_i = A(i,:) z.  Cost O(m^2) per sweep, O(m^2 n_J) to set up,
 *   m^2 doubles of memory.
 * - Method 3.1 (amgs-D, amgs-I): matrix-free, through the shared row operator
 *   (lcp_internal.h): u = Minv J^T z, (A z)_i = J_i u + E_i z_i, and after row i changes z_i
 *   by dz, u += dz (Minv J_i^T).  s_i = (A z)_i - a_ii z_i + q_i.  Cost O(nnz(J) +
 *   nnz(J Minv)) per sweep.  An instance with no factors (or options.form = assembled) uses
 *   the same update on the CSR A, O(nnz(A)) per sweep.  Same iterates as Method 2.2 up to
 *   rounding.  1/(omegahat_i + a_ii) is stored beside x_i, so a row costs no division
 *   and reads 24 bytes of its own (x_i, that constant, a_ii) where pgs reads 8.
 * - Method 3.2 (boxed rows and friction; our reconstruction, the paper's formula is lost):
 *   a row with effective bounds [lo_i, hi_i] (friction rows: recomputed from the newest
 *   normal impulse, lo_i = -mu |z_n| <= 0 <= hi_i = mu |z_n|) works with t_i = z_i - lo_i in
 *   [0, hi_i - lo_i]; its own problem is w_i = a_ii t_i + (s_i + a_ii lo_i), so
 *       x_i <- [ (omegahat_i - a_ii)|x_i| - gamma (s_i + a_ii lo_i) ] / (omegahat_i + a_ii)
 *       t_i  = min(2 max(x_i, 0) / gamma, hi_i - lo_i);  if clamped x_i = gamma (hi_i - lo_i)/2
 *       z_i  = lo_i + t_i.
 *   The code evaluates it in z, not in t (METHOD 3.2 IN z below): the same numbers when
 *   lo_i is fixed, and a reading that stays consistent when lo_i moves between visits.  Two
 *   cases the paper does not cover, our choices: a row with lo_i = -inf and finite hi_i is
 *   mirrored (t_i = hi_i - z_i >= 0, w'_i = -w_i); a free row (both bounds infinite) takes
 *   the limit lo_i -> -inf, which is SOR with omega_i = 2 a_ii/(omegahat_i + a_ii).
 *
 * METHOD 3.2 IN z.  |x_i| is the row's memory of its last visit: gamma/2 times t_i = z_i -
 * lo_i when x_i > 0 (the impulse, measured from the bound), gamma/2 times w_i/omegahat_i
 * when x_i <= 0 (the multiplier of a row resting on lo_i).  A friction row's lo_i moves
 * whenever the normal impulse does.  Applying the t formula with the new lo_i to the |x_i|
 * measured from the old one adds to z_i, whatever the row's load,
 *       (omegahat_i - a_ii)/(omegahat_i + a_ii) (lo_i_new - lo_i_old)
 *         = mu (1 - b)/(1 + b) (|z_n|_new - |z_n|_old)        (amgs-D, gamma beta = b)
 * (mu/3 of every change of z_n at the default b = 1/2; 0 only for b = 1, i.e. PGS).  On the
 * 30-disk stack, whose friction rows carry no load (PGS and ldlt-ref keep them at exactly 0),
 * this left friction impulses of 1.9e-7 after 200 sweeps, and with amgs-D as the stepper's
 * solver the column collapsed (kinetic energy 1e-7 J at step 20, 621 J at step 88).  So the
 * memory is kept as a point on the z axis, v_i = z_i + w_i/omegahat_i (v_i = z_i when
 * x_i > 0, z_i - 2 x_i/gamma when x_i <= 0: no stored bound needed), and
 *       zc_i = [ (omegahat_i - a_ii) v_i - 2 s_i ] / (omegahat_i + a_ii)
 *       x_i  = gamma (zc_i - lo_i)/2   (gamma (hi_i - lo_i)/2 when zc_i > hi_i)
 *       z_i  = mid(lo_i, zc_i, hi_i)
 * (mirrored rows: x_i = gamma (hi_i - zc_i)/2, v_i = z_i + 2 x_i/gamma when x_i < 0).
 * Substituting |x_i| = gamma (v_i - lo_i)/2 gives the t formula term for term, so with a
 * fixed lo_i nothing changes (with lo = 0, hi = inf and gamma a power of 2 the numbers are
 * Method 3.1's bit for bit; otherwise to rounding).  With a moving lo_i the bound decides
 * only where z_i is clipped and where x_i is measured from.  Consequences (tests): a row
 * whose s_i is 0 at every visit stays at z_i = 0 exactly (the paper's Stacking: "no
 * frictional forces are produced"), and the row update is projected SOR with
 * omega_i = 2 a_ii/(omegahat_i + a_ii) whenever z_i is off the bound it rests on (x_i > 0),
 * friction rows included.  The paper's formula for Method 3.2 did not survive in our copy,
 * so which reading it meant cannot be checked; this is the one under which its statement
 * about Stacking holds.
 *
 * MGS (`mgs', Bai 2010, the non-accelerated method, for comparison; standard LCP only):
 * one splitting M = D - L, N = U,
 *     (M + Omega_hat) x^{k+1} = N x^k + (Omega_hat - A)|x^k| - gamma q,
 * so row i uses, for the rows j already visited in the sweep, (x_j^{k+1} + |x_j^k|)/gamma in
 * place of z_j: the row operator holds that vector v instead of z, and v is reset to z at
 * the end of each sweep (a second pass over J Minv in the matrix-free form).  Omega = beta D,
 * default beta = 1 (Omega_hat = D), gamma = 1; our choice, the spec names no default.
 *
 * STOPPING TEST.  Every variant runs in lcp_iterate_fused: a row visit also adds up
 * rho_i^2, rho_i = z_i - mid(lo_i, z_i - w_i, hi_i) with w_i = (A z)_i + q_i over the newest
 * z (computed for s_i anyway), the row's natural-map residual as visited; the loop uses
 * the sum only to decide when to take the exact residual (iterate.c, a Gauss-Seidel
 * estimate).  mgs sums min(v_i, w_i(v)) over the vector v its rows read (v_i = z_i for the
 * rows not yet visited).
 *
 * START.  The loop (lcp_iterate) sets the starting z; the first sweep builds x consistent
 * with it (and u = Minv J^T z): in the row's shifted variable t_i (above), x_i = gamma t_i/2
 * when t_i > 0 (x_i = gamma (hi_i - lo_i)/2 at a finite upper bound), and
 * x_i = -gamma max(w'_i, 0) / (2 omegahat_i) when t_i = 0, with w = A z + q: the value the
 * fixed point of the iteration has at a row resting on its bound, so that a warm start at
 * the solution stays there.  (The choice only matters through (omegahat_i - a_ii)|x_i|, so
 * with omegahat = D the first sweep is exactly PGS whatever x starts at.)
 *
 * ERRORS.  a_ii <= 0: LCP_ERR_ZERO_DIAG with info->row.  beta < 0 (0 = the default) or
 * gamma <= 0, or either not finite: LCP_ERR_ARG.  mgs on bounds other than lo = 0, hi = inf
 * or with findex: LCP_ERR_UNSUPPORTED.  A NaN in s_i propagates to z_i (max(x, 0) is written
 * so that it keeps NaN), so the loop's non-finite check sees it.  Method 2.2 refuses
 * (LCP_ERR_TOO_LARGE, before allocating) when its dense arrays (m^2 doubles, plus 2 m n
 * doubles to build A from the factors; the build uses only the n_J <= n columns J touches)
 * would exceed AMGS_DENSE_CAP = 4 GiB, half of the physical memory (sysconf) or half of the
 * address-space limit (getrlimit RLIMIT_AS, `ulimit -v'), whichever is smaller: 4 GiB of A
 * alone is m = 23170.  It returns LCP_ERR_NOMEM, rather than letting OpenBLAS spin in its
 * allocator, when the room OpenBLAS's dgemm needs for its buffers cannot be had (see
 * amgs_blas_room).
 *
 * INFO.  info->beta, info->gamma (values used), info->shape ('D' or 'I'), info->form
 * (Method 2.2 reports the source of its dense A: matrix-free = from J, Minv, E; assembled =
 * from the CSR A), info->omega = 0.
 *
 * SOURCES.  Z.-Z. Bai, Modulus-based matrix splitting iteration methods for linear
 * complementarity problems, Numer. Linear Algebra Appl. 17 (2010) 917-933.  N. Zheng and
 * J.-F. Yin, Accelerated modulus-based matrix splitting iteration methods for linear
 * complementarity problem, Numer. Algorithms 64 (2013) 245-262.  S. Miyamoto et al. 2019,
 * arXiv:1910.09873 (above).  lcp/README.md, "The AMGS family".
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "lcp_internal.h"
#include "solvers.h"

#include <cblas.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define AMGS_DENSE_CAP ((double)4 * 1024 * 1024 * 1024) /* bytes, Method 2.2 limit */
#define MGS_BETA 1.0 /* mgs default: Omega = D (gamma = 1) */

/* x_i and the one row constant worth storing, side by side (one cache line per 4 rows) */
typedef struct amgs_xr {
    double x;   /* modulus variable x_i */
    double inv; /* 1 / (omegahat_i + a_ii) */
} amgs_xr;

typedef struct amgs_ctx {
    const lcp_problem *P;
    int m;
    double gamma;      /* gamma */
    double tg;         /* 2 / gamma */
    double ohD, ohI;   /* omegahat_i = ohD a_ii + ohI: (gamma beta, 0) for D, (0, gamma beta) I */
    const double *d;   /* m: a_ii (row operator's or the dense A's diagonal) */
    amgs_xr *x;        /* m: modulus variables x_i and 1 / (omegahat_i + a_ii) */
    double *v;         /* mgs: m, the vector the row operator holds (see mgs_sweep) */
    lcp_rowop op;      /* Method 3.1: assembled or matrix-free row operator */
    double *Ad;        /* Method 2.2: dense A, m x m row-major (NULL otherwise) */
    double *ddiag;     /* Method 2.2: its diagonal */
    lcp_orderer ord;   /* row order of each sweep */
} amgs_ctx;

/* ---- one row: Method 3.2 (3.1 when lo = 0, hi = inf) --------------------------------- */

/* s = (A z)_i - a_ii z_i + q_i, w = (A z)_i + q_i; updates c->x[i], sets *rho to the
 * natural-map residual of row i as visited, z_i - mid(lo_i, z_i - w, hi_i) (the fused
 * stopping test's term, iterate.c), and returns the new z_i.  Written in z
 * (see METHOD 3.2 IN z): v = z_i + w_i/omegahat_i is the point the memory |x_i| stands for,
 * the candidate is zc = [(omegahat_i - a_ii) v - 2 s_i]/(omegahat_i + a_ii), and x_i is
 * measured from the bound the row rests on; z_i = mid(lo, zc, hi). */
static inline double amgs_row(amgs_ctx *c, int i, double s, double w, const double *z,
                              double *rho)
{
    double lo, hi, a = c->d[i], *x = &c->x[i].x, inv = c->x[i].inv;
    double oh = c->ohD * a + c->ohI;                    /* omegahat_i */
    double c1 = (oh - a) * inv, c3 = 2.0 * inv;         /* (oh - a)/(oh + a), 2/(oh + a) */
    double hg = 0.5 * c->gamma;
    lcp_row_bounds(c->P, z, i, &lo, &hi);
    *rho = z[i] - lcp_mid(lo, z[i] - w, hi);            /* row i as visited (fused test) */
    if (lo > -INFINITY) { /* x = gamma (zc - lo)/2: t = z - lo = 2 max(x, 0)/gamma */
        double v = *x < 0.0 ? z[i] - c->tg * *x : z[i]; /* at lo: v = lo + w/oh */
        double zc = c1 * v - c3 * s;                    /* [(oh - a) v - 2 s]/(oh + a) */
        if (zc > hi) {                                  /* clamped at the upper bound */
            *x = hg * (hi - lo);                        /* x = gamma (hi - lo) / 2 */
            return hi;
        }
        *x = hg * (zc - lo);
        return zc < lo ? lo : zc;                       /* NaN kept */
    }
    if (hi < INFINITY) { /* mirrored: x = gamma (hi - zc)/2, t = hi - z, w' = -w */
        double v = *x < 0.0 ? z[i] + c->tg * *x : z[i]; /* at hi: v = hi + w/oh */
        double zc = c1 * v - c3 * s;
        *x = hg * (hi - zc);
        return zc > hi ? hi : zc;
    }
    /* free row: SOR with omega_i = 2 a / (oh + a), the limit lo -> -inf of the above */
    double zi = c1 * z[i] - c3 * s;
    *x = hg * zi;
    return zi;
}

/* x consistent with the starting z (see START); w_i = (A z)_i + q_i */
static inline void amgs_row_start(amgs_ctx *c, int i, double w, const double *z)
{
    double lo, hi, g = c->gamma, oh = c->ohD * c->d[i] + c->ohI;
    lcp_row_bounds(c->P, z, i, &lo, &hi);
    if (lo > -INFINITY) {
        double t = z[i] - lo;
        if (t >= hi - lo) c->x[i].x = 0.5 * g * (hi - lo);        /* at the upper bound */
        else if (t > 0.0) c->x[i].x = 0.5 * g * t;               /* x = gamma t / 2 */
        else c->x[i].x = -g * fmax(w, 0.0) / (2.0 * oh);         /* x = -gamma w/(2 oh) */
    } else if (hi < INFINITY) {
        double t = hi - z[i];
        if (t > 0.0) c->x[i].x = 0.5 * g * t;
        else c->x[i].x = -g * fmax(-w, 0.0) / (2.0 * oh);        /* w' = -w */
    } else {
        c->x[i].x = 0.5 * g * z[i];
    }
}

/* ---- sweeps ---------------------------------------------------------------------------- */

/* the rows of one sweep of Method 3.1 / 3.2; `mf' is a constant at each call site;
 * returns sum rho_i^2 (the fused stopping test's estimate, iterate.c) */
static inline __attribute__((always_inline)) double amgs_rows(amgs_ctx *c, const int *order,
                                                              double *z, const int mf)
{
    const double *q = c->P->q;
    double e2 = 0.0;
    for (int r = 0; r < c->m; r++) {
        int i = order[r];
        double az = lcp_rowop_dot_as(&c->op, i, z, mf), rho;
        double s = az - c->d[i] * z[i] + q[i];                                    /* s_i */
        double zi = amgs_row(c, i, s, az + q[i], z, &rho);
        e2 += rho * rho;
        double dz = zi - z[i];
        z[i] = zi;
        lcp_rowop_update_as(&c->op, i, dz, mf);                 /* u += dz Minv J_i^T */
    }
    return e2;
}

/* Method 3.1 / 3.2 through the row operator (matrix-free or assembled CSR) */
static lcp_status amgs_sweep_rowop(void *ctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    amgs_ctx *c = ctx;
    const double *q = c->P->q;
    if (k == 1) { /* the loop has just set the starting z */
        lcp_rowop_reset(&c->op, z);                              /* u = Minv J^T z */
        for (int i = 0; i < c->m; i++)
            amgs_row_start(c, i, lcp_rowop_dot(&c->op, i, z) + q[i], z);
    }
    const int *order = lcp_order_next(&c->ord, k, z);
    est->e2 = c->op.mf ? amgs_rows(c, order, z, 1) : amgs_rows(c, order, z, 0);  /* per form */
    (void)row;
    return LCP_OK;
}

/* Method 2.2: rows of the dense A */
static lcp_status amgs_sweep_dense(void *ctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    amgs_ctx *c = ctx;
    const double *q = c->P->q;
    int m = c->m;
    if (k == 1)
        for (int i = 0; i < m; i++)
            amgs_row_start(c, i, cblas_ddot(m, c->Ad + (size_t)i * m, 1, z, 1) + q[i], z);
    const int *order = lcp_order_next(&c->ord, k, z);
    double e2 = 0.0;
    for (int r = 0; r < m; r++) {
        int i = order[r];
        double az = cblas_ddot(m, c->Ad + (size_t)i * m, 1, z, 1), rho;
        z[i] = amgs_row(c, i, az - c->d[i] * z[i] + q[i], az + q[i], z, &rho);
        e2 += rho * rho;
    }
    est->e2 = e2;
    (void)row;
    return LCP_OK;
}

/* Bai's MGS (the non-accelerated baseline `mgs'), standard LCP only: M = D - L, N = U,
 *     (M + Omega_hat) x^{k+1} = N x^k + (Omega_hat - A)|x^k| - gamma q,
 * row i:  x_i <- [ (omegahat_i - a_ii)|x_i| - gamma s_i ] / (omegahat_i + a_ii),
 *         s_i = sum_{j != i} a_ij v_j + q_i,   v_j = (x_j^{k+1} + |x_j^k|)/gamma for rows
 * already visited in this sweep and v_j = z_j^k = (x_j^k + |x_j^k|)/gamma for the others.
 * The row operator holds v instead of z (u = Minv J^T v); at the end of the sweep v is set
 * to z^{k+1}, which costs a second pass over B = J Minv in the matrix-free form. */
static lcp_status mgs_sweep(void *ctx, int k, double *z, int *row, lcp_sweep_est *est)
{
    amgs_ctx *c = ctx;
    const double *q = c->P->q;
    double *v = c->v;
    if (k == 1) {
        for (int i = 0; i < c->m; i++) v[i] = z[i];
        lcp_rowop_reset(&c->op, v);                              /* u = Minv J^T v */
        for (int i = 0; i < c->m; i++)
            amgs_row_start(c, i, lcp_rowop_dot(&c->op, i, v) + q[i], z);
    }
    const int *order = lcp_order_next(&c->ord, k, z);
    double e2 = 0.0;
    for (int t = 0; t < c->m; t++) {
        int i = order[t];
        double a = c->d[i], oh = c->ohD * a + c->ohI, inv = c->x[i].inv;
        double av = lcp_rowop_dot(&c->op, i, v);
        double s = av - a * v[i] + q[i];                               /* s_i over v */
        double rho = fmin(v[i], av + q[i]);        /* v_i - max(0, v_i - w_i): v_i = z_i */
        e2 += rho * rho;
        double xabs = fabs(c->x[i].x);                                 /* |x_i^k| */
        double xi = ((oh - a) * xabs - c->gamma * s) * inv;
        c->x[i].x = xi;
        z[i] = xi < 0.0 ? 0.0 : c->tg * xi;                            /* 2 max(x,0)/gamma */
        double vi = (xi + xabs) / c->gamma;                            /* (x' + |x|)/gamma */
        lcp_rowop_update(&c->op, i, vi - v[i]);
        v[i] = vi;
    }
    for (int i = 0; i < c->m; i++) { /* v <- z^{k+1} for the next sweep */
        lcp_rowop_update(&c->op, i, z[i] - v[i]);
        v[i] = z[i];
    }
    est->e2 = e2;
    (void)row;
    return LCP_OK;
}

/* ---- Method 2.2 setup: the dense A ----------------------------------------------------- */

/* bytes Method 2.2 may allocate: min(AMGS_DENSE_CAP, physical memory / 2, address-space
 * limit / 2 (ulimit -v: the address space also holds the program, its libraries and
 * OpenBLAS's buffers)) */
static double amgs_dense_limit(void)
{
    double cap = AMGS_DENSE_CAP;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    if (pages > 0 && psize > 0 && 0.5 * (double)pages * (double)psize < cap)
        cap = 0.5 * (double)pages * (double)psize;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        0.5 * (double)rl.rlim_cur < cap)
        cap = 0.5 * (double)rl.rlim_cur;
    return cap;
}

/* OpenBLAS's level-3 routines (dgemm) take a work buffer per thread on their first call
 * (blas_memory_alloc: BUFFER_SIZE = 32 << 22 bytes on x86-64, plus a page) and, when it
 * cannot be mapped, retry forever (OpenBLAS 0.3.21's memory.c loops until the mapping
 * succeeds): under an address-space limit that leaves less room, the first dgemm spins.
 * So before it, the same room is mapped the way OpenBLAS maps it (private, read-write: the
 * same RLIMIT_AS and overcommit accounting), never touched, and unmapped at once; refused,
 * the solver returns out-of-memory instead of calling dgemm.  (A mapping, not malloc: with
 * MALLOC_PERTURB_ set, as meson does for tests, glibc would fill a malloc'ed probe.)  Once
 * OpenBLAS has its buffers it keeps them, so the probe is conservative; it costs two system
 * calls. */
#define AMGS_BLAS_BUFFER ((size_t)(32 << 22) + 4096)
static int amgs_blas_room(void)
{
    int t = openblas_get_num_threads();
    size_t len = (size_t)(t > 1 ? t : 1) * AMGS_BLAS_BUFFER;
    void *probe = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe == MAP_FAILED) return 0;
    munmap(probe, len);
    return 1;
}

/* Ad (m x m, row-major) = J Minv J^T + diag(E) with cblas_dgemm over the nJ columns J
 * uses: T = J Minv (sparse product), then A = T_d J_d^T with T_d, J_d dense m x nJ. */
static lcp_status amgs_dense_from_factors(const lcp_problem *P, double *Ad)
{
    int m = P->m, n = P->n, nJ = 0;
    lcp_csr T = {0};
    int *col = lcp_malloc((size_t)(n > 0 ? n : 1), sizeof(int));
    double *Td = NULL, *Jd = NULL;
    lcp_status st = col ? LCP_OK : LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        for (int k = 0; k < n; k++) col[k] = -1;
        for (int k = 0; k < LCP_CSR_NNZ(&P->J); k++) /* compact index of each used column */
            if (col[P->J.j[k]] < 0) col[P->J.j[k]] = nJ++;
        st = lcp_csr_multiply(&P->J, &P->Minv, &T);                   /* T = J Minv */
    }
    if (st == LCP_OK && nJ > 0) {
        Td = lcp_calloc((size_t)m * (size_t)nJ, sizeof(double));
        Jd = lcp_calloc((size_t)m * (size_t)nJ, sizeof(double));
        if (!Td || !Jd) st = LCP_ERR_NOMEM;
    }
    if (st == LCP_OK && nJ > 0) {
        for (int i = 0; i < m; i++) {
            for (int k = P->J.p[i]; k < P->J.p[i + 1]; k++)
                Jd[(size_t)i * nJ + col[P->J.j[k]]] += P->J.x[k];
            for (int k = T.p[i]; k < T.p[i + 1]; k++) /* T's columns outside J's drop out */
                if (col[T.j[k]] >= 0) Td[(size_t)i * nJ + col[T.j[k]]] += T.x[k];
        }
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, m, nJ, 1.0, Td, nJ, Jd, nJ,
                    0.0, Ad, m);                                      /* A = T J^T */
    } else if (st == LCP_OK) {
        memset(Ad, 0, (size_t)m * (size_t)m * sizeof(double));
    }
    if (st == LCP_OK && P->E)
        for (int i = 0; i < m; i++) Ad[(size_t)i * m + i] += P->E[i]; /* + diag(E) */
    lcp_csr_free(&T);
    lcp_free(col);
    lcp_free(Td);
    lcp_free(Jd);
    return st;
}

/* c->Ad and c->ddiag; *form receives the source used */
static lcp_status amgs_dense_init(amgs_ctx *c, const lcp_problem *P, lcp_form form_opt,
                                  lcp_form *form)
{
    int m = P->m, has = lcp_problem_has_factors(P);
    if (form_opt == LCP_FORM_MATRIX_FREE && !has) return LCP_ERR_NEEDS_FACTORS;
    *form = (form_opt == LCP_FORM_ASSEMBLED || !has) ? LCP_FORM_ASSEMBLED
                                                     : LCP_FORM_MATRIX_FREE;
    double bytes = (double)m * (double)m * sizeof(double);
    if (*form == LCP_FORM_MATRIX_FREE) bytes += 2.0 * (double)m * (double)P->n * sizeof(double);
    if (bytes > amgs_dense_limit()) return LCP_ERR_TOO_LARGE;
    if (*form == LCP_FORM_MATRIX_FREE && !amgs_blas_room()) return LCP_ERR_NOMEM; /* dgemm */
    c->Ad = lcp_malloc((size_t)m * (size_t)m, sizeof(double));
    c->ddiag = lcp_malloc((size_t)m, sizeof(double));
    if (!c->Ad || !c->ddiag) return LCP_ERR_NOMEM;
    if (*form == LCP_FORM_MATRIX_FREE) {
        lcp_status st = amgs_dense_from_factors(P, c->Ad);
        if (st != LCP_OK) return st;
    } else {
        memset(c->Ad, 0, (size_t)m * (size_t)m * sizeof(double));
        for (int i = 0; i < m; i++)
            for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++)
                c->Ad[(size_t)i * m + P->A.j[k]] += P->A.x[k];
    }
    for (int i = 0; i < m; i++) c->ddiag[i] = c->Ad[(size_t)i * m + i];
    return LCP_OK;
}

/* ---- the one implementation ------------------------------------------------------------- */

enum { AMGS_M31, AMGS_M22, AMGS_MGS }; /* the method: 3.1 (and 3.2), 2.2, Bai's MGS */

static lcp_status amgs_solve(const lcp_problem *P, const lcp_options *opt, double *z,
                             lcp_info *info, char shape, int method)
{
    int dense = method == AMGS_M22;
    if (!P || !opt || !z || !info) return LCP_ERR_ARG;
    lcp_info_init(info);
    amgs_ctx c = {.P = P, .m = P->m, .gamma = opt->gamma};
    lcp_form form = LCP_FORM_AUTO;
    int have_ord = 0;
    double beta = opt->beta;
    lcp_status st = LCP_OK;
    if (P->m < 0 || !(beta >= 0.0 && beta < INFINITY) || !(c.gamma > 0.0 && c.gamma < INFINITY))
        st = LCP_ERR_ARG;
    for (int i = 0; st == LCP_OK && method == AMGS_MGS && i < P->m; i++)
        if (P->lo[i] != 0.0 || P->hi[i] != INFINITY || (P->findex && P->findex[i] >= 0))
            st = LCP_ERR_UNSUPPORTED;                     /* mgs: standard LCP only */
    if (st == LCP_OK && dense) {                          /* Method 2.2: dense A */
        st = amgs_dense_init(&c, P, opt->form, &form);
        c.d = c.ddiag;
    } else if (st == LCP_OK) {                            /* Method 3.1: row operator */
        st = lcp_rowop_init(&c.op, P, opt->form);
        form = c.op.mf ? LCP_FORM_MATRIX_FREE : LCP_FORM_ASSEMBLED;
        c.d = c.op.diag;
    }
    for (int i = 0; st == LCP_OK && i < P->m; i++)
        if (!(c.d[i] > 0.0)) {                            /* a_ii <= 0: cannot sweep */
            st = LCP_ERR_ZERO_DIAG;
            info->row = i;
        }
    if (st == LCP_OK && beta == 0.0) {                    /* defaults */
        double sum = 0.0;
        for (int i = 0; i < P->m; i++) sum += c.d[i];
        beta = shape == 'I' ? (P->m > 0 ? sum / P->m : 1.0)         /* I: mean(a_ii) */
               : method == AMGS_MGS ? MGS_BETA : 0.5;
    }
    if (st == LCP_OK) {
        c.x = lcp_calloc((size_t)P->m, sizeof(amgs_xr));
        if (method == AMGS_MGS) c.v = lcp_malloc((size_t)P->m, sizeof(double));
        if (!c.x || (method == AMGS_MGS && !c.v)) st = LCP_ERR_NOMEM;
    }
    if (st == LCP_OK) {
        double gb = c.gamma * beta;                       /* gamma beta */
        c.tg = 2.0 / c.gamma;
        c.ohD = shape == 'D' ? gb : 0.0;                  /* omegahat = gamma Omega */
        c.ohI = shape == 'D' ? 0.0 : gb;
        for (int i = 0; i < P->m; i++)
            c.x[i].inv = 1.0 / (c.ohD * c.d[i] + c.ohI + c.d[i]);   /* 1 / (oh + a) */
        st = lcp_order_init(&c.ord, P, opt, c.d);
        have_ord = st == LCP_OK;
    }
    info->form = form;
    info->beta = beta;
    info->gamma = c.gamma;
    info->shape = shape;
    lcp_fused_sweep_fn *sweep = method == AMGS_M22 ? amgs_sweep_dense
                                : method == AMGS_MGS ? mgs_sweep : amgs_sweep_rowop;
    if (st == LCP_OK) st = lcp_iterate_fused(P, opt, sweep, &c, z, info);
    if (have_ord) lcp_order_free(&c.ord);
    lcp_rowop_free(&c.op);
    lcp_free(c.Ad);
    lcp_free(c.ddiag);
    lcp_free(c.x);
    lcp_free(c.v);
    info->status = st;
    return st;
}

/* ---- the registered entries --------------------------------------------------------------- */

lcp_status lcp_solve_amgs_D(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    return amgs_solve(P, opt, z, info, 'D', AMGS_M31);
}

lcp_status lcp_solve_amgs_I(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    return amgs_solve(P, opt, z, info, 'I', AMGS_M31);
}

lcp_status lcp_solve_amgs_D_explicit(const lcp_problem *P, const lcp_options *opt, double *z,
                               lcp_info *info)
{
    return amgs_solve(P, opt, z, info, 'D', AMGS_M22);
}

lcp_status lcp_solve_amgs_I_explicit(const lcp_problem *P, const lcp_options *opt, double *z,
                               lcp_info *info)
{
    return amgs_solve(P, opt, z, info, 'I', AMGS_M22);
}

lcp_status lcp_solve_mgs(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info)
{
    return amgs_solve(P, opt, z, info, 'D', AMGS_MGS);
}
