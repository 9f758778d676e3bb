/* prob_internal.h: what the stepper's files share: 3-vector helpers, the rotation of a body
 * (quaternion or angle to a row-major 3x3 matrix), the contact detection entry point and
 * the generator the scenes draw their layouts from (splitmix64, lcp_internal.h). */
#ifndef PROB_INTERNAL_H
#define PROB_INTERNAL_H

#include "lcp_internal.h"
#include "prob.h"

#include <math.h>
#include <string.h>

static inline double v3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void v3_cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* y = M x, M 3x3 row-major */
static inline void m3_apply(const double M[9], const double x[3], double y[3])
{
    for (int i = 0; i < 3; i++) y[i] = M[3 * i] * x[0] + M[3 * i + 1] * x[1] + M[3 * i + 2] * x[2];
}

/* R of body k (row-major): 3D from the unit quaternion, 2D a rotation about z by theta */
static inline void prob_rotation(const prob_world *W, int k, double R[9])
{
    const double *q = W->rot + 4 * k;
    if (W->dim == 2) {
        double c = cos(q[0]), s = sin(q[0]);
        double M[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
        memcpy(R, M, sizeof M);
        return;
    }
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z);     R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y);     R[7] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}

/* Contact detection (collide.c): a new array of *nout contacts (lcp_malloc), sorted by
 * identity, impulses zero.  R holds the rotation of every body (9 per body). */
lcp_status prob_collide(const prob_world *W, const double *R, prob_contact **out, int *nout);

/* collide_box.c: the contacts (at most 8) of box geom gi with plane p, and of box geoms
 * gi and gj (bodies a < b); each returns the count written to out */
int prob_box_plane(const prob_world *W, const double *R, int gi, int p, prob_contact *out);
int prob_box_box(const prob_world *W, const double *R, int gi, int gj, prob_contact *out);

/* world.c: a 3D world of one rigid body made of n <= 4 solid spheres of radius r (total mass
 * m, m/n each) with centres at p[k] in the body frame, the body centre at (0, 0, r) above the
 * plane z = 0 (inertia sum_k (2/5 m_k r^2 I + m_k (|p_k|^2 I - p_k p_k^T))); the scenes
 * three-spheres and slide */
lcp_status prob_sphere_body(prob_world *W, int n, const double p[][3], double m, double r);

/* modal.c: rank of the dense m x n J (column-major) by the column-pivoted QR of J^T
 * (dgeqp3), #{|R_ii| > 1e-12 |R_11|}; 0 when m or n is 0, -1 out of memory or on a
 * LAPACK failure */
int prob_rank(int m, int n, const double *J);

/* step.c: x += h v (when linear), 2D theta += h omega, 3D q += h/2 (0, omega) q renormalised */
void prob_integrate(prob_world *W, int linear);

/* identity order of two contacts: a, b, fa, fb */
int prob_contact_cmp(const prob_contact *x, const prob_contact *y);

#endif
