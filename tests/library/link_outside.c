/* link_outside.c: what a program outside the tree does with the installed liblcp: only
 * <lcp.h>, solvers found by name.  A 2-row LCP with a known solution
 *     A = [2 1; 1 2], q = [-5; -6]  =>  z = [4/3; 7/3], w = 0   (both rows active)
 * solved by pgs and by the pivoting reference; prints TAP. */
#include <lcp.h>

#include <math.h>
#include <stdio.h>

int main(void)
{
    int ti[] = {0, 0, 1, 1}, tj[] = {0, 1, 0, 1}, n = 0, bad = 0;
    double tx[] = {2, 1, 1, 2}, want[] = {4.0 / 3.0, 7.0 / 3.0};
    const char *names[] = {"pgs", "ldlt-ref"};
    lcp_problem P;
    lcp_problem_init(&P);
    char msg[256];
    if (lcp_csr_from_triplets(&P.A, 2, 2, 4, ti, tj, tx) != LCP_OK ||
        lcp_problem_alloc_vectors(&P, 2) != LCP_OK) return 1;
    P.q[0] = -5;
    P.q[1] = -6;
    if (lcp_problem_check(&P, msg, sizeof msg) != LCP_OK) return 1;
    for (int k = 0; k < 2; k++) {
        const lcp_solver *s = lcp_solver_find(names[k]);
        lcp_options o;
        lcp_options_default(&o);
        o.tol = 1e-12;
        double z[2];
        lcp_info info;
        lcp_status st = s ? lcp_solve(s, &P, &o, z, &info) : LCP_ERR_ARG;
        int ok = st == LCP_OK && fabs(z[0] - want[0]) < 1e-10 && fabs(z[1] - want[1]) < 1e-10;
        printf("%s %d - %s solves the 2-row LCP through the installed library (%s)\n",
               ok ? "ok" : "not ok", ++n, names[k], lcp_status_str(st));
        bad += !ok;
    }
    lcp_problem_free(&P);
    printf("1..%d\n", n);
    return bad != 0;
}
