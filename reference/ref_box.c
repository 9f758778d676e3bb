/* ref_box.c: the boxed problem with the current (frozen) bounds, exactly: block steps,
 * projected Newton steps, single pivots, and the proximal loop for semi-definite A.
 *
 * COMPUTES.  z with  w = A z + q,  lo <= z <= hi  and the complementarity of each row with
 * its frozen bounds, for symmetric positive (semi-)definite A (the factors are of the
 * symmetric part when A is symmetric only to rounding; w always uses A itself), as the
 * solution of a pivoted partition (ref_partition.c).
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
 *   Interior-point start (ref_ipm.c): once a block step leaves more than REF_IPM_VIOL
 * violators and more than half of those three block steps earlier, a partition from the
 * interior, from which block steps resume (at most once a solve).  In a friction round of
 * a large problem (nnz(A) + m > REF_PGS_SMALL, ref_pgs_small) it also replaces the first
 * switch to projected Newton steps (once a round): there those steps crawl, a
 * factorisation each (the 10626-row pile: 165021 pivots before, 81836 after, the same
 * answer); on small problems they are cheap, and there the interior point changed which
 * iterate the later routes start from (the 864-row corpus case fric3d-1 ended with a ten
 * times larger residual), so it is not used.
 *   Semi-definite A.  Redundant contacts make A_FF singular; LDL^T then shows a pivot
 * d_k ~ rounding (or negative), and (1) may have no solution.  Once a dependent pivot was
 * seen (C->eps > 0) the boxed problem is solved by proximal point steps (Rockafellar 1976):
 *     z+ = the solution of LCP(A + eps D, q - eps D zc),   zc <- z+,   D = diag(A),
 * starting from zc = 0.  Each step is a positive definite problem, pivoted exactly as above
 * (warm from the previous partition).  For a monotone LCP with a solution the steps
 * converge to a solution (the part of z in the null space of A stays near the centre, the
 * rest converges at the rate eps / (lambda + eps)); eps starts at 1e-3 (well conditioned
 * steps, no runaway partitions) and drops tenfold, down to 1e-9, after every step that
 * needed no pivot.  Stop when the centre stops moving or the unregularised residual is at
 * rounding level (at most REF_MAX_PROX steps a boxed problem).  w, unique for semi-definite
 * A, is then exact.  With friction every round is a new boxed problem: eps goes back to
 * 1e-3 at its start (a round solved with the 1e-9 of the previous one has A_FF conditioned
 * like A itself; on a pool captured with eps = 0 block steps then failed and projected
 * Newton steps crawled until the pivot cap, residual 1e5).
 *
 * ENTRY (ref_prox).  C->lo, C->hi the frozen bounds of this round, C->state a starting
 * partition (cold, warm, or the previous round's), C->eps 0 or the shift of an earlier
 * round; ro->block, ro->ipm the variant.
 * EXIT.  LCP_OK: z the solution of the partition C->state, C->F (with its factor held, for
 * ref_polish) without violator, C->w its w; C->eps > 0 when a dependent pivot was seen.
 * LCP_PIVOT_CAP (C->pivots reached C->max_pivots; z the last solved partition or a feasible
 * Newton iterate, C->row a violator), LCP_ERR_SINGULAR or LCP_ERR_BREAKDOWN (C->row the
 * pivot), LCP_ERR_NOMEM: the driver hands these to the other routes.
 *
 * COST.  One factorisation of A_FF per pivot step; the number of steps is small for contact
 * problems (tens), and at most the pivot cap.  A projected Newton step's arc search costs
 * one product with A (ref_arc_setup) and O(m) plus the clipped rows' entries per trial
 * point (ref_arc_df: f's exact expansion), not a product with A per trial.
 *
 * SOURCES.  J. J. Judice, F. M. Pires, "A block principal pivoting algorithm for large-scale
 * strictly monotone linear complementarity problems", Comput. Oper. Res. 21 (1994) 587-596;
 * K. G. Murty, "Note on a Bard-type scheme for solving the complementarity problem",
 * Opsearch 11 (1974) 123-130 (least-index rule); D. P. Bertsekas, "Projected Newton
 * methods for optimization problems with simple constraints", SIAM J. Control Optim. 20
 * (1982) 221-246; R. T. Rockafellar, "Monotone operators and the proximal point
 * algorithm", SIAM J. Control Optim. 14 (1976) 877-898.
 */
#include "ref_ctx.h"

#include <float.h>
#include <string.h>

#define REF_SHIFT_MIN 1e-9 /* smallest eps (reached while the partition stays put) */
#define REF_MAX_PROX 100   /* proximal steps a boxed problem (a friction round) */

/* f(z) = 1/2 z^T (A + eps D) z + (q - eps D zc)^T z, the quadratic whose minimum over the
 * box is the (regularised) problem; the arc search evaluates only differences of it.
 * The arc search's data at zo with Newton point zN (C->zo, C->zn): with H = As + eps D
 * (As the symmetric part that is factored, A itself when symmetric), dN = zN - zo,
 *     C->du = H dN,   C->gz = H zo + q - eps D zc   (the gradient of f at zo).
 * One product with As (two when A is only symmetric to rounding; otherwise g = w(zo),
 * C->wo); each trial point then costs O(m) plus the rows it clips
 * (ref_arc_df), not a product with A. */
static void ref_arc_setup(ref_ctx *C)
{
    const lcp_csr *S = C->As.p ? &C->As : &C->P->A;
    int m = C->m;
    for (int i = 0; i < m; i++) C->cz[i] = C->zn[i] - C->zo[i];   /* dN (scratch) */
    lcp_csr_matvec(S, C->cz, C->du);
    if (C->As.p) lcp_csr_matvec(S, C->zo, C->gz);
    else memcpy(C->gz, C->wo, (size_t)m * sizeof *C->gz);    /* A symmetric: g = w(zo) */
    for (int i = 0; i < m; i++) {
        double e = C->eps > 0.0 ? C->eps * C->diag[i] : 0.0;
        C->du[i] += e * C->cz[i];
        if (C->As.p) C->gz[i] += C->P->q[i] + e * (C->zo[i] - C->zc[i]);
        C->cz[i] = 0.0;
    }
}

/* f(z) - f(zo) for the trial point z = z(a) = mid(lo, zo + a dN, hi), exactly as the
 * quadratic's expansion  g^T d + 1/2 d^T H d,  d = z - zo = a dN + c,  c nonzero only on
 * the rows the bounds clip:
 *     d^T H d = a^2 dN^T H dN + 2 a c^T H dN + c^T H c,
 * the last over the clipped rows' entries only (H symmetric).  C->cz is left zero. */
static double ref_arc_df(ref_ctx *C, const double *z, double a)
{
    const lcp_csr *S = C->As.p ? &C->As : &C->P->A;
    int m = C->m, nc = 0;
    double gd = 0.0, dHd = 0.0, cHdN = 0.0, cHc = 0.0;
    for (int i = 0; i < m; i++) {
        double dn = C->zn[i] - C->zo[i], t = C->zo[i] + a * dn;
        double c = z[i] != t ? (z[i] - C->zo[i]) - a * dn : 0.0;  /* clipped by a bound */
        gd += C->gz[i] * (a * dn + c);                             /* g^T d */
        dHd += dn * C->du[i];                                      /* dN^T H dN */
        if (c != 0.0) {
            C->cz[i] = c;
            C->cl[nc++] = i;
            cHdN += c * C->du[i];                                  /* c^T H dN */
        }
    }
    for (int t = 0; t < nc; t++) {                                 /* c^T H c */
        int i = C->cl[t];
        double hc = C->eps > 0.0 ? C->eps * C->diag[i] * C->cz[i] : 0.0;
        for (int k = S->p[i]; k < S->p[i + 1]; k++) hc += S->x[k] * C->cz[S->j[k]];
        cHc += C->cz[i] * hc;
    }
    for (int t = 0; t < nc; t++) C->cz[C->cl[t]] = 0.0;
    return gd + 0.5 * (a * a * dHd + 2.0 * a * cHdN + cHc);
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
    double ea = fmin(1e-3, r);
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
    ref_arc_setup(C);
    *stuck = 1;
    double a = 1.0;
    for (int k = 0; k < 40 && *stuck; k++, a *= 0.5) {
        double dec = 0.0;                               /* w^T (z(a) - z) */
        for (int i = 0; i < m; i++) {
            z[i] = lcp_mid(C->lo[i], C->zo[i] + a * (C->zn[i] - C->zo[i]), C->hi[i]);
            dec += C->wo[i] * (z[i] - C->zo[i]);
        }
        if (ref_arc_df(C, z, a) <= 1e-4 * dec) *stuck = 0; /* f(z(a)) - f(z) */
    }
    if (*stuck) {
        memcpy(z, C->zo, (size_t)m * sizeof *z);
        memcpy(C->w, C->wo, (size_t)m * sizeof *z);
    } else {
        ref_w(C, z);                                    /* w at the accepted point */
    }
    return LCP_OK;
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
    int ipm_round = 0;                                /* the interior point ran this round */
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
        if (mode == BLOCK && n >= nbest && credit == 0 && !ipm_round && C->P->findex &&
            ro->ipm != 0 && !ref_pgs_small(C)) {        /* a large friction round: the */
            ipm_round = 1;                              /* interior point, once a round */
            st = ref_ipm(C, z);
            if (st != LCP_OK) break;
            nbest = C->m + 1;
            nb = 0;
            credit = REF_JP_COUNT;
            continue;
        }
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
lcp_status ref_prox(ref_ctx *C, const ref_options *ro, double *z)
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
