/* sim.c: whole simulations as the AMGS tables run them (amgs-table2, amgs-figures): a
 * scene stepped with one solver at a fixed or capped sweep budget, the solve timed around
 * lcp_solve only, and the physical state at the end (kinetic energy, contacts, penetration,
 * whether a stack stands), in the form the kit's one comparability rule reads
 * (bench_sim_state, bench_state_comparable).
 * Cost: steps x (collision + assembly + the solve). */
#include "grid.h"
#include "prob.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_sim_run(const char *scene, int nkv, const char *const *kv, const char *solver,
                  double beta, int steps, int iters, double tol, double *res, bench_sim_out *o,
                  char *msg, size_t msglen)
{
    memset(o, 0, sizeof *o);
    o->last_res = NAN;
    o->ke_end = NAN;
    o->stands = -1;
    prob_world W;
    if (prob_scene_world(&W, scene, nkv, kv, msg, msglen) != 0) return -1;
    if (prob_world_set_solver(&W, solver, iters, tol) != LCP_OK) {
        if (!msg[0]) snprintf(msg, msglen, "%s: cannot set the solver %s", scene, solver);
        prob_world_free(&W);
        return -1;
    }
    if (strcmp(solver, "pgs") != 0) {
        W.opt.beta = beta;
        W.opt.gamma = 1.0;
    }
    int stack = strcmp(scene, "stack") == 0 && W.nb > 0;
    double *x0 = stack ? lcp_malloc((size_t)W.nb * 3, sizeof(double)) : NULL;
    if (stack && !x0) {
        snprintf(msg, msglen, "out of memory");
        prob_world_free(&W);
        return -1;
    }
    if (x0) memcpy(x0, W.pos, (size_t)W.nb * 3 * sizeof(double));
    int rc = 0;
    double csum = 0;
    for (int t = 1; t <= steps; t++) {
        prob_step_info info;
        if (prob_step(&W, NULL, NULL, &info, msg, msglen) != LCP_OK) {
            rc = -1;
            break;
        }
        o->t_solve += info.t_solve;   /* the lcp_solve call only (problems/step.c) */
        o->sweeps += info.iterations;
        o->steps_rows += info.rows > 0;
        o->last_res = info.residual;
        o->ke_end = info.kinetic_energy;
        o->contacts_end = info.contacts;
        csum += info.contacts;
        if (2 * t > steps && info.max_penetration > o->pen_max)
            o->pen_max = info.max_penetration;
        if (res) res[t - 1] = info.rows > 0 ? info.residual : NAN;
        o->steps = t;
    }
    o->contacts_mean = o->steps ? csum / o->steps : 0.0;
    if (x0) {
        double r = prob_param_get(&W.params, "r");
        int top = 0;
        o->stands = 1;
        for (int k = 0; k < W.nb; k++) {
            if (fabs(W.pos[3 * k] - x0[3 * k]) > 0.5 * r) o->stands = 0;
            if (x0[3 * k + 1] > x0[3 * top + 1]) top = k;
        }
        if (fabs(W.pos[3 * top + 1] - x0[3 * top + 1]) > 0.5 * r) o->stands = 0;
        double pe = 0;   /* the energy of lifting every disk by r */
        for (int k = 0; k < W.nb; k++)
            pe += W.mass[k] * r * sqrt(W.gravity[0] * W.gravity[0] +
                                       W.gravity[1] * W.gravity[1]);
        if (!(o->ke_end <= 0.01 * pe)) o->stands = 0;
        lcp_free(x0);
    }
    bench_sim_state(&W, o->contacts_mean, o->stands, &o->state);
    if (rc) o->state.ke = NAN;
    prob_world_free(&W);
    return rc;
}

void bench_sim_state(const prob_world *W, double contacts_mean, int stands, bench_state *s)
{
    double g = sqrt(W->gravity[0] * W->gravity[0] + W->gravity[1] * W->gravity[1] +
                    W->gravity[2] * W->gravity[2]);
    double r = prob_param_get(&W->params, "r"), mass = 0, mh = 0;
    s->ke = prob_kinetic_energy(W);
    s->r = isfinite(r) && r > 0 ? r : 0;
    s->escale = 0;
    for (int k = 0; k < W->nb; k++) {
        if (!(W->mass[k] > 0 && isfinite(W->mass[k]))) continue;   /* a fixed body */
        double h = 0;   /* height against gravity: -g . pos / |g| */
        for (int d = 0; d < 3; d++) h -= W->gravity[d] * W->pos[3 * k + d];
        if (g > 0) h /= g;
        mass += W->mass[k];
        mh += W->mass[k] * h;
        s->escale += W->mass[k] * g * s->r;                      /* E = sum m |g| r */
    }
    s->height = mass > 0 ? mh / mass : 0;
    s->contacts = contacts_mean;
    s->stands = stands;
}
