/* test_spookre.c: the slide scene's friction against Coulomb's cone, and the bottom-up
 * spatial ordering `height', as TAP.
 *
 *   slide/cone-A          the analytic cone impulse (mu sum z_n against the sliding
 *                         velocity) is anti-parallel to v and of length mu sum z_n
 *   slide/box-A           box friction (PGS to 1e-12) at step 1, v0 at A degrees from t1:
 *                         angle 0: direction error 0 and vector error 0; 30: the impulse
 *                         points at 45 degrees (direction error 15); 45: direction error 0,
 *                         vector error sqrt(2) - 1 (both tangents saturated at mu z_n)
 *   height/perm           order height with keys k visits rows by ascending key: iterates
 *                         bit-identical to order perm with the sorted rows, ties by row index
 *   height/no-keys        order height without options.rowkey is an argument error
 *   height/stack          the stepper's keys are heights: on the 30-disk column (contacts
 *                         listed bottom-up) `height' gives the natural order's states
 *                         bit for bit, and not the reverse order's
 *   height/determinism    two runs of the spheres scene with `height' agree bit for bit
 */
#include "prob.h"
#include "tap.h"
#include "testprob.h"

#include <math.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static int slide_world(prob_world *W, double angle)
{
    const prob_scene *s = prob_scene_find("slide");
    prob_params P;
    char kv[64], msg[256];
    if (!s) return -1;
    prob_params_default(s, &P);
    snprintf(kv, sizeof kv, "angle=%g", angle);
    if (prob_params_set(&P, kv, msg, sizeof msg) != LCP_OK) return -1;
    if (prob_world_create(W, s, &P, msg, sizeof msg) != LCP_OK) return -1;
    return prob_world_set_solver(W, "pgs", 100000, 1e-12) == LCP_OK ? 0 : -1;
}

static void slide_case(double angle, double want_dir, double want_vec)
{
    prob_world W;
    if (slide_world(&W, angle) != 0) {
        ok(0, "slide/box-%g builds", angle);
        return;
    }
    double v[2] = {W.vel[0], W.vel[1]};
    prob_step_info info;
    char msg[256];
    lcp_status st = prob_step(&W, NULL, NULL, &info, msg, sizeof msg);
    ok(st == LCP_OK && W.nc == 4, "slide/box-%g: one step, 4 contacts", angle);
    double F[2] = {0, 0}, zn = 0;
    for (int c = 0; c < W.nc; c++) {
        zn += W.c[c].z[0];
        for (int i = 0; i < 2; i++) F[i] += W.c[c].z[1] * W.c[c].t1[i] + W.c[c].z[2] * W.c[c].t2[i];
    }
    double sp = hypot(v[0], v[1]);
    double C[2] = {-W.mu * zn * v[0] / sp, -W.mu * zn * v[1] / sp};     /* the cone's */
    ok_close(C[0] * v[0] + C[1] * v[1], -W.mu * zn * sp, 1e-12,
             "slide/cone-%g: analytic impulse against the velocity", angle);
    ok_close(hypot(C[0], C[1]), W.mu * zn, 1e-12, "slide/cone-%g: of length mu sum z_n", angle);
    ok_close(zn, W.mass[0] * 9.80665 / 60.0, 0.02, "slide/box-%g: sum z_n = m g h (2%%)", angle);
    double dir = fabs(atan2(F[0] * C[1] - F[1] * C[0], F[0] * C[0] + F[1] * C[1])) * 180 / PI;
    double vec = hypot(F[0] - C[0], F[1] - C[1]) / hypot(C[0], C[1]);
    ok_close(dir, want_dir, 1e-6, "slide/box-%g: direction error %.6f deg", angle, dir);
    if (want_vec >= 0)
        ok_close(vec, want_vec, 1e-6, "slide/box-%g: vector error %.6f", angle, vec);
    prob_world_free(&W);
}


static int run_stack(lcp_order order, double *pos, int steps)
{
    const prob_scene *s = prob_scene_find("stack");
    prob_params P;
    char msg[256];
    prob_world W;
    prob_params_default(s, &P);
    if (prob_world_create(&W, s, &P, msg, sizeof msg) != LCP_OK) return -1;
    prob_world_set_solver(&W, "pgs", 15, -1);
    W.opt.order = order;
    int rc = 0;
    for (int t = 0; t < steps && !rc; t++) {
        prob_step_info info;
        rc = prob_step(&W, NULL, NULL, &info, msg, sizeof msg) != LCP_OK;
    }
    memcpy(pos, W.pos, 3 * (size_t)W.nb * sizeof(double));
    prob_world_free(&W);
    return rc;
}

static int run_spheres(double *pos, int *nb)
{
    const prob_scene *s = prob_scene_find("spheres");
    prob_params P;
    char msg[256];
    prob_world W;
    prob_params_default(s, &P);
    prob_params_set(&P, "n=64", msg, sizeof msg);
    if (prob_world_create(&W, s, &P, msg, sizeof msg) != LCP_OK) return -1;
    prob_world_set_solver(&W, "pgs", 15, -1);
    W.opt.order = LCP_ORDER_HEIGHT;
    int rc = 0;
    for (int t = 0; t < 40 && !rc; t++) {
        prob_step_info info;
        rc = prob_step(&W, NULL, NULL, &info, msg, sizeof msg) != LCP_OK;
    }
    memcpy(pos, W.pos, 3 * (size_t)W.nb * sizeof(double));
    *nb = W.nb;
    prob_world_free(&W);
    return rc;
}

int main(void)
{
    slide_case(0, 0, 0);
    slide_case(30, 15, -1);
    slide_case(45, 0, sqrt(2.0) - 1);

    /* height/perm: keys 3, 1, 2, 1 -> rows 1, 3, 2, 0 */
    static const double A[16] = {4, -1, 0, 0, -1, 4, -1, 0, 0, -1, 4, -1, 0, 0, -1, 4};
    static const double q[4] = {-1, 2, -3, -0.5};
    lcp_problem P;
    int have = tp_dense(&P, 4, A, q, NULL, NULL, NULL) == 0;
    if (have) {
        static const double key[4] = {3, 1, 2, 1};
        static const int perm[4] = {1, 3, 2, 0};
        double z1[4] = {0}, z2[4] = {0};
        lcp_options o;
        lcp_info i1, i2;
        lcp_options_default(&o);
        o.max_iter = 3;
        o.tol = -1;
        o.order = LCP_ORDER_HEIGHT;
        o.rowkey = key;
        lcp_status s1 = lcp_solve(lcp_solver_find("pgs"), &P, &o, z1, &i1);
        o.order = LCP_ORDER_PERM;
        o.perm = perm;
        o.rowkey = NULL;
        lcp_status s2 = lcp_solve(lcp_solver_find("pgs"), &P, &o, z2, &i2);
        ok(s1 >= 0 && s2 >= 0 && !memcmp(z1, z2, sizeof z1),
           "height/perm: keys (3,1,2,1) visit rows 1,3,2,0 (iterates of perm, bit for bit)");
        o.order = LCP_ORDER_HEIGHT;
        o.perm = NULL;
        ok(lcp_solve(lcp_solver_find("pgs"), &P, &o, z1, &i1) == LCP_ERR_ARG,
           "height/no-keys: order height without rowkey is an argument error");
        lcp_order ord;
        ok(lcp_order_parse("height", &ord) == LCP_OK && ord == LCP_ORDER_HEIGHT &&
               !strcmp(lcp_order_name(ord), "height"), "height/name: parses and names");
    } else ok(0, "height/perm: dense problem built");
    lcp_problem_free(&P);

    static double pn[90], ph[90], pr[90];
    int r = run_stack(LCP_ORDER_NATURAL, pn, 20) | run_stack(LCP_ORDER_HEIGHT, ph, 20) |
            run_stack(LCP_ORDER_REVERSE, pr, 20);
    ok(!r && !memcmp(pn, ph, sizeof pn), "height/stack: bottom-up equals the natural order "
                                         "on the column (20 steps, 15 sweeps)");
    ok(!r && memcmp(pr, ph, sizeof pr), "height/stack: and differs from the reverse order");
    static double s1[3 * 64], s2[3 * 64];
    int n1 = 0, n2 = 0;
    r = run_spheres(s1, &n1) | run_spheres(s2, &n2);
    ok(!r && n1 == 64 && n2 == 64 && !memcmp(s1, s2, sizeof s1),
       "height/determinism: spheres (64, 40 steps) twice, bit for bit");
    return tap_done();
}
