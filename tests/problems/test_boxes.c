/* test_boxes.c: the hard-family scenes `boxes' and `mass-ratio' (problems/README.md,
 * "Scenes" and "Descriptors"), as TAP:
 *   boxes/pair/...       two aligned boxes on the floor at step 1: 8 contacts (4 per face
 *                        pair), 24 rows, the self-stress states counted by hand (below)
 *   boxes/tower-N/...    a tower of N boxes stands 300 steps with the exact reference
 *                        (ldlt-ref) as the stepper's solver: penetration, drift, tilt,
 *                        kinetic energy once settled, 4 N contacts at the end
 *   boxes/wall-4x4/...   a wall of 4 layers x 4 columns (18 bricks, 168 contacts), the same
 *                        checks
 *   mass-ratio/...       a column with mass ratio 1e4 (heavy on light, and light on heavy)
 *                        settles: kinetic energy bounded, falling to rest; the descriptors
 *   determinism/...      two runs of each scene give bit-identical states
 *   A/...                A == J Minv J^T + diag(E) on a box tower (rank deficient J)
 */
#include "prob.h"
#include "makeworld.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dhook {
    int at;           /* step whose problem is described */
    int m, n, got;
    prob_desc D;
} dhook;

static lcp_status desc_hook(void *vctx, const prob_world *W, const lcp_problem *P, int t)
{
    dhook *c = vctx;
    if (t != c->at) return LCP_OK;
    c->m = P->m;
    c->n = P->n;
    c->got = prob_descriptors(W, P, &c->D) == LCP_OK;
    return LCP_OK;
}

/* Two boxes (half 0.2, 0.2, 0.1, jitter 0) on the floor, counted by hand.  Contacts: the
 * four corners of box 0 on the floor, the four corners of the face between the boxes; 8
 * contacts, 24 rows (normal, t1 = +x, t2 = +y), n = 12.
 * Normal rows: the floor's act on box 0 only, [e_z, r x e_z] = (0, 0, 1, r_y, -r_x, 0) with
 * r = (+-0.2, +-0.2, -0.1): they span v_z, w_x, w_y, rank 3 of 4; the pair's rows act on
 * box 1 through the same four patterns, rank 3.  J_N is block triangular (floor rows: box 0
 * columns only), so rank 6 and dim null(J_N^T) = 8 - 6 = 2: one self-stress state per face
 * pair, the corner impulses (+1, -1, -1, +1) (no net force, no net moment).
 * All contact rows: the floor's 12 rows on box 0's 6 columns have rank 6 (the tangent rows
 * (1, 0, 0, 0, -0.1, -r_y) and (0, 1, 0, 0.1, 0, r_x) add v_x, v_y, w_z), the pair's 12
 * rows rank 6 on box 1's columns: rank 12, dim null(J_C^T) = 24 - 12 = 12. */
static void test_pair(void)
{
    const char *kv[] = {"n=2", "jitter=0", NULL};
    prob_world W;
    prob_step_info info;
    dhook c = {1, 0, 0, 0, {0}};
    int good = make(&W, "boxes", kv) == 0 && step(&W, desc_hook, &c, &info) == 0 && c.got;
    ok(good && info.contacts == 8 && c.m == 24 && c.n == 12,
       "boxes/pair/8-contacts-24-rows-12-columns (%d, %d, %d)", info.contacts, c.m, c.n);
    ok(good && c.D.contacts == 8 && c.D.bodies == 2 && c.D.rows == 24,
       "boxes/pair/descriptor-counts (contacts %d, bodies %d, rows %d)", c.D.contacts,
       c.D.bodies, c.D.rows);
    ok(good && c.D.self_stress_normal == 2,
       "boxes/pair/self-stress-normal-rows-2-by-hand (%d)", c.D.self_stress_normal);
    ok(good && c.D.self_stress == 12, "boxes/pair/self-stress-contact-rows-12-by-hand (%d)",
       c.D.self_stress);
    ok(good && c.D.mass_ratio == 1.0 && c.D.mu == 0.5 && c.D.bilateral == 0 &&
           c.D.bilateral_share == 0.0,
       "boxes/pair/mass-ratio-1-mu-0.5-no-bilateral-rows");
    prob_world_free(&W);
}

/* largest tilt (angle between a body's z axis and the world's) */
static double max_tilt(const prob_world *W)
{
    double t = 0.0;
    for (int k = 0; k < W->nb; k++) {
        const double *q = W->rot + 4 * k;
        double rzz = 1 - 2 * (q[1] * q[1] + q[2] * q[2]);      /* R_zz */
        t = fmax(t, acos(fmin(1.0, rzz)));
    }
    return t;
}

/* a box scene stands `steps' steps under ldlt-ref */
static void stands(const char *name, const char *const *kv, int steps, int contacts)
{
    prob_world W;
    prob_step_info info;
    int good = make(&W, "boxes", kv) == 0 &&
               prob_world_set_solver(&W, "ldlt-ref", 1, -1) == LCP_OK;
    double *x0 = good ? malloc(3 * (size_t)W.nb * sizeof(double)) : NULL;
    if (x0) memcpy(x0, W.pos, 3 * (size_t)W.nb * sizeof(double));
    double pen = 0.0, ke_late = 0.0, drift = 0.0, hz = 0.1;
    int bad = 0;
    for (int t = 1; t <= steps && good && x0; t++) {
        good = step(&W, NULL, NULL, &info) == 0;
        bad += info.status != LCP_OK;
        pen = fmax(pen, info.max_penetration);
        if (t > steps - 100) ke_late = fmax(ke_late, info.kinetic_energy);
        for (int k = 0; k < W.nb; k++)
            drift = fmax(drift, hypot(W.pos[3 * k] - x0[3 * k], W.pos[3 * k + 1] - x0[3 * k + 1]));
    }
    good = good && x0;
    ok(good && bad == 0, "boxes/%s/ldlt-ref-solves-every-step (%d failed)", name, bad);
    ok(good && W.nc == contacts, "boxes/%s/%d-contacts-after-%d-steps (%d)", name, contacts,
       steps, W.nc);
    ok(good && pen < 0.01 * hz, "boxes/%s/penetration-below-1%%-of-hz (%.3g m)", name, pen);
    ok(good && drift < 1e-3, "boxes/%s/horizontal-drift-below-1mm (%.3g m)", name, drift);
    ok(good && max_tilt(&W) < 1e-3, "boxes/%s/tilt-below-1e-3-rad (%.3g)", name, max_tilt(&W));
    ok(good && ke_late < 1e-6, "boxes/%s/kinetic-energy-below-1e-6-in-the-last-100-steps "
       "(%.3g J)", name, ke_late);
    free(x0);
    prob_world_free(&W);
}

/* a mass-ratio column settles: KE never above its bound, and at rest at the end */
static void settles(const char *name, const char *const *kv)
{
    prob_world W;
    prob_step_info info;
    dhook c = {1, 0, 0, 0, {0}};
    int good = make(&W, "mass-ratio", kv) == 0 &&
               prob_world_set_solver(&W, "ldlt-ref", 1, -1) == LCP_OK;
    double ke_max = 0.0, ke_first = 0.0, ke_late = 0.0, pen = 0.0;
    for (int t = 1; t <= 600 && good; t++) {
        good = step(&W, t == 1 ? desc_hook : NULL, &c, &info) == 0;
        ke_max = fmax(ke_max, info.kinetic_energy);
        if (t <= 100) ke_first = fmax(ke_first, info.kinetic_energy);
        if (t > 500) ke_late = fmax(ke_late, info.kinetic_energy);
        pen = fmax(pen, info.max_penetration);
    }
    ok(good && c.got && c.D.mass_ratio == 1e4 && c.D.self_stress_normal == 0 &&
           c.D.self_stress == 0,
       "mass-ratio/%s/descriptors-ratio-1e4-no-self-stress (%g, %d, %d)", name,
       c.D.mass_ratio, c.D.self_stress_normal, c.D.self_stress);
    ok(good && ke_max < 1e-2, "mass-ratio/%s/kinetic-energy-bounded-1e-2 (max %.3g J)", name,
       ke_max);
    ok(good && ke_late < 1e-6 && ke_late <= ke_first,
       "mass-ratio/%s/kinetic-energy-falls-below-1e-6 (first 100 steps %.3g J, last 100 "
       "%.3g J)", name, ke_first, ke_late);
    ok(good && pen < 0.01 * 0.18, "mass-ratio/%s/penetration-below-1%%-of-r (%.3g m)", name,
       pen);
    prob_world_free(&W);
}

/* two runs of 60 steps give bit-identical positions */
static void determinism(const char *scene, const char *const *kv)
{
    prob_world W, V;
    prob_step_info info;
    int good = make(&W, scene, kv) == 0 && make(&V, scene, kv) == 0;
    for (int t = 1; t <= 60 && good; t++)
        good = step(&W, NULL, NULL, &info) == 0 && step(&V, NULL, NULL, &info) == 0;
    ok(good && memcmp(W.pos, V.pos, 3 * (size_t)W.nb * sizeof(double)) == 0 &&
           memcmp(W.rot, V.rot, 4 * (size_t)W.nb * sizeof(double)) == 0,
       "determinism/%s-two-runs-bit-identical-after-60-steps", scene);
    if (good) prob_world_free(&V);
    prob_world_free(&W);
}

int main(void)
{
    test_pair();
    const char *t10[] = {"n=10", NULL}, *t30[] = {"n=30", NULL};
    const char *wall[] = {"layers=4", "cols=4", NULL};
    stands("tower-10", t10, 300, 40);
    stands("tower-30", t30, 300, 120);
    stands("wall-4x4", wall, 300, 168);
    const char *heavy[] = {"ratio=10000", NULL}, *light[] = {"ratio=10000", "reverse=1", NULL};
    settles("heavy-on-light", heavy);
    settles("light-on-heavy", light);
    determinism("boxes", wall);
    determinism("mass-ratio", heavy);
    return tap_done();
}
