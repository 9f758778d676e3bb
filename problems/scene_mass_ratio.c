/* scene_mass_ratio.c: a column of disks with one mass `ratio' times the others, 2D (issue:
 * hard problem families, the mass-ratio family).
 *
 * A vertical column of n disks on the floor y >= 0, as `stack' (disk i at x = 0,
 * y = r + i (2 r + gap), at rest, gap 0: every contact present at step 1).  reverse = 0
 * (default): a heavy body on a column of light ones, the top disk has mass m, the others
 * m / ratio.  reverse = 1: a light body on a column of heavy ones, the top disk m / ratio,
 * the others m.  (The heavy mass is fixed so that the loads, and with them the SPOOK
 * compression eps z / h, stay those of 1 kg disks: with the light mass fixed instead, a
 * 10^4 kg disk sinks 0.1 m into its contacts at eps = 1e-6 m/N.)  2D on purpose: the column is isostatic (n contacts, n independent normal rows,
 * no self-stress state), so the mass ratio is the only cause of difficulty.  Defaults: n 5,
 * ratio 100 (the family's range 1 to 10^4), r 0.18, m 1 kg (heavy), mu 0.1, e 0, inertia
 * m_i r^2 / 2, sweep cap 1000 (as `stack').
 * Errors: reverse is 0 or 1.
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

const prob_param prob_mass_ratio_params[] = {
    {"n", 5, PROB_COUNT, "number of disks"},
    {"ratio", 100, PROB_POS, "mass ratio heavy / light"},
    {"reverse", 0, PROB_NONNEG, "0: heavy disk on light ones, 1: light disk on heavy ones"},
    {"r", 0.18, PROB_POS, "disk radius (m)"},
    {"m", 1.0, PROB_POS, "heavy disk mass (kg); the light ones m / ratio"},
    {"mu", 0.1, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"gap", 0.0, PROB_NONNEG, "vertical gap between neighbouring disks (m)"},
    {"iters", 1000, PROB_COUNT, "solver sweep cap per step (lcpbench --iters)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_mass_ratio(prob_world *W, const prob_params *P, char *msg,
                                 size_t msglen)
{
    int n = (int)prob_param_get(P, "n");
    double r = prob_param_get(P, "r"), m = prob_param_get(P, "m");
    double ratio = prob_param_get(P, "ratio"), rev = prob_param_get(P, "reverse");
    double gap = prob_param_get(P, "gap");
    if (rev != 0.0 && rev != 1.0) {
        snprintf(msg, msglen, "parameter reverse = %g: must be 0 or 1", rev);
        return LCP_ERR_ARG;
    }
    lcp_status st = prob_world_init(W, 2, n);
    double zero[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    for (int i = 0; i < n && st == LCP_OK; i++) {
        int top = i == n - 1;
        double mi = (top != (rev == 1.0)) ? m : m / ratio;     /* heavy: top xor reverse */
        double pos[3] = {0.0, r + i * (2 * r + gap), 0.0};
        st = prob_body_set(W, i, pos, mi, NULL, 0.5 * mi * r * r);   /* I = m r^2 / 2 */
        if (st == LCP_OK) st = prob_add_geom(W, i, zero, zero, r);
    }
    if (st == LCP_OK) st = prob_add_plane(W, up, 0.0);
    W->notes = rev == 1.0 ? "column at x = 0, top disk m / ratio on n - 1 disks of m, at rest"
                          : "column at x = 0, top disk m on n - 1 disks of m / ratio, at rest";
    return st;
}
