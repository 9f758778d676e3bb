/* scene_boxes.c: boxes stacked face on face, 3D: a tower of n boxes or a wall of bricks.
 * The redundant contacts of box faces (issue: hard problem families).
 *
 * Each box rests on a face: the box-plane and box-box detection of collide_box.c gives four
 * contact points per face pair, so the four normal rows of a face pair have rank 3 (one
 * self-stress state per pair, and with friction 12 rows of rank 6: A is singular).
 * Chosen layout, all at rest, every contact present at step 1 (gap 0):
 *   tower (layers = 0, default): box i centred at (jitter (2u - 1), jitter (2u' - 1),
 *     hz + i (2 hz + gap)), u, u' from splitmix64(seed) (x then y, box by box);
 *   wall (layers >= 1): `layers' rows of bricks in running bond along x, row r at height
 *     hz + r (2 hz + gap), every row spanning |x| <= cols hx; even rows cols bricks at
 *     x_j = (j - (cols - 1)/2) 2 hx, odd rows cols - 1 bricks shifted by hx and a half brick
 *     (x extent hx/2, mass m/2) at each end, so that every brick rests on two, half on
 *     each, or fully on one; bricks of a row touch side to side (4 contacts per pair); each
 *     brick's y is jittered as the tower's.  A wall of layers 4 x cols 4 has 18 bricks.
 * Half extents hx 0.2, hy 0.2, hz 0.1 m (a 0.4 x 0.4 x 0.2 m box), mass 1 kg, inertia
 * m/3 (hy^2 + hz^2, hx^2 + hz^2, hx^2 + hy^2), mu 0.5 (box friction, two tangents: t1 = +x,
 * t2 = +y on horizontal faces), e 0, jitter 0.01 m, n 10; the floor z >= 0, no walls.
 * Solver: sweep cap 1000 (as `stack'): PGS carries a column's weight down about one contact
 * layer per sweep.
 * Errors: jitter must stay below hx/2 and hy/2 (a box must rest on the one below);
 * layers and cols are integers (cols >= 2 for a wall).  (Not `rows': meta.txt's rows
 * is the problem's row count.)
 * Cost: O(n) setup; detection O(N^2) over N boxes (collide_box.c).
 */
#include "prob_internal.h"
#include "scenes.h"

#include <stdio.h>

const prob_param prob_boxes_params[] = {
    {"n", 10, PROB_COUNT, "boxes in the tower (layers = 0)"},
    {"layers", 0, PROB_NONNEG, "rows (courses) of the wall (0: a tower of n boxes)"},
    {"cols", 5, PROB_COUNT, "bricks in an even row of the wall (odd: cols - 1 and 2 halves)"},
    {"hx", 0.2, PROB_POS, "half extent along x (m)"},
    {"hy", 0.2, PROB_POS, "half extent along y (m)"},
    {"hz", 0.1, PROB_POS, "half extent along z, the height (m)"},
    {"m", 1.0, PROB_POS, "box mass (kg)"},
    {"mu", 0.5, PROB_NONNEG, "friction coefficient"},
    {"e", 0.0, PROB_UNIT, "restitution"},
    {"jitter", 0.01, PROB_NONNEG, "horizontal offset amplitude (m; tower x and y, wall y)"},
    {"gap", 0.0, PROB_NONNEG, "vertical gap between rows (m)"},
    {"iters", 1000, PROB_COUNT, "solver sweep cap per step (lcpbench --iters)"},
    {NULL, 0, PROB_REAL, NULL},
};

/* centre of box i (tower, layers 0, or wall) and the factor of its x extent (1, or 1/2 for
 * the half bricks at the ends of the odd rows) */
static double place(const prob_params *P, int i, uint64_t *rng, double pos[3])
{
    int rows = (int)prob_param_get(P, "layers"), cols = (int)prob_param_get(P, "cols");
    double hx = prob_param_get(P, "hx"), hz = prob_param_get(P, "hz");
    double jit = prob_param_get(P, "jitter"), pitch = 2 * hz + prob_param_get(P, "gap");
    double ux = lcp_rng_uniform(rng), uy = lcp_rng_uniform(rng);
    if (rows == 0) {
        pos[0] = jit * (2 * ux - 1);
        pos[1] = jit * (2 * uy - 1);
        pos[2] = hz + i * pitch;
        return 1.0;
    }
    int pair = 2 * cols + 1, r = 2 * (i / pair), j = i % pair;   /* rows of cols, cols + 1 */
    if (j >= cols) r++, j -= cols;
    double f = 1.0;
    pos[0] = -cols * hx + hx + 2 * hx * j;                        /* even row: full bricks */
    if (r % 2) {
        pos[0] = -cols * hx + 2 * hx * j;                         /* odd: shifted by hx */
        if (j == 0 || j == cols) f = 0.5;
        if (j == 0) pos[0] = -cols * hx + 0.5 * hx;
        if (j == cols) pos[0] = cols * hx - 0.5 * hx;
    }
    pos[1] = jit * (2 * uy - 1);
    pos[2] = hz + r * pitch;
    return f;
}

/* bricks in a wall of `rows' rows */
static int wall_count(int rows, int cols)
{
    return (rows / 2) * (2 * cols + 1) + (rows % 2) * cols;
}

lcp_status prob_setup_boxes(prob_world *W, const prob_params *P, char *msg, size_t msglen)
{
    double rows = prob_param_get(P, "layers"), cols = prob_param_get(P, "cols");
    double h[3] = {prob_param_get(P, "hx"), prob_param_get(P, "hy"), prob_param_get(P, "hz")};
    double m = prob_param_get(P, "m"), jit = prob_param_get(P, "jitter");
    if (rows != floor(rows) || rows > 1e4 || (rows > 0 && cols < 2)) {
        snprintf(msg, msglen, "parameter layers = %g, cols = %g: layers an integer >= 0, cols >= 2 "
                 "for a wall", rows, cols);
        return LCP_ERR_ARG;
    }
    if (jit >= 0.5 * fmin(h[0], h[1])) {
        snprintf(msg, msglen, "scene does not fit: jitter %g must be below min(hx, hy)/2 = %g",
                 jit, 0.5 * fmin(h[0], h[1]));
        return LCP_ERR_ARG;
    }
    int n = rows > 0 ? wall_count((int)rows, (int)cols) : (int)prob_param_get(P, "n");
    lcp_status st = prob_world_init(W, 3, n);
    uint64_t rng = (uint64_t)prob_param_get(P, "seed");
    for (int i = 0; i < n && st == LCP_OK; i++) {
        double pos[3], f = place(P, i, &rng, pos), mi = f * m;
        double b[3] = {f * h[0], h[1], h[2]};
        double Ib[9] = {mi / 3 * (b[1] * b[1] + b[2] * b[2]), 0, 0,  /* m/3 (hy^2 + hz^2) */
                        0, mi / 3 * (b[0] * b[0] + b[2] * b[2]), 0,
                        0, 0, mi / 3 * (b[0] * b[0] + b[1] * b[1])};
        st = prob_body_set(W, i, pos, mi, Ib, 0.0);
        if (st == LCP_OK) st = prob_add_box(W, i, b);
    }
    double up[3] = {0, 0, 1};
    if (st == LCP_OK) st = prob_add_plane(W, up, 0.0);
    W->notes = rows > 0 ? "wall: running bond along x, odd rows cols - 1 bricks shifted hx "
                          "between two half bricks, seeded y jitter, at rest on z = 0"
                        : "tower: box i at height hz + i (2 hz + gap), seeded x, y jitter, at "
                          "rest on z = 0";
    return st;
}
