/* scene_stack.c: "Stacking" of the AMGS paper (Miyamoto et al. 2019), 2D.
 *
 * A vertical column of n disks (default 30; 150 for the paper's Table 1) on the floor
 * y >= 0, no walls.  Chosen layout: disk i at x = 0, y = drop + r + i (2 r + gap), at rest;
 * defaults drop 0 and gap 0 (touching: every contact present at step 1).  r 0.18, m 1,
 * mu 0.1, e 0.2, inertia m r^2 / 2.  With drop > 0 and n = 1 it is the bouncing-disk test
 * of problems/README.md (rebound to e^2 of the drop height).
 * Solver: the stack's default sweep cap is 1000 (not the stepper's 100).  Projected
 * Gauss-Seidel carries the weight of the column down by about one contact per sweep: with
 * 100 sweeps a column of 150 disks is not held up, sinks by 0.3 m and blows apart within
 * 100 steps (kinetic energy 10^4 J); with 1000 it stands (penetration 1.5 mm, at rest after
 * 250 steps).  30 disks stand with either.
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_stack_params[] = {
    {"n", 30, PROB_COUNT, "number of disks"},
    {"r", 0.18, PROB_POS, "disk radius (m)"},
    {"m", 1.0, PROB_POS, "disk mass (kg)"},
    {"mu", 0.1, PROB_NONNEG, "friction coefficient"},
    {"e", 0.2, PROB_UNIT, "restitution"},
    {"drop", 0.0, PROB_NONNEG, "height of the lowest disk above the floor (m)"},
    {"gap", 0.0, PROB_NONNEG, "vertical gap between neighbouring disks (m)"},
    {"iters", 1000, PROB_COUNT, "solver sweep cap per step (lcpbench --iters)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_stack(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    int n = (int)prob_param_get(P, "n");
    double r = prob_param_get(P, "r"), m = prob_param_get(P, "m");
    double drop = prob_param_get(P, "drop"), gap = prob_param_get(P, "gap");
    lcp_status st = prob_world_init(W, 2, n);
    double zero[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    for (int i = 0; i < n && st == LCP_OK; i++) {
        double pos[3] = {0.0, drop + r + i * (2 * r + gap), 0.0};
        st = prob_body_set(W, i, pos, m, NULL, 0.5 * m * r * r);  /* I = m r^2 / 2 */
        if (st == LCP_OK) st = prob_add_geom(W, i, zero, zero, r);
    }
    if (st == LCP_OK) st = prob_add_plane(W, up, 0.0);
    W->notes = "column at x = 0, disk i at y = drop + r + i (2 r + gap), at rest, floor only";
    return st;
}
