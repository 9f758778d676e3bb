/* scene_thread.c: Francu's "extreme initial velocities" on a 2D thread (Francu 2018,
 * "Implicit velocity projection"), 2D or 3D.
 *
 * Layout: a horizontal thread from the anchor at the world origin along +x, n beads (20) of
 * mass m (0.1 kg) at len (0.1 m) spacing, under gravity, with alternating vertical
 * velocities v_i = V (-1)^(i+1) (i / n) for bead i = 1..n (along +y in 2D, +z in 3D).  The
 * source gives no numbers; our choice sets V by the Courant-like number kappa = h V / len
 * (default 3.3: V = 19.8 m/s at h = 1/60, so a link can turn by more than a radian in one
 * step).  Rigid links: eps = 0 by default; warm start 0.  Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_thread_params[] = {
    {"n", 20, PROB_COUNT, "number of beads (= links)"},
    {"len", 0.1, PROB_POS, "link length (m)"},
    {"m", 0.1, PROB_POS, "bead mass (kg)"},
    {"kappa", 3.3, PROB_NONNEG, "h V / len: the initial speed V in links per step"},
    {"rp", 0.01, PROB_POS, "radius giving the beads' inertia (m)"},
    {"pert", 0.0, PROB_NONNEG, "seeded transversal offset of each link angle (rad)"},
    {"dim", 2, PROB_COUNT, "2 (disks, 3 dof) or 3 (spheres, 6 dof)"},
    {"eps", 0.0, PROB_NONNEG, "SPOOK compliance (m/N)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_thread(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    int n = (int)prob_param_get(P, "n"), dim = (int)prob_param_get(P, "dim");
    double m = prob_param_get(P, "m"), len = prob_param_get(P, "len");
    double V = prob_param_get(P, "kappa") * len / prob_param_get(P, "h");  /* V = kappa L / h */
    double *mass = lcp_malloc((size_t)n, sizeof(double));
    if (!mass) return LCP_ERR_NOMEM;
    for (int k = 0; k < n; k++) mass[k] = m;
    double x[3] = {1, 0, 0}, up[3] = {0, dim == 3 ? 0 : 1, dim == 3 ? 1 : 0};
    lcp_status st = prob_beads(W, P, x, up, 0.0, mass, msg, msglen);
    lcp_free(mass);
    for (int k = 0; k < n && st == LCP_OK; k++) {   /* bead i = k + 1: V (-1)^(i+1) i / n */
        double vi = V * (k % 2 == 0 ? 1.0 : -1.0) * (double)(k + 1) / n;
        W->vel[(size_t)W->ndof * k + (dim == 3 ? 2 : 1)] = vi;
    }
    W->notes = "anchor at the origin, beads along +x at len spacing, vertical velocities "
               "V (-1)^(i+1) i / n with V = kappa len / h, gravity";
    return st;
}
