/* scene_slide.c: a flat body sliding on a plane at an angle to the contacts' first tangent,
 * for box against cone friction (Lacoursiere 2013, Sec. 2: the box clamp is "maximally
 * dissipative in each direction, but not necessarily overall").  3D.
 *
 * Chosen layout: four spheres of radius r (default 0.05 m) at the corners (+-a, +-a, 0) of
 * a square (a = 0.2 m) in the body's xy plane, the body centre at (0, 0, r) on the plane
 * z >= 0: four contacts, each with normal +z, t1 = +x and t2 = +y (the stepper's tangent
 * rule), 12 rows with mu > 0, all present at step 1.  Mass m = 1 kg (m/4 per sphere, solid),
 * inertia sum_i (2/5 m_i r^2 I + m_i (|p_i|^2 I - p_i p_i^T)).  Initial velocity v0 = 2 m/s
 * in the plane at `angle' degrees from +x (= t1), no spin.  mu 0.5, e 0.
 * Analytic (Coulomb's cone): while the body slides, the total friction impulse is
 * mu (sum of normal impulses) against the sliding velocity, so the body moves on a straight
 * line.  Box friction clamps z_t1 and z_t2 separately at mu z_n: when both saturate the
 * total points at 45 degrees between -t1 and -t2 with length sqrt(2) mu z_n, whatever the
 * angle (error 0 at angle 0, direction error 0 but length error sqrt(2) - 1 at 45).
 * Cost: O(1).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_slide_params[] = {
    {"m", 1.0, PROB_POS, "total mass (kg)"},
    {"mu", 0.5, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"v0", 2.0, PROB_REAL, "initial sliding speed (m/s)"},
    {"angle", 30.0, PROB_REAL, "direction of the initial velocity from +x = t1 (degrees)"},
    {"r", 0.05, PROB_POS, "sphere radius (m)"},
    {"a", 0.2, PROB_POS, "half side of the square of sphere centres (m)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_slide(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    double m = prob_param_get(P, "m"), r = prob_param_get(P, "r"), a = prob_param_get(P, "a");
    double pi = 3.14159265358979323846, p[4][3];
    for (int k = 0; k < 4; k++) {
        p[k][0] = (k & 1) ? a : -a;
        p[k][1] = (k & 2) ? a : -a;
        p[k][2] = 0.0;
    }
    lcp_status st = prob_sphere_body(W, 4, (const double(*)[3])p, m, r);
    if (st == LCP_OK) {
        double v0 = prob_param_get(P, "v0"), ang = prob_param_get(P, "angle") * pi / 180.0;
        W->vel[0] = v0 * cos(ang);
        W->vel[1] = v0 * sin(ang);
    }
    W->notes = "four spheres at the corners (+-a, +-a) resting on z = 0, v0 at `angle' "
               "degrees from +x (t1 of every contact), no spin";
    return st;
}
