/* transversal.h: transversal stability of distance joints (Francu 2018, "Transversal
 * stability of constraints" and "Implicit velocity projection"; Andrews, Teichmann, Kry
 * 2017; Tournier et al. 2015): the modal analysis of a world's geometric stiffness, the
 * alternative steppers compared against the velocity stepper of step.c, and the jitter
 * metrics.  problems/README.md, "Transversal stability",
 * explains the experiment.
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

/* ---- steppers (steppers.c) --------------------------------------------------------------- */

typedef enum prob_ivts_rhs {
    PROB_RHS_FRANCU = 0, /* rhs_j = (beta / h) C_j(x_k) */
    PROB_RHS_SPOOK = 1   /* rhs_j = a C_j(x_k) - Ups n_j . (v_k,a - v_k,b): VTS's */
} prob_ivts_rhs;

typedef struct prob_stepper_opts {
    int iters;      /* K: sweeps of ivts (20), pbd and xpbd (20) */
    double beta;    /* ivts with rhs = francu: 0.5 */
    int rhs;        /* ivts: PROB_RHS_FRANCU */
    int refresh;    /* ivts: 0 = directions refreshed per row (nonlinear Gauss-Seidel), 1 = once
                     * per sweep */
    int schur;      /* ivts: 0 = 1 / (w_a + w_b), 1 = 1 / (n^0 . n_c (w_a + w_b)) */
    double alpha;   /* xpbd compliance (m/N); NaN = the world's eps */
} prob_stepper_opts;

void prob_stepper_opts_default(prob_stepper_opts *o);

typedef struct prob_alt_info {
    int step;              /* number of this step (from 1) */
    lcp_status status;     /* the LCP solver's (vts, gsd) */
    int iterations;        /* the LCP solver's sweeps, or fp / shake Newton iterations */
    double residual;       /* the LCP's ||r||_2 (vts, gsd) */
    double cmax[16];       /* fp, shake: max_j |C_j| / L_j after iteration i (first 16) */
    double cos_min;        /* ivts: min_j n_j(x_k) . n_j(x_k + h v); NaN for the others */
    int fallback;          /* gsfull: M - h^2 K~ was not positive definite, gsd was used */
    double kinetic_energy; /* after the step */
    double t_total;        /* seconds */
} prob_alt_info;

typedef lcp_status prob_stepper_fn(prob_world *W, const prob_stepper_opts *o,
                                   prob_alt_info *info, char *msg, size_t msglen);

typedef struct prob_stepper {
    const char *name;        /* vts, ivts, pbd, xpbd, fp, gsd, gsd-l2, gsfull, shake */
    const char *description; /* one line */
    int uses_solver;         /* 1: solves an LCP with the world's solver (vts, gsd, gsd-l2) */
    prob_stepper_fn *step;
} prob_stepper;

const prob_stepper *prob_steppers(int *count);
const prob_stepper *prob_stepper_find(const char *name); /* NULL when unknown */

/* One step of W by stepper s (o NULL: defaults).  Every stepper but vts refuses a world
 * that prob_tv_check rejects (LCP_ERR_UNSUPPORTED, msg names why).  Every stepper leaves the
 * step's impulse estimate in W->zj (force multiplier lambda = zj / h), so prob_modal_compute
 * and gsd read it.  On error the world is left at its last good state (shake: Newton did
 * not converge, LCP_ERR_DIVERGED). */
lcp_status prob_step_alt(prob_world *W, const prob_stepper *s, const prob_stepper_opts *o,
                         prob_alt_info *info, char *msg, size_t msglen);

/* ---- jitter and drift metrics (jitter.c) -------------------------------------------------- */

/* Nyquist transversal energy E_nyq = 1/2 d^T M d, d = (u_2 - 2 u_1 + u_0) / 4, of three
 * successive transversal velocities (n = dim nb each): for u_k = (-1)^k a it is 1/2 a^T M a,
 * for smooth motion O(h^4). */
double prob_jitter_nyquist(const prob_world *W, const double *u0, const double *u1,
                           const double *u2);
/* The work scale of one link: F len (sum of |force|) when forces are set, else
 * sum_k m_k |g| len (len: the mean rest length); without force or gravity sum_k m_k len
 * times 1 m/s^2. */
double prob_jitter_eref(const prob_world *W);
/* max_j |l_j - L_j| / L_j at the world's positions; *sumsq (may be NULL) gets the sum of
 * squares over the links. */
double prob_jitter_stretch(const prob_world *W, double *sumsq);
/* MAC = (a^T M b)^2 / ((a^T M a)(b^T M b)) of two n = dim nb vectors (0 when either is 0). */
double prob_jitter_mac(const prob_world *W, const double *a, const double *b);

typedef enum prob_outcome {
    PROB_QUIET = 0,    /* Jstar < 1e-9 */
    PROB_MARGINAL,     /* in between */
    PROB_JITTER,       /* Jstar > 1e-4 */
    PROB_EXPLODED      /* the stepper failed, a value became non-finite, or stretch > 10 */
} prob_outcome;
const char *prob_outcome_name(prob_outcome o);

/* one step of a run, for a per-step monitor (simulate's extra columns, time series) */
typedef struct prob_jitter_row {
    int step;
    double t;            /* step h */
    double ke, et, ec;   /* kinetic energy and its transversal / constraint split */
    double enyq;         /* Nyquist energy centred at the previous step (0 at step 1) */
    double max_stretch;  /* max_j |l_j - L_j| / L_j after the step */
    double e_top;        /* 1/2 (psi_max^T M u)^2: energy in the initial top mode (modal) */
    double amp;          /* max |x - x_0| over the coordinates (m) */
    double omega_max;    /* restricted omega_max after the step (every_modal), else NaN */
    const prob_alt_info *info;
} prob_jitter_row;

typedef lcp_status prob_jitter_monitor(void *ctx, const prob_world *W,
                                       const prob_jitter_row *row);

typedef struct prob_jitter_cfg {
    int steps;           /* steps to run (400) */
    int window_start;    /* Jstar over steps window_start..steps (0: the second half) */
    double e_ref;        /* work scale (0: prob_jitter_eref) */
    int modal;           /* 1: modal analysis of the initial state; E_top, growth, MAC */
    int every_modal;     /* 1: omega_max after every step (row.omega_max) */
    double amp_linear;   /* the linear phase: amplitude below amp_linear len (1e-3) */
    int fit_from;        /* the growth fit starts at this step (10: the decaying companion
                          * 1/mu of a period-2 mode has faded) */
} prob_jitter_cfg;
void prob_jitter_cfg_default(prob_jitter_cfg *c);

typedef struct prob_jitter_result {
    int steps_done;
    prob_outcome outcome;
    double t_fail;       /* time of the failing step (exploded), else NaN */
    double jstar;        /* mean over the window of E_nyq / e_ref */
    double max_enyq;     /* max E_nyq / e_ref */
    double max_stretch, rms_stretch;   /* over links and steps */
    double et_growth;    /* max_k E_T,k / E_T,1 */
    double amp_ratio;    /* peak |x_end| in the last tenth of the run over the first tenth */
    double cos_min;      /* min over the steps (ivts), NaN for the others */
    double cos_min_last; /* of the last finite step (ivts) */
    double cos_min_fail; /* of the step that exploded (ivts), else NaN */
    double omega_max0, h_crit0;  /* modal analysis of the initial state (modal) */
    double mu_pred;      /* prob_modal_growth(h, omega_max0) */
    double mu_meas;      /* exp(slope / 2) of the least-squares fit of log E_top over the
                          * linear phase (steps fit_from.. with amp < amp_linear len) */
    int fit_steps;       /* steps in that fit */
    double mac_top;      /* MAC(psi_max, u) at the last step of the linear phase (modal) */
    double et_share;     /* E_T / (E_T + E_C) at that step */
    double time_per_step;/* seconds */
    char fail[256];      /* why it exploded: the stepper's message, or "non-finite" or
                          * "stretch > 10" */
} prob_jitter_result;

/* Run W by stepper s for cfg->steps steps (or until it explodes) and measure.  The world is
 * advanced; monitor (may be NULL) sees every step.  Returns LCP_OK also when the run
 * exploded (R->outcome says so); errors are allocation and monitor failures. */
lcp_status prob_jitter_run(prob_world *W, const prob_stepper *s, const prob_stepper_opts *o,
                           const prob_jitter_cfg *cfg, prob_jitter_monitor *monitor, void *ctx,
                           prob_jitter_result *R, char *msg, size_t msglen);

/* A world of scene sc with parameters P, h replaced by h, the solver set by name (NULL:
 * keep pgs) with iters sweeps (tol < 0: fixed). */
lcp_status prob_jitter_world(prob_world *W, const prob_scene *sc, const prob_params *P,
                             double h, const char *solver, int iters, double tol, char *msg,
                             size_t msglen);

/* Onset of instability by bisection on h in [h_lo, h_hi] (h_lo stable, h_hi unstable,
 * checked) to rel relative width: a run of `steps' steps is unstable when
 * max_k E_T,k / E_T,1 >= 1e6 or it explodes.  *h_onset = the midpoint of the final bracket;
 * LCP_ERR_ARG when the bracket does not hold. */
lcp_status prob_jitter_onset(const prob_scene *sc, const prob_params *P, const char *solver,
                             int iters, const prob_stepper *s, const prob_stepper_opts *o,
                             double h_lo, double h_hi, double rel, int steps, double *h_onset,
                             char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif
#endif /* PROB_TRANSVERSAL_H */
