/* scene_towed.c: a string of beads towed by a constant force at its free end, without
 * gravity: the fixed-free beaded string of the transversal-stability tests (Francu 2018,
 * "Transversal stability of constraints"), 2D or 3D.
 *
 * Layout: anchor at the world origin, n beads (20) of mass m (0.1 kg) at len (0.1 m)
 * spacing along +x, at rest, a constant force F (10 N) along +x on the last bead, g = 0.
 * The equilibrium is exact: every link carries the tension F (lambda = -F, so the warm
 * start is z = -F h; warm = 0 starts from z = 0 instead, a cold solver start) and the linearised transversal motion is the fixed-free beaded string,
 *     omega_k^2 = (4 F / (m len)) sin^2((2k - 1) pi / (2 (2n + 1))),  k = 1..n
 * (n = 20, F = 10, len = 0.1, m = 0.1: omega_max = 63.06 rad/s, h_crit = 2/omega_max =
 * 31.72 ms).  Each link angle is offset by a seeded amount of at most pert (1e-9 rad) so the
 * transversal modes start excited while the lengths stay exact.
 * Rigid links: eps = 0 by default.  Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_towed_params[] = {
    {"n", 20, PROB_COUNT, "number of beads (= links)"},
    {"len", 0.1, PROB_POS, "link length (m)"},
    {"m", 0.1, PROB_POS, "bead mass (kg)"},
    {"F", 10.0, PROB_NONNEG, "towing force on the last bead along +x (N)"},
    {"rp", 0.01, PROB_POS, "radius giving the beads' inertia (m)"},
    {"warm", 1, PROB_UNIT, "1: the first warm start is the static tension; 0: zero"},
    {"pert", 1e-9, PROB_NONNEG, "seeded transversal offset of each link angle (rad)"},
    {"dim", 2, PROB_COUNT, "2 (disks, 3 dof) or 3 (spheres, 6 dof)"},
    {"g", 0.0, PROB_NONNEG, "gravity (m/s^2)"},
    {"eps", 0.0, PROB_NONNEG, "SPOOK compliance (m/N)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_towed(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    int n = (int)prob_param_get(P, "n");
    double m = prob_param_get(P, "m"), F = prob_param_get(P, "F");
    double h = prob_param_get(P, "h") * prob_param_get(P, "warm");   /* warm 0: z = 0 */
    double *mass = lcp_malloc((size_t)n, sizeof(double));
    if (!mass) return LCP_ERR_NOMEM;
    for (int k = 0; k < n; k++) mass[k] = m;
    double x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, f[3] = {F, 0, 0};
    lcp_status st = prob_beads(W, P, x, y, 0.0, mass, msg, msglen);
    lcp_free(mass);
    if (st == LCP_OK) st = prob_body_force(W, n - 1, f);
    for (int k = 0; k < n && st == LCP_OK; k++) W->zj[k] = -F * h;   /* tension F */
    W->notes = "anchor at the origin, beads along +x at len spacing, at rest, force F on the "
               "last bead along +x, link angles offset by at most pert; warm start z = -F h";
    return st;
}
