/* scene_spheres.c: a pile of spheres in a box, the contact setting of Lacoursiere's notes
 * ("Using Gauss-Seidel for multibody problems", 2013): sphere-ground, sphere-wall and
 * sphere-sphere contacts, box friction with two tangents, SPOOK.  3D.
 *
 * Chosen layout: spheres on a lattice of pitch s = 2 r + gap, side spheres per row and per
 * column of a layer, layers stacked at height z = r + gap/2 + layer s; odd layers shifted by
 * s/2 in x and y so that layers nest into a pile as they fall; each centre jittered by
 * jitter (2u - 1) in x and y (u from splitmix64(seed)); all at rest.  The box is the floor
 * z >= 0 and four walls |x|, |y| <= width/2 with width = (side + 1/2) s.
 * side = 0 (default) chooses side = ceil(cbrt(2 n)) (a layer of side^2 spheres; 200 spheres
 * give side 8, 4 layers; 10^4 give 28 and 13; 10^5 give 59 and 29).  Defaults: n 200,
 * r 0.1, m 1, mu 0.5, e 0, gap 0.02, jitter 0.005, inertia 2/5 m r^2.
 * Errors: jitter must leave the lattice free of overlaps (2 jitter < gap).
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

const prob_param prob_spheres_params[] = {
    {"n", 200, PROB_COUNT, "number of spheres"},
    {"r", 0.1, PROB_POS, "sphere radius (m)"},
    {"m", 1.0, PROB_POS, "sphere mass (kg)"},
    {"mu", 0.5, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"side", 0, PROB_NONNEG, "spheres per row of a layer (0: ceil(cbrt(2 n)))"},
    {"gap", 0.02, PROB_POS, "gap between lattice neighbours (m)"},
    {"jitter", 0.005, PROB_NONNEG, "horizontal jitter amplitude (m)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_spheres(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    int n = (int)prob_param_get(P, "n");
    double r = prob_param_get(P, "r"), m = prob_param_get(P, "m"), gap = prob_param_get(P, "gap");
    double jitter = prob_param_get(P, "jitter"), sidep = prob_param_get(P, "side");
    if (sidep != floor(sidep) || sidep > 1e6) {
        snprintf(msg, msglen, "parameter side = %g: must be an integer >= 0", sidep);
        return LCP_ERR_ARG;
    }
    if (2 * jitter >= gap) {
        snprintf(msg, msglen, "scene does not fit: jitter %g must be below gap/2 = %g", jitter,
                 gap / 2);
        return LCP_ERR_ARG;
    }
    int side = sidep > 0 ? (int)sidep : (int)ceil(cbrt(2.0 * n));
    double s = 2 * r + gap, width = (side + 0.5) * s;
    lcp_status st = prob_world_init(W, 3, n);
    uint64_t rng = (uint64_t)prob_param_get(P, "seed");
    double I = 0.4 * m * r * r;                                  /* 2/5 m r^2 */
    double Ib[9] = {I, 0, 0, 0, I, 0, 0, 0, I}, zero[3] = {0, 0, 0};
    for (int i = 0; i < n && st == LCP_OK; i++) {
        int layer = i / (side * side), k = i % (side * side);
        double shift = (layer % 2) * 0.5 * s;
        double ux = lcp_rng_uniform(&rng), uy = lcp_rng_uniform(&rng);
        double pos[3] = {-0.5 * width + (k % side + 0.5) * s + shift + jitter * (2 * ux - 1),
                         -0.5 * width + (k / side + 0.5) * s + shift + jitter * (2 * uy - 1),
                         r + 0.5 * gap + layer * s};
        st = prob_body_set(W, i, pos, m, Ib, 0.0);
        if (st == LCP_OK) st = prob_add_geom(W, i, zero, zero, r);
    }
    double planes[5][3] = {{0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    for (int p = 0; p < 5 && st == LCP_OK; p++)
        st = prob_add_plane(W, planes[p], p == 0 ? 0.0 : -0.5 * width);
    W->notes = "lattice of side x side layers, odd layers shifted half a pitch, seeded jitter, "
               "falling from rest into a box of width (side + 1/2)(2 r + gap)";
    return st;
}
