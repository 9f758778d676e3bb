/* dantzig.c: Dantzig/Baraff principal pivoting for the boxed LCP, as the Open Dynamics
 * Engine's Dantzig solver (ODE lcp.cpp) performs it: `dantzig' (ODE's behaviour) and
 * `dantzig-rounds' (friction bounds recomputed until they settle), two thin entries over one
 * implementation.  Written from the published description of the method, not from ODE's code.
 *
 * WHAT IT COMPUTES.  z with w = A z + q, lo <= z <= hi and, row by row, z_i = lo_i => w_i >= 0,
 * z_i = hi_i => w_i <= 0, lo_i < z_i < hi_i => w_i = 0.  ODE writes A x = b + w, so b = -q.
 * The method needs A symmetric (only one triangle's worth of values is used) and
 * lo_i <= 0 <= hi_i, so that z = 0 is a valid start for every row not yet looked at.
 *
 * THE METHOD (Cottle and Dantzig 1968; Baraff, "Fast contact force computation for
 * nonpenetrating rigid bodies", SIGGRAPH 1994).  Rows are taken one at a time, in a fixed
 * order; when row i is taken, rows before it already satisfy their conditions and rows after
 * it are "don't care" (z = 0, w ignored).  Three sets partition the rows taken:
 *   C  clamped:  lo < z < hi, w = 0          (an LDL^T factor of A_CC is kept)
 *   N  at a bound: state lo (z = lo, w >= 0) or state hi (z = hi, w <= 0).
 * Row i is placed at once when it already satisfies a condition (lo_i = 0 and w_i >= 0: N at
 * lo; hi_i = 0 and w_i <= 0: N at hi; w_i = 0: C).  Otherwise z_i is driven in the direction
 * that reduces |w_i| (dir = +1 when w_i <= 0) while the rows in C stay on w = 0:
 *     dz_C = -dir A_CC^-1 A_Ci,   dw_N = A_NC dz_C + dir A_Ni,   dw_i = A_iC dz_C + dir A_ii,
 * and the step s is the first of these to happen (strict minimum, scanned in this order):
 *     1  w_i reaches 0            s = -w_i / dw_i              i joins C, done
 *     3  z_i reaches hi_i (dir>0) s = hi_i - z_i               i joins N at hi, done
 *     2  z_i reaches lo_i (dir<0) s = z_i - lo_i               i joins N at lo, done
 *     4  a row k of N whose w_k moves towards 0 reaches it     k moves to C, keep driving
 *        (rows with lo = hi = 0 are never moved: their set C is a point)
 *     5/6 a row k of C reaches lo_k / hi_k                     k moves to N, keep driving
 * N and C are scanned in the order of their positions (below).  A step s <= 0 means the
 * pass cannot progress (A semi-definite with redundant rows, or rounding): ODE then zeroes
 * z and w of row i and of every row after it and stops; here that is the status
 * LCP_PARTIAL with info->row = row i (or, with on_degenerate = error, LCP_ERR_BREAKDOWN).
 *
 * ORDER OF THE ROWS (ODE's, which fixes the tie-breaks).  Rows are kept in a permutation p
 * with the positions [C | N | i | rows after i] contiguous; moving a row between sets swaps
 * two positions (rows and columns of the dense A, and every per-row array):
 *   - rows with lo = -inf, hi = +inf and no friction index are swapped to the front one by
 *     one (the unbounded block U): A_UU is factorised and z_U = A_UU^-1 (-q_U), w_U = 0;
 *     when every row is unbounded that is the whole solve (one factorisation, no pivots);
 *   - then, scanning from the last row down, each friction row (findex >= 0) is swapped to
 *     the last free position, so friction rows come last;
 *   - i joining C swaps with the first row of N; k moving from N to C swaps with the first
 *     row of N; k leaving C swaps with the last row of C and becomes the first row of N.
 * The factor's own row order is recorded separately (fac[j] = position of factor row j).
 *
 * FRICTION (Baraff's approximation, ODE's findex).  When the pass reaches the first friction
 * row every normal row has been solved with the friction rows at 0; the friction rows'
 * bounds are then set once, hi_k = |mu_k z_f(k)|, lo_k = -hi_k (both 0 when z_f = 0), and
 * stay frozen.  The answer is the exact solution of that frozen-bound problem, not of the
 * coupled one: the status is then LCP_NOT_SETTLED when the coupled residual is above the
 * bound.  `dantzig-rounds' repeats the pass (each from z = 0, as ODE) with the bounds taken
 * from the last answer until they change by at most 1e-12 max(1, max |bound|), or 50 passes.
 *
 * LINEAR ALGEBRA.  Dense: A (permuted, full symmetric, row-major) and the unit lower
 * triangular L with 1/D, L D L^T = A_CC in factor order.  A row joins C by appending one
 * row to L (the forward solve of the drive is reused); a row leaves C by deleting its row
 * and column of L and updating the trailing block with the rank-one term it leaves behind
 * (L_33 D_3 L_33^T + D_r l l^T, Gill, Golub, Murray and Saunders 1974, method C1) - the
 * factor is never recomputed.  The triangular solves run four rows of L at a time below
 * DZ_BLAS_TRSV rows (each row's sum in the one-row loop's order), OpenBLAS's from there on.
 * An appended pivot A_ii - ell.Dell that is exactly 0 is taken
 * with A_ii one ulp larger (ODE's guard against a zero denominator), or reported
 * (zero_pivot = report: |pivot| < 1e-14 |A_ii| gives LCP_ERR_BREAKDOWN naming the row).
 * The unbounded block's rows are appended two at a time while the factor is below
 * DZ_BLAS_MIN rows (dz_factor_pair: the forward solves of rows j and j + 1 in one loop over
 * L's rows, each sum in dz_dot_loop's order, so the factor's bits are those of one row at
 * a time; ODE factors two rows at a time too): a 20-row block took 1.7x ODE's time row by
 * row, its latency chains one dot after another.
 *
 * REFUSALS.  A not symmetric: LCP_ERR_NEEDS_SYMMETRIC.  lo_i > 0, hi_i < 0, or a friction
 * row with lo_i != -hi_i (friction ode or rounds): LCP_ERR_UNSUPPORTED with info->row = i.
 * The 2 m^2 doubles above min(4 GiB, half the RAM): LCP_ERR_TOO_LARGE.  ODE itself has no
 * guard against endless pivoting but s <= 0; here the drive steps of a pass are capped at
 * 10 m^2 + 100 (LCP_PIVOT_CAP, the rows from the driving row on zeroed as in a partial stop).
 *
 * STATUS.  LCP_OK when ||r||_inf <= 1e-10 max(1, ||q||_inf) on the coupled problem (the
 * harness residual); LCP_NOT_SETTLED when the pass completed but friction makes the coupled
 * residual larger; LCP_ERR_BREAKDOWN when a pass without friction completed above the bound
 * (rounding); LCP_PARTIAL, LCP_PIVOT_CAP as above; LCP_ERR_NONFINITE when z is not finite
 * (a singular A, where ODE's one-ulp nudge of a zero pivot overflows).
 *
 * COST.  Per drive step: the two triangular solves O(nC^2) and dw_N = A_NC dz_C O(nN nC);
 * per move into or out of C O(nC^2); the unbounded block O(nub^3 / 3).  At most a few steps
 * per row in practice, so O(m^3) time on contact problems; memory 2 m^2 doubles.
 * info: iterations = driving rows processed, pivots = set changes of drive steps (1-6),
 * factorizations = 1 per pass with an unbounded block, flops = sum of nC^2 per solve, append
 * and removal, 2 nN nC per dw_N, nub^3 / 3 for the block; work = pivots.
 */
#include "lcp_internal.h"
#include "dantzig.h"
#include "dantzig_loops.h"
#include "solvers.h"

#include <cblas.h>
#include <string.h>
#include <unistd.h>

#define DZ_DENSE_CAP ((double)4 * 1024 * 1024 * 1024) /* bytes of the two dense arrays */
#define DZ_SMALL ((double)64 * 1024 * 1024) /* below: the physical memory is not asked */
#define DZ_ACCEPT 1e-10      /* LCP_OK when ||r||_inf <= DZ_ACCEPT max(1, ||q||_inf) */
#define DZ_SETTLE 1e-12      /* rounds: bounds settled when they change by at most this */
#define DZ_PIVOT_TINY 1e-14  /* zero_pivot = report: |pivot| < this |A_ii| */

void dantzig_options_default(dantzig_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->friction = DANTZIG_FRICTION_ODE;
    o->on_degenerate = DANTZIG_DEGENERATE_ODE;
    o->zero_pivot = DANTZIG_PIVOT_NEXTAFTER;
    o->max_drive_steps = 0;
    o->max_rounds = 50;
    o->dense_cap = 0.0;
}

/* the state of one pass; every per-row array is indexed by position */
typedef struct dz {
    int m, ld;          /* rows; leading dimension of A and L */
    double *A;          /* m x ld: A permuted, full symmetric, row-major */
    double *L;          /* m x ld: unit lower triangular factor rows (factor order) */
    double *d;          /* m: 1 / D of the factor */
    int *fac;           /* m: fac[j] = position of factor row j */
    double *x, *w, *b, *lo, *hi; /* z, w, -q and the bounds at each position */
    int *p;             /* p[position] = original row */
    int *findex;        /* friction index (an original row) or -1 */
    unsigned char *hist; /* rows of N: 0 at lo, 1 at hi */
    double *dx, *dw;    /* drive directions (by position) */
    double *Dell, *ell, *tmp; /* the forward solve of A_iC, ell = D^-1 Dell, back-solve */
    double *lo0, *hi0, *wr; /* by original row: a round's bounds; w for the final residual */
    int nC, nN, nub;    /* sizes of C and N; the unbounded block */
    dantzig_zero_pivot zero_pivot;
    long pivots;
    double flops;
} dz;

static double dz_dense_limit(const dantzig_options *o, double need)
{
    if (o->dense_cap > 0.0) return o->dense_cap;
    double cap = DZ_DENSE_CAP;
    if (need <= DZ_SMALL) return cap;           /* no machine that runs us has less RAM */
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psize > 0 && 0.5 * (double)pages * (double)psize < cap)
        cap = 0.5 * (double)pages * (double)psize;
    return cap;
}

static void dz_free(dz *s)
{
    lcp_free(s->A);                                              /* the one block */
    memset(s, 0, sizeof *s);
}

/* every array of a solve in one block (one allocation: a solve of a few rows is not
 * dominated by twenty mallocs): A and L, fourteen arrays of doubles, three of ints, hist */
static lcp_status dz_alloc(dz *s, int m)
{
    size_t n = (size_t)(m > 0 ? m : 1), ld = (n + 7) & ~(size_t)7; /* 64-byte rows */
    memset(s, 0, sizeof *s);
    s->m = m;
    s->ld = (int)ld;
    size_t nd = 2 * n * ld + 14 * n;                             /* doubles */
    size_t bytes = nd * sizeof(double) + 3 * n * sizeof(int) + n;
    double *blk = lcp_malloc(bytes, 1);
    if (!blk) return LCP_ERR_NOMEM;
    double **dbl[] = {&s->d, &s->x, &s->w, &s->b, &s->lo, &s->hi, &s->dx, &s->dw, &s->Dell,
                      &s->ell, &s->tmp, &s->lo0, &s->hi0, &s->wr};
    s->A = blk;
    s->L = blk + n * ld;
    for (size_t k = 0; k < sizeof dbl / sizeof dbl[0]; k++) *dbl[k] = blk + 2 * n * ld + k * n;
    int *ints = (int *)(blk + nd);
    s->fac = ints;
    s->p = ints + n;
    s->findex = ints + 2 * n;
    s->hist = (unsigned char *)(ints + 3 * n);
    return LCP_OK;
}

/* ---- dense kernels: OpenBLAS from DZ_BLAS_MIN rows on (dot, axpy, gemv) and from
 * DZ_BLAS_TRSV rows on (the triangular solves), plain loops below.  OpenBLAS's fixed cost
 * per call, its buffer and its lock in dtrsv, is most of a solve of a few rows, and its
 * dtrsv took 1.7 to 4.0x the time of the four-row loops below at 16 to 128 rows (on an AMD
 * EPYC; parity near 512 rows).  The loops sum in their own order, so answers can differ
 * from the BLAS path in the last bits, as they differ between BLAS builds ------------- */
#define DZ_BLAS_MIN 32
#define DZ_BLAS_TRSV 512

/* a.b: OpenBLAS from DZ_BLAS_MIN terms on, the loop below */
static double dz_dot(int n, const double *a, const double *b)
{
    if (n >= DZ_BLAS_MIN) return cblas_ddot(n, a, 1, b, 1);
    return dz_dot_loop(n, a, b);
}

/* x := L^-1 x (trans 0) or L^-T x (trans 1), L unit lower triangular, row-major, n x n */
static void dz_trsv(int trans, int n, const double *L, int ld, double *x)
{
    if (n >= DZ_BLAS_TRSV) {
        cblas_dtrsv(CblasRowMajor, CblasLower, trans ? CblasTrans : CblasNoTrans, CblasUnit, n,
                    L, ld, x, 1);
        return;
    }
    if (!trans) dz_trsv_lower(n, L, ld, x);
    else dz_trsv_upper(n, L, ld, x);
}

/* y += alpha x */
static void dz_axpy(int n, double alpha, const double *x, double *y)
{
    if (n >= DZ_BLAS_MIN) {
        cblas_daxpy(n, alpha, x, 1, y, 1);
        return;
    }
    for (int k = 0; k < n; k++) y[k] += alpha * x[k];
}

/* y += A x (A: rows x cols, row-major, leading dimension ld) */
static void dz_gemv(int rows, int cols, const double *A, int ld, const double *x, double *y)
{
    if (rows >= DZ_BLAS_MIN || cols >= DZ_BLAS_MIN) {
        cblas_dgemv(CblasRowMajor, CblasNoTrans, rows, cols, 1.0, A, ld, x, 1, 1.0, y, 1);
        return;
    }
    for (int i = 0; i < rows; i++) y[i] += dz_dot(cols, A + (size_t)i * (size_t)ld, x);
}

#define ROW(s, i) ((s)->A + (size_t)(i) * (size_t)(s)->ld)
#define LROW(s, j) ((s)->L + (size_t)(j) * (size_t)(s)->ld)

/* a fresh pass: A and b in the original order, z = 0, bounds lo, hi (per original row) */
static void dz_load(dz *s, const lcp_problem *P, const double *lo, const double *hi)
{
    int m = s->m;
    for (int i = 0; i < m; i++) {
        double *r = ROW(s, i);
        memset(r, 0, (size_t)m * sizeof(double));
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) r[P->A.j[k]] += P->A.x[k];
        s->x[i] = 0.0;
        s->w[i] = 0.0;
        s->b[i] = -P->q[i];                                     /* A x = b + w */
        s->lo[i] = lo[i];
        s->hi[i] = hi[i];
        s->p[i] = i;
        s->findex[i] = P->findex ? P->findex[i] : -1;
        s->hist[i] = 0;
    }
    s->nC = s->nN = s->nub = 0;
}

/* exchange positions i1 and i2: rows and columns of A, and every per-row array */
static void dz_swap(dz *s, int i1, int i2)
{
    if (i1 == i2) return;
    double *r1 = ROW(s, i1), *r2 = ROW(s, i2);
    for (int k = 0; k < s->m; k++) {                             /* rows */
        double t = r1[k];
        r1[k] = r2[k];
        r2[k] = t;
    }
    for (int k = 0; k < s->m; k++) {                             /* columns */
        double *r = ROW(s, k), t = r[i1];
        r[i1] = r[i2];
        r[i2] = t;
    }
#define SWAP(T, a) do { T t_ = (a)[i1]; (a)[i1] = (a)[i2]; (a)[i2] = t_; } while (0)
    SWAP(double, s->x);
    SWAP(double, s->w);
    SWAP(double, s->b);
    SWAP(double, s->lo);
    SWAP(double, s->hi);
    SWAP(int, s->p);
    SWAP(int, s->findex);
    SWAP(unsigned char, s->hist);
#undef SWAP
}

/* Dell = L^-1 A(i, C) in factor order, ell = D^-1 Dell: the forward half of a solve with
 * A_CC, and the new factor row should i join C */
static void dz_forward(dz *s, int i)
{
    int nC = s->nC;
    const double *Ai = ROW(s, i);
    for (int j = 0; j < nC; j++) s->Dell[j] = Ai[s->fac[j]];
    if (nC > 0)
        dz_trsv(0, nC, s->L, s->ld, s->Dell);             /* L Dell = A_Ci */
    for (int j = 0; j < nC; j++) s->ell[j] = s->Dell[j] * s->d[j]; /* ell = D^-1 Dell */
    s->flops += (double)nC * nC;
}

/* dx_C = -dir A_CC^-1 A_Ci (by position), after dz_forward(i) */
static void dz_back(dz *s, int dir)
{
    int nC = s->nC;
    memcpy(s->tmp, s->ell, (size_t)nC * sizeof(double));
    if (nC > 0)
        dz_trsv(1, nC, s->L, s->ld, s->tmp);              /* L^T tmp = ell */
    double sg = dir > 0 ? -1.0 : 1.0;
    for (int j = 0; j < nC; j++) s->dx[s->fac[j]] = sg * s->tmp[j];
    s->flops += (double)nC * nC;
}

/* the pivot D of a new factor row, 1 / (A_ii - ell.Dell), into *d: reported when tiny
 * (zero_pivot = report), else ODE's guard against an exact 0 (A_ii one ulp larger) */
static inline lcp_status dz_pivot(const dz *s, double aii, double dot, double *d)
{
    double piv = aii - dot;
    if (s->zero_pivot == DANTZIG_PIVOT_REPORT) {
        if (!(fabs(piv) >= DZ_PIVOT_TINY * fabs(aii))) return LCP_ERR_BREAKDOWN;
    } else if (piv == 0.0) {
        piv = nextafter(aii, INFINITY) - dot;                    /* ODE's zero-pivot guard */
    }
    *d = 1.0 / piv;
    return LCP_OK;
}

/* The row at position i (after dz_forward(i)) becomes factor row nC: L(nC, :) = ell,
 * D = A_ii - ell.Dell.  Then i is swapped to position nC and C grows by one. */
static lcp_status dz_append(dz *s, int i)
{
    int nC = s->nC;
    double aii = ROW(s, i)[i];
    double *Lr = LROW(s, nC);
    memcpy(Lr, s->ell, (size_t)nC * sizeof(double));
    double dot = nC >= DZ_BLAS_MIN ? dz_dot(nC, s->ell, s->Dell)
                                   : dz_dot_loop(nC, s->ell, s->Dell);  /* inlined */
    if (dz_pivot(s, aii, dot, &s->d[nC]) != LCP_OK) return LCP_ERR_BREAKDOWN;   /* D_new */
    s->flops += nC;
    dz_swap(s, nC, i);
    s->fac[nC] = nC;
    s->nC = nC + 1;
    return LCP_OK;
}

/* Delete factor row r (of n) and its column from L D L^T, updating the trailing block with
 * the term the row leaves behind, L3 D3 L3^T + D_r l l^T (l = L(r+1:n, r)), by the rank-one
 * LDL^T update (Gill, Golub, Murray, Saunders 1974, method C1), row by row; each updated
 * row is moved up one place as it is finished.  O((n - r)^2). */
static void dz_remove_factor_row(dz *s, int r, int n)
{
    double alpha = 1.0 / s->d[r];                                /* D_r */
    double *pv = s->tmp, *beta = s->ell;                         /* free during removal */
    for (int a = 0; r + 1 + a < n; a++) {
        int k = r + 1 + a;
        double *row = LROW(s, k), *dst = LROW(s, k - 1);
        double v = row[r];                                       /* l_k */
        double *t = row + r + 1;                                 /* L(k, r+1 .. k-1) */
        for (int c = 0; c < a; c++) {
            v -= pv[c] * t[c];                                   /* z_k -= p_c l_kc */
            t[c] += beta[c] * v;                                 /* l_kc += beta_c z_k */
        }
        double Dk = 1.0 / s->d[k], Dbar = Dk + alpha * v * v;    /* D_k + alpha p^2 */
        beta[a] = v * alpha / Dbar;
        alpha = Dk * alpha / Dbar;
        pv[a] = v;
        memmove(dst, row, (size_t)r * sizeof(double));           /* columns before r */
        memmove(dst + r, t, (size_t)a * sizeof(double));         /* columns after r */
        s->d[k - 1] = 1.0 / Dbar;
    }
    s->flops += (double)(n - r) * (n - r);
}

/* the row at position k leaves C for N (its bound and state already set) */
static void dz_leave_C(dz *s, int k)
{
    int nC = s->nC, j = 0;
    while (j < nC && s->fac[j] != k) j++;
    dz_remove_factor_row(s, j, nC);
    for (int t = 0; t < nC; t++)
        if (s->fac[t] == nC - 1) s->fac[t] = k;                   /* the row swapped into k */
    memmove(s->fac + j, s->fac + j + 1, (size_t)(nC - 1 - j) * sizeof(int));
    dz_swap(s, k, nC - 1);                                       /* k: first row of N */
    s->nC = nC - 1;
    s->nN++;
}

/* the row at position k (in N) joins C */
static lcp_status dz_join_C(dz *s, int k)
{
    dz_forward(s, k);
    lcp_status st = dz_append(s, k);                             /* swaps k with N's first */
    if (st == LCP_OK) s->nN--;
    return st;
}

/* Factor rows j and j + 1 of the unbounded block (positions = factor rows, j + 1 below
 * DZ_BLAS_MIN): what dz_forward and dz_append do for row j and then for row j + 1, with the
 * same sums in the same order (so the same bits), but the two forward solves in one loop
 * over L's rows 1 .. j - 1 (row j + 1's solve needs L's row j only for its last entry).
 * A zero pivot reported names the row in *row. */
static lcp_status dz_factor_pair(dz *s, int j, int *row)
{
    double *x = s->Dell, *y = s->tmp, *La = LROW(s, j), *Lb = LROW(s, j + 1), *d = s->d;
    const double *Aa = ROW(s, j), *Ab = ROW(s, j + 1);
    memcpy(x, Aa, (size_t)j * sizeof(double));
    memcpy(y, Ab, (size_t)(j + 1) * sizeof(double));
    for (int r = 1; r < j; r++) {                                /* L x = A_Ca, L y = A_Cb */
        double ax, ay;
        dz_dot2_loop(r, LROW(s, r), x, y, &ax, &ay);
        x[r] -= ax;
        y[r] -= ay;
    }
    for (int k = 0; k < j; k++) La[k] = x[k] * d[k];             /* ell = D^-1 Dell */
    s->flops += (double)j * j;
    if (dz_pivot(s, Aa[j], dz_dot_loop(j, La, x), &d[j]) != LCP_OK) {
        *row = j;
        return LCP_ERR_BREAKDOWN;
    }
    s->flops += j;
    s->fac[j] = j;
    s->nC = j + 1;
    if (j > 0) y[j] -= dz_dot_loop(j, La, y);
    for (int k = 0; k <= j; k++) Lb[k] = y[k] * d[k];
    s->flops += (double)(j + 1) * (j + 1);
    if (dz_pivot(s, Ab[j + 1], dz_dot_loop(j + 1, Lb, y), &d[j + 1]) != LCP_OK) {
        *row = j + 1;
        return LCP_ERR_BREAKDOWN;
    }
    s->flops += j + 1;
    s->fac[j + 1] = j + 1;
    s->nC = j + 2;
    return LCP_OK;
}

/* unbounded rows to the front, their block factorised and solved; friction rows last.
 * A zero pivot reported (zero_pivot = report) names its position in *row. */
static lcp_status dz_setup(dz *s, int *row)
{
    int m = s->m;
    for (int k = 0; k < m; k++)
        if (s->findex[k] < 0 && s->lo[k] == -INFINITY && s->hi[k] == INFINITY)
            dz_swap(s, s->nub++, k);
    int j0 = 0;                                                  /* A_UU = L D L^T by rows */
    for (; j0 + 1 < s->nub && j0 + 1 < DZ_BLAS_MIN; j0 += 2) {   /* two at a time */
        lcp_status st = dz_factor_pair(s, j0, row);
        if (st != LCP_OK) return st;
    }
    for (int j = j0; j < s->nub; j++) {                          /* one at a time */
        dz_forward(s, j);
        lcp_status st = dz_append(s, j);
        if (st != LCP_OK) {
            *row = j;
            return st;
        }
    }
    if (s->nub > 0) {                                            /* x_U = A_UU^-1 b_U */
        int n = s->nub;
        memcpy(s->x, s->b, (size_t)n * sizeof(double));
        dz_trsv(0, n, s->L, s->ld, s->x);
        for (int j = 0; j < n; j++) s->x[j] *= s->d[j];
        dz_trsv(1, n, s->L, s->ld, s->x);
    }
    int at_end = 0;                                              /* friction rows last */
    for (int k = m - 1; k >= s->nub; k--)
        if (s->findex[k] >= 0) dz_swap(s, k, m - 1 - at_end++);
    return LCP_OK;
}

/* friction bounds from the current z, frozen for the rest of the pass (rows k >= i) */
static void dz_freeze(dz *s, int i)
{
    double *zo = s->dw;                                          /* free between drives */
    for (int j = 0; j < s->m; j++) zo[s->p[j]] = s->x[j];
    for (int k = i; k < s->m; k++) {
        if (s->findex[k] < 0) continue;
        double zf = zo[s->findex[k]];
        s->hi[k] = zf == 0.0 ? 0.0 : fabs(s->hi[k] * zf);
        s->lo[k] = -s->hi[k];
    }
}

enum { DZ_DONE = 0, DZ_PARTIAL, DZ_CAP, DZ_FAIL };

/* One pass over the rows from nub on.  Returns DZ_DONE, DZ_PARTIAL (s <= 0), DZ_CAP
 * (guard) with *row the driving position, or DZ_FAIL with *st the error. */
static int dz_pass(dz *s, int freeze, long cap, long *steps, int *row, lcp_status *st,
                   lcp_info *info)
{
    int m = s->m, frozen = 0;
    for (int i = s->nub; i < m; i++) {
        info->iterations++;
        if (freeze && !frozen && s->findex[i] >= 0) {
            dz_freeze(s, i);
            frozen = 1;
        }
        double *Ai = ROW(s, i), *x = s->x, *w = s->w;
        int nC = s->nC, nN = s->nN;
        w[i] = dz_dot(nC + nN, Ai, x) - s->b[i];
        if (s->lo[i] == 0.0 && w[i] >= 0.0) {                    /* valid at lo */
            s->hist[i] = 0;
            s->nN++;
            continue;
        }
        if (s->hi[i] == 0.0 && w[i] <= 0.0) {                    /* valid at hi */
            s->hist[i] = 1;
            s->nN++;
            continue;
        }
        if (w[i] == 0.0) {                                       /* valid inside */
            dz_forward(s, i);
            if ((*st = dz_append(s, i)) != LCP_OK) {
                *row = i;
                return DZ_FAIL;
            }
            continue;
        }
        for (;;) {                                               /* drive x_i */
            if (++*steps > cap) {
                *row = i;
                return DZ_CAP;
            }
            nC = s->nC;
            nN = s->nN;
            int dir = w[i] <= 0.0 ? 1 : -1;
            double dirf = dir;
            double *dx = s->dx, *dw = s->dw, *lo = s->lo, *hi = s->hi;
            dz_forward(s, i);
            dz_back(s, dir);                                     /* dx_C = -dir A_CC^-1 A_Ci */
            for (int k = nC; k < nC + nN; k++) dw[k] = dirf * Ai[k]; /* dir A_Ni */
            if (nN > 0 && nC > 0)                                /* + A_NC dx_C */
                dz_gemv(nN, nC, ROW(s, nC), s->ld, dx, dw + nC);
            s->flops += 2.0 * nN * nC;
            double dwi = dz_dot(nC, Ai, dx) + Ai[i] * dirf;
            /* the ratio test: first strict minimum in ODE's order */
            int cmd = 1, si = i;
            double st1 = -w[i] / dwi;                            /* 1: w_i -> 0 */
            if (dir > 0) {
                if (hi[i] < INFINITY && hi[i] - x[i] < st1) {    /* 3: x_i -> hi_i */
                    st1 = hi[i] - x[i];
                    cmd = 3;
                }
            } else if (lo[i] > -INFINITY && x[i] - lo[i] < st1) { /* 2: x_i -> lo_i */
                st1 = x[i] - lo[i];
                cmd = 2;
            }
            for (int k = nC; k < nC + nN; k++) {                 /* 4: N -> C */
                if (!(s->hist[k] ? dw[k] > 0.0 : dw[k] < 0.0)) continue;
                if (lo[k] == 0.0 && hi[k] == 0.0) continue;
                double s2 = -w[k] / dw[k];
                if (s2 < st1) {
                    st1 = s2;
                    cmd = 4;
                    si = k;
                }
            }
            for (int k = s->nub; k < nC; k++) {                  /* 5, 6: C -> N */
                if (dx[k] < 0.0 && lo[k] > -INFINITY) {
                    double s2 = (lo[k] - x[k]) / dx[k];
                    if (s2 < st1) {
                        st1 = s2;
                        cmd = 5;
                        si = k;
                    }
                }
                if (dx[k] > 0.0 && hi[k] < INFINITY) {
                    double s2 = (hi[k] - x[k]) / dx[k];
                    if (s2 < st1) {
                        st1 = s2;
                        cmd = 6;
                        si = k;
                    }
                }
            }
            if (st1 <= 0.0) {                                    /* no progress: stop */
                *row = i;
                return DZ_PARTIAL;
            }
            if (nC > 0) dz_axpy(nC, st1, dx, x);       /* x_C += s dx_C */
            x[i] += st1 * dirf;
            if (nN > 0) dz_axpy(nN, st1, dw + nC, w + nC); /* w_N += s dw_N */
            w[i] += st1 * dwi;
            s->pivots++;
            switch (cmd) {
            case 1:                                              /* i joins C */
                w[i] = 0.0;
                *st = dz_append(s, i);                           /* reuses this forward solve */
                break;
            case 2:
            case 3:                                              /* i joins N */
                x[i] = cmd == 2 ? lo[i] : hi[i];
                s->hist[i] = cmd == 3;
                s->nN++;
                break;
            case 4:                                              /* si: N -> C */
                w[si] = 0.0;
                *st = dz_join_C(s, si);
                break;
            default:                                             /* si: C -> N */
                x[si] = cmd == 5 ? lo[si] : hi[si];
                s->hist[si] = cmd == 6;
                dz_leave_C(s, si);
                break;
            }
            if (*st != LCP_OK) {
                *row = cmd == 1 ? i : si;                        /* the row appended */
                return DZ_FAIL;
            }
            if (cmd <= 3) break;
        }
    }
    return DZ_DONE;
}

/* the refusals; LCP_OK or the status, with *row */
static lcp_status dz_check(const lcp_problem *P, const dantzig_options *o, int *row)
{
    if (!P->symmetric) return LCP_ERR_NEEDS_SYMMETRIC;
    for (int i = 0; i < P->m; i++) {
        int fr = P->findex && P->findex[i] >= 0;
        if (P->lo[i] > 0.0 || P->hi[i] < 0.0 ||
            (fr && o->friction != DANTZIG_FRICTION_FIXED && P->lo[i] != -P->hi[i])) {
            *row = i;
            return LCP_ERR_UNSUPPORTED;
        }
    }
    if (2.0 * (double)P->m * (double)P->m * sizeof(double) >
        dz_dense_limit(o, 2.0 * (double)P->m * (double)P->m * sizeof(double)))
        return LCP_ERR_TOO_LARGE;
    return LCP_OK;
}

lcp_status lcp_dantzig(const lcp_problem *P, const lcp_options *opt, const dantzig_options *dopt,
                       double *z, lcp_info *info, dantzig_out *out)
{
    if (!P || !opt || !z || !info || P->m < 0) return LCP_ERR_ARG;
    lcp_info_init(info);
    info->form = LCP_FORM_ASSEMBLED;
    dantzig_options o;
    if (dopt) o = *dopt;
    else dantzig_options_default(&o);
    int m = P->m, row = -1, has_fr = 0;
    for (int i = 0; P->findex && i < m; i++) has_fr |= P->findex[i] >= 0;
    lcp_status st = o.max_rounds < 1 || o.max_drive_steps < 0 ? LCP_ERR_ARG : LCP_OK;
    if (st == LCP_OK) st = dz_check(P, &o, &row);
    dz s;
    memset(&s, 0, sizeof s);
    double *lo = NULL, *hi = NULL;
    if (st == LCP_OK) st = dz_alloc(&s, m);
    if (st == LCP_OK) {
        lo = s.lo0;
        hi = s.hi0;
    }
    long cap = o.max_drive_steps > 0 ? o.max_drive_steps
               : opt->max_pivots > 0 ? opt->max_pivots : 10L * m * m + 100;
    int rounds = 0, end = DZ_DONE, settled = 1;
    s.zero_pivot = o.zero_pivot;
    if (st == LCP_OK) {
        memcpy(lo, P->lo, (size_t)m * sizeof(double));
        memcpy(hi, P->hi, (size_t)m * sizeof(double));
    }
    while (st == LCP_OK) {                                       /* one pass per round */
        int freeze = has_fr && o.friction != DANTZIG_FRICTION_FIXED && rounds == 0;
        long steps = 0;
        int prow = -1;
        rounds++;
        dz_load(&s, P, lo, hi);
        st = dz_setup(&s, &prow);
        if (st == LCP_OK && s.nub > 0) info->factorizations++;
        if (st == LCP_OK) end = dz_pass(&s, freeze, cap, &steps, &prow, &st, info);
        if (prow >= 0) row = s.p[prow];
        if ((end == DZ_PARTIAL || end == DZ_CAP) && prow >= 0)
            for (int k = prow; k < m; k++) s.x[k] = s.w[k] = 0.0; /* rows not reached */
        for (int j = 0; j < m; j++) z[s.p[j]] = s.x[j];          /* un-permute */
        if (st != LCP_OK || end != DZ_DONE) break;
        if (!has_fr || o.friction != DANTZIG_FRICTION_ROUNDS) break;
        /* rounds: bounds from this answer; settled when they moved by at most 1e-12 */
        double change = 0.0, big = 1.0;
        for (int j = 0; j < m; j++) {
            int k = s.p[j];
            if (P->findex[k] < 0) continue;
            double h = fabs(P->hi[k] * z[P->findex[k]]);
            if (z[P->findex[k]] == 0.0) h = 0.0;
            change = fmax(change, fabs(h - s.hi[j]));
            big = fmax(big, h);
            hi[k] = h;
            lo[k] = -h;
        }
        settled = change <= DZ_SETTLE * big;
        if (settled || rounds >= o.max_rounds) break;
    }
    if (out && s.p && (st == LCP_OK || end != DZ_DONE)) {
        for (int j = 0; j < m; j++) {
            int k = s.p[j];
            if (out->w) out->w[k] = s.w[j];
            if (out->lo) out->lo[k] = s.lo[j];
            if (out->hi) out->hi[k] = s.hi[j];
            if (out->set)
                out->set[k] = j < s.nC ? 'C' : j < s.nC + s.nN ? (s.hist[j] ? 'H' : 'L') : 'R';
        }
    }
    if (out) {
        out->rounds = rounds;
        out->nub = s.nub;
    }
    if (st == LCP_OK && end == DZ_PARTIAL)
        st = o.on_degenerate == DANTZIG_DEGENERATE_ERROR ? LCP_ERR_BREAKDOWN : LCP_PARTIAL;
    else if (st == LCP_OK && end == DZ_CAP) st = LCP_PIVOT_CAP;
    info->pivots = s.pivots;
    info->work = (double)s.pivots;
    info->flops = s.flops;
    info->row = row;
    for (int i = 0; st >= 0 && i < m; i++)
        if (!isfinite(z[i])) st = LCP_ERR_NONFINITE;            /* e.g. a pivot nudged off 0 */
    if (st >= 0 || st == LCP_ERR_BREAKDOWN) {
        double *w = s.wr;
        if (w) {
            lcp_residuals R;
            lcp_residual(P, z, w, &R);
            info->residual = R.r2;
            info->residual_inf = R.rinf;
            double qn = 0.0;
            for (int i = 0; i < m; i++) qn = fmax(qn, fabs(P->q[i]));
            int good = R.rinf <= DZ_ACCEPT * fmax(1.0, qn);
            if (st >= 0 && !(isfinite(R.r2) && isfinite(R.rinf)))
                st = LCP_ERR_NONFINITE;     /* z finite but so large that w = A z + q overflows */
            else if (st == LCP_OK && !good) st = has_fr ? LCP_NOT_SETTLED : LCP_ERR_BREAKDOWN;
            else if (st == LCP_OK && !settled) st = LCP_NOT_SETTLED;
        } else if (st >= 0) {
            st = LCP_ERR_NOMEM;
        }
    }
    dz_free(&s);
    info->status = st;
    return st;
}

/* ---- the registered entries ------------------------------------------------------------ */

lcp_status lcp_solve_dantzig(const lcp_problem *P, const lcp_options *opt, double *z,
                             lcp_info *info)
{
    return lcp_dantzig(P, opt, NULL, z, info, NULL);
}

lcp_status lcp_solve_dantzig_rounds(const lcp_problem *P, const lcp_options *opt, double *z,
                                    lcp_info *info)
{
    dantzig_options o;
    dantzig_options_default(&o);
    o.friction = DANTZIG_FRICTION_ROUNDS;
    return lcp_dantzig(P, opt, &o, z, info, NULL);
}
