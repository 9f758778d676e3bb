/* scene_silo.c: a tall granular column of disks in a narrow container, 2D (issue: hard
 * problem families, the silo family): many contacts in force chains, the weight carried by
 * wall friction as well as the floor (Janssen's silo effect), a height many times the width.
 *
 * Chosen layout: n disks in `cols' columns, disk k in column i = k mod cols at
 *     x = -width/2 + s/2 + i s + jitter (2u - 1),   s = 2 r (1 + poly) + 4 jitter,
 * stacked on the one below in its column (y = r_k for the first, else y_below + r_below +
 * r_k + gap): with gap 0 every column touches from step 1, and the jitter makes the square
 * packing buckle into a granular one as it settles; radii r_k = r (1 + poly (2u' - 1))
 * (polydisperse: no crystal), mass m (r_k / r)^2, inertia m_k r_k^2 / 2; u, u' from
 * splitmix64(seed), disk by disk; the container is the floor y >= 0 and two walls
 * |x| <= width/2, width = cols s; all at rest.  (A lattice with gaps between its rows lets
 * the column fall freely by their sum, and the top rows land at metres per second: centimetres
 * of penetration per step, the stepper having no speculative contacts.)
 * Defaults: n 120, cols 4 (a column 30 disks tall, 7 times its width), r 0.05 m, m 0.1 kg,
 * poly 0.1, mu 0.5 (disks and walls), e 0, gap 0, jitter 0.002 m, sweep cap 1000.
 * Errors: poly below 0.5.
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

const prob_param prob_silo_params[] = {
    {"n", 120, PROB_COUNT, "number of disks"},
    {"cols", 4, PROB_COUNT, "columns of disks (the container is cols pitches wide)"},
    {"r", 0.05, PROB_POS, "mean disk radius (m)"},
    {"m", 0.1, PROB_POS, "mass of a disk of radius r (kg; m (r_k/r)^2)"},
    {"poly", 0.1, PROB_NONNEG, "radius spread: r_k = r (1 + poly (2u - 1))"},
    {"mu", 0.5, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"gap", 0.0, PROB_NONNEG, "vertical gap between disks of a column (m)"},
    {"jitter", 0.002, PROB_NONNEG, "horizontal jitter amplitude (m)"},
    {"iters", 1000, PROB_COUNT, "solver sweep cap per step (lcpbench --iters)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_silo(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    int n = (int)prob_param_get(P, "n"), cols = (int)prob_param_get(P, "cols");
    double r = prob_param_get(P, "r"), m = prob_param_get(P, "m");
    double poly = prob_param_get(P, "poly"), gap = prob_param_get(P, "gap");
    double jit = prob_param_get(P, "jitter"), s = 2 * r * (1 + poly) + 4 * jit;
    double width = cols * s;
    if (!(poly < 0.5)) {
        snprintf(msg, msglen, "parameter poly = %g: must be below 0.5", poly);
        return LCP_ERR_ARG;
    }
    double *top = lcp_calloc(2 * (size_t)cols, sizeof(double));  /* y and r of each column */
    lcp_status st = top ? prob_world_init(W, 2, n) : LCP_ERR_NOMEM;
    uint64_t rng = (uint64_t)prob_param_get(P, "seed");
    double zero[3] = {0, 0, 0};
    for (int k = 0; k < n && st == LCP_OK; k++) {
        int i = k % cols;
        double u = lcp_rng_uniform(&rng), u2 = lcp_rng_uniform(&rng);
        double rk = r * (1 + poly * (2 * u2 - 1)), mk = m * (rk / r) * (rk / r);
        double y = k < cols ? rk : top[2 * i] + top[2 * i + 1] + rk + gap;   /* on the one below */
        double pos[3] = {-0.5 * width + 0.5 * s + i * s + jit * (2 * u - 1), y, 0.0};
        top[2 * i] = y, top[2 * i + 1] = rk;
        st = prob_body_set(W, k, pos, mk, NULL, 0.5 * mk * rk * rk);   /* I = m r^2 / 2 */
        if (st == LCP_OK) st = prob_add_geom(W, k, zero, zero, rk);
    }
    lcp_free(top);
    double up[3] = {0, 1, 0}, left[3] = {1, 0, 0}, right[3] = {-1, 0, 0};
    if (st == LCP_OK) st = prob_add_plane(W, up, 0.0);
    if (st == LCP_OK) st = prob_add_plane(W, left, -0.5 * width);
    if (st == LCP_OK) st = prob_add_plane(W, right, -0.5 * width);
    W->notes = "cols columns of disks stacked touching (gap), seeded x jitter and radii, at "
               "rest in a container cols pitches wide";
    return st;
}
