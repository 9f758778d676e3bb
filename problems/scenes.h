/* scenes.h: the scene files' parameter tables and setup functions, listed once in the
 * registry of scenes.c (one file per scene). */
#ifndef PROB_SCENES_H
#define PROB_SCENES_H

#include "prob.h"

extern const prob_param prob_pool_params[], prob_pool_graded_params[], prob_stack_params[],
    prob_spheres_params[], prob_capsule_params[], prob_three_spheres_params[],
    prob_chain_params[];

prob_setup_fn prob_setup_pool, prob_setup_pool_graded, prob_setup_stack, prob_setup_spheres,
    prob_setup_capsule, prob_setup_three_spheres, prob_setup_chain;

#endif
