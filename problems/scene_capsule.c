/* scene_capsule.c: a capsule sliding on a plane (Andrews, Erleben, Kry, Teichmann 2017,
 * "Constraint reordering for iterative multi-body simulation with contact"), 3D.
 *
 * Chosen layout: a capsule of radius r = 0.1 m around the segment from (-half, 0, 0) to
 * (half, 0, 0) in body frame, half = 0.25 m, lying on the plane z >= 0 with its centre at
 * (0, 0, r): the two segment ends touch the plane (2 contacts, 6 rows with mu > 0, all
 * present at step 1).  Initial velocity v0 = 10 m/s along +x (the capsule's axis) and
 * angular velocity w0 = 1 rad/s about +z (the plane normal).  m 10 kg, mu 1, e 0.
 * Inertia of a solid capsule of uniform density (cylinder length L = 2 half, mass split by
 * volume: m_c = m V_c / V, m_s = m V_s / V, V_c = pi r^2 L, V_s = 4/3 pi r^3):
 *   I_axis = m_c r^2 / 2 + 2/5 m_s r^2,
 *   I_perp = m_c (L^2/12 + r^2/4) + m_s (2/5 r^2 + L^2/4 + 3 L r / 8).
 * With w0 = 0 it is the box-friction slide of problems/README.md: it stops after
 * v0^2 / (2 mu g) m and v0 / (mu g) s.
 * Cost: O(1).
 */
#include "prob_internal.h"
#include "scenes.h"

const prob_param prob_capsule_params[] = {
    {"m", 10.0, PROB_POS, "mass (kg)"},
    {"mu", 1.0, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"v0", 10.0, PROB_REAL, "initial speed along +x (m/s)"},
    {"w0", 1.0, PROB_REAL, "initial angular speed about +z (rad/s)"},
    {"r", 0.1, PROB_POS, "capsule radius (m)"},
    {"half", 0.25, PROB_POS, "half length of the capsule's segment (m)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_capsule(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    double m = prob_param_get(P, "m"), r = prob_param_get(P, "r"), half = prob_param_get(P, "half");
    double L = 2 * half, pi = 3.14159265358979323846;
    double Vc = pi * r * r * L, Vs = 4.0 / 3.0 * pi * r * r * r;
    double mc = m * Vc / (Vc + Vs), ms = m * Vs / (Vc + Vs);
    double Ia = 0.5 * mc * r * r + 0.4 * ms * r * r;
    double Ip = mc * (L * L / 12 + r * r / 4) + ms * (0.4 * r * r + L * L / 4 + 3 * L * r / 8);
    double Ib[9] = {Ia, 0, 0, 0, Ip, 0, 0, 0, Ip};
    lcp_status st = prob_world_init(W, 3, 1);
    double pos[3] = {0, 0, r}, a[3] = {-half, 0, 0}, b[3] = {half, 0, 0}, up[3] = {0, 0, 1};
    if (st == LCP_OK) st = prob_body_set(W, 0, pos, m, Ib, 0.0);
    if (st == LCP_OK) st = prob_add_geom(W, 0, a, b, r);
    if (st == LCP_OK) st = prob_add_plane(W, up, 0.0);
    if (st == LCP_OK) {
        W->vel[0] = prob_param_get(P, "v0");
        W->vel[5] = prob_param_get(P, "w0");
    }
    W->notes = "capsule axis along x lying on z = 0, v0 along +x, w0 about +z";
    return st;
}
