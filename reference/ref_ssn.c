/* ref_ssn.c: semismooth Newton on the coupled friction problem (friction rounds that do
 * not settle; also the second half of the `pgs+newton' route, ref_rescue.c).
 *
 * COMPUTES.  On large piles the frozen-bound rounds cycle: a few rows switch between
 * sticking and sliding every round, no round keeps its partition, and coupled block steps
 * from the cycling partition diverge.  So (the driver decides: after REF_SSN_ROUND rounds
 * without settling, again every REF_SSN_GAP rounds, at most REF_SSN_TRIES tries, none after
 * REF_SSN_IDLE tries in a row that end no better) Newton steps on the coupled problem
 * itself.  The coupled problem is  F(z) = 0  with the scaled natural map
 *     F_i(z) = z_i - mid(lo_i(z), z_i - w_i / A_ii, hi_i(z)),   w = A z + q,
 * lo_i(z) = lo_i |z_f|, hi_i(z) = hi_i |z_f| on friction rows (f = findex[i]).  F is
 * piecewise linear; an element of its generalised Jacobian is read off the partition z
 * shows (x_i = z_i - w_i / A_ii below lo_i(z): at the lower bound, above hi_i(z): upper,
 * else free): free rows give A_i, bound rows e_i - c_i e_f (c_i = lo_i or hi_i).  The
 * Newton point solves that linear system, and eliminating the bound rows leaves the
 * coupled system of ref_cpl_partition (A_FF + A_FS C) z_F = -(q_F + A_FB z_B), here solved
 * by a sparse LU (KLU, ref_klu.c: GMRES preconditioned with A_FF stagnated on these
 * partitions, which have hundreds of sliding rows): the Newton point is the solution of the
 * coupled partition z shows.  When it has no violator it is the answer (info->route
 * `newton'); otherwise z moves along the Newton direction with an Armijo decrease of the
 * merit theta = 1/2 ||F||^2  (theta(z + a d) <= (1 - 1e-4 a) theta(z), a = 1, 1/2, ...;
 * the directional derivative of theta along d is -2 theta); when the Newton point itself
 * is rejected and has at most REF_IPM_VIOL violators, the block step from it (every
 * violator moved) is tried first and taken when it lowers theta by the same rule.  theta
 * decreases strictly, so the steps cannot cycle as the frozen-bound rounds do.  A try ends
 * after REF_SSN_CRAWL steps in a row shorter than 1/50, or when no step lowers theta.
 *   A captured 10626-row pile (1300 spheres, mu 0.5): 500 rounds and `friction-not-settled'
 * (residual 3.5e-3) without it; with it `converged' (2e-15) after 25 rounds and 41 Newton
 * steps, 28 to 32 s of CPU against 33 to 37.  On a 19908-row pile whose tries all stall,
 * restarting from each stalled iterate ended at 1.6e-3 in 577 s of CPU, against 5.3e-4 in
 * 209 s with REF_SSN_IDLE.  Not a guarantee: a Newton try can stall at a point where a row
 * has no consistent state while the rest of the partition is held (the coupled matrix is
 * not a P-matrix: its effective pivot on the row is negative); started after round 10
 * instead of 20, eight tries on that pile all stalled so, and on the 10626-row pile (with
 * the interior point once a round, ref_box.c) the rounds then ended `friction-not-settled'
 * (2.9e-5) after 67 s of CPU, against `converged' in 18.6 s from round 20.
 *
 * ENTRY (ref_ssn).  z any iterate (a round's, or PGS's), C->state, C->lo, C->hi the
 * partition and frozen bounds to give back, C->eps the shift.
 * EXIT.  *solved = 1: z a Newton point without violator (C->F, C->w = A z + q, C->lo, C->hi
 * the bounds it meets).  Otherwise z, the partition and the frozen bounds as they were, and
 * C->zn the last iterate (*tried = 1 when a Newton point was computed) for the caller's
 * best-iterate record.  C->eps as on entry.  Rows moved are counted in C->ssn_pivots
 * (reported in info->pivots, not against the pivot cap: a try is bounded by REF_SSN_STEPS).
 *
 * COST.  A step: one sparse LU of the coupled matrix (KLU: about twice the Cholesky flops of
 * A_FF, without dense kernels; on the 10626-row pile 2.3e8 flops in the nested-dissection
 * order of ref_klu.c, 3.4e8 in AMD's) and a few products with A per line-search trial.
 *
 * SOURCES.  L. Qi and J. Sun, "A nonsmooth version of Newton's method", Math. Program. 58
 * (1993) 353-367; K. Erleben, "Numerical methods for linear complementarity problems in
 * physics-based animation", SIGGRAPH 2013 course notes (min-map Newton, projected line
 * search); T. A. Davis and E. Palamadai Natarajan, "Algorithm 907: KLU", ACM TOMS 37 (2010)
 * 36.
 */
#include "ref_ctx.h"

#include <string.h>

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

/* The block step from a rejected Newton point z with n violators (want: the sets they ask
 * for): every violator moved, the partition solved, taken when it lowers the merit *th by
 * the Armijo rule.  *took: 0 not taken (C->state given back; z is then overwritten by the
 * line search), 1 taken (*th its merit), 2 taken and without violator (solved). */
static lcp_status ssn_block(ref_ctx *C, ref_cpl *K, double *z, const signed char *want,
                            signed char *sb, int n, double *th, int *took)
{
    int m = C->m, bad = -1;
    *took = 0;
    memcpy(sb, C->state, (size_t)m);
    for (int i = 0; i < m; i++)
        if (want[i] >= 0) C->state[i] = want[i];
    ref_cpl_open(C, sb);                            /* friction of an opening normal */
    lcp_status st = ref_cpl_partition(C, K, z, &bad);
    if (st == LCP_MAXITER) st = LCP_OK;
    else if (st != LCP_OK) return st;
    else if (bad < 0) {
        C->iterations++;
        C->ssn_steps++;
        C->ssn_pivots += n;
        double tb = ssn_merit(C, z);
        if (tb <= (1.0 - 1e-4) * *th) {             /* accepted */
            *took = ref_cpl_count(C, z) == 0 ? 2 : 1;
            if (*took == 1) *th = tb;
            return LCP_OK;
        }
    }
    memcpy(C->state, sb, (size_t)m);
    return st;
}

/* The Armijo line search from C->zo towards the Newton point zt: a = 1, 1/2, ... until
 * theta(z) = *t <= (1 - 1e-4 a) th (*t: theta at zt on entry).  1 when found (z, *t, *a
 * the accepted point), 0 when REF_SSN_LS halvings find no decrease. */
static int ssn_search(ref_ctx *C, double *z, const double *zt, double th, double *t, double *a)
{
    for (int k = 0; k < REF_SSN_LS && !(*t <= (1.0 - 1e-4 * *a) * th); k++) {
        *a *= 0.5;
        for (int i = 0; i < C->m; i++) z[i] = C->zo[i] + *a * (zt[i] - C->zo[i]);
        *t = ssn_merit(C, z);
    }
    return *t <= (1.0 - 1e-4 * *a) * th;
}

/* Newton steps from z (the file's header: ENTRY, EXIT). */
lcp_status ref_ssn(ref_ctx *C, double *z, int *solved, int *tried)
{
    int m = C->m, small = 0;
    lcp_status st = LCP_OK;
    ref_cpl K;
    ref_try T;
    memset(&K, 0, sizeof K);
    memset(&T, 0, sizeof T);
    *solved = *tried = 0;
    K.use_lu = 1;
    K.shift = C->eps;                  /* semi-definite: the shifted factor preconditions */
    C->eps = 0.0;
    size_t mm = (size_t)m + 1;
    signed char *sb = lcp_malloc(mm, 1), *want = lcp_malloc(mm, 1);
    double *zt = lcp_malloc(mm, sizeof *zt);
    if (!sb || !want || !zt || ref_try_begin(C, z, &T) != LCP_OK ||
        ref_cpl_alloc(&K, m, LCP_CSR_NNZ(&C->P->A)) != LCP_OK)
        st = LCP_ERR_NOMEM;
    double th = st == LCP_OK ? ssn_merit(C, z) : 0.0;
    for (int step = 0; st == LCP_OK && step < REF_SSN_STEPS; step++) {
        long moved = ssn_states(C, z);
        int bad = -1, took = 0;
        memcpy(C->zo, z, (size_t)m * sizeof *z);
        st = ref_cpl_partition(C, &K, z, &bad);        /* z = the Newton point */
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
        int n = ref_cpl_count(C, z);
        if (n == 0) {
            *solved = 1;
            break;
        }
        memcpy(zt, z, (size_t)m * sizeof *z);
        for (int i = 0; i < m; i++) want[i] = (signed char)ref_cpl_wants(C, z, i);
        double a = 1.0, t = ssn_merit(C, z);
        if (!(t <= (1.0 - 1e-4) * th) && n <= REF_IPM_VIOL) { /* the Newton point is no */
            st = ssn_block(C, &K, z, want, sb, n, &th, &took); /* better: the block step */
            if (st != LCP_OK) break;
            *solved = took == 2;
            if (took == 2) break;
            if (took) continue;
        }
        if (!ssn_search(C, z, zt, th, &t, &a)) {        /* no decrease: stalled */
            memcpy(z, C->zo, (size_t)m * sizeof *z);
            break;
        }
        small = a < 0.02 ? small + 1 : 0;              /* crawling: give up */
        if (small >= REF_SSN_CRAWL) break;
        th = t;
    }
    if (!*solved && st == LCP_OK) memcpy(C->zn, z, (size_t)m * sizeof *z); /* last iterate */
    ref_try_end(C, z, &T, *solved, st);
    lcp_free(sb);
    lcp_free(want);
    lcp_free(zt);
    ref_cpl_free(&K);
    C->eps = K.shift;
    return st;
}
