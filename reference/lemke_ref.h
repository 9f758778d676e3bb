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
    double work;     /* lemke_lcp_sparse: flops of its solves and factorisations */
} lemke_stats;

lcp_status lemke_lcp(int n, const double *M, const double *q, long max_pivots, double *z,
                     lemke_ray *ray, lemke_stats *st);

/* lemke_lcp_sparse(n, Mp, Mi, Mx, q, d, max_pivots, max_work, z, st): the same method
 * (lemke_sparse.c) on M sparse (CSC, n x n, no duplicate entries), the basis held as KLU's LU
 * of a past basis and the product form of its updates (no n x n array: any n).  d: the
 * covering vector (n entries, each > 0; NULL: all ones, lemke_lcp's path).  max_work
 * (> 0) caps the flops of its solves and factorisations (st->work), a cost gate that does not
 * depend on the machine.  Returns LCP_OK (z the solution, its complementary basis solved
 * anew), LCP_ERR_NO_SOLUTION (a secondary ray; no certificate is formed), LCP_PIVOT_CAP
 * (max_pivots or max_work reached), LCP_ERR_BREAKDOWN (a singular basis), LCP_ERR_NOMEM.
 * st->reinverts counts the refactorisations after the first. */
lcp_status lemke_lcp_sparse(int n, const int *Mp, const int *Mi, const double *Mx,
                            const double *q, const double *d, long max_pivots, double max_work,
                            double *z, lemke_stats *st);

/* lemke_sparse_basis(n, Mp, Mi, Mx, q, z): z's complementary basis solved anew on M (CSC):
 * M_ZZ z_Z = -q_Z for Z = {z_i > 0}, by KLU with refinement while it halves the residual;
 * z kept where M_ZZ is singular.  LCP_OK or LCP_ERR_NOMEM. */
lcp_status lemke_sparse_basis(int n, const int *Mp, const int *Mi, const double *Mx,
                              const double *q, double *z);

#endif /* LEMKE_REF_H */
