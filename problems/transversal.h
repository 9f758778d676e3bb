/* transversal.h: transversal stability of distance joints (Francu 2018, "Transversal
 * stability of constraints" and "Implicit velocity projection"; Andrews, Teichmann, Kry
 * 2017; Tournier et al. 2015): the modal analysis of a world's geometric stiffness, the
 * alternative steppers compared against the velocity stepper of step.c, and the jitter
 * metrics.  README section "Transversal stability" explains the experiment.
 *
 * SCOPE.  Worlds made only of bodies and distance joints attached at the body centres
 * (pa = 0, and pb = 0 on a body; pb is the world anchor when b < 0), without planes or
 * geometry (hence without contacts).  Other worlds get LCP_ERR_UNSUPPORTED with one line
 * naming why (prob_tv_check).  The analysis works on the dim x bodies translational
 * coordinates only: joints at the centres leave the rotations decoupled (they lie in
 * null(J), carry no stiffness and are M-orthogonal to the translations), so they only add
 * omega = 0 modes, which are left out.
 *
 * CONVENTIONS (the suite's): z is the impulse of a step, v = v* + Minv J^T z; the force
 * multiplier of joint j is lambda_j = z_j / h and the force on body a is n_j lambda_j with
 * n_j = (p_a - p_b)/|p_a - p_b|: a link in tension has lambda_j < 0.  Matrices are dense,
 * column-major; coordinate i of body k is row dim k + i.
 */
#ifndef PROB_TRANSVERSAL_H
#define PROB_TRANSVERSAL_H

#include "prob.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- modal analysis (modal.c) ---------------------------------------------------------- */

/* LCP_OK when W is made of bodies and centre-attached distance joints only; otherwise
 * LCP_ERR_UNSUPPORTED and one line in msg ("3 planes: contacts are not supported", ...). */
lcp_status prob_tv_check(const prob_world *W, char *msg, size_t msglen);

/* J (nj x dim nb) at positions pos (3 per body; NULL: W->pos): row j = [n^T on a, -n^T on
 * b].  l (nj, may be NULL) receives the link lengths |p_a - p_b|. */
void prob_modal_jacobian(const prob_world *W, const double *pos, double *J, double *l);

/* Geometric stiffness K~ = sum_j lambda_j d2psi_j/dq2 (n x n, n = dim nb), with
 * d2psi/dpa2 = d2psi/dpb2 = P/l, d2psi/dpa dpb = -P/l, P = I - n n^T. */
void prob_modal_stiffness(const prob_world *W, const double *pos, const double *lambda,
                          double *K);

/* Force multipliers of the world's last step: lambda_j = zj_j / h. */
void prob_modal_lambda(const prob_world *W, double *lambda);

/* Orthonormal basis of null(J) (J: m x n column-major) from the column-pivoted QR of J^T
 * (dgeqp3, dorgqr): rank r = #{|R_ii| > 1e-12 |R_11|}; L (n x n storage) receives
 * Q[:, r:n] in its first n - r columns.  *rank = r. */
lcp_status prob_modal_basis(int m, int n, const double *J, double *L, int *rank);

/* Energy split of the velocities v (ndof per body; NULL: W->vel) at W->pos in the mass
 * metric: E_C = 1/2 |Q1^T y|^2 with y = M^1/2 v and Q1 the range of M^-1/2 J^T (QR), and
 * E_T = KE - E_C computed as 1/2 |y - Q1 Q1^T y|^2 plus the rotational energy, so
 * E_T + E_C = KE.  u (n = dim nb, may be NULL) receives the transversal velocity
 * P_T v = M^-1/2 (y - Q1 Q1^T y). */
lcp_status prob_modal_split(const prob_world *W, const double *v, double *u, double *ET,
                            double *EC);

enum {
    PROB_MODAL_MODES = 1, /* keep the mode shapes psi_i */
    PROB_MODAL_ALL = 2    /* also the full-space and Francu E K forms */
};

typedef struct prob_modal {
    int n;              /* translational dofs dim nb */
    int m;              /* joints */
    int rank;           /* rank of J */
    int nt;             /* n - rank: transversal dimension */
    double *omega2;     /* nt restricted eigenvalues omega_i^2, ascending (< 0: compression) */
    double *modes;      /* n x nt, psi_i = L phi_i, psi^T M psi = 1 (PROB_MODAL_MODES) */
    double omega_restricted; /* sqrt(max omega^2) of (L^T -K~ L, L^T M L) (rad/s) */
    double omega_full;  /* of (-K~, M) over all n (PROB_MODAL_ALL, else NaN) */
    double omega_ek;    /* of E K, E = L^T Minv L, K = -L^T K~ L (PROB_MODAL_ALL, else NaN) */
    double spread;      /* (max - min) / max of the three (PROB_MODAL_ALL, else 0) */
    double mu_pos_max;  /* largest -omega_i^2 > 0 (buckling under compression), else 0 */
    double h_crit;      /* 2 / omega_restricted (inf when 0) */
} prob_modal;

/* The modal analysis of W at its positions under the multipliers lambda (nj; NULL: those of
 * the last step).  R is filled (free with prob_modal_free).  Cost: QR of J^T and the
 * restricted eigenproblem, O(n^3) with n = dim nb; ALL adds a full-space and a
 * non-symmetric eigenvalue problem. */
lcp_status prob_modal_compute(const prob_world *W, const double *lambda, int flags,
                              prob_modal *R, char *msg, size_t msglen);
void prob_modal_free(prob_modal *R);

/* Growth factor per step of a mode under symplectic Euler: with s = (h omega)^2,
 * |mu| = 1 when s <= 4, else ((s - 2) + sqrt((s - 2)^2 - 4)) / 2. */
double prob_modal_growth(double h, double omega);

#ifdef __cplusplus
}
#endif
#endif /* PROB_TRANSVERSAL_H */
