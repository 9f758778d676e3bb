/* scenes.h: the scene files' parameter tables and setup functions, listed once in the
 * registry of scenes.c (one file per scene). */
#ifndef PROB_SCENES_H
#define PROB_SCENES_H

#include "prob.h"

extern const prob_param prob_pool_params[], prob_pool_graded_params[], prob_stack_params[],
    prob_spheres_params[], prob_capsule_params[], prob_three_spheres_params[],
    prob_chain_params[], prob_pendulum_params[], prob_towed_params[], prob_hang_params[],
    prob_thread_params[], prob_slide_params[], prob_boxes_params[],
    prob_mass_ratio_params[], prob_links_params[], prob_silo_params[],
    prob_kapla_params[];

prob_setup_fn prob_setup_pool, prob_setup_pool_graded, prob_setup_stack, prob_setup_spheres,
    prob_setup_capsule, prob_setup_three_spheres, prob_setup_chain, prob_setup_pendulum,
    prob_setup_towed, prob_setup_hang, prob_setup_thread, prob_setup_slide,
    prob_setup_boxes, prob_setup_mass_ratio, prob_setup_links, prob_setup_silo,
    prob_setup_kapla;

/* beads.c: n (parameter) beads of the given masses on rigid links from the world origin,
 * along u turned by angle towards s, link angles offset by the seeded pert; parameters
 * n, len, rp, pert, seed, dim. */
lcp_status prob_beads(prob_world *W, const prob_params *P, const double u[3], const double s[3],
                      double angle, const double *mass, char *msg, size_t msglen);

#endif
