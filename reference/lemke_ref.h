/* lemke_ref.h: Lemke's method (`lemke-ref') beyond the solver signature, for the tests and
 * the benchmark: the dense standard-LCP core with its ray certificate and statistics.  The
 * registered solver is lcp_solve_lemke_ref (lcp/solvers.h): the driver of ldlt_ref.c (box
 * reformulation, friction rounds, the final residual check) around this core.
 *
 * lemke_lcp(n, M, q, max_pivots, z, ray, st)
 *   n, M, q     in   the LCP  w = M z + q >= 0,  z >= 0,  z^T w = 0;  M dense n x n, row-major
 *   max_pivots  in   cap on pivots (<= 0: 50 n + 1000)
 *   z           out  n entries: the solution (LCP_OK)
 *   ray         out  (may be NULL) on LCP_ERR_NO_SOLUTION the secondary ray the method ended
 *                    on: the caller allocates z, w, dz, dw (n entries each) or leaves them NULL
 *   st          out  (may be NULL) pivots, basis re-inversions, lexicographic ties
 * Returns LCP_OK, LCP_ERR_NO_SOLUTION (ray termination), LCP_PIVOT_CAP, LCP_ERR_TOO_LARGE
 * (n > LEMKE_MAX_N), LCP_ERR_BREAKDOWN (a singular basis on re-inversion), LCP_ERR_NOMEM.
 */
#ifndef LEMKE_REF_H
#define LEMKE_REF_H

#include "lcp.h"

#define LEMKE_MAX_N 4000 /* largest LCP (after the box reformulation): two dense n x n arrays */

/* The ray  z(t) = z + t dz,  z0(t) = z0 + t dz0,  w(t) = w + t dw = M z(t) + q + d z0(t)
 * (d = the covering vector, all ones): z(t), w(t) >= 0, z0(t) > 0 and z(t)_i w(t)_i = 0 for
 * every t >= 0.  When M is copositive-plus, dz is a certificate that the LCP has no
 * feasible point (dz >= 0, M dz >= 0 ... and q^T dz < 0; Cottle, Pang and Stone 1992,
 * Theorem 4.4.13). */
typedef struct lemke_ray {
    double *z, *w, *dz, *dw; /* n entries each (caller allocated) or NULL */
    double z0, dz0;
} lemke_ray;

typedef struct lemke_stats {
    long pivots;     /* basis changes, the first (z0 enters) included */
    long reinverts;  /* basis re-inversions (LAPACKE dgetrf / dgetri) when updates drifted */
    long ties;       /* ratio tests decided by the lexicographic rule */
} lemke_stats;

lcp_status lemke_lcp(int n, const double *M, const double *q, long max_pivots, double *z,
                     lemke_ray *ray, lemke_stats *st);

#endif /* LEMKE_REF_H */
