/* collide_box.c: contacts of boxes (problems/README.md "The step", box geoms), for the
 * face-on-face stacks of the `boxes' scene.
 *
 * A box geom is centred on its body's centre of mass with half extents h (body frame,
 * axes u_i = the columns of R).  Contact points are points of the boxes' surfaces; the
 * contact's lever arms go to them (ra = rb = 0).
 *   box vs plane (n_p, d): each of the 8 vertices v with g = n_p . v - d <= margin is a
 *     contact, n = n_p; a box lying on a face gives its four corners.
 *   box a vs box b (a < b): the separating-axis test on the 6 face normals (3 of each box;
 *     the 9 edge-edge axes are left out: a face detector, right for resting stacks, walls
 *     and towers, rough for boxes meeting edge on edge).  s(u) = |d . u| - rho_a(u) -
 *     rho_b(u) with d = c_b - c_a and rho(u) = sum_i h_i |u_i . u|; the axis of largest s
 *     (the first of equals, a's before b's) names the reference face (normal n_r towards
 *     the other box); no contact when s > margin.  The incident face is the other box's
 *     face most anti-parallel to n_r.  Its 4 corners are clipped (Sutherland-Hodgman) to
 *     the reference face's rectangle; each clipped point p with depth
 *     g = n_r . (p - face centre) <= margin is a contact with points p (incident) and
 *     p - g n_r (reference).  Two aligned boxes of equal size give the 4 corners of their
 *     common face: the redundant contacts (rank 3 of 4 normal rows).  A clipped corner
 *     within tol = 1e-6 m + 1e-5 max h of the line through its neighbours is dropped (a
 *     nearly aligned incident face would otherwise give near-copies and collinear points
 *     where its edges cross the reference face's, 6 points for 4); a clipped polygon narrower
 *     than 1e-3 min h in either direction gives none: faces meeting only along an edge
 *     line, as the diagonal neighbours of a brick wall do, or in a sliver (those same
 *     neighbours once a row has sunk by the SPOOK compression, about 1e-5 m).
 * Normal n from b to a (the stepper's rule).  Identity: fa = -1 - (16 geom_a + k) with k
 * the vertex (plane) or the clipped point's index (box pairs), fb = the plane, or
 * -1 - (16 geom_b + reference face code 0..11); negative so that they never meet the
 * sphere features 2 geom + end.
 * Cost: O(1) per box and plane, O(1) per pair; the pairs are all pairs of boxes whose
 * bounding spheres come within margin (O(N^2) for N boxes: meant for N up to a few hundred).
 */
#include "prob_internal.h"

/* world centre c, axes U (columns of R: U[3 i + k] = axis k component i) and half extents */
typedef struct wbox {
    double c[3];
    const double *R;
    const double *h;
} wbox;

static void box_of(const prob_world *W, const double *R, int gi, wbox *B)
{
    const prob_geom *g = &W->geom[gi];
    B->R = R + 9 * g->body;
    B->h = g->half;
    memcpy(B->c, W->pos + 3 * g->body, sizeof B->c);
}

static void axis(const wbox *B, int k, double u[3])
{
    for (int i = 0; i < 3; i++) u[i] = B->R[3 * i + k];
}

/* rho(u) = sum_i h_i |u_i . u|, the box's reach along u */
static double reach(const wbox *B, const double u[3])
{
    double s = 0.0, a[3];
    for (int k = 0; k < 3; k++) {
        axis(B, k, a);
        s += B->h[k] * fabs(v3_dot(a, u));
    }
    return s;
}

static void fill(prob_contact *c, int a, int b, const double n[3], const double pa[3],
                 const double pb[3], const prob_world *W, double g)
{
    memset(c, 0, sizeof *c);
    c->a = a;
    c->b = b;
    memcpy(c->n, n, sizeof c->n);
    for (int i = 0; i < 3; i++) {
        c->arm_a[i] = pa[i] - W->pos[3 * a + i];
        if (b >= 0) c->arm_b[i] = pb[i] - W->pos[3 * b + i];
    }
    c->g = g;
}

int prob_box_plane(const prob_world *W, const double *R, int gi, int p, prob_contact *out)
{
    wbox B;
    box_of(W, R, gi, &B);
    const prob_plane *pl = &W->plane[p];
    int n = 0;
    for (int v = 0; v < 8; v++) {
        double x[3];
        for (int i = 0; i < 3; i++)                      /* x = c + sum_k +-h_k u_k */
            x[i] = B.c[i] + ((v & 1) ? 1 : -1) * B.h[0] * B.R[3 * i] +
                   ((v & 2) ? 1 : -1) * B.h[1] * B.R[3 * i + 1] +
                   ((v & 4) ? 1 : -1) * B.h[2] * B.R[3 * i + 2];
        double g = v3_dot(pl->n, x) - pl->d;             /* g = n . x - d */
        if (g > W->margin) continue;
        fill(&out[n], W->geom[gi].body, -1 - p, pl->n, x, x, W, g);
        out[n].fa = -1 - (16 * gi + v);
        out[n].fb = p;
        n++;
    }
    return n;
}

/* clip the polygon P (np points, 2D) to s * x[k] <= lim; returns the new count (<= 8) */
static int clip(double P[][2], int np, int k, double s, double lim)
{
    double Q[16][2];
    int nq = 0;
    for (int i = 0; i < np; i++) {
        const double *x = P[i], *y = P[(i + 1) % np];
        double fx = s * x[k] - lim, fy = s * y[k] - lim;
        if (fx <= 0.0) Q[nq][0] = x[0], Q[nq][1] = x[1], nq++;
        if ((fx < 0.0 && fy > 0.0) || (fx > 0.0 && fy < 0.0)) {
            double t = fx / (fx - fy);
            Q[nq][0] = x[0] + t * (y[0] - x[0]);
            Q[nq][1] = x[1] + t * (y[1] - x[1]);
            nq++;
        }
    }
    if (nq > 8) nq = 8;
    memcpy(P, Q, (size_t)nq * sizeof Q[0]);
    return nq;
}

/* drop the corners of the polygon P within tol of the line through their neighbours
 * (near-copies, and the collinear points a nearly coincident edge leaves); the count */
static int simplify(double P[][2], int np, double tol)
{
    for (int v = 0; np > 2 && v < np;) {
        const double *a = P[(v + np - 1) % np], *b = P[v], *c = P[(v + 1) % np];
        double ex = c[0] - a[0], ey = c[1] - a[1], len = hypot(ex, ey);
        double dist = len > 0.0 ? fabs(ex * (b[1] - a[1]) - ey * (b[0] - a[0])) / len
                                : hypot(b[0] - a[0], b[1] - a[1]);
        if (dist > tol) {
            v++;
            continue;
        }
        memmove(P[v], P[v + 1], (size_t)(np - v - 1) * sizeof P[0]);
        np--;
        v = 0;                                             /* start again: neighbours moved */
    }
    return np;
}

/* the separating axis of largest s over the 6 face normals: box (0: a, 1: b), axis k */
static double best_axis(const wbox *A, const wbox *B, const double d[3], int *box, int *k)
{
    double best = -INFINITY;
    for (int w = 0; w < 2; w++)
        for (int j = 0; j < 3; j++) {
            double u[3];
            axis(w ? B : A, j, u);
            double s = fabs(v3_dot(d, u)) - reach(A, u) - reach(B, u);
            if (s > best) best = s, *box = w, *k = j;
        }
    return best;
}

/* the incident box's face most anti-parallel to nr: its centre f0 and outward normal ni,
 * and its corners in the reference face's coordinates (along t1, t2 from fc) */
static void incident_face(const wbox *I, const double nr[3], const double fc[3],
                          const double t1[3], const double t2[3], double P[][2],
                          double f0[3], double ni[3])
{
    int f = 0;
    double u[3], best = -1.0, sg = 1.0;
    for (int j = 0; j < 3; j++) {
        axis(I, j, u);
        double c = v3_dot(u, nr);
        if (fabs(c) > best) best = fabs(c), f = j, sg = c > 0 ? -1.0 : 1.0;
    }
    int e1 = (f + 1) % 3, e2 = (f + 2) % 3;
    for (int i = 0; i < 3; i++) {
        ni[i] = sg * I->R[3 * i + f];
        f0[i] = I->c[i] + I->h[f] * ni[i];
    }
    static const double sq[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int v = 0; v < 4; v++) {
        double x[3];
        for (int i = 0; i < 3; i++)
            x[i] = f0[i] - fc[i] + sq[v][0] * I->h[e1] * I->R[3 * i + e1] +
                   sq[v][1] * I->h[e2] * I->R[3 * i + e2];
        P[v][0] = v3_dot(x, t1);
        P[v][1] = v3_dot(x, t2);
    }
}

/* the reference face of the pair (gi, gj) and the incident corners clipped to it: returns
 * the count (<= 8) and fills P, fc, t1, t2, nr, f0, ni, *rb (0: reference on a), *code */
typedef struct face_pair {
    double P[8][2], fc[3], t1[3], t2[3], nr[3], f0[3], ni[3];
    int rb, code;
} face_pair;

static int face_clip(const prob_world *W, const wbox *A, const wbox *B, face_pair *F)
{
    double d[3] = {B->c[0] - A->c[0], B->c[1] - A->c[1], B->c[2] - A->c[2]};
    int k = 0;
    F->rb = 0;
    if (best_axis(A, B, d, &F->rb, &k) > W->margin) return 0;
    const wbox *Rf = F->rb ? B : A, *In = F->rb ? A : B;
    axis(Rf, k, F->nr);
    double sgn = v3_dot(d, F->nr) * (F->rb ? -1.0 : 1.0) >= 0.0 ? 1.0 : -1.0;
    for (int i = 0; i < 3; i++) F->nr[i] *= sgn;          /* reference box -> incident box */
    for (int i = 0; i < 3; i++) F->fc[i] = Rf->c[i] + Rf->h[k] * F->nr[i];
    int e1 = (k + 1) % 3, e2 = (k + 2) % 3;
    axis(Rf, e1, F->t1);
    axis(Rf, e2, F->t2);
    F->code = 6 * F->rb + 2 * k + (sgn > 0);
    incident_face(In, F->nr, F->fc, F->t1, F->t2, F->P, F->f0, F->ni);
    int np = clip(F->P, 4, 0, 1.0, Rf->h[e1]);
    np = clip(F->P, np, 0, -1.0, Rf->h[e1]);
    np = clip(F->P, np, 1, 1.0, Rf->h[e2]);
    return clip(F->P, np, 1, -1.0, Rf->h[e2]);
}

int prob_box_box(const prob_world *W, const double *R, int gi, int gj, prob_contact *out)
{
    wbox A, B;
    box_of(W, R, gi, &A);
    box_of(W, R, gj, &B);
    face_pair F;
    int np = face_clip(W, &A, &B, &F);
    double hmax = fmax(fmax(A.h[0], A.h[1]), fmax(A.h[2], fmax(B.h[0], fmax(B.h[1], B.h[2]))));
    double tol = 1e-6 + 1e-5 * hmax;
    int a = W->geom[gi].body, b = W->geom[gj].body, nc = 0;
    double n[3];                                           /* from b to a */
    for (int i = 0; i < 3; i++) n[i] = F.rb ? F.nr[i] : -F.nr[i];
    double den = v3_dot(F.ni, F.nr);                       /* < 0: the faces oppose */
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int v = 0; v < np; v++)
        for (int i = 0; i < 2; i++) lo[i] = fmin(lo[i], F.P[v][i]), hi[i] = fmax(hi[i], F.P[v][i]);
    double hmin = fmin(fmin(A.h[0], A.h[1]), fmin(A.h[2], fmin(B.h[0], fmin(B.h[1], B.h[2]))));
    if (np > 0 && (hi[0] - lo[0] <= 1e-3 * hmin || hi[1] - lo[1] <= 1e-3 * hmin))
        np = 0;                                            /* edge on edge, or a sliver */
    np = simplify(F.P, np, tol);
    for (int v = 0; v < np; v++) {
        if (den >= 0.0) continue;
        double p[3], q[3], fp[3];
        for (int i = 0; i < 3; i++) {
            p[i] = F.fc[i] + F.P[v][0] * F.t1[i] + F.P[v][1] * F.t2[i];  /* on the reference */
            fp[i] = F.f0[i] - p[i];
        }
        double g = v3_dot(F.ni, fp) / den;                 /* q = p + g nr on the incident face */
        if (g > W->margin) continue;
        for (int i = 0; i < 3; i++) q[i] = p[i] + g * F.nr[i];
        const double *pa = F.rb ? q : p, *pb = F.rb ? p : q;
        fill(&out[nc], a, b, n, pa, pb, W, g);
        out[nc].fa = -1 - (16 * gi + v);
        out[nc].fb = -1 - (16 * gj + F.code);
        nc++;
    }
    return nc;
}
