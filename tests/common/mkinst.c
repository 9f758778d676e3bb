/* mkinst.c: writes a small contact-like instance folder for the command-line tests:
 *   mkinst DIR SEED [friction 0|1] [zero-diag-row]
 * (3D bodies, 12 bodies, 30 contacts, J, Minv, E, z0; optional friction rows). */
#include "lcp.h"
#include "testprob.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mkinst DIR SEED [friction] [zero-diag-row]\n");
        return 2;
    }
    int fr = argc > 3 ? atoi(argv[3]) : 0;
    lcp_problem P;
    if (tp_contact(&P, 6, 12, 30, fr ? 2 : 0, 0.5, 0.01, (uint64_t)atol(argv[2])) != 0) return 1;
    P.z0 = calloc((size_t)P.m, sizeof(double));
    for (int i = 0; i < P.m; i++) P.z0[i] = (P.findex && P.findex[i] >= 0) ? 0.0 : 0.1;
    if (argc > 4) {  /* an instance without factors whose A has a zero diagonal entry */
        int r = atoi(argv[4]);
        lcp_csr_free(&P.J);
        lcp_csr_free(&P.Minv);
        free(P.E);
        P.E = NULL;
        P.n = 0;
        for (int i = 0; i < P.m; i++)
            for (int k = P.A.p[i]; k < P.A.p[i + 1]; k++)
                if (i == r || P.A.j[k] == r) P.A.x[k] = 0.0;
    }
    char msg[512];
    lcp_status st = lcp_write_instance(argv[1], &P, msg, sizeof msg);
    if (st != LCP_OK) fprintf(stderr, "mkinst: %s\n", msg);
    lcp_problem_free(&P);
    return st == LCP_OK ? 0 : 1;
}
