/* modal.c: modal analysis of the geometric stiffness of distance joints (transversal.h).
 *
 *   psi_j(q) = |p_a - p_b| - L_j,  n_j = (p_a - p_b)/l_j,  J_j = [n^T | -n^T]
 *   K~ = sum_j lambda_j d2psi_j/dq2:  K~[a,a] += c P, K~[b,b] += c P, K~[a,b] = K~[b,a] -= c P,
 *        c = lambda_j / l_j, P = I - n n^T   (lambda < 0 in tension: K~ <= 0)
 *   linearised motion M dq'' = K~ dq: omega_i^2 are the eigenvalues of (-K~, M)
 *   transversal basis: J^T P = Q R (dgeqp3), r = #{|R_ii| > 1e-12 |R_11|}, L = Q[:, r:n]
 *   restricted:  (L^T -K~ L) phi = omega^2 (L^T M L) phi          (dsygv, the prediction)
 *   full space:  M^-1/2 (-K~) M^-1/2 x = omega^2 x                  (dsyevr, = dsygv with B = M)
 *   Francu:      E K,  E = L^T Minv L,  K = L^T (-K~) L             (dgeev, real eigenvalues)
 *   h_crit = 2 / omega_max (restricted): symplectic Euler on a mode of frequency omega is
 *   stable iff h omega <= 2.
 * Energy split in the mass metric: y = M^1/2 v, the range of M^-1/2 J^T by QR, E_C = 1/2|Q1^T
 * y|^2, E_T = 1/2|y - Q1 Q1^T y|^2 (+ the rotational energy, which J does not see).
 *
 * Needs: a world of centre-attached distance joints (prob_tv_check).  Cost: dense LAPACK on
 * n = dim nb: the QR O(n m^2), Q O(n^2 m), the restricted problem O(n nt^2 + nt^3), with
 * PROB_MODAL_ALL a full-space O(n^3) and a non-symmetric O(nt^3) eigenvalue problem.
 * Sources: Francu 2018, "Transversal stability of constraints"; Andrews, Teichmann, Kry
 * 2017 (geometric stiffness, the stability limit h omega < 2).
 */
#include "prob_internal.h"
#include "transversal.h"

#include <cblas.h>
#include <lapacke.h>
#include <stdio.h>

lcp_status prob_tv_check(const prob_world *W, char *msg, size_t msglen)
{
    if (!W) return LCP_ERR_ARG;
    if (W->npl > 0 || W->ng > 0)
        return lcp_fail(msg, msglen, LCP_ERR_UNSUPPORTED,
                        "%d planes and %d geometries: contacts are not supported (distance "
                        "joints only)", W->npl, W->ng);
    for (int j = 0; j < W->nj; j++) {
        const prob_joint *J = &W->joint[j];
        if (J->kind != PROB_JOINT_DISTANCE)
            return lcp_fail(msg, msglen, LCP_ERR_UNSUPPORTED,
                            "joint %d is a pin, limit or angle lock (distance joints only)", j);
        if (v3_dot(J->pa, J->pa) != 0.0 || (J->b >= 0 && v3_dot(J->pb, J->pb) != 0.0))
            return lcp_fail(msg, msglen, LCP_ERR_UNSUPPORTED,
                            "joint %d is attached off a body centre: lever arms are not "
                            "supported (centre-attached distance joints only)", j);
    }
    return LCP_OK;
}

/* direction and length of joint j at positions pos */
static double joint_dir(const prob_world *W, const double *pos, int j, double n[3])
{
    const prob_joint *J = &W->joint[j];
    const double *pb = J->b >= 0 ? pos + 3 * J->b : J->pb;
    double d[3];
    for (int i = 0; i < 3; i++) d[i] = pos[3 * J->a + i] - pb[i];     /* p_a - p_b */
    double l = sqrt(v3_dot(d, d));
    n[0] = 0, n[1] = 1, n[2] = 0;
    if (l > 0.0)
        for (int i = 0; i < 3; i++) n[i] = d[i] / l;
    return l;
}

void prob_modal_jacobian(const prob_world *W, const double *pos, double *J, double *l)
{
    int m = W->nj, dim = W->dim, n = dim * W->nb;
    if (!pos) pos = W->pos;
    memset(J, 0, (size_t)m * (size_t)n * sizeof(double));
    for (int j = 0; j < m; j++) {
        double nj[3], lj = joint_dir(W, pos, j, nj);
        if (l) l[j] = lj;
        const prob_joint *Jt = &W->joint[j];
        for (int i = 0; i < dim; i++) {
            J[j + (size_t)m * (size_t)(dim * Jt->a + i)] = nj[i];        /* n on a */
            if (Jt->b >= 0) J[j + (size_t)m * (size_t)(dim * Jt->b + i)] = -nj[i]; /* -n on b */
        }
    }
}

void prob_modal_stiffness(const prob_world *W, const double *pos, const double *lambda,
                          double *K)
{
    int dim = W->dim, n = dim * W->nb;
    if (!pos) pos = W->pos;
    memset(K, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int j = 0; j < W->nj; j++) {
        const prob_joint *Jt = &W->joint[j];
        double nj[3], l = joint_dir(W, pos, j, nj);
        if (!(l > 0.0)) continue;
        double c = lambda[j] / l;                                        /* lambda / l */
        int a = dim * Jt->a, b = dim * Jt->b;
        for (int r = 0; r < dim; r++)
            for (int s = 0; s < dim; s++) {
                double cp = c * ((r == s) - nj[r] * nj[s]);              /* c P_rs */
                K[(a + r) + (size_t)n * (size_t)(a + s)] += cp;
                if (Jt->b < 0) continue;
                K[(b + r) + (size_t)n * (size_t)(b + s)] += cp;
                K[(a + r) + (size_t)n * (size_t)(b + s)] -= cp;
                K[(b + r) + (size_t)n * (size_t)(a + s)] -= cp;
            }
    }
}

void prob_modal_lambda(const prob_world *W, double *lambda)
{
    for (int j = 0; j < W->nj; j++) lambda[j] = W->zj[j] / W->h;      /* lambda = z / h */
}

/* QR with column pivoting of A (n x m, column-major, overwritten by the reflectors); tau
 * (m); returns the rank (|R_ii| > 1e-12 |R_11|) or -1 on a LAPACK failure */
static int qr_rank(int n, int m, double *A, double *tau)
{
    if (m == 0) return 0;
    int *jpvt = lcp_calloc((size_t)m, sizeof(int));
    if (!jpvt) return -1;
    lapack_int info = LAPACKE_dgeqp3(LAPACK_COL_MAJOR, n, m, A, n, jpvt, tau);
    lcp_free(jpvt);
    if (info != 0) return -1;
    int kmax = n < m ? n : m, r = 0;
    double r11 = fabs(A[0]);
    while (r < kmax && fabs(A[r + (size_t)n * (size_t)r]) > 1e-12 * r11) r++;
    return r;
}

/* A = J^T (J m x n column-major; A n x m, room for n max(m, n)), then qr_rank */
static int jt_rank(int m, int n, const double *J, double *A, double *tau)
{
    for (int j = 0; j < m; j++)                                          /* A = J^T */
        for (int i = 0; i < n; i++) A[i + (size_t)n * (size_t)j] = J[j + (size_t)m * (size_t)i];
    return qr_rank(n, m, A, tau);
}

int prob_rank(int m, int n, const double *J)
{
    if (m <= 0 || n <= 0) return 0;
    double *A = lcp_malloc((size_t)n * (size_t)(m > n ? m : n), sizeof(double));
    double *tau = lcp_malloc((size_t)(m > n ? m : n), sizeof(double));
    int r = A && tau ? jt_rank(m, n, J, A, tau) : -1;
    lcp_free(A);
    lcp_free(tau);
    return r;
}

lcp_status prob_modal_basis(int m, int n, const double *J, double *L, int *rank)
{
    if (m < 0 || n < 1 || !L || !rank || (m > 0 && !J)) return LCP_ERR_ARG;
    double *A = lcp_malloc((size_t)n * (size_t)(m > n ? m : n), sizeof(double));
    double *tau = lcp_malloc((size_t)(m > n ? m : n), sizeof(double));
    lcp_status st = A && tau ? LCP_OK : LCP_ERR_NOMEM;
    int r = 0;
    if (st == LCP_OK) {
        r = jt_rank(m, n, J, A, tau);
        if (r < 0) st = LCP_ERR_BREAKDOWN;
    }
    if (st == LCP_OK) {                                                  /* full Q (n x n) */
        memset(A + (size_t)n * (size_t)r, 0, (size_t)n * (size_t)(n - r) * sizeof(double));
        if (LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, r, A, n, tau) != 0) st = LCP_ERR_BREAKDOWN;
    }
    if (st == LCP_OK) {
        memcpy(L, A + (size_t)n * (size_t)r, (size_t)n * (size_t)(n - r) * sizeof(double));
        *rank = r;                                                       /* L = Q[:, r:n] */
    }
    lcp_free(A);
    lcp_free(tau);
    return st;
}

/* rotational kinetic energy of body k with velocities v (ndof per body) */
static double rot_energy(const prob_world *W, int k, const double *v)
{
    const double *w = v + (size_t)W->ndof * (size_t)k + W->dim;
    if (W->dim == 2) return 0.5 * W->Ib[9 * k + 8] * w[0] * w[0];       /* 1/2 I w^2 */
    double R[9], wb[3], Iw[3];
    prob_rotation(W, k, R);
    for (int i = 0; i < 3; i++) wb[i] = R[i] * w[0] + R[3 + i] * w[1] + R[6 + i] * w[2];
    m3_apply(W->Ib + 9 * k, wb, Iw);
    return 0.5 * v3_dot(wb, Iw);
}

lcp_status prob_modal_split(const prob_world *W, const double *v, double *u, double *ET,
                            double *EC)
{
    if (!W || !ET || !EC) return LCP_ERR_ARG;
    if (!v) v = W->vel;
    int dim = W->dim, n = dim * W->nb, m = W->nj, nd = W->ndof;
    double *A = lcp_malloc((size_t)n * (size_t)(m > 0 ? m : 1), sizeof(double));
    double *J = lcp_malloc((size_t)n * (size_t)(m > 0 ? m : 1), sizeof(double));
    double *tau = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof(double));
    double *y = lcp_malloc((size_t)n, sizeof(double)), *c = lcp_malloc((size_t)n, sizeof(double));
    lcp_status st = A && J && tau && y && c ? LCP_OK : LCP_ERR_NOMEM;
    int r = 0;
    if (st == LCP_OK) {
        for (int k = 0; k < W->nb; k++)
            for (int i = 0; i < dim; i++)
                y[dim * k + i] = sqrt(W->mass[k]) * v[(size_t)nd * (size_t)k + i]; /* M^1/2 v */
        if (m > 0) {
            prob_modal_jacobian(W, NULL, J, NULL);
            for (int j = 0; j < m; j++)                                  /* A = M^-1/2 J^T */
                for (int i = 0; i < n; i++)
                    A[i + (size_t)n * (size_t)j] =
                        J[j + (size_t)m * (size_t)i] / sqrt(W->mass[i / dim]);
            r = qr_rank(n, m, A, tau);
            if (r < 0) st = LCP_ERR_BREAKDOWN;
            if (st == LCP_OK && r > 0 &&
                LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, r, r, A, n, tau) != 0)   /* Q1: n x r */
                st = LCP_ERR_BREAKDOWN;
        }
    }
    if (st == LCP_OK) {
        double ec = 0.0, et = 0.0;
        for (int k = 0; k < r; k++) {                                    /* c = Q1^T y */
            double s = 0.0;
            for (int i = 0; i < n; i++) s += A[i + (size_t)n * (size_t)k] * y[i];
            c[k] = s;
            ec += 0.5 * s * s;                                           /* E_C = 1/2 |c|^2 */
        }
        for (int i = 0; i < n; i++) {                                    /* y - Q1 c */
            double s = y[i];
            for (int k = 0; k < r; k++) s -= A[i + (size_t)n * (size_t)k] * c[k];
            et += 0.5 * s * s;
            if (u) u[i] = s / sqrt(W->mass[i / dim]);                    /* u = M^-1/2 y_T */
        }
        for (int k = 0; k < W->nb; k++) et += rot_energy(W, k, v);
        *ET = et;
        *EC = ec;
    }
    lcp_free(A);
    lcp_free(J);
    lcp_free(tau);
    lcp_free(y);
    lcp_free(c);
    return st;
}

double prob_modal_growth(double h, double omega)
{
    double s = h * h * omega * omega;
    if (!(s > 4.0)) return 1.0;
    return ((s - 2.0) + sqrt((s - 2.0) * (s - 2.0) - 4.0)) / 2.0;
}

void prob_modal_free(prob_modal *R)
{
    if (!R) return;
    lcp_free(R->omega2);
    lcp_free(R->modes);
    memset(R, 0, sizeof *R);
}

static double omega_of(double w2) { return w2 > 0.0 ? sqrt(w2) : 0.0; }

lcp_status prob_modal_compute(const prob_world *W, const double *lambda, int flags,
                              prob_modal *R, char *msg, size_t msglen)
{
    if (!W || !R) return LCP_ERR_ARG;
    memset(R, 0, sizeof *R);
    lcp_status st = prob_tv_check(W, msg, msglen);
    if (st != LCP_OK) return st;
    int dim = W->dim, n = dim * W->nb, m = W->nj;
    size_t nn = (size_t)n * (size_t)n;
    double *lam = lcp_malloc((size_t)m + 1, sizeof(double));
    double *J = lcp_malloc((size_t)m * (size_t)n + 1, sizeof(double));
    double *K = lcp_malloc(nn, sizeof(double)), *L = lcp_malloc(nn, sizeof(double));
    double *KL = lcp_malloc(nn, sizeof(double)), *A = lcp_malloc(nn, sizeof(double));
    double *B = lcp_malloc(nn, sizeof(double)), *w = lcp_malloc((size_t)n, sizeof(double));
    double *wi = lcp_malloc((size_t)n, sizeof(double));
    if (!lam || !J || !K || !L || !KL || !A || !B || !w || !wi) st = LCP_ERR_NOMEM;
    int r = 0, nt = 0;
    if (st == LCP_OK) {
        if (lambda) memcpy(lam, lambda, (size_t)m * sizeof(double));
        else prob_modal_lambda(W, lam);
        prob_modal_jacobian(W, NULL, J, NULL);
        prob_modal_stiffness(W, NULL, lam, K);
        st = prob_modal_basis(m, n, J, L, &r);
        nt = n - r;
    }
    R->n = n, R->m = m, R->rank = r, R->nt = nt;
    R->omega_full = R->omega_ek = NAN;
    if (st == LCP_OK && nt > 0) {
        /* KL = -K~ L (n x nt) link by link; ML = M L; A = L^T KL; B = L^T ML (dgemm) */
        memset(KL, 0, (size_t)n * (size_t)nt * sizeof(double));
        for (int j = 0; j < m; j++) {
            const prob_joint *Jt = &W->joint[j];
            double nj[3], l = joint_dir(W, W->pos, j, nj);
            if (!(l > 0.0)) continue;
            double c = -lam[j] / l;                                      /* -lambda / l */
            int a = dim * Jt->a, b = dim * Jt->b;
            for (int p = 0; p < dim; p++)
                for (int s2 = 0; s2 < dim; s2++) {
                    double cp = c * ((p == s2) - nj[p] * nj[s2]);        /* -c P_rs */
                    if (cp == 0.0) continue;
                    for (int col = 0; col < nt; col++) {
                        const double *Lc = L + (size_t)n * col;
                        double *Kc = KL + (size_t)n * col;
                        if (Jt->b < 0) {
                            Kc[a + p] += cp * Lc[a + s2];
                            continue;
                        }
                        double dl = Lc[a + s2] - Lc[b + s2];
                        Kc[a + p] += cp * dl;                            /* rows of a */
                        Kc[b + p] -= cp * dl;                            /* rows of b */
                    }
                }
        }
        for (int col = 0; col < nt; col++)                               /* B <- M L, in B */
            for (int i = 0; i < n; i++) B[i + (size_t)n * col] = W->mass[i / dim] * L[i + (size_t)n * col];
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, nt, nt, n, 1.0, L, n, KL, n, 0.0,
                    A, nt);                                              /* L^T (-K~ L) */
        memcpy(KL, B, (size_t)n * (size_t)nt * sizeof(double));
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, nt, nt, n, 1.0, L, n, KL, n, 0.0,
                    B, nt);                                              /* L^T M L */
        for (int c = 0; c < nt; c++)                                     /* exactly symmetric */
            for (int i = c + 1; i < nt; i++) {
                A[i + (size_t)nt * c] = A[c + (size_t)nt * i] =
                    0.5 * (A[i + (size_t)nt * c] + A[c + (size_t)nt * i]);
                B[i + (size_t)nt * c] = B[c + (size_t)nt * i] =
                    0.5 * (B[i + (size_t)nt * c] + B[c + (size_t)nt * i]);
            }
        if (flags & PROB_MODAL_ALL) {                                    /* E K, before dsygv */
            double *E = KL;                                              /* reuse: nt x nt */
            double *EK = K;                                              /* K~ copied to Kf */
            double *Kf = lcp_malloc(nn, sizeof(double));
            if (!Kf) st = LCP_ERR_NOMEM;
            if (st == LCP_OK) {
                memcpy(Kf, K, nn * sizeof(double));                      /* keep K~ for full */
                for (int c = 0; c < nt; c++)                             /* Minv L, in EK */
                    for (int i = 0; i < n; i++)
                        EK[i + (size_t)n * c] = L[i + (size_t)n * c] / W->mass[i / dim];
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, nt, nt, n, 1.0, L, n, EK,
                            n, 0.0, E, nt);                              /* E = L^T Minv L */
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nt, nt, nt, 1.0, E, nt,
                            A, nt, 0.0, EK, nt);                         /* E (L^T -K~ L) */
                if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', nt, EK, nt, w, wi, NULL, 1,
                                  NULL, 1) != 0)
                    st = LCP_ERR_BREAKDOWN;
            }
            if (st == LCP_OK) {
                double mx = -INFINITY;
                for (int i = 0; i < nt; i++) mx = fmax(mx, w[i]);
                R->omega_ek = omega_of(mx);
                for (size_t i = 0; i < nn; i++) Kf[i] = -Kf[i];          /* -K~ */
                for (int c = 0; c < n; c++)                              /* M^-1/2 (-K~) M^-1/2 */
                    for (int i = 0; i < n; i++)
                        Kf[i + (size_t)n * c] /= sqrt(W->mass[i / dim] * W->mass[c / dim]);
                lapack_int found = 0;
                lapack_int *isuppz = lcp_malloc(2, sizeof(lapack_int));
                if (!isuppz ||
                    LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'N', 'I', 'L', n, Kf, n, 0.0, 0.0, n, n,
                                   0.0, &found, w, NULL, 1, isuppz) != 0 || found != 1)
                    st = LCP_ERR_BREAKDOWN;
                lcp_free(isuppz);
                if (st == LCP_OK) R->omega_full = omega_of(w[0]);
            }
            lcp_free(Kf);
        }
        if (st == LCP_OK) {
            char jobz = (flags & PROB_MODAL_MODES) ? 'V' : 'N';
            if (LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, jobz, 'L', nt, A, nt, B, nt, w) != 0)
                st = LCP_ERR_BREAKDOWN;
        }
        if (st == LCP_OK) {
            R->omega2 = lcp_malloc((size_t)nt, sizeof(double));
            if (!R->omega2) st = LCP_ERR_NOMEM;
            else memcpy(R->omega2, w, (size_t)nt * sizeof(double));
        }
        if (st == LCP_OK && (flags & PROB_MODAL_MODES)) {
            R->modes = lcp_malloc((size_t)n * (size_t)nt, sizeof(double));
            if (!R->modes) st = LCP_ERR_NOMEM;
            if (st == LCP_OK)                                            /* psi = L phi */
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nt, nt, 1.0, L, n, A,
                            nt, 0.0, R->modes, n);
        }
        if (st == LCP_OK) {
            R->omega_restricted = omega_of(w[nt - 1]);
            R->mu_pos_max = w[0] < 0.0 ? -w[0] : 0.0;
        }
    }
    if (st == LCP_OK) {
        R->h_crit = R->omega_restricted > 0.0 ? 2.0 / R->omega_restricted : INFINITY;
        if (flags & PROB_MODAL_ALL) {
            if (nt == 0) R->omega_full = R->omega_ek = 0.0;
            double hi = fmax(R->omega_restricted, fmax(R->omega_full, R->omega_ek));
            double lo = fmin(R->omega_restricted, fmin(R->omega_full, R->omega_ek));
            R->spread = hi > 0.0 ? (hi - lo) / hi : 0.0;
        }
    } else {
        if (msg && msglen && !msg[0])
            snprintf(msg, msglen, "modal analysis: %s", lcp_status_str(st));
        prob_modal_free(R);
    }
    lcp_free(lam);
    lcp_free(J);
    lcp_free(K);
    lcp_free(L);
    lcp_free(KL);
    lcp_free(A);
    lcp_free(B);
    lcp_free(w);
    lcp_free(wi);
    return st;
}
