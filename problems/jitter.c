/* jitter.c: jitter and drift metrics of a run of a transversal-stability stepper
 * (transversal.h), the runs themselves, and the onset of instability by bisection.
 *
 *   transversal velocity  u_k = P_T v_k, projected with the J of its own state (prob_modal_split)
 *   Nyquist energy        E_nyq,k = 1/2 d^T M d,  d = (u_{k+1} - 2 u_k + u_{k-1}) / 4
 *   normalised jitter     Jstar = mean over the window (second half) of E_nyq / E_ref,
 *                         E_ref = F len (forces) or sum_k m_k g len: quiet < 1e-9 < marginal
 *                         < 1e-4 < jitter
 *   modal content         a_k = psi_max^T M u_k (psi_max: top mode of the initial state),
 *                         E_top = a^2 / 2, growth |mu| = exp(slope / 2) of the least-squares
 *                         line through log E_top over the linear phase (amplitude below
 *                         1e-3 len, from step fit_from = 10 on), MAC(psi_max, u) = (psi^T M u)^2 /
 *                         ((psi^T M psi)(u^T M u))
 *   drift                 max and RMS of |l_j - L_j| / L_j over links and steps
 *   swing                 peak |x| of the last body in the last tenth of the run over the
 *                         first tenth (the T6 amplitude ratio; x is horizontal, the anchor at
 *                         x = 0)
 *   onset                 bisection on h: unstable when max_k E_T,k / E_T,1 >= 1e6 within the
 *                         run (or it explodes)
 * Needs: the steppers and the modal analysis (a world of centre-attached distance joints).
 * Cost per step: one energy split (QR of an n x m matrix) plus the stepper; with modal one
 * modal analysis at the start (every_modal: per step).
 * Source: Francu 2018, "Transversal stability of constraints" (jitter as the transversal
 * oscillation at the Nyquist frequency, h omega < 2); our normalisation.
 */
#include "prob_internal.h"
#include "transversal.h"

#include <stdio.h>

double prob_jitter_nyquist(const prob_world *W, const double *u0, const double *u1,
                           const double *u2)
{
    int dim = W->dim, n = dim * W->nb;
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        double d = (u2[i] - 2.0 * u1[i] + u0[i]) / 4.0;         /* (u+ - 2u + u-) / 4 */
        e += 0.5 * W->mass[i / dim] * d * d;                     /* 1/2 d^T M d */
    }
    return e;
}

static double mean_len(const prob_world *W)
{
    double s = 0.0;
    for (int j = 0; j < W->nj; j++) s += W->joint[j].len;
    return W->nj > 0 ? s / W->nj : 1.0;
}

double prob_jitter_eref(const prob_world *W)
{
    double L = mean_len(W), f = 0.0, mg = 0.0;
    double g = sqrt(v3_dot(W->gravity, W->gravity));
    for (int k = 0; k < W->nb; k++) {
        if (W->force) f += sqrt(v3_dot(W->force + 3 * k, W->force + 3 * k));
        mg += W->mass[k] * g;
    }
    if (!(f > 0.0) && !(mg > 0.0))                               /* neither: 1 m/s^2 */
        for (int k = 0; k < W->nb; k++) mg += W->mass[k];
    return (f > 0.0 ? f : mg) * L;                               /* F L or sum m g L */
}

double prob_jitter_stretch(const prob_world *W, double *sumsq)
{
    double worst = 0.0, ss = 0.0;
    for (int j = 0; j < W->nj; j++) {
        const prob_joint *J = &W->joint[j];
        const double *pb = J->b >= 0 ? W->pos + 3 * J->b : J->pb;
        double d[3];
        for (int i = 0; i < 3; i++) d[i] = W->pos[3 * J->a + i] - pb[i];
        double e = fabs(sqrt(v3_dot(d, d)) - J->len) / J->len;   /* |l - L| / L */
        if (!(e <= worst)) worst = e;                            /* NaN wins */
        ss += e * e;
    }
    if (sumsq) *sumsq = ss;
    return worst;
}

double prob_jitter_mac(const prob_world *W, const double *a, const double *b)
{
    int dim = W->dim, n = dim * W->nb;
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (int i = 0; i < n; i++) {
        double m = W->mass[i / dim];
        ab += a[i] * m * b[i];
        aa += a[i] * m * a[i];
        bb += b[i] * m * b[i];
    }
    return aa > 0.0 && bb > 0.0 ? ab * ab / (aa * bb) : 0.0;
}

const char *prob_outcome_name(prob_outcome o)
{
    switch (o) {
    case PROB_QUIET: return "quiet";
    case PROB_MARGINAL: return "marginal";
    case PROB_JITTER: return "jitter";
    case PROB_EXPLODED: return "exploded";
    }
    return "unknown";
}

void prob_jitter_cfg_default(prob_jitter_cfg *c)
{
    c->steps = 400;
    c->window_start = 0;
    c->e_ref = 0.0;
    c->modal = 0;
    c->every_modal = 0;
    c->amp_linear = 1e-3;
    c->fit_from = 10;
}

lcp_status prob_jitter_run(prob_world *W, const prob_stepper *s, const prob_stepper_opts *o,
                           const prob_jitter_cfg *cfg, prob_jitter_monitor *monitor, void *ctx,
                           prob_jitter_result *R, char *msg, size_t msglen)
{
    if (!W || !s || !cfg || !R || cfg->steps < 1) return LCP_ERR_ARG;
    memset(R, 0, sizeof *R);
    if (msg && msglen) msg[0] = 0;
    R->t_fail = R->cos_min = R->cos_min_last = R->cos_min_fail = NAN;
    R->omega_max0 = R->h_crit0 = R->mu_pred = R->mu_meas = R->mac_top = R->et_share = NAN;
    lcp_status st = prob_tv_check(W, msg, msglen);
    if (st != LCP_OK) return st;
    int n = W->dim * W->nb, nb = W->nb;
    double *u = lcp_malloc(3 * (size_t)n, sizeof(double));
    double *x0 = lcp_malloc(3 * (size_t)nb, sizeof(double));
    double *psi = lcp_malloc((size_t)n, sizeof(double));
    if (!u || !x0 || !psi) st = LCP_ERR_NOMEM;
    double *up2 = u, *up1 = u + n, *uc = u + 2 * (size_t)n;  /* u_{k-2}, u_{k-1}, u_k */
    int have_mode = 0;
    if (st == LCP_OK && cfg->modal) {
        prob_modal M;
        st = prob_modal_compute(W, NULL, PROB_MODAL_MODES, &M, msg, msglen);
        if (st == LCP_OK && M.nt > 0) {
            memcpy(psi, M.modes + (size_t)n * (size_t)(M.nt - 1), (size_t)n * sizeof(double));
            R->omega_max0 = M.omega_restricted;
            R->h_crit0 = M.h_crit;
            R->mu_pred = prob_modal_growth(W->h, M.omega_restricted);
            have_mode = 1;
        }
        prob_modal_free(&M);
    }
    double et, ec, L = mean_len(W), eref = cfg->e_ref > 0.0 ? cfg->e_ref : prob_jitter_eref(W);
    if (st == LCP_OK) {
        memcpy(x0, W->pos, 3 * (size_t)nb * sizeof(double));
        st = prob_modal_split(W, NULL, up1, &et, &ec);          /* u_0 */
    }
    int wstart = cfg->window_start > 0 ? cfg->window_start : cfg->steps / 2 + 1;
    int tenth = cfg->steps / 10 > 0 ? cfg->steps / 10 : 1;
    double sumj = 0.0, ss_stretch = 0.0, et1 = 0.0, peak0 = 0.0, peak1 = 0.0;
    double sk = 0.0, sy = 0.0, skk = 0.0, sky = 0.0;             /* least squares sums */
    long nstretch = 0;
    int nwin = 0, linear = 1;
    double t0 = 0.0;
    for (int k = 1; st == LCP_OK && k <= cfg->steps; k++) {
        prob_alt_info info;
        char smsg[512];
        lcp_status ss = prob_step_alt(W, s, o, &info, smsg, sizeof smsg);
        t0 += info.t_total;
        if (ss == LCP_ERR_NOMEM || ss == LCP_ERR_ARG || ss == LCP_ERR_UNSUPPORTED) {
            st = lcp_fail(msg, msglen, ss, "%s", smsg);
            break;
        }
        double sq = 0.0, str = ss == LCP_OK ? prob_jitter_stretch(W, &sq) : NAN;
        if (ss == LCP_OK) ss = prob_modal_split(W, NULL, uc, &et, &ec);
        int finite = ss == LCP_OK && isfinite(et) && isfinite(ec) && isfinite(str);
        if (!finite || str > 10.0) {
            if (ss != LCP_OK) snprintf(R->fail, sizeof R->fail, "%.200s", smsg);
            else snprintf(R->fail, sizeof R->fail, "step %d: %s", k,
                          !finite ? "a value is not finite" : "stretch > 10");
            R->outcome = PROB_EXPLODED;
            R->cos_min_fail = info.cos_min;
            R->t_fail = k * W->h;
            break;
        }
        R->steps_done = k;
        if (!isnan(info.cos_min)) {                              /* ivts */
            R->cos_min = isnan(R->cos_min) ? info.cos_min : fmin(R->cos_min, info.cos_min);
            R->cos_min_last = info.cos_min;
        }
        R->max_stretch = fmax(R->max_stretch, str);
        ss_stretch += sq;
        nstretch += W->nj;
        if (k == 1) et1 = et;
        if (et1 > 0.0) R->et_growth = fmax(R->et_growth, et / et1);
        double enyq = k >= 2 ? prob_jitter_nyquist(W, up2, up1, uc) : 0.0;
        R->max_enyq = fmax(R->max_enyq, enyq / eref);
        if (k >= wstart) {
            sumj += enyq / eref;
            nwin++;
        }
        double amp = 0.0, xend = fabs(W->pos[3 * (nb - 1)]);
        for (int b = 0; b < nb; b++)
            for (int i = 0; i < W->dim; i++) amp = fmax(amp, fabs(W->pos[3 * b + i] - x0[3 * b + i]));
        if (k <= tenth) peak0 = fmax(peak0, xend);
        if (k > cfg->steps - tenth) peak1 = fmax(peak1, xend);
        double etop = NAN;
        if (have_mode) {
            double a = 0.0;
            for (int i = 0; i < n; i++) a += psi[i] * W->mass[i / W->dim] * uc[i];
            etop = 0.5 * a * a;
            linear = linear && amp < cfg->amp_linear * L;
            if (linear && k >= cfg->fit_from && etop > 0.0) {
                double y = log(etop);
                sk += k, sy += y, skk += (double)k * k, sky += k * y;
                R->fit_steps++;
                R->mac_top = prob_jitter_mac(W, psi, uc);
                R->et_share = et + ec > 0.0 ? et / (et + ec) : NAN;
            }
        }
        double om = NAN;
        if (cfg->every_modal) {
            prob_modal M;
            if (prob_modal_compute(W, NULL, 0, &M, NULL, 0) == LCP_OK) om = M.omega_restricted;
            prob_modal_free(&M);
        }
        if (monitor) {
            prob_jitter_row row = {k, k * W->h, info.kinetic_energy, et, ec, enyq, str, etop,
                                   amp, om, &info};
            st = monitor(ctx, W, &row);
        }
        double *t = up2;                                         /* shift u */
        up2 = up1, up1 = uc, uc = t;
    }
    if (st == LCP_OK) {
        R->jstar = nwin > 0 ? sumj / nwin : NAN;
        R->rms_stretch = nstretch > 0 ? sqrt(ss_stretch / (double)nstretch) : 0.0;
        R->amp_ratio = peak0 > 0.0 ? peak1 / peak0 : NAN;
        R->time_per_step = R->steps_done > 0 ? t0 / R->steps_done : 0.0;
        if (R->fit_steps >= 2) {
            double f = R->fit_steps, slope = (f * sky - sk * sy) / (f * skk - sk * sk);
            R->mu_meas = exp(slope / 2.0);                       /* E_top ~ mu^(2k) */
        }
        if (R->outcome != PROB_EXPLODED)
            R->outcome = !(R->jstar <= 1e-4) ? PROB_JITTER
                         : R->jstar < 1e-9   ? PROB_QUIET
                                             : PROB_MARGINAL;
    }
    lcp_free(u);
    lcp_free(x0);
    lcp_free(psi);
    return st;
}

lcp_status prob_jitter_world(prob_world *W, const prob_scene *sc, const prob_params *P,
                             double h, const char *solver, int iters, double tol, char *msg,
                             size_t msglen)
{
    if (!W || !sc || !P || !(h > 0.0)) return LCP_ERR_ARG;
    prob_params Q = *P;
    for (int k = 0; k < Q.n; k++)
        if (strcmp(Q.p[k].key, "h") == 0) Q.p[k].value = h;
    lcp_status st = prob_world_create(W, sc, &Q, msg, msglen);
    if (st == LCP_OK && solver) {
        st = prob_world_set_solver(W, solver, iters, tol);
        if (st != LCP_OK) {
            lcp_fail(msg, msglen, st, "unknown solver '%s'", solver);
            prob_world_free(W);
        }
    }
    return st;
}

/* 1 unstable, 0 stable, < 0 error */
static int unstable_at(const prob_scene *sc, const prob_params *P, const char *solver,
                       int iters, const prob_stepper *s, const prob_stepper_opts *o, double h,
                       int steps, char *msg, size_t msglen)
{
    prob_world W;
    lcp_status st = prob_jitter_world(&W, sc, P, h, solver, iters, -1.0, msg, msglen);
    if (st != LCP_OK) return st;
    prob_jitter_cfg cfg;
    prob_jitter_cfg_default(&cfg);
    cfg.steps = steps;
    prob_jitter_result R;
    st = prob_jitter_run(&W, s, o, &cfg, NULL, NULL, &R, msg, msglen);
    prob_world_free(&W);
    if (st != LCP_OK) return st;
    return R.outcome == PROB_EXPLODED || R.et_growth >= 1e6;
}

lcp_status prob_jitter_onset(const prob_scene *sc, const prob_params *P, const char *solver,
                             int iters, const prob_stepper *s, const prob_stepper_opts *o,
                             double h_lo, double h_hi, double rel, int steps, double *h_onset,
                             char *msg, size_t msglen)
{
    if (!sc || !P || !s || !h_onset || !(h_lo > 0.0) || !(h_hi > h_lo) || !(rel > 0.0))
        return LCP_ERR_ARG;
    int lo = unstable_at(sc, P, solver, iters, s, o, h_lo, steps, msg, msglen);
    int hi = lo < 0 ? lo : unstable_at(sc, P, solver, iters, s, o, h_hi, steps, msg, msglen);
    if (lo < 0) return lo;
    if (hi < 0) return hi;
    if (lo != 0 || hi != 1)
        return lcp_fail(msg, msglen, LCP_ERR_ARG, "onset: h = %.6g is %s and h = %.6g is %s: "
                        "no bracket", h_lo, lo ? "unstable" : "stable", h_hi,
                        hi ? "unstable" : "stable");
    while (h_hi - h_lo > rel * h_lo) {
        double mid = 0.5 * (h_lo + h_hi);
        int u = unstable_at(sc, P, solver, iters, s, o, mid, steps, msg, msglen);
        if (u < 0) return u;
        if (u) h_hi = mid;
        else h_lo = mid;
    }
    *h_onset = 0.5 * (h_lo + h_hi);
    return LCP_OK;
}
