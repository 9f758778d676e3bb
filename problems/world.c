/* world.c: building a world of the stepper (prob.h): allocation with the stepper defaults,
 * bodies (mass, body-frame inertia and its inverse), geometry, planes, joints, the solver
 * choice, and the kinetic energy
 *     KE = sum_k 1/2 m_k |v_k|^2 + 1/2 omega_k^T I_k omega_k,  I_k = R Ib R^T (3D).
 * Cost: O(bodies) memory, O(1) per call except the energy (O(bodies)).
 */
#include "prob_internal.h"

#include <stdlib.h>

lcp_status prob_world_init(prob_world *W, int dim, int nb)
{
    if (!W || (dim != 2 && dim != 3) || nb < 1) return LCP_ERR_ARG;
    memset(W, 0, sizeof *W);
    W->dim = dim;
    W->ndof = dim == 2 ? 3 : 6;
    W->nb = nb;
    size_t n = (size_t)nb;
    W->pos = lcp_calloc(3 * n, sizeof(double));
    W->rot = lcp_calloc(4 * n, sizeof(double));
    W->vel = lcp_calloc((size_t)W->ndof * n, sizeof(double));
    W->mass = lcp_calloc(n, sizeof(double));
    W->Ib = lcp_calloc(9 * n, sizeof(double));
    W->Ibinv = lcp_calloc(9 * n, sizeof(double));
    W->collide = lcp_calloc(n, 1);
    if (!W->pos || !W->rot || !W->vel || !W->mass || !W->Ib || !W->Ibinv || !W->collide) {
        prob_world_free(W);
        return LCP_ERR_NOMEM;
    }
    for (int k = 0; k < nb; k++) {
        if (dim == 3) W->rot[4 * k] = 1.0; /* identity quaternion; 2D theta = 0 */
        W->collide[k] = 1;
    }
    W->gravity[1 + (dim == 3)] = -9.80665; /* -y in 2D, -z in 3D */
    W->h = 1.0 / 60.0;
    W->d = 4.0;
    W->eps = 1e-6;
    W->margin = 1e-3;
    W->vrest = 0.5;
    W->poscorr = 1.0;
    W->mu = 0.0;
    W->e = 0.0;
    return prob_world_set_solver(W, "pgs", 100, 1e-8);
}

void prob_world_free(prob_world *W)
{
    if (!W) return;
    lcp_free(W->pos);
    lcp_free(W->rot);
    lcp_free(W->vel);
    lcp_free(W->mass);
    lcp_free(W->Ib);
    lcp_free(W->Ibinv);
    lcp_free(W->collide);
    lcp_free(W->geom);
    lcp_free(W->plane);
    lcp_free(W->joint);
    lcp_free(W->zj);
    lcp_free(W->c);
    lcp_free(W->force);
    memset(W, 0, sizeof *W);
}

/* inverse of a 3x3 matrix by cofactors; 0 on success, -1 when singular */
static int m3_inverse(const double M[9], double Mi[9])
{
    double c0 = M[4] * M[8] - M[5] * M[7];
    double c1 = M[5] * M[6] - M[3] * M[8];
    double c2 = M[3] * M[7] - M[4] * M[6];
    double det = M[0] * c0 + M[1] * c1 + M[2] * c2;
    if (!(fabs(det) > 0.0) || !isfinite(det)) return -1;
    double id = 1.0 / det;
    Mi[0] = c0 * id;
    Mi[1] = (M[2] * M[7] - M[1] * M[8]) * id;
    Mi[2] = (M[1] * M[5] - M[2] * M[4]) * id;
    Mi[3] = c1 * id;
    Mi[4] = (M[0] * M[8] - M[2] * M[6]) * id;
    Mi[5] = (M[2] * M[3] - M[0] * M[5]) * id;
    Mi[6] = c2 * id;
    Mi[7] = (M[1] * M[6] - M[0] * M[7]) * id;
    Mi[8] = (M[0] * M[4] - M[1] * M[3]) * id;
    return 0;
}

lcp_status prob_body_set(prob_world *W, int k, const double pos[3], double mass,
                         const double Ib[9], double Izz)
{
    if (!W || k < 0 || k >= W->nb || !pos || !(mass > 0.0) || !isfinite(mass))
        return LCP_ERR_ARG;
    memcpy(W->pos + 3 * k, pos, 3 * sizeof(double));
    W->mass[k] = mass;
    double *I = W->Ib + 9 * k, *Ii = W->Ibinv + 9 * k;
    memset(I, 0, 9 * sizeof(double));
    memset(Ii, 0, 9 * sizeof(double));
    if (W->dim == 2) {
        if (!(Izz > 0.0) || !isfinite(Izz)) return LCP_ERR_ARG;
        I[8] = Izz;
        Ii[8] = 1.0 / Izz;
        return LCP_OK;
    }
    if (!Ib) return LCP_ERR_ARG;
    memcpy(I, Ib, 9 * sizeof(double));
    if (I[1] == 0 && I[2] == 0 && I[3] == 0 && I[5] == 0 && I[6] == 0 && I[7] == 0) {
        if (!(I[0] > 0) || !(I[4] > 0) || !(I[8] > 0)) return LCP_ERR_ARG;
        Ii[0] = 1.0 / I[0]; /* diagonal inertia: exact reciprocals */
        Ii[4] = 1.0 / I[4];
        Ii[8] = 1.0 / I[8];
        return LCP_OK;
    }
    return m3_inverse(I, Ii) == 0 ? LCP_OK : LCP_ERR_ARG;
}

/* grow *arr (element size sz) to hold at least need elements; cap in *cap */
static lcp_status grow(void **arr, int *cap, int need, size_t sz)
{
    if (need <= *cap) return LCP_OK;
    int nc = *cap ? 2 * *cap : 8;
    while (nc < need) nc *= 2;
    void *p = lcp_realloc(*arr, (size_t)nc, sz);
    if (!p) return LCP_ERR_NOMEM;
    *arr = p;
    *cap = nc;
    return LCP_OK;
}

lcp_status prob_add_geom(prob_world *W, int body, const double a[3], const double b[3],
                         double r)
{
    if (!W || body < 0 || body >= W->nb || !a || !b || !(r > 0.0) || !isfinite(r))
        return LCP_ERR_ARG;
    lcp_status st = grow((void **)&W->geom, &W->caps[0], W->ng + 1, sizeof(prob_geom));
    if (st != LCP_OK) return st;
    prob_geom *g = &W->geom[W->ng++];
    g->body = body;
    memcpy(g->a, a, sizeof g->a);
    memcpy(g->b, b, sizeof g->b);
    g->r = r;
    memset(g->half, 0, sizeof g->half);
    return LCP_OK;
}

lcp_status prob_add_box(prob_world *W, int body, const double half[3])
{
    if (!W || W->dim != 3 || body < 0 || body >= W->nb || !half) return LCP_ERR_ARG;
    for (int i = 0; i < 3; i++)
        if (!(half[i] > 0.0) || !isfinite(half[i])) return LCP_ERR_ARG;
    lcp_status st = grow((void **)&W->geom, &W->caps[0], W->ng + 1, sizeof(prob_geom));
    if (st != LCP_OK) return st;
    prob_geom *g = &W->geom[W->ng++];
    memset(g, 0, sizeof *g);
    g->body = body;
    memcpy(g->half, half, sizeof g->half);
    return LCP_OK;
}

lcp_status prob_add_plane(prob_world *W, const double n[3], double d)
{
    if (!W || !n || !isfinite(d)) return LCP_ERR_ARG;
    double len = sqrt(v3_dot(n, n));
    if (!(len > 0.0)) return LCP_ERR_ARG;
    lcp_status st = grow((void **)&W->plane, &W->caps[1], W->npl + 1, sizeof(prob_plane));
    if (st != LCP_OK) return st;
    prob_plane *p = &W->plane[W->npl++];
    for (int i = 0; i < 3; i++) p->n[i] = n[i] / len;
    p->d = d;
    return LCP_OK;
}

/* one joint of kind k with the given u and len (prob_add_joint, prob_add_pin, prob_add_limit) */
static lcp_status add_kind(prob_world *W, int a, int b, const double pa[3],
                           const double pb[3], int kind, const double u[3], double len)
{
    lcp_status st = grow((void **)&W->joint, &W->caps[2], W->nj + 1, sizeof(prob_joint));
    int cap = W->caps[3];
    if (st == LCP_OK) st = grow((void **)&W->zj, &cap, W->nj + 1, sizeof(double));
    W->caps[3] = cap;
    if (st != LCP_OK) return st;
    prob_joint *j = &W->joint[W->nj];
    j->a = a;
    j->b = b < 0 ? -1 : b;
    memcpy(j->pa, pa, sizeof j->pa);
    memcpy(j->pb, pb, sizeof j->pb);
    j->len = len;
    j->kind = kind;
    memcpy(j->u, u, sizeof j->u);
    W->zj[W->nj++] = 0.0;
    return LCP_OK;
}

lcp_status prob_add_joint(prob_world *W, int a, int b, const double pa[3],
                          const double pb[3], double len)
{
    if (!W || a < 0 || a >= W->nb || b >= W->nb || a == b || !pa || !pb || !(len > 0.0))
        return LCP_ERR_ARG;
    static const double none[3] = {0.0, 0.0, 0.0};
    return add_kind(W, a, b, pa, pb, PROB_JOINT_DISTANCE, none, len);
}

lcp_status prob_add_pin(prob_world *W, int a, int b, const double pa[3], const double pb[3])
{
    if (!W || a < 0 || a >= W->nb || b >= W->nb || a == b || !pa || !pb) return LCP_ERR_ARG;
    lcp_status st = LCP_OK;
    for (int i = 0; i < W->dim && st == LCP_OK; i++) {
        double u[3] = {i == 0, i == 1, i == 2};              /* the world axes */
        st = add_kind(W, a, b, pa, pb, PROB_JOINT_AXIS, u, 0.0);
    }
    return st;
}

lcp_status prob_add_limit(prob_world *W, int a, int b, double lo, double hi)
{
    if (!W || W->dim != 2 || a < 0 || a >= W->nb || b >= W->nb || a == b || !(lo <= 0.0) ||
        !(hi >= 0.0) || !isfinite(lo) || !isfinite(hi))
        return LCP_ERR_ARG;
    double zero[3] = {0, 0, 0}, up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    if (lo == 0.0 && hi == 0.0) return add_kind(W, a, b, zero, zero, PROB_JOINT_ANGLE, up, 0.0);
    lcp_status st = add_kind(W, a, b, zero, zero, PROB_JOINT_LIMIT, up, lo);  /* phi - lo */
    if (st == LCP_OK) st = add_kind(W, a, b, zero, zero, PROB_JOINT_LIMIT, down, -hi);
    return st;                                                  /* -phi - (-hi) = hi - phi */
}

lcp_status prob_body_force(prob_world *W, int k, const double f[3])
{
    if (!W || k < 0 || k >= W->nb || !f || !isfinite(f[0]) || !isfinite(f[1]) ||
        !isfinite(f[2]))
        return LCP_ERR_ARG;
    if (!W->force) W->force = lcp_calloc(3 * (size_t)W->nb, sizeof(double));
    if (!W->force) return LCP_ERR_NOMEM;
    memcpy(W->force + 3 * k, f, 3 * sizeof(double));
    return LCP_OK;
}

lcp_status prob_world_set_solver(prob_world *W, const char *name, int max_iter, double tol)
{
    if (!W || !name || max_iter < 1) return LCP_ERR_ARG;
    const lcp_solver *s = lcp_solver_find(name);
    if (!s) return LCP_ERR_ARG;
    W->solver = s;
    lcp_options_default(&W->opt);
    W->opt.max_iter = max_iter;
    W->opt.tol = tol;
    W->opt.warm = 1;
    for (int k = 0; k < W->params.n; k++) {        /* keep meta.txt's iters and tol true */
        if (strcmp(W->params.p[k].key, "iters") == 0) W->params.p[k].value = max_iter;
        if (strcmp(W->params.p[k].key, "tol") == 0) W->params.p[k].value = tol;
    }
    return LCP_OK;
}

void prob_body_point(const prob_world *W, int k, const double p[3], double out[3])
{
    double R[9], Rp[3];
    prob_rotation(W, k, R);
    m3_apply(R, p, Rp);
    for (int i = 0; i < 3; i++) out[i] = W->pos[3 * k + i] + Rp[i];
}

double prob_kinetic_energy(const prob_world *W)
{
    double ke = 0.0;
    for (int k = 0; k < W->nb; k++) {
        const double *v = W->vel + (size_t)W->ndof * k;
        if (W->dim == 2) {
            ke += 0.5 * W->mass[k] * (v[0] * v[0] + v[1] * v[1]) +
                  0.5 * W->Ib[9 * k + 8] * v[2] * v[2];          /* 1/2 m v^2 + 1/2 I w^2 */
            continue;
        }
        double R[9], wb[3], Iw[3];
        prob_rotation(W, k, R);
        for (int i = 0; i < 3; i++)                              /* wb = R^T omega */
            wb[i] = R[i] * v[3] + R[3 + i] * v[4] + R[6 + i] * v[5];
        m3_apply(W->Ib + 9 * k, wb, Iw);
        ke += 0.5 * W->mass[k] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
              0.5 * v3_dot(wb, Iw);
    }
    return ke;
}

lcp_status prob_sphere_body(prob_world *W, int n, const double p[][3], double m, double r)
{
    if (n < 1 || n > 4) return LCP_ERR_ARG;
    double mi = m / n, Ib[9] = {0};
    for (int k = 0; k < n; k++) {
        double pp = v3_dot(p[k], p[k]);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                Ib[3 * i + j] += mi * ((i == j) * (0.4 * r * r + pp) - p[k][i] * p[k][j]);
    }
    lcp_status st = prob_world_init(W, 3, 1);
    double pos[3] = {0, 0, r}, up[3] = {0, 0, 1};
    if (st == LCP_OK) st = prob_body_set(W, 0, pos, m, Ib, 0.0);
    for (int k = 0; k < n && st == LCP_OK; k++) st = prob_add_geom(W, 0, p[k], p[k], r);
    if (st == LCP_OK) st = prob_add_plane(W, up, 0.0);
    return st;
}
