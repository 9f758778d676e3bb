/* scene_three_spheres.c: a rigid body made of three spheres sliding on a plane (Andrews,
 * Erleben, Kry, Teichmann 2017), 3D.
 *
 * Chosen layout: three spheres of radius r = 0.1 m with centres at distance R = 0.2 m from
 * the body's centre, at angles 90, 210 and 330 degrees in the body's xy plane (an
 * equilateral triangle), the body centre at (0, 0, r) on the plane z >= 0: three contacts,
 * 9 rows with mu > 0, all present at step 1.  Total mass m = 10 kg (m/3 per sphere, solid),
 * inertia sum_i (2/5 m_i r^2 I + m_i (|p_i|^2 I - p_i p_i^T)).  Initial velocity
 * v0 = 10 m/s along +x, angular velocity w0 = 1 rad/s about +z.  mu 1, e 0.
 * Cost: O(1).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_three_spheres_params[] = {
    {"m", 10.0, PROB_POS, "total mass (kg)"},
    {"mu", 1.0, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"v0", 10.0, PROB_REAL, "initial speed along +x (m/s)"},
    {"w0", 1.0, PROB_REAL, "initial angular speed about +z (rad/s)"},
    {"r", 0.1, PROB_POS, "sphere radius (m)"},
    {"R", 0.2, PROB_POS, "distance of the sphere centres from the body centre (m)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_three_spheres(prob_world *W, const prob_params *P, char *msg,
                                    size_t msglen)
{
    (void)msg;
    (void)msglen;
    double m = prob_param_get(P, "m"), r = prob_param_get(P, "r"), Rc = prob_param_get(P, "R");
    double pi = 3.14159265358979323846, p[3][3];
    for (int k = 0; k < 3; k++) {
        double ang = pi / 2 + k * 2 * pi / 3;
        p[k][0] = Rc * cos(ang);
        p[k][1] = Rc * sin(ang);
        p[k][2] = 0.0;
    }
    lcp_status st = prob_sphere_body(W, 3, (const double(*)[3])p, m, r);
    if (st == LCP_OK) {
        W->vel[0] = prob_param_get(P, "v0");
        W->vel[5] = prob_param_get(P, "w0");
    }
    W->notes = "three spheres at 90, 210, 330 degrees on a circle of radius R, resting on "
               "z = 0, v0 along +x, w0 about +z";
    return st;
}
