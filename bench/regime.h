/* regime.h: the analysis behind the amgs-regime table and the `paper' variant of amgs-table1
 * (README, "The AMGS family"): when does AMGS halve PGS's sweeps?
 *
 * amgs-D with gamma beta = b makes the row update of projected SOR with omega = 2/(1 + b) on
 * rows above their bound, so near the solution both PGS and amgs-D are linear iterations on
 * the active rows F: Gauss-Seidel and SOR on A_FF.  Their asymptotic rates are the spectral
 * radii of the iteration matrices G = I - M^-1 A_FF with M = D/omega - L (omega may differ per
 * row: amgs-I's omega_i = 2 a_ii / (beta + a_ii)).  Sweeps per decade are -1/log10(rho), so
 * the predicted amgs/PGS sweep ratio is log(rho_GS) / log(rho_SOR).  Self-stress states
 * (the null space of J_F^T, when a pile has more active contacts than degrees of freedom)
 * have the eigenvalue E of the compliance in A_FF = J_F Minv J_F^T + E I; with E = 0 they
 * are eigenvalue-1 modes of every G that are not errors (the solution set is a line there),
 * so they are left out of rho (the `nskip' eigenvalues nearest 1).
 */
#ifndef BENCH_REGIME_H
#define BENCH_REGIME_H

#include "harness.h"

/* ---- instances in memory ------------------------------------------------------------------- */

/* Deep copy of a problem (Q lcp_problem_init'ed by the call).  LCP_OK or LCP_ERR_NOMEM. */
lcp_status bench_problem_copy(const lcp_problem *P, lcp_problem *Q);

/* Step `scene' with "key=value" parameters once up to the last of nstep increasing steps and
 * copy the problem of each (before its solve, z0 = the stepper's warm start) into out[k]
 * (lcp_problem_free each).  0, or -1 with msg (out[] freed). */
int bench_capture_steps(const char *scene, int nkv, const char *const *kv, int nstep,
                        const int *steps, lcp_problem *out, char *msg, size_t msglen);

/* Rigid contacts with a consistent right-hand side: A = J Minv J^T (E dropped) and q replaced
 * by its least-squares projection onto range(J) (LAPACKE dgelsd, rcond 1e-12).  *moved gets
 * ||q - q_proj||_2 / max(1e-300, ||q||_2).  Needs the factors.  0, or -1 with msg. */
int bench_problem_rigid(lcp_problem *P, double *moved, char *msg, size_t msglen);

/* ---- the analysis ------------------------------------------------------------------------ */

/* The active rows of a solution z: z_i above its lower bound, or w_i = (A z + q)_i within
 * 1e-9 max(1, ||q||_inf) of 0 (tight rows; with a semi-definite A the solution's z is not
 * unique but w is, so the tight rows are).  F receives the rows (m entries of room); returns
 * their number. */
int bench_active_rows(const lcp_problem *P, const double *z, int *F);

/* Dense A_FF (nf x nf, column-major) into out. */
void bench_dense_sub(const lcp_problem *P, const int *F, int nf, double *out);

/* dim null(J_F^T) = nf - rank(J_F) (singular values of the dense J_F, LAPACKE dgesdd; rank =
 * singular values above 1e-10 times the largest).  -1 without factors or on failure. */
int bench_null_dim(const lcp_problem *P, const int *F, int nf);

/* Spectral radius of the SOR iteration matrix I - M^-1 S of the symmetric n x n S
 * (column-major), M = diag(S)/omega_i - strict lower(S) (omega NULL: Gauss-Seidel; omega
 * one entry per row), leaving out the nskip eigenvalues nearest 1 (LAPACKE dgeev).  NaN on
 * failure. */
double bench_sor_radius(const double *S, int n, const double *omega, int nskip);

/* Smallest eigenvalue of the symmetric n x n S (LAPACKE dsyev); NaN on failure. */
double bench_sym_min_eig(const double *S, int n);

/* sweeps-per-decade ratio of two linear rates: log(rho_ref) / log(rho) (NaN unless both are
 * in (0, 1)) */
double bench_rate_ratio(double rho_ref, double rho);

typedef struct bench_regime {
    int m, nf, nnull;        /* rows, active rows, dim null(J_F^T) */
    double lam_min;          /* smallest eigenvalue of A_FF */
    double rho_gs, rho_sor, rho_amgs_i;  /* GS, SOR(omega), amgs-I's per-row SOR */
    double pred_d, pred_i;   /* predicted amgs-D/PGS and amgs-I/PGS sweep ratios */
} bench_regime;

/* The whole analysis on the active rows of z (a reference solution): amgs-D's omega =
 * 2/(1 + b) (b = gamma beta), amgs-I's omega_i = 2 a_ii/(beta_I + a_ii) with beta_I =
 * mean(a_ii) over all rows (its solver default).  rigid: E = 0, so the nnull eigenvalues
 * nearest 1 are left out.  0, or -1 (out of memory, LAPACKE failure). */
int bench_regime_analyse(const lcp_problem *P, const double *z, double b, int rigid,
                         bench_regime *R);

#endif
