/* steppers.c: the alternative steppers of a world of bodies and centre-attached distance
 * joints (transversal.h), chosen by name from one static table.  Common first step:
 * v* = v_k + h (g + f / m).  Links are processed in their natural order (anchor first);
 * w_k = 1 / m_k, w = 0 for the world anchor.  Rotations are decoupled (no torque): omega is
 * kept and the orientation integrated as in step.c.
 *
 *   vts     the suite's velocity stepper (step.c, SPOOK, the world's solver) unchanged.
 *   ivts    Francu's implicit velocity projection: C^0 = C(x_k), n^0 = n(x_k), v = v*; K sweeps,
 *           per link: x_c = x_k + h v, n_c = n(x_c), G = rhs + n^0 . (v_a - v_b),
 *           dz = -G / (w_a + w_b)  [schur exact: / (n^0 . n_c (w_a + w_b))],
 *           v_a += w_a dz n_c, v_b -= w_b dz n_c;  x = x_k + h v.
 *   pbd     Mueller et al. 2007: p = x_k + h v*; K sweeps: C = |p_a - p_b| - L,
 *           p_a -= w_a C / (w_a + w_b) n, p_b += w_b C / (w_a + w_b) n;  v = (p - x_k)/h, x = p.
 *   xpbd    Macklin et al. 2016: lambda = 0, at = alpha / h^2; K sweeps:
 *           dl = (-C - at lambda_j) / (w_a + w_b + at), p_a += w_a dl n, p_b -= w_b dl n,
 *           lambda_j += dl.  With alpha = 0 the same bits as pbd.
 *   fp      Goldenthal et al. 2007 (fast projection): p = x_k + h v*; until max |C|/L <= 1e-10
 *           (at most 50): (J Minv J^T)(p) dl = C(p) (Cholesky), p -= Minv J(p)^T dl.
 *   gsd     diagonal geometric stiffness after Andrews, Teichmann, Kry 2017: K~ at x_k from the
 *           last step's multipliers, D = diag(sum_l |K~_il|) (gsd-l2: the column 2-norms),
 *           Mt = M + h^2 D; the SPOOK LCP with Minv = Mt^-1 and q = J Mt^-1 M v* + a C -
 *           Ups J v_k, solved by the world's solver; v = Mt^-1 (M v* + J^T z).  By
 *           Gershgorin D + K~ >= 0, so the augmented transversal modes satisfy h omega <= 1.
 *   gsfull  Tournier et al. 2015: the same with the full Mt = M - h^2 K~ (dense Cholesky, exact
 *           dense solve of the multipliers); falls back to gsd when Mt is not positive definite.
 *   shake   x_{k+1} = x_k + h v* + Minv J(x_k)^T mu with C(x_{k+1}) = 0 by Newton on mu (at most
 *           20 iterations, max |C|/L <= 1e-12); v = (x_{k+1} - x_k)/h.
 * Impulse estimates left in W->zj: ivts the sum of dz, pbd / xpbd lambda / h (the position
 * multiplier over h), fp -sum dl / h, shake mu / h, gsd and gsfull the solve's z.
 *
 * Needs: prob_tv_check (no contacts, no lever arms) for all but vts.  Cost per step: ivts,
 * pbd, xpbd O(K m); fp, shake O(m^3) per Newton iteration (dense); gsd the LCP; gsfull O(n^3).
 * Sources: Francu 2018 ("Implicit velocity projection"); the papers named above.
 */
#include "prob_internal.h"
#include "transversal.h"

#include <lapacke.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void prob_stepper_opts_default(prob_stepper_opts *o)
{
    o->iters = 20;
    o->beta = 0.5;
    o->rhs = PROB_RHS_FRANCU;
    o->refresh = 0;
    o->schur = 0;
    o->alpha = NAN;
}

/* ---- shared pieces ---------------------------------------------------------------------- */

/* v* (ndof per body) = v + h g + h f / m, the same arithmetic as step.c */
static void vstar(const prob_world *W, double *vs)
{
    int nd = W->ndof;
    memcpy(vs, W->vel, (size_t)nd * (size_t)W->nb * sizeof(double));
    for (int k = 0; k < W->nb; k++)
        for (int i = 0; i < W->dim; i++) {
            vs[nd * k + i] += W->h * W->gravity[i];
            if (W->force) vs[nd * k + i] += W->h * (W->force[3 * k + i] / W->mass[k]);
        }
}

/* the end b of joint j at positions x (3 per body), or the anchor; w = its inverse mass */
static const double *end_b(const prob_world *W, const double *x, int j, double *w)
{
    const prob_joint *J = &W->joint[j];
    *w = J->b >= 0 ? 1.0 / W->mass[J->b] : 0.0;
    return J->b >= 0 ? x + 3 * J->b : J->pb;
}

/* unit direction (p_a - p_b)/|.| and the length */
static double dir(const double *pa, const double *pb, double n[3])
{
    double d[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
    double l = sqrt(v3_dot(d, d));
    n[0] = 0, n[1] = 1, n[2] = 0;
    if (l > 0.0)
        for (int i = 0; i < 3; i++) n[i] = d[i] / l;
    return l;
}

/* finish a position-based step: v = (p - x_k)/h on the linear dofs, x = p, rotations */
static void finish_positions(prob_world *W, const double *p)
{
    for (int k = 0; k < W->nb; k++)
        for (int i = 0; i < W->dim; i++)
            W->vel[W->ndof * k + i] = (p[3 * k + i] - W->pos[3 * k + i]) / W->h;
    memcpy(W->pos, p, 3 * (size_t)W->nb * sizeof(double));
    prob_integrate(W, 0);
}

/* the worst relative link error max_j |C_j| / L_j at positions x */
static double cmax_of(const prob_world *W, const double *x)
{
    double worst = 0.0, w, n[3];
    for (int j = 0; j < W->nj; j++) {
        const double *pb = end_b(W, x, j, &w);
        double l = dir(x + 3 * W->joint[j].a, pb, n);
        worst = fmax(worst, fabs(l - W->joint[j].len) / W->joint[j].len);
    }
    return worst;
}

/* ---- vts -------------------------------------------------------------------------------- */

static lcp_status step_vts(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                           char *msg, size_t msglen)
{
    (void)o;
    prob_step_info si;
    lcp_status st = prob_step(W, NULL, NULL, &si, msg, msglen);
    info->status = si.status;
    info->iterations = si.iterations;
    info->residual = si.residual;
    return st;
}

/* ---- ivts ------------------------------------------------------------------------------- */

static lcp_status step_ivts(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                            char *msg, size_t msglen)
{
    (void)msg, (void)msglen;
    int nd = W->ndof, m = W->nj;
    double h = W->h, a = 4.0 / (h * (1.0 + 4.0 * W->d)), ups = 1.0 / (1.0 + 4.0 * W->d);
    double *vs = lcp_malloc((size_t)nd * (size_t)W->nb, sizeof(double));
    double *xc = lcp_malloc(3 * (size_t)W->nb, sizeof(double));
    double *n0 = lcp_malloc(3 * (size_t)m + 1, sizeof(double));
    double *nsw = lcp_malloc(3 * (size_t)m + 1, sizeof(double));
    double *rhs = lcp_malloc((size_t)m + 1, sizeof(double));
    if (!vs || !xc || !n0 || !nsw || !rhs) {
        lcp_free(vs), lcp_free(xc), lcp_free(n0), lcp_free(nsw), lcp_free(rhs);
        return LCP_ERR_NOMEM;
    }
    vstar(W, vs);
    const double *x = W->pos;
    for (int j = 0; j < m; j++) {                     /* C^0, n^0 and the right-hand side */
        const prob_joint *J = &W->joint[j];
        double wb;
        const double *pb = end_b(W, x, j, &wb);
        double c0 = dir(x + 3 * J->a, pb, n0 + 3 * j) - J->len;
        W->zj[j] = 0.0;
        if (o->rhs == PROB_RHS_SPOOK) {
            double rel = 0.0;
            for (int i = 0; i < W->dim; i++)
                rel += n0[3 * j + i] * (W->vel[nd * J->a + i] - (J->b >= 0 ? W->vel[nd * J->b + i] : 0.0));
            rhs[j] = a * c0 - ups * rel;              /* a C - Ups n^0 . (v_k,a - v_k,b) */
        } else {
            rhs[j] = o->beta / h * c0;                /* (beta / h) C */
        }
    }
    for (int sweep = 0; sweep < o->iters; sweep++) {
        if (o->refresh == 1) {                        /* directions once per sweep */
            for (int k = 0; k < W->nb; k++)
                for (int i = 0; i < 3; i++)
                    xc[3 * k + i] = x[3 * k + i] + (i < W->dim ? h * vs[nd * k + i] : 0.0);
            for (int j = 0; j < m; j++) {
                double wb;
                dir(xc + 3 * W->joint[j].a, end_b(W, xc, j, &wb), nsw + 3 * j);
            }
        }
        for (int j = 0; j < m; j++) {
            const prob_joint *J = &W->joint[j];
            int ka = J->a, kb = J->b;
            double wa = 1.0 / W->mass[ka], wb, nc[3], pa[3], pbv[3];
            const double *pb0 = end_b(W, x, j, &wb);
            if (o->refresh == 1) {
                memcpy(nc, nsw + 3 * j, sizeof nc);
            } else {                                  /* x_c = x_k + h v on the two bodies */
                for (int i = 0; i < 3; i++) {
                    double va = i < W->dim ? vs[nd * ka + i] : 0.0;
                    double vb = kb >= 0 && i < W->dim ? vs[nd * kb + i] : 0.0;
                    pa[i] = x[3 * ka + i] + h * va;
                    pbv[i] = kb >= 0 ? pb0[i] + h * vb : pb0[i];
                }
                dir(pa, pbv, nc);
            }
            double rel = 0.0;
            for (int i = 0; i < W->dim; i++)
                rel += n0[3 * j + i] * (vs[nd * ka + i] - (kb >= 0 ? vs[nd * kb + i] : 0.0));
            double G = rhs[j] + rel;                  /* rhs + n^0 . (v_a - v_b) */
            double den = wa + wb;
            if (o->schur == 1) den *= v3_dot(n0 + 3 * j, nc);
            double dz = -G / den;
            for (int i = 0; i < W->dim; i++) {
                vs[nd * ka + i] += wa * dz * nc[i];   /* v_a += w_a dz n_c */
                if (kb >= 0) vs[nd * kb + i] -= wb * dz * nc[i];
            }
            W->zj[j] += dz;
        }
    }
    double cmin = INFINITY;                           /* cos between n^0 and n(x_k + h v) */
    for (int k = 0; k < W->nb; k++)
        for (int i = 0; i < 3; i++)
            xc[3 * k + i] = x[3 * k + i] + (i < W->dim ? h * vs[nd * k + i] : 0.0);
    for (int j = 0; j < m; j++) {
        double wb, nn[3];
        dir(xc + 3 * W->joint[j].a, end_b(W, xc, j, &wb), nn);
        cmin = fmin(cmin, v3_dot(n0 + 3 * j, nn));
    }
    info->cos_min = cmin;
    memcpy(W->vel, vs, (size_t)nd * (size_t)W->nb * sizeof(double));
    prob_integrate(W, 1);                             /* x = x_k + h v */
    lcp_free(vs), lcp_free(xc), lcp_free(n0), lcp_free(nsw), lcp_free(rhs);
    return LCP_OK;
}

/* ---- pbd and xpbd ----------------------------------------------------------------------- */

/* p = x_k + h v* (3 per body) */
static void predict(const prob_world *W, const double *vs, double *p)
{
    memcpy(p, W->pos, 3 * (size_t)W->nb * sizeof(double));
    for (int k = 0; k < W->nb; k++)
        for (int i = 0; i < W->dim; i++) p[3 * k + i] += W->h * vs[W->ndof * k + i];
}

static lcp_status step_pbd_like(prob_world *W, const prob_stepper_opts *o, int xpbd)
{
    double *vs = lcp_malloc((size_t)W->ndof * (size_t)W->nb, sizeof(double));
    double *p = lcp_malloc(3 * (size_t)W->nb, sizeof(double));
    if (!vs || !p) {
        lcp_free(vs), lcp_free(p);
        return LCP_ERR_NOMEM;
    }
    vstar(W, vs);
    predict(W, vs, p);
    double alpha = isnan(o->alpha) ? W->eps : o->alpha, at = alpha / (W->h * W->h);
    for (int j = 0; j < W->nj; j++) W->zj[j] = 0.0;  /* xpbd: lambda_j = 0 */
    for (int sweep = 0; sweep < o->iters; sweep++)
        for (int j = 0; j < W->nj; j++) {
            const prob_joint *J = &W->joint[j];
            double wa = 1.0 / W->mass[J->a], wb, n[3], pbc[3];
            const double *pb0 = end_b(W, p, j, &wb);
            memcpy(pbc, pb0, sizeof pbc);
            double *pa = p + 3 * J->a, *pb = J->b >= 0 ? p + 3 * J->b : NULL;
            double C = dir(pa, pbc, n) - J->len;
            if (xpbd) {
                double dl = (-C - at * W->zj[j]) / (wa + wb + at);
                for (int i = 0; i < W->dim; i++) {
                    pa[i] += wa * dl * n[i];          /* p_a += w_a dl n */
                    if (pb) pb[i] -= wb * dl * n[i];  /* p_b -= w_b dl n */
                }
                W->zj[j] += dl;                       /* lambda_j += dl */
            } else {
                double s = C / (wa + wb);
                for (int i = 0; i < W->dim; i++) {
                    pa[i] -= wa * s * n[i];           /* p_a -= w_a C / (w_a + w_b) n */
                    if (pb) pb[i] += wb * s * n[i];
                }
                W->zj[j] -= s;
            }
        }
    for (int j = 0; j < W->nj; j++) W->zj[j] /= W->h; /* impulse: lambda / h */
    finish_positions(W, p);
    lcp_free(vs), lcp_free(p);
    return LCP_OK;
}

static lcp_status step_pbd(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                           char *msg, size_t msglen)
{
    (void)info, (void)msg, (void)msglen;
    return step_pbd_like(W, o, 0);
}

static lcp_status step_xpbd(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                            char *msg, size_t msglen)
{
    (void)info, (void)msg, (void)msglen;
    return step_pbd_like(W, o, 1);
}

/* ---- fp and shake: Newton on the positions ------------------------------------------------ */

/* shake = 0: fast projection; 1: SHAKE with the directions frozen at x_k */
static lcp_status step_newton(prob_world *W, int shake, prob_alt_info *info, char *msg,
                              size_t msglen)
{
    int dim = W->dim, n = dim * W->nb, m = W->nj, maxit = shake ? 20 : 50;
    double tol = shake ? 1e-12 : 1e-10;
    double *vs = lcp_malloc((size_t)W->ndof * (size_t)W->nb, sizeof(double));
    double *p = lcp_malloc(3 * (size_t)W->nb, sizeof(double));
    double *p0 = lcp_malloc(3 * (size_t)W->nb, sizeof(double));
    double *J = lcp_malloc((size_t)m * (size_t)n + 1, sizeof(double));
    double *J0 = lcp_malloc((size_t)m * (size_t)n + 1, sizeof(double));
    double *A = lcp_malloc((size_t)m * (size_t)m + 1, sizeof(double));
    double *c = lcp_malloc((size_t)m + 1, sizeof(double)), *l = lcp_malloc((size_t)m + 1, sizeof(double));
    double *acc = lcp_calloc((size_t)m + 1, sizeof(double));
    lapack_int *piv = lcp_malloc((size_t)m + 1, sizeof(lapack_int));
    lcp_status st = vs && p && p0 && J && J0 && A && c && l && acc && piv ? LCP_OK : LCP_ERR_NOMEM;
    int it = 0, conv = 0;
    if (st == LCP_OK) {
        vstar(W, vs);
        predict(W, vs, p);
        memcpy(p0, p, 3 * (size_t)W->nb * sizeof(double));
        prob_modal_jacobian(W, NULL, J0, NULL);       /* J(x_k): SHAKE's directions */
    }
    while (st == LCP_OK) {
        prob_modal_jacobian(W, p, J, l);
        double worst = 0.0;
        for (int j = 0; j < m; j++) {
            c[j] = l[j] - W->joint[j].len;            /* C(p) */
            worst = fmax(worst, fabs(c[j]) / W->joint[j].len);
        }
        if (it > 0 && it <= 16) info->cmax[it - 1] = worst;
        if (!isfinite(worst)) break;
        if (worst <= tol) {
            conv = 1;
            break;
        }
        if (it == maxit) break;
        const double *Jr = shake ? J0 : J;            /* p -= Minv Jr^T dl */
        for (int r = 0; r < m; r++)                   /* A = J(p) Minv Jr^T */
            for (int q = 0; q < m; q++) {
                double s = 0.0;
                for (int i = 0; i < n; i++)
                    s += J[r + (size_t)m * i] * Jr[q + (size_t)m * i] / W->mass[i / dim];
                A[r + (size_t)m * q] = s;
            }
        lapack_int inf = shake ? LAPACKE_dgesv(LAPACK_COL_MAJOR, m, 1, A, m, piv, c, m)
                               : LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', m, 1, A, m, c, m);
        if (inf != 0) break;
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int j = 0; j < m; j++) s += Jr[j + (size_t)m * i] * c[j];
            p[3 * (i / dim) + i % dim] -= s / W->mass[i / dim];
        }
        for (int j = 0; j < m; j++) acc[j] += c[j];
        it++;
    }
    info->iterations = it;
    if (st == LCP_OK && !conv && (shake || !(cmax_of(W, p) < INFINITY)))
        st = lcp_fail(msg, msglen, LCP_ERR_DIVERGED, "step %d: %s: Newton did not converge "
                      "in %d iterations (max |C|/L %.3g)", W->step + 1, shake ? "shake" : "fp",
                      it, cmax_of(W, p));
    if (st == LCP_OK) {
        for (int j = 0; j < m; j++) W->zj[j] = -acc[j] / W->h;   /* z = -sum dl / h */
        finish_positions(W, p);
    }
    lcp_free(vs), lcp_free(p), lcp_free(p0), lcp_free(J), lcp_free(J0), lcp_free(A);
    lcp_free(c), lcp_free(l), lcp_free(acc), lcp_free(piv);
    return st;
}

static lcp_status step_fp(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                          char *msg, size_t msglen)
{
    (void)o;
    return step_newton(W, 0, info, msg, msglen);
}

static lcp_status step_shake(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                             char *msg, size_t msglen)
{
    (void)o;
    return step_newton(W, 1, info, msg, msglen);
}

/* ---- gsd, gsd-l2 (the LCP with Mt = M + h^2 D) and gsfull (dense) ------------------------- */

/* the SPOOK LCP of the joints with the diagonal inverse mass mti (n = dim nb linear dofs;
 * the rotations keep 1/I) and q = J mti M v* + a C - Ups J v_k; solved by the world's solver
 * warm started from W->zj; answer in z */
static lcp_status solve_diag(prob_world *W, const double *mti, const double *vs, double *z,
                             prob_alt_info *info, char *msg, size_t msglen)
{
    int dim = W->dim, nd = W->ndof, m = W->nj, N = nd * W->nb;
    double h = W->h, a = 4.0 / (h * (1.0 + 4.0 * W->d)), ups = 1.0 / (1.0 + 4.0 * W->d);
    double Ei = 4.0 * W->eps / (h * h * (1.0 + 4.0 * W->d));
    lcp_problem P;
    lcp_problem_init(&P);
    lcp_status st = lcp_problem_alloc_vectors(&P, m);
    if (st == LCP_OK) st = lcp_csr_alloc(&P.J, m, N, 2 * dim * m);
    if (st == LCP_OK) st = lcp_csr_alloc(&P.Minv, N, N, N);
    P.E = lcp_malloc((size_t)m, sizeof(double));
    P.z0 = lcp_malloc((size_t)m, sizeof(double));
    double *wv = lcp_malloc((size_t)m, sizeof(double));
    if (st == LCP_OK && (!P.E || !P.z0 || !wv)) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        int nt = 0;
        for (int j = 0; j < m; j++) {
            const prob_joint *Jt = &W->joint[j];
            double wb, nj[3];
            const double *pb = end_b(W, W->pos, j, &wb);
            double C = dir(W->pos + 3 * Jt->a, pb, nj) - Jt->len;
            double jms = 0.0, jvk = 0.0;
            int lo = Jt->b >= 0 && Jt->b < Jt->a ? Jt->b : Jt->a;   /* columns ascending */
            int hi = lo == Jt->a ? Jt->b : Jt->a;
            for (int e = 0; e < 2; e++) {
                int k = e == 0 ? lo : hi;
                if (k < 0) continue;
                double sg = k == Jt->a ? 1.0 : -1.0;
                for (int i = 0; i < dim; i++) {
                    double x = sg * nj[i];
                    if (x == 0.0) continue;
                    P.J.j[nt] = nd * k + i;
                    P.J.x[nt++] = x;
                    jms += x * mti[dim * k + i] * (W->mass[k] * vs[nd * k + i]); /* J Mt^-1 M v* */
                    jvk += x * W->vel[nd * k + i];
                }
            }
            P.J.p[j + 1] = nt;
            P.q[j] = jms + a * C - ups * jvk;
            P.lo[j] = -INFINITY;
            P.hi[j] = INFINITY;
            P.E[j] = Ei;
            P.z0[j] = W->zj[j];
        }
        for (int k = 0, r = 0; k < W->nb; k++)              /* diag(Mt^-1, body-frame 1/I) */
            for (int i = 0; i < nd; i++, r++) {
                const double *Ii = W->Ibinv + 9 * k;       /* joints exert no torque here */
                P.Minv.j[r] = r;
                P.Minv.x[r] = i < dim ? mti[dim * k + i] : dim == 2 ? Ii[8] : Ii[4 * (i - 3)];
                P.Minv.p[r + 1] = r + 1;
            }
        P.n = N;
        st = lcp_csr_jmjt(&P.J, &P.Minv, P.E, &P.A);
        P.symmetric = 1;
    }
    if (st == LCP_OK) {
        lcp_info li;
        lcp_info_init(&li);
        memcpy(z, P.z0, (size_t)m * sizeof(double));
        lcp_status ss = lcp_solve(W->solver, &P, &W->opt, z, &li);
        info->status = ss;
        info->iterations = li.iterations;
        if (ss < 0)
            st = lcp_fail(msg, msglen, ss, "step %d: solver %s failed: %s", W->step + 1,
                          W->solver->name, lcp_status_str(ss));
        lcp_residuals res;
        if (st == LCP_OK) {
            lcp_residual(&P, z, wv, &res);
            info->residual = res.r2;
        }
    }
    lcp_problem_free(&P);
    lcp_free(wv);
    return st;
}

/* D of K~ at x_k from the last multipliers: l2 = 0 row sums of |K~|, 1 column 2-norms */
static lcp_status stiffness_diag(const prob_world *W, int l2, double *D)
{
    int n = W->dim * W->nb;
    double *K = lcp_malloc((size_t)n * (size_t)n, sizeof(double));
    double *lam = lcp_malloc((size_t)W->nj + 1, sizeof(double));
    if (!K || !lam) {
        lcp_free(K), lcp_free(lam);
        return LCP_ERR_NOMEM;
    }
    prob_modal_lambda(W, lam);
    prob_modal_stiffness(W, NULL, lam, K);
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int l = 0; l < n; l++) {
            double x = K[l + (size_t)n * i];                 /* K~ symmetric: column i = row i */
            s += l2 ? x * x : fabs(x);
        }
        D[i] = l2 ? sqrt(s) : s;
    }
    lcp_free(K), lcp_free(lam);
    return LCP_OK;
}

static lcp_status gsd_common(prob_world *W, int l2, prob_alt_info *info, char *msg,
                             size_t msglen)
{
    int dim = W->dim, nd = W->ndof, n = dim * W->nb;
    double *D = lcp_malloc((size_t)n, sizeof(double)), *mti = lcp_malloc((size_t)n, sizeof(double));
    double *vs = lcp_malloc((size_t)nd * (size_t)W->nb, sizeof(double));
    double *z = lcp_malloc((size_t)W->nj + 1, sizeof(double));
    double *u = lcp_malloc((size_t)n, sizeof(double));
    lcp_status st = D && mti && vs && z && u ? LCP_OK : LCP_ERR_NOMEM;
    if (st == LCP_OK) st = stiffness_diag(W, l2, D);
    if (st == LCP_OK) {
        vstar(W, vs);
        for (int i = 0; i < n; i++)
            mti[i] = 1.0 / (W->mass[i / dim] + W->h * W->h * D[i]);   /* Mt^-1 */
        st = solve_diag(W, mti, vs, z, info, msg, msglen);
    }
    if (st == LCP_OK) {
        memset(u, 0, (size_t)n * sizeof(double));
        for (int j = 0; j < W->nj; j++) {                     /* u = J^T z */
            const prob_joint *Jt = &W->joint[j];
            double wb, nj[3];
            dir(W->pos + 3 * Jt->a, end_b(W, W->pos, j, &wb), nj);
            for (int i = 0; i < dim; i++) {
                u[dim * Jt->a + i] += nj[i] * z[j];
                if (Jt->b >= 0) u[dim * Jt->b + i] -= nj[i] * z[j];
            }
        }
        memcpy(W->vel, vs, (size_t)nd * (size_t)W->nb * sizeof(double)); /* rotations: v* */
        for (int k = 0; k < W->nb; k++)                       /* v = Mt^-1 (M v* + J^T z) */
            for (int i = 0; i < dim; i++)
                W->vel[nd * k + i] = mti[dim * k + i] * (W->mass[k] * vs[nd * k + i] + u[dim * k + i]);
        memcpy(W->zj, z, (size_t)W->nj * sizeof(double));
        prob_integrate(W, 1);
    }
    lcp_free(D), lcp_free(mti), lcp_free(vs), lcp_free(z), lcp_free(u);
    return st;
}

static lcp_status step_gsd(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                           char *msg, size_t msglen)
{
    (void)o;
    return gsd_common(W, 0, info, msg, msglen);
}

static lcp_status step_gsd_l2(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                              char *msg, size_t msglen)
{
    (void)o;
    return gsd_common(W, 1, info, msg, msglen);
}

static lcp_status step_gsfull(prob_world *W, const prob_stepper_opts *o, prob_alt_info *info,
                              char *msg, size_t msglen)
{
    (void)o;
    int dim = W->dim, nd = W->ndof, n = dim * W->nb, m = W->nj;
    double h = W->h, a = 4.0 / (h * (1.0 + 4.0 * W->d)), ups = 1.0 / (1.0 + 4.0 * W->d);
    double Ei = 4.0 * W->eps / (h * h * (1.0 + 4.0 * W->d));
    double *Mt = lcp_malloc((size_t)n * (size_t)n, sizeof(double));
    double *J = lcp_malloc((size_t)m * (size_t)n + 1, sizeof(double));
    double *Y = lcp_malloc((size_t)n * (size_t)(m + 1), sizeof(double));
    double *A = lcp_malloc((size_t)m * (size_t)m + 1, sizeof(double));
    double *lam = lcp_malloc((size_t)m + 1, sizeof(double)), *l = lcp_malloc((size_t)m + 1, sizeof(double));
    double *vs = lcp_malloc((size_t)nd * (size_t)W->nb, sizeof(double));
    double *r = lcp_malloc((size_t)m + 1, sizeof(double));
    lcp_status st = Mt && J && Y && A && lam && l && vs && r ? LCP_OK : LCP_ERR_NOMEM;
    int spd = 0;
    if (st == LCP_OK) {
        prob_modal_lambda(W, lam);
        prob_modal_stiffness(W, NULL, lam, Mt);
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++) Mt[i] *= -h * h;     /* -h^2 K~ */
        for (int i = 0; i < n; i++) Mt[i + (size_t)n * i] += W->mass[i / dim]; /* + M */
        spd = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, Mt, n) == 0;
    }
    if (st == LCP_OK && !spd) {                               /* not SPD: gsd, flagged */
        lcp_free(Mt), lcp_free(J), lcp_free(Y), lcp_free(A), lcp_free(lam), lcp_free(l);
        lcp_free(vs), lcp_free(r);
        info->fallback = 1;
        return gsd_common(W, 0, info, msg, msglen);
    }
    if (st == LCP_OK) {
        vstar(W, vs);
        prob_modal_jacobian(W, NULL, J, l);
        for (int j = 0; j < m; j++)                           /* Y = [J^T | M v*] */
            for (int i = 0; i < n; i++) Y[i + (size_t)n * j] = J[j + (size_t)m * i];
        for (int i = 0; i < n; i++)
            Y[i + (size_t)n * m] = W->mass[i / dim] * vs[nd * (i / dim) + i % dim];
        if (LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', n, m + 1, Mt, n, Y, n) != 0)
            st = LCP_ERR_BREAKDOWN;                           /* Y = Mt^-1 [J^T | M v*] */
    }
    if (st == LCP_OK && m > 0) {
        for (int j = 0; j < m; j++) {                         /* At = J Mt^-1 J^T + E */
            for (int q = 0; q < m; q++) {
                double s = 0.0;
                for (int i = 0; i < n; i++) s += J[j + (size_t)m * i] * Y[i + (size_t)n * q];
                A[j + (size_t)m * q] = s + (j == q ? Ei : 0.0);
            }
            double jm = 0.0, jvk = 0.0;
            for (int i = 0; i < n; i++) {
                jm += J[j + (size_t)m * i] * Y[i + (size_t)n * m];
                jvk += J[j + (size_t)m * i] * W->vel[nd * (i / dim) + i % dim];
            }
            r[j] = -(jm + a * (l[j] - W->joint[j].len) - ups * jvk);   /* -qt */
        }
        for (int j = 0; j < m; j++)                           /* symmetric to rounding */
            for (int q = 0; q < j; q++)
                A[j + (size_t)m * q] = A[q + (size_t)m * j] = 0.5 * (A[j + (size_t)m * q] + A[q + (size_t)m * j]);
        if (LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', m, 1, A, m, r, m) != 0) st = LCP_ERR_BREAKDOWN;
    }
    if (st == LCP_OK) {
        memcpy(W->vel, vs, (size_t)nd * (size_t)W->nb * sizeof(double));
        for (int i = 0; i < n; i++) {                         /* v = Mt^-1 (M v* + J^T z) */
            double s = Y[i + (size_t)n * m];
            for (int j = 0; j < m; j++) s += Y[i + (size_t)n * j] * r[j];
            W->vel[nd * (i / dim) + i % dim] = s;
        }
        memcpy(W->zj, r, (size_t)m * sizeof(double));
        prob_integrate(W, 1);
    } else if (st == LCP_ERR_BREAKDOWN) {
        lcp_fail(msg, msglen, st, "step %d: gsfull: dense solve failed", W->step + 1);
    }
    lcp_free(Mt), lcp_free(J), lcp_free(Y), lcp_free(A), lcp_free(lam), lcp_free(l);
    lcp_free(vs), lcp_free(r);
    return st;
}

/* ---- registry and entry point ----------------------------------------------------------- */

static const prob_stepper registry[] = {
    {"vts", "velocity time stepping (SPOOK, the world's solver): the suite's stepper", 1,
     step_vts},
    {"ivts", "Francu's implicit velocity projection (nonlinear Gauss-Seidel, K sweeps)", 0,
     step_ivts},
    {"pbd", "position based dynamics, stiffness 1 (Mueller et al. 2007), K sweeps", 0, step_pbd},
    {"xpbd", "compliant PBD (Macklin et al. 2016), alpha = eps, K sweeps", 0, step_xpbd},
    {"fp", "fast projection (Goldenthal et al. 2007): Newton to max |C|/L <= 1e-10", 0, step_fp},
    {"gsd", "diagonal geometric stiffness, l1 row sums (after Andrews et al. 2017)", 1,
     step_gsd},
    {"gsd-l2", "diagonal geometric stiffness, column 2-norms (after Andrews et al. 2017)", 1,
     step_gsd_l2},
    {"gsfull", "full geometric stiffness M - h^2 K~, dense (Tournier et al. 2015)", 0,
     step_gsfull},
    {"shake", "SHAKE: positions with the directions of x_k, Newton on the multipliers", 0,
     step_shake},
};

const prob_stepper *prob_steppers(int *count)
{
    if (count) *count = (int)(sizeof registry / sizeof registry[0]);
    return registry;
}

const prob_stepper *prob_stepper_find(const char *name)
{
    int n;
    const prob_stepper *s = prob_steppers(&n);
    for (int k = 0; name && k < n; k++)
        if (strcmp(s[k].name, name) == 0) return &s[k];
    return NULL;
}

lcp_status prob_step_alt(prob_world *W, const prob_stepper *s, const prob_stepper_opts *o,
                         prob_alt_info *info, char *msg, size_t msglen)
{
    if (!W || !s || !info) return LCP_ERR_ARG;
    memset(info, 0, sizeof *info);
    info->cos_min = NAN;
    if (msg && msglen) msg[0] = 0;
    prob_stepper_opts def;
    if (!o) {
        prob_stepper_opts_default(&def);
        o = &def;
    }
    double t0 = now();
    lcp_status st = LCP_OK;
    if (s->step != step_vts) {
        st = prob_tv_check(W, msg, msglen);
        if (st != LCP_OK) {
            char why[512];
            snprintf(why, sizeof why, "%s", msg ? msg : "");
            return lcp_fail(msg, msglen, st, "stepper %s: unsupported: %s", s->name, why);
        }
    }
    /* keep the state, so that a failed step leaves the world as it was */
    size_t nb = (size_t)W->nb, nv = (size_t)W->ndof * nb;
    double *keep = lcp_malloc(7 * nb + nv + (size_t)W->nj + 1, sizeof(double));
    if (!keep) return LCP_ERR_NOMEM;
    memcpy(keep, W->pos, 3 * nb * sizeof(double));
    memcpy(keep + 3 * nb, W->rot, 4 * nb * sizeof(double));
    memcpy(keep + 7 * nb, W->vel, nv * sizeof(double));
    memcpy(keep + 7 * nb + nv, W->zj, (size_t)W->nj * sizeof(double));
    st = s->step(W, o, info, msg, msglen);
    if (st == LCP_OK && s->step != step_vts) W->step++;   /* prob_step counts its own */
    if (st != LCP_OK) {
        memcpy(W->pos, keep, 3 * nb * sizeof(double));
        memcpy(W->rot, keep + 3 * nb, 4 * nb * sizeof(double));
        memcpy(W->vel, keep + 7 * nb, nv * sizeof(double));
        memcpy(W->zj, keep + 7 * nb + nv, (size_t)W->nj * sizeof(double));
    }
    lcp_free(keep);
    info->step = W->step;
    info->kinetic_energy = prob_kinetic_energy(W);
    info->t_total = now() - t0;
    return st;
}
