/* makeworld.h: a scene's world from "key=value" parameters, for the scene tests
 * (test_problems, test_transversal); errors go to a TAP diagnostic line. */
#ifndef LCP_MAKEWORLD_H
#define LCP_MAKEWORLD_H

#include "prob.h"
#include "tap.h"

static inline int make(prob_world *W, const char *scene, const char *const *kv)
{
    const prob_scene *s = prob_scene_find(scene);
    prob_params P;
    char msg[512];
    if (!s) return -1;
    prob_params_default(s, &P);
    for (; kv && *kv; kv++)
        if (prob_params_set(&P, *kv, msg, sizeof msg) != LCP_OK) {
            tap_diag("%s: %s", scene, msg);
            return -1;
        }
    if (prob_world_create(W, s, &P, msg, sizeof msg) != LCP_OK) {
        tap_diag("%s: %s", scene, msg);
        return -1;
    }
    return 0;
}

#endif
