/* reference.c: the one way the harness asks for a reference answer z* of an instance (the
 * zdiff/wdiff columns, the tables' error curves and per-step errors).
 *
 *   1. z* = the direct solver's answer (`ldlt-ref' unless named; how->max_pivots its cap,
 *      0 the solver's default) from z = 0: taken when it says LCP_OK or LCP_NONUNIQUE
 *      (w is unique), or any answer (status >= 0) when how->any;
 *   2. else, when how->pgs_maxit > 0, the fallback: PGS to how->pgs_tol in at most
 *      how->pgs_maxit sweeps, from P->z0 (how->pgs_warm; without z0 from what step 1 left)
 *      or from 0; taken when it answers (status >= 0) with info.residual <= how->pgs_accept.
 * Cost: one direct solve (O(m^3) dense, less on sparse A), and at most pgs_maxit sweeps.
 * Returns 0 (z* from the direct solver), 1 (from PGS) or -1 (no reference); *st: the status
 * of the last solve (LCP_ERR_NOMEM/ARG when a solver is unknown). */
#include "grid.h"

#include <string.h>

int bench_reference(const lcp_problem *P, const bench_ref_how *how, double *z,
                    lcp_status *st)
{
    const lcp_solver *s = bench_solver_find(how->solver ? how->solver : "ldlt-ref");
    lcp_options o;
    lcp_info info;
    size_t m = (size_t)(P->m > 0 ? P->m : 0);
    lcp_options_default(&o);
    o.max_pivots = how->max_pivots;
    if (m) memset(z, 0, m * sizeof(double));
    *st = s ? lcp_solve(s, P, &o, z, &info) : LCP_ERR_ARG;
    if (*st == LCP_OK || *st == LCP_NONUNIQUE || (how->any && *st >= 0)) return 0;
    if (how->pgs_maxit <= 0) return -1;
    lcp_options_default(&o);
    o.tol = how->pgs_tol;
    o.max_iter = how->pgs_maxit;
    o.warm = how->pgs_warm;
    if (!how->pgs_warm && m) memset(z, 0, m * sizeof(double));
    else if (how->pgs_warm && P->z0 && m) memcpy(z, P->z0, m * sizeof(double));
    *st = lcp_solve(bench_solver_find("pgs"), P, &o, z, &info);
    return *st >= 0 && !(info.residual > how->pgs_accept) ? 1 : -1;
}
