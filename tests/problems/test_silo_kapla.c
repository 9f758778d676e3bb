/* test_silo_kapla.c: the hard-family scenes `silo' and `kapla' (problems/README.md,
 * "Scenes"), as TAP, under each scene's default solver (pgs, 1000 sweeps, tol 1e-8):
 *   silo/contained      no disk leaves the container (|x| <= width/2, y >= 0, by more than
 *                       10% of r) over the steps
 *   silo/penetration    the largest penetration of the last 50 steps below 1% of r (the
 *                       square columns buckle into a granular packing in the first 40
 *                       steps, at up to 45% of r: printed)
 *   silo/settles        the kinetic energy of the last 50 steps below 1% of its peak
 *   kapla/stands        every plate's drift below 2 mm and tilt below 0.05 rad
 *   kapla/penetration   the largest penetration below 25% of ht
 *   kapla/crossings     16 contacts per layer above the first (4 crossings of 4) and 8 on
 *                       the floor, at step 1
 *   determinism         two runs of each give bit-identical states
 */
#include "prob.h"
#include "makeworld.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void silo(const char *name, const char *const *kv, int nstep)
{
    prob_world W;
    prob_step_info info;
    int good = make(&W, "silo", kv) == 0;
    double r = good ? prob_param_get(&W.params, "r") : 1, out = 0, pen = 0, peak = 0, late = 0;
    double pen_late = 0;
    double half = good ? -W.plane[1].d : 0;          /* the left wall: x >= -width/2 */
    for (int t = 1; t <= nstep && good; t++) {
        good = step(&W, NULL, NULL, &info) == 0;
        pen = fmax(pen, info.max_penetration);
        peak = fmax(peak, info.kinetic_energy);
        if (t > nstep - 50) late = fmax(late, info.kinetic_energy);
        if (t > nstep - 50) pen_late = fmax(pen_late, info.max_penetration);
        for (int k = 0; k < W.nb; k++) {
            const double *x = W.pos + 3 * k;
            out = fmax(out, fmax(fabs(x[0]) - half, -x[1]));
        }
    }
    ok(good && out < 0.1 * r, "silo/%s/contained (worst %.3g m outside the centre line)", name,
       out);
    ok(good && pen_late < 0.01 * r,
       "silo/%s/settled-penetration-below-1%%-r (%.3g m in the last 50 steps, %.3g m at most)",
       name, pen_late, pen);
    ok(good && late < 1e-2 * peak,
       "silo/%s/settles (KE of the last 50 steps %.3g J, peak %.3g J)", name, late, peak);
    prob_world_free(&W);
}

static void kapla(const char *name, const char *const *kv, int nstep)
{
    prob_world W;
    prob_step_info info;
    int good = make(&W, "kapla", kv) == 0, layers = (int)prob_param_get(&W.params, "layers");
    double ht = prob_param_get(&W.params, "ht"), drift = 0, tilt = 0, pen = 0;
    double x0[3 * 64];
    int nb = good ? W.nb : 0, contacts1 = 0;
    if (nb > 64) nb = 64;
    if (good) memcpy(x0, W.pos, 3 * sizeof(double) * (size_t)nb);
    for (int t = 1; t <= nstep && good; t++) {
        good = step(&W, NULL, NULL, &info) == 0;
        if (t == 1) contacts1 = info.contacts;
        pen = fmax(pen, info.max_penetration);
        for (int k = 0; k < nb; k++) {
            const double *q = W.rot + 4 * k;
            drift = fmax(drift, hypot(W.pos[3 * k] - x0[3 * k], W.pos[3 * k + 1] - x0[3 * k + 1]));
            tilt = fmax(tilt, acos(fmin(1.0, 1 - 2 * (q[1] * q[1] + q[2] * q[2]))));
        }
    }
    ok(good && drift < 2e-3 && tilt < 0.05,
       "kapla/%s/stands-%d-steps (drift %.3g m, tilt %.3g rad)", name, nstep, drift, tilt);
    ok(good && pen < 0.25 * ht, "kapla/%s/penetration-below-25%%-ht (%.3g m)", name, pen);
    ok(good && contacts1 == 8 + 16 * (layers - 1),
       "kapla/%s/crossings-4-contacts-each (%d contacts at step 1, %d expected)", name,
       contacts1, 8 + 16 * (layers - 1));
    prob_world_free(&W);
}

static void determinism(const char *scene, const char *const *kv)
{
    prob_world A, B;
    prob_step_info info;
    int good = make(&A, scene, kv) == 0 && make(&B, scene, kv) == 0;
    for (int t = 0; t < 100 && good; t++)
        good = step(&A, NULL, NULL, &info) == 0 && step(&B, NULL, NULL, &info) == 0;
    good = good && memcmp(A.pos, B.pos, 3 * sizeof(double) * (size_t)A.nb) == 0 &&
           memcmp(A.vel, B.vel, (size_t)A.ndof * sizeof(double) * (size_t)A.nb) == 0;
    ok(good, "determinism/%s-bit-identical-100-steps", scene);
    prob_world_free(&A);
    prob_world_free(&B);
}

int main(void)
{
    const char *s60[] = {"n=36", "cols=3", NULL}, *k3[] = {"layers=3", NULL};
    silo("36-in-3", s60, 300);
    kapla("default-6", NULL, 150);
    kapla("3-layers", k3, 150);
    determinism("silo", s60);
    determinism("kapla", k3);
    return tap_done();
}
