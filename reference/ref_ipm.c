/* ref_ipm.c: the interior-point start of block pivoting (piles).
 *
 * COMPUTES.  A partition for block pivoting when block steps from a cold partition do not
 * settle: on a large pile block steps neither settle nor stall for tens of steps (A_FF ill
 * conditioned, A far from an M-matrix), and projected Newton steps move a few rows each.
 * Mehrotra's predictor-corrector for the box QP  min 1/2 z^T H z + c^T z,  lo <= z <= hi
 * (H = A + eps D, c = q - eps D zc, so that w = H z + c is C->w), primal-dual path
 * following with slacks s = z - lo, t = hi - z and multipliers lam, nu >= 0:
 *     H z + c - lam + nu = 0,   s lam = mu,   t nu = mu.
 * Each iteration factors  H + diag(lam/s + nu/t)  on the rows that are not fixed (the
 * full pattern: one symbolic analysis) and solves twice (predictor, corrector).  It stops
 * when mu has fallen by REF_IPM_DROP or the partition it implies (at a bound when its
 * barrier term lam/s or nu/t exceeds A_ii) is unchanged for REF_IPM_SAME iterations
 * after mu fell by REF_IPM_START.  It only chooses a start: the answer is still the
 * solution of a pivoted partition, so the exactness and the statuses are unchanged.  A
 * captured 10760-row frictionless sphere pile: 154 steps and 33 s without it, 25 steps and
 * 3.4 s with it.
 *
 * ENTRY.  Called by ref_box.c (at most once a solve, C->ipm_done, and once a friction round
 * of a large problem where block steps stopped helping) after a block step: C->lo,
 * C->hi the frozen bounds, C->eps and C->zc the shift; z and the partition are not read.
 * EXIT.  C->state the partition the last iterate implies (unchanged for the rows when the
 * phase ended at its first iteration, or when a pivot that is not positive, A indefinite,
 * ended it), z the last interior iterate, C->w its w; the backend's factor replaced
 * (C->nff = -1).  Block steps then pivot from that partition, exactly as from any start.
 *
 * COST.  10 to 20 factorisations of A + diag on one pattern (at most REF_IPM_MAX), two
 * solves each.
 *
 * SOURCES.  S. Mehrotra, "On the implementation of a primal-dual interior point method",
 * SIAM J. Optim. 2 (1992) 575-601; S. J. Wright, Primal-Dual Interior-Point Methods, SIAM
 * 1997, ch. 10 and 11.
 */
#include "ref_ctx.h"

#include <string.h>

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

/* The phase's vectors (m entries each): the multipliers, the barrier diagonal, the
 * predictor's and the corrector's directions, the partition implied */
typedef struct ipm_ws {
    double *lam, *nu, *dp, *dz, *dza, *dla, *dna, *dl, *dn;
    signed char *part;
    int ncomp;          /* finite bounds of the free rows: the complementarity pairs */
} ipm_ws;

/* A strictly interior start: z in the middle of a two-sided box, a row's own impulse scale
 * |q_i| / A_ii inside a one-sided one; lam, nu from w plus ||q||_inf.  C->F: the rows that
 * are not fixed. */
static void ipm_start(ref_ctx *C, ipm_ws *W, double *z)
{
    int m = C->m, nf = 0;
    double zs = 0.0, ws = fmax(C->qinf, 1e-300);
    for (int i = 0; i < m; i++)
        if (C->diag[i] > 0.0) zs = fmax(zs, fabs(C->P->q[i]) / C->diag[i]);
    zs = zs > 0.0 ? zs : 1.0;
    for (int i = 0; i < m; i++) {
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
            W->lam[i] = fmax(C->w[i], 0.0) + ws;
            W->ncomp++;
        }
        if (C->hi[i] < INFINITY) {
            W->nu[i] = fmax(-C->w[i], 0.0) + ws;
            W->ncomp++;
        }
    }
}

/* mu = (s^T lam + t^T nu) / ncomp at z, the barrier diagonal dp = lam/s + nu/t, and the
 * partition it implies (*changed = 1 when it differs from the last one, or at it = 0) */
static double ipm_measure(const ref_ctx *C, ipm_ws *W, const double *z, int it, int *changed)
{
    double mu = 0.0;
    *changed = 0;
    for (int t = 0; t < C->nf; t++) {
        int i = C->F[t];
        double s = z[i] - C->lo[i], u = C->hi[i] - z[i], d = 0.0;
        if (C->lo[i] > -INFINITY) {
            mu += s * W->lam[i];
            d += W->lam[i] / s;
        }
        if (C->hi[i] < INFINITY) {
            mu += u * W->nu[i];
            d += W->nu[i] / u;
        }
        W->dp[i] = d;
        signed char ps = ST_FREE;                 /* the partition it implies */
        if (C->lo[i] > -INFINITY && W->lam[i] / s > C->diag[i]) ps = ST_LO;
        if (C->hi[i] < INFINITY && W->nu[i] / u > C->diag[i] && (ps == ST_FREE || u < s))
            ps = ST_HI;
        if (it == 0 || ps != W->part[i]) *changed = 1;
        W->part[i] = ps;
    }
    return mu / W->ncomp;
}

/* Predictor (sigma = 0): (H + D) dza = -w, dlam_a, dnu_a from it, and the centring target
 * *smu = min(sigma, 1) mu with sigma = (mu_a / mu)^3 (mu_a: after the largest step) */
static lcp_status ipm_predict(ref_ctx *C, ipm_ws *W, const double *z, double mu, double *smu)
{
    int nf = C->nf;
    for (int t = 0; t < nf; t++) C->b[t] = -C->w[C->F[t]];
    lcp_status st = C->be.solve(&C->be, C->b, C->x);
    if (st != LCP_OK) return st;
    for (int t = 0; t < nf; t++) {                /* dz_a, and dlam_a, dnu_a from it */
        int i = C->F[t];
        double d = W->dza[i] = C->x[t], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
        if (C->lo[i] > -INFINITY) W->dla[i] = -W->lam[i] - W->lam[i] * d / s;
        if (C->hi[i] < INFINITY) W->dna[i] = -W->nu[i] + W->nu[i] * d / u;
    }
    double amax = ipm_step(C, z, W->lam, W->nu, W->dza, W->dla, W->dna, 1.0);
    double mua = 0.0;
    for (int t = 0; t < nf; t++) {
        int i = C->F[t];
        double d = W->dza[i], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
        if (C->lo[i] > -INFINITY) mua += (s + amax * d) * (W->lam[i] + amax * W->dla[i]);
        if (C->hi[i] < INFINITY) mua += (u - amax * d) * (W->nu[i] + amax * W->dna[i]);
    }
    mua /= W->ncomp;
    double sig = pow(fmax(mua, 0.0) / mu, 3.0);
    *smu = fmin(sig, 1.0) * mu;
    return LCP_OK;
}

/* Corrector: (H + D) dz = -(w - lam + nu) + rl / s - ru / t with
 * rl = smu - s lam - ds_a dlam_a,  ru = smu - t nu - dt_a dnu_a; then the step (0.99 of the
 * largest) on z, lam, nu and w at the new z */
static lcp_status ipm_correct(ref_ctx *C, ipm_ws *W, double *z, double smu)
{
    int nf = C->nf;
    for (int t = 0; t < nf; t++) {
        int i = C->F[t];
        double d = W->dza[i], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
        double r = -(C->w[i] - W->lam[i] + W->nu[i]);
        if (C->lo[i] > -INFINITY) r += (smu - s * W->lam[i] - d * W->dla[i]) / s;
        if (C->hi[i] < INFINITY) r -= (smu - u * W->nu[i] + d * W->dna[i]) / u;
        C->b[t] = r;
    }
    lcp_status st = C->be.solve(&C->be, C->b, C->x);
    if (st != LCP_OK) return st;
    for (int t = 0; t < nf; t++) {                /* dz, and dlam, dnu from it */
        int i = C->F[t];
        double d = W->dz[i] = C->x[t], da = W->dza[i], s = z[i] - C->lo[i], u = C->hi[i] - z[i];
        if (C->lo[i] > -INFINITY)
            W->dl[i] = (smu - s * W->lam[i] - da * W->dla[i] - W->lam[i] * d) / s;
        if (C->hi[i] < INFINITY)
            W->dn[i] = (smu - u * W->nu[i] + da * W->dna[i] + W->nu[i] * d) / u;
    }
    double a = ipm_step(C, z, W->lam, W->nu, W->dz, W->dl, W->dn, 0.99);
    for (int t = 0; t < nf; t++) {
        int i = C->F[t];
        z[i] += a * W->dz[i];
        if (C->lo[i] > -INFINITY) W->lam[i] += a * W->dl[i];
        if (C->hi[i] < INFINITY) W->nu[i] += a * W->dn[i];
    }
    ref_w(C, z);
    return LCP_OK;
}

lcp_status ref_ipm(ref_ctx *C, double *z)
{
    int m = C->m, same = 0;
    lcp_status st = LCP_OK;
    ipm_ws W;
    memset(&W, 0, sizeof W);
    double **v[] = {&W.lam, &W.nu, &W.dp, &W.dz, &W.dza, &W.dla, &W.dna, &W.dl, &W.dn};
    int ok = 1;
    for (size_t k = 0; k < sizeof v / sizeof *v; k++)
        ok = (*v[k] = lcp_calloc((size_t)m, sizeof **v[k])) != NULL && ok;
    W.part = lcp_malloc((size_t)m, 1);
    if (!ok || !W.part) {
        st = LCP_ERR_NOMEM;
        goto out;
    }
    ipm_start(C, &W, z);
    if (C->nf == 0 || W.ncomp == 0) goto out;
    double mu0 = -1.0;
    for (int it = 0; it < REF_IPM_MAX; it++) {
        int changed, bad = -1;
        double mu = ipm_measure(C, &W, z, it, &changed), smu;
        if (mu0 < 0.0) mu0 = mu;
        same = changed ? 0 : same + 1;
        if (mu <= REF_IPM_DROP * mu0 || (mu <= REF_IPM_START * mu0 && same >= REF_IPM_SAME))
            break;
        st = C->be.factor(&C->be, C->F, C->nf, C->eps, W.dp, 0.0, &bad);
        C->iterations++;
        C->ipm_steps++;
        if (st != LCP_OK || bad >= 0) break;         /* not positive: keep the partition */
        st = ipm_predict(C, &W, z, mu, &smu);
        if (st == LCP_OK) st = ipm_correct(C, &W, z, smu);
        if (st != LCP_OK) break;
    }
    for (int t = 0; t < C->nf; t++) C->state[C->F[t]] = W.part[C->F[t]];
out:
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) lcp_free(*v[k]);
    lcp_free(W.part);
    return st;
}
