/* external_pgs.c: an outside solver as `solver external' runs it (bench/README.md, "Bring
 * your own problem and solver"): external_pgs INSTANCE OUTDIR reads the folder, runs projected
 * Gauss-Seidel sweeps of its own (cold start, or z0.mtx when LCPBENCH_WARM=1) until the
 * largest update is below 1e-10 or 2000 sweeps, and writes OUTDIR/z.mtx and
 * OUTDIR/history.csv (a header naming `iteration', then the sweep and z, a line each). */
#include "lcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    lcp_problem P;
    char msg[4400], path[4200];
    if (argc != 3 || lcp_read_instance(argv[1], &P, msg, sizeof msg) != LCP_OK) return 1;
    int m = P.m, warm = getenv("LCPBENCH_WARM") && !strcmp(getenv("LCPBENCH_WARM"), "1");
    double *z = calloc((size_t)m, sizeof *z);
    snprintf(path, sizeof path, "%s/history.csv", argv[2]);
    FILE *h = fopen(path, "w");
    if (!z || !h) return 1;
    if (warm && P.z0) memcpy(z, P.z0, (size_t)m * sizeof *z);
    fprintf(h, "iteration");
    for (int i = 0; i < m; i++) fprintf(h, ",z%d", i);
    fprintf(h, "\n");
    for (int k = 0; k <= 2000; k++) {
        double big = 0;
        for (int i = 0; k > 0 && i < m; i++) { /* one sweep: z_i <- mid(lo, z_i - w_i/a_ii, hi) */
            double w = P.q[i], d = 0, lo, hi;
            for (int p = P.A.p[i]; p < P.A.p[i + 1]; p++) {
                w += P.A.x[p] * z[P.A.j[p]];
                if (P.A.j[p] == i) d = P.A.x[p];
            }
            lcp_bounds(&P, z, i, &lo, &hi);
            double zi = fmin(fmax(z[i] - w / d, lo), hi);
            big = fmax(big, fabs(zi - z[i]));
            z[i] = zi;
        }
        fprintf(h, "%d,", k);
        for (int i = 0; i < m; i++) fprintf(h, "%.17g%s", z[i], i + 1 < m ? "," : "\n");
        if (k > 0 && big < 1e-10) break;
    }
    snprintf(path, sizeof path, "%s/z.mtx", argv[2]);
    int bad = fclose(h) != 0 || lcp_write_vector(path, m, z, msg, sizeof msg) != LCP_OK;
    free(z);
    lcp_problem_free(&P);
    return bad;
}
