/* peer_ode.cpp: ODE's Dantzig solver as DART ships it (dart::external::ode::dSolveLCP, Debian
 * libdart-external-odelcpsolver-dev), run as the peer `ode-dantzig'.
 *
 * ODE's convention is A x = b + w with lo <= x <= hi, the first nub rows unbounded, and
 * friction rows (findex[i] >= 0) bounded by -|hi_i x_f| <= x_i <= |hi_i x_f|: this library's
 * problem with q = -b (ODE takes hi_i, we store lo_i = -mu, hi_i = +mu: the same box).
 * ODE requires lo_i <= 0 <= hi_i and a symmetric A (it factors A_FF as L D L^T); rows
 * breaking the first are refused with `unsupported' and info->row.  dSolveLCP overwrites
 * A, b, lo, hi and findex, so each solve copies the prepared padded matrix (row stride
 * dPAD(n), a multiple of 4) and vectors: O(n^2) beside the O(n^3) solve.  Setup (timed
 * apart): the dense padded A and the nub count; refused above PEER_DENSE_MAX rows.
 * Status: dSolveLCP's false (its `s <= 0' exit: a row it could not drive) is `partial', a
 * usable answer whose rows not reached are 0; the residual in info is ours.
 */
#include "peers.h"

#include <dart/external/odelcpsolver/lcp.h>

#include <cmath>
#include <cstring>
#include <new>
#include <vector>

extern "C" {
lcp_solve_fn lcp_solve_ode_dantzig;
lcp_setup_fn lcp_setup_ode;
lcp_teardown_fn lcp_teardown_ode;
}

namespace {

const int PEER_DENSE_MAX = 16384;

struct ode_problem {
    int n, nub, stride;
    std::vector<double> A, b, lo, hi; /* A: n rows of `stride' doubles */
    std::vector<int> findex;
};

/* the row breaking ODE's lo <= 0 <= hi, or -1 */
int bad_bound_row(const lcp_problem *P)
{
    for (int i = 0; i < P->m; i++)
        if (!(P->findex && P->findex[i] >= 0) && (P->lo[i] > 0 || P->hi[i] < 0)) return i;
    return -1;
}

} // namespace

lcp_status lcp_setup_ode(const lcp_problem *P, const lcp_options *, void **data)
{
    *data = nullptr;
    if (P->m > PEER_DENSE_MAX) return LCP_ERR_TOO_LARGE;
    if (bad_bound_row(P) >= 0) return LCP_ERR_UNSUPPORTED;
    try {
        ode_problem *S = new ode_problem;
        int n = P->m;
        S->n = n;
        S->stride = n > 1 ? (((n - 1) | 3) + 1) : n; /* ODE's dPAD */
        S->A.assign((size_t)n * S->stride, 0.0);
        S->b.resize(n);
        S->lo.resize(n);
        S->hi.resize(n);
        S->findex.assign(n, -1);
        for (int i = 0; i < n; i++) {
            for (int k = P->A.p[i]; k < P->A.p[i + 1]; k++)
                S->A[(size_t)i * S->stride + P->A.j[k]] = P->A.x[k];
            S->b[i] = -P->q[i]; /* A x = b + w */
            S->lo[i] = P->lo[i];
            S->hi[i] = P->hi[i];
            if (P->findex) S->findex[i] = P->findex[i];
        }
        S->nub = 0;
        while (S->nub < n && std::isinf(S->lo[S->nub]) && S->lo[S->nub] < 0 &&
               std::isinf(S->hi[S->nub]) && S->hi[S->nub] > 0 && S->findex[S->nub] < 0)
            S->nub++;
        *data = S;
    } catch (const std::bad_alloc &) {
        return LCP_ERR_NOMEM;
    }
    return LCP_OK;
}

void lcp_teardown_ode(void *data) { delete static_cast<ode_problem *>(data); }

lcp_status lcp_solve_ode_dantzig(const lcp_problem *P, const lcp_options *opt, double *z,
                                 lcp_info *info)
{
    lcp_info_init(info);
    int row = bad_bound_row(P);
    if (row >= 0) {
        info->row = row;
        return info->status = LCP_ERR_UNSUPPORTED;
    }
    void *own = nullptr;
    const ode_problem *S = static_cast<const ode_problem *>(opt->prepared);
    lcp_status st = LCP_OK;
    if (!S) {
        st = lcp_setup_ode(P, opt, &own);
        S = static_cast<const ode_problem *>(own);
    }
    if (st == LCP_OK) {
        try {
            std::vector<double> A(S->A), b(S->b), lo(S->lo), hi(S->hi), w(S->n, 0.0);
            std::vector<int> findex(S->findex);
            std::memset(z, 0, (size_t)S->n * sizeof *z);
            bool solved = dart::external::ode::dSolveLCP(S->n, A.data(), z, b.data(), w.data(),
                                                         S->nub, lo.data(), hi.data(),
                                                         findex.data(), false);
            bool finite = true;
            for (int i = 0; i < S->n; i++) finite = finite && std::isfinite(z[i]);
            st = !finite ? LCP_ERR_NONFINITE : solved ? LCP_OK : LCP_PARTIAL;
            info->iterations = 1;
            info->work = 1;
        } catch (const std::bad_alloc &) {
            st = LCP_ERR_NOMEM;
        }
    }
    if (st >= 0) {
        try {
            std::vector<double> w(P->m);
            st = lcp_final_residual(P, z, w.data(), info, st);
        } catch (const std::bad_alloc &) {
            st = LCP_ERR_NOMEM;
        }
    }
    lcp_teardown_ode(own);
    return info->status = st;
}
