/* makeworld.h: a scene's world from "key=value" parameters, and one step of it, for the
 * scene tests (test_problems, test_transversal, test_boxes); errors go to a TAP diagnostic
 * line. */
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

/* one prob_step: 0, or -1 with the message as a TAP diagnostic */
static inline int step(prob_world *W, prob_hook_fn *hook, void *ctx, prob_step_info *info)
{
    char msg[512];
    lcp_status st = prob_step(W, hook, ctx, info, msg, sizeof msg);
    if (st != LCP_OK) tap_diag("step failed: %s", msg);
    return st == LCP_OK ? 0 : -1;
}

#endif
