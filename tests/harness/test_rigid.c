/* test_rigid.c: the rigid formulation of amgs-table1's and amgs-table2's paper variants
 * (problems/README.md, "The rigid formulation"): the stepper with eps = 0 and poscorr = 0
 * (q_n = J_n v*) at 10 PGS sweeps per step yields consistent LCPs on every scene of the AMGS
 * tables (and the 3D spheres): the exact reference (ldlt-ref) answers each captured instance
 * (converged, or solved-nonunique where A_FF is singular), with ||r||_2 at rounding, and the
 * instance is rigid (E = 0).  As TAP.
 * Cost: 100 to 200 steps of each scene at 10 sweeps and one ldlt-ref solve per instance
 * (about 4 s in release). */
#include "grid.h"
#include "prob.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static void scene(const char *name, int nkv, const char *const *extra, int nstep,
                  const int *steps)
{
    const char *kv[8] = {"eps=0", "poscorr=0", "iters=10", "tol=-1"};
    int n = 4;
    for (int k = 0; k < nkv && n < 8; k++) kv[n++] = extra[k];
    lcp_problem P[3];
    char msg[4096] = "";
    int rc = prob_capture_steps(name, n, kv, NULL, 0, nstep, steps, P, msg, sizeof msg);
    if (!ok(rc == 0, "%s: captured the rigid stepper's steps%s%s", name, rc ? ": " : "",
            rc ? msg : ""))
        return;
    for (int k = 0; k < nstep; k++) {
        lcp_problem *Q = &P[k];
        double emax = 0;
        for (int i = 0; i < Q->m; i++) emax = fmax(emax, Q->E ? fabs(Q->E[i]) : 0.0);
        ok(Q->m > 0 && emax == 0.0, "%s step %d: rigid (%d rows, E = 0)", name, steps[k],
           Q->m);
        lcp_options o;
        lcp_options_default(&o);
        double *z = lcp_malloc((size_t)Q->m + 1, sizeof(double));
        bench_result r;
        lcp_status st = z ? bench_run_solver(Q, bench_solver_find("ldlt-ref"), &o, NULL, 0, z,
                                             &r, NULL)
                          : LCP_ERR_NOMEM;
        ok((st == LCP_OK || st == LCP_NONUNIQUE) && r.res.r2 <= 1e-10,
           "%s step %d: consistent, ldlt-ref answers (%s, ||r||_2 %.1e)", name, steps[k],
           lcp_status_str(st), st >= 0 ? r.res.r2 : NAN);
        lcp_free(z);
        lcp_problem_free(Q);
    }
}

int main(void)
{
    static const char *const mu0[] = {"mu=0"}, *const s2[] = {"mu=0", "seed=2"},
                             *const n150[] = {"mu=0", "n=150"};
    static const int both[] = {100, 200}, one[] = {100};
    scene("pool", 1, mu0, 2, both);
    scene("pool", 2, s2, 1, one);
    scene("pool-graded", 1, mu0, 2, both);
    scene("stack", 2, n150, 1, one);
    scene("stack", 0, NULL, 2, both);   /* 30 disks, friction on */
    scene("spheres", 1, mu0, 1, one);
    return tap_done();
}
