/* peer_siconos.c: Siconos Numerics' LCP solvers (Acary, Bremond, Huber et al., INRIA;
 * Debian libsiconos-numerics-dev, version 4.4) run as peers through this library's registry,
 * so the harness times them, scores their answers with lcp_residual() and compares them with
 * ours on the same instances.
 *
 * Problem: the standard LCP 0 <= z _|_ w = M z + q >= 0 (Siconos's sign convention is ours).
 * Boxes and friction coupling are refused by the registry (their needs flags), as for any
 * solver that lacks them.  Setup (timed apart by the harness): the CSR A becomes Siconos's
 * dense column-major NumericsMatrix, O(m^2) memory, refused above PEER_DENSE_MAX rows.
 * Solve: linearComplementarity_driver() with solver_options_create(ID); options map onto
 * Siconos's own: max_iter -> iparam[SICONOS_IPARAM_MAX_ITER], tol -> dparam[SICONOS_DPARAM_TOL]
 * (Siconos tests its own error measure, not ours), warm start -> the initial z.  The status
 * is Siconos's verdict (its info 0 = converged by its own test); the residual in info is
 * ours.  Siconos 4.4's PSOR is not registered: it ignores its relaxation parameter (so it is
 * its PGS) and prints to standard output, which would corrupt the harness's CSV.
 */
#include "peers.h"

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { PEER_DENSE_MAX = 16384 }; /* 2 GiB of dense matrix */

/* the prepared problem: Siconos owns M's buffer (NM_create_from_data takes it over) */
typedef struct sic_problem {
    LinearComplementarityProblem lcp;
    double *q;
} sic_problem;

static void sic_teardown(void *data)
{
    sic_problem *S = data;
    if (!S) return;
    if (S->lcp.M) NM_free(S->lcp.M); /* frees the matrix struct and its data */
    free(S->q);
    free(S);
}

lcp_status lcp_setup_siconos(const lcp_problem *P, const lcp_options *opt, void **data)
{
    (void)opt;
    *data = NULL;
    int m = P->m;
    if (m > PEER_DENSE_MAX) return LCP_ERR_TOO_LARGE;
    sic_problem *S = calloc(1, sizeof *S);
    double *M = calloc((size_t)m * m + 1, sizeof *M); /* Siconos frees it with free() */
    if (!S || !M || !(S->q = malloc((size_t)(m ? m : 1) * sizeof *S->q))) {
        free(M);
        sic_teardown(S);
        return LCP_ERR_NOMEM;
    }
    for (int i = 0; i < m; i++)
        for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++)
            M[(size_t)P->A.j[k] * m + i] = P->A.x[k]; /* column-major: M(i, j) at j*m + i */
    memcpy(S->q, P->q, (size_t)m * sizeof *S->q);
    S->lcp.size = m;
    S->lcp.M = NM_create_from_data(NM_DENSE, m, m, M);
    S->lcp.q = S->q;
    if (!S->lcp.M) {
        free(M);
        sic_teardown(S);
        return LCP_ERR_NOMEM;
    }
    *data = S;
    return LCP_OK;
}

void lcp_teardown_siconos(void *data) { sic_teardown(data); }

/* one Siconos solver, `direct': a pivoting method whose failure leaves no usable answer */
static lcp_status sic_solve(const lcp_problem *P, const lcp_options *opt, double *z,
                            lcp_info *info, int id, int direct)
{
    lcp_info_init(info);
    void *own = NULL;
    const sic_problem *S = opt->prepared;
    lcp_status st = LCP_OK;
    if (!S) { /* called without lcp_prepare: prepare here */
        st = lcp_setup_siconos(P, opt, &own);
        S = own;
    }
    int m = P->m;
    double *w = malloc((size_t)(m ? m : 1) * sizeof *w);
    SolverOptions *so = st == LCP_OK ? solver_options_create(id) : NULL;
    if (st == LCP_OK && (!w || !so)) st = LCP_ERR_NOMEM;
    if (st == LCP_OK) {
        lcp_start(P, opt, z); /* cold: mid(lo, 0, hi) = 0; warm: the given z */
        so->iparam[SICONOS_IPARAM_MAX_ITER] = opt->max_iter;
        if (opt->tol > 0) so->dparam[SICONOS_DPARAM_TOL] = opt->tol;
        int code = linearComplementarity_driver((LinearComplementarityProblem *)&S->lcp, z, w,
                                                so);
        int finite = 1;
        for (int i = 0; i < m; i++) finite &= isfinite(z[i]) != 0;
        info->iterations = so->iparam[SICONOS_IPARAM_ITER_DONE];
        info->work = info->iterations;
        if (!finite) st = LCP_ERR_NONFINITE;
        else if (code == 0) st = LCP_OK;
        else st = direct ? LCP_ERR_BREAKDOWN : LCP_MAXITER;
    }
    st = lcp_final_residual(P, z, w, info, st);
    if (so) {
        solver_options_delete(so); /* its contents; the struct is the caller's */
        free(so);
    }
    free(w);
    if (own) sic_teardown(own);
    info->status = st;
    return st;
}

/* The registered variants: thin entries over sic_solve (Siconos solver id, direct or
 * iterative, and a size cap where the method's cost is exponential). */
lcp_status lcp_solve_siconos_lemke(const lcp_problem *P, const lcp_options *opt, double *z,
                                   lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_LEMKE, 1);
}

lcp_status lcp_solve_siconos_pivot(const lcp_problem *P, const lcp_options *opt, double *z,
                                   lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_PIVOT, 1);
}

lcp_status lcp_solve_siconos_enum(const lcp_problem *P, const lcp_options *opt, double *z,
                                  lcp_info *info)
{
    if (P->m > 24) { /* enumeration of 2^m active sets */
        lcp_info_init(info);
        return info->status = LCP_ERR_TOO_LARGE;
    }
    return sic_solve(P, opt, z, info, SICONOS_LCP_ENUM, 1);
}

lcp_status lcp_solve_siconos_pgs(const lcp_problem *P, const lcp_options *opt, double *z,
                                 lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_PGS, 0);
}

lcp_status lcp_solve_siconos_rpgs(const lcp_problem *P, const lcp_options *opt, double *z,
                                  lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_RPGS, 0);
}

lcp_status lcp_solve_siconos_newton_min(const lcp_problem *P, const lcp_options *opt, double *z,
                                        lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_NEWTONMIN, 0);
}

lcp_status lcp_solve_siconos_newton_fb(const lcp_problem *P, const lcp_options *opt, double *z,
                                       lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_NEWTON_FB_FBLSA, 0);
}

lcp_status lcp_solve_siconos_latin(const lcp_problem *P, const lcp_options *opt, double *z,
                                   lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_LATIN, 0);
}

lcp_status lcp_solve_siconos_cpg(const lcp_problem *P, const lcp_options *opt, double *z,
                                 lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_CPG, 0);
}

lcp_status lcp_solve_siconos_avi_caoferris(const lcp_problem *P, const lcp_options *opt,
                                           double *z, lcp_info *info)
{
    return sic_solve(P, opt, z, info, SICONOS_LCP_AVI_CAOFERRIS, 1);
}
