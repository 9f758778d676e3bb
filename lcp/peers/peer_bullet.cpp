/* peer_bullet.cpp: Bullet Physics 3.24's MLCP solvers in double precision (Debian
 * libbullet-dev, the bullet-float64 libraries) run as peers: `bullet-pgs'
 * (btSolveProjectedGaussSeidel), `bullet-dantzig' (btDantzigSolver, Bullet's copy of ODE's
 * Dantzig) and `bullet-lemke' (btLemkeSolver).
 *
 * Bullet's convention is ODE's: A x = b + w, lo <= x <= hi, and a friction row i with
 * limitDependency[i] = f >= 0 is bounded by lo_i s, hi_i s with s = x_f (s = 1 when x_f < 0):
 * this library's problem with q = -b and findex as limitDependency.  Setup (timed apart):
 * the dense btMatrixXu and vectors, refused above PEER_DENSE_MAX rows.  Options map onto
 * Bullet's: max_iter -> numIterations (PGS; Lemke's m_maxLoops), tol -> PGS's threshold on
 * the sum of squared updates of a sweep (tol^2).  Bullet's Dantzig discards answers with
 * |x| >= 1000 (m_acceptableUpperLimitSolution); that cut-off is lifted here (1e300) since
 * the instances' impulses are not scaled to it.  Statuses: solveMLCP's false is
 * `breakdown' for the pivoting solvers; PGS has no verdict of its own (it runs its sweeps):
 * `converged' when its threshold was met before numIterations, else `max-iterations'.
 */
#include "peers.h"

#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btLemkeSolver.h>
#include <BulletDynamics/MLCPSolvers/btSolveProjectedGaussSeidel.h>

#include <cmath>
#include <new>
#include <vector>

extern "C" {
lcp_solve_fn lcp_solve_bullet_pgs, lcp_solve_bullet_dantzig, lcp_solve_bullet_lemke;
lcp_setup_fn lcp_setup_bullet;
lcp_teardown_fn lcp_teardown_bullet;
}

namespace {

const int PEER_DENSE_MAX = 16384;

struct bullet_problem {
    btMatrixXu A;
    btVectorXu b, lo, hi;
    btAlignedObjectArray<int> dep;
};

enum method { PGS, DANTZIG, LEMKE };

/* Bullet's Dantzig with its plausibility cut-off (a protected member) lifted */
struct dantzig_uncut : btDantzigSolver {
    dantzig_uncut() { m_acceptableUpperLimitSolution = 1e300; }
};

lcp_status solve(const lcp_problem *P, const lcp_options *opt, double *z, lcp_info *info,
                 method how)
{
    lcp_info_init(info);
    void *own = nullptr;
    const bullet_problem *S = static_cast<const bullet_problem *>(opt->prepared);
    lcp_status st = LCP_OK;
    if (!S) {
        st = lcp_setup_bullet(P, opt, &own);
        S = static_cast<const bullet_problem *>(own);
    }
    int n = P->m;
    if (st == LCP_OK) {
        try {
            btVectorXu x(n);
            lcp_start(P, opt, z); /* PGS warm starts from x; the pivoting methods ignore it */
            for (int i = 0; i < n; i++) x[i] = z[i];
            bool solved = false;
            int sweeps = 0;
            if (how == PGS) {
                btSolveProjectedGaussSeidel pgs;
                pgs.m_leastSquaresResidualThreshold = opt->tol > 0 ? opt->tol * opt->tol : 0;
                solved = pgs.solveMLCP(S->A, S->b, x, S->lo, S->hi, S->dep, opt->max_iter);
                /* it stops after the sweep whose squared update fell below the threshold */
                solved = pgs.m_leastSquaresResidual < pgs.m_leastSquaresResidualThreshold;
                sweeps = opt->max_iter;
            } else if (how == DANTZIG) {
                dantzig_uncut dz;
                solved = dz.solveMLCP(S->A, S->b, x, S->lo, S->hi, S->dep, 1);
                sweeps = 1;
            } else {
                btLemkeSolver lk;
                lk.m_maxLoops = opt->max_iter;
                lk.m_maxValue = 1e300;
                solved = lk.solveMLCP(S->A, S->b, x, S->lo, S->hi, S->dep, 1);
                sweeps = 1;
            }
            bool finite = true;
            for (int i = 0; i < n; i++) {
                z[i] = x[i];
                finite = finite && std::isfinite(z[i]);
            }
            info->iterations = sweeps;
            info->work = sweeps;
            st = !finite ? LCP_ERR_NONFINITE
                 : solved ? LCP_OK
                 : how == PGS ? LCP_MAXITER : LCP_ERR_BREAKDOWN;
        } catch (const std::bad_alloc &) {
            st = LCP_ERR_NOMEM;
        }
    }
    if (st >= 0) {
        try {
            std::vector<double> w(n);
            st = lcp_final_residual(P, z, w.data(), info, st);
        } catch (const std::bad_alloc &) {
            st = LCP_ERR_NOMEM;
        }
    }
    lcp_teardown_bullet(own);
    return info->status = st;
}

} // namespace

lcp_status lcp_setup_bullet(const lcp_problem *P, const lcp_options *, void **data)
{
    *data = nullptr;
    int n = P->m;
    if (n > PEER_DENSE_MAX) return LCP_ERR_TOO_LARGE;
    try {
        bullet_problem *S = new bullet_problem;
        S->A.resize(n, n);
        S->A.setZero();
        S->b.resize(n);
        S->lo.resize(n);
        S->hi.resize(n);
        S->dep.resize(n);
        for (int i = 0; i < n; i++) {
            for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++) S->A.setElem(i, P->A.j[k], P->A.x[k]);
            S->b[i] = -P->q[i]; /* A x = b + w */
            S->lo[i] = P->lo[i];
            S->hi[i] = P->hi[i];
            S->dep[i] = P->findex ? P->findex[i] : -1;
        }
        *data = S;
    } catch (const std::bad_alloc &) {
        return LCP_ERR_NOMEM;
    }
    return LCP_OK;
}

void lcp_teardown_bullet(void *data) { delete static_cast<bullet_problem *>(data); }

lcp_status lcp_solve_bullet_pgs(const lcp_problem *P, const lcp_options *opt, double *z,
                                lcp_info *info)
{
    return solve(P, opt, z, info, PGS);
}

lcp_status lcp_solve_bullet_dantzig(const lcp_problem *P, const lcp_options *opt, double *z,
                                    lcp_info *info)
{
    return solve(P, opt, z, info, DANTZIG);
}

lcp_status lcp_solve_bullet_lemke(const lcp_problem *P, const lcp_options *opt, double *z,
                                  lcp_info *info)
{
    return solve(P, opt, z, info, LEMKE);
}
