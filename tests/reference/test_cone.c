/* test_cone.c: the friction cone's LCP of route `lemke-cone' (reference/ref_cone.c,
 * ref_cone_solve): box friction row by row as the LCP in (z_N, b+, b-, s) solved by
 * Lemke's method and mapped back to z.  One named TAP line per property (cone/...):
 * tiny problems whose answers are worked by hand (in the comments), z asserted within
 * 1e-12 (Lemke runs on M + 1e-9 max_k M_kk I; its basis is then solved on M itself, which
 * removes the shift's error), and the rows the route refuses.  The route's Newton steps and
 * the final check are the driver's, tested on the corpus (pool-mu0.3-eps0, fric3d-1). */
#include "ldlt_ref.h"
#include "tap.h"
#include "testprob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-12

/* ref_cone_solve on dense A (m rows) against the hand answer zs; 1 when within TOL */
static int cone_case(const char *name, int m, const double *A, const double *q,
                     const double *lo, const double *hi, const int *findex, const double *zs)
{
    lcp_problem P;
    double z[8];
    long piv = -1;
    if (tp_dense(&P, m, A, q, lo, hi, findex) != 0) return ok(0, "cone/%s (setup)", name);
    int good = 1;
    for (int cover = 0; cover <= 1; cover++) {          /* both covering vectors */
        lcp_status st = ref_cone_solve(&P, 1e-9, cover, z, &piv);
        double d = st == LCP_OK ? 0.0 : INFINITY;
        for (int i = 0; i < m && st == LCP_OK; i++) d = fmax(d, fabs(z[i] - zs[i]));
        good &= ok(st == LCP_OK && d <= TOL && piv > 0,
                   "cone/%s-%s: status %d, %ld pivots, |z - z*| %.2g", name,
                   cover ? "cover-q" : "cover-1", st, piv, d);
    }
    lcp_problem_free(&P);
    return good;
}

int main(void)
{
    const double I = INFINITY;
    /* 2D contact, sliding: A = [2 1; 1 2], q = (-2, 3), mu = 0.5.  The tangent row alone
     * wants z_t = -3/2 - z_n/2, beyond -mu z_n: z_t = -z_n / 2 (lower bound), then
     * w_n = 2 z_n + z_t - 2 = 1.5 z_n - 2 = 0: z_n = 4/3, z_t = -2/3, w_t = z_n + 2 z_t + 3
     * = 3 >= 0 as the lower bound needs.  In the cone's LCP: b- = 2/3 = mu z_n, s = 3. */
    {
        double A[] = {2, 1, 1, 2}, q[] = {-2, 3}, lo[] = {0, -0.5}, hi[] = {I, 0.5};
        int fx[] = {-1, 0};
        double zs[] = {4.0 / 3.0, -2.0 / 3.0};
        cone_case("2d-sliding", 2, A, q, lo, hi, fx, zs);
    }
    /* 2D contact, sticking: A = [2 0; 0 1], q = (-2, 0.25), mu = 0.5: z_n = 1, z_t = -0.25
     * inside [-0.5, 0.5], w = 0 on both rows (s = 0, b- = 0.25). */
    {
        double A[] = {2, 0, 0, 1}, q[] = {-2, 0.25}, lo[] = {0, -0.5}, hi[] = {I, 0.5};
        int fx[] = {-1, 0};
        double zs[] = {1.0, -0.25};
        cone_case("2d-sticking", 2, A, q, lo, hi, fx, zs);
    }
    /* 2D contact, separating: A = [2 1; 1 2], q = (1, 3): z_n = 0 closes the friction
     * interval, z = 0 (w_n = 1 >= 0; s >= |w_t| = 3). */
    {
        double A[] = {2, 1, 1, 2}, q[] = {1, 3}, lo[] = {0, -0.5}, hi[] = {I, 0.5};
        int fx[] = {-1, 0};
        double zs[] = {0.0, 0.0};
        cone_case("2d-separating", 2, A, q, lo, hi, fx, zs);
    }
    /* 3D contact, one tangent sliding at its upper bound, the other sticking:
     * A = [2 .5 0; .5 1 0; 0 0 1], q = (-2, -4, 0.1), mu = 1.  Row 1 at +mu z_n: z_1 = z_n,
     * w_n = 2 z_n + 0.5 z_n - 2 = 0: z_n = 0.8; w_1 = 0.4 + 0.8 - 4 = -2.8 <= 0 (upper
     * bound); row 2 free: z_2 = -0.1, |z_2| <= 0.8. */
    {
        double A[] = {2, .5, 0, .5, 1, 0, 0, 0, 1}, q[] = {-2, -4, 0.1};
        double lo[] = {0, -1, -1}, hi[] = {I, 1, 1};
        int fx[] = {-1, 0, 0};
        double zs[] = {0.8, 0.8, -0.1};
        cone_case("3d-slide-stick", 3, A, q, lo, hi, fx, zs);
    }
    /* two contacts coupled through A, a frictionless row between them: rows 0 (normal),
     * 1 (its tangent), 2 (a plain row z >= 0), 3 (normal), 4 (tangent of 3).
     * A = diag(1, 1, 1, 1, 1) + coupling 0.5 between rows 0 and 3; q = (-1, 2, 0.5, -1, -0.1),
     * mu = 1 on both: z_0 = z_3 = 2/3 (w = 1.5 z - 1 = 0), row 2 at 0 (w = 0.5), row 1
     * wants -2, slides at -2/3 (w_1 = -2/3 + 2 = 4/3 >= 0), row 4 sticks at 0.1. */
    {
        double A[25] = {0};
        for (int i = 0; i < 5; i++) A[i * 5 + i] = 1.0;
        A[0 * 5 + 3] = A[3 * 5 + 0] = 0.5;
        double q[] = {-1, 2, 0.5, -1, -0.1}, lo[] = {0, -1, 0, 0, -1}, hi[] = {I, 1, I, I, 1};
        int fx[] = {-1, 0, -1, -1, 3};
        double zs[] = {2.0 / 3.0, -2.0 / 3.0, 0.0, 2.0 / 3.0, 0.1};
        cone_case("two-contacts", 5, A, q, lo, hi, fx, zs);
    }
    /* rows the route refuses: a friction row with lo != -hi, a normal row with an upper
     * bound, no friction at all */
    {
        const char *what[] = {"lo-not-minus-hi", "bounded-normal", "no-findex"};
        double A[] = {2, 1, 1, 2}, q[] = {-2, 3};
        double los[3][2] = {{0, -0.2}, {0, -0.5}, {0, 0}}, his[3][2] = {{I, 0.5}, {5, 0.5}, {I, I}};
        int fx[] = {-1, 0};
        for (int c = 0; c < 3; c++) {
            lcp_problem P;
            double z[2];
            long piv = -1;
            int rc = tp_dense(&P, 2, A, q, los[c], his[c], c < 2 ? fx : NULL);
            lcp_status st = rc == 0 ? ref_cone_solve(&P, 1e-9, 1, z, &piv) : LCP_OK;
            ok(rc == 0 && st == LCP_ERR_ARG && piv == 0, "cone/refuses-%s: status %d", what[c], st);
            lcp_problem_free(&P);
        }
    }
    return tap_done();
}
