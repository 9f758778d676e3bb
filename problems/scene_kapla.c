/* scene_kapla.c: a Kapla-like tower of thin plates in crossed layers, 3D (issue: hard problem
 * families, the thin-plates family): boxes of a large aspect ratio (1 : 3 : 15, as Kapla
 * planks), so that the inertia about the long axis is tiny and the rows of a crossing
 * (four contacts, collide_box.c) mix lever arms of very different lengths.
 *
 * Chosen layout: `layers' layers of two plates, each plate of half extents (hl, hw, ht)
 * along its own axes (long, wide, thin); layer k at height ht + k (2 ht + gap); even layers
 * along x at y = +-(hl - hw), odd layers turned by 90 degrees about z (along y) at
 * x = +-(hl - hw): each plate rests across the ends of the two below (4 crossings of 4
 * contacts per layer above the first); every centre offset by jitter (2u - 1) in x and y
 * (splitmix64(seed), plate by plate); all at rest on the floor z >= 0.  Defaults: layers 6
 * (12 plates), hl 0.06, hw 0.012, ht 0.004 m (a 12 x 2.4 x 0.8 cm plank), m 0.01 kg,
 * inertia m/3 (h_j^2 + h_k^2), mu 0.5, e 0, jitter 0.0005 m, sweep cap 1000.
 * Errors: jitter must stay below hw/4 (a plate must cross the ones below): "does not fit".
 * Cost: O(layers) setup; box detection O(N^2) over the N = 2 layers plates.
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

const prob_param prob_kapla_params[] = {
    {"layers", 6, PROB_COUNT, "layers of two plates"},
    {"hl", 0.06, PROB_POS, "half length of a plate (m)"},
    {"hw", 0.012, PROB_POS, "half width (m)"},
    {"ht", 0.004, PROB_POS, "half thickness (m)"},
    {"m", 0.01, PROB_POS, "plate mass (kg)"},
    {"mu", 0.5, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"gap", 0.0, PROB_NONNEG, "vertical gap between layers (m)"},
    {"jitter", 0.0005, PROB_NONNEG, "horizontal offset amplitude (m)"},
    {"iters", 1000, PROB_COUNT, "solver sweep cap per step (lcpbench --iters)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_kapla(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    int layers = (int)prob_param_get(P, "layers");
    double hl = prob_param_get(P, "hl"), hw = prob_param_get(P, "hw");
    double ht = prob_param_get(P, "ht"), m = prob_param_get(P, "m");
    double jit = prob_param_get(P, "jitter"), pitch = 2 * ht + prob_param_get(P, "gap");
    if (!(jit < 0.25 * hw) || !(hw < hl)) {
        snprintf(msg, msglen, "scene does not fit: jitter %g must be below hw/4 = %g and hw "
                 "below hl", jit, 0.25 * hw);
        return LCP_ERR_ARG;
    }
    int n = 2 * layers;
    lcp_status st = prob_world_init(W, 3, n);
    uint64_t rng = (uint64_t)prob_param_get(P, "seed");
    double half[3] = {hl, hw, ht}, c45 = sqrt(0.5);
    double Ib[9] = {m / 3 * (hw * hw + ht * ht), 0, 0, 0, m / 3 * (hl * hl + ht * ht), 0,
                    0, 0, m / 3 * (hl * hl + hw * hw)};               /* m/3 (h_j^2 + h_k^2) */
    for (int k = 0; k < n && st == LCP_OK; k++) {
        int layer = k / 2, side = k % 2 ? 1 : -1, turned = layer % 2;
        double ux = lcp_rng_uniform(&rng), uy = lcp_rng_uniform(&rng), off = side * (hl - hw);
        double pos[3] = {(turned ? off : 0.0) + jit * (2 * ux - 1),
                         (turned ? 0.0 : off) + jit * (2 * uy - 1), ht + layer * pitch};
        st = prob_body_set(W, k, pos, m, Ib, 0.0);
        if (st == LCP_OK) st = prob_add_box(W, k, half);
        if (st == LCP_OK && turned) {                   /* 90 degrees about z */
            double q[4] = {c45, 0, 0, c45};
            memcpy(W->rot + 4 * k, q, sizeof q);
        }
    }
    double up[3] = {0, 0, 1};
    if (st == LCP_OK) st = prob_add_plane(W, up, 0.0);
    W->notes = "layers of two plates, even layers along x at y = +-(hl - hw), odd along y at "
               "x = +-(hl - hw), seeded x, y jitter, at rest on z = 0";
    return st;
}
