/* scene_chain.c: a chain of particles joined by rigid distance constraints (bilateral rows
 * lo = -inf, hi = inf), hanging from a fixed point and released from a horizontal pose
 * (Francu, "Transversal stability of constraints", 2018), 2D.
 *
 * Chosen layout: the anchor is the world point (0, 0); particle i (1..n) starts at
 * (i len, 0) at rest; joint 0 ties particle 1 to the anchor, joint i ties particle i to
 * particle i + 1, all at the particles' centres.  Defaults: n 20, len 0.1 m, m 0.1 kg.
 * Particles have the 3 dof of every 2D body; their rotation is decoupled (joints act at the
 * centres) and uses the inertia of a disk of radius rp (m rp^2 / 2, default rp 0.01 m).
 * No floor, no collisions.  Rows: n bilateral rows.
 * Time step: h = 1/1000 s and d = 2 (not the stepper's 1/60 and 4).  A velocity-level step
 * stretches a turning link by about (h v_rel)^2 / (2 len), and the free end whips at several
 * m/s as the chain swings through the bottom (about 0.63 s): at h = 1/60 links stretch by more
 * than 1% within 8 steps; at h = 1/600, d = 4 by 1.02% at the whip.  Measured with the
 * default solver (pgs, 100 sweeps, tol 1e-8): worst link error 0.098% over 600 steps and
 * 0.59% over 1000 steps (through the first whip) at h = 1/1000, d = 2.
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_chain_params[] = {
    {"n", 20, PROB_COUNT, "number of particles (= links)"},
    {"len", 0.1, PROB_POS, "link length (m)"},
    {"m", 0.1, PROB_POS, "particle mass (kg)"},
    {"rp", 0.01, PROB_POS, "radius giving the particles' inertia m rp^2 / 2 (m)"},
    {"h", 1.0 / 1000.0, PROB_POS, "time step (s)"},
    {"d", 2.0, PROB_NONNEG, "SPOOK relaxation d = tau / h (steps)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_chain(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    int n = (int)prob_param_get(P, "n");
    double len = prob_param_get(P, "len"), m = prob_param_get(P, "m"), rp = prob_param_get(P, "rp");
    lcp_status st = prob_world_init(W, 2, n);
    double zero[3] = {0, 0, 0};
    for (int i = 0; i < n && st == LCP_OK; i++) {
        double pos[3] = {(i + 1) * len, 0.0, 0.0};
        st = prob_body_set(W, i, pos, m, NULL, 0.5 * m * rp * rp);
        W->collide[i] = 0;
    }
    for (int i = 0; i < n && st == LCP_OK; i++)          /* joint i: particle i to i - 1 */
        st = prob_add_joint(W, i, i - 1, zero, zero, len);
    W->notes = "anchor at the world origin, particle i at (i len, 0) at rest, no collisions";
    return st;
}
