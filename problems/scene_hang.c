/* scene_hang.c: a string of beads hanging from a point with a heavy end mass (the mass
 * ratio test of Andrews, Teichmann, Kry 2017; transversal stability after Francu 2018),
 * 2D or 3D.
 *
 * Layout: anchor at the world origin, n beads (20) of mass m (0.1 kg) at len (0.1 m)
 * spacing straight down (-y in 2D, -z in 3D), the last bead of mass ratio m (ratio 100),
 * at rest; with amp != 0 every link is turned by amp radians towards +x (the swing tests).
 * Static multipliers lambda_k = -g (ratio m + (n - 1 - k) m) cos(amp) for link k = 0..n-1
 * from the anchor (exact at amp = 0), used as the warm start z = lambda h (warm = 0: zero).
 * Link angles are offset by a seeded amount of at most pert (1e-9 rad).
 * Rigid links: eps = 0 by default.  Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_hang_params[] = {
    {"n", 20, PROB_COUNT, "number of beads (= links)"},
    {"len", 0.1, PROB_POS, "link length (m)"},
    {"m", 0.1, PROB_POS, "bead mass (kg)"},
    {"ratio", 100.0, PROB_POS, "mass of the last bead over m"},
    {"amp", 0.0, PROB_REAL, "initial angle of every link from straight down (rad)"},
    {"rp", 0.01, PROB_POS, "radius giving the beads' inertia (m)"},
    {"warm", 1, PROB_UNIT, "1: the first warm start is the static tension; 0: zero"},
    {"pert", 1e-9, PROB_NONNEG, "seeded transversal offset of each link angle (rad)"},
    {"dim", 2, PROB_COUNT, "2 (disks, 3 dof) or 3 (spheres, 6 dof)"},
    {"eps", 0.0, PROB_NONNEG, "SPOOK compliance (m/N)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_hang(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    int n = (int)prob_param_get(P, "n"), dim = (int)prob_param_get(P, "dim");
    double m = prob_param_get(P, "m"), ratio = prob_param_get(P, "ratio");
    double amp = prob_param_get(P, "amp"), g = prob_param_get(P, "g");
    double h = prob_param_get(P, "h") * prob_param_get(P, "warm");   /* warm 0: z = 0 */
    double *mass = lcp_malloc((size_t)n, sizeof(double));
    if (!mass) return LCP_ERR_NOMEM;
    for (int k = 0; k < n; k++) mass[k] = k == n - 1 ? ratio * m : m;
    double down[3] = {0, dim == 3 ? 0 : -1, dim == 3 ? -1 : 0}, x[3] = {1, 0, 0};
    lcp_status st = prob_beads(W, P, down, x, amp, mass, msg, msglen);
    lcp_free(mass);
    for (int k = 0; k < n && st == LCP_OK; k++)                  /* weight carried by link k */
        W->zj[k] = -g * (ratio * m + (n - 1 - k) * m) * cos(amp) * h;
    W->notes = "anchor at the origin, beads straight down (turned by amp towards +x) at len "
               "spacing, last bead ratio m, at rest; warm start = static tension";
    return st;
}
