/* collide.c: contact detection of the stepper (problems/README.md "The step").
 *
 * Features and gaps (c = world centre of a feature, r its radius, n from second to first):
 *   sphere / segment end vs plane (n_p, d):  g = n_p . c - d - r,        n = n_p
 *   sphere vs sphere (bodies a < b):         g = |c_a - c_b| - r_a - r_b, n = (c_a - c_b)/|.|
 * A contact is kept when g <= margin.  Segments (capsules) touch planes at their two ends
 * (the nearest points of a segment to a plane); body-body contacts are between spheres of
 * bodies whose collide flag is set.  Box geoms are left to collide_box.c (face contacts:
 * box-plane corners, box-box by clipping), every box against every plane and every pair of
 * boxes whose bounding spheres come within margin (O(N^2) in the boxes).
 *
 * Broad phase: a uniform grid with cells of side 2 r_max + margin.  Each sphere gets the
 * packed key of its cell (21 bits per axis); the (key, index) pairs are sorted and every
 * occupied cell is paired with itself and with its 13 (3D) or 4 (2D) forward neighbours
 * found by binary search, so every candidate pair is visited once.  Cost O(N log N + pairs)
 * for N spheres, independent of how they are spread.
 * Tangents: 2D t1 = (-n_y, n_x); 3D t1 = the world axis least aligned with n projected on
 * the contact plane (the first of equals), t2 = n x t1.  Contacts are returned sorted by
 * identity (a, b, fa, fb), b = -1 - plane for the world (counting sort by a, O(n + bodies)).
 */
#include "prob_internal.h"

#include <stdlib.h>

typedef struct cell_ent {
    uint64_t key;
    int idx; /* index into the sphere list */
} cell_ent;

typedef struct contact_buf {
    prob_contact *c;
    int n, cap;
} contact_buf;

static int cell_cmp(const void *x, const void *y)
{
    const cell_ent *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

int prob_contact_cmp(const prob_contact *x, const prob_contact *y)
{
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    if (x->fa != y->fa) return x->fa < y->fa ? -1 : 1;
    return (x->fb > y->fb) - (x->fb < y->fb);
}

/* Sort B's contacts by identity: a counting sort of indices by body a, an insertion sort of
 * each body's few contacts by (b, fa, fb), then one gather.  O(n + nb) and each contact is
 * copied once (a comparison sort would move the large records log n times). */
static lcp_status sort_contacts(contact_buf *Bf, int nb)
{
    int n = Bf->n;
    int *start = lcp_calloc((size_t)nb + 1, sizeof(int));
    int *idx = lcp_malloc((size_t)n, sizeof(int));
    prob_contact *out = lcp_malloc((size_t)n, sizeof(prob_contact));
    if (!start || !idx || !out) {
        lcp_free(start);
        lcp_free(idx);
        lcp_free(out);
        return LCP_ERR_NOMEM;
    }
    for (int k = 0; k < n; k++) start[Bf->c[k].a + 1]++;
    for (int a = 0; a < nb; a++) start[a + 1] += start[a];
    for (int k = 0; k < n; k++) idx[start[Bf->c[k].a]++] = k;  /* start[a] = end of a */
    for (int a = nb; a > 0; a--) start[a] = start[a - 1];
    start[0] = 0;
    for (int a = 0; a < nb; a++)
        for (int k = start[a] + 1; k < start[a + 1]; k++)
            for (int t = k; t > start[a] && prob_contact_cmp(&Bf->c[idx[t - 1]], &Bf->c[idx[t]]) > 0;
                 t--) {
                int x = idx[t];
                idx[t] = idx[t - 1];
                idx[t - 1] = x;
            }
    for (int k = 0; k < n; k++) out[k] = Bf->c[idx[k]];
    lcp_free(Bf->c);
    Bf->c = out;
    Bf->cap = n;
    lcp_free(start);
    lcp_free(idx);
    return LCP_OK;
}

static prob_contact *push(contact_buf *B)
{
    if (B->n == B->cap) {
        int nc = B->cap ? 2 * B->cap : 64;
        prob_contact *p = lcp_realloc(B->c, (size_t)nc, sizeof *p);
        if (!p) return NULL;
        B->c = p;
        B->cap = nc;
    }
    prob_contact *c = &B->c[B->n++];
    memset(c, 0, sizeof *c);
    return c;
}

static void tangents(int dim, prob_contact *c)
{
    const double *n = c->n;
    if (dim == 2) {
        c->t1[0] = -n[1];
        c->t1[1] = n[0];
        c->t1[2] = 0.0;
        return;
    }
    int k = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(n[i]) < fabs(n[k])) k = i;
    double t[3] = {0, 0, 0};
    t[k] = 1.0;
    double s = n[k];
    for (int i = 0; i < 3; i++) t[i] -= s * n[i];          /* t = e_k - (n . e_k) n */
    double len = sqrt(v3_dot(t, t));
    for (int i = 0; i < 3; i++) c->t1[i] = t[i] / len;
    v3_cross(n, c->t1, c->t2);                             /* t2 = n x t1 */
}

/* world centre of geom end e into c */
static void feature_centre(const prob_world *W, const double *R, const prob_geom *g, int e,
                           double arm[3], double c[3])
{
    m3_apply(R + 9 * g->body, e ? g->b : g->a, arm);
    for (int i = 0; i < 3; i++) c[i] = W->pos[3 * g->body + i] + arm[i];
}

typedef struct sphere_list {
    int n;
    int *geom;        /* geom index */
    double *c;        /* 3 per sphere: world centre */
    double *arm;      /* 3 per sphere: centre - body position */
} sphere_list;

static lcp_status sphere_pair(const prob_world *W, const sphere_list *S, int i, int j,
                              contact_buf *B)
{
    const prob_geom *gi = &W->geom[S->geom[i]], *gj = &W->geom[S->geom[j]];
    if (gi->body == gj->body) return LCP_OK;
    if (gi->body > gj->body) {
        int t = i;                                          /* first = lower body index */
        i = j;
        j = t;
        const prob_geom *tg = gi;
        gi = gj;
        gj = tg;
    }
    const double *ci = S->c + 3 * i, *cj = S->c + 3 * j;
    double dv[3] = {ci[0] - cj[0], ci[1] - cj[1], ci[2] - cj[2]};
    double reach = gi->r + gj->r + W->margin;
    double d2 = v3_dot(dv, dv);
    if (d2 > reach * reach) return LCP_OK;
    double dist = sqrt(d2);
    double g = dist - gi->r - gj->r;                       /* g = |c_a - c_b| - r_a - r_b */
    if (g > W->margin) return LCP_OK;
    prob_contact *c = push(B);
    if (!c) return LCP_ERR_NOMEM;
    c->a = gi->body;
    c->b = gj->body;
    c->fa = 2 * S->geom[i];
    c->fb = 2 * S->geom[j];
    if (dist > 0.0) {
        for (int k = 0; k < 3; k++) c->n[k] = dv[k] / dist;
    } else {
        c->n[1] = 1.0;                                     /* coincident centres: up */
    }
    memcpy(c->arm_a, S->arm + 3 * i, sizeof c->arm_a);
    memcpy(c->arm_b, S->arm + 3 * j, sizeof c->arm_b);
    c->ra = gi->r;
    c->rb = gj->r;
    c->g = g;
    tangents(W->dim, c);
    return LCP_OK;
}

/* first position in E[0..n) with key >= k */
static int lower_bound(const cell_ent *E, int n, uint64_t k)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (E[mid].key < k) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static uint64_t pack(const int64_t ix[3])
{
    return (uint64_t)ix[0] | ((uint64_t)ix[1] << 21) | ((uint64_t)ix[2] << 42);
}

static lcp_status broad_phase(const prob_world *W, const sphere_list *S, contact_buf *B)
{
    if (S->n < 2) return LCP_OK;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double rmax = 0.0;
    for (int i = 0; i < S->n; i++) {
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], S->c[3 * i + k]);
            hi[k] = fmax(hi[k], S->c[3 * i + k]);
        }
        rmax = fmax(rmax, W->geom[S->geom[i]].r);
    }
    double cs = 2.0 * rmax + W->margin;                    /* cell side */
    for (int k = 0; k < 3; k++)
        if ((hi[k] - lo[k]) / cs > 1048576.0) cs = (hi[k] - lo[k]) / 1048576.0;
    cell_ent *E = lcp_malloc((size_t)S->n, sizeof *E);
    if (!E) return LCP_ERR_NOMEM;
    for (int i = 0; i < S->n; i++) {
        int64_t ix[3];
        for (int k = 0; k < 3; k++) ix[k] = (int64_t)floor((S->c[3 * i + k] - lo[k]) / cs) + 1;
        E[i].key = pack(ix);
        E[i].idx = i;
    }
    qsort(E, (size_t)S->n, sizeof *E, cell_cmp);
    static const int off3[13][3] = {{1, 0, 0},  {-1, 1, 0}, {0, 1, 0},   {1, 1, 0},  {-1, -1, 1},
                                    {0, -1, 1}, {1, -1, 1}, {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},
                                    {-1, 1, 1}, {0, 1, 1},  {1, 1, 1}};
    int noff = W->dim == 2 ? 4 : 13;                       /* the first 4 have dz = 0 */
    lcp_status st = LCP_OK;
    const uint64_t mask = (1u << 21) - 1;
    for (int s = 0; s < S->n && st == LCP_OK;) {
        int e = s;
        while (e < S->n && E[e].key == E[s].key) e++;
        for (int a = s; a < e && st == LCP_OK; a++)        /* pairs inside the cell */
            for (int b = a + 1; b < e && st == LCP_OK; b++)
                st = sphere_pair(W, S, E[a].idx, E[b].idx, B);
        int64_t ix[3] = {(int64_t)(E[s].key & mask), (int64_t)((E[s].key >> 21) & mask),
                         (int64_t)(E[s].key >> 42)};
        for (int o = 0; o < noff && st == LCP_OK; o++) {
            int64_t jx[3] = {ix[0] + off3[o][0], ix[1] + off3[o][1], ix[2] + off3[o][2]};
            uint64_t k2 = pack(jx);
            for (int t = lower_bound(E, S->n, k2); t < S->n && E[t].key == k2 && st == LCP_OK;
                 t++)
                for (int a = s; a < e && st == LCP_OK; a++)
                    st = sphere_pair(W, S, E[a].idx, E[t].idx, B);
        }
        s = e;
    }
    lcp_free(E);
    return st;
}

/* append n contacts with their tangents */
static lcp_status append(int dim, contact_buf *B, const prob_contact *c, int n)
{
    for (int k = 0; k < n; k++) {
        prob_contact *d = push(B);
        if (!d) return LCP_ERR_NOMEM;
        *d = c[k];
        tangents(dim, d);
    }
    return LCP_OK;
}

/* boxes (collide_box.c): against every plane, and every pair of box geoms on different
 * bodies whose bounding spheres (radius |half|) come within margin, lower body first */
static lcp_status box_contacts(const prob_world *W, const double *R, contact_buf *B)
{
    prob_contact c[8];
    lcp_status st = LCP_OK;
    for (int gi = 0; gi < W->ng && st == LCP_OK; gi++) {
        const prob_geom *g = &W->geom[gi];
        if (!(g->half[0] > 0.0)) continue;
        const double *x = W->pos + 3 * g->body;
        if (!isfinite(x[0] + x[1] + x[2])) return LCP_ERR_NONFINITE;
        for (int p = 0; p < W->npl && st == LCP_OK; p++)
            st = append(W->dim, B, c, prob_box_plane(W, R, gi, p, c));
        double ri = sqrt(v3_dot(g->half, g->half));
        for (int gj = 0; gj < W->ng && st == LCP_OK; gj++) {
            const prob_geom *h = &W->geom[gj];
            if (!(h->half[0] > 0.0) || h->body <= g->body) continue;
            const double *y = W->pos + 3 * h->body;
            double d[3] = {y[0] - x[0], y[1] - x[1], y[2] - x[2]};
            double reach = ri + sqrt(v3_dot(h->half, h->half)) + W->margin;
            if (v3_dot(d, d) > reach * reach) continue;
            st = append(W->dim, B, c, prob_box_box(W, R, gi, gj, c));
        }
    }
    return st;
}

lcp_status prob_collide(const prob_world *W, const double *R, prob_contact **out, int *nout)
{
    contact_buf B = {NULL, 0, 0};
    sphere_list S = {0, NULL, NULL, NULL};
    lcp_status st = LCP_OK;
    S.geom = lcp_malloc((size_t)W->ng + 1, sizeof(int));
    S.c = lcp_malloc(3 * ((size_t)W->ng + 1), sizeof(double));
    S.arm = lcp_malloc(3 * ((size_t)W->ng + 1), sizeof(double));
    if (!S.geom || !S.c || !S.arm) st = LCP_ERR_NOMEM;
    for (int gi = 0; gi < W->ng && st == LCP_OK; gi++) {
        const prob_geom *g = &W->geom[gi];
        if (g->half[0] > 0.0) continue;                    /* boxes: box_contacts */
        int sphere = memcmp(g->a, g->b, sizeof g->a) == 0;
        for (int e = 0; e < (sphere ? 1 : 2) && st == LCP_OK; e++) {
            double arm[3], c[3];
            feature_centre(W, R, g, e, arm, c);
            if (!isfinite(c[0] + c[1] + c[2])) {           /* a diverged simulation */
                st = LCP_ERR_NONFINITE;
                break;
            }
            for (int p = 0; p < W->npl; p++) {
                const prob_plane *pl = &W->plane[p];
                double gap = v3_dot(pl->n, c) - pl->d - g->r;  /* g = n.c - d - r */
                if (gap > W->margin) continue;
                prob_contact *ct = push(&B);
                if (!ct) {
                    st = LCP_ERR_NOMEM;
                    break;
                }
                ct->a = g->body;
                ct->b = -1 - p;
                ct->fa = 2 * gi + e;
                ct->fb = p;
                memcpy(ct->n, pl->n, sizeof ct->n);
                memcpy(ct->arm_a, arm, sizeof arm);
                ct->ra = g->r;
                ct->g = gap;
                tangents(W->dim, ct);
            }
            if (sphere && W->collide[g->body]) {
                S.geom[S.n] = gi;
                memcpy(S.c + 3 * S.n, c, sizeof c);
                memcpy(S.arm + 3 * S.n, arm, sizeof arm);
                S.n++;
            }
        }
    }
    if (st == LCP_OK) st = broad_phase(W, &S, &B);
    if (st == LCP_OK) st = box_contacts(W, R, &B);
    if (st == LCP_OK && B.n > 1) st = sort_contacts(&B, W->nb);
    lcp_free(S.geom);
    lcp_free(S.c);
    lcp_free(S.arm);
    if (st != LCP_OK) {
        lcp_free(B.c);
        B.c = NULL;
        B.n = 0;
    }
    *out = B.c;
    *nout = B.n;
    return st;
}
