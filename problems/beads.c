/* beads.c: the string of beads that the transversal-stability scenes share (pendulum,
 * towed, hang, thread): n particles on n rigid links from an anchor at the world origin,
 * joints at the particles' centres, no geometry and no collisions, 2D or 3D.
 *
 * Layout: link k (0..n-1) ties bead k to bead k-1 (the anchor for k = 0) at rest length len;
 * its direction is the unit vector u turned by the angle `angle' towards the vertical plane's
 * second axis s (2D: rotation in the plane; 3D: in the plane of u and s), then by a seeded
 * (splitmix64) offset of at most `pert' radians in each transversal direction, so every link
 * has its exact length (to rounding) while the string is perturbed transversally.  Bead k
 * sits at the sum of len * dir_i over i <= k.  Inertia: a disk m rp^2 / 2 (2D) or a sphere
 * 2 m rp^2 / 5 (3D) of radius rp; the rotations are decoupled from the joints.
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

lcp_status prob_beads(prob_world *W, const prob_params *P, const double u[3], const double s[3],
                      double angle, const double *mass, char *msg, size_t msglen)
{
    int n = (int)prob_param_get(P, "n"), dim = (int)prob_param_get(P, "dim");
    double len = prob_param_get(P, "len"), rp = prob_param_get(P, "rp");
    double pert = prob_param_get(P, "pert"), seed = prob_param_get(P, "seed");
    if (dim != 2 && dim != 3)
        return lcp_fail(msg, msglen, LCP_ERR_ARG, "parameter dim = %d: must be 2 or 3", dim);
    lcp_status st = prob_world_init(W, dim, n);
    if (st != LCP_OK) return st;
    uint64_t rng = (uint64_t)(isnan(seed) ? 1.0 : seed);
    double c = cos(angle), sn = sin(angle), d0[3], t1[3], t2[3], p[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) d0[i] = c * u[i] + sn * s[i];          /* u turned by angle */
    for (int i = 0; i < 3; i++) t1[i] = -sn * u[i] + c * s[i];         /* in-plane normal */
    v3_cross(d0, t1, t2);                                              /* out of plane (3D) */
    double zero[3] = {0, 0, 0};
    for (int k = 0; k < n && st == LCP_OK; k++) {
        double a1 = isnan(pert) ? 0.0 : pert * (2.0 * lcp_rng_uniform(&rng) - 1.0);
        double a2 = dim == 3 && !isnan(pert) ? pert * (2.0 * lcp_rng_uniform(&rng) - 1.0) : 0.0;
        double d[3], nd = 0.0;
        for (int i = 0; i < 3; i++) {
            d[i] = d0[i] + tan(a1) * t1[i] + tan(a2) * t2[i];          /* turned by a1, a2 */
            nd += d[i] * d[i];
        }
        nd = sqrt(nd);
        for (int i = 0; i < 3; i++) p[i] += len * d[i] / nd;
        double I3[9] = {0.4 * mass[k] * rp * rp, 0, 0, 0, 0.4 * mass[k] * rp * rp, 0, 0, 0,
                        0.4 * mass[k] * rp * rp};
        st = prob_body_set(W, k, p, mass[k], I3, 0.5 * mass[k] * rp * rp);
        W->collide[k] = 0;
        if (st == LCP_OK) st = prob_add_joint(W, k, k - 1, zero, zero, len);
    }
    return st;
}
