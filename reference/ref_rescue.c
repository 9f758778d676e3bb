/* ref_rescue.c: the final check at rounding, and the routes tried when pivoting ends
 * without an answer: PGS then semismooth Newton, then Lemke's method (a ray only with a
 * checked certificate; enumeration of the bases of a small problem).
 *
 * COMPUTES.  The final check (ref_rounding): z is an answer (LCP_OK or LCP_NONUNIQUE) only
 * when every row's natural residual of the problem as given (coupled bounds, w = A z + q
 * unshifted) is at rounding,
 *     |r_i| <= REF_ROUND eps ((|A||z|)_i + |q_i|)   for every i,  REF_ROUND = 16,
 * (eps = DBL_EPSILON: 16 eps bounds the rounding of the products and sums of a row with a
 * few tens of entries and leaves room for the refinement's last step; the committed
 * instances end at 0.2 to 1.1 eps).  When a route ends without an answer (ref_rescuable: a
 * pivoting that breaks down on a semi-definite or indefinite block, a pivot cap, rounds that
 * do not settle, a final check not at rounding, a frozen round's ray under friction), the
 * others are tried, in order (ref_rescue):
 *   PGS then Newton (ref_pgs_newton; info->route `pgs+newton'): PGS from the best iterate
 * seen (a start near a solution when one exists: PGS converges on contact problems where
 * pivoting stalls; at most REF_RESCUE_SWEEPS sweeps, in doubling chunks), and after each
 * chunk semismooth Newton steps on the problem as given from its iterate (ref_ssn.c: any
 * A, friction coupled), up to REF_SSN_TRIES tries while each halves the residual (on the
 * 10626-row pile tries that crawled, six short steps each, were repeated while each ended
 * a little better: four tries of six sparse-LU steps, 0.28 s each).  On problems with
 * nnz(A) + m <= REF_PGS_SMALL the driver also tries it at the 20th friction round and
 * again whenever the rounds' best residual fell tenfold since (ldlt_ref.c), and first of
 * all for non-symmetric A with friction (Lemke's
 * dense rounds took 83 s of CPU on a 675-row problem).
 *   The friction cone's LCP (ref_cone.c, with friction; `lemke-cone'): box friction as the
 * standard LCP of its square cone, by Lemke's method on a sparse basis (lemke_sparse.c), for
 * symmetric positive semi-definite A (where a solution exists), within a flop budget; the
 * last route for friction problems.
 *   Lemke (ref_lemke, without friction; `lemke'): Lemke's method on the problem as given
 * (lemke_ref.c: dense, any A, the box by the standard reformulation; also the per-round
 * solver of `lemke-ref' and of A above sym_tol).  A ray is LCP_ERR_NO_SOLUTION only when its
 * direction is a Farkas certificate checked on A and q (C->cert: its worst relative row,
 * info->certificate); an uncertified ray on at most 16 unknowns is answered by enumerating
 * the complementary bases (`enumeration'); otherwise LCP_UNDECIDED.
 *
 * ENTRY (ref_rescue).  The driver's status of the pivoting and its rounds, z, C->zbest the
 * best iterate seen; C->lo, C->hi, C->state whatever the rounds left.
 * EXIT.  LCP_OK: z at rounding row by row on the problem as given, *how the route;
 * LCP_ERR_NO_SOLUTION with C->cert; LCP_UNDECIDED (z the last route's iterate: the driver
 * keeps the best); LCP_ERR_NOMEM.  C->eps = 0, the frozen bounds those of the problem
 * (Lemke) or of the last Newton try.
 *
 * COST.  PGS: at most about 4e8 multiply-adds; Newton as in ref_ssn.c; Lemke: 4 n^2 flops a
 * pivot on a dense basis inverse (n <= 4000 after the reformulation), enumeration 2^n solves
 * of at most 16 unknowns.
 */
#include "ref_ctx.h"
#include "solvers.h"

#include <float.h>
#include <limits.h>
#include <string.h>

#define REF_ENUM_BASES (1L << 16) /* bases the friction rounds' enumerations visit a solve */
#define REF_ROUND 16.0     /* LCP_OK when every |r_i| <= REF_ROUND eps ((|A||z|)_i + |q_i|) */
#define REF_PGS_CHUNK 250   /* PGS sweeps before the first Newton try (doubled after each) */
#define REF_PGS_SMALL 2e5   /* nnz(A) + m up to which Newton follows every PGS chunk (and the
                               driver retries the route in the rounds): on larger piles a
                               Newton step (a sparse LU) costs more than the sweeps */
#define REF_PN_AGAIN 0.5    /* a Newton try goes on from its last iterate only when that
                               halved the residual */
#define REF_RESCUE_SWEEPS 20000 /* PGS sweeps of the rescue route (fewer on large problems:
                                   about 4e8 multiply-adds) */

/* The final check: every row at rounding, |r_i| <= REF_ROUND eps s_i with r the natural
 * residual of the problem as given (coupled bounds), w unshifted.  Returns the row
 * furthest from rounding (also in C->row), or -1 when every row is at rounding. */
int ref_rounding(ref_ctx *C, const double *z)
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
int ref_rescuable(const ref_ctx *C, lcp_status st, int lemke)
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

/* The boxed problem with the frozen bounds by Lemke's method (lemke_ref.c): any A, no
 * partition kept between rounds (each round starts Lemke afresh; the pivot cap applies to
 * each round).  With friction, the enumeration that answers a round's uncertified ray
 * visits at most REF_ENUM_BASES bases a solve, all rounds together (then LCP_UNDECIDED:
 * the rounds end and the other routes go on): a generated 21-row problem took 500 rounds
 * of up to 2^16 bases each, 10 to 12 s of CPU (corpus case fuzz-fric-0; now 0.1 s). */
lcp_status ref_lemke(ref_ctx *C, double *z)
{
    long piv = 0, left = C->P->findex ? REF_ENUM_BASES - C->enum_bases : LONG_MAX, l0 = left;
    int row = -1, enumerated = 0;
    lcp_status st = ref_lemke_box(C->P, C->lo, C->hi, C->max_pivots, z, &piv, &row, &C->cert,
                                  &enumerated, &left);
    C->pivots += piv;
    C->enumerated |= enumerated;
    C->enum_bases += l0 - left;
    C->iterations++;
    C->nf = 0;                                      /* z is within the frozen bounds */
    if (st != LCP_OK) C->row = row;
    return st;
}

/* Whether PGS then Newton interleaves (and the driver retries it in the rounds): small
 * problems, nnz(A) + m <= REF_PGS_SMALL */
int ref_pgs_small(const ref_ctx *C)
{
    return (double)LCP_CSR_NNZ(&C->P->A) + C->m <= REF_PGS_SMALL;
}

lcp_status ref_ssn_tries(ref_ctx *C, double *z, int *solved)
{
    lcp_status st = LCP_OK;
    *solved = 0;
    C->eps = 0.0;
    for (int t = 0; t < REF_SSN_TRIES && !*solved; t++) {
        int tried = 0;
        double before = ref_rinf(C, z);
        st = ref_ssn(C, z, solved, &tried);
        if (st != LCP_OK) break;
        if (*solved || !tried || !(ref_rinf(C, C->zn) <= REF_PN_AGAIN * before))
            break;                                          /* crawled: no more tries */
        memcpy(z, C->zn, (size_t)C->m * sizeof *z);         /* better: go on from there */
    }
    if (st == LCP_OK && *solved && ref_rounding(C, z) >= 0) *solved = 0;
    return st;
}

/* PGS from the best iterate seen (a start near a solution when one exists: PGS converges
 * on contact problems where pivoting stalls), then semismooth Newton steps on the problem
 * as given from its iterate (ref_ssn: any A, friction coupled), interleaved on small
 * problems (ref_pgs_small: nnz(A) + m <= REF_PGS_SMALL): PGS runs in chunks of
 * REF_PGS_CHUNK sweeps, doubled after each, and Newton is tried from PGS's iterate after
 * every chunk (it answers as soon as PGS is inside its region, rather than after all the
 * sweeps).  On larger problems all the sweeps come first (a 10626-row pile took 55 s of
 * CPU interleaved, a Newton step being a sparse LU there).
 * *solved = 1 when a Newton point is a solution at rounding (z; otherwise z the best
 * iterate of the route).  LCP_OK, or LCP_ERR_NOMEM. */
lcp_status ref_pgs_newton(ref_ctx *C, double *z, int *solved)
{
    int m = C->m;
    long nnz = LCP_CSR_NNZ(&C->P->A);
    lcp_options o;
    lcp_info pi;
    lcp_options_default(&o);
    o.warm = 1;
    o.form = LCP_FORM_ASSEMBLED;
    o.tol = 1e-10 * fmax(1.0, C->qinf);
    int cap = (int)fmin(REF_RESCUE_SWEEPS, fmax(200.0, 4e8 / (double)(nnz + m)));
    double *zp = lcp_malloc((size_t)m, sizeof *zp), *zs = lcp_malloc((size_t)m, sizeof *zs);
    lcp_status st = zp && zs ? LCP_OK : LCP_ERR_NOMEM;
    *solved = 0;
    if (st == LCP_OK) {
        memcpy(z, C->zbest, (size_t)m * sizeof *z);
        memcpy(zp, z, (size_t)m * sizeof *z);
    }
    double rz = st == LCP_OK ? ref_rinf(C, z) : INFINITY;
    int first = ref_pgs_small(C) ? REF_PGS_CHUNK : cap;    /* large: all sweeps first */
    for (int done = 0, chunk = first; st == LCP_OK && !*solved && done < cap;
         chunk *= 2) {
        o.max_iter = chunk < cap - done ? chunk : cap - done;   /* PGS, warm from zp */
        done += o.max_iter;
        lcp_status sp = lcp_solve_pgs(C->P, &o, zp, &pi);
        if (sp == LCP_ERR_NOMEM) st = sp;
        if (st != LCP_OK) break;
        if (sp < 0) {                                       /* PGS failed: Newton from the */
            memcpy(zp, z, (size_t)m * sizeof *z);           /* best iterate, once */
            done = cap;
        }
        memcpy(zs, zp, (size_t)m * sizeof *z);               /* Newton from PGS's iterate */
        st = ref_ssn_tries(C, zs, solved);
        double rs = st == LCP_OK ? ref_rinf(C, zs) : INFINITY;
        if (*solved || rs < rz) {                           /* the best of this route */
            memcpy(z, zs, (size_t)m * sizeof *z);
            rz = rs;
        }
        if (sp == LCP_OK) break;                            /* PGS itself at its tol */
    }
    if (st == LCP_OK && *solved) ref_rounding(C, z);        /* C->w, C->s of the answer */
    lcp_free(zp);
    lcp_free(zs);
    return st == LCP_ERR_NOMEM ? st : LCP_OK;
}

/* The other routes, in order: PGS then Newton (ref_pgs_newton); without friction, Lemke's
 * method on the problem as given, whose ray counts only with a certificate and whose
 * uncertified ray on a small problem is answered by enumeration.  LCP_OK (z at rounding,
 * *how the route), LCP_ERR_NO_SOLUTION (certified; C->cert), or LCP_UNDECIDED. */
lcp_status ref_rescue(ref_ctx *C, double *z, int lemke, int *how)
{
    int solved = 0;
    lcp_status st = ref_pgs_newton(C, z, &solved);
    if (st != LCP_OK) return st;
    if (solved) {
        *how = ROUTE_PGS_NEWTON;
        return LCP_OK;
    }
    if (C->P->findex && !lemke) {                      /* friction: the cone's LCP */
        st = ref_cone(C, z, &solved);
        if (st != LCP_OK) return st;
        if (solved) *how = ROUTE_CONE;
        return solved ? LCP_OK : LCP_UNDECIDED;
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
