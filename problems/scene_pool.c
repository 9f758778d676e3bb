/* scene_pool.c: "Pool 1" and "Pool 2" of the AMGS paper (Miyamoto et al. 2019), 2D.
 *
 * Disks (3 dof each: n = 3 * 221 = 663) are stuffed into a container 6 m wide (a floor
 * y >= 0 and two walls |x| <= width/2, open at the top) and fall and settle under gravity.
 *
 * Chosen layout (the paper leaves it open; fixed here, results depend on it):
 *   disk i sits in row i / cols and column i % cols of a grid, column pitch sx = width/cols,
 *   x = -width/2 + (col + 1/2) sx + jitter (2u - 1),   u uniform [0,1) from splitmix64(seed)
 *   y = r + lift + row * dy,   theta = 0;  221 = 13 columns x 17 rows;
 *   initial velocity (vjit (2u - 1), vjit (2u - 1)) so that the columns mix as they fall
 *   (u drawn per disk after its x jitter, in disk order).
 *   Defaults: width 6, cols 13, dy 0.45, lift 0.01, jitter 0.02, vjit 1, seed 1; r 0.21, m 2,
 *   mu 0.1, e 0.2, inertia m r^2 / 2.
 * pool-graded: masses grow linearly with the initial height, from m_lo (lowest row) to
 *   m_hi (highest row): m = m_lo + (m_hi - m_lo) (y - y_min) / (y_max - y_min).
 * Errors: the grid must fit (sx >= 2 r + 2 jitter) and rows must not overlap (dy >= 2 r).
 * Cost: O(n).
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

#define POOL_COMMON                                                                        \
    {"n", 221, PROB_COUNT, "number of disks"},                                             \
        {"r", 0.21, PROB_POS, "disk radius (m)"},                                          \
        {"mu", 0.1, PROB_NONNEG, "friction coefficient"},                                  \
        {"e", 0.2, PROB_UNIT, "restitution"},                                              \
        {"width", 6.0, PROB_POS, "container width (m)"},                                   \
        {"cols", 13, PROB_COUNT, "disks per row of the initial grid"},                     \
        {"dy", 0.45, PROB_POS, "row pitch of the initial grid (m)"},                       \
        {"lift", 0.01, PROB_NONNEG, "gap under the lowest row (m)"},                       \
        {"jitter", 0.02, PROB_NONNEG, "horizontal jitter amplitude (m)"},                  \
        {"vjit", 1.0, PROB_NONNEG, "initial velocity jitter amplitude, x and y (m/s)"}

const prob_param prob_pool_params[] = {
    POOL_COMMON,
    {"m", 2.0, PROB_POS, "disk mass (kg)"},
    {NULL, 0, PROB_REAL, NULL},
};

const prob_param prob_pool_graded_params[] = {
    POOL_COMMON,
    {"m_lo", 1.0, PROB_POS, "mass of the lowest disks (kg)"},
    {"m_hi", 3.0, PROB_POS, "mass of the highest disks (kg)"},
    {NULL, 0, PROB_REAL, NULL},
};

static lcp_status pool(prob_world *W, const prob_params *P, int graded, char *msg,
                       size_t msglen)
{
    int n = (int)prob_param_get(P, "n"), cols = (int)prob_param_get(P, "cols");
    double r = prob_param_get(P, "r"), width = prob_param_get(P, "width");
    double dy = prob_param_get(P, "dy"), lift = prob_param_get(P, "lift");
    double jitter = prob_param_get(P, "jitter"), vjit = prob_param_get(P, "vjit");
    double sx = width / cols;
    if (sx < 2 * r + 2 * jitter) {
        snprintf(msg, msglen,
                 "scene does not fit: %d columns of disks r = %g (jitter %g) need width >= %g, "
                 "have %g",
                 cols, r, jitter, cols * (2 * r + 2 * jitter), width);
        return LCP_ERR_ARG;
    }
    if (dy < 2 * r) {
        snprintf(msg, msglen, "scene does not fit: row pitch dy = %g < disk diameter %g", dy,
                 2 * r);
        return LCP_ERR_ARG;
    }
    double m_lo = graded ? prob_param_get(P, "m_lo") : prob_param_get(P, "m");
    double m_hi = graded ? prob_param_get(P, "m_hi") : m_lo;
    lcp_status st = prob_world_init(W, 2, n);
    if (st != LCP_OK) return st;
    uint64_t rng = (uint64_t)prob_param_get(P, "seed");
    int rows = (n + cols - 1) / cols;
    double zero[3] = {0, 0, 0};
    for (int i = 0; i < n && st == LCP_OK; i++) {
        int row = i / cols, col = i % cols;
        double u = lcp_rng_uniform(&rng);
        double pos[3] = {-0.5 * width + (col + 0.5) * sx + jitter * (2 * u - 1),
                         r + lift + row * dy, 0.0};
        double t = rows > 1 ? (double)row / (rows - 1) : 0.0;  /* (y - y_min)/(y_max - y_min) */
        double m = m_lo + (m_hi - m_lo) * t;
        st = prob_body_set(W, i, pos, m, NULL, 0.5 * m * r * r); /* I = m r^2 / 2 */
        W->vel[3 * i] = vjit * (2 * lcp_rng_uniform(&rng) - 1);
        W->vel[3 * i + 1] = vjit * (2 * lcp_rng_uniform(&rng) - 1);
        if (st == LCP_OK) st = prob_add_geom(W, i, zero, zero, r);
    }
    double floor_n[3] = {0, 1, 0}, left[3] = {1, 0, 0}, right[3] = {-1, 0, 0};
    if (st == LCP_OK) st = prob_add_plane(W, floor_n, 0.0);
    if (st == LCP_OK) st = prob_add_plane(W, left, -0.5 * width);
    if (st == LCP_OK) st = prob_add_plane(W, right, -0.5 * width);
    W->notes = graded ? "grid of cols x rows disks, seeded horizontal jitter, falling with seeded "
                        "random velocities into a floor and two walls; mass linear in the initial row"
                      : "grid of cols x rows disks, seeded horizontal jitter, falling with seeded "
                        "random velocities into a floor and two walls";
    return st;
}

lcp_status prob_setup_pool(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    return pool(W, P, 0, msg, msglen);
}

lcp_status prob_setup_pool_graded(prob_world *W, const prob_params *P, char *msg,
                                  size_t msglen)
{
    return pool(W, P, 1, msg, msglen);
}
