/* colink_siconos.c: liblcp and Siconos Numerics linked into one program.  Siconos exports
 * solver entry points named lcp_<method> (lcp_pgs among them); liblcp's solvers are reached
 * through its registry and exported under other names, so each library's call reaches its
 * own code.  The same 2-row LCP (A = [2 1; 1 2], q = [-5; -6], z = [4/3; 7/3]) is solved by
 * Siconos's lcp_pgs and by liblcp's `pgs'; both must give the known answer. */
#include "lcp.h"
#include "tap.h"

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double want[2] = {4.0 / 3.0, 7.0 / 3.0};

static int near(const double *z) { return fabs(z[0] - want[0]) < 1e-9 && fabs(z[1] - want[1]) < 1e-9; }

int main(void)
{
    /* Siconos: dense column-major M, w = M z + q */
    double *M = malloc(4 * sizeof *M), q[2] = {-5, -6}, zs[2] = {0, 0}, ws[2];
    M[0] = 2; M[1] = 1; M[2] = 1; M[3] = 2;
    LinearComplementarityProblem lcp = {0};
    lcp.size = 2;
    lcp.M = NM_create_from_data(NM_DENSE, 2, 2, M);
    lcp.q = q;
    SolverOptions *so = solver_options_create(SICONOS_LCP_PGS);
    so->iparam[SICONOS_IPARAM_MAX_ITER] = 1000;
    so->dparam[SICONOS_DPARAM_TOL] = 1e-14;
    int sinfo = -1;
    lcp_pgs(&lcp, zs, ws, &sinfo, so);
    ok(sinfo == 0 && near(zs), "Siconos lcp_pgs runs its own solver (info %d, z = %.12g %.12g)",
       sinfo, zs[0], zs[1]);
    solver_options_delete(so); /* its contents; the struct itself is ours to free */
    free(so);
    NM_free(lcp.M); /* frees the matrix and the data it took over */

    /* liblcp: the same problem through the registry */
    int ti[] = {0, 0, 1, 1}, tj[] = {0, 1, 0, 1};
    double tx[] = {2, 1, 1, 2}, z[2];
    lcp_problem P;
    lcp_problem_init(&P);
    char msg[256];
    lcp_info info;
    lcp_options o;
    lcp_options_default(&o);
    o.tol = 1e-12;
    lcp_status st = LCP_ERR_ARG;
    if (lcp_csr_from_triplets(&P.A, 2, 2, 4, ti, tj, tx) == LCP_OK &&
        lcp_problem_alloc_vectors(&P, 2) == LCP_OK) {
        P.q[0] = -5;
        P.q[1] = -6;
        if (lcp_problem_check(&P, msg, sizeof msg) == LCP_OK)
            st = lcp_solve(lcp_solver_find("pgs"), &P, &o, z, &info);
    }
    ok(st == LCP_OK && near(z), "liblcp pgs in the same program (%s)", lcp_status_str(st));
    lcp_problem_free(&P);
    return tap_done();
}
