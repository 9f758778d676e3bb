/* ldlt_ref.c: `ldlt-ref', the exact pivoting reference of lcpbench (the oracle): the driver
 * (ref_solve: the start, the friction rounds, the final status) and the registered entry
 * points (ldlt-ref, lemke-ref, and the dense second opinion).
 *
 * COMPUTES.  z with  w = A z + q,  lo <= z <= hi,  z_i = lo_i => w_i >= 0,
 * z_i = hi_i => w_i <= 0,  lo_i < z_i < hi_i => w_i = 0,  for symmetric positive
 * (semi-)definite A, exactly up to rounding; with friction coupling (findex) the bounds of
 * row i are lo_i |z_f|, hi_i |z_f|, f = findex[i].
 *
 * METHOD.  Principal pivoting on index sets (free, at the lower bound, at the upper bound),
 * one phase a file behind one context (ref_ctx.h), each file opening with what it assumes
 * (ENTRY) and what it leaves (EXIT):
 *   ref_partition.c  a partition's solve  A_FF z_F = -(q_F + A_FB z_B)  with refinement,
 *                    w, its rounding scale and the violator tests
 *   ref_box.c        the boxed problem with frozen bounds: block steps (Judice-Pires),
 *                    projected Newton steps, least-index single pivots (Murty), proximal
 *                    steps for semi-definite A                        route `block'
 *   ref_ipm.c        the interior-point start of block steps that do not settle
 *                                                                     route `interior-point'
 *   ref_coupled.c    coupled pivoting once the friction rounds keep their partition
 *                                                                     route `coupled'
 *   ref_ssn.c        semismooth Newton when the rounds do not settle  route `newton'
 *   ref_rescue.c     the final check at rounding; when a route ends without an answer,
 *                    PGS then Newton (`pgs+newton'), Lemke (`lemke', a ray only with a
 *                    checked certificate) and enumeration (`enumeration')
 *   ref_cone.c       friction as the LCP of its friction cone, by Lemke's method on a
 *                    sparse basis, after PGS then Newton              route `lemke-cone'
 * info->route names the route that answered.
 *   The driver (this file).  Start: opt->warm: the sets read off z (z_i <= lo_i: lower,
 * >= hi_i: upper, else free); otherwise every row at its lower bound (upper when lo_i =
 * -inf, free when both bounds are infinite), the classical start of block pivoting.
 *   Friction coupling: freeze the bounds of friction rows at the current normal impulses,
 * solve the boxed problem (ref_box.c, warm from the previous partition), update the bounds,
 * repeat until max |bound change| <= REF_SETTLE max(1, max |bound|), or REF_MAX_ROUNDS
 * rounds (LCP_NOT_SETTLED, usable).  The update is damped when the change grows (bounds +=
 * theta (new - old), theta halved down to 1/4: the plain iteration oscillates on piles; the
 * fixed point is the same).  The coupled problem is not an LCP; the residual reported is
 * that of the coupled problem, computed by lcp_residual.  Within the rounds: coupled
 * pivoting once REF_CPL_HELD rounds in a row kept the partition (at most REF_CPL_TRIES
 * tries); on small problems (ref_pgs_small) PGS then Newton at round REF_SSN_ROUND and
 * again each time the best residual fell by REF_PN_GAIN since the last such try (at most
 * REF_PN_TRIES; on a large pile all of PGS's sweeps come before Newton, and at round 20 of
 * the 10626-row pile that cost 2.3 s of CPU without an answer); semismooth Newton after
 * REF_SSN_ROUND rounds and again every REF_SSN_GAP (at most REF_SSN_TRIES tries, none after
 * REF_SSN_IDLE in a row that end no better than their round); when a Newton try ends better
 * than its round, the rounds go on from its iterate.
 *   The final status: the last partition polished (ref_polish; with Lemke and friction the
 * coupled partition solved once more by a dense LU, ref_coupled_dense), LCP_NONUNIQUE when
 * the unshifted A_FF of the final partition has a dependent pivot (z not unique, w exact),
 * then the final check at rounding (ref_rescue.c); what is not at rounding goes to the
 * other routes.  Otherwise LCP_PIVOT_CAP (cap on moved indices: opt->max_pivots when the
 * caller set it; the caller's cap is a cap, no other route), LCP_NOT_SETTLED (coupling) or
 * LCP_UNDECIDED, with info->row (the row furthest from rounding).  A usable (positive)
 * status never returns a z worse (||r||_inf) than the start: the best of the start, each
 * friction round's z, each Newton try's iterate and the final z is returned; a final
 * residual that is not finite (z or w overflowed) is never handed back as usable:
 * LCP_ERR_NONFINITE.  Non-finite data (q, A, bounds, warm start): LCP_ERR_FORMAT with the
 * row.
 *
 * SYMMETRIC TO ROUNDING.  A assembled in floating point (J^T M^-1 J) is often symmetric
 * only to rounding.  When its relative asymmetry  max|A - A^T| / max|A|  is at most
 * opt->sym_tol (default 1e-12; reported in info->asymmetry), the backend factors the
 * symmetric part  As = (A + A^T) / 2  while every w (the refinement's residual, the
 * violators, the final check) is computed with A itself: the factor of As_FF is then a
 * preconditioner of A_FF for the refinement, which converges at the rate
 * ||As_FF^-1 (A - As)_FF|| (cond(A_FF) times the asymmetry), so the answer is that of A.
 * Above the tolerance (or with ref_options.backend REF_LEMKE: the registered `lemke-ref')
 * each round's boxed problem is solved by Lemke's method instead (ref_lemke in
 * ref_rescue.c; lemke_ref.c: dense, any A, the box by the standard reformulation; no
 * factorisation, no coupled pivoting), inside the same friction rounds and the same final
 * check; with friction PGS then Newton are tried first.
 *
 * COST.  One factorisation of A_FF per pivot step (no updates: CHOLMOD's Modify module is
 * GPL; large ones supernodal, ref_super.c) and per interior-point iteration, plus a few
 * solves and products with A (the phases' files give theirs).  The number of steps is small
 * for contact problems (tens), and at most the pivot cap.
 *
 * SOURCES.  The phases' files; R. Smith, ODE lcp.cpp (Dantzig / Cottle-Dantzig boxed LCP
 * with findex, the bound-freezing convention); T. Davis, CHOLMOD user guide.
 */
#include "ref_ctx.h"
#include "solvers.h"

#include <string.h>

#define REF_MAX_ROUNDS 500 /* friction bound rounds */
#define REF_SETTLE 1e-12   /* friction bounds settled (relative) */
#define REF_CPL_TRIES 3    /* coupled pivoting tries a solve */
#define REF_CPL_HELD 2     /* ... once this many rounds in a row kept the partition */
#define REF_SSN_ROUND 20   /* semismooth Newton after this many rounds (not settled), */
#define REF_SSN_GAP 5      /* ... again every this many rounds (at most REF_SSN_TRIES), */
#define REF_PN_TRIES 3     /* PGS then Newton within the rounds: at round REF_SSN_ROUND, */
#define REF_PN_GAIN 0.1    /* ... and again once the best residual fell by this factor */
#define REF_SSN_IDLE 2     /* ... none after this many in a row that end no better than
                              the round they started from */

static const char *const route_names[] = {"", "pgs+newton", "lemke", "enumeration",
                                          "lemke-cone"};

/* The driver's state of one solve, beside the phases' context */
typedef struct ref_drive {
    const lcp_options *opt;
    const ref_options *ro;
    int lemke;          /* each round by Lemke's method (lemke-ref, or A above sym_tol) */
    int have_be;        /* C->be was created */
    int route;          /* ROUTE_* of a rescue route that answered, or ROUTE_NONE */
    int coupled;        /* 1: coupled pivoting solved the coupling, 2: Newton steps */
    int settled;        /* 0: the rounds ran to REF_MAX_ROUNDS */
    int nonunique;      /* A_FF of the final partition singular */
    int rounds;         /* friction rounds */
    double rbest;       /* ||r||_inf of C->zbest */
    double scale, theta, prev; /* the bounds' scale, the damping, the last change */
    int brow;           /* the row of the largest bound change */
    int tries, held;    /* coupled tries; rounds in a row that kept the partition */
    int ssn_tries, ssn_idle, ssn_next; /* Newton tries, those no better, the next round */
    int pn_tries;       /* PGS-then-Newton tries within the rounds */
    double pn_from;     /* the best residual when the last of them started */
} ref_drive;

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


/* The context's vectors, m entries each (zc zeroed); LCP_ERR_NOMEM when one is missing */
static lcp_status ref_ctx_alloc(ref_ctx *C)
{
    size_t m = (size_t)C->m;
    C->diag = lcp_malloc(m, sizeof *C->diag);
    C->lo = lcp_malloc(m, sizeof *C->lo);
    C->hi = lcp_malloc(m, sizeof *C->hi);
    C->state = lcp_malloc(m, sizeof *C->state);
    C->F = lcp_malloc(m, sizeof *C->F);
    C->w = lcp_malloc(m, sizeof *C->w);
    C->s = lcp_malloc(m, sizeof *C->s);
    C->b = lcp_malloc(m, sizeof *C->b);
    C->x = lcp_malloc(m, sizeof *C->x);
    C->zc = lcp_calloc(m, sizeof *C->zc);
    C->Ff = lcp_malloc(m, sizeof *C->Ff);
    C->zo = lcp_malloc(m, sizeof *C->zo);
    C->wo = lcp_malloc(m, sizeof *C->wo);
    C->zn = lcp_malloc(m, sizeof *C->zn);
    C->zbest = lcp_malloc(m, sizeof *C->zbest);
    C->du = lcp_malloc(m, sizeof *C->du);
    C->gz = lcp_malloc(m, sizeof *C->gz);
    C->cz = lcp_calloc(m, sizeof *C->cz);
    C->cl = lcp_malloc(m, sizeof *C->cl);
    C->nff = -1;
    return C->diag && C->lo && C->hi && C->state && C->F && C->w && C->s && C->b && C->x &&
                   C->zc && C->Ff && C->zo && C->wo && C->zn && C->zbest && C->du && C->gz &&
                   C->cz && C->cl
               ? LCP_OK
               : LCP_ERR_NOMEM;
}

static void ref_ctx_free(ref_ctx *C)
{
    lcp_free(C->diag);
    lcp_free(C->lo);
    lcp_free(C->hi);
    lcp_free(C->state);
    lcp_free(C->F);
    lcp_free(C->w);
    lcp_free(C->s);
    lcp_free(C->b);
    lcp_free(C->x);
    lcp_free(C->zc);
    lcp_free(C->Ff);
    lcp_free(C->zo);
    lcp_free(C->wo);
    lcp_free(C->zn);
    lcp_free(C->zbest);
    lcp_free(C->du);
    lcp_free(C->gz);
    lcp_free(C->cz);
    lcp_free(C->cl);
}

/* The data checked, the symmetric part (or Lemke's method), the context, the backend */
static lcp_status ref_setup(ref_ctx *C, ref_drive *D, const double *z, lcp_info *info)
{
    const lcp_problem *P = C->P;
    lcp_status st = ref_check(P, D->opt, z, &C->row);
    if (st != LCP_OK) return st;
    if (!P->symmetric && !lcp_csr_is_symmetric(&P->A)) { /* symmetric to rounding? */
        st = ref_sympart(&P->A, &C->As, &info->asymmetry);
        if (st != LCP_OK) return st;
        if (!(info->asymmetry <= D->opt->sym_tol)) D->lemke = 1;  /* no: Lemke's method */
        if (D->lemke) lcp_csr_free(&C->As);
    }
    st = ref_ctx_alloc(C);
    if (st != LCP_OK) return st;
    lcp_csr_diag(&P->A, C->diag);
    const lcp_csr *Af = C->As.p ? &C->As : &P->A;     /* what is factored */
    if (!D->lemke) {
        const ref_options *ro = D->ro;
        st = ro->backend == REF_DENSE ? ref_dense_create(&C->be, Af, C->diag)
                                      : ref_cholmod_create(&C->be, Af, C->diag, ro->full_pattern,
                                                          ro->supernodal);
        if (st != LCP_OK) return st;
        D->have_be = 1;
    }
    for (int i = 0; i < C->m; i++) C->qinf = fmax(C->qinf, fabs(P->q[i]));
    C->max_pivots = D->opt->max_pivots > 0 ? D->opt->max_pivots : 50L * C->m + 1000;
    return LCP_OK;
}

/* The iterate zs with ||r||_inf = rinf becomes the best seen when it is better */
static void ref_keep(ref_ctx *C, ref_drive *D, const double *zs, double rinf)
{
    if (rinf < D->rbest) {
        D->rbest = rinf;
        memcpy(C->zbest, zs, (size_t)C->m * sizeof *zs);
    }
}

/* The start: z (lcp_start), the best iterate, the bounds frozen at z, the starting
 * partition; for non-symmetric A with friction, PGS then Newton first (Lemke's rounds are
 * dense and slow) */
static lcp_status ref_begin(ref_ctx *C, ref_drive *D, double *z)
{
    const lcp_problem *P = C->P;
    int m = C->m;
    lcp_start(P, D->opt, z);               /* cold: mid(lo_eff, 0, hi_eff); warm: projected */
    lcp_residuals R;
    lcp_residual(P, z, C->w, &R);          /* the start: a usable answer is never worse */
    D->rbest = R.rinf;
    memcpy(C->zbest, z, (size_t)m * sizeof *z);
    for (int i = 0; i < m; i++) C->lo[i] = C->hi[i] = 0.0;
    ref_bounds(C, z, 1.0, &D->scale, &D->brow);
    for (int i = 0; i < m; i++) {          /* the starting partition */
        double lo = C->lo[i], hi = C->hi[i];
        if (D->opt->warm)
            C->state[i] = z[i] <= lo ? ST_LO : (z[i] >= hi ? ST_HI : ST_FREE);
        else
            C->state[i] = lo > -INFINITY ? ST_LO : (hi < INFINITY ? ST_HI : ST_FREE);
    }
    D->theta = 1.0;
    D->prev = INFINITY;
    D->ssn_next = D->ro->ssn > 0 ? D->ro->ssn : REF_SSN_ROUND;
    if (D->ro->rescue && D->lemke && P->findex) {
        int solved = 0;
        lcp_status st = ref_pgs_newton(C, z, &solved);
        if (st != LCP_OK) return st;
        if (solved) {
            D->route = ROUTE_PGS_NEWTON;
            D->coupled = 1;
        }
    }
    return LCP_OK;
}

/* Round REF_SSN_ROUND without settling: PGS, then Newton; the rounds go on where they were
 * when it does not answer.  *stop = 1 when it answered (or failed). */
static lcp_status round_pgs_newton(ref_ctx *C, ref_drive *D, double *z, int *stop)
{
    int solved = 0;
    double *zk = lcp_malloc((size_t)C->m, sizeof *zk);
    if (zk) memcpy(zk, z, (size_t)C->m * sizeof *z);
    lcp_status st = zk ? ref_pgs_newton(C, z, &solved) : LCP_ERR_NOMEM;
    if (st == LCP_OK && !solved) memcpy(z, zk, (size_t)C->m * sizeof *z);
    lcp_free(zk);
    if (st != LCP_OK || solved) {
        D->route = solved ? ROUTE_PGS_NEWTON : ROUTE_NONE;
        D->coupled = solved;
        *stop = 1;
    }
    return st;
}

/* The rounds do not settle: a Newton try (rround: this round's coupled residual).  When its
 * last iterate is better than the round, the rounds go on from it (a new start, not the
 * cycle they left); after REF_SSN_IDLE tries in a row no better, no more tries. */
static lcp_status round_ssn(ref_ctx *C, ref_drive *D, double *z, double rround, int *stop)
{
    int solved = 0, tried = 0, m = C->m;
    D->ssn_tries++;
    D->ssn_next += REF_SSN_GAP;
    lcp_status st = ref_ssn(C, z, &solved, &tried);
    if (st != LCP_OK || solved) {
        if (st == LCP_OK) D->coupled = 2;           /* by Newton steps */
        *stop = 1;
        return st;
    }
    lcp_residuals R;
    R.rinf = rround;
    if (tried) lcp_residual(C->P, C->zn, C->wo, &R);
    if (tried) ref_keep(C, D, C->zn, R.rinf);
    if (!tried || R.rinf >= rround) D->ssn_idle++;
    else D->ssn_idle = 0;
    if (D->ssn_idle >= REF_SSN_IDLE) D->ssn_tries = REF_SSN_TRIES;
    if (tried && R.rinf < rround) {
        memcpy(z, C->zn, (size_t)m * sizeof *z);
        ref_bounds(C, z, 1.0, &D->scale, &D->brow);
        for (int i = 0; i < m; i++)
            C->state[i] = z[i] <= C->lo[i] ? ST_LO : (z[i] >= C->hi[i] ? ST_HI : ST_FREE);
        D->theta = 1.0;
        D->prev = INFINITY;
        D->held = 0;
    }
    return LCP_OK;
}

/* After a round that did not settle: coupled pivoting when the partition held, PGS then
 * Newton at round REF_SSN_ROUND, a Newton try when due.  *stop = 1: the rounds end. */
static lcp_status round_tries(ref_ctx *C, ref_drive *D, double *z, double rround, int *stop)
{
    const ref_options *ro = D->ro;
    lcp_status st = LCP_OK;
    if (D->held >= REF_CPL_HELD && D->tries < REF_CPL_TRIES && !D->lemke) {
        int solved = 0;                     /* the partition held: solve the coupling */
        D->tries++;
        st = ref_coupled(C, z, &solved);
        D->coupled = solved;
        if (st != LCP_OK || solved) {
            *stop = 1;
            return st;
        }
    }
    if (!D->lemke && ro->rescue && ro->ssn != 0 && ref_pgs_small(C) &&
        (D->rounds == REF_SSN_ROUND ||                    /* and again at each decade won */
         (D->rounds > REF_SSN_ROUND && D->pn_tries < REF_PN_TRIES &&
          D->rbest <= REF_PN_GAIN * D->pn_from))) {
        D->pn_tries++;
        D->pn_from = D->rbest;
        st = round_pgs_newton(C, D, z, stop);
        if (*stop) return st;
    }
    if (!D->lemke && D->ssn_tries < REF_SSN_TRIES && ro->ssn != 0 && D->rounds >= D->ssn_next)
        st = round_ssn(C, D, z, rround, stop);
    return st;
}

/* The friction rounds (one without coupling): each round's boxed problem (ref_box.c, or
 * Lemke's method), the best iterate kept, the bounds frozen again until they settle */
static lcp_status ref_rounds(ref_ctx *C, ref_drive *D, double *z)
{
    lcp_status st = LCP_OK;
    for (D->rounds = D->route ? 0 : 1; !D->route; D->rounds++) {
        long piv0 = C->pivots;
        int stop = 0;
        st = D->lemke ? ref_lemke(C, z) : ref_prox(C, D->ro, z);
        if (st != LCP_OK || !C->P->findex) break;
        lcp_residuals R;
        lcp_residual(C->P, z, C->zn, &R);   /* the coupled residual of this round's z */
        ref_keep(C, D, z, R.rinf);
        double change = ref_bounds(C, z, D->theta, &D->scale, &D->brow);
        if (change <= REF_SETTLE * D->scale) break;
        if (change > D->prev) D->theta = fmax(0.5 * D->theta, 0.25); /* growing: damp */
        D->prev = change;
        D->held = C->pivots == piv0 ? D->held + 1 : 0;
        st = round_tries(C, D, z, R.rinf, &stop);
        if (st != LCP_OK || stop) break;
        if (D->rounds >= REF_MAX_ROUNDS) {
            D->settled = 0;
            C->row = D->brow;
            break;
        }
    }
    return st;
}

/* ref_polish, undone when it moves an answer at rounding off it (on a semi-definite A the
 * shifted factor's steps move z along the null space, and bound rows can then fail) */
static lcp_status ref_polish_kept(ref_ctx *C, double *z)
{
    int was = C->nf > 0 && ref_rounding(C, z) < 0;
    double *z0 = was ? lcp_malloc((size_t)C->m, sizeof *z0) : NULL;
    if (was && !z0) return LCP_ERR_NOMEM;
    if (z0) memcpy(z0, z, (size_t)C->m * sizeof *z);
    lcp_status st = ref_polish(C, z);
    if (st == LCP_OK && z0 && ref_rounding(C, z) >= 0) {
        memcpy(z, z0, (size_t)C->m * sizeof *z);
        ref_rounding(C, z);               /* C->w, C->s of z again */
        C->row = -1;
    }
    lcp_free(z0);
    return st;
}

/* The pivoting's status made true: the coupling (Lemke), the polish, a singular final A_FF
 * (LCP_NONUNIQUE), the rounds' cap, the final check at rounding (LCP_UNDECIDED if not) */
static lcp_status ref_final(ref_ctx *C, ref_drive *D, lcp_status st, double *z)
{
    if (st == LCP_OK && D->lemke && C->P->findex && !D->route) /* rounds end at 1e-12 */
        st = ref_coupled_dense(C->P, C->lo, C->hi, z, &D->coupled);
    if (st == LCP_OK && D->have_be && !D->coupled) st = ref_polish_kept(C, z);
    if (st == LCP_OK && C->eps > 0.0 && C->nf > 0) { /* shifted: is A_FF itself singular? */
        int bad = -1;
        st = C->be.factor(&C->be, C->F, C->nf, 0.0, NULL, REF_TAU, &bad);
        C->nff = -1;
        D->nonunique = bad >= 0;
        if (D->nonunique) C->row = bad;
    }
    if (st == LCP_OK && !D->settled) st = LCP_NOT_SETTLED;
    if (st == LCP_OK || st == LCP_NONUNIQUE) {
        for (int t = 0; t < C->nf; t++) {  /* free values within rounding of a bound */
            int i = C->F[t];
            z[i] = lcp_mid(C->lo[i], z[i], C->hi[i]);
        }
        if (ref_rounding(C, z) >= 0) st = LCP_UNDECIDED; /* not at rounding: go on */
        else if (D->nonunique) st = LCP_NONUNIQUE;
    }
    return st;
}

/* No answer yet: the other routes (ref_rescue.c), unless the caller's own cap was hit */
static lcp_status ref_other_routes(ref_ctx *C, ref_drive *D, lcp_status st, double *z)
{
    if (!D->ro->rescue || !ref_rescuable(C, st, D->lemke) ||
        (st == LCP_PIVOT_CAP && D->opt->max_pivots > 0))   /* the caller's cap is a cap */
        return st;
    int how = 0;
    lcp_residuals R;                     /* the routes start from the best iterate: the one
                                            this route ended on, when it is the best */
    lcp_residual(C->P, z, C->wo, &R);
    if (isfinite(R.rinf)) ref_keep(C, D, z, R.rinf);
    lcp_status s2 = ref_rescue(C, z, D->lemke, &how);
    if (s2 == LCP_OK || s2 < 0) {
        D->nonunique = 0;
        D->route = how;
        return s2;
    }
    if (st < 0 || st == LCP_UNDECIDED || s2 == LCP_UNDECIDED)
        return C->P->findex ? LCP_NOT_SETTLED : LCP_UNDECIDED;   /* honest: no answer */
    return st;
}

/* The answer reported: the certificate, the residual of the problem as given (a usable
 * status never worse than the best iterate seen, never a non-finite one), the route */
static lcp_status ref_answer(ref_ctx *C, ref_drive *D, lcp_status st, double *z, lcp_info *info)
{
    lcp_residuals R;
    if (st == LCP_OK || st == LCP_NONUNIQUE) C->row = -1;
    if (st == LCP_ERR_NO_SOLUTION) info->certificate = C->cert;
    if (st >= 0 || st == LCP_ERR_NO_SOLUTION) {
        lcp_residual(C->P, z, C->w, &R);
        info->residual = R.r2;
        info->residual_inf = R.rinf;
        if (st > 0 && !isfinite(R.rinf)) st = LCP_ERR_NONFINITE;  /* no usable answer */
    }
    if (st > 0 && !(info->residual_inf <= D->rbest)) { /* usable but worse than seen */
        memcpy(z, C->zbest, (size_t)C->m * sizeof *z);
        lcp_residual(C->P, z, C->w, &R);
        info->residual = R.r2;
        info->residual_inf = R.rinf;
    }
    if (st == LCP_OK || st == LCP_NONUNIQUE)
        info->route = D->route ? route_names[D->route]
                      : D->lemke ? (C->enumerated ? "enumeration" : "lemke")
                      : D->coupled ? (D->coupled == 2 ? "newton" : "coupled")
                      : C->ipm_done ? "interior-point" : "block";
    return st;
}

/* info and the statistics from the context (after the backend was destroyed) */
static void ref_report(const ref_ctx *C, const ref_drive *D, lcp_status st, lcp_info *info,
                       ref_stats *stats)
{
    info->status = st;
    info->iterations = C->iterations;
    info->pivots = C->pivots + C->ssn_pivots;
    info->work = (double)info->pivots;
    info->factorizations = C->be.factorizations + C->lu_factorizations;
    info->flops = C->be.flops + C->lu_flops;
    info->row = C->row;
    if (!stats) return;
    stats->malloc_delta = C->be.malloc_delta;
    stats->shifted = C->eps > 0.0;
    stats->nonunique = D->nonunique;
    stats->rounds = D->rounds;
    stats->single_steps = C->single_steps;
    stats->newton_steps = C->newton_steps;
    stats->ipm_steps = C->ipm_steps;
    stats->coupled_steps = C->coupled_steps;
    stats->ssn_steps = C->ssn_steps;
    stats->lu_factorizations = C->lu_factorizations;
    stats->analyses = C->be.analyses;
    stats->supernodal = C->be.supernodal;
    stats->lnz = C->be.lnz;
}

lcp_status ref_solve(const lcp_problem *P, const lcp_options *opt, const ref_options *ro,
                     double *z, lcp_info *info, ref_stats *stats)
{
    ref_options rdef;
    ref_ctx C;
    ref_drive D;
    lcp_status st = LCP_OK;
    memset(&C, 0, sizeof C);
    memset(&D, 0, sizeof D);
    if (stats) memset(stats, 0, sizeof *stats);
    if (info) lcp_info_init(info);
    if (!P || !opt || !z || !info || P->m < 0) return LCP_ERR_ARG;
    if (!ro) {
        ref_options_default(&rdef);
        ro = &rdef;
    }
    D.opt = opt;
    D.ro = ro;
    D.lemke = ro->backend == REF_LEMKE;
    D.settled = 1;
    D.rbest = INFINITY;
    C.P = P;
    C.m = P->m;
    C.row = -1;
    C.cert = NAN;
    if (C.m > 0) st = ref_setup(&C, &D, z, info);
    if (C.m > 0 && st == LCP_OK) st = ref_begin(&C, &D, z);
    if (C.m > 0 && st == LCP_OK) {
        st = ref_rounds(&C, &D, z);
        st = ref_final(&C, &D, st, z);
        st = ref_other_routes(&C, &D, st, z);
        st = ref_answer(&C, &D, st, z, info);
    }
    if (D.have_be) C.be.destroy(&C.be);
    lcp_csr_free(&C.As);
    ref_report(&C, &D, st, info, stats);
    ref_ctx_free(&C);
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
