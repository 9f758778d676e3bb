/* dantzig_loops.h: the plain dense loops of dantzig.c (below OpenBLAS's sizes), inside
 * liblcp and its tests only.  What they promise is the order of their sums, so that the
 * faster forms give the bits of the simple ones (tests/library/test_dantzig.c, "loops"):
 *   dz_dot_loop      a.b in four partial sums, k mod 4, the tail added to the first;
 *   dz_dot2_loop     a.x and a.y, each as dz_dot_loop sums it, in one loop;
 *   dz_trsv_lower    x := L^-1 x, row j's sum exactly dz_dot_loop(j, L(j, :), x);
 *   dz_trsv_upper    x := L^-T x, each entry of x taking the rows' terms from the last row
 *                    up, as x(0:j) -= x_j L(j, 0:j) for j = n-1 .. 1 one row at a time.
 * L unit lower triangular, row-major, leading dimension ld; no contraction of a product
 * and a sum into one rounding (ISO C: GCC does not contract; the build uses -std=c11). */
#ifndef LCP_DANTZIG_LOOPS_H
#define LCP_DANTZIG_LOOPS_H

#include <stddef.h>
#include <string.h>

/* a.b in four partial sums (four independent chains of adds, as the BLAS kernels), the
 * plain loop: inlined into the small triangular solve, whose rows are dots of 1 to 31 terms
 * (a call per row was a third of a 20-row solve's instructions) */
static inline __attribute__((always_inline)) double dz_dot_loop(int n, const double *a,
                                                                const double *b)
{
    double t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0;
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        t0 += a[k] * b[k];
        t1 += a[k + 1] * b[k + 1];
        t2 += a[k + 2] * b[k + 2];
        t3 += a[k + 3] * b[k + 3];
    }
    for (; k < n; k++) t0 += a[k] * b[k];
    return (t0 + t1) + (t2 + t3);
}

/* a.x and a.y, each summed exactly as dz_dot_loop(n, a, .) sums it (the same four partial
 * sums, tail and pairing): the forward solves of two rows of the unbounded block share the
 * loads of a and the loop */
static inline __attribute__((always_inline)) void dz_dot2_loop(int n, const double *a,
                                                               const double *x, const double *y,
                                                               double *ax, double *ay)
{
    double t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0, u0 = 0.0, u1 = 0.0, u2 = 0.0, u3 = 0.0;
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        t0 += a[k] * x[k];
        t1 += a[k + 1] * x[k + 1];
        t2 += a[k + 2] * x[k + 2];
        t3 += a[k + 3] * x[k + 3];
        u0 += a[k] * y[k];
        u1 += a[k + 1] * y[k + 1];
        u2 += a[k + 2] * y[k + 2];
        u3 += a[k + 3] * y[k + 3];
    }
    for (; k < n; k++) {
        t0 += a[k] * x[k];
        u0 += a[k] * y[k];
    }
    *ax = (t0 + t1) + (t2 + t3);
    *ay = (u0 + u1) + (u2 + u3);
}

/* two doubles as one value (GCC's vector extension: each lane's arithmetic is the scalar
 * arithmetic, so the loops below sum what the plain loops sum), loaded from any address */
typedef double dz_v2 __attribute__((vector_size(16)));

static inline dz_v2 dz_ld2(const double *p)
{
    dz_v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* the four partial sums of dz_dot_loop for four rows a0..a3 over k < n (n a multiple of 4),
 * into t[4][4]: the loads of x shared by the four rows (ODE's solves work four rows at a
 * time too); each row's sums are dz_dot_loop's, term for term */
static inline __attribute__((always_inline)) void dz_part4(int n, const double *a0,
                                                           const double *a1, const double *a2,
                                                           const double *a3, const double *x,
                                                           double t[4][4])
{
    const double *a[4] = {a0, a1, a2, a3};
    dz_v2 lo[4], hi[4];                                /* lanes: sums 0, 1 and sums 2, 3 */
    for (int r = 0; r < 4; r++) lo[r] = hi[r] = (dz_v2){0.0, 0.0};
    for (int k = 0; k + 4 <= n; k += 4) {
        dz_v2 x01 = dz_ld2(x + k), x23 = dz_ld2(x + k + 2);
        for (int r = 0; r < 4; r++) {
            lo[r] += dz_ld2(a[r] + k) * x01;
            hi[r] += dz_ld2(a[r] + k + 2) * x23;
        }
    }
    for (int r = 0; r < 4; r++) {
        t[r][0] = lo[r][0];
        t[r][1] = lo[r][1];
        t[r][2] = hi[r][0];
        t[r][3] = hi[r][1];
    }
}

#define DZ_SUM4(t) (((t)[0] + (t)[1]) + ((t)[2] + (t)[3]))

/* x := L^-1 x, L unit lower triangular, row-major, n x n: x_j -= L(j, 0:j) x, row j's sum
 * exactly dz_dot_loop(j, L(j, :), x), four rows at a time (their sums over the columns
 * before the block shared, then the block's own columns as dz_dot_loop's tail) */
static void dz_trsv_lower(int n, const double *L, int ld, double *x)
{
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        const double *r0 = L + (size_t)j * (size_t)ld, *r1 = r0 + ld, *r2 = r1 + ld,
                     *r3 = r2 + ld;
        double t[4][4];
        dz_part4(j, r0, r1, r2, r3, x, t);
        if (j > 0) x[j] -= DZ_SUM4(t[0]);
        t[1][0] += r1[j] * x[j];
        x[j + 1] -= DZ_SUM4(t[1]);
        t[2][0] += r2[j] * x[j];
        t[2][0] += r2[j + 1] * x[j + 1];
        x[j + 2] -= DZ_SUM4(t[2]);
        t[3][0] += r3[j] * x[j];
        t[3][0] += r3[j + 1] * x[j + 1];
        t[3][0] += r3[j + 2] * x[j + 2];
        x[j + 3] -= DZ_SUM4(t[3]);
    }
    for (; j < n; j++)
        if (j > 0) x[j] -= dz_dot_loop(j, L + (size_t)j * (size_t)ld, x);
}

/* x := L^-T x: x(0:j) -= x_j L(j, 0:j) for j = n-1 down to 1, four rows at a time (each
 * entry of x takes the four rows' terms in the same order as one row at a time) */
static void dz_trsv_upper(int n, const double *L, int ld, double *x)
{
    int j = n - 1;
    for (; j >= 4; j -= 4) {
        const double *r0 = L + (size_t)j * (size_t)ld, *r1 = r0 - ld, *r2 = r1 - ld,
                     *r3 = r2 - ld;
        double x0 = x[j];
        x[j - 1] -= r0[j - 1] * x0;                              /* the block's own rows */
        x[j - 2] -= r0[j - 2] * x0;
        x[j - 3] -= r0[j - 3] * x0;
        double x1 = x[j - 1];
        x[j - 2] -= r1[j - 2] * x1;
        x[j - 3] -= r1[j - 3] * x1;
        double x2 = x[j - 2];
        x[j - 3] -= r2[j - 3] * x2;
        double x3 = x[j - 3];
        dz_v2 y0 = {x0, x0}, y1 = {x1, x1}, y2 = {x2, x2}, y3 = {x3, x3};
        int k = 0;
        for (; k + 2 <= j - 3; k += 2) {
            dz_v2 v = dz_ld2(x + k);
            v -= dz_ld2(r0 + k) * y0;
            v -= dz_ld2(r1 + k) * y1;
            v -= dz_ld2(r2 + k) * y2;
            v -= dz_ld2(r3 + k) * y3;
            memcpy(x + k, &v, sizeof v);
        }
        for (; k < j - 3; k++) {
            double v = x[k];
            v -= r0[k] * x0;
            v -= r1[k] * x1;
            v -= r2[k] * x2;
            v -= r3[k] * x3;
            x[k] = v;
        }
    }
    for (; j > 0; j--) {
        const double *r = L + (size_t)j * (size_t)ld;
        double xj = x[j];
        for (int k = 0; k < j; k++) x[k] -= r[k] * xj;
    }
}

#endif
