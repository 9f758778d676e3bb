/* scene_pendulum.c: a single particle on a rigid link (the chain of one), 2D or 3D, the
 * analytic check of the modal analysis (Francu 2018, "Transversal stability of
 * constraints").
 *
 * Layout: anchor at the world origin, the particle at distance len along the direction
 * turned by `angle' from straight down (-y in 2D, -z in 3D) towards +x, at rest.  Defaults:
 * len 1 m, m 0.1 kg, angle pi/2 (released level, like `chain').  Hanging at rest
 * (angle 0) the tension is m g and omega^2 = g / len; released level, at the bottom the
 * tension is 3 m g and omega^2 = 3 g / len.  The warm start (and the step-1 multiplier of
 * the stiffness-based steppers) is the static tension m g cos(angle) (warm = 0: zero).
 * Rigid link: eps = 0 by default (the equilibrium is exact).  h = 1/1000, d = 2 as `chain'.
 * Cost: O(1).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_pendulum_params[] = {
    {"n", 1, PROB_COUNT, "number of particles (1: the pendulum; more: a chain)"},
    {"len", 1.0, PROB_POS, "link length (m)"},
    {"m", 0.1, PROB_POS, "particle mass (kg)"},
    {"rp", 0.01, PROB_POS, "radius giving the particle's inertia (m)"},
    {"angle", 1.5707963267948966, PROB_REAL, "initial angle from straight down (rad)"},
    {"warm", 1, PROB_UNIT, "1: the first warm start is the static tension; 0: zero"},
    {"pert", 0.0, PROB_NONNEG, "seeded transversal offset of each link angle (rad)"},
    {"dim", 2, PROB_COUNT, "2 (disks, 3 dof) or 3 (spheres, 6 dof)"},
    {"h", 1.0 / 1000.0, PROB_POS, "time step (s)"},
    {"d", 2.0, PROB_NONNEG, "SPOOK relaxation d = tau / h (steps)"},
    {"eps", 0.0, PROB_NONNEG, "SPOOK compliance (m/N)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_pendulum(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    int n = (int)prob_param_get(P, "n"), dim = (int)prob_param_get(P, "dim");
    double m = prob_param_get(P, "m"), angle = prob_param_get(P, "angle");
    double g = prob_param_get(P, "g"), h = prob_param_get(P, "h") * prob_param_get(P, "warm");
    double *mass = lcp_malloc((size_t)n, sizeof(double));
    if (!mass) return LCP_ERR_NOMEM;
    for (int k = 0; k < n; k++) mass[k] = m;
    double down[3] = {0, dim == 3 ? 0 : -1, dim == 3 ? -1 : 0}, x[3] = {1, 0, 0};
    lcp_status st = prob_beads(W, P, down, x, angle, mass, msg, msglen);
    lcp_free(mass);
    for (int k = 0; k < n && st == LCP_OK; k++)     /* static tension of the links below */
        W->zj[k] = -(n - k) * m * g * cos(angle) * h;
    W->notes = "anchor at the origin, particles along the direction turned by angle from "
               "straight down towards +x, at rest; warm start = static tension";
    return st;
}
