/* scene_links.c: a chain of rigid links joined by pins (bilateral rows) with angle limits
 * (unilateral rows), hanging from a point or draped over a fixed disk, 2D (issue: hard
 * problem families, the jointed-chain family).
 *
 * Link i (0..n-1) is a rod of length len, mass m, inertia m len^2 / 12, with one collision
 * disk of radius r at its centre (2 r < len: neighbours never touch).  Link i's end
 * (len/2, 0) is pinned to link i + 1's start (-len/2, 0): two PROB_JOINT_AXIS rows along
 * x and y; the relative angle of neighbours is kept in [-limit, limit] by two
 * PROB_JOINT_LIMIT rows, present only in the steps where the limit may be reached
 * (problems/prob.h).  Chosen layouts, at rest:
 *   pose 0 (hanging, default): link i centred at ((i + 1/2) len, 0), level; link 0's start
 *     pinned to the world origin (no limit there): the chain swings down, folds against
 *     its limits and whips; no floor.
 *   pose 1 (draped): a fixed disk of radius R at the origin (body n, mass m, pinned to the
 *     world at its centre and its angle locked: 3 bilateral rows), the chain
 *     level above it, centred at x = offset, the middle link touching (centres at height
 *     R + r); it falls on the disk and drapes over it (friction mu), the limits bounding the
 *     curvature.
 * Defaults: n 10 links (2 to 200), len 0.1 m, m 0.1 kg, r 0.02 m, limit 0.5 rad, R 0.25 m,
 * offset 0.02 m, mu 0.3, e 0, h 1/240 s, d 2, sweep cap 1000.  (h 1/240 and d 2: the pins'
 * error of a velocity-level step grows as (h omega)^2 len / 2 at the whip.)
 * Rows: 2 (n - 1) pin rows (+ 2 at the anchor, hanging; + 3 for the disk, draped), the
 * limit rows within reach, contact rows with the disk.
 * Errors: n below 2 or above 200, 2 r >= len, limit not in (0, pi), pose not 0 or 1.
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

const prob_param prob_links_params[] = {
    {"n", 10, PROB_COUNT, "number of links (2 to 200)"},
    {"pose", 0, PROB_NONNEG, "0: hanging from the origin, released level; 1: draped over a disk"},
    {"len", 0.1, PROB_POS, "link length, pin to pin (m)"},
    {"m", 0.1, PROB_POS, "link mass (kg); also the fixed disk's"},
    {"r", 0.02, PROB_POS, "radius of the collision disk at each link's centre (m)"},
    {"limit", 0.5, PROB_POS, "bound of the relative angle of neighbouring links (rad)"},
    {"R", 0.25, PROB_POS, "radius of the fixed disk (pose 1; m)"},
    {"offset", 0.02, PROB_REAL, "x of the draped chain's centre (pose 1; m)"},
    {"mu", 0.3, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"h", 1.0 / 480.0, PROB_POS, "time step (s)"},
    {"d", 2.0, PROB_NONNEG, "SPOOK relaxation d = tau / h (steps)"},
    {"iters", 1000, PROB_COUNT, "solver sweep cap per step (lcpbench --iters)"},
    {NULL, 0, PROB_REAL, NULL},
};

lcp_status prob_setup_links(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    double nd = prob_param_get(P, "n"), pose = prob_param_get(P, "pose");
    double len = prob_param_get(P, "len"), m = prob_param_get(P, "m");
    double r = prob_param_get(P, "r"), lim = prob_param_get(P, "limit");
    double Rd = prob_param_get(P, "R"), off = prob_param_get(P, "offset");
    if (nd < 2 || nd > 200 || (pose != 0.0 && pose != 1.0) || !(lim < 3.141592653589793)) {
        snprintf(msg, msglen, "parameter n = %g, pose = %g, limit = %g: n in 2..200, pose 0 "
                 "or 1, limit in (0, pi)", nd, pose, lim);
        return LCP_ERR_ARG;
    }
    if (2 * r >= len) {
        snprintf(msg, msglen, "scene does not fit: 2 r = %g must be below len = %g", 2 * r, len);
        return LCP_ERR_ARG;
    }
    int n = (int)nd, draped = pose == 1.0;
    lcp_status st = prob_world_init(W, 2, n + draped);
    double zero[3] = {0, 0, 0}, end[3] = {0.5 * len, 0, 0}, start[3] = {-0.5 * len, 0, 0};
    for (int i = 0; i < n && st == LCP_OK; i++) {
        double pos[3] = {(i + 0.5) * len, 0.0, 0.0};
        if (draped) pos[0] = off + (i - 0.5 * (n - 1)) * len, pos[1] = Rd + r;
        st = prob_body_set(W, i, pos, m, NULL, m * len * len / 12.0);  /* rod */
        if (st == LCP_OK) st = prob_add_geom(W, i, zero, zero, r);
    }
    if (st == LCP_OK && !draped) st = prob_add_pin(W, 0, -1, start, zero);   /* anchor */
    for (int i = 0; i + 1 < n && st == LCP_OK; i++) {
        st = prob_add_pin(W, i + 1, i, start, end);        /* start of i + 1 on end of i */
        if (st == LCP_OK) st = prob_add_limit(W, i + 1, i, -lim, lim);
    }
    if (st == LCP_OK && draped) {                           /* the fixed disk, body n */
        st = prob_body_set(W, n, zero, m, NULL, 0.5 * m * Rd * Rd);
        if (st == LCP_OK) st = prob_add_geom(W, n, zero, zero, Rd);
        if (st == LCP_OK) st = prob_add_pin(W, n, -1, zero, zero);
        if (st == LCP_OK) st = prob_add_limit(W, n, -1, 0.0, 0.0);
    }
    W->notes = draped ? "draped: links level at height R + r centred at x = offset above a "
                        "disk pinned and locked at the origin, at rest"
                      : "hanging: link 0 pinned to the origin, link i centred at "
                        "((i + 1/2) len, 0), level, at rest, no floor";
    return st;
}
