/* capture.c: a scene's world from "key=value" parameters, and the problems of chosen steps
 * captured in memory (problems/README.md, "Scenes and capture"): the one path by which the
 * tables (bench/grid, bench/tables), the regime analysis and the Python module's
 * lcpbench.capture (lcp/python/) step a scene and keep its LCPs; `lcpbench capture' writes
 * the same problems of the same steps as instance folders through its own hook.
 *
 *   prob_scene_world    prob_scene_find, prob_params_default, prob_params_set per "k=v",
 *                       prob_world_create
 *   prob_problem_copy   a deep copy of an lcp_problem (every array and meta)
 *   prob_capture_steps  step once up to the last wanted step, copying the problem of each
 *                       wanted step (before its solve: z0 = the stepper's warm start)
 *
 * Cost: the steps themselves plus one copy per captured step (with PROB_CAPTURE_DESCRIPTORS
 * also the descriptors' dense ranks, prob_descriptors).
 */
#include "prob.h"

#include "lcp_alloc.h"

#include <stdio.h>
#include <string.h>

lcp_status prob_scene_world(prob_world *W, const char *scene, int nkv, const char *const *kv,
                            char *msg, size_t msglen)
{
    memset(W, 0, sizeof *W);
    if (msg && msglen) msg[0] = 0;
    const prob_scene *sc = scene ? prob_scene_find(scene) : NULL;
    if (!sc) {
        snprintf(msg, msglen, "unknown scene '%s'", scene ? scene : "");
        return LCP_ERR_ARG;
    }
    prob_params par;
    prob_params_default(sc, &par);
    for (int k = 0; k < nkv; k++) {
        lcp_status st = prob_params_set(&par, kv[k], msg, msglen);
        if (st != LCP_OK) return st;
    }
    lcp_status st = prob_world_create(W, sc, &par, msg, msglen);
    if (st != LCP_OK) prob_world_free(W);
    return st;
}

/* *dst = a copy of bytes bytes of src (NULL when src is NULL); -1 when out of memory */
static int dup(void *dst, const void *src, size_t bytes)
{
    void **d = dst;
    *d = NULL;
    if (!src) return 0;
    *d = lcp_malloc(bytes ? bytes : 1, 1);
    if (!*d) return -1;
    memcpy(*d, src, bytes);
    return 0;
}

lcp_status prob_problem_copy(const lcp_problem *P, lcp_problem *Q)
{
    lcp_problem_init(Q);
    size_t m = (size_t)P->m, dm = m * sizeof(double);
    Q->m = P->m;
    Q->n = P->n;
    Q->symmetric = P->symmetric;
    int bad = P->A.p && lcp_csr_copy(&P->A, &Q->A) != LCP_OK;
    if (P->J.p) bad |= lcp_csr_copy(&P->J, &Q->J) != LCP_OK;
    if (P->Minv.p) bad |= lcp_csr_copy(&P->Minv, &Q->Minv) != LCP_OK;
    bad |= dup(&Q->q, P->q, dm) | dup(&Q->lo, P->lo, dm) | dup(&Q->hi, P->hi, dm);
    bad |= dup(&Q->findex, P->findex, m * sizeof(int)) | dup(&Q->E, P->E, dm);
    bad |= dup(&Q->z0, P->z0, dm) | dup(&Q->zref, P->zref, dm);
    bad |= dup(&Q->meta, P->meta, P->meta ? strlen(P->meta) + 1 : 0);
    if (bad) {
        lcp_problem_free(Q);
        return LCP_ERR_NOMEM;
    }
    return LCP_OK;
}

typedef struct steps_ctx {
    int n, done;
    const int *steps;
    lcp_problem *out;
    unsigned flags;
} steps_ctx;

static lcp_status steps_hook(void *vctx, const prob_world *W, const lcp_problem *P, int step)
{
    steps_ctx *c = vctx;
    if (c->done >= c->n || step != c->steps[c->done]) return LCP_OK;
    lcp_status st = prob_problem_copy(P, &c->out[c->done]);
    if (st == LCP_OK && (c->flags & PROB_CAPTURE_DESCRIPTORS)) { /* as `lcpbench capture' */
        char *meta = prob_meta_descriptors(W, P);
        if (!meta) st = LCP_ERR_NOMEM;
        lcp_free(c->out[c->done].meta);
        c->out[c->done].meta = meta;
    }
    if (st == LCP_OK) c->done++;
    return st;
}

lcp_status prob_capture_steps(const char *scene, int nkv, const char *const *kv,
                              const char *solver, unsigned flags, int nstep, const int *steps,
                              lcp_problem *out, char *msg, size_t msglen)
{
    prob_world W;
    for (int k = 0; k < nstep; k++) lcp_problem_init(&out[k]);
    for (int k = 0; k < nstep; k++)
        if (steps[k] < 1 || (k > 0 && steps[k] <= steps[k - 1])) {
            snprintf(msg, msglen, "steps must be increasing and from 1 (step %d)", steps[k]);
            return LCP_ERR_ARG;
        }
    if (!prob_scene_find(scene)) {
        snprintf(msg, msglen, "unknown scene '%s' (lcpbench list scenes)", scene);
        return LCP_ERR_ARG;
    }
    char why[1024];
    lcp_status st = prob_scene_world(&W, scene, nkv, kv, why, sizeof why);
    if (st != LCP_OK) {
        snprintf(msg, msglen, "%s: %s", scene, why);
        return st;
    }
    if (solver && prob_world_set_solver(&W, solver, W.opt.max_iter, W.opt.tol) != LCP_OK) {
        snprintf(msg, msglen, "cannot use solver '%s'", solver);
        prob_world_free(&W);
        return LCP_ERR_ARG;
    }
    steps_ctx c = {nstep, 0, steps, out, flags};
    int last = nstep > 0 ? steps[nstep - 1] : 0;
    for (int t = 1; t <= last && st == LCP_OK; t++) {
        prob_step_info info;
        st = prob_step(&W, steps_hook, &c, &info, why, sizeof why);
        if (st != LCP_OK) snprintf(msg, msglen, "%s: %s", scene, why);
        if (st == LCP_OK && c.done < nstep && steps[c.done] == t) { /* no rows: nothing seen */
            snprintf(msg, msglen, "%s step %d has no constraints: nothing to capture", scene, t);
            st = LCP_ERR_ARG;
        }
    }
    prob_world_free(&W);
    if (st != LCP_OK)
        for (int k = 0; k < nstep; k++) lcp_problem_free(&out[k]);
    return st;
}
