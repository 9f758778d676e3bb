/* ldlt_ref.c: `ldlt-ref', the exact pivoting reference of lcpbench (the oracle).
 *
 * COMPUTES.  z with  w = A z + q,  lo <= z <= hi,  z_i = lo_i => w_i >= 0,
 * z_i = hi_i => w_i <= 0,  lo_i < z_i < hi_i => w_i = 0,  for symmetric positive
 * (semi-)definite A, exactly up to rounding; with friction coupling (findex) the bounds of
 * row i are lo_i |z_f|, hi_i |z_f|, f = findex[i].
 *
 * METHOD (principal pivoting on index sets).  Every row is in one of three sets: free
 * (F: w_i = 0), at its lower bound (z_i = lo_i) or at its upper bound (z_i = hi_i).  For a
 * partition the free unknowns solve
 *     A_FF z_F = -(q_F + A_FB z_B)                                          (1)
 * by a factorisation of A_FF (ref_cholmod.c: sparse LDL^T, or ref_dense.c: dense
 * Cholesky), followed by iterative refinement (at least one step, more while it halves
 * the residual of (1)).  Then w = A z + q and the violators are
 *     free i with z_i < lo_i or z_i > hi_i,   lower i with w_i < 0,   upper i with w_i > 0
 * (with tolerances 1e-13 max(1, |bound|) in z and 1e-13 max(1, ||q||_inf) in w; rows with
 * lo_i = hi_i are fixed).  No violator: the partition is the solution.
 *   Block step (Judice & Pires): move every violator to the set it asks for (free below lo
 * -> lower, above hi -> upper, bound with the wrong sign of w -> free).  Keep the smallest
 * number of violators seen; a block step that does not lower it is allowed only
 * REF_JP_COUNT (3) times in a row.
 *   Newton steps (when block steps stop making progress; boxes with many rows at both
 * bounds, as with friction, are where they do).  The boxed problem with symmetric A is the
 * convex quadratic program  min f(z) = 1/2 z^T A z + q^T z  over the box.  From the current
 * z projected into the box, projected Newton steps (Bertsekas 1982): the partition is read
 * off the eps-active set, its solution is the Newton point; if it has no violator it is the
 * answer, else z moves along the projection arc with an Armijo decrease of f.  f decreases
 * strictly, so these steps cannot cycle.
 *   Single step (Murty): if the arc search finds no decrease, move only the violator of
 * least index.  Murty's least-index rule is finite for P-matrices (positive definite A).
 *   Interior-point start (ref_ipm; piles): on a large pile block steps from the cold
 * partition neither settle nor stall for tens of steps (A_FF ill conditioned, A far from an
 * M-matrix), and projected Newton steps move a few rows each.  So once a block step leaves
 * more than REF_IPM_VIOL violators and more than half of those three block steps earlier,
 * a primal-dual interior-point method (Mehrotra predictor-corrector on the box QP below,
 * about 10-20 factorisations of A + diag on one fixed pattern) is run until mu has fallen
 * by 1e-10, and block steps resume from the partition it implies (a row is at a bound when
 * its barrier term exceeds A_ii).  At most once a solve; it only chooses a start, the
 * answer is still the solution of a pivoted partition, so the exactness and the statuses
 * below are unchanged.  A captured 10760-row frictionless sphere pile: 154 steps and 33 s
 * without it, 25 steps and 3.4 s with it.
 *   Start: opt->warm: the sets read off z (z_i <= lo_i: lower, >= hi_i: upper, else free);
 * otherwise every row at its lower bound (upper when lo_i = -inf, free when both bounds are
 * infinite), the classical start of block pivoting.
 *   Friction coupling: freeze the bounds of friction rows at the current normal impulses,
 * solve the boxed problem (warm from the previous partition), update the bounds, repeat
 * until max |bound change| <= 1e-12 max(1, max |bound|), or 500 rounds (LCP_NOT_SETTLED,
 * usable).  The update is damped when the change grows (bounds += theta (new - old), theta
 * halved down to 1/4: the plain iteration oscillates on piles; the fixed point is the
 * same).  A round that keeps the free set reuses the factor (one solve, no factorisation).
 * The coupled problem is not an LCP; the residual reported is that of the coupled problem,
 * computed by lcp_residual.
 *   Coupled pivoting (ref_coupled).  Once the rounds keep their partition, what is left is
 * a linear fixed-point iteration that converges only linearly (on the 200-sphere pile about
 * 450 rounds to 1e-12).  So once REF_CPL_HELD rounds in a row kept the partition, the
 * coupling is solved inside the pivoting: sliding rows tied to their normal impulses, a
 * non-symmetric system solved by GMRES preconditioned with the LDL^T factor of A_FF, with
 * block steps (halved down to single steps when they do not lower the violators) for at
 * most REF_CPL_STEPS partitions and REF_CPL_TRIES tries a solve.  A try is given up at once
 * when its first partition leaves more than REF_IPM_VIOL violators or GMRES does not
 * converge, and then leaves z, the partition and the bounds as they were.  When it finds a
 * partition without violator, the coupled problem is solved to rounding (1e-16 to 1e-14
 * on the scene instances instead of 1e-12); otherwise the rounds go on.
 *   Semismooth Newton (ref_ssn; rounds that do not settle).  On large piles the rounds
 * cycle: a few rows switch between sticking and sliding every round, no round keeps its
 * partition, and coupled block steps from the cycling partition diverge.  So after
 * REF_SSN_ROUND rounds without settling, and again every REF_SSN_GAP rounds (at most
 * REF_SSN_TRIES tries), Newton steps on the coupled problem itself: the natural map
 * F_i(z) = z_i - mid(lo_i(z), z_i - w_i / A_ii, hi_i(z)) is piecewise linear, and its
 * Newton point is the solution of the coupled partition z shows (free rows w_i = 0, bound
 * rows z_i = c_i z_f), the non-symmetric system of coupled pivoting, here solved by a
 * sparse LU (KLU, ref_klu.c: GMRES preconditioned with A_FF stagnated on these partitions,
 * which have hundreds of sliding rows).  A Newton point without violator is the answer;
 * otherwise an Armijo line search on 1/2 ||F||^2 (and, with few violators, the block step
 * from the Newton point when it lowers ||F||), which the undamped coupled block steps
 * lacked.  A try ends after REF_SSN_CRAWL steps in a row shorter than 1/50, or when no
 * step lowers ||F||; when its last iterate has a smaller coupled residual than the round
 * it started from, the rounds go on from it (a new start, not the cycle it left), else
 * from where they were; after REF_SSN_IDLE tries in a row that end no better, no more
 * tries (on a 19908-row pile whose tries all stall, restarting from each stalled iterate
 * ended at 1.6e-3 in 577 s of CPU, against 5.3e-4 in 209 s now).  The answer is again the exact solution of a pivoted partition, checked
 * as below.  A captured 10626-row pile (1300 spheres, mu 0.5): 500 rounds and
 * `friction-not-settled' (residual 3.5e-3) without it; with it `converged' (2e-15) after
 * 25 rounds and 41 Newton steps, 28 to 32 s of CPU against 33 to 37.  Not a guarantee: a
 * Newton try can stall at a point where a row has no consistent state while the rest of
 * the partition is held (the coupled matrix is not a P-matrix: its effective pivot on the
 * row is negative); started after round 10 instead of 20, eight tries on that pile all
 * stalled so.  Rows moved by Newton steps are reported in info->pivots but not counted
 * against the pivot cap (a try is bounded by REF_SSN_STEPS).  Such a run still ends with an honest status.
 *
 * SYMMETRIC TO ROUNDING.  A assembled in floating point (J^T M^-1 J) is often symmetric
 * only to rounding.  When its relative asymmetry  max|A - A^T| / max|A|  is at most
 * opt->sym_tol (default 1e-12; reported in info->asymmetry), the backend factors the
 * symmetric part  As = (A + A^T) / 2  while every w (the refinement's residual, the
 * violators, the final check) is computed with A itself: the factor of As_FF is then a
 * preconditioner of A_FF for the refinement, which converges at the rate
 * ||As_FF^-1 (A - As)_FF|| (cond(A_FF) times the asymmetry), so the answer is that of A.
 * Above the tolerance (or with ref_options.backend REF_LEMKE: the registered `lemke-ref')
 * each round's boxed problem is solved by Lemke's method instead (lemke_ref.c: dense, any
 * A, the box by the standard reformulation; no factorisation, no coupled pivoting), inside
 * the same friction rounds and the same final check; a ray gives LCP_ERR_NO_SOLUTION and a
 * reformulated size beyond LEMKE_MAX_N LCP_ERR_TOO_LARGE.
 *
 * SEMI-DEFINITE A.  Redundant contacts make A_FF singular; LDL^T then shows a pivot
 * d_k ~ rounding (or negative), and (1) may have no solution.  Every factorisation's pivots
 * are checked: d_k <= 1e-10 A_kk marks a dependent row.  From then on the method solves the
 * boxed problem by proximal point steps (Rockafellar 1976):
 *     z+ = the solution of LCP(A + eps D, q - eps D zc),   zc <- z+,   D = diag(A),
 * starting from zc = 0.  Each step is a positive definite problem, pivoted exactly as above
 * (warm from the previous partition).  For a monotone LCP with a solution the steps
 * converge to a solution (the part of z in the null space of A stays near the centre, the
 * rest converges at the rate eps / (lambda + eps)); eps starts at 1e-3 (well conditioned
 * steps, no runaway partitions) and drops tenfold, down to 1e-9, after every step that
 * needed no pivot.  Stop when the centre stops moving or the unregularised residual is at
 * rounding level (at most 100 steps a boxed problem).  w, unique for semi-definite A, is
 * then exact.  With friction every round is a new boxed problem: eps goes back to 1e-3 at
 * its start (a round solved with the 1e-9 of the previous one has A_FF conditioned like A
 * itself; on a pool captured with eps = 0 block steps then failed and projected Newton
 * steps crawled until the pivot cap, residual 1e5), and coupled pivoting runs with the
 * shifted factor A_FF + eps D as GMRES's preconditioner (the shift subtracted in the
 * operator, so the coupled system solved is the unshifted one).  If
 * the unshifted A_FF of the final partition has a dependent pivot, z is not unique:
 * LCP_NONUNIQUE.  A zero pivot even with the shift (a zero row: no solution when it is
 * violated) gives LCP_ERR_SINGULAR, a negative one (A indefinite) LCP_ERR_BREAKDOWN.
 *
 * HONESTY.  The final partition is refined until its residual stops falling (ref_polish:
 * z_F += S^-1 (-w_F) with the factor held, w unshifted, at most REF_POLISH steps; with Lemke
 * and friction the coupled partition is solved once more by a dense LU, ref_coupled_dense).
 * The final residual is computed with lcp_residual (the library's one residual): LCP_OK or
 * LCP_NONUNIQUE only when it is at rounding row by row,
 *     |r_i| <= REF_ROUND eps ((|A||z|)_i + |q_i|)   for every i,  REF_ROUND = 16,
 * (eps = DBL_EPSILON: 16 eps bounds the rounding of the products and sums of a row with a
 * few tens of entries and leaves room for the refinement's last step; the committed
 * instances end at 0.2 to 1.1 eps).  Otherwise LCP_PIVOT_CAP (cap on moved indices:
 * opt->max_pivots when the caller set it), LCP_NOT_SETTLED (coupling) or LCP_UNDECIDED,
 * with info->row (the row furthest from rounding), after the other routes were tried:
 * PGS from the best iterate then semismooth Newton on the problem as given (ref_rescue);
 * without friction Lemke's method, a ray counting only as a checked Farkas certificate
 * (LCP_ERR_NO_SOLUTION, info->certificate), an uncertified one on at most 16 unknowns
 * answered by enumeration.  Violators are rows off by more than REF_VIOL eps of their own
 * rounding scale s_i (an absolute tolerance let rows of small scale pass the pivoting and
 * fail this check).  info->route names the route that answered.  A usable (positive) status never returns a z worse (||r||_inf)
 * than the start: the best of the start, each friction round's z and the final z is
 * returned; a final residual that is not finite (z or w overflowed) is never handed back as
 * usable: LCP_ERR_NONFINITE.  Non-symmetric A (above opt->sym_tol): Lemke's method, as
 * above.  Non-finite data (q, A, bounds, warm start): LCP_ERR_FORMAT with the row.
 *
 * COST.  One factorisation of A_FF per pivot step (no updates: CHOLMOD's Modify module is
 * GPL; large ones supernodal, ref_super.c) and per interior-point iteration, plus a few
 * solves and products with A (and in coupled pivoting one solve per GMRES iteration, tens
 * a step).  A semismooth Newton step: one sparse LU of the coupled matrix (KLU: about twice
 * the Cholesky flops of A_FF, without dense kernels; 3e8 flops, about 0.3 s, on the
 * 10626-row pile) and a few products with A per line-search trial.  The number of steps
 * is small for contact problems (tens), and at most the pivot cap.
 *
 * SOURCES.  J. J. Judice, F. M. Pires, "A block principal pivoting algorithm for large-scale
 * strictly monotone linear complementarity problems", Comput. Oper. Res. 21 (1994) 587-596;
 * K. G. Murty, "Note on a Bard-type scheme for solving the complementarity problem",
 * Opsearch 11 (1974) 123-130 (least-index rule); D. P. Bertsekas, "Projected Newton
 * methods for optimization problems with simple constraints", SIAM J. Control Optim. 20
 * (1982) 221-246; R. Smith, ODE lcp.cpp (Dantzig / Cottle-
 * Dantzig boxed LCP with findex, the bound-freezing convention); S. Mehrotra, "On the
 * implementation of a primal-dual interior point method", SIAM J. Optim. 2 (1992) 575-601;
 * Y. Saad and M. H. Schultz, "GMRES", SIAM J. Sci. Stat. Comput. 7 (1986) 856-869;
 * L. Qi and J. Sun, "A nonsmooth version of Newton's method", Math. Program. 58 (1993)
 * 353-367; K. Erleben, "Numerical methods for linear complementarity problems in
 * physics-based animation", SIGGRAPH 2013 course notes (min-map Newton, line search);
 * T. A. Davis and E. Palamadai Natarajan, "Algorithm 907: KLU", ACM TOMS 37 (2010) 36;
 * R. T. Rockafellar,
 * "Monotone operators and the proximal point algorithm", SIAM J. Control Optim. 14 (1976)
 * 877-898; T. Davis, CHOLMOD user guide.
 */
#include "ldlt_ref.h"
#include "ref_internal.h"
#include "solvers.h"

#include <float.h>
#include <string.h>


#define REF_TAU 1e-10      /* dependent pivot: d_k <= REF_TAU * A_kk */
#define REF_SHIFT 1e-3     /* first eps of the proximal shift, relative to A_kk */
#define REF_SHIFT_MIN 1e-9 /* smallest eps (reached while the partition stays put) */
#define REF_MAX_PROX 100   /* proximal steps a boxed problem (a friction round) */
#define REF_VIOL 4.0       /* a row violates when it is off by more than REF_VIOL eps of its
                              rounding scale s_i = (|A||z|)_i + |q_i| (a quarter of what the
                              final check allows) */
#define REF_JP_COUNT 3     /* block steps without progress before Newton steps */
#define REF_IPM_VIOL 32    /* a block step leaving more violators than this and more than
                              half of those three steps before starts the interior-point
                              phase */
#define REF_MAX_ROUNDS 500 /* friction bound rounds */
#define REF_SETTLE 1e-12   /* friction bounds settled (relative) */
#define REF_CPL_TRIES 3    /* coupled pivoting tries a solve */
#define REF_CPL_HELD 2     /* ... once this many rounds in a row kept the partition */
#define REF_SSN_ROUND 20   /* semismooth Newton after this many rounds (not settled), */
#define REF_SSN_GAP 5     /* ... again every this many rounds, */
#define REF_SSN_TRIES 4    /* ... at most this many tries a solve, */
#define REF_SSN_IDLE 2     /* ... none after this many in a row that end no better than
                              the round they started from */
#define REF_ROUND 16.0     /* LCP_OK when every |r_i| <= REF_ROUND eps ((|A||z|)_i + |q_i|) */
#define REF_POLISH 10      /* refinement steps of the final partition (while they help) */
#define REF_REFINE 4       /* solve + refinement steps */
#define REF_RESCUE_SWEEPS 20000 /* PGS sweeps of the rescue route (fewer on large problems:
                                   about 4e8 multiply-adds) */

enum { ST_FREE = 0, ST_LO = 1, ST_HI = 2 };

typedef struct ref_ctx {
    const lcp_problem *P; /* the problem as given: every w and residual uses its A */
    int m;
    ref_backend be;      /* factors of A's symmetric part (A itself when symmetric) */
    lcp_csr As;          /* (A + A^T) / 2 when A is symmetric only to rounding, else empty */
    double *diag;        /* m: A_ii */
    double *lo, *hi;     /* m: bounds frozen for the current round */
    signed char *state;  /* m: ST_FREE / ST_LO / ST_HI */
    int *F;              /* m: the free list, ascending */
    int nf;
    int *Ff;             /* m: the free list of the factor the backend holds */
    int nff;             /* its length, -1 when the backend holds none */
    double epsf;         /* its eps */
    double *w;           /* m: A z + q (+ eps D (z - zc) when shifted) */
    double *s;           /* m: the rounding scale of w, (|A||z|)_i + |q_i| */
    double *b, *x;       /* m: right-hand side and solution of (1) */
    double eps;          /* 0, or REF_SHIFT once a dependent pivot was seen */
    double *zc;          /* m: proximal centre (used when eps > 0) */
    int prox;            /* proximal steps done */
    double qinf;         /* ||q||_inf */
    double *zo, *wo, *zn; /* m: projected Newton: start, its w, the Newton point */
    double *zbest;       /* m: the iterate of smallest ||r||_inf seen (start, rounds) */
    long pivots, max_pivots, single_steps, newton_steps, ipm_steps, coupled_steps, ssn_steps;
    long ssn_pivots;     /* rows moved by Newton steps (reported, not under the pivot cap) */
    long lu_factorizations; /* sparse LUs of the coupled matrix (ref_klu.c) */
    double lu_flops;
    int ipm_done;        /* the interior-point phase ran (at most once a solve) */
    int enumerated;      /* a Lemke round was answered by enumerating its bases */
    double cert;         /* a Farkas certificate's worst row (no-solution-found), or NAN */
    int iterations;
    int row;             /* last row moved, or the row to blame */
} ref_ctx;

void ref_options_default(ref_options *o)
{
    if (!o) return;
    o->backend = REF_CHOLMOD;
    o->block = 1;
    o->full_pattern = -1;
    o->supernodal = -1;
    o->ipm = -1;
    o->ssn = -1;
    o->rescue = 1;
}

/* w = A z + q + eps D (z - zc): the w of the (regularised) LCP being pivoted, and its
 * rounding scale s = |A||z| + |q| */
static void ref_w(ref_ctx *C, const double *z)
{
    const lcp_csr *A = &C->P->A;
    for (int i = 0; i < C->m; i++) {
        double w = C->P->q[i], s = fabs(w);
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            double v = A->x[k] * z[A->j[k]];
            w += v;
            s += fabs(v);
        }
        C->w[i] = w;
        C->s[i] = s;
    }
    if (C->eps > 0.0)
        for (int i = 0; i < C->m; i++) C->w[i] += C->eps * C->diag[i] * (z[i] - C->zc[i]);
}

/* max over the free rows of |w_i| / s_i: how far the partition's solve is from rounding */
static double ref_wf(const ref_ctx *C)
{
    double r = 0.0;
    for (int t = 0; t < C->nf; t++) {
        int i = C->F[t];
        double a = fabs(C->w[i]);
        if (a > 0.0) r = fmax(r, C->s[i] > 0.0 ? a / C->s[i] : INFINITY);
    }
    return r;
}

/* Solve the partition: z_B at its bounds, z_F from (1) with refinement; w = A z + q. */
static lcp_status ref_partition(ref_ctx *C, double *z)
{
    lcp_status st = LCP_OK;
    int m = C->m, nf = 0, bad = -1;
    for (int i = 0; i < m; i++) {
        if (C->state[i] == ST_LO) z[i] = C->lo[i];
        else if (C->state[i] == ST_HI) z[i] = C->hi[i];
        else {
            C->F[nf++] = i;
            z[i] = 0.0;              /* the solve starts from z_F = 0 */
        }
    }
    C->nf = nf;
    int same = nf == C->nff && C->eps == C->epsf;      /* friction rounds often keep F */
    for (int t = 0; same && t < nf; t++) same = C->F[t] == C->Ff[t];
    if (nf > 0 && !same) {
        C->nff = -1;
        st = C->be.factor(&C->be, C->F, nf, C->eps, NULL, C->eps > 0.0 ? 0.0 : REF_TAU, &bad);
        if (st == LCP_OK && bad >= 0 && C->eps == 0.0) { /* dependent row: shift from now */
            C->eps = REF_SHIFT;
            st = C->be.factor(&C->be, C->F, nf, C->eps, NULL, 0.0, &bad);
        }
        if (st == LCP_OK && bad >= 0)           /* zero row (no solution) or indefinite */
            st = C->diag[bad] == 0.0 ? LCP_ERR_SINGULAR : LCP_ERR_BREAKDOWN;
        if (st != LCP_OK) C->row = bad;
        if (st == LCP_OK) {                             /* remember what is factored */
            memcpy(C->Ff, C->F, (size_t)nf * sizeof *C->Ff);
            C->nff = nf;
            C->epsf = C->eps;
        }
    }
    ref_w(C, z);
    double prev = INFINITY, target = DBL_EPSILON;
    for (int k = 0; st == LCP_OK && nf > 0 && k < REF_REFINE; k++) {
        double rf = ref_wf(C);                             /* relative to rounding */
        if (k >= 2 && rf <= target) break;                 /* solved and refined once */
        if (k >= 2 && !(rf <= 0.5 * prev)) break;          /* refinement stopped helping */
        prev = rf;
        for (int t = 0; t < nf; t++) C->b[t] = -C->w[C->F[t]]; /* b = -w_F */
        st = C->be.solve(&C->be, C->b, C->x);
        for (int t = 0; st == LCP_OK && t < nf; t++) {
            z[C->F[t]] += C->x[t];                          /* z_F += S^{-1} b */
            if (!isfinite(z[C->F[t]])) {
                st = LCP_ERR_BREAKDOWN;
                C->row = C->F[t];
            }
        }
        if (st == LCP_OK) ref_w(C, z);
    }
    return st;
}

/* The set row i asks for with bounds lo, hi, or -1 when it is not violated. */
static int ref_wants_in(const ref_ctx *C, const double *z, int i, double lo, double hi)
{
    double tw = REF_VIOL * DBL_EPSILON * C->s[i];          /* w off by more than rounding */
    double tz = C->diag[i] > 0.0 ? tw / C->diag[i] : 0.0;  /* z: the same, in z's units */
    switch (C->state[i]) {
    case ST_FREE:
        if (z[i] < lo - fmax(tz, REF_VIOL * DBL_EPSILON * fabs(lo))) return ST_LO;
        if (z[i] > hi + fmax(tz, REF_VIOL * DBL_EPSILON * fabs(hi))) return ST_HI;
        return -1;
    case ST_LO:
        return (lo < hi && C->w[i] < -tw) ? ST_FREE : -1;
    default:
        return (lo < hi && C->w[i] > tw) ? ST_FREE : -1;
    }
}

/* The set row i asks for with its frozen bounds, or -1. */
static int ref_wants(const ref_ctx *C, const double *z, int i)
{
    return ref_wants_in(C, z, i, C->lo[i], C->hi[i]);
}

/* f(z) = 1/2 z^T (A + eps D) z + (q - eps D zc)^T z = 1/2 z^T (w + q - eps D zc), with
 * C->w = w at z: the quadratic whose minimum over the box is the (regularised) problem. */
static double ref_f(const ref_ctx *C, const double *z)
{
    double f = 0.0;
    for (int i = 0; i < C->m; i++) {
        double qt = C->P->q[i] - (C->eps > 0.0 ? C->eps * C->diag[i] * C->zc[i] : 0.0);
        f += z[i] * (C->w[i] + qt);
    }
    return 0.5 * f;
}

/* Violators of a solved partition: their number, the first in *first. */
static int ref_count(const ref_ctx *C, const double *z, int *first)
{
    int n = 0;
    *first = -1;
    for (int i = 0; i < C->m; i++)
        if (ref_wants(C, z, i) >= 0) {
            if (*first < 0) *first = i;
            n++;
        }
    return n;
}

/* One projected Newton step (Bertsekas 1982) from a feasible z with C->w = w(z): the
 * partition is read off the eps-active set (z within ea of a bound with w pushing into
 * it, ea = min(1e-3, natural residual)); its solution zN is the Newton point.  When zN has
 * no violator it is the answer (*n = 0, z = zN).  Otherwise z moves along the projection
 * arc  z(a) = mid(lo, z + a (zN - z), hi),  a = 1, 1/2, ...  to the first point with the
 * Armijo decrease  f(z(a)) <= f(z) + 1e-4 w^T (z(a) - z).  *stuck = 1 (z unchanged) when
 * 40 halvings find none.  f decreases strictly, so these steps cannot cycle. */
static lcp_status ref_newton(ref_ctx *C, double *z, int *n, int *first, int *stuck)
{
    int m = C->m;
    double r = 0.0;
    *stuck = 0;
    for (int i = 0; i < m; i++)                         /* natural residual at z */
        r = fmax(r, fabs(z[i] - lcp_mid(C->lo[i], z[i] - C->w[i], C->hi[i])));
    double ea = fmin(1e-3, r), f0 = ref_f(C, z);
    memcpy(C->zo, z, (size_t)m * sizeof *z);
    memcpy(C->wo, C->w, (size_t)m * sizeof *z);
    long moved = 0;
    for (int i = 0; i < m; i++) {
        int s = ST_FREE;
        if (C->lo[i] == C->hi[i] || (z[i] <= C->lo[i] + ea && C->wo[i] > 0.0)) s = ST_LO;
        else if (z[i] >= C->hi[i] - ea && C->wo[i] < 0.0) s = ST_HI;
        if (s != C->state[i]) {
            moved++;
            C->row = i;
        }
        C->state[i] = (signed char)s;
    }
    C->pivots += moved > 0 ? moved : 1;                 /* a step counts at least one */
    lcp_status st = ref_partition(C, z);                /* z = zN */
    if (st != LCP_OK) return st;
    C->iterations++;
    *n = ref_count(C, z, first);
    if (*n == 0) return LCP_OK;
    memcpy(C->zn, z, (size_t)m * sizeof *z);
    *stuck = 1;
    double a = 1.0;
    for (int k = 0; k < 40 && *stuck; k++, a *= 0.5) {
        double dec = 0.0;                               /* w^T (z(a) - z) */
        for (int i = 0; i < m; i++) {
            z[i] = lcp_mid(C->lo[i], C->zo[i] + a * (C->zn[i] - C->zo[i]), C->hi[i]);
            dec += C->wo[i] * (z[i] - C->zo[i]);
        }
        ref_w(C, z);
        if (ref_f(C, z) <= f0 + 1e-4 * dec) *stuck = 0;
    }
    if (*stuck) {
        memcpy(z, C->zo, (size_t)m * sizeof *z);
        memcpy(C->w, C->wo, (size_t)m * sizeof *z);
    }
    return LCP_OK;
}

/* Interior-point phase: a partition for block pivoting when block steps from a cold
 * partition do not settle (piles: A_FF ill conditioned, A far from an M-matrix).
 * Mehrotra's predictor-corrector for the box QP  min 1/2 z^T H z + c^T z,  lo <= z <= hi
 * (H = A + eps D, c = q - eps D zc, so that w = H z + c is C->w), primal-dual path
 * following with slacks s = z - lo, t = hi - z and multipliers lam, nu >= 0:
 *     H z + c - lam + nu = 0,   s lam = mu,   t nu = mu.
 * Each iteration factors  H + diag(lam/s + nu/t)  on the rows that are not fixed (the
 * full pattern: one symbolic analysis) and solves twice (predictor, corrector).  It stops
 * when mu has fallen by REF_IPM_DROP or the partition it implies (at a bound when its
 * barrier term lam/s or nu/t exceeds A_ii) is unchanged for REF_IPM_SAME iterations
 * after mu fell by REF_IPM_START; the driver then pivots from that partition, exactly as
 * from any other start.  A pivot that is not positive (A indefinite) ends the phase with
 * the partition unchanged.  Sources: S. Mehrotra, SIAM J. Optim. 2 (1992) 575-601;
 * S. J. Wright, Primal-Dual Interior-Point Methods, SIAM 1997, ch. 10 and 11. */
#define REF_IPM_MAX 60     /* interior-point iterations */
#define REF_IPM_DROP 1e-10 /* mu / mu_0 at which the phase stops */
#define REF_IPM_START 1e-6 /* mu / mu_0 after which a steady partition stops it */
#define REF_IPM_SAME 2     /* iterations with the same partition */

/* The largest step a <= 1 along (dz, dl, dn) that keeps s = z - lo, lam, t = hi - z and nu
 * at least (1 - frac) of their values (frac = 1: non-negative). */
static double ipm_step(const ref_ctx *C, const double *z, const double *lam, const double *nu,
                       const double *dz, const double *dl, const double *dn, double frac)
{
    double a = 1.0;
    for (int t = 0; t < C->nf; t++) {
        int i = C->F[t];
        double d = dz[i], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
        if (C->lo[i] > -INFINITY) {
            if (d < 0.0) a = fmin(a, -frac * s / d);
            if (dl[i] < 0.0) a = fmin(a, -frac * lam[i] / dl[i]);
        }
        if (C->hi[i] < INFINITY) {
            if (d > 0.0) a = fmin(a, frac * u / d);
            if (dn[i] < 0.0) a = fmin(a, -frac * nu[i] / dn[i]);
        }
    }
    return a;
}

static lcp_status ref_ipm(ref_ctx *C, double *z)
{
    int m = C->m, nf = 0, ncomp = 0, same = 0;
    lcp_status st = LCP_OK;
    double *lam = lcp_calloc((size_t)m, sizeof *lam), *nu = lcp_calloc((size_t)m, sizeof *nu);
    double *dp = lcp_calloc((size_t)m, sizeof *dp), *dz = lcp_calloc((size_t)m, sizeof *dz);
    double *dza = lcp_calloc((size_t)m, sizeof *dza), *dla = lcp_calloc((size_t)m, sizeof *dla);
    double *dna = lcp_calloc((size_t)m, sizeof *dna), *dl = lcp_calloc((size_t)m, sizeof *dl);
    double *dn = lcp_calloc((size_t)m, sizeof *dn);
    signed char *part = lcp_malloc((size_t)m, 1);
    if (!lam || !nu || !dp || !dz || !dza || !dla || !dna || !dl || !dn || !part) {
        st = LCP_ERR_NOMEM;
        goto out;
    }
    /* scales: an impulse from a row alone (|q_i| / A_ii) and ||q||_inf */
    double zs = 0.0, ws = fmax(C->qinf, 1e-300);
    for (int i = 0; i < m; i++)
        if (C->diag[i] > 0.0) zs = fmax(zs, fabs(C->P->q[i]) / C->diag[i]);
    zs = zs > 0.0 ? zs : 1.0;
    for (int i = 0; i < m; i++) {                     /* a strictly interior start */
        double lo = C->lo[i], hi = C->hi[i];
        if (lo == hi) {
            z[i] = lo;
            continue;
        }
        C->F[nf++] = i;
        if (lo > -INFINITY && hi < INFINITY) z[i] = 0.5 * (lo + hi);
        else if (lo > -INFINITY) z[i] = lo + zs;
        else if (hi < INFINITY) z[i] = hi - zs;
    }
    C->nf = nf;
    C->nff = -1;                                      /* the backend's factor is replaced */
    ref_w(C, z);
    for (int t = 0; t < nf; t++) {
        int i = C->F[t];
        if (C->lo[i] > -INFINITY) {
            lam[i] = fmax(C->w[i], 0.0) + ws;
            ncomp++;
        }
        if (C->hi[i] < INFINITY) {
            nu[i] = fmax(-C->w[i], 0.0) + ws;
            ncomp++;
        }
    }
    if (nf == 0 || ncomp == 0) goto out;
    double mu0 = -1.0;
    for (int it = 0; it < REF_IPM_MAX; it++) {
        double mu = 0.0;
        int changed = 0;
        for (int t = 0; t < nf; t++) {
            int i = C->F[t];
            double s = z[i] - C->lo[i], u = C->hi[i] - z[i], d = 0.0;
            if (C->lo[i] > -INFINITY) {
                mu += s * lam[i];
                d += lam[i] / s;
            }
            if (C->hi[i] < INFINITY) {
                mu += u * nu[i];
                d += nu[i] / u;
            }
            dp[i] = d;
            signed char ps = ST_FREE;                 /* the partition it implies */
            if (C->lo[i] > -INFINITY && lam[i] / s > C->diag[i]) ps = ST_LO;
            if (C->hi[i] < INFINITY && nu[i] / u > C->diag[i] && (ps == ST_FREE || u < s))
                ps = ST_HI;
            if (it == 0 || ps != part[i]) changed = 1;
            part[i] = ps;
        }
        mu /= ncomp;
        if (mu0 < 0.0) mu0 = mu;
        same = changed ? 0 : same + 1;
        if (mu <= REF_IPM_DROP * mu0 || (mu <= REF_IPM_START * mu0 && same >= REF_IPM_SAME))
            break;
        int bad = -1;
        st = C->be.factor(&C->be, C->F, nf, C->eps, dp, 0.0, &bad);
        C->iterations++;
        C->ipm_steps++;
        if (st != LCP_OK || bad >= 0) break;         /* not positive: keep the partition */
        /* predictor (sigma = 0): (H + D) dza = -w */
        for (int t = 0; t < nf; t++) C->b[t] = -C->w[C->F[t]];
        st = C->be.solve(&C->be, C->b, C->x);
        if (st != LCP_OK) break;
        for (int t = 0; t < nf; t++) {                /* dz_a, and dlam_a, dnu_a from it */
            int i = C->F[t];
            double d = dza[i] = C->x[t], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
            if (C->lo[i] > -INFINITY) dla[i] = -lam[i] - lam[i] * d / s;
            if (C->hi[i] < INFINITY) dna[i] = -nu[i] + nu[i] * d / u;
        }
        double amax = ipm_step(C, z, lam, nu, dza, dla, dna, 1.0);
        double mua = 0.0;
        for (int t = 0; t < nf; t++) {
            int i = C->F[t];
            double d = dza[i], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
            if (C->lo[i] > -INFINITY) mua += (s + amax * d) * (lam[i] + amax * dla[i]);
            if (C->hi[i] < INFINITY) mua += (u - amax * d) * (nu[i] + amax * dna[i]);
        }
        mua /= ncomp;
        double sig = pow(fmax(mua, 0.0) / mu, 3.0), smu = fmin(sig, 1.0) * mu;
        /* corrector: (H + D) dz = -(w - lam + nu) + rl / s - ru / t with
         * rl = smu - s lam - ds_a dlam_a,  ru = smu - t nu - dt_a dnu_a */
        for (int t = 0; t < nf; t++) {
            int i = C->F[t];
            double d = dza[i], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
            double r = -(C->w[i] - lam[i] + nu[i]);
            if (C->lo[i] > -INFINITY) r += (smu - s * lam[i] - d * dla[i]) / s;
            if (C->hi[i] < INFINITY) r -= (smu - u * nu[i] + d * dna[i]) / u;
            C->b[t] = r;
        }
        st = C->be.solve(&C->be, C->b, C->x);
        if (st != LCP_OK) break;
        for (int t = 0; t < nf; t++) {                /* dz, and dlam, dnu from it */
            int i = C->F[t];
            double d = dz[i] = C->x[t], da = dza[i], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
            if (C->lo[i] > -INFINITY) dl[i] = (smu - s * lam[i] - da * dla[i] - lam[i] * d) / s;
            if (C->hi[i] < INFINITY) dn[i] = (smu - u * nu[i] + da * dna[i] + nu[i] * d) / u;
        }
        double a = ipm_step(C, z, lam, nu, dz, dl, dn, 0.99);
        for (int t = 0; t < nf; t++) {
            int i = C->F[t];
            z[i] += a * dz[i];
            if (C->lo[i] > -INFINITY) lam[i] += a * dl[i];
            if (C->hi[i] < INFINITY) nu[i] += a * dn[i];
        }
        ref_w(C, z);
    }
    for (int t = 0; t < nf; t++) C->state[C->F[t]] = part[C->F[t]];
out:
    lcp_free(lam);
    lcp_free(nu);
    lcp_free(dp);
    lcp_free(dz);
    lcp_free(dza);
    lcp_free(dla);
    lcp_free(dna);
    lcp_free(dl);
    lcp_free(dn);
    lcp_free(part);
    return st;
}

/* The boxed problem with the current (frozen) bounds.  Block steps while they make
 * progress (Judice-Pires); when they stop, projected Newton steps (monotone in f); when
 * those stall, single least-index steps (Murty).  ro->block = 0: single steps only. */
static lcp_status ref_box(ref_ctx *C, const ref_options *ro, double *z)
{
    enum { BLOCK, NEWTON, SINGLE };
    lcp_status st = LCP_OK;
    int nbest = C->m + 1, credit = REF_JP_COUNT, mode = ro->block ? BLOCK : SINGLE;
    int hist[3] = {0, 0, 0}, nb = 0;                  /* violators of the last 3 block steps */
    for (;;) {
        int n, first, stuck = 0;
        if (mode == NEWTON) {
            st = ref_newton(C, z, &n, &first, &stuck);
            if (st != LCP_OK || n == 0) break;
            C->newton_steps++;
            if (stuck) mode = SINGLE;                   /* z unchanged: pivot it out */
            if (C->pivots >= C->max_pivots) {
                st = LCP_PIVOT_CAP;                     /* z: feasible, usable */
                break;
            }
            if (!stuck) continue;
        }
        st = ref_partition(C, z);
        if (st != LCP_OK) break;
        C->iterations++;
        n = ref_count(C, z, &first);
        if (n == 0) break;                              /* complementary: solved */
        if (C->pivots >= C->max_pivots) {
            st = LCP_PIVOT_CAP;                         /* z: the last solved partition */
            C->row = first;
            break;
        }
        if (mode == BLOCK && !C->ipm_done && ro->ipm != 0 &&
            (ro->ipm > 0 || (n > REF_IPM_VIOL && nb >= 3 && 2 * n > hist[nb % 3]))) {
            C->ipm_done = 1;                            /* block steps do not settle: */
            st = ref_ipm(C, z);                         /* a partition from the interior */
            if (st != LCP_OK) break;
            nbest = C->m + 1;
            nb = 0;
            credit = REF_JP_COUNT;
            continue;
        }
        if (mode == BLOCK) hist[nb++ % 3] = n;
        if (mode == BLOCK && n >= nbest && credit == 0) { /* block steps stopped helping */
            mode = NEWTON;
            for (int i = 0; i < C->m; i++) z[i] = lcp_mid(C->lo[i], z[i], C->hi[i]);
            ref_w(C, z);                                /* a feasible start */
            continue;
        }
        if (mode == BLOCK && C->pivots + n > C->max_pivots) {
            st = LCP_PIVOT_CAP;
            C->row = first;
            break;
        }
        if (mode == BLOCK) {                            /* Judice-Pires: move them all */
            if (n < nbest) {
                nbest = n;
                credit = REF_JP_COUNT;
            } else {
                credit--;
            }
            for (int i = 0; i < C->m; i++) {
                int s = ref_wants(C, z, i);
                if (s >= 0) {
                    C->state[i] = (signed char)s;
                    C->row = i;
                }
            }
            C->pivots += n;
        } else {                                        /* Murty: least index only */
            C->state[first] = (signed char)ref_wants(C, z, first);
            C->row = first;
            C->pivots++;
            C->single_steps++;
        }
    }
    return st;
}

/* The boxed problem, exact: one pivoting solve, or (once a dependent pivot switched the
 * shift on) proximal steps  z+ = solution of LCP(A + eps D, q - eps D zc), zc <- z+,
 * until the centre stops moving or the unregularised residual is at rounding level. */
static lcp_status ref_prox(ref_ctx *C, const ref_options *ro, double *z)
{
    lcp_status st = LCP_OK;
    int prox = 0;
    if (C->eps > 0.0) C->eps = REF_SHIFT;    /* new frozen bounds: well conditioned again */
    for (;;) {
        long before = C->pivots;
        st = ref_box(C, ro, z);
        if (st != LCP_OK || C->eps == 0.0) break;
        double dz = 0.0, zs = 0.0, r = 0.0;
        for (int i = 0; i < C->m; i++) {
            dz = fmax(dz, fabs(z[i] - C->zc[i]));
            zs = fmax(zs, fabs(z[i]));
            C->zc[i] = z[i];                                /* zc <- z */
        }
        C->prox++;
        ref_w(C, z);                                        /* z = zc: the true w */
        for (int i = 0; i < C->m; i++) {                    /* relative to rounding */
            double ri = fabs(z[i] - lcp_mid(C->lo[i], z[i] - C->w[i], C->hi[i]));
            if (ri > 0.0) r = fmax(r, C->s[i] > 0.0 ? ri / C->s[i] : INFINITY);
        }
        if (dz <= 1e-15 * zs || r <= REF_VIOL * DBL_EPSILON) break;
        if (++prox >= REF_MAX_PROX) break;                /* the final residual decides */
        if (C->pivots == before)                          /* partition settled: faster */
            C->eps = fmax(0.1 * C->eps, REF_SHIFT_MIN);
    }
    return st;
}

/* Coupled pivoting (friction rounds whose partition holds).  Friction row t with
 * normal n = findex[t] is free (sticking: w_t = 0), or sliding at lo_t z_n or hi_t z_n (the
 * bound moves with z_n inside the solve, not frozen); with n at zero, z_t = 0.  For a
 * partition the free unknowns solve the non-symmetric system
 *     (A_FF + A_FS C) z_F = -(q_F + A_FB z_B),     z_S = C z_F  (z_t = c_t z_n),
 * by GMRES right-preconditioned with the LDL^T factor of A_FF:  K M^-1 = I + A_FS C A_FF^-1,
 * a perturbation of rank |S| of the identity.  Violators are moved as in block steps;
 * at most REF_CPL_STEPS steps, and it gives up when the violator count stops falling. */
#define REF_CPL_STEPS 8
#define REF_GM_K 50      /* GMRES restart length */
#define REF_GM_MAX 200   /* GMRES iterations a solve (more: the try is given up) */

typedef struct ref_cpl {
    int nf, ns;
    double shift;       /* the proximal shift of the preconditioner (semi-definite A), or 0 */
    int *pos;           /* m: index in F or -1 */
    int *S;             /* sliding rows with a free normal */
    double *c;          /* m: c_t of a sliding row */
    double *V, *H, *g, *cs, *sn, *y, *t1, *t2;
    int use_lu;         /* 1: solve by the sparse LU of the coupled matrix (ref_klu.c) */
    ref_lu *lu;         /* its factor */
    int *Rp, *Rj, *mark; /* the coupled matrix by rows (m + 1, nnz(A), m) */
    double *Rx;
} ref_cpl;

/* out = K M^-1 u = u + A_FS C (M^-1 u) - shift D_F (M^-1 u),  M = A_FF + shift D_F */
static lcp_status cpl_apply(ref_ctx *C, ref_cpl *K, const double *u, double *out)
{
    const lcp_csr *A = &C->P->A;
    lcp_status st = C->be.solve(&C->be, u, K->t1);
    if (st != LCP_OK) return st;
    memcpy(out, u, (size_t)K->nf * sizeof *out);
    if (K->shift > 0.0)
        for (int t = 0; t < K->nf; t++) out[t] -= K->shift * C->diag[C->F[t]] * K->t1[t];
    for (int s = 0; s < K->ns; s++) {
        int t = K->S[s];
        double pt = K->c[t] * K->t1[K->pos[C->P->findex[t]]];
        for (int k = A->p[t]; k < A->p[t + 1]; k++) {
            int r = K->pos[A->j[k]];
            if (r >= 0) out[r] += A->x[k] * pt;
        }
    }
    return LCP_OK;
}

/* x = K^-1 b by restarted GMRES on K M^-1 (x = M^-1 u), to a relative 1e-12 (the caller
 * refines with the true residual). */
static lcp_status cpl_gmres(ref_ctx *C, ref_cpl *K, const double *b, double *x)
{
    int n = K->nf, its = 0;
    double *u = x, *r = K->t2, bn = 0.0;
    lcp_status st = LCP_OK;
    for (int i = 0; i < n; i++) {
        u[i] = 0.0;
        r[i] = b[i];
        bn += b[i] * b[i];
    }
    bn = sqrt(bn);
    double beta = bn, tol = 1e-12 * bn;
    while (st == LCP_OK && beta > tol && its < REF_GM_MAX) {
        int j = 0;
        for (int i = 0; i < n; i++) K->V[i] = r[i] / beta;
        for (int i = 0; i <= REF_GM_K; i++) K->g[i] = 0.0;
        K->g[0] = beta;
        for (; j < REF_GM_K && its < REF_GM_MAX; j++, its++) {
            double *vj = K->V + (size_t)j * n, *w = K->V + (size_t)(j + 1) * n;
            if ((st = cpl_apply(C, K, vj, w)) != LCP_OK) break;
            for (int i = 0; i <= j; i++) {              /* modified Gram-Schmidt */
                const double *vi = K->V + (size_t)i * n;
                double h = 0.0;
                for (int t = 0; t < n; t++) h += w[t] * vi[t];
                for (int t = 0; t < n; t++) w[t] -= h * vi[t];
                K->H[i * REF_GM_K + j] = h;
            }
            double hn = 0.0;
            for (int t = 0; t < n; t++) hn += w[t] * w[t];
            hn = sqrt(hn);
            if (hn > 0.0)
                for (int t = 0; t < n; t++) w[t] /= hn;
            for (int i = 0; i < j; i++) {               /* previous rotations */
                double a = K->H[i * REF_GM_K + j], bb = K->H[(i + 1) * REF_GM_K + j];
                K->H[i * REF_GM_K + j] = K->cs[i] * a + K->sn[i] * bb;
                K->H[(i + 1) * REF_GM_K + j] = -K->sn[i] * a + K->cs[i] * bb;
            }
            double a = K->H[j * REF_GM_K + j], d = hypot(a, hn);
            K->cs[j] = d > 0.0 ? a / d : 1.0;
            K->sn[j] = d > 0.0 ? hn / d : 0.0;
            K->H[j * REF_GM_K + j] = d;
            K->g[j + 1] = -K->sn[j] * K->g[j];
            K->g[j] *= K->cs[j];
            if (fabs(K->g[j + 1]) <= tol || hn == 0.0) {
                j++;
                its++;
                break;
            }
        }
        if (st != LCP_OK) break;
        for (int i = j - 1; i >= 0; i--) {              /* H y = g */
            double v = K->g[i];
            for (int t = i + 1; t < j; t++) v -= K->H[i * REF_GM_K + t] * K->y[t];
            K->y[i] = v / K->H[i * REF_GM_K + i];
        }
        for (int i = 0; i < j; i++)
            for (int t = 0; t < n; t++) u[t] += K->y[i] * K->V[(size_t)i * n + t];
        if ((st = cpl_apply(C, K, u, r)) != LCP_OK) break;   /* r = b - K M^-1 u */
        beta = 0.0;
        for (int t = 0; t < n; t++) {
            r[t] = b[t] - r[t];
            beta += r[t] * r[t];
        }
        beta = sqrt(beta);
    }
    if (st == LCP_OK && beta > tol) st = LCP_MAXITER;     /* did not converge */
    if (st == LCP_OK) st = C->be.solve(&C->be, u, K->t1);   /* x = M^-1 u */
    if (st == LCP_OK) memcpy(x, K->t1, (size_t)n * sizeof *x);
    return st;
}

/* The sparse LU of the coupled matrix  A_FF + A_FS C  of the sets cpl_partition set up
 * (K->pos: the free index of a row, K->S, K->c: the sliding rows), rows of F in order, the
 * column of a sliding row t folded into that of its normal with the factor c_t.  *bad = 0
 * when the matrix is singular or its pivot ratio is below REF_LU_RCOND (then the Newton
 * step is not taken). */
#define REF_LU_RCOND 1e-14
static lcp_status cpl_lu(ref_ctx *C, ref_cpl *K, int *bad)
{
    const lcp_csr *A = &C->P->A;
    const int *fx = C->P->findex;
    int nf = K->nf, nnz = 0;
    ref_lu_free(&K->lu);
    for (int s = 0; s < K->ns; s++) K->pos[K->S[s]] = -2 - s;   /* sliding: -2 - index */
    for (int t = 0; t < nf; t++) K->mark[t] = -1;
    K->Rp[0] = 0;
    for (int r = 0; r < nf; r++) {
        int i = C->F[r];
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int j = A->j[k], col = K->pos[j];
            double v = A->x[k];
            if (col <= -2) {                           /* sliding: z_j = c_j z_f */
                v *= K->c[j];
                col = K->pos[fx[j]];
            }
            if (col < 0) continue;
            if (K->mark[col] >= K->Rp[r]) {
                K->Rx[K->mark[col]] += v;
            } else {
                K->mark[col] = nnz;
                K->Rj[nnz] = col;
                K->Rx[nnz++] = v;
            }
        }
        K->Rp[r + 1] = nnz;
    }
    for (int s = 0; s < K->ns; s++) K->pos[K->S[s]] = -1;
    double rcond = 0.0, fl = 0.0;
    lcp_status st = ref_lu_factor(&K->lu, nf, K->Rp, K->Rj, K->Rx, &rcond, &fl);
    C->lu_factorizations++;
    C->lu_flops += fl;
    if (st == LCP_OK && !(rcond >= REF_LU_RCOND)) {
        *bad = C->F[0];
        ref_lu_free(&K->lu);
    }
    return st;
}

/* z from the coupled partition: bound and sliding rows, then the solve with refinement;
 * C->w = A z + q.  *bad: a dependent row of A_FF (then nothing is solved). */
static lcp_status cpl_partition(ref_ctx *C, ref_cpl *K, double *z, int *bad)
{
    const lcp_problem *P = C->P;
    int m = C->m, nf = 0;
    K->ns = 0;
    for (int i = 0; i < m; i++) {
        int f = P->findex ? P->findex[i] : -1;
        K->pos[i] = -1;
        if (f >= 0 && C->state[f] != ST_FREE) {         /* normal at zero: z_i = 0 */
            z[i] = 0.0;
            continue;
        }
        if (f < 0 && P->lo[i] == P->hi[i]) {
            z[i] = P->lo[i];
            continue;
        }
        if (C->state[i] == ST_FREE) {
            K->pos[i] = nf;
            C->F[nf++] = i;
            z[i] = 0.0;
        } else if (f >= 0) {
            K->c[i] = C->state[i] == ST_LO ? P->lo[i] : P->hi[i];
            K->S[K->ns++] = i;
            z[i] = 0.0;
        } else {
            z[i] = C->state[i] == ST_LO ? P->lo[i] : P->hi[i];
        }
    }
    K->nf = C->nf = nf;
    C->nff = -1;
    *bad = -1;
    lcp_status st = LCP_OK;
    if (nf > 0 && K->use_lu) {
        st = cpl_lu(C, K, bad);
    } else if (nf > 0) {
        st = C->be.factor(&C->be, C->F, nf, K->shift, NULL, K->shift > 0.0 ? 0.0 : REF_TAU, bad);
    }
    if (st != LCP_OK || *bad >= 0) return st;
    for (int s = 0; s < K->ns; s++) K->pos[K->S[s]] = -1;
    double *bvec = C->b, *x = C->x, prev = INFINITY, target = DBL_EPSILON;
    for (int k = 0; k < REF_REFINE && st == LCP_OK; k++) { /* solve, then refine */
        for (int s = 0; s < K->ns; s++) {
            int t = K->S[s];
            z[t] = K->c[t] * z[P->findex[t]];
        }
        ref_w(C, z);
        double rf = ref_wf(C);                          /* relative to rounding */
        if (nf == 0 || (k >= 1 && rf <= target) || (k >= 2 && !(rf <= 0.5 * prev))) break;
        prev = rf;
        for (int t = 0; t < nf; t++) bvec[t] = -C->w[C->F[t]];
        if (K->use_lu) {
            memcpy(x, bvec, (size_t)nf * sizeof *x);
            st = ref_lu_solve(K->lu, x);
        } else {
            st = cpl_gmres(C, K, bvec, x);
        }
        if (st == LCP_MAXITER && k > 0) {               /* refinement at rounding: keep z */
            st = LCP_OK;
            break;
        }
        for (int t = 0; st == LCP_OK && t < nf; t++) z[C->F[t]] += x[t];
    }
    for (int s = 0; s < K->ns; s++) {
        int t = K->S[s];
        z[t] = K->c[t] * z[P->findex[t]];
    }
    ref_w(C, z);
    return st;
}

/* The set row i asks for in the coupled problem, or -1. */
static int cpl_wants(const ref_ctx *C, const double *z, int i)
{
    const lcp_problem *P = C->P;
    int f = P->findex ? P->findex[i] : -1;
    double lo = P->lo[i], hi = P->hi[i];
    if (f >= 0) {
        if (C->state[f] != ST_FREE) return -1;          /* fixed at zero */
        lo *= z[f];
        hi *= z[f];
    }
    return ref_wants_in(C, z, i, lo, hi);
}

/* K's workspace for m rows (K zeroed by the caller; cpl_free releases it either way) */
static lcp_status cpl_alloc(ref_cpl *K, int m, int nnz)
{
    size_t mm = (size_t)m + 1;
    if (K->use_lu) {
        K->Rp = lcp_malloc(mm, sizeof *K->Rp);
        K->Rj = lcp_malloc((size_t)nnz + 1, sizeof *K->Rj);
        K->Rx = lcp_malloc((size_t)nnz + 1, sizeof *K->Rx);
        K->mark = lcp_malloc(mm, sizeof *K->mark);
        if (!K->Rp || !K->Rj || !K->Rx || !K->mark) return LCP_ERR_NOMEM;
    }
    K->pos = lcp_malloc(mm, sizeof *K->pos);
    K->S = lcp_malloc(mm, sizeof *K->S);
    K->c = lcp_calloc(mm, sizeof *K->c);
    K->V = lcp_malloc(mm * (REF_GM_K + 1), sizeof *K->V);
    K->H = lcp_calloc((size_t)(REF_GM_K + 1) * REF_GM_K, sizeof *K->H);
    K->g = lcp_malloc(REF_GM_K + 1, sizeof *K->g);
    K->cs = lcp_malloc(REF_GM_K, sizeof *K->cs);
    K->sn = lcp_malloc(REF_GM_K, sizeof *K->sn);
    K->y = lcp_malloc(REF_GM_K, sizeof *K->y);
    K->t1 = lcp_malloc(mm, sizeof *K->t1);
    K->t2 = lcp_malloc(mm, sizeof *K->t2);
    return K->pos && K->S && K->c && K->V && K->H && K->g && K->cs && K->sn && K->y && K->t1 &&
                   K->t2
               ? LCP_OK
               : LCP_ERR_NOMEM;
}

static void cpl_free(ref_cpl *K)
{
    ref_lu_free(&K->lu);
    lcp_free(K->Rp);
    lcp_free(K->Rj);
    lcp_free(K->Rx);
    lcp_free(K->mark);
    lcp_free(K->pos);
    lcp_free(K->S);
    lcp_free(K->c);
    lcp_free(K->V);
    lcp_free(K->H);
    lcp_free(K->g);
    lcp_free(K->cs);
    lcp_free(K->sn);
    lcp_free(K->y);
    lcp_free(K->t1);
    lcp_free(K->t2);
}

/* The end of a coupled try (ref_coupled, ref_ssn): a try that did not solve (and met no
 * error) gives back z, the partition and the frozen bounds it started from (st0, z0, lo0,
 * hi0); a solved one leaves the bounds its answer meets. */
static void try_end(ref_ctx *C, double *z, int solved, lcp_status st, const signed char *st0,
                    const double *z0, const double *lo0, const double *hi0)
{
    int m = C->m;
    if (!solved && st == LCP_OK) {
        memcpy(C->state, st0, (size_t)m);
        memcpy(z, z0, (size_t)m * sizeof *z);
        memcpy(C->lo, lo0, (size_t)m * sizeof *z);
        memcpy(C->hi, hi0, (size_t)m * sizeof *z);
        C->nff = -1;
    }
    for (int i = 0; solved && i < m; i++) {
        double lo, hi;
        lcp_row_bounds(C->P, z, i, &lo, &hi);
        C->lo[i] = lo;
        C->hi[i] = hi;
    }
}

/* Coupled block steps from the current partition; *solved = 1 when one has no violator
 * (z, C->w, C->F and the frozen bounds C->lo, C->hi then describe it).  A try that fails
 * (more than REF_IPM_VIOL violators at the first step, or no progress) leaves z, the
 * partition and the frozen bounds as it found them (C->w is then stale: the next round
 * recomputes it). */
static lcp_status ref_coupled(ref_ctx *C, double *z, int *solved)
{
    int m = C->m, nbest = m + 1, k = 0, fails = 0;
    lcp_status st = LCP_OK;
    ref_cpl K;
    memset(&K, 0, sizeof K);
    *solved = 0;
    K.shift = C->eps;                  /* semi-definite: the shifted factor preconditions */
    C->eps = 0.0;                      /* w unshifted: the coupled problem itself */
    size_t mm = (size_t)m + 1;
    signed char *best = lcp_malloc(mm, 1), *want = lcp_malloc(mm, 1), *st0 = lcp_malloc(mm, 1);
    double *z0 = lcp_malloc(mm, sizeof *z0), *lo0 = lcp_malloc(mm, sizeof *lo0);
    double *hi0 = lcp_malloc(mm, sizeof *hi0);
    if (!best || !want || !st0 || !z0 || !lo0 || !hi0 ||
        cpl_alloc(&K, m, LCP_CSR_NNZ(&C->P->A)) != LCP_OK)
        st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {                                 /* what a failed try gives back */
        memcpy(st0, C->state, (size_t)m);
        memcpy(z0, z, (size_t)m * sizeof *z);
        memcpy(lo0, C->lo, (size_t)m * sizeof *z);
        memcpy(hi0, C->hi, (size_t)m * sizeof *z);
    }
    for (int step = 0; st == LCP_OK && step < REF_CPL_STEPS; step++) {
        int bad = -1;
        st = cpl_partition(C, &K, z, &bad);
        if (st == LCP_MAXITER) {                        /* GMRES did not converge: give up */
            st = LCP_OK;
            break;
        }
        if (st != LCP_OK) break;
        C->iterations++;
        C->coupled_steps++;
        int n = bad >= 0 ? m + 1 : 0;                   /* a singular A_FF: no better */
        for (int i = 0; bad < 0 && i < m; i++) n += cpl_wants(C, z, i) >= 0;
        if (n == 0) {
            *solved = 1;
            break;
        }
        if (step == 0 && n > REF_IPM_VIOL) break;      /* far from the partition: give up */
        if (n < nbest) {                                /* progress: all its violators */
            nbest = n;
            k = n;
            fails = 0;
            memcpy(best, C->state, (size_t)m);
            for (int i = 0; i < m; i++) want[i] = (signed char)cpl_wants(C, z, i);
        } else {                                        /* back to the best partition,
                                                           move half as many */
            if (k == 1 && ++fails >= REF_JP_COUNT) break;
            k = k > 1 ? k / 2 : 1;
            memcpy(C->state, best, (size_t)m);
        }
        for (int i = 0, moved = 0; i < m && moved < k; i++)  /* the k of least index */
            if (want[i] >= 0 && want[i] != best[i]) {
                C->state[i] = want[i];
                moved++;
            }
        if (k == 1 && n >= nbest) {                     /* single steps: the next one */
            for (int i = 0; i < m; i++)
                if (want[i] >= 0 && want[i] != best[i]) {
                    want[i] = -1;                       /* tried: skip it next time */
                    break;
                }
        }
        for (int i = 0; i < m; i++)                     /* friction rows of a normal that
                                                           opens start sticking */
            if (C->P->findex && C->P->findex[i] >= 0 && C->state[C->P->findex[i]] == ST_FREE &&
                best[C->P->findex[i]] != ST_FREE)
                C->state[i] = ST_FREE;
        C->pivots += k;
    }
    try_end(C, z, *solved, st, st0, z0, lo0, hi0);
    lcp_free(best);
    lcp_free(want);
    lcp_free(st0);
    lcp_free(z0);
    lcp_free(lo0);
    lcp_free(hi0);
    cpl_free(&K);
    C->eps = K.shift;
    return st;
}

/* Semismooth Newton on the coupled problem (friction rounds that do not settle).  The
 * coupled problem is  F(z) = 0  with the scaled natural map
 *     F_i(z) = z_i - mid(lo_i(z), z_i - w_i / A_ii, hi_i(z)),   w = A z + q,
 * lo_i(z) = lo_i |z_f|, hi_i(z) = hi_i |z_f| on friction rows (f = findex[i]).  F is
 * piecewise linear; an element of its generalised Jacobian is read off the partition z
 * shows (x_i = z_i - w_i / A_ii below lo_i(z): at the lower bound, above hi_i(z): upper,
 * else free): free rows give A_i, bound rows e_i - c_i e_f (c_i = lo_i or hi_i).  The
 * Newton point solves that linear system, and eliminating the bound rows leaves the
 * coupled system of cpl_partition (A_FF + A_FS C) z_F = -(q_F + A_FB z_B): the Newton point
 * is the solution of the coupled partition z shows.  When it has no violator it is the
 * answer; otherwise z moves along the Newton direction with an Armijo decrease of the merit
 * theta = 1/2 ||F||^2  (theta(z + a d) <= (1 - 1e-4 a) theta(z), a = 1, 1/2, ...; the
 * directional derivative of theta along d is -2 theta); when the Newton point itself is
 * rejected and has at most REF_IPM_VIOL violators, the block step from it (every violator
 * moved) is tried first and taken when it lowers theta by the same rule.  theta decreases
 * strictly, so the steps cannot cycle as the frozen-bound rounds do.  Sources: L. Qi and J. Sun, "A nonsmooth
 * version of Newton's method", Math. Program. 58 (1993) 353-367; K. Erleben, "Numerical
 * methods for linear complementarity problems in physics-based animation", SIGGRAPH 2013
 * course notes (min-map Newton with a projected line search). */
#define REF_SSN_STEPS 100 /* Newton steps a try */
#define REF_SSN_LS 30     /* halvings of the line search */
#define REF_SSN_CRAWL 6   /* steps in a row shorter than 1/50 end a try */

/* theta(z) = 1/2 ||F(z)||^2, with C->w = A z + q (C->eps = 0) */
static double ssn_merit(ref_ctx *C, const double *z)
{
    double t = 0.0;
    ref_w(C, z);
    for (int i = 0; i < C->m; i++) {
        double lo, hi, d = C->diag[i] > 0.0 ? C->diag[i] : 1.0;
        lcp_row_bounds(C->P, z, i, &lo, &hi);
        double r = z[i] - lcp_mid(lo, z[i] - C->w[i] / d, hi);
        t += r * r;
    }
    return isnan(t) ? INFINITY : 0.5 * t;
}

/* The partition the natural map shows at z (C->w = w(z)); returns the rows moved. */
static long ssn_states(ref_ctx *C, const double *z)
{
    long moved = 0;
    for (int i = 0; i < C->m; i++) {
        double lo, hi, d = C->diag[i] > 0.0 ? C->diag[i] : 1.0, x = z[i] - C->w[i] / d;
        lcp_row_bounds(C->P, z, i, &lo, &hi);
        signed char s = x < lo ? ST_LO : (x > hi ? ST_HI : (lo == hi ? ST_LO : ST_FREE));
        if (s != C->state[i]) {
            moved++;
            C->row = i;
        }
        C->state[i] = s;
    }
    return moved;
}

/* Newton steps from z; *solved = 1 when a Newton point has no violator (z, C->w, C->F and
 * the bounds C->lo, C->hi then describe it).  Otherwise z, the partition and the frozen
 * bounds are given back as they were, and C->zn holds the last iterate (*tried = 1) for
 * the caller's best-iterate record. */
static lcp_status ref_ssn(ref_ctx *C, double *z, int *solved, int *tried)
{
    int m = C->m;
    lcp_status st = LCP_OK;
    ref_cpl K;
    memset(&K, 0, sizeof K);
    *solved = *tried = 0;
    K.use_lu = 1;
    K.shift = C->eps;                  /* semi-definite: the shifted factor preconditions */
    C->eps = 0.0;
    size_t mm = (size_t)m + 1;
    signed char *st0 = lcp_malloc(mm, 1), *sb = lcp_malloc(mm, 1), *want = lcp_malloc(mm, 1);
    double *z0 = lcp_malloc(mm, sizeof *z0), *lo0 = lcp_malloc(mm, sizeof *lo0);
    double *hi0 = lcp_malloc(mm, sizeof *hi0), *zt = lcp_malloc(mm, sizeof *zt);
    if (!st0 || !sb || !want || !z0 || !lo0 || !hi0 || !zt ||
        cpl_alloc(&K, m, LCP_CSR_NNZ(&C->P->A)) != LCP_OK)
        st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        memcpy(st0, C->state, (size_t)m);
        memcpy(z0, z, (size_t)m * sizeof *z);
        memcpy(lo0, C->lo, (size_t)m * sizeof *z);
        memcpy(hi0, C->hi, (size_t)m * sizeof *z);
    }
    double th = st == LCP_OK ? ssn_merit(C, z) : 0.0;
    int small = 0;
    for (int step = 0; st == LCP_OK && step < REF_SSN_STEPS; step++) {
        long moved = ssn_states(C, z);
        int bad = -1;
        memcpy(C->zo, z, (size_t)m * sizeof *z);
        st = cpl_partition(C, &K, z, &bad);            /* z = the Newton point */
        if (st == LCP_MAXITER || (st == LCP_OK && bad >= 0)) { /* no Newton point: give up */
            memcpy(z, C->zo, (size_t)m * sizeof *z);
            st = LCP_OK;
            break;
        }
        if (st != LCP_OK) break;
        C->iterations++;
        C->ssn_steps++;
        C->ssn_pivots += moved > 0 ? moved : 1;
        *tried = 1;
        int n = 0;
        for (int i = 0; i < m; i++) n += cpl_wants(C, z, i) >= 0;
        if (n == 0) {
            *solved = 1;
            break;
        }
        memcpy(zt, z, (size_t)m * sizeof *z);
        for (int i = 0; i < m; i++) want[i] = (signed char)cpl_wants(C, z, i);
        double a = 1.0, t = ssn_merit(C, z);
        if (!(t <= (1.0 - 1e-4) * th) && n <= REF_IPM_VIOL) { /* the Newton point is no */
            memcpy(sb, C->state, (size_t)m);            /* better: the block step from it */
            for (int i = 0; i < m; i++)
                if (want[i] >= 0) C->state[i] = want[i];
            for (int i = 0; i < m; i++)                 /* friction of an opening normal */
                if (C->P->findex && C->P->findex[i] >= 0 &&
                    C->state[C->P->findex[i]] == ST_FREE && sb[C->P->findex[i]] != ST_FREE)
                    C->state[i] = ST_FREE;
            st = cpl_partition(C, &K, z, &bad);
            if (st == LCP_MAXITER) st = LCP_OK;
            else if (st != LCP_OK) break;
            else if (bad < 0) {
                C->iterations++;
                C->ssn_steps++;
                C->ssn_pivots += n;
                double tb = ssn_merit(C, z);
                if (tb <= (1.0 - 1e-4) * th) {          /* accepted */
                    int nb = 0;
                    for (int i = 0; i < m; i++) nb += cpl_wants(C, z, i) >= 0;
                    if (nb == 0) {
                        *solved = 1;
                        break;
                    }
                    th = tb;
                    continue;
                }
            }
            memcpy(C->state, sb, (size_t)m);
        }
        int k = 0;
        for (; k < REF_SSN_LS && !(t <= (1.0 - 1e-4 * a) * th); k++) {
            a *= 0.5;
            for (int i = 0; i < m; i++) z[i] = C->zo[i] + a * (zt[i] - C->zo[i]);
            t = ssn_merit(C, z);
        }
        if (!(t <= (1.0 - 1e-4 * a) * th)) {           /* no decrease: stalled */
            memcpy(z, C->zo, (size_t)m * sizeof *z);
            break;
        }
        small = a < 0.02 ? small + 1 : 0;              /* crawling: give up */
        if (small >= REF_SSN_CRAWL) break;
        th = t;
    }
    if (!*solved && st == LCP_OK) memcpy(C->zn, z, (size_t)m * sizeof *z); /* last iterate */
    try_end(C, z, *solved, st, st0, z0, lo0, hi0);
    lcp_free(st0);
    lcp_free(sb);
    lcp_free(want);
    lcp_free(z0);
    lcp_free(lo0);
    lcp_free(hi0);
    lcp_free(zt);
    cpl_free(&K);
    C->eps = K.shift;
    return st;
}

/* The boxed problem with the frozen bounds by Lemke's method (lemke_ref.c): any A, no
 * partition kept between rounds (each round starts Lemke afresh; the pivot cap applies to
 * each round). */
static lcp_status ref_lemke(ref_ctx *C, double *z)
{
    long piv = 0;
    int row = -1, enumerated = 0;
    lcp_status st = ref_lemke_box(C->P, C->lo, C->hi, C->max_pivots, z, &piv, &row, &C->cert,
                                  &enumerated);
    C->pivots += piv;
    C->enumerated |= enumerated;
    C->iterations++;
    C->nf = 0;                                      /* z is within the frozen bounds */
    if (st != LCP_OK) C->row = row;
    return st;
}

/* Freeze the bounds at z (friction coupling); returns max |change| and its row.  A row
 * whose bounds open from lo = hi (its normal impulse left zero) starts free (sticking). */
static double ref_bounds(ref_ctx *C, const double *z, double theta, double *scale, int *row)
{
    double change = 0.0, big = 0.0;
    for (int i = 0; i < C->m; i++) {
        double lo, hi;
        lcp_row_bounds(C->P, z, i, &lo, &hi);
        double d = fmax(fabs(lo - C->lo[i]), fabs(hi - C->hi[i]));
        if (isfinite(lo)) big = fmax(big, fabs(lo));
        if (isfinite(hi)) big = fmax(big, fabs(hi));
        if (C->P->findex && C->P->findex[i] >= 0 && d > change) {
            change = d;
            *row = i;
        }
        if (C->lo[i] == C->hi[i] && lo < hi) C->state[i] = ST_FREE; /* opened: sticking */
        if (theta < 1.0 && C->P->findex && C->P->findex[i] >= 0) { /* damped update */
            lo = C->lo[i] + theta * (lo - C->lo[i]);
            hi = C->hi[i] + theta * (hi - C->hi[i]);
        }
        C->lo[i] = lo;
        C->hi[i] = hi;
    }
    *scale = fmax(1.0, big);
    return change;
}

/* S = (A + A^T) / 2 on the union of the two patterns, and the relative asymmetry
 * *asym = max|A - A^T| / max|A| (0 for a zero matrix).  O(nnz). */
static lcp_status ref_sympart(const lcp_csr *A, lcp_csr *S, double *asym)
{
    lcp_csr T;
    int m = A->nrow;
    memset(&T, 0, sizeof T);
    lcp_status st = lcp_csr_transpose(A, &T);
    if (st == LCP_OK) st = lcp_csr_alloc(S, m, m, LCP_CSR_NNZ(A) + LCP_CSR_NNZ(&T));
    double dmax = 0.0, amax = 0.0;
    int n = 0;
    for (int i = 0; st == LCP_OK && i < m; i++) {      /* merge row i of A and of A^T */
        int a = A->p[i], ae = A->p[i + 1], t = T.p[i], te = T.p[i + 1];
        while (a < ae || t < te) {
            int ja = a < ae ? A->j[a] : m, jt = t < te ? T.j[t] : m;
            int j = ja < jt ? ja : jt;
            double x = ja == j ? A->x[a++] : 0.0, y = jt == j ? T.x[t++] : 0.0;
            amax = fmax(amax, fabs(x));
            dmax = fmax(dmax, fabs(x - y));
            S->j[n] = j;
            S->x[n++] = 0.5 * (x + y);
        }
        S->p[i + 1] = n;
    }
    lcp_csr_free(&T);
    *asym = amax > 0.0 ? dmax / amax : 0.0;
    return st;
}

/* The final partition refined until its residual stops falling: z_F += S^-1 (-w_F) with the
 * factor the backend holds (S = A_FF, or A_FF + eps D when shifted: then the steps converge
 * to a solution of the consistent singular system), w = A z + q unshifted, measured row by
 * row against (|A||z|)_i + |q_i|; the best z is kept.  Needs the factor of the current F. */
static lcp_status ref_polish(ref_ctx *C, double *z)
{
    const lcp_csr *A = &C->P->A;
    int nf = C->nf, same = nf > 0 && nf == C->nff && C->eps == C->epsf;
    for (int t = 0; same && t < nf; t++) same = C->F[t] == C->Ff[t];
    if (!same) return LCP_OK;
    double prev = INFINITY;
    lcp_status st = LCP_OK;
    for (int k = 0; k <= REF_POLISH; k++) {
        double rs = 0.0;                                /* max_F |w_i| / s_i */
        for (int t = 0; t < nf; t++) {
            int i = C->F[t];
            double w = C->P->q[i], s = fabs(w);
            for (int p = A->p[i]; p < A->p[i + 1]; p++) {
                double v = A->x[p] * z[A->j[p]];
                w += v;
                s += fabs(v);
            }
            C->b[t] = -w;
            if (fabs(w) > 0.0) rs = fmax(rs, s > 0.0 ? fabs(w) / s : INFINITY);
        }
        if (!(rs < prev)) {                             /* stopped falling: the last z */
            for (int t = 0; t < nf; t++) z[C->F[t]] -= C->x[t];
            break;
        }
        prev = rs;
        if (rs == 0.0 || k == REF_POLISH) break;
        st = C->be.solve(&C->be, C->b, C->x);
        if (st != LCP_OK) break;
        for (int t = 0; t < nf; t++) z[C->F[t]] += C->x[t];
    }
    ref_w(C, z);
    return st;
}

/* The final check: every row at rounding, |r_i| <= REF_ROUND eps s_i with r the natural
 * residual of the problem as given (coupled bounds), w unshifted.  Returns the row
 * furthest from rounding (also in C->row), or -1 when every row is at rounding. */
static int ref_rounding(ref_ctx *C, const double *z)
{
    double eps = C->eps, rmax = 0.0;
    int worst = -1;
    C->eps = 0.0;
    ref_w(C, z);
    C->eps = eps;
    for (int i = 0; i < C->m; i++) {
        double lo, hi, s = C->s[i];
        lcp_row_bounds(C->P, z, i, &lo, &hi);
        double r = fabs(z[i] - lcp_mid(lo, z[i] - C->w[i], hi));
        if (!(r <= REF_ROUND * DBL_EPSILON * s) && !(r / s <= rmax)) {
            rmax = s > 0.0 ? r / s : INFINITY;
            worst = i;
        }
    }
    if (worst >= 0) C->row = worst;
    return worst;
}

/* Whether the pivoting's ending st leaves a question another route may answer: not the
 * answers, not the caller's errors, not a certificate on the problem as given. */
static int ref_rescuable(const ref_ctx *C, lcp_status st, int lemke)
{
    switch (st) {
    case LCP_UNDECIDED: case LCP_NOT_SETTLED: case LCP_PIVOT_CAP: case LCP_ERR_SINGULAR:
    case LCP_ERR_BREAKDOWN: case LCP_ERR_NONFINITE:
        return 1;
    case LCP_ERR_TOO_LARGE:                /* Lemke's size cap: Newton has none */
        return lemke;
    case LCP_ERR_NO_SOLUTION:              /* a frozen round's certificate: not the problem's */
        return C->P->findex != NULL;
    default:
        return 0;
    }
}

/* ||r||_inf of the problem as given at z (C->wo: scratch) */
static double ref_rinf(ref_ctx *C, const double *z)
{
    lcp_residuals R;
    lcp_residual(C->P, z, C->wo, &R);
    return isnan(R.rinf) ? INFINITY : R.rinf;
}

enum { ROUTE_NONE, ROUTE_PGS_NEWTON, ROUTE_LEMKE, ROUTE_ENUM };
static const char *const route_names[] = {"", "pgs+newton", "lemke", "enumeration"};

/* PGS from the best iterate seen (a start near a solution when one exists: PGS converges
 * on contact problems where pivoting stalls), then semismooth Newton steps on the problem
 * as given from its iterate (ref_ssn: any A, friction coupled).  *solved = 1 when a Newton
 * point is a solution at rounding.  LCP_OK, or LCP_ERR_NOMEM. */
static lcp_status ref_pgs_newton(ref_ctx *C, double *z, int *solved)
{
    int m = C->m;
    long nnz = LCP_CSR_NNZ(&C->P->A);
    lcp_options o;
    lcp_info pi;
    lcp_options_default(&o);
    o.warm = 1;
    o.form = LCP_FORM_ASSEMBLED;
    o.tol = 1e-10 * fmax(1.0, C->qinf);
    o.max_iter = (int)fmin(REF_RESCUE_SWEEPS, fmax(200.0, 4e8 / (double)(nnz + m)));
    memcpy(z, C->zbest, (size_t)m * sizeof *z);
    memcpy(C->zn, z, (size_t)m * sizeof *z);
    *solved = 0;
    lcp_status st = lcp_solve_pgs(C->P, &o, C->zn, &pi);
    if (st == LCP_ERR_NOMEM) return st;
    if (st >= 0 && pi.residual_inf < ref_rinf(C, z)) memcpy(z, C->zn, (size_t)m * sizeof *z);
    C->eps = 0.0;
    st = LCP_OK;
    for (int t = 0; t < REF_SSN_TRIES && !*solved; t++) {
        int tried = 0;
        double before = ref_rinf(C, z);
        st = ref_ssn(C, z, solved, &tried);
        if (st != LCP_OK) break;
        if (*solved || !tried || !(ref_rinf(C, C->zn) < before)) break;
        memcpy(z, C->zn, (size_t)m * sizeof *z);   /* better: go on from there */
    }
    if (st == LCP_OK && *solved && ref_rounding(C, z) >= 0) *solved = 0;
    return st == LCP_ERR_NOMEM ? st : LCP_OK;
}

/* The other routes, in order: PGS then Newton (ref_pgs_newton); without friction, Lemke's
 * method on the problem as given, whose ray counts only with a certificate and whose
 * uncertified ray on a small problem is answered by enumeration.  LCP_OK (z at rounding,
 * *how the route), LCP_ERR_NO_SOLUTION (certified; C->cert), or LCP_UNDECIDED. */
static lcp_status ref_rescue(ref_ctx *C, double *z, int lemke, int *how)
{
    int solved = 0;
    lcp_status st = ref_pgs_newton(C, z, &solved);
    if (st != LCP_OK) return st;
    if (solved) {
        *how = ROUTE_PGS_NEWTON;
        return LCP_OK;
    }
    if (C->P->findex || lemke) return LCP_UNDECIDED;   /* Lemke ran, or cannot serve */
    for (int i = 0; i < C->m; i++) {
        C->lo[i] = C->P->lo[i];
        C->hi[i] = C->P->hi[i];
    }
    st = ref_lemke(C, z);
    if (st == LCP_OK && ref_rounding(C, z) >= 0) st = LCP_UNDECIDED;
    if (st == LCP_OK) *how = C->enumerated ? ROUTE_ENUM : ROUTE_LEMKE;
    if (st != LCP_OK && st != LCP_ERR_NO_SOLUTION && st != LCP_ERR_NOMEM) st = LCP_UNDECIDED;
    return st;
}

/* Validate the data the method reads; LCP_OK or the status and *row. */
static lcp_status ref_check(const lcp_problem *P, const lcp_options *opt, const double *z,
                            int *row)
{
    const lcp_csr *A = &P->A;
    int m = P->m;
    if (!P->q || !P->lo || !P->hi || A->nrow != m || A->ncol != m || (m > 0 && !A->p))
        return LCP_ERR_ARG;
    for (int i = 0; i < m; i++) {
        *row = i;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (!isfinite(A->x[k])) return LCP_ERR_FORMAT;
        if (!isfinite(P->q[i]) || isnan(P->lo[i]) || isnan(P->hi[i])) return LCP_ERR_FORMAT;
        if (opt->warm && !isfinite(z[i])) return LCP_ERR_FORMAT;
        if (!(P->lo[i] <= P->hi[i]) || P->lo[i] == INFINITY || P->hi[i] == -INFINITY)
            return LCP_ERR_ARG;
        if (P->findex && P->findex[i] >= 0 && (P->findex[i] >= m || P->findex[i] == i))
            return LCP_ERR_ARG;
    }
    *row = -1;
    return LCP_OK;
}

lcp_status ref_solve(const lcp_problem *P, const lcp_options *opt, const ref_options *ro,
                     double *z, lcp_info *info, ref_stats *stats)
{
    ref_options rdef;
    ref_ctx C;
    lcp_status st = LCP_OK;
    int settled = 1, nonunique = 0, rounds = 0, have_be = 0, lemke, coupled = 0, route = 0;
    double rbest = INFINITY;
    memset(&C, 0, sizeof C);
    if (stats) memset(stats, 0, sizeof *stats);
    if (info) lcp_info_init(info);
    if (!P || !opt || !z || !info || P->m < 0) return LCP_ERR_ARG;
    if (!ro) {
        ref_options_default(&rdef);
        ro = &rdef;
    }
    int m = P->m;
    lemke = ro->backend == REF_LEMKE;
    C.P = P;
    C.m = m;
    C.row = -1;
    C.cert = NAN;
    if (m == 0) goto finish;
    st = ref_check(P, opt, z, &C.row);
    if (st != LCP_OK) goto finish;
    if (!P->symmetric && !lcp_csr_is_symmetric(&P->A)) { /* symmetric to rounding? */
        st = ref_sympart(&P->A, &C.As, &info->asymmetry);
        if (st != LCP_OK) goto finish;
        if (!(info->asymmetry <= opt->sym_tol)) lemke = 1;  /* no: Lemke's method */
        if (lemke) lcp_csr_free(&C.As);
    }

    C.diag = lcp_malloc((size_t)m, sizeof *C.diag);
    C.lo = lcp_malloc((size_t)m, sizeof *C.lo);
    C.hi = lcp_malloc((size_t)m, sizeof *C.hi);
    C.state = lcp_malloc((size_t)m, sizeof *C.state);
    C.F = lcp_malloc((size_t)m, sizeof *C.F);
    C.w = lcp_malloc((size_t)m, sizeof *C.w);
    C.s = lcp_malloc((size_t)m, sizeof *C.s);
    C.b = lcp_malloc((size_t)m, sizeof *C.b);
    C.x = lcp_malloc((size_t)m, sizeof *C.x);
    C.zc = lcp_calloc((size_t)m, sizeof *C.zc);
    C.Ff = lcp_malloc((size_t)m, sizeof *C.Ff);
    C.zo = lcp_malloc((size_t)m, sizeof *C.zo);
    C.wo = lcp_malloc((size_t)m, sizeof *C.wo);
    C.zn = lcp_malloc((size_t)m, sizeof *C.zn);
    C.zbest = lcp_malloc((size_t)m, sizeof *C.zbest);
    C.nff = -1;
    if (!C.diag || !C.lo || !C.hi || !C.state || !C.F || !C.w || !C.s || !C.b || !C.x || !C.zc ||
        !C.Ff || !C.zo || !C.wo || !C.zn || !C.zbest) {
        st = LCP_ERR_NOMEM;
        goto finish;
    }
    lcp_csr_diag(&P->A, C.diag);
    const lcp_csr *Af = C.As.p ? &C.As : &P->A;      /* what is factored */
    if (!lemke) {
        st = ro->backend == REF_DENSE ? ref_dense_create(&C.be, Af, C.diag)
                                      : ref_cholmod_create(&C.be, Af, C.diag, ro->full_pattern,
                                                          ro->supernodal);
        if (st != LCP_OK) goto finish;
        have_be = 1;
    }
    for (int i = 0; i < m; i++) C.qinf = fmax(C.qinf, fabs(P->q[i]));
    C.max_pivots = opt->max_pivots > 0 ? opt->max_pivots : 50L * m + 1000;

    lcp_start(P, opt, z);                  /* cold: mid(lo_eff, 0, hi_eff); warm: projected */
    lcp_residuals R;
    lcp_residual(P, z, C.w, &R);           /* the start: a usable answer is never worse */
    rbest = R.rinf;
    memcpy(C.zbest, z, (size_t)m * sizeof *z);
    double scale;
    int brow = -1;
    for (int i = 0; i < m; i++) C.lo[i] = C.hi[i] = 0.0;
    ref_bounds(&C, z, 1.0, &scale, &brow);
    for (int i = 0; i < m; i++) {          /* the starting partition */
        double lo = C.lo[i], hi = C.hi[i];
        if (opt->warm)
            C.state[i] = z[i] <= lo ? ST_LO : (z[i] >= hi ? ST_HI : ST_FREE);
        else
            C.state[i] = lo > -INFINITY ? ST_LO : (hi < INFINITY ? ST_HI : ST_FREE);
    }

    double theta = 1.0, prev = INFINITY;
    int tries = 0, held = 0, ssn_tries = 0, ssn_idle = 0, ssn_next = ro->ssn > 0 ? ro->ssn : REF_SSN_ROUND;
    if (ro->rescue && lemke && P->findex) {   /* non-symmetric friction: Lemke's rounds are */
        int solved = 0;                       /* dense and slow, PGS then Newton first */
        st = ref_pgs_newton(&C, z, &solved);
        if (st != LCP_OK) goto finish;
        if (solved) {
            route = ROUTE_PGS_NEWTON;
            coupled = 1;
        }
    }
    for (rounds = route ? 0 : 1; !route; rounds++) { /* friction rounds (one without coupling) */
        long piv0 = C.pivots;
        st = lemke ? ref_lemke(&C, z) : ref_prox(&C, ro, z);
        if (st != LCP_OK || !P->findex) break;
        lcp_residual(P, z, C.zn, &R);      /* the coupled residual of this round's z */
        if (R.rinf < rbest) {
            rbest = R.rinf;
            memcpy(C.zbest, z, (size_t)m * sizeof *z);
        }
        double change = ref_bounds(&C, z, theta, &scale, &brow);
        if (change <= REF_SETTLE * scale) break;
        if (change > prev) theta = fmax(0.5 * theta, 0.25); /* growing: damp */
        prev = change;
        held = C.pivots == piv0 ? held + 1 : 0;
        if (held >= REF_CPL_HELD && tries < REF_CPL_TRIES && !lemke) {
            int solved = 0;                 /* the partition held: solve the coupling */
            tries++;
            st = ref_coupled(&C, z, &solved);
            coupled = solved;
            if (st != LCP_OK || solved) break;
        }
        if (!lemke && ro->rescue && ro->ssn != 0 && rounds == REF_SSN_ROUND) {
            int solved = 0;                         /* not settled: PGS, then Newton */
            double *zk = lcp_malloc((size_t)m, sizeof *zk);
            if (zk) memcpy(zk, z, (size_t)m * sizeof *z);
            st = zk ? ref_pgs_newton(&C, z, &solved) : LCP_ERR_NOMEM;
            if (st == LCP_OK && !solved) memcpy(z, zk, (size_t)m * sizeof *z); /* the rounds
                                                       go on where they were */
            lcp_free(zk);
            if (st != LCP_OK || solved) {
                route = solved ? ROUTE_PGS_NEWTON : 0;
                coupled = solved;
                break;
            }
        }
        if (!lemke && ssn_tries < REF_SSN_TRIES && ro->ssn != 0 && rounds >= ssn_next) {
            int solved = 0, tried = 0;              /* the rounds do not settle: Newton */
            ssn_tries++;
            ssn_next += REF_SSN_GAP;
            st = ref_ssn(&C, z, &solved, &tried);
            if (st != LCP_OK) break;
            if (solved) {
                coupled = 2;                        /* by Newton steps */
                break;
            }
            double rround = R.rinf;                  /* this round's coupled residual */
            if (tried) lcp_residual(P, C.zn, C.wo, &R);
            if (tried && R.rinf < rbest) {
                rbest = R.rinf;
                memcpy(C.zbest, C.zn, (size_t)m * sizeof *z);
            }
            if (!tried || R.rinf >= rround) ssn_idle++;
            else ssn_idle = 0;
            if (ssn_idle >= REF_SSN_IDLE) ssn_tries = REF_SSN_TRIES;
            if (tried && R.rinf < rround) {
                memcpy(z, C.zn, (size_t)m * sizeof *z);  /* the rounds go on from the
                                                            Newton iterate (a new start) */
                ref_bounds(&C, z, 1.0, &scale, &brow);
                for (int i = 0; i < m; i++)
                    C.state[i] = z[i] <= C.lo[i] ? ST_LO : (z[i] >= C.hi[i] ? ST_HI : ST_FREE);
                theta = 1.0;
                prev = INFINITY;
                held = 0;
            }
        }
        if (rounds >= REF_MAX_ROUNDS) {
            settled = 0;
            C.row = brow;
            break;
        }
    }
    if (st == LCP_OK && lemke && P->findex && !route) /* the rounds end at 1e-12: the coupling */
        st = ref_coupled_dense(P, C.lo, C.hi, z, &coupled);
    if (st == LCP_OK && have_be && !coupled) st = ref_polish(&C, z);
    if (st == LCP_OK && C.eps > 0.0 && C.nf > 0) { /* shifted: is A_FF itself singular? */
        int bad = -1;
        st = C.be.factor(&C.be, C.F, C.nf, 0.0, NULL, REF_TAU, &bad);
        C.nff = -1;
        nonunique = bad >= 0;
        if (nonunique) C.row = bad;
    }
    if (st == LCP_OK && !settled) st = LCP_NOT_SETTLED;
    if (st == LCP_OK || st == LCP_NONUNIQUE) {
        for (int t = 0; t < C.nf; t++) {   /* free values within rounding of a bound */
            int i = C.F[t];
            z[i] = lcp_mid(C.lo[i], z[i], C.hi[i]);
        }
        if (ref_rounding(&C, z) >= 0) st = LCP_UNDECIDED; /* not at rounding: go on */
        else if (nonunique) st = LCP_NONUNIQUE;
    }
    if (ro->rescue && ref_rescuable(&C, st, lemke) &&   /* no answer yet: the other routes */
        !(st == LCP_PIVOT_CAP && opt->max_pivots > 0)) {   /* (the caller's cap is a cap) */
        int how = 0;
        lcp_status s2 = ref_rescue(&C, z, lemke, &how);
        if (s2 == LCP_OK || s2 < 0) {
            st = s2;
            nonunique = 0;
            route = how;
        } else if (st < 0 || st == LCP_UNDECIDED || s2 == LCP_UNDECIDED) {
            st = P->findex ? LCP_NOT_SETTLED : LCP_UNDECIDED;   /* honest: no answer */
        }
    }
    if (st == LCP_OK || st == LCP_NONUNIQUE) C.row = -1;
    if (st == LCP_ERR_NO_SOLUTION) info->certificate = C.cert;
    if (st >= 0 || st == LCP_ERR_NO_SOLUTION) {
        lcp_residual(P, z, C.w, &R);
        info->residual = R.r2;
        info->residual_inf = R.rinf;
        if (st > 0 && !isfinite(R.rinf)) st = LCP_ERR_NONFINITE;  /* no usable answer */
    }
    if (st > 0 && !(info->residual_inf <= rbest)) {  /* usable but worse than seen: the best */
        memcpy(z, C.zbest, (size_t)m * sizeof *z);
        lcp_residual(P, z, C.w, &R);
        info->residual = R.r2;
        info->residual_inf = R.rinf;
    }
    if (st == LCP_OK || st == LCP_NONUNIQUE)
        info->route = route ? route_names[route] : lemke ? (C.enumerated ? "enumeration" : "lemke")
                      : coupled ? (coupled == 2 ? "newton" : "coupled")
                      : C.ipm_done ? "interior-point" : "block";

finish:
    if (have_be) C.be.destroy(&C.be);
    lcp_csr_free(&C.As);
    info->status = st;
    info->iterations = C.iterations;
    info->pivots = C.pivots + C.ssn_pivots;
    info->work = (double)info->pivots;
    info->factorizations = C.be.factorizations + C.lu_factorizations;
    info->flops = C.be.flops + C.lu_flops;
    info->row = C.row;
    if (stats) {
        stats->malloc_delta = C.be.malloc_delta;
        stats->shifted = C.eps > 0.0;
        stats->nonunique = nonunique;
        stats->rounds = rounds;
        stats->single_steps = C.single_steps;
        stats->newton_steps = C.newton_steps;
        stats->ipm_steps = C.ipm_steps;
        stats->coupled_steps = C.coupled_steps;
        stats->ssn_steps = C.ssn_steps;
        stats->lu_factorizations = C.lu_factorizations;
        stats->analyses = C.be.analyses;
        stats->supernodal = C.be.supernodal;
        stats->lnz = C.be.lnz;
    }
    lcp_free(C.diag);
    lcp_free(C.lo);
    lcp_free(C.hi);
    lcp_free(C.state);
    lcp_free(C.F);
    lcp_free(C.w);
    lcp_free(C.s);
    lcp_free(C.b);
    lcp_free(C.x);
    lcp_free(C.zc);
    lcp_free(C.Ff);
    lcp_free(C.zo);
    lcp_free(C.wo);
    lcp_free(C.zn);
    lcp_free(C.zbest);
    return st;
}

lcp_status lcp_solve_ldlt_ref(const lcp_problem *P, const lcp_options *opt, double *z,
                        lcp_info *info)
{
    return ref_solve(P, opt, NULL, z, info, NULL);
}

lcp_status lcp_solve_lemke_ref(const lcp_problem *P, const lcp_options *opt, double *z,
                                lcp_info *info)
{
    ref_options ro;
    ref_options_default(&ro);
    ro.backend = REF_LEMKE;
    return ref_solve(P, opt, &ro, z, info, NULL);
}

lcp_status lcp_solve_ldlt_dense(const lcp_problem *P, const lcp_options *opt, double *z,
                          lcp_info *info)
{
    ref_options ro;
    ref_options_default(&ro);
    ro.backend = REF_DENSE;
    return ref_solve(P, opt, &ro, z, info, NULL);
}
