/* regime.c: the linearised-rate analysis of PGS and AMGS on the active rows (grid.h, the regime analysis),
 * and the rigid (E = 0, q in range(J)) form of an instance (instances captured in memory:
 * problems/capture.c).
 *
 * Needs the factors J, Minv of an instance for the null space and the rigid form.  Cost:
 * dense LAPACKE on the active rows: O(nf n min(nf, n)) for the singular values of J_F,
 * O(nf^3) for each eigenvalue problem (three dgeev and one dsyev), O(m n min(m, n)) for the
 * projection of q; memory O(nf^2 + m n).  Source: Young's SOR theory (the rate of a linear
 * iteration is the spectral radius of its iteration matrix); the equivalence of amgs-D and
 * PSOR is lcp/README.md, "The AMGS family".
 */
#include "grid.h"
#include "prob.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* dense copy (column-major, rows F or all when F == NULL) of the CSR matrix C */
static double *dense_rows(const lcp_csr *C, const int *F, int nr)
{
    double *D = lcp_calloc((size_t)nr * (size_t)C->ncol + 1, sizeof(double));
    if (!D) return NULL;
    for (int r = 0; r < nr; r++) {
        int i = F ? F[r] : r;
        for (int k = C->p[i]; k < C->p[i + 1]; k++)
            D[(size_t)C->j[k] * (size_t)nr + (size_t)r] += C->x[k];
    }
    return D;
}

int bench_problem_rigid(lcp_problem *P, double *moved, char *msg, size_t msglen)
{
    *moved = NAN;
    if (!lcp_problem_has_factors(P)) {
        snprintf(msg, msglen, "the rigid form needs J and Minv");
        return -1;
    }
    int m = P->m, n = P->n, ld = m > n ? m : n;
    lcp_csr A;
    memset(&A, 0, sizeof A);
    double *Jd = dense_rows(&P->J, NULL, m);
    double *b = lcp_calloc((size_t)ld + 1, sizeof(double)), *s = lcp_calloc((size_t)ld + 1, sizeof(double));
    double *Jc = lcp_malloc(((size_t)m * (size_t)n + 1), sizeof(double));
    int rc = -1;
    if (!Jd || !b || !s || !Jc) {
        snprintf(msg, msglen, "out of memory");
        goto done;
    }
    memcpy(Jc, Jd, (size_t)m * (size_t)n * sizeof(double));
    memcpy(b, P->q, (size_t)m * sizeof(double));
    lapack_int rank;
    if (m > 0 && n > 0 &&
        LAPACKE_dgelsd(LAPACK_COL_MAJOR, m, n, 1, Jc, m, b, ld, s, 1e-12, &rank) != 0) {
        snprintf(msg, msglen, "LAPACKE_dgelsd failed");
        goto done;
    }
    double dq = 0, nq = 0;
    for (int i = 0; i < m; i++) {   /* q_proj = J y, y = b[0..n) */
        double v = 0;
        for (int j = 0; j < n; j++) v += Jd[(size_t)j * (size_t)m + (size_t)i] * b[j];
        dq += (P->q[i] - v) * (P->q[i] - v);
        nq += P->q[i] * P->q[i];
        s[i] = v;
    }
    if (lcp_csr_jmjt(&P->J, &P->Minv, NULL, &A) != LCP_OK) {
        snprintf(msg, msglen, "out of memory");
        goto done;
    }
    lcp_csr_free(&P->A);
    P->A = A;
    memcpy(P->q, s, (size_t)m * sizeof(double));
    lcp_free(P->E);
    P->E = NULL;
    lcp_free(P->zref);
    P->zref = NULL;
    *moved = sqrt(dq) / fmax(1e-300, sqrt(nq));
    rc = 0;
done:
    lcp_free(Jd);
    lcp_free(Jc);
    lcp_free(b);
    lcp_free(s);
    return rc;
}

/* ---- the analysis ------------------------------------------------------------------------ */

int bench_active_rows(const lcp_problem *P, const double *z, int *F)
{
    int m = P->m, nf = 0;
    double *w = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof(double)), qmax = 1;
    if (!w) return 0;
    lcp_residuals R;
    lcp_residual(P, z, w, &R);
    for (int i = 0; i < m; i++) qmax = fmax(qmax, fabs(P->q[i]));
    for (int i = 0; i < m; i++) {
        double lo, hi;
        lcp_bounds(P, z, i, &lo, &hi);
        if (z[i] > lo || fabs(w[i]) <= 1e-9 * qmax) F[nf++] = i;
    }
    lcp_free(w);
    return nf;
}

void bench_dense_sub(const lcp_problem *P, const int *F, int nf, double *out)
{
    memset(out, 0, (size_t)nf * (size_t)nf * sizeof(double));
    int *pos = lcp_malloc((size_t)(P->m > 0 ? P->m : 1), sizeof(int));
    if (!pos) return;
    for (int i = 0; i < P->m; i++) pos[i] = -1;
    for (int r = 0; r < nf; r++) pos[F[r]] = r;
    for (int r = 0; r < nf; r++)
        for (int k = P->A.p[F[r]]; k < P->A.p[F[r] + 1]; k++) {
            int c = pos[P->A.j[k]];
            if (c >= 0) out[(size_t)c * (size_t)nf + (size_t)r] = P->A.x[k];
        }
    lcp_free(pos);
}

int bench_null_dim(const lcp_problem *P, const int *F, int nf)
{
    if (!lcp_problem_has_factors(P)) return -1;
    int n = P->n, k = nf < n ? nf : n;
    if (nf == 0) return 0;
    if (k == 0) return nf;
    double *Jd = dense_rows(&P->J, F, nf), *s = lcp_malloc((size_t)k, sizeof(double));
    int rc = -1;
    if (Jd && s && LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', nf, n, Jd, nf, s, NULL, 1, NULL, 1) == 0) {
        int rank = 0;
        for (int j = 0; j < k; j++) rank += s[j] > 1e-10 * s[0];
        rc = nf - rank;
    }
    lcp_free(Jd);
    lcp_free(s);
    return rc;
}

double bench_sor_radius(const double *S, int n, const double *omega, int nskip)
{
    if (n <= 0) return NAN;
    size_t nn = (size_t)n * (size_t)n;
    double *M = lcp_calloc(nn, sizeof(double)), *G = lcp_malloc(nn, sizeof(double));
    double *wr = lcp_malloc((size_t)n, sizeof(double)), *wi = lcp_malloc((size_t)n, sizeof(double));
    char *skip = lcp_calloc((size_t)n, 1);
    double rho = NAN;
    if (!M || !G || !wr || !wi || !skip) goto done;
    for (int j = 0; j < n; j++)   /* M = D/omega - strict lower = diag/omega + lower(S) */
        for (int i = j; i < n; i++)
            M[(size_t)j * n + i] = i == j ? S[(size_t)j * n + j] / (omega ? omega[j] : 1.0)
                                          : S[(size_t)j * n + i];
    memcpy(G, S, nn * sizeof(double));
    if (LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', n, n, M, n, G, n) != 0) goto done;
    for (size_t k = 0; k < nn; k++) G[k] = -G[k];   /* G = I - M^-1 S */
    for (int j = 0; j < n; j++) G[(size_t)j * n + j] += 1.0;
    if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, G, n, wr, wi, NULL, 1, NULL, 1) != 0)
        goto done;
    for (int s = 0; s < nskip && s < n; s++) {   /* the nskip eigenvalues nearest 1 */
        int best = -1;
        double bd = INFINITY;
        for (int k = 0; k < n; k++) {
            double d = hypot(wr[k] - 1.0, wi[k]);
            if (!skip[k] && d < bd) {
                bd = d;
                best = k;
            }
        }
        if (best >= 0) skip[best] = 1;
    }
    rho = 0;
    for (int k = 0; k < n; k++)
        if (!skip[k]) rho = fmax(rho, hypot(wr[k], wi[k]));
done:
    lcp_free(M);
    lcp_free(G);
    lcp_free(wr);
    lcp_free(wi);
    lcp_free(skip);
    return rho;
}

double bench_sym_min_eig(const double *S, int n)
{
    if (n <= 0) return NAN;
    size_t nn = (size_t)n * (size_t)n;
    double *C = lcp_malloc(nn, sizeof(double)), *ev = lcp_malloc((size_t)n, sizeof(double));
    double v = NAN;
    if (C && ev) {
        memcpy(C, S, nn * sizeof(double));
        if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', n, C, n, ev) == 0) v = ev[0];
    }
    lcp_free(C);
    lcp_free(ev);
    return v;
}

double bench_rate_ratio(double rho_ref, double rho)
{
    if (!(rho_ref > 0 && rho_ref < 1 - BENCH_RATE_RESOLUTION && rho > 0 &&
          rho < 1 - BENCH_RATE_RESOLUTION))
        return NAN;
    return log(rho_ref) / log(rho);
}

int bench_regime_analyse(const lcp_problem *P, const double *z, double b, int rigid,
                         bench_regime *R)
{
    memset(R, 0, sizeof *R);
    R->m = P->m;
    R->lam_min = R->rho_gs = R->rho_sor = R->rho_amgs_i = R->pred_d = R->pred_i = NAN;
    int m = P->m;
    int *F = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof(int));
    double *d = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof(double));
    double *om = lcp_malloc((size_t)(m > 0 ? m : 1), sizeof(double)), *S = NULL;
    int rc = -1;
    if (!F || !d || !om) goto done;
    int nf = R->nf = bench_active_rows(P, z, F);
    R->nnull = bench_null_dim(P, F, nf);
    if (nf == 0) {
        rc = 0;
        goto done;
    }
    S = lcp_malloc((size_t)nf * (size_t)nf, sizeof(double));
    if (!S) goto done;
    bench_dense_sub(P, F, nf, S);
    lcp_csr_diag(&P->A, d);
    double betaI = 0;
    for (int i = 0; i < m; i++) betaI += d[i] / m;
    int nskip = rigid && R->nnull > 0 ? R->nnull : 0;
    R->lam_min = bench_sym_min_eig(S, nf);
    R->rho_gs = bench_sor_radius(S, nf, NULL, nskip);
    for (int r = 0; r < nf; r++) om[r] = 2.0 / (1.0 + b);
    R->rho_sor = bench_sor_radius(S, nf, om, nskip);
    for (int r = 0; r < nf; r++) om[r] = 2.0 * d[F[r]] / (betaI + d[F[r]]);
    R->rho_amgs_i = bench_sor_radius(S, nf, om, nskip);
    R->pred_d = bench_rate_ratio(R->rho_gs, R->rho_sor);
    R->pred_i = bench_rate_ratio(R->rho_gs, R->rho_amgs_i);
    rc = isfinite(R->rho_gs) && isfinite(R->rho_sor) ? 0 : -1;
done:
    lcp_free(F);
    lcp_free(d);
    lcp_free(om);
    lcp_free(S);
    return rc;
}

/* ---- the linear model from the start ------------------------------------------------------ */

typedef struct sub_csr {   /* A_FF in CSR, local indices */
    int nf, *p, *j;
    double *x, *diag;
} sub_csr;

static int sub_build(const lcp_problem *P, const int *F, int nf, sub_csr *S)
{
    memset(S, 0, sizeof *S);
    S->nf = nf;
    int *pos = lcp_malloc((size_t)(P->m > 0 ? P->m : 1), sizeof(int));
    S->p = lcp_calloc((size_t)nf + 1, sizeof(int));
    S->diag = lcp_calloc((size_t)nf + 1, sizeof(double));
    if (!pos || !S->p || !S->diag) goto fail;
    for (int i = 0; i < P->m; i++) pos[i] = -1;
    for (int r = 0; r < nf; r++) pos[F[r]] = r;
    long nnz = 0;
    for (int r = 0; r < nf; r++)
        for (int k = P->A.p[F[r]]; k < P->A.p[F[r] + 1]; k++) nnz += pos[P->A.j[k]] >= 0;
    S->j = lcp_malloc((size_t)nnz + 1, sizeof(int));
    S->x = lcp_malloc((size_t)nnz + 1, sizeof(double));
    if (!S->j || !S->x) goto fail;
    nnz = 0;
    for (int r = 0; r < nf; r++) {
        for (int k = P->A.p[F[r]]; k < P->A.p[F[r] + 1]; k++) {
            int c = pos[P->A.j[k]];
            if (c < 0) continue;
            S->j[nnz] = c;
            S->x[nnz++] = P->A.x[k];
            if (c == r) S->diag[r] += P->A.x[k];
        }
        S->p[r + 1] = (int)nnz;
    }
    lcp_free(pos);
    return 0;
fail:
    lcp_free(pos);
    lcp_free(S->p);
    lcp_free(S->j);
    lcp_free(S->x);
    lcp_free(S->diag);
    memset(S, 0, sizeof *S);
    return -1;
}

static void sub_free(sub_csr *S)
{
    lcp_free(S->p);
    lcp_free(S->j);
    lcp_free(S->x);
    lcp_free(S->diag);
}

static double sub_resnorm(const sub_csr *S, const double *e)
{
    double s2 = 0;
    for (int r = 0; r < S->nf; r++) {
        double v = 0;
        for (int k = S->p[r]; k < S->p[r + 1]; k++) v += S->x[k] * e[S->j[k]];
        s2 += v * v;
    }
    return sqrt(s2);
}

/* sweeps of e <- e - omega_r (A e)_r / a_rr, rows in order, until ||A e|| <= tol; -1: not
 * within maxit; e is overwritten */
static long sub_sweeps(const sub_csr *S, double *e, const double *om, double tol, long maxit)
{
    if (sub_resnorm(S, e) <= tol) return 0;
    for (long it = 1; it <= maxit; it++) {
        for (int r = 0; r < S->nf; r++) {
            if (!(S->diag[r] > 0)) continue;
            double v = 0;
            for (int k = S->p[r]; k < S->p[r + 1]; k++) v += S->x[k] * e[S->j[k]];
            e[r] -= (om ? om[r] : 1.0) * v / S->diag[r];
        }
        if (sub_resnorm(S, e) <= tol) return it;
    }
    return -1;
}

static double count_ratio(long ref, long k)
{
    return ref > 0 && k >= 0 ? (double)k / (double)ref : NAN;
}

int bench_regime_linear(const lcp_problem *P, const double *z, const double *z0, double b,
                        double tol, long maxit, bench_regime *R)
{
    R->lin_gs = R->lin_sor = R->lin_i = -1;
    R->lin_r0 = R->pred_lin_d = R->pred_lin_i = NAN;
    int m = P->m, rc = -1;
    size_t mm = (size_t)(m > 0 ? m : 1);
    int *F = lcp_malloc(mm, sizeof(int));
    double *d = lcp_malloc(mm, sizeof(double)), *e0 = lcp_malloc(mm, sizeof(double));
    double *e = lcp_malloc(mm, sizeof(double)), *om = lcp_malloc(mm, sizeof(double));
    sub_csr S;
    memset(&S, 0, sizeof S);
    if (!F || !d || !e0 || !e || !om) goto done;
    int nf = bench_active_rows(P, z, F);
    if (nf <= 0) {
        R->lin_gs = R->lin_sor = R->lin_i = 0;
        rc = 0;
        goto done;
    }
    if (sub_build(P, F, nf, &S) != 0) goto done;
    for (int r = 0; r < nf; r++) e0[r] = (z0 ? z0[F[r]] : 0.0) - z[F[r]];
    R->lin_r0 = sub_resnorm(&S, e0);
    size_t bytes = (size_t)nf * sizeof(double);
    memcpy(e, e0, bytes);
    R->lin_gs = sub_sweeps(&S, e, NULL, tol, maxit);
    for (int r = 0; r < nf; r++) om[r] = 2.0 / (1.0 + b);
    memcpy(e, e0, bytes);
    R->lin_sor = sub_sweeps(&S, e, om, tol, maxit);
    lcp_csr_diag(&P->A, d);
    double betaI = 0;
    for (int i = 0; i < m; i++) betaI += d[i] / m;
    for (int r = 0; r < nf; r++) om[r] = 2.0 * d[F[r]] / (betaI + d[F[r]]);
    memcpy(e, e0, bytes);
    R->lin_i = sub_sweeps(&S, e, om, tol, maxit);
    R->pred_lin_d = count_ratio(R->lin_gs, R->lin_sor);
    R->pred_lin_i = count_ratio(R->lin_gs, R->lin_i);
    rc = 0;
done:
    sub_free(&S);
    lcp_free(F);
    lcp_free(d);
    lcp_free(e0);
    lcp_free(e);
    lcp_free(om);
    return rc;
}
